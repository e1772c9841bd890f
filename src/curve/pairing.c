/* Optimal ate pairing on BLS12-381 (see include/cuzk/pairing.h).
 *
 * Lines. Let psi'(x, y) = (x w^-2, y w^-3) map the twist E' to E over Fp12
 * (w^6 = xi). The line through psi'(T) with slope lambda w^-1, evaluated at
 * P = (xp, yp) and multiplied by w^3 (a factor in a proper subfield, which
 * the final exponentiation removes), is
 *     yp w^3 - lambda xp w^2 + (lambda xT - yT),
 * a sparse Fp12 element with coefficients at positions 0 (1), 1 (v = w^2)
 * and 4 (v w = w^3). With T = (X, Y, Z) Jacobian we also clear the
 * denominators of lambda, again by Fp2 factors:
 *   tangent:  d4 = 2 Y Z^3 yp,  d1 = -3 X^2 Z^2 xp,  d0 = 3 X^3 - 2 Y^2
 *   chord to affine Q, with H = xq Z^2 - X, R = yq Z^3 - Y:
 *             d4 = Z H yp,      d1 = -R xp,          d0 = R xq - Z H yq */
#include "cuzk/pairing.h"

#include <stdlib.h>

#include "../field/constants_gen.h"

typedef struct ml_pair {
    g2_jac_t t;
    g2_affine_t q;
    fp_t xp, yp;
} ml_pair_t;

static void line_dbl(fp12_t *f, ml_pair_t *s)
{
    const g2_jac_t *T = &s->t;
    fp2_t A, B, Z2, E, d0, d1, d4, t;
    fp2_sqr(&A, &T->x);
    fp2_sqr(&B, &T->y);
    fp2_sqr(&Z2, &T->z);
    fp2_dbl(&E, &A);
    fp2_add(&E, &E, &A);

    fp2_mul(&d0, &E, &T->x);
    fp2_dbl(&t, &B);
    fp2_sub(&d0, &d0, &t);

    fp2_mul(&d1, &E, &Z2);
    fp2_mul_fp(&d1, &d1, &s->xp);
    fp2_neg(&d1, &d1);

    fp2_mul(&d4, &T->y, &T->z);
    fp2_dbl(&d4, &d4);
    fp2_mul(&d4, &d4, &Z2);
    fp2_mul_fp(&d4, &d4, &s->yp);

    fp12_mul_by_014(f, f, &d0, &d1, &d4);
    g2_dbl(&s->t, &s->t);
}

static void line_add(fp12_t *f, ml_pair_t *s)
{
    const g2_jac_t *T = &s->t;
    const g2_affine_t *Q = &s->q;
    fp2_t Z2, H, R, ZH, d0, d1, d4, t;
    fp2_sqr(&Z2, &T->z);
    fp2_mul(&H, &Q->x, &Z2);
    fp2_sub(&H, &H, &T->x);
    fp2_mul(&R, &Q->y, &Z2);
    fp2_mul(&R, &R, &T->z);
    fp2_sub(&R, &R, &T->y);
    fp2_mul(&ZH, &T->z, &H);

    fp2_mul_fp(&d4, &ZH, &s->yp);
    fp2_mul_fp(&d1, &R, &s->xp);
    fp2_neg(&d1, &d1);
    fp2_mul(&d0, &R, &Q->x);
    fp2_mul(&t, &ZH, &Q->y);
    fp2_sub(&d0, &d0, &t);

    fp12_mul_by_014(f, f, &d0, &d1, &d4);
    g2_add_mixed(&s->t, &s->t, Q);
}

cuzk_status pairing_miller_loop(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    ml_pair_t local[8];
    ml_pair_t *st = local;
    if (n > 8) {
        st = malloc(n * sizeof *st);
        if (!st)
            return CUZK_ERR_NOMEM;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (g1_affine_is_inf(&p[i]) || g2_affine_is_inf(&q[i]))
            continue;
        st[m].q = q[i];
        g2_from_affine(&st[m].t, &q[i]);
        st[m].xp = p[i].x;
        st[m].yp = p[i].y;
        m++;
    }
    fp12_t f = FP12_ONE;
    const uint64_t x = CUZK_BLS_X_ABS;
    for (int bit = 62; bit >= 0; bit--) {
        if (bit != 62)
            fp12_sqr(&f, &f);
        for (size_t i = 0; i < m; i++)
            line_dbl(&f, &st[i]);
        if ((x >> bit) & 1)
            for (size_t i = 0; i < m; i++)
                line_add(&f, &st[i]);
    }
    fp12_conj(out, &f); /* x < 0 */
    if (st != local)
        free(st);
    return CUZK_OK;
}

/* out = a^x for a in the cyclotomic subgroup, x the (negative) BLS parameter. */
static void cyclotomic_exp_x(fp12_t *out, const fp12_t *a)
{
    const uint64_t x = CUZK_BLS_X_ABS;
    fp12_t acc = *a;
    for (int bit = 62; bit >= 0; bit--) {
        fp12_cyclotomic_sqr(&acc, &acc);
        if ((x >> bit) & 1)
            fp12_mul(&acc, &acc, a);
    }
    fp12_conj(out, &acc);
}

void pairing_final_exp(fp12_t *out, const fp12_t *f)
{
    fp12_t m, t0, t1, t2, t3, t4, t5, t6, t7, r;
    /* easy part: f^((p^6 - 1)(p^2 + 1)) */
    fp12_inv(&t0, f);
    fp12_conj(&m, f);
    fp12_mul(&m, &m, &t0);
    fp12_frobenius(&t0, &m, 2);
    fp12_mul(&m, &t0, &m);

    /* hard part, Fuentes-Castaneda, Knapp and Rodriguez-Henriquez, "Faster
     * hashing to G2" (SAC 2011): m^(l3 p^3 + l2 p^2 + l1 p + l0)
     * = m^(3 (p^4 - p^2 + 1)/r); tools/gen_constants.py checks the identity. */
    t1 = m;
    cyclotomic_exp_x(&t2, &t1); /* m^x */
    fp12_cyclotomic_sqr(&t3, &t1);
    fp12_conj(&t3, &t3);
    fp12_mul(&t3, &t3, &t2);    /* m^(x - 2) */
    cyclotomic_exp_x(&t4, &t3); /* m^(x^2 - 2x) */
    cyclotomic_exp_x(&t5, &t4); /* m^(x^3 - 2x^2) */
    cyclotomic_exp_x(&t6, &t5);
    fp12_cyclotomic_sqr(&t0, &t2);
    fp12_mul(&t6, &t6, &t0);    /* m^(x^4 - 2x^3 + 2x) */
    cyclotomic_exp_x(&t7, &t6); /* m^(x^5 - 2x^4 + 2x^2) */

    fp12_mul(&r, &t2, &t5);
    fp12_frobenius(&r, &r, 2);
    fp12_mul(&t0, &t4, &t1);
    fp12_frobenius(&t0, &t0, 3);
    fp12_mul(&r, &r, &t0);
    fp12_conj(&t0, &t1);
    fp12_mul(&t0, &t6, &t0);
    fp12_frobenius(&t0, &t0, 1);
    fp12_mul(&r, &r, &t0);
    fp12_mul(&r, &r, &t7);
    fp12_conj(&t0, &t3);
    fp12_mul(&r, &r, &t0);
    fp12_mul(out, &r, &t1);
}

void pairing_compute(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q)
{
    fp12_t f;
    (void)pairing_miller_loop(&f, p, q, 1); /* n = 1 never allocates */
    pairing_final_exp(out, &f);
}

cuzk_status pairing_product(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t f;
    cuzk_status st = pairing_miller_loop(&f, p, q, n);
    if (st != CUZK_OK)
        return st;
    pairing_final_exp(out, &f);
    return CUZK_OK;
}
