/* The gRPC transport (include/cuzk/rpc.h) against a fake daemon: handlers
 * that compare what arrives with what the test sent, answer with templates
 * the test compares back, echo, block until cancelled, or sleep.
 *
 * Round trips are checked on packed bytes: protobuf-c packs fields in
 * number order, so two messages pack alike exactly when every field is
 * equal. Client calls made on helper threads only record what happened;
 * the main thread asserts (cmocka cannot fail from another thread). */
#include "test_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/request.h"
#include "cuzk/rpc.h"

/* ---- the fake daemon ---- */

typedef struct fake {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *expect[RPC_METHOD_COUNT]; /* packed request the handler must see */
    size_t expect_len[RPC_METHOD_COUNT];
    uint8_t *reply[RPC_METHOD_COUNT]; /* packed response the handler answers */
    size_t reply_len[RPC_METHOD_COUNT];
    int has_expect[RPC_METHOD_COUNT], has_reply[RPC_METHOD_COUNT];
    unsigned calls[RPC_METHOD_COUNT];
    unsigned mismatches;
    unsigned blocked_now;     /* handlers inside a "block" or "sleep:" wait */
    unsigned block_cancelled; /* of which saw the cancellation */
} fake_t;

static void fake_init(fake_t *f)
{
    memset(f, 0, sizeof *f);
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
}

static void fake_clear(fake_t *f)
{
    pthread_mutex_lock(&f->mu);
    for (int m = 0; m < RPC_METHOD_COUNT; m++) {
        free(f->expect[m]);
        free(f->reply[m]);
        f->expect[m] = f->reply[m] = NULL;
        f->has_expect[m] = f->has_reply[m] = 0;
    }
    pthread_mutex_unlock(&f->mu);
}

static void fake_destroy(fake_t *f)
{
    fake_clear(f);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
}

static uint8_t *pack(const ProtobufCMessage *m, size_t *len)
{
    *len = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(*len + 1);
    protobuf_c_message_pack(m, b);
    return b;
}

static void fake_expect(fake_t *f, int m, const ProtobufCMessage *req)
{
    pthread_mutex_lock(&f->mu);
    free(f->expect[m]);
    f->expect[m] = pack(req, &f->expect_len[m]);
    f->has_expect[m] = 1;
    pthread_mutex_unlock(&f->mu);
}

static void fake_reply(fake_t *f, int m, const ProtobufCMessage *resp)
{
    pthread_mutex_lock(&f->mu);
    free(f->reply[m]);
    f->reply[m] = pack(resp, &f->reply_len[m]);
    f->has_reply[m] = 1;
    pthread_mutex_unlock(&f->mu);
}

static unsigned fake_calls(fake_t *f, int m)
{
    pthread_mutex_lock(&f->mu);
    unsigned n = f->calls[m];
    pthread_mutex_unlock(&f->mu);
    return n;
}

/* Waits (up to 10 s) until *counter reaches want. Returns 1 when it did. */
static int fake_wait_count(fake_t *f, const unsigned *counter, unsigned want)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&f->mu);
    int ok = 1;
    while (*counter < want && ok)
        ok = pthread_cond_timedwait(&f->cv, &f->mu, &until) == 0 || *counter >= want;
    ok = *counter >= want;
    pthread_mutex_unlock(&f->mu);
    return ok;
}

/* *resp becomes a deep copy of the packed template, every part malloc'd by
 * protobuf-c's default allocator, as the server's ownership rule wants:
 * unpack a copy, move its fields over, free only the copy's shell. */
static void fill_from(ProtobufCMessage *resp, const uint8_t *b, size_t n)
{
    ProtobufCMessage *tmp = protobuf_c_message_unpack(resp->descriptor, NULL, n, b);
    if (!tmp)
        abort(); /* our own template: cannot happen */
    memcpy(resp, tmp, resp->descriptor->sizeof_message);
    free(tmp);
}

/* The shared part of every handler: count, compare, answer from the
 * template. Returns 1 when a template answered. */
static int fake_common(fake_t *f, int m, const ProtobufCMessage *req, ProtobufCMessage *resp,
                       rpc_status_t *st)
{
    size_t n;
    uint8_t *got = pack(req, &n);
    pthread_mutex_lock(&f->mu);
    f->calls[m]++;
    int templ = f->has_reply[m];
    if (f->has_expect[m] && (n != f->expect_len[m] || memcmp(got, f->expect[m], n) != 0)) {
        f->mismatches++;
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "request differs from the expected one");
    }
    if (templ)
        fill_from(resp, f->reply[m], f->reply_len[m]);
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    free(got);
    return templ;
}

static void h_submit(void *ctx, const rpc_call_t *call, const Cuzk__V1__SubmitProofRequest *req,
                     Cuzk__V1__SubmitProofResponse *resp, rpc_status_t *st)
{
    (void)call;
    if (fake_common(ctx, RPC_SUBMIT_PROOF, &req->base, &resp->base, st))
        return;
    if (strcmp(req->request_id, "fail") == 0) {
        rpc_status_set(st, GRPC_STATUS_FAILED_PRECONDITION, "asked to fail");
        return;
    }
    char job[160];
    snprintf(job, sizeof job, "job:%s", req->request_id);
    rpc_set_string(&resp->job_id, job);
    rpc_set_string(&resp->assigned_gpu, req->circuit_id);
    size_t total = 0;
    for (size_t i = 0; i < req->n_witnesses; i++)
        total += req->witnesses[i].len;
    resp->queue_position = (uint32_t)(req->n_witnesses * 1000 + total % 1000);
}

/* "block": waits until cancelled; "sleep:N": N ms unless cancelled;
 * "big:N": an N-byte proof; otherwise echoes the job id. */
static void h_await(void *ctx, const rpc_call_t *call, const Cuzk__V1__AwaitProofRequest *req,
                    Cuzk__V1__AwaitProofResponse *resp, rpc_status_t *st)
{
    fake_t *f = ctx;
    if (fake_common(f, RPC_AWAIT_PROOF, &req->base, &resp->base, st))
        return;
    int block = strcmp(req->job_id, "block") == 0;
    int sleep_ms = strncmp(req->job_id, "sleep:", 6) == 0 ? atoi(req->job_id + 6) : -1;
    if (block || sleep_ms >= 0) {
        pthread_mutex_lock(&f->mu);
        f->blocked_now++;
        pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
        int cancelled = rpc_call_wait(call, block ? -1 : sleep_ms);
        pthread_mutex_lock(&f->mu);
        f->blocked_now--;
        f->block_cancelled += (unsigned)cancelled;
        pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
        if (cancelled) {
            rpc_status_set(st, GRPC_STATUS_CANCELLED, "cancelled while waiting");
            return;
        }
    }
    if (strncmp(req->job_id, "big:", 4) == 0) {
        size_t n = (size_t)strtoull(req->job_id + 4, NULL, 10);
        uint8_t *p = malloc(n);
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)(i * 31 + 7);
        rpc_set_bytes(&resp->proof, p, n);
        free(p);
    }
    rpc_set_string(&resp->job_id, req->job_id);
    resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
}

static void h_prove(void *ctx, const rpc_call_t *call, const Cuzk__V1__ProveRequest *req,
                    Cuzk__V1__ProveResponse *resp, rpc_status_t *st)
{
    (void)call;
    if (fake_common(ctx, RPC_PROVE, &req->base, &resp->base, st))
        return;
    Cuzk__V1__AwaitProofResponse *r = malloc(sizeof *r);
    cuzk__v1__await_proof_response__init(r);
    if (req->submit)
        rpc_set_string(&r->job_id, req->submit->request_id);
    r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    resp->result = r;
}

static void h_cancel(void *ctx, const rpc_call_t *call, const Cuzk__V1__CancelProofRequest *req,
                     Cuzk__V1__CancelProofResponse *resp, rpc_status_t *st)
{
    (void)call;
    if (!fake_common(ctx, RPC_CANCEL_PROOF, &req->base, &resp->base, st))
        resp->was_running = strcmp(req->job_id, "running") == 0;
}

static void h_status(void *ctx, const rpc_call_t *call, const Cuzk__V1__GetStatusRequest *req,
                     Cuzk__V1__GetStatusResponse *resp, rpc_status_t *st)
{
    (void)call;
    if (!fake_common(ctx, RPC_GET_STATUS, &req->base, &resp->base, st))
        resp->uptime_seconds = 42;
}

static void h_metrics(void *ctx, const rpc_call_t *call, const Cuzk__V1__GetMetricsRequest *req,
                      Cuzk__V1__GetMetricsResponse *resp, rpc_status_t *st)
{
    (void)call;
    fake_common(ctx, RPC_GET_METRICS, &req->base, &resp->base, st);
}

static void h_preload(void *ctx, const rpc_call_t *call, const Cuzk__V1__PreloadSrsRequest *req,
                      Cuzk__V1__PreloadSrsResponse *resp, rpc_status_t *st)
{
    (void)call;
    fake_common(ctx, RPC_PRELOAD_SRS, &req->base, &resp->base, st);
}

static void h_evict(void *ctx, const rpc_call_t *call, const Cuzk__V1__EvictSrsRequest *req,
                    Cuzk__V1__EvictSrsResponse *resp, rpc_status_t *st)
{
    (void)call;
    fake_common(ctx, RPC_EVICT_SRS, &req->base, &resp->base, st);
}

static rpc_handlers_t fake_handlers(fake_t *f)
{
    rpc_handlers_t h = {f,        h_submit,  h_await,   h_prove, h_cancel,
                        h_status, h_metrics, h_preload, h_evict};
    return h;
}

/* ---- fixture: one server on a unix socket, one client ---- */

static char g_dir[] = "/tmp/cuzk_rpc_XXXXXX";
static char g_sock[128];
static char g_target[160];
static fake_t g_fake;
static rpc_server_t *g_srv;
static rpc_client_t *g_cl;

#define MAIN_MAX_MESSAGE ((size_t)8 << 20)

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return -1;
    }
    snprintf(g_sock, sizeof g_sock, "%s/main.sock", g_dir);
    snprintf(g_target, sizeof g_target, "unix://%s", g_sock);
    fake_init(&g_fake);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = g_target;
    o.max_message_bytes = MAIN_MAX_MESSAGE;
    o.workers = 4;
    o.queue_max = 16;
    o.handlers = fake_handlers(&g_fake);
    cuzk_error_t err = {CUZK_OK, ""};
    if (rpc_server_new(&g_srv, &o, &err) != CUZK_OK) {
        fprintf(stderr, "server: %s\n", err.msg);
        return -1;
    }
    if (rpc_client_new(&g_cl, g_target, NULL, &err) != CUZK_OK) {
        fprintf(stderr, "client: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    rpc_client_free(g_cl);
    rpc_server_shutdown(g_srv, 1000);
    fake_destroy(&g_fake);
    rmdir(g_dir);
    return 0;
}

static void assert_same_message(const ProtobufCMessage *a, const ProtobufCMessage *b)
{
    assert_ptr_equal(a->descriptor, b->descriptor);
    size_t na, nb;
    uint8_t *pa = pack(a, &na), *pb = pack(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(pa, pb, na);
    free(pa);
    free(pb);
}

/* ---- the method table and the proto ---- */

static void test_methods(void **state)
{
    (void)state;
    static const char *const upstream[RPC_METHOD_COUNT] = {
        "SubmitProof", "AwaitProof", "Prove",      "CancelProof",
        "GetStatus",   "GetMetrics", "PreloadSRS", "EvictSRS"};
    for (int m = 0; m < RPC_METHOD_COUNT; m++) {
        char want[96];
        snprintf(want, sizeof want, "/cuzk.v1.ProvingEngine/%s", upstream[m]);
        assert_string_equal(rpc_method_path(m), want);
    }
    assert_null(rpc_method_path(-1));
    assert_null(rpc_method_path(RPC_METHOD_COUNT));

    /* Upstream numbers and cuzk's additions, where clients depend on them. */
    const ProtobufCMessageDescriptor *sd = &cuzk__v1__submit_proof_request__descriptor;
    struct {
        const char *name;
        unsigned id;
    } fields[] = {{"request_id", 1},     {"proof_kind", 2},      {"priority", 5},
                  {"vanilla_proof", 10}, {"vanilla_proofs", 11}, {"partition_index", 23},
                  {"comm_d_new", 32},    {"circuit_id", 100},    {"witnesses", 101}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field_by_name(sd, fields[i].name);
        assert_non_null(fd);
        assert_int_equal(fd->id, fields[i].id);
    }
    assert_int_equal(protobuf_c_message_descriptor_get_field_by_name(sd, "witnesses")->label,
                     PROTOBUF_C_LABEL_REPEATED);
    const ProtobufCMessageDescriptor *ad = &cuzk__v1__await_proof_response__descriptor;
    assert_int_equal(protobuf_c_message_descriptor_get_field_by_name(ad, "proof")->id, 3);
    assert_int_equal(protobuf_c_message_descriptor_get_field_by_name(ad, "total_ms")->id, 14);
    assert_int_equal(protobuf_c_message_descriptor_get_field_by_name(ad, "public_signals")->id,
                     100);
    assert_int_equal(CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT, 100);
    assert_int_equal(CUZK__V1__PROOF_KIND__WINNING_POST, 4);
    assert_int_equal(CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT, 4);
    assert_int_equal(CUZK__V1__PRIORITY__CRITICAL, 4);
}

static void test_status_maps(void **state)
{
    (void)state;
    assert_string_equal(rpc_status_code_str(GRPC_STATUS_OK), "OK");
    assert_string_equal(rpc_status_code_str(GRPC_STATUS_DEADLINE_EXCEEDED), "DEADLINE_EXCEEDED");
    assert_string_equal(rpc_status_code_str(GRPC_STATUS_UNAUTHENTICATED), "UNAUTHENTICATED");
    assert_string_equal(rpc_status_code_str(99), "INVALID_CODE");
    assert_string_equal(rpc_status_code_str(-1), "INVALID_CODE");
    assert_int_equal(rpc_status_from_cuzk(CUZK_OK), GRPC_STATUS_OK);
    assert_int_equal(rpc_status_from_cuzk(CUZK_ERR_ARG), GRPC_STATUS_INVALID_ARGUMENT);
    assert_int_equal(rpc_status_from_cuzk(CUZK_ERR_UNSUPPORTED), GRPC_STATUS_UNIMPLEMENTED);
    assert_int_equal(rpc_status_from_cuzk(CUZK_ERR_BUSY), GRPC_STATUS_RESOURCE_EXHAUSTED);
    assert_int_equal(rpc_status_from_cuzk(CUZK_ERR_TIMEOUT), GRPC_STATUS_DEADLINE_EXCEEDED);
    assert_int_equal(rpc_status_from_cuzk(CUZK_ERR_CUDA), GRPC_STATUS_INTERNAL);
    /* Every cuzk status maps to a code that maps back to a status of the
     * same family for the ones a client acts on. */
    assert_int_equal(rpc_status_to_cuzk(rpc_status_from_cuzk(CUZK_ERR_ARG)), CUZK_ERR_ARG);
    assert_int_equal(rpc_status_to_cuzk(rpc_status_from_cuzk(CUZK_ERR_TIMEOUT)), CUZK_ERR_TIMEOUT);
    assert_int_equal(rpc_status_to_cuzk(rpc_status_from_cuzk(CUZK_ERR_CANCELLED)),
                     CUZK_ERR_CANCELLED);
    assert_int_equal(rpc_status_to_cuzk(rpc_status_from_cuzk(CUZK_ERR_BUSY)), CUZK_ERR_BUSY);
    assert_int_equal(rpc_status_to_cuzk(rpc_status_from_cuzk(CUZK_ERR_UNSUPPORTED)),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(rpc_status_to_cuzk(GRPC_STATUS_UNAVAILABLE), CUZK_ERR_IO);
    rpc_status_t st;
    rpc_status_set(&st, GRPC_STATUS_ABORTED, "x=%d", 5);
    assert_int_equal(st.code, GRPC_STATUS_ABORTED);
    assert_string_equal(st.message, "x=5");
    rpc_status_set(NULL, GRPC_STATUS_ABORTED, "ignored");
}

/* ---- every RPC, every field ---- */

static const uint8_t k_nul_bytes[] = {0, 'a', 0, 'b', 0xff, 0};
static uint8_t k32a[32], k32b[32], k32c[32], k32d[32];
static uint8_t w0[300], w2[70000];

static void full_submit(Cuzk__V1__SubmitProofRequest *r, ProtobufCBinaryData *vp,
                        ProtobufCBinaryData *ws)
{
    for (int i = 0; i < 32; i++) {
        k32a[i] = (uint8_t)i;
        k32b[i] = (uint8_t)(255 - i);
        k32c[i] = (uint8_t)(i * 7);
        k32d[i] = (uint8_t)(i & 1 ? 0 : 0xaa);
    }
    for (size_t i = 0; i < sizeof w0; i++)
        w0[i] = (uint8_t)(i % 3 ? 0 : i);
    for (size_t i = 0; i < sizeof w2; i++)
        w2[i] = (uint8_t)(i * 131);
    cuzk__v1__submit_proof_request__init(r);
    r->request_id = "req-7 (retry 2)";
    r->proof_kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    r->sector_size = 34359738368ull;
    r->registered_proof = 8;
    r->priority = CUZK__V1__PRIORITY__CRITICAL;
    r->vanilla_proof = (ProtobufCBinaryData){sizeof k_nul_bytes, (uint8_t *)k_nul_bytes};
    vp[0] = (ProtobufCBinaryData){3, (uint8_t *)"\0\0\0"};
    vp[1] = (ProtobufCBinaryData){sizeof k32a, k32a};
    r->n_vanilla_proofs = 2;
    r->vanilla_proofs = vp;
    r->sector_number = 12345678901ull;
    r->miner_id = 1000;
    r->randomness = (ProtobufCBinaryData){32, k32b};
    r->partition_index = 7;
    r->comm_r_old = (ProtobufCBinaryData){32, k32a};
    r->comm_r_new = (ProtobufCBinaryData){32, k32c};
    r->comm_d_new = (ProtobufCBinaryData){32, k32d};
    r->circuit_id = "multiplier-2.v1_test";
    /* Three partitions, the middle one empty: repeated bytes keep empty
     * elements and their order. */
    ws[0] = (ProtobufCBinaryData){sizeof w0, w0};
    ws[1] = (ProtobufCBinaryData){0, w0};
    ws[2] = (ProtobufCBinaryData){sizeof w2, w2};
    r->n_witnesses = 3;
    r->witnesses = ws;
}

static void full_await_resp(Cuzk__V1__AwaitProofResponse *r)
{
    cuzk__v1__await_proof_response__init(r);
    r->job_id = "job-99";
    r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    r->proof = (ProtobufCBinaryData){sizeof k_nul_bytes, (uint8_t *)k_nul_bytes};
    r->error_message = "proof failed verification";
    r->queue_wait_ms = 10;
    r->srs_load_ms = 11;
    r->synthesis_ms = 12;
    r->gpu_compute_ms = 13;
    r->total_ms = 14;
    r->public_signals = (ProtobufCBinaryData){12, (uint8_t *)"[\"33\",\"0\"]\n"};
}

static void test_roundtrip_all(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_status_t st;

    /* SubmitProof */
    Cuzk__V1__SubmitProofRequest sub;
    ProtobufCBinaryData vp[2], ws[3];
    full_submit(&sub, vp, ws);
    Cuzk__V1__SubmitProofResponse sub_r = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
    sub_r.job_id = "job-1";
    sub_r.queue_position = 3;
    sub_r.assigned_gpu = "gpu0";
    fake_expect(&g_fake, RPC_SUBMIT_PROOF, &sub.base);
    fake_reply(&g_fake, RPC_SUBMIT_PROOF, &sub_r.base);
    Cuzk__V1__SubmitProofResponse *sub_got = NULL;
    assert_int_equal(rpc_submit_proof(g_cl, &sub_got, &sub, 5000, &st, &err), CUZK_OK);
    assert_int_equal(st.code, GRPC_STATUS_OK);
    assert_same_message(&sub_got->base, &sub_r.base);
    cuzk__v1__submit_proof_response__free_unpacked(sub_got, NULL);

    /* AwaitProof */
    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    aw.job_id = "job-99";
    aw.timeout_ms = 1234;
    Cuzk__V1__AwaitProofResponse aw_r;
    full_await_resp(&aw_r);
    fake_expect(&g_fake, RPC_AWAIT_PROOF, &aw.base);
    fake_reply(&g_fake, RPC_AWAIT_PROOF, &aw_r.base);
    Cuzk__V1__AwaitProofResponse *aw_got = NULL;
    assert_int_equal(rpc_await_proof(g_cl, &aw_got, &aw, 5000, &st, &err), CUZK_OK);
    assert_same_message(&aw_got->base, &aw_r.base);
    assert_int_equal(aw_got->proof.len, sizeof k_nul_bytes);
    assert_memory_equal(aw_got->proof.data, k_nul_bytes, sizeof k_nul_bytes);
    assert_int_equal(aw_got->public_signals.len, 12);
    cuzk__v1__await_proof_response__free_unpacked(aw_got, NULL);

    /* Prove: the nested messages both ways */
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &sub;
    Cuzk__V1__ProveResponse pr_r = CUZK__V1__PROVE_RESPONSE__INIT;
    pr_r.result = &aw_r;
    fake_expect(&g_fake, RPC_PROVE, &pr.base);
    fake_reply(&g_fake, RPC_PROVE, &pr_r.base);
    Cuzk__V1__ProveResponse *pr_got = NULL;
    assert_int_equal(rpc_prove(g_cl, &pr_got, &pr, 5000, &st, &err), CUZK_OK);
    assert_same_message(&pr_got->base, &pr_r.base);
    assert_non_null(pr_got->result);
    assert_string_equal(pr_got->result->error_message, "proof failed verification");
    cuzk__v1__prove_response__free_unpacked(pr_got, NULL);

    /* CancelProof */
    Cuzk__V1__CancelProofRequest ca = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    ca.job_id = "job-5";
    Cuzk__V1__CancelProofResponse ca_r = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    ca_r.was_running = 1;
    fake_expect(&g_fake, RPC_CANCEL_PROOF, &ca.base);
    fake_reply(&g_fake, RPC_CANCEL_PROOF, &ca_r.base);
    Cuzk__V1__CancelProofResponse *ca_got = NULL;
    assert_int_equal(rpc_cancel_proof(g_cl, &ca_got, &ca, 5000, &st, &err), CUZK_OK);
    assert_same_message(&ca_got->base, &ca_r.base);
    cuzk__v1__cancel_proof_response__free_unpacked(ca_got, NULL);

    /* GetStatus: repeated sub-messages */
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GPUStatus g0 = CUZK__V1__GPUSTATUS__INIT, g1 = CUZK__V1__GPUSTATUS__INIT;
    g0.ordinal = 0;
    g0.name = "NVIDIA H200";
    g0.vram_total_bytes = 150ull << 30;
    g0.vram_free_bytes = 3;
    g0.current_job_id = "job-1";
    g0.current_proof_kind = "GROTH16_CIRCUIT";
    g1.ordinal = 1;
    g1.name = "cpu";
    Cuzk__V1__GPUStatus *gpus[2] = {&g0, &g1};
    Cuzk__V1__SRSStatus s0 = CUZK__V1__SRSSTATUS__INIT, s1 = CUZK__V1__SRSSTATUS__INIT;
    s0.circuit_id = "porep-32g";
    s0.tier = CUZK__V1__SRSSTATUS__TIER__WARM;
    s0.size_bytes = 47ull << 30;
    s0.ref_count = 2;
    s1.circuit_id = "multiplier";
    s1.tier = CUZK__V1__SRSSTATUS__TIER__COLD;
    Cuzk__V1__SRSStatus *srs[2] = {&s0, &s1};
    Cuzk__V1__QueueStatus q0 = CUZK__V1__QUEUE_STATUS__INIT;
    q0.proof_kind = "GROTH16_CIRCUIT";
    q0.pending = 5;
    q0.in_progress = 1;
    Cuzk__V1__QueueStatus *qs[1] = {&q0};
    Cuzk__V1__GetStatusResponse gs_r = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    gs_r.n_gpus = 2;
    gs_r.gpus = gpus;
    gs_r.n_loaded_srs = 2;
    gs_r.loaded_srs = srs;
    gs_r.n_queues = 1;
    gs_r.queues = qs;
    gs_r.total_proofs_completed = 100;
    gs_r.total_proofs_failed = 2;
    gs_r.uptime_seconds = 3600;
    gs_r.pinned_memory_bytes = 1ull << 33;
    gs_r.pinned_memory_limit_bytes = 1ull << 34;
    fake_expect(&g_fake, RPC_GET_STATUS, &gs.base);
    fake_reply(&g_fake, RPC_GET_STATUS, &gs_r.base);
    Cuzk__V1__GetStatusResponse *gs_got = NULL;
    assert_int_equal(rpc_get_status(g_cl, &gs_got, &gs, 5000, &st, &err), CUZK_OK);
    assert_same_message(&gs_got->base, &gs_r.base);
    assert_int_equal(gs_got->n_gpus, 2);
    assert_string_equal(gs_got->gpus[0]->name, "NVIDIA H200");
    cuzk__v1__get_status_response__free_unpacked(gs_got, NULL);

    /* GetMetrics */
    Cuzk__V1__GetMetricsRequest gm = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse gm_r = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    gm_r.prometheus_text = "# TYPE cuzk_proofs_total counter\ncuzk_proofs_total 5\n";
    fake_expect(&g_fake, RPC_GET_METRICS, &gm.base);
    fake_reply(&g_fake, RPC_GET_METRICS, &gm_r.base);
    Cuzk__V1__GetMetricsResponse *gm_got = NULL;
    assert_int_equal(rpc_get_metrics(g_cl, &gm_got, &gm, 5000, &st, &err), CUZK_OK);
    assert_same_message(&gm_got->base, &gm_r.base);
    cuzk__v1__get_metrics_response__free_unpacked(gm_got, NULL);

    /* PreloadSRS / EvictSRS */
    Cuzk__V1__PreloadSrsRequest pl = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    pl.circuit_id = "porep-32g";
    Cuzk__V1__PreloadSrsResponse pl_r = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    pl_r.already_loaded = 1;
    pl_r.load_time_ms = 77;
    fake_expect(&g_fake, RPC_PRELOAD_SRS, &pl.base);
    fake_reply(&g_fake, RPC_PRELOAD_SRS, &pl_r.base);
    Cuzk__V1__PreloadSrsResponse *pl_got = NULL;
    assert_int_equal(rpc_preload_srs(g_cl, &pl_got, &pl, 5000, &st, &err), CUZK_OK);
    assert_same_message(&pl_got->base, &pl_r.base);
    cuzk__v1__preload_srs_response__free_unpacked(pl_got, NULL);

    Cuzk__V1__EvictSrsRequest ev = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    ev.circuit_id = "wpost-32g";
    Cuzk__V1__EvictSrsResponse ev_r = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    ev_r.was_loaded = 1;
    ev_r.freed_bytes = 1ull << 40;
    fake_expect(&g_fake, RPC_EVICT_SRS, &ev.base);
    fake_reply(&g_fake, RPC_EVICT_SRS, &ev_r.base);
    Cuzk__V1__EvictSrsResponse *ev_got = NULL;
    assert_int_equal(rpc_evict_srs(g_cl, &ev_got, &ev, 5000, &st, &err), CUZK_OK);
    assert_same_message(&ev_got->base, &ev_r.base);
    cuzk__v1__evict_srs_response__free_unpacked(ev_got, NULL);

    /* A request that differs reaches the handler as different. */
    sub.partition_index = 8;
    assert_int_equal(rpc_submit_proof(g_cl, &sub_got, &sub, 5000, &st, &err), CUZK_ERR_ARG);
    assert_int_equal(st.code, GRPC_STATUS_INVALID_ARGUMENT);
    assert_null(sub_got);
    pthread_mutex_lock(&g_fake.mu);
    assert_int_equal(g_fake.mismatches, 1);
    g_fake.mismatches = 0;
    pthread_mutex_unlock(&g_fake.mu);
    fake_clear(&g_fake);

    /* A handler's own error reaches the client with its message. */
    Cuzk__V1__SubmitProofRequest failing = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    failing.request_id = "fail";
    assert_int_equal(rpc_submit_proof(g_cl, &sub_got, &failing, 5000, &st, &err), CUZK_ERR_ARG);
    assert_int_equal(st.code, GRPC_STATUS_FAILED_PRECONDITION);
    assert_string_equal(st.message, "asked to fail");
    assert_non_null(strstr(err.msg, "FAILED_PRECONDITION"));

    /* A typed call refuses a message of another type. */
    assert_int_equal(rpc_submit_proof(g_cl, &sub_got, (const Cuzk__V1__SubmitProofRequest *)&ca,
                                      5000, &st, &err),
                     CUZK_ERR_ARG);
}

/* ---- sizes ---- */

static void test_large_messages(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_status_t st;
    size_t part = (size_t)2 << 20; /* 3 x 2 MiB: under the server's 8 MiB */
    uint8_t *big = malloc((size_t)9 << 20);
    for (size_t i = 0; i < ((size_t)9 << 20); i++)
        big[i] = (uint8_t)(i * 2654435761u >> 24);
    ProtobufCBinaryData ws[3] = {{part, big}, {part, big + part}, {part, big + 2 * part}};
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.request_id = "large";
    r.circuit_id = "c";
    r.n_witnesses = 3;
    r.witnesses = ws;
    Cuzk__V1__SubmitProofResponse *got = NULL;
    assert_int_equal(rpc_submit_proof(g_cl, &got, &r, 20000, &st, &err), CUZK_OK);
    assert_string_equal(got->job_id, "job:large");
    assert_int_equal(got->queue_position, 3000 + (3 * part) % 1000);
    cuzk__v1__submit_proof_response__free_unpacked(got, NULL);

    /* A large response (6 MiB) is fine too, and its bytes arrive intact. */
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    char id[64];
    snprintf(id, sizeof id, "big:%zu", (size_t)6 << 20);
    a.job_id = id;
    Cuzk__V1__AwaitProofResponse *ar = NULL;
    assert_int_equal(rpc_await_proof(g_cl, &ar, &a, 20000, &st, &err), CUZK_OK);
    assert_int_equal(ar->proof.len, (size_t)6 << 20);
    int same = 1;
    for (size_t i = 0; i < ar->proof.len; i++)
        same &= ar->proof.data[i] == (uint8_t)(i * 31 + 7);
    assert_true(same);
    cuzk__v1__await_proof_response__free_unpacked(ar, NULL);

    /* Over the server's limit: gRPC's own RESOURCE_EXHAUSTED. */
    ProtobufCBinaryData one = {(size_t)9 << 20, big};
    r.n_witnesses = 1;
    r.witnesses = &one;
    unsigned before = fake_calls(&g_fake, RPC_SUBMIT_PROOF);
    assert_int_equal(rpc_submit_proof(g_cl, &got, &r, 20000, &st, &err), CUZK_ERR_BUSY);
    assert_int_equal(st.code, GRPC_STATUS_RESOURCE_EXHAUSTED);
    assert_null(got);
    assert_int_equal(fake_calls(&g_fake, RPC_SUBMIT_PROOF), before); /* no handler ran */

    /* A response over the limit: ours. */
    snprintf(id, sizeof id, "big:%zu", (size_t)9 << 20);
    assert_int_equal(rpc_await_proof(g_cl, &ar, &a, 20000, &st, &err), CUZK_ERR_BUSY);
    assert_int_equal(st.code, GRPC_STATUS_RESOURCE_EXHAUSTED);
    assert_non_null(strstr(st.message, "max_message_bytes"));

    /* Over the client's own limit: refused before it leaves. */
    rpc_client_opts_t co;
    rpc_client_opts_default(&co);
    co.max_message_bytes = 1 << 20;
    rpc_client_t *small = NULL;
    assert_int_equal(rpc_client_new(&small, g_target, &co, &err), CUZK_OK);
    ProtobufCBinaryData two = {(size_t)2 << 20, big};
    r.witnesses = &two;
    assert_int_equal(rpc_submit_proof(small, &got, &r, 20000, &st, &err), CUZK_ERR_BUSY);
    assert_int_equal(st.code, GRPC_STATUS_RESOURCE_EXHAUSTED);
    /* ...and a reply over it likewise. */
    snprintf(id, sizeof id, "big:%zu", (size_t)2 << 20);
    assert_int_equal(rpc_await_proof(small, &ar, &a, 20000, &st, &err), CUZK_ERR_BUSY);
    assert_int_equal(st.code, GRPC_STATUS_RESOURCE_EXHAUSTED);
    rpc_client_free(small);
    free(big);

    /* The server goes on serving. */
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *gr = NULL;
    assert_int_equal(rpc_get_status(g_cl, &gr, &gs, 5000, &st, &err), CUZK_OK);
    assert_int_equal(gr->uptime_seconds, 42);
    cuzk__v1__get_status_response__free_unpacked(gr, NULL);
}

/* ---- methods that do not exist, requests that do not parse ---- */

static void test_unimplemented(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_status_t st;
    uint8_t *resp = NULL;
    size_t n = 0;
    assert_int_equal(rpc_client_call_raw(g_cl, &resp, &n, "/cuzk.v1.ProvingEngine/Nope", NULL, 0,
                                         5000, &st, &err),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(st.code, GRPC_STATUS_UNIMPLEMENTED);
    assert_null(resp);
    assert_int_equal(rpc_client_call_raw(g_cl, &resp, &n, "/other.Service/SubmitProof",
                                         (const uint8_t *)"\x0a\x01x", 3, 5000, &st, &err),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(st.code, GRPC_STATUS_UNIMPLEMENTED);

    /* A table without some handlers: those methods are UNIMPLEMENTED, the
     * others served. TCP on an ephemeral port. */
    fake_t f;
    fake_init(&f);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = "127.0.0.1:0";
    o.workers = 2;
    o.handlers = fake_handlers(&f);
    o.handlers.evict_srs = NULL;
    o.handlers.prove = NULL;
    rpc_server_t *srv = NULL;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_OK);
    int port = rpc_server_port(srv);
    assert_true(port > 0 && port < 65536);
    char target[64];
    snprintf(target, sizeof target, "127.0.0.1:%d", port);
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, NULL, &err), CUZK_OK);
    Cuzk__V1__EvictSrsRequest ev = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    Cuzk__V1__EvictSrsResponse *evr = NULL;
    assert_int_equal(rpc_evict_srs(cl, &evr, &ev, 5000, &st, &err), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(st.code, GRPC_STATUS_UNIMPLEMENTED);
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    Cuzk__V1__ProveResponse *prr = NULL;
    assert_int_equal(rpc_prove(cl, &prr, &pr, 5000, &st, &err), CUZK_ERR_UNSUPPORTED);
    Cuzk__V1__CancelProofRequest ca = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    ca.job_id = "running";
    Cuzk__V1__CancelProofResponse *car = NULL;
    assert_int_equal(rpc_cancel_proof(cl, &car, &ca, 5000, &st, &err), CUZK_OK);
    assert_true(car->was_running);
    cuzk__v1__cancel_proof_response__free_unpacked(car, NULL);
    assert_int_equal(fake_calls(&f, RPC_EVICT_SRS), 0);

    /* A second server on the same port is refused (no SO_REUSEPORT). */
    rpc_server_t *dup = NULL;
    o.listen = target;
    assert_int_equal(rpc_server_new(&dup, &o, &err), CUZK_ERR_ARG);
    assert_null(dup);

    rpc_server_stats_t ss;
    rpc_server_stats(srv, &ss);
    assert_int_equal(ss.unimplemented, 2);
    assert_int_equal(ss.handled[RPC_CANCEL_PROOF], 1);
    assert_int_equal(ss.workers, 2);
    rpc_client_free(cl);
    rpc_server_shutdown(srv, 1000);
    fake_destroy(&f);
}

static void test_garbage(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_status_t st;
    uint8_t *resp = NULL;
    size_t n = 0;
    rpc_server_stats_t s0, s1;
    rpc_server_stats(g_srv, &s0);
    unsigned calls = fake_calls(&g_fake, RPC_SUBMIT_PROOF);
    static const struct {
        const uint8_t *b;
        size_t n;
    } bad[] = {
        {(const uint8_t *)"\x0a\x05"
                          "a",
         3}, /* field 1: 5 bytes promised, 1 sent */
        {(const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
         11},                                 /* a varint that never ends */
        {(const uint8_t *)"\x0f", 1},         /* wire type 7 does not exist */
        {(const uint8_t *)"\xaa\x06\x80", 3}, /* witnesses (101): truncated length */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(rpc_client_call_raw(g_cl, &resp, &n, rpc_method_path(RPC_SUBMIT_PROOF),
                                             bad[i].b, bad[i].n, 5000, &st, &err),
                         CUZK_ERR_ARG);
        assert_int_equal(st.code, GRPC_STATUS_INVALID_ARGUMENT);
        assert_non_null(strstr(st.message, "cuzk.v1.SubmitProofRequest"));
    }
    assert_int_equal(fake_calls(&g_fake, RPC_SUBMIT_PROOF), calls); /* no handler saw them */
    rpc_server_stats(g_srv, &s1);
    assert_int_equal(s1.bad_request - s0.bad_request, sizeof bad / sizeof bad[0]);

    /* Zero bytes are a valid, empty message; the reply unpacks. */
    assert_int_equal(rpc_client_call_raw(g_cl, &resp, &n, rpc_method_path(RPC_SUBMIT_PROOF), NULL,
                                         0, 5000, &st, &err),
                     CUZK_OK);
    Cuzk__V1__SubmitProofResponse *r = cuzk__v1__submit_proof_response__unpack(NULL, n, resp);
    assert_non_null(r);
    assert_string_equal(r->job_id, "job:");
    cuzk__v1__submit_proof_response__free_unpacked(r, NULL);
    free(resp);
}

/* ---- blocking handlers, deadlines, a full pool ---- */

typedef struct bg_call {
    pthread_t tid;
    rpc_client_t *cl;
    const char *job_id;
    int timeout_ms;
    cuzk_status rc;
    rpc_status_t st;
    uint64_t ms; /* how long the call took */
} bg_call_t;

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void *bg_await(void *arg)
{
    bg_call_t *b = arg;
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = (char *)b->job_id;
    Cuzk__V1__AwaitProofResponse *r = NULL;
    uint64_t t0 = now_ms();
    b->rc = rpc_await_proof(b->cl, &r, &a, b->timeout_ms, &b->st, NULL);
    b->ms = now_ms() - t0;
    if (r)
        cuzk__v1__await_proof_response__free_unpacked(r, NULL);
    return NULL;
}

static void bg_start(bg_call_t *b, rpc_client_t *cl, const char *job_id, int timeout_ms)
{
    memset(b, 0, sizeof *b);
    b->cl = cl;
    b->job_id = job_id;
    b->timeout_ms = timeout_ms;
    assert_int_equal(pthread_create(&b->tid, NULL, bg_await, b), 0);
}

static void test_blocked_handler_and_deadline(void **state)
{
    (void)state;
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "blocked handler", 60, NULL, NULL);
    pthread_mutex_lock(&g_fake.mu);
    unsigned cancelled0 = g_fake.block_cancelled;
    pthread_mutex_unlock(&g_fake.mu);
    bg_call_t b;
    bg_start(&b, g_cl, "block", 1500);
    assert_true(fake_wait_count(&g_fake, &g_fake.blocked_now, 1));

    /* While one worker is held, the others serve every other call. */
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_status_t st;
    for (int i = 0; i < 20; i++) {
        Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
        Cuzk__V1__GetStatusResponse *gr = NULL;
        uint64_t t0 = now_ms();
        assert_int_equal(rpc_get_status(g_cl, &gr, &gs, 5000, &st, &err), CUZK_OK);
        assert_true(now_ms() - t0 < 1000);
        cuzk__v1__get_status_response__free_unpacked(gr, NULL);
    }
    pthread_mutex_lock(&g_fake.mu);
    assert_int_equal(g_fake.blocked_now, 1); /* still held */
    pthread_mutex_unlock(&g_fake.mu);

    /* The client's deadline ends the call, and the handler sees it. */
    pthread_join(b.tid, NULL);
    assert_int_equal(b.rc, CUZK_ERR_TIMEOUT);
    assert_int_equal(b.st.code, GRPC_STATUS_DEADLINE_EXCEEDED);
    assert_true(b.ms >= 1400 && b.ms < 10000);
    unsigned want = cancelled0 + 1;
    assert_true(fake_wait_count(&g_fake, &g_fake.block_cancelled, want));
    tu_watchdog_stop(&wd);
}

static void test_pool_full(void **state)
{
    (void)state;
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "pool full", 60, NULL, NULL);
    fake_t f;
    fake_init(&f);
    char path[160], target[192];
    snprintf(path, sizeof path, "%s/pool.sock", g_dir);
    snprintf(target, sizeof target, "unix://%s", path);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = target;
    o.workers = 1;
    o.queue_max = 0;
    o.handlers = fake_handlers(&f);
    rpc_server_t *srv = NULL;
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_OK);
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, NULL, &err), CUZK_OK);

    bg_call_t b;
    bg_start(&b, cl, "block", 2000);
    assert_true(fake_wait_count(&f, &f.blocked_now, 1));
    rpc_status_t st;
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *gr = NULL;
    uint64_t t0 = now_ms();
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 5000, &st, &err), CUZK_ERR_BUSY);
    assert_int_equal(st.code, GRPC_STATUS_RESOURCE_EXHAUSTED);
    assert_true(now_ms() - t0 < 1000); /* answered at once, not queued */
    rpc_server_stats_t ss;
    rpc_server_stats(srv, &ss);
    assert_int_equal(ss.rejected_busy, 1);
    assert_int_equal(ss.busy_workers, 1);

    pthread_join(b.tid, NULL);
    assert_int_equal(b.st.code, GRPC_STATUS_DEADLINE_EXCEEDED);
    assert_true(fake_wait_count(&f, &f.block_cancelled, 1));
    /* The worker is free again (once its handler has returned: the fake
     * counts the cancellation just before). */
    for (int i = 0; i < 500; i++) {
        rpc_server_stats(srv, &ss);
        if (ss.busy_workers == 0)
            break;
        usleep(10000);
    }
    assert_int_equal(ss.busy_workers, 0);
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 5000, &st, &err), CUZK_OK);
    cuzk__v1__get_status_response__free_unpacked(gr, NULL);
    rpc_client_free(cl);
    rpc_server_shutdown(srv, 1000);
    fake_destroy(&f);
    tu_watchdog_stop(&wd);
}

/* ---- many threads ---- */

#define CONC_THREADS 8
#define CONC_CALLS 200

typedef struct conc {
    pthread_t tid;
    int id;
    int ok, bad;
    char first_error[CUZK_ERRMSG_MAX];
} conc_t;

static void *conc_main(void *arg)
{
    conc_t *c = arg;
    for (int i = 0; i < CONC_CALLS; i++) {
        char rid[32], want[48];
        snprintf(rid, sizeof rid, "t%d-%d", c->id, i);
        snprintf(want, sizeof want, "job:%s", rid);
        uint8_t w[5] = {(uint8_t)c->id, 0, (uint8_t)i, 0, 1};
        ProtobufCBinaryData wb = {sizeof w, w};
        Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        r.request_id = rid;
        r.circuit_id = "conc";
        r.n_witnesses = 1;
        r.witnesses = &wb;
        Cuzk__V1__SubmitProofResponse *got = NULL;
        cuzk_error_t err = {CUZK_OK, ""};
        cuzk_status s = rpc_submit_proof(g_cl, &got, &r, 20000, NULL, &err);
        if (s == CUZK_OK && strcmp(got->job_id, want) == 0 && got->queue_position == 1005 &&
            strcmp(got->assigned_gpu, "conc") == 0) {
            c->ok++;
        } else {
            if (!c->bad)
                snprintf(c->first_error, sizeof c->first_error, "%s", err.msg);
            c->bad++;
        }
        if (got)
            cuzk__v1__submit_proof_response__free_unpacked(got, NULL);
    }
    return NULL;
}

static void test_concurrent_clients(void **state)
{
    (void)state;
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "8 threads x 200 calls", 120, NULL, NULL);
    unsigned before = fake_calls(&g_fake, RPC_SUBMIT_PROOF);
    conc_t c[CONC_THREADS];
    for (int t = 0; t < CONC_THREADS; t++) {
        memset(&c[t], 0, sizeof c[t]);
        c[t].id = t;
        assert_int_equal(pthread_create(&c[t].tid, NULL, conc_main, &c[t]), 0);
    }
    for (int t = 0; t < CONC_THREADS; t++) {
        pthread_join(c[t].tid, NULL);
        if (c[t].bad)
            print_message("thread %d: %d bad, first: %s\n", t, c[t].bad, c[t].first_error);
        assert_int_equal(c[t].ok, CONC_CALLS);
    }
    assert_int_equal(fake_calls(&g_fake, RPC_SUBMIT_PROOF) - before, CONC_THREADS * CONC_CALLS);
    tu_watchdog_stop(&wd);
}

/* ---- unix sockets ---- */

static void test_socket_files(void **state)
{
    (void)state;
    struct stat sb;
    assert_int_equal(stat(g_sock, &sb), 0);
    assert_true(S_ISSOCK(sb.st_mode));
    assert_int_equal(sb.st_mode & 07777, 0600);

    cuzk_error_t err = {CUZK_OK, ""};
    fake_t f;
    fake_init(&f);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.handlers = fake_handlers(&f);
    o.workers = 1;

    /* A live socket is not taken over. */
    rpc_server_t *srv = NULL;
    o.listen = g_target;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_BUSY);
    assert_null(srv);
    assert_int_equal(stat(g_sock, &sb), 0); /* and still there */

    /* A file that is not a socket is never removed. */
    char path[160], target[192];
    snprintf(path, sizeof path, "%s/plain", g_dir);
    snprintf(target, sizeof target, "unix:%s", path);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("keep me\n", fp);
    fclose(fp);
    o.listen = target;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "not a socket"));
    assert_int_equal(stat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    unlink(path);

    /* A stale socket (bound, nobody listening) is replaced; the mode asked
     * for is set; shutdown removes the socket. */
    snprintf(path, sizeof path, "%s/stale.sock", g_dir);
    snprintf(target, sizeof target, "unix://%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    assert_true(strlen(path) < sizeof sa.sun_path);
    memcpy(sa.sun_path, path, strlen(path) + 1);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    close(fd);
    assert_int_equal(stat(path, &sb), 0);
    o.listen = target;
    o.socket_mode = 0660;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_OK);
    assert_int_equal(stat(path, &sb), 0);
    assert_true(S_ISSOCK(sb.st_mode));
    assert_int_equal(sb.st_mode & 07777, 0660);
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, NULL, &err), CUZK_OK);
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *gr = NULL;
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 5000, NULL, &err), CUZK_OK);
    cuzk__v1__get_status_response__free_unpacked(gr, NULL);
    rpc_client_free(cl);
    rpc_server_shutdown(srv, 1000);
    assert_int_equal(stat(path, &sb), -1);
    assert_int_equal(errno, ENOENT);
    fake_destroy(&f);
}

/* ---- options ---- */

static void test_bad_options(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_server_opts_t o;
    rpc_server_t *srv = (rpc_server_t *)&err; /* must be reset to NULL */
    char target[192];
    snprintf(target, sizeof target, "unix://%s/opts.sock", g_dir);

    rpc_server_opts_default(&o);
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG); /* no listen */
    assert_null(srv);
    o.listen = target;
    o.workers = 0;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "workers"));
    o.workers = 1;
    o.max_message_bytes = 0;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    o.max_message_bytes = RPC_MAX_MESSAGE_LIMIT + 1;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    o.max_message_bytes = 1 << 20;
    o.queue_max = -1;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    o.queue_max = 0;
    o.tls_cert_path = "/nonexistent/cert.pem";
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG); /* no key */
    o.tls_key_path = "/nonexistent/key.pem";
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/cert.pem"));
    o.tls_cert_path = o.tls_key_path = NULL;
    o.tls_client_ca_path = "/nonexistent/ca.pem";
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    o.tls_client_ca_path = NULL;
    o.listen = "unix:"; /* empty path */
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    o.listen = "256.1.1.1:99999";
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_ERR_ARG);
    assert_null(srv);
    struct stat sb;
    char path[160];
    snprintf(path, sizeof path, "%s/opts.sock", g_dir);
    assert_int_equal(stat(path, &sb), -1); /* nothing left behind */

    rpc_client_t *cl = (rpc_client_t *)&err;
    rpc_client_opts_t co;
    rpc_client_opts_default(&co);
    co.max_message_bytes = 0;
    assert_int_equal(rpc_client_new(&cl, "127.0.0.1:1", &co, &err), CUZK_ERR_ARG);
    assert_null(cl);
    rpc_client_opts_default(&co);
    co.tls_server_name = "x";
    assert_int_equal(rpc_client_new(&cl, "127.0.0.1:1", &co, &err), CUZK_ERR_ARG);
    rpc_client_opts_default(&co);
    co.tls_root_cert_path = "/nonexistent/root.pem";
    assert_int_equal(rpc_client_new(&cl, "127.0.0.1:1", &co, &err), CUZK_ERR_IO);
    assert_int_equal(rpc_client_new(&cl, "", NULL, &err), CUZK_ERR_ARG);
    rpc_server_shutdown(NULL, 0);
    rpc_client_free(NULL);
}

/* No daemon: fail fast by default; with wait_for_ready the deadline ends it. */
static void test_unavailable(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    char target[192];
    snprintf(target, sizeof target, "unix://%s/nobody.sock", g_dir);
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, NULL, &err), CUZK_OK);
    rpc_status_t st;
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *gr = NULL;
    uint64_t t0 = now_ms();
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 10000, &st, &err), CUZK_ERR_IO);
    assert_int_equal(st.code, GRPC_STATUS_UNAVAILABLE);
    assert_true(now_ms() - t0 < 5000);
    rpc_client_free(cl);

    rpc_client_opts_t co;
    rpc_client_opts_default(&co);
    co.wait_for_ready = 1;
    assert_int_equal(rpc_client_new(&cl, target, &co, &err), CUZK_OK);
    t0 = now_ms();
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 300, &st, &err), CUZK_ERR_TIMEOUT);
    assert_int_equal(st.code, GRPC_STATUS_DEADLINE_EXCEEDED);
    assert_true(now_ms() - t0 >= 250);
    rpc_client_free(cl);
}

/* ---- shutdown ---- */

static rpc_server_t *start_aux(fake_t *f, const char *name, char *target, size_t cap)
{
    snprintf(target, cap, "unix://%s/%s", g_dir, name);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = target;
    o.workers = 2;
    o.handlers = fake_handlers(f);
    rpc_server_t *srv = NULL;
    cuzk_error_t err = {CUZK_OK, ""};
    if (rpc_server_new(&srv, &o, &err) != CUZK_OK)
        fail_msg("server: %s", err.msg);
    return srv;
}

static void test_shutdown_blocked(void **state)
{
    (void)state;
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "shutdown with a blocked handler", 30, NULL, NULL);
    fake_t f;
    fake_init(&f);
    char target[192];
    rpc_server_t *srv = start_aux(&f, "shut1.sock", target, sizeof target);
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, NULL, NULL), CUZK_OK);
    bg_call_t b;
    bg_start(&b, cl, "block", 0); /* no deadline: only shutdown ends it */
    assert_true(fake_wait_count(&f, &f.blocked_now, 1));
    uint64_t t0 = now_ms();
    rpc_server_shutdown(srv, 300);
    uint64_t took = now_ms() - t0;
    assert_true(took >= 250 && took < 10000);
    pthread_join(b.tid, NULL);
    assert_int_not_equal(b.rc, CUZK_OK);
    assert_true(b.st.code == GRPC_STATUS_CANCELLED || b.st.code == GRPC_STATUS_UNAVAILABLE);
    assert_int_equal(f.block_cancelled, 1);
    assert_int_equal(f.blocked_now, 0);
    rpc_client_free(cl);
    fake_destroy(&f);
    tu_watchdog_stop(&wd);
}

static void test_shutdown_grace(void **state)
{
    (void)state;
    tu_watchdog_t wd;
    tu_watchdog_start(&wd, "shutdown within grace", 30, NULL, NULL);
    fake_t f;
    fake_init(&f);
    char target[192];
    rpc_server_t *srv = start_aux(&f, "shut2.sock", target, sizeof target);
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, NULL, NULL), CUZK_OK);
    bg_call_t b;
    bg_start(&b, cl, "sleep:400", 10000);
    assert_true(fake_wait_count(&f, &f.blocked_now, 1));
    rpc_server_shutdown(srv, 10000); /* the handler finishes well inside */
    pthread_join(b.tid, NULL);
    assert_int_equal(b.rc, CUZK_OK);
    assert_int_equal(b.st.code, GRPC_STATUS_OK);
    assert_int_equal(f.block_cancelled, 0);
    /* After shutdown nobody answers. */
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *gr = NULL;
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 2000, NULL, NULL), CUZK_ERR_IO);
    rpc_client_free(cl);
    fake_destroy(&f);
    tu_watchdog_stop(&wd);
}

/* ---- TLS (needs the openssl command to make a certificate) ---- */

static void test_tls(void **state)
{
    (void)state;
    char cert[160], key[160], cmd[1024];
    snprintf(cert, sizeof cert, "%s/cert.pem", g_dir);
    snprintf(key, sizeof key, "%s/key.pem", g_dir);
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
             "-keyout %s -out %s -days 2 -subj /CN=localhost "
             "-addext subjectAltName=DNS:localhost >/dev/null 2>&1",
             key, cert);
    if (system(cmd) != 0) {
        print_message("openssl not available: TLS test skipped\n");
        skip();
    }
    fake_t f;
    fake_init(&f);
    cuzk_error_t err = {CUZK_OK, ""};
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = "127.0.0.1:0";
    o.workers = 2;
    o.tls_cert_path = cert;
    o.tls_key_path = key;
    o.handlers = fake_handlers(&f);
    rpc_server_t *srv = NULL;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_OK);
    char target[64];
    snprintf(target, sizeof target, "127.0.0.1:%d", rpc_server_port(srv));

    rpc_client_opts_t co;
    rpc_client_opts_default(&co);
    co.tls_root_cert_path = cert;
    co.tls_server_name = "localhost";
    rpc_client_t *cl = NULL;
    assert_int_equal(rpc_client_new(&cl, target, &co, &err), CUZK_OK);
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *gr = NULL;
    rpc_status_t st;
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 10000, &st, &err), CUZK_OK);
    assert_int_equal(gr->uptime_seconds, 42);
    cuzk__v1__get_status_response__free_unpacked(gr, NULL);
    rpc_client_free(cl);

    /* Plaintext to a TLS server does not get through. */
    assert_int_equal(rpc_client_new(&cl, target, NULL, &err), CUZK_OK);
    assert_int_not_equal(rpc_get_status(cl, &gr, &gs, 5000, &st, &err), CUZK_OK);
    assert_null(gr);
    rpc_client_free(cl);
    rpc_server_shutdown(srv, 1000);

    /* Client certificates required: without one refused, with one served. */
    o.tls_client_ca_path = cert;
    assert_int_equal(rpc_server_new(&srv, &o, &err), CUZK_OK);
    snprintf(target, sizeof target, "127.0.0.1:%d", rpc_server_port(srv));
    assert_int_equal(rpc_client_new(&cl, target, &co, &err), CUZK_OK);
    assert_int_not_equal(rpc_get_status(cl, &gr, &gs, 5000, &st, &err), CUZK_OK);
    rpc_client_free(cl);
    co.tls_cert_path = cert;
    co.tls_key_path = key;
    assert_int_equal(rpc_client_new(&cl, target, &co, &err), CUZK_OK);
    assert_int_equal(rpc_get_status(cl, &gr, &gs, 10000, &st, &err), CUZK_OK);
    cuzk__v1__get_status_response__free_unpacked(gr, NULL);
    rpc_client_free(cl);
    rpc_server_shutdown(srv, 1000);
    unlink(cert);
    unlink(key);
    fake_destroy(&f);
}

/* ---- validation ---- */

static void test_validate_circuit_id(void **state)
{
    (void)state;
    char longest[REQUEST_CIRCUIT_ID_MAX + 2];
    memset(longest, 'a', sizeof longest);
    longest[REQUEST_CIRCUIT_ID_MAX] = '\0';
    static const char *const ok[] = {"a", "porep-32g", "multiplier_2.v1", "A.b-C_d.9", "x.y.z"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        assert_int_equal(request_circuit_id_check(ok[i], NULL), CUZK_OK);
    assert_int_equal(request_circuit_id_check(longest, NULL), CUZK_OK);
    longest[REQUEST_CIRCUIT_ID_MAX] = 'a';
    longest[REQUEST_CIRCUIT_ID_MAX + 1] = '\0';
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(request_circuit_id_check(longest, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "longer"));
    static const char *const bad[] = {"",      ".",    "..",     ".hidden", "../etc/passwd", "a/b",
                                      "a\\b",  "/abs", "a b",    "a:b",     "caf\xc3\xa9",   "a\n",
                                      "~user", "x*",   "%2e%2e", "x..",     "a..b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.code = CUZK_OK;
        assert_int_equal(request_circuit_id_check(bad[i], &err), CUZK_ERR_ARG);
        assert_int_equal(err.code, CUZK_ERR_ARG);
    }
    assert_int_equal(request_circuit_id_check(NULL, NULL), CUZK_ERR_ARG);
}

static void test_validate_submit(void **state)
{
    (void)state;
    rpc_limits_t lim;
    rpc_limits_default(&lim);
    assert_int_equal(lim.max_partitions, 64);
    lim.max_partitions = 3;
    lim.max_witness_bytes = 100;
    lim.max_total_bytes = 250;
    uint8_t w[100] = {0};
    ProtobufCBinaryData ws[4] = {{100, w}, {100, w}, {50, w}, {1, w}};
    Cuzk__V1__SubmitProofRequest r = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    r.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    r.circuit_id = "multiplier";
    r.request_id = "r-1 (ok)";
    r.priority = CUZK__V1__PRIORITY__HIGH;
    r.witnesses = ws;
    r.n_witnesses = 3; /* 250 bytes: exactly the total */
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_OK);

    r.n_witnesses = 4; /* one partition too many */
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "witnesses"));
    r.n_witnesses = 0;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    ws[3].len = 101;
    r.witnesses = ws + 3;
    r.n_witnesses = 1; /* one witness over its limit */
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    ws[3].len = 0; /* an empty witness */
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    ws[3].len = 1;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_OK);
    r.vanilla_proof = (ProtobufCBinaryData){250, w}; /* the total counts everything */
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.vanilla_proof = (ProtobufCBinaryData){0, NULL};

    r.circuit_id = "../keys/other";
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "circuit_id"));
    r.circuit_id = "";
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.circuit_id = "multiplier";

    char rid[REQUEST_ID_MAX + 2];
    memset(rid, 'r', sizeof rid);
    rid[REQUEST_ID_MAX] = '\0';
    r.request_id = rid;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_OK);
    rid[REQUEST_ID_MAX] = 'r';
    rid[REQUEST_ID_MAX + 1] = '\0';
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.request_id = "line\nbreak";
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.request_id = "";

    r.priority = (Cuzk__V1__Priority)7; /* open enums: any value can arrive */
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.priority = (Cuzk__V1__Priority)-1;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.priority = CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_OK);

    /* The Filecoin kinds: vanilla proofs in the kind's field, no witnesses,
     * 32-byte values; their meaning is the daemon's. */
    ProtobufCBinaryData vp[2] = {{3, (uint8_t *)"abc"}, {0, NULL}};
    uint8_t b32[33] = {0};
    for (int k = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT; k <= CUZK__V1__PROOF_KIND__WINNING_POST;
         k++) {
        Cuzk__V1__SubmitProofRequest f = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        int porep = k == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        f.proof_kind = (Cuzk__V1__ProofKind)k;
        assert_int_equal(rpc_validate_submit(&f, &lim, &err), CUZK_ERR_ARG); /* no vanilla */
        assert_non_null(strstr(err.msg, "missing"));
        if (porep)
            f.vanilla_proof = vp[0];
        else {
            f.vanilla_proofs = vp;
            f.n_vanilla_proofs = 1;
        }
        assert_int_equal(rpc_validate_submit(&f, &lim, &err), CUZK_OK);
        f.witnesses = r.witnesses;
        f.n_witnesses = r.n_witnesses;
        assert_int_equal(rpc_validate_submit(&f, &lim, &err), CUZK_ERR_ARG);
        f.n_witnesses = 0;
        f.randomness = (ProtobufCBinaryData){33, b32};
        assert_int_equal(rpc_validate_submit(&f, &lim, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "randomness"));
        f.randomness = (ProtobufCBinaryData){32, b32};
        f.comm_d_new = (ProtobufCBinaryData){31, b32};
        assert_int_equal(rpc_validate_submit(&f, &lim, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "comm_d_new"));
        f.comm_d_new = (ProtobufCBinaryData){0, NULL};
        if (porep) { /* the other field, or an empty proof */
            f.vanilla_proofs = vp;
            f.n_vanilla_proofs = 1;
        } else {
            f.n_vanilla_proofs = 2;
        }
        assert_int_equal(rpc_validate_submit(&f, &lim, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "vanilla_proof"));
    }
    r.proof_kind = CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);
    r.proof_kind = (Cuzk__V1__ProofKind)55;
    assert_int_equal(rpc_validate_submit(&r, &lim, &err), CUZK_ERR_ARG);

    Cuzk__V1__CancelProofRequest other = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    assert_int_equal(rpc_validate_submit((const Cuzk__V1__SubmitProofRequest *)&other, &lim, &err),
                     CUZK_ERR_ARG);
    assert_int_equal(rpc_validate_submit(NULL, &lim, &err), CUZK_ERR_ARG);
}

/* The response helpers replace earlier values without leaking them (ASan
 * checks the leak part). */
static void test_set_helpers(void **state)
{
    (void)state;
    Cuzk__V1__AwaitProofResponse *r = malloc(sizeof *r);
    cuzk__v1__await_proof_response__init(r);
    assert_int_equal(rpc_set_string(&r->job_id, "first"), CUZK_OK);
    assert_int_equal(rpc_set_string(&r->job_id, "second"), CUZK_OK);
    assert_string_equal(r->job_id, "second");
    assert_int_equal(rpc_set_bytes(&r->proof, "\0\1\2", 3), CUZK_OK);
    assert_int_equal(rpc_set_bytes(&r->proof, "\3\0", 2), CUZK_OK);
    assert_int_equal(r->proof.len, 2);
    assert_memory_equal(r->proof.data, "\3\0", 2);
    assert_int_equal(rpc_set_bytes(&r->public_signals, NULL, 0), CUZK_OK);
    assert_null(r->public_signals.data);
    cuzk__v1__await_proof_response__free_unpacked(r, NULL);
}

int main(void)
{
    tu_init("test_rpc");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_methods),         cmocka_unit_test(test_status_maps),
        cmocka_unit_test(test_set_helpers),     cmocka_unit_test(test_validate_circuit_id),
        cmocka_unit_test(test_validate_submit), cmocka_unit_test(test_roundtrip_all),
        cmocka_unit_test(test_large_messages),  cmocka_unit_test(test_unimplemented),
        cmocka_unit_test(test_garbage),         cmocka_unit_test(test_blocked_handler_and_deadline),
        cmocka_unit_test(test_pool_full),       cmocka_unit_test(test_concurrent_clients),
        cmocka_unit_test(test_socket_files),    cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_unavailable),     cmocka_unit_test(test_shutdown_blocked),
        cmocka_unit_test(test_shutdown_grace),  cmocka_unit_test(test_tls),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
