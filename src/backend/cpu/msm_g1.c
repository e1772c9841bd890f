/* The CPU MSM over G1 (see include/cuzk/msm.h; written once in msm_impl.h). */
#include "cuzk/msm.h"

#include "field/fp_inline.h"
#include "msm_internal.h"

#define EC(name) g1_##name
#define EC_AFF g1_affine_t
#define EC_JAC g1_jac_t
#define F_T fp_t
#define F_ONE FP_ONE
#define F_add fp_add_inl
#define F_sub fp_sub_inl
#define F_neg fp_neg_inl
#define F_dbl fp_dbl_inl
#define F_mul fp_mul_inl
#define F_sqr fp_sqr_inl
#define F_inv fp_inv_inl
#define F_is_zero fp_is_zero_inl
#define XYZZ(name) g1_xyzz_##name
#define XYZZ_T g1_xyzz_t
#define MSM(suffix) msm_g1##suffix
#define MSM_NFP 2

/* Where each fp_t of the struct sits in the zcash encoding: x | y. */
static const unsigned zcash_perm[MSM_NFP] = {0, 1};

/* -phi(P) = (beta x, -y) = [z] P, the GLV partner of P (msm_internal.h):
 * 1M. Infinity, (0, 0), stays (0, 0). */
static inline void g1_glv_base(g1_affine_t *out, const g1_affine_t *p)
{
    static const fp_t beta = {CUZK_G1_BETA};
    fp_mul_inl(&out->x, &p->x, &beta);
    fp_neg_inl(&out->y, &p->y);
}
#define MSM_GLV_BASE g1_glv_base

#include "msm_xyzz.h"
#include "msm_impl.h"
