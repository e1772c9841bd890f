/* Fp2 = Fp[u]/(u^2+1) arithmetic (see include/cuzk/fp2.h). */
#include "cuzk/fp2.h"

#include "constants_gen.h"

const fp2_t FP2_ZERO = {{{0}}, {{0}}};
const fp2_t FP2_ONE = {{CUZK_P_ONE}, {{0}}};

void fp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_add(&out->c0, &a->c0, &b->c0);
    fp_add(&out->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_sub(&out->c0, &a->c0, &b->c0);
    fp_sub(&out->c1, &a->c1, &b->c1);
}

void fp2_neg(fp2_t *out, const fp2_t *a)
{
    fp_neg(&out->c0, &a->c0);
    fp_neg(&out->c1, &a->c1);
}

void fp2_dbl(fp2_t *out, const fp2_t *a)
{
    fp_dbl(&out->c0, &a->c0);
    fp_dbl(&out->c1, &a->c1);
}

void fp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_t t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&out->c0, &t0, &t1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&out->c1, &s0, &t1);
}

void fp2_sqr(fp2_t *out, const fp2_t *a)
{
    /* (c0 + c1)(c0 - c1) + 2 c0 c1 u */
    fp_t s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&out->c0, &s, &d);
    fp_dbl(&out->c1, &m);
}

void fp2_mul_fp(fp2_t *out, const fp2_t *a, const fp_t *b)
{
    fp_mul(&out->c0, &a->c0, b);
    fp_mul(&out->c1, &a->c1, b);
}

void fp2_mul_by_xi(fp2_t *out, const fp2_t *a)
{
    /* (c0 + c1 u)(1 + u) = (c0 - c1) + (c0 + c1) u */
    fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&out->c1, &a->c0, &a->c1);
    out->c0 = t;
}

void fp2_conj(fp2_t *out, const fp2_t *a)
{
    out->c0 = a->c0;
    fp_neg(&out->c1, &a->c1);
}

void fp2_inv(fp2_t *out, const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    fp_mul(&out->c0, &a->c0, &n);
    fp_mul(&t, &a->c1, &n);
    fp_neg(&out->c1, &t);
}

void fp2_pow_var(fp2_t *out, const fp2_t *a, const uint64_t *e, size_t n)
{
    fp2_t acc = FP2_ONE, base = *a;
    int started = 0;
    for (size_t i = n; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            if (started)
                fp2_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1) {
                fp2_mul(&acc, &acc, &base);
                started = 1;
            }
        }
    }
    *out = acc;
}

int fp2_is_zero(const fp2_t *a)
{
    return fp_is_zero(&a->c0) & fp_is_zero(&a->c1);
}

int fp2_equal(const fp2_t *a, const fp2_t *b)
{
    return fp_equal(&a->c0, &b->c0) & fp_equal(&a->c1, &b->c1);
}

int fp2_is_one(const fp2_t *a)
{
    return fp2_equal(a, &FP2_ONE);
}

int fp2_is_lex_largest(const fp2_t *a)
{
    if (!fp_is_zero(&a->c1))
        return fp_is_lex_largest(&a->c1);
    return fp_is_lex_largest(&a->c0);
}

static const uint64_t P_MINUS_3_DIV_4[FP_LIMBS] = CUZK_P_MINUS_3_DIV_4;
static const uint64_t P_MINUS_1_DIV_2[FP_LIMBS] = CUZK_P_MINUS_1_DIV_2;

int fp2_sqrt(fp2_t *out, const fp2_t *a)
{
    fp2_t a1, alpha, a0, x0, x, minus_one, chk;
    fp2_neg(&minus_one, &FP2_ONE);
    fp2_pow_var(&a1, a, P_MINUS_3_DIV_4, FP_LIMBS);
    fp2_sqr(&alpha, &a1);
    fp2_mul(&alpha, &alpha, a);
    fp2_conj(&a0, &alpha);
    fp2_mul(&a0, &a0, &alpha);
    if (fp2_equal(&a0, &minus_one))
        return 0;
    fp2_mul(&x0, &a1, a);
    if (fp2_equal(&alpha, &minus_one)) {
        /* x = u * x0 */
        fp_neg(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        fp2_t b;
        fp2_add(&b, &FP2_ONE, &alpha);
        fp2_pow_var(&b, &b, P_MINUS_1_DIV_2, FP_LIMBS);
        fp2_mul(&x, &b, &x0);
    }
    fp2_sqr(&chk, &x);
    if (!fp2_equal(&chk, a))
        return 0;
    *out = x;
    return 1;
}
