/* The group-independent half of the CPU MSM: window width, thread ranges,
 * the 0/1 classification (see msm_internal.h; the Pippenger itself is
 * msm_impl.h, instantiated in msm_g1.c and msm_g2.c). */
#include "msm_internal.h"

#include <stdlib.h>

#include "cuzk/parallel.h"

/* Bucket reduction costs two full XYZZ additions per bucket (2 x 12M + 2S)
 * against one mixed addition (8M + 2S) per point: about 3 points' worth. */
#define MSM_REDUCE_WEIGHT 3

unsigned msm_top_buckets(unsigned c)
{
    /* The top window holds bits [c(W-1), 256) of k < r, plus a carry. */
    unsigned shift = c * (msm_windows(c) - 1);
    uint64_t top = (msm_bits(FR_MODULUS, shift) & (((uint64_t)1 << c) - 1)) + 1;
    uint64_t full = (uint64_t)1 << (c - 1);
    return (unsigned)(top < full ? top : full);
}

unsigned msm_choose_c(size_t n, int threads)
{
    /* Per thread: n / threads mixed additions and the bucket reduction per
     * window; the top window's digits are in [0, top], zero about once in
     * top + 1 (c = 15 leaves it bit 255 and a carry: half a window). */
    double per_thread = (double)n / (double)(threads > 0 ? threads : 1);
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= MSM_C_MAX; c++) {
        double full = (double)((size_t)1 << (c - 1)), top = msm_top_buckets(c);
        double cost = (msm_windows(c) - 1) * (per_thread + MSM_REDUCE_WEIGHT * full) +
                      per_thread * top / (top + 1) + MSM_REDUCE_WEIGHT * top;
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
                         unsigned c, size_t bucket_bytes, msm_select select)
{
    size_t t = (size_t)parallel_threads(threads);
    size_t useful = count / MSM_MIN_PER_THREAD;
    if (t > useful)
        t = useful ? useful : 1;
    msm_plan_t *p = malloc(sizeof *p + (t + 1) * sizeof p->bounds[0]);
    if (!p)
        return NULL;
    p->threads = (int)t;
    p->select = select;
    p->c = c ? c : msm_choose_c(count, p->threads);
    p->windows = msm_windows(p->c);
    p->buckets = 1u << (p->c - 1);
    p->top_buckets = msm_top_buckets(p->c);
    size_t per_window = (size_t)p->buckets * bucket_bytes * t;
    size_t set = MSM_BUCKET_BUDGET / per_window;
    if (set < 1)
        set = 1;
    if (set > p->windows)
        set = p->windows;
    /* Even sets: as many passes as `set` needs, windows spread over them. */
    size_t passes = (p->windows + set - 1) / set;
    p->set = (unsigned)((p->windows + passes - 1) / passes);
    msm_split(p->bounds, p->threads, block_weight, n);
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
