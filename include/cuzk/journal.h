/* The durable job journal: a SQLite file (WAL mode) where the daemon records
 * every accepted job and every finished result, so that after a crash
 * (kill -9, power loss) and a restart queued and running jobs are resumed,
 * finished results stay retrievable by job id until they expire, and a
 * request id seen before returns the job it first made.
 *
 * Durability. Each call that changes the journal is one transaction,
 * committed before the call returns, with synchronous=FULL: a job whose
 * journal_accept returned, and a result whose journal_finish returned,
 * survive a crash of the process or the machine, so the daemon may
 * acknowledge them to the client then. (journal_mark_running survives a
 * process crash; a power loss may undo it, leaving the job QUEUED.)
 *
 * Jobs. journal_accept assigns ids: 1, 2, 3, ... in acceptance order, never
 * reused, also after journal_expire removed the newest and after a restart
 * (SQLite AUTOINCREMENT). States are engine_job_state numbers: QUEUED ->
 * RUNNING (journal_mark_running, again on every attempt) -> DONE, FAILED or
 * CANCELLED (journal_finish, once). A job's inputs (one per partition: the
 * witness bytes, or a reference such as a path for witnesses too large to
 * copy: SQLite's blob limit is about 1 GB, and each blob is written twice,
 * to the WAL and then the database) are kept while it is unfinished and
 * deleted when it finishes; the inputs' hash stays for request-id checks.
 * journal_expire removes finished jobs past a TTL, and with them their
 * request ids: a request id reused after that makes a new job.
 *
 * Request ids. Accepting a request id that names a journaled job returns
 * that job's id with *existing = 1 and records nothing, when kind, circuit
 * id and inputs are the same (compared by a 64-bit hash, cuzk_hash64 (hash.h):
 * a guard against a client's mistakes, not against an adversary), and is
 * CUZK_ERR_ARG when they differ. Priority is not compared: a retry may
 * come with another priority and still names the same job.
 *
 * Errors. Every SQLite failure is CUZK_ERR_IO with the journal's path, what
 * was being done and SQLite's message; CUZK_ERR_FORMAT for a file that is
 * not SQLite, a SQLite file that is not a journal, a journal of a newer
 * schema version, or damage found; CUZK_ERR_ARG for bad arguments and
 * unknown ids; CUZK_ERR_NOMEM.
 *
 * Rules for these functions:
 *  - argument order: the journal first, then outputs, then inputs,
 *    cuzk_error_t *err last; strings and blobs are copied;
 *  - NULL: err may be NULL; journal_close and journal_job_free do nothing
 *    for NULL; other pointers are required unless their comment says;
 *  - thread safety: one journal_t may be used from any number of threads at
 *    once (a mutex inside serialises its calls), except journal_open and
 *    journal_close; several journal_t (or processes) on one file are safe
 *    too (SQLite's locks, waiting up to JOURNAL_BUSY_TIMEOUT_MS), but one
 *    daemon per journal is the intended use: two would both resume its
 *    unfinished jobs. */
#ifndef CUZK_JOURNAL_H
#define CUZK_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/request.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JOURNAL_SCHEMA_VERSION 1
#define JOURNAL_APPLICATION_ID 0x637a6b6a /* PRAGMA application_id: "czkj" */
#define JOURNAL_BUSY_TIMEOUT_MS 5000
#define JOURNAL_INPUTS_MAX 65536
#define JOURNAL_STATE_COUNT 5 /* engine_job_state: QUEUED .. CANCELLED */

typedef struct journal journal_t;

/* One partition's input: a blob (data, len; data may be NULL when len is
 * 0) or, when ref is non-NULL, a non-empty reference string (data NULL,
 * len 0). */
typedef struct journal_input {
    const uint8_t *data;
    size_t len;
    const char *ref;
} journal_input_t;

typedef struct journal_spec {
    const char *request_id; /* optional (NULL or ""): request_id_check (request.h) */
    int kind;               /* engine_kind, 0 .. ENGINE_KIND_COUNT - 1 */
    int priority;           /* cuzk_priority, 0 .. CUZK_PRIO_COUNT - 1 */
    const char *circuit_id; /* request_circuit_id_check (request.h) */
    const journal_input_t *inputs;
    size_t n_inputs; /* 1 .. JOURNAL_INPUTS_MAX */
} journal_spec_t;

/* An input as read back: data/len, or ref (then data NULL). */
typedef struct journal_blob {
    uint8_t *data;
    size_t len;
    char *ref;
} journal_blob_t;

/* A journaled job; every pointer is owned by the record (journal_job_free). */
typedef struct journal_job {
    uint64_t id;
    char *request_id; /* NULL when none */
    int kind, priority;
    char *circuit_id;
    uint64_t inputs_hash;
    size_t n_inputs;        /* as accepted */
    journal_blob_t *inputs; /* JOURNAL_GET_INPUTS of an unfinished job: n_inputs; else NULL */
    int state;              /* engine_job_state */
    cuzk_error_t error;     /* code CUZK_OK unless FAILED or CANCELLED */
    uint8_t *proof;         /* JOURNAL_GET_RESULT: what journal_finish stored (NULL: none) */
    size_t proof_len;
    uint8_t *public_signals;
    size_t public_len;
    int64_t created_ms, started_ms, finished_ms; /* unix ms (journal_clock_ms); 0: not yet */
    unsigned attempts;                           /* journal_mark_running calls */
} journal_job_t;

#define JOURNAL_GET_INPUTS 1u
#define JOURNAL_GET_RESULT 2u
#define JOURNAL_GET_ALL 3u

/* Opens the journal at path, creating it (and its schema) when the file is
 * missing or empty; the WAL and its index live beside it (path-wal,
 * path-shm). Returns: CUZK_OK; CUZK_ERR_IO (cannot open or write, WAL mode
 * refused); CUZK_ERR_FORMAT (not SQLite, not a journal, a newer schema
 * version); CUZK_ERR_NOMEM. */
cuzk_status journal_open(journal_t **out, const char *path, cuzk_error_t *err);
/* Closes the journal (a checkpoint folds the WAL into the file). NULL: nothing. */
void journal_close(journal_t *j);

/* Records a new QUEUED job, or finds the one spec->request_id names (see
 * Request ids above): *id, and *existing 1 for a job found, 0 for a new one.
 * Returns: CUZK_OK; CUZK_ERR_ARG (a spec field out of its bounds, a blob
 * over SQLite's length limit, a request id reused with another kind,
 * circuit or inputs: the message names the first job); CUZK_ERR_IO. */
cuzk_status journal_accept(journal_t *j, uint64_t *id, int *existing, const journal_spec_t *spec,
                           cuzk_error_t *err);

/* A QUEUED or RUNNING job (re)starts: state RUNNING, attempts + 1,
 * started_ms set on the first call. Returns CUZK_OK; CUZK_ERR_ARG (unknown
 * id, or a finished job). */
cuzk_status journal_mark_running(journal_t *j, uint64_t id, cuzk_error_t *err);

/* Finishes a QUEUED or RUNNING job: state (ENGINE_JOB_DONE, _FAILED or
 * _CANCELLED), error (DONE: NULL or CUZK_OK; FAILED: required, not
 * CUZK_OK; CANCELLED: NULL means CUZK_ERR_CANCELLED "cancelled"), the
 * result blobs (either may be NULL with length 0), finished_ms now; the
 * job's inputs are deleted. Returns CUZK_OK; CUZK_ERR_ARG (unknown id, a
 * finished job, a bad state or error); CUZK_ERR_IO. */
cuzk_status journal_finish(journal_t *j, uint64_t id, int state, const cuzk_error_t *error,
                           const uint8_t *proof, size_t proof_len, const uint8_t *public_signals,
                           size_t public_len, cuzk_error_t *err);

/* Reads job id into *out (what: JOURNAL_GET_* bits choosing the blobs to
 * load). Returns CUZK_OK; CUZK_ERR_ARG (no such job: never accepted, or
 * expired; *out zeroed); CUZK_ERR_FORMAT (a record that is damaged). */
cuzk_status journal_get(journal_t *j, journal_job_t *out, uint64_t id, unsigned what,
                        cuzk_error_t *err);
/* Frees what a journal_get filled and zeroes *job. NULL: nothing. */
void journal_job_free(journal_job_t *job);

/* *id: the job request_id names, or 0 when none does. */
cuzk_status journal_find_request(journal_t *j, uint64_t *id, const char *request_id,
                                 cuzk_error_t *err);

/* The ids of QUEUED and RUNNING jobs in id order (acceptance order), for
 * resuming after a restart: *ids is malloc'd (the caller frees it; NULL when
 * *n is 0). */
cuzk_status journal_unfinished(journal_t *j, uint64_t **ids, size_t *n, cuzk_error_t *err);

/* Removes finished jobs whose finished_ms + ttl_ms <= now_ms (unfinished
 * jobs never), returns their pages to the file system, and sets *removed
 * (may be NULL). Other calls on j wait meanwhile, which after large results
 * is a moment: call it from a housekeeping thread, not a request's. */
cuzk_status journal_expire(journal_t *j, size_t *removed, int64_t now_ms, int64_t ttl_ms,
                           cuzk_error_t *err);

/* Jobs per state, counts[engine_job_state]. */
cuzk_status journal_counts(journal_t *j, uint64_t counts[JOURNAL_STATE_COUNT], cuzk_error_t *err);

/* SQLite's full integrity check of the file. Returns CUZK_OK, or
 * CUZK_ERR_FORMAT with its first complaint. */
cuzk_status journal_check(journal_t *j, cuzk_error_t *err);

/* Unix time in ms (CLOCK_REALTIME): the clock of the journal's timestamps. */
int64_t journal_clock_ms(void);

#ifdef __cplusplus
}
#endif
#endif
