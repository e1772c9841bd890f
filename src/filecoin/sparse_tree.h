/* Sparse Merkle trees (internal to the Filecoin layer): a full-size tree
 * of a fil_tree_shape_t in which only some leaves are materialized and
 * every other leaf is zero, as the sparse sealer (seal_sparse.c) and the
 * sparse SnapDeals encoder (snap_sparse.c) build them for 32 and 64 GiB
 * sectors.
 *
 * Only the materialized leaves' ancestors are stored, a sorted array of
 * (index, value) per level; any other node is the root of an all-zero
 * subtree of its height (zero[level]). Every node of the full-size tree
 * therefore has one value, and every path ends in the one root; the
 * nodes and paths equal those of fil_merkle_tree_build over the same
 * leaves with zeros elsewhere.
 *
 * Rules: outputs first, err last (may be NULL). A made tree is immutable:
 * any number of threads may read it. */
#ifndef CUZK_FILECOIN_SPARSE_TREE_H
#define CUZK_FILECOIN_SPARSE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_merkle.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

typedef struct fil_sparse_level {
    uint64_t *idx; /* sorted, unique */
    fr_t *val;
    size_t n;
} fil_sparse_level_t;

typedef struct fil_sparse_tree {
    fil_tree_shape_t shape;
    unsigned base_levels, levels;
    fil_sparse_level_t level[FIL_MERKLE_MAX_LEVELS + 1];
    fr_t zero[FIL_MERKLE_MAX_LEVELS + 1]; /* an all-zero subtree's root, by height */
    uint64_t len[FIL_MERKLE_MAX_LEVELS + 1];
} fil_sparse_tree_t;

/* Sorts v[0..n) and drops repeats; returns the new length. */
size_t fil_sparse_sort_unique(uint64_t *v, size_t n);
/* The position of x in sorted v[0..n), or n. */
size_t fil_sparse_find(const uint64_t *v, size_t n, uint64_t x);

/* Room for n leaves (at least one) in lv, n left 0 for the caller to
 * fill. Returns CUZK_OK or CUZK_ERR_NOMEM. */
cuzk_status fil_sparse_leaves_alloc(fil_sparse_level_t *lv, size_t n, cuzk_error_t *err);

/* Makes every level above t->level[0] (filled by the caller: sorted,
 * unique, each < leaves) of a tree of `shape` over `leaves` leaves, on up
 * to `threads` threads (parallel.h). Returns CUZK_OK, CUZK_ERR_ARG
 * (fil_tree_shape_levels), CUZK_ERR_NOMEM. */
cuzk_status fil_sparse_tree_make(fil_sparse_tree_t *t, const fil_tree_shape_t *shape,
                                 uint64_t leaves, int threads, cuzk_error_t *err);

/* Node `index` of level `level` (0: the leaves); the caller checks the
 * range (index < t->len[level], level <= t->levels). */
void fil_sparse_tree_node(fr_t *out, const fil_sparse_tree_t *t, unsigned level, uint64_t index);
void fil_sparse_tree_root(fr_t *out, const fil_sparse_tree_t *t);

/* The path of leaf `leaf`, leaf and root filled. Returns CUZK_OK or
 * CUZK_ERR_ARG (out of range). */
cuzk_status fil_sparse_tree_path(fil_merkle_path_t *out, const fil_sparse_tree_t *t, uint64_t leaf,
                                 cuzk_error_t *err);

/* Frees every level (t itself is the caller's); t may be NULL. */
void fil_sparse_tree_clear(fil_sparse_tree_t *t);

#endif
