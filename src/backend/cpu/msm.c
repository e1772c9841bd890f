/* The group-independent half of the CPU MSM: window width, thread ranges,
 * the 0/1 classification (see msm_internal.h; the Pippenger itself is
 * msm_impl.h, instantiated in msm_g1.c and msm_g2.c). */
#include "msm_internal.h"

#include <stdlib.h>

#include "cuzk/parallel.h"
#include "field/constants_gen.h"

/* Bucket reduction costs two XYZZ additions per bucket (8M + 2S and
 * 12M + 2S) against a batch-affine addition (6M and a share of an
 * inversion) per point: about 3 points' worth. With GLV it picks c = 13 for
 * 2^16 and 2^17 scalars on 1 and 2 threads, which measured best of 11..16. */
#define MSM_REDUCE_WEIGHT 3

static const uint64_t GLV_Z[2] = CUZK_G1_GLV_Z;

void msm_glv_split(uint64_t k1[FR_LIMBS], uint64_t k2[FR_LIMBS], const uint64_t k[FR_LIMBS])
{
    static const uint64_t mu[3] = CUZK_G1_GLV_MU;
    const uint64_t *z = GLV_Z;
    /* q = floor((k >> 64) mu / 2^192) is k div z or one less: with
     * k < 2^255 and z > 2^127 the two truncations lose less than 1. */
    uint64_t prod[6] = {0};
    for (int i = 0; i < 3; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            unsigned __int128 t = (unsigned __int128)k[i + 1] * mu[j] + prod[i + j] + carry;
            prod[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        prod[i + 3] = carry;
    }
    uint64_t q0 = prod[3], q1 = prod[4];
    /* rem = k - q z < 2z < 2^129, so its low three limbs suffice. */
    unsigned __int128 t = (unsigned __int128)q0 * z[0];
    uint64_t qz0 = (uint64_t)t;
    t = (t >> 64) + (unsigned __int128)q0 * z[1];
    unsigned __int128 u = (unsigned __int128)q1 * z[0] + (uint64_t)t;
    uint64_t qz1 = (uint64_t)u;
    uint64_t qz2 = (uint64_t)(t >> 64) + (uint64_t)(u >> 64) + q1 * z[1];
    unsigned __int128 d = (unsigned __int128)k[0] - qz0;
    uint64_t r0 = (uint64_t)d;
    d = (unsigned __int128)k[1] - qz1 - (uint64_t)(d >> 127);
    uint64_t r1 = (uint64_t)d;
    uint64_t r2 = k[2] - qz2 - (uint64_t)(d >> 127);
    /* One correction: rem >= z means q was one short. */
    if (r2 || r1 > z[1] || (r1 == z[1] && r0 >= z[0])) {
        d = (unsigned __int128)r0 - z[0];
        r0 = (uint64_t)d;
        r1 = r1 - z[1] - (uint64_t)(d >> 127);
        q1 += ++q0 == 0;
    }
    k1[0] = r0;
    k1[1] = r1;
    k2[0] = q0;
    k2[1] = q1;
    k1[2] = k1[3] = k2[2] = k2[3] = 0;
}

unsigned msm_top_buckets(unsigned c, msm_form form)
{
    /* The top window holds bits [c(W-1), cW) of the largest scalar, plus a
     * carry (bit cW - 1 is zero: cW > the scalars' bit length). */
    const uint64_t z_minus_1[FR_LIMBS] = {GLV_Z[0] - 1, GLV_Z[1], 0, 0}; /* GLV_Z[0] = 2^32 */
    const uint64_t *max = form == MSM_FORM_GLV ? z_minus_1 : FR_MODULUS;
    unsigned shift = c * (msm_windows(c, form) - 1);
    uint64_t top = (msm_bits(max, shift) & (((uint64_t)1 << c) - 1)) + 1;
    uint64_t full = (uint64_t)1 << (c - 1);
    return (unsigned)(top < full ? top : full);
}

/* Time of a run in point additions: c-bit windows, the points cut into
 * `parts` ranges, one work unit per (window, range), units spread evenly
 * over the threads. A unit takes its range's points into its window's
 * buckets (the top window's digits are in [0, top], zero about once in
 * top + 1) and reduces them. */
static double plan_cost(size_t points, int threads, msm_form form, unsigned c, unsigned parts)
{
    double n = (double)points / parts, full = (double)((size_t)1 << (c - 1));
    double top = msm_top_buckets(c, form);
    unsigned windows = msm_windows(c, form), units = windows * parts;
    double total = parts * ((windows - 1) * (n + MSM_REDUCE_WEIGHT * full) + n * top / (top + 1) +
                            MSM_REDUCE_WEIGHT * top);
    unsigned per_thread = (units + (unsigned)threads - 1) / (unsigned)threads;
    return total / units * per_thread;
}

unsigned msm_choose_parts(size_t points, int threads, msm_form form, unsigned c)
{
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned parts = 1; parts <= (unsigned)threads; parts++) {
        double cost = plan_cost(points, threads, form, c, parts);
        if (parts == 1 || cost < best_cost) {
            best = parts;
            best_cost = cost;
        }
    }
    return best;
}

unsigned msm_choose_c(size_t points, int threads, msm_form form)
{
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= MSM_C_MAX; c++) {
        unsigned parts = msm_choose_parts(points, threads, form, c);
        double cost = plan_cost(points, threads, form, c, parts);
        if (c == 1 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

void msm_split(size_t *bounds, int parts, const uint32_t *block_weight, size_t n)
{
    bounds[0] = 0;
    if (!block_weight) {
        for (int t = 1; t <= parts; t++)
            bounds[t] = (size_t)((unsigned __int128)n * (unsigned)t / (unsigned)parts);
        return;
    }
    size_t blocks = (n + MSM_BLOCK - 1) / MSM_BLOCK;
    uint64_t total = 0;
    for (size_t b = 0; b < blocks; b++)
        total += block_weight[b];
    /* Range t ends at the first block boundary where the running weight
     * reaches t / parts of the total. */
    uint64_t run = 0;
    size_t b = 0;
    for (int t = 1; t < parts; t++) {
        uint64_t goal = (uint64_t)((unsigned __int128)total * (unsigned)t / (unsigned)parts);
        while (b < blocks && run < goal)
            run += block_weight[b++];
        size_t end = b * MSM_BLOCK;
        bounds[t] = end < n ? end : n;
    }
    bounds[parts] = n;
}

msm_plan_t *msm_plan_new(size_t n, size_t count, const uint32_t *block_weight, int threads,
                         unsigned c, size_t bucket_bytes, msm_select select, msm_form form)
{
    size_t t = (size_t)parallel_threads(threads);
    size_t useful = count / MSM_MIN_PER_THREAD;
    if (t > useful)
        t = useful ? useful : 1;
    size_t points = form == MSM_FORM_GLV ? 2 * count : count;
    c = c ? c : msm_choose_c(points, (int)t, form);
    unsigned parts = msm_choose_parts(points, (int)t, form, c);
    msm_plan_t *p = malloc(sizeof *p + (parts + 1) * sizeof p->bounds[0]);
    if (!p)
        return NULL;
    p->select = select;
    p->form = form;
    p->c = c;
    p->windows = msm_windows(c, form);
    p->buckets = 1u << (c - 1);
    p->top_buckets = msm_top_buckets(c, form);
    p->parts = parts;
    p->units = parts * p->windows;
    p->threads = (int)(t < p->units ? t : p->units);
    /* A thread's units are consecutive windows of one or two ranges; one
     * pass over a range's points covers up to `set` of them. */
    size_t per_window = (size_t)p->buckets * bucket_bytes * (size_t)p->threads;
    size_t set = MSM_BUCKET_BUDGET / per_window;
    size_t most = (p->units + (size_t)p->threads - 1) / (size_t)p->threads;
    if (set < 1)
        set = 1;
    if (set > most)
        set = most;
    if (set > p->windows)
        set = p->windows;
    p->set = (unsigned)set;
    msm_split(p->bounds, (int)parts, block_weight, n);
    return p;
}

typedef struct classify_job {
    const fr_t *scalars;
    size_t n;
    uint32_t *ones, *others;
} classify_job_t;

static void classify_blocks(void *ctx, size_t b0, size_t b1)
{
    classify_job_t *j = ctx;
    for (size_t b = b0; b < b1; b++) {
        size_t end = (b + 1) * MSM_BLOCK < j->n ? (b + 1) * MSM_BLOCK : j->n;
        uint32_t ones = 0, zeros = 0;
        for (size_t i = b * MSM_BLOCK; i < end; i++) {
            ones += (uint32_t)fr_is_one(&j->scalars[i]);
            zeros += (uint32_t)fr_is_zero(&j->scalars[i]);
        }
        j->ones[b] = ones;
        j->others[b] = (uint32_t)(end - b * MSM_BLOCK) - ones - zeros;
    }
}

cuzk_status msm_classify(uint32_t *ones, uint32_t *others, size_t *n_ones, size_t *n_others,
                         const fr_t *scalars, size_t n, int threads)
{
    classify_job_t job = {scalars, n, ones, others};
    size_t blocks = (n + MSM_BLOCK - 1) / MSM_BLOCK;
    cuzk_status st = parallel_for(blocks, 16, threads, classify_blocks, &job);
    if (st != CUZK_OK)
        return st;
    size_t a = 0, b = 0;
    for (size_t i = 0; i < blocks; i++) {
        a += ones[i];
        b += others[i];
    }
    *n_ones = a;
    *n_others = b;
    return CUZK_OK;
}
