/* Filecoin's Merkle trees, native: the shapes rust-fil-proofs builds (a base
 * tree of one arity, optionally joined by a sub-tree level and a top-tree
 * level of other arities), their roots, and inclusion paths in the form the
 * PoR circuit reads (filecoin_por.h). For tests and for the provers that
 * turn vanilla proofs into witnesses.
 *
 * Shapes (RFP:storage-proofs-core/src/merkle/): a tree of shape B-S-T over
 * N leaves is S * T base trees of arity B over N / (S * T) consecutive
 * leaves each; S base roots make a sub-tree root (one hash of arity S), T
 * sub-tree roots make the top root (arity T). S = 0 means no sub level, T =
 * 0 no top level; T > 0 needs S > 0 (get_base_tree_count, base_path_length).
 * The 32 GiB sector's tree_r is 8-8-0, 64 GiB 8-8-2, comm_d binary SHA-256.
 * Levels are numbered from the leaves: the base tree's, then the sub one,
 * then the top one. Node hashes (filecoin-hashers): Poseidon multi_node =
 * neptune's MerkleTree hash of the arity children (poseidon.h); SHA-256
 * multi_node = SHA-256 of the children's 32-byte LE reprs, trimmed to 254
 * bits (filecoin_sha.h). Heights are ignored by both.
 * The path of leaf j: at each level, index = j mod arity and the siblings
 * are the other arity - 1 children of j's parent in order; j /= arity. So
 * the index bits of all levels, least significant first, are the bits of
 * the leaf's number (por.rs challenge_into_auth_path_bits).
 *
 * Values are fr_t (Montgomery form, fr.h); a Filecoin domain's 32 bytes are
 * fr_to_le / fr_from_le of it.
 *
 * Rules: outputs first; pointers are required; cuzk_error_t *err may be
 * NULL. A built tree is immutable: any number of threads may read it. */
#ifndef CUZK_FILECOIN_MERKLE_H
#define CUZK_FILECOIN_MERKLE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arities Filecoin trees use (PoseidonArity; por.rs: powers of two). */
#define FIL_MERKLE_MAX_ARITY 8u
/* The largest sector, 64 GiB, has 2^31 nodes: 31 levels in its binary
 * SHA-256 tree_d, 11 in its 8-8-2 tree_r. 32 keeps a path at 7.4 KB (a
 * WindowPoSt partition holds 23,490 of them). */
#define FIL_MERKLE_MAX_LEVELS 32u

/* The tree's hash function (filecoin-hashers Hasher). */
typedef enum fil_hasher {
    FIL_HASHER_POSEIDON = 0, /* PoseidonHasher: tree_r, tree_c */
    FIL_HASHER_SHA256 = 1    /* Sha256Hasher: tree_d (comm_d) */
} fil_hasher;

/* MerkleTreeTrait's Hasher, Arity, SubTreeArity, TopTreeArity. */
typedef struct fil_tree_shape {
    fil_hasher hasher;
    unsigned base_arity; /* 2, 4 or 8 */
    unsigned sub_arity;  /* 0, 2, 4 or 8 */
    unsigned top_arity;  /* 0, 2, 4 or 8; not 0 only when sub_arity is not */
} fil_tree_shape_t;

/* One level of a path. */
typedef struct fil_merkle_level {
    unsigned arity;                          /* children per node here */
    unsigned index;                          /* position among them, < arity */
    fr_t siblings[FIL_MERKLE_MAX_ARITY - 1]; /* the other arity - 1, in order */
} fil_merkle_level_t;

/* An inclusion path (MerkleProof's leaf, path and root). */
typedef struct fil_merkle_path {
    unsigned n_levels;
    fr_t leaf;
    fr_t root;
    fil_merkle_level_t level[FIL_MERKLE_MAX_LEVELS];
} fil_merkle_path_t;

/* Checks a shape alone: arities as above. Returns CUZK_OK or
 * CUZK_ERR_ARG. */
cuzk_status fil_tree_shape_check(const fil_tree_shape_t *shape, cuzk_error_t *err);

/* Checks a shape and a leaf count: arities as above, leaves = S * T *
 * B^k for some k >= 1 (S, T read as 1 when 0), at most
 * FIL_MERKLE_MAX_LEVELS levels in all. Writes the number of base
 * levels k and of all levels (k, + 1 with a sub level, + 1 with a top
 * level); either output may be NULL. Returns CUZK_OK or CUZK_ERR_ARG. */
cuzk_status fil_tree_shape_levels(unsigned *base_levels, unsigned *levels,
                                  const fil_tree_shape_t *shape, uint64_t leaves,
                                  cuzk_error_t *err);

/* The arity of level l of a shape with `base_levels` base levels. */
unsigned fil_tree_shape_level_arity(const fil_tree_shape_t *shape, unsigned base_levels,
                                    unsigned l);

/* One node: the hash of children[0..arity) (multi_node). Returns CUZK_OK,
 * CUZK_ERR_ARG for an arity the hasher does not take, CUZK_ERR_NOMEM. */
cuzk_status fil_merkle_node(fr_t *out, fil_hasher hasher, const fr_t *children, unsigned arity,
                            cuzk_error_t *err);

typedef struct fil_merkle_tree fil_merkle_tree_t;

/* Builds the whole tree over leaves[0..n_leaves) (every level kept: for
 * tests and small trees; 32 bytes per node). Returns CUZK_OK, CUZK_ERR_ARG
 * (fil_tree_shape_levels), CUZK_ERR_NOMEM. */
cuzk_status fil_merkle_tree_build(fil_merkle_tree_t **out, const fil_tree_shape_t *shape,
                                  const fr_t *leaves, uint64_t n_leaves, cuzk_error_t *err);
void fil_merkle_tree_free(fil_merkle_tree_t *t); /* accepts NULL */

void fil_merkle_tree_root(fr_t *out, const fil_merkle_tree_t *t);
uint64_t fil_merkle_tree_leaves(const fil_merkle_tree_t *t);

/* The path of leaf `leaf`. Returns CUZK_OK or CUZK_ERR_ARG (out of range). */
cuzk_status fil_merkle_tree_path(fil_merkle_path_t *out, const fil_merkle_tree_t *t, uint64_t leaf,
                                 cuzk_error_t *err);

/* A path of the right shape with every value zero (bellperson's blank
 * circuit: for the count and record back ends). Returns CUZK_OK or
 * CUZK_ERR_ARG (fil_tree_shape_levels). */
cuzk_status fil_merkle_path_blank(fil_merkle_path_t *out, const fil_tree_shape_t *shape,
                                  uint64_t leaves, cuzk_error_t *err);

/* The leaf number a path's indices spell: sum index_l * prod_{m<l} arity_m. */
uint64_t fil_merkle_path_leaf_index(const fil_merkle_path_t *p);

/* The root a path leads to from p->leaf (MerkleProof::verify computes it
 * and compares with p->root). Returns CUZK_OK, CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status fil_merkle_path_compute_root(fr_t *out, fil_hasher hasher, const fil_merkle_path_t *p,
                                         cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
