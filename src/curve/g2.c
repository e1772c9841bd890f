/* G2 point arithmetic over Fp2 (see include/cuzk/g2.h). */
#include "cuzk/g2.h"

#include "../field/constants_gen.h"

#define EC(name) g2_##name
#define EC_AFF g2_affine_t
#define EC_JAC g2_jac_t
#define F_T fp2_t
#define F_ONE FP2_ONE
#define F_ZERO FP2_ZERO
#define F_add fp2_add
#define F_sub fp2_sub
#define F_dbl fp2_dbl
#define F_neg fp2_neg
#define F_mul fp2_mul
#define F_sqr fp2_sqr
#define F_inv fp2_inv
#define F_is_zero fp2_is_zero
#define F_equal fp2_equal

static const fp2_t G2_B = CUZK_G2_B;
#define EC_B (&G2_B)

#include "ec_impl.h"

const g2_affine_t G2_GENERATOR = {CUZK_G2_GEN_X, CUZK_G2_GEN_Y};

void g2_psi(g2_jac_t *out, const g2_jac_t *a)
{
    /* In Jacobian coordinates psi scales X by cx and Y by cy after
     * conjugation; Z is only conjugated (x = X/Z^2 maps to conj(X)cx/conj(Z)^2). */
    static const fp2_t cx = CUZK_PSI_X, cy = CUZK_PSI_Y;
    fp2_conj(&out->x, &a->x);
    fp2_mul(&out->x, &out->x, &cx);
    fp2_conj(&out->y, &a->y);
    fp2_mul(&out->y, &out->y, &cy);
    fp2_conj(&out->z, &a->z);
}

int g2_affine_in_subgroup(const g2_affine_t *a)
{
    static const uint64_t abs_x = CUZK_BLS_X_ABS;
    if (g2_affine_is_inf(a))
        return 1;
    g2_jac_t p, t, psi;
    g2_from_affine(&p, a);
    g2_mul_var(&t, &p, &abs_x, 1);
    g2_neg(&t, &t); /* [x] P, x < 0 */
    g2_psi(&psi, &p);
    return g2_jac_equal(&psi, &t);
}
