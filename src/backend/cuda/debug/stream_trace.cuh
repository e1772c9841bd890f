/* Where a streamed MSM's time goes (stream_trace.cu): with the environment
 * variable CUZK_STREAM_TRACE set, each streamed MSM (backend_cuda.cu's
 * chunk loop) times every chunk's copy on the GPU (events around it on the
 * copy stream), how long the host then waited for that copy before the
 * chunk's MSM could start, and the MSM call itself, and prints one line per
 * MSM to stderr:
 *
 *   cuzk cuda stream: G1 130278541 points in 32 chunks of 4194304: copy
 *   7.1 ms, waited 0.2 ms (3 late), MSM 8.9 ms per chunk; 578 ms in all
 *
 * The wait is made explicit (the host blocks on the copy's event before it
 * launches the MSM) only while tracing. Unset: no events, no cost; every
 * function is a no-op on NULL. A diagnostic for the 16 GiB layout, whose
 * chunks take ~18 ms while their copy alone needs 7 and an MSM of that
 * size alone 9. */
#ifndef CUZK_CUDA_STREAM_TRACE_CUH
#define CUZK_CUDA_STREAM_TRACE_CUH

#include <stddef.h>

#include <cuda_runtime.h>

typedef struct cuda_stream_trace cuda_stream_trace_t;

/* NULL unless CUZK_STREAM_TRACE is set (or when it cannot be made). */
cuda_stream_trace_t *cuda_stream_trace_new(void);
void cuda_stream_trace_free(cuda_stream_trace_t *t);
/* Around the copy into buffer k (0 or 1), on the copy stream. */
void cuda_stream_trace_copy_begin(cuda_stream_trace_t *t, int k, cudaStream_t cs);
void cuda_stream_trace_copy_end(cuda_stream_trace_t *t, int k, cudaStream_t cs);
/* Before the MSM of buffer k: waits on the host for its copy's event. */
void cuda_stream_trace_wait(cuda_stream_trace_t *t, cudaEvent_t copied);
/* After the MSM of buffer k (seconds: the call's host time). */
void cuda_stream_trace_msm(cuda_stream_trace_t *t, int k, double seconds);
/* One line for the MSM just done, then zeroes the sums. */
void cuda_stream_trace_report(cuda_stream_trace_t *t, int g2, size_t n, size_t chunk);

#endif
