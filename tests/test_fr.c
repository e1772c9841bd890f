/* Fr tests: every operation against the slow reference (ref_bigint.h) on the
 * canonical integers, the field axioms, the byte encodings, the generated
 * Montgomery constants and the roots of unity of both conventions.
 * Rerun with CUZK_TEST_SEED=<seed>; scale with CUZK_TEST_ITERS=<n>. */
#include "ref_bigint.h"
#include "test_util.h"

#include <string.h>

/* Generated constants (tools/gen_constants.py), checked against the reference. */
#include "../src/field/constants_gen.h"

/* r, the order of G1, G2 and GT of BLS12-381, as published
 * (draft-irtf-cfrg-pairing-friendly-curves). */
static const char R_HEX[] = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

static ref_bn_t R;         /* r */
static ref_bn_t HALF;      /* (r-1)/2 */
static ref_bn_t MONT_R;    /* 2^256 mod r */
static ref_bn_t MONT_RINV; /* 2^-256 mod r */

static int iters(void)
{
    return tu_iters(2000);
}

/* For checks that run the reference's exponentiation (milliseconds each). */
static int iters_slow(void)
{
    int n = tu_iters(2000) / 64;
    return n > 0 ? n : 1;
}

/* ---- bridges between fr_t and the reference ------------------------------ */

static void ref_of(ref_bn_t *out, const fr_t *a)
{
    uint8_t b[FR_BYTES];
    fr_to_be(b, a);
    ref_from_be(out, b, FR_BYTES);
}

static void fr_of(fr_t *out, const ref_bn_t *a)
{
    uint8_t b[FR_BYTES];
    ref_to_be(b, FR_BYTES, a);
    assert_int_equal(fr_from_be(out, b), CUZK_OK);
}

/* Fails, printing the operands and both results, unless got == want and got
 * is stored fully reduced (its Montgomery limbs below the modulus: to_be would
 * hide a value stored as itself plus the modulus). */
static void expect_ref(const char *op, const fr_t *got, const ref_bn_t *want, const fr_t *a,
                       const fr_t *b)
{
    ref_bn_t g, ra, rb, raw;
    ref_from_limbs(&raw, got->l, FR_LIMBS);
    ref_of(&g, got);
    int reduced = ref_cmp(&raw, &R) < 0;
    if (reduced && ref_cmp(&g, want) == 0)
        return;
    char ha[REF_HEX_MAX], hb[REF_HEX_MAX], hw[REF_HEX_MAX], hg[REF_HEX_MAX];
    ref_of(&ra, a);
    ref_to_hex(ha, &ra);
    if (b) {
        ref_of(&rb, b);
        ref_to_hex(hb, &rb);
    } else {
        strcpy(hb, "-");
    }
    ref_to_hex(hw, want);
    ref_to_hex(hg, reduced ? &g : &raw);
    fail_msg("%s: a=%s b=%s: expected %s, got %s%s", op, ha, hb, hw,
             reduced ? "" : "Montgomery limbs ", hg);
}

static void expect_fr_equal(const char *what, const fr_t *got, const fr_t *want, const fr_t *a)
{
    ref_bn_t rw;
    ref_of(&rw, want);
    expect_ref(what, got, &rw, a, NULL);
}

/* Half the draws come from tu_rand_fr; the other half have Montgomery limbs
 * made of runs (zero, all ones, one bit, ones above a random bit), which the
 * carry chains of the multiplication see directly. */
static void rand_fr(fr_t *out)
{
    if (tu_rand64() & 1) {
        tu_rand_fr(out);
        return;
    }
    for (;;) {
        ref_bn_t raw;
        for (int i = 0; i < FR_LIMBS; i++) {
            switch (tu_rand64() % 5) {
            case 0: out->l[i] = 0; break;
            case 1: out->l[i] = UINT64_MAX; break;
            case 2: out->l[i] = (uint64_t)1 << (tu_rand64() % 64); break;
            case 3: out->l[i] = UINT64_MAX << (tu_rand64() % 64); break;
            default: out->l[i] = tu_rand64(); break;
            }
        }
        out->l[FR_LIMBS - 1] >>= 1; /* r < 2^255 */
        ref_from_limbs(&raw, out->l, FR_LIMBS);
        if (ref_cmp(&raw, &R) < 0)
            return;
    }
}

/* Edge values: 0, 1, 2, 3, r-1, r-2, (r-1)/2, (r+1)/2, powers of two at limb
 * and word boundaries, 2^256 mod r and its inverse, r - 2^64. */
#define N_EDGES 16
static void edge_values(fr_t out[N_EDGES])
{
    ref_bn_t v[N_EDGES], one;
    ref_set_u64(&one, 1);
    ref_set_u64(&v[0], 0);
    ref_set_u64(&v[1], 1);
    ref_set_u64(&v[2], 2);
    ref_set_u64(&v[3], 3);
    ref_sub(&v[4], &R, &one);
    ref_sub(&v[5], &v[4], &one);
    v[6] = HALF;
    ref_add(&v[7], &HALF, &one);
    ref_set_u64(&v[8], UINT64_MAX);
    ref_shl(&v[9], &one, 64);
    ref_shl(&v[10], &one, 192);
    ref_shl(&v[11], &one, 254);
    ref_sub(&v[12], &v[11], &one);
    v[13] = MONT_R;
    v[14] = MONT_RINV;
    ref_sub(&v[15], &R, &v[9]);
    for (int i = 0; i < N_EDGES; i++)
        fr_of(&out[i], &v[i]);
}

static uint64_t edgy64(void)
{
    switch (tu_rand64() % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return UINT64_MAX;
    case 3: return (uint64_t)1 << (tu_rand64() % 64);
    default: return tu_rand64() >> (tu_rand64() % 64);
    }
}

/* ---- constants ----------------------------------------------------------- */

static void test_fr_modulus_is_published_r(void **state)
{
    (void)state;
    static const uint64_t gen[FR_LIMBS] = CUZK_R_LIMBS;
    ref_bn_t m, q, rem, t;
    ref_from_limbs(&m, FR_MODULUS, FR_LIMBS);
    assert_int_equal(ref_cmp(&m, &R), 0);
    ref_from_limbs(&m, gen, FR_LIMBS);
    assert_int_equal(ref_cmp(&m, &R), 0);
    assert_int_equal(CUZK_R_TOP_LIMB, FR_MODULUS[FR_LIMBS - 1]);
    assert_int_equal(ref_bitlen(&R), 255);
    /* r - 1 = 2^32 * odd: FR_TWO_ADICITY. */
    ref_set_u64(&t, 1);
    ref_sub(&m, &R, &t);
    ref_shl(&t, &t, FR_TWO_ADICITY);
    ref_divmod(&q, &rem, &m, &t);
    assert_true(ref_is_zero(&rem));
    assert_int_equal(ref_bit(&q, 0), 1);
    /* -1 encodes as r - 1. */
    uint8_t got[FR_BYTES], want[FR_BYTES];
    fr_t m1;
    ref_to_be(want, FR_BYTES, &m);
    fr_neg(&m1, &FR_ONE);
    fr_to_be(got, &m1);
    assert_memory_equal(got, want, FR_BYTES);
}

static void test_fr_one_is_2_256_mod_r(void **state)
{
    (void)state;
    ref_bn_t raw, one;
    fr_t f;
    ref_from_limbs(&raw, FR_ONE.l, FR_LIMBS);
    assert_int_equal(ref_cmp(&raw, &MONT_R), 0);
    ref_set_u64(&one, 1);
    expect_ref("FR_ONE", &FR_ONE, &one, &FR_ONE, NULL);
    fr_from_u64(&f, 1);
    assert_memory_equal(&f, &FR_ONE, sizeof f);
    assert_true(fr_is_one(&FR_ONE));
    for (int i = 0; i < FR_LIMBS; i++)
        assert_int_equal(FR_ZERO.l[i], 0);
    assert_true(fr_is_zero(&FR_ZERO));
}

static void expect_limbs(const char *name, const uint64_t *limbs, size_t n, const ref_bn_t *want)
{
    ref_bn_t got;
    ref_from_limbs(&got, limbs, n);
    if (ref_cmp(&got, want) != 0) {
        char hg[REF_HEX_MAX], hw[REF_HEX_MAX];
        ref_to_hex(hg, &got);
        ref_to_hex(hw, want);
        fail_msg("%s: expected %s, got %s", name, hw, hg);
    }
}

static void test_fr_montgomery_constants(void **state)
{
    (void)state;
    static const uint64_t one[] = CUZK_R_ONE, r2[] = CUZK_R_R2, rm2[] = CUZK_R_MINUS_2;
    ref_bn_t want, k;
    expect_limbs("CUZK_R_ONE", one, FR_LIMBS, &MONT_R);
    ref_mulmod(&want, &MONT_R, &MONT_R, &R);
    expect_limbs("CUZK_R_R2", r2, FR_LIMBS, &want);
    /* n0 = -r^-1 mod 2^64 */
    assert_int_equal((uint64_t)(FR_MODULUS[0] * CUZK_R_N0), UINT64_MAX);
    ref_set_u64(&k, 2);
    ref_sub(&want, &R, &k);
    expect_limbs("CUZK_R_MINUS_2", rm2, FR_LIMBS, &want);
}

static void test_fr_raw_limbs_are_a_times_2_256(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fr_t a;
        ref_bn_t ra, raw, want;
        rand_fr(&a);
        ref_of(&ra, &a);
        ref_from_limbs(&raw, a.l, FR_LIMBS);
        ref_mulmod(&want, &ra, &MONT_R, &R);
        assert_int_equal(ref_cmp(&raw, &want), 0);
    }
}

/* ---- each operation against the reference -------------------------------- */

typedef void (*fr_binop)(fr_t *, const fr_t *, const fr_t *);
typedef void (*ref_binop)(ref_bn_t *, const ref_bn_t *, const ref_bn_t *, const ref_bn_t *);

static void check_binop(const char *name, fr_binop f, ref_binop g, const fr_t *a, const fr_t *b)
{
    fr_t c;
    ref_bn_t ra, rb, want;
    f(&c, a, b);
    ref_of(&ra, a);
    ref_of(&rb, b);
    g(&want, &ra, &rb, &R);
    expect_ref(name, &c, &want, a, b);
}

/* Every pair of edge values, then random (edge-biased) pairs. */
static void binop_matches_ref(const char *name, fr_binop f, ref_binop g)
{
    fr_t e[N_EDGES];
    edge_values(e);
    for (int i = 0; i < N_EDGES; i++)
        for (int j = 0; j < N_EDGES; j++)
            check_binop(name, f, g, &e[i], &e[j]);
    for (int i = 0; i < iters(); i++) {
        fr_t a, b;
        rand_fr(&a);
        rand_fr(&b);
        if (i % 16 == 0)
            b = a;
        check_binop(name, f, g, &a, &b);
    }
}

typedef void (*fr_unop)(fr_t *, const fr_t *);

static void ref_neg_m(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *unused, const ref_bn_t *m)
{
    (void)unused;
    ref_negmod(out, a, m);
}

static void ref_dbl_m(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *unused, const ref_bn_t *m)
{
    (void)unused;
    ref_addmod(out, a, a, m);
}

static void ref_sqr_m(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *unused, const ref_bn_t *m)
{
    (void)unused;
    ref_mulmod(out, a, a, m);
}

static void unop_matches_ref(const char *name, fr_unop f, ref_binop g)
{
    fr_t e[N_EDGES], a, c;
    ref_bn_t ra, want;
    edge_values(e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        if (i < N_EDGES)
            a = e[i];
        else
            rand_fr(&a);
        f(&c, &a);
        ref_of(&ra, &a);
        g(&want, &ra, &ra, &R);
        expect_ref(name, &c, &want, &a, NULL);
    }
}

static void test_fr_add_matches_ref(void **state)
{
    (void)state;
    binop_matches_ref("fr_add", fr_add, ref_addmod);
}

static void test_fr_sub_matches_ref(void **state)
{
    (void)state;
    binop_matches_ref("fr_sub", fr_sub, ref_submod);
}

static void test_fr_mul_matches_ref(void **state)
{
    (void)state;
    binop_matches_ref("fr_mul", fr_mul, ref_mulmod);
}

static void test_fr_neg_matches_ref(void **state)
{
    (void)state;
    unop_matches_ref("fr_neg", fr_neg, ref_neg_m);
}

static void test_fr_dbl_matches_ref(void **state)
{
    (void)state;
    unop_matches_ref("fr_dbl", fr_dbl, ref_dbl_m);
}

static void test_fr_sqr_matches_ref(void **state)
{
    (void)state;
    unop_matches_ref("fr_sqr", fr_sqr, ref_sqr_m);
}

static void test_fr_inv_matches_ref(void **state)
{
    (void)state;
    fr_t a, c;
    ref_bn_t ra, rc, t, one, rm2;
    ref_set_u64(&one, 1);
    ref_set_u64(&t, 2);
    ref_sub(&rm2, &R, &t);
    /* a * inv(a) = 1 for nonzero a, computed in the reference. */
    for (int i = 0; i < iters(); i++) {
        rand_fr(&a);
        if (fr_is_zero(&a))
            continue;
        fr_inv(&c, &a);
        ref_of(&ra, &a);
        ref_of(&rc, &c);
        ref_mulmod(&t, &ra, &rc, &R);
        if (ref_cmp(&t, &one) != 0)
            expect_ref("fr_inv (a * inv(a) != 1)", &c, &one, &a, NULL);
    }
    /* inv(a) = a^(r-2) by the reference's own exponentiation. */
    for (int i = 0; i < iters_slow(); i++) {
        rand_fr(&a);
        fr_inv(&c, &a);
        ref_of(&ra, &a);
        ref_powmod(&t, &ra, &rm2, &R);
        expect_ref("fr_inv", &c, &t, &a, NULL);
    }
    fr_inv(&c, &FR_ZERO);
    assert_true(fr_is_zero(&c));
}

static void rand_exponent(uint64_t *e, size_t *n)
{
    /* 0 to 7 limbs: covers e = 0 (no limbs), short exponents and e > r. */
    *n = (size_t)(tu_rand64() % 8);
    for (size_t k = 0; k < *n; k++) {
        switch (tu_rand64() % 8) {
        case 0: e[k] = 0; break;
        case 1: e[k] = UINT64_MAX; break;
        case 2: e[k] = tu_rand64() % 4; break;
        default: e[k] = tu_rand64(); break;
        }
    }
}

static void check_pow(const fr_t *a, const uint64_t *e, size_t n)
{
    fr_t c;
    ref_bn_t ra, re, want;
    fr_pow_var(&c, a, e, n);
    ref_of(&ra, a);
    ref_from_limbs(&re, e, n);
    ref_powmod(&want, &ra, &re, &R);
    expect_ref("fr_pow_var", &c, &want, a, NULL);
}

static void test_fr_pow_var_matches_ref(void **state)
{
    (void)state;
    fr_t a;
    uint64_t e[8];
    size_t n;
    /* Fixed exponents: 0, 1, 2 (also with a zero limb on top), and every
     * eighth round r - 1 (Fermat) and r (a^r = a) with a zero limb on top. */
    uint64_t fixed[FR_LIMBS + 1] = {0};
    for (int i = 0; i < iters_slow(); i++) {
        rand_fr(&a);
        for (uint64_t k = 0; k < 3; k++) {
            fixed[0] = k;
            check_pow(&a, fixed, 1);
            check_pow(&a, fixed, 2);
        }
        if (i % 8 == 0) {
            memcpy(fixed, FR_MODULUS, sizeof FR_MODULUS);
            check_pow(&a, fixed, FR_LIMBS + 1);
            fixed[0] -= 1;
            check_pow(&a, fixed, FR_LIMBS);
            memset(fixed, 0, sizeof fixed);
        }
        rand_exponent(e, &n);
        check_pow(&a, e, n);
    }
}

/* ---- field axioms (library only) ----------------------------------------- */

static void test_fr_add_and_mul_commute(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fr_t a, b, x, y;
        rand_fr(&a);
        rand_fr(&b);
        fr_add(&x, &a, &b);
        fr_add(&y, &b, &a);
        expect_fr_equal("a + b = b + a", &x, &y, &a);
        fr_mul(&x, &a, &b);
        fr_mul(&y, &b, &a);
        expect_fr_equal("a b = b a", &x, &y, &a);
    }
}

static void test_fr_add_and_mul_associate(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fr_t a, b, c, x, y;
        rand_fr(&a);
        rand_fr(&b);
        rand_fr(&c);
        fr_add(&x, &a, &b);
        fr_add(&x, &x, &c);
        fr_add(&y, &b, &c);
        fr_add(&y, &a, &y);
        expect_fr_equal("(a + b) + c = a + (b + c)", &x, &y, &a);
        fr_mul(&x, &a, &b);
        fr_mul(&x, &x, &c);
        fr_mul(&y, &b, &c);
        fr_mul(&y, &a, &y);
        expect_fr_equal("(a b) c = a (b c)", &x, &y, &a);
    }
}

static void test_fr_mul_distributes_over_add(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fr_t a, b, c, x, y, t;
        rand_fr(&a);
        rand_fr(&b);
        rand_fr(&c);
        fr_add(&x, &b, &c);
        fr_mul(&x, &a, &x);
        fr_mul(&y, &a, &b);
        fr_mul(&t, &a, &c);
        fr_add(&y, &y, &t);
        expect_fr_equal("a (b + c) = a b + a c", &x, &y, &a);
    }
}

static void test_fr_identities(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fr_t a, b, x, y;
        rand_fr(&a);
        rand_fr(&b);
        fr_add(&x, &a, &FR_ZERO);
        expect_fr_equal("a + 0 = a", &x, &a, &a);
        fr_mul(&x, &a, &FR_ONE);
        expect_fr_equal("a 1 = a", &x, &a, &a);
        fr_mul(&x, &a, &FR_ZERO);
        expect_fr_equal("a 0 = 0", &x, &FR_ZERO, &a);
        fr_sub(&x, &a, &a);
        expect_fr_equal("a - a = 0", &x, &FR_ZERO, &a);
        fr_neg(&x, &a);
        fr_add(&x, &x, &a);
        expect_fr_equal("-a + a = 0", &x, &FR_ZERO, &a);
        fr_neg(&x, &a);
        fr_neg(&x, &x);
        expect_fr_equal("-(-a) = a", &x, &a, &a);
        fr_neg(&y, &b);
        fr_add(&y, &a, &y);
        fr_sub(&x, &a, &b);
        expect_fr_equal("a - b = a + (-b)", &x, &y, &a);
        fr_dbl(&x, &a);
        fr_add(&y, &a, &a);
        expect_fr_equal("dbl(a) = a + a", &x, &y, &a);
        fr_sqr(&x, &a);
        fr_mul(&y, &a, &a);
        expect_fr_equal("sqr(a) = a a", &x, &y, &a);
    }
}

static void test_fr_outputs_may_alias_inputs(void **state)
{
    (void)state;
    static const fr_binop bin[] = {fr_add, fr_sub, fr_mul};
    static const fr_unop un[] = {fr_neg, fr_dbl, fr_sqr, fr_inv};
    for (int i = 0; i < iters() / 4; i++) {
        fr_t a, b, want, x;
        rand_fr(&a);
        rand_fr(&b);
        for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++) {
            bin[k](&want, &a, &b);
            x = a;
            bin[k](&x, &x, &b);
            expect_fr_equal("out = a alias", &x, &want, &a);
            x = b;
            bin[k](&x, &a, &x);
            expect_fr_equal("out = b alias", &x, &want, &a);
            bin[k](&want, &a, &a);
            x = a;
            bin[k](&x, &x, &x);
            expect_fr_equal("out = a = b alias", &x, &want, &a);
        }
        for (size_t k = 0; k < sizeof un / sizeof un[0]; k++) {
            un[k](&want, &a);
            x = a;
            un[k](&x, &x);
            expect_fr_equal("unary alias", &x, &want, &a);
        }
        uint64_t e[2] = {tu_rand64(), tu_rand64()};
        fr_pow_var(&want, &a, e, 2);
        x = a;
        fr_pow_var(&x, &x, e, 2);
        expect_fr_equal("fr_pow_var alias", &x, &want, &a);
    }
}

static void test_fr_mul_by_inverse_is_one(void **state)
{
    (void)state;
    fr_t e[N_EDGES];
    edge_values(e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        fr_t a, b, x;
        if (i < N_EDGES)
            a = e[i];
        else
            rand_fr(&a);
        fr_inv(&b, &a);
        if (fr_is_zero(&a)) {
            expect_fr_equal("inv(0) = 0", &b, &FR_ZERO, &a);
            continue;
        }
        fr_mul(&x, &a, &b);
        expect_fr_equal("a inv(a) = 1", &x, &FR_ONE, &a);
        fr_inv(&x, &b);
        expect_fr_equal("inv(inv(a)) = a", &x, &a, &a);
    }
}

/* ---- encodings ------------------------------------------------------------ */

static void reverse(uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[n - 1 - i];
}

static void test_fr_from_bytes_reject_noncanonical(void **state)
{
    (void)state;
    ref_bn_t bad[3], one, rm1;
    ref_set_u64(&one, 1);
    bad[0] = R;
    ref_add(&bad[1], &R, &one);
    ref_shl(&bad[2], &one, 256);
    ref_sub(&bad[2], &bad[2], &one);
    for (int i = 0; i < 3; i++) {
        uint8_t be[FR_BYTES], le[FR_BYTES];
        uint64_t l[FR_LIMBS];
        fr_t out;
        ref_to_be(be, FR_BYTES, &bad[i]);
        ref_to_le(le, FR_BYTES, &bad[i]);
        ref_to_limbs(l, FR_LIMBS, &bad[i]);
        assert_int_equal(fr_from_be(&out, be), CUZK_ERR_NONCANONICAL);
        assert_int_equal(fr_from_le(&out, le), CUZK_ERR_NONCANONICAL);
        assert_int_equal(fr_from_limbs(&out, l), CUZK_ERR_NONCANONICAL);
    }
    /* r - 1 is the largest accepted value: it is -1. */
    uint8_t be[FR_BYTES], le[FR_BYTES];
    fr_t out, m1;
    fr_neg(&m1, &FR_ONE);
    ref_sub(&rm1, &R, &one);
    ref_to_be(be, FR_BYTES, &rm1);
    ref_to_le(le, FR_BYTES, &rm1);
    assert_int_equal(fr_from_be(&out, be), CUZK_OK);
    expect_fr_equal("fr_from_be(r - 1)", &out, &m1, &out);
    assert_int_equal(fr_from_le(&out, le), CUZK_OK);
    expect_fr_equal("fr_from_le(r - 1)", &out, &m1, &out);
}

static void test_fr_from_bytes_accepts_exactly_below_r(void **state)
{
    /* Random 32-byte strings, often sharing a prefix with r: accepted iff < r. */
    (void)state;
    uint8_t rbe[FR_BYTES];
    ref_to_be(rbe, FR_BYTES, &R);
    for (int i = 0; i < iters(); i++) {
        uint8_t be[FR_BYTES], le[FR_BYTES];
        for (int k = 0; k < FR_BYTES; k++)
            be[k] = (uint8_t)tu_rand64();
        int keep = (int)(tu_rand64() % (FR_BYTES + 1));
        memcpy(be, rbe, (size_t)keep);
        reverse(le, be, FR_BYTES);
        ref_bn_t v;
        ref_from_be(&v, be, FR_BYTES);
        cuzk_status want = ref_cmp(&v, &R) < 0 ? CUZK_OK : CUZK_ERR_NONCANONICAL;
        fr_t out;
        assert_int_equal(fr_from_be(&out, be), want);
        if (want == CUZK_OK)
            expect_ref("fr_from_be", &out, &v, &out, NULL);
        assert_int_equal(fr_from_le(&out, le), want);
        if (want == CUZK_OK)
            expect_ref("fr_from_le", &out, &v, &out, NULL);
    }
}

static void test_fr_encodings_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fr_t a, b;
        uint8_t be[FR_BYTES], le[FR_BYTES], rev[FR_BYTES];
        uint64_t l[FR_LIMBS];
        rand_fr(&a);
        fr_to_be(be, &a);
        assert_int_equal(fr_from_be(&b, be), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
        fr_to_le(le, &a);
        reverse(rev, be, FR_BYTES);
        assert_memory_equal(le, rev, FR_BYTES);
        assert_int_equal(fr_from_le(&b, le), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
        fr_to_limbs(l, &a);
        ref_bn_t rl, ra;
        ref_from_limbs(&rl, l, FR_LIMBS);
        ref_of(&ra, &a);
        assert_int_equal(ref_cmp(&rl, &ra), 0);
        assert_int_equal(fr_from_limbs(&b, l), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

static void test_fr_from_u64_matches_ref(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        uint64_t v = edgy64();
        fr_t a;
        ref_bn_t want;
        fr_from_u64(&a, v);
        ref_set_u64(&want, v);
        expect_ref("fr_from_u64", &a, &want, &a, NULL);
    }
}

/* ---- roots of unity ------------------------------------------------------- */

/* ffjavascript's table w[k] (FR_ROOTS_FFJS), for k = 3, 4, 16, 17, 32. */
static const struct {
    unsigned log_n;
    const char *hex;
} FFJS_ROOTS[] = {
    {3, "0x3f96405d25a31660a733b23a98ca5b22a032824078eaa4fe8dd702cb688bc087"},
    {4, "0x4f2c596e753e4fcc6e92a9c460afca4a1ef4e672ebc1e1bb95df4b360411fe73"},
    {16, "0x6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a"},
    {17, "0x05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e"},
    {32, "0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"},
};

/* The reference root of the convention: g^((r-1)/2^32) with g = 7 (bellman)
 * or g = 5 (ffjavascript), squared down to order 2^log_n. */
static void ref_root(ref_bn_t *out, fr_roots conv, unsigned log_n)
{
    ref_bn_t g, e, one;
    ref_set_u64(&one, 1);
    ref_set_u64(&g, conv == FR_ROOTS_BELLMAN ? 7 : 5);
    ref_sub(&e, &R, &one);
    ref_shr(&e, &e, FR_TWO_ADICITY);
    ref_powmod(out, &g, &e, &R);
    for (unsigned k = log_n; k < FR_TWO_ADICITY; k++)
        ref_mulmod(out, out, out, &R);
}

static void test_fr_roots_match_generator_powers(void **state)
{
    (void)state;
    static const fr_roots convs[] = {FR_ROOTS_BELLMAN, FR_ROOTS_FFJS};
    for (size_t c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= FR_TWO_ADICITY; k++) {
            fr_t w;
            ref_bn_t want;
            assert_int_equal(fr_root_of_unity(&w, convs[c], k), CUZK_OK);
            ref_root(&want, convs[c], k);
            expect_ref(convs[c] == FR_ROOTS_BELLMAN ? "fr_root_of_unity(BELLMAN)"
                                                    : "fr_root_of_unity(FFJS)",
                       &w, &want, &w, NULL);
        }
    }
}

static void test_fr_roots_have_exact_order(void **state)
{
    /* w_k^(2^(k-1)) = -1 (so the order is not below 2^k) and w_k^(2^k) = 1. */
    (void)state;
    static const fr_roots convs[] = {FR_ROOTS_BELLMAN, FR_ROOTS_FFJS};
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    for (size_t c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= FR_TWO_ADICITY; k++) {
            fr_t w;
            assert_int_equal(fr_root_of_unity(&w, convs[c], k), CUZK_OK);
            for (unsigned j = 1; j < k; j++)
                fr_sqr(&w, &w);
            if (k >= 1) {
                expect_fr_equal("w_k^(2^(k-1)) = -1", &w, &m1, &w);
                fr_sqr(&w, &w);
            }
            expect_fr_equal("w_k^(2^k) = 1", &w, &FR_ONE, &w);
        }
    }
}

static void test_fr_roots_match_ffjavascript_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof FFJS_ROOTS / sizeof FFJS_ROOTS[0]; i++) {
        fr_t w;
        ref_bn_t want;
        ref_set_hex(&want, FFJS_ROOTS[i].hex);
        assert_int_equal(fr_root_of_unity(&w, FR_ROOTS_FFJS, FFJS_ROOTS[i].log_n), CUZK_OK);
        expect_ref("fr_root_of_unity(FFJS) vs ffjavascript", &w, &want, &w, NULL);
    }
}

static void test_fr_root_constants_are_plain_integers(void **state)
{
    (void)state;
    static const uint64_t bellman[] = CUZK_FR_ROOT_BELLMAN_PLAIN, ffjs[] = CUZK_FR_ROOT_FFJS_PLAIN;
    ref_bn_t want;
    ref_root(&want, FR_ROOTS_BELLMAN, FR_TWO_ADICITY);
    expect_limbs("CUZK_FR_ROOT_BELLMAN_PLAIN", bellman, FR_LIMBS, &want);
    ref_root(&want, FR_ROOTS_FFJS, FR_TWO_ADICITY);
    expect_limbs("CUZK_FR_ROOT_FFJS_PLAIN", ffjs, FR_LIMBS, &want);
}

static void test_fr_root_of_unity_rejects_bad_arguments(void **state)
{
    (void)state;
    fr_t w;
    assert_int_equal(fr_root_of_unity(&w, FR_ROOTS_BELLMAN, FR_TWO_ADICITY + 1), CUZK_ERR_ARG);
    assert_int_equal(fr_root_of_unity(&w, FR_ROOTS_FFJS, FR_TWO_ADICITY + 1), CUZK_ERR_ARG);
    assert_int_equal(fr_root_of_unity(&w, FR_ROOTS_FFJS, 64), CUZK_ERR_ARG);
    assert_int_equal(fr_root_of_unity(&w, FR_ROOTS_FFJS, (unsigned)-1), CUZK_ERR_ARG);
    assert_int_equal(fr_root_of_unity(&w, (fr_roots)2, 1), CUZK_ERR_ARG);
}

static int setup(void **state)
{
    (void)state;
    ref_bn_t one, t, e;
    ref_set_hex(&R, R_HEX);
    ref_set_u64(&one, 1);
    ref_sub(&HALF, &R, &one);
    ref_shr(&HALF, &HALF, 1);
    ref_shl(&t, &one, 256);
    ref_mod(&MONT_R, &t, &R);
    ref_set_u64(&t, 2);
    ref_sub(&e, &R, &t);
    ref_powmod(&MONT_RINV, &MONT_R, &e, &R);
    ref_mulmod(&t, &MONT_R, &MONT_RINV, &R);
    return ref_cmp(&t, &one) == 0 ? 0 : -1;
}

int main(void)
{
    tu_init("test_fr");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fr_modulus_is_published_r),
        cmocka_unit_test(test_fr_one_is_2_256_mod_r),
        cmocka_unit_test(test_fr_montgomery_constants),
        cmocka_unit_test(test_fr_raw_limbs_are_a_times_2_256),
        cmocka_unit_test(test_fr_add_matches_ref),
        cmocka_unit_test(test_fr_sub_matches_ref),
        cmocka_unit_test(test_fr_neg_matches_ref),
        cmocka_unit_test(test_fr_dbl_matches_ref),
        cmocka_unit_test(test_fr_mul_matches_ref),
        cmocka_unit_test(test_fr_sqr_matches_ref),
        cmocka_unit_test(test_fr_inv_matches_ref),
        cmocka_unit_test(test_fr_pow_var_matches_ref),
        cmocka_unit_test(test_fr_add_and_mul_commute),
        cmocka_unit_test(test_fr_add_and_mul_associate),
        cmocka_unit_test(test_fr_mul_distributes_over_add),
        cmocka_unit_test(test_fr_identities),
        cmocka_unit_test(test_fr_outputs_may_alias_inputs),
        cmocka_unit_test(test_fr_mul_by_inverse_is_one),
        cmocka_unit_test(test_fr_from_bytes_reject_noncanonical),
        cmocka_unit_test(test_fr_from_bytes_accepts_exactly_below_r),
        cmocka_unit_test(test_fr_encodings_round_trip),
        cmocka_unit_test(test_fr_from_u64_matches_ref),
        cmocka_unit_test(test_fr_roots_match_generator_powers),
        cmocka_unit_test(test_fr_roots_have_exact_order),
        cmocka_unit_test(test_fr_roots_match_ffjavascript_table),
        cmocka_unit_test(test_fr_root_constants_are_plain_integers),
        cmocka_unit_test(test_fr_root_of_unity_rejects_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
