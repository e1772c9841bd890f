/* The CUDA Groth16 backend (include/cuzk/cuda_backend.h): a resident key
 * and circuit, and per proof: witness upload, H computation, the density
 * gathers and the five MSMs, on one stream; where the bases stream, H
 * and the H-MSM beside A, B and L's MSMs on two (CUZK_PROVE_OVERLAP). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cuda/h/h_scalars.cuh"
#include "backend/cuda/host_call.cuh"
#include "backend/cuda/host_pin.cuh"
#include "backend/cuda/msm/msm.cuh"
#include "backend/cuda/resident.cuh"
#include "backend/cuda/debug/stream_trace.cuh"
#include "cuzk/cuda.h"

namespace cuzk_host
{
#include "cuzk/cuda_backend.h"
#include "cuzk/device.h"
#include "cuzk/cuda_msm.h"
} // namespace cuzk_host

using namespace cuzk_host;

#define DEFAULT_HEADROOM ((size_t)512 << 20)

/* What identifies a key's bases: where they are and how many. */
typedef struct key_id {
    const void *data[5];
    size_t n[5];
    groth16_convention conv;
} key_id_t;

/* The five queries, in this order everywhere. */
enum { Q_A, Q_B1, Q_B2, Q_L, Q_H, Q_N };

typedef struct base_set {
    size_t n;
    int g2;
    msm_base_format fmt;
    void *dev;        /* decoded device points: resident, or the caller's (MSM_BASES_DEVICE) */
    int dev_borrowed; /* dev is the caller's: never freed here */
    const void *host; /* streaming: the raw records, in pinned memory */
    void *host_own;   /* ... copied there by us (cudaFreeHost), or NULL */
    void *host_reg;   /* ... the caller's memory, registered by us (cudaHostUnregister), or NULL */
} base_set_t;

/* Where a streamed MSM runs: its compute stream, the copy stream and
 * events of its chunk buffers, its trace (CUZK_STREAM_TRACE, else NULL).
 * Two lanes run at once with overlap (H and the H-MSM on one, A, B and L
 * on the other). */
typedef struct lane {
    cudaStream_t s, cs;
    cudaEvent_t copied[2];
    cuda_stream_trace_t *trace;
} lane_t;

typedef struct cuda_backend {
    groth16_backend_t be; /* first: the table handed out */
    int device;
    size_t budget;
    size_t admitted;               /* the engine's plan budget (device_admit_t); 0: none given */
    device_layout admitted_layout; /* ... and the layout it planned there */
    size_t plan_budget;            /* the budget the layout held now was planned under */
    int workers;                /* backends on this device sharing its resident copy and budget */
    const cuda_resident_t *res; /* the shared copy of key and circuit, or NULL (streaming) */
    lane_t ln[2];   /* [0]: everything, or H and the H-MSM; [1]: A, B and L beside them */
    cudaStream_t s; /* ln[0].s: compute */
    int overlap;    /* CUZK_PROVE_OVERLAP (streaming layouts only) */
    int h_alone;    /* overlap: the H-MSM's chunks and plan lie in hp.b alone */
    /* resident */
    int have_key;
    key_id_t key;
    base_set_t q[Q_N];
    int streaming;
    int lean;            /* streaming, the circuit streamed too, sa = sb = the H scratch (hp.b) */
    size_t chunk_points; /* G1 points per chunk buffer (G2: half) */
    void *chunk[2];
    /* the H-MSM's larger chunks (h_chunk_fit), carved from hp's scratch and
     * w with their plan gh; gh.n_max == 0 when the H-MSM takes chunk[] */
    size_t h_chunk_points;
    void *hchunk[2];
    cuda_msm_plan_t gh;
    const circuit_t *circ; /* the circuit the device copy was made from */
    uint64_t circ_nnz[3];
    cuda_circuit_t dc;
    uint32_t *a_idx, *b_idx; /* bellperson density lists (device), else NULL */
    size_t n_a, n_b, n_l;
    /* scratch */
    cuda_h_plan_t hp;
    cuda_msm_plan_t g1, g2;
    dfr_t *w, *p, *sa, *sb;
    dfr_t *gbuf; /* lean: a chunk's gathered A or B scalars (overlap: hp.b is H's) */
    size_t n_w;
    /* a warm's progress (NULL outside cuzk_cuda_backend_warm) */
    cuzk_cuda_progress_fn progress;
    void *pctx;
    uint64_t prog_done, prog_total;
} cuda_backend_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void cfree(void *p)
{
    if (p)
        (void)cudaFree(p);
}

static void drop_all(cuda_backend_t *x)
{
    for (int l = 0; l < 2; l++) {
        if (x->ln[l].s)
            (void)cudaStreamSynchronize(x->ln[l].s);
        if (x->ln[l].cs)
            (void)cudaStreamSynchronize(x->ln[l].cs);
    }
    if (x->res) { /* borrowed from the shared copy: not ours to free */
        memset(&x->dc, 0, sizeof x->dc);
        x->a_idx = x->b_idx = NULL;
        cuda_resident_release(x->res);
        x->res = NULL;
    }
    for (int i = 0; i < Q_N; i++) {
        if (!x->q[i].dev_borrowed)
            cfree(x->q[i].dev);
        if (x->q[i].host_own)
            (void)cudaFreeHost(x->q[i].host_own);
        if (x->q[i].host_reg)
            cuda_host_pin_release(x->q[i].host_reg);
    }
    memset(x->q, 0, sizeof x->q);
    cuda_msm_plan_free(&x->gh); /* carved: frees no device memory */
    x->hchunk[0] = x->hchunk[1] = NULL;
    x->h_chunk_points = 0;
    x->h_alone = 0;
    cfree(x->chunk[0]);
    cfree(x->chunk[1]);
    x->chunk[0] = x->chunk[1] = NULL;
    cfree(x->a_idx);
    cfree(x->b_idx);
    cfree(x->w);
    cfree(x->p);
    cfree(x->gbuf);
    x->gbuf = NULL;
    if (!x->lean) { /* lean: they are the H plan's scratch */
        cfree(x->sa);
        cfree(x->sb);
    }
    cuda_circuit_free(&x->dc);
    cuda_h_plan_free(&x->hp);
    cuda_msm_plan_free(&x->g1);
    cuda_msm_plan_free(&x->g2);
    x->a_idx = x->b_idx = NULL;
    x->w = x->p = x->sa = x->sb = NULL;
    x->have_key = 0;
    x->streaming = 0;
    x->lean = 0;
    x->circ = NULL;
}

static key_id_t key_of(const groth16_pk_t *pk)
{
    key_id_t k;
    memset(&k, 0, sizeof k);
    const groth16_query_t *q[Q_N] = {&pk->a, &pk->b_g1, &pk->b_g2, &pk->l, &pk->h};
    for (int i = 0; i < Q_N; i++) {
        k.data[i] = q[i]->bases.data;
        k.n[i] = q[i]->n;
    }
    k.conv = pk->conv;
    return k;
}

/* ---- the memory plan ----------------------------------------------------- */

static const groth16_query_t *query_of(const groth16_pk_t *pk, int i)
{
    const groth16_query_t *q[Q_N] = {&pk->a, &pk->b_g1, &pk->b_g2, &pk->l, &pk->h};
    return q[i];
}

/* Device bytes of the bases that are not already in device memory
 * (MSM_BASES_DEVICE bases are their owner's): what a resident copy holds
 * and loads, and what streaming reads from the host. */
static size_t host_bases_bytes(const groth16_pk_t *pk)
{
    size_t t = 0;
    for (int i = 0; i < Q_N; i++) {
        const groth16_query_t *q = query_of(pk, i);
        if (q->bases.fmt != MSM_BASES_DEVICE)
            t += q->n * (i == Q_B2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t));
    }
    return t;
}

static size_t g1_max(const groth16_pk_t *pk)
{
    size_t m = pk->a.n;
    if (pk->l.n > m)
        m = pk->l.n;
    if (pk->h.n > m)
        m = pk->h.n;
    if (pk->b_g1.n > m)
        m = pk->b_g1.n;
    return m;
}

#define MIN_CHUNK ((size_t)1 << 12)

#define LEAN_SET_MAX ((size_t)256 << 20)     /* each of the streamed circuit's two buffer sets */
#define LEAN_SET_MIN ((size_t)4 << 10)       /* small: many blocks, which tests like */
#define LEAN_MSM_SCRATCH ((size_t)512 << 20) /* sorted entries + buckets of a lean MSM plan */

/* A lean layout's stream buffer sets: a sixteenth of the resident circuit
 * (small circuits need not pay for 256 MiB sets), within the bounds, and
 * never too small for the longest row. */
static size_t lean_set_bytes(const circuit_t *c)
{
    size_t b = cuda_circuit_bytes(c) / 16;
    b = b < LEAN_SET_MIN ? LEAN_SET_MIN : b > LEAN_SET_MAX ? LEAN_SET_MAX : b;
    return cuda_circuit_stream_set_bytes(c, b);
}

/* The largest power-of-two chunk whose two buffers and MSM plans (with
 * scratch_limit) and per_point more bytes a point (lean: a chunk's
 * gathered scalars) fit budget beside circ (the circuit's device bytes)
 * and fixed (the per-proof vectors): fills out's streaming fields; 0 when
 * none fits. */
static int stream_fit(cuzk_cuda_plan_t *out, size_t circ, size_t fixed, size_t budget, size_t g1n,
                      size_t scratch_limit, size_t per_point)
{
    size_t base = circ + fixed, top = MIN_CHUNK;
    while (top < g1n)
        top *= 2;
    for (size_t ch = top; ch >= MIN_CHUNK; ch /= 2) {
        size_t need = 2 * ch * sizeof(dg1_affine_t) + ch * per_point +
                      cuda_msm_plan_bytes(CUDA_CURVE_G1, ch, scratch_limit) +
                      cuda_msm_plan_bytes(CUDA_CURVE_G2, ch / 2, scratch_limit);
        if (base + need <= budget) {
            out->streaming = 1;
            out->chunk_points = ch;
            out->key_bytes = 2 * ch * sizeof(dg1_affine_t);
            out->scratch_bytes = need - out->key_bytes + fixed;
            out->total = base + need;
            return 1;
        }
    }
    return 0;
}

/* bytes rounded up to 256: each carved buffer starts on its own lines */
static size_t align256(size_t bytes)
{
    return (bytes + 255) & ~(size_t)255;
}

/* Where the H-MSM's larger chunks go: two chunk buffers of ch points in
 * one region and a G1 plan for ch points in the other, the regions being
 * the H plan's scratch (h, free once H is made and A's and B's scalars,
 * which lean keeps there, are summed) and the witness vector (w, free once
 * L's MSM read it): the H-MSM runs after both. Returns 1 with the bases in
 * w, 2 with them in h, 0 when ch does not fit. 256 bytes of each region
 * are kept for alignment. */
static int h_chunk_regions(size_t ch, size_t h, size_t w)
{
    size_t bases = 2 * align256(ch * sizeof(dg1_affine_t)) + 256;
    size_t plan = cuda_msm_plan_bytes(CUDA_CURVE_G1, ch, 0) + 256;
    if (bases <= w && plan <= h)
        return 1;
    if (bases <= h && plan <= w)
        return 2;
    return 0;
}

/* The H-MSM's chunk (out->h_chunk_points) for a streaming plan: the
 * largest power of two above chunk_points, and at most the H query's
 * size, that h_chunk_regions places; else chunk_points. A 4M-point G1
 * chunk costs ~20% more a point than a 16M one (16 windows at c = 16
 * against 13 at c = 20), and the H-MSM's scalars are random: it is the
 * compute-bound one of the streamed MSMs. */
static void h_chunk_fit(cuzk_cuda_plan_t *out, const groth16_pk_t *pk)
{
    out->h_chunk_points = out->chunk_points;
    size_t h = cuda_h_scratch_bytes(pk->log_m, pk->conv), w = pk->n_vars * sizeof(dfr_t);
    size_t top = MIN_CHUNK;
    while (top < pk->h.n)
        top *= 2;
    for (size_t ch = top; ch > out->chunk_points; ch /= 2)
        if (h_chunk_regions(ch, h, w)) {
            out->h_chunk_points = ch;
            return;
        }
}

extern "C" cuzk_status cuzk_cuda_backend_plan(cuzk_cuda_plan_t *out, const groth16_pk_t *pk,
                                              const circuit_t *c, size_t budget, cuzk_error_t *err)
{
    return cuzk_cuda_backend_plan_shared(out, pk, c, budget, 1, err);
}

extern "C" cuzk_status cuzk_cuda_backend_plan_shared(cuzk_cuda_plan_t *out, const groth16_pk_t *pk,
                                                     const circuit_t *c, size_t budget, int workers,
                                                     cuzk_error_t *err)
{
    if (!out || !pk || !c || workers < 1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_backend_plan: NULL argument or workers < 1");
    memset(out, 0, sizeof *out);
    size_t m = (size_t)1 << pk->log_m, g1n = g1_max(pk);
    size_t idx = pk->conv == GROTH16_BELLPERSON ? pk->a.n + pk->b_g1.n : 0;
    out->circuit_bytes = cuda_circuit_bytes(c) + idx * sizeof(uint32_t);
    size_t fixed = cuda_h_plan_bytes(pk->log_m, pk->conv) + (pk->n_vars + m + idx) * sizeof(dfr_t);
    out->key_bytes = host_bases_bytes(pk);
    out->scratch_bytes = fixed + cuda_msm_plan_bytes(CUDA_CURVE_G1, g1n, 0) +
                         cuda_msm_plan_bytes(CUDA_CURVE_G2, pk->b_g2.n, 0);
    /* resident: one shared copy of key and circuit, scratch for each worker */
    out->total = out->key_bytes + out->circuit_bytes + (size_t)workers * out->scratch_bytes;
    if (!budget || out->total <= budget || out->key_bytes == 0)
        return CUZK_OK;
    /* Streaming, each worker on its own share of the budget: the largest
     * power-of-two chunk whose two buffers and MSM plans fit beside the
     * fixed part (the circuit and the per-proof vectors). */
    size_t w_total = out->key_bytes + out->circuit_bytes + out->scratch_bytes;
    budget /= (size_t)workers;
    if (stream_fit(out, out->circuit_bytes, fixed, budget, g1n, 0, 0)) {
        h_chunk_fit(out, pk);
        return CUZK_OK;
    }
    /* Lean (bellperson): the circuit streams too, and the gathered A and B
     * scalars take the H scratch vector's place in turn (it is free once
     * H is made); smaller MSM scratch. */
    if (pk->conv == GROTH16_BELLPERSON && pk->a.n <= m && pk->b_g1.n <= m) {
        size_t circ = cuda_circuit_bytes_streamed(c, lean_set_bytes(c)) + idx * sizeof(uint32_t);
        size_t lean = cuda_h_plan_bytes(pk->log_m, pk->conv) + (pk->n_vars + m) * sizeof(dfr_t);
        if (stream_fit(out, circ, lean, budget, g1n, LEAN_MSM_SCRATCH, sizeof(dfr_t))) {
            out->lean = 1;
            out->circuit_bytes = circ;
            h_chunk_fit(out, pk);
            return CUZK_OK;
        }
    }
    out->total = w_total;
    return cuzk_error_set(err, CUZK_ERR_NOMEM,
                          "the proof needs %.2f GiB on the GPU with the key resident (key %.2f, "
                          "circuit %.2f, scratch %.2f), and more than the VRAM budget of %.2f GiB "
                          "%seven with the bases and the circuit streamed from host memory",
                          out->total / 1073741824.0, out->key_bytes / 1073741824.0,
                          out->circuit_bytes / 1073741824.0, out->scratch_bytes / 1073741824.0,
                          budget / 1073741824.0, workers > 1 ? "per worker " : "");
}

/* ---- residency ----------------------------------------------------------- */

static cuzk_status dalloc(void **p, size_t bytes, cuzk_error_t *err)
{
    return CUDA_CHECK(cudaMalloc(p, bytes > 0 ? bytes : 1), err);
}

static cuzk_status upload_idx(uint32_t **dst, const uint32_t *src, size_t n, cudaStream_t s,
                              cuzk_error_t *err)
{
    cuzk_status st = dalloc((void **)dst, n * sizeof(uint32_t), err);
    if (st == CUZK_OK && n)
        st = CUDA_CHECK(cudaMemcpyAsync(*dst, src, n * sizeof(uint32_t), cudaMemcpyHostToDevice, s),
                        err);
    return st;
}

static size_t rec_bytes(const base_set_t *b)
{
    return b->g2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t);
}

/* Bases a GPU setup left on the device: used in place, on their device. */
static cuzk_status borrow_device_bases(cuda_backend_t *x, base_set_t *b, const void *data,
                                       cuzk_error_t *err)
{
    cudaPointerAttributes a;
    cuzk_status st = CUDA_CHECK(cudaPointerGetAttributes(&a, data), err);
    if (st != CUZK_OK)
        return st;
    if (a.type != cudaMemoryTypeDevice || a.device != x->device)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda backend: bases marked as device memory are not in the memory "
                              "of device %d",
                              x->device);
    b->dev = (void *)data;
    b->dev_borrowed = 1;
    return CUZK_OK;
}

/* Streaming reads the records from pinned memory: memory registered by
 * another backend of this process is shared (a reference on it), memory
 * pinned by the caller is used as it is, other memory is registered in
 * place (a 44 GiB key is not copied), and copied into a pinned buffer only
 * when the registration is refused (some mappings cannot be pinned). */
static cuzk_status pin_host_bases(base_set_t *b, const void *data, size_t bytes, cuzk_error_t *err)
{
    b->host = data;
    if (!bytes)
        return CUZK_OK;
    if (cuda_host_pin_acquire((void *)data, bytes)) {
        b->host_reg = (void *)data;
        return CUZK_OK;
    }
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, data) == cudaSuccess && a.type == cudaMemoryTypeHost)
        return CUZK_OK; /* the caller's page-locked memory (or a registration we do not own) */
    (void)cudaGetLastError(); /* an unregistered pointer is not an error here */
    cuzk_status st = CUDA_CHECK(cudaMallocHost(&b->host_own, bytes), err);
    if (st != CUZK_OK)
        return st;
    memcpy(b->host_own, data, bytes);
    b->host = b->host_own;
    return CUZK_OK;
}

/* One query's bases when streaming: borrowed from the device
 * (MSM_BASES_DEVICE) or read from pinned host memory. */
static cuzk_status load_bases(cuda_backend_t *x, base_set_t *b, const groth16_query_t *q, int g2,
                              cuzk_error_t *err)
{
    b->n = q->n;
    b->g2 = g2;
    b->fmt = q->bases.fmt;
    if (b->fmt == MSM_BASES_DEVICE)
        return borrow_device_bases(x, b, q->bases.data, err);
    return pin_host_bases(b, q->bases.data, b->n * rec_bytes(b), err);
}

/* ---- the shared resident copy (resident.cuh) ---------------------------- */

typedef struct load_ctx {
    cuda_backend_t *x;
    const groth16_pk_t *pk;
    const circuit_t *c;
} load_ctx_t;

static void resident_free(cuda_resident_t *r)
{
    for (int i = 0; i < Q_N; i++)
        cfree(r->dev[i]);
    cuda_circuit_free(&r->dc);
    cfree(r->a_idx);
    cfree(r->b_idx);
    memset(r, 0, sizeof *r);
}

/* A warm's progress: bytes more of the load are on the device. */
static void progress_add(cuda_backend_t *x, uint64_t bytes)
{
    x->prog_done += bytes;
    if (x->progress)
        x->progress(x->pctx, x->prog_done, x->prog_total);
}

/* Bytes of bases between a warm's progress reports: about 64 reports
 * whatever the size, 1 MiB to 1 GiB each. */
static size_t load_piece(uint64_t total)
{
    uint64_t p = total / 64;
    return (size_t)(p < ((uint64_t)1 << 20)   ? (uint64_t)1 << 20
                    : p > ((uint64_t)1 << 30) ? (uint64_t)1 << 30
                                              : p);
}

/* One query's bases into dev, in pieces when a warm reports progress (the
 * records decode in place, so a piece is just a smaller upload). */
static cuzk_status bases_upload_pieces(cuda_backend_t *x, void *dev, const groth16_query_t *q,
                                       int g2, cudaStream_t s, cuzk_error_t *err)
{
    size_t rec = g2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t);
    size_t per = x->progress ? load_piece(x->prog_total) / rec : q->n;
    cuzk_status st = CUZK_OK;
    for (size_t at = 0; at < q->n && st == CUZK_OK; at += per) {
        size_t len = q->n - at < per ? q->n - at : per;
        msm_bases_t piece = q->bases;
        piece.data = (const char *)q->bases.data + at * rec;
        char *d = (char *)dev + at * rec;
        st = g2 ? cuda_bases_upload_g2((dg2_affine_t *)d, &piece, len, s, err)
                : cuda_bases_upload_g1((dg1_affine_t *)d, &piece, len, s, err);
        if (st == CUZK_OK && x->progress &&
            (st = CUDA_CHECK(cudaStreamSynchronize(s), err)) == CUZK_OK)
            progress_add(x, len * rec);
    }
    return st;
}

/* Uploads the circuit, the density lists and the bases that are not the
 * key's own device memory, on the loading backend's stream. */
static cuzk_status resident_load(cuda_resident_t *r, void *vctx, cuzk_error_t *err)
{
    const load_ctx_t *L = (const load_ctx_t *)vctx;
    cudaStream_t s = L->x->s;
    groth16_query_indices_t ix;
    cuzk_status st = groth16_query_indices(&ix, L->pk, L->c, err);
    if (st != CUZK_OK)
        return st;
    L->x->prog_total = cuda_circuit_bytes(L->c) + host_bases_bytes(L->pk);
    if ((st = groth16_query_check(L->pk, &ix, err)) == CUZK_OK &&
        (st = cuda_circuit_upload(&r->dc, L->c, s, err)) == CUZK_OK)
        progress_add(L->x, r->dc.bytes); /* the upload waited for its stream */
    for (int i = 0; i < Q_N && st == CUZK_OK; i++) {
        const groth16_query_t *q = query_of(L->pk, i);
        if (q->bases.fmt == MSM_BASES_DEVICE || q->n == 0)
            continue;
        int g2 = i == Q_B2;
        size_t bytes = q->n * (g2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t));
        if ((st = dalloc(&r->dev[i], bytes, err)) != CUZK_OK)
            break;
        r->bytes += bytes;
        st = bases_upload_pieces(L->x, r->dev[i], q, g2, s, err);
    }
    if (st == CUZK_OK && ix.a && (st = upload_idx(&r->a_idx, ix.a, ix.n_a, s, err)) == CUZK_OK)
        st = upload_idx(&r->b_idx, ix.b, ix.n_b, s, err);
    /* the host's index lists and key records must outlive the copies */
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(s), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    r->n_a = ix.n_a;
    r->n_b = ix.n_b;
    r->n_l = ix.n_l;
    r->bytes += r->dc.bytes + (ix.a ? (ix.n_a + ix.n_b) * sizeof(uint32_t) : 0);
    groth16_query_indices_free(&ix);
    if (st != CUZK_OK)
        resident_free(r);
    return st;
}

/* Takes (or loads) the shared copy and points the backend's key, circuit
 * and lists at it. */
static cuzk_status adopt_shared(cuda_backend_t *x, const groth16_pk_t *pk, const circuit_t *c,
                                cuzk_error_t *err)
{
    cuda_resident_id_t id;
    memset(&id, 0, sizeof id);
    id.device = x->device;
    for (int i = 0; i < Q_N; i++) {
        id.data[i] = query_of(pk, i)->bases.data;
        id.n[i] = query_of(pk, i)->n;
    }
    id.conv = (int)pk->conv;
    id.circuit = c;
    for (int i = 0; i < 3; i++)
        id.nnz[i] = c->m[i].nnz;
    id.n_rows = c->n_rows;
    id.n_vars = c->n_vars;
    load_ctx_t L = {x, pk, c};
    int loaded = 0;
    cuzk_status st =
        cuda_resident_acquire(&x->res, &loaded, &id, resident_load, resident_free, &L, err);
    if (st != CUZK_OK)
        return st;
    const cuda_resident_t *r = x->res;
    x->dc = r->dc;
    x->a_idx = r->a_idx;
    x->b_idx = r->b_idx;
    x->n_a = r->n_a;
    x->n_b = r->n_b;
    x->n_l = r->n_l;
    for (int i = 0; i < Q_N && st == CUZK_OK; i++) {
        const groth16_query_t *q = query_of(pk, i);
        base_set_t *b = &x->q[i];
        b->n = q->n;
        b->g2 = i == Q_B2;
        b->fmt = q->bases.fmt;
        if (b->fmt == MSM_BASES_DEVICE) {
            st = borrow_device_bases(x, b, q->bases.data, err);
        } else {
            b->dev = r->dev[i];
            b->dev_borrowed = 1;
        }
    }
    return st;
}

/* The streaming layout: this backend's own circuit, lists and pins. */
static cuzk_status load_own(cuda_backend_t *x, const groth16_pk_t *pk, const circuit_t *c,
                            cuzk_error_t *err)
{
    groth16_query_indices_t ix;
    cuzk_status st = groth16_query_indices(&ix, pk, c, err);
    if (st != CUZK_OK)
        return st;
    if ((st = groth16_query_check(pk, &ix, err)) == CUZK_OK)
        st = x->lean ? cuda_circuit_attach_streamed(&x->dc, c, lean_set_bytes(c), x->s, err)
                     : cuda_circuit_upload(&x->dc, c, x->s, err);
    for (int i = 0; i < Q_N && st == CUZK_OK; i++)
        st = load_bases(x, &x->q[i], query_of(pk, i), i == Q_B2, err);
    if (st == CUZK_OK && ix.a && (st = upload_idx(&x->a_idx, ix.a, ix.n_a, x->s, err)) == CUZK_OK)
        st = upload_idx(&x->b_idx, ix.b, ix.n_b, x->s, err);
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(x->s), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st; /* ix may go now */
    x->n_a = ix.n_a;
    x->n_b = ix.n_b;
    x->n_l = ix.n_l;
    groth16_query_indices_free(&ix);
    return st;
}

/* The H-MSM's chunk buffers and plan in the regions h_chunk_regions chose
 * (the plan made them fit: an error here is internal). */
static cuzk_status h_chunk_carve(cuda_backend_t *x, const groth16_pk_t *pk, size_t ch,
                                 cuzk_error_t *err)
{
    size_t h = cuda_h_scratch_bytes(pk->log_m, pk->conv), w = pk->n_vars * sizeof(dfr_t);
    int where = h_chunk_regions(ch, h, w);
    if (!where)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuda backend: no room for H chunks of %zu",
                              ch);
    char *bases = (char *)(where == 1 ? (void *)x->w : (void *)x->hp.b);
    void *pmem = where == 1 ? (void *)x->hp.b : (void *)x->w;
    size_t pbytes = where == 1 ? h : w;
    bases = (char *)align256((uintptr_t)bases);
    x->hchunk[0] = bases;
    x->hchunk[1] = bases + align256(ch * sizeof(dg1_affine_t));
    x->h_chunk_points = ch;
    return cuda_msm_plan_init_in(&x->gh, CUDA_CURVE_G1, ch, 0, pmem, pbytes, err);
}

/* With overlap: the largest power-of-two chunk, at most the H query's size
 * rounded up, whose two buffers and G1 plan fit the H scratch alone (the
 * witness vector is A, B and L's while the H-MSM runs beside them); 0
 * when not even MIN_CHUNK does. */
static size_t h_chunk_alone(const groth16_pk_t *pk)
{
    size_t h = cuda_h_scratch_bytes(pk->log_m, pk->conv), top = MIN_CHUNK;
    while (top < pk->h.n)
        top *= 2;
    for (size_t ch = top; ch >= MIN_CHUNK; ch /= 2)
        if (256 + 2 * align256(ch * sizeof(dg1_affine_t)) +
                cuda_msm_plan_bytes(CUDA_CURVE_G1, ch, 0) <=
            h)
            return ch;
    return 0;
}

/* The H-MSM's chunk buffers, then its plan, in the H scratch (hp.b). */
static cuzk_status h_chunk_carve_alone(cuda_backend_t *x, const groth16_pk_t *pk, size_t ch,
                                       cuzk_error_t *err)
{
    size_t h = cuda_h_scratch_bytes(pk->log_m, pk->conv);
    char *at = (char *)align256((uintptr_t)x->hp.b);
    x->hchunk[0] = at;
    x->hchunk[1] = at + align256(ch * sizeof(dg1_affine_t));
    at = (char *)x->hchunk[1] + align256(ch * sizeof(dg1_affine_t));
    x->h_chunk_points = ch;
    x->h_alone = 1;
    return cuda_msm_plan_init_in(&x->gh, CUDA_CURVE_G1, ch, 0, at,
                                 h - (size_t)(at - (char *)x->hp.b), err);
}

/* Makes the device hold pk and c (and scratch for them), or keeps what it
 * holds when they are the same. Resident: the copy shared with the other
 * backends on this device; streaming: its own. */
static cuzk_status ensure_resident(cuda_backend_t *x, const groth16_pk_t *pk, const circuit_t *c,
                                   double *t_load, cuzk_error_t *err)
{
    key_id_t k = key_of(pk);
    int same_key = x->have_key && !memcmp(&k, &x->key, sizeof k);
    int same_circ = x->circ == c && x->circ_nnz[0] == c->m[0].nnz &&
                    x->circ_nnz[1] == c->m[1].nnz && x->circ_nnz[2] == c->m[2].nnz &&
                    x->dc.n_rows == c->n_rows && x->dc.n_vars == c->n_vars;
    /* The engine's plan (device_cuda.cu: the same call, its budget capped
     * by ours), so that the layout is the one it admitted. */
    size_t budget = x->admitted && x->admitted < x->budget ? x->admitted : x->budget;
    if (same_key && same_circ && budget == x->plan_budget)
        return CUZK_OK;
    double t0 = now_s();
    drop_all(x);
    cuzk_cuda_plan_t plan;
    cuzk_status st = cuzk_cuda_backend_plan_shared(&plan, pk, c, budget, x->workers, err);
    if (st != CUZK_OK)
        return st;
    device_layout mine = plan.lean        ? DEVICE_LEAN
                         : plan.streaming ? DEVICE_STREAMED
                                          : DEVICE_RESIDENT;
    if (x->admitted && mine != x->admitted_layout) /* the device decides once: the engine's */
        return cuzk_error_set(err, CUZK_ERR_INTERNAL,
                              "the engine admitted the %s layout under %zu bytes, the backend "
                              "plans %s",
                              device_layout_str(x->admitted_layout), x->admitted,
                              device_layout_str(mine));
    x->streaming = plan.streaming;
    x->lean = plan.lean;
    x->chunk_points = plan.chunk_points;
    size_t msm_scratch = x->lean ? LEAN_MSM_SCRATCH : 0;
    size_t m = (size_t)1 << pk->log_m;
    size_t n1 = x->streaming ? x->chunk_points : g1_max(pk);
    size_t n2 = x->streaming ? x->chunk_points / 2 : pk->b_g2.n;
    cudaStream_t s = x->s;
    st = x->streaming ? load_own(x, pk, c, err) : adopt_shared(x, pk, c, err);
    if (st == CUZK_OK && x->streaming &&
        (st = dalloc(&x->chunk[0], x->chunk_points * sizeof(dg1_affine_t), err)) == CUZK_OK)
        st = dalloc(&x->chunk[1], x->chunk_points * sizeof(dg1_affine_t), err);
    if (st == CUZK_OK && x->a_idx && !x->lean &&
        (st = dalloc((void **)&x->sa, x->n_a * sizeof(dfr_t), err)) == CUZK_OK)
        st = dalloc((void **)&x->sb, x->n_b * sizeof(dfr_t), err);
    if (st == CUZK_OK &&
        (st = dalloc((void **)&x->w, pk->n_vars * sizeof(dfr_t), err)) == CUZK_OK &&
        (st = dalloc((void **)&x->p, m * sizeof(dfr_t), err)) == CUZK_OK &&
        (st = cuda_h_plan_init(&x->hp, pk->log_m, pk->conv, s, err)) == CUZK_OK &&
        (st = cuda_msm_plan_init(&x->g1, CUDA_CURVE_G1, n1, msm_scratch, err)) == CUZK_OK &&
        (st = cuda_msm_plan_init(&x->g2, CUDA_CURVE_G2, n2, msm_scratch, err)) == CUZK_OK)
        st = CUDA_CHECK(cudaStreamSynchronize(s), err);
    if (st == CUZK_OK && x->lean) /* the plan checked n_a, n_b <= m */
        x->sa = x->sb = x->hp.b;
    if (st == CUZK_OK && x->lean)
        st = dalloc((void **)&x->gbuf, x->chunk_points * sizeof(dfr_t), err);
    size_t alone = x->overlap && x->streaming ? h_chunk_alone(pk) : 0;
    if (st == CUZK_OK && alone)
        st = h_chunk_carve_alone(x, pk, alone, err);
    else if (st == CUZK_OK && x->streaming && plan.h_chunk_points > x->chunk_points)
        st = h_chunk_carve(x, pk, plan.h_chunk_points, err);
    if (st == CUZK_OK) {
        x->have_key = 1;
        x->plan_budget = budget;
        x->key = k;
        x->circ = c;
        for (int i = 0; i < 3; i++)
            x->circ_nnz[i] = c->m[i].nnz;
        x->n_w = pk->n_vars;
        *t_load = now_s() - t0;
    } else {
        drop_all(x);
    }
    return st;
}

/* ---- MSMs over resident or streamed bases --------------------------------- */

static void jac_add(void *acc, const void *part, int g2)
{
    if (g2)
        g2_add((g2_jac_t *)acc, (const g2_jac_t *)acc, (const g2_jac_t *)part);
    else
        g1_add((g1_jac_t *)acc, (const g1_jac_t *)acc, (const g1_jac_t *)part);
}

static cuzk_status msm_chunk(cuda_msm_plan_t *plan, void *out, int g2, const void *bases,
                             const dfr_t *s, size_t n, cudaStream_t stream, cuzk_error_t *err)
{
    return g2 ? cuda_msm_g2((g2_jac_t *)out, plan, (const dg2_affine_t *)bases, s, n, stream, err)
              : cuda_msm_g1((g1_jac_t *)out, plan, (const dg1_affine_t *)bases, s, n, stream, err);
}

static cuzk_status gather(dfr_t *out, const dfr_t *w, const uint32_t *idx, size_t n, cudaStream_t s,
                          cuzk_error_t *err);

/* Chunk i + 1 is copied (the lane's copy stream) into the other buffer
 * while chunk i is decoded and summed (its compute stream); a buffer is
 * refilled only after the MSM that read it returned (each MSM ends
 * synchronised).
 * With idx, scalar k is s[idx[k]], gathered a chunk at a time into
 * x->gbuf (lean with overlap, where the whole gathered vector's place,
 * the H scratch, is H's). */
static cuzk_status msm_streamed(cuda_backend_t *x, void *out, const base_set_t *b, const dfr_t *s,
                                const uint32_t *idx, size_t n, const lane_t *ln, cuzk_error_t *err)
{
    cudaStream_t stream = ln->s;
    /* the H-MSM in its own larger chunks where the plan found room */
    const int big = b == &x->q[Q_H] && x->gh.n_max > 0;
    void *const *buf = big ? x->hchunk : x->chunk;
    cuda_msm_plan_t *plan = big ? &x->gh : b->g2 ? &x->g2 : &x->g1;
    size_t rec = rec_bytes(b);
    size_t ch = big ? x->h_chunk_points : b->g2 ? x->chunk_points / 2 : x->chunk_points;
    size_t chunks = (n + ch - 1) / ch;
    const uint8_t *host = (const uint8_t *)b->host;
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i <= chunks && st == CUZK_OK; i++) {
        if (i < chunks) { /* enqueue the copy of chunk i (one ahead of the MSMs) */
            size_t len = n - i * ch < ch ? n - i * ch : ch;
            cuda_stream_trace_copy_begin(ln->trace, (int)(i % 2), ln->cs);
            if ((st = CUDA_CHECK(cuda_copy_h2d(buf[i % 2], host + i * ch * rec, len * rec, ln->cs),
                                 err)) != CUZK_OK ||
                (st = CUDA_CHECK(cudaEventRecord(ln->copied[i % 2], ln->cs), err)) != CUZK_OK)
                break;
            cuda_stream_trace_copy_end(ln->trace, (int)(i % 2), ln->cs);
        }
        if (i == 0)
            continue;
        size_t j = i - 1, len = n - j * ch < ch ? n - j * ch : ch;
        g2_jac_t part; /* large enough for either group */
        cuda_stream_trace_wait(ln->trace, ln->copied[j % 2]);
        double t0 = now_s();
        const dfr_t *sc = s + j * ch;
        if (idx) {
            if ((st = gather(x->gbuf, s, idx + j * ch, len, stream, err)) != CUZK_OK)
                break;
            sc = x->gbuf;
        }
        if ((st = CUDA_CHECK(cudaStreamWaitEvent(stream, ln->copied[j % 2], 0), err)) != CUZK_OK ||
            (st = cuda_bases_decode(buf[j % 2], len, b->g2, b->fmt, stream, err)) != CUZK_OK ||
            (st = msm_chunk(plan, &part, b->g2, buf[j % 2], sc, len, stream, err)) != CUZK_OK)
            break;
        cuda_stream_trace_msm(ln->trace, (int)(j % 2), now_s() - t0);
        jac_add(out, &part, b->g2);
    }
    if (st != CUZK_OK)
        (void)cudaStreamSynchronize(ln->cs);
    else
        cuda_stream_trace_report(ln->trace, b->g2, n, ch);
    return st;
}

/* The MSM of query `which` on lane ln: scalars s[0, n), or s[idx[k]] for
 * k < n (streaming only: gathered a chunk at a time). */
static cuzk_status run_msm(cuda_backend_t *x, void *out, int which, const dfr_t *s,
                           const uint32_t *idx, size_t n, const lane_t *ln, cuzk_error_t *err)
{
    const base_set_t *b = &x->q[which];
    if (b->g2)
        g2_jac_set_inf((g2_jac_t *)out);
    else
        g1_jac_set_inf((g1_jac_t *)out);
    if (n > b->n)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuda backend: %zu scalars for %zu bases", n,
                              b->n);
    if (n == 0)
        return CUZK_OK;
    if (b->dev && idx)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuda backend: gathered scalars, resident");
    if (b->dev)
        return msm_chunk(b->g2 ? &x->g2 : &x->g1, out, b->g2, b->dev, s, n, ln->s, err);
    return msm_streamed(x, out, b, s, idx, n, ln, err);
}

/* ---- one proof ----------------------------------------------------------- */

__global__ void gather_kernel(dfr_t *out, const dfr_t *w, const uint32_t *idx, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = w[idx[i]];
}

static cuzk_status gather(dfr_t *out, const dfr_t *w, const uint32_t *idx, size_t n, cudaStream_t s,
                          cuzk_error_t *err)
{
    if (n == 0)
        return CUZK_OK;
    gather_kernel<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(out, w, idx, n);
    return CUDA_CHECK(cudaGetLastError(), err);
}

/* A packed witness (fr_pack.h) expanded into w: value i is 0, one, or the
 * next of the pack's other values, found by its word's rank and the full
 * bits below it. One thread a value; the pack sits in device memory laid
 * out as on the host. */
__global__ void pack_expand_kernel(dfr_t *w, const uint8_t *pack, size_t n, size_t vals_off,
                                   dfr_t one)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t words = (n + 63) / 64, k = i / 64;
    unsigned b = (unsigned)(i % 64);
    const uint64_t *nz = (const uint64_t *)pack, *full = nz + words;
    const uint32_t *rank = (const uint32_t *)(full + words);
    const dfr_t *vals = (const dfr_t *)(pack + vals_off);
    uint64_t bit = (uint64_t)1 << b, f = full[k];
    if (!(nz[k] & bit))
        w[i] = dfr_t{};
    else if (!(f & bit))
        w[i] = one;
    else
        w[i] = vals[rank[k] + (unsigned)__popcll(f & (bit - 1))];
}

/* The witness into x->w from a pack: the pack's one block is copied into
 * the H vector p (free until H is made) and expanded there, so the bus
 * carries the pack's bytes. A pack larger than p is expanded on the host
 * and copied whole (the slow way, never a failure). */
static cuzk_status upload_packed(cuda_backend_t *x, const fr_pack_t *pw, size_t m,
                                 cuzk_error_t *err)
{
    cudaStream_t s = x->s;
    if (pw->n != x->n_w)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda backend: a packed witness of %zu values for %zu", pw->n,
                              x->n_w);
    if (pw->bytes > m * sizeof(dfr_t)) {
        fr_t *w = (fr_t *)malloc(pw->n * sizeof(fr_t));
        if (!w)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuda backend: no memory to expand a pack");
        cuzk_status st = fr_pack_expand(w, pw, 0);
        if (st == CUZK_OK &&
            (st = CUDA_CHECK(cuda_copy_h2d(x->w, w, pw->n * sizeof(fr_t), s), err)) == CUZK_OK)
            st = CUDA_CHECK(cudaStreamSynchronize(s), err);
        free(w);
        return st;
    }
    dfr_t one;
    static_assert(sizeof one == sizeof FR_ONE, "dfr_t and fr_t share a layout");
    memcpy(&one, &FR_ONE, sizeof one);
    cuzk_status st = CUDA_CHECK(
        cuda_copy_h2d(x->p, pw->block ? pw->block : (const void *)pw->nz, pw->bytes, s), err);
    if (st != CUZK_OK)
        return st;
    if (pw->n)
        pack_expand_kernel<<<(unsigned)((pw->n + 255) / 256), 256, 0, s>>>(
            x->w, (const uint8_t *)x->p, pw->n, fr_pack_vals_offset(pw->n), one);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
        return st;
    return CUDA_CHECK(cudaStreamSynchronize(s), err);
}

/* With overlap, a thread of its own makes H on lane 0 and, where the
 * H-MSM's chunks and plan lie in the H scratch alone (x->h_alone), the
 * H-MSM right after it, while the MSMs of A, B and L run on lane 1. */
typedef struct h_job {
    cuda_backend_t *x;
    groth16_msms_t *out; /* its h and the H and H-MSM times: this thread's */
    size_t n_h;
    cuzk_status st;
    cuzk_error_t err;
} h_job_t;

static void *h_thread(void *arg)
{
    h_job_t *j = (h_job_t *)arg;
    cuda_backend_t *x = j->x;
    double t = now_s();
    j->st = CUDA_CHECK(cudaSetDevice(x->device), &j->err);
    if (j->st == CUZK_OK &&
        (j->st = cuda_h_scalars(x->p, &x->dc, x->w, &x->hp, x->s, &j->err)) == CUZK_OK)
        j->st = CUDA_CHECK(cudaStreamSynchronize(x->s), &j->err);
    j->out->t.s[PROVE_H] = now_s() - t;
    if (j->st != CUZK_OK || !x->h_alone)
        return NULL;
    t = now_s();
    j->st = run_msm(x, &j->out->h, Q_H, x->p, NULL, j->n_h, &x->ln[0], &j->err);
    j->out->t.s[PROVE_MSM_H] = now_s() - t;
    return NULL;
}

/* The MSMs of A, B (B_G1 with need_b1) and L on lane ln, each timed.
 * The density gathers come just before their MSMs: lean, sa and sb are
 * one buffer, the H scratch (A's MSM is done, on this stream, before B's
 * gather); lean with overlap, where H holds that scratch, gathers a chunk
 * at a time instead (x->gbuf). */
static cuzk_status msms_abl(cuda_backend_t *x, groth16_msms_t *out, uint32_t n_in, int need_b1,
                            const lane_t *ln, cuzk_error_t *err)
{
    cudaStream_t s = ln->s;
    const int chunked = x->lean && x->overlap && x->a_idx;
    const uint32_t *ia = chunked ? x->a_idx : NULL, *ib = chunked ? x->b_idx : NULL;
    const dfr_t *sa = x->w, *sb = x->w;
    cuzk_status st;
    double t = now_s();
    if (x->a_idx && !chunked) {
        if ((st = gather(x->sa, x->w, x->a_idx, x->n_a, s, err)) != CUZK_OK)
            return st;
        sa = x->sa;
    }
    if ((st = run_msm(x, &out->a, Q_A, sa, ia, x->n_a, ln, err)) != CUZK_OK)
        return st;
    out->t.s[PROVE_MSM_A] = now_s() - t;
    t = now_s();
    if (x->a_idx && !chunked) {
        if ((st = gather(x->sb, x->w, x->b_idx, x->n_b, s, err)) != CUZK_OK)
            return st;
        sb = x->sb;
    }
    if ((st = run_msm(x, &out->b2, Q_B2, sb, ib, x->n_b, ln, err)) != CUZK_OK ||
        (need_b1 && (st = run_msm(x, &out->b1, Q_B1, sb, ib, x->n_b, ln, err)) != CUZK_OK))
        return st;
    out->t.s[PROVE_MSM_B] = now_s() - t;
    t = now_s();
    if ((st = run_msm(x, &out->l, Q_L, x->w + n_in, NULL, x->n_l, ln, err)) != CUZK_OK)
        return st;
    out->t.s[PROVE_MSM_L] = now_s() - t;
    return CUZK_OK;
}

static cuzk_status msms_any(cuda_backend_t *x, groth16_msms_t *out, const groth16_pk_t *pk,
                            const circuit_t *c, const fr_t *w, const fr_pack_t *pw, int need_b1,
                            cuzk_error_t *err);

static cuzk_status cuda_msms(void *ctx, groth16_msms_t *out, const groth16_pk_t *pk,
                             const circuit_t *c, const fr_t *w, int need_b1, int threads,
                             cuzk_error_t *err)
{
    (void)threads;
    return msms_any((cuda_backend_t *)ctx, out, pk, c, w, NULL, need_b1, err);
}

static cuzk_status cuda_msms_packed(void *ctx, groth16_msms_t *out, const groth16_pk_t *pk,
                                    const circuit_t *c, const fr_pack_t *pw, int need_b1,
                                    int threads, cuzk_error_t *err)
{
    (void)threads;
    return msms_any((cuda_backend_t *)ctx, out, pk, c, NULL, pw, need_b1, err);
}

/* The witness whole (w) or packed (pw). */
static cuzk_status msms_any(cuda_backend_t *x, groth16_msms_t *out, const groth16_pk_t *pk,
                            const circuit_t *c, const fr_t *w, const fr_pack_t *pw, int need_b1,
                            cuzk_error_t *err)
{
    int caller = 0;
    cuzk_status st = CUDA_CHECK(cudaGetDevice(&caller), err);
    if (st != CUZK_OK || (st = CUDA_CHECK(cudaSetDevice(x->device), err)) != CUZK_OK)
        return st;
    cudaStream_t s = x->s;
    double t, t_load = 0;
    uint32_t n_in = pk->n_public + 1;
    if ((st = ensure_resident(x, pk, c, &t_load, err)) != CUZK_OK)
        goto out;
    out->t.s[PROVE_LOAD] = t_load;
    if (x->n_a != pk->a.n || x->n_b != pk->b_g1.n || x->n_l != pk->l.n) {
        st = cuzk_error_set(err, CUZK_ERR_ARG, "cuda backend: key and circuit sizes disagree");
        goto out;
    }
    t = now_s();
    if (pw)
        st = upload_packed(x, pw, (size_t)1 << pk->log_m, err);
    else if ((st = CUDA_CHECK(cuda_copy_h2d(x->w, w, x->n_w * sizeof(dfr_t), s), err)) == CUZK_OK)
        st = CUDA_CHECK(cudaStreamSynchronize(s), err);
    if (st != CUZK_OK)
        goto out;
    out->t.s[PROVE_UPLOAD] = now_s() - t;
    if (x->overlap && x->streaming) {
        /* H (and the H-MSM where it has memory of its own) in a thread of
         * its own on lane 0; A, B and L beside it on lane 1 */
        h_job_t hj = {x, out, pk->h.n, CUZK_OK, {}};
        pthread_t th;
        int made = pthread_create(&th, NULL, h_thread, &hj) == 0;
        if (!made)
            h_thread(&hj); /* no thread: one after the other */
        st = made || hj.st == CUZK_OK ? msms_abl(x, out, n_in, need_b1, &x->ln[1], err) : CUZK_OK;
        if (st != CUZK_OK)
            (void)cudaStreamSynchronize(x->ln[1].s);
        if (made)
            pthread_join(th, NULL);
        if (st == CUZK_OK && hj.st != CUZK_OK) {
            st = hj.st;
            if (err)
                *err = hj.err;
        }
        if (st != CUZK_OK || x->h_alone)
            goto out;
    } else {
        t = now_s();
        if ((st = cuda_h_scalars(x->p, &x->dc, x->w, &x->hp, s, err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaStreamSynchronize(s), err)) != CUZK_OK)
            goto out;
        out->t.s[PROVE_H] = now_s() - t;
        if ((st = msms_abl(x, out, n_in, need_b1, &x->ln[0], err)) != CUZK_OK)
            goto out;
    }
    t = now_s();
    if ((st = run_msm(x, &out->h, Q_H, x->p, NULL, pk->h.n, &x->ln[0], err)) != CUZK_OK)
        goto out;
    out->t.s[PROVE_MSM_H] = now_s() - t;
out:
    if (st != CUZK_OK)
        (void)cudaStreamSynchronize(s);
    cuzk_status s2 = CUDA_CHECK(cudaSetDevice(caller), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? s2 : st;
}

/* ---- the table's single-operation entries (host memory in and out) ------ */

/* The fine-grained slots (the prover uses msms; these serve callers that
 * drive the stages themselves) run the host entry points on this
 * backend's GPU, not device 0. */
static cuzk_status cuda_h_entry(void *ctx, fr_t *p, const circuit_t *c, const fr_t *w,
                                unsigned log_m, groth16_convention conv, int threads,
                                cuzk_error_t *err)
{
    (void)threads;
    cuda_call_use_device(((cuda_backend_t *)ctx)->device);
    cuzk_status st = cuzk_cuda_h_scalars(p, c, w, log_m, conv, err);
    cuda_call_use_device(-1);
    return st;
}

static cuzk_status cuda_msm_g1_entry(void *ctx, g1_jac_t *out, const msm_bases_t *b, const fr_t *s,
                                     size_t n, int threads)
{
    (void)threads;
    cuda_call_use_device(((cuda_backend_t *)ctx)->device);
    cuzk_status st = cuzk_cuda_msm_g1(out, b, s, n, NULL);
    cuda_call_use_device(-1);
    return st;
}

static cuzk_status cuda_msm_g2_entry(void *ctx, g2_jac_t *out, const msm_bases_t *b, const fr_t *s,
                                     size_t n, int threads)
{
    (void)threads;
    cuda_call_use_device(((cuda_backend_t *)ctx)->device);
    cuzk_status st = cuzk_cuda_msm_g2(out, b, s, n, NULL);
    cuda_call_use_device(-1);
    return st;
}

/* ---- lifetime ------------------------------------------------------------ */

static void release_streams(cuda_backend_t *x)
{
    for (int l = 0; l < 2; l++) {
        lane_t *ln = &x->ln[l];
        for (int i = 0; i < 2; i++)
            if (ln->copied[i])
                (void)cudaEventDestroy(ln->copied[i]);
        if (ln->s)
            (void)cudaStreamDestroy(ln->s);
        if (ln->cs)
            (void)cudaStreamDestroy(ln->cs);
        cuda_stream_trace_free(ln->trace);
        memset(ln, 0, sizeof *ln);
    }
    x->s = NULL;
}

/* Both lanes' streams and events; x->s is lane 0's. Lane 1 (A, B and L
 * beside H with overlap: bus-bound, their kernels light) gets one step
 * more urgent a priority than lane 0 (H and the H-MSM, compute-bound),
 * short of `greatest` (a critical lane's): else its kernels queue behind
 * the H-MSM's blocks and the bus idles (B_G2 302 -> 1464 ms a 32 GiB
 * PoRep partition at the same priority). */
static cuzk_status lanes_create(cuda_backend_t *x, int prio, int greatest, cuzk_error_t *err)
{
    cuzk_status st = CUZK_OK;
    for (int l = 0; l < 2 && st == CUZK_OK; l++) {
        lane_t *ln = &x->ln[l];
        int p = l == 1 && prio - 1 > greatest ? prio - 1 : prio; /* more urgent: lower */
        if ((st = CUDA_CHECK(cudaStreamCreateWithPriority(&ln->s, cudaStreamNonBlocking, p),
                             err)) == CUZK_OK &&
            (st = CUDA_CHECK(cudaStreamCreateWithPriority(&ln->cs, cudaStreamNonBlocking, p),
                             err)) == CUZK_OK &&
            (st = CUDA_CHECK(cudaEventCreateWithFlags(&ln->copied[0], cudaEventDisableTiming),
                             err)) == CUZK_OK)
            st = CUDA_CHECK(cudaEventCreateWithFlags(&ln->copied[1], cudaEventDisableTiming), err);
    }
    x->s = x->ln[0].s;
    return st;
}

/* CUZK_PROVE_OVERLAP: on (the default) or off, where the bases stream:
 * H is made beside the MSMs of A, B and L (copy-bound there, H
 * compute-bound) instead of before them (a 32 GiB PoRep proof at 16 GiB
 * 21.00 -> 17.87 s on an H100). Any other value is an error naming it. */
static cuzk_status overlap_from_env(int *out, cuzk_error_t *err)
{
    const char *e = getenv("CUZK_PROVE_OVERLAP");
    *out = 1;
    if (!e || !*e || !strcmp(e, "on"))
        return CUZK_OK;
    if (!strcmp(e, "off")) {
        *out = 0;
        return CUZK_OK;
    }
    return cuzk_error_set(err, CUZK_ERR_ARG, "CUZK_PROVE_OVERLAP=%s: expected off or on", e);
}

/* The engine's admission (backend.h): the next proofs plan under its
 * budget; a layout planned under another is dropped and made again. */
static void cuda_admit(void *ctx, const device_admit_t *a)
{
    cuda_backend_t *x = (cuda_backend_t *)ctx;
    x->admitted = a ? a->budget : 0;
    x->admitted_layout = a ? a->layout : DEVICE_RESIDENT;
}

extern "C" cuzk_status cuzk_cuda_backend_new(groth16_backend_t **out, int device,
                                             size_t vram_budget, cuzk_error_t *err)
{
    return cuzk_cuda_backend_new_shared(out, device, vram_budget, 1, DEVICE_ROLE_REGULAR, err);
}

extern "C" cuzk_status cuzk_cuda_backend_new_shared(groth16_backend_t **out, int device,
                                                    size_t vram_budget, int workers,
                                                    device_role role, cuzk_error_t *err)
{
    if (!out || workers < 1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_backend_new: out is NULL or workers < 1");
    *out = NULL;
    int count = 0, caller = 0;
    cuzk_status st = cuzk_cuda_device_count(&count, err);
    if (st != CUZK_OK)
        return st;
    if (device < 0 || device >= count)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device %d (%d present)", device,
                              count);
    cuda_backend_t *x = (cuda_backend_t *)calloc(1, sizeof *x);
    if (!x)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_backend_new: out of memory");
    x->device = device;
    x->workers = workers;
    if ((st = CUDA_CHECK(cudaGetDevice(&caller), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaSetDevice(device), err)) != CUZK_OK) {
        free(x);
        return st;
    }
    size_t free_b = 0, total_b = 0;
    int least = 0, greatest = 0; /* greatest: the most urgent (numerically lowest) */
    st = CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest), err);
    int prio = role == DEVICE_ROLE_CRITICAL ? greatest : least;
    if (st == CUZK_OK && (st = lanes_create(x, prio, greatest, err)) == CUZK_OK &&
        (st = CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b), err)) == CUZK_OK &&
        (st = overlap_from_env(&x->overlap, err)) == CUZK_OK) {
        size_t avail = free_b > DEFAULT_HEADROOM ? free_b - DEFAULT_HEADROOM : 0;
        x->budget = vram_budget ? vram_budget : avail;
        for (int l = 0; l < 2; l++) /* their events on this device */
            x->ln[l].trace = cuda_stream_trace_new();
    }
    (void)cudaSetDevice(caller);
    if (st != CUZK_OK) {
        release_streams(x);
        free(x);
        return st;
    }
    x->be.name = "cuda";
    x->be.ctx = x;
    x->be.h_scalars = cuda_h_entry;
    x->be.msm_g1 = cuda_msm_g1_entry;
    x->be.msm_g2 = cuda_msm_g2_entry;
    x->be.msms = cuda_msms;
    x->be.msms_packed = cuda_msms_packed;
    x->be.admit = cuda_admit;
    *out = &x->be;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_cuda_backend_warm(groth16_backend_t *be, const groth16_pk_t *pk,
                                              const circuit_t *c, cuzk_cuda_progress_fn progress,
                                              void *pctx, cuzk_error_t *err)
{
    if (!be || !be->ctx || !pk || !c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_backend_warm: NULL argument");
    cuda_backend_t *x = (cuda_backend_t *)be->ctx;
    int caller = 0;
    cuzk_status st = CUDA_CHECK(cudaGetDevice(&caller), err);
    if (st != CUZK_OK || (st = CUDA_CHECK(cudaSetDevice(x->device), err)) != CUZK_OK)
        return st;
    double t_load = 0;
    x->progress = progress;
    x->pctx = pctx;
    x->prog_done = x->prog_total = 0;
    x->admitted = 0; /* a preload keeps the key: the plan under the whole budget */
    st = ensure_resident(x, pk, c, &t_load, err);
    /* the density lists' small copies come last; a copy another backend
     * loaded, or a streaming layout, reports nothing (the engine's total) */
    if (st == CUZK_OK && progress && x->prog_total && x->prog_done < x->prog_total)
        progress(pctx, x->prog_total, x->prog_total);
    x->progress = NULL;
    x->pctx = NULL;
    cuzk_status s2 = CUDA_CHECK(cudaSetDevice(caller), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? s2 : st;
}

extern "C" void cuzk_cuda_backend_evict(groth16_backend_t *be)
{
    if (!be || !be->ctx)
        return;
    cuda_backend_t *x = (cuda_backend_t *)be->ctx;
    int caller = 0;
    (void)cudaGetDevice(&caller);
    (void)cudaSetDevice(x->device);
    drop_all(x);
    (void)cudaSetDevice(caller);
}

extern "C" void cuzk_cuda_backend_free(groth16_backend_t *be)
{
    if (!be || !be->ctx)
        return;
    cuda_backend_t *x = (cuda_backend_t *)be->ctx;
    cuzk_cuda_backend_evict(be);
    int caller = 0;
    (void)cudaGetDevice(&caller);
    (void)cudaSetDevice(x->device);
    release_streams(x);
    (void)cudaSetDevice(caller);
    free(x);
}
