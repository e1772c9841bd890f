/* Job journal tests (include/cuzk/journal.h).
 *
 * XXH64 known answers; round trips of every field through each state
 * change; argument and state errors; request-id idempotency and conflicts;
 * ids never reused across expiry and reopening; unfinished jobs (with their
 * inputs) listed after a reopen; TTL expiry that never touches unfinished
 * jobs and gives the pages back; files that are not journals, or of a newer
 * schema version, refused; a crash test (a child process journals jobs and
 * reports each through a pipe once its call returned, and is killed with
 * SIGKILL at a random point; every reported job must be there, intact, and
 * the file must pass the integrity check; repeated on the same file); four
 * threads on two handles at once, racing on shared request ids.
 * Everything lives in a mkdtemp folder under /tmp, removed at the end.
 * Rerun with CUZK_TEST_SEED=<seed>; CUZK_TEST_ITERS scales the thread test. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw's FTW_DEPTH, FTW_PHYS */
#endif
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/journal.h"
#include "cuzk/request.h"

static char tmpdir[64];

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", tmpdir, name);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static int group_setup(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/cuzk_journal_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    return nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static journal_t *open_ok(const char *path)
{
    journal_t *j = NULL;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = journal_open(&j, path, &err);
    if (st != CUZK_OK)
        fail_msg("journal_open(%s): %s", path, err.msg);
    return j;
}

/* ---- deterministic job content from a number k ---- */

typedef struct spec_buf {
    journal_spec_t spec;
    journal_input_t in[4];
    uint8_t *data[4];
    char req[64], circ[64], ref[4][64];
} spec_buf_t;

static uint8_t byte_of(uint64_t k, size_t i, size_t b)
{
    uint64_t x = k * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull + b;
    x ^= x >> 29;
    return (uint8_t)(x * 0x94d049bb133111ebull >> 56);
}

static size_t blob_len(uint64_t k, size_t i)
{
    if (k % 10 == 7 && i == 0)
        return 300000; /* a large one now and then, for the crash to land in */
    return (size_t)((k * 37 + i * 101) % 3000); /* sometimes 0 */
}

/* Fills b with spec k: kind, priority, circuit, 1-3 inputs (blobs, and a
 * reference every fourth), and request id "req-<k>" when with_request. */
static void make_spec(spec_buf_t *b, uint64_t k, int with_request)
{
    memset(b, 0, sizeof *b);
    snprintf(b->req, sizeof b->req, "req-%llu", (unsigned long long)k);
    snprintf(b->circ, sizeof b->circ, "circ-%llu", (unsigned long long)(k % 5));
    size_t n = 1 + (size_t)(k % 3);
    for (size_t i = 0; i < n; i++) {
        if ((k + i) % 4 == 3) {
            snprintf(b->ref[i], sizeof b->ref[i], "/w/%llu-%zu.wtns", (unsigned long long)k, i);
            b->in[i].ref = b->ref[i];
            continue;
        }
        size_t len = blob_len(k, i);
        b->data[i] = len ? malloc(len) : NULL;
        for (size_t x = 0; x < len; x++)
            b->data[i][x] = byte_of(k, i, x);
        b->in[i].data = b->data[i];
        b->in[i].len = len;
    }
    b->spec.request_id = with_request ? b->req : NULL;
    b->spec.kind = (int)(k % ENGINE_KIND_COUNT);
    b->spec.priority = (int)(k % CUZK_PRIO_COUNT);
    b->spec.circuit_id = b->circ;
    b->spec.inputs = b->in;
    b->spec.n_inputs = n;
}

static void free_spec(spec_buf_t *b)
{
    for (int i = 0; i < 4; i++)
        free(b->data[i]);
}

/* 0 when job holds spec b's fields (and inputs, when with_inputs); else a
 * description of the first difference in why. */
static int job_differs(char *why, size_t wn, const journal_job_t *job, const spec_buf_t *b,
                       int with_inputs)
{
    const journal_spec_t *s = &b->spec;
    if (job->kind != s->kind || job->priority != s->priority)
        return snprintf(why, wn, "kind/priority %d/%d, want %d/%d", job->kind, job->priority,
                        s->kind, s->priority);
    if (!job->circuit_id || strcmp(job->circuit_id, s->circuit_id) != 0)
        return snprintf(why, wn, "circuit %s", job->circuit_id ? job->circuit_id : "(null)");
    if ((s->request_id != NULL) != (job->request_id != NULL) ||
        (s->request_id && strcmp(s->request_id, job->request_id) != 0))
        return snprintf(why, wn, "request id %s", job->request_id ? job->request_id : "(null)");
    if (job->n_inputs != s->n_inputs)
        return snprintf(why, wn, "%zu inputs, want %zu", job->n_inputs, s->n_inputs);
    if (!with_inputs)
        return 0;
    if (!job->inputs)
        return snprintf(why, wn, "no inputs");
    for (size_t i = 0; i < s->n_inputs; i++) {
        const journal_blob_t *g = &job->inputs[i];
        const journal_input_t *w = &s->inputs[i];
        if (w->ref) {
            if (!g->ref || strcmp(g->ref, w->ref) != 0 || g->data)
                return snprintf(why, wn, "input %zu: ref %s", i, g->ref ? g->ref : "(null)");
        } else if (g->ref || g->len != w->len || (w->len && memcmp(g->data, w->data, w->len))) {
            return snprintf(why, wn, "input %zu: %zu bytes differ (want %zu)", i, g->len, w->len);
        }
    }
    return 0;
}

static void assert_job_is(const journal_job_t *job, const spec_buf_t *b, int with_inputs)
{
    char why[256];
    if (job_differs(why, sizeof why, job, b, with_inputs))
        fail_msg("job %llu: %s", (unsigned long long)job->id, why);
}

static uint64_t accept_ok(journal_t *j, const spec_buf_t *b, int want_existing)
{
    uint64_t id = 0;
    int existing = -1;
    cuzk_error_t err = {CUZK_OK, ""};
    if (journal_accept(j, &id, &existing, &b->spec, &err) != CUZK_OK)
        fail_msg("journal_accept: %s", err.msg);
    assert_int_equal(existing, want_existing);
    assert_true(id != 0);
    return id;
}

static void expect_err(cuzk_status st, const cuzk_error_t *err, cuzk_status want, const char *part)
{
    if (st != want || err->code != want || !strstr(err->msg, part))
        fail_msg("got %s \"%s\", want %s containing \"%s\"", cuzk_status_str(st), err->msg,
                 cuzk_status_str(want), part);
}

static uint64_t count_all(journal_t *j, uint64_t c[JOURNAL_STATE_COUNT])
{
    assert_int_equal(journal_counts(j, c, NULL), CUZK_OK);
    uint64_t t = 0;
    for (int i = 0; i < JOURNAL_STATE_COUNT; i++)
        t += c[i];
    return t;
}

/* ---- tests ---- */

static void test_round_trip(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "round.db");
    journal_t *j = open_ok(path);
    cuzk_error_t err = {CUZK_OK, ""};
    spec_buf_t b;
    make_spec(&b, 11, 1); /* 3 inputs: a reference, two blobs */
    int64_t t0 = journal_clock_ms();
    uint64_t id = accept_ok(j, &b, 0);
    int64_t t1 = journal_clock_ms();
    assert_int_equal(id, 1);

    journal_job_t job;
    assert_int_equal(journal_get(j, &job, id, JOURNAL_GET_ALL, &err), CUZK_OK);
    assert_job_is(&job, &b, 1);
    assert_int_equal(job.id, id);
    assert_int_equal(job.state, ENGINE_JOB_QUEUED);
    assert_int_equal(job.error.code, CUZK_OK);
    assert_true(job.created_ms >= t0 && job.created_ms <= t1);
    assert_int_equal(job.started_ms, 0);
    assert_int_equal(job.finished_ms, 0);
    assert_int_equal(job.attempts, 0);
    assert_null(job.proof);
    uint64_t hash = job.inputs_hash;
    journal_job_free(&job);

    assert_int_equal(journal_mark_running(j, id, &err), CUZK_OK);
    assert_int_equal(journal_get(j, &job, id, JOURNAL_GET_INPUTS, &err), CUZK_OK);
    assert_int_equal(job.state, ENGINE_JOB_RUNNING);
    assert_int_equal(job.attempts, 1);
    int64_t started = job.started_ms;
    assert_true(started >= t0);
    assert_job_is(&job, &b, 1);
    journal_job_free(&job);
    assert_int_equal(journal_mark_running(j, id, &err), CUZK_OK);

    uint8_t proof[192], pub[64];
    for (size_t i = 0; i < sizeof proof; i++)
        proof[i] = (uint8_t)tu_rand64();
    for (size_t i = 0; i < sizeof pub; i++)
        pub[i] = (uint8_t)tu_rand64();
    assert_int_equal(
        journal_finish(j, id, ENGINE_JOB_DONE, NULL, proof, sizeof proof, pub, sizeof pub, &err),
        CUZK_OK);
    assert_int_equal(journal_get(j, &job, id, JOURNAL_GET_ALL, &err), CUZK_OK);
    assert_int_equal(job.state, ENGINE_JOB_DONE);
    assert_int_equal(job.attempts, 2);
    assert_int_equal(job.started_ms, started);
    assert_true(job.finished_ms >= started);
    assert_int_equal(job.proof_len, sizeof proof);
    assert_memory_equal(job.proof, proof, sizeof proof);
    assert_int_equal(job.public_len, sizeof pub);
    assert_memory_equal(job.public_signals, pub, sizeof pub);
    assert_null(job.inputs); /* dropped at finish */
    assert_int_equal(job.n_inputs, 3);
    assert_int_equal(job.inputs_hash, hash);
    assert_job_is(&job, &b, 0);
    journal_job_free(&job);
    /* Without JOURNAL_GET_RESULT the blobs stay in the file. */
    assert_int_equal(journal_get(j, &job, id, 0, &err), CUZK_OK);
    assert_null(job.proof);
    assert_null(job.public_signals);
    assert_int_equal(job.state, ENGINE_JOB_DONE);
    journal_job_free(&job);

    /* Failed, with its error; cancelled without one; an empty blob input. */
    spec_buf_t b2, b3;
    make_spec(&b2, 20, 0);
    make_spec(&b3, 21, 0);
    uint64_t id2 = accept_ok(j, &b2, 0), id3 = accept_ok(j, &b3, 0);
    assert_int_equal(id2, 2);
    assert_int_equal(id3, 3);
    cuzk_error_t jerr = {CUZK_ERR_NOT_ON_CURVE, "partition 2: proof point not on the curve"};
    assert_int_equal(journal_finish(j, id2, ENGINE_JOB_FAILED, &jerr, NULL, 0, NULL, 0, &err),
                     CUZK_OK);
    assert_int_equal(journal_finish(j, id3, ENGINE_JOB_CANCELLED, NULL, NULL, 0, NULL, 0, &err),
                     CUZK_OK);
    assert_int_equal(journal_get(j, &job, id2, JOURNAL_GET_ALL, &err), CUZK_OK);
    assert_int_equal(job.state, ENGINE_JOB_FAILED);
    assert_int_equal(job.error.code, CUZK_ERR_NOT_ON_CURVE);
    assert_string_equal(job.error.msg, jerr.msg);
    assert_null(job.request_id);
    assert_int_equal(job.started_ms, 0);
    assert_null(job.proof);
    journal_job_free(&job);
    assert_int_equal(journal_get(j, &job, id3, JOURNAL_GET_ALL, &err), CUZK_OK);
    assert_int_equal(job.state, ENGINE_JOB_CANCELLED);
    assert_int_equal(job.error.code, CUZK_ERR_CANCELLED);
    assert_string_equal(job.error.msg, "cancelled");
    journal_job_free(&job);

    journal_input_t empty = {NULL, 0, NULL};
    journal_spec_t es = {NULL, ENGINE_KIND_SNARKJS, CUZK_PRIO_LOW, "c", &empty, 1};
    uint64_t id4 = 0;
    int ex;
    assert_int_equal(journal_accept(j, &id4, &ex, &es, &err), CUZK_OK);
    assert_int_equal(journal_get(j, &job, id4, JOURNAL_GET_ALL, &err), CUZK_OK);
    assert_int_equal(job.n_inputs, 1);
    assert_null(job.inputs[0].data);
    assert_null(job.inputs[0].ref);
    assert_int_equal(job.inputs[0].len, 0);
    journal_job_free(&job);

    /* A 4 MiB blob. */
    size_t big_len = 4u << 20;
    uint8_t *big = malloc(big_len);
    for (size_t i = 0; i < big_len; i++)
        big[i] = byte_of(99, 0, i);
    journal_input_t bi = {big, big_len, NULL};
    journal_spec_t bs = {"big", ENGINE_KIND_BELLPERSON, CUZK_PRIO_HIGH, "porep-32g", &bi, 1};
    uint64_t id5;
    assert_int_equal(journal_accept(j, &id5, &ex, &bs, &err), CUZK_OK);
    assert_int_equal(journal_get(j, &job, id5, JOURNAL_GET_INPUTS, &err), CUZK_OK);
    assert_int_equal(job.inputs[0].len, big_len);
    assert_memory_equal(job.inputs[0].data, big, big_len);
    journal_job_free(&job);
    free(big);

    /* State errors. */
    expect_err(journal_finish(j, id, ENGINE_JOB_DONE, NULL, NULL, 0, NULL, 0, &err), &err,
               CUZK_ERR_ARG, "job 1 is already done");
    expect_err(journal_mark_running(j, id2, &err), &err, CUZK_ERR_ARG, "job 2 is already failed");
    expect_err(journal_mark_running(j, 999, &err), &err, CUZK_ERR_ARG, "no job 999");
    expect_err(journal_finish(j, 999, ENGINE_JOB_CANCELLED, NULL, NULL, 0, NULL, 0, &err), &err,
               CUZK_ERR_ARG, "no job 999");
    expect_err(journal_get(j, &job, 999, JOURNAL_GET_ALL, &err), &err, CUZK_ERR_ARG, "no job 999");
    expect_err(journal_get(j, &job, id, 4, &err), &err, CUZK_ERR_ARG, "unknown bits");
    expect_err(journal_finish(j, id4, ENGINE_JOB_RUNNING, NULL, NULL, 0, NULL, 0, &err), &err,
               CUZK_ERR_ARG, "not a final state");
    expect_err(journal_finish(j, id4, ENGINE_JOB_FAILED, NULL, NULL, 0, NULL, 0, &err), &err,
               CUZK_ERR_ARG, "needs an error");
    expect_err(journal_finish(j, id4, ENGINE_JOB_DONE, &jerr, NULL, 0, NULL, 0, &err), &err,
               CUZK_ERR_ARG, "a done job with an error");
    expect_err(journal_finish(j, id4, ENGINE_JOB_DONE, NULL, NULL, 5, NULL, 0, &err), &err,
               CUZK_ERR_ARG, "a length without its data");

    /* Spec errors: nothing is recorded. */
    uint64_t c[JOURNAL_STATE_COUNT];
    uint64_t before = count_all(j, c);
    char long_circ[REQUEST_CIRCUIT_ID_MAX + 2], long_req[REQUEST_ID_MAX + 2];
    memset(long_circ, 'c', sizeof long_circ - 1);
    long_circ[sizeof long_circ - 1] = '\0';
    memset(long_req, 'r', sizeof long_req - 1);
    long_req[sizeof long_req - 1] = '\0';
    journal_input_t both = {(const uint8_t *)"x", 1, "/ref"}, noref = {NULL, 0, ""},
                    nodata = {NULL, 5, NULL};
    static const struct {
        int field;
        const char *want;
    } bad[] = {
        {0, "bad kind -1"},
        {1, "bad kind 6"},
        {2, "bad priority 4"},
        {3, "circuit_id is empty"},
        {4, "circuit_id is longer"},
        {5, "request_id is longer"},
        {6, "0 inputs"},
        {7, "3 inputs (1.."},
        {8, "both a reference and data"},
        {9, "an empty reference"},
        {10, "input 0: no data"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        journal_spec_t s = b.spec;
        switch (bad[i].field) {
        case 0: s.kind = -1; break;
        case 1: s.kind = ENGINE_KIND_COUNT; break;
        case 2: s.priority = CUZK_PRIO_COUNT; break;
        case 3: s.circuit_id = ""; break;
        case 4: s.circuit_id = long_circ; break;
        case 5: s.request_id = long_req; break;
        case 6: s.n_inputs = 0; break;
        case 7: s.inputs = NULL; break;
        case 8: s.inputs = &both, s.n_inputs = 1; break;
        case 9: s.inputs = &noref, s.n_inputs = 1; break;
        case 10: s.inputs = &nodata, s.n_inputs = 1; break;
        }
        uint64_t nid = 77;
        int nex = 5;
        expect_err(journal_accept(j, &nid, &nex, &s, &err), &err, CUZK_ERR_ARG, bad[i].want);
        assert_int_equal(nid, 0);
        assert_int_equal(nex, 0);
    }
    assert_int_equal(count_all(j, c), before);
    assert_int_equal(c[ENGINE_JOB_QUEUED], 2);
    assert_int_equal(c[ENGINE_JOB_DONE], 1);
    assert_int_equal(c[ENGINE_JOB_FAILED], 1);
    assert_int_equal(c[ENGINE_JOB_CANCELLED], 1);
    assert_int_equal(journal_check(j, &err), CUZK_OK);

    free_spec(&b);
    free_spec(&b2);
    free_spec(&b3);
    journal_close(j);
    journal_close(NULL);
    journal_job_free(NULL);
}

static void test_idempotency(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "idem.db");
    journal_t *j = open_ok(path);
    cuzk_error_t err = {CUZK_OK, ""};
    uint64_t c[JOURNAL_STATE_COUNT];
    spec_buf_t b;
    make_spec(&b, 20, 1); /* 3 inputs, all non-empty blobs */
    uint64_t id = accept_ok(j, &b, 0);
    assert_int_equal(accept_ok(j, &b, 1), id);
    journal_spec_t s = b.spec;
    s.priority = (s.priority + 1) % CUZK_PRIO_COUNT; /* a retry at another priority */
    uint64_t got;
    int ex;
    assert_int_equal(journal_accept(j, &got, &ex, &s, &err), CUZK_OK);
    assert_int_equal(got, id);
    assert_int_equal(ex, 1);
    assert_int_equal(count_all(j, c), 1);

    /* The same request id for something else. */
    for (int what = 0; what < 5; what++) {
        s = b.spec;
        journal_input_t in[4];
        memcpy(in, b.in, sizeof in);
        uint8_t *copy = malloc(in[1].len);
        memcpy(copy, in[1].data, in[1].len);
        s.inputs = in;
        switch (what) {
        case 0: s.kind = (s.kind + 1) % ENGINE_KIND_COUNT; break;
        case 1: s.circuit_id = "other"; break;
        case 2:
            copy[in[1].len / 2] ^= 1; /* one bit of one input */
            in[1].data = copy;
            break;
        case 3: s.n_inputs--; break;
        case 4: /* the same bytes as a reference instead of a blob */
            in[0].len = 0;
            in[0].data = NULL;
            in[0].ref = "x";
            break;
        }
        got = 5;
        expect_err(journal_accept(j, &got, &ex, &s, &err), &err, CUZK_ERR_ARG,
                   "request id 'req-20' was given to job 1 with another kind, circuit or inputs");
        assert_int_equal(got, 0);
        free(copy);
    }
    assert_int_equal(count_all(j, c), 1);

    assert_int_equal(journal_find_request(j, &got, "req-20", &err), CUZK_OK);
    assert_int_equal(got, id);
    assert_int_equal(journal_find_request(j, &got, "nope", &err), CUZK_OK);
    assert_int_equal(got, 0);

    /* No request id (NULL or ""): every accept is a new job. */
    s = b.spec;
    s.request_id = "";
    uint64_t a1, a2;
    assert_int_equal(journal_accept(j, &a1, &ex, &s, &err), CUZK_OK);
    assert_int_equal(journal_accept(j, &a2, &ex, &s, &err), CUZK_OK);
    assert_true(a1 != a2 && a1 != id && a2 != id);
    journal_job_t job;
    assert_int_equal(journal_get(j, &job, a1, 0, &err), CUZK_OK);
    assert_null(job.request_id);
    journal_job_free(&job);

    /* A finished job still answers its request id, until it expires. */
    assert_int_equal(
        journal_finish(j, id, ENGINE_JOB_DONE, NULL, (const uint8_t *)"p", 1, NULL, 0, &err),
        CUZK_OK);
    assert_int_equal(accept_ok(j, &b, 1), id);
    size_t removed;
    assert_int_equal(journal_expire(j, &removed, journal_clock_ms() + 1000, 0, &err), CUZK_OK);
    assert_int_equal(removed, 1);
    uint64_t fresh = accept_ok(j, &b, 0);
    assert_true(fresh > a2);
    free_spec(&b);
    journal_close(j);
}

static void test_reopen(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "reopen.db");
    journal_t *j = open_ok(path);
    cuzk_error_t err = {CUZK_OK, ""};
    spec_buf_t b[8];
    uint64_t id[8];
    for (int k = 0; k < 8; k++) {
        make_spec(&b[k], 100 + (uint64_t)k, k % 2);
        id[k] = accept_ok(j, &b[k], 0);
        assert_int_equal(id[k], (uint64_t)k + 1);
    }
    /* 0, 1 running; 2 done; 5 failed; 7 (the newest) done; 3, 4, 6 queued. */
    assert_int_equal(journal_mark_running(j, id[0], &err), CUZK_OK);
    assert_int_equal(journal_mark_running(j, id[1], &err), CUZK_OK);
    assert_int_equal(journal_finish(j, id[2], ENGINE_JOB_DONE, NULL, NULL, 0, NULL, 0, &err),
                     CUZK_OK);
    cuzk_error_t e = {CUZK_ERR_CUDA, "device lost"};
    assert_int_equal(journal_finish(j, id[5], ENGINE_JOB_FAILED, &e, NULL, 0, NULL, 0, &err),
                     CUZK_OK);
    assert_int_equal(journal_finish(j, id[7], ENGINE_JOB_DONE, NULL, NULL, 0, NULL, 0, &err),
                     CUZK_OK);
    size_t removed;
    assert_int_equal(journal_expire(j, &removed, journal_clock_ms() + 1, 0, &err), CUZK_OK);
    assert_int_equal(removed, 3);
    journal_close(j);

    j = open_ok(path);
    uint64_t *ids;
    size_t n;
    assert_int_equal(journal_unfinished(j, &ids, &n, &err), CUZK_OK);
    assert_int_equal(n, 5);
    static const int want[5] = {0, 1, 3, 4, 6};
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ids[i], id[want[i]]);
        journal_job_t job;
        assert_int_equal(journal_get(j, &job, ids[i], JOURNAL_GET_ALL, &err), CUZK_OK);
        assert_job_is(&job, &b[want[i]], 1);
        assert_int_equal(job.state, want[i] < 2 ? ENGINE_JOB_RUNNING : ENGINE_JOB_QUEUED);
        journal_job_free(&job);
    }
    free(ids);
    /* The newest id (8) was expired: it is still never handed out again. */
    spec_buf_t nb;
    make_spec(&nb, 200, 1);
    assert_int_equal(accept_ok(j, &nb, 0), 9);
    free_spec(&nb);
    journal_close(j);

    /* An empty journal reports no unfinished jobs. */
    char path2[128];
    path_in(path2, sizeof path2, "reopen_empty.db");
    j = open_ok(path2);
    journal_close(j);
    j = open_ok(path2);
    ids = (uint64_t *)1;
    assert_int_equal(journal_unfinished(j, &ids, &n, &err), CUZK_OK);
    assert_int_equal(n, 0);
    assert_null(ids);
    journal_close(j);
    for (int k = 0; k < 8; k++)
        free_spec(&b[k]);
}

static int64_t raw_int(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(db);
}

static void test_expire(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "expire.db");
    journal_t *j = open_ok(path);
    cuzk_error_t err = {CUZK_OK, ""};
    spec_buf_t a, b, c;
    make_spec(&a, 30, 1);
    make_spec(&b, 31, 1);
    make_spec(&c, 32, 1);
    uint64_t ia = accept_ok(j, &a, 0), ib = accept_ok(j, &b, 0), ic = accept_ok(j, &c, 0);
    assert_int_equal(journal_finish(j, ia, ENGINE_JOB_DONE, NULL, NULL, 0, NULL, 0, &err), CUZK_OK);
    assert_int_equal(journal_finish(j, ib, ENGINE_JOB_CANCELLED, NULL, NULL, 0, NULL, 0, &err),
                     CUZK_OK);
    journal_job_t ja, jb;
    assert_int_equal(journal_get(j, &ja, ia, 0, &err), CUZK_OK);
    assert_int_equal(journal_get(j, &jb, ib, 0, &err), CUZK_OK);
    int64_t ttl = 3600 * 1000;
    size_t removed = 99;
    /* One ms before A's TTL ends: nothing goes. */
    assert_int_equal(journal_expire(j, &removed, ja.finished_ms + ttl - 1, ttl, &err), CUZK_OK);
    assert_int_equal(removed, 0);
    /* At A's end: A (and B, if it finished in the same ms). */
    assert_int_equal(journal_expire(j, &removed, ja.finished_ms + ttl, ttl, &err), CUZK_OK);
    assert_int_equal(removed, jb.finished_ms == ja.finished_ms ? 2 : 1);
    assert_int_equal(journal_expire(j, NULL, jb.finished_ms + ttl, ttl, &err), CUZK_OK);
    journal_job_t g;
    expect_err(journal_get(j, &g, ia, 0, &err), &err, CUZK_ERR_ARG, "no job");
    expect_err(journal_get(j, &g, ib, 0, &err), &err, CUZK_ERR_ARG, "no job");
    /* Unfinished jobs never expire. */
    assert_int_equal(journal_expire(j, &removed, INT64_MAX, 0, &err), CUZK_OK);
    assert_int_equal(removed, 0);
    assert_int_equal(journal_get(j, &g, ic, JOURNAL_GET_ALL, &err), CUZK_OK);
    assert_job_is(&g, &c, 1);
    journal_job_free(&g);
    /* TTLs that reach past the clock's range expire nothing. */
    assert_int_equal(journal_expire(j, &removed, INT64_MIN + 5, 10, &err), CUZK_OK);
    assert_int_equal(journal_expire(j, &removed, 0, INT64_MAX, &err), CUZK_OK);
    assert_int_equal(removed, 0);
    expect_err(journal_expire(j, &removed, 0, -1, &err), &err, CUZK_ERR_ARG, "negative TTL");
    journal_job_free(&ja);
    journal_job_free(&jb);

    /* Expiry gives the pages of big results back. */
    size_t len = 8u << 20;
    uint8_t *big = calloc(1, len);
    journal_input_t in = {big, len, NULL};
    journal_spec_t s = {NULL, ENGINE_KIND_SNARKJS, CUZK_PRIO_NORMAL, "c", &in, 1};
    uint64_t id;
    int ex;
    assert_int_equal(journal_accept(j, &id, &ex, &s, &err), CUZK_OK);
    assert_true(raw_int(path, "PRAGMA page_count") * raw_int(path, "PRAGMA page_size") >
                (int64_t)len);
    assert_int_equal(journal_finish(j, id, ENGINE_JOB_DONE, NULL, big, len, NULL, 0, &err),
                     CUZK_OK);
    assert_int_equal(journal_expire(j, &removed, journal_clock_ms() + 1, 0, &err), CUZK_OK);
    assert_int_equal(removed, 1);
    assert_int_equal(raw_int(path, "PRAGMA freelist_count"), 0);
    assert_true(raw_int(path, "PRAGMA page_count") * raw_int(path, "PRAGMA page_size") < (1 << 20));
    free(big);
    assert_int_equal(journal_check(j, &err), CUZK_OK);
    free_spec(&a);
    free_spec(&b);
    free_spec(&c);
    journal_close(j);
}

static void test_refused_files(void **state)
{
    (void)state;
    char path[128];
    journal_t *j = (journal_t *)1;
    cuzk_error_t err = {CUZK_OK, ""};

    path_in(path, sizeof path, "junk.db");
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 200; i++)
        fputs("this is not a database, only text.\n", f);
    fclose(f);
    expect_err(journal_open(&j, path, &err), &err, CUZK_ERR_FORMAT, "not a SQLite database");
    assert_non_null(strstr(err.msg, path));
    assert_null(j);

    path_in(path, sizeof path, "other.db");
    raw_exec(path, "CREATE TABLE t(x); INSERT INTO t VALUES(1);");
    expect_err(journal_open(&j, path, &err), &err, CUZK_ERR_FORMAT,
               "a SQLite database but not a cuzk journal");
    assert_non_null(strstr(err.msg, path));

    path_in(path, sizeof path, "newer.db");
    journal_close(open_ok(path));
    raw_exec(path, "UPDATE journal_meta SET value = 2 WHERE key = 'schema_version'");
    expect_err(journal_open(&j, path, &err), &err, CUZK_ERR_FORMAT,
               "schema version 2 is newer than this cuzk's (1)");
    raw_exec(path, "DROP TABLE journal_meta");
    expect_err(journal_open(&j, path, &err), &err, CUZK_ERR_FORMAT, "no schema version recorded");

    path_in(path, sizeof path, "no/such/dir/j.db");
    expect_err(journal_open(&j, path, &err), &err, CUZK_ERR_IO, path);
    expect_err(journal_open(&j, tmpdir, &err), &err, CUZK_ERR_IO, tmpdir);
    expect_err(journal_open(&j, "", &err), &err, CUZK_ERR_ARG, "no path");

    /* An empty file is a new journal, in WAL mode. */
    path_in(path, sizeof path, "empty.db");
    close(open(path, O_CREAT | O_WRONLY, 0600));
    j = open_ok(path);
    journal_close(j);
    assert_int_equal(raw_int(path, "PRAGMA application_id"), JOURNAL_APPLICATION_ID);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* ---- the crash test ---- */

enum { REC_ACCEPTED = 1, REC_RUNNING = 2, REC_DONE = 3, REC_FAILED = 4 };

typedef struct rec {
    uint32_t type;
    uint32_t pad;
    uint64_t k, id;
} rec_t;

static void proof_of(uint8_t out[48], uint64_t k)
{
    for (int i = 0; i < 48; i++)
        out[i] = byte_of(k, 9, (size_t)i);
}

/* What the child does with job k after accepting it. */
static int runs(uint64_t k)
{
    return k % 3 == 0;
}
static int final_state(uint64_t k)
{
    if (k % 4 == 1)
        return ENGINE_JOB_DONE;
    if (k % 4 == 2 && runs(k))
        return ENGINE_JOB_FAILED;
    return -1;
}

static void send_rec(int fd, uint32_t type, uint64_t k, uint64_t id)
{
    rec_t r = {type, 0, k, id};
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(5);
}

/* The child: journals jobs k = base, base + 1, ... until it is killed. */
static void crash_child(const char *path, uint64_t base, int fd)
{
    journal_t *j;
    if (journal_open(&j, path, NULL) != CUZK_OK)
        _exit(2);
    for (uint64_t k = base;; k++) {
        spec_buf_t b;
        make_spec(&b, k, 1);
        uint64_t id;
        int ex;
        if (journal_accept(j, &id, &ex, &b.spec, NULL) != CUZK_OK || ex)
            _exit(3);
        free_spec(&b);
        send_rec(fd, REC_ACCEPTED, k, id);
        if (runs(k)) {
            if (journal_mark_running(j, id, NULL) != CUZK_OK)
                _exit(4);
            send_rec(fd, REC_RUNNING, k, id);
        }
        int fin = final_state(k);
        if (fin == ENGINE_JOB_DONE) {
            uint8_t proof[48];
            proof_of(proof, k);
            if (journal_finish(j, id, fin, NULL, proof, sizeof proof, proof, 8, NULL) != CUZK_OK)
                _exit(4);
            send_rec(fd, REC_DONE, k, id);
        } else if (fin == ENGINE_JOB_FAILED) {
            cuzk_error_t e = {CUZK_ERR_CUDA, ""};
            snprintf(e.msg, sizeof e.msg, "job %llu failed", (unsigned long long)k);
            if (journal_finish(j, id, fin, &e, NULL, 0, NULL, 0, NULL) != CUZK_OK)
                _exit(4);
            send_rec(fd, REC_FAILED, k, id);
        }
    }
}

typedef struct seen {
    uint64_t k, id;
    int state; /* the furthest state reported */
} seen_t;

/* The journal's job id holds what job k became, at or past state `at`. */
static void check_crashed_job(journal_t *j, uint64_t id, uint64_t k, int at)
{
    journal_job_t job;
    cuzk_error_t err = {CUZK_OK, ""};
    if (journal_get(j, &job, id, JOURNAL_GET_ALL, &err) != CUZK_OK)
        fail_msg("job %llu (k %llu) reported but lost: %s", (unsigned long long)id,
                 (unsigned long long)k, err.msg);
    spec_buf_t b;
    make_spec(&b, k, 1);
    assert_job_is(&job, &b, job.state < ENGINE_JOB_DONE);
    free_spec(&b);
    /* The states job k passes through, in order. */
    int path[3], n = 0;
    path[n++] = ENGINE_JOB_QUEUED;
    if (runs(k))
        path[n++] = ENGINE_JOB_RUNNING;
    if (final_state(k) >= 0)
        path[n++] = final_state(k);
    int pos_at = -1, pos_now = -1;
    for (int i = 0; i < n; i++) {
        if (path[i] == at)
            pos_at = i;
        if (path[i] == job.state)
            pos_now = i;
    }
    if (pos_now < 0 || pos_now < pos_at)
        fail_msg("job %llu (k %llu) is %s, reported %s", (unsigned long long)id,
                 (unsigned long long)k, engine_job_state_str(job.state), engine_job_state_str(at));
    assert_int_equal(job.attempts, job.state == ENGINE_JOB_QUEUED ? 0 : (unsigned)runs(k));
    if (job.state == ENGINE_JOB_DONE) {
        uint8_t proof[48];
        proof_of(proof, k);
        assert_int_equal(job.proof_len, 48);
        assert_memory_equal(job.proof, proof, 48);
        assert_int_equal(job.public_len, 8);
        assert_memory_equal(job.public_signals, proof, 8);
    } else if (job.state == ENGINE_JOB_FAILED) {
        char msg[64];
        snprintf(msg, sizeof msg, "job %llu failed", (unsigned long long)k);
        assert_int_equal(job.error.code, CUZK_ERR_CUDA);
        assert_string_equal(job.error.msg, msg);
    }
    journal_job_free(&job);
}

/* One round: a child journals from base until it is killed after `after`
 * accepted jobs; returns the highest id the journal holds afterwards. */
static uint64_t crash_round(const char *path, uint64_t base, unsigned after, uint64_t prev_max)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        crash_child(path, base, fds[1]);
        _exit(6);
    }
    close(fds[1]);
    size_t cap = 1024, n = 0;
    seen_t *seen = calloc(cap, sizeof *seen);
    unsigned accepted = 0;
    int killed = 0;
    rec_t r;
    ssize_t got;
    size_t have = 0;
    uint8_t *rp = (uint8_t *)&r;
    while ((got = read(fds[0], rp + have, sizeof r - have)) > 0 || (got < 0 && errno == EINTR)) {
        if (got < 0)
            continue;
        have += (size_t)got;
        if (have < sizeof r)
            continue;
        have = 0;
        if (r.type == REC_ACCEPTED) {
            if (n == cap)
                seen = realloc(seen, (cap *= 2) * sizeof *seen);
            seen[n++] = (seen_t){r.k, r.id, ENGINE_JOB_QUEUED};
            if (++accepted == after && !killed) {
                /* Up to 30 ms more, so the kill lands anywhere in the loop:
                 * inside a transaction, a big blob's write, a commit's sync. */
                usleep((useconds_t)(tu_rand64() % 30000));
                kill(pid, SIGKILL);
                killed = 1;
            }
        } else {
            assert_true(n > 0 && seen[n - 1].k == r.k && seen[n - 1].id == r.id);
            seen[n - 1].state = r.type == REC_RUNNING ? ENGINE_JOB_RUNNING
                                : r.type == REC_DONE  ? ENGINE_JOB_DONE
                                                      : ENGINE_JOB_FAILED;
        }
    }
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
        fail_msg("crash child ended otherwise (status 0x%x) after %zu jobs", status, n);
    assert_true(accepted >= after);

    journal_t *j = open_ok(path);
    cuzk_error_t err = {CUZK_OK, ""};
    if (journal_check(j, &err) != CUZK_OK)
        fail_msg("after the crash: %s", err.msg);
    uint64_t max_id = prev_max;
    for (size_t i = 0; i < n; i++) {
        assert_true(seen[i].id > max_id); /* ids rise with acceptance */
        max_id = seen[i].id;
        uint64_t id;
        char req[64];
        snprintf(req, sizeof req, "req-%llu", (unsigned long long)seen[i].k);
        assert_int_equal(journal_find_request(j, &id, req, &err), CUZK_OK);
        assert_int_equal(id, seen[i].id);
        check_crashed_job(j, seen[i].id, seen[i].k, seen[i].state);
    }
    /* At most one job beyond the last report: accepted, then killed before
     * its report was written. */
    journal_job_t extra;
    int unreported = 0;
    if (journal_get(j, &extra, max_id + 1, 0, &err) == CUZK_OK) {
        unreported = 1;
        uint64_t k = n ? seen[n - 1].k + 1 : base;
        char req[64];
        snprintf(req, sizeof req, "req-%llu", (unsigned long long)k);
        assert_string_equal(extra.request_id, req);
        journal_job_free(&extra);
        check_crashed_job(j, max_id + 1, k, ENGINE_JOB_QUEUED);
        max_id++;
    }
    assert_int_equal(journal_get(j, &extra, max_id + 1, 0, &err), CUZK_ERR_ARG);
    /* journal_unfinished agrees with the states. */
    uint64_t *ids, c[JOURNAL_STATE_COUNT];
    size_t nu;
    assert_int_equal(journal_unfinished(j, &ids, &nu, &err), CUZK_OK);
    count_all(j, c);
    assert_int_equal(nu, c[ENGINE_JOB_QUEUED] + c[ENGINE_JOB_RUNNING]);
    for (size_t i = 0; i < nu; i++) {
        journal_job_t job;
        assert_int_equal(journal_get(j, &job, ids[i], JOURNAL_GET_INPUTS, &err), CUZK_OK);
        assert_true(job.state < ENGINE_JOB_DONE && job.inputs);
        assert_true(i == 0 || ids[i] > ids[i - 1]);
        journal_job_free(&job);
    }
    free(ids);
    journal_close(j);
    free(seen);
    printf("  crash round: kill sent after %u accepted; %zu reported, %d more found, max id "
           "%llu\n",
           after, n, unreported, (unsigned long long)max_id);
    return max_id;
}

static void test_crash(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "crash.db");
    uint64_t max_id = 0;
    int rounds = 5;
    for (int r = 0; r < rounds; r++) {
        unsigned after = 1 + (unsigned)(tu_rand64() % 120);
        max_id = crash_round(path, 1000000ull * (uint64_t)(r + 1), after, max_id);
    }
    /* The survivor goes on with the next id. */
    journal_t *j = open_ok(path);
    spec_buf_t b;
    make_spec(&b, 1, 1);
    assert_int_equal(accept_ok(j, &b, 0), max_id + 1);
    free_spec(&b);
    journal_close(j);
}

/* ---- four threads ---- */

typedef struct worker {
    journal_t *j;
    int t, iters;
    uint64_t *shared_id;
    int *shared_existing;
    uint64_t *own_id;
    char fail[256];
} worker_t;

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    cuzk_error_t err = {CUZK_OK, ""};
    for (int i = 0; i < w->iters && !w->fail[0]; i++) {
        spec_buf_t own, shared;
        make_spec(&own, 100000ull * (uint64_t)(w->t + 1) + (uint64_t)i, 1);
        make_spec(&shared, 900000ull + (uint64_t)i, 1);
        uint64_t id;
        int ex;
        journal_job_t job;
        char why[200];
        if (journal_accept(w->j, &id, &ex, &own.spec, &err) != CUZK_OK || ex)
            snprintf(w->fail, sizeof w->fail, "accept own %d: %s", i, err.msg);
        else if (journal_accept(w->j, &w->shared_id[i], &w->shared_existing[i], &shared.spec,
                                &err) != CUZK_OK)
            snprintf(w->fail, sizeof w->fail, "accept shared %d: %s", i, err.msg);
        else if (journal_mark_running(w->j, id, &err) != CUZK_OK)
            snprintf(w->fail, sizeof w->fail, "running %d: %s", i, err.msg);
        else if (journal_finish(w->j, id, ENGINE_JOB_DONE, NULL, (const uint8_t *)&id, sizeof id,
                                NULL, 0, &err) != CUZK_OK)
            snprintf(w->fail, sizeof w->fail, "finish %d: %s", i, err.msg);
        else if (journal_get(w->j, &job, id, JOURNAL_GET_ALL, &err) != CUZK_OK)
            snprintf(w->fail, sizeof w->fail, "get %d: %s", i, err.msg);
        else {
            if (job.state != ENGINE_JOB_DONE || job.proof_len != sizeof id ||
                memcmp(job.proof, &id, sizeof id) != 0)
                snprintf(w->fail, sizeof w->fail, "job %llu read back wrong",
                         (unsigned long long)id);
            else if (job_differs(why, sizeof why, &job, &own, 0))
                snprintf(w->fail, sizeof w->fail, "job %llu: %s", (unsigned long long)id, why);
            journal_job_free(&job);
        }
        w->own_id[i] = id;
        if (i % 10 == 0) {
            uint64_t c[JOURNAL_STATE_COUNT], *ids;
            size_t n;
            if (journal_counts(w->j, c, &err) != CUZK_OK ||
                journal_unfinished(w->j, &ids, &n, &err) != CUZK_OK)
                snprintf(w->fail, sizeof w->fail, "counts: %s", err.msg);
            else
                free(ids);
        }
        free_spec(&own);
        free_spec(&shared);
    }
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_threads(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "threads.db");
    /* Two handles (two SQLite connections), two threads on each. */
    journal_t *h[2] = {open_ok(path), open_ok(path)};
    int iters = tu_iters(40);
    worker_t w[4];
    pthread_t tid[4];
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "threads", 300, NULL, NULL);
    for (int t = 0; t < 4; t++) {
        w[t] = (worker_t){h[t % 2],
                          t,
                          iters,
                          calloc((size_t)iters, sizeof(uint64_t)),
                          calloc((size_t)iters, sizeof(int)),
                          calloc((size_t)iters, sizeof(uint64_t)),
                          ""};
        assert_int_equal(pthread_create(&tid[t], NULL, worker_main, &w[t]), 0);
    }
    for (int t = 0; t < 4; t++)
        pthread_join(tid[t], NULL);
    tu_watchdog_stop(&wd);
    for (int t = 0; t < 4; t++)
        if (w[t].fail[0])
            fail_msg("thread %d: %s", t, w[t].fail);
    /* Each shared request made one job, which one thread created. */
    for (int i = 0; i < iters; i++) {
        int created = 0;
        for (int t = 0; t < 4; t++) {
            assert_int_equal(w[t].shared_id[i], w[0].shared_id[i]);
            created += !w[t].shared_existing[i];
        }
        assert_int_equal(created, 1);
    }
    uint64_t *all = malloc((size_t)(5 * iters) * sizeof *all);
    size_t n = 0;
    for (int t = 0; t < 4; t++)
        for (int i = 0; i < iters; i++)
            all[n++] = w[t].own_id[i];
    for (int i = 0; i < iters; i++)
        all[n++] = w[0].shared_id[i];
    qsort(all, n, sizeof *all, cmp_u64);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(all[i], i + 1); /* distinct, and no gaps: 1 .. 5 * iters */
    free(all);
    uint64_t c[JOURNAL_STATE_COUNT];
    assert_int_equal(count_all(h[0], c), (uint64_t)(5 * iters));
    assert_int_equal(c[ENGINE_JOB_DONE], (uint64_t)(4 * iters));
    assert_int_equal(c[ENGINE_JOB_QUEUED], (uint64_t)iters);
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(journal_check(h[1], &err), CUZK_OK);
    for (int t = 0; t < 4; t++) {
        free(w[t].shared_id);
        free(w[t].shared_existing);
        free(w[t].own_id);
    }
    journal_close(h[0]);
    journal_close(h[1]);
}

int main(void)
{
    tu_init("test_journal");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_idempotency),
        cmocka_unit_test(test_reopen),        cmocka_unit_test(test_expire),
        cmocka_unit_test(test_refused_files), cmocka_unit_test(test_crash),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
