/* Groth16 verification over BLS12-381 (types: proof.h), shared by
 * both key conventions (snarkjs .zkey / bellperson .params and .vk).
 *
 * Verification equation: e(A, B) = e(alpha, beta) e(acc, gamma) e(C, delta)
 * with acc = IC[0] + sum_i inputs[i] IC[i+1] (n_ic = n_inputs + 1).
 * The batch check is Filecoin's: random 128-bit z_j and one final
 * exponentiation, prod_j e(z_j A_j, -B_j) e(sum z_j C_j, delta)
 * e(sum_i (sum_j z_j x_ji) IC_i, gamma) = e(alpha, beta)^(-sum z_j).
 * Points in proofs and keys must already be checked (decoders do that). */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

#include <stddef.h>

#include "cuzk/fr.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *valid = 1 when the proof verifies, 0 when not. A status other than
 * CUZK_OK means the check could not be made (wrong input count: ARG). */
cuzk_status groth16_verify(int *valid, const groth16_vk_t *vk, const groth16_proof_t *proof,
                           const fr_t *inputs, size_t n_inputs, cuzk_error_t *err);
/* k proofs; inputs holds k lists of n_ic - 1 elements, concatenated. */
cuzk_status groth16_verify_batch(int *valid, const groth16_vk_t *vk, const groth16_proof_t *proofs,
                                 size_t k, const fr_t *inputs, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
