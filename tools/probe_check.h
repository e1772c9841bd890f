/* CK(call): the probes' CUDA error check (tools/h2d_probe.cu,
 * tools/gather_probe.cu): print the call and CUDA's message, return 1
 * from main's helpers. Standalone tools, not the library (which returns
 * cuzk_status codes through CUDA_CHECK). */
#ifndef CUZK_TOOLS_PROBE_CHECK_H
#define CUZK_TOOLS_PROBE_CHECK_H

#include <stdio.h>

#include <cuda_runtime.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#endif
