/* filecoin-hashers' Poseidon Merkle-Damgard hash (RFP@87348a7
 * filecoin-hashers/src/poseidon.rs hash_md, hash_md_circuit): arity 36
 * (PoseidonMDArity), the running hash first in each block followed by up
 * to 35 elements, zero padding in the last block (allocated in the
 * circuit). 71 elements cost two arity-36 hashes: 2,770 constraints.
 *
 * Rules: outputs first; the gadget's errors are the cs's (cs_status). */
#ifndef CUZK_FILECOIN_POSEIDON_H
#define CUZK_FILECOIN_POSEIDON_H

#include <stddef.h>

#include "cuzk/cs.h"
#include "cuzk/cs_num.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_POSEIDON_MD_ARITY 36u

/* hash_md of in[0..n), n >= 2. CUZK_ERR_ARG for n < 2. */
cuzk_status fil_poseidon_hash_md(fr_t *out, const fr_t *in, size_t n, cuzk_error_t *err);

/* hash_md_circuit of the allocated elements[0..n), n >= 2. */
cs_num_t fil_cs_poseidon_hash_md(cs_t *cs, const cs_num_t *elements, size_t n);

#ifdef __cplusplus
}
#endif
#endif
