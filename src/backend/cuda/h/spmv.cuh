/* The circuit on the device and its sparse matrix-vector products (spmv.cu):
 * out = M w for M in {A, B, C}, the first step of the H computation.
 *
 * The circuit (circuit.h's CSR: u64 row offsets, u32 columns, u32 indices
 * into a small coefficient dictionary) is uploaded once and stays resident;
 * a proof then uploads only its witness. Each dictionary entry carries a
 * kind: 1 and -1 (most of a real circuit's coefficients) are an addition or
 * a subtraction instead of a multiplication, which gives the same field
 * element.
 *
 * Rows with at most CUDA_SPMV_LONG_ROW terms take one thread each; longer
 * rows (a few in real circuits, e.g. a sum over all inputs) are listed at
 * upload time and take one block each, so that one row never holds up a
 * warp for thousands of terms.
 *
 * cuda_circuit_upload allocates on the current device (cudaMalloc, one
 * allocation of cuda_circuit_bytes(c)), copies and indexes on `stream` and
 * waits for it: the circuit is then ready on every stream, read-only,
 * shareable by concurrent proofs. On failure *out is zeroed.
 * cuda_circuit_free releases it (cudaFree) and zeroes it; NULL is ignored. */
#ifndef CUZK_CUDA_SPMV_CUH
#define CUZK_CUDA_SPMV_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "backend/cuda/cuda_check.cuh"
#include "backend/cuda/arith/host_types.cuh"

namespace cuzk_host
{
#include "cuzk/circuit.h"
} // namespace cuzk_host

#define CUDA_SPMV_LONG_ROW 64 /* longer rows go to the block-per-row kernel */

/* Dictionary entry kinds. */
#define CUDA_SPMV_COEF_MUL 0
#define CUDA_SPMV_COEF_ONE 1
#define CUDA_SPMV_COEF_MINUS_ONE 2

typedef struct cuda_csr {
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col, *coef;
    uint64_t nnz;
    uint32_t *long_rows; /* rows with more than CUDA_SPMV_LONG_ROW terms, any order */
    uint32_t n_long;
} cuda_csr_t;

struct cuda_circuit_stream;

typedef struct cuda_circuit {
    uint32_t n_rows, n_vars, n_dict;
    cuda_csr_t m[3]; /* A, B, C (resident only) */
    dfr_t *dict;
    uint8_t *dict_kind; /* CUDA_SPMV_COEF_* */
    void *mem;
    size_t bytes;
    struct cuda_circuit_stream *stream; /* streamed (spmv_stream.cu), else NULL */
} cuda_circuit_t;

/* Device bytes the circuit takes once uploaded (0 for NULL). */
size_t cuda_circuit_bytes(const cuzk_host::circuit_t *c);

/* CUZK_ERR_ARG for a NULL or malformed circuit (row offsets that do not
 * end at nnz, no dictionary for its terms); CUZK_ERR_CUDA. */
cuzk_status cuda_circuit_upload(cuda_circuit_t *out, const cuzk_host::circuit_t *c,
                                cudaStream_t stream, cuzk_error_t *err);
void cuda_circuit_free(cuda_circuit_t *c);

/* The streamed circuit, for VRAM budgets that cannot hold the matrices:
 * the CSR arrays stay in host memory (pinned in place, shared like the
 * key's bases) and every M w copies them in blocks of rows through two
 * device buffer sets of set_bytes each, the copy of block k + 1 (a copy
 * stream of the circuit's) overlapping the kernels of block k. On the
 * device: the dictionary, the long rows of each block and the two sets.
 * The host circuit must outlive the attachment. attach checks every term
 * on the host (a column >= n_vars or a coefficient >= n_dict is
 * CUZK_ERR_ARG) and refuses a row longer than a set holds (CUZK_ERR_NOMEM).
 * cuda_circuit_bytes_streamed: the device bytes that takes. One M w at a
 * time per attachment (its buffers are not shared by concurrent calls). */
size_t cuda_circuit_bytes_streamed(const cuzk_host::circuit_t *c, size_t set_bytes);
/* want, or more when the circuit's longest row would not fit a set that
 * size (a pass over the row offsets). */
size_t cuda_circuit_stream_set_bytes(const cuzk_host::circuit_t *c, size_t want);
cuzk_status cuda_circuit_attach_streamed(cuda_circuit_t *out, const cuzk_host::circuit_t *c,
                                         size_t set_bytes, cudaStream_t stream, cuzk_error_t *err);
/* Frees what attach made (cuda_circuit_free calls it). */
void cuda_circuit_stream_free(cuda_circuit_t *c);

/* out[r] = sum_j M[r][j] w[j] for r < n_rows (device memory; w has n_vars
 * elements), enqueued on stream. Returns CUZK_OK; CUZK_ERR_ARG (NULL
 * pointers, unknown matrix); CUZK_ERR_CUDA. */
cuzk_status cuda_spmv(dfr_t *out, const cuda_circuit_t *c, cuzk_host::circuit_matrix m,
                      const dfr_t *w, cudaStream_t stream, cuzk_error_t *err);

#endif
