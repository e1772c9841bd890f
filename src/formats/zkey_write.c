/* The snarkjs Groth16 .zkey writer (see include/cuzk/setup.h and zkey.h for
 * the layout). Sections are written in id order 1..10, each with its size
 * computed up front, so the file streams out in one pass. */
#include "cuzk/encode.h"
#include "cuzk/fp.h"
#include "cuzk/key_write.h"
#include "cuzk/zkey.h"

#include "write_stream.h"

#define SEC_HEADER_BYTES (4 + FP_BYTES + 4 + FR_BYTES + 3 * 4 + 3 * G1_LEM_BYTES + 3 * G2_LEM_BYTES)
#define CS_HASH_BYTES 64 /* blake2b-512 of the circuit in snarkjs; zero here */
#define N_SECTIONS 10

static void enc_g1(uint8_t *out, const void *p)
{
    g1_to_lem(out, p);
}

static void enc_g2(uint8_t *out, const void *p)
{
    g2_to_lem(out, p);
}

/* The value v of a coefficient as snarkjs stores it: v R^2 mod r, plain
 * little-endian (R = 2^256). snarkjs multiplies it by a plain witness value
 * w with one Montgomery multiplication, giving v w R: Montgomery form. With
 * rr the element whose plain value is R, v rr rr has plain value v R^2. */
static void enc_coef(uint8_t *out, const void *p)
{
    const zkey_coef_t *c = p;
    fr_t rr, t;
    /* FR_ONE's Montgomery limbs are R mod r, canonical: rr = R. */
    (void)fr_from_limbs(&rr, FR_ONE.l);
    fr_mul(&t, &c->value, &rr);
    fr_mul(&t, &t, &rr);
    uint32_t h[3] = {c->matrix, c->row, c->wire};
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 4; b++)
            out[4 * i + b] = (uint8_t)(h[i] >> (8 * b));
    fr_to_le(out + 12, &t);
}

static void put_modulus(wstream_t *w, const uint64_t *limbs, size_t n_limbs)
{
    uint8_t b[FP_BYTES];
    for (size_t i = 0; i < n_limbs; i++)
        for (int k = 0; k < 8; k++)
            b[8 * i + k] = (uint8_t)(limbs[i] >> (8 * k));
    ws_u32le(w, (uint32_t)(8 * n_limbs));
    ws_put(w, b, 8 * n_limbs);
}

static void put_section(wstream_t *w, uint32_t id, uint64_t size)
{
    ws_u32le(w, id);
    ws_u64le(w, size);
}

static void put_header(wstream_t *w, const groth16_key_t *k)
{
    uint8_t b[G2_LEM_BYTES];
    put_modulus(w, FP_MODULUS, FP_LIMBS);
    put_modulus(w, FR_MODULUS, FR_LIMBS);
    ws_u32le(w, k->n_vars);
    ws_u32le(w, k->n_public);
    ws_u32le(w, (uint32_t)1 << k->log_m);
    g1_to_lem(b, &k->vk.alpha_g1);
    ws_put(w, b, G1_LEM_BYTES);
    g1_to_lem(b, &k->vk.beta_g1);
    ws_put(w, b, G1_LEM_BYTES);
    g2_to_lem(b, &k->vk.beta_g2);
    ws_put(w, b, G2_LEM_BYTES);
    g2_to_lem(b, &k->vk.gamma_g2);
    ws_put(w, b, G2_LEM_BYTES);
    g1_to_lem(b, &k->vk.delta_g1);
    ws_put(w, b, G1_LEM_BYTES);
    g2_to_lem(b, &k->vk.delta_g2);
    ws_put(w, b, G2_LEM_BYTES);
}

static cuzk_status check_key(const groth16_key_t *k, cuzk_error_t *err)
{
    if (k->conv != GROTH16_SNARKJS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_write_file: a bellperson key");
    size_t m = (size_t)1 << k->log_m, n_in = (size_t)k->n_public + 1;
    if (k->log_m > 31 || k->n_a != k->n_vars || k->n_b != k->n_vars || k->n_h != m ||
        k->n_l + n_in != k->n_vars || k->vk.n_ic != n_in || (k->n_coefs && !k->coefs) ||
        k->n_coefs > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_write_file: inconsistent key");
    return CUZK_OK;
}

cuzk_status zkey_write_file(const char *path, const groth16_key_t *k, cuzk_error_t *err)
{
    if (!path || !k)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_write_file: NULL argument");
    cuzk_status st = check_key(k, err);
    if (st != CUZK_OK)
        return st;
    wstream_t w;
    if ((st = ws_open(&w, path, err)) != CUZK_OK)
        return st;
    uint64_t nv = k->n_vars;
    ws_put(&w, "zkey", 4);
    ws_u32le(&w, 1);
    ws_u32le(&w, N_SECTIONS);
    put_section(&w, 1, 4);
    ws_u32le(&w, 1); /* Groth16 */
    put_section(&w, 2, SEC_HEADER_BYTES);
    put_header(&w, k);
    put_section(&w, 3, k->vk.n_ic * G1_LEM_BYTES);
    ws_records(&w, k->vk.ic, sizeof *k->vk.ic, k->vk.n_ic, G1_LEM_BYTES, enc_g1);
    put_section(&w, 4, 4 + (uint64_t)k->n_coefs * ZKEY_COEF_BYTES);
    ws_u32le(&w, (uint32_t)k->n_coefs);
    ws_records(&w, k->coefs, sizeof *k->coefs, k->n_coefs, ZKEY_COEF_BYTES, enc_coef);
    put_section(&w, 5, nv * G1_LEM_BYTES);
    ws_records(&w, k->a, sizeof *k->a, k->n_a, G1_LEM_BYTES, enc_g1);
    put_section(&w, 6, nv * G1_LEM_BYTES);
    ws_records(&w, k->b_g1, sizeof *k->b_g1, k->n_b, G1_LEM_BYTES, enc_g1);
    put_section(&w, 7, nv * G2_LEM_BYTES);
    ws_records(&w, k->b_g2, sizeof *k->b_g2, k->n_b, G2_LEM_BYTES, enc_g2);
    put_section(&w, 8, (uint64_t)k->n_l * G1_LEM_BYTES);
    ws_records(&w, k->l, sizeof *k->l, k->n_l, G1_LEM_BYTES, enc_g1);
    put_section(&w, 9, (uint64_t)k->n_h * G1_LEM_BYTES);
    ws_records(&w, k->h, sizeof *k->h, k->n_h, G1_LEM_BYTES, enc_g1);
    /* snarkjs's mpc parameters: circuit hash, then zero contributions */
    static const uint8_t zero_hash[CS_HASH_BYTES];
    put_section(&w, 10, CS_HASH_BYTES + 4);
    ws_put(&w, zero_hash, CS_HASH_BYTES);
    ws_u32le(&w, 0);
    return ws_close(&w, err);
}
