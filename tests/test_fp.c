/* Fp tests: every operation against the slow reference (ref_bigint.h) on the
 * canonical integers, the field axioms, square roots, the byte encodings and
 * the generated Montgomery constants.
 * Rerun with CUZK_TEST_SEED=<seed>; scale with CUZK_TEST_ITERS=<n>. */
#include "ref_bigint.h"
#include "test_util.h"

#include <string.h>

/* Generated constants (tools/gen_constants.py), checked against the reference. */
#include "../src/field/constants_gen.h"

/* p of BLS12-381 as published (draft-irtf-cfrg-pairing-friendly-curves). */
static const char P_HEX[] = "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
                            "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

static ref_bn_t P;         /* p */
static ref_bn_t HALF;      /* (p-1)/2 */
static ref_bn_t MONT_R;    /* 2^384 mod p */
static ref_bn_t MONT_RINV; /* 2^-384 mod p */

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

/* ---- bridges between fp_t and the reference ------------------------------ */

static void ref_of(ref_bn_t *out, const fp_t *a)
{
    uint8_t b[FP_BYTES];
    fp_to_be(b, a);
    ref_from_be(out, b, FP_BYTES);
}

static void fp_of(fp_t *out, const ref_bn_t *a)
{
    uint8_t b[FP_BYTES];
    ref_to_be(b, FP_BYTES, a);
    assert_int_equal(fp_from_be(out, b), CUZK_OK);
}

/* Fails, printing the operands and both results, unless got == want and got
 * is stored fully reduced (its Montgomery limbs below the modulus: to_be would
 * hide a value stored as itself plus the modulus). */
static void expect_ref(const char *op, const fp_t *got, const ref_bn_t *want, const fp_t *a,
                       const fp_t *b)
{
    ref_bn_t g, ra, rb, raw;
    ref_from_limbs(&raw, got->l, FP_LIMBS);
    ref_of(&g, got);
    int reduced = ref_cmp(&raw, &P) < 0;
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

/* Fails, printing a, when a predicate of a gave got instead of want. */
static void expect_pred(const char *op, const fp_t *a, int got, int want)
{
    if (got == want)
        return;
    ref_bn_t ra;
    char ha[REF_HEX_MAX];
    ref_of(&ra, a);
    ref_to_hex(ha, &ra);
    fail_msg("%s: a=%s: expected %d, got %d", op, ha, want, got);
}

static void expect_fp_equal(const char *what, const fp_t *got, const fp_t *want, const fp_t *a)
{
    ref_bn_t rw;
    ref_of(&rw, want);
    expect_ref(what, got, &rw, a, NULL);
}

/* Half the draws come from tu_rand_fp; the other half have Montgomery limbs
 * made of runs (zero, all ones, one bit, ones above a random bit), which the
 * carry chains of the multiplication see directly. */
static void rand_fp(fp_t *out)
{
    if (tu_rand64() & 1) {
        tu_rand_fp(out);
        return;
    }
    for (;;) {
        uint64_t l[FP_LIMBS];
        uint8_t le[FP_BYTES];
        for (int i = 0; i < FP_LIMBS; i++) {
            switch (tu_rand64() % 5) {
            case 0: l[i] = 0; break;
            case 1: l[i] = UINT64_MAX; break;
            case 2: l[i] = (uint64_t)1 << (tu_rand64() % 64); break;
            case 3: l[i] = UINT64_MAX << (tu_rand64() % 64); break;
            default: l[i] = tu_rand64(); break;
            }
        }
        l[FP_LIMBS - 1] >>= 3; /* p < 2^381 */
        for (int i = 0; i < FP_BYTES; i++)
            le[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
        if (fp_from_mont_le(out, le) == CUZK_OK)
            return;
    }
}

/* Edge values: 0, 1, 2, 3, p-1, p-2, (p-1)/2, (p+1)/2, powers of two at limb
 * and word boundaries, 2^384 mod p and its inverse, p - 2^64. */
#define N_EDGES 16
static void edge_values(fp_t out[N_EDGES])
{
    ref_bn_t v[N_EDGES], one;
    ref_set_u64(&one, 1);
    ref_set_u64(&v[0], 0);
    ref_set_u64(&v[1], 1);
    ref_set_u64(&v[2], 2);
    ref_set_u64(&v[3], 3);
    ref_sub(&v[4], &P, &one);
    ref_sub(&v[5], &v[4], &one);
    v[6] = HALF;
    ref_add(&v[7], &HALF, &one);
    ref_set_u64(&v[8], UINT64_MAX);
    ref_shl(&v[9], &one, 64);
    ref_shl(&v[10], &one, 192);
    ref_shl(&v[11], &one, 380);
    ref_sub(&v[12], &v[11], &one);
    v[13] = MONT_R;
    v[14] = MONT_RINV;
    ref_sub(&v[15], &P, &v[9]);
    for (int i = 0; i < N_EDGES; i++)
        fp_of(&out[i], &v[i]);
}

/* ---- the reference itself, against native 128-bit arithmetic ------------- */

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

static void ref_of_u128(ref_bn_t *out, unsigned __int128 v)
{
    uint64_t l[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
    ref_from_limbs(out, l, 2);
}

static void test_ref_bigint_matches_u128(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        uint64_t a = edgy64(), b = edgy64(), m = edgy64() | 1;
        ref_bn_t ra, rb, rm, got, want, q, r;
        ref_set_u64(&ra, a);
        ref_set_u64(&rb, b);
        ref_set_u64(&rm, m);

        ref_add(&got, &ra, &rb);
        ref_of_u128(&want, (unsigned __int128)a + b);
        assert_int_equal(ref_cmp(&got, &want), 0);

        ref_mul(&got, &ra, &rb);
        ref_of_u128(&want, (unsigned __int128)a * b);
        assert_int_equal(ref_cmp(&got, &want), 0);

        ref_divmod(&q, &r, &got, &rm);
        unsigned __int128 prod = (unsigned __int128)a * b;
        ref_of_u128(&want, prod / m);
        assert_int_equal(ref_cmp(&q, &want), 0);
        ref_of_u128(&want, prod % m);
        assert_int_equal(ref_cmp(&r, &want), 0);

        assert_int_equal(ref_sub(&got, &ra, &rb), a < b);
        if (a >= b) {
            ref_set_u64(&want, a - b);
            assert_int_equal(ref_cmp(&got, &want), 0);
        }
        assert_int_equal(ref_cmp(&ra, &rb), a < b ? -1 : a > b);

        /* a^e mod m by native square-and-multiply over e < 64. */
        uint64_t e = tu_rand64() % 64, acc = 1 % m, base = a % m;
        for (uint64_t k = 0; k < e; k++)
            acc = (uint64_t)(((unsigned __int128)acc * base) % m);
        ref_set_u64(&rb, e);
        ref_powmod(&got, &ra, &rb, &rm);
        ref_set_u64(&want, acc);
        assert_int_equal(ref_cmp(&got, &want), 0);
    }
}

static void test_ref_bigint_divmod_identity(void **state)
{
    /* For big operands: a = q m + r with r < m, and (a mod m) is what the
     * modular add/sub/mul give on a + 0, a - 0, a * 1. */
    (void)state;
    for (int i = 0; i < iters() / 4; i++) {
        uint64_t la[12], lm[6];
        for (int k = 0; k < 12; k++)
            la[k] = tu_rand64() >> (tu_rand64() % 4 == 0 ? tu_rand64() % 64 : 0);
        for (int k = 0; k < 6; k++)
            lm[k] = tu_rand64();
        lm[(int)(tu_rand64() % 6)] |= 1;
        ref_bn_t a, m, q, r, t, zero, one;
        ref_from_limbs(&a, la, 12);
        ref_from_limbs(&m, lm, (size_t)(1 + tu_rand64() % 6));
        if (ref_is_zero(&m))
            ref_set_u64(&m, 7);
        ref_divmod(&q, &r, &a, &m);
        assert_int_equal(ref_cmp(&r, &m), -1);
        ref_mul(&t, &q, &m);
        assert_int_equal(ref_add(&t, &t, &r), 0);
        assert_int_equal(ref_cmp(&t, &a), 0);

        ref_set_u64(&zero, 0);
        ref_set_u64(&one, 1);
        ref_addmod(&t, &a, &zero, &m);
        assert_int_equal(ref_cmp(&t, &r), 0);
        ref_submod(&t, &a, &zero, &m);
        assert_int_equal(ref_cmp(&t, &r), 0);
        ref_mulmod(&t, &a, &one, &m);
        assert_int_equal(ref_cmp(&t, &r), 0);
        ref_negmod(&t, &a, &m);
        ref_addmod(&t, &t, &a, &m);
        assert_true(ref_is_zero(&t));
    }
}

static void test_ref_bigint_encodings_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 4; i++) {
        uint8_t in[FP_BYTES], out[FP_BYTES];
        for (int k = 0; k < FP_BYTES; k++)
            in[k] = (uint8_t)tu_rand64();
        ref_bn_t a, b;
        char hex[REF_HEX_MAX];
        ref_from_be(&a, in, FP_BYTES);
        ref_to_be(out, FP_BYTES, &a);
        assert_memory_equal(in, out, FP_BYTES);
        ref_from_le(&b, in, FP_BYTES);
        ref_to_le(out, FP_BYTES, &b);
        assert_memory_equal(in, out, FP_BYTES);
        ref_to_hex(hex, &a);
        ref_set_hex(&b, hex);
        assert_int_equal(ref_cmp(&a, &b), 0);
        unsigned k = (unsigned)(tu_rand64() % 200);
        ref_shl(&b, &a, k);
        ref_shr(&b, &b, k);
        assert_int_equal(ref_cmp(&a, &b), 0);
    }
    ref_bn_t a;
    uint8_t be[3] = {0x01, 0x02, 0x03};
    ref_from_be(&a, be, 3);
    assert_int_equal(a.w[0], 0x010203);
    ref_set_hex(&a, "0x10000000000000000");
    assert_int_equal(ref_bitlen(&a), 65);
    assert_int_equal(a.w[2], 1);
}

/* ---- constants ----------------------------------------------------------- */

static void test_fp_modulus_is_published_p(void **state)
{
    (void)state;
    static const uint64_t gen[FP_LIMBS] = CUZK_P_LIMBS;
    ref_bn_t m;
    ref_from_limbs(&m, FP_MODULUS, FP_LIMBS);
    assert_int_equal(ref_cmp(&m, &P), 0);
    ref_from_limbs(&m, gen, FP_LIMBS);
    assert_int_equal(ref_cmp(&m, &P), 0);
    assert_int_equal(CUZK_P_TOP_LIMB, FP_MODULUS[FP_LIMBS - 1]);
    assert_int_equal(ref_bitlen(&P), 381);
    /* p = 3 mod 4: the square root is a single exponentiation. */
    assert_int_equal(P.w[0] & 3, 3);
    /* -1 encodes as p - 1. */
    uint8_t got[FP_BYTES], want[FP_BYTES];
    ref_bn_t pm1, one;
    fp_t m1;
    ref_set_u64(&one, 1);
    ref_sub(&pm1, &P, &one);
    ref_to_be(want, FP_BYTES, &pm1);
    fp_neg(&m1, &FP_ONE);
    fp_to_be(got, &m1);
    assert_memory_equal(got, want, FP_BYTES);
}

static void test_fp_one_is_2_384_mod_p(void **state)
{
    (void)state;
    ref_bn_t raw, one;
    fp_t f;
    ref_from_limbs(&raw, FP_ONE.l, FP_LIMBS);
    assert_int_equal(ref_cmp(&raw, &MONT_R), 0);
    ref_set_u64(&one, 1);
    expect_ref("FP_ONE", &FP_ONE, &one, &FP_ONE, NULL);
    fp_from_u64(&f, 1);
    assert_memory_equal(&f, &FP_ONE, sizeof f);
    assert_true(fp_is_one(&FP_ONE));
    for (int i = 0; i < FP_LIMBS; i++)
        assert_int_equal(FP_ZERO_ELEM.l[i], 0);
    assert_true(fp_is_zero(&FP_ZERO_ELEM));
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

static void test_fp_montgomery_constants(void **state)
{
    (void)state;
    static const uint64_t one[] = CUZK_P_ONE, r2[] = CUZK_P_R2, pm2[] = CUZK_P_MINUS_2,
                          pp14[] = CUZK_P_PLUS_1_DIV_4, pm34[] = CUZK_P_MINUS_3_DIV_4,
                          pm12[] = CUZK_P_MINUS_1_DIV_2;
    ref_bn_t want, t, k;
    expect_limbs("CUZK_P_ONE", one, FP_LIMBS, &MONT_R);
    ref_mulmod(&want, &MONT_R, &MONT_R, &P);
    expect_limbs("CUZK_P_R2", r2, FP_LIMBS, &want);
    /* n0 = -p^-1 mod 2^64 */
    assert_int_equal((uint64_t)(FP_MODULUS[0] * CUZK_P_N0), UINT64_MAX);

    ref_set_u64(&k, 2);
    ref_sub(&want, &P, &k);
    expect_limbs("CUZK_P_MINUS_2", pm2, FP_LIMBS, &want);
    ref_set_u64(&k, 1);
    ref_add(&t, &P, &k);
    ref_set_u64(&k, 4);
    ref_divmod(&want, &t, &t, &k);
    assert_true(ref_is_zero(&t));
    expect_limbs("CUZK_P_PLUS_1_DIV_4", pp14, FP_LIMBS, &want);
    ref_set_u64(&k, 3);
    ref_sub(&t, &P, &k);
    ref_shr(&want, &t, 2);
    expect_limbs("CUZK_P_MINUS_3_DIV_4", pm34, FP_LIMBS, &want);
    expect_limbs("CUZK_P_MINUS_1_DIV_2", pm12, FP_LIMBS, &HALF);
}

static void test_fp_mont_le_is_a_times_2_384(void **state)
{
    /* to_mont_le writes a * 2^384 mod p; from_mont_le reads x as x / 2^384. */
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b;
        ref_bn_t ra, raw, want;
        uint8_t le[FP_BYTES];
        rand_fp(&a);
        ref_of(&ra, &a);
        fp_to_mont_le(le, &a);
        ref_from_le(&raw, le, FP_BYTES);
        ref_mulmod(&want, &ra, &MONT_R, &P);
        assert_int_equal(ref_cmp(&raw, &want), 0);
        ref_from_limbs(&raw, a.l, FP_LIMBS);
        assert_int_equal(ref_cmp(&raw, &want), 0);

        /* Any x < p read as Montgomery bytes means x * 2^-384. */
        rand_fp(&b);
        ref_of(&raw, &b);
        ref_to_le(le, FP_BYTES, &raw);
        assert_int_equal(fp_from_mont_le(&a, le), CUZK_OK);
        ref_mulmod(&want, &raw, &MONT_RINV, &P);
        expect_ref("fp_from_mont_le", &a, &want, &b, NULL);
    }
}

/* ---- each operation against the reference -------------------------------- */

typedef void (*fp_binop)(fp_t *, const fp_t *, const fp_t *);
typedef void (*ref_binop)(ref_bn_t *, const ref_bn_t *, const ref_bn_t *, const ref_bn_t *);

static void check_binop(const char *name, fp_binop f, ref_binop g, const fp_t *a, const fp_t *b)
{
    fp_t c;
    ref_bn_t ra, rb, want;
    f(&c, a, b);
    ref_of(&ra, a);
    ref_of(&rb, b);
    g(&want, &ra, &rb, &P);
    expect_ref(name, &c, &want, a, b);
}

/* Every pair of edge values, then random (edge-biased) pairs. */
static void binop_matches_ref(const char *name, fp_binop f, ref_binop g)
{
    fp_t e[N_EDGES];
    edge_values(e);
    for (int i = 0; i < N_EDGES; i++)
        for (int j = 0; j < N_EDGES; j++)
            check_binop(name, f, g, &e[i], &e[j]);
    for (int i = 0; i < iters(); i++) {
        fp_t a, b;
        rand_fp(&a);
        rand_fp(&b);
        if (i % 16 == 0)
            b = a;
        check_binop(name, f, g, &a, &b);
    }
}

typedef void (*fp_unop)(fp_t *, const fp_t *);

static void ref_neg_p(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *unused, const ref_bn_t *m)
{
    (void)unused;
    ref_negmod(out, a, m);
}

static void ref_dbl_p(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *unused, const ref_bn_t *m)
{
    (void)unused;
    ref_addmod(out, a, a, m);
}

static void ref_sqr_p(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *unused, const ref_bn_t *m)
{
    (void)unused;
    ref_mulmod(out, a, a, m);
}

static void unop_matches_ref(const char *name, fp_unop f, ref_binop g)
{
    fp_t e[N_EDGES], a, c;
    ref_bn_t ra, want;
    edge_values(e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        if (i < N_EDGES)
            a = e[i];
        else
            rand_fp(&a);
        f(&c, &a);
        ref_of(&ra, &a);
        g(&want, &ra, &ra, &P);
        expect_ref(name, &c, &want, &a, NULL);
    }
}

static void test_fp_add_matches_ref(void **state)
{
    (void)state;
    binop_matches_ref("fp_add", fp_add, ref_addmod);
}

static void test_fp_sub_matches_ref(void **state)
{
    (void)state;
    binop_matches_ref("fp_sub", fp_sub, ref_submod);
}

static void test_fp_mul_matches_ref(void **state)
{
    (void)state;
    binop_matches_ref("fp_mul", fp_mul, ref_mulmod);
}

static void test_fp_neg_matches_ref(void **state)
{
    (void)state;
    unop_matches_ref("fp_neg", fp_neg, ref_neg_p);
}

static void test_fp_dbl_matches_ref(void **state)
{
    (void)state;
    unop_matches_ref("fp_dbl", fp_dbl, ref_dbl_p);
}

static void test_fp_sqr_matches_ref(void **state)
{
    (void)state;
    unop_matches_ref("fp_sqr", fp_sqr, ref_sqr_p);
}

static void test_fp_inv_matches_ref(void **state)
{
    (void)state;
    fp_t a, c;
    ref_bn_t ra, rc, t, one, pm2;
    ref_set_u64(&one, 1);
    ref_set_u64(&t, 2);
    ref_sub(&pm2, &P, &t);
    /* a * inv(a) = 1 for nonzero a, computed in the reference. */
    for (int i = 0; i < iters(); i++) {
        rand_fp(&a);
        if (fp_is_zero(&a))
            continue;
        fp_inv(&c, &a);
        ref_of(&ra, &a);
        ref_of(&rc, &c);
        ref_mulmod(&t, &ra, &rc, &P);
        if (ref_cmp(&t, &one) != 0)
            expect_ref("fp_inv (a * inv(a) != 1)", &c, &one, &a, NULL);
    }
    /* inv(a) = a^(p-2) by the reference's own exponentiation. */
    for (int i = 0; i < iters_slow(); i++) {
        rand_fp(&a);
        fp_inv(&c, &a);
        ref_of(&ra, &a);
        ref_powmod(&t, &ra, &pm2, &P);
        expect_ref("fp_inv", &c, &t, &a, NULL);
    }
    fp_inv(&c, &FP_ZERO_ELEM);
    assert_true(fp_is_zero(&c));
}

static void rand_exponent(uint64_t *e, size_t *n)
{
    /* 0 to 7 limbs: covers e = 0 (no limbs), short exponents and e > p. */
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

static void check_pow(const fp_t *a, const uint64_t *e, size_t n)
{
    fp_t c;
    ref_bn_t ra, re, want;
    fp_pow_var(&c, a, e, n);
    ref_of(&ra, a);
    ref_from_limbs(&re, e, n);
    ref_powmod(&want, &ra, &re, &P);
    expect_ref("fp_pow_var", &c, &want, a, NULL);
}

static void test_fp_pow_var_matches_ref(void **state)
{
    (void)state;
    fp_t a;
    uint64_t e[8];
    size_t n;
    /* Fixed exponents: 0, 1, 2 (also with a zero limb on top), and every
     * eighth round p - 1 (Fermat) and p (a^p = a) with a zero limb on top. */
    uint64_t fixed[FP_LIMBS + 1] = {0};
    for (int i = 0; i < iters_slow(); i++) {
        rand_fp(&a);
        for (uint64_t k = 0; k < 3; k++) {
            fixed[0] = k;
            check_pow(&a, fixed, 1);
            check_pow(&a, fixed, 2);
        }
        if (i % 8 == 0) {
            memcpy(fixed, FP_MODULUS, sizeof FP_MODULUS);
            check_pow(&a, fixed, FP_LIMBS + 1);
            fixed[0] -= 1;
            check_pow(&a, fixed, FP_LIMBS);
            memset(fixed, 0, sizeof fixed);
        }
        rand_exponent(e, &n);
        check_pow(&a, e, n);
    }
}

/* ---- field axioms (library only) ----------------------------------------- */

static void test_fp_add_and_mul_commute(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b, x, y;
        rand_fp(&a);
        rand_fp(&b);
        fp_add(&x, &a, &b);
        fp_add(&y, &b, &a);
        expect_fp_equal("a + b = b + a", &x, &y, &a);
        fp_mul(&x, &a, &b);
        fp_mul(&y, &b, &a);
        expect_fp_equal("a b = b a", &x, &y, &a);
    }
}

static void test_fp_add_and_mul_associate(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b, c, x, y;
        rand_fp(&a);
        rand_fp(&b);
        rand_fp(&c);
        fp_add(&x, &a, &b);
        fp_add(&x, &x, &c);
        fp_add(&y, &b, &c);
        fp_add(&y, &a, &y);
        expect_fp_equal("(a + b) + c = a + (b + c)", &x, &y, &a);
        fp_mul(&x, &a, &b);
        fp_mul(&x, &x, &c);
        fp_mul(&y, &b, &c);
        fp_mul(&y, &a, &y);
        expect_fp_equal("(a b) c = a (b c)", &x, &y, &a);
    }
}

static void test_fp_mul_distributes_over_add(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b, c, x, y, t;
        rand_fp(&a);
        rand_fp(&b);
        rand_fp(&c);
        fp_add(&x, &b, &c);
        fp_mul(&x, &a, &x);
        fp_mul(&y, &a, &b);
        fp_mul(&t, &a, &c);
        fp_add(&y, &y, &t);
        expect_fp_equal("a (b + c) = a b + a c", &x, &y, &a);
    }
}

static void test_fp_identities(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b, x, y;
        rand_fp(&a);
        rand_fp(&b);
        fp_add(&x, &a, &FP_ZERO_ELEM);
        expect_fp_equal("a + 0 = a", &x, &a, &a);
        fp_mul(&x, &a, &FP_ONE);
        expect_fp_equal("a 1 = a", &x, &a, &a);
        fp_mul(&x, &a, &FP_ZERO_ELEM);
        expect_fp_equal("a 0 = 0", &x, &FP_ZERO_ELEM, &a);
        fp_sub(&x, &a, &a);
        expect_fp_equal("a - a = 0", &x, &FP_ZERO_ELEM, &a);
        fp_neg(&x, &a);
        fp_add(&x, &x, &a);
        expect_fp_equal("-a + a = 0", &x, &FP_ZERO_ELEM, &a);
        fp_neg(&x, &a);
        fp_neg(&x, &x);
        expect_fp_equal("-(-a) = a", &x, &a, &a);
        fp_neg(&y, &b);
        fp_add(&y, &a, &y);
        fp_sub(&x, &a, &b);
        expect_fp_equal("a - b = a + (-b)", &x, &y, &a);
        fp_dbl(&x, &a);
        fp_add(&y, &a, &a);
        expect_fp_equal("dbl(a) = a + a", &x, &y, &a);
        fp_sqr(&x, &a);
        fp_mul(&y, &a, &a);
        expect_fp_equal("sqr(a) = a a", &x, &y, &a);
    }
}

static void test_fp_outputs_may_alias_inputs(void **state)
{
    (void)state;
    static const fp_binop bin[] = {fp_add, fp_sub, fp_mul};
    static const fp_unop un[] = {fp_neg, fp_dbl, fp_sqr, fp_inv};
    for (int i = 0; i < iters() / 4; i++) {
        fp_t a, b, want, x;
        rand_fp(&a);
        rand_fp(&b);
        for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++) {
            bin[k](&want, &a, &b);
            x = a;
            bin[k](&x, &x, &b);
            expect_fp_equal("out = a alias", &x, &want, &a);
            x = b;
            bin[k](&x, &a, &x);
            expect_fp_equal("out = b alias", &x, &want, &a);
            bin[k](&want, &a, &a);
            x = a;
            bin[k](&x, &x, &x);
            expect_fp_equal("out = a = b alias", &x, &want, &a);
        }
        for (size_t k = 0; k < sizeof un / sizeof un[0]; k++) {
            un[k](&want, &a);
            x = a;
            un[k](&x, &x);
            expect_fp_equal("unary alias", &x, &want, &a);
        }
        uint64_t e[2] = {tu_rand64(), tu_rand64()};
        fp_pow_var(&want, &a, e, 2);
        x = a;
        fp_pow_var(&x, &x, e, 2);
        expect_fp_equal("fp_pow_var alias", &x, &want, &a);
    }
}

static void test_fp_mul_by_inverse_is_one(void **state)
{
    (void)state;
    fp_t e[N_EDGES];
    edge_values(e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        fp_t a, b, x;
        if (i < N_EDGES)
            a = e[i];
        else
            rand_fp(&a);
        fp_inv(&b, &a);
        if (fp_is_zero(&a)) {
            expect_fp_equal("inv(0) = 0", &b, &FP_ZERO_ELEM, &a);
            continue;
        }
        fp_mul(&x, &a, &b);
        expect_fp_equal("a inv(a) = 1", &x, &FP_ONE, &a);
        fp_inv(&x, &b);
        expect_fp_equal("inv(inv(a)) = a", &x, &a, &a);
    }
}

/* ---- square roots --------------------------------------------------------- */

static void test_fp_sqrt_of_square_squares_back(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 4; i++) {
        fp_t x, s, r, t, nx;
        rand_fp(&x);
        fp_sqr(&s, &x);
        expect_pred("fp_sqrt(x^2)", &s, fp_sqrt(&r, &s), 1);
        fp_sqr(&t, &r);
        expect_fp_equal("fp_sqrt(a)^2 = a", &t, &s, &s);
        fp_neg(&nx, &x);
        assert_true(fp_equal(&r, &x) || fp_equal(&r, &nx));
        assert_true(fp_is_square(&s));
    }
    fp_t r;
    assert_true(fp_sqrt(&r, &FP_ZERO_ELEM));
    assert_true(fp_is_zero(&r));
}

static void test_fp_sqrt_is_a_to_p_plus_1_over_4(void **state)
{
    (void)state;
    ref_bn_t e, t;
    ref_set_u64(&t, 1);
    ref_add(&e, &P, &t);
    ref_shr(&e, &e, 2);
    for (int i = 0; i < iters_slow(); i++) {
        fp_t x, s, r;
        ref_bn_t rs, want;
        rand_fp(&x);
        fp_sqr(&s, &x);
        assert_true(fp_sqrt(&r, &s));
        ref_of(&rs, &s);
        ref_powmod(&want, &rs, &e, &P);
        expect_ref("fp_sqrt", &r, &want, &s, NULL);
    }
}

static void test_fp_sqrt_of_non_square_fails(void **state)
{
    /* -1 is a non-square (p = 3 mod 4), so -(x^2) is one for every x != 0. */
    (void)state;
    fp_t m1, out, sentinel;
    memset(&sentinel, 0xa5, sizeof sentinel);
    fp_neg(&m1, &FP_ONE);
    out = sentinel;
    assert_false(fp_sqrt(&out, &m1));
    assert_memory_equal(&out, &sentinel, sizeof out);
    assert_false(fp_is_square(&m1));
    for (int i = 0; i < iters() / 4; i++) {
        fp_t x, ns;
        rand_fp(&x);
        if (fp_is_zero(&x))
            continue;
        fp_sqr(&ns, &x);
        fp_neg(&ns, &ns);
        out = sentinel;
        expect_pred("fp_sqrt(-(x^2))", &ns, fp_sqrt(&out, &ns), 0);
        assert_memory_equal(&out, &sentinel, sizeof out);
        expect_pred("fp_is_square(-(x^2))", &ns, fp_is_square(&ns), 0);
    }
}

static void test_fp_is_square_matches_euler(void **state)
{
    (void)state;
    fp_t e[N_EDGES];
    edge_values(e);
    for (int i = 0; i < N_EDGES + iters_slow(); i++) {
        fp_t a, r;
        ref_bn_t ra, t, one;
        if (i < N_EDGES)
            a = e[i];
        else
            rand_fp(&a);
        ref_of(&ra, &a);
        ref_powmod(&t, &ra, &HALF, &P);
        ref_set_u64(&one, 1);
        int want = ref_is_zero(&ra) || ref_cmp(&t, &one) == 0;
        expect_pred("fp_is_square", &a, fp_is_square(&a), want);
        expect_pred("fp_sqrt succeeds", &a, fp_sqrt(&r, &a), want);
    }
}

static void test_fp_is_lex_largest_matches_ref(void **state)
{
    (void)state;
    fp_t e[N_EDGES];
    edge_values(e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        fp_t a;
        ref_bn_t ra;
        if (i < N_EDGES)
            a = e[i];
        else
            rand_fp(&a);
        ref_of(&ra, &a);
        expect_pred("fp_is_lex_largest", &a, fp_is_lex_largest(&a), ref_cmp(&ra, &HALF) > 0);
    }
}

/* ---- encodings ------------------------------------------------------------ */

static void reverse(uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[n - 1 - i];
}

static void test_fp_from_bytes_reject_noncanonical(void **state)
{
    (void)state;
    ref_bn_t bad[3], one, pm1;
    ref_set_u64(&one, 1);
    bad[0] = P;
    ref_add(&bad[1], &P, &one);
    ref_shl(&bad[2], &one, 384);
    ref_sub(&bad[2], &bad[2], &one);
    for (int i = 0; i < 3; i++) {
        uint8_t be[FP_BYTES], le[FP_BYTES];
        uint64_t l[FP_LIMBS];
        fp_t out;
        ref_to_be(be, FP_BYTES, &bad[i]);
        ref_to_le(le, FP_BYTES, &bad[i]);
        ref_to_limbs(l, FP_LIMBS, &bad[i]);
        assert_int_equal(fp_from_be(&out, be), CUZK_ERR_NONCANONICAL);
        assert_int_equal(fp_from_le(&out, le), CUZK_ERR_NONCANONICAL);
        assert_int_equal(fp_from_mont_le(&out, le), CUZK_ERR_NONCANONICAL);
        assert_int_equal(fp_from_limbs(&out, l), CUZK_ERR_NONCANONICAL);
    }
    /* p - 1 is the largest accepted value: it is -1. */
    uint8_t be[FP_BYTES], le[FP_BYTES];
    fp_t out, m1;
    fp_neg(&m1, &FP_ONE);
    ref_sub(&pm1, &P, &one);
    ref_to_be(be, FP_BYTES, &pm1);
    ref_to_le(le, FP_BYTES, &pm1);
    assert_int_equal(fp_from_be(&out, be), CUZK_OK);
    expect_fp_equal("fp_from_be(p - 1)", &out, &m1, &out);
    assert_int_equal(fp_from_le(&out, le), CUZK_OK);
    expect_fp_equal("fp_from_le(p - 1)", &out, &m1, &out);
    assert_int_equal(fp_from_mont_le(&out, le), CUZK_OK);
}

static void test_fp_from_bytes_accepts_exactly_below_p(void **state)
{
    /* Random 48-byte strings, the top byte often near p's: accepted iff < p. */
    (void)state;
    uint8_t pbe[FP_BYTES];
    ref_to_be(pbe, FP_BYTES, &P);
    for (int i = 0; i < iters(); i++) {
        uint8_t be[FP_BYTES], le[FP_BYTES];
        for (int k = 0; k < FP_BYTES; k++)
            be[k] = (uint8_t)tu_rand64();
        int keep = (int)(tu_rand64() % (FP_BYTES + 1)); /* share a prefix with p */
        memcpy(be, pbe, (size_t)keep);
        reverse(le, be, FP_BYTES);
        ref_bn_t v;
        ref_from_be(&v, be, FP_BYTES);
        cuzk_status want = ref_cmp(&v, &P) < 0 ? CUZK_OK : CUZK_ERR_NONCANONICAL;
        fp_t out;
        assert_int_equal(fp_from_be(&out, be), want);
        if (want == CUZK_OK)
            expect_ref("fp_from_be", &out, &v, &out, NULL);
        assert_int_equal(fp_from_le(&out, le), want);
        if (want == CUZK_OK)
            expect_ref("fp_from_le", &out, &v, &out, NULL);
        assert_int_equal(fp_from_mont_le(&out, le), want);
    }
}

static void test_fp_encodings_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b;
        uint8_t be[FP_BYTES], le[FP_BYTES], rev[FP_BYTES];
        uint64_t l[FP_LIMBS];
        rand_fp(&a);
        fp_to_be(be, &a);
        assert_int_equal(fp_from_be(&b, be), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
        fp_to_le(le, &a);
        reverse(rev, be, FP_BYTES);
        assert_memory_equal(le, rev, FP_BYTES);
        assert_int_equal(fp_from_le(&b, le), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
        fp_to_mont_le(le, &a);
        assert_int_equal(fp_from_mont_le(&b, le), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
        fp_to_limbs(l, &a);
        ref_bn_t rl, ra;
        ref_from_limbs(&rl, l, FP_LIMBS);
        ref_of(&ra, &a);
        assert_int_equal(ref_cmp(&rl, &ra), 0);
        assert_int_equal(fp_from_limbs(&b, l), CUZK_OK);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

static void test_fp_from_u64_matches_ref(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        uint64_t v = edgy64();
        fp_t a;
        ref_bn_t want;
        fp_from_u64(&a, v);
        ref_set_u64(&want, v);
        expect_ref("fp_from_u64", &a, &want, &a, NULL);
    }
}

static int setup(void **state)
{
    (void)state;
    ref_bn_t one, t, e;
    ref_set_hex(&P, P_HEX);
    ref_set_u64(&one, 1);
    ref_sub(&HALF, &P, &one);
    ref_shr(&HALF, &HALF, 1);
    ref_shl(&t, &one, 384);
    ref_mod(&MONT_R, &t, &P);
    ref_set_u64(&t, 2);
    ref_sub(&e, &P, &t);
    ref_powmod(&MONT_RINV, &MONT_R, &e, &P);
    ref_mulmod(&t, &MONT_R, &MONT_RINV, &P);
    return ref_cmp(&t, &one) == 0 ? 0 : -1;
}

int main(void)
{
    tu_init("test_fp");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_bigint_matches_u128),
        cmocka_unit_test(test_ref_bigint_divmod_identity),
        cmocka_unit_test(test_ref_bigint_encodings_round_trip),
        cmocka_unit_test(test_fp_modulus_is_published_p),
        cmocka_unit_test(test_fp_one_is_2_384_mod_p),
        cmocka_unit_test(test_fp_montgomery_constants),
        cmocka_unit_test(test_fp_mont_le_is_a_times_2_384),
        cmocka_unit_test(test_fp_add_matches_ref),
        cmocka_unit_test(test_fp_sub_matches_ref),
        cmocka_unit_test(test_fp_neg_matches_ref),
        cmocka_unit_test(test_fp_dbl_matches_ref),
        cmocka_unit_test(test_fp_mul_matches_ref),
        cmocka_unit_test(test_fp_sqr_matches_ref),
        cmocka_unit_test(test_fp_inv_matches_ref),
        cmocka_unit_test(test_fp_pow_var_matches_ref),
        cmocka_unit_test(test_fp_add_and_mul_commute),
        cmocka_unit_test(test_fp_add_and_mul_associate),
        cmocka_unit_test(test_fp_mul_distributes_over_add),
        cmocka_unit_test(test_fp_identities),
        cmocka_unit_test(test_fp_outputs_may_alias_inputs),
        cmocka_unit_test(test_fp_mul_by_inverse_is_one),
        cmocka_unit_test(test_fp_sqrt_of_square_squares_back),
        cmocka_unit_test(test_fp_sqrt_is_a_to_p_plus_1_over_4),
        cmocka_unit_test(test_fp_sqrt_of_non_square_fails),
        cmocka_unit_test(test_fp_is_square_matches_euler),
        cmocka_unit_test(test_fp_is_lex_largest_matches_ref),
        cmocka_unit_test(test_fp_from_bytes_reject_noncanonical),
        cmocka_unit_test(test_fp_from_bytes_accepts_exactly_below_p),
        cmocka_unit_test(test_fp_encodings_round_trip),
        cmocka_unit_test(test_fp_from_u64_matches_ref),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
