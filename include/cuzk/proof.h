/* Groth16 proof and verifying-key types over BLS12-381 (model layer:
 * formats read and write them, the prover fills them, the verifier checks
 * them: groth16.h).
 *
 * Rules: a vk owns its IC array (groth16_vk_free, safe on a zeroed or freed
 * vk); points must be checked by whoever decodes them. */
#ifndef CUZK_PROOF_H
#define CUZK_PROOF_H

#include <stddef.h>

#include "cuzk/g1.h"
#include "cuzk/g2.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct groth16_proof {
    g1_affine_t a;
    g2_affine_t b;
    g1_affine_t c;
} groth16_proof_t;

typedef struct groth16_vk {
    g1_affine_t alpha_g1;
    g1_affine_t beta_g1; /* bellperson keeps it; the verifier does not use it */
    g2_affine_t beta_g2;
    g2_affine_t gamma_g2;
    g1_affine_t delta_g1; /* likewise */
    g2_affine_t delta_g2;
    g1_affine_t *ic; /* n_ic points, owned (groth16_vk_free) */
    size_t n_ic;
} groth16_vk_t;

void groth16_vk_free(groth16_vk_t *vk);

#ifdef __cplusplus
}
#endif
#endif
