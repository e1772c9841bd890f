/* Fixed-base multiplication over G2 (setup.cuh): setup_fb_impl.cuh
 * instantiated. G1 and G2 are separate units so that they compile in
 * parallel. */
#define CUZK_CUDA_OUTLINE_FP_MUL /* field.cuh: fewer registers, shorter compile */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/keygen/setup.cuh"

using namespace cuzk_host;

#define FBK(name) fb_g2_##name
#define EC(name) dg2_##name
#define AFF dg2_affine_t
#define JAC dg2_jac_t
#define F_T dfp2_t
#define F_mul dfp2_mul
#define F_sqr dfp2_sqr
#define F_is_zero dfp2_is_zero
#define F_set_one dfp2_set_one
#define F_inv setup_fp2_inv
#define HEC(name) g2_##name
#define HAFF g2_affine_t
#define HJAC g2_jac_t
#define HGEN G2_GENERATOR
#define FB_OUTLINE_ADD
#include "backend/cuda/keygen/setup_fb_impl.cuh"

cuzk_status cuda_setup_fb_g2_init(cuda_setup_fb_t *fb, size_t n_total, size_t n_max, int sms,
                                  cudaStream_t s, cuzk_error_t *err)
{
    return fb_g2_init(fb, n_total, n_max, sms, s, err);
}

cuzk_status cuda_setup_fb_g2_mul(dg2_affine_t *out, const cuda_setup_fb_t *fb, const dfr_t *k,
                                 const uint32_t *idx, size_t n, cudaStream_t s, cuzk_error_t *err)
{
    return fb_g2_mul(out, fb, k, idx, n, s, err);
}
