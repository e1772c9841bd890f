/* CPU NTT over Fr (contract: include/cuzk/ntt.h).
 *
 * Forward: bit-reversal permutation, then iterative radix-2 Cooley-Tukey
 * (decimation in time) butterflies (x, y) <- (x + w y, x - w y), which leave
 * the result in natural order. The log_n stages are done in groups that
 * fit the L2 cache:
 *  - group 0 does stages 1..k0 on contiguous blocks of 2^k0 elements;
 *  - each later group does k stages s_lo..s_lo+k-1 on "tiles": 2^k rows of
 *    J consecutive columns, the rows 2^(s_lo-1) elements apart. Every
 *    butterfly of those stages stays inside one tile, so a tile is loaded
 *    once per group instead of once per stage, and each row is J
 *    contiguous elements (whole cache lines).
 * Stage s (half-size m = 2^(s-1)) pairs i with i + m for i mod 2m < m, with
 * twiddle omega^((i mod m) * n/2m), read from the domain's table of
 * omega^i, i < n/2. Twiddle 1 (index 0) skips its multiplication.
 *
 * Inverse: DFT_{omega^-1}(a)[i] = DFT_omega(a)[-i mod n], so the inverse is
 * the forward transform followed by one pass that swaps a[i] and a[n-i] and
 * multiplies by n^-1 (and, for the coset inverse, by g^-i in the same pass).
 * The coset forward multiplies a_j by g^j in a pass of its own first.
 *
 * Parallelism: every pass is a parallel_for over disjoint pieces (swap
 * pairs, blocks, tiles, index ranges); field arithmetic is exact, so the
 * result does not depend on the thread count or on the tile sizes. Memory:
 * the twiddle table only (n/2 elements, in the domain); no other scratch
 * beyond parallel_for's bookkeeping. If that bookkeeping cannot be
 * allocated, the pass runs on the caller's thread: transforms never fail
 * for lack of memory. */
#include "cuzk/ntt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "field/fr_inline.h"
#include "util/bigmem.h"

/* Tile size, log2 of elements: group 0 works on blocks of 2^13 elements
 * (256 KiB, well inside a 1-2 MiB L2 next to the block the prefetcher is
 * bringing in). CUZK_NTT_TILE_LOG overrides it (tuning, and tests that need
 * many stage groups at small sizes); the result never depends on it. */
#define TILE_LOG_DEFAULT 13
#define TILE_LOG_MIN 1
#define TILE_LOG_MAX 20
/* Later groups: rows of 2^6 elements (2 KiB, 32 whole cache lines, long
 * enough for the hardware prefetcher), at most 2^4 rows a tile. The rows
 * are 2^(s_lo-1) elements apart, a power of two, so they share cache sets;
 * 16 rows stay within the associativity of a 16-way L2. Measured on the
 * 2-core Xeon (Release, 2^20): 4-row to 64-row tiles and 2^12..2^14 blocks
 * all land within a few percent (the time is the Fr arithmetic); 16 rows
 * saves a pass over 8 at 2^27. */
#define COL_LOG_MAX 6
#define ROW_LOG_MAX 4
/* Below this many elements per thread a transform runs single-threaded
 * (thread start-up, ~50 us, costs more than it saves). */
#define PAR_MIN_LOG 12
/* Elements per chunk of the elementwise passes, which start each chunk
 * with a ~380-multiplication exponentiation. */
#define SCALE_GRAIN 4096

_Static_assert(NTT_MAX_LOG <= 32, "log_n must stay within the 2-adicity of r");
_Static_assert(TILE_LOG_DEFAULT >= TILE_LOG_MIN && TILE_LOG_DEFAULT <= TILE_LOG_MAX,
               "default tile out of range");

/* ---- helpers --------------------------------------------------------------- */

/* parallel_for, or the whole range on this thread when its bookkeeping
 * cannot be allocated (same result either way). */
static void run_parallel(size_t n, size_t grain, int threads, parallel_fn fn, void *ctx)
{
    if (parallel_for(n, grain, threads, fn, ctx) != CUZK_OK)
        fn(ctx, 0, n);
}

static void fr_pow_u64(fr_t *out, const fr_t *a, uint64_t e)
{
    fr_pow_var(out, a, &e, 1);
}

static unsigned tile_log(void)
{
    const char *env = getenv("CUZK_NTT_TILE_LOG");
    if (env) {
        long v = strtol(env, NULL, 10);
        if (v >= TILE_LOG_MIN && v <= TILE_LOG_MAX)
            return (unsigned)v;
    }
    return TILE_LOG_DEFAULT;
}

static unsigned ceil_log2(size_t x)
{
    unsigned l = 0;
    while (((size_t)1 << l) < x)
        l++;
    return l;
}

/* Threads worth using for 2^log_n elements (1 below PAR_MIN_LOG each). */
static int useful_threads(unsigned log_n, int threads)
{
    int t = parallel_threads(threads);
    if (log_n < PAR_MIN_LOG)
        return 1;
    size_t cap = (size_t)1 << (log_n - PAR_MIN_LOG);
    return (size_t)t > cap ? (int)cap : t;
}

/* ---- domain ---------------------------------------------------------------- */

typedef struct twiddle_job {
    fr_t *tw;
    fr_t omega;
} twiddle_job_t;

static void twiddle_chunk(void *ctx, size_t begin, size_t end)
{
    twiddle_job_t *j = ctx;
    fr_t p;
    fr_pow_u64(&p, &j->omega, begin);
    for (size_t i = begin; i < end; i++) {
        j->tw[i] = p;
        fr_mul_inl(&p, &p, &j->omega);
    }
}

cuzk_status ntt_domain_init(ntt_domain_t *d, unsigned log_n, fr_roots conv)
{
    if (!d)
        return CUZK_ERR_ARG;
    memset(d, 0, sizeof *d);
    if (log_n >= NTT_MAX_LOG || (conv != FR_ROOTS_BELLMAN && conv != FR_ROOTS_FFJS))
        return CUZK_ERR_ARG;
    ntt_domain_t t = {.log_n = log_n, .n = (size_t)1 << log_n, .conv = conv};
    if (fr_root_of_unity(&t.omega, conv, log_n) != CUZK_OK)
        return CUZK_ERR_ARG;
    fr_inv(&t.omega_inv, &t.omega);
    fr_t nn;
    fr_from_u64(&nn, (uint64_t)t.n);
    fr_inv(&t.n_inv, &nn);
    if (t.n > 1) {
        /* Cache-line aligned: a 32-byte element never straddles two lines. */
        t.twiddles = bigmem_alloc(t.n / 2 * sizeof(fr_t));
        if (!t.twiddles)
            return CUZK_ERR_NOMEM;
        twiddle_job_t j = {t.twiddles, t.omega};
        run_parallel(t.n / 2, SCALE_GRAIN, useful_threads(log_n, 0), twiddle_chunk, &j);
    }
    *d = t;
    return CUZK_OK;
}

void ntt_domain_free(ntt_domain_t *d)
{
    if (!d)
        return;
    bigmem_free(d->twiddles, d->n / 2 * sizeof(fr_t));
    memset(d, 0, sizeof *d);
}

/* ---- bit reversal ---------------------------------------------------------- */

typedef struct bitrev_job {
    fr_t *a;
    unsigned log_n;
} bitrev_job_t;

static uint32_t rev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

/* rev(x) over `bits` bits (bits <= 32). */
static size_t rev_bits(size_t x, unsigned bits)
{
    return bits ? rev32((uint32_t)x) >> (32 - bits) : 0;
}

static void swap_fr(fr_t *x, fr_t *y)
{
    fr_t t = *x;
    *x = *y;
    *y = t;
}

/* Small n: each index i swaps with rev(i) when i < rev(i). */
static void bitrev_chunk(void *ctx, size_t begin, size_t end)
{
    bitrev_job_t *j = ctx;
    for (size_t i = begin; i < end; i++) {
        size_t r = rev_bits(i, j->log_n);
        if (i < r)
            swap_fr(&j->a[i], &j->a[r]);
    }
}

/* Large n, cache-friendly: write an index as (h, m, l) with h and l of b
 * bits; rev maps it to (rev l, rev m, rev h). For each middle m <= rev m
 * the 2^b x 2^b elements (., m, .) and (., rev m, .), rows of 2^b
 * contiguous elements, swap among themselves, so every cache line brought
 * in is used whole (the plain loop uses half of each line it touches, at a
 * random place). Chunks are ranges of m: disjoint pairs. */
#define BITREV_BLOCK_LOG 4

static void bitrev_block_chunk(void *ctx, size_t begin, size_t end)
{
    bitrev_job_t *j = ctx;
    const unsigned b = BITREV_BLOCK_LOG, mb = j->log_n - 2 * b, hs = j->log_n - b;
    const size_t side = (size_t)1 << b;
    for (size_t m = begin; m < end; m++) {
        size_t mr = rev_bits(m, mb);
        if (mr < m)
            continue;
        fr_t *A = j->a + (m << b), *B = j->a + (mr << b);
        for (size_t h = 0; h < side; h++) {
            size_t rh = rev_bits(h, b);
            for (size_t l = 0; l < side; l++) {
                size_t rl = rev_bits(l, b);
                /* m == rev m: the pairs lie inside one block; swap each once */
                if (mr == m && ((rl << b) | rh) <= ((h << b) | l))
                    continue;
                swap_fr(&A[(h << hs) + l], &B[(rl << hs) + rh]);
            }
        }
    }
}

static void bitrev(fr_t *a, unsigned log_n, int threads)
{
    bitrev_job_t j = {a, log_n};
    if (log_n >= 2 * BITREV_BLOCK_LOG)
        run_parallel((size_t)1 << (log_n - 2 * BITREV_BLOCK_LOG), 16, threads, bitrev_block_chunk,
                     &j);
    else
        run_parallel((size_t)1 << log_n, 1024, threads, bitrev_chunk, &j);
}

/* ---- butterfly passes ------------------------------------------------------ */

/* One stage group: stages s_lo .. s_lo + k - 1 over tiles of 2^k rows,
 * rows 2^(s_lo-1) apart, 2^log_cols columns each. */
typedef struct pass_job {
    fr_t *a;
    const fr_t *tw;
    unsigned log_n, s_lo, k, log_cols;
} pass_job_t;

static inline void butterfly(fr_t *x, fr_t *y, const fr_t *w)
{
    fr_t t;
    if (w)
        fr_mul_inl(&t, y, w);
    else
        t = *y;
    fr_sub_inl(y, x, &t);
    fr_add_inl(x, x, &t);
}

static void tile_run(const pass_job_t *p, fr_t *base, size_t j0)
{
    const size_t stride = (size_t)1 << (p->s_lo - 1); /* S: rows apart */
    const size_t cols = (size_t)1 << p->log_cols;
    const size_t rows = (size_t)1 << p->k;
    const fr_t *w[1 << COL_LOG_MAX];
    for (unsigned q = 0; q < p->k; q++) {
        const unsigned shift = p->log_n - (p->s_lo + q); /* log2(n / 2m) */
        const size_t half = (size_t)1 << q;              /* m / S */
        for (size_t u = 0; u < half; u++) {
            for (size_t c = 0; c < cols; c++) {
                size_t widx = (j0 + c + u * stride) << shift;
                w[c] = widx ? &p->tw[widx] : NULL;
            }
            for (size_t t = u; t < rows; t += 2 * half) {
                fr_t *x = base + t * stride, *y = x + half * stride;
                for (size_t c = 0; c < cols; c++)
                    butterfly(&x[c], &y[c], w[c]);
            }
        }
    }
}

static void pass_chunk(void *ctx, size_t begin, size_t end)
{
    const pass_job_t *p = ctx;
    const size_t stride = (size_t)1 << (p->s_lo - 1);
    const size_t chunks_per_block = stride >> p->log_cols; /* column chunks */
    for (size_t i = begin; i < end; i++) {
        size_t blk = i / chunks_per_block, j0 = (i % chunks_per_block) << p->log_cols;
        tile_run(p, p->a + (blk << (p->s_lo - 1 + p->k)) + j0, j0);
    }
}

static void run_pass(pass_job_t *p, int threads)
{
    size_t tiles = (size_t)1 << (p->log_n - p->k - p->log_cols);
    run_parallel(tiles, 1, threads, pass_chunk, p);
}

/* Natural order in and out: a <- DFT_omega(a). */
static void forward_core(const ntt_domain_t *d, fr_t *a, int threads)
{
    const unsigned log_n = d->log_n;
    bitrev(a, log_n, threads);

    unsigned tl = tile_log();
    /* Group 0: blocks of 2^k0 elements, at least one per thread. */
    unsigned k0 = tl < log_n ? tl : log_n;
    unsigned spread = ceil_log2((size_t)threads);
    if (threads > 1 && log_n - k0 < spread)
        k0 = log_n - spread;
    pass_job_t p = {a, d->twiddles, log_n, 1, k0, 0};
    run_pass(&p, threads);

    /* Later groups: the remaining stages split evenly into groups of at
     * most `per` stages (at most 2^tl elements a tile). */
    unsigned rest = log_n - k0, s = k0 + 1;
    if (rest == 0)
        return;
    unsigned log_cols = tl / 2 < COL_LOG_MAX ? tl / 2 : COL_LOG_MAX;
    unsigned per = tl - log_cols < ROW_LOG_MAX ? tl - log_cols : ROW_LOG_MAX;
    unsigned groups = (rest + per - 1) / per;
    for (unsigned g = 0; g < groups; g++) {
        unsigned k = rest / groups + (g < rest % groups ? 1 : 0);
        unsigned lc = log_cols < s - 1 ? log_cols : s - 1; /* J <= S */
        pass_job_t pg = {a, d->twiddles, log_n, s, k, lc};
        run_pass(&pg, threads);
        s += k;
    }
}

/* ---- elementwise passes ---------------------------------------------------- */

/* a_i <- a_i g^i. */
typedef struct powscale_job {
    fr_t *a;
    fr_t g;
} powscale_job_t;

static void powscale_chunk(void *ctx, size_t begin, size_t end)
{
    powscale_job_t *j = ctx;
    fr_t p;
    fr_pow_u64(&p, &j->g, begin);
    for (size_t i = begin; i < end; i++) {
        fr_mul_inl(&j->a[i], &j->a[i], &p);
        fr_mul_inl(&p, &p, &j->g);
    }
}

/* After the forward transform A = DFT_omega(a): a_i <- c g^-i A[-i mod n]
 * with c = n^-1 (g = 1 when ginv is NULL). Chunks cover i in [1, n/2),
 * each swapping the pair (i, n - i); finish_inverse does the fixed points
 * 0 and n/2 itself. */
typedef struct finish_job {
    fr_t *a;
    size_t n;
    fr_t c;
    const fr_t *g, *ginv;
} finish_job_t;

static void finish_chunk(void *ctx, size_t begin, size_t end)
{
    finish_job_t *j = ctx;
    fr_t *a = j->a;
    const size_t n = j->n;
    begin += 1, end += 1; /* chunks index [0, n/2 - 1) */
    if (!j->ginv) {
        for (size_t i = begin; i < end; i++) {
            fr_t t;
            fr_mul_inl(&t, &a[i], &j->c);
            fr_mul_inl(&a[i], &a[n - i], &j->c);
            a[n - i] = t;
        }
        return;
    }
    /* p = c g^-i, q = c g^-(n-i) = c g^(i-n). */
    fr_t p, q;
    fr_pow_u64(&p, j->ginv, begin);
    fr_mul_inl(&p, &p, &j->c);
    fr_pow_u64(&q, j->ginv, n - begin);
    fr_mul_inl(&q, &q, &j->c);
    for (size_t i = begin; i < end; i++) {
        fr_t t;
        fr_mul_inl(&t, &a[i], &q);
        fr_mul_inl(&a[i], &a[n - i], &p);
        a[n - i] = t;
        fr_mul_inl(&p, &p, j->ginv);
        fr_mul_inl(&q, &q, j->g);
    }
}

static void finish_inverse(const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads)
{
    const size_t n = d->n;
    fr_t ginv;
    if (g)
        fr_inv(&ginv, g);
    finish_job_t j = {a, n, d->n_inv, g, g ? &ginv : NULL};
    /* Index 0 (factor n^-1) and n/2 (factor n^-1 g^-(n/2)); n >= 2. */
    fr_mul_inl(&a[0], &a[0], &d->n_inv);
    fr_t c = d->n_inv;
    if (g) {
        fr_pow_u64(&c, &ginv, n / 2);
        fr_mul_inl(&c, &c, &d->n_inv);
    }
    fr_mul_inl(&a[n / 2], &a[n / 2], &c);
    run_parallel(n / 2 - 1, SCALE_GRAIN, threads, finish_chunk, &j);
}

/* ---- public entry points --------------------------------------------------- */

static cuzk_status check_args(const ntt_domain_t *d, const fr_t *a)
{
    if (!d || !a || d->log_n >= NTT_MAX_LOG || d->n != (size_t)1 << d->log_n)
        return CUZK_ERR_ARG;
    if (d->n > 1 && !d->twiddles)
        return CUZK_ERR_ARG;
    return CUZK_OK;
}

cuzk_status ntt_forward(const ntt_domain_t *d, fr_t *a, int threads)
{
    cuzk_status st = check_args(d, a);
    if (st != CUZK_OK)
        return st;
    if (d->n > 1)
        forward_core(d, a, useful_threads(d->log_n, threads));
    return CUZK_OK;
}

cuzk_status ntt_inverse(const ntt_domain_t *d, fr_t *a, int threads)
{
    cuzk_status st = check_args(d, a);
    if (st != CUZK_OK)
        return st;
    if (d->n > 1) {
        int t = useful_threads(d->log_n, threads);
        forward_core(d, a, t);
        finish_inverse(d, a, NULL, t);
    }
    return CUZK_OK;
}

cuzk_status ntt_coset_forward(const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads)
{
    cuzk_status st = check_args(d, a);
    if (st != CUZK_OK)
        return st;
    if (!g || fr_is_zero(g))
        return CUZK_ERR_ARG;
    if (d->n > 1) {
        int t = useful_threads(d->log_n, threads);
        powscale_job_t j = {a, *g};
        run_parallel(d->n, SCALE_GRAIN, t, powscale_chunk, &j);
        forward_core(d, a, t);
    }
    return CUZK_OK;
}

cuzk_status ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads)
{
    cuzk_status st = check_args(d, a);
    if (st != CUZK_OK)
        return st;
    if (!g || fr_is_zero(g))
        return CUZK_ERR_ARG;
    if (d->n > 1) {
        int t = useful_threads(d->log_n, threads);
        forward_core(d, a, t);
        finish_inverse(d, a, g, t);
    }
    return CUZK_OK;
}
