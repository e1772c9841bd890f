/* The daemon's core: the proving engine (engine.h) made a durable service.
 * Transport-neutral: the gRPC layer (rpc.h) calls these functions, tests
 * call them directly.
 *
 * What it adds to the engine:
 *  - a circuit registry: keys named by circuit id, found in srs.dir as
 *    <id>.zkey (snarkjs) or <id>.params + <id>.ccs (bellperson parameters
 *    and the cuzk precompiled circuit; a <id>.vk beside them is ignored),
 *    loaded (mapped, never read whole) on first use or by daemon_preload,
 *    shared by reference, dropped by daemon_evict; and Filecoin's v28
 *    parameters by their file stem ("v28-..."), found in
 *    srs.filecoin_params as <stem>.params with <stem>.vk (which must be
 *    the .params' own verifying key), the circuit recorded on first use
 *    and cached beside them as <stem>.cuzk-r1.ccs;
 *  - the journal (journal.h): every accepted job is recorded before
 *    daemon_submit returns, its result when it finishes; a job id is the
 *    journal's id, valid across restarts until daemon.result_ttl after the
 *    job finished; a request id names the job it first made; jobs still
 *    queued or running when the daemon stopped (or crashed) are submitted
 *    again by the next daemon_new on that journal;
 *  - results in the key's native form: snarkjs keys give the proof.json and
 *    public.json texts snarkjs writes; bellperson keys give the partitions'
 *    192-byte proofs concatenated in order and every partition's public
 *    inputs as 32-byte big-endian scalars (bellperson_inputs_write), in the
 *    same order; the Filecoin kinds give the same (the proof bytes are
 *    what filecoin-proofs returns: the partition proofs in order), each
 *    partition's witness made from the vanilla proofs in the engine's
 *    witness stage and every proof verified against the inputs derived
 *    from the request's public values (filecoin_job.h);
 *  - status (JSON, and typed for the transport), Prometheus metrics
 *    (the names listed in metrics.h), the stage event log, and the HTTP
 *    endpoints GET /status and GET /metrics when daemon.http_listen is set.
 *
 * Job ids and states. States are engine_job_state values: QUEUED, RUNNING
 * (a partition reached a device), then DONE, FAILED or CANCELLED. A job
 * the engine refused at submit or whose key could not be loaded is journaled as FAILED with
 * that error, so awaiting it answers FAILED at once.
 *
 * Threads. daemon_new starts one completion thread, which owns the
 * journal's job transitions after submit: it marks jobs running when a
 * partition starts, collects settled engine jobs, encodes their results,
 * journals them, wakes awaiters, and runs journal_expire every
 * DAEMON_EXPIRE_PERIOD_MS (or result_ttl / 4 when shorter, at least
 * 100 ms). The engine's event hook only notes what happened (under the
 * daemon's lock, briefly) and feeds the event log and the metrics.
 *
 * Rules for these functions:
 *  - argument order: the daemon first, then outputs, then inputs,
 *    cuzk_error_t *err last;
 *  - NULL: err may be NULL, and outputs documented as optional; every
 *    other pointer is required (CUZK_ERR_ARG); daemon_free,
 *    daemon_result_free and daemon_shutdown do nothing for NULL;
 *  - thread safety: every function may be called from any number of
 *    threads at once, except daemon_new and daemon_free: daemon_free needs
 *    every other call on that daemon to have returned (call daemon_shutdown
 *    first to wake blocked daemon_await calls, then stop the transport,
 *    then daemon_free);
 *  - blocking: daemon_await and daemon_prove wait up to their timeout;
 *    daemon_submit and daemon_preload may load a key (seconds for a large
 *    one) and write the journal (a synced commit, milliseconds); the rest
 *    return promptly. */
#ifndef CUZK_DAEMON_H
#define CUZK_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/config.h"
#include "cuzk/engine.h"
#include "cuzk/priority.h"
#include "cuzk/request.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DAEMON_RECENT_MAX 64          /* finished jobs kept for status and their stage times */
#define DAEMON_BUSY_WINDOW_S 60       /* cuzk_gpu_busy_ratio's sliding window */
#define DAEMON_EXPIRE_PERIOD_MS 60000 /* journal_expire at most this far apart */

typedef struct daemon daemon_t;

/* ---- lifetime ---- */

/* Makes the engine from cfg on the caller's devices (copied; their ctx
 * must outlive the daemon), opens and checks the journal, opens the event
 * log (logging.events) and the HTTP server (daemon.http_listen), loads
 * srs.preload, then resumes the journal's unfinished jobs in acceptance
 * order (daemon.resume = false: finishes them FAILED instead). A resumed
 * job whose circuit is gone or whose inputs cannot be read is finished
 * FAILED with the reason; that is not an error of daemon_new.
 * Engine settings: synthesis.threads (0: one per CPU, at most 256),
 * stage_threads (0: parallel_share over the pool, 2 CPUs per device
 * worker and 1 reserved), nice, prove_threads, memory.ready_max (0: one
 * per device worker and 2), memory.ready_bytes_max,
 * scheduler.aging (ms to ns), max_retries, retry, max_retained.
 * Returns: CUZK_OK; CUZK_ERR_ARG (no devices, a bad config value, a
 * preload circuit that is not in srs.dir); the journal's, the event log's,
 * the HTTP server's, the engine's or a preloaded key's error. On failure
 * nothing is left running. */
cuzk_status daemon_new(daemon_t **out, const cuzk_config_t *cfg, const device_t *devices,
                       unsigned n_devices, cuzk_error_t *err);

/* Stops accepting jobs (daemon_submit: CUZK_ERR_CANCELLED "daemon shutting
 * down") and wakes every daemon_await waiting on an unfinished job (it
 * returns CUZK_ERR_CANCELLED). Results already journaled stay readable.
 * Idempotent. */
void daemon_shutdown(daemon_t *d);

/* daemon_shutdown, then: stops the HTTP server, journals the jobs that
 * settled meanwhile, stops the completion thread, destroys the engine
 * (running proofs finish and are discarded), closes the event log and the
 * journal. Unfinished jobs stay QUEUED or RUNNING in the journal, for the
 * next daemon_new to resume. */
void daemon_free(daemon_t *d);

/* The HTTP server's bound port; 0 when there is none. */
uint16_t daemon_http_port(const daemon_t *d);

/* ---- jobs ---- */

typedef struct daemon_blob {
    const uint8_t *data;
    size_t len;
} daemon_blob_t;

/* A request kind meaning "whatever the circuit's key is" (snarkjs for a
 * .zkey, bellperson for .params + .ccs): what a GROTH16_CIRCUIT request of
 * the gRPC interface asks for. The job is journaled with the kind found. */
#define DAEMON_KIND_FROM_KEY ((engine_kind)-1)

/* A priority meaning "the kind's own" (daemon_kind_priority): what a
 * request with PRIORITY_UNSPECIFIED asks for. */
#define DAEMON_PRIO_BY_KIND ((cuzk_priority)-1)

/* WinningPoSt CRITICAL (an epoch deadline), WindowPoSt HIGH (a deadline of
 * minutes), PoRep and the Groth16 kinds NORMAL, SnapDeals LOW (throughput
 * work that can wait: priority.h). */
cuzk_priority daemon_kind_priority(engine_kind kind);

/* A Filecoin request's values, as cuzk.v1's SubmitProofRequest carries
 * them (proto/cuzk/v1/proving.proto; Curio's lib/ffi/cuzk_funcs.go fills
 * them). registered_proof is numbered as Curio numbers it (go-state-types
 * abi, the FFI's repr(i32)): PoRep a RegisteredSealProof 0..19
 * (filecoin_proofs.h fil_seal_proof); WinningPoSt a RegisteredPoStProof
 * 0..4 (StackedDrgWinning<size>V1); WindowPoSt 5..9
 * (StackedDrgWindow<size>V1) or 10..14 (..V1_2, the 1.2 challenges);
 * SnapDeals a RegisteredUpdateProof 0..4; the sizes in each range in the
 * order 2KiB, 8MiB, 512MiB, 32GiB, 64GiB. What each kind reads:
 *   PoRep       vanilla[0] (the C1 JSON or Curio's envelope of it),
 *               registered_proof, miner_id, sector_number;
 *   PoSt        vanilla = one FallbackPoStSectorProof per sector,
 *               registered_proof, randomness (32 bytes), miner_id, and for
 *               WindowPoSt partition_index;
 *   SnapDeals   vanilla = one PartitionProof per partition,
 *               registered_proof, comm_r_old, comm_r_new, comm_d_new (32
 *               bytes each).
 * sector_size (0: not given) must be the registered proof's. Fields a kind
 * does not read are ignored. */
typedef struct daemon_filecoin {
    uint64_t registered_proof;
    uint64_t sector_size;
    uint64_t sector_number, miner_id;
    uint32_t partition_index;
    daemon_blob_t randomness, comm_r_old, comm_r_new, comm_d_new;
    const daemon_blob_t *vanilla; /* n_vanilla, each non-empty */
    size_t n_vanilla;
} daemon_filecoin_t;

typedef struct daemon_request {
    /* SNARKJS or BELLPERSON (which must match the key), DAEMON_KIND_FROM_KEY,
     * or a Filecoin kind (with filecoin) */
    engine_kind kind;
    cuzk_priority priority; /* or DAEMON_PRIO_BY_KIND */
    /* Optional (NULL or ""): at most 127 printable ASCII bytes. The same
     * request id with the same kind, circuit and witnesses returns the job
     * it first made (*existing = 1) and queues nothing, until that job
     * expires; with other contents it is CUZK_ERR_ARG. */
    const char *request_id;
    /* Required for SNARKJS and BELLPERSON: [A-Za-z0-9._-]{1,128}, not
     * starting with '.', never "..": it cannot name a path outside srs.dir.
     * Optional (NULL or "") for the Filecoin kinds. */
    const char *circuit_id;
    /* .wtns bytes, one per partition (exactly one for a snarkjs key), each
     * non-empty; 1..65536 of them (0 allowed for the Filecoin kinds).
     * Copied: the caller's buffers need only last the call. */
    const daemon_blob_t *witnesses;
    size_t n_witnesses;
    /* Required for the Filecoin kinds (no witnesses then), NULL otherwise.
     * At submit its vanilla proofs are parsed and checked against its
     * values (filecoin_job.h fil_job_new) and the parameter files found in
     * srs.filecoin_params; a failure of either is CUZK_ERR_ARG (CUZK_ERR_FORMAT,
     * CUZK_ERR_NONCANONICAL for bytes that do not parse) naming the field
     * or the file, with nothing journaled. The request's values and vanilla
     * proofs are journaled (inputs: a header, then the vanilla proofs), so
     * that a restart rebuilds the job. */
    const daemon_filecoin_t *filecoin;
} daemon_request_t;

/* Accepts a job: validates the request, checks the queue limit
 * (daemon.max_queued_jobs unfinished jobs; a request id that names a job
 * already is answered without the check), journals it, loads its key
 * when needed, submits it to the engine. *job_id (never 0 once journaled)
 * and *existing (1: the request id named an existing job, whatever its
 * state; nothing was queued) are set whenever the job was journaled, also
 * when an error is returned after that.
 * Returns: CUZK_OK; CUZK_ERR_ARG (a bad field, an unknown circuit, a kind
 * that is not the key's, a snarkjs key without exactly one witness, a
 * request id reused with other contents; nothing journaled);
 * CUZK_ERR_BUSY "queue full (N jobs)" (nothing journaled);
 * CUZK_ERR_CANCELLED (shutting down); CUZK_ERR_IO (the journal). After the
 * job was journaled (*job_id set, the job FAILED with this error):
 * the key's load error, or an engine refusal. A job
 * cancelled before the engine got it is CANCELLED, and the call CUZK_OK. */
cuzk_status daemon_submit(daemon_t *d, uint64_t *job_id, int *existing, const daemon_request_t *req,
                          cuzk_error_t *err);

/* Stage times of a finished job, milliseconds. */
typedef struct daemon_times {
    uint64_t queue_wait_ms;  /* accepted (or resumed) -> its first partition admitted on a device */
    uint64_t srs_load_ms;    /* the registry load it waited for + the device loads (stage "load") */
    uint64_t synthesis_ms;   /* the witness stages, summed over partitions */
    uint64_t gpu_compute_ms; /* the prove stages, summed over partitions */
    uint64_t verify_ms;      /* the batch check */
    uint64_t total_ms;       /* accepted -> finished (the journal's clock: spans restarts) */
} daemon_times_t;

typedef struct daemon_result {
    uint64_t job_id;
    engine_kind kind;
    engine_job_state state; /* DONE, FAILED or CANCELLED */
    cuzk_error_t error;     /* code CUZK_OK unless FAILED or CANCELLED */
    char circuit_id[REQUEST_CIRCUIT_ID_MAX + 1];
    uint8_t *proof; /* DONE: see the file comment; else NULL */
    size_t proof_len;
    uint8_t *public_signals;
    size_t public_len;
    daemon_times_t times; /* the engine's parts are 0 when it no longer has them */
    /* Per-partition times while the daemon remembers them (the
     * DAEMON_RECENT_MAX most recent jobs finished by this process), else
     * NULL and 0. */
    engine_part_timing_t *partitions;
    size_t n_partitions;
} daemon_result_t;

/* Waits up to timeout_ms (< 0: no limit; 0: a poll) for job_id to finish
 * and fills *out (which the caller frees with daemon_result_free).
 * Returns: CUZK_OK when the job is finished, whatever its state (DONE,
 * FAILED, CANCELLED: out->state and out->error say); CUZK_ERR_TIMEOUT (not
 * finished in time; the job goes on; out->job_id set, the rest zeroed);
 * CUZK_ERR_ARG (no such job: never accepted, or expired);
 * CUZK_ERR_CANCELLED (daemon_shutdown while waiting); CUZK_ERR_IO /
 * CUZK_ERR_FORMAT (the journal); CUZK_ERR_NOMEM. */
cuzk_status daemon_await(daemon_t *d, daemon_result_t *out, uint64_t job_id, int timeout_ms,
                         cuzk_error_t *err);
/* Frees what *r owns and zeroes it. NULL: nothing. */
void daemon_result_free(daemon_result_t *r);

/* daemon_submit, then daemon_await(timeout_ms). A submit error after the
 * job was journaled is answered as that FAILED job's result (CUZK_OK);
 * out->job_id is set whenever the job was journaled (so that a
 * CUZK_ERR_TIMEOUT can be followed by daemon_await). *existing optional. */
cuzk_status daemon_prove(daemon_t *d, daemon_result_t *out, int *existing,
                         const daemon_request_t *req, int timeout_ms, cuzk_error_t *err);

/* Cancels a job: queued partitions are dropped, running proofs finish and
 * are discarded, and the job is journaled CANCELLED (by the completion
 * thread, promptly: daemon_await it to see it). *was_running (optional): 1
 * when a partition of it had reached a device. A finished job is left as
 * it is. Returns: CUZK_OK; CUZK_ERR_ARG (no such job). */
cuzk_status daemon_cancel(daemon_t *d, int *was_running, uint64_t job_id, cuzk_error_t *err);

typedef struct daemon_job_info {
    uint64_t job_id;
    engine_kind kind;
    cuzk_priority priority;
    engine_job_state state;
    char circuit_id[REQUEST_CIRCUIT_ID_MAX + 1];
    size_t n_partitions;
    size_t partitions_done; /* proved so far (unfinished jobs) */
    /* Unfinished jobs accepted before it with a priority at least its own
     * and not yet running: a rough place in line (QUEUED jobs only). */
    unsigned queue_position;
    int device; /* where its latest partition was admitted; -1: none yet */
} daemon_job_info_t;

/* An unfinished job from the daemon's table, a finished one from the
 * journal. Returns: CUZK_OK; CUZK_ERR_ARG (no such job); the journal's. */
cuzk_status daemon_job_info(daemon_t *d, daemon_job_info_t *out, uint64_t job_id,
                            cuzk_error_t *err);

/* ---- circuit registry ---- */

typedef enum daemon_key_state {
    DAEMON_KEY_ON_DISK = 0, /* known from srs.dir, not loaded */
    DAEMON_KEY_LOADING = 1,
    DAEMON_KEY_LOADED = 2, /* in host memory (mapped) and registered with the engine */
} daemon_key_state;

/* "snarkjs", "bellperson"; "on_disk", "loading", "loaded"; "invalid". */
const char *daemon_key_state_str(int state);

/* A key's id: a circuit id (request.h), or a Filecoin parameter stem
 * ("v28-...", up to 144 characters: filecoin_params.h). */
#define DAEMON_KEY_ID_MAX 191

typedef struct daemon_key_info {
    char circuit_id[DAEMON_KEY_ID_MAX + 1];
    groth16_convention format;
    daemon_key_state state;
    uint64_t bytes;        /* the key's files together (what a load maps and reads) */
    uint64_t loaded_bytes; /* of them done: 0 -> bytes, file by file */
    uint64_t load_ms;      /* the last load's duration (LOADED) */
    unsigned jobs;         /* jobs holding the key now (submits included) */
    unsigned n_resident;   /* devices where it is resident */
    int resident[ENGINE_MAX_DEVICES];
    uint64_t resident_bytes; /* VRAM reserved for it, over every device */
    /* A preload's loads onto the devices (engine_key_info_t.warm*): the
     * state, bytes on the device of bytes to load, the duration (done,
     * failed). Over every device: device_loaded_bytes of device_bytes. */
    engine_warm device_load[ENGINE_MAX_DEVICES];
    uint64_t device_load_done[ENGINE_MAX_DEVICES], device_load_total[ENGINE_MAX_DEVICES];
    uint64_t device_load_ms[ENGINE_MAX_DEVICES];
    uint64_t device_loaded_bytes, device_bytes;
} daemon_key_info_t;

/* Loads circuit_id when not loaded yet, then makes it resident on every
 * device that has room (a device without room streams it later: not an
 * error). *info and *already_loaded (1: it was loaded before the call) are
 * optional. Returns: CUZK_OK; CUZK_ERR_ARG (a bad or unknown id); the
 * loaders' errors (CUZK_ERR_IO, CUZK_ERR_FORMAT, ...); CUZK_ERR_BUSY or
 * CUZK_ERR_CAPACITY (srs.max_resident: busy keys fill it, or the key alone
 * exceeds it). */
cuzk_status daemon_preload(daemon_t *d, daemon_key_info_t *info, int *already_loaded,
                           const char *circuit_id, cuzk_error_t *err);

/* Drops circuit_id from every device and from host memory (the files stay;
 * a later job loads it again). *was_loaded and *freed_bytes (its file
 * bytes) are optional. Returns: CUZK_OK (also when it was not loaded);
 * CUZK_ERR_BUSY (jobs hold it, or it is loading: nothing changes);
 * CUZK_ERR_ARG (a bad id). */
cuzk_status daemon_evict(daemon_t *d, int *was_loaded, uint64_t *freed_bytes,
                         const char *circuit_id, cuzk_error_t *err);

/* One key: loaded, loading, or on disk. Returns CUZK_OK; CUZK_ERR_ARG (bad
 * or unknown id). */
cuzk_status daemon_key_info(daemon_t *d, daemon_key_info_t *out, const char *circuit_id,
                            cuzk_error_t *err);
/* The loaded and loading keys: *keys malloc'd (free() it; NULL when *n is
 * 0). Returns CUZK_OK or CUZK_ERR_NOMEM. */
cuzk_status daemon_keys(daemon_t *d, daemon_key_info_t **keys, size_t *n, cuzk_error_t *err);

/* ---- status and metrics ---- */

typedef struct daemon_device_stats {
    char name[ENGINE_NAME_MAX];
    uint64_t vram_capacity, vram_reserved, vram_persistent, vram_peak; /* the device's ledger */
    /* engine_device_stats_t's: busy counts the critical lane's worker
     * (lane_workers, 0 or 1; lane_busy while it proves) */
    unsigned workers, busy_workers, idle_workers, resident_keys;
    unsigned lane_workers, lane_busy;
    uint64_t proofs, failures, streamed, evictions;
    /* The fraction of the last DAEMON_BUSY_WINDOW_S seconds (or of the
     * uptime, when shorter) in which at least one prove stage ran on the
     * device; a prove is counted when it ends, over the seconds it covered. */
    double busy_ratio;
    uint64_t current_job; /* a job with a partition proving there now (the latest); 0: none */
    engine_kind current_kind;
} daemon_device_stats_t;

typedef struct daemon_kind_stats {
    uint64_t submitted;       /* accepted by this process (new jobs; resumed ones not counted) */
    uint64_t resumed;         /* taken from the journal at start */
    uint64_t queued, running; /* unfinished now */
    uint64_t done, failed, cancelled; /* finished by this process */
} daemon_kind_stats_t;

typedef struct daemon_stats {
    uint64_t uptime_ms;
    unsigned n_devices;
    daemon_device_stats_t devices[ENGINE_MAX_DEVICES];
    unsigned witness_queue[CUZK_PRIO_COUNT]; /* partitions waiting, by priority */
    unsigned ready_queue[CUZK_PRIO_COUNT];
    uint64_t ready_bytes;
    uint64_t pinned_bytes;      /* page-locked witness buffers alive (in use and kept) */
    uint64_t pinned_kept_bytes; /* witness buffers (page-locked or not) idle for reuse */
    uint64_t witnesses_packed, packed_bytes; /* memory.witness_pack: so far, their packs' bytes */
    uint64_t pinned_limit;                   /* memory.pinned_budget (0: no limit) */
    uint64_t unfinished;                     /* jobs queued or running */
    unsigned max_queued;                     /* daemon.max_queued_jobs */
    daemon_kind_stats_t kinds[ENGINE_KIND_COUNT];
    unsigned keys_loaded;    /* loaded or loading */
    uint64_t key_bytes;      /* their file bytes */
    uint64_t key_bytes_max;  /* srs.max_resident (0: no limit) */
    uint64_t journal_errors; /* journal writes that failed (each logged) */
    uint64_t events_dropped; /* event-log lines that could not be written */
} daemon_stats_t;

/* A consistent-enough snapshot (each part under its own lock). */
void daemon_stats(daemon_t *d, daemon_stats_t *out);

/* The status document (cJSON, compact): uptime_ms, devices[] (name, vram
 * {capacity, reserved, persistent, peak}, workers {total, busy, idle},
 * proofs, failures, streamed, evictions, busy_ratio, current_job), queues[]
 * (priority, witness, ready), jobs {unfinished, queued, running,
 * max_queued}, memory {ready_bytes, pinned_bytes, pinned_limit_bytes,
 * witness_buffers_kept_bytes}, keys[] (daemon_key_info_t's fields: circuit, format, state,
 * bytes, loaded_bytes, progress 0..1, load_ms, jobs, devices[],
 * resident_bytes), totals {<kind>: {submitted, resumed, done, failed,
 * cancelled}}, recent[] (the last DAEMON_RECENT_MAX finished jobs, newest
 * first: id, kind, state, circuit, error, times {...}, partitions[]
 * {witness_ms, ready_ms, admit_ms, prove_ms, device, attempts, streamed}).
 * *json malloc'd and NUL-terminated, *len its length.
 * Returns CUZK_OK or CUZK_ERR_NOMEM. */
cuzk_status daemon_status_json(daemon_t *d, char **json, size_t *len, cuzk_error_t *err);

/* The metrics in the Prometheus text format (metrics.h's families; the
 * gauges refreshed first; the device label is the device's index).
 * *text malloc'd and NUL-terminated. Returns CUZK_OK or CUZK_ERR_NOMEM. */
cuzk_status daemon_metrics_text(daemon_t *d, char **text, size_t *len, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
