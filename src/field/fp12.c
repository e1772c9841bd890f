/* Fp12 = Fp6[w]/(w^2 - v) arithmetic (see include/cuzk/fp12.h). */
#include "cuzk/fp12.h"

#include "constants_gen.h"

const fp12_t FP12_ONE = {{{{CUZK_P_ONE}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}},
                         {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

static const fp2_t FROB12_C1[12] = CUZK_FROB12_C1;

void fp12_add(fp12_t *out, const fp12_t *a, const fp12_t *b)
{
    fp6_add(&out->c0, &a->c0, &b->c0);
    fp6_add(&out->c1, &a->c1, &b->c1);
}

void fp12_sub(fp12_t *out, const fp12_t *a, const fp12_t *b)
{
    fp6_sub(&out->c0, &a->c0, &b->c0);
    fp6_sub(&out->c1, &a->c1, &b->c1);
}

void fp12_mul(fp12_t *out, const fp12_t *a, const fp12_t *b)
{
    /* Karatsuba: c0 = t0 + v t1, c1 = (a0 + a1)(b0 + b1) - t0 - t1 */
    fp6_t t0, t1, s, u;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&u, &b->c0, &b->c1);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&out->c1, &s, &t1);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&out->c0, &t0, &t1);
}

void fp12_sqr(fp12_t *out, const fp12_t *a)
{
    /* complex squaring: c0 = (a0 + a1)(a0 + v a1) - ab - v ab, c1 = 2 ab */
    fp6_t ab, s, u, vab;
    fp6_mul(&ab, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_v(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &ab);
    fp6_mul_by_v(&vab, &ab);
    fp6_sub(&out->c0, &s, &vab);
    fp6_add(&out->c1, &ab, &ab);
}

void fp12_inv(fp12_t *out, const fp12_t *a)
{
    /* (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - v a1^2) */
    fp6_t t0, t1;
    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_by_v(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    fp6_mul(&out->c0, &a->c0, &t0);
    fp6_mul(&t1, &a->c1, &t0);
    fp6_neg(&out->c1, &t1);
}

void fp12_conj(fp12_t *out, const fp12_t *a)
{
    out->c0 = a->c0;
    fp6_neg(&out->c1, &a->c1);
}

void fp12_frobenius(fp12_t *out, const fp12_t *a, unsigned k)
{
    k %= 12;
    fp12_t t;
    fp6_frobenius(&t.c0, &a->c0, k);
    fp6_frobenius(&t.c1, &a->c1, k);
    fp2_mul(&t.c1.c0, &t.c1.c0, &FROB12_C1[k]);
    fp2_mul(&t.c1.c1, &t.c1.c1, &FROB12_C1[k]);
    fp2_mul(&t.c1.c2, &t.c1.c2, &FROB12_C1[k]);
    *out = t;
}

void fp12_mul_by_014(fp12_t *out, const fp12_t *a, const fp2_t *d0, const fp2_t *d1,
                     const fp2_t *d4)
{
    /* a * (L0 + L1 w), L0 = d0 + d1 v, L1 = d4 v:
     * c0 = a0 L0 + v (a1 L1), c1 = (a0 + a1)(L0 + L1) - a0 L0 - a1 L1 */
    fp6_t t0, t1, s;
    fp2_t e;
    fp6_mul_by_01(&t0, &a->c0, d0, d1);
    fp6_mul_by_1(&t1, &a->c1, d4);
    fp6_add(&s, &a->c0, &a->c1);
    fp2_add(&e, d1, d4);
    fp6_mul_by_01(&s, &s, d0, &e);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&out->c1, &s, &t1);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&out->c0, &t0, &t1);
}

/* Squaring in Fp4 = Fp2[y]/(y^2 - xi), the building block of Granger-Scott. */
static void fp4_sqr(fp2_t *c0, fp2_t *c1, const fp2_t *a, const fp2_t *b)
{
    fp2_t t0, t1, t2;
    fp2_sqr(&t0, a);
    fp2_sqr(&t1, b);
    fp2_mul_by_xi(&t2, &t1);
    fp2_add(c0, &t2, &t0);
    fp2_add(&t2, a, b);
    fp2_sqr(&t2, &t2);
    fp2_sub(&t2, &t2, &t0);
    fp2_sub(c1, &t2, &t1);
}

/* z' = 3 t - 2 z (sub = 1) or 3 t + 2 z (sub = 0) */
static void gs_combine(fp2_t *z, const fp2_t *t, int sub)
{
    fp2_t r;
    if (sub)
        fp2_sub(&r, t, z);
    else
        fp2_add(&r, t, z);
    fp2_dbl(&r, &r);
    fp2_add(z, &r, t);
}

void fp12_cyclotomic_sqr(fp12_t *out, const fp12_t *a)
{
    /* Granger and Scott, "Faster Squaring in the Cyclotomic Subgroup of
     * Sixth Degree Extensions" (PKC 2010), on the (z0..z5) grouping of the
     * Fp12 coefficients into three Fp4 elements. 9 Fp2 squarings. */
    fp2_t z0 = a->c0.c0, z4 = a->c0.c1, z3 = a->c0.c2;
    fp2_t z2 = a->c1.c0, z1 = a->c1.c1, z5 = a->c1.c2;
    fp2_t t0, t1, t2, t3;

    fp4_sqr(&t0, &t1, &z0, &z1);
    gs_combine(&z0, &t0, 1);
    gs_combine(&z1, &t1, 0);

    fp4_sqr(&t0, &t1, &z2, &z3);
    fp4_sqr(&t2, &t3, &z4, &z5);
    gs_combine(&z4, &t0, 1);
    gs_combine(&z5, &t1, 0);

    fp2_mul_by_xi(&t0, &t3);
    gs_combine(&z2, &t0, 0);
    gs_combine(&z3, &t2, 1);

    out->c0.c0 = z0;
    out->c0.c1 = z4;
    out->c0.c2 = z3;
    out->c1.c0 = z2;
    out->c1.c1 = z1;
    out->c1.c2 = z5;
}

void fp12_pow_var(fp12_t *out, const fp12_t *a, const uint64_t *e, size_t n)
{
    fp12_t acc = FP12_ONE, base = *a;
    int started = 0;
    for (size_t i = n; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            if (started)
                fp12_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1) {
                fp12_mul(&acc, &acc, &base);
                started = 1;
            }
        }
    }
    *out = acc;
}

int fp12_equal(const fp12_t *a, const fp12_t *b)
{
    return fp6_equal(&a->c0, &b->c0) & fp6_equal(&a->c1, &b->c1);
}

int fp12_is_one(const fp12_t *a)
{
    return fp12_equal(a, &FP12_ONE);
}
