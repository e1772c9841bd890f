/* Internal to the SnapDeals encoders (filecoin_snap.h): the update both
 * the dense (snap_encode.c) and the sparse (snap_sparse.c) encoder make,
 * and which the partition provers read without knowing which made it.
 *
 * Rules: an update is immutable once made; any number of threads read it. */
#ifndef CUZK_FILECOIN_SNAP_INTERNAL_H
#define CUZK_FILECOIN_SNAP_INTERNAL_H

#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_snap.h"
#include "sparse_tree.h"

/* The update's trees: tree_r_old, tree_d_new, tree_r_new. */
enum { SNAP_R_OLD = 0, SNAP_D_NEW = 1, SNAP_R_NEW = 2, SNAP_TREES = 3 };

struct fil_snap_update {
    fil_update_shape_t shape;
    unsigned h;
    fr_t comm_c, comm_r_old, comm_d_new, comm_r_new;
    /* dense (fil_snap_encode): every node kept, d_new the data (the apex
     * leafs are subtrees of it) */
    fr_t *d_new;
    fil_merkle_tree_t *tree[SNAP_TREES];
    /* sparse (fil_snap_encode_sparse): materialized leaves only; set
     * where tree[] is NULL */
    fil_sparse_tree_t *sparse[SNAP_TREES];
};

#endif
