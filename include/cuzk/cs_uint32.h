/* UInt32 and MultiEq as bellperson has them (BP:src/gadgets/uint32.rs,
 * BP:src/gadgets/multieq.rs): 32 Booleans, least significant first, and
 * the packer that folds the equalities of several additions into one
 * constraint.
 *
 * MultiEq: cs_u32_addmany hands its equality (k bits) to a cs_multieq_t.
 * When 254 (Fr::CAPACITY) <= bits_used + k, the pending equality is first
 * emitted as (sum lhs * 2^off) * ONE = (sum rhs * 2^off) and the packer
 * starts over; cs_multieq_finish emits the last pending one (bellperson
 * does it when the MultiEq drops, i.e. when the SHA-256 compression
 * function returns). So a flush sits after the boolean constraints of the
 * addition that overflowed it.
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). */
#ifndef CUZK_CS_UINT32_H
#define CUZK_CS_UINT32_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cs_u32 {
    cs_bool_t bits[32]; /* least significant first */
} cs_u32_t;

typedef struct cs_multieq {
    cs_t *cs;
    cs_lc_t *lhs, *rhs;
    unsigned bits_used;
    uint64_t ops; /* flushes so far */
} cs_multieq_t;

void cs_multieq_init(cs_multieq_t *me, cs_t *cs);
/* Emits the pending equality, if any, and gives the combinations back. */
void cs_multieq_finish(cs_multieq_t *me);
/* MultiEq::enforce_equal: lhs and rhs (num_bits wide) must be equal. */
void cs_multieq_enforce_equal(cs_multieq_t *me, unsigned num_bits, const cs_lc_t *lhs,
                              const cs_lc_t *rhs);

/* UInt32::constant: 32 constant bits. */
void cs_u32_const(cs_u32_t *out, uint32_t value);
/* UInt32::alloc: 32 AllocatedBits, LSB first (32 constraints, 32 aux). */
void cs_u32_alloc(cs_u32_t *out, cs_t *cs, uint32_t value);
/* The value from the bits (constants always; allocated bits only with
 * values). */
uint32_t cs_u32_value(const cs_u32_t *x);
/* Whether every bit is constant. */
int cs_u32_is_const(const cs_u32_t *x);

/* from_bits_be: bits[0] is the most significant; into_bits_be the reverse. */
void cs_u32_from_bits_be(cs_u32_t *out, const cs_bool_t bits[32]);
void cs_u32_into_bits_be(cs_bool_t out[32], const cs_u32_t *x);

/* rotr, shr: free (bits move; shr fills with constant false). out may not
 * alias x. */
void cs_u32_rotr(cs_u32_t *out, const cs_u32_t *x, unsigned by);
void cs_u32_shr(cs_u32_t *out, const cs_u32_t *x, unsigned by);

/* Bitwise Boolean::xor / sha256_ch / sha256_maj, bit 0 first. out may
 * alias an input. */
void cs_u32_xor(cs_u32_t *out, cs_t *cs, const cs_u32_t *a, const cs_u32_t *b);
void cs_u32_sha256_ch(cs_u32_t *out, cs_t *cs, const cs_u32_t *a, const cs_u32_t *b,
                      const cs_u32_t *c);
void cs_u32_sha256_maj(cs_u32_t *out, cs_t *cs, const cs_u32_t *a, const cs_u32_t *b,
                       const cs_u32_t *c);

/* UInt32::addmany of n operands, 2 <= n <= 10, modulo 2^32. When every bit
 * of every operand is constant: a constant, nothing emitted. Else k =
 * bitlen(n * (2^32 - 1)) result bits are allocated (33 for n = 2, 34 for
 * 3-4, 35 for 5-8, 36 for 9-10) and their equality with the operands' sum
 * goes to me; the low 32 are the result. out may alias an operand. */
void cs_u32_addmany(cs_u32_t *out, cs_multieq_t *me, const cs_u32_t *const *ops, size_t n);

#ifdef __cplusplus
}
#endif
#endif
