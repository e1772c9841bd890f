/* From files to what the prover consumes (formats layer): circuits from .r1cs and .zkey,
 * proving-key views from .zkey and bellperson .params.
 *
 * Both conventions prove over the same circuit shape: the R1CS rows, then
 * one row per public wire s = 0..n_public (wire 0, the constant, included)
 * with A = w_s and B = C = 0 (snarkjs stores these rows in zkey section 4;
 * bellperson appends them when synthesising). */
#ifndef CUZK_KEY_LOAD_H
#define CUZK_KEY_LOAD_H

#include "cuzk/bellperson.h"
#include "cuzk/circuit.h"
#include "cuzk/pk.h"
#include "cuzk/r1cs.h"
#include "cuzk/zkey.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The r1cs rows plus the public-input rows (n_constraints + n_public + 1). */
cuzk_status circuit_from_r1cs(circuit_t *out, const r1cs_t *r, cuzk_error_t *err);
/* A and B from zkey section 4 (rows up to the domain size); no C: the
 * snarkjs prover takes c = a.b row by row. */
cuzk_status circuit_from_zkey(circuit_t *out, const zkey_t *z, cuzk_error_t *err);

/* A prover view of an open zkey (bases read in place). pk->vk owns its IC
 * copy: release with groth16_pk_release. */
cuzk_status groth16_pk_from_zkey(groth16_pk_t *pk, const zkey_t *z, cuzk_error_t *err);
/* A prover view of open bellperson params for a circuit of n_vars wires.
 * The domain is len(H) + 1, which must be a power of two. */
cuzk_status groth16_pk_from_params(groth16_pk_t *pk, const bellperson_params_t *p, uint32_t n_vars,
                                   cuzk_error_t *err);
void groth16_pk_release(groth16_pk_t *pk);

#ifdef __cplusplus
}
#endif
#endif
