/* What the two curve units of the MSM (msm_g1.cu, msm_g2.cu) share: the
 * control slots, the scalar kernels (classification, digits, counting
 * sort) and the scan. Static: each unit has its own copy of these small
 * kernels (there is no device link step). */
#ifndef CUZK_CUDA_MSM_COMMON_CUH
#define CUZK_CUDA_MSM_COMMON_CUH

#include <cub/device/device_radix_sort.cuh>

#include "backend/cuda/arith/inv.cuh"
#include "backend/cuda/msm/msm.cuh"

/* A loop kept rolled on the device (its body indexes local arrays and
 * calls curve code: unrolled it only grows); the host pass needs nothing. */
#ifdef __CUDA_ARCH__
#define MSM_NO_UNROLL _Pragma("unroll 1")
#else
#define MSM_NO_UNROLL
#endif

/* ctl[] slots */
#define CTL_JOBS 0   /* jobs made by the bins kernel */
#define CTL_HEAVY 1  /* heavy bins (ranges) */
#define CTL_FULL 2   /* full scalars */
#define CTL_ONES 3   /* scalars equal to one */
#define CTL_RANGES 4 /* ranges of the window sums */
#define CTL_MED 5    /* medium bins (block-summed) */
#define CTL_MEDN 6   /* bins over the medium threshold, counted first */
#define CTL_N 8

#define CUDA_MSM_MAX_WINDOWS 256 /* c = 1 */
#define SCAN_TILE 2048           /* 256 threads x 8 */

/* ---- scalars ------------------------------------------------------------- */

/* Warp-aggregated append: the lanes with `mine` get consecutive slots of
 * list `slot` (one atomic per warp). Every lane of the warp must call. */
static __device__ __forceinline__ uint32_t msm_append(uint32_t *ctl, int slot, bool mine)
{
    unsigned lane = threadIdx.x & 31, mask = __ballot_sync(0xffffffffu, mine);
    if (!mask)
        return 0;
    unsigned leader = __ffs(mask) - 1;
    uint32_t base = 0;
    if (lane == leader)
        base = atomicAdd(&ctl[slot], __popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader);
    return base + __popc(mask & ((1u << lane) - 1));
}

/* 0 -> dropped, 1 -> ones list, else -> canonical scalar + index. */
static __global__ void msm_classify(dfr_t *k, uint32_t *full_idx, uint32_t *ones_idx, uint32_t *ctl,
                                    const dfr_t *s, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    dfr_t v;
    int kind = 0;
    if (i < n) {
        v = s[i];
        kind = dfr_is_one(&v) ? 1 : dfr_is_zero(&v) ? 0 : 2;
    }
    uint32_t pos = msm_append(ctl, CTL_ONES, kind == 1);
    if (kind == 1)
        ones_idx[pos] = i;
    pos = msm_append(ctl, CTL_FULL, kind == 2);
    if (kind == 2) {
        dfr_from_mont(&k[pos], &v);
        full_idx[pos] = i;
    }
}

/* c bits of k from bit off (zero past bit 255). */
static __device__ __forceinline__ uint32_t msm_bits(const dfr_t *k, unsigned off, unsigned c)
{
    if (off >= 256)
        return 0;
    unsigned li = off >> 5, sh = off & 31;
    uint64_t v = k->l[li];
    if (li < 7)
        v |= (uint64_t)k->l[li + 1] << 32;
    return (uint32_t)(v >> sh) & ((1u << c) - 1);
}

/* Signed digit of window w, given the carry from window w - 1: in
 * (-2^(c-1), 2^(c-1)]; k < 2^255 and windows x c >= 256 leave no carry. */
static __device__ __forceinline__ int32_t msm_digit(const dfr_t *k, unsigned w, unsigned c,
                                                    uint32_t *carry)
{
    uint32_t raw = msm_bits(k, w * c, c) + *carry;
    if (raw > (1u << (c - 1))) {
        *carry = 1;
        return (int32_t)raw - (int32_t)(1u << c);
    }
    *carry = 0;
    return (int32_t)raw;
}

static __global__ void msm_hist(uint32_t *count, const dfr_t *k, uint32_t n, unsigned c,
                                unsigned w0, unsigned g)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t carry = 0, nb = 1u << (c - 1);
    for (unsigned w = 0; w < w0 + g; w++) {
        int32_t d = msm_digit(&k[i], w, c, &carry);
        if (w >= w0 && d)
            atomicAdd(&count[(w - w0) * nb + (uint32_t)abs(d) - 1], 1u);
    }
}

/* The entries land at random in an array far larger than L2, and each
 * evicted the cursors the next atomics need (ncu, H200, G1 2^24: L2 hit
 * 57%, 108 bytes of DRAM traffic an entry). So the cursors are kept
 * (evict_last) and the entries go first (evict_first, not in L1):
 * scatter -10% (H100, G1 2^26 71.7 -> 64.3 ms). */
static __device__ __forceinline__ uint32_t msm_cursor_next(uint32_t *cursor, uint64_t keep)
{
    uint32_t pos;
    asm volatile("atom.global.add.L2::cache_hint.u32 %0, [%1], 1, %2;"
                 : "=r"(pos)
                 : "l"(cursor), "l"(keep)
                 : "memory");
    return pos;
}

static __device__ __forceinline__ void msm_entry_put(uint32_t *at, uint32_t v, uint64_t drop)
{
    asm volatile("st.global.L1::no_allocate.L2::cache_hint.b32 [%0], %1, %2;" ::"l"(at), "r"(v),
                 "l"(drop)
                 : "memory");
}

static __global__ void msm_scatter(uint32_t *sorted, uint32_t *cursor, const dfr_t *k,
                                   const uint32_t *idx, uint32_t n, unsigned c, unsigned w0,
                                   unsigned g)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t keep, drop;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(keep));
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(drop));
    uint32_t carry = 0, nb = 1u << (c - 1), id = idx[i];
    for (unsigned w = 0; w < w0 + g; w++) {
        int32_t d = msm_digit(&k[i], w, c, &carry);
        if (w >= w0 && d) {
            uint32_t pos = msm_cursor_next(&cursor[(w - w0) * nb + (uint32_t)abs(d) - 1], keep);
            msm_entry_put(&sorted[pos], id | (d < 0 ? 0x80000000u : 0u), drop);
        }
    }
}

/* The sort's keys (CUDA_MSM_SCATTER_SORT) for windows w0 .. w0 + g - 1 of
 * scalar i, window j's at keys[j n + i]: the bin shifted left by one with
 * the digit's sign in bit 0, or nb << 1 for a zero digit (sorted past every
 * bin). One read of the scalar a group; writes in runs. */
static __global__ void msm_keys(uint32_t *keys, const dfr_t *k, uint32_t n, unsigned c, unsigned w0,
                                unsigned g)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t carry = 0, nb = 1u << (c - 1);
    for (unsigned w = 0; w < w0 + g; w++) {
        int32_t d = msm_digit(&k[i], w, c, &carry);
        if (w >= w0)
            keys[(size_t)(w - w0) * n + i] =
                d ? ((uint32_t)abs(d) - 1) << 1 | (d < 0 ? 1u : 0u) : nb << 1;
    }
}

static __global__ void msm_ones_off(uint32_t *off, const uint32_t *ctl)
{
    off[0] = 0;
    off[1] = ctl[CTL_ONES];
}

/* ctl[CTL_MEDN] += the bins with more than `medium` entries and at most
 * CUDA_MSM_HEAVY: the bins kernel hands them to blocks only when they are
 * too few to fill the GPU with a thread each. */
static __global__ void msm_count_medium(uint32_t *ctl, const uint32_t *off, uint32_t nbins,
                                        uint32_t medium)
{
    uint32_t n = 0;
    for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < nbins;
         b += gridDim.x * blockDim.x) {
        uint32_t cnt = off[b + 1] - off[b];
        n += cnt > medium && cnt <= CUDA_MSM_HEAVY;
    }
    for (int d = 16; d > 0; d >>= 1)
        n += __shfl_down_sync(0xffffffffu, n, d);
    if ((threadIdx.x & 31) == 0 && n)
        atomicAdd(&ctl[CTL_MEDN], n);
}

/* The first bin b in [0, n) with off[b] >= v, else n (off ascending). */
static __host__ __device__ __forceinline__ uint32_t msm_lower_bound(const uint32_t *off, uint32_t n,
                                                                    uint64_t v)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (off[m] < v)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* The offsets of window w's bins b in [1, nb] from its n sorted keys:
 * off[w nb + b] = off[w nb] + the keys below b << 1 (the bin, not the sign);
 * window 0 starts at 0. off[(w + 1) nb] is where window w + 1 starts. */
static __global__ void msm_sorted_off(uint32_t *off, const uint32_t *keys, uint32_t n, uint32_t nb,
                                      unsigned w)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t *o = off + (size_t)w * nb;
    if (b > nb)
        return;
    if (b == 0) {
        if (w == 0)
            o[0] = 0;
        return;
    }
    o[b] = (w ? o[0] : 0) + msm_lower_bound(keys, n, (uint64_t)b << 1);
}

/* Window w's sorted points into their place, packed: sorted[off[w nb] + t]
 * = the t-th point with its key's sign in bit 31, for t below the window's
 * count of nonzero digits. keys and vals must not overlap sorted's
 * [off[w nb], off[(w + 1) nb]). */
static __global__ void msm_pack(uint32_t *sorted, const uint32_t *off, const uint32_t *keys,
                                const uint32_t *vals, uint32_t nb, unsigned w)
{
    uint32_t base = off[(size_t)w * nb], cnt = off[(size_t)(w + 1) * nb] - base;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < cnt; t += gridDim.x * blockDim.x)
        sorted[base + t] = vals[t] | keys[t] << 31;
}

/* A group's entries in bin order by sorting (CUDA_MSM_SCATTER_SORT): the
 * keys of its g windows into p->sorted (window j at j n), then window by
 * window: a stable sort of (key, point) on the key's bin bits, the bins'
 * offsets, and the points packed into p->sorted at the window's offset.
 * Window j's packed entries end at or before j n + n, so they never reach
 * the keys of the windows still to sort. */
static __attribute__((unused)) cuzk_status msm_sort_group(cuda_msm_plan_t *p, uint32_t n,
                                                          unsigned c, unsigned w0, unsigned g,
                                                          cudaStream_t s, cuzk_error_t *err)
{
    uint32_t nb = 1u << (c - 1);
    msm_keys<<<(n + 255) / 256, 256, 0, s>>>(p->sorted, p->k, n, c, w0, g);
    cuzk_status st = CUDA_CHECK(cudaGetLastError(), err);
    for (unsigned j = 0; j < g && st == CUZK_OK; j++) {
        cub::DoubleBuffer<uint32_t> keys(p->sorted + (size_t)j * n, p->keys_alt),
            vals(p->vals, p->vals_alt);
        size_t tmp = p->sort_tmp_bytes;
        /* the sort may write over its input points: a fresh copy each window */
        if ((st = CUDA_CHECK(cudaMemcpyAsync(p->vals, p->full_idx, (size_t)n * sizeof(uint32_t),
                                             cudaMemcpyDeviceToDevice, s),
                             err)) != CUZK_OK ||
            (st = CUDA_CHECK(cub::DeviceRadixSort::SortPairs(p->sort_tmp, tmp, keys, vals, (int)n,
                                                             1, 1 + (int)c, s),
                             err)) != CUZK_OK)
            break;
        /* keys left in the window's own place would be overwritten while
         * they are read: move them to the second buffer */
        const uint32_t *kc = keys.Current();
        if (kc != p->keys_alt) {
            if ((st = CUDA_CHECK(cudaMemcpyAsync(p->keys_alt, kc, (size_t)n * sizeof(uint32_t),
                                                 cudaMemcpyDeviceToDevice, s),
                                 err)) != CUZK_OK)
                break;
            kc = p->keys_alt;
        }
        msm_sorted_off<<<(nb + 256) / 256, 256, 0, s>>>(p->bin_off, kc, n, nb, j);
        unsigned grid = (n + 255) / 256;
        grid = grid < 8u * (unsigned)p->sms ? grid : 8u * (unsigned)p->sms;
        msm_pack<<<grid ? grid : 1, 256, 0, s>>>(p->sorted, p->bin_off, kc, vals.Current(), nb, j);
        st = CUDA_CHECK(cudaGetLastError(), err);
    }
    return st;
}

/* *p += v, returning the old value: atomically on the device, plainly in
 * the host emulation of a kernel (one thread at a time). */
static __host__ __device__ __forceinline__ uint32_t msm_atomic_add(uint32_t *p, uint32_t v)
{
#ifdef __CUDA_ARCH__
    return atomicAdd(p, v);
#else
    uint32_t old = *p;
    *p = old + v;
    return old;
#endif
}

/* Whether any lane of the warp has v set (all 32 lanes call it), or v
 * itself in the host emulation (one thread at a time). */
static __host__ __device__ __forceinline__ int msm_warp_any(int v)
{
#ifdef __CUDA_ARCH__
    return __any_sync(0xffffffffu, v);
#else
    return v;
#endif
}

/* ---- the light bins by size ------------------------------------------------
 * The XYZZ kernel sums a bin a thread, and a warp runs as long as its
 * largest bin: at a random MSM's 32-128 entries per bin (about Poisson),
 * its lanes were ~70% busy (ncu, stop 34). With CUDA_MSM_ORDER_SIZE the
 * bins are listed largest first (a counting sort on the size, clamped at
 * MSM_ORDER_KEYS - 1) and thread i sums the i-th of the list. Each bin is
 * still summed by one thread in the order of its entries, so the sums do
 * not depend on the list's order within a size. */
#define MSM_ORDER_KEYS 1024   /* sizes told apart: 4x the mean at 2^27 */
#define MSM_ORDER_THREADS 256 /* the order kernels' block size */
#define MSM_ORDER_MIN 4096    /* fewer bins: by index (one or two waves at most) */

static __device__ __forceinline__ uint32_t msm_order_key(const uint32_t *off, uint32_t b)
{
    uint32_t cnt = off[b + 1] - off[b];
    return MSM_ORDER_KEYS - 1 - (cnt < MSM_ORDER_KEYS - 1 ? cnt : MSM_ORDER_KEYS - 1);
}

/* hist[key] += the bins of that key (hist zeroed by the caller). */
static __global__ void __launch_bounds__(MSM_ORDER_THREADS)
    msm_order_hist(uint32_t *hist, const uint32_t *off, uint32_t nbins)
{
    __shared__ uint32_t h[MSM_ORDER_KEYS];
    for (uint32_t k = threadIdx.x; k < MSM_ORDER_KEYS; k += blockDim.x)
        h[k] = 0;
    __syncthreads();
    for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < nbins; b += gridDim.x * blockDim.x)
        atomicAdd(&h[msm_order_key(off, b)], 1u);
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < MSM_ORDER_KEYS; k += blockDim.x)
        if (h[k])
            atomicAdd(&hist[k], h[k]);
}

/* hist <- its exclusive prefix sums: where each key's bins start. */
static __global__ void msm_order_starts(uint32_t *hist)
{
    uint32_t sum = 0;
    for (uint32_t k = 0; k < MSM_ORDER_KEYS; k++) {
        uint32_t c = hist[k];
        hist[k] = sum;
        sum += c;
    }
}

/* order[next[key]++] = b for every bin, a block reserving its share of each
 * key at once (next: msm_order_starts' output). */
static __global__ void __launch_bounds__(MSM_ORDER_THREADS)
    msm_order_scatter(uint32_t *order, uint32_t *next, const uint32_t *off, uint32_t nbins)
{
    __shared__ uint32_t h[MSM_ORDER_KEYS];
    for (uint32_t c0 = blockIdx.x * blockDim.x; c0 < nbins; c0 += gridDim.x * blockDim.x) {
        for (uint32_t k = threadIdx.x; k < MSM_ORDER_KEYS; k += blockDim.x)
            h[k] = 0;
        __syncthreads();
        uint32_t b = c0 + threadIdx.x, key = 0, rank = 0;
        if (b < nbins) {
            key = msm_order_key(off, b);
            rank = atomicAdd(&h[key], 1u);
        }
        __syncthreads();
        for (uint32_t k = threadIdx.x; k < MSM_ORDER_KEYS; k += blockDim.x)
            if (h[k])
                h[k] = atomicAdd(&next[k], h[k]);
        __syncthreads();
        if (b < nbins)
            order[h[key] + rank] = b;
        __syncthreads();
    }
}

/* A heavy bin (entries [lo, hi) of bin b) made into jobs of at most
 * `piece` entries (CUDA_MSM_PIECE, or more for a lone heavy bin: see
 * MK(ones_piece)) and one range listing them. */
static __host__ __device__ __forceinline__ void msm_heavy_jobs(uint32_t lo, uint32_t hi, uint32_t b,
                                                               uint32_t piece, cuda_msm_job_t *jobs,
                                                               cuda_msm_range_t *heavy,
                                                               uint32_t *ctl)
{
    uint32_t np = (hi - lo + piece - 1) / piece;
    uint32_t first = msm_atomic_add(&ctl[CTL_JOBS], np);
    for (uint32_t k = 0; k < np; k++) {
        uint32_t start = lo + k * piece;
        jobs[first + k] = {start, hi - start < piece ? hi - start : piece};
    }
    heavy[msm_atomic_add(&ctl[CTL_HEAVY], 1)] = {first, np, b};
}

/* g runs of `len` values from `first` on, each cut in `parts` ranges of
 * ceil(len / parts) (the last ones shorter or empty): range j = (run,
 * part) sums into target0 + j. One part a run: the window sums of a group
 * (target0 = w0); more: the first level of two (MK(reduce_segs)). */
static __global__ void msm_uniform_ranges(cuda_msm_range_t *r, uint32_t *count, uint32_t first,
                                          uint32_t g, uint32_t len, uint32_t parts,
                                          uint32_t target0)
{
    const uint32_t plen = (len + parts - 1) / parts;
    for (uint32_t j = threadIdx.x; j < g * parts; j += blockDim.x) {
        uint32_t w = j / parts, q = j % parts, lo = q * plen < len ? q * plen : len;
        uint32_t cnt = len - lo < plen ? len - lo : plen;
        r[j] = {first + w * len + lo, cnt, target0 + j};
    }
    if (threadIdx.x == 0)
        *count = g * parts;
}

/* ---- exclusive scan of u32 (bin offsets) --------------------------------- */

/* Each block scans a tile of SCAN_TILE; tile totals to sums[]. in may be out. */
static __global__ void __launch_bounds__(256)
    msm_scan_tiles(uint32_t *out, uint32_t *sums, const uint32_t *in, uint32_t len)
{
    __shared__ uint32_t warp_tot[8];
    uint32_t base = blockIdx.x * SCAN_TILE + threadIdx.x * 8, v[8], sum = 0;
    for (int j = 0; j < 8; j++) {
        v[j] = base + j < len ? in[base + j] : 0;
        sum += v[j];
    }
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t x = sum;
    for (unsigned o = 1; o < 32; o <<= 1) {
        uint32_t y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o)
            x += y;
    }
    if (lane == 31)
        warp_tot[warp] = x;
    __syncthreads();
    if (warp == 0) {
        uint32_t t = lane < 8 ? warp_tot[lane] : 0;
        for (unsigned o = 1; o < 8; o <<= 1) {
            uint32_t y = __shfl_up_sync(0xffffffffu, t, o);
            if (lane >= o)
                t += y;
        }
        if (lane < 8)
            warp_tot[lane] = t;
    }
    __syncthreads();
    uint32_t run = x - sum + (warp ? warp_tot[warp - 1] : 0);
    for (int j = 0; j < 8; j++) {
        if (base + j < len)
            out[base + j] = run;
        run += v[j];
    }
    if (threadIdx.x == 255)
        sums[blockIdx.x] = run;
}

static __global__ void msm_scan_add(uint32_t *out, const uint32_t *tile_off, uint32_t len)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        out[i] += tile_off[i / SCAN_TILE];
}

/* out = exclusive scan of in (len elements); tmp holds about len / 2047 + 3
 * words. */
static cuzk_status msm_scan(uint32_t *out, const uint32_t *in, uint32_t len, uint32_t *tmp,
                            cudaStream_t s, cuzk_error_t *err)
{
    uint32_t tiles = (len + SCAN_TILE - 1) / SCAN_TILE;
    msm_scan_tiles<<<tiles, 256, 0, s>>>(out, tmp, in, len);
    cuzk_status st = CUDA_CHECK(cudaGetLastError(), err);
    if (st != CUZK_OK || tiles == 1)
        return st;
    if ((st = msm_scan(tmp, tmp, tiles, tmp + tiles, s, err)) != CUZK_OK)
        return st;
    msm_scan_add<<<(len + 255) / 256, 256, 0, s>>>(out, tmp, len);
    return CUDA_CHECK(cudaGetLastError(), err);
}

static __attribute__((unused)) size_t scan_tmp_words(size_t len)
{
    size_t words = 0;
    for (size_t t = (len + SCAN_TILE - 1) / SCAN_TILE;; t = (t + SCAN_TILE - 1) / SCAN_TILE) {
        words += t;
        if (t == 1)
            return words;
    }
}

#endif
