/* An INSECURE Groth16 setup for tests (key type: key.h; toxic waste:
 * toxic.h; writers: key_write.h).
 *
 * groth16_setup makes a complete proving key for a circuit in memory from a
 * 64-bit seed: the toxic waste (tau, alpha, beta, gamma, delta) is derived
 * from the seed by a public rule (groth16_toxic_from_seed), so anyone who
 * knows the seed can forge proofs. It exists so that tests and benchmarks can
 * prove circuits of any size without a powers-of-tau ceremony; never use its
 * keys for anything real.
 *
 * The circuit must already hold every row of the key's domain polynomials:
 *   snarkjs:    the R1CS constraints, then rows nConstraints + s with
 *               A = 1 * w_s for s = 0..nPublic (zkey section 4's input rows);
 *   bellperson: the R1CS constraints, then one row per input i = 0..nPublic
 *               with A = w_i, B = C = 0.
 * u_j(X), v_j(X), w_j(X) interpolate column j of A, B, C over the rows on the
 * convention's domain (m = 2^log_m, the smallest power of two >= n_rows and
 * >= 2; roots FR_ROOTS_FFJS for snarkjs, FR_ROOTS_BELLMAN for bellperson):
 *   snarkjs:    A_j = u_j(tau) G1, B1_j = v_j G1, B2_j = v_j G2 for every
 *               wire j; C_j = K_j / delta G1 for j > nPublic and
 *               IC_j = K_j / gamma G1 for j <= nPublic, where
 *               K_j = beta u_j + alpha v_j + w_j; H_i = L'_{2i+1}(tau) /
 *               delta G1 for i < m, L' the Lagrange basis of the 2m domain
 *               (odd coset: the prover's p_i need no division by Z).
 *   bellperson: A = inputs (all), then the aux wires that appear in matrix A;
 *               B_G1 / B_G2 = every wire that appears in matrix B; L = aux
 *               K_j / delta; IC = inputs K_j / gamma; H_i = tau^i
 *               (tau^m - 1) / delta for i < m - 1 (the prover's density
 *               rule, src/model/query.c).
 * Points at infinity (zero scalars) are kept in place (affine (0, 0)).
 *
 * Rules: outputs first; err may be NULL; threads <= 0 means all CPUs. A key
 * owns its arrays (groth16_key_free); a groth16_pk_t from groth16_key_pk
 * borrows them and must not outlive the key. Results do not depend on the
 * thread count: the same seed gives the same key, byte for byte. */
#ifndef CUZK_SETUP_H
#define CUZK_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/key.h"
#include "cuzk/status.h"
#include "cuzk/toxic.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes a key for circuit c under convention conv from the toxic waste of
 * groth16_toxic_from_seed(seed).
 * Returns: CUZK_ERR_ARG (NULL pointers, an unknown convention, n_vars <
 * n_public + 1, a domain beyond 2^(FR_TWO_ADICITY - 1)), CUZK_ERR_NOMEM.
 * On failure *out is zeroed (groth16_key_free is harmless). */
cuzk_status groth16_setup(groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                          uint64_t seed, int threads, cuzk_error_t *err);
/* The same from explicit toxic waste (tests that want special values). */
cuzk_status groth16_setup_toxic(groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                                const groth16_toxic_t *toxic, int threads, cuzk_error_t *err);
/* Fixed-base scalar multiplication of the generator: out[i] = k[i] G for
 * i < n (affine; infinity for k = 0), on `threads` threads. One table per
 * w-bit window of the scalar (w chosen from n, at most 14), then affine
 * additions that share one inversion per window across a chunk of scalars
 * (src/groth16/fixed_base_impl.h). Returns CUZK_ERR_NOMEM. */
cuzk_status setup_g1_mul_gen(g1_affine_t *out, const fr_t *k, size_t n, int threads);
cuzk_status setup_g2_mul_gen(g2_affine_t *out, const fr_t *k, size_t n, int threads);

#ifdef __cplusplus
}
#endif
#endif
