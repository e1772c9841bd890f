/* An INSECURE Groth16 setup for tests, and the key writers.
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
 *               rule, src/groth16/prove.c).
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

#include "cuzk/backend.h"
#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "cuzk/status.h"
#include "cuzk/zkey.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The secrets of a test setup (Montgomery fr_t, all nonzero). */
typedef struct groth16_toxic {
    fr_t tau, alpha, beta, gamma, delta;
} groth16_toxic_t;

/* Derives the toxic waste from seed. Rule (stable: keys made by one version
 * must equal keys made by the next): splitmix64 seeded with `seed`; each
 * element takes the next four outputs as little-endian limbs, clears the top
 * bit, and is drawn again while the value is >= r or zero. The draws come in
 * the order tau, alpha, beta, gamma, delta; tau is also drawn again while
 * tau^(2^32) = 1 (a root of unity would sit on the evaluation domain). */
void groth16_toxic_from_seed(groth16_toxic_t *out, uint64_t seed);

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
/* Releases everything the key owns; safe on a zeroed or freed key. */
void groth16_key_free(groth16_key_t *k);
/* Fills a prover view (MSM_BASES_AFFINE bases into k; vk.ic shared, so the
 * view must not be passed to groth16_vk_free). */
void groth16_key_pk(groth16_pk_t *pk, const groth16_key_t *k);

/* Fixed-base scalar multiplication of the generator: out[i] = k[i] G for
 * i < n (affine; infinity for k = 0), on `threads` threads. One table per
 * w-bit window of the scalar (w chosen from n, at most 14), then affine
 * additions that share one inversion per window across a chunk of scalars
 * (src/groth16/fixed_base_impl.h). Returns CUZK_ERR_NOMEM. */
cuzk_status setup_g1_mul_gen(g1_affine_t *out, const fr_t *k, size_t n, int threads);
cuzk_status setup_g2_mul_gen(g2_affine_t *out, const fr_t *k, size_t n, int threads);

/* ---- pieces shared by the CPU and GPU setups (cuda_setup.h), so that
 * both make the same bytes ---- */

/* alpha, beta, delta in G1 and beta, gamma, delta in G2 of the vk. */
void groth16_setup_vk_points(groth16_vk_t *vk, const groth16_toxic_t *tw);
/* zfac = (tau^N - 1) / N * scale, N = 2^log_n. */
void groth16_setup_vanishing(fr_t *zfac, const fr_t *tau, unsigned log_n, const fr_t *scale);
/* k->coefs: zkey section 4, the circuit's A then B entries in row order
 * (padding bytes zeroed). CUZK_ERR_NOMEM. */
cuzk_status groth16_setup_copy_coefs(groth16_key_t *k, const circuit_t *c);

/* ---- key writers (streamed: a file is never built whole in memory) ----
 * Each returns CUZK_ERR_IO naming the path when the file cannot be created
 * or written (a partial file is removed), CUZK_ERR_ARG when the key has the
 * other convention. */

/* A snarkjs Groth16 .zkey (version 1): sections 1-9 as in zkey.h, and an
 * empty section 10 (a zero contribution hash and no contributions) so that
 * snarkjs's own tools accept it. */
cuzk_status zkey_write_file(const char *path, const groth16_key_t *k, cuzk_error_t *err);
/* A bellperson .params file (Parameters::write: vk, then H, L, A, B_G1,
 * B_G2, each a big-endian u32 count and uncompressed points). */
cuzk_status bellperson_params_write_file(const char *path, const groth16_key_t *k,
                                         cuzk_error_t *err);
/* A bellperson .vk file (bellperson.h). Any convention's vk. */
cuzk_status bellperson_vk_write_file(const char *path, const groth16_vk_t *vk, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
