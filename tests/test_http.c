/* HTTP endpoint tests (include/cuzk/http.h).
 *
 * A server on an ephemeral loopback port, fetched by a raw TCP client
 * written here (HTTP/1.0 and 1.1 requests by hand): status line, headers
 * and body of a 200, the handler's 404, the server's 405 (with Allow, and
 * the handler never called), a bad status turned into 500, a 1 MiB body,
 * the path percent-decoded and without its query string, /metrics from a real registry;
 * 8 clients at once, proved concurrent by a barrier inside the handler;
 * IPv6 where the loopback has it; listen strings refused as CUZK_ERR_ARG
 * and bind failures (port in use, an address not on this host) as
 * CUZK_ERR_IO naming the address; stop while idle, with a half-sent
 * request, with an idle keep-alive connection, and during a slow handler,
 * none of which may hang (a watchdog fails the run). Only loopback
 * addresses are contacted. */
#include "test_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/http.h"
#include "cuzk/metrics.h"

#define BIG (1u << 20)
#define CLIENTS 8

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the handler ---- */

typedef struct app {
    atomic_int calls;
    metrics_t *metrics;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int inside; /* handlers waiting at the barrier */
    int slow_ms;
} app_t;

static char *dup_body(const char *s, size_t *len)
{
    *len = strlen(s);
    char *b = malloc(*len);
    if (b)
        memcpy(b, s, *len);
    return b;
}

/* Waits (5 s at most) until CLIENTS handlers are inside at once. */
static int barrier(app_t *a)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 5;
    pthread_mutex_lock(&a->mu);
    a->inside++;
    pthread_cond_broadcast(&a->cv);
    int rc = 0;
    while (a->inside < CLIENTS && rc == 0)
        rc = pthread_cond_timedwait(&a->cv, &a->mu, &dl);
    int ok = a->inside >= CLIENTS;
    pthread_mutex_unlock(&a->mu);
    return ok;
}

static void handler(void *ctx, const char *method, const char *path, int *status, const char **type,
                    char **body, size_t *len)
{
    app_t *a = ctx;
    atomic_fetch_add(&a->calls, 1);
    if (strcmp(method, "GET"))
        return; /* never: the server answers other methods */
    if (!strcmp(path, "/x")) {
        *status = 200;
        *body = dup_body("hello x\n", len);
    } else if (!strcmp(path, "/status")) {
        *status = 200;
        *type = "application/json";
        *body = dup_body("{\"ok\":true}", len);
    } else if (!strcmp(path, "/metrics")) {
        if (metrics_render(a->metrics, body, len, NULL) == CUZK_OK) {
            *status = 200;
            *type = METRICS_CONTENT_TYPE;
        }
    } else if (!strcmp(path, "/big")) {
        *body = malloc(BIG);
        if (*body) {
            for (size_t i = 0; i < BIG; i++)
                (*body)[i] = (char)('a' + i % 26);
            *len = BIG;
            *status = 200;
        }
    } else if (!strcmp(path, "/barrier")) {
        *status = barrier(a) ? 200 : 503;
    } else if (!strcmp(path, "/slow")) {
        usleep((useconds_t)a->slow_ms * 1000);
        *status = 200;
        *body = dup_body("slow\n", len);
    } else if (!strcmp(path, "/bad")) {
        *status = 42;
        *body = dup_body("not sent", len);
    }
}

static void app_init(app_t *a)
{
    memset(a, 0, sizeof *a);
    atomic_init(&a->calls, 0);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    a->slow_ms = 300;
}

static void app_fini(app_t *a)
{
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
}

/* ---- a raw client ---- */

static int dial(uint16_t port, int v6)
{
    int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int rc;
    if (v6) {
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons(port)};
        a.sin6_addr = in6addr_loopback;
        rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    }
    if (rc != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *s)
{
    for (size_t off = 0, n = strlen(s); off < n;) {
        ssize_t w = send(fd, s + off, n - off, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        off += (size_t)w;
    }
    return 0;
}

typedef struct resp {
    char *raw; /* NUL-terminated */
    size_t len;
    int status;
    const char *body; /* inside raw */
    size_t body_len;
} resp_t;

/* Reads to EOF (5 s timeout per read). Returns the bytes read, -1 on an
 * error before any. */
static ssize_t read_all(int fd, char **out)
{
    size_t cap = 4096, len = 0;
    char *b = malloc(cap + 1);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            b = realloc(b, cap + 1);
        }
        ssize_t k = recv(fd, b + len, cap - len, 0);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    b[len] = '\0';
    *out = b;
    return (ssize_t)len;
}

static void parse_resp(resp_t *r)
{
    r->status = -1;
    r->body = NULL;
    r->body_len = 0;
    int maj, min, code;
    if (sscanf(r->raw, "HTTP/%d.%d %d", &maj, &min, &code) == 3)
        r->status = code;
    const char *e = strstr(r->raw, "\r\n\r\n");
    if (e) {
        r->body = e + 4;
        r->body_len = r->len - (size_t)(r->body - r->raw);
    }
}

/* One request on a fresh connection, read to the server's close. */
static resp_t fetch(uint16_t port, int v6, const char *req)
{
    resp_t r = {0};
    int fd = dial(port, v6);
    assert_true(fd >= 0);
    assert_int_equal(send_all(fd, req), 0);
    ssize_t n = read_all(fd, &r.raw);
    close(fd);
    assert_true(n >= 0);
    r.len = (size_t)n;
    parse_resp(&r);
    return r;
}

static resp_t get(uint16_t port, const char *path)
{
    char req[256];
    snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    return fetch(port, 0, req);
}

/* The header's value (case-insensitive name), copied into out. */
static int header(const resp_t *r, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    const char *end = r->body ? r->body : r->raw + r->len;
    for (const char *p = strstr(r->raw, "\r\n"); p && p + 2 < end; p = strstr(p + 2, "\r\n")) {
        const char *h = p + 2;
        if (!strncasecmp(h, name, nl) && h[nl] == ':') {
            const char *v = h + nl + 1;
            while (*v == ' ')
                v++;
            const char *ve = strstr(v, "\r\n");
            size_t k = (size_t)(ve - v);
            if (k >= cap)
                k = cap - 1;
            memcpy(out, v, k);
            out[k] = '\0';
            return 1;
        }
    }
    return 0;
}

static void assert_header(const resp_t *r, const char *name, const char *want)
{
    char v[256];
    if (!header(r, name, v, sizeof v))
        fail_msg("no %s header in:\n%s", name, r->raw);
    assert_string_equal(v, want);
}

/* ---- tests ---- */

static http_server_t *start(app_t *a, const char *listen)
{
    http_server_t *s = NULL;
    cuzk_error_t err = {0};
    if (http_server_start(&s, listen, handler, a, &err) != CUZK_OK)
        fail_msg("start on %s: %s", listen, err.msg);
    assert_true(http_server_port(s) != 0);
    return s;
}

static void test_requests(void **state)
{
    (void)state;
    app_t a;
    app_init(&a);
    assert_int_equal(metrics_new(&a.metrics, NULL), CUZK_OK);
    metrics_spec_t sp = {METRICS_GAUGE, "cuzk_up", "Up.", NULL, 0, NULL, 0};
    metrics_family_t *f;
    metrics_series_t *s;
    assert_int_equal(metrics_register(a.metrics, &f, &sp, NULL), CUZK_OK);
    assert_int_equal(metrics_series(f, &s, NULL, NULL), CUZK_OK);
    metrics_set(s, 1);
    http_server_t *srv = start(&a, "127.0.0.1:0");
    uint16_t port = http_server_port(srv);

    resp_t r = get(port, "/x");
    assert_true(!strncmp(r.raw, "HTTP/1.0 200 OK\r\n", 17) ||
                !strncmp(r.raw, "HTTP/1.1 200 OK\r\n", 17));
    assert_int_equal(r.status, 200);
    assert_header(&r, "Content-Type", "text/plain; charset=utf-8");
    assert_header(&r, "Content-Length", "8");
    assert_header(&r, "Cache-Control", "no-store");
    assert_int_equal(r.body_len, 8);
    assert_memory_equal(r.body, "hello x\n", 8);
    free(r.raw);

    r = get(port, "/x?query=1&b");
    assert_int_equal(r.status, 200);
    free(r.raw);
    r = get(port, "/%78"); /* percent-decoded: "/x" */
    assert_int_equal(r.status, 200);
    free(r.raw);

    r = get(port, "/status");
    assert_int_equal(r.status, 200);
    assert_header(&r, "Content-Type", "application/json");
    assert_string_equal(r.body, "{\"ok\":true}");
    free(r.raw);

    r = get(port, "/metrics");
    assert_int_equal(r.status, 200);
    assert_header(&r, "Content-Type", METRICS_CONTENT_TYPE);
    assert_string_equal(r.body, "# HELP cuzk_up Up.\n# TYPE cuzk_up gauge\ncuzk_up 1\n");
    free(r.raw);

    r = get(port, "/nope");
    assert_int_equal(r.status, 404);
    assert_int_equal(r.body_len, 0);
    free(r.raw);

    r = get(port, "/bad");
    assert_int_equal(r.status, 500);
    assert_null(strstr(r.raw, "not sent"));
    free(r.raw);

    r = get(port, "/big");
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, BIG);
    for (size_t i = 0; i < BIG; i++)
        if (r.body[i] != (char)('a' + i % 26))
            fail_msg("big body differs at %zu", i);
    free(r.raw);

    /* HTTP/1.1 with a Host header, closed by the client's request. */
    r = fetch(port, 0, "GET /x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assert_true(!strncmp(r.raw, "HTTP/1.1 200 OK\r\n", 17));
    assert_memory_equal(r.body, "hello x\n", 8);
    free(r.raw);

    int calls = atomic_load(&a.calls);
    static const char *const not_get[] = {"POST /x HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc",
                                          "DELETE /x HTTP/1.0\r\n\r\n", "HEAD /x HTTP/1.0\r\n\r\n",
                                          "PUT /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n"};
    for (size_t i = 0; i < sizeof not_get / sizeof not_get[0]; i++) {
        r = fetch(port, 0, not_get[i]);
        assert_int_equal(r.status, 405);
        assert_header(&r, "Allow", "GET");
        free(r.raw);
    }
    assert_int_equal(atomic_load(&a.calls), calls); /* the handler saw none of them */

    http_server_stop(srv);
    metrics_free(a.metrics);
    app_fini(&a);
}

typedef struct client_arg {
    uint16_t port;
    int status;
} client_arg_t;

static void *client(void *p)
{
    client_arg_t *c = p;
    c->status = -1;
    int fd = dial(c->port, 0);
    if (fd < 0)
        return NULL;
    char *raw = NULL;
    if (send_all(fd, "GET /barrier HTTP/1.0\r\n\r\n") == 0 && read_all(fd, &raw) > 0) {
        int maj, min;
        if (sscanf(raw, "HTTP/%d.%d %d", &maj, &min, &c->status) != 3)
            c->status = -1;
    }
    free(raw);
    close(fd);
    return NULL;
}

static void test_concurrent_clients(void **state)
{
    (void)state;
    app_t a;
    app_init(&a);
    http_server_t *srv = start(&a, "127.0.0.1:0");
    pthread_t t[CLIENTS];
    client_arg_t c[CLIENTS];
    for (int i = 0; i < CLIENTS; i++) {
        c[i].port = http_server_port(srv);
        assert_int_equal(pthread_create(&t[i], NULL, client, &c[i]), 0);
    }
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(t[i], NULL);
        /* 200: all CLIENTS handlers were inside at once */
        assert_int_equal(c[i].status, 200);
    }
    http_server_stop(srv);
    app_fini(&a);
}

static void test_ipv6(void **state)
{
    (void)state;
    app_t a;
    app_init(&a);
    http_server_t *srv = NULL;
    cuzk_error_t err = {0};
    if (http_server_start(&srv, "[::1]:0", handler, &a, &err) != CUZK_OK) {
        print_message("no IPv6 loopback here (%s): skipped\n", err.msg);
        app_fini(&a);
        return;
    }
    resp_t r = fetch(http_server_port(srv), 1, "GET /x HTTP/1.0\r\n\r\n");
    assert_int_equal(r.status, 200);
    assert_memory_equal(r.body, "hello x\n", 8);
    free(r.raw);
    http_server_stop(srv);
    /* A name that resolves through /etc/hosts. */
    srv = start(&a, "localhost:0");
    http_server_stop(srv);
    app_fini(&a);
}

static void test_listen_errors(void **state)
{
    (void)state;
    app_t a;
    app_init(&a);
    static const char *const bad[] = {"nohostport",     "127.0.0.1:",   "127.0.0.1:99999",
                                      "127.0.0.1:-1",   "127.0.0.1:8x", "::1:80",
                                      "[::1]80",        "[::1:80",      ":80",
                                      "[127.0.0.1]:80", "[]:80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        http_server_t *s = (http_server_t *)&a;
        cuzk_error_t err = {0};
        cuzk_status st = http_server_start(&s, bad[i], handler, &a, &err);
        if (st != CUZK_ERR_ARG || s)
            fail_msg("'%s': status %d (%s), wanted CUZK_ERR_ARG", bad[i], (int)st, err.msg);
    }
    /* In use. */
    http_server_t *s1 = start(&a, "127.0.0.1:0");
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%u", (unsigned)http_server_port(s1));
    http_server_t *s2 = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(http_server_start(&s2, addr, handler, &a, &err), CUZK_ERR_IO);
    assert_null(s2);
    assert_non_null(strstr(err.msg, addr));
    assert_non_null(strstr(err.msg, "in use"));
    http_server_stop(s1);
    /* Not an address of this host (TEST-NET-1, RFC 5737: never routed). */
    assert_int_equal(http_server_start(&s2, "192.0.2.1:0", handler, &a, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "192.0.2.1:0"));
    assert_int_equal(http_server_start(&s2, NULL, handler, &a, &err), CUZK_ERR_ARG);
    assert_int_equal(http_server_start(&s2, "127.0.0.1:0", NULL, &a, &err), CUZK_ERR_ARG);
    http_server_stop(NULL);
    assert_int_equal(http_server_port(NULL), 0);
    app_fini(&a);
}

/* A stop must not wait for HTTP_TIMEOUT_S or for a client. */
static void timed_stop(http_server_t *srv, const char *what, double limit_s)
{
    double t0 = now_s();
    http_server_stop(srv);
    double dt = now_s() - t0;
    if (dt > limit_s)
        fail_msg("stop %s took %.2f s", what, dt);
}

typedef struct slow_arg {
    uint16_t port;
    int status;
} slow_arg_t;

static void *slow_client(void *p)
{
    slow_arg_t *c = p;
    c->status = -2;
    int fd = dial(c->port, 0);
    if (fd < 0)
        return NULL;
    char *raw = NULL;
    c->status = -1;
    if (send_all(fd, "GET /slow HTTP/1.0\r\n\r\n") == 0 && read_all(fd, &raw) > 0) {
        int maj, min;
        if (sscanf(raw, "HTTP/%d.%d %d", &maj, &min, &c->status) != 3)
            c->status = -1;
    }
    free(raw);
    close(fd);
    return NULL;
}

static void test_stop(void **state)
{
    (void)state;
    app_t a;
    app_init(&a);
    /* Idle. */
    timed_stop(start(&a, "127.0.0.1:0"), "idle", 2);

    /* A half-sent request. */
    http_server_t *srv = start(&a, "127.0.0.1:0");
    int fd = dial(http_server_port(srv), 0);
    assert_true(fd >= 0);
    assert_int_equal(send_all(fd, "GET /x HTTP/1.1\r\nHost: a\r\n"), 0);
    usleep(100 * 1000); /* let the server take it */
    timed_stop(srv, "with a half-sent request", 3);
    char *raw = NULL;
    read_all(fd, &raw); /* the server closed it: EOF or reset, no hang */
    assert_null(strstr(raw, "200 OK"));
    free(raw);
    close(fd);

    /* An idle keep-alive connection after a full exchange. */
    srv = start(&a, "127.0.0.1:0");
    fd = dial(http_server_port(srv), 0);
    assert_true(fd >= 0);
    assert_int_equal(send_all(fd, "GET /x HTTP/1.1\r\nHost: a\r\n\r\n"), 0);
    char buf[512];
    ssize_t k = 0, got = 0;
    while (got < (ssize_t)sizeof buf - 1 &&
           (k = recv(fd, buf + got, sizeof buf - 1 - (size_t)got, 0)) > 0) {
        got += k;
        buf[got] = '\0';
        if (strstr(buf, "hello x\n"))
            break;
    }
    assert_non_null(strstr(buf, "HTTP/1.1 200 OK"));
    timed_stop(srv, "with an idle keep-alive connection", 3);
    close(fd);

    /* During a slow handler: the stop waits for it, then returns. */
    srv = start(&a, "127.0.0.1:0");
    slow_arg_t c = {http_server_port(srv), 0};
    pthread_t t;
    /* Read before the client starts: a fast client may reach the handler first. */
    int before = atomic_load(&a.calls);
    assert_int_equal(pthread_create(&t, NULL, slow_client, &c), 0);
    for (int i = 0; i < 10000 && atomic_load(&a.calls) == before; i++) /* slow under TSan */
        usleep(1000);
    assert_true(atomic_load(&a.calls) > before); /* the handler is running */
    timed_stop(srv, "during a slow handler", 3);
    pthread_join(t, NULL);
    assert_true(c.status == 200 || c.status == -1); /* answered, or cut off: never a hang */
    app_fini(&a);
}

int main(void)
{
    tu_init("test_http");
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "all tests", 60, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_requests), cmocka_unit_test(test_concurrent_clients),
        cmocka_unit_test(test_ipv6),     cmocka_unit_test(test_listen_errors),
        cmocka_unit_test(test_stop),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tu_watchdog_stop(&wd);
    return failed;
}
