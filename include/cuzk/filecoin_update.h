/* The SnapDeals circuits (EmptySectorUpdate and its Poseidon variant),
 * R1CS-exact to rust-fil-proofs (RFP = filecoin-project/rust-fil-proofs
 * @87348a7: storage-proofs-update/src/circuit.rs, poseidon/circuit.rs,
 * gadgets.rs, constants.rs, challenges.rs, vanilla.rs).
 *
 * A sector of N nodes (one of constants.rs ALLOWED_SECTOR_SIZES) is updated
 * with new data D: every replica node becomes r_new = r_old + d * rho, rho
 * = H(phi, high), phi = H(comm_d_new, comm_r_old), high = the h high bits
 * of the node's index; H is Poseidon-2 with the custom domain tag 2^40
 * (POSEIDON_CONSTANTS_GEN_RANDOMNESS; poseidon_constants_get_custom with
 * id 1). The circuit checks, for challenges drawn from comm_r_new, that
 * the three trees (old replica, new data, new replica) open to values that
 * satisfy the encoding.
 *
 * EmptySectorUpdateCircuit::synthesize (FIL_UPDATE_SHA, per partition k),
 * in order:
 *  1. k_and_h_select = k | h_select << partition_bits: alloc, inputize;
 *     partition_bits + 6 AllocatedBits of it, LSB first; (sum 2^i b_i) *
 *     ONE = k_and_h_select; partition = pack_bits(the k bits);
 *  2. comm_r_old, comm_d_new, comm_r_new: alloc + inputize each;
 *     phi = H(comm_d_new, comm_r_old);
 *  3. alloc comm_c, root_r_old, root_r_new, the apex leafs, the partition
 *     path's siblings (TreeD levels challenge_bits - partition_bits ..);
 *  4. comm_r_old = Poseidon-2(comm_c, root_r_old) (hash2_circuit, then
 *     calc * ONE = comm_r_old), the same for comm_r_new;
 *  5. apex_por: the apex tree over the apex leafs (SHA-256 hash2 rows),
 *     its root's path (partition bits) to comm_d_new;
 *  6. gen_challenge_bits: per digest j, alloc digest_index = k * digests +
 *     j, (digests * partition + j ONE) * ONE = digest_index, digest =
 *     H(comm_r_new, digest_index), its 255 AllocatedBits with (sum 2^i b_i)
 *     * ONE = digest; each challenge takes the next challenge_bits -
 *     partition_bits of them, then the partition bits are appended;
 *  7. per challenge: c_high (get_challenge_high_bits: per h in hs
 *     pack_bits of the h high bits, alloc c_high * h_select_bit, enforce;
 *     alloc the sum, enforce), rho = H(phi, c_high); alloc leaf_r_old,
 *     leaf_d_new; label_r_new (mul, alloc, (r_old + d rho) * ONE = r_new);
 *     the old replica's siblings, por_no_challenge_input; the new
 *     replica's siblings, por_no_challenge_input; apex_leaf = select(apex
 *     leafs, the apex bits of c); the TreeD siblings up to the apex row,
 *     por_no_challenge_input (SHA-256) to apex_leaf.
 * The Poseidon variant (FIL_UPDATE_POSEIDON, one partition) drops the apex
 * tree: h_select alone is the first input (6 bits), no partition bits; a
 * `partition` variable of value 0 is allocated after step 4 (without a
 * constraint) for gen_challenge_bits; the challenges take challenge_bits
 * bits each; TreeD has TreeR's shape and Poseidon, and each challenge
 * opens it with its full path to comm_d_new.
 *
 * Rules: outputs first, then the cs; pointers are required; values are
 * read only when cs_has_values(cs); the circuit's errors are the cs's
 * (sticky, checked once with cs_status): a witness that does not fit
 * records CUZK_ERR_ARG where rust-fil-proofs asserts. Native functions
 * return a status; cuzk_error_t *err may be NULL. */
#ifndef CUZK_FILECOIN_UPDATE_H
#define CUZK_FILECOIN_UPDATE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* constants.rs hs(): the h values the circuit can select from. */
#define FIL_UPDATE_HS 6u
/* neptune CType::Arbitrary(1): HASH_TYPE_GEN_RANDOMNESS. */
#define FIL_UPDATE_GEN_RANDOMNESS_ID 1u

typedef enum fil_update_kind {
    FIL_UPDATE_SHA = 0,     /* EmptySectorUpdateCircuit: TreeD binary SHA-256 */
    FIL_UPDATE_POSEIDON = 1 /* poseidon::EmptySectorUpdateCircuit: TreeD as TreeR */
} fil_update_kind;

/* PublicParams (vanilla.rs from_sector_size / _poseidon) and the TreeR
 * shape constants.rs validate_tree_r_shape demands, all derived from the
 * node count by fil_update_shape_init. */
typedef struct fil_update_shape {
    fil_update_kind kind;
    uint64_t nodes;             /* sector nodes, a power of two */
    fil_tree_shape_t tree_r;    /* Poseidon 8-S-T */
    fil_tree_shape_t tree_d;    /* SHA-256 binary, or tree_r (Poseidon variant) */
    unsigned challenge_bits;    /* log2(nodes) */
    unsigned challenges;        /* per partition proof */
    unsigned partitions;        /* 1 for the Poseidon variant */
    unsigned partition_bits;    /* log2(partitions) */
    unsigned apex_leafs;        /* 0 for the Poseidon variant */
    unsigned apex_leaf_bits;    /* log2(apex_leafs) */
    unsigned hs[FIL_UPDATE_HS]; /* constants.rs hs(nodes) */
} fil_update_shape_t;

/* The shape of a sector of `nodes` nodes. Returns CUZK_OK, or CUZK_ERR_ARG
 * for a node count outside ALLOWED_SECTOR_SIZES or an unknown kind. */
cuzk_status fil_update_shape_init(fil_update_shape_t *out, fil_update_kind kind, uint64_t nodes,
                                  cuzk_error_t *err);

/* One challenge's three openings (vanilla ChallengeProof). Each path's leaf
 * is the challenged node's value in that tree (r_new's is checked against
 * the encoding); roots and indices are not read (the circuit draws the
 * index from comm_r_new). FIL_UPDATE_SHA reads d_new's levels below the
 * apex leafs, and the partition path (the top partition_bits levels) from
 * challenge 0 only (every challenge must carry the same); the levels of
 * the apex tree in between are not read (the circuit hashes the apex
 * leafs). */
typedef struct fil_update_challenge {
    fil_merkle_path_t r_old, d_new, r_new;
} fil_update_challenge_t;

/* The circuit's inputs (circuit.rs PublicInputs, PrivateInputs). */
typedef struct fil_update_witness {
    /* public, in the order of fil_update_public_inputs */
    fr_t k_and_h_select; /* the Poseidon variant: h_select */
    fr_t comm_r_old, comm_d_new, comm_r_new;
    /* private */
    fr_t comm_c, root_r_old, root_r_new;
    fr_t *apex_leafs;                   /* shape->apex_leafs (NULL when 0) */
    fil_update_challenge_t *challenges; /* shape->challenges */
} fil_update_witness_t;

/* A witness with its arrays allocated, every value zero and every path of
 * the shape's form: blank for the count and record back ends, or to fill.
 * Returns CUZK_OK, CUZK_ERR_ARG, CUZK_ERR_NOMEM. Free with
 * fil_update_witness_free (accepts NULL and a zeroed witness). */
cuzk_status fil_update_witness_blank(fil_update_witness_t *out, const fil_update_shape_t *shape,
                                     cuzk_error_t *err);
void fil_update_witness_free(fil_update_witness_t *w);

/* The whole circuit of the shape's kind. */
void fil_cs_update(cs_t *cs, const fil_update_shape_t *shape, const fil_update_witness_t *w);

/* ---- gadgets (gadgets.rs) ------------------------------------------------ */

/* gen_challenge_bits: out[challenges * bits_per_challenge], challenge i's
 * bits at [i * bits_per_challenge], LSB first (AllocatedBits). */
void fil_cs_update_gen_challenge_bits(cs_bool_t *out, cs_t *cs, const cs_num_t *comm_r_new,
                                      const cs_num_t *partition, unsigned challenges,
                                      unsigned bits_per_challenge);

/* apex_por: apex tree over leafs[0..n) (n a power of two), then
 * por_no_challenge_input of its root along path[0..n_bits) (binary SHA-256,
 * one sibling a level) under the partition bits, to comm_d. */
void fil_cs_update_apex_por(cs_t *cs, const cs_num_t *leafs, unsigned n,
                            const cs_bool_t *partition_bits, const cs_num_t *path, unsigned n_bits,
                            const cs_num_t *comm_d);

/* get_challenge_high_bits: c_bits[0..n) LSB first, h_select_bits[0..6). */
cs_num_t fil_cs_update_challenge_high(cs_t *cs, const cs_bool_t *c_bits, unsigned n,
                                      const cs_bool_t *h_select_bits,
                                      const unsigned hs[FIL_UPDATE_HS]);

/* label_r_new: r_old + d_new * rho (2 constraints, 2 aux). */
cs_num_t fil_cs_update_label_r_new(cs_t *cs, const cs_num_t *r_old, const cs_num_t *d_new,
                                   const cs_num_t *rho);

/* ---- native (vanilla.rs, challenges.rs) ------------------------------ */

/* h_select(nodes, h) = 2^i for hs[i] = h (the first such i). Returns
 * CUZK_OK or CUZK_ERR_ARG when h is not among the shape's hs. */
cuzk_status fil_update_h_select(uint64_t *out, const fil_update_shape_t *shape, unsigned h,
                                cuzk_error_t *err);

/* The public inputs: [k_and_h_select (h_select for the Poseidon variant),
 * comm_r_old, comm_d_new, comm_r_new]. Returns CUZK_OK or CUZK_ERR_ARG (k
 * or h out of range). */
cuzk_status fil_update_public_inputs(fr_t out[4], const fil_update_shape_t *shape, unsigned k,
                                     unsigned h, const fr_t *comm_r_old, const fr_t *comm_d_new,
                                     const fr_t *comm_r_new, cuzk_error_t *err);

/* phi = H(comm_d_new, comm_r_old); rho = H(phi, high). */
cuzk_status fil_update_phi(fr_t *out, const fr_t *comm_d_new, const fr_t *comm_r_old,
                           cuzk_error_t *err);
cuzk_status fil_update_rho(fr_t *out, const fr_t *phi, uint32_t high, cuzk_error_t *err);

/* The challenges of partition k (Challenges::new; the Poseidon variant:
 * Challenges::new_poseidon, k = 0): out[0..shape->challenges). */
cuzk_status fil_update_challenges(uint64_t *out, const fil_update_shape_t *shape,
                                  const fr_t *comm_r_new, unsigned k, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
