/* circom .r1cs reader (see include/cuzk/r1cs.h).
 *
 * Two passes over the constraints section: the first checks the term counts
 * against the section size and counts terms per matrix, so the CSR arrays are
 * allocated once at their exact size (bounded by the file size, whatever the
 * header claims); the second decodes and checks every term. */
#include "cuzk/r1cs.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "formats/binfile.h"

#define R1CS_VERSION 1
#define R1CS_SEC_HEADER 1
#define R1CS_SEC_CONSTRAINTS 2
#define R1CS_SEC_WIRE2LABEL 3
#define R1CS_SEC_CUSTOM_GATES_LIST 4
#define R1CS_SEC_CUSTOM_GATES_USES 5
#define R1CS_HEADER_BYTES (4 + FR_BYTES + 4 * 4 + 8 + 4)
#define R1CS_TERM_BYTES (4 + FR_BYTES)

static const char *const matrix_name[3] = {"A", "B", "C"};

/* Coefficient dictionary: open addressing over the raw 32-byte values. */
typedef struct coef_dict {
    uint64_t (*keys)[4]; /* raw little-endian limbs, per entry */
    fr_t *vals;
    uint32_t n, cap_entries;
    uint32_t *table; /* entry index + 1, 0 = empty */
    uint64_t table_mask;
} coef_dict_t;

static uint64_t dict_hash(const uint64_t k[4])
{
    uint64_t h = k[0] * 0x9e3779b97f4a7c15ull ^ k[1] * 0xc2b2ae3d27d4eb4full ^
                 k[2] * 0x165667b19e3779f9ull ^ k[3] * 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    h *= 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static int dict_grow_table(coef_dict_t *d)
{
    uint64_t cap = d->table ? 2 * (d->table_mask + 1) : 64;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return 0;
    for (uint32_t i = 0; i < d->n; i++) {
        uint64_t h = dict_hash(d->keys[i]) & (cap - 1);
        while (t[h])
            h = (h + 1) & (cap - 1);
        t[h] = i + 1;
    }
    free(d->table);
    d->table = t;
    d->table_mask = cap - 1;
    return 1;
}

/* Index of key (inserting it with value v if new), or -1 on NOMEM/overflow. */
static int64_t dict_find_or_add(coef_dict_t *d, const uint64_t key[4], const fr_t *v)
{
    uint64_t h = dict_hash(key) & d->table_mask;
    while (d->table[h]) {
        uint32_t i = d->table[h] - 1;
        if (memcmp(d->keys[i], key, sizeof d->keys[i]) == 0)
            return i;
        h = (h + 1) & d->table_mask;
    }
    if (d->n == UINT32_MAX - 1)
        return -1;
    if (d->n == d->cap_entries) {
        uint32_t cap = d->cap_entries
                           ? (d->cap_entries > UINT32_MAX / 2 ? UINT32_MAX - 1 : 2 * d->cap_entries)
                           : 16;
        uint64_t(*k)[4] = realloc(d->keys, (size_t)cap * sizeof *k);
        if (!k)
            return -1;
        d->keys = k;
        fr_t *vv = realloc(d->vals, (size_t)cap * sizeof *vv);
        if (!vv)
            return -1;
        d->vals = vv;
        d->cap_entries = cap;
    }
    uint32_t i = d->n++;
    memcpy(d->keys[i], key, sizeof d->keys[i]);
    d->vals[i] = *v;
    d->table[h] = i + 1;
    if ((uint64_t)d->n * 2 > d->table_mask + 1 && !dict_grow_table(d))
        return -1;
    return i;
}

static void dict_free(coef_dict_t *d)
{
    free(d->keys);
    free(d->vals);
    free(d->table);
    memset(d, 0, sizeof *d);
}

void r1cs_free(r1cs_t *r)
{
    if (!r)
        return;
    for (int m = 0; m < 3; m++) {
        free(r->m[m].row_ptr);
        free(r->m[m].col);
        free(r->m[m].coef);
    }
    free(r->coef);
    memset(r, 0, sizeof *r);
}

static cuzk_status parse_header(r1cs_t *r, const binfile_t *bf, cuzk_error_t *err)
{
    const uint8_t *h;
    cuzk_status st = binfile_fr_header(&h, bf, R1CS_SEC_HEADER, R1CS_HEADER_BYTES,
                                       "; compile with circom -p bls12381", err);
    if (st != CUZK_OK)
        return st;
    const uint8_t *p = h + 4 + FR_BYTES;
    r->n_wires = binfile_u32(p);
    r->n_pub_out = binfile_u32(p + 4);
    r->n_pub_in = binfile_u32(p + 8);
    r->n_prv_in = binfile_u32(p + 12);
    r->n_labels = binfile_u64(p + 16);
    r->n_constraints = binfile_u32(p + 24);
    uint64_t named = 1 + (uint64_t)r->n_pub_out + r->n_pub_in + r->n_prv_in;
    if (named > r->n_wires)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: 1 + %u outputs + %u public + %u private inputs exceed the %u "
                              "wires",
                              bf->name, r->n_pub_out, r->n_pub_in, r->n_prv_in, r->n_wires);
    return CUZK_OK;
}

/* Pass 1: term counts against the section size; nnz per matrix. */
static cuzk_status count_terms(uint64_t nnz[3], const r1cs_t *r, const binfile_t *bf,
                               const uint8_t *s, uint64_t size, cuzk_error_t *err)
{
    /* Each constraint takes at least its three counts: bounds the row
     * arrays by the section size. */
    if ((uint64_t)r->n_constraints * 12 > size)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %u constraints need at least %llu bytes, the constraints "
                              "section has %llu",
                              bf->name, r->n_constraints, (unsigned long long)r->n_constraints * 12,
                              (unsigned long long)size);
    uint64_t pos = 0;
    nnz[0] = nnz[1] = nnz[2] = 0;
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        for (int m = 0; m < 3; m++) {
            if (size - pos < 4)
                return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                      "%s: constraint %u (%s): term count runs past the end of "
                                      "the constraints section",
                                      bf->name, i, matrix_name[m]);
            uint64_t cnt = binfile_u32(s + pos);
            pos += 4;
            if (cnt * R1CS_TERM_BYTES > size - pos)
                return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                      "%s: constraint %u (%s): %llu terms run past the end of the "
                                      "constraints section",
                                      bf->name, i, matrix_name[m], (unsigned long long)cnt);
            pos += cnt * R1CS_TERM_BYTES;
            nnz[m] += cnt;
        }
    }
    if (pos != size)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %llu bytes left in the constraints section after %u "
                              "constraints",
                              bf->name, (unsigned long long)(size - pos), r->n_constraints);
    return CUZK_OK;
}

/* Pass 2: decode terms, check wires and coefficients, fill CSR + dictionary. */
static cuzk_status fill_terms(r1cs_t *r, coef_dict_t *d, const binfile_t *bf, const uint8_t *s,
                              cuzk_error_t *err)
{
    uint64_t pos = 0, k[3] = {0, 0, 0};
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        for (int m = 0; m < 3; m++) {
            r1cs_matrix_t *mx = &r->m[m];
            uint32_t cnt = binfile_u32(s + pos);
            pos += 4;
            mx->row_ptr[i] = k[m];
            for (uint32_t t = 0; t < cnt; t++, pos += R1CS_TERM_BYTES) {
                uint32_t wire = binfile_u32(s + pos);
                if (wire >= r->n_wires)
                    return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                          "%s: constraint %u (%s), term %u: wire %u is not below "
                                          "nWires = %u",
                                          bf->name, i, matrix_name[m], t, wire, r->n_wires);
                uint64_t key[4];
                for (int l = 0; l < 4; l++)
                    key[l] = binfile_u64(s + pos + 4 + 8 * l);
                fr_t v;
                if (fr_from_limbs(&v, key) != CUZK_OK)
                    return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                          "%s: constraint %u (%s), term %u (wire %u): coefficient "
                                          "is not below r",
                                          bf->name, i, matrix_name[m], t, wire);
                int64_t idx = dict_find_or_add(d, key, &v);
                if (idx < 0)
                    return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                          "%s: no memory for the coefficient dictionary", bf->name);
                mx->col[k[m]] = wire;
                mx->coef[k[m]] = (uint32_t)idx;
                k[m]++;
            }
        }
    }
    for (int m = 0; m < 3; m++)
        r->m[m].row_ptr[r->n_constraints] = k[m];
    return CUZK_OK;
}

static cuzk_status parse_constraints(r1cs_t *r, const binfile_t *bf, cuzk_error_t *err)
{
    const uint8_t *s;
    uint64_t size, nnz[3];
    cuzk_status st =
        binfile_section(bf, R1CS_SEC_CONSTRAINTS, "constraints", BINFILE_REQUIRED, &s, &size, err);
    if (st != CUZK_OK)
        return st;
    if ((st = count_terms(nnz, r, bf, s, size, err)) != CUZK_OK)
        return st;
    for (int m = 0; m < 3; m++) {
        r->m[m].nnz = nnz[m];
        r->m[m].row_ptr = malloc(((size_t)r->n_constraints + 1) * sizeof(uint64_t));
        r->m[m].col = malloc((nnz[m] ? nnz[m] : 1) * sizeof(uint32_t));
        r->m[m].coef = malloc((nnz[m] ? nnz[m] : 1) * sizeof(uint32_t));
        if (!r->m[m].row_ptr || !r->m[m].col || !r->m[m].coef)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %llu terms of %s",
                                  bf->name, (unsigned long long)nnz[m], matrix_name[m]);
    }
    coef_dict_t d = {0};
    fr_t one, minus_one;
    uint64_t k_one[4] = {1, 0, 0, 0}, k_minus_one[4];
    fr_from_u64(&one, 1);
    fr_neg(&minus_one, &one);
    memcpy(k_minus_one, FR_MODULUS, sizeof k_minus_one);
    k_minus_one[0] -= 1; /* r is odd */
    if (!dict_grow_table(&d) || dict_find_or_add(&d, k_one, &one) != R1CS_COEF_ONE ||
        dict_find_or_add(&d, k_minus_one, &minus_one) != R1CS_COEF_MINUS_ONE) {
        dict_free(&d);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for the coefficient dictionary",
                              bf->name);
    }
    st = fill_terms(r, &d, bf, s, err);
    if (st == CUZK_OK) {
        r->coef = d.vals; /* keep the values, drop keys and table */
        r->n_coef = d.n;
        d.vals = NULL;
    }
    dict_free(&d);
    return st;
}

static cuzk_status parse(r1cs_t *r, const binfile_t *bf, cuzk_error_t *err)
{
    if (bf->version != R1CS_VERSION)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: r1cs version %u, expected %d",
                              bf->name, bf->version, R1CS_VERSION);
    if (binfile_count(bf, R1CS_SEC_CUSTOM_GATES_LIST) ||
        binfile_count(bf, R1CS_SEC_CUSTOM_GATES_USES))
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: uses PLONK custom gates (sections 4/5), which Groth16 cannot "
                              "prove",
                              bf->name);
    cuzk_status st = parse_header(r, bf, err);
    if (st != CUZK_OK)
        return st;
    const uint8_t *w2l;
    uint64_t w2l_size;
    st = binfile_section(bf, R1CS_SEC_WIRE2LABEL, "wire-to-label map", BINFILE_OPTIONAL, &w2l,
                         &w2l_size, err);
    if (st != CUZK_OK)
        return st;
    if (w2l && w2l_size != (uint64_t)r->n_wires * 8)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: wire-to-label section is %llu bytes, expected %llu (nWires = "
                              "%u)",
                              bf->name, (unsigned long long)w2l_size,
                              (unsigned long long)r->n_wires * 8, r->n_wires);
    return parse_constraints(r, bf, err);
}

static cuzk_status read_bf(r1cs_t *out, binfile_t *bf, cuzk_status st, cuzk_error_t *err)
{
    if (st == CUZK_OK)
        st = parse(out, bf, err);
    binfile_close(bf);
    if (st != CUZK_OK)
        r1cs_free(out);
    return st;
}

cuzk_status r1cs_read(r1cs_t *out, const char *path, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "r1cs_read: NULL output");
    memset(out, 0, sizeof *out);
    binfile_t bf;
    return read_bf(out, &bf, binfile_open(&bf, path, "r1cs", err), err);
}

cuzk_status r1cs_read_mem(r1cs_t *out, const uint8_t *data, size_t size, const char *name,
                          cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "r1cs_read_mem: NULL output");
    memset(out, 0, sizeof *out);
    binfile_t bf;
    return read_bf(out, &bf, binfile_open_mem(&bf, data, size, name, "r1cs", err), err);
}

/* <M_i, w>; the caller has checked i and the witness length. */
static void eval_row(fr_t *out, const r1cs_t *r, const r1cs_matrix_t *m, const fr_t *w, uint32_t i)
{
    fr_t acc = FR_ZERO, t;
    for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
        const fr_t *x = &w[m->col[k]];
        switch (m->coef[k]) {
        case R1CS_COEF_ONE: fr_add(&acc, &acc, x); break;
        case R1CS_COEF_MINUS_ONE: fr_sub(&acc, &acc, x); break;
        default: fr_mul(&t, &r->coef[m->coef[k]], x); fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

static cuzk_status check_args(const r1cs_t *r, const fr_t *w, size_t n_w, const char *fn,
                              cuzk_error_t *err)
{
    if (!r || !w)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL argument", fn);
    if (n_w != r->n_wires)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: witness has %zu values, the r1cs %u wires",
                              fn, n_w, r->n_wires);
    return CUZK_OK;
}

cuzk_status r1cs_eval(fr_t *out, const r1cs_t *r, r1cs_matrix_id m, const fr_t *w, size_t n_w,
                      uint32_t begin, uint32_t end, cuzk_error_t *err)
{
    cuzk_status st = check_args(r, w, n_w, "r1cs_eval", err);
    if (st != CUZK_OK)
        return st;
    if ((unsigned)m > R1CS_C || begin > end || end > r->n_constraints || (!out && end > begin))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "r1cs_eval: matrix %d, rows [%u, %u) of %u constraints", (int)m,
                              begin, end, r->n_constraints);
    for (uint32_t i = begin; i < end; i++)
        eval_row(&out[i - begin], r, &r->m[m], w, i);
    return CUZK_OK;
}

typedef struct check_ctx {
    const r1cs_t *r;
    const fr_t *w;
    _Atomic int64_t first; /* INT64_MAX: none yet */
} check_ctx_t;

static void check_rows(void *vctx, size_t begin, size_t end)
{
    check_ctx_t *c = vctx;
    for (size_t i = begin; i < end; i++) {
        /* A smaller failure is already known: nothing here can beat it. */
        if ((int64_t)i >= atomic_load_explicit(&c->first, memory_order_relaxed))
            return;
        fr_t a, b, cc, ab;
        eval_row(&a, c->r, &c->r->m[R1CS_A], c->w, (uint32_t)i);
        eval_row(&b, c->r, &c->r->m[R1CS_B], c->w, (uint32_t)i);
        eval_row(&cc, c->r, &c->r->m[R1CS_C], c->w, (uint32_t)i);
        fr_mul(&ab, &a, &b);
        if (!fr_equal(&ab, &cc)) {
            int64_t cur = atomic_load(&c->first);
            while ((int64_t)i < cur && !atomic_compare_exchange_weak(&c->first, &cur, (int64_t)i))
                ;
            return;
        }
    }
}

cuzk_status r1cs_check_witness(int64_t *first_failing, const r1cs_t *r, const fr_t *w, size_t n_w,
                               int threads, cuzk_error_t *err)
{
    if (!first_failing)
        return cuzk_error_set(err, CUZK_ERR_ARG, "r1cs_check_witness: NULL output");
    *first_failing = -1;
    cuzk_status st = check_args(r, w, n_w, "r1cs_check_witness", err);
    if (st != CUZK_OK)
        return st;
    if (n_w == 0 || !fr_is_one(&w[0]))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "r1cs_check_witness: w[0] must be 1 (the constant wire)");
    check_ctx_t c = {r, w, INT64_MAX};
    if (parallel_for(r->n_constraints, 4096, threads, check_rows, &c) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs_check_witness: no memory for threads");
    int64_t f = atomic_load(&c.first);
    *first_failing = f == INT64_MAX ? -1 : f;
    return CUZK_OK;
}
