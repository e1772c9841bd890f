/* Fp6 = Fp2[v]/(v^3 - xi) arithmetic (see include/cuzk/fp6.h).
 * Multiplication and squaring follow Devegili, O hEigeartaigh, Scott and
 * Dahab, "Multiplication and Squaring on Pairing-Friendly Fields" (eprint
 * 2006/471): Karatsuba for mul, CH-SQR2 for sqr. */
#include "cuzk/fp6.h"

#include "constants_gen.h"

const fp6_t FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const fp6_t FP6_ONE = {{{CUZK_P_ONE}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};

static const fp2_t FROB6_C1[6] = CUZK_FROB6_C1;
static const fp2_t FROB6_C2[6] = CUZK_FROB6_C2;

void fp6_add(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    fp2_add(&out->c0, &a->c0, &b->c0);
    fp2_add(&out->c1, &a->c1, &b->c1);
    fp2_add(&out->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    fp2_sub(&out->c0, &a->c0, &b->c0);
    fp2_sub(&out->c1, &a->c1, &b->c1);
    fp2_sub(&out->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6_t *out, const fp6_t *a)
{
    fp2_neg(&out->c0, &a->c0);
    fp2_neg(&out->c1, &a->c1);
    fp2_neg(&out->c2, &a->c2);
}

void fp6_mul(fp6_t *out, const fp6_t *a, const fp6_t *b)
{
    fp2_t t0, t1, t2, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, &b->c0);
    fp2_mul(&t1, &a->c1, &b->c1);
    fp2_mul(&t2, &a->c2, &b->c2);

    /* c0 = ((a1 + a2)(b1 + b2) - t1 - t2) xi + t0 */
    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&u, &b->c1, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t1);
    fp2_sub(&s, &s, &t2);
    fp2_mul_by_xi(&s, &s);
    fp2_add(&c0, &s, &t0);

    /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2 */
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, &b->c0, &b->c1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t1);
    fp2_mul_by_xi(&u, &t2);
    fp2_add(&c1, &s, &u);

    /* c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&u, &b->c0, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t2);
    fp2_add(&c2, &s, &t1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void fp6_sqr(fp6_t *out, const fp6_t *a)
{
    fp2_t s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    fp2_t c0, c1, c2;
    fp2_mul_by_xi(&t, &s3);
    fp2_add(&c0, &s0, &t);
    fp2_mul_by_xi(&t, &s4);
    fp2_add(&c1, &s1, &t);
    fp2_add(&c2, &s1, &s2);
    fp2_add(&c2, &c2, &s3);
    fp2_sub(&c2, &c2, &s0);
    fp2_sub(&c2, &c2, &s4);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void fp6_inv(fp6_t *out, const fp6_t *a)
{
    /* A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1, C = a1^2 - a0 a2,
     * F = a0 A + xi (a2 B + a1 C); a^-1 = (A, B, C) / F. */
    fp2_t A, B, C, F, t;
    fp2_sqr(&A, &a->c0);
    fp2_mul(&t, &a->c1, &a->c2);
    fp2_mul_by_xi(&t, &t);
    fp2_sub(&A, &A, &t);

    fp2_sqr(&B, &a->c2);
    fp2_mul_by_xi(&B, &B);
    fp2_mul(&t, &a->c0, &a->c1);
    fp2_sub(&B, &B, &t);

    fp2_sqr(&C, &a->c1);
    fp2_mul(&t, &a->c0, &a->c2);
    fp2_sub(&C, &C, &t);

    fp2_mul(&F, &a->c2, &B);
    fp2_mul(&t, &a->c1, &C);
    fp2_add(&F, &F, &t);
    fp2_mul_by_xi(&F, &F);
    fp2_mul(&t, &a->c0, &A);
    fp2_add(&F, &F, &t);
    fp2_inv(&F, &F);

    fp2_mul(&out->c0, &A, &F);
    fp2_mul(&out->c1, &B, &F);
    fp2_mul(&out->c2, &C, &F);
}

void fp6_mul_by_v(fp6_t *out, const fp6_t *a)
{
    fp2_t t;
    fp2_mul_by_xi(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

void fp6_mul_by_01(fp6_t *out, const fp6_t *a, const fp2_t *b0, const fp2_t *b1)
{
    /* (a0 + a1 v + a2 v^2)(b0 + b1 v):
     * c0 = a0 b0 + xi a2 b1, c1 = a0 b1 + a1 b0, c2 = a1 b1 + a2 b0 */
    fp2_t t0, t1, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, b0);
    fp2_mul(&t1, &a->c1, b1);

    fp2_mul(&s, &a->c2, b1);
    fp2_mul_by_xi(&s, &s);
    fp2_add(&c0, &s, &t0);

    /* a0 b1 + a1 b0 = (a0 + a1)(b0 + b1) - t0 - t1 */
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, b0, b1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&c1, &s, &t1);

    fp2_mul(&s, &a->c2, b0);
    fp2_add(&c2, &s, &t1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void fp6_mul_by_1(fp6_t *out, const fp6_t *a, const fp2_t *b1)
{
    /* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
    fp2_t c0, c1, c2;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_xi(&c0, &c0);
    fp2_mul(&c1, &a->c0, b1);
    fp2_mul(&c2, &a->c1, b1);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void fp6_frobenius(fp6_t *out, const fp6_t *a, unsigned k)
{
    k %= 6;
    fp6_t t = *a;
    if (k & 1) {
        fp2_conj(&t.c0, &t.c0);
        fp2_conj(&t.c1, &t.c1);
        fp2_conj(&t.c2, &t.c2);
    }
    fp2_mul(&t.c1, &t.c1, &FROB6_C1[k]);
    fp2_mul(&t.c2, &t.c2, &FROB6_C2[k]);
    *out = t;
}

int fp6_is_zero(const fp6_t *a)
{
    return fp2_is_zero(&a->c0) & fp2_is_zero(&a->c1) & fp2_is_zero(&a->c2);
}

int fp6_equal(const fp6_t *a, const fp6_t *b)
{
    return fp2_equal(&a->c0, &b->c0) & fp2_equal(&a->c1, &b->c1) & fp2_equal(&a->c2, &b->c2);
}
