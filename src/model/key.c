/* The in-memory proving key (include/cuzk/key.h). */
#include "cuzk/key.h"

#include <stdlib.h>
#include <string.h>

void groth16_key_free(groth16_key_t *k)
{
    if (!k)
        return;
    groth16_vk_free(&k->vk);
    free(k->a);
    free(k->b_g1);
    free(k->b_g2);
    free(k->l);
    free(k->h);
    free(k->coefs);
    memset(k, 0, sizeof *k);
}

void groth16_key_pk(groth16_pk_t *pk, const groth16_key_t *k)
{
    memset(pk, 0, sizeof *pk);
    pk->conv = k->conv;
    pk->n_vars = k->n_vars;
    pk->n_public = k->n_public;
    pk->log_m = k->log_m;
    pk->alpha_g1 = k->vk.alpha_g1;
    pk->beta_g1 = k->vk.beta_g1;
    pk->delta_g1 = k->vk.delta_g1;
    pk->beta_g2 = k->vk.beta_g2;
    pk->delta_g2 = k->vk.delta_g2;
    pk->a = (groth16_query_t){{k->a, MSM_BASES_AFFINE}, k->n_a};
    pk->b_g1 = (groth16_query_t){{k->b_g1, MSM_BASES_AFFINE}, k->n_b};
    pk->b_g2 = (groth16_query_t){{k->b_g2, MSM_BASES_AFFINE}, k->n_b};
    pk->l = (groth16_query_t){{k->l, MSM_BASES_AFFINE}, k->n_l};
    pk->h = (groth16_query_t){{k->h, MSM_BASES_AFFINE}, k->n_h};
    pk->vk = k->vk;
}

cuzk_status groth16_setup_copy_coefs(groth16_key_t *k, const circuit_t *c)
{
    k->n_coefs = c->m[CIRCUIT_A].nnz + c->m[CIRCUIT_B].nnz;
    k->coefs = calloc(k->n_coefs ? k->n_coefs : 1, sizeof *k->coefs); /* padding zeroed */
    if (!k->coefs)
        return CUZK_ERR_NOMEM;
    size_t at = 0;
    for (int mi = CIRCUIT_A; mi <= CIRCUIT_B; mi++) {
        const circuit_csr_t *m = &c->m[mi];
        for (uint32_t r = 0; r < c->n_rows; r++)
            for (uint64_t e = m->row_ptr[r]; e < m->row_ptr[r + 1]; e++)
                k->coefs[at++] = (zkey_coef_t){(uint32_t)mi, r, m->col[e], c->dict[m->coef[e]]};
    }
    return CUZK_OK;
}
