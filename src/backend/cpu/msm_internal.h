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
 * Bucket b of a window holds the points whose digit is +-(b + 1).
 *
 * GLV (G1 only; Gallant, Lambert, Vanstone, CRYPTO 2001). On G1,
 * phi(x, y) = (beta x, y) is [lambda] P with lambda = -z mod r, z = x^2 for
 * the BLS parameter x (CUZK_G1_BETA, g1_affine_in_subgroup). As
 * r = z^2 - z + 1, every k < r is k1 + k2 z with k1 = k mod z and
 * k2 = k div z, both below z < 2^128, so
 *     [k] P = [k1] P + [k2] (-phi(P)),   -phi(P) = (beta x, -y):
 * twice the points, but digits of 128-bit scalars, W = ceil(129 / c)
 * windows (cW >= 129 for scalars up to 2^128 - 1). The point additions
 * stay about the same; the bucket reductions, one per window, halve. */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/msm.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "MSM_BASES_LEM is read as fp_t limbs: a little-endian machine is required"
#endif

#define MSM_C_MAX MSM_WINDOW_MAX /* msm.h */
#define MSM_SCALAR_BITS 256      /* digits cover bits [0, 256): k < r < 2^255 */
#define MSM_GLV_BITS 129         /* digits cover bits [0, 129): k1, k2 < z < 2^128 */
#define MSM_BLOCK 512            /* scalars per block when balancing thread ranges */
#define MSM_CHUNK 256            /* points a thread decodes at a time */
/* Bucket scratch of all threads together that one pass may use; with more,
 * fewer windows share a pass over the bases (each pass decodes them again). */
#define MSM_BUCKET_BUDGET ((size_t)64 << 20)
/* Fewest scalars worth a thread of their own. */
#define MSM_MIN_PER_THREAD 256

/* What the digits are taken from (see the top of this file). */
typedef enum msm_form {
    MSM_FORM_FULL = 0, /* k itself: one point per scalar, MSM_SCALAR_BITS */
    MSM_FORM_GLV = 1   /* k1 and k2: two points per scalar, MSM_GLV_BITS */
} msm_form;

/* Which scalars a Pippenger pass takes. */
typedef enum msm_select {
    MSM_SELECT_ALL = 0,  /* every scalar (zero digits are skipped anyway) */
    MSM_SELECT_OTHER = 1 /* only scalars that are neither 0 nor 1 */
} msm_select;

/* How a Pippenger run is cut: c-bit windows, `windows` of them; the
 * scalars in `parts` ranges, range p = [bounds[p], bounds[p + 1]). A work
 * unit is one window of one range, numbered u = p * windows + w; thread t
 * takes the units [units t / threads, units (t + 1) / threads), so with
 * threads <= windows a thread owns whole windows and no bucket reduction
 * is repeated. A pass over a range's bases fills the buckets of up to
 * `set` of its windows. */
typedef struct msm_plan {
    msm_form form;
    unsigned c, windows, set;
    unsigned buckets;     /* 2^(c-1): buckets of every window but the top */
    unsigned top_buckets; /* the top window's digits are at most this */
    unsigned parts, units;
    int threads;
    msm_select select;
    size_t bounds[]; /* parts + 1 entries */
} msm_plan_t;

static inline unsigned msm_windows(unsigned c, msm_form form)
{
    unsigned bits = form == MSM_FORM_GLV ? MSM_GLV_BITS : MSM_SCALAR_BITS;
    return (bits + c - 1) / c;
}

/* k = k1 + k2 z (see the top of this file) for canonical k < r:
 * k1 = k mod z, k2 = k div z, both below z (limbs 2 and 3 are zero). */
void msm_glv_split(uint64_t k1[FR_LIMBS], uint64_t k2[FR_LIMBS], const uint64_t k[FR_LIMBS]);

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

/* Bound on the top window's digits (all in [0, bound]): bits [c(W-1), cW)
 * of the largest scalar (r - 1, or z - 1 for GLV halves), plus one for the
 * carry, at most 2^(c-1). */
unsigned msm_top_buckets(unsigned c, msm_form form);

/* Window width for `points` (scalar, point) pairs in the given form over
 * `threads` threads, and how many ranges to cut the points into for a
 * given width (see msm_plan_t), from a cost model in point additions. */
unsigned msm_choose_c(size_t points, int threads, msm_form form);
unsigned msm_choose_parts(size_t points, int threads, msm_form form, unsigned c);

/* Plans a Pippenger run over n scalars: picks the thread count (at most
 * `threads`, resolved), the window width from `count` (the scalars that
 * will be taken, each one point or two as `form` says; c != 0 forces it),
 * the ranges, and the window set size from MSM_BUCKET_BUDGET given
 * bucket_bytes per bucket; splits [0, n) into ranges holding equal shares
 * of block_weight (per MSM_BLOCK block; NULL: equal index ranges). Returns
 * NULL when out of memory; free() it. */
msm_plan_t *msm_plan_new(size_t n, size_t count, const uint32_t *block_weight, int threads,
                         unsigned c, size_t bucket_bytes, msm_select select, msm_form form);

/* Per MSM_BLOCK block of scalars: how many are one, and how many are
 * neither zero nor one (arrays of ceil(n / MSM_BLOCK)); totals returned. */
cuzk_status msm_classify(uint32_t *ones, uint32_t *others, size_t *n_ones, size_t *n_others,
                         const fr_t *scalars, size_t n, int threads);

/* Splits [0, n) into `parts` ranges of equal total weight (block_weight per
 * MSM_BLOCK block, or the index count when NULL), block aligned:
 * bounds[0] = 0, bounds[parts] = n. */
void msm_split(size_t *bounds, int parts, const uint32_t *block_weight, size_t n);

#endif
