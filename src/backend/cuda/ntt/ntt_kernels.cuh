/* The NTT's kernels (included by ntt.cu only; the algorithm is described
 * there). Every kernel body is a __host__ __device__ function of its block
 * and thread index, so that ntt.cu's host emulation runs the same code. */
#ifndef CUZK_CUDA_NTT_KERNELS_CUH
#define CUZK_CUDA_NTT_KERNELS_CUH

#include <stdint.h>

#include "backend/cuda/ntt/ntt.cuh"

#define NTT_RADIX_LOG 3 /* elements per thread per round: 8 */
#define NTT_RADIX (1 << NTT_RADIX_LOG)
#define NTT_COLS_MAX_LOG 2 /* columns per block: 4 x 32 B = 128-byte runs */
#define NTT_BLOCK_MAX_LOG (CUDA_NTT_PASS_MAX_LOG + NTT_COLS_MAX_LOG)
#define NTT_THREADS_MAX (1 << (NTT_BLOCK_MAX_LOG - NTT_RADIX_LOG))
#define NTT_SMEM_MAX ((size_t)sizeof(dfr_t) << NTT_BLOCK_MAX_LOG) /* 64 KiB */
#define NTT_TILE_LOG 4 /* bit reversal in 16 x 16 tiles */
#define NTT_TILE (1 << NTT_TILE_LOG)
#define NTT_TILE_ELEMS (NTT_TILE * NTT_TILE)
#define NTT_BLOCK_SMALL 128 /* threads of the elementwise kernels */

#if NTT_MAX_LOG > 31
#error "element indices are 32-bit"
#endif
#if CUDA_NTT_PASS_MAX_LOG < NTT_RADIX_LOG
#error "a pass must hold at least one round"
#endif

/* ---- helpers ---------------------------------------------------------------- */

/* The kernels' Fr multiplication. Out of line (-DCUZK_NTT_INLINE_MUL=0:
 * one copy on the device, operands and result in registers) it once
 * saved the instruction cache: inlined, the ~300 instructions of each of
 * a pass's ~80 products made ntt_dif_pass<9> 27,500 instructions (440 KB)
 * and Nsight Compute showed "no instruction" as the largest stall at
 * 2^27. Since the later passes read one direct twiddle table (stop 39) a
 * pass holds fewer products; inlined with the lazy products it is 11,680
 * instructions against 4,728 and 6.6% faster (2^27 forward 48.76 ->
 * 45.51 ms, every kind and 2^24 alike, H100, stop 42). The host emulation
 * calls dfr_mul. */
#ifndef CUZK_NTT_INLINE_MUL
#define CUZK_NTT_INLINE_MUL 1
#endif
#if defined(__CUDA_ARCH__) && !CUZK_NTT_INLINE_MUL
static __device__ __noinline__ dfr_t ntt_mul_call(dfr_t a, dfr_t b)
{
    dfr_t r;
    dfr_mul(&r, &a, &b);
    return r;
}
#endif

static CUZK_HD void ntt_mul(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
#if defined(__CUDA_ARCH__) && !CUZK_NTT_INLINE_MUL
    *out = ntt_mul_call(*a, *b);
#else
    dfr_mul(out, a, b);
#endif
}

/* CUZK_NTT_LAZY: the passes keep elements in [0, 2r) (field.cuh's Fr lazy
 * forms): a product by a twiddle skips its final conditional subtraction
 * (~17 of its ~300 instructions), sums and differences cost as before, and
 * the bit reversal reduces each element once. Only the twiddle, always
 * reduced, may be the product's first factor (4r > 2^256). */
#ifndef CUZK_NTT_LAZY
#define CUZK_NTT_LAZY 1
#endif

#if CUZK_NTT_LAZY && defined(__CUDA_ARCH__) && !CUZK_NTT_INLINE_MUL
static __device__ __noinline__ dfr_t ntt_mul_w_call(dfr_t w, dfr_t v)
{
    dfr_t r;
    dfr_mul_lz(&r, &w, &v);
    return r;
}
#endif

/* out = v w for a reduced twiddle w: in [0, 2r) when lazy. */
static CUZK_HD void ntt_mul_w(dfr_t *out, const dfr_t *w, const dfr_t *v)
{
#if !CUZK_NTT_LAZY
    ntt_mul(out, v, w);
#elif defined(__CUDA_ARCH__) && !CUZK_NTT_INLINE_MUL
    *out = ntt_mul_w_call(*w, *v);
#else
    dfr_mul_lz(out, w, v);
#endif
}

/* rev of the low `bits` bits of x (1 <= bits <= 32). */
static CUZK_HD uint32_t ntt_rev(uint32_t x, unsigned bits)
{
#ifdef __CUDA_ARCH__
    return __brev(x) >> (32 - bits);
#else
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return ((x >> 16) | (x << 16)) >> (32 - bits);
#endif
}

/* w^e from a two-level table: lo[e mod 2^half] hi[e >> half]. */
static CUZK_HD void ntt_pow2l(dfr_t *out, const dfr_t *__restrict__ lo,
                              const dfr_t *__restrict__ hi, unsigned half, uint32_t e)
{
    *out = lo[e & ((1u << half) - 1)];
    uint32_t h = e >> half;
    if (h) {
        dfr_t x = hi[h];
        ntt_mul(out, out, &x);
    }
}

/* first base^j by square-and-multiply: table entries are independent. */
static CUZK_HD void ntt_power(dfr_t *out, uint32_t j, const dfr_t *base, const dfr_t *first)
{
    dfr_t acc = *first, b = *base;
    for (uint32_t e = j; e; e >>= 1) {
        if (e & 1)
            dfr_mul(&acc, &acc, &b);
        if (e > 1)
            dfr_sqr(&b, &b);
    }
    *out = acc;
}

/* DIF butterfly: (x, y) <- (x + y, (x - y) w); w NULL means 1. */
static CUZK_HD void ntt_butterfly(dfr_t *x, dfr_t *y, const dfr_t *__restrict__ w)
{
    dfr_t d;
#if CUZK_NTT_LAZY
    dfr_sub_lz(&d, x, y);
    dfr_add_lz(x, x, y);
#else
    dfr_sub(&d, x, y);
    dfr_add(x, x, y);
#endif
    if (w) {
        dfr_t wv = *w;
        ntt_mul_w(y, &wv, &d);
    } else {
        *y = d;
    }
}

static CUZK_HD void ntt_pack(uint4 *lo, uint4 *hi, const dfr_t *v)
{
    *lo = make_uint4(v->l[0], v->l[1], v->l[2], v->l[3]);
    *hi = make_uint4(v->l[4], v->l[5], v->l[6], v->l[7]);
}

static CUZK_HD void ntt_unpack(dfr_t *v, uint4 lo, uint4 hi)
{
    v->l[0] = lo.x, v->l[1] = lo.y, v->l[2] = lo.z, v->l[3] = lo.w;
    v->l[4] = hi.x, v->l[5] = hi.y, v->l[6] = hi.z, v->l[7] = hi.w;
}

/* ---- the DIF pass ------------------------------------------------------------- */

typedef struct ntt_pass {
    dfr_t *a;
    const dfr_t *blk;             /* this direction's w_{2^kb}^j */
    const dfr_t *tw_lo, *tw_hi;   /* w_n two-level: the first pass's twiddles, else NULL */
    const dfr_t *tw_dir;          /* the domain's tw2: a later pass's, else NULL */
    unsigned tw_shift;            /* tw_dir's index is e << tw_shift */
    const dfr_t *pre_lo, *pre_hi; /* coset g^x two-level; NULL: none (first pass only) */
    unsigned log_n, half, kb;
    unsigned r; /* bits of the sub-problems this pass starts */
    unsigned k; /* bits of the in-block DFT: the top k of the r */
    unsigned c; /* columns per block, log2; c <= s */
} ntt_pass_t;

/* A block's place: columns t < 2^c of rows p < 2^k; element (t, p) is
 * a[base + (p << s) + t]. */
typedef struct ntt_geom {
    size_t base;
    uint32_t lo0;           /* column of t = 0 inside its sub-problem */
    uint32_t elems;         /* 2^(k+c), also the offset of the high halves in shared memory */
    unsigned s, c, k, tlog; /* tlog: log2 of the block's threads */
} ntt_geom_t;

static CUZK_HD ntt_geom_t ntt_geom_of(const ntt_pass_t &P, uint32_t block)
{
    ntt_geom_t G;
    G.k = P.k;
    G.c = P.c;
    G.s = P.r - P.k;
    G.tlog = P.k + P.c - NTT_RADIX_LOG;
    G.elems = 1u << (P.k + P.c);
    const size_t first = (size_t)block << P.c; /* t = 0's transform: (sub, lo) */
    const size_t lo_mask = ((size_t)1 << G.s) - 1;
    G.lo0 = (uint32_t)(first & lo_mask);
    G.base = ((first >> G.s) << P.r) | G.lo0; /* c <= s: the block's columns share a sub */
    return G;
}

/* Which element slot u of thread tid holds in a round over p's bits
 * [hi - RHO, hi): the thread's "other" index o = tid + (u >> RHO) 2^tlog
 * is (t, p's bits below the round, p's bits above it), low to high, and
 * u's low RHO bits are the round's bits. Consecutive threads take
 * consecutive t, then consecutive low rows: the shared-memory accesses of
 * every round stay conflict-free (ntt_sh_index) and the global ones come in
 * 2^c-element runs. Returns p, t in *t. */
template <int RHO>
static CUZK_HD uint32_t ntt_slot(uint32_t *t, const ntt_geom_t &G, uint32_t tid, unsigned hi, int u)
{
    const unsigned lo_b = hi - RHO;
    uint32_t o = tid + ((uint32_t)(u >> RHO) << G.tlog);
    *t = o & ((1u << G.c) - 1);
    uint32_t rest = o >> G.c;
    uint32_t q = (uint32_t)u & ((1u << RHO) - 1);
    return ((rest >> lo_b) << hi) | (q << lo_b) | (rest & ((1u << lo_b) - 1));
}

/* Shared memory: element i = (p << c) | t as two 16-byte halves in two
 * arrays (a 32-byte element read as one would take two wavefronts per 8
 * threads); bit 2 of i flipped by bit 5 so that the last round's pattern
 * (runs of 4 columns, 32 elements apart) hits all banks. A bijection of
 * [0, elems): bit 5 is set only when elems >= 64. */
static CUZK_HD uint32_t ntt_sh_index(uint32_t t, uint32_t p, unsigned c)
{
    uint32_t i = (p << c) | t;
    return i ^ (((i >> 5) & 1u) << 2);
}

/* The RHO radix-2 stages of a round, on p's bits hi-1 down to hi-RHO. The
 * stage on bit b pairs p and p + 2^b (bit b of p clear) with twiddle
 * w_{2^(b+1)}^(p mod 2^b) = blk[(p mod 2^b) << (kb - 1 - b)]. */
template <int RHO>
static CUZK_HD void ntt_stages(dfr_t *v, const ntt_pass_t &P, const ntt_geom_t &G, uint32_t tid,
                               unsigned hi)
{
    const unsigned lo_b = hi - RHO;
    CUZK_UNROLL
    for (int qb = RHO - 1; qb >= 0; qb--) {
        const unsigned b = lo_b + (unsigned)qb;
        CUZK_UNROLL
        for (int u = 0; u < NTT_RADIX; u++) {
            if (u & (1 << qb))
                continue;
            uint32_t t, p = ntt_slot<RHO>(&t, G, tid, hi, u);
            uint32_t pm = p & ((1u << b) - 1);
            ntt_butterfly(&v[u], &v[u + (1 << qb)], pm ? &P.blk[pm << (P.kb - 1 - b)] : NULL);
        }
    }
}

/* The first round's elements from global memory, times g^x for a coset
 * (the first pass starts the whole vector: x is the global index). */
template <int RHO>
static CUZK_HD void ntt_load_global(dfr_t *v, const ntt_pass_t &P, const ntt_geom_t &G,
                                    uint32_t tid, unsigned hi)
{
    size_t x[NTT_RADIX];
    CUZK_UNROLL
    for (int u = 0; u < NTT_RADIX; u++) {
        uint32_t t, p = ntt_slot<RHO>(&t, G, tid, hi, u);
        x[u] = G.base + ((size_t)p << G.s) + t;
        v[u] = P.a[x[u]];
    }
    if (!P.pre_lo)
        return;
    CUZK_UNROLL
    for (int u = 0; u < NTT_RADIX; u++) {
        dfr_t gx;
        ntt_pow2l(&gx, P.pre_lo, P.pre_hi, P.half, (uint32_t)x[u]);
        ntt_mul_w(&v[u], &gx, &v[u]);
    }
}

/* The last round's elements to global memory, after the four-step twiddle
 * w_{2^r}^(lo rev_k(p)) = w_n^((lo rev_k(p)) << (log_n - r)): from the
 * two-level table in the first pass, from the direct one after it (none
 * in the last pass, s = 0). */
template <int RHO>
static CUZK_HD void ntt_store_global(dfr_t *v, const ntt_pass_t &P, const ntt_geom_t &G,
                                     uint32_t tid)
{
    CUZK_UNROLL
    for (int u = 0; u < NTT_RADIX; u++) {
        uint32_t t, p = ntt_slot<RHO>(&t, G, tid, RHO, u);
        if (P.tw_lo || P.tw_dir) {
            uint32_t e = (G.lo0 + t) * ntt_rev(p, G.k);
            if (e) {
                dfr_t w;
                if (P.tw_dir)
                    w = P.tw_dir[e << P.tw_shift];
                else
                    ntt_pow2l(&w, P.tw_lo, P.tw_hi, P.half, e << (P.log_n - P.r));
                ntt_mul_w(&v[u], &w, &v[u]);
            }
        }
        P.a[G.base + ((size_t)p << G.s) + t] = v[u];
    }
}

/* One thread's share of one round over p's bits [hi - RHO, hi): its
 * elements from global memory (the first round, hi = k) or shared memory,
 * the round's stages, then to shared memory or, in the last round
 * (hi == RHO), to global memory. */
template <int RHO>
static CUZK_HD void ntt_round(const ntt_pass_t &P, const ntt_geom_t &G, uint4 *sh, uint32_t tid,
                              unsigned hi, bool first)
{
    dfr_t v[NTT_RADIX];
    if (first) {
        ntt_load_global<RHO>(v, P, G, tid, hi);
    } else {
        CUZK_UNROLL
        for (int u = 0; u < NTT_RADIX; u++) {
            uint32_t t, p = ntt_slot<RHO>(&t, G, tid, hi, u);
            uint32_t i = ntt_sh_index(t, p, G.c);
            ntt_unpack(&v[u], sh[i], sh[G.elems + i]);
        }
    }
    ntt_stages<RHO>(v, P, G, tid, hi);
    if (hi == RHO) {
        ntt_store_global<RHO>(v, P, G, tid);
        return;
    }
    CUZK_UNROLL
    for (int u = 0; u < NTT_RADIX; u++) {
        uint32_t t, p = ntt_slot<RHO>(&t, G, tid, hi, u);
        uint32_t i = ntt_sh_index(t, p, G.c);
        ntt_pack(&sh[i], &sh[G.elems + i], &v[u]);
    }
}

/* One pass of k = K bits: n / 2^(K+c) blocks of 2^(K+c-3) threads,
 * dynamic shared memory 2^(K+c) x 32 bytes (none when K == 3). Rounds of 3
 * bits from the top, the K mod 3 lowest bits last; K is a template
 * argument so that the rounds unroll into straight-line code (a run-time
 * round loop kept three rounds' registers live and spilled). Every element
 * of a round belongs to one thread, so a barrier is needed only between
 * one round's stores and the next one's loads. */
template <int K>
static __global__ void __launch_bounds__(NTT_THREADS_MAX) ntt_dif_pass(ntt_pass_t P)
{
    extern __shared__ uint4 ntt_sh[];
    const ntt_geom_t G = ntt_geom_of(P, blockIdx.x);
    CUZK_UNROLL
    for (int i = 0; i < K / 3; i++) {
        ntt_round<3>(P, G, ntt_sh, threadIdx.x, K - 3 * i, i == 0);
        if (K - 3 * (i + 1) > 0)
            __syncthreads();
    }
    if (K % 3 == 2)
        ntt_round<2>(P, G, ntt_sh, threadIdx.x, 2, false);
    if (K % 3 == 1)
        ntt_round<1>(P, G, ntt_sh, threadIdx.x, 1, false);
}

/* log_n in 1..2: the whole DIF (and coset pre-scale) on one thread. */
static CUZK_HD void ntt_dif_tiny_body(dfr_t *a, unsigned log_n, unsigned half,
                                      const dfr_t *__restrict__ tw_lo,
                                      const dfr_t *__restrict__ tw_hi,
                                      const dfr_t *__restrict__ pre_lo,
                                      const dfr_t *__restrict__ pre_hi)
{
    const uint32_t n = 1u << log_n;
    if (pre_lo)
        for (uint32_t x = 1; x < n; x++) {
            dfr_t gx;
            ntt_pow2l(&gx, pre_lo, pre_hi, half, x);
            dfr_mul(&a[x], &a[x], &gx);
        }
    for (int b = (int)log_n - 1; b >= 0; b--)
        for (uint32_t p = 0; p < n; p++) {
            if (p & (1u << b))
                continue;
            uint32_t pm = p & ((1u << b) - 1);
            dfr_t w;
            ntt_pow2l(&w, tw_lo, tw_hi, half, pm << (log_n - 1 - (unsigned)b));
            ntt_butterfly(&a[p], &a[p + (1u << b)], pm ? &w : NULL);
        }
}

static __global__ void ntt_dif_tiny(dfr_t *a, unsigned log_n, unsigned half, const dfr_t *tw_lo,
                                    const dfr_t *tw_hi, const dfr_t *pre_lo, const dfr_t *pre_hi)
{
    ntt_dif_tiny_body(a, log_n, half, tw_lo, tw_hi, pre_lo, pre_hi);
}

/* ---- bit reversal with scaling ------------------------------------------------- */

typedef enum ntt_scale_mode { NTT_SCALE_NONE = 0, NTT_SCALE_CONST, NTT_SCALE_TABLE } ntt_scale_mode;

/* What the element written to position i is multiplied by: nothing, a
 * constant (n^-1), or lo/hi two-level (n^-1 g^-i). */
typedef struct ntt_scale {
    ntt_scale_mode mode;
    unsigned half;
    dfr_t c;
    const dfr_t *lo, *hi;
} ntt_scale_t;

static CUZK_HD void ntt_scale_apply(dfr_t *v, uint32_t i, const ntt_scale_t &S)
{
    dfr_t f;
    if (S.mode == NTT_SCALE_CONST) {
        f = S.c;
    } else if (S.mode == NTT_SCALE_TABLE) {
        ntt_pow2l(&f, S.lo, S.hi, S.half, i);
    } else {
#if CUZK_NTT_LAZY
        dfr_canon(v, v);
#endif
        return;
    }
    ntt_mul(v, &f, v); /* f first: a full product of reduced f and lazy v is reduced */
}

/* a[i] <- s_i a[rev i] for 1 <= log_n < 2 NTT_TILE_LOG: element i swaps
 * the pair (i, rev i) when i <= rev i. */
static CUZK_HD void ntt_bitrev_small_body(dfr_t *a, unsigned log_n, const ntt_scale_t &S,
                                          uint32_t i)
{
    uint32_t j = ntt_rev(i, log_n);
    if (i > j)
        return;
    dfr_t x = a[i], y = a[j];
    ntt_scale_apply(&y, i, S);
    a[i] = y;
    if (i != j) {
        ntt_scale_apply(&x, j, S);
        a[j] = x;
    }
}

static __global__ void ntt_bitrev_small(dfr_t *a, unsigned log_n, ntt_scale_t S)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (1u << log_n))
        ntt_bitrev_small_body(a, log_n, S, i);
}

/* The tiled reversal for log_n >= 2 NTT_TILE_LOG, in place. An index is
 * (h, m, l), h and l of NTT_TILE_LOG bits; rev maps it to (rev l, rev m,
 * rev h), so the tile (., m, .) swaps with the tile (., rev m, .), both
 * read and written in rows of 16 contiguous elements (512 bytes). Block m
 * (m <= rev m) owns both tiles: all its threads read (load phase) before
 * any writes (store phase). Tiles: [2][NTT_TILE_ELEMS] 16-byte halves. */
typedef struct ntt_tile_at {
    uint32_t m, mr; /* the two tiles */
    uint32_t at_m;  /* (h, m, l) of this thread */
    uint32_t at_mr; /* (h, mr, l) */
    uint32_t h, l;
} ntt_tile_at_t;

static CUZK_HD ntt_tile_at_t ntt_tile_at(unsigned log_n, uint32_t m, uint32_t tid)
{
    const unsigned mb = log_n - 2 * NTT_TILE_LOG, hs = log_n - NTT_TILE_LOG;
    ntt_tile_at_t T;
    T.m = m;
    T.mr = mb ? ntt_rev(m, mb) : 0;
    T.h = tid >> NTT_TILE_LOG;
    T.l = tid & (NTT_TILE - 1);
    T.at_m = (T.h << hs) | (m << NTT_TILE_LOG) | T.l;
    T.at_mr = (T.h << hs) | (T.mr << NTT_TILE_LOG) | T.l;
    return T;
}

/* Tile slot (row, col): col XOR rev(row) spreads both the row-wise writes
 * and the column-wise reads over all banks. */
static CUZK_HD uint32_t ntt_tile_index(uint32_t row, uint32_t col)
{
    return (row << NTT_TILE_LOG) | (col ^ ntt_rev(row, NTT_TILE_LOG));
}

static CUZK_HD void ntt_tile_load(const dfr_t *a, const ntt_tile_at_t &T,
                                  uint4 (*ta)[NTT_TILE_ELEMS], uint4 (*tb)[NTT_TILE_ELEMS])
{
    uint32_t i = ntt_tile_index(T.h, T.l);
    dfr_t v = a[T.at_m];
    ntt_pack(&ta[0][i], &ta[1][i], &v);
    if (T.mr != T.m) {
        v = a[T.at_mr];
        ntt_pack(&tb[0][i], &tb[1][i], &v);
    }
}

/* Position (h, mr, l) takes (rev l, m, rev h) from ta; (h, m, l) takes
 * (rev l, mr, rev h) from tb. */
static CUZK_HD void ntt_tile_store(dfr_t *a, const ntt_tile_at_t &T, const ntt_scale_t &S,
                                   uint4 (*ta)[NTT_TILE_ELEMS], uint4 (*tb)[NTT_TILE_ELEMS])
{
    const uint32_t j = ntt_tile_index(ntt_rev(T.l, NTT_TILE_LOG), ntt_rev(T.h, NTT_TILE_LOG));
    dfr_t v;
    ntt_unpack(&v, ta[0][j], ta[1][j]);
    ntt_scale_apply(&v, T.at_mr, S);
    a[T.at_mr] = v;
    if (T.mr != T.m) {
        ntt_unpack(&v, tb[0][j], tb[1][j]);
        ntt_scale_apply(&v, T.at_m, S);
        a[T.at_m] = v;
    }
}

static __global__ void __launch_bounds__(NTT_TILE_ELEMS)
    ntt_bitrev_tiled(dfr_t *a, unsigned log_n, ntt_scale_t S)
{
    __shared__ uint4 ta[2][NTT_TILE_ELEMS], tb[2][NTT_TILE_ELEMS];
    const ntt_tile_at_t T = ntt_tile_at(log_n, blockIdx.x, threadIdx.x);
    if (T.mr < T.m)
        return; /* the whole block: its pair is block mr's */
    ntt_tile_load(a, T, ta, tb);
    __syncthreads();
    ntt_tile_store(a, T, S, ta, tb);
}

/* out[j] = first base^j, j < count. */
static __global__ void ntt_powers(dfr_t *out, uint32_t count, dfr_t base, dfr_t first)
{
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += gridDim.x * blockDim.x)
        ntt_power(&out[j], j, &base, &first);
}

#endif
