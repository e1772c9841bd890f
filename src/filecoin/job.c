/* A Filecoin proving job (filecoin_job.h): the kind-independent half.
 * fil_job_new copies the public values, lets the kind's loader parse the
 * vanilla proofs and complete them, checks them, and derives every
 * partition's inputs once, so that the read functions only copy. */
#include "cuzk/filecoin_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "job_internal.h"

cuzk_status fil_job_prefixed(cuzk_error_t *err, cuzk_status st, const char *prefix)
{
    if (err) {
        char m[CUZK_ERRMSG_MAX];
        memcpy(m, err->msg, sizeof m);
        m[sizeof m - 1] = 0;
        cuzk_error_set(err, st, "%s: %s", prefix, m);
    }
    return st;
}

const char *fil_job_name(const fil_job_t *j, size_t i)
{
    return i < j->n_vanilla && j->names && j->names[i] ? j->names[i] : "vanilla proof";
}

static cuzk_status copy_names(fil_job_t *j, const char *const *names, size_t n, cuzk_error_t *err)
{
    j->names = calloc(n, sizeof *j->names);
    if (!j->names)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_job_new: no memory");
    j->n_vanilla = n;
    for (size_t i = 0; i < n; i++) {
        char num[48];
        const char *s = names && names[i] ? names[i] : num;
        snprintf(num, sizeof num, "vanilla proof %zu", i);
        if (!(j->names[i] = strdup(s)))
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_job_new: no memory");
    }
    return CUZK_OK;
}

static cuzk_status copy_public(fil_job_t *j, const fil_public_t *pub, cuzk_error_t *err)
{
    j->pub = *pub;
    j->pub.sectors = NULL;
    j->pub.n_sectors = 0;
    if (!(pub->have & FIL_PUB_SECTORS) || pub->n_sectors == 0)
        return CUZK_OK;
    if (!pub->sectors)
        return cuzk_error_set(err, CUZK_ERR_ARG, "public values: \"sectors\" is NULL");
    j->pub.sectors = malloc(pub->n_sectors * sizeof *pub->sectors);
    if (!j->pub.sectors)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_job_new: no memory for %zu sectors",
                              pub->n_sectors);
    memcpy(j->pub.sectors, pub->sectors, pub->n_sectors * sizeof *pub->sectors);
    j->pub.n_sectors = pub->n_sectors;
    return CUZK_OK;
}

/* Inputs per partition, by the kind's shape (filecoin_inputs.h). */
static size_t inputs_per_partition(const fil_job_t *j)
{
    switch (j->pub.kind) {
    case FIL_CIRCUIT_POREP: {
        const fil_seal_info_t *info = fil_seal_info(j->pub.seal);
        return info ? FIL_POREP_INPUTS_HEADER +
                          (size_t)FIL_POREP_INPUTS_PER_CHALLENGE * info->challenges_per_partition
                    : 0;
    }
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST: return (size_t)j->pp.sector_count * (1 + j->pp.challenge_count);
    default: return 4; /* SnapDeals: filecoin_update.h fil_update_public_inputs */
    }
}

/* Every partition's inputs from the public values alone. */
static cuzk_status derive_inputs(fil_job_t *j, cuzk_error_t *err)
{
    j->partitions = fil_public_partitions(&j->pub);
    j->n_inputs = inputs_per_partition(j);
    if (j->partitions == 0 || j->n_inputs == 0)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "fil_job_new: %u partitions of %zu inputs",
                              j->partitions, j->n_inputs);
    j->inputs = malloc((size_t)j->partitions * j->n_inputs * sizeof *j->inputs);
    if (!j->inputs)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_job_new: no memory for %u x %zu inputs",
                              j->partitions, j->n_inputs);
    for (unsigned i = 0; i < j->partitions; i++) {
        size_t got = 0;
        cuzk_status st = fil_public_inputs(j->inputs + (size_t)i * j->n_inputs, j->n_inputs, &got,
                                           &j->pub, i, err);
        if (st != CUZK_OK)
            return fil_job_prefixed(err, st, "public values");
        if (got != j->n_inputs)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                  "partition %u: %zu inputs derived, the shape says %zu", i, got,
                                  j->n_inputs);
    }
    return CUZK_OK;
}

static cuzk_status job_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                            cuzk_error_t *err)
{
    cuzk_status st;
    switch (j->pub.kind) {
    case FIL_CIRCUIT_POREP: st = fil_job_porep_load(j, v, lens, n, err); break;
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST: st = fil_job_post_load(j, v, lens, n, err); break;
    default: st = fil_job_snap_load(j, v, lens, n, err); break;
    }
    if (st != CUZK_OK)
        return st;
    if ((st = fil_public_check(&j->pub, err)) != CUZK_OK)
        return fil_job_prefixed(err, st, "public values");
    if (j->pub.kind == FIL_CIRCUIT_SNAP_DEALS || j->pub.kind == FIL_CIRCUIT_SNAP_DEALS_POSEIDON)
        st = fil_job_snap_check(j, err);
    if (st == CUZK_OK)
        st = derive_inputs(j, err);
    if (st == CUZK_OK)
        st = fil_params_stem(j->stem, sizeof j->stem, j->pub.kind, j->pub.sector_size, j->pub.api,
                             err);
    return st;
}

cuzk_status fil_job_new(fil_job_t **out, const fil_public_t *pub, const uint8_t *const *vanilla,
                        const size_t *lens, size_t n, const char *const *names, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_new: NULL argument");
    *out = NULL;
    if (!pub || (n && (!vanilla || !lens)))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_new: NULL argument");
    if (pub->kind < 0 || pub->kind >= FIL_CIRCUIT_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "public values: kind %d is not a Filecoin proof",
                              (int)pub->kind);
    if (n == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "no vanilla proofs");
    for (size_t i = 0; i < n; i++)
        if (!vanilla[i] && lens[i])
            return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_new: vanilla proof %zu is NULL", i);
    fil_job_t *j = calloc(1, sizeof *j);
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_job_new: no memory");
    cuzk_status st = copy_public(j, pub, err);
    if (st == CUZK_OK)
        st = copy_names(j, names, n, err);
    if (st == CUZK_OK)
        st = job_load(j, vanilla, lens, n, err);
    if (st != CUZK_OK) {
        fil_job_free(j);
        return st;
    }
    *out = j;
    return CUZK_OK;
}

void fil_job_free(fil_job_t *j)
{
    if (!j)
        return;
    for (size_t i = 0; j->names && i < j->n_vanilla; i++)
        free(j->names[i]);
    free(j->names);
    for (size_t k = 0; j->snap && k < j->n_vanilla; k++)
        free(j->snap[k]);
    free(j->snap);
    free(j->snap_len);
    free(j->post);
    free(j->inputs);
    fil_c1_free(&j->c1);
    fil_public_free(&j->pub);
    free(j);
}

unsigned fil_job_partitions(const fil_job_t *j)
{
    return j->partitions;
}

fil_circuit_kind fil_job_kind(const fil_job_t *j)
{
    return j->pub.kind;
}

uint64_t fil_job_sector_size(const fil_job_t *j)
{
    return j->pub.sector_size;
}

fil_api_version fil_job_api(const fil_job_t *j)
{
    return j->pub.api;
}

fil_seal_proof fil_job_seal_proof(const fil_job_t *j)
{
    return j->pub.kind == FIL_CIRCUIT_POREP ? j->pub.seal : FIL_SEAL_COUNT;
}

const fil_public_t *fil_job_public(const fil_job_t *j)
{
    return &j->pub;
}

size_t fil_job_n_inputs(const fil_job_t *j)
{
    return j->n_inputs;
}

const char *fil_job_param_stem(const fil_job_t *j)
{
    return j->stem;
}

cuzk_status fil_job_inputs(fr_t **in, size_t *n, const fil_job_t *j, unsigned i, cuzk_error_t *err)
{
    if (!in || !n || !j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_inputs: NULL argument");
    *in = NULL;
    *n = 0;
    if (i >= j->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u of %u", i, j->partitions);
    fr_t *out = malloc(j->n_inputs * sizeof *out);
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "partition %u: no memory for %zu inputs", i,
                              j->n_inputs);
    memcpy(out, j->inputs + (size_t)i * j->n_inputs, j->n_inputs * sizeof *out);
    *in = out;
    *n = j->n_inputs;
    return CUZK_OK;
}

void fil_job_part_free(fil_job_part_t *part)
{
    if (!part)
        return;
    free(part->porep_ch);
    fil_update_witness_free(&part->update);
    memset(part, 0, sizeof *part);
}

cuzk_status fil_job_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                              cuzk_error_t *err)
{
    if (!out || !j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_partition: NULL argument");
    memset(out, 0, sizeof *out);
    if (i >= j->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u of %u", i, j->partitions);
    cuzk_status st;
    switch (j->pub.kind) {
    case FIL_CIRCUIT_POREP: st = fil_job_porep_partition(out, j, i, err); break;
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST: st = fil_job_post_partition(out, j, i, err); break;
    default: st = fil_job_snap_partition(out, j, i, err); break;
    }
    if (st != CUZK_OK)
        fil_job_part_free(out);
    return st;
}

/* Whether p comes out at n_vars variables and n_public inputs: told by a
 * counting synthesis (no values read), for a failed witness only, so that
 * a caller's wrong buffer is not taken for an invalid proof. 1 yes, 0 no,
 * -1 not known (no memory). */
static int partition_fits(const fil_partition_t *p, size_t n_vars, size_t n_public)
{
    cs_t *cs = NULL;
    if (cs_new(&cs, CS_COUNT, NULL) != CUZK_OK)
        return -1;
    fil_partition_synth(cs, p);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    return k.inputs == (uint64_t)n_public + 1 && k.inputs + k.aux == (uint64_t)n_vars;
}

/* The witness's own inputs against the derived ones. */
static cuzk_status compare_inputs(const fr_t *w, const fil_job_t *j, unsigned i, cuzk_error_t *err)
{
    const fr_t *want = j->inputs + (size_t)i * j->n_inputs;
    for (size_t k = 0; k < j->n_inputs; k++)
        if (!fr_equal(&w[1 + k], &want[k]))
            return cuzk_error_set(err, CUZK_ERR_INVALID,
                                  "partition %u: public input %zu of the vanilla proof is not the "
                                  "one the public values give: the vanilla proof does not belong "
                                  "to them",
                                  i, k);
    return CUZK_OK;
}

/* Partition i's witness, whole into w or packed into pk. */
static cuzk_status job_witness(fr_t *w, fr_pack_t *pk, size_t n_vars, size_t n_public,
                               const fil_job_t *j, unsigned i, const fil_witness_opts_t *opts,
                               cuzk_error_t *err)
{
    if ((!w && !pk) || !j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_witness: NULL argument");
    if (i >= j->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u of %u", i, j->partitions);
    if (n_public != j->n_inputs || n_vars <= n_public)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "partition %u: a witness of %zu variables and %zu inputs; the public "
                              "values give %zu inputs",
                              i, n_vars, n_public, j->n_inputs);
    fil_job_part_t part;
    cuzk_status st = fil_job_partition(&part, j, i, err);
    if (st != CUZK_OK)
        return st;
    cuzk_error_t e = {0};
    st = pk ? fil_partition_witness_pack(pk, n_vars, n_public, &part.p, opts, &e)
            : fil_partition_witness_into(w, n_vars, n_public, &part.p, opts, &e);
    if (st == CUZK_ERR_ARG && partition_fits(&part.p, n_vars, n_public) == 1) {
        /* the sizes are right: a value the circuit's gadgets refuse, or an
         * unsatisfied constraint (FIL_WITNESS_CHECK) */
        st = strstr(e.msg, "is not valid")
                 ? cuzk_error_set(err, CUZK_ERR_INVALID, "witness: %s", e.msg)
                 : cuzk_error_set(err, CUZK_ERR_INVALID,
                                  "witness: %s: the vanilla proof is not valid", e.msg);
    } else if (st != CUZK_OK) {
        cuzk_error_set(err, st, "%s", e.msg);
    }
    fil_job_part_free(&part);
    if (st != CUZK_OK || w)
        return st == CUZK_OK ? compare_inputs(w, j, i, err) : st;
    /* a pack's ONE and inputs, read back for the comparison */
    fr_t *head = malloc((n_public + 1) * sizeof *head);
    if (!head) {
        fr_pack_free(pk);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "partition %u: no memory for its inputs", i);
    }
    for (size_t k = 0; k <= n_public; k++)
        fr_pack_get(&head[k], pk, k);
    st = compare_inputs(head, j, i, err);
    free(head);
    if (st != CUZK_OK)
        fr_pack_free(pk);
    return st;
}

cuzk_status fil_job_witness(fr_t *w, size_t n_vars, size_t n_public, const fil_job_t *j, unsigned i,
                            const fil_witness_opts_t *opts, cuzk_error_t *err)
{
    if (!w)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_witness: NULL argument");
    return job_witness(w, NULL, n_vars, n_public, j, i, opts, err);
}

cuzk_status fil_job_witness_pack(fr_pack_t *out, size_t n_vars, size_t n_public, const fil_job_t *j,
                                 unsigned i, const fil_witness_opts_t *opts, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_witness_pack: NULL argument");
    memset(out, 0, sizeof *out);
    return job_witness(NULL, out, n_vars, n_public, j, i, opts, err);
}

cuzk_status fil_job_diagnose(const fil_job_t *j, unsigned i, int threads, cuzk_error_t *err)
{
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_job_diagnose: NULL argument");
    if (i >= j->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u of %u", i, j->partitions);
    fil_job_part_t part;
    cuzk_status st = fil_job_partition(&part, j, i, err);
    if (st != CUZK_OK)
        return st;
    fr_t *w = NULL;
    size_t n_vars = 0, n_inputs = 0;
    fil_witness_opts_t o = {FIL_WITNESS_CHECK, threads, 0, 0};
    cuzk_error_t e = {0};
    st = fil_partition_witness(&w, &n_vars, &n_inputs, &part.p, &o, &e);
    fil_job_part_free(&part);
    if (st == CUZK_ERR_ARG) /* the circuit refuses a value, or a constraint fails */
        st = strstr(e.msg, "is not valid")
                 ? cuzk_error_set(err, CUZK_ERR_INVALID, "partition %u: witness: %s", i, e.msg)
                 : cuzk_error_set(err, CUZK_ERR_INVALID,
                                  "partition %u: witness: %s: the vanilla proof is not valid", i,
                                  e.msg);
    else if (st != CUZK_OK)
        cuzk_error_set(err, st, "partition %u: %s", i, e.msg);
    else if (n_inputs != j->n_inputs)
        st = cuzk_error_set(err, CUZK_ERR_INVALID,
                            "partition %u: the vanilla proof gives %zu inputs, the public values "
                            "%zu: the vanilla proof does not belong to them",
                            i, n_inputs, j->n_inputs);
    else
        st = compare_inputs(w, j, i, err);
    free(w);
    return st;
}
