/* The streamed circuit (contract: spmv.cuh): blocks of rows copied in
 * through two buffer sets, double-buffered against the kernels.
 *
 * Cost at PoRep scale: the three matrices are ~9 GB of row offsets and
 * terms, copied once per proof (~0.2-0.4 s at 25-50 GB/s from pinned
 * memory), mostly hidden behind the kernels of the previous block; the
 * kernels are the resident ones, reading terms at an offset. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/host_pin.cuh"
#include "backend/cuda/h/spmv_kernels.cuh"

using namespace cuzk_host;

typedef struct sblock {
    uint32_t r0, rows;
    uint64_t t0, terms;
    uint32_t long_first, n_long; /* its long rows in the matrix's list (block-local rows) */
} sblock_t;

struct cuda_circuit_stream {
    const circuit_t *host;
    uint32_t rows_cap;
    uint64_t terms_cap;
    sblock_t *blocks[3];
    uint32_t n_blocks[3];
    uint32_t *long_rows; /* device: each matrix's list, block-local row indices */
    size_t long_off[3];
    void *sets;
    uint64_t *rp[2];
    uint32_t *col[2], *coef[2];
    cudaStream_t cs;
    cudaEvent_t copied[2], consumed[2];
    int used[2];
    void *pinned[9];
    int n_pinned;
};

static size_t align_up(size_t x)
{
    return (x + SPMV_ALIGN - 1) & ~(size_t)(SPMV_ALIGN - 1);
}

/* A set's capacity: an eighth of it for row offsets, the rest for terms. */
static void caps_of(size_t set_bytes, uint32_t *rows_cap, uint64_t *terms_cap)
{
    size_t rows = set_bytes / 64;
    if (rows > UINT32_MAX - 1)
        rows = UINT32_MAX - 1;
    *rows_cap = (uint32_t)rows;
    size_t rp = align_up((rows + 1) * sizeof(uint64_t));
    *terms_cap = set_bytes > rp + 2 * SPMV_ALIGN ? (set_bytes - rp - 2 * SPMV_ALIGN) / 8 : 0;
}

static size_t set_layout(uint32_t rows_cap, uint64_t terms_cap, size_t *col_at, size_t *coef_at)
{
    size_t at = align_up(((size_t)rows_cap + 1) * sizeof(uint64_t));
    *col_at = at;
    at += align_up(terms_cap * sizeof(uint32_t));
    *coef_at = at;
    return at + align_up(terms_cap * sizeof(uint32_t));
}

/* Blocks of matrix m and the number of its long rows (host pass). 0 rows
 * in a block: a row longer than a set holds. */
static cuzk_status plan_blocks(sblock_t **out, uint32_t *n_out, uint32_t *n_long_out,
                               const circuit_csr_t *M, uint32_t n_rows, uint32_t rows_cap,
                               uint64_t terms_cap, cuzk_error_t *err)
{
    uint32_t cap = 16, n = 0, n_long = 0;
    sblock_t *b = (sblock_t *)malloc(cap * sizeof *b);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "streamed circuit: out of host memory");
    for (uint32_t r0 = 0; r0 < n_rows;) {
        uint32_t r1 = r0, nl = 0;
        while (r1 < n_rows && r1 - r0 < rows_cap &&
               M->row_ptr[r1 + 1] - M->row_ptr[r0] <= terms_cap) {
            nl += M->row_ptr[r1 + 1] - M->row_ptr[r1] > CUDA_SPMV_LONG_ROW;
            r1++;
        }
        if (r1 == r0) {
            free(b);
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "streamed circuit: row %u has %llu terms, more than a stream "
                                  "buffer holds (%llu)",
                                  r0, (unsigned long long)(M->row_ptr[r0 + 1] - M->row_ptr[r0]),
                                  (unsigned long long)terms_cap);
        }
        if (n == cap) {
            sblock_t *nb = (sblock_t *)realloc(b, 2 * cap * sizeof *b);
            if (!nb) {
                free(b);
                return cuzk_error_set(err, CUZK_ERR_NOMEM, "streamed circuit: out of host memory");
            }
            b = nb;
            cap *= 2;
        }
        b[n++] = {r0, r1 - r0, M->row_ptr[r0], M->row_ptr[r1] - M->row_ptr[r0], n_long, nl};
        n_long += nl;
        r0 = r1;
    }
    *out = b;
    *n_out = n;
    *n_long_out = n_long;
    return CUZK_OK;
}

/* Every term indexes the witness and the dictionary safely. */
static cuzk_status check_terms(const circuit_t *c, cuzk_error_t *err)
{
    cuzk_status st = spmv_check_shape(c, err);
    if (st != CUZK_OK)
        return st;
    for (int i = 0; i < 3; i++) {
        const circuit_csr_t *M = &c->m[i];
        uint64_t bad = 0;
        for (uint64_t j = 0; j < M->nnz; j++)
            bad += M->col[j] >= c->n_vars || M->coef[j] >= c->n_dict;
        if (bad)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "streamed circuit: matrix %c: %llu terms with a column >= %u or "
                                  "a coefficient index >= %u",
                                  "ABC"[i], (unsigned long long)bad, c -> n_vars, c -> n_dict);
    }
    return CUZK_OK;
}

/* The longest row of c's matrices, remembered for the last few circuits:
 * plans ask for it once per streamed proof, and at 2^27 the pass is ~0.3 s
 * (circuits are immutable while a backend holds them). */
#define LONGEST_CACHE 8
typedef struct longest_entry {
    const circuit_t *c;
    uint64_t nnz[3];
    uint32_t n_rows;
    uint64_t longest;
} longest_entry_t;
static pthread_mutex_t g_longest_mu = PTHREAD_MUTEX_INITIALIZER;
static longest_entry_t g_longest[LONGEST_CACHE];
static unsigned g_longest_next;

static uint64_t longest_row(const circuit_t *c)
{
    pthread_mutex_lock(&g_longest_mu);
    for (unsigned i = 0; i < LONGEST_CACHE; i++) {
        const longest_entry_t *e = &g_longest[i];
        if (e->c == c && e->n_rows == c->n_rows && e->nnz[0] == c->m[0].nnz &&
            e->nnz[1] == c->m[1].nnz && e->nnz[2] == c->m[2].nnz) {
            uint64_t v = e->longest;
            pthread_mutex_unlock(&g_longest_mu);
            return v;
        }
    }
    pthread_mutex_unlock(&g_longest_mu);
    uint64_t longest = 0;
    for (int i = 0; i < 3; i++)
        if (c->m[i].row_ptr)
            for (uint32_t r = 0; r < c->n_rows; r++) {
                uint64_t len = c->m[i].row_ptr[r + 1] - c->m[i].row_ptr[r];
                if (len > longest)
                    longest = len;
            }
    pthread_mutex_lock(&g_longest_mu);
    g_longest[g_longest_next++ % LONGEST_CACHE] =
        (longest_entry_t){c, {c->m[0].nnz, c->m[1].nnz, c->m[2].nnz}, c->n_rows, longest};
    pthread_mutex_unlock(&g_longest_mu);
    return longest;
}

size_t cuda_circuit_stream_set_bytes(const circuit_t *c, size_t want)
{
    uint64_t longest = c ? longest_row(c) : 0;
    /* caps_of gives terms an eighth less than the set, less the alignment */
    size_t need = (size_t)((longest * 8 + 4 * SPMV_ALIGN) * 8 / 7) + 4096;
    return want > need ? want : need;
}

size_t cuda_circuit_bytes_streamed(const circuit_t *c, size_t set_bytes)
{
    if (!c)
        return 0;
    uint32_t rows_cap;
    uint64_t terms_cap;
    caps_of(set_bytes, &rows_cap, &terms_cap);
    size_t col_at, coef_at, set = set_layout(rows_cap, terms_cap, &col_at, &coef_at);
    /* long rows: at most nnz / (LONG_ROW + 1) a matrix */
    size_t longs = 0;
    for (int i = 0; i < 3; i++)
        longs += align_up((c->m[i].nnz / (CUDA_SPMV_LONG_ROW + 1) + 1) * sizeof(uint32_t));
    return align_up((size_t)c->n_dict * sizeof(dfr_t)) + align_up(c->n_dict ? c->n_dict : 1) +
           longs + 2 * set;
}

void cuda_circuit_stream_free(cuda_circuit_t *c)
{
    struct cuda_circuit_stream *S = c->stream;
    if (!S)
        return;
    if (S->cs) {
        (void)cudaStreamSynchronize(S->cs);
        (void)cudaStreamDestroy(S->cs);
    }
    for (int k = 0; k < 2; k++) {
        if (S->copied[k])
            (void)cudaEventDestroy(S->copied[k]);
        if (S->consumed[k])
            (void)cudaEventDestroy(S->consumed[k]);
    }
    if (S->sets)
        (void)cudaFree(S->sets);
    if (S->long_rows)
        (void)cudaFree(S->long_rows);
    for (int i = 0; i < S->n_pinned; i++)
        cuda_host_pin_release(S->pinned[i]);
    for (int i = 0; i < 3; i++)
        free(S->blocks[i]);
    free(S);
    c->stream = NULL;
}

/* Pins one host array in place for the copies (refused: copied from
 * pageable memory, slower but the same). */
static void pin(struct cuda_circuit_stream *S, const void *p, size_t bytes)
{
    if (p && bytes && cuda_host_pin_acquire((void *)p, bytes))
        S->pinned[S->n_pinned++] = (void *)p;
}

/* The device's dictionary and kinds into c->mem (resident layout's tail). */
static cuzk_status upload_dict(cuda_circuit_t *c, const circuit_t *h, cudaStream_t stream,
                               cuzk_error_t *err)
{
    size_t dict_bytes = align_up((size_t)h->n_dict * sizeof(dfr_t));
    uint8_t *kinds = spmv_dict_kinds(h);
    if (!kinds)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "streamed circuit: out of host memory");
    cuzk_status st =
        CUDA_CHECK(cudaMalloc(&c->mem, dict_bytes + align_up(h->n_dict ? h->n_dict : 1)), err);
    if (st == CUZK_OK) {
        c->dict = (dfr_t *)c->mem;
        c->dict_kind = (uint8_t *)c->mem + dict_bytes;
        if (h->n_dict)
            st = CUDA_CHECK(cudaMemcpyAsync(c->dict, h->dict, (size_t)h->n_dict * sizeof(dfr_t),
                                            cudaMemcpyHostToDevice, stream),
                            err);
        if (st == CUZK_OK && h->n_dict)
            st = CUDA_CHECK(
                cudaMemcpyAsync(c->dict_kind, kinds, h->n_dict, cudaMemcpyHostToDevice, stream),
                err);
    }
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    free(kinds);
    return st == CUZK_OK ? s2 : st;
}

/* Each matrix's block-local long rows, listed on the host, to the device. */
static cuzk_status upload_long_rows(struct cuda_circuit_stream *S, const circuit_t *h,
                                    const uint32_t n_long[3], cudaStream_t stream,
                                    cuzk_error_t *err)
{
    size_t total = 0;
    for (int i = 0; i < 3; i++) {
        S->long_off[i] = total;
        total += n_long[i];
    }
    if (!total)
        return CUZK_OK;
    uint32_t *list = (uint32_t *)malloc(total * sizeof *list);
    if (!list)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "streamed circuit: out of host memory");
    for (int i = 0; i < 3; i++) {
        const circuit_csr_t *M = &h->m[i];
        for (uint32_t b = 0; b < S->n_blocks[i]; b++) {
            const sblock_t *B = &S->blocks[i][b];
            uint32_t *at = list + S->long_off[i] + B->long_first;
            for (uint32_t r = 0; r < B->rows; r++)
                if (M->row_ptr[B->r0 + r + 1] - M->row_ptr[B->r0 + r] > CUDA_SPMV_LONG_ROW)
                    *at++ = r;
        }
    }
    cuzk_status st = CUDA_CHECK(cudaMalloc((void **)&S->long_rows, total * sizeof *list), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemcpyAsync(S->long_rows, list, total * sizeof *list,
                                        cudaMemcpyHostToDevice, stream),
                        err);
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    free(list);
    return st == CUZK_OK ? s2 : st;
}

cuzk_status cuda_circuit_attach_streamed(cuda_circuit_t *out, const circuit_t *c, size_t set_bytes,
                                         cudaStream_t stream, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_circuit_attach_streamed: out is NULL");
    memset(out, 0, sizeof *out);
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_circuit_attach_streamed: circuit is NULL");
    cuzk_status st = check_terms(c, err);
    if (st != CUZK_OK)
        return st;
    struct cuda_circuit_stream *S =
        (struct cuda_circuit_stream *)calloc(1, sizeof(struct cuda_circuit_stream));
    if (!S)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "streamed circuit: out of host memory");
    cuda_circuit_t t;
    memset(&t, 0, sizeof t);
    t.n_rows = c->n_rows;
    t.n_vars = c->n_vars;
    t.n_dict = c->n_dict;
    t.stream = S;
    S->host = c;
    caps_of(set_bytes, &S->rows_cap, &S->terms_cap);
    uint32_t n_long[3] = {0, 0, 0};
    for (int i = 0; i < 3 && st == CUZK_OK; i++)
        st = plan_blocks(&S->blocks[i], &S->n_blocks[i], &n_long[i], &c->m[i], c->n_rows,
                         S->rows_cap, S->terms_cap, err);
    size_t col_at = 0, coef_at = 0, set = set_layout(S->rows_cap, S->terms_cap, &col_at, &coef_at);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&S->sets, 2 * set), err);
    for (int k = 0; k < 2 && st == CUZK_OK; k++) {
        char *base = (char *)S->sets + k * set;
        S->rp[k] = (uint64_t *)base;
        S->col[k] = (uint32_t *)(base + col_at);
        S->coef[k] = (uint32_t *)(base + coef_at);
        if ((st = CUDA_CHECK(cudaEventCreateWithFlags(&S->copied[k], cudaEventDisableTiming),
                             err)) == CUZK_OK)
            st = CUDA_CHECK(cudaEventCreateWithFlags(&S->consumed[k], cudaEventDisableTiming), err);
    }
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaStreamCreateWithFlags(&S->cs, cudaStreamNonBlocking), err);
    if (st == CUZK_OK)
        st = upload_long_rows(S, c, n_long, stream, err);
    if (st == CUZK_OK)
        st = upload_dict(&t, c, stream, err);
    if (st == CUZK_OK)
        for (int i = 0; i < 3; i++) {
            pin(S, c->m[i].row_ptr, ((size_t)c->n_rows + 1) * sizeof(uint64_t));
            pin(S, c->m[i].col, c->m[i].nnz * sizeof(uint32_t));
            pin(S, c->m[i].coef, c->m[i].nnz * sizeof(uint32_t));
        }
    t.bytes = cuda_circuit_bytes_streamed(c, set_bytes);
    if (st != CUZK_OK) {
        cuda_circuit_free(&t);
        return st;
    }
    *out = t;
    return CUZK_OK;
}

cuzk_status cuda_spmv_streamed(dfr_t *out, const cuda_circuit_t *c, int m, const dfr_t *w,
                               cudaStream_t stream, cuzk_error_t *err)
{
    struct cuda_circuit_stream *S = c->stream;
    const circuit_csr_t *M = &S->host->m[m];
    cuzk_status st = CUZK_OK;
    for (uint32_t b = 0; b < S->n_blocks[m] && st == CUZK_OK; b++) {
        const sblock_t *B = &S->blocks[m][b];
        int k = (int)(b & 1);
        /* the set is free again once the kernels that read it are done */
        if (S->used[k] &&
            (st = CUDA_CHECK(cudaStreamWaitEvent(S->cs, S->consumed[k], 0), err)) != CUZK_OK)
            break;
        st = CUDA_CHECK(cuda_copy_h2d(S->rp[k], M->row_ptr + B->r0,
                                      ((size_t)B->rows + 1) * sizeof(uint64_t), S->cs),
                        err);
        if (st == CUZK_OK && B->terms)
            st = CUDA_CHECK(
                cuda_copy_h2d(S->col[k], M->col + B->t0, B->terms * sizeof(uint32_t), S->cs), err);
        if (st == CUZK_OK && B->terms)
            st = CUDA_CHECK(
                cuda_copy_h2d(S->coef[k], M->coef + B->t0, B->terms * sizeof(uint32_t), S->cs),
                err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaEventRecord(S->copied[k], S->cs), err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaStreamWaitEvent(stream, S->copied[k], 0), err);
        if (st != CUZK_OK)
            break;
        spmv_short_rows<<<grid_of(B->rows), SPMV_BLOCK, 0, stream>>>(
            out + B->r0, S->rp[k], S->col[k], S->coef[k], B->t0, B->rows, c->dict, c->dict_kind, w);
        if (B->n_long)
            spmv_long_rows<<<B->n_long, SPMV_BLOCK, 0, stream>>>(
                out + B->r0, S->long_rows + S->long_off[m] + B->long_first, S->rp[k], S->col[k],
                S->coef[k], B->t0, c->dict, c->dict_kind, w);
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) == CUZK_OK)
            st = CUDA_CHECK(cudaEventRecord(S->consumed[k], stream), err);
        S->used[k] = 1;
    }
    return st;
}
