/* A minimal HTTP/1.x server (libmicrohttpd underneath) for the daemon's
 * read-only endpoints: GET /status (JSON) and GET /metrics (metrics.h).
 *
 * Requests. Only GET reaches the handler; any other method is answered
 * "405 Method Not Allowed" with "Allow: GET" by the server itself. The
 * handler gets the path percent-decoded and without its query string
 * ("/metrics?x=1" and "/%6detrics" are both "/metrics"), and fills in the
 * response: it starts as status 404, content type "text/plain;
 * charset=utf-8" and no body, so a handler that does not know a path
 * leaves it alone. A status outside 100..599 is answered 500.
 *
 * Connections. One thread per connection, at most HTTP_MAX_CONNECTIONS at
 * once (more are refused at accept), each closed after HTTP_TIMEOUT_S
 * seconds without traffic; HTTP/1.0 and 1.1 (keep-alive) both work.
 *
 * Rules for these functions:
 *  - argument order: outputs first, then inputs, cuzk_error_t *err last;
 *  - NULL: err may be NULL; ctx may be NULL; http_server_stop does
 *    nothing for NULL; every other pointer is required (CUZK_ERR_ARG);
 *  - thread safety: the handler runs on the server's connection threads,
 *    several at once, so it must be thread-safe itself; http_server_port
 *    may be called from any thread; http_server_stop needs
 *    http_server_start to have returned, and must not be called from the
 *    handler. */
#ifndef CUZK_HTTP_H
#define CUZK_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HTTP_MAX_CONNECTIONS 64
#define HTTP_TIMEOUT_S 10

typedef struct http_server http_server_t;

/* One request. In: method ("GET"), path ("/metrics"). Out: *status (HTTP
 * code), *content_type (a string that outlives the server, e.g. a
 * literal), *body (malloc'd: the server free()s it; or NULL) and
 * *body_len. */
typedef void (*http_handler_t)(void *ctx, const char *method, const char *path, int *status,
                               const char **content_type, char **body, size_t *body_len);

/* Starts serving on listen: "host:port" with an IPv4 address or a name
 * ("127.0.0.1:9820", "localhost:9820"), or "[v6 address]:port"
 * ("[::1]:9820"); port 0 picks a free port (http_server_port says which).
 * Returns: CUZK_OK; CUZK_ERR_ARG (an address it cannot parse or resolve);
 * CUZK_ERR_IO (the address cannot be bound: in use, not local, no
 * permission; the message has the address and the reason); CUZK_ERR_NOMEM. */
cuzk_status http_server_start(http_server_t **out, const char *listen, http_handler_t handler,
                              void *ctx, cuzk_error_t *err);
/* The bound port (the one chosen for port 0). */
uint16_t http_server_port(const http_server_t *srv);
/* Closes the listening socket and every connection (open ones included:
 * a client in the middle of a request sees the connection close), waits
 * for running handlers to return, and frees the server. */
void http_server_stop(http_server_t *srv);

#ifdef __cplusplus
}
#endif
#endif
