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

/* A multiplication for now; a dedicated squaring is the performance issue's. */
CUZK_HD void dfp_sqr(dfp_t *out, const dfp_t *a)
{
    dfp_mul(out, a, a);
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
    dmont_mul<DFR_LIMBS>(out->l, a->l, a->l, DCONST(DFR_P).l, DFR_N0);
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

#endif
