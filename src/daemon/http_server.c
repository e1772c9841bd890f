/* The HTTP endpoint (see include/cuzk/http.h).
 *
 * libmicrohttpd binds the socket itself (MHD_OPTION_SOCK_ADDR). It reports
 * a failed start only as NULL, so the address is first bound here once,
 * briefly, to turn a bad address into a message with its errno text. */
#include "cuzk/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#define ADDR_MAX 300
#define DEFAULT_TYPE "text/plain; charset=utf-8"

struct http_server {
    struct MHD_Daemon *d;
    http_handler_t handler;
    void *ctx;
    uint16_t port;
    pthread_mutex_t log_mu; /* MHD logs from any of its threads */
    char last_log[CUZK_ERRMSG_MAX];
};

/* ---- the listen address ---- */

typedef struct listen_addr {
    struct sockaddr_storage ss;
    socklen_t len;
} listen_addr_t;

static cuzk_status parse_listen(listen_addr_t *out, const char *listen, cuzk_error_t *err)
{
    char host[ADDR_MAX];
    const char *port;
    size_t n = strlen(listen);
    int v6 = 0;
    if (n >= sizeof host)
        return cuzk_error_set(err, CUZK_ERR_ARG, "listen address too long");
    if (listen[0] == '[') {
        const char *close = strchr(listen, ']');
        if (!close || close[1] != ':')
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "listen address '%s': expected [v6 address]:port", listen);
        memcpy(host, listen + 1, (size_t)(close - listen - 1));
        host[close - listen - 1] = '\0';
        port = close + 2;
        v6 = 1;
    } else {
        const char *colon = strrchr(listen, ':');
        if (!colon || colon == listen)
            return cuzk_error_set(err, CUZK_ERR_ARG, "listen address '%s': expected host:port",
                                  listen);
        memcpy(host, listen, (size_t)(colon - listen));
        host[colon - listen] = '\0';
        if (strchr(host, ':'))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "listen address '%s': put an IPv6 address in brackets", listen);
        port = colon + 1;
    }
    char *end;
    errno = 0;
    unsigned long p = strtoul(port, &end, 10);
    if (!*port || *end || errno || p > 65535 || port[0] == '-' || port[0] == '+')
        return cuzk_error_set(err, CUZK_ERR_ARG, "listen address '%s': bad port '%s'", listen,
                              port);
    if (!host[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "listen address '%s': no host", listen);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = v6 ? AF_INET6 : AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | (v6 ? AI_NUMERICHOST : 0);
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0 || !res)
        return cuzk_error_set(err, CUZK_ERR_ARG, "listen address '%s': %s", listen,
                              rc ? gai_strerror(rc) : "no address");
    if (res->ai_addrlen > sizeof out->ss) {
        freeaddrinfo(res);
        return cuzk_error_set(err, CUZK_ERR_ARG, "listen address '%s': unusable", listen);
    }
    memset(out, 0, sizeof *out);
    memcpy(&out->ss, res->ai_addr, res->ai_addrlen);
    out->len = (socklen_t)res->ai_addrlen;
    freeaddrinfo(res);
    return CUZK_OK;
}

/* Binds the address once with the options MHD will use, to learn why it
 * cannot be bound (port 0: only that the address is local). */
static cuzk_status probe_bind(const listen_addr_t *a, const char *listen, cuzk_error_t *err)
{
    int fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot listen on %s: socket: %s", listen,
                              strerror(errno));
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (a->ss.ss_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    int rc = bind(fd, (const struct sockaddr *)&a->ss, a->len);
    int e = errno;
    close(fd);
    if (rc != 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot listen on %s: %s", listen, strerror(e));
    return CUZK_OK;
}

/* ---- requests ---- */

static void mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    http_server_t *s = cls;
    pthread_mutex_lock(&s->log_mu);
    vsnprintf(s->last_log, sizeof s->last_log, fmt, ap);
    size_t n = strlen(s->last_log);
    while (n && (s->last_log[n - 1] == '\n' || s->last_log[n - 1] == '\r'))
        s->last_log[--n] = '\0';
    pthread_mutex_unlock(&s->log_mu);
}

/* body: malloc'd (freed here, whatever happens) or NULL; fixed: a literal
 * used instead when body is NULL. */
static enum MHD_Result respond(struct MHD_Connection *c, unsigned status, const char *type,
                               char *body, size_t len, const char *fixed)
{
    struct MHD_Response *r;
    if (body)
        r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    else
        r = MHD_create_response_from_buffer(fixed ? strlen(fixed) : 0, (void *)(fixed ? fixed : ""),
                                            MHD_RESPMEM_PERSISTENT);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET");
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **req_cls)
{
    http_server_t *s = cls;
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)req_cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0)
        return respond(c, MHD_HTTP_METHOD_NOT_ALLOWED, DEFAULT_TYPE, NULL, 0,
                       "method not allowed\n");
    int status = MHD_HTTP_NOT_FOUND;
    const char *type = DEFAULT_TYPE;
    char *body = NULL;
    size_t len = 0;
    s->handler(s->ctx, method, url, &status, &type, &body, &len);
    if (status < 100 || status > 599) {
        free(body);
        body = NULL;
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        type = DEFAULT_TYPE;
    }
    if (!body)
        len = 0;
    return respond(c, (unsigned)status, type ? type : DEFAULT_TYPE, body, len, NULL);
}

/* ---- the server ---- */

cuzk_status http_server_start(http_server_t **out, const char *listen, http_handler_t handler,
                              void *ctx, cuzk_error_t *err)
{
    if (!out || !listen || !handler)
        return cuzk_error_set(err, CUZK_ERR_ARG, "http_server_start: NULL argument");
    *out = NULL;
    listen_addr_t a;
    cuzk_status st = parse_listen(&a, listen, err);
    if (st == CUZK_OK)
        st = probe_bind(&a, listen, err);
    if (st != CUZK_OK)
        return st;
    http_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "http: out of memory");
    if (pthread_mutex_init(&s->log_mu, NULL) != 0) {
        free(s);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "http: cannot make a mutex");
    }
    s->handler = handler;
    s->ctx = ctx;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_POLL | MHD_USE_ERROR_LOG;
    if (a.ss.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    s->d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a.ss, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)HTTP_MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_TIMEOUT_S,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)HTTP_MAX_CONNECTIONS, MHD_OPTION_END);
    if (!s->d) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "cannot listen on %s: %s", listen,
                            s->last_log[0] ? s->last_log : "libmicrohttpd failed to start");
        pthread_mutex_destroy(&s->log_mu);
        free(s);
        return st;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : 0;
    *out = s;
    return CUZK_OK;
}

uint16_t http_server_port(const http_server_t *srv)
{
    return srv ? srv->port : 0;
}

void http_server_stop(http_server_t *srv)
{
    if (!srv)
        return;
    MHD_stop_daemon(srv->d);
    pthread_mutex_destroy(&srv->log_mu);
    free(srv);
}
