/* bellperson proof bytes and public inputs, and fil-blst's .prf test files
 * (see include/cuzk/bellperson.h and ../shared/testdata/filecoin/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/encode.h"

#include "bellperson_internal.h"

#define PROOF_B_OFF G1_COMPRESSED_BYTES
#define PROOF_C_OFF (G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES)

/* Decodes proof k (only named in messages when k >= 0). */
static cuzk_status proof_read(groth16_proof_t *out, const uint8_t *in, long long k,
                              cuzk_error_t *err)
{
    char name[32] = "proof";
    if (k >= 0)
        snprintf(name, sizeof name, "proof %lld", k);
    cuzk_error_t e = {CUZK_OK, ""};
    groth16_proof_t p;
    cuzk_status st;
    if ((st = g1_decompress(&p.a, in, POINT_CHECK_SUBGROUP, &e)) != CUZK_OK)
        return cuzk_error_set(err, st, "%s, A: %s", name, e.msg);
    if ((st = g2_decompress(&p.b, in + PROOF_B_OFF, POINT_CHECK_SUBGROUP, &e)) != CUZK_OK)
        return cuzk_error_set(err, st, "%s, B: %s", name, e.msg);
    if ((st = g1_decompress(&p.c, in + PROOF_C_OFF, POINT_CHECK_SUBGROUP, &e)) != CUZK_OK)
        return cuzk_error_set(err, st, "%s, C: %s", name, e.msg);
    /* As bellman's Proof::read: a valid proof has no point at infinity. */
    const char *inf = g1_affine_is_inf(&p.a) ? "A" : g2_affine_is_inf(&p.b) ? "B" : NULL;
    if (!inf && g1_affine_is_inf(&p.c))
        inf = "C";
    if (inf)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: %s is the point at infinity", name, inf);
    *out = p;
    return CUZK_OK;
}

cuzk_status bellperson_proof_read(groth16_proof_t *out, const uint8_t in[BELLPERSON_PROOF_BYTES],
                                  cuzk_error_t *err)
{
    if (!out || !in)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_proof_read: NULL argument");
    return proof_read(out, in, -1, err);
}

void bellperson_proof_write(uint8_t out[BELLPERSON_PROOF_BYTES], const groth16_proof_t *p)
{
    g1_compress(out, &p->a);
    g2_compress(out + PROOF_B_OFF, &p->b);
    g1_compress(out + PROOF_C_OFF, &p->c);
}

cuzk_status bellperson_proofs_read(groth16_proof_t *out, size_t k, const uint8_t *in, size_t len,
                                   cuzk_error_t *err)
{
    if ((!out && k) || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_proofs_read: NULL argument");
    if (k > SIZE_MAX / BELLPERSON_PROOF_BYTES || len != k * BELLPERSON_PROOF_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "proofs: %zu bytes for %zu proofs (%d bytes each)", len, k,
                              BELLPERSON_PROOF_BYTES);
    for (size_t i = 0; i < k; i++) {
        cuzk_status st = proof_read(&out[i], in + i * BELLPERSON_PROOF_BYTES, (long long)i, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

void bellperson_proofs_write(uint8_t *out, const groth16_proof_t *p, size_t k)
{
    for (size_t i = 0; i < k; i++)
        bellperson_proof_write(out + i * BELLPERSON_PROOF_BYTES, &p[i]);
}

cuzk_status bellperson_inputs_read(fr_t *out, const uint8_t *in, size_t n, cuzk_error_t *err)
{
    if (n && (!out || !in))
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_inputs_read: NULL argument");
    for (size_t i = 0; i < n; i++) {
        uint8_t b[FR_BYTES];
        memcpy(b, in + i * BELLPERSON_INPUT_BYTES, FR_BYTES);
        if (fr_from_be(&out[i], b) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "input %zu: not below r", i);
    }
    return CUZK_OK;
}

void bellperson_inputs_write(uint8_t *out, const fr_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fr_to_be(out + i * BELLPERSON_INPUT_BYTES, &in[i]);
}

/* ---- fil-blst .prf ---- */

static uint64_t be64_read(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

/* Allocates room for n_proofs proofs with n_inputs inputs each, the sizes
 * already checked against the file length (so the products fit). */
static cuzk_status prf_alloc(bellperson_prf_t *p, uint64_t n_proofs, uint64_t n_inputs,
                             cuzk_error_t *err)
{
    size_t n_all = (size_t)(n_proofs * n_inputs);
    p->proofs = malloc((size_t)n_proofs * sizeof *p->proofs);
    p->inputs = malloc(n_all ? n_all * sizeof *p->inputs : 1); /* never malloc(0) */
    if (!p->proofs || !p->inputs)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "prf: no memory for %llu proofs",
                              (unsigned long long)n_proofs);
    p->n_proofs = (size_t)n_proofs;
    p->n_inputs = (size_t)n_inputs;
    return CUZK_OK;
}

/* Reads one proof and its inputs (192 + 32 n_inputs bytes at b). */
static cuzk_status prf_entry(bellperson_prf_t *p, size_t j, const uint8_t *proof,
                             const uint8_t *inputs, cuzk_error_t *err)
{
    cuzk_status st = proof_read(&p->proofs[j], proof, (long long)j, err);
    if (st != CUZK_OK)
        return st;
    cuzk_error_t e = {CUZK_OK, ""};
    st = bellperson_inputs_read(p->inputs + j * p->n_inputs, inputs, p->n_inputs, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "prf proof %zu, %s", j, e.msg);
    return CUZK_OK;
}

static cuzk_status prf_single(bellperson_prf_t *p, const uint8_t *buf, size_t len,
                              cuzk_error_t *err)
{
    if (len < BELLPERSON_PROOF_BYTES + 8)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "prf: %zu bytes, too short for a proof", len);
    uint64_t n_inputs = be64_read(buf + BELLPERSON_PROOF_BYTES);
    size_t off = BELLPERSON_PROOF_BYTES + 8;
    if (n_inputs > (len - off) / BELLPERSON_INPUT_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "prf: %llu inputs do not fit %zu bytes",
                              (unsigned long long)n_inputs, len - off);
    cuzk_status st = prf_alloc(p, 1, n_inputs, err);
    if (st != CUZK_OK)
        return st;
    if ((st = prf_entry(p, 0, buf, buf + off, err)) != CUZK_OK)
        return st;
    off += (size_t)n_inputs * BELLPERSON_INPUT_BYTES;
    cuzk_error_t e = {CUZK_OK, ""};
    if ((st = bellperson_vk_parse(&p->vk, NULL, buf + off, len - off, &e)) != CUZK_OK)
        return cuzk_error_set(err, st, "prf: %s", e.msg);
    return CUZK_OK;
}

static cuzk_status prf_batch(bellperson_prf_t *p, const uint8_t *buf, size_t len, cuzk_error_t *err)
{
    if (len < 16)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "prf: %zu bytes, too short for a header", len);
    uint64_t n_proofs = be64_read(buf), n_inputs = be64_read(buf + 8);
    size_t off = 16, vk_len;
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = bellperson_vk_parse(&p->vk, &vk_len, buf + off, len - off, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "prf: %s", e.msg);
    off += vk_len;
    size_t left = len - off;
    /* Each entry is 192 + 32 n_inputs bytes; check without overflow. */
    if (n_inputs > (left / BELLPERSON_INPUT_BYTES))
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "prf: %llu inputs per proof do not fit",
                              (unsigned long long)n_inputs);
    uint64_t entry = BELLPERSON_PROOF_BYTES + n_inputs * BELLPERSON_INPUT_BYTES;
    if (n_proofs == 0 || n_proofs > left / entry || n_proofs * entry != left)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "prf: %llu proofs of %llu bytes each do not fill the %zu bytes "
                              "after the key",
                              (unsigned long long)n_proofs, (unsigned long long)entry, left);
    if ((st = prf_alloc(p, n_proofs, n_inputs, err)) != CUZK_OK)
        return st;
    for (size_t j = 0; j < p->n_proofs; j++) {
        const uint8_t *b = buf + off + j * entry;
        if ((st = prf_entry(p, j, b, b + BELLPERSON_PROOF_BYTES, err)) != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status bellperson_prf_parse(bellperson_prf_t *out, bellperson_prf_layout layout,
                                 const uint8_t *buf, size_t len, cuzk_error_t *err)
{
    if (!out || (!buf && len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_prf_parse: NULL argument");
    memset(out, 0, sizeof *out);
    bellperson_prf_t p;
    memset(&p, 0, sizeof p);
    cuzk_status st;
    if (layout == BELLPERSON_PRF_AUTO && len > 0)
        layout = (buf[0] & 0x80) ? BELLPERSON_PRF_SINGLE : BELLPERSON_PRF_BATCH;
    if (layout == BELLPERSON_PRF_AUTO)
        st = cuzk_error_set(err, CUZK_ERR_LENGTH, "prf: empty file");
    else if (layout == BELLPERSON_PRF_SINGLE)
        st = prf_single(&p, buf, len, err);
    else if (layout == BELLPERSON_PRF_BATCH)
        st = prf_batch(&p, buf, len, err);
    else
        st = cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_prf_parse: bad layout %d", (int)layout);
    if (st != CUZK_OK) {
        bellperson_prf_free(&p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status bellperson_prf_load(bellperson_prf_t *out, bellperson_prf_layout layout,
                                const char *path, cuzk_error_t *err)
{
    if (!out || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_prf_load: NULL argument");
    memset(out, 0, sizeof *out);
    void *map;
    size_t len;
    cuzk_status st = bellperson_file_map(&map, &len, path, err);
    if (st != CUZK_OK)
        return st;
    cuzk_error_t e = {CUZK_OK, ""};
    st = bellperson_prf_parse(out, layout, map, len, &e);
    bellperson_file_unmap(map, len);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "%s: %s", path, e.msg);
    return CUZK_OK;
}

void bellperson_prf_free(bellperson_prf_t *p)
{
    if (!p)
        return;
    groth16_vk_free(&p->vk);
    free(p->proofs);
    free(p->inputs);
    memset(p, 0, sizeof *p);
}
