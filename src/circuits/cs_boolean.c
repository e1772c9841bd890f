/* AllocatedBit and Boolean (BPC:src/gadgets/boolean.rs). Every short-cut
 * and every arm order below is bellpepper's; the comments give the arm. */
#include "cuzk/cs_boolean.h"

#include "cs_internal.h"

/* The value of the underlying bit of an allocated Boolean. */
static inline int bit_value(const cs_bool_t *b)
{
    return b->kind == CS_BOOL_NOT ? !b->value : b->value;
}

static inline cs_bool_t is_bit(cs_var_t v, int value)
{
    cs_bool_t r = {v, CS_BOOL_IS, (uint8_t)(value != 0)};
    return r;
}

cs_bool_t cs_bit_alloc(cs_t *cs, int value)
{
    value = value != 0;
    cs_var_t v = cs_alloc_bit(cs, value);
    if (!cs_terms_needed_(cs)) { /* A: ONE - v, B: v */
        cs_var_t av[1] = {v};
        cs_enforce_known_(cs, av, 1, av, 1);
        return is_bit(v, value);
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    /* (1 - a) * a = 0 */
    cs_lc_push_(cs, a, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, a, v, &cs->minus_one);
    cs_lc_push_(cs, b, v, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return is_bit(v, value);
}

cs_bool_t cs_bit_xor(cs_t *cs, const cs_bool_t *x, const cs_bool_t *y)
{
    int r = bit_value(x) ^ bit_value(y);
    cs_var_t v = cs_alloc_bit(cs, r);
    if (!cs_terms_needed_(cs)) { /* A: 2a, B: b */
        cs_enforce_known_(cs, &x->var, 1, &y->var, 1);
        return is_bit(v, r);
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    /* (a + a) * b = a + b - c; "a + a" is the single term 2a once merged */
    cs_lc_push_(cs, a, x->var, &cs->pow2[1]);
    cs_lc_push_(cs, b, y->var, &FR_ONE);
    cs_lc_push_(cs, c, x->var, &FR_ONE);
    cs_lc_push_(cs, c, y->var, &FR_ONE);
    cs_lc_push_(cs, c, v, &cs->minus_one);
    cs_enforce(cs, a, b, c);
    return is_bit(v, r);
}

cs_bool_t cs_bit_and(cs_t *cs, const cs_bool_t *x, const cs_bool_t *y)
{
    int r = bit_value(x) & bit_value(y);
    cs_var_t v = cs_alloc_bit(cs, r);
    if (!cs_terms_needed_(cs)) { /* A: a, B: b */
        cs_enforce_known_(cs, &x->var, 1, &y->var, 1);
        return is_bit(v, r);
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, a, x->var, &FR_ONE);
    cs_lc_push_(cs, b, y->var, &FR_ONE);
    cs_lc_push_(cs, c, v, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return is_bit(v, r);
}

cs_bool_t cs_bit_and_not(cs_t *cs, const cs_bool_t *x, const cs_bool_t *y)
{
    int r = bit_value(x) && !bit_value(y);
    cs_var_t v = cs_alloc_bit(cs, r);
    if (!cs_terms_needed_(cs)) { /* A: a, B: ONE - b */
        cs_var_t bv[2] = {CS_ONE, y->var};
        cs_enforce_known_(cs, &x->var, 1, bv, 2);
        return is_bit(v, r);
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, a, x->var, &FR_ONE);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, b, y->var, &cs->minus_one);
    cs_lc_push_(cs, c, v, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return is_bit(v, r);
}

cs_bool_t cs_bit_nor(cs_t *cs, const cs_bool_t *x, const cs_bool_t *y)
{
    int r = !bit_value(x) && !bit_value(y);
    cs_var_t v = cs_alloc_bit(cs, r);
    if (!cs_terms_needed_(cs)) { /* A: ONE - a, B: ONE - b */
        cs_var_t bv[2] = {CS_ONE, y->var};
        cs_enforce_known_(cs, &x->var, 1, bv, 2);
        return is_bit(v, r);
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, a, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, a, x->var, &cs->minus_one);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, b, y->var, &cs->minus_one);
    cs_lc_push_(cs, c, v, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return is_bit(v, r);
}

cs_bool_t cs_bool_xor(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b)
{
    /* (Constant(false), x) | (x, Constant(false)) => x */
    if (a->kind == CS_BOOL_CONST && !a->value)
        return *b;
    if (b->kind == CS_BOOL_CONST && !b->value)
        return *a;
    /* (Constant(true), x) | (x, Constant(true)) => !x */
    if (a->kind == CS_BOOL_CONST)
        return cs_bool_not(b);
    if (b->kind == CS_BOOL_CONST)
        return cs_bool_not(a);
    /* Is/Not mixed: xor(is, !not) negated, the Is side first */
    if (a->kind != b->kind) {
        const cs_bool_t *is = a->kind == CS_BOOL_IS ? a : b;
        const cs_bool_t *neg = a->kind == CS_BOOL_IS ? b : a;
        cs_bool_t r = cs_bit_xor(cs, is, neg);
        return cs_bool_not(&r);
    }
    /* Is/Is, Not/Not: a xor b = (not a) xor (not b) */
    return cs_bit_xor(cs, a, b);
}

cs_bool_t cs_bool_and(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b)
{
    /* (Constant(false), _) | (_, Constant(false)) => false */
    if ((a->kind == CS_BOOL_CONST && !a->value) || (b->kind == CS_BOOL_CONST && !b->value))
        return cs_bool_const(0);
    /* (Constant(true), x) | (x, Constant(true)) => x */
    if (a->kind == CS_BOOL_CONST)
        return *b;
    if (b->kind == CS_BOOL_CONST)
        return *a;
    /* (Is, Not) | (Not, Is) => and_not(is, not) */
    if (a->kind != b->kind) {
        const cs_bool_t *is = a->kind == CS_BOOL_IS ? a : b;
        const cs_bool_t *neg = a->kind == CS_BOOL_IS ? b : a;
        return cs_bit_and_not(cs, is, neg);
    }
    if (a->kind == CS_BOOL_NOT)
        return cs_bit_nor(cs, a, b);
    return cs_bit_and(cs, a, b);
}

void cs_lc_add_bool(cs_t *cs, cs_lc_t *lc, const cs_bool_t *b, const fr_t *coeff)
{
    const fr_t *k = coeff ? coeff : &FR_ONE;
    switch (b->kind) {
    case CS_BOOL_CONST:
        if (b->value)
            cs_lc_push_(cs, lc, CS_ONE, k);
        break;
    case CS_BOOL_IS: cs_lc_push_(cs, lc, b->var, k); break;
    default: {
        fr_t neg;
        if (coeff)
            fr_neg(&neg, coeff);
        else
            neg = cs->minus_one;
        cs_lc_push_(cs, lc, CS_ONE, k);
        cs_lc_push_(cs, lc, b->var, &neg);
    }
    }
}

static inline int all_allocated(const cs_bool_t *a, const cs_bool_t *b, const cs_bool_t *c)
{
    return a->kind != CS_BOOL_CONST && b->kind != CS_BOOL_CONST && c->kind != CS_BOOL_CONST;
}

cs_bool_t cs_bool_sha256_ch(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b, const cs_bool_t *c)
{
    int value = (a->value & b->value) ^ ((!a->value) & c->value);
    if (a->kind == CS_BOOL_CONST && b->kind == CS_BOOL_CONST && c->kind == CS_BOOL_CONST)
        return cs_bool_const(value);
    if (a->kind == CS_BOOL_CONST && !a->value) /* a = F: c */
        return *c;
    if (b->kind == CS_BOOL_CONST && !b->value) { /* b = F: (not a) and c */
        cs_bool_t na = cs_bool_not(a);
        return cs_bool_and(cs, &na, c);
    }
    if (c->kind == CS_BOOL_CONST && !c->value) /* c = F: a and b */
        return cs_bool_and(cs, a, b);
    if (c->kind == CS_BOOL_CONST) { /* c = T: not (a and (not b)) */
        cs_bool_t nb = cs_bool_not(b);
        cs_bool_t r = cs_bool_and(cs, a, &nb);
        return cs_bool_not(&r);
    }
    if (b->kind == CS_BOOL_CONST) { /* b = T: not ((not a) and (not c)) */
        cs_bool_t na = cs_bool_not(a), nc = cs_bool_not(c);
        cs_bool_t r = cs_bool_and(cs, &na, &nc);
        return cs_bool_not(&r);
    }
    /* a = T falls through to the general case, as does all-allocated */
    cs_var_t ch = cs_alloc_bit(cs, value);
    cs_lc_t *la, *lb, *lc;
    cs_enforce_begin(cs, &la, &lb, &lc);
    /* a(b - c) = ch - c, written (b - c) * a = ch - c */
    cs_lc_add_bool(cs, la, b, NULL);
    cs_lc_add_bool(cs, la, c, &cs->minus_one);
    cs_lc_add_bool(cs, lb, a, NULL);
    cs_lc_push_(cs, lc, ch, &FR_ONE);
    cs_lc_add_bool(cs, lc, c, &cs->minus_one);
    cs_enforce(cs, la, lb, lc);
    return is_bit(ch, value);
}

cs_bool_t cs_bool_sha256_maj(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b, const cs_bool_t *c)
{
    int value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    if (a->kind == CS_BOOL_CONST && b->kind == CS_BOOL_CONST && c->kind == CS_BOOL_CONST)
        return cs_bool_const(value);
    if (a->kind == CS_BOOL_CONST && !a->value) /* a = F: b and c */
        return cs_bool_and(cs, b, c);
    if (b->kind == CS_BOOL_CONST && !b->value) /* b = F: a and c */
        return cs_bool_and(cs, a, c);
    if (c->kind == CS_BOOL_CONST && !c->value) /* c = F: a and b */
        return cs_bool_and(cs, a, b);
    if (c->kind == CS_BOOL_CONST) { /* c = T: not ((not a) and (not b)) */
        cs_bool_t na = cs_bool_not(a), nb = cs_bool_not(b);
        cs_bool_t r = cs_bool_and(cs, &na, &nb);
        return cs_bool_not(&r);
    }
    if (b->kind == CS_BOOL_CONST) { /* b = T: not ((not a) and (not c)) */
        cs_bool_t na = cs_bool_not(a), nc = cs_bool_not(c);
        cs_bool_t r = cs_bool_and(cs, &na, &nc);
        return cs_bool_not(&r);
    }
    if (a->kind == CS_BOOL_CONST) { /* a = T: not ((not b) and (not c)) */
        cs_bool_t nb = cs_bool_not(b), nc = cs_bool_not(c);
        cs_bool_t r = cs_bool_and(cs, &nb, &nc);
        return cs_bool_not(&r);
    }
    CUZK_ASSERT(all_allocated(a, b, c));
    /* maj is allocated first, then b and c (its own alloc and constraint) */
    cs_var_t maj = cs_alloc_bit(cs, value);
    cs_ns_push(cs, "b and c", -1);
    cs_bool_t bc = cs_bool_and(cs, b, c);
    cs_ns_pop(cs);
    cs_lc_t *la, *lb, *lc;
    cs_enforce_begin(cs, &la, &lb, &lc);
    /* (2bc - b - c) * a = bc - maj */
    cs_lc_add_bool(cs, la, &bc, NULL);
    cs_lc_add_bool(cs, la, &bc, NULL);
    cs_lc_add_bool(cs, la, b, &cs->minus_one);
    cs_lc_add_bool(cs, la, c, &cs->minus_one);
    cs_lc_add_bool(cs, lb, a, NULL);
    cs_lc_add_bool(cs, lc, &bc, NULL);
    cs_lc_push_(cs, lc, maj, &cs->minus_one);
    cs_enforce(cs, la, lb, lc);
    return is_bit(maj, value);
}

void cs_bool_enforce_equal(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b)
{
    if (a->kind == CS_BOOL_CONST && b->kind == CS_BOOL_CONST) {
        if (a->value != b->value)
            cs_fail(cs, CUZK_ERR_ARG, "enforce_equal of two different constants");
        return;
    }
    cs_lc_t *la, *lb, *lc;
    cs_enforce_begin(cs, &la, &lb, &lc);
    if ((a->kind == CS_BOOL_CONST && a->value) || (b->kind == CS_BOOL_CONST && b->value)) {
        /* 0 * 0 = ONE - x */
        const cs_bool_t *x = a->kind == CS_BOOL_CONST && a->value ? b : a;
        cs_lc_push_(cs, lc, CS_ONE, &FR_ONE);
        cs_lc_add_bool(cs, lc, x, &cs->minus_one);
    } else if (a->kind == CS_BOOL_CONST || b->kind == CS_BOOL_CONST) {
        /* 0 * 0 = x */
        const cs_bool_t *x = a->kind == CS_BOOL_CONST ? b : a;
        cs_lc_add_bool(cs, lc, x, NULL);
    } else {
        cs_lc_add_bool(cs, lc, a, NULL);
        cs_lc_add_bool(cs, lc, b, &cs->minus_one);
    }
    cs_enforce(cs, la, lb, lc);
}

void cs_bits_alloc_fr_le(cs_bool_t out[255], cs_t *cs, const fr_t *x)
{
    uint64_t limbs[FR_LIMBS] = {0, 0, 0, 0};
    if (cs->values)
        fr_to_limbs(limbs, x);
    for (unsigned i = 0; i < 255; i++)
        out[i] = cs_bit_alloc(cs, (int)((limbs[i / 64] >> (i % 64)) & 1));
}

void cs_bits_alloc_u64_le(cs_bool_t out[64], cs_t *cs, uint64_t x)
{
    for (unsigned i = 0; i < 64; i++)
        out[i] = cs_bit_alloc(cs, (int)((x >> i) & 1));
}

void cs_bits_alloc_bytes_le(cs_bool_t *out, cs_t *cs, const uint8_t *bytes, size_t len)
{
    for (size_t i = 0; i < 8 * len; i++)
        out[i] = cs_bit_alloc(cs, cs->values ? (bytes[i / 8] >> (i % 8)) & 1 : 0);
}

size_t cs_bits_reverse_in_bytes(cs_bool_t *out, const cs_bool_t *in, size_t n)
{
    size_t padded = (n + 7) / 8 * 8;
    for (size_t i = 0; i < padded; i++) {
        size_t src = i / 8 * 8 + (7 - i % 8);
        out[i] = src < n ? in[src] : cs_bool_const(0);
    }
    return padded;
}
