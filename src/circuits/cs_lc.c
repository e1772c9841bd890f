/* Linear combinations: a pool of reusable term buffers owned by the cs, and
 * bellpepper's merge rule (BPC:src/lc.rs Indexer::insert_or_update: one term
 * per variable, coefficients added, zero sums kept; inputs before aux, each
 * sorted by index).
 *
 * Terms are appended unsorted and merged once, at enforce time. That gives
 * bellpepper's map exactly: a variable is in it iff some added term had it,
 * with the sum of those coefficients, and sums do not depend on order. Count,
 * witness and check need only the merge (a hash table, linear time); record
 * and cs_lc_normalize also sort. */
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "field/fr_inline.h"

int cs_lc_grow_(cs_t *cs, cs_lc_t *lc, uint32_t need)
{
    if (lc == &cs->sink) {
        cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory for a linear combination");
        return 0;
    }
    uint32_t n = lc->cap ? lc->cap : 16;
    while (n < need) {
        if (n > UINT32_MAX / 2) {
            cs_fail(cs, CUZK_ERR_CAPACITY, "cs: a linear combination of more than 2^31 terms");
            return 0;
        }
        n *= 2;
    }
    cs_term_t *t = realloc(lc->terms, (size_t)n * sizeof *t);
    if (!t) {
        cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory for a linear combination");
        return 0;
    }
    lc->terms = t;
    lc->cap = n;
    return 1;
}

cs_lc_t *cs_lc_get(cs_t *cs)
{
    if (cs->pool_n > 0) {
        cs_lc_t *lc = cs->pool[--cs->pool_n];
        lc->n = 0;
        return lc;
    }
    cs_lc_t *lc = calloc(1, sizeof *lc);
    if (!lc) {
        cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory for a linear combination");
        cs->sink.n = 0;
        return &cs->sink;
    }
    return lc;
}

void cs_lc_put(cs_t *cs, cs_lc_t *lc)
{
    if (!lc || lc == &cs->sink)
        return;
    if (cs->pool_n == cs->pool_cap) {
        size_t n = cs->pool_cap ? cs->pool_cap * 2 : 16;
        cs_lc_t **p = realloc(cs->pool, n * sizeof *p);
        if (!p) { /* cannot keep it: free it instead */
            free(lc->terms);
            free(lc);
            return;
        }
        cs->pool = p;
        cs->pool_cap = n;
    }
    cs->pool[cs->pool_n++] = lc;
}

void cs_enforce_begin(cs_t *cs, cs_lc_t **a, cs_lc_t **b, cs_lc_t **c)
{
    cs->scratch[0].n = cs->scratch[1].n = cs->scratch[2].n = 0;
    *a = &cs->scratch[0];
    *b = &cs->scratch[1];
    *c = &cs->scratch[2];
}

void cs_lc_clear(cs_lc_t *lc)
{
    lc->n = 0;
}

void cs_lc_add(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *coeff)
{
    cs_lc_push_(cs, lc, v, coeff ? coeff : &FR_ONE);
}

void cs_lc_sub(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *coeff)
{
    if (!coeff) {
        cs_lc_push_(cs, lc, v, &cs->minus_one);
        return;
    }
    fr_t neg;
    fr_neg(&neg, coeff);
    cs_lc_push_(cs, lc, v, &neg);
}

static int reserve(cs_t *cs, cs_lc_t *lc, uint32_t more)
{
    if (more > UINT32_MAX - lc->n) {
        cs_fail(cs, CUZK_ERR_CAPACITY, "cs: a linear combination of more than 2^32 terms");
        return 0;
    }
    return lc->n + more <= lc->cap || cs_lc_grow_(cs, lc, lc->n + more);
}

void cs_lc_add_lc(cs_t *cs, cs_lc_t *lc, const cs_lc_t *other, const fr_t *coeff)
{
    if (!reserve(cs, lc, other->n))
        return;
    cs_term_t *dst = lc->terms + lc->n;
    if (!coeff || cs_fr_is_one_(coeff)) {
        memcpy(dst, other->terms, (size_t)other->n * sizeof *dst);
    } else {
        for (uint32_t i = 0; i < other->n; i++) {
            dst[i].var = other->terms[i].var;
            fr_mul_inl(&dst[i].coeff, &other->terms[i].coeff, coeff);
        }
    }
    lc->n += other->n;
}

void cs_lc_sub_lc(cs_t *cs, cs_lc_t *lc, const cs_lc_t *other, const fr_t *coeff)
{
    fr_t neg;
    fr_neg(&neg, coeff ? coeff : &FR_ONE);
    cs_lc_add_lc(cs, lc, other, &neg);
}

void cs_lc_copy(cs_t *cs, cs_lc_t *dst, const cs_lc_t *src)
{
    dst->n = 0;
    cs_lc_add_lc(cs, dst, src, NULL);
}

void cs_lc_scale(cs_lc_t *lc, const fr_t *s)
{
    for (uint32_t i = 0; i < lc->n; i++)
        fr_mul_inl(&lc->terms[i].coeff, &lc->terms[i].coeff, s);
}

/* True when the variables are strictly increasing: then there is nothing to
 * merge or sort (the usual case for short combinations). */
static int strictly_sorted(const cs_lc_t *lc)
{
    for (uint32_t i = 1; i < lc->n; i++)
        if (lc->terms[i - 1].var >= lc->terms[i].var)
            return 0;
    return 1;
}

/* The general merge: a hash table of the kept terms. */
static void merge_hashed(cs_t *cs, cs_lc_t *lc)
{
    uint32_t n = lc->n, w = 0;
    cs_term_t *t = lc->terms;
    size_t size = 64;
    unsigned bits = 6;
    while (size < 2 * (size_t)n) {
        size *= 2;
        bits++;
    }
    if (size > cs->hslots_n) {
        uint32_t *p = realloc(cs->hslots, size * sizeof *p);
        if (!p) {
            cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory merging a linear combination");
            return;
        }
        cs->hslots = p;
        cs->hslots_n = size;
    }
    uint32_t *slot = cs->hslots;
    memset(slot, 0, size * sizeof *slot);
    size_t mask = size - 1;
    for (uint32_t i = 0; i < n; i++) {
        cs_var_t key = t[i].var;
        size_t h = (size_t)((key * 0x9E3779B1u) >> (32 - bits)) & mask;
        for (;;) {
            uint32_t s = slot[h];
            if (s == 0) {
                slot[h] = w + 1;
                t[w++] = t[i];
                break;
            }
            if (t[s - 1].var == key) {
                fr_add_inl(&t[s - 1].coeff, &t[s - 1].coeff, &t[i].coeff);
                break;
            }
            h = (h + 1) & mask;
        }
    }
    lc->n = w;
}

/* Input terms a window merge tracks by linear search (ONE and a few). */
#define CS_MERGE_INPUTS 8

/* The common long case (MultiEq sums, packings): aux variables from a
 * window of recent allocations, plus a few input terms that repeat (ONE).
 * A table indexed by aux index - lo holds each kept term's position + 1;
 * inputs merge by linear search. The table is all zero between calls (the
 * kept entries are cleared at the end), so a merge costs O(n), not
 * O(window). Returns 0, having changed nothing, when the window is too
 * sparse or there are too many distinct inputs: merge_hashed does those. */
static int merge_window(cs_t *cs, cs_lc_t *lc)
{
    uint32_t n = lc->n;
    cs_term_t *t = lc->terms;
    uint32_t lo = UINT32_MAX, hi = 0, n_inputs = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!cs_var_is_aux(t[i].var)) {
            n_inputs++;
            continue;
        }
        uint32_t j = cs_var_index(t[i].var);
        lo = j < lo ? j : lo;
        hi = j > hi ? j : hi;
    }
    size_t span = lo > hi ? 0 : (size_t)(hi - lo) + 1;
    if (span > 64 * (size_t)n + 65536)
        return 0;
    if (span > cs->wpos_n) {
        uint32_t *p = realloc(cs->wpos, span * sizeof *p);
        if (!p)
            return 0;
        memset(p + cs->wpos_n, 0, (span - cs->wpos_n) * sizeof *p);
        cs->wpos = p;
        cs->wpos_n = span;
    }
    uint32_t in_pos[CS_MERGE_INPUTS], n_in = 0, w = 0;
    if (n_inputs > 0) { /* are there few distinct inputs? */
        for (uint32_t i = 0; i < n; i++) {
            if (cs_var_is_aux(t[i].var))
                continue;
            uint32_t k = 0;
            while (k < n_in && t[in_pos[k]].var != t[i].var)
                k++;
            if (k == n_in) {
                if (n_in == CS_MERGE_INPUTS)
                    return 0;
                in_pos[n_in++] = i;
            }
        }
        n_in = 0;
    }
    uint32_t *pos = cs->wpos;
    for (uint32_t i = 0; i < n; i++) {
        cs_var_t v = t[i].var;
        uint32_t *slot;
        if (cs_var_is_aux(v)) {
            slot = &pos[cs_var_index(v) - lo];
        } else {
            uint32_t k = 0;
            while (k < n_in && t[in_pos[k]].var != v)
                k++;
            if (k == n_in) {
                in_pos[n_in++] = w;
                t[w++] = t[i];
                continue;
            }
            fr_add_inl(&t[in_pos[k]].coeff, &t[in_pos[k]].coeff, &t[i].coeff);
            continue;
        }
        if (*slot) {
            fr_add_inl(&t[*slot - 1].coeff, &t[*slot - 1].coeff, &t[i].coeff);
        } else {
            *slot = w + 1;
            t[w++] = t[i];
        }
    }
    for (uint32_t i = 0; i < w; i++)
        if (cs_var_is_aux(t[i].var))
            pos[cs_var_index(t[i].var) - lo] = 0;
    lc->n = w;
    return 1;
}

void cs_lc_merge_(cs_t *cs, cs_lc_t *lc)
{
    uint32_t n = lc->n;
    cs_term_t *t = lc->terms;
    if (n < 2 || strictly_sorted(lc))
        return;
    if (n <= 16) {
        uint32_t w = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = 0;
            while (j < w && t[j].var != t[i].var)
                j++;
            if (j < w)
                fr_add_inl(&t[j].coeff, &t[j].coeff, &t[i].coeff);
            else
                t[w++] = t[i];
        }
        lc->n = w;
        return;
    }
    if (!merge_window(cs, lc))
        merge_hashed(cs, lc);
}

/* LSD radix sort on the 32-bit variable keys, a byte per pass; passes in
 * which every key has the same byte (the aux flag and high index bits,
 * usually) are skipped. Stable; tmp holds n terms. */
static void radix_sort(cs_term_t *t, cs_term_t *tmp, uint32_t n)
{
    cs_term_t *src = t, *dst = tmp;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        uint32_t count[256] = {0};
        for (uint32_t i = 0; i < n; i++)
            count[(src[i].var >> shift) & 255]++;
        if (count[(src[0].var >> shift) & 255] == n)
            continue;
        uint32_t sum = 0;
        for (unsigned d = 0; d < 256; d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++)
            dst[count[(src[i].var >> shift) & 255]++] = src[i];
        cs_term_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != t)
        memcpy(t, src, (size_t)n * sizeof *t);
}

void cs_lc_normalize(cs_t *cs, cs_lc_t *lc)
{
    if (lc->n < 2 || strictly_sorted(lc))
        return;
    cs_lc_merge_(cs, lc);
    cs_term_t *t = lc->terms;
    if (lc->n <= 32) {
        for (uint32_t i = 1; i < lc->n; i++) {
            cs_term_t x = t[i];
            uint32_t j = i;
            while (j > 0 && t[j - 1].var > x.var) {
                t[j] = t[j - 1];
                j--;
            }
            t[j] = x;
        }
        return;
    }
    if (lc->n > cs->sort_cap) {
        cs_term_t *p = realloc(cs->sort_tmp, (size_t)lc->n * sizeof *p);
        if (!p) {
            cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory sorting a linear combination");
            return;
        }
        cs->sort_tmp = p;
        cs->sort_cap = lc->n;
    }
    radix_sort(t, cs->sort_tmp, lc->n);
}

void cs_lc_eval(fr_t *out, const cs_t *cs, const cs_lc_t *lc)
{
    fr_t acc = FR_ZERO;
    if (!cs->values) {
        *out = acc;
        return;
    }
    for (uint32_t i = 0; i < lc->n; i++) {
        const cs_term_t *t = &lc->terms[i];
        uint64_t j = cs_var_index(t->var);
        const fr_t *v;
        if (cs_var_is_aux(t->var))
            v = cs_aux_ref_(cs, j);
        else
            v = j < cs->n_inputs && j < cs->in_cap ? &cs->in_val[j] : &FR_ZERO;
        if (cs_fr_is_one_(&t->coeff)) {
            fr_add_inl(&acc, &acc, v);
        } else {
            fr_t p;
            fr_mul_inl(&p, v, &t->coeff);
            fr_add_inl(&acc, &acc, &p);
        }
    }
    *out = acc;
}
