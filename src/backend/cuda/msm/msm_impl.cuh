/* The MSM kernels, written once for G1 and G2 (see msm.cuh for the
 * method). The including unit defines
 *   EC(name)        the curve's device ops (dg1_xxx / dg2_xxx, ec.cuh)
 *   MK(name)        this instance's kernel names
 *   AFF, XYZZ, JAC  its point types
 *   RED_THREADS     threads of the block-summing kernels (their shared
 *                   memory holds one XYZZ per thread, under 48 KiB)
 *   FT, FLD(name)   the coordinate field's type and ops (dfp_xxx / dfp2_xxx)
 *   PAIR_K          pairs a thread of the affine rounds takes (msm_pairs.cuh)
 * and includes msm_common.cuh first (digits, scan, classification). */

/* The curve operations the kernels use, as calls rather than inlined
 * copies: one XYZZ addition of G2 is ~40 Fp multiplications, and inlining
 * it into every loop made the unit take ~10 minutes to compile (ptxas on
 * 255-register kernels); the call costs little beside the operation. */
static __device__ __noinline__ void MK(add_aff)(XYZZ *out, const XYZZ *p, const AFF *a)
{
    EC(xyzz_add_affine)(out, p, a);
}

#if MSM_CHAIN_LAZY
static __device__ __noinline__ void MK(add_aff_lz)(XYZZ *out, const XYZZ *p, const AFF *a)
{
    EC(xyzz_add_affine_lz)(out, p, a);
}
#endif

static __device__ __noinline__ void MK(add)(XYZZ *out, const XYZZ *p, const XYZZ *q)
{
    EC(xyzz_add)(out, p, q);
}

static __device__ __noinline__ void MK(dbl)(XYZZ *out, const XYZZ *p)
{
    EC(xyzz_dbl)(out, p);
}

/* The signed point an entry of the sorted array names. */
static __host__ __device__ __forceinline__ void MK(load)(AFF *p, const AFF *bases, uint32_t v)
{
    *p = bases[v & 0x7fffffffu];
    if (v >> 31)
        EC(affine_neg)(p, p);
}

/* One thread's sum of the entries sorted[lo .. hi) into *out; with
 * MSM_CHAIN_LAZY (the including unit's, from CUZK_EC_LAZY) in [0, 2q)
 * until the end. */
static __device__ __forceinline__ void MK(chain)(XYZZ *out, const uint32_t *sorted, uint32_t lo,
                                                 uint32_t hi, const AFF *bases)
{
    XYZZ acc;
    EC(xyzz_set_inf)(&acc);
    for (uint32_t e = lo; e < hi; e++) {
        AFF p;
        MK(load)(&p, bases, sorted[e]);
#if MSM_CHAIN_LAZY
        MK(add_aff_lz)(&acc, &acc, &p);
#else
        MK(add_aff)(&acc, &acc, &p);
#endif
    }
#if MSM_CHAIN_LAZY
    EC(xyzz_canon)(&acc, &acc);
#endif
    *out = acc;
}

/* Sums of the light bins (one thread each); heavy bins become jobs of at
 * most CUDA_MSM_PIECE entries plus one range each (their pieces); medium
 * ones (more than `medium` entries) are listed for MK(medium) when fewer
 * than `fill` (ctl[CTL_MEDN]) of them exist, else summed here too: a
 * random MSM's top window (2^15 bins of ~2048) fills the GPU a thread
 * each beside the other windows' bins, and loses 3-5% as blocks or
 * deferred to a kernel of its own (measured).
 * CUZK_MSM_BINS_MINB (msm_g1.cu sets 4; unset: ptxas's choice) asks for that
 * many 128-thread blocks per SM, capping the registers. */
#ifdef CUZK_MSM_BINS_MINB
#define MSM_BINS_BOUNDS __launch_bounds__(128, CUZK_MSM_BINS_MINB)
#else
#define MSM_BINS_BOUNDS
#endif
__global__ void MSM_BINS_BOUNDS MK(bins)(XYZZ *buckets, const uint32_t *sorted, const uint32_t *off,
                                         uint32_t nbins, const AFF *bases, cuda_msm_job_t *jobs,
                                         cuda_msm_range_t *heavy, uint32_t *ctl, uint32_t medium,
                                         uint32_t *med, uint32_t fill, const uint32_t *order,
                                         uint32_t piece)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nbins)
        return;
    if (order)
        b = order[b];
    uint32_t lo = off[b], hi = off[b + 1], cnt = hi - lo;
    if (cnt > CUDA_MSM_HEAVY) {
        msm_heavy_jobs(lo, hi, b, piece, jobs, heavy, ctl);
        return;
    }
    if (cnt > medium && ctl[CTL_MEDN] < fill) {
        med[atomicAdd(&ctl[CTL_MED], 1)] = b;
        return;
    }
    MK(chain)(&buckets[b], sorted, lo, hi, bases);
}

#include "backend/cuda/msm/msm_pairs.cuh"

/* The rounds checked apart (cuzk_cuda_msm_bins_check): run on the host,
 * block by block and thread by thread, or as the kernels on stream s in
 * buffers of their own; chunks of `chunk` entries, `rounds` rounds. out[b]
 * the Jacobian sum of bin b (infinity when not summed here), kind[b] 0
 * summed, 1 medium, 2 heavy. The arguments were checked by the caller. */
static cuzk_status MK(bins_check)(int on_device, cudaStream_t s, JAC *out, uint8_t *kind,
                                  const AFF *bases, size_t nbases, const uint32_t *sorted,
                                  const uint32_t *off, uint32_t nbins, uint32_t medium,
                                  uint32_t chunk, uint32_t rounds, cuzk_error_t *err)
{
    uint32_t total = off[nbins], ctl[CTL_N] = {0};
    if (chunk > total) /* as the plans do: no larger than the entries */
        chunk = total ? total : 1;
    uint32_t nq = total / chunk + 1;
    size_t njobs = total / CUDA_MSM_PIECE + nbins + 1, nscan = (size_t)rounds * (nbins + 1);
    size_t cap_a = cuda_msm_pair_cap(chunk, 1), cap_b = cuda_msm_pair_cap(chunk, 2);
    XYZZ *bk = (XYZZ *)malloc(nbins * sizeof *bk);
    cuda_msm_job_t *jobs = (cuda_msm_job_t *)malloc(njobs * sizeof *jobs);
    cuda_msm_range_t *heavy = (cuda_msm_range_t *)malloc(nbins * sizeof *heavy);
    uint32_t *med = (uint32_t *)malloc(nbins * sizeof *med);
    cuzk_status st = CUZK_OK;
    /* device: bases, sorted, off, buckets, jobs, heavy, med, ctl, scan,
     * tile sums, chunk starts, list buffers a and b */
    void *d[13] = {0};
    if (!bk || !jobs || !heavy || !med) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "msm bins check: out of host memory");
        goto out;
    }
    for (uint32_t b = 0; b < nbins; b++)
        EC(xyzz_set_inf)(&bk[b]);
    if (!on_device) {
        uint32_t *scan = (uint32_t *)malloc(nscan * sizeof *scan);
        uint32_t *cs = (uint32_t *)malloc(((size_t)nq + 1) * sizeof *cs);
        AFF *la = (AFF *)malloc(cap_a * sizeof *la), *lb = (AFF *)malloc(cap_b * sizeof *lb);
        MK(pair_state) *sts = (MK(pair_state) *)malloc(PAIR_THREADS * sizeof *sts);
        FT *tree = (FT *)malloc(2 * PAIR_THREADS * sizeof *tree);
        if (scan && cs && la && lb && sts && tree) {
            for (uint32_t b = 0; b <= nbins; b++)
                MK(pair_prep_bin)
            (b, bk, sorted, off, nbins, bases, jobs, heavy, ctl, medium, med, scan, rounds);
            for (uint32_t r = 0; r < rounds; r++) { /* exclusive scans, in place */
                uint32_t *sc = scan + (size_t)r * (nbins + 1), acc = 0;
                for (uint32_t b = 0; b <= nbins; b++) {
                    uint32_t v = sc[b];
                    sc[b] = acc;
                    acc += v;
                }
            }
            for (uint32_t q = 0; q <= nq; q++)
                cs[q] = MK(pair_chunk_start)(off, nbins, q, nq, chunk);
            MK(pair_args) a = MK(pair_args_make)(sorted, off, bases, bk, cs, nbins, medium);
            for (uint32_t q = 0; q < nq; q++) {
                a.q = q;
                for (uint32_t r = 0; r < rounds; r++) {
                    MK(pair_round)(&a, r, la, lb, scan);
                    size_t threads = MK(pair_threads)(chunk, r);
                    MK(pair_base)(&a);
                    uint32_t span = MK(pair_span)(&a);
                    for (size_t t0 = 0; t0 < threads && t0 * 2 * PAIR_K < span;
                         t0 += PAIR_THREADS) {
                        for (uint32_t i = 0; i < PAIR_THREADS; i++) {
                            MK(pair_forward)(&sts[i], &a, (uint32_t)(t0 + i));
                            tree[PAIR_THREADS + i] = sts[i].run;
                        }
                        for (uint32_t half = PAIR_THREADS / 2; half >= 1; half /= 2)
                            for (uint32_t i = 0; i < half; i++)
                                MK(pair_tree_up)(tree, half + i);
                        FLD(inv_var)(&tree[1], &tree[1]);
                        for (uint32_t half = 1; half < PAIR_THREADS; half *= 2)
                            for (uint32_t i = 0; i < half; i++)
                                MK(pair_tree_down)(tree, half + i);
                        for (uint32_t i = 0; i < PAIR_THREADS; i++) {
                            sts[i].run = tree[PAIR_THREADS + i];
                            MK(pair_backward)(&sts[i], &a);
                        }
                    }
                }
                for (uint32_t b = cs[q]; b < cs[q + 1]; b++)
                    MK(pair_chain_bin)
                (bk, MK(pair_buf)(la, lb, rounds), scan + (size_t)(rounds - 1) * (nbins + 1), cs, q,
                 b);
            }
        } else {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "msm bins check: out of host memory");
        }
        free(scan);
        free(cs);
        free(la);
        free(lb);
        free(sts);
        free(tree);
    } else {
        const void *src[13] = {bases, sorted, off, bk, NULL, NULL, NULL, ctl};
        size_t bytes[13] = {nbases * sizeof(AFF),
                            (total ? total : 1) * sizeof(uint32_t),
                            (nbins + 1) * sizeof(uint32_t),
                            nbins * sizeof(XYZZ),
                            njobs * sizeof(cuda_msm_job_t),
                            nbins * sizeof(cuda_msm_range_t),
                            nbins * sizeof(uint32_t),
                            sizeof ctl,
                            nscan * sizeof(uint32_t),
                            (scan_tmp_words(nbins + 1) + 4) * sizeof(uint32_t),
                            ((size_t)nq + 1) * sizeof(uint32_t),
                            cap_a * sizeof(AFF),
                            cap_b * sizeof(AFF)};
        for (int i = 0; i < 13 && st == CUZK_OK; i++) {
            st = CUDA_CHECK(cudaMalloc(&d[i], bytes[i]), err);
            if (st == CUZK_OK && src[i])
                st = CUDA_CHECK(cudaMemcpyAsync(d[i], src[i], i == 1 && !total ? 0 : bytes[i],
                                                cudaMemcpyHostToDevice, s),
                                err);
        }
        if (st != CUZK_OK)
            goto out;
        /* a plan of these buffers, for MK(pair_bins) */
        cuda_msm_plan_t p;
        memset(&p, 0, sizeof p);
        p.jobs = (cuda_msm_job_t *)d[4];
        p.ranges = (cuda_msm_range_t *)d[5];
        p.med = (uint32_t *)d[6];
        p.ctl = (uint32_t *)d[7];
        p.pair_scan = (uint32_t *)d[8];
        p.tile_sums = (uint32_t *)d[9];
        p.pair_cs = (uint32_t *)d[10];
        p.pair_a = d[11];
        p.pair_b = d[12];
        p.pair_rounds = rounds;
        p.pair_chunk = chunk;
        p.sms = 1;
        if ((st = MK(pair_bins)((XYZZ *)d[3], &p, (const uint32_t *)d[1], (const uint32_t *)d[2],
                                nbins, total, (const AFF *)d[0], medium, s, err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaMemcpyAsync(bk, d[3], bytes[3], cudaMemcpyDeviceToHost, s),
                             err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaMemcpyAsync(heavy, d[5], bytes[5], cudaMemcpyDeviceToHost, s),
                             err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaMemcpyAsync(med, d[6], bytes[6], cudaMemcpyDeviceToHost, s),
                             err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaMemcpyAsync(ctl, d[7], bytes[7], cudaMemcpyDeviceToHost, s),
                             err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaStreamSynchronize(s), err)) != CUZK_OK)
            goto out;
    }
    if (st != CUZK_OK)
        goto out;
    for (uint32_t b = 0; b < nbins; b++) {
        EC(xyzz_to_jac)(&out[b], &bk[b]);
        kind[b] = 0;
    }
    for (uint32_t i = 0; i < ctl[CTL_MED] && i < nbins; i++)
        kind[med[i]] = 1;
    for (uint32_t i = 0; i < ctl[CTL_HEAVY] && i < nbins; i++)
        kind[heavy[i].target] = 2;
out:
    if (on_device) {
        (void)cudaStreamSynchronize(s);
        for (int i = 0; i < 13; i++)
            if (d[i])
                (void)cudaFree(d[i]);
    }
    free(bk);
    free(jobs);
    free(heavy);
    free(med);
    return st;
}

/* Tree sum of the block's per-thread values; thread 0 gets the total. */
static __device__ void MK(block_reduce)(XYZZ *out, XYZZ *sh, const XYZZ *mine)
{
    sh[threadIdx.x] = *mine;
    __syncthreads();
    for (unsigned h = RED_THREADS / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            MK(add)(&sh[threadIdx.x], &sh[threadIdx.x], &sh[threadIdx.x + h]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = sh[0];
    __syncthreads(); /* sh is reused by the block's next job */
}

/* Each job (a piece of a heavy bin) summed by one block. */
__global__ void __launch_bounds__(RED_THREADS)
    MK(pieces)(XYZZ *out, const cuda_msm_job_t *jobs, const uint32_t *ctl, const uint32_t *sorted,
               const AFF *bases)
{
    __shared__ XYZZ sh[RED_THREADS];
    uint32_t njobs = ctl[CTL_JOBS];
    for (uint32_t j = blockIdx.x; j < njobs; j += gridDim.x) {
        cuda_msm_job_t job = jobs[j];
        XYZZ acc;
        EC(xyzz_set_inf)(&acc);
        for (uint32_t e = threadIdx.x; e < job.count; e += RED_THREADS) {
            AFF p;
            MK(load)(&p, bases, sorted[job.first + e]);
            MK(add_aff)(&acc, &acc, &p);
        }
        MK(block_reduce)(&out[j], sh, &acc);
    }
}

/* Each medium bin summed by one block, straight into its bucket. */
__global__ void __launch_bounds__(RED_THREADS)
    MK(medium)(XYZZ *buckets, const uint32_t *sorted, const uint32_t *off, const uint32_t *med,
               const uint32_t *nmed, const AFF *bases)
{
    __shared__ XYZZ sh[RED_THREADS];
    uint32_t n = *nmed;
    for (uint32_t j = blockIdx.x; j < n; j += gridDim.x) {
        uint32_t b = med[j], lo = off[b], hi = off[b + 1];
        XYZZ acc;
        EC(xyzz_set_inf)(&acc);
        for (uint32_t e = lo + threadIdx.x; e < hi; e += RED_THREADS) {
            AFF p;
            MK(load)(&p, bases, sorted[e]);
            MK(add_aff)(&acc, &acc, &p);
        }
        MK(block_reduce)(&buckets[b], sh, &acc);
    }
}

/* dst[r.target] = sum of src[r.first .. r.first + r.count), a block per
 * range; *nranges is read on the device (it was counted there). */
__global__ void __launch_bounds__(RED_THREADS)
    MK(ranges)(XYZZ *dst, const XYZZ *src, const cuda_msm_range_t *ranges, const uint32_t *nranges)
{
    __shared__ XYZZ sh[RED_THREADS];
    uint32_t n = *nranges;
    for (uint32_t j = blockIdx.x; j < n; j += gridDim.x) {
        cuda_msm_range_t r = ranges[j];
        XYZZ acc;
        EC(xyzz_set_inf)(&acc);
        for (uint32_t e = threadIdx.x; e < r.count; e += RED_THREADS)
            MK(add)(&acc, &acc, &src[r.first + e]);
        MK(block_reduce)(&dst[r.target], sh, &acc);
    }
}

/* k * p for a small k (0 < k < 2^32), double-and-add from the top bit. */
static __device__ void MK(mul_small)(XYZZ *out, const XYZZ *p, uint32_t k)
{
    XYZZ acc;
    EC(xyzz_set_inf)(&acc);
    for (int bit = 31 - __clz(k); bit >= 0; bit--) {
        MK(dbl)(&acc, &acc);
        if ((k >> bit) & 1)
            MK(add)(&acc, &acc, p);
    }
    *out = acc;
}

/* Bucket reduction: thread (w, s) returns sum over its segment of buckets
 * of weight * bucket, weight = index in the window + 1, by running sums
 * from the top (2 additions per bucket), then adds lo * (segment sum).
 * Segments of ceil(nb / segs) buckets, the last one shorter (or empty). */
#ifdef CUZK_MSM_SEG_MINB /* an experiment, as CUZK_MSM_BINS_MINB */
#define MSM_SEG_BOUNDS __launch_bounds__(128, CUZK_MSM_SEG_MINB)
#else
#define MSM_SEG_BOUNDS
#endif
__global__ void MSM_SEG_BOUNDS MK(segments)(XYZZ *out, const XYZZ *buckets, uint32_t group,
                                            uint32_t nb, uint32_t segs)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= group * segs)
        return;
    uint32_t w = t / segs, s = t % segs, len = (nb + segs - 1) / segs;
    uint32_t lo = s * len < nb ? s * len : nb, hi = nb - lo > len ? lo + len : nb;
    const XYZZ *b = buckets + (size_t)w * nb;
    XYZZ run, acc;
    EC(xyzz_set_inf)(&run);
    EC(xyzz_set_inf)(&acc);
    for (uint32_t i = hi; i-- > lo;) {
        MK(add)(&run, &run, &b[i]);
        MK(add)(&acc, &acc, &run);
    }
    if (lo && lo < hi) {
        XYZZ t2;
        MK(mul_small)(&t2, &run, lo);
        MK(add)(&acc, &acc, &t2);
    }
    out[t] = acc;
}

__global__ void MK(to_jac)(JAC *out, const XYZZ *in, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        EC(xyzz_to_jac)(&out[i], &in[i]);
}

__global__ void MK(set_inf)(XYZZ *p, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        EC(xyzz_set_inf)(&p[i]);
}

/* ---- host driver --------------------------------------------------------- */

/* Sums the entries sorted[0 .. off[nbins]) (at most `entries`) bin by bin
 * into dst[0..nbins): light bins by a thread each (XYZZ) or by affine
 * rounds (p->bins), medium ones (more than `medium` entries) by a
 * block each, heavy ones by pieces of `piece` entries (at least
 * CUDA_MSM_PIECE; the affine rounds always cut CUDA_MSM_PIECE). */
static cuzk_status MK(sum_bins)(XYZZ *dst, cuda_msm_plan_t *p, const uint32_t *sorted,
                                const uint32_t *off, uint32_t nbins, uint64_t entries,
                                const AFF *bases, uint32_t medium, uint32_t piece, cudaStream_t s,
                                cuzk_error_t *err)
{
    cuzk_status st = CUDA_CHECK(cudaMemsetAsync(p->ctl, 0, 2 * sizeof(uint32_t), s), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemsetAsync(p->ctl + CTL_MED, 0, 2 * sizeof(uint32_t), s), err);
    if (st != CUZK_OK)
        return st;
    if (p->bins == CUDA_MSM_BINS_AFFINE) {
        if ((st = MK(pair_bins)(dst, p, sorted, off, nbins, entries, bases, medium, s, err)) !=
            CUZK_OK)
            return st;
    } else {
        /* fewer bins than fill: every medium one goes to a block, uncounted */
        if (medium < CUDA_MSM_HEAVY && nbins >= p->medium_fill) {
            unsigned grid = (nbins + 255) / 256;
            grid = grid < 4u * (unsigned)p->sms ? grid : 4u * (unsigned)p->sms;
            msm_count_medium<<<grid, 256, 0, s>>>(p->ctl, off, nbins, medium);
        }
        /* the list by size in buffers free at this point: bin_count (the
         * histogram's input, scanned already) and cursor (the scatter's) */
        const uint32_t *order = NULL;
        if (p->order == CUDA_MSM_ORDER_SIZE && nbins >= MSM_ORDER_MIN) {
            unsigned grid = (nbins + MSM_ORDER_THREADS - 1) / MSM_ORDER_THREADS;
            grid = grid < 4u * (unsigned)p->sms ? grid : 4u * (unsigned)p->sms;
            if ((st = CUDA_CHECK(
                     cudaMemsetAsync(p->bin_count, 0, MSM_ORDER_KEYS * sizeof(uint32_t), s),
                     err)) != CUZK_OK)
                return st;
            msm_order_hist<<<grid, MSM_ORDER_THREADS, 0, s>>>(p->bin_count, off, nbins);
            msm_order_starts<<<1, 1, 0, s>>>(p->bin_count);
            msm_order_scatter<<<grid, MSM_ORDER_THREADS, 0, s>>>(p->cursor, p->bin_count, off,
                                                                 nbins);
            order = p->cursor;
        }
        MK(bins)<<<(nbins + 127) / 128, 128, 0, s>>>(dst, sorted, off, nbins, bases, p->jobs,
                                                     p->ranges, p->ctl, medium, p->med,
                                                     p->medium_fill, order, piece);
    }
    MK(medium)<<<4 * p->sms, RED_THREADS, 0, s>>>(dst, sorted, off, p->med, p->ctl + CTL_MED,
                                                  bases);
    MK(pieces)<<<4 * p->sms, RED_THREADS, 0, s>>>((XYZZ *)p->pieces, p->jobs, p->ctl, sorted,
                                                  bases);
    MK(ranges)<<<4 * p->sms, RED_THREADS, 0, s>>>(dst, (const XYZZ *)p->pieces, p->ranges,
                                                  p->ctl + CTL_HEAVY);
    return CUDA_CHECK(cudaGetLastError(), err);
}

#ifndef MSM_RED_PER
#define MSM_RED_PER 8 /* additions a thread of a block summing segments, at most */
#endif
#define MSM_PARTS_MAX 256u /* first-level sums of a group (p->ranges holds 256) */

/* The reduction segments of each of g windows of nb buckets (see
 * cuda_msm_segs): at most CUDA_MSM_SEGS in all (less the second level's
 * room, MK(reduce_segs)), at most nb each. Wave mode once capped them at 64
 * a thread of the block that sums a window's segments, which left most of
 * the wave idle where groups are small (G2 2^27: 12,288 of 33,792 threads
 * at 20 bits, 4,096 for the lone last window); two levels of block sums
 * keep that block's chain short instead. */
static uint32_t MK(segs_for)(cuda_msm_plan_t *p, const cuda_msm_shape_t *sh, unsigned g,
                             uint32_t nb)
{
    if (p->seg_mode != CUDA_MSM_SEGS_WAVE)
        return sh->segs;
    if (!p->seg_wave) {
        int blocks = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, MK(segments), 128, 0) !=
                cudaSuccess ||
            blocks < 1)
            blocks = 1;
        p->seg_wave = (uint32_t)blocks * 128u * (uint32_t)(p->sms > 0 ? p->sms : 1);
    }
    uint32_t segs = p->seg_wave / g, cap = (CUDA_MSM_SEGS - MSM_PARTS_MAX) / g;
    segs = segs < cap ? segs : cap;
    segs = segs < nb ? segs : nb;
    return segs ? segs : 1;
}

/* The window sums wins[w0 ..] of a group's g x segs segment sums in
 * p->segs: a block a window when that is at most MSM_RED_PER additions a
 * thread, else first `parts` blocks a window (their sums after the
 * segments in p->segs, where at most MSM_PARTS_MAX fit), then a block a
 * window over those. A block's chain is its additions a thread plus its
 * tree (log2 RED_THREADS); with a few blocks on the GPU it is latency. */
static cuzk_status MK(reduce_segs)(XYZZ *wins, cuda_msm_plan_t *p, unsigned g, uint32_t segs,
                                   unsigned w0, cudaStream_t s, cuzk_error_t *err)
{
    XYZZ *sg = (XYZZ *)p->segs;
    uint32_t *nr = p->ctl + CTL_RANGES;
    const uint32_t per = MSM_RED_PER * RED_THREADS;
    uint32_t parts = (segs + per - 1) / per;
    if (parts > 1 && (size_t)g * segs + (size_t)g * parts <= CUDA_MSM_SEGS &&
        g * parts <= MSM_PARTS_MAX) {
        const uint32_t first2 = g * segs;
        msm_uniform_ranges<<<1, 256, 0, s>>>(p->ranges, nr, 0, g, segs, parts, first2);
        unsigned grid = g * parts < 4u * (unsigned)p->sms ? g * parts : 4u * (unsigned)p->sms;
        MK(ranges)<<<grid, RED_THREADS, 0, s>>>(sg, sg, p->ranges, nr);
        msm_uniform_ranges<<<1, 256, 0, s>>>(p->ranges, nr, first2, g, parts, 1, w0);
    } else {
        msm_uniform_ranges<<<1, 256, 0, s>>>(p->ranges, nr, 0, g, segs, 1, w0);
    }
    MK(ranges)<<<g, RED_THREADS, 0, s>>>(wins, sg, p->ranges, nr);
    return CUDA_CHECK(cudaGetLastError(), err);
}

/* The pieces of the ones' list, one heavy bin (CUDA_MSM_ONES_WAVE; else
 * CUDA_MSM_PIECE entries): as many as MK(pieces)'s
 * blocks resident at once (p->piece_wave), so that each block sums one
 * piece and reduces once, all in one wave, and MK(ranges) sums a few
 * hundred pieces rather than thousands (at 2^25 ones, 4,096-entry pieces
 * left the sum at ~1.4x its additions: 8,192 block reductions, a tail
 * wave, and one block adding the 8,192 pieces). Never below
 * CUDA_MSM_PIECE; a multiple of the block. */
static uint32_t MK(ones_piece)(cuda_msm_plan_t *p, uint32_t n_ones)
{
    if (p->ones != CUDA_MSM_ONES_WAVE)
        return CUDA_MSM_PIECE;
    if (!p->piece_wave) {
        int blocks = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, MK(pieces), RED_THREADS, 0) !=
                cudaSuccess ||
            blocks < 1)
            blocks = 1;
        /* MK(pieces) runs 4 blocks an SM at most */
        blocks = blocks < 4 ? blocks : 4;
        p->piece_wave = (uint32_t)blocks * (uint32_t)(p->sms > 0 ? p->sms : 1);
    }
    uint64_t piece = ((uint64_t)n_ones + p->piece_wave - 1) / p->piece_wave;
    piece = (piece + RED_THREADS - 1) / RED_THREADS * RED_THREADS;
    return piece < CUDA_MSM_PIECE ? (uint32_t)CUDA_MSM_PIECE : (uint32_t)piece;
}

static cuzk_status MK(run)(HJAC *out, cuda_msm_plan_t *p, const AFF *bases, const dfr_t *scalars,
                           size_t n, cudaStream_t s, cuzk_error_t *err)
{
    HJ(jac_set_inf)(out);
    if (n == 0)
        return CUZK_OK;
    if (!p || !bases || !scalars || n > p->n_max)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda msm: %zu points for a plan of %zu", n,
                              p ? p->n_max : (size_t)0);
    cuzk_status st;
    uint32_t *ctl = p->ctl;
    cuda_msm_trace_begin(p->trace, s);
    if ((st = CUDA_CHECK(cudaMemsetAsync(ctl, 0, CTL_N * sizeof(uint32_t), s), err)) != CUZK_OK)
        return st;
    msm_classify<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(p->k, p->full_idx, p->ones_idx, ctl,
                                                             scalars, (uint32_t)n);
    cuda_msm_trace_mark(p->trace, MSM_PH_CLASSIFY, s);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
        (st = CUDA_CHECK(
             cudaMemcpyAsync(p->ctl_host, ctl, CTL_N * sizeof(uint32_t), cudaMemcpyDeviceToHost, s),
             err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaStreamSynchronize(s), err)) != CUZK_OK)
        return st;
    uint32_t n_full = p->ctl_host[CTL_FULL], n_ones = p->ctl_host[CTL_ONES];
    cuda_msm_shape_t sh =
        cuda_msm_shape_fit(cuda_msm_shape(p->curve, n_full, p->scratch_limit, p->c_force), n_full,
                           p->max.bins, p->max.entries);
    if (sh.bins > p->max.bins || (size_t)n_full * sh.group > p->max.entries ||
        sh.group * sh.segs > CUDA_MSM_SEGS || sh.windows > CUDA_MSM_MAX_WINDOWS)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuda msm: shape exceeds its plan");
    p->last = sh;
    XYZZ *wins = (XYZZ *)p->wins;
    MK(set_inf)<<<(sh.windows + 1 + 255) / 256, 256, 0, s>>>(wins, sh.windows + 1);

    /* the ones: one bin [0, n_ones) of the ones list */
    if (n_ones) {
        msm_ones_off<<<1, 1, 0, s>>>(p->bin_off, ctl);
        if ((st = MK(sum_bins)(wins + sh.windows, p, p->ones_idx, p->bin_off, 1, n_ones, bases,
                               CUDA_MSM_MEDIUM, MK(ones_piece)(p, n_ones), s, err)) != CUZK_OK)
            return st;
    }
    cuda_msm_trace_mark(p->trace, MSM_PH_ONES, s);

    uint32_t nb = 1u << (sh.c - 1);
    /* medium: well above a bin's mean n_full / nb (the sparse top window) */
    uint64_t mean4 = (uint64_t)n_full / nb * 4;
    uint32_t medium = mean4 > CUDA_MSM_MEDIUM
                          ? (mean4 > CUDA_MSM_HEAVY ? CUDA_MSM_HEAVY : (uint32_t)mean4)
                          : CUDA_MSM_MEDIUM;
    for (unsigned w0 = 0; n_full && w0 < sh.windows; w0 += sh.group) {
        unsigned g = sh.windows - w0 < sh.group ? sh.windows - w0 : sh.group;
        uint32_t bins = g * nb;
        unsigned fgrid = (n_full + 255) / 256;
        if (p->scatter == CUDA_MSM_SCATTER_SORT) {
            if ((st = msm_sort_group(p, n_full, sh.c, w0, g, s, err)) != CUZK_OK)
                return st;
        } else {
            if ((st = CUDA_CHECK(cudaMemsetAsync(p->bin_count, 0, (bins + 1) * sizeof(uint32_t), s),
                                 err)) != CUZK_OK)
                return st;
            msm_hist<<<fgrid, 256, 0, s>>>(p->bin_count, p->k, n_full, sh.c, w0, g);
            cuda_msm_trace_mark(p->trace, MSM_PH_HIST, s);
            if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
                (st = msm_scan(p->bin_off, p->bin_count, bins + 1, p->tile_sums, s, err)) !=
                    CUZK_OK ||
                (st = CUDA_CHECK(cudaMemcpyAsync(p->cursor, p->bin_off, bins * sizeof(uint32_t),
                                                 cudaMemcpyDeviceToDevice, s),
                                 err)) != CUZK_OK)
                return st;
            cuda_msm_trace_mark(p->trace, MSM_PH_SCAN, s);
            msm_scatter<<<fgrid, 256, 0, s>>>(p->sorted, p->cursor, p->k, p->full_idx, n_full, sh.c,
                                              w0, g);
        }
        cuda_msm_trace_mark(p->trace, MSM_PH_SCATTER, s);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
            (st = MK(sum_bins)((XYZZ *)p->buckets, p, p->sorted, p->bin_off, bins,
                               (uint64_t)n_full * g, bases, medium, CUDA_MSM_PIECE, s, err)) !=
                CUZK_OK)
            return st;
        cuda_msm_trace_mark(p->trace, MSM_PH_BINS, s);
        uint32_t segs = MK(segs_for)(p, &sh, g, nb), nseg = g * segs;
        MK(segments)<<<(nseg + 127) / 128, 128, 0, s>>>((XYZZ *)p->segs, (const XYZZ *)p->buckets,
                                                        g, nb, segs);
        if ((st = MK(reduce_segs)(wins, p, g, segs, w0, s, err)) != CUZK_OK)
            return st;
        cuda_msm_trace_mark(p->trace, MSM_PH_REDUCE, s);
    }

    JAC *wj = (JAC *)p->wins_jac;
    MK(to_jac)<<<(sh.windows + 1 + 255) / 256, 256, 0, s>>>(wj, wins, sh.windows + 1);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMemcpyAsync(p->jac_host, wj, (sh.windows + 1) * sizeof(JAC),
                                         cudaMemcpyDeviceToHost, s),
                         err)) != CUZK_OK)
        return st;
    cuda_msm_trace_mark(p->trace, MSM_PH_COMBINE, s);
    if ((st = CUDA_CHECK(cudaStreamSynchronize(s), err)) != CUZK_OK)
        return st;
    /* Horner over the windows, top first, then the ones */
    const HJAC *wh = (const HJAC *)p->jac_host;
    HJAC acc;
    HJ(jac_set_inf)(&acc);
    for (unsigned w = sh.windows; w-- > 0;) {
        for (unsigned i = 0; i < sh.c && !HJ(jac_is_inf)(&acc); i++)
            HJ(dbl)(&acc, &acc);
        HJ(add)(&acc, &acc, &wh[w]);
    }
    HJ(add)(out, &acc, &wh[sh.windows]);
    cuda_msm_trace_end(p->trace, p->curve == CUDA_CURVE_G2, n, n_full, n_ones, sh.c, sh.windows,
                       sh.group);
    return CUZK_OK;
}
