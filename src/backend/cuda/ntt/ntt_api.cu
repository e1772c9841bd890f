/* The host-memory entry points of include/cuzk/cuda_ntt.h: arguments
 * checked, device 0 on a stream of its own, buffers poisoned, the device
 * API (ntt.cuh, h_scalars.cuh) in between, everything freed whatever
 * failed, the caller's device restored. */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/host_call.cuh"
#include "backend/cuda/h/h_scalars.cuh"
#include "cuzk/cuda.h"

using namespace cuzk_host;

#define POISON 0xff /* byte: no fully reduced element has all of them */
#define BENCH_REPS_MAX 1000

/* Stream-ordered free; keeps the first failure. */
static void free_async(cuzk_status *st, void *p, cudaStream_t stream, cuzk_error_t *err)
{
    if (!p)
        return;
    cuzk_status s = CUDA_CHECK(cudaFreeAsync(p, stream), *st == CUZK_OK ? err : NULL);
    if (*st == CUZK_OK)
        *st = s;
}

/* A device buffer of `bytes`, filled with POISON. */
static cuzk_status alloc_poisoned(void **p, size_t bytes, cudaStream_t stream, cuzk_error_t *err)
{
    cuzk_status st = CUDA_CHECK(cudaMallocAsync(p, bytes, stream), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemsetAsync(*p, POISON, bytes, stream), err);
    return st;
}

/* ---- NTT ----------------------------------------------------------------------- */

static int valid_kind(cuzk_ntt_kind kind)
{
    return kind == CUZK_NTT_FORWARD || kind == CUZK_NTT_INVERSE || kind == CUZK_NTT_COSET_FORWARD ||
           kind == CUZK_NTT_COSET_INVERSE;
}

/* Everything after the checks and the stream. */
static cuzk_status ntt_on_device(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                                 const fr_t *g, cudaStream_t stream, cuzk_error_t *err)
{
    const int is_coset = kind == CUZK_NTT_COSET_FORWARD || kind == CUZK_NTT_COSET_INVERSE;
    const size_t bytes = sizeof(fr_t) << log_n;
    cuda_ntt_domain_t d;
    cuda_ntt_coset_t cs;
    memset(&cs, 0, sizeof cs);
    void *da = NULL;
    cuzk_status st = cuda_ntt_domain_init(&d, log_n, conv, stream, err);
    if (st == CUZK_OK && is_coset)
        st = cuda_ntt_coset_init(&cs, &d, g, stream, err);
    if (st == CUZK_OK)
        st = alloc_poisoned(&da, bytes, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemcpyAsync(da, a, bytes, cudaMemcpyHostToDevice, stream), err);
    if (st == CUZK_OK)
        st = cuda_ntt((dfr_t *)da, &d, kind, is_coset ? &cs : NULL, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemcpyAsync(a, da, bytes, cudaMemcpyDeviceToHost, stream), err);
    free_async(&st, da, stream, err);
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    cuda_ntt_coset_free(&cs);
    cuda_ntt_domain_free(&d);
    return st;
}

/* The arguments both entry points check; who names the caller. */
static cuzk_status ntt_args(const fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                            const fr_t *g, const char *who, cuzk_error_t *err)
{
    if (!a)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: a is NULL", who);
    if (log_n >= NTT_MAX_LOG)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: log_n %u (max %d)", who, log_n,
                              NTT_MAX_LOG - 1);
    if (conv != FR_ROOTS_BELLMAN && conv != FR_ROOTS_FFJS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown convention %d", who, (int)conv);
    if (!valid_kind(kind))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown kind %d", who, (int)kind);
    if ((kind == CUZK_NTT_COSET_FORWARD || kind == CUZK_NTT_COSET_INVERSE) && (!g || fr_is_zero(g)))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: a coset needs a nonzero shift", who);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_cuda_ntt_emu(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                                         const fr_t *g, cuzk_error_t *err)
{
    cuzk_status st = ntt_args(a, log_n, conv, kind, g, "cuzk_cuda_ntt_emu", err);
    return st == CUZK_OK ? cuda_ntt_host_emu(a, log_n, conv, kind, g, err) : st;
}

extern "C" cuzk_status cuzk_cuda_ntt(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                                     const fr_t *g, cuzk_error_t *err)
{
    cuzk_status st = ntt_args(a, log_n, conv, kind, g, "cuzk_cuda_ntt", err);
    if (st != CUZK_OK)
        return st;
    cuda_call_t call;
    st = cuda_call_begin(&call, "cuzk_cuda_ntt", err);
    if (st != CUZK_OK)
        return st;
    st = ntt_on_device(a, log_n, conv, kind, g, call.stream, err);
    return cuda_call_end(&call, st, err);
}

/* ---- H ------------------------------------------------------------------------- */

static cuzk_status h_on_device(fr_t *p, const circuit_t *c, const fr_t *w, unsigned log_m,
                               groth16_convention conv, cudaStream_t stream, cuzk_error_t *err)
{
    const size_t m = (size_t)1 << log_m;
    const size_t w_bytes = (size_t)(c->n_vars ? c->n_vars : 1) * sizeof(fr_t);
    cuda_circuit_t dc;
    cuda_h_plan_t plan;
    memset(&plan, 0, sizeof plan);
    void *dw = NULL, *dp = NULL;
    cuzk_status st = cuda_circuit_upload(&dc, c, stream, err);
    if (st == CUZK_OK)
        st = cuda_h_plan_init(&plan, log_m, conv, stream, err);
    if (st == CUZK_OK) /* the scratch vectors too: each must be written before it is read */
        st = CUDA_CHECK(
            cudaMemsetAsync(plan.b, POISON, (plan.c == plan.b ? 1 : 2) * m * sizeof(dfr_t), stream),
            err);
    if (st == CUZK_OK)
        st = alloc_poisoned(&dw, w_bytes, stream, err);
    if (st == CUZK_OK)
        st = alloc_poisoned(&dp, m * sizeof(fr_t), stream, err);
    if (st == CUZK_OK && c->n_vars)
        st = CUDA_CHECK(cudaMemcpyAsync(dw, w, (size_t)c->n_vars * sizeof(fr_t),
                                        cudaMemcpyHostToDevice, stream),
                        err);
    if (st == CUZK_OK)
        st = cuda_h_scalars((dfr_t *)dp, &dc, (const dfr_t *)dw, &plan, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemcpyAsync(p, dp, m * sizeof(fr_t), cudaMemcpyDeviceToHost, stream),
                        err);
    free_async(&st, dp, stream, err);
    free_async(&st, dw, stream, err);
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    cuda_h_plan_free(&plan);
    cuda_circuit_free(&dc);
    return st;
}

extern "C" cuzk_status cuzk_cuda_h_scalars(fr_t *p, const circuit_t *c, const fr_t *w,
                                           unsigned log_m, groth16_convention conv,
                                           cuzk_error_t *err)
{
    if (!p || !c || (!w && c->n_vars))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_h_scalars: NULL p, circuit or witness");
    if (log_m >= NTT_MAX_LOG)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_h_scalars: domain 2^%u (max 2^%d)",
                              log_m, NTT_MAX_LOG - 1);
    if (conv != GROTH16_SNARKJS && conv != GROTH16_BELLPERSON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_h_scalars: unknown convention %d",
                              (int)conv);
    if (c->n_rows > ((size_t)1 << log_m))
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit has %u rows, domain only %zu", c->n_rows,
                              (size_t)1 << log_m);
    cuda_call_t call;
    cuzk_status st = cuda_call_begin(&call, "cuzk_cuda_h_scalars", err);
    if (st != CUZK_OK)
        return st;
    st = h_on_device(p, c, w, log_m, conv, call.stream, err);
    return cuda_call_end(&call, st, err);
}

/* ---- benchmark ------------------------------------------------------------------ */

/* Uniform-looking elements below 2^254 < r (so valid Montgomery values):
 * splitmix64 of the index. */
static __global__ void bench_fill(dfr_t *a, size_t n, uint64_t seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint64_t x = seed + i * 0x9e3779b97f4a7c15ULL;
        for (int j = 0; j < DFR_LIMBS / 2; j++) {
            x += 0x9e3779b97f4a7c15ULL;
            uint64_t z = x;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            z ^= z >> 31;
            a[i].l[2 * j] = (uint32_t)z;
            a[i].l[2 * j + 1] = (uint32_t)(z >> 32);
        }
        a[i].l[DFR_LIMBS - 1] &= 0x3fffffffu;
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The coset the bench's coset kinds use: the bellperson H step's shift,
 * 7, Fr's multiplicative generator (h_scalars.cu shift_of). Any nonzero
 * shift costs the same. */
static cuzk_status bench_coset(cuda_ntt_coset_t *cs, const cuda_ntt_domain_t *d,
                               cudaStream_t stream, cuzk_error_t *err)
{
    fr_t g;
    fr_from_u64(&g, 7);
    return cuda_ntt_coset_init(cs, d, &g, stream, err);
}

static cuzk_status bench_on_device(double *ms, unsigned log_n, cuzk_ntt_kind kind, int reps,
                                   cudaStream_t stream, cuzk_error_t *err)
{
    const size_t n = (size_t)1 << log_n;
    const int is_coset = kind == CUZK_NTT_COSET_FORWARD || kind == CUZK_NTT_COSET_INVERSE;
    cuda_ntt_domain_t d;
    cuda_ntt_coset_t cs;
    memset(&cs, 0, sizeof cs);
    dfr_t *da = NULL;
    cudaEvent_t ev[2] = {NULL, NULL};
    cuzk_status st = cuda_ntt_domain_init(&d, log_n, FR_ROOTS_BELLMAN, stream, err);
    if (st == CUZK_OK && is_coset)
        st = bench_coset(&cs, &d, stream, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMallocAsync((void **)&da, n * sizeof(dfr_t), stream), err);
    for (int i = 0; i < 2 && st == CUZK_OK; i++)
        st = CUDA_CHECK(cudaEventCreate(&ev[i]), err);
    if (st == CUZK_OK) {
        size_t blocks = (n + 255) / 256;
        bench_fill<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(da, n, 0x5eed);
        st = CUDA_CHECK(cudaGetLastError(), err);
    }
    const cuda_ntt_coset_t *c = is_coset ? &cs : NULL;
    if (st == CUZK_OK) /* warm-up */
        st = cuda_ntt(da, &d, kind, c, stream, err);
    for (int r = 0; r < reps && st == CUZK_OK; r++) {
        float t = 0;
        st = CUDA_CHECK(cudaEventRecord(ev[0], stream), err);
        if (st == CUZK_OK)
            st = cuda_ntt(da, &d, kind, c, stream, err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaEventRecord(ev[1], stream), err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaEventSynchronize(ev[1]), err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaEventElapsedTime(&t, ev[0], ev[1]), err);
        ms[r] = t;
    }
    for (int i = 0; i < 2; i++)
        if (ev[i])
            (void)cudaEventDestroy(ev[i]);
    free_async(&st, da, stream, err);
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    cuda_ntt_coset_free(&cs);
    cuda_ntt_domain_free(&d);
    return st;
}

extern "C" cuzk_status cuzk_cuda_ntt_bench_kind(double *ms_median, unsigned log_n,
                                                cuzk_ntt_kind kind, int reps, cuzk_error_t *err)
{
    if (!ms_median || log_n >= NTT_MAX_LOG || reps < 1 || reps > BENCH_REPS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_ntt_bench: needs an output, log_n < %d, 1 <= reps <= %d",
                              NTT_MAX_LOG, BENCH_REPS_MAX);
    if (!valid_kind(kind))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_ntt_bench: unknown kind %d", (int)kind);
    *ms_median = 0;
    double *ms = (double *)calloc((size_t)reps, sizeof *ms);
    if (!ms)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_ntt_bench: out of host memory");
    cuda_call_t call;
    cuzk_status st = cuda_call_begin(&call, "cuzk_cuda_ntt_bench", err);
    if (st == CUZK_OK) {
        st = bench_on_device(ms, log_n, kind, reps, call.stream, err);
        st = cuda_call_end(&call, st, err);
    }
    if (st == CUZK_OK) {
        qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
        *ms_median = reps % 2 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
    }
    free(ms);
    return st;
}

extern "C" cuzk_status cuzk_cuda_ntt_bench(double *ms_median, unsigned log_n, int reps,
                                           cuzk_error_t *err)
{
    return cuzk_cuda_ntt_bench_kind(ms_median, log_n, CUZK_NTT_FORWARD, reps, err);
}
