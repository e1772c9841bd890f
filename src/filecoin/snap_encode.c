/* SnapDeals encoding and its partition vanilla proofs (filecoin_snap.h). */
#include "cuzk/filecoin_snap.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_merkle.h"
#include "snap_internal.h"

void fil_snap_update_free(fil_snap_update_t *u)
{
    if (!u)
        return;
    free(u->d_new);
    for (int t = 0; t < SNAP_TREES; t++) {
        fil_merkle_tree_free(u->tree[t]);
        fil_sparse_tree_clear(u->sparse[t]);
        free(u->sparse[t]);
    }
    free(u);
}

static cuzk_status hash2(fr_t *out, const fr_t *a, const fr_t *b, cuzk_error_t *err)
{
    fr_t in[2] = {*a, *b};
    return fil_merkle_node(out, FIL_HASHER_POSEIDON, in, 2, err);
}

cuzk_status fil_snap_encode(fil_snap_update_t **out, fil_update_kind kind, uint64_t nodes,
                            const fr_t *replica_old, const fr_t *comm_c, const fr_t *data_new,
                            unsigned h, cuzk_error_t *err)
{
    *out = NULL;
    fil_snap_update_t *u = calloc(1, sizeof *u);
    if (!u)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "snap encode: no memory");
    cuzk_status st = fil_update_shape_init(&u->shape, kind, nodes, err);
    uint64_t hsel;
    if (st == CUZK_OK)
        st = fil_update_h_select(&hsel, &u->shape, h, err);
    fr_t *r_new = NULL;
    if (st == CUZK_OK) {
        u->d_new = malloc(nodes * sizeof *u->d_new);
        r_new = malloc(nodes * sizeof *r_new);
        if (!u->d_new || !r_new)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "snap encode: no memory for %llu nodes",
                                (unsigned long long)nodes);
    }
    for (uint64_t i = 0; st == CUZK_OK && i < nodes; i++) {
        uint8_t b[32];
        fr_to_le(b, &data_new[i]);
        if (b[31] & 0xc0) /* fr32: a data node holds 254 bits */
            st = cuzk_error_set(err, CUZK_ERR_ARG, "snap encode: data node %llu is >= 2^254",
                                (unsigned long long)i);
        u->d_new[i] = data_new[i];
    }
    if (st == CUZK_OK)
        st = fil_merkle_tree_build(&u->tree[SNAP_R_OLD], &u->shape.tree_r, replica_old, nodes, err);
    if (st == CUZK_OK)
        st = fil_merkle_tree_build(&u->tree[SNAP_D_NEW], &u->shape.tree_d, u->d_new, nodes, err);
    fr_t root, phi;
    if (st == CUZK_OK) {
        u->h = h;
        u->comm_c = *comm_c;
        fil_merkle_tree_root(&root, u->tree[SNAP_R_OLD]);
        fil_merkle_tree_root(&u->comm_d_new, u->tree[SNAP_D_NEW]);
        st = hash2(&u->comm_r_old, comm_c, &root, err);
    }
    if (st == CUZK_OK)
        st = fil_update_phi(&phi, &u->comm_d_new, &u->comm_r_old, err);
    /* rho depends on the node's high h bits only: one per 2^shr nodes */
    const unsigned shr = u->shape.challenge_bits - h;
    fr_t rho;
    for (uint64_t i = 0; st == CUZK_OK && i < nodes; i++) {
        if ((i & ((UINT64_C(1) << shr) - 1)) == 0 &&
            (st = fil_update_rho(&rho, &phi, (uint32_t)(i >> shr), err)) != CUZK_OK)
            break;
        fr_mul(&r_new[i], &u->d_new[i], &rho);
        fr_add(&r_new[i], &r_new[i], &replica_old[i]);
    }
    if (st == CUZK_OK)
        st = fil_merkle_tree_build(&u->tree[SNAP_R_NEW], &u->shape.tree_r, r_new, nodes, err);
    if (st == CUZK_OK) {
        fil_merkle_tree_root(&root, u->tree[SNAP_R_NEW]);
        st = hash2(&u->comm_r_new, comm_c, &root, err);
    }
    free(r_new);
    if (st != CUZK_OK) {
        fil_snap_update_free(u);
        return st;
    }
    *out = u;
    return CUZK_OK;
}

const fil_update_shape_t *fil_snap_update_shape(const fil_snap_update_t *u)
{
    return &u->shape;
}

void fil_snap_update_public(fil_snap_public_t *out, const fil_snap_update_t *u, unsigned k)
{
    out->k = k;
    out->h = u->h;
    out->comm_r_old = u->comm_r_old;
    out->comm_d_new = u->comm_d_new;
    out->comm_r_new = u->comm_r_new;
}

/* Leaf `leaf`'s path in tree t, dense or sparse. */
static cuzk_status tree_path(fil_merkle_path_t *out, const fil_snap_update_t *u, int t,
                             uint64_t leaf, cuzk_error_t *err)
{
    if (u->tree[t])
        return fil_merkle_tree_path(out, u->tree[t], leaf, err);
    return fil_sparse_tree_path(out, u->sparse[t], leaf, err);
}

cuzk_status fil_snap_update_vproof(fil_snap_vproof_t *out, const fil_snap_update_t *u, unsigned k,
                                   cuzk_error_t *err)
{
    const fil_update_shape_t *sh = &u->shape;
    memset(out, 0, sizeof *out);
    if (k >= sh->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "snap vanilla proof: partition %u of %u", k,
                              sh->partitions);
    out->kind = sh->kind;
    out->comm_c = u->comm_c;
    out->tree_r = sh->tree_r;
    out->tree_d = sh->tree_d;
    out->n_challenges = sh->challenges;
    out->n_apex_leafs = sh->apex_leafs;
    out->challenges = calloc(sh->challenges, sizeof *out->challenges);
    out->apex_leafs = sh->apex_leafs ? calloc(sh->apex_leafs, sizeof *out->apex_leafs) : NULL;
    uint64_t *idx = malloc(sh->challenges * sizeof *idx);
    cuzk_status st = CUZK_OK;
    if (!out->challenges || !idx || (sh->apex_leafs && !out->apex_leafs))
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "snap vanilla proof: no memory");
    if (st == CUZK_OK)
        st = fil_update_challenges(idx, sh, &u->comm_r_new, k, err);
    for (unsigned c = 0; st == CUZK_OK && c < sh->challenges; c++) {
        fil_update_challenge_t *ch = &out->challenges[c];
        if ((st = tree_path(&ch->r_old, u, SNAP_R_OLD, idx[c], err)) == CUZK_OK &&
            (st = tree_path(&ch->d_new, u, SNAP_D_NEW, idx[c], err)) == CUZK_OK)
            st = tree_path(&ch->r_new, u, SNAP_R_NEW, idx[c], err);
    }
    /* apex leaf j of partition k: the root of the binary SHA-256 tree over
     * the 2^below data nodes under it (vanilla.rs apex_leafs) */
    const unsigned below = sh->challenge_bits - sh->partition_bits - sh->apex_leaf_bits;
    for (unsigned j = 0; st == CUZK_OK && j < sh->apex_leafs; j++) {
        uint64_t first = ((uint64_t)k * sh->apex_leafs + j) << below;
        if (u->sparse[SNAP_D_NEW]) { /* the sparse tree_d_new's node at that level */
            fil_sparse_tree_node(&out->apex_leafs[j], u->sparse[SNAP_D_NEW], below, first >> below);
            continue;
        }
        fil_merkle_tree_t *sub = NULL;
        st = fil_merkle_tree_build(&sub, &sh->tree_d, u->d_new + first, UINT64_C(1) << below, err);
        if (st == CUZK_OK)
            fil_merkle_tree_root(&out->apex_leafs[j], sub);
        fil_merkle_tree_free(sub);
    }
    free(idx);
    if (st != CUZK_OK)
        fil_snap_vproof_free(out);
    return st;
}
