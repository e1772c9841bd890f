/* Bit packing as bellperson's multipack (BP:src/gadgets/multipack.rs):
 * bits, least significant first, in chunks of Fr::CAPACITY = 254.
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). */
#ifndef CUZK_CS_MULTIPACK_H
#define CUZK_CS_MULTIPACK_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bits per packed element: Fr::CAPACITY. */
#define CS_MULTIPACK_CHUNK 254u

/* pack_into_inputs: per chunk of 254 bits, alloc_input x; then
 * (sum 2^i bit_i) * ONE = x. One input and one constraint per chunk. */
void cs_pack_into_inputs(cs_t *cs, const cs_bool_t *bits, size_t n);

/* pack_bits: the first 254 bits (at most) packed into one AllocatedNum:
 * alloc x; (sum 2^i bit_i) * ONE = x. 1 constraint, 1 aux. */
cs_num_t cs_pack_bits(cs_t *cs, const cs_bool_t *bits, size_t n);

/* compute_multipacking: the values pack_into_inputs makes public, for the
 * verifier's side. bits[i] is 0 or 1. Writes cs_multipacking_len(n)
 * elements. */
size_t cs_multipacking_len(size_t n_bits);
void cs_compute_multipacking(fr_t *out, const uint8_t *bits, size_t n_bits);

#ifdef __cplusplus
}
#endif
#endif
