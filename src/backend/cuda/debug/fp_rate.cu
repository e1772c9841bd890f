/* cuzk_cuda_fp_rate (cuda_selftest.h): how many Fp multiplications a
 * second each pipe gives, alone and side by side (fp_f64.cuh). One full
 * wave of blocks, each thread a dependent chain or two, so the figure is
 * the SM's throughput with every warp slot the kernel's registers allow. */
#include <stdint.h>
#include <stdlib.h>

#include "backend/cuda/arith/fp_f64.cuh"
#include "backend/cuda/cuda_check.cuh"
#include "cuzk/cuda.h"
#include "cuzk/cuda_selftest.h"

#define RATE_THREADS 128

/* A reduced Fp value from (thread, k): the top limb below p's. */
static __device__ dfp_t rate_input(uint32_t t, uint32_t k)
{
    dfp_t v;
    uint32_t h = t * 0x9e3779b9u + k * 0x85ebca6bu + 1;
    CUZK_UNROLL
    for (int j = 0; j < DFP_LIMBS; j++) {
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        h *= 0x297a2d39u;
        v.l[j] = h;
    }
    v.l[DFP_LIMBS - 1] %= 0x1a000000u;
    return v;
}

template <int M> __global__ void fp_rate_kernel(dfp_t *out, int iters, int *mismatches)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    dfp_t x = rate_input(t, 0), y = rate_input(t, 2);
    dfp_t z = M == CUZK_CUDA_FP_IMAD_F64 ? x : rate_input(t, 1);
    for (int i = 0; i < iters; i++) {
        if (M == CUZK_CUDA_FP_F64 || M == CUZK_CUDA_FP_F64_2)
            dfp_mul_f64(&x, &x, &y);
        else
            dfp_mul(&x, &x, &y);
        if (M == CUZK_CUDA_FP_IMAD2)
            dfp_mul(&z, &z, &y);
        else if (M == CUZK_CUDA_FP_F64_2 || M == CUZK_CUDA_FP_IMAD_F64)
            dfp_mul_f64(&z, &z, &y);
    }
    out[2 * t] = x;
    out[2 * t + 1] = z;
    if (M == CUZK_CUDA_FP_IMAD_F64 && !dfp_equal(&x, &z))
        atomicAdd(mismatches, 1);
}

typedef void (*rate_kernel_t)(dfp_t *, int, int *);
static const rate_kernel_t RATE_KERNELS[CUZK_CUDA_FP_METHOD_COUNT] = {
    fp_rate_kernel<CUZK_CUDA_FP_IMAD>, fp_rate_kernel<CUZK_CUDA_FP_IMAD2>,
    fp_rate_kernel<CUZK_CUDA_FP_F64>, fp_rate_kernel<CUZK_CUDA_FP_F64_2>,
    fp_rate_kernel<CUZK_CUDA_FP_IMAD_F64>};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

extern "C" cuzk_status cuzk_cuda_fp_rate(cuzk_cuda_fp_rate_t *out, cuzk_cuda_fp_method m, int iters,
                                         cuzk_error_t *err)
{
    if (!out || (unsigned)m >= CUZK_CUDA_FP_METHOD_COUNT || iters < 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_fp_rate: bad method %d or iters %d",
                              (int)m, iters);
    int count = 0, caller = 0;
    cuzk_status s2, st = cuzk_cuda_device_count(&count, err);
    if (st != CUZK_OK)
        return st;
    if (count == 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "cuzk_cuda_fp_rate: no CUDA device");
    if ((st = CUDA_CHECK(cudaGetDevice(&caller), err)) != CUZK_OK)
        return st;
    if ((st = CUDA_CHECK(cudaSetDevice(0), err)) != CUZK_OK)
        return st;

    rate_kernel_t k = RATE_KERNELS[m];
    cudaDeviceProp prop;
    cudaFuncAttributes attr;
    cudaEvent_t e0 = NULL, e1 = NULL;
    dfp_t *d_out = NULL;
    int *d_bad = NULL, per_sm = 0, bad = 0, khz = 0;
    double ms[3];
    size_t threads;
    if ((st = CUDA_CHECK(cudaGetDeviceProperties(&prop, 0), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaFuncGetAttributes(&attr, k), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, RATE_THREADS, 0),
                         err)) != CUZK_OK)
        goto restore;
    if (per_sm < 1) {
        st = cuzk_error_set(err, CUZK_ERR_CUDA, "cuzk_cuda_fp_rate: the kernel fits no SM");
        goto restore;
    }
    threads = (size_t)prop.multiProcessorCount * per_sm * RATE_THREADS;
    if ((st = CUDA_CHECK(cudaMalloc(&d_out, threads * 2 * sizeof(dfp_t)), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMalloc(&d_bad, sizeof(int)), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaEventCreate(&e0), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaEventCreate(&e1), err)) != CUZK_OK)
        goto done;
    /* a short warm-up, then three timed launches; the last one's chains
     * are the ones compared */
    for (int r = -1; r < 3; r++) {
        if ((st = CUDA_CHECK(cudaMemset(d_bad, 0, sizeof(int)), err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaEventRecord(e0), err)) != CUZK_OK)
            goto done;
        k<<<prop.multiProcessorCount * per_sm, RATE_THREADS>>>(d_out, r < 0 ? 1 : iters, d_bad);
        float f = 0;
        if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaEventRecord(e1), err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaEventSynchronize(e1), err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaEventElapsedTime(&f, e0, e1), err)) != CUZK_OK)
            goto done;
        if (r >= 0)
            ms[r] = f;
    }
    if ((st = CUDA_CHECK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost), err)) !=
        CUZK_OK)
        goto done;
    qsort(ms, 3, sizeof ms[0], cmp_double);
    out->ms = ms[1];
    out->muls = (double)threads * iters * (m == CUZK_CUDA_FP_IMAD || m == CUZK_CUDA_FP_F64 ? 1 : 2);
    out->ns_per_mul = out->ms * 1e6 / out->muls;
    /* the clock attribute (kHz) is the boost clock the SMs run at under load */
    out->clk_per_mul_sm = out->ms * 1e-3 * khz * 1e3 * prop.multiProcessorCount / out->muls;
    out->sms = prop.multiProcessorCount;
    out->blocks_per_sm = per_sm;
    out->regs = attr.numRegs;
    out->mismatches = bad;

done:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (d_out)
        cudaFree(d_out);
    if (d_bad)
        cudaFree(d_bad);
restore:
    s2 = CUDA_CHECK(cudaSetDevice(caller), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? s2 : st;
}
