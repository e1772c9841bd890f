/* The CPU MSM over G2 (see include/cuzk/msm.h; written once in msm_impl.h). */
#include "cuzk/msm.h"

#include "msm_internal.h"

#define EC(name) g2_##name
#define EC_AFF g2_affine_t
#define EC_JAC g2_jac_t
#define F_T fp2_t
#define F_ONE FP2_ONE
#define F_add fp2_add
#define F_sub fp2_sub
#define F_neg fp2_neg
#define F_dbl fp2_dbl
#define F_mul fp2_mul
#define F_sqr fp2_sqr
#define F_inv fp2_inv
#define F_is_zero fp2_is_zero
#define XYZZ(name) g2_xyzz_##name
#define XYZZ_T g2_xyzz_t
#define MSM(suffix) msm_g2##suffix
#define MSM_NFP 4

/* Where each fp_t of the struct (x.c0 x.c1 y.c0 y.c1) sits in the zcash
 * encoding: x.c1 | x.c0 | y.c1 | y.c0. */
static const unsigned zcash_perm[MSM_NFP] = {1, 0, 3, 2};

#include "msm_xyzz.h"
#include "msm_impl.h"
