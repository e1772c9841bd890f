/* Fp and Fp2 inversion on the device by Bernstein and Yang's divsteps
 * ("Fast constant-time gcd computation and modular inversion", TCHES
 * 2019), for the batch-affine additions: Fermat's a^(p-2) costs ~450
 * multiplications (~3e5 instructions), this at most 37 batches (27 for a
 * random input, measured) of ~1100 simple ones, about 50 multiplications'
 * worth.
 *
 * Method. With f = p, g = x, d = 0, e = 1, every divstep keeps f = d x and
 * g = e x (mod p) and the gcd of f and g. 30 divsteps at a time run on the
 * low 30 bits of f and g only, giving a matrix T with entries of at most
 * 2^30 such that (f, g) <- T (f, g) / 2^30 exactly; (d, e) follow with
 * the division by 2^30 done modulo p (a multiple of p makes the low 30 bits
 * zero, as in a Montgomery reduction). When g = 0, f = +-1 and x^-1 = +-d.
 * Numbers are 13 signed limbs of 30 bits (limbs 0..11 in [0, 2^30), limb
 * 12 carries the sign), so every product fits a 64-bit accumulator.
 *
 * Bounds. The original divstep (delta starting at 1) needs at most
 * floor((49 * 381 + 57) / 17) = 1101 steps for a 381-bit modulus
 * (Theorem 11.2 of the paper): 37 batches. The loop stops early when g is
 * zero (hence _var: the time depends on the value); g stays zero after.
 * d and e stay in (-2p, p): before a batch, p is added to the negative ones
 * (as a term of the multiple of p), so |u d + v e| < 2^30 p, and the
 * multiple chosen in (-2^30, 0] keeps the result above -2p.
 *
 * Inputs in Montgomery form, outputs too; 0 maps to 0. */
#ifndef CUZK_CUDA_INV_CUH
#define CUZK_CUDA_INV_CUH

#include "backend/cuda/arith/field.cuh"

#define DINV_LIMBS 13
#define DINV_MASK 0x3fffffffu
#define DINV_BATCHES 37

typedef struct dinv_num {
    int32_t v[DINV_LIMBS];
} dinv_num_t;

/* 32-bit limbs (N of them) -> 30-bit signed limbs of a non-negative value. */
template <int N> CUZK_HD constexpr dinv_num_t dinv_from32(const uint32_t *a)
{
    dinv_num_t r{};
    for (int i = 0; i < DINV_LIMBS; i++) {
        int bit = 30 * i, w = bit / 32, s = bit % 32;
        uint64_t lo = w < N ? a[w] : 0, hi = w + 1 < N ? a[w + 1] : 0;
        uint64_t both = lo | hi << 32;
        r.v[i] = (int32_t)((both >> s) & DINV_MASK);
    }
    return r;
}

CUZK_HD constexpr dinv_num_t dinv_modulus(dfp_t p)
{
    return dinv_from32<DFP_LIMBS>(p.l);
}

CUZK_DEVICE_CONST(dinv_num_t, DINV_P, dinv_modulus(dfp_const(dconst_u64x6_t{CUZK_P_LIMBS})))

/* p^-1 mod 2^30, from n0 = -p^-1 mod 2^32. */
#define DINV_P_INV30 ((uint32_t)(0u - DFP_N0) & DINV_MASK)

/* One batch of 30 divsteps on the low bits f0, g0 (f0 odd): returns the
 * new delta, T = [u v; q r] with 2^30 (f', g') = T (f, g). Branch-free:
 * every lane of a warp runs the same instructions. */
CUZK_HD int32_t dinv_divsteps30(int32_t delta, uint32_t f0, uint32_t g0, int32_t *t)
{
    int32_t u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < 30; i++) {
        /* delta > 0 and g odd: (f, g) <- (g, -f), delta <- -delta; then
         * g <- (g + f) / 2 if g is odd, g / 2 if even; delta <- delta + 1 */
        int32_t swap = -(int32_t)((delta > 0) & (g0 & 1));
        delta = (delta ^ swap) - swap;
        uint32_t x = (f0 ^ g0) & (uint32_t)swap;
        f0 ^= x;
        g0 ^= x;
        g0 = (g0 ^ (uint32_t)swap) - (uint32_t)swap;
        int32_t y = (u ^ q) & swap;
        u ^= y;
        q ^= y;
        q = (q ^ swap) - swap;
        y = (v ^ r) & swap;
        v ^= y;
        r ^= y;
        r = (r ^ swap) - swap;
        int32_t odd = -(int32_t)(g0 & 1);
        g0 += f0 & (uint32_t)odd;
        q += u & odd;
        r += v & odd;
        g0 >>= 1;
        u *= 2; /* not <<: the entries may be negative */
        v *= 2;
        delta++;
    }
    t[0] = u;
    t[1] = v;
    t[2] = q;
    t[3] = r;
    return delta;
}

/* (f, g) <- T (f, g) / 2^30: exact, as the low 30 bits of both sums are
 * zero by construction. */
CUZK_HD void dinv_update_fg(dinv_num_t *f, dinv_num_t *g, const int32_t *t)
{
    int64_t cf = (int64_t)t[0] * f->v[0] + (int64_t)t[1] * g->v[0];
    int64_t cg = (int64_t)t[2] * f->v[0] + (int64_t)t[3] * g->v[0];
    cf >>= 30;
    cg >>= 30;
    CUZK_UNROLL
    for (int i = 1; i < DINV_LIMBS; i++) {
        cf += (int64_t)t[0] * f->v[i] + (int64_t)t[1] * g->v[i];
        cg += (int64_t)t[2] * f->v[i] + (int64_t)t[3] * g->v[i];
        f->v[i - 1] = (int32_t)((uint32_t)cf & DINV_MASK);
        g->v[i - 1] = (int32_t)((uint32_t)cg & DINV_MASK);
        cf >>= 30;
        cg >>= 30;
    }
    f->v[DINV_LIMBS - 1] = (int32_t)cf;
    g->v[DINV_LIMBS - 1] = (int32_t)cg;
}

/* (d, e) <- T (d, e) / 2^30 mod p, each kept in (-2p, p). */
CUZK_HD void dinv_update_de(dinv_num_t *d, dinv_num_t *e, const int32_t *t)
{
    const dinv_num_t &p = DCONST(DINV_P);
    int32_t sd = d->v[DINV_LIMBS - 1] >> 31, se = e->v[DINV_LIMBS - 1] >> 31;
    /* p for each negative input, as a multiple of p */
    int64_t md = (int64_t)(t[0] & sd) + (t[1] & se);
    int64_t me = (int64_t)(t[2] & sd) + (t[3] & se);
    int64_t cd = (int64_t)t[0] * d->v[0] + (int64_t)t[1] * e->v[0];
    int64_t ce = (int64_t)t[2] * d->v[0] + (int64_t)t[3] * e->v[0];
    /* then the multiple in (-2^30, 0] that clears the low 30 bits */
    md -= (int64_t)((DINV_P_INV30 * (uint32_t)cd + (uint32_t)md) & DINV_MASK);
    me -= (int64_t)((DINV_P_INV30 * (uint32_t)ce + (uint32_t)me) & DINV_MASK);
    cd += md * p.v[0];
    ce += me * p.v[0];
    cd >>= 30;
    ce >>= 30;
    CUZK_UNROLL
    for (int i = 1; i < DINV_LIMBS; i++) {
        cd += (int64_t)t[0] * d->v[i] + (int64_t)t[1] * e->v[i] + md * p.v[i];
        ce += (int64_t)t[2] * d->v[i] + (int64_t)t[3] * e->v[i] + me * p.v[i];
        d->v[i - 1] = (int32_t)((uint32_t)cd & DINV_MASK);
        e->v[i - 1] = (int32_t)((uint32_t)ce & DINV_MASK);
        cd >>= 30;
        ce >>= 30;
    }
    d->v[DINV_LIMBS - 1] = (int32_t)cd;
    e->v[DINV_LIMBS - 1] = (int32_t)ce;
}

CUZK_HD int dinv_is_zero(const dinv_num_t *a)
{
    int32_t acc = 0;
    CUZK_UNROLL
    for (int i = 0; i < DINV_LIMBS; i++)
        acc |= a->v[i];
    return acc == 0;
}

/* a <- a + k p (k in {-1, 0, 1}), the limbs below the top in [0, 2^30). */
CUZK_HD void dinv_add_p(dinv_num_t *a, int32_t k)
{
    const dinv_num_t &p = DCONST(DINV_P);
    int32_t c = 0;
    CUZK_UNROLL
    for (int i = 0; i < DINV_LIMBS - 1; i++) {
        c += a->v[i] + k * p.v[i];
        a->v[i] = c & (int32_t)DINV_MASK;
        c >>= 30;
    }
    a->v[DINV_LIMBS - 1] += k * p.v[DINV_LIMBS - 1] + c;
}

/* a <- -a if neg (all ones), else a; limbs as above. */
CUZK_HD void dinv_neg_if(dinv_num_t *a, int32_t neg)
{
    int32_t c = 0;
    CUZK_UNROLL
    for (int i = 0; i < DINV_LIMBS - 1; i++) {
        c += (a->v[i] ^ neg) - neg;
        a->v[i] = c & (int32_t)DINV_MASK;
        c >>= 30;
    }
    a->v[DINV_LIMBS - 1] = ((a->v[DINV_LIMBS - 1] ^ neg) - neg) + c;
}

/* x^-1 mod p of a canonical x (not Montgomery); 0 gives 0. */
CUZK_HD void dfp_inv_raw_var(dfp_t *out, const dfp_t *x)
{
    dinv_num_t f = DCONST(DINV_P), g = dinv_from32<DFP_LIMBS>(x->l), d{}, e{};
    e.v[0] = 1;
    int32_t delta = 1, t[4];
    for (int b = 0; b < DINV_BATCHES && !dinv_is_zero(&g); b++) {
        delta = dinv_divsteps30(delta, (uint32_t)f.v[0], (uint32_t)g.v[0], t);
        dinv_update_fg(&f, &g, t);
        dinv_update_de(&d, &e, t);
    }
    /* f = +-1 (or p with d = 0 when x = 0): x^-1 = sign(f) d, in (-2p, 2p);
     * p added to a negative value twice, then taken off once if it fits */
    dinv_neg_if(&d, f.v[DINV_LIMBS - 1] >> 31);
    dinv_add_p(&d, -(d.v[DINV_LIMBS - 1] >> 31));
    dinv_add_p(&d, -(d.v[DINV_LIMBS - 1] >> 31));
    dinv_num_t s = d;
    dinv_add_p(&s, -1);
    int32_t keep_d = s.v[DINV_LIMBS - 1] >> 31; /* d - p < 0 */
    CUZK_UNROLL
    for (int i = 0; i < DINV_LIMBS; i++)
        d.v[i] = (d.v[i] & keep_d) | (s.v[i] & ~keep_d);
    /* 30-bit limbs -> 32-bit limbs (bit 32 i lies in limb 32 i / 30, at
     * most 22 bits in, so two limbs hold each word) */
    CUZK_UNROLL
    for (int i = 0; i < DFP_LIMBS; i++) {
        int w = 32 * i / 30, sh = 32 * i % 30;
        uint64_t v = (uint64_t)(uint32_t)d.v[w] >> sh | (uint64_t)(uint32_t)d.v[w + 1] << (30 - sh);
        out->l[i] = (uint32_t)v;
    }
}

/* a^-1 in Montgomery form: (a R)^-1 as an integer, then R^2 / R twice. */
CUZK_HD void dfp_inv_var(dfp_t *out, const dfp_t *a)
{
    dfp_t x;
    dfp_from_mont(&x, a);
    dfp_inv_raw_var(&x, &x);
    dfp_to_mont(out, &x);
}

/* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2), as u^2 = -1. */
CUZK_HD void dfp2_inv_var(dfp2_t *out, const dfp2_t *a)
{
    dfp_t n, t;
    dfp_sqr(&n, &a->c0);
    dfp_sqr(&t, &a->c1);
    dfp_add(&n, &n, &t);
    dfp_inv_var(&n, &n);
    dfp_mul(&out->c0, &a->c0, &n);
    dfp_mul(&t, &a->c1, &n);
    dfp_neg(&out->c1, &t);
}

#endif
