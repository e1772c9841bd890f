/* The record back end: A, B and C as the gadgets enforce them, one CSR per
 * matrix over cs variables, coefficients as indices into a dictionary of the
 * distinct values (real circuits use few: 1, -1, powers of two), which is
 * the shape of circuit.h / .ccs. Zero coefficients are kept here, as
 * bellpepper keeps them; circuit_builder drops them when the circuit is
 * built (the matrices are the same). Conversion to circuit_t (column
 * numbering, the prover's one-per-input rows) belongs to the layer that
 * links the model (see cs_record_column in cs.h). */
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"

cuzk_status cs_record_init(cs_t *cs)
{
    cs->rows_cap = 1024;
    for (int m = 0; m < 3; m++) {
        cs->rec[m].row_ptr = calloc(cs->rows_cap + 1, sizeof(uint64_t));
        if (!cs->rec[m].row_ptr)
            return CUZK_ERR_NOMEM;
    }
    cs->dict_slots_n = 256;
    cs->dict_slots = calloc(cs->dict_slots_n, sizeof *cs->dict_slots);
    return cs->dict_slots ? CUZK_OK : CUZK_ERR_NOMEM;
}

void cs_record_free(cs_t *cs)
{
    for (int m = 0; m < 3; m++) {
        free(cs->rec[m].row_ptr);
        free(cs->rec[m].var);
        free(cs->rec[m].coef);
    }
    free(cs->dict);
    free(cs->dict_slots);
}

static uint32_t fr_hash(const fr_t *x)
{
    uint64_t h = x->l[0] * 0x9E3779B97F4A7C15ull ^ x->l[1] * 0xC2B2AE3D27D4EB4Full ^
                 x->l[2] * 0x165667B19E3779F9ull ^ x->l[3];
    return (uint32_t)(h ^ (h >> 32));
}

static int dict_rehash(cs_t *cs)
{
    uint32_t n = cs->dict_slots_n * 2;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return 0;
    for (uint32_t i = 0; i < cs->n_dict; i++) {
        uint32_t h = fr_hash(&cs->dict[i]) & (n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = i + 1;
    }
    free(cs->dict_slots);
    cs->dict_slots = s;
    cs->dict_slots_n = n;
    return 1;
}

/* The dictionary index of x, added when new; UINT32_MAX on failure. */
static uint32_t dict_index(cs_t *cs, const fr_t *x)
{
    uint32_t mask = cs->dict_slots_n - 1;
    uint32_t h = fr_hash(x) & mask;
    for (;;) {
        uint32_t s = cs->dict_slots[h];
        if (s == 0)
            break;
        const fr_t *d = &cs->dict[s - 1];
        if (d->l[0] == x->l[0] && d->l[1] == x->l[1] && d->l[2] == x->l[2] && d->l[3] == x->l[3])
            return s - 1;
        h = (h + 1) & mask;
    }
    if (cs->n_dict == cs->dict_cap) {
        uint32_t n = cs->dict_cap ? cs->dict_cap * 2 : 64;
        fr_t *d = realloc(cs->dict, (size_t)n * sizeof *d);
        if (!d)
            return UINT32_MAX;
        cs->dict = d;
        cs->dict_cap = n;
    }
    uint32_t idx = cs->n_dict++;
    cs->dict[idx] = *x;
    cs->dict_slots[h] = idx + 1;
    if (2 * cs->n_dict > cs->dict_slots_n && !dict_rehash(cs))
        return UINT32_MAX;
    return idx;
}

static int append(cs_t *cs, cs_rec_matrix_t *m, const cs_lc_t *lc)
{
    if (m->nnz + lc->n > m->cap) {
        uint64_t n = m->cap ? m->cap : 4096;
        while (n < m->nnz + lc->n)
            n *= 2;
        cs_var_t *v = realloc(m->var, n * sizeof *v);
        if (v)
            m->var = v;
        uint32_t *c = realloc(m->coef, n * sizeof *c);
        if (c)
            m->coef = c;
        if (!v || !c)
            return 0;
        m->cap = n;
    }
    for (uint32_t i = 0; i < lc->n; i++) {
        uint32_t k = dict_index(cs, &lc->terms[i].coeff);
        if (k == UINT32_MAX)
            return 0;
        m->var[m->nnz] = lc->terms[i].var;
        m->coef[m->nnz] = k;
        m->nnz++;
    }
    return 1;
}

void cs_record_row(cs_t *cs, const cs_lc_t *a, const cs_lc_t *b, const cs_lc_t *c)
{
    if (cs->err.code != CUZK_OK)
        return;
    if (cs->taken) {
        cs_fail(cs, CUZK_ERR_ARG, "a constraint after cs_record_take");
        return;
    }
    uint64_t row = cs->n_constraints - 1; /* cs_enforce counted it */
    if (row + 1 > cs->rows_cap) {
        uint64_t n = cs->rows_cap * 2;
        for (int m = 0; m < 3; m++) {
            uint64_t *p = realloc(cs->rec[m].row_ptr, (n + 1) * sizeof *p);
            if (!p) {
                cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory recording row %llu",
                        (unsigned long long)row);
                return;
            }
            cs->rec[m].row_ptr = p;
        }
        cs->rows_cap = n;
    }
    const cs_lc_t *lcs[3] = {a, b, c};
    for (int m = 0; m < 3; m++) {
        if (!append(cs, &cs->rec[m], lcs[m])) {
            cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory recording row %llu",
                    (unsigned long long)row);
            return;
        }
        cs->rec[m].row_ptr[row + 1] = cs->rec[m].nnz;
    }
}

cuzk_status cs_record_matrices(cs_record_matrix_t out[3], const fr_t **dict, uint32_t *n_dict,
                               const cs_t *cs, cuzk_error_t *err)
{
    if (cs->mode != CS_RECORD)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_record_matrices: not a CS_RECORD system");
    if (cs->err.code != CUZK_OK)
        return cs_status(cs, err);
    if (cs->taken)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_record_matrices: taken (cs_record_take)");
    for (int m = 0; m < 3; m++) {
        out[m].row_ptr = cs->rec[m].row_ptr;
        out[m].var = cs->rec[m].var;
        out[m].coef = cs->rec[m].coef;
        out[m].nnz = cs->rec[m].nnz;
    }
    *dict = cs->dict;
    *n_dict = cs->n_dict;
    return CUZK_OK;
}

cuzk_status cs_record_take(cs_record_owned_t out[3], fr_t **dict, uint32_t *n_dict, cs_t *cs,
                           cuzk_error_t *err)
{
    if (cs->mode != CS_RECORD)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_record_take: not a CS_RECORD system");
    if (cs->err.code != CUZK_OK)
        return cs_status(cs, err);
    if (cs->taken)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_record_take: already taken");
    for (int m = 0; m < 3; m++) {
        out[m].row_ptr = cs->rec[m].row_ptr;
        out[m].var = cs->rec[m].var;
        out[m].coef = cs->rec[m].coef;
        out[m].nnz = cs->rec[m].nnz;
        cs->rec[m].row_ptr = NULL;
        cs->rec[m].var = NULL;
        cs->rec[m].coef = NULL;
    }
    *dict = cs->dict;
    *n_dict = cs->n_dict;
    cs->dict = NULL;
    cs->taken = 1;
    return CUZK_OK;
}
