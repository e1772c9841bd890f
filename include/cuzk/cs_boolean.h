/* Booleans as bellpepper-core has them (BPC:src/gadgets/boolean.rs):
 * AllocatedBit (a variable constrained to 0 or 1) and Boolean with its three
 * states, Constant, Is (the bit) and Not (one minus the bit). The states are
 * part of the circuit: constants cost nothing, and every operation takes
 * bellpepper's short-cut for them in bellpepper's arm order, because that
 * decides which constraints exist.
 *
 * A cs_bool_t of kind CS_BOOL_IS is also an AllocatedBit (the cs_bit_*
 * functions take two of them). `value` is the Boolean's value (for Not, the
 * negation of the bit's), meaningful for constants always and for allocated
 * states only when cs_has_values(cs).
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). */
#ifndef CUZK_CS_BOOLEAN_H
#define CUZK_CS_BOOLEAN_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cs_bool_kind {
    CS_BOOL_CONST = 0, /* Boolean::Constant(value) */
    CS_BOOL_IS = 1,    /* Boolean::Is(bit): value = bit */
    CS_BOOL_NOT = 2    /* Boolean::Not(bit): value = !bit */
} cs_bool_kind;

typedef struct cs_bool {
    cs_var_t var; /* the bit's variable (IS, NOT) */
    uint8_t kind; /* cs_bool_kind */
    uint8_t value;
} cs_bool_t;

static inline cs_bool_t cs_bool_const(int value)
{
    cs_bool_t b = {CS_ONE, CS_BOOL_CONST, (uint8_t)(value != 0)};
    return b;
}

static inline int cs_bool_is_const(const cs_bool_t *b)
{
    return b->kind == CS_BOOL_CONST;
}

/* Boolean::not: free. */
static inline cs_bool_t cs_bool_not(const cs_bool_t *b)
{
    cs_bool_t r = *b;
    r.value ^= 1;
    if (b->kind != CS_BOOL_CONST)
        r.kind = b->kind == CS_BOOL_IS ? CS_BOOL_NOT : CS_BOOL_IS;
    return r;
}

/* AllocatedBit::alloc: alloc b; (ONE - b) * b = 0. 1 constraint, 1 aux. */
cs_bool_t cs_bit_alloc(cs_t *cs, int value);

/* The AllocatedBit operations (a and b must be of kind CS_BOOL_IS; their
 * order matters: xor's constraint is not symmetric). Each: 1 constraint,
 * 1 aux, result of kind CS_BOOL_IS.
 *   xor:     alloc r; (a + a) * b = a + b - r
 *   and:     alloc r; a * b = r
 *   and_not: alloc r; a * (ONE - b) = r
 *   nor:     alloc r; (ONE - a) * (ONE - b) = r */
cs_bool_t cs_bit_xor(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);
cs_bool_t cs_bit_and(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);
cs_bool_t cs_bit_and_not(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);
cs_bool_t cs_bit_nor(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);

/* Boolean::xor / Boolean::and with their short-cuts (free when either side
 * is constant; Is/Not pairs map to xor-then-not, and_not, nor). */
cs_bool_t cs_bool_xor(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);
cs_bool_t cs_bool_and(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);

/* Boolean::sha256_ch = (a and b) xor ((not a) and c), and
 * Boolean::sha256_maj = (a and b) xor (a and c) xor (b and c), with
 * bellpepper's constant arms in order; general cases 1/1 and 2/2. */
cs_bool_t cs_bool_sha256_ch(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b, const cs_bool_t *c);
cs_bool_t cs_bool_sha256_maj(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b, const cs_bool_t *c);

/* Boolean::enforce_equal: nothing for two equal constants (an error for two
 * different ones), else one constraint 0 * 0 = ... */
void cs_bool_enforce_equal(cs_t *cs, const cs_bool_t *a, const cs_bool_t *b);

/* lc += Boolean::lc(ONE, coeff): coeff * ONE for true, nothing for false,
 * coeff * bit for Is, coeff * ONE - coeff * bit for Not. coeff NULL: one. */
void cs_lc_add_bool(cs_t *cs, cs_lc_t *lc, const cs_bool_t *b, const fr_t *coeff);

/* field_into_allocated_bits_le: the 255 bits of x (canonical, LSB first),
 * each an AllocatedBit (255 constraints, 255 aux). x is read only when the
 * cs has values (it may be NULL otherwise). */
void cs_bits_alloc_fr_le(cs_bool_t out[255], cs_t *cs, const fr_t *x);

/* u64_into_boolean_vec_le: 64 AllocatedBits, LSB first. */
void cs_bits_alloc_u64_le(cs_bool_t out[64], cs_t *cs, uint64_t x);

/* bytes_into_boolean_vec (RFP:storage-proofs-core/src/util.rs): 8 * len
 * AllocatedBits, bit i of byte j at 8j + i (least significant first).
 * bytes is read only when the cs has values (it may be NULL otherwise). */
void cs_bits_alloc_bytes_le(cs_bool_t *out, cs_t *cs, const uint8_t *bytes, size_t len);

/* reverse_bit_numbering (RFP:storage-proofs-core/src/util.rs): in is padded
 * with constant false to whole bytes, then the bits inside each byte are
 * reversed. Writes and returns the padded length, (n + 7) / 8 * 8. out may
 * not alias in. */
size_t cs_bits_reverse_in_bytes(cs_bool_t *out, const cs_bool_t *in, size_t n);

#ifdef __cplusplus
}
#endif
#endif
