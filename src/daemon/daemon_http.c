/* The daemon's HTTP endpoints (http.h): GET /status (daemon_status_json)
 * and GET /metrics (daemon_metrics_text); any other path is the server's
 * 404. The handler runs on the server's connection threads, several at
 * once: both producers are thread-safe. */
#include <string.h>

#include "daemon/daemon_internal.h"

static void handler(void *ctx, const char *method, const char *path, int *status,
                    const char **content_type, char **body, size_t *body_len)
{
    daemon_t *d = ctx;
    (void)method; /* only GET reaches a handler */
    cuzk_status st;
    if (!strcmp(path, "/status")) {
        st = daemon_status_json(d, body, body_len, NULL);
        *content_type = "application/json";
    } else if (!strcmp(path, "/metrics")) {
        st = daemon_metrics_text(d, body, body_len, NULL);
        *content_type = METRICS_CONTENT_TYPE;
    } else {
        return;
    }
    *status = st == CUZK_OK ? 200 : 500;
}

cuzk_status dmn_http_start(daemon_t *d, cuzk_error_t *err)
{
    cuzk_error_t e = {0};
    cuzk_status st = http_server_start(&d->http, d->cfg.daemon.http_listen, handler, d, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "daemon.http_listen: %s", e.msg);
    dmn_log(d, CONFIG_LOG_INFO, "http on %s (port %u)", d->cfg.daemon.http_listen,
            (unsigned)http_server_port(d->http));
    return CUZK_OK;
}
