/* Tower tests: Fp2, Fp6 and Fp12 against schoolbook references written here
 * from the definitions
 *   Fp2  = Fp[u]  / (u^2 + 1)
 *   Fp6  = Fp2[v] / (v^3 - xi), xi = u + 1
 *   Fp12 = Fp6[w] / (w^2 - v)
 * using only Fp operations (checked against the integer reference in
 * test_field), plus inverses, square roots, the sparse Miller-loop products,
 * Frobenius maps against exponentiation by p, and cyclotomic squaring.
 * Rerun with CUZK_TEST_SEED=<seed>; scale with CUZK_TEST_ITERS=<n>. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/fp6.h"

static int iters(void)
{
    return tu_iters(1000);
}

/* For checks that exponentiate by p (about a millisecond each). */
static int iters_slow(void)
{
    int n = tu_iters(1000) / 25;
    return n > 0 ? n : 1;
}

/* ---- reporting: the first Fp coefficient that differs ---------------------- */

static void fp2_flat(const fp_t *out[2], const fp2_t *a)
{
    out[0] = &a->c0;
    out[1] = &a->c1;
}

static void fp6_flat(const fp_t *out[6], const fp6_t *a)
{
    fp2_flat(out, &a->c0);
    fp2_flat(out + 2, &a->c1);
    fp2_flat(out + 4, &a->c2);
}

static void fp12_flat(const fp_t *out[12], const fp12_t *a)
{
    fp6_flat(out, &a->c0);
    fp6_flat(out + 6, &a->c1);
}

static void fp_hex(char out[2 * FP_BYTES + 3], const fp_t *a)
{
    uint8_t b[FP_BYTES];
    fp_to_be(b, a);
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < FP_BYTES; i++)
        snprintf(out + 2 + 2 * i, 3, "%02x", b[i]);
}

/* Coefficient i of an Fp12 is c(i/6).c((i%6)/2).c(i%2). */
static void expect_coeffs(const char *what, const fp_t *const *got, const fp_t *const *want, int n)
{
    for (int i = 0; i < n; i++) {
        if (fp_equal(got[i], want[i]))
            continue;
        char hg[2 * FP_BYTES + 3], hw[2 * FP_BYTES + 3];
        fp_hex(hg, got[i]);
        fp_hex(hw, want[i]);
        fail_msg("%s: Fp coefficient %d of %d: expected %s, got %s%s", what, i, n, hw, hg,
                 strcmp(hw, hg) == 0 ? " (the same value, stored unreduced)" : "");
    }
}

/* Fails, printing a. */
static void fail_on_fp2(const char *what, const fp2_t *a)
{
    char h0[2 * FP_BYTES + 3], h1[2 * FP_BYTES + 3];
    fp_hex(h0, &a->c0);
    fp_hex(h1, &a->c1);
    fail_msg("%s: a = %s + %s u", what, h0, h1);
}

static void expect_fp2(const char *what, const fp2_t *got, const fp2_t *want)
{
    const fp_t *g[2], *w[2];
    fp2_flat(g, got);
    fp2_flat(w, want);
    expect_coeffs(what, g, w, 2);
}

static void expect_fp6(const char *what, const fp6_t *got, const fp6_t *want)
{
    const fp_t *g[6], *w[6];
    fp6_flat(g, got);
    fp6_flat(w, want);
    expect_coeffs(what, g, w, 6);
}

static void expect_fp12(const char *what, const fp12_t *got, const fp12_t *want)
{
    const fp_t *g[12], *w[12];
    fp12_flat(g, got);
    fp12_flat(w, want);
    expect_coeffs(what, g, w, 12);
}

/* ---- random elements ------------------------------------------------------- */

static void rand_fp6(fp6_t *out)
{
    tu_rand_fp2(&out->c0);
    tu_rand_fp2(&out->c1);
    tu_rand_fp2(&out->c2);
}

/* A nonzero Fp2 element. */
static void rand_fp2_nonzero(fp2_t *out)
{
    do
        tu_rand_fp2(out);
    while (fp2_is_zero(out));
}

/* ---- schoolbook references from the definitions ---------------------------- */

/* (a0 + a1 u)(b0 + b1 u) = a0 b0 + a1 b1 u^2 + (a0 b1 + a1 b0) u, u^2 = -1. */
static void ref_fp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_t t0, t1, c0, c1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_sub(&c0, &t0, &t1);
    fp_mul(&t0, &a->c0, &b->c1);
    fp_mul(&t1, &a->c1, &b->c0);
    fp_add(&c1, &t0, &t1);
    out->c0 = c0;
    out->c1 = c1;
}

static void ref_fp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_add(&out->c0, &a->c0, &b->c0);
    fp_add(&out->c1, &a->c1, &b->c1);
}

static void ref_xi(fp2_t *out)
{
    out->c0 = FP_ONE;
    out->c1 = FP_ONE;
}

/* The polynomial product of a0 + a1 v + a2 v^2 and b0 + b1 v + b2 v^2 has
 * degree 4; v^3 = xi and v^4 = xi v fold it back to degree 2. */
static void ref_fp6_mul(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    const fp2_t *ac[3] = {&a->c0, &a->c1, &a->c2}, *bc[3] = {&b->c0, &b->c1, &b->c2};
    fp2_t t[5], p, xi;
    for (int k = 0; k < 5; k++)
        t[k] = FP2_ZERO;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            ref_fp2_mul(&p, ac[i], bc[j]);
            ref_fp2_add(&t[i + j], &t[i + j], &p);
        }
    }
    ref_xi(&xi);
    ref_fp2_mul(&p, &t[3], &xi);
    ref_fp2_add(&out->c0, &t[0], &p);
    ref_fp2_mul(&p, &t[4], &xi);
    ref_fp2_add(&out->c1, &t[1], &p);
    out->c2 = t[2];
}

static void ref_fp6_add(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    ref_fp2_add(&out->c0, &a->c0, &b->c0);
    ref_fp2_add(&out->c1, &a->c1, &b->c1);
    ref_fp2_add(&out->c2, &a->c2, &b->c2);
}

/* (a0 + a1 w)(b0 + b1 w) = a0 b0 + a1 b1 w^2 + (a0 b1 + a1 b0) w, w^2 = v. */
static void ref_fp12_mul(fp12_t *out, const fp12_t *a, const fp12_t *b)
{
    fp6_t t0, t1, t2, v = FP6_ZERO;
    v.c1 = FP2_ONE;
    ref_fp6_mul(&t0, &a->c0, &b->c0);
    ref_fp6_mul(&t1, &a->c1, &b->c1);
    ref_fp6_mul(&t1, &t1, &v);
    ref_fp6_add(&t0, &t0, &t1);
    ref_fp6_mul(&t1, &a->c0, &b->c1);
    ref_fp6_mul(&t2, &a->c1, &b->c0);
    ref_fp6_add(&out->c1, &t1, &t2);
    out->c0 = t0;
}

/* Left-to-right square-and-multiply over e (n little-endian limbs). */
static void ref_fp2_pow(fp2_t *out, const fp2_t *a, const uint64_t *e, size_t n)
{
    fp2_t acc = FP2_ONE;
    for (size_t i = n; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            ref_fp2_mul(&acc, &acc, &acc);
            if ((e[i] >> bit) & 1)
                ref_fp2_mul(&acc, &acc, a);
        }
    }
    *out = acc;
}

static void ref_fp6_pow(fp6_t *out, const fp6_t *a, const uint64_t *e, size_t n)
{
    fp6_t acc = FP6_ONE;
    for (size_t i = n; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            ref_fp6_mul(&acc, &acc, &acc);
            if ((e[i] >> bit) & 1)
                ref_fp6_mul(&acc, &acc, a);
        }
    }
    *out = acc;
}

static void ref_fp12_pow(fp12_t *out, const fp12_t *a, const uint64_t *e, size_t n)
{
    fp12_t acc = FP12_ONE;
    for (size_t i = n; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            ref_fp12_mul(&acc, &acc, &acc);
            if ((e[i] >> bit) & 1)
                ref_fp12_mul(&acc, &acc, a);
        }
    }
    *out = acc;
}

/* ---- Fp2 ------------------------------------------------------------------- */

static void test_fp2_mul_matches_schoolbook(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp2_t a, b, got, want;
        tu_rand_fp2(&a);
        tu_rand_fp2(&b);
        ref_fp2_mul(&want, &a, &b);
        fp2_mul(&got, &a, &b);
        expect_fp2("fp2_mul", &got, &want);
        got = a;
        fp2_mul(&got, &got, &b);
        expect_fp2("fp2_mul, out = a", &got, &want);
        got = b;
        fp2_mul(&got, &a, &got);
        expect_fp2("fp2_mul, out = b", &got, &want);
    }
}

static void test_fp2_sqr_equals_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp2_t a, got, want;
        tu_rand_fp2(&a);
        ref_fp2_mul(&want, &a, &a);
        fp2_sqr(&got, &a);
        expect_fp2("fp2_sqr", &got, &want);
        fp2_sqr(&a, &a);
        expect_fp2("fp2_sqr, out = a", &a, &want);
    }
}

static void test_fp2_linear_ops_are_componentwise(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp2_t a, b, got, want;
        tu_rand_fp2(&a);
        tu_rand_fp2(&b);
        fp2_add(&got, &a, &b);
        fp_add(&want.c0, &a.c0, &b.c0);
        fp_add(&want.c1, &a.c1, &b.c1);
        expect_fp2("fp2_add", &got, &want);
        fp2_sub(&got, &a, &b);
        fp_sub(&want.c0, &a.c0, &b.c0);
        fp_sub(&want.c1, &a.c1, &b.c1);
        expect_fp2("fp2_sub", &got, &want);
        fp2_neg(&got, &a);
        fp_neg(&want.c0, &a.c0);
        fp_neg(&want.c1, &a.c1);
        expect_fp2("fp2_neg", &got, &want);
        fp2_dbl(&got, &a);
        fp_dbl(&want.c0, &a.c0);
        fp_dbl(&want.c1, &a.c1);
        expect_fp2("fp2_dbl", &got, &want);
    }
}

static void test_fp2_mul_fp_matches_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp2_t a, b = FP2_ZERO, got, want;
        tu_rand_fp2(&a);
        tu_rand_fp(&b.c0);
        ref_fp2_mul(&want, &a, &b);
        fp2_mul_fp(&got, &a, &b.c0);
        expect_fp2("fp2_mul_fp", &got, &want);
    }
}

static void test_fp2_mul_by_xi_matches_mul(void **state)
{
    (void)state;
    fp2_t xi;
    ref_xi(&xi);
    for (int i = 0; i < iters(); i++) {
        fp2_t a, got, want;
        tu_rand_fp2(&a);
        ref_fp2_mul(&want, &a, &xi);
        fp2_mul_by_xi(&got, &a);
        expect_fp2("fp2_mul_by_xi", &got, &want);
        fp2_mul_by_xi(&a, &a);
        expect_fp2("fp2_mul_by_xi, out = a", &a, &want);
    }
}

static void test_fp2_inv_times_a_is_one(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp2_t a, b, got;
        rand_fp2_nonzero(&a);
        fp2_inv(&b, &a);
        ref_fp2_mul(&got, &a, &b);
        expect_fp2("a fp2_inv(a)", &got, &FP2_ONE);
        fp2_inv(&a, &a);
        expect_fp2("fp2_inv, out = a", &a, &b);
    }
    fp2_t z;
    fp2_inv(&z, &FP2_ZERO);
    expect_fp2("fp2_inv(0)", &z, &FP2_ZERO);
}

static void test_fp2_pow_var_matches_schoolbook(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 10; i++) {
        fp2_t a, got, want;
        uint64_t e[3] = {tu_rand64(), tu_rand64(), tu_rand64()};
        size_t n = (size_t)(tu_rand64() % 4);
        tu_rand_fp2(&a);
        ref_fp2_pow(&want, &a, e, n);
        fp2_pow_var(&got, &a, e, n);
        expect_fp2("fp2_pow_var", &got, &want);
    }
}

static void test_fp2_conj_is_frobenius(void **state)
{
    (void)state;
    for (int i = 0; i < iters_slow(); i++) {
        fp2_t a, got, want;
        tu_rand_fp2(&a);
        ref_fp2_pow(&want, &a, FP_MODULUS, FP_LIMBS);
        fp2_conj(&got, &a);
        expect_fp2("fp2_conj = a^p", &got, &want);
    }
}

/* a is a square in Fp2 iff its norm c0^2 + c1^2 is a square in Fp. */
static int norm_is_square(const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    return fp_is_square(&n);
}

static void check_sqrt_of_square(const fp2_t *x)
{
    fp2_t s, r, t, nx;
    ref_fp2_mul(&s, x, x);
    if (!fp2_sqrt(&r, &s))
        fail_on_fp2("fp2_sqrt rejected a = x^2", &s);
    ref_fp2_mul(&t, &r, &r);
    expect_fp2("fp2_sqrt(a)^2", &t, &s);
    fp2_neg(&nx, x);
    if (!fp2_equal(&r, x))
        expect_fp2("fp2_sqrt(x^2) = +-x", &r, &nx);
}

static void test_fp2_sqrt_of_square_squares_back(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 2; i++) {
        fp2_t x;
        tu_rand_fp2(&x);
        check_sqrt_of_square(&x);
        /* Squares of c and c u lie in Fp: the alpha = -1 branch. */
        x.c1 = FP_ZERO_ELEM;
        check_sqrt_of_square(&x);
        x.c1 = x.c0;
        x.c0 = FP_ZERO_ELEM;
        check_sqrt_of_square(&x);
    }
    fp2_t r, m1, u = {FP_ZERO_ELEM, FP_ONE};
    fp2_neg(&m1, &FP2_ONE);
    assert_true(fp2_sqrt(&r, &m1)); /* -1 = u^2 */
    fp2_sqr(&r, &r);
    expect_fp2("fp2_sqrt(-1)^2", &r, &m1);
    assert_true(fp2_sqrt(&r, &FP2_ZERO));
    expect_fp2("fp2_sqrt(0)", &r, &FP2_ZERO);
    assert_true(fp2_sqrt(&r, &u));
    fp2_sqr(&r, &r);
    expect_fp2("fp2_sqrt(u)^2", &r, &u);
}

static void test_fp2_sqrt_of_non_square_fails(void **state)
{
    (void)state;
    fp2_t sentinel;
    memset(&sentinel, 0xa5, sizeof sentinel);
    for (int i = 0, found = 0; found < iters() / 4 && i < 100 * iters(); i++) {
        fp2_t a, out = sentinel;
        tu_rand_fp2(&a);
        if (norm_is_square(&a))
            continue;
        found++;
        if (fp2_sqrt(&out, &a))
            fail_on_fp2("fp2_sqrt accepted a non-square (its norm is not a square)", &a);
        assert_memory_equal(&out, &sentinel, sizeof out);
    }
}

static void test_fp2_sqrt_succeeds_iff_norm_is_square(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 2; i++) {
        fp2_t a, r;
        tu_rand_fp2(&a);
        int want = norm_is_square(&a);
        if (fp2_sqrt(&r, &a) != want)
            fail_on_fp2(want ? "fp2_sqrt rejected a square" : "fp2_sqrt accepted a non-square", &a);
    }
}

static void test_fp2_is_lex_largest_matches_definition(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp2_t a;
        tu_rand_fp2(&a);
        if (i % 4 == 0)
            a.c1 = FP_ZERO_ELEM;
        int want = fp_is_zero(&a.c1) ? fp_is_lex_largest(&a.c0) : fp_is_lex_largest(&a.c1);
        assert_int_equal(fp2_is_lex_largest(&a), want);
    }
}

/* ---- Fp6 ------------------------------------------------------------------- */

static void test_fp6_mul_matches_schoolbook(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, b, got, want;
        rand_fp6(&a);
        rand_fp6(&b);
        ref_fp6_mul(&want, &a, &b);
        fp6_mul(&got, &a, &b);
        expect_fp6("fp6_mul", &got, &want);
        got = a;
        fp6_mul(&got, &got, &b);
        expect_fp6("fp6_mul, out = a", &got, &want);
        got = b;
        fp6_mul(&got, &a, &got);
        expect_fp6("fp6_mul, out = b", &got, &want);
    }
}

static void test_fp6_sqr_equals_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, got, want;
        rand_fp6(&a);
        ref_fp6_mul(&want, &a, &a);
        fp6_sqr(&got, &a);
        expect_fp6("fp6_sqr", &got, &want);
        fp6_sqr(&a, &a);
        expect_fp6("fp6_sqr, out = a", &a, &want);
    }
}

static void test_fp6_linear_ops_are_componentwise(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, b, got, want;
        rand_fp6(&a);
        rand_fp6(&b);
        fp6_add(&got, &a, &b);
        ref_fp6_add(&want, &a, &b);
        expect_fp6("fp6_add", &got, &want);
        fp6_sub(&got, &a, &b);
        fp2_sub(&want.c0, &a.c0, &b.c0);
        fp2_sub(&want.c1, &a.c1, &b.c1);
        fp2_sub(&want.c2, &a.c2, &b.c2);
        expect_fp6("fp6_sub", &got, &want);
        fp6_neg(&got, &a);
        fp2_neg(&want.c0, &a.c0);
        fp2_neg(&want.c1, &a.c1);
        fp2_neg(&want.c2, &a.c2);
        expect_fp6("fp6_neg", &got, &want);
    }
}

static void test_fp6_inv_times_a_is_one(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, b, got;
        rand_fp6(&a);
        if (fp6_is_zero(&a))
            continue;
        fp6_inv(&b, &a);
        ref_fp6_mul(&got, &a, &b);
        expect_fp6("a fp6_inv(a)", &got, &FP6_ONE);
        fp6_inv(&a, &a);
        expect_fp6("fp6_inv, out = a", &a, &b);
    }
    fp6_t z;
    fp6_inv(&z, &FP6_ZERO);
    expect_fp6("fp6_inv(0)", &z, &FP6_ZERO);
}

static void test_fp6_mul_by_v_matches_mul(void **state)
{
    (void)state;
    fp6_t v = FP6_ZERO;
    v.c1 = FP2_ONE;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, got, want;
        rand_fp6(&a);
        ref_fp6_mul(&want, &a, &v);
        fp6_mul_by_v(&got, &a);
        expect_fp6("fp6_mul_by_v", &got, &want);
        fp6_mul_by_v(&a, &a);
        expect_fp6("fp6_mul_by_v, out = a", &a, &want);
    }
}

static void test_fp6_mul_by_01_matches_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, b = FP6_ZERO, got, want;
        rand_fp6(&a);
        tu_rand_fp2(&b.c0);
        tu_rand_fp2(&b.c1);
        ref_fp6_mul(&want, &a, &b);
        fp6_mul_by_01(&got, &a, &b.c0, &b.c1);
        expect_fp6("fp6_mul_by_01", &got, &want);
        fp6_mul_by_01(&a, &a, &b.c0, &b.c1);
        expect_fp6("fp6_mul_by_01, out = a", &a, &want);
    }
}

static void test_fp6_mul_by_1_matches_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp6_t a, b = FP6_ZERO, got, want;
        rand_fp6(&a);
        tu_rand_fp2(&b.c1);
        ref_fp6_mul(&want, &a, &b);
        fp6_mul_by_1(&got, &a, &b.c1);
        expect_fp6("fp6_mul_by_1", &got, &want);
        fp6_mul_by_1(&a, &a, &b.c1);
        expect_fp6("fp6_mul_by_1, out = a", &a, &want);
    }
}

static void test_fp6_frobenius_is_pow_p(void **state)
{
    (void)state;
    for (int i = 0; i < iters_slow(); i++) {
        fp6_t a, got, want;
        rand_fp6(&a);
        ref_fp6_pow(&want, &a, FP_MODULUS, FP_LIMBS);
        fp6_frobenius(&got, &a, 1);
        expect_fp6("fp6_frobenius(a, 1) = a^p", &got, &want);
    }
}

static void test_fp6_frobenius_k_is_k_fold(void **state)
{
    /* a^(p^k) = frobenius applied k times; a^(p^6) = a, so k is taken mod 6. */
    (void)state;
    for (int i = 0; i < iters() / 10; i++) {
        fp6_t a, it, got;
        rand_fp6(&a);
        it = a;
        for (unsigned k = 0; k <= 13; k++) {
            char what[64];
            snprintf(what, sizeof what, "fp6_frobenius(a, %u)", k);
            fp6_frobenius(&got, &a, k);
            expect_fp6(what, &got, &it);
            fp6_frobenius(&it, &it, 1);
        }
        fp6_frobenius(&got, &a, 6);
        expect_fp6("fp6_frobenius(a, 6) = a", &got, &a);
    }
}

/* ---- Fp12 ------------------------------------------------------------------ */

static void test_fp12_mul_matches_schoolbook(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp12_t a, b, got, want;
        tu_rand_fp12(&a);
        tu_rand_fp12(&b);
        ref_fp12_mul(&want, &a, &b);
        fp12_mul(&got, &a, &b);
        expect_fp12("fp12_mul", &got, &want);
        got = a;
        fp12_mul(&got, &got, &b);
        expect_fp12("fp12_mul, out = a", &got, &want);
        got = b;
        fp12_mul(&got, &a, &got);
        expect_fp12("fp12_mul, out = b", &got, &want);
    }
}

static void test_fp12_sqr_equals_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp12_t a, got, want;
        tu_rand_fp12(&a);
        ref_fp12_mul(&want, &a, &a);
        fp12_sqr(&got, &a);
        expect_fp12("fp12_sqr", &got, &want);
        fp12_sqr(&a, &a);
        expect_fp12("fp12_sqr, out = a", &a, &want);
    }
}

static void test_fp12_add_sub_are_componentwise(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp12_t a, b, got, want;
        tu_rand_fp12(&a);
        tu_rand_fp12(&b);
        fp12_add(&got, &a, &b);
        fp6_add(&want.c0, &a.c0, &b.c0);
        fp6_add(&want.c1, &a.c1, &b.c1);
        expect_fp12("fp12_add", &got, &want);
        fp12_sub(&got, &a, &b);
        fp6_sub(&want.c0, &a.c0, &b.c0);
        fp6_sub(&want.c1, &a.c1, &b.c1);
        expect_fp12("fp12_sub", &got, &want);
    }
}

static void test_fp12_inv_times_a_is_one(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp12_t a, b, got;
        tu_rand_fp12(&a);
        if (fp6_is_zero(&a.c0) && fp6_is_zero(&a.c1))
            continue;
        fp12_inv(&b, &a);
        ref_fp12_mul(&got, &a, &b);
        expect_fp12("a fp12_inv(a)", &got, &FP12_ONE);
        fp12_inv(&a, &a);
        expect_fp12("fp12_inv, out = a", &a, &b);
    }
    fp12_t z, zero;
    memset(&zero, 0, sizeof zero);
    fp12_inv(&z, &zero);
    expect_fp12("fp12_inv(0)", &z, &zero);
}

static void test_fp12_mul_by_014_matches_mul(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp12_t a, line, got, want;
        fp2_t d0, d1, d4;
        tu_rand_fp12(&a);
        tu_rand_fp2(&d0);
        tu_rand_fp2(&d1);
        tu_rand_fp2(&d4);
        memset(&line, 0, sizeof line);
        line.c0.c0 = d0;
        line.c0.c1 = d1;
        line.c1.c1 = d4;
        ref_fp12_mul(&want, &a, &line);
        fp12_mul_by_014(&got, &a, &d0, &d1, &d4);
        expect_fp12("fp12_mul_by_014", &got, &want);
        fp12_mul_by_014(&a, &a, &d0, &d1, &d4);
        expect_fp12("fp12_mul_by_014, out = a", &a, &want);
    }
}

static void test_fp12_pow_var_matches_schoolbook(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 20; i++) {
        fp12_t a, got, want;
        uint64_t e[2] = {tu_rand64(), tu_rand64() >> (tu_rand64() % 64)};
        size_t n = (size_t)(tu_rand64() % 3);
        tu_rand_fp12(&a);
        ref_fp12_pow(&want, &a, e, n);
        fp12_pow_var(&got, &a, e, n);
        expect_fp12("fp12_pow_var", &got, &want);
    }
}

static void test_fp12_frobenius_is_pow_p(void **state)
{
    (void)state;
    for (int i = 0; i < iters_slow(); i++) {
        fp12_t a, got, want;
        tu_rand_fp12(&a);
        fp12_pow_var(&want, &a, FP_MODULUS, FP_LIMBS);
        fp12_frobenius(&got, &a, 1);
        expect_fp12("fp12_frobenius(a, 1) = a^p", &got, &want);
    }
}

static void test_fp12_frobenius_k_is_k_fold(void **state)
{
    /* a^(p^k) = frobenius applied k times, for k past 12 as well. */
    (void)state;
    for (int i = 0; i < iters() / 10; i++) {
        fp12_t a, it, got;
        tu_rand_fp12(&a);
        it = a;
        for (unsigned k = 0; k <= 25; k++) {
            char what[64];
            snprintf(what, sizeof what, "fp12_frobenius(a, %u)", k);
            fp12_frobenius(&got, &a, k);
            expect_fp12(what, &got, &it);
            fp12_frobenius(&it, &it, 1);
        }
    }
}

static void test_fp12_frobenius_12_is_identity(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 10; i++) {
        fp12_t a, got;
        tu_rand_fp12(&a);
        got = a;
        for (int k = 0; k < 12; k++)
            fp12_frobenius(&got, &got, 1);
        expect_fp12("frobenius^12(a) = a", &got, &a);
        fp12_frobenius(&got, &a, 12);
        expect_fp12("fp12_frobenius(a, 12) = a", &got, &a);
    }
}

static void test_fp12_conj_is_frobenius_6(void **state)
{
    (void)state;
    for (int i = 0; i < iters(); i++) {
        fp12_t a, got, want;
        tu_rand_fp12(&a);
        fp12_frobenius(&want, &a, 6);
        fp12_conj(&got, &a);
        expect_fp12("fp12_conj = fp12_frobenius(a, 6)", &got, &want);
        fp12_conj(&a, &a);
        expect_fp12("fp12_conj, out = a", &a, &want);
    }
}

/* m = f^((p^6 - 1)(p^2 + 1)), which lies in the cyclotomic subgroup (the
 * "easy part" of the final exponentiation). Returns 0 if f is not invertible. */
static int rand_cyclotomic(fp12_t *m)
{
    fp12_t f, t;
    tu_rand_fp12(&f);
    fp12_inv(&t, &f);
    fp12_mul(m, &f, &t);
    if (!fp12_is_one(m))
        return 0;
    fp12_conj(m, &f);
    fp12_mul(m, m, &t);
    fp12_frobenius(&t, m, 2);
    fp12_mul(m, &t, m);
    return 1;
}

static void test_fp12_cyclotomic_sqr_matches_sqr(void **state)
{
    (void)state;
    for (int i = 0; i < iters() / 4; i++) {
        fp12_t m, x, y, t;
        if (!rand_cyclotomic(&m))
            continue;
        /* Sanity of the construction: m^(p^6 + 1) = 1 and m^(p^4 - p^2 + 1) = 1. */
        fp12_conj(&t, &m);
        fp12_mul(&t, &t, &m);
        expect_fp12("conj(m) m = 1", &t, &FP12_ONE);
        fp12_frobenius(&t, &m, 4);
        fp12_mul(&t, &t, &m);
        fp12_frobenius(&x, &m, 2);
        expect_fp12("m^(p^4) m = m^(p^2)", &t, &x);
        /* A chain of squarings stays in the subgroup. */
        x = m;
        y = m;
        for (int k = 0; k < 4; k++) {
            fp12_cyclotomic_sqr(&t, &x);
            fp12_sqr(&y, &y);
            expect_fp12("fp12_cyclotomic_sqr", &t, &y);
            fp12_cyclotomic_sqr(&x, &x);
            expect_fp12("fp12_cyclotomic_sqr, out = a", &x, &y);
        }
    }
    fp12_t one;
    fp12_cyclotomic_sqr(&one, &FP12_ONE);
    expect_fp12("fp12_cyclotomic_sqr(1)", &one, &FP12_ONE);
}

int main(void)
{
    tu_init("test_tower");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp2_mul_matches_schoolbook),
        cmocka_unit_test(test_fp2_sqr_equals_mul),
        cmocka_unit_test(test_fp2_linear_ops_are_componentwise),
        cmocka_unit_test(test_fp2_mul_fp_matches_mul),
        cmocka_unit_test(test_fp2_mul_by_xi_matches_mul),
        cmocka_unit_test(test_fp2_inv_times_a_is_one),
        cmocka_unit_test(test_fp2_pow_var_matches_schoolbook),
        cmocka_unit_test(test_fp2_conj_is_frobenius),
        cmocka_unit_test(test_fp2_sqrt_of_square_squares_back),
        cmocka_unit_test(test_fp2_sqrt_of_non_square_fails),
        cmocka_unit_test(test_fp2_sqrt_succeeds_iff_norm_is_square),
        cmocka_unit_test(test_fp2_is_lex_largest_matches_definition),
        cmocka_unit_test(test_fp6_mul_matches_schoolbook),
        cmocka_unit_test(test_fp6_sqr_equals_mul),
        cmocka_unit_test(test_fp6_linear_ops_are_componentwise),
        cmocka_unit_test(test_fp6_inv_times_a_is_one),
        cmocka_unit_test(test_fp6_mul_by_v_matches_mul),
        cmocka_unit_test(test_fp6_mul_by_01_matches_mul),
        cmocka_unit_test(test_fp6_mul_by_1_matches_mul),
        cmocka_unit_test(test_fp6_frobenius_is_pow_p),
        cmocka_unit_test(test_fp6_frobenius_k_is_k_fold),
        cmocka_unit_test(test_fp12_mul_matches_schoolbook),
        cmocka_unit_test(test_fp12_sqr_equals_mul),
        cmocka_unit_test(test_fp12_add_sub_are_componentwise),
        cmocka_unit_test(test_fp12_inv_times_a_is_one),
        cmocka_unit_test(test_fp12_mul_by_014_matches_mul),
        cmocka_unit_test(test_fp12_pow_var_matches_schoolbook),
        cmocka_unit_test(test_fp12_frobenius_is_pow_p),
        cmocka_unit_test(test_fp12_frobenius_k_is_k_fold),
        cmocka_unit_test(test_fp12_frobenius_12_is_identity),
        cmocka_unit_test(test_fp12_conj_is_frobenius_6),
        cmocka_unit_test(test_fp12_cyclotomic_sqr_matches_sqr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
