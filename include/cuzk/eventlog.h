/* The stage event log: JSON lines, one engine stage run per line, written by
 * the daemon and by `cuzk bench` through the engine's on_event hook and read
 * back by `cuzk timeline` (timeline.h).
 *
 * One line is one JSON object:
 *   {"job":7,"partition":0,"device":1,"stage":"prove","start_ns":1200,
 *    "end_ns":9800,"status":0,"kind":"bellperson","worker":2,"detail":"..."}
 * Required: job (integer >= 0), partition (integer >= -1; -1 job-wide),
 * device (integer >= -1; -1 the CPU), stage (non-empty string), start_ns and
 * end_ns (integers >= 0, ledger_clock_ns() times, end_ns >= start_ns),
 * status (integer >= 0, a cuzk_status). Optional: kind (string), worker
 * (integer >= -1; -1 or absent: unknown), detail (string). Stage names are
 * free strings: the engine's (engine_stage_str) and any a caller adds.
 * Integers are exact to 64 bits (which is why the reader is not cJSON's
 * double-based parser); strings are UTF-8 without NUL. Fields the reader
 * does not know are skipped, whatever their JSON value; a known field twice
 * is an error. Blank lines are skipped; "\r\n" line ends are accepted.
 *
 * Rules for these functions:
 *  - argument order: outputs first, then inputs, cuzk_error_t *err last;
 *  - NULL: err may be NULL; eventlog_close does nothing for NULL;
 *    eventlog_engine_hook does nothing for a NULL ctx; every other pointer
 *    is required (CUZK_ERR_ARG);
 *  - thread safety: eventlog_write, eventlog_engine_hook and
 *    eventlog_dropped may be called from any number of threads at once on
 *    one log (each line is one write(2) under the log's mutex, the file is
 *    opened O_APPEND and a line is shorter than PIPE_BUF, so lines of
 *    concurrent writers, other processes included, never interleave in a
 *    file or a pipe); eventlog_open and eventlog_close need every other
 *    call on that log to have returned; the rest are reentrant. */
#ifndef CUZK_EVENTLOG_H
#define CUZK_EVENTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EVENTLOG_NAME_MAX 32    /* stage and kind, NUL included */
#define EVENTLOG_DETAIL_MAX 256 /* detail, NUL included */
/* The longest line eventlog_format can produce, newline included: every
 * string byte escaped as \u00XX and every integer at its widest. */
#define EVENTLOG_LINE_MAX 2560

typedef struct eventlog_rec {
    uint64_t job;
    int partition; /* -1: job-wide */
    int device;    /* -1: the CPU */
    int worker;    /* -1: unknown */
    int status;    /* a cuzk_status */
    uint64_t start_ns, end_ns;
    char stage[EVENTLOG_NAME_MAX];    /* non-empty */
    char kind[EVENTLOG_NAME_MAX];     /* "": none */
    char detail[EVENTLOG_DETAIL_MAX]; /* "": none */
} eventlog_rec_t;

typedef struct eventlog eventlog_t;

/* A record with no worker or detail, copied from an engine event (stage
 * and kind names truncated to EVENTLOG_NAME_MAX - 1 bytes, at a character
 * boundary; a NULL kind, a key load's, is none; status as it is). */
void eventlog_rec_from_engine(eventlog_rec_t *out, const engine_event_t *ev);

/* Checks a record against the rules above (strings NUL-terminated inside
 * their arrays and valid UTF-8). Returns CUZK_OK or CUZK_ERR_ARG naming the
 * field. */
cuzk_status eventlog_rec_check(const eventlog_rec_t *rec, cuzk_error_t *err);

/* Writes rec as one line (newline included) into buf of cap bytes
 * (EVENTLOG_LINE_MAX is always enough), NUL-terminated; *len excludes the
 * NUL. kind and detail are written when non-empty, worker when >= 0.
 * Returns: CUZK_OK; CUZK_ERR_ARG (a record eventlog_rec_check refuses);
 * CUZK_ERR_LENGTH (cap too small). */
cuzk_status eventlog_format(char *buf, size_t cap, size_t *len, const eventlog_rec_t *rec,
                            cuzk_error_t *err);

/* Opens path for appending (created 0644 when missing).
 * Returns: CUZK_OK; CUZK_ERR_IO naming the path; CUZK_ERR_NOMEM. */
cuzk_status eventlog_open(eventlog_t **out, const char *path, cuzk_error_t *err);
/* The same on a descriptor the caller owns and keeps open until
 * eventlog_close (standard output, a pipe, a test's file). */
cuzk_status eventlog_open_fd(eventlog_t **out, int fd, cuzk_error_t *err);
/* Appends one line, written before the call returns (no user-space
 * buffering). Returns: CUZK_OK; CUZK_ERR_ARG (eventlog_rec_check);
 * CUZK_ERR_IO (the write failed; the message has the errno text). */
cuzk_status eventlog_write(eventlog_t *log, const eventlog_rec_t *rec, cuzk_error_t *err);
/* Lines eventlog_engine_hook could not write (its hook has no way to
 * report them). */
uint64_t eventlog_dropped(eventlog_t *log);
/* Closes the file (not a descriptor given to eventlog_open_fd) and frees
 * the log. */
void eventlog_close(eventlog_t *log);

/* An engine_config_t.on_event hook: event_ctx = the eventlog_t. Writes
 * eventlog_rec_from_engine(ev); a failure is counted (eventlog_dropped). */
void eventlog_engine_hook(void *ctx, const engine_event_t *ev);

/* Reads every record of a log held in memory (len bytes, no NUL needed);
 * name is what messages call it. *recs is malloc'd (free() it; NULL when
 * there are none), *n its count.
 * Returns: CUZK_OK; CUZK_ERR_PARSE "<name>:<line>: <what>" for the first
 * line that is not a valid record; CUZK_ERR_NOMEM. On failure *recs is NULL
 * and *n is 0. */
cuzk_status eventlog_read_mem(eventlog_rec_t **recs, size_t *n, const char *data, size_t len,
                              const char *name, cuzk_error_t *err);
/* The same for a file. CUZK_ERR_IO when it cannot be read. */
cuzk_status eventlog_read(eventlog_rec_t **recs, size_t *n, const char *path, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
