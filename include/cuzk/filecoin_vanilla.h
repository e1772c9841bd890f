/* Filecoin vanilla proofs as provers receive them, read and written as
 * bincode:
 *  - PoSt: one sector's FallbackPoStSectorProof (RFP@87348a7
 *    filecoin-proofs/src/types/mod.rs; storage-proofs-post fallback/
 *    vanilla.rs SectorProof), what Curio sends per sector for WinningPoSt
 *    and WindowPoSt;
 *  - SnapDeals: one partition's PartitionProof (storage-proofs-update
 *    src/vanilla.rs PartitionProof { comm_c, apex_leafs, challenge_proofs:
 *    [ChallengeProof { proof_r_old, proof_d_new, proof_r_new }] }; the
 *    Poseidon variant, src/poseidon/vanilla.rs, has no apex_leafs and
 *    opens TreeD with TreeR's shape), what API update.rs
 *    generate_partition_proofs returns as PartitionProofBytes and Curio
 *    (lib/ffi/cuzk_funcs.go ProveUpdateCuzk) sends one per partition.
 * Both hold MerkleProofs (storage-proofs-core merkle/proof.rs: ProofData
 * Single / Sub / Top, InclusionPath, PathElement).
 *
 * bincode 1.x defaults: little-endian integers, u64 lengths, u32 enum tags,
 * [u8; 32] raw, PhantomData nothing. A domain (comm, hash, leaf) is a field
 * element's 32 little-endian bytes and must be canonical.
 *
 * Rules: outputs first, err last; pointers are required (NULL: CUZK_ERR_ARG)
 * except err. The parsers read only the given bytes, never trust a length
 * before checking it against what is left and against the shape, and name
 * the field and byte offset of the first problem (CUZK_ERR_FORMAT; a non-
 * canonical field element: CUZK_ERR_NONCANONICAL); on failure the output
 * is left zeroed. The writers return a malloc'd buffer the caller frees
 * with free(). All functions are reentrant. */
#ifndef CUZK_FILECOIN_VANILLA_H
#define CUZK_FILECOIN_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_update.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most inclusion proofs one sector proof may hold: WinningPoSt's
 * (WINNING_POST_CHALLENGE_COUNT: its one sector's 66 challenges; WindowPoSt
 * has 10). A parsed proof is then about 490 KB: keep one, not one per
 * sector of a large WindowPoSt. */
#define FIL_POST_VPROOF_MAX_PROOFS 66u

/* One sector's vanilla PoSt proof. Each path has its leaf, its root and,
 * per level from the leaves up, the arity (1 + the siblings), the index
 * and the siblings; its shape is in base_arity / sub_arity / top_arity. */
typedef struct fil_post_vproof {
    uint64_t sector_id;
    fr_t comm_r, comm_c, comm_r_last;
    unsigned n_proofs;
    fil_tree_shape_t shape; /* of the first proof; every proof must share it */
    fil_merkle_path_t paths[FIL_POST_VPROOF_MAX_PROOFS];
} fil_post_vproof_t;

/* Parses exactly one FallbackPoStSectorProof (all n bytes; its
 * vanilla_proof must hold exactly one sector, as Curio sends them).
 * Returns CUZK_OK, CUZK_ERR_FORMAT, CUZK_ERR_NONCANONICAL, CUZK_ERR_ARG. */
cuzk_status fil_post_vproof_parse(fil_post_vproof_t *out, const uint8_t *data, size_t n,
                                  cuzk_error_t *err);

/* The bincode of v (one sector): fil_post_vproof_parse's inverse, byte for
 * byte. Every path must have v->shape (sub and top paths one level each).
 * Returns CUZK_OK, CUZK_ERR_ARG (a count or path that does not fit),
 * CUZK_ERR_NOMEM. */
cuzk_status fil_post_vproof_write(uint8_t **out, size_t *n, const fil_post_vproof_t *v,
                                  cuzk_error_t *err);

/* ---- SnapDeals ----------------------------------------------------------- */

/* One partition's vanilla proof. Each challenge's three paths (r_old,
 * d_new, r_new: proof_r_old, proof_d_new, proof_r_new) carry their leaf,
 * root, and per level from the leaves up the arity, index and siblings;
 * r_old and r_new have the shape tree_r, d_new tree_d. */
typedef struct fil_snap_vproof {
    fil_update_kind kind; /* FIL_UPDATE_SHA: PartitionProof with apex_leafs */
    fr_t comm_c;
    unsigned n_apex_leafs; /* 0 for the Poseidon variant */
    fr_t *apex_leafs;
    unsigned n_challenges;
    fil_update_challenge_t *challenges;
    fil_tree_shape_t tree_r, tree_d;
} fil_snap_vproof_t;

/* Parses exactly one PartitionProof (all n bytes) of the sector `shape`
 * describes (fil_update_shape_init; its kind picks the variant): comm_c,
 * shape->apex_leafs apex leafs, shape->challenges challenge proofs whose
 * paths have the shape's trees (ProofData tag, path lengths, arities).
 * Free the result with fil_snap_vproof_free. Returns CUZK_OK,
 * CUZK_ERR_FORMAT, CUZK_ERR_NONCANONICAL, CUZK_ERR_ARG (a shape not
 * fil_update_shape_init's), CUZK_ERR_NOMEM. */
cuzk_status fil_snap_vproof_parse(fil_snap_vproof_t *out, const fil_update_shape_t *shape,
                                  const uint8_t *data, size_t n, cuzk_error_t *err);

/* The bincode of v (apex_leafs written for FIL_UPDATE_SHA only): the
 * parser's inverse, byte for byte. Returns CUZK_OK, CUZK_ERR_ARG (a path
 * not of its tree's shape, apex leafs in the Poseidon variant, a missing
 * array), CUZK_ERR_NOMEM. */
cuzk_status fil_snap_vproof_write(uint8_t **out, size_t *n, const fil_snap_vproof_t *v,
                                  cuzk_error_t *err);

/* Frees the arrays and zeroes *v; accepts NULL and a zeroed proof. */
void fil_snap_vproof_free(fil_snap_vproof_t *v);

/* What the prover is told besides the vanilla proof (PublicInputs). */
typedef struct fil_snap_public {
    unsigned k; /* the partition (0 for the Poseidon variant) */
    unsigned h; /* the encoding's high bits, one of shape->hs */
    fr_t comm_r_old, comm_d_new, comm_r_new;
} fil_snap_public_t;

/* The circuit's witness (filecoin_update.h) for partition pub->k: public
 * values from pub; comm_c, apex leafs and paths from v; root_r_old and
 * root_r_new from the proofs' roots. Checks what vanilla.rs verify checks
 * cheaply, so that a proof that cannot satisfy the circuit is refused
 * with a reason: v of the shape; every proof_r_old (proof_r_new) root
 * the same; every proof_d_new root comm_d_new; comm_r_old =
 * Poseidon-2(comm_c, root_r_old), comm_r_new likewise; each challenge's
 * three paths open the node fil_update_challenges draws. The paths'
 * hashes and the encoding are left to the circuit. Free with
 * fil_update_witness_free. Returns CUZK_OK, CUZK_ERR_ARG (naming the
 * challenge and proof), CUZK_ERR_NOMEM. */
cuzk_status fil_snap_vproof_witness(fil_update_witness_t *out, const fil_update_shape_t *shape,
                                    const fil_snap_vproof_t *v, const fil_snap_public_t *pub,
                                    cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
