/* What the gRPC server and client share: statuses, the method table, byte
 * buffers, response field helpers, PEM files, channel arguments. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <grpc/byte_buffer_reader.h>

#include "daemon/rpc_internal.h"

/* ---- statuses ---- */

void rpc_status_set(rpc_status_t *st, grpc_status_code code, const char *fmt, ...)
{
    if (!st)
        return;
    st->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
}

const char *rpc_status_code_str(int code)
{
    static const char *const names[] = {"OK",
                                        "CANCELLED",
                                        "UNKNOWN",
                                        "INVALID_ARGUMENT",
                                        "DEADLINE_EXCEEDED",
                                        "NOT_FOUND",
                                        "ALREADY_EXISTS",
                                        "PERMISSION_DENIED",
                                        "RESOURCE_EXHAUSTED",
                                        "FAILED_PRECONDITION",
                                        "ABORTED",
                                        "OUT_OF_RANGE",
                                        "UNIMPLEMENTED",
                                        "INTERNAL",
                                        "UNAVAILABLE",
                                        "DATA_LOSS",
                                        "UNAUTHENTICATED"};
    return code >= 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "INVALID_CODE";
}

grpc_status_code rpc_status_from_cuzk(cuzk_status s)
{
    switch (s) {
    case CUZK_OK: return GRPC_STATUS_OK;
    case CUZK_ERR_ARG:
    case CUZK_ERR_LENGTH:
    case CUZK_ERR_FLAGS:
    case CUZK_ERR_NONCANONICAL:
    case CUZK_ERR_NOT_ON_CURVE:
    case CUZK_ERR_NOT_IN_SUBGROUP:
    case CUZK_ERR_PARSE:
    case CUZK_ERR_FORMAT: return GRPC_STATUS_INVALID_ARGUMENT;
    case CUZK_ERR_UNSUPPORTED: return GRPC_STATUS_UNIMPLEMENTED;
    case CUZK_ERR_NOMEM:
    case CUZK_ERR_BUSY:
    case CUZK_ERR_CAPACITY: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CUZK_ERR_TIMEOUT: return GRPC_STATUS_DEADLINE_EXCEEDED;
    case CUZK_ERR_CANCELLED: return GRPC_STATUS_CANCELLED;
    case CUZK_ERR_NO_DEVICE: return GRPC_STATUS_FAILED_PRECONDITION;
    /* the request was well formed; its vanilla proof is not valid */
    case CUZK_ERR_INVALID: return GRPC_STATUS_FAILED_PRECONDITION;
    default: return GRPC_STATUS_INTERNAL;
    }
}

cuzk_status rpc_status_to_cuzk(grpc_status_code code)
{
    switch (code) {
    case GRPC_STATUS_OK: return CUZK_OK;
    case GRPC_STATUS_INVALID_ARGUMENT:
    case GRPC_STATUS_NOT_FOUND:
    case GRPC_STATUS_ALREADY_EXISTS:
    case GRPC_STATUS_OUT_OF_RANGE:
    case GRPC_STATUS_FAILED_PRECONDITION: return CUZK_ERR_ARG;
    case GRPC_STATUS_UNIMPLEMENTED: return CUZK_ERR_UNSUPPORTED;
    case GRPC_STATUS_RESOURCE_EXHAUSTED:
    case GRPC_STATUS_ABORTED: return CUZK_ERR_BUSY;
    case GRPC_STATUS_DEADLINE_EXCEEDED: return CUZK_ERR_TIMEOUT;
    case GRPC_STATUS_CANCELLED: return CUZK_ERR_CANCELLED;
    case GRPC_STATUS_UNAVAILABLE:
    case GRPC_STATUS_UNAUTHENTICATED:
    case GRPC_STATUS_PERMISSION_DENIED: return CUZK_ERR_IO;
    default: return CUZK_ERR_INTERNAL;
    }
}

/* ---- methods ---- */

/* The paths come from the generated service descriptor, so a method renamed
 * in the .proto is renamed here too; the enum's order is checked against it
 * by the server (and the tests). */
static char g_paths[RPC_METHOD_COUNT][96];
static pthread_once_t g_paths_once = PTHREAD_ONCE_INIT;

static void paths_init(void)
{
    const ProtobufCServiceDescriptor *sd = &cuzk__v1__proving_engine__descriptor;
    for (unsigned i = 0; i < RPC_METHOD_COUNT && i < sd->n_methods; i++)
        snprintf(g_paths[i], sizeof g_paths[i], "/%s/%s", sd->name, sd->methods[i].name);
}

const char *rpc_method_path(int m)
{
    if (m < 0 || m >= RPC_METHOD_COUNT ||
        (unsigned)m >= cuzk__v1__proving_engine__descriptor.n_methods)
        return NULL;
    pthread_once(&g_paths_once, paths_init);
    return g_paths[m];
}

const ProtobufCMethodDescriptor *rpc_method_desc(int m)
{
    if (m < 0 || m >= RPC_METHOD_COUNT ||
        (unsigned)m >= cuzk__v1__proving_engine__descriptor.n_methods)
        return NULL;
    return &cuzk__v1__proving_engine__descriptor.methods[m];
}

int rpc_method_find(const char *path, size_t len)
{
    for (int m = 0; m < RPC_METHOD_COUNT; m++) {
        const char *p = rpc_method_path(m);
        if (p && strlen(p) == len && memcmp(p, path, len) == 0)
            return m;
    }
    return -1;
}

/* ---- byte buffers ---- */

cuzk_status rpc_buffer_flatten(uint8_t **out, size_t *len, grpc_byte_buffer *bb)
{
    *out = NULL;
    *len = 0;
    grpc_byte_buffer_reader rd;
    if (!grpc_byte_buffer_reader_init(&rd, bb))
        return CUZK_ERR_FORMAT; /* a compressed message that does not decompress */
    /* The reader's length, not grpc_byte_buffer_length: for a compressed
     * buffer the two differ, so count while copying. */
    size_t cap = grpc_byte_buffer_length(bb), n = 0;
    uint8_t *buf = cap ? malloc(cap) : NULL;
    if (cap && !buf) {
        grpc_byte_buffer_reader_destroy(&rd);
        return CUZK_ERR_NOMEM;
    }
    grpc_slice s;
    cuzk_status st = CUZK_OK;
    while (grpc_byte_buffer_reader_next(&rd, &s)) {
        size_t sl = GRPC_SLICE_LENGTH(s);
        if (n + sl > cap) {
            size_t ncap = (n + sl) * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                grpc_slice_unref(s);
                st = CUZK_ERR_NOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        if (sl)
            memcpy(buf + n, GRPC_SLICE_START_PTR(s), sl);
        n += sl;
        grpc_slice_unref(s);
    }
    grpc_byte_buffer_reader_destroy(&rd);
    if (st != CUZK_OK) {
        free(buf);
        return st;
    }
    if (n == 0) {
        free(buf);
        buf = NULL;
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}

grpc_byte_buffer *rpc_buffer_take(uint8_t *p, size_t len)
{
    grpc_slice s = len ? grpc_slice_new(p, len, free) : grpc_empty_slice();
    if (!len)
        free(p);
    grpc_byte_buffer *bb = grpc_raw_byte_buffer_create(&s, 1);
    grpc_slice_unref(s); /* the buffer holds its own reference */
    return bb;
}

cuzk_status rpc_pack(uint8_t **out, size_t *len, const ProtobufCMessage *msg)
{
    size_t n = protobuf_c_message_get_packed_size(msg);
    uint8_t *buf = NULL;
    if (n) {
        buf = malloc(n);
        if (!buf)
            return CUZK_ERR_NOMEM;
        protobuf_c_message_pack(msg, buf);
    }
    *out = buf;
    *len = n;
    return CUZK_OK;
}

/* ---- response fields ---- */

cuzk_status rpc_set_string(char **field, const char *s)
{
    char *d = strdup(s);
    if (!d)
        return CUZK_ERR_NOMEM;
    if (*field && *field != protobuf_c_empty_string)
        free(*field);
    *field = d;
    return CUZK_OK;
}

cuzk_status rpc_set_bytes(ProtobufCBinaryData *field, const void *p, size_t n)
{
    uint8_t *d = NULL;
    if (n) {
        d = malloc(n);
        if (!d)
            return CUZK_ERR_NOMEM;
        memcpy(d, p, n);
    }
    free(field->data);
    field->data = d;
    field->len = n;
    return CUZK_OK;
}

/* ---- files, arguments, clocks ---- */

#define RPC_PEM_MAX ((long)1 << 24) /* 16 MiB: any real certificate chain is far smaller */

cuzk_status rpc_read_pem(char **out, const char *what, const char *path, cuzk_error_t *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s %s: %s", what, path, strerror(errno));
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n < 0 || n > RPC_PEM_MAX || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s %s: not a readable file of at most %ld bytes",
                              what, path, RPC_PEM_MAX);
    }
    buf = malloc((size_t)n + 1);
    if (!buf) {
        fclose(f);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s %s: out of memory", what, path);
    }
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    if (got != (size_t)n) {
        free(buf);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s %s: short read", what, path);
    }
    buf[n] = '\0';
    *out = buf;
    return CUZK_OK;
}

void rpc_channel_args(grpc_channel_args *ch, grpc_arg args[3], size_t max_message_bytes)
{
    static char k_recv[] = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    static char k_send[] = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    static char k_reuse[] = GRPC_ARG_ALLOW_REUSEPORT;
    int max = max_message_bytes > RPC_MAX_MESSAGE_LIMIT ? (int)RPC_MAX_MESSAGE_LIMIT
                                                        : (int)max_message_bytes;
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = k_recv;
    args[0].value.integer = max;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = k_send;
    args[1].value.integer = max;
    /* gRPC sets SO_REUSEPORT by default, which would let a second daemon
     * bind the same TCP port and silently take half the connections. */
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = k_reuse;
    args[2].value.integer = 0;
    ch->num_args = 3;
    ch->args = args;
}

uint64_t rpc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rpc_copy_text(char *dst, size_t cap, const char *s, size_t n)
{
    if (!cap)
        return;
    if (n > cap - 1)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}
