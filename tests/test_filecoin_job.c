/* Filecoin proving jobs (include/cuzk/filecoin_job.h). For each kind at
 * 2 KiB the inputs are built in memory as `cuzk filecoin gen-vanilla`
 * builds them (a real sealing, fil_sealed_c1, fil_sealed_post_vproof,
 * fil_snap_*), a job is made from their bytes, and each partition's
 * inputs must equal fil_public_inputs of the completed public values and
 * its witness must satisfy every constraint (FIL_WITNESS_CHECK). Wrong
 * public values (comm_r, sector id, randomness, seed, commitments), a
 * flipped byte and truncated bytes give the invalid-proof code or a clean
 * error naming the proof and field, never a crash. The real 32 GiB
 * WindowPoSt vanilla proof (testdata post.vproof with postpub.json's
 * values) makes a job whose partition-0 inputs are reference.json's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pthread.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_job.h"
#include "cuzk/filecoin_params.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/filecoin_vanilla.h"
#include "test_util.h"

#define FIL_DIR CUZK_TESTDATA_DIR "/filecoin/circuits/"
#define SIZE_2K 2048u

/* ---- helpers ------------------------------------------------------------- */

/* The circuit's sizes by a counting synthesis of its blank circuit. */
static void circuit_sizes(size_t *n_vars, size_t *n_public, const fil_job_t *j)
{
    cs_t *cs = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(cs_new(&cs, CS_COUNT, &err), CUZK_OK);
    if (fil_circuit_synth_blank(cs, fil_job_kind(j), fil_job_sector_size(j), fil_job_api(j),
                                &err) != CUZK_OK)
        fail_msg("blank circuit: %s", err.msg);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    *n_vars = (size_t)(k.inputs + k.aux);
    *n_public = (size_t)(k.inputs - 1);
}

/* Partition i's inputs are fil_public_inputs of the job's public values;
 * with check, its witness satisfies every constraint and starts [ONE,
 * inputs]. */
static void check_partition(const fil_job_t *j, unsigned i, int check)
{
    cuzk_error_t err = {0};
    fr_t *in = NULL;
    size_t n = 0, nv = 0, np = 0;
    assert_int_equal(fil_job_inputs(&in, &n, j, i, &err), CUZK_OK);
    assert_int_equal(n, fil_job_n_inputs(j));
    fr_t *want = malloc(n * sizeof *want);
    size_t got = 0;
    assert_non_null(want);
    assert_int_equal(fil_public_inputs(want, n, &got, fil_job_public(j), i, &err), CUZK_OK);
    assert_int_equal(got, n);
    assert_memory_equal(in, want, n * sizeof *in);
    free(want);
    if (check) {
        circuit_sizes(&nv, &np, j);
        assert_int_equal(np, n);
        fr_t *w = malloc(nv * sizeof *w);
        assert_non_null(w);
        fil_witness_opts_t o = {FIL_WITNESS_CHECK, 1, 0, 0};
        if (fil_job_witness(w, nv, np, j, i, &o, &err) != CUZK_OK)
            fail_msg("partition %u: %s", i, err.msg);
        fr_t one;
        fr_from_u64(&one, 1);
        assert_true(fr_equal(&w[0], &one));
        assert_memory_equal(&w[1], in, n * sizeof *in);
        /* made packed: the vector's pack */
        fr_pack_t want_pack, got_pack;
        assert_int_equal(fr_pack_make(&want_pack, w, nv, 1, &err), CUZK_OK);
        if (fil_job_witness_pack(&got_pack, nv, np, j, i, &o, &err) != CUZK_OK)
            fail_msg("partition %u packed: %s", i, err.msg);
        assert_int_equal(got_pack.bytes, want_pack.bytes);
        assert_memory_equal(got_pack.block, want_pack.block, want_pack.bytes);
        fr_pack_free(&got_pack);
        fr_pack_free(&want_pack);
        free(w);
    }
    free(in);
}

/* The witness of partition i into a fresh buffer of the circuit's size:
 * its status, err set. */
static cuzk_status witness_of(const fil_job_t *j, unsigned i, fil_witness_mode mode,
                              cuzk_error_t *err)
{
    size_t nv = 0, np = 0;
    circuit_sizes(&nv, &np, j);
    fr_t *w = malloc(nv * sizeof *w);
    assert_non_null(w);
    fil_witness_opts_t o = {mode, 1, 0, 0};
    cuzk_status st = fil_job_witness(w, nv, np, j, i, &o, err);
    free(w);
    /* made packed: the same outcome, and nothing left on a failure */
    fr_pack_t pk;
    cuzk_error_t pe = {0};
    assert_int_equal(fil_job_witness_pack(&pk, nv, np, j, i, &o, &pe), st);
    if (st != CUZK_OK) {
        assert_null(pk.block);
        assert_string_equal(pe.msg, err->msg);
    }
    fr_pack_free(&pk);
    return st;
}

typedef struct bytes_set {
    uint8_t *b[8];
    size_t len[8];
    size_t n;
} bytes_set_t;

static void bytes_free(bytes_set_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->b[i]);
    memset(s, 0, sizeof *s);
}

static cuzk_status job_of(fil_job_t **j, const fil_public_t *p, const bytes_set_t *s,
                          cuzk_error_t *err)
{
    return fil_job_new(j, p, (const uint8_t *const *)s->b, s->len, s->n, NULL, err);
}

static void expect_fail(const fil_public_t *p, const bytes_set_t *s, cuzk_status want,
                        const char *text)
{
    fil_job_t *j = (fil_job_t *)&j; /* must come back NULL */
    cuzk_error_t err = {0};
    cuzk_status st = job_of(&j, p, s, &err);
    if (st != want || (text && !strstr(err.msg, text)))
        fail_msg("want %s with \"%s\", got %s: %s", cuzk_status_str(want), text ? text : "",
                 cuzk_status_str(st), err.msg);
    assert_null(j);
}

static void set_le(uint8_t out[32], uint8_t fill)
{
    memset(out, fill, 32);
    out[31] = 0;
}

static fil_sealed_t *seal_2k(uint64_t sector_id, uint8_t ticket[32])
{
    uint8_t prover[32];
    fil_prover_id(prover, 1000);
    set_le(ticket, (uint8_t)(0x30 + sector_id));
    fil_sealed_t *s = NULL;
    cuzk_error_t err = {0};
    if (fil_seal(&s, FIL_SEAL_2K_V1_1, prover, sector_id, ticket, NULL, 77 + sector_id, 1, &err) !=
        CUZK_OK)
        fail_msg("seal: %s", err.msg);
    return s;
}

/* ---- PoSt ---------------------------------------------------------------- */

/* n sectors' vanilla proofs for randomness (WinningPoSt: one sector, its
 * 66 leaves), as gen-vanilla draws their leaves. */
static void post_vanilla(bytes_set_t *out, fil_circuit_kind kind, size_t n, const uint8_t rnd[32])
{
    cuzk_error_t err = {0};
    fil_post_params_t pp;
    assert_int_equal(fil_post_params(&pp, kind, SIZE_2K, FIL_API_1_1, &err), CUZK_OK);
    fil_post_vproof_t *v = malloc(sizeof *v);
    assert_non_null(v);
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        uint64_t id = 1 + i, leaves[FIL_POST_VPROOF_MAX_PROOFS];
        unsigned per = kind == FIL_CIRCUIT_WINNING_POST ? pp.sector_count : pp.challenge_count;
        if (kind == FIL_CIRCUIT_WINNING_POST)
            for (unsigned k = 0; k < per; k++)
                assert_int_equal(fil_post_sector_leaves(&leaves[k], &pp, rnd, id, k, &err),
                                 CUZK_OK);
        else
            assert_int_equal(fil_post_sector_leaves(leaves, &pp, rnd, id, i, &err), CUZK_OK);
        uint8_t ticket[32];
        fil_sealed_t *s = seal_2k(id, ticket);
        assert_int_equal(fil_sealed_post_vproof(v, s, leaves, per, &err), CUZK_OK);
        fil_sealed_free(s);
        assert_int_equal(fil_post_vproof_write(&out->b[i], &out->len[i], v, &err), CUZK_OK);
        out->n++;
    }
    free(v);
}

static void post_public(fil_public_t *p, fil_circuit_kind kind, const uint8_t rnd[32])
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->sector_size = SIZE_2K;
    p->api = FIL_API_1_1;
    memcpy(p->randomness, rnd, 32);
    p->miner_id = 1000;
    p->have = FIL_PUB_RANDOMNESS | FIL_PUB_MINER_ID;
}

typedef struct par_arg {
    const fil_job_t *j;
    unsigned i;
    size_t nv, np;
    fr_t *w;
    cuzk_status st;
} par_arg_t;

static void *par_witness(void *arg)
{
    par_arg_t *a = arg;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, 2, 0, 0};
    a->st = fil_job_witness(a->w, a->nv, a->np, a->j, a->i, &o, NULL);
    return NULL;
}

/* Both partitions' witnesses made at once from two threads equal those
 * made one after the other. */
static void check_parallel(const fil_job_t *j)
{
    par_arg_t a[2];
    pthread_t t[2];
    size_t nv = 0, np = 0;
    circuit_sizes(&nv, &np, j);
    for (unsigned i = 0; i < 2; i++) {
        a[i] = (par_arg_t){j, i, nv, np, malloc(nv * sizeof(fr_t)), CUZK_ERR_INTERNAL};
        assert_non_null(a[i].w);
        assert_int_equal(pthread_create(&t[i], NULL, par_witness, &a[i]), 0);
    }
    fr_t *ref = malloc(nv * sizeof *ref);
    assert_non_null(ref);
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(a[i].st, CUZK_OK);
        fil_witness_opts_t o = {FIL_WITNESS_FAST, 1, 0, 0};
        assert_int_equal(fil_job_witness(ref, nv, np, j, i, &o, NULL), CUZK_OK);
        assert_memory_equal(ref, a[i].w, nv * sizeof *ref);
        free(a[i].w);
    }
    free(ref);
}

static void test_window_post(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    uint8_t rnd[32], other[32];
    set_le(rnd, 0x5a);
    set_le(other, 0x11);
    bytes_set_t v;
    post_vanilla(&v, FIL_CIRCUIT_WINDOW_POST, 3, rnd); /* two partitions of 2 */
    fil_public_t p;
    post_public(&p, FIL_CIRCUIT_WINDOW_POST, rnd);
    fil_job_t *j = NULL;
    if (job_of(&j, &p, &v, &err) != CUZK_OK)
        fail_msg("job: %s", err.msg);
    assert_int_equal(fil_job_partitions(j), 2);
    assert_int_equal(fil_job_kind(j), FIL_CIRCUIT_WINDOW_POST);
    assert_int_equal(fil_job_seal_proof(j), FIL_SEAL_COUNT);
    assert_int_equal(fil_job_n_inputs(j), 2 * 11);
    char stem[FIL_PARAMS_STEM_MAX];
    assert_int_equal(
        fil_params_stem(stem, sizeof stem, FIL_CIRCUIT_WINDOW_POST, SIZE_2K, FIL_API_1_1, &err),
        CUZK_OK);
    assert_string_equal(fil_job_param_stem(j), stem);
    /* the public sectors completed from the vanilla proofs */
    const fil_public_t *c = fil_job_public(j);
    assert_true(c->have & FIL_PUB_SECTORS);
    assert_int_equal(c->n_sectors, 3);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(c->sectors[i].id, 1 + i);
    check_partition(j, 0, 1);
    check_partition(j, 1, 1);
    check_parallel(j);
    fr_t *in = NULL;
    size_t n = 0;
    assert_int_equal(fil_job_inputs(&in, &n, j, 2, &err), CUZK_ERR_ARG);
    assert_null(in);

    /* the given sectors must be the proofs' */
    fil_public_t q = p;
    q.sectors = malloc(3 * sizeof *q.sectors);
    assert_non_null(q.sectors);
    memcpy(q.sectors, c->sectors, 3 * sizeof *q.sectors);
    q.n_sectors = 3;
    q.have |= FIL_PUB_SECTORS;
    fil_job_t *j2 = NULL;
    assert_int_equal(job_of(&j2, &q, &v, &err), CUZK_OK);
    fil_job_free(j2);
    q.sectors[1].id = 9;
    expect_fail(&q, &v, CUZK_ERR_ARG, "vanilla proof 1 is of sector 2");
    q.sectors[1].id = 2;
    q.sectors[2].comm_r[0] ^= 1;
    expect_fail(&q, &v, CUZK_ERR_ARG, "not the public sector 3");
    q.sectors[2].comm_r[0] ^= 1;
    q.n_sectors = 2;
    expect_fail(&q, &v, CUZK_ERR_ARG, "2 public sectors but 3 vanilla proofs");
    q.n_sectors = 3;

    /* WINDOW_POST_PARTITION: partition 1's own sector */
    fil_public_t r = p;
    r.have |= FIL_PUB_PARTITION;
    r.partition = 1;
    bytes_set_t last = {{v.b[2]}, {v.len[2]}, 1};
    assert_int_equal(job_of(&j2, &r, &last, &err), CUZK_OK);
    assert_int_equal(fil_job_partitions(j2), 1);
    check_partition(j2, 0, 1);
    fil_job_free(j2);

    /* other randomness: the proofs open other leaves */
    fil_public_t o = p;
    memcpy(o.randomness, other, 32);
    assert_int_equal(job_of(&j2, &o, &v, &err), CUZK_OK);
    assert_int_equal(witness_of(j2, 0, FIL_WITNESS_FAST, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "does not belong"));
    assert_int_equal(fil_job_diagnose(j2, 0, 1, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "does not belong"));
    fil_job_free(j2);

    /* a changed byte in a path: the circuit refuses it. The values-only
     * witness does not see it (the daemon's: its proof fails verification),
     * fil_job_diagnose names the constraint, and the untouched partition
     * diagnoses clean. */
    v.b[0][200] ^= 1;
    assert_int_equal(job_of(&j2, &p, &v, &err), CUZK_OK);
    assert_int_equal(witness_of(j2, 0, FIL_WITNESS_CHECK, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "not valid"));
    assert_int_equal(witness_of(j2, 1, FIL_WITNESS_CHECK, &err), CUZK_OK);
    assert_int_equal(witness_of(j2, 0, FIL_WITNESS_FAST, &err), CUZK_OK);
    assert_int_equal(fil_job_diagnose(j2, 0, 2, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "partition 0: witness: "));
    assert_non_null(strstr(err.msg, "constraint "));
    assert_non_null(strstr(err.msg, "not valid"));
    assert_int_equal(fil_job_diagnose(j2, 1, 1, &err), CUZK_OK);
    assert_int_equal(fil_job_diagnose(j2, 2, 1, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_diagnose(NULL, 0, 1, &err), CUZK_ERR_ARG);
    fil_job_free(j2);
    v.b[0][200] ^= 1;

    /* truncated: a parse error naming the proof, field and offset */
    size_t keep = v.len[1];
    v.len[1] = 100;
    expect_fail(&p, &v, CUZK_ERR_FORMAT, "vanilla proof 1: ");
    expect_fail(&p, &v, CUZK_ERR_FORMAT, "offset");
    v.len[1] = keep;

    /* a 32 GiB sector's proof for a 2 KiB proof: tree shapes */
    size_t len = 0;
    uint8_t *big = tu_read_file(FIL_DIR "post.vproof", &len);
    assert_non_null(big);
    bytes_set_t mixed = {{v.b[0], big}, {v.len[0], len}, 2};
    expect_fail(&p, &mixed, CUZK_ERR_ARG, "8-8-0 tree");
    free(big);

    /* wrong buffer sizes are the caller's error, not an invalid proof */
    size_t nv = 0, np = 0;
    circuit_sizes(&nv, &np, j);
    fr_t *w = malloc((nv + 1) * sizeof *w);
    assert_non_null(w);
    assert_int_equal(fil_job_witness(w, nv + 1, np, j, 0, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_witness(w, nv, np - 1, j, 0, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_witness(w, nv, np, j, 2, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_witness(NULL, nv, np, j, 0, NULL, &err), CUZK_ERR_ARG);
    free(w);
    free(q.sectors);
    fil_job_free(j);
    bytes_free(&v);
}

static void test_winning_post(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    uint8_t rnd[32], other[32];
    set_le(rnd, 0x21);
    set_le(other, 0x22);
    bytes_set_t v;
    post_vanilla(&v, FIL_CIRCUIT_WINNING_POST, 1, rnd);
    fil_public_t p;
    post_public(&p, FIL_CIRCUIT_WINNING_POST, rnd);
    fil_job_t *j = NULL;
    if (job_of(&j, &p, &v, &err) != CUZK_OK)
        fail_msg("job: %s", err.msg);
    assert_int_equal(fil_job_partitions(j), 1);
    assert_int_equal(fil_job_n_inputs(j), 66 * 2);
    fil_job_part_t part;
    assert_int_equal(fil_job_partition(&part, j, 0, &err), CUZK_OK);
    assert_int_equal(part.p.post.n_sectors, 66);
    assert_int_equal(part.p.post.shape.challenges, 1);
    fil_job_part_free(&part);
    check_partition(j, 0, 1);
    fil_job_free(j);

    memcpy(p.randomness, other, 32);
    assert_int_equal(job_of(&j, &p, &v, &err), CUZK_OK);
    assert_int_equal(witness_of(j, 0, FIL_WITNESS_FAST, &err), CUZK_ERR_INVALID);
    fil_job_free(j);
    /* two sectors: WinningPoSt proves one */
    bytes_set_t two = {{v.b[0], v.b[0]}, {v.len[0], v.len[0]}, 2};
    expect_fail(&p, &two, CUZK_ERR_ARG, "one sector");
    bytes_free(&v);
}

/* ---- PoRep --------------------------------------------------------------- */

static void test_porep(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    uint8_t ticket[32], seed[32];
    fil_sealed_t *s = seal_2k(1, ticket);
    set_le(seed, 0x44);
    fil_c1_t c1;
    assert_int_equal(fil_sealed_c1(&c1, s, ticket, seed, &err), CUZK_OK);
    fil_sealed_free(s);
    bytes_set_t json = {{NULL}, {0}, 1}, curio = {{NULL}, {0}, 1};
    assert_int_equal(fil_c1_write((char **)&json.b[0], &json.len[0], &c1, &err), CUZK_OK);
    assert_int_equal(fil_c1_write_curio((char **)&curio.b[0], &curio.len[0], &c1, 1, &err),
                     CUZK_OK);

    /* Curio's request: the C1 with miner and sector; the rest from the C1
     * (replica_id then checked against them) */
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_POREP;
    p.miner_id = 1000;
    p.sector_id = 1;
    p.have = FIL_PUB_MINER_ID | FIL_PUB_SECTOR_ID;
    fil_job_t *j = NULL;
    if (job_of(&j, &p, &json, &err) != CUZK_OK)
        fail_msg("job: %s", err.msg);
    const fil_seal_info_t *info = fil_seal_info(FIL_SEAL_2K_V1_1);
    assert_int_equal(fil_job_seal_proof(j), FIL_SEAL_2K_V1_1);
    assert_int_equal(fil_job_sector_size(j), SIZE_2K);
    assert_int_equal(fil_job_api(j), info->api);
    assert_int_equal(fil_job_partitions(j), info->partitions);
    assert_int_equal(fil_job_n_inputs(j), 3 + 18 * info->challenges_per_partition);
    assert_memory_equal(fil_job_public(j)->seed, seed, 32);
    check_partition(j, 0, 1);
    for (unsigned i = 1; i < fil_job_partitions(j); i++)
        check_partition(j, i, 0);
    fil_job_free(j);

    /* the envelope alone: its SectorNum is the sector */
    fil_public_t bare;
    memset(&bare, 0, sizeof bare);
    bare.kind = FIL_CIRCUIT_POREP;
    assert_int_equal(job_of(&j, &bare, &curio, &err), CUZK_OK);
    assert_int_equal(fil_job_public(j)->sector_id, 1);
    check_partition(j, 0, 0);
    fil_job_free(j);

    /* another sector: the envelope says otherwise; the replica_id is not
     * its */
    p.sector_id = 2;
    expect_fail(&p, &curio, CUZK_ERR_ARG, "SectorNum is 1");
    expect_fail(&p, &json, CUZK_ERR_ARG, "replica_id");
    p.sector_id = 1;
    /* another registered proof, another sector size */
    fil_public_t q = p;
    q.seal = FIL_SEAL_8M_V1_1;
    q.have |= FIL_PUB_REGISTERED_PROOF;
    expect_fail(&q, &json, CUZK_ERR_ARG, "the C1 is a StackedDrg2KiBV1_1 proof");
    q = p;
    q.sector_size = 8u << 20;
    expect_fail(&q, &json, CUZK_ERR_ARG, "2048-byte sectors");
    /* another seed: the C1's challenges are not the seed's */
    q = p;
    set_le(q.seed, 0x45);
    q.have |= FIL_PUB_SEED;
    assert_int_equal(job_of(&j, &q, &json, &err), CUZK_OK);
    assert_int_equal(witness_of(j, 0, FIL_WITNESS_FAST, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "does not belong"));
    fil_job_free(j);
    /* two files; truncated JSON */
    bytes_set_t two = {{json.b[0], json.b[0]}, {json.len[0], json.len[0]}, 2};
    expect_fail(&p, &two, CUZK_ERR_ARG, "one C1 output, not 2");
    size_t keep = json.len[0];
    json.len[0] = keep / 2;
    expect_fail(&p, &json, CUZK_ERR_FORMAT, "offset");
    json.len[0] = keep;

    /* a C1 whose comm_r_last roots disagree: an invalid proof */
    fr_t one;
    fr_from_u64(&one, 1);
    fr_add(&c1.proofs[0].comm_r_last_proof.root, &c1.proofs[0].comm_r_last_proof.root, &one);
    bytes_set_t bad = {{NULL}, {0}, 1};
    assert_int_equal(fil_c1_write((char **)&bad.b[0], &bad.len[0], &c1, &err), CUZK_OK);
    assert_int_equal(job_of(&j, &p, &bad, &err), CUZK_OK);
    fil_job_part_t part;
    assert_int_equal(fil_job_partition(&part, j, 0, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "C1 partition 0"));
    assert_null(part.porep_ch);
    fil_job_free(j);
    bytes_free(&bad);
    bytes_free(&json);
    bytes_free(&curio);
    fil_c1_free(&c1);
}

/* ---- SnapDeals ----------------------------------------------------------- */

static void snap_case(fil_circuit_kind kind)
{
    cuzk_error_t err = {0};
    fil_update_kind uk = kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    uint8_t ticket[32];
    fil_sealed_t *s = seal_2k(1, ticket);
    const uint64_t nodes = SIZE_2K / 32;
    fr_t r_old[SIZE_2K / 32], d_new[SIZE_2K / 32], comm_c;
    for (uint64_t i = 0; i < nodes; i++) {
        assert_int_equal(fil_sealed_replica(&r_old[i], s, i, &err), CUZK_OK);
        uint8_t b[32];
        set_le(b, (uint8_t)(i * 7 + 1));
        assert_int_equal(fr_from_le(&d_new[i], b), CUZK_OK);
    }
    fil_sealed_comm_c(&comm_c, s);
    fil_sealed_free(s);
    fil_update_shape_t sh;
    assert_int_equal(fil_update_shape_init(&sh, uk, nodes, &err), CUZK_OK);
    fil_snap_update_t *u = NULL;
    assert_int_equal(fil_snap_encode(&u, uk, nodes, r_old, &comm_c, d_new, sh.hs[3], &err),
                     CUZK_OK);
    bytes_set_t v;
    memset(&v, 0, sizeof v);
    for (unsigned k = 0; k < sh.partitions; k++) {
        fil_snap_vproof_t vp;
        assert_int_equal(fil_snap_update_vproof(&vp, u, k, &err), CUZK_OK);
        assert_int_equal(fil_snap_vproof_write(&v.b[k], &v.len[k], &vp, &err), CUZK_OK);
        fil_snap_vproof_free(&vp);
        v.n++;
    }
    fil_snap_public_t sp;
    fil_snap_update_public(&sp, u, 0);
    fil_snap_update_free(u);
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    p.sector_size = SIZE_2K;
    p.api = FIL_API_1_1;
    fr_to_le(p.comm_r_old, &sp.comm_r_old);
    fr_to_le(p.comm_d_new, &sp.comm_d_new);
    fr_to_le(p.comm_r_new, &sp.comm_r_new);
    p.have = FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_D_NEW | FIL_PUB_COMM_R_NEW; /* h: h_default */
    fil_job_t *j = NULL;
    if (job_of(&j, &p, &v, &err) != CUZK_OK)
        fail_msg("job: %s", err.msg);
    assert_int_equal(fil_job_public(j)->h, sh.hs[3]);
    assert_int_equal(fil_job_partitions(j), sh.partitions);
    assert_int_equal(fil_job_n_inputs(j), 4);
    for (unsigned k = 0; k < sh.partitions; k++)
        check_partition(j, k, 1);
    fil_job_free(j);

    /* other commitments: the proof does not fit them */
    fil_public_t q = p;
    set_le(q.comm_r_new, 0x22);
    assert_int_equal(job_of(&j, &q, &v, &err), CUZK_OK);
    fil_job_part_t part;
    assert_int_equal(fil_job_partition(&part, j, 0, &err), CUZK_ERR_INVALID);
    assert_non_null(strstr(err.msg, "vanilla proof 0: "));
    assert_int_equal(witness_of(j, 0, FIL_WITNESS_FAST, &err), CUZK_ERR_INVALID);
    fil_job_free(j);
    q = p;
    q.comm_d_new[31] = 0xff; /* not a field element */
    expect_fail(&q, &v, CUZK_ERR_NONCANONICAL, "public values");
    /* a leaf changed: the circuit refuses it */
    v.b[0][100] ^= 1;
    assert_int_equal(job_of(&j, &p, &v, &err), CUZK_OK);
    assert_int_equal(witness_of(j, 0, FIL_WITNESS_CHECK, &err), CUZK_ERR_INVALID);
    fil_job_free(j);
    v.b[0][100] ^= 1;
    /* one proof per partition; truncated bytes */
    bytes_set_t two = {{v.b[0], v.b[0]}, {v.len[0], v.len[0]}, 2};
    expect_fail(&p, &two, CUZK_ERR_ARG, "2 vanilla proofs for 1 partitions");
    v.len[0] = 50;
    expect_fail(&p, &v, CUZK_ERR_FORMAT, "offset");
    bytes_free(&v);
}

static void test_snap_deals(void **state)
{
    (void)state;
    snap_case(FIL_CIRCUIT_SNAP_DEALS);
}

static void test_snap_deals_poseidon(void **state)
{
    (void)state;
    snap_case(FIL_CIRCUIT_SNAP_DEALS_POSEIDON);
}

/* ---- arguments ----------------------------------------------------------- */

static void test_args(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_COUNT;
    const uint8_t one = 0;
    const uint8_t *v[1] = {&one};
    size_t len[1] = {1};
    fil_job_t *j = NULL;
    assert_int_equal(fil_job_new(NULL, &p, v, len, 1, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_new(&j, NULL, v, len, 1, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_new(&j, &p, v, len, 1, NULL, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "kind"));
    p.kind = FIL_CIRCUIT_WINDOW_POST;
    assert_int_equal(fil_job_new(&j, &p, v, len, 0, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_job_new(&j, &p, NULL, len, 1, NULL, &err), CUZK_ERR_ARG);
    /* a sector size without a tree; no randomness */
    p.sector_size = 12345;
    assert_int_equal(fil_job_new(&j, &p, v, len, 1, NULL, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "public values"));
    p.sector_size = SIZE_2K;
    const char *names[1] = {"/x/sector-1.vproof"};
    assert_int_equal(fil_job_new(&j, &p, v, len, 1, names, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "/x/sector-1.vproof: "));
    assert_null(j);
    fil_job_free(NULL);
    fil_job_part_free(NULL);
}

/* ---- the real 32 GiB WindowPoSt vanilla proof ---------------------------- */

/* The text after "key" in s (NULL when absent). */
static const char *after(const char *s, const char *key)
{
    const char *at = strstr(s, key);
    return at ? at + strlen(key) : NULL;
}

/* RFC 4648 base64 (standard alphabet, '=' padding) of s up to '"'. */
static size_t base64_decode(uint8_t *out, size_t cap, const char *s)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t n = 0;
    for (; *s && *s != '"' && *s != '='; s++) {
        const char *c = strchr(A, *s);
        assert_non_null(c);
        acc = acc << 6 | (uint32_t)(c - A);
        if ((bits += 6) >= 8) {
            bits -= 8;
            assert_true(n < cap);
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    return n;
}

/* RFC 4648 base32, lower case, no padding (multibase 'b'). */
static size_t base32_decode(uint8_t *out, size_t cap, const char *s)
{
    static const char A[] = "abcdefghijklmnopqrstuvwxyz234567";
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t n = 0;
    for (; *s && *s != '"'; s++) {
        const char *c = strchr(A, *s);
        assert_non_null(c);
        acc = acc << 5 | (uint32_t)(c - A);
        if ((bits += 5) >= 8) {
            bits -= 8;
            assert_true(n < cap);
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    return n;
}

static void test_real_window_post_32g(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    size_t len = 0, plen = 0, rlen = 0;
    uint8_t *vp = tu_read_file(FIL_DIR "post.vproof", &len);
    char *pub = (char *)tu_read_file(FIL_DIR "postpub.json", &plen);
    char *ref = (char *)tu_read_file(FIL_DIR "reference.json", &rlen);
    assert_true(vp && pub && ref);
    pub = realloc(pub, plen + 1);
    ref = realloc(ref, rlen + 1);
    assert_true(pub && ref);
    pub[plen] = 0;
    ref[rlen] = 0;

    /* postpub.json as Curio wrote it: PoStProof 8 is StackedDrgWindow32GiBV1
     * (API 1.0; reference.json post_vproof._about), Prover the miner,
     * Randomness base64, ChallengedSectors[0] the sector and its
     * SealedCID */
    const char *s;
    assert_non_null(s = after(pub, "\"PoStProof\":"));
    assert_int_equal(strtoull(s, NULL, 10), 8);
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_WINDOW_POST;
    p.sector_size = (uint64_t)32 << 30;
    p.api = FIL_API_1_0;
    assert_non_null(s = after(pub, "\"Prover\":"));
    p.miner_id = strtoull(s, NULL, 10);
    assert_non_null(s = after(pub, "\"Randomness\":\""));
    assert_int_equal(base64_decode(p.randomness, 32, s), 32);
    p.have = FIL_PUB_RANDOMNESS | FIL_PUB_MINER_ID;
    assert_non_null(s = after(pub, "\"SectorNumber\":"));
    uint64_t sector = strtoull(s, NULL, 10);
    assert_non_null(s = after(pub, "\"SealedCID\":{\"/\":\"b"));
    uint8_t cid[64];
    size_t n_cid = base32_decode(cid, sizeof cid, s);
    /* CIDv1, fil-commitment-sealed (0xf102), poseidon-bls12_381-a2-fc1
     * (0xb401), 32 bytes: the comm_r (varints, low 7 bits first) */
    static const uint8_t PREFIX[] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    assert_int_equal(n_cid, sizeof PREFIX + 32);
    assert_memory_equal(cid, PREFIX, sizeof PREFIX);

    fil_job_t *j = NULL;
    const uint8_t *v[1] = {vp};
    if (fil_job_new(&j, &p, v, &len, 1, NULL, &err) != CUZK_OK)
        fail_msg("job: %s", err.msg);
    const fil_public_t *c = fil_job_public(j);
    assert_int_equal(fil_job_partitions(j), 1);
    assert_int_equal(c->n_sectors, 1);
    assert_int_equal(c->sectors[0].id, sector);
    assert_memory_equal(c->sectors[0].comm_r, cid + sizeof PREFIX, 32);

    /* reference.json post_vproof.leaf_challenges */
    uint64_t leaves[10];
    assert_non_null(s = after(ref, "\"leaf_challenges\": ["));
    for (unsigned i = 0; i < 10; i++) {
        char *end = NULL;
        leaves[i] = strtoull(s, &end, 10);
        assert_true(end != s);
        s = end + strspn(end, ", ");
    }
    fr_t *in = NULL;
    size_t n = 0;
    assert_int_equal(fil_job_inputs(&in, &n, j, 0, &err), CUZK_OK);
    assert_int_equal(n, 2349 * 11); /* the partition padded with its sector */
    fr_t comm_r;
    assert_int_equal(fr_from_le(&comm_r, cid + sizeof PREFIX), CUZK_OK);
    for (size_t k = 0; k < 2349; k++) {
        assert_true(fr_equal(&in[11 * k], &comm_r));
        for (unsigned i = 0; i < 10; i++) {
            fr_t l;
            fr_from_u64(&l, leaves[i]);
            assert_true(fr_equal(&in[11 * k + 1 + i], &l));
        }
    }
    free(in);
    fil_job_free(j);

    /* the same proof for another sector's public values */
    fil_post_pub_sector_t other = {sector + 1, {0}};
    memcpy(other.comm_r, cid + sizeof PREFIX, 32);
    p.sectors = &other;
    p.n_sectors = 1;
    p.have |= FIL_PUB_SECTORS;
    assert_int_equal(fil_job_new(&j, &p, v, &len, 1, NULL, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "vanilla proof 0 is of sector 1"));
    free(vp);
    free(pub);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_window_post),
        cmocka_unit_test(test_winning_post),
        cmocka_unit_test(test_snap_deals),
        cmocka_unit_test(test_snap_deals_poseidon),
        cmocka_unit_test(test_porep),
        cmocka_unit_test(test_real_window_post_32g),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
