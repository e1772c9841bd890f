/* Device G1 (over Fp) and G2 (over Fp2) points: affine, Jacobian, XYZZ.
 *
 * The layouts of dg1_affine_t, dg1_jac_t, dg2_affine_t and dg2_jac_t are
 * those of the host's g1_affine_t... (include/cuzk/g1.h, g2.h), so points
 * are copied between host and device as they are. XYZZ exists on the
 * device only (the MSM buckets). The operations, written once in
 * ec_impl.cuh, are named dg1_xxx and dg2_xxx:
 *   affine_is_inf, affine_set_inf, jac_is_inf, jac_set_inf, from_affine,
 *   affine_neg, neg, dbl (dbl-2009-l), add (add-2007-bl),
 *   add_mixed (madd-2007-bl),
 *   xyzz_is_inf, xyzz_set_inf, xyzz_from_affine, xyzz_from_jac, xyzz_neg,
 *   xyzz_dbl_affine (mdbl-2008-s), xyzz_dbl (dbl-2008-s-1),
 *   xyzz_add_affine (madd-2008-s), xyzz_add (add-2008-s), xyzz_to_jac;
 * G1 also xyzz_add_affine_lz and xyzz_canon (coordinates in [0, 2p)).
 *
 * The G1 MSM's light bins sum with xyzz_add_affine_lz and reduce once at
 * the end (msm_g1.cu's CUZK_EC_LAZY, default 1: -1.0..-1.2% on an H100,
 * stop 38; 0 sums reduced). */
#ifndef CUZK_CUDA_EC_CUH
#define CUZK_CUDA_EC_CUH

#include "backend/cuda/arith/fp_pair.cuh"

/* xyzz_add_affine's products in an order that keeps fewer values live
 * (ec_impl.cuh): on for G2 (msm_g2.cu; its bins kernel -1.8% on top of
 * the lazy Fp2 product, H100, stop 42). */
#ifndef CUZK_EC_LEAN
#define CUZK_EC_LEAN 0
#endif

typedef struct dg1_affine {
    dfp_t x, y;
} dg1_affine_t;
typedef struct dg1_jac {
    dfp_t x, y, z;
} dg1_jac_t;
typedef struct dg1_xyzz {
    dfp_t x, y, zz, zzz;
} dg1_xyzz_t;

typedef struct dg2_affine {
    dfp2_t x, y;
} dg2_affine_t;
typedef struct dg2_jac {
    dfp2_t x, y, z;
} dg2_jac_t;
typedef struct dg2_xyzz {
    dfp2_t x, y, zz, zzz;
} dg2_xyzz_t;

#define EC(name) dg1_##name
#define EC_AFF dg1_affine_t
#define EC_JAC dg1_jac_t
#define EC_XYZZ dg1_xyzz_t
#define F_T dfp_t
#define F_add dfp_add
#define F_sub dfp_sub
#define F_dbl dfp_dbl
#define F_neg dfp_neg
#define F_mul dfp_mul
#define F_sqr dfp_sqr
#define F_mul_sub_mul dfp_mul_sub_mul
#define F_mul_pair dfp_mul_pair
#define F_sqr_pair dfp_sqr_pair
#define F_is_zero dfp_is_zero
#define F_set_zero dfp_set_zero
#define F_set_one dfp_set_one
#define F_mul_pair_lz dfp_mul_pair_lz
#define F_sqr_pair_lz dfp_sqr_pair_lz
#define F_sub_lz dfp_sub_lz
#if CUZK_FP_MUL_SUB_MUL
#define F_mul_sub_mul_lz dfp_mul_sub_mul_lz
#endif
#define F_dbl_lz dfp_dbl_lz
#define F_is_zero_lz dfp_is_zero_lz
#define F_canon dfp_canon
#include "backend/cuda/arith/ec_impl.cuh"
#undef F_mul_pair_lz
#undef F_sqr_pair_lz
#undef F_sub_lz
#undef F_mul_sub_mul_lz
#undef F_dbl_lz
#undef F_is_zero_lz
#undef F_canon
#undef EC
#undef EC_AFF
#undef EC_JAC
#undef EC_XYZZ
#undef F_T
#undef F_add
#undef F_sub
#undef F_dbl
#undef F_neg
#undef F_mul
#undef F_sqr
#undef F_mul_sub_mul
#undef F_mul_pair
#undef F_sqr_pair
#undef F_is_zero
#undef F_set_zero
#undef F_set_one

#define EC(name) dg2_##name
#define EC_AFF dg2_affine_t
#define EC_JAC dg2_jac_t
#define EC_XYZZ dg2_xyzz_t
#define F_T dfp2_t
#define F_add dfp2_add
#define F_sub dfp2_sub
#define F_dbl dfp2_dbl
#define F_neg dfp2_neg
#if CUZK_FP2_F64
#define F_mul dfp2_mul_mixed
#define F_sqr dfp2_sqr_mixed
#else
#define F_mul dfp2_mul
#define F_sqr dfp2_sqr
#endif
#define F_mul_sub_mul dfp2_mul_sub_mul
#define F_mul_pair dfp2_mul_pair
#define F_sqr_pair dfp2_sqr_pair
#define F_is_zero dfp2_is_zero
#define F_set_zero dfp2_set_zero
#define F_set_one dfp2_set_one
#include "backend/cuda/arith/ec_impl.cuh"
#undef EC
#undef EC_AFF
#undef EC_JAC
#undef EC_XYZZ
#undef F_T
#undef F_add
#undef F_sub
#undef F_dbl
#undef F_neg
#undef F_mul
#undef F_sqr
#undef F_mul_sub_mul
#undef F_mul_pair
#undef F_sqr_pair
#undef F_is_zero
#undef F_set_zero
#undef F_set_one

#endif
