/* The cuzk.v1 handlers (include/cuzk/daemon_rpc.h) end to end in one
 * process: a daemon on a simulated CPU device (sim_device.h), an rpc server
 * with daemon_rpc_handlers on a temporary unix socket, and the rpc client.
 *
 * Fixture (daemon_fixture.h, shared with test_daemon.c), in a mkdtemp
 * folder under /tmp (removed at the end): a circuit registry with the
 * snarkjs multiplier case of the shared test data ("mult.zkey") and a
 * bellperson circuit made there ("bp", an INSECURE key), with .wtns
 * witnesses of two partitions.
 *
 * Covered: SubmitProof + AwaitProof and Prove for both key formats, the
 * proofs verified from the bytes that came over the wire (proof.json /
 * public.json; 192-byte proofs and big-endian inputs, batch-verified);
 * idempotent request ids (same job id, existing = true); Filecoin requests
 * of a bad shape or values refused (INVALID_ARGUMENT naming the field,
 * nothing journaled); AwaitProof TIMEOUT while the job runs and a client deadline ending
 * a wait without a limit; CancelProof of queued and running jobs; unknown
 * and malformed job ids; refused submissions (INVALID_ARGUMENT); queue full
 * and oversized messages (RESOURCE_EXHAUSTED); GetStatus's devices, keys,
 * queues and totals while a job runs and after; GetMetrics; PreloadSRS and
 * EvictSRS (NOT_FOUND, FAILED_PRECONDITION while in use); UNAVAILABLE
 * before a daemon is attached and after daemon_shutdown (which wakes a
 * blocked AwaitProof); a restart with jobs queued, after which AwaitProof
 * on the old ids completes. With CUZK_CLI_PATH (the build's cuzk binary):
 * `cuzk daemon` as a subprocess, its ready line, a proof through it, a
 * second daemon on the same socket refused, bad configurations refused,
 * SIGTERM, and its journal read by the next start; then kill -9 right after
 * four jobs were accepted, and the next start completes all four under
 * their ids (their request ids still name them). Every test runs under a
 * watchdog. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "daemon_fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/daemon.h"
#include "cuzk/daemon_rpc.h"
#include "sim_device.h"
#include "cuzk/rpc.h"

#define CALL_MS 120000 /* client deadline of calls expected to answer */

static dfix_t g;
static int g_sockets; /* socket names made so far */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int group_setup(void **state)
{
    (void)state;
    return dfix_setup(&g, "/tmp/cuzk_drpc_XXXXXX");
}

static int group_teardown(void **state)
{
    (void)state;
    return dfix_teardown(&g);
}

/* ---- a daemon behind the gRPC server ---- */

/* A daemon rig (daemon_fixture.h) with a server and a client in front; one
 * per test at a time, in g_rig, which rig_teardown closes. */
typedef struct rig {
    dfix_rig_t base; /* the daemon, its config and device */
    daemon_rpc_t ctx;
    rpc_server_t *srv;
    rpc_client_t *cl;
    char target[160];
} rig_t;

static rig_t g_rig;

static void rig_open(rig_t *r, const char *what, unsigned delay_us, int workers)
{
    memset(r, 0, sizeof *r);
    dfix_rig_open(&r->base, &g, what, delay_us, workers);
    r->base.cfg.memory.pinned_budget = (uint64_t)3 << 30;
    snprintf(r->target, sizeof r->target, "unix://%s/rpc-%d.sock", g.dir, g_sockets++);
}

/* The server (ctx not attached when attach is 0) and a client. */
static void rig_serve(rig_t *r, int attach)
{
    cuzk_error_t err = {0};
    daemon_rpc_init(&r->ctx, attach ? r->base.d : NULL, &r->base.cfg);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = r->target;
    o.max_message_bytes = (size_t)r->base.cfg.daemon.max_message_bytes;
    o.workers = 8;
    daemon_rpc_handlers(&o.handlers, &r->ctx);
    cuzk_status st = rpc_server_new(&r->srv, &o, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "rpc_server_new: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    assert_int_equal(rpc_client_new(&r->cl, r->target, NULL, &err), CUZK_OK);
}

static void rig_start(rig_t *r)
{
    dfix_rig_start(&r->base);
    rig_serve(r, 1);
}

/* The daemon's shutdown order: wake waiters, stop the transport, free. */
static void rig_stop(rig_t *r)
{
    daemon_shutdown(r->base.d);
    rpc_client_free(r->cl);
    rpc_server_shutdown(r->srv, 5000);
    dfix_rig_stop(&r->base);
    r->cl = NULL;
    r->srv = NULL;
}

static void rig_close(rig_t *r)
{
    rig_stop(r);
    dfix_rig_close(&r->base);
}

static int rig_teardown(void **state)
{
    (void)state;
    if (g_rig.base.open)
        rig_close(&g_rig);
    return 0;
}

/* ---- requests ---- */

/* A request and the storage its pointers use (valid while it is). */
typedef struct sub {
    Cuzk__V1__SubmitProofRequest req;
    ProtobufCBinaryData w[DFIX_BP_PARTS];
} sub_t;

static void sub_snarkjs(sub_t *s, const char *rid)
{
    cuzk__v1__submit_proof_request__init(&s->req);
    s->req.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    s->req.circuit_id = "mult";
    s->req.request_id = rid ? (char *)rid : "";
    s->w[0] = (ProtobufCBinaryData){g.sj_len, g.sj_wtns};
    s->req.witnesses = s->w;
    s->req.n_witnesses = 1;
}

static void sub_bp(sub_t *s, const char *rid, size_t parts)
{
    cuzk__v1__submit_proof_request__init(&s->req);
    s->req.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    s->req.circuit_id = "bp";
    s->req.request_id = rid ? (char *)rid : "";
    for (size_t p = 0; p < DFIX_BP_PARTS; p++)
        s->w[p] = (ProtobufCBinaryData){g.bp_len[p], g.bp_wtns[p]};
    s->req.witnesses = s->w;
    s->req.n_witnesses = parts;
}

/* SubmitProof that must succeed: the job id. *existing optional. */
static uint64_t submit_ok(rig_t *r, const sub_t *s, int *existing)
{
    Cuzk__V1__SubmitProofResponse *resp = NULL;
    rpc_status_t st;
    cuzk_error_t err = {0};
    cuzk_status c = rpc_submit_proof(r->cl, &resp, &s->req, CALL_MS, &st, &err);
    if (c != CUZK_OK)
        fprintf(stderr, "SubmitProof: %s\n", err.msg);
    assert_int_equal(c, CUZK_OK);
    char *end = NULL;
    uint64_t id = strtoull(resp->job_id, &end, 10);
    assert_true(id > 0);
    assert_true(*end == '\0');
    if (existing)
        *existing = resp->existing;
    cuzk__v1__submit_proof_response__free_unpacked(resp, NULL);
    return id;
}

/* SubmitProof that must fail with code; the message must hold want (may be
 * NULL). */
static void submit_fails(rig_t *r, const sub_t *s, grpc_status_code code, const char *want)
{
    Cuzk__V1__SubmitProofResponse *resp = NULL;
    rpc_status_t st;
    cuzk_status c = rpc_submit_proof(r->cl, &resp, &s->req, CALL_MS, &st, NULL);
    if (st.code != code || (want && !strstr(st.message, want)))
        fprintf(stderr, "SubmitProof: %s: %s (wanted %s, '%s')\n", rpc_status_code_str(st.code),
                st.message, rpc_status_code_str(code), want ? want : "");
    assert_int_not_equal(c, CUZK_OK);
    assert_null(resp);
    assert_int_equal(st.code, code);
    if (want)
        assert_non_null(strstr(st.message, want));
}

/* AwaitProof of job id (a string) with timeout_ms; the call's own deadline
 * is call_ms. Returns the response (NULL on a failed call, *st says). */
static Cuzk__V1__AwaitProofResponse *await_str(rig_t *r, const char *id, uint64_t timeout_ms,
                                               int call_ms, rpc_status_t *st)
{
    Cuzk__V1__AwaitProofRequest req;
    cuzk__v1__await_proof_request__init(&req);
    req.job_id = (char *)id;
    req.timeout_ms = timeout_ms;
    Cuzk__V1__AwaitProofResponse *resp = NULL;
    rpc_await_proof(r->cl, &resp, &req, call_ms, st, NULL);
    return resp;
}

static Cuzk__V1__AwaitProofResponse *await_id(rig_t *r, uint64_t id, uint64_t timeout_ms)
{
    char s[24];
    snprintf(s, sizeof s, "%llu", (unsigned long long)id);
    rpc_status_t st;
    Cuzk__V1__AwaitProofResponse *resp = await_str(r, s, timeout_ms, CALL_MS, &st);
    if (!resp)
        fprintf(stderr, "AwaitProof(%s): %s: %s\n", s, rpc_status_code_str(st.code), st.message);
    assert_non_null(resp);
    assert_string_equal(resp->job_id, s);
    return resp;
}

static void await_status(rig_t *r, uint64_t id, int want, const char *msg)
{
    Cuzk__V1__AwaitProofResponse *a = await_id(r, id, 0);
    if ((int)a->status != want)
        fprintf(stderr, "job %llu: status %d (%s)\n", (unsigned long long)id, (int)a->status,
                a->error_message);
    assert_int_equal(a->status, want);
    if (msg)
        assert_non_null(strstr(a->error_message, msg));
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
}

static void check_snarkjs(const Cuzk__V1__AwaitProofResponse *a)
{
    assert_int_equal(a->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
    assert_string_equal(a->error_message, "");
    dfix_check_snarkjs(&g, a->proof.data, a->proof.len, a->public_signals.data,
                       a->public_signals.len);
}

static void check_bp(const Cuzk__V1__AwaitProofResponse *a, size_t parts)
{
    assert_int_equal(a->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
    dfix_check_bp(&g, a->proof.data, a->proof.len, a->public_signals.data, a->public_signals.len,
                  parts);
}

/* Waits (up to 10 s) until job id is running on a device. */
static void wait_running(rig_t *r, uint64_t id)
{
    daemon_job_info_t info = {0};
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(daemon_job_info(r->base.d, &info, id, NULL), CUZK_OK);
        if (info.state == ENGINE_JOB_RUNNING)
            return;
        dfix_sleep_ms(1);
    }
    fail_msg("job %llu never ran (state %s)", (unsigned long long)id,
             engine_job_state_str(info.state));
}

/* ---- proving ---- */

static void test_snarkjs(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "snarkjs", 0, 1);
    rig_start(r);
    sub_t s;
    sub_snarkjs(&s, NULL);
    int ex = -1;
    uint64_t id = submit_ok(r, &s, &ex);
    assert_int_equal(ex, 0);
    Cuzk__V1__AwaitProofResponse *a = await_id(r, id, 0);
    check_snarkjs(a);
    assert_memory_equal(a->public_signals.data, "[\n \"1034\",\n \"11\"\n]", a->public_signals.len);
    assert_true(a->total_ms >= a->gpu_compute_ms);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    /* the stored result again, with a timeout that does not pass */
    a = await_id(r, id, 60000);
    check_snarkjs(a);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);

    /* Prove: submit and await in one call */
    Cuzk__V1__ProveRequest pr;
    cuzk__v1__prove_request__init(&pr);
    pr.submit = &s.req;
    Cuzk__V1__ProveResponse *p = NULL;
    rpc_status_t st;
    assert_int_equal(rpc_prove(r->cl, &p, &pr, CALL_MS, &st, NULL), CUZK_OK);
    assert_non_null(p->result);
    check_snarkjs(p->result);
    assert_true(strtoull(p->result->job_id, NULL, 10) > id);
    cuzk__v1__prove_response__free_unpacked(p, NULL);
    rig_close(r);
}

static void test_bellperson(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "bellperson", 0, 2);
    rig_start(r);
    sub_t s;
    sub_bp(&s, NULL, DFIX_BP_PARTS);
    s.req.priority = CUZK__V1__PRIORITY__HIGH;
    uint64_t id = submit_ok(r, &s, NULL);
    daemon_job_info_t info;
    assert_int_equal(daemon_job_info(r->base.d, &info, id, NULL), CUZK_OK);
    assert_int_equal(info.priority, CUZK_PRIO_HIGH);
    assert_int_equal(info.kind, ENGINE_KIND_BELLPERSON);
    Cuzk__V1__AwaitProofResponse *a = await_id(r, id, 0);
    check_bp(a, DFIX_BP_PARTS);
    assert_true(a->total_ms >= a->queue_wait_ms);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    /* one partition, through Prove, every priority mapped */
    static const int prios[] = {CUZK__V1__PRIORITY__LOW, CUZK__V1__PRIORITY__CRITICAL,
                                CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED};
    static const cuzk_priority want[] = {CUZK_PRIO_LOW, CUZK_PRIO_CRITICAL, CUZK_PRIO_NORMAL};
    for (size_t i = 0; i < sizeof prios / sizeof *prios; i++) {
        sub_bp(&s, NULL, 1);
        s.req.priority = (Cuzk__V1__Priority)prios[i];
        Cuzk__V1__ProveRequest pr;
        cuzk__v1__prove_request__init(&pr);
        pr.submit = &s.req;
        Cuzk__V1__ProveResponse *p = NULL;
        assert_int_equal(rpc_prove(r->cl, &p, &pr, CALL_MS, NULL, NULL), CUZK_OK);
        check_bp(p->result, 1);
        assert_int_equal(
            daemon_job_info(r->base.d, &info, strtoull(p->result->job_id, NULL, 10), NULL),
            CUZK_OK);
        assert_int_equal(info.priority, want[i]);
        cuzk__v1__prove_response__free_unpacked(p, NULL);
    }
    rig_close(r);
}

static void test_request_id(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "request id", 200000, 1);
    rig_start(r);
    sub_t s;
    sub_bp(&s, "rid-1", 1);
    int ex = -1;
    uint64_t id = submit_ok(r, &s, &ex);
    assert_int_equal(ex, 0);
    uint64_t id2 = submit_ok(r, &s, &ex);
    assert_int_equal(id2, id);
    assert_int_equal(ex, 1);
    /* other witnesses under the same request id */
    sub_bp(&s, "rid-1", 2);
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, NULL);
    /* Prove with the request id: the same job, awaited */
    sub_bp(&s, "rid-1", 1);
    Cuzk__V1__ProveRequest pr;
    cuzk__v1__prove_request__init(&pr);
    pr.submit = &s.req;
    Cuzk__V1__ProveResponse *p = NULL;
    assert_int_equal(rpc_prove(r->cl, &p, &pr, CALL_MS, NULL, NULL), CUZK_OK);
    assert_int_equal(strtoull(p->result->job_id, NULL, 10), id);
    check_bp(p->result, 1);
    cuzk__v1__prove_response__free_unpacked(p, NULL);
    /* after it finished: still that job */
    assert_int_equal(submit_ok(r, &s, &ex), id);
    assert_int_equal(ex, 1);
    rig_close(r);
}

/* Filecoin requests of the wrong shape or values: INVALID_ARGUMENT naming
 * the field, nothing journaled. (Proving them: tests/daemon_filecoin.sh.) */
static void test_filecoin(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "filecoin", 0, 1);
    rig_start(r);
    sub_t s;
    cuzk__v1__submit_proof_request__init(&s.req);
    s.req.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    s.req.request_id = "c2-1";
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "vanilla_proof is missing");
    s.req.vanilla_proof = (ProtobufCBinaryData){2, (uint8_t *)"{}"};
    s.req.registered_proof = 8;
    s.req.sector_size = 34359738368ull;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "vanilla_proof");
    s.req.sector_size = 2048;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "sector_size 2048");
    ProtobufCBinaryData v[1] = {{2, (uint8_t *)"{}"}};
    uint8_t r32[33] = {0};
    cuzk__v1__submit_proof_request__init(&s.req);
    s.req.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "vanilla_proofs is missing");
    s.req.vanilla_proofs = v;
    s.req.n_vanilla_proofs = 1;
    s.req.randomness = (ProtobufCBinaryData){33, r32};
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "randomness has 33 bytes");
    s.req.randomness = (ProtobufCBinaryData){32, r32};
    s.req.registered_proof = 9;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "registered_proof 9");
    s.req.registered_proof = 0;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "vanilla_proofs[0]");
    s.req.proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "comm_r_old");
    daemon_stats_t ds;
    daemon_stats(r->base.d, &ds);
    for (int k = 0; k < ENGINE_KIND_COUNT; k++)
        assert_int_equal(ds.kinds[k].submitted + ds.kinds[k].failed, 0);
    rig_close(r);
}

/* ---- waiting and cancelling ---- */

static void test_timeout(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "await timeout", 1500000, 1);
    rig_start(r);
    sub_t s;
    sub_bp(&s, NULL, 1);
    uint64_t id = submit_ok(r, &s, NULL);
    double t0 = now_s();
    Cuzk__V1__AwaitProofResponse *a = await_id(r, id, 100);
    double waited = now_s() - t0;
    assert_int_equal(a->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
    assert_int_equal(a->proof.len, 0);
    assert_true(waited >= 0.09 && waited < 1.4);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    /* no timeout_ms, but a client deadline: the handler notices between
     * slices, and the call ends DEADLINE_EXCEEDED */
    char sid[24];
    snprintf(sid, sizeof sid, "%llu", (unsigned long long)id);
    rpc_status_t st;
    t0 = now_s();
    a = await_str(r, sid, 0, 300, &st);
    waited = now_s() - t0;
    assert_null(a);
    assert_int_equal(st.code, GRPC_STATUS_DEADLINE_EXCEEDED);
    assert_true(waited < 1.2);
    /* the handler returned: no worker stays busy with it */
    rpc_server_stats_t ss;
    for (int i = 0; i < 2000; i++) {
        rpc_server_stats(r->srv, &ss);
        if (ss.busy_workers == 0)
            break;
        dfix_sleep_ms(1);
    }
    assert_int_equal(ss.busy_workers, 0);
    /* the job went on through both */
    a = await_id(r, id, 0);
    check_bp(a, 1);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    rig_close(r);
}

static void cancel_call(rig_t *r, const char *id, rpc_status_t *st, int *was_running)
{
    Cuzk__V1__CancelProofRequest req;
    cuzk__v1__cancel_proof_request__init(&req);
    req.job_id = (char *)id;
    Cuzk__V1__CancelProofResponse *resp = NULL;
    *was_running = -1;
    if (rpc_cancel_proof(r->cl, &resp, &req, CALL_MS, st, NULL) == CUZK_OK) {
        *was_running = resp->was_running;
        cuzk__v1__cancel_proof_response__free_unpacked(resp, NULL);
    }
}

static int cancel_id(rig_t *r, uint64_t id)
{
    char s[24];
    snprintf(s, sizeof s, "%llu", (unsigned long long)id);
    rpc_status_t st;
    int was = -1;
    cancel_call(r, s, &st, &was);
    assert_int_equal(st.code, GRPC_STATUS_OK);
    return was;
}

static void test_cancel(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "cancel", 1000000, 1);
    rig_start(r);
    sub_t s;
    sub_bp(&s, NULL, 1);
    uint64_t a = submit_ok(r, &s, NULL), b = submit_ok(r, &s, NULL), c = submit_ok(r, &s, NULL);
    /* c waits behind a and b */
    assert_int_equal(cancel_id(r, c), 0);
    await_status(r, c, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED, NULL);
    /* a runs: cancelled while running */
    wait_running(r, a);
    assert_int_equal(cancel_id(r, a), 1);
    await_status(r, a, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED, NULL);
    Cuzk__V1__AwaitProofResponse *res = await_id(r, b, 0);
    check_bp(res, 1);
    cuzk__v1__await_proof_response__free_unpacked(res, NULL);
    /* cancelling a finished job changes nothing */
    assert_int_equal(cancel_id(r, b), 0);
    await_status(r, b, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED, NULL);
    daemon_stats_t ds;
    daemon_stats(r->base.d, &ds);
    assert_int_equal(ds.kinds[ENGINE_KIND_BELLPERSON].cancelled, 2);
    assert_int_equal(ds.kinds[ENGINE_KIND_BELLPERSON].done, 1);
    rig_close(r);
}

static void test_job_ids(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "job ids", 0, 1);
    rig_start(r);
    static const struct {
        const char *id;
        grpc_status_code code;
    } cases[] = {
        {"999999", GRPC_STATUS_NOT_FOUND},
        {"0", GRPC_STATUS_NOT_FOUND},
        {"", GRPC_STATUS_INVALID_ARGUMENT},
        {"abc", GRPC_STATUS_INVALID_ARGUMENT},
        {"12x", GRPC_STATUS_INVALID_ARGUMENT},
        {"-1", GRPC_STATUS_INVALID_ARGUMENT},
        {" 1", GRPC_STATUS_INVALID_ARGUMENT},
        {"+1", GRPC_STATUS_INVALID_ARGUMENT},
        {"18446744073709551616", GRPC_STATUS_INVALID_ARGUMENT}, /* 2^64 */
        {"18446744073709551615", GRPC_STATUS_NOT_FOUND},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rpc_status_t st;
        Cuzk__V1__AwaitProofResponse *a = await_str(r, cases[i].id, 0, CALL_MS, &st);
        if (st.code != cases[i].code)
            fprintf(stderr, "AwaitProof('%s'): %s: %s\n", cases[i].id, rpc_status_code_str(st.code),
                    st.message);
        assert_null(a);
        assert_int_equal(st.code, cases[i].code);
        int was = 0;
        cancel_call(r, cases[i].id, &st, &was);
        assert_int_equal(st.code, cases[i].code);
    }
    rig_close(r);
}

/* ---- refusals ---- */

static void test_refused(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "refused", 0, 1);
    rig_start(r);
    sub_t s;
    static const char *const bad_ids[] = {"nope", "../mult", "..", ".mult", "a/b", "", "m ult"};
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
        sub_snarkjs(&s, NULL);
        s.req.circuit_id = (char *)bad_ids[i];
        submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, NULL);
    }
    sub_snarkjs(&s, NULL);
    s.req.circuit_id = "nope";
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "nope");
    /* a snarkjs key with two witnesses; no witnesses; an empty one */
    sub_bp(&s, NULL, 2);
    s.req.circuit_id = "mult";
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "exactly one");
    sub_bp(&s, NULL, 0);
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "witnesses");
    sub_bp(&s, NULL, 1);
    s.w[0].len = 0;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "witnesses[0]");
    /* kind and priority outside their enums, an unprintable request id */
    sub_bp(&s, NULL, 1);
    s.req.proof_kind = CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "proof_kind");
    sub_bp(&s, NULL, 1);
    s.req.proof_kind = (Cuzk__V1__ProofKind)7;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "proof_kind");
    sub_bp(&s, NULL, 1);
    s.req.priority = (Cuzk__V1__Priority)9;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "priority");
    sub_bp(&s, "rid\n", 1);
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "request_id");
    /* a Filecoin kind with a bad circuit id is refused before journaling */
    cuzk__v1__submit_proof_request__init(&s.req);
    s.req.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
    s.req.circuit_id = "../x";
    ProtobufCBinaryData vp = {2, (uint8_t *)"{}"};
    s.req.vanilla_proofs = &vp;
    s.req.n_vanilla_proofs = 1;
    submit_fails(r, &s, GRPC_STATUS_INVALID_ARGUMENT, "circuit");
    /* Prove without its submit */
    Cuzk__V1__ProveRequest pr;
    cuzk__v1__prove_request__init(&pr);
    Cuzk__V1__ProveResponse *p = NULL;
    rpc_status_t st;
    assert_int_not_equal(rpc_prove(r->cl, &p, &pr, CALL_MS, &st, NULL), CUZK_OK);
    assert_int_equal(st.code, GRPC_STATUS_INVALID_ARGUMENT);
    /* nothing was journaled */
    daemon_stats_t ds;
    daemon_stats(r->base.d, &ds);
    for (int k = 0; k < ENGINE_KIND_COUNT; k++)
        assert_int_equal(ds.kinds[k].submitted, 0);
    rig_close(r);
}

static void test_exhausted(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "resource exhausted", 300000, 1);
    r->base.cfg.daemon.max_queued_jobs = 1;
    r->base.cfg.daemon.max_message_bytes = (uint64_t)1 << 20;
    rig_start(r);
    sub_t s;
    sub_bp(&s, "q-1", 1);
    uint64_t a = submit_ok(r, &s, NULL);
    sub_bp(&s, "q-2", 1);
    submit_fails(r, &s, GRPC_STATUS_RESOURCE_EXHAUSTED, "queue full");
    /* a retry of the queued job is answered, full or not */
    sub_bp(&s, "q-1", 1);
    int ex = 0;
    assert_int_equal(submit_ok(r, &s, &ex), a);
    assert_int_equal(ex, 1);
    /* a message over daemon.max_message_bytes */
    size_t big = (size_t)2 << 20;
    uint8_t *blob = calloc(big, 1);
    assert_non_null(blob);
    sub_bp(&s, NULL, 1);
    s.w[0] = (ProtobufCBinaryData){big, blob};
    submit_fails(r, &s, GRPC_STATUS_RESOURCE_EXHAUSTED, NULL);
    free(blob);
    Cuzk__V1__AwaitProofResponse *res = await_id(r, a, 0);
    check_bp(res, 1);
    cuzk__v1__await_proof_response__free_unpacked(res, NULL);
    sub_bp(&s, "q-2", 1);
    submit_ok(r, &s, NULL); /* room again */
    rig_close(r);
}

/* ---- status, metrics, keys ---- */

static Cuzk__V1__GetStatusResponse *get_status(rig_t *r)
{
    Cuzk__V1__GetStatusRequest req;
    cuzk__v1__get_status_request__init(&req);
    Cuzk__V1__GetStatusResponse *resp = NULL;
    rpc_status_t st;
    assert_int_equal(rpc_get_status(r->cl, &resp, &req, CALL_MS, &st, NULL), CUZK_OK);
    return resp;
}

static const Cuzk__V1__QueueStatus *queue_of(const Cuzk__V1__GetStatusResponse *s, const char *k)
{
    for (size_t i = 0; i < s->n_queues; i++)
        if (!strcmp(s->queues[i]->proof_kind, k))
            return s->queues[i];
    fail_msg("no queue '%s'", k);
    return NULL;
}

static const Cuzk__V1__SRSStatus *key_of(const Cuzk__V1__GetStatusResponse *s, const char *id)
{
    for (size_t i = 0; i < s->n_loaded_srs; i++)
        if (!strcmp(s->loaded_srs[i]->circuit_id, id))
            return s->loaded_srs[i];
    return NULL;
}

static void test_status(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    /* 2 s proofs: the snapshot below must fall while the first proves,
     * with the second still queued, even on a loaded machine (0.5 s was
     * too short under ASan in CI: the second was already running) */
    rig_open(r, "status", 2000000, 1);
    rig_start(r);
    Cuzk__V1__GetStatusResponse *s0 = get_status(r);
    assert_int_equal(s0->n_gpus, 1);
    assert_int_equal(s0->n_loaded_srs, 0);
    assert_int_equal(s0->n_queues, ENGINE_KIND_COUNT);
    assert_int_equal(s0->total_proofs_completed, 0);
    cuzk__v1__get_status_response__free_unpacked(s0, NULL);

    /* while a job proves */
    sub_t s;
    sub_bp(&s, NULL, 1);
    uint64_t a = submit_ok(r, &s, NULL), b = submit_ok(r, &s, NULL);
    wait_running(r, a);
    Cuzk__V1__GetStatusResponse *st = get_status(r);
    const Cuzk__V1__GPUStatus *gp = st->gpus[0];
    assert_int_equal(gp->ordinal, 0);
    assert_string_equal(gp->name, "sim0");
    assert_int_equal(gp->vram_total_bytes, (uint64_t)1 << 30);
    assert_true(gp->vram_free_bytes < gp->vram_total_bytes); /* key and scratch reserved */
    char want[24];
    snprintf(want, sizeof want, "%llu", (unsigned long long)a);
    assert_string_equal(gp->current_job_id, want);
    assert_string_equal(gp->current_proof_kind, "bellperson");
    const Cuzk__V1__QueueStatus *q = queue_of(st, "bellperson");
    assert_int_equal(q->in_progress, 1);
    assert_int_equal(q->pending, 1);
    assert_int_equal(queue_of(st, "snarkjs")->pending, 0);
    queue_of(st, "porep");
    const Cuzk__V1__SRSStatus *k = key_of(st, "bp");
    assert_non_null(k);
    assert_int_equal(k->tier, CUZK__V1__SRSSTATUS__TIER__HOT);
    assert_true(k->size_bytes > 0);
    assert_int_equal(k->ref_count, 2);
    assert_int_equal(st->pinned_memory_bytes, 0);
    assert_int_equal(st->pinned_memory_limit_bytes, (uint64_t)3 << 30);
    cuzk__v1__get_status_response__free_unpacked(st, NULL);

    /* after: totals, an idle device, a key no job holds */
    await_status(r, a, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED, NULL);
    await_status(r, b, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED, NULL);
    /* a failed job: a witness with one value changed */
    sub_bp(&s, NULL, 1);
    uint8_t *bad = malloc(g.bp_len[0]);
    assert_non_null(bad);
    memcpy(bad, g.bp_wtns[0], g.bp_len[0]);
    bad[g.bp_len[0] - 32 * 5] ^= 1;
    s.w[0].data = bad;
    uint64_t f = submit_ok(r, &s, NULL);
    await_status(r, f, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED, NULL);
    free(bad);
    dfix_sleep_ms(50);
    st = get_status(r);
    assert_int_equal(st->total_proofs_completed, 2);
    assert_int_equal(st->total_proofs_failed, 1);
    assert_string_equal(st->gpus[0]->current_job_id, "");
    assert_string_equal(st->gpus[0]->current_proof_kind, "");
    k = key_of(st, "bp");
    assert_non_null(k);
    assert_int_equal(k->ref_count, 0);
    assert_int_equal(queue_of(st, "bellperson")->in_progress, 0);
    assert_true(st->uptime_seconds < 600);
    cuzk__v1__get_status_response__free_unpacked(st, NULL);

    /* GetMetrics: the daemon's Prometheus text */
    Cuzk__V1__GetMetricsRequest mreq;
    cuzk__v1__get_metrics_request__init(&mreq);
    Cuzk__V1__GetMetricsResponse *m = NULL;
    assert_int_equal(rpc_get_metrics(r->cl, &m, &mreq, CALL_MS, NULL, NULL), CUZK_OK);
    static const char *const lines[] = {
        "# TYPE cuzk_proofs_total counter",
        "cuzk_proofs_total{kind=\"bellperson\",status=\"done\"} 2\n",
        "cuzk_proofs_total{kind=\"bellperson\",status=\"failed\"} 1\n",
        "cuzk_vram_total_bytes{device=\"0\"} 1073741824\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        if (!strstr(m->prometheus_text, lines[i]))
            fprintf(stderr, "missing: %s\n%s\n", lines[i], m->prometheus_text);
        assert_non_null(strstr(m->prometheus_text, lines[i]));
    }
    cuzk__v1__get_metrics_response__free_unpacked(m, NULL);
    rig_close(r);
}

static grpc_status_code preload(rig_t *r, const char *id, int *already, uint64_t *ms)
{
    Cuzk__V1__PreloadSrsRequest req;
    cuzk__v1__preload_srs_request__init(&req);
    req.circuit_id = (char *)id;
    Cuzk__V1__PreloadSrsResponse *resp = NULL;
    rpc_status_t st;
    if (rpc_preload_srs(r->cl, &resp, &req, CALL_MS, &st, NULL) == CUZK_OK) {
        *already = resp->already_loaded;
        *ms = resp->load_time_ms;
        cuzk__v1__preload_srs_response__free_unpacked(resp, NULL);
    }
    return st.code;
}

static grpc_status_code evict(rig_t *r, const char *id, int *was, uint64_t *freed)
{
    Cuzk__V1__EvictSrsRequest req;
    cuzk__v1__evict_srs_request__init(&req);
    req.circuit_id = (char *)id;
    Cuzk__V1__EvictSrsResponse *resp = NULL;
    rpc_status_t st;
    if (rpc_evict_srs(r->cl, &resp, &req, CALL_MS, &st, NULL) == CUZK_OK) {
        *was = resp->was_loaded;
        *freed = resp->freed_bytes;
        cuzk__v1__evict_srs_response__free_unpacked(resp, NULL);
    }
    return st.code;
}

static void test_preload_evict(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "preload and evict", 400000, 1);
    rig_start(r);
    int already = -1, was = -1;
    uint64_t ms = 0, freed = 0;
    assert_int_equal(preload(r, "bp", &already, &ms), GRPC_STATUS_OK);
    assert_int_equal(already, 0);
    daemon_key_info_t info;
    assert_int_equal(daemon_key_info(r->base.d, &info, "bp", NULL), CUZK_OK);
    assert_int_equal(info.state, DAEMON_KEY_LOADED);
    assert_int_equal(ms, info.load_ms);
    assert_int_equal(preload(r, "bp", &already, &ms), GRPC_STATUS_OK);
    assert_int_equal(already, 1);
    Cuzk__V1__GetStatusResponse *st = get_status(r);
    const Cuzk__V1__SRSStatus *k = key_of(st, "bp");
    assert_non_null(k);
    assert_int_equal(k->tier, CUZK__V1__SRSSTATUS__TIER__HOT); /* preload made it resident */
    assert_int_equal(k->size_bytes, info.bytes);
    assert_int_equal(k->loaded_bytes, info.bytes);
    assert_int_equal(k->device_bytes, 0); /* the sim device has no load of its own */
    cuzk__v1__get_status_response__free_unpacked(st, NULL);
    assert_int_equal(preload(r, "nope", &already, &ms), GRPC_STATUS_NOT_FOUND);
    assert_int_equal(preload(r, "../bp", &already, &ms), GRPC_STATUS_INVALID_ARGUMENT);
    assert_int_equal(preload(r, "", &already, &ms), GRPC_STATUS_INVALID_ARGUMENT);
    assert_int_equal(evict(r, "a/b", &was, &freed), GRPC_STATUS_INVALID_ARGUMENT);

    /* in use by a job: FAILED_PRECONDITION, nothing changes */
    sub_t s;
    sub_bp(&s, NULL, 1);
    uint64_t id = submit_ok(r, &s, NULL);
    assert_int_equal(evict(r, "bp", &was, &freed), GRPC_STATUS_FAILED_PRECONDITION);
    Cuzk__V1__AwaitProofResponse *a = await_id(r, id, 0);
    check_bp(a, 1);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    assert_int_equal(evict(r, "bp", &was, &freed), GRPC_STATUS_OK);
    assert_int_equal(was, 1);
    assert_int_equal(freed, info.bytes);
    assert_int_equal(evict(r, "bp", &was, &freed), GRPC_STATUS_OK);
    assert_int_equal(was, 0);
    assert_int_equal(freed, 0);
    st = get_status(r);
    assert_null(key_of(st, "bp"));
    cuzk__v1__get_status_response__free_unpacked(st, NULL);
    rig_close(r);
}

/* ---- lifetime ---- */

static void test_unattached(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "unattached", 0, 1);
    rig_serve(r, 0);
    Cuzk__V1__GetStatusRequest req;
    cuzk__v1__get_status_request__init(&req);
    Cuzk__V1__GetStatusResponse *resp = NULL;
    rpc_status_t st;
    assert_int_not_equal(rpc_get_status(r->cl, &resp, &req, CALL_MS, &st, NULL), CUZK_OK);
    assert_int_equal(st.code, GRPC_STATUS_UNAVAILABLE);
    assert_non_null(strstr(st.message, "starting"));
    sub_t s;
    sub_snarkjs(&s, NULL);
    submit_fails(r, &s, GRPC_STATUS_UNAVAILABLE, "starting");
    /* attached while serving: calls reach it */
    dfix_rig_start(&r->base);
    daemon_rpc_attach(&r->ctx, r->base.d);
    Cuzk__V1__GetStatusResponse *ok = get_status(r);
    assert_int_equal(ok->n_gpus, 1);
    cuzk__v1__get_status_response__free_unpacked(ok, NULL);
    uint64_t id = submit_ok(r, &s, NULL);
    Cuzk__V1__AwaitProofResponse *a = await_id(r, id, 0);
    check_snarkjs(a);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    rig_close(r);
}

typedef struct waiter {
    rig_t *r;
    char id[24];
    rpc_status_t st;
    double took;
} waiter_t;

static void *waiter_main(void *arg)
{
    waiter_t *w = arg;
    double t0 = now_s();
    Cuzk__V1__AwaitProofResponse *a = await_str(w->r, w->id, 0, CALL_MS, &w->st);
    w->took = now_s() - t0;
    if (a)
        cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    return NULL;
}

static void test_shutdown(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "shutdown", 3000000, 1);
    rig_start(r);
    sub_t s;
    sub_bp(&s, NULL, 1);
    uint64_t id = submit_ok(r, &s, NULL);
    waiter_t w = {r, "", {0, ""}, 0};
    snprintf(w.id, sizeof w.id, "%llu", (unsigned long long)id);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, waiter_main, &w), 0);
    rpc_server_stats_t ss;
    for (int i = 0; i < 5000; i++) {
        rpc_server_stats(r->srv, &ss);
        if (ss.busy_workers >= 1)
            break;
        dfix_sleep_ms(1);
    }
    assert_int_equal(ss.busy_workers, 1);
    dfix_sleep_ms(20);
    double t0 = now_s();
    daemon_shutdown(r->base.d);
    pthread_join(th, NULL);
    assert_int_equal(w.st.code, GRPC_STATUS_UNAVAILABLE);
    assert_non_null(strstr(w.st.message, "shutting down"));
    assert_true(now_s() - t0 < 2.0); /* woken, not timed out on the 3 s proof */
    sub_snarkjs(&s, NULL);
    submit_fails(r, &s, GRPC_STATUS_UNAVAILABLE, "shutting down");
    rig_close(r);
}

static void test_restart(void **state)
{
    (void)state;
    rig_t *r = &g_rig;
    rig_open(r, "restart", 600000, 1);
    rig_start(r);
    sub_t s;
    sub_bp(&s, NULL, DFIX_BP_PARTS);
    uint64_t a = submit_ok(r, &s, NULL);
    sub_snarkjs(&s, "restart-b");
    uint64_t b = submit_ok(r, &s, NULL);
    /* a has two 0.6 s partitions: b is still queued when the daemon goes */
    rig_stop(r);
    engine_sim_set_delay(r->base.sim, 0);
    rig_start(r); /* the same journal, a new server on the same socket */
    Cuzk__V1__AwaitProofResponse *res = await_id(r, a, 0);
    check_bp(res, DFIX_BP_PARTS);
    cuzk__v1__await_proof_response__free_unpacked(res, NULL);
    res = await_id(r, b, 0);
    check_snarkjs(res);
    cuzk__v1__await_proof_response__free_unpacked(res, NULL);
    /* the request id still names b */
    int ex = 0;
    assert_int_equal(submit_ok(r, &s, &ex), b);
    assert_int_equal(ex, 1);
    daemon_stats_t ds;
    daemon_stats(r->base.d, &ds);
    assert_int_equal(
        ds.kinds[ENGINE_KIND_BELLPERSON].resumed + ds.kinds[ENGINE_KIND_SNARKJS].resumed, 2);
    rig_close(r);
}

/* ---- `cuzk daemon` as a subprocess ---- */

#ifdef CUZK_CLI_PATH
typedef struct proc {
    pid_t pid;
    int out; /* its stdout, read end */
} proc_t;

/* What cli_teardown cleans up after a failed assertion: daemons still
 * running, the client, the watchdog. */
static struct {
    pid_t pids[4];
    rpc_client_t *cl;
    tu_watchdog_t wd;
    int wd_on;
} g_cli;

static void cli_track(pid_t pid, int add)
{
    for (int i = 0; i < 4; i++)
        if (add ? g_cli.pids[i] == 0 : g_cli.pids[i] == pid) {
            g_cli.pids[i] = add ? pid : 0;
            return;
        }
}

static int cli_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++)
        if (g_cli.pids[i] > 0) {
            kill(g_cli.pids[i], SIGKILL);
            waitpid(g_cli.pids[i], NULL, 0);
            g_cli.pids[i] = 0;
        }
    rpc_client_free(g_cli.cl);
    g_cli.cl = NULL;
    if (g_cli.wd_on)
        tu_watchdog_stop(&g_cli.wd);
    g_cli.wd_on = 0;
    return 0;
}

/* Starts `cuzk daemon args...` (NULL-terminated), stderr to log. */
static proc_t spawn_daemon(const char *log, const char *const *args)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    proc_t pr = {fork(), p[0]};
    assert_true(pr.pid >= 0);
    if (pr.pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the test */
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(p[1], 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        close(p[0]);
        char *argv[32];
        int n = 0;
        argv[n++] = (char *)CUZK_CLI_PATH;
        argv[n++] = (char *)"daemon";
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = (char *)args[i];
        argv[n] = NULL;
        execv(CUZK_CLI_PATH, argv);
        _exit(127);
    }
    close(p[1]);
    cli_track(pr.pid, 1);
    return pr;
}

/* Reads its first stdout line within timeout_ms ("" at EOF or timeout). */
static void read_line(const proc_t *pr, char *line, size_t cap, int timeout_ms)
{
    size_t n = 0;
    double until = now_s() + timeout_ms / 1000.0;
    line[0] = '\0';
    while (n + 1 < cap) {
        struct pollfd pf = {pr->out, POLLIN, 0};
        int left = (int)((until - now_s()) * 1000);
        if (left <= 0 || poll(&pf, 1, left) <= 0)
            break;
        char c;
        if (read(pr->out, &c, 1) != 1 || c == '\n')
            break;
        line[n++] = c;
        line[n] = '\0';
    }
}

/* Waits for it to exit (up to timeout_s); its exit code, -1 when killed. */
static int wait_exit(proc_t *pr, int timeout_s)
{
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < timeout_s * 100 && !got; i++) {
        got = waitpid(pr->pid, &status, WNOHANG);
        if (!got)
            dfix_sleep_ms(10);
    }
    if (!got) {
        kill(pr->pid, SIGKILL);
        waitpid(pr->pid, &status, 0);
    }
    close(pr->out);
    cli_track(pr->pid, 0);
    return got && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int log_has(const char *log, const char *what)
{
    size_t n = 0;
    uint8_t *t = tu_read_file(log, &n);
    int has = t && memmem(t, n, what, strlen(what)) != NULL;
    if (!has)
        fprintf(stderr, "%s: no '%s' in:\n%.*s\n", log, what, (int)n, t ? (const char *)t : "");
    free(t);
    return has;
}

/* A TCP port nobody listens on now (the config refuses port 0). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static void test_cli_daemon(void **state)
{
    (void)state;
    tu_watchdog_start(&g_cli.wd, "cuzk daemon", DFIX_WATCHDOG_S, NULL, NULL);
    g_cli.wd_on = 1;
    char conf[160], sockdir[160], sock[200], listen[220], journal[160], log[160], line[512];
    dfix_path(conf, sizeof conf, g.dir, "cli.toml");
    dfix_path(sockdir, sizeof sockdir, g.dir, "run/cuzk");
    dfix_path(sock, sizeof sock, sockdir, "d.sock");
    snprintf(listen, sizeof listen, "unix://%s", sock);
    dfix_path(journal, sizeof journal, g.dir, "cli-journal.db");
    dfix_path(log, sizeof log, g.dir, "cli.log");
    int port = free_port();
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f,
            "[daemon]\nlisten = \"%s\"\njournal = \"%s\"\nhttp_listen = \"127.0.0.1:%d\"\n"
            "no_such_key = 1\n[srs]\ndir = \"%s\"\n[synthesis]\nthreads = 2\nprove_threads = 1\n"
            "[logging]\nlevel = \"warn\"\n",
            listen, journal, port, g.srs);
    assert_int_equal(fclose(f), 0);
    const char *args[] = {"--config", conf, "--device", "cpu", "--set", "gpus.workers_per_gpu=1",
                          NULL};
    proc_t d1 = spawn_daemon(log, args);
    read_line(&d1, line, sizeof line, 60000);
    char want[300];
    snprintf(want, sizeof want, "cuzk daemon: listening on %s (http 127.0.0.1:%d), 1 device",
             listen, port);
    if (strncmp(line, want, strlen(want)) != 0) {
        fprintf(stderr, "ready line: '%s'\n", line);
        log_has(log, "listening on"); /* prints the log */
    }
    assert_true(strncmp(line, want, strlen(want)) == 0);
    snprintf(want, sizeof want, ", journal %s", journal);
    assert_non_null(strstr(line, want));
    assert_true(log_has(log, "unknown key 'no_such_key'"));
    struct stat sb;
    assert_int_equal(stat(sockdir, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
    assert_int_equal(stat(sock, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);

    /* a proof through it */
    rig_t r = {0};
    assert_int_equal(rpc_client_new(&g_cli.cl, listen, NULL, NULL), CUZK_OK);
    r.cl = g_cli.cl;
    sub_t s;
    sub_snarkjs(&s, "cli-1");
    uint64_t id = submit_ok(&r, &s, NULL);
    Cuzk__V1__AwaitProofResponse *a = await_id(&r, id, 0);
    check_snarkjs(a);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);

    /* a second daemon on the same socket */
    char log2[160];
    dfix_path(log2, sizeof log2, g.dir, "cli2.log");
    proc_t d2 = spawn_daemon(log2, args);
    assert_int_equal(wait_exit(&d2, 60), 2);
    assert_true(log_has(log2, "already running"));
    /* bad configurations */
    const char *bad1[] = {"--config", conf, "--set", "daemon.max_queued_jobs=0", NULL};
    d2 = spawn_daemon(log2, bad1);
    assert_int_equal(wait_exit(&d2, 60), 2);
    assert_true(log_has(log2, "max_queued_jobs"));
    const char *bad2[] = {"--set", "nope.key=1", NULL};
    d2 = spawn_daemon(log2, bad2);
    assert_int_equal(wait_exit(&d2, 60), 2);
    const char *bad3[] = {"--listen", "/not/a/url", NULL};
    d2 = spawn_daemon(log2, bad3);
    assert_int_equal(wait_exit(&d2, 60), 2);
    assert_true(log_has(log2, "--listen"));
    const char *bad4[] = {"--bogus", NULL};
    d2 = spawn_daemon(log2, bad4);
    assert_int_equal(wait_exit(&d2, 60), 2);

    /* SIGTERM: exit 0, socket removed; the next start serves the result */
    rpc_client_free(g_cli.cl);
    g_cli.cl = NULL;
    assert_int_equal(kill(d1.pid, SIGTERM), 0);
    assert_int_equal(wait_exit(&d1, 60), 0);
    assert_int_not_equal(stat(sock, &sb), 0);
    d1 = spawn_daemon(log, args);
    read_line(&d1, line, sizeof line, 60000);
    assert_non_null(strstr(line, "listening on"));
    assert_int_equal(rpc_client_new(&g_cli.cl, listen, NULL, NULL), CUZK_OK);
    r.cl = g_cli.cl;
    a = await_id(&r, id, 0);
    check_snarkjs(a);
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);

    /* kill -9 with jobs just accepted: the next start (stale socket, lock
     * released by the kernel) resumes what had not finished and serves
     * what had, under the same job ids */
    uint64_t ids9[4];
    char rid9[4][32];
    for (int i = 0; i < 4; i++) {
        snprintf(rid9[i], sizeof rid9[i], "cli-k9-%d", i);
        sub_snarkjs(&s, rid9[i]);
        ids9[i] = submit_ok(&r, &s, NULL);
    }
    rpc_client_free(g_cli.cl);
    g_cli.cl = NULL;
    assert_int_equal(kill(d1.pid, SIGKILL), 0);
    assert_int_equal(wait_exit(&d1, 60), -1); /* killed, not exited */
    d1 = spawn_daemon(log, args);
    read_line(&d1, line, sizeof line, 60000);
    assert_non_null(strstr(line, "listening on"));
    assert_int_equal(rpc_client_new(&g_cli.cl, listen, NULL, NULL), CUZK_OK);
    r.cl = g_cli.cl;
    for (int i = 0; i < 4; i++) {
        a = await_id(&r, ids9[i], 0);
        check_snarkjs(a);
        cuzk__v1__await_proof_response__free_unpacked(a, NULL);
        /* the request id still names the same job */
        sub_snarkjs(&s, rid9[i]);
        assert_int_equal(submit_ok(&r, &s, NULL), ids9[i]);
    }
    assert_int_equal(kill(d1.pid, SIGINT), 0);
    assert_int_equal(wait_exit(&d1, 60), 0);
}
#endif

int main(void)
{
    tu_init("test_daemon_rpc");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_snarkjs, rig_teardown),
        cmocka_unit_test_teardown(test_bellperson, rig_teardown),
        cmocka_unit_test_teardown(test_request_id, rig_teardown),
        cmocka_unit_test_teardown(test_filecoin, rig_teardown),
        cmocka_unit_test_teardown(test_timeout, rig_teardown),
        cmocka_unit_test_teardown(test_cancel, rig_teardown),
        cmocka_unit_test_teardown(test_job_ids, rig_teardown),
        cmocka_unit_test_teardown(test_refused, rig_teardown),
        cmocka_unit_test_teardown(test_exhausted, rig_teardown),
        cmocka_unit_test_teardown(test_status, rig_teardown),
        cmocka_unit_test_teardown(test_preload_evict, rig_teardown),
        cmocka_unit_test_teardown(test_unattached, rig_teardown),
        cmocka_unit_test_teardown(test_shutdown, rig_teardown),
        cmocka_unit_test_teardown(test_restart, rig_teardown),
#ifdef CUZK_CLI_PATH
        cmocka_unit_test_teardown(test_cli_daemon, cli_teardown),
#endif
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
