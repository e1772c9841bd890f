/* The daemon's gRPC transport: the cuzk.v1.ProvingEngine service
 * (proto/cuzk/v1/proving.proto) on the gRPC C core, messages packed and
 * unpacked by protobuf-c (the generated "cuzk/v1/proving.pb-c.h").
 *
 * Server. rpc_server_new listens (a unix socket or TCP, optionally TLS) and
 * serves unary calls: one poller thread owns the server's completion queue;
 * each call whose method is known is handed to a bounded pool of worker
 * threads, which unpacks the request, runs the daemon's handler, packs the
 * response and sends it. Handlers may block (AwaitProof, Prove): the other
 * workers keep serving. When every worker is busy and the wait queue is
 * full, a call is answered RESOURCE_EXHAUSTED at once instead of waiting.
 * An unknown method, or a method without a handler, is UNIMPLEMENTED; a
 * request that is absent or does not unpack is INVALID_ARGUMENT; a request
 * or response over max_message_bytes is RESOURCE_EXHAUSTED (gRPC's own
 * check for requests, ours for responses).
 *
 * Handlers. Each RPC has one function in rpc_handlers_t:
 *     void h(void *ctx, const rpc_call_t *call, const Req *req, Resp *resp,
 *            rpc_status_t *st);
 * run on a worker thread (several at once: handlers must be thread-safe).
 * *st starts as {GRPC_STATUS_OK, ""}; a handler that fails sets another
 * code (rpc_status_set) and its response is discarded. *resp starts
 * initialised (the generated __init); the handler fills it and the server
 * owns it afterwards: packs it, then frees it with
 * protobuf_c_message_free_unpacked(resp, NULL), which calls free() on every
 * string, bytes buffer, repeated array and sub-message it points to. So
 * every pointer a handler stores in *resp must come from malloc (or the
 * helpers below), or be left at its initial value; never point into req,
 * into static storage or into another response. req is valid until the
 * handler returns.
 *
 * Cancellation. A call is cancelled when the client cancels it, its
 * deadline passes, its connection drops, or rpc_server_shutdown's grace
 * period ends. A handler that can block must watch for it: poll
 * rpc_call_cancelled(call) between bounded waits (e.g. engine_await in
 * slices of at most rpc_call_remaining_ms), or sleep with rpc_call_wait,
 * which wakes at once on cancellation, and then return (answering CANCELLED
 * is fine: when the cause was the deadline the server sends
 * DEADLINE_EXCEEDED instead). rpc_server_shutdown cannot finish while a
 * handler ignores cancellation.
 *
 * Client. rpc_client_new opens a channel (connections are made lazily and
 * reused); rpc_submit_proof ... rpc_evict_srs make one unary call each and
 * block until it ends or its timeout. A client may be used by any number of
 * threads at once.
 *
 * Rules for these functions:
 *  - argument order: the server/client handle first, then outputs, then
 *    inputs, rpc_status_t *st (may be NULL) and cuzk_error_t *err (may be
 *    NULL) last;
 *  - NULL: every other pointer is required unless its comment says
 *    otherwise; rpc_server_shutdown and rpc_client_free do nothing for NULL;
 *  - thread safety: rpc_server_stats and the rpc_call_* functions may be
 *    called from any thread; rpc_server_shutdown once, from a thread that is
 *    not one of the server's (not from a handler); the client functions
 *    from any number of threads at once, except rpc_client_free, which needs
 *    every call on that client to have returned; the validation helpers are
 *    reentrant;
 *  - the gRPC library is initialised by the first server or client made
 *    and shut down (grpc_shutdown) when the last one is freed. */
#ifndef CUZK_RPC_H
#define CUZK_RPC_H

#include <stddef.h>
#include <stdint.h>

#include <grpc/status.h>

#include "cuzk/request.h"
#include "cuzk/status.h"
#include "cuzk/v1/proving.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- statuses ---- */

#define RPC_STATUS_MSG_MAX 256

/* A gRPC status: the code and its message (truncated to fit). */
typedef struct rpc_status {
    grpc_status_code code;
    char message[RPC_STATUS_MSG_MAX];
} rpc_status_t;

/* Sets st's code and printf-style message (st may be NULL). */
void rpc_status_set(rpc_status_t *st, grpc_status_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "OK", "CANCELLED", ..., "UNAUTHENTICATED"; "INVALID_CODE" otherwise. */
const char *rpc_status_code_str(int code);
/* The gRPC code a daemon answers for a cuzk status: OK; INVALID_ARGUMENT
 * (ARG, LENGTH, FLAGS, NONCANONICAL, NOT_ON_CURVE, NOT_IN_SUBGROUP, PARSE,
 * FORMAT); UNIMPLEMENTED (UNSUPPORTED); RESOURCE_EXHAUSTED (NOMEM, BUSY,
 * CAPACITY); DEADLINE_EXCEEDED (TIMEOUT); CANCELLED; FAILED_PRECONDITION
 * (NO_DEVICE); INTERNAL (IO, CUDA, INTERNAL, anything else). */
grpc_status_code rpc_status_from_cuzk(cuzk_status s);
/* The cuzk status a client reports for a gRPC code: CUZK_OK; CUZK_ERR_ARG
 * (INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, OUT_OF_RANGE,
 * FAILED_PRECONDITION); CUZK_ERR_UNSUPPORTED (UNIMPLEMENTED);
 * CUZK_ERR_BUSY (RESOURCE_EXHAUSTED, ABORTED); CUZK_ERR_TIMEOUT
 * (DEADLINE_EXCEEDED); CUZK_ERR_CANCELLED; CUZK_ERR_IO (UNAVAILABLE,
 * UNAUTHENTICATED, PERMISSION_DENIED); CUZK_ERR_INTERNAL otherwise. */
cuzk_status rpc_status_to_cuzk(grpc_status_code code);

/* ---- methods ---- */

/* The service's RPCs, in the proto's order (the index of each in
 * cuzk__v1__proving_engine__descriptor.methods). */
typedef enum rpc_method {
    RPC_SUBMIT_PROOF = 0,
    RPC_AWAIT_PROOF = 1,
    RPC_PROVE = 2,
    RPC_CANCEL_PROOF = 3,
    RPC_GET_STATUS = 4,
    RPC_GET_METRICS = 5,
    RPC_PRELOAD_SRS = 6,
    RPC_EVICT_SRS = 7,
} rpc_method;
#define RPC_METHOD_COUNT 8

/* The HTTP/2 path of method m ("/cuzk.v1.ProvingEngine/SubmitProof"),
 * built from the generated service descriptor; NULL when m is out of
 * range. */
const char *rpc_method_path(int m);

/* ---- server ---- */

typedef struct rpc_server rpc_server_t;
typedef struct rpc_call rpc_call_t;

#define RPC_MAX_MESSAGE_DEFAULT ((size_t)256 << 20) /* 256 MiB: a PoRep C1 output is ~50 MB */
#define RPC_MAX_MESSAGE_LIMIT ((size_t)0x7fffffff)  /* gRPC keeps message sizes in an int */
#define RPC_WORKERS_MAX 256

typedef struct rpc_handlers {
    void *ctx; /* passed to every handler */
    void (*submit_proof)(void *ctx, const rpc_call_t *call, const Cuzk__V1__SubmitProofRequest *req,
                         Cuzk__V1__SubmitProofResponse *resp, rpc_status_t *st);
    void (*await_proof)(void *ctx, const rpc_call_t *call, const Cuzk__V1__AwaitProofRequest *req,
                        Cuzk__V1__AwaitProofResponse *resp, rpc_status_t *st);
    void (*prove)(void *ctx, const rpc_call_t *call, const Cuzk__V1__ProveRequest *req,
                  Cuzk__V1__ProveResponse *resp, rpc_status_t *st);
    void (*cancel_proof)(void *ctx, const rpc_call_t *call, const Cuzk__V1__CancelProofRequest *req,
                         Cuzk__V1__CancelProofResponse *resp, rpc_status_t *st);
    void (*get_status)(void *ctx, const rpc_call_t *call, const Cuzk__V1__GetStatusRequest *req,
                       Cuzk__V1__GetStatusResponse *resp, rpc_status_t *st);
    void (*get_metrics)(void *ctx, const rpc_call_t *call, const Cuzk__V1__GetMetricsRequest *req,
                        Cuzk__V1__GetMetricsResponse *resp, rpc_status_t *st);
    void (*preload_srs)(void *ctx, const rpc_call_t *call, const Cuzk__V1__PreloadSrsRequest *req,
                        Cuzk__V1__PreloadSrsResponse *resp, rpc_status_t *st);
    void (*evict_srs)(void *ctx, const rpc_call_t *call, const Cuzk__V1__EvictSrsRequest *req,
                      Cuzk__V1__EvictSrsResponse *resp, rpc_status_t *st);
} rpc_handlers_t;

typedef struct rpc_server_opts {
    /* Where to listen: "unix:///abs/path.sock" (or "unix:path"), or
     * "host:port" for TCP ("127.0.0.1:0": an ephemeral port, see
     * rpc_server_port). A unix socket path must not name anything but a
     * socket: a stale socket (nobody listening) is removed, a live one is
     * CUZK_ERR_BUSY, any other file CUZK_ERR_IO. TCP ports are bound without
     * SO_REUSEPORT, so a second daemon on a busy port fails. */
    const char *listen;
    /* The unix socket file's mode, set right after binding; 0: 0600. The
     * socket exists with the umask's mode for that moment, so put it in a
     * directory only the daemon's users can enter when that matters. */
    unsigned socket_mode;
    /* TLS: PEM certificate chain and private key (both or neither; neither:
     * plaintext). tls_client_ca_path (optional, needs TLS): PEM roots that
     * client certificates must chain to; clients without one are refused. */
    const char *tls_cert_path, *tls_key_path, *tls_client_ca_path;
    size_t max_message_bytes; /* requests and responses (1..RPC_MAX_MESSAGE_LIMIT) */
    int workers;              /* handler threads (1..RPC_WORKERS_MAX) */
    int queue_max;           /* calls that may wait for a worker (>= 0); more: RESOURCE_EXHAUSTED */
    rpc_handlers_t handlers; /* copied; a NULL handler: that method is UNIMPLEMENTED */
} rpc_server_opts_t;

/* Defaults: listen NULL (required), socket_mode 0600, no TLS,
 * max_message_bytes RPC_MAX_MESSAGE_DEFAULT, 8 workers, queue_max 64, no
 * handlers. */
void rpc_server_opts_default(rpc_server_opts_t *opts);

/* Binds, starts the poller and the workers, and serves until
 * rpc_server_shutdown.
 * Returns: CUZK_OK; CUZK_ERR_ARG (an option out of bounds, an address gRPC
 * cannot bind: the message says which); CUZK_ERR_BUSY (a server listens on
 * the unix socket already); CUZK_ERR_IO (a TLS file unreadable, a non-socket
 * file at the socket path, chmod failed); CUZK_ERR_NOMEM. On failure
 * nothing is left running or bound. */
cuzk_status rpc_server_new(rpc_server_t **out, const rpc_server_opts_t *opts, cuzk_error_t *err);

/* The bound TCP port (the ephemeral one for port 0); 0 for a unix socket. */
int rpc_server_port(const rpc_server_t *srv);

/* Stops accepting calls, lets calls in flight finish for up to grace_ms
 * (< 0: no limit), then cancels the rest (their handlers see
 * rpc_call_cancelled), waits for every handler to return, joins every
 * thread, removes the unix socket and frees srv. */
void rpc_server_shutdown(rpc_server_t *srv, int grace_ms);

typedef struct rpc_server_stats {
    uint64_t handled[RPC_METHOD_COUNT]; /* calls a handler ran for */
    uint64_t rejected_busy;             /* RESOURCE_EXHAUSTED: pool and queue full */
    uint64_t unimplemented;             /* unknown method, or no handler */
    uint64_t bad_request;               /* INVALID_ARGUMENT: no message, or it did not unpack */
    uint64_t cancelled;                 /* calls cancelled before their response went out */
    unsigned active;                    /* calls the server holds now */
    unsigned queued;                    /* waiting for a worker now */
    unsigned busy_workers, workers;
} rpc_server_stats_t;

/* A consistent snapshot of srv's counters. */
void rpc_server_stats(rpc_server_t *srv, rpc_server_stats_t *out);

/* ---- inside a handler ---- */

/* 1 once call is cancelled (client cancel, deadline passed, connection
 * lost, shutdown past its grace), else 0. */
int rpc_call_cancelled(const rpc_call_t *call);
/* Milliseconds left until the client's deadline (0 once passed); -1 when
 * the client set none. */
int64_t rpc_call_remaining_ms(const rpc_call_t *call);
/* Sleeps up to timeout_ms (< 0: no limit) or until call is cancelled or its
 * deadline passes, whichever is first. Returns 1 when cancelled (or past
 * its deadline), 0 when timeout_ms passed first. */
int rpc_call_wait(const rpc_call_t *call, int timeout_ms);
/* The call's method path, and its peer as gRPC names it ("unix:...",
 * "ipv4:127.0.0.1:5678"; for logs only: it is not authenticated). Valid
 * while the handler runs. */
const char *rpc_call_method(const rpc_call_t *call);
const char *rpc_call_peer(const rpc_call_t *call);

/* Response helpers: malloc'd copies, as *resp's ownership rule needs.
 * rpc_set_string frees a previous malloc'd value of *field first (not the
 * initial empty string); rpc_set_bytes likewise for field->data. n may be
 * 0 (the field becomes empty). Returns CUZK_OK or CUZK_ERR_NOMEM (the field
 * is then left as it was). */
cuzk_status rpc_set_string(char **field, const char *s);
cuzk_status rpc_set_bytes(ProtobufCBinaryData *field, const void *p, size_t n);

/* ---- client ---- */

typedef struct rpc_client rpc_client_t;

typedef struct rpc_client_opts {
    /* TLS when tls_root_cert_path is set: PEM roots the server certificate
     * must chain to. Optional with it: a client certificate and key (PEM),
     * and the name to check the server certificate against instead of the
     * target's host (tls_server_name). NULL root: plaintext. */
    const char *tls_root_cert_path;
    const char *tls_cert_path, *tls_key_path;
    const char *tls_server_name;
    size_t max_message_bytes; /* requests and responses (1..RPC_MAX_MESSAGE_LIMIT) */
    /* 0: a call fails at once with UNAVAILABLE when the daemon cannot be
     * reached; 1: it waits for it (until the call's timeout). */
    int wait_for_ready;
} rpc_client_opts_t;

/* Defaults: plaintext, RPC_MAX_MESSAGE_DEFAULT, wait_for_ready 0. */
void rpc_client_opts_default(rpc_client_opts_t *opts);

/* target: what gRPC dials: "unix:///path.sock", "host:port", "dns:///..."
 * opts: NULL for the defaults.
 * Returns: CUZK_OK; CUZK_ERR_ARG (bounds, a key without its certificate);
 * CUZK_ERR_IO (a TLS file unreadable); CUZK_ERR_NOMEM. */
cuzk_status rpc_client_new(rpc_client_t **out, const char *target, const rpc_client_opts_t *opts,
                           cuzk_error_t *err);
void rpc_client_free(rpc_client_t *cl);

/* One unary call of method (a path such as rpc_method_path(m)) with req,
 * whose reply is unpacked as resp_desc into *resp (the caller frees it with
 * protobuf_c_message_free_unpacked(*resp, NULL); NULL on failure).
 * timeout_ms <= 0: no deadline. *st (optional) receives the call's status.
 * Returns: CUZK_OK (status OK and the reply unpacked); for any other status
 * rpc_status_to_cuzk(code), with err saying "<method>: <CODE>: <message>";
 * CUZK_ERR_FORMAT (status OK but the reply does not unpack: *st says OK);
 * CUZK_ERR_NOMEM. */
cuzk_status rpc_client_call(rpc_client_t *cl, ProtobufCMessage **resp, const char *method,
                            const ProtobufCMessage *req,
                            const ProtobufCMessageDescriptor *resp_desc, int timeout_ms,
                            rpc_status_t *st, cuzk_error_t *err);
/* The same with the request and reply as bytes: sends req_len bytes of req
 * (req may be NULL when req_len is 0) as they are, and returns the reply's
 * bytes in *resp (malloc'd, *resp_len bytes; NULL and 0 on failure or for
 * an empty reply). */
cuzk_status rpc_client_call_raw(rpc_client_t *cl, uint8_t **resp, size_t *resp_len,
                                const char *method, const uint8_t *req, size_t req_len,
                                int timeout_ms, rpc_status_t *st, cuzk_error_t *err);

/* The typed calls: rpc_client_call on each method with its message types.
 * Free *resp with the matching __free_unpacked(*resp, NULL). */
cuzk_status rpc_submit_proof(rpc_client_t *cl, Cuzk__V1__SubmitProofResponse **resp,
                             const Cuzk__V1__SubmitProofRequest *req, int timeout_ms,
                             rpc_status_t *st, cuzk_error_t *err);
cuzk_status rpc_await_proof(rpc_client_t *cl, Cuzk__V1__AwaitProofResponse **resp,
                            const Cuzk__V1__AwaitProofRequest *req, int timeout_ms,
                            rpc_status_t *st, cuzk_error_t *err);
cuzk_status rpc_prove(rpc_client_t *cl, Cuzk__V1__ProveResponse **resp,
                      const Cuzk__V1__ProveRequest *req, int timeout_ms, rpc_status_t *st,
                      cuzk_error_t *err);
cuzk_status rpc_cancel_proof(rpc_client_t *cl, Cuzk__V1__CancelProofResponse **resp,
                             const Cuzk__V1__CancelProofRequest *req, int timeout_ms,
                             rpc_status_t *st, cuzk_error_t *err);
cuzk_status rpc_get_status(rpc_client_t *cl, Cuzk__V1__GetStatusResponse **resp,
                           const Cuzk__V1__GetStatusRequest *req, int timeout_ms, rpc_status_t *st,
                           cuzk_error_t *err);
cuzk_status rpc_get_metrics(rpc_client_t *cl, Cuzk__V1__GetMetricsResponse **resp,
                            const Cuzk__V1__GetMetricsRequest *req, int timeout_ms,
                            rpc_status_t *st, cuzk_error_t *err);
cuzk_status rpc_preload_srs(rpc_client_t *cl, Cuzk__V1__PreloadSrsResponse **resp,
                            const Cuzk__V1__PreloadSrsRequest *req, int timeout_ms,
                            rpc_status_t *st, cuzk_error_t *err);
cuzk_status rpc_evict_srs(rpc_client_t *cl, Cuzk__V1__EvictSrsResponse **resp,
                          const Cuzk__V1__EvictSrsRequest *req, int timeout_ms, rpc_status_t *st,
                          cuzk_error_t *err);

/* ---- validation of what clients send ---- */

typedef struct rpc_limits {
    size_t max_partitions;    /* witnesses in one request (>= 1) */
    size_t max_witness_bytes; /* one witness */
    size_t max_total_bytes;   /* all witnesses and vanilla proofs of one request */
} rpc_limits_t;

/* Defaults: 64 partitions, 1 GiB per witness, RPC_MAX_MESSAGE_DEFAULT in all. */
void rpc_limits_default(rpc_limits_t *limits);

/* The checks a daemon makes before a SubmitProofRequest (or a ProveRequest's
 * submit) reaches the engine:
 *  - request_id: request_id_check (request.h);
 *  - priority: one of the enum's values (UNSPECIFIED: the daemon's default);
 *  - proof_kind GROTH16_CIRCUIT: circuit_id valid (request_circuit_id_check), 1..max_partitions
 *    witnesses, each 1..max_witness_bytes, all of them (with any vanilla
 *    proofs) at most max_total_bytes. Whether the key takes that many
 *    partitions (a snarkjs key takes exactly one) is the engine's check;
 *  - the Filecoin kinds (POREP_SEAL_COMMIT .. WINNING_POST): no witnesses,
 *    circuit_id empty or valid; POREP_SEAL_COMMIT a non-empty
 *    vanilla_proof and no vanilla_proofs, the others 1..65535 non-empty
 *    vanilla_proofs and no vanilla_proof; randomness and comm_* empty or
 *    32 bytes; every vanilla proof at most max_witness_bytes, all of them
 *    at most max_total_bytes. What the values mean is the daemon's check;
 *  - PROOF_KIND_UNSPECIFIED, or a value outside the enum: CUZK_ERR_ARG.
 * Returns: CUZK_OK; CUZK_ERR_ARG (the message names the field). */
cuzk_status rpc_validate_submit(const Cuzk__V1__SubmitProofRequest *req, const rpc_limits_t *limits,
                                cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
