/* One host-memory entry point's use of the GPU (cuda_msm.h, cuda_ntt.h):
 * device 0 (or the one the calling thread named: a backend's slots run on
 * the backend's GPU) and a non-blocking stream of its own, then the
 * caller's device restored. Defined in device.cu. */
#ifndef CUZK_CUDA_HOST_CALL_CUH
#define CUZK_CUDA_HOST_CALL_CUH

#include "backend/cuda/cuda_check.cuh"

typedef struct cuda_call {
    cudaStream_t stream;
    int caller_device;
} cuda_call_t;

/* The device the calling thread's next host entry points use (-1: device
 * 0, the default). */
void cuda_call_use_device(int device);

/* CUZK_ERR_NO_DEVICE ("<who>: no CUDA device") without a GPU. */
cuzk_status cuda_call_begin(cuda_call_t *g, const char *who, cuzk_error_t *err);
/* Waits for the stream, destroys it, restores the caller's device; the
 * first failure's status (and message) wins: st is the call's so far. */
cuzk_status cuda_call_end(cuda_call_t *g, cuzk_status st, cuzk_error_t *err);

#endif
