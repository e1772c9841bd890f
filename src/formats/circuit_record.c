/* A recorded constraint system as the prover's circuit (circuit_record.h).
 * Built straight into CSR, one pass per matrix: the 32 GiB PoRep record
 * holds ~720 M terms, so no intermediate triples. */
#include "cuzk/circuit_record.h"

#include <stdlib.h>
#include <string.h>

static void csr_free(circuit_csr_t *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->coef);
    memset(m, 0, sizeof *m);
}

/* The checks both conversions make; *k the record's counts. */
static cuzk_status record_check(cs_counts_t *k, const circuit_t *out, const cs_t *cs,
                                cuzk_error_t *err)
{
    if (!out || !cs)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit_from_record: NULL argument");
    cuzk_error_t why;
    if (cs_status(cs, &why) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit_from_record: the cs failed: %s", why.msg);
    cs_counts(k, cs);
    if (k->constraints + k->inputs > UINT32_MAX || k->inputs + k->aux > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "circuit_from_record: %llu rows and %llu variables do not fit a "
                              "circuit (2^32 - 1 each)",
                              (unsigned long long)(k->constraints + k->inputs),
                              (unsigned long long)(k->inputs + k->aux));
    return CUZK_OK;
}

/* The dictionary src[0..n) without zero and with one (the input rows'),
 * into dst (room for n + 1; dst may be src: entries only move down);
 * map[i] is src[i]'s new index, UINT32_MAX for zero. Returns one's index. */
static uint32_t dict_compact(fr_t *dst, uint32_t *n_out, uint32_t *map, const fr_t *src, uint32_t n)
{
    uint32_t m = 0, one = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (fr_is_zero(&src[i])) {
            map[i] = UINT32_MAX;
            continue;
        }
        map[i] = m;
        if (one == UINT32_MAX && fr_is_one(&src[i]))
            one = m;
        dst[m++] = src[i];
    }
    if (one == UINT32_MAX) {
        one = m;
        dst[m++] = FR_ONE;
    }
    *n_out = m;
    return one;
}

/* The prover's input rows after the recorded ones: A = input i (coefficient
 * index one) when input_rows, else empty; the final row pointer. */
static void input_rows_put(circuit_csr_t *out, uint64_t rows, uint64_t inputs, int input_rows,
                           uint32_t one, uint64_t at)
{
    for (uint64_t i = 0; i < inputs; i++) {
        out->row_ptr[rows + i] = at;
        if (input_rows) {
            out->col[at] = (uint32_t)i;
            out->coef[at++] = one;
        }
    }
    out->row_ptr[rows + inputs] = at;
    out->nnz = at;
}

/* Matrix m of the record into out, zero terms dropped (map[i] ==
 * UINT32_MAX), dictionary indices renumbered by map, then the input rows
 * (A only: input i at coefficient index one). */
static cuzk_status csr_fill(circuit_csr_t *out, const cs_record_matrix_t *rm, const uint32_t *map,
                            uint64_t rows, uint64_t inputs, int input_rows, uint32_t one,
                            cuzk_error_t *err)
{
    uint64_t nnz = input_rows ? inputs : 0;
    for (uint64_t e = 0; e < rm->nnz; e++)
        nnz += map[rm->coef[e]] != UINT32_MAX;
    uint64_t n_rows = rows + inputs;
    out->row_ptr = malloc((size_t)(n_rows + 1) * sizeof *out->row_ptr);
    out->col = malloc((size_t)(nnz ? nnz : 1) * sizeof *out->col);
    out->coef = malloc((size_t)(nnz ? nnz : 1) * sizeof *out->coef);
    if (!out->row_ptr || !out->col || !out->coef) {
        csr_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit_from_record: no memory for %llu terms",
                              (unsigned long long)nnz);
    }
    uint64_t at = 0;
    for (uint64_t r = 0; r < rows; r++) {
        out->row_ptr[r] = at;
        for (uint64_t e = rm->row_ptr[r]; e < rm->row_ptr[r + 1]; e++) {
            uint32_t c = map[rm->coef[e]];
            if (c == UINT32_MAX)
                continue;
            out->col[at] = (uint32_t)cs_record_column(rm->var[e], inputs);
            out->coef[at++] = c;
        }
    }
    input_rows_put(out, rows, inputs, input_rows, one, at);
    return CUZK_OK;
}

cuzk_status circuit_from_record(circuit_t *out, const cs_t *cs, cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    cs_counts_t k;
    cuzk_status st = record_check(&k, out, cs, err);
    if (st != CUZK_OK)
        return st;
    cs_record_matrix_t rm[3];
    const fr_t *dict;
    uint32_t n_dict;
    if ((st = cs_record_matrices(rm, &dict, &n_dict, cs, err)) != CUZK_OK)
        return st;
    uint32_t *map = malloc(((size_t)n_dict + 1) * sizeof *map);
    out->dict = malloc(((size_t)n_dict + 1) * sizeof *out->dict);
    if (!map || !out->dict) {
        free(map);
        circuit_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit_from_record: no memory");
    }
    uint32_t one = dict_compact(out->dict, &out->n_dict, map, dict, n_dict);
    out->n_rows = (uint32_t)(k.constraints + k.inputs);
    out->n_vars = (uint32_t)(k.inputs + k.aux);
    out->n_public = (uint32_t)(k.inputs - 1);
    for (int m = 0; m < 3 && st == CUZK_OK; m++)
        st = csr_fill(&out->m[m], &rm[m], map, k.constraints, k.inputs, m == CIRCUIT_A, one, err);
    free(map);
    if (st != CUZK_OK)
        circuit_free(out);
    return st;
}

/* Matrix rm of a taken record into out, in place: terms whose coefficient
 * is zero dropped (map), variables to columns and dictionary indices
 * renumbered over the same words (both u32), the row pointers rewritten
 * over themselves, then the input rows appended (A only). */
static cuzk_status csr_take(circuit_csr_t *out, cs_record_owned_t *rm, const uint32_t *map,
                            uint64_t rows, uint64_t inputs, int input_rows, uint32_t one,
                            cuzk_error_t *err)
{
    uint64_t at = 0, begin = 0;
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t end = rm->row_ptr[r + 1];
        rm->row_ptr[r] = at;
        for (uint64_t e = begin; e < end; e++) {
            uint32_t c = map[rm->coef[e]];
            if (c == UINT32_MAX)
                continue;
            rm->var[at] = (uint32_t)cs_record_column(rm->var[e], inputs);
            rm->coef[at++] = c;
        }
        begin = end;
    }
    uint64_t nnz = at + (input_rows ? inputs : 0), n_rows = rows + inputs;
    uint64_t *rp = realloc(rm->row_ptr, (size_t)(n_rows + 1) * sizeof *rp);
    if (rp)
        rm->row_ptr = rp;
    /* shrinking gives back what the record's doubling reserved */
    uint32_t *col = realloc(rm->var, (size_t)(nnz ? nnz : 1) * sizeof *col);
    if (col)
        rm->var = col;
    uint32_t *coef = realloc(rm->coef, (size_t)(nnz ? nnz : 1) * sizeof *coef);
    if (coef)
        rm->coef = coef;
    if (!rp || !col || !coef)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit_from_record: no memory");
    out->row_ptr = rm->row_ptr;
    out->col = rm->var;
    out->coef = rm->coef;
    memset(rm, 0, sizeof *rm);
    input_rows_put(out, rows, inputs, input_rows, one, at);
    return CUZK_OK;
}

cuzk_status circuit_from_record_take(circuit_t *out, cs_t *cs, cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    cs_counts_t k;
    cuzk_status st = record_check(&k, out, cs, err);
    if (st != CUZK_OK)
        return st;
    cs_record_owned_t rm[3];
    fr_t *dict;
    uint32_t n_dict;
    if ((st = cs_record_take(rm, &dict, &n_dict, cs, err)) != CUZK_OK)
        return st;
    uint32_t *map = malloc(((size_t)n_dict + 1) * sizeof *map);
    fr_t *d = realloc(dict, ((size_t)n_dict + 1) * sizeof *d); /* room for one */
    if (d)
        dict = d;
    if (!map || !d) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit_from_record: no memory");
    } else {
        /* the dictionary compacted over itself */
        uint32_t n = 0, one = dict_compact(dict, &n, map, dict, n_dict);
        out->dict = dict;
        out->n_dict = n;
        dict = NULL;
        out->n_rows = (uint32_t)(k.constraints + k.inputs);
        out->n_vars = (uint32_t)(k.inputs + k.aux);
        out->n_public = (uint32_t)(k.inputs - 1);
        for (int m = 0; m < 3 && st == CUZK_OK; m++)
            st = csr_take(&out->m[m], &rm[m], map, k.constraints, k.inputs, m == CIRCUIT_A, one,
                          err);
    }
    free(map);
    free(dict);
    for (int m = 0; m < 3; m++) {
        free(rm[m].row_ptr);
        free(rm[m].var);
        free(rm[m].coef);
    }
    if (st != CUZK_OK)
        circuit_free(out);
    return st;
}
