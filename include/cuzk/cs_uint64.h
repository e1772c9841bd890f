/* UInt64 as rust-fil-proofs has it (RFP:storage-proofs-core/src/gadgets/
 * uint64.rs): 64 Booleans, least significant first.
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). */
#ifndef CUZK_CS_UINT64_H
#define CUZK_CS_UINT64_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cs_u64 {
    cs_bool_t bits[64]; /* least significant first */
} cs_u64_t;

/* UInt64::constant: 64 constant bits. */
void cs_u64_const(cs_u64_t *out, uint64_t value);
/* UInt64::alloc: 64 AllocatedBits (64 constraints, 64 aux). */
void cs_u64_alloc(cs_u64_t *out, cs_t *cs, uint64_t value);
/* The value from the bits (allocated bits only with values). */
uint64_t cs_u64_value(const cs_u64_t *x);
/* pack_into_input: pack_into_inputs of the 64 bits (1 input,
 * 1 constraint). */
void cs_u64_pack_into_input(cs_t *cs, const cs_u64_t *x);
/* to_bits_be (most significant first) / from_bits_be. */
void cs_u64_to_bits_be(cs_bool_t out[64], const cs_u64_t *x);
void cs_u64_from_bits_be(cs_u64_t *out, const cs_bool_t bits[64]);

#ifdef __cplusplus
}
#endif
#endif
