/* What the CUDA traces (stream_trace.cu, msm_trace.cu) share: the host
 * clock they time calls with, and their switch (an environment variable,
 * on unless unset, empty or "0"). */
#ifndef CUZK_CUDA_TRACE_UTIL_CUH
#define CUZK_CUDA_TRACE_UTIL_CUH

#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double cuda_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cuda_trace_on(const char *env)
{
    const char *v = getenv(env);
    return v && *v && strcmp(v, "0") != 0;
}

#endif
