/* pick, select and insertion (RFP:storage-proofs-core/src/gadgets/
 * insertion.rs), picks in the literal order of that file. */
#include <stdlib.h>

#include "cuzk/cs_insertion.h"

#include "cs_internal.h"

cs_num_t cs_pick(cs_t *cs, const cs_bool_t *cond, const cs_num_t *a, const cs_num_t *b)
{
    const fr_t *v = cond->value ? &a->value : &b->value;
    cs_num_t r = cs_num_alloc(cs, v);
    cs_lc_t *la, *lb, *lc;
    cs_enforce_begin(cs, &la, &lb, &lc);
    /* (b - a) * condition = (b - c) */
    cs_lc_push_(cs, la, b->var, &FR_ONE);
    cs_lc_push_(cs, la, a->var, &cs->minus_one);
    cs_lc_add_bool(cs, lb, cond, NULL);
    cs_lc_push_(cs, lc, b->var, &FR_ONE);
    cs_lc_push_(cs, lc, r.var, &cs->minus_one);
    cs_enforce(cs, la, lb, lc);
    return r;
}

/* The most elements a stack buffer holds (insert over arity 64). */
#define CS_INSERT_STACK 64

cs_num_t cs_select(cs_t *cs, const cs_num_t *from, const cs_bool_t *bits, size_t n_bits)
{
    cs_num_t zero = {CS_ONE, FR_ZERO};
    if (n_bits >= 31) {
        cs_fail(cs, CUZK_ERR_ARG, "select: %zu index bits", n_bits);
        return zero;
    }
    size_t n = (size_t)1 << n_bits;
    cs_num_t stack[CS_INSERT_STACK], *state = stack;
    if (n > CS_INSERT_STACK && !(state = malloc(n * sizeof *state))) {
        cs_fail(cs, CUZK_ERR_NOMEM, "select: out of memory");
        return zero;
    }
    for (size_t j = 0; j < n; j++)
        state[j] = from[j];
    size_t half = n / 2;
    /* the most significant bit first: bits reversed */
    for (size_t i = 0; i < n_bits; i++) {
        const cs_bool_t *bit = &bits[n_bits - 1 - i];
        cs_ns_push(cs, "select level", (int64_t)i);
        for (size_t j = 0; j < half; j++) {
            cs_ns_push(cs, "pick", (int64_t)j);
            state[j] = cs_pick(cs, bit, &state[half + j], &state[j]);
            cs_ns_pop(cs);
        }
        cs_ns_pop(cs);
        half /= 2;
    }
    cs_num_t r = state[0];
    if (state != stack)
        free(state);
    return r;
}

void cs_insert_2(cs_num_t out[2], cs_t *cs, const cs_num_t *element, const cs_bool_t bits[1],
                 const cs_num_t elements[1])
{
    cs_num_t p0 = cs_pick(cs, &bits[0], &elements[0], element);
    cs_num_t p1 = cs_pick(cs, &bits[0], element, &elements[0]);
    out[0] = p0;
    out[1] = p1;
}

void cs_insert_4(cs_num_t out[4], cs_t *cs, const cs_num_t *element, const cs_bool_t bits[2],
                 const cs_num_t elements[3])
{
    const cs_bool_t *b0 = &bits[0], *b1 = &bits[1];
    const cs_num_t *a = element, *b = &elements[0], *c = &elements[1], *d = &elements[2];
    cs_num_t p0_x0 = cs_pick(cs, b0, b, a);
    cs_num_t p0 = cs_pick(cs, b1, b, &p0_x0);
    cs_num_t p1_x0 = cs_pick(cs, b0, a, b);
    cs_num_t p1 = cs_pick(cs, b1, c, &p1_x0);
    cs_num_t p2_x1 = cs_pick(cs, b0, d, a);
    cs_num_t p2 = cs_pick(cs, b1, &p2_x1, c);
    cs_num_t p3_x1 = cs_pick(cs, b0, a, d);
    cs_num_t p3 = cs_pick(cs, b1, &p3_x1, d);
    out[0] = p0;
    out[1] = p1;
    out[2] = p2;
    out[3] = p3;
}

void cs_insert_8(cs_num_t out[8], cs_t *cs, const cs_num_t *element, const cs_bool_t bits[3],
                 const cs_num_t elements[7])
{
    const cs_bool_t *b0 = &bits[0], *b1 = &bits[1], *b2 = &bits[2];
    if (b0->kind != CS_BOOL_IS || b1->kind != CS_BOOL_IS) {
        cs_fail(cs, CUZK_ERR_ARG, "insert_8: bits must be allocated and unnegated");
        for (int i = 0; i < 8; i++)
            out[i] = i == 0 ? *element : elements[i - 1];
        return;
    }
    const cs_num_t *a = element, *b = &elements[0], *c = &elements[1], *d = &elements[2],
                   *e = &elements[3], *f = &elements[4], *g = &elements[5], *h = &elements[6];
    cs_ns_push(cs, "b0 nor b1", -1);
    cs_bool_t nor = cs_bit_nor(cs, b0, b1);
    cs_ns_pop(cs);
    cs_ns_push(cs, "b0 and b1", -1);
    cs_bool_t and = cs_bit_and(cs, b0, b1);
    cs_ns_pop(cs);

    cs_num_t p0_xx0 = cs_pick(cs, &nor, a, b);
    cs_num_t p0 = cs_pick(cs, b2, b, &p0_xx0);

    cs_num_t p1_x00 = cs_pick(cs, b0, a, b);
    cs_num_t p1_xx0 = cs_pick(cs, b1, c, &p1_x00);
    cs_num_t p1 = cs_pick(cs, b2, c, &p1_xx0);

    cs_num_t p2_x10 = cs_pick(cs, b0, d, a);
    cs_num_t p2_xx0 = cs_pick(cs, b1, &p2_x10, c);
    cs_num_t p2 = cs_pick(cs, b2, d, &p2_xx0);

    cs_num_t p3_xx0 = cs_pick(cs, &and, a, d);
    cs_num_t p3 = cs_pick(cs, b2, e, &p3_xx0);

    cs_num_t p4_xx1 = cs_pick(cs, &nor, a, f);
    cs_num_t p4 = cs_pick(cs, b2, &p4_xx1, e);

    cs_num_t p5_x01 = cs_pick(cs, b0, a, f);
    cs_num_t p5_xx1 = cs_pick(cs, b1, g, &p5_x01);
    cs_num_t p5 = cs_pick(cs, b2, &p5_xx1, f);

    cs_num_t p6_x11 = cs_pick(cs, b0, h, a);
    cs_num_t p6_xx1 = cs_pick(cs, b1, &p6_x11, g);
    cs_num_t p6 = cs_pick(cs, b2, &p6_xx1, g);

    cs_num_t p7_xx1 = cs_pick(cs, &and, a, h);
    cs_num_t p7 = cs_pick(cs, b2, &p7_xx1, h);

    out[0] = p0;
    out[1] = p1;
    out[2] = p2;
    out[3] = p3;
    out[4] = p4;
    out[5] = p5;
    out[6] = p6;
    out[7] = p7;
}

void cs_insert(cs_num_t *out, cs_t *cs, const cs_num_t *element, const cs_bool_t *bits,
               size_t n_bits, const cs_num_t *elements)
{
    switch (n_bits) {
    case 1: cs_insert_2(out, cs, element, bits, elements); return;
    case 2: cs_insert_4(out, cs, element, bits, elements); return;
    case 3: cs_insert_8(out, cs, element, bits, elements); return;
    default: break;
    }
    if (n_bits == 0) { /* one position: the general case picks nothing */
        out[0] = *element;
        return;
    }
    if (n_bits > 16) {
        cs_fail(cs, CUZK_ERR_ARG, "insert: %zu index bits", n_bits);
        return;
    }
    /* The general case: position pos of the result is, for insertion index
     * k, elements[pos] (pos < k), element (pos = k) or elements[pos - 1];
     * select among those by the bits. */
    size_t size = (size_t)1 << n_bits;
    cs_num_t *choices = malloc(size * sizeof *choices);
    if (!choices) {
        cs_fail(cs, CUZK_ERR_NOMEM, "insert: out of memory");
        return;
    }
    for (size_t pos = 0; pos < size; pos++) {
        for (size_t k = 0; k < size; k++)
            choices[k] = pos < k ? elements[pos] : pos == k ? *element : elements[pos - 1];
        cs_ns_push(cs, "choice at", (int64_t)pos);
        out[pos] = cs_select(cs, choices, bits, n_bits);
        cs_ns_pop(cs);
    }
    free(choices);
}
