/* Event log tests (include/cuzk/eventlog.h).
 *
 * Round trips of random edge-biased records (extreme integers, strings at
 * their length limits with quotes, backslashes, control characters and
 * multi-byte UTF-8) through eventlog_format and eventlog_read_mem, with
 * every line also parsed by cJSON as an independent JSON reference; a table
 * of malformed lines, each refused with CUZK_ERR_PARSE naming its line and
 * what is wrong; lines the reader must accept (unknown fields of every JSON
 * type, blank lines, CRLF, escaped keys); the file writer under 4
 * concurrent threads (no interleaved or lost line); the engine hook
 * adapter; write errors counted by eventlog_dropped.
 * Rerun with CUZK_TEST_SEED=<seed>; CUZK_TEST_ITERS scales the round trips. */
#include "test_util.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cuzk/eventlog.h"

/* ---- helpers ---- */

static void rand_str(char *out, size_t cap)
{
    static const char *const pieces[] = {"a",
                                         "Z",
                                         "_",
                                         " ",
                                         "\"",
                                         "\\",
                                         "/",
                                         "\n",
                                         "\t",
                                         "\x01",
                                         "\x1f",
                                         "\x7f",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80",
                                         "<",
                                         "&",
                                         "msm_a"};
    size_t len = 0;
    size_t want = tu_rand64() % 4 == 0 ? cap - 1 : tu_rand64() % cap;
    while (len < want) {
        const char *p = pieces[tu_rand64() % (sizeof pieces / sizeof pieces[0])];
        size_t k = strlen(p);
        if (len + k > cap - 1)
            break;
        memcpy(out + len, p, k);
        len += k;
    }
    out[len] = '\0';
}

static uint64_t rand_u64_edge(void)
{
    switch (tu_rand64() % 6) {
    case 0: return 0;
    case 1: return UINT64_MAX;
    case 2: return (1ull << 53) + 1; /* past a double's exact integers */
    case 3: return tu_rand64() % 1000;
    default: return tu_rand64();
    }
}

static int rand_int_edge(void)
{
    switch (tu_rand64() % 5) {
    case 0: return -1;
    case 1: return 0;
    case 2: return INT_MAX;
    default: return (int)(tu_rand64() % 64);
    }
}

static void rand_rec(eventlog_rec_t *r)
{
    memset(r, 0, sizeof *r);
    r->job = rand_u64_edge();
    r->partition = rand_int_edge();
    r->device = rand_int_edge();
    r->worker = rand_int_edge();
    r->status = rand_int_edge();
    if (r->status < 0)
        r->status = 0;
    uint64_t a = rand_u64_edge(), b = rand_u64_edge();
    r->start_ns = a < b ? a : b;
    r->end_ns = a < b ? b : a;
    do
        rand_str(r->stage, sizeof r->stage);
    while (!r->stage[0]);
    if (tu_rand64() % 2)
        rand_str(r->kind, sizeof r->kind);
    if (tu_rand64() % 2)
        rand_str(r->detail, sizeof r->detail);
}

static void assert_rec_equal(const eventlog_rec_t *a, const eventlog_rec_t *b)
{
    assert_true(a->job == b->job);
    assert_int_equal(a->partition, b->partition);
    assert_int_equal(a->device, b->device);
    assert_int_equal(a->worker, b->worker);
    assert_int_equal(a->status, b->status);
    assert_true(a->start_ns == b->start_ns);
    assert_true(a->end_ns == b->end_ns);
    assert_string_equal(a->stage, b->stage);
    assert_string_equal(a->kind, b->kind);
    assert_string_equal(a->detail, b->detail);
}

/* The line through cJSON: a valid object whose strings are the record's. */
static void check_with_cjson(const char *line, const eventlog_rec_t *r)
{
    cJSON *j = cJSON_Parse(line);
    assert_non_null(j);
    assert_true(cJSON_IsObject(j));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(j, "stage")->valuestring, r->stage);
    cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "kind");
    assert_string_equal(k ? k->valuestring : "", r->kind);
    cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "detail");
    assert_string_equal(d ? d->valuestring : "", r->detail);
    assert_true(cJSON_GetObjectItemCaseSensitive(j, "partition")->valuedouble == r->partition);
    cJSON_Delete(j);
}

/* ---- tests ---- */

static void test_round_trip(void **state)
{
    (void)state;
    int iters = tu_iters(300);
    size_t cap = 64, len = 0;
    char *all = malloc(cap);
    eventlog_rec_t *want = malloc((size_t)iters * sizeof *want);
    assert_non_null(all);
    assert_non_null(want);
    for (int i = 0; i < iters; i++) {
        rand_rec(&want[i]);
        char line[EVENTLOG_LINE_MAX];
        size_t n;
        cuzk_error_t err = {0};
        assert_int_equal(eventlog_format(line, sizeof line, &n, &want[i], &err), CUZK_OK);
        assert_int_equal(n, strlen(line));
        assert_true(n > 0 && line[n - 1] == '\n');
        assert_null(memchr(line, '\n', n - 1)); /* one line */
        check_with_cjson(line, &want[i]);
        eventlog_rec_t *got = NULL;
        size_t cnt = 0;
        assert_int_equal(eventlog_read_mem(&got, &cnt, line, n, "line", &err), CUZK_OK);
        assert_int_equal(cnt, 1);
        assert_rec_equal(&got[0], &want[i]);
        free(got);
        while (cap - len < n + 2) {
            cap *= 2;
            all = realloc(all, cap);
            assert_non_null(all);
        }
        memcpy(all + len, line, n);
        len += n;
        if (i % 7 == 0)
            all[len++] = '\n'; /* blank lines in between */
    }
    eventlog_rec_t *got = NULL;
    size_t cnt = 0;
    cuzk_error_t err = {0};
    assert_int_equal(eventlog_read_mem(&got, &cnt, all, len, "all", &err), CUZK_OK);
    assert_int_equal(cnt, (size_t)iters);
    for (int i = 0; i < iters; i++)
        assert_rec_equal(&got[i], &want[i]);
    free(got);
    free(all);
    free(want);
}

static void test_format_limits(void **state)
{
    (void)state;
    /* The widest record fits EVENTLOG_LINE_MAX. */
    eventlog_rec_t r;
    memset(&r, 0, sizeof r);
    r.job = r.start_ns = r.end_ns = UINT64_MAX;
    r.partition = r.device = r.worker = r.status = INT_MAX;
    memset(r.stage, 1, sizeof r.stage - 1);
    memset(r.kind, 1, sizeof r.kind - 1);
    memset(r.detail, 1, sizeof r.detail - 1);
    char line[EVENTLOG_LINE_MAX];
    size_t n;
    cuzk_error_t err = {0};
    assert_int_equal(eventlog_format(line, sizeof line, &n, &r, &err), CUZK_OK);
    assert_true(n < EVENTLOG_LINE_MAX);
    /* Too small a buffer. */
    assert_int_equal(eventlog_format(line, 20, &n, &r, &err), CUZK_ERR_LENGTH);
    /* Records the writer refuses. */
    static const struct {
        int field;
        const char *msg;
    } bad[] = {{0, "stage"},  {1, "partition"}, {2, "device"}, {3, "worker"}, {4, "status"},
               {5, "end_ns"}, {6, "kind"},      {7, "detail"}, {8, "stage"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        eventlog_rec_t b;
        memset(&b, 0, sizeof b);
        strcpy(b.stage, "prove");
        b.worker = -1;
        b.end_ns = 5;
        switch (bad[i].field) {
        case 0: b.stage[0] = '\0'; break;
        case 1: b.partition = -2; break;
        case 2: b.device = -2; break;
        case 3: b.worker = -2; break;
        case 4: b.status = -1; break;
        case 5: b.start_ns = 6; break;
        case 6: memcpy(b.kind, "\xc3(", 3); break;             /* invalid UTF-8 */
        case 7: memset(b.detail, 'x', sizeof b.detail); break; /* no NUL */
        case 8: memcpy(b.stage, "\xed\xa0\x80", 4); break;     /* a surrogate */
        }
        err.msg[0] = '\0';
        assert_int_equal(eventlog_format(line, sizeof line, &n, &b, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, bad[i].msg));
    }
}

#define OK_HEAD "\"job\":1,\"partition\":0,\"device\":0,\"stage\":\"prove\","
#define OK_TIMES "\"start_ns\":1,\"end_ns\":2,\"status\":0"

static void test_parse_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"", NULL},
        {"{" OK_HEAD OK_TIMES "", "expected ',' or '}'"},
        {"[1]", "expected '{'"},
        {"{" OK_HEAD "\"start_ns\":1,\"end_ns\":2}", "missing \"status\""},
        {"{\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}", "missing \"job\""},
        {"{" OK_HEAD "\"start_ns\":5,\"end_ns\":4,\"status\":0}", "end_ns 4 before start_ns 5"},
        {"{\"job\":1,\"partition\":-2,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"partition\" must be >= -1"},
        {"{\"job\":1,\"partition\":0,\"device\":-3,\"stage\":\"p\"," OK_TIMES "}",
         "\"device\" must be >= -1"},
        {"{" OK_HEAD OK_TIMES ",\"worker\":-2}", "\"worker\" must be >= -1"},
        {"{" OK_HEAD "\"start_ns\":1,\"end_ns\":2,\"status\":-1}", "\"status\" must be >= 0"},
        {"{\"job\":-1,\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"job\" must be >= 0"},
        {"{\"job\":18446744073709551616,\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"job\" out of range"},
        {"{\"job\":1,\"partition\":2147483648,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"partition\" out of range"},
        {"{\"job\":1.5,\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"job\" must be an integer"},
        {"{\"job\":1e3,\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"job\" must be an integer"},
        {"{\"job\":\"1\",\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "\"job\" must be an integer"},
        {"{\"job\":01,\"partition\":0,\"device\":0,\"stage\":\"p\"," OK_TIMES "}",
         "expected ',' or '}'"},
        {"{\"job\":1,\"partition\":0,\"device\":0,\"stage\":5," OK_TIMES "}",
         "\"stage\" must be a string"},
        {"{\"job\":1,\"partition\":0,\"device\":0,\"stage\":\"\"," OK_TIMES "}",
         "\"stage\" is empty"},
        {"{\"job\":1,\"partition\":0,\"device\":0,\"stage\":"
         "\"0123456789012345678901234567890123\"," OK_TIMES "}",
         "\"stage\" longer than 31 bytes"},
        {"{" OK_HEAD OK_TIMES ",\"job\":2}", "\"job\" given twice"},
        {"{" OK_HEAD OK_TIMES "} x", "text after the object"},
        {"{" OK_HEAD OK_TIMES ",}", "expected a string key"},
        {"{" OK_HEAD OK_TIMES ",\"x\"}", "expected ':'"},
        {"{" OK_HEAD OK_TIMES ",\"x\":tru}", "unexpected character"},
        {"{" OK_HEAD OK_TIMES ",\"x\":-}", "bad number"},
        {"{" OK_HEAD OK_TIMES ",\"x\":1.}", "no digits after '.'"},
        {"{" OK_HEAD OK_TIMES ",\"x\":1e}", "no exponent digits"},
        {"{" OK_HEAD OK_TIMES ",\"x\":[1,]}", "unexpected character"},
        {"{" OK_HEAD OK_TIMES ",\"x\":", "missing value"},
        {"{" OK_HEAD OK_TIMES ",\"x\":[1 2]}", "expected ',' or ']'"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"a\tb\"}", "control character 0x09"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\xc3\x28\"}", "invalid UTF-8"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\xc0\xaf\"}", "invalid UTF-8"},     /* overlong */
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\xed\xa0\x80\"}", "invalid UTF-8"}, /* surrogate */
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\\ud800\"}", "high surrogate without"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\\udc00\"}", "lone low surrogate"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\\u0000\"}", "NUL"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\\u12G4\"}", "bad hex digit"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"\\x\"}", "bad escape \\x"},
        {"{" OK_HEAD OK_TIMES ",\"kind\":\"abc}", "unterminated string"},
        {"{" OK_HEAD OK_TIMES ",\"worker\":null}", "\"worker\" must be an integer"},
        {"\xef\xbb\xbf{" OK_HEAD OK_TIMES "}", "expected '{'"}, /* a BOM */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!cases[i].want)
            continue;
        /* The bad line is line 3, after a good one and a blank one. */
        char buf[512];
        snprintf(buf, sizeof buf, "{" OK_HEAD OK_TIMES "}\n\n%s\n{" OK_HEAD OK_TIMES "}\n",
                 cases[i].text);
        eventlog_rec_t *recs = (eventlog_rec_t *)&buf; /* must be reset to NULL */
        size_t n = 99;
        cuzk_error_t err = {0};
        cuzk_status st = eventlog_read_mem(&recs, &n, buf, strlen(buf), "ev.jsonl", &err);
        if (st != CUZK_ERR_PARSE || !strstr(err.msg, cases[i].want) ||
            strncmp(err.msg, "ev.jsonl:3:", 11) != 0)
            fail_msg("case %zu (%s): status %d, message '%s', wanted '%s'", i, cases[i].text,
                     (int)st, err.msg, cases[i].want);
        assert_null(recs);
        assert_int_equal(n, 0);
    }
    /* Deep nesting in an unknown field is bounded. */
    char deep[1024];
    int k = snprintf(deep, sizeof deep, "{" OK_HEAD OK_TIMES ",\"x\":");
    for (int i = 0; i < 100; i++)
        deep[k++] = '[';
    deep[k] = '\0';
    eventlog_rec_t *recs;
    size_t n;
    cuzk_error_t err = {0};
    assert_int_equal(eventlog_read_mem(&recs, &n, deep, strlen(deep), "deep", &err),
                     CUZK_ERR_PARSE);
    assert_non_null(strstr(err.msg, "nested deeper"));
}

static void test_parse_accepts(void **state)
{
    (void)state;
    static const char text[] =
        "  \r\n"
        "\t{ \"stage\" : \"witness\" , \"job\" : 0 , \"partition\" : -1 , \"device\" : -1 ,"
        " \"start_ns\" : 18446744073709551615 , \"end_ns\" : 18446744073709551615 ,"
        " \"status\" : 0 } \r\n"
        "{" OK_HEAD OK_TIMES ",\"extra\":{\"a\":[1,-2.5e+3,true,false,null,\"s\\u00e9\",{}],"
        "\"b\":[]},\"more\":\"x\",\"n\":-0.0E-1}\n"
        "{\"\\u006aob\":9,\"partition\":-0,\"device\":3,\"stage\":\"msm_\\u0061\","
        "\"start_ns\":9007199254740993,\"end_ns\":9007199254740993,\"status\":12,"
        "\"kind\":\"\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\",\"worker\":4,"
        "\"detail\":\"caf\xc3\xa9\"}"; /* no final newline */
    eventlog_rec_t *r = NULL;
    size_t n = 0;
    cuzk_error_t err = {0};
    assert_int_equal(eventlog_read_mem(&r, &n, text, strlen(text), "ok", &err), CUZK_OK);
    assert_int_equal(n, 3);
    assert_string_equal(r[0].stage, "witness");
    assert_int_equal(r[0].partition, -1);
    assert_int_equal(r[0].device, -1);
    assert_int_equal(r[0].worker, -1);
    assert_true(r[0].start_ns == UINT64_MAX && r[0].end_ns == UINT64_MAX);
    assert_string_equal(r[1].stage, "prove");
    assert_string_equal(r[1].kind, "");
    assert_true(r[2].job == 9);
    assert_int_equal(r[2].partition, 0);
    assert_string_equal(r[2].stage, "msm_a");
    assert_true(r[2].start_ns == 9007199254740993ull);
    assert_int_equal(r[2].status, 12);
    assert_string_equal(r[2].kind, "\xf0\x9f\x98\x80\"\\/\b\f\n\r\t");
    assert_int_equal(r[2].worker, 4);
    assert_string_equal(r[2].detail, "caf\xc3\xa9");
    free(r);
    /* Empty input and blank-only input: no records, CUZK_OK. */
    assert_int_equal(eventlog_read_mem(&r, &n, "", 0, "empty", &err), CUZK_OK);
    assert_int_equal(n, 0);
    assert_null(r);
    assert_int_equal(eventlog_read_mem(&r, &n, "\n \n\t\r\n", 6, "blank", &err), CUZK_OK);
    assert_int_equal(n, 0);
    /* Arguments. */
    assert_int_equal(eventlog_read_mem(NULL, &n, "", 0, "x", &err), CUZK_ERR_ARG);
    assert_int_equal(eventlog_read(&r, &n, "/nonexistent/ev.jsonl", &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/ev.jsonl"));
}

typedef struct writer_arg {
    eventlog_t *log;
    int id, lines;
} writer_arg_t;

static void *writer(void *p)
{
    writer_arg_t *a = p;
    for (int i = 0; i < a->lines; i++) {
        eventlog_rec_t r;
        memset(&r, 0, sizeof r);
        r.job = (uint64_t)a->id << 32 | (uint64_t)i;
        r.partition = i % 5;
        r.device = a->id;
        r.worker = -1;
        r.start_ns = (uint64_t)i * 1000;
        r.end_ns = r.start_ns + 999;
        snprintf(r.stage, sizeof r.stage, "prove");
        /* Long lines make interleaving (if it could happen) likely. */
        memset(r.detail, 'a' + a->id, (size_t)(i % (EVENTLOG_DETAIL_MAX - 1)));
        if (eventlog_write(a->log, &r, NULL) != CUZK_OK)
            return (void *)1;
    }
    return NULL;
}

static void test_file_concurrent(void **state)
{
    (void)state;
    char path[] = "/tmp/cuzk_eventlog_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    enum { THREADS = 4, LINES = 3000 };
    eventlog_t *log = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(eventlog_open(&log, path, &err), CUZK_OK);
    pthread_t t[THREADS];
    writer_arg_t a[THREADS];
    for (int i = 0; i < THREADS; i++) {
        a[i] = (writer_arg_t){log, i, LINES};
        assert_int_equal(pthread_create(&t[i], NULL, writer, &a[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        void *rv;
        pthread_join(t[i], &rv);
        assert_null(rv);
    }
    eventlog_close(log);
    eventlog_rec_t *r = NULL;
    size_t n = 0;
    assert_int_equal(eventlog_read(&r, &n, path, &err), CUZK_OK);
    assert_int_equal(n, (size_t)THREADS * LINES);
    /* Each writer's lines whole and in its own order. */
    int next[THREADS] = {0};
    for (size_t i = 0; i < n; i++) {
        int id = r[i].device, k = (int)(r[i].job & 0xffffffffu);
        assert_true(id >= 0 && id < THREADS);
        assert_int_equal(k, next[id]);
        next[id]++;
        size_t dl = strlen(r[i].detail);
        assert_int_equal(dl, (size_t)(k % (EVENTLOG_DETAIL_MAX - 1)));
        for (size_t c = 0; c < dl; c++)
            assert_int_equal(r[i].detail[c], 'a' + id);
    }
    free(r);
    /* Appending: a second open adds to the end. */
    assert_int_equal(eventlog_open(&log, path, &err), CUZK_OK);
    eventlog_rec_t one;
    memset(&one, 0, sizeof one);
    strcpy(one.stage, "verify");
    one.worker = -1;
    one.partition = -1;
    one.device = -1;
    assert_int_equal(eventlog_write(log, &one, &err), CUZK_OK);
    one.start_ns = 2;
    assert_int_equal(eventlog_write(log, &one, &err), CUZK_ERR_ARG); /* end < start */
    eventlog_close(log);
    assert_int_equal(eventlog_read(&r, &n, path, &err), CUZK_OK);
    assert_int_equal(n, (size_t)THREADS * LINES + 1);
    assert_string_equal(r[n - 1].stage, "verify");
    free(r);
    unlink(path);
    assert_int_equal(eventlog_open(&log, "/nonexistent/dir/ev.jsonl", &err), CUZK_ERR_IO);
    assert_null(log);
    assert_non_null(strstr(err.msg, "/nonexistent/dir/ev.jsonl"));
}

static void test_engine_hook(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    eventlog_t *log = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(eventlog_open_fd(&log, p[1], &err), CUZK_OK);
    engine_event_t ev = {.job = 42,
                         .partition = 3,
                         .device = 1,
                         .stage = ENGINE_STAGE_PROVE,
                         .stage_name = "prove",
                         .start_ns = 1000,
                         .end_ns = 25000,
                         .status = CUZK_OK,
                         .kind = "winning-post"};
    eventlog_engine_hook(log, &ev);
    engine_event_t ev2 = ev;
    ev2.kind = NULL; /* a key load's */
    ev2.partition = -1;
    ev2.device = -1;
    ev2.stage = ENGINE_STAGE_VERIFY;
    ev2.stage_name = NULL;
    ev2.start_ns = 26000;
    ev2.end_ns = 27000;
    ev2.status = CUZK_ERR_FORMAT;
    eventlog_engine_hook(log, &ev2);
    eventlog_engine_hook(NULL, &ev); /* nothing */
    assert_int_equal(eventlog_dropped(log), 0);
    eventlog_close(log);
    char buf[1024];
    ssize_t k = read(p[0], buf, sizeof buf);
    assert_true(k > 0);
    close(p[0]);
    close(p[1]);
    eventlog_rec_t *r = NULL;
    size_t n = 0;
    assert_int_equal(eventlog_read_mem(&r, &n, buf, (size_t)k, "pipe", &err), CUZK_OK);
    assert_int_equal(n, 2);
    assert_true(r[0].job == 42);
    assert_int_equal(r[0].partition, 3);
    assert_int_equal(r[0].device, 1);
    assert_int_equal(r[0].worker, -1);
    assert_string_equal(r[0].stage, "prove");
    assert_true(r[0].start_ns == 1000 && r[0].end_ns == 25000);
    assert_string_equal(r[0].kind, "winning-post");
    assert_string_equal(r[1].stage, "verify"); /* from the stage enum */
    assert_string_equal(r[1].kind, "");
    assert_int_equal(r[1].status, CUZK_ERR_FORMAT);
    free(r);
    /* A failing write is counted, not reported. */
    int ro = open("/dev/null", O_RDONLY);
    assert_true(ro >= 0);
    assert_int_equal(eventlog_open_fd(&log, ro, &err), CUZK_OK);
    eventlog_engine_hook(log, &ev);
    eventlog_engine_hook(log, &ev);
    assert_int_equal(eventlog_dropped(log), 2);
    eventlog_rec_t rec;
    eventlog_rec_from_engine(&rec, &ev);
    assert_int_equal(eventlog_write(log, &rec, &err), CUZK_ERR_IO);
    /* A long stage name is cut at a character boundary. */
    ev.stage_name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9";
    eventlog_rec_from_engine(&rec, &ev);
    assert_string_equal(rec.stage, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    assert_int_equal(eventlog_rec_check(&rec, &err), CUZK_OK);
    eventlog_close(log);
    close(ro);
    assert_int_equal(eventlog_open_fd(&log, -1, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_eventlog");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),      cmocka_unit_test(test_format_limits),
        cmocka_unit_test(test_parse_errors),    cmocka_unit_test(test_parse_accepts),
        cmocka_unit_test(test_file_concurrent), cmocka_unit_test(test_engine_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
