/* CPU multi-scalar multiplication against the naive sum of [k_i] P_i.
 *
 * One test body runs over G1 and G2 through a table of wrappers. Scalar
 * sets: edge-biased random, all zero, all one, witness-like (90% zero or
 * one), r - 1, one repeated scalar, small scalars; base sets: random,
 * repeated points, P next to -P, infinity entries; sizes 0..3, odd counts
 * and 2^k +- 1; all three base encodings (unaligned too); thread counts
 * 1, 2, 3, 8; every window width through the forced-width hook; the signed
 * digit recoding on its own; the GLV split of G1 scalars against long
 * division and against scalar multiplication, and scalars at its edges
 * (r - 1, lambda, multiples of z = x^2, values near 2^128). Debug
 * (sanitizer) builds run smaller sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_bigint.h"
#include "test_util.h"

#include "cuzk/encode.h"
#include "cuzk/msm.h"
#include "../src/backend/cpu/msm_internal.h"
#include "../src/field/constants_gen.h"

#ifdef NDEBUG
#define SLOW 1 /* release: full sizes */
#else
#define SLOW 2 /* unoptimised, sanitized: divide the sizes */
#endif

typedef struct group {
    const char *name;
    size_t aff_size, jac_size;
    void (*rand)(void *jac);
    cuzk_status (*batch_aff)(void *aff, const void *jac, size_t n);
    void (*from_aff)(void *jac, const void *aff);
    void (*add)(void *jac, const void *a, const void *b);
    void (*mul_fr)(void *jac, const void *jac_in, const fr_t *k);
    void (*aff_neg)(void *out, const void *aff);
    void (*aff_set_inf)(void *aff);
    int (*aff_eq)(const void *a, const void *b);
    int (*jac_eq)(const void *a, const void *b);
    int (*jac_is_inf)(const void *a);
    void (*jac_set_inf)(void *a);
    void (*to_lem)(uint8_t *out, const void *aff);
    void (*serialize)(uint8_t *out, const void *aff);
    void (*bases_get)(void *out, const msm_bases_t *b, size_t start, size_t count);
    cuzk_status (*msm)(void *out, const msm_bases_t *b, const fr_t *s, size_t n, int threads);
    cuzk_status (*pip)(void *out, const msm_bases_t *b, const fr_t *s, size_t n, int threads);
    cuzk_status (*pip_c)(void *out, const msm_bases_t *b, const fr_t *s, size_t n, int threads,
                         unsigned c);
    int cost; /* relative cost of a point operation, for sizing */
} group_t;

/* ---- wrappers ---- */
// clang-format off
static void g1w_rand(void *p) { tu_rand_g1(p); }
static cuzk_status g1w_batch(void *o, const void *j, size_t n) { return g1_batch_to_affine(o, j, n); }
static void g1w_from_aff(void *o, const void *a) { g1_from_affine(o, a); }
static void g1w_add(void *o, const void *a, const void *b) { g1_add(o, a, b); }
static void g1w_mul_fr(void *o, const void *a, const fr_t *k) { g1_mul_fr(o, a, k); }
static void g1w_aff_neg(void *o, const void *a) { g1_affine_neg(o, a); }
static void g1w_aff_set_inf(void *a) { g1_affine_set_inf(a); }
static int g1w_aff_eq(const void *a, const void *b) { return g1_affine_equal(a, b); }
static int g1w_jac_eq(const void *a, const void *b) { return g1_jac_equal(a, b); }
static int g1w_jac_is_inf(const void *a) { return g1_jac_is_inf(a); }
static void g1w_jac_set_inf(void *a) { g1_jac_set_inf(a); }
static void g1w_to_lem(uint8_t *o, const void *a) { g1_to_lem(o, a); }
static void g1w_serialize(uint8_t *o, const void *a) { g1_serialize(o, a); }
static void g1w_get(void *o, const msm_bases_t *b, size_t s, size_t n) { msm_g1_bases_get(o, b, s, n); }
static cuzk_status g1w_msm(void *o, const msm_bases_t *b, const fr_t *s, size_t n, int t) { return msm_g1(o, b, s, n, t); }
static cuzk_status g1w_pip(void *o, const msm_bases_t *b, const fr_t *s, size_t n, int t) { return msm_g1_pippenger(o, b, s, n, t); }
static cuzk_status g1w_pip_c(void *o, const msm_bases_t *b, const fr_t *s, size_t n, int t, unsigned c) { return msm_g1_pippenger_window(o, b, s, n, t, c); }

static void g2w_rand(void *p) { tu_rand_g2(p); }
static cuzk_status g2w_batch(void *o, const void *j, size_t n) { return g2_batch_to_affine(o, j, n); }
static void g2w_from_aff(void *o, const void *a) { g2_from_affine(o, a); }
static void g2w_add(void *o, const void *a, const void *b) { g2_add(o, a, b); }
static void g2w_mul_fr(void *o, const void *a, const fr_t *k) { g2_mul_fr(o, a, k); }
static void g2w_aff_neg(void *o, const void *a) { g2_affine_neg(o, a); }
static void g2w_aff_set_inf(void *a) { g2_affine_set_inf(a); }
static int g2w_aff_eq(const void *a, const void *b) { return g2_affine_equal(a, b); }
static int g2w_jac_eq(const void *a, const void *b) { return g2_jac_equal(a, b); }
static int g2w_jac_is_inf(const void *a) { return g2_jac_is_inf(a); }
static void g2w_jac_set_inf(void *a) { g2_jac_set_inf(a); }
static void g2w_to_lem(uint8_t *o, const void *a) { g2_to_lem(o, a); }
static void g2w_serialize(uint8_t *o, const void *a) { g2_serialize(o, a); }
static void g2w_get(void *o, const msm_bases_t *b, size_t s, size_t n) { msm_g2_bases_get(o, b, s, n); }
static cuzk_status g2w_msm(void *o, const msm_bases_t *b, const fr_t *s, size_t n, int t) { return msm_g2(o, b, s, n, t); }
static cuzk_status g2w_pip(void *o, const msm_bases_t *b, const fr_t *s, size_t n, int t) { return msm_g2_pippenger(o, b, s, n, t); }
static cuzk_status g2w_pip_c(void *o, const msm_bases_t *b, const fr_t *s, size_t n, int t, unsigned c) { return msm_g2_pippenger_window(o, b, s, n, t, c); }

// clang-format on

static const group_t G1_OPS = {
    "G1",
    sizeof(g1_affine_t),
    sizeof(g1_jac_t),
    g1w_rand,
    g1w_batch,
    g1w_from_aff,
    g1w_add,
    g1w_mul_fr,
    g1w_aff_neg,
    g1w_aff_set_inf,
    g1w_aff_eq,
    g1w_jac_eq,
    g1w_jac_is_inf,
    g1w_jac_set_inf,
    g1w_to_lem,
    g1w_serialize,
    g1w_get,
    g1w_msm,
    g1w_pip,
    g1w_pip_c,
    1,
};
static const group_t G2_OPS = {
    "G2",
    sizeof(g2_affine_t),
    sizeof(g2_jac_t),
    g2w_rand,
    g2w_batch,
    g2w_from_aff,
    g2w_add,
    g2w_mul_fr,
    g2w_aff_neg,
    g2w_aff_set_inf,
    g2w_aff_eq,
    g2w_jac_eq,
    g2w_jac_is_inf,
    g2w_jac_set_inf,
    g2w_to_lem,
    g2w_serialize,
    g2w_get,
    g2w_msm,
    g2w_pip,
    g2w_pip_c,
    4,
};

/* Big enough for a G2 Jacobian point. */
typedef union jac {
    g1_jac_t j1;
    g2_jac_t j2;
} jac_t;

#define AT(g, arr, i) ((void *)((uint8_t *)(arr) + (size_t)(i) * (g)->aff_size))

/* ---- inputs ---- */

typedef enum base_kind {
    BASES_RANDOM,     /* independent random points, a few infinity */
    BASES_REPEATED,   /* three distinct points, repeated */
    BASES_PLUS_MINUS, /* P_0, -P_0, P_1, -P_1, ... */
    BASES_INFINITY    /* a third of them infinity */
} base_kind;

/* n affine bases. Random ones: 16 fresh random multiples of the generator,
 * then sums of two earlier points (cheap, and still unrelated-looking). */
static void *make_bases(const group_t *g, size_t n, base_kind kind)
{
    void *aff = calloc(n + 1, g->aff_size);
    jac_t *jac = calloc(n + 1, sizeof *jac);
    assert_non_null(aff);
    assert_non_null(jac);
    for (size_t i = 0; i < n; i++) {
        if (i < 16)
            g->rand(&jac[i]);
        else
            g->add(&jac[i], &jac[tu_rand64() % i], &jac[i - 1 - tu_rand64() % 16]);
    }
    assert_int_equal(g->batch_aff(aff, jac, n), CUZK_OK);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case BASES_RANDOM:
            if (tu_rand64() % 64 == 0)
                g->aff_set_inf(AT(g, aff, i));
            break;
        case BASES_REPEATED: memcpy(AT(g, aff, i), AT(g, aff, i % 3), g->aff_size); break;
        case BASES_PLUS_MINUS:
            if (i % 2)
                g->aff_neg(AT(g, aff, i), AT(g, aff, i - 1));
            break;
        case BASES_INFINITY:
            if (tu_rand64() % 3 == 0)
                g->aff_set_inf(AT(g, aff, i));
            break;
        }
    }
    free(jac);
    return aff;
}

typedef enum scalar_kind {
    SCALARS_RANDOM, /* tu_rand_fr: uniform, 1 in 8 an edge case */
    SCALARS_ZERO,
    SCALARS_ONE,
    SCALARS_WITNESS, /* 90% zero or one, the rest random */
    SCALARS_MINUS_ONE,
    SCALARS_REPEATED, /* one random scalar everywhere */
    SCALARS_SMALL,    /* below 2^16, many below 16 */
    SCALARS_GLV_EDGE, /* glv_edge_scalar: the GLV split's edges */
    SCALARS_KINDS
} scalar_kind;

static const char *SCALAR_NAMES[] = {"random", "zero",     "one",   "witness",
                                     "r-1",    "repeated", "small", "GLV edge"};

/* ---- the GLV split's numbers, derived here from r and x alone ---- */

static const char R_HEX[] = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

/* z = x^2 and r. */
static void glv_numbers(ref_bn_t *z, ref_bn_t *r)
{
    ref_bn_t x;
    ref_set_u64(&x, CUZK_BLS_X_ABS);
    ref_mul(z, &x, &x);
    ref_set_hex(r, R_HEX);
}

static void ref_to_fr(fr_t *out, const ref_bn_t *a)
{
    uint64_t l[FR_LIMBS];
    ref_to_limbs(l, FR_LIMBS, a);
    assert_int_equal(fr_from_limbs(out, l), CUZK_OK);
}

/* Fixed edges of the split, as base + delta (bases: 0, r, lambda = r - z,
 * z, 2z and powers of two). */
enum { EB_ZERO, EB_R, EB_LAMBDA, EB_Z, EB_2Z, EB_2_127, EB_2_128, EB_2_254 };
static const struct {
    int base, delta;
} GLV_FIXED[] = {
    {EB_ZERO, 0},    {EB_ZERO, 1},   {EB_ZERO, 2},  {EB_R, -1},    {EB_R, -2},    {EB_LAMBDA, 0},
    {EB_LAMBDA, -1}, {EB_LAMBDA, 1}, {EB_Z, -1},    {EB_Z, 0},     {EB_Z, 1},     {EB_2Z, 0},
    {EB_2_127, 0},   {EB_2_128, -1}, {EB_2_128, 0}, {EB_2_128, 1}, {EB_2_254, 0},
};
#define GLV_N_FIXED ((int)(sizeof GLV_FIXED / sizeof GLV_FIXED[0]))
#define GLV_EDGES (GLV_N_FIXED + 5)

/* out = a + d, |d| small. */
static void ref_add_small(ref_bn_t *out, const ref_bn_t *a, int d)
{
    ref_bn_t t;
    ref_set_u64(&t, (uint64_t)(d < 0 ? -d : d));
    if (d < 0)
        ref_sub(out, a, &t);
    else
        ref_add(out, a, &t);
}

/* Edge case u (mod GLV_EDGES) of the split k = k1 + k2 z, as an integer
 * below r: GLV_FIXED; then q z + d for random q < z and d in {-1, 0, 1,
 * z - 1}; then random with runs of 0 and 1 bits. */
static void glv_edge(ref_bn_t *out, unsigned u)
{
    int i = (int)(u % GLV_EDGES);
    ref_bn_t z, r, one, t;
    glv_numbers(&z, &r);
    ref_set_u64(&one, 1);
    if (i < GLV_N_FIXED) {
        switch (GLV_FIXED[i].base) {
        case EB_ZERO: ref_set_u64(&t, 0); break;
        case EB_R: t = r; break;
        case EB_LAMBDA: ref_sub(&t, &r, &z); break;
        case EB_Z: t = z; break;
        case EB_2Z: ref_add(&t, &z, &z); break;
        case EB_2_127: ref_shl(&t, &one, 127); break;
        case EB_2_128: ref_shl(&t, &one, 128); break;
        default: ref_shl(&t, &one, 254); break;
        }
        ref_add_small(out, &t, GLV_FIXED[i].delta);
        return;
    }
    if (i < GLV_N_FIXED + 4) {
        uint64_t q[2] = {tu_rand64(), tu_rand64() >> 1};
        ref_from_limbs(&t, q, 2);
        ref_mod(&t, &t, &z);
        ref_mul(out, &t, &z);
        int d = i - GLV_N_FIXED;
        if (d == 3)
            ref_add(out, out, &z);
        ref_add_small(out, out, d == 0 || d == 3 ? -1 : d == 2 ? 1 : 0);
        ref_mod(out, out, &r);
        return;
    }
    /* runs of equal bits, 1 to 64 long */
    uint64_t l[FR_LIMBS] = {0};
    unsigned bit = 0, val = (unsigned)(tu_rand64() & 1);
    while (bit < 255) {
        unsigned len = 1 + (unsigned)(tu_rand64() % 64);
        for (unsigned b = bit; b < bit + len && b < 255; b++)
            l[b / 64] |= (uint64_t)val << (b % 64);
        bit += len;
        val ^= 1;
    }
    ref_from_limbs(out, l, FR_LIMBS);
    ref_mod(out, out, &r);
}

static void glv_edge_scalar(fr_t *out, unsigned i)
{
    ref_bn_t k;
    glv_edge(&k, i);
    ref_to_fr(out, &k);
}

static fr_t *make_scalars(size_t n, scalar_kind kind)
{
    fr_t *s = calloc(n + 1, sizeof *s);
    assert_non_null(s);
    fr_t rep;
    tu_rand_fr(&rep);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tu_rand64();
        switch (kind) {
        case SCALARS_RANDOM: tu_rand_fr(&s[i]); break;
        case SCALARS_ZERO: s[i] = FR_ZERO; break;
        case SCALARS_ONE: s[i] = FR_ONE; break;
        case SCALARS_WITNESS:
            if (r % 10 == 0)
                tu_rand_fr(&s[i]);
            else
                s[i] = (r >> 8) % 2 ? FR_ONE : FR_ZERO;
            break;
        case SCALARS_MINUS_ONE: fr_neg(&s[i], &FR_ONE); break;
        case SCALARS_REPEATED: s[i] = rep; break;
        case SCALARS_SMALL: fr_from_u64(&s[i], r % 2 ? (r >> 8) % 16 : (r >> 8) % 65536); break;
        case SCALARS_GLV_EDGE: glv_edge_scalar(&s[i], (unsigned)(r % 1024)); break;
        default: fail();
        }
    }
    return s;
}

/* The reference: sum of [k_i] P_i, one scalar multiplication at a time. */
static void naive(const group_t *g, void *out, const void *aff, const fr_t *s, size_t n)
{
    jac_t acc, p, t;
    g->jac_set_inf(&acc);
    for (size_t i = 0; i < n; i++) {
        g->from_aff(&p, AT(g, aff, i));
        g->mul_fr(&t, &p, &s[i]);
        g->add(&acc, &acc, &t);
    }
    memcpy(out, &acc, g->jac_size);
}

static msm_bases_t affine_bases(const void *aff)
{
    msm_bases_t b = {aff, MSM_BASES_AFFINE};
    return b;
}

/* msm and msm_pippenger on `threads` threads both equal the reference. */
static void check_case(const group_t *g, const void *aff, const fr_t *s, size_t n, int threads,
                       const char *what)
{
    jac_t want, got;
    naive(g, &want, aff, s, n);
    msm_bases_t b = affine_bases(aff);
    assert_int_equal(g->msm(&got, &b, s, n, threads), CUZK_OK);
    if (!g->jac_eq(&got, &want))
        fail_msg("%s msm: %s, n = %zu, threads = %d", g->name, what, n, threads);
    assert_int_equal(g->pip(&got, &b, s, n, threads), CUZK_OK);
    if (!g->jac_eq(&got, &want))
        fail_msg("%s msm_pippenger: %s, n = %zu, threads = %d", g->name, what, n, threads);
}

/* ---- tests ---- */

/* sum_w d_w 2^(cw) = l (as an element of Fr; l < r), |d_w| <= 2^(c-1),
 * top digit in [0, top bound], for every window width. */
static void check_digits(const uint64_t l[FR_LIMBS], msm_form form)
{
    fr_t k;
    assert_int_equal(fr_from_limbs(&k, l), CUZK_OK);
    for (unsigned c = 1; c <= MSM_C_MAX; c++) {
        unsigned W = msm_windows(c, form);
        assert_true(c * W >= (form == MSM_FORM_GLV ? MSM_GLV_BITS : MSM_SCALAR_BITS));
        fr_t acc = FR_ZERO, two_c, d;
        fr_from_u64(&two_c, (uint64_t)1 << c);
        msm_plan_t *pl = msm_plan_new(1, 1, NULL, 1, c, 1, MSM_SELECT_ALL, form);
        assert_non_null(pl);
        assert_int_equal(pl->windows, W);
        for (unsigned w = W; w-- > 0;) {
            int32_t dw = msm_digit(l, c, w);
            assert_true(dw <= (1 << (c - 1)) && dw >= -(1 << (c - 1)));
            if (w == W - 1)
                assert_true(dw >= 0 && dw <= (int32_t)pl->top_buckets);
            fr_mul(&acc, &acc, &two_c);
            fr_from_u64(&d, (uint64_t)(dw < 0 ? -dw : dw));
            if (dw < 0)
                fr_neg(&d, &d);
            fr_add(&acc, &acc, &d);
        }
        free(pl);
        assert_true(fr_equal(&acc, &k));
    }
}

static void test_digits(void **state)
{
    (void)state;
    /* Whole scalars, and the GLV halves of scalars (at most z - 1). */
    int iters = tu_iters(200);
    for (int it = 0; it < iters; it++) {
        fr_t k;
        if (it == 0)
            fr_neg(&k, &FR_ONE);
        else if (it < GLV_EDGES)
            glv_edge_scalar(&k, (unsigned)it);
        else
            tu_rand_fr(&k);
        uint64_t l[FR_LIMBS], k1[FR_LIMBS], k2[FR_LIMBS];
        fr_to_limbs(l, &k);
        check_digits(l, MSM_FORM_FULL);
        msm_glv_split(k1, k2, l);
        check_digits(k1, MSM_FORM_GLV);
        check_digits(k2, MSM_FORM_GLV);
    }
    uint64_t z_minus_1[FR_LIMBS] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0};
    check_digits(z_minus_1, MSM_FORM_GLV);
}

static void test_glv_constants(void **state)
{
    (void)state;
    /* The table's z and mu are x^2 and floor(2^256 / z); r = z^2 - z + 1
     * (so k div z <= z - 1 for k < r); phi(P) = (beta x, y) is [lambda] P
     * with lambda = r - z on G1. */
    ref_bn_t z, r, t, u, one;
    glv_numbers(&z, &r);
    ref_set_u64(&one, 1);
    static const uint64_t z_tab[2] = CUZK_G1_GLV_Z, mu_tab[3] = CUZK_G1_GLV_MU;
    ref_from_limbs(&t, z_tab, 2);
    assert_int_equal(ref_cmp(&t, &z), 0);
    ref_shl(&t, &one, 256);
    ref_divmod(&t, NULL, &t, &z);
    ref_from_limbs(&u, mu_tab, 3);
    assert_int_equal(ref_cmp(&t, &u), 0);
    ref_mul(&t, &z, &z);
    ref_sub(&t, &t, &z);
    ref_add(&t, &t, &one);
    assert_int_equal(ref_cmp(&t, &r), 0);
    assert_int_equal(ref_bitlen(&z), 128);

    fr_t lambda;
    ref_sub(&t, &r, &z);
    ref_to_fr(&lambda, &t);
    static const fp_t beta = {CUZK_G1_BETA};
    for (int it = 0; it < 4; it++) {
        g1_jac_t p, want;
        g1_affine_t a, phi;
        do
            tu_rand_g1(&p);
        while (g1_jac_is_inf(&p));
        g1_to_affine(&a, &p);
        fp_mul(&phi.x, &a.x, &beta);
        phi.y = a.y;
        g1_mul_fr(&want, &p, &lambda);
        g1_jac_t got;
        g1_from_affine(&got, &phi);
        assert_true(g1_jac_equal(&got, &want));
    }
}

static void test_glv_split(void **state)
{
    (void)state;
    /* k1 = k mod z and k2 = k div z exactly (long division), both below z,
     * upper limbs zero; on the edges and on random scalars; and
     * [k] P = [k1] P + [k2] (beta x, -y) on a few. */
    ref_bn_t z, r;
    glv_numbers(&z, &r);
    static const fp_t beta = {CUZK_G1_BETA};
    int iters = tu_iters(2000);
    for (int it = 0; it < iters; it++) {
        ref_bn_t k, q, m, a, b;
        if (it < 4 * GLV_EDGES) {
            glv_edge(&k, (unsigned)it);
        } else {
            fr_t f;
            tu_rand_fr(&f);
            uint64_t l[FR_LIMBS];
            fr_to_limbs(l, &f);
            ref_from_limbs(&k, l, FR_LIMBS);
        }
        uint64_t l[FR_LIMBS], k1[FR_LIMBS], k2[FR_LIMBS];
        ref_to_limbs(l, FR_LIMBS, &k);
        msm_glv_split(k1, k2, l);
        ref_divmod(&q, &m, &k, &z);
        ref_from_limbs(&a, k1, FR_LIMBS);
        ref_from_limbs(&b, k2, FR_LIMBS);
        char hex[REF_HEX_MAX];
        ref_to_hex(hex, &k);
        if (ref_cmp(&a, &m) || ref_cmp(&b, &q))
            fail_msg("GLV split of %s", hex);
        assert_true(ref_cmp(&a, &z) < 0 && ref_cmp(&b, &z) < 0);
        assert_true(!k1[2] && !k1[3] && !k2[2] && !k2[3]);
        if (it % 64 > 2 && it >= GLV_EDGES)
            continue;
        g1_jac_t p, want, t1, t2;
        g1_affine_t pa, pb;
        tu_rand_g1(&p);
        fr_t kf;
        ref_to_fr(&kf, &k);
        g1_mul_fr(&want, &p, &kf);
        g1_to_affine(&pa, &p);
        pb = pa;
        if (!g1_affine_is_inf(&pa)) {
            fp_mul(&pb.x, &pa.x, &beta);
            fp_neg(&pb.y, &pa.y);
        }
        g1_mul_var(&t1, &p, k1, 2);
        g1_from_affine(&t2, &pb);
        g1_mul_var(&t2, &t2, k2, 2);
        g1_add(&t1, &t1, &t2);
        if (!g1_jac_equal(&t1, &want))
            fail_msg("[k1] P + [k2] (-phi(P)) != [k] P for k = %s", hex);
    }
}

static void test_glv_edges(void **state)
{
    const group_t *g = *state;
    /* The GLV edge scalars at sizes 1, 2, 3 and odd ones, on random,
     * repeated and infinity bases, forced narrow and wide windows too. */
    static const size_t sizes[] = {1, 2, 3, 5, 31, 97, 300};
    static const base_kind kinds[] = {BASES_RANDOM, BASES_REPEATED, BASES_INFINITY};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        if (n > (size_t)300 / (size_t)(g->cost * SLOW))
            break;
        for (int b = 0; b < 3; b++) {
            void *aff = make_bases(g, n, kinds[b]);
            fr_t *s = make_scalars(n, SCALARS_GLV_EDGE);
            for (size_t j = 0; j < n && n <= 3; j++)
                glv_edge_scalar(&s[j], (unsigned)(tu_rand64() % GLV_EDGES));
            check_case(g, aff, s, n, 1 + (int)(i % 2), "GLV edges");
            jac_t want, got;
            naive(g, &want, aff, s, n);
            msm_bases_t bb = affine_bases(aff);
            for (unsigned c = 4; c <= 16; c += 12) {
                unsigned cc = g->cost > 1 && c > 12 ? 12 : c;
                assert_int_equal(g->pip_c(&got, &bb, s, n, 2, cc), CUZK_OK);
                if (!g->jac_eq(&got, &want))
                    fail_msg("%s GLV edges, n = %zu, c = %u", g->name, n, cc);
            }
            free(aff);
            free(s);
        }
    }
}

static void test_args(void **state)
{
    const group_t *g = *state;
    jac_t out;
    fr_t s = FR_ONE;
    void *aff = make_bases(g, 1, BASES_RANDOM);
    msm_bases_t b = affine_bases(aff);
    /* n = 0 is infinity, whatever the pointers. */
    assert_int_equal(g->msm(&out, NULL, NULL, 0, 1), CUZK_OK);
    assert_true(g->jac_is_inf(&out));
    assert_int_equal(g->pip(&out, NULL, NULL, 0, 0), CUZK_OK);
    assert_true(g->jac_is_inf(&out));
    assert_int_equal(g->msm(NULL, &b, &s, 1, 1), CUZK_ERR_ARG);
    assert_int_equal(g->msm(&out, NULL, &s, 1, 1), CUZK_ERR_ARG);
    assert_int_equal(g->msm(&out, &b, NULL, 1, 1), CUZK_ERR_ARG);
    assert_int_equal(g->pip(&out, &b, NULL, 1, 1), CUZK_ERR_ARG);
    msm_bases_t bad = {aff, (msm_base_format)7};
    assert_int_equal(g->msm(&out, &bad, &s, 1, 1), CUZK_ERR_ARG);
    msm_bases_t none = {NULL, MSM_BASES_LEM};
    assert_int_equal(g->pip(&out, &none, &s, 1, 1), CUZK_ERR_ARG);
    assert_int_equal(g->pip_c(&out, &b, &s, 1, 1, 0), CUZK_ERR_ARG);
    assert_int_equal(g->pip_c(&out, &b, &s, 1, 1, MSM_C_MAX + 1), CUZK_ERR_ARG);
    free(aff);
}

static void test_sizes(void **state)
{
    const group_t *g = *state;
    /* 0..3, odd counts, 2^k +- 1, on 1 and 3 threads. */
    static const size_t sizes[] = {0,   1,   2,    3,    5,    7,    15,   16,  17,
                                   31,  33,  63,   64,   65,   127,  129,  255, 257,
                                   511, 513, 1023, 1025, 2047, 2049, 4095, 4097};
    size_t max = (size_t)4100 / (size_t)(g->cost * SLOW);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        if (n > max)
            break;
        void *aff = make_bases(g, n, BASES_RANDOM);
        fr_t *s = make_scalars(n, SCALARS_RANDOM);
        check_case(g, aff, s, n, 1, "random");
        if (n >= 64)
            check_case(g, aff, s, n, 3, "random");
        free(aff);
        free(s);
    }
}

static void test_scalar_sets(void **state)
{
    const group_t *g = *state;
    /* Each scalar set at 2^k - 1 and 2^k + 1 (the 0/1 path gets both fast
     * and Pippenger parts at these sizes), on 2 threads. */
    size_t sizes[] = {(size_t)1023 / (size_t)(g->cost * SLOW),
                      (size_t)1025 / (size_t)(g->cost * SLOW)};
    for (int k = 0; k < SCALARS_KINDS; k++) {
        for (int j = 0; j < 2; j++) {
            size_t n = sizes[j];
            void *aff = make_bases(g, n, BASES_RANDOM);
            fr_t *s = make_scalars(n, (scalar_kind)k);
            check_case(g, aff, s, n, 2, SCALAR_NAMES[k]);
            free(aff);
            free(s);
        }
    }
    /* The witness mix large enough for threads to share the one-sum and
     * the Pippenger part. */
    size_t n = (size_t)4097 / (size_t)(g->cost * SLOW);
    void *aff = make_bases(g, n, BASES_RANDOM);
    fr_t *s = make_scalars(n, SCALARS_WITNESS);
    check_case(g, aff, s, n, 3, "witness");
    free(aff);
    free(s);
}

static void test_base_sets(void **state)
{
    const group_t *g = *state;
    /* Repeated points meet in buckets (P + P doubles), P and -P cancel,
     * infinity entries are skipped; with every scalar set. */
    static const base_kind kinds[] = {BASES_REPEATED, BASES_PLUS_MINUS, BASES_INFINITY};
    static const char *names[] = {"repeated points", "P and -P", "infinity entries"};
    size_t n = (size_t)601 / (size_t)(g->cost * SLOW);
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < SCALARS_KINDS; k++) {
            void *aff = make_bases(g, n, kinds[b]);
            fr_t *s = make_scalars(n, (scalar_kind)k);
            if (kinds[b] == BASES_PLUS_MINUS && k == SCALARS_RANDOM) {
                /* equal scalars on P and -P: the sum is exactly zero */
                for (size_t i = 1; i < n; i += 2)
                    s[i] = s[i - 1];
            }
            char what[64];
            snprintf(what, sizeof what, "%s, %s scalars", names[b], SCALAR_NAMES[k]);
            check_case(g, aff, s, n, 2, what);
            if (kinds[b] == BASES_PLUS_MINUS && k == SCALARS_RANDOM) {
                jac_t got;
                msm_bases_t bb = affine_bases(aff);
                assert_int_equal(g->msm(&got, &bb, s, n & ~(size_t)1, 2), CUZK_OK);
                assert_true(g->jac_is_inf(&got));
            }
            free(aff);
            free(s);
        }
    }
}

static void test_formats(void **state)
{
    const group_t *g = *state;
    /* The same bases as AFFINE, LEM and ZCASH bytes, at offsets 0 and odd
     * ones: decoding round-trips and every MSM agrees with the reference. */
    size_t n = (size_t)257 / (size_t)(g->cost * SLOW) + 2;
    void *aff = make_bases(g, n, BASES_INFINITY);
    g->aff_set_inf(AT(g, aff, 0));
    fr_t *s = make_scalars(n, SCALARS_WITNESS);
    for (size_t i = 0; i < n; i += 3)
        tu_rand_fr(&s[i]);
    jac_t want, got;
    naive(g, &want, aff, s, n);
    size_t rec = g->aff_size; /* 96 / 192 bytes in every format */
    uint8_t *buf = malloc(n * rec + 8);
    void *back = malloc(n * g->aff_size);
    assert_non_null(buf);
    assert_non_null(back);
    static const msm_base_format fmts[] = {MSM_BASES_AFFINE, MSM_BASES_LEM, MSM_BASES_ZCASH};
    static const size_t offsets[] = {0, 1, 3, 8};
    for (int f = 0; f < 3; f++) {
        for (int o = 0; o < 4; o++) {
            uint8_t *p = buf + offsets[o];
            for (size_t i = 0; i < n; i++) {
                if (fmts[f] == MSM_BASES_AFFINE)
                    memcpy(p + i * rec, AT(g, aff, i), rec);
                else if (fmts[f] == MSM_BASES_LEM)
                    g->to_lem(p + i * rec, AT(g, aff, i));
                else
                    g->serialize(p + i * rec, AT(g, aff, i));
                /* Flag bits are masked off: a stray sort flag changes nothing. */
                if (fmts[f] == MSM_BASES_ZCASH && i % 2 && !(p[i * rec] & 0x40))
                    p[i * rec] |= 0x20;
            }
            msm_bases_t b = {p, fmts[f]};
            g->bases_get(back, &b, 0, n);
            for (size_t i = 0; i < n; i++)
                assert_true(g->aff_eq(AT(g, back, i), AT(g, aff, i)));
            g->bases_get(back, &b, n / 2, n - n / 2);
            for (size_t i = n / 2; i < n; i++)
                assert_true(g->aff_eq(AT(g, back, i - n / 2), AT(g, aff, i)));
            assert_int_equal(g->msm(&got, &b, s, n, 2), CUZK_OK);
            if (!g->jac_eq(&got, &want))
                fail_msg("%s msm, format %d offset %zu", g->name, (int)fmts[f], offsets[o]);
            assert_int_equal(g->pip(&got, &b, s, n, 1), CUZK_OK);
            if (!g->jac_eq(&got, &want))
                fail_msg("%s msm_pippenger, format %d offset %zu", g->name, (int)fmts[f],
                         offsets[o]);
        }
    }
    free(buf);
    free(back);
    free(aff);
    free(s);
}

static void test_windows(void **state)
{
    const group_t *g = *state;
    /* Every window width, on a size that leaves most buckets empty and
     * exercises the top window's short bucket range and (for wide windows)
     * more than one pass over the bases. */
    size_t n = (size_t)97 / (size_t)SLOW;
    unsigned cmax = MSM_C_MAX - (unsigned)(g->cost > 1 ? 4 : 0) - (SLOW > 1 ? 3 : 0);
    void *aff = make_bases(g, n, BASES_RANDOM);
    fr_t *s = make_scalars(n, SCALARS_RANDOM);
    jac_t want, got;
    naive(g, &want, aff, s, n);
    msm_bases_t b = affine_bases(aff);
    for (unsigned c = 1; c <= cmax; c++) {
        assert_int_equal(g->pip_c(&got, &b, s, n, c % 2 ? 1 : 2, c), CUZK_OK);
        if (!g->jac_eq(&got, &want))
            fail_msg("%s window width %u", g->name, c);
    }
    free(aff);
    free(s);
}

static void test_threads(void **state)
{
    const group_t *g = *state;
    /* 1, 2, 3 and 8 threads give the same point, for both entry points,
     * at sizes where every thread gets work (and one checked naively). */
    size_t n = (size_t)4097 / (size_t)(g->cost * SLOW);
    static const int threads[] = {1, 2, 3, 8};
    for (int k = 0; k < 2; k++) {
        void *aff = make_bases(g, n, BASES_RANDOM);
        fr_t *s = make_scalars(n, k ? SCALARS_WITNESS : SCALARS_RANDOM);
        msm_bases_t b = affine_bases(aff);
        jac_t first, got;
        if (k == 1) {
            naive(g, &first, aff, s, n);
        } else {
            assert_int_equal(g->pip(&first, &b, s, n, 1), CUZK_OK);
        }
        for (int t = 0; t < 4; t++) {
            assert_int_equal(g->msm(&got, &b, s, n, threads[t]), CUZK_OK);
            if (!g->jac_eq(&got, &first))
                fail_msg("%s msm on %d threads", g->name, threads[t]);
            assert_int_equal(g->pip(&got, &b, s, n, threads[t]), CUZK_OK);
            if (!g->jac_eq(&got, &first))
                fail_msg("%s msm_pippenger on %d threads", g->name, threads[t]);
        }
        free(aff);
        free(s);
    }
}

static void test_ranges(void **state)
{
    (void)state;
    /* Plans: ranges cover [0, n) in order, every unit is one (range,
     * window), no more threads than units. Then G1 sizes and thread counts
     * where the points are cut into several ranges and a thread's units run
     * from one range into the next: the same point as on one thread. */
    static const size_t sizes[] = {1, 255, 256, 4097, 8192, 65536, 1 << 20};
    static const int threads[] = {1, 2, 3, 8, 32, 64};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            for (int f = 0; f < 2; f++) {
                size_t n = sizes[i];
                msm_plan_t *pl =
                    msm_plan_new(n, n, NULL, threads[t], 0, 289, MSM_SELECT_ALL, (msm_form)f);
                assert_non_null(pl);
                assert_int_equal(pl->units, pl->parts * pl->windows);
                assert_true(pl->threads >= 1 && (unsigned)pl->threads <= pl->units);
                assert_true(pl->threads <= threads[t]);
                assert_true(pl->set >= 1 && pl->set <= pl->windows);
                assert_true(pl->bounds[0] == 0 && pl->bounds[pl->parts] == n);
                for (unsigned p = 0; p < pl->parts; p++)
                    assert_true(pl->bounds[p] <= pl->bounds[p + 1]);
                free(pl);
            }
        }
    }
    const group_t *g = &G1_OPS;
    size_t n = 8192;
    /* Thread counts whose plan has several ranges, one with a thread
     * that crosses from one range into the next (the window model picks). */
    int many[3] = {0, 0, 0}, found = 1;
    for (int t = 3; t <= 64 && (found < 3 || !many[0]); t++) {
        msm_plan_t *pl = msm_plan_new(n, n, NULL, t, 0, 289, MSM_SELECT_ALL, MSM_FORM_GLV);
        assert_non_null(pl);
        if (pl->parts > 1 && pl->units % (unsigned)pl->threads != 0 && !many[0])
            many[0] = t;
        else if (pl->parts > 1 && found < 3)
            many[found++] = t;
        free(pl);
    }
    assert_true(many[0] && found == 3);
    void *aff = make_bases(g, n, BASES_RANDOM);
    fr_t *s = make_scalars(n, SCALARS_RANDOM);
    msm_bases_t b = affine_bases(aff);
    jac_t want, got;
    assert_int_equal(g->pip(&want, &b, s, n, 1), CUZK_OK);
    for (int t = 0; t < 3; t++) {
        assert_int_equal(g->pip(&got, &b, s, n, many[t]), CUZK_OK);
        if (!g->jac_eq(&got, &want))
            fail_msg("G1 msm_pippenger, n = %zu on %d threads", n, many[t]);
        assert_int_equal(g->msm(&got, &b, s, n, many[t]), CUZK_OK);
        if (!g->jac_eq(&got, &want))
            fail_msg("G1 msm, n = %zu on %d threads", n, many[t]);
    }
    free(aff);
    free(s);
}

static void test_batch_edges(void **state)
{
    const group_t *g = *state;
    /* The batch-affine buckets (msm_impl.h): one point into every bucket
     * many times (P + P doublings in a batch, then collisions with a
     * bucket already in the batch), P then -P into one bucket (cancel,
     * then refill), and random inputs across several batch flushes, at
     * widths with many and with few collisions. */
    size_t n = (size_t)3 * 1024 / (size_t)(g->cost * SLOW) + 1;
    static const unsigned widths[] = {3, 8, 16};
    static const char *names[] = {"one point, one scalar", "P, -P, P, P", "random"};
    for (int kind = 0; kind < 3; kind++) {
        void *aff = make_bases(g, n, BASES_RANDOM);
        fr_t *s = make_scalars(n, kind == 2 ? SCALARS_RANDOM : SCALARS_REPEATED);
        if (kind < 2) {
            /* AT(aff, n) is the spare entry: make it a real point first */
            memcpy(AT(g, aff, n), AT(g, aff, 0), g->aff_size);
            for (size_t i = 0; i < n; i++) {
                if (kind == 0 || i % 4 != 1)
                    memcpy(AT(g, aff, i), AT(g, aff, n), g->aff_size);
                else
                    g->aff_neg(AT(g, aff, i), AT(g, aff, n));
            }
        }
        jac_t want, got;
        naive(g, &want, aff, s, n);
        msm_bases_t b = affine_bases(aff);
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            unsigned c = widths[w] - (g->cost > 1 && widths[w] > 12 ? 4 : 0);
            assert_int_equal(g->pip_c(&got, &b, s, n, 1 + (int)w % 2, c), CUZK_OK);
            if (!g->jac_eq(&got, &want))
                fail_msg("%s batch edges: %s, c = %u", g->name, names[kind], c);
        }
        free(aff);
        free(s);
    }
}

static void test_large_cross(void **state)
{
    (void)state;
    /* 2^16 (release) G1: the 0/1-aware MSM against Pippenger alone, for
     * witness-like and random scalars, as zcash bytes. */
    size_t n = (size_t)65536 / (size_t)(SLOW * SLOW);
    const group_t *g = &G1_OPS;
    void *aff = make_bases(g, n, BASES_RANDOM);
    uint8_t *zc = malloc(n * G1_UNCOMPRESSED_BYTES);
    assert_non_null(zc);
    for (size_t i = 0; i < n; i++)
        g1_serialize(zc + i * G1_UNCOMPRESSED_BYTES, AT(g, aff, i));
    for (int k = 0; k < 2; k++) {
        fr_t *s = make_scalars(n, k ? SCALARS_WITNESS : SCALARS_RANDOM);
        msm_bases_t b = {zc, MSM_BASES_ZCASH};
        g1_jac_t a, p;
        assert_int_equal(msm_g1(&a, &b, s, n, 0), CUZK_OK);
        assert_int_equal(msm_g1_pippenger(&p, &b, s, n, 2), CUZK_OK);
        assert_true(g1_jac_equal(&a, &p));
        assert_false(g1_jac_is_inf(&a));
        free(s);
    }
    free(zc);
    free(aff);
}

int main(void)
{
    tu_init("test_msm");
    void *g1 = (void *)&G1_OPS, *g2 = (void *)&G2_OPS;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digits),
        cmocka_unit_test(test_glv_constants),
        cmocka_unit_test(test_glv_split),
        cmocka_unit_test_prestate(test_glv_edges, g1),
        cmocka_unit_test_prestate(test_glv_edges, g2),
        cmocka_unit_test_prestate(test_args, g1),
        cmocka_unit_test_prestate(test_args, g2),
        cmocka_unit_test_prestate(test_sizes, g1),
        cmocka_unit_test_prestate(test_sizes, g2),
        cmocka_unit_test_prestate(test_scalar_sets, g1),
        cmocka_unit_test_prestate(test_scalar_sets, g2),
        cmocka_unit_test_prestate(test_base_sets, g1),
        cmocka_unit_test_prestate(test_base_sets, g2),
        cmocka_unit_test_prestate(test_formats, g1),
        cmocka_unit_test_prestate(test_formats, g2),
        cmocka_unit_test_prestate(test_windows, g1),
        cmocka_unit_test_prestate(test_windows, g2),
        cmocka_unit_test_prestate(test_threads, g1),
        cmocka_unit_test_prestate(test_threads, g2),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test_prestate(test_batch_edges, g1),
        cmocka_unit_test_prestate(test_batch_edges, g2),
        cmocka_unit_test(test_large_cross),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
