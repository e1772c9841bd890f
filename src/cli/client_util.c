/* Shared parts of the daemon client commands (see client_util.h). */
#include "client_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"

const char CLIENT_CONN_USAGE[] =
    "connection: --addr TARGET      the daemon: unix:///path.sock or host:port\n"
    "                               (default $" CLIENT_ADDR_ENV ", else " CLIENT_ADDR_DEFAULT ")\n"
    "            --timeout-ms N     time limit (0: none)\n"
    "            --tls-ca FILE      TLS: PEM roots the daemon's certificate must chain to\n"
    "            --tls-cert FILE --tls-key FILE   TLS: a client certificate\n"
    "            --tls-server-name NAME           TLS: name to check instead of the host\n";

void client_conn_default(client_conn_t *c)
{
    memset(c, 0, sizeof *c);
    const char *env = getenv(CLIENT_ADDR_ENV);
    c->addr = env && env[0] ? env : CLIENT_ADDR_DEFAULT;
    c->timeout_ms = -1;
}

int client_parse_long(long *out, const char *s, long lo, long hi)
{
    if (!s || !*s)
        return 0;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

int client_conn_take(client_conn_t *c, const char *cmd, int argc, char **argv, int *i)
{
    static const char *const names[] = {"--addr",     "--timeout-ms", "--tls-ca",
                                        "--tls-cert", "--tls-key",    "--tls-server-name"};
    const char *o = argv[*i];
    size_t k = 0, n = sizeof names / sizeof names[0];
    while (k < n && strcmp(o, names[k]))
        k++;
    if (k == n)
        return 0;
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!v || !v[0]) {
        fprintf(stderr, "cuzk %s: %s: needs a value\n", cmd, o);
        return -1;
    }
    const char **dst[] = {&c->addr,     NULL,        &c->tls_ca,
                          &c->tls_cert, &c->tls_key, &c->tls_server_name};
    if (dst[k]) {
        *dst[k] = v;
    } else if (!client_parse_long(&c->timeout_ms, v, 0, CLIENT_TIMEOUT_MS_MAX)) {
        fprintf(stderr, "cuzk %s: %s: '%s' is not a count of milliseconds (0..%ld)\n", cmd, o, v,
                CLIENT_TIMEOUT_MS_MAX);
        return -1;
    }
    *i += 1;
    return 1;
}

int client_timeout(const client_conn_t *c, int def)
{
    return c->timeout_ms >= 0 ? (int)c->timeout_ms : def;
}

cuzk_status client_connect(rpc_client_t **out, const client_conn_t *c, cuzk_error_t *err)
{
    rpc_client_opts_t o;
    rpc_client_opts_default(&o);
    o.tls_root_cert_path = c->tls_ca;
    o.tls_cert_path = c->tls_cert;
    o.tls_key_path = c->tls_key;
    o.tls_server_name = c->tls_server_name;
    if (!c->tls_ca && (c->tls_cert || c->tls_key || c->tls_server_name))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "--tls-cert, --tls-key and --tls-server-name need --tls-ca");
    return rpc_client_new(out, c->addr, &o, err);
}

int client_unreachable(const rpc_status_t *st)
{
    return st && st->code == GRPC_STATUS_UNAVAILABLE;
}

int client_call_fail(const char *cmd, const client_conn_t *c, const char *method, cuzk_status s,
                     const rpc_status_t *st, const cuzk_error_t *err)
{
    if (client_unreachable(st))
        fprintf(stderr, "cuzk %s: cannot reach %s: %s (is the daemon running?)\n", cmd, c->addr,
                st->message[0] ? st->message : "unavailable");
    else if (st && st->code == GRPC_STATUS_DEADLINE_EXCEEDED)
        fprintf(stderr, "cuzk %s: %s: DEADLINE_EXCEEDED: no answer from %s in time%s%s\n", cmd,
                method, c->addr, st->message[0] ? ": " : "", st->message);
    else if (st && st->code != GRPC_STATUS_OK && st->code != GRPC_STATUS_UNKNOWN)
        fprintf(stderr, "cuzk %s: %s: %s: %s\n", cmd, method, rpc_status_code_str(st->code),
                st->message);
    else /* not sent, or a reply that does not unpack */
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, method,
                err && err->msg[0] ? err->msg : cuzk_status_str(s));
    return CLI_USAGE;
}

/* ---- enums ---- */

static const struct {
    const char *name;
    Cuzk__V1__Priority v;
} PRIORITIES[] = {{"critical", CUZK__V1__PRIORITY__CRITICAL},
                  {"high", CUZK__V1__PRIORITY__HIGH},
                  {"normal", CUZK__V1__PRIORITY__NORMAL},
                  {"low", CUZK__V1__PRIORITY__LOW}};

static const struct {
    const char *name;
    Cuzk__V1__ProofKind v;
} KINDS[] = {{"groth16", CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT},
             {"porep", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT},
             {"snap-deals", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE}, /* gen-vanilla's name */
             {"snapdeals", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE},
             {"window-post", CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION},
             {"winning-post", CUZK__V1__PROOF_KIND__WINNING_POST}};

int client_priority_parse(Cuzk__V1__Priority *out, const char *s)
{
    for (size_t i = 0; i < sizeof PRIORITIES / sizeof PRIORITIES[0]; i++)
        if (!strcmp(s, PRIORITIES[i].name)) {
            *out = PRIORITIES[i].v;
            return 1;
        }
    return 0;
}

const char *client_priority_name(Cuzk__V1__Priority p)
{
    for (size_t i = 0; i < sizeof PRIORITIES / sizeof PRIORITIES[0]; i++)
        if (PRIORITIES[i].v == p)
            return PRIORITIES[i].name;
    return "default";
}

int client_kind_parse(Cuzk__V1__ProofKind *out, const char *s)
{
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (!strcmp(s, KINDS[i].name)) {
            *out = KINDS[i].v;
            return 1;
        }
    return 0;
}

const char *client_kind_name(Cuzk__V1__ProofKind k)
{
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (KINDS[i].v == k)
            return KINDS[i].name;
    return "unknown";
}

const char *client_await_status_name(int status)
{
    const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(
        &cuzk__v1__await_proof_response__status__descriptor, status);
    return v ? v->name : "INVALID";
}

/* ---- files ---- */

static cuzk_status map_one(ProtobufCBinaryData *out, const char *path, cuzk_error_t *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat sb;
    cuzk_status s = CUZK_OK;
    if (fstat(fd, &sb) != 0)
        s = cuzk_error_set(err, CUZK_ERR_IO, "cannot stat %s: %s", path, strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        s = cuzk_error_set(err, CUZK_ERR_IO, "%s is not a regular file", path);
    else if (sb.st_size == 0)
        s = cuzk_error_set(err, CUZK_ERR_IO, "%s is empty", path);
    if (s == CUZK_OK) {
        void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            s = cuzk_error_set(err, CUZK_ERR_IO, "cannot map %s: %s", path, strerror(errno));
        else
            *out = (ProtobufCBinaryData){(size_t)sb.st_size, p};
    }
    close(fd);
    return s;
}

cuzk_status client_files_map(client_files_t *out, char *const *paths, size_t n, cuzk_error_t *err)
{
    out->n = 0;
    out->blobs = n ? calloc(n, sizeof *out->blobs) : NULL;
    if (n && !out->blobs)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        cuzk_status s = map_one(&out->blobs[i], paths[i], err);
        if (s != CUZK_OK) {
            client_files_unmap(out);
            return s;
        }
        out->n++;
    }
    return CUZK_OK;
}

void client_files_unmap(client_files_t *f)
{
    for (size_t i = 0; i < f->n; i++)
        munmap(f->blobs[i].data, f->blobs[i].len);
    free(f->blobs);
    f->blobs = NULL;
    f->n = 0;
}

void client_request_fill(Cuzk__V1__SubmitProofRequest *req, const client_job_t *job,
                         const client_files_t *files)
{
    cuzk__v1__submit_proof_request__init(req);
    req->proof_kind = job->kind;
    req->priority = job->priority;
    /* protobuf-c packs a proto3 string only when it is not "", and never
     * writes through these pointers */
    if (job->request_id)
        req->request_id = (char *)job->request_id;
    if (job->circuit_id)
        req->circuit_id = (char *)job->circuit_id;
    if (job->kind == CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT) {
        req->n_witnesses = files->n;
        req->witnesses = files->blobs;
    } else if (job->kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && files->n == 1) {
        req->vanilla_proof = files->blobs[0];
    } else {
        req->n_vanilla_proofs = files->n;
        req->vanilla_proofs = files->blobs;
    }
}
