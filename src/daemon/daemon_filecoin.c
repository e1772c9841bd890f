/* The daemon's Filecoin requests (daemon.h daemon_filecoin_t): Curio's
 * numbers and bytes turned into public values and a proving job
 * (filecoin_job.h), the journal header that lets a restart rebuild the
 * job, and the engine's witness generator of a partition.
 *
 * State: none of its own; a dmn_fil_t is made by one thread and then only
 * read (the job is thread safe, filecoin_job.h), until dmn_fil_free.
 *
 * The journal header (input 0 of a Filecoin job; the vanilla proofs are
 * inputs 1..n), little-endian, DMN_FIL_HEADER_BYTES exactly:
 *   0   8  magic "cuzkfil1"
 *   8   8  registered_proof
 *   16  8  sector_size
 *   24  8  sector_number
 *   32  8  miner_id
 *   40  4  partition_index
 *   44  4  flags: bit 0..3 randomness, comm_r_old, comm_r_new, comm_d_new
 *          present; every other bit 0
 *   48  4x32  randomness, comm_r_old, comm_r_new, comm_d_new (zero when
 *          absent)
 * A header of another length, magic or flags is refused (the journal is
 * ours, but a damaged one must fail the job, not the daemon). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_job.h"
#include "cuzk/filecoin_params.h"
#include "daemon/daemon_internal.h"

#define MAGIC "cuzkfil1"
#define N_BYTES_FIELDS 4

static const char *const BYTES_NAMES[N_BYTES_FIELDS] = {"randomness", "comm_r_old", "comm_r_new",
                                                        "comm_d_new"};

cuzk_priority daemon_kind_priority(engine_kind kind)
{
    switch (kind) {
    case ENGINE_KIND_WINNING_POST: return CUZK_PRIO_CRITICAL;
    case ENGINE_KIND_WINDOW_POST: return CUZK_PRIO_HIGH;
    case ENGINE_KIND_SNAPDEALS: return CUZK_PRIO_LOW;
    default: return CUZK_PRIO_NORMAL;
    }
}

int dmn_is_filecoin(engine_kind kind)
{
    return kind == ENGINE_KIND_POREP || kind == ENGINE_KIND_SNAPDEALS ||
           kind == ENGINE_KIND_WINDOW_POST || kind == ENGINE_KIND_WINNING_POST;
}

static const daemon_blob_t *bytes_field(const daemon_filecoin_t *f, unsigned i)
{
    const daemon_blob_t *b[N_BYTES_FIELDS] = {&f->randomness, &f->comm_r_old, &f->comm_r_new,
                                              &f->comm_d_new};
    return b[i];
}

/* ---- the journal header ---- */

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void dmn_fil_header_write(uint8_t out[DMN_FIL_HEADER_BYTES], const daemon_filecoin_t *f)
{
    memset(out, 0, DMN_FIL_HEADER_BYTES);
    memcpy(out, MAGIC, 8);
    put64(out + 8, f->registered_proof);
    put64(out + 16, f->sector_size);
    put64(out + 24, f->sector_number);
    put64(out + 32, f->miner_id);
    put32(out + 40, f->partition_index);
    uint32_t flags = 0;
    for (unsigned i = 0; i < N_BYTES_FIELDS; i++) {
        const daemon_blob_t *b = bytes_field(f, i);
        if (b->len == 32 && b->data) {
            flags |= 1u << i;
            memcpy(out + 48 + 32 * i, b->data, 32);
        }
    }
    put32(out + 44, flags);
}

cuzk_status dmn_fil_header_read(daemon_filecoin_t *f, const uint8_t *h, size_t len,
                                cuzk_error_t *err)
{
    memset(f, 0, sizeof *f);
    if (len != DMN_FIL_HEADER_BYTES || !h)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "Filecoin header: %zu bytes, not %d", len,
                              DMN_FIL_HEADER_BYTES);
    if (memcmp(h, MAGIC, 8) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "Filecoin header: bad magic");
    uint32_t flags = get32(h + 44);
    if (flags >> N_BYTES_FIELDS)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "Filecoin header: unknown flags 0x%x at 44",
                              flags);
    f->registered_proof = get64(h + 8);
    f->sector_size = get64(h + 16);
    f->sector_number = get64(h + 24);
    f->miner_id = get64(h + 32);
    f->partition_index = get32(h + 40);
    daemon_blob_t *b[N_BYTES_FIELDS] = {&f->randomness, &f->comm_r_old, &f->comm_r_new,
                                        &f->comm_d_new};
    for (unsigned i = 0; i < N_BYTES_FIELDS; i++) {
        const uint8_t *v = h + 48 + 32 * i;
        if (flags >> i & 1u)
            *b[i] = (daemon_blob_t){v, 32};
        else
            for (int k = 0; k < 32; k++)
                if (v[k])
                    return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                          "Filecoin header: absent %s is not zero (offset %u)",
                                          BYTES_NAMES[i], 48 + 32 * i + (unsigned)k);
    }
    return CUZK_OK;
}

/* ---- public values ---- */

static const uint64_t SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};

/* A 32-byte field into out, or CUZK_ERR_ARG naming it. */
static cuzk_status bytes32(uint8_t out[32], const daemon_filecoin_t *f, unsigned i,
                           const char *kind, cuzk_error_t *err)
{
    const daemon_blob_t *b = bytes_field(f, i);
    if (b->len != 32 || !b->data)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %s has %zu bytes; it must have 32%s", kind,
                              BYTES_NAMES[i], b->len, b->len ? "" : " (missing?)");
    memcpy(out, b->data, 32);
    return CUZK_OK;
}

/* The circuit, sector size and API of registered_proof for the kind,
 * as Curio numbers it (daemon.h). */
static cuzk_status proof_shape(fil_public_t *p, engine_kind kind, uint64_t rp, cuzk_error_t *err)
{
    const char *what = engine_kind_str(kind);
    if (kind == ENGINE_KIND_POREP) {
        const fil_seal_info_t *info =
            rp < FIL_SEAL_COUNT ? fil_seal_info((fil_seal_proof)rp) : NULL;
        if (!info)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "registered_proof %llu is not a RegisteredSealProof (0..%d)",
                                  (unsigned long long)rp, FIL_SEAL_COUNT - 1);
        p->kind = FIL_CIRCUIT_POREP;
        p->seal = (fil_seal_proof)rp;
        p->sector_size = info->sector_size;
        p->api = info->api;
        p->have |= FIL_PUB_REGISTERED_PROOF;
        return CUZK_OK;
    }
    if (kind == ENGINE_KIND_SNAPDEALS) {
        if (rp >= 5)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "registered_proof %llu is not a RegisteredUpdateProof (0..4)",
                                  (unsigned long long)rp);
        p->kind = FIL_CIRCUIT_SNAP_DEALS;
        p->sector_size = SIZES[rp];
        p->api = FIL_API_1_1;
        return CUZK_OK;
    }
    int winning = kind == ENGINE_KIND_WINNING_POST;
    /* RegisteredPoStProof: 0..4 Winning V1, 5..9 Window V1, 10..14 Window V1_2 */
    if (rp >= 15 || (winning && rp >= 5) || (!winning && rp < 5))
        return cuzk_error_set(
            err, CUZK_ERR_ARG, "registered_proof %llu is not a %s RegisteredPoStProof (%s)",
            (unsigned long long)rp, what,
            winning ? "StackedDrgWinning*V1: 0..4" : "StackedDrgWindow*V1: 5..9, *V1_2: 10..14");
    p->kind = winning ? FIL_CIRCUIT_WINNING_POST : FIL_CIRCUIT_WINDOW_POST;
    p->sector_size = SIZES[rp % 5];
    p->api = rp >= 10 ? FIL_API_1_2 : FIL_API_1_0; /* the 1.0 and 1.1 challenges are the same */
    return CUZK_OK;
}

cuzk_status dmn_fil_public(fil_public_t *p, engine_kind kind, const daemon_filecoin_t *f,
                           cuzk_error_t *err)
{
    memset(p, 0, sizeof *p);
    cuzk_status st = proof_shape(p, kind, f->registered_proof, err);
    if (st != CUZK_OK)
        return st;
    const char *what = engine_kind_str(kind);
    if (f->sector_size && f->sector_size != p->sector_size)
        return cuzk_error_set(
            err, CUZK_ERR_ARG, "sector_size %llu is not registered_proof %llu's (%llu)",
            (unsigned long long)f->sector_size, (unsigned long long)f->registered_proof,
            (unsigned long long)p->sector_size);
    switch (kind) {
    case ENGINE_KIND_POREP:
        /* With both, replica_id is checked against them (filecoin_job.h). */
        p->miner_id = f->miner_id;
        p->sector_id = f->sector_number;
        p->have |= FIL_PUB_MINER_ID | FIL_PUB_SECTOR_ID;
        return CUZK_OK;
    case ENGINE_KIND_SNAPDEALS:
        if ((st = bytes32(p->comm_r_old, f, 1, what, err)) != CUZK_OK ||
            (st = bytes32(p->comm_r_new, f, 2, what, err)) != CUZK_OK ||
            (st = bytes32(p->comm_d_new, f, 3, what, err)) != CUZK_OK)
            return st;
        p->have |= FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_R_NEW | FIL_PUB_COMM_D_NEW;
        return CUZK_OK;
    default:
        if ((st = bytes32(p->randomness, f, 0, what, err)) != CUZK_OK)
            return st;
        p->miner_id = f->miner_id;
        p->have |= FIL_PUB_RANDOMNESS | FIL_PUB_MINER_ID;
        if (kind == ENGINE_KIND_WINDOW_POST) {
            p->partition = f->partition_index;
            p->have |= FIL_PUB_PARTITION;
        } else if (f->partition_index) {
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "partition_index %u: a WinningPoSt has one partition",
                                  f->partition_index);
        }
        return CUZK_OK;
    }
}

/* ---- the job ---- */

cuzk_status dmn_fil_new(dmn_fil_t **out, engine_kind kind, const daemon_filecoin_t *f,
                        cuzk_error_t *err)
{
    *out = NULL;
    if (!dmn_is_filecoin(kind))
        return cuzk_error_set(err, CUZK_ERR_ARG, "kind %s is not a Filecoin kind",
                              engine_kind_str(kind));
    const char *field = kind == ENGINE_KIND_POREP ? "vanilla_proof" : "vanilla_proofs";
    if (!f->n_vanilla || !f->vanilla)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: missing", field);
    if (kind == ENGINE_KIND_POREP && f->n_vanilla != 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "vanilla_proof: %zu given, a PoRep has one",
                              f->n_vanilla);
    if (f->n_vanilla + 1 > JOURNAL_INPUTS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %zu (at most %d)", field, f->n_vanilla,
                              JOURNAL_INPUTS_MAX - 1);
    for (size_t i = 0; i < f->n_vanilla; i++)
        if (!f->vanilla[i].data || !f->vanilla[i].len)
            return kind == ENGINE_KIND_POREP
                       ? cuzk_error_set(err, CUZK_ERR_ARG, "vanilla_proof: empty")
                       : cuzk_error_set(err, CUZK_ERR_ARG, "vanilla_proofs[%zu]: empty", i);
    dmn_fil_t *x = calloc(1, sizeof *x);
    const uint8_t **bytes = calloc(f->n_vanilla, sizeof *bytes);
    size_t *lens = calloc(f->n_vanilla, sizeof *lens);
    char **names = calloc(f->n_vanilla, sizeof *names);
    cuzk_status st = CUZK_OK;
    if (!x || !bytes || !lens || !names)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "Filecoin request: no memory");
    for (size_t i = 0; st == CUZK_OK && i < f->n_vanilla; i++) {
        bytes[i] = f->vanilla[i].data;
        lens[i] = f->vanilla[i].len;
        char nm[48];
        if (kind == ENGINE_KIND_POREP)
            snprintf(nm, sizeof nm, "vanilla_proof");
        else
            snprintf(nm, sizeof nm, "vanilla_proofs[%zu]", i);
        if (!(names[i] = strdup(nm)))
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "Filecoin request: no memory");
    }
    fil_public_t pub;
    memset(&pub, 0, sizeof pub);
    if (st == CUZK_OK)
        st = dmn_fil_public(&pub, kind, f, err);
    if (st == CUZK_OK)
        st = fil_job_new(&x->job, &pub, bytes, lens, f->n_vanilla, (const char *const *)names, err);
    fil_public_free(&pub);
    for (size_t i = 0; names && i < f->n_vanilla; i++)
        free(names[i]);
    free(names);
    free(lens);
    free(bytes);
    if (st == CUZK_OK) {
        x->n_parts = fil_job_partitions(x->job);
        x->parts = calloc(x->n_parts ? x->n_parts : 1, sizeof *x->parts);
        if (!x->parts)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "Filecoin request: no memory");
    }
    if (st != CUZK_OK) {
        dmn_fil_free(x);
        return st;
    }
    for (unsigned i = 0; i < x->n_parts; i++)
        x->parts[i] = (dmn_fil_part_t){x, i};
    *out = x;
    return CUZK_OK;
}

void dmn_fil_free(dmn_fil_t *x)
{
    if (!x)
        return;
    fil_job_free(x->job);
    free(x->parts);
    free(x);
}

/* engine_witness_fn: partition p->index into the engine's buffer, its
 * inputs compared with those the public values give (fil_job_witness), so
 * that the engine's verification is against the derived inputs. Values
 * only (FIL_WITNESS_FAST): evaluating every constraint as well took 18.4 s
 * against 2.2 s for a 32 GiB PoRep partition on 2 cores, several times
 * what the GPU needs to prove it, so the pool could no longer keep the
 * GPU fed. A vanilla proof the circuit refuses still fails: its proof
 * fails the engine's verification, and dmn_fil_diagnose then names the
 * constraint. */
cuzk_status dmn_fil_witness(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    const dmn_fil_part_t *p = ctx;
    const dmn_fil_t *x = p->fil;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, threads > 0 ? threads : 1, n, x->n_public};
    return fil_job_witness(w, n, x->n_public, x->job, p->index, &o, err);
}

/* The same made packed (memory.witness_pack): a PoRep partition's ~98%
 * bits never fill a 4.2 GB vector. */
cuzk_status dmn_fil_witness_pack(void *ctx, fr_pack_t *pack, size_t n, int threads,
                                 cuzk_error_t *err)
{
    const dmn_fil_part_t *p = ctx;
    const dmn_fil_t *x = p->fil;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, threads > 0 ? threads : 1, n, x->n_public};
    return fil_job_witness_pack(pack, n, x->n_public, x->job, p->index, &o, err);
}

/* The engine's verifier names the partition whose proof failed as
 * "(partition N)" (engine_pipeline.c verify_run); a job of one partition
 * needs no name. UINT_MAX: none. */
static unsigned failed_partition(const dmn_fil_t *x, const char *msg)
{
    const char *at = strstr(msg, "(partition ");
    if (at) {
        char *end = NULL;
        unsigned long v = strtoul(at + 11, &end, 10);
        if (end != at + 11 && *end == ')' && v < x->n_parts)
            return (unsigned)v;
    }
    return x->n_parts == 1 ? 0 : UINT_MAX;
}

void dmn_fil_diagnose(const dmn_fil_t *x, cuzk_error_t *error)
{
    if (!x || error->code != CUZK_ERR_FORMAT || !strstr(error->msg, "failed verification"))
        return;
    unsigned one = failed_partition(x, error->msg);
    unsigned first = one == UINT_MAX ? 0 : one, end = one == UINT_MAX ? x->n_parts : one + 1;
    for (unsigned i = first; i < end; i++) {
        cuzk_error_t e = {0};
        cuzk_status st = fil_job_diagnose(x->job, i, x->threads > 0 ? x->threads : 1, &e);
        if (st == CUZK_ERR_INVALID) {
            *error = e;
            return;
        }
        if (st != CUZK_OK)
            return; /* no memory for the check: the verifier's words stand */
    }
}
