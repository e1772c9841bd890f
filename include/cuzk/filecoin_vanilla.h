/* Filecoin vanilla proofs as provers receive them. So far: the PoSt
 * sector proof, bincode FallbackPoStSectorProof (RFP@87348a7
 * filecoin-proofs/src/types/mod.rs; storage-proofs-post fallback/
 * vanilla.rs SectorProof; storage-proofs-core merkle/proof.rs
 * MerkleProof, ProofData Single / Sub / Top, InclusionPath, PathElement),
 * what Curio sends per sector for WinningPoSt and WindowPoSt.
 *
 * bincode 1.x defaults: little-endian integers, u64 lengths, u32 enum tags,
 * [u8; 32] raw, PhantomData nothing. A domain (comm, hash, leaf) is a field
 * element's 32 little-endian bytes and must be canonical.
 *
 * Rules: outputs first, err last; the parser reads only the given bytes,
 * never trusts a length before checking it against what is left, and names
 * the field and offset of the first problem (CUZK_ERR_FORMAT; a non-
 * canonical field element: CUZK_ERR_NONCANONICAL). */
#ifndef CUZK_FILECOIN_VANILLA_H
#define CUZK_FILECOIN_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_merkle.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most inclusion proofs one sector proof may hold (WindowPoSt: 10). */
#define FIL_POST_VPROOF_MAX_PROOFS 16u

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

#ifdef __cplusplus
}
#endif
#endif
