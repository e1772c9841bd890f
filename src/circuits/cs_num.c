/* AllocatedNum and Num (BPC:src/gadgets/num.rs), and rust-fil-proofs'
 * equal / add / sub (RFP:storage-proofs-core/src/gadgets/constraint.rs). */
#include "cuzk/cs_num.h"

#include "cs_internal.h"

static cs_num_t num_of(cs_var_t v, const fr_t *value)
{
    cs_num_t r;
    r.var = v;
    r.value = value ? *value : FR_ZERO;
    return r;
}

cs_num_t cs_num_alloc(cs_t *cs, const fr_t *value)
{
    const fr_t *v = cs->values ? value : NULL;
    return num_of(cs_alloc(cs, v), v);
}

cs_num_t cs_num_alloc_input(cs_t *cs, const fr_t *value)
{
    const fr_t *v = cs->values ? value : NULL;
    return num_of(cs_alloc_input(cs, v), v);
}

void cs_num_inputize(cs_t *cs, const cs_num_t *x)
{
    cs_var_t in = cs_alloc_input(cs, &x->value);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, a, in, &FR_ONE);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, c, x->var, &FR_ONE);
    cs_enforce(cs, a, b, c);
}

static void enforce_product(cs_t *cs, cs_var_t x, cs_var_t y, cs_var_t z)
{
    if (!cs_terms_needed_(cs)) { /* A: x, B: y */
        cs_enforce_known_(cs, &x, 1, &y, 1);
        return;
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, a, x, &FR_ONE);
    cs_lc_push_(cs, b, y, &FR_ONE);
    cs_lc_push_(cs, c, z, &FR_ONE);
    cs_enforce(cs, a, b, c);
}

cs_num_t cs_num_mul(cs_t *cs, const cs_num_t *x, const cs_num_t *y)
{
    fr_t p = FR_ZERO;
    if (cs->values)
        fr_mul(&p, &x->value, &y->value);
    cs_num_t r = num_of(cs_alloc(cs, &p), &p);
    enforce_product(cs, x->var, y->var, r.var);
    return r;
}

cs_num_t cs_num_square(cs_t *cs, const cs_num_t *x)
{
    fr_t p = FR_ZERO;
    if (cs->values)
        fr_sqr(&p, &x->value);
    cs_num_t r = num_of(cs_alloc(cs, &p), &p);
    enforce_product(cs, x->var, x->var, r.var);
    return r;
}

void cs_num_to_bits_le(cs_bool_t out[255], cs_t *cs, const cs_num_t *x)
{
    cs_bits_alloc_fr_le(out, cs, &x->value);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    /* 0 * 0 = sum 2^i b_i - x ("unpacking constraint") */
    for (unsigned i = 0; i < 255; i++)
        cs_lc_push_(cs, c, out[i].var, &cs->pow2[i]);
    cs_lc_push_(cs, c, x->var, &cs->minus_one);
    cs_enforce(cs, a, b, c);
}

void cs_num_equal(cs_t *cs, const cs_num_t *x, const cs_num_t *y)
{
    enforce_product(cs, x->var, CS_ONE, y->var);
}

cs_num_t cs_num_add(cs_t *cs, const cs_num_t *x, const cs_num_t *y)
{
    fr_t s = FR_ZERO;
    if (cs->values)
        fr_add(&s, &x->value, &y->value);
    cs_num_t r = num_of(cs_alloc(cs, &s), &s);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    /* (a + b) * 1 = sum */
    cs_lc_push_(cs, a, x->var, &FR_ONE);
    cs_lc_push_(cs, a, y->var, &FR_ONE);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, c, r.var, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return r;
}

cs_num_t cs_num_sub(cs_t *cs, const cs_num_t *x, const cs_num_t *y)
{
    fr_t d = FR_ZERO;
    if (cs->values)
        fr_sub(&d, &x->value, &y->value);
    cs_num_t r = num_of(cs_alloc(cs, &d), &d);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    /* (difference + b) * 1 = a */
    cs_lc_push_(cs, a, r.var, &FR_ONE);
    cs_lc_push_(cs, a, y->var, &FR_ONE);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, c, x->var, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return r;
}

/* ---- Num ---------------------------------------------------------------- */

void cs_lcnum_init(cs_lcnum_t *n, cs_t *cs)
{
    n->lc = cs_lc_get(cs);
    n->value = FR_ZERO;
}

void cs_lcnum_from_num(cs_lcnum_t *n, cs_t *cs, const cs_num_t *x)
{
    n->lc = cs_lc_get(cs);
    cs_lc_push_(cs, n->lc, x->var, &FR_ONE);
    n->value = cs->values ? x->value : FR_ZERO;
}

void cs_lcnum_release(cs_lcnum_t *n, cs_t *cs)
{
    cs_lc_put(cs, n->lc);
    n->lc = NULL;
}

void cs_lcnum_add_bool(cs_t *cs, cs_lcnum_t *n, const cs_bool_t *bit, const fr_t *coeff)
{
    if (cs->values && bit->value)
        fr_add(&n->value, &n->value, coeff ? coeff : &FR_ONE);
    cs_lc_add_bool(cs, n->lc, bit, coeff);
}

void cs_lcnum_add(cs_t *cs, cs_lcnum_t *n, const cs_lcnum_t *other)
{
    if (cs->values)
        fr_add(&n->value, &n->value, &other->value);
    cs_lc_add_lc(cs, n->lc, other->lc, NULL);
}

void cs_lcnum_scale(cs_t *cs, cs_lcnum_t *n, const fr_t *s)
{
    if (cs->values)
        fr_mul(&n->value, &n->value, s);
    cs_lc_scale(n->lc, s);
}

cs_num_t cs_lcnum_alloc(cs_t *cs, cs_lcnum_t *n)
{
    cs_num_t x = cs_num_alloc(cs, &n->value);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, c, x.var, &FR_ONE);
    cs_enforce(cs, n->lc, b, c);
    return x;
}
