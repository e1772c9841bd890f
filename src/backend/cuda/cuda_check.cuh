/* Host side of every CUDA unit: the one way a CUDA runtime call is checked.
 *
 *   st = CUDA_CHECK(cudaMemcpyAsync(...), err);
 *   kernel<<<grid, block, 0, stream>>>(...);
 *   st = CUDA_CHECK(cudaGetLastError(), err);   (after every launch)
 *
 * CUDA_CHECK returns CUZK_OK on cudaSuccess; otherwise CUZK_ERR_CUDA, with
 * "src/backend/cuda/x.cu:123: cudaMalloc(...): cudaErrorMemoryAllocation
 * (out of memory)" in err (when err is non-NULL). Pass err = NULL in cleanup
 * paths after a first failure, so that its message is kept.
 * Streams are explicit: no call here may use the default stream. */
#ifndef CUZK_CUDA_CHECK_CUH
#define CUZK_CUDA_CHECK_CUH

#include <cuda_runtime.h>

#include "cuzk/status.h"

cuzk_status cuzk_cuda_check(cudaError_t e, const char *call, const char *file, int line,
                            cuzk_error_t *err);

#define CUDA_CHECK(call, err) cuzk_cuda_check((call), #call, __FILE__, __LINE__, (err))

#endif
