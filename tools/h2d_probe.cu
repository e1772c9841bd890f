/* Host-to-device copy bandwidth from the kinds of host memory the CUDA
 * backend streams bases from: cudaMallocHost, malloc'd memory registered
 * in place (cudaHostRegister, as the streaming layout does with a key), the
 * same with transparent huge pages asked for first, and pageable memory.
 * A measuring tool for the 16 GiB PoRep run (issue 7), not part of the
 * library:
 *
 *   nvcc -O2 -arch=sm_90 -o h2d_probe tools/h2d_probe.cu
 *   h2d_probe [GiB of host memory per case, default 8]
 *
 * Prints one line per case and chunk size: GB/s over the whole region,
 * copied in chunks on one stream, then alternating over two streams. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cuda_runtime.h>

#include "probe_check.h"

/* GB/s copying [host, host + bytes) in chunks of `chunk` into two device
 * buffers, on `streams` streams (1 or 2). */
static int measure(double *gbs, const char *host, size_t bytes, size_t chunk, int streams,
                   void *dev[2], cudaStream_t s[2])
{
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(t0, s[0]));
    if (streams == 2)
        CK(cudaStreamWaitEvent(s[1], t0, 0));
    size_t i = 0;
    for (size_t at = 0; at < bytes; at += chunk, i++) {
        size_t len = bytes - at < chunk ? bytes - at : chunk;
        int k = streams == 2 ? (int)(i % 2) : 0;
        CK(cudaMemcpyAsync(dev[i % 2], host + at, len, cudaMemcpyHostToDevice, s[k]));
    }
    if (streams == 2) {
        cudaEvent_t j;
        CK(cudaEventCreate(&j));
        CK(cudaEventRecord(j, s[1]));
        CK(cudaStreamWaitEvent(s[0], j, 0));
        CK(cudaEventDestroy(j));
    }
    CK(cudaEventRecord(t1, s[0]));
    CK(cudaEventSynchronize(t1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, t0, t1));
    *gbs = (double)bytes / (ms * 1e6);
    CK(cudaEventDestroy(t0));
    CK(cudaEventDestroy(t1));
    return 0;
}

static int run_case(const char *name, char *host, size_t bytes, void *dev[2], cudaStream_t s[2])
{
    static const size_t chunks[] = {(size_t)64 << 20, (size_t)384 << 20, (size_t)1 << 30};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        double one = 0, two = 0;
        if (measure(&one, host, bytes, chunks[c], 1, dev, s) ||
            measure(&two, host, bytes, chunks[c], 2, dev, s))
            return 1;
        printf("%-28s chunk %5zu MiB  1 stream %6.1f GB/s  2 streams %6.1f GB/s\n", name,
               chunks[c] >> 20, one, two);
    }
    return 0;
}

int main(int argc, char **argv)
{
    size_t gib = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
    size_t bytes = gib << 30;
    void *dev[2];
    cudaStream_t s[2];
    CK(cudaMalloc(&dev[0], (size_t)1 << 30));
    CK(cudaMalloc(&dev[1], (size_t)1 << 30));
    CK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));

    char *p = NULL;
    CK(cudaMallocHost((void **)&p, bytes));
    memset(p, 1, bytes);
    if (run_case("cudaMallocHost", p, bytes, dev, s))
        return 1;
    CK(cudaFreeHost(p));

    for (int huge = 0; huge < 2; huge++) {
        char *m =
            (char *)mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        if (huge)
            madvise(m, bytes, MADV_HUGEPAGE);
        memset(m, 1, bytes);
        const char *label = huge ? "pageable, huge pages" : "pageable";
        if (run_case(label, m, bytes, dev, s))
            return 1;
        CK(cudaHostRegister(m, bytes, cudaHostRegisterPortable));
        label = huge ? "registered, huge pages" : "registered (cudaHostRegister)";
        if (run_case(label, m, bytes, dev, s))
            return 1;
        CK(cudaHostUnregister(m));
        munmap(m, bytes);
    }
    return 0;
}
