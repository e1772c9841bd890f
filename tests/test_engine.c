/* Proving engine tests (include/cuzk/engine.h), CPU only, on simulated
 * devices (tests/sim_device.h).
 *
 * Fixtures: random satisfiable circuits of 2^6 and 2^10 rows (the shape of
 * `cuzk bench prove`: seeds, products, then the input rows) with INSECURE
 * test keys from groth16_setup, in both conventions; more witnesses of the
 * same circuit by re-drawing its seed wires and re-evaluating the rows.
 *
 * Covered: proofs of snarkjs and bellperson jobs equal the CPU prover's for
 * fixed r, s byte for byte (witnesses as .wtns bytes and as fr_t arrays);
 * multi-partition jobs assembled in order; CRITICAL overtaking queued
 * NORMAL work; the critical lane (a CRITICAL job witnessed while NORMAL
 * synthesis holds the pool, and proved beside a running NORMAL proof on the
 * device's lane worker, which no NORMAL flood ever reaches); LOW finishing
 * under a HIGH flood thanks to aging (and last without it); idempotent
 * request ids; reserved kinds and bad specs refused;
 * cancellation of queued jobs, of a job waiting in the ledger and of a
 * proving job (no reservation left); await timeouts; failure injection at
 * every stage (plan, backend_new, prove with and without a retry on another
 * device, corrupt .wtns, a witness breaking constraint N, a key without a
 * check) with the engine serving a good job afterwards; key residency (LRU
 * eviction, keys in use kept, streaming, preload/evict, preference for the
 * device holding the key); the predecessor's two-worker scenario; events for
 * every stage; a stress run on three devices under a watchdog.
 * Rerun with CUZK_TEST_SEED=<seed>; CUZK_TEST_ITERS scales the stress run. */
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/encode.h"
#include "cuzk/engine.h"
#include "sim_device.h"
#include "cuzk/setup.h"

#define KIB ((size_t)1024)
#define MS 1000000ull

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- circuits and witnesses ---- */

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(fr_t *out, uint64_t *s)
{
    uint64_t l[FR_LIMBS];
    for (int i = 0; i < FR_LIMBS; i++)
        l[i] = next_rand(s);
    l[FR_LIMBS - 1] &= 0x0fffffffffffffffULL;
    fr_from_limbs(out, l);
}

/* 90% bits, 10% random: most witness values 0 or 1, as in Filecoin. */
static void rand_seed_value(fr_t *out, uint64_t *s)
{
    uint64_t r = next_rand(s) % 10;
    if (r < 9)
        *out = r < 5 ? FR_ZERO : FR_ONE;
    else
        rand_fr(out, s);
}

typedef struct shape {
    uint32_t n_in, seeds, rows; /* rows: the product rows before the input rows */
} shape_t;

static shape_t shape_of(unsigned log_m)
{
    uint32_t m = 1u << log_m, n_in = 2;
    uint32_t rows = m - n_in;
    return (shape_t){n_in, rows / 8 + 2, rows};
}

/* A random circuit of exactly 2^log_m rows and a witness (bench_prove.c's
 * make_circuit): row i multiplies one or two earlier variables by another
 * into variable n_in + seeds + i; then the input rows A = w_k. */
static void make_circuit(circuit_t *c, fr_t **w_out, unsigned log_m, uint64_t seed)
{
    shape_t sh = shape_of(log_m);
    uint32_t n_vars = sh.n_in + sh.seeds + sh.rows;
    fr_t *w = malloc((size_t)n_vars * sizeof *w);
    circuit_builder_t *b = circuit_builder_new(1u << log_m, n_vars, 1);
    assert_non_null(w);
    assert_non_null(b);
    uint64_t s = seed;
    w[0] = FR_ONE;
    for (uint32_t j = sh.n_in; j < sh.n_in + sh.seeds; j++)
        rand_seed_value(&w[j], &s);
    for (uint32_t i = 0; i < sh.rows; i++) {
        uint32_t avail = sh.seeds + i, out = sh.n_in + avail;
        uint32_t x = sh.n_in + (uint32_t)(next_rand(&s) % avail);
        uint32_t y = sh.n_in + (uint32_t)(next_rand(&s) % avail);
        uint32_t z = sh.n_in + (uint32_t)(next_rand(&s) % avail);
        fr_t a = w[x];
        assert_int_equal(circuit_builder_add(b, CIRCUIT_A, i, x, &FR_ONE, NULL), CUZK_OK);
        if (i % 2) {
            fr_add(&a, &a, &w[z]);
            assert_int_equal(circuit_builder_add(b, CIRCUIT_A, i, z, &FR_ONE, NULL), CUZK_OK);
        }
        assert_int_equal(circuit_builder_add(b, CIRCUIT_B, i, y, &FR_ONE, NULL), CUZK_OK);
        assert_int_equal(circuit_builder_add(b, CIRCUIT_C, i, out, &FR_ONE, NULL), CUZK_OK);
        fr_mul(&w[out], &a, &w[y]);
    }
    w[1] = w[n_vars - 1];
    for (uint32_t k = 0; k < sh.n_in; k++)
        assert_int_equal(circuit_builder_add(b, CIRCUIT_A, sh.rows + k, k, &FR_ONE, NULL), CUZK_OK);
    assert_int_equal(circuit_builder_finish(c, b, NULL), CUZK_OK);
    *w_out = w;
}

static void eval_row(fr_t *out, const circuit_t *c, circuit_matrix m, uint32_t row, const fr_t *w)
{
    const circuit_csr_t *M = &c->m[m];
    *out = FR_ZERO;
    for (uint64_t e = M->row_ptr[row]; e < M->row_ptr[row + 1]; e++) {
        fr_t t;
        fr_mul(&t, &c->dict[M->coef[e]], &w[M->col[e]]);
        fr_add(out, out, &t);
    }
}

/* Another satisfying witness of c: new seed values, rows re-evaluated. */
static fr_t *witness_variant(const circuit_t *c, unsigned log_m, uint64_t seed)
{
    shape_t sh = shape_of(log_m);
    fr_t *w = calloc(c->n_vars, sizeof *w);
    assert_non_null(w);
    uint64_t s = seed;
    w[0] = FR_ONE;
    for (uint32_t j = sh.n_in; j < sh.n_in + sh.seeds; j++)
        rand_seed_value(&w[j], &s);
    for (uint32_t i = 0; i < sh.rows; i++) {
        fr_t a, b;
        eval_row(&a, c, CIRCUIT_A, i, w);
        eval_row(&b, c, CIRCUIT_B, i, w);
        fr_mul(&w[sh.n_in + sh.seeds + i], &a, &b);
    }
    w[1] = w[c->n_vars - 1];
    uint32_t bad = 0;
    assert_int_equal(circuit_check(&bad, c, w, 1), CUZK_OK);
    assert_int_equal(bad, UINT32_MAX);
    return w;
}

/* A .wtns (version 2) file image of w. */
static uint8_t *wtns_bytes(const fr_t *w, uint32_t n, size_t *len)
{
    size_t size = 12 + (12 + 40) + (12 + (size_t)n * 32);
    uint8_t *p = calloc(1, size), *q = p;
    assert_non_null(p);
#define PUT32(v)                                                                                   \
    (q[0] = (uint8_t)(v), q[1] = (uint8_t)((v) >> 8), q[2] = (uint8_t)((v) >> 16),                 \
     q[3] = (uint8_t)((v) >> 24), q += 4)
#define PUT64(v) (PUT32((uint32_t)(v)), PUT32((uint32_t)((uint64_t)(v) >> 32)))
    memcpy(q, "wtns", 4);
    q += 4;
    PUT32(2u);
    PUT32(2u);
    PUT32(1u);
    PUT64(40u);
    PUT32(32u);
    for (int i = 0; i < FR_LIMBS; i++)
        PUT64(FR_MODULUS[i]);
    PUT32(n);
    PUT32(2u);
    PUT64((uint64_t)n * 32);
    for (uint32_t i = 0; i < n; i++, q += 32)
        fr_to_le(q, &w[i]);
#undef PUT32
#undef PUT64
    *len = size;
    return p;
}

typedef struct fixture {
    unsigned log_m;
    circuit_t c;
    fr_t *w;
    groth16_key_t key;
    groth16_pk_t pk;
} fixture_t;

static fixture_t g_bp, g_sj, g_bp10, g_bp2;

static void fixture_make(fixture_t *f, groth16_convention conv, unsigned log_m, uint64_t seed)
{
    memset(f, 0, sizeof *f);
    f->log_m = log_m;
    make_circuit(&f->c, &f->w, log_m, seed);
    cuzk_error_t err = {0};
    assert_int_equal(groth16_setup(&f->key, &f->c, conv, seed + 1, 1, &err), CUZK_OK);
    groth16_key_pk(&f->pk, &f->key);
}

static void fixture_free(fixture_t *f)
{
    groth16_key_free(&f->key);
    circuit_free(&f->c);
    free(f->w);
}

static void proof_bytes(uint8_t out[192], const groth16_proof_t *p)
{
    g1_compress(out, &p->a);
    g2_compress(out + 48, &p->b);
    g1_compress(out + 144, &p->c);
}

/* The CPU prover's proof, directly. */
static void reference_proof(uint8_t out[192], const fixture_t *f, const fr_t *w, const fr_t *r,
                            const fr_t *s)
{
    groth16_proof_t p;
    groth16_prove_opts_t opts = {.threads = 1};
    cuzk_error_t err = {0};
    assert_int_equal(groth16_prove(&p, &f->pk, &f->c, w, r, s, &GROTH16_BACKEND_CPU, &opts, &err),
                     CUZK_OK);
    proof_bytes(out, &p);
}

/* ---- what a watchdog (test_util.h) prints when a body hangs ---- */

static void dump_engine(void *ctx)
{
    engine_t *e = ctx;
    if (!e)
        return;
    engine_stats_t st;
    engine_stats(e, &st);
    fprintf(stderr, "  witness queue %u %u %u %u, ready %u %u %u %u, witnessing %u\n",
            st.witness_queue[0], st.witness_queue[1], st.witness_queue[2], st.witness_queue[3],
            st.ready_queue[0], st.ready_queue[1], st.ready_queue[2], st.ready_queue[3],
            st.witnessing);
    for (unsigned d = 0; d < st.n_devices; d++)
        fprintf(stderr, "  device %s: busy %u/%u reserved %zu persistent %zu waiters %u\n",
                st.devices[d].name, st.devices[d].busy_workers, st.devices[d].workers,
                st.devices[d].ledger.reserved, st.devices[d].ledger.persistent,
                st.devices[d].ledger.waiters);
}

/* ---- events ---- */

typedef struct evlog {
    pthread_mutex_t mu;
    engine_event_t *ev;
    size_t n, cap;
} evlog_t;

static void on_event(void *ctx, const engine_event_t *ev)
{
    evlog_t *l = ctx;
    pthread_mutex_lock(&l->mu);
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        engine_event_t *p = realloc(l->ev, cap * sizeof *p);
        if (p) {
            l->ev = p;
            l->cap = cap;
        }
    }
    if (l->n < l->cap)
        l->ev[l->n++] = *ev;
    pthread_mutex_unlock(&l->mu);
}

/* Every stage of a DONE job was reported: a witness, an admit and a prove
 * per partition (the last two on a device), one verify. */
static void check_events(evlog_t *l, engine_job_id_t id, size_t parts)
{
    unsigned wit = 0, adm = 0, prv = 0, ver = 0, parts_seen = 0;
    pthread_mutex_lock(&l->mu);
    for (size_t i = 0; i < l->n; i++) {
        const engine_event_t *ev = &l->ev[i];
        if (ev->job != id)
            continue;
        assert_true(ev->start_ns <= ev->end_ns);
        assert_string_equal(ev->stage_name, engine_stage_str(ev->stage));
        if (ev->status != CUZK_OK)
            continue;
        switch (ev->stage) {
        case ENGINE_STAGE_WITNESS:
            assert_int_equal(ev->device, -1);
            assert_in_range(ev->partition, 0, parts - 1);
            wit++;
            break;
        case ENGINE_STAGE_ADMIT:
            assert_true(ev->device >= 0);
            adm++;
            break;
        case ENGINE_STAGE_PROVE:
            assert_true(ev->device >= 0);
            prv++;
            break;
        case ENGINE_STAGE_VERIFY:
            assert_int_equal(ev->device, -1);
            assert_int_equal(ev->partition, -1);
            ver++;
            break;
        default: /* a prove's part: on a device, for a partition */
            assert_true(ev->stage < ENGINE_STAGE_COUNT);
            assert_true(ev->device >= 0);
            assert_in_range(ev->partition, 0, parts - 1);
            parts_seen++;
            break;
        }
    }
    pthread_mutex_unlock(&l->mu);
    assert_int_equal(wit, parts);
    assert_true(adm >= parts);
    assert_int_equal(prv, parts);
    assert_int_equal(ver, 1);
    assert_true(parts_seen >= parts); /* at least one timed part per prove */
}

/* ---- job ends (engine_config_t.on_done) ---- */

#define DONE_MAX 512

typedef struct donelog {
    pthread_mutex_t mu;
    engine_t **e;
    evlog_t *events;
    engine_done_t d[DONE_MAX];
    size_t ev_at[DONE_MAX]; /* events logged when it came */
    size_t n;
    unsigned not_final; /* engine_await did not return its final state at once */
} donelog_t;

static void on_done(void *ctx, const engine_done_t *d)
{
    donelog_t *l = ctx;
    engine_result_t res;
    memset(&res, 0, sizeof res);
    /* The result must already be final: no wait. */
    cuzk_status st = engine_await(*l->e, d->job, 0, &res, NULL);
    int filled = st != CUZK_ERR_TIMEOUT && res.id == d->job; /* a FAILED job's error may be ARG */
    int ok = filled && (int)res.state == d->state && d->state >= ENGINE_JOB_DONE &&
             (st == CUZK_OK) == (d->state == ENGINE_JOB_DONE);
    if (filled)
        engine_result_free(&res);
    pthread_mutex_lock(&l->events->mu);
    size_t at = l->events->n;
    pthread_mutex_unlock(&l->events->mu);
    pthread_mutex_lock(&l->mu);
    if (l->n < DONE_MAX) {
        l->d[l->n] = *d;
        l->ev_at[l->n] = at;
    }
    l->n++;
    l->not_final += !ok;
    pthread_mutex_unlock(&l->mu);
}

/* Every job submitted got exactly one on_done, with its final state and
 * the user pointer of its spec, after all of its events. */
static void check_done(const donelog_t *l, const evlog_t *ev, uint64_t submitted, void *user)
{
    assert_int_equal(l->n, submitted);
    assert_true(l->n <= DONE_MAX);
    assert_int_equal(l->not_final, 0);
    for (size_t i = 0; i < l->n; i++) {
        assert_ptr_equal(l->d[i].user, user);
        for (size_t k = i + 1; k < l->n; k++)
            assert_true(l->d[i].job != l->d[k].job);
        for (size_t k = l->ev_at[i]; k < ev->n; k++)
            assert_true(ev->ev[k].job != l->d[i].job);
    }
    for (size_t k = 0; k < ev->n; k++)
        assert_ptr_equal(ev->ev[k].user, ev->ev[k].job ? user : NULL);
}

/* ---- a rig: an engine over simulated devices ---- */

#define MAX_DEV 3

static int g_key_destroyed;

static void key_destroyed(void *ctx)
{
    (void)ctx;
    __atomic_add_fetch(&g_key_destroyed, 1, __ATOMIC_SEQ_CST);
}

typedef struct rig {
    engine_t *e;
    int n;
    engine_sim_t *sim[MAX_DEV];
    device_t dev[MAX_DEV];
    engine_config_t cfg;
    evlog_t log;
    donelog_t done;
    engine_key_t *kbp, *ksj, *kbp10;
} rig_t;

/* The one rig of the running test. Static, not on the test's stack: a
 * failed assertion leaves the test by longjmp, and rig_teardown must then
 * stop an engine whose callbacks still write into the rig. */
static rig_t g_rig;
static int g_rig_live; /* an engine of g_rig is running */

static rig_t *rig_slot(void)
{
    return &g_rig;
}

static const engine_sim_config_t SIM_DEFAULT = {
    .resident_per_row = 1024, .scratch_per_row = 1024, .stream_per_row = 512};

/* n devices of caps[i] bytes and workers[i] workers; adjust r->cfg and the
 * sims before rig_start. */
static void rig_init(rig_t *r, int n, const size_t *caps, const int *workers,
                     const engine_sim_config_t *sc)
{
    static const char *const names[MAX_DEV] = {"sim0", "sim1", "sim2"};
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->log.mu, NULL);
    r->n = n;
    for (int i = 0; i < n; i++) {
        assert_int_equal(engine_sim_new(&r->sim[i], sc ? sc : &SIM_DEFAULT, NULL), CUZK_OK);
        engine_sim_device(&r->dev[i], r->sim[i], names[i], caps[i], workers[i]);
    }
    engine_config_default(&r->cfg);
    r->cfg.devices = r->dev;
    r->cfg.n_devices = (unsigned)n;
    r->cfg.prove_threads = 1;
    r->cfg.witness_threads = 2;
    r->cfg.witness_nice = 3; /* the pool runs below the device workers */
    r->cfg.on_event = on_event;
    r->cfg.event_ctx = &r->log;
    pthread_mutex_init(&r->done.mu, NULL);
    r->done.e = &r->e;
    r->done.events = &r->log;
    r->cfg.on_done = on_done;
    r->cfg.done_ctx = &r->done;
}

static engine_key_t *rig_key(rig_t *r, const fixture_t *f, const char *name, int check)
{
    engine_key_spec_t ks = {.name = name,
                            .pk = &f->pk,
                            .circuit = &f->c,
                            .check = check ? &f->c : NULL,
                            .destroy = key_destroyed};
    engine_key_t *k = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(engine_key_register(r->e, &k, &ks, &err), CUZK_OK);
    return k;
}

static void rig_start(rig_t *r)
{
    cuzk_error_t err = {0};
    if (engine_new(&r->e, &r->cfg, &err) != CUZK_OK)
        fail_msg("engine_new: %s", err.msg);
    g_rig_live = r == &g_rig;
    r->kbp = rig_key(r, &g_bp, "bp6", 1);
    r->ksj = rig_key(r, &g_sj, "sj6", 1);
    r->kbp10 = rig_key(r, &g_bp10, "bp10", 1);
}

/* Waits (up to 5 s) until no device has a stage reservation, a waiter or a
 * busy worker: an evicted key's reservation lasts until its idle holders
 * have dropped it, which they do as soon as they wake. */
static void rig_settle(rig_t *r)
{
    for (int i = 0; i < 5000; i++) {
        engine_stats_t st;
        engine_stats(r->e, &st);
        int quiet = 1;
        for (int d = 0; d < r->n; d++)
            quiet &= st.devices[d].ledger.reserved == st.devices[d].ledger.persistent &&
                     st.devices[d].ledger.waiters == 0 && st.devices[d].busy_workers == 0;
        if (quiet)
            return;
        sleep_ms(1);
    }
}

/* No stage reservation left anywhere: reserved == persistent, no waiter. */
static void rig_check_ledgers(rig_t *r)
{
    rig_settle(r);
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.n_devices, (unsigned)r->n);
    for (int d = 0; d < r->n; d++) {
        assert_int_equal(st.devices[d].ledger.reserved, st.devices[d].ledger.persistent);
        assert_int_equal(st.devices[d].ledger.waiters, 0);
        assert_int_equal(st.devices[d].busy_workers, 0);
    }
}

/* What the backends keep on each device between proofs is reserved: a key
 * that travelled with a proof left nothing behind, and an evicted one is
 * gone from every backend once its reservation is. */
static void rig_check_held(rig_t *r)
{
    rig_settle(r);
    engine_stats_t st;
    engine_stats(r->e, &st);
    for (int d = 0; d < r->n; d++) {
        size_t held = engine_sim_held_bytes(r->sim[d]);
        if (held > st.devices[d].ledger.persistent)
            fail_msg("device %d holds %zu bytes between proofs, its ledger reserves %zu", d, held,
                     st.devices[d].ledger.persistent);
    }
}

static void rig_stop(rig_t *r)
{
    rig_check_ledgers(r);
    int before = __atomic_load_n(&g_key_destroyed, __ATOMIC_SEQ_CST);
    engine_key_release(r->e, r->kbp);
    engine_key_release(r->e, r->ksj);
    engine_key_release(r->e, r->kbp10);
    engine_stats_t st;
    engine_stats(r->e, &st);
    uint64_t submitted = 0;
    for (int k = 0; k < ENGINE_KIND_COUNT; k++)
        submitted += st.kinds[k].submitted;
    engine_destroy(r->e); /* cancels what is left: those end too */
    g_rig_live = 0;
    check_done(&r->done, &r->log, submitted, r);
    /* three keys, each destroyed exactly once (by release or destroy) */
    assert_int_equal(__atomic_load_n(&g_key_destroyed, __ATOMIC_SEQ_CST) - before, 3);
    for (int i = 0; i < r->n; i++) {
        engine_sim_stats_t ss;
        engine_sim_stats(r->sim[i], &ss);
        assert_int_equal(ss.live, 0); /* every backend freed */
        engine_sim_free(r->sim[i]);
    }
    free(r->log.ev);
    pthread_mutex_destroy(&r->log.mu);
    pthread_mutex_destroy(&r->done.mu);
}

typedef struct job_in {
    engine_kind kind;
    engine_key_t *key;
    cuzk_priority prio;
    const fr_t *ws[8];
    size_t n;
    int as_wtns;
    int fixed;
    fr_t r, s;
} job_in_t;

static cuzk_status submit_job(rig_t *r, engine_job_id_t *id, const job_in_t *in, const fixture_t *f,
                              cuzk_error_t *err)
{
    engine_witness_t wit[8];
    uint8_t *bytes[8] = {0};
    for (size_t i = 0; i < in->n; i++) {
        if (in->as_wtns) {
            size_t len = 0;
            bytes[i] = wtns_bytes(in->ws[i], f->pk.n_vars, &len);
            wit[i] = (engine_witness_t){.form = ENGINE_WITNESS_WTNS, .wtns = bytes[i], .size = len};
        } else {
            wit[i] =
                (engine_witness_t){.form = ENGINE_WITNESS_FR, .w = in->ws[i], .n = f->pk.n_vars};
        }
    }
    engine_job_spec_t spec = {.kind = in->kind,
                              .user = r,
                              .priority = in->prio,
                              .key = in->key,
                              .witnesses = wit,
                              .n_partitions = in->n,
                              .fixed_rs = in->fixed,
                              .r = in->r,
                              .s = in->s};
    cuzk_status st = engine_submit(r->e, id, &spec, err);
    for (size_t i = 0; i < in->n; i++)
        free(bytes[i]); /* copied at submit */
    return st;
}

/* A one-partition bellperson job with the fixture's witness. */
static engine_job_id_t submit_simple(rig_t *r, cuzk_priority prio)
{
    job_in_t in = {.kind = ENGINE_KIND_BELLPERSON, .key = r->kbp, .prio = prio, .n = 1};
    in.ws[0] = g_bp.w;
    engine_job_id_t id = 0;
    cuzk_error_t err = {0};
    if (submit_job(r, &id, &in, &g_bp, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    return id;
}

static void await_ok(rig_t *r, engine_job_id_t id, engine_result_t *res)
{
    cuzk_error_t err = {0};
    cuzk_status st = engine_await(r->e, id, 60000, res, &err);
    if (st != CUZK_OK)
        fail_msg("job %llu: %s: %s", (unsigned long long)id, cuzk_status_str(st), err.msg);
    assert_int_equal(res->state, ENGINE_JOB_DONE);
}

/* A good job still goes through. */
static void good_job(rig_t *r)
{
    engine_result_t res;
    await_ok(r, submit_simple(r, CUZK_PRIO_NORMAL), &res);
    engine_result_free(&res);
}

static void wait_state(rig_t *r, engine_job_id_t id, engine_job_state want)
{
    for (int i = 0; i < 10000; i++) {
        engine_job_info_t info;
        assert_int_equal(engine_job_status(r->e, &info, id, NULL), CUZK_OK);
        if (info.state == want)
            return;
        sleep_ms(1);
    }
    fail_msg("job %llu never reached state %s", (unsigned long long)id, engine_job_state_str(want));
}

static void wait_proves(engine_sim_t *s, uint64_t n)
{
    for (int i = 0; i < 10000; i++) {
        engine_sim_stats_t ss;
        engine_sim_stats(s, &ss);
        if (ss.proves >= n)
            return;
        sleep_ms(1);
    }
    fail_msg("the simulated device never started %llu proofs", (unsigned long long)n);
}

/* Every worker started and waiting for work. */
static void wait_idle(rig_t *r)
{
    for (int i = 0; i < 5000; i++) {
        engine_stats_t st;
        engine_stats(r->e, &st);
        int all = 1;
        for (int d = 0; d < r->n; d++)
            all &= st.devices[d].idle_workers == st.devices[d].workers;
        if (all)
            return;
        sleep_ms(1);
    }
    fail_msg("workers never all idle");
}

static const size_t CAP_BIG[MAX_DEV] = {4096 * KIB, 4096 * KIB, 4096 * KIB};
static const int ONE_WORKER[MAX_DEV] = {1, 1, 1};
static const int TWO_WORKERS[MAX_DEV] = {2, 2, 2};

/* ---- tests ---- */

/* Both conventions, both witness forms, 2^6 and 2^10: the engine's proofs
 * are the CPU prover's byte for byte, and every stage was reported. */
static void test_matches_cpu(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    rig_start(r);
    uint64_t seed = tu_rand64();
    fr_t rr, ss;
    rand_fr(&rr, &seed);
    rand_fr(&ss, &seed);
    struct {
        const fixture_t *f;
        engine_key_t *k;
        engine_kind kind;
        int as_wtns;
    } cases[] = {
        {&g_sj, r->ksj, ENGINE_KIND_SNARKJS, 1},        {&g_sj, r->ksj, ENGINE_KIND_SNARKJS, 0},
        {&g_bp, r->kbp, ENGINE_KIND_BELLPERSON, 0},     {&g_bp, r->kbp, ENGINE_KIND_BELLPERSON, 1},
        {&g_bp10, r->kbp10, ENGINE_KIND_BELLPERSON, 1},
    };
    enum { NC = sizeof cases / sizeof cases[0] };
    engine_job_id_t ids[NC];
    for (int i = 0; i < NC; i++) {
        job_in_t in = {.kind = cases[i].kind,
                       .key = cases[i].k,
                       .prio = CUZK_PRIO_NORMAL,
                       .n = 1,
                       .as_wtns = cases[i].as_wtns,
                       .fixed = 1,
                       .r = rr,
                       .s = ss};
        in.ws[0] = cases[i].f->w;
        cuzk_error_t err = {0};
        assert_int_equal(submit_job(r, &ids[i], &in, cases[i].f, &err), CUZK_OK);
        assert_true(ids[i] > 0);
    }
    for (int i = 0; i < NC; i++) {
        const fixture_t *f = cases[i].f;
        engine_result_t res;
        await_ok(r, ids[i], &res);
        assert_int_equal(res.n_partitions, 1);
        assert_int_equal(res.kind, cases[i].kind);
        assert_int_equal(res.n_public, f->pk.n_public);
        assert_true(fr_equal(&res.public_inputs[0], &f->w[1]));
        uint8_t got[192], want[192];
        proof_bytes(got, &res.proofs[0]);
        reference_proof(want, f, f->w, &rr, &ss);
        assert_memory_equal(got, want, 192);
        int valid = 0;
        assert_int_equal(groth16_verify(&valid, &f->pk.vk, &res.proofs[0], res.public_inputs,
                                        res.n_public, NULL),
                         CUZK_OK);
        assert_true(valid);
        assert_int_equal(res.timings[0].device, 0);
        assert_int_equal(res.timings[0].attempts, 1);
        assert_int_equal(res.timings[0].streamed, 0);
        assert_true(res.done_ns >= res.submit_ns);
        check_events(&r->log, ids[i], 1);
        engine_result_free(&res);
        /* await again: still retained, same answer */
        assert_int_equal(engine_await(r->e, ids[i], 0, &res, NULL), CUZK_OK);
        engine_result_free(&res);
    }
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.kinds[ENGINE_KIND_SNARKJS].done, 2);
    assert_int_equal(st.kinds[ENGINE_KIND_BELLPERSON].done, 3);
    assert_int_equal(st.devices[0].proofs, NC);
    assert_int_equal(st.devices[0].resident_keys, 3);
    rig_stop(r);
}

/* ENGINE_WITNESS_FN: the witness is made in the witness stage (one call per
 * partition, none at submit), proofs equal the CPU's, and a generator's
 * error fails the job with its message. */
typedef struct gen_ctx {
    const fr_t *w;
    size_t n;
    int fail;
    int calls;
    int threads; /* what the last call was given */
} gen_ctx_t;

static cuzk_status gen_fill(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    gen_ctx_t *g = ctx;
    __atomic_add_fetch(&g->calls, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&g->threads, threads, __ATOMIC_SEQ_CST);
    if (g->fail)
        return cuzk_error_set(err, CUZK_ERR_IO, "generator broke on purpose");
    assert_int_equal(n, g->n);
    memcpy(w, g->w, n * sizeof *w);
    return CUZK_OK;
}

static void test_witness_fn(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    rig_start(r);
    uint64_t seed = tu_rand64();
    fr_t rr, ss;
    rand_fr(&rr, &seed);
    rand_fr(&ss, &seed);
    fr_t *w2 = witness_variant(&g_bp.c, g_bp.log_m, seed);
    gen_ctx_t g[3] = {{g_bp.w, g_bp.pk.n_vars, 0, 0, 0},
                      {w2, g_bp.pk.n_vars, 0, 0, 0},
                      {g_bp.w, g_bp.pk.n_vars, 0, 0, 0}};
    engine_witness_t wit[3];
    for (int i = 0; i < 3; i++)
        wit[i] = (engine_witness_t){.form = ENGINE_WITNESS_FN, .fn = gen_fill, .ctx = &g[i]};
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .priority = CUZK_PRIO_NORMAL,
                              .key = r->kbp,
                              .witnesses = wit,
                              .n_partitions = 3,
                              .fixed_rs = 1,
                              .r = rr,
                              .s = ss};
    engine_job_id_t id = 0;
    cuzk_error_t err = {0};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    engine_result_t res;
    await_ok(r, id, &res);
    assert_int_equal(res.n_partitions, 3);
    for (int i = 0; i < 3; i++) {
        uint8_t got[192], want[192];
        proof_bytes(got, &res.proofs[i]);
        reference_proof(want, &g_bp, g[i].w, &rr, &ss);
        assert_memory_equal(got, want, 192);
        assert_int_equal(g[i].calls, 1);
    }
    engine_result_free(&res);

    /* a failing generator fails the job, naming why */
    g[1].fail = 1;
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    assert_int_equal(engine_await(r->e, id, 60000, &res, &err), CUZK_ERR_IO);
    assert_int_equal(res.state, ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error.msg, "generator broke on purpose"));
    engine_result_free(&res);

    /* no generator: refused at submit */
    wit[0].fn = NULL;
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "partition 0"));
    free(w2);
    good_job(r);
    rig_stop(r);
}

/* The witness stage's cores follow the witnesses in the making: a pool of
 * 3 threads with stage_threads 2 has 6 cores; three witnesses made at
 * once get 6, 3 and 2 (the first one alone, then shared), and a witness
 * alone afterwards gets all 6. */
typedef struct meet_ctx {
    gen_ctx_t g[3];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int arrived;
} meet_ctx_t;

typedef struct meet_part {
    meet_ctx_t *m;
    int i;
} meet_part_t;

/* Records its threads, then waits until all three are in the stage. */
static cuzk_status meet_fill(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    meet_part_t *p = ctx;
    meet_ctx_t *m = p->m;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 20;
    pthread_mutex_lock(&m->mu);
    m->arrived++;
    pthread_cond_broadcast(&m->cv);
    while (m->arrived < 3 && pthread_cond_timedwait(&m->cv, &m->mu, &until) == 0)
        ;
    pthread_mutex_unlock(&m->mu);
    return gen_fill(&m->g[p->i], w, n, threads, err);
}

static void test_witness_share(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.witness_threads = 3;
    r->cfg.stage_threads = 2;
    r->cfg.ready_max = 4;
    r->cfg.critical_lane = 0;
    rig_start(r);
    meet_ctx_t m = {.arrived = 0};
    pthread_mutex_init(&m.mu, NULL);
    pthread_cond_init(&m.cv, NULL);
    meet_part_t parts[3];
    engine_witness_t wit[3];
    for (int i = 0; i < 3; i++) {
        m.g[i] = (gen_ctx_t){g_bp.w, g_bp.pk.n_vars, 0, 0, 0};
        parts[i] = (meet_part_t){&m, i};
        wit[i] = (engine_witness_t){.form = ENGINE_WITNESS_FN, .fn = meet_fill, .ctx = &parts[i]};
    }
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .priority = CUZK_PRIO_NORMAL,
                              .key = r->kbp,
                              .witnesses = wit,
                              .n_partitions = 3};
    engine_job_id_t id = 0;
    cuzk_error_t err = {0};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    engine_result_t res;
    await_ok(r, id, &res);
    engine_result_free(&res);
    assert_int_equal(m.arrived, 3); /* all three were in the stage at once */
    int seen[7] = {0};
    for (int i = 0; i < 3; i++) {
        int t = m.g[i].threads;
        assert_true(t >= 1 && t <= 6);
        seen[t]++;
    }
    assert_int_equal(seen[6], 1);
    assert_int_equal(seen[3], 1);
    assert_int_equal(seen[2], 1);

    /* alone: the whole pool */
    gen_ctx_t lone = {g_bp.w, g_bp.pk.n_vars, 0, 0, 0};
    engine_witness_t w1 = {.form = ENGINE_WITNESS_FN, .fn = gen_fill, .ctx = &lone};
    spec.witnesses = &w1;
    spec.n_partitions = 1;
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    await_ok(r, id, &res);
    engine_result_free(&res);
    assert_int_equal(lone.threads, 6);
    rig_stop(r);
    pthread_cond_destroy(&m.cv);
    pthread_mutex_destroy(&m.mu);
}

/* The witness buffers of ENGINE_WITNESS_FN come from the config's host
 * allocator and are reused: many partitions, few allocations, every one
 * freed by engine_destroy through host_free; a refusing allocator falls
 * back to malloc and proofs are unchanged. */
typedef struct host_hooks {
    int allocs, frees, refuse;
    size_t live;
} host_hooks_t;

static void *hook_alloc(void *ctx, size_t bytes)
{
    host_hooks_t *h = ctx;
    if (__atomic_load_n(&h->refuse, __ATOMIC_SEQ_CST))
        return NULL;
    void *p = malloc(bytes);
    if (p) {
        __atomic_add_fetch(&h->allocs, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&h->live, bytes, __ATOMIC_SEQ_CST);
        memset(p, 0xa5, bytes); /* a reused buffer is never assumed zero */
    }
    return p;
}

static void hook_free(void *ctx, void *p, size_t bytes)
{
    host_hooks_t *h = ctx;
    assert_non_null(p);
    __atomic_add_fetch(&h->frees, 1, __ATOMIC_SEQ_CST);
    __atomic_sub_fetch(&h->live, bytes, __ATOMIC_SEQ_CST);
    free(p);
}

/* Awaits job id and checks that each of its n proofs is want. */
static void await_proofs_equal(rig_t *r, engine_job_id_t id, int n, const uint8_t want[192])
{
    engine_result_t res;
    await_ok(r, id, &res);
    for (int i = 0; i < n; i++) {
        uint8_t got[192];
        proof_bytes(got, &res.proofs[i]);
        assert_memory_equal(got, want, 192);
    }
    engine_result_free(&res);
}

/* The device's allocator (its ctx is the device's, so the counts are
 * global). */
static host_hooks_t g_dev_hooks;

static void *dev_hook_alloc(void *ctx, size_t bytes)
{
    (void)ctx;
    return hook_alloc(&g_dev_hooks, bytes);
}

static void dev_hook_free(void *ctx, void *p, size_t bytes)
{
    (void)ctx;
    hook_free(&g_dev_hooks, p, bytes);
}

enum { POOL_CONFIG, POOL_REFUSE, POOL_CAPPED, POOL_DEVICE, POOL_VARIANTS };

/* jobs ENGINE_WITNESS_FN jobs of POOL_PARTS partitions, then one of .wtns
 * witnesses (parsed into pool buffers) and one of ENGINE_WITNESS_FR copies
 * (moved into them, with an allocator that gives memory): every proof the
 * CPU's for the fixture's witness. */
enum { POOL_PARTS = 4 };

static void pool_jobs(rig_t *r, int jobs)
{
    uint64_t seed = tu_rand64();
    fr_t rr, ss;
    rand_fr(&rr, &seed);
    rand_fr(&ss, &seed);
    gen_ctx_t g = {g_bp.w, g_bp.pk.n_vars, 0, 0, 0};
    engine_witness_t wit[POOL_PARTS];
    for (int i = 0; i < POOL_PARTS; i++)
        wit[i] = (engine_witness_t){.form = ENGINE_WITNESS_FN, .fn = gen_fill, .ctx = &g};
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .priority = CUZK_PRIO_NORMAL,
                              .key = r->kbp,
                              .witnesses = wit,
                              .n_partitions = POOL_PARTS,
                              .fixed_rs = 1,
                              .r = rr,
                              .s = ss};
    uint8_t want[192];
    reference_proof(want, &g_bp, g_bp.w, &rr, &ss);
    for (int j = 0; j < jobs; j++) {
        engine_job_id_t id = 0;
        cuzk_error_t err = {0};
        assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
        await_proofs_equal(r, id, POOL_PARTS, want);
    }
    for (int form = 0; form < 2; form++) {
        job_in_t in = {.kind = ENGINE_KIND_BELLPERSON,
                       .key = r->kbp,
                       .prio = CUZK_PRIO_NORMAL,
                       .n = POOL_PARTS,
                       .as_wtns = form == 0,
                       .fixed = 1,
                       .r = rr,
                       .s = ss};
        for (int i = 0; i < POOL_PARTS; i++)
            in.ws[i] = g_bp.w;
        engine_job_id_t id = 0;
        cuzk_error_t err = {0};
        assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
        await_proofs_equal(r, id, POOL_PARTS, want);
    }
}

static void test_witness_pool(void **state)
{
    (void)state;
    const size_t one = (size_t)g_bp.pk.n_vars * sizeof(fr_t);
    for (int variant = 0; variant < POOL_VARIANTS; variant++) {
        int refuse = variant == POOL_REFUSE;
        memset(&g_dev_hooks, 0, sizeof g_dev_hooks);
        host_hooks_t local = {0, 0, refuse, 0};
        host_hooks_t *hp = variant == POOL_DEVICE ? &g_dev_hooks : &local;
        rig_t *r = rig_slot();
        rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
        if (variant == POOL_DEVICE) { /* none in the config: the device's */
            r->dev[0].host_alloc = dev_hook_alloc;
            r->dev[0].host_free = dev_hook_free;
        } else {
            r->cfg.host_alloc = hook_alloc;
            r->cfg.host_free = hook_free;
            r->cfg.host_ctx = &local;
        }
        if (variant == POOL_CAPPED) /* room for one buffer: the rest from malloc */
            r->cfg.host_bytes_max = one + one / 2;
        r->cfg.witness_buffers = 3;
        rig_start(r);
        pool_jobs(r, 4);
        engine_stats_t st;
        engine_stats(r->e, &st);
        host_hooks_t *h = hp;
        assert_in_range(st.witness_pool_buffers, 1, 3);
        assert_int_equal(st.witness_pool_bytes, st.witness_pool_buffers * one);
        assert_int_equal(st.host_alloc_bytes, h->live);
        if (refuse) {
            assert_int_equal(h->allocs, 0);
        } else if (variant == POOL_CAPPED) {
            assert_int_equal(h->allocs, 1); /* kept and reused, never a second */
            assert_int_equal(h->live, one);
        } else {
            /* 24 partitions; every buffer ever made is either kept or was
             * dropped past the 3 kept */
            assert_in_range(h->allocs, 1, 24);
            assert_true((size_t)(h->allocs - h->frees) <= st.witness_pool_buffers);
        }
        rig_stop(r);
        assert_int_equal(h->allocs, h->frees);
        assert_int_equal(h->live, 0);
    }
}

/* engine_config_t.witness_pack: with ALWAYS every witness of every form
 * waits packed (the CPU sims take none, so the prover expands each) and
 * the proofs are the CPU's; only the witnesses in the making held a pool
 * buffer (no more were made than the pool's threads and the lane), and
 * the ready bytes are back to 0. AUTO packs nothing for devices
 * that take no packs, and where they do, only a witness whose pack is at
 * most half its bytes. */
static size_t g_full; /* the fixture witness's values other than 0 and 1 */

static void pack_round(engine_witness_pack mode, int takes, int want_packed)
{
    const size_t one = (size_t)g_bp.pk.n_vars * sizeof(fr_t);
    host_hooks_t local = {0, 0, 0, 0};
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    r->dev[0].takes_packed = takes;
    r->cfg.host_alloc = hook_alloc;
    r->cfg.host_free = hook_free;
    r->cfg.host_ctx = &local;
    r->cfg.witness_pack = mode;
    rig_start(r);
    pool_jobs(r, 1);
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.witnesses_packed, want_packed ? 3 * POOL_PARTS : 0);
    assert_int_equal(st.packed_bytes,
                     want_packed ? 3 * POOL_PARTS * fr_pack_bytes(g_bp.pk.n_vars, g_full) : 0);
    assert_int_equal(st.ready_bytes, 0);
    if (want_packed) /* 2 pool threads + the lane */
        assert_in_range(st.witness_pool_buffers, 1, 3);
    assert_int_equal(st.witness_pool_bytes, st.witness_pool_buffers * one);
    good_job(r);
    rig_stop(r);
    assert_int_equal(local.allocs, local.frees);
}

/* engine_witness_t.pack_fn: with packing on and a key that checks
 * nothing, the witness is made packed (fn never runs, no pool buffer is
 * taken) and the proofs are the CPU's; with packing off, or a key that
 * checks its witnesses, fn runs as before; a pack of the wrong length
 * fails its job, named. */
typedef struct pack_gen {
    gen_ctx_t g;
    int pack_calls;
    int short_by; /* make the pack this many values short */
} pack_gen_t;

static cuzk_status gen_fill_pack(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    return gen_fill(&((pack_gen_t *)ctx)->g, w, n, threads, err);
}

static cuzk_status gen_pack(void *ctx, fr_pack_t *pack, size_t n, int threads, cuzk_error_t *err)
{
    pack_gen_t *p = ctx;
    __atomic_add_fetch(&p->pack_calls, 1, __ATOMIC_SEQ_CST);
    assert_int_equal(n, p->g.n);
    return fr_pack_make(pack, p->g.w, n - (size_t)p->short_by, threads, err);
}

static void pack_fn_round(engine_witness_pack mode, int check, int want_pack_fn)
{
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    r->dev[0].takes_packed = 1;
    r->cfg.witness_pack = mode;
    rig_start(r);
    engine_key_t *k = rig_key(r, &g_bp, "bp6-pack", check);
    enum { PARTS = 3 };
    pack_gen_t pg = {{g_bp.w, g_bp.pk.n_vars, 0, 0, 0}, 0, 0};
    engine_witness_t wit[PARTS];
    for (int i = 0; i < PARTS; i++)
        wit[i] = (engine_witness_t){
            .form = ENGINE_WITNESS_FN, .fn = gen_fill_pack, .ctx = &pg, .pack_fn = gen_pack};
    uint64_t seed = tu_rand64();
    fr_t rr, ss;
    rand_fr(&rr, &seed);
    rand_fr(&ss, &seed);
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .priority = CUZK_PRIO_NORMAL,
                              .key = k,
                              .witnesses = wit,
                              .n_partitions = PARTS,
                              .fixed_rs = 1,
                              .r = rr,
                              .s = ss};
    uint8_t want[192];
    reference_proof(want, &g_bp, g_bp.w, &rr, &ss);
    engine_job_id_t id = 0;
    cuzk_error_t err = {0};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    await_proofs_equal(r, id, PARTS, want);
    assert_int_equal(pg.pack_calls, want_pack_fn ? PARTS : 0);
    assert_int_equal(pg.g.calls, want_pack_fn ? 0 : PARTS);
    engine_stats_t st;
    engine_stats(r->e, &st);
    if (want_pack_fn) {
        assert_int_equal(st.witnesses_packed, PARTS);
        assert_int_equal(st.witness_pool_buffers, 0); /* none was ever taken */
        /* a pack one value short fails the job, named */
        pg.short_by = 1;
        assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
        engine_result_t res;
        assert_int_equal(engine_await(r->e, id, 60000, &res, &err), CUZK_ERR_ARG);
        assert_int_equal(res.state, ENGINE_JOB_FAILED);
        assert_non_null(strstr(res.error.msg, "packed witness of"));
        engine_result_free(&res);
    }
    engine_key_release(r->e, k);
    good_job(r);
    rig_stop(r);
}

static void test_witness_pack_fn(void **state)
{
    (void)state;
    pack_fn_round(ENGINE_PACK_ALWAYS, 0, 1);
    pack_fn_round(ENGINE_PACK_AUTO, 0, 1);
    pack_fn_round(ENGINE_PACK_OFF, 0, 0);
    pack_fn_round(ENGINE_PACK_ALWAYS, 1, 0); /* the key checks: made whole, then packed */
}

static void test_witness_pack(void **state)
{
    (void)state;
    /* AUTO's half rule on the fixture's witness */
    size_t n = g_bp.pk.n_vars;
    g_full = 0;
    for (size_t i = 0; i < n; i++)
        g_full += !fr_is_zero(&g_bp.w[i]) && !fr_is_one(&g_bp.w[i]);
    int small = 2 * fr_pack_bytes(n, g_full) <= n * sizeof(fr_t);
    printf("fixture witness: %zu values, %zu neither 0 nor 1: packs %s half\n", n, g_full,
           small ? "within" : "beyond");
    pack_round(ENGINE_PACK_ALWAYS, 0, 1);
    pack_round(ENGINE_PACK_ALWAYS, 1, 1);
    pack_round(ENGINE_PACK_AUTO, 0, 0);
    pack_round(ENGINE_PACK_AUTO, 1, small);
    pack_round(ENGINE_PACK_OFF, 1, 0);
    assert_string_equal(engine_witness_pack_str(ENGINE_PACK_AUTO), "auto");
    assert_string_equal(engine_witness_pack_str(7), "invalid");
    assert_int_equal(engine_witness_pack_parse("always"), ENGINE_PACK_ALWAYS);
    assert_int_equal(engine_witness_pack_parse("off"), ENGINE_PACK_OFF);
    assert_int_equal(engine_witness_pack_parse("sometimes"), -1);
    assert_int_equal(engine_witness_pack_parse(NULL), -1);
}

/* Partitions of one job run on two devices and come back in order. */
static void test_multi_partition(void **state)
{
    (void)state;
    static const size_t caps[2] = {4096 * KIB, 512 * KIB};
    rig_t *r = rig_slot();
    rig_init(r, 2, caps, TWO_WORKERS, NULL);
    rig_start(r);
    enum { P = 5 };
    fr_t *ws[P];
    uint64_t seed = tu_rand64();
    for (int i = 0; i < P; i++)
        ws[i] = witness_variant(&g_bp.c, g_bp.log_m, seed + (uint64_t)i);
    job_in_t in = {.kind = ENGINE_KIND_BELLPERSON,
                   .key = r->kbp,
                   .prio = CUZK_PRIO_NORMAL,
                   .n = P,
                   .as_wtns = 1,
                   .fixed = 1};
    rand_fr(&in.r, &seed);
    rand_fr(&in.s, &seed);
    for (int i = 0; i < P; i++)
        in.ws[i] = ws[i];
    engine_job_id_t id;
    assert_int_equal(submit_job(r, &id, &in, &g_bp, NULL), CUZK_OK);
    engine_result_t res;
    await_ok(r, id, &res);
    assert_int_equal(res.n_partitions, P);
    for (int i = 0; i < P; i++) {
        uint8_t got[192], want[192];
        proof_bytes(got, &res.proofs[i]);
        reference_proof(want, &g_bp, ws[i], &in.r, &in.s);
        assert_memory_equal(got, want, 192);
        assert_true(fr_equal(&res.public_inputs[i * res.n_public], &ws[i][1]));
        assert_in_range(res.timings[i].device, 0, 1);
    }
    int valid = 0;
    assert_int_equal(
        groth16_verify_batch(&valid, &g_bp.pk.vk, res.proofs, P, res.public_inputs, NULL), CUZK_OK);
    assert_true(valid);
    check_events(&r->log, id, P);
    engine_job_info_t info;
    assert_int_equal(engine_job_status(r->e, &info, id, NULL), CUZK_OK);
    assert_int_equal(info.state, ENGINE_JOB_DONE);
    assert_int_equal(info.partitions_done, P);
    assert_int_equal(info.partitions_witnessed, P);
    assert_true(info.settled);
    engine_result_free(&res);
    for (int i = 0; i < P; i++)
        free(ws[i]);
    rig_stop(r);
}

/* One worker, a slow device: a CRITICAL job submitted behind a dozen NORMAL
 * ones overtakes those still queued. */
static void test_priority_critical(void **state)
{
    (void)state;
    enum { N = 12 };
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.ready_max = 2;
    engine_sim_set_delay(r->sim[0], 30000);
    rig_start(r);
    engine_job_id_t normal[N];
    for (int i = 0; i < N; i++)
        normal[i] = submit_simple(r, CUZK_PRIO_NORMAL);
    wait_proves(r->sim[0], 1);
    engine_job_id_t crit = submit_simple(r, CUZK_PRIO_CRITICAL);
    engine_result_t cres;
    await_ok(r, crit, &cres);
    unsigned before = 0;
    for (int i = 0; i < N; i++) {
        engine_result_t res;
        await_ok(r, normal[i], &res);
        before += res.done_ns < cres.done_ns;
        engine_result_free(&res);
    }
    printf("test_engine: CRITICAL finished after %u of %d queued NORMAL jobs\n", before, N);
    /* at most: the one proving, the ready ones, one more at the boundary */
    assert_true(before <= 4);
    engine_result_free(&cres);
    rig_stop(r);
}

/* The critical lane: a NORMAL job's synthesis holds the only pool thread
 * (its witness generator blocks until the CRITICAL job is done) and fills
 * the ready queue; the CRITICAL job is still witnessed (by the lane, one
 * past ready_max), proved by the next free worker and verified, so its
 * await returns. Without the lane it would wait for the NORMAL synthesis
 * forever (here: the generator's 20 s bound, then the await's timeout). */
typedef struct hold_ctx {
    gen_ctx_t g;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int released, held;
} hold_ctx_t;

static cuzk_status hold_fill(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    hold_ctx_t *h = ctx;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 20;
    pthread_mutex_lock(&h->mu);
    h->held = 1;
    pthread_cond_broadcast(&h->cv);
    while (!h->released && pthread_cond_timedwait(&h->cv, &h->mu, &until) == 0)
        ;
    pthread_mutex_unlock(&h->mu);
    return gen_fill(&h->g, w, n, threads, err);
}

static void lane_run(int lane)
{
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.witness_threads = 1;
    r->cfg.ready_max = 1;
    r->cfg.critical_lane = lane;
    rig_start(r);
    hold_ctx_t h = {.g = {g_bp.w, g_bp.pk.n_vars, 0, 0, 0}};
    pthread_mutex_init(&h.mu, NULL);
    pthread_cond_init(&h.cv, NULL);
    gen_ctx_t quick = {g_bp.w, g_bp.pk.n_vars, 0, 0, 0};
    engine_witness_t wit[2] = {{.form = ENGINE_WITNESS_FN, .fn = gen_fill, .ctx = &quick},
                               {.form = ENGINE_WITNESS_FN, .fn = hold_fill, .ctx = &h}};
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .priority = CUZK_PRIO_NORMAL,
                              .key = r->kbp,
                              .witnesses = wit,
                              .n_partitions = 2};
    engine_job_id_t normal = 0, crit = 0;
    cuzk_error_t err = {0};
    assert_int_equal(engine_submit(r->e, &normal, &spec, &err), CUZK_OK);
    pthread_mutex_lock(&h.mu);
    while (!h.held)
        pthread_cond_wait(&h.cv, &h.mu);
    pthread_mutex_unlock(&h.mu);
    /* the pool thread is in partition 1's synthesis, which fills the
     * ready queue (it counts while witnessed) */
    spec.priority = CUZK_PRIO_CRITICAL;
    spec.witnesses = &wit[0];
    spec.n_partitions = 1;
    assert_int_equal(engine_submit(r->e, &crit, &spec, &err), CUZK_OK);
    engine_result_t res;
    cuzk_status st = engine_await(r->e, crit, lane ? 60000 : 2000, &res, &err);
    if (lane) {
        if (st != CUZK_OK)
            fail_msg("the CRITICAL job did not finish while NORMAL synthesis held the pool: %s",
                     err.msg);
        assert_int_equal(res.state, ENGINE_JOB_DONE);
        engine_result_free(&res);
    } else {
        assert_int_equal(st, CUZK_ERR_TIMEOUT); /* what the lane is for */
    }
    pthread_mutex_lock(&h.mu);
    h.released = 1;
    pthread_cond_broadcast(&h.cv);
    pthread_mutex_unlock(&h.mu);
    await_ok(r, normal, &res);
    engine_result_free(&res);
    if (!lane) {
        await_ok(r, crit, &res);
        engine_result_free(&res);
    }
    rig_stop(r);
    pthread_cond_destroy(&h.cv);
    pthread_mutex_destroy(&h.mu);
}

static void test_critical_lane(void **state)
{
    (void)state;
    lane_run(1);
    lane_run(0);
}

/* The critical lane on a device. One worker proving a NORMAL partition
 * whose proof takes 1.5 s (its key's delay: a PoRep partition on the H200);
 * a CRITICAL snarkjs job (0.2 s: a WinningPoSt) submitted then proves
 * beside it on the lane's worker (two proofs at once, the lane seen busy in
 * the statistics) and is done well before that proof ends. Without the lane
 * it waits for it: >= 1.4 s. */
#define LANE_SLOW_US 1500000u
#define LANE_FAST_US 200000u

/* The end of the job's first successful prove to end (from the event
 * log): the proof that was running when the CRITICAL job came. Which
 * partition that is depends on which witness was ready first (under TSan
 * partition 1's may be). */
static uint64_t first_prove_end(rig_t *r, engine_job_id_t id)
{
    uint64_t end = 0;
    pthread_mutex_lock(&r->log.mu);
    for (size_t i = 0; i < r->log.n; i++) {
        const engine_event_t *ev = &r->log.ev[i];
        if (ev->job == id && ev->stage == ENGINE_STAGE_PROVE && ev->status == CUZK_OK &&
            (!end || ev->end_ns < end))
            end = ev->end_ns;
    }
    pthread_mutex_unlock(&r->log.mu);
    if (!end)
        fail_msg("job %llu: no prove", (unsigned long long)id);
    return end;
}

static void device_lane_run(int lane)
{
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.critical_lane = lane;
    assert_int_equal(engine_sim_set_key_delay(r->sim[0], &g_bp.c, LANE_SLOW_US, NULL), CUZK_OK);
    assert_int_equal(engine_sim_set_key_delay(r->sim[0], &g_sj.c, LANE_FAST_US, NULL), CUZK_OK);
    rig_start(r);
    wait_idle(r); /* idle counts the regular worker only */
    job_in_t in = {.kind = ENGINE_KIND_BELLPERSON, .key = r->kbp, .prio = CUZK_PRIO_NORMAL, .n = 2};
    in.ws[0] = in.ws[1] = g_bp.w;
    engine_job_id_t normal = 0, crit = 0;
    cuzk_error_t err = {0};
    assert_int_equal(submit_job(r, &normal, &in, &g_bp, &err), CUZK_OK);
    wait_proves(r->sim[0], 1); /* a partition is proving: 1.5 s from now */
    job_in_t cin = {.kind = ENGINE_KIND_SNARKJS, .key = r->ksj, .prio = CUZK_PRIO_CRITICAL, .n = 1};
    cin.ws[0] = g_sj.w;
    assert_int_equal(submit_job(r, &crit, &cin, &g_sj, &err), CUZK_OK);
    unsigned lane_busy = 0, busy = 0; /* the most seen */
    for (;;) {
        engine_job_info_t info;
        engine_stats_t st;
        engine_stats(r->e, &st);
        assert_int_equal(st.devices[0].workers, 1);
        assert_int_equal(st.devices[0].lane_workers, (unsigned)lane);
        lane_busy = st.devices[0].lane_busy > lane_busy ? st.devices[0].lane_busy : lane_busy;
        busy = st.devices[0].busy_workers > busy ? st.devices[0].busy_workers : busy;
        assert_int_equal(engine_job_status(r->e, &info, crit, NULL), CUZK_OK);
        if (info.settled)
            break;
        sleep_ms(1);
    }
    engine_result_t cres, nres;
    await_ok(r, crit, &cres);
    await_ok(r, normal, &nres);
    uint64_t lat = cres.done_ns - cres.submit_ns, first_end = first_prove_end(r, normal);
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    int after = cres.done_ns > first_end;
    uint64_t gap = after ? cres.done_ns - first_end : first_end - cres.done_ns;
    printf("test_engine: device lane %s: CRITICAL done in %.3f s, %.3f s %s the running NORMAL "
           "proof's end; %u proofs at once, lane busy %u, busy %u\n",
           lane ? "on" : "off", (double)lat / 1e9, (double)gap / 1e9, after ? "after" : "before",
           ss.max_concurrent, lane_busy, busy);
    assert_int_equal(ss.critical_backends, (uint64_t)lane); /* the lane's, made for it */
    if (lane) {
        assert_true(lat < 1000 * MS);
        assert_true(cres.done_ns < first_end);
        assert_int_equal(ss.max_concurrent, 2);
        assert_int_equal(lane_busy, 1);
        assert_int_equal(busy, 2);
    } else {
        assert_true(lat >= 1400 * MS);
        assert_true(cres.done_ns > first_end);
        assert_int_equal(ss.max_concurrent, 1);
        assert_int_equal(lane_busy, 0);
        assert_int_equal(busy, 1);
    }
    assert_int_equal(cres.timings[0].device, 0);
    /* With the lane its worker's backend still holds the CRITICAL job's key
     * (without it the worker dropped it for the NORMAL partition after):
     * evicted, the key leaves that backend (a drain with the lane's bit)
     * before its bytes count free. */
    uint64_t evicts = ss.evicts;
    assert_int_equal(engine_key_evict(r->e, r->ksj, 0, &err), CUZK_OK);
    rig_check_held(r);
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.evicts > evicts, lane);
    engine_result_free(&cres);
    engine_result_free(&nres);
    rig_stop(r);
}

/* A NORMAL flood never runs on the lane's worker, not even when aging has
 * raised it to CRITICAL: one proof at a time on one worker. */
static void device_lane_flood(void)
{
    enum { N = 8 };
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.aging_ns = 1 * MS; /* CRITICAL in service order within 3 ms */
    r->cfg.ready_max = 3;
    engine_sim_set_delay(r->sim[0], 20000);
    rig_start(r);
    engine_job_id_t ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = submit_simple(r, CUZK_PRIO_NORMAL);
    for (int i = 0; i < N; i++) {
        engine_result_t res;
        await_ok(r, ids[i], &res);
        engine_result_free(&res);
    }
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.proves, N);
    assert_int_equal(ss.max_concurrent, 1);
    rig_stop(r);
}

/* The lane on a device of 64 workers is worker 64: the second word of a
 * drain's mask. Every regular worker proving a slow NORMAL partition, a
 * CRITICAL job proves on the lane beside them and is done before any of
 * them; its key evicted, the drain waits for the lane's worker (bit 64)
 * to drop it, and the device holds nothing unreserved after. */
static void device_lane_wide(void)
{
    enum { W = 64 };
    static const size_t cap[MAX_DEV] = {256 * 1024 * KIB, 4096 * KIB, 4096 * KIB};
    static const int workers[MAX_DEV] = {W, 1, 1};
    rig_t *r = rig_slot();
    rig_init(r, 1, cap, workers, NULL);
    r->cfg.ready_max = W;
    assert_int_equal(engine_sim_set_key_delay(r->sim[0], &g_bp.c, LANE_SLOW_US, NULL), CUZK_OK);
    assert_int_equal(engine_sim_set_key_delay(r->sim[0], &g_sj.c, LANE_FAST_US, NULL), CUZK_OK);
    rig_start(r);
    wait_idle(r);
    engine_job_id_t normal[W], crit = 0;
    for (int i = 0; i < W; i++)
        normal[i] = submit_simple(r, CUZK_PRIO_NORMAL);
    wait_proves(r->sim[0], W);
    job_in_t cin = {.kind = ENGINE_KIND_SNARKJS, .key = r->ksj, .prio = CUZK_PRIO_CRITICAL, .n = 1};
    cin.ws[0] = g_sj.w;
    cuzk_error_t err = {0};
    assert_int_equal(submit_job(r, &crit, &cin, &g_sj, &err), CUZK_OK);
    engine_result_t cres;
    await_ok(r, crit, &cres);
    uint64_t first_end = UINT64_MAX;
    for (int i = 0; i < W; i++) {
        engine_result_t res;
        await_ok(r, normal[i], &res);
        uint64_t end = first_prove_end(r, normal[i]);
        first_end = end < first_end ? end : first_end;
        engine_result_free(&res);
    }
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    printf("test_engine: lane of %d workers: CRITICAL done %.3f s before the first NORMAL proof's "
           "end; %u proofs at once\n",
           W, cres.done_ns < first_end ? (double)(first_end - cres.done_ns) / 1e9 : 0.0,
           ss.max_concurrent);
    assert_true(cres.done_ns < first_end);
    assert_int_equal(ss.max_concurrent, W + 1);
    uint64_t evicts = ss.evicts;
    assert_int_equal(engine_key_evict(r->e, r->ksj, 0, &err), CUZK_OK);
    rig_check_held(r);
    engine_sim_stats(r->sim[0], &ss);
    assert_true(ss.evicts > evicts);
    engine_result_free(&cres);
    rig_stop(r);
}

static void test_critical_device_lane(void **state)
{
    (void)state;
    device_lane_run(1);
    device_lane_run(0);
    device_lane_flood();
    device_lane_wide();
}

/* LOW under a flood of HIGH: with aging it finishes well before the flood;
 * without it, last. Returns how many HIGH jobs finished after it. */
static unsigned low_under_flood(uint64_t aging_ns)
{
    enum { N = 30 };
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.ready_max = 2;
    r->cfg.aging_ns = aging_ns;
    engine_sim_set_delay(r->sim[0], 10000);
    rig_start(r);
    engine_job_id_t high[N];
    for (int i = 0; i < N / 2; i++)
        high[i] = submit_simple(r, CUZK_PRIO_HIGH);
    engine_job_id_t low = submit_simple(r, CUZK_PRIO_LOW);
    for (int i = N / 2; i < N; i++)
        high[i] = submit_simple(r, CUZK_PRIO_HIGH);
    engine_result_t lres;
    await_ok(r, low, &lres);
    unsigned after = 0;
    for (int i = 0; i < N; i++) {
        engine_result_t res;
        await_ok(r, high[i], &res);
        after += res.done_ns > lres.done_ns;
        engine_result_free(&res);
    }
    engine_result_free(&lres);
    rig_stop(r);
    return after;
}

static void test_priority_aging(void **state)
{
    (void)state;
    unsigned with = low_under_flood(25 * MS);
    unsigned without = low_under_flood(0);
    printf("test_engine: LOW under 30 HIGH: %u HIGH after it with aging, %u without\n", with,
           without);
    assert_true(with >= 8);
    assert_int_equal(without, 0);
}

static void test_bad_specs(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    rig_start(r);
    cuzk_error_t err = {0};
    engine_job_id_t id = 99;
    /* The Filecoin kinds are bellperson jobs under their own name: proved
     * with a bellperson key, refused with a snarkjs one. */
    static const engine_kind fil[] = {ENGINE_KIND_POREP, ENGINE_KIND_SNAPDEALS,
                                      ENGINE_KIND_WINDOW_POST, ENGINE_KIND_WINNING_POST};
    for (size_t i = 0; i < sizeof fil / sizeof fil[0]; i++) {
        job_in_t in = {.kind = fil[i], .key = r->ksj, .prio = CUZK_PRIO_CRITICAL, .n = 1};
        in.ws[0] = g_sj.w;
        assert_int_equal(submit_job(r, &id, &in, &g_sj, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "snarkjs key"));
        assert_int_equal(id, 0);
        in.key = r->kbp;
        in.ws[0] = g_bp.w;
        assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
        engine_result_t res;
        await_ok(r, id, &res);
        assert_int_equal(res.kind, fil[i]);
        engine_result_free(&res);
    }
    job_in_t bad = {.kind = (engine_kind)ENGINE_KIND_COUNT, .key = r->kbp, .n = 1};
    bad.ws[0] = g_bp.w;
    assert_int_equal(submit_job(r, &id, &bad, &g_bp, &err), CUZK_ERR_ARG);
    job_in_t in = {.kind = ENGINE_KIND_SNARKJS, .key = r->ksj, .prio = CUZK_PRIO_NORMAL, .n = 2};
    in.ws[0] = in.ws[1] = g_sj.w;
    assert_int_equal(submit_job(r, &id, &in, &g_sj, &err), CUZK_ERR_ARG); /* two witnesses */
    in.n = 1;
    in.key = r->kbp; /* a snarkjs job with a bellperson key */
    assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_ERR_ARG);
    in.key = NULL;
    assert_int_equal(submit_job(r, &id, &in, &g_sj, &err), CUZK_ERR_ARG);
    in.key = r->ksj;
    in.prio = (cuzk_priority)9;
    assert_int_equal(submit_job(r, &id, &in, &g_sj, &err), CUZK_ERR_ARG);
    in.prio = CUZK_PRIO_NORMAL;
    in.kind = (engine_kind)77;
    assert_int_equal(submit_job(r, &id, &in, &g_sj, &err), CUZK_ERR_ARG);
    /* an fr_t witness of the wrong length */
    engine_witness_t w = {.form = ENGINE_WITNESS_FR, .w = g_bp.w, .n = g_bp.pk.n_vars - 1};
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .key = r->kbp,
                              .witnesses = &w,
                              .n_partitions = 1};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_ERR_ARG);
    assert_int_equal(engine_submit(r->e, NULL, &spec, &err), CUZK_ERR_ARG);
    assert_int_equal(engine_await(r->e, 12345, 0, &(engine_result_t){0}, &err), CUZK_ERR_ARG);
    assert_int_equal(engine_cancel(r->e, 12345, &err), CUZK_ERR_ARG);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 3, &err), CUZK_ERR_ARG);
    /* a key whose circuit does not match it */
    engine_key_spec_t ks = {.pk = &g_bp.pk, .circuit = &g_bp10.c};
    engine_key_t *k = NULL;
    assert_int_equal(engine_key_register(r->e, &k, &ks, &err), CUZK_ERR_ARG);
    assert_null(k);
    /* configuration bounds */
    engine_config_t cfg = r->cfg;
    engine_t *e2 = NULL;
    cfg.n_devices = 0;
    assert_int_equal(engine_new(&e2, &cfg, &err), CUZK_ERR_ARG);
    cfg = r->cfg;
    cfg.ready_max = 0;
    assert_int_equal(engine_new(&e2, &cfg, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "ready_max"));
    assert_null(e2);
    cfg = r->cfg;
    cfg.witness_nice = 20;
    assert_int_equal(engine_new(&e2, &cfg, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "witness_nice"));
    assert_null(e2);
    engine_stats_t st;
    engine_stats(r->e, &st);
    for (int k2 = 0; k2 < ENGINE_KIND_COUNT; k2++) /* the Filecoin kinds' one job each */
        assert_int_equal(st.kinds[k2].submitted, k2 >= ENGINE_KIND_POREP ? 1 : 0);
    good_job(r);
    rig_stop(r);
}

/* A queued job is cancelled at once; the others finish. */
static void test_cancel_queued(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    /* one witness thread: a, b, c reach the device in that order (with two,
     * c could overtake a slow a and be the proof that wait_proves sees) */
    r->cfg.witness_threads = 1;
    engine_sim_set_delay(r->sim[0], 400000);
    rig_start(r);
    engine_job_id_t a = submit_simple(r, CUZK_PRIO_NORMAL);
    engine_job_id_t b = submit_simple(r, CUZK_PRIO_NORMAL);
    engine_job_id_t c = submit_simple(r, CUZK_PRIO_NORMAL);
    wait_state(r, a, ENGINE_JOB_RUNNING);
    wait_proves(r->sim[0], 1);
    cuzk_error_t err = {0};
    assert_int_equal(engine_cancel(r->e, c, &err), CUZK_OK);
    engine_result_t res;
    assert_int_equal(engine_await(r->e, c, 5000, &res, &err), CUZK_ERR_CANCELLED);
    engine_job_info_t info;
    assert_int_equal(engine_job_status(r->e, &info, a, &err), CUZK_OK);
    assert_false(info.settled); /* C did not wait for the running proof */
    engine_sim_set_delay(r->sim[0], 0);
    assert_int_equal(res.state, ENGINE_JOB_CANCELLED);
    assert_null(res.proofs);
    assert_int_equal(res.error.code, CUZK_ERR_CANCELLED);
    engine_result_free(&res);
    assert_int_equal(engine_cancel(r->e, c, &err), CUZK_OK); /* again: no change */
    await_ok(r, a, &res);
    engine_result_free(&res);
    await_ok(r, b, &res);
    engine_result_free(&res);
    assert_int_equal(engine_cancel(r->e, a, &err), CUZK_OK); /* done: stays done */
    assert_int_equal(engine_await(r->e, a, 0, &res, &err), CUZK_OK);
    engine_result_free(&res);
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.kinds[ENGINE_KIND_BELLPERSON].cancelled, 1);
    assert_int_equal(st.kinds[ENGINE_KIND_BELLPERSON].done, 2);
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.proves, 2);
    rig_stop(r);
}

/* One device, two workers, each scratch more than half of what the key
 * leaves: job B waits in the ledger while A proves. Cancelling B ends its
 * wait at once; cancelling A lets its proof finish and discards it. */
static void test_cancel_running(void **state)
{
    (void)state;
    static const size_t caps[1] = {200 * KIB}; /* resident 64 KiB, scratch 80 KiB */
    engine_sim_config_t sc = SIM_DEFAULT;
    sc.scratch_per_row = 1280;
    rig_t *r = rig_slot();
    rig_init(r, 1, caps, TWO_WORKERS, &sc);
    engine_sim_set_delay(r->sim[0], 500000);
    rig_start(r);
    engine_job_id_t a = submit_simple(r, CUZK_PRIO_NORMAL);
    wait_proves(r->sim[0], 1);
    engine_job_id_t b = submit_simple(r, CUZK_PRIO_NORMAL);
    for (int i = 0;; i++) { /* B queued in the ledger */
        engine_stats_t st;
        engine_stats(r->e, &st);
        if (st.devices[0].ledger.waiters == 1)
            break;
        assert_true(i < 5000);
        sleep_ms(1);
    }
    cuzk_error_t err = {0};
    engine_result_t res;
    assert_int_equal(engine_cancel(r->e, b, &err), CUZK_OK);
    assert_int_equal(engine_await(r->e, b, 5000, &res, &err), CUZK_ERR_CANCELLED);
    engine_result_free(&res);
    engine_job_info_t info;
    assert_int_equal(engine_job_status(r->e, &info, a, &err), CUZK_OK);
    assert_int_equal(info.state, ENGINE_JOB_RUNNING); /* B's wait ended before A's proof */
    assert_int_equal(info.in_flight, 1);
    assert_int_equal(engine_cancel(r->e, a, &err), CUZK_OK);
    assert_int_equal(engine_job_status(r->e, &info, a, &err), CUZK_OK);
    assert_int_equal(info.state, ENGINE_JOB_CANCELLED);
    assert_int_equal(engine_await(r->e, a, 5000, &res, &err), CUZK_ERR_CANCELLED);
    assert_int_equal(res.state, ENGINE_JOB_CANCELLED);
    engine_result_free(&res);
    rig_check_ledgers(r); /* nothing leaked: reserved == persistent */
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.devices[0].ledger.persistent, 64 * KIB);
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.proves, 1);
    engine_sim_set_delay(r->sim[0], 0);
    good_job(r);
    rig_stop(r);
}

static void test_await_timeout(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    engine_sim_set_delay(r->sim[0], 500000);
    rig_start(r);
    engine_job_id_t a = submit_simple(r, CUZK_PRIO_NORMAL);
    cuzk_error_t err = {0};
    engine_result_t res;
    uint64_t t0 = ledger_clock_ns();
    assert_int_equal(engine_await(r->e, a, 20, &res, &err), CUZK_ERR_TIMEOUT);
    uint64_t took = ledger_clock_ns() - t0;
    assert_true(took >= 20 * MS && took < 400 * MS);
    assert_non_null(strstr(err.msg, "not done after 20 ms"));
    assert_null(res.proofs);
    assert_int_equal(engine_await(r->e, a, 0, &res, &err), CUZK_ERR_TIMEOUT);
    engine_job_info_t info;
    assert_int_equal(engine_job_status(r->e, &info, a, &err), CUZK_OK);
    assert_false(info.settled);
    await_ok(r, a, &res); /* it kept running */
    engine_result_free(&res);
    assert_int_equal(engine_drain(r->e, 1000, &err), CUZK_OK);
    rig_stop(r);
}

static void expect_failure(rig_t *r, engine_job_id_t id, cuzk_status code, const char *msg)
{
    engine_result_t res;
    cuzk_error_t err = {0};
    cuzk_status st = engine_await(r->e, id, 60000, &res, &err);
    if (st != code || !strstr(err.msg, msg))
        fail_msg("job %llu: got %s '%s', expected %s '...%s...'", (unsigned long long)id,
                 cuzk_status_str(st), err.msg, cuzk_status_str(code), msg);
    assert_int_equal(res.state, ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error.msg, msg));
    assert_null(res.proofs);
    engine_result_free(&res);
}

/* plan NOMEM, backend_new failures, with and without retries. */
static void test_fail_plan_backend(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.max_retries = 1;
    r->cfg.retry = ENGINE_RETRY_ANY_DEVICE;
    rig_start(r);
    engine_sim_fail_plan(r->sim[0], 1);
    expect_failure(r, submit_simple(r, CUZK_PRIO_NORMAL), CUZK_ERR_NOMEM,
                   "injected out of device memory");
    engine_sim_fail_plan(r->sim[0], 0);
    engine_sim_fail_backend_new(r->sim[0], 2); /* both attempts */
    expect_failure(r, submit_simple(r, CUZK_PRIO_NORMAL), CUZK_ERR_CUDA,
                   "partition 0 on device sim0: sim device 0: injected backend_new failure");
    engine_sim_fail_backend_new(r->sim[0], 1); /* the retry succeeds */
    engine_result_t res;
    await_ok(r, submit_simple(r, CUZK_PRIO_NORMAL), &res);
    assert_int_equal(res.timings[0].attempts, 2);
    engine_result_free(&res);
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.devices[0].failures, 5);
    assert_int_equal(st.kinds[ENGINE_KIND_BELLPERSON].failed, 2);
    good_job(r);
    rig_stop(r);
}

/* A failed proof retried on the other device, and not retried. */
static void test_fail_prove(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 2, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.max_retries = 1;
    r->cfg.retry = ENGINE_RETRY_OTHER_DEVICE;
    rig_start(r);
    cuzk_error_t err = {0};
    /* resident on sim0 only: its idle worker gets the job first */
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    wait_idle(r);
    engine_sim_fail_prove(r->sim[0], 1);
    engine_result_t res;
    await_ok(r, submit_simple(r, CUZK_PRIO_NORMAL), &res);
    assert_int_equal(res.timings[0].attempts, 2);
    assert_int_equal(res.timings[0].device, 1);
    engine_result_free(&res);
    /* both devices fail it: nowhere left to go */
    engine_sim_fail_prove(r->sim[0], 1);
    engine_sim_fail_prove(r->sim[1], 1);
    expect_failure(r, submit_simple(r, CUZK_PRIO_NORMAL), CUZK_ERR_CUDA, "injected launch failure");
    good_job(r);
    rig_stop(r);

    rig_init(r, 2, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.max_retries = 0;
    rig_start(r);
    engine_sim_fail_prove(r->sim[0], 1);
    engine_sim_fail_prove(r->sim[1], 1);
    expect_failure(r, submit_simple(r, CUZK_PRIO_NORMAL), CUZK_ERR_CUDA, "injected launch failure");
    engine_sim_fail_prove(r->sim[0], 0);
    engine_sim_fail_prove(r->sim[1], 0);
    good_job(r);
    engine_sim_stats_t s0, s1;
    engine_sim_stats(r->sim[0], &s0);
    engine_sim_stats(r->sim[1], &s1);
    assert_int_equal(s0.proves + s1.proves, 2);  /* no retry */
    assert_true(s0.backends + s1.backends >= 2); /* the failed backend was remade */
    rig_stop(r);
}

/* Witness-stage failures: corrupt .wtns, a broken constraint (named), a
 * key without a check (caught by verification). */
static void test_fail_witness(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    rig_start(r);
    cuzk_error_t err = {0};
    engine_job_id_t id;
    /* corrupt .wtns bytes */
    size_t len = 0;
    uint8_t *bytes = wtns_bytes(g_bp.w, g_bp.pk.n_vars, &len);
    bytes[0] = 'x';
    engine_witness_t w = {.form = ENGINE_WITNESS_WTNS, .wtns = bytes, .size = len};
    engine_job_spec_t spec = {.kind = ENGINE_KIND_BELLPERSON,
                              .user = r,
                              .key = r->kbp,
                              .witnesses = &w,
                              .n_partitions = 1};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_FORMAT, "partition 0");
    bytes[0] = 'w';
    w.size = len - 32; /* truncated */
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_FORMAT, "partition 0");
    free(bytes);
    /* a witness with another length than the key's */
    bytes = wtns_bytes(g_bp.w, g_bp.pk.n_vars - 3, &len);
    w = (engine_witness_t){.form = ENGINE_WITNESS_WTNS, .wtns = bytes, .size = len};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_ARG, "the key expects");
    free(bytes);
    fr_t *longer = calloc(g_bp.pk.n_vars + 3, sizeof *longer);
    assert_non_null(longer);
    memcpy(longer, g_bp.w, g_bp.pk.n_vars * sizeof *longer);
    bytes = wtns_bytes(longer, g_bp.pk.n_vars + 3, &len);
    w = (engine_witness_t){.form = ENGINE_WITNESS_WTNS, .wtns = bytes, .size = len};
    assert_int_equal(engine_submit(r->e, &id, &spec, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_FORMAT, "more than the");
    free(bytes);
    free(longer);

    /* partition 2 of 3 breaks row 17 (its product variable changed) */
    shape_t sh = shape_of(g_bp.log_m);
    fr_t *ws[3];
    for (int i = 0; i < 3; i++)
        ws[i] = witness_variant(&g_bp.c, g_bp.log_m, 100 + (uint64_t)i);
    fr_add(&ws[2][sh.n_in + sh.seeds + 17], &ws[2][sh.n_in + sh.seeds + 17], &FR_ONE);
    job_in_t in = {.kind = ENGINE_KIND_BELLPERSON, .key = r->kbp, .prio = CUZK_PRIO_HIGH, .n = 3};
    for (int i = 0; i < 3; i++)
        in.ws[i] = ws[i];
    assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_ARG, "partition 2: witness does not satisfy constraint 17");
    in.as_wtns = 1;
    assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_ARG, "partition 2: witness does not satisfy constraint 17");

    /* without a check the proof is made and fails verification */
    engine_key_t *nocheck = rig_key(r, &g_bp, "bp6-nocheck", 0);
    in.key = nocheck;
    assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_FORMAT, "proof failed verification (partition 2)");
    ws[2][1] = FR_ZERO; /* wire 0 must be 1; wire 1 is fine to break too */
    ws[2][0] = FR_ZERO;
    assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
    expect_failure(r, id, CUZK_ERR_ARG, "partition 2: witness wire 0 is not 1");
    engine_key_release(r->e, nocheck);
    assert_int_equal(__atomic_load_n(&g_key_destroyed, __ATOMIC_SEQ_CST) > 0, 1);
    for (int i = 0; i < 3; i++)
        free(ws[i]);
    good_job(r);
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.kinds[ENGINE_KIND_BELLPERSON].failed, 8);
    assert_int_equal(st.keys, 3);
    rig_stop(r);
}

/* The predecessor's scenario: one device, two workers, each partition's
 * scratch more than half the budget the key leaves. Everything finishes,
 * one proof at a time, the critical lane's worker (its CRITICAL jobs)
 * included: it too waits for its scratch in the ledger; with room for two
 * they overlap, and with room for three the lane may add a third. */
static void predecessor(size_t cap, int lane, unsigned lo, unsigned hi)
{
    engine_sim_config_t sc = SIM_DEFAULT;
    sc.scratch_per_row = 1280; /* 80 KiB at 2^6, resident 64 KiB */
    size_t caps[1] = {cap};
    rig_t *r = rig_slot();
    rig_init(r, 1, caps, TWO_WORKERS, &sc);
    r->cfg.critical_lane = lane;
    engine_sim_set_delay(r->sim[0], 20000);
    rig_start(r);
    enum { N = 8 };
    engine_job_id_t ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = submit_simple(r, (cuzk_priority)(i % CUZK_PRIO_COUNT));
    for (int i = 0; i < N; i++) {
        engine_result_t res;
        await_ok(r, ids[i], &res);
        engine_result_free(&res);
    }
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    assert_in_range(ss.max_concurrent, lo, hi);
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_true(st.devices[0].ledger.peak_reserved <= cap);
    rig_stop(r);
}

static void test_predecessor(void **state)
{
    (void)state;
    predecessor(200 * KIB, 1, 1, 1);
    predecessor(400 * KIB, 0, 2, 2);
    predecessor(400 * KIB, 1, 2, 3);
}

/* Residency: LRU eviction of idle keys, keys in use kept, streaming when a
 * key never fits, preload / evict, and the device holding a key preferred. */
/* The state of k's load on device 0, after waiting (up to 10 s) for it to
 * leave PENDING and LOADING. */
static engine_warm warm_settled(rig_t *r, engine_key_t *k)
{
    engine_key_info_t ki;
    cuzk_error_t err = {0};
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(engine_key_status(r->e, &ki, k, &err), CUZK_OK);
        if (ki.warm[0] != ENGINE_WARM_PENDING && ki.warm[0] != ENGINE_WARM_LOADING)
            return ki.warm[0];
        sleep_ms(1);
    }
    fail_msg("the preload's load never finished");
    return ENGINE_WARM_NONE;
}

/* The critical lane's load of k on device 0, after waiting (up to 10 s)
 * for it to leave PENDING and LOADING. */
static engine_warm lane_warm_settled(rig_t *r, engine_key_t *k)
{
    engine_key_info_t ki;
    cuzk_error_t err = {0};
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(engine_key_status(r->e, &ki, k, &err), CUZK_OK);
        if (ki.lane_warm[0] != ENGINE_WARM_PENDING && ki.lane_warm[0] != ENGINE_WARM_LOADING)
            return ki.lane_warm[0];
        sleep_ms(1);
    }
    fail_msg("the critical lane's load never finished");
    return ENGINE_WARM_NONE;
}

/* bp6 again under another name, its jobs CRITICAL. */
static engine_key_t *rig_key_critical(rig_t *r)
{
    engine_key_spec_t ks = {.name = "bp6-critical",
                            .pk = &g_bp.pk,
                            .circuit = &g_bp.c,
                            .check = &g_bp.c,
                            .critical = 1}; /* no destroy: rig_stop counts the rig's three */
    engine_key_t *k = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(engine_key_register(r->e, &k, &ks, &err), CUZK_OK);
    return k;
}

/* A critical key's preload is loaded twice: by a regular worker and by the
 * critical lane's, on a backend made for the lane before any job, so the
 * first CRITICAL job makes no backend and loads nothing; a regular key's
 * preload is loaded once and never by the lane; an eviction forgets the
 * lane's load too; without the lane a critical key is loaded once. */
static void test_preload_lane(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    engine_sim_device_warm(&r->dev[0], 0, 0);
    rig_start(r);
    cuzk_error_t err = {0};
    engine_sim_stats_t ss;
    engine_key_info_t ki;
    engine_key_t *kc = rig_key_critical(r);
    assert_int_equal(engine_key_preload(r->e, kc, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, kc), ENGINE_WARM_DONE);
    assert_int_equal(lane_warm_settled(r, kc), ENGINE_WARM_DONE);
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.warms, 2);
    assert_int_equal(ss.critical_warms, 1);
    assert_int_equal(ss.critical_backends, 1);
    assert_int_equal(engine_key_preload(r->e, kc, 0, &err), CUZK_OK); /* no second load */
    /* a CRITICAL job: the lane's backend is the one made at the preload */
    job_in_t in = {.kind = ENGINE_KIND_BELLPERSON, .key = kc, .prio = CUZK_PRIO_CRITICAL, .n = 1};
    in.ws[0] = g_bp.w;
    engine_job_id_t id = 0;
    assert_int_equal(submit_job(r, &id, &in, &g_bp, &err), CUZK_OK);
    engine_result_t res;
    await_ok(r, id, &res);
    engine_result_free(&res);
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.warms, 2);
    assert_int_equal(ss.critical_backends, 1);
    assert_int_equal(engine_key_status(r->e, &ki, kc, &err), CUZK_OK);
    assert_int_equal(ki.refs, 1); /* both loads' references are gone */
    /* a regular key: one load, not the lane's */
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, r->kbp), ENGINE_WARM_DONE);
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_int_equal(ki.lane_warm[0], ENGINE_WARM_NONE);
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.warms, 3);
    assert_int_equal(ss.critical_warms, 1);
    /* evicted: both loads forgotten */
    assert_int_equal(engine_key_evict(r->e, kc, 0, &err), CUZK_OK);
    assert_int_equal(engine_key_status(r->e, &ki, kc, &err), CUZK_OK);
    assert_int_equal(ki.warm[0], ENGINE_WARM_NONE);
    assert_int_equal(ki.lane_warm[0], ENGINE_WARM_NONE);
    engine_key_release(r->e, kc);
    rig_check_ledgers(r);
    rig_stop(r);

    /* no lane: a critical key is loaded once */
    rig_init(r, 1, CAP_BIG, TWO_WORKERS, NULL);
    r->cfg.critical_lane = 0;
    engine_sim_device_warm(&r->dev[0], 0, 0);
    rig_start(r);
    kc = rig_key_critical(r);
    assert_int_equal(engine_key_preload(r->e, kc, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, kc), ENGINE_WARM_DONE);
    assert_int_equal(engine_key_status(r->e, &ki, kc, &err), CUZK_OK);
    assert_int_equal(ki.lane_warm[0], ENGINE_WARM_NONE);
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.warms, 1);
    assert_int_equal(ss.critical_warms, 0);
    engine_key_release(r->e, kc);
    rig_stop(r);
}

/* A preload on a device with a warm callback: an idle worker loads the key
 * once (another preload does not load it again), proofs work after it, an
 * eviction forgets it (the next preload loads again), a failed load is
 * reported and leaves the proofs to load it; a key evicted while its load
 * is pending is let go; destroy with a load pending does not hang. */
static void test_preload_warm(void **state)
{
    (void)state;
    static const size_t caps[1] = {150 * KIB}; /* one 2^6 key and a scratch */
    rig_t *r = rig_slot();
    rig_init(r, 1, caps, TWO_WORKERS, NULL);
    engine_sim_device_warm(&r->dev[0], 0, 0);
    rig_start(r);
    cuzk_error_t err = {0};
    engine_sim_stats_t ss;
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, r->kbp), ENGINE_WARM_DONE);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK); /* no second load */
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.warms, 1);
    assert_true(ss.backends >= 1);
    good_job(r);
    engine_key_info_t ki;
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_int_equal(ki.refs, 1); /* the load's reference is gone */
    /* done: all of the plan's resident bytes (the sim loads exactly those) */
    assert_int_equal(ki.warm_total[0], ki.resident_bytes[0]);
    assert_int_equal(ki.warm_done[0], ki.warm_total[0]);
    /* evicted: forgotten; loaded again by the next preload */
    assert_int_equal(engine_key_evict(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_int_equal(ki.warm[0], ENGINE_WARM_NONE);
    assert_int_equal(ki.warm_done[0], 0);
    assert_int_equal(ki.warm_total[0], 0);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, r->kbp), ENGINE_WARM_DONE);
    engine_sim_stats(r->sim[0], &ss);
    assert_int_equal(ss.warms, 2);
    /* another key's preload evicts bp6 (one key fits), then loads sj6 */
    assert_int_equal(engine_key_preload(r->e, r->ksj, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, r->ksj), ENGINE_WARM_DONE);
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_int_equal(ki.warm[0], ENGINE_WARM_NONE);
    rig_check_ledgers(r);
    rig_stop(r);

    /* a failing load: FAILED, and proofs still load and prove */
    rig_init(r, 1, caps, TWO_WORKERS, NULL);
    engine_sim_device_warm(&r->dev[0], 1, 0);
    rig_start(r);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(warm_settled(r, r->kbp), ENGINE_WARM_FAILED);
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_true(ki.warm_done[0] < ki.warm_total[0]); /* it failed half way */
    good_job(r);
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_int_equal(ki.refs, 1);
    rig_stop(r);

    /* pending loads behind a slow one, evicted or dropped by destroy */
    rig_init(r, 1, caps, ONE_WORKER, NULL);
    engine_sim_device_warm(&r->dev[0], 0, 300000);
    rig_start(r);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    for (int i = 0; i < 1000; i++) { /* the worker took it */
        assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
        if (ki.warm[0] == ENGINE_WARM_LOADING)
            break;
        sleep_ms(1);
    }
    assert_int_equal(ki.warm[0], ENGINE_WARM_LOADING);
    /* loading: the key is in use, not evicted */
    assert_int_equal(engine_key_evict(r->e, r->kbp, 0, &err), CUZK_ERR_BUSY);
    /* progress: never backwards, never past the total, seen part way */
    uint64_t last = 0;
    int part_way = 0;
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
        if (ki.warm[0] != ENGINE_WARM_LOADING)
            break;
        assert_true(ki.warm_done[0] >= last);
        assert_true(ki.warm_done[0] <= ki.warm_total[0]);
        assert_int_equal(ki.warm_total[0], ki.resident_bytes[0]);
        part_way |= ki.warm_done[0] > 0 && ki.warm_done[0] < ki.warm_total[0];
        last = ki.warm_done[0];
        sleep_ms(1);
    }
    assert_true(part_way);
    assert_int_equal(warm_settled(r, r->kbp), ENGINE_WARM_DONE);
    assert_int_equal(engine_key_evict(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    rig_stop(r); /* destroy with the load pending or running */
}

static void test_residency(void **state)
{
    (void)state;
    /* 150 KiB: one 2^6 key (64 KiB) and a scratch (64 KiB), not two keys */
    static const size_t caps[2] = {150 * KIB, 4096 * KIB};
    rig_t *r = rig_slot();
    rig_init(r, 2, caps, TWO_WORKERS, NULL);
    rig_start(r);
    cuzk_error_t err = {0};
    engine_key_info_t ki;
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_OK); /* again: no-op */
    assert_int_equal(engine_key_preload(r->e, r->ksj, 0, &err), CUZK_OK); /* evicts bp6 */
    assert_int_equal(engine_key_status(r->e, &ki, r->kbp, &err), CUZK_OK);
    assert_false(ki.resident[0]);
    assert_int_equal(engine_key_status(r->e, &ki, r->ksj, &err), CUZK_OK);
    assert_true(ki.resident[0]);
    assert_int_equal(ki.resident_bytes[0], 64 * KIB);
    assert_int_equal(ki.refs, 1);
    assert_string_equal(ki.name, "sj6");
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_int_equal(st.devices[0].resident_keys, 1);
    assert_int_equal(st.devices[0].evictions, 1);
    /* bp10 (1 MiB resident, 1 MiB scratch) cannot run in 150 KiB at all */
    assert_int_equal(engine_key_preload(r->e, r->kbp10, 0, &err), CUZK_ERR_NOMEM);

    /* sj6 resident on sim0 only, sim0 idle: its jobs go there */
    for (int i = 0; i < 3; i++) {
        wait_idle(r);
        job_in_t in = {
            .kind = ENGINE_KIND_SNARKJS, .key = r->ksj, .prio = CUZK_PRIO_NORMAL, .n = 1};
        in.ws[0] = g_sj.w;
        engine_job_id_t id;
        assert_int_equal(submit_job(r, &id, &in, &g_sj, &err), CUZK_OK);
        engine_result_t res;
        await_ok(r, id, &res);
        assert_int_equal(res.timings[0].device, 0);
        assert_int_equal(res.timings[0].streamed, 0);
        engine_result_free(&res);
    }
    /* a key in use is not evicted */
    engine_sim_set_delay(r->sim[0], 200000);
    assert_int_equal(engine_key_evict(r->e, r->ksj, 1, &err), CUZK_OK); /* not there: no-op */
    job_in_t in = {.kind = ENGINE_KIND_SNARKJS, .key = r->ksj, .prio = CUZK_PRIO_NORMAL, .n = 1};
    in.ws[0] = g_sj.w;
    engine_job_id_t slow;
    assert_int_equal(submit_job(r, &slow, &in, &g_sj, &err), CUZK_OK);
    wait_proves(r->sim[0], 4);
    assert_int_equal(engine_key_evict(r->e, r->ksj, 0, &err), CUZK_ERR_BUSY);
    assert_int_equal(engine_key_evict(r->e, r->ksj, -1, &err), CUZK_ERR_BUSY);
    assert_int_equal(engine_key_status(r->e, &ki, r->ksj, &err), CUZK_OK);
    assert_true(ki.resident[0]);
    assert_int_equal(ki.in_use[0], 1);
    assert_int_equal(ki.refs, 2); /* the caller's and the job's */
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_ERR_BUSY);
    engine_result_t res;
    await_ok(r, slow, &res);
    engine_result_free(&res);
    engine_sim_set_delay(r->sim[0], 0);
    assert_int_equal(engine_key_evict(r->e, r->ksj, -1, &err), CUZK_OK);
    engine_stats(r->e, &st);
    assert_int_equal(st.devices[0].ledger.persistent, 0);
    assert_int_equal(st.devices[0].resident_keys, 0);

    /* bp10 on a device where it is resident */
    assert_int_equal(engine_key_preload(r->e, r->kbp10, 1, &err), CUZK_OK);
    wait_idle(r);
    job_in_t in10 = {
        .kind = ENGINE_KIND_BELLPERSON, .key = r->kbp10, .prio = CUZK_PRIO_NORMAL, .n = 1};
    in10.ws[0] = g_bp10.w;
    engine_job_id_t id10;
    assert_int_equal(submit_job(r, &id10, &in10, &g_bp10, &err), CUZK_OK);
    await_ok(r, id10, &res);
    assert_int_equal(res.timings[0].device, 1);
    assert_int_equal(res.timings[0].streamed, 0);
    engine_result_free(&res);
    rig_check_held(r); /* sj6 and bp6 were evicted: no backend holds them */
    rig_stop(r);

    /* 100 KiB: bp6 (64 + 64 KiB) never resident, streams (64 + 32 KiB) */
    static const size_t small[1] = {100 * KIB};
    rig_init(r, 1, small, ONE_WORKER, NULL);
    rig_start(r);
    assert_int_equal(engine_key_preload(r->e, r->kbp, 0, &err), CUZK_ERR_CAPACITY);
    assert_non_null(strstr(err.msg, "streams"));
    for (int i = 0; i < 2; i++) {
        engine_job_id_t id = submit_simple(r, CUZK_PRIO_NORMAL);
        await_ok(r, id, &res);
        assert_int_equal(res.timings[0].streamed, 1);
        engine_result_free(&res);
    }
    engine_stats(r->e, &st);
    assert_int_equal(st.devices[0].streamed, 2);
    assert_int_equal(st.devices[0].resident_keys, 0);
    assert_int_equal(st.devices[0].ledger.peak_reserved, 96 * KIB);
    rig_check_held(r);
    rig_stop(r);
}

/* The device decides once: a backend refuses to prove in a layout other
 * than the one the engine admitted. Here the device's plan says "streamed"
 * where its backends would keep the key resident, and the job fails with
 * that disagreement named instead of proving in a layout nobody admitted. */
static cuzk_status (*g_true_plan)(void *, device_plan_t *, const groth16_pk_t *, const circuit_t *,
                                  size_t, cuzk_error_t *);
static cuzk_status lying_plan(void *ctx, device_plan_t *out, const groth16_pk_t *pk,
                              const circuit_t *c, size_t budget, cuzk_error_t *err)
{
    cuzk_status st = g_true_plan(ctx, out, pk, c, budget, err);
    out->layout = DEVICE_STREAMED;
    return st;
}

static void test_layout_decided_once(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    g_true_plan = r->dev[0].plan;
    r->dev[0].plan = lying_plan;
    rig_start(r);
    engine_job_id_t id = submit_simple(r, CUZK_PRIO_NORMAL);
    engine_result_t res;
    cuzk_error_t err = {0};
    assert_int_equal(engine_await(r->e, id, 60000, &res, &err), CUZK_ERR_INTERNAL);
    assert_int_equal(res.state, ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error.msg, "admitted the streamed layout"));
    engine_result_free(&res);
    /* with the true plan the same job proves */
    r->dev[0].plan = g_true_plan;
    rig_stop(r);
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    rig_start(r);
    id = submit_simple(r, CUZK_PRIO_NORMAL);
    await_ok(r, id, &res);
    assert_int_equal(res.timings[0].streamed, 0);
    engine_result_free(&res);
    rig_stop(r);
}

/* Two keys alternating on a device that holds one: the idle one is evicted
 * (LRU), a busy one waits for the other to go idle instead of failing. */
static void test_residency_alternate(void **state)
{
    (void)state;
    static const size_t caps[1] = {150 * KIB};
    rig_t *r = rig_slot();
    rig_init(r, 1, caps, TWO_WORKERS, NULL);
    engine_sim_set_delay(r->sim[0], 5000);
    rig_start(r);
    enum { N = 12 };
    engine_job_id_t ids[N];
    for (int i = 0; i < N; i++) {
        int sj = i % 2;
        job_in_t in = {.kind = sj ? ENGINE_KIND_SNARKJS : ENGINE_KIND_BELLPERSON,
                       .key = sj ? r->ksj : r->kbp,
                       .prio = CUZK_PRIO_NORMAL,
                       .n = 1};
        in.ws[0] = sj ? g_sj.w : g_bp.w;
        assert_int_equal(submit_job(r, &ids[i], &in, sj ? &g_sj : &g_bp, NULL), CUZK_OK);
    }
    for (int i = 0; i < N; i++) {
        engine_result_t res;
        await_ok(r, ids[i], &res);
        engine_result_free(&res);
    }
    engine_stats_t st;
    engine_stats(r->e, &st);
    assert_true(st.devices[0].evictions >= 1);
    assert_int_equal(st.devices[0].resident_keys, 1);
    assert_true(st.devices[0].ledger.peak_reserved <= 150 * KIB);
    engine_sim_stats_t ss;
    engine_sim_stats(r->sim[0], &ss);
    assert_true(ss.evicts >= 1); /* a worker dropped an evicted key's copy */
    rig_check_held(r);
    rig_stop(r);
}

/* Host backpressure: a budget of one witness still lets every job through,
 * never holding more than ready_max witnessed partitions. */
static void test_backpressure(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 1, CAP_BIG, ONE_WORKER, NULL);
    r->cfg.ready_max = 3;
    r->cfg.ready_bytes_max = 1; /* less than one witness: one at a time */
    engine_sim_set_delay(r->sim[0], 5000);
    rig_start(r);
    enum { N = 6 };
    engine_job_id_t ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = submit_simple(r, CUZK_PRIO_NORMAL);
    size_t wb = (size_t)g_bp.pk.n_vars * sizeof(fr_t);
    for (int k = 0; k < 50; k++) {
        engine_stats_t st;
        engine_stats(r->e, &st);
        assert_true(st.ready_bytes <= wb);
        sleep_ms(1);
    }
    for (int i = 0; i < N; i++) {
        engine_result_t res;
        await_ok(r, ids[i], &res);
        engine_result_free(&res);
    }
    rig_stop(r);
}

/* ---- stress ---- */

typedef struct stress_job {
    engine_job_id_t id;
    int cancel;
    const fixture_t *f;
} stress_job_t;

/* Once with whole witnesses, once with every witness packed (the packs
 * through the same evictions, retries and cancels). */
static void stress_round(engine_witness_pack pack)
{
    /* three 2^6 keys of 64 KiB + 64 KiB scratch: sim0 holds them all, sim1
     * two, sim2 one, so keys are evicted and partitions blocked */
    static const size_t caps[3] = {1024 * KIB, 250 * KIB, 150 * KIB};
    static const int workers[3] = {2, 1, 2};
    int n = tu_iters(300);
    rig_t *r = rig_slot();
    rig_init(r, 3, caps, workers, NULL);
    r->cfg.ready_max = 6;
    r->cfg.aging_ns = 50 * MS;
    r->cfg.max_retries = 2;
    r->cfg.max_retained = (unsigned)n + 16;
    r->cfg.witness_pack = pack;
    rig_start(r);
    engine_key_t *kbp2 = rig_key(r, &g_bp2, "bp6b", 1);
    for (int d = 0; d < 3; d++)
        engine_sim_set_delay(r->sim[d], 500u * (unsigned)(d + 1));
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "stress", 120, dump_engine, r->e);
    enum { NV = 4 };
    fr_t *var[NV];
    for (int i = 0; i < NV; i++)
        var[i] = witness_variant(&g_bp.c, g_bp.log_m, 1000 + (uint64_t)i);
    stress_job_t *jobs = calloc((size_t)n, sizeof *jobs);
    assert_non_null(jobs);
    for (int i = 0; i < n; i++) {
        int which = (int)(tu_rand64() % 3); /* bp6, sj6, bp6b */
        static const engine_kind kinds[3] = {ENGINE_KIND_BELLPERSON, ENGINE_KIND_SNARKJS,
                                             ENGINE_KIND_BELLPERSON};
        const fixture_t *f = which == 0 ? &g_bp : which == 1 ? &g_sj : &g_bp2;
        job_in_t in = {.kind = kinds[which],
                       .key = which == 0   ? r->kbp
                              : which == 1 ? r->ksj
                                           : kbp2,
                       .prio = (cuzk_priority)(tu_rand64() % CUZK_PRIO_COUNT),
                       .n = which == 1 ? 1 : 1 + (size_t)(tu_rand64() % 3),
                       .as_wtns = (int)(tu_rand64() % 2)};
        for (size_t p = 0; p < in.n; p++)
            in.ws[p] = which == 0 ? var[tu_rand64() % NV] : f->w;
        jobs[i].f = f;
        cuzk_error_t err = {0};
        if (submit_job(r, &jobs[i].id, &in, f, &err) != CUZK_OK)
            fail_msg("stress submit %d: %s", i, err.msg);
        if (tu_rand64() % 10 == 0) { /* cancel something submitted earlier */
            int victim = (int)(tu_rand64() % (uint64_t)(i + 1));
            jobs[victim].cancel = 1;
            assert_int_equal(engine_cancel(r->e, jobs[victim].id, &err), CUZK_OK);
        }
        if (tu_rand64() % 40 == 0) /* now and then a device fails a proof */
            engine_sim_fail_prove(r->sim[tu_rand64() % 3], 1 + tu_rand64() % 4);
        if (tu_rand64() % 50 == 0) /* and an operator evicts a key */
            engine_key_evict(r->e, r->ksj, -1, NULL);
    }
    unsigned done = 0, cancelled = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        engine_result_t res;
        cuzk_error_t err = {0};
        cuzk_status st = engine_await(r->e, jobs[i].id, 100000, &res, &err);
        assert_int_not_equal(st, CUZK_ERR_TIMEOUT);
        if (res.state == ENGINE_JOB_DONE) {
            done++;
            if (i % 16 == 0) { /* spot-check what came back */
                const fixture_t *f = jobs[i].f;
                int valid = 0;
                assert_int_equal(groth16_verify_batch(&valid, &f->pk.vk, res.proofs,
                                                      res.n_partitions, res.public_inputs, NULL),
                                 CUZK_OK);
                assert_true(valid);
                check_events(&r->log, jobs[i].id, res.n_partitions);
            }
        } else if (res.state == ENGINE_JOB_CANCELLED) {
            assert_true(jobs[i].cancel);
            cancelled++;
        } else {
            assert_int_equal(res.state, ENGINE_JOB_FAILED);
            assert_non_null(strstr(res.error.msg, "injected launch failure"));
            failed++;
        }
        engine_result_free(&res);
    }
    assert_int_equal(engine_drain(r->e, 1000, NULL), CUZK_OK);
    engine_stats_t st;
    engine_stats(r->e, &st);
    uint64_t s_done = 0, s_failed = 0, s_cancelled = 0, s_sub = 0, proofs = 0;
    for (int k = 0; k < ENGINE_KIND_COUNT; k++) {
        s_done += st.kinds[k].done;
        s_failed += st.kinds[k].failed;
        s_cancelled += st.kinds[k].cancelled;
        s_sub += st.kinds[k].submitted;
        assert_int_equal(st.kinds[k].queued + st.kinds[k].running, 0);
    }
    for (int d = 0; d < 3; d++)
        proofs += st.devices[d].proofs;
    assert_int_equal(s_sub, (uint64_t)n);
    assert_int_equal(s_done, done);
    assert_int_equal(s_failed, failed);
    assert_int_equal(s_cancelled, cancelled);
    for (int p = 0; p < CUZK_PRIO_COUNT; p++)
        assert_int_equal(st.witness_queue[p] + st.ready_queue[p], 0);
    assert_int_equal(st.ready_bytes, 0);
    if (pack == ENGINE_PACK_ALWAYS) /* every witness made was packed */
        assert_true(st.witnesses_packed > 0);
    else
        assert_int_equal(st.witnesses_packed, 0);
    printf("test_engine: stress (witnesses %s): %d jobs: %u done, %u cancelled, %u failed; "
           "proofs per device %llu %llu %llu, evictions %llu %llu %llu, streamed %llu %llu "
           "%llu, %llu packed\n",
           engine_witness_pack_str(pack), n, done, cancelled, failed,
           (unsigned long long)st.devices[0].proofs, (unsigned long long)st.devices[1].proofs,
           (unsigned long long)st.devices[2].proofs, (unsigned long long)st.devices[0].evictions,
           (unsigned long long)st.devices[1].evictions, (unsigned long long)st.devices[2].evictions,
           (unsigned long long)st.devices[0].streamed, (unsigned long long)st.devices[1].streamed,
           (unsigned long long)st.devices[2].streamed, (unsigned long long)st.witnesses_packed);
    assert_true(proofs >= done);
    assert_true(st.devices[1].evictions + st.devices[2].evictions > 0);
    rig_check_held(r); /* evicted keys left every backend */
    tu_watchdog_stop(&wd);
    engine_key_release(r->e, kbp2);
    free(jobs);
    for (int i = 0; i < NV; i++)
        free(var[i]);
    rig_stop(r);
}

static void test_stress(void **state)
{
    (void)state;
    stress_round(ENGINE_PACK_OFF);
    stress_round(ENGINE_PACK_ALWAYS);
}

/* A key that cannot be made resident beside one in use travels with its
 * proof: the backend proves in the plan the engine admitted (streaming,
 * under what is left of the device), not in one of its own (resident,
 * under the whole device), and holds nothing after it. */
static void test_travel_admitted(void **state)
{
    (void)state;
    /* bp10 alone fits resident (1 MiB + 1 MiB scratch); beside bp6 (64 KiB
     * resident) it only streams (1.5 MiB scratch). */
    static const size_t cap[MAX_DEV] = {2048 * KIB + 32 * KIB};
    rig_t *r = rig_slot();
    rig_init(r, 1, cap, TWO_WORKERS, NULL);
    rig_start(r);
    engine_sim_set_delay(r->sim[0], 30000);
    job_in_t small = {
        .kind = ENGINE_KIND_BELLPERSON, .key = r->kbp, .prio = CUZK_PRIO_NORMAL, .n = 4};
    for (int i = 0; i < 4; i++)
        small.ws[i] = g_bp.w;
    engine_job_id_t a = 0, b = 0;
    cuzk_error_t err = {0};
    assert_int_equal(submit_job(r, &a, &small, &g_bp, &err), CUZK_OK);
    wait_proves(r->sim[0], 1); /* bp6 resident and in use */
    job_in_t big = {
        .kind = ENGINE_KIND_BELLPERSON, .key = r->kbp10, .prio = CUZK_PRIO_HIGH, .n = 1};
    big.ws[0] = g_bp10.w;
    assert_int_equal(submit_job(r, &b, &big, &g_bp10, &err), CUZK_OK);
    engine_result_t ra, rb;
    await_ok(r, b, &rb);
    await_ok(r, a, &ra);
    assert_int_equal(rb.timings[0].streamed, 1);
    assert_int_equal(ra.timings[0].streamed, 0);
    engine_result_free(&ra);
    engine_result_free(&rb);
    rig_check_held(r); /* bp10 was dropped; bp6 is reserved */
    rig_stop(r);
}

/* Destroy with work in flight: cancels, waits, frees (no leak under ASan). */
static void test_destroy_busy(void **state)
{
    (void)state;
    rig_t *r = rig_slot();
    rig_init(r, 2, CAP_BIG, TWO_WORKERS, NULL);
    rig_start(r);
    for (int d = 0; d < 2; d++)
        engine_sim_set_delay(r->sim[d], 50000);
    for (int i = 0; i < 10; i++)
        submit_simple(r, (cuzk_priority)(i % CUZK_PRIO_COUNT));
    wait_proves(r->sim[0], 1);
    int before = __atomic_load_n(&g_key_destroyed, __ATOMIC_SEQ_CST);
    /* keys still registered: engine_destroy runs their destructors */
    engine_destroy(r->e);
    g_rig_live = 0;
    assert_int_equal(__atomic_load_n(&g_key_destroyed, __ATOMIC_SEQ_CST) - before, 3);
    /* every job ended exactly once, the cancelled ones included */
    check_done(&r->done, &r->log, 10, r);
    unsigned cancelled = 0;
    for (size_t i = 0; i < r->done.n; i++)
        cancelled += r->done.d[i].state == ENGINE_JOB_CANCELLED;
    assert_true(cancelled >= 1);
    for (int i = 0; i < r->n; i++) {
        engine_sim_stats_t ss;
        engine_sim_stats(r->sim[i], &ss);
        assert_int_equal(ss.live, 0);
        engine_sim_free(r->sim[i]);
    }
    free(r->log.ev);
    pthread_mutex_destroy(&r->log.mu);
}

static int group_setup(void **state)
{
    (void)state;
    fixture_make(&g_bp, GROTH16_BELLPERSON, 6, 0xb0b);
    fixture_make(&g_sj, GROTH16_SNARKJS, 6, 0x5a5);
    fixture_make(&g_bp10, GROTH16_BELLPERSON, 10, 0xa10);
    fixture_make(&g_bp2, GROTH16_BELLPERSON, 6, 0xb2b);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    fixture_free(&g_bp);
    fixture_free(&g_sj);
    fixture_free(&g_bp10);
    fixture_free(&g_bp2);
    return 0;
}

/* After every test: an engine a failed test left running is stopped, so
 * the next tests start clean instead of failing in its wake. */
static int rig_teardown(void **state)
{
    (void)state;
    if (!g_rig_live)
        return 0;
    g_rig_live = 0;
    engine_destroy(g_rig.e);
    for (int i = 0; i < g_rig.n; i++)
        engine_sim_free(g_rig.sim[i]);
    free(g_rig.log.ev);
    pthread_mutex_destroy(&g_rig.log.mu);
    pthread_mutex_destroy(&g_rig.done.mu);
    memset(&g_rig, 0, sizeof g_rig);
    return 0;
}

int main(void)
{
    tu_init("test_engine");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_matches_cpu, rig_teardown),
        cmocka_unit_test_teardown(test_witness_fn, rig_teardown),
        cmocka_unit_test_teardown(test_witness_share, rig_teardown),
        cmocka_unit_test_teardown(test_witness_pool, rig_teardown),
        cmocka_unit_test_teardown(test_witness_pack, rig_teardown),
        cmocka_unit_test_teardown(test_witness_pack_fn, rig_teardown),
        cmocka_unit_test_teardown(test_preload_warm, rig_teardown),
        cmocka_unit_test_teardown(test_preload_lane, rig_teardown),
        cmocka_unit_test_teardown(test_multi_partition, rig_teardown),
        cmocka_unit_test_teardown(test_priority_critical, rig_teardown),
        cmocka_unit_test_teardown(test_critical_lane, rig_teardown),
        cmocka_unit_test_teardown(test_critical_device_lane, rig_teardown),
        cmocka_unit_test_teardown(test_priority_aging, rig_teardown),
        cmocka_unit_test_teardown(test_bad_specs, rig_teardown),
        cmocka_unit_test_teardown(test_cancel_queued, rig_teardown),
        cmocka_unit_test_teardown(test_cancel_running, rig_teardown),
        cmocka_unit_test_teardown(test_await_timeout, rig_teardown),
        cmocka_unit_test_teardown(test_fail_plan_backend, rig_teardown),
        cmocka_unit_test_teardown(test_fail_prove, rig_teardown),
        cmocka_unit_test_teardown(test_fail_witness, rig_teardown),
        cmocka_unit_test_teardown(test_predecessor, rig_teardown),
        cmocka_unit_test_teardown(test_residency, rig_teardown),
        cmocka_unit_test_teardown(test_residency_alternate, rig_teardown),
        cmocka_unit_test_teardown(test_layout_decided_once, rig_teardown),
        cmocka_unit_test_teardown(test_backpressure, rig_teardown),
        cmocka_unit_test_teardown(test_stress, rig_teardown),
        cmocka_unit_test_teardown(test_travel_admitted, rig_teardown),
        cmocka_unit_test_teardown(test_destroy_busy, rig_teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
