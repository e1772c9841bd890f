/* bellperson .params and .vk writers (layouts in include/cuzk/bellperson.h;
 * Parameters::write: vk, then h, l, a, b_g1, b_g2). Streamed: the points go
 * out a chunk at a time, so a multi-GiB key never sits in memory twice. */
#include "cuzk/bellperson.h"
#include "cuzk/encode.h"
#include "cuzk/key_write.h"

#include "write_stream.h"

static void enc_g1(uint8_t *out, const void *p)
{
    g1_serialize(out, p);
}

static void enc_g2(uint8_t *out, const void *p)
{
    g2_serialize(out, p);
}

static void put_g1(wstream_t *w, const g1_affine_t *p)
{
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    g1_serialize(b, p);
    ws_put(w, b, sizeof b);
}

static void put_g2(wstream_t *w, const g2_affine_t *p)
{
    uint8_t b[G2_UNCOMPRESSED_BYTES];
    g2_serialize(b, p);
    ws_put(w, b, sizeof b);
}

static void put_vk(wstream_t *w, const groth16_vk_t *vk)
{
    put_g1(w, &vk->alpha_g1);
    put_g1(w, &vk->beta_g1);
    put_g2(w, &vk->beta_g2);
    put_g2(w, &vk->gamma_g2);
    put_g1(w, &vk->delta_g1);
    put_g2(w, &vk->delta_g2);
    ws_u32be(w, (uint32_t)vk->n_ic);
    ws_records(w, vk->ic, sizeof *vk->ic, vk->n_ic, G1_UNCOMPRESSED_BYTES, enc_g1);
}

static void put_g1_vec(wstream_t *w, const g1_affine_t *p, size_t n)
{
    ws_u32be(w, (uint32_t)n);
    ws_records(w, p, sizeof *p, n, G1_UNCOMPRESSED_BYTES, enc_g1);
}

cuzk_status bellperson_vk_write_file(const char *path, const groth16_vk_t *vk, cuzk_error_t *err)
{
    if (!path || !vk || (vk->n_ic && !vk->ic))
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_vk_write_file: NULL argument");
    if (vk->n_ic > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_vk_write_file: %zu IC points",
                              vk->n_ic);
    wstream_t w;
    cuzk_status st = ws_open(&w, path, err);
    if (st != CUZK_OK)
        return st;
    put_vk(&w, vk);
    return ws_close(&w, err);
}

cuzk_status bellperson_params_write_file(const char *path, const groth16_key_t *k,
                                         cuzk_error_t *err)
{
    if (!path || !k)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_params_write_file: NULL argument");
    if (k->conv != GROTH16_BELLPERSON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_params_write_file: a snarkjs key");
    size_t n[5] = {k->n_h, k->n_l, k->n_a, k->n_b, k->vk.n_ic};
    for (int i = 0; i < 5; i++)
        if (n[i] > UINT32_MAX)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "bellperson_params_write_file: a vector of %zu points", n[i]);
    wstream_t w;
    cuzk_status st = ws_open(&w, path, err);
    if (st != CUZK_OK)
        return st;
    put_vk(&w, &k->vk);
    put_g1_vec(&w, k->h, k->n_h);
    put_g1_vec(&w, k->l, k->n_l);
    put_g1_vec(&w, k->a, k->n_a);
    put_g1_vec(&w, k->b_g1, k->n_b);
    ws_u32be(&w, (uint32_t)k->n_b);
    ws_records(&w, k->b_g2, sizeof *k->b_g2, k->n_b, G2_UNCOMPRESSED_BYTES, enc_g2);
    return ws_close(&w, err);
}
