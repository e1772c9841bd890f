/* The circuit on the device and M w (contract: spmv.cuh).
 *
 * Cost at PoRep scale (~1.3e8 rows, a few terms a row): the row offsets,
 * terms and output stream once (~4 GiB per matrix) and the witness is
 * gathered (32 bytes a term, partly from L2); multiplications only for the
 * terms whose coefficient is not +-1. Memory-bound: a few ms per matrix. */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/h/spmv_kernels.cuh"
#include "backend/cuda/host_pin.cuh"

using namespace cuzk_host;

/* Lists the rows longer than CUDA_SPMV_LONG_ROW (order: whatever the
 * atomics give; each row's sum does not depend on it). */
static __global__ void spmv_find_long(uint32_t *__restrict__ rows, uint32_t *n_long,
                                      const uint64_t *__restrict__ row_ptr, uint32_t n_rows)
{
    uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_rows && row_ptr[r + 1] - row_ptr[r] > CUDA_SPMV_LONG_ROW)
        rows[atomicAdd(n_long, 1u)] = r;
}

/* Counts the terms a kernel could not index safely. */
static __global__ void spmv_check_terms(uint32_t *bad, const uint32_t *__restrict__ col,
                                        const uint32_t *__restrict__ coef, uint64_t nnz,
                                        uint32_t n_vars, uint32_t n_dict)
{
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < nnz;
         j += (uint64_t)gridDim.x * blockDim.x)
        if (col[j] >= n_vars || coef[j] >= n_dict)
            atomicAdd(bad, 1u);
}

/* ---- upload ------------------------------------------------------------------ */

static size_t align_up(size_t x)
{
    return (x + SPMV_ALIGN - 1) & ~(size_t)(SPMV_ALIGN - 1);
}

/* Rows with more than CUDA_SPMV_LONG_ROW terms, at most. */
static uint64_t long_bound(const circuit_t *c, const circuit_csr_t *m)
{
    uint64_t by_terms = m->nnz / (CUDA_SPMV_LONG_ROW + 1);
    return by_terms < c->n_rows ? by_terms : c->n_rows;
}

/* The allocation's layout: per matrix row_ptr, col, coef, long_rows; then
 * dict, kinds, control block. Offsets in bytes; returns the total. */
typedef struct circuit_layout {
    size_t row_ptr[3], col[3], coef[3], long_rows[3];
    size_t dict, kind, ctl, total;
} circuit_layout_t;

static void layout_of(circuit_layout_t *L, const circuit_t *c)
{
    size_t at = 0;
    for (int i = 0; i < 3; i++) {
        const circuit_csr_t *m = &c->m[i];
        L->row_ptr[i] = at;
        at += align_up(((size_t)c->n_rows + 1) * sizeof(uint64_t));
        L->col[i] = at;
        at += align_up(m->nnz * sizeof(uint32_t));
        L->coef[i] = at;
        at += align_up(m->nnz * sizeof(uint32_t));
        L->long_rows[i] = at;
        at += align_up(long_bound(c, m) * sizeof(uint32_t));
    }
    L->dict = at;
    at += align_up((size_t)c->n_dict * sizeof(dfr_t));
    L->kind = at;
    at += align_up(c->n_dict);
    L->ctl = at;
    at += align_up(sizeof(spmv_ctl_t));
    L->total = at;
}

size_t cuda_circuit_bytes(const circuit_t *c)
{
    if (!c)
        return 0;
    circuit_layout_t L;
    layout_of(&L, c);
    return L.total;
}

cuzk_status spmv_check_shape(const circuit_t *c, cuzk_error_t *err)
{
    for (int i = 0; i < 3; i++) {
        const circuit_csr_t *m = &c->m[i];
        if (!m->row_ptr || m->row_ptr[0] != 0 || m->row_ptr[c->n_rows] != m->nnz)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "cuda circuit: matrix %c: row offsets do not run from 0 to nnz",
                                  "ABC"[i]);
        if (m->nnz && (!m->col || !m->coef || !c->dict || c->n_dict == 0))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "cuda circuit: matrix %c: terms without arrays", "ABC"[i]);
    }
    return CUZK_OK;
}

static cuzk_status copy_in(void *dst, const void *src, size_t bytes, cudaStream_t stream,
                           cuzk_error_t *err)
{
    if (!bytes)
        return CUZK_OK;
    return CUDA_CHECK(cuda_copy_h2d(dst, src, bytes, stream), err);
}

/* Copies one matrix, lists its long rows and checks its terms. */
static cuzk_status upload_matrix(cuda_csr_t *d, const circuit_t *c, int i, char *base,
                                 const circuit_layout_t *L, spmv_ctl_t *ctl, cudaStream_t stream,
                                 cuzk_error_t *err)
{
    const circuit_csr_t *m = &c->m[i];
    d->row_ptr = (uint64_t *)(base + L->row_ptr[i]);
    d->col = (uint32_t *)(base + L->col[i]);
    d->coef = (uint32_t *)(base + L->coef[i]);
    d->long_rows = (uint32_t *)(base + L->long_rows[i]);
    d->nnz = m->nnz;
    cuzk_status st =
        copy_in(d->row_ptr, m->row_ptr, ((size_t)c->n_rows + 1) * sizeof(uint64_t), stream, err);
    if (st == CUZK_OK)
        st = copy_in(d->col, m->col, m->nnz * sizeof(uint32_t), stream, err);
    if (st == CUZK_OK)
        st = copy_in(d->coef, m->coef, m->nnz * sizeof(uint32_t), stream, err);
    if (st != CUZK_OK)
        return st;
    if (c->n_rows && long_bound(c, m)) {
        spmv_find_long<<<grid_of(c->n_rows), SPMV_BLOCK, 0, stream>>>(d->long_rows, &ctl->n_long[i],
                                                                      d->row_ptr, c->n_rows);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
            return st;
    }
    if (m->nnz) {
        uint64_t blocks = (m->nnz + SPMV_BLOCK - 1) / SPMV_BLOCK;
        spmv_check_terms<<<(unsigned)(blocks < 65536 ? blocks : 65536), SPMV_BLOCK, 0, stream>>>(
            &ctl->bad_term[i], d->col, d->coef, m->nnz, c->n_vars, c->n_dict);
        st = CUDA_CHECK(cudaGetLastError(), err);
    }
    return st;
}

/* Host side of the dictionary kinds (malloc; NULL when out of memory). */
uint8_t *spmv_dict_kinds(const circuit_t *c)
{
    uint8_t *k = (uint8_t *)malloc(c->n_dict ? c->n_dict : 1);
    if (!k)
        return NULL;
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    for (uint32_t i = 0; i < c->n_dict; i++)
        k[i] = fr_is_one(&c->dict[i])              ? CUDA_SPMV_COEF_ONE
               : fr_equal(&c->dict[i], &minus_one) ? CUDA_SPMV_COEF_MINUS_ONE
                                                   : CUDA_SPMV_COEF_MUL;
    return k;
}

cuzk_status cuda_circuit_upload(cuda_circuit_t *out, const circuit_t *c, cudaStream_t stream,
                                cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_circuit_upload: out is NULL");
    memset(out, 0, sizeof *out);
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_circuit_upload: circuit is NULL");
    cuzk_status st = spmv_check_shape(c, err);
    if (st != CUZK_OK)
        return st;
    uint8_t *kinds = spmv_dict_kinds(c);
    if (!kinds)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuda_circuit_upload: out of host memory");

    circuit_layout_t L;
    layout_of(&L, c);
    cuda_circuit_t t;
    memset(&t, 0, sizeof t);
    t.n_rows = c->n_rows;
    t.n_vars = c->n_vars;
    t.n_dict = c->n_dict;
    t.bytes = L.total;
    spmv_ctl_t ctl;
    memset(&ctl, 0, sizeof ctl);
    st = CUDA_CHECK(cudaMalloc(&t.mem, t.bytes), err);
    char *base = (char *)t.mem;
    spmv_ctl_t *d_ctl = (spmv_ctl_t *)(base + L.ctl);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemsetAsync(d_ctl, 0, sizeof *d_ctl, stream), err);
    for (int i = 0; i < 3 && st == CUZK_OK; i++)
        st = upload_matrix(&t.m[i], c, i, base, &L, d_ctl, stream, err);
    if (st == CUZK_OK) {
        t.dict = (dfr_t *)(base + L.dict);
        t.dict_kind = (uint8_t *)(base + L.kind);
        st = copy_in(t.dict, c->dict, (size_t)c->n_dict * sizeof(dfr_t), stream, err);
    }
    if (st == CUZK_OK)
        st = copy_in(t.dict_kind, kinds, c->n_dict, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemcpyAsync(&ctl, d_ctl, sizeof ctl, cudaMemcpyDeviceToHost, stream),
                        err);
    /* the host buffers (kinds, ctl) must outlive the copies */
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    free(kinds);
    for (int i = 0; i < 3 && st == CUZK_OK; i++) {
        if (ctl.bad_term[i])
            st = cuzk_error_set(err, CUZK_ERR_ARG,
                                "cuda_circuit_upload: matrix %c: %u terms with a column >= %u "
                                "or a coefficient index >= %u",
                                "ABC"[i], ctl.bad_term[i], c->n_vars, c->n_dict);
        t.m[i].n_long = ctl.n_long[i];
    }
    if (st != CUZK_OK) {
        cuda_circuit_free(&t);
        return st;
    }
    *out = t;
    return CUZK_OK;
}

void cuda_circuit_free(cuda_circuit_t *c)
{
    if (!c)
        return;
    if (c->stream)
        cuda_circuit_stream_free(c);
    if (c->mem)
        (void)cudaFree(c->mem);
    memset(c, 0, sizeof *c);
}

/* ---- M w ------------------------------------------------------------------- */

cuzk_status cuda_spmv(dfr_t *out, const cuda_circuit_t *c, circuit_matrix m, const dfr_t *w,
                      cudaStream_t stream, cuzk_error_t *err)
{
    if (!out || !c || (!c->mem && !c->stream) || !w)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_spmv: NULL output, circuit or witness");
    if ((unsigned)m > CIRCUIT_C)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_spmv: matrix %d is not A, B or C", (int)m);
    const cuda_csr_t *M = &c->m[m];
    if (c->n_rows == 0)
        return CUZK_OK;
    if (c->stream)
        return cuda_spmv_streamed(out, c, (int)m, w, stream, err);
    spmv_short_rows<<<grid_of(c->n_rows), SPMV_BLOCK, 0, stream>>>(
        out, M->row_ptr, M->col, M->coef, 0, c->n_rows, c->dict, c->dict_kind, w);
    cuzk_status st = CUDA_CHECK(cudaGetLastError(), err);
    if (st != CUZK_OK || M->n_long == 0)
        return st;
    spmv_long_rows<<<M->n_long, SPMV_BLOCK, 0, stream>>>(out, M->long_rows, M->row_ptr, M->col,
                                                         M->coef, 0, c->dict, c->dict_kind, w);
    return CUDA_CHECK(cudaGetLastError(), err);
}
