/* `cuzk bench filecoin --kind K --sector-size S [--api V] [--proofs N]
 * [--partitions P] [--device cpu|cuda] [--devices D] [--setup cpu|cuda]
 * [--vram-budget SIZE] [--workers W] [--in-flight J] [--host-budget SIZE]
 * [--seed S] [--circuit-cache DIR] [--events FILE] [--check]`:
 * the real Filecoin circuits on sealed inputs through the engine, as a
 * daemon proving for Curio would run them (issue 20 item 7).
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
 * JSON line, then a table. */
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
#include "cuzk/filecoin_params.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_public.h"

#define GIB32 ((uint64_t)32 << 30)
#define TARGET_POREP_S_PER_PROOF 16.0
#define TARGET_WINDOW_S_PER_PARTITION 2.5
#define TARGET_WINNING_LATENCY_S 0.3

typedef struct fil_bench_cfg {
    fil_circuit_kind kind;
    uint64_t sector_size;
    fil_api_version api;
    int partitions; /* 0: the kind's real count */
    int proofs, workers, in_flight, check, devices;
    device_kind device, setup;
    size_t budget, host_budget;
    uint64_t seed;
    const char *events, *cache_dir;
} fil_bench_cfg_t;

typedef struct fil_bench_out {
    double circuit_s, seal_s, check_s, check_ms, setup_s; /* check_ms: per partition */
    fil_circuit_source source;
    int key_on_device;
    bench_run_out_t run;
} fil_bench_out_t;

/* ---- witnesses ---- */

/* One partition of one proof, made in the engine's witness stage. */
typedef struct part_ctx {
    const bench_fil_inputs_t *in;
    const circuit_t *c;
    unsigned k; /* the proof's partition it proves */
    int threads;
} part_ctx_t;

typedef struct part_ctxs {
    const bench_fil_inputs_t *in;
    const circuit_t *c;
    int partitions;
    part_ctx_t *p; /* proofs x partitions */
} part_ctxs_t;

static cuzk_status part_fill(void *ctx, fr_t *w, size_t n, cuzk_error_t *err)
{
    const part_ctx_t *pc = ctx;
    fil_witness_opts_t o = {FIL_WITNESS_FAST, pc->threads, pc->c->n_vars, pc->c->n_public};
    /* synthesized straight into the engine's buffer: nothing copied */
    return fil_partition_witness_into(w, n, pc->c->n_public, &pc->in->parts[pc->k], &o, err);
}

static void *part_ctx(void *user, int proof, int part, int threads)
{
    part_ctxs_t *cs = user;
    size_t i = (size_t)proof * (size_t)cs->partitions + (size_t)part;
    cs->p[i] = (part_ctx_t){cs->in, cs->c, (unsigned)part % cs->in->partitions, threads};
    return &cs->p[i];
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
static int load_circuit(circuit_t *c, fil_bench_out_t *o, const fil_bench_cfg_t *B)
{
    cuzk_error_t err = {0};
    char stem[256], *path = NULL;
    if (B->cache_dir) {
        if (fil_params_stem(stem, sizeof stem, B->kind, B->sector_size, B->api, &err) != CUZK_OK)
            return cli_fail("bench filecoin", "--circuit-cache", &err);
        size_t len = strlen(B->cache_dir) + strlen(stem) + 32;
        if (!(path = malloc(len)))
            return CLI_USAGE;
        snprintf(path, len, "%s/%s.cuzk-%s.ccs", B->cache_dir, stem, FIL_CIRCUIT_CACHE_REV);
    }
    double t0 = cli_now();
    cuzk_status st =
        fil_circuit_load(c, &o->source, B->kind, B->sector_size, B->api, path, 0, &err);
    o->circuit_s = cli_now() - t0;
    int rc = st == CUZK_OK ? CLI_OK : cli_fail("bench filecoin", path ? path : "circuit", &err);
    if (rc == CLI_OK)
        fprintf(stderr,
                "cuzk bench filecoin: %s %s circuit %s: %u constraints, %u variables, %u "
                "inputs, %.2f s%s%s\n",
                fil_circuit_kind_str(B->kind), fil_sector_size_str(B->sector_size),
                o->source == FIL_CIRCUIT_CACHED ? "read" : "recorded", c->n_rows, c->n_vars,
                c->n_public, o->circuit_s, path ? " -> " : "", path ? path : "");
    free(path);
    return rc;
}

/* The sealed inputs (before the circuit: a size without a sealer fails
 * before minutes of recording). */
static int make_inputs(bench_fil_inputs_t *in, fil_bench_out_t *o, fil_bench_cfg_t *B)
{
    cuzk_error_t err = {0};
    double t0 = cli_now();
    unsigned wp = B->partitions ? (unsigned)B->partitions : 1;
    if (bench_fil_inputs_make(in, B->kind, B->sector_size, B->api, wp, B->seed, 0, &err) != CUZK_OK)
        return cli_fail("bench filecoin", "inputs", &err);
    o->seal_s = cli_now() - t0;
    if (!B->partitions)
        B->partitions = (int)in->partitions;
    fprintf(stderr, "cuzk bench filecoin: %llu %s sector%s sealed%s in %.2f s\n",
            (unsigned long long)in->sectors, in->seal_name, in->sectors == 1 ? "" : "s",
            in->sparse ? " sparsely" : "", o->seal_s);
    return CLI_OK;
}

/* Each distinct partition's inputs checked once, before any timing. */
static int check_inputs(fil_bench_out_t *o, const fil_bench_cfg_t *B, const bench_fil_inputs_t *in,
                        const circuit_t *c)
{
    unsigned distinct =
        (unsigned)B->partitions < in->partitions ? (unsigned)B->partitions : in->partitions;
    double t0 = cli_now();
    for (unsigned k = 0; k < distinct; k++) {
        int rc = check_partition(in, c, k);
        if (rc != CLI_OK)
            return rc;
    }
    o->check_s = cli_now() - t0;
    o->check_ms = o->check_s * 1e3 / distinct;
    fprintf(stderr, "cuzk bench filecoin: the public inputs of %u partition%s checked in %.2f s\n",
            distinct, distinct == 1 ? "" : "s", o->check_s);
    return CLI_OK;
}

/* ---- the report ---- */

/* The H200 target at 32 GiB (issue 20 item 7) and what it is compared
 * with; 0 elsewhere. */
static double target(const fil_bench_cfg_t *B, const bench_run_out_t *r, double *measured,
                     const char **what)
{
    *measured = 0;
    *what = "";
    if (B->sector_size != GIB32)
        return 0;
    switch (B->kind) {
    case FIL_CIRCUIT_POREP:
        *measured = r->s_per_proof;
        *what = "s/proof";
        return TARGET_POREP_S_PER_PROOF;
    case FIL_CIRCUIT_WINDOW_POST:
        *measured = r->s_per_proof / B->partitions;
        *what = "s/partition";
        return TARGET_WINDOW_S_PER_PARTITION;
    case FIL_CIRCUIT_WINNING_POST:
        *measured = r->latency_s;
        *what = "s vanilla to verified proof";
        return TARGET_WINNING_LATENCY_S;
    default: return 0;
    }
}

static void report(const fil_bench_cfg_t *B, const fil_bench_out_t *o, const circuit_t *c,
                   const bench_fil_inputs_t *in, const char *dev)
{
    const bench_run_out_t *r = &o->run;
    const char *kind = fil_circuit_kind_str(B->kind), *size = fil_sector_size_str(B->sector_size);
    const char *src = o->source == FIL_CIRCUIT_CACHED    ? "cached"
                      : o->source == FIL_CIRCUIT_REBUILT ? "rebuilt"
                                                         : "recorded";
    double measured;
    const char *what;
    double tgt = target(B, r, &measured, &what);
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
           dev, B->devices, B->partitions, in->partitions, B->proofs, B->workers, B->in_flight,
           B->budget, c->n_rows, c->n_vars, c->n_public, src, o->circuit_s,
           (unsigned long long)in->sectors, in->sparse ? "true" : "false", o->seal_s, o->check_s,
           o->key_on_device ? "true" : "false", o->setup_s);
    bench_run_json(stdout, r, B->devices);
    printf("\"s_per_partition\":%.4f,\"witness_ms_per_partition\":%.2f,\"latency_s\":%.4f,"
           "\"target_s\":%s,\"ratio_target\":%s,\"all_verified\":true}\n",
           r->s_per_proof / B->partitions, r->witness, r->latency_s, tgt_s, ratio);
    char devs[32] = "";
    if (B->devices > 1)
        snprintf(devs, sizeof devs, "%d devices x ", B->devices);
    printf("\n%s %s (%s, api %s), %d proofs x %d partition%s on %s (%s%d worker%s, %d in "
           "flight), every proof verified:\n",
           kind, size, in->seal_name, fil_api_version_str(B->api), B->proofs, B->partitions,
           B->partitions > 1 ? "s" : "", dev, devs, B->workers, B->workers > 1 ? "s" : "",
           B->in_flight);
    printf("  circuit %u constraints, %u variables, %u inputs (%s in %.2f s)\n", c->n_rows,
           c->n_vars, c->n_public, src, o->circuit_s);
    printf("  inputs: %llu sector%s sealed%s in %.2f s (every proof proves the same), %u real "
           "partition%s%s; inputs checked in %.2f s\n",
           (unsigned long long)in->sectors, in->sectors == 1 ? "" : "s",
           in->sparse ? " sparsely" : "", o->seal_s, in->partitions, in->partitions == 1 ? "" : "s",
           (unsigned)B->partitions > in->partitions ? " (the proof's partitions cycle over them)"
                                                    : "",
           o->check_s);
    printf("  key %.2f s (%s)\n", o->setup_s,
           o->key_on_device ? "bases stay in VRAM" : "bases in host memory");
    bench_run_table(stdout, r, B->devices);
    printf("  s/partition %.3f   witness/partition %.1f ms (checked once outside the engine: "
           "%.1f ms)   latency %.3f s\n",
           r->s_per_proof / B->partitions, r->witness, o->check_ms, r->latency_s);
    if (tgt > 0)
        printf("  target on an H200: %.1f %s: measured %.3f, ratio %.2f\n", tgt, what, measured,
               measured / tgt);
}

/* ---- flags ---- */

/* a: the option at fault, or NULL. */
static int usage(const char *a)
{
    if (a)
        fprintf(stderr, "cuzk bench filecoin: bad option '%s'\n", a);
    fprintf(stderr, "usage: cuzk bench filecoin --kind K "
                    "--sector-size S [--api V] [--proofs N] [--partitions P] [--device cpu|cuda] "
                    "[--devices D] [--setup cpu|cuda] [--vram-budget SIZE] [--workers W] "
                    "[--in-flight J] [--host-budget SIZE] [--seed S] [--circuit-cache DIR] "
                    "[--events FILE] [--check]\n"
                    "  K: porep, winning-post, window-post, snap-deals, snap-deals-poseidon\n"
                    "  S: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n");
    return CLI_USAGE;
}

/* A whole-number flag with its range: 1 when `a` is one (-1 when v is not
 * a number in its range, printed), 0 when it is not one of them. */
static int int_flag(fil_bench_cfg_t *B, const char *a, const char *v, long long x, int num)
{
    static const struct {
        const char *name;
        size_t at;
        long long lo, hi;
    } T[] = {
        {"--partitions", offsetof(fil_bench_cfg_t, partitions), 1, 64},
        {"--proofs", offsetof(fil_bench_cfg_t, proofs), 1, 1000},
        {"--workers", offsetof(fil_bench_cfg_t, workers), 1, 8},
        {"--devices", offsetof(fil_bench_cfg_t, devices), 1, ENGINE_MAX_DEVICES},
        {"--in-flight", offsetof(fil_bench_cfg_t, in_flight), 1, 64},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(a, T[i].name)) {
            if (!num || x < T[i].lo || x > T[i].hi) {
                fprintf(stderr, "cuzk bench filecoin: %s '%s': a whole number from %lld to %lld\n",
                        a, v, T[i].lo, T[i].hi);
                return -1;
            }
            *(int *)((char *)B + T[i].at) = (int)x;
            return 1;
        }
    return 0;
}

static int parse_args(fil_bench_cfg_t *B, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        long long x = v ? strtoll(v, &end, 10) : 0;
        int num = v && *v && !*end;
        cuzk_error_t err = {0};
        cuzk_status st = CUZK_OK;
        if (!strcmp(a, "--check")) {
            B->check = 1;
            continue;
        }
        if (!v)
            return usage(a);
        int f = int_flag(B, a, v, x, num);
        if (f < 0)
            return CLI_USAGE;
        if (f)
            ;
        else if (!strcmp(a, "--kind"))
            st = fil_circuit_kind_parse(&B->kind, v, &err);
        else if (!strcmp(a, "--sector-size"))
            st = fil_sector_size_parse(&B->sector_size, v, &err);
        else if (!strcmp(a, "--api"))
            st = fil_api_version_parse(&B->api, v, &err);
        else if (!strcmp(a, "--seed") && num && x >= 0 && v[0] != '-')
            B->seed = (uint64_t)x;
        else if (!strcmp(a, "--device") || !strcmp(a, "--setup")) {
            if (!cli_device_arg(a[2] == 'd' ? &B->device : &B->setup, "bench filecoin", v))
                return CLI_USAGE;
        } else if (!strcmp(a, "--events") && *v)
            B->events = v;
        else if (!strcmp(a, "--circuit-cache") && *v)
            B->cache_dir = v;
        else if (!strcmp(a, "--vram-budget") || !strcmp(a, "--host-budget"))
            st = cli_parse_bytes(a[2] == 'v' ? &B->budget : &B->host_budget, v, &err);
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
    return CLI_OK;
}

/* ---- the run ---- */

static int run(fil_bench_out_t *o, const fil_bench_cfg_t *B, const circuit_t *c,
               const bench_fil_inputs_t *in, const cli_porep_key_t *k)
{
    part_ctxs_t cs = {in, c, B->partitions,
                      calloc((size_t)B->proofs * (size_t)B->partitions, sizeof(part_ctx_t))};
    if (!cs.p) {
        fprintf(stderr, "cuzk bench filecoin: out of memory\n");
        return CLI_USAGE;
    }
    char name[64];
    snprintf(name, sizeof name, "%s-%s", fil_circuit_kind_str(B->kind),
             fil_sector_size_str(B->sector_size));
    bench_run_cfg_t R = {"bench filecoin", name,      B->device,     B->devices, B->workers,
                         B->in_flight,     B->proofs, B->partitions, B->check,   B->budget,
                         B->host_budget,   B->events, part_fill,     part_ctx,   &cs};
    int rc = bench_run(&o->run, &R, c, k);
    free(cs.p);
    return rc;
}

int bench_filecoin(int argc, char **argv)
{
    fil_bench_cfg_t B = {.kind = FIL_CIRCUIT_COUNT,
                         .api = FIL_API_1_1,
                         .proofs = 3,
                         .workers = 1,
                         .in_flight = 2,
                         .devices = 1,
                         .device = DEVICE_AUTO,
                         .setup = DEVICE_AUTO,
                         .host_budget = (size_t)32 << 30,
                         .seed = 1};
    int rc = parse_args(&B, argc, argv);
    if (rc != CLI_OK)
        return rc;
    B.device = cli_device_resolve(B.device);
    if (B.setup == DEVICE_AUTO)
        B.setup = B.device;
    if (!bench_run_devices_present("bench filecoin", B.device, B.devices))
        return CLI_USAGE;
    circuit_t c = {0};
    cli_porep_key_t k;
    bench_fil_inputs_t in;
    fil_bench_out_t o;
    memset(&k, 0, sizeof k);
    memset(&in, 0, sizeof in);
    memset(&o, 0, sizeof o);
    if ((rc = make_inputs(&in, &o, &B)) != CLI_OK || (rc = load_circuit(&c, &o, &B)) != CLI_OK ||
        (rc = check_inputs(&o, &B, &in, &c)) != CLI_OK)
        goto out;
    if ((rc = bench_run_key(&k, "bench filecoin", &c, B.setup, B.budget, B.workers, B.devices)) !=
        CLI_OK)
        goto out;
    o.setup_s = k.setup_s;
    o.key_on_device = k.on_device;
    if ((rc = run(&o, &B, &c, &in, &k)) != CLI_OK)
        goto out;
    report(&B, &o, &c, &in, device_kind_str(B.device));
out:
    cli_porep_key_free(&k);
    bench_fil_inputs_free(&in);
    circuit_free(&c);
    return rc;
}
