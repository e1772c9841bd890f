/* u_j = sum_r A[r][j] L_r(tau) (and v from B, w from C) on the device
 * (setup.cuh), one matrix at a time.
 *
 * There is no 256-bit atomic, so the CSR matrix is turned into a CSC one
 * with integer atomics and each column is then summed by one owner:
 *   1. a column histogram (warp-aggregated: lanes of a warp that hit the
 *      same column, e.g. the ONE column, make one atomic);
 *   2. an exclusive scan (cub) turns the counts into column starts, in
 *      place;
 *   3. the scatter moves each entry's (row, coefficient index) to the slot
 *      its column's cursor gives (atomicAdd on the start, which afterwards
 *      holds the column's end); the row of entry k is found by a binary
 *      search of the row offsets (one thread an entry: balanced whatever
 *      the row lengths);
 *   4. a column of at most COL_HEAVY entries is summed by one thread; a
 *      longer one (the ONE column has tens of millions at 2^27) is cut
 *      into pieces of COL_PIECE, each summed by a block, and the pieces by
 *      another block.
 * Field addition is exact, so the order the atomics give inside a column
 * changes nothing: the result is deterministic.
 * The bellperson query indices are picked from the histogram (a wire is
 * in a query when its column has an entry), before the scan reuses it.
 *
 * Traffic at 2^27, matrix A (313M entries): ~2.5 GB in, ~7.5 GB of
 * scatter and gather; memory-bound: 0.16 s for the three matrices on the
 * H200 (copies not counted). */
#include <string.h>
#include <time.h>

#include <cub/device/device_scan.cuh>

#include "backend/cuda/keygen/setup.cuh"

using namespace cuzk_host;

#define COL_HEAVY 64                       /* longer columns are summed by blocks */
#define COL_PIECE 4096                     /* entries of one block-summed piece */
#define COL_RED 256                        /* threads of the block sums */
#define COL_GRID_MAX 65536                 /* grid-stride beyond this many blocks */
#define COL_CUB_RESERVE ((size_t)64 << 20) /* cub scan scratch for < 2^32 items, at most */

#define COL_KIND_MUL 0
#define COL_KIND_ONE 1
#define COL_KIND_MINUS_ONE 2

/* ctl[] slots, read back once per matrix */
enum { CTL_BAD, CTL_JOBS, CTL_HEAVY, CTL_SEL, CTL_N };

typedef struct col_job {
    uint64_t first;
    uint32_t count, pad;
} col_job_t;

typedef struct col_heavy {
    uint32_t first_job, n_jobs, col, pad;
} col_heavy_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- kernels ------------------------------------------------------------- */

/* acc += coef lag[row], coef = dictionary entry ci. */
static __device__ __forceinline__ void col_term(dfr_t *acc, const dfr_t *__restrict__ lag,
                                                const dfr_t *__restrict__ dict,
                                                const uint8_t *__restrict__ kind, uint32_t row,
                                                uint32_t ci)
{
    dfr_t x = lag[row];
    uint8_t k = kind[ci];
    if (k == COL_KIND_ONE) {
        dfr_add(acc, acc, &x);
    } else if (k == COL_KIND_MINUS_ONE) {
        dfr_sub(acc, acc, &x);
    } else {
        dfr_t cf = dict[ci];
        dfr_mul(&x, &x, &cf);
        dfr_add(acc, acc, &x);
    }
}

/* The warps of the grid walk the entries 32 at a time; every lane of a warp
 * runs the same iterations (k >= nnz lanes idle), so the whole-warp
 * intrinsics below are safe. */
#define COL_WARP_LOOP(nnz, base)                                                                   \
    for (uint64_t base = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32 * 32;              \
         base < (nnz); base += (uint64_t)gridDim.x * blockDim.x)

#define COL_NONE 0xffffffffu /* no column (n_vars <= 2^32 - 1) */

/* cnt[j] += entries of column j; invalid terms are counted in *bad. */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    col_hist(unsigned long long *cnt, uint32_t *bad, const uint32_t *__restrict__ col,
             const uint32_t *__restrict__ coef, uint64_t nnz, uint32_t n_vars, uint32_t n_dict)
{
    unsigned lane = threadIdx.x & 31;
    COL_WARP_LOOP(nnz, base)
    {
        uint64_t k = base + lane;
        uint32_t j = COL_NONE;
        if (k < nnz) {
            j = col[k];
            if (j >= n_vars || coef[k] >= n_dict) {
                atomicAdd(bad, 1u);
                j = COL_NONE;
            }
        }
        unsigned peers = __match_any_sync(0xffffffffu, j);
        if (j != COL_NONE && lane == (unsigned)__ffs(peers) - 1)
            atomicAdd(&cnt[j], (unsigned long long)__popc(peers));
    }
}

/* The row r with rp[r] <= k < rp[r + 1] (rp[0] = 0 <= k < rp[n_rows]). */
static __device__ __forceinline__ uint32_t col_row_of(const uint64_t *__restrict__ rp,
                                                      uint32_t n_rows, uint64_t k)
{
    uint32_t lo = 0, hi = n_rows;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (rp[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Entry k -> slot cur[col[k]]++ of (row, coefficient index). */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    col_scatter(uint32_t *__restrict__ srow, uint32_t *__restrict__ scoef, unsigned long long *cur,
                const uint64_t *__restrict__ rp, const uint32_t *__restrict__ col,
                const uint32_t *__restrict__ coef, uint64_t nnz, uint32_t n_rows, uint32_t n_vars,
                uint32_t n_dict)
{
    unsigned lane = threadIdx.x & 31;
    COL_WARP_LOOP(nnz, base)
    {
        uint64_t k = base + lane;
        uint32_t j = COL_NONE, ci = 0;
        if (k < nnz) {
            j = col[k];
            ci = coef[k];
            if (j >= n_vars || ci >= n_dict)
                j = COL_NONE;
        }
        unsigned peers = __match_any_sync(0xffffffffu, j);
        unsigned leader = (unsigned)__ffs(peers) - 1;
        unsigned long long at = 0;
        if (j != COL_NONE && lane == leader)
            at = atomicAdd(&cur[j], (unsigned long long)__popc(peers));
        at = __shfl_sync(0xffffffffu, at, leader);
        if (j != COL_NONE) {
            uint64_t pos = at + __popc(peers & ((1u << lane) - 1));
            srow[pos] = col_row_of(rp, n_rows, k);
            scoef[pos] = ci;
        }
    }
}

/* pos[j] = 1 when wire j is in the query (j < all_below or an entry in
 * column j), for j < n_vars; pos[n_vars] = 0 (the scan's total). */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    col_flags(uint32_t *pos, const unsigned long long *__restrict__ cnt, uint32_t n_vars,
              uint32_t all_below)
{
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j <= n_vars;
         j += (size_t)gridDim.x * blockDim.x)
        pos[j] = j < n_vars && (j < all_below || cnt[j] != 0);
}

/* idx[pos[j]] = j for the wires in the query (pos scanned). */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    col_pick(uint32_t *idx, uint32_t *sel, const uint32_t *__restrict__ pos,
             const unsigned long long *__restrict__ cnt, uint32_t n_vars, uint32_t all_below,
             size_t cap)
{
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n_vars;
         j += (size_t)gridDim.x * blockDim.x)
        if ((j < all_below || cnt[j] != 0) && pos[j] < cap)
            idx[pos[j]] = (uint32_t)j;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *sel = pos[n_vars];
}

/* Columns of at most COL_HEAVY entries, a thread each; longer ones become
 * pieces (jobs) and one heavy record each. end[j] is column j's end. */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    col_light(dfr_t *__restrict__ out, const unsigned long long *__restrict__ end,
              const uint32_t *__restrict__ srow, const uint32_t *__restrict__ scoef,
              uint32_t n_vars, const dfr_t *__restrict__ lag, const dfr_t *__restrict__ dict,
              const uint8_t *__restrict__ kind, col_job_t *jobs, col_heavy_t *heavy, uint32_t *ctl)
{
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n_vars;
         j += (size_t)gridDim.x * blockDim.x) {
        uint64_t s = j ? end[j - 1] : 0, e = end[j];
        if (e - s > COL_HEAVY) {
            uint32_t np = (uint32_t)((e - s + COL_PIECE - 1) / COL_PIECE);
            uint32_t first = atomicAdd(&ctl[CTL_JOBS], np);
            for (uint32_t p = 0; p < np; p++) {
                uint64_t at = s + (uint64_t)p * COL_PIECE;
                jobs[first + p] = {at, (uint32_t)(e - at < COL_PIECE ? e - at : COL_PIECE), 0};
            }
            heavy[atomicAdd(&ctl[CTL_HEAVY], 1u)] = {first, np, (uint32_t)j, 0};
            continue;
        }
        dfr_t acc;
        dfr_set_zero(&acc);
        for (uint64_t p = s; p < e; p++)
            col_term(&acc, lag, dict, kind, srow[p], scoef[p]);
        out[j] = acc;
    }
}

/* Tree sum of the block's values into *out (thread 0 writes). */
static __device__ void col_block_sum(dfr_t *out, dfr_t *sh, const dfr_t *mine)
{
    sh[threadIdx.x] = *mine;
    __syncthreads();
    for (unsigned h = COL_RED / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) {
            dfr_t x = sh[threadIdx.x], y = sh[threadIdx.x + h];
            dfr_add(&x, &x, &y);
            sh[threadIdx.x] = x;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = sh[0];
    __syncthreads(); /* sh is reused by the block's next job */
}

/* Each piece of a heavy column summed by one block into partial[job]. */
static __global__ void __launch_bounds__(COL_RED)
    col_pieces(dfr_t *partial, const col_job_t *__restrict__ jobs, const uint32_t *ctl,
               const uint32_t *__restrict__ srow, const uint32_t *__restrict__ scoef,
               const dfr_t *__restrict__ lag, const dfr_t *__restrict__ dict,
               const uint8_t *__restrict__ kind)
{
    __shared__ dfr_t sh[COL_RED];
    uint32_t n_jobs = ctl[CTL_JOBS];
    for (uint32_t j = blockIdx.x; j < n_jobs; j += gridDim.x) {
        col_job_t job = jobs[j];
        dfr_t acc;
        dfr_set_zero(&acc);
        for (uint32_t e = threadIdx.x; e < job.count; e += COL_RED)
            col_term(&acc, lag, dict, kind, srow[job.first + e], scoef[job.first + e]);
        col_block_sum(&partial[j], sh, &acc);
    }
}

/* Each heavy column's pieces summed by one block into out[col]. */
static __global__ void __launch_bounds__(COL_RED)
    col_ranges(dfr_t *out, const dfr_t *__restrict__ partial, const col_heavy_t *__restrict__ heavy,
               const uint32_t *ctl)
{
    __shared__ dfr_t sh[COL_RED];
    uint32_t n_heavy = ctl[CTL_HEAVY];
    for (uint32_t h = blockIdx.x; h < n_heavy; h += gridDim.x) {
        col_heavy_t hv = heavy[h];
        dfr_t acc;
        dfr_set_zero(&acc);
        for (uint32_t e = threadIdx.x; e < hv.n_jobs; e += COL_RED) {
            dfr_t x = partial[hv.first_job + e];
            dfr_add(&acc, &acc, &x);
        }
        col_block_sum(&out[hv.col], sh, &acc);
    }
}

/* ---- host ---------------------------------------------------------------- */

cuzk_status cuda_setup_dict_upload(cuda_setup_dict_t *d, const circuit_t *c, cudaStream_t s,
                                   cuzk_error_t *err)
{
    memset(d, 0, sizeof *d);
    size_t n = c->n_dict ? c->n_dict : 1;
    uint8_t *kind = (uint8_t *)calloc(n, 1);
    if (!kind)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_setup: out of host memory");
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    for (uint32_t i = 0; i < c->n_dict; i++)
        kind[i] = fr_is_one(&c->dict[i])              ? COL_KIND_ONE
                  : fr_equal(&c->dict[i], &minus_one) ? COL_KIND_MINUS_ONE
                                                      : COL_KIND_MUL;
    d->n = c->n_dict;
    cuzk_status st = CUDA_CHECK(cudaMalloc((void **)&d->val, n * sizeof(dfr_t)), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc((void **)&d->kind, n), err);
    if (st == CUZK_OK && c->n_dict)
        st = CUDA_CHECK(
            cudaMemcpyAsync(d->val, c->dict, c->n_dict * sizeof(dfr_t), cudaMemcpyHostToDevice, s),
            err);
    if (st == CUZK_OK && c->n_dict)
        st = CUDA_CHECK(cudaMemcpyAsync(d->kind, kind, c->n_dict, cudaMemcpyHostToDevice, s), err);
    /* kind must outlive its copy */
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(s), st == CUZK_OK ? err : NULL);
    free(kind);
    if (st == CUZK_OK)
        st = s2;
    if (st != CUZK_OK)
        cuda_setup_dict_free(d);
    return st;
}

void cuda_setup_dict_free(cuda_setup_dict_t *d)
{
    if (!d)
        return;
    if (d->val)
        (void)cudaFree(d->val);
    if (d->kind)
        (void)cudaFree(d->kind);
    memset(d, 0, sizeof *d);
}

/* Upper bounds on the heavy columns and their pieces. */
static void job_bounds(size_t *n_jobs, size_t *n_heavy, const circuit_t *c, uint64_t nnz)
{
    uint64_t h = nnz / (COL_HEAVY + 1);
    *n_heavy = h < c->n_vars ? h : c->n_vars;
    *n_jobs = nnz / COL_PIECE + *n_heavy;
}

/* The allocation sizes of one matrix's pass (rounded as cudaMalloc takes them). */
typedef struct col_sizes {
    size_t rp, col, coef, cnt, ctl, temp, pos, srow, scoef, jobs, partial, heavy;
} col_sizes_t;

static void sizes_of(col_sizes_t *z, const circuit_t *c, uint64_t nnz, int with_idx)
{
    size_t n_jobs, n_heavy;
    job_bounds(&n_jobs, &n_heavy, c, nnz);
    z->rp = setup_round(((size_t)c->n_rows + 1) * sizeof(uint64_t));
    z->col = z->coef = z->srow = z->scoef = setup_round((nnz ? nnz : 1) * sizeof(uint32_t));
    z->cnt = setup_round(((size_t)c->n_vars + 1) * sizeof(unsigned long long));
    z->ctl = setup_round(CTL_N * sizeof(uint32_t));
    z->temp = setup_round(COL_CUB_RESERVE);
    z->pos = with_idx ? setup_round(((size_t)c->n_vars + 1) * sizeof(uint32_t)) : 0;
    z->jobs = setup_round((n_jobs ? n_jobs : 1) * sizeof(col_job_t));
    z->partial = setup_round((n_jobs ? n_jobs : 1) * sizeof(dfr_t));
    z->heavy = setup_round((n_heavy ? n_heavy : 1) * sizeof(col_heavy_t));
}

size_t cuda_setup_column_bytes(const circuit_t *c, circuit_matrix m, int with_idx)
{
    col_sizes_t z;
    sizes_of(&z, c, c->m[m].nnz, with_idx);
    size_t csr = z.rp + z.col + z.coef, keep = z.cnt + z.ctl, slots = z.srow + z.scoef;
    size_t p1 = csr + keep + z.temp + z.pos;                 /* histogram, indices, scan */
    size_t p2 = csr + keep + slots;                          /* scatter */
    size_t p3 = keep + slots + z.jobs + z.partial + z.heavy; /* sums */
    size_t p = p1 > p2 ? p1 : p2;
    return p > p3 ? p : p3;
}

/* Everything one matrix's pass allocates. */
typedef struct col_mem {
    uint64_t *rp;
    uint32_t *col, *coef, *ctl, *pos, *srow, *scoef;
    unsigned long long *cnt;
    void *temp;
    col_job_t *jobs;
    dfr_t *partial;
    col_heavy_t *heavy;
} col_mem_t;

static void col_free(void **p)
{
    if (*p)
        (void)cudaFree(*p);
    *p = NULL;
}

static void col_mem_free(col_mem_t *x)
{
    void **all[] = {(void **)&x->rp,   (void **)&x->col,  (void **)&x->coef,    (void **)&x->ctl,
                    (void **)&x->pos,  (void **)&x->srow, (void **)&x->scoef,   (void **)&x->cnt,
                    (void **)&x->temp, (void **)&x->jobs, (void **)&x->partial, (void **)&x->heavy};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        col_free(all[i]);
}

static cuzk_status col_alloc(void **p, size_t bytes, cuzk_error_t *err)
{
    return CUDA_CHECK(cudaMalloc(p, bytes ? bytes : 1), err);
}

/* The CSR arrays of matrix m to the device; *t gets the seconds. */
static cuzk_status col_upload(col_mem_t *x, const circuit_t *c, const circuit_csr_t *M,
                              cudaStream_t s, double *t, cuzk_error_t *err)
{
    double t0 = now_s();
    size_t rp_bytes = ((size_t)c->n_rows + 1) * sizeof(uint64_t), nb = M->nnz * sizeof(uint32_t);
    cuzk_status st =
        CUDA_CHECK(cudaMemcpyAsync(x->rp, M->row_ptr, rp_bytes, cudaMemcpyHostToDevice, s), err);
    if (st == CUZK_OK && nb)
        st = CUDA_CHECK(cudaMemcpyAsync(x->col, M->col, nb, cudaMemcpyHostToDevice, s), err);
    if (st == CUZK_OK && nb)
        st = CUDA_CHECK(cudaMemcpyAsync(x->coef, M->coef, nb, cudaMemcpyHostToDevice, s), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaStreamSynchronize(s), err);
    *t += now_s() - t0;
    return st;
}

/* Histogram, then the query indices from it (q: may be NULL), then the
 * scan that turns the counts into column starts. */
static cuzk_status col_count(col_mem_t *x, const cuda_setup_idx_req_t *q, const circuit_t *c,
                             uint64_t nnz, int sms, cudaStream_t s, cuzk_error_t *err)
{
    uint32_t nv = c->n_vars;
    size_t n1 = (size_t)nv + 1, t_cnt = 0, t_pos = 0, t_bytes;
    cuzk_status st;
    if ((st = CUDA_CHECK(cub::DeviceScan::ExclusiveSum(NULL, t_cnt, x->cnt, x->cnt, n1, s), err)) !=
            CUZK_OK ||
        (st = CUDA_CHECK(cub::DeviceScan::ExclusiveSum(NULL, t_pos, x->pos, x->pos, n1, s), err)) !=
            CUZK_OK)
        return st;
    t_bytes = t_cnt > t_pos ? t_cnt : t_pos;
    if ((st = col_alloc(&x->temp, t_bytes, err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMemsetAsync(x->cnt, 0, n1 * sizeof *x->cnt, s), err)) != CUZK_OK)
        return st;
    if (nnz) {
        col_hist<<<setup_grid(nnz, (size_t)sms * 16), SETUP_BLOCK, 0, s>>>(
            x->cnt, &x->ctl[CTL_BAD], x->col, x->coef, nnz, nv, c->n_dict);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
            return st;
    }
    if (q && q->idx) {
        if ((st = col_alloc((void **)&x->pos, n1 * sizeof(uint32_t), err)) != CUZK_OK)
            return st;
        col_flags<<<setup_grid(n1, COL_GRID_MAX), SETUP_BLOCK, 0, s>>>(x->pos, x->cnt, nv,
                                                                       q->all_below);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
            (st = CUDA_CHECK(cub::DeviceScan::ExclusiveSum(x->temp, t_bytes, x->pos, x->pos, n1, s),
                             err)) != CUZK_OK)
            return st;
        col_pick<<<setup_grid(nv, COL_GRID_MAX), SETUP_BLOCK, 0, s>>>(
            q->idx, &x->ctl[CTL_SEL], x->pos, x->cnt, nv, q->all_below, q->n);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
            return st;
        col_free((void **)&x->pos);
    }
    st = CUDA_CHECK(cub::DeviceScan::ExclusiveSum(x->temp, t_bytes, x->cnt, x->cnt, n1, s), err);
    col_free(&x->temp);
    return st;
}

/* Scatter into slots, free the CSR, then the column sums. */
static cuzk_status col_sum(dfr_t *out, col_mem_t *x, const circuit_t *c, uint64_t nnz,
                           const dfr_t *lag, const cuda_setup_dict_t *d, int sms, cudaStream_t s,
                           cuzk_error_t *err)
{
    uint32_t nv = c->n_vars;
    size_t n_jobs, n_heavy;
    job_bounds(&n_jobs, &n_heavy, c, nnz);
    cuzk_status st;
    if ((st = col_alloc((void **)&x->srow, nnz * sizeof(uint32_t), err)) != CUZK_OK ||
        (st = col_alloc((void **)&x->scoef, nnz * sizeof(uint32_t), err)) != CUZK_OK)
        return st;
    if (nnz) {
        col_scatter<<<setup_grid(nnz, (size_t)sms * 16), SETUP_BLOCK, 0, s>>>(
            x->srow, x->scoef, x->cnt, x->rp, x->col, x->coef, nnz, c->n_rows, nv, c->n_dict);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
            return st;
    }
    col_free((void **)&x->rp);
    col_free((void **)&x->col);
    col_free((void **)&x->coef);
    if ((st = col_alloc((void **)&x->jobs, n_jobs * sizeof(col_job_t), err)) != CUZK_OK ||
        (st = col_alloc((void **)&x->partial, n_jobs * sizeof(dfr_t), err)) != CUZK_OK ||
        (st = col_alloc((void **)&x->heavy, n_heavy * sizeof(col_heavy_t), err)) != CUZK_OK)
        return st;
    if (nv == 0)
        return CUZK_OK;
    col_light<<<setup_grid(nv, COL_GRID_MAX), SETUP_BLOCK, 0, s>>>(
        out, x->cnt, x->srow, x->scoef, nv, lag, d->val, d->kind, x->jobs, x->heavy, x->ctl);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
        return st;
    if (n_heavy) {
        unsigned grid = (unsigned)(4 * (sms > 0 ? sms : 1));
        col_pieces<<<grid, COL_RED, 0, s>>>(x->partial, x->jobs, x->ctl, x->srow, x->scoef, lag,
                                            d->val, d->kind);
        col_ranges<<<grid, COL_RED, 0, s>>>(out, x->partial, x->heavy, x->ctl);
        st = CUDA_CHECK(cudaGetLastError(), err);
    }
    return st;
}

cuzk_status cuda_setup_column(dfr_t *out, const cuda_setup_idx_req_t *q, const circuit_t *c,
                              circuit_matrix m, const dfr_t *lag, const cuda_setup_dict_t *d,
                              int sms, cudaStream_t s, double *t_upload, cuzk_error_t *err)
{
    const circuit_csr_t *M = &c->m[m];
    uint64_t nnz = M->nnz;
    col_mem_t x;
    memset(&x, 0, sizeof x);
    uint32_t ctl[CTL_N] = {0};
    cuzk_status st;
    if ((st = col_alloc((void **)&x.rp, ((size_t)c->n_rows + 1) * sizeof(uint64_t), err)) !=
            CUZK_OK ||
        (st = col_alloc((void **)&x.col, nnz * sizeof(uint32_t), err)) != CUZK_OK ||
        (st = col_alloc((void **)&x.coef, nnz * sizeof(uint32_t), err)) != CUZK_OK ||
        (st = col_alloc((void **)&x.cnt, ((size_t)c->n_vars + 1) * sizeof(*x.cnt), err)) !=
            CUZK_OK ||
        (st = col_alloc((void **)&x.ctl, sizeof ctl, err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMemsetAsync(x.ctl, 0, sizeof ctl, s), err)) != CUZK_OK ||
        (st = col_upload(&x, c, M, s, t_upload, err)) != CUZK_OK ||
        (st = col_count(&x, q, c, nnz, sms, s, err)) != CUZK_OK ||
        (st = col_sum(out, &x, c, nnz, lag, d, sms, s, err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMemcpyAsync(ctl, x.ctl, sizeof ctl, cudaMemcpyDeviceToHost, s),
                         err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaStreamSynchronize(s), err)) != CUZK_OK)
        goto out;
    if (ctl[CTL_BAD])
        st = cuzk_error_set(err, CUZK_ERR_ARG,
                            "cuzk_cuda_setup: matrix %c: %u terms with a column >= %u or a "
                            "coefficient index >= %u",
                            "ABC"[m], ctl[CTL_BAD], c -> n_vars, c -> n_dict);
    else if (q && q->idx && ctl[CTL_SEL] != q->n)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL,
                            "cuzk_cuda_setup: matrix %c: %u query wires on the device, %zu on "
                            "the host",
                            "ABC"[m], ctl[CTL_SEL], q -> n);
out:
    (void)cudaStreamSynchronize(s); /* nothing may still use the scratch */
    col_mem_free(&x);
    return st;
}
