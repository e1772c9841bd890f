/* CUZK_STREAM_TRACE (stream_trace.cuh). */
#include "backend/cuda/debug/stream_trace.cuh"
#include "backend/cuda/debug/trace_util.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LATE_S 1e-4 /* a wait longer than this counts the copy as late */

struct cuda_stream_trace {
    cudaEvent_t begin[2], end[2];
    double wait_s, msm_s, t_first;
    float copy_ms;
    unsigned chunks, late;
};

cuda_stream_trace_t *cuda_stream_trace_new(void)
{
    if (!cuda_trace_on("CUZK_STREAM_TRACE"))
        return NULL;
    cuda_stream_trace_t *t = (cuda_stream_trace_t *)calloc(1, sizeof *t);
    if (!t)
        return NULL;
    for (int k = 0; k < 2; k++)
        if (cudaEventCreate(&t->begin[k]) != cudaSuccess ||
            cudaEventCreate(&t->end[k]) != cudaSuccess) {
            cuda_stream_trace_free(t);
            return NULL;
        }
    return t;
}

void cuda_stream_trace_free(cuda_stream_trace_t *t)
{
    if (!t)
        return;
    for (int k = 0; k < 2; k++) {
        if (t->begin[k])
            (void)cudaEventDestroy(t->begin[k]);
        if (t->end[k])
            (void)cudaEventDestroy(t->end[k]);
    }
    free(t);
}

void cuda_stream_trace_copy_begin(cuda_stream_trace_t *t, int k, cudaStream_t cs)
{
    if (!t)
        return;
    if (!t->chunks && !t->msm_s)
        t->t_first = cuda_trace_now();
    (void)cudaEventRecord(t->begin[k], cs);
}

void cuda_stream_trace_copy_end(cuda_stream_trace_t *t, int k, cudaStream_t cs)
{
    if (t)
        (void)cudaEventRecord(t->end[k], cs);
}

void cuda_stream_trace_wait(cuda_stream_trace_t *t, cudaEvent_t copied)
{
    if (!t)
        return;
    double t0 = cuda_trace_now();
    (void)cudaEventSynchronize(copied);
    double w = cuda_trace_now() - t0;
    t->wait_s += w;
    t->late += w > LATE_S;
}

void cuda_stream_trace_msm(cuda_stream_trace_t *t, int k, double seconds)
{
    if (!t)
        return;
    float ms = 0;
    if (cudaEventElapsedTime(&ms, t->begin[k], t->end[k]) == cudaSuccess)
        t->copy_ms += ms;
    t->msm_s += seconds;
    t->chunks++;
}

void cuda_stream_trace_report(cuda_stream_trace_t *t, int g2, size_t n, size_t chunk)
{
    if (!t || !t->chunks)
        return;
    double c = (double)t->chunks;
    fprintf(stderr,
            "cuzk cuda stream: %s %zu points in %u chunks of %zu: copy %.2f ms, waited %.2f ms "
            "(%u late), MSM %.2f ms per chunk; %.1f ms in all\n",
            g2 ? "G2" : "G1", n, t->chunks, chunk, t->copy_ms / c, 1e3 * t->wait_s / c, t->late,
            1e3 * t->msm_s / c, 1e3 * (cuda_trace_now() - t->t_first));
    t->wait_s = t->msm_s = 0;
    t->copy_ms = 0;
    t->chunks = t->late = 0;
}
