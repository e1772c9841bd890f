/* A Groth16 proving key held in memory (model layer): what the test
 * setups (CPU: setup.h, GPU: cuda_setup.h) make and the key writers
 * (key_write.h) write. The prover reads it through a groth16_pk_t view.
 *
 * Rules: a key owns its arrays (groth16_key_free); a groth16_pk_t from
 * groth16_key_pk borrows them and must not outlive the key. */
#ifndef CUZK_KEY_H
#define CUZK_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/pk.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One snarkjs zkey section-4 entry (zkey.h), decoded. */
typedef struct zkey_coef {
    uint32_t matrix; /* zkey_matrix */
    uint32_t row;    /* < domain_size */
    uint32_t wire;   /* < n_vars */
    fr_t value;      /* the coefficient v as an fr_t (Montgomery: v * R) */
} zkey_coef_t;

typedef struct groth16_key {
    groth16_convention conv;
    uint32_t n_vars;   /* witness length, wire 0 = 1 */
    uint32_t n_public; /* public wires 1..n_public */
    uint32_t n_rows;   /* circuit rows the key was made for (<= 2^log_m) */
    unsigned log_m;    /* domain size m = 2^log_m */
    groth16_vk_t vk;   /* alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1,
                          delta_g2, IC (n_public + 1) */
    g1_affine_t *a;    /* n_a: snarkjs n_vars; bellperson inputs + A-dense aux */
    g1_affine_t *b_g1; /* n_b: snarkjs n_vars; bellperson B-dense wires */
    g2_affine_t *b_g2; /* n_b */
    g1_affine_t *l;    /* n_l = n_vars - n_public - 1 (snarkjs "C") */
    g1_affine_t *h;    /* n_h: snarkjs m; bellperson m - 1 */
    size_t n_a, n_b, n_l, n_h;
    /* snarkjs only (NULL for bellperson): zkey section 4, the circuit's A
     * then B entries in row order (value = the coefficient, Montgomery). */
    zkey_coef_t *coefs;
    size_t n_coefs;
} groth16_key_t;

/* Releases everything the key owns; safe on a zeroed or freed key. */
void groth16_key_free(groth16_key_t *k);
/* Fills a prover view (MSM_BASES_AFFINE bases into k; vk.ic shared, so the
 * view must not be passed to groth16_vk_free). */
void groth16_key_pk(groth16_pk_t *pk, const groth16_key_t *k);

/* k->coefs: zkey section 4, the circuit's A then B entries in row order
 * (padding bytes zeroed). CUZK_ERR_NOMEM. */
cuzk_status groth16_setup_copy_coefs(groth16_key_t *k, const circuit_t *c);

#ifdef __cplusplus
}
#endif
#endif
