/* Two Fp products in one call, reduced or in [0, 2p) (the light bins'
 * chain); Fp2's pairs as plain calls. */
#ifndef CUZK_CUDA_FP_PAIR_CUH
#define CUZK_CUDA_FP_PAIR_CUH

#include "backend/cuda/arith/fp_f64.cuh"

/* ---- two products at once ------------------------------------------------
 *
 * The XYZZ additions' multiplications come in independent pairs (U2 and
 * S2, P^2 and R^2, P PP and X1 PP, ZZ PP and ZZZ PPP). CUZK_EC_PAIR (a
 * build knob, ec_impl.cuh) makes each pair one call:
 *   0  off: one call a product
 *   1  pairs, both products on the IMAD pipe (the default: G1 MSM 2^24
 *      -2.5%, 2^26 -2.8% on an H100, stop 36)
 *   2  pairs, the second product on the FP64 pipe (+30-39%: the pipes
 *      share their dispatch, and the FP64 product has ~45% more
 *      instructions; bench/RESULTS.md, stop 36)
 * One body for both products lets the scheduler interleave them. */
#ifndef CUZK_EC_PAIR
#define CUZK_EC_PAIR 1
#endif

typedef struct dfp_two {
    dfp_t a, b;
} dfp_two_t;

/* Full: reduced to [0, p); else in [0, 2p) for inputs below 2p
 * (field.cuh's lazy forms: no final subtractions). */
template <bool Full> CUZK_HD void dfp_mul_full_or_lazy(dfp_t *out, const dfp_t *a, const dfp_t *b)
{
    if (Full)
        dmont_mul<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P).l, DFP_N0);
    else
        dmont_mul_lazy<DFP_LIMBS>(out->l, a->l, b->l, DCONST(DFP_P).l, DFP_N0);
}

template <bool Full>
CUZK_HD dfp_two_t dfp_mul_pair_v(const dfp_t a1, const dfp_t b1, const dfp_t a2, const dfp_t b2)
{
    dfp_two_t r;
    dfp_mul_full_or_lazy<Full>(&r.a, &a1, &b1);
#if CUZK_EC_PAIR == 2
    if (Full) {
        dfp_mul_f64(&r.b, &a2, &b2);
        return r;
    }
#endif
    dfp_mul_full_or_lazy<Full>(&r.b, &a2, &b2);
    return r;
}

#ifdef CUZK_CUDA_OUTLINE_FP_MUL
template <bool Full>
static __host__ __device__ __noinline__ dfp_two_t dfp_mul_pair_outlined(dfp_t a1, dfp_t b1,
                                                                        dfp_t a2, dfp_t b2)
{
    return dfp_mul_pair_v<Full>(a1, b1, a2, b2);
}
#endif

template <bool Full>
CUZK_HD void dfp_mul_pair_t(dfp_t *o1, const dfp_t *a1, const dfp_t *b1, dfp_t *o2, const dfp_t *a2,
                            const dfp_t *b2)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    dfp_two_t r = dfp_mul_pair_outlined<Full>(*a1, *b1, *a2, *b2);
#else
    dfp_two_t r = dfp_mul_pair_v<Full>(*a1, *b1, *a2, *b2);
#endif
    *o1 = r.a;
    *o2 = r.b;
}

/* o1 = a1 b1, o2 = a2 b2; every input is read before an output is written. */
CUZK_HD void dfp_mul_pair(dfp_t *o1, const dfp_t *a1, const dfp_t *b1, dfp_t *o2, const dfp_t *a2,
                          const dfp_t *b2)
{
    dfp_mul_pair_t<true>(o1, a1, b1, o2, a2, b2);
}

/* The pair in [0, 2p): inputs below 2p, outputs below 2p. */
CUZK_HD void dfp_mul_pair_lz(dfp_t *o1, const dfp_t *a1, const dfp_t *b1, dfp_t *o2,
                             const dfp_t *a2, const dfp_t *b2)
{
    dfp_mul_pair_t<false>(o1, a1, b1, o2, a2, b2);
}

#if CUZK_FP_SQR
/* Two squares, each cross product once (dmont_sqr: 613 slots against 663). */
template <bool Full> CUZK_HD dfp_two_t dfp_sqr_pair_v(const dfp_t a, const dfp_t b)
{
    dfp_two_t r;
    if (Full) {
        dmont_sqr<DFP_LIMBS>(r.a.l, a.l, DCONST(DFP_P).l, DFP_N0);
        dmont_sqr<DFP_LIMBS>(r.b.l, b.l, DCONST(DFP_P).l, DFP_N0);
    } else {
        dmont_sqr_lazy<DFP_LIMBS>(r.a.l, a.l, DCONST(DFP_P).l, DFP_N0);
        dmont_sqr_lazy<DFP_LIMBS>(r.b.l, b.l, DCONST(DFP_P).l, DFP_N0);
    }
    return r;
}

#ifdef CUZK_CUDA_OUTLINE_FP_MUL
template <bool Full>
static __host__ __device__ __noinline__ dfp_two_t dfp_sqr_pair_outlined(dfp_t a, dfp_t b)
{
    return dfp_sqr_pair_v<Full>(a, b);
}
#endif

template <bool Full>
CUZK_HD void dfp_sqr_pair_t(dfp_t *o1, const dfp_t *a, dfp_t *o2, const dfp_t *b)
{
#ifdef CUZK_CUDA_OUTLINE_FP_MUL
    dfp_two_t r = dfp_sqr_pair_outlined<Full>(*a, *b);
#else
    dfp_two_t r = dfp_sqr_pair_v<Full>(*a, *b);
#endif
    *o1 = r.a;
    *o2 = r.b;
}

/* o1 = a^2, o2 = b^2 in [0, 2p) for a, b below 2p. */
CUZK_HD void dfp_sqr_pair_lz(dfp_t *o1, const dfp_t *a, dfp_t *o2, const dfp_t *b)
{
    dfp_sqr_pair_t<false>(o1, a, o2, b);
}
#else
CUZK_HD void dfp_sqr_pair_lz(dfp_t *o1, const dfp_t *a, dfp_t *o2, const dfp_t *b)
{
    dfp_mul_pair_lz(o1, a, a, o2, b, b);
}
#endif

/* Fp2: the two products as two plain calls, in order (the pairs gain
 * nothing there: measured with copies and Karatsuba squares, G2 2^24
 * was +4.7%, stop 36). o1 must not alias a2 or b2, which holds in
 * ec_impl.cuh's pairs. */
CUZK_HD void dfp2_mul_pair(dfp2_t *o1, const dfp2_t *a1, const dfp2_t *b1, dfp2_t *o2,
                           const dfp2_t *a2, const dfp2_t *b2)
{
    dfp2_mul(o1, a1, b1);
    dfp2_mul(o2, a2, b2);
}

/* o1 = a^2, o2 = b^2 (each pair's squares). */
CUZK_HD void dfp_sqr_pair(dfp_t *o1, const dfp_t *a, dfp_t *o2, const dfp_t *b)
{
#if CUZK_FP_SQR
    dfp_sqr_pair_t<true>(o1, a, o2, b);
#else
    dfp_mul_pair(o1, a, a, o2, b, b);
#endif
}

CUZK_HD void dfp2_sqr_pair(dfp2_t *o1, const dfp2_t *a, dfp2_t *o2, const dfp2_t *b)
{
    dfp2_sqr(o1, a);
    dfp2_sqr(o2, b);
}

#endif
