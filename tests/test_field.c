/* Field tests: Fp (the 381-bit base field, 6 limbs) and Fr (the 255-bit
 * scalar field, 4 limbs) of BLS12-381, through one set of test bodies.
 *
 * A generic test takes a field_ops_t (cmocka's initial state): the field's
 * sizes, its published modulus, its generated constants and its operations
 * behind function pointers over elements of `limbs` words. It checks every
 * operation against the slow reference (ref_bigint.h) on the canonical
 * integers, on every pair of edge values and on edge-biased random draws;
 * then the field axioms, aliasing, the byte encodings and the generated
 * Montgomery constants. main() runs each generic test once per field, as
 * test_<field>_<what>. Tests that only one field has follow: Fp's square
 * roots, lexicographic sign and snarkjs Montgomery bytes; Fr's roots of unity;
 * and the reference's own self-tests.
 * Rerun with CUZK_TEST_SEED=<seed>; scale with CUZK_TEST_ITERS=<n>. */
#include "ref_bigint.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

/* Generated constants (tools/gen_constants.py), checked against the reference. */
#include "../src/field/constants_gen.h"

/* Room for an element of either field; generic code reads and writes only
 * the first F->limbs words. */
typedef union fe {
    fp_t fp;
    fr_t fr;
    uint64_t l[FP_LIMBS];
} fe_t;

#define MAX_LIMBS FP_LIMBS
#define MAX_BYTES FP_BYTES

typedef void (*binop_fn)(void *out, const void *a, const void *b);
typedef void (*unop_fn)(void *out, const void *a);

typedef struct field_ops {
    const char *name; /* "fp": prefixes test names and failure messages */
    size_t limbs, bytes;
    unsigned bits;           /* bit length of the modulus */
    const char *modulus_hex; /* as published */
    const uint64_t *modulus; /* the library's FP_MODULUS / FR_MODULUS */
    const void *zero, *one;  /* the library's constants */
    /* Generated constants: the modulus, 2^(64 limbs) and its square mod m,
     * m - 2, and n0 = -m^-1 mod 2^64. */
    const uint64_t *gen_modulus, *gen_one, *gen_r2, *gen_minus_2;
    uint64_t gen_top_limb, gen_n0;

    binop_fn add, sub, mul;
    unop_fn neg, dbl, sqr, inv;
    void (*pow_var)(void *out, const void *a, const uint64_t *e, size_t n);
    int (*is_zero)(const void *a);
    int (*is_one)(const void *a);
    int (*equal)(const void *a, const void *b);
    void (*from_u64)(void *out, uint64_t v);
    cuzk_status (*from_be)(void *out, const uint8_t *in);
    cuzk_status (*from_le)(void *out, const uint8_t *in);
    cuzk_status (*from_limbs)(void *out, const uint64_t *in);
    void (*to_be)(uint8_t *out, const void *a);
    void (*to_le)(uint8_t *out, const void *a);
    void (*to_limbs)(uint64_t *out, const void *a);
    /* Montgomery-form little-endian bytes (snarkjs LEM), where the field has
     * them (Fp); NULL otherwise. */
    cuzk_status (*from_mont_le)(void *out, const uint8_t *in);
    void (*to_mont_le)(uint8_t *out, const void *a);
    void (*rand)(void *out); /* test_util's edge-biased draw */

    /* Derived from modulus_hex with the reference by the group setup. */
    ref_bn_t m;         /* the modulus */
    ref_bn_t half;      /* (m-1)/2 */
    ref_bn_t mont_r;    /* 2^(64 limbs) mod m */
    ref_bn_t mont_rinv; /* 2^-(64 limbs) mod m */
} field_ops_t;

/* ---- the two fields --------------------------------------------------------
 * Wrappers give every operation the table's void * signature (calling a
 * function through a pointer of another type is undefined). */

static void op_fp_add(void *out, const void *a, const void *b)
{
    fp_add(out, a, b);
}

static void op_fp_sub(void *out, const void *a, const void *b)
{
    fp_sub(out, a, b);
}

static void op_fp_mul(void *out, const void *a, const void *b)
{
    fp_mul(out, a, b);
}

static void op_fp_neg(void *out, const void *a)
{
    fp_neg(out, a);
}

static void op_fp_dbl(void *out, const void *a)
{
    fp_dbl(out, a);
}

static void op_fp_sqr(void *out, const void *a)
{
    fp_sqr(out, a);
}

static void op_fp_inv(void *out, const void *a)
{
    fp_inv(out, a);
}

static void op_fp_pow_var(void *out, const void *a, const uint64_t *e, size_t n)
{
    fp_pow_var(out, a, e, n);
}

static int op_fp_is_zero(const void *a)
{
    return fp_is_zero(a);
}

static int op_fp_is_one(const void *a)
{
    return fp_is_one(a);
}

static int op_fp_equal(const void *a, const void *b)
{
    return fp_equal(a, b);
}

static void op_fp_from_u64(void *out, uint64_t v)
{
    fp_from_u64(out, v);
}

static cuzk_status op_fp_from_be(void *out, const uint8_t *in)
{
    return fp_from_be(out, in);
}

static cuzk_status op_fp_from_le(void *out, const uint8_t *in)
{
    return fp_from_le(out, in);
}

static cuzk_status op_fp_from_limbs(void *out, const uint64_t *in)
{
    return fp_from_limbs(out, in);
}

static void op_fp_to_be(uint8_t *out, const void *a)
{
    fp_to_be(out, a);
}

static void op_fp_to_le(uint8_t *out, const void *a)
{
    fp_to_le(out, a);
}

static void op_fp_to_limbs(uint64_t *out, const void *a)
{
    fp_to_limbs(out, a);
}

static cuzk_status op_fp_from_mont_le(void *out, const uint8_t *in)
{
    return fp_from_mont_le(out, in);
}

static void op_fp_to_mont_le(uint8_t *out, const void *a)
{
    fp_to_mont_le(out, a);
}

static void op_fp_rand(void *out)
{
    tu_rand_fp(out);
}

static void op_fr_add(void *out, const void *a, const void *b)
{
    fr_add(out, a, b);
}

static void op_fr_sub(void *out, const void *a, const void *b)
{
    fr_sub(out, a, b);
}

static void op_fr_mul(void *out, const void *a, const void *b)
{
    fr_mul(out, a, b);
}

static void op_fr_neg(void *out, const void *a)
{
    fr_neg(out, a);
}

static void op_fr_dbl(void *out, const void *a)
{
    fr_dbl(out, a);
}

static void op_fr_sqr(void *out, const void *a)
{
    fr_sqr(out, a);
}

static void op_fr_inv(void *out, const void *a)
{
    fr_inv(out, a);
}

static void op_fr_pow_var(void *out, const void *a, const uint64_t *e, size_t n)
{
    fr_pow_var(out, a, e, n);
}

static int op_fr_is_zero(const void *a)
{
    return fr_is_zero(a);
}

static int op_fr_is_one(const void *a)
{
    return fr_is_one(a);
}

static int op_fr_equal(const void *a, const void *b)
{
    return fr_equal(a, b);
}

static void op_fr_from_u64(void *out, uint64_t v)
{
    fr_from_u64(out, v);
}

static cuzk_status op_fr_from_be(void *out, const uint8_t *in)
{
    return fr_from_be(out, in);
}

static cuzk_status op_fr_from_le(void *out, const uint8_t *in)
{
    return fr_from_le(out, in);
}

static cuzk_status op_fr_from_limbs(void *out, const uint64_t *in)
{
    return fr_from_limbs(out, in);
}

static void op_fr_to_be(uint8_t *out, const void *a)
{
    fr_to_be(out, a);
}

static void op_fr_to_le(uint8_t *out, const void *a)
{
    fr_to_le(out, a);
}

static void op_fr_to_limbs(uint64_t *out, const void *a)
{
    fr_to_limbs(out, a);
}

static void op_fr_rand(void *out)
{
    tu_rand_fr(out);
}

static const uint64_t GEN_P[] = CUZK_P_LIMBS, GEN_P_ONE[] = CUZK_P_ONE, GEN_P_R2[] = CUZK_P_R2,
                      GEN_P_MINUS_2[] = CUZK_P_MINUS_2;
static const uint64_t GEN_R[] = CUZK_R_LIMBS, GEN_R_ONE[] = CUZK_R_ONE, GEN_R_R2[] = CUZK_R_R2,
                      GEN_R_MINUS_2[] = CUZK_R_MINUS_2;

/* p and r of BLS12-381 as published (draft-irtf-cfrg-pairing-friendly-curves). */
static field_ops_t FP = {
    .name = "fp",
    .limbs = FP_LIMBS,
    .bytes = FP_BYTES,
    .bits = 381,
    .modulus_hex = "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
                   "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
    .modulus = FP_MODULUS,
    .zero = &FP_ZERO_ELEM,
    .one = &FP_ONE,
    .gen_modulus = GEN_P,
    .gen_one = GEN_P_ONE,
    .gen_r2 = GEN_P_R2,
    .gen_minus_2 = GEN_P_MINUS_2,
    .gen_top_limb = CUZK_P_TOP_LIMB,
    .gen_n0 = CUZK_P_N0,
    .add = op_fp_add,
    .sub = op_fp_sub,
    .mul = op_fp_mul,
    .neg = op_fp_neg,
    .dbl = op_fp_dbl,
    .sqr = op_fp_sqr,
    .inv = op_fp_inv,
    .pow_var = op_fp_pow_var,
    .is_zero = op_fp_is_zero,
    .is_one = op_fp_is_one,
    .equal = op_fp_equal,
    .from_u64 = op_fp_from_u64,
    .from_be = op_fp_from_be,
    .from_le = op_fp_from_le,
    .from_limbs = op_fp_from_limbs,
    .to_be = op_fp_to_be,
    .to_le = op_fp_to_le,
    .to_limbs = op_fp_to_limbs,
    .from_mont_le = op_fp_from_mont_le,
    .to_mont_le = op_fp_to_mont_le,
    .rand = op_fp_rand,
};

static field_ops_t FR = {
    .name = "fr",
    .limbs = FR_LIMBS,
    .bytes = FR_BYTES,
    .bits = 255,
    .modulus_hex = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    .modulus = FR_MODULUS,
    .zero = &FR_ZERO,
    .one = &FR_ONE,
    .gen_modulus = GEN_R,
    .gen_one = GEN_R_ONE,
    .gen_r2 = GEN_R_R2,
    .gen_minus_2 = GEN_R_MINUS_2,
    .gen_top_limb = CUZK_R_TOP_LIMB,
    .gen_n0 = CUZK_R_N0,
    .add = op_fr_add,
    .sub = op_fr_sub,
    .mul = op_fr_mul,
    .neg = op_fr_neg,
    .dbl = op_fr_dbl,
    .sqr = op_fr_sqr,
    .inv = op_fr_inv,
    .pow_var = op_fr_pow_var,
    .is_zero = op_fr_is_zero,
    .is_one = op_fr_is_one,
    .equal = op_fr_equal,
    .from_u64 = op_fr_from_u64,
    .from_be = op_fr_from_be,
    .from_le = op_fr_from_le,
    .from_limbs = op_fr_from_limbs,
    .to_be = op_fr_to_be,
    .to_le = op_fr_to_le,
    .to_limbs = op_fr_to_limbs,
    .from_mont_le = NULL,
    .to_mont_le = NULL,
    .rand = op_fr_rand,
};

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

/* ---- bridges between elements and the reference --------------------------- */

static void ref_of(const field_ops_t *F, ref_bn_t *out, const void *a)
{
    uint8_t b[MAX_BYTES];
    F->to_be(b, a);
    ref_from_be(out, b, F->bytes);
}

static void fe_of(const field_ops_t *F, void *out, const ref_bn_t *a)
{
    uint8_t b[MAX_BYTES];
    ref_to_be(b, F->bytes, a);
    assert_int_equal(F->from_be(out, b), CUZK_OK);
}

/* Fails, printing the operands and both results, unless got == want and got
 * is stored fully reduced (its Montgomery limbs below the modulus: to_be would
 * hide a value stored as itself plus the modulus). */
static void expect_ref(const field_ops_t *F, const char *op, const void *got, const ref_bn_t *want,
                       const void *a, const void *b)
{
    ref_bn_t g, ra, rb, raw;
    ref_from_limbs(&raw, got, F->limbs);
    ref_of(F, &g, got);
    int reduced = ref_cmp(&raw, &F->m) < 0;
    if (reduced && ref_cmp(&g, want) == 0)
        return;
    char ha[REF_HEX_MAX], hb[REF_HEX_MAX], hw[REF_HEX_MAX], hg[REF_HEX_MAX];
    ref_of(F, &ra, a);
    ref_to_hex(ha, &ra);
    if (b) {
        ref_of(F, &rb, b);
        ref_to_hex(hb, &rb);
    } else {
        strcpy(hb, "-");
    }
    ref_to_hex(hw, want);
    ref_to_hex(hg, reduced ? &g : &raw);
    fail_msg("%s: %s: a=%s b=%s: expected %s, got %s%s", F->name, op, ha, hb, hw,
             reduced ? "" : "Montgomery limbs ", hg);
}

/* Fails, printing a (and b), when a predicate gave got instead of want. */
static void expect_pred(const field_ops_t *F, const char *op, const void *a, const void *b, int got,
                        int want)
{
    if (got == want)
        return;
    ref_bn_t ra, rb;
    char ha[REF_HEX_MAX], hb[REF_HEX_MAX];
    ref_of(F, &ra, a);
    ref_to_hex(ha, &ra);
    if (b) {
        ref_of(F, &rb, b);
        ref_to_hex(hb, &rb);
    } else {
        strcpy(hb, "-");
    }
    fail_msg("%s: %s: a=%s b=%s: expected %d, got %d", F->name, op, ha, hb, want, got);
}

static void expect_equal(const field_ops_t *F, const char *what, const void *got, const void *want,
                         const void *a)
{
    ref_bn_t rw;
    ref_of(F, &rw, want);
    expect_ref(F, what, got, &rw, a, NULL);
}

static void expect_limbs(const field_ops_t *F, const char *name, const uint64_t *limbs,
                         const ref_bn_t *want)
{
    ref_bn_t got;
    ref_from_limbs(&got, limbs, F->limbs);
    if (ref_cmp(&got, want) != 0) {
        char hg[REF_HEX_MAX], hw[REF_HEX_MAX];
        ref_to_hex(hg, &got);
        ref_to_hex(hw, want);
        fail_msg("%s: %s: expected %s, got %s", F->name, name, hw, hg);
    }
}

/* Half the draws come from test_util (tu_rand_fp, tu_rand_fr); the other half
 * have Montgomery limbs made of runs (zero, all ones, one bit, ones above a
 * random bit), which the carry chains of the multiplication see directly. */
static void rand_elem(const field_ops_t *F, void *out)
{
    if (tu_rand64() & 1) {
        F->rand(out);
        return;
    }
    for (;;) {
        uint64_t l[MAX_LIMBS];
        ref_bn_t raw;
        for (size_t i = 0; i < F->limbs; i++) {
            switch (tu_rand64() % 5) {
            case 0: l[i] = 0; break;
            case 1: l[i] = UINT64_MAX; break;
            case 2: l[i] = (uint64_t)1 << (tu_rand64() % 64); break;
            case 3: l[i] = UINT64_MAX << (tu_rand64() % 64); break;
            default: l[i] = tu_rand64(); break;
            }
        }
        l[F->limbs - 1] >>= 64 * F->limbs - F->bits; /* m < 2^bits */
        ref_from_limbs(&raw, l, F->limbs);
        if (ref_cmp(&raw, &F->m) < 0) {
            memcpy(out, l, F->limbs * sizeof l[0]);
            return;
        }
    }
}

/* Edge values: 0, 1, 2, 3, m-1, m-2, (m-1)/2, (m+1)/2, powers of two at limb
 * and word boundaries and just below the top bit, 2^(64 limbs) mod m and its
 * inverse, m - 2^64. */
#define N_EDGES 16
static void edge_values(const field_ops_t *F, fe_t out[N_EDGES])
{
    ref_bn_t v[N_EDGES], one;
    ref_set_u64(&one, 1);
    ref_set_u64(&v[0], 0);
    ref_set_u64(&v[1], 1);
    ref_set_u64(&v[2], 2);
    ref_set_u64(&v[3], 3);
    ref_sub(&v[4], &F->m, &one);
    ref_sub(&v[5], &v[4], &one);
    v[6] = F->half;
    ref_add(&v[7], &F->half, &one);
    ref_set_u64(&v[8], UINT64_MAX);
    ref_shl(&v[9], &one, 64);
    ref_shl(&v[10], &one, 192);
    ref_shl(&v[11], &one, F->bits - 1);
    ref_sub(&v[12], &v[11], &one);
    v[13] = F->mont_r;
    v[14] = F->mont_rinv;
    ref_sub(&v[15], &F->m, &v[9]);
    for (int i = 0; i < N_EDGES; i++)
        fe_of(F, &out[i], &v[i]);
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

static void reverse(uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[n - 1 - i];
}

/* ---- generic: constants ----------------------------------------------------- */

static void test_modulus_is_published(void **state)
{
    const field_ops_t *F = *state;
    ref_bn_t m, one;
    ref_from_limbs(&m, F->modulus, F->limbs);
    assert_int_equal(ref_cmp(&m, &F->m), 0);
    ref_from_limbs(&m, F->gen_modulus, F->limbs);
    assert_int_equal(ref_cmp(&m, &F->m), 0);
    assert_int_equal(F->gen_top_limb, F->modulus[F->limbs - 1]);
    assert_int_equal(ref_bitlen(&F->m), F->bits);
    /* -1 encodes as m - 1. */
    uint8_t got[MAX_BYTES], want[MAX_BYTES];
    fe_t m1;
    ref_set_u64(&one, 1);
    ref_sub(&m, &F->m, &one);
    ref_to_be(want, F->bytes, &m);
    F->neg(&m1, F->one);
    F->to_be(got, &m1);
    assert_memory_equal(got, want, F->bytes);
}

static void test_one_is_mont_r(void **state)
{
    /* ONE is stored as 2^(64 limbs) mod m and means 1; ZERO is all zero. */
    const field_ops_t *F = *state;
    ref_bn_t raw, one;
    fe_t f;
    ref_from_limbs(&raw, F->one, F->limbs);
    assert_int_equal(ref_cmp(&raw, &F->mont_r), 0);
    ref_set_u64(&one, 1);
    expect_ref(F, "ONE", F->one, &one, F->one, NULL);
    F->from_u64(&f, 1);
    assert_memory_equal(&f, F->one, F->limbs * sizeof(uint64_t));
    assert_true(F->is_one(F->one));
    for (size_t i = 0; i < F->limbs; i++)
        assert_int_equal(((const uint64_t *)F->zero)[i], 0);
    assert_true(F->is_zero(F->zero));
}

static void test_montgomery_constants(void **state)
{
    const field_ops_t *F = *state;
    ref_bn_t want, k;
    expect_limbs(F, "generated ONE", F->gen_one, &F->mont_r);
    ref_mulmod(&want, &F->mont_r, &F->mont_r, &F->m);
    expect_limbs(F, "generated R2", F->gen_r2, &want);
    /* n0 = -m^-1 mod 2^64 */
    assert_int_equal((uint64_t)(F->modulus[0] * F->gen_n0), UINT64_MAX);
    ref_set_u64(&k, 2);
    ref_sub(&want, &F->m, &k);
    expect_limbs(F, "generated MINUS_2", F->gen_minus_2, &want);
}

static void test_raw_limbs_are_a_times_mont_r(void **state)
{
    const field_ops_t *F = *state;
    for (int i = 0; i < iters(); i++) {
        fe_t a;
        ref_bn_t ra, raw, want;
        rand_elem(F, &a);
        ref_of(F, &ra, &a);
        ref_from_limbs(&raw, a.l, F->limbs);
        ref_mulmod(&want, &ra, &F->mont_r, &F->m);
        assert_int_equal(ref_cmp(&raw, &want), 0);
    }
}

/* ---- generic: each operation against the reference -------------------------- */

typedef void (*ref_binop)(ref_bn_t *, const ref_bn_t *, const ref_bn_t *, const ref_bn_t *);

static void check_binop(const field_ops_t *F, const char *name, binop_fn f, ref_binop g,
                        const void *a, const void *b)
{
    fe_t c;
    ref_bn_t ra, rb, want;
    f(&c, a, b);
    ref_of(F, &ra, a);
    ref_of(F, &rb, b);
    g(&want, &ra, &rb, &F->m);
    expect_ref(F, name, &c, &want, a, b);
}

/* Every pair of edge values, then random (edge-biased) pairs. */
static void binop_matches_ref(const field_ops_t *F, const char *name, binop_fn f, ref_binop g)
{
    fe_t e[N_EDGES];
    edge_values(F, e);
    for (int i = 0; i < N_EDGES; i++)
        for (int j = 0; j < N_EDGES; j++)
            check_binop(F, name, f, g, &e[i], &e[j]);
    for (int i = 0; i < iters(); i++) {
        fe_t a, b;
        rand_elem(F, &a);
        rand_elem(F, &b);
        if (i % 16 == 0)
            b = a;
        check_binop(F, name, f, g, &a, &b);
    }
}

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

static void unop_matches_ref(const field_ops_t *F, const char *name, unop_fn f, ref_binop g)
{
    fe_t e[N_EDGES], a, c;
    ref_bn_t ra, want;
    edge_values(F, e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        if (i < N_EDGES)
            a = e[i];
        else
            rand_elem(F, &a);
        f(&c, &a);
        ref_of(F, &ra, &a);
        g(&want, &ra, &ra, &F->m);
        expect_ref(F, name, &c, &want, &a, NULL);
    }
}

static void test_add_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    binop_matches_ref(F, "add", F->add, ref_addmod);
}

static void test_sub_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    binop_matches_ref(F, "sub", F->sub, ref_submod);
}

static void test_mul_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    binop_matches_ref(F, "mul", F->mul, ref_mulmod);
}

static void test_neg_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    unop_matches_ref(F, "neg", F->neg, ref_neg_m);
}

static void test_dbl_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    unop_matches_ref(F, "dbl", F->dbl, ref_dbl_m);
}

static void test_sqr_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    unop_matches_ref(F, "sqr", F->sqr, ref_sqr_m);
}

static void test_inv_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    fe_t a, c;
    ref_bn_t ra, rc, t, one, mm2;
    ref_set_u64(&one, 1);
    ref_set_u64(&t, 2);
    ref_sub(&mm2, &F->m, &t);
    /* a * inv(a) = 1 for nonzero a, computed in the reference. */
    for (int i = 0; i < iters(); i++) {
        rand_elem(F, &a);
        if (F->is_zero(&a))
            continue;
        F->inv(&c, &a);
        ref_of(F, &ra, &a);
        ref_of(F, &rc, &c);
        ref_mulmod(&t, &ra, &rc, &F->m);
        if (ref_cmp(&t, &one) != 0)
            expect_ref(F, "inv (a * inv(a) != 1)", &c, &one, &a, NULL);
    }
    /* inv(a) = a^(m-2) by the reference's own exponentiation. */
    for (int i = 0; i < iters_slow(); i++) {
        rand_elem(F, &a);
        F->inv(&c, &a);
        ref_of(F, &ra, &a);
        ref_powmod(&t, &ra, &mm2, &F->m);
        expect_ref(F, "inv", &c, &t, &a, NULL);
    }
    F->inv(&c, F->zero);
    assert_true(F->is_zero(&c));
}

static void rand_exponent(uint64_t *e, size_t *n)
{
    /* 0 to 7 limbs: covers e = 0 (no limbs), short exponents and e > m. */
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

static void check_pow(const field_ops_t *F, const void *a, const uint64_t *e, size_t n)
{
    fe_t c;
    ref_bn_t ra, re, want;
    F->pow_var(&c, a, e, n);
    ref_of(F, &ra, a);
    ref_from_limbs(&re, e, n);
    ref_powmod(&want, &ra, &re, &F->m);
    expect_ref(F, "pow_var", &c, &want, a, NULL);
}

static void test_pow_var_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    fe_t a;
    uint64_t e[8];
    size_t n;
    /* Fixed exponents: 0, 1, 2 (also with a zero limb on top), and every
     * eighth round m - 1 (Fermat) and m (a^m = a) with a zero limb on top. */
    uint64_t fixed[MAX_LIMBS + 1] = {0};
    for (int i = 0; i < iters_slow(); i++) {
        rand_elem(F, &a);
        for (uint64_t k = 0; k < 3; k++) {
            fixed[0] = k;
            check_pow(F, &a, fixed, 1);
            check_pow(F, &a, fixed, 2);
        }
        if (i % 8 == 0) {
            memcpy(fixed, F->modulus, F->limbs * sizeof fixed[0]);
            check_pow(F, &a, fixed, F->limbs + 1);
            fixed[0] -= 1;
            check_pow(F, &a, fixed, F->limbs);
            memset(fixed, 0, sizeof fixed);
        }
        rand_exponent(e, &n);
        check_pow(F, &a, e, n);
    }
}

static void check_predicates(const field_ops_t *F, const void *a, const void *b)
{
    ref_bn_t ra, rb, one;
    ref_set_u64(&one, 1);
    ref_of(F, &ra, a);
    ref_of(F, &rb, b);
    expect_pred(F, "is_zero", a, NULL, F->is_zero(a), ref_is_zero(&ra));
    expect_pred(F, "is_zero", b, NULL, F->is_zero(b), ref_is_zero(&rb));
    expect_pred(F, "is_one", a, NULL, F->is_one(a), ref_cmp(&ra, &one) == 0);
    expect_pred(F, "is_one", b, NULL, F->is_one(b), ref_cmp(&rb, &one) == 0);
    expect_pred(F, "equal", a, b, F->equal(a, b), ref_cmp(&ra, &rb) == 0);
}

/* b = a with one bit of its Montgomery limbs flipped, still below m. */
static void flip_one_bit(const field_ops_t *F, fe_t *b, const fe_t *a)
{
    ref_bn_t raw;
    do {
        *b = *a;
        b->l[tu_rand64() % F->limbs] ^= (uint64_t)1 << (tu_rand64() % 64);
        ref_from_limbs(&raw, b->l, F->limbs);
    } while (ref_cmp(&raw, &F->m) >= 0);
}

static void test_predicates_match_ref(void **state)
{
    /* is_zero, is_one and equal on every pair of edge values, then on random
     * pairs: equal ones, and ones that differ in a single bit of one limb. */
    const field_ops_t *F = *state;
    fe_t e[N_EDGES];
    edge_values(F, e);
    for (int i = 0; i < N_EDGES; i++)
        for (int j = 0; j < N_EDGES; j++)
            check_predicates(F, &e[i], &e[j]);
    for (int i = 0; i < iters(); i++) {
        fe_t a, b;
        rand_elem(F, &a);
        switch (i % 4) {
        case 0: b = a; break;
        case 1: flip_one_bit(F, &b, &a); break;
        default: rand_elem(F, &b); break;
        }
        check_predicates(F, &a, &b);
    }
}

/* ---- generic: field axioms (library only) ------------------------------------ */

static void test_add_and_mul_commute(void **state)
{
    const field_ops_t *F = *state;
    for (int i = 0; i < iters(); i++) {
        fe_t a, b, x, y;
        rand_elem(F, &a);
        rand_elem(F, &b);
        F->add(&x, &a, &b);
        F->add(&y, &b, &a);
        expect_equal(F, "a + b = b + a", &x, &y, &a);
        F->mul(&x, &a, &b);
        F->mul(&y, &b, &a);
        expect_equal(F, "a b = b a", &x, &y, &a);
    }
}

static void test_add_and_mul_associate(void **state)
{
    const field_ops_t *F = *state;
    for (int i = 0; i < iters(); i++) {
        fe_t a, b, c, x, y;
        rand_elem(F, &a);
        rand_elem(F, &b);
        rand_elem(F, &c);
        F->add(&x, &a, &b);
        F->add(&x, &x, &c);
        F->add(&y, &b, &c);
        F->add(&y, &a, &y);
        expect_equal(F, "(a + b) + c = a + (b + c)", &x, &y, &a);
        F->mul(&x, &a, &b);
        F->mul(&x, &x, &c);
        F->mul(&y, &b, &c);
        F->mul(&y, &a, &y);
        expect_equal(F, "(a b) c = a (b c)", &x, &y, &a);
    }
}

static void test_mul_distributes_over_add(void **state)
{
    const field_ops_t *F = *state;
    for (int i = 0; i < iters(); i++) {
        fe_t a, b, c, x, y, t;
        rand_elem(F, &a);
        rand_elem(F, &b);
        rand_elem(F, &c);
        F->add(&x, &b, &c);
        F->mul(&x, &a, &x);
        F->mul(&y, &a, &b);
        F->mul(&t, &a, &c);
        F->add(&y, &y, &t);
        expect_equal(F, "a (b + c) = a b + a c", &x, &y, &a);
    }
}

static void test_identities(void **state)
{
    const field_ops_t *F = *state;
    for (int i = 0; i < iters(); i++) {
        fe_t a, b, x, y;
        rand_elem(F, &a);
        rand_elem(F, &b);
        F->add(&x, &a, F->zero);
        expect_equal(F, "a + 0 = a", &x, &a, &a);
        F->mul(&x, &a, F->one);
        expect_equal(F, "a 1 = a", &x, &a, &a);
        F->mul(&x, &a, F->zero);
        expect_equal(F, "a 0 = 0", &x, F->zero, &a);
        F->sub(&x, &a, &a);
        expect_equal(F, "a - a = 0", &x, F->zero, &a);
        F->neg(&x, &a);
        F->add(&x, &x, &a);
        expect_equal(F, "-a + a = 0", &x, F->zero, &a);
        F->neg(&x, &a);
        F->neg(&x, &x);
        expect_equal(F, "-(-a) = a", &x, &a, &a);
        F->neg(&y, &b);
        F->add(&y, &a, &y);
        F->sub(&x, &a, &b);
        expect_equal(F, "a - b = a + (-b)", &x, &y, &a);
        F->dbl(&x, &a);
        F->add(&y, &a, &a);
        expect_equal(F, "dbl(a) = a + a", &x, &y, &a);
        F->sqr(&x, &a);
        F->mul(&y, &a, &a);
        expect_equal(F, "sqr(a) = a a", &x, &y, &a);
    }
}

static void test_outputs_may_alias_inputs(void **state)
{
    const field_ops_t *F = *state;
    const binop_fn bin[] = {F->add, F->sub, F->mul};
    const unop_fn un[] = {F->neg, F->dbl, F->sqr, F->inv};
    for (int i = 0; i < iters() / 4; i++) {
        fe_t a, b, want, x;
        rand_elem(F, &a);
        rand_elem(F, &b);
        for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++) {
            bin[k](&want, &a, &b);
            x = a;
            bin[k](&x, &x, &b);
            expect_equal(F, "out = a alias", &x, &want, &a);
            x = b;
            bin[k](&x, &a, &x);
            expect_equal(F, "out = b alias", &x, &want, &a);
            bin[k](&want, &a, &a);
            x = a;
            bin[k](&x, &x, &x);
            expect_equal(F, "out = a = b alias", &x, &want, &a);
        }
        for (size_t k = 0; k < sizeof un / sizeof un[0]; k++) {
            un[k](&want, &a);
            x = a;
            un[k](&x, &x);
            expect_equal(F, "unary alias", &x, &want, &a);
        }
        uint64_t e[2] = {tu_rand64(), tu_rand64()};
        F->pow_var(&want, &a, e, 2);
        x = a;
        F->pow_var(&x, &x, e, 2);
        expect_equal(F, "pow_var alias", &x, &want, &a);
    }
}

static void test_mul_by_inverse_is_one(void **state)
{
    const field_ops_t *F = *state;
    fe_t e[N_EDGES];
    edge_values(F, e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        fe_t a, b, x;
        if (i < N_EDGES)
            a = e[i];
        else
            rand_elem(F, &a);
        F->inv(&b, &a);
        if (F->is_zero(&a)) {
            expect_equal(F, "inv(0) = 0", &b, F->zero, &a);
            continue;
        }
        F->mul(&x, &a, &b);
        expect_equal(F, "a inv(a) = 1", &x, F->one, &a);
        F->inv(&x, &b);
        expect_equal(F, "inv(inv(a)) = a", &x, &a, &a);
    }
}

/* ---- generic: encodings ------------------------------------------------------ */

static void test_from_bytes_reject_noncanonical(void **state)
{
    const field_ops_t *F = *state;
    ref_bn_t bad[3], one, mm1;
    ref_set_u64(&one, 1);
    bad[0] = F->m;
    ref_add(&bad[1], &F->m, &one);
    ref_shl(&bad[2], &one, (unsigned)(64 * F->limbs));
    ref_sub(&bad[2], &bad[2], &one);
    for (int i = 0; i < 3; i++) {
        uint8_t be[MAX_BYTES], le[MAX_BYTES];
        uint64_t l[MAX_LIMBS];
        fe_t out;
        ref_to_be(be, F->bytes, &bad[i]);
        ref_to_le(le, F->bytes, &bad[i]);
        ref_to_limbs(l, F->limbs, &bad[i]);
        assert_int_equal(F->from_be(&out, be), CUZK_ERR_NONCANONICAL);
        assert_int_equal(F->from_le(&out, le), CUZK_ERR_NONCANONICAL);
        if (F->from_mont_le)
            assert_int_equal(F->from_mont_le(&out, le), CUZK_ERR_NONCANONICAL);
        assert_int_equal(F->from_limbs(&out, l), CUZK_ERR_NONCANONICAL);
    }
    /* m - 1 is the largest accepted value: it is -1. */
    uint8_t be[MAX_BYTES], le[MAX_BYTES];
    fe_t out, m1;
    F->neg(&m1, F->one);
    ref_sub(&mm1, &F->m, &one);
    ref_to_be(be, F->bytes, &mm1);
    ref_to_le(le, F->bytes, &mm1);
    assert_int_equal(F->from_be(&out, be), CUZK_OK);
    expect_equal(F, "from_be(m - 1)", &out, &m1, &out);
    assert_int_equal(F->from_le(&out, le), CUZK_OK);
    expect_equal(F, "from_le(m - 1)", &out, &m1, &out);
    if (F->from_mont_le)
        assert_int_equal(F->from_mont_le(&out, le), CUZK_OK);
}

static void test_from_bytes_accepts_exactly_below_modulus(void **state)
{
    /* Random byte strings, often sharing a prefix with m: accepted iff < m. */
    const field_ops_t *F = *state;
    uint8_t mbe[MAX_BYTES];
    ref_to_be(mbe, F->bytes, &F->m);
    for (int i = 0; i < iters(); i++) {
        uint8_t be[MAX_BYTES], le[MAX_BYTES];
        for (size_t k = 0; k < F->bytes; k++)
            be[k] = (uint8_t)tu_rand64();
        size_t keep = (size_t)(tu_rand64() % (F->bytes + 1));
        memcpy(be, mbe, keep);
        reverse(le, be, F->bytes);
        ref_bn_t v;
        ref_from_be(&v, be, F->bytes);
        cuzk_status want = ref_cmp(&v, &F->m) < 0 ? CUZK_OK : CUZK_ERR_NONCANONICAL;
        fe_t out;
        assert_int_equal(F->from_be(&out, be), want);
        if (want == CUZK_OK)
            expect_ref(F, "from_be", &out, &v, &out, NULL);
        assert_int_equal(F->from_le(&out, le), want);
        if (want == CUZK_OK)
            expect_ref(F, "from_le", &out, &v, &out, NULL);
        if (F->from_mont_le)
            assert_int_equal(F->from_mont_le(&out, le), want);
    }
}

static void test_encodings_round_trip(void **state)
{
    const field_ops_t *F = *state;
    const size_t size = F->limbs * sizeof(uint64_t);
    for (int i = 0; i < iters(); i++) {
        fe_t a, b;
        uint8_t be[MAX_BYTES], le[MAX_BYTES], rev[MAX_BYTES];
        uint64_t l[MAX_LIMBS];
        rand_elem(F, &a);
        F->to_be(be, &a);
        assert_int_equal(F->from_be(&b, be), CUZK_OK);
        assert_memory_equal(&a, &b, size);
        F->to_le(le, &a);
        reverse(rev, be, F->bytes);
        assert_memory_equal(le, rev, F->bytes);
        assert_int_equal(F->from_le(&b, le), CUZK_OK);
        assert_memory_equal(&a, &b, size);
        if (F->to_mont_le) {
            F->to_mont_le(le, &a);
            assert_int_equal(F->from_mont_le(&b, le), CUZK_OK);
            assert_memory_equal(&a, &b, size);
        }
        F->to_limbs(l, &a);
        ref_bn_t rl, ra;
        ref_from_limbs(&rl, l, F->limbs);
        ref_of(F, &ra, &a);
        assert_int_equal(ref_cmp(&rl, &ra), 0);
        assert_int_equal(F->from_limbs(&b, l), CUZK_OK);
        assert_memory_equal(&a, &b, size);
    }
}

static void test_from_u64_matches_ref(void **state)
{
    const field_ops_t *F = *state;
    for (int i = 0; i < iters(); i++) {
        uint64_t v = edgy64();
        fe_t a;
        ref_bn_t want;
        F->from_u64(&a, v);
        ref_set_u64(&want, v);
        expect_ref(F, "from_u64", &a, &want, &a, NULL);
    }
}

/* The generic tests, run once per field as test_<field>_<name>. */
static const struct {
    const char *name;
    CMUnitTestFunction fn;
} GENERIC[] = {
    {"modulus_is_published", test_modulus_is_published},
    {"one_is_mont_r", test_one_is_mont_r},
    {"montgomery_constants", test_montgomery_constants},
    {"raw_limbs_are_a_times_mont_r", test_raw_limbs_are_a_times_mont_r},
    {"add_matches_ref", test_add_matches_ref},
    {"sub_matches_ref", test_sub_matches_ref},
    {"neg_matches_ref", test_neg_matches_ref},
    {"dbl_matches_ref", test_dbl_matches_ref},
    {"mul_matches_ref", test_mul_matches_ref},
    {"sqr_matches_ref", test_sqr_matches_ref},
    {"inv_matches_ref", test_inv_matches_ref},
    {"pow_var_matches_ref", test_pow_var_matches_ref},
    {"predicates_match_ref", test_predicates_match_ref},
    {"add_and_mul_commute", test_add_and_mul_commute},
    {"add_and_mul_associate", test_add_and_mul_associate},
    {"mul_distributes_over_add", test_mul_distributes_over_add},
    {"identities", test_identities},
    {"outputs_may_alias_inputs", test_outputs_may_alias_inputs},
    {"mul_by_inverse_is_one", test_mul_by_inverse_is_one},
    {"from_bytes_reject_noncanonical", test_from_bytes_reject_noncanonical},
    {"from_bytes_accepts_exactly_below_modulus", test_from_bytes_accepts_exactly_below_modulus},
    {"encodings_round_trip", test_encodings_round_trip},
    {"from_u64_matches_ref", test_from_u64_matches_ref},
};
#define N_GENERIC (sizeof GENERIC / sizeof GENERIC[0])

/* ---- Fp only: constants -------------------------------------------------------- */

static void test_fp_p_is_3_mod_4(void **state)
{
    /* p = 3 mod 4: the square root is a single exponentiation. */
    (void)state;
    assert_int_equal(FP.m.w[0] & 3, 3);
}

static void test_fp_sqrt_exponents(void **state)
{
    /* The generated exponents of fp_sqrt and fp_is_square. */
    (void)state;
    static const uint64_t pp14[] = CUZK_P_PLUS_1_DIV_4, pm34[] = CUZK_P_MINUS_3_DIV_4,
                          pm12[] = CUZK_P_MINUS_1_DIV_2;
    ref_bn_t want, t, k;
    ref_set_u64(&k, 1);
    ref_add(&t, &FP.m, &k);
    ref_set_u64(&k, 4);
    ref_divmod(&want, &t, &t, &k);
    assert_true(ref_is_zero(&t));
    expect_limbs(&FP, "CUZK_P_PLUS_1_DIV_4", pp14, &want);
    ref_set_u64(&k, 3);
    ref_sub(&t, &FP.m, &k);
    ref_shr(&want, &t, 2);
    expect_limbs(&FP, "CUZK_P_MINUS_3_DIV_4", pm34, &want);
    expect_limbs(&FP, "CUZK_P_MINUS_1_DIV_2", pm12, &FP.half);
}

static void test_fp_mont_le_is_a_times_2_384(void **state)
{
    /* to_mont_le writes a * 2^384 mod p; from_mont_le reads x as x / 2^384. */
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp_t a, b;
        ref_bn_t ra, raw, want;
        uint8_t le[FP_BYTES];
        rand_elem(&FP, &a);
        ref_of(&FP, &ra, &a);
        fp_to_mont_le(le, &a);
        ref_from_le(&raw, le, FP_BYTES);
        ref_mulmod(&want, &ra, &FP.mont_r, &FP.m);
        assert_int_equal(ref_cmp(&raw, &want), 0);

        /* Any x < p read as Montgomery bytes means x * 2^-384. */
        rand_elem(&FP, &b);
        ref_of(&FP, &raw, &b);
        ref_to_le(le, FP_BYTES, &raw);
        assert_int_equal(fp_from_mont_le(&a, le), CUZK_OK);
        ref_mulmod(&want, &raw, &FP.mont_rinv, &FP.m);
        expect_ref(&FP, "fp_from_mont_le", &a, &want, &b, NULL);
    }
}

/* ---- Fp only: square roots and signs ------------------------------------------- */

static void test_fp_sqrt_of_square_squares_back(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 4; i++) {
        fp_t x, s, r, t, nx;
        rand_elem(&FP, &x);
        fp_sqr(&s, &x);
        expect_pred(&FP, "fp_sqrt(x^2)", &s, NULL, fp_sqrt(&r, &s), 1);
        fp_sqr(&t, &r);
        expect_equal(&FP, "fp_sqrt(a)^2 = a", &t, &s, &s);
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
    ref_add(&e, &FP.m, &t);
    ref_shr(&e, &e, 2);
    for (int i = 0; i < iters_slow(); i++) {
        fp_t x, s, r;
        ref_bn_t rs, want;
        rand_elem(&FP, &x);
        fp_sqr(&s, &x);
        assert_true(fp_sqrt(&r, &s));
        ref_of(&FP, &rs, &s);
        ref_powmod(&want, &rs, &e, &FP.m);
        expect_ref(&FP, "fp_sqrt", &r, &want, &s, NULL);
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
        rand_elem(&FP, &x);
        if (fp_is_zero(&x))
            continue;
        fp_sqr(&ns, &x);
        fp_neg(&ns, &ns);
        out = sentinel;
        expect_pred(&FP, "fp_sqrt(-(x^2))", &ns, NULL, fp_sqrt(&out, &ns), 0);
        assert_memory_equal(&out, &sentinel, sizeof out);
        expect_pred(&FP, "fp_is_square(-(x^2))", &ns, NULL, fp_is_square(&ns), 0);
    }
}

static void test_fp_is_square_matches_euler(void **state)
{
    (void)state;
    fe_t e[N_EDGES];
    edge_values(&FP, e);
    for (int i = 0; i < N_EDGES + iters_slow(); i++) {
        fp_t a, r;
        ref_bn_t ra, t, one;
        if (i < N_EDGES)
            a = e[i].fp;
        else
            rand_elem(&FP, &a);
        ref_of(&FP, &ra, &a);
        ref_powmod(&t, &ra, &FP.half, &FP.m);
        ref_set_u64(&one, 1);
        int want = ref_is_zero(&ra) || ref_cmp(&t, &one) == 0;
        expect_pred(&FP, "fp_is_square", &a, NULL, fp_is_square(&a), want);
        expect_pred(&FP, "fp_sqrt succeeds", &a, NULL, fp_sqrt(&r, &a), want);
    }
}

static void test_fp_is_lex_largest_matches_ref(void **state)
{
    (void)state;
    fe_t e[N_EDGES];
    edge_values(&FP, e);
    for (int i = 0; i < N_EDGES + iters(); i++) {
        fp_t a;
        ref_bn_t ra;
        if (i < N_EDGES)
            a = e[i].fp;
        else
            rand_elem(&FP, &a);
        ref_of(&FP, &ra, &a);
        expect_pred(&FP, "fp_is_lex_largest", &a, NULL, fp_is_lex_largest(&a),
                    ref_cmp(&ra, &FP.half) > 0);
    }
}

/* ---- Fr only: roots of unity --------------------------------------------------- */

static void test_fr_two_adicity(void **state)
{
    /* r - 1 = 2^32 * odd: FR_TWO_ADICITY. */
    (void)state;
    ref_bn_t m, q, rem, t;
    ref_set_u64(&t, 1);
    ref_sub(&m, &FR.m, &t);
    ref_shl(&t, &t, FR_TWO_ADICITY);
    ref_divmod(&q, &rem, &m, &t);
    assert_true(ref_is_zero(&rem));
    assert_int_equal(ref_bit(&q, 0), 1);
}

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
    ref_sub(&e, &FR.m, &one);
    ref_shr(&e, &e, FR_TWO_ADICITY);
    ref_powmod(out, &g, &e, &FR.m);
    for (unsigned k = log_n; k < FR_TWO_ADICITY; k++)
        ref_mulmod(out, out, out, &FR.m);
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
            expect_ref(&FR,
                       convs[c] == FR_ROOTS_BELLMAN ? "fr_root_of_unity(BELLMAN)"
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
                expect_equal(&FR, "w_k^(2^(k-1)) = -1", &w, &m1, &w);
                fr_sqr(&w, &w);
            }
            expect_equal(&FR, "w_k^(2^k) = 1", &w, &FR_ONE, &w);
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
        expect_ref(&FR, "fr_root_of_unity(FFJS) vs ffjavascript", &w, &want, &w, NULL);
    }
}

static void test_fr_root_constants_are_plain_integers(void **state)
{
    (void)state;
    static const uint64_t bellman[] = CUZK_FR_ROOT_BELLMAN_PLAIN, ffjs[] = CUZK_FR_ROOT_FFJS_PLAIN;
    ref_bn_t want;
    ref_root(&want, FR_ROOTS_BELLMAN, FR_TWO_ADICITY);
    expect_limbs(&FR, "CUZK_FR_ROOT_BELLMAN_PLAIN", bellman, &want);
    ref_root(&want, FR_ROOTS_FFJS, FR_TWO_ADICITY);
    expect_limbs(&FR, "CUZK_FR_ROOT_FFJS_PLAIN", ffjs, &want);
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

/* ---- the reference itself, against native 128-bit arithmetic ------------------- */

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
        uint8_t in[48], out[48];
        for (int k = 0; k < 48; k++)
            in[k] = (uint8_t)tu_rand64();
        ref_bn_t a, b;
        char hex[REF_HEX_MAX];
        ref_from_be(&a, in, 48);
        ref_to_be(out, 48, &a);
        assert_memory_equal(in, out, 48);
        ref_from_le(&b, in, 48);
        ref_to_le(out, 48, &b);
        assert_memory_equal(in, out, 48);
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

/* ---- the run -------------------------------------------------------------------- */

static const struct CMUnitTest REF_TESTS[] = {
    cmocka_unit_test(test_ref_bigint_matches_u128),
    cmocka_unit_test(test_ref_bigint_divmod_identity),
    cmocka_unit_test(test_ref_bigint_encodings_round_trip),
};

static const struct CMUnitTest FP_TESTS[] = {
    cmocka_unit_test(test_fp_p_is_3_mod_4),
    cmocka_unit_test(test_fp_sqrt_exponents),
    cmocka_unit_test(test_fp_mont_le_is_a_times_2_384),
    cmocka_unit_test(test_fp_sqrt_of_square_squares_back),
    cmocka_unit_test(test_fp_sqrt_is_a_to_p_plus_1_over_4),
    cmocka_unit_test(test_fp_sqrt_of_non_square_fails),
    cmocka_unit_test(test_fp_is_square_matches_euler),
    cmocka_unit_test(test_fp_is_lex_largest_matches_ref),
};

static const struct CMUnitTest FR_TESTS[] = {
    cmocka_unit_test(test_fr_two_adicity),
    cmocka_unit_test(test_fr_roots_match_generator_powers),
    cmocka_unit_test(test_fr_roots_have_exact_order),
    cmocka_unit_test(test_fr_roots_match_ffjavascript_table),
    cmocka_unit_test(test_fr_root_constants_are_plain_integers),
    cmocka_unit_test(test_fr_root_of_unity_rejects_bad_arguments),
};

/* Each field: its table, then the tests only it has. */
static const struct {
    field_ops_t *F;
    const struct CMUnitTest *own;
    size_t n_own;
} SUITES[] = {
    {&FP, FP_TESTS, sizeof FP_TESTS / sizeof FP_TESTS[0]},
    {&FR, FR_TESTS, sizeof FR_TESTS / sizeof FR_TESTS[0]},
};
#define N_SUITES (sizeof SUITES / sizeof SUITES[0])
#define N_REF_TESTS (sizeof REF_TESTS / sizeof REF_TESTS[0])
#define N_TESTS                                                                                    \
    (N_REF_TESTS + N_SUITES * N_GENERIC + sizeof FP_TESTS / sizeof FP_TESTS[0] +                   \
     sizeof FR_TESTS / sizeof FR_TESTS[0])

/* Derives m, (m-1)/2, R = 2^(64 limbs) mod m and R^-1 for one field. */
static int derive(field_ops_t *F)
{
    ref_bn_t one, t, e;
    if (F->bytes != 8 * F->limbs || F->limbs > MAX_LIMBS)
        return -1;
    ref_set_hex(&F->m, F->modulus_hex);
    ref_set_u64(&one, 1);
    ref_sub(&F->half, &F->m, &one);
    ref_shr(&F->half, &F->half, 1);
    ref_shl(&t, &one, (unsigned)(64 * F->limbs));
    ref_mod(&F->mont_r, &t, &F->m);
    ref_set_u64(&t, 2);
    ref_sub(&e, &F->m, &t);
    ref_powmod(&F->mont_rinv, &F->mont_r, &e, &F->m);
    ref_mulmod(&t, &F->mont_r, &F->mont_rinv, &F->m);
    return ref_cmp(&t, &one) == 0 ? 0 : -1;
}

static int setup(void **state)
{
    (void)state;
    for (size_t s = 0; s < N_SUITES; s++)
        if (derive(SUITES[s].F) != 0)
            return -1;
    return 0;
}

int main(void)
{
    static char names[N_SUITES][N_GENERIC][64];
    struct CMUnitTest tests[N_TESTS];
    size_t n = 0;
    tu_init("test_field");
    for (size_t i = 0; i < N_REF_TESTS; i++)
        tests[n++] = REF_TESTS[i];
    for (size_t s = 0; s < N_SUITES; s++) {
        for (size_t g = 0; g < N_GENERIC; g++) {
            snprintf(names[s][g], sizeof names[s][g], "test_%s_%s", SUITES[s].F->name,
                     GENERIC[g].name);
            tests[n++] = (struct CMUnitTest){names[s][g], GENERIC[g].fn, NULL, NULL, SUITES[s].F};
        }
        for (size_t i = 0; i < SUITES[s].n_own; i++)
            tests[n++] = SUITES[s].own[i];
    }
    if (n != N_TESTS) {
        fprintf(stderr, "test_field: %zu tests listed, %zu expected\n", n, (size_t)N_TESTS);
        return 1;
    }
    return cmocka_run_group_tests_name("test_field", tests, setup, NULL);
}
