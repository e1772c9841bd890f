/* CUDA devices (include/cuzk/cuda.h), the CUDA error check
 * (cuda_check.cuh) and the host entry points' calls (host_call.cuh). */
#include <stdio.h>
#include <string.h>

#include "backend/cuda/host_call.cuh"
#include "backend/cuda/host_pin.cuh"
#include "backend/cuda/cuda_check.cuh"
#include "cuzk/cuda.h"

cuzk_status cuzk_cuda_check(cudaError_t e, const char *call, const char *file, int line,
                            cuzk_error_t *err)
{
    if (e == cudaSuccess)
        return CUZK_OK;
    /* The compiler is given absolute paths: keep the part from src/ on. */
    const char *src = strstr(file, "src/");
    return cuzk_error_set(err, CUZK_ERR_CUDA, "%s:%d: %s: %s (%s)", src ? src : file, line, call,
                          cudaGetErrorName(e), cudaGetErrorString(e));
}

/* The errors that mean "no usable GPU here" rather than a failure. */
static int no_gpu_error(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver;
}

extern "C" cuzk_status cuzk_cuda_device_count(int *count, cuzk_error_t *err)
{
    if (!count)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_device_count: count is NULL");
    *count = 0;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (no_gpu_error(e)) {
        (void)cudaGetLastError(); /* clear it: it is not a failure */
        return CUZK_OK;
    }
    cuzk_status st = CUDA_CHECK(e, err);
    if (st == CUZK_OK)
        *count = n;
    return st;
}

extern "C" cuzk_status cuzk_cuda_device_describe(char *out, size_t out_len, int device,
                                                 cuzk_error_t *err)
{
    if (!out || out_len == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_device_describe: no output buffer");
    out[0] = '\0';
    int n = 0;
    cuzk_status st = cuzk_cuda_device_count(&n, err);
    if (st != CUZK_OK)
        return st;
    if (device < 0 || device >= n)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device %d (%d present)", device, n);
    cudaDeviceProp p;
    st = CUDA_CHECK(cudaGetDeviceProperties(&p, device), err);
    if (st != CUZK_OK)
        return st;
    snprintf(out, out_len, "%s, sm_%d%d, %d SMs, %.1f GiB", p.name, p.major, p.minor,
             p.multiProcessorCount, (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_cuda_device_memory(size_t *free_bytes, size_t *total_bytes, int device,
                                               cuzk_error_t *err)
{
    if (!free_bytes || !total_bytes)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_device_memory: NULL output");
    *free_bytes = *total_bytes = 0;
    int n = 0, caller = 0;
    cuzk_status st = cuzk_cuda_device_count(&n, err);
    if (st != CUZK_OK)
        return st;
    if (device < 0 || device >= n)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device %d (%d present)", device, n);
    if ((st = CUDA_CHECK(cudaGetDevice(&caller), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaSetDevice(device), err)) != CUZK_OK)
        return st;
    st = CUDA_CHECK(cudaMemGetInfo(free_bytes, total_bytes), err);
    cuzk_status s2 = CUDA_CHECK(cudaSetDevice(caller), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? s2 : st;
}

/* Pinned in pieces (host_pin.cuh): a 4 GiB witness buffer made while a
 * WinningPoSt starts must not hold its small pinned allocations for 2 s. */
extern "C" void *cuzk_cuda_host_alloc(void *ctx, size_t bytes)
{
    (void)ctx;
    return cuda_host_pieces_alloc(bytes);
}

extern "C" void cuzk_cuda_host_free(void *ctx, void *p, size_t bytes)
{
    (void)ctx;
    cuda_host_pieces_free(p, bytes);
}

/* ---- a host entry point's call (host_call.cuh) ---- */

/* Device 0 and a new non-blocking stream; CUZK_ERR_NO_DEVICE without a GPU. */
/* A thread's choice of device for the host entry points (-1: device 0). */
static thread_local int t_call_device = -1;

void cuda_call_use_device(int device)
{
    t_call_device = device;
}

cuzk_status cuda_call_begin(cuda_call_t *g, const char *who, cuzk_error_t *err)
{
    int count = 0;
    g->stream = NULL;
    g->caller_device = 0;
    cuzk_status st = cuzk_cuda_device_count(&count, err);
    if (st != CUZK_OK)
        return st;
    if (count == 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "%s: no CUDA device", who);
    if ((st = CUDA_CHECK(cudaGetDevice(&g->caller_device), err)) != CUZK_OK)
        return st;
    if ((st = CUDA_CHECK(cudaSetDevice(t_call_device >= 0 ? t_call_device : 0), err)) != CUZK_OK)
        return st;
    st = CUDA_CHECK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking), err);
    if (st != CUZK_OK)
        (void)cudaSetDevice(g->caller_device);
    return st;
}

/* Waits for the stream, destroys it, restores the caller's device; the
 * first failure's status (and message) wins. */
cuzk_status cuda_call_end(cuda_call_t *g, cuzk_status st, cuzk_error_t *err)
{
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(g->stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    s2 = CUDA_CHECK(cudaStreamDestroy(g->stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    s2 = CUDA_CHECK(cudaSetDevice(g->caller_device), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? s2 : st;
}
