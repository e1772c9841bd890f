/* The durable job journal (see include/cuzk/journal.h).
 *
 * DESIGN. One SQLite connection per journal_t, opened without SQLite's own
 * mutex (SQLITE_OPEN_NOMUTEX): j->mu serialises every call instead, which a
 * multi-statement transaction needs anyway, and also covers
 * sqlite3_errmsg. Statements are prepared per call: the journal is written
 * a few times per job, far from a hot path. Schema (version 1):
 *
 *   journal_meta(key TEXT PRIMARY KEY, value INTEGER)   'schema_version'
 *   jobs(id INTEGER PRIMARY KEY AUTOINCREMENT, request_id TEXT UNIQUE, ...)
 *   inputs(job -> jobs.id ON DELETE CASCADE, idx, data BLOB, ref TEXT)
 *
 * plus PRAGMA application_id = JOURNAL_APPLICATION_ID to tell a journal
 * from any other SQLite file. AUTOINCREMENT keeps ids from being reused
 * after the highest one is deleted (sqlite_sequence remembers it).
 *
 * Durability trade-off: synchronous=FULL syncs the WAL on every commit.
 * NORMAL survives a process crash the same way but can lose the last
 * commits on power loss, and a job acknowledged to a client must not
 * vanish. Measured on an ext4 virtio disk: a FULL commit ~4 ms, a NORMAL
 * one ~0.01 ms; a job costs two FULL commits (accept, finish), small next
 * to a proof. journal_mark_running alone commits with NORMAL: losing it
 * leaves the job QUEUED, which is resumed just the same, and the next FULL
 * commit syncs its WAL frames anyway. */
#include "cuzk/hash.h"
#include "cuzk/journal.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/engine.h"
#include "cuzk/priority.h"
#include "cuzk/request.h"

_Static_assert(JOURNAL_STATE_COUNT == ENGINE_JOB_CANCELLED + 1, "journal states");

struct journal {
    pthread_mutex_t mu;
    sqlite3 *db;
    char *path;
};

/* ---- time and hashing ---- */

int64_t journal_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t hash_part(uint64_t h, uint8_t tag, const void *p, size_t n)
{
    uint8_t head[9];
    head[0] = tag;
    for (int i = 0; i < 8; i++)
        head[1 + i] = (uint8_t)((uint64_t)n >> (8 * i));
    h = cuzk_hash64(head, sizeof head, h);
    return n ? cuzk_hash64(p, n, h) : h;
}

static uint64_t spec_hash(const journal_spec_t *s)
{
    uint8_t kind[4] = {(uint8_t)s->kind, (uint8_t)(s->kind >> 8), (uint8_t)(s->kind >> 16),
                       (uint8_t)(s->kind >> 24)};
    uint64_t h = hash_part(0, 'k', kind, sizeof kind);
    h = hash_part(h, 'c', s->circuit_id, strlen(s->circuit_id));
    for (size_t i = 0; i < s->n_inputs; i++) {
        const journal_input_t *in = &s->inputs[i];
        h = in->ref ? hash_part(h, 'r', in->ref, strlen(in->ref))
                    : hash_part(h, 'b', in->data, in->len);
    }
    return h;
}

/* ---- SQLite helpers (called with j->mu held) ---- */

static cuzk_status jfail(journal_t *j, int rc, const char *what, cuzk_error_t *err)
{
    int prim = rc & 0xff;
    cuzk_status code = prim == SQLITE_NOTADB || prim == SQLITE_CORRUPT ? CUZK_ERR_FORMAT
                       : prim == SQLITE_NOMEM                          ? CUZK_ERR_NOMEM
                                                                       : CUZK_ERR_IO;
    return cuzk_error_set(err, code, "journal %s: %s: %s", j->path, what,
                          j->db ? sqlite3_errmsg(j->db) : sqlite3_errstr(rc));
}

static cuzk_status exec(journal_t *j, const char *sql, const char *what, cuzk_error_t *err)
{
    int rc = sqlite3_exec(j->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? CUZK_OK : jfail(j, rc, what, err);
}

static cuzk_status prepare(journal_t *j, sqlite3_stmt **st, const char *sql, const char *what,
                           cuzk_error_t *err)
{
    int rc = sqlite3_prepare_v2(j->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? CUZK_OK : jfail(j, rc, what, err);
}

/* Steps a statement expected to finish without a row. */
static cuzk_status step_done(journal_t *j, sqlite3_stmt *st, const char *what, cuzk_error_t *err)
{
    int rc = sqlite3_step(st);
    return rc == SQLITE_DONE ? CUZK_OK : jfail(j, rc, what, err);
}

/* A one-integer query: *found 0 when it returned no row. */
static cuzk_status query_int(journal_t *j, int64_t *out, int *found, const char *sql,
                             const char *what, cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st, sql, what, err);
    if (s != CUZK_OK)
        return s;
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else if (rc != SQLITE_DONE)
        s = jfail(j, rc, what, err);
    sqlite3_finalize(st);
    return s;
}

static void rollback(journal_t *j)
{
    /* After a failed statement SQLite may already have rolled back. */
    if (!sqlite3_get_autocommit(j->db))
        (void)sqlite3_exec(j->db, "ROLLBACK", NULL, NULL, NULL);
}

static cuzk_status commit(journal_t *j, cuzk_status s, cuzk_error_t *err)
{
    if (s == CUZK_OK)
        s = exec(j, "COMMIT", "commit", err);
    if (s != CUZK_OK)
        rollback(j);
    return s;
}

/* ---- open and close ---- */

static const char schema_sql[] =
    "CREATE TABLE journal_meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE jobs("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " request_id TEXT UNIQUE,"
    " kind INTEGER NOT NULL,"
    " priority INTEGER NOT NULL,"
    " circuit_id TEXT NOT NULL,"
    " inputs_hash INTEGER NOT NULL,"
    " n_inputs INTEGER NOT NULL,"
    " state INTEGER NOT NULL CHECK (state BETWEEN 0 AND 4),"
    " error_code INTEGER NOT NULL DEFAULT 0,"
    " error_msg TEXT NOT NULL DEFAULT '',"
    " proof BLOB,"
    " public_signals BLOB,"
    " created_ms INTEGER NOT NULL,"
    " started_ms INTEGER NOT NULL DEFAULT 0,"
    " finished_ms INTEGER NOT NULL DEFAULT 0,"
    " attempts INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE inputs("
    " job INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,"
    " idx INTEGER NOT NULL,"
    " data BLOB,"
    " ref TEXT,"
    " PRIMARY KEY (job, idx)) WITHOUT ROWID;"
    "CREATE INDEX jobs_unfinished ON jobs(id) WHERE state < 2;"
    "CREATE INDEX jobs_finished ON jobs(finished_ms) WHERE state >= 2;";

static cuzk_status create_schema(journal_t *j, cuzk_error_t *err)
{
    char sql[sizeof schema_sql + 200];
    snprintf(sql, sizeof sql,
             "%sINSERT INTO journal_meta VALUES('schema_version', %d);"
             "PRAGMA application_id = %d;",
             schema_sql, JOURNAL_SCHEMA_VERSION, JOURNAL_APPLICATION_ID);
    return exec(j, sql, "create schema", err);
}

static cuzk_status check_identity(journal_t *j, cuzk_error_t *err)
{
    int64_t app = 0, version = 0;
    int found;
    cuzk_status s = query_int(j, &app, &found, "PRAGMA application_id", "read application_id", err);
    if (s != CUZK_OK)
        return s;
    if (app != JOURNAL_APPLICATION_ID)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "journal %s: a SQLite database but not a cuzk journal "
                              "(application_id 0x%llx)",
                              j->path, (unsigned long long)app);
    s = query_int(j, &version, &found,
                  "SELECT value FROM journal_meta WHERE key = 'schema_version'",
                  "read schema version", err);
    if (s != CUZK_OK || !found)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "journal %s: no schema version recorded",
                              j->path);
    if (version > JOURNAL_SCHEMA_VERSION)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "journal %s: schema version %lld is newer than this cuzk's (%d)",
                              j->path, (long long)version, JOURNAL_SCHEMA_VERSION);
    if (version < 1)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "journal %s: bad schema version %lld", j->path,
                              (long long)version);
    return CUZK_OK;
}

static cuzk_status setup(journal_t *j, cuzk_error_t *err)
{
    int64_t objects = 0;
    int found;
    cuzk_status s = query_int(j, &objects, &found, "SELECT count(*) FROM sqlite_master",
                              "read the schema", err);
    if (s != CUZK_OK) {
        if (s == CUZK_ERR_FORMAT)
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "journal %s: not a SQLite database",
                                  j->path);
        return s;
    }
    if (objects == 0) {
        /* Must precede the first table; lets journal_expire shrink the file. */
        if ((s = exec(j, "PRAGMA auto_vacuum = INCREMENTAL", "set auto_vacuum", err)) != CUZK_OK)
            return s;
    } else if ((s = check_identity(j, err)) != CUZK_OK) {
        return s;
    }
    sqlite3_stmt *st;
    if ((s = prepare(j, &st, "PRAGMA journal_mode = WAL", "set WAL mode", err)) != CUZK_OK)
        return s;
    int rc = sqlite3_step(st);
    const char *mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    if (rc != SQLITE_ROW)
        s = jfail(j, rc, "set WAL mode", err);
    else if (!mode || strcmp(mode, "wal") != 0)
        s = cuzk_error_set(err, CUZK_ERR_IO, "journal %s: WAL mode refused (journal_mode %s)",
                           j->path, mode ? mode : "?");
    sqlite3_finalize(st);
    if (s != CUZK_OK)
        return s;
    /* journal_size_limit: a checkpointed WAL is cut back to 64 MiB rather
     * than left at the size of the largest burst of blobs. */
    s = exec(j,
             "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
             "PRAGMA journal_size_limit = 67108864;",
             "set pragmas", err);
    if (s != CUZK_OK || objects != 0)
        return s;
    /* A new file: create the schema, unless another opener just did. */
    if ((s = exec(j, "BEGIN IMMEDIATE", "begin", err)) != CUZK_OK)
        return s;
    s = query_int(j, &objects, &found, "SELECT count(*) FROM sqlite_master", "read the schema",
                  err);
    if (s == CUZK_OK && objects == 0)
        s = create_schema(j, err);
    s = commit(j, s, err);
    return s == CUZK_OK ? check_identity(j, err) : s;
}

void journal_close(journal_t *j)
{
    if (!j)
        return;
    if (j->db)
        sqlite3_close_v2(j->db);
    pthread_mutex_destroy(&j->mu);
    free(j->path);
    free(j);
}

cuzk_status journal_open(journal_t **out, const char *path, cuzk_error_t *err)
{
    if (!out || !path || !path[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_open: no path");
    *out = NULL;
    if (!sqlite3_threadsafe())
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "journal: SQLite was built without thread support");
    journal_t *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "journal: out of memory");
    }
    pthread_mutex_init(&j->mu, NULL);
    int rc = sqlite3_open_v2(
        path, &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    cuzk_status s = CUZK_OK;
    if (rc != SQLITE_OK) {
        s = jfail(j, rc, "open", err);
    } else {
        sqlite3_extended_result_codes(j->db, 1);
        sqlite3_busy_timeout(j->db, JOURNAL_BUSY_TIMEOUT_MS);
        s = setup(j, err);
    }
    if (s != CUZK_OK) {
        journal_close(j);
        return s;
    }
    *out = j;
    return CUZK_OK;
}

/* ---- accept ---- */

static cuzk_status check_spec(const journal_t *j, const journal_spec_t *s, cuzk_error_t *err)
{
    if (s->kind < 0 || s->kind >= ENGINE_KIND_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_accept: bad kind %d", s->kind);
    if (s->priority < 0 || s->priority >= CUZK_PRIO_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_accept: bad priority %d", s->priority);
    cuzk_error_t why;
    if (request_circuit_id_check(s->circuit_id, &why) != CUZK_OK ||
        request_id_check(s->request_id, &why) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_accept: %s", why.msg);
    if (!s->inputs || s->n_inputs == 0 || s->n_inputs > JOURNAL_INPUTS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_accept: %zu inputs (1..%d)", s->n_inputs,
                              JOURNAL_INPUTS_MAX);
    /* SQLite's limit on one blob or string (SQLITE_MAX_LENGTH, 1e9 by default). */
    size_t limit = (size_t)sqlite3_limit(j->db, SQLITE_LIMIT_LENGTH, -1);
    for (size_t i = 0; i < s->n_inputs; i++) {
        const journal_input_t *in = &s->inputs[i];
        if (in->ref && (in->data || in->len || !in->ref[0]))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "journal_accept: input %zu: an empty reference, or both a "
                                  "reference and data",
                                  i);
        if (!in->ref && !in->data && in->len)
            return cuzk_error_set(err, CUZK_ERR_ARG, "journal_accept: input %zu: no data", i);
        size_t len = in->ref ? strlen(in->ref) : in->len;
        if (len >= limit)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "journal_accept: input %zu is %zu bytes, over SQLite's limit "
                                  "(%zu): pass it by reference",
                                  i, len, limit);
    }
    return CUZK_OK;
}

/* Inside the transaction: the job request_id names, if any. */
static cuzk_status find_existing(journal_t *j, uint64_t *id, const journal_spec_t *s, uint64_t hash,
                                 cuzk_error_t *err)
{
    sqlite3_stmt *st;
    *id = 0;
    cuzk_status r = prepare(j, &st,
                            "SELECT id, kind, circuit_id, inputs_hash FROM jobs "
                            "WHERE request_id = ?1",
                            "look up the request id", err);
    if (r != CUZK_OK)
        return r;
    sqlite3_bind_text(st, 1, s->request_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        uint64_t found = (uint64_t)sqlite3_column_int64(st, 0);
        const char *circuit = (const char *)sqlite3_column_text(st, 2);
        int same = sqlite3_column_int(st, 1) == s->kind && circuit &&
                   strcmp(circuit, s->circuit_id) == 0 &&
                   (uint64_t)sqlite3_column_int64(st, 3) == hash;
        if (same)
            *id = found;
        else
            r = cuzk_error_set(err, CUZK_ERR_ARG,
                               "request id '%s' was given to job %llu with another kind, circuit "
                               "or inputs",
                               s->request_id, (unsigned long long)found);
    } else if (rc != SQLITE_DONE) {
        r = jfail(j, rc, "look up the request id", err);
    }
    sqlite3_finalize(st);
    return r;
}

static cuzk_status insert_job(journal_t *j, uint64_t *id, const journal_spec_t *s, uint64_t hash,
                              cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status r = prepare(j, &st,
                            "INSERT INTO jobs(request_id, kind, priority, circuit_id, "
                            "inputs_hash, n_inputs, state, created_ms) "
                            "VALUES(?1, ?2, ?3, ?4, ?5, ?6, 0, ?7)",
                            "insert the job", err);
    if (r != CUZK_OK)
        return r;
    if (s->request_id && s->request_id[0])
        sqlite3_bind_text(st, 1, s->request_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, s->kind);
    sqlite3_bind_int(st, 3, s->priority);
    sqlite3_bind_text(st, 4, s->circuit_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)hash);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)s->n_inputs);
    sqlite3_bind_int64(st, 7, journal_clock_ms());
    r = step_done(j, st, "insert the job", err);
    sqlite3_finalize(st);
    if (r != CUZK_OK)
        return r;
    *id = (uint64_t)sqlite3_last_insert_rowid(j->db);
    if ((r = prepare(j, &st, "INSERT INTO inputs(job, idx, data, ref) VALUES(?1, ?2, ?3, ?4)",
                     "insert an input", err)) != CUZK_OK)
        return r;
    for (size_t i = 0; i < s->n_inputs && r == CUZK_OK; i++) {
        const journal_input_t *in = &s->inputs[i];
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)*id);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
        if (in->ref)
            sqlite3_bind_text(st, 4, in->ref, -1, SQLITE_STATIC);
        else /* never NULL: an empty blob is still a blob, not a reference */
            sqlite3_bind_blob64(st, 3, in->data ? (const void *)in->data : "", in->len,
                                SQLITE_STATIC);
        r = step_done(j, st, "insert an input", err);
    }
    sqlite3_finalize(st);
    return r;
}

cuzk_status journal_accept(journal_t *j, uint64_t *id, int *existing, const journal_spec_t *spec,
                           cuzk_error_t *err)
{
    if (!j || !id || !existing || !spec)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_accept: NULL argument");
    *id = 0;
    *existing = 0;
    pthread_mutex_lock(&j->mu);
    cuzk_status s = check_spec(j, spec, err);
    uint64_t hash = s == CUZK_OK ? spec_hash(spec) : 0;
    if (s == CUZK_OK)
        s = exec(j, "BEGIN IMMEDIATE", "begin", err);
    if (s == CUZK_OK) {
        uint64_t found = 0;
        if (spec->request_id && spec->request_id[0])
            s = find_existing(j, &found, spec, hash, err);
        if (s == CUZK_OK && found) {
            *id = found;
            *existing = 1;
        } else if (s == CUZK_OK) {
            s = insert_job(j, id, spec, hash, err);
        }
        s = commit(j, s, err);
        if (s != CUZK_OK) {
            *id = 0;
            *existing = 0;
        }
    }
    pthread_mutex_unlock(&j->mu);
    return s;
}

/* ---- state changes ---- */

/* Why an update of job id found nothing to change (inside the lock). */
static cuzk_status not_changeable(journal_t *j, uint64_t id, cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st, "SELECT state FROM jobs WHERE id = ?1", "read the job", err);
    if (s != CUZK_OK)
        return s;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        s = cuzk_error_set(err, CUZK_ERR_ARG, "journal: job %llu is already %s",
                           (unsigned long long)id, engine_job_state_str(sqlite3_column_int(st, 0)));
    else if (rc == SQLITE_DONE)
        s = cuzk_error_set(err, CUZK_ERR_ARG, "journal: no job %llu", (unsigned long long)id);
    else
        s = jfail(j, rc, "read the job", err);
    sqlite3_finalize(st);
    return s;
}

cuzk_status journal_mark_running(journal_t *j, uint64_t id, cuzk_error_t *err)
{
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_mark_running: NULL journal");
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    cuzk_status s = exec(j, "PRAGMA synchronous = NORMAL", "set synchronous", err);
    if (s == CUZK_OK)
        s = prepare(j, &st,
                    "UPDATE jobs SET state = 1, attempts = attempts + 1, "
                    "started_ms = CASE WHEN started_ms = 0 THEN ?2 ELSE started_ms END "
                    "WHERE id = ?1 AND state < 2",
                    "mark the job running", err);
    if (s == CUZK_OK) {
        sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
        sqlite3_bind_int64(st, 2, journal_clock_ms());
        s = step_done(j, st, "mark the job running", err);
        sqlite3_finalize(st);
        if (s == CUZK_OK && sqlite3_changes(j->db) == 0)
            s = not_changeable(j, id, err);
    }
    cuzk_status back =
        exec(j, "PRAGMA synchronous = FULL", "set synchronous", s == CUZK_OK ? err : NULL);
    if (s == CUZK_OK)
        s = back;
    pthread_mutex_unlock(&j->mu);
    return s;
}

static cuzk_status finish_update(journal_t *j, uint64_t id, int state, const cuzk_error_t *e,
                                 const uint8_t *proof, size_t proof_len, const uint8_t *pub,
                                 size_t pub_len, cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st,
                            "UPDATE jobs SET state = ?2, error_code = ?3, error_msg = ?4, "
                            "proof = ?5, public_signals = ?6, finished_ms = ?7 "
                            "WHERE id = ?1 AND state < 2",
                            "finish the job", err);
    if (s != CUZK_OK)
        return s;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
    sqlite3_bind_int(st, 2, state);
    sqlite3_bind_int(st, 3, (int)e->code);
    sqlite3_bind_text(st, 4, e->msg, (int)strnlen(e->msg, sizeof e->msg), SQLITE_STATIC);
    if (proof)
        sqlite3_bind_blob64(st, 5, proof, proof_len, SQLITE_STATIC);
    if (pub)
        sqlite3_bind_blob64(st, 6, pub, pub_len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, journal_clock_ms());
    s = step_done(j, st, "finish the job", err);
    sqlite3_finalize(st);
    if (s == CUZK_OK && sqlite3_changes(j->db) == 0)
        return not_changeable(j, id, err);
    if (s != CUZK_OK)
        return s;
    if ((s = prepare(j, &st, "DELETE FROM inputs WHERE job = ?1", "drop the inputs", err)) !=
        CUZK_OK)
        return s;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
    s = step_done(j, st, "drop the inputs", err);
    sqlite3_finalize(st);
    return s;
}

cuzk_status journal_finish(journal_t *j, uint64_t id, int state, const cuzk_error_t *error,
                           const uint8_t *proof, size_t proof_len, const uint8_t *public_signals,
                           size_t public_len, cuzk_error_t *err)
{
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_finish: NULL journal");
    if ((!proof && proof_len) || (!public_signals && public_len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_finish: a length without its data");
    cuzk_error_t e = {CUZK_OK, ""};
    switch (state) {
    case ENGINE_JOB_DONE:
        if (error && error->code != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_ARG, "journal_finish: a done job with an error");
        break;
    case ENGINE_JOB_FAILED:
        if (!error || error->code == CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_ARG, "journal_finish: a failed job needs an error");
        e = *error;
        break;
    case ENGINE_JOB_CANCELLED:
        e = error && error->code != CUZK_OK ? *error
                                            : (cuzk_error_t){CUZK_ERR_CANCELLED, "cancelled"};
        break;
    default:
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_finish: %d is not a final state", state);
    }
    pthread_mutex_lock(&j->mu);
    cuzk_status s = exec(j, "BEGIN IMMEDIATE", "begin", err);
    if (s == CUZK_OK) {
        s = finish_update(j, id, state, &e, proof, proof_len, public_signals, public_len, err);
        s = commit(j, s, err);
    }
    pthread_mutex_unlock(&j->mu);
    return s;
}

/* ---- reading ---- */

void journal_job_free(journal_job_t *job)
{
    if (!job)
        return;
    for (size_t i = 0; job->inputs && i < job->n_inputs; i++) {
        free(job->inputs[i].data);
        free(job->inputs[i].ref);
    }
    free(job->inputs);
    free(job->request_id);
    free(job->circuit_id);
    free(job->proof);
    free(job->public_signals);
    memset(job, 0, sizeof *job);
}

/* A copy of column c's bytes (NULL for none or empty); -1 when out of memory. */
static int col_blob(uint8_t **out, size_t *len, sqlite3_stmt *st, int c)
{
    const void *p = sqlite3_column_blob(st, c);
    size_t n = (size_t)sqlite3_column_bytes(st, c);
    *out = NULL;
    *len = 0;
    if (!p || n == 0)
        return 0;
    if (!(*out = malloc(n)))
        return -1;
    memcpy(*out, p, n);
    *len = n;
    return 0;
}

static int col_text(char **out, sqlite3_stmt *st, int c)
{
    const unsigned char *p = sqlite3_column_text(st, c);
    *out = NULL;
    if (!p)
        return sqlite3_errcode(sqlite3_db_handle(st)) == SQLITE_NOMEM ? -1 : 0;
    return (*out = strdup((const char *)p)) ? 0 : -1;
}

static cuzk_status damaged(journal_t *j, uint64_t id, const char *what, cuzk_error_t *err)
{
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "journal %s: job %llu: %s", j->path,
                          (unsigned long long)id, what);
}

static cuzk_status read_inputs(journal_t *j, journal_job_t *out, cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st, "SELECT idx, data, ref FROM inputs WHERE job = ?1 ORDER BY idx",
                            "read the inputs", err);
    if (s != CUZK_OK)
        return s;
    out->inputs = calloc(out->n_inputs, sizeof *out->inputs);
    if (!out->inputs) {
        sqlite3_finalize(st);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "journal: out of memory");
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)out->id);
    size_t k = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (k == out->n_inputs || sqlite3_column_int64(st, 0) != (sqlite3_int64)k) {
            s = damaged(j, out->id, "inputs out of order", err);
            break;
        }
        journal_blob_t *b = &out->inputs[k++];
        int bad = sqlite3_column_type(st, 2) != SQLITE_NULL ? col_text(&b->ref, st, 2)
                                                            : col_blob(&b->data, &b->len, st, 1);
        if (bad) {
            s = cuzk_error_set(err, CUZK_ERR_NOMEM, "journal: out of memory");
            break;
        }
    }
    if (s == CUZK_OK && rc != SQLITE_DONE)
        s = jfail(j, rc, "read the inputs", err);
    if (s == CUZK_OK && k != out->n_inputs)
        s = damaged(j, out->id, "inputs missing", err);
    sqlite3_finalize(st);
    return s;
}

static cuzk_status read_job(journal_t *j, journal_job_t *out, uint64_t id, unsigned what,
                            cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st,
                            "SELECT request_id, kind, priority, circuit_id, inputs_hash, n_inputs,"
                            " state, error_code, error_msg, created_ms, started_ms, finished_ms,"
                            " attempts, CASE WHEN ?2 THEN proof END,"
                            " CASE WHEN ?2 THEN public_signals END FROM jobs WHERE id = ?1",
                            "read the job", err);
    if (s != CUZK_OK)
        return s;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
    sqlite3_bind_int(st, 2, (what & JOURNAL_GET_RESULT) != 0);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        s = cuzk_error_set(err, CUZK_ERR_ARG, "journal: no job %llu", (unsigned long long)id);
    } else if (rc != SQLITE_ROW) {
        s = jfail(j, rc, "read the job", err);
    } else {
        out->id = id;
        out->kind = sqlite3_column_int(st, 1);
        out->priority = sqlite3_column_int(st, 2);
        out->inputs_hash = (uint64_t)sqlite3_column_int64(st, 4);
        int64_t n_inputs = sqlite3_column_int64(st, 5);
        out->state = sqlite3_column_int(st, 6);
        int64_t code = sqlite3_column_int64(st, 7);
        out->created_ms = sqlite3_column_int64(st, 9);
        out->started_ms = sqlite3_column_int64(st, 10);
        out->finished_ms = sqlite3_column_int64(st, 11);
        out->attempts = (unsigned)sqlite3_column_int64(st, 12);
        const unsigned char *msg = sqlite3_column_text(st, 8);
        if (out->kind < 0 || out->kind >= ENGINE_KIND_COUNT || out->priority < 0 ||
            out->priority >= CUZK_PRIO_COUNT || out->state < 0 ||
            out->state >= JOURNAL_STATE_COUNT || n_inputs < 1 || n_inputs > JOURNAL_INPUTS_MAX ||
            code < 0 || code > CUZK_ERR_LAST) {
            s = damaged(j, id, "a field out of range", err);
        } else {
            out->n_inputs = (size_t)n_inputs;
            out->error.code = (cuzk_status)code;
            snprintf(out->error.msg, sizeof out->error.msg, "%s", msg ? (const char *)msg : "");
            if (col_text(&out->request_id, st, 0) || col_text(&out->circuit_id, st, 3) ||
                col_blob(&out->proof, &out->proof_len, st, 13) ||
                col_blob(&out->public_signals, &out->public_len, st, 14))
                s = cuzk_error_set(err, CUZK_ERR_NOMEM, "journal: out of memory");
            else if (!out->circuit_id)
                s = damaged(j, id, "no circuit id", err);
        }
    }
    sqlite3_finalize(st);
    if (s == CUZK_OK && (what & JOURNAL_GET_INPUTS) && out->state < ENGINE_JOB_DONE)
        s = read_inputs(j, out, err);
    return s;
}

cuzk_status journal_get(journal_t *j, journal_job_t *out, uint64_t id, unsigned what,
                        cuzk_error_t *err)
{
    if (!j || !out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_get: NULL argument");
    memset(out, 0, sizeof *out);
    if (what & ~JOURNAL_GET_ALL)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_get: unknown bits in 0x%x", what);
    pthread_mutex_lock(&j->mu);
    /* One read transaction: the job and its inputs from the same snapshot. */
    cuzk_status s = exec(j, "BEGIN", "begin", err);
    if (s == CUZK_OK) {
        s = read_job(j, out, id, what, err);
        rollback(j);
    }
    pthread_mutex_unlock(&j->mu);
    if (s != CUZK_OK)
        journal_job_free(out);
    return s;
}

cuzk_status journal_find_request(journal_t *j, uint64_t *id, const char *request_id,
                                 cuzk_error_t *err)
{
    if (!j || !id || !request_id)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_find_request: NULL argument");
    *id = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st;
    cuzk_status s =
        prepare(j, &st, "SELECT id FROM jobs WHERE request_id = ?1", "look up the request id", err);
    if (s == CUZK_OK) {
        sqlite3_bind_text(st, 1, request_id, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *id = (uint64_t)sqlite3_column_int64(st, 0);
        else if (rc != SQLITE_DONE)
            s = jfail(j, rc, "look up the request id", err);
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&j->mu);
    return s;
}

cuzk_status journal_unfinished(journal_t *j, uint64_t **ids, size_t *n, cuzk_error_t *err)
{
    if (!j || !ids || !n)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_unfinished: NULL argument");
    *ids = NULL;
    *n = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    cuzk_status s = prepare(j, &st, "SELECT id FROM jobs WHERE state < 2 ORDER BY id",
                            "list unfinished jobs", err);
    size_t cap = 0;
    int rc = SQLITE_DONE;
    while (s == CUZK_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            uint64_t *g = realloc(*ids, cap * sizeof *g);
            if (!g) {
                s = cuzk_error_set(err, CUZK_ERR_NOMEM, "journal: out of memory");
                break;
            }
            *ids = g;
        }
        (*ids)[(*n)++] = (uint64_t)sqlite3_column_int64(st, 0);
    }
    if (s == CUZK_OK && rc != SQLITE_DONE)
        s = jfail(j, rc, "list unfinished jobs", err);
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    if (s != CUZK_OK) {
        free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return s;
}

cuzk_status journal_expire(journal_t *j, size_t *removed, int64_t now_ms, int64_t ttl_ms,
                           cuzk_error_t *err)
{
    if (!j || ttl_ms < 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_expire: NULL journal or negative TTL");
    if (removed)
        *removed = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st, "DELETE FROM jobs WHERE state >= 2 AND finished_ms <= ?1",
                            "expire jobs", err);
    if (s == CUZK_OK) {
        int64_t cut;
        if (__builtin_sub_overflow(now_ms, ttl_ms, &cut))
            cut = INT64_MIN; /* a TTL reaching before the clock's start: nothing expires */
        sqlite3_bind_int64(st, 1, cut);
        s = step_done(j, st, "expire jobs", err);
        sqlite3_finalize(st);
        if (s == CUZK_OK && removed)
            *removed = (size_t)sqlite3_changes(j->db);
    }
    if (s == CUZK_OK)
        s = exec(j, "PRAGMA incremental_vacuum", "free pages", err);
    pthread_mutex_unlock(&j->mu);
    return s;
}

cuzk_status journal_counts(journal_t *j, uint64_t counts[JOURNAL_STATE_COUNT], cuzk_error_t *err)
{
    if (!j || !counts)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_counts: NULL argument");
    memset(counts, 0, JOURNAL_STATE_COUNT * sizeof counts[0]);
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st;
    cuzk_status s =
        prepare(j, &st, "SELECT state, count(*) FROM jobs GROUP BY state", "count jobs", err);
    if (s == CUZK_OK) {
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            int state = sqlite3_column_int(st, 0);
            if (state >= 0 && state < JOURNAL_STATE_COUNT)
                counts[state] = (uint64_t)sqlite3_column_int64(st, 1);
        }
        if (rc != SQLITE_DONE)
            s = jfail(j, rc, "count jobs", err);
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&j->mu);
    return s;
}

/* The first row of a check query that returns complaints ("ok" or nothing
 * when there are none). */
static cuzk_status check_query(journal_t *j, const char *sql, const char *what, cuzk_error_t *err)
{
    sqlite3_stmt *st;
    cuzk_status s = prepare(j, &st, sql, what, err);
    if (s != CUZK_OK)
        return s;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (!t || strcmp(t, "ok") != 0)
            s = cuzk_error_set(err, CUZK_ERR_FORMAT, "journal %s: %s: %s", j->path, what,
                               t ? t : "?");
    } else if (rc != SQLITE_DONE) {
        s = jfail(j, rc, what, err);
    }
    sqlite3_finalize(st);
    return s;
}

cuzk_status journal_check(journal_t *j, cuzk_error_t *err)
{
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_ARG, "journal_check: NULL journal");
    pthread_mutex_lock(&j->mu);
    cuzk_status s = check_query(j, "PRAGMA integrity_check", "integrity check", err);
    if (s == CUZK_OK)
        s = check_query(j,
                        "SELECT 'a row of ' || \"table\" || ' names a missing ' || parent "
                        "FROM pragma_foreign_key_check",
                        "foreign key check", err);
    if (s == CUZK_OK)
        s = check_query(j,
                        "SELECT 'job ' || id || ' has ' || (SELECT count(*) FROM inputs "
                        "WHERE job = jobs.id) || ' of ' || n_inputs || ' inputs' FROM jobs "
                        "WHERE state < 2 AND n_inputs != (SELECT count(*) FROM inputs "
                        "WHERE job = jobs.id) LIMIT 1",
                        "input check", err);
    pthread_mutex_unlock(&j->mu);
    return s;
}
