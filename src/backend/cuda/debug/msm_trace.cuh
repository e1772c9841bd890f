/* CUZK_MSM_TRACE=1: where one MSM's time goes, phase by phase, measured on
 * the GPU (events between the phases on the MSM's stream) and on the host
 * (the call from start to end), one line per MSM on stderr:
 *
 *   cuzk msm trace: G2 n 2097152 full 209715 ones 943718 c 13 windows 20
 *   groups 1: classify 0.31 ones 0.84 hist 0.12 scan 0.05 scatter 0.20
 *   bins 8.90 reduce 1.95 combine 0.10 ms on the GPU (12.47), 14.02 ms
 *   on the host
 *
 * (one line). A streamed chunk of the 16 GiB PoRep run costs more than
 * its additions predict (a 2M-point G2 witness chunk ~20 ms where ~9 ms of
 * additions are expected): the gap between the GPU's phases and the
 * host's time, and which phase grows, say where. Unset: no events, no
 * cost. */
#ifndef CUZK_CUDA_MSM_TRACE_CUH
#define CUZK_CUDA_MSM_TRACE_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

typedef enum cuda_msm_phase {
    MSM_PH_CLASSIFY = 0,
    MSM_PH_ONES,
    MSM_PH_HIST,
    MSM_PH_SCAN,
    MSM_PH_SCATTER,
    MSM_PH_BINS,
    MSM_PH_REDUCE,
    MSM_PH_COMBINE,
    MSM_PH_N
} cuda_msm_phase;

typedef struct cuda_msm_trace cuda_msm_trace_t;

/* NULL unless CUZK_MSM_TRACE is set (and not "0"), or when it cannot be
 * made; every call below does nothing with NULL. */
cuda_msm_trace_t *cuda_msm_trace_new(void);
void cuda_msm_trace_free(cuda_msm_trace_t *t);
/* The start of an MSM on stream s. */
void cuda_msm_trace_begin(cuda_msm_trace_t *t, cudaStream_t s);
/* The end of a phase: the GPU time since the previous mark (or the begin)
 * counts to it. Marks past the trace's capacity are dropped (their time
 * goes to the next kept one). */
void cuda_msm_trace_mark(cuda_msm_trace_t *t, cuda_msm_phase ph, cudaStream_t s);
/* After the MSM's last synchronisation: the line. */
void cuda_msm_trace_end(cuda_msm_trace_t *t, int g2, size_t n, uint32_t n_full, uint32_t n_ones,
                        unsigned c, unsigned windows, unsigned group);

#endif
