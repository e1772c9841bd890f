/* A real Filecoin sealer for test and benchmark inputs: seals a small
 * sector (every node in memory) exactly as rust-fil-proofs does, or a
 * 32/64 GiB one sparsely (fil_seal_sparse: only what proofs open is
 * real), and hands out what the PoRep and PoSt circuits read: the vanilla
 * proof of a PoRep challenge and a sector's PoSt vanilla proof.
 *
 * Sealing (RFP = filecoin-project/rust-fil-proofs@87348a7):
 *  1. data: `nodes` 32-byte nodes, each an Fr below 2^254 (fr32 padding:
 *     the top two bits of a node's last byte are zero);
 *  2. tree_d: the binary SHA-256 tree over the data nodes, comm_d its root
 *     (filecoin-proofs src/api/seal.rs seal_pre_commit_phase1,
 *     BinaryMerkleTree<DefaultPieceHasher>);
 *  3. replica_id = fil_replica_id(prover_id, sector_id, ticket, comm_d,
 *     porep_id) (storage-proofs-porep stacked/vanilla/params.rs
 *     generate_replica_id);
 *  4. the SDR labels of layers 1..L (stacked/vanilla/create_label/
 *     single.rs create_label, create_label_exp; graph.rs
 *     copy_parents_data*): fil_create_label over the 6 DRG parents in the
 *     same layer (layer 1: x 6 and parent 0) or the DRG parents in the
 *     same layer and the 8 expander parents in layer l - 1 (x 2 and the
 *     first 9); node 0 hashes no parents. Parents as fil_graph_parents
 *     for the proof's porep_id and API version (V1: the 1.0.0 slot order
 *     and expander truncation);
 *  5. tree_c: the tree of the proof's sector shape (fil_sector_tree) over
 *     the column hashes Poseidon-L(label_1[i] .. label_L[i])
 *     (stacked/vanilla/hash.rs hash_single_column, proof.rs
 *     generate_tree_c), comm_c its root;
 *  6. the replica: replica[i] = data[i] + label_L[i] in Fr
 *     (storage-proofs-core encode.rs encode); tree_r_last of the same
 *     shape over it, comm_r_last its root;
 *  7. comm_r = Poseidon-2(comm_c, comm_r_last) (proof.rs
 *     transform_and_replicate_layers).
 * Vanilla proofs: params.rs Proof (the challenged node's data leaf and its
 * comm_d path, its comm_r_last path, its column's comm_c path, the columns
 * and comm_c paths of its 14 parents); storage-proofs-post fallback/
 * vanilla.rs SectorProof (comm_c, comm_r_last and the tree_r_last
 * inclusion proofs of the challenged leaves).
 *
 * Dense sealing keeps every layer and every tree level: about
 * (L + 4.3) x sector size bytes, plus 1.75 x for the parents it keeps up
 * to 32 MiB sectors (fil_seal_dense_bytes: 67 MB at 8 MiB, 3.2 GiB at
 * 512 MiB); sectors above FIL_SEAL_DENSE_MAX_SIZE are refused
 * (CUZK_ERR_UNSUPPORTED).
 *
 * Rules: outputs first, err last (may be NULL); every other pointer is
 * required unless said otherwise; values are fr_t (Montgomery form, fr.h:
 * fr_to_le gives a Filecoin domain's 32 bytes). A fil_sealed_t is
 * immutable once fil_seal returns: any number of threads may read it.
 * Errors: CUZK_ERR_ARG naming the argument (and the node or index),
 * CUZK_ERR_UNSUPPORTED, CUZK_ERR_NOMEM, CUZK_ERR_INTERNAL (OpenSSL). */
#ifndef CUZK_FILECOIN_SEAL_H
#define CUZK_FILECOIN_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest sector fil_seal keeps in memory (512 MiB: about 3.2 GiB). */
#define FIL_SEAL_DENSE_MAX_SIZE (512ull << 20)

typedef struct fil_sealed fil_sealed_t;

/* The bytes a dense sealing of p holds (labels, tree_d, tree_c,
 * tree_r_last), or 0 when p is not a registered seal proof. */
uint64_t fil_seal_dense_bytes(fil_seal_proof p);

/* Seals a sector of proof p (any registered seal proof: synthetic and
 * non-interactive ones seal as the interactive ones do).
 * In: data[0..nodes) the data nodes, each below 2^254; or NULL: node i is
 *     SHA-256(seed u64 LE || i u64 LE) with the top two bits of byte 31
 *     cleared (deterministic in seed). seed is ignored when data is given.
 *     threads: parallel.h rules (<= 0: every CPU). Labels of one layer are
 *     sequential; parents, column hashes, the replica and tree levels use
 *     the threads.
 * Out: *out, freed with fil_sealed_free; NULL on error.
 * Returns CUZK_OK; CUZK_ERR_ARG (a NULL pointer, an unknown proof, a data
 * node of 2^254 or more: its index); CUZK_ERR_UNSUPPORTED (a sector above
 * FIL_SEAL_DENSE_MAX_SIZE); CUZK_ERR_NOMEM; CUZK_ERR_INTERNAL. */
cuzk_status fil_seal(fil_sealed_t **out, fil_seal_proof proof, const uint8_t prover_id[32],
                     uint64_t sector_id, const uint8_t ticket[32], const fr_t *data, uint64_t seed,
                     int threads, cuzk_error_t *err);
void fil_sealed_free(fil_sealed_t *s); /* accepts NULL */

/* Seals a sector of proof p sparsely (any size; meant for 32 and 64 GiB,
 * where a dense sealing would need 100s of GiB): a committed-capacity
 * sector (every data node zero: comm_d is the zero-piece commitment) in
 * which only what proofs open is real. With seed (32 bytes; interactive
 * proofs only) every PoRep challenge of every partition of that seed
 * (fil_porep_partition_challenges) has real labels (create_label over its
 * parents' labels), and its column, its parents' columns and its replica
 * node are leaves of tree_c and tree_r_last; post_leaves[0..n) are
 * replica leaves too (PoSt challenges: fil_post_sector_leaves). Every
 * other label is a stand-in (SHA-256 of a tag, replica_id, layer and node,
 * fr32), every other tree leaf is zero and every untouched subtree the
 * hash of an all-zero subtree, so every path of every tree ends in its one
 * root: fil_sealed_porep_challenge of a seeded challenge, fil_sealed_c1
 * for that seed and fil_sealed_post_vproof of any leaves satisfy the real
 * circuits. Memory and time grow with the challenges and leaves only
 * (32 GiB PoRep: 180 challenges, about 2,700 leaves; well under a second).
 * threads: parallel.h rules, for the column and tree hashes.
 * Returns CUZK_OK; CUZK_ERR_ARG (a NULL pointer, an unknown proof, a PoSt
 * leaf out of range: its index); CUZK_ERR_UNSUPPORTED (a seed for a
 * synthetic or non-interactive proof: their challenges depend on comm_r);
 * CUZK_ERR_NOMEM; CUZK_ERR_INTERNAL. */
cuzk_status fil_seal_sparse(fil_sealed_t **out, fil_seal_proof proof, const uint8_t prover_id[32],
                            uint64_t sector_id, const uint8_t ticket[32], const uint8_t *seed,
                            const uint64_t *post_leaves, size_t n_post_leaves, int threads,
                            cuzk_error_t *err);

/* The sector's proof row (fil_seal_info) and id. */
const fil_seal_info_t *fil_sealed_info(const fil_sealed_t *s);
uint64_t fil_sealed_sector_id(const fil_sealed_t *s);

/* The commitments and the replica id. */
void fil_sealed_comm_d(fr_t *out, const fil_sealed_t *s);
void fil_sealed_comm_c(fr_t *out, const fil_sealed_t *s);
void fil_sealed_comm_r_last(fr_t *out, const fil_sealed_t *s);
void fil_sealed_comm_r(fr_t *out, const fil_sealed_t *s);
void fil_sealed_replica_id(fr_t *out, const fil_sealed_t *s);

/* Data node, label (1 <= layer <= layers) and replica node `node` <
 * nodes. Returns CUZK_OK or CUZK_ERR_ARG naming the layer or node. */
cuzk_status fil_sealed_data(fr_t *out, const fil_sealed_t *s, uint64_t node, cuzk_error_t *err);
cuzk_status fil_sealed_label(fr_t *out, const fil_sealed_t *s, unsigned layer, uint64_t node,
                             cuzk_error_t *err);
cuzk_status fil_sealed_replica(fr_t *out, const fil_sealed_t *s, uint64_t node, cuzk_error_t *err);

/* The PoRep circuit's shape for one partition of this sector: nodes, the
 * sector's tree (fil_sector_tree), layers, challenges per partition. */
void fil_sealed_porep_shape(fil_porep_shape_t *out, const fil_sealed_t *s);

/* The circuit's public and private commitments (replica_id, comm_d,
 * comm_r, comm_r_last, comm_c). */
void fil_sealed_porep_public(fil_porep_public_t *out, const fil_sealed_t *s);

/* The vanilla proof of PoRep challenge `challenge` (1 <= challenge <
 * nodes: node 0 is never challenged, its label has no parents), as
 * fil_cs_porep reads it; paths carry their leaf and root. Returns CUZK_OK
 * or CUZK_ERR_ARG naming the challenge. */
cuzk_status fil_sealed_porep_challenge(fil_porep_challenge_t *out, const fil_sealed_t *s,
                                       uint64_t challenge, cuzk_error_t *err);

/* The sector's PoSt vanilla proof (SectorProof with sector_id and comm_r)
 * for leaf_challenges[0..n), 1 <= n <= FIL_POST_VPROOF_MAX_PROOFS, each
 * < nodes (fil_post_leaf_challenge draws them). Returns CUZK_OK or
 * CUZK_ERR_ARG naming n or the challenge's index. */
cuzk_status fil_sealed_post_vproof(fil_post_vproof_t *out, const fil_sealed_t *s,
                                   const uint64_t *leaf_challenges, unsigned n, cuzk_error_t *err);

/* The sector's C1 output (seal_commit_phase1: SealCommitPhase1Output) for
 * ticket and seed: every partition's challenges drawn as the proof's kind
 * draws them (filecoin_inputs.h), each with its vanilla Proof (columns,
 * paths, labeling and encoding proofs). Free with fil_c1_free. Returns
 * CUZK_OK, CUZK_ERR_NOMEM, or a challenge's error. */
cuzk_status fil_sealed_c1(fil_c1_t *out, const fil_sealed_t *s, const uint8_t ticket[32],
                          const uint8_t seed[32], cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
