/* The cuzk.v1.ProvingEngine handlers: each RPC of proto/cuzk/v1/proving.proto
 * mapped onto the daemon core (daemon.h), as a handler table for
 * rpc_server_new (rpc.h).
 *
 * Mapping.
 *  - SubmitProof: rpc_validate_submit first (daemon_rpc_t.limits). Kind
 *    GROTH16_CIRCUIT is DAEMON_KIND_FROM_KEY with the witnesses; the
 *    Filecoin kinds (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE,
 *    WINDOW_POST_PARTITION, WINNING_POST) go to the daemon as ENGINE_KIND_POREP,
 *    _SNAPDEALS, _WINDOW_POST, _WINNING_POST without their vanilla proofs
 *    (the engine refuses them: nothing would ever read those bytes, and a
 *    PoRep C1 output is tens of MB to journal). Priority LOW..CRITICAL
 *    (1..4) is CUZK_PRIO_LOW..CRITICAL (0..3), UNSPECIFIED is NORMAL. Job
 *    ids are the daemon's, as decimal strings. Whenever the daemon
 *    journaled the job (daemon_submit set *job_id), the call succeeds with
 *    that id, also when daemon_submit returned an error after journaling it
 *    (a Filecoin kind's "unsupported proof kind", a key that failed to
 *    load): the job exists, FAILED with that error, and AwaitProof says so.
 *    queue_position and assigned_gpu (the device index, as GetStatus's
 *    ordinal, decimal; "" while none) come from daemon_job_info; existing
 *    from daemon_submit.
 *  - AwaitProof: timeout_ms 0 is no limit. The wait is daemon_await in
 *    slices of at most DAEMON_RPC_AWAIT_SLICE_MS and of the call's
 *    remaining deadline, with rpc_call_cancelled checked between them, so
 *    a cancelled call (client cancel, deadline, shutdown) returns within a
 *    slice. Answers COMPLETED (proof, public_signals), FAILED or CANCELLED
 *    (error_message) with the stage times, or TIMEOUT when timeout_ms
 *    passes first (the job goes on).
 *  - Prove: SubmitProof's mapping, then AwaitProof's wait without a
 *    timeout_ms (the call's deadline bounds it). A call cancelled while
 *    waiting leaves the job running: the same request_id finds it again.
 *  - CancelProof: daemon_cancel (was_running). A finished job is left as
 *    it is and the call succeeds.
 *  - GetStatus: one GPUStatus per engine device (ordinal: its index; VRAM
 *    total: its ledger capacity, free: capacity - reserved; the job proving
 *    there now); one SRSStatus per loaded or loading key (HOT: resident on
 *    some device; WARM: loaded in host memory; COLD: still loading from
 *    disk; size: its file bytes; ref_count: the jobs holding it); one
 *    QueueStatus per engine kind (engine_kind_str names: queued, running);
 *    totals: done and failed jobs of every kind since start; uptime;
 *    pinned memory 0 of memory.pinned_budget (the engine pins nothing it
 *    accounts for yet).
 *  - GetMetrics: daemon_metrics_text. PreloadSRS: daemon_preload
 *    (already_loaded; load_time_ms: the key's last load). EvictSRS:
 *    daemon_evict (was_loaded, freed_bytes).
 *
 * gRPC status codes (a failed call's message is the daemon's):
 *  INVALID_ARGUMENT: a request rpc_validate_submit refuses; a job_id that
 *    is not a decimal number; an unknown circuit, a kind that is not the
 *    key's, a snarkjs key without exactly one witness, a request_id reused
 *    with other contents (daemon_submit's CUZK_ERR_ARG); a malformed
 *    circuit_id (Preload, Evict); a ProveRequest without submit;
 *  NOT_FOUND: an unknown or expired job id, or "0" (Await, Cancel); an
 *    unknown circuit (PreloadSRS);
 *  RESOURCE_EXHAUSTED: queue full (daemon.max_queued_jobs); messages over
 *    daemon.max_message_bytes (the transport's check); srs.max_resident
 *    full of busy keys (Preload); out of memory;
 *  FAILED_PRECONDITION: EvictSRS of a key that jobs hold or that is loading;
 *    PreloadSRS of a key whose files do not parse (the daemon's state, not
 *    the caller's argument);
 *  UNAVAILABLE: the daemon is shutting down (daemon_shutdown), or not
 *    attached yet (starting);
 *  CANCELLED / DEADLINE_EXCEEDED: the call was cancelled or passed its
 *    deadline while waiting;
 *  otherwise rpc_status_from_cuzk of the daemon's status (INTERNAL for the
 *    journal's I/O errors).
 *
 * Rules for these functions:
 *  - argument order: outputs first, then inputs;
 *  - NULL: cfg may not be NULL; d may be NULL in daemon_rpc_init (then
 *    every call answers UNAVAILABLE "daemon starting" until
 *    daemon_rpc_attach);
 *  - ownership: the caller owns the daemon_rpc_t, which must outlive the
 *    server that uses its table; the daemon must outlive the server too
 *    (rpc_server_shutdown before daemon_free);
 *  - thread safety: the handlers are thread-safe (they only call
 *    daemon.h's functions); daemon_rpc_attach may run while the server
 *    serves, once, to publish the daemon (detaching is not supported: a
 *    handler may still be using it). */
#ifndef CUZK_DAEMON_RPC_H
#define CUZK_DAEMON_RPC_H

#include <stdint.h>

#include "cuzk/config.h"
#include "cuzk/daemon.h"
#include "cuzk/rpc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest single daemon_await inside AwaitProof and Prove: how late a
 * handler may notice that its call was cancelled. */
#define DAEMON_RPC_AWAIT_SLICE_MS 250

typedef struct daemon_rpc {
    daemon_t *d;           /* read atomically by the handlers; NULL: UNAVAILABLE */
    rpc_limits_t limits;   /* what rpc_validate_submit allows */
    uint64_t pinned_limit; /* GetStatus.pinned_memory_limit_bytes */
} daemon_rpc_t;

/* Fills *ctx for d (may be NULL: see daemon_rpc_attach) and cfg: the
 * limits are rpc_limits_default's with every byte bound set to
 * daemon.max_message_bytes (nothing larger can arrive). */
void daemon_rpc_init(daemon_rpc_t *ctx, daemon_t *d, const cuzk_config_t *cfg);

/* Publishes d to the handlers (release store): calls from then on reach it. */
void daemon_rpc_attach(daemon_rpc_t *ctx, daemon_t *d);

/* The handler table for rpc_server_opts_t.handlers: every method, ctx as
 * their context. */
void daemon_rpc_handlers(rpc_handlers_t *out, daemon_rpc_t *ctx);

#ifdef __cplusplus
}
#endif
#endif
