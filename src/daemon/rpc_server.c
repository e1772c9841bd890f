/* The gRPC server: unary calls of cuzk.v1.ProvingEngine on the C core.
 *
 * DESIGN. Threads and who owns what:
 *  - the poller thread owns the completion queue: it alone calls
 *    grpc_completion_queue_next, requests new calls, starts every receive
 *    batch, and handles every completion (new call, request received, close,
 *    response sent);
 *  - worker threads take calls from the work queue (FIFO, srv->mu +
 *    work_cv), unpack, run the handler, pack and start the send batch;
 *  - the thread in rpc_server_shutdown drives shutdown and joins the rest.
 * A call (struct rpc_call) is shared by reference count, under srv->mu: one
 * reference per batch in flight (receive, close, send) and one while it is
 * queued or its handler runs; whoever drops the last one frees it. Its
 * response is sent exactly once, by exactly one thread (the poller for
 * early answers, else its worker), and only after its receive batch
 * completed, so start_batch is never called on a call from two threads at
 * once (the C core's rule). The close batch (RECV_CLOSE_ON_SERVER) is
 * started as soon as the call arrives: it completes early exactly when the
 * call is cancelled, which is how a blocked handler learns of it
 * (rpc_call_cancelled, rpc_call_wait on srv->cancel_cv).
 *
 * Admission. A received call is queued when a worker is idle or fewer than
 * queue_max calls wait; otherwise it is answered RESOURCE_EXHAUSTED at once,
 * so a flood of blocking calls never stalls the poller or the clients.
 *
 * Shutdown. grpc_server_shutdown_and_notify stops new calls; the calls in
 * flight run until they end or grace_ms passes, then every one is cancelled
 * (grpc_server_cancel_all_calls and our own flag); once the shutdown tag has
 * arrived and no call is left, the workers are stopped, the queue is shut
 * down and drained by the poller, and everything is freed. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>

#include "daemon/rpc_internal.h"
#include "util/sync.h"

/* ---- the method table ---- */

/* One trampoline per method turns the generic message pointers back into
 * the handler's own types (calling a handler through a cast function
 * pointer would be undefined behaviour). */
typedef void (*rpc_tramp_fn)(const rpc_handlers_t *h, const rpc_call_t *call,
                             const ProtobufCMessage *req, ProtobufCMessage *resp, rpc_status_t *st);

#define RPC_TRAMP(field, Req, Resp)                                                                \
    static void tramp_##field(const rpc_handlers_t *h, const rpc_call_t *call,                     \
                              const ProtobufCMessage *req, ProtobufCMessage *resp,                 \
                              rpc_status_t *st)                                                    \
    {                                                                                              \
        h->field(h->ctx, call, (const Req *)req, (Resp *)resp, st);                                \
    }

RPC_TRAMP(submit_proof, Cuzk__V1__SubmitProofRequest, Cuzk__V1__SubmitProofResponse)
RPC_TRAMP(await_proof, Cuzk__V1__AwaitProofRequest, Cuzk__V1__AwaitProofResponse)
RPC_TRAMP(prove, Cuzk__V1__ProveRequest, Cuzk__V1__ProveResponse)
RPC_TRAMP(cancel_proof, Cuzk__V1__CancelProofRequest, Cuzk__V1__CancelProofResponse)
RPC_TRAMP(get_status, Cuzk__V1__GetStatusRequest, Cuzk__V1__GetStatusResponse)
RPC_TRAMP(get_metrics, Cuzk__V1__GetMetricsRequest, Cuzk__V1__GetMetricsResponse)
RPC_TRAMP(preload_srs, Cuzk__V1__PreloadSrsRequest, Cuzk__V1__PreloadSrsResponse)
RPC_TRAMP(evict_srs, Cuzk__V1__EvictSrsRequest, Cuzk__V1__EvictSrsResponse)

typedef struct rpc_method_impl {
    const ProtobufCMessageDescriptor *in, *out; /* the types the trampoline casts to */
    rpc_tramp_fn tramp;
    int (*present)(const rpc_handlers_t *h);
} rpc_method_impl_t;

#define RPC_PRESENT(field)                                                                         \
    static int present_##field(const rpc_handlers_t *h)                                            \
    {                                                                                              \
        return h->field != NULL;                                                                   \
    }
RPC_PRESENT(submit_proof)
RPC_PRESENT(await_proof)
RPC_PRESENT(prove)
RPC_PRESENT(cancel_proof)
RPC_PRESENT(get_status)
RPC_PRESENT(get_metrics)
RPC_PRESENT(preload_srs)
RPC_PRESENT(evict_srs)

#define RPC_IMPL(field, in, out)                                                                   \
    {                                                                                              \
        &cuzk__v1__##in##__descriptor, &cuzk__v1__##out##__descriptor, tramp_##field,              \
            present_##field                                                                        \
    }

static const rpc_method_impl_t g_impl[RPC_METHOD_COUNT] = {
    [RPC_SUBMIT_PROOF] = RPC_IMPL(submit_proof, submit_proof_request, submit_proof_response),
    [RPC_AWAIT_PROOF] = RPC_IMPL(await_proof, await_proof_request, await_proof_response),
    [RPC_PROVE] = RPC_IMPL(prove, prove_request, prove_response),
    [RPC_CANCEL_PROOF] = RPC_IMPL(cancel_proof, cancel_proof_request, cancel_proof_response),
    [RPC_GET_STATUS] = RPC_IMPL(get_status, get_status_request, get_status_response),
    [RPC_GET_METRICS] = RPC_IMPL(get_metrics, get_metrics_request, get_metrics_response),
    [RPC_PRELOAD_SRS] = RPC_IMPL(preload_srs, preload_srs_request, preload_srs_response),
    [RPC_EVICT_SRS] = RPC_IMPL(evict_srs, evict_srs_request, evict_srs_response),
};

/* The enum, the trampolines' types and the generated service must agree, or
 * a request would be handed to a handler of another type. */
static cuzk_status check_method_table(cuzk_error_t *err)
{
    if (cuzk__v1__proving_engine__descriptor.n_methods != RPC_METHOD_COUNT)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "rpc: the service has %u methods, not %d",
                              cuzk__v1__proving_engine__descriptor.n_methods, RPC_METHOD_COUNT);
    for (int m = 0; m < RPC_METHOD_COUNT; m++) {
        const ProtobufCMethodDescriptor *d = rpc_method_desc(m);
        if (d->input != g_impl[m].in || d->output != g_impl[m].out)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "rpc: method %d (%s) has other types", m,
                                  d->name);
    }
    return CUZK_OK;
}

/* ---- state ---- */

typedef enum tag_kind { TAG_NEW, TAG_RECV, TAG_CLOSE, TAG_SEND, TAG_SHUTDOWN } tag_kind;

typedef struct rpc_tag {
    tag_kind kind;
    struct rpc_call *call; /* NULL for TAG_SHUTDOWN */
} rpc_tag_t;

struct rpc_call {
    rpc_server_t *srv;
    rpc_tag_t t_new, t_recv, t_close, t_send;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *recv_buf; /* the request, until a worker flattens it */
    grpc_byte_buffer *send_buf; /* the response, until its batch completes */
    int close_cancelled;        /* RECV_CLOSE_ON_SERVER's out value */
    int method;                 /* index, -1 unknown */
    char path[96];
    char *peer;           /* gpr_malloc'd by grpc_call_get_peer */
    uint64_t deadline_ns; /* rpc_now_ns() time; 0: none */
    /* Under srv->mu: */
    int refs;
    int responded;                /* the send batch was started */
    int cancelled;                /* also read without the lock (atomic) by handlers */
    struct rpc_call *prev, *next; /* srv->active */
    struct rpc_call *qnext;       /* srv->q_head */
};

struct rpc_server {
    grpc_server *server;
    grpc_completion_queue *cq;
    rpc_tag_t t_shutdown;
    rpc_handlers_t handlers;
    size_t max_message_bytes;
    int port;
    int workers, queue_max;
    char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* "" for TCP */
    dev_t sock_dev;
    ino_t sock_ino;
    pthread_t poller;
    pthread_t *worker_tids;
    int n_workers_started, poller_started;
    int bound; /* grpc_server_add_http2_port succeeded */

    pthread_mutex_t mu;
    pthread_cond_t work_cv;   /* workers: the queue or stop changed */
    pthread_cond_t state_cv;  /* shutdown: shutdown_done or n_active changed */
    pthread_cond_t cancel_cv; /* rpc_call_wait: some call was cancelled */
    struct rpc_call *active;  /* every call we hold */
    struct rpc_call *q_head, *q_tail;
    unsigned n_active, n_queued, n_busy;
    int shutting_down, shutdown_done, stop_workers;
    rpc_server_stats_t stats;
};

/* ---- handler-side queries ---- */

int rpc_call_cancelled(const rpc_call_t *call)
{
    if (__atomic_load_n(&call->cancelled, __ATOMIC_ACQUIRE))
        return 1;
    return call->deadline_ns && rpc_now_ns() >= call->deadline_ns;
}

int64_t rpc_call_remaining_ms(const rpc_call_t *call)
{
    if (!call->deadline_ns)
        return -1;
    uint64_t now = rpc_now_ns();
    return now >= call->deadline_ns ? 0 : (int64_t)((call->deadline_ns - now) / 1000000u);
}

int rpc_call_wait(const rpc_call_t *call, int timeout_ms)
{
    rpc_server_t *srv = call->srv;
    uint64_t until = timeout_ms < 0 ? 0 : rpc_now_ns() + (uint64_t)timeout_ms * 1000000u;
    if (call->deadline_ns && (!until || call->deadline_ns < until))
        until = call->deadline_ns;
    int cancelled;
    pthread_mutex_lock(&srv->mu);
    for (;;) {
        cancelled = rpc_call_cancelled(call);
        if (cancelled || (until && rpc_now_ns() >= until))
            break;
        sync_cond_wait_until(&srv->cancel_cv, &srv->mu, until);
    }
    pthread_mutex_unlock(&srv->mu);
    return cancelled;
}

const char *rpc_call_method(const rpc_call_t *call)
{
    return call->path;
}

const char *rpc_call_peer(const rpc_call_t *call)
{
    return call->peer ? call->peer : "";
}

/* ---- call life ---- */

static struct rpc_call *call_alloc(rpc_server_t *srv)
{
    struct rpc_call *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->srv = srv;
    c->t_new = (rpc_tag_t){TAG_NEW, c};
    c->t_recv = (rpc_tag_t){TAG_RECV, c};
    c->t_close = (rpc_tag_t){TAG_CLOSE, c};
    c->t_send = (rpc_tag_t){TAG_SEND, c};
    c->method = -1;
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    return c;
}

static void call_free(struct rpc_call *c)
{
    if (c->call)
        grpc_call_unref(c->call);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    if (c->recv_buf)
        grpc_byte_buffer_destroy(c->recv_buf);
    if (c->send_buf)
        grpc_byte_buffer_destroy(c->send_buf);
    if (c->peer)
        gpr_free(c->peer);
    free(c);
}

/* Drops one reference; the last frees the call (outside the lock). */
static void call_unref(struct rpc_call *c)
{
    rpc_server_t *srv = c->srv;
    pthread_mutex_lock(&srv->mu);
    int last = --c->refs == 0;
    if (last) {
        if (c->prev)
            c->prev->next = c->next;
        else
            srv->active = c->next;
        if (c->next)
            c->next->prev = c->prev;
        srv->n_active--;
        pthread_cond_broadcast(&srv->state_cv);
    }
    pthread_mutex_unlock(&srv->mu);
    if (last)
        call_free(c);
}

/* Sends the call's one answer: status code with message, and the response
 * bytes when payload is non-NULL (taken over). Called once per call. */
static void call_respond(struct rpc_call *c, grpc_status_code code, const char *msg,
                         grpc_byte_buffer *payload)
{
    rpc_server_t *srv = c->srv;
    grpc_op ops[3];
    size_t n = 0;
    memset(ops, 0, sizeof ops);
    ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[n].data.send_initial_metadata.count = 0;
    n++;
    if (payload) {
        c->send_buf = payload;
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = payload;
        n++;
    }
    grpc_slice details = grpc_slice_from_copied_buffer(msg, strlen(msg));
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.trailing_metadata_count = 0;
    ops[n].data.send_status_from_server.status = code;
    ops[n].data.send_status_from_server.status_details = &details;
    n++;

    pthread_mutex_lock(&srv->mu);
    c->responded = 1;
    c->refs++;
    pthread_mutex_unlock(&srv->mu);
    grpc_call_error e = grpc_call_start_batch(c->call, ops, n, &c->t_send, NULL);
    grpc_slice_unref(details);
    if (e != GRPC_CALL_OK) {
        /* Only a bug of ours gets here (two sends); the call still ends when
         * the client gives up or the server shuts down. */
        fprintf(stderr, "cuzk rpc: %s: sending the response failed: %s\n", c->path,
                grpc_call_error_to_string(e));
        call_unref(c);
    }
}

static void stat_count(rpc_server_t *srv, uint64_t *counter)
{
    pthread_mutex_lock(&srv->mu);
    (*counter)++;
    pthread_mutex_unlock(&srv->mu);
}

/* Asks gRPC for the next call; a failure leaves the server without
 * listeners (it only happens while shutting down). */
static void request_next(rpc_server_t *srv)
{
    struct rpc_call *c = call_alloc(srv);
    if (!c) {
        fprintf(stderr, "cuzk rpc: out of memory: no longer accepting calls\n");
        return;
    }
    grpc_call_error e = grpc_server_request_call(srv->server, &c->call, &c->details, &c->md,
                                                 srv->cq, srv->cq, &c->t_new);
    if (e != GRPC_CALL_OK)
        call_free(c);
}

/* The client's deadline as an rpc_now_ns() time (0: none). gRPC hands it
 * over on one of its clocks; only the time left is carried across. */
static uint64_t deadline_from(gpr_timespec d)
{
    if (d.tv_sec == INT64_MAX)
        return 0; /* gpr_inf_future */
    gpr_timespec left = d.clock_type == GPR_TIMESPAN ? d : gpr_time_sub(d, gpr_now(d.clock_type));
    if (left.tv_sec < 0)
        return rpc_now_ns(); /* already past */
    if (left.tv_sec > (int64_t)100 * 365 * 86400)
        return 0; /* "far future" in another encoding */
    return rpc_now_ns() + (uint64_t)left.tv_sec * 1000000000u + (uint64_t)left.tv_nsec;
}

/* Poller: a call arrived (ok), or the request ended because of shutdown. */
static void on_new(rpc_server_t *srv, struct rpc_call *c, int ok)
{
    if (!ok) {
        call_free(c);
        return;
    }
    pthread_mutex_lock(&srv->mu);
    int shutting = srv->shutting_down;
    c->refs = 2; /* the close and receive batches below */
    c->next = srv->active;
    if (srv->active)
        srv->active->prev = c;
    srv->active = c;
    srv->n_active++;
    pthread_mutex_unlock(&srv->mu);
    if (!shutting)
        request_next(srv);

    rpc_copy_text(c->path, sizeof c->path, (const char *)GRPC_SLICE_START_PTR(c->details.method),
                  GRPC_SLICE_LENGTH(c->details.method));
    c->method = rpc_method_find((const char *)GRPC_SLICE_START_PTR(c->details.method),
                                GRPC_SLICE_LENGTH(c->details.method));
    c->deadline_ns = deadline_from(c->details.deadline);
    c->peer = grpc_call_get_peer(c->call);

    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->close_cancelled;
    if (grpc_call_start_batch(c->call, &op, 1, &c->t_close, NULL) != GRPC_CALL_OK)
        call_unref(c);
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &c->recv_buf;
    if (grpc_call_start_batch(c->call, &op, 1, &c->t_recv, NULL) != GRPC_CALL_OK)
        call_unref(c);
}

/* Poller: the request message arrived (or the stream ended without one). */
static void on_recv(rpc_server_t *srv, struct rpc_call *c)
{
    if (!c->recv_buf) {
        /* No message: the client half-closed without one, or gRPC itself
         * failed the call (e.g. over max_message_bytes: it has answered
         * RESOURCE_EXHAUSTED already, and this answer is dropped). */
        stat_count(srv, &srv->stats.bad_request);
        call_respond(c, GRPC_STATUS_INVALID_ARGUMENT, "no request message", NULL);
    } else if (c->method < 0) {
        stat_count(srv, &srv->stats.unimplemented);
        char msg[160];
        snprintf(msg, sizeof msg, "unknown method %s", c->path);
        call_respond(c, GRPC_STATUS_UNIMPLEMENTED, msg, NULL);
    } else if (!g_impl[c->method].present(&srv->handlers)) {
        stat_count(srv, &srv->stats.unimplemented);
        char msg[160];
        snprintf(msg, sizeof msg, "%s is not served here", c->path);
        call_respond(c, GRPC_STATUS_UNIMPLEMENTED, msg, NULL);
    } else {
        pthread_mutex_lock(&srv->mu);
        /* Workers not running a handler take queued calls first; counted
         * from n_busy, not from workers waiting right now, so a worker
         * that has not reached its wait yet still counts as free. */
        unsigned free_workers = (unsigned)srv->workers - srv->n_busy;
        int admit = srv->n_queued < free_workers + (unsigned)srv->queue_max && !srv->stop_workers;
        if (admit) {
            c->refs++;
            c->qnext = NULL;
            if (srv->q_tail)
                srv->q_tail->qnext = c;
            else
                srv->q_head = c;
            srv->q_tail = c;
            srv->n_queued++;
            pthread_cond_signal(&srv->work_cv);
        } else {
            srv->stats.rejected_busy++;
        }
        pthread_mutex_unlock(&srv->mu);
        if (!admit) {
            char msg[160];
            snprintf(msg, sizeof msg, "server busy: %d workers busy and %d calls waiting",
                     srv->workers, srv->queue_max);
            call_respond(c, GRPC_STATUS_RESOURCE_EXHAUSTED, msg, NULL);
        }
    }
    call_unref(c); /* the receive batch's reference */
}

/* Poller: the call is over on the server side (answered, or cancelled). */
static void on_close(rpc_server_t *srv, struct rpc_call *c)
{
    pthread_mutex_lock(&srv->mu);
    if (c->close_cancelled) {
        if (!c->responded)
            srv->stats.cancelled++;
        __atomic_store_n(&c->cancelled, 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&srv->cancel_cv);
    }
    pthread_mutex_unlock(&srv->mu);
    call_unref(c);
}

static void *poller_main(void *arg)
{
    rpc_server_t *srv = arg;
    for (;;) {
        grpc_event ev =
            grpc_completion_queue_next(srv->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        rpc_tag_t *t = ev.tag;
        switch (t->kind) {
        case TAG_SHUTDOWN:
            pthread_mutex_lock(&srv->mu);
            srv->shutdown_done = 1;
            pthread_cond_broadcast(&srv->state_cv);
            pthread_mutex_unlock(&srv->mu);
            break;
        case TAG_NEW: on_new(srv, t->call, ev.success); break;
        case TAG_RECV: on_recv(srv, t->call); break;
        case TAG_CLOSE: on_close(srv, t->call); break;
        case TAG_SEND:
            /* The response is out (or the call was gone): its buffer can go. */
            if (t->call->send_buf) {
                grpc_byte_buffer_destroy(t->call->send_buf);
                t->call->send_buf = NULL;
            }
            call_unref(t->call);
            break;
        }
    }
    return NULL;
}

/* ---- workers ---- */

static int past_deadline(const struct rpc_call *c)
{
    return c->deadline_ns && rpc_now_ns() >= c->deadline_ns;
}

/* Unpacks and runs the handler: the answer goes to *st and *payload (NULL:
 * no message), for the caller to send. */
static void call_run(rpc_server_t *srv, struct rpc_call *c, rpc_status_t *st,
                     grpc_byte_buffer **payload)
{
    *payload = NULL;
    const rpc_method_impl_t *impl = &g_impl[c->method];
    if (rpc_call_cancelled(c)) {
        if (past_deadline(c))
            rpc_status_set(st, GRPC_STATUS_DEADLINE_EXCEEDED, "deadline exceeded");
        else
            rpc_status_set(st, GRPC_STATUS_CANCELLED, "cancelled before a worker took it");
        return;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    cuzk_status s = rpc_buffer_flatten(&bytes, &len, c->recv_buf);
    grpc_byte_buffer_destroy(c->recv_buf);
    c->recv_buf = NULL;
    if (s != CUZK_OK) {
        stat_count(srv, &srv->stats.bad_request);
        if (s == CUZK_ERR_NOMEM)
            rpc_status_set(st, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        else
            rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "the request does not decompress");
        return;
    }
    ProtobufCMessage *req = protobuf_c_message_unpack(impl->in, NULL, len, bytes);
    free(bytes);
    if (!req) {
        stat_count(srv, &srv->stats.bad_request);
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "the request does not unpack as %s",
                       impl->in->name);
        return;
    }
    ProtobufCMessage *resp = malloc(impl->out->sizeof_message);
    if (!resp) {
        protobuf_c_message_free_unpacked(req, NULL);
        rpc_status_set(st, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        return;
    }
    protobuf_c_message_init(impl->out, resp);

    stat_count(srv, &srv->stats.handled[c->method]);
    impl->tramp(&srv->handlers, c, req, resp, st);
    protobuf_c_message_free_unpacked(req, NULL);
    st->message[sizeof st->message - 1] = '\0';
    if ((int)st->code < 0 || (int)st->code > GRPC_STATUS_UNAUTHENTICATED)
        rpc_status_set(st, GRPC_STATUS_UNKNOWN, "handler returned status %d", (int)st->code);
    /* A handler that gave up because the client's deadline passed says
     * CANCELLED; our clock may see the deadline before gRPC's does, so name
     * the cause as gRPC would. */
    if (st->code == GRPC_STATUS_CANCELLED && past_deadline(c))
        rpc_status_set(st, GRPC_STATUS_DEADLINE_EXCEEDED, "deadline exceeded");

    if (st->code == GRPC_STATUS_OK) {
        size_t n = protobuf_c_message_get_packed_size(resp);
        if (n > srv->max_message_bytes) {
            rpc_status_set(st, GRPC_STATUS_RESOURCE_EXHAUSTED,
                           "response of %zu bytes is over max_message_bytes %zu", n,
                           srv->max_message_bytes);
        } else if (rpc_pack(&bytes, &len, resp) != CUZK_OK) {
            rpc_status_set(st, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        } else {
            *payload = rpc_buffer_take(bytes, len);
        }
    }
    protobuf_c_message_free_unpacked(resp, NULL);
}

static void *worker_main(void *arg)
{
    rpc_server_t *srv = arg;
    pthread_mutex_lock(&srv->mu);
    for (;;) {
        while (!srv->q_head && !srv->stop_workers) {
            pthread_cond_wait(&srv->work_cv, &srv->mu);
        }
        if (!srv->q_head)
            break; /* stopping, and nothing left */
        struct rpc_call *c = srv->q_head;
        srv->q_head = c->qnext;
        if (!srv->q_head)
            srv->q_tail = NULL;
        srv->n_queued--;
        srv->n_busy++;
        pthread_mutex_unlock(&srv->mu);
        rpc_status_t st = {GRPC_STATUS_OK, ""};
        grpc_byte_buffer *payload = NULL;
        call_run(srv, c, &st, &payload);
        /* Free before the answer leaves, so a client that sends its next
         * call the moment it has this answer finds the worker free. */
        pthread_mutex_lock(&srv->mu);
        srv->n_busy--;
        pthread_mutex_unlock(&srv->mu);
        call_respond(c, st.code, st.message, payload);
        call_unref(c);
        pthread_mutex_lock(&srv->mu);
    }
    pthread_mutex_unlock(&srv->mu);
    return NULL;
}

/* ---- listening ---- */

/* The socket path of a "unix:" address, or NULL for any other address. */
static const char *unix_path(const char *listen)
{
    if (strncmp(listen, "unix:", 5) != 0)
        return NULL;
    const char *p = listen + 5;
    if (strncmp(p, "//", 2) == 0)
        p += 2; /* unix:///abs/path -> /abs/path */
    return p;
}

/* Before binding a unix socket: refuse anything that is not a socket, and
 * a socket someone listens on (gRPC would unlink it and take its place);
 * remove a stale one. */
static cuzk_status unix_prepare(const char *path, cuzk_error_t *err)
{
    struct sockaddr_un sa;
    if (!path[0] || strlen(path) >= sizeof sa.sun_path)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "rpc: unix socket path \"%s\" is empty or over %zu bytes", path,
                              sizeof sa.sun_path - 1);
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT)
            return CUZK_OK;
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc: %s: %s", path, strerror(errno));
    }
    if (!S_ISSOCK(sb.st_mode))
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc: %s exists and is not a socket", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc: socket: %s", strerror(errno));
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path) + 1);
    int r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    int e = errno;
    close(fd);
    if (r == 0)
        return cuzk_error_set(err, CUZK_ERR_BUSY, "rpc: a server is listening on %s already", path);
    if (e != ECONNREFUSED)
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc: probing %s: %s", path, strerror(e));
    if (unlink(path) != 0 && errno != ENOENT)
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc: removing the stale socket %s: %s", path,
                              strerror(errno));
    return CUZK_OK;
}

static cuzk_status make_credentials(grpc_server_credentials **out, const rpc_server_opts_t *o,
                                    cuzk_error_t *err)
{
    *out = NULL;
    if (!o->tls_cert_path && !o->tls_key_path) {
        if (o->tls_client_ca_path)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "rpc: tls_client_ca_path needs TLS (a certificate and key)");
        *out = grpc_insecure_server_credentials_create();
        return *out ? CUZK_OK : cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: out of memory");
    }
    if (!o->tls_cert_path || !o->tls_key_path)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "rpc: TLS needs both tls_cert_path and tls_key_path");
    char *cert = NULL, *key = NULL, *ca = NULL;
    cuzk_status s = rpc_read_pem(&cert, "TLS certificate", o->tls_cert_path, err);
    if (s == CUZK_OK)
        s = rpc_read_pem(&key, "TLS key", o->tls_key_path, err);
    if (s == CUZK_OK && o->tls_client_ca_path)
        s = rpc_read_pem(&ca, "TLS client CA", o->tls_client_ca_path, err);
    if (s == CUZK_OK) {
        grpc_ssl_pem_key_cert_pair pair = {key, cert};
        *out = grpc_ssl_server_credentials_create(ca, &pair, 1, ca != NULL, NULL);
        if (!*out)
            s = cuzk_error_set(err, CUZK_ERR_ARG, "rpc: gRPC refused the TLS certificate or key");
    }
    free(cert);
    if (key) {
        memset(key, 0, strlen(key)); /* do not leave the private key in freed memory */
        free(key);
    }
    free(ca);
    return s;
}

/* ---- lifecycle ---- */

void rpc_server_opts_default(rpc_server_opts_t *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->socket_mode = 0600;
    opts->max_message_bytes = RPC_MAX_MESSAGE_DEFAULT;
    opts->workers = 8;
    opts->queue_max = 64;
}

static cuzk_status check_opts(const rpc_server_opts_t *o, cuzk_error_t *err)
{
    if (!o->listen || !o->listen[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: no listen address");
    if (o->max_message_bytes < 1 || o->max_message_bytes > RPC_MAX_MESSAGE_LIMIT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: max_message_bytes %zu not in 1..%zu",
                              o->max_message_bytes, RPC_MAX_MESSAGE_LIMIT);
    if (o->workers < 1 || o->workers > RPC_WORKERS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: workers %d not in 1..%d", o->workers,
                              RPC_WORKERS_MAX);
    if (o->queue_max < 0 || o->queue_max > INT_MAX / 2)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: queue_max %d is negative or too large",
                              o->queue_max);
    if (o->socket_mode > 07777)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc: socket_mode %o is not a file mode",
                              o->socket_mode);
    return check_method_table(err);
}

/* Frees what rpc_server_new made, in reverse; every thread must have been
 * joined and every call freed. Ends the gRPC reference the server held. */
static void server_free(rpc_server_t *srv)
{
    if (srv->server)
        grpc_server_destroy(srv->server);
    if (srv->cq)
        grpc_completion_queue_destroy(srv->cq);
    if (srv->sock_path[0]) {
        /* Only our own socket: another server may have replaced it since. */
        struct stat sb;
        if (lstat(srv->sock_path, &sb) == 0 && S_ISSOCK(sb.st_mode) && sb.st_dev == srv->sock_dev &&
            sb.st_ino == srv->sock_ino)
            unlink(srv->sock_path);
    }
    free(srv->worker_tids);
    pthread_cond_destroy(&srv->work_cv);
    pthread_cond_destroy(&srv->state_cv);
    pthread_cond_destroy(&srv->cancel_cv);
    pthread_mutex_destroy(&srv->mu);
    free(srv);
    grpc_shutdown();
}

/* Ends everything the server started: used by shutdown and by a failing
 * rpc_server_new (started: grpc_server_start ran). */
static void server_stop(rpc_server_t *srv, int grace_ms, int started)
{
    pthread_mutex_lock(&srv->mu);
    srv->shutting_down = 1;
    pthread_mutex_unlock(&srv->mu);
    if (started && !srv->poller_started) {
        /* No poller ever ran, so no call was requested: only the shutdown
         * tag can come. */
        grpc_server_shutdown_and_notify(srv->server, srv->cq, &srv->t_shutdown);
        grpc_event ev;
        do
            ev = grpc_completion_queue_next(srv->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        while (ev.type != GRPC_OP_COMPLETE || ev.tag != &srv->t_shutdown);
    } else if (started) {
        grpc_server_shutdown_and_notify(srv->server, srv->cq, &srv->t_shutdown);
        uint64_t until = grace_ms < 0 ? 0 : rpc_now_ns() + (uint64_t)grace_ms * 1000000u;
        pthread_mutex_lock(&srv->mu);
        while (!(srv->shutdown_done && srv->n_active == 0) && !(until && rpc_now_ns() >= until))
            sync_cond_wait_until(&srv->state_cv, &srv->mu, until);
        int late = !(srv->shutdown_done && srv->n_active == 0);
        pthread_mutex_unlock(&srv->mu);
        if (late) {
            grpc_server_cancel_all_calls(srv->server);
            pthread_mutex_lock(&srv->mu);
            for (struct rpc_call *c = srv->active; c; c = c->next)
                __atomic_store_n(&c->cancelled, 1, __ATOMIC_RELEASE);
            pthread_cond_broadcast(&srv->cancel_cv);
            /* Handlers see the flag and return; their (failing) sends and
             * the closes complete on the poller, which frees the calls. */
            while (!(srv->shutdown_done && srv->n_active == 0))
                pthread_cond_wait(&srv->state_cv, &srv->mu);
            pthread_mutex_unlock(&srv->mu);
        }
    }
    pthread_mutex_lock(&srv->mu);
    srv->stop_workers = 1;
    pthread_cond_broadcast(&srv->work_cv);
    pthread_mutex_unlock(&srv->mu);
    for (int i = 0; i < srv->n_workers_started; i++)
        pthread_join(srv->worker_tids[i], NULL);
    if (srv->cq) {
        grpc_completion_queue_shutdown(srv->cq);
        if (srv->poller_started) {
            pthread_join(srv->poller, NULL);
        } else {
            while (grpc_completion_queue_next(srv->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL)
                       .type != GRPC_QUEUE_SHUTDOWN)
                ;
        }
    }
}

static cuzk_status server_listen(rpc_server_t *srv, const rpc_server_opts_t *o, cuzk_error_t *err)
{
    const char *path = unix_path(o->listen);
    cuzk_status s = CUZK_OK;
    if (path) {
        s = unix_prepare(path, err);
        if (s != CUZK_OK)
            return s;
    }
    grpc_server_credentials *creds = NULL;
    s = make_credentials(&creds, o, err);
    if (s != CUZK_OK)
        return s;
    int port = grpc_server_add_http2_port(srv->server, o->listen, creds);
    grpc_server_credentials_release(creds);
    if (port == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "rpc: cannot listen on %s (in use, or not an address gRPC binds)",
                              o->listen);
    srv->bound = 1;
    if (!path) {
        /* add_http2_port answers 1 for the socket kinds without a port
         * ("unix-abstract:", ...): only TCP addresses have one. */
        srv->port = strncmp(o->listen, "unix", 4) == 0 ? 0 : port;
        return CUZK_OK;
    }
    /* Bound and listening already: narrow the mode before any client can
     * be served (the queue only runs after grpc_server_start). */
    snprintf(srv->sock_path, sizeof srv->sock_path, "%s", path);
    struct stat sb;
    if (chmod(path, o->socket_mode ? o->socket_mode : 0600) != 0 || lstat(path, &sb) != 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "rpc: setting the mode of %s: %s", path,
                              strerror(errno));
    srv->sock_dev = sb.st_dev;
    srv->sock_ino = sb.st_ino;
    return CUZK_OK;
}

cuzk_status rpc_server_new(rpc_server_t **out, const rpc_server_opts_t *opts, cuzk_error_t *err)
{
    if (!out || !opts)
        return cuzk_error_set(err, CUZK_ERR_ARG, "rpc_server_new: NULL argument");
    *out = NULL;
    cuzk_status s = check_opts(opts, err);
    if (s != CUZK_OK)
        return s;
    rpc_server_t *srv = calloc(1, sizeof *srv);
    if (!srv)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: out of memory");
    srv->worker_tids = calloc((size_t)opts->workers, sizeof *srv->worker_tids);
    if (!srv->worker_tids) {
        free(srv);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: out of memory");
    }
    grpc_init(); /* server_free ends it */
    pthread_mutex_init(&srv->mu, NULL);
    pthread_cond_init(&srv->work_cv, NULL);
    sync_cond_init_monotonic(&srv->state_cv);
    sync_cond_init_monotonic(&srv->cancel_cv);
    srv->t_shutdown = (rpc_tag_t){TAG_SHUTDOWN, NULL};
    srv->handlers = opts->handlers;
    srv->max_message_bytes = opts->max_message_bytes;
    srv->workers = opts->workers;
    srv->queue_max = opts->queue_max;
    srv->stats.workers = (unsigned)opts->workers;

    grpc_arg args[3];
    grpc_channel_args ch;
    rpc_channel_args(&ch, args, opts->max_message_bytes);
    srv->cq = grpc_completion_queue_create_for_next(NULL);
    srv->server = grpc_server_create(&ch, NULL);
    if (!srv->cq || !srv->server) {
        s = cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: gRPC could not make a server");
        goto fail;
    }
    grpc_server_register_completion_queue(srv->server, srv->cq, NULL);
    s = server_listen(srv, opts, err);
    if (s != CUZK_OK && !srv->bound)
        goto fail;
    /* Past a successful bind gRPC needs a started server to shut down
     * cleanly, also when we are about to give up (chmod failed). */
    grpc_server_start(srv->server);
    if (s == CUZK_OK && pthread_create(&srv->poller, NULL, poller_main, srv) != 0)
        s = cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: cannot start the poller thread");
    else if (s == CUZK_OK)
        srv->poller_started = 1;
    for (int i = 0; s == CUZK_OK && i < opts->workers; i++) {
        if (pthread_create(&srv->worker_tids[i], NULL, worker_main, srv) != 0)
            s = cuzk_error_set(err, CUZK_ERR_NOMEM, "rpc: cannot start worker thread %d", i);
        else
            srv->n_workers_started++;
    }
    if (s != CUZK_OK) {
        server_stop(srv, 0, 1);
        server_free(srv);
        return s;
    }
    request_next(srv); /* the poller runs: calls can come */
    *out = srv;
    return CUZK_OK;

fail:
    /* Nothing bound: gRPC destroys a server without listeners as it is. */
    server_stop(srv, 0, 0);
    server_free(srv);
    return s;
}

int rpc_server_port(const rpc_server_t *srv)
{
    return srv->port;
}

void rpc_server_shutdown(rpc_server_t *srv, int grace_ms)
{
    if (!srv)
        return;
    server_stop(srv, grace_ms, 1);
    server_free(srv);
}

void rpc_server_stats(rpc_server_t *srv, rpc_server_stats_t *out)
{
    pthread_mutex_lock(&srv->mu);
    *out = srv->stats;
    out->active = srv->n_active;
    out->queued = srv->n_queued;
    out->busy_workers = srv->n_busy;
    pthread_mutex_unlock(&srv->mu);
}
