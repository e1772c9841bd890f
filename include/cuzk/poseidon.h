/* Poseidon over BLS12-381 Fr exactly as neptune 11 (argumentcomputer/neptune,
 * 11.1.0) computes it for Filecoin: PoseidonConstants::new(), i.e.
 * Strength::Standard and HashType::MerkleTree (and HashType::Custom, for
 * SnapDeals: poseidon_constants_get_custom). Every constant is generated
 * here (Grain LFSR, Cauchy MDS, neptune's preprocessing), nothing is pasted;
 * tests/test_poseidon.c checks the tables against neptune's arity-11 dump and
 * the hash against neptune's hash_values vectors.
 *
 * Parameters (neptune src/lib.rs, round_numbers.rs): width t = arity + 1,
 * R_F = 8 full rounds (4 before, 4 after the partial ones), R_P partial
 * rounds from neptune's round-number search (55 for t = 3, 56 for t = 5,
 * 57 for t = 9 and 12, 59 for t = 17 and 25, 60 for t = 37), x^5 S-box.
 * The state is [domain tag, inputs...] with tag 2^arity - 1; the hash is
 * state[1] after the permutation (neptune src/poseidon.rs extract_output).
 *
 * Layout of the tables (all fr_t in Montgomery form, as fr.h):
 *  - a matrix is t*t, row-major: m[i*t + j] is row i, column j;
 *  - neptune applies every matrix to the state as a ROW vector (matrix.rs
 *    apply_matrix, poseidon.rs product_mds_with_matrix):
 *        out[j] = sum_i m[i*t + j] * s[i];
 *    the MDS matrix is symmetric, the pre-sparse matrix is not, so the
 *    direction matters;
 *  - sparse matrix k (0 <= k < R_P) is neptune's SparseMatrix: its first
 *    column w_hat[k*t + 0..t-1] and the rest of its first row
 *    v_rest[k*(t-1) + 0..t-2]; the interior is the identity, so
 *        out[0] = sum_i w_hat[i] * s[i],   out[j] = s[j] + v_rest[j-1] * s[0]
 *    (poseidon.rs product_mds_with_sparse_matrix).
 *
 * The optimized permutation (neptune hash_optimized_static and the legacy
 * circuit, circuit.rs PoseidonCircuit::hash) runs R_F + R_P rounds,
 * numbered r = 0 .. R_F + R_P - 1, each "S-boxes, then a linear layer";
 * poseidon_round() describes round r so a gadget can walk the same schedule
 * as poseidon_hash_optimized(), which is written on top of it:
 *  - round 0 (full): every element gets pre_keys[i] added before its S-box
 *    and post_keys[i] after it;
 *  - rounds 1 .. R_F/2 - 1 (full): S-box, then post_keys[i];
 *  - rounds R_F/2 .. R_F/2 + R_P - 1 (partial): S-box on element 0 only,
 *    then post_keys[0] on element 0;
 *  - rounds R_F/2 + R_P .. R_F + R_P - 2 (full): S-box, then post_keys[i];
 *  - round R_F + R_P - 1 (full, terminal): S-box, no key.
 *  Linear layer after round r: the pre-sparse matrix when r = R_F/2 - 1,
 *  sparse matrix r - R_F/2 for the partial rounds, the MDS matrix otherwise.
 *  The compressed round constants are consumed in exactly this order
 *  (t pre, t post for round 0; t per later full round; 1 per partial round),
 *  R_F * t + R_P in all.
 *
 * Rules: outputs first, then inputs; cuzk_error_t *err last and may be NULL;
 * every other pointer is required. A constants object is immutable once
 * made, so any number of threads may hash with it at once.
 * poseidon_constants_get is thread-safe; poseidon_constants_new/free are the
 * uncached pair for callers that want to own the memory. */
#ifndef CUZK_POSEIDON_H
#define CUZK_POSEIDON_H

#include <stddef.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* neptune implements Arity for U1 .. U36 (poseidon.rs impl_arity!);
 * filecoin-hashers uses 2, 4, 8, 11, 16, 24, 36, production circuits 2, 4,
 * 8, 11. */
#define POSEIDON_MIN_ARITY 1
#define POSEIDON_MAX_ARITY 36
#define POSEIDON_MAX_WIDTH (POSEIDON_MAX_ARITY + 1)

typedef struct poseidon_constants {
    unsigned arity;            /* inputs per hash */
    unsigned width;            /* t = arity + 1 */
    unsigned full_rounds;      /* R_F */
    unsigned half_full_rounds; /* R_F / 2 */
    unsigned partial_rounds;   /* R_P */
    fr_t domain_tag;           /* 2^arity - 1 (HashType::MerkleTree), or custom_id * 2^40 */
    unsigned custom_id;        /* 0: HashType::MerkleTree; 1..256: HashType::Custom */
    /* The plain form (neptune round_constants.rs, mds.rs): */
    const fr_t *round_constants; /* (R_F + R_P) * t, round r at [r*t] */
    const fr_t *mds;             /* t*t Cauchy matrix 1/(i + t + j) */
    const fr_t *mds_inv;         /* t*t, its inverse */
    /* The optimized form (neptune preprocessing.rs, mds.rs): */
    const fr_t *compressed_round_constants; /* R_F * t + R_P */
    const fr_t *pre_sparse_matrix;          /* t*t */
    const fr_t *sparse_w_hat;               /* R_P * t */
    const fr_t *sparse_v_rest;              /* R_P * (t - 1) */
} poseidon_constants_t;

/* neptune's round numbers for width t (round_numbers.rs calc_round_numbers
 * with the security margin, the Strength::Standard rule), 2 <= t <= 4095.
 * Returns CUZK_OK, or CUZK_ERR_ARG for t out of range. */
cuzk_status poseidon_round_numbers(unsigned *full_rounds, unsigned *partial_rounds, unsigned t,
                                   cuzk_error_t *err);

/* The shared constants for `arity`, made on first use and kept until the
 * process exits (on a 2-core machine arity 11 takes ~20 ms, arity 36 ~0.2 s).
 * Thread-safe; the first caller for an arity builds it, others wait.
 * Returns CUZK_OK; CUZK_ERR_ARG for an arity outside [1, 36]; CUZK_ERR_NOMEM.
 * Out: *out, never to be freed. */
cuzk_status poseidon_constants_get(const poseidon_constants_t **out, unsigned arity,
                                   cuzk_error_t *err);

/* The same constants, uncached: the caller frees them with
 * poseidon_constants_free (which accepts NULL). */
cuzk_status poseidon_constants_new(poseidon_constants_t **out, unsigned arity, cuzk_error_t *err);
void poseidon_constants_free(poseidon_constants_t *c);

/* HashType::Custom(CType::Arbitrary(id)) (NEP:src/hash_type.rs): the same
 * tables as the MerkleTree constants of the arity (new_with_strength_and_type
 * makes them from arity and strength alone), only the domain tag differs:
 * id * 2^40, 1 <= id <= 256. The hash and the circuit are otherwise the same
 * (neptune's legacy poseidon_hash puts the tag first, as for MerkleTree;
 * Custom takes no padding). rust-fil-proofs' SnapDeals hashes with id 1,
 * arity 2 (storage-proofs-update constants.rs
 * POSEIDON_CONSTANTS_GEN_RANDOMNESS). get_custom: shared and kept until exit,
 * thread-safe, as poseidon_constants_get; new_custom: uncached, freed with
 * poseidon_constants_free. Returns CUZK_OK; CUZK_ERR_ARG for an arity or id
 * out of range; CUZK_ERR_NOMEM. */
#define POSEIDON_CUSTOM_ID_MAX 256u
cuzk_status poseidon_constants_get_custom(const poseidon_constants_t **out, unsigned arity,
                                          unsigned custom_id, cuzk_error_t *err);
cuzk_status poseidon_constants_new_custom(poseidon_constants_t **out, unsigned arity,
                                          unsigned custom_id, cuzk_error_t *err);

/* x^5 with optional round keys: out = (x + pre)^5 + post; pre and post may
 * be NULL (no key). neptune lib.rs quintic_s_box. */
void poseidon_sbox(fr_t *out, const fr_t *x, const fr_t *pre, const fr_t *post);

/* The linear layer after a round. */
typedef enum poseidon_mix {
    POSEIDON_MIX_MDS = 0,        /* dense: round->matrix is the MDS matrix */
    POSEIDON_MIX_PRE_SPARSE = 1, /* dense: round->matrix is the pre-sparse matrix */
    POSEIDON_MIX_SPARSE = 2      /* sparse: round->w_hat, round->v_rest */
} poseidon_mix;

typedef enum poseidon_round_kind {
    POSEIDON_ROUND_FULL = 0,   /* S-box on every element */
    POSEIDON_ROUND_PARTIAL = 1 /* S-box on element 0 only */
} poseidon_round_kind;

/* One round of the optimized permutation (see the schedule above). */
typedef struct poseidon_round {
    poseidon_round_kind kind;
    const fr_t *pre_keys;  /* t keys before the S-boxes (round 0 only), else NULL */
    const fr_t *post_keys; /* t (full) or 1 (partial) keys after the S-boxes; NULL in the
                              terminal round */
    poseidon_mix mix;
    const fr_t *matrix; /* t*t for POSEIDON_MIX_MDS / _PRE_SPARSE, else NULL */
    const fr_t *w_hat;  /* t, for POSEIDON_MIX_SPARSE, else NULL */
    const fr_t *v_rest; /* t - 1, for POSEIDON_MIX_SPARSE, else NULL */
} poseidon_round_t;

/* Number of rounds, R_F + R_P. */
unsigned poseidon_num_rounds(const poseidon_constants_t *c);

/* Describes round r, 0 <= r < poseidon_num_rounds(c) (CUZK_ASSERT). The
 * pointers point into c. */
void poseidon_round(poseidon_round_t *out, const poseidon_constants_t *c, unsigned r);

/* Applies a round's linear layer to a state of c->width elements:
 * out = s * matrix (row vector) or the sparse product above. out must not
 * alias s. */
void poseidon_mix_apply(fr_t *out, const poseidon_round_t *round, const fr_t *s, unsigned width);

/* How a hash is computed; both give the same value. */
typedef enum poseidon_mode {
    /* Round constants before every S-box layer, the MDS matrix after every
     * round (neptune poseidon_alt.rs hash_correct): the reference. */
    POSEIDON_PLAIN = 0,
    /* Compressed constants and sparse matrices (neptune poseidon.rs
     * hash_optimized_static, the schedule of the legacy circuit). */
    POSEIDON_OPTIMIZED = 1
} poseidon_mode;

/* The MerkleTree hash of n = c->arity inputs: state [tag, in...], output
 * state[1] after the permutation.
 * Returns CUZK_OK, or CUZK_ERR_ARG when n != c->arity or mode is unknown. */
cuzk_status poseidon_hash(fr_t *out, const poseidon_constants_t *c, const fr_t *in, size_t n,
                          poseidon_mode mode, cuzk_error_t *err);

/* The whole permutation on a caller's state of c->width elements, in place. */
void poseidon_permute(fr_t *state, const poseidon_constants_t *c, poseidon_mode mode);

#ifdef __cplusplus
}
#endif
#endif
