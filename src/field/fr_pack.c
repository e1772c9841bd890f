/* Packed witness vectors (include/cuzk/fr_pack.h).
 *
 * Packing reads the vector twice: once whole, to set the bitmaps (so the
 * block can be sized), and once more only where the full bitmap points. A
 * writer that sets the bitmaps as it makes the values (cs_bind_bits) skips
 * the first read (fr_pack_finish). Work is split by 64-value words, so
 * every word of the bitmaps has one writer. */
#include "cuzk/fr_pack.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"

#define GRAIN_WORDS ((size_t)1 << 12)

static int is_zero(const fr_t *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

static int is_one(const fr_t *a)
{
    return ((a->l[0] ^ FR_ONE.l[0]) | (a->l[1] ^ FR_ONE.l[1]) | (a->l[2] ^ FR_ONE.l[2]) |
            (a->l[3] ^ FR_ONE.l[3])) == 0;
}

void fr_pack_view(fr_pack_t *p, void *block, size_t n, size_t n_full)
{
    size_t words = fr_pack_words(n);
    uint8_t *b = block;
    p->n = n;
    p->n_full = n_full;
    p->bytes = fr_pack_bytes(n, n_full);
    p->nz = (uint64_t *)b;
    p->full = (uint64_t *)(b + 8 * words);
    p->rank = (uint32_t *)(b + 16 * words);
    p->vals = (fr_t *)(b + fr_pack_vals_offset(n));
    p->block = NULL;
}

typedef struct pack_ctx {
    fr_pack_t *p;
    const fr_t *w; /* values [0, n_head) */
    size_t n_head;
    const fr_t *tail; /* values [n_head, n) at tail[i - n_head] */
    fr_t *out;
} pack_ctx_t;

/* The bitmaps of w (one writer per word). */
static void classify_words(void *vctx, size_t begin, size_t end)
{
    pack_ctx_t *c = vctx;
    const fr_t *w = c->w;
    size_t n = c->p->n;
    for (size_t k = begin; k < end; k++) {
        uint64_t nz = 0, full = 0;
        size_t i0 = 64 * k, top = n - i0 < 64 ? n - i0 : 64;
        for (size_t b = 0; b < top; b++) {
            const fr_t *v = &w[i0 + b];
            if (is_zero(v))
                continue;
            nz |= (uint64_t)1 << b;
            if (!is_one(v))
                full |= (uint64_t)1 << b;
        }
        c->p->nz[k] = nz;
        c->p->full[k] = full;
    }
}

static void gather_words(void *vctx, size_t begin, size_t end)
{
    pack_ctx_t *c = vctx;
    fr_pack_t *p = c->p;
    for (size_t k = begin; k < end; k++) {
        uint64_t f = p->full[k];
        fr_t *dst = p->vals + p->rank[k];
        while (f) {
            size_t i = 64 * k + (size_t)__builtin_ctzll(f);
            *dst++ = i < c->n_head ? c->w[i] : c->tail[i - c->n_head];
            f &= f - 1;
        }
    }
}

cuzk_status fr_pack_finish(fr_pack_t *p, void *block, size_t n, const fr_t *head, size_t n_head,
                           const fr_t *tail, int threads, cuzk_error_t *err)
{
    memset(p, 0, sizeof *p);
    size_t words = fr_pack_words(n);
    fr_pack_view(p, block, n, 0);
    /* ranks: an exclusive scan of the full bits (n < 2^32 keeps it in 32 bits) */
    p->rank[0] = 0;
    for (size_t k = 0; k < words; k++)
        p->rank[k + 1] = p->rank[k] + (uint32_t)__builtin_popcountll(p->full[k]);
    /* the padding before vals, so that equal packs are equal bytes */
    uint8_t *rank_end = (uint8_t *)(p->rank + words + 1);
    memset(rank_end, 0, (size_t)((uint8_t *)block + fr_pack_vals_offset(n) - rank_end));
    size_t n_full = p->rank[words];
    /* large blocks grow in place (mremap): the bitmaps are not copied */
    void *grown = realloc(block, fr_pack_bytes(n, n_full));
    if (!grown) {
        free(block);
        memset(p, 0, sizeof *p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fr_pack: no memory for %zu full values",
                              n_full);
    }
    fr_pack_view(p, grown, n, n_full);
    p->block = grown;
    pack_ctx_t c = {p, head, n_head, tail, NULL};
    if (n_full && parallel_for(words, GRAIN_WORDS, threads, gather_words, &c) != CUZK_OK) {
        fr_pack_free(p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fr_pack: no memory for threads");
    }
    return CUZK_OK;
}

cuzk_status fr_pack_make(fr_pack_t *p, const fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    return fr_pack_make_within(p, w, n, SIZE_MAX, threads, err);
}

cuzk_status fr_pack_make_within(fr_pack_t *p, const fr_t *w, size_t n, size_t max_bytes,
                                int threads, cuzk_error_t *err)
{
    memset(p, 0, sizeof *p);
    if (n > FR_PACK_MAX_VALUES)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fr_pack: %zu values, at most %zu", n,
                              FR_PACK_MAX_VALUES);
    if (n > 0 && !w)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fr_pack: NULL vector");
    size_t maps = fr_pack_vals_offset(n);
    void *block = malloc(maps);
    if (!block)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fr_pack: no memory for %zu bytes of bitmaps",
                              maps);
    fr_pack_view(p, block, n, 0);
    pack_ctx_t c = {p, w, n, NULL, NULL};
    if (parallel_for(fr_pack_words(n), GRAIN_WORDS, threads, classify_words, &c) != CUZK_OK) {
        free(block);
        memset(p, 0, sizeof *p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fr_pack: no memory for threads");
    }
    if (max_bytes != SIZE_MAX) {
        size_t n_full = 0, words = fr_pack_words(n);
        for (size_t k = 0; k < words; k++)
            n_full += (size_t)__builtin_popcountll(p->full[k]);
        if (fr_pack_bytes(n, n_full) > max_bytes) {
            free(block);
            memset(p, 0, sizeof *p);
            return CUZK_OK;
        }
    }
    return fr_pack_finish(p, block, n, w, n, NULL, threads, err);
}

void fr_pack_get(fr_t *out, const fr_pack_t *p, size_t i)
{
    size_t k = i / 64;
    unsigned b = (unsigned)(i % 64);
    uint64_t bit = (uint64_t)1 << b;
    if (!(p->nz[k] & bit))
        *out = FR_ZERO;
    else if (!(p->full[k] & bit))
        *out = FR_ONE;
    else
        *out = p->vals[p->rank[k] + (size_t)__builtin_popcountll(p->full[k] & (bit - 1))];
}

static void expand_words(void *vctx, size_t begin, size_t end)
{
    pack_ctx_t *c = vctx;
    const fr_pack_t *p = c->p;
    for (size_t k = begin; k < end; k++) {
        uint64_t nz = p->nz[k], full = p->full[k];
        const fr_t *src = p->vals + p->rank[k];
        size_t i0 = 64 * k, top = p->n - i0 < 64 ? p->n - i0 : 64;
        fr_t *dst = c->out + i0;
        for (size_t b = 0; b < top; b++) {
            if (!((nz >> b) & 1))
                dst[b] = FR_ZERO;
            else if (!((full >> b) & 1))
                dst[b] = FR_ONE;
            else
                dst[b] = *src++;
        }
    }
}

cuzk_status fr_pack_expand(fr_t *w, const fr_pack_t *p, int threads)
{
    pack_ctx_t c = {(fr_pack_t *)p, NULL, 0, NULL, w};
    return parallel_for(fr_pack_words(p->n), GRAIN_WORDS, threads, expand_words, &c);
}

cuzk_status fr_pack_check(const fr_pack_t *p, cuzk_error_t *err)
{
    size_t words = fr_pack_words(p->n);
    if (p->n > FR_PACK_MAX_VALUES || p->n_full > p->n)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "fr_pack: %zu full of %zu values", p->n_full,
                              p->n);
    if (p->bytes != fr_pack_bytes(p->n, p->n_full))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "fr_pack: block of %zu bytes, layout needs %zu",
                              p->bytes, fr_pack_bytes(p->n, p->n_full));
    if (p->rank[0] != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "fr_pack: rank[0] = %u", p->rank[0]);
    for (size_t k = 0; k < words; k++) {
        uint64_t valid = p->n - 64 * k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (p->n % 64)) - 1;
        if ((p->nz[k] | p->full[k]) & ~valid)
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "fr_pack: bits past value %zu set", p->n);
        if (p->full[k] & ~p->nz[k])
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "fr_pack: word %zu has full bits without nz bits", k);
        if (p->rank[k + 1] != p->rank[k] + (uint32_t)__builtin_popcountll(p->full[k]))
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "fr_pack: rank[%zu] does not count word %zu's full values", k + 1,
                                  k);
    }
    if (p->rank[words] != p->n_full)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "fr_pack: ranks count %u full values, not %zu",
                              p->rank[words], p->n_full);
    for (size_t j = 0; j < p->n_full; j++)
        if (is_zero(&p->vals[j]) || is_one(&p->vals[j]))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "fr_pack: full value %zu is 0 or 1", j);
    return CUZK_OK;
}

void fr_pack_free(fr_pack_t *p)
{
    if (!p)
        return;
    free(p->block);
    memset(p, 0, sizeof *p);
}
