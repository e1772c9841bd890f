/* G1 point arithmetic over Fp (see include/cuzk/g1.h). */
#include "cuzk/g1.h"

#include "../field/constants_gen.h"

#define EC(name) g1_##name
#define EC_AFF g1_affine_t
#define EC_JAC g1_jac_t
#define F_T fp_t
#define F_ONE FP_ONE
#define F_ZERO FP_ZERO_ELEM
#define F_add fp_add
#define F_sub fp_sub
#define F_dbl fp_dbl
#define F_neg fp_neg
#define F_mul fp_mul
#define F_sqr fp_sqr
#define F_inv fp_inv
#define F_is_zero fp_is_zero
#define F_equal fp_equal

static const fp_t G1_B = {CUZK_G1_B};
#define EC_B (&G1_B)

#include "ec_impl.h"

const g1_affine_t G1_GENERATOR = {{CUZK_G1_GEN_X}, {CUZK_G1_GEN_Y}};

int g1_affine_in_subgroup(const g1_affine_t *a)
{
    static const fp_t beta = {CUZK_G1_BETA};
    static const uint64_t abs_x = CUZK_BLS_X_ABS;
    if (g1_affine_is_inf(a))
        return 1;
    g1_jac_t p, t, phi;
    g1_from_affine(&p, a);
    g1_mul_var(&t, &p, &abs_x, 1);
    g1_mul_var(&t, &t, &abs_x, 1); /* [x^2] P */
    g1_neg(&t, &t);
    fp_mul(&phi.x, &p.x, &beta);
    phi.y = p.y;
    phi.z = p.z;
    return g1_jac_equal(&phi, &t);
}
