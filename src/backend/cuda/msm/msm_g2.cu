/* The device MSM over G2 (msm.cuh): msm_impl.cuh instantiated. G1 and G2
 * are separate units so that they compile in parallel. */
#define CUZK_CUDA_OUTLINE_FP_MUL /* see field.cuh: compile time */
/* G2's arithmetic forms (field.cuh, ec.cuh knobs; -D overrides for A/B
 * runs). The lazy Fp2 product and the lean addition order took the bins
 * kernel of a G2 2^24 MSM from 278.8 to 237.6 ms and its bucket reduction
 * from 51.3 to 35.6 ms (H100, stop 42); one REDC fewer in Y3 lost 6% on
 * top of the lazy product (256.4 ms: more registers, 8 warps an SM). */
#ifndef CUZK_FP2_LAZY
#define CUZK_FP2_LAZY 1
#endif
#ifndef CUZK_EC_LEAN
#define CUZK_EC_LEAN 1
#endif
#include "backend/cuda/msm/msm_common.cuh"

using namespace cuzk_host;

#define EC(name) dg2_##name
#define MK(name) msm_g2_##name
#define HJ(name) g2_##name
#define AFF dg2_affine_t
#define XYZZ dg2_xyzz_t
#define FT dfp2_t
#define FLD(name) dfp2_##name
/* pairs a thread of the affine rounds takes (msm_pairs.cuh), its
 * inversion shared by PAIR_THREADS threads; CUZK_MSM_PAIR_K_G2 at build
 * time for experiments, at most 32 */
#ifdef CUZK_MSM_PAIR_K_G2
#define PAIR_K CUZK_MSM_PAIR_K_G2
#else
#define PAIR_K 8
#endif
#define JAC dg2_jac_t
#define HJAC g2_jac_t
#define RED_THREADS 64
#define MSM_CHAIN_LAZY 0
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

cuzk_status cuda_msm_g2(g2_jac_t *out, cuda_msm_plan_t *p, const dg2_affine_t *bases,
                        const dfr_t *scalars, size_t n, cudaStream_t s, cuzk_error_t *err)
{
    if (p && p->curve != CUDA_CURVE_G2)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_msm_g2: plan is for G1");
    return msm_g2_run(out, p, bases, scalars, n, s, err);
}

cuzk_status cuda_msm_g2_bins_check(int on_device, cudaStream_t s, void *out, uint8_t *kind,
                                   const void *bases, size_t nbases, const uint32_t *sorted,
                                   const uint32_t *off, uint32_t nbins, uint32_t medium,
                                   uint32_t chunk, uint32_t rounds, cuzk_error_t *err)
{
    return msm_g2_bins_check(on_device, s, (dg2_jac_t *)out, kind, (const dg2_affine_t *)bases,
                             nbases, sorted, off, nbins, medium, chunk, rounds, err);
}
