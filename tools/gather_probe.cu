/* Zero-copy gather from page-locked host memory: the GPU reads only the
 * 96-byte records (G1 affine bases) whose scalar is not zero, straight
 * from mapped host memory, into a compact device buffer, instead of the
 * chunk copy of every record. A measuring tool for the 16 GiB PoRep run
 * (issue 7: its A and L MSMs are bound by the 55 GB/s copy, and ~45% of
 * a witness's scalars are zero), not part of the library:
 *
 *   nvcc -O2 -arch=sm_90 -o gather_probe tools/gather_probe.cu
 *   gather_probe [GiB of records, default 4]
 *
 * Prints, per kept share and grid size: the time, GB/s of kept bytes and
 * the equivalent rate over all records (to compare with the copy's 55). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "probe_check.h"

#define REC_U4 6 /* a 96-byte record in 16-byte pieces */

/* dst[j] = src[idx[j]], piece by piece: neighbouring threads read
 * neighbouring 16-byte pieces of one record (coalesced segments). */
__global__ void gather(uint4 *dst, const uint4 *src, const uint32_t *idx, uint32_t kept)
{
    size_t n = (size_t)kept * REC_U4;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n;
         j += (size_t)gridDim.x * blockDim.x) {
        size_t r = j / REC_U4, q = j % REC_U4;
        dst[j] = src[(size_t)idx[r] * REC_U4 + q];
    }
}

int main(int argc, char **argv)
{
    size_t gib = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
    size_t bytes = gib << 30, n = bytes / (REC_U4 * 16);
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    uint4 *host = NULL, *hdev = NULL, *dst = NULL, *full = NULL;
    uint32_t *idx_h = NULL, *idx = NULL;
    CK(cudaHostAlloc((void **)&host, bytes, cudaHostAllocMapped));
    memset(host, 1, bytes);
    CK(cudaHostGetDevicePointer((void **)&hdev, host, 0));
    CK(cudaMalloc((void **)&dst, bytes));
    CK(cudaMalloc((void **)&full, bytes));
    CK(cudaMalloc((void **)&idx, n * sizeof(uint32_t)));
    CK(cudaMallocHost((void **)&idx_h, n * sizeof(uint32_t)));
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    float ms = 0;

    CK(cudaEventRecord(t0));
    CK(cudaMemcpyAsync(full, host, bytes, cudaMemcpyHostToDevice));
    CK(cudaEventRecord(t1));
    CK(cudaEventSynchronize(t1));
    CK(cudaEventElapsedTime(&ms, t0, t1));
    printf("cudaMemcpy of all %zu records: %.2f ms, %.1f GB/s\n", n, ms, bytes / (ms * 1e6));

    static const double shares[] = {1.0, 0.55, 0.25, 0.10};
    static const int per_sm[] = {1, 4, 16};
    uint64_t z = 0x9e3779b97f4a7c15ULL;
    for (size_t s = 0; s < sizeof shares / sizeof *shares; s++) {
        uint32_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            z ^= z << 13, z ^= z >> 7, z ^= z << 17;
            if ((double)(z >> 11) / 9007199254740992.0 < shares[s])
                idx_h[kept++] = (uint32_t)i;
        }
        CK(cudaMemcpy(idx, idx_h, kept * sizeof(uint32_t), cudaMemcpyHostToDevice));
        for (size_t g = 0; g < sizeof per_sm / sizeof *per_sm; g++) {
            unsigned blocks = (unsigned)(per_sm[g] * sms);
            gather<<<blocks, 256>>>(dst, hdev, idx, kept); /* warm */
            CK(cudaEventRecord(t0));
            gather<<<blocks, 256>>>(dst, hdev, idx, kept);
            CK(cudaEventRecord(t1));
            CK(cudaEventSynchronize(t1));
            CK(cudaGetLastError());
            CK(cudaEventElapsedTime(&ms, t0, t1));
            double kb = (double)kept * REC_U4 * 16;
            printf("kept %4.0f%%  %2d blocks/SM  %8.2f ms  %6.1f GB/s kept  %6.1f GB/s of all "
                   "records\n",
                   100 * shares[s], per_sm[g], ms, kb / (ms * 1e6), bytes / (ms * 1e6));
        }
    }
    return 0;
}
