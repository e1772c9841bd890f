/* The gRPC client: one channel per rpc_client_t (gRPC's channels are
 * thread-safe and multiplex calls on one connection), and for each call its
 * own pluck completion queue, so concurrent calls from many threads never
 * share a queue or wait for one another. A call is the one batch a unary
 * RPC needs: send metadata, message and half-close, receive metadata,
 * message and status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>

#include "daemon/rpc_internal.h"

struct rpc_client {
    grpc_channel *ch;
    int wait_for_ready;
};

void rpc_client_opts_default(rpc_client_opts_t *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->max_message_bytes = RPC_MAX_MESSAGE_DEFAULT;
}

static void free_secret(char *s)
{
    if (s) {
        memset(s, 0, strlen(s)); /* a private key must not linger in freed memory */
        free(s);
    }
}

static cuzk_status make_credentials(grpc_channel_credentials **out, const rpc_client_opts_t *o,
                                    cuzk_error_t *err)
{
    *out = NULL;
    if (!o->tls_root_cert_path) {
        if (o->tls_cert_path || o->tls_key_path || o->tls_server_name)
            return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: TLS options need tls_root_cert_path");
        *out = grpc_insecure_credentials_create();
        return *out ? CUZK_OK : cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: out of memory");
    }
    if (!o->tls_cert_path != !o->tls_key_path)
        return cuzk_error_set(
            err, CUZK_ERR_ARG,
            "rpc: a client certificate needs both tls_cert_path and tls_key_path");
    char *root = NULL, *cert = NULL, *key = NULL;
    cuzk_status s = rpc_read_pem(&root, "TLS root certificates", o->tls_root_cert_path, err);
    if (s == CUZK_OK && o->tls_cert_path)
        s = rpc_read_pem(&cert, "TLS client certificate", o->tls_cert_path, err);
    if (s == CUZK_OK && o->tls_key_path)
        s = rpc_read_pem(&key, "TLS client key", o->tls_key_path, err);
    if (s == CUZK_OK) {
        grpc_ssl_pem_key_cert_pair pair = {key, cert};
        *out = grpc_ssl_credentials_create(root, cert ? &pair : NULL, NULL, NULL);
        if (!*out)
            s = cuzk_error_set(err, CUZK_ERR_ARG, "rpc: gRPC refused the TLS files");
    }
    free(root);
    free(cert);
    free_secret(key);
    return s;
}

cuzk_status rpc_client_new(rpc_client_t **out, const char *target, const rpc_client_opts_t *opts,
                           cuzk_error_t *err)
{
    if (!out || !target)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_client_new: NULL argument");
    *out = NULL;
    rpc_client_opts_t def;
    if (!opts) {
        rpc_client_opts_default(&def);
        opts = &def;
    }
    if (!target[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: empty target");
    if (opts->max_message_bytes < 1 || opts->max_message_bytes > RPC_MAX_MESSAGE_LIMIT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: max_message_bytes %zu not in 1..%zu",
                              opts->max_message_bytes, RPC_MAX_MESSAGE_LIMIT);
    rpc_client_t *cl = calloc(1, sizeof *cl);
    if (!cl)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: out of memory");
    grpc_init(); /* rpc_client_free ends it */
    grpc_channel_credentials *creds = NULL;
    cuzk_status s = make_credentials(&creds, opts, err);
    if (s != CUZK_OK) {
        free(cl);
        grpc_shutdown();
        return s;
    }
    grpc_arg args[4];
    grpc_channel_args ch;
    rpc_channel_args(&ch, args, opts->max_message_bytes);
    static char k_name[] = GRPC_SSL_TARGET_NAME_OVERRIDE_ARG;
    if (opts->tls_server_name) {
        args[ch.num_args].type = GRPC_ARG_STRING;
        args[ch.num_args].key = k_name;
        args[ch.num_args].value.string = (char *)opts->tls_server_name; /* copied by gRPC */
        ch.num_args++;
    }
    cl->ch = grpc_channel_create(target, creds, &ch);
    grpc_channel_credentials_release(creds);
    if (!cl->ch) {
        free(cl);
        grpc_shutdown();
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: gRPC cannot make a channel to %s", target);
    }
    cl->wait_for_ready = opts->wait_for_ready;
    *out = cl;
    return CUZK_OK;
}

void rpc_client_free(rpc_client_t *cl)
{
    if (!cl)
        return;
    grpc_channel_destroy(cl->ch);
    free(cl);
    grpc_shutdown();
}

/* Runs the call's single batch and waits for it. *st gets the status, the
 * reply's bytes go to *resp (malloc'd). */
static cuzk_status call_unary(rpc_client_t *cl, uint8_t **resp, size_t *resp_len,
                              const char *method, grpc_byte_buffer *req, int timeout_ms,
                              rpc_status_t *st, cuzk_error_t *err)
{
    gpr_timespec deadline = timeout_ms > 0
                                ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                               gpr_time_from_millis(timeout_ms, GPR_TIMESPAN))
                                : gpr_inf_future(GPR_CLOCK_MONOTONIC);
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    if (!cq)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc %s: out of memory", method);
    grpc_call *call =
        grpc_channel_create_call(cl->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq,
                                 grpc_slice_from_static_string(method), NULL, deadline, NULL);
    if (!call) {
        grpc_completion_queue_shutdown(cq);
        grpc_completion_queue_destroy(cq);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc %s: gRPC cannot make the call", method);
    }
    grpc_metadata_array md_init, md_trail;
    grpc_metadata_array_init(&md_init);
    grpc_metadata_array_init(&md_trail);
    grpc_byte_buffer *reply = NULL;
    grpc_status_code code = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();

    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[0].flags = cl->wait_for_ready ? GRPC_INITIAL_METADATA_WAIT_FOR_READY |
                                            GRPC_INITIAL_METADATA_WAIT_FOR_READY_EXPLICITLY_SET
                                      : 0;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = req;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &md_init;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &reply;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &md_trail;
    ops[5].data.recv_status_on_client.status = &code;
    ops[5].data.recv_status_on_client.status_details = &details;

    cuzk_status s = CUZK_OK;
    int tag;
    grpc_call_error e = grpc_call_start_batch(call, ops, 6, &tag, NULL);
    if (e != GRPC_CALL_OK) {
        s = cuzk_error_set(err, CUZK_ERR_INTERNAL, "rpc %s: start_batch: %s", method,
                           grpc_call_error_to_string(e));
    } else {
        /* RECV_STATUS_ON_CLIENT always completes, at the deadline at the
         * latest, so this wait is bounded by timeout_ms. */
        grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        rpc_status_t local;
        rpc_status_t *out = st ? st : &local;
        out->code = code;
        rpc_copy_text(out->message, sizeof out->message,
                      (const char *)GRPC_SLICE_START_PTR(details), GRPC_SLICE_LENGTH(details));
        if (code != GRPC_STATUS_OK) {
            s = cuzk_error_set(err, rpc_status_to_cuzk(code), "rpc %s: %s: %s", method,
                               rpc_status_code_str(code), out->message);
        } else if (!reply) {
            s = cuzk_error_set(err, CUZK_ERR_FORMAT, "rpc %s: status OK without a reply", method);
        } else if ((s = rpc_buffer_flatten(resp, resp_len, reply)) != CUZK_OK) {
            cuzk_error_set(err, s, "rpc %s: the reply does not decompress or is too large", method);
        }
    }
    if (reply)
        grpc_byte_buffer_destroy(reply);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&md_init);
    grpc_metadata_array_destroy(&md_trail);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    grpc_completion_queue_destroy(cq);
    return s;
}

cuzk_status rpc_client_call_raw(rpc_client_t *cl, uint8_t **resp, size_t *resp_len,
                                const char *method, const uint8_t *req, size_t req_len,
                                int timeout_ms, rpc_status_t *st, cuzk_error_t *err)
{
    if (!cl || !resp || !resp_len || !method || (!req && req_len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_client_call_raw: NULL argument");
    *resp = NULL;
    *resp_len = 0;
    if (st)
        rpc_status_set(st, GRPC_STATUS_UNKNOWN, "not sent");
    uint8_t *copy = NULL;
    if (req_len) {
        copy = malloc(req_len);
        if (!copy)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc %s: out of memory", method);
        memcpy(copy, req, req_len);
    }
    grpc_byte_buffer *bb = rpc_buffer_take(copy, req_len);
    cuzk_status s = call_unary(cl, resp, resp_len, method, bb, timeout_ms, st, err);
    grpc_byte_buffer_destroy(bb);
    return s;
}

cuzk_status rpc_client_call(rpc_client_t *cl, ProtobufCMessage **resp, const char *method,
                            const ProtobufCMessage *req,
                            const ProtobufCMessageDescriptor *resp_desc, int timeout_ms,
                            rpc_status_t *st, cuzk_error_t *err)
{
    if (!cl || !resp || !method || !req || !resp_desc)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_client_call: NULL argument");
    *resp = NULL;
    if (st)
        rpc_status_set(st, GRPC_STATUS_UNKNOWN, "not sent");
    uint8_t *packed = NULL;
    size_t len = 0;
    if (rpc_pack(&packed, &len, req) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc %s: out of memory", method);
    grpc_byte_buffer *bb = rpc_buffer_take(packed, len);
    uint8_t *reply = NULL;
    size_t reply_len = 0;
    cuzk_status s = call_unary(cl, &reply, &reply_len, method, bb, timeout_ms, st, err);
    grpc_byte_buffer_destroy(bb);
    if (s != CUZK_OK)
        return s;
    *resp = protobuf_c_message_unpack(resp_desc, NULL, reply_len, reply);
    free(reply);
    if (!*resp)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "rpc %s: the reply does not unpack as %s",
                              method, resp_desc->name);
    return CUZK_OK;
}

/* The typed calls. The request's own descriptor is checked so a message of
 * the wrong type passed through a cast is refused, not sent. */
#define RPC_CLIENT_FN(fn, m, Req, Resp, out_desc)                                                  \
    cuzk_status fn(rpc_client_t *cl, Resp **resp, const Req *req, int timeout_ms,                  \
                   rpc_status_t *st, cuzk_error_t *err)                                            \
    {                                                                                              \
        if (!resp || !req)                                                                         \
            return cuzk_error_set(err, CUZK_ERR_ARG, #fn ": NULL argument");                       \
        *resp = NULL;                                                                              \
        if (req->base.descriptor != rpc_method_desc(m)->input)                                     \
            return cuzk_error_set(err, CUZK_ERR_ARG, #fn ": the request is not a %s",              \
                                  rpc_method_desc(m)->input->name);                                \
        ProtobufCMessage *r = NULL;                                                                \
        cuzk_status s = rpc_client_call(cl, &r, rpc_method_path(m), &req->base, &out_desc,         \
                                        timeout_ms, st, err);                                      \
        *resp = (Resp *)r;                                                                         \
        return s;                                                                                  \
    }

RPC_CLIENT_FN(rpc_submit_proof, RPC_SUBMIT_PROOF, Cuzk__V1__SubmitProofRequest,
              Cuzk__V1__SubmitProofResponse, cuzk__v1__submit_proof_response__descriptor)
RPC_CLIENT_FN(rpc_await_proof, RPC_AWAIT_PROOF, Cuzk__V1__AwaitProofRequest,
              Cuzk__V1__AwaitProofResponse, cuzk__v1__await_proof_response__descriptor)
RPC_CLIENT_FN(rpc_prove, RPC_PROVE, Cuzk__V1__ProveRequest, Cuzk__V1__ProveResponse,
              cuzk__v1__prove_response__descriptor)
RPC_CLIENT_FN(rpc_cancel_proof, RPC_CANCEL_PROOF, Cuzk__V1__CancelProofRequest,
              Cuzk__V1__CancelProofResponse, cuzk__v1__cancel_proof_response__descriptor)
RPC_CLIENT_FN(rpc_get_status, RPC_GET_STATUS, Cuzk__V1__GetStatusRequest,
              Cuzk__V1__GetStatusResponse, cuzk__v1__get_status_response__descriptor)
RPC_CLIENT_FN(rpc_get_metrics, RPC_GET_METRICS, Cuzk__V1__GetMetricsRequest,
              Cuzk__V1__GetMetricsResponse, cuzk__v1__get_metrics_response__descriptor)
RPC_CLIENT_FN(rpc_preload_srs, RPC_PRELOAD_SRS, Cuzk__V1__PreloadSrsRequest,
              Cuzk__V1__PreloadSrsResponse, cuzk__v1__preload_srs_response__descriptor)
RPC_CLIENT_FN(rpc_evict_srs, RPC_EVICT_SRS, Cuzk__V1__EvictSrsRequest, Cuzk__V1__EvictSrsResponse,
              cuzk__v1__evict_srs_response__descriptor)
