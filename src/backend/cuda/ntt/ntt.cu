/* The device NTT over Fr (contract: ntt.cuh).
 *
 * Algorithm. Every kind is a radix-2 decimation-in-frequency (DIF)
 * transform, natural order in, bit-reversed order out, followed by one
 * bit-reversal pass; the inverse kinds run the same DIF with omega^-1
 * (DFT_{omega^-1} is the inverse up to n^-1), so every permutation is
 * rev(i), an involution, done in place by swapping tile pairs.
 *  - The DIF is split into passes over the top remaining bits (four-step,
 *    Bailey 1990): a sub-problem of 2^r contiguous elements is 2^k rows
 *    (index p, stride 2^s, s = r - k) by 2^s columns (lo). A pass does, per
 *    column, the 2^k-point DIF over p in shared memory, then multiplies the
 *    element at (p, lo) by omega_{2^r}^(lo * rev_k(p)) (rev_k(p) is the
 *    output frequency stored at row p). Each row is then a sub-problem of
 *    2^s contiguous elements for the next pass, and the last pass (s = 0)
 *    leaves X[f] at rev_n(f).
 *  - A pass's block holds 2^k rows x 2^c consecutive columns (c <= 2:
 *    128-byte runs in global memory); each of its threads holds 8 elements
 *    in registers and does 3 radix-2 stages on them per round, so a 2^9
 *    point DIF is 3 rounds with 2 shared-memory exchanges.
 *  - Coset forward multiplies a_x by g^x as the first pass loads it. The
 *    bit-reversal pass multiplies by n^-1 (inverse) or n^-1 g^-i (coset
 *    inverse) as it writes.
 *  - Roots come from two-level tables (ntt.cuh), one Fr multiplication a
 *    lookup; the in-block DFT roots have a small table of their own, and
 *    the passes after the first a direct table of their twiddles: with k1
 *    the first pass's bits, a later pass's twiddles are powers of
 *    w_n^(2^k1), 2^(log_n - k1) of them (8 MiB at 2^27, L2-resident).
 * log_n < 3 runs on one thread (ntt_dif_tiny).
 *
 * The kernels are in ntt_kernels.cuh. Every kernel body is a __host__
 * __device__ function of its block and thread index, so the host emulation
 * (cuda_ntt_host_emu) runs the same code, block by block, thread by thread,
 * round by round (a round's threads never touch each other's elements; the
 * barriers are between rounds).
 *
 * Expected time on an H200 at 2^27 (4 GiB of data). Arithmetic per element:
 * in-block butterflies 27/2 multiplications less ~1 per pass whose twiddle
 * is 1 (10.5), plus the four-step twiddle in passes 1 and 2 and, in pass 1
 * only, its two-level product (3): ~13.5 x 2^27 = 1.8e9 Fr multiplications
 * of ~280 IMADs (CIOS on 8 limbs) = 5.1e11 IMADs, 30 ms at 1.7e13 IMAD/s;
 * the butterflies' additions issue beside them. Memory: 3 DIF passes and
 * one bit-reversal pass, each reading and writing 4 GiB, ~2.5 ms apiece at
 * ~3.5 TB/s; the DIF passes are compute-bound and hide theirs. Predicted
 * forward: ~35-40 ms (floor ~25-30 ms), inverse +2 ms (n^-1), coset kinds
 * +4 ms (two multiplications per element). */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/ntt/ntt_kernels.cuh"

using namespace cuzk_host;

#define NTT_ALIGN 256 /* bytes: each table starts on its own lines */

/* Where a transform runs: kernels on the current device, or the same
 * bodies in host loops (tests without a GPU). */
typedef enum ntt_target { NTT_ON_DEVICE = 0, NTT_ON_HOST = 1 } ntt_target;

/* ---- launches, or their host emulation ----------------------------------------- */

/* The host emulation's round: ntt_round over rho = min(3, hi) bits, rho
 * in *rho. The first round (hi = k >= 3) takes 3 bits, like the kernel's. */
static void ntt_round_emu(const ntt_pass_t &P, const ntt_geom_t &G, uint4 *sh, uint32_t tid,
                          unsigned hi, unsigned *rho)
{
    const bool first = hi == P.k;
    if (hi >= 3) {
        ntt_round<3>(P, G, sh, tid, hi, first);
        *rho = 3;
    } else if (hi == 2) {
        ntt_round<2>(P, G, sh, tid, hi, first);
        *rho = 2;
    } else {
        ntt_round<1>(P, G, sh, tid, hi, first);
        *rho = 1;
    }
}

/* The kernel for a pass of k bits (NULL outside 3..9). */
typedef void (*ntt_pass_kernel)(ntt_pass_t);
static ntt_pass_kernel pass_kernel(unsigned k)
{
    switch (k) {
    case 3: return ntt_dif_pass<3>;
    case 4: return ntt_dif_pass<4>;
    case 5: return ntt_dif_pass<5>;
    case 6: return ntt_dif_pass<6>;
    case 7: return ntt_dif_pass<7>;
    case 8: return ntt_dif_pass<8>;
    case 9: return ntt_dif_pass<9>;
    default: return NULL;
    }
}
#if CUDA_NTT_PASS_MAX_LOG != 9
#error "pass_kernel lists the kernels for k = 3..9"
#endif

static cuzk_status launch_pass(const ntt_pass_t *P, size_t n, ntt_target tg, cudaStream_t stream,
                               cuzk_error_t *err)
{
    const unsigned block_log = P->k + P->c;
    const uint32_t blocks = (uint32_t)(n >> block_log);
    const uint32_t threads = 1u << (block_log - NTT_RADIX_LOG);
    if (tg == NTT_ON_DEVICE) {
        const size_t smem = P->k > NTT_RADIX_LOG ? sizeof(dfr_t) << block_log : 0;
        pass_kernel(P->k)<<<blocks, threads, smem, stream>>>(*P);
        return CUDA_CHECK(cudaGetLastError(), err);
    }
    uint4 *sh = (uint4 *)malloc(sizeof(dfr_t) << block_log);
    if (!sh)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuda_ntt (host emulation): out of memory");
    memset(sh, 0xff, sizeof(dfr_t) << block_log); /* stale values would show */
    for (uint32_t b = 0; b < blocks; b++) {
        const ntt_geom_t G = ntt_geom_of(*P, b);
        for (unsigned hi = P->k; hi > 0;) {
            unsigned rho = 0;
            for (uint32_t tid = 0; tid < threads; tid++)
                ntt_round_emu(*P, G, sh, tid, hi, &rho);
            hi -= rho;
        }
    }
    free(sh);
    return CUZK_OK;
}

static cuzk_status launch_tiny(dfr_t *a, unsigned log_n, unsigned half, const cuda_ntt_roots_t *R,
                               const dfr_t *pre_lo, const dfr_t *pre_hi, ntt_target tg,
                               cudaStream_t stream, cuzk_error_t *err)
{
    if (tg == NTT_ON_HOST) {
        ntt_dif_tiny_body(a, log_n, half, R->lo, R->hi, pre_lo, pre_hi);
        return CUZK_OK;
    }
    ntt_dif_tiny<<<1, 1, 0, stream>>>(a, log_n, half, R->lo, R->hi, pre_lo, pre_hi);
    return CUDA_CHECK(cudaGetLastError(), err);
}

static cuzk_status launch_bitrev(dfr_t *a, unsigned log_n, const ntt_scale_t *S, ntt_target tg,
                                 cudaStream_t stream, cuzk_error_t *err)
{
    const uint32_t n = 1u << log_n;
    if (log_n < 2 * NTT_TILE_LOG) {
        if (tg == NTT_ON_HOST) {
            for (uint32_t i = 0; i < n; i++)
                ntt_bitrev_small_body(a, log_n, *S, i);
            return CUZK_OK;
        }
        ntt_bitrev_small<<<(n + NTT_BLOCK_SMALL - 1) / NTT_BLOCK_SMALL, NTT_BLOCK_SMALL, 0,
                           stream>>>(a, log_n, *S);
        return CUDA_CHECK(cudaGetLastError(), err);
    }
    const uint32_t blocks = 1u << (log_n - 2 * NTT_TILE_LOG);
    if (tg == NTT_ON_DEVICE) {
        ntt_bitrev_tiled<<<blocks, NTT_TILE_ELEMS, 0, stream>>>(a, log_n, *S);
        return CUDA_CHECK(cudaGetLastError(), err);
    }
    uint4 ta[2][NTT_TILE_ELEMS], tb[2][NTT_TILE_ELEMS]; /* 16 KiB of stack */
    for (uint32_t m = 0; m < blocks; m++) {
        if (ntt_tile_at(log_n, m, 0).mr < m)
            continue;
        for (uint32_t tid = 0; tid < NTT_TILE_ELEMS; tid++)
            ntt_tile_load(a, ntt_tile_at(log_n, m, tid), ta, tb);
        for (uint32_t tid = 0; tid < NTT_TILE_ELEMS; tid++)
            ntt_tile_store(a, ntt_tile_at(log_n, m, tid), *S, ta, tb);
    }
    return CUZK_OK;
}

static dfr_t to_dfr(const fr_t *x)
{
    dfr_t d;
    memcpy(&d, x, sizeof d);
    return d;
}

static cuzk_status launch_powers(dfr_t *out, size_t count, const fr_t *base, const fr_t *first,
                                 ntt_target tg, cudaStream_t stream, cuzk_error_t *err)
{
    if (count == 0)
        return CUZK_OK;
    const dfr_t b = to_dfr(base), f = to_dfr(first);
    if (tg == NTT_ON_HOST) {
        for (uint32_t j = 0; j < count; j++)
            ntt_power(&out[j], j, &b, &f);
        return CUZK_OK;
    }
    unsigned blocks = (unsigned)((count + NTT_BLOCK_SMALL - 1) / NTT_BLOCK_SMALL);
    ntt_powers<<<blocks, NTT_BLOCK_SMALL, 0, stream>>>(out, (uint32_t)count, b, f);
    return CUDA_CHECK(cudaGetLastError(), err);
}

/* ---- tables ------------------------------------------------------------------- */

static void fr_pow_u64(fr_t *out, const fr_t *a, uint64_t e)
{
    fr_pow_var(out, a, &e, 1);
}

static size_t align_up(size_t x)
{
    return (x + NTT_ALIGN - 1) & ~(size_t)(NTT_ALIGN - 1);
}

static unsigned half_of(unsigned log_n)
{
    return (log_n + 1) / 2;
}

static unsigned kb_of(unsigned log_n)
{
    return log_n < CUDA_NTT_PASS_MAX_LOG ? log_n : CUDA_NTT_PASS_MAX_LOG;
}

/* The DIF's passes: ceil(log_n / 9) of near-equal bits (2^27: 9 + 9 + 9;
 * 2^20: 7 + 7 + 6), the first ones a bit larger. */
static unsigned passes_of(unsigned log_n)
{
    return (log_n + CUDA_NTT_PASS_MAX_LOG - 1) / CUDA_NTT_PASS_MAX_LOG;
}

static unsigned pass_bits(unsigned log_n, unsigned i)
{
    const unsigned passes = passes_of(log_n);
    return log_n / passes + (i < log_n % passes ? 1 : 0);
}

#define NTT_TABLES 4 /* of one direction: lo, hi, blk, tw2 */

/* Elements of each table of one direction. */
static void roots_sizes(size_t sz[NTT_TABLES], unsigned log_n)
{
    unsigned h = half_of(log_n), kb = kb_of(log_n);
    sz[0] = (size_t)1 << h;
    sz[1] = (size_t)1 << (log_n - h);
    sz[2] = kb ? (size_t)1 << (kb - 1) : 0;
    /* two passes: the second is the last, whose twiddles are all 1 */
    sz[3] = passes_of(log_n) > 2 ? (size_t)1 << (log_n - pass_bits(log_n, 0)) : 0;
}

size_t cuda_ntt_domain_bytes(unsigned log_n)
{
    if (log_n >= NTT_MAX_LOG)
        return 0;
    size_t sz[NTT_TABLES], bytes = 0;
    roots_sizes(sz, log_n);
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < NTT_TABLES; i++)
            bytes += align_up(sz[i] * sizeof(dfr_t));
    return bytes;
}

size_t cuda_ntt_coset_bytes(unsigned log_n)
{
    if (log_n >= NTT_MAX_LOG)
        return 0;
    size_t sz[NTT_TABLES];
    roots_sizes(sz, log_n);
    return 2 * (align_up(sz[0] * sizeof(dfr_t)) + align_up(sz[1] * sizeof(dfr_t)));
}

/* Carves one direction's tables from *at and fills them from w, the
 * primitive 2^log_n-th root of that direction. */
static cuzk_status roots_build(cuda_ntt_roots_t *R, char **at, const fr_t *w, unsigned log_n,
                               ntt_target tg, cudaStream_t stream, cuzk_error_t *err)
{
    size_t sz[NTT_TABLES];
    roots_sizes(sz, log_n);
    unsigned h = half_of(log_n), kb = kb_of(log_n);
    dfr_t **tab[NTT_TABLES] = {&R->lo, &R->hi, &R->blk, &R->tw2};
    for (int i = 0; i < NTT_TABLES; i++) {
        *tab[i] = sz[i] ? (dfr_t *)*at : NULL;
        *at += align_up(sz[i] * sizeof(dfr_t));
    }
    fr_t w_hi, w_blk, w_tw2;
    fr_pow_u64(&w_hi, w, (uint64_t)1 << h);
    fr_pow_u64(&w_blk, w, (uint64_t)1 << (log_n - kb));
    w_tw2 = FR_ONE; /* no table below three passes */
    if (sz[3])
        fr_pow_u64(&w_tw2, w, (uint64_t)1 << pass_bits(log_n, 0));
    const fr_t *bases[NTT_TABLES] = {w, &w_hi, &w_blk, &w_tw2};
    for (int i = 0; i < NTT_TABLES; i++) {
        cuzk_status st = launch_powers(*tab[i], sz[i], bases[i], &FR_ONE, tg, stream, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

/* Fills a domain's fields and tables in t->mem (t->bytes, allocated). */
static cuzk_status domain_fill(cuda_ntt_domain_t *t, ntt_target tg, cudaStream_t stream,
                               cuzk_error_t *err)
{
    fr_t w, w_inv, nn, n_inv;
    if (fr_root_of_unity(&w, t->conv, t->log_n) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuda_ntt_domain_init: no root 2^%u",
                              t->log_n);
    fr_inv(&w_inv, &w);
    fr_from_u64(&nn, (uint64_t)t->n);
    fr_inv(&n_inv, &nn);
    t->n_inv = to_dfr(&n_inv);
    char *at = (char *)t->mem;
    cuzk_status st = roots_build(&t->fwd, &at, &w, t->log_n, tg, stream, err);
    if (st == CUZK_OK)
        st = roots_build(&t->inv, &at, &w_inv, t->log_n, tg, stream, err);
    return st;
}

static void domain_shape(cuda_ntt_domain_t *t, unsigned log_n, fr_roots conv)
{
    memset(t, 0, sizeof *t);
    t->log_n = log_n;
    t->n = (size_t)1 << log_n;
    t->conv = conv;
    t->half = half_of(log_n);
    t->kb = kb_of(log_n);
    t->bytes = cuda_ntt_domain_bytes(log_n);
}

/* Fills a coset's tables in t->mem (t->bytes, allocated) for shift g. */
static cuzk_status coset_fill(cuda_ntt_coset_t *t, const cuda_ntt_domain_t *d, const fr_t *g,
                              ntt_target tg, cudaStream_t stream, cuzk_error_t *err)
{
    size_t sz[NTT_TABLES];
    roots_sizes(sz, d->log_n);
    fr_t g_inv, g_hi, g_inv_hi, nn, n_inv;
    fr_inv(&g_inv, g);
    fr_pow_u64(&g_hi, g, (uint64_t)1 << t->half);
    fr_pow_u64(&g_inv_hi, &g_inv, (uint64_t)1 << t->half);
    fr_from_u64(&nn, (uint64_t)d->n);
    fr_inv(&n_inv, &nn);
    char *at = (char *)t->mem;
    dfr_t **tab[4] = {&t->pre_lo, &t->pre_hi, &t->post_lo, &t->post_hi};
    const fr_t *base[4] = {g, &g_hi, &g_inv, &g_inv_hi};
    const fr_t *first[4] = {&FR_ONE, &FR_ONE, &n_inv, &FR_ONE};
    cuzk_status st = CUZK_OK;
    for (int i = 0; i < 4 && st == CUZK_OK; i++) {
        *tab[i] = (dfr_t *)at;
        at += align_up(sz[i % 2] * sizeof(dfr_t));
        st = launch_powers(*tab[i], sz[i % 2], base[i], first[i], tg, stream, err);
    }
    return st;
}

static void coset_shape(cuda_ntt_coset_t *t, const cuda_ntt_domain_t *d)
{
    memset(t, 0, sizeof *t);
    t->log_n = d->log_n;
    t->half = d->half;
    t->bytes = cuda_ntt_coset_bytes(d->log_n);
}

/* Lets the pass kernels have 64 KiB of shared memory (above the default
 * 48); a per-function attribute of the current device. */
static cuzk_status pass_attributes(cuzk_error_t *err)
{
    cuzk_status st = CUZK_OK;
    for (unsigned k = NTT_RADIX_LOG; k <= CUDA_NTT_PASS_MAX_LOG && st == CUZK_OK; k++)
        st = CUDA_CHECK(cudaFuncSetAttribute(pass_kernel(k),
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)NTT_SMEM_MAX),
                        err);
    return st;
}

cuzk_status cuda_ntt_domain_init(cuda_ntt_domain_t *d, unsigned log_n, fr_roots conv,
                                 cudaStream_t stream, cuzk_error_t *err)
{
    if (!d)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt_domain_init: d is NULL");
    memset(d, 0, sizeof *d);
    if (log_n >= NTT_MAX_LOG || (conv != FR_ROOTS_BELLMAN && conv != FR_ROOTS_FFJS))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda_ntt_domain_init: log_n %u (max %d) or convention %d", log_n,
                              NTT_MAX_LOG - 1, (int)conv);
    cuda_ntt_domain_t t;
    domain_shape(&t, log_n, conv);
    cuzk_status st = pass_attributes(err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&t.mem, t.bytes), err);
    if (st == CUZK_OK)
        st = domain_fill(&t, NTT_ON_DEVICE, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaStreamSynchronize(stream), err);
    if (st != CUZK_OK) {
        cuda_ntt_domain_free(&t);
        return st;
    }
    *d = t;
    return CUZK_OK;
}

void cuda_ntt_domain_free(cuda_ntt_domain_t *d)
{
    if (!d)
        return;
    if (d->mem)
        (void)cudaFree(d->mem);
    memset(d, 0, sizeof *d);
}

cuzk_status cuda_ntt_coset_init(cuda_ntt_coset_t *c, const cuda_ntt_domain_t *d, const fr_t *g,
                                cudaStream_t stream, cuzk_error_t *err)
{
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt_coset_init: c is NULL");
    memset(c, 0, sizeof *c);
    if (!d || !d->mem || !g || fr_is_zero(g))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda_ntt_coset_init: needs a domain and a nonzero shift");
    cuda_ntt_coset_t t;
    coset_shape(&t, d);
    cuzk_status st = CUDA_CHECK(cudaMalloc(&t.mem, t.bytes), err);
    if (st == CUZK_OK)
        st = coset_fill(&t, d, g, NTT_ON_DEVICE, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaStreamSynchronize(stream), err);
    if (st != CUZK_OK) {
        cuda_ntt_coset_free(&t);
        return st;
    }
    *c = t;
    return CUZK_OK;
}

void cuda_ntt_coset_free(cuda_ntt_coset_t *c)
{
    if (!c)
        return;
    if (c->mem)
        (void)cudaFree(c->mem);
    memset(c, 0, sizeof *c);
}

/* ---- the transform --------------------------------------------------------------- */

/* The DIF passes over a (passes_of, pass_bits). A later pass's twiddle
 * w_n^(e 2^(log_n - r)) is tw2[e 2^(r2 - r)], r2 = log_n - k1 <= r. */
static cuzk_status dif_passes(dfr_t *a, const cuda_ntt_domain_t *d, const cuda_ntt_roots_t *R,
                              const cuda_ntt_coset_t *pre, ntt_target tg, cudaStream_t stream,
                              cuzk_error_t *err)
{
    const unsigned log_n = d->log_n;
    const unsigned passes = passes_of(log_n);
    const unsigned r2 = log_n - pass_bits(log_n, 0);
    unsigned r = log_n;
    for (unsigned i = 0; i < passes; i++) {
        ntt_pass_t P;
        P.a = a;
        P.blk = R->blk;
        P.log_n = log_n;
        P.half = d->half;
        P.kb = d->kb;
        P.r = r;
        P.k = pass_bits(log_n, i);
        const unsigned s = r - P.k;
        P.c = s < NTT_COLS_MAX_LOG ? s : NTT_COLS_MAX_LOG;
        P.tw_dir = s && i > 0 ? R->tw2 : NULL;
        P.tw_lo = s && !P.tw_dir ? R->lo : NULL;
        P.tw_hi = s && !P.tw_dir ? R->hi : NULL;
        P.tw_shift = i > 0 ? r2 - r : 0;
        P.pre_lo = i == 0 && pre ? pre->pre_lo : NULL;
        P.pre_hi = i == 0 && pre ? pre->pre_hi : NULL;
        cuzk_status st = launch_pass(&P, d->n, tg, stream, err);
        if (st != CUZK_OK)
            return st;
        r = s;
    }
    return CUZK_OK;
}

static cuzk_status ntt_run(dfr_t *a, const cuda_ntt_domain_t *d, cuzk_ntt_kind kind,
                           const cuda_ntt_coset_t *coset, ntt_target tg, cudaStream_t stream,
                           cuzk_error_t *err)
{
    if (!a || !d || !d->mem)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt: NULL vector or domain");
    if (kind != CUZK_NTT_FORWARD && kind != CUZK_NTT_INVERSE && kind != CUZK_NTT_COSET_FORWARD &&
        kind != CUZK_NTT_COSET_INVERSE)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt: unknown kind %d", (int)kind);
    const int is_coset = kind == CUZK_NTT_COSET_FORWARD || kind == CUZK_NTT_COSET_INVERSE;
    if (is_coset && (!coset || !coset->mem || coset->log_n != d->log_n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt: a coset kind needs a coset of 2^%u",
                              d->log_n);
    if (d->log_n == 0) /* n = 1: every kind is the identity (n^-1 = g^0 = 1) */
        return CUZK_OK;

    const int inverse = kind == CUZK_NTT_INVERSE || kind == CUZK_NTT_COSET_INVERSE;
    const cuda_ntt_roots_t *R = inverse ? &d->inv : &d->fwd;
    const cuda_ntt_coset_t *pre = kind == CUZK_NTT_COSET_FORWARD ? coset : NULL;
    cuzk_status st;
    if (d->log_n < NTT_RADIX_LOG)
        st = launch_tiny(a, d->log_n, d->half, R, pre ? pre->pre_lo : NULL,
                         pre ? pre->pre_hi : NULL, tg, stream, err);
    else
        st = dif_passes(a, d, R, pre, tg, stream, err);
    if (st != CUZK_OK)
        return st;

    ntt_scale_t S;
    memset(&S, 0, sizeof S);
    S.mode = NTT_SCALE_NONE;
    S.half = d->half;
    if (kind == CUZK_NTT_INVERSE) {
        S.mode = NTT_SCALE_CONST;
        S.c = d->n_inv;
    } else if (kind == CUZK_NTT_COSET_INVERSE) {
        S.mode = NTT_SCALE_TABLE;
        S.lo = coset->post_lo;
        S.hi = coset->post_hi;
    }
    return launch_bitrev(a, d->log_n, &S, tg, stream, err);
}

cuzk_status cuda_ntt(dfr_t *a, const cuda_ntt_domain_t *d, cuzk_ntt_kind kind,
                     const cuda_ntt_coset_t *coset, cudaStream_t stream, cuzk_error_t *err)
{
    return ntt_run(a, d, kind, coset, NTT_ON_DEVICE, stream, err);
}

/* ---- host emulation ------------------------------------------------------------- */

cuzk_status cuda_ntt_host_emu(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                              const fr_t *g, cuzk_error_t *err)
{
    if (!a || log_n >= NTT_MAX_LOG || (conv != FR_ROOTS_BELLMAN && conv != FR_ROOTS_FFJS))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt_host_emu: bad vector, size or roots");
    const int is_coset = kind == CUZK_NTT_COSET_FORWARD || kind == CUZK_NTT_COSET_INVERSE;
    if (is_coset && (!g || fr_is_zero(g)))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_ntt_host_emu: a coset needs a shift");
    cuda_ntt_domain_t d;
    cuda_ntt_coset_t cs;
    domain_shape(&d, log_n, conv);
    memset(&cs, 0, sizeof cs);
    const size_t bytes = sizeof(dfr_t) << log_n;
    /* malloc's 16-byte alignment is dfr_t's (the caller's fr_t has 8) */
    dfr_t *v = (dfr_t *)malloc(bytes);
    d.mem = malloc(d.bytes);
    cuzk_status st = CUZK_ERR_NOMEM;
    if (v && d.mem) {
        memcpy(v, a, bytes);
        st = domain_fill(&d, NTT_ON_HOST, NULL, err);
    } else {
        cuzk_error_set(err, st, "cuda_ntt_host_emu: out of memory");
    }
    if (st == CUZK_OK && is_coset) {
        coset_shape(&cs, &d);
        if (!(cs.mem = malloc(cs.bytes)))
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "cuda_ntt_host_emu: out of memory");
        else
            st = coset_fill(&cs, &d, g, NTT_ON_HOST, NULL, err);
    }
    if (st == CUZK_OK)
        st = ntt_run(v, &d, kind, is_coset ? &cs : NULL, NTT_ON_HOST, NULL, err);
    if (st == CUZK_OK)
        memcpy(a, v, bytes);
    free(cs.mem);
    free(d.mem);
    free(v);
    return st;
}
