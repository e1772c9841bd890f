/* `cuzk bench engine [--log K] [--jobs N] [--partitions P] [--workers W]...
 * [--device cpu|cuda] [--vram-budget SIZE] [--no-check]`: proving jobs
 * through the engine (engine.h) on one device, as a daemon would run them:
 * N bellperson jobs of P partitions each (a random circuit of 2^K rows,
 * cli_circuit.h, INSECURE test key) submitted at once, awaited, every job
 * batch-verified by the engine. Once per --workers value (default 1 then
 * 2): W workers on the device, each with its own backend, so W proofs can
 * be in flight (the next partition's witness upload overlapping the
 * current one's kernels). Reports, after a warm-up job that makes the key
 * resident on every worker: wall time, seconds per partition proof, the
 * throughput ratio to the first --workers value, the device's busy
 * fraction (the union of its prove intervals over the wall time), how many
 * proves ran at once at most, and the mean overlap (sum of prove time over
 * its union). JSON lines, then a table. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_circuit.h"
#include "cli_spans.h"
#include "cli_util.h"
#include "cuzk/engine.h"
#include "cuzk/parallel.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"

#define MAX_WORKER_RUNS 4

typedef struct bench_cfg {
    unsigned log_m;
    int jobs, partitions, check;
    device_kind device; /* resolved */
    size_t budget;
    const groth16_pk_t *pk;
    const circuit_t *c;
    const fr_t *w;
} bench_cfg_t;

typedef struct run_out {
    double wall_s, per_proof_s;
    overlap_t ov;
    int streamed;
} run_out_t;

static int submit_all(engine_t *e, engine_key_t *key, const bench_cfg_t *B, int jobs, int parts,
                      engine_job_id_t *ids)
{
    engine_witness_t *ws = calloc((size_t)parts, sizeof *ws);
    if (!ws)
        return 0;
    for (int p = 0; p < parts; p++)
        ws[p] = (engine_witness_t){.form = ENGINE_WITNESS_FR, .w = B->w, .n = B->c->n_vars};
    engine_job_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = ENGINE_KIND_BELLPERSON;
    spec.priority = CUZK_PRIO_NORMAL;
    spec.key = key;
    spec.witnesses = ws;
    spec.n_partitions = (size_t)parts;
    int ok = 1;
    for (int j = 0; j < jobs && ok; j++) {
        cuzk_error_t err = {0};
        if (engine_submit(e, &ids[j], &spec, &err) != CUZK_OK) {
            cli_fail("bench engine", "submit", &err);
            ok = 0;
        }
    }
    free(ws);
    return ok;
}

/* Awaits jobs ids[0..n); the last done time in *last, streamed partitions
 * counted in *streamed. 0 when one failed. */
static int await_all(engine_t *e, const engine_job_id_t *ids, int n, uint64_t *last, int *streamed)
{
    for (int j = 0; j < n; j++) {
        engine_result_t r;
        cuzk_error_t err = {0};
        if (engine_await(e, ids[j], -1, &r, &err) != CUZK_OK) {
            cli_fail("bench engine", "job", &err);
            engine_result_free(&r);
            return 0;
        }
        if (r.done_ns > *last)
            *last = r.done_ns;
        for (size_t p = 0; p < r.n_partitions; p++)
            *streamed += r.timings[p].streamed;
        engine_result_free(&r);
    }
    return 1;
}

static int run_workers(run_out_t *o, const bench_cfg_t *B, int workers)
{
    cuzk_error_t err = {0};
    cli_device_t dctx;
    device_t dev;
    engine_t *e = NULL;
    engine_key_t *key = NULL;
    int rc = 2, nproc = parallel_threads(0);
    size_t total = (size_t)B->jobs * (size_t)B->partitions + (size_t)workers;
    span_recorder_t rec;
    int have_rec = span_recorder_init(&rec, total) == CUZK_OK;
    engine_job_id_t *ids = calloc((size_t)B->jobs + 1, sizeof *ids);
    memset(o, 0, sizeof *o);
    if (!have_rec || !ids) {
        fprintf(stderr, "cuzk bench engine: out of memory\n");
        goto out;
    }
    if (cli_device_open(&dev, &dctx, B->device, 0, B->budget, workers, &err) != CUZK_OK) {
        rc = cli_fail("bench engine", "--device", &err);
        goto out;
    }
    engine_config_t cfg;
    engine_config_default(&cfg);
    cfg.devices = &dev;
    cfg.n_devices = 1;
    cfg.witness_threads = 2;
    cfg.stage_threads = nproc / 2 > 1 ? nproc / 2 : 1;
    cfg.ready_max = (unsigned)(2 * workers + 2);
    cfg.on_event = span_recorder_hook;
    cfg.event_ctx = &rec;
    if (engine_new(&e, &cfg, &err) != CUZK_OK) {
        rc = cli_fail("bench engine", "engine", &err);
        goto out;
    }
    engine_key_spec_t ks;
    memset(&ks, 0, sizeof ks);
    ks.name = "bench";
    ks.pk = B->pk;
    ks.circuit = B->c;
    ks.check = B->check ? B->c : NULL;
    if (engine_key_register(e, &key, &ks, &err) != CUZK_OK) {
        rc = cli_fail("bench engine", "key", &err);
        goto out;
    }
    /* warm-up: a job of one partition per worker (key to each backend) */
    uint64_t last = 0;
    int streamed = 0;
    if (!submit_all(e, key, B, 1, workers, ids) || !await_all(e, ids, 1, &last, &streamed))
        goto out;
    uint64_t t0 = ledger_clock_ns();
    last = t0;
    streamed = 0;
    if (!submit_all(e, key, B, B->jobs, B->partitions, ids) ||
        !await_all(e, ids, B->jobs, &last, &streamed))
        goto out;
    o->wall_s = (double)(last - t0) * 1e-9;
    o->per_proof_s = o->wall_s / (B->jobs * B->partitions);
    o->streamed = streamed;
    pthread_mutex_lock(&rec.mu);
    o->ov = spans_overlap(rec.spans, rec.n, t0, 0);
    pthread_mutex_unlock(&rec.mu);
    rc = 0;
out:
    if (key)
        engine_key_release(e, key);
    engine_destroy(e);
    if (have_rec)
        span_recorder_free(&rec);
    free(ids);
    return rc;
}

static int usage(const char *a)
{
    fprintf(stderr,
            "cuzk bench engine: bad option '%s'\nusage: cuzk bench engine [--log K] [--jobs N] "
            "[--partitions P] [--workers W]... [--device cpu|cuda] [--vram-budget SIZE] "
            "[--no-check]\n",
            a);
    return 2;
}

int bench_engine(int argc, char **argv)
{
    bench_cfg_t B = {16, 8, 2, 1, DEVICE_AUTO, (size_t)64 << 30, NULL, NULL, NULL};
    int workers[MAX_WORKER_RUNS], nw = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        long x = v ? strtol(v, &end, 10) : 0;
        int num = v && *v && !*end;
        cuzk_error_t err = {0};
        if (!strcmp(a, "--no-check")) {
            B.check = 0;
            continue;
        }
        if (!v)
            return usage(a);
        if (!strcmp(a, "--log") && num && x >= 4 && x <= 26)
            B.log_m = (unsigned)x;
        else if (!strcmp(a, "--jobs") && num && x >= 1 && x <= 10000)
            B.jobs = (int)x;
        else if (!strcmp(a, "--partitions") && num && x >= 1 && x <= 100)
            B.partitions = (int)x;
        else if (!strcmp(a, "--workers") && num && x >= 1 && x <= 16 && nw < MAX_WORKER_RUNS)
            workers[nw++] = (int)x;
        else if (!strcmp(a, "--device")) {
            if (!cli_device_arg(&B.device, "bench engine", v))
                return 2;
        } else if (!strcmp(a, "--vram-budget")) {
            if (cli_parse_bytes(&B.budget, v, &err) != CUZK_OK)
                return cli_fail("bench engine", a, &err);
        } else
            return usage(a);
        i++;
    }
    if (nw == 0) {
        workers[0] = 1;
        workers[1] = 2;
        nw = 2;
    }
    cuzk_error_t err = {0};
    circuit_t c = {0};
    fr_t *w = NULL;
    groth16_key_t key = {0};
    groth16_pk_t pk;
    int rc = 2;
    double t0 = cli_now();
    if (cli_test_circuit(&c, &w, B.log_m, 0xe1 + B.log_m) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: cannot make the circuit (out of memory?)\n");
        goto out;
    }
    if (groth16_setup(&key, &c, GROTH16_BELLPERSON, 7, 0, &err) != CUZK_OK) {
        rc = cli_fail("bench engine", "setup", &err);
        goto out;
    }
    groth16_key_pk(&pk, &key);
    fprintf(stderr, "cuzk bench engine: 2^%u rows, %u variables, circuit and INSECURE key %.1f s\n",
            B.log_m, c.n_vars, cli_now() - t0);
    B.pk = &pk;
    B.c = &c;
    B.w = w;
    run_out_t res[MAX_WORKER_RUNS];
    for (int k = 0; k < nw; k++) {
        if ((rc = run_workers(&res[k], &B, workers[k])) != 0)
            goto out;
        const run_out_t *o = &res[k];
        printf("{\"bench\":\"engine\",\"device\":\"%s\",\"log\":%u,\"jobs\":%d,\"partitions\":%d,"
               "\"workers\":%d,\"vram_budget\":%zu,\"wall_s\":%.4f,\"s_per_proof\":%.4f,"
               "\"speedup\":%.3f,\"busy\":%.3f,\"max_concurrent\":%d,\"overlap\":%.3f,"
               "\"streamed\":%d,\"checked\":%s}\n",
               device_kind_str(cli_device_resolve(B.device)), B.log_m, B.jobs, B.partitions,
               workers[k], B.budget, o->wall_s, o->per_proof_s, res[0].wall_s / o->wall_s,
               o->ov.union_s / o->wall_s, o->ov.max_concurrent,
               o->ov.union_s > 0 ? o->ov.sum_s / o->ov.union_s : 0, o->streamed,
               B.check ? "true" : "false");
        fflush(stdout);
    }
    printf("\nengine 2^%u, %d jobs x %d partitions, every job verified:\n"
           "workers  wall s   s/proof  speedup  busy   max conc  overlap\n",
           B.log_m, B.jobs, B.partitions);
    for (int k = 0; k < nw; k++)
        printf("%7d  %7.3f  %7.4f  %7.2f  %5.2f  %8d  %7.2f\n", workers[k], res[k].wall_s,
               res[k].per_proof_s, res[0].wall_s / res[k].wall_s, res[k].ov.union_s / res[k].wall_s,
               res[k].ov.max_concurrent,
               res[k].ov.union_s > 0 ? res[k].ov.sum_s / res[k].ov.union_s : 0);
    rc = 0;
out:
    groth16_key_free(&key);
    circuit_free(&c);
    free(w);
    return rc;
}
