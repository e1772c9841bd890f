/* libFuzzer harness for the event log reader (eventlog_read_mem).
 *
 * Input: the log's bytes. The reader must either fail with
 * CUZK_ERR_PARSE and a message naming a line (no records returned), or
 * return records that eventlog_rec_check accepts and that survive
 * eventlog_format -> eventlog_read_mem unchanged. Every non-blank line of an
 * accepted input must also be JSON to cJSON (an independent parser: this
 * reader accepts no more than JSON), with the same strings and, where a
 * double holds them exactly, the same integers. Anything else traps.
 * Seeds (fuzz/corpus/eventlog/, hand-written): a bench-style log, every
 * optional field, escapes and unknown nested fields, CRLF and blank lines,
 * and a few refused lines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cuzk/eventlog.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_rec(const eventlog_rec_t *a, const eventlog_rec_t *b)
{
    return a->job == b->job && a->partition == b->partition && a->device == b->device &&
           a->worker == b->worker && a->status == b->status && a->start_ns == b->start_ns &&
           a->end_ns == b->end_ns && !strcmp(a->stage, b->stage) && !strcmp(a->kind, b->kind) &&
           !strcmp(a->detail, b->detail);
}

static void check_str(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) {
        CHECK(want[0] == '\0');
        return;
    }
    CHECK(cJSON_IsString(v) && !strcmp(v->valuestring, want));
}

static void check_int(const cJSON *o, const char *key, double want, int optional)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) {
        CHECK(optional);
        return;
    }
    CHECK(cJSON_IsNumber(v));
    if (want < 9007199254740992.0) /* 2^53: exact in a double */
        CHECK(v->valuedouble == want);
}

/* cJSON 1.7 reads at most 63 characters of a number: skip lines with a
 * longer one, which it refuses for that reason alone. */
static int long_number(const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int num =
            (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
        run = num ? run + 1 : 0;
        if (run >= 63)
            return 1;
    }
    return 0;
}

static void check_line(const char *line, size_t n, const eventlog_rec_t *r)
{
    if (long_number(line, n))
        return;
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithLengthOpts(line, n, &end, 0);
    CHECK(o && cJSON_IsObject(o));
    for (; end < line + n; end++)
        CHECK(*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n');
    check_str(o, "stage", r->stage);
    check_str(o, "kind", r->kind);
    check_str(o, "detail", r->detail);
    check_int(o, "job", (double)r->job, 0);
    check_int(o, "partition", r->partition, 0);
    check_int(o, "device", r->device, 0);
    check_int(o, "start_ns", (double)r->start_ns, 0);
    check_int(o, "end_ns", (double)r->end_ns, 0);
    check_int(o, "status", r->status, 0);
    check_int(o, "worker", r->worker, 1);
    cJSON_Delete(o);
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    eventlog_rec_t *recs = (eventlog_rec_t *)&recs; /* must come back NULL on failure */
    size_t n = 12345;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = eventlog_read_mem(&recs, &n, text, size, "fuzz.jsonl", &err);
    if (st != CUZK_OK) {
        CHECK(st == CUZK_ERR_PARSE || st == CUZK_ERR_NOMEM);
        CHECK(err.code == st && !strncmp(err.msg, "fuzz.jsonl:", 11));
        CHECK(recs == NULL && n == 0);
        return 0;
    }
    CHECK(n == 0 ? recs == NULL : recs != NULL);
    /* Line by line against cJSON, and each record through the writer. */
    size_t k = 0;
    for (const char *p = text, *end = text + size; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        if (!blank(p, len)) {
            CHECK(k < n);
            const eventlog_rec_t *r = &recs[k++];
            CHECK(eventlog_rec_check(r, &err) == CUZK_OK);
            check_line(p, len, r);
            char line[EVENTLOG_LINE_MAX];
            size_t ll;
            CHECK(eventlog_format(line, sizeof line, &ll, r, &err) == CUZK_OK);
            eventlog_rec_t *back = NULL;
            size_t nb = 0;
            CHECK(eventlog_read_mem(&back, &nb, line, ll, "re", &err) == CUZK_OK);
            CHECK(nb == 1 && same_rec(&back[0], r));
            free(back);
        }
        p = nl ? nl + 1 : end;
    }
    CHECK(k == n);
    free(recs);
    return 0;
}
