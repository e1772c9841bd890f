/* The engine driver shared by `cuzk bench porep` and `cuzk bench filecoin`:
 * opens the devices, starts an engine on them, registers one key, proves N
 * proofs of P partitions with J in flight (each partition's witness made
 * in the engine's witness stage, ENGINE_WITNESS_FN), awaits them in order
 * and measures what the daemon would see: seconds per proof in steady
 * state (from the first proof's completion to the last's, over N - 1
 * proofs; with N = 1 that proof's latency), the steady proofs' (all but
 * the first to complete) per-partition stage times and latency, each
 * device's busy fraction over the steady window, peak host RSS and VRAM.
 *
 * Rules: outputs first; every pointer is required unless said otherwise;
 * one run at a time per bench_run_cfg_t (the witness contexts are the
 * caller's). Failures are printed as "cuzk <cmd>: <what>: <message>" and
 * returned as CLI_USAGE. */
#ifndef CUZK_CLI_BENCH_ENGINE_RUN_H
#define CUZK_CLI_BENCH_ENGINE_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_porep_key.h"
#include "cuzk/circuit.h"
#include "cuzk/device.h"
#include "cuzk/engine.h"

/* The flags every engine benchmark takes, parsed in one place:
 * --proofs N (1..1000), --partitions P (1..64), --workers W (1..8),
 * --devices D (1..ENGINE_MAX_DEVICES), --in-flight J (1..64),
 * --device/--setup cpu|cuda, --vram-budget/--host-budget SIZE, --seed S
 * (>= 0), --events FILE, --check, --critical-lane on|off (the engine's
 * lane for CRITICAL jobs: a pool thread and a worker per device),
 * --witness-pack off|auto|always (engine_config_t.witness_pack). */
typedef struct bench_engine_flags {
    int proofs, partitions, workers, devices, in_flight, check;
    int critical_lane;                /* 1 unless --critical-lane off */
    engine_witness_pack witness_pack; /* ENGINE_PACK_AUTO unless --witness-pack */
    device_kind device, setup;
    size_t budget, host_budget; /* --vram-budget per device (0: free memory) */
    uint64_t seed;
    const char *events; /* NULL: none */
} bench_engine_flags_t;

/* The defaults both benches start from: 3 proofs of `partitions`, 1
 * device of 1 worker, 2 proofs in flight, devices chosen automatically
 * (the setup where the proofs run), 32 GiB of witnesses ready at most,
 * seed 1, the critical lane on. */
void bench_engine_flags_default(bench_engine_flags_t *f, int partitions);

/* After parsing: --device resolved, --setup defaulting to it, and the
 * devices asked for present (else printed, returns 0). */
int bench_engine_flags_resolve(bench_engine_flags_t *f, const char *cmd);

/* argv[*i] as one of those flags: stores it, moves *i past its value and
 * returns 1; returns 0 when it is none of them, -1 when its value is
 * missing or bad (printed as "cuzk <cmd>: ..."). */
int bench_engine_flag(bench_engine_flags_t *f, const char *cmd, int argc, char **argv, int *i);

/* The usage text of those flags, for the commands' own usage lines. */
#define BENCH_ENGINE_FLAGS_USAGE                                                                   \
    "[--proofs N] [--partitions P] [--device cpu|cuda] [--devices D] [--setup cpu|cuda] "          \
    "[--vram-budget SIZE] [--workers W] [--in-flight J] [--host-budget SIZE] [--seed S] "          \
    "[--events FILE] [--check] [--critical-lane on|off] [--witness-pack off|auto|always]"

/* A second stream beside the proofs (`bench filecoin --mix`): one job of
 * another key submitted every every_s seconds, at its own kind and
 * priority, while the proofs run, and awaited before the next is due (as
 * a WinningPoSt comes: one at a time). The first is due every_s / 2 after
 * the first proof's submit, so that every one meets a loaded device. */
typedef struct bench_run_side {
    const char *key_name;
    const circuit_t *c;
    const cli_porep_key_t *k; /* made by cli_porep_key_make; its VRAM bases count too */
    engine_kind kind;
    cuzk_priority prio;
    int partitions;
    double every_s; /* > 0 */
    engine_witness_fn fn;
    /* partition `part`'s witness context, the same for every job; called
     * at submit on the stream's thread */
    void *(*ctx)(void *user, int part);
    void *user;
    /* 1: its key is preloaded on every device before the first submit and
     * its loads awaited, as a daemon with the key in its preload list has
     * it (a CRITICAL stream's key is marked critical: the lane loads it
     * too); 0: the first job loads it */
    int preload;
} bench_run_side_t;

/* The second stream's jobs: latency from submit to verified proof, and
 * where it went (means per job; the ready and admit waits summed over
 * its partitions). */
typedef struct bench_run_side_out {
    int jobs;
    double mean_s, p50_s, p99_s, max_s; /* p99: nearest rank (with fewer than 100 jobs, the max) */
    double witness_ms, ready_ms, admit_ms, prove_ms, verify_ms;
} bench_run_side_out_t;

typedef struct bench_run_cfg {
    const char *cmd;      /* "bench porep": the prefix of every message */
    const char *key_name; /* the engine key's name */
    engine_kind kind;     /* the proofs' job kind and priority */
    cuzk_priority prio;
    device_kind device; /* resolved: DEVICE_CPU or DEVICE_CUDA */
    int devices;        /* engine devices, each with `workers` workers */
    int workers, in_flight, proofs, partitions;
    int check;         /* circuit_check of every witness before proving */
    int critical_lane; /* engine_config_t.critical_lane */
    engine_witness_pack witness_pack;
    size_t budget, host_budget; /* --vram-budget per device (0: free memory), --host-budget */
    const char *events;         /* event log path, or NULL */
    /* Partition `part` of proof `proof`: fn is called in the witness stage
     * with ctx(user, proof, part) and the threads the engine gives it.
     * ctx is called at submit; what it returns must stay valid until the
     * run returns. */
    engine_witness_fn fn;
    engine_witness_pack_fn pack_fn; /* optional (engine_witness_t.pack_fn) */
    void *(*ctx)(void *user, int proof, int part);
    void *user;
    const bench_run_side_t *side; /* NULL: none */
} bench_run_cfg_t;

/* What the steady proofs' partitions took on average (ms), and more. */
typedef struct bench_run_out {
    double s_per_proof, first_s, wall_s;
    /* s_per_proof is a rate: at least 2 proofs, and twice as many as in
     * flight unless a proof has a partition for every worker (the first
     * ones start together, and the spread of a few completions is not a
     * rate) */
    int steady;
    double latency_s; /* submit to verified, the steady proofs' mean */
    double witness, upload, h, msm_a, msm_b, msm_l, msm_h, prove, admit; /* ms per partition */
    double verify_ms;                                                    /* per proof */
    double busy;                                                         /* the devices' mean */
    double busy_dev[ENGINE_MAX_DEVICES];                                 /* each device's */
    int streamed;
    double rss_gib, vram_ledger_gib, vram_used_gib;
    double pool_gib;           /* witness buffers kept for reuse at the end (pinned on a GPU) */
    int pinned;                /* they come from page-locked memory */
    uint64_t packed;           /* witnesses that waited packed (--witness-pack) */
    double pack_mib;           /* their packs' mean size */
    bench_run_side_out_t side; /* with bench_run_cfg_t.side */
} bench_run_out_t;

/* Whether `devices` devices of that kind are there (CUDA: counted; the CPU
 * simulates any number); prints why not. Before minutes of setup. */
int bench_run_devices_present(const char *cmd, device_kind device, int devices);

/* The INSECURE key for c (cli_porep_key_make with a fixed seed, on
 * `setup`), moved to host memory when several devices each load their
 * own copy; prints where it was made and how long it took. Returns CLI_OK
 * or CLI_USAGE (the failure printed). */
int bench_run_key(cli_porep_key_t *k, const char *cmd, const circuit_t *c, device_kind setup,
                  size_t budget, int workers, int devices);

/* Runs B's proofs of circuit c with key k (made by cli_porep_key_make;
 * its bases in VRAM count against device 0's budget) and fills *o
 * (zeroed first; peak RSS read at the end), with B->side's stream beside
 * them when set. Returns CLI_OK when every proof (and every job of the
 * stream) was proved and verified, else CLI_USAGE (the failure printed). */
int bench_run(bench_run_out_t *o, const bench_run_cfg_t *B, const circuit_t *c,
              const cli_porep_key_t *k);

/* The measured members of a report's JSON object, from "s_per_proof"
 * through "witness_pack_mib", each followed by a comma. */
void bench_run_json(FILE *f, const bench_run_out_t *o, int devices);

/* The measured lines of a report's table: steady and first proof, the
 * per-partition stages, verification and busy, RSS and VRAM, the witness
 * buffers. */
void bench_run_table(FILE *f, const bench_run_out_t *o, int devices);

#endif
