/* Fp Montgomery multiplication on the FP64 pipe (issue 22's idea after
 * Emmart, Zheng and Weems, ARITH 2018): the same a b 2^-384 mod p as
 * dfp_mul, computed with double-precision FMAs instead of 32-bit IMADs.
 *
 * Why it was built: the IMAD Montgomery multiplication (~588 IMADs)
 * leaves the FP64 pipe, as wide on an H100/H200, idle. Measured (stop
 * 36, `cuzk bench field --device cuda`): the pipes share their dispatch,
 * so throughput follows the instruction count (~64 a clock an SM) and
 * this form, with ~45% more instructions, is 0.68x dfp_mul alone and
 * gains nothing beside it. It stays as an exact, tested alternative
 * behind build knobs, for GPUs where the balance differs.
 *
 * Method: 16 digits of 24 bits (16 x 24 = 384, so R is dfp_mul's), each
 * an exact integer in a double. A digit product is < 2^48 and a column
 * of the product-scanning Montgomery loop (FIPS order) sums at most 16
 * products a_i b_j, 16 products q_i p_j and a carry: the top digits of
 * a, b and p are < 2^21 (p < 2^381), which keeps every column below
 * 30 x 2^48 + 2^29 < 2^53, so every FMA in a column is exact and only
 * the digit splits round (toward minus infinity, on purpose).
 *
 * Inputs and outputs are dfp_t (32-bit limbs, fully reduced): the
 * conversions are ~11% of the FP64 work. The host pass computes the same
 * exact values with integer code where the device uses a rounding mode,
 * so the host emulation checks the method without a GPU. */
#ifndef CUZK_CUDA_FP_F64_CUH
#define CUZK_CUDA_FP_F64_CUH

#include <math.h>

#include "backend/cuda/arith/field.cuh"

#define DFP_F64_DIGITS 16
#define DFP_F64_MASK 0xffffffu

typedef struct dfp_f64_digits {
    double d[DFP_F64_DIGITS];
} dfp_f64_digits_t;

CUZK_HD constexpr dfp_f64_digits_t dfp_f64_const(dconst_u64x6_t x)
{
    dfp_f64_digits_t r{};
    for (int i = 0; i < DFP_F64_DIGITS; i++) {
        int bit = 24 * i, w = bit / 64, s = bit % 64;
        uint64_t v = x.v[w] >> s;
        if (s > 40 && w + 1 < 6)
            v |= x.v[w + 1] << (64 - s);
        r.d[i] = (double)(v & DFP_F64_MASK);
    }
    return r;
}

CUZK_DEVICE_CONST(dfp_f64_digits_t, DFP_F64_P, dfp_f64_const(dconst_u64x6_t{CUZK_P_LIMBS}))

/* An integer w < 2^32 as a double. */
CUZK_HD double f64_from_u32(uint32_t w)
{
#ifdef __CUDA_ARCH__
    /* the bits of 2^52 + w: no conversion-pipe instruction */
    return __hiloint2double(0x43300000, (int)w) - 0x1p52;
#else
    return (double)w;
#endif
}

/* An integer-valued u in [0, 2^32) as a u32. */
CUZK_HD uint32_t f64_to_u32(double u)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)__double2loint(u + 0x1p52);
#else
    return (uint32_t)u;
#endif
}

/* floor(s / 2^24) for an integer s in [0, 2^53). */
CUZK_HD double f64_floor24(double s)
{
#ifdef __CUDA_ARCH__
    /* s 2^-24 + 2^52 rounded down to a whole number: one FMA */
    return __fma_rd(s, 0x1p-24, 0x1p52) - 0x1p52;
#else
    return (double)((uint64_t)s >> 24);
#endif
}

CUZK_HD double f64_fma(double a, double b, double c)
{
#ifdef __CUDA_ARCH__
    return __fma_rn(a, b, c);
#else
    return fma(a, b, c);
#endif
}

/* 12 limbs of 32 bits -> 16 digits of 24 (every 3 limbs are 4 digits). */
CUZK_HD void dfp_f64_split(double *d, const uint32_t *l)
{
    CUZK_UNROLL
    for (int m = 0; m < 4; m++) {
        uint32_t w0 = l[3 * m], w1 = l[3 * m + 1], w2 = l[3 * m + 2];
        d[4 * m] = f64_from_u32(w0 & DFP_F64_MASK);
        d[4 * m + 1] = f64_from_u32((w0 >> 24 | w1 << 8) & DFP_F64_MASK);
        d[4 * m + 2] = f64_from_u32((w1 >> 16 | w2 << 16) & DFP_F64_MASK);
        d[4 * m + 3] = f64_from_u32(w2 >> 8);
    }
}

/* 16 digits < 2^24 -> 12 limbs. */
CUZK_HD void dfp_f64_join(uint32_t *l, const uint32_t *r)
{
    CUZK_UNROLL
    for (int m = 0; m < 4; m++) {
        l[3 * m] = r[4 * m] | r[4 * m + 1] << 24;
        l[3 * m + 1] = r[4 * m + 1] >> 8 | r[4 * m + 2] << 16;
        l[3 * m + 2] = r[4 * m + 2] >> 16 | r[4 * m + 3] << 8;
    }
}

/* out = a b 2^-384 mod p, as dfp_mul. */
CUZK_HD void dfp_mul_f64(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
    const double *p = DCONST(DFP_F64_P).d;
    double x[DFP_F64_DIGITS], y[DFP_F64_DIGITS], q[DFP_F64_DIGITS];
    uint32_t r[DFP_F64_DIGITS];
    dfp_f64_split(x, a->l);
    dfp_f64_split(y, b->l);
    double carry = 0.0;
    CUZK_UNROLL
    for (int k = 0; k < 2 * DFP_F64_DIGITS - 1; k++) {
        double s = carry;
        /* constant bounds, so that the loops unroll and the digits stay
         * in registers; q_k p_0 joins below, once q_k is known */
        CUZK_UNROLL
        for (int i = 0; i < DFP_F64_DIGITS; i++)
            if (k - i >= 0 && k - i < DFP_F64_DIGITS)
                s = f64_fma(x[i], y[k - i], s);
        CUZK_UNROLL
        for (int i = 0; i < DFP_F64_DIGITS; i++)
            if (k - i >= 1 && k - i < DFP_F64_DIGITS)
                s = f64_fma(q[i], p[k - i], s);
        double h = f64_floor24(s);
        double u = f64_fma(h, -0x1p24, s); /* s mod 2^24 */
        if (k < DFP_F64_DIGITS) {
            /* q_k makes the column's low digit 0: u q_k = -u p^-1 p = -u */
            uint32_t qk = (f64_to_u32(u) * DFP_N0) & DFP_F64_MASK;
            q[k] = f64_from_u32(qk);
            s = f64_fma(q[k], p[0], s);
            carry = s * 0x1p-24; /* exact: s is a multiple of 2^24 */
        } else {
            r[k - DFP_F64_DIGITS] = f64_to_u32(u);
            carry = h;
        }
    }
    r[DFP_F64_DIGITS - 1] = f64_to_u32(carry); /* < 2^22: the result is < 2p */
    uint32_t t[DFP_LIMBS];
    dfp_f64_join(t, r);
    dmont_reduce_once<DFP_LIMBS>(out->l, t, DCONST(DFP_P).l);
}

/* ---- Fp2 with one of its three products on the FP64 pipe --------------
 *
 * Karatsuba's three Fp products are independent: CUZK_FP2_F64 (a build
 * knob for A/B runs, ec.cuh) computes a0 b0 and a1 b1 on the IMAD pipe
 * and (a0 + a1)(b0 + b1) on the FP64 pipe in one body; the complex
 * squaring's two products likewise. Default 0: dfp2_mul and dfp2_sqr. */
#ifndef CUZK_FP2_F64
#define CUZK_FP2_F64 0
#endif

CUZK_HD dfp2_t dfp2_mul_mixed_v(const dfp2_t a, const dfp2_t b)
{
    dfp_t t0, t1, s0, s1, t2;
    dmont_mul<DFP_LIMBS>(t0.l, a.c0.l, b.c0.l, DCONST(DFP_P).l, DFP_N0);
    dmont_mul<DFP_LIMBS>(t1.l, a.c1.l, b.c1.l, DCONST(DFP_P).l, DFP_N0);
    dfp_add(&s0, &a.c0, &a.c1);
    dfp_add(&s1, &b.c0, &b.c1);
    dfp_mul_f64(&t2, &s0, &s1);
    dfp2_t r;
    dfp_sub(&r.c0, &t0, &t1);
    dfp_sub(&t2, &t2, &t0);
    dfp_sub(&r.c1, &t2, &t1);
    return r;
}

/* (a0 + a1)(a0 - a1) on the IMAD pipe, a0 a1 on the FP64 pipe. */
CUZK_HD dfp2_t dfp2_sqr_mixed_v(const dfp2_t a)
{
    dfp_t s, d, m;
    dfp2_t r;
    dfp_add(&s, &a.c0, &a.c1);
    dfp_sub(&d, &a.c0, &a.c1);
    dmont_mul<DFP_LIMBS>(r.c0.l, s.l, d.l, DCONST(DFP_P).l, DFP_N0);
    dfp_mul_f64(&m, &a.c0, &a.c1);
    dfp_dbl(&r.c1, &m);
    return r;
}

#ifdef CUZK_CUDA_OUTLINE_FP_MUL
static __host__ __device__ __noinline__ dfp2_t dfp2_mul_mixed_outlined(dfp2_t a, dfp2_t b)
{
    return dfp2_mul_mixed_v(a, b);
}
static __host__ __device__ __noinline__ dfp2_t dfp2_sqr_mixed_outlined(dfp2_t a)
{
    return dfp2_sqr_mixed_v(a);
}
#endif

CUZK_HD void dfp2_mul_mixed(dfp2_t *out, const dfp2_t *a, const dfp2_t *b)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp2_mul_mixed_outlined(*a, *b);
#else
    *out = dfp2_mul_mixed_v(*a, *b);
#endif
}

CUZK_HD void dfp2_sqr_mixed(dfp2_t *out, const dfp2_t *a)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp2_sqr_mixed_outlined(*a);
#else
    *out = dfp2_sqr_mixed_v(*a);
#endif
}

#endif
