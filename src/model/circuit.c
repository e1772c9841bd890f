/* The precompiled circuit: builder, CSR, evaluation (see include/cuzk/circuit.h).
 *
 * The builder keeps one growing triple list per matrix and a hash table that
 * interns coefficients into the dictionary; finish sorts the triples into
 * rows with a counting sort (stable, so term order within a row is kept). */
#include "cuzk/circuit.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"

typedef struct triple {
    uint32_t row, col, coef;
} triple_t;

typedef struct triple_vec {
    triple_t *v;
    uint64_t len, cap;
} triple_vec_t;

struct circuit_builder {
    uint32_t n_rows, n_vars, n_public;
    triple_vec_t t[3];
    fr_t *dict;
    uint32_t n_dict, dict_cap;
    uint32_t *slots; /* open addressing: dict index + 1, 0 = empty */
    uint64_t n_slots;
};

circuit_builder_t *circuit_builder_new(uint32_t n_rows, uint32_t n_vars, uint32_t n_public)
{
    circuit_builder_t *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->n_rows = n_rows;
    b->n_vars = n_vars;
    b->n_public = n_public;
    b->n_slots = 1024;
    b->slots = calloc(b->n_slots, sizeof *b->slots);
    if (!b->slots) {
        free(b);
        return NULL;
    }
    return b;
}

void circuit_builder_free(circuit_builder_t *b)
{
    if (!b)
        return;
    for (int m = 0; m < 3; m++)
        free(b->t[m].v);
    free(b->dict);
    free(b->slots);
    free(b);
}

static uint64_t coef_hash(const fr_t *c)
{
    uint64_t h = c->l[0] ^ (c->l[1] * 0x9e3779b97f4a7c15ULL) ^ (c->l[2] >> 7) ^ (c->l[3] << 3);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

static cuzk_status dict_grow_slots(circuit_builder_t *b)
{
    uint64_t n = b->n_slots * 2;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return CUZK_ERR_NOMEM;
    for (uint32_t i = 0; i < b->n_dict; i++) {
        uint64_t h = coef_hash(&b->dict[i]) & (n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = i + 1;
    }
    free(b->slots);
    b->slots = s;
    b->n_slots = n;
    return CUZK_OK;
}

/* Returns the dictionary index of c, adding it when new; UINT32_MAX on OOM. */
static uint32_t dict_intern(circuit_builder_t *b, const fr_t *c)
{
    uint64_t h = coef_hash(c) & (b->n_slots - 1);
    while (b->slots[h]) {
        uint32_t i = b->slots[h] - 1;
        if (fr_equal(&b->dict[i], c))
            return i;
        h = (h + 1) & (b->n_slots - 1);
    }
    if (b->n_dict == UINT32_MAX - 1)
        return UINT32_MAX;
    if (b->n_dict == b->dict_cap) {
        uint32_t cap = b->dict_cap ? b->dict_cap * 2 : 64;
        fr_t *d = realloc(b->dict, (size_t)cap * sizeof *d);
        if (!d)
            return UINT32_MAX;
        b->dict = d;
        b->dict_cap = cap;
    }
    uint32_t idx = b->n_dict++;
    b->dict[idx] = *c;
    b->slots[h] = idx + 1;
    if ((uint64_t)b->n_dict * 2 > b->n_slots && dict_grow_slots(b) != CUZK_OK)
        return UINT32_MAX;
    return idx;
}

cuzk_status circuit_builder_add(circuit_builder_t *b, circuit_matrix m, uint32_t row, uint32_t col,
                                const fr_t *coef, cuzk_error_t *err)
{
    if ((unsigned)m > CIRCUIT_C)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit: matrix %d is not A, B or C", (int)m);
    if (row >= b->n_rows)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit: row %u out of range (%u rows)", row,
                              b->n_rows);
    if (col >= b->n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit: variable %u out of range (%u vars)", col,
                              b->n_vars);
    if (fr_is_zero(coef))
        return CUZK_OK;
    uint32_t idx = dict_intern(b, coef);
    if (idx == UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory (dictionary)");
    triple_vec_t *t = &b->t[m];
    if (t->len == t->cap) {
        uint64_t cap = t->cap ? t->cap * 2 : 1024;
        triple_t *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory (terms)");
        t->v = v;
        t->cap = cap;
    }
    t->v[t->len++] = (triple_t){row, col, idx};
    return CUZK_OK;
}

static cuzk_status csr_from_triples(circuit_csr_t *out, const triple_vec_t *t, uint32_t n_rows)
{
    memset(out, 0, sizeof *out);
    out->row_ptr = calloc((size_t)n_rows + 1, sizeof *out->row_ptr);
    out->col = malloc((t->len ? t->len : 1) * sizeof *out->col);
    out->coef = malloc((t->len ? t->len : 1) * sizeof *out->coef);
    if (!out->row_ptr || !out->col || !out->coef)
        return CUZK_ERR_NOMEM;
    for (uint64_t i = 0; i < t->len; i++)
        out->row_ptr[t->v[i].row + 1]++;
    for (uint32_t r = 0; r < n_rows; r++)
        out->row_ptr[r + 1] += out->row_ptr[r];
    uint64_t *fill = malloc(((size_t)n_rows + 1) * sizeof *fill);
    if (!fill)
        return CUZK_ERR_NOMEM;
    memcpy(fill, out->row_ptr, ((size_t)n_rows + 1) * sizeof *fill);
    for (uint64_t i = 0; i < t->len; i++) {
        uint64_t at = fill[t->v[i].row]++;
        out->col[at] = t->v[i].col;
        out->coef[at] = t->v[i].coef;
    }
    free(fill);
    out->nnz = t->len;
    return CUZK_OK;
}

cuzk_status circuit_builder_finish(circuit_t *out, circuit_builder_t *b, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->n_rows = b->n_rows;
    out->n_vars = b->n_vars;
    out->n_public = b->n_public;
    for (int m = 0; m < 3; m++) {
        if (csr_from_triples(&out->m[m], &b->t[m], b->n_rows) != CUZK_OK) {
            circuit_builder_free(b);
            circuit_free(out);
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory (CSR)");
        }
        free(b->t[m].v);
        b->t[m].v = NULL;
    }
    out->dict = b->dict;
    out->n_dict = b->n_dict;
    b->dict = NULL;
    circuit_builder_free(b);
    return CUZK_OK;
}

void circuit_free(circuit_t *c)
{
    if (!c)
        return;
    for (int m = 0; m < 3; m++) {
        free(c->m[m].row_ptr);
        free(c->m[m].col);
        free(c->m[m].coef);
    }
    free(c->dict);
    memset(c, 0, sizeof *c);
}

/* One row of M w; terms with coefficient 1 skip the multiplication. */
static void row_eval(fr_t *out, const circuit_t *c, const circuit_csr_t *m, uint32_t r,
                     const fr_t *w)
{
    fr_t acc = FR_ZERO, t;
    for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
        const fr_t *coef = &c->dict[m->coef[k]];
        const fr_t *x = &w[m->col[k]];
        if (fr_is_one(coef)) {
            fr_add(&acc, &acc, x);
        } else {
            fr_mul(&t, coef, x);
            fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

typedef struct eval_ctx {
    fr_t *out;
    const circuit_t *c;
    const circuit_csr_t *m;
    const fr_t *w;
} eval_ctx_t;

static void eval_range(void *vctx, size_t begin, size_t end)
{
    eval_ctx_t *ctx = vctx;
    for (size_t r = begin; r < end; r++)
        row_eval(&ctx->out[r], ctx->c, ctx->m, (uint32_t)r, ctx->w);
}

cuzk_status circuit_eval(fr_t *out, const circuit_t *c, circuit_matrix m, const fr_t *w,
                         int threads)
{
    if ((unsigned)m > CIRCUIT_C)
        return CUZK_ERR_ARG;
    eval_ctx_t ctx = {out, c, &c->m[m], w};
    return parallel_for(c->n_rows, 4096, threads, eval_range, &ctx);
}

typedef struct check_ctx {
    const circuit_t *c;
    const fr_t *w;
    uint32_t *first_bad; /* per chunk of CHECK_CHUNK rows */
} check_ctx_t;

#define CHECK_CHUNK 8192

/* Scans chunks [begin, end); each records its own first failing row, so the
 * answer does not depend on how chunks are spread over threads. */
static void check_chunks(void *vctx, size_t begin, size_t end)
{
    check_ctx_t *ctx = vctx;
    for (size_t ch = begin; ch < end; ch++) {
        size_t lo = ch * CHECK_CHUNK, hi = lo + CHECK_CHUNK;
        if (hi > ctx->c->n_rows)
            hi = ctx->c->n_rows;
        for (size_t r = lo; r < hi; r++) {
            fr_t a, b, cc, ab;
            row_eval(&a, ctx->c, &ctx->c->m[CIRCUIT_A], (uint32_t)r, ctx->w);
            row_eval(&b, ctx->c, &ctx->c->m[CIRCUIT_B], (uint32_t)r, ctx->w);
            row_eval(&cc, ctx->c, &ctx->c->m[CIRCUIT_C], (uint32_t)r, ctx->w);
            fr_mul(&ab, &a, &b);
            if (!fr_equal(&ab, &cc)) {
                ctx->first_bad[ch] = (uint32_t)r;
                break;
            }
        }
    }
}

cuzk_status circuit_check(uint32_t *bad_row, const circuit_t *c, const fr_t *w, int threads)
{
    size_t n_chunks = ((size_t)c->n_rows + CHECK_CHUNK - 1) / CHECK_CHUNK;
    *bad_row = UINT32_MAX;
    if (n_chunks == 0)
        return CUZK_OK;
    uint32_t *first = malloc(n_chunks * sizeof *first);
    if (!first)
        return CUZK_ERR_NOMEM;
    for (size_t i = 0; i < n_chunks; i++)
        first[i] = UINT32_MAX;
    check_ctx_t ctx = {c, w, first};
    cuzk_status st = parallel_for(n_chunks, 1, threads, check_chunks, &ctx);
    for (size_t i = 0; i < n_chunks && *bad_row == UINT32_MAX; i++)
        *bad_row = first[i];
    free(first);
    return st;
}
