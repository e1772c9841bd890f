/* UInt32 (BP:src/gadgets/uint32.rs) and MultiEq (BP:src/gadgets/multieq.rs).
 *
 * Constant-ness comes from the bits: bellperson returns a constant from
 * addmany when every operand bit is constant and the sum's value is known.
 * With values (the prover, which the published counts describe) the value
 * of all-constant operands is always known, so "every bit constant" is the
 * rule here in every mode: the count and record back ends emit what the
 * prover emits. */
#include <string.h>

#include "cuzk/cs_uint32.h"

#include "cs_internal.h"
#include "field/fr_inline.h"

/* Fr::CAPACITY for BLS12-381 (NUM_BITS - 1). */
#define CS_FR_CAPACITY 254u

void cs_multieq_init(cs_multieq_t *me, cs_t *cs)
{
    me->cs = cs;
    me->lhs = cs_lc_get(cs);
    me->rhs = cs_lc_get(cs);
    me->bits_used = 0;
    me->ops = 0;
}

/* MultiEq::accumulate: lhs * ONE = rhs, then start over. */
static void multieq_flush(cs_multieq_t *me)
{
    cs_t *cs = me->cs;
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_ns_push(cs, "multieq", (int64_t)me->ops);
    cs_enforce(cs, me->lhs, b, me->rhs);
    cs_ns_pop(cs);
    me->lhs->n = 0;
    me->rhs->n = 0;
    me->bits_used = 0;
    me->ops++;
}

void cs_multieq_finish(cs_multieq_t *me)
{
    if (me->bits_used > 0)
        multieq_flush(me);
    cs_lc_put(me->cs, me->lhs);
    cs_lc_put(me->cs, me->rhs);
    me->lhs = me->rhs = NULL;
}

void cs_multieq_enforce_equal(cs_multieq_t *me, unsigned num_bits, const cs_lc_t *lhs,
                              const cs_lc_t *rhs)
{
    cs_t *cs = me->cs;
    if (CS_FR_CAPACITY <= me->bits_used + num_bits)
        multieq_flush(me);
    if (CS_FR_CAPACITY <= me->bits_used + num_bits) {
        cs_fail(cs, CUZK_ERR_ARG, "multieq: an equality of %u bits does not fit", num_bits);
        return;
    }
    const fr_t *coeff = &cs->pow2[me->bits_used];
    cs_lc_add_lc(cs, me->lhs, lhs, coeff);
    cs_lc_add_lc(cs, me->rhs, rhs, coeff);
    me->bits_used += num_bits;
}

/* The offset the next equality of num_bits will be packed at (0 when it
 * flushes first), so that addmany can build its combinations with
 * 2^(offset + i) directly instead of scaling them afterwards: the same
 * coefficients, as (coeff, lc) scales the merged ones. */
static unsigned multieq_next_offset(const cs_multieq_t *me, unsigned num_bits)
{
    return CS_FR_CAPACITY <= me->bits_used + num_bits ? 0 : me->bits_used;
}

/* enforce_equal for combinations already scaled by 2^offset. */
static void multieq_enforce_scaled(cs_multieq_t *me, unsigned num_bits, const cs_lc_t *lhs,
                                   const cs_lc_t *rhs)
{
    cs_t *cs = me->cs;
    if (CS_FR_CAPACITY <= me->bits_used + num_bits)
        multieq_flush(me);
    cs_lc_add_lc(cs, me->lhs, lhs, NULL);
    cs_lc_add_lc(cs, me->rhs, rhs, NULL);
    me->bits_used += num_bits;
}

void cs_u32_const(cs_u32_t *out, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = cs_bool_const((int)((value >> i) & 1));
}

void cs_u32_alloc(cs_u32_t *out, cs_t *cs, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++) {
        cs_ns_push(cs, "allocated bit", i);
        out->bits[i] = cs_bit_alloc(cs, (int)((value >> i) & 1));
        cs_ns_pop(cs);
    }
}

uint32_t cs_u32_value(const cs_u32_t *x)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)(x->bits[i].value & 1) << i;
    return v;
}

int cs_u32_is_const(const cs_u32_t *x)
{
    for (unsigned i = 0; i < 32; i++)
        if (x->bits[i].kind != CS_BOOL_CONST)
            return 0;
    return 1;
}

void cs_u32_from_bits_be(cs_u32_t *out, const cs_bool_t bits[32])
{
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = bits[31 - i];
}

void cs_u32_into_bits_be(cs_bool_t out[32], const cs_u32_t *x)
{
    for (unsigned i = 0; i < 32; i++)
        out[i] = x->bits[31 - i];
}

void cs_u32_rotr(cs_u32_t *out, const cs_u32_t *x, unsigned by)
{
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = x->bits[(i + by) % 32];
}

void cs_u32_shr(cs_u32_t *out, const cs_u32_t *x, unsigned by)
{
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = i + by < 32 ? x->bits[i + by] : cs_bool_const(0);
}

void cs_u32_xor(cs_u32_t *out, cs_t *cs, const cs_u32_t *a, const cs_u32_t *b)
{
    for (unsigned i = 0; i < 32; i++) {
        cs_ns_push(cs, "xor of bit", i);
        out->bits[i] = cs_bool_xor(cs, &a->bits[i], &b->bits[i]);
        cs_ns_pop(cs);
    }
}

void cs_u32_sha256_ch(cs_u32_t *out, cs_t *cs, const cs_u32_t *a, const cs_u32_t *b,
                      const cs_u32_t *c)
{
    for (unsigned i = 0; i < 32; i++) {
        cs_ns_push(cs, "ch", i);
        out->bits[i] = cs_bool_sha256_ch(cs, &a->bits[i], &b->bits[i], &c->bits[i]);
        cs_ns_pop(cs);
    }
}

void cs_u32_sha256_maj(cs_u32_t *out, cs_t *cs, const cs_u32_t *a, const cs_u32_t *b,
                       const cs_u32_t *c)
{
    for (unsigned i = 0; i < 32; i++) {
        cs_ns_push(cs, "maj", i);
        out->bits[i] = cs_bool_sha256_maj(cs, &a->bits[i], &b->bits[i], &c->bits[i]);
        cs_ns_pop(cs);
    }
}

void cs_u32_addmany(cs_u32_t *out, cs_multieq_t *me, const cs_u32_t *const *ops, size_t n)
{
    cs_t *cs = me->cs;
    if (n < 2 || n > 10) {
        cs_fail(cs, CUZK_ERR_ARG, "addmany: %zu operands (2 to 10)", n);
        cs_u32_const(out, 0);
        return;
    }
    uint64_t sum = 0;
    int all_const = 1;
    for (size_t k = 0; k < n; k++) {
        sum += cs_u32_value(ops[k]);
        all_const &= cs_u32_is_const(ops[k]);
    }
    if (all_const) {
        cs_u32_const(out, (uint32_t)sum);
        return;
    }
    /* The operands' combination, built before the result bits exist (it
     * reads the operands, which out may alias). */
    uint64_t max_value = (uint64_t)n * UINT32_MAX;
    unsigned width = 0;
    while (max_value) {
        width++;
        max_value >>= 1;
    }
    unsigned off = multieq_next_offset(me, width);
    cs_lc_t *lhs = cs_lc_get(cs);
    /* Boolean::lc of every operand bit; the ONE terms (constant true and
     * Not bits) are summed here and pushed once, which is the merge the
     * combination would do anyway (ONE is present iff some bit put it). */
    fr_t one_coeff = FR_ZERO;
    int one_present = 0;
    for (size_t k = 0; k < n; k++)
        for (unsigned i = 0; i < 32; i++) {
            const cs_bool_t *b = &ops[k]->bits[i];
            if (b->kind == CS_BOOL_IS) {
                cs_lc_push_(cs, lhs, b->var, &cs->pow2[off + i]);
                continue;
            }
            if (b->kind == CS_BOOL_CONST && !b->value)
                continue;
            fr_add_inl(&one_coeff, &one_coeff, &cs->pow2[off + i]);
            one_present = 1;
            if (b->kind == CS_BOOL_NOT)
                cs_lc_push_(cs, lhs, b->var, &cs->neg_pow2[off + i]);
        }
    if (one_present)
        cs_lc_push_(cs, lhs, CS_ONE, &one_coeff);
    cs_lc_t *rhs = cs_lc_get(cs);
    cs_bool_t low[32];
    for (unsigned i = 0; i < width; i++) {
        cs_ns_push(cs, "result bit", i);
        cs_bool_t b = cs_bit_alloc(cs, (int)((sum >> i) & 1));
        cs_ns_pop(cs);
        cs_lc_push_(cs, rhs, b.var, &cs->pow2[off + i]);
        if (i < 32)
            low[i] = b;
    }
    multieq_enforce_scaled(me, width, lhs, rhs);
    cs_lc_put(cs, lhs);
    cs_lc_put(cs, rhs);
    memcpy(out->bits, low, sizeof low);
}
