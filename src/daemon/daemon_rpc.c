/* The cuzk.v1 handlers (include/cuzk/daemon_rpc.h): requests unpacked by
 * the transport become daemon.h calls, and their results become responses
 * whose every pointer is malloc'd (rpc.h's ownership rule).
 *
 * State: none of its own. The daemon_rpc_t is read-only once the server
 * runs, except ctx->d, published once by daemon_rpc_attach (release) and
 * read by each handler (acquire). */
#include "cuzk/daemon_rpc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ledger.h"
#include "cuzk/request.h"

void daemon_rpc_init(daemon_rpc_t *ctx, daemon_t *d, const cuzk_config_t *cfg)
{
    memset(ctx, 0, sizeof *ctx);
    rpc_limits_default(&ctx->limits);
    /* Nothing larger than one message can arrive: bounding by it keeps a
     * witness from being refused below what the transport let through. */
    ctx->limits.max_witness_bytes = (size_t)cfg->daemon.max_message_bytes;
    ctx->limits.max_total_bytes = (size_t)cfg->daemon.max_message_bytes;
    ctx->pinned_limit = cfg->memory.pinned_budget;
    daemon_rpc_attach(ctx, d);
}

void daemon_rpc_attach(daemon_rpc_t *ctx, daemon_t *d)
{
    __atomic_store_n(&ctx->d, d, __ATOMIC_RELEASE);
}

/* The daemon, or NULL with *st UNAVAILABLE while none is attached. */
static daemon_t *rpc_daemon(daemon_rpc_t *ctx, rpc_status_t *st)
{
    daemon_t *d = __atomic_load_n(&ctx->d, __ATOMIC_ACQUIRE);
    if (!d)
        rpc_status_set(st, GRPC_STATUS_UNAVAILABLE, "daemon starting");
    return d;
}

/* ---- statuses ---- */

/* A daemon error as the call's status. CANCELLED from the daemon only ever
 * means daemon_shutdown: UNAVAILABLE tells a client to retry elsewhere or
 * later, where CANCELLED would read as its own cancellation. */
static void fail(rpc_status_t *st, cuzk_status s, const cuzk_error_t *err)
{
    const char *msg = err->msg[0] ? err->msg : cuzk_status_str(s);
    grpc_status_code code = rpc_status_from_cuzk(s);
    if (s == CUZK_ERR_CANCELLED)
        code = GRPC_STATUS_UNAVAILABLE;
    rpc_status_set(st, code, "%s", msg);
}

static void fail_nomem(rpc_status_t *st)
{
    rpc_status_set(st, GRPC_STATUS_RESOURCE_EXHAUSTED, "daemon: out of memory");
}

/* ---- ids ---- */

/* A job id as the proto carries it: 1..20 decimal digits, no sign, no
 * spaces, within uint64_t. Returns 1 with *id, else 0. */
static int job_id_parse(uint64_t *id, const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > 20)
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        unsigned dgt = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - dgt) / 10)
            return 0;
        v = v * 10 + dgt;
    }
    *id = v;
    return 1;
}

/* The job id of a request, or 0 with *st set: INVALID_ARGUMENT when it is
 * not a number, NOT_FOUND for 0 (never a job). */
static uint64_t job_id_of(const char *s, rpc_status_t *st)
{
    uint64_t id = 0;
    if (!job_id_parse(&id, s)) {
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT,
                       "job_id '%.40s' is not a job id (a decimal number)", s);
        return 0;
    }
    if (!id)
        rpc_status_set(st, GRPC_STATUS_NOT_FOUND, "no job 0");
    return id;
}

static cuzk_status set_u64(char **field, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return rpc_set_string(field, buf);
}

/* ---- submit ---- */

static engine_kind kind_from_proto(int k)
{
    switch (k) {
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT: return ENGINE_KIND_POREP;
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE: return ENGINE_KIND_SNAPDEALS;
    case CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION: return ENGINE_KIND_WINDOW_POST;
    case CUZK__V1__PROOF_KIND__WINNING_POST: return ENGINE_KIND_WINNING_POST;
    default: return DAEMON_KIND_FROM_KEY; /* GROTH16_CIRCUIT: rpc_validate_submit passed it */
    }
}

/* proto LOW..CRITICAL are 1..4, cuzk_priority's 0..3 in the same order;
 * rpc_validate_submit has refused anything else but UNSPECIFIED, which
 * is the kind's own (daemon_kind_priority). */
static cuzk_priority priority_from_proto(int p)
{
    return p >= CUZK__V1__PRIORITY__LOW && p <= CUZK__V1__PRIORITY__CRITICAL
               ? (cuzk_priority)(p - CUZK__V1__PRIORITY__LOW + CUZK_PRIO_LOW)
               : DAEMON_PRIO_BY_KIND;
}

static daemon_blob_t blob_of(const ProtobufCBinaryData *b)
{
    return (daemon_blob_t){b->data, b->len};
}

/* A Filecoin request's values as the daemon takes them; *v (malloc'd,
 * the caller frees it) holds the vanilla proofs. 0 on NOMEM. */
static int filecoin_from_proto(daemon_filecoin_t *f, daemon_blob_t **v,
                               const Cuzk__V1__SubmitProofRequest *req)
{
    int porep = req->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    size_t n = porep ? 1 : req->n_vanilla_proofs;
    *v = calloc(n ? n : 1, sizeof **v);
    if (!*v)
        return 0;
    for (size_t i = 0; i < n; i++)
        (*v)[i] = blob_of(porep ? &req->vanilla_proof : &req->vanilla_proofs[i]);
    *f = (daemon_filecoin_t){.registered_proof = req->registered_proof,
                             .sector_size = req->sector_size,
                             .sector_number = req->sector_number,
                             .miner_id = req->miner_id,
                             .partition_index = req->partition_index,
                             .randomness = blob_of(&req->randomness),
                             .comm_r_old = blob_of(&req->comm_r_old),
                             .comm_r_new = blob_of(&req->comm_r_new),
                             .comm_d_new = blob_of(&req->comm_d_new),
                             .vanilla = *v,
                             .n_vanilla = n};
    return 1;
}

/* Validates req and hands it to daemon_submit. Returns the job id (0 with
 * *st set when no job was journaled); a job journaled and then refused is
 * returned like any other, FAILED in the journal (see daemon_rpc.h). */
static uint64_t submit(daemon_rpc_t *ctx, daemon_t *d, int *existing,
                       const Cuzk__V1__SubmitProofRequest *req, rpc_status_t *st)
{
    cuzk_error_t err = {0};
    cuzk_status s = rpc_validate_submit(req, &ctx->limits, &err);
    if (s != CUZK_OK) {
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "%s", err.msg);
        return 0;
    }
    engine_kind kind = kind_from_proto(req->proof_kind);
    int groth16 = (int)kind == (int)DAEMON_KIND_FROM_KEY;
    daemon_blob_t *w = NULL;
    size_t n = groth16 ? req->n_witnesses : 0;
    if (n && !(w = calloc(n, sizeof *w))) {
        fail_nomem(st);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        w[i] = (daemon_blob_t){req->witnesses[i].data, req->witnesses[i].len};
    daemon_filecoin_t fil;
    daemon_blob_t *vanilla = NULL;
    if (!groth16 && !filecoin_from_proto(&fil, &vanilla, req)) {
        free(w);
        fail_nomem(st);
        return 0;
    }
    daemon_request_t dr = {kind,
                           priority_from_proto(req->priority),
                           req->request_id,
                           req->circuit_id,
                           w,
                           n,
                           groth16 ? NULL : &fil};
    uint64_t id = 0;
    err = (cuzk_error_t){0};
    s = daemon_submit(d, &id, existing, &dr, &err);
    free(w);
    free(vanilla);
    if (!id)
        fail(st, s, &err);
    return id;
}

static void h_submit(void *vctx, const rpc_call_t *call, const Cuzk__V1__SubmitProofRequest *req,
                     Cuzk__V1__SubmitProofResponse *resp, rpc_status_t *st)
{
    (void)call;
    daemon_rpc_t *ctx = vctx;
    daemon_t *d = rpc_daemon(ctx, st);
    int existing = 0;
    uint64_t id = d ? submit(ctx, d, &existing, req, st) : 0;
    if (!id)
        return;
    daemon_job_info_t info;
    /* The job was journaled: its info can only fail when it expired since,
     * which leaves the position fields empty, not the call failed. */
    if (daemon_job_info(d, &info, id, NULL) == CUZK_OK) {
        resp->queue_position = info.queue_position;
        if (info.device >= 0 && set_u64(&resp->assigned_gpu, (uint64_t)info.device) != CUZK_OK) {
            fail_nomem(st);
            return;
        }
    }
    resp->existing = existing != 0;
    if (set_u64(&resp->job_id, id) != CUZK_OK)
        fail_nomem(st);
}

/* ---- await ---- */

/* Waits for job id up to timeout_ms (0: no limit) in slices, returning
 * early with CUZK_ERR_CANCELLED and *cancelled = 1 when the call is
 * cancelled. Otherwise daemon_await's result. */
static cuzk_status await_sliced(daemon_t *d, daemon_result_t *res, int *cancelled,
                                const rpc_call_t *call, uint64_t id, uint64_t timeout_ms,
                                cuzk_error_t *err)
{
    uint64_t start = ledger_clock_ns();
    *cancelled = 0;
    for (;;) {
        if (rpc_call_cancelled(call)) {
            *cancelled = 1;
            return cuzk_error_set(err, CUZK_ERR_CANCELLED, "call cancelled");
        }
        int64_t slice = DAEMON_RPC_AWAIT_SLICE_MS;
        if (timeout_ms) {
            uint64_t elapsed = (ledger_clock_ns() - start) / 1000000u;
            if (elapsed >= timeout_ms) {
                memset(res, 0, sizeof *res);
                res->job_id = id;
                return cuzk_error_set(err, CUZK_ERR_TIMEOUT, "job %" PRIu64 " not finished", id);
            }
            if (timeout_ms - elapsed < (uint64_t)slice)
                slice = (int64_t)(timeout_ms - elapsed);
        }
        int64_t left = rpc_call_remaining_ms(call);
        if (left >= 0 && left < slice)
            slice = left > 0 ? left : 1; /* under a millisecond left: one short wait */
        cuzk_status s = daemon_await(d, res, id, (int)slice, err);
        if (s != CUZK_ERR_TIMEOUT)
            return s;
    }
}

/* Fills an AwaitProofResponse from a finished job. Returns 0 on NOMEM. */
static int result_fill(Cuzk__V1__AwaitProofResponse *r, const daemon_result_t *res)
{
    int ok = set_u64(&r->job_id, res->job_id) == CUZK_OK;
    switch (res->state) {
    case ENGINE_JOB_DONE:
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        ok = ok && rpc_set_bytes(&r->proof, res->proof, res->proof_len) == CUZK_OK;
        ok = ok &&
             rpc_set_bytes(&r->public_signals, res->public_signals, res->public_len) == CUZK_OK;
        break;
    case ENGINE_JOB_CANCELLED: r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED; break;
    default: r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED; break;
    }
    if (res->state != ENGINE_JOB_DONE && res->error.msg[0])
        ok = ok && rpc_set_string(&r->error_message, res->error.msg) == CUZK_OK;
    r->queue_wait_ms = res->times.queue_wait_ms;
    r->srs_load_ms = res->times.srs_load_ms;
    r->synthesis_ms = res->times.synthesis_ms;
    r->gpu_compute_ms = res->times.gpu_compute_ms;
    r->total_ms = res->times.total_ms;
    return ok;
}

/* The shared body of AwaitProof and Prove: wait, then answer. */
static void await_answer(daemon_t *d, const rpc_call_t *call, uint64_t id, uint64_t timeout_ms,
                         Cuzk__V1__AwaitProofResponse *r, rpc_status_t *st)
{
    daemon_result_t res;
    memset(&res, 0, sizeof res); /* a call cancelled at once never reaches daemon_await */
    cuzk_error_t err = {0};
    int cancelled = 0;
    cuzk_status s = await_sliced(d, &res, &cancelled, call, id, timeout_ms, &err);
    if (s == CUZK_OK) {
        if (!result_fill(r, &res))
            fail_nomem(st);
    } else if (s == CUZK_ERR_TIMEOUT) {
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        if (set_u64(&r->job_id, id) != CUZK_OK)
            fail_nomem(st);
    } else if (cancelled) {
        /* The server answers DEADLINE_EXCEEDED itself when that was why. */
        rpc_status_set(st, GRPC_STATUS_CANCELLED, "job %" PRIu64 ": call cancelled while waiting",
                       id);
    } else if (s == CUZK_ERR_ARG) {
        rpc_status_set(st, GRPC_STATUS_NOT_FOUND, "%s", err.msg);
    } else {
        fail(st, s, &err);
    }
    daemon_result_free(&res);
}

static void h_await(void *vctx, const rpc_call_t *call, const Cuzk__V1__AwaitProofRequest *req,
                    Cuzk__V1__AwaitProofResponse *resp, rpc_status_t *st)
{
    daemon_t *d = rpc_daemon(vctx, st);
    uint64_t id = d ? job_id_of(req->job_id, st) : 0;
    if (id)
        await_answer(d, call, id, req->timeout_ms, resp, st);
}

static void h_prove(void *vctx, const rpc_call_t *call, const Cuzk__V1__ProveRequest *req,
                    Cuzk__V1__ProveResponse *resp, rpc_status_t *st)
{
    daemon_rpc_t *ctx = vctx;
    daemon_t *d = rpc_daemon(ctx, st);
    if (!d)
        return;
    if (!req->submit) {
        rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "ProveRequest has no submit");
        return;
    }
    int existing = 0;
    uint64_t id = submit(ctx, d, &existing, req->submit, st);
    if (!id)
        return;
    if (!(resp->result = malloc(sizeof *resp->result))) {
        fail_nomem(st);
        return;
    }
    cuzk__v1__await_proof_response__init(resp->result);
    await_answer(d, call, id, 0, resp->result, st);
}

/* ---- cancel ---- */

static void h_cancel(void *vctx, const rpc_call_t *call, const Cuzk__V1__CancelProofRequest *req,
                     Cuzk__V1__CancelProofResponse *resp, rpc_status_t *st)
{
    (void)call;
    daemon_t *d = rpc_daemon(vctx, st);
    uint64_t id = d ? job_id_of(req->job_id, st) : 0;
    if (!id)
        return;
    int was_running = 0;
    cuzk_error_t err = {0};
    cuzk_status s = daemon_cancel(d, &was_running, id, &err);
    if (s == CUZK_ERR_ARG)
        rpc_status_set(st, GRPC_STATUS_NOT_FOUND, "%s", err.msg);
    else if (s != CUZK_OK)
        fail(st, s, &err);
    resp->was_running = was_running != 0;
}

/* ---- status ---- */

/* Initialised sub-messages, malloc'd as the response's ownership needs;
 * NULL on NOMEM. */
static Cuzk__V1__GPUStatus *gpu_new(void)
{
    Cuzk__V1__GPUStatus *m = malloc(sizeof *m);
    if (m)
        cuzk__v1__gpustatus__init(m);
    return m;
}

static Cuzk__V1__SRSStatus *srs_new(void)
{
    Cuzk__V1__SRSStatus *m = malloc(sizeof *m);
    if (m)
        cuzk__v1__srsstatus__init(m);
    return m;
}

static Cuzk__V1__QueueStatus *queue_new(void)
{
    Cuzk__V1__QueueStatus *m = malloc(sizeof *m);
    if (m)
        cuzk__v1__queue_status__init(m);
    return m;
}

/* Each filler appends to its repeated field, counting as it goes, so that
 * on failure the server's free_unpacked frees exactly what was made. */
static int status_gpus(Cuzk__V1__GetStatusResponse *r, const daemon_stats_t *s)
{
    if (!s->n_devices)
        return 1;
    if (!(r->gpus = calloc(s->n_devices, sizeof *r->gpus)))
        return 0;
    for (unsigned i = 0; i < s->n_devices; i++) {
        const daemon_device_stats_t *dv = &s->devices[i];
        Cuzk__V1__GPUStatus *g = gpu_new();
        if (!g)
            return 0;
        r->gpus[r->n_gpus++] = g;
        g->ordinal = i;
        g->vram_total_bytes = dv->vram_capacity;
        g->vram_free_bytes =
            dv->vram_capacity > dv->vram_reserved ? dv->vram_capacity - dv->vram_reserved : 0;
        if (rpc_set_string(&g->name, dv->name) != CUZK_OK)
            return 0;
        if (dv->current_job &&
            (set_u64(&g->current_job_id, dv->current_job) != CUZK_OK ||
             rpc_set_string(&g->current_proof_kind, engine_kind_str(dv->current_kind)) != CUZK_OK))
            return 0;
    }
    return 1;
}

static int status_keys(Cuzk__V1__GetStatusResponse *r, daemon_t *d)
{
    daemon_key_info_t *keys = NULL;
    size_t n = 0;
    if (daemon_keys(d, &keys, &n, NULL) != CUZK_OK)
        return 0;
    int ok = 1;
    if (n && !(r->loaded_srs = calloc(n, sizeof *r->loaded_srs)))
        ok = 0;
    for (size_t i = 0; ok && i < n; i++) {
        Cuzk__V1__SRSStatus *k = srs_new();
        if (!k) {
            ok = 0;
            break;
        }
        r->loaded_srs[r->n_loaded_srs++] = k;
        k->tier = keys[i].n_resident                   ? CUZK__V1__SRSSTATUS__TIER__HOT
                  : keys[i].state == DAEMON_KEY_LOADED ? CUZK__V1__SRSSTATUS__TIER__WARM
                                                       : CUZK__V1__SRSSTATUS__TIER__COLD;
        k->size_bytes = keys[i].bytes;
        k->ref_count = keys[i].jobs;
        k->loaded_bytes = keys[i].loaded_bytes;
        k->device_loaded_bytes = keys[i].device_loaded_bytes;
        k->device_bytes = keys[i].device_bytes;
        ok = rpc_set_string(&k->circuit_id, keys[i].circuit_id) == CUZK_OK;
    }
    free(keys);
    return ok;
}

static int status_queues(Cuzk__V1__GetStatusResponse *r, const daemon_stats_t *s)
{
    if (!(r->queues = calloc(ENGINE_KIND_COUNT, sizeof *r->queues)))
        return 0;
    for (int k = 0; k < ENGINE_KIND_COUNT; k++) {
        Cuzk__V1__QueueStatus *q = queue_new();
        if (!q)
            return 0;
        r->queues[r->n_queues++] = q;
        q->pending = (uint32_t)(s->kinds[k].queued > UINT32_MAX ? UINT32_MAX : s->kinds[k].queued);
        q->in_progress =
            (uint32_t)(s->kinds[k].running > UINT32_MAX ? UINT32_MAX : s->kinds[k].running);
        if (rpc_set_string(&q->proof_kind, engine_kind_str(k)) != CUZK_OK)
            return 0;
    }
    return 1;
}

static void h_status(void *vctx, const rpc_call_t *call, const Cuzk__V1__GetStatusRequest *req,
                     Cuzk__V1__GetStatusResponse *resp, rpc_status_t *st)
{
    (void)call;
    (void)req;
    daemon_rpc_t *ctx = vctx;
    daemon_t *d = rpc_daemon(ctx, st);
    if (!d)
        return;
    /* daemon_stats_t holds every device's stats: too large for a worker's
     * stack to carry comfortably. */
    daemon_stats_t *s = malloc(sizeof *s);
    if (!s) {
        fail_nomem(st);
        return;
    }
    daemon_stats(d, s);
    for (int k = 0; k < ENGINE_KIND_COUNT; k++) {
        resp->total_proofs_completed += s->kinds[k].done;
        resp->total_proofs_failed += s->kinds[k].failed;
    }
    resp->uptime_seconds = s->uptime_ms / 1000u;
    resp->pinned_memory_bytes = s->pinned_bytes;
    resp->pinned_memory_limit_bytes = ctx->pinned_limit;
    if (!status_gpus(resp, s) || !status_keys(resp, d) || !status_queues(resp, s))
        fail_nomem(st);
    free(s);
}

static void h_metrics(void *vctx, const rpc_call_t *call, const Cuzk__V1__GetMetricsRequest *req,
                      Cuzk__V1__GetMetricsResponse *resp, rpc_status_t *st)
{
    (void)call;
    (void)req;
    daemon_t *d = rpc_daemon(vctx, st);
    if (!d)
        return;
    char *text = NULL;
    size_t len = 0;
    cuzk_error_t err = {0};
    cuzk_status s = daemon_metrics_text(d, &text, &len, &err);
    if (s != CUZK_OK) {
        fail(st, s, &err);
        return;
    }
    resp->prometheus_text = text; /* malloc'd and NUL-terminated: the response owns it now */
}

/* ---- keys ---- */

/* A circuit id the daemon would refuse, as INVALID_ARGUMENT (1), else 0. */
static int bad_circuit(const char *id, rpc_status_t *st)
{
    cuzk_error_t err = {0};
    if (request_circuit_id_check(id, &err) == CUZK_OK)
        return 0;
    rpc_status_set(st, GRPC_STATUS_INVALID_ARGUMENT, "%s", err.msg);
    return 1;
}

static void h_preload(void *vctx, const rpc_call_t *call, const Cuzk__V1__PreloadSrsRequest *req,
                      Cuzk__V1__PreloadSrsResponse *resp, rpc_status_t *st)
{
    (void)call;
    daemon_t *d = rpc_daemon(vctx, st);
    if (!d || bad_circuit(req->circuit_id, st))
        return;
    daemon_key_info_t info;
    int already = 0;
    cuzk_error_t err = {0};
    cuzk_status s = daemon_preload(d, &info, &already, req->circuit_id, &err);
    if (s == CUZK_ERR_ARG) {
        rpc_status_set(st, GRPC_STATUS_NOT_FOUND, "%s", err.msg); /* the id was well formed */
        return;
    }
    if (s != CUZK_OK) {
        /* What is wrong with a registered key's files is the daemon's
         * state, not the caller's argument. */
        if (rpc_status_from_cuzk(s) == GRPC_STATUS_INVALID_ARGUMENT)
            rpc_status_set(st, GRPC_STATUS_FAILED_PRECONDITION, "%s", err.msg);
        else
            fail(st, s, &err);
        return;
    }
    resp->already_loaded = already != 0;
    resp->load_time_ms = info.load_ms;
}

static void h_evict(void *vctx, const rpc_call_t *call, const Cuzk__V1__EvictSrsRequest *req,
                    Cuzk__V1__EvictSrsResponse *resp, rpc_status_t *st)
{
    (void)call;
    daemon_t *d = rpc_daemon(vctx, st);
    if (!d || bad_circuit(req->circuit_id, st))
        return;
    int was = 0;
    uint64_t freed = 0;
    cuzk_error_t err = {0};
    cuzk_status s = daemon_evict(d, &was, &freed, req->circuit_id, &err);
    if (s == CUZK_ERR_BUSY) {
        /* In use or loading: retrying helps only once that changes. */
        rpc_status_set(st, GRPC_STATUS_FAILED_PRECONDITION, "%s", err.msg);
        return;
    }
    if (s != CUZK_OK) {
        fail(st, s, &err);
        return;
    }
    resp->was_loaded = was != 0;
    resp->freed_bytes = freed;
}

void daemon_rpc_handlers(rpc_handlers_t *out, daemon_rpc_t *ctx)
{
    memset(out, 0, sizeof *out);
    out->ctx = ctx;
    out->submit_proof = h_submit;
    out->await_proof = h_await;
    out->prove = h_prove;
    out->cancel_proof = h_cancel;
    out->get_status = h_status;
    out->get_metrics = h_metrics;
    out->preload_srs = h_preload;
    out->evict_srs = h_evict;
}
