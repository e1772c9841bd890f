/* The device MSM over G1 (msm.cuh): msm_impl.cuh instantiated. G1 and G2
 * are separate units so that they compile in parallel. */
#define CUZK_CUDA_OUTLINE_FP_MUL /* see field.cuh: compile time */
/* G1's arithmetic forms (field.cuh knobs; -D overrides for A/B runs): Y3
 * of the [0, 2p) addition reduced once, the aligned square, and the bins
 * kernel capped at 127 registers (four 128-thread blocks an SM, no
 * spills) took the bins kernel of a G1 2^26 MSM from 340.3 to 306.0 ms
 * (H100, stop 42). */
#ifndef CUZK_FP_MUL_SUB_MUL
#define CUZK_FP_MUL_SUB_MUL 1
#endif
#ifndef CUZK_FP_SQR
#define CUZK_FP_SQR 1
#endif
#ifndef CUZK_MSM_BINS_MINB
#define CUZK_MSM_BINS_MINB 4
#endif
#include "backend/cuda/msm/msm_common.cuh"

using namespace cuzk_host;

#define EC(name) dg1_##name
#define MK(name) msm_g1_##name
#define HJ(name) g1_##name
#define AFF dg1_affine_t
#define XYZZ dg1_xyzz_t
#define FT dfp_t
#define FLD(name) dfp_##name
/* pairs a thread of the affine rounds takes (msm_pairs.cuh), its
 * inversion shared by PAIR_THREADS threads; CUZK_MSM_PAIR_K_G1 at build
 * time for experiments, at most 32 */
#ifdef CUZK_MSM_PAIR_K_G1
#define PAIR_K CUZK_MSM_PAIR_K_G1
#else
#define PAIR_K 16
#endif
#define JAC dg1_jac_t
#define HJAC g1_jac_t
#define RED_THREADS 128
/* the light bins' sums in [0, 2p), reduced once (ec.cuh); 0 at build
 * time sums them reduced */
#ifndef CUZK_EC_LAZY
#define CUZK_EC_LAZY 1
#endif
#define MSM_CHAIN_LAZY CUZK_EC_LAZY
#include "backend/cuda/msm/msm_impl.cuh"
#undef EC
#undef MK
#undef HJ
#undef AFF
#undef XYZZ
#undef JAC
#undef FT
#undef FLD
#undef PAIR_K
#undef HJAC
#undef RED_THREADS
#undef MSM_CHAIN_LAZY

cuzk_status cuda_msm_g1(g1_jac_t *out, cuda_msm_plan_t *p, const dg1_affine_t *bases,
                        const dfr_t *scalars, size_t n, cudaStream_t s, cuzk_error_t *err)
{
    if (p && p->curve != CUDA_CURVE_G1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_msm_g1: plan is for G2");
    return msm_g1_run(out, p, bases, scalars, n, s, err);
}

cuzk_status cuda_msm_g1_bins_check(int on_device, cudaStream_t s, void *out, uint8_t *kind,
                                   const void *bases, size_t nbases, const uint32_t *sorted,
                                   const uint32_t *off, uint32_t nbins, uint32_t medium,
                                   uint32_t chunk, uint32_t rounds, cuzk_error_t *err)
{
    return msm_g1_bins_check(on_device, s, (dg1_jac_t *)out, kind, (const dg1_affine_t *)bases,
                             nbases, sorted, off, nbins, medium, chunk, rounds, err);
}
