/* NTT tests: every transform against a naive O(n^2) evaluation (the
 * definition in ntt.h, computed point by point with Horner's rule) for
 * every size 2^0..2^10 and both root conventions; round trips at larger
 * sizes; known transforms (delta, all-ones, edge values); the snarkjs odd
 * coset as the odd half of the 2n transform; identical results for any
 * thread count and tile size; domain and argument errors.
 * Rerun with CUZK_TEST_SEED=<seed>; scale with CUZK_TEST_ITERS=<n>. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"

#define NAIVE_MAX_LOG 10

/* Round trips go to 2^20 in optimised builds; unoptimised (sanitizer)
 * builds stop at 2^17 to stay within a minute. */
#ifdef NDEBUG
#define ROUNDTRIP_MAX_LOG 20
#else
#define ROUNDTRIP_MAX_LOG 17
#endif

/* Rounds of the random tests: 1 by default, scaled with CUZK_TEST_ITERS
 * like the field tests (whose default is 2000 iterations). */
static int rounds(void)
{
    int r = tu_iters(2000) / 2000;
    return r > 0 ? r : 1;
}

static const fr_roots CONVS[] = {FR_ROOTS_BELLMAN, FR_ROOTS_FFJS};
static const char *const CONV_NAMES[] = {"bellman", "ffjs"};

typedef enum op { OP_FORWARD, OP_INVERSE, OP_COSET_FORWARD, OP_COSET_INVERSE } op_t;
static const char *const OP_NAMES[] = {"forward", "inverse", "coset_forward", "coset_inverse"};

/* ---- helpers --------------------------------------------------------------- */

static fr_t *vec_new(size_t n)
{
    fr_t *v = malloc(n * sizeof *v);
    assert_non_null(v);
    return v;
}

static fr_t *vec_rand(size_t n)
{
    fr_t *v = vec_new(n);
    for (size_t i = 0; i < n; i++)
        tu_rand_fr(&v[i]);
    return v;
}

static fr_t *vec_dup(const fr_t *a, size_t n)
{
    fr_t *v = vec_new(n);
    memcpy(v, a, n * sizeof *v);
    return v;
}

static void fr_small(fr_t *out, uint64_t v)
{
    fr_from_u64(out, v);
}

static void rand_nonzero(fr_t *g)
{
    do
        tu_rand_fr(g);
    while (fr_is_zero(g));
}

static void expect_vec(const char *what, unsigned log_n, fr_roots conv, const fr_t *got,
                       const fr_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (fr_equal(&got[i], &want[i]))
            continue;
        uint8_t g[FR_BYTES], w[FR_BYTES];
        char hg[2 * FR_BYTES + 1], hw[2 * FR_BYTES + 1];
        fr_to_be(g, &got[i]);
        fr_to_be(w, &want[i]);
        for (int k = 0; k < FR_BYTES; k++) {
            snprintf(hg + 2 * k, 3, "%02x", g[k]);
            snprintf(hw + 2 * k, 3, "%02x", w[k]);
        }
        fail_msg("%s, n=2^%u, %s: index %zu: expected 0x%s, got 0x%s", what, log_n,
                 CONV_NAMES[conv], i, hw, hg);
    }
}

static void domain(ntt_domain_t *d, unsigned log_n, fr_roots conv)
{
    assert_int_equal(ntt_domain_init(d, log_n, conv), CUZK_OK);
}

static void apply(op_t op, const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads)
{
    cuzk_status st = CUZK_ERR_INTERNAL;
    switch (op) {
    case OP_FORWARD: st = ntt_forward(d, a, threads); break;
    case OP_INVERSE: st = ntt_inverse(d, a, threads); break;
    case OP_COSET_FORWARD: st = ntt_coset_forward(d, a, g, threads); break;
    case OP_COSET_INVERSE: st = ntt_coset_inverse(d, a, g, threads); break;
    }
    assert_int_equal(st, CUZK_OK);
}

/* ---- the slow reference ---------------------------------------------------- */

/* out_i = sum_j a_j x_i^j with x_i = x0 step^i (Horner per point). */
static void naive_eval(fr_t *out, const fr_t *a, size_t n, const fr_t *x0, const fr_t *step)
{
    fr_t x = *x0;
    for (size_t i = 0; i < n; i++) {
        fr_t acc = FR_ZERO;
        for (size_t j = n; j-- > 0;) {
            fr_mul(&acc, &acc, &x);
            fr_add(&acc, &acc, &a[j]);
        }
        out[i] = acc;
        fr_mul(&x, &x, step);
    }
}

/* The four transforms straight from the definitions in ntt.h, with omega
 * from fr_root_of_unity (tested in test_field); g = NULL for the plain ones.
 *   forward:  out_i = sum_j a_j (g omega^i)^j
 *   inverse:  out_j = n^-1 g^-j sum_i a_i omega^(-ij) */
static void naive(op_t op, fr_t *out, const fr_t *a, unsigned log_n, fr_roots conv, const fr_t *g)
{
    size_t n = (size_t)1 << log_n;
    fr_t omega, one = FR_ONE;
    assert_int_equal(fr_root_of_unity(&omega, conv, log_n), CUZK_OK);
    if (op == OP_FORWARD || op == OP_COSET_FORWARD) {
        naive_eval(out, a, n, op == OP_COSET_FORWARD ? g : &one, &omega);
        return;
    }
    fr_t omega_inv, nn, c, ginv = FR_ONE;
    fr_inv(&omega_inv, &omega);
    naive_eval(out, a, n, &one, &omega_inv);
    fr_small(&nn, n);
    fr_inv(&c, &nn);
    if (op == OP_COSET_INVERSE)
        fr_inv(&ginv, g);
    for (size_t j = 0; j < n; j++) {
        fr_mul(&out[j], &out[j], &c);
        fr_mul(&c, &c, &ginv);
    }
}

/* The shifts the provers use: a random one, bellperson's g = 7, and the
 * snarkjs odd coset omega_{2n}. */
static void shifts(fr_t g[3], unsigned log_n, fr_roots conv)
{
    rand_nonzero(&g[0]);
    fr_small(&g[1], 7);
    assert_int_equal(fr_root_of_unity(&g[2], conv, log_n + 1), CUZK_OK);
}

/* ---- tests ----------------------------------------------------------------- */

static void check_vs_naive(unsigned log_n, fr_roots conv, int threads)
{
    size_t n = (size_t)1 << log_n;
    ntt_domain_t d;
    domain(&d, log_n, conv);
    fr_t *a = vec_rand(n), *got = vec_new(n), *want = vec_new(n);
    fr_t g[3];
    shifts(g, log_n, conv);
    for (op_t op = OP_FORWARD; op <= OP_COSET_INVERSE; op++) {
        int coset = op == OP_COSET_FORWARD || op == OP_COSET_INVERSE;
        for (int k = 0; k < (coset ? 3 : 1); k++) {
            memcpy(got, a, n * sizeof *a);
            apply(op, &d, got, &g[k], threads);
            naive(op, want, a, log_n, conv, &g[k]);
            expect_vec(OP_NAMES[op], log_n, conv, got, want, n);
        }
    }
    free(a), free(got), free(want);
    ntt_domain_free(&d);
}

static void test_vs_naive(void **state)
{
    (void)state;
    for (int r = 0; r < rounds(); r++)
        for (unsigned log_n = 0; log_n <= NAIVE_MAX_LOG; log_n++)
            for (int c = 0; c < 2; c++)
                check_vs_naive(log_n, CONVS[c], 0);
}

/* Tile sizes from 2^1 to past n: many stage groups, columns narrower than
 * a cache line, a single block. The result must not change. */
static void test_tile_sizes(void **state)
{
    (void)state;
    static const char *const tiles[] = {"1", "2", "3", "4", "5", "7", "9", "20"};
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
        assert_int_equal(setenv("CUZK_NTT_TILE_LOG", tiles[t], 1), 0);
        for (unsigned log_n = 1; log_n <= 8; log_n++)
            check_vs_naive(log_n, CONVS[log_n % 2], 1);
        check_vs_naive(9, FR_ROOTS_BELLMAN, 2);
    }
    assert_int_equal(unsetenv("CUZK_NTT_TILE_LOG"), 0);
}

static void test_domain_fields(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        for (unsigned log_n = 0; log_n <= 16; log_n++) {
            ntt_domain_t d;
            domain(&d, log_n, CONVS[c]);
            size_t n = (size_t)1 << log_n;
            fr_t w, t, nn;
            assert_int_equal(fr_root_of_unity(&w, CONVS[c], log_n), CUZK_OK);
            assert_int_equal(d.log_n, log_n);
            assert_int_equal(d.n, n);
            assert_int_equal(d.conv, CONVS[c]);
            assert_true(fr_equal(&d.omega, &w));
            fr_mul(&t, &d.omega, &d.omega_inv);
            assert_true(fr_is_one(&t));
            fr_small(&nn, n);
            fr_mul(&t, &nn, &d.n_inv);
            assert_true(fr_is_one(&t));
            if (n == 1) {
                assert_null(d.twiddles);
            } else {
                assert_true(fr_is_one(&d.twiddles[0]));
                for (int k = 0; k < 8; k++) {
                    uint64_t i = tu_rand64() % (n / 2);
                    fr_pow_var(&t, &w, &i, 1);
                    assert_true(fr_equal(&d.twiddles[i], &t));
                }
                /* omega^(n/2 - 1) * omega = -1: primitive. */
                fr_mul(&t, &d.twiddles[n / 2 - 1], &w);
                fr_add(&t, &t, &FR_ONE);
                assert_true(fr_is_zero(&t));
            }
            ntt_domain_free(&d);
            assert_null(d.twiddles);
        }
    }
}

/* inverse(forward(x)) = x, coset_inverse(coset_forward(x)) = x and
 * forward(inverse(x)) = x, on a fresh random vector. The two conventions
 * alternate with the size; the shift cycles through shifts(). */
static void roundtrip_once(unsigned log_n)
{
    fr_roots conv = CONVS[log_n % 2];
    size_t n = (size_t)1 << log_n;
    ntt_domain_t d;
    domain(&d, log_n, conv);
    fr_t *a = vec_rand(n), *b = vec_dup(a, n), g[3];
    shifts(g, log_n, conv);
    assert_int_equal(ntt_forward(&d, b, 0), CUZK_OK);
    assert_int_equal(ntt_inverse(&d, b, 0), CUZK_OK);
    expect_vec("inverse(forward)", log_n, conv, b, a, n);
    const fr_t *gk = &g[log_n % 3];
    assert_int_equal(ntt_coset_forward(&d, b, gk, 0), CUZK_OK);
    assert_int_equal(ntt_coset_inverse(&d, b, gk, 0), CUZK_OK);
    expect_vec("coset_inverse(coset_forward)", log_n, conv, b, a, n);
    assert_int_equal(ntt_inverse(&d, b, 0), CUZK_OK);
    assert_int_equal(ntt_forward(&d, b, 0), CUZK_OK);
    expect_vec("forward(inverse)", log_n, conv, b, a, n);
    free(a), free(b);
    ntt_domain_free(&d);
}

/* Sizes 2^11..2^16, then one 2^ROUNDTRIP_MAX_LOG. */
static void test_roundtrip(void **state)
{
    (void)state;
    for (unsigned log_n = 11; log_n <= ROUNDTRIP_MAX_LOG; log_n++) {
        if (log_n > 16 && log_n < ROUNDTRIP_MAX_LOG)
            continue;
        for (int r = 0; r < rounds(); r++)
            roundtrip_once(log_n);
    }
}

/* forward(e_k)_i = omega^(ik) (all ones for k = 0); forward(1,..,1) = n e_0;
 * and the inverses of both. */
static void test_known(void **state)
{
    (void)state;
    for (unsigned log_n = 0; log_n <= 16; log_n++) {
        for (int c = 0; c < 2; c++) {
            size_t n = (size_t)1 << log_n;
            ntt_domain_t d;
            domain(&d, log_n, CONVS[c]);
            fr_t *a = vec_new(n), *want = vec_new(n);
            size_t k = (size_t)(tu_rand64() % n);
            fr_t w, wk;
            uint64_t k64 = k;
            assert_int_equal(fr_root_of_unity(&w, CONVS[c], log_n), CUZK_OK);
            fr_pow_var(&wk, &w, &k64, 1);
            for (int pass = 0; pass < 2; pass++) {
                size_t at = pass ? k : 0; /* delta at 0, then at random k */
                memset(a, 0, n * sizeof *a);
                a[at] = FR_ONE;
                fr_t x = FR_ONE, step = pass ? wk : FR_ONE;
                for (size_t i = 0; i < n; i++) {
                    want[i] = x;
                    fr_mul(&x, &x, &step);
                }
                assert_int_equal(ntt_forward(&d, a, 0), CUZK_OK);
                expect_vec("forward(delta)", log_n, CONVS[c], a, want, n);
                assert_int_equal(ntt_inverse(&d, a, 0), CUZK_OK);
                memset(want, 0, n * sizeof *want);
                want[at] = FR_ONE;
                expect_vec("inverse(forward(delta))", log_n, CONVS[c], a, want, n);
            }
            for (size_t i = 0; i < n; i++)
                a[i] = FR_ONE;
            memset(want, 0, n * sizeof *want);
            fr_small(&want[0], n);
            assert_int_equal(ntt_forward(&d, a, 0), CUZK_OK);
            expect_vec("forward(ones)", log_n, CONVS[c], a, want, n);
            for (size_t i = 0; i < n; i++)
                a[i] = FR_ONE;
            memset(want, 0, n * sizeof *want);
            want[0] = FR_ONE;
            assert_int_equal(ntt_inverse(&d, a, 0), CUZK_OK);
            expect_vec("inverse(ones)", log_n, CONVS[c], a, want, n);
            free(a), free(want);
            ntt_domain_free(&d);
        }
    }
}

/* All zero stays zero under every transform; all r-1 = -1: forward gives
 * -n e_0, inverse -e_0, and the coset transforms of it match the naive
 * evaluation (small sizes). */
static void test_edge_inputs(void **state)
{
    (void)state;
    for (unsigned log_n = 0; log_n <= 14; log_n++) {
        fr_roots conv = CONVS[log_n % 2];
        size_t n = (size_t)1 << log_n;
        ntt_domain_t d;
        domain(&d, log_n, conv);
        fr_t *a = vec_new(n), *want = vec_new(n), g[3], minus_one;
        shifts(g, log_n, conv);
        fr_neg(&minus_one, &FR_ONE);
        for (op_t op = OP_FORWARD; op <= OP_COSET_INVERSE; op++) {
            memset(a, 0, n * sizeof *a);
            apply(op, &d, a, &g[op % 3], 0);
            memset(want, 0, n * sizeof *want);
            expect_vec(OP_NAMES[op], log_n, conv, a, want, n);
        }
        for (op_t op = OP_FORWARD; op <= OP_INVERSE; op++) {
            for (size_t i = 0; i < n; i++)
                a[i] = minus_one;
            apply(op, &d, a, NULL, 2);
            memset(want, 0, n * sizeof *want);
            if (op == OP_FORWARD) {
                fr_small(&want[0], n);
                fr_neg(&want[0], &want[0]);
            } else {
                want[0] = minus_one;
            }
            expect_vec(OP_NAMES[op], log_n, conv, a, want, n);
        }
        if (log_n <= 8) {
            fr_t *m = vec_new(n);
            for (size_t i = 0; i < n; i++)
                m[i] = minus_one;
            for (op_t op = OP_COSET_FORWARD; op <= OP_COSET_INVERSE; op++) {
                for (int k = 0; k < 3; k++) {
                    memcpy(a, m, n * sizeof *a);
                    apply(op, &d, a, &g[k], 1);
                    naive(op, want, m, log_n, conv, &g[k]);
                    expect_vec(OP_NAMES[op], log_n, conv, a, want, n);
                }
            }
            free(m);
        }
        free(a), free(want);
        ntt_domain_free(&d);
    }
}

/* snarkjs evaluates on the odd coset omega_{2n} omega^i: the 2n transform of
 * the zero-padded vector holds forward(a) at even indices and
 * coset_forward(a, omega_{2n}) at odd ones. */
static void test_odd_coset(void **state)
{
    (void)state;
    for (unsigned log_n = 0; log_n <= 14; log_n++) {
        for (int c = 0; c < 2; c++) {
            size_t n = (size_t)1 << log_n;
            ntt_domain_t d, d2;
            domain(&d, log_n, CONVS[c]);
            domain(&d2, log_n + 1, CONVS[c]);
            fr_t *a = vec_rand(n), *even = vec_dup(a, n), *odd = vec_dup(a, n);
            fr_t *big = vec_new(2 * n), *half = vec_new(n), g;
            memcpy(big, a, n * sizeof *a);
            memset(big + n, 0, n * sizeof *a);
            assert_int_equal(fr_root_of_unity(&g, CONVS[c], log_n + 1), CUZK_OK);
            assert_true(fr_equal(&g, &d2.omega));
            assert_int_equal(ntt_forward(&d2, big, 0), CUZK_OK);
            assert_int_equal(ntt_forward(&d, even, 0), CUZK_OK);
            assert_int_equal(ntt_coset_forward(&d, odd, &g, 0), CUZK_OK);
            for (size_t i = 0; i < n; i++)
                half[i] = big[2 * i];
            expect_vec("forward vs even half of 2n", log_n, CONVS[c], even, half, n);
            for (size_t i = 0; i < n; i++)
                half[i] = big[2 * i + 1];
            expect_vec("coset_forward(omega_2n) vs odd half of 2n", log_n, CONVS[c], odd, half, n);
            free(a), free(even), free(odd), free(big), free(half);
            ntt_domain_free(&d);
            ntt_domain_free(&d2);
        }
    }
}

/* 1, 2, 3 and 7 threads give the same bits (sizes where 7 threads really
 * split the work, and tiny ones where they cannot). */
static void test_threads(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 7};
    static const unsigned logs[] = {0, 1, 3, 12, 13, 15, 17};
    for (size_t s = 0; s < sizeof logs / sizeof logs[0]; s++) {
        unsigned log_n = logs[s];
        fr_roots conv = CONVS[s % 2];
        size_t n = (size_t)1 << log_n;
        ntt_domain_t d;
        domain(&d, log_n, conv);
        fr_t *a = vec_rand(n), *ref = vec_new(n), *b = vec_new(n), g;
        rand_nonzero(&g);
        for (op_t op = OP_FORWARD; op <= OP_COSET_INVERSE; op++) {
            for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
                fr_t *dst = t == 0 ? ref : b;
                memcpy(dst, a, n * sizeof *a);
                apply(op, &d, dst, &g, threads[t]);
                if (t > 0)
                    expect_vec(OP_NAMES[op], log_n, conv, b, ref, n);
            }
        }
        free(a), free(ref), free(b);
        ntt_domain_free(&d);
    }
}

static void test_errors(void **state)
{
    (void)state;
    ntt_domain_t d;
    memset(&d, 0xa5, sizeof d);
    assert_int_equal(ntt_domain_init(&d, NTT_MAX_LOG, FR_ROOTS_BELLMAN), CUZK_ERR_ARG);
    assert_null(d.twiddles); /* failed init leaves a domain that frees safely */
    ntt_domain_free(&d);
    assert_int_equal(ntt_domain_init(&d, 32, FR_ROOTS_FFJS), CUZK_ERR_ARG);
    assert_int_equal(ntt_domain_init(&d, 1000, FR_ROOTS_FFJS), CUZK_ERR_ARG);
    assert_int_equal(ntt_domain_init(&d, 4, (fr_roots)2), CUZK_ERR_ARG);
    assert_int_equal(ntt_domain_init(&d, 4, (fr_roots)-1), CUZK_ERR_ARG);
    assert_int_equal(ntt_domain_init(NULL, 4, FR_ROOTS_BELLMAN), CUZK_ERR_ARG);
    ntt_domain_free(NULL);

    domain(&d, 4, FR_ROOTS_BELLMAN);
    fr_t a[16] = {{{0}}}, g, zero = FR_ZERO;
    fr_small(&g, 7);
    assert_int_equal(ntt_forward(NULL, a, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_forward(&d, NULL, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_inverse(&d, NULL, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_coset_forward(&d, a, NULL, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_coset_inverse(&d, a, NULL, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_coset_forward(&d, a, &zero, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_coset_inverse(&d, a, &zero, 1), CUZK_ERR_ARG);
    assert_int_equal(ntt_coset_forward(NULL, a, &g, 1), CUZK_ERR_ARG);
    ntt_domain_free(&d);
    /* a freed (zeroed) domain is refused, not read */
    assert_int_equal(ntt_forward(&d, a, 1), CUZK_ERR_ARG);
    d.log_n = 4;
    d.n = 16;
    assert_int_equal(ntt_forward(&d, a, 1), CUZK_ERR_ARG);
    d.n = 15;
    assert_int_equal(ntt_inverse(&d, a, 1), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_ntt");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_domain_fields), cmocka_unit_test(test_vs_naive),
        cmocka_unit_test(test_tile_sizes),    cmocka_unit_test(test_known),
        cmocka_unit_test(test_edge_inputs),   cmocka_unit_test(test_odd_coset),
        cmocka_unit_test(test_threads),       cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
