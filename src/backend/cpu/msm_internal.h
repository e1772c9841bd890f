/* Internal pieces of the CPU MSM shared by G1 and G2 (msm.c), and the plan
 * the Pippenger template (msm_impl.h) follows. Not part of the public API.
 *
 * Signed digits (Booth recoding). Window w of a canonical scalar k < r < 2^255
 * is
 *     d_w = x_w + k_{cw-1} - 2^c k_{cw+c-1},   x_w = bits [cw, cw + c) of k,
 * i.e. the c window bits, plus the top bit of the window below (the carry),
 * minus 2^c when the window's own top bit is set (it is carried up). So
 * d_w lies in [-2^(c-1), 2^(c-1)] and sum_w d_w 2^(cw) = k - k_{cW-1} 2^(cW),
 * which is k once cW >= 256: W = ceil(256 / c) windows. Each digit reads
 * only c + 1 bits, so a window's digits need no pass over the lower windows.
 * Bucket b of a window holds the points whose digit is +-(b + 1). */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/msm.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "MSM_BASES_LEM is read as fp_t limbs: a little-endian machine is required"
/* For tests: msm_gX_pippenger with the window width forced to
 * c in [1, MSM_C_MAX] (CUZK_ERR_ARG otherwise). */
cuzk_status msm_g1_pippenger_window(g1_jac_t *out, const msm_bases_t *bases, const fr_t *scalars,
                                    size_t n, int threads, unsigned c);
cuzk_status msm_g2_pippenger_window(g2_jac_t *out, const msm_bases_t *bases, const fr_t *scalars,
                                    size_t n, int threads, unsigned c);

#endif

#define MSM_C_MAX 16        /* widest window: 2^15 buckets per window */
#define MSM_SCALAR_BITS 256 /* digits cover bits [0, 256): k < r < 2^255 */
#define MSM_BLOCK 512       /* scalars per block when balancing thread ranges */
#define MSM_CHUNK 256       /* points a thread decodes at a time */
/* Bucket scratch of all threads together that one pass may use; with more,
 * fewer windows share a pass over the bases (each pass decodes them again). */
#define MSM_BUCKET_BUDGET ((size_t)64 << 20)
/* Fewest scalars worth a thread of their own. */
#define MSM_MIN_PER_THREAD 256

/* Which scalars a Pippenger pass takes. */
typedef enum msm_select {
    MSM_SELECT_ALL = 0,  /* every scalar (zero digits are skipped anyway) */
    MSM_SELECT_OTHER = 1 /* only scalars that are neither 0 nor 1 */
} msm_select;

/* How a Pippenger run is cut: c-bit windows, `windows` of them, handled
 * `set` at a time (one pass over the bases per window set); thread t takes
 * the scalars [bounds[t], bounds[t + 1]). */
typedef struct msm_plan {
    unsigned c, windows, set;
    unsigned buckets;     /* 2^(c-1): buckets of every window but the top */
    unsigned top_buckets; /* the top window's digits are at most this */
    int threads;
    msm_select select;
    size_t bounds[]; /* threads + 1 entries */
} msm_plan_t;

static inline unsigned msm_windows(unsigned c)
{
    return (MSM_SCALAR_BITS + c - 1) / c;
}

/* 64 bits of k starting at bit pos < 256 (zeros above bit 255). */
static inline uint64_t msm_bits(const uint64_t k[FR_LIMBS], unsigned pos)
{
    unsigned i = pos / 64, s = pos % 64;
    uint64_t v = k[i] >> s;
    if (s && i + 1 < FR_LIMBS)
        v |= k[i + 1] << (64 - s);
    return v;
}

/* The signed digit d_w of canonical k (see the top of this file). */
static inline int32_t msm_digit(const uint64_t k[FR_LIMBS], unsigned c, unsigned w)
{
    uint64_t win = w ? msm_bits(k, c * w - 1) : k[0] << 1; /* borrow bit, then c bits */
    win &= ((uint64_t)2 << c) - 1;
    int32_t x = (int32_t)(win >> 1), carry_in = (int32_t)(win & 1);
    int32_t top = (int32_t)(win >> c);
    return x + carry_in - (top << c);
}

/* Bound on the top window's digits (all in [0, bound]): bits
 * [c(W-1), 256) of r, plus one for the carry, at most 2^(c-1). */
unsigned msm_top_buckets(unsigned c);

/* Window width for n scalars over `threads` threads (each thread takes n /
 * threads of the points and reduces its own buckets). */
unsigned msm_choose_c(size_t n, int threads);

/* Plans a Pippenger run over n scalars: picks the thread count (at most
 * `threads`, resolved), the window width from `count` (the scalars that
 * will be taken; c != 0 forces it) and the window set size from
 * MSM_BUCKET_BUDGET given bucket_bytes per bucket; splits [0, n) into
 * thread ranges holding equal shares of block_weight (per MSM_BLOCK block;
 * NULL: equal index ranges). Returns NULL when out of memory; free() it. */
msm_plan_t *msm_plan_new(size_t n, size_t count, const uint32_t *block_weight, int threads,
                         unsigned c, size_t bucket_bytes, msm_select select);

/* Per MSM_BLOCK block of scalars: how many are one, and how many are
 * neither zero nor one (arrays of ceil(n / MSM_BLOCK)); totals returned. */
cuzk_status msm_classify(uint32_t *ones, uint32_t *others, size_t *n_ones, size_t *n_others,
                         const fr_t *scalars, size_t n, int threads);

/* Splits [0, n) into `parts` ranges of equal total weight (block_weight per
 * MSM_BLOCK block, or the index count when NULL), block aligned:
 * bounds[0] = 0, bounds[parts] = n. */
void msm_split(size_t *bounds, int parts, const uint32_t *block_weight, size_t n);

/* For tests: msm_gX_pippenger with the window width forced to
 * c in [1, MSM_C_MAX] (CUZK_ERR_ARG otherwise). */
cuzk_status msm_g1_pippenger_window(g1_jac_t *out, const msm_bases_t *bases, const fr_t *scalars,
                                    size_t n, int threads, unsigned c);
cuzk_status msm_g2_pippenger_window(g2_jac_t *out, const msm_bases_t *bases, const fr_t *scalars,
                                    size_t n, int threads, unsigned c);

#endif
