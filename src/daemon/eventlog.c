/* The stage event log (see include/cuzk/eventlog.h).
 *
 * The reader is a small strict JSON parser of its own rather than cJSON:
 * cJSON keeps numbers as doubles, which cannot hold every uint64 job id or
 * nanosecond time (monotonic times pass 2^53 ns after 104 days of uptime).
 * It accepts exactly RFC 8259 JSON (UTF-8 checked, nesting of skipped values
 * bounded), so every line it accepts is one cJSON accepts too; the fuzz
 * harness checks that. */
#include "cuzk/eventlog.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A line is one write(2): on a pipe that is atomic only up to PIPE_BUF. */
_Static_assert(EVENTLOG_LINE_MAX <= PIPE_BUF, "event log lines must fit PIPE_BUF");

/* Skipped values nest at most this deep (bounds the recursion). */
#define JSON_DEPTH_MAX 64

struct eventlog {
    int fd;
    int owns_fd;
    pthread_mutex_t mu; /* serialises the write(2) calls of one line */
    atomic_uint_least64_t dropped;
};

/* ---- records ---- */

/* name into a zeroed EVENTLOG_NAME_MAX field, cut to fit. */
static void name_copy(char *dst, const char *name)
{
    size_t n = strlen(name);
    if (n > EVENTLOG_NAME_MAX - 1) {
        n = EVENTLOG_NAME_MAX - 1;
        while (n && ((unsigned char)name[n] & 0xc0) == 0x80)
            n--; /* cut before a UTF-8 sequence, not inside it */
    }
    memcpy(dst, name, n);
}

void eventlog_rec_from_engine(eventlog_rec_t *out, const engine_event_t *ev)
{
    memset(out, 0, sizeof *out);
    out->job = ev->job;
    out->partition = ev->partition;
    out->device = ev->device;
    out->worker = -1;
    out->status = (int)ev->status;
    out->start_ns = ev->start_ns;
    out->end_ns = ev->end_ns;
    name_copy(out->stage, ev->stage_name ? ev->stage_name : engine_stage_str((int)ev->stage));
    if (ev->kind)
        name_copy(out->kind, ev->kind);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 when invalid:
 * overlong forms, surrogates and code points past U+10FFFF are refused
 * (RFC 3629 section 4). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    /* lead byte -> sequence length, smallest code point, payload bits */
    size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    static const unsigned min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < 0xc2 || c > 0xf4)
        return 0;
    unsigned cp = c & (0x7fu >> len);
    unsigned min = min_cp[len];
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

static int str_field_ok(const char *s, size_t cap)
{
    const char *nul = memchr(s, '\0', cap);
    if (!nul)
        return 0;
    size_t n = (size_t)(nul - s);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq((const unsigned char *)s + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

cuzk_status eventlog_rec_check(const eventlog_rec_t *rec, cuzk_error_t *err)
{
    if (!rec)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog: NULL record");
    if (!str_field_ok(rec->stage, sizeof rec->stage) || !rec->stage[0])
        return cuzk_error_set(
            err, CUZK_ERR_ARG,
            "eventlog: stage must be a non-empty UTF-8 string of at most %d bytes",
            EVENTLOG_NAME_MAX - 1);
    if (!str_field_ok(rec->kind, sizeof rec->kind))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "eventlog: kind must be a UTF-8 string of at most %d bytes",
                              EVENTLOG_NAME_MAX - 1);
    if (!str_field_ok(rec->detail, sizeof rec->detail))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "eventlog: detail must be a UTF-8 string of at most %d bytes",
                              EVENTLOG_DETAIL_MAX - 1);
    if (rec->partition < -1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog: partition %d below -1", rec->partition);
    if (rec->device < -1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog: device %d below -1", rec->device);
    if (rec->worker < -1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog: worker %d below -1", rec->worker);
    if (rec->status < 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog: negative status %d", rec->status);
    if (rec->end_ns < rec->start_ns)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog: end_ns %llu before start_ns %llu",
                              (unsigned long long)rec->end_ns, (unsigned long long)rec->start_ns);
    return CUZK_OK;
}

/* ---- writing ---- */

typedef struct outbuf {
    char *p;
    size_t cap, len;
    int overflow;
} outbuf_t;

static void out_bytes(outbuf_t *o, const char *s, size_t n)
{
    if (o->overflow || n >= o->cap - o->len) {
        o->overflow = 1;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

#define OUT_LIT(o, lit) out_bytes(o, lit, sizeof lit - 1)

static void out_fmt(outbuf_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_fmt(outbuf_t *o, const char *fmt, ...)
{
    if (o->overflow)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= o->cap - o->len)
        o->overflow = 1;
    else
        o->len += (size_t)k;
}

/* A JSON string: quotes, backslashes and control characters escaped, the
 * rest (valid UTF-8, checked before) as it is. */
static void out_json_str(outbuf_t *o, const char *s)
{
    OUT_LIT(o, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            OUT_LIT(o, "\\\"");
        else if (c == '\\')
            OUT_LIT(o, "\\\\");
        else if (c == '\n')
            OUT_LIT(o, "\\n");
        else if (c == '\t')
            OUT_LIT(o, "\\t");
        else if (c == '\r')
            OUT_LIT(o, "\\r");
        else if (c < 0x20)
            out_fmt(o, "\\u%04x", c);
        else
            out_bytes(o, s, 1);
    }
    OUT_LIT(o, "\"");
}

cuzk_status eventlog_format(char *buf, size_t cap, size_t *len, const eventlog_rec_t *rec,
                            cuzk_error_t *err)
{
    if (!buf || !len)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_format: NULL argument");
    cuzk_status st = eventlog_rec_check(rec, err);
    if (st != CUZK_OK)
        return st;
    if (cap == 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "eventlog_format: no room");
    outbuf_t o = {buf, cap, 0, 0};
    out_fmt(&o,
            "{\"job\":%llu,\"partition\":%d,\"device\":%d,\"stage\":", (unsigned long long)rec->job,
            rec->partition, rec->device);
    out_json_str(&o, rec->stage);
    out_fmt(&o, ",\"start_ns\":%llu,\"end_ns\":%llu,\"status\":%d",
            (unsigned long long)rec->start_ns, (unsigned long long)rec->end_ns, rec->status);
    if (rec->kind[0]) {
        OUT_LIT(&o, ",\"kind\":");
        out_json_str(&o, rec->kind);
    }
    if (rec->worker >= 0)
        out_fmt(&o, ",\"worker\":%d", rec->worker);
    if (rec->detail[0]) {
        OUT_LIT(&o, ",\"detail\":");
        out_json_str(&o, rec->detail);
    }
    OUT_LIT(&o, "}\n");
    if (o.overflow) {
        buf[0] = '\0';
        *len = 0;
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "eventlog_format: line longer than %zu bytes",
                              cap - 1);
    }
    buf[o.len] = '\0';
    *len = o.len;
    return CUZK_OK;
}

static cuzk_status log_new(eventlog_t **out, int fd, int owns, cuzk_error_t *err)
{
    eventlog_t *log = calloc(1, sizeof *log);
    if (!log)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "eventlog: out of memory");
    if (pthread_mutex_init(&log->mu, NULL) != 0) {
        free(log);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "eventlog: cannot make a mutex");
    }
    log->fd = fd;
    log->owns_fd = owns;
    atomic_init(&log->dropped, 0);
    *out = log;
    return CUZK_OK;
}

cuzk_status eventlog_open(eventlog_t **out, const char *path, cuzk_error_t *err)
{
    if (!out || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_open: NULL argument");
    *out = NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot open for appending: %s", path,
                              strerror(errno));
    cuzk_status st = log_new(out, fd, 1, err);
    if (st != CUZK_OK)
        close(fd);
    return st;
}

cuzk_status eventlog_open_fd(eventlog_t **out, int fd, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_open_fd: NULL argument");
    *out = NULL;
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_open_fd: bad descriptor %d", fd);
    return log_new(out, fd, 0, err);
}

cuzk_status eventlog_write(eventlog_t *log, const eventlog_rec_t *rec, cuzk_error_t *err)
{
    if (!log)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_write: NULL log");
    char line[EVENTLOG_LINE_MAX];
    size_t len;
    cuzk_status st = eventlog_format(line, sizeof line, &len, rec, err);
    if (st != CUZK_OK)
        return st;
    int e = 0;
    pthread_mutex_lock(&log->mu);
    /* A short write only happens on a full disk or a signal; the rest of the
     * line follows under the same lock so that it still reads whole. */
    for (size_t off = 0; off < len;) {
        ssize_t w = write(log->fd, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            e = w < 0 ? errno : EIO;
            break;
        }
        off += (size_t)w;
    }
    pthread_mutex_unlock(&log->mu);
    if (e)
        return cuzk_error_set(err, CUZK_ERR_IO, "eventlog: write failed: %s", strerror(e));
    return CUZK_OK;
}

uint64_t eventlog_dropped(eventlog_t *log)
{
    return log ? (uint64_t)atomic_load(&log->dropped) : 0;
}

void eventlog_close(eventlog_t *log)
{
    if (!log)
        return;
    if (log->owns_fd)
        close(log->fd);
    pthread_mutex_destroy(&log->mu);
    free(log);
}

void eventlog_engine_hook(void *ctx, const engine_event_t *ev)
{
    eventlog_t *log = ctx;
    if (!log || !ev)
        return;
    eventlog_rec_t rec;
    eventlog_rec_from_engine(&rec, ev);
    if (eventlog_write(log, &rec, NULL) != CUZK_OK)
        atomic_fetch_add(&log->dropped, 1);
}

/* ---- reading ---- */

typedef struct jp {
    const char *p, *line, *end; /* cursor, start and end of the line */
    char msg[160];              /* what went wrong, when a step returns -1 */
} jp_t;

static int jp_fail(jp_t *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int jp_fail(jp_t *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->msg, sizeof j->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static void jp_ws(jp_t *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
        j->p++;
}

static int jp_hex4(jp_t *j, unsigned *out)
{
    if (j->end - j->p < 4)
        return jp_fail(j, "truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *j->p++;
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return jp_fail(j, "bad hex digit in \\u escape");
    }
    *out = v;
    return 0;
}

/* Appends n bytes to out (cap bytes, NUL kept room for) or notes that the
 * string does not fit. out NULL: only validates. */
static void put(char *out, size_t cap, size_t *len, int *too_long, const char *s, size_t n)
{
    if (!out)
        return;
    if (*len + n >= cap) {
        *too_long = 1;
        return;
    }
    memcpy(out + *len, s, n);
    *len += n;
}

static int jp_escape(jp_t *j, char *out, size_t cap, size_t *len, int *too_long)
{
    if (j->p >= j->end)
        return jp_fail(j, "truncated escape");
    char c = *j->p++;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *f = c ? strchr(from, c) : NULL;
    if (f) {
        put(out, cap, len, too_long, &to[f - from], 1);
        return 0;
    }
    if (c != 'u')
        return jp_fail(j, "bad escape \\%c", c >= 0x20 && c < 0x7f ? c : '?');
    unsigned cp, lo;
    if (jp_hex4(j, &cp))
        return -1;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return jp_fail(j, "lone low surrogate in \\u escape");
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u')
            return jp_fail(j, "high surrogate without its low half");
        j->p += 2;
        if (jp_hex4(j, &lo))
            return -1;
        if (lo < 0xdc00 || lo > 0xdfff)
            return jp_fail(j, "high surrogate without its low half");
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    if (cp == 0)
        return jp_fail(j, "NUL (\\u0000) in a string");
    char u[4];
    size_t k = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    static const unsigned char lead[5] = {0, 0, 0xc0, 0xe0, 0xf0};
    for (size_t i = k - 1; i > 0; i--, cp >>= 6)
        u[i] = (char)(0x80 | (cp & 0x3f));
    u[0] = (char)(lead[k] | cp);
    put(out, cap, len, too_long, u, k);
    return 0;
}

/* A JSON string at the cursor (which is on its opening quote), decoded into
 * out (cap bytes, NUL-terminated; NULL: only checked). *too_long set when
 * it did not fit (the string is still checked to its end). */
static int jp_string(jp_t *j, char *out, size_t cap, int *too_long)
{
    size_t len = 0;
    *too_long = 0;
    j->p++;
    for (;;) {
        if (j->p >= j->end)
            return jp_fail(j, "unterminated string");
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') {
            j->p++;
            break;
        }
        if (c < 0x20)
            return jp_fail(j, "control character 0x%02x in a string", c);
        if (c == '\\') {
            j->p++;
            if (jp_escape(j, out, cap, &len, too_long))
                return -1;
            continue;
        }
        size_t k = utf8_seq((const unsigned char *)j->p, (size_t)(j->end - j->p));
        if (!k)
            return jp_fail(j, "invalid UTF-8 in a string");
        put(out, cap, &len, too_long, j->p, k);
        j->p += k;
    }
    if (out)
        out[len] = '\0';
    return 0;
}

typedef struct jnum {
    int neg, is_int, overflow;
    uint64_t mag; /* |value| when is_int and !overflow */
} jnum_t;

static int jp_digits(jp_t *j)
{
    const char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > s;
}

/* A JSON number (RFC 8259 section 6): -? int frac? exp?. */
static int jp_number(jp_t *j, jnum_t *n)
{
    memset(n, 0, sizeof *n);
    n->is_int = 1;
    if (j->p < j->end && *j->p == '-')
        n->neg = 1, j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9')
        return jp_fail(j, "bad number");
    if (*j->p == '0') {
        j->p++;
    } else {
        for (; j->p < j->end && *j->p >= '0' && *j->p <= '9'; j->p++) {
            unsigned d = (unsigned)(*j->p - '0');
            if (n->mag > (UINT64_MAX - d) / 10)
                n->overflow = 1;
            else
                n->mag = n->mag * 10 + d;
        }
    }
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        n->is_int = 0;
        if (!jp_digits(j))
            return jp_fail(j, "bad number: no digits after '.'");
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        n->is_int = 0;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!jp_digits(j))
            return jp_fail(j, "bad number: no exponent digits");
    }
    return 0;
}

static int jp_value(jp_t *j, int depth);

static int jp_literal(jp_t *j, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n) != 0)
        return jp_fail(j, "unexpected character");
    j->p += n;
    return 0;
}

/* An object or array at the cursor, skipped. */
static int jp_container(jp_t *j, int depth)
{
    char close = *j->p == '{' ? '}' : ']';
    if (depth >= JSON_DEPTH_MAX)
        return jp_fail(j, "values nested deeper than %d", JSON_DEPTH_MAX);
    j->p++;
    jp_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 0;
    }
    for (;;) {
        jp_ws(j);
        if (close == '}') {
            int tl;
            if (j->p >= j->end || *j->p != '"')
                return jp_fail(j, "expected a string key");
            if (jp_string(j, NULL, 0, &tl))
                return -1;
            jp_ws(j);
            if (j->p >= j->end || *j->p != ':')
                return jp_fail(j, "expected ':'");
            j->p++;
            jp_ws(j);
        }
        if (jp_value(j, depth + 1))
            return -1;
        jp_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return 0;
        }
        return jp_fail(j, "expected ',' or '%c'", close);
    }
}

/* Any JSON value at the cursor, skipped. */
static int jp_value(jp_t *j, int depth)
{
    if (j->p >= j->end)
        return jp_fail(j, "missing value");
    int tl;
    jnum_t n;
    switch (*j->p) {
    case '"': return jp_string(j, NULL, 0, &tl);
    case '{':
    case '[': return jp_container(j, depth);
    case 't': return jp_literal(j, "true");
    case 'f': return jp_literal(j, "false");
    case 'n': return jp_literal(j, "null");
    default:
        if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
            return jp_number(j, &n);
        return jp_fail(j, "unexpected character");
    }
}

enum field {
    F_JOB,
    F_PARTITION,
    F_DEVICE,
    F_STAGE,
    F_START,
    F_END,
    F_STATUS,
    F_KIND,
    F_WORKER,
    F_DETAIL,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {"job",      "partition", "device", "stage",
                                                 "start_ns", "end_ns",    "status", "kind",
                                                 "worker",   "detail"};
#define REQUIRED                                                                                   \
    ((1u << F_JOB) | (1u << F_PARTITION) | (1u << F_DEVICE) | (1u << F_STAGE) | (1u << F_START) |  \
     (1u << F_END) | (1u << F_STATUS))

/* An integer field: u64 fields take [0, 2^64), int fields [-1, INT_MAX]. */
static int jp_int_field(jp_t *j, const char *name, int is_u64, uint64_t *u, int *i)
{
    if (j->p >= j->end || (*j->p != '-' && (*j->p < '0' || *j->p > '9')))
        return jp_fail(j, "\"%s\" must be an integer", name);
    jnum_t n;
    if (jp_number(j, &n))
        return -1;
    if (!n.is_int)
        return jp_fail(j, "\"%s\" must be an integer", name);
    if (n.neg && n.mag != 0) {
        if (is_u64 || n.overflow || n.mag > 1)
            return jp_fail(j, "\"%s\" must be >= %d", name, is_u64 ? 0 : -1);
        *i = -1;
        return 0;
    }
    if (n.overflow || (!is_u64 && n.mag > INT_MAX))
        return jp_fail(j, "\"%s\" out of range", name);
    if (is_u64)
        *u = n.mag;
    else
        *i = (int)n.mag;
    return 0;
}

static int jp_str_field(jp_t *j, const char *name, char *out, size_t cap)
{
    int too_long;
    if (j->p >= j->end || *j->p != '"')
        return jp_fail(j, "\"%s\" must be a string", name);
    if (jp_string(j, out, cap, &too_long))
        return -1;
    if (too_long)
        return jp_fail(j, "\"%s\" longer than %zu bytes", name, cap - 1);
    return 0;
}

static int jp_field(jp_t *j, eventlog_rec_t *r, enum field f)
{
    const char *nm = field_names[f];
    switch (f) {
    case F_JOB: return jp_int_field(j, nm, 1, &r->job, NULL);
    case F_START: return jp_int_field(j, nm, 1, &r->start_ns, NULL);
    case F_END: return jp_int_field(j, nm, 1, &r->end_ns, NULL);
    case F_PARTITION: return jp_int_field(j, nm, 0, NULL, &r->partition);
    case F_DEVICE: return jp_int_field(j, nm, 0, NULL, &r->device);
    case F_WORKER: return jp_int_field(j, nm, 0, NULL, &r->worker);
    case F_STATUS:
        if (jp_int_field(j, nm, 0, NULL, &r->status))
            return -1;
        return r->status < 0 ? jp_fail(j, "\"status\" must be >= 0") : 0;
    case F_STAGE:
        if (jp_str_field(j, nm, r->stage, sizeof r->stage))
            return -1;
        return r->stage[0] ? 0 : jp_fail(j, "\"stage\" is empty");
    case F_KIND: return jp_str_field(j, nm, r->kind, sizeof r->kind);
    case F_DETAIL: return jp_str_field(j, nm, r->detail, sizeof r->detail);
    default: return jp_fail(j, "internal: unknown field");
    }
}

/* One non-blank line into r. */
static int jp_record(jp_t *j, eventlog_rec_t *r)
{
    memset(r, 0, sizeof *r);
    r->worker = -1;
    unsigned seen = 0;
    if (j->p >= j->end || *j->p != '{')
        return jp_fail(j, "expected '{'");
    j->p++;
    jp_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
    } else {
        for (;;) {
            char key[16];
            int too_long;
            jp_ws(j);
            if (j->p >= j->end || *j->p != '"')
                return jp_fail(j, "expected a string key");
            if (jp_string(j, key, sizeof key, &too_long))
                return -1;
            jp_ws(j);
            if (j->p >= j->end || *j->p != ':')
                return jp_fail(j, "expected ':'");
            j->p++;
            jp_ws(j);
            int f = F_COUNT;
            for (int i = 0; !too_long && i < F_COUNT; i++)
                if (!strcmp(key, field_names[i]))
                    f = i;
            if (f == F_COUNT) {
                if (jp_value(j, 1))
                    return -1;
            } else {
                if (seen & (1u << f))
                    return jp_fail(j, "\"%s\" given twice", field_names[f]);
                seen |= 1u << f;
                if (jp_field(j, r, (enum field)f))
                    return -1;
            }
            jp_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == '}') {
                j->p++;
                break;
            }
            return jp_fail(j, "expected ',' or '}'");
        }
    }
    jp_ws(j);
    if (j->p != j->end)
        return jp_fail(j, "text after the object");
    for (int i = 0; i < F_COUNT; i++)
        if ((REQUIRED & (1u << i)) && !(seen & (1u << i)))
            return jp_fail(j, "missing \"%s\"", field_names[i]);
    if (r->end_ns < r->start_ns)
        return jp_fail(j, "end_ns %llu before start_ns %llu", (unsigned long long)r->end_ns,
                       (unsigned long long)r->start_ns);
    return 0;
}

cuzk_status eventlog_read_mem(eventlog_rec_t **recs, size_t *n, const char *data, size_t len,
                              const char *name, cuzk_error_t *err)
{
    if (!recs || !n || (!data && len) || !name)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_read_mem: NULL argument");
    *recs = NULL;
    *n = 0;
    eventlog_rec_t *v = NULL;
    size_t count = 0, cap = 0;
    const char *p = data, *end = data + len;
    for (size_t line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        jp_t j = {p, p, le, ""};
        jp_ws(&j);
        if (j.p < le) {
            if (count == cap) {
                size_t nc = cap ? 2 * cap : 64;
                eventlog_rec_t *nv = nc <= SIZE_MAX / sizeof *v ? realloc(v, nc * sizeof *v) : NULL;
                if (!nv) {
                    free(v);
                    return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory at line %zu",
                                          name, line);
                }
                v = nv;
                cap = nc;
            }
            if (jp_record(&j, &v[count])) {
                free(v);
                return cuzk_error_set(err, CUZK_ERR_PARSE, "%s:%zu:%zu: %s", name, line,
                                      (size_t)(j.p - j.line) + 1, j.msg);
            }
            count++;
        }
        p = nl ? nl + 1 : end;
    }
    if (!count) {
        free(v);
        v = NULL;
    }
    *recs = v;
    *n = count;
    return CUZK_OK;
}

cuzk_status eventlog_read(eventlog_rec_t **recs, size_t *n, const char *path, cuzk_error_t *err)
{
    if (!recs || !n || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "eventlog_read: NULL argument");
    *recs = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 65536) {
            size_t nc = cap ? 2 * cap : 65536;
            char *nb = nc > cap ? realloc(buf, nc) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory", path);
            }
            buf = nb;
            cap = nc;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: read failed", path);
    }
    cuzk_status st = eventlog_read_mem(recs, n, buf, len, path, err);
    free(buf);
    return st;
}
