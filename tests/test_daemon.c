/* Daemon core tests (include/cuzk/daemon.h), CPU only, on simulated devices
 * (tests/sim_device.h).
 *
 * Fixture (daemon_fixture.h, shared with test_daemon_rpc.c), in a mkdtemp
 * folder under /tmp (removed at the end): a circuit registry holding the
 * snarkjs multiplier case of the shared test data ("mult.zkey") and a
 * bellperson circuit made there ("bp", an INSECURE key), with .wtns
 * witnesses of two partitions.
 *
 * Covered: submit + await for both kinds, the proofs verified from the
 * bytes the daemon returns (proof.json / public.json; 192-byte proofs and
 * big-endian inputs, batch-verified), the kind taken from the key;
 * idempotent request ids (also after the job finished) and a reused id with
 * other witnesses refused; unknown circuits, traversal ids, a kind that is
 * not the key's and a snarkjs job with two witnesses refused with nothing
 * journaled; Filecoin requests with bad values refused, naming the field,
 * with nothing journaled; a bad witness FAILED; await timeouts while the job
 * goes on; cancellation of queued and running jobs; the queue limit; a
 * restart with jobs queued and running (the journal keeps them unfinished,
 * the next daemon resumes them and they verify), finished results readable
 * after the restart until the TTL expires them, a resumed job whose circuit
 * is gone FAILED with the reason; the status JSON (parsed with cJSON) and
 * the metrics text; GET /status and /metrics over a raw socket; preload
 * and evict (BUSY while a job holds the key), srs.preload at start; the
 * event log. Every test runs under a watchdog. */
#include "daemon_fixture.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "cuzk/daemon.h"
#include "sim_device.h"
#include "cuzk/eventlog.h"
#include "cuzk/filecoin_params.h"
#include "cuzk/journal.h"
#include "cuzk/request.h"

static dfix_t g;

static int group_setup(void **state)
{
    (void)state;
    return dfix_setup(&g, "/tmp/cuzk_daemon_XXXXXX");
}

static int group_teardown(void **state)
{
    (void)state;
    return dfix_teardown(&g);
}

/* ---- a daemon on simulated devices ---- */

static dfix_rig_t g_rig; /* the running test's (rig_teardown closes it) */

static int rig_teardown(void **state)
{
    (void)state;
    if (g_rig.open)
        dfix_rig_close(&g_rig);
    return 0;
}

/* ---- requests and checks ---- */

static daemon_blob_t g_sj_blob[1], g_bp_blob[DFIX_BP_PARTS];

static daemon_request_t req_snarkjs(const char *rid)
{
    g_sj_blob[0] = (daemon_blob_t){g.sj_wtns, g.sj_len};
    return (daemon_request_t){
        ENGINE_KIND_SNARKJS, CUZK_PRIO_NORMAL, rid, "mult", g_sj_blob, 1, NULL};
}

static daemon_request_t req_bp(const char *rid, size_t parts)
{
    for (int p = 0; p < DFIX_BP_PARTS; p++)
        g_bp_blob[p] = (daemon_blob_t){g.bp_wtns[p], g.bp_len[p]};
    return (daemon_request_t){
        ENGINE_KIND_BELLPERSON, CUZK_PRIO_NORMAL, rid, "bp", g_bp_blob, parts, NULL};
}

static uint64_t submit_ok(daemon_t *d, const daemon_request_t *req)
{
    uint64_t id = 0;
    int ex = -1;
    cuzk_error_t err = {0};
    cuzk_status st = daemon_submit(d, &id, &ex, req, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "daemon_submit: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    assert_int_equal(ex, 0);
    assert_true(id > 0);
    return id;
}

static void await_ok(daemon_t *d, daemon_result_t *res, uint64_t id, engine_job_state want)
{
    cuzk_error_t err = {0};
    cuzk_status st = daemon_await(d, res, id, -1, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "daemon_await(%llu): %s\n", (unsigned long long)id, err.msg);
    assert_int_equal(st, CUZK_OK);
    if (res->state != want)
        fprintf(stderr, "job %llu: %s (%s)\n", (unsigned long long)id,
                engine_job_state_str(res->state), res->error.msg);
    assert_int_equal(res->state, want);
    assert_int_equal(res->job_id, id);
}

static void check_snarkjs(const daemon_result_t *res)
{
    assert_int_equal(res->kind, ENGINE_KIND_SNARKJS);
    dfix_check_snarkjs(&g, res->proof, res->proof_len, res->public_signals, res->public_len);
    /* the multiplier's public signals, as snarkjs writes them */
    assert_int_equal(res->public_len, strlen("[\n \"1034\",\n \"11\"\n]"));
    assert_memory_equal(res->public_signals, "[\n \"1034\",\n \"11\"\n]", res->public_len);
}

static void check_bp(const daemon_result_t *res, size_t parts)
{
    assert_int_equal(res->kind, ENGINE_KIND_BELLPERSON);
    dfix_check_bp(&g, res->proof, res->proof_len, res->public_signals, res->public_len, parts);
}

static void stats(daemon_t *d, daemon_stats_t *s)
{
    daemon_stats(d, s);
}

/* ---- tests ---- */

static void test_snarkjs(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "snarkjs", 0, 1);
    dfix_rig_start(r);
    daemon_request_t req = req_snarkjs(NULL);
    daemon_result_t res;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_prove(r->d, &res, NULL, &req, -1, &err), CUZK_OK);
    assert_int_equal(res.state, ENGINE_JOB_DONE);
    assert_int_equal(res.error.code, CUZK_OK);
    assert_string_equal(res.circuit_id, "mult");
    check_snarkjs(&res);
    assert_int_equal(res.n_partitions, 1);
    assert_non_null(res.partitions);
    assert_int_equal(res.partitions[0].device, 0);
    uint64_t id = res.job_id;
    daemon_result_free(&res);
    /* the stored result again, and the job's info */
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    check_snarkjs(&res);
    daemon_result_free(&res);
    daemon_job_info_t info;
    assert_int_equal(daemon_job_info(r->d, &info, id, &err), CUZK_OK);
    assert_int_equal(info.state, ENGINE_JOB_DONE);
    assert_string_equal(info.circuit_id, "mult");
    /* the kind taken from the key */
    req.kind = DAEMON_KIND_FROM_KEY;
    assert_int_equal(daemon_prove(r->d, &res, NULL, &req, -1, &err), CUZK_OK);
    assert_int_equal(res.state, ENGINE_JOB_DONE);
    check_snarkjs(&res);
    daemon_result_free(&res);
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.kinds[ENGINE_KIND_SNARKJS].submitted, 2);
    assert_int_equal(s.kinds[ENGINE_KIND_SNARKJS].done, 2);
    assert_int_equal(s.unfinished, 0);
    dfix_rig_close(r);
}

static void test_bellperson(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "bellperson", 0, 2);
    dfix_rig_start(r);
    daemon_request_t req = req_bp(NULL, DFIX_BP_PARTS);
    uint64_t id = submit_ok(r->d, &req);
    daemon_result_t res;
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    check_bp(&res, DFIX_BP_PARTS);
    assert_int_equal(res.n_partitions, DFIX_BP_PARTS);
    assert_true(res.times.total_ms >= res.times.gpu_compute_ms / 2);
    daemon_result_free(&res);
    /* one partition, kind from the key */
    req = req_bp(NULL, 1);
    req.kind = DAEMON_KIND_FROM_KEY;
    id = submit_ok(r->d, &req);
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    check_bp(&res, 1);
    daemon_result_free(&res);
    dfix_rig_close(r);
}

static void test_request_ids(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "request ids", 100000, 1);
    dfix_rig_start(r);
    daemon_request_t req = req_bp("rid-1", 1);
    uint64_t id = submit_ok(r->d, &req), id2 = 0;
    int ex = 0;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_submit(r->d, &id2, &ex, &req, &err), CUZK_OK);
    assert_int_equal(id2, id);
    assert_int_equal(ex, 1);
    /* the same id with other witnesses */
    daemon_request_t other = req_bp("rid-1", 2);
    assert_int_equal(daemon_submit(r->d, &id2, &ex, &other, &err), CUZK_ERR_ARG);
    assert_int_equal(id2, 0);
    daemon_result_t res;
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    /* after it finished: still that job, nothing queued */
    assert_int_equal(daemon_submit(r->d, &id2, &ex, &req, &err), CUZK_OK);
    assert_int_equal(id2, id);
    assert_int_equal(ex, 1);
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.kinds[ENGINE_KIND_BELLPERSON].submitted, 1);
    assert_int_equal(s.unfinished, 0);
    /* a request id that is not printable */
    daemon_request_t bad = req_bp("rid\n", 1);
    assert_int_equal(daemon_submit(r->d, &id2, &ex, &bad, &err), CUZK_ERR_ARG);
    dfix_rig_close(r);
}

static void test_refused(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "refused", 0, 1);
    dfix_rig_start(r);
    static const char *const bad_ids[] = {"nope",  "../mult", "..", ".mult", "a/b",
                                          "mult/", "a..b",    "",   "m ult", "mult.zkey\\x"};
    cuzk_error_t err = {0};
    uint64_t id = 1;
    int ex = 1;
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
        daemon_request_t req = req_snarkjs(NULL);
        req.circuit_id = bad_ids[i];
        assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
        assert_int_equal(id, 0);
    }
    char longid[REQUEST_CIRCUIT_ID_MAX + 2];
    memset(longid, 'a', sizeof longid - 1);
    longid[sizeof longid - 1] = '\0';
    assert_int_equal(request_circuit_id_check(longid, &err), CUZK_ERR_ARG);
    longid[REQUEST_CIRCUIT_ID_MAX] = '\0';
    assert_int_equal(request_circuit_id_check(longid, &err), CUZK_OK);
    daemon_request_t req = req_snarkjs(NULL);
    req.circuit_id = NULL;
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    /* a kind that is not the key's; a snarkjs key with two witnesses */
    req = req_snarkjs(NULL);
    req.kind = ENGINE_KIND_BELLPERSON;
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    req = req_bp(NULL, 2);
    req.circuit_id = "mult";
    req.kind = ENGINE_KIND_SNARKJS;
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "exactly one"));
    /* no witnesses, an empty witness, a bad priority */
    req = req_bp(NULL, 0);
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    daemon_blob_t empty = {g.sj_wtns, 0};
    req = req_snarkjs(NULL);
    req.witnesses = &empty;
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    req = req_snarkjs(NULL);
    req.priority = (cuzk_priority)7;
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    /* nothing was journaled: unknown ids */
    daemon_result_t res;
    assert_int_equal(daemon_await(r->d, &res, 1, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(daemon_cancel(r->d, NULL, 1, &err), CUZK_ERR_ARG);
    daemon_job_info_t info;
    assert_int_equal(daemon_job_info(r->d, &info, 1, &err), CUZK_ERR_ARG);
    daemon_stats_t s;
    stats(r->d, &s);
    for (int k = 0; k < ENGINE_KIND_COUNT; k++)
        assert_int_equal(s.kinds[k].submitted, 0);
    dfix_rig_close(r);
}

/* A Filecoin request refused at submit with nothing journaled: the error
 * names the field. (Proving them: tests/daemon_filecoin.sh, over gRPC.) */
static void fil_refused(daemon_t *d, engine_kind kind, const daemon_filecoin_t *f, cuzk_status want,
                        const char *msg)
{
    daemon_request_t req = {kind, DAEMON_PRIO_BY_KIND, "fil-bad", NULL, NULL, 0, f};
    uint64_t id = 7;
    int ex = 0;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_submit(d, &id, &ex, &req, &err), want);
    if (!strstr(err.msg, msg))
        fail_msg("'%s' does not name '%s'", err.msg, msg);
    assert_int_equal(id, 0);
}

static void test_filecoin(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "filecoin", 0, 1);
    dfix_rig_start(r);
    assert_int_equal(daemon_kind_priority(ENGINE_KIND_WINNING_POST), CUZK_PRIO_CRITICAL);
    assert_int_equal(daemon_kind_priority(ENGINE_KIND_WINDOW_POST), CUZK_PRIO_HIGH);
    assert_int_equal(daemon_kind_priority(ENGINE_KIND_POREP), CUZK_PRIO_NORMAL);
    assert_int_equal(daemon_kind_priority(ENGINE_KIND_SNAPDEALS), CUZK_PRIO_LOW);
    uint8_t r32[32] = {1}, r31[31] = {0};
    daemon_blob_t junk = {(const uint8_t *)"{}", 2}, two[2] = {junk, junk};
    daemon_filecoin_t f = {
        .registered_proof = 0, .randomness = {r32, 32}, .vanilla = &junk, .n_vanilla = 1};
    /* without its values; with witnesses */
    daemon_request_t req = {ENGINE_KIND_POREP, CUZK_PRIO_HIGH, NULL, NULL, NULL, 0, NULL};
    uint64_t id = 0;
    int ex = 0;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "Filecoin values"));
    req = (daemon_request_t){ENGINE_KIND_POREP, CUZK_PRIO_HIGH, NULL, NULL, &junk, 1, &f};
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "witnesses"));
    /* the registered proof of another kind, or none at all */
    f.registered_proof = 5;
    fil_refused(r->d, ENGINE_KIND_WINNING_POST, &f, CUZK_ERR_ARG, "registered_proof 5");
    f.registered_proof = 4;
    fil_refused(r->d, ENGINE_KIND_WINDOW_POST, &f, CUZK_ERR_ARG, "registered_proof 4");
    f.registered_proof = 15;
    fil_refused(r->d, ENGINE_KIND_WINDOW_POST, &f, CUZK_ERR_ARG, "registered_proof 15");
    fil_refused(r->d, ENGINE_KIND_SNAPDEALS, &f, CUZK_ERR_ARG, "RegisteredUpdateProof");
    f.registered_proof = 20;
    fil_refused(r->d, ENGINE_KIND_POREP, &f, CUZK_ERR_ARG, "RegisteredSealProof");
    /* a sector size that is not the proof's; randomness of 31 bytes */
    f.registered_proof = 0;
    f.sector_size = 4096;
    fil_refused(r->d, ENGINE_KIND_WINNING_POST, &f, CUZK_ERR_ARG, "sector_size 4096");
    f.sector_size = 2048;
    f.randomness = (daemon_blob_t){r31, 31};
    fil_refused(r->d, ENGINE_KIND_WINNING_POST, &f, CUZK_ERR_ARG, "randomness");
    f.randomness = (daemon_blob_t){r32, 32};
    f.partition_index = 1;
    fil_refused(r->d, ENGINE_KIND_WINNING_POST, &f, CUZK_ERR_ARG, "partition_index");
    f.partition_index = 0;
    /* SnapDeals without its commitments */
    fil_refused(r->d, ENGINE_KIND_SNAPDEALS, &f, CUZK_ERR_ARG, "comm_r_old");
    /* vanilla proofs missing, doubled, or not parsing (named by field) */
    f.n_vanilla = 0;
    fil_refused(r->d, ENGINE_KIND_WINNING_POST, &f, CUZK_ERR_ARG, "vanilla_proofs: missing");
    f.vanilla = two;
    f.n_vanilla = 2;
    fil_refused(r->d, ENGINE_KIND_POREP, &f, CUZK_ERR_ARG, "vanilla_proof: 2 given");
    f.n_vanilla = 1;
    f.vanilla = &junk;
    req =
        (daemon_request_t){ENGINE_KIND_WINNING_POST, DAEMON_PRIO_BY_KIND, NULL, NULL, NULL, 0, &f};
    assert_int_not_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_OK);
    assert_non_null(strstr(err.msg, "vanilla_proofs[0]"));
    fil_refused(r->d, ENGINE_KIND_POREP, &f, CUZK_ERR_FORMAT, "vanilla_proof");
    /* nothing was journaled, nothing counted */
    daemon_stats_t s;
    stats(r->d, &s);
    for (int k = 0; k < ENGINE_KIND_COUNT; k++)
        assert_int_equal(s.kinds[k].submitted + s.kinds[k].failed, 0);
    assert_int_equal(daemon_job_info(r->d, &(daemon_job_info_t){0}, 1, NULL), CUZK_ERR_ARG);
    dfix_rig_close(r);
}

/* Upstream's circuit ids (porep-32g, wpost-32g, winning-32g, ...) name the
 * v28 files in srs.filecoin_params: GetStatus lists those on disk, key info
 * answers for them, and a preload loads by them (here: files that are not
 * keys, refused naming the file). */
static void write_bytes_file(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc(0x5a, f);
    assert_int_equal(fclose(f), 0);
}

static void test_filecoin_ids(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "filecoin ids", 0, 1);
    char dir[CONFIG_PATH_MAX], stem[FIL_PARAMS_STEM_MAX], path[CONFIG_PATH_MAX + 256];
    snprintf(dir, sizeof dir, "%s/fil", g.dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(r->cfg.srs.filecoin_params, sizeof r->cfg.srs.filecoin_params, "%s", dir);
    assert_int_equal(fil_params_stem(stem, sizeof stem, FIL_CIRCUIT_WINNING_POST, 32ull << 30,
                                     FIL_API_1_1, NULL),
                     CUZK_OK);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    write_bytes_file(path, 100);
    snprintf(path, sizeof path, "%s/%s.vk", dir, stem);
    write_bytes_file(path, 50);
    dfix_rig_start(r);
    daemon_key_info_t *keys = NULL;
    size_t n = 0;
    assert_int_equal(daemon_keys(r->d, &keys, &n, NULL), CUZK_OK);
    int seen = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(keys[i].circuit_id, "winning-32g")) {
            seen++;
            assert_int_equal(keys[i].state, DAEMON_KEY_ON_DISK);
            assert_int_equal(keys[i].bytes, 150);
        } else {
            assert_true(strcmp(keys[i].circuit_id, "porep-32g") != 0); /* no files */
        }
    assert_int_equal(seen, 1);
    free(keys);
    daemon_key_info_t info;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_key_info(r->d, &info, "winning-32g", &err), CUZK_OK);
    assert_int_equal(info.state, DAEMON_KEY_ON_DISK);
    assert_int_equal(info.bytes, 150);
    assert_int_equal(daemon_key_info(r->d, &info, "porep-32g", &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "v28-stacked-proof-of-replication"));
    assert_int_not_equal(daemon_preload(r->d, NULL, NULL, "winning-32g", &err), CUZK_OK);
    assert_non_null(strstr(err.msg, stem));
    dfix_rig_close(r);
}

static void test_bad_witness(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "bad witness", 0, 1);
    dfix_rig_start(r);
    /* partition 1's witness for partition 0 with one value changed */
    uint8_t *w = malloc(g.bp_len[0]);
    assert_non_null(w);
    memcpy(w, g.bp_wtns[0], g.bp_len[0]);
    w[g.bp_len[0] - 32 * 5] ^= 1;
    daemon_blob_t blob = {w, g.bp_len[0]};
    daemon_request_t req = {ENGINE_KIND_BELLPERSON, CUZK_PRIO_NORMAL, NULL, "bp", &blob, 1, NULL};
    uint64_t id = submit_ok(r->d, &req);
    daemon_result_t res;
    await_ok(r->d, &res, id, ENGINE_JOB_FAILED);
    assert_true(res.error.code != CUZK_OK);
    assert_true(res.error.msg[0] != '\0');
    daemon_result_free(&res);
    /* a witness that is not a .wtns */
    blob.len = 7;
    id = submit_ok(r->d, &req);
    await_ok(r->d, &res, id, ENGINE_JOB_FAILED);
    daemon_result_free(&res);
    free(w);
    /* the daemon serves a good job afterwards */
    req = req_bp(NULL, 1);
    id = submit_ok(r->d, &req);
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    check_bp(&res, 1);
    daemon_result_free(&res);
    dfix_rig_close(r);
}

static void test_timeout_cancel(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "timeout and cancel", 400000, 1);
    dfix_rig_start(r);
    daemon_request_t req = req_bp(NULL, 1);
    daemon_result_t res;
    cuzk_error_t err = {0};
    daemon_job_info_t info;
    /* a on the device first: b and c are submitted only then (their
     * witnesses could otherwise reach the device before a's) */
    uint64_t a = submit_ok(r->d, &req);
    for (int i = 0; i < 20000; i++) {
        assert_int_equal(daemon_job_info(r->d, &info, a, &err), CUZK_OK);
        if (info.state == ENGINE_JOB_RUNNING)
            break;
        dfix_sleep_ms(1);
    }
    assert_int_equal(info.state, ENGINE_JOB_RUNNING);
    /* b's proof, after a's, runs long enough to be seen running and
     * cancelled even on a slow (sanitized, loaded) machine */
    engine_sim_set_delay(r->sim, 3000000);
    uint64_t b = submit_ok(r->d, &req), c = submit_ok(r->d, &req);
    assert_int_equal(daemon_await(r->d, &res, a, 50, &err), CUZK_ERR_TIMEOUT);
    assert_int_equal(res.job_id, a);
    assert_null(res.proof);
    assert_int_equal(daemon_await(r->d, &res, a, 0, &err), CUZK_ERR_TIMEOUT);
    /* c waits behind a and b: cancelled while queued */
    assert_int_equal(daemon_job_info(r->d, &info, c, &err), CUZK_OK);
    assert_int_equal(info.state, ENGINE_JOB_QUEUED);
    assert_true(info.queue_position >= 1);
    int was_running = -1;
    assert_int_equal(daemon_cancel(r->d, &was_running, c, &err), CUZK_OK);
    assert_int_equal(was_running, 0);
    await_ok(r->d, &res, c, ENGINE_JOB_CANCELLED);
    assert_int_equal(res.error.code, CUZK_ERR_CANCELLED);
    daemon_result_free(&res);
    /* a kept running through its timeouts */
    await_ok(r->d, &res, a, ENGINE_JOB_DONE);
    check_bp(&res, 1);
    daemon_result_free(&res);
    /* b is proving now (one worker, a done): cancelled while running */
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(daemon_job_info(r->d, &info, b, &err), CUZK_OK);
        if (info.state == ENGINE_JOB_RUNNING)
            break;
        dfix_sleep_ms(1);
    }
    assert_int_equal(info.state, ENGINE_JOB_RUNNING);
    assert_int_equal(info.device, 0);
    assert_int_equal(daemon_cancel(r->d, &was_running, b, &err), CUZK_OK);
    assert_int_equal(was_running, 1);
    await_ok(r->d, &res, b, ENGINE_JOB_CANCELLED);
    daemon_result_free(&res);
    /* cancelling a finished job changes nothing */
    assert_int_equal(daemon_cancel(r->d, &was_running, a, &err), CUZK_OK);
    await_ok(r->d, &res, a, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.kinds[ENGINE_KIND_BELLPERSON].cancelled, 2);
    assert_int_equal(s.kinds[ENGINE_KIND_BELLPERSON].done, 1);
    dfix_rig_close(r);
}

static void test_queue_full(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "queue full", 300000, 1);
    r->cfg.daemon.max_queued_jobs = 2;
    dfix_rig_start(r);
    daemon_request_t req = req_bp("q-1", 1);
    uint64_t a = submit_ok(r->d, &req);
    req.request_id = "q-2";
    uint64_t b = submit_ok(r->d, &req);
    uint64_t id = 7;
    int ex = 0;
    cuzk_error_t err = {0};
    req.request_id = "q-3";
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_ERR_BUSY);
    assert_string_equal(err.msg, "queue full (2 jobs)");
    assert_int_equal(id, 0);
    /* a retry of a queued job is answered, full or not */
    req.request_id = "q-1";
    assert_int_equal(daemon_submit(r->d, &id, &ex, &req, &err), CUZK_OK);
    assert_int_equal(id, a);
    assert_int_equal(ex, 1);
    daemon_result_t res;
    await_ok(r->d, &res, a, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    req.request_id = "q-3";
    uint64_t c = submit_ok(r->d, &req);
    await_ok(r->d, &res, b, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    await_ok(r->d, &res, c, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    dfix_rig_close(r);
}

static int journal_state(const char *path, uint64_t id)
{
    journal_t *j = NULL;
    journal_job_t jj;
    assert_int_equal(journal_open(&j, path, NULL), CUZK_OK);
    assert_int_equal(journal_get(j, &jj, id, 0, NULL), CUZK_OK);
    int state = jj.state;
    journal_job_free(&jj);
    journal_close(j);
    return state;
}

static void test_restart(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "restart", 500000, 1);
    dfix_rig_start(r);
    daemon_request_t req = req_bp(NULL, DFIX_BP_PARTS);
    uint64_t a = submit_ok(r->d, &req);
    daemon_request_t sreq = req_snarkjs("restart-b");
    uint64_t b = submit_ok(r->d, &sreq);
    uint64_t c = submit_ok(r->d, &req);
    daemon_result_t ra;
    await_ok(r->d, &ra, a, ENGINE_JOB_DONE);
    check_bp(&ra, DFIX_BP_PARTS);
    dfix_rig_stop(r);
    /* b and c are still unfinished in the journal */
    /* c (two 0.5 s partitions behind b's) is still unfinished in the
     * journal, queued or running: shutting down journals nothing for it;
     * b usually is too (it may have finished on a slow machine). */
    int sb = journal_state(r->cfg.daemon.journal, b);
    int sc = journal_state(r->cfg.daemon.journal, c);
    assert_true(sc == ENGINE_JOB_QUEUED || sc == ENGINE_JOB_RUNNING);
    assert_true(sb <= ENGINE_JOB_DONE);
    assert_int_equal(journal_state(r->cfg.daemon.journal, a), ENGINE_JOB_DONE);
    uint64_t unfinished = 1 + (sb < ENGINE_JOB_DONE);

    engine_sim_set_delay(r->sim, 0);
    r->cfg.daemon.result_ttl_ms = 4000;
    dfix_rig_start(r);
    /* a's result survives the restart, byte for byte */
    daemon_result_t res;
    await_ok(r->d, &res, a, ENGINE_JOB_DONE);
    assert_int_equal(res.proof_len, ra.proof_len);
    assert_memory_equal(res.proof, ra.proof, ra.proof_len);
    assert_memory_equal(res.public_signals, ra.public_signals, ra.public_len);
    assert_null(res.partitions); /* its stage times were the old process's */
    daemon_result_free(&res);
    daemon_result_free(&ra);
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.kinds[ENGINE_KIND_SNARKJS].resumed + s.kinds[ENGINE_KIND_BELLPERSON].resumed,
                     unfinished);
    await_ok(r->d, &res, b, ENGINE_JOB_DONE);
    check_snarkjs(&res);
    daemon_result_free(&res);
    await_ok(r->d, &res, c, ENGINE_JOB_DONE);
    check_bp(&res, DFIX_BP_PARTS);
    daemon_result_free(&res);
    /* the request id still names b */
    uint64_t id = 0;
    int ex = 0;
    assert_int_equal(daemon_submit(r->d, &id, &ex, &sreq, NULL), CUZK_OK);
    assert_int_equal(id, b);
    assert_int_equal(ex, 1);
    /* ids are never reused */
    uint64_t e = submit_ok(r->d, &req);
    assert_true(e > c);
    await_ok(r->d, &res, e, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    /* the TTL expires them all: unknown ids then */
    cuzk_status st = CUZK_OK;
    for (int i = 0; i < 300 && st == CUZK_OK; i++) {
        dfix_sleep_ms(100);
        st = daemon_await(r->d, &res, a, 0, NULL);
        daemon_result_free(&res);
    }
    assert_int_equal(st, CUZK_ERR_ARG);
    st = CUZK_OK; /* e finished last: once it is gone, so are b and c */
    for (int i = 0; i < 300 && st == CUZK_OK; i++) {
        dfix_sleep_ms(100);
        st = daemon_await(r->d, &res, e, 0, NULL);
        daemon_result_free(&res);
    }
    assert_int_equal(st, CUZK_ERR_ARG);
    /* and the request id makes a new job after its job expired */
    assert_int_equal(daemon_submit(r->d, &id, &ex, &sreq, NULL), CUZK_OK);
    assert_int_equal(ex, 0);
    assert_true(id > e);
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    dfix_rig_close(r);
}

/* The "bp" circuit once more under another id (name.params + name.ccs). */
static void bp_copy_as(const char *name)
{
    static const char *const ext[2] = {"params", "ccs"};
    for (int i = 0; i < 2; i++) {
        char from[160], to[160], file[64];
        snprintf(file, sizeof file, "bp.%s", ext[i]);
        dfix_path(from, sizeof from, g.srs, file);
        snprintf(file, sizeof file, "%s.%s", name, ext[i]);
        dfix_path(to, sizeof to, g.srs, file);
        dfix_copy_file(from, to);
    }
}

static void bp_remove(const char *name)
{
    static const char *const ext[2] = {"params", "ccs"};
    for (int i = 0; i < 2; i++) {
        char path[160], file[64];
        snprintf(file, sizeof file, "%s.%s", name, ext[i]);
        dfix_path(path, sizeof path, g.srs, file);
        remove(path);
    }
}

static void test_resume_failures(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "resume failures", 600000, 1);
    bp_copy_as("gone");
    dfix_rig_start(r);
    daemon_request_t req = req_bp(NULL, 1);
    uint64_t a = submit_ok(r->d, &req);
    req.circuit_id = "gone";
    uint64_t b = submit_ok(r->d, &req);
    dfix_rig_stop(r);
    bp_remove("gone");
    /* daemon.resume off: every unfinished job is finished FAILED */
    r->cfg.daemon.resume = 0;
    dfix_rig_start(r);
    daemon_result_t res;
    await_ok(r->d, &res, a, ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error.msg, "daemon.resume is off"));
    daemon_result_free(&res);
    dfix_rig_stop(r);
    /* resumed: its circuit is gone */
    dfix_config(&r->cfg, &g, NULL);
    dfix_rig_start(r);
    req = req_bp(NULL, 1);
    a = submit_ok(r->d, &req);
    bp_copy_as("gone");
    req.circuit_id = "gone";
    b = submit_ok(r->d, &req);
    dfix_rig_stop(r);
    bp_remove("gone");
    engine_sim_set_delay(r->sim, 0);
    dfix_rig_start(r);
    await_ok(r->d, &res, b, ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error.msg, "unknown circuit 'gone'"));
    daemon_result_free(&res);
    await_ok(r->d, &res, a, ENGINE_JOB_DONE);
    check_bp(&res, 1);
    daemon_result_free(&res);
    dfix_rig_close(r);
}

static int has_field(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k) != NULL;
}

static void check_status_json(const char *json, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    assert_non_null(root);
    assert_true(has_field(root, "uptime_ms"));
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(root, "devices");
    assert_true(cJSON_IsArray(devs));
    assert_int_equal(cJSON_GetArraySize(devs), 1);
    const cJSON *d0 = cJSON_GetArrayItem(devs, 0);
    const cJSON *vram = cJSON_GetObjectItemCaseSensitive(d0, "vram");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(vram, "capacity")->valuedouble,
                     (double)(1u << 30));
    assert_true(has_field(vram, "reserved") && has_field(vram, "peak"));
    const cJSON *wk = cJSON_GetObjectItemCaseSensitive(d0, "workers");
    assert_true(has_field(wk, "busy") && has_field(wk, "idle") && has_field(wk, "total"));
    /* the engine's default: a critical lane worker beside the configured ones */
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(wk, "critical_lane")->valuedouble, 1);
    assert_true(has_field(wk, "critical_lane_busy"));
    assert_true(cJSON_GetObjectItemCaseSensitive(d0, "proofs")->valuedouble >= 1);
    assert_true(has_field(d0, "failures") && has_field(d0, "busy_ratio"));
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(root, "queues");
    assert_int_equal(cJSON_GetArraySize(q), CUZK_PRIO_COUNT);
    assert_true(has_field(cJSON_GetArrayItem(q, 0), "witness"));
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(root, "keys");
    assert_true(cJSON_GetArraySize(keys) >= 1);
    const cJSON *k0 = cJSON_GetArrayItem(keys, 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(k0, "circuit")->valuestring, "mult");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(k0, "state")->valuestring, "loaded");
    assert_true(cJSON_GetObjectItemCaseSensitive(k0, "progress")->valuedouble == 1.0);
    assert_true(has_field(k0, "bytes") && has_field(k0, "jobs") && has_field(k0, "devices"));
    const cJSON *tot = cJSON_GetObjectItemCaseSensitive(root, "totals");
    const cJSON *sj = cJSON_GetObjectItemCaseSensitive(tot, "snarkjs");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(sj, "done")->valuedouble, 1);
    assert_true(has_field(tot, "porep"));
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(root, "jobs");
    assert_true(has_field(jobs, "unfinished") && has_field(jobs, "max_queued"));
    const cJSON *mem = cJSON_GetObjectItemCaseSensitive(root, "memory");
    assert_true(has_field(mem, "pinned_bytes") && has_field(mem, "pinned_limit_bytes"));
    /* the simulated CPU device gives no page-locked memory; witnesses are
     * kept for reuse once the job is done */
    assert_true(cJSON_GetObjectItemCaseSensitive(mem, "pinned_bytes")->valuedouble == 0);
    assert_true(cJSON_GetObjectItemCaseSensitive(mem, "witness_buffers_kept_bytes")->valuedouble >
                0);
    /* memory.witness_pack is auto by default, and the CPU device takes no
     * packs: nothing packed */
    assert_true(cJSON_GetObjectItemCaseSensitive(mem, "witnesses_packed")->valuedouble == 0);
    assert_true(has_field(mem, "witness_packed_bytes"));
    const cJSON *recent = cJSON_GetObjectItemCaseSensitive(root, "recent");
    assert_true(cJSON_GetArraySize(recent) >= 1);
    const cJSON *r0 = cJSON_GetArrayItem(recent, 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(r0, "state")->valuestring, "done");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(r0, "kind")->valuestring, "snarkjs");
    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(r0, "partitions");
    assert_int_equal(cJSON_GetArraySize(parts), 1);
    assert_true(has_field(cJSON_GetArrayItem(parts, 0), "prove_ms"));
    assert_true(has_field(cJSON_GetObjectItemCaseSensitive(r0, "times"), "total_ms"));
    cJSON_Delete(root);
}

static void check_metrics(const char *text)
{
    static const char *const want[] = {
        "# TYPE cuzk_proofs_total counter",
        "cuzk_proofs_total{kind=\"snarkjs\",status=\"done\"} 1\n",
        "cuzk_proofs_total{kind=\"bellperson\",status=\"failed\"} 0\n",
        "# TYPE cuzk_queue_depth gauge",
        "cuzk_queue_depth{priority=\"critical\"} 0\n",
        "# TYPE cuzk_stage_seconds histogram",
        "cuzk_stage_seconds_bucket{stage=\"prove\",le=\"+Inf\"} 1\n",
        "cuzk_stage_seconds_count{stage=\"witness\"} 1\n",
        "# TYPE cuzk_job_seconds histogram",
        "cuzk_job_seconds_count{kind=\"snarkjs\"} 1\n",
        "cuzk_job_seconds_bucket{kind=\"snarkjs\",le=\"+Inf\"} 1\n",
        "cuzk_job_seconds_count{kind=\"winning-post\"} 0\n",
        "cuzk_gpu_busy_ratio{device=\"0\"} ",
        "cuzk_vram_reserved_bytes{device=\"0\"} ",
        "cuzk_vram_total_bytes{device=\"0\"} 1073741824\n",
        "cuzk_key_load_bytes{circuit=\"mult\"} ",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (!strstr(text, want[i]))
            fprintf(stderr, "missing: %s\n%s\n", want[i], text);
        assert_non_null(strstr(text, want[i]));
    }
}

static void test_status_metrics(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "status and metrics", 0, 1);
    dfix_rig_start(r);
    daemon_request_t req = req_snarkjs(NULL);
    daemon_result_t res;
    assert_int_equal(daemon_prove(r->d, &res, NULL, &req, -1, NULL), CUZK_OK);
    daemon_result_free(&res);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(daemon_status_json(r->d, &text, &len, NULL), CUZK_OK);
    assert_int_equal(strlen(text), len);
    check_status_json(text, len);
    free(text);
    assert_int_equal(daemon_metrics_text(r->d, &text, &len, NULL), CUZK_OK);
    check_metrics(text);
    free(text);
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.n_devices, 1);
    assert_string_equal(s.devices[0].name, "sim0");
    assert_int_equal(s.devices[0].vram_capacity, (uint64_t)1 << 30);
    assert_true(s.devices[0].proofs >= 1);
    assert_true(s.devices[0].busy_ratio >= 0 && s.devices[0].busy_ratio <= 1);
    assert_int_equal(s.keys_loaded, 1);
    assert_int_equal(s.max_queued, 1024);
    dfix_rig_close(r);
}

/* memory.witness_pack reaches the engine: with "always" a job's witness
 * waits packed (the sim device takes none: the prover expands it) and
 * the proof still verifies; the status counts it. */
static void test_witness_pack_config(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "witness pack", 0, 1);
    r->cfg.memory.witness_pack = ENGINE_PACK_ALWAYS;
    dfix_rig_start(r);
    daemon_request_t req = req_snarkjs(NULL);
    daemon_result_t res;
    assert_int_equal(daemon_prove(r->d, &res, NULL, &req, -1, NULL), CUZK_OK);
    assert_int_equal(res.state, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.witnesses_packed, 1);
    assert_true(s.packed_bytes > 0);
    dfix_rig_close(r);
}

/* ---- HTTP over a raw socket ---- */

static char *http_get(uint16_t port, const char *path, int *status)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    char req[128];
    snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    assert_int_equal(send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        ssize_t k = recv(fd, buf + len, cap - len, 0);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    buf[len] = '\0';
    int maj, min;
    *status = -1;
    if (sscanf(buf, "HTTP/%d.%d %d", &maj, &min, status) != 3)
        *status = -1;
    return buf;
}

static void test_http(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "http", 0, 1);
    snprintf(r->cfg.daemon.http_listen, sizeof r->cfg.daemon.http_listen, "127.0.0.1:0");
    dfix_rig_start(r);
    uint16_t port = daemon_http_port(r->d);
    assert_true(port > 0);
    daemon_request_t req = req_snarkjs(NULL);
    daemon_result_t res;
    assert_int_equal(daemon_prove(r->d, &res, NULL, &req, -1, NULL), CUZK_OK);
    daemon_result_free(&res);
    int status = 0;
    char *raw = http_get(port, "/status", &status);
    assert_int_equal(status, 200);
    assert_non_null(strstr(raw, "application/json"));
    const char *body = strstr(raw, "\r\n\r\n");
    assert_non_null(body);
    check_status_json(body + 4, strlen(body + 4));
    free(raw);
    raw = http_get(port, "/metrics", &status);
    assert_int_equal(status, 200);
    assert_non_null(strstr(raw, "text/plain; version=0.0.4"));
    check_metrics(raw);
    free(raw);
    raw = http_get(port, "/nope", &status);
    assert_int_equal(status, 404);
    free(raw);
    dfix_rig_close(r);
    /* a listen address that cannot be bound fails daemon_new, naming the key */
    dfix_rig_open(r, &g, "http refused", 0, 1);
    snprintf(r->cfg.daemon.http_listen, sizeof r->cfg.daemon.http_listen, "192.0.2.1:1");
    cuzk_error_t err = {0};
    assert_int_not_equal(daemon_new(&r->d, &r->cfg, &r->dev, 1, &err), CUZK_OK);
    assert_null(r->d);
    assert_non_null(strstr(err.msg, "http_listen"));
    dfix_rig_close(r);
}

/* A preload's load onto the device (a sim device with a warm callback):
 * its state and bytes in daemon_key_info, /status and the metrics. */
static void test_preload_device_load(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "preload device load", 0, 1);
    engine_sim_device_warm(&r->dev, 0, 200000);
    dfix_rig_start(r);
    daemon_key_info_t info;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_preload(r->d, &info, NULL, "bp", &err), CUZK_OK);
    assert_int_equal(info.resident[0], 1);
    assert_true(info.device_load[0] == ENGINE_WARM_PENDING ||
                info.device_load[0] == ENGINE_WARM_LOADING);
    int part_way = 0;
    for (int i = 0; i < 5000; i++) {
        assert_int_equal(daemon_key_info(r->d, &info, "bp", &err), CUZK_OK);
        if (info.device_load[0] == ENGINE_WARM_DONE)
            break;
        assert_true(info.device_loaded_bytes <= info.device_bytes);
        part_way |= info.device_loaded_bytes > 0 && info.device_loaded_bytes < info.device_bytes;
        dfix_sleep_ms(1);
    }
    assert_int_equal(info.device_load[0], ENGINE_WARM_DONE);
    assert_true(part_way); /* seen between the sim's four steps */
    assert_int_equal(info.device_bytes, info.resident_bytes);
    assert_int_equal(info.device_loaded_bytes, info.device_bytes);
    assert_int_equal(info.device_load_done[0], info.device_bytes);
    assert_true(info.device_load_ms[0] >= 150);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(daemon_status_json(r->d, &text, &len, NULL), CUZK_OK);
    assert_non_null(strstr(text, "\"device_loads\":[{\"device\":0,\"state\":\"done\""));
    free(text);
    assert_int_equal(daemon_metrics_text(r->d, &text, &len, NULL), CUZK_OK);
    char want[96];
    snprintf(want, sizeof want, "cuzk_key_device_load_bytes{circuit=\"bp\"} %llu\n",
             (unsigned long long)info.device_bytes);
    assert_non_null(strstr(text, want));
    free(text);
    /* evicted: the load is forgotten */
    int was = 0;
    uint64_t freed = 0;
    assert_int_equal(daemon_evict(r->d, &was, &freed, "bp", &err), CUZK_OK);
    assert_int_equal(daemon_key_info(r->d, &info, "bp", &err), CUZK_OK);
    assert_int_equal(info.device_load[0], ENGINE_WARM_NONE);
    assert_int_equal(info.device_bytes, 0);
    dfix_rig_close(r);
}

static void test_preload_evict(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "preload and evict", 400000, 1);
    snprintf(r->cfg.srs.preload[0], sizeof r->cfg.srs.preload[0], "mult");
    r->cfg.srs.n_preload = 1;
    dfix_rig_start(r);
    daemon_key_info_t *keys = NULL;
    size_t n = 0;
    assert_int_equal(daemon_keys(r->d, &keys, &n, NULL), CUZK_OK);
    assert_int_equal(n, 1);
    assert_string_equal(keys[0].circuit_id, "mult");
    assert_int_equal(keys[0].state, DAEMON_KEY_LOADED);
    assert_int_equal(keys[0].loaded_bytes, keys[0].bytes);
    free(keys);

    daemon_key_info_t info;
    cuzk_error_t err = {0};
    assert_int_equal(daemon_key_info(r->d, &info, "bp", &err), CUZK_OK);
    assert_int_equal(info.state, DAEMON_KEY_ON_DISK);
    assert_int_equal(info.format, GROTH16_BELLPERSON);
    uint64_t bytes = info.bytes;
    assert_true(bytes > 0);
    int already = -1;
    assert_int_equal(daemon_preload(r->d, &info, &already, "bp", &err), CUZK_OK);
    assert_int_equal(already, 0);
    assert_int_equal(info.state, DAEMON_KEY_LOADED);
    assert_int_equal(info.bytes, bytes);
    assert_int_equal(info.loaded_bytes, bytes);
    assert_int_equal(info.n_resident, 1);
    assert_int_equal(info.resident[0], 1);
    assert_true(info.resident_bytes > 0);
    assert_int_equal(info.jobs, 0);
    assert_int_equal(daemon_preload(r->d, &info, &already, "bp", &err), CUZK_OK);
    assert_int_equal(already, 1);
    assert_int_equal(daemon_preload(r->d, NULL, NULL, "nope", &err), CUZK_ERR_ARG);
    assert_int_equal(daemon_preload(r->d, NULL, NULL, "../bp", &err), CUZK_ERR_ARG);

    /* busy while a job holds it */
    daemon_request_t req = req_bp(NULL, 1);
    uint64_t id = submit_ok(r->d, &req);
    int was = -1;
    uint64_t freed = 1;
    assert_int_equal(daemon_evict(r->d, &was, &freed, "bp", &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "in use"));
    assert_int_equal(daemon_key_info(r->d, &info, "bp", &err), CUZK_OK);
    assert_int_equal(info.state, DAEMON_KEY_LOADED);
    assert_int_equal(info.jobs, 1);
    daemon_result_t res;
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    assert_int_equal(daemon_evict(r->d, &was, &freed, "bp", &err), CUZK_OK);
    assert_int_equal(was, 1);
    assert_int_equal(freed, bytes);
    assert_int_equal(daemon_key_info(r->d, &info, "bp", &err), CUZK_OK);
    assert_int_equal(info.state, DAEMON_KEY_ON_DISK);
    assert_int_equal(daemon_evict(r->d, &was, &freed, "bp", &err), CUZK_OK);
    assert_int_equal(was, 0);
    assert_int_equal(freed, 0);
    /* a job loads it again */
    engine_sim_set_delay(r->sim, 0);
    id = submit_ok(r->d, &req);
    await_ok(r->d, &res, id, ENGINE_JOB_DONE);
    check_bp(&res, 1);
    daemon_result_free(&res);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(daemon_metrics_text(r->d, &text, &len, NULL), CUZK_OK);
    char want[64];
    snprintf(want, sizeof want, "cuzk_key_load_bytes{circuit=\"bp\"} %llu\n",
             (unsigned long long)bytes);
    assert_non_null(strstr(text, want));
    free(text);
    dfix_rig_close(r);

    /* srs.max_resident: room for one key at a time */
    dfix_rig_open(r, &g, "max resident", 0, 1);
    r->cfg.srs.max_resident = bytes + 1;
    dfix_rig_start(r);
    assert_int_equal(daemon_preload(r->d, NULL, NULL, "bp", &err), CUZK_OK);
    assert_int_equal(daemon_preload(r->d, NULL, NULL, "mult", &err), CUZK_OK); /* bp evicted */
    assert_int_equal(daemon_key_info(r->d, &info, "bp", &err), CUZK_OK);
    assert_int_equal(info.state, DAEMON_KEY_ON_DISK);
    r->cfg.srs.max_resident = 0;
    dfix_rig_close(r);

    /* a preload that is not in the registry fails daemon_new */
    dfix_rig_open(r, &g, "preload missing", 0, 1);
    snprintf(r->cfg.srs.preload[0], sizeof r->cfg.srs.preload[0], "missing");
    r->cfg.srs.n_preload = 1;
    assert_int_equal(daemon_new(&r->d, &r->cfg, &r->dev, 1, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "srs.preload"));
    dfix_rig_close(r);
}

static void test_event_log(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "event log", 0, 1);
    dfix_path(r->cfg.logging.events, sizeof r->cfg.logging.events, g.dir, "events.jsonl");
    dfix_rig_start(r);
    daemon_request_t req = req_bp(NULL, DFIX_BP_PARTS);
    daemon_result_t res;
    assert_int_equal(daemon_prove(r->d, &res, NULL, &req, -1, NULL), CUZK_OK);
    assert_int_equal(res.state, ENGINE_JOB_DONE);
    daemon_result_free(&res);
    dfix_rig_stop(r);
    eventlog_rec_t *recs = NULL;
    size_t n = 0;
    assert_int_equal(eventlog_read(&recs, &n, r->cfg.logging.events, NULL), CUZK_OK);
    unsigned prove = 0, verify = 0;
    for (size_t i = 0; i < n; i++) {
        prove += !strcmp(recs[i].stage, "prove") && recs[i].device == 0;
        verify += !strcmp(recs[i].stage, "verify");
    }
    assert_int_equal(prove, DFIX_BP_PARTS);
    assert_int_equal(verify, 1);
    free(recs);
    dfix_rig_close(r);
}

/* Many submitters at once on two devices: ids distinct, all verify. */
#define STRESS_THREADS 4
#define STRESS_JOBS 4

typedef struct stress {
    daemon_t *d;
    int t;
    uint64_t ids[STRESS_JOBS];
    int failures;
} stress_t;

static void *stress_main(void *arg)
{
    stress_t *s = arg;
    for (int i = 0; i < STRESS_JOBS; i++) {
        char rid[32];
        snprintf(rid, sizeof rid, "stress-%d-%d", s->t, i);
        daemon_blob_t w[1] = {{g.bp_wtns[i % DFIX_BP_PARTS], g.bp_len[i % DFIX_BP_PARTS]}};
        daemon_request_t req = {
            ENGINE_KIND_BELLPERSON, (cuzk_priority)(i % CUZK_PRIO_COUNT), rid, "bp", w, 1, NULL};
        int ex = 0;
        if (daemon_submit(s->d, &s->ids[i], &ex, &req, NULL) != CUZK_OK || ex)
            s->failures++;
        if (i % 2 == 1 && daemon_submit(s->d, &s->ids[i], &ex, &req, NULL) != CUZK_OK)
            s->failures++; /* a retry: the same job */
    }
    return NULL;
}

static void test_concurrent(void **state)
{
    (void)state;
    dfix_rig_t *r = &g_rig;
    dfix_rig_open(r, &g, "concurrent", 1000, 2);
    dfix_rig_start(r);
    pthread_t th[STRESS_THREADS];
    stress_t st[STRESS_THREADS];
    for (int t = 0; t < STRESS_THREADS; t++) {
        st[t] = (stress_t){r->d, t, {0}, 0};
        assert_int_equal(pthread_create(&th[t], NULL, stress_main, &st[t]), 0);
    }
    for (int t = 0; t < STRESS_THREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < STRESS_THREADS; t++) {
        assert_int_equal(st[t].failures, 0);
        for (int i = 0; i < STRESS_JOBS; i++) {
            daemon_result_t res;
            await_ok(r->d, &res, st[t].ids[i], ENGINE_JOB_DONE);
            check_bp(&res, 1);
            daemon_result_free(&res);
            for (int u = 0; u < t; u++)
                for (int k = 0; k < STRESS_JOBS; k++)
                    assert_true(st[u].ids[k] != st[t].ids[i]);
        }
    }
    daemon_stats_t s;
    stats(r->d, &s);
    assert_int_equal(s.kinds[ENGINE_KIND_BELLPERSON].submitted, STRESS_THREADS * STRESS_JOBS);
    assert_int_equal(s.kinds[ENGINE_KIND_BELLPERSON].done, STRESS_THREADS * STRESS_JOBS);
    dfix_rig_close(r);
}

int main(void)
{
    tu_init("test_daemon");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_snarkjs, rig_teardown),
        cmocka_unit_test_teardown(test_bellperson, rig_teardown),
        cmocka_unit_test_teardown(test_request_ids, rig_teardown),
        cmocka_unit_test_teardown(test_refused, rig_teardown),
        cmocka_unit_test_teardown(test_filecoin, rig_teardown),
        cmocka_unit_test_teardown(test_filecoin_ids, rig_teardown),
        cmocka_unit_test_teardown(test_bad_witness, rig_teardown),
        cmocka_unit_test_teardown(test_timeout_cancel, rig_teardown),
        cmocka_unit_test_teardown(test_queue_full, rig_teardown),
        cmocka_unit_test_teardown(test_restart, rig_teardown),
        cmocka_unit_test_teardown(test_resume_failures, rig_teardown),
        cmocka_unit_test_teardown(test_status_metrics, rig_teardown),
        cmocka_unit_test_teardown(test_witness_pack_config, rig_teardown),
        cmocka_unit_test_teardown(test_http, rig_teardown),
        cmocka_unit_test_teardown(test_preload_evict, rig_teardown),
        cmocka_unit_test_teardown(test_preload_device_load, rig_teardown),
        cmocka_unit_test_teardown(test_event_log, rig_teardown),
        cmocka_unit_test_teardown(test_concurrent, rig_teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
