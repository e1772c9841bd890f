/* bincode integers, domains and MerkleProof for the vanilla proof formats
 * (vanilla_merkle.h; RFP@87348a7 storage-proofs-core/src/merkle/proof.rs). */
#include "vanilla_merkle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ProofData's variants, in declaration order (bincode's u32 tag). */
enum { TAG_SINGLE = 0, TAG_SUB = 1, TAG_TOP = 2 };
static const char *const k_tag_name[3] = {"Single", "Sub", "Top"};

void fil_vrd_init(fil_vrd_t *r, const uint8_t *data, size_t n, const char *what, cuzk_error_t *err)
{
    r->p = data;
    r->n = n;
    r->at = 0;
    r->what = what;
    r->ctx[0] = 0;
    r->err = err;
}

void fil_vrd_ctx(fil_vrd_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->ctx, sizeof r->ctx, fmt, ap);
    va_end(ap);
}

cuzk_status fil_vrd_fail(const fil_vrd_t *r, cuzk_status code, size_t at, const char *field,
                         const char *fmt, ...)
{
    char msg[CUZK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_error_set(r->err, code, "%s: %s%s%s at offset %zu: %s", r->what, r->ctx,
                          r->ctx[0] && field[0] ? "." : "", field, at, msg);
}

static cuzk_status need(const fil_vrd_t *r, size_t k, const char *field)
{
    if (r->n - r->at < k)
        return fil_vrd_fail(r, CUZK_ERR_FORMAT, r->at, field, "%zu bytes needed, %zu left", k,
                            r->n - r->at);
    return CUZK_OK;
}

cuzk_status fil_vrd_u32(fil_vrd_t *r, uint32_t *out, const char *field)
{
    cuzk_status st = need(r, 4, field);
    if (st != CUZK_OK)
        return st;
    const uint8_t *b = r->p + r->at;
    *out = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    r->at += 4;
    return CUZK_OK;
}

cuzk_status fil_vrd_u64(fil_vrd_t *r, uint64_t *out, const char *field)
{
    cuzk_status st = need(r, 8, field);
    if (st != CUZK_OK)
        return st;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | r->p[r->at + (size_t)i];
    r->at += 8;
    *out = v;
    return CUZK_OK;
}

cuzk_status fil_vrd_domain(fil_vrd_t *r, fr_t *out, const char *field)
{
    cuzk_status st = need(r, 32, field);
    if (st != CUZK_OK)
        return st;
    if (fr_from_le(out, r->p + r->at) != CUZK_OK)
        return fil_vrd_fail(r, CUZK_ERR_NONCANONICAL, r->at, field,
                            "not a canonical field element");
    r->at += 32;
    return CUZK_OK;
}

cuzk_status fil_vrd_len(fil_vrd_t *r, uint64_t *out, uint64_t lo, uint64_t hi, const char *field)
{
    size_t at = r->at;
    cuzk_status st = fil_vrd_u64(r, out, field);
    if (st != CUZK_OK)
        return st;
    if (*out < lo || *out > hi) {
        if (lo == hi)
            return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, field, "length %llu, %llu expected",
                                (unsigned long long)*out, (unsigned long long)lo);
        return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, field, "length %llu (%llu..%llu)",
                            (unsigned long long)*out, (unsigned long long)lo,
                            (unsigned long long)hi);
    }
    return CUZK_OK;
}

cuzk_status fil_vrd_end(const fil_vrd_t *r)
{
    if (r->at != r->n)
        return fil_vrd_fail(r, CUZK_ERR_FORMAT, r->at, "", "%zu bytes after the proof",
                            r->n - r->at);
    return CUZK_OK;
}

/* InclusionPath { path: Vec<PathElement { hashes, index }> }, appended to
 * p's levels. With want_levels > 0 it has exactly that many levels of
 * arity want_arity; else 1 or more of one arity (2, 4 or 8), returned in
 * *arity. */
static cuzk_status inclusion_path(fil_vrd_t *r, fil_merkle_path_t *p, unsigned *arity,
                                  unsigned want_levels, unsigned want_arity, const char *field)
{
    const unsigned room = FIL_MERKLE_MAX_LEVELS - p->n_levels;
    uint64_t n;
    cuzk_status st =
        fil_vrd_len(r, &n, want_levels ? want_levels : 1, want_levels ? want_levels : room, field);
    if (st != CUZK_OK)
        return st;
    unsigned a = want_levels ? want_arity : 0;
    char f[64];
    for (uint64_t l = 0; l < n; l++) {
        fil_merkle_level_t *lv = &p->level[p->n_levels];
        snprintf(f, sizeof f, "%s level %llu", field, (unsigned long long)l);
        size_t at = r->at;
        uint64_t nh, index;
        if ((st = fil_vrd_u64(r, &nh, f)) != CUZK_OK)
            return st;
        if (a ? nh != a - 1 : (nh != 1 && nh != 3 && nh != 7)) {
            if (a)
                return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, f,
                                    "%llu sibling hashes, arity %u needs %u",
                                    (unsigned long long)nh, a, a - 1);
            return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, f, "%llu sibling hashes (1, 3 or 7)",
                                (unsigned long long)nh);
        }
        a = (unsigned)nh + 1;
        lv->arity = a;
        for (unsigned h = 0; h < a - 1; h++)
            if ((st = fil_vrd_domain(r, &lv->siblings[h], f)) != CUZK_OK)
                return st;
        at = r->at;
        if ((st = fil_vrd_u64(r, &index, f)) != CUZK_OK)
            return st;
        if (index >= a)
            return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, f, "index %llu (arity %u)",
                                (unsigned long long)index, a);
        lv->index = (unsigned)index;
        p->n_levels++;
    }
    *arity = a;
    return CUZK_OK;
}

/* MerkleProof { data: ProofData }. With base_levels > 0, *shape is what
 * the proof must be; else the arities are read into it. */
static cuzk_status merkle_proof(fil_vrd_t *r, fil_merkle_path_t *p, fil_tree_shape_t *shape,
                                unsigned base_levels)
{
    memset(p, 0, sizeof *p);
    const int fixed = base_levels > 0;
    const size_t at = r->at;
    uint32_t tag;
    cuzk_status st = fil_vrd_u32(r, &tag, "ProofData tag");
    if (st != CUZK_OK)
        return st;
    if (tag > TAG_TOP)
        return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, "ProofData tag", "%u (0 Single, 1 Sub, 2 Top)",
                            tag);
    if (fixed) {
        uint32_t want = shape->top_arity ? TAG_TOP : shape->sub_arity ? TAG_SUB : TAG_SINGLE;
        if (tag != want)
            return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, "ProofData tag",
                                "%u (%s), the %u-%u-%u tree needs %u (%s)", tag, k_tag_name[tag],
                                shape->base_arity, shape->sub_arity, shape->top_arity, want,
                                k_tag_name[want]);
    } else {
        shape->base_arity = shape->sub_arity = shape->top_arity = 0;
    }
    unsigned got;
    if (tag == TAG_SINGLE) { /* SingleProof { root, leaf, path } */
        if ((st = fil_vrd_domain(r, &p->root, "root")) != CUZK_OK ||
            (st = fil_vrd_domain(r, &p->leaf, "leaf")) != CUZK_OK)
            return st;
        st = inclusion_path(r, p, &got, base_levels, shape->base_arity, "path");
        if (st == CUZK_OK && !fixed)
            shape->base_arity = got;
        return st;
    }
    /* SubProof { base_proof, sub_proof, root, leaf }; TopProof has
     * top_proof before root. The sub and top paths are one level. */
    if ((st = inclusion_path(r, p, &got, base_levels, shape->base_arity, "base_proof")) != CUZK_OK)
        return st;
    if (!fixed)
        shape->base_arity = got;
    /* a free sub or top level may not leave the path without room */
    const unsigned extra = tag == TAG_TOP ? 2 : 1;
    if (!fixed && p->n_levels > FIL_MERKLE_MAX_LEVELS - extra)
        return fil_vrd_fail(r, CUZK_ERR_FORMAT, at, "base_proof", "%u levels, at most %u with a %s",
                            p->n_levels, FIL_MERKLE_MAX_LEVELS - extra, k_tag_name[tag]);
    if ((st = inclusion_path(r, p, &got, 1, fixed ? shape->sub_arity : 0, "sub_proof")) != CUZK_OK)
        return st;
    if (!fixed)
        shape->sub_arity = got;
    if (tag == TAG_TOP) {
        st = inclusion_path(r, p, &got, 1, fixed ? shape->top_arity : 0, "top_proof");
        if (st != CUZK_OK)
            return st;
        if (!fixed)
            shape->top_arity = got;
    }
    if ((st = fil_vrd_domain(r, &p->root, "root")) != CUZK_OK)
        return st;
    return fil_vrd_domain(r, &p->leaf, "leaf");
}

cuzk_status fil_vrd_merkle_proof_any(fil_vrd_t *r, fil_merkle_path_t *p, fil_tree_shape_t *shape,
                                     fil_hasher hasher)
{
    memset(shape, 0, sizeof *shape);
    shape->hasher = hasher;
    return merkle_proof(r, p, shape, 0);
}

cuzk_status fil_vrd_merkle_proof_of(fil_vrd_t *r, fil_merkle_path_t *p,
                                    const fil_tree_shape_t *shape, unsigned base_levels)
{
    fil_tree_shape_t s = *shape;
    CUZK_ASSERT(base_levels > 0);
    return merkle_proof(r, p, &s, base_levels);
}

/* ---- writing ------------------------------------------------------------- */

static uint8_t *room(fil_vwr_t *w, size_t k)
{
    if (w->nomem)
        return NULL;
    if (w->cap - w->n < k) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap - w->n < k) {
            if (cap > SIZE_MAX / 2) {
                w->nomem = 1;
                return NULL;
            }
            cap *= 2;
        }
        uint8_t *q = realloc(w->p, cap);
        if (!q) {
            w->nomem = 1;
            return NULL;
        }
        w->p = q;
        w->cap = cap;
    }
    uint8_t *at = w->p + w->n;
    w->n += k;
    return at;
}

void fil_vwr_u32(fil_vwr_t *w, uint32_t v)
{
    uint8_t *b = room(w, 4);
    if (b)
        for (int i = 0; i < 4; i++)
            b[i] = (uint8_t)(v >> (8 * i));
}

void fil_vwr_u64(fil_vwr_t *w, uint64_t v)
{
    uint8_t *b = room(w, 8);
    if (b)
        for (int i = 0; i < 8; i++)
            b[i] = (uint8_t)(v >> (8 * i));
}

void fil_vwr_domain(fil_vwr_t *w, const fr_t *x)
{
    uint8_t *b = room(w, 32);
    if (b)
        fr_to_le(b, x);
}

/* Levels [from, to) of p as an InclusionPath. */
static void write_path(fil_vwr_t *w, const fil_merkle_path_t *p, unsigned from, unsigned to)
{
    fil_vwr_u64(w, to - from);
    for (unsigned l = from; l < to; l++) {
        const fil_merkle_level_t *lv = &p->level[l];
        fil_vwr_u64(w, lv->arity - 1);
        for (unsigned h = 0; h + 1 < lv->arity; h++)
            fil_vwr_domain(w, &lv->siblings[h]);
        fil_vwr_u64(w, lv->index);
    }
}

cuzk_status fil_vwr_merkle_proof(fil_vwr_t *w, const fil_merkle_path_t *p,
                                 const fil_tree_shape_t *shape, const char *what, const char *field,
                                 cuzk_error_t *err)
{
    cuzk_error_t e;
    if (fil_tree_shape_check(shape, &e) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %s: %s", what, field, e.msg);
    const unsigned extra = (shape->sub_arity ? 1u : 0u) + (shape->top_arity ? 1u : 0u);
    if (p->n_levels <= extra || p->n_levels > FIL_MERKLE_MAX_LEVELS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %s: %u levels, a %u-%u-%u tree has %u..%u",
                              what, field, p->n_levels, shape->base_arity, shape->sub_arity,
                              shape->top_arity, extra + 1, FIL_MERKLE_MAX_LEVELS);
    const unsigned base = p->n_levels - extra;
    for (unsigned l = 0; l < p->n_levels; l++) {
        unsigned a = fil_tree_shape_level_arity(shape, base, l);
        if (p->level[l].arity != a || p->level[l].index >= a)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "%s: %s: level %u has arity %u, index %u (the shape's arity: %u)",
                                  what, field, l, p->level[l].arity, p->level[l].index, a);
    }
    if (!extra) { /* SingleProof { root, leaf, path } */
        fil_vwr_u32(w, TAG_SINGLE);
        fil_vwr_domain(w, &p->root);
        fil_vwr_domain(w, &p->leaf);
        write_path(w, p, 0, base);
        return CUZK_OK;
    }
    fil_vwr_u32(w, shape->top_arity ? TAG_TOP : TAG_SUB);
    write_path(w, p, 0, base);
    write_path(w, p, base, base + 1);
    if (shape->top_arity)
        write_path(w, p, base + 1, base + 2);
    fil_vwr_domain(w, &p->root);
    fil_vwr_domain(w, &p->leaf);
    return CUZK_OK;
}

cuzk_status fil_vwr_finish(fil_vwr_t *w, uint8_t **out, size_t *n, cuzk_status st, const char *what,
                           cuzk_error_t *err)
{
    if (st == CUZK_OK && w->nomem)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory after %zu bytes", what, w->n);
    if (st != CUZK_OK) {
        free(w->p);
        *out = NULL;
        *n = 0;
    } else {
        *out = w->p;
        *n = w->n;
    }
    w->p = NULL;
    w->n = w->cap = 0;
    return st;
}
