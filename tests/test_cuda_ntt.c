/* The CUDA NTT and H computation (cuda_ntt.h) against the CPU reference
 * (ntt.h, GROTH16_BACKEND_CPU.h_scalars), byte for byte, on fresh random
 * inputs (the seed is printed; CUZK_TEST_SEED reproduces a run).
 *
 *  - NTT: every kind, both root conventions, every size 2^0..2^20, then
 *    2^24 (and 2^27 with CUZK_TEST_BIG=1); coset shifts 7, omega_2n and
 *    random. The GPU entry point fills its device buffer with 0xff bytes
 *    before the copy in.
 *  - The same kernel code in its host emulation (cuzk_cuda_ntt_emu), which
 *    runs without a GPU: every size 2^0..2^12 (one and two passes, both
 *    bit-reversal kernels), and 2^19 (three passes) for two kinds.
 *  - H: random circuits (empty rows, repeated columns, rows longer than
 *    the block-per-row threshold, coefficients 1, -1 and others, fewer rows
 *    than the domain) at several sizes, both conventions; the GPU path
 *    poisons its output and scratch vectors first, and the host output is
 *    poisoned too.
 * Without a GPU the GPU tests skip (and say so); the argument checks and
 * the emulation run everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/backend.h"
#include "cuzk/backend_cpu.h"
#include "cuzk/cuda.h"
#include "cuzk/cuda_ntt.h"
#include "cuzk/ntt.h"
#include "test_util.h"

static int g_gpus; /* CUDA devices present */

static const cuzk_ntt_kind KINDS[] = {CUZK_NTT_FORWARD, CUZK_NTT_INVERSE, CUZK_NTT_COSET_FORWARD,
                                      CUZK_NTT_COSET_INVERSE};
static const char *const KIND_NAMES[] = {"forward", "inverse", "coset_forward", "coset_inverse"};
static const char *const CONV_NAMES[] = {"bellman", "ffjs"};

typedef cuzk_status (*ntt_fn)(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                              const fr_t *g, cuzk_error_t *err);

static void skip_without_gpu(void)
{
    if (!g_gpus)
        skip();
}

/* ---- inputs -------------------------------------------------------------- */

/* n elements: tu_rand_fr's edge-biased values for small n; for large n
 * raw Montgomery limbs below 2^254 (< r, so valid) with an edge value now
 * and then, which is much faster. */
static void random_vec(fr_t *a, size_t n)
{
    if (n <= (1u << 16)) {
        for (size_t i = 0; i < n; i++)
            tu_rand_fr(&a[i]);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < FR_LIMBS; j++)
            a[i].l[j] = tu_rand64();
        a[i].l[FR_LIMBS - 1] &= 0x3fffffffffffffffULL;
        if ((a[i].l[0] & 0xff) == 0)
            tu_rand_fr(&a[i]);
    }
}

/* The coset shift for case `which`: 7 (bellperson), omega_2n (snarkjs's odd
 * coset) or a random nonzero element. */
static void shift_for(fr_t *g, unsigned log_n, fr_roots conv, unsigned which)
{
    switch (which % 3) {
    case 0: fr_from_u64(g, 7); break;
    case 1: assert_int_equal(fr_root_of_unity(g, conv, log_n + 1), CUZK_OK); break;
    default:
        do
            tu_rand_fr(g);
        while (fr_is_zero(g));
    }
}

/* ---- comparison ---------------------------------------------------------- */

/* Fails with the first differing element, if any. */
static void expect_same(const fr_t *want, const fr_t *got, size_t n, const char *what)
{
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&want[i], &got[i], sizeof(fr_t)) != 0) {
            if (!bad)
                first = i;
            bad++;
        }
    if (!bad)
        return;
    printf("test_cuda_ntt: %s: %zu of %zu elements differ, first at %zu\n", what, bad, n, first);
    printf("    want %016llx %016llx %016llx %016llx\n", (unsigned long long)want[first].l[3],
           (unsigned long long)want[first].l[2], (unsigned long long)want[first].l[1],
           (unsigned long long)want[first].l[0]);
    printf("    got  %016llx %016llx %016llx %016llx\n", (unsigned long long)got[first].l[3],
           (unsigned long long)got[first].l[2], (unsigned long long)got[first].l[1],
           (unsigned long long)got[first].l[0]);
    fail_msg("%s differs from the CPU", what);
}

/* ---- NTT ------------------------------------------------------------------ */

static cuzk_status cpu_ntt(const ntt_domain_t *d, fr_t *a, cuzk_ntt_kind kind, const fr_t *g)
{
    switch (kind) {
    case CUZK_NTT_FORWARD: return ntt_forward(d, a, 0);
    case CUZK_NTT_INVERSE: return ntt_inverse(d, a, 0);
    case CUZK_NTT_COSET_FORWARD: return ntt_coset_forward(d, a, g, 0);
    case CUZK_NTT_COSET_INVERSE: return ntt_coset_inverse(d, a, g, 0);
    }
    return CUZK_ERR_ARG;
}

/* One transform through fn against the CPU, on a random vector (or, for
 * `impulse`, the vector e_1, whose forward transform is the powers of
 * omega). */
static void check_one(ntt_fn fn, const char *target, const ntt_domain_t *d, unsigned k,
                      unsigned which, int impulse)
{
    const size_t n = d->n;
    fr_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    if (impulse) {
        for (size_t i = 0; i < n; i++)
            want[i] = FR_ZERO;
        want[n > 1 ? 1 : 0] = FR_ONE;
    } else {
        random_vec(want, n);
    }
    memcpy(got, want, n * sizeof *got);
    fr_t g;
    shift_for(&g, d->log_n, d->conv, which);
    assert_int_equal(cpu_ntt(d, want, KINDS[k], &g), CUZK_OK);
    cuzk_error_t err = {0};
    cuzk_status st = fn(got, d->log_n, d->conv, KINDS[k], &g, &err);
    char what[128];
    snprintf(what, sizeof what, "%s %s 2^%u %s%s", target, KIND_NAMES[k], d->log_n,
             CONV_NAMES[d->conv], impulse ? " (impulse)" : "");
    if (st != CUZK_OK)
        fail_msg("%s: %s: %s", what, cuzk_status_str(st), err.msg);
    expect_same(want, got, n, what);
    free(want);
    free(got);
}

/* Every kind at 2^log_n, both conventions (or the kinds in kind_mask). */
static void check_size(ntt_fn fn, const char *target, unsigned log_n, unsigned kind_mask,
                       unsigned conv_mask)
{
    for (int conv = 0; conv < 2; conv++) {
        if (!(conv_mask & (1u << conv)))
            continue;
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, log_n, (fr_roots)conv), CUZK_OK);
        for (unsigned k = 0; k < 4; k++)
            if (kind_mask & (1u << k))
                check_one(fn, target, &d, k, k + log_n, 0);
        if (kind_mask & 1u)
            check_one(fn, target, &d, 0, 0, 1);
        ntt_domain_free(&d);
    }
}

/* Bad arguments are refused at the edge, before the device is touched. */
static void test_args(void **state)
{
    (void)state;
    fr_t a[4] = {FR_ONE, FR_ONE, FR_ONE, FR_ONE}, zero = FR_ZERO, seven;
    fr_from_u64(&seven, 7);
    cuzk_error_t err = {0};
    ntt_fn fns[2] = {cuzk_cuda_ntt, cuzk_cuda_ntt_emu};
    for (int f = 0; f < 2; f++) {
        assert_int_equal(fns[f](NULL, 2, FR_ROOTS_BELLMAN, CUZK_NTT_FORWARD, NULL, &err),
                         CUZK_ERR_ARG);
        assert_true(err.msg[0] != '\0');
        assert_int_equal(fns[f](a, NTT_MAX_LOG, FR_ROOTS_BELLMAN, CUZK_NTT_FORWARD, NULL, &err),
                         CUZK_ERR_ARG);
        assert_int_equal(fns[f](a, 2, (fr_roots)2, CUZK_NTT_FORWARD, NULL, &err), CUZK_ERR_ARG);
        assert_int_equal(fns[f](a, 2, FR_ROOTS_FFJS, (cuzk_ntt_kind)4, NULL, &err), CUZK_ERR_ARG);
        assert_int_equal(fns[f](a, 2, FR_ROOTS_FFJS, CUZK_NTT_COSET_FORWARD, NULL, &err),
                         CUZK_ERR_ARG);
        assert_int_equal(fns[f](a, 2, FR_ROOTS_FFJS, CUZK_NTT_COSET_INVERSE, &zero, NULL),
                         CUZK_ERR_ARG);
    }
    /* Without a GPU the device entry points say so; with one they run. */
    cuzk_status st = cuzk_cuda_ntt(a, 2, FR_ROOTS_BELLMAN, CUZK_NTT_COSET_FORWARD, &seven, &err);
    assert_int_equal(st, g_gpus ? CUZK_OK : CUZK_ERR_NO_DEVICE);
    if (!g_gpus)
        assert_non_null(strstr(err.msg, "no CUDA device"));

    circuit_builder_t *b = circuit_builder_new(3, 2, 1);
    assert_non_null(b);
    circuit_t c;
    assert_int_equal(circuit_builder_finish(&c, b, &err), CUZK_OK);
    fr_t w[2] = {FR_ONE, FR_ONE}, p[4];
    assert_int_equal(cuzk_cuda_h_scalars(NULL, &c, w, 2, GROTH16_SNARKJS, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_h_scalars(p, NULL, w, 2, GROTH16_SNARKJS, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_h_scalars(p, &c, NULL, 2, GROTH16_SNARKJS, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_h_scalars(p, &c, w, 1, GROTH16_SNARKJS, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "rows"));
    assert_int_equal(cuzk_cuda_h_scalars(p, &c, w, NTT_MAX_LOG, GROTH16_SNARKJS, &err),
                     CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_h_scalars(p, &c, w, 2, (groth16_convention)2, &err), CUZK_ERR_ARG);
    st = cuzk_cuda_h_scalars(p, &c, w, 2, GROTH16_BELLPERSON, &err);
    assert_int_equal(st, g_gpus ? CUZK_OK : CUZK_ERR_NO_DEVICE);
    circuit_free(&c);

    double ms;
    assert_int_equal(cuzk_cuda_ntt_bench(NULL, 10, 3, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_ntt_bench(&ms, NTT_MAX_LOG, 3, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_ntt_bench(&ms, 10, 0, &err), CUZK_ERR_ARG);
}

/* The kernels' code on the host: every size with one and two passes and
 * both bit reversals, then three passes at 2^19. */
static void test_emu_ntt(void **state)
{
    (void)state;
    for (unsigned log_n = 0; log_n <= 12; log_n++)
        check_size(cuzk_cuda_ntt_emu, "emu", log_n, 0xf, 0x3);
    check_size(cuzk_cuda_ntt_emu, "emu", 19, 1u << 0, 1u << FR_ROOTS_BELLMAN);
    check_size(cuzk_cuda_ntt_emu, "emu", 19, 1u << 3, 1u << FR_ROOTS_FFJS);
}

static void test_gpu_ntt_small(void **state)
{
    (void)state;
    skip_without_gpu();
    for (unsigned log_n = 0; log_n <= 20; log_n++)
        check_size(cuzk_cuda_ntt, "gpu", log_n, 0xf, 0x3);
}

static void test_gpu_ntt_large(void **state)
{
    (void)state;
    skip_without_gpu();
    check_size(cuzk_cuda_ntt, "gpu", 24, 0xf, 0x3);
    const char *big = getenv("CUZK_TEST_BIG");
    if (big && atoi(big) > 0)
        check_size(cuzk_cuda_ntt, "gpu", NTT_MAX_LOG - 1, 0xf, 0x3);
    else
        printf("test_cuda_ntt: 2^%d skipped (set CUZK_TEST_BIG=1)\n", NTT_MAX_LOG - 1);
}

/* ---- H -------------------------------------------------------------------- */

/* A coefficient: 1 and -1 often (the SpMV's add/sub paths), else 2, a small
 * value or a random one. */
static void random_coef(fr_t *c)
{
    switch (tu_rand64() % 6) {
    case 0:
    case 1: *c = FR_ONE; break;
    case 2: fr_neg(c, &FR_ONE); break;
    case 3: fr_from_u64(c, 2); break;
    case 4: fr_from_u64(c, tu_rand64() % 100); break; /* 0 now and then: dropped */
    default: tu_rand_fr(c);
    }
}

/* Terms in a row: mostly few, some empty, some medium, now and then more
 * than the block-per-row threshold (64: 2% of the rows of small circuits,
 * 0.2% of large ones); `long_row` forces a long one. */
static uint32_t row_terms(int long_row, uint32_t n_rows)
{
    unsigned r = (unsigned)(tu_rand64() % 100);
    if (long_row || tu_rand64() % 1000 < (n_rows < 4096 ? 20u : 2u))
        return 65 + (uint32_t)(tu_rand64() % 1500);
    if (r < 15)
        return 0;
    if (r < 25)
        return 5 + (uint32_t)(tu_rand64() % 60);
    return 1 + (uint32_t)(tu_rand64() % 4);
}

static void random_circuit(circuit_t *c, uint32_t n_rows, uint32_t n_vars)
{
    circuit_builder_t *b = circuit_builder_new(n_rows, n_vars, 1);
    assert_non_null(b);
    cuzk_error_t err = {0};
    for (int m = 0; m < 3; m++)
        for (uint32_t r = 0; r < n_rows; r++) {
            uint32_t terms = row_terms(r == n_rows / 2 && n_rows >= 8, n_rows);
            uint32_t col = 0;
            for (uint32_t t = 0; t < terms; t++) {
                if (t == 0 || tu_rand64() % 4) /* else repeat the last column */
                    col = (uint32_t)(tu_rand64() % n_vars);
                fr_t coef;
                random_coef(&coef);
                assert_int_equal(circuit_builder_add(b, (circuit_matrix)m, r, col, &coef, &err),
                                 CUZK_OK);
            }
        }
    assert_int_equal(circuit_builder_finish(c, b, &err), CUZK_OK);
}

static void check_h(unsigned log_m, uint32_t n_rows, uint32_t n_vars)
{
    const size_t m = (size_t)1 << log_m;
    circuit_t c;
    random_circuit(&c, n_rows, n_vars);
    fr_t *w = malloc(n_vars * sizeof *w), *want = malloc(m * sizeof *want),
         *got = malloc(m * sizeof *got);
    assert_non_null(w);
    assert_non_null(want);
    assert_non_null(got);
    random_vec(w, n_vars);
    w[0] = FR_ONE;
    for (int conv = 0; conv < 2; conv++) {
        cuzk_error_t err = {0};
        cuzk_status st = GROTH16_BACKEND_CPU.h_scalars(NULL, want, &c, w, log_m,
                                                       (groth16_convention)conv, 0, &err);
        assert_int_equal(st, CUZK_OK);
        memset(got, 0xff, m * sizeof *got);
        st = cuzk_cuda_h_scalars(got, &c, w, log_m, (groth16_convention)conv, &err);
        char what[128];
        snprintf(what, sizeof what, "h_scalars %s 2^%u, %u rows, %u vars",
                 conv == GROTH16_SNARKJS ? "snarkjs" : "bellperson", log_m, n_rows, n_vars);
        if (st != CUZK_OK)
            fail_msg("%s: %s: %s", what, cuzk_status_str(st), err.msg);
        expect_same(want, got, m, what);
    }
    free(w);
    free(want);
    free(got);
    circuit_free(&c);
}

static void test_gpu_h(void **state)
{
    (void)state;
    skip_without_gpu();
    static const unsigned logs[] = {0, 1, 2, 3, 5, 8, 10, 13, 16, 18};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        const uint32_t m = 1u << logs[i];
        /* full domain, a few rows short, about half, none */
        const uint32_t rows[] = {m, m > 3 ? m - 3 : 1, m / 2 + 1, 0};
        for (int r = 0; r < 4; r++) {
            uint32_t n_rows = rows[r] > m ? m : rows[r];
            uint32_t n_vars = 1 + (uint32_t)(tu_rand64() % (2 * m + 8));
            check_h(logs[i], n_rows, n_vars);
        }
    }
}

static void test_gpu_bench(void **state)
{
    (void)state;
    skip_without_gpu();
    double ms = 0;
    cuzk_error_t err = {0};
    cuzk_status st = cuzk_cuda_ntt_bench(&ms, 20, 5, &err);
    if (st != CUZK_OK)
        fail_msg("bench: %s: %s", cuzk_status_str(st), err.msg);
    assert_true(ms > 0);
    printf("test_cuda_ntt: forward NTT 2^20: %.3f ms (median of 5)\n", ms);
}

int main(void)
{
    tu_init("test_cuda_ntt");
    cuzk_error_t err = {0};
    cuzk_status st = cuzk_cuda_device_count(&g_gpus, &err);
    if (st != CUZK_OK) {
        /* A broken runtime is a failure, not a missing GPU. */
        printf("test_cuda_ntt: cuzk_cuda_device_count: %s: %s\n", cuzk_status_str(st), err.msg);
        return 1;
    }
    if (g_gpus == 0) {
        printf("test_cuda_ntt: no GPU: skipped\n");
        printf("test_cuda_ntt: the host emulation of the NTT kernels runs all the same\n");
    } else {
        char line[128];
        st = cuzk_cuda_device_describe(line, sizeof line, 0, &err);
        printf("test_cuda_ntt: device 0: %s\n", st == CUZK_OK ? line : err.msg);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args),          cmocka_unit_test(test_emu_ntt),
        cmocka_unit_test(test_gpu_ntt_small), cmocka_unit_test(test_gpu_ntt_large),
        cmocka_unit_test(test_gpu_h),         cmocka_unit_test(test_gpu_bench),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
