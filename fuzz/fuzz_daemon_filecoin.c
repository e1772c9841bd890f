/* libFuzzer harness: a journaled Filecoin job as a restart reads it back
 * (src/daemon/daemon.c resume_fil): input 0 the job's header
 * (dmn_fil_header_read), inputs 1..n its vanilla proofs, then the job
 * rebuilt from them (dmn_fil_new, dmn_fil_free). A journal file on disk can
 * be damaged, so every byte here is outside input.
 *
 * Input: byte 0 the journaled kind (low 3 bits: an engine_kind 0..5, or 6
 * and 7 for a kind out of range); byte 1 the header's length, then that
 * many header bytes (fewer when the input ends first); then the vanilla
 * proofs, each a 4-byte little-endian length and its bytes (the last one
 * cut short when the input ends), at most JOURNAL_INPUTS_MAX of them. Each
 * input gets its own allocation of its exact length, as journal_get gives
 * them, so that ASan sees a read past any one of them.
 *
 * As resume_one does, a kind out of range is refused before resume_fil,
 * and a kind in range that is not a Filecoin one never reaches it; here
 * dmn_fil_new must still refuse such a kind. Properties (anything else
 * traps):
 *  - dmn_fil_header_read fails with CUZK_ERR_FORMAT and a message, or
 *    succeeds and dmn_fil_header_write of what it read gives the header's
 *    bytes back exactly: every one of the 176 bytes is a field, and a
 *    field flagged absent must be zero, so the format has nothing to
 *    normalise;
 *  - dmn_fil_new fails with a message and *out NULL, or gives a job whose
 *    n_parts is the library job's partition count (at least one) and
 *    whose parts[i] are {x, i}; dmn_fil_free frees it (LSan checks).
 * dmn_fil_new reads no files and needs no daemon: the public values come
 * from the header and the vanilla proofs (fil_job_new); the keys are
 * loaded later, by the registry, and are not exercised here.
 *
 * Seeds (fuzz/corpus/daemon_filecoin/): tools/gen_fuzz_daemon_filecoin.py,
 * from the 2 KiB outputs of `cuzk filecoin gen-vanilla` of each kind. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/daemon/daemon_internal.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A copy of n bytes in an allocation of exactly n (one byte for n = 0, so
 * that NULL means out of memory). */
static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (c && n)
        memcpy(c, p, n);
    return c;
}

/* The vanilla proofs after the header: *n of them in v (each owned). */
static void split_vanilla(daemon_blob_t *v, size_t *n, size_t cap, const uint8_t *p, size_t len)
{
    *n = 0;
    while (len && *n < cap) {
        size_t want = 0;
        for (unsigned k = 0; k < 4 && k < len; k++)
            want |= (size_t)p[k] << (8 * k);
        size_t skip = len < 4 ? len : 4;
        p += skip;
        len -= skip;
        size_t take = want < len ? want : len;
        uint8_t *b = dup_exact(p, take);
        if (!b)
            return;
        v[(*n)++] = (daemon_blob_t){b, take};
        p += take;
        len -= take;
    }
}

static void check_job(const dmn_fil_t *x)
{
    CHECK(x->job && x->n_parts >= 1 && x->n_parts == fil_job_partitions(x->job) && x->parts);
    for (unsigned i = 0; i < x->n_parts; i++)
        CHECK(x->parts[i].fil == x && x->parts[i].index == i);
}

/* resume_fil from its header onwards. */
static void resume(engine_kind kind, const uint8_t *h, size_t hlen, daemon_blob_t *v, size_t n)
{
    daemon_filecoin_t f;
    cuzk_error_t err = {0};
    if (dmn_fil_header_read(&f, h, hlen, &err) != CUZK_OK) {
        CHECK(err.code == CUZK_ERR_FORMAT && err.msg[0]);
        return;
    }
    uint8_t back[DMN_FIL_HEADER_BYTES];
    dmn_fil_header_write(back, &f);
    CHECK(hlen == DMN_FIL_HEADER_BYTES && memcmp(back, h, DMN_FIL_HEADER_BYTES) == 0);
    f.vanilla = v;
    f.n_vanilla = n;
    dmn_fil_t *x = (dmn_fil_t *)1;
    cuzk_status st = dmn_fil_new(&x, kind, &f, &err);
    if (st != CUZK_OK) {
        CHECK(!x && err.code == st && err.msg[0]);
        return;
    }
    CHECK(x && dmn_is_filecoin(kind));
    check_job(x);
    dmn_fil_free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int k = data[0] & 7;
    if (k >= ENGINE_KIND_COUNT)
        return 0; /* resume_one: "kind or priority out of range" */
    engine_kind kind = (engine_kind)k;
    size_t hlen = data[1] < size - 2 ? data[1] : size - 2;
    size_t rest = size - 2 - hlen;
    /* each proof takes at least one byte of the input */
    size_t cap = rest < JOURNAL_INPUTS_MAX ? rest : JOURNAL_INPUTS_MAX;
    uint8_t *h = dup_exact(data + 2, hlen);
    daemon_blob_t *v = calloc(cap + 1, sizeof *v);
    size_t n = 0;
    if (h && v)
        split_vanilla(v, &n, cap, data + 2 + hlen, rest);
    if (!h || !v) {
        /* no memory: nothing to check */
    } else if (!dmn_is_filecoin(kind)) {
        /* Never journaled as a Filecoin job; dmn_fil_new must say so. */
        daemon_filecoin_t f = {.vanilla = v, .n_vanilla = n};
        dmn_fil_t *x = (dmn_fil_t *)1;
        cuzk_error_t err = {0};
        CHECK(dmn_fil_new(&x, kind, &f, &err) == CUZK_ERR_ARG && !x && err.msg[0]);
    } else if (n >= 1) { /* resume_fil: a header and at least one proof */
        resume(kind, h, hlen, v, n);
    }
    for (size_t i = 0; v && i < n; i++)
        free((void *)v[i].data);
    free(v);
    free(h);
    return 0;
}
