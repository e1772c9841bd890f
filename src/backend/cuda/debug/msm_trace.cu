/* CUZK_MSM_TRACE (msm_trace.cuh). */
#include "backend/cuda/debug/msm_trace.cuh"
#include "backend/cuda/debug/trace_util.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARKS 512 /* events per MSM: a few per window group */

struct cuda_msm_trace {
    cudaEvent_t ev[MARKS + 1]; /* ev[0]: the begin */
    cuda_msm_phase ph[MARKS + 1];
    unsigned n; /* marks recorded after the begin */
    double t0;  /* host clock at the begin */
};

cuda_msm_trace_t *cuda_msm_trace_new(void)
{
    if (!cuda_trace_on("CUZK_MSM_TRACE"))
        return NULL;
    cuda_msm_trace_t *t = (cuda_msm_trace_t *)calloc(1, sizeof *t);
    if (!t)
        return NULL;
    for (int i = 0; i <= MARKS; i++)
        if (cudaEventCreate(&t->ev[i]) != cudaSuccess) {
            cuda_msm_trace_free(t);
            return NULL;
        }
    return t;
}

void cuda_msm_trace_free(cuda_msm_trace_t *t)
{
    if (!t)
        return;
    for (int i = 0; i <= MARKS; i++)
        if (t->ev[i])
            (void)cudaEventDestroy(t->ev[i]);
    free(t);
}

void cuda_msm_trace_begin(cuda_msm_trace_t *t, cudaStream_t s)
{
    if (!t)
        return;
    t->n = 0;
    t->t0 = cuda_trace_now();
    (void)cudaEventRecord(t->ev[0], s);
}

void cuda_msm_trace_mark(cuda_msm_trace_t *t, cuda_msm_phase ph, cudaStream_t s)
{
    if (!t || t->n >= MARKS)
        return;
    t->n++;
    t->ph[t->n] = ph;
    (void)cudaEventRecord(t->ev[t->n], s);
}

void cuda_msm_trace_end(cuda_msm_trace_t *t, int g2, size_t n, uint32_t n_full, uint32_t n_ones,
                        unsigned c, unsigned windows, unsigned group)
{
    if (!t)
        return;
    static const char *const names[MSM_PH_N] = {"classify", "ones", "hist",   "scan",
                                                "scatter",  "bins", "reduce", "combine"};
    double host_ms = 1e3 * (cuda_trace_now() - t->t0), ms[MSM_PH_N] = {0}, gpu = 0;
    for (unsigned i = 1; i <= t->n; i++) {
        float e = 0;
        if (cudaEventElapsedTime(&e, t->ev[i - 1], t->ev[i]) == cudaSuccess) {
            ms[t->ph[i]] += e;
            gpu += e;
        }
    }
    char line[512];
    int at = snprintf(
        line, sizeof line,
        "cuzk msm trace: %s n %zu full %u ones %u c %u windows %u groups %u:", g2 ? "G2" : "G1", n,
        n_full, n_ones, c, windows, group ? (windows + group - 1) / group : 0);
    for (int p = 0; p < MSM_PH_N && at > 0 && (size_t)at < sizeof line; p++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %s %.2f", names[p], ms[p]);
    fprintf(stderr, "%s ms on the GPU (%.2f), %.2f ms on the host\n", line, gpu, host_ms);
    t->n = 0;
}
