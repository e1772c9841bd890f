/* circom .r1cs and snarkjs .wtns writers (see include/cuzk/r1cs.h and
 * wtns.h for the layouts). Both stream: terms and values are encoded into
 * the write stream's scratch buffer a chunk at a time. */
#include "cuzk/r1cs.h"
#include "cuzk/wtns.h"

#include "write_stream.h"

#define R1CS_TERM_BYTES (4 + FR_BYTES)
#define R1CS_HEADER_BYTES (4 + FR_BYTES + 4 * 4 + 8 + 4)
#define WTNS_HEADER_BYTES (4 + FR_BYTES + 4)

static void put_prime(wstream_t *w)
{
    uint8_t b[FR_BYTES];
    for (int i = 0; i < FR_LIMBS; i++)
        for (int k = 0; k < 8; k++)
            b[8 * i + k] = (uint8_t)(FR_MODULUS[i] >> (8 * k));
    ws_u32le(w, FR_BYTES);
    ws_put(w, b, FR_BYTES);
}

static void put_section(wstream_t *w, uint32_t id, uint64_t size)
{
    ws_u32le(w, id);
    ws_u64le(w, size);
}

/* The terms of one row of m, through the scratch buffer (a row longer than
 * the buffer goes out in pieces). */
static void put_lc(wstream_t *w, const circuit_csr_t *m, uint32_t r, const uint8_t *dict_le)
{
    uint64_t lo = m->row_ptr[r], hi = m->row_ptr[r + 1];
    ws_u32le(w, (uint32_t)(hi - lo));
    size_t per = WS_SCRATCH_BYTES / R1CS_TERM_BYTES, k = 0;
    for (uint64_t t = lo; t < hi; t++) {
        uint8_t *o = w->scratch + k * R1CS_TERM_BYTES;
        uint32_t col = m->col[t];
        for (int b = 0; b < 4; b++)
            o[b] = (uint8_t)(col >> (8 * b));
        memcpy(o + 4, dict_le + (size_t)m->coef[t] * FR_BYTES, FR_BYTES);
        if (++k == per) {
            ws_put(w, w->scratch, k * R1CS_TERM_BYTES);
            k = 0;
        }
    }
    ws_put(w, w->scratch, k * R1CS_TERM_BYTES);
}

cuzk_status r1cs_write_circuit(const char *path, const circuit_t *c, uint32_t n_constraints,
                               cuzk_error_t *err)
{
    if (!path || !c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "r1cs_write_circuit: NULL argument");
    if (n_constraints > c->n_rows || (uint64_t)c->n_public + 1 > c->n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "r1cs_write_circuit: %u constraints of %u rows, %u public of %u "
                              "variables",
                              n_constraints, c->n_rows, c->n_public, c->n_vars);
    uint8_t *dict = malloc(c->n_dict ? (size_t)c->n_dict * FR_BYTES : 1);
    if (!dict)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for the dictionary", path);
    for (uint32_t i = 0; i < c->n_dict; i++)
        fr_to_le(dict + (size_t)i * FR_BYTES, &c->dict[i]);
    uint64_t terms = 0;
    for (int m = 0; m < 3; m++)
        terms += c->m[m].row_ptr[n_constraints];
    wstream_t w;
    cuzk_status st = ws_open(&w, path, err);
    if (st != CUZK_OK) {
        free(dict);
        return st;
    }
    ws_put(&w, "r1cs", 4);
    ws_u32le(&w, 1);
    ws_u32le(&w, 3);
    put_section(&w, 1, R1CS_HEADER_BYTES);
    put_prime(&w);
    ws_u32le(&w, c->n_vars);
    ws_u32le(&w, 0);
    ws_u32le(&w, c->n_public);
    ws_u32le(&w, 0);
    ws_u64le(&w, c->n_vars);
    ws_u32le(&w, n_constraints);
    put_section(&w, 2, (uint64_t)n_constraints * 12 + terms * R1CS_TERM_BYTES);
    for (uint32_t r = 0; r < n_constraints && !w.err_no; r++)
        for (int m = 0; m < 3; m++)
            put_lc(&w, &c->m[m], r, dict);
    put_section(&w, 3, (uint64_t)c->n_vars * 8);
    for (uint32_t i = 0; i < c->n_vars && !w.err_no; i++)
        ws_u64le(&w, i);
    free(dict);
    return ws_close(&w, err);
}

static void enc_fr(uint8_t *out, const void *in)
{
    fr_to_le(out, in);
}

cuzk_status wtns_write_file(const char *path, const fr_t *v, uint32_t n, cuzk_error_t *err)
{
    if (!path || (!v && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "wtns_write_file: NULL argument");
    wstream_t w;
    cuzk_status st = ws_open(&w, path, err);
    if (st != CUZK_OK)
        return st;
    ws_put(&w, "wtns", 4);
    ws_u32le(&w, 2);
    ws_u32le(&w, 2);
    put_section(&w, 1, WTNS_HEADER_BYTES);
    put_prime(&w);
    ws_u32le(&w, n);
    put_section(&w, 2, (uint64_t)n * FR_BYTES);
    ws_records(&w, v, sizeof *v, n, FR_BYTES, enc_fr);
    return ws_close(&w, err);
}
