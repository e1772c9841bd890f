/* snarkjs JSON files for Groth16 over BLS12-381: proof.json, public.json and
 * verification_key.json.
 *
 * Values are decimal strings of plain affine coordinates (decimal.h): G1
 * ["x", "y", "1"], G2 [["x0","x1"], ["y0","y1"], ["1","0"]], infinity
 * ["0","1","0"] (G2 [["0","0"],["1","0"],["0","0"]]).
 *   proof.json   {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16",
 *                 "curve": "bls12381"}
 *   public.json  ["s1", ..., "sn"]  (decimal, each < r)
 *   verification_key.json  {"protocol", "curve", "nPublic", "vk_alpha_1",
 *                 "vk_beta_2", "vk_gamma_2", "vk_delta_2", "vk_alphabeta_12",
 *                 "IC": [G1 x (nPublic + 1)]}
 * vk_alphabeta_12 = e(alpha, beta) as an Fp12 nested [c0, c1] of Fp6
 * [c0, c1, c2] of Fp2 ["c0", "c1"] (the same tower and pairing as
 * pairing.h).
 *
 * Writers produce the bytes snarkjs 0.7.6 writes (JSON.stringify(x, null, 1):
 * one-space indent, "key": value, no trailing newline); the format functions
 * return a malloc'd NUL-terminated string the caller frees.
 * Readers take any JSON layout, check every point on the curve and in the
 * subgroup, require "protocol" = "groth16" and "curve" = "bls12381" where
 * present (mandatory in a verification key), and name the wrong field in the
 * message. A verification key's nPublic must match its IC count and, when
 * present, vk_alphabeta_12 must equal e(vk_alpha_1, vk_beta_2). Unknown keys
 * are ignored. groth16_vk_t fields that snarkjs does not store (beta_g1,
 * delta_g1) are set to infinity.
 *
 * Rules: outputs first; err may be NULL; `name` labels messages (NULL: a
 * default such as "proof.json"); reentrant. */
#ifndef CUZK_SNARKJS_JSON_H
#define CUZK_SNARKJS_JSON_H

#include <stddef.h>

#include "cuzk/fr.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns: CUZK_ERR_PARSE (not JSON, wrong shape or type, bad decimal),
 * CUZK_ERR_NONCANONICAL, CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_NOT_IN_SUBGROUP,
 * CUZK_ERR_FORMAT (z coordinate, nPublic, vk_alphabeta_12),
 * CUZK_ERR_UNSUPPORTED (protocol, curve), CUZK_ERR_IO (the _read forms). */
cuzk_status snarkjs_proof_parse(groth16_proof_t *out, const char *json, size_t len,
                                const char *name, cuzk_error_t *err);
cuzk_status snarkjs_proof_read(groth16_proof_t *out, const char *path, cuzk_error_t *err);
cuzk_status snarkjs_proof_format(char **out, size_t *len, const groth16_proof_t *proof,
                                 cuzk_error_t *err);
cuzk_status snarkjs_proof_write(const char *path, const groth16_proof_t *proof, cuzk_error_t *err);

/* *out is a malloc'd array of *n values (Montgomery), free() it; NULL when
 * n = 0. */
cuzk_status snarkjs_public_parse(fr_t **out, size_t *n, const char *json, size_t len,
                                 const char *name, cuzk_error_t *err);
cuzk_status snarkjs_public_read(fr_t **out, size_t *n, const char *path, cuzk_error_t *err);
cuzk_status snarkjs_public_format(char **out, size_t *len, const fr_t *values, size_t n,
                                  cuzk_error_t *err);
cuzk_status snarkjs_public_write(const char *path, const fr_t *values, size_t n, cuzk_error_t *err);

/* out->ic is malloc'd (groth16_vk_free, or free). */
cuzk_status snarkjs_vk_parse(groth16_vk_t *out, const char *json, size_t len, const char *name,
                             cuzk_error_t *err);
cuzk_status snarkjs_vk_read(groth16_vk_t *out, const char *path, cuzk_error_t *err);
/* Computes vk_alphabeta_12 with one pairing. vk->n_ic >= 1. */
cuzk_status snarkjs_vk_format(char **out, size_t *len, const groth16_vk_t *vk, cuzk_error_t *err);
cuzk_status snarkjs_vk_write(const char *path, const groth16_vk_t *vk, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
