/* The daemon client commands of the cuzk binary (submit, await, cancel,
 * status, preload, evict, bench single|batch|stress) end to end, against a
 * fake daemon in this process: an rpc server (rpc.h) on a temporary unix
 * socket whose handlers record what arrived and answer canned responses.
 * The real binary runs through popen.
 *
 * The binary: $CUZK_CLI when set, else CUZK_CLI_PATH (the build defines it);
 * with neither, every test is skipped.
 *
 * Canned answers. SubmitProof: job "job-<request id>" ("job-anon" without
 * one); request id "refuse": INVALID_ARGUMENT. AwaitProof: "slow" TIMEOUT,
 * "bad" FAILED, "gone" CANCELLED, "nosuch" NOT_FOUND, anything else
 * COMPLETED with PROOF and PUBLIC. Prove: COMPLETED. GetStatus: two
 * devices, one key, one queue. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cuzk/rpc.h"

/* ---- canned data ---- */

/* A proof with NULs and high bytes, so "byte for byte" means something. */
static uint8_t PROOF[384];
static const char PUBLIC[] = "[\n \"33\",\n \"3\"\n]";
static const char FAIL_MSG[] = "constraint 7 is not satisfied";
static const char CANCEL_MSG[] = "cancelled by a client";

static void canned_init(void)
{
    for (size_t i = 0; i < sizeof PROOF; i++)
        PROOF[i] = (uint8_t)(i % 5 == 0 ? 0 : i * 37 + 11);
}

/* ---- the fake daemon ---- */

typedef struct fake {
    pthread_mutex_t mu;
    unsigned calls[RPC_METHOD_COUNT];
    uint8_t *submit; /* the last SubmitProofRequest, packed */
    size_t submit_len;
    char await_id[64];
    uint64_t await_timeout_ms;
    char cancel_id[64], preload_id[64], evict_id[64];
} fake_t;

static fake_t g_fake = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void count(int m)
{
    pthread_mutex_lock(&g_fake.mu);
    g_fake.calls[m]++;
    pthread_mutex_unlock(&g_fake.mu);
}

static unsigned calls(int m)
{
    pthread_mutex_lock(&g_fake.mu);
    unsigned n = g_fake.calls[m];
    pthread_mutex_unlock(&g_fake.mu);
    return n;
}

static void keep(char *dst, size_t cap, const char *s)
{
    pthread_mutex_lock(&g_fake.mu);
    snprintf(dst, cap, "%s", s);
    pthread_mutex_unlock(&g_fake.mu);
}

static void h_submit(void *ctx, const rpc_call_t *call, const Cuzk__V1__SubmitProofRequest *req,
                     Cuzk__V1__SubmitProofResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    size_t n = protobuf_c_message_get_packed_size(&req->base);
    uint8_t *b = malloc(n + 1);
    protobuf_c_message_pack(&req->base, b);
    pthread_mutex_lock(&g_fake.mu);
    g_fake.calls[RPC_SUBMIT_PROOF]++;
    free(g_fake.submit);
    g_fake.submit = b;
    g_fake.submit_len = n;
    pthread_mutex_unlock(&g_fake.mu);
    if (!strcmp(req->request_id, "refuse")) {
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "unknown circuit '%s'", req->circuit_id);
        return;
    }
    char job[160];
    snprintf(job, sizeof job, "job-%s", req->request_id[0] ? req->request_id : "anon");
    rpc_set_string(&resp->job_id, job);
    resp->queue_position = 3;
}

/* Fills r as the canned answer for job id. 0: NOT_FOUND instead. */
static int await_answer(Cuzk__V1__AwaitProofResponse *r, const char *id)
{
    if (!strcmp(id, "nosuch"))
        return 0;
    rpc_set_string(&r->job_id, id);
    if (!strcmp(id, "slow")) {
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
    } else if (!strcmp(id, "bad")) {
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        rpc_set_string(&r->error_message, FAIL_MSG);
    } else if (!strcmp(id, "gone")) {
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
        rpc_set_string(&r->error_message, CANCEL_MSG);
    } else {
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        rpc_set_bytes(&r->proof, PROOF, sizeof PROOF);
        rpc_set_bytes(&r->public_signals, PUBLIC, strlen(PUBLIC));
        r->queue_wait_ms = 1;
        r->synthesis_ms = 2;
        r->gpu_compute_ms = 3;
        r->total_ms = 7;
    }
    return 1;
}

static void h_await(void *ctx, const rpc_call_t *call, const Cuzk__V1__AwaitProofRequest *req,
                    Cuzk__V1__AwaitProofResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    count(RPC_AWAIT_PROOF);
    pthread_mutex_lock(&g_fake.mu);
    snprintf(g_fake.await_id, sizeof g_fake.await_id, "%s", req->job_id);
    g_fake.await_timeout_ms = req->timeout_ms;
    pthread_mutex_unlock(&g_fake.mu);
    if (!await_answer(resp, req->job_id))
        rpc_status_set(st, GRPC_STATUS_NOT_FOUND, "no such job '%s'", req->job_id);
}

static void h_prove(void *ctx, const rpc_call_t *call, const Cuzk__V1__ProveRequest *req,
                    Cuzk__V1__ProveResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    count(RPC_PROVE);
    if (!req->submit || req->submit->n_witnesses == 0) {
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "no witnesses");
        return;
    }
    Cuzk__V1__AwaitProofResponse *r = malloc(sizeof *r);
    cuzk__v1__await_proof_response__init(r);
    await_answer(r, "job-prove");
    resp->result = r;
}

static void h_cancel(void *ctx, const rpc_call_t *call, const Cuzk__V1__CancelProofRequest *req,
                     Cuzk__V1__CancelProofResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    (void)st;
    count(RPC_CANCEL_PROOF);
    keep(g_fake.cancel_id, sizeof g_fake.cancel_id, req->job_id);
    resp->was_running = !strcmp(req->job_id, "running");
}

static Cuzk__V1__GPUStatus *gpu(uint32_t ordinal, const char *name, uint64_t total, uint64_t free_,
                                const char *job, const char *kind)
{
    Cuzk__V1__GPUStatus *g = malloc(sizeof *g);
    cuzk__v1__gpustatus__init(g);
    g->ordinal = ordinal;
    rpc_set_string(&g->name, name);
    g->vram_total_bytes = total;
    g->vram_free_bytes = free_;
    if (job[0])
        rpc_set_string(&g->current_job_id, job);
    if (kind[0])
        rpc_set_string(&g->current_proof_kind, kind);
    return g;
}

static void h_status(void *ctx, const rpc_call_t *call, const Cuzk__V1__GetStatusRequest *req,
                     Cuzk__V1__GetStatusResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    (void)req;
    (void)st;
    count(RPC_GET_STATUS);
    resp->n_gpus = 2;
    resp->gpus = malloc(2 * sizeof *resp->gpus);
    resp->gpus[0] =
        gpu(0, "Fake GPU A", (uint64_t)80 << 30, (uint64_t)60 << 30, "job-7", "groth16");
    resp->gpus[1] = gpu(1, "Fake GPU B", UINT64_MAX, 12345, "", "");
    resp->n_loaded_srs = 1;
    resp->loaded_srs = malloc(sizeof *resp->loaded_srs);
    Cuzk__V1__SRSStatus *k = malloc(sizeof *k);
    cuzk__v1__srsstatus__init(k);
    rpc_set_string(&k->circuit_id, "multiplier");
    k->tier = CUZK__V1__SRSSTATUS__TIER__WARM;
    k->size_bytes = 1234;
    k->ref_count = 1;
    k->loaded_bytes = 617;
    k->device_loaded_bytes = (uint64_t)1 << 30;
    k->device_bytes = (uint64_t)4 << 30;
    resp->loaded_srs[0] = k;
    resp->n_queues = 1;
    resp->queues = malloc(sizeof *resp->queues);
    Cuzk__V1__QueueStatus *q = malloc(sizeof *q);
    cuzk__v1__queue_status__init(q);
    rpc_set_string(&q->proof_kind, "groth16");
    q->pending = 2;
    q->in_progress = 1;
    resp->queues[0] = q;
    resp->total_proofs_completed = 11;
    resp->total_proofs_failed = 2;
    resp->uptime_seconds = 90061; /* 1d 01:01:01 */
}

static void h_preload(void *ctx, const rpc_call_t *call, const Cuzk__V1__PreloadSrsRequest *req,
                      Cuzk__V1__PreloadSrsResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    (void)st;
    count(RPC_PRELOAD_SRS);
    keep(g_fake.preload_id, sizeof g_fake.preload_id, req->circuit_id);
    resp->already_loaded = !strcmp(req->circuit_id, "hot");
    resp->load_time_ms = 42;
}

static void h_evict(void *ctx, const rpc_call_t *call, const Cuzk__V1__EvictSrsRequest *req,
                    Cuzk__V1__EvictSrsResponse *resp, rpc_status_t *st)
{
    (void)ctx;
    (void)call;
    count(RPC_EVICT_SRS);
    keep(g_fake.evict_id, sizeof g_fake.evict_id, req->circuit_id);
    if (!strcmp(req->circuit_id, "busy")) {
        rpc_status_set(st, GRPC_STATUS_RESOURCE_EXHAUSTED, "jobs hold it");
        return;
    }
    resp->was_loaded = 1;
    resp->freed_bytes = 3 << 20;
}

/* ---- fixture ---- */

static char g_dir[] = "/tmp/cuzk_client_XXXXXX";
static char g_target[160], g_nobody[160];
static rpc_server_t *g_srv;
static const char *g_cli;
static tu_watchdog_t g_wd;

static void dump(void *ctx)
{
    (void)ctx;
    fprintf(stderr, "fake daemon calls: submit %u await %u prove %u cancel %u status %u\n",
            g_fake.calls[RPC_SUBMIT_PROOF], g_fake.calls[RPC_AWAIT_PROOF], g_fake.calls[RPC_PROVE],
            g_fake.calls[RPC_CANCEL_PROOF], g_fake.calls[RPC_GET_STATUS]);
}

static int group_setup(void **state)
{
    (void)state;
    canned_init();
    const char *env = getenv("CUZK_CLI");
#ifdef CUZK_CLI_PATH
    g_cli = env && env[0] ? env : CUZK_CLI_PATH;
#else
    g_cli = env && env[0] ? env : NULL;
#endif
    if (!g_cli) {
        printf("test_client: no cuzk binary (set CUZK_CLI, or build with CUZK_CLI_PATH): "
               "skipping\n");
        return 0;
    }
    tu_watchdog_start(&g_wd, "test_client", 300, dump, NULL);
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return -1;
    }
    snprintf(g_target, sizeof g_target, "unix://%s/d.sock", g_dir);
    snprintf(g_nobody, sizeof g_nobody, "unix://%s/nobody.sock", g_dir);
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = g_target;
    o.workers = 4;
    o.handlers = (rpc_handlers_t){NULL,     h_submit, h_await,   h_prove, h_cancel,
                                  h_status, NULL,     h_preload, h_evict};
    cuzk_error_t err = {CUZK_OK, ""};
    if (rpc_server_new(&g_srv, &o, &err) != CUZK_OK) {
        fprintf(stderr, "server: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    if (!g_cli)
        return 0;
    rpc_server_shutdown(g_srv, 1000);
    free(g_fake.submit);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    int rc = system(cmd);
    tu_watchdog_stop(&g_wd);
    return rc == 0 ? 0 : -1;
}

#define NEED_CLI()                                                                                 \
    do {                                                                                           \
        if (!g_cli)                                                                                \
            skip();                                                                                \
    } while (0)

static char out[1 << 17];
static size_t out_len;

/* Runs `[env] cuzk <args>` with --addr target (when target is non-NULL);
 * stdout (and stderr too when merge) into out; returns the exit code. */
static int run(const char *target, int merge, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int run(const char *target, int merge, const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    /* the subcommand is the first word(s); --addr goes after it */
    snprintf(cmd, sizeof cmd, "'%s' %s%s%s %s", g_cli, args, target ? " --addr " : "",
             target ? target : "", merge ? "2>&1" : "2>/dev/null");
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    out_len = n;
    int st = pclose(f);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static char *path(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

/* Writes a file of n bytes (a pattern with NULs) under g_dir; its path. */
static char *make_file(const char *name, size_t n, unsigned salt, uint8_t **bytes)
{
    uint8_t *b = malloc(n);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)(i % 7 == 0 ? 0 : (i * 131 + salt) >> 1);
    char *p = path(name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    if (bytes)
        *bytes = b;
    else
        free(b);
    return p;
}

static Cuzk__V1__SubmitProofRequest *last_submit(void)
{
    pthread_mutex_lock(&g_fake.mu);
    Cuzk__V1__SubmitProofRequest *r =
        cuzk__v1__submit_proof_request__unpack(NULL, g_fake.submit_len, g_fake.submit);
    pthread_mutex_unlock(&g_fake.mu);
    assert_non_null(r);
    return r;
}

static void assert_file_is(const char *p, const void *want, size_t n)
{
    size_t len = 0;
    uint8_t *got = tu_read_file(p, &len);
    assert_non_null(got);
    assert_int_equal(len, n);
    assert_memory_equal(got, want, n);
    free(got);
}

/* ---- submit ---- */

static void test_submit_sends_fields(void **state)
{
    (void)state;
    NEED_CLI();
    uint8_t *b0, *b1;
    char w0[512], w1[512];
    snprintf(w0, sizeof w0, "%s", make_file("w0.wtns", 70001, 1, &b0));
    snprintf(w1, sizeof w1, "%s", make_file("w1.wtns", 513, 2, &b1));
    unsigned before = calls(RPC_SUBMIT_PROOF);
    assert_int_equal(run(g_target, 0,
                         "submit --circuit mult.v1 --priority high "
                         "--request-id req-1 %s %s",
                         w0, w1),
                     0);
    assert_string_equal(out, "job-req-1\n");
    assert_int_equal(calls(RPC_SUBMIT_PROOF), before + 1);
    Cuzk__V1__SubmitProofRequest *r = last_submit();
    assert_int_equal(r->proof_kind, CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT);
    assert_int_equal(r->priority, CUZK__V1__PRIORITY__HIGH);
    assert_string_equal(r->circuit_id, "mult.v1");
    assert_string_equal(r->request_id, "req-1");
    assert_int_equal(r->n_witnesses, 2);
    assert_int_equal(r->witnesses[0].len, 70001);
    assert_memory_equal(r->witnesses[0].data, b0, 70001);
    assert_int_equal(r->witnesses[1].len, 513);
    assert_memory_equal(r->witnesses[1].data, b1, 513);
    assert_int_equal(r->n_vanilla_proofs, 0);
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);

    /* every priority name, and none: UNSPECIFIED (the daemon's default) */
    static const struct {
        const char *name;
        int v;
    } prios[] = {{"critical", CUZK__V1__PRIORITY__CRITICAL},
                 {"normal", CUZK__V1__PRIORITY__NORMAL},
                 {"low", CUZK__V1__PRIORITY__LOW},
                 {NULL, CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED}};
    for (size_t i = 0; i < sizeof prios / sizeof prios[0]; i++) {
        assert_int_equal(run(g_target, 0, "submit --circuit c %s%s %s",
                             prios[i].name ? "--priority " : "", prios[i].name ? prios[i].name : "",
                             w1),
                         0);
        assert_string_equal(out, "job-anon\n");
        r = last_submit();
        assert_int_equal(r->priority, prios[i].v);
        assert_string_equal(r->request_id, "");
        assert_int_equal(r->n_witnesses, 1);
        cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
    }

    /* a Filecoin kind takes its public values and vanilla files
     * (tests/daemon_filecoin.sh sends them); without --public it is
     * refused, naming the flag, and nothing is sent */
    unsigned sent = calls(RPC_SUBMIT_PROOF);
    assert_int_equal(run(g_target, 1, "submit --kind porep %s", w1), 2);
    assert_non_null(strstr(out, "--public"));
    assert_int_equal(run(g_target, 1, "submit --kind window-post --vanilla %s", w1), 2);
    assert_non_null(strstr(out, "--public"));
    assert_int_equal(calls(RPC_SUBMIT_PROOF), sent);

    /* the address from $CUZK_ADDR */
    char args[1024];
    snprintf(args, sizeof args, "submit --circuit c --request-id env %s", w1);
    char envcmd[2048];
    snprintf(envcmd, sizeof envcmd, "CUZK_ADDR='%s' '%s' %s", g_target, g_cli, args);
    FILE *f = popen(envcmd, "r");
    assert_non_null(f);
    char line[64] = {0};
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(pclose(f), 0);
    assert_string_equal(line, "job-env\n");

    /* the daemon refuses: exit 2 with its code and message */
    assert_int_equal(run(g_target, 1, "submit --circuit nope --request-id refuse %s", w1), 2);
    assert_non_null(strstr(out, "cuzk submit: SubmitProof: INVALID_ARGUMENT: unknown circuit "
                                "'nope'"));
    free(b0);
    free(b1);
}

static void test_submit_wait(void **state)
{
    (void)state;
    NEED_CLI();
    char *w = make_file("wait.wtns", 1000, 3, NULL);
    char wp[512];
    snprintf(wp, sizeof wp, "%s", w);
    assert_int_equal(run(g_target, 0,
                         "submit --circuit c --request-id w1 --wait --proof-out %s "
                         "--public-out %s %s",
                         path("wait_proof.json"), path("wait_public.json"), wp),
                     0);
    assert_non_null(strstr(out, "job job-w1 COMPLETED"));
    assert_file_is(path("wait_proof.json"), PROOF, sizeof PROOF);
    assert_file_is(path("wait_public.json"), PUBLIC, strlen(PUBLIC));
    pthread_mutex_lock(&g_fake.mu);
    assert_string_equal(g_fake.await_id, "job-w1");
    pthread_mutex_unlock(&g_fake.mu);
}

/* ---- await ---- */

static void test_await_writes_proof(void **state)
{
    (void)state;
    NEED_CLI();
    assert_int_equal(run(g_target, 0, "await job-ok --proof-out %s --public-out %s",
                         path("proof.bin"), path("public.json")),
                     0);
    assert_file_is(path("proof.bin"), PROOF, sizeof PROOF);
    assert_file_is(path("public.json"), PUBLIC, strlen(PUBLIC));
    assert_non_null(strstr(out, "job job-ok COMPLETED: proof 384 bytes"));
    pthread_mutex_lock(&g_fake.mu);
    assert_string_equal(g_fake.await_id, "job-ok");
    assert_int_equal(g_fake.await_timeout_ms, 0); /* no --timeout-ms: no limit */
    pthread_mutex_unlock(&g_fake.mu);

    /* '-': the proof on stdout, nothing else there */
    assert_int_equal(run(g_target, 0, "await job-ok --timeout-ms 5000 --proof-out -"), 0);
    assert_int_equal(out_len, sizeof PROOF);
    assert_memory_equal(out, PROOF, sizeof PROOF);
    pthread_mutex_lock(&g_fake.mu);
    assert_int_equal(g_fake.await_timeout_ms, 5000);
    pthread_mutex_unlock(&g_fake.mu);

    /* no files: a summary only */
    assert_int_equal(run(g_target, 0, "await job-sum"), 0);
    assert_non_null(strstr(out, "COMPLETED"));
    assert_non_null(strstr(out, "total 7 ms"));
}

static void test_await_timeout_and_failures(void **state)
{
    (void)state;
    NEED_CLI();
    assert_int_equal(run(g_target, 1, "await slow --timeout-ms 100"), 1);
    assert_non_null(strstr(out, "cuzk await: job slow: still running"));
    pthread_mutex_lock(&g_fake.mu);
    assert_int_equal(g_fake.await_timeout_ms, 100);
    pthread_mutex_unlock(&g_fake.mu);

    assert_int_equal(run(g_target, 1, "await bad --proof-out %s", path("never.bin")), 1);
    assert_non_null(strstr(out, "cuzk await: job bad: FAILED: constraint 7 is not satisfied"));
    assert_int_equal(access(path("never.bin"), F_OK), -1);

    assert_int_equal(run(g_target, 1, "await gone"), 1);
    assert_non_null(strstr(out, "cuzk await: job gone: CANCELLED: cancelled by a client"));

    assert_int_equal(run(g_target, 1, "await nosuch"), 2);
    assert_non_null(strstr(out, "cuzk await: AwaitProof: NOT_FOUND: no such job 'nosuch'"));
}

/* ---- status ---- */

static void test_status(void **state)
{
    (void)state;
    NEED_CLI();
    assert_int_equal(run(g_target, 0, "status"), 0);
    assert_non_null(strstr(out, "up 1d 01:01:01, 11 proofs completed, 2 failed"));
    assert_non_null(strstr(out, "Fake GPU A"));
    assert_non_null(strstr(out, "Fake GPU B"));
    assert_non_null(strstr(out, "60.0 GiB"));
    assert_non_null(strstr(out, "job-7"));
    assert_non_null(strstr(out, "multiplier"));
    assert_non_null(strstr(out, "WARM"));
    /* load progress: host 617 of 1234 bytes, devices 1 of 4 GiB */
    assert_non_null(strstr(out, "50%"));
    assert_non_null(strstr(out, "4.0 GiB"));
    assert_non_null(strstr(out, "25%"));

    assert_int_equal(run(g_target, 0, "status --json"), 0);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    cJSON *gpus = cJSON_GetObjectItemCaseSensitive(j, "gpus");
    assert_true(cJSON_IsArray(gpus));
    assert_int_equal(cJSON_GetArraySize(gpus), 2);
    cJSON *g1 = cJSON_GetArrayItem(gpus, 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g1, "name")->valuestring, "Fake GPU B");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(g1, "ordinal")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g1, "current_job_id")->valuestring, "");
    cJSON *g0 = cJSON_GetArrayItem(gpus, 0);
    assert_true(cJSON_GetObjectItemCaseSensitive(g0, "vram_free_bytes")->valuedouble ==
                (double)((uint64_t)60 << 30));
    cJSON *srs = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "loaded_srs"), 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(srs, "tier")->valuestring, "WARM");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(srs, "size_bytes")->valueint, 1234);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(srs, "loaded_bytes")->valueint, 617);
    assert_true(cJSON_GetObjectItemCaseSensitive(srs, "device_bytes")->valuedouble ==
                (double)((uint64_t)4 << 30));
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(j, "total_proofs_completed")->valueint, 11);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(j, "pinned_memory_bytes")->valueint, 0);
    cJSON_Delete(j);
    /* 64-bit counts are written exactly, not through a double */
    assert_non_null(strstr(out, "\"vram_total_bytes\":18446744073709551615"));
}

/* ---- cancel, preload, evict ---- */

static void test_cancel_preload_evict(void **state)
{
    (void)state;
    NEED_CLI();
    assert_int_equal(run(g_target, 0, "cancel running"), 0);
    assert_non_null(strstr(out, "job running: cancel requested (it was running)"));
    assert_int_equal(run(g_target, 0, "cancel job-9"), 0);
    assert_non_null(strstr(out, "it was not running"));
    pthread_mutex_lock(&g_fake.mu);
    assert_string_equal(g_fake.cancel_id, "job-9");
    pthread_mutex_unlock(&g_fake.mu);

    assert_int_equal(run(g_target, 0, "preload cold-key"), 0);
    assert_non_null(strstr(out, "circuit cold-key: loaded in 42 ms"));
    assert_int_equal(run(g_target, 0, "preload hot"), 0);
    assert_non_null(strstr(out, "circuit hot: already loaded"));
    pthread_mutex_lock(&g_fake.mu);
    assert_string_equal(g_fake.preload_id, "hot");
    pthread_mutex_unlock(&g_fake.mu);

    assert_int_equal(run(g_target, 0, "evict k1"), 0);
    assert_non_null(strstr(out, "circuit k1: evicted, 3.0 MiB freed"));
    assert_int_equal(run(g_target, 1, "evict busy"), 2);
    assert_non_null(strstr(out, "cuzk evict: EvictSRS: RESOURCE_EXHAUSTED: jobs hold it"));
    pthread_mutex_lock(&g_fake.mu);
    assert_string_equal(g_fake.evict_id, "busy");
    pthread_mutex_unlock(&g_fake.mu);
}

/* ---- bench ---- */

/* The summary line of a bench run: its "completed" count (-1: none). */
static long summary_completed(const char *bench)
{
    char key[64];
    snprintf(key, sizeof key, "{\"bench\":\"%s\",\"circuit\"", bench);
    const char *line = strstr(out, key);
    if (!line)
        return -1;
    const char *eol = strchr(line, '\n');
    char buf[2048];
    size_t n = eol ? (size_t)(eol - line) : strlen(line);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, line, n);
    buf[n] = '\0';
    cJSON *j = cJSON_Parse(buf);
    if (!j)
        return -1;
    cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "completed");
    long v = cJSON_IsNumber(c) ? (long)c->valuedouble : -1;
    cJSON_Delete(j);
    return v;
}

static void test_bench_single_batch_stress(void **state)
{
    (void)state;
    NEED_CLI();
    char w[512];
    snprintf(w, sizeof w, "%s", make_file("bench.wtns", 2048, 4, NULL));
    unsigned proves = calls(RPC_PROVE);
    assert_int_equal(run(g_target, 0, "bench single --circuit c --n 3 %s", w), 0);
    assert_int_equal(summary_completed("single"), 3);
    assert_non_null(strstr(out, "{\"bench\":\"single\",\"proof\":2,\"outcome\":\"completed\""));
    assert_non_null(strstr(out, "proofs/s"));
    assert_int_equal(calls(RPC_PROVE), proves + 3);

    unsigned submits = calls(RPC_SUBMIT_PROOF), awaits = calls(RPC_AWAIT_PROOF);
    assert_int_equal(run(g_target, 0, "bench batch --circuit c --n 5 --concurrency 2 %s", w), 0);
    assert_int_equal(summary_completed("batch"), 5);
    assert_int_equal(calls(RPC_SUBMIT_PROOF), submits + 5);
    assert_int_equal(calls(RPC_AWAIT_PROOF), awaits + 5);

    unsigned cancels = calls(RPC_CANCEL_PROOF);
    assert_int_equal(run(g_target, 0,
                         "bench stress --circuit c --seconds 1 --concurrency 2 "
                         "--cancel-pct 50 --seed 7 %s",
                         w),
                     0);
    assert_true(summary_completed("stress") >= 1);
    assert_true(calls(RPC_CANCEL_PROOF) > cancels);
}

/* ---- usage and connection errors ---- */

static void test_bad_args_exit_2(void **state)
{
    (void)state;
    NEED_CLI();
    char w[512];
    snprintf(w, sizeof w, "%s", make_file("args.wtns", 64, 5, NULL));
    unsigned submits = calls(RPC_SUBMIT_PROOF);
    static const char *const bad[] = {
        "submit",
        "submit --circuit c",                      /* no witness */
        "submit --priority high %s",               /* no circuit */
        "submit --circuit c --priority urgent %s", /* unknown priority */
        "submit --circuit c --kind stark %s",      /* unknown kind */
        "submit --circuit ../etc %s",              /* not a circuit id */
        "submit --circuit c --bogus %s",           /* unknown option */
        "submit --circuit c --proof-out x %s",     /* --proof-out without --wait */
        "submit --circuit c --kind porep %s %s",   /* porep: one file */
        "submit --circuit c --timeout-ms -5 %s",   /* not a count */
        "submit --circuit c %s.missing",           /* no such file */
        "await",
        "await a b",
        "cancel",
        "status --bogus",
        "preload",
        "preload .hidden",
        "evict a/b",
        "bench single --circuit c", /* no witness */
        "bench single --circuit c --n 0 %s",
        "bench stress --circuit c --seconds x %s",
        "bench batch --circuit c --concurrency 0 %s",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args, bad[i], w, w);
        int rc = run(g_target, 1, "%s", args);
        if (rc != 2)
            fail_msg("`cuzk %s` exited %d, not 2:\n%s", args, rc, out);
    }
    assert_int_equal(calls(RPC_SUBMIT_PROOF), submits); /* none reached the daemon */
    assert_int_equal(run(g_target, 1, "submit --circuit c %s.missing", w), 2);
    assert_non_null(strstr(out, "cuzk submit: input: cannot open"));
}

static void test_no_daemon_exit_2(void **state)
{
    (void)state;
    NEED_CLI();
    char w[512];
    snprintf(w, sizeof w, "%s", make_file("nobody.wtns", 64, 6, NULL));
    const char *cmds[] = {"status",
                          "await job-1",
                          "cancel job-1",
                          "preload k",
                          "evict k",
                          "submit --circuit c",
                          "submit --circuit c --wait",
                          "bench single --circuit c",
                          "bench batch --circuit c"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int needs_file = !strncmp(cmds[i], "submit", 6) || !strncmp(cmds[i], "bench", 5);
        int rc = run(g_nobody, 1, "%s %s", cmds[i], needs_file ? w : "");
        if (rc != 2 || !strstr(out, "cannot reach") || !strstr(out, g_nobody))
            fail_msg("`cuzk %s` with no daemon exited %d:\n%s", cmds[i], rc, out);
    }
}

int main(void)
{
    tu_init("test_client");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submit_sends_fields),
        cmocka_unit_test(test_submit_wait),
        cmocka_unit_test(test_await_writes_proof),
        cmocka_unit_test(test_await_timeout_and_failures),
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_cancel_preload_evict),
        cmocka_unit_test(test_bench_single_batch_stress),
        cmocka_unit_test(test_bad_args_exit_2),
        cmocka_unit_test(test_no_daemon_exit_2),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
