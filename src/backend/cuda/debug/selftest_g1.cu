/* Self-test ops on G1 (see selftest_internal.cuh). XYZZ ops convert their
 * Jacobian inputs to XYZZ, operate, and convert back. */
#include "backend/cuda/debug/selftest_internal.cuh"

using namespace cuzk_host;

static CUZK_HD void one_g1_add(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *b)
{
    dg1_add(o, a, b);
}

static CUZK_HD void one_g1_add_mixed(dg1_jac_t *o, const dg1_jac_t *a, const dg1_affine_t *b)
{
    dg1_add_mixed(o, a, b);
}

static CUZK_HD void one_g1_dbl(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *)
{
    dg1_dbl(o, a);
}

static CUZK_HD void one_g1_neg(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *)
{
    dg1_neg(o, a);
}

static CUZK_HD void one_g1_xyzz_add_mixed(dg1_jac_t *o, const dg1_jac_t *a, const dg1_affine_t *b)
{
    dg1_xyzz_t p;
    dg1_xyzz_from_jac(&p, a);
    dg1_xyzz_add_affine(&p, &p, b);
    dg1_xyzz_to_jac(o, &p);
}

/* a + b + b by the [0, 2p) mixed addition (the G1 MSM's light bins): a's XYZZ coordinates lifted
 * (zz is 0 only at infinity, and 0 is never lifted), the second addition on the first's unreduced
 * result, every coordinate checked below 2p, then reduced. */
static CUZK_HD void one_g1_xyzz_add_mixed_lazy(dg1_jac_t *o, const dg1_jac_t *a,
                                               const dg1_affine_t *b)
{
    dg1_xyzz_t p;
    dg1_xyzz_from_jac(&p, a);
    selftest_lift(&p.x);
    selftest_lift(&p.y);
    selftest_lift(&p.zz);
    selftest_lift(&p.zzz);
    dg1_xyzz_add_affine_lz(&p, &p, b);
    dg1_xyzz_add_affine_lz(&p, &p, b);
    if (!selftest_below_2p(&p.x) || !selftest_below_2p(&p.y) || !selftest_below_2p(&p.zz) ||
        !selftest_below_2p(&p.zzz)) {
        memset(o, 0xff, sizeof *o);
        return;
    }
    dg1_xyzz_canon(&p, &p);
    dg1_xyzz_to_jac(o, &p);
}

static CUZK_HD void one_g1_xyzz_add(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *b)
{
    dg1_xyzz_t p, q;
    dg1_xyzz_from_jac(&p, a);
    dg1_xyzz_from_jac(&q, b);
    dg1_xyzz_add(&p, &p, &q);
    dg1_xyzz_to_jac(o, &p);
}

static CUZK_HD void one_g1_xyzz_dbl(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *)
{
    dg1_xyzz_t p;
    dg1_xyzz_from_jac(&p, a);
    dg1_xyzz_dbl(&p, &p);
    dg1_xyzz_to_jac(o, &p);
}

SELFTEST_OP(g1_add, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_add_mixed, dg1_jac_t, dg1_jac_t, dg1_affine_t)
SELFTEST_OP(g1_dbl, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_neg, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_xyzz_add_mixed, dg1_jac_t, dg1_jac_t, dg1_affine_t)
SELFTEST_OP(g1_xyzz_add, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_xyzz_dbl, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_xyzz_add_mixed_lazy, dg1_jac_t, dg1_jac_t, dg1_affine_t)

const selftest_row_t selftest_rows_g1[] = {
    SELFTEST_BINARY(CUZK_CUDA_OP_G1_ADD, g1_add, g1_jac_t, g1_jac_t, g1_jac_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G1_ADD_MIXED, g1_add_mixed, g1_jac_t, g1_jac_t, g1_affine_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_G1_DBL, g1_dbl, g1_jac_t, g1_jac_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_G1_NEG, g1_neg, g1_jac_t, g1_jac_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED, g1_xyzz_add_mixed, g1_jac_t, g1_jac_t,
                    g1_affine_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G1_XYZZ_ADD, g1_xyzz_add, g1_jac_t, g1_jac_t, g1_jac_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_G1_XYZZ_DBL, g1_xyzz_dbl, g1_jac_t, g1_jac_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED_LAZY, g1_xyzz_add_mixed_lazy, g1_jac_t, g1_jac_t,
                    g1_affine_t),
};
const size_t selftest_rows_g1_count = sizeof selftest_rows_g1 / sizeof selftest_rows_g1[0];
