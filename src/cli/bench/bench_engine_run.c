/* The engine benchmarks' driver (bench_engine_run.h).
 *
 * DESIGN: the caller's thread owns the run: it submits and awaits in
 * order; the engine's threads only call the witness function (on its pool)
 * and the span recorder's hook (under the recorder's own mutex), which is
 * read here after the last proof settled. */
#include "bench_engine_run.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli_backend.h"
#include "cli_spans.h"
#include "cli_util.h"
#include "cuzk/eventlog.h"
#include "cuzk/parallel.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#endif

static void add_timings(bench_run_out_t *o, const engine_result_t *r)
{
    for (size_t p = 0; p < r->n_partitions; p++) {
        const engine_part_timing_t *t = &r->timings[p];
        o->witness += (double)t->witness_ns * 1e-6;
        o->admit += (double)t->admit_ns * 1e-6;
        o->prove += (double)t->prove_ns * 1e-6;
        o->upload += t->parts.s[PROVE_UPLOAD] * 1e3;
        o->h += t->parts.s[PROVE_H] * 1e3;
        o->msm_a += t->parts.s[PROVE_MSM_A] * 1e3;
        o->msm_b += t->parts.s[PROVE_MSM_B] * 1e3;
        o->msm_l += t->parts.s[PROVE_MSM_L] * 1e3;
        o->msm_h += t->parts.s[PROVE_MSM_H] * 1e3;
        o->streamed += t->streamed;
    }
    o->verify_ms += (double)r->verify_ns * 1e-6;
    o->latency_s += (double)(r->done_ns - r->submit_ns) * 1e-9;
}

/* The steady proofs' sums: every proof's but the first to complete. */
static void sum_steady(bench_run_out_t *o, const bench_run_out_t *per, const uint64_t *done, int N)
{
    int first = 0;
    for (int d = 1; d < N; d++)
        first = done[d] < done[first] ? d : first;
    for (int d = 0; d < N; d++) {
        if (N > 1 && d == first)
            continue;
        const bench_run_out_t *q = &per[d];
        o->witness += q->witness;
        o->admit += q->admit;
        o->prove += q->prove;
        o->upload += q->upload;
        o->h += q->h;
        o->msm_a += q->msm_a;
        o->msm_b += q->msm_b;
        o->msm_l += q->msm_l;
        o->msm_h += q->msm_h;
        o->streamed += q->streamed;
        o->verify_ms += q->verify_ms;
        o->latency_s += q->latency_s;
    }
}

static void scale_timings(bench_run_out_t *o, double parts, double proofs)
{
    double *f[] = {&o->witness, &o->upload, &o->h,     &o->msm_a, &o->msm_b,
                   &o->msm_l,   &o->msm_h,  &o->prove, &o->admit};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        *f[i] /= parts;
    o->verify_ms /= proofs;
    o->latency_s /= proofs;
}

/* Submits a job of ws[0..parts) with key, kind and priority; 0 on
 * failure (printed as "cuzk <cmd>: <what>: ..."). */
static int job_submit(engine_t *e, engine_job_id_t *id, engine_key_t *key, engine_kind kind,
                      cuzk_priority prio, const engine_witness_t *ws, int parts, const char *cmd,
                      const char *what)
{
    engine_job_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = kind;
    spec.priority = prio;
    spec.key = key;
    spec.witnesses = ws;
    spec.n_partitions = (size_t)parts;
    cuzk_error_t err = {0};
    cuzk_status st = engine_submit(e, id, &spec, &err);
    if (st != CUZK_OK)
        cli_fail(cmd, what, &err);
    return st == CUZK_OK;
}

static int submit_proof(engine_t *e, engine_job_id_t *id, engine_key_t *key,
                        const bench_run_cfg_t *B, int proof)
{
    int parts = B->partitions;
    engine_witness_t *ws = calloc((size_t)parts, sizeof *ws);
    if (!ws) {
        fprintf(stderr, "cuzk %s: out of memory\n", B->cmd);
        return 0;
    }
    for (int p = 0; p < parts; p++)
        ws[p] = (engine_witness_t){.form = ENGINE_WITNESS_FN,
                                   .fn = B->fn,
                                   .ctx = B->ctx(B->user, proof, p),
                                   .pack_fn = B->pack_fn};
    int ok = job_submit(e, id, key, B->kind, B->prio, ws, parts, B->cmd, "submit");
    free(ws);
    return ok;
}

/* ---- flags ---- */

int bench_engine_flag(bench_engine_flags_t *f, const char *cmd, int argc, char **argv, int *i)
{
    static const struct {
        const char *name;
        size_t at;
        long long lo, hi;
    } T[] = {
        {"--proofs", offsetof(bench_engine_flags_t, proofs), 1, 1000},
        {"--partitions", offsetof(bench_engine_flags_t, partitions), 1, 64},
        {"--workers", offsetof(bench_engine_flags_t, workers), 1, 8},
        {"--devices", offsetof(bench_engine_flags_t, devices), 1, ENGINE_MAX_DEVICES},
        {"--in-flight", offsetof(bench_engine_flags_t, in_flight), 1, 64},
    };
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "--check")) {
        f->check = 1;
        return 1;
    }
    int known = !strcmp(a, "--seed") || !strcmp(a, "--device") || !strcmp(a, "--setup") ||
                !strcmp(a, "--events") || !strcmp(a, "--vram-budget") ||
                !strcmp(a, "--host-budget") || !strcmp(a, "--critical-lane") ||
                !strcmp(a, "--witness-pack");
    for (size_t t = 0; t < sizeof T / sizeof T[0]; t++)
        known |= !strcmp(a, T[t].name);
    if (!known)
        return 0;
    if (!v) {
        fprintf(stderr, "cuzk %s: %s needs a value\n", cmd, a);
        return -1;
    }
    char *end = NULL;
    long long x = strtoll(v, &end, 10);
    int num = *v && !*end && v[0] != '-' && v[0] != '+';
    cuzk_error_t err = {0};
    (*i)++;
    for (size_t t = 0; t < sizeof T / sizeof T[0]; t++)
        if (!strcmp(a, T[t].name)) {
            if (!num || x < T[t].lo || x > T[t].hi) {
                fprintf(stderr, "cuzk %s: %s '%s': a whole number from %lld to %lld\n", cmd, a, v,
                        T[t].lo, T[t].hi);
                return -1;
            }
            *(int *)((char *)f + T[t].at) = (int)x;
            return 1;
        }
    if (!strcmp(a, "--seed")) {
        if (!num || x < 0) {
            fprintf(stderr, "cuzk %s: --seed '%s': a whole number >= 0\n", cmd, v);
            return -1;
        }
        f->seed = (uint64_t)x;
    } else if (!strcmp(a, "--device") || !strcmp(a, "--setup")) {
        if (!cli_device_arg(a[2] == 'd' ? &f->device : &f->setup, cmd, v))
            return -1;
    } else if (!strcmp(a, "--critical-lane")) {
        if (strcmp(v, "on") && strcmp(v, "off")) {
            fprintf(stderr, "cuzk %s: --critical-lane '%s': on or off\n", cmd, v);
            return -1;
        }
        f->critical_lane = !strcmp(v, "on");
    } else if (!strcmp(a, "--witness-pack")) {
        int m = engine_witness_pack_parse(v);
        if (m < 0) {
            fprintf(stderr, "cuzk %s: --witness-pack '%s': off, auto or always\n", cmd, v);
            return -1;
        }
        f->witness_pack = (engine_witness_pack)m;
    } else if (!strcmp(a, "--events")) {
        if (!*v) {
            fprintf(stderr, "cuzk %s: --events needs a file name\n", cmd);
            return -1;
        }
        f->events = v;
    } else if (cli_parse_bytes(a[2] == 'v' ? &f->budget : &f->host_budget, v, &err) != CUZK_OK) {
        cli_fail(cmd, a, &err);
        return -1;
    }
    return 1;
}

void bench_engine_flags_default(bench_engine_flags_t *f, int partitions)
{
    *f = (bench_engine_flags_t){.proofs = 3,
                                .partitions = partitions,
                                .workers = 1,
                                .devices = 1,
                                .in_flight = 2,
                                .device = DEVICE_AUTO,
                                .setup = DEVICE_AUTO,
                                .host_budget = (size_t)32 << 30,
                                .seed = 1,
                                .critical_lane = 1,
                                .witness_pack = ENGINE_PACK_AUTO};
}

int bench_engine_flags_resolve(bench_engine_flags_t *f, const char *cmd)
{
    f->device = cli_device_resolve(f->device);
    if (f->setup == DEVICE_AUTO)
        f->setup = f->device;
    return bench_run_devices_present(cmd, f->device, f->devices);
}

/* ---- the second stream ---- */

typedef struct side_run {
    const bench_run_side_t *S;
    const char *cmd;
    engine_t *e;
    engine_key_t *key;
    uint64_t t0; /* the first proof's submit */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;   /* the proofs are done: submit no more */
    int failed; /* a job failed (printed) */
    double *lat, sum_w, sum_r, sum_a, sum_p, sum_v;
    int n, cap;
} side_run_t;

/* One job of the stream: submitted, awaited, recorded. 0 on failure. */
static int side_job(side_run_t *s)
{
    const bench_run_side_t *S = s->S;
    engine_witness_t ws[64];
    if (S->partitions < 1 || S->partitions > 64)
        return 0;
    for (int p = 0; p < S->partitions; p++)
        ws[p] =
            (engine_witness_t){.form = ENGINE_WITNESS_FN, .fn = S->fn, .ctx = S->ctx(S->user, p)};
    engine_job_id_t id = 0;
    if (!job_submit(s->e, &id, s->key, S->kind, S->prio, ws, S->partitions, s->cmd,
                    "mixed job: submit"))
        return 0;
    cuzk_error_t err = {0};
    engine_result_t r;
    if (engine_await(s->e, id, -1, &r, &err) != CUZK_OK) {
        cli_fail(s->cmd, "mixed job", &err);
        engine_result_free(&r);
        return 0;
    }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        double *l = realloc(s->lat, (size_t)cap * sizeof *l);
        if (!l) {
            engine_result_free(&r);
            fprintf(stderr, "cuzk %s: out of memory\n", s->cmd);
            return 0;
        }
        s->lat = l;
        s->cap = cap;
    }
    s->lat[s->n++] = (double)(r.done_ns - r.submit_ns) * 1e-9;
    for (size_t p = 0; p < r.n_partitions; p++) {
        const engine_part_timing_t *t = &r.timings[p];
        s->sum_w += (double)t->witness_ns * 1e-6;
        s->sum_r += (double)t->ready_ns * 1e-6;
        s->sum_a += (double)t->admit_ns * 1e-6;
        s->sum_p += (double)t->prove_ns * 1e-6;
    }
    s->sum_v += (double)r.verify_ns * 1e-6;
    engine_result_free(&r);
    return 1;
}

static void *side_main(void *arg)
{
    side_run_t *s = arg;
    uint64_t every = (uint64_t)(s->S->every_s * 1e9), due = s->t0 + every / 2;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        uint64_t now = ledger_clock_ns();
        while (!s->stop && now < due) {
            /* ledger_clock_ns is CLOCK_MONOTONIC, as the condition's clock */
            struct timespec ts = {(time_t)(due / 1000000000u), (long)(due % 1000000000u)};
            pthread_cond_timedwait(&s->cv, &s->mu, &ts);
            now = ledger_clock_ns();
        }
        if (s->stop)
            break;
        pthread_mutex_unlock(&s->mu);
        int ok = side_job(s);
        pthread_mutex_lock(&s->mu);
        if (!ok) {
            s->failed = 1;
            break;
        }
        due += every;
        now = ledger_clock_ns();
        if (due < now) /* a job outlived its period: the next one now, none made up */
            due = now;
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static void side_init(side_run_t *s, const bench_run_cfg_t *B)
{
    memset(s, 0, sizeof *s);
    s->S = B->side;
    s->cmd = B->cmd;
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
}

/* No job after this one; waits for the one in flight. */
static void side_stop(side_run_t *s, pthread_t tid)
{
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(tid, NULL);
}

static void side_free(side_run_t *s)
{
    free(s->lat);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
}

static void side_stats(bench_run_side_out_t *o, side_run_t *s)
{
    memset(o, 0, sizeof *o);
    o->jobs = s->n;
    if (!s->n)
        return;
    qsort(s->lat, (size_t)s->n, sizeof *s->lat, cli_cmp_double);
    for (int i = 0; i < s->n; i++)
        o->mean_s += s->lat[i] / s->n;
    o->p50_s = cli_percentile(s->lat, (size_t)s->n, 0.5);
    o->p99_s = cli_percentile(s->lat, (size_t)s->n, 0.99);
    o->max_s = s->lat[s->n - 1];
    o->witness_ms = s->sum_w / s->n;
    o->ready_ms = s->sum_r / s->n;
    o->admit_ms = s->sum_a / s->n;
    o->prove_ms = s->sum_p / s->n;
    o->verify_ms = s->sum_v / s->n;
}

/* The mixed stream's key preloaded on every device, its loads (the lane's
 * too) awaited for up to 10 minutes. A key that cannot stay resident is
 * said and left to its first job. 0: the wait ran out (printed). */
static int side_preload(engine_t *e, engine_key_t *k, int devices, const char *cmd)
{
    cuzk_error_t err = {0};
    for (int d = 0; d < devices; d++)
        if (engine_key_preload(e, k, d, &err) != CUZK_OK)
            fprintf(stderr, "cuzk %s: mixed key not preloaded on device %d: %s\n", cmd, d, err.msg);
    double t0 = cli_now();
    for (;;) {
        engine_key_info_t ki;
        if (engine_key_status(e, &ki, k, &err) != CUZK_OK) {
            cli_fail(cmd, "mixed key", &err);
            return 0;
        }
        int busy = 0;
        for (int d = 0; d < devices; d++)
            busy |= ki.warm[d] == ENGINE_WARM_PENDING || ki.warm[d] == ENGINE_WARM_LOADING ||
                    ki.lane_warm[d] == ENGINE_WARM_PENDING ||
                    ki.lane_warm[d] == ENGINE_WARM_LOADING;
        if (!busy) {
            fprintf(stderr, "cuzk %s: mixed key preloaded in %.2f s (device 0: %s, lane %s)\n", cmd,
                    cli_now() - t0, engine_warm_str(ki.warm[0]), engine_warm_str(ki.lane_warm[0]));
            return 1;
        }
        if (cli_now() - t0 > 600) {
            fprintf(stderr, "cuzk %s: the mixed key's preload did not end in 10 minutes\n", cmd);
            return 0;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
}

/* The VRAM that GPU-made keys hold on device 0 (outside the engine's
 * ledger): the proofs' and the second stream's. */
static size_t keys_dev_bytes(const bench_run_cfg_t *B, const cli_porep_key_t *k)
{
    return k->dev_bytes + (B->side ? B->side->k->dev_bytes : 0);
}

/* Device d's budget for the engine: --vram-budget, else its free memory
 * (less headroom), less the bases a GPU setup left there (device 0). */
static size_t engine_budget(const bench_run_cfg_t *B, const cli_porep_key_t *k, int cuda, int d)
{
    size_t b = B->budget, kb = d == 0 ? keys_dev_bytes(B, k) : 0;
#ifdef CUZK_HAVE_CUDA
    if (!b && cuda) {
        size_t fr = 0, tot = 0;
        if (cuzk_cuda_device_memory(&fr, &tot, d, NULL) == CUZK_OK)
            b = fr > CLI_VRAM_HEADROOM ? fr - CLI_VRAM_HEADROOM + kb : kb;
    }
#else
    (void)cuda;
#endif
    if (!b)
        b = (size_t)64 << 30; /* the CPU's simulated device */
    return b > kb ? b - kb : 0;
}

/* Busy fractions over the steady window, peak VRAM and the witness pool. */
static void measure(bench_run_out_t *o, span_recorder_t *rec, engine_t *e, const cli_device_t *dctx,
                    size_t key_bytes, int D, uint64_t w0, uint64_t w1)
{
    pthread_mutex_lock(&rec->mu);
    o->busy = 0;
    for (int d = 0; d < D; d++) {
        overlap_t ov = spans_overlap_device(rec->spans, rec->n, d, w0, w1);
        o->busy_dev[d] = w1 > w0 ? ov.union_s / ((double)(w1 - w0) * 1e-9) : 0;
        o->busy += o->busy_dev[d] / D;
    }
    pthread_mutex_unlock(&rec->mu);
    engine_stats_t es;
    engine_stats(e, &es);
    /* the largest device's: each has its own ledger and memory */
    for (int d = 0; d < D && d < (int)es.n_devices; d++) {
        double g =
            (double)(es.devices[d].ledger.peak_reserved + (d == 0 ? key_bytes : 0)) / 1073741824.0;
        o->vram_ledger_gib = g > o->vram_ledger_gib ? g : o->vram_ledger_gib;
    }
    o->pool_gib = (double)es.witness_pool_bytes / 1073741824.0;
    o->packed = es.witnesses_packed;
    o->pack_mib =
        es.witnesses_packed ? (double)es.packed_bytes / (double)es.witnesses_packed / 1048576.0 : 0;
#ifdef CUZK_HAVE_CUDA
    for (int d = 0; d < D; d++) {
        size_t fr = 0, tot = 0;
        if (dctx[d].kind == DEVICE_CUDA && cuzk_cuda_device_memory(&fr, &tot, d, NULL) == CUZK_OK &&
            (double)(tot - fr) / 1073741824.0 > o->vram_used_gib)
            o->vram_used_gib = (double)(tot - fr) / 1073741824.0;
    }
#else
    (void)dctx;
#endif
}

/* The engine over B's devices: witness threads and their cores. */
static void engine_cfg(engine_config_t *cfg, const bench_run_cfg_t *B, const device_t *dev,
                       span_recorder_t *rec)
{
    int D = B->devices;
    engine_config_default(cfg);
    cfg->devices = dev;
    cfg->n_devices = (unsigned)D;
    /* two witnesses in the making per device and one more: each device
     * takes one per prove (~1.8 s at 2^27), each takes ~1.3 s on its cores */
    cfg->witness_threads = (unsigned)(D > 1 ? D + 1 : 2);
    /* cores for the device workers (two each) and the verifier besides
     * synthesis, which runs at a lower priority than they do (the
     * daemon's rule too) */
    cfg->stage_threads = parallel_share((int)cfg->witness_threads, 2 * B->workers * D + 1);
    cfg->witness_nice = 5;
    cfg->critical_lane = B->critical_lane;
    cfg->witness_pack = B->witness_pack;
    cfg->ready_max = (unsigned)(B->workers * D + 2);
    cfg->ready_bytes_max = B->host_budget;
    cfg->on_event = span_recorder_hook;
    cfg->event_ctx = rec;
}

int bench_run_devices_present(const char *cmd, device_kind device, int devices)
{
#ifdef CUZK_HAVE_CUDA
    int present = 0;
    if (device == DEVICE_CUDA && devices > 1 && cuzk_cuda_device_count(&present, NULL) == CUZK_OK &&
        devices > present) {
        fprintf(stderr, "cuzk %s: --devices %d: only %d CUDA device%s present\n", cmd, devices,
                present, present == 1 ? "" : "s");
        return 0;
    }
#else
    (void)cmd;
    (void)device;
    (void)devices;
#endif
    return 1;
}

int bench_run_key(cli_porep_key_t *k, const char *cmd, const circuit_t *c, device_kind setup,
                  size_t budget, int workers, int devices)
{
    cuzk_error_t err = {0};
    if (cli_porep_key_make(k, c, 7, setup, budget, workers, &err) != CUZK_OK)
        return cli_fail(cmd, "setup", &err);
    /* several devices: each its own copy, from host memory */
    if (devices > 1 && cli_porep_key_to_host(k, &err) != CUZK_OK)
        return cli_fail(cmd, "setup", &err);
    fprintf(stderr, "cuzk %s: INSECURE key on %s in %.2f s%s%s%s\n", cmd, device_kind_str(setup),
            k->setup_s, k->on_device ? " (bases stay in VRAM)" : "", k->detail[0] ? ": " : "",
            k->detail);
    return CLI_OK;
}

int bench_run(bench_run_out_t *o, const bench_run_cfg_t *B, const circuit_t *c,
              const cli_porep_key_t *k)
{
    cuzk_error_t err = {0};
    cli_device_t dctx[ENGINE_MAX_DEVICES];
    device_t dev[ENGINE_MAX_DEVICES];
    engine_t *e = NULL;
    int D = B->devices;
    memset(o, 0, sizeof *o);
    memset(dctx, 0, sizeof dctx);
    engine_key_t *key = NULL;
    int rc = CLI_USAGE, N = B->proofs, P = B->partitions;
    /* a mixed stream's proves too: every 0.1 s at most for a long run */
    size_t total = (size_t)N * (size_t)P * 4 + 16 + (B->side ? 65536 : 0);
    span_recorder_t rec;
    int have_rec = span_recorder_init(&rec, total) == CUZK_OK;
    engine_job_id_t *ids = calloc((size_t)N, sizeof *ids);
    uint64_t *done = calloc((size_t)N, sizeof *done), submit0 = 0;
    bench_run_out_t *per = calloc((size_t)N, sizeof *per);
    side_run_t side;
    pthread_t side_tid;
    int side_started = 0;
    side_init(&side, B);
    if (!have_rec || !ids || !done || !per) {
        fprintf(stderr, "cuzk %s: out of memory\n", B->cmd);
        goto out;
    }
    if (B->events && eventlog_open(&rec.log, B->events, &err) != CUZK_OK) {
        rc = cli_fail(B->cmd, "--events", &err);
        goto out;
    }
    int cuda = B->device == DEVICE_CUDA;
    for (int d = 0; d < D; d++)
        if (cli_device_open(&dev[d], &dctx[d], B->device, d, engine_budget(B, k, cuda, d),
                            B->workers, &err) != CUZK_OK) {
            rc = cli_fail(B->cmd, D > 1 ? "--devices" : "--device", &err);
            goto out;
        }
    engine_config_t cfg;
    engine_cfg(&cfg, B, dev, &rec);
    o->pinned = dev[0].host_alloc != NULL; /* the device's: page-locked witness buffers */
    if (engine_new(&e, &cfg, &err) != CUZK_OK) {
        rc = cli_fail(B->cmd, "engine", &err);
        goto out;
    }
    engine_key_spec_t ks;
    memset(&ks, 0, sizeof ks);
    ks.name = B->key_name;
    ks.pk = &k->pk;
    ks.circuit = c;
    ks.check = B->check ? c : NULL;
    if (engine_key_register(e, &key, &ks, &err) != CUZK_OK) {
        rc = cli_fail(B->cmd, "key", &err);
        goto out;
    }
    if (B->side) {
        engine_key_spec_t ss;
        memset(&ss, 0, sizeof ss);
        ss.name = B->side->key_name;
        ss.pk = &B->side->k->pk;
        ss.circuit = B->side->c;
        ss.check = B->check ? B->side->c : NULL;
        ss.critical = B->side->prio == CUZK_PRIO_CRITICAL;
        if (engine_key_register(e, &side.key, &ss, &err) != CUZK_OK) {
            rc = cli_fail(B->cmd, "mixed key", &err);
            goto out;
        }
        side.e = e;
        if (B->side->preload && !side_preload(e, side.key, D, B->cmd))
            goto out;
    }
    /* J proofs in flight, awaited in order, the next submitted as one ends */
    int next = 0;
    submit0 = ledger_clock_ns();
    side.t0 = submit0;
    if (B->side && pthread_create(&side_tid, NULL, side_main, &side) == 0)
        side_started = 1;
    else if (B->side) {
        fprintf(stderr, "cuzk %s: cannot start the mixed stream's thread\n", B->cmd);
        goto out;
    }
    for (int d = 0; d < N; d++) {
        while (next < N && next - d < B->in_flight)
            if (!submit_proof(e, &ids[next], key, B, next))
                goto out;
            else
                next++;
        engine_result_t r;
        if (engine_await(e, ids[d], -1, &r, &err) != CUZK_OK) {
            rc = cli_fail(B->cmd, "proof", &err);
            engine_result_free(&r);
            goto out;
        }
        done[d] = r.done_ns;
        add_timings(&per[d], &r);
        fprintf(stderr, "cuzk %s: proof %d/%d done at %.2f s (%zu partitions verified)\n", B->cmd,
                d + 1, N, (double)(r.done_ns - submit0) * 1e-9, r.n_partitions);
        engine_result_free(&r);
    }
    if (side_started) {
        side_stop(&side, side_tid);
        side_started = 0;
        if (side.failed)
            goto out;
        side_stats(&o->side, &side);
    }
    /* with several in flight a later proof may finish first: the window
     * runs from the first completion to the last */
    uint64_t first = done[0], last = done[0];
    for (int d = 1; d < N; d++) {
        first = done[d] < first ? done[d] : first;
        last = done[d] > last ? done[d] : last;
    }
    o->first_s = (double)(first - submit0) * 1e-9;
    o->wall_s = (double)(last - submit0) * 1e-9;
    o->s_per_proof = N > 1 ? (double)(last - first) * 1e-9 / (N - 1) : o->first_s;
    /* Proofs that start together finish together when each is fewer
     * partitions than the workers (WindowPoSt: one): then only a run of
     * twice as many proofs as in flight gives a rate. Proofs of more
     * partitions queue behind each other's (PoRep: 14.73 s with 3, 14.60
     * with 5 on the H200). */
    o->steady = N > 1 && (N >= 2 * B->in_flight || P >= B->workers * D);
    if (!o->steady && N > 1)
        fprintf(stderr,
                "cuzk %s: %d proofs with %d in flight: s/proof is the spread of proofs that "
                "started together, not a steady rate (take --proofs %d or more)\n",
                B->cmd, N, B->in_flight, 2 * B->in_flight);
    sum_steady(o, per, done, N);
    scale_timings(o, (double)(N > 1 ? N - 1 : 1) * P, N > 1 ? N - 1 : 1);
    measure(o, &rec, e, dctx, keys_dev_bytes(B, k), D, N > 1 ? first : submit0, last);
    rc = CLI_OK;
out:
    if (side_started)
        side_stop(&side, side_tid);
    if (side.key)
        engine_key_release(e, side.key);
    if (key)
        engine_key_release(e, key);
    engine_destroy(e);
    side_free(&side);
    if (have_rec && rec.log && eventlog_dropped(rec.log))
        fprintf(stderr, "cuzk %s: %llu events could not be written to %s\n", B->cmd,
                (unsigned long long)eventlog_dropped(rec.log), B->events);
    if (have_rec) {
        eventlog_close(rec.log);
        span_recorder_free(&rec);
    }
    free(ids);
    free(done);
    free(per);
    struct rusage ru;
    if (rc == CLI_OK && getrusage(RUSAGE_SELF, &ru) == 0)
        o->rss_gib = (double)ru.ru_maxrss / (1024.0 * 1024.0);
    return rc;
}

void bench_run_json(FILE *f, const bench_run_out_t *o, int devices)
{
    char busy[ENGINE_MAX_DEVICES * 8 + 4] = "[";
    for (int d = 0; d < devices; d++) {
        size_t at = strlen(busy);
        snprintf(busy + at, sizeof busy - at, "%s%.3f", d ? "," : "", o->busy_dev[d]);
    }
    strcat(busy, "]");
    fprintf(
        f,
        "\"s_per_proof\":%.4f,\"steady\":%s,\"first_proof_s\":%.4f,\"wall_s\":%.3f,\"stage_ms\":{"
        "\"witness\":%.2f,\"admit\":%.2f,\"upload\":%.2f,\"h\":%.2f,\"msm_a\":%.2f,"
        "\"msm_b\":%.2f,\"msm_l\":%.2f,\"msm_h\":%.2f,\"prove\":%.2f},"
        "\"verify_ms_per_proof\":%.2f,\"gpu_busy\":%.3f,\"gpu_busy_per_device\":%s,"
        "\"streamed_partitions\":%d,\"rss_peak_gib\":%.2f,\"vram_ledger_peak_gib\":%.2f,"
        "\"vram_used_gib\":%.2f,\"witness_pool_gib\":%.2f,\"witness_pinned\":%s,"
        "\"witnesses_packed\":%llu,\"witness_pack_mib\":%.2f,",
        o->s_per_proof, o->steady ? "true" : "false", o->first_s, o->wall_s, o->witness, o->admit,
        o->upload, o->h, o->msm_a, o->msm_b, o->msm_l, o->msm_h, o->prove, o->verify_ms, o->busy,
        busy, o->streamed, o->rss_gib, o->vram_ledger_gib, o->vram_used_gib, o->pool_gib,
        o->pinned ? "true" : "false", (unsigned long long)o->packed, o->pack_mib);
}

void bench_run_table(FILE *f, const bench_run_out_t *o, int devices)
{
    char pct[ENGINE_MAX_DEVICES * 6 + 4] = "";
    for (int d = 0; d < devices; d++) {
        size_t pt = strlen(pct);
        snprintf(pct + pt, sizeof pct - pt, " %.0f%%", o->busy_dev[d] * 100);
    }
    fprintf(f, "  s/proof (%s)  %8.3f     first proof %8.3f s\n", o->steady ? "steady" : "spread",
            o->s_per_proof, o->first_s);
    fprintf(f,
            "  per partition ms: witness %.1f  upload %.1f  H %.1f  A %.1f  B %.1f  L %.1f  "
            "H-MSM %.1f  prove %.1f (admit wait %.1f)\n",
            o->witness, o->upload, o->h, o->msm_a, o->msm_b, o->msm_l, o->msm_h, o->prove,
            o->admit);
    char per[sizeof pct + 16] = "";
    if (devices > 1)
        snprintf(per, sizeof per, " (per device:%s)", pct);
    fprintf(f, "  verify per proof  %8.1f ms   GPU busy %.0f%%%s   streamed partitions %d\n",
            o->verify_ms, o->busy * 100, per, o->streamed);
    fprintf(f,
            "  peak host RSS %.2f GiB   VRAM ledger peak %.2f GiB   VRAM in use at end %.2f GiB\n",
            o->rss_gib, o->vram_ledger_gib, o->vram_used_gib);
    fprintf(f, "  witness buffers kept %.2f GiB (%s)", o->pool_gib,
            o->pinned ? "page-locked" : "ordinary memory");
    if (o->packed)
        fprintf(f, "   %llu witnesses packed, %.1f MiB each", (unsigned long long)o->packed,
                o->pack_mib);
    fprintf(f, "\n");
}
