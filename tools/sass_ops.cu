/* One field or curve operation a kernel, for tools/sass_ops.sh: each kernel
 * loads its operands, runs the operation once (inlined: the count is the
 * operation's own) and stores the result, so its static SASS count is what
 * one call of the operation issues. The curve additions contain their
 * doubling branch (counted, rarely taken): the *_dbl kernels give its size
 * to subtract. */
#include "backend/cuda/arith/ec.cuh"

#define T threadIdx.x

extern "C" __global__ void fr_mul(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_t r, x = a[T], y = b[T];
    dfr_mul(&r, &x, &y);
    o[T] = r;
}

extern "C" __global__ void fr_mul_lz(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_t r, x = a[T], y = b[T];
    dfr_mul_lz(&r, &x, &y);
    o[T] = r;
}

extern "C" __global__ void fp_mul(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_t r, x = a[T], y = b[T];
    dfp_mul(&r, &x, &y);
    o[T] = r;
}

extern "C" __global__ void fp_sqr(dfp_t *o, const dfp_t *a)
{
    dfp_t r, x = a[T];
    dfp_sqr(&r, &x);
    o[T] = r;
}

extern "C" __global__ void fp_mul_sub_mul(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_t r, x = a[T], y = b[T], z = a[T + 32], w = b[T + 32];
    dfp_mul_sub_mul(&r, &x, &y, &z, &w);
    o[T] = r;
}

extern "C" __global__ void fp2_mul(dfp2_t *o, const dfp2_t *a, const dfp2_t *b)
{
    dfp2_t r, x = a[T], y = b[T];
    dfp2_mul(&r, &x, &y);
    o[T] = r;
}

extern "C" __global__ void fp2_mul_sub_mul(dfp2_t *o, const dfp2_t *a, const dfp2_t *b)
{
    dfp2_t r, x = a[T], y = b[T], z = a[T + 32], w = b[T + 32];
    dfp2_mul_sub_mul(&r, &x, &y, &z, &w);
    o[T] = r;
}

extern "C" __global__ void fp2_sqr(dfp2_t *o, const dfp2_t *a)
{
    dfp2_t r, x = a[T];
    dfp2_sqr(&r, &x);
    o[T] = r;
}

extern "C" __global__ void g1_add_mixed_lz(dg1_xyzz_t *o, const dg1_xyzz_t *p,
                                           const dg1_affine_t *a)
{
    dg1_xyzz_t r, x = p[T];
    dg1_affine_t y = a[T];
    dg1_xyzz_add_affine_lz(&r, &x, &y);
    o[T] = r;
}

extern "C" __global__ void g1_dbl(dg1_xyzz_t *o, const dg1_affine_t *a)
{
    dg1_xyzz_t r;
    dg1_affine_t y = a[T];
    dg1_xyzz_dbl_affine(&r, &y);
    o[T] = r;
}

#ifndef SASS_OPS_NO_G2 /* G2 inlined takes minutes to compile */
extern "C" __global__ void g2_add_mixed(dg2_xyzz_t *o, const dg2_xyzz_t *p, const dg2_affine_t *a)
{
    dg2_xyzz_t r, x = p[T];
    dg2_affine_t y = a[T];
    dg2_xyzz_add_affine(&r, &x, &y);
    o[T] = r;
}

extern "C" __global__ void g2_dbl(dg2_xyzz_t *o, const dg2_affine_t *a)
{
    dg2_xyzz_t r;
    dg2_affine_t y = a[T];
    dg2_xyzz_dbl_affine(&r, &y);
    o[T] = r;
}
#endif
