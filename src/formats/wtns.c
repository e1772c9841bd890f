/* snarkjs .wtns reader (see include/cuzk/wtns.h). */
#include "cuzk/wtns.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "formats/binfile.h"
#include "util/bigmem.h"

#define WTNS_VERSION 2
#define WTNS_SEC_HEADER 1
#define WTNS_SEC_VALUES 2
#define WTNS_HEADER_BYTES (4 + FR_BYTES + 4)

void wtns_free(wtns_t *w)
{
    if (!w)
        return;
    bigmem_free(w->w, (w->n ? w->n : 1) * sizeof *w->w);
    memset(w, 0, sizeof *w);
}

typedef struct conv_ctx {
    fr_t *out;
    const uint8_t *in;
    _Atomic int64_t first_bad; /* INT64_MAX: none */
} conv_ctx_t;

static void conv_chunk(void *vctx, size_t begin, size_t end)
{
    conv_ctx_t *c = vctx;
    for (size_t i = begin; i < end; i++) {
        if (fr_from_le(&c->out[i], c->in + i * FR_BYTES) != CUZK_OK) {
            int64_t cur = atomic_load(&c->first_bad);
            while ((int64_t)i < cur &&
                   !atomic_compare_exchange_weak(&c->first_bad, &cur, (int64_t)i))
                ;
            return; /* later ones in this chunk cannot be the first */
        }
    }
}

static cuzk_status parse_header(uint32_t *n, const binfile_t *bf, cuzk_error_t *err)
{
    const uint8_t *h;
    cuzk_status st = binfile_fr_header(&h, bf, WTNS_SEC_HEADER, WTNS_HEADER_BYTES, "", err);
    if (st != CUZK_OK)
        return st;
    *n = binfile_u32(h + 4 + FR_BYTES);
    return CUZK_OK;
}

/* into: the caller's buffer of cap values (NULL: allocate out->w). */
static cuzk_status parse(wtns_t *out, fr_t *into, size_t cap, const binfile_t *bf, int threads,
                         cuzk_error_t *err)
{
    if (bf->version != WTNS_VERSION)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: wtns version %u, expected %d",
                              bf->name, bf->version, WTNS_VERSION);
    uint32_t n = 0;
    cuzk_status st = parse_header(&n, bf, err);
    if (st != CUZK_OK)
        return st;
    const uint8_t *v;
    uint64_t size;
    st = binfile_section(bf, WTNS_SEC_VALUES, "values", BINFILE_REQUIRED, &v, &size, err);
    if (st != CUZK_OK)
        return st;
    if (size != (uint64_t)n * FR_BYTES)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: values section is %llu bytes, expected %llu for nWitness = %u",
                              bf->name, (unsigned long long)size, (unsigned long long)n * FR_BYTES,
                              n);
    if (into && n > cap)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %u witness values, more than the %zu expected", bf->name, n,
                              cap);
    out->w = into ? into : bigmem_alloc((n ? n : 1) * sizeof *out->w);
    if (!out->w)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %u witness values", bf->name,
                              n);
    out->n = n;
    conv_ctx_t c = {out->w, v, INT64_MAX};
    if (parallel_for(n, 1 << 16, threads, conv_chunk, &c) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for threads", bf->name);
    int64_t bad = atomic_load(&c.first_bad);
    if (bad != INT64_MAX)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "%s: witness value %lld is not below r",
                              bf->name, (long long)bad);
    return CUZK_OK;
}

static cuzk_status read_bf(wtns_t *out, binfile_t *bf, cuzk_status st, int threads,
                           cuzk_error_t *err)
{
    if (st == CUZK_OK)
        st = parse(out, NULL, 0, bf, threads, err);
    binfile_close(bf);
    if (st != CUZK_OK)
        wtns_free(out);
    return st;
}

cuzk_status wtns_read_mem_into(fr_t *dst, size_t cap, uint32_t *n_out, const uint8_t *data,
                               size_t size, const char *name, int threads, cuzk_error_t *err)
{
    if (n_out)
        *n_out = 0;
    if (!dst || !n_out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "wtns_read_mem_into: NULL buffer or count");
    wtns_t w;
    memset(&w, 0, sizeof w);
    binfile_t bf;
    cuzk_status st = binfile_open_mem(&bf, data, size, name, "wtns", err);
    if (st == CUZK_OK)
        st = parse(&w, dst, cap, &bf, threads, err);
    binfile_close(&bf);
    if (st == CUZK_OK)
        *n_out = w.n;
    return st; /* dst stays the caller's either way */
}

cuzk_status wtns_read(wtns_t *out, const char *path, int threads, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "wtns_read: NULL output");
    memset(out, 0, sizeof *out);
    binfile_t bf;
    return read_bf(out, &bf, binfile_open(&bf, path, "wtns", err), threads, err);
}

cuzk_status wtns_read_mem(wtns_t *out, const uint8_t *data, size_t size, const char *name,
                          int threads, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "wtns_read_mem: NULL output");
    memset(out, 0, sizeof *out);
    binfile_t bf;
    return read_bf(out, &bf, binfile_open_mem(&bf, data, size, name, "wtns", err), threads, err);
}
