/* Filecoin partitions to witnesses, and the circuit cache
 * (filecoin_prove.h). */
#include "cuzk/filecoin_prove.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuzk/ccs.h"
#include "cuzk/circuit_record.h"

void fil_partition_synth(cs_t *cs, const fil_partition_t *p)
{
    switch (p->kind) {
    case FIL_CIRCUIT_POREP: fil_cs_porep(cs, &p->porep.shape, &p->porep.pub, p->porep.ch); break;
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST:
        fil_cs_post(cs, &p->post.shape, p->post.sectors, p->post.n_sectors, p->post.sector_count);
        break;
    case FIL_CIRCUIT_SNAP_DEALS:
    case FIL_CIRCUIT_SNAP_DEALS_POSEIDON: fil_cs_update(cs, &p->update.shape, p->update.w); break;
    default: cs_fail(cs, CUZK_ERR_ARG, "unknown circuit kind %d", (int)p->kind); break;
    }
}

static cuzk_status partition_check(const fil_partition_t *p, cuzk_error_t *err)
{
    switch (p->kind) {
    case FIL_CIRCUIT_POREP:
        if (!p->porep.ch)
            return cuzk_error_set(err, CUZK_ERR_ARG, "porep partition: no challenges");
        return fil_porep_shape_check(&p->porep.shape, err);
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST:
        if (!p->post.sectors || p->post.n_sectors == 0 || p->post.n_sectors > p->post.sector_count)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "post partition: %u sectors for a circuit of %u (1 or more, "
                                  "at most the circuit's)",
                                  p->post.n_sectors, p->post.sector_count);
        return fil_post_shape_check(&p->post.shape, err);
    case FIL_CIRCUIT_SNAP_DEALS:
    case FIL_CIRCUIT_SNAP_DEALS_POSEIDON:
        if (!p->update.w)
            return cuzk_error_set(err, CUZK_ERR_ARG, "snap-deals partition: no witness");
        return CUZK_OK;
    default: return cuzk_error_set(err, CUZK_ERR_ARG, "unknown circuit kind %d", (int)p->kind);
    }
}

static fil_witness_opts_t opts_or_default(const fil_witness_opts_t *opts)
{
    fil_witness_opts_t o = {FIL_WITNESS_FAST, 1, 0, 0};
    if (opts)
        o = *opts;
    if (o.threads == 0)
        o.threads = 1;
    return o;
}

/* A witness cs of the mode o asks for, and its threads. */
static cuzk_status witness_cs(cs_t **cs, const fil_partition_t *p, const fil_witness_opts_t *o,
                              cuzk_error_t *err)
{
    *cs = NULL;
    cuzk_status st = partition_check(p, err);
    if (st == CUZK_OK)
        st = cs_new(cs, o->mode == FIL_WITNESS_CHECK ? CS_CHECK : CS_WITNESS, err);
    if (st == CUZK_OK)
        cs_set_threads(*cs, o->threads);
    return st;
}

/* The outcome of a synthesis: the first error, then a failed check naming
 * its row (a check's own error says it first). */
static cuzk_status synth_result(const cs_t *cs, const fil_partition_t *p, cuzk_error_t *err)
{
    cuzk_status st = cs_status(cs, err);
    if (st != CUZK_OK)
        return st;
    uint64_t row;
    char where[256];
    if (cs_unsatisfied(&row, where, sizeof where, cs))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "%s partition: constraint %llu (%s) is not satisfied: the "
                              "vanilla proof is not valid",
                              fil_circuit_kind_str(p->kind), (unsigned long long)row, where);
    return CUZK_OK;
}

/* p's witness written in place: inputs bound at in (n_public + 1 values),
 * aux at aux (n_vars > n_public); with bits (nz, full: packed bitmaps of
 * n_vars, fr_pack.h), aux values are classified there and only those
 * neither 0 nor 1 reach aux. *misfit: the partition's sizes are not the
 * buffer's (nothing was written past it: the bound cs refuses). */
static cuzk_status witness_bound(fr_t *in, fr_t *aux, uint64_t *nz, uint64_t *full, size_t n_vars,
                                 size_t n_public, const fil_partition_t *p,
                                 const fil_witness_opts_t *o, int *misfit, cuzk_error_t *err)
{
    *misfit = 0;
    const size_t n_aux = n_vars - 1 - n_public;
    cs_t *cs = NULL;
    cuzk_status st = witness_cs(&cs, p, o, err);
    if (st == CUZK_OK)
        st = cs_bind_values(cs, in, n_public + 1, aux, n_aux, err);
    if (st == CUZK_OK && nz)
        st = cs_bind_bits(cs, nz, full, n_public + 1, n_vars, err);
    if (st == CUZK_OK && cs_reserve(cs, n_aux, n_public + 1) != CUZK_OK) /* the densities */
        st = cs_status(cs, err);
    if (st == CUZK_OK) {
        fil_partition_synth(cs, p);
        cs_counts_t k;
        cs_counts(&k, cs); /* exact after an error too: the counts go on */
        if (k.inputs != n_public + 1 || k.aux != n_aux) {
            /* the sizes first; the cs's own error (the buffer's end, or
             * what made the sizes differ) after them */
            cuzk_error_t ce = {0};
            int more = cs_status(cs, &ce) != CUZK_OK;
            *misfit = 1;
            st = cuzk_error_set(err, CUZK_ERR_ARG,
                                "%s partition: %llu variables and %llu public inputs, the "
                                "buffer %zu and %zu (a vanilla proof of another size?)%s%s",
                                fil_circuit_kind_str(p->kind),
                                (unsigned long long)(k.inputs + k.aux),
                                (unsigned long long)(k.inputs - 1), n_vars, n_public,
                                more ? ": " : "", more ? ce.msg : "");
        } else {
            st = synth_result(cs, p, err);
        }
    }
    cs_free(cs);
    return st;
}

cuzk_status fil_partition_witness_into(fr_t *w, size_t n_vars, size_t n_public,
                                       const fil_partition_t *p, const fil_witness_opts_t *opts,
                                       cuzk_error_t *err)
{
    if (!w || n_public >= n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "%s witness: a buffer of %zu values%s cannot hold ONE and %zu "
                              "public inputs",
                              fil_circuit_kind_str(p->kind), n_vars, w ? "" : " (NULL)", n_public);
    fil_witness_opts_t o = opts_or_default(opts);
    int misfit;
    return witness_bound(w, w + 1 + n_public, NULL, NULL, n_vars, n_public, p, &o, &misfit, err);
}

int fil_circuit_packs_well(fil_circuit_kind kind)
{
    return kind == FIL_CIRCUIT_POREP || kind == FIL_CIRCUIT_SNAP_DEALS;
}

cuzk_status fil_partition_witness_pack(fr_pack_t *out, size_t n_vars, size_t n_public,
                                       const fil_partition_t *p, const fil_witness_opts_t *opts,
                                       cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!out || n_public >= n_vars || n_vars > FR_PACK_MAX_VALUES)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "%s packed witness: %zu values%s cannot hold ONE and %zu public "
                              "inputs (at most %zu values)",
                              fil_circuit_kind_str(p->kind), n_vars, out ? "" : " (no pack)",
                              n_public, FR_PACK_MAX_VALUES);
    fil_witness_opts_t o = opts_or_default(opts);
    const size_t n_aux = n_vars - 1 - n_public, words = fr_pack_words(n_vars);
    /* The aux values other than 0 and 1 land in a mapping as large as the
     * whole vector, never touched elsewhere: only their pages (a PoRep
     * partition's Poseidon runs, ~100 MB of 4.2 GB) become memory. */
    size_t span = n_aux ? n_aux * sizeof(fr_t) : 1;
    void *aux = mmap(NULL, span, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    fr_t *in = malloc((n_public + 1) * sizeof *in);
    void *block = calloc(1, fr_pack_vals_offset(n_vars));
    cuzk_status st = CUZK_OK;
    if (aux == MAP_FAILED || !in || !block)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "%s packed witness: no memory for %zu values",
                            fil_circuit_kind_str(p->kind), n_vars);
    int misfit;
    uint64_t *nz = block, *full = nz ? nz + words : NULL;
    if (st == CUZK_OK)
        st = witness_bound(in, aux, nz, full, n_vars, n_public, p, &o, &misfit, err);
    if (st == CUZK_OK) {
        /* ONE and the inputs, which the cs keeps whole */
        for (size_t i = 0; i <= n_public; i++) {
            const fr_t *v = &in[i];
            if (fr_is_zero(v))
                continue;
            nz[i / 64] |= 1ull << (i % 64);
            if (!fr_is_one(v))
                full[i / 64] |= 1ull << (i % 64);
        }
        st = fr_pack_finish(out, block, n_vars, in, n_public + 1, aux, o.threads, err);
        block = NULL; /* the pack's, or freed */
    }
    free(block);
    free(in);
    if (aux != MAP_FAILED)
        munmap(aux, span);
    return st;
}

/* Sizes not known: the cs grows its own vectors, then [ONE, inputs, aux]
 * is copied out of them. */
static cuzk_status witness_grown(fr_t **w, size_t *n_vars, size_t *n_inputs,
                                 const fil_partition_t *p, const fil_witness_opts_t *o,
                                 cuzk_error_t *err)
{
    cs_t *cs = NULL;
    cuzk_status st = witness_cs(&cs, p, o, err);
    if (st != CUZK_OK)
        return st;
    fil_partition_synth(cs, p);
    if ((st = synth_result(cs, p, err)) != CUZK_OK) {
        cs_free(cs);
        return st;
    }
    size_t ni = 0, na = 0;
    const fr_t *in = cs_input_values(cs, &ni);
    const fr_t *aux = cs_aux_values(cs, &na);
    fr_t *out = malloc((ni + na) * sizeof *out);
    if (!out) {
        cs_free(cs);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s witness: no memory for %zu values",
                              fil_circuit_kind_str(p->kind), ni + na);
    }
    memcpy(out, in, ni * sizeof *out);
    memcpy(out + ni, aux, na * sizeof *out);
    cs_free(cs);
    *w = out;
    *n_vars = ni + na;
    *n_inputs = ni - 1;
    return CUZK_OK;
}

cuzk_status fil_partition_witness(fr_t **w, size_t *n_vars, size_t *n_inputs,
                                  const fil_partition_t *p, const fil_witness_opts_t *opts,
                                  cuzk_error_t *err)
{
    *w = NULL;
    fil_witness_opts_t o = opts_or_default(opts);
    cuzk_status st = partition_check(p, err); /* before gigabytes are allocated */
    if (st != CUZK_OK)
        return st;
    if (o.n_public > 0 && o.n_vars > o.n_public && o.n_vars <= SIZE_MAX / sizeof(fr_t)) {
        fr_t *out = malloc((size_t)o.n_vars * sizeof *out);
        if (!out)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s witness: no memory for %llu values",
                                  fil_circuit_kind_str(p->kind), (unsigned long long)o.n_vars);
        int misfit = 0;
        st = witness_bound(out, out + 1 + o.n_public, NULL, NULL, (size_t)o.n_vars,
                           (size_t)o.n_public, p, &o, &misfit, err);
        if (st == CUZK_OK) {
            *w = out;
            *n_vars = (size_t)o.n_vars;
            *n_inputs = (size_t)o.n_public;
            return CUZK_OK;
        }
        free(out);
        if (!misfit)
            return st;
        /* The sizes given are not this partition's: make the witness it
         * has, as without them, so that the caller sees both sizes
         * (cmd_filecoin_prove.c prove_one names them). */
    }
    return witness_grown(w, n_vars, n_inputs, p, &o, err);
}

static cuzk_status record(circuit_t *out, fil_circuit_kind kind, uint64_t sector_size,
                          fil_api_version api, cuzk_error_t *err)
{
    cs_t *cs = NULL;
    cuzk_status st = cs_new(&cs, CS_RECORD, err);
    if (st != CUZK_OK)
        return st;
    st = fil_circuit_synth_blank(cs, kind, sector_size, api, err);
    if (st == CUZK_OK)
        st = circuit_from_record_take(out, cs, err);
    cs_free(cs);
    return st;
}

cuzk_status fil_circuit_load(circuit_t *out, fil_circuit_source *source, fil_circuit_kind kind,
                             uint64_t sector_size, fil_api_version api, const char *cache_path,
                             int threads, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    fil_circuit_source src = FIL_CIRCUIT_RECORDED;
    cuzk_status st;
    if (cache_path && access(cache_path, F_OK) == 0) {
        if (ccs_read_file(out, cache_path, threads, NULL) == CUZK_OK) {
            if (source)
                *source = FIL_CIRCUIT_CACHED;
            return CUZK_OK;
        }
        src = FIL_CIRCUIT_REBUILT; /* a damaged or stale cache is never trusted */
        circuit_free(out);
    }
    if ((st = record(out, kind, sector_size, api, err)) != CUZK_OK)
        return st;
    if (source)
        *source = src;
    if (!cache_path)
        return CUZK_OK;
    size_t len = strlen(cache_path) + 32;
    char *tmp = malloc(len);
    if (!tmp) {
        circuit_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit cache: no memory");
    }
    snprintf(tmp, len, "%s.tmp.%ld", cache_path, (long)getpid());
    st = ccs_write_file(tmp, out, err);
    if (st == CUZK_OK && rename(tmp, cache_path) != 0) {
        remove(tmp);
        st = cuzk_error_set(err, CUZK_ERR_IO, "circuit cache: cannot rename %s to %s", tmp,
                            cache_path);
    }
    free(tmp);
    if (st != CUZK_OK)
        circuit_free(out);
    return st;
}
