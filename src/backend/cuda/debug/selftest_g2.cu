/* Self-test ops on G2 (see selftest_internal.cuh). XYZZ ops convert their
 * Jacobian inputs to XYZZ, operate, and convert back. */
#include "backend/cuda/debug/selftest_internal.cuh"

using namespace cuzk_host;

static CUZK_HD void one_g2_add(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *b)
{
    dg2_add(o, a, b);
}

static CUZK_HD void one_g2_add_mixed(dg2_jac_t *o, const dg2_jac_t *a, const dg2_affine_t *b)
{
    dg2_add_mixed(o, a, b);
}

static CUZK_HD void one_g2_dbl(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *)
{
    dg2_dbl(o, a);
}

static CUZK_HD void one_g2_neg(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *)
{
    dg2_neg(o, a);
}

static CUZK_HD void one_g2_xyzz_add_mixed(dg2_jac_t *o, const dg2_jac_t *a, const dg2_affine_t *b)
{
    dg2_xyzz_t p;
    dg2_xyzz_from_jac(&p, a);
    dg2_xyzz_add_affine(&p, &p, b);
    dg2_xyzz_to_jac(o, &p);
}

static CUZK_HD void one_g2_xyzz_add(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *b)
{
    dg2_xyzz_t p, q;
    dg2_xyzz_from_jac(&p, a);
    dg2_xyzz_from_jac(&q, b);
    dg2_xyzz_add(&p, &p, &q);
    dg2_xyzz_to_jac(o, &p);
}

static CUZK_HD void one_g2_xyzz_dbl(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *)
{
    dg2_xyzz_t p;
    dg2_xyzz_from_jac(&p, a);
    dg2_xyzz_dbl(&p, &p);
    dg2_xyzz_to_jac(o, &p);
}

SELFTEST_OP(g2_add, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_add_mixed, dg2_jac_t, dg2_jac_t, dg2_affine_t)
SELFTEST_OP(g2_dbl, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_neg, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_xyzz_add_mixed, dg2_jac_t, dg2_jac_t, dg2_affine_t)
SELFTEST_OP(g2_xyzz_add, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_xyzz_dbl, dg2_jac_t, dg2_jac_t, dg2_jac_t)

const selftest_row_t selftest_rows_g2[] = {
    SELFTEST_BINARY(CUZK_CUDA_OP_G2_ADD, g2_add, g2_jac_t, g2_jac_t, g2_jac_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G2_ADD_MIXED, g2_add_mixed, g2_jac_t, g2_jac_t, g2_affine_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_G2_DBL, g2_dbl, g2_jac_t, g2_jac_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_G2_NEG, g2_neg, g2_jac_t, g2_jac_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G2_XYZZ_ADD_MIXED, g2_xyzz_add_mixed, g2_jac_t, g2_jac_t,
                    g2_affine_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G2_XYZZ_ADD, g2_xyzz_add, g2_jac_t, g2_jac_t, g2_jac_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_G2_XYZZ_DBL, g2_xyzz_dbl, g2_jac_t, g2_jac_t),
};
const size_t selftest_rows_g2_count = sizeof selftest_rows_g2 / sizeof selftest_rows_g2[0];
