/* What the daemon client commands (cmd_client.c, bench_client.c) share: the
 * connection options every one of them takes, reporting a failed call, the
 * cuzk.v1 enums by name, and the witness files of a request, mapped.
 *
 * Exit codes follow cli_util.h: a call that fails (daemon unreachable, a
 * request it refuses, no answer in time) is CLI_USAGE (2); a job that
 * failed, was cancelled or is still running is CLI_INVALID (1). */
#ifndef CUZK_CLIENT_UTIL_H
#define CUZK_CLIENT_UTIL_H

#include <stddef.h>

#include "cuzk/rpc.h"
#include "cuzk/status.h"

#define CLIENT_ADDR_DEFAULT "unix:///run/cuzk/cuzk.sock"
#define CLIENT_ADDR_ENV "CUZK_ADDR"
/* Deadline of the calls that answer at once (status, cancel, evict). */
#define CLIENT_QUICK_TIMEOUT_MS 30000
/* Deadline of the calls that may load a key first (submit, preload). */
#define CLIENT_LOAD_TIMEOUT_MS 600000
/* An AwaitProof call's deadline is its timeout_ms plus this, so that the
 * daemon's TIMEOUT answer arrives before gRPC's DEADLINE_EXCEEDED. */
#define CLIENT_AWAIT_GRACE_MS 30000
#define CLIENT_TIMEOUT_MS_MAX 2000000000L /* fits the int the rpc calls take */

/* The options every client command takes. */
typedef struct client_conn {
    const char *addr; /* --addr, else $CUZK_ADDR, else CLIENT_ADDR_DEFAULT */
    const char *tls_ca, *tls_cert, *tls_key, *tls_server_name; /* NULL: not given */
    long timeout_ms; /* --timeout-ms; -1: not given (each command has its default) */
} client_conn_t;

/* The usage lines for the options above, for every command's usage text. */
extern const char CLIENT_CONN_USAGE[];

void client_conn_default(client_conn_t *c);

/* When argv[*i] is one of the options above, takes it and its value
 * (advancing *i) and returns 1; 0 when it is not one of them; -1 when its
 * value is missing or malformed (a "cuzk <cmd>: ..." line printed). */
int client_conn_take(client_conn_t *c, const char *cmd, int argc, char **argv, int *i);

/* c->timeout_ms when given, else def. */
int client_timeout(const client_conn_t *c, int def);

/* Opens a channel to c->addr (connections are made on the first call;
 * calls fail at once when the daemon cannot be reached). */
cuzk_status client_connect(rpc_client_t **out, const client_conn_t *c, cuzk_error_t *err);

/* Prints why a call of rpc method `method` ("SubmitProof") failed, as
 * "cuzk <cmd>: cannot reach <addr>: ..." when the daemon is unreachable,
 * "cuzk <cmd>: <method>: <CODE>: <message>" when it refused, and returns
 * CLI_USAGE. */
int client_call_fail(const char *cmd, const client_conn_t *c, const char *method, cuzk_status s,
                     const rpc_status_t *st, const cuzk_error_t *err);

/* 1 when st says the daemon could not be reached (UNAVAILABLE). */
int client_unreachable(const rpc_status_t *st);

/* "critical", "high", "normal", "low" <-> cuzk.v1.Priority; "groth16",
 * "porep", "snap-deals" (or "snapdeals"), "window-post", "winning-post" <->
 * cuzk.v1.ProofKind.
 * The parsers return 1 when s is one of the names. */
int client_priority_parse(Cuzk__V1__Priority *out, const char *s);
int client_kind_parse(Cuzk__V1__ProofKind *out, const char *s);
const char *client_priority_name(Cuzk__V1__Priority p);
const char *client_kind_name(Cuzk__V1__ProofKind k); /* the first name of k */
/* The proto's own name of an AwaitProofResponse.Status ("COMPLETED"). */
const char *client_await_status_name(int status);

/* The request's input files, mapped read-only: blobs[i] is file i. */
typedef struct client_files {
    ProtobufCBinaryData *blobs;
    size_t n;
} client_files_t;

/* Maps paths[0..n). Returns CUZK_OK; CUZK_ERR_IO (a file missing,
 * unreadable, not a regular file or empty: the message names it);
 * CUZK_ERR_NOMEM. On failure nothing stays mapped. */
cuzk_status client_files_map(client_files_t *out, char *const *paths, size_t n, cuzk_error_t *err);
void client_files_unmap(client_files_t *f);

/* What a submit asks for, besides the files. */
typedef struct client_job {
    Cuzk__V1__ProofKind kind;
    Cuzk__V1__Priority priority;
    const char *circuit_id; /* "" or NULL: none */
    const char *request_id; /* "" or NULL: none */
} client_job_t;

/* Fills *req (initialised here) from job and files; req points into both,
 * so it is valid while they are and must not be freed. GROTH16_CIRCUIT:
 * the files are the witnesses (one per partition); POREP_SEAL_COMMIT: the
 * one file is the vanilla proof (C1 output); the other Filecoin kinds: the
 * files are the vanilla proofs. */
void client_request_fill(Cuzk__V1__SubmitProofRequest *req, const client_job_t *job,
                         const client_files_t *files);

/* Parses a decimal count in lo..hi. 1 when s is one. */
int client_parse_long(long *out, const char *s, long lo, long hi);

#endif
