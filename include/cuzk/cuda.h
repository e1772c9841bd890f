/* CUDA devices, as the CUDA backend sees them.
 *
 * Defined in libcuzk_cuda, which exists only in builds with nvcc
 * (CUZK_HAVE_CUDA is then defined for whatever links it). A machine without
 * a GPU, or without an NVIDIA driver, has 0 devices: that is not an error.
 * Rules as in status.h: outputs first, err may be NULL, nothing exits.
 * Reentrant. */
#ifndef CUZK_CUDA_H
#define CUZK_CUDA_H

#include <stddef.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Out: *count, the number of CUDA devices (0 without a GPU or a driver).
 * Returns CUZK_OK; CUZK_ERR_ARG when count is NULL; CUZK_ERR_CUDA when the
 * runtime fails in another way (*count is then 0). */
cuzk_status cuzk_cuda_device_count(int *count, cuzk_error_t *err);

/* Out: out, a NUL-terminated line such as
 * "NVIDIA H200, sm_90, 132 SMs, 139.8 GiB" (truncated to out_len).
 * Returns CUZK_OK; CUZK_ERR_ARG when out is NULL or out_len is 0;
 * CUZK_ERR_NO_DEVICE when there is no such device; CUZK_ERR_CUDA. */
cuzk_status cuzk_cuda_device_describe(char *out, size_t out_len, int device, cuzk_error_t *err);

/* Out: free and total bytes of device memory now (cudaMemGetInfo: a
 * device-wide call, for set-up and reports, never on a proving path).
 * Errors as cuzk_cuda_device_describe's. */
cuzk_status cuzk_cuda_device_memory(size_t *free_bytes, size_t *total_bytes, int device,
                                    cuzk_error_t *err);

/* Page-locked host memory that every device can copy from at the bus's
 * speed (mapped, then registered portable in pieces so that other threads'
 * pinned allocations are not held for seconds), in the shape of
 * engine_config_t's host_alloc / host_free (ctx unused; free takes the
 * size alloc was given). NULL when refused (no driver, or the memory
 * cannot be pinned): the caller falls back to ordinary memory. Freeing may
 * synchronise the device: not for hot paths. */
void *cuzk_cuda_host_alloc(void *ctx, size_t bytes);
void cuzk_cuda_host_free(void *ctx, void *p, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
