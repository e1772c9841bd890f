/* Fixed-base multiplication over G1 (setup.cuh): setup_fb_impl.cuh
 * instantiated. G1 and G2 are separate units so that they compile in
 * parallel. */
#define CUZK_CUDA_OUTLINE_FP_MUL /* field.cuh: fewer registers, shorter compile */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/keygen/setup.cuh"

using namespace cuzk_host;

#define FBK(name) fb_g1_##name
#define EC(name) dg1_##name
#define AFF dg1_affine_t
#define JAC dg1_jac_t
#define F_T dfp_t
#define F_mul dfp_mul
#define F_sqr dfp_sqr
#define F_is_zero dfp_is_zero
#define F_set_one dfp_set_one
#define F_inv setup_fp_inv
#define HEC(name) g1_##name
#define HAFF g1_affine_t
#define HJAC g1_jac_t
#define HGEN G1_GENERATOR
#include "backend/cuda/keygen/setup_fb_impl.cuh"

cuzk_status cuda_setup_fb_g1_init(cuda_setup_fb_t *fb, size_t n_total, size_t n_max, int sms,
                                  cudaStream_t s, cuzk_error_t *err)
{
    return fb_g1_init(fb, n_total, n_max, sms, s, err);
}

cuzk_status cuda_setup_fb_g1_mul(dg1_affine_t *out, const cuda_setup_fb_t *fb, const dfr_t *k,
                                 const uint32_t *idx, size_t n, cudaStream_t s, cuzk_error_t *err)
{
    return fb_g1_mul(out, fb, k, idx, n, s, err);
}
