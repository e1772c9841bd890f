/* rust-fil-proofs' insertion gadgets (RFP:storage-proofs-core/src/gadgets/
 * insertion.rs): pick, select, and the insertion permutation that places
 * a hash input among its siblings (insert_2, insert_4, insert_8 hand-made,
 * the general one by select). Each pick is 1 constraint and 1 aux:
 * insert_2 2, insert_4 8, insert_8 22 (nor and and of the two low bits,
 * then 20 picks), select over 2^k elements 2^k - 1.
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). Index
 * bits are least significant first. */
#ifndef CUZK_CS_INSERTION_H
#define CUZK_CS_INSERTION_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pick: cond ? a : b. alloc c; (b - a) * cond = b - c. */
cs_num_t cs_pick(cs_t *cs, const cs_bool_t *cond, const cs_num_t *a, const cs_num_t *b);

/* select: from[n] where n = sum 2^i bits[i], from has 2^n_bits elements;
 * picks most significant bit first. */
cs_num_t cs_select(cs_t *cs, const cs_num_t *from, const cs_bool_t *bits, size_t n_bits);

/* insert: out (2^n_bits elements) = elements[0..n) with `element` placed
 * at position n = sum 2^i bits[i]; elements has 2^n_bits - 1 entries.
 * insert_8 needs bits[0] and bits[1] of kind CS_BOOL_IS (else the cs
 * records CUZK_ERR_ARG, where rust-fil-proofs panics). out may not alias
 * elements or element. */
void cs_insert(cs_num_t *out, cs_t *cs, const cs_num_t *element, const cs_bool_t *bits,
               size_t n_bits, const cs_num_t *elements);
void cs_insert_2(cs_num_t out[2], cs_t *cs, const cs_num_t *element, const cs_bool_t bits[1],
                 const cs_num_t elements[1]);
void cs_insert_4(cs_num_t out[4], cs_t *cs, const cs_num_t *element, const cs_bool_t bits[2],
                 const cs_num_t elements[3]);
void cs_insert_8(cs_num_t out[8], cs_t *cs, const cs_num_t *element, const cs_bool_t bits[3],
                 const cs_num_t elements[7]);

#ifdef __cplusplus
}
#endif
#endif
