/* XYZZ bucket coordinates for short Weierstrass a = 0, written once for G1
 * and G2 (included by msm_impl.h, under the same macros as
 * src/curve/ec_impl.h: EC(name), EC_AFF, EC_JAC, F_T and F_xxx, plus
 * XYZZ(name) and XYZZ_T for the names made here; everything is static).
 *
 * (X, Y, ZZ, ZZZ) stands for the affine (X/ZZ, Y/ZZZ), with ZZ^3 = ZZZ^2;
 * ZZ = 0 is infinity. Formulas from the Explicit-Formulas Database,
 * hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html (a = 0). A bucket takes
 * mixed additions (8M + 2S, against 7M + 4S for Jacobian madd-2007-bl,
 * and fewer field additions); the bucket reduction uses add-2008-s. */
#include <string.h>

typedef struct XYZZ(s) {
    F_T x, y, zz, zzz;
} XYZZ_T;

static inline int XYZZ(is_inf)(const XYZZ_T *p)
{
    return F_is_zero(&p->zz);
}

static inline void XYZZ(set_inf)(XYZZ_T *p)
{
    memset(p, 0, sizeof *p);
}

/* The part of mdbl-2008-s / dbl-2008-s-1 (a = 0) that both share: from x, y
 * it sets out->x, out->y and returns V = (2y)^2, W = 2y V; the callers scale
 * ZZ and ZZZ by them (affine input: ZZ = V, ZZZ = W). */
static inline void XYZZ(dbl_core)(XYZZ_T *out, F_T *v, F_T *w, const F_T *x, const F_T *y)
{
    F_T u, s, m, x3, t;
    F_dbl(&u, y);
    F_sqr(v, &u);
    F_mul(w, &u, v);
    F_mul(&s, x, v);
    F_sqr(&m, x);
    F_dbl(&t, &m);
    F_add(&m, &m, &t);
    F_sqr(&x3, &m);
    F_dbl(&t, &s);
    F_sub(&x3, &x3, &t);
    F_sub(&t, &s, &x3);
    F_mul(&t, &m, &t);
    F_mul(&s, w, y);
    F_sub(&out->y, &t, &s);
    out->x = x3;
}

/* out = 2a, mdbl-2008-s (ZZ1 = ZZZ1 = 1), a = 0: 4M + 3S. a must not be
 * infinity. */
static void XYZZ(dbl_affine)(XYZZ_T *out, const EC_AFF *a)
{
    F_T v, w;
    XYZZ(dbl_core)(out, &v, &w, &a->x, &a->y);
    out->zz = v;
    out->zzz = w;
}

/* dbl-2008-s-1, a = 0: 6M + 3S. */
static void XYZZ(dbl)(XYZZ_T *out, const XYZZ_T *p)
{
    if (XYZZ(is_inf)(p)) {
        *out = *p;
        return;
    }
    F_T v, w, zz = p->zz, zzz = p->zzz;
    XYZZ(dbl_core)(out, &v, &w, &p->x, &p->y);
    F_mul(&out->zz, &v, &zz);
    F_mul(&out->zzz, &w, &zzz);
}

/* out = p + a, madd-2008-s: 8M + 2S. a must not be infinity; out may
 * alias p. */
static void XYZZ(add_affine)(XYZZ_T *out, const XYZZ_T *p, const EC_AFF *a)
{
    if (XYZZ(is_inf)(p)) {
        out->x = a->x;
        out->y = a->y;
        out->zz = F_ONE;
        out->zzz = F_ONE;
        return;
    }
    F_T u2, s2, pp, ppp, q, r, x3, t;
    F_mul(&u2, &a->x, &p->zz);
    F_mul(&s2, &a->y, &p->zzz);
    F_sub(&u2, &u2, &p->x); /* P */
    F_sub(&r, &s2, &p->y);  /* R */
    if (F_is_zero(&u2)) {
        if (F_is_zero(&r))
            XYZZ(dbl_affine)(out, a);
        else
            XYZZ(set_inf)(out);
        return;
    }
    F_sqr(&pp, &u2);
    F_mul(&ppp, &u2, &pp);
    F_mul(&q, &p->x, &pp);
    F_sqr(&x3, &r);
    F_sub(&x3, &x3, &ppp);
    F_dbl(&t, &q);
    F_sub(&x3, &x3, &t);
    F_sub(&q, &q, &x3);
    F_mul(&q, &r, &q);
    F_mul(&t, &p->y, &ppp);
    F_sub(&out->y, &q, &t);
    out->x = x3;
    F_mul(&out->zz, &p->zz, &pp);
    F_mul(&out->zzz, &p->zzz, &ppp);
}

/* out = p + q, add-2008-s: 12M + 2S. out may alias p or q. */
static void XYZZ(add)(XYZZ_T *out, const XYZZ_T *p, const XYZZ_T *q)
{
    if (XYZZ(is_inf)(q)) {
        *out = *p;
        return;
    }
    if (XYZZ(is_inf)(p)) {
        *out = *q;
        return;
    }
    F_T u1, u2, s1, s2, pp, ppp, v, x3, t;
    F_mul(&u1, &p->x, &q->zz);
    F_mul(&u2, &q->x, &p->zz);
    F_mul(&s1, &p->y, &q->zzz);
    F_mul(&s2, &q->y, &p->zzz);
    F_sub(&u2, &u2, &u1); /* P */
    F_sub(&s2, &s2, &s1); /* R */
    if (F_is_zero(&u2)) {
        if (F_is_zero(&s2))
            XYZZ(dbl)(out, p);
        else
            XYZZ(set_inf)(out);
        return;
    }
    F_sqr(&pp, &u2);
    F_mul(&ppp, &u2, &pp);
    F_mul(&v, &u1, &pp); /* Q */
    F_sqr(&x3, &s2);
    F_sub(&x3, &x3, &ppp);
    F_dbl(&t, &v);
    F_sub(&x3, &x3, &t);
    F_sub(&v, &v, &x3);
    F_mul(&v, &s2, &v);
    F_mul(&t, &s1, &ppp);
    F_T zz, zzz;
    F_mul(&zz, &p->zz, &q->zz);
    F_mul(&zzz, &p->zzz, &q->zzz);
    F_sub(&out->y, &v, &t);
    out->x = x3;
    F_mul(&out->zz, &zz, &pp);
    F_mul(&out->zzz, &zzz, &ppp);
}

/* Jacobian (X ZZ, Y ZZZ, ZZ): x = X ZZ / ZZ^2, y = Y ZZZ / ZZ^3 = Y / ZZZ
 * as ZZ^3 = ZZZ^2. 2M. */
static void XYZZ(to_jac)(EC_JAC *out, const XYZZ_T *p)
{
    if (XYZZ(is_inf)(p)) {
        EC(jac_set_inf)(out);
        return;
    }
    F_mul(&out->x, &p->x, &p->zz);
    F_mul(&out->y, &p->y, &p->zzz);
    out->z = p->zz;
}
