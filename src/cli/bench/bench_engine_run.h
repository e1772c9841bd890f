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

typedef struct bench_run_cfg {
    const char *cmd;      /* "bench porep": the prefix of every message */
    const char *key_name; /* the engine key's name */
    device_kind device;   /* resolved: DEVICE_CPU or DEVICE_CUDA */
    int devices;          /* engine devices, each with `workers` workers */
    int workers, in_flight, proofs, partitions;
    int check;                  /* circuit_check of every witness before proving */
    size_t budget, host_budget; /* --vram-budget per device (0: free memory), --host-budget */
    const char *events;         /* event log path, or NULL */
    /* Partition `part` of proof `proof`: fn is called in the witness stage
     * with ctx(user, proof, part, threads), where threads is what one
     * witness may use (the engine's stage_threads). ctx is called at
     * submit; what it returns must stay valid until the run returns. */
    engine_witness_fn fn;
    void *(*ctx)(void *user, int proof, int part, int threads);
    void *user;
} bench_run_cfg_t;

/* What the steady proofs' partitions took on average (ms), and more. */
typedef struct bench_run_out {
    double s_per_proof, first_s, wall_s;
    double latency_s; /* submit to verified, the steady proofs' mean */
    double witness, upload, h, msm_a, msm_b, msm_l, msm_h, prove, admit; /* ms per partition */
    double verify_ms;                                                    /* per proof */
    double busy;                                                         /* the devices' mean */
    double busy_dev[ENGINE_MAX_DEVICES];                                 /* each device's */
    int streamed;
    double rss_gib, vram_ledger_gib, vram_used_gib;
    double pool_gib; /* witness buffers kept for reuse at the end (pinned on a GPU) */
    int pinned;      /* they come from page-locked memory */
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
 * (zeroed first; peak RSS read at the end). Returns CLI_OK when every
 * proof was proved and verified, else CLI_USAGE (the failure printed). */
int bench_run(bench_run_out_t *o, const bench_run_cfg_t *B, const circuit_t *c,
              const cli_porep_key_t *k);

/* The measured members of a report's JSON object, from "s_per_proof"
 * through "witness_pinned", each followed by a comma. */
void bench_run_json(FILE *f, const bench_run_out_t *o, int devices);

/* The measured lines of a report's table: steady and first proof, the
 * per-partition stages, verification and busy, RSS and VRAM, the witness
 * buffers. */
void bench_run_table(FILE *f, const bench_run_out_t *o, int devices);

#endif
