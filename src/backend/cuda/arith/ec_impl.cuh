/* Short-Weierstrass (a = 0) point arithmetic on the device, written once for
 * G1 (over Fp) and G2 (over Fp2); the device twin of src/curve/ec_impl.h and
 * src/backend/cpu/msm_xyzz.h. Included by ec.cuh with:
 *   EC(name)                    the name made here, e.g. dg1_##name
 *   EC_AFF, EC_JAC, EC_XYZZ     the point types
 *   F_T and F_add, F_sub, F_dbl, F_neg, F_mul, F_sqr, F_is_zero,
 *   F_set_zero, F_set_one       the coordinate field
 *   F_mul_pair, F_sqr_pair      two independent products at once
 *                               (fp_pair.cuh, CUZK_EC_PAIR)
 *   F_*_lz (G1)                 the same in [0, 2p) for the light bins'
 *                               chain; F_mul_sub_mul_lz where defined
 *                               (CUZK_FP_MUL_SUB_MUL)
 *
 * Conventions are the host's, so that results are the same bytes:
 *  - affine infinity is (0, 0); Jacobian (X, Y, Z) is (X/Z^2, Y/Z^3) and
 *    infinity when Z = 0, made as (1, 1, 0); XYZZ (X, Y, ZZ, ZZZ) is
 *    (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2, infinity when ZZ = 0, made as all 0;
 *  - the Jacobian formulas are the host's (same EFD formulas, same special
 *    cases, an infinite input copied through as it is), so a device result
 *    equals the host's byte for byte, not only as a point.
 * Formulas: Explicit-Formulas Database, hyperelliptic.org/EFD,
 * g1p/auto-shortw-jacobian-0.html and g1p/auto-shortw-xyzz.html (a = 0).
 * Outputs may alias inputs. Variable time (branches on infinity and on
 * P = +-Q), as on the host: the points are public. */

/* ---- affine and Jacobian ----------------------------------------------- */

CUZK_HD int EC(affine_is_inf)(const EC_AFF *a)
{
    return F_is_zero(&a->x) & F_is_zero(&a->y);
}

CUZK_HD void EC(affine_set_inf)(EC_AFF *a)
{
    F_set_zero(&a->x);
    F_set_zero(&a->y);
}

CUZK_HD int EC(jac_is_inf)(const EC_JAC *a)
{
    return F_is_zero(&a->z);
}

CUZK_HD void EC(jac_set_inf)(EC_JAC *a)
{
    F_set_one(&a->x);
    F_set_one(&a->y);
    F_set_zero(&a->z);
}

CUZK_HD void EC(from_affine)(EC_JAC *out, const EC_AFF *a)
{
    if (EC(affine_is_inf)(a)) {
        EC(jac_set_inf)(out);
        return;
    }
    out->x = a->x;
    out->y = a->y;
    F_set_one(&out->z);
}

CUZK_HD void EC(affine_neg)(EC_AFF *out, const EC_AFF *a)
{
    out->x = a->x;
    F_neg(&out->y, &a->y); /* -0 = 0: infinity stays (0, 0) */
}

CUZK_HD void EC(neg)(EC_JAC *out, const EC_JAC *a)
{
    out->x = a->x;
    F_neg(&out->y, &a->y);
    out->z = a->z;
}

/* dbl-2009-l: 2M + 5S. */
CUZK_HD void EC(dbl)(EC_JAC *out, const EC_JAC *a)
{
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

/* add-2007-bl: 11M + 5S; P = Q falls back to dbl, P = -Q gives infinity. */
CUZK_HD void EC(add)(EC_JAC *out, const EC_JAC *a, const EC_JAC *b)
{
    if (EC(jac_is_inf)(a)) {
        *out = *b;
        return;
    }
    if (EC(jac_is_inf)(b)) {
        *out = *a;
        return;
    }
    F_T z1z1, z2z2, u1, u2, s1, s2, h, i, j, r, v, t, z3;
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

/* madd-2007-bl: 7M + 4S; b = (0, 0) is infinity. */
CUZK_HD void EC(add_mixed)(EC_JAC *out, const EC_JAC *a, const EC_AFF *b)
{
    if (EC(affine_is_inf)(b)) {
        *out = *a;
        return;
    }
    if (EC(jac_is_inf)(a)) {
        EC(from_affine)(out, b);
        return;
    }
    F_T z1z1, u2, s2, h, hh, i, j, r, v, t, y1;
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
    y1 = a->y;
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

/* ---- XYZZ (the MSM's buckets) ------------------------------------------ */

CUZK_HD int EC(xyzz_is_inf)(const EC_XYZZ *p)
{
    return F_is_zero(&p->zz);
}

CUZK_HD void EC(xyzz_set_inf)(EC_XYZZ *p)
{
    F_set_zero(&p->x);
    F_set_zero(&p->y);
    F_set_zero(&p->zz);
    F_set_zero(&p->zzz);
}

CUZK_HD void EC(xyzz_from_affine)(EC_XYZZ *out, const EC_AFF *a)
{
    if (EC(affine_is_inf)(a)) {
        EC(xyzz_set_inf)(out);
        return;
    }
    out->x = a->x;
    out->y = a->y;
    F_set_one(&out->zz);
    F_set_one(&out->zzz);
}

/* (X, Y, Z^2, Z^3): the same x = X/Z^2, y = Y/Z^3. 1M + 1S. */
CUZK_HD void EC(xyzz_from_jac)(EC_XYZZ *out, const EC_JAC *a)
{
    if (EC(jac_is_inf)(a)) {
        EC(xyzz_set_inf)(out);
        return;
    }
    F_T zz;
    F_sqr(&zz, &a->z);
    F_mul(&out->zzz, &zz, &a->z);
    out->zz = zz;
    out->x = a->x;
    out->y = a->y;
}

CUZK_HD void EC(xyzz_neg)(EC_XYZZ *out, const EC_XYZZ *p)
{
    out->x = p->x;
    F_neg(&out->y, &p->y);
    out->zz = p->zz;
    out->zzz = p->zzz;
}

/* out = 2a, mdbl-2008-s (ZZ1 = ZZZ1 = 1), a = 0: 4M + 3S.
 * U = 2Y, V = U^2, W = U V, S = X V, M = 3X^2, X3 = M^2 - 2S,
 * Y3 = M (S - X3) - W Y, ZZ3 = V, ZZZ3 = W. a is not infinity. */
CUZK_HD void EC(xyzz_dbl_affine)(EC_XYZZ *out, const EC_AFF *a)
{
    F_T u, v, w, s, m, x3, t;
    F_dbl(&u, &a->y);
    F_sqr(&v, &u);
    F_mul(&w, &u, &v);
    F_mul(&s, &a->x, &v);
    F_sqr(&m, &a->x);
    F_dbl(&t, &m);
    F_add(&m, &m, &t);
    F_sqr(&x3, &m);
    F_dbl(&t, &s);
    F_sub(&x3, &x3, &t);
    F_sub(&t, &s, &x3);
    F_mul_sub_mul(&out->y, &m, &t, &w, &a->y);
    out->x = x3;
    out->zz = v;
    out->zzz = w;
}

/* dbl-2008-s-1, a = 0: 6M + 3S; as mdbl-2008-s, then ZZ3 = V ZZ1,
 * ZZZ3 = W ZZZ1. */
CUZK_HD void EC(xyzz_dbl)(EC_XYZZ *out, const EC_XYZZ *p)
{
    if (EC(xyzz_is_inf)(p)) {
        *out = *p;
        return;
    }
    F_T u, v, w, s, m, x3, t;
    F_dbl(&u, &p->y);
    F_sqr(&v, &u);
    F_mul(&w, &u, &v);
    F_mul(&s, &p->x, &v);
    F_sqr(&m, &p->x);
    F_dbl(&t, &m);
    F_add(&m, &m, &t);
    F_sqr(&x3, &m);
    F_dbl(&t, &s);
    F_sub(&x3, &x3, &t);
    F_sub(&t, &s, &x3);
    F_mul_sub_mul(&out->y, &m, &t, &w, &p->y);
    out->x = x3;
    F_mul(&out->zz, &v, &p->zz);
    F_mul(&out->zzz, &w, &p->zzz);
}

/* out = p + a, madd-2008-s: 8M + 2S. P = U2 - X1, R = S2 - Y1 with
 * U2 = x ZZ1, S2 = y ZZZ1; P = 0 means a = +-p: mdbl-2008-s or infinity.
 * a = (0, 0) (infinity: snarkjs keys hold such bases) leaves p. */
CUZK_HD void EC(xyzz_add_affine)(EC_XYZZ *out, const EC_XYZZ *p, const EC_AFF *a)
{
    if (EC(affine_is_inf)(a)) {
        *out = *p;
        return;
    }
    if (EC(xyzz_is_inf)(p)) {
        EC(xyzz_from_affine)(out, a);
        return;
    }
    F_T u2, s2, pp, ppp, q, r, x3, t;
#if CUZK_EC_PAIR
    F_mul_pair(&u2, &a->x, &p->zz, &s2, &a->y, &p->zzz);
#else
    F_mul(&u2, &a->x, &p->zz);
    F_mul(&s2, &a->y, &p->zzz);
#endif
    F_sub(&u2, &u2, &p->x); /* P */
    F_sub(&r, &s2, &p->y);  /* R */
    if (F_is_zero(&u2)) {
        if (F_is_zero(&r))
            EC(xyzz_dbl_affine)(out, a);
        else
            EC(xyzz_set_inf)(out);
        return;
    }
#if CUZK_EC_LEAN
    /* The same products in an order that keeps at most four values live
     * (R, PP, PPP, Q), each result stored as soon as its inputs are done
     * with: out may be p, and every coordinate of p is read for the last
     * time before out's is written. */
    F_sqr(&pp, &u2);
    F_mul(&ppp, &u2, &pp);
    F_mul(&q, &p->x, &pp);
    F_mul(&out->zz, &p->zz, &pp);
    F_mul(&out->zzz, &p->zzz, &ppp);
    F_mul(&t, &p->y, &ppp);
    out->y = t; /* Y1 PPP, until the end */
    F_sqr(&x3, &r);
    F_sub(&x3, &x3, &ppp);
    F_dbl(&t, &q);
    F_sub(&x3, &x3, &t);
    out->x = x3;
    F_sub(&q, &q, &x3);
    F_mul(&t, &r, &q);
    F_sub(&out->y, &t, &out->y); /* R (Q - X3) - Y1 PPP */
    return;
#endif
#if CUZK_EC_PAIR
    F_sqr_pair(&pp, &u2, &x3, &r);
    F_mul_pair(&ppp, &u2, &pp, &q, &p->x, &pp);
#else
    F_sqr(&pp, &u2);
    F_mul(&ppp, &u2, &pp);
    F_mul(&q, &p->x, &pp);
    F_sqr(&x3, &r);
#endif
    F_sub(&x3, &x3, &ppp);
    F_dbl(&t, &q);
    F_sub(&x3, &x3, &t);
    F_sub(&q, &q, &x3);
    F_mul_sub_mul(&out->y, &r, &q, &p->y, &ppp); /* R (Q - X3) - Y1 PPP */
    out->x = x3;
#if CUZK_EC_PAIR
    F_mul_pair(&out->zz, &p->zz, &pp, &out->zzz, &p->zzz, &ppp);
#else
    F_mul(&out->zz, &p->zz, &pp);
    F_mul(&out->zzz, &p->zzz, &ppp);
#endif
}

#ifdef F_mul_pair_lz
/* xyzz_add_affine with p's and out's coordinates in [0, 2q) for the field's
 * modulus q (field.cuh's lazy forms): no product ends with its conditional
 * subtraction. zz is 0 only at infinity (set there; a product of nonzero
 * values is never 0 or q), so xyzz_is_inf holds as it is; P and R are zero
 * at 0 or q. a is reduced, as are the doubling's and infinity's results. */
CUZK_HD void EC(xyzz_add_affine_lz)(EC_XYZZ *out, const EC_XYZZ *p, const EC_AFF *a)
{
    if (EC(affine_is_inf)(a)) {
        *out = *p;
        return;
    }
    if (EC(xyzz_is_inf)(p)) {
        EC(xyzz_from_affine)(out, a);
        return;
    }
    F_T u2, s2, pp, ppp, q, r, x3, t;
    F_mul_pair_lz(&u2, &a->x, &p->zz, &s2, &a->y, &p->zzz);
    F_sub_lz(&u2, &u2, &p->x); /* P */
    F_sub_lz(&r, &s2, &p->y);  /* R */
    if (F_is_zero_lz(&u2)) {
        if (F_is_zero_lz(&r))
            EC(xyzz_dbl_affine)(out, a);
        else
            EC(xyzz_set_inf)(out);
        return;
    }
    F_sqr_pair_lz(&pp, &u2, &x3, &r);
    F_mul_pair_lz(&ppp, &u2, &pp, &q, &p->x, &pp);
    F_sub_lz(&x3, &x3, &ppp);
    F_dbl_lz(&t, &q);
    F_sub_lz(&x3, &x3, &t);
    F_sub_lz(&q, &q, &x3);
#ifdef F_mul_sub_mul_lz
    F_mul_sub_mul_lz(&out->y, &r, &q, &p->y, &ppp); /* R (Q - X3) - Y1 PPP */
#else
    F_mul_pair_lz(&t, &r, &q, &s2, &p->y, &ppp);
    F_sub_lz(&out->y, &t, &s2); /* R (Q - X3) - Y1 PPP */
#endif
    out->x = x3;
    F_mul_pair_lz(&out->zz, &p->zz, &pp, &out->zzz, &p->zzz, &ppp);
}

/* Every coordinate from [0, 2q) to [0, q). */
CUZK_HD void EC(xyzz_canon)(EC_XYZZ *out, const EC_XYZZ *p)
{
    F_canon(&out->x, &p->x);
    F_canon(&out->y, &p->y);
    F_canon(&out->zz, &p->zz);
    F_canon(&out->zzz, &p->zzz);
}
#endif

/* out = p + q, add-2008-s: 12M + 2S. */
CUZK_HD void EC(xyzz_add)(EC_XYZZ *out, const EC_XYZZ *p, const EC_XYZZ *q)
{
    if (EC(xyzz_is_inf)(q)) {
        *out = *p;
        return;
    }
    if (EC(xyzz_is_inf)(p)) {
        *out = *q;
        return;
    }
    F_T u1, u2, s1, s2, pp, ppp, v, x3, t, zz, zzz;
    F_mul(&u1, &p->x, &q->zz);
    F_mul(&u2, &q->x, &p->zz);
    F_mul(&s1, &p->y, &q->zzz);
    F_mul(&s2, &q->y, &p->zzz);
    F_sub(&u2, &u2, &u1); /* P */
    F_sub(&s2, &s2, &s1); /* R */
    if (F_is_zero(&u2)) {
        if (F_is_zero(&s2))
            EC(xyzz_dbl)(out, p);
        else
            EC(xyzz_set_inf)(out);
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
    F_mul(&zz, &p->zz, &q->zz);
    F_mul(&zzz, &p->zzz, &q->zzz);
    F_mul_sub_mul(&out->y, &s2, &v, &s1, &ppp); /* R (Q - X3) - S1 PPP */
    out->x = x3;
    F_mul(&out->zz, &zz, &pp);
    F_mul(&out->zzz, &zzz, &ppp);
}

/* Jacobian (X ZZ, Y ZZZ, ZZ): x = X ZZ / ZZ^2 and y = Y ZZZ / ZZ^3 = Y / ZZZ
 * as ZZ^3 = ZZZ^2. 2M. Infinity becomes (1, 1, 0). */
CUZK_HD void EC(xyzz_to_jac)(EC_JAC *out, const EC_XYZZ *p)
{
    if (EC(xyzz_is_inf)(p)) {
        EC(jac_set_inf)(out);
        return;
    }
    F_T zz = p->zz;
    F_mul(&out->x, &p->x, &zz);
    F_mul(&out->y, &p->y, &p->zzz);
    out->z = zz;
}
