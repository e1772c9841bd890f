/* Sparse Merkle trees (sparse_tree.h). */
#include "sparse_tree.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

size_t fil_sparse_sort_unique(uint64_t *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, u64_cmp);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

size_t fil_sparse_find(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == x ? lo : n;
}

cuzk_status fil_sparse_leaves_alloc(fil_sparse_level_t *lv, size_t n, cuzk_error_t *err)
{
    size_t m = n ? n : 1;
    lv->n = 0;
    if (!(lv->idx = malloc(m * sizeof *lv->idx)) || !(lv->val = malloc(m * sizeof *lv->val)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "sparse tree: no memory for %zu leaves", n);
    return CUZK_OK;
}

void fil_sparse_tree_node(fr_t *out, const fil_sparse_tree_t *t, unsigned level, uint64_t index)
{
    const fil_sparse_level_t *lv = &t->level[level];
    size_t k = fil_sparse_find(lv->idx, lv->n, index);
    *out = k < lv->n ? lv->val[k] : t->zero[level];
}

void fil_sparse_tree_root(fr_t *out, const fil_sparse_tree_t *t)
{
    fil_sparse_tree_node(out, t, t->levels, 0);
}

typedef struct level_job {
    fil_sparse_tree_t *t;
    unsigned level, arity; /* making level + 1 */
    int failed;            /* set by any worker whose hash failed (OpenSSL out of memory) */
} level_job_t;

/* Each worker writes its own slice of level + 1's values. */
static void level_range(void *ctx, size_t begin, size_t end)
{
    level_job_t *j = ctx;
    fil_sparse_level_t *up = &j->t->level[j->level + 1];
    for (size_t i = begin; i < end; i++) {
        fr_t children[FIL_MERKLE_MAX_ARITY];
        uint64_t first = up->idx[i] * j->arity;
        for (unsigned a = 0; a < j->arity; a++)
            fil_sparse_tree_node(&children[a], j->t, j->level, first + a);
        cuzk_error_t e;
        if (fil_merkle_node(&up->val[i], j->t->shape.hasher, children, j->arity, &e) != CUZK_OK) {
            __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

cuzk_status fil_sparse_tree_make(fil_sparse_tree_t *t, const fil_tree_shape_t *shape,
                                 uint64_t leaves, int threads, cuzk_error_t *err)
{
    cuzk_status st = fil_tree_shape_levels(&t->base_levels, &t->levels, shape, leaves, err);
    if (st != CUZK_OK)
        return st;
    t->shape = *shape;
    memset(&t->zero[0], 0, sizeof t->zero[0]);
    t->len[0] = leaves;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = fil_tree_shape_level_arity(shape, t->base_levels, l);
        fr_t z[FIL_MERKLE_MAX_ARITY];
        for (unsigned i = 0; i < a; i++)
            z[i] = t->zero[l];
        if ((st = fil_merkle_node(&t->zero[l + 1], shape->hasher, z, a, err)) != CUZK_OK)
            return st;
        t->len[l + 1] = t->len[l] / a;
        const fil_sparse_level_t *lo = &t->level[l];
        fil_sparse_level_t *up = &t->level[l + 1];
        if ((st = fil_sparse_leaves_alloc(up, lo->n, err)) != CUZK_OK)
            return st;
        /* parents of sorted indices come out sorted: drop repeats in place */
        for (size_t i = 0; i < lo->n; i++)
            if (up->n == 0 || up->idx[up->n - 1] != lo->idx[i] / a)
                up->idx[up->n++] = lo->idx[i] / a;
        level_job_t j = {.t = t, .level = l, .arity = a};
        if (parallel_for(up->n, 16, threads, level_range, &j) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "sparse tree: no memory for threads");
        if (j.failed)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "sparse tree: hashing level %u failed",
                                  l + 1);
    }
    return CUZK_OK;
}

cuzk_status fil_sparse_tree_path(fil_merkle_path_t *out, const fil_sparse_tree_t *t, uint64_t leaf,
                                 cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (leaf >= t->len[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "sparse tree: leaf %llu of %llu",
                              (unsigned long long)leaf, (unsigned long long)t->len[0]);
    /* filecoin_merkle.h: per level the index among the arity siblings and
     * the others in order (merkle/proof.rs) */
    out->n_levels = t->levels;
    fil_sparse_tree_node(&out->leaf, t, 0, leaf);
    uint64_t j = leaf;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = fil_tree_shape_level_arity(&t->shape, t->base_levels, l);
        fil_merkle_level_t *lv = &out->level[l];
        lv->arity = a;
        lv->index = (unsigned)(j % a);
        for (unsigned i = 0, k = 0; i < a; i++)
            if (i != lv->index)
                fil_sparse_tree_node(&lv->siblings[k++], t, l, j - j % a + i);
        j /= a;
    }
    fil_sparse_tree_root(&out->root, t);
    return CUZK_OK;
}

void fil_sparse_tree_clear(fil_sparse_tree_t *t)
{
    if (!t)
        return;
    for (unsigned l = 0; l <= FIL_MERKLE_MAX_LEVELS; l++) {
        free(t->level[l].idx);
        free(t->level[l].val);
        t->level[l].idx = NULL;
        t->level[l].val = NULL;
        t->level[l].n = 0;
    }
}
