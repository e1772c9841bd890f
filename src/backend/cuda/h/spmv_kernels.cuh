/* The SpMV kernels, shared by the resident circuit (spmv.cu) and the
 * streamed one (spmv_stream.cu). Static: each unit has its own copy.
 *
 * Row offsets are absolute term indices; `base` is the index of the first
 * term the col/coef arrays hold (0 for a resident matrix, the block's
 * first term when a block of rows was copied in), so a block's terms are
 * read at col[j - base]. */
#ifndef CUZK_CUDA_SPMV_KERNELS_CUH
#define CUZK_CUDA_SPMV_KERNELS_CUH

#include "backend/cuda/h/spmv.cuh"

#define SPMV_BLOCK 256 /* threads, both kernels */
#define SPMV_ALIGN 256 /* bytes: each array starts on its own lines */

/* The upload's checks and counts, read back once (one per matrix). */
typedef struct spmv_ctl {
    uint32_t n_long[3];
    uint32_t bad_term[3]; /* a column >= n_vars or a coefficient >= n_dict */
} spmv_ctl_t;

/* acc += coef x, where coef is dictionary entry `ci`. */
static __device__ __forceinline__ void spmv_term(dfr_t *acc, const dfr_t *__restrict__ w,
                                                 const dfr_t *__restrict__ dict,
                                                 const uint8_t *__restrict__ kind, uint32_t col,
                                                 uint32_t ci)
{
    dfr_t x = w[col];
    uint8_t k = kind[ci];
    if (k == CUDA_SPMV_COEF_ONE) {
        dfr_add(acc, acc, &x);
    } else if (k == CUDA_SPMV_COEF_MINUS_ONE) {
        dfr_sub(acc, acc, &x);
    } else {
        dfr_t cf = dict[ci];
        dfr_mul(&x, &x, &cf);
        dfr_add(acc, acc, &x);
    }
}

/* One thread a row; rows longer than CUDA_SPMV_LONG_ROW are left to
 * spmv_long_rows. */
static __global__ void __launch_bounds__(SPMV_BLOCK)
    spmv_short_rows(dfr_t *__restrict__ out, const uint64_t *__restrict__ row_ptr,
                    const uint32_t *__restrict__ col, const uint32_t *__restrict__ coef,
                    uint64_t base, uint32_t n_rows, const dfr_t *__restrict__ dict,
                    const uint8_t *__restrict__ kind, const dfr_t *__restrict__ w)
{
    uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_rows)
        return;
    uint64_t b = row_ptr[r], e = row_ptr[r + 1];
    if (e - b > CUDA_SPMV_LONG_ROW)
        return;
    dfr_t acc;
    dfr_set_zero(&acc);
    for (uint64_t j = b; j < e; j++)
        spmv_term(&acc, w, dict, kind, col[j - base], coef[j - base]);
    out[r] = acc;
}

/* One block a long row (rows[] index row_ptr and out): each thread sums a
 * strided share of the terms, then a tree sum in shared memory. */
static __global__ void __launch_bounds__(SPMV_BLOCK)
    spmv_long_rows(dfr_t *__restrict__ out, const uint32_t *__restrict__ rows,
                   const uint64_t *__restrict__ row_ptr, const uint32_t *__restrict__ col,
                   const uint32_t *__restrict__ coef, uint64_t base, const dfr_t *__restrict__ dict,
                   const uint8_t *__restrict__ kind, const dfr_t *__restrict__ w)
{
    __shared__ dfr_t part[SPMV_BLOCK];
    const uint32_t r = rows[blockIdx.x];
    const uint64_t b = row_ptr[r], e = row_ptr[r + 1];
    dfr_t acc;
    dfr_set_zero(&acc);
    for (uint64_t j = b + threadIdx.x; j < e; j += SPMV_BLOCK)
        spmv_term(&acc, w, dict, kind, col[j - base], coef[j - base]);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned half = SPMV_BLOCK / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            dfr_t x = part[threadIdx.x], y = part[threadIdx.x + half];
            dfr_add(&x, &x, &y);
            part[threadIdx.x] = x;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[r] = part[0];
}

/* Blocks of SPMV_BLOCK threads for one thread a row. */
static __attribute__((unused)) unsigned grid_of(uint32_t n_rows)
{
    return (unsigned)(((uint64_t)n_rows + SPMV_BLOCK - 1) / SPMV_BLOCK);
}

/* The dictionary entries' kinds, CUDA_SPMV_COEF_* (spmv.cu; malloc, NULL
 * when out of memory). */
uint8_t *spmv_dict_kinds(const cuzk_host::circuit_t *c);

/* Row offsets from 0 to nnz and arrays for the terms (spmv.cu):
 * CUZK_ERR_ARG naming the matrix otherwise. */
cuzk_status spmv_check_shape(const cuzk_host::circuit_t *c, cuzk_error_t *err);

/* The streamed matrices' M w (spmv_stream.cu), for cuda_spmv. */
cuzk_status cuda_spmv_streamed(dfr_t *out, const cuda_circuit_t *c, int m, const dfr_t *w,
                               cudaStream_t stream, cuzk_error_t *err);

#endif
