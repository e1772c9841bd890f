/* The daemon's jobs: the table, submit, await, cancel, results
 * (include/cuzk/daemon.h; owners and locks: daemon_internal.h).
 *
 * DESIGN. A job enters the table (under submit_mu, right after
 * journal_accept) and leaves it once its result is journaled; the table is
 * what daemon_await waits on and what the queue limit counts. Who finishes
 * a job: the submitting thread while the engine has not got it (eid 0: a
 * load failure, an engine refusal, a cancel that came first), the
 * completion thread afterwards. Only the finisher frees a job, so the
 * completion thread may keep pointers to jobs with an eid across unlocks.
 * A finished job is answered from the journal (the one source of truth,
 * also after a restart); its stage times from the recent ring while it is
 * there.
 *
 * A Filecoin request is judged before anything is journaled: its vanilla
 * proofs parsed and checked against its values (dmn_fil_new) and its
 * parameter files found, so bad input is refused with nothing recorded.
 * The job (dmn_job_t.fil) then lives with the table entry: the engine's
 * witness generators read it until the engine job settles, and only the
 * finisher frees it (dmn_job_free). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/bellperson.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/request.h"
#include "cuzk/snarkjs_json.h"
#include "daemon/daemon_internal.h"
#include "util/sync.h"

/* ---- the map ---- */

static size_t map_slot(const dmn_map_t *m, uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (m->nb - 1);
}

static int map_grow(dmn_map_t *m)
{
    size_t nb = m->nb ? m->nb * 2 : 64;
    dmn_map_node_t **b = calloc(nb, sizeof *b);
    if (!b)
        return -1;
    dmn_map_t n = {b, nb, m->n};
    for (size_t i = 0; i < m->nb; i++)
        for (dmn_map_node_t *x = m->b[i], *next; x; x = next) {
            next = x->next;
            size_t s = map_slot(&n, x->key);
            x->next = b[s];
            b[s] = x;
        }
    free(m->b);
    *m = n;
    return 0;
}

int dmn_map_put(dmn_map_t *m, uint64_t key, void *val)
{
    if (m->nb) {
        for (dmn_map_node_t *x = m->b[map_slot(m, key)]; x; x = x->next)
            if (x->key == key) {
                x->val = val;
                return 0;
            }
    }
    if ((m->n + 1 > m->nb * 2 || !m->nb) && map_grow(m) != 0 && !m->nb)
        return -1;
    dmn_map_node_t *x = malloc(sizeof *x);
    if (!x)
        return -1;
    size_t s = map_slot(m, key);
    *x = (dmn_map_node_t){key, val, m->b[s]};
    m->b[s] = x;
    m->n++;
    return 0;
}

void *dmn_map_get(const dmn_map_t *m, uint64_t key)
{
    if (!m->nb)
        return NULL;
    for (dmn_map_node_t *x = m->b[map_slot(m, key)]; x; x = x->next)
        if (x->key == key)
            return x->val;
    return NULL;
}

void dmn_map_del(dmn_map_t *m, uint64_t key)
{
    if (!m->nb)
        return;
    for (dmn_map_node_t **p = &m->b[map_slot(m, key)]; *p; p = &(*p)->next)
        if ((*p)->key == key) {
            dmn_map_node_t *x = *p;
            *p = x->next;
            free(x);
            m->n--;
            return;
        }
}

void dmn_map_free(dmn_map_t *m)
{
    for (size_t i = 0; i < m->nb; i++)
        for (dmn_map_node_t *x = m->b[i], *next; x; x = next) {
            next = x->next;
            free(x);
        }
    free(m->b);
    memset(m, 0, sizeof *m);
}

/* ---- the table ---- */

static int is_groth16(engine_kind kind)
{
    return kind == ENGINE_KIND_SNARKJS || kind == ENGINE_KIND_BELLPERSON;
}

dmn_job_t *dmn_job_add(daemon_t *d, uint64_t id, engine_kind kind, cuzk_priority prio,
                       const char *circuit, size_t n_partitions, int64_t accept_ms, int resumed)
{
    dmn_job_t *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->id = id;
    j->kind = kind;
    j->prio = prio;
    snprintf(j->circuit, sizeof j->circuit, "%s", circuit);
    j->n_partitions = n_partitions;
    j->state = ENGINE_JOB_QUEUED;
    j->device = -1;
    j->accept_ns = ledger_clock_ns();
    j->accept_ms = accept_ms;
    pthread_mutex_lock(&d->mu);
    if (dmn_map_put(&d->by_id, id, j) != 0) {
        pthread_mutex_unlock(&d->mu);
        free(j);
        return NULL;
    }
    j->prev = d->last;
    if (d->last)
        d->last->next = j;
    else
        d->first = j;
    d->last = j;
    d->n_jobs++;
    if (resumed)
        d->kinds[kind].resumed++;
    else
        d->kinds[kind].submitted++;
    pthread_mutex_unlock(&d->mu);
    return j;
}

/* mu held. */
static void job_unlink(daemon_t *d, dmn_job_t *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        d->first = j->next;
    if (j->next)
        j->next->prev = j->prev;
    else
        d->last = j->prev;
    dmn_map_del(&d->by_id, j->id);
    if (j->eid)
        dmn_map_del(&d->by_eid, j->eid);
    d->n_jobs--;
}

void dmn_job_free(dmn_job_t *j)
{
    if (!j)
        return;
    dmn_fil_free(j->fil);
    free(j);
}

void dmn_done_free(dmn_done_t *r)
{
    if (!r)
        return;
    free(r->parts);
    free(r->proof);
    free(r->pub);
    free(r);
}

/* mu held: the ring takes r (without its result bytes). */
static void recent_push(daemon_t *d, dmn_done_t *r)
{
    free(r->proof);
    free(r->pub);
    r->proof = r->pub = NULL;
    r->proof_len = r->pub_len = 0;
    dmn_done_free(d->recent[d->recent_next]);
    d->recent[d->recent_next] = r;
    d->recent_next = (d->recent_next + 1) % DAEMON_RECENT_MAX;
    if (d->n_recent < DAEMON_RECENT_MAX)
        d->n_recent++;
}

/* mu held. */
static const dmn_done_t *recent_find(const daemon_t *d, uint64_t id)
{
    for (unsigned i = 0; i < DAEMON_RECENT_MAX; i++)
        if (d->recent[i] && d->recent[i]->id == id)
            return d->recent[i];
    return NULL;
}

/* ---- finishing ---- */

void dmn_job_publish(daemon_t *d, dmn_job_t *j, dmn_done_t *r)
{
    cuzk_error_t e = {0};
    int64_t now_ms = journal_clock_ms();
    r->times.total_ms = now_ms > j->accept_ms ? (uint64_t)(now_ms - j->accept_ms) : 0;
    if (r->state != ENGINE_JOB_DONE && r->error.code == CUZK_OK)
        cuzk_error_set(&r->error,
                       r->state == ENGINE_JOB_CANCELLED ? CUZK_ERR_CANCELLED : CUZK_ERR_INTERNAL,
                       r->state == ENGINE_JOB_CANCELLED ? "cancelled" : "failed without a reason");
    const cuzk_error_t *why = r->state == ENGINE_JOB_DONE ? NULL : &r->error;
    cuzk_status st = journal_finish(d->journal, r->id, (int)r->state, why, r->proof, r->proof_len,
                                    r->pub, r->pub_len, &e);
    if (st != CUZK_OK && st != CUZK_ERR_ARG) {
        /* Kept for a retry by the completion thread; awaiters read it here. */
        pthread_mutex_lock(&d->mu);
        d->journal_errors++;
        j->done = r;
        pthread_cond_broadcast(&d->done_cv);
        pthread_mutex_unlock(&d->mu);
        dmn_log(d, CONFIG_LOG_ERROR, "job %llu: journal: %s (will retry)",
                (unsigned long long)r->id, e.msg);
        return;
    }
    if (st == CUZK_ERR_ARG) /* finished or expired already: nothing to keep */
        dmn_log(d, CONFIG_LOG_WARN, "job %llu: journal: %s", (unsigned long long)r->id, e.msg);
    engine_kind kind = r->kind;
    engine_job_state state = r->state;
    if (state == ENGINE_JOB_DONE)
        dmn_log(d, CONFIG_LOG_INFO, "job %llu %s %s: done in %llu ms", (unsigned long long)r->id,
                engine_kind_str(kind), r->circuit, (unsigned long long)r->times.total_ms);
    else
        dmn_log(d, CONFIG_LOG_INFO, "job %llu %s %s: %s: %s", (unsigned long long)r->id,
                engine_kind_str(kind), r->circuit, engine_job_state_str(state), r->error.msg);
    dmn_metrics_count(d, kind, state, r->times.total_ms); /* before the waiters wake */
    pthread_mutex_lock(&d->mu);
    job_unlink(d, j);
    if (state == ENGINE_JOB_DONE)
        d->kinds[kind].done++;
    else if (state == ENGINE_JOB_FAILED)
        d->kinds[kind].failed++;
    else
        d->kinds[kind].cancelled++;
    recent_push(d, r);
    pthread_cond_broadcast(&d->done_cv);
    pthread_mutex_unlock(&d->mu);
    dmn_job_free(j);
}

static dmn_done_t *done_new(const dmn_job_t *j, engine_job_state state, const cuzk_error_t *error)
{
    dmn_done_t *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->id = j->id;
    r->kind = j->kind;
    r->state = state;
    if (error)
        r->error = *error;
    memcpy(r->circuit, j->circuit, sizeof r->circuit);
    r->times.srs_load_ms = j->srs_load_ms;
    return r;
}

/* The last resort when even a record cannot be allocated: journal the end
 * and drop the job (its times are lost). */
static void publish_bare(daemon_t *d, dmn_job_t *j, engine_job_state state,
                         const cuzk_error_t *error)
{
    cuzk_error_t why = {CUZK_ERR_NOMEM, "no memory for the job's result"};
    if (state != ENGINE_JOB_DONE && error && error->code != CUZK_OK)
        why = *error;
    if (state == ENGINE_JOB_DONE)
        state = ENGINE_JOB_FAILED; /* its result bytes are what could not be kept */
    journal_finish(d->journal, j->id, (int)state, &why, NULL, 0, NULL, 0, NULL);
    dmn_metrics_count(d, j->kind, state, 0);
    pthread_mutex_lock(&d->mu);
    job_unlink(d, j);
    if (state == ENGINE_JOB_FAILED)
        d->kinds[j->kind].failed++;
    else
        d->kinds[j->kind].cancelled++;
    pthread_cond_broadcast(&d->done_cv);
    pthread_mutex_unlock(&d->mu);
    dmn_job_free(j);
}

void dmn_job_finish_now(daemon_t *d, dmn_job_t *j, engine_job_state state,
                        const cuzk_error_t *error)
{
    dmn_done_t *r = done_new(j, state, error);
    if (!r) {
        publish_bare(d, j, state, error);
        return;
    }
    dmn_job_publish(d, j, r);
}

/* The result in the key's native form (see daemon.h). */
static cuzk_status encode(dmn_done_t *r, const engine_result_t *res, cuzk_error_t *err)
{
    size_t n = res->n_partitions, np = res->n_public, n_in = n * np;
    if (r->kind == ENGINE_KIND_SNARKJS) {
        char *proof = NULL, *pub = NULL;
        size_t plen = 0, ulen = 0;
        cuzk_status st = snarkjs_proof_format(&proof, &plen, &res->proofs[0], err);
        if (st == CUZK_OK)
            st = snarkjs_public_format(&pub, &ulen, res->public_inputs, np, err);
        if (st != CUZK_OK) {
            free(proof);
            return st;
        }
        r->proof = (uint8_t *)proof;
        r->proof_len = plen;
        r->pub = (uint8_t *)pub;
        r->pub_len = ulen;
        return CUZK_OK;
    }
    r->proof = malloc(n * BELLPERSON_PROOF_BYTES);
    r->pub = n_in ? malloc(n_in * BELLPERSON_INPUT_BYTES) : NULL;
    if (!r->proof || (n_in && !r->pub))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "no memory for the proofs");
    bellperson_proofs_write(r->proof, res->proofs, n);
    r->proof_len = n * BELLPERSON_PROOF_BYTES;
    if (r->pub)
        bellperson_inputs_write(r->pub, res->public_inputs, n_in);
    r->pub_len = n_in * BELLPERSON_INPUT_BYTES;
    return CUZK_OK;
}

void dmn_job_collect(daemon_t *d, dmn_job_t *j, engine_result_t *res)
{
    int filled = res->id != 0;
    cuzk_error_t lost = {CUZK_ERR_INTERNAL, "the engine no longer holds the job's result"};
    dmn_done_t *r =
        done_new(j, filled ? res->state : ENGINE_JOB_FAILED, filled ? &res->error : &lost);
    if (!r) {
        publish_bare(d, j, ENGINE_JOB_FAILED, NULL);
        return;
    }
    if (filled) {
        r->parts = res->timings; /* taken */
        r->n_parts = res->n_partitions;
        res->timings = NULL;
        double load_s = 0;
        for (size_t i = 0; i < r->n_parts; i++) {
            r->times.synthesis_ms += r->parts[i].witness_ns / 1000000u;
            r->times.gpu_compute_ms += r->parts[i].prove_ns / 1000000u;
            load_s += r->parts[i].parts.s[PROVE_LOAD];
        }
        r->times.srs_load_ms += (uint64_t)(load_s * 1000.0);
        r->times.verify_ms = res->verify_ns / 1000000u;
    }
    pthread_mutex_lock(&d->mu);
    if (j->first_admit_ns > j->accept_ns)
        r->times.queue_wait_ms = (j->first_admit_ns - j->accept_ns) / 1000000u;
    pthread_mutex_unlock(&d->mu);
    if (r->state == ENGINE_JOB_DONE) {
        cuzk_error_t e = {0};
        if (encode(r, res, &e) != CUZK_OK) {
            r->state = ENGINE_JOB_FAILED;
            r->error = e;
        }
    } else if (r->state == ENGINE_JOB_FAILED) {
        dmn_fil_diagnose(j->fil, &r->error); /* which constraint a vanilla proof breaks */
    }
    dmn_job_publish(d, j, r);
}

/* ---- submit ---- */

static cuzk_status request_check(engine_kind *kind, daemon_t *d, const daemon_request_t *req,
                                 cuzk_error_t *err)
{
    cuzk_status rst = request_id_check(req->request_id, err);
    if (rst != CUZK_OK)
        return rst;
    if (((int)req->priority < 0 || (int)req->priority >= CUZK_PRIO_COUNT) &&
        req->priority != DAEMON_PRIO_BY_KIND)
        return cuzk_error_set(err, CUZK_ERR_ARG, "priority %d is not a priority",
                              (int)req->priority);
    *kind = req->kind;
    int from_key = (int)req->kind == (int)DAEMON_KIND_FROM_KEY;
    if (!from_key && ((int)req->kind < 0 || (int)req->kind >= ENGINE_KIND_COUNT))
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown proof kind %d", (int)req->kind);
    if (req->n_witnesses > JOURNAL_INPUTS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%zu witnesses (at most %d)", req->n_witnesses,
                              JOURNAL_INPUTS_MAX);
    if (req->n_witnesses && !req->witnesses)
        return cuzk_error_set(err, CUZK_ERR_ARG, "witnesses: NULL");
    for (size_t i = 0; i < req->n_witnesses; i++)
        if (!req->witnesses[i].data || !req->witnesses[i].len)
            return cuzk_error_set(err, CUZK_ERR_ARG, "witness %zu is empty", i);
    if (!from_key && !is_groth16(req->kind)) {
        /* a Filecoin kind: its values are judged by dmn_fil_new */
        if (!req->filecoin)
            return cuzk_error_set(err, CUZK_ERR_ARG, "a %s request without its Filecoin values",
                                  engine_kind_str(req->kind));
        if (req->n_witnesses)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "witnesses: a %s request takes vanilla proofs, not witnesses",
                                  engine_kind_str(req->kind));
        if (req->circuit_id && req->circuit_id[0])
            return request_circuit_id_check(req->circuit_id, err);
        return CUZK_OK;
    }
    if (req->filecoin)
        return cuzk_error_set(err, CUZK_ERR_ARG, "Filecoin values in a %s request",
                              from_key ? "Groth16" : engine_kind_str(req->kind));
    groth16_convention format;
    cuzk_status st = dmn_registry_check(&d->reg, &format, req->circuit_id, err);
    if (st != CUZK_OK)
        return st;
    engine_kind want = format == GROTH16_SNARKJS ? ENGINE_KIND_SNARKJS : ENGINE_KIND_BELLPERSON;
    if (from_key)
        *kind = want;
    else if (req->kind != want)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit '%s' is a %s key, not %s",
                              req->circuit_id, groth16_convention_str(format),
                              engine_kind_str(req->kind));
    if (*kind == ENGINE_KIND_SNARKJS && req->n_witnesses != 1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "circuit '%s' is a snarkjs key: exactly one witness, not %zu",
                              req->circuit_id, req->n_witnesses);
    if (req->n_witnesses == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "no witnesses");
    return CUZK_OK;
}

/* Journals the request (or finds its request id's job). submit_mu held. */
static cuzk_status job_accept(daemon_t *d, uint64_t *id, int *existing, engine_kind kind,
                              cuzk_priority prio, const char *circuit, const daemon_request_t *req,
                              cuzk_error_t *err)
{
    const char *rid = req->request_id && req->request_id[0] ? req->request_id : NULL;
    uint64_t found = 0;
    cuzk_status st;
    if (rid && (st = journal_find_request(d->journal, &found, rid, err)) != CUZK_OK)
        return st;
    if (!found) {
        pthread_mutex_lock(&d->mu);
        size_t n = d->n_jobs;
        pthread_mutex_unlock(&d->mu);
        if (n >= d->cfg.daemon.max_queued_jobs)
            return cuzk_error_set(err, CUZK_ERR_BUSY, "queue full (%zu jobs)", n);
    }
    const daemon_filecoin_t *f = req->filecoin;
    /* A Filecoin job: its header (the request's values), then its vanilla
     * proofs; resume_one rebuilds the job from them. */
    size_t n_in = f ? f->n_vanilla + 1 : req->n_witnesses ? req->n_witnesses : 1;
    journal_input_t *in = calloc(n_in, sizeof *in);
    if (!in)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_submit: no memory");
    uint8_t header[DMN_FIL_HEADER_BYTES];
    if (f) {
        dmn_fil_header_write(header, f);
        in[0] = (journal_input_t){header, sizeof header, NULL};
        for (size_t i = 0; i < f->n_vanilla; i++)
            in[i + 1] = (journal_input_t){f->vanilla[i].data, f->vanilla[i].len, NULL};
    }
    for (size_t i = 0; !f && i < req->n_witnesses; i++)
        in[i] = (journal_input_t){req->witnesses[i].data, req->witnesses[i].len, NULL};
    journal_spec_t spec = {rid, (int)kind, (int)prio, circuit, in, n_in};
    st = journal_accept(d->journal, id, existing, &spec, err);
    free(in);
    return st;
}

cuzk_status dmn_job_start(daemon_t *d, dmn_job_t *j, const daemon_blob_t *w, size_t n,
                          cuzk_error_t *err)
{
    cuzk_error_t e = {0};
    cuzk_status st = CUZK_OK;
    dmn_key_t *k = NULL;
    uint64_t waited = 0;
    if (j->fil) {
        st = dmn_registry_get_fil(&d->reg, &k, &waited, j->fil->job, &e);
        if (st == CUZK_OK && dmn_key_n_public(k) != fil_job_n_inputs(j->fil->job))
            st = cuzk_error_set(&e, CUZK_ERR_FORMAT,
                                "%s: the circuit has %zu public inputs; the request's values "
                                "give %zu",
                                k->id, dmn_key_n_public(k), fil_job_n_inputs(j->fil->job));
        j->fil->n_public = st == CUZK_OK ? dmn_key_n_public(k) : 0;
        j->fil->threads = d->stage_threads;
        n = j->fil->n_parts;
    } else if (is_groth16(j->kind)) {
        st = dmn_registry_get(&d->reg, &k, &waited, j->circuit, &e);
    }
    pthread_mutex_lock(&d->mu);
    j->srs_load_ms = waited;
    int cancelled = j->cancel_requested;
    pthread_mutex_unlock(&d->mu);
    if (st == CUZK_OK && cancelled) {
        dmn_registry_put(&d->reg, k);
        dmn_job_finish_now(d, j, ENGINE_JOB_CANCELLED, NULL);
        return CUZK_OK;
    }
    engine_job_id_t eid = 0;
    if (st == CUZK_OK) {
        engine_witness_t *ws = calloc(n ? n : 1, sizeof *ws);
        if (!ws) {
            st = cuzk_error_set(&e, CUZK_ERR_NOMEM, "daemon_submit: no memory");
        } else {
            for (size_t i = 0; i < n; i++)
                /* PoRep and SnapDeals witnesses are mostly bits: made
                 * packed where the engine packs (memory.witness_pack) */
                ws[i] = j->fil ? (engine_witness_t){.form = ENGINE_WITNESS_FN,
                                                    .fn = dmn_fil_witness,
                                                    .ctx = &j->fil->parts[i],
                                                    .pack_fn = fil_circuit_packs_well(
                                                                   fil_job_kind(j->fil->job))
                                                                   ? dmn_fil_witness_pack
                                                                   : NULL}
                               : (engine_witness_t){.form = ENGINE_WITNESS_WTNS,
                                                    .wtns = w[i].data,
                                                    .size = w[i].len};
            engine_job_spec_t spec = {.kind = j->kind,
                                      .user = j,
                                      .priority = j->prio,
                                      .key = k ? k->ek : NULL,
                                      .witnesses = ws,
                                      .n_partitions = n};
            st = engine_submit(d->engine, &eid, &spec, &e);
            free(ws);
        }
    }
    dmn_registry_put(&d->reg, k);
    if (st != CUZK_OK) {
        if (err)
            *err = e;
        dmn_job_finish_now(d, j, ENGINE_JOB_FAILED, &e);
        return st;
    }
    pthread_mutex_lock(&d->mu);
    j->eid = eid;
    if (dmn_map_put(&d->by_eid, eid, j) != 0) /* only the status page's busy device misses it */
        dmn_log(d, CONFIG_LOG_WARN, "job %llu: no memory for its index", (unsigned long long)j->id);
    /* The hooks may have flagged it already: the thread skipped it until now. */
    if (j->running_marks || j->settled)
        dmn_kick_locked(d);
    cancelled = j->cancel_requested;
    pthread_mutex_unlock(&d->mu); /* j may be finished and freed from here on */
    if (cancelled)
        engine_cancel(d->engine, eid, NULL);
    return CUZK_OK;
}

cuzk_status daemon_submit(daemon_t *d, uint64_t *job_id, int *existing, const daemon_request_t *req,
                          cuzk_error_t *err)
{
    if (job_id)
        *job_id = 0;
    if (existing)
        *existing = 0;
    if (!d || !job_id || !existing || !req)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_submit: NULL argument");
    engine_kind kind = req->kind;
    cuzk_status st = request_check(&kind, d, req, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&d->mu);
    int stopping = d->stopping;
    pthread_mutex_unlock(&d->mu);
    if (stopping)
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "daemon shutting down");
    cuzk_priority prio =
        req->priority == DAEMON_PRIO_BY_KIND ? daemon_kind_priority(kind) : req->priority;
    dmn_fil_t *fil = NULL;
    size_t n_parts = req->n_witnesses;
    if (req->filecoin) {
        if ((st = dmn_fil_new(&fil, kind, req->filecoin, err)) != CUZK_OK)
            return st;
        if ((st = dmn_registry_check_fil(&d->reg, fil->job, err)) != CUZK_OK) {
            dmn_fil_free(fil);
            return st;
        }
        n_parts = fil->n_parts;
    }
    const char *circuit =
        req->circuit_id && req->circuit_id[0] ? req->circuit_id : engine_kind_str(kind);
    uint64_t id = 0;
    int ex = 0;
    pthread_mutex_lock(&d->submit_mu);
    st = job_accept(d, &id, &ex, kind, prio, circuit, req, err);
    dmn_job_t *j = NULL;
    if (st == CUZK_OK && !ex)
        j = dmn_job_add(d, id, kind, prio, circuit, n_parts, journal_clock_ms(), 0);
    if (j) /* before any other thread can start it: only this one does */
        j->fil = fil;
    pthread_mutex_unlock(&d->submit_mu);
    if (!j)
        dmn_fil_free(fil);
    if (st != CUZK_OK)
        return st;
    *job_id = id;
    *existing = ex;
    if (ex)
        return CUZK_OK;
    if (!j) {
        cuzk_error_t e = {CUZK_ERR_NOMEM, "daemon_submit: no memory"};
        journal_finish(d->journal, id, ENGINE_JOB_FAILED, &e, NULL, 0, NULL, 0, NULL);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_submit: no memory");
    }
    dmn_log(d, CONFIG_LOG_DEBUG, "job %llu %s %s: accepted (%zu partitions, %s)",
            (unsigned long long)id, engine_kind_str(kind), circuit, n_parts,
            cuzk_priority_str(prio));
    return dmn_job_start(d, j, req->witnesses, req->n_witnesses, err);
}

/* ---- results ---- */

void daemon_result_free(daemon_result_t *r)
{
    if (!r)
        return;
    free(r->proof);
    free(r->public_signals);
    free(r->partitions);
    memset(r, 0, sizeof *r);
}

/* Copies r into out (bytes too, when r still has them). mu held. */
static cuzk_status result_from_done(daemon_result_t *out, const dmn_done_t *r, cuzk_error_t *err)
{
    out->job_id = r->id;
    out->kind = r->kind;
    out->state = r->state;
    out->error = r->error;
    memcpy(out->circuit_id, r->circuit, sizeof out->circuit_id);
    out->times = r->times;
    if (r->n_parts) {
        out->partitions = malloc(r->n_parts * sizeof *out->partitions);
        if (!out->partitions)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_await: no memory");
        memcpy(out->partitions, r->parts, r->n_parts * sizeof *out->partitions);
        out->n_partitions = r->n_parts;
    }
    if (r->proof_len) {
        if (!(out->proof = malloc(r->proof_len)))
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_await: no memory");
        memcpy(out->proof, r->proof, r->proof_len);
        out->proof_len = r->proof_len;
    }
    if (r->pub_len) {
        if (!(out->public_signals = malloc(r->pub_len)))
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_await: no memory");
        memcpy(out->public_signals, r->pub, r->pub_len);
        out->public_len = r->pub_len;
    }
    return CUZK_OK;
}

/* A finished job from the journal, its times from the ring when there. */
static cuzk_status result_from_journal(daemon_t *d, daemon_result_t *out, journal_job_t *jj,
                                       cuzk_error_t *err)
{
    out->job_id = jj->id;
    out->kind = (engine_kind)jj->kind;
    out->state = (engine_job_state)jj->state;
    out->error = jj->error;
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", jj->circuit_id);
    out->proof = jj->proof; /* taken */
    out->proof_len = jj->proof_len;
    out->public_signals = jj->public_signals;
    out->public_len = jj->public_len;
    jj->proof = jj->public_signals = NULL;
    if (jj->started_ms && jj->started_ms > jj->created_ms)
        out->times.queue_wait_ms = (uint64_t)(jj->started_ms - jj->created_ms);
    if (jj->finished_ms > jj->created_ms)
        out->times.total_ms = (uint64_t)(jj->finished_ms - jj->created_ms);
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&d->mu);
    const dmn_done_t *r = recent_find(d, jj->id);
    if (r) {
        out->times = r->times;
        if (r->n_parts && (out->partitions = malloc(r->n_parts * sizeof *out->partitions))) {
            memcpy(out->partitions, r->parts, r->n_parts * sizeof *out->partitions);
            out->n_partitions = r->n_parts;
        } else if (r->n_parts) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_await: no memory");
        }
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

static uint64_t deadline_of(int timeout_ms)
{
    return timeout_ms < 0 ? 0 : ledger_clock_ns() + (uint64_t)timeout_ms * 1000000u + 1;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    nanosleep(&ts, NULL);
}

cuzk_status daemon_await(daemon_t *d, daemon_result_t *out, uint64_t job_id, int timeout_ms,
                         cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!d || !out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_await: NULL argument");
    uint64_t deadline = deadline_of(timeout_ms);
    cuzk_status st;
    for (;;) {
        pthread_mutex_lock(&d->mu);
        dmn_job_t *j;
        while ((j = dmn_map_get(&d->by_id, job_id)) && !j->done && !d->stopping &&
               (!deadline || ledger_clock_ns() < deadline))
            sync_cond_wait_until(&d->done_cv, &d->mu, deadline);
        if (j && j->done) {
            st = result_from_done(out, j->done, err);
            pthread_mutex_unlock(&d->mu);
            if (st != CUZK_OK)
                daemon_result_free(out);
            return st;
        }
        int stopping = d->stopping;
        pthread_mutex_unlock(&d->mu);
        if (j && stopping)
            return cuzk_error_set(err, CUZK_ERR_CANCELLED, "daemon shutting down");
        if (j) {
            out->job_id = job_id;
            return cuzk_error_set(err, CUZK_ERR_TIMEOUT, "job %llu not finished after %d ms",
                                  (unsigned long long)job_id, timeout_ms);
        }
        journal_job_t jj;
        st = journal_get(d->journal, &jj, job_id, JOURNAL_GET_RESULT, err);
        if (st == CUZK_ERR_ARG)
            return cuzk_error_set(err, CUZK_ERR_ARG, "no job %llu (never accepted, or expired)",
                                  (unsigned long long)job_id);
        if (st != CUZK_OK)
            return st;
        if (jj.state >= ENGINE_JOB_DONE) {
            st = result_from_journal(d, out, &jj, err);
            journal_job_free(&jj);
            if (st != CUZK_OK)
                daemon_result_free(out);
            return st;
        }
        journal_job_free(&jj);
        /* Unfinished in the journal but not in the table: a submit between
         * its journal_accept and its table entry. Look again shortly. */
        if (deadline && ledger_clock_ns() >= deadline) {
            out->job_id = job_id;
            return cuzk_error_set(err, CUZK_ERR_TIMEOUT, "job %llu not finished after %d ms",
                                  (unsigned long long)job_id, timeout_ms);
        }
        if (stopping)
            return cuzk_error_set(err, CUZK_ERR_CANCELLED, "daemon shutting down");
        sleep_ms(2);
    }
}

cuzk_status daemon_prove(daemon_t *d, daemon_result_t *out, int *existing,
                         const daemon_request_t *req, int timeout_ms, cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (existing)
        *existing = 0;
    if (!d || !out || !req)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_prove: NULL argument");
    uint64_t id = 0;
    int ex = 0;
    cuzk_status st = daemon_submit(d, &id, &ex, req, err);
    if (existing)
        *existing = ex;
    if (!id)
        return st;
    return daemon_await(d, out, id, timeout_ms, err);
}

/* ---- cancel and info ---- */

cuzk_status daemon_cancel(daemon_t *d, int *was_running, uint64_t job_id, cuzk_error_t *err)
{
    if (was_running)
        *was_running = 0;
    if (!d)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_cancel: NULL argument");
    pthread_mutex_lock(&d->mu);
    dmn_job_t *j = dmn_map_get(&d->by_id, job_id);
    engine_job_id_t eid = 0;
    if (j && !j->done) {
        if (was_running)
            *was_running = j->state == ENGINE_JOB_RUNNING;
        j->cancel_requested = 1;
        eid = j->eid; /* the cancel settles it: on_done wakes the thread */
    }
    pthread_mutex_unlock(&d->mu);
    if (eid) {
        /* CUZK_ERR_ARG: the engine settled and the completion thread took
         * it meanwhile; it is finished either way. */
        engine_cancel(d->engine, eid, NULL);
        return CUZK_OK;
    }
    if (j)
        return CUZK_OK; /* the submit that is starting it sees the request */
    journal_job_t jj;
    cuzk_status st = journal_get(d->journal, &jj, job_id, 0, err);
    journal_job_free(&jj);
    if (st == CUZK_ERR_ARG)
        return cuzk_error_set(err, CUZK_ERR_ARG, "no job %llu (never accepted, or expired)",
                              (unsigned long long)job_id);
    return st;
}

cuzk_status daemon_job_info(daemon_t *d, daemon_job_info_t *out, uint64_t job_id, cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!d || !out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_job_info: NULL argument");
    out->job_id = job_id;
    out->device = -1;
    pthread_mutex_lock(&d->mu);
    dmn_job_t *j = dmn_map_get(&d->by_id, job_id);
    engine_job_id_t eid = 0;
    if (j) {
        out->kind = j->kind;
        out->priority = j->prio;
        out->state = j->done ? j->done->state : j->state;
        memcpy(out->circuit_id, j->circuit, sizeof out->circuit_id);
        out->n_partitions = j->n_partitions;
        out->device = j->device;
        eid = j->done ? 0 : j->eid;
        if (j->state == ENGINE_JOB_QUEUED && !j->done)
            for (const dmn_job_t *o = d->first; o && o != j; o = o->next)
                out->queue_position +=
                    o->state == ENGINE_JOB_QUEUED && !o->done && o->prio >= j->prio;
    }
    pthread_mutex_unlock(&d->mu);
    if (j) {
        engine_job_info_t ei;
        if (eid && engine_job_status(d->engine, &ei, eid, NULL) == CUZK_OK)
            out->partitions_done = ei.partitions_done;
        return CUZK_OK;
    }
    journal_job_t jj;
    cuzk_status st = journal_get(d->journal, &jj, job_id, 0, err);
    if (st == CUZK_ERR_ARG)
        return cuzk_error_set(err, CUZK_ERR_ARG, "no job %llu (never accepted, or expired)",
                              (unsigned long long)job_id);
    if (st != CUZK_OK)
        return st;
    out->kind = (engine_kind)jj.kind;
    out->priority = (cuzk_priority)jj.priority;
    out->state = (engine_job_state)jj.state;
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", jj.circuit_id);
    out->n_partitions = jj.n_inputs;
    out->partitions_done = jj.state == ENGINE_JOB_DONE ? jj.n_inputs : 0;
    journal_job_free(&jj);
    return CUZK_OK;
}
