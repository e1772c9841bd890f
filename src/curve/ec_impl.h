/* Short-Weierstrass (a = 0) point arithmetic, written once for G1 (over Fp)
 * and G2 (over Fp2). The including file defines:
 *   EC(name)      the public name, e.g. g1_##name
 *   EC_AFF, EC_JAC  the affine and Jacobian types
 *   F_T           the coordinate field type, and F_xxx its operations
 *   EC_B          a pointer to the curve constant b
 * Formulas from the Explicit-Formulas Database (hyperelliptic.org/EFD,
 * g1p/auto-shortw-jacobian-0). */
#include <stdlib.h>
#include <string.h>

int EC(affine_is_inf)(const EC_AFF *a)
{
    return F_is_zero(&a->x) & F_is_zero(&a->y);
}

void EC(affine_set_inf)(EC_AFF *a)
{
    memset(a, 0, sizeof *a);
}

int EC(jac_is_inf)(const EC_JAC *a)
{
    return F_is_zero(&a->z);
}

void EC(jac_set_inf)(EC_JAC *a)
{
    a->x = F_ONE;
    a->y = F_ONE;
    a->z = F_ZERO;
}

int EC(affine_equal)(const EC_AFF *a, const EC_AFF *b)
{
    return F_equal(&a->x, &b->x) & F_equal(&a->y, &b->y);
}

int EC(jac_equal)(const EC_JAC *a, const EC_JAC *b)
{
    int ia = EC(jac_is_inf)(a), ib = EC(jac_is_inf)(b);
    if (ia || ib)
        return ia == ib;
    /* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3 */
    F_T z1z1, z2z2, u1, u2, s1, s2;
    F_sqr(&z1z1, &a->z);
    F_sqr(&z2z2, &b->z);
    F_mul(&u1, &a->x, &z2z2);
    F_mul(&u2, &b->x, &z1z1);
    F_mul(&s1, &a->y, &b->z);
    F_mul(&s1, &s1, &z2z2);
    F_mul(&s2, &b->y, &a->z);
    F_mul(&s2, &s2, &z1z1);
    return F_equal(&u1, &u2) & F_equal(&s1, &s2);
}

void EC(from_affine)(EC_JAC *out, const EC_AFF *a)
{
    if (EC(affine_is_inf)(a)) {
        EC(jac_set_inf)(out);
        return;
    }
    out->x = a->x;
    out->y = a->y;
    out->z = F_ONE;
}

void EC(to_affine)(EC_AFF *out, const EC_JAC *a)
{
    if (EC(jac_is_inf)(a)) {
        EC(affine_set_inf)(out);
        return;
    }
    F_T zi, zi2;
    F_inv(&zi, &a->z);
    F_sqr(&zi2, &zi);
    F_mul(&out->x, &a->x, &zi2);
    F_mul(&zi2, &zi2, &zi);
    F_mul(&out->y, &a->y, &zi2);
}

cuzk_status EC(batch_to_affine)(EC_AFF *out, const EC_JAC *in, size_t n)
{
    if (n == 0)
        return CUZK_OK;
    F_T *acc = malloc(n * sizeof *acc);
    if (!acc)
        return CUZK_ERR_NOMEM;
    /* prefix products of the nonzero Z's */
    F_T run = F_ONE;
    for (size_t i = 0; i < n; i++) {
        acc[i] = run;
        if (!EC(jac_is_inf)(&in[i]))
            F_mul(&run, &run, &in[i].z);
    }
    F_inv(&run, &run);
    for (size_t i = n; i-- > 0;) {
        if (EC(jac_is_inf)(&in[i])) {
            EC(affine_set_inf)(&out[i]);
            continue;
        }
        F_T zi, zi2, z = in[i].z;
        F_mul(&zi, &run, &acc[i]);
        F_mul(&run, &run, &z);
        F_sqr(&zi2, &zi);
        F_mul(&out[i].x, &in[i].x, &zi2);
        F_mul(&zi2, &zi2, &zi);
        F_mul(&out[i].y, &in[i].y, &zi2);
    }
    free(acc);
    return CUZK_OK;
}

void EC(affine_neg)(EC_AFF *out, const EC_AFF *a)
{
    out->x = a->x;
    F_neg(&out->y, &a->y);
}

void EC(neg)(EC_JAC *out, const EC_JAC *a)
{
    out->x = a->x;
    F_neg(&out->y, &a->y);
    out->z = a->z;
}

void EC(dbl)(EC_JAC *out, const EC_JAC *a)
{
    /* dbl-2009-l: 2M + 5S */
    if (EC(jac_is_inf)(a)) {
        *out = *a;
        return;
    }
    F_T A, B, C, D, E, F, t;
    F_sqr(&A, &a->x);
    F_sqr(&B, &a->y);
    F_sqr(&C, &B);
    F_add(&D, &a->x, &B);
    F_sqr(&D, &D);
    F_sub(&D, &D, &A);
    F_sub(&D, &D, &C);
    F_dbl(&D, &D);
    F_dbl(&E, &A);
    F_add(&E, &E, &A);
    F_sqr(&F, &E);
    F_mul(&out->z, &a->y, &a->z); /* before y is overwritten when out == a */
    F_dbl(&out->z, &out->z);
    F_dbl(&t, &D);
    F_sub(&out->x, &F, &t);
    F_sub(&t, &D, &out->x);
    F_mul(&t, &E, &t);
    F_dbl(&C, &C);
    F_dbl(&C, &C);
    F_dbl(&C, &C);
    F_sub(&out->y, &t, &C);
}

void EC(add)(EC_JAC *out, const EC_JAC *a, const EC_JAC *b)
{
    /* add-2007-bl: 11M + 5S */
    if (EC(jac_is_inf)(a)) {
        *out = *b;
        return;
    }
    if (EC(jac_is_inf)(b)) {
        *out = *a;
        return;
    }
    F_T z1z1, z2z2, u1, u2, s1, s2, h, i, j, r, v, t;
    F_sqr(&z1z1, &a->z);
    F_sqr(&z2z2, &b->z);
    F_mul(&u1, &a->x, &z2z2);
    F_mul(&u2, &b->x, &z1z1);
    F_mul(&s1, &a->y, &b->z);
    F_mul(&s1, &s1, &z2z2);
    F_mul(&s2, &b->y, &a->z);
    F_mul(&s2, &s2, &z1z1);
    F_sub(&h, &u2, &u1);
    F_sub(&r, &s2, &s1);
    if (F_is_zero(&h)) {
        if (F_is_zero(&r))
            EC(dbl)(out, a);
        else
            EC(jac_set_inf)(out);
        return;
    }
    F_dbl(&i, &h);
    F_sqr(&i, &i);
    F_mul(&j, &h, &i);
    F_dbl(&r, &r);
    F_mul(&v, &u1, &i);
    F_T z3;
    F_add(&z3, &a->z, &b->z);
    F_sqr(&z3, &z3);
    F_sub(&z3, &z3, &z1z1);
    F_sub(&z3, &z3, &z2z2);
    F_mul(&out->z, &z3, &h);
    F_sqr(&out->x, &r);
    F_sub(&out->x, &out->x, &j);
    F_dbl(&t, &v);
    F_sub(&out->x, &out->x, &t);
    F_sub(&t, &v, &out->x);
    F_mul(&t, &r, &t);
    F_mul(&s1, &s1, &j);
    F_dbl(&s1, &s1);
    F_sub(&out->y, &t, &s1);
}

void EC(add_mixed)(EC_JAC *out, const EC_JAC *a, const EC_AFF *b)
{
    /* madd-2007-bl: 7M + 4S */
    if (EC(affine_is_inf)(b)) {
        *out = *a;
        return;
    }
    if (EC(jac_is_inf)(a)) {
        EC(from_affine)(out, b);
        return;
    }
    F_T z1z1, u2, s2, h, hh, i, j, r, v, t;
    F_sqr(&z1z1, &a->z);
    F_mul(&u2, &b->x, &z1z1);
    F_mul(&s2, &b->y, &a->z);
    F_mul(&s2, &s2, &z1z1);
    F_sub(&h, &u2, &a->x);
    F_sub(&r, &s2, &a->y);
    if (F_is_zero(&h)) {
        if (F_is_zero(&r))
            EC(dbl)(out, a);
        else
            EC(jac_set_inf)(out);
        return;
    }
    F_sqr(&hh, &h);
    F_dbl(&i, &hh);
    F_dbl(&i, &i);
    F_mul(&j, &h, &i);
    F_dbl(&r, &r);
    F_mul(&v, &a->x, &i);
    F_T y1 = a->y;
    F_add(&out->z, &a->z, &h);
    F_sqr(&out->z, &out->z);
    F_sub(&out->z, &out->z, &z1z1);
    F_sub(&out->z, &out->z, &hh);
    F_sqr(&out->x, &r);
    F_sub(&out->x, &out->x, &j);
    F_dbl(&t, &v);
    F_sub(&out->x, &out->x, &t);
    F_sub(&t, &v, &out->x);
    F_mul(&t, &r, &t);
    F_mul(&y1, &y1, &j);
    F_dbl(&y1, &y1);
    F_sub(&out->y, &t, &y1);
}

void EC(mul_var)(EC_JAC *out, const EC_JAC *a, const uint64_t *k, size_t n)
{
    /* Fixed 4-bit windows, most significant first; table[i] = [i] a. */
    EC_JAC table[16], acc;
    EC(jac_set_inf)(&table[0]);
    table[1] = *a;
    for (int i = 2; i < 16; i++)
        EC(add)(&table[i], &table[i - 1], a);
    EC(jac_set_inf)(&acc);
    for (size_t w = n * 16; w-- > 0;) {
        unsigned digit = (unsigned)(k[w / 16] >> (4 * (w % 16))) & 15u;
        if (!EC(jac_is_inf)(&acc)) {
            EC(dbl)(&acc, &acc);
            EC(dbl)(&acc, &acc);
            EC(dbl)(&acc, &acc);
            EC(dbl)(&acc, &acc);
        }
        if (digit)
            EC(add)(&acc, &acc, &table[digit]);
    }
    *out = acc;
}

void EC(mul_fr)(EC_JAC *out, const EC_JAC *a, const fr_t *k)
{
    uint64_t l[FR_LIMBS];
    fr_to_limbs(l, k);
    EC(mul_var)(out, a, l, FR_LIMBS);
}

static void EC(rhs)(F_T *out, const F_T *x)
{
    F_T t;
    F_sqr(&t, x);
    F_mul(&t, &t, x);
    F_add(out, &t, EC_B);
}

int EC(affine_is_on_curve)(const EC_AFF *a)
{
    if (EC(affine_is_inf)(a))
        return 1;
    F_T lhs, rhs;
    F_sqr(&lhs, &a->y);
    EC(rhs)(&rhs, &a->x);
    return F_equal(&lhs, &rhs);
}

int EC(jac_is_on_curve)(const EC_JAC *a)
{
    if (EC(jac_is_inf)(a))
        return 1;
    /* Y^2 = X^3 + b Z^6 */
    F_T lhs, rhs, z6;
    F_sqr(&lhs, &a->y);
    F_sqr(&rhs, &a->x);
    F_mul(&rhs, &rhs, &a->x);
    F_sqr(&z6, &a->z);
    F_mul(&z6, &z6, &a->z);
    F_sqr(&z6, &z6);
    F_mul(&z6, &z6, EC_B);
    F_add(&rhs, &rhs, &z6);
    return F_equal(&lhs, &rhs);
}

int EC(affine_in_subgroup_slow)(const EC_AFF *a)
{
    EC_JAC j, t;
    EC(from_affine)(&j, a);
    EC(mul_var)(&t, &j, FR_MODULUS, FR_LIMBS);
    return EC(jac_is_inf)(&t);
}
