/* The CUDA MSM from host memory and its benchmark (include/cuzk/cuda_msm.h). */
#include <algorithm>
#include <stdlib.h>
#include <string.h>

#define CUZK_CUDA_OUTLINE_FP_MUL /* see field.cuh: compile time */
#include "backend/cuda/host_call.cuh"
#include "backend/cuda/msm/msm.cuh"
#include "cuzk/cuda.h"
#include "cuzk/cuda_selftest.h"

namespace cuzk_host
{
#include "cuzk/cuda_msm.h"
} // namespace cuzk_host

using namespace cuzk_host;

static cuzk_status host_msm(void *out, int g2, const msm_bases_t *bases, const fr_t *scalars,
                            size_t n, cuzk_error_t *err)
{
    const char *who = g2 ? "cuzk_cuda_msm_g2" : "cuzk_cuda_msm_g1";
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: out is NULL", who);
    if (g2)
        g2_jac_set_inf((g2_jac_t *)out);
    else
        g1_jac_set_inf((g1_jac_t *)out);
    if (n == 0)
        return CUZK_OK;
    if (!bases || !bases->data || !scalars)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL input", who);
    if (bases->fmt != MSM_BASES_AFFINE && bases->fmt != MSM_BASES_LEM &&
        bases->fmt != MSM_BASES_ZCASH)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown base format %d", who,
                              (int)bases->fmt);
    if (n >= ((size_t)1 << 31))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %zu points (at most 2^31 - 1)", who, n);
    cuda_call_t x;
    cuzk_status st = cuda_call_begin(&x, who, err);
    if (st != CUZK_OK)
        return st;
    size_t bb = n * (g2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t));
    void *d_bases = NULL;
    dfr_t *d_s = NULL;
    cuda_msm_plan_t plan;
    memset(&plan, 0, sizeof plan);
    if ((st = CUDA_CHECK(cudaMalloc(&d_bases, bb), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMalloc((void **)&d_s, n * sizeof(dfr_t)), err)) != CUZK_OK ||
        (st = cuda_msm_plan_init(&plan, g2 ? CUDA_CURVE_G2 : CUDA_CURVE_G1, n, 0, err)) != CUZK_OK)
        goto out;
    if ((st = CUDA_CHECK(
             cudaMemcpyAsync(d_s, scalars, n * sizeof(dfr_t), cudaMemcpyHostToDevice, x.stream),
             err)) != CUZK_OK)
        goto out;
    if (g2)
        st = cuda_bases_upload_g2((dg2_affine_t *)d_bases, bases, n, x.stream, err);
    else
        st = cuda_bases_upload_g1((dg1_affine_t *)d_bases, bases, n, x.stream, err);
    if (st != CUZK_OK)
        goto out;
    if (g2)
        st = cuda_msm_g2((g2_jac_t *)out, &plan, (const dg2_affine_t *)d_bases, d_s, n, x.stream,
                         err);
    else
        st = cuda_msm_g1((g1_jac_t *)out, &plan, (const dg1_affine_t *)d_bases, d_s, n, x.stream,
                         err);
out:
    (void)cudaStreamSynchronize(x.stream);
    cuda_msm_plan_free(&plan);
    if (d_bases)
        (void)cudaFree(d_bases);
    if (d_s)
        (void)cudaFree(d_s);
    return cuda_call_end(&x, st, err);
}

extern "C" cuzk_status cuzk_cuda_msm_g1(g1_jac_t *out, const msm_bases_t *bases,
                                        const fr_t *scalars, size_t n, cuzk_error_t *err)
{
    return host_msm(out, 0, bases, scalars, n, err);
}

extern "C" cuzk_status cuzk_cuda_msm_g2(g2_jac_t *out, const msm_bases_t *bases,
                                        const fr_t *scalars, size_t n, cuzk_error_t *err)
{
    return host_msm(out, 1, bases, scalars, n, err);
}

/* ---- the affine rounds alone (cuda_selftest.h) ------------------------------ */

extern "C" cuzk_status cuzk_cuda_msm_bins_check(cuzk_cuda_target target, int g2, void *out,
                                                uint8_t *kind, const void *bases, size_t nbases,
                                                const uint32_t *sorted, const uint32_t *off,
                                                uint32_t nbins, uint32_t medium, uint32_t chunk,
                                                uint32_t rounds, cuzk_error_t *err)
{
    static const char who[] = "cuzk_cuda_msm_bins_check";
    if (target != CUZK_CUDA_TARGET_DEVICE && target != CUZK_CUDA_TARGET_HOST_EMU)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown target %d", who, (int)target);
    if (!out || !kind || !bases || !off || nbins == 0 || chunk == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL input, no bins or chunk 0", who);
    if (rounds < 1 || rounds > CUDA_MSM_PAIR_ROUNDS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %u rounds (1 to %d)", who, rounds,
                              CUDA_MSM_PAIR_ROUNDS_MAX);
    if (off[0] != 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: off[0] = %u, not 0", who, off[0]);
    for (uint32_t b = 0; b < nbins; b++)
        if (off[b + 1] < off[b])
            return cuzk_error_set(err, CUZK_ERR_ARG, "%s: off[%u] < off[%u]", who, b + 1, b);
    if (off[nbins] && !sorted)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: sorted is NULL", who);
    for (uint32_t e = 0; e < off[nbins]; e++)
        if ((sorted[e] & 0x7fffffffu) >= nbases)
            return cuzk_error_set(err, CUZK_ERR_ARG, "%s: sorted[%u] names base %u of %zu", who, e,
                                  sorted[e] & 0x7fffffffu, nbases);
    if (target == CUZK_CUDA_TARGET_HOST_EMU)
        return g2 ? cuda_msm_g2_bins_check(0, 0, out, kind, bases, nbases, sorted, off, nbins,
                                           medium, chunk, rounds, err)
                  : cuda_msm_g1_bins_check(0, 0, out, kind, bases, nbases, sorted, off, nbins,
                                           medium, chunk, rounds, err);
    cuda_call_t x;
    cuzk_status st = cuda_call_begin(&x, who, err);
    if (st != CUZK_OK)
        return st;
    st = g2 ? cuda_msm_g2_bins_check(1, x.stream, out, kind, bases, nbases, sorted, off, nbins,
                                     medium, chunk, rounds, err)
            : cuda_msm_g1_bins_check(1, x.stream, out, kind, bases, nbases, sorted, off, nbins,
                                     medium, chunk, rounds, err);
    return cuda_call_end(&x, st, err);
}

/* ---- benchmark ----------------------------------------------------------- */

/* splitmix64: the benchmark's scalars from their index, reproducible. */
static __device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Scalar i: 0 when h % 100 < zero_pct, 1 when below zero_pct + one_pct,
 * else Montgomery limbs below 2^254 < r (a uniform element's
 * representation). The draws of {0, 0} and {45, 45} are those the former
 * random and witness kinds made, so earlier figures stay comparable. */
__global__ void bench_scalars(dfr_t *s, size_t n, unsigned zero_pct, unsigned one_pct,
                              uint64_t seed)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t h = mix64(seed ^ (i * 0x2545f4914f6cdd1dULL));
    unsigned pick = (unsigned)(h % 100);
    if (pick < zero_pct) {
        dfr_set_zero(&s[i]);
        return;
    }
    if (pick < zero_pct + one_pct) {
        dfr_set_one(&s[i]);
        return;
    }
    dfr_t v;
    for (int j = 0; j < 4; j++) {
        h = mix64(h);
        v.l[2 * j] = (uint32_t)h;
        v.l[2 * j + 1] = (uint32_t)(h >> 32);
    }
    v.l[7] &= 0x3fffffffu;
    s[i] = v;
}

/* a^(p-2) = 1/a (a != 0), square and multiply. */
static __device__ void bench_fp_inv(dfp_t *out, const dfp_t *a)
{
    dfp_t e = DCONST(DFP_P), acc;
    e.l[0] -= 2; /* p ends in ...aaab */
    dfp_set_one(&acc);
    for (int j = DFP_LIMBS - 1; j >= 0; j--)
        for (int b = 31; b >= 0; b--) {
            dfp_sqr(&acc, &acc);
            if ((e.l[j] >> b) & 1)
                dfp_mul(&acc, &acc, a);
        }
    *out = acc;
}

/* 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2) */
static __device__ void bench_fp2_inv(dfp2_t *out, const dfp2_t *a)
{
    dfp_t n, t;
    dfp_sqr(&n, &a->c0);
    dfp_sqr(&t, &a->c1);
    dfp_add(&n, &n, &t);
    bench_fp_inv(&n, &n);
    dfp_mul(&out->c0, &a->c0, &n);
    dfp_mul(&t, &a->c1, &n);
    dfp_neg(&out->c1, &t);
}

/* base i = T[i mod 2^16] + U[i / 2^16]: distinct points from two short
 * host-made walks, one addition and one inversion each. */
#define BENCH_T_LOG 16
__global__ void bench_bases_g1(dg1_affine_t *out, const dg1_affine_t *t, const dg1_affine_t *u,
                               size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    dg1_jac_t j;
    dg1_from_affine(&j, &u[i >> BENCH_T_LOG]);
    dg1_add_mixed(&j, &j, &t[i & ((1u << BENCH_T_LOG) - 1)]);
    dfp_t zi, zi2;
    bench_fp_inv(&zi, &j.z);
    dfp_sqr(&zi2, &zi);
    dfp_mul(&out[i].x, &j.x, &zi2);
    dfp_mul(&zi2, &zi2, &zi);
    dfp_mul(&out[i].y, &j.y, &zi2);
}

__global__ void bench_bases_g2(dg2_affine_t *out, const dg2_affine_t *t, const dg2_affine_t *u,
                               size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    dg2_jac_t j;
    dg2_from_affine(&j, &u[i >> BENCH_T_LOG]);
    dg2_add_mixed(&j, &j, &t[i & ((1u << BENCH_T_LOG) - 1)]);
    dfp2_t zi, zi2;
    bench_fp2_inv(&zi, &j.z);
    dfp2_sqr(&zi2, &zi);
    dfp2_mul(&out[i].x, &j.x, &zi2);
    dfp2_mul(&zi2, &zi2, &zi);
    dfp2_mul(&out[i].y, &j.y, &zi2);
}

/* count affine points start, start + step, ... (host; G1 or G2). */
static cuzk_status host_walk(void *out, int g2, size_t count, cuzk_error_t *err)
{
    fr_t k1, k2;
    cuzk_status st;
    if ((st = fr_random(&k1, err)) != CUZK_OK || (st = fr_random(&k2, err)) != CUZK_OK)
        return st;
    if (g2) {
        g2_jac_t *j = (g2_jac_t *)malloc(count * sizeof *j), start, step;
        if (!j)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "bench: out of memory");
        g2_from_affine(&start, &G2_GENERATOR);
        g2_mul_fr(&step, &start, &k2);
        g2_mul_fr(&j[0], &start, &k1);
        for (size_t i = 1; i < count; i++)
            g2_add(&j[i], &j[i - 1], &step);
        st = g2_batch_to_affine((g2_affine_t *)out, j, count);
        free(j);
    } else {
        g1_jac_t *j = (g1_jac_t *)malloc(count * sizeof *j), start, step;
        if (!j)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "bench: out of memory");
        g1_from_affine(&start, &G1_GENERATOR);
        g1_mul_fr(&step, &start, &k2);
        g1_mul_fr(&j[0], &start, &k1);
        for (size_t i = 1; i < count; i++)
            g1_add(&j[i], &j[i - 1], &step);
        st = g1_batch_to_affine((g1_affine_t *)out, j, count);
        free(j);
    }
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "bench: batch to affine failed");
    return CUZK_OK;
}

static cuzk_status bench_bases(void *d_bases, int g2, size_t n, cudaStream_t s, cuzk_error_t *err)
{
    size_t aff = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
    size_t nt = (size_t)1 << BENCH_T_LOG, nu = (n >> BENCH_T_LOG) + 1;
    void *t = malloc(nt * aff), *u = malloc(nu * aff), *d_t = NULL, *d_u = NULL;
    cuzk_status st = CUZK_OK;
    if (!t || !u)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "bench: out of memory");
    if (st == CUZK_OK && (st = host_walk(t, g2, nt, err)) == CUZK_OK &&
        (st = host_walk(u, g2, nu, err)) == CUZK_OK &&
        (st = CUDA_CHECK(cudaMalloc(&d_t, nt * aff), err)) == CUZK_OK &&
        (st = CUDA_CHECK(cudaMalloc(&d_u, nu * aff), err)) == CUZK_OK &&
        (st = CUDA_CHECK(cudaMemcpyAsync(d_t, t, nt * aff, cudaMemcpyHostToDevice, s), err)) ==
            CUZK_OK &&
        (st = CUDA_CHECK(cudaMemcpyAsync(d_u, u, nu * aff, cudaMemcpyHostToDevice, s), err)) ==
            CUZK_OK) {
        unsigned grid = (unsigned)((n + 127) / 128);
        if (g2)
            bench_bases_g2<<<grid, 128, 0, s>>>((dg2_affine_t *)d_bases, (const dg2_affine_t *)d_t,
                                                (const dg2_affine_t *)d_u, n);
        else
            bench_bases_g1<<<grid, 128, 0, s>>>((dg1_affine_t *)d_bases, (const dg1_affine_t *)d_t,
                                                (const dg1_affine_t *)d_u, n);
        st = CUDA_CHECK(cudaGetLastError(), err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaStreamSynchronize(s), err);
    }
    if (d_t)
        (void)cudaFree(d_t);
    if (d_u)
        (void)cudaFree(d_u);
    free(t);
    free(u);
    return st;
}

extern "C" cuzk_status cuzk_cuda_msm_bench(cuzk_cuda_msm_bench_t *out, int g2, size_t n,
                                           cuzk_cuda_msm_mix_t mix, int reps, cuzk_error_t *err)
{
    if (!out || reps < 1 || n == 0 || n >= ((size_t)1 << 31))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_msm_bench: needs an output, 1 <= n < 2^31, reps >= 1");
    if (mix.zero_pct > 100 || mix.one_pct > 100 - mix.zero_pct)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_msm_bench: %u%% zeros + %u%% ones is over 100%%",
                              mix.zero_pct, mix.one_pct);
    memset(out, 0, sizeof *out);
    cuda_call_t x;
    cuzk_status st = cuda_call_begin(&x, "cuzk_cuda_msm_bench", err);
    if (st != CUZK_OK)
        return st;
    size_t bb = n * (g2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t));
    void *d_bases = NULL;
    dfr_t *d_s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    cuda_msm_plan_t plan;
    memset(&plan, 0, sizeof plan);
    double *ms = (double *)calloc((size_t)reps, sizeof *ms);
    if (!ms) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "bench: out of memory");
        goto done;
    }
    if ((st = CUDA_CHECK(cudaMalloc(&d_bases, bb), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaMalloc((void **)&d_s, n * sizeof(dfr_t)), err)) != CUZK_OK ||
        (st = cuda_msm_plan_init(&plan, g2 ? CUDA_CURVE_G2 : CUDA_CURVE_G1, n, 0, err)) !=
            CUZK_OK ||
        (st = CUDA_CHECK(cudaEventCreate(&e0), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaEventCreate(&e1), err)) != CUZK_OK ||
        (st = bench_bases(d_bases, g2, n, x.stream, err)) != CUZK_OK)
        goto done;
    bench_scalars<<<(unsigned)((n + 255) / 256), 256, 0, x.stream>>>(
        d_s, n, mix.zero_pct, mix.one_pct, 0x5eed0000ULL + n);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
        goto done;
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        g1_jac_t o1;
        g2_jac_t o2;
        if ((st = CUDA_CHECK(cudaEventRecord(e0, x.stream), err)) != CUZK_OK)
            goto done;
        st = g2 ? cuda_msm_g2(&o2, &plan, (const dg2_affine_t *)d_bases, d_s, n, x.stream, err)
                : cuda_msm_g1(&o1, &plan, (const dg1_affine_t *)d_bases, d_s, n, x.stream, err);
        if (st != CUZK_OK || (st = CUDA_CHECK(cudaEventRecord(e1, x.stream), err)) != CUZK_OK ||
            (st = CUDA_CHECK(cudaEventSynchronize(e1), err)) != CUZK_OK)
            goto done;
        float t = 0;
        if ((st = CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1), err)) != CUZK_OK)
            goto done;
        if (r >= 0)
            ms[r] = t;
    }
    std::sort(ms, ms + reps);
    out->reps = reps;
    out->ms_min = ms[0];
    out->ms_max = ms[reps - 1];
    out->ms_median = reps % 2 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
    out->plan_bytes = plan.bytes;
    out->bases_bytes = bb;
    out->window_bits = plan.last.c;
done:
    (void)cudaStreamSynchronize(x.stream);
    free(ms);
    if (e0)
        (void)cudaEventDestroy(e0);
    if (e1)
        (void)cudaEventDestroy(e1);
    cuda_msm_plan_free(&plan);
    if (d_bases)
        (void)cudaFree(d_bases);
    if (d_s)
        (void)cudaFree(d_s);
    return cuda_call_end(&x, st, err);
}
