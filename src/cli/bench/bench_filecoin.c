/* `cuzk bench filecoin --kind K --sector-size S [--api V] [--proofs N]
 * [--partitions P] [--device cpu|cuda] [--devices D] [--setup cpu|cuda]
 * [--vram-budget SIZE] [--workers W] [--in-flight J] [--host-budget SIZE]
 * [--seed S] [--circuit-cache DIR] [--events FILE] [--check]
 * [--mix K2 [--mix-every SECONDS[,SECONDS...]] [--mix-preload on|off]]`:
 * the real Filecoin circuits on sealed inputs through the engine, as a
 * daemon proving for Curio would run them (issue 20 item 7), each job at
 * its kind's priority as the daemon gives it (daemon_kind_priority).
 *
 * Loads the kind's circuit (recorded in memory, or through the .ccs cache
 * that `cuzk filecoin prove` keeps, named as it names it, in DIR), seals
 * the sector(s) in memory and derives each partition's vanilla data as
 * gen-vanilla and prove do (bench_filecoin_inputs.h); before any timing,
 * each partition's witness is made once and its public inputs compared
 * with those the public values give (filecoin_public.h: what a verifier
 * derives): a mismatch is exit 1. Then an INSECURE key for the circuit
 * (on the GPU when proving there) and N proofs of P partitions through
 * the engine (bench_engine_run.h: J in flight, D devices of W workers),
 * each partition's witness synthesized in the engine's witness stage and
 * every proof batch-verified by the engine before it counts. Every proof
 * proves the same sealed sector(s) (PoSt: the same sectors and
 * randomness); P defaults to the kind's real count (PoRep: the seal
 * proof's partitions; WindowPoSt 1, each of the size's sector count of
 * sectors; WinningPoSt 1; SnapDeals the size's), and P above a PoRep's,
 * WinningPoSt's or SnapDeals' count cycles over its partitions.
 *
 * Reports what `cuzk bench porep` reports, plus the kind, sector size,
 * constraints, circuit_s (load or record), seal_s (making the inputs),
 * check_s, seconds and witness ms per partition, the latency from submit
 * to verified proof, and at 32 GiB the targets on an H200: PoRep 16.0 s
 * per proof (the synthetic bench porep's), WindowPoSt 2.5 s per
 * partition, WinningPoSt 0.3 s from vanilla proof to verified proof.
 * JSON line, then a table.
 *
 * --mix K2 (issue 21's mixed load): K2's inputs, circuit and key are made
 * too; after the run above (the baseline), the same N proofs run again
 * once per --mix-every period E (default 30 s), with one K2 job (its
 * real partitions) submitted every E seconds beside them and awaited
 * before the next (bench_run_side_t). Each mixed run reports its own
 * seconds per proof, the drop against the baseline, and the K2 jobs'
 * latency from submit to verified proof (mean, p50, p99, max) and where
 * it went; with --events FILE its event log is FILE with "-mixEs"
 * before the extension. At 32 GiB with PoRep and WinningPoSt the targets
 * are issue 21's: p99 <= 1 s, throughput drop <= 10%. K2's key is
 * preloaded before each mixed run, as a daemon with it in its preload list
 * has it (--mix-preload off: its first job loads it). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_engine_run.h"
#include "bench_filecoin_inputs.h"
#include "cli.h"
#include "cli_backend.h"
#include "cli_porep_key.h"
#include "cli_util.h"
#include "cuzk/daemon.h"
#include "cuzk/filecoin_params.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_public.h"

#define GIB32 ((uint64_t)32 << 30)
#define TARGET_POREP_S_PER_PROOF 16.0
#define TARGET_WINDOW_S_PER_PARTITION 2.5
#define TARGET_WINNING_LATENCY_S 0.3
#define TARGET_MIX_P99_S 1.0 /* issue 21: WinningPoSt beside PoRep */
#define TARGET_MIX_DROP 0.10
#define MAX_EVERY 8

typedef struct fil_bench_cfg {
    fil_circuit_kind kind, mix; /* mix: FIL_CIRCUIT_COUNT when none */
    uint64_t sector_size;
    fil_api_version api;
    double every[MAX_EVERY]; /* --mix-every: one mixed run each */
    int n_every;
    int mix_preload, mix_preload_set; /* --mix-preload (default on) */
    const char *cache_dir;
    bench_engine_flags_t f; /* partitions 0: the kind's real count */
} fil_bench_cfg_t;

/* One kind's inputs, circuit and key, and what making them took. */
typedef struct workload {
    fil_circuit_kind kind;
    int partitions; /* per proof */
    bench_fil_inputs_t in;
    circuit_t c;
    cli_porep_key_t k;
    fil_circuit_source source;
    double circuit_s, seal_s, check_s, check_ms, setup_s; /* check_ms: per partition */
} workload_t;

/* ---- witnesses ---- */

/* One partition of one proof, made in the engine's witness stage. */
typedef struct part_ctx {
    const bench_fil_inputs_t *in;
    const circuit_t *c;
    unsigned k; /* the proof's partition it proves */
} part_ctx_t;

typedef struct part_ctxs {
    const workload_t *w;
    part_ctx_t *p; /* proofs x partitions (the mixed stream: partitions) */
} part_ctxs_t;

static cuzk_status part_fill(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err)
{
    const part_ctx_t *pc = ctx;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, threads, pc->c->n_vars, pc->c->n_public};
    /* synthesized straight into the engine's buffer: nothing copied */
    return fil_partition_witness_into(w, n, pc->c->n_public, &pc->in->parts[pc->k], &o, err);
}

/* The same made packed (--witness-pack) where the kind's witness is
 * mostly bits (fil_circuit_packs_well): the vector is never made whole. */
static cuzk_status part_pack(void *ctx, fr_pack_t *pack, size_t n, int threads, cuzk_error_t *err)
{
    const part_ctx_t *pc = ctx;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, threads, pc->c->n_vars, pc->c->n_public};
    return fil_partition_witness_pack(pack, n, pc->c->n_public, &pc->in->parts[pc->k], &o, err);
}

static void *part_ctx(void *user, int proof, int part)
{
    part_ctxs_t *cs = user;
    const workload_t *w = cs->w;
    size_t i = (size_t)proof * (size_t)w->partitions + (size_t)part;
    cs->p[i] = (part_ctx_t){&w->in, &w->c, (unsigned)part % w->in.partitions};
    return &cs->p[i];
}

/* The mixed stream's: every job proves the same partitions, and a job is
 * awaited before the next is submitted, so one context per partition. */
static void *side_ctx(void *user, int part)
{
    return part_ctx(user, 0, part);
}

/* ---- before timing ---- */

/* Partition k's witness, made once, must carry the inputs the public
 * values give (a verifier's inputs). Returns CLI_OK, CLI_INVALID, or
 * CLI_USAGE (printed). */
static int check_partition(const bench_fil_inputs_t *in, const circuit_t *c, unsigned k)
{
    cuzk_error_t err = {0};
    fr_t *w = malloc(c->n_vars * sizeof *w), *want = malloc((c->n_public + 1) * sizeof *want);
    size_t n = 0;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, -1, c->n_vars, c->n_public};
    int rc = CLI_USAGE;
    if (!w || !want)
        fprintf(stderr, "cuzk bench filecoin: out of memory for a witness\n");
    else if (fil_public_inputs(want, c->n_public + 1, &n, &in->pub, k, &err) != CUZK_OK)
        cli_fail("bench filecoin", "public inputs", &err);
    else if (n != c->n_public)
        fprintf(stderr,
                "cuzk bench filecoin: partition %u: %zu public inputs; the circuit has %u\n", k, n,
                c->n_public);
    else if (fil_partition_witness_into(w, c->n_vars, c->n_public, &in->parts[k], &o, &err) !=
             CUZK_OK)
        cli_fail("bench filecoin", "witness", &err);
    else {
        rc = CLI_OK;
        for (size_t j = 0; j < n && rc == CLI_OK; j++)
            if (!fr_equal(&w[1 + j], &want[j])) {
                fprintf(stderr,
                        "cuzk bench filecoin: partition %u: public input %zu of the circuit is "
                        "not the one the public values give\n",
                        k, j);
                rc = CLI_INVALID;
            }
    }
    free(w);
    free(want);
    return rc;
}

/* The kind's circuit: recorded in memory, or through DIR's cache file. */
static int load_circuit(workload_t *W, const fil_bench_cfg_t *B)
{
    cuzk_error_t err = {0};
    char stem[256], *path = NULL;
    if (B->cache_dir) {
        if (fil_params_stem(stem, sizeof stem, W->kind, B->sector_size, B->api, &err) != CUZK_OK)
            return cli_fail("bench filecoin", "--circuit-cache", &err);
        size_t len = strlen(B->cache_dir) + strlen(stem) + 32;
        if (!(path = malloc(len)))
            return CLI_USAGE;
        snprintf(path, len, "%s/%s.cuzk-%s.ccs", B->cache_dir, stem, FIL_CIRCUIT_CACHE_REV);
    }
    double t0 = cli_now();
    cuzk_status st =
        fil_circuit_load(&W->c, &W->source, W->kind, B->sector_size, B->api, path, 0, &err);
    W->circuit_s = cli_now() - t0;
    int rc = st == CUZK_OK ? CLI_OK : cli_fail("bench filecoin", path ? path : "circuit", &err);
    if (rc == CLI_OK)
        fprintf(stderr,
                "cuzk bench filecoin: %s %s circuit %s: %u constraints, %u variables, %u "
                "inputs, %.2f s%s%s\n",
                fil_circuit_kind_str(W->kind), fil_sector_size_str(B->sector_size),
                W->source == FIL_CIRCUIT_CACHED ? "read" : "recorded", W->c.n_rows, W->c.n_vars,
                W->c.n_public, W->circuit_s, path ? " -> " : "", path ? path : "");
    free(path);
    return rc;
}

/* The sealed inputs (before the circuit: a size without a sealer fails
 * before minutes of recording). partitions: --partitions for the proofs
 * (0: the kind's real count), 0 for the mixed stream. */
static int make_inputs(workload_t *W, const fil_bench_cfg_t *B, int partitions)
{
    cuzk_error_t err = {0};
    double t0 = cli_now();
    unsigned wp = partitions ? (unsigned)partitions : 1;
    if (bench_fil_inputs_make(&W->in, W->kind, B->sector_size, B->api, wp, B->f.seed, 0, &err) !=
        CUZK_OK)
        return cli_fail("bench filecoin", "inputs", &err);
    W->seal_s = cli_now() - t0;
    W->partitions = partitions ? partitions : (int)W->in.partitions;
    fprintf(stderr, "cuzk bench filecoin: %s: %llu %s sector%s sealed%s in %.2f s\n",
            fil_circuit_kind_str(W->kind), (unsigned long long)W->in.sectors, W->in.seal_name,
            W->in.sectors == 1 ? "" : "s", W->in.sparse ? " sparsely" : "", W->seal_s);
    return CLI_OK;
}

/* Each distinct partition's inputs checked once, before any timing. */
static int check_inputs(workload_t *W)
{
    unsigned distinct =
        (unsigned)W->partitions < W->in.partitions ? (unsigned)W->partitions : W->in.partitions;
    double t0 = cli_now();
    for (unsigned k = 0; k < distinct; k++) {
        int rc = check_partition(&W->in, &W->c, k);
        if (rc != CLI_OK)
            return rc;
    }
    W->check_s = cli_now() - t0;
    W->check_ms = W->check_s * 1e3 / distinct;
    fprintf(stderr,
            "cuzk bench filecoin: %s: the public inputs of %u partition%s checked in %.2f s\n",
            fil_circuit_kind_str(W->kind), distinct, distinct == 1 ? "" : "s", W->check_s);
    return CLI_OK;
}

/* Inputs, circuit, check and key of one kind. */
static int workload_make(workload_t *W, const fil_bench_cfg_t *B, fil_circuit_kind kind,
                         int partitions)
{
    int rc;
    W->kind = kind;
    if ((rc = make_inputs(W, B, partitions)) != CLI_OK || (rc = load_circuit(W, B)) != CLI_OK ||
        (rc = check_inputs(W)) != CLI_OK)
        return rc;
    if ((rc = bench_run_key(&W->k, "bench filecoin", &W->c, B->f.setup, B->f.budget, B->f.workers,
                            B->f.devices)) != CLI_OK)
        return rc;
    W->setup_s = W->k.setup_s;
    return CLI_OK;
}

static void workload_free(workload_t *W)
{
    cli_porep_key_free(&W->k);
    bench_fil_inputs_free(&W->in);
    circuit_free(&W->c);
}

/* The engine's job kind for a circuit kind (its priority follows). */
static engine_kind job_kind(fil_circuit_kind k)
{
    switch (k) {
    case FIL_CIRCUIT_POREP: return ENGINE_KIND_POREP;
    case FIL_CIRCUIT_WINNING_POST: return ENGINE_KIND_WINNING_POST;
    case FIL_CIRCUIT_WINDOW_POST: return ENGINE_KIND_WINDOW_POST;
    default: return ENGINE_KIND_SNAPDEALS;
    }
}

/* ---- the report ---- */

/* The H200 target at 32 GiB (issue 20 item 7) and what it is compared
 * with; 0 elsewhere. */
static double target(const fil_bench_cfg_t *B, const workload_t *W, const bench_run_out_t *r,
                     double *measured, const char **what)
{
    *measured = 0;
    *what = "";
    if (B->sector_size != GIB32)
        return 0;
    switch (W->kind) {
    case FIL_CIRCUIT_POREP:
        *measured = r->s_per_proof;
        *what = "s/proof";
        return TARGET_POREP_S_PER_PROOF;
    case FIL_CIRCUIT_WINDOW_POST:
        *measured = r->s_per_proof / W->partitions;
        *what = "s/partition";
        return TARGET_WINDOW_S_PER_PARTITION;
    case FIL_CIRCUIT_WINNING_POST:
        *measured = r->latency_s;
        *what = "s vanilla to verified proof";
        return TARGET_WINNING_LATENCY_S;
    default: return 0;
    }
}

static const char *source_str(fil_circuit_source s)
{
    return s == FIL_CIRCUIT_CACHED ? "cached" : s == FIL_CIRCUIT_REBUILT ? "rebuilt" : "recorded";
}

static void report(const fil_bench_cfg_t *B, const workload_t *W, const bench_run_out_t *r,
                   const char *dev)
{
    const bench_fil_inputs_t *in = &W->in;
    const circuit_t *c = &W->c;
    const char *kind = fil_circuit_kind_str(W->kind), *size = fil_sector_size_str(B->sector_size);
    const char *src = source_str(W->source);
    int P = W->partitions;
    double measured;
    const char *what;
    double tgt = target(B, W, r, &measured, &what);
    char ratio[32] = "null", tgt_s[32] = "null";
    if (tgt > 0) {
        snprintf(ratio, sizeof ratio, "%.3f", measured / tgt);
        snprintf(tgt_s, sizeof tgt_s, "%.1f", tgt);
    }
    printf("{\"bench\":\"filecoin\",\"kind\":\"%s\",\"sector_size\":%llu,\"api\":\"%s\","
           "\"seal_proof\":\"%s\",\"device\":\"%s\",\"devices\":%d,\"partitions\":%d,"
           "\"real_partitions\":%u,\"proofs\":%d,\"workers\":%d,\"in_flight\":%d,"
           "\"vram_budget\":%zu,\"constraints\":%u,\"variables\":%u,\"public_inputs\":%u,"
           "\"circuit\":\"%s\",\"circuit_s\":%.3f,\"sectors\":%llu,\"sparse\":%s,"
           "\"same_inputs_every_proof\":true,\"seal_s\":%.3f,\"check_s\":%.3f,"
           "\"key_on_device\":%s,\"setup_s\":%.3f,",
           kind, (unsigned long long)B->sector_size, fil_api_version_str(B->api), in->seal_name,
           dev, B->f.devices, P, in->partitions, B->f.proofs, B->f.workers, B->f.in_flight,
           B->f.budget, c->n_rows, c->n_vars, c->n_public, src, W->circuit_s,
           (unsigned long long)in->sectors, in->sparse ? "true" : "false", W->seal_s, W->check_s,
           W->k.on_device ? "true" : "false", W->setup_s);
    bench_run_json(stdout, r, B->f.devices);
    printf("\"s_per_partition\":%.4f,\"witness_ms_per_partition\":%.2f,\"latency_s\":%.4f,"
           "\"target_s\":%s,\"ratio_target\":%s,\"all_verified\":true}\n",
           r->s_per_proof / P, r->witness, r->latency_s, tgt_s, ratio);
    char devs[32] = "";
    if (B->f.devices > 1)
        snprintf(devs, sizeof devs, "%d devices x ", B->f.devices);
    printf("\n%s %s (%s, api %s), %d proofs x %d partition%s on %s (%s%d worker%s, %d in "
           "flight), every proof verified:\n",
           kind, size, in->seal_name, fil_api_version_str(B->api), B->f.proofs, P, P > 1 ? "s" : "",
           dev, devs, B->f.workers, B->f.workers > 1 ? "s" : "", B->f.in_flight);
    printf("  circuit %u constraints, %u variables, %u inputs (%s in %.2f s)\n", c->n_rows,
           c->n_vars, c->n_public, src, W->circuit_s);
    printf("  inputs: %llu sector%s sealed%s in %.2f s (every proof proves the same), %u real "
           "partition%s%s; inputs checked in %.2f s\n",
           (unsigned long long)in->sectors, in->sectors == 1 ? "" : "s",
           in->sparse ? " sparsely" : "", W->seal_s, in->partitions, in->partitions == 1 ? "" : "s",
           (unsigned)P > in->partitions ? " (the proof's partitions cycle over them)" : "",
           W->check_s);
    printf("  key %.2f s (%s)\n", W->setup_s,
           W->k.on_device ? "bases stay in VRAM" : "bases in host memory");
    bench_run_table(stdout, r, B->f.devices);
    printf("  s/partition %.3f   witness/partition %.1f ms (checked once outside the engine: "
           "%.1f ms)   latency %.3f s\n",
           r->s_per_proof / P, r->witness, W->check_ms, r->latency_s);
    if (tgt > 0)
        printf("  target on an H200: %.1f %s: measured %.3f, ratio %.2f\n", tgt, what, measured,
               measured / tgt);
}

/* One mixed run against the baseline's seconds per proof. */
static void report_mix(const fil_bench_cfg_t *B, const workload_t *W, const workload_t *X,
                       double every, const bench_run_out_t *r, double base, const char *dev)
{
    const bench_run_side_out_t *m = &r->side;
    double drop = base > 0 ? (r->s_per_proof - base) / base : 0;
    /* issue 21's load: the latency bound holds under any period; the
     * throughput bound is for a WinningPoSt every 30 s (or fewer) */
    int targets = B->sector_size == GIB32 && W->kind == FIL_CIRCUIT_POREP &&
                  X->kind == FIL_CIRCUIT_WINNING_POST;
    int drop_target = targets && every >= 30;
    const char *kind = fil_circuit_kind_str(W->kind), *mix = fil_circuit_kind_str(X->kind);
    printf("{\"bench\":\"filecoin-mix\",\"kind\":\"%s\",\"mix_kind\":\"%s\",\"sector_size\":%llu,"
           "\"api\":\"%s\",\"device\":\"%s\",\"devices\":%d,\"partitions\":%d,"
           "\"mix_partitions\":%d,\"proofs\":%d,\"workers\":%d,\"in_flight\":%d,"
           "\"vram_budget\":%zu,\"every_s\":%.3f,\"critical_lane\":%s,\"mix_preload\":%s,",
           kind, mix, (unsigned long long)B->sector_size, fil_api_version_str(B->api), dev,
           B->f.devices, W->partitions, X->partitions, B->f.proofs, B->f.workers, B->f.in_flight,
           B->f.budget, every, B->f.critical_lane ? "true" : "false",
           B->mix_preload ? "true" : "false");
    bench_run_json(stdout, r, B->f.devices);
    printf("\"baseline_s_per_proof\":%.4f,\"throughput_drop\":%.4f,\"mix_jobs\":%d,"
           "\"mix_latency_s\":{\"mean\":%.4f,\"p50\":%.4f,\"p99\":%.4f,\"max\":%.4f},"
           "\"mix_stage_ms\":{\"witness\":%.2f,\"ready\":%.2f,\"admit\":%.2f,\"prove\":%.2f,"
           "\"verify\":%.2f},\"target_p99_s\":%s,\"target_drop\":%s,\"all_verified\":true}\n",
           base, drop, m->jobs, m->mean_s, m->p50_s, m->p99_s, m->max_s, m->witness_ms, m->ready_ms,
           m->admit_ms, m->prove_ms, m->verify_ms, targets ? "1.0" : "null",
           drop_target ? "0.10" : "null");
    printf("\n%s beside %s every %.3g s (%s %s, %d proofs x %d partitions; %d %s jobs; critical "
           "lane %s, %s key %s), every proof verified:\n",
           mix, kind, every, kind, fil_sector_size_str(B->sector_size), B->f.proofs, W->partitions,
           m->jobs, mix, B->f.critical_lane ? "on" : "off", mix,
           B->mix_preload ? "preloaded" : "loaded by its first job");
    printf("  %s s/proof %.3f (alone %.3f): %+.1f%%   GPU busy %.0f%%\n", kind, r->s_per_proof,
           base, drop * 100, r->busy * 100);
    printf("  %s latency, submit to verified: mean %.3f  p50 %.3f  p99 %.3f  max %.3f s%s\n", mix,
           m->mean_s, m->p50_s, m->p99_s, m->max_s,
           m->jobs < 100 ? " (p99: fewer than 100 jobs, the max)" : "");
    printf("  per %s job ms: witness %.1f  ready wait %.1f  admit wait %.1f  prove %.1f  verify "
           "%.1f\n",
           mix, m->witness_ms, m->ready_ms, m->admit_ms, m->prove_ms, m->verify_ms);
    if (targets)
        printf("  targets on an H200 (issue 21): p99 <= %.1f s: %s", TARGET_MIX_P99_S,
               m->p99_s <= TARGET_MIX_P99_S ? "met" : "NOT met");
    if (drop_target)
        printf("; throughput drop <= %.0f%%: %s", TARGET_MIX_DROP * 100,
               drop <= TARGET_MIX_DROP ? "met" : "NOT met");
    if (targets)
        printf("%s\n", drop_target ? "" : " (the drop's bound is for one every 30 s)");
}

/* ---- flags ---- */

/* a: the option at fault, or NULL. */
static int usage(const char *a)
{
    if (a)
        fprintf(stderr, "cuzk bench filecoin: bad option '%s'\n", a);
    fprintf(
        stderr,
        "usage: cuzk bench filecoin --kind K --sector-size S [--api V] " BENCH_ENGINE_FLAGS_USAGE
        " [--circuit-cache DIR] [--mix K2 "
        "[--mix-every SECONDS[,SECONDS...]] [--mix-preload on|off]]\n"
        "  K, K2: porep, winning-post, window-post, snap-deals, snap-deals-poseidon\n"
        "  S: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n");
    return CLI_USAGE;
}

/* --mix-every: up to MAX_EVERY periods, each in (0, 3600] seconds. */
static int parse_every(fil_bench_cfg_t *B, const char *v)
{
    B->n_every = 0;
    const char *p = v;
    for (;;) {
        char *end = NULL;
        double x = strtod(p, &end);
        if (end == p || (*end && *end != ',') || !(x > 0 && x <= 3600) || B->n_every == MAX_EVERY) {
            fprintf(stderr,
                    "cuzk bench filecoin: --mix-every '%s': up to %d periods in seconds, each "
                    "above 0 and at most 3600, separated by commas\n",
                    v, MAX_EVERY);
            return 0;
        }
        B->every[B->n_every++] = x;
        if (!*end)
            return 1;
        p = end + 1;
    }
}

static int parse_args(fil_bench_cfg_t *B, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int f = bench_engine_flag(&B->f, "bench filecoin", argc, argv, &i);
        if (f < 0)
            return CLI_USAGE;
        if (f)
            continue;
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        cuzk_error_t err = {0};
        cuzk_status st = CUZK_OK;
        if (!v)
            return usage(a);
        if (!strcmp(a, "--kind"))
            st = fil_circuit_kind_parse(&B->kind, v, &err);
        else if (!strcmp(a, "--mix"))
            st = fil_circuit_kind_parse(&B->mix, v, &err);
        else if (!strcmp(a, "--mix-every")) {
            if (!parse_every(B, v))
                return CLI_USAGE;
        } else if (!strcmp(a, "--mix-preload")) {
            if (strcmp(v, "on") && strcmp(v, "off")) {
                fprintf(stderr, "cuzk bench filecoin: --mix-preload '%s': on or off\n", v);
                return CLI_USAGE;
            }
            B->mix_preload = !strcmp(v, "on");
            B->mix_preload_set = 1;
        } else if (!strcmp(a, "--sector-size"))
            st = fil_sector_size_parse(&B->sector_size, v, &err);
        else if (!strcmp(a, "--api"))
            st = fil_api_version_parse(&B->api, v, &err);
        else if (!strcmp(a, "--circuit-cache") && *v)
            B->cache_dir = v;
        else
            return usage(a);
        if (st != CUZK_OK)
            return cli_fail("bench filecoin", a, &err);
        i++;
    }
    if (B->kind == FIL_CIRCUIT_COUNT || !B->sector_size) {
        fprintf(stderr, "cuzk bench filecoin: %s is required\n",
                B->kind == FIL_CIRCUIT_COUNT ? "--kind" : "--sector-size");
        return usage(NULL);
    }
    if (B->mix == FIL_CIRCUIT_COUNT && (B->n_every || B->mix_preload_set)) {
        fprintf(stderr, "cuzk bench filecoin: --mix-every and --mix-preload need --mix\n");
        return CLI_USAGE;
    }
    if (!B->n_every)
        B->every[B->n_every++] = 30;
    return CLI_OK;
}

/* ---- the runs ---- */

/* FILE with "-mix<every>s" before its extension (a mixed run's log). */
static char *mix_events_path(const char *events, double every)
{
    size_t n = strlen(events) + 48;
    char *p = malloc(n);
    if (!p)
        return NULL;
    const char *dot = strrchr(events, '.'), *slash = strrchr(events, '/');
    if (!dot || (slash && dot < slash) || dot == events || (slash && dot == slash + 1))
        dot = events + strlen(events);
    snprintf(p, n, "%.*s-mix%gs%s", (int)(dot - events), events, every, dot);
    return p;
}

/* The N proofs of W (alone, or with X's stream every `every` seconds)
 * through the engine. */
static int run(bench_run_out_t *o, const fil_bench_cfg_t *B, const workload_t *W,
               const workload_t *X, double every)
{
    const bench_engine_flags_t *f = &B->f;
    part_ctxs_t cs = {W, calloc((size_t)f->proofs * (size_t)W->partitions, sizeof(part_ctx_t))};
    part_ctxs_t xs = {X, X ? calloc((size_t)X->partitions, sizeof(part_ctx_t)) : NULL};
    char name[64], xname[64], *events = NULL;
    int rc = CLI_USAGE;
    if (!cs.p || (X && !xs.p) ||
        (X && f->events && !(events = mix_events_path(f->events, every)))) {
        fprintf(stderr, "cuzk bench filecoin: out of memory\n");
        goto out;
    }
    snprintf(name, sizeof name, "%s-%s", fil_circuit_kind_str(W->kind),
             fil_sector_size_str(B->sector_size));
    engine_kind jk = job_kind(W->kind);
    bench_run_side_t S;
    if (X) {
        snprintf(xname, sizeof xname, "%s-%s", fil_circuit_kind_str(X->kind),
                 fil_sector_size_str(B->sector_size));
        engine_kind xk = job_kind(X->kind);
        S = (bench_run_side_t){.key_name = xname,
                               .c = &X->c,
                               .k = &X->k,
                               .kind = xk,
                               .prio = daemon_kind_priority(xk),
                               .partitions = X->partitions,
                               .every_s = every,
                               .fn = part_fill,
                               .ctx = side_ctx,
                               .user = &xs,
                               .preload = B->mix_preload};
    }
    bench_run_cfg_t R = {.cmd = "bench filecoin",
                         .key_name = name,
                         .kind = jk,
                         .prio = daemon_kind_priority(jk),
                         .device = f->device,
                         .devices = f->devices,
                         .workers = f->workers,
                         .in_flight = f->in_flight,
                         .proofs = f->proofs,
                         .partitions = W->partitions,
                         .check = f->check,
                         .critical_lane = f->critical_lane,
                         .witness_pack = f->witness_pack,
                         .budget = f->budget,
                         .host_budget = f->host_budget,
                         .events = X ? events : f->events,
                         .fn = part_fill,
                         .pack_fn = fil_circuit_packs_well(W->kind) ? part_pack : NULL,
                         .ctx = part_ctx,
                         .user = &cs,
                         .side = X ? &S : NULL};
    if (X)
        fprintf(stderr, "cuzk bench filecoin: %d %s proofs with a %s job every %g s%s%s\n",
                f->proofs, fil_circuit_kind_str(W->kind), fil_circuit_kind_str(X->kind), every,
                events ? ", events to " : "", events ? events : "");
    rc = bench_run(o, &R, &W->c, &W->k);
out:
    free(cs.p);
    free(xs.p);
    free(events);
    return rc;
}

int bench_filecoin(int argc, char **argv)
{
    fil_bench_cfg_t B = {
        .kind = FIL_CIRCUIT_COUNT, .mix = FIL_CIRCUIT_COUNT, .api = FIL_API_1_1, .mix_preload = 1};
    bench_engine_flags_default(&B.f, 0); /* partitions: the kind's real count */
    int rc = parse_args(&B, argc, argv);
    if (rc != CLI_OK)
        return rc;
    if (!bench_engine_flags_resolve(&B.f, "bench filecoin"))
        return CLI_USAGE;
    const char *dev = device_kind_str(B.f.device);
    workload_t W, X;
    memset(&W, 0, sizeof W);
    memset(&X, 0, sizeof X);
    bench_run_out_t r;
    int mix = B.mix != FIL_CIRCUIT_COUNT;
    /* the proofs' key first: the larger one gets the VRAM */
    if ((rc = workload_make(&W, &B, B.kind, B.f.partitions)) != CLI_OK ||
        (mix && (rc = workload_make(&X, &B, B.mix, 0)) != CLI_OK))
        goto out;
    if ((rc = run(&r, &B, &W, NULL, 0)) != CLI_OK)
        goto out;
    report(&B, &W, &r, dev);
    double base = r.s_per_proof;
    for (int i = 0; mix && i < B.n_every; i++) {
        if ((rc = run(&r, &B, &W, &X, B.every[i])) != CLI_OK)
            goto out;
        report_mix(&B, &W, &X, B.every[i], &r, base, dev);
    }
out:
    workload_free(&X);
    workload_free(&W);
    return rc;
}
