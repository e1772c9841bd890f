/* `cuzk bench porep [--log-domain K] [--partitions P] [--proofs N]
 * [--device cpu|cuda] [--devices D] [--setup cpu|cuda] [--vram-budget SIZE]
 * [--workers W] [--in-flight J] [--host-budget SIZE] [--seed S]
 * [--events FILE] [--check]`:
 * the throughput benchmark of the PoRep-shaped workload (gen.h, profile
 * porep-32g at 2^K), as a daemon would run it; --events writes the
 * engine's event log (eventlog.h) for `cuzk timeline`.
 *
 * Generates the circuit and an INSECURE key (on the GPU when proving on
 * it: the bases stay in VRAM when they fit the budget beside what the
 * workers need, else they are downloaded and stream from host memory),
 * then proves N proofs of P partitions through the engine with J proofs in
 * flight, on D devices (CUDA devices 0..D-1, or D simulated CPU devices;
 * W workers each; --vram-budget per device). Each partition's witness is
 * generated in the engine's witness
 * stage (ENGINE_WITNESS_FN: no witness file, none held before it is
 * needed; ready_bytes_max = --host-budget bounds them), and every proof is
 * batch-verified by the engine before it counts.
 *
 * Reports: seconds per proof in steady state (between the first and the
 * last proof's completion, over N - 1 proofs; with N = 1 that proof's
 * latency), the first proof's latency, per-partition stage times of the
 * steady proofs (witness generation, upload, H = SpMV + NTTs, each MSM,
 * the whole prove), verification per proof, each device's busy fraction
 * (union of its prove intervals over the steady window), peak host RSS,
 * peak VRAM (the ledger's reservations plus a GPU-made key; and what the
 * GPU reports in use at the end), and ratios to the floor in DESIGN.md §6
 * (~1 s per partition at 2^27, scaled linearly for smaller K) and to Curio
 * cuzk's published 37.7 s per 10-partition proof at 2^27 (an RTX 5070 Ti
 * with 16 GB: other hardware). JSON line, then a table. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_porep_key.h"
#include "cli_spans.h"
#include "cli_util.h"
#include "cuzk/engine.h"
#include "cuzk/eventlog.h"
#include "cuzk/gen.h"
#include "cuzk/parallel.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#endif

#define FLOOR_PART_S_27 1.0 /* DESIGN.md §6: ~0.8-1.2 s per partition at 2^27 */
#define CURIO_S_PER_PROOF 37.7
#define HEADROOM ((size_t)1 << 30)

typedef struct porep_cfg {
    unsigned log_domain;
    int partitions, proofs, workers, in_flight, check;
    int devices;               /* engine devices, each with `workers` workers */
    device_kind device, setup; /* resolved */
    size_t budget, host_budget;
    uint64_t seed;
    const char *events; /* event log path, or NULL */
} porep_cfg_t;

/* One partition's witness, made in the engine's witness stage. */
typedef struct wgen {
    const gen_shape_t *sh;
    uint64_t seed;
    uint32_t partition;
    int threads;
} wgen_t;

static cuzk_status wgen_fill(void *ctx, fr_t *w, size_t n, cuzk_error_t *err)
{
    const wgen_t *g = ctx;
    if (n != g->sh->n_vars)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "witness of %zu values for %u variables", n,
                              g->sh->n_vars);
    return gen_porep_witness(w, g->sh, g->seed, g->partition, g->threads, err);
}

/* What the steady proofs' partitions took on average (ms), and more. */
typedef struct porep_out {
    double gen_circuit_s, setup_s, s_per_proof, first_s, wall_s;
    double witness, upload, h, msm_a, msm_b, msm_l, msm_h, prove, admit; /* ms per partition */
    double verify_ms;                                                    /* per proof */
    double busy;                                                         /* the devices' mean */
    double busy_dev[ENGINE_MAX_DEVICES];                                 /* each device's */
    int streamed, key_on_device;
    double rss_gib, vram_ledger_gib, vram_used_gib;
    double pool_gib; /* witness buffers kept for reuse at the end (pinned on a GPU) */
    int pinned;      /* they come from page-locked memory */
} porep_out_t;

static void add_timings(porep_out_t *o, const engine_result_t *r)
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
}

static void scale_timings(porep_out_t *o, double parts, double proofs)
{
    double *f[] = {&o->witness, &o->upload, &o->h,     &o->msm_a, &o->msm_b,
                   &o->msm_l,   &o->msm_h,  &o->prove, &o->admit};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        *f[i] /= parts;
    o->verify_ms /= proofs;
}

static int submit_proof(engine_t *e, engine_job_id_t *id, engine_key_t *key, wgen_t *gens,
                        int parts)
{
    engine_witness_t *ws = calloc((size_t)parts, sizeof *ws);
    if (!ws) {
        fprintf(stderr, "cuzk bench porep: out of memory\n");
        return 0;
    }
    for (int p = 0; p < parts; p++)
        ws[p] = (engine_witness_t){.form = ENGINE_WITNESS_FN, .fn = wgen_fill, .ctx = &gens[p]};
    engine_job_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = ENGINE_KIND_BELLPERSON;
    spec.priority = CUZK_PRIO_NORMAL;
    spec.key = key;
    spec.witnesses = ws;
    spec.n_partitions = (size_t)parts;
    cuzk_error_t err = {0};
    cuzk_status st = engine_submit(e, id, &spec, &err);
    free(ws);
    if (st != CUZK_OK)
        cli_fail("bench porep", "submit", &err);
    return st == CUZK_OK;
}

/* Device d's budget for the engine: --vram-budget, else its free memory
 * (less headroom), less the bases a GPU setup left there (device 0). */
static size_t engine_budget(const porep_cfg_t *B, const cli_porep_key_t *k, int cuda, int d)
{
    size_t b = B->budget, kb = d == 0 ? k->dev_bytes : 0;
#ifdef CUZK_HAVE_CUDA
    if (!b && cuda) {
        size_t fr = 0, tot = 0;
        if (cuzk_cuda_device_memory(&fr, &tot, d, NULL) == CUZK_OK)
            b = fr > HEADROOM ? fr - HEADROOM + kb : kb;
    }
#else
    (void)cuda;
#endif
    if (!b)
        b = (size_t)64 << 30; /* the CPU's simulated device */
    return b > kb ? b - kb : 0;
}

static int run(porep_out_t *o, const porep_cfg_t *B, const gen_shape_t *sh, const circuit_t *c,
               const cli_porep_key_t *k)
{
    cuzk_error_t err = {0};
    cli_device_t dctx[ENGINE_MAX_DEVICES];
    device_t dev[ENGINE_MAX_DEVICES];
    engine_t *e = NULL;
    int D = B->devices;
    memset(dctx, 0, sizeof dctx);
    engine_key_t *key = NULL;
    int rc = CLI_USAGE, nproc = parallel_threads(0), N = B->proofs, P = B->partitions;
    size_t total = (size_t)N * (size_t)P * 4 + 16;
    span_recorder_t rec;
    int have_rec = span_recorder_init(&rec, total) == CUZK_OK;
    engine_job_id_t *ids = calloc((size_t)N, sizeof *ids);
    uint64_t *done = calloc((size_t)N, sizeof *done), submit0 = 0;
    wgen_t *gens = calloc((size_t)N * (size_t)P, sizeof *gens);
    if (!have_rec || !ids || !done || !gens) {
        fprintf(stderr, "cuzk bench porep: out of memory\n");
        goto out;
    }
    if (B->events && eventlog_open(&rec.log, B->events, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "--events", &err);
        goto out;
    }
    int cuda = B->device == DEVICE_CUDA;
    for (int d = 0; d < D; d++)
        if (cli_device_open(&dev[d], &dctx[d], B->device, d, engine_budget(B, k, cuda, d),
                            B->workers, &err) != CUZK_OK) {
            rc = cli_fail("bench porep", D > 1 ? "--devices" : "--device", &err);
            goto out;
        }
    engine_config_t cfg;
    engine_config_default(&cfg);
    cfg.devices = dev;
    cfg.n_devices = (unsigned)D;
    /* two witnesses in the making per device and one more: each device
     * takes one per prove (~1.8 s at 2^27), each takes ~1.3 s on its cores */
    cfg.witness_threads = (unsigned)(D > 1 ? D + 1 : 2);
    /* cores for the device workers and the verifier besides synthesis,
     * which runs at a lower priority than they do */
    int spare = nproc - 2 * B->workers * D - 1;
    cfg.stage_threads = spare / (int)cfg.witness_threads > 1 ? spare / (int)cfg.witness_threads : 1;
    cfg.witness_nice = 5;
    o->pinned = dev[0].host_alloc != NULL; /* the device's: page-locked witness buffers */
    cfg.ready_max = (unsigned)(B->workers * D + 2);
    cfg.ready_bytes_max = B->host_budget;
    cfg.on_event = span_recorder_hook;
    cfg.event_ctx = &rec;
    for (int i = 0; i < N * P; i++)
        gens[i] = (wgen_t){sh, B->seed, (uint32_t)i, cfg.stage_threads};
    if (engine_new(&e, &cfg, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "engine", &err);
        goto out;
    }
    engine_key_spec_t ks;
    memset(&ks, 0, sizeof ks);
    ks.name = "porep-32g";
    ks.pk = &k->pk;
    ks.circuit = c;
    ks.check = B->check ? c : NULL;
    if (engine_key_register(e, &key, &ks, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "key", &err);
        goto out;
    }
    /* J proofs in flight, awaited in order, the next submitted as one ends */
    int next = 0;
    submit0 = ledger_clock_ns();
    for (int d = 0; d < N; d++) {
        while (next < N && next - d < B->in_flight)
            if (!submit_proof(e, &ids[next], key, &gens[(size_t)next * P], P))
                goto out;
            else
                next++;
        engine_result_t r;
        if (engine_await(e, ids[d], -1, &r, &err) != CUZK_OK) {
            rc = cli_fail("bench porep", "proof", &err);
            engine_result_free(&r);
            goto out;
        }
        done[d] = r.done_ns;
        if (N == 1 || d > 0)
            add_timings(o, &r);
        fprintf(stderr, "cuzk bench porep: proof %d/%d done at %.2f s (%zu partitions verified)\n",
                d + 1, N, (double)(r.done_ns - submit0) * 1e-9, r.n_partitions);
        engine_result_free(&r);
    }
    o->first_s = (double)(done[0] - submit0) * 1e-9;
    o->wall_s = (double)(done[N - 1] - submit0) * 1e-9;
    o->s_per_proof = N > 1 ? (double)(done[N - 1] - done[0]) * 1e-9 / (N - 1) : o->first_s;
    scale_timings(o, (double)(N > 1 ? N - 1 : 1) * P, N > 1 ? N - 1 : 1);
    pthread_mutex_lock(&rec.mu);
    uint64_t w0 = N > 1 ? done[0] : submit0, w1 = done[N - 1];
    o->busy = 0;
    for (int d = 0; d < D; d++) {
        overlap_t ov = spans_overlap_device(rec.spans, rec.n, d, w0, w1);
        o->busy_dev[d] = w1 > w0 ? ov.union_s / ((double)(w1 - w0) * 1e-9) : 0;
        o->busy += o->busy_dev[d] / D;
    }
    pthread_mutex_unlock(&rec.mu);
    engine_stats_t es;
    engine_stats(e, &es);
    /* the largest device's: each has its own ledger and memory */
    for (int d = 0; d < D && d < (int)es.n_devices; d++) {
        double g = (double)(es.devices[d].ledger.peak_reserved + (d == 0 ? k->dev_bytes : 0)) /
                   1073741824.0;
        o->vram_ledger_gib = g > o->vram_ledger_gib ? g : o->vram_ledger_gib;
    }
    o->pool_gib = (double)es.witness_pool_bytes / 1073741824.0;
#ifdef CUZK_HAVE_CUDA
    for (int d = 0; d < D; d++) {
        size_t fr = 0, tot = 0;
        if (dctx[d].kind == DEVICE_CUDA && cuzk_cuda_device_memory(&fr, &tot, d, NULL) == CUZK_OK &&
            (double)(tot - fr) / 1073741824.0 > o->vram_used_gib)
            o->vram_used_gib = (double)(tot - fr) / 1073741824.0;
    }
#endif
    rc = CLI_OK;
out:
    if (key)
        engine_key_release(e, key);
    engine_destroy(e);
    for (int d = 0; d < D; d++)
        if (have_rec && rec.log && eventlog_dropped(rec.log))
            fprintf(stderr, "cuzk bench porep: %llu events could not be written to %s\n",
                    (unsigned long long)eventlog_dropped(rec.log), B->events);
    if (have_rec) {
        eventlog_close(rec.log);
        span_recorder_free(&rec);
    }
    free(ids);
    free(done);
    free(gens);
    return rc;
}

static void report(const porep_cfg_t *B, const porep_out_t *o, const char *dev)
{
    double floor =
        FLOOR_PART_S_27 * B->partitions * (double)(1ull << B->log_domain) / (double)(1ull << 27);
    int full = B->log_domain == 27 && B->partitions == 10;
    char curio[32] = "null"; /* only comparable at the real size */
    if (full)
        snprintf(curio, sizeof curio, "%.3f", o->s_per_proof / CURIO_S_PER_PROOF);
    char busy[ENGINE_MAX_DEVICES * 8 + 4] = "[", pct[ENGINE_MAX_DEVICES * 6 + 4] = "";
    for (int d = 0; d < B->devices; d++) {
        size_t at = strlen(busy), pt = strlen(pct);
        snprintf(busy + at, sizeof busy - at, "%s%.3f", d ? "," : "", o->busy_dev[d]);
        snprintf(pct + pt, sizeof pct - pt, " %.0f%%", o->busy_dev[d] * 100);
    }
    strcat(busy, "]");
    printf(
        "{\"bench\":\"porep\",\"device\":\"%s\",\"devices\":%d,\"log_domain\":%u,\"partitions\":%d,"
        "\"proofs\":%d,\"workers\":%d,\"in_flight\":%d,\"vram_budget\":%zu,"
        "\"key_on_device\":%s,\"gen_circuit_s\":%.3f,\"setup_s\":%.3f,\"s_per_proof\":%.4f,"
        "\"first_proof_s\":%.4f,\"wall_s\":%.3f,\"stage_ms\":{\"witness\":%.2f,\"admit\":%.2f,"
        "\"upload\":%.2f,\"h\":%.2f,\"msm_a\":%.2f,\"msm_b\":%.2f,\"msm_l\":%.2f,"
        "\"msm_h\":%.2f,\"prove\":%.2f},\"verify_ms_per_proof\":%.2f,\"gpu_busy\":%.3f,"
        "\"gpu_busy_per_device\":%s,"
        "\"streamed_partitions\":%d,\"rss_peak_gib\":%.2f,\"vram_ledger_peak_gib\":%.2f,"
        "\"vram_used_gib\":%.2f,\"witness_pool_gib\":%.2f,\"witness_pinned\":%s,\"floor_s\":%."
        "5g,\"ratio_floor\":%.2f,\"curio_s\":%.1f,"
        "\"ratio_curio\":%s,\"all_verified\":true}\n",
        dev, B->devices, B->log_domain, B->partitions, B->proofs, B->workers, B->in_flight,
        B->budget, o->key_on_device ? "true" : "false", o->gen_circuit_s, o->setup_s,
        o->s_per_proof, o->first_s, o->wall_s, o->witness, o->admit, o->upload, o->h, o->msm_a,
        o->msm_b, o->msm_l, o->msm_h, o->prove, o->verify_ms, o->busy, busy, o->streamed,
        o->rss_gib, o->vram_ledger_gib, o->vram_used_gib, o->pool_gib, o->pinned ? "true" : "false",
        floor, o->s_per_proof / floor, CURIO_S_PER_PROOF, curio);
    char devs[32] = "";
    if (B->devices > 1)
        snprintf(devs, sizeof devs, "%d devices x ", B->devices);
    printf("\nporep-32g at 2^%u, %d proofs x %d partitions on %s (%s%d worker%s, %d in flight), "
           "every proof verified:\n",
           B->log_domain, B->proofs, B->partitions, dev, devs, B->workers,
           B->workers > 1 ? "s" : "", B->in_flight);
    printf("  workload: circuit %.2f s, key %.2f s (%s)\n", o->gen_circuit_s, o->setup_s,
           o->key_on_device ? "bases stay in VRAM" : "bases in host memory");
    printf("  s/proof (steady)  %8.3f     first proof %8.3f s\n", o->s_per_proof, o->first_s);
    printf("  per partition ms: witness %.1f  upload %.1f  H %.1f  A %.1f  B %.1f  L %.1f  "
           "H-MSM %.1f  prove %.1f (admit wait %.1f)\n",
           o->witness, o->upload, o->h, o->msm_a, o->msm_b, o->msm_l, o->msm_h, o->prove, o->admit);
    char per[sizeof pct + 16] = "";
    if (B->devices > 1)
        snprintf(per, sizeof per, " (per device:%s)", pct);
    printf("  verify per proof  %8.1f ms   GPU busy %.0f%%%s   streamed partitions %d\n",
           o->verify_ms, o->busy * 100, per, o->streamed);
    printf("  peak host RSS %.2f GiB   VRAM ledger peak %.2f GiB   VRAM in use at end %.2f GiB\n",
           o->rss_gib, o->vram_ledger_gib, o->vram_used_gib);
    printf("  witness buffers kept %.2f GiB (%s)\n", o->pool_gib,
           o->pinned ? "page-locked" : "ordinary memory");
    printf("  floor %.4g s/proof (DESIGN.md §6%s): ratio %.2f", floor,
           full ? "" : ", scaled to this size", o->s_per_proof / floor);
    if (full)
        printf("   Curio cuzk %.1f s/proof (RTX 5070 Ti, other hardware): ratio %.2f",
               CURIO_S_PER_PROOF, o->s_per_proof / CURIO_S_PER_PROOF);
    printf("\n");
}

static int usage(const char *a)
{
    fprintf(stderr,
            "cuzk bench porep: bad option '%s'\nusage: cuzk bench porep [--log-domain K] "
            "[--partitions P] [--proofs N] [--device cpu|cuda] [--devices D] [--setup cpu|cuda] "
            "[--vram-budget SIZE] [--workers W] [--in-flight J] [--host-budget SIZE] [--seed S] "
            "[--events FILE] [--check]\n",
            a);
    return CLI_USAGE;
}

static int parse_args(porep_cfg_t *B, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        long long x = v ? strtoll(v, &end, 10) : 0;
        int num = v && *v && !*end;
        cuzk_error_t err = {0};
        if (!strcmp(a, "--check")) {
            B->check = 1;
            continue;
        }
        if (!v)
            return usage(a);
        if (!strcmp(a, "--log-domain") && num && x >= GEN_LOG_DOMAIN_MIN && x <= GEN_LOG_DOMAIN_MAX)
            B->log_domain = (unsigned)x;
        else if (!strcmp(a, "--partitions") && num && x >= 1 && x <= 64)
            B->partitions = (int)x;
        else if (!strcmp(a, "--proofs") && num && x >= 1 && x <= 1000)
            B->proofs = (int)x;
        else if (!strcmp(a, "--workers") && num && x >= 1 && x <= 8)
            B->workers = (int)x;
        else if (!strcmp(a, "--devices") && num && x >= 1 && x <= ENGINE_MAX_DEVICES)
            B->devices = (int)x;
        else if (!strcmp(a, "--in-flight") && num && x >= 1 && x <= 64)
            B->in_flight = (int)x;
        else if (!strcmp(a, "--seed") && num && x >= 0)
            B->seed = (uint64_t)x;
        else if (!strcmp(a, "--device") || !strcmp(a, "--setup")) {
            if (!cli_device_arg(a[2] == 'd' ? &B->device : &B->setup, "bench porep", v))
                return CLI_USAGE;
        } else if (!strcmp(a, "--events") && *v)
            B->events = v;
        else if (!strcmp(a, "--vram-budget") || !strcmp(a, "--host-budget")) {
            size_t *dst = a[2] == 'v' ? &B->budget : &B->host_budget;
            if (cli_parse_bytes(dst, v, &err) != CUZK_OK)
                return cli_fail("bench porep", a, &err);
        } else
            return usage(a);
        i++;
    }
    return CLI_OK;
}

int bench_porep(int argc, char **argv)
{
    porep_cfg_t B = {12, 10, 3, 1, 2, 0, 1, DEVICE_AUTO, DEVICE_AUTO, 0, (size_t)32 << 30, 1, NULL};
    int rc = parse_args(&B, argc, argv);
    if (rc != CLI_OK)
        return rc;
    B.device = cli_device_resolve(B.device);
    const char *dev = device_kind_str(B.device);
    if (B.setup == DEVICE_AUTO)
        B.setup = B.device;
    cuzk_error_t err = {0};
#ifdef CUZK_HAVE_CUDA
    int present = 0; /* before the setup's minutes, not after */
    if (B.device == DEVICE_CUDA && B.devices > 1 &&
        cuzk_cuda_device_count(&present, NULL) == CUZK_OK && B.devices > present) {
        fprintf(stderr, "cuzk bench porep: --devices %d: only %d CUDA device%s present\n",
                B.devices, present, present == 1 ? "" : "s");
        return CLI_USAGE;
    }
#endif
    gen_shape_t sh;
    circuit_t c = {0};
    cli_porep_key_t k;
    porep_out_t o;
    memset(&k, 0, sizeof k);
    memset(&o, 0, sizeof o);
    double t0 = cli_now();
    if (gen_porep_shape(&sh, B.log_domain, &err) != CUZK_OK ||
        gen_porep_circuit(&c, &sh, B.seed, 0, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "gen-circuit", &err);
        goto out;
    }
    o.gen_circuit_s = cli_now() - t0;
    fprintf(stderr, "cuzk bench porep: porep-32g at 2^%u: %u constraints, %u variables, %.2f s\n",
            B.log_domain, sh.n_constraints, sh.n_vars, o.gen_circuit_s);
    if (cli_porep_key_make(&k, &c, 7, B.setup, B.budget, B.workers, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "setup", &err);
        goto out;
    }
    /* several devices: each its own copy, from host memory */
    if (B.devices > 1 && cli_porep_key_to_host(&k, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "setup", &err);
        goto out;
    }
    o.setup_s = k.setup_s;
    o.key_on_device = k.on_device;
    fprintf(stderr, "cuzk bench porep: INSECURE key on %s in %.2f s%s%s%s\n",
            device_kind_str(B.setup), k.setup_s, k.on_device ? " (bases stay in VRAM)" : "",
            k.detail[0] ? ": " : "", k.detail);
    if ((rc = run(&o, &B, &sh, &c, &k)) != CLI_OK)
        goto out;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        o.rss_gib = (double)ru.ru_maxrss / (1024.0 * 1024.0);
    report(&B, &o, dev);
out:
    cli_porep_key_free(&k);
    circuit_free(&c);
    return rc;
}
