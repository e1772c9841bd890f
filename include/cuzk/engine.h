/* The proving engine: accepts Groth16 proving jobs and keeps every device
 * busy (DESIGN.md 3). Independent of any transport: a daemon puts gRPC on
 * top of it, tests drive it directly.
 *
 * Pipeline. A job is one or more partitions, each one Groth16 proof with its
 * own witness. A partition goes
 *   witness stage (CPU pool: parse the .wtns or take the fr_t copy, check it
 *   against the circuit) -> ready queue (bounded in count and host bytes:
 *   backpressure on the witness stage) -> a device worker (admit the
 *   partition's VRAM scratch on the device's ledger, prove, release)
 * and when every partition of the job is proved, all of them are verified
 * in one batch on the CPU pool before the job completes: a proof that does
 * not verify fails the job, it is never returned.
 *
 * Priorities. Both queues serve (effective priority, arrival): CRITICAL >
 * HIGH > NORMAL > LOW, FIFO within a level, and a waiting partition gains
 * one level per aging period (engine_config_t.aging_ns), so LOW work is not
 * starved by a flood of higher work. A CRITICAL job overtakes queued work at
 * the next partition boundary; a running proof is never pre-empted, but
 * with the critical lane a CRITICAL partition need not wait for one: it
 * runs beside it when its scratch fits. The device ledgers use the same
 * priorities and aging period.
 *
 * Devices. Each device_t gets one VRAM ledger (ledger.h) with its
 * vram_capacity and `workers` worker threads (plus the critical lane's one,
 * engine_config_t.critical_lane); each worker owns one backend (made lazily
 * with backend_new, remade after a failed proof) and proves one partition at
 * a time, so several workers per device are several proofs in flight on it,
 * each inside its own admitted scratch reservation.
 *
 * Keys and residency. A key is registered once from a proving key and its
 * circuit and is shared by reference. The first partition that runs a key on
 * a device reserves the key's resident bytes there persistently (never
 * waiting); when that is refused, idle keys on that device (no partition of
 * theirs assigned to it) are evicted least recently used first and the
 * reservation retried (an evicted key's bytes count as reserved until the
 * workers whose backends held it have dropped it, which idle workers do at
 * once); when it is still refused the partition runs
 * "streaming": the key stays off the device's books and the partition's
 * scratch admission includes what streaming needs (the device's plan under
 * the budget left). A key in use on a device is never evicted there. A
 * partition prefers a device where its key is resident when one of that
 * device's workers is idle.
 *
 * Failures. A device error (plan, backend_new, prove, a scratch that can
 * never fit) fails the partition, or retries it up to max_retries times
 * (ENGINE_RETRY_OTHER_DEVICE: only on devices where it has not failed yet).
 * A witness error fails the job at once (no retry: it is deterministic). A
 * failed or cancelled job's queued partitions are dropped and its running
 * ones are discarded when they finish; every reservation is released.
 *
 * Rules for these functions:
 *  - argument order: the engine first, then outputs, then inputs,
 *    cuzk_error_t *err last;
 *  - NULL: err may be NULL; every other pointer argument is required
 *    (CUZK_ERR_ARG) unless its comment says otherwise; engine_result_free
 *    and engine_key_release do nothing for NULL;
 *  - thread safety: every function may be called from any number of
 *    threads at once, except engine_new and engine_destroy, which need every
 *    other call on that engine to have returned;
 *  - blocking: only engine_await and engine_drain wait (up to their
 *    timeout), and engine_key_preload for evicted keys to leave the device
 *    (idle workers free them at once); submit never waits for the pipeline
 *    (an accepted job's inputs are copied and queued);
 *  - callbacks (device plan/backend functions, the event hook) run on the
 *    engine's threads; a key destructor runs on whichever thread dropped the
 *    key's last reference (an engine thread, or the caller's inside an
 *    engine function such as engine_key_release, engine_cancel or
 *    engine_destroy). None runs under the engine's lock, and none may call
 *    back into the engine. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/backend.h"
#include "cuzk/circuit.h"
#include "cuzk/device.h"
#include "cuzk/fr_pack.h"
#include "cuzk/groth16.h"
#include "cuzk/ledger.h"
#include "cuzk/priority.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ENGINE_MAX_DEVICES 32
#define ENGINE_NAME_MAX 32

typedef struct engine engine_t;
typedef struct engine_key engine_key_t;
typedef uint64_t engine_job_id_t; /* 0 is never a job */

/* ---- devices ---- */

/* Devices are device.h's device_t (copied by engine_new, name included;
 * ctx must outlive the engine): its plan under the device's whole
 * vram_capacity decides whether a key can stay resident there, and
 * backend_new is called on the worker's thread, lazily, and again after a
 * failed proof; evict is called on the worker's thread when a key its
 * backend held was evicted; host_alloc serves the witness buffers when
 * engine_config_t names no allocator of its own (the first device that has
 * one serves them all); warm loads a preloaded key on an idle worker
 * (a regular one; the critical lane's too for a critical key). */

/* ---- observability ---- */

typedef enum engine_stage {
    ENGINE_STAGE_WITNESS = 0, /* parse/copy/generate + constraint check (CPU pool) */
    ENGINE_STAGE_ADMIT = 1,   /* waiting for the scratch reservation */
    ENGINE_STAGE_PROVE = 2,   /* groth16_prove on the device's backend */
    ENGINE_STAGE_VERIFY = 3,  /* the batch check of all partitions (CPU pool) */
    /* The parts of a successful prove, reported right after it (same job,
     * partition and device) from the backend's stage timers, laid end to
     * end from the prove's start in this order; zero-length parts are not
     * reported. They lie inside the prove's interval; what remains of it is
     * the host's share (final assembly). */
    ENGINE_STAGE_LOAD = 4,   /* key and circuit made resident (first proof with them;
                              * or a preload's load: job 0, partition -1) */
    ENGINE_STAGE_UPLOAD = 5, /* the witness to the device */
    ENGINE_STAGE_H = 6,      /* SpMV, NTTs, the H scalars */
    ENGINE_STAGE_MSM_A = 7,
    ENGINE_STAGE_MSM_B = 8, /* B in G2 (and G1) */
    ENGINE_STAGE_MSM_L = 9,
    ENGINE_STAGE_MSM_H = 10,
} engine_stage;
#define ENGINE_STAGE_COUNT 11
/* The prove's parts are stages LOAD .. MSM_H, in backend.h's order. */
_Static_assert(ENGINE_STAGE_MSM_H - ENGINE_STAGE_LOAD + 1 == PROVE_PART_COUNT &&
                   ENGINE_STAGE_COUNT == ENGINE_STAGE_MSM_H + 1,
               "engine stages LOAD..MSM_H are backend.h's prove parts");

/* "witness", "admit", "prove", "verify", "load", "upload", "h", "msm_a",
 * "msm_b", "msm_l", "msm_h"; "invalid" otherwise. Never NULL. */
const char *engine_stage_str(int stage);

typedef struct engine_event {
    engine_job_id_t job;
    int partition; /* -1 for the job-wide verify stage */
    int device;    /* -1 for CPU stages */
    engine_stage stage;
    const char *stage_name;    /* engine_stage_str(stage) */
    uint64_t start_ns, end_ns; /* ledger_clock_ns() */
    cuzk_status status;        /* how the stage ended */
    void *user;                /* the job's engine_job_spec_t.user; NULL for key loads */
    const char *kind;          /* engine_kind_str of the job's kind; NULL for key loads */
} engine_event_t;

/* A job's end (engine_config_t.on_done). */
typedef struct engine_done {
    engine_job_id_t job;
    int state;  /* engine_job_state: DONE, FAILED or CANCELLED */
    void *user; /* the job's engine_job_spec_t.user */
} engine_done_t;

/* ---- configuration ---- */

typedef enum engine_retry {
    ENGINE_RETRY_ANY_DEVICE = 0,   /* a retry may run on any device, the failing one included */
    ENGINE_RETRY_OTHER_DEVICE = 1, /* only on devices where the partition has not failed */
} engine_retry;

/* engine_config_t.witness_pack. */
typedef enum engine_witness_pack {
    ENGINE_PACK_OFF = 0, /* whole vectors */
    /* the default (engine_config_default): packed when every device takes
     * packs (device_t.takes_packed) and the pack is at most half the
     * vector (a PoRep partition's is ~1/45; a PoSt one, mostly hash
     * outputs, stays whole). At 16 GiB a 32 GiB PoRep proof then holds
     * 53.8 GiB of host memory instead of 69.0. */
    ENGINE_PACK_AUTO = 1,
    /* every witness packed, for any device (the prover expands it for a
     * device that takes none): tests, and measuring the cost */
    ENGINE_PACK_ALWAYS = 2,
} engine_witness_pack;

/* "off", "auto", "always"; "invalid". */
const char *engine_witness_pack_str(int mode);
/* The mode a name gives; -1 for an unknown one. */
int engine_witness_pack_parse(const char *name);

typedef struct engine_config {
    const device_t *devices; /* copied */
    unsigned n_devices;      /* 1..ENGINE_MAX_DEVICES */
    int witness_threads;     /* witness/verify pool threads (1..256) */
    /* 1: a lane for CRITICAL jobs (by their own priority, not by aging),
     * so that a WinningPoSt waits neither behind seconds of PoRep
     * synthesis nor behind PoRep proofs on every worker:
     *  - one more pool thread that serves their verification and their
     *    witnesses, even when the ready queue is full (by one task beyond
     *    ready_max and ready_bytes_max);
     *  - on every device one more worker (beyond device_t.workers, with a
     *    backend of its own) that proves only their partitions, beside the
     *    proofs running there. VRAM stays an admission budget: its scratch
     *    is admitted on the device's ledger at the job's priority like any
     *    other, so when it does not fit beside the running proofs it waits
     *    for them. It loads only the preloads of critical keys
     *    (engine_key_spec_t.critical). Regular workers still take
     *    CRITICAL partitions in service order: whichever is free first.
     * 0: none (a CRITICAL partition waits for a free worker). */
    int critical_lane;
    int stage_threads; /* threads inside one parse, check or verify (<= 0: 1) */
    int prove_threads; /* groth16_prove's threads (<= 0: all CPUs) */
    /* Added to the witness/verify pool threads' nice value (0..19; 0:
     * unchanged), so that synthesis never delays the threads that feed
     * the GPUs (Linux; elsewhere ignored). */
    int witness_nice;
    unsigned ready_max;     /* witnessed partitions waiting for a device (>= 1) */
    size_t ready_bytes_max; /* their host bytes; 0: no limit (one always fits) */
    uint64_t aging_ns;      /* one priority level per period waited; 0: off */
    unsigned max_retries;   /* device failures retried per partition */
    engine_retry retry;
    unsigned max_retained; /* finished jobs kept for await (>= 1), oldest dropped */
    /* The witness stage's buffers: every witness is made (ENGINE_WITNESS_FN),
     * parsed (ENGINE_WITNESS_WTNS) or moved (ENGINE_WITNESS_FR, when the
     * allocator gives memory) into one before it goes to a device.
     * host_alloc: their allocator (NULL: the first device's host_alloc,
     * else malloc), e.g. page-locked memory so that the upload runs at the
     * bus's speed (cuzk_cuda_host_alloc); host_free gets what host_alloc
     * returned; a refusal falls back to malloc. Buffers are kept for reuse
     * (witness_buffers of them; 0: ready_max + every device's workers, the
     * lanes' included, the most that can be in use at once; at most 64), so
     * pinning and page faults are paid once per buffer, not per partition;
     * they are freed at engine_destroy, or when more come back than are
     * kept. host_bytes_max (0: no limit) caps the allocator's bytes alive
     * at once (in use and kept): past it, buffers come from malloc. */
    void *(*host_alloc)(void *ctx, size_t bytes);
    void (*host_free)(void *ctx, void *p, size_t bytes);
    void *host_ctx;
    unsigned witness_buffers;
    size_t host_bytes_max;
    /* Whether a witness waits for its device packed (fr_pack.h): made and
     * checked in a pool buffer as before, then packed and the buffer given
     * back at once (or made packed, engine_witness_t.pack_fn), so only the
     * witnesses in the making hold n values and the pool makes no more
     * buffers than those. */
    engine_witness_pack witness_pack;
    /* Optional: called once per stage run, on the thread that ran it. */
    void (*on_event)(void *ctx, const engine_event_t *ev);
    void *event_ctx;
    /* Optional: called exactly once per job, when it settles (its result is
     * final: engine_await returns it at once, until engine_job_forget or
     * max_retained drops it), after every event of the job, with no engine
     * lock held, on the thread that settled it (a worker, a witness thread,
     * or the caller of engine_cancel or engine_destroy). It may call any
     * engine function but engine_destroy. This is how a consumer learns
     * that a job ended: queue the id, collect with engine_await. */
    void (*on_done)(void *ctx, const engine_done_t *done);
    void *done_ctx;
} engine_config_t;

/* Defaults: no devices, 2 witness threads and the critical lane, stage_threads 1, prove_threads 0,
 * ready_max 4, ready_bytes_max 0, aging LEDGER_AGING_DEFAULT_NS, 1 retry on
 * another device, 1024 retained jobs, no hook. */
void engine_config_default(engine_config_t *cfg);

/* Returns: CUZK_OK; CUZK_ERR_ARG (a bound broken: the message names the
 * field); CUZK_ERR_NOMEM. Starts every thread; on failure nothing is left. */
cuzk_status engine_new(engine_t **out, const engine_config_t *cfg, cuzk_error_t *err);
/* Cancels every unfinished job (queued partitions dropped, running proofs
 * finish and are discarded), waits for in-flight work, joins every thread,
 * releases every resident key and frees every job and key (running key
 * destructors of keys still registered). NULL: nothing. */
void engine_destroy(engine_t *e);
/* Waits until no job is unfinished (timeout_ms < 0: forever).
 * Returns CUZK_OK or CUZK_ERR_TIMEOUT. */
cuzk_status engine_drain(engine_t *e, int timeout_ms, cuzk_error_t *err);

/* ---- keys ---- */

/* What a key is made of. The engine reads pk, circuit, check and r1cs while
 * the key lives and never frees them itself: destroy (optional) is called
 * once, with destroy_ctx, when the last reference is gone (after the key left
 * every device), which is where the caller frees what it gave. */
typedef struct engine_key_spec {
    const char *name;         /* optional, copied (stats, messages) */
    const groth16_pk_t *pk;   /* its convention decides the job kinds it takes */
    const circuit_t *circuit; /* the rows the prover needs (prover.h) */
    /* Witness check before proving (both optional; r1cs wins when both):
     * r1cs_check_witness on r1cs, or circuit_check on check (which needs C:
     * a bellperson circuit, or any circuit made with its C matrix; a circuit
     * from a zkey has no C). Without one a bad witness fails the job at
     * verification ("proof failed verification"). */
    const r1cs_t *r1cs;
    const circuit_t *check;
    /* 1: its jobs are CRITICAL (a WinningPoSt key). With the critical lane,
     * a preload loads it on the lane's worker as well, so that the first
     * such job after a start finds the lane's backend made and the key on
     * it rather than paying both beside running PoRep proofs. */
    int critical;
    void (*destroy)(void *ctx);
    void *destroy_ctx;
} engine_key_spec_t;

/* Registers a key; *out holds the caller's reference.
 * Returns: CUZK_OK; CUZK_ERR_ARG (circuit and key disagree on variables,
 * public inputs or rows); CUZK_ERR_NOMEM. */
cuzk_status engine_key_register(engine_t *e, engine_key_t **out, const engine_key_spec_t *spec,
                                cuzk_error_t *err);
/* Drops the caller's reference; jobs hold their own until they settle. */
void engine_key_release(engine_t *e, engine_key_t *k);
/* Makes k resident on device now: the device's plan and a persistent
 * reservation, evicting idle keys when needed; with a warm callback, an
 * idle worker of the device then loads it (engine_key_info_t.warm says
 * how far that got; returns before it is done).
 * Returns: CUZK_OK (also when already resident); CUZK_ERR_BUSY or
 * CUZK_ERR_CAPACITY (does not fit, the ledger's reason); the plan's error. */
cuzk_status engine_key_preload(engine_t *e, engine_key_t *k, int device, cuzk_error_t *err);
/* Releases k's residency on device (-1: every device). CUZK_ERR_BUSY when a
 * partition of k is assigned to that device (nothing changes on it). */
cuzk_status engine_key_evict(engine_t *e, engine_key_t *k, int device, cuzk_error_t *err);

/* A preload's load onto a device (device_t.warm). */
typedef enum engine_warm {
    ENGINE_WARM_NONE = 0,    /* not asked for (or the key left the device since) */
    ENGINE_WARM_PENDING = 1, /* waiting for an idle worker */
    ENGINE_WARM_LOADING = 2,
    ENGINE_WARM_DONE = 3,
    ENGINE_WARM_FAILED = 4, /* the first proof loads it instead */
} engine_warm;

/* "none", "pending", "loading", "done", "failed"; "invalid" otherwise. */
const char *engine_warm_str(int warm);

typedef struct engine_key_info {
    char name[ENGINE_NAME_MAX];
    unsigned refs;                    /* the caller's and jobs' references */
    int resident[ENGINE_MAX_DEVICES]; /* 1 when reserved on that device */
    size_t resident_bytes[ENGINE_MAX_DEVICES];
    unsigned in_use[ENGINE_MAX_DEVICES]; /* partitions assigned to that device */
    engine_warm warm[ENGINE_MAX_DEVICES];
    uint64_t warm_ms[ENGINE_MAX_DEVICES]; /* how long the load took (DONE, FAILED) */
    /* A load's progress in bytes (LOADING; DONE: done == total): total is
     * the plan's resident bytes until the device says otherwise. */
    uint64_t warm_done[ENGINE_MAX_DEVICES], warm_total[ENGINE_MAX_DEVICES];
    /* The critical lane's own load of a critical key's preload (NONE when
     * the key is not critical or the engine has no lane). */
    engine_warm lane_warm[ENGINE_MAX_DEVICES];
} engine_key_info_t;

cuzk_status engine_key_status(engine_t *e, engine_key_info_t *out, const engine_key_t *k,
                              cuzk_error_t *err);

/* ---- jobs ---- */

typedef enum engine_kind {
    ENGINE_KIND_SNARKJS = 0,    /* a snarkjs (.zkey) key, exactly one witness */
    ENGINE_KIND_BELLPERSON = 1, /* a bellperson key, one witness per partition */
    /* The Filecoin kinds: bellperson keys (the v28 parameters), one witness
     * per partition, proved as BELLPERSON; the kind names the work in the
     * statistics, events and results. */
    ENGINE_KIND_POREP = 2,
    ENGINE_KIND_SNAPDEALS = 3,
    ENGINE_KIND_WINDOW_POST = 4,
    ENGINE_KIND_WINNING_POST = 5,
} engine_kind;
#define ENGINE_KIND_COUNT 6

/* "snarkjs", "bellperson", "porep", ...; "invalid" otherwise. Never NULL. */
const char *engine_kind_str(int kind);

typedef enum engine_witness_form {
    ENGINE_WITNESS_WTNS = 0, /* .wtns file bytes (wtns.h) */
    ENGINE_WITNESS_FR = 1,   /* n fr_t values, Montgomery form, w[0] = 1 */
    ENGINE_WITNESS_FN = 2,   /* made in the witness stage by fn (synthesis) */
} engine_witness_form;

/* Fills the n = pk->n_vars values of a witness (Montgomery, w[0] = 1) into
 * an engine-owned buffer. Runs on the witness pool, at most
 * engine_config_t.witness_threads at once; the host bytes it fills count
 * towards ready_bytes_max from the moment it starts, so a generator of
 * GiB-sized witnesses is held back by the same budget as parsed ones.
 * threads: the cores it may use, the pool's (stage_threads for each of
 * witness_threads) shared by the witnesses in the making when it starts,
 * itself included, and never fewer than stage_threads: a witness alone
 * takes them all. */
typedef cuzk_status (*engine_witness_fn)(void *ctx, fr_t *w, size_t n, int threads,
                                         cuzk_error_t *err);

/* The same witness made packed (fr_pack.h; pack->n = n), never whole: a
 * generator that classifies its values as it makes them (a Filecoin
 * PoRep's, fil_job_witness_pack). *pack is the engine's after CUZK_OK. */
typedef cuzk_status (*engine_witness_pack_fn)(void *ctx, fr_pack_t *pack, size_t n, int threads,
                                              cuzk_error_t *err);

typedef struct engine_witness {
    engine_witness_form form;
    const uint8_t *wtns; /* ENGINE_WITNESS_WTNS: size bytes */
    size_t size;
    const fr_t *w; /* ENGINE_WITNESS_FR: n values */
    size_t n;
    /* ENGINE_WITNESS_FN: nothing is copied at submit; ctx must stay valid
     * until the job is settled. */
    engine_witness_fn fn;
    void *ctx;
    /* Optional, ENGINE_WITNESS_FN: used instead of fn (with the same ctx)
     * when the engine packs witnesses (engine_config_t.witness_pack) and
     * the key checks none (engine_key_spec_t r1cs and check NULL): no
     * n-value buffer is taken, and the pack is kept whatever its size
     * (give it only for witnesses that pack well). */
    engine_witness_pack_fn pack_fn;
} engine_witness_t;

typedef struct engine_job_spec {
    engine_kind kind;
    cuzk_priority priority;
    /* The caller's pointer, handed back in the job's events and its
     * on_done (engine_config_t); the engine never reads it. (Request ids
     * and their idempotency are the journal's, not the engine's.) */
    void *user;
    engine_key_t *key;
    const engine_witness_t *witnesses; /* one per partition, copied at submit */
    size_t n_partitions;
    /* Fixed blinding for every partition (tests only); otherwise fr_random
     * per proof. */
    int fixed_rs;
    fr_t r, s;
} engine_job_spec_t;

typedef enum engine_job_state {
    ENGINE_JOB_QUEUED = 0,  /* no partition on a device yet */
    ENGINE_JOB_RUNNING = 1, /* some partition reached a device */
    ENGINE_JOB_DONE = 2,    /* proved and verified */
    ENGINE_JOB_FAILED = 3,
    ENGINE_JOB_CANCELLED = 4,
} engine_job_state;

/* "queued", "running", "done", "failed", "cancelled"; "invalid" otherwise. */
const char *engine_job_state_str(int state);

/* Returns: CUZK_OK with *job_id; CUZK_ERR_ARG (an unknown kind, no key, a key of the other
 * convention, a snarkjs job without exactly one witness, a witness of the
 * wrong length, a request id reused with another spec); CUZK_ERR_NOMEM;
 * CUZK_ERR_CANCELLED while the engine shuts down. */
cuzk_status engine_submit(engine_t *e, engine_job_id_t *job_id, const engine_job_spec_t *spec,
                          cuzk_error_t *err);

/* Per-partition stage times (ns) of a finished job. */
typedef struct engine_part_timing {
    uint64_t witness_ns; /* the witness stage */
    uint64_t ready_ns;   /* waiting in the ready queue (last attempt) */
    uint64_t admit_ns;   /* waiting for the scratch reservation (last attempt) */
    uint64_t prove_ns;   /* groth16_prove (last attempt) */
    int device;          /* where it was proved; -1: never */
    unsigned attempts;   /* device attempts made */
    int streamed;        /* 1 when the key was not resident for it: it travelled with the
                          * proof, or its layout streams (device.h) */
    prove_times_t parts; /* the prove's parts (the backend's timers; ENGINE_STAGE_LOAD + part) */
} engine_part_timing_t;

typedef struct engine_result {
    engine_job_id_t id;
    engine_kind kind;
    engine_job_state state;
    cuzk_error_t error; /* code CUZK_OK unless FAILED or CANCELLED */
    size_t n_partitions;
    uint32_t n_public;
    groth16_proof_t *proofs;       /* DONE: n_partitions, in order; else NULL */
    fr_t *public_inputs;           /* DONE: n_partitions x n_public; else NULL */
    engine_part_timing_t *timings; /* n_partitions (also when not DONE) */
    uint64_t verify_ns;
    uint64_t submit_ns, done_ns; /* ledger_clock_ns() */
} engine_result_t;

/* Waits up to timeout_ms (< 0: forever, 0: a poll) until the job is settled:
 * final, and none of its work still in flight anywhere (no reservation, no
 * proof running), then fills *out with a copy the caller owns.
 * Returns: CUZK_OK (DONE); the job's own error for FAILED (err has its
 * message); CUZK_ERR_CANCELLED (CANCELLED); in those three cases *out is
 * filled. CUZK_ERR_TIMEOUT (not settled in time: the job keeps running,
 * *out is zeroed); CUZK_ERR_ARG (unknown id, or no longer retained). */
cuzk_status engine_await(engine_t *e, engine_job_id_t job_id, int timeout_ms, engine_result_t *out,
                         cuzk_error_t *err);
void engine_result_free(engine_result_t *r);

/* Cancels a job: its queued partitions are dropped, its ledger waits end,
 * running proofs finish and are discarded. Returns CUZK_OK (also for a job
 * already final, which is left as it is); CUZK_ERR_ARG (unknown id). */
cuzk_status engine_cancel(engine_t *e, engine_job_id_t job_id, cuzk_error_t *err);

/* Drops a settled job (and its request id) from the engine.
 * Returns: CUZK_OK; CUZK_ERR_BUSY (not settled); CUZK_ERR_ARG (unknown). */
cuzk_status engine_job_forget(engine_t *e, engine_job_id_t job_id, cuzk_error_t *err);

typedef struct engine_job_info {
    engine_job_id_t id;
    engine_kind kind;
    cuzk_priority priority;
    engine_job_state state;
    int settled; /* final and nothing in flight */
    size_t n_partitions;
    size_t partitions_witnessed;
    size_t partitions_done; /* proved */
    unsigned in_flight;     /* partitions in a witness stage or on a device */
    cuzk_error_t error;
    uint64_t submit_ns, done_ns;
} engine_job_info_t;

cuzk_status engine_job_status(engine_t *e, engine_job_info_t *out, engine_job_id_t job_id,
                              cuzk_error_t *err);

/* ---- statistics ---- */

typedef struct engine_kind_stats {
    uint64_t submitted;
    uint64_t queued, running; /* now */
    uint64_t done, failed, cancelled;
} engine_kind_stats_t;

typedef struct engine_device_stats {
    char name[ENGINE_NAME_MAX];
    ledger_stats_t ledger;
    /* workers: device_t.workers; busy: workers proving (the critical lane's
     * included: at most workers + lane_workers); idle: regular workers
     * waiting for a ready partition (never the lane's, which takes only
     * CRITICAL ones). lane_workers: 1 with engine_config_t.critical_lane,
     * else 0; lane_busy: 1 while it proves. */
    unsigned workers, busy_workers, idle_workers;
    unsigned lane_workers, lane_busy;
    unsigned resident_keys;
    uint64_t proofs, failures, streamed, evictions;
} engine_device_stats_t;

typedef struct engine_stats {
    engine_kind_stats_t kinds[ENGINE_KIND_COUNT];
    unsigned witness_queue[CUZK_PRIO_COUNT]; /* partitions waiting for the witness stage */
    unsigned ready_queue[CUZK_PRIO_COUNT];   /* witnessed, waiting for a device */
    size_t ready_bytes;                      /* host bytes of witnesses ready or being made */
    size_t witness_pool_bytes;               /* idle witness buffers kept for reuse */
    unsigned witness_pool_buffers;
    size_t host_alloc_bytes; /* the host allocator's bytes alive (in use and kept) */
    uint64_t witnesses_packed, packed_bytes; /* packed so far (witness_pack), their packs' bytes */
    unsigned witnessing, verifying;          /* CPU stages running now */
    unsigned jobs_retained;
    unsigned keys;
    unsigned n_devices;
    engine_device_stats_t devices[ENGINE_MAX_DEVICES];
} engine_stats_t;

/* A consistent snapshot (zeroed for NULL e). */
void engine_stats(engine_t *e, engine_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
