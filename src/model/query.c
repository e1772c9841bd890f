/* Which witness wires each query of a key takes (include/cuzk/pk.h). */
#include "cuzk/pk.h"

#include <stdlib.h>
#include <string.h>

const char *groth16_convention_str(int conv)
{
    return conv == GROTH16_SNARKJS      ? "snarkjs"
           : conv == GROTH16_BELLPERSON ? "bellperson"
                                        : "invalid";
}

/* Marks the columns that appear in matrix m (bellperson's density). */
static uint8_t *density(const circuit_t *c, circuit_matrix m)
{
    uint8_t *d = calloc(c->n_vars ? c->n_vars : 1, 1);
    if (!d)
        return NULL;
    for (uint64_t k = 0; k < c->m[m].nnz; k++)
        d[c->m[m].col[k]] = 1;
    return d;
}

/* The wires j < hi with j < all_below or dens[j], in order. */
static uint32_t *indices(size_t *n, const uint8_t *dens, uint32_t hi, uint32_t all_below)
{
    size_t cnt = 0;
    for (uint32_t j = 0; j < hi; j++)
        cnt += j < all_below || dens[j];
    uint32_t *idx = malloc((cnt ? cnt : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    size_t k = 0;
    for (uint32_t j = 0; j < hi; j++)
        if (j < all_below || dens[j])
            idx[k++] = j;
    *n = cnt;
    return idx;
}

cuzk_status groth16_query_indices(groth16_query_indices_t *q, const groth16_pk_t *pk,
                                  const circuit_t *c, cuzk_error_t *err)
{
    memset(q, 0, sizeof *q);
    uint32_t n_in = pk->n_public + 1; /* inputs, ONE included */
    q->n_l = pk->n_vars - n_in;
    if (pk->conv == GROTH16_SNARKJS) {
        q->n_a = q->n_b = pk->n_vars;
        return CUZK_OK;
    }
    uint8_t *da = density(c, CIRCUIT_A), *db = density(c, CIRCUIT_B);
    /* A: every input (the input rows use them all), then aux by density;
     * B: inputs and aux by density. */
    if (da && db && (q->a = indices(&q->n_a, da, pk->n_vars, n_in)) != NULL)
        q->b = indices(&q->n_b, db, pk->n_vars, 0);
    free(da);
    free(db);
    if (!q->b) {
        groth16_query_indices_free(q);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory indexing the MSM scalars");
    }
    return CUZK_OK;
}

void groth16_query_indices_free(groth16_query_indices_t *q)
{
    if (!q)
        return;
    free(q->a);
    free(q->b);
    memset(q, 0, sizeof *q);
}

cuzk_status groth16_query_check(const groth16_pk_t *pk, const groth16_query_indices_t *q,
                                cuzk_error_t *err)
{
    size_t m = (size_t)1 << pk->log_m;
    size_t want_h = pk->conv == GROTH16_SNARKJS ? m : m - 1;
    if (pk->a.n != q->n_a || pk->b_g1.n != q->n_b || pk->b_g2.n != q->n_b || pk->l.n != q->n_l ||
        pk->h.n != want_h)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "key does not match circuit: A %zu/%zu, B %zu,%zu/%zu, L %zu/%zu, "
                              "H %zu/%zu points/scalars",
                              pk->a.n, q->n_a, pk->b_g1.n, pk->b_g2.n, q->n_b, pk->l.n, q->n_l,
                              pk->h.n, want_h);
    return CUZK_OK;
}
