/* The vanilla proofs of a sealed sector (seal_internal.h), read through
 * fil_seal_reader_t only, so that dense and sparse sealings share them.
 * RFP = filecoin-project/rust-fil-proofs@87348a7. */
#include <string.h>

#include "seal_internal.h"

cuzk_status fil_seal_reader_path(fil_merkle_path_t *out, const fil_seal_reader_t *r,
                                 fil_seal_tree t, uint64_t leaf, cuzk_error_t *err)
{
    /* merkle/proof.rs: per level the index of the node among its arity
     * siblings and the others in order; the leaf number's digits in the
     * levels' arities (filecoin_merkle.h) */
    memset(out, 0, sizeof *out);
    out->n_levels = r->levels[t];
    cuzk_status st = r->tree_node(&out->leaf, r, t, 0, leaf, err);
    if (st != CUZK_OK)
        return st;
    uint64_t j = leaf;
    for (unsigned l = 0; l < r->levels[t]; l++) {
        unsigned a = fil_tree_shape_level_arity(&r->shape[t], r->base_levels[t], l);
        fil_merkle_level_t *lv = &out->level[l];
        lv->arity = a;
        lv->index = (unsigned)(j % a);
        for (unsigned i = 0, k = 0; i < a; i++) {
            if (i == lv->index)
                continue;
            if ((st = r->tree_node(&lv->siblings[k++], r, t, l, j - j % a + i, err)) != CUZK_OK)
                return st;
        }
        j /= a;
    }
    return r->tree_node(&out->root, r, t, r->levels[t], 0, err);
}

/* ColumnProof (column_proof.rs): the labels of every layer at `node` and
 * the column's path in tree_c. */
static cuzk_status column(fr_t *rows, fil_merkle_path_t *path, const fil_seal_reader_t *r,
                          uint64_t node, cuzk_error_t *err)
{
    for (unsigned l = 0; l < r->info->layers; l++) {
        cuzk_status st = r->label(&rows[l], r, l + 1, node, err);
        if (st != CUZK_OK)
            return st;
    }
    return fil_seal_reader_path(path, r, FIL_SEAL_TREE_C, node, err);
}

cuzk_status fil_seal_reader_porep_challenge(fil_porep_challenge_t *out, const fil_seal_reader_t *r,
                                            uint64_t challenge, cuzk_error_t *err)
{
    uint64_t nodes = r->info->nodes;
    /* challenges.rs draws from [1, nodes): node 0's label has no parents,
     * so the circuit (which always hashes 37) could not label it */
    if (challenge == 0 || challenge >= nodes)
        return cuzk_error_set(err, CUZK_ERR_ARG, "porep challenge %llu: outside [1, %llu)",
                              (unsigned long long)challenge, (unsigned long long)nodes);
    memset(out, 0, sizeof *out);
    out->challenge = challenge;
    /* proof.rs prove_layers: comm_d_proofs, comm_r_last_proof, then
     * replica_column_proofs (c_x, drg_parents, exp_parents) */
    cuzk_status st = fil_seal_reader_path(&out->comm_d_path, r, FIL_SEAL_TREE_D, challenge, err);
    if (st == CUZK_OK)
        st = fil_seal_reader_path(&out->comm_r_last_path, r, FIL_SEAL_TREE_R, challenge, err);
    if (st == CUZK_OK)
        st = fil_seal_reader_path(&out->comm_c_path, r, FIL_SEAL_TREE_C, challenge, err);
    if (st != CUZK_OK)
        return st;
    out->data_leaf = out->comm_d_path.leaf;
    uint32_t p[FIL_DEGREE];
    if ((st = fil_graph_parents(p, &r->graph, challenge, err)) != CUZK_OK)
        return st;
    for (unsigned k = 0; k < FIL_DRG_DEGREE && st == CUZK_OK; k++)
        st = column(out->drg_cols[k], &out->drg_paths[k], r, p[k], err);
    for (unsigned k = 0; k < FIL_EXP_DEGREE && st == CUZK_OK; k++)
        st = column(out->exp_cols[k], &out->exp_paths[k], r, p[FIL_DRG_DEGREE + k], err);
    return st;
}

cuzk_status fil_seal_reader_post_vproof(fil_post_vproof_t *out, const fil_seal_reader_t *r,
                                        const uint64_t *leaf_challenges, unsigned n,
                                        cuzk_error_t *err)
{
    if (n == 0 || n > FIL_POST_VPROOF_MAX_PROOFS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "post vanilla proof: %u challenges (1 .. %u)", n,
                              FIL_POST_VPROOF_MAX_PROOFS);
    for (unsigned i = 0; i < n; i++)
        if (leaf_challenges[i] >= r->info->nodes)
            return cuzk_error_set(
                err, CUZK_ERR_ARG, "post vanilla proof: leaf challenge %u is %llu, leaves %llu", i,
                (unsigned long long)leaf_challenges[i], (unsigned long long)r->info->nodes);
    memset(out, 0, sizeof *out);
    /* fallback/vanilla.rs prove: per challenged leaf the tree_r_last
     * inclusion proof; comm_c and comm_r_last from the private replica */
    out->sector_id = r->sector_id;
    out->comm_r = r->comm_r;
    out->comm_c = r->comm_c;
    out->comm_r_last = r->comm_r_last;
    out->n_proofs = n;
    out->shape = r->shape[FIL_SEAL_TREE_R];
    for (unsigned i = 0; i < n; i++) {
        cuzk_status st =
            fil_seal_reader_path(&out->paths[i], r, FIL_SEAL_TREE_R, leaf_challenges[i], err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}
