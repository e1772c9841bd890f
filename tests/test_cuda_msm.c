/* The CUDA MSM (cuda_msm.h) against the CPU reference (msm.h): the same
 * point for every size and input kind, G1 and G2, in each base format.
 *
 * Sizes: 1, 2, 3, 31, 1000, 4097 and 2^16 + 7 (G1), fewer for G2, plus
 * 2^20 with CUZK_TEST_BIG=1. Scalars: random (1 in 8 an edge value), all
 * zero, all one, witness-like (90% zero or one), all r - 1, one value
 * repeated (its digits all land in one bucket per window: the heavy-bin
 * path from 4097 points on), small, clustered (half random, half a few
 * values ~600 times each: the block-summed medium bins). Bases: random (some infinity), three
 * points repeated, P and -P alternating. Bases in the three formats
 * (affine, snarkjs LEM, zcash big-endian as in .params files). Both ways
 * of summing the light bins (XYZZ, affine rounds) are checked.
 * Without a GPU every test prints "no GPU" and is skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuda.h"
#include "cuzk/cuda_msm.h"
#include "cuzk/cuda_selftest.h"
#include "cuzk/encode.h"
#include "cuzk/msm.h"
#include "test_util.h"

static int g_gpus;

typedef enum {
    S_RANDOM,
    S_ZERO,
    S_ONE,
    S_WITNESS,
    S_MINUS_ONE,
    S_REPEATED,
    S_SMALL,
    S_CLUSTERED,
    S_KINDS
} skind;
static const char *S_NAMES[] = {"random", "zero",     "one",   "witness",
                                "r-1",    "repeated", "small", "clustered"};

#define CLUSTER 600 /* repeats of each clustered value: a medium bin per window */
typedef enum { B_RANDOM, B_REPEATED, B_PLUS_MINUS, B_KINDS } bkind;
static const char *B_NAMES[] = {"random", "repeated", "plus-minus"};

static fr_t *make_scalars(size_t n, skind k)
{
    fr_t *s = malloc((n ? n : 1) * sizeof *s), rep, m1, *set;
    size_t nset = n / (2 * CLUSTER) + 1;
    assert_non_null(s);
    assert_non_null(set = malloc(nset * sizeof *set));
    for (size_t i = 0; i < nset; i++)
        tu_rand_fr(&set[i]);
    tu_rand_fr(&rep);
    fr_neg(&m1, &FR_ONE);
    for (size_t i = 0; i < n; i++) {
        switch (k) {
        case S_RANDOM: tu_rand_fr(&s[i]); break;
        case S_ZERO: s[i] = FR_ZERO; break;
        case S_ONE: s[i] = FR_ONE; break;
        case S_WITNESS: {
            unsigned p = (unsigned)(tu_rand64() % 10);
            if (p < 9)
                s[i] = p < 5 ? FR_ZERO : FR_ONE;
            else
                tu_rand_fr(&s[i]);
            break;
        }
        case S_MINUS_ONE: s[i] = m1; break;
        case S_REPEATED: s[i] = rep; break;
        case S_SMALL: fr_from_u64(&s[i], tu_rand64() % (i % 2 ? 16 : 65536)); break;
        /* half random, half a few values CLUSTER times each: medium bins
         * (block-summed) beside light ones */
        case S_CLUSTERED:
            if (i % 2)
                tu_rand_fr(&s[i]);
            else
                s[i] = set[(i / 2) % nset];
            break;
        default: fail();
        }
    }
    free(set);
    return s;
}

/* n affine points: a random walk from two random points (cheap, distinct),
 * then the kind's changes. */
static void *make_bases(int g2, size_t n, bkind k)
{
    size_t asz = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    void *aff = calloc(n + 1, asz);
    assert_non_null(aff);
    if (g2) {
        g2_jac_t *j = calloc(n + 1, sizeof *j), step;
        assert_non_null(j);
        tu_rand_g2(&j[0]);
        tu_rand_g2(&step);
        for (size_t i = 1; i < n; i++)
            g2_add(&j[i], &j[i - 1], &step);
        assert_int_equal(g2_batch_to_affine(aff, j, n), CUZK_OK);
        free(j);
    } else {
        g1_jac_t *j = calloc(n + 1, sizeof *j), step;
        assert_non_null(j);
        tu_rand_g1(&j[0]);
        tu_rand_g1(&step);
        for (size_t i = 1; i < n; i++)
            g1_add(&j[i], &j[i - 1], &step);
        assert_int_equal(g1_batch_to_affine(aff, j, n), CUZK_OK);
        free(j);
    }
    uint8_t *b = aff;
    for (size_t i = 0; i < n; i++) {
        void *p = b + i * asz;
        if (k == B_RANDOM && tu_rand64() % 64 == 0) {
            if (g2)
                g2_affine_set_inf(p);
            else
                g1_affine_set_inf(p);
        } else if (k == B_REPEATED) {
            memcpy(p, b + (i % 3) * asz, asz);
        } else if (k == B_PLUS_MINUS && i % 2) {
            const void *prev = b + (i - 1) * asz;
            if (g2)
                g2_affine_neg(p, prev);
            else
                g1_affine_neg(p, prev);
        }
    }
    return aff;
}

/* The same bases in format fmt (a fresh buffer; affine: a copy). */
static void *encode_bases(int g2, const void *aff, size_t n, msm_base_format fmt)
{
    size_t asz = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    uint8_t *out = malloc((n ? n : 1) * asz);
    assert_non_null(out);
    const uint8_t *a = aff;
    for (size_t i = 0; i < n; i++) {
        uint8_t *o = out + i * asz;
        const void *p = a + i * asz;
        if (fmt == MSM_BASES_AFFINE)
            memcpy(o, p, asz);
        else if (fmt == MSM_BASES_LEM)
            g2 ? g2_to_lem(o, p) : g1_to_lem(o, p);
        else
            g2 ? g2_serialize(o, p) : g1_serialize(o, p);
    }
    return out;
}

static int skip_without_gpu(void)
{
    if (g_gpus > 0)
        return 0;
    printf("no GPU: CUDA MSM test skipped\n");
    skip();
    return 1;
}

/* One comparison: GPU == CPU as points. */
static void check_one(int g2, size_t n, skind sk, bkind bk, msm_base_format fmt)
{
    void *aff = make_bases(g2, n, bk);
    void *enc = encode_bases(g2, aff, n, fmt);
    fr_t *s = make_scalars(n, sk);
    msm_bases_t b = {enc, fmt};
    cuzk_error_t err = {0};
    int ok;
    if (g2) {
        g2_jac_t cpu, gpu;
        assert_int_equal(msm_g2(&cpu, &b, s, n, 0), CUZK_OK);
        cuzk_status st = cuzk_cuda_msm_g2(&gpu, &b, s, n, &err);
        if (st != CUZK_OK)
            fail_msg("G2 n=%zu: %s", n, err.msg);
        ok = g2_jac_equal(&cpu, &gpu);
    } else {
        g1_jac_t cpu, gpu;
        assert_int_equal(msm_g1(&cpu, &b, s, n, 0), CUZK_OK);
        cuzk_status st = cuzk_cuda_msm_g1(&gpu, &b, s, n, &err);
        if (st != CUZK_OK)
            fail_msg("G1 n=%zu: %s", n, err.msg);
        ok = g1_jac_equal(&cpu, &gpu);
    }
    if (!ok)
        fail_msg("%s MSM differs: n=%zu scalars=%s bases=%s fmt=%d", g2 ? "G2" : "G1", n,
                 S_NAMES[sk], B_NAMES[bk], (int)fmt);
    free(aff);
    free(enc);
    free(s);
}

static void sweep(int g2, const size_t *sizes, size_t nsizes)
{
    for (size_t i = 0; i < nsizes; i++) {
        size_t n = sizes[i];
        for (int sk = 0; sk < S_KINDS; sk++)
            check_one(g2, n, sk, B_RANDOM, MSM_BASES_AFFINE);
        for (int bk = 1; bk < B_KINDS; bk++)
            check_one(g2, n, S_RANDOM, bk, MSM_BASES_AFFINE);
        check_one(g2, n, S_WITNESS, B_RANDOM, MSM_BASES_LEM);
        check_one(g2, n, S_RANDOM, B_RANDOM, MSM_BASES_ZCASH);
        printf("  %s n=%zu: all kinds equal to the CPU\n", g2 ? "G2" : "G1", n);
    }
}

static void test_g1(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t sizes[] = {1, 2, 3, 31, 1000, 4097, (1u << 16) + 7};
    sweep(0, sizes, sizeof sizes / sizeof *sizes);
    if (getenv("CUZK_TEST_BIG")) {
        static const size_t big[] = {1u << 20};
        sweep(0, big, 1);
    }
}

/* The medium bins a thread each (as when a GPU-filling number of them
 * appear), forced on small MSMs: CUZK_MSM_MEDIUM_FILL=1. */
static void test_medium_threads(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t sizes[] = {1000, 4097, (1u << 16) + 7};
    assert_int_equal(setenv("CUZK_MSM_MEDIUM_FILL", "1", 1), 0);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        check_one(0, sizes[i], S_CLUSTERED, B_RANDOM, MSM_BASES_AFFINE);
        check_one(0, sizes[i], S_WITNESS, B_RANDOM, MSM_BASES_AFFINE);
        if (sizes[i] < 10000)
            check_one(1, sizes[i], S_CLUSTERED, B_RANDOM, MSM_BASES_AFFINE);
        printf("  n=%zu: medium bins a thread each equal to the CPU\n", sizes[i]);
    }
    unsetenv("CUZK_MSM_MEDIUM_FILL");
}

/* A plan knob set to a value it does not take: the MSM fails with an
 * error that names the variable and the value. */
static void expect_bad_value(const char *var, const char *value)
{
    assert_int_equal(setenv(var, value, 1), 0);
    g1_jac_t o;
    fr_t s = FR_ONE;
    g1_affine_t p = G1_GENERATOR;
    msm_bases_t b = {&p, MSM_BASES_AFFINE};
    cuzk_error_t err = {0};
    assert_int_equal(cuzk_cuda_msm_g1(&o, &b, &s, 1, &err), CUZK_ERR_ARG);
    char want[64];
    snprintf(want, sizeof want, "%s=%s", var, value);
    assert_non_null(strstr(err.msg, want));
    unsetenv(var);
}

static void expect_bad_env(const char *var)
{
    expect_bad_value(var, "bogus");
}

/* Both ways of summing the light bins (CUZK_MSM_BINS), whichever is the
 * default: the affine rounds meet equal x (doublings, P + -P) and
 * infinity inside their batches with repeated bases and scalars. A bad value
 * is an error that names it. */
static void test_bins_modes(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t g1_sizes[] = {1, 2, 3, 31, 1000, 4097, (1u << 16) + 7};
    static const size_t g2_sizes[] = {1, 2, 3, 31, 1000, 4097};
    static const char *modes[] = {"affine", "xyzz"};
    for (int m = 0; m < 2; m++) {
        assert_int_equal(setenv("CUZK_MSM_BINS", modes[m], 1), 0);
        sweep(0, g1_sizes, sizeof g1_sizes / sizeof *g1_sizes);
        sweep(1, g2_sizes, sizeof g2_sizes / sizeof *g2_sizes);
        for (size_t i = 0; i < sizeof g2_sizes / sizeof *g2_sizes; i++) {
            check_one(0, g2_sizes[i], S_REPEATED, B_REPEATED, MSM_BASES_AFFINE);
            check_one(0, g2_sizes[i], S_REPEATED, B_PLUS_MINUS, MSM_BASES_AFFINE);
            check_one(1, g2_sizes[i], S_REPEATED, B_REPEATED, MSM_BASES_AFFINE);
            check_one(1, g2_sizes[i], S_REPEATED, B_PLUS_MINUS, MSM_BASES_AFFINE);
        }
        printf("  CUZK_MSM_BINS=%s: every case equal to the CPU\n", modes[m]);
    }
    expect_bad_env("CUZK_MSM_BINS");
}

/* sweep() at these sizes under each value of a two-way plan knob (the
 * one under test first), with `repeated`: repeated scalars on repeated
 * and on +- bases too (2^16 points: heavy bins). Then a bad value is an
 * error that names the knob, which is left unset. */
static void sweep_modes(const char *var, const char *const modes[2], const size_t *g1, size_t n1,
                        const size_t *g2, size_t n2, int repeated)
{
    for (int m = 0; m < 2; m++) {
        assert_int_equal(setenv(var, modes[m], 1), 0);
        sweep(0, g1, n1);
        sweep(1, g2, n2);
        if (repeated) {
            check_one(0, (1u << 16) + 7, S_REPEATED, B_REPEATED, MSM_BASES_AFFINE);
            check_one(1, (1u << 16) + 1, S_REPEATED, B_PLUS_MINUS, MSM_BASES_AFFINE);
        }
        printf("  %s=%s: every case equal to the CPU\n", var, modes[m]);
    }
    expect_bad_env(var);
}

/* Both orders of the XYZZ kernel's bins (CUZK_MSM_ORDER): by size needs
 * 4096 bins or more in a group (2^16 points: c = 13, 4096 a window), with
 * every scalar kind (repeated scalars crowd a few bins: medium and heavy
 * ones in the list too). */
static void test_order_modes(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t g1_sizes[] = {1000, (1u << 16) + 7, (1u << 18) + 3};
    static const size_t g2_sizes[] = {(1u << 16) + 1};
    static const char *const modes[] = {"size", "index"};
    assert_int_equal(setenv("CUZK_MSM_BINS", "xyzz", 1), 0);
    sweep_modes("CUZK_MSM_ORDER", modes, g1_sizes, sizeof g1_sizes / sizeof *g1_sizes, g2_sizes,
                sizeof g2_sizes / sizeof *g2_sizes, 1);
    unsetenv("CUZK_MSM_BINS");
}

/* Both segment counts of the bucket reduction (CUZK_MSM_SEGS): a wave's
 * worth leaves windows with segments of unequal length, the last one
 * shorter or empty. */
static void test_segs_modes(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t g1_sizes[] = {31, 1000, (1u << 16) + 7, (1u << 18) + 3};
    static const size_t g2_sizes[] = {1000, (1u << 16) + 1};
    static const char *const modes[] = {"pow2", "wave"};
    sweep_modes("CUZK_MSM_SEGS", modes, g1_sizes, sizeof g1_sizes / sizeof *g1_sizes, g2_sizes,
                sizeof g2_sizes / sizeof *g2_sizes, 0);
}

/* Both ways of putting entries in bin order (CUZK_MSM_SCATTER): the radix
 * sort gives each bin its entries in scalar order, the atomics in any;
 * zero digits (small scalars) sort past the last bin. Then again with a
 * 1 MiB scratch limit (CUZK_MSM_SCRATCH): groups of a few windows, whose
 * keys share the entries' buffer with the windows packed before them. */
static void test_scatter_modes(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t g1_sizes[] = {1, 31, 1000, (1u << 16) + 7, (1u << 18) + 3};
    static const size_t g2_sizes[] = {1000, (1u << 16) + 1};
    static const char *const modes[] = {"sort", "atomic"};
    sweep_modes("CUZK_MSM_SCATTER", modes, g1_sizes, sizeof g1_sizes / sizeof *g1_sizes, g2_sizes,
                sizeof g2_sizes / sizeof *g2_sizes, 1);
    static const size_t small_g1[] = {(1u << 16) + 7, (1u << 18) + 3};
    static const size_t small_g2[] = {(1u << 16) + 1};
    assert_int_equal(setenv("CUZK_MSM_SCRATCH", "1", 1), 0);
    sweep_modes("CUZK_MSM_SCATTER", modes, small_g1, sizeof small_g1 / sizeof *small_g1, small_g2,
                sizeof small_g2 / sizeof *small_g2, 0);
    unsetenv("CUZK_MSM_SCRATCH");
    expect_bad_env("CUZK_MSM_SCRATCH");
}

/* Windows the cost model does not pick (CUZK_MSM_WINDOW): 22 and 24 bits
 * (12 and 11 windows, 2^21 and 2^23 buckets; G2 at 24 falls to 23, its
 * window over the scratch limit), then 3 bits (86 windows, groups of
 * many). A bad value is an error that names it. */
static void test_window_modes(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t g1_sizes[] = {31, 1000, (1u << 16) + 7};
    static const size_t g2_sizes[] = {1000};
    static const char *const big[] = {"22", "24"}, *const small[] = {"3", "9"};
    sweep_modes("CUZK_MSM_WINDOW", big, g1_sizes, sizeof g1_sizes / sizeof *g1_sizes, g2_sizes,
                sizeof g2_sizes / sizeof *g2_sizes, 1);
    sweep_modes("CUZK_MSM_WINDOW", small, g1_sizes, 2, g2_sizes, 1, 0);
    expect_bad_value("CUZK_MSM_WINDOW", "25");
}

/* ---- the affine rounds alone ------------------------------------------------ */

/* Bins of every kind over nb bases: empty, one point, short and long
 * random ones, one base repeated (doublings), P then -P then more (a sum
 * that passes through infinity), medium (more than `medium` entries) and,
 * with heavy, one bin over CUDA's heavy limit (4096). Bit 31 negates. */
static uint32_t *make_bins(uint32_t nbins, uint32_t nb, uint32_t medium, int heavy, uint32_t *off)
{
    uint32_t *len = malloc(nbins * sizeof *len), total = 0;
    assert_non_null(len);
    for (uint32_t b = 0; b < nbins; b++) {
        uint32_t r = (uint32_t)(tu_rand64() % 16);
        len[b] = r < 2    ? r
                 : r < 12 ? 2 + (uint32_t)(tu_rand64() % 12)
                          : 12 + (uint32_t)(tu_rand64() % 40);
        if (b % 29 == 7)
            len[b] = medium + 1 + (uint32_t)(tu_rand64() % 8);
        if (heavy && b == nbins / 2)
            len[b] = 4096 + 100;
        off[b] = total;
        total += len[b];
    }
    off[nbins] = total;
    uint32_t *sorted = malloc((total ? total : 1) * sizeof *sorted);
    assert_non_null(sorted);
    for (uint32_t b = 0; b < nbins; b++) {
        uint32_t *e = sorted + off[b], p = (uint32_t)(tu_rand64() % nb);
        for (uint32_t i = 0; i < len[b]; i++) {
            uint32_t v = (uint32_t)(tu_rand64() % nb) | (tu_rand64() % 2 ? 0x80000000u : 0u);
            if (b % 5 == 1) /* one base repeated */
                v = p;
            else if (b % 5 == 2 && i < 4) /* P, -P, P, -P, then random */
                v = p | (i % 2 ? 0x80000000u : 0u);
            e[i] = v;
        }
    }
    free(len);
    return sorted;
}

static void bins_case(cuzk_cuda_target target, int g2, uint32_t nbins, uint32_t chunk,
                      uint32_t rounds, int heavy)
{
    const uint32_t nb = 97, medium = 60;
    void *bases = make_bases(g2, nb, B_RANDOM);
    uint32_t *off = malloc((nbins + 1) * sizeof *off);
    assert_non_null(off);
    uint32_t *sorted = make_bins(nbins, nb, medium, heavy, off);
    size_t jsz = g2 ? sizeof(g2_jac_t) : sizeof(g1_jac_t);
    uint8_t *out = malloc(nbins * jsz), *kind = malloc(nbins);
    assert_non_null(out);
    assert_non_null(kind);
    cuzk_error_t err = {0};
    cuzk_status st = cuzk_cuda_msm_bins_check(target, g2, out, kind, bases, nb, sorted, off, nbins,
                                              medium, chunk, rounds, &err);
    if (st != CUZK_OK)
        fail_msg("bins check: %s", err.msg);
    for (uint32_t b = 0; b < nbins; b++) {
        uint32_t cnt = off[b + 1] - off[b];
        uint8_t want = cnt > 4096 ? 2 : cnt > medium ? 1 : 0;
        if (kind[b] != want)
            fail_msg("%s bin %u (%u entries): kind %u, expected %u", g2 ? "G2" : "G1", b, cnt,
                     kind[b], want);
        int ok;
        if (g2) {
            g2_jac_t ref;
            g2_jac_set_inf(&ref);
            for (uint32_t e = off[b]; want == 0 && e < off[b + 1]; e++) {
                g2_affine_t p = ((const g2_affine_t *)bases)[sorted[e] & 0x7fffffffu];
                if (sorted[e] >> 31)
                    g2_affine_neg(&p, &p);
                g2_add_mixed(&ref, &ref, &p);
            }
            ok = g2_jac_equal(&ref, (const g2_jac_t *)(out + b * jsz));
        } else {
            g1_jac_t ref;
            g1_jac_set_inf(&ref);
            for (uint32_t e = off[b]; want == 0 && e < off[b + 1]; e++) {
                g1_affine_t p = ((const g1_affine_t *)bases)[sorted[e] & 0x7fffffffu];
                if (sorted[e] >> 31)
                    g1_affine_neg(&p, &p);
                g1_add_mixed(&ref, &ref, &p);
            }
            ok = g1_jac_equal(&ref, (const g1_jac_t *)(out + b * jsz));
        }
        if (!ok)
            fail_msg("%s %s bin %u (%u entries, chunk %u, %u rounds): sum differs from the CPU's",
                     target == CUZK_CUDA_TARGET_DEVICE ? "device" : "host emulation",
                     g2 ? "G2" : "G1", b, cnt, chunk, rounds);
    }
    free(bases);
    free(off);
    free(sorted);
    free(out);
    free(kind);
}

/* The affine rounds against the CPU, bin by bin: on the host (their code
 * emulated, no GPU needed) and, with a GPU, on it. Chunks of one entry
 * (a chunk a bin), of a few bins, and one for all; one round (the rest
 * in XYZZ chains), three, and eight (every list summed by the rounds);
 * bad layouts and counts are errors. */
static void test_bins_check(void **state)
{
    (void)state;
    static const uint32_t chunks[] = {1, 150, 1u << 30}, rounds[] = {1, 3, 8};
    for (int dev = 0; dev < 2; dev++) {
        if (dev && g_gpus == 0) {
            printf("no GPU: the affine rounds checked in host emulation only\n");
            break;
        }
        cuzk_cuda_target t = dev ? CUZK_CUDA_TARGET_DEVICE : CUZK_CUDA_TARGET_HOST_EMU;
        for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++)
            for (size_t r = 0; r < sizeof rounds / sizeof *rounds; r++) {
                bins_case(t, 0, 120, chunks[i], rounds[r], i == 2);
                bins_case(t, 1, 60, chunks[i], rounds[r], 0);
            }
        printf("  %s: affine rounds equal to the CPU's sums\n", dev ? "device" : "host emulation");
    }
    g1_affine_t p = G1_GENERATOR;
    uint32_t off[3] = {0, 2, 1}, sorted[2] = {0, 5};
    g1_jac_t out[2];
    uint8_t kind[2];
    cuzk_error_t err = {0};
    assert_int_equal(cuzk_cuda_msm_bins_check(CUZK_CUDA_TARGET_HOST_EMU, 0, out, kind, &p, 1,
                                              sorted, off, 2, 60, 1, 3, &err),
                     CUZK_ERR_ARG);
    off[2] = 2;
    assert_int_equal(cuzk_cuda_msm_bins_check(CUZK_CUDA_TARGET_HOST_EMU, 0, out, kind, &p, 1,
                                              sorted, off, 2, 60, 1, 3, &err),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "names base 5"));
    sorted[1] = 0;
    assert_int_equal(cuzk_cuda_msm_bins_check(CUZK_CUDA_TARGET_HOST_EMU, 0, out, kind, &p, 1,
                                              sorted, off, 2, 60, 0, 3, &err),
                     CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_msm_bins_check(CUZK_CUDA_TARGET_HOST_EMU, 0, out, kind, &p, 1,
                                              sorted, off, 2, 60, 1, 3, &err),
                     CUZK_OK);
    assert_int_equal(cuzk_cuda_msm_bins_check(CUZK_CUDA_TARGET_HOST_EMU, 0, out, kind, &p, 1,
                                              sorted, off, 2, 60, 1, 9, &err),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "9 rounds"));
}

static void test_g2(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const size_t sizes[] = {1, 2, 3, 31, 1000, 4097};
    sweep(1, sizes, sizeof sizes / sizeof *sizes);
    if (getenv("CUZK_TEST_BIG")) {
        static const size_t big[] = {1u << 16};
        sweep(1, big, 1);
    }
}

/* Both ways of cutting the ones' list (CUZK_MSM_ONES): in the wave, a
 * list longer than a wave of 4,096-entry pieces (132 SMs x 4 blocks: 2.2
 * M) is cut into one piece a resident block, pieces of more than 4,096
 * entries, not a multiple of the block's threads here: all ones and the
 * witness mix (about half ones) at 2^22 + 5 for G1, all ones at 2^22 + 3
 * for G2; short lists as before. */
static void test_ones_modes(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const char *const modes[] = {"wave", "pieces"};
    static const size_t g1_sizes[] = {31, 4097, (1u << 16) + 7};
    for (int m = 0; m < 2; m++) {
        assert_int_equal(setenv("CUZK_MSM_ONES", modes[m], 1), 0);
        check_one(0, (1u << 22) + 5, S_ONE, B_RANDOM, MSM_BASES_AFFINE);
        check_one(0, (1u << 22) + 5, S_WITNESS, B_RANDOM, MSM_BASES_AFFINE);
        check_one(1, (1u << 22) + 3, S_ONE, B_RANDOM, MSM_BASES_AFFINE);
        sweep(0, g1_sizes, sizeof g1_sizes / sizeof *g1_sizes);
        printf("  CUZK_MSM_ONES=%s: long ones' lists (G1, G2 2^22) equal to the CPU\n", modes[m]);
    }
    expect_bad_env("CUZK_MSM_ONES");
}

/* Bad arguments are errors, not crashes; n = 0 is infinity. */
static void test_args(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    g1_jac_t o;
    fr_t s = FR_ONE;
    g1_affine_t p = G1_GENERATOR;
    msm_bases_t b = {&p, MSM_BASES_AFFINE};
    assert_int_equal(cuzk_cuda_msm_g1(NULL, &b, &s, 1, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_msm_g1(&o, NULL, &s, 1, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_msm_g1(&o, &b, NULL, 1, &err), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_msm_g1(&o, &b, &s, 0, &err), CUZK_OK);
    assert_true(g1_jac_is_inf(&o));
    msm_bases_t bad = {&p, (msm_base_format)7};
    assert_int_equal(cuzk_cuda_msm_g1(&o, &bad, &s, 1, &err), CUZK_ERR_ARG);
    cuzk_status st = cuzk_cuda_msm_g1(&o, &b, &s, 1, &err);
    if (g_gpus == 0) {
        assert_int_equal(st, CUZK_ERR_NO_DEVICE);
        printf("no GPU: cuzk_cuda_msm_g1 says \"%s\"\n", err.msg);
    } else {
        g1_jac_t g;
        g1_from_affine(&g, &G1_GENERATOR);
        assert_int_equal(st, CUZK_OK);
        assert_true(g1_jac_equal(&o, &g));
    }
}

int main(void)
{
    tu_init("test_cuda_msm");
    cuzk_error_t err = {0};
    if (cuzk_cuda_device_count(&g_gpus, &err) != CUZK_OK) {
        printf("CUDA error: %s\n", err.msg);
        return 1;
    }
    if (g_gpus == 0)
        printf("no GPU: the GPU parts of test_cuda_msm are skipped\n");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args),         cmocka_unit_test(test_g1),
        cmocka_unit_test(test_g2),           cmocka_unit_test(test_medium_threads),
        cmocka_unit_test(test_bins_modes),   cmocka_unit_test(test_order_modes),
        cmocka_unit_test(test_segs_modes),   cmocka_unit_test(test_scatter_modes),
        cmocka_unit_test(test_window_modes), cmocka_unit_test(test_bins_check),
        cmocka_unit_test(test_ones_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
