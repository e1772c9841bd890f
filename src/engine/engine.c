/* The proving engine's API: configuration, jobs, results, statistics (see
 * include/cuzk/engine.h; the state and who owns it: engine_internal.h; the
 * threads: engine_pipeline.c).
 *
 * Job life: submit copies the inputs, takes a key reference and queues one
 * task per partition on the witness queue. A job is final once DONE, FAILED
 * or CANCELLED, and settled once final with nothing in flight (no task in a
 * witness stage or on a device, no verify running): only then are its
 * buffers and key reference dropped, its waiters woken, and it joins the
 * retained list, trimmed oldest first past max_retained. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine_internal.h"
#include "util/sync.h"

/* ---- names ---- */

const char *engine_stage_str(int stage)
{
    static const char *const names[ENGINE_STAGE_COUNT] = {"witness", "admit",  "prove", "verify",
                                                          "load",    "upload", "h",     "msm_a",
                                                          "msm_b",   "msm_l",  "msm_h"};
    return stage >= 0 && stage < ENGINE_STAGE_COUNT ? names[stage] : "invalid";
}

const char *engine_kind_str(int kind)
{
    static const char *const names[ENGINE_KIND_COUNT] = {
        "snarkjs", "bellperson", "porep", "snapdeals", "window-post", "winning-post"};
    return kind >= 0 && kind < ENGINE_KIND_COUNT ? names[kind] : "invalid";
}

const char *engine_job_state_str(int state)
{
    static const char *const names[] = {"queued", "running", "done", "failed", "cancelled"};
    return state >= 0 && state <= ENGINE_JOB_CANCELLED ? names[state] : "invalid";
}

const char *engine_warm_str(int warm)
{
    static const char *const names[] = {"none", "pending", "loading", "done", "failed"};
    return warm >= 0 && warm <= ENGINE_WARM_FAILED ? names[warm] : "invalid";
}

static const char *const pack_names[] = {"off", "auto", "always"};

const char *engine_witness_pack_str(int mode)
{
    return mode >= 0 && mode <= ENGINE_PACK_ALWAYS ? pack_names[mode] : "invalid";
}

int engine_witness_pack_parse(const char *name)
{
    for (int m = 0; name && m <= ENGINE_PACK_ALWAYS; m++)
        if (strcmp(name, pack_names[m]) == 0)
            return m;
    return -1;
}

/* ---- locking helpers ---- */

void eng_unlock(engine_t *e)
{
    engine_key_t *dead = e->dead_keys;
    eng_note_t *note = e->notes_first;
    e->dead_keys = NULL;
    e->notes_first = e->notes_last = NULL;
    pthread_mutex_unlock(&e->mu);
    while (dead) {
        engine_key_t *next = dead->next;
        if (dead->spec.destroy)
            dead->spec.destroy(dead->spec.destroy_ctx);
        free(dead);
        dead = next;
    }
    /* A job's events all ran before it settled, so its note comes last. */
    while (note) {
        eng_note_t *next = note->next;
        e->cfg.on_done(e->cfg.done_ctx, &note->done);
        free(note);
        note = next;
    }
}

void eng_reap(engine_t *e)
{
    if (e->dead_keys || e->notes_first) {
        eng_unlock(e);
        pthread_mutex_lock(&e->mu);
    }
}

/* Nothing owed may sleep with a waiter: an on_done left in the list while
 * every thread waits would never be delivered. */
void eng_wait(engine_t *e, pthread_cond_t *cv)
{
    if (e->dead_keys || e->notes_first)
        eng_reap(e); /* a wakeup: the caller re-checks */
    else
        pthread_cond_wait(cv, &e->mu);
}

int eng_wait_until(engine_t *e, pthread_cond_t *cv, uint64_t deadline)
{
    if (e->dead_keys || e->notes_first) {
        eng_reap(e);
        return 1;
    }
    return sync_cond_wait_until(cv, &e->mu, deadline);
}

void eng_emit(engine_t *e, const eng_job_t *job, int part, int dev, engine_stage stage, uint64_t t0,
              uint64_t t1, cuzk_status st)
{
    if (!e->cfg.on_event)
        return;
    engine_event_t ev = {job ? job->id : 0,
                         part,
                         dev,
                         stage,
                         engine_stage_str(stage),
                         t0,
                         t1,
                         st,
                         job ? job->user : NULL,
                         job ? engine_kind_str(job->kind) : NULL};
    e->cfg.on_event(e->cfg.event_ctx, &ev);
}

static uint64_t deadline_of(int timeout_ms)
{
    if (timeout_ms < 0)
        return 0;
    return ledger_clock_ns() + (uint64_t)timeout_ms * 1000000ull + 1;
}

/* ---- the job table (sorted by id: ids only grow) ---- */

static eng_job_t *job_find(const engine_t *e, engine_job_id_t id)
{
    size_t lo = 0, hi = e->n_jobs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->jobs[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < e->n_jobs && e->jobs[lo]->id == id ? e->jobs[lo] : NULL;
}

static int job_table_add(engine_t *e, eng_job_t *j)
{
    if (e->n_jobs == e->cap_jobs) {
        size_t cap = e->cap_jobs ? 2 * e->cap_jobs : 64;
        eng_job_t **p = realloc(e->jobs, cap * sizeof *p);
        if (!p)
            return 0;
        e->jobs = p;
        e->cap_jobs = cap;
    }
    e->jobs[e->n_jobs++] = j;
    return 1;
}

static void job_table_remove(engine_t *e, const eng_job_t *j)
{
    for (size_t i = 0; i < e->n_jobs; i++)
        if (e->jobs[i] == j) {
            memmove(&e->jobs[i], &e->jobs[i + 1], (e->n_jobs - i - 1) * sizeof *e->jobs);
            e->n_jobs--;
            return;
        }
}

/* ---- job life ---- */

void eng_task_free_buffers(eng_task_t *t)
{
    free(t->raw);
    t->raw = NULL;
    if (t->wpool)
        eng_hostpool_put(t->wpool, t->wcopy, t->w_bytes, t->wpool_hook);
    else
        free(t->wcopy);
    t->wcopy = NULL;
    t->wpool = NULL;
    wtns_free(&t->wt);
    t->w = NULL;
    fr_pack_free(&t->pack);
    t->packed = 0;
}

static void job_free(eng_job_t *j)
{
    if (!j)
        return;
    if (j->tasks)
        for (size_t i = 0; i < j->n; i++)
            eng_task_free_buffers(&j->tasks[i]);
    ledger_cancel_destroy(&j->cancel, NULL);
    free(j->tasks);
    free(j->proofs);
    free(j->inputs);
    free(j->note);
    free(j);
}

/* Drops j from the engine (settled, nobody awaiting it). */
static void job_drop(engine_t *e, eng_job_t *j)
{
    if (j->ret_prev)
        j->ret_prev->ret_next = j->ret_next;
    else
        e->ret_first = j->ret_next;
    if (j->ret_next)
        j->ret_next->ret_prev = j->ret_prev;
    else
        e->ret_last = j->ret_prev;
    e->n_retained--;
    job_table_remove(e, j);
    job_free(j);
}

static void retained_trim(engine_t *e)
{
    eng_job_t *j = e->ret_first;
    while (e->n_retained > e->cfg.max_retained && j) {
        eng_job_t *next = j->ret_next;
        if (!j->awaiting)
            job_drop(e, j);
        j = next;
    }
}

static void count_final(engine_t *e, const eng_job_t *j)
{
    if (j->state == ENGINE_JOB_DONE)
        e->done[j->kind]++;
    else if (j->state == ENGINE_JOB_FAILED)
        e->failed[j->kind]++;
    else
        e->cancelled[j->kind]++;
}

void eng_job_settle_maybe(engine_t *e, eng_job_t *j)
{
    if (!j->final || j->in_flight || j->settled)
        return;
    j->settled = 1;
    CUZK_ASSERT(e->unsettled > 0);
    j->done_ns = ledger_clock_ns();
    for (size_t i = 0; i < j->n; i++)
        eng_task_free_buffers(&j->tasks[i]);
    if (j->state != ENGINE_JOB_DONE) {
        free(j->proofs);
        j->proofs = NULL;
    }
    count_final(e, j);
    CUZK_ASSERT(!e->cfg.on_done || j->note); /* made at submit, taken once */
    if (j->note) {                           /* delivered by eng_unlock */
        j->note->done = (engine_done_t){j->id, (int)j->state, j->user};
        if (e->notes_last)
            e->notes_last->next = j->note;
        else
            e->notes_first = j->note;
        e->notes_last = j->note;
        j->note = NULL;
    }
    eng_key_unref(e, j->key);
    j->key = NULL;
    e->unsettled--;
    j->ret_prev = e->ret_last;
    j->ret_next = NULL;
    if (e->ret_last)
        e->ret_last->ret_next = j;
    else
        e->ret_first = j;
    e->ret_last = j;
    e->n_retained++;
    retained_trim(e);
    pthread_cond_broadcast(&e->done_cv);
}

/* Final as FAILED or CANCELLED: queued tasks dropped, waits ended. */
static void job_stop(engine_t *e, eng_job_t *j, engine_job_state state, const cuzk_error_t *why)
{
    if (j->final)
        return;
    j->final = 1;
    j->state = state;
    j->error = *why;
    for (size_t i = 0; i < j->n; i++) {
        eng_task_t *t = &j->tasks[i];
        if (t->where == TASK_WITNESS_Q) {
            eng_queue_remove(&e->witness_q, t);
        } else if (t->where == TASK_READY_Q) {
            eng_queue_remove(&e->ready_q, t);
            e->ready_count--;
            e->ready_bytes -= t->w_bytes;
        } else {
            continue;
        }
        t->where = TASK_DROPPED;
        eng_task_free_buffers(t);
    }
    ledger_cancel(&j->cancel);
    pthread_cond_broadcast(&e->witness_cv);
    pthread_cond_broadcast(&e->ready_cv);
    eng_job_settle_maybe(e, j);
}

void eng_job_fail(engine_t *e, eng_job_t *j, const cuzk_error_t *why)
{
    job_stop(e, j, ENGINE_JOB_FAILED, why);
}

/* ---- configuration ---- */

void engine_config_default(engine_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->witness_threads = 2;
    cfg->critical_lane = 1;
    cfg->stage_threads = 1;
    cfg->prove_threads = 0;
    cfg->ready_max = 4;
    cfg->ready_bytes_max = 0;
    cfg->aging_ns = LEDGER_AGING_DEFAULT_NS;
    cfg->max_retries = 1;
    cfg->retry = ENGINE_RETRY_OTHER_DEVICE;
    cfg->max_retained = 1024;
    cfg->witness_pack = ENGINE_PACK_AUTO;
}

static cuzk_status check_config(const engine_config_t *c, cuzk_error_t *err)
{
    if (!c->devices || c->n_devices < 1 || c->n_devices > ENGINE_MAX_DEVICES)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: n_devices %u (1..%d, devices set)",
                              c->n_devices, ENGINE_MAX_DEVICES);
    if (c->witness_threads < 1 || c->witness_threads > 256)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: witness_threads %d (1..256)",
                              c->witness_threads);
    if (c->critical_lane != 0 && c->critical_lane != 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: critical_lane %d (0 or 1)",
                              c->critical_lane);
    if (c->ready_max < 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: ready_max 0 (>= 1)");
    if (c->witness_nice < 0 || c->witness_nice > 19)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: witness_nice %d (0..19)",
                              c->witness_nice);
    if (c->max_retained < 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: max_retained 0 (>= 1)");
    if (c->retry != ENGINE_RETRY_ANY_DEVICE && c->retry != ENGINE_RETRY_OTHER_DEVICE)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: retry %d (an engine_retry)",
                              (int)c->retry);
    for (unsigned i = 0; i < c->n_devices; i++) {
        const device_t *d = &c->devices[i];
        if (d->workers < 1 || d->workers > 64 || !d->backend_new || !d->backend_free || !d->plan)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "engine_new: device %u: workers %d (1..64) and backend_new, "
                                  "backend_free, plan required",
                                  i, d->workers);
    }
    return CUZK_OK;
}

static void engine_stop_threads(engine_t *e)
{
    pthread_mutex_lock(&e->mu);
    e->stopping = 1;
    pthread_cond_broadcast(&e->witness_cv);
    pthread_cond_broadcast(&e->ready_cv);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_pool; i++)
        pthread_join(e->pool[i], NULL);
    e->n_pool = 0;
    for (unsigned d = 0; d < e->n_devs; d++)
        for (int w = 0; w < e->devs[d].n_workers; w++)
            if (e->devs[d].workers[w].started) {
                pthread_join(e->devs[d].workers[w].tid, NULL);
                e->devs[d].workers[w].started = 0;
            }
}

/* Frees what engine_new made; threads already joined. */
static void engine_free(engine_t *e)
{
    while (e->ret_first)
        job_drop(e, e->ret_first);
    for (size_t i = 0; i < e->n_jobs; i++)
        job_free(e->jobs[i]); /* only unsettled ones on a failed engine_new: none */
    free(e->jobs);
    pthread_mutex_lock(&e->mu);
    while (e->keys) {
        engine_key_t *k = e->keys;
        k->refs = 1;
        eng_key_unref(e, k);
    }
    eng_unlock(e);
    for (unsigned d = 0; d < e->n_devs; d++) {
        if (e->devs[d].ledger_ok)
            ledger_destroy(&e->devs[d].ledger, NULL);
        free(e->devs[d].workers);
        free(e->devs[d].drains);
    }
    free(e->devs);
    free(e->pool);
    eng_hostpool_destroy(&e->wpool);
    pthread_cond_destroy(&e->witness_cv);
    pthread_cond_destroy(&e->ready_cv);
    pthread_cond_destroy(&e->done_cv);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

static cuzk_status engine_start(engine_t *e, const device_t *devices, cuzk_error_t *err)
{
    const engine_config_t *c = &e->cfg;
    e->devs = calloc(c->n_devices, sizeof *e->devs);
    e->pool = calloc((size_t)c->witness_threads + 1, sizeof *e->pool); /* + the lane */
    if (!e->devs || !e->pool)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: no memory");
    e->n_devs = c->n_devices;
    for (unsigned i = 0; i < e->n_devs; i++) {
        eng_device_t *d = &e->devs[i];
        d->e = e;
        d->index = (int)i;
        d->d = devices[i];
        snprintf(d->name, sizeof d->name, "%s", d->d.name ? d->d.name : "device");
        d->d.name = d->name;
        cuzk_status st = ledger_init(&d->ledger, d->d.vram_capacity, err);
        if (st != CUZK_OK)
            return st;
        d->ledger_ok = 1;
        if ((st = ledger_set_aging(&d->ledger, c->aging_ns, err)) != CUZK_OK)
            return st;
        int n = d->d.workers + (c->critical_lane ? 1 : 0); /* the lane's last */
        CUZK_ASSERT(n <= ENG_WORKERS_MAX);
        d->workers = calloc((size_t)n, sizeof *d->workers);
        d->drains = calloc((size_t)n, sizeof *d->drains);
        if (!d->workers || !d->drains)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: no memory");
        d->n_workers = n;
    }
    for (unsigned i = 0; i < e->n_devs; i++)
        for (int w = 0; w < e->devs[i].n_workers; w++) {
            eng_worker_t *wk = &e->devs[i].workers[w];
            wk->dev = &e->devs[i];
            wk->index = w;
            wk->lane = w >= e->devs[i].d.workers;
            if (pthread_create(&wk->tid, NULL, eng_worker_main, wk) != 0)
                return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: cannot start a worker");
            wk->started = 1;
        }
    for (int i = 0; i < c->witness_threads; i++) {
        if (pthread_create(&e->pool[i], NULL, eng_pool_main, e) != 0)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: cannot start a pool thread");
        e->n_pool++;
    }
    if (c->critical_lane) {
        if (pthread_create(&e->pool[e->n_pool], NULL, eng_lane_main, e) != 0)
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "engine_new: cannot start the critical lane");
        e->n_pool++;
    }
    return CUZK_OK;
}

cuzk_status engine_new(engine_t **out, const engine_config_t *cfg, cuzk_error_t *err)
{
    if (!out || !cfg)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_new: NULL argument");
    *out = NULL;
    cuzk_status st = check_config(cfg, err);
    if (st != CUZK_OK)
        return st;
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: no memory");
    if (pthread_mutex_init(&e->mu, NULL) != 0) {
        free(e);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: cannot create a mutex");
    }
    if (pthread_cond_init(&e->witness_cv, NULL) != 0 ||
        pthread_cond_init(&e->ready_cv, NULL) != 0 || sync_cond_init_monotonic(&e->done_cv) != 0) {
        pthread_mutex_destroy(&e->mu);
        free(e);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_new: cannot create a condition");
    }
    e->cfg = *cfg;
    e->cfg.devices = NULL; /* copied into e->devs */
    if (e->cfg.stage_threads <= 0)
        e->cfg.stage_threads = 1;
    e->next_id = 1;
    e->pack = cfg->witness_pack == ENGINE_PACK_ALWAYS;
    if (cfg->witness_pack == ENGINE_PACK_AUTO) {
        e->pack = cfg->n_devices > 0;
        for (unsigned d = 0; d < cfg->n_devices; d++)
            e->pack &= cfg->devices[d].takes_packed != 0;
    }
    /* Packing lowers the count kept by itself: buffers are made when
     * needed, and packed witnesses give theirs back as soon as they are
     * made (a whole one, a PoSt's, still holds one while it waits). */
    unsigned keep = cfg->witness_buffers;
    if (!keep) { /* every buffer that can be in use at once: ready_max counts
                    the ones being witnessed too; the lanes (pool and devices)
                    one more each */
        keep = cfg->ready_max;
        for (unsigned d = 0; d < cfg->n_devices; d++)
            keep += (unsigned)cfg->devices[d].workers + (cfg->critical_lane ? 1u : 0u);
        keep += cfg->critical_lane ? 1u : 0u;
    }
    eng_hostpool_init(&e->wpool, cfg, cfg->devices, keep);
    if ((st = engine_start(e, cfg->devices, err)) != CUZK_OK) {
        engine_stop_threads(e);
        engine_free(e);
        return st;
    }
    *out = e;
    return CUZK_OK;
}

void engine_destroy(engine_t *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    e->closing = 1;
    cuzk_error_t why;
    cuzk_error_set(&why, CUZK_ERR_CANCELLED, "engine shut down");
    for (size_t i = 0; i < e->n_jobs; i++)
        job_stop(e, e->jobs[i], ENGINE_JOB_CANCELLED, &why);
    while (e->unsettled)
        eng_wait(e, &e->done_cv);
    eng_unlock(e);
    engine_stop_threads(e);
    engine_free(e);
}

cuzk_status engine_drain(engine_t *e, int timeout_ms, cuzk_error_t *err)
{
    if (!e)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_drain: NULL engine");
    uint64_t deadline = deadline_of(timeout_ms);
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&e->mu);
    while (e->unsettled)
        if (!eng_wait_until(e, &e->done_cv, deadline)) {
            st = cuzk_error_set(err, CUZK_ERR_TIMEOUT,
                                "engine_drain: %u jobs unfinished after %d ms", e->unsettled,
                                timeout_ms);
            break;
        }
    eng_unlock(e);
    return st;
}

/* ---- submit ---- */

static cuzk_status check_spec(const engine_job_spec_t *s, cuzk_error_t *err)
{
    if ((int)s->kind < 0 || (int)s->kind >= ENGINE_KIND_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_submit: unknown kind %d", (int)s->kind);
    if ((int)s->priority < 0 || (int)s->priority >= CUZK_PRIO_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_submit: priority %d", (int)s->priority);
    if (!s->key)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_submit: no key");
    const groth16_pk_t *pk = s->key->spec.pk;
    groth16_convention want = s->kind == ENGINE_KIND_SNARKJS ? GROTH16_SNARKJS : GROTH16_BELLPERSON;
    if (pk->conv != want)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_submit: a %s job with a %s key",
                              engine_kind_str(s->kind),
                              pk->conv == GROTH16_SNARKJS ? "snarkjs" : "bellperson");
    if (!s->witnesses || s->n_partitions == 0 ||
        (s->kind == ENGINE_KIND_SNARKJS && s->n_partitions != 1))
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_submit: %zu witnesses (%s jobs take %s)",
                              s->n_partitions, engine_kind_str(s->kind),
                              s->kind == ENGINE_KIND_SNARKJS ? "exactly one" : "at least one");
    for (size_t i = 0; i < s->n_partitions; i++) {
        const engine_witness_t *w = &s->witnesses[i];
        if (w->form == ENGINE_WITNESS_WTNS && w->wtns && w->size)
            continue;
        if (w->form == ENGINE_WITNESS_FR && w->w && w->n == pk->n_vars)
            continue;
        if (w->form == ENGINE_WITNESS_FN && w->fn)
            continue;
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "engine_submit: partition %zu: witness %s (expected .wtns bytes, "
                              "%u fr_t values or a generator)",
                              i, w->form == ENGINE_WITNESS_FR ? "of the wrong length" : "missing",
                              pk->n_vars);
    }
    return CUZK_OK;
}

/* The job with its inputs copied, not yet in the engine. */
static cuzk_status job_make(const engine_t *e, eng_job_t **out, const engine_job_spec_t *s,
                            cuzk_error_t *err)
{
    eng_job_t *j = calloc(1, sizeof *j);
    const groth16_pk_t *pk = s->key->spec.pk;
    size_t n = s->n_partitions;
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_submit: no memory");
    *out = j;
    j->kind = s->kind;
    j->prio = s->priority;
    j->n = n;
    j->n_public = pk->n_public;
    j->user = s->user;
    j->fixed_rs = s->fixed_rs;
    j->r = s->r;
    j->s = s->s;
    j->tasks = calloc(n, sizeof *j->tasks);
    j->proofs = calloc(n, sizeof *j->proofs);
    j->inputs = calloc(n * (pk->n_public ? pk->n_public : 1), sizeof *j->inputs);
    if (!j->tasks || !j->proofs || !j->inputs)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_submit: no memory");
    if (ledger_cancel_init(&j->cancel, err) != CUZK_OK)
        return CUZK_ERR_NOMEM;
    if (e->cfg.on_done && !(j->note = calloc(1, sizeof *j->note)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_submit: no memory");
    for (size_t i = 0; i < n; i++) {
        eng_task_t *t = &j->tasks[i];
        const engine_witness_t *w = &s->witnesses[i];
        t->job = j;
        t->index = (uint32_t)i;
        t->prio = s->priority;
        t->form = w->form;
        t->skip_dev = -1;
        t->tm.device = -1;
        t->w_bytes = (size_t)pk->n_vars * sizeof(fr_t);
        if (w->form == ENGINE_WITNESS_WTNS) {
            t->raw = malloc(w->size);
            t->raw_size = w->size;
            if (t->raw)
                memcpy(t->raw, w->wtns, w->size);
        } else if (w->form == ENGINE_WITNESS_FN) {
            t->fn = w->fn; /* the buffer is made in the witness stage */
            t->fn_ctx = w->ctx;
            t->pack_fn = w->pack_fn;
            continue;
        } else {
            t->wcopy = malloc(w->n * sizeof *w->w);
            if (t->wcopy)
                memcpy(t->wcopy, w->w, w->n * sizeof *w->w);
        }
        if (!t->raw && !t->wcopy)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_submit: no memory for witness %zu",
                                  i);
    }
    return CUZK_OK;
}

cuzk_status engine_submit(engine_t *e, engine_job_id_t *job_id, const engine_job_spec_t *spec,
                          cuzk_error_t *err)
{
    if (job_id)
        *job_id = 0;
    if (!e || !job_id || !spec)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_submit: NULL argument");
    cuzk_status st = check_spec(spec, err);
    if (st != CUZK_OK)
        return st;
    eng_job_t *j = NULL;
    if ((st = job_make(e, &j, spec, err)) != CUZK_OK) {
        job_free(j);
        return st;
    }
    pthread_mutex_lock(&e->mu);
    if (e->closing) {
        st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "engine_submit: the engine is shutting down");
    } else if (!job_table_add(e, j)) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_submit: no memory");
    } else {
        j->id = e->next_id++;
        j->key = spec->key;
        eng_key_ref(j->key);
        j->submit_ns = ledger_clock_ns();
        j->state = ENGINE_JOB_QUEUED;
        for (size_t i = 0; i < j->n; i++)
            eng_queue_push(&e->witness_q, &j->tasks[i], j->submit_ns, &e->seq);
        e->unsettled++;
        e->submitted[j->kind]++;
        *job_id = j->id;
        pthread_cond_broadcast(&e->witness_cv);
        j = NULL; /* the engine's now */
    }
    eng_unlock(e);
    job_free(j);
    return st;
}

/* ---- await, cancel, status ---- */

static cuzk_status result_copy(engine_result_t *out, const eng_job_t *j, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->id = j->id;
    out->kind = j->kind;
    out->state = j->state;
    out->error = j->error;
    out->n_partitions = j->n;
    out->n_public = j->n_public;
    out->verify_ns = j->verify_ns;
    out->submit_ns = j->submit_ns;
    out->done_ns = j->done_ns;
    out->timings = calloc(j->n, sizeof *out->timings);
    if (!out->timings)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_await: no memory");
    for (size_t i = 0; i < j->n; i++)
        out->timings[i] = j->tasks[i].tm;
    if (j->state != ENGINE_JOB_DONE) {
        if (err)
            *err = j->error;
        return j->error.code != CUZK_OK ? j->error.code : CUZK_ERR_INTERNAL;
    }
    out->proofs = malloc(j->n * sizeof *out->proofs);
    out->public_inputs = malloc((j->n_public ? j->n * j->n_public : 1) * sizeof(fr_t));
    if (!out->proofs || !out->public_inputs) {
        engine_result_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_await: no memory");
    }
    memcpy(out->proofs, j->proofs, j->n * sizeof *out->proofs);
    memcpy(out->public_inputs, j->inputs, j->n * j->n_public * sizeof(fr_t));
    return CUZK_OK;
}

cuzk_status engine_await(engine_t *e, engine_job_id_t job_id, int timeout_ms, engine_result_t *out,
                         cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!e || !out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_await: NULL argument");
    uint64_t deadline = deadline_of(timeout_ms);
    pthread_mutex_lock(&e->mu);
    eng_job_t *j = job_find(e, job_id);
    cuzk_status st = CUZK_OK;
    if (!j) {
        st = cuzk_error_set(err, CUZK_ERR_ARG, "engine_await: no job %llu (unknown or dropped)",
                            (unsigned long long)job_id);
        eng_unlock(e);
        return st;
    }
    j->awaiting++;
    while (!j->settled)
        if (!eng_wait_until(e, &e->done_cv, deadline))
            break;
    j->awaiting--;
    if (!j->settled)
        st = cuzk_error_set(err, CUZK_ERR_TIMEOUT, "engine_await: job %llu not done after %d ms",
                            (unsigned long long)job_id, timeout_ms);
    else
        st = result_copy(out, j, err);
    retained_trim(e);
    eng_unlock(e);
    return st;
}

void engine_result_free(engine_result_t *r)
{
    if (!r)
        return;
    free(r->proofs);
    free(r->public_inputs);
    free(r->timings);
    memset(r, 0, sizeof *r);
}

cuzk_status engine_cancel(engine_t *e, engine_job_id_t job_id, cuzk_error_t *err)
{
    if (!e)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_cancel: NULL engine");
    pthread_mutex_lock(&e->mu);
    eng_job_t *j = job_find(e, job_id);
    cuzk_status st = CUZK_OK;
    if (!j) {
        st = cuzk_error_set(err, CUZK_ERR_ARG, "engine_cancel: no job %llu",
                            (unsigned long long)job_id);
    } else {
        cuzk_error_t why;
        cuzk_error_set(&why, CUZK_ERR_CANCELLED, "job %llu cancelled", (unsigned long long)job_id);
        job_stop(e, j, ENGINE_JOB_CANCELLED, &why);
    }
    eng_unlock(e);
    return st;
}

cuzk_status engine_job_forget(engine_t *e, engine_job_id_t job_id, cuzk_error_t *err)
{
    if (!e)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_job_forget: NULL engine");
    pthread_mutex_lock(&e->mu);
    eng_job_t *j = job_find(e, job_id);
    cuzk_status st = CUZK_OK;
    if (!j)
        st = cuzk_error_set(err, CUZK_ERR_ARG, "engine_job_forget: no job %llu",
                            (unsigned long long)job_id);
    else if (!j->settled || j->awaiting)
        st = cuzk_error_set(err, CUZK_ERR_BUSY, "engine_job_forget: job %llu is not settled",
                            (unsigned long long)job_id);
    else
        job_drop(e, j);
    eng_unlock(e);
    return st;
}

cuzk_status engine_job_status(engine_t *e, engine_job_info_t *out, engine_job_id_t job_id,
                              cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!e || !out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_job_status: NULL argument");
    pthread_mutex_lock(&e->mu);
    eng_job_t *j = job_find(e, job_id);
    cuzk_status st = CUZK_OK;
    if (!j) {
        st = cuzk_error_set(err, CUZK_ERR_ARG, "engine_job_status: no job %llu",
                            (unsigned long long)job_id);
    } else {
        *out = (engine_job_info_t){.id = j->id,
                                   .kind = j->kind,
                                   .priority = j->prio,
                                   .state = j->state,
                                   .settled = j->settled,
                                   .n_partitions = j->n,
                                   .partitions_witnessed = j->witnessed,
                                   .partitions_done = j->proved,
                                   .in_flight = j->in_flight,
                                   .error = j->error,
                                   .submit_ns = j->submit_ns,
                                   .done_ns = j->done_ns};
    }
    eng_unlock(e);
    return st;
}

void engine_stats(engine_t *e, engine_stats_t *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    for (int k = 0; k < ENGINE_KIND_COUNT; k++) {
        out->kinds[k].submitted = e->submitted[k];
        out->kinds[k].done = e->done[k];
        out->kinds[k].failed = e->failed[k];
        out->kinds[k].cancelled = e->cancelled[k];
    }
    for (size_t i = 0; i < e->n_jobs; i++) {
        const eng_job_t *j = e->jobs[i];
        if (j->final)
            continue;
        if (j->state == ENGINE_JOB_QUEUED)
            out->kinds[j->kind].queued++;
        else
            out->kinds[j->kind].running++;
    }
    for (int p = 0; p < CUZK_PRIO_COUNT; p++) {
        out->witness_queue[p] = e->witness_q.n[p];
        out->ready_queue[p] = e->ready_q.n[p];
    }
    out->ready_bytes = e->ready_bytes;
    out->witness_pool_bytes =
        eng_hostpool_bytes(&e->wpool, &out->witness_pool_buffers, &out->host_alloc_bytes);
    out->witnesses_packed = e->packed;
    out->packed_bytes = e->packed_bytes;
    out->witnessing = e->witnessing;
    out->verifying = e->verifying;
    out->jobs_retained = e->n_retained;
    out->keys = e->n_keys;
    out->n_devices = e->n_devs;
    for (unsigned d = 0; d < e->n_devs; d++) {
        const eng_device_t *dev = &e->devs[d];
        engine_device_stats_t *ds = &out->devices[d];
        memcpy(ds->name, dev->name, sizeof ds->name);
        ledger_stats(&dev->ledger, &ds->ledger);
        ds->workers = (unsigned)dev->d.workers;
        ds->busy_workers = dev->busy;
        ds->idle_workers = dev->idle;
        ds->lane_workers = (unsigned)(dev->n_workers - dev->d.workers);
        ds->lane_busy = dev->lane_busy;
        ds->proofs = dev->proofs;
        ds->failures = dev->failures;
        ds->streamed = dev->streamed;
        ds->evictions = dev->evictions;
        for (const engine_key_t *k = e->keys; k; k = k->next)
            ds->resident_keys += k->dev[d].resv.ledger != NULL;
    }
    eng_unlock(e);
}
