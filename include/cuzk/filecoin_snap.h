/* SnapDeals (EmptySectorUpdate) encoding of new data into a sealed
 * sector's replica, and the partition vanilla proofs of the result: test
 * and benchmark inputs built as rust-fil-proofs builds them
 * (RFP@87348a7 storage-proofs-update/src/vanilla.rs encode_into, phi,
 * rho, prove_all_partitions; poseidon/vanilla.rs).
 *
 *   tree_d_new over the new data (binary SHA-256, or tree_r's shape for
 *   the Poseidon variant), comm_d_new its root;
 *   comm_r_old = Poseidon-2(comm_c, root of tree_r_old);
 *   phi = H(comm_d_new, comm_r_old); for node i, high = i >> (log2 nodes -
 *   h) and rho = H(phi, high); replica_new[i] = replica_old[i] +
 *   data_new[i] * rho (in Fr); tree_r_new over it, comm_r_new =
 *   Poseidon-2(comm_c, its root).
 * A partition's proof opens each challenge (fil_update_challenges from
 * comm_r_new) in tree_r_old, tree_d_new and tree_r_new; the SHA variant
 * adds the partition's apex leafs (the roots of tree_d_new's subtrees at
 * the apex row).
 *
 * fil_snap_encode keeps every node and tree (small sectors: about 3 x 32
 * bytes x nodes x 1.3). fil_snap_encode_sparse, for 32 and 64 GiB
 * sectors, keeps sparse trees (sparse_tree.h): the old replica is a
 * sealing's tree_r_last, the new data zero but at a few nodes, and only
 * the nonzero leaves' ancestors are stored; every other node is the hash
 * of an all-zero subtree, so every path ends in the one root and the two
 * encoders give the same update over the same leaves. Rules: outputs first, err last (may be NULL);
 * an update is immutable once made: any number of threads may read it. */
#ifndef CUZK_FILECOIN_SNAP_H
#define CUZK_FILECOIN_SNAP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_update.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fil_snap_update fil_snap_update_t;

/* Encodes data_new[0..nodes) into replica_old[0..nodes) (a sealed
 * sector's replica, comm_c its column commitment) with h (one of the
 * shape's hs). Returns CUZK_OK, CUZK_ERR_ARG (a node count or h the shape
 * does not allow, a data node >= 2^254 naming it), CUZK_ERR_NOMEM. */
cuzk_status fil_snap_encode(fil_snap_update_t **out, fil_update_kind kind, uint64_t nodes,
                            const fr_t *replica_old, const fr_t *comm_c, const fr_t *data_new,
                            unsigned h, cuzk_error_t *err);
void fil_snap_update_free(fil_snap_update_t *u); /* accepts NULL */

/* Encodes new data into the replica of `old` (its tree_r_last; comm_c and
 * comm_r its own): data[k] at node data_nodes[k] for k < n_data (sorted,
 * strictly increasing, each < nodes; values fr32, < 2^254), every other
 * data node zero; trees made on up to `threads` threads (parallel.h).
 * The new replica is materialized at the old sealing's materialized
 * tree_r leaves (a dense sealing: every leaf) and the data nodes; the
 * update does not keep `old`. data_nodes and data may be NULL when
 * n_data is 0. Returns CUZK_OK, CUZK_ERR_ARG (NULL old or out, an h the
 * shape does not allow, data_nodes[k] out of order or range, data[k] >=
 * 2^254, naming k), CUZK_ERR_NOMEM. */
cuzk_status fil_snap_encode_sparse(fil_snap_update_t **out, fil_update_kind kind,
                                   const fil_sealed_t *old, const uint64_t *data_nodes,
                                   const fr_t *data, size_t n_data, unsigned h, int threads,
                                   cuzk_error_t *err);

const fil_update_shape_t *fil_snap_update_shape(const fil_snap_update_t *u);
/* Either encoder's update. */
/* The public values of partition k (fil_snap_vproof_witness's). */
void fil_snap_update_public(fil_snap_public_t *out, const fil_snap_update_t *u, unsigned k);

/* Partition k's vanilla proof (free with fil_snap_vproof_free). Returns
 * CUZK_OK, CUZK_ERR_ARG (k >= partitions), CUZK_ERR_NOMEM. */
cuzk_status fil_snap_update_vproof(fil_snap_vproof_t *out, const fil_snap_update_t *u, unsigned k,
                                   cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
