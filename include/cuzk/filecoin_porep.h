/* The StackedDrg PoRep circuit (Filecoin's SealCommit phase 2), one
 * partition, R1CS-exact to rust-fil-proofs (RFP@87348a7:
 * storage-proofs-porep/src/stacked/circuit/proof.rs StackedCircuit::
 * synthesize, params.rs Proof::synthesize, column.rs, hash.rs
 * hash_single_column, create_label.rs; storage-proofs-core gadgets/por.rs,
 * encode.rs, uint64.rs).
 *
 * In order: replica_id (alloc, inputize, to_bits_le reversed in bytes),
 * comm_d and comm_r (alloc, inputize), comm_r_last and comm_c (alloc),
 * comm_r = Poseidon-2(comm_c, comm_r_last) (hash2_circuit, equal); then per
 * challenge: the data leaf, its comm_d inclusion (SHA-256 binary tree), the
 * 6 DRG and 8 expander parents' columns (alloc, column hash: Poseidon of
 * arity `layers`, inclusion in comm_c's tree), the challenge (UInt64,
 * packed into an input), the label of every layer (create_label over the
 * 37 expanded parents: layer 1 the DRG parents x 6 + parent 0, later
 * layers DRG + expander parents x 2 + the first 9), the encoding
 * (last label + data leaf) and its inclusion in comm_r_last's tree, and
 * the challenged column's hash and its inclusion in comm_c's tree.
 *
 * Counts (../shared/testdata/filecoin/circuits/reference.json): 571
 * constraints of header plus per challenge 30 x 45,382 + 2 (comm_d) + 14 x
 * (598 + 5,302) + 65 + 11 x 522,269 + (6 + 10 x 14) x 256 + 1 + 2 x 5,302 +
 * 598 at 32 GiB: 130,278,541 for 18 challenges.
 *
 * Rules: outputs first, then the cs; values are read only when
 * cs_has_values(cs) (pass fil_porep_challenge_blank's challenges to count
 * or record); errors are the cs's (cs_status). */
#ifndef CUZK_FILECOIN_POREP_H
#define CUZK_FILECOIN_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_POREP_DRG_PARENTS 6u
#define FIL_POREP_EXP_PARENTS 8u
#define FIL_POREP_MAX_LAYERS 11u

/* The circuit's shape: the sector's nodes, tree_r / tree_c's shape
 * (Poseidon), the layers (2 or 11: the column hash's arity) and the
 * challenges of one partition. tree_d is always the SHA-256 binary tree. */
typedef struct fil_porep_shape {
    uint64_t nodes;
    fil_tree_shape_t tree;
    unsigned layers;
    unsigned challenges;
} fil_porep_shape_t;

/* What the circuit reads of one challenge (a vanilla Proof, params.rs):
 * the challenged node, its data leaf, the inclusion paths (leaf and root
 * inside a path are not read), and the parents' columns (row l - 1 is
 * layer l's label). */
typedef struct fil_porep_challenge {
    uint64_t challenge;
    fr_t data_leaf;
    fil_merkle_path_t comm_d_path;      /* in tree_d */
    fil_merkle_path_t comm_r_last_path; /* in tree_r_last */
    fil_merkle_path_t comm_c_path;      /* the challenge's column in tree_c */
    fr_t drg_cols[FIL_POREP_DRG_PARENTS][FIL_POREP_MAX_LAYERS];
    fil_merkle_path_t drg_paths[FIL_POREP_DRG_PARENTS];
    fr_t exp_cols[FIL_POREP_EXP_PARENTS][FIL_POREP_MAX_LAYERS];
    fil_merkle_path_t exp_paths[FIL_POREP_EXP_PARENTS];
} fil_porep_challenge_t;

/* The partition's public and private commitments. */
typedef struct fil_porep_public {
    fr_t replica_id, comm_d, comm_r, comm_r_last, comm_c;
} fil_porep_public_t;

/* Checks the shape (tree shape, layers 2 or 11, at least one challenge,
 * nodes a tree of that shape holds). CUZK_ERR_ARG naming the field. */
cuzk_status fil_porep_shape_check(const fil_porep_shape_t *shape, cuzk_error_t *err);

/* A challenge with blank paths of the shape's trees and zero values: what
 * a count or record run synthesizes. */
cuzk_status fil_porep_challenge_blank(fil_porep_challenge_t *out, const fil_porep_shape_t *shape,
                                      cuzk_error_t *err);

/* StackedCircuit::synthesize with shape->challenges challenges ch[]. */
void fil_cs_porep(cs_t *cs, const fil_porep_shape_t *shape, const fil_porep_public_t *pub,
                  const fil_porep_challenge_t *ch);

#ifdef __cplusplus
}
#endif
#endif
