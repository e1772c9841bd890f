/* The light bins summed in affine coordinates by pairwise rounds
 * (CUDA_MSM_BINS_AFFINE), included by msm_impl.cuh with its macros.
 *
 * Why: an affine addition costs 2M + 1S once 1 / (x2 - x1) is known, and
 * Montgomery's trick gives a batch of inverses for 3M each plus one
 * inversion: ~5M + 1S an addition against the XYZZ mixed addition's
 * 8M + 2S. Stop 33's form (a thread's own bins side by side, the trick
 * per thread) lost to its bookkeeping: lanes out of step, local-memory
 * slots, a third of a wave. Here every round is uniform work:
 *
 *  - round r pairs neighbours of each bin's list (entries 2i and 2i + 1;
 *    an odd last one is carried), so a list of m points becomes
 *    ceil(m / 2); a list that becomes one point is the bucket;
 *  - a thread takes PAIR_K pairs of the round's lists (2 PAIR_K positions),
 *    multiplies their x2 - x1, and the block's PAIR_THREADS products are
 *    inverted together (a product tree in shared memory, one inversion a
 *    block); the inverses come back down the tree and each thread walks
 *    its pairs backwards;
 *  - after `rounds` rounds the lists left (mean / 2^rounds points) are
 *    summed by a thread each in XYZZ, as the other method does.
 * Round 0 reads the sorted entries (bases by index, bit 31 negates); the
 * rounds after it read the list the round before wrote. Lists are packed:
 * round r's list of bin b starts at scan_r[b] (an exclusive scan of the
 * lengths that are 2 or more), relative to the chunk's first bin.
 *
 * Chunks bound the lists' memory: chunk q holds the bins whose entries
 * start in [q C, (q + 1) C) of the group's sorted entries (C =
 * p->pair_chunk); a light bin has at most `medium` entries, so a chunk's
 * light entries are fewer than C + CUDA_MSM_HEAVY, and a list of 3 or more
 * halves to at most 2/3 of itself: round 1's lists fit 2/3 of that, round
 * 2's 4/9 (two buffers, odd rounds in one, even in the other).
 *
 * Special pairs (a point at infinity, equal x: P + P or P - P) stay out of
 * the product and take the slow path with an inversion of their own (only
 * P + P needs it). x = 0 counts as special: infinity is (0, 0).
 *
 * The per-thread code is host and device: the check (MK(bins_check))
 * runs the same rounds on the host, block by block, thread by thread. */

#define PAIR_THREADS 128        /* a block: one inversion for its threads' pairs */
#define PAIR_BUCKET 0x80000000u /* a pair's destination: bin (low bits), not list */

/* The rounds' arguments: round r of chunk q. */
struct MK(pair_args) {
    const uint32_t *sorted, *off; /* the group's entries and bins (round 0) */
    const AFF *bases;
    const AFF *in;            /* round r's lists (r >= 1) */
    AFF *out;                 /* round r + 1's lists */
    XYZZ *buckets;            /* the bins' sums */
    const uint32_t *scan_in;  /* round r's list starts (r >= 1), nbins + 1 */
    const uint32_t *scan_out; /* round r + 1's */
    const uint32_t *cs;       /* chunk starts: first bin of each chunk */
    uint32_t q, r, nbins, medium;
    uint32_t e0, o0; /* the chunk's first entry or list start, round r and r + 1 */
};

/* a->e0 and a->o0 from the chunk's first bin. */
static __host__ __device__ __forceinline__ void MK(pair_base)(MK(pair_args) * a)
{
    uint32_t b0 = a->cs[a->q];
    a->e0 = a->r ? a->scan_in[b0] : a->off[b0];
    a->o0 = a->scan_out[b0];
}

/* Per-thread state between the forward walk, the block's inversion and the
 * backward walk. */
struct MK(pair_state) {
    FT run;               /* product of the pairs' x2 - x1, then its inverse */
    FT pre[PAIR_K];       /* product of the earlier pairs' */
    uint32_t at[PAIR_K];  /* first position (chunk-relative) */
    uint32_t dst[PAIR_K]; /* list index, or PAIR_BUCKET | bin */
    uint32_t n, special;  /* pairs; bit i: pair i takes the slow path */
};

/* Where bin b's round-r list starts, relative to the chunk. */
static __host__ __device__ __forceinline__ uint32_t MK(pair_pos)(const MK(pair_args) * a,
                                                                 uint32_t b)
{
    return (a->r ? a->scan_in[b] : a->off[b]) - a->e0;
}

/* Bin b's round-r list length (0: not a light bin of 2 or more). */
static __host__ __device__ __forceinline__ uint32_t MK(pair_len)(const MK(pair_args) * a,
                                                                 uint32_t b)
{
    if (a->r)
        return a->scan_in[b + 1] - a->scan_in[b];
    uint32_t cnt = a->off[b + 1] - a->off[b];
    return cnt >= 2 && cnt <= a->medium ? cnt : 0;
}

/* The point at chunk-relative position p of round r's lists. */
static __host__ __device__ __forceinline__ void MK(pair_load)(AFF *pt, const MK(pair_args) * a,
                                                              uint32_t p)
{
    if (a->r)
        *pt = a->in[p];
    else
        MK(load)(pt, a->bases, a->sorted[a->e0 + p]);
}

static __host__ __device__ __forceinline__ void MK(pair_load_x)(FT *x, const MK(pair_args) * a,
                                                                uint32_t p)
{
    if (a->r)
        *x = a->in[p].x;
    else /* the sign changes y only */
        *x = a->bases[a->sorted[a->e0 + p] & 0x7fffffffu].x;
}

/* The positions of round r's lists in chunk q. */
static __host__ __device__ __forceinline__ uint32_t MK(pair_span)(const MK(pair_args) * a)
{
    return MK(pair_pos)(a, a->cs[a->q + 1]);
}

/* Where pair j / 2 of bin b (or its carried last point) goes. */
static __host__ __device__ __forceinline__ uint32_t MK(pair_dst)(const MK(pair_args) * a,
                                                                 uint32_t b, uint32_t j)
{
    uint32_t m = a->scan_out[b + 1] - a->scan_out[b];
    if (m < 2)
        return PAIR_BUCKET | b;
    return a->scan_out[b] - a->o0 + j / 2;
}

/* acc += p given the chord's (or tangent's) slope lam. */
static __host__ __device__ __forceinline__ void MK(pair_finish)(AFF *acc, const AFF *p,
                                                                const FT *lam)
{
    FT t, x3;
    FLD(sqr)(&t, lam);
    FLD(sub)(&t, &t, &acc->x);
    FLD(sub)(&x3, &t, &p->x);
    FLD(sub)(&t, &acc->x, &x3);
    FLD(mul)(&t, &t, lam);
    FLD(sub)(&acc->y, &t, &acc->y);
    acc->x = x3;
}

/* acc += p with an inversion of its own: the special pairs only. */
static __host__ __device__ __noinline__ void MK(pair_slow)(AFF *acc, const AFF *p)
{
    if (EC(affine_is_inf)(p))
        return;
    if (EC(affine_is_inf)(acc)) {
        *acc = *p;
        return;
    }
    FT num, den, lam, t;
    if (!FLD(equal)(&acc->x, &p->x)) {
        FLD(sub)(&num, &p->y, &acc->y);
        FLD(sub)(&den, &p->x, &acc->x);
    } else if (FLD(equal)(&acc->y, &p->y) && !FLD(is_zero)(&p->y)) {
        FLD(sqr)(&t, &p->x); /* lambda = 3 x^2 / 2 y */
        FLD(dbl)(&num, &t);
        FLD(add)(&num, &num, &t);
        FLD(dbl)(&den, &p->y);
    } else {
        EC(affine_set_inf)(acc); /* p = -acc */
        return;
    }
    FLD(inv_var)(&den, &den);
    FLD(mul)(&lam, &num, &den);
    MK(pair_finish)(acc, p, &lam);
}

static __host__ __device__ __forceinline__ void MK(pair_put)(const MK(pair_args) * a, uint32_t dst,
                                                             const AFF *pt)
{
    if (dst & PAIR_BUCKET)
        EC(xyzz_from_affine)(&a->buckets[dst & ~PAIR_BUCKET], pt);
    else
        a->out[dst] = *pt;
}

/* Thread t's pairs: positions [2 PAIR_K t, 2 PAIR_K (t + 1)) of the round's
 * lists; a pair belongs to the thread of its first point. The walk finds
 * them (and moves the carried points) before any arithmetic, so that the
 * lanes of a warp then multiply in step. */
static __host__ __device__ void MK(pair_forward)(MK(pair_state) * st, const MK(pair_args) * a,
                                                 uint32_t t)
{
    FLD(set_one)(&st->run);
    st->n = 0;
    st->special = 0;
    uint32_t span = MK(pair_span)(a), p0 = 2 * PAIR_K * t;
    if (p0 >= span)
        return;
    uint32_t p1 = span - p0 > 2 * PAIR_K ? p0 + 2 * PAIR_K : span;
    /* the last bin of the chunk that starts at or before p0 */
    uint32_t lo = a->cs[a->q], hi = a->cs[a->q + 1];
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (MK(pair_pos)(a, mid) <= p0)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t b = lo, bs = MK(pair_pos)(a, b), be = MK(pair_pos)(a, b + 1), m = MK(pair_len)(a, b);
    MSM_NO_UNROLL
    for (uint32_t p = p0; p < p1; p++) {
        while (p >= be) {
            b++;
            bs = be;
            be = MK(pair_pos)(a, b + 1);
            m = MK(pair_len)(a, b);
        }
        uint32_t j = p - bs;
        if (j >= m || (j & 1))
            continue;
        if (j + 1 == m) { /* the odd last point, carried */
            AFF pt;
            MK(pair_load)(&pt, a, p);
            MK(pair_put)(a, MK(pair_dst)(a, b, j), &pt);
            continue;
        }
        st->at[st->n] = p;
        st->dst[st->n] = MK(pair_dst)(a, b, j);
        st->n++;
    }
    MSM_NO_UNROLL
    for (uint32_t i = 0; i < st->n; i++) {
        FT x1, x2, d;
        MK(pair_load_x)(&x1, a, st->at[i]);
        MK(pair_load_x)(&x2, a, st->at[i] + 1);
        FLD(sub)(&d, &x2, &x1);
        if (FLD(is_zero)(&d) || FLD(is_zero)(&x1) || FLD(is_zero)(&x2)) {
            st->special |= 1u << i;
            continue;
        }
        st->pre[i] = st->run;
        FLD(mul)(&st->run, &st->run, &d);
    }
}

/* st->run holds the inverse of the thread's product: the sums, last pair
 * first. */
static __host__ __device__ void MK(pair_backward)(MK(pair_state) * st, const MK(pair_args) * a)
{
    MSM_NO_UNROLL
    for (uint32_t i = st->n; i-- > 0;) {
        AFF p1, p2;
        MK(pair_load)(&p1, a, st->at[i]);
        MK(pair_load)(&p2, a, st->at[i] + 1);
        if ((st->special >> i) & 1) {
            MK(pair_slow)(&p1, &p2);
        } else {
            FT d, ik, lam, t;
            FLD(sub)(&d, &p2.x, &p1.x);
            FLD(mul)(&ik, &st->run, &st->pre[i]);
            FLD(mul)(&st->run, &st->run, &d);
            FLD(sub)(&t, &p2.y, &p1.y);
            FLD(mul)(&lam, &t, &ik);
            MK(pair_finish)(&p1, &p2, &lam);
        }
        MK(pair_put)(a, st->dst[i], &p1);
    }
}

/* The product tree of a block's values (leaves tree[n .. 2n), n a power
 * of two): node i of the level of `half` nodes is done by `k`, as a thread
 * (device) or a loop (host). Up: products; then the root inverted; down:
 * inv(left) = inv(parent) right, inv(right) = inv(parent) left. */
static __host__ __device__ __forceinline__ void MK(pair_tree_up)(FT *tree, uint32_t i)
{
    FLD(mul)(&tree[i], &tree[2 * i], &tree[2 * i + 1]);
}

static __host__ __device__ __forceinline__ void MK(pair_tree_down)(FT *tree, uint32_t i)
{
    FT l = tree[2 * i];
    FLD(mul)(&tree[2 * i], &tree[i], &tree[2 * i + 1]);
    FLD(mul)(&tree[2 * i + 1], &tree[i], &l);
}

/* One round of chunk q: a block of PAIR_THREADS threads. CUZK_MSM_PAIR_MINB
 * (an experiment) asks for that many blocks an SM. */
#ifdef CUZK_MSM_PAIR_MINB
#define MSM_PAIR_BOUNDS __launch_bounds__(PAIR_THREADS, CUZK_MSM_PAIR_MINB)
#else
#define MSM_PAIR_BOUNDS __launch_bounds__(PAIR_THREADS)
#endif
__global__ void MSM_PAIR_BOUNDS MK(pairs)(MK(pair_args) arg)
{
    __shared__ FT tree[2 * PAIR_THREADS];
    MK(pair_args) a = arg;
    MK(pair_base)(&a);
    uint32_t t = blockIdx.x * PAIR_THREADS + threadIdx.x;
    if (blockIdx.x * PAIR_THREADS * 2 * PAIR_K >= MK(pair_span)(&a))
        return; /* the whole block past the lists */
    MK(pair_state) st;
    MK(pair_forward)(&st, &a, t);
    tree[PAIR_THREADS + threadIdx.x] = st.run;
    __syncthreads();
    for (uint32_t half = PAIR_THREADS / 2; half >= 1; half /= 2) {
        if (threadIdx.x < half)
            MK(pair_tree_up)(tree, half + threadIdx.x);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        FLD(inv_var)(&tree[1], &tree[1]);
    __syncthreads();
    for (uint32_t half = 1; half < PAIR_THREADS; half *= 2) {
        if (threadIdx.x < half)
            MK(pair_tree_down)(tree, half + threadIdx.x);
        __syncthreads();
    }
    st.run = tree[PAIR_THREADS + threadIdx.x];
    MK(pair_backward)(&st, &a);
}

/* Bin b before the rounds: heavy ones become jobs, medium ones go to the
 * block kernel, bins of 0 or 1 point are their sums; scan[r - 1][b] =
 * round r's list length when 2 or more, for r = 1 .. rounds (the thread
 * of b = nbins writes the scans' last zero). */
static __host__ __device__ void
MK(pair_prep_bin)(uint32_t b, XYZZ *buckets, const uint32_t *sorted, const uint32_t *off,
                  uint32_t nbins, const AFF *bases, cuda_msm_job_t *jobs, cuda_msm_range_t *heavy,
                  uint32_t *ctl, uint32_t medium, uint32_t *med, uint32_t *scan, uint32_t rounds)
{
    uint32_t m = 0;
    if (b < nbins) {
        uint32_t lo = off[b], hi = off[b + 1], cnt = hi - lo;
        if (cnt > CUDA_MSM_HEAVY) {
            msm_heavy_jobs(lo, hi, b, CUDA_MSM_PIECE, jobs, heavy, ctl);
        } else if (cnt > medium) {
            med[msm_atomic_add(&ctl[CTL_MED], 1)] = b;
        } else if (cnt <= 1) {
            AFF p;
            if (cnt)
                MK(load)(&p, bases, sorted[lo]);
            else
                EC(affine_set_inf)(&p);
            EC(xyzz_from_affine)(&buckets[b], &p);
        } else {
            m = cnt;
        }
    }
    for (uint32_t r = 1; r <= rounds; r++) {
        uint32_t mr = (uint32_t)(((uint64_t)m + (1u << r) - 1) >> r);
        scan[(size_t)(r - 1) * (nbins + 1) + b] = mr >= 2 ? mr : 0;
    }
}

__global__ void MK(pair_prep)(XYZZ *buckets, const uint32_t *sorted, const uint32_t *off,
                              uint32_t nbins, const AFF *bases, cuda_msm_job_t *jobs,
                              cuda_msm_range_t *heavy, uint32_t *ctl, uint32_t medium,
                              uint32_t *med, uint32_t *scan, uint32_t rounds)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b <= nbins)
        MK(pair_prep_bin)
    (b, buckets, sorted, off, nbins, bases, jobs, heavy, ctl, medium, med, scan, rounds);
}

/* cs[q] = the first bin whose entries start at or after q C, q <= nq
 * (cs[nq] = nbins). */
static __host__ __device__ __forceinline__ uint32_t MK(pair_chunk_start)(const uint32_t *off,
                                                                         uint32_t nbins, uint32_t q,
                                                                         uint32_t nq,
                                                                         uint32_t chunk)
{
    if (q >= nq)
        return nbins;
    uint64_t v = (uint64_t)q * chunk;
    return v > off[nbins] ? nbins : msm_lower_bound(off, nbins, (uint32_t)v);
}

__global__ void MK(pair_chunks)(uint32_t *cs, const uint32_t *off, uint32_t nbins, uint32_t nq,
                                uint32_t chunk)
{
    uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q <= nq)
        cs[q] = MK(pair_chunk_start)(off, nbins, q, nq, chunk);
}

/* The lists left after the rounds (scan: their starts), a thread a bin of
 * chunk q, summed in XYZZ into the buckets. */
static __host__ __device__ void MK(pair_chain_bin)(XYZZ *buckets, const AFF *list,
                                                   const uint32_t *scan, const uint32_t *cs,
                                                   uint32_t q, uint32_t b)
{
    uint32_t m = scan[b + 1] - scan[b];
    if (m < 2)
        return;
    const AFF *l = list + (scan[b] - scan[cs[q]]);
    XYZZ acc;
    EC(xyzz_from_affine)(&acc, &l[0]);
    MSM_NO_UNROLL
    for (uint32_t i = 1; i < m; i++) {
#if defined(__CUDA_ARCH__) && MSM_CHAIN_LAZY
        MK(add_aff_lz)(&acc, &acc, &l[i]);
#elif defined(__CUDA_ARCH__)
        MK(add_aff)(&acc, &acc, &l[i]);
#else
        EC(xyzz_add_affine)(&acc, &acc, &l[i]);
#endif
    }
#if defined(__CUDA_ARCH__) && MSM_CHAIN_LAZY
    EC(xyzz_canon)(&acc, &acc);
#endif
    buckets[b] = acc;
}

__global__ void MK(pair_chain)(XYZZ *buckets, const AFF *list, const uint32_t *scan,
                               const uint32_t *cs, uint32_t q)
{
    uint32_t b0 = cs[q], b1 = cs[q + 1];
    for (uint32_t b = b0 + blockIdx.x * blockDim.x + threadIdx.x; b < b1;
         b += gridDim.x * blockDim.x)
        MK(pair_chain_bin)(buckets, list, scan, cs, q, b);
}

/* Where the lists of round r (>= 1) live: odd rounds in a, even in b. */
static __host__ __device__ __forceinline__ AFF *MK(pair_buf)(void *a, void *b, uint32_t r)
{
    return (AFF *)((r & 1) ? a : b);
}

/* The rounds' arguments but the chunk and round. */
static __host__ __device__ MK(pair_args)
    MK(pair_args_make)(const uint32_t *sorted, const uint32_t *off, const AFF *bases, XYZZ *buckets,
                       const uint32_t *cs, uint32_t nbins, uint32_t medium)
{
    MK(pair_args) a;
    memset(&a, 0, sizeof a);
    a.sorted = sorted;
    a.off = off;
    a.bases = bases;
    a.buckets = buckets;
    a.cs = cs;
    a.nbins = nbins;
    a.medium = medium;
    return a;
}

/* Round r's lists in and out (buffers la, lb) and list starts. */
static __host__ __device__ void MK(pair_round)(MK(pair_args) * a, uint32_t r, void *la, void *lb,
                                               const uint32_t *scan)
{
    a->r = r;
    a->in = r ? MK(pair_buf)(la, lb, r) : NULL;
    a->out = MK(pair_buf)(la, lb, r + 1);
    a->scan_in = r ? scan + (size_t)(r - 1) * (a->nbins + 1) : NULL;
    a->scan_out = scan + (size_t)r * (a->nbins + 1);
}

/* Threads of round r for a chunk of C entries (2 PAIR_K positions each). */
static __host__ __device__ size_t MK(pair_threads)(uint32_t C, uint32_t r)
{
    size_t cap = r ? cuda_msm_pair_cap(C, r) : (size_t)C + CUDA_MSM_HEAVY;
    return (cap + 2 * PAIR_K - 1) / (2 * PAIR_K);
}

/* The light bins of sorted[0 .. off[nbins]) (at most `entries`) into
 * dst by the rounds, on stream s; heavy and medium ones are listed for
 * the block kernels as the XYZZ kernel lists them. */
static cuzk_status MK(pair_bins)(XYZZ *dst, cuda_msm_plan_t *p, const uint32_t *sorted,
                                 const uint32_t *off, uint32_t nbins, uint64_t entries,
                                 const AFF *bases, uint32_t medium, cudaStream_t s,
                                 cuzk_error_t *err)
{
    uint32_t R = p->pair_rounds, C = p->pair_chunk;
    uint32_t *scan = p->pair_scan;
    MK(pair_prep)<<<(nbins + 1 + 127) / 128, 128, 0, s>>>(
        dst, sorted, off, nbins, bases, p->jobs, p->ranges, p->ctl, medium, p->med, scan, R);
    cuzk_status st = CUDA_CHECK(cudaGetLastError(), err);
    for (uint32_t r = 0; r < R && st == CUZK_OK; r++) {
        uint32_t *sc = scan + (size_t)r * (nbins + 1);
        st = msm_scan(sc, sc, nbins + 1, p->tile_sums, s, err);
    }
    uint32_t nq = (uint32_t)(entries / C + 1);
    if (st != CUZK_OK)
        return st;
    MK(pair_chunks)<<<(nq + 1 + 255) / 256, 256, 0, s>>>(p->pair_cs, off, nbins, nq, C);
    MK(pair_args) a = MK(pair_args_make)(sorted, off, bases, dst, p->pair_cs, nbins, medium);
    for (uint32_t q = 0; q < nq; q++) {
        a.q = q;
        for (uint32_t r = 0; r < R; r++) {
            MK(pair_round)(&a, r, p->pair_a, p->pair_b, scan);
            size_t threads = MK(pair_threads)(C, r);
            MK(pairs)<<<(unsigned)((threads + PAIR_THREADS - 1) / PAIR_THREADS), PAIR_THREADS, 0,
                        s>>>(a);
        }
        MK(pair_chain)<<<4 * p->sms, 128, 0, s>>>(dst, MK(pair_buf)(p->pair_a, p->pair_b, R),
                                                  scan + (size_t)(R - 1) * (nbins + 1), p->pair_cs,
                                                  q);
    }
    return CUDA_CHECK(cudaGetLastError(), err);
}
