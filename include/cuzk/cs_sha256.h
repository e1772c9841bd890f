/* SHA-256 as bellperson's circuit computes it (BP:src/gadgets/sha256.rs):
 * bits big-endian inside each 32-bit word, padding bits constant, IV and
 * round constants constant (so constants cost nothing until they meet
 * variables), one MultiEq per compression, and the additions that make a and
 * e deferred until their next use (7 and 6 operands; 8 and 7 for h0 and h4).
 * Costs (NOTES.md §2): a fully variable block 25,840 constraints and 25,814
 * aux; an all-constant block nothing; a 512-bit message with its padding
 * block 44,874 constraints.
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). */
#ifndef CUZK_CS_SHA256_H
#define CUZK_CS_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_uint32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The IV as 8 constant words. */
void cs_sha256_iv(cs_u32_t out[8]);

/* sha256_compression_function: the next state from a 512-bit block
 * (bits[0] is the most significant bit of word 0) and the current state.
 * out may alias cur. */
void cs_sha256_compress(cs_u32_t out[8], cs_t *cs, const cs_bool_t block[512],
                        const cs_u32_t cur[8]);

/* sha256: the digest of n_bits message bits (a multiple of 8; bit 0 is the
 * most significant bit of the first byte), padded with constants, as 256
 * bits in the same order. */
void cs_sha256(cs_bool_t out[256], cs_t *cs, const cs_bool_t *msg, size_t n_bits);

/* sha256_block_no_padding: one compression from the IV, no padding. */
void cs_sha256_block_no_padding(cs_bool_t out[256], cs_t *cs, const cs_bool_t block[512]);

#ifdef __cplusplus
}
#endif
#endif
