/* From files to prover inputs (see include/cuzk/key_load.h). */
#include "cuzk/key_load.h"

#include <stdlib.h>
#include <string.h>

cuzk_status circuit_from_r1cs(circuit_t *out, const r1cs_t *r, cuzk_error_t *err)
{
    uint64_t n_public = (uint64_t)r->n_pub_out + r->n_pub_in;
    uint64_t rows = (uint64_t)r->n_constraints + n_public + 1;
    if (n_public + 1 > r->n_wires || rows > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "r1cs: %llu public wires and %u wires do not make a circuit",
                              (unsigned long long)n_public, r->n_wires);
    circuit_builder_t *b = circuit_builder_new((uint32_t)rows, r->n_wires, (uint32_t)n_public);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs: out of memory");
    cuzk_status st = CUZK_OK;
    for (int m = 0; m < 3 && st == CUZK_OK; m++) {
        const r1cs_matrix_t *mx = &r->m[m];
        for (uint32_t row = 0; row < r->n_constraints && st == CUZK_OK; row++)
            for (uint64_t k = mx->row_ptr[row]; k < mx->row_ptr[row + 1] && st == CUZK_OK; k++)
                st = circuit_builder_add(b, (circuit_matrix)m, row, mx->col[k],
                                         &r->coef[mx->coef[k]], err);
    }
    for (uint32_t s = 0; s <= n_public && st == CUZK_OK; s++)
        st = circuit_builder_add(b, CIRCUIT_A, r->n_constraints + s, s, &FR_ONE, err);
    if (st != CUZK_OK) {
        circuit_builder_free(b);
        return st;
    }
    return circuit_builder_finish(out, b, err);
}

cuzk_status circuit_from_zkey(circuit_t *out, const zkey_t *z, cuzk_error_t *err)
{
    circuit_builder_t *b = circuit_builder_new(z->domain_size, z->n_vars, z->n_public);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey: out of memory");
    enum { CHUNK = 4096 };
    zkey_coef_t *buf = malloc(CHUNK * sizeof *buf);
    cuzk_status st = buf ? CUZK_OK : CUZK_ERR_NOMEM;
    for (uint64_t at = 0; at < z->n_coefs && st == CUZK_OK; at += CHUNK) {
        uint64_t n = z->n_coefs - at < CHUNK ? z->n_coefs - at : CHUNK;
        st = zkey_coefs_get(buf, z, at, n);
        for (uint64_t i = 0; i < n && st == CUZK_OK; i++)
            st = circuit_builder_add(b, buf[i].matrix == ZKEY_A ? CIRCUIT_A : CIRCUIT_B, buf[i].row,
                                     buf[i].wire, &buf[i].value, err);
    }
    free(buf);
    if (st != CUZK_OK) {
        circuit_builder_free(b);
        return cuzk_error_set(err, st, "zkey: section 4: %s", cuzk_status_str(st));
    }
    return circuit_builder_finish(out, b, err);
}

static cuzk_status vk_copy(groth16_vk_t *out, const groth16_vk_t *in)
{
    *out = *in;
    out->ic = malloc((in->n_ic ? in->n_ic : 1) * sizeof *out->ic);
    if (!out->ic)
        return CUZK_ERR_NOMEM;
    memcpy(out->ic, in->ic, in->n_ic * sizeof *out->ic);
    return CUZK_OK;
}

cuzk_status groth16_pk_from_zkey(groth16_pk_t *pk, const zkey_t *z, cuzk_error_t *err)
{
    memset(pk, 0, sizeof *pk);
    cuzk_status st = zkey_to_vk(&pk->vk, z, err);
    if (st != CUZK_OK)
        return st;
    pk->conv = GROTH16_SNARKJS;
    pk->n_vars = z->n_vars;
    pk->n_public = z->n_public;
    pk->log_m = z->log_domain;
    pk->alpha_g1 = z->alpha_g1;
    pk->beta_g1 = z->beta_g1;
    pk->delta_g1 = z->delta_g1;
    pk->beta_g2 = z->beta_g2;
    pk->delta_g2 = z->delta_g2;
    pk->a = (groth16_query_t){zkey_bases(&z->a), z->a.count};
    pk->b_g1 = (groth16_query_t){zkey_bases(&z->b1), z->b1.count};
    pk->b_g2 = (groth16_query_t){zkey_bases(&z->b2), z->b2.count};
    pk->l = (groth16_query_t){zkey_bases(&z->c), z->c.count};
    pk->h = (groth16_query_t){zkey_bases(&z->h), z->h.count};
    return CUZK_OK;
}

cuzk_status groth16_pk_from_params(groth16_pk_t *pk, const bellperson_params_t *p, uint32_t n_vars,
                                   cuzk_error_t *err)
{
    memset(pk, 0, sizeof *pk);
    uint64_t m = p->h.n + 1;
    if (p->vk.n_ic == 0 || (m & (m - 1)) != 0 || m < 2)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "params: %llu H points is not a power-of-two domain minus one",
                              (unsigned long long)p->h.n);
    if (p->vk.n_ic > n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG, "params: %zu inputs but the circuit has %u wires",
                              p->vk.n_ic, n_vars);
    if (vk_copy(&pk->vk, &p->vk) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "params: out of memory");
    unsigned log_m = 0;
    while (((uint64_t)1 << log_m) < m)
        log_m++;
    pk->conv = GROTH16_BELLPERSON;
    pk->n_vars = n_vars;
    pk->n_public = (uint32_t)(p->vk.n_ic - 1);
    pk->log_m = log_m;
    pk->alpha_g1 = p->vk.alpha_g1;
    pk->beta_g1 = p->vk.beta_g1;
    pk->delta_g1 = p->vk.delta_g1;
    pk->beta_g2 = p->vk.beta_g2;
    pk->delta_g2 = p->vk.delta_g2;
    pk->a = (groth16_query_t){{p->a.data, MSM_BASES_ZCASH}, p->a.n};
    pk->b_g1 = (groth16_query_t){{p->b_g1.data, MSM_BASES_ZCASH}, p->b_g1.n};
    pk->b_g2 = (groth16_query_t){{p->b_g2.data, MSM_BASES_ZCASH}, p->b_g2.n};
    pk->l = (groth16_query_t){{p->l.data, MSM_BASES_ZCASH}, p->l.n};
    pk->h = (groth16_query_t){{p->h.data, MSM_BASES_ZCASH}, p->h.n};
    return CUZK_OK;
}

void groth16_pk_release(groth16_pk_t *pk)
{
    groth16_vk_free(&pk->vk);
}
