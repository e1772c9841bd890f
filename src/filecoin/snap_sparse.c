/* The sparse SnapDeals encoder (filecoin_snap.h fil_snap_encode_sparse):
 * an update of a 32 or 64 GiB sector without its 2^30 or 2^31 nodes.
 * RFP = filecoin-project/rust-fil-proofs@87348a7.
 *
 * The old replica is zero but at the sealing's materialized tree_r_last
 * leaves (seal_sparse.c), the new data zero but at data_nodes. The
 * encoding (storage-proofs-update/src/vanilla.rs encode_into)
 * replica_new[i] = replica_old[i] + data[i] * rho(i) is therefore zero
 * wherever both are, and is computed at the union of the two sets only.
 * tree_r_old is remade from the sealing's leaves (and checked against its
 * comm_r_last) so that the update owns every tree it proves from. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_snap.h"
#include "seal_internal.h"
#include "snap_internal.h"
#include "sparse_tree.h"

static cuzk_status hash2(fr_t *out, const fr_t *a, const fr_t *b, cuzk_error_t *err)
{
    fr_t in[2] = {*a, *b};
    return fil_merkle_node(out, FIL_HASHER_POSEIDON, in, 2, err);
}

static cuzk_status data_check(const uint64_t *data_nodes, const fr_t *data, size_t n_data,
                              uint64_t nodes, cuzk_error_t *err)
{
    if (n_data && (!data_nodes || !data))
        return cuzk_error_set(err, CUZK_ERR_ARG, "snap encode sparse: NULL %s",
                              !data_nodes ? "data_nodes" : "data");
    for (size_t k = 0; k < n_data; k++) {
        if (data_nodes[k] >= nodes || (k && data_nodes[k] <= data_nodes[k - 1]))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "snap encode sparse: data_nodes[%zu] = %llu: not < %llu and "
                                  "above data_nodes[%zu]",
                                  k, (unsigned long long)data_nodes[k], (unsigned long long)nodes,
                                  k ? k - 1 : 0);
        uint8_t b[32];
        fr_to_le(b, &data[k]);
        if (b[31] & 0xc0) /* fr32: a data node holds 254 bits */
            return cuzk_error_set(err, CUZK_ERR_ARG, "snap encode sparse: data[%zu] is >= 2^254",
                                  k);
    }
    return CUZK_OK;
}

/* tree_r_old's leaves: a sparse sealing's materialized ones, or every
 * leaf of a dense sealing. */
static cuzk_status r_old_leaves(fil_sparse_level_t *lv, const fil_sealed_t *old, uint64_t nodes,
                                cuzk_error_t *err)
{
    const fil_sparse_tree_t *t = fil_seal_sparse_tree(old, FIL_SEAL_TREE_R);
    size_t n = t ? t->level[0].n : (size_t)nodes;
    cuzk_status st = fil_sparse_leaves_alloc(lv, n, err);
    if (st != CUZK_OK)
        return st;
    if (t) {
        if (n) {
            memcpy(lv->idx, t->level[0].idx, n * sizeof *lv->idx);
            memcpy(lv->val, t->level[0].val, n * sizeof *lv->val);
        }
        lv->n = n;
        return CUZK_OK;
    }
    for (uint64_t i = 0; i < nodes && st == CUZK_OK; i++) {
        lv->idx[i] = i;
        st = fil_sealed_replica(&lv->val[i], old, i, err);
    }
    lv->n = n;
    return st;
}

/* tree_r_new's leaves: the union of r_old's and the data nodes, each
 * replica_old + data * rho(high bits). */
static cuzk_status r_new_leaves(fil_sparse_level_t *lv, const fil_snap_update_t *u,
                                const fil_sparse_level_t *old, const uint64_t *data_nodes,
                                const fr_t *data, size_t n_data, const fr_t *phi, cuzk_error_t *err)
{
    cuzk_status st = fil_sparse_leaves_alloc(lv, old->n + n_data, err);
    const unsigned shr = u->shape.challenge_bits - u->h;
    size_t a = 0, b = 0;
    while (st == CUZK_OK && (a < old->n || b < n_data)) {
        uint64_t i = b == n_data || (a < old->n && old->idx[a] < data_nodes[b]) ? old->idx[a]
                                                                                : data_nodes[b];
        fr_t r = FR_ZERO;
        if (a < old->n && old->idx[a] == i)
            r = old->val[a++];
        if (b < n_data && data_nodes[b] == i) {
            fr_t rho, t;
            if ((st = fil_update_rho(&rho, phi, (uint32_t)(i >> shr), err)) != CUZK_OK)
                break;
            fr_mul(&t, &data[b++], &rho);
            fr_add(&r, &r, &t);
        }
        lv->idx[lv->n] = i;
        lv->val[lv->n++] = r;
    }
    return st;
}

static cuzk_status tree_new(fil_sparse_tree_t **out, cuzk_error_t *err)
{
    if (!(*out = calloc(1, sizeof **out)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "snap encode sparse: no memory");
    return CUZK_OK;
}

cuzk_status fil_snap_encode_sparse(fil_snap_update_t **out, fil_update_kind kind,
                                   const fil_sealed_t *old, const uint64_t *data_nodes,
                                   const fr_t *data, size_t n_data, unsigned h, int threads,
                                   cuzk_error_t *err)
{
    if (!out || !old)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_snap_encode_sparse: NULL %s",
                              !out ? "out" : "old");
    *out = NULL;
    const uint64_t nodes = fil_sealed_info(old)->nodes;
    fil_snap_update_t *u = calloc(1, sizeof *u);
    if (!u)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "snap encode sparse: no memory");
    cuzk_status st = fil_update_shape_init(&u->shape, kind, nodes, err);
    uint64_t hsel;
    if (st == CUZK_OK)
        st = fil_update_h_select(&hsel, &u->shape, h, err);
    if (st == CUZK_OK)
        st = data_check(data_nodes, data, n_data, nodes, err);
    for (int t = 0; t < SNAP_TREES && st == CUZK_OK; t++)
        st = tree_new(&u->sparse[t], err);
    fil_sparse_tree_t *r_old = u->sparse[SNAP_R_OLD], *d = u->sparse[SNAP_D_NEW],
                      *r_new = u->sparse[SNAP_R_NEW];
    if (st == CUZK_OK)
        st = r_old_leaves(&r_old->level[0], old, nodes, err);
    if (st == CUZK_OK)
        st = fil_sparse_tree_make(r_old, &u->shape.tree_r, nodes, threads, err);
    fr_t root, want;
    if (st == CUZK_OK) {
        u->h = h;
        fil_sealed_comm_c(&u->comm_c, old);
        fil_sealed_comm_r_last(&want, old);
        fil_sparse_tree_root(&root, r_old);
        if (!fr_equal(&root, &want))
            st = cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                "snap encode sparse: the old replica's tree is not the sealing's "
                                "tree_r_last");
    }
    if (st == CUZK_OK)
        st = hash2(&u->comm_r_old, &u->comm_c, &root, err);
    /* tree_d_new over the data (sh->tree_d: SHA-256 binary, or tree_r's
     * shape for the Poseidon variant) */
    if (st == CUZK_OK && (st = fil_sparse_leaves_alloc(&d->level[0], n_data, err)) == CUZK_OK &&
        n_data) {
        memcpy(d->level[0].idx, data_nodes, n_data * sizeof *data_nodes);
        memcpy(d->level[0].val, data, n_data * sizeof *data);
        d->level[0].n = n_data;
    }
    if (st == CUZK_OK)
        st = fil_sparse_tree_make(d, &u->shape.tree_d, nodes, threads, err);
    fr_t phi;
    if (st == CUZK_OK) {
        fil_sparse_tree_root(&u->comm_d_new, d);
        st = fil_update_phi(&phi, &u->comm_d_new, &u->comm_r_old, err);
    }
    if (st == CUZK_OK)
        st = r_new_leaves(&r_new->level[0], u, &r_old->level[0], data_nodes, data, n_data, &phi,
                          err);
    if (st == CUZK_OK)
        st = fil_sparse_tree_make(r_new, &u->shape.tree_r, nodes, threads, err);
    if (st == CUZK_OK) {
        fil_sparse_tree_root(&root, r_new);
        st = hash2(&u->comm_r_new, &u->comm_c, &root, err);
    }
    if (st != CUZK_OK) {
        fil_snap_update_free(u);
        return st;
    }
    *out = u;
    return CUZK_OK;
}
