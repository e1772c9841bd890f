/* Native Filecoin Merkle trees (filecoin_merkle.h). RFP =
 * filecoin-project/rust-fil-proofs@87348a7: storage-proofs-core/src/merkle/
 * (builders.rs, proof.rs), filecoin-hashers/src/{poseidon,sha256}.rs
 * (multi_node).
 *
 * The tree is kept as one array per level over the whole tree: the base
 * trees sit side by side, so level l of all of them is level l of one tree
 * of the base arity, cut where the base roots are; the sub and top levels
 * follow with their own arities. */
#include "cuzk/filecoin_merkle.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"

struct fil_merkle_tree {
    fil_tree_shape_t shape;
    unsigned base_levels, levels;
    uint64_t leaves;
    fr_t *level[FIL_MERKLE_MAX_LEVELS + 1]; /* level[0] = leaves, level[levels] = root */
    uint64_t len[FIL_MERKLE_MAX_LEVELS + 1];
};

static int arity_ok(unsigned a)
{
    return a == 2 || a == 4 || a == 8;
}

cuzk_status fil_tree_shape_check(const fil_tree_shape_t *shape, cuzk_error_t *err)
{
    if (!shape)
        return cuzk_error_set(err, CUZK_ERR_ARG, "tree shape: NULL");
    if (shape->hasher != FIL_HASHER_POSEIDON && shape->hasher != FIL_HASHER_SHA256)
        return cuzk_error_set(err, CUZK_ERR_ARG, "tree shape: unknown hasher %d",
                              (int)shape->hasher);
    if (!arity_ok(shape->base_arity) || (shape->sub_arity && !arity_ok(shape->sub_arity)) ||
        (shape->top_arity && !arity_ok(shape->top_arity)) ||
        (shape->top_arity && !shape->sub_arity))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "tree shape %u-%u-%u: arities are 2, 4 or 8 (sub and top may be "
                              "0; top only with sub)",
                              shape->base_arity, shape->sub_arity, shape->top_arity);
    return CUZK_OK;
}

cuzk_status fil_tree_shape_levels(unsigned *base_levels, unsigned *levels,
                                  const fil_tree_shape_t *shape, uint64_t leaves, cuzk_error_t *err)
{
    cuzk_status st = fil_tree_shape_check(shape, err);
    if (st != CUZK_OK)
        return st;
    uint64_t base = (shape->sub_arity ? shape->sub_arity : 1u) *
                    (uint64_t)(shape->top_arity ? shape->top_arity : 1u);
    if (leaves == 0 || leaves % base)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "tree %u-%u-%u: %llu leaves is not a multiple of %llu base trees",
                              shape->base_arity, shape->sub_arity, shape->top_arity,
                              (unsigned long long)leaves, (unsigned long long)base);
    uint64_t per = leaves / base;
    unsigned k = 0;
    while (per > 1 && per % shape->base_arity == 0) {
        per /= shape->base_arity;
        k++;
    }
    if (per != 1 || k == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "tree %u-%u-%u: %llu leaves per base tree is not a power of %u",
                              shape->base_arity, shape->sub_arity, shape->top_arity,
                              (unsigned long long)(leaves / base), shape->base_arity);
    unsigned all = k + (shape->sub_arity ? 1u : 0u) + (shape->top_arity ? 1u : 0u);
    if (all > FIL_MERKLE_MAX_LEVELS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "tree %u-%u-%u: %u levels, at most %u",
                              shape->base_arity, shape->sub_arity, shape->top_arity, all,
                              FIL_MERKLE_MAX_LEVELS);
    if (base_levels)
        *base_levels = k;
    if (levels)
        *levels = all;
    return CUZK_OK;
}

unsigned fil_tree_shape_level_arity(const fil_tree_shape_t *shape, unsigned base_levels, unsigned l)
{
    if (l < base_levels)
        return shape->base_arity;
    if (l == base_levels && shape->sub_arity)
        return shape->sub_arity;
    return shape->top_arity;
}

cuzk_status fil_merkle_node(fr_t *out, fil_hasher hasher, const fr_t *children, unsigned arity,
                            cuzk_error_t *err)
{
    if (!arity_ok(arity))
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle node: arity %u", arity);
    if (hasher == FIL_HASHER_POSEIDON) {
        const poseidon_constants_t *c;
        cuzk_status st = poseidon_constants_get(&c, arity, err);
        if (st != CUZK_OK)
            return st;
        return poseidon_hash(out, c, children, arity, POSEIDON_OPTIMIZED, err);
    }
    if (hasher != FIL_HASHER_SHA256)
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle node: unknown hasher %d", (int)hasher);
    uint8_t buf[FIL_MERKLE_MAX_ARITY * FR_BYTES], digest[32];
    for (unsigned i = 0; i < arity; i++)
        fr_to_le(buf + (size_t)i * FR_BYTES, &children[i]);
    cuzk_status st = fil_sha256_hash(digest, buf, (size_t)arity * FR_BYTES, err);
    if (st != CUZK_OK)
        return st;
    /* trimmed to 254 bits: always canonical */
    return fr_from_le(out, digest);
}

void fil_merkle_tree_free(fil_merkle_tree_t *t)
{
    if (!t)
        return;
    for (unsigned l = 1; l <= t->levels; l++)
        free(t->level[l]);
    free(t->level[0]);
    free(t);
}

cuzk_status fil_merkle_tree_build(fil_merkle_tree_t **out, const fil_tree_shape_t *shape,
                                  const fr_t *leaves, uint64_t n_leaves, cuzk_error_t *err)
{
    if (!out || !leaves)
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle tree: NULL argument");
    *out = NULL;
    unsigned base_levels, levels;
    cuzk_status st = fil_tree_shape_levels(&base_levels, &levels, shape, n_leaves, err);
    if (st != CUZK_OK)
        return st;
    fil_merkle_tree_t *t = calloc(1, sizeof *t);
    if (!t)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "merkle tree: out of memory");
    t->shape = *shape;
    t->base_levels = base_levels;
    t->levels = levels;
    t->leaves = n_leaves;
    t->len[0] = n_leaves;
    if (n_leaves > SIZE_MAX / sizeof(fr_t) || !(t->level[0] = malloc(n_leaves * sizeof(fr_t)))) {
        fil_merkle_tree_free(t);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "merkle tree: no memory for %llu leaves",
                              (unsigned long long)n_leaves);
    }
    memcpy(t->level[0], leaves, n_leaves * sizeof(fr_t));
    for (unsigned l = 0; l < levels; l++) {
        unsigned a = fil_tree_shape_level_arity(shape, base_levels, l);
        uint64_t n = t->len[l] / a;
        t->len[l + 1] = n;
        if (!(t->level[l + 1] = malloc(n * sizeof(fr_t)))) {
            fil_merkle_tree_free(t);
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "merkle tree: out of memory");
        }
        for (uint64_t i = 0; i < n; i++) {
            st = fil_merkle_node(&t->level[l + 1][i], shape->hasher, &t->level[l][i * a], a, err);
            if (st != CUZK_OK) {
                fil_merkle_tree_free(t);
                return st;
            }
        }
    }
    CUZK_ASSERT(t->len[levels] == 1);
    *out = t;
    return CUZK_OK;
}

void fil_merkle_tree_root(fr_t *out, const fil_merkle_tree_t *t)
{
    *out = t->level[t->levels][0];
}

uint64_t fil_merkle_tree_leaves(const fil_merkle_tree_t *t)
{
    return t->leaves;
}

cuzk_status fil_merkle_tree_path(fil_merkle_path_t *out, const fil_merkle_tree_t *t, uint64_t leaf,
                                 cuzk_error_t *err)
{
    if (!out || !t)
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle path: NULL argument");
    if (leaf >= t->leaves)
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle path: leaf %llu of %llu",
                              (unsigned long long)leaf, (unsigned long long)t->leaves);
    out->n_levels = t->levels;
    out->leaf = t->level[0][leaf];
    fil_merkle_tree_root(&out->root, t);
    uint64_t j = leaf;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = fil_tree_shape_level_arity(&t->shape, t->base_levels, l);
        fil_merkle_level_t *lv = &out->level[l];
        const fr_t *group = &t->level[l][j - j % a];
        lv->arity = a;
        lv->index = (unsigned)(j % a);
        for (unsigned i = 0, k = 0; i < a; i++)
            if (i != lv->index)
                lv->siblings[k++] = group[i];
        j /= a;
    }
    return CUZK_OK;
}

cuzk_status fil_merkle_path_blank(fil_merkle_path_t *out, const fil_tree_shape_t *shape,
                                  uint64_t leaves, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle path: NULL argument");
    unsigned base_levels, levels;
    cuzk_status st = fil_tree_shape_levels(&base_levels, &levels, shape, leaves, err);
    if (st != CUZK_OK)
        return st;
    memset(out, 0, sizeof *out);
    out->n_levels = levels;
    for (unsigned l = 0; l < levels; l++)
        out->level[l].arity = fil_tree_shape_level_arity(shape, base_levels, l);
    return CUZK_OK;
}

uint64_t fil_merkle_path_leaf_index(const fil_merkle_path_t *p)
{
    uint64_t j = 0, scale = 1;
    for (unsigned l = 0; l < p->n_levels; l++) {
        j += p->level[l].index * scale;
        scale *= p->level[l].arity;
    }
    return j;
}

cuzk_status fil_merkle_path_compute_root(fr_t *out, fil_hasher hasher, const fil_merkle_path_t *p,
                                         cuzk_error_t *err)
{
    if (!out || !p || p->n_levels > FIL_MERKLE_MAX_LEVELS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "merkle path: bad argument");
    fr_t cur = p->leaf;
    for (unsigned l = 0; l < p->n_levels; l++) {
        const fil_merkle_level_t *lv = &p->level[l];
        if (!arity_ok(lv->arity) || lv->index >= lv->arity)
            return cuzk_error_set(err, CUZK_ERR_ARG, "merkle path: level %u: index %u of %u", l,
                                  lv->index, lv->arity);
        fr_t children[FIL_MERKLE_MAX_ARITY];
        for (unsigned i = 0, k = 0; i < lv->arity; i++)
            children[i] = i == lv->index ? cur : lv->siblings[k++];
        cuzk_status st = fil_merkle_node(&cur, hasher, children, lv->arity, err);
        if (st != CUZK_OK)
            return st;
    }
    *out = cur;
    return CUZK_OK;
}
