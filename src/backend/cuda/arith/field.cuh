/* Device fields: Fp (12 x u32), Fr (8 x u32) and Fp2 = Fp[u]/(u^2 + 1).
 *
 * Representation: little-endian 32-bit limbs in Montgomery form with the
 * host's R (2^384 for Fp, 2^256 for Fr), always fully reduced. On a
 * little-endian machine dfp_t, dfr_t and dfp2_t have the bytes of the
 * host's fp_t, fr_t and fp2_t (include/cuzk/fp.h...): host arrays go to the
 * device as they are (selftest.cu checks the sizes).
 * Function shapes follow the host's: output first, outputs may alias inputs.
 * Every function is __host__ __device__ so that the host emulation
 * (ptx.cuh) can run it; kernels are what they are written for.
 *
 * Constants come from src/field/constants_gen.h (one definition), split into
 * 32-bit limbs at compile time. Each lives twice: in __constant__ memory for
 * kernels and in ordinary memory for the host emulation, as host code cannot
 * read __constant__ variables; DCONST(name) picks the copy of the pass being
 * compiled. Nothing needs initialising at run time. */
#ifndef CUZK_CUDA_FIELD_CUH
#define CUZK_CUDA_FIELD_CUH

#include "backend/cuda/arith/mont.cuh"
#include "field/constants_gen.h"

#define DFP_LIMBS 12
#define DFR_LIMBS 8

typedef struct alignas(16) dfp {
    uint32_t l[DFP_LIMBS];
} dfp_t;

typedef struct alignas(16) dfr {
    uint32_t l[DFR_LIMBS];
} dfr_t;

typedef struct dfp2 {
    dfp_t c0, c1;
} dfp2_t;

/* constants_gen.h's 64-bit limb lists, split into 32-bit limbs. */
typedef struct dconst_u64x6 {
    uint64_t v[6];
} dconst_u64x6_t;
typedef struct dconst_u64x4 {
    uint64_t v[4];
} dconst_u64x4_t;

CUZK_HD constexpr dfp_t dfp_const(dconst_u64x6_t x)
{
    dfp_t r{};
    for (int i = 0; i < DFP_LIMBS; i++)
        r.l[i] = (uint32_t)(x.v[i / 2] >> (32 * (i % 2)));
    return r;
}

CUZK_HD constexpr dfr_t dfr_const(dconst_u64x4_t x)
{
    dfr_t r{};
    for (int i = 0; i < DFR_LIMBS; i++)
        r.l[i] = (uint32_t)(x.v[i / 2] >> (32 * (i % 2)));
    return r;
}

#define CUZK_DEVICE_CONST(type, name, init)                                                        \
    __attribute__((unused)) static __constant__ const type name##_dev = init;                      \
    __attribute__((unused)) static const type name##_host = init;
#ifdef __CUDA_ARCH__
#define DCONST(name) (name##_dev)
#else
#define DCONST(name) (name##_host)
#endif

CUZK_DEVICE_CONST(dfp_t, DFP_P, dfp_const(dconst_u64x6_t{CUZK_P_LIMBS}))
CUZK_DEVICE_CONST(dfp_t, DFP_ONE, dfp_const(dconst_u64x6_t{CUZK_P_ONE}))
CUZK_DEVICE_CONST(dfp_t, DFP_R2, dfp_const(dconst_u64x6_t{CUZK_P_R2}))
CUZK_DEVICE_CONST(dfr_t, DFR_P, dfr_const(dconst_u64x4_t{CUZK_R_LIMBS}))
CUZK_DEVICE_CONST(dfr_t, DFR_ONE, dfr_const(dconst_u64x4_t{CUZK_R_ONE}))
CUZK_DEVICE_CONST(dfr_t, DFR_R2, dfr_const(dconst_u64x4_t{CUZK_R_R2}))

/* -m^-1 mod 2^32: the low word of the host's -m^-1 mod 2^64. */
#define DFP_N0 ((uint32_t)CUZK_P_N0)
#define DFR_N0 ((uint32_t)CUZK_R_N0)

/* ---- Fp ---------------------------------------------------------------- */

CUZK_HD void dfp_set_zero(dfp_t *out)
{
    CUZK_UNROLL
    for (int j = 0; j < DFP_LIMBS; j++)
        out->l[j] = 0;
}

CUZK_HD void dfp_set_one(dfp_t *out) /* Montgomery one, R mod p */
{
    *out = DCONST(DFP_ONE);
}

CUZK_HD void dfp_add(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
    dmont_add<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P).l);
}

CUZK_HD void dfp_sub(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
    dmont_sub<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P).l);
}

CUZK_HD void dfp_dbl(dfp_t *out, const dfp_t *a)
{
    dmont_add<DFP_LIMBS>(out->l, a->l, a->l, DCONST(DFP_P).l);
}

CUZK_HD void dfp_neg(dfp_t *out, const dfp_t *a)
{
    dmont_neg<DFP_LIMBS>(out->l, a->l, DCONST(DFP_P).l);
}

/* A unit that defines CUZK_CUDA_OUTLINE_FP_MUL before including this gets
 * one out-of-line Fp multiplication instead of a copy per use: G2 code
 * (Fp2 = 3 Fp multiplications, ~40 per XYZZ addition) otherwise takes
 * minutes to compile; the call costs a few percent of the ~600 IMADs. */
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
/* By value: operands and result travel in registers, not through the
 * stack (pointer arguments made every call store and reload 36 words of
 * local memory). */
static __host__ __device__ __noinline__ dfp_t dfp_mul_outlined(dfp_t a, dfp_t b)
{
    dfp_t r;
    dmont_mul<DFP_LIMBS>(r.l, a.l, b.l, DCONST(DFP_P).l, DFP_N0);
    return r;
}
#endif

CUZK_HD void dfp_mul(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp_mul_outlined(*a, *b);
#else
    dmont_mul<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P).l, DFP_N0);
#endif
}

/* The forms with products and reductions apart, each a build-time knob
 * for A/B runs; CUZK_FP_LAZY sets the three at once. Off by default here;
 * the MSM units turn on what won there (msm_g1.cu, msm_g2.cu). Stop 31's
 * loss (G2 13-18% slower) was the wide product's odd register pairs, ~240
 * moves each; on aligned pairs (stop 41) the lazy Fp2 product took the
 * G2 bins kernel -13% and the one-REDC Y3 with the aligned square took
 * G1's -10% with a register cap (H100, stop 42).
 *   CUZK_FP_SQR          squaring with each cross product once (Fp, Fr;
 *                        the G1 pairs too)
 *   CUZK_FP2_LAZY        Fp2 multiplication as lazy Karatsuba
 *   CUZK_FP_MUL_SUB_MUL  a b - c d reduced once (the XYZZ formulas' Y3,
 *                        in the G1 [0, 2p) chain too) */
#ifndef CUZK_FP_LAZY
#define CUZK_FP_LAZY 0
#endif
#ifndef CUZK_FP_SQR
#define CUZK_FP_SQR CUZK_FP_LAZY
#endif
#ifndef CUZK_FP2_LAZY
#define CUZK_FP2_LAZY CUZK_FP_LAZY
#endif
#ifndef CUZK_FP_MUL_SUB_MUL
#define CUZK_FP_MUL_SUB_MUL CUZK_FP_LAZY
#endif

#if CUZK_FP_SQR
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
static __host__ __device__ __noinline__ dfp_t dfp_sqr_outlined(dfp_t a)
{
    dfp_t r;
    dmont_sqr<DFP_LIMBS>(r.l, a.l, DCONST(DFP_P).l, DFP_N0);
    return r;
}
#endif

/* Each cross product once (dmont_sqr): ~22% fewer IMADs than dfp_mul. */
CUZK_HD void dfp_sqr(dfp_t *out, const dfp_t *a)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp_sqr_outlined(*a);
#else
    dmont_sqr<DFP_LIMBS>(out->l, a->l, DCONST(DFP_P).l, DFP_N0);
#endif
}
#else
CUZK_HD void dfp_sqr(dfp_t *out, const dfp_t *a)
{
    dfp_mul(out, a, a);
}
#endif

/* ---- Fp in [0, 2p) ------------------------------------------------------
 * For chains of products and sums reduced once at the end (the MSM's light
 * bins, CUZK_EC_LAZY in ec.cuh): values in [0, 2p), not [0, p). As 4p <
 * 2^384, the Montgomery product of two such values stays below 2p without
 * its final conditional subtraction (dmont_mul_lazy: ~30 instructions of
 * ~640 saved); differences add 2p on a borrow and sums subtract 2p from
 * 2p on, the same instructions as the reduced forms with 2p for p. Zero is
 * 0 or p; dfp_canon gives the reduced value. */
CUZK_DEVICE_CONST(dfp_t, DFP_P2,
                  dfp_const(dconst_u64x6_t{0x73fdffffffff5556ULL, 0x3d57fffd62a7ffffULL,
                                           0xce61a541ed61ec48ULL, 0xc8ee9709e70a257eULL,
                                           0x96374f6c869759aeULL, 0x340223d472ffcd34ULL}))

CUZK_HD void dfp_mul_lz(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
    dmont_mul_lazy<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P).l, DFP_N0);
}

CUZK_HD void dfp_sub_lz(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
    dmont_sub<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P2).l);
}

CUZK_HD void dfp_dbl_lz(dfp_t *out, const dfp_t *a)
{
    dmont_add<DFP_LIMBS>(out->l, a->l, a->l, DCONST(DFP_P2).l);
}

CUZK_HD int dfp_is_zero_lz(const dfp_t *a)
{
    return dmont_is_zero<DFP_LIMBS>(a->l) | dmont_equal<DFP_LIMBS>(a->l, DCONST(DFP_P).l);
}

CUZK_HD void dfp_canon(dfp_t *out, const dfp_t *a)
{
    dmont_reduce_once<DFP_LIMBS>(out->l, a->l, DCONST(DFP_P).l);
}

CUZK_HD int dfp_is_zero(const dfp_t *a)
{
    return dmont_is_zero<DFP_LIMBS>(a->l);
}

CUZK_HD int dfp_equal(const dfp_t *a, const dfp_t *b)
{
    return dmont_equal<DFP_LIMBS>(a->l, b->l);
}

CUZK_HD int dfp_is_one(const dfp_t *a)
{
    return dmont_equal<DFP_LIMBS>(a->l, DCONST(DFP_ONE).l);
}

/* Canonical integer (< p) -> Montgomery form: a R^2 / R. */
CUZK_HD void dfp_to_mont(dfp_t *out, const dfp_t *a)
{
    dmont_mul<DFP_LIMBS>(out->l, a->l, DCONST(DFP_R2).l, DCONST(DFP_P).l, DFP_N0);
}

/* Montgomery form -> canonical integer: a 1 / R. */
CUZK_HD void dfp_from_mont(dfp_t *out, const dfp_t *a)
{
    dfp_t one_raw;
    dfp_set_zero(&one_raw);
    one_raw.l[0] = 1;
    dmont_mul<DFP_LIMBS>(out->l, a->l, one_raw.l, DCONST(DFP_P).l, DFP_N0);
}

/* ---- Fr ---------------------------------------------------------------- */

CUZK_HD void dfr_set_zero(dfr_t *out)
{
    CUZK_UNROLL
    for (int j = 0; j < DFR_LIMBS; j++)
        out->l[j] = 0;
}

CUZK_HD void dfr_set_one(dfr_t *out)
{
    *out = DCONST(DFR_ONE);
}

CUZK_HD void dfr_add(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
    dmont_add<DFR_LIMBS>(out->l, a->l, b->l, DCONST(DFR_P).l);
}

CUZK_HD void dfr_sub(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
    dmont_sub<DFR_LIMBS>(out->l, a->l, b->l, DCONST(DFR_P).l);
}

CUZK_HD void dfr_dbl(dfr_t *out, const dfr_t *a)
{
    dmont_add<DFR_LIMBS>(out->l, a->l, a->l, DCONST(DFR_P).l);
}

CUZK_HD void dfr_neg(dfr_t *out, const dfr_t *a)
{
    dmont_neg<DFR_LIMBS>(out->l, a->l, DCONST(DFR_P).l);
}

CUZK_HD void dfr_mul(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
    dmont_mul<DFR_LIMBS>(out->l, a->l, b->l, DCONST(DFR_P).l, DFR_N0);
}

CUZK_HD void dfr_sqr(dfr_t *out, const dfr_t *a)
{
#if CUZK_FP_SQR
    dmont_sqr<DFR_LIMBS>(out->l, a->l, DCONST(DFR_P).l, DFR_N0);
#else
    dmont_mul<DFR_LIMBS>(out->l, a->l, a->l, DCONST(DFR_P).l, DFR_N0);
#endif
}

CUZK_HD int dfr_is_zero(const dfr_t *a)
{
    return dmont_is_zero<DFR_LIMBS>(a->l);
}

CUZK_HD int dfr_equal(const dfr_t *a, const dfr_t *b)
{
    return dmont_equal<DFR_LIMBS>(a->l, b->l);
}

CUZK_HD int dfr_is_one(const dfr_t *a)
{
    return dmont_equal<DFR_LIMBS>(a->l, DCONST(DFR_ONE).l);
}

CUZK_HD void dfr_to_mont(dfr_t *out, const dfr_t *a)
{
    dmont_mul<DFR_LIMBS>(out->l, a->l, DCONST(DFR_R2).l, DCONST(DFR_P).l, DFR_N0);
}

CUZK_HD void dfr_from_mont(dfr_t *out, const dfr_t *a)
{
    dfr_t one_raw;
    dfr_set_zero(&one_raw);
    one_raw.l[0] = 1;
    dmont_mul<DFR_LIMBS>(out->l, a->l, one_raw.l, DCONST(DFR_P).l, DFR_N0);
}

/* ---- Fr in [0, 2r) ------------------------------------------------------
 * For the NTT's butterflies (CUZK_NTT_LAZY, ntt_kernels.cuh), reduced once
 * at the end. Fr's 4r exceeds 2^256, so unlike Fp's lazy forms only one
 * factor of a product may be lazy: with a < r, each even/odd row keeps T <
 * a + r < 2r as for reduced inputs, whatever b < 2^256, and (a b + Q r) / R
 * < r (b / R + 1) < 2r without the final conditional subtraction. Sums of
 * two lazy values may carry out of the top limb (dmont_add_carry). */
CUZK_DEVICE_CONST(dfr_t, DFR_P2,
                  dfr_const(dconst_u64x4_t{0xfffffffe00000002ULL, 0xa77b4805fffcb7fdULL,
                                           0x6673b0101343b00aULL, 0xe7db4ea6533afa90ULL}))

/* out = a b / R in [0, 2r): a reduced, b in [0, 2r) (any b < 2^256). */
CUZK_HD void dfr_mul_lz(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
    dmont_mul_lazy<DFR_LIMBS>(out->l, a->l, b->l, DCONST(DFR_P).l, DFR_N0);
}

CUZK_HD void dfr_add_lz(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
    dmont_add_carry<DFR_LIMBS>(out->l, a->l, b->l, DCONST(DFR_P2).l);
}

CUZK_HD void dfr_sub_lz(dfr_t *out, const dfr_t *a, const dfr_t *b)
{
    dmont_sub<DFR_LIMBS>(out->l, a->l, b->l, DCONST(DFR_P2).l);
}

CUZK_HD void dfr_canon(dfr_t *out, const dfr_t *a)
{
    dmont_reduce_once<DFR_LIMBS>(out->l, a->l, DCONST(DFR_P).l);
}

/* ---- Fp2 --------------------------------------------------------------- */

CUZK_HD void dfp2_set_zero(dfp2_t *out)
{
    dfp_set_zero(&out->c0);
    dfp_set_zero(&out->c1);
}

CUZK_HD void dfp2_set_one(dfp2_t *out)
{
    dfp_set_one(&out->c0);
    dfp_set_zero(&out->c1);
}

CUZK_HD void dfp2_add(dfp2_t *out, const dfp2_t *a, const dfp2_t *b)
{
    dfp_add(&out->c0, &a->c0, &b->c0);
    dfp_add(&out->c1, &a->c1, &b->c1);
}

CUZK_HD void dfp2_sub(dfp2_t *out, const dfp2_t *a, const dfp2_t *b)
{
    dfp_sub(&out->c0, &a->c0, &b->c0);
    dfp_sub(&out->c1, &a->c1, &b->c1);
}

CUZK_HD void dfp2_dbl(dfp2_t *out, const dfp2_t *a)
{
    dfp_dbl(&out->c0, &a->c0);
    dfp_dbl(&out->c1, &a->c1);
}

CUZK_HD void dfp2_neg(dfp2_t *out, const dfp2_t *a)
{
    dfp_neg(&out->c0, &a->c0);
    dfp_neg(&out->c1, &a->c1);
}

#if CUZK_FP2_LAZY
/* Karatsuba with lazy reduction: three wide products, two reductions
 * instead of three Montgomery multiplications (~17% fewer IMADs).
 * c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0 < 2 p^2, and
 * c0 = a0 b0 - a1 b1, plus p 2^384 when that is negative: both lie in
 * [0, p 2^384), the range dmont_redc_wide takes. The sums a0 + a1 and
 * b0 + b1 stay unreduced (< 2p < 2^382), their product < 4 p^2 < 2^764. */
CUZK_HD dfp2_t dfp2_mul_lazy(const dfp2_t a, const dfp2_t b)
{
    uint32_t s0[DFP_LIMBS], s1[DFP_LIMBS], p0[2 * DFP_LIMBS], p1[2 * DFP_LIMBS], p2[2 * DFP_LIMBS];
    dwide_add<DFP_LIMBS>(s0, a.c0.l, a.c1.l);
    dwide_add<DFP_LIMBS>(s1, b.c0.l, b.c1.l);
    dmont_mul_wide<DFP_LIMBS>(p2, s0, s1);
    dmont_mul_wide<DFP_LIMBS>(p0, a.c0.l, b.c0.l);
    dmont_mul_wide<DFP_LIMBS>(p1, a.c1.l, b.c1.l);
    (void)dwide_sub<2 * DFP_LIMBS>(p2, p2, p0);
    (void)dwide_sub<2 * DFP_LIMBS>(p2, p2, p1);
    uint32_t neg = dwide_sub<2 * DFP_LIMBS>(p0, p0, p1);
    uint32_t pm[DFP_LIMBS];
    CUZK_UNROLL
    for (int j = 0; j < DFP_LIMBS; j++)
        pm[j] = DCONST(DFP_P).l[j] & neg;
    dwide_add<DFP_LIMBS>(p0 + DFP_LIMBS, p0 + DFP_LIMBS, pm); /* its carry cancels the borrow */
    dfp2_t r;
    dmont_redc_wide<DFP_LIMBS>(r.c0.l, p0, DCONST(DFP_P).l, DFP_N0);
    dmont_redc_wide<DFP_LIMBS>(r.c1.l, p2, DCONST(DFP_P).l, DFP_N0);
    return r;
}

#ifdef CUZK_CUDA_OUTLINE_FP_MUL
static __host__ __device__ __noinline__ dfp2_t dfp2_mul_outlined(dfp2_t a, dfp2_t b)
{
    return dfp2_mul_lazy(a, b);
}
#endif

CUZK_HD void dfp2_mul(dfp2_t *out, const dfp2_t *a, const dfp2_t *b)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp2_mul_outlined(*a, *b);
#else
    *out = dfp2_mul_lazy(*a, *b);
#endif
}
#else
/* Karatsuba, 3M: (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u. */
CUZK_HD void dfp2_mul(dfp2_t *out, const dfp2_t *a, const dfp2_t *b)
{
    dfp_t t0, t1, s0, s1;
    dfp_mul(&t0, &a->c0, &b->c0);
    dfp_mul(&t1, &a->c1, &b->c1);
    dfp_add(&s0, &a->c0, &a->c1);
    dfp_add(&s1, &b->c0, &b->c1);
    dfp_mul(&s0, &s0, &s1);
    dfp_sub(&out->c0, &t0, &t1);
    dfp_sub(&s0, &s0, &t0);
    dfp_sub(&out->c1, &s0, &t1);
}
#endif

/* Complex squaring, 2M: (a0 + a1)(a0 - a1) + 2 a0 a1 u. */
CUZK_HD void dfp2_sqr(dfp2_t *out, const dfp2_t *a)
{
    dfp_t s, d, m;
    dfp_add(&s, &a->c0, &a->c1);
    dfp_sub(&d, &a->c0, &a->c1);
    dfp_mul(&m, &a->c0, &a->c1);
    dfp_mul(&out->c0, &s, &d);
    dfp_dbl(&out->c1, &m);
}

CUZK_HD void dfp2_mul_fp(dfp2_t *out, const dfp2_t *a, const dfp_t *b)
{
    dfp_mul(&out->c0, &a->c0, b);
    dfp_mul(&out->c1, &a->c1, b);
}

CUZK_HD int dfp2_is_zero(const dfp2_t *a)
{
    return dfp_is_zero(&a->c0) & dfp_is_zero(&a->c1);
}

CUZK_HD int dfp2_equal(const dfp2_t *a, const dfp2_t *b)
{
    return dfp_equal(&a->c0, &b->c0) & dfp_equal(&a->c1, &b->c1);
}

/* ---- a b - c d, reduced once -------------------------------------------
 *
 * The XYZZ additions end with Y3 = R (Q - X3) - Y1 PPP: the two products
 * are subtracted as wide values and reduced once (Fp: one Montgomery
 * reduction fewer of ten; Fp2: two of ~20). A wide difference D lies in
 * (-2 p^2, 2 p^2); kept modulo 2^768 its top bit is its sign, and a
 * negative one gets p 2^384 added, which puts every D in [0, p 2^384):
 * dmont_redc_wide's range. */

/* acc += p (add) or acc -= p, over 2 DFP_LIMBS words, modulo 2^768. */
CUZK_HD void dfp_wide_acc(uint32_t *acc, const uint32_t *p, int add)
{
    if (add)
        dwide_add<2 * DFP_LIMBS>(acc, acc, p);
    else
        (void)dwide_sub<2 * DFP_LIMBS>(acc, acc, p);
}

/* REDC of a wide difference in (-2 p^2, 2 p^2), held modulo 2^768. Or,
 * Full false, of one in (-4 p^2, 4 p^2) (the products of values below 2p)
 * into [0, 2p): with p 2^384 added to a negative one it lies in [0, p
 * 2^384) too, as 4p < 2^384, and REDC without its final subtraction ends
 * below 2p. */
template <bool Full> CUZK_HD void dfp_redc_signed_t(dfp_t *out, uint32_t *d)
{
    uint32_t neg = 0u - (d[2 * DFP_LIMBS - 1] >> 31), pm[DFP_LIMBS];
    CUZK_UNROLL
    for (int j = 0; j < DFP_LIMBS; j++)
        pm[j] = DCONST(DFP_P).l[j] & neg;
    dwide_add<DFP_LIMBS>(d + DFP_LIMBS, d + DFP_LIMBS, pm);
    if (Full)
        dmont_redc_wide<DFP_LIMBS>(out->l, d, DCONST(DFP_P).l, DFP_N0);
    else
        dmont_redc_wide_eo<DFP_LIMBS, false>(out->l, d, DCONST(DFP_P).l, DFP_N0);
}

CUZK_HD void dfp_redc_signed(dfp_t *out, uint32_t *d)
{
    dfp_redc_signed_t<true>(out, d);
}

#if CUZK_FP_MUL_SUB_MUL
template <bool Full>
CUZK_HD dfp_t dfp_mul_sub_mul_t(const dfp_t a, const dfp_t b, const dfp_t c, const dfp_t d)
{
    uint32_t acc[2 * DFP_LIMBS], t[2 * DFP_LIMBS];
    dmont_mul_wide<DFP_LIMBS>(acc, a.l, b.l);
    dmont_mul_wide<DFP_LIMBS>(t, c.l, d.l);
    dfp_wide_acc(acc, t, 0);
    dfp_t r;
    dfp_redc_signed_t<Full>(&r, acc);
    return r;
}

CUZK_HD dfp_t dfp_mul_sub_mul_v(const dfp_t a, const dfp_t b, const dfp_t c, const dfp_t d)
{
    return dfp_mul_sub_mul_t<true>(a, b, c, d);
}

/* r += a b (add) or r -= a b, r = (r0, r1) wide, by Karatsuba:
 * c0 = a0 b0 - a1 b1, c1 = k - a0 b0 - a1 b1 (k: the product of the sums). */
CUZK_HD void dfp2_wide_acc(uint32_t *r0, uint32_t *r1, const dfp2_t *a, const dfp2_t *b, int add)
{
    uint32_t t[2 * DFP_LIMBS], s0[DFP_LIMBS], s1[DFP_LIMBS];
    dmont_mul_wide<DFP_LIMBS>(t, a->c0.l, b->c0.l);
    dfp_wide_acc(r0, t, add);
    dfp_wide_acc(r1, t, !add);
    dmont_mul_wide<DFP_LIMBS>(t, a->c1.l, b->c1.l);
    dfp_wide_acc(r0, t, !add);
    dfp_wide_acc(r1, t, !add);
    dwide_add<DFP_LIMBS>(s0, a->c0.l, a->c1.l);
    dwide_add<DFP_LIMBS>(s1, b->c0.l, b->c1.l);
    dmont_mul_wide<DFP_LIMBS>(t, s0, s1);
    dfp_wide_acc(r1, t, add);
}

CUZK_HD dfp2_t dfp2_mul_sub_mul_v(const dfp2_t a, const dfp2_t b, const dfp2_t c, const dfp2_t d)
{
    uint32_t r0[2 * DFP_LIMBS], r1[2 * DFP_LIMBS];
    CUZK_UNROLL
    for (int j = 0; j < 2 * DFP_LIMBS; j++)
        r0[j] = r1[j] = 0;
    dfp2_wide_acc(r0, r1, &a, &b, 1);
    dfp2_wide_acc(r0, r1, &c, &d, 0);
    dfp2_t r;
    dfp_redc_signed(&r.c0, r0);
    dfp_redc_signed(&r.c1, r1);
    return r;
}

#ifdef CUZK_CUDA_OUTLINE_FP_MUL
static __host__ __device__ __noinline__ dfp_t dfp_mul_sub_mul_outlined(dfp_t a, dfp_t b, dfp_t c,
                                                                       dfp_t d)
{
    return dfp_mul_sub_mul_v(a, b, c, d);
}
static __host__ __device__ __noinline__ dfp2_t dfp2_mul_sub_mul_outlined(dfp2_t a, dfp2_t b,
                                                                         dfp2_t c, dfp2_t d)
{
    return dfp2_mul_sub_mul_v(a, b, c, d);
}
static __host__ __device__ __noinline__ dfp_t dfp_mul_sub_mul_lz_outlined(dfp_t a, dfp_t b, dfp_t c,
                                                                          dfp_t d)
{
    return dfp_mul_sub_mul_t<false>(a, b, c, d);
}
#endif

/* out = a b - c d in [0, 2p) for inputs below 2p: one REDC where the
 * [0, 2p) chain's pair of products and difference take two. */
CUZK_HD void dfp_mul_sub_mul_lz(dfp_t *out, const dfp_t *a, const dfp_t *b, const dfp_t *c,
                                const dfp_t *d)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp_mul_sub_mul_lz_outlined(*a, *b, *c, *d);
#else
    *out = dfp_mul_sub_mul_t<false>(*a, *b, *c, *d);
#endif
}

/* out = a b - c d */
CUZK_HD void dfp_mul_sub_mul(dfp_t *out, const dfp_t *a, const dfp_t *b, const dfp_t *c,
                             const dfp_t *d)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp_mul_sub_mul_outlined(*a, *b, *c, *d);
#else
    *out = dfp_mul_sub_mul_v(*a, *b, *c, *d);
#endif
}

CUZK_HD void dfp2_mul_sub_mul(dfp2_t *out, const dfp2_t *a, const dfp2_t *b, const dfp2_t *c,
                              const dfp2_t *d)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    *out = dfp2_mul_sub_mul_outlined(*a, *b, *c, *d);
#else
    *out = dfp2_mul_sub_mul_v(*a, *b, *c, *d);
#endif
}
#else
CUZK_HD void dfp_mul_sub_mul(dfp_t *out, const dfp_t *a, const dfp_t *b, const dfp_t *c,
                             const dfp_t *d)
{
    dfp_t t;
    dfp_mul(&t, c, d);
    dfp_mul(out, a, b);
    dfp_sub(out, out, &t);
}

CUZK_HD void dfp2_mul_sub_mul(dfp2_t *out, const dfp2_t *a, const dfp2_t *b, const dfp2_t *c,
                              const dfp2_t *d)
{
    dfp2_t t;
    dfp2_mul(&t, c, d);
    dfp2_mul(out, a, b);
    dfp2_sub(out, out, &t);
}
#endif

#endif
