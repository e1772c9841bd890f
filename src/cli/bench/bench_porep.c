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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_engine_run.h"
#include "cli.h"
#include "cli_backend.h"
#include "cli_porep_key.h"
#include "cli_util.h"
#include "cuzk/engine.h"
#include "cuzk/gen.h"

#define FLOOR_PART_S_27 1.0 /* DESIGN.md §6: ~0.8-1.2 s per partition at 2^27 */
#define CURIO_S_PER_PROOF 37.7

typedef struct porep_cfg {
    unsigned log_domain;
    bench_engine_flags_t f; /* device and setup resolved */
} porep_cfg_t;

/* One partition's witness, made in the engine's witness stage. */
typedef struct wgen {
    const gen_shape_t *sh;
    uint64_t seed;
    uint32_t partition;
} wgen_t;

static cuzk_status wgen_fill(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    const wgen_t *g = ctx;
    if (n != g->sh->n_vars)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "witness of %zu values for %u variables", n,
                              g->sh->n_vars);
    return gen_porep_witness(w, g->sh, g->seed, g->partition, threads, err);
}

/* Every partition's generator, indexed proof * P + partition. */
typedef struct wgens {
    const gen_shape_t *sh;
    uint64_t seed;
    int partitions;
    wgen_t *g; /* proofs x partitions */
} wgens_t;

static void *wgen_ctx(void *user, int proof, int part)
{
    wgens_t *gs = user;
    size_t i = (size_t)proof * (size_t)gs->partitions + (size_t)part;
    gs->g[i] = (wgen_t){gs->sh, gs->seed, (uint32_t)i};
    return &gs->g[i];
}

/* The workload's own figures beside the engine run's. */
typedef struct porep_out {
    double gen_circuit_s, setup_s;
    int key_on_device;
    bench_run_out_t run;
} porep_out_t;

static int run(porep_out_t *o, const porep_cfg_t *B, const gen_shape_t *sh, const circuit_t *c,
               const cli_porep_key_t *k)
{
    wgens_t gs = {sh, B->f.seed, B->f.partitions,
                  calloc((size_t)B->f.proofs * (size_t)B->f.partitions, sizeof(wgen_t))};
    if (!gs.g) {
        fprintf(stderr, "cuzk bench porep: out of memory\n");
        return CLI_USAGE;
    }
    bench_run_cfg_t R = {.cmd = "bench porep",
                         .key_name = "porep-32g",
                         .kind = ENGINE_KIND_BELLPERSON,
                         .prio = CUZK_PRIO_NORMAL,
                         .device = B->f.device,
                         .devices = B->f.devices,
                         .workers = B->f.workers,
                         .in_flight = B->f.in_flight,
                         .proofs = B->f.proofs,
                         .partitions = B->f.partitions,
                         .check = B->f.check,
                         .critical_lane = B->f.critical_lane,
                         .witness_pack = B->f.witness_pack,
                         .budget = B->f.budget,
                         .host_budget = B->f.host_budget,
                         .events = B->f.events,
                         .fn = wgen_fill,
                         .ctx = wgen_ctx,
                         .user = &gs};
    int rc = bench_run(&o->run, &R, c, k);
    free(gs.g);
    return rc;
}

static void report(const porep_cfg_t *B, const porep_out_t *o, const char *dev)
{
    const bench_run_out_t *r = &o->run;
    double floor =
        FLOOR_PART_S_27 * B->f.partitions * (double)(1ull << B->log_domain) / (double)(1ull << 27);
    int full = B->log_domain == 27 && B->f.partitions == 10;
    char curio[32] = "null"; /* only comparable at the real size */
    if (full)
        snprintf(curio, sizeof curio, "%.3f", r->s_per_proof / CURIO_S_PER_PROOF);
    printf("{\"bench\":\"porep\",\"device\":\"%s\",\"devices\":%d,\"log_domain\":%u,"
           "\"partitions\":%d,\"proofs\":%d,\"workers\":%d,\"in_flight\":%d,\"vram_budget\":%zu,"
           "\"key_on_device\":%s,\"gen_circuit_s\":%.3f,\"setup_s\":%.3f,",
           dev, B->f.devices, B->log_domain, B->f.partitions, B->f.proofs, B->f.workers,
           B->f.in_flight, B->f.budget, o->key_on_device ? "true" : "false", o->gen_circuit_s,
           o->setup_s);
    bench_run_json(stdout, r, B->f.devices);
    printf("\"floor_s\":%.5g,\"ratio_floor\":%.2f,\"curio_s\":%.1f,\"ratio_curio\":%s,"
           "\"all_verified\":true}\n",
           floor, r->s_per_proof / floor, CURIO_S_PER_PROOF, curio);
    char devs[32] = "";
    if (B->f.devices > 1)
        snprintf(devs, sizeof devs, "%d devices x ", B->f.devices);
    printf("\nporep-32g at 2^%u, %d proofs x %d partitions on %s (%s%d worker%s, %d in flight), "
           "every proof verified:\n",
           B->log_domain, B->f.proofs, B->f.partitions, dev, devs, B->f.workers,
           B->f.workers > 1 ? "s" : "", B->f.in_flight);
    printf("  workload: circuit %.2f s, key %.2f s (%s)\n", o->gen_circuit_s, o->setup_s,
           o->key_on_device ? "bases stay in VRAM" : "bases in host memory");
    bench_run_table(stdout, r, B->f.devices);
    printf("  floor %.4g s/proof (DESIGN.md §6%s): ratio %.2f", floor,
           full ? "" : ", scaled to this size", r->s_per_proof / floor);
    if (full)
        printf("   Curio cuzk %.1f s/proof (RTX 5070 Ti, other hardware): ratio %.2f",
               CURIO_S_PER_PROOF, r->s_per_proof / CURIO_S_PER_PROOF);
    printf("\n");
}

static int usage(const char *a)
{
    fprintf(stderr,
            "cuzk bench porep: bad option '%s'\nusage: cuzk bench porep [--log-domain "
            "K] " BENCH_ENGINE_FLAGS_USAGE "\n",
            a);
    return CLI_USAGE;
}

static int parse_args(porep_cfg_t *B, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int f = bench_engine_flag(&B->f, "bench porep", argc, argv, &i);
        if (f < 0)
            return CLI_USAGE;
        if (f)
            continue;
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        long long x = v ? strtoll(v, &end, 10) : 0;
        if (!strcmp(a, "--log-domain") && v && *v && !*end && x >= GEN_LOG_DOMAIN_MIN &&
            x <= GEN_LOG_DOMAIN_MAX)
            B->log_domain = (unsigned)x;
        else
            return usage(a);
        i++;
    }
    return CLI_OK;
}

int bench_porep(int argc, char **argv)
{
    porep_cfg_t B = {.log_domain = 12};
    bench_engine_flags_default(&B.f, 10);
    int rc = parse_args(&B, argc, argv);
    if (rc != CLI_OK)
        return rc;
    if (!bench_engine_flags_resolve(&B.f, "bench porep"))
        return CLI_USAGE;
    const char *dev = device_kind_str(B.f.device);
    cuzk_error_t err = {0};
    gen_shape_t sh;
    circuit_t c = {0};
    cli_porep_key_t k;
    porep_out_t o;
    memset(&k, 0, sizeof k);
    memset(&o, 0, sizeof o);
    double t0 = cli_now();
    if (gen_porep_shape(&sh, B.log_domain, &err) != CUZK_OK ||
        gen_porep_circuit(&c, &sh, B.f.seed, 0, &err) != CUZK_OK) {
        rc = cli_fail("bench porep", "gen-circuit", &err);
        goto out;
    }
    o.gen_circuit_s = cli_now() - t0;
    fprintf(stderr, "cuzk bench porep: porep-32g at 2^%u: %u constraints, %u variables, %.2f s\n",
            B.log_domain, sh.n_constraints, sh.n_vars, o.gen_circuit_s);
    if ((rc = bench_run_key(&k, "bench porep", &c, B.f.setup, B.f.budget, B.f.workers,
                            B.f.devices)) != CLI_OK)
        goto out;
    o.setup_s = k.setup_s;
    o.key_on_device = k.on_device;
    if ((rc = run(&o, &B, &sh, &c, &k)) != CLI_OK)
        goto out;
    report(&B, &o, dev);
out:
    cli_porep_key_free(&k);
    circuit_free(&c);
    return rc;
}
