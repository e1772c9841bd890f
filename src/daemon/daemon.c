/* The daemon's lifetime, the engine's hooks, the completion thread and
 * resume (include/cuzk/daemon.h; owners and locks: daemon_internal.h).
 *
 * DESIGN. Every engine job carries its dmn_job_t as the spec's user
 * pointer, so both engine hooks reach the job without a lookup. The event
 * hook notes partitions admitted to a device (journal_mark_running owed);
 * the engine's on_done, called once when the job settles and after all of
 * its events, marks it settled. Both only set flags under mu and wake the
 * completion thread, which owns the journal from then on: it marks running,
 * collects each settled job with engine_await (at once: it is final) and
 * journals its end. Nothing polls the engine: the thread sleeps until it is
 * woken, or until the next result expiry or the retry of a journal write
 * that failed (DMN_RETRY_MS). A job that settles before its submit filed
 * its eid waits, flagged, until the submit files it and wakes the thread. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/parallel.h"
#include "daemon/daemon_internal.h"
#include "util/sync.h"

#define NS_PER_MS 1000000ull

/* ---- logging ---- */

void dmn_log(daemon_t *d, config_log_level level, const char *fmt, ...)
{
    if (!d || level > d->cfg.logging.level)
        return;
    static const char *const names[] = {"error", "warn", "info", "debug"};
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (d->cfg.logging.format == CONFIG_LOG_JSON) {
        cJSON *o = cJSON_CreateObject();
        char *line = NULL;
        if (o && cJSON_AddNumberToObject(o, "ts_ms", (double)journal_clock_ms()) &&
            cJSON_AddStringToObject(o, "level", names[level]) &&
            cJSON_AddStringToObject(o, "msg", msg))
            line = cJSON_PrintUnformatted(o);
        if (line)
            fprintf(stderr, "%s\n", line);
        free(line);
        cJSON_Delete(o);
        return;
    }
    fprintf(stderr, "cuzk daemon: %s: %s\n", names[level], msg);
}

/* ---- the hook ---- */

void dmn_kick_locked(daemon_t *d)
{
    d->kick = 1;
    pthread_cond_signal(&d->work_cv);
}

void dmn_on_event(void *ctx, const engine_event_t *ev)
{
    daemon_t *d = ctx;
    if (d->events)
        eventlog_engine_hook(d->events, ev);
    if ((unsigned)ev->stage < ENGINE_STAGE_COUNT && ev->end_ns >= ev->start_ns)
        metrics_observe(d->s_stage[ev->stage], (double)(ev->end_ns - ev->start_ns) / 1e9);
    int on_device = ev->device >= 0 && (unsigned)ev->device < d->n_devices;
    int admitted = ev->stage == ENGINE_STAGE_ADMIT && ev->status == CUZK_OK && on_device;
    dmn_job_t *j = ev->user; /* valid until its on_done: the events come first */
    pthread_mutex_lock(&d->mu);
    if (on_device) {
        dmn_busy_t *b = &d->busy[ev->device];
        if (admitted) {
            b->inflight++;
            b->current = ev->job;
        } else if (ev->stage == ENGINE_STAGE_PROVE) {
            if (b->inflight && --b->inflight == 0)
                b->current = 0;
            dmn_busy_add(b, ev->start_ns, ev->end_ns);
        }
    }
    if (admitted && j) {
        j->running_marks++;
        j->device = ev->device;
        j->state = ENGINE_JOB_RUNNING;
        if (!j->first_admit_ns)
            j->first_admit_ns = ev->end_ns;
        dmn_kick_locked(d);
    }
    pthread_mutex_unlock(&d->mu);
}

void dmn_on_done(void *ctx, const engine_done_t *done)
{
    daemon_t *d = ctx;
    dmn_job_t *j = done->user;
    pthread_mutex_lock(&d->mu);
    CUZK_ASSERT(j && !j->settled); /* every daemon job carries itself, and ends once */
    if (j) {
        j->settled = 1;
        dmn_kick_locked(d);
    }
    pthread_mutex_unlock(&d->mu);
}

/* ---- the completion thread ---- */

typedef struct work {
    dmn_job_t *j;
    uint64_t id;
    engine_job_id_t eid;
    unsigned marks;
    int retry, settled;
} work_t;

static uint64_t expire_period_ns(const daemon_t *d)
{
    uint64_t ms = d->cfg.daemon.result_ttl_ms / 4;
    if (ms < 100)
        ms = 100;
    if (ms > DAEMON_EXPIRE_PERIOD_MS)
        ms = DAEMON_EXPIRE_PERIOD_MS;
    return ms * NS_PER_MS;
}

/* One settled engine job: its result collected and journaled. */
static void work_job(daemon_t *d, const work_t *w)
{
    engine_result_t res;
    memset(&res, 0, sizeof res);
    /* Final already (on_done came): no wait. A result the engine no longer
     * retains leaves res zeroed, which collect journals as a failure. */
    engine_await(d->engine, w->eid, 0, &res, NULL);
    engine_job_forget(d->engine, w->eid, NULL);
    dmn_job_collect(d, w->j, &res); /* frees w->j */
    engine_result_free(&res);
}

static void work_run(daemon_t *d, const work_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < w[i].marks; k++) {
            cuzk_error_t e = {0};
            cuzk_status st = journal_mark_running(d->journal, w[i].id, &e);
            if (st != CUZK_OK && st != CUZK_ERR_ARG)
                dmn_log(d, CONFIG_LOG_WARN, "job %llu: journal: %s", (unsigned long long)w[i].id,
                        e.msg);
        }
        if (w[i].retry) {
            pthread_mutex_lock(&d->mu);
            dmn_done_t *r = w[i].j->done;
            w[i].j->done = NULL;
            pthread_mutex_unlock(&d->mu);
            dmn_job_publish(d, w[i].j, r);
        } else if (w[i].settled) {
            work_job(d, &w[i]);
        }
    }
}

/* mu held. The jobs this pass looks at: marks owed, settled, and (retry)
 * results whose journal write failed; *n of them (NULL: none, or no
 * memory, which leaves the flags for the next pass). */
static work_t *work_gather(daemon_t *d, int retry, size_t *n)
{
    *n = 0;
    if (!d->n_jobs)
        return NULL;
    work_t *w = malloc(d->n_jobs * sizeof *w);
    if (!w)
        return NULL;
    for (dmn_job_t *j = d->first; j; j = j->next) {
        if (!j->eid && !j->done)
            continue; /* its submitter owns it */
        if (j->done && !retry)
            continue; /* a failed journal write: retried every DMN_RETRY_MS */
        if (!(j->running_marks || j->done || j->settled))
            continue;
        w[(*n)++] = (work_t){j, j->id, j->eid, j->running_marks, j->done != NULL, j->settled};
        j->running_marks = 0;
        j->settled = 0; /* collected by this pass (and freed) */
    }
    return w;
}

static void expire(daemon_t *d)
{
    size_t removed = 0;
    cuzk_error_t e = {0};
    if (journal_expire(d->journal, &removed, journal_clock_ms(),
                       (int64_t)d->cfg.daemon.result_ttl_ms, &e) != CUZK_OK)
        dmn_log(d, CONFIG_LOG_WARN, "journal_expire: %s", e.msg);
    else if (removed)
        dmn_log(d, CONFIG_LOG_DEBUG, "expired %zu finished jobs", removed);
}

static void *completion_main(void *arg)
{
    daemon_t *d = arg;
    uint64_t now = ledger_clock_ns();
    uint64_t next_retry = now + DMN_RETRY_MS * NS_PER_MS, next_expire = now + expire_period_ns(d);
    pthread_mutex_lock(&d->mu);
    for (;;) {
        while (!d->kick && !d->thread_stop) {
            uint64_t wake = next_retry < next_expire ? next_retry : next_expire;
            if (ledger_clock_ns() >= wake)
                break;
            sync_cond_wait_until(&d->work_cv, &d->mu, wake);
        }
        int stop = d->thread_stop;
        d->kick = 0;
        now = ledger_clock_ns();
        int retry = stop || now >= next_retry;
        if (retry)
            next_retry = now + DMN_RETRY_MS * NS_PER_MS;
        size_t n;
        work_t *w = work_gather(d, retry, &n);
        pthread_mutex_unlock(&d->mu);
        work_run(d, w, n);
        free(w);
        if (now >= next_expire) {
            expire(d);
            next_expire = ledger_clock_ns() + expire_period_ns(d);
        }
        pthread_mutex_lock(&d->mu);
        if (stop)
            break;
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* ---- resume ---- */

static void resume_fail(daemon_t *d, uint64_t id, const char *what, const char *detail)
{
    cuzk_error_t why;
    cuzk_error_set(&why, CUZK_ERR_ARG, "%s: %s", what, detail);
    cuzk_error_t e = {0};
    if (journal_finish(d->journal, id, ENGINE_JOB_FAILED, &why, NULL, 0, NULL, 0, &e) != CUZK_OK)
        dmn_log(d, CONFIG_LOG_ERROR, "job %llu: journal: %s", (unsigned long long)id, e.msg);
    dmn_log(d, CONFIG_LOG_WARN, "job %llu: not resumed: %s", (unsigned long long)id, why.msg);
}

/* A journaled Filecoin job rebuilt from its header and vanilla proofs
 * (daemon_jobs.c job_accept), judged again as at submit. NULL with *why
 * set when it cannot be. */
static dmn_fil_t *resume_fil(const journal_job_t *jj, cuzk_error_t *why)
{
    daemon_filecoin_t f;
    if (jj->n_inputs < 2 || jj->inputs[0].ref) {
        cuzk_error_set(why, CUZK_ERR_FORMAT,
                       "a Filecoin job of %zu inputs (a header and vanilla "
                       "proofs expected)",
                       jj->n_inputs);
        return NULL;
    }
    if (dmn_fil_header_read(&f, jj->inputs[0].data, jj->inputs[0].len, why) != CUZK_OK)
        return NULL;
    daemon_blob_t *v = calloc(jj->n_inputs - 1, sizeof *v);
    if (!v) {
        cuzk_error_set(why, CUZK_ERR_NOMEM, "no memory");
        return NULL;
    }
    for (size_t i = 1; i < jj->n_inputs; i++)
        v[i - 1] = (daemon_blob_t){jj->inputs[i].data, jj->inputs[i].len};
    f.vanilla = v;
    f.n_vanilla = jj->n_inputs - 1;
    dmn_fil_t *x = NULL;
    dmn_fil_new(&x, (engine_kind)jj->kind, &f, why);
    free(v);
    return x;
}

static void resume_one(daemon_t *d, uint64_t id)
{
    journal_job_t jj;
    cuzk_error_t e = {0};
    cuzk_status st = journal_get(d->journal, &jj, id, JOURNAL_GET_INPUTS, &e);
    if (st == CUZK_ERR_ARG)
        return; /* expired or finished meanwhile */
    if (st != CUZK_OK) {
        resume_fail(d, id, "resume: inputs unreadable", e.msg);
        return;
    }
    daemon_blob_t *w = calloc(jj.n_inputs ? jj.n_inputs : 1, sizeof *w);
    size_t n = 0;
    const char *bad = !w ? "no memory" : NULL;
    if (!d->cfg.daemon.resume)
        bad = "daemon.resume is off";
    else if (jj.kind < 0 || jj.kind >= ENGINE_KIND_COUNT || jj.priority < 0 ||
             jj.priority >= CUZK_PRIO_COUNT)
        bad = "kind or priority out of range";
    for (size_t i = 0; !bad && i < jj.n_inputs; i++) {
        if (jj.inputs[i].ref)
            bad = "an input is a reference (only blobs are journaled)";
        else if (jj.inputs[i].len)
            w[n++] = (daemon_blob_t){jj.inputs[i].data, jj.inputs[i].len};
    }
    dmn_fil_t *fil = NULL;
    cuzk_error_t why = {0};
    if (!bad && dmn_is_filecoin((engine_kind)jj.kind)) {
        if ((fil = resume_fil(&jj, &why)) != NULL)
            n = fil->n_parts;
        else
            bad = why.msg;
    }
    dmn_job_t *j = NULL;
    if (!bad && !(j = dmn_job_add(d, id, (engine_kind)jj.kind, (cuzk_priority)jj.priority,
                                  jj.circuit_id, n, jj.created_ms, 1)))
        bad = "no memory";
    if (j)
        j->fil = fil;
    else
        dmn_fil_free(fil);
    if (bad) {
        resume_fail(d, id, "not resumed", bad);
    } else if (dmn_job_start(d, j, w, n, &e) == CUZK_OK) {
        dmn_log(d, CONFIG_LOG_INFO, "job %llu %s %s: resumed (%zu partitions)",
                (unsigned long long)id, engine_kind_str(jj.kind), jj.circuit_id, n);
    }
    free(w);
    journal_job_free(&jj);
}

static cuzk_status resume(daemon_t *d, cuzk_error_t *err)
{
    uint64_t *ids = NULL;
    size_t n = 0;
    cuzk_status st = journal_unfinished(d->journal, &ids, &n, err);
    if (st != CUZK_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        resume_one(d, ids[i]);
    free(ids);
    return CUZK_OK;
}

/* ---- lifetime ---- */

static void engine_config_from(engine_config_t *ec, const cuzk_config_t *cfg,
                               const device_t *devices, unsigned n_devices, daemon_t *d)
{
    engine_config_default(ec);
    ec->devices = devices;
    ec->n_devices = n_devices;
    int threads = cfg->synthesis.threads;
    if (threads <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        threads = ncpu > 0 ? (ncpu > 256 ? 256 : (int)ncpu) : 1;
    }
    ec->witness_threads = threads;
    /* by default a witness gets what the device workers leave: with one
     * thread a 32 GiB PoRep partition takes seconds longer than the GPU
     * needs to prove it */
    int workers = 0;
    for (unsigned i = 0; i < n_devices; i++)
        workers += devices[i].workers;
    ec->stage_threads = cfg->synthesis.stage_threads > 0 ? cfg->synthesis.stage_threads
                                                         : parallel_share(threads, 2 * workers + 1);
    ec->witness_nice = cfg->synthesis.nice;
    d->stage_threads = ec->stage_threads;
    ec->prove_threads = cfg->synthesis.prove_threads;
    /* every worker one ready and two more, as the bench runs: a fixed
     * count would idle the workers of a machine with many GPUs */
    ec->ready_max = cfg->memory.ready_max ? cfg->memory.ready_max : (unsigned)workers + 2;
    ec->ready_bytes_max = (size_t)cfg->memory.ready_bytes_max;
    /* page-locked witness buffers (the devices' allocator) within it */
    ec->host_bytes_max = (size_t)cfg->memory.pinned_budget;
    ec->witness_pack = cfg->memory.witness_pack;
    ec->aging_ns = cfg->scheduler.aging_ms * NS_PER_MS;
    ec->max_retries = cfg->scheduler.max_retries;
    ec->retry = cfg->scheduler.retry;
    ec->max_retained = cfg->scheduler.max_retained;
    ec->critical_lane = cfg->scheduler.critical_lane;
    ec->on_event = dmn_on_event;
    ec->event_ctx = d;
    ec->on_done = dmn_on_done;
    ec->done_ctx = d;
}

static cuzk_status sync_init(daemon_t *d, cuzk_error_t *err)
{
    if (pthread_mutex_init(&d->mu, NULL) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: mutex");
    if (pthread_mutex_init(&d->submit_mu, NULL) != 0) {
        pthread_mutex_destroy(&d->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: mutex");
    }
    if (sync_cond_init_monotonic(&d->done_cv) != 0) {
        pthread_mutex_destroy(&d->submit_mu);
        pthread_mutex_destroy(&d->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: condition variable");
    }
    if (sync_cond_init_monotonic(&d->work_cv) != 0) {
        pthread_cond_destroy(&d->done_cv);
        pthread_mutex_destroy(&d->submit_mu);
        pthread_mutex_destroy(&d->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: condition variable");
    }
    return CUZK_OK;
}

/* Everything after the locks: on failure daemon_free undoes what was made. */
static cuzk_status daemon_open(daemon_t *d, const device_t *devices, unsigned n_devices,
                               cuzk_error_t *err)
{
    const cuzk_config_t *cfg = &d->cfg;
    cuzk_status st = journal_open(&d->journal, cfg->daemon.journal, err);
    if (st == CUZK_OK)
        st = journal_check(d->journal, err);
    if (st == CUZK_OK && cfg->logging.events[0])
        st = eventlog_open(&d->events, cfg->logging.events, err);
    if (st == CUZK_OK)
        st = dmn_metrics_init(d, err);
    if (st != CUZK_OK)
        return st;
    engine_config_t ec;
    engine_config_from(&ec, cfg, devices, n_devices, d);
    if ((st = engine_new(&d->engine, &ec, err)) != CUZK_OK)
        return st;
    if ((st = dmn_registry_init(&d->reg, d->engine, cfg, err)) != CUZK_OK)
        return st;
    d->reg_ok = 1;
    d->reg.on_drop = dmn_metrics_key_unloaded;
    d->reg.drop_ctx = d;
    if (pthread_create(&d->thread, NULL, completion_main, d) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: cannot start the completion thread");
    d->thread_started = 1;
    if (cfg->daemon.http_listen[0] && (st = dmn_http_start(d, err)) != CUZK_OK)
        return st;
    for (unsigned i = 0; i < cfg->srs.n_preload; i++) {
        cuzk_error_t e = {0};
        if ((st = daemon_preload(d, NULL, NULL, cfg->srs.preload[i], &e)) != CUZK_OK)
            return cuzk_error_set(err, st, "srs.preload: %s", e.msg);
    }
    return resume(d, err);
}

cuzk_status daemon_new(daemon_t **out, const cuzk_config_t *cfg, const device_t *devices,
                       unsigned n_devices, cuzk_error_t *err)
{
    if (out)
        *out = NULL;
    if (!out || !cfg || !devices)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_new: NULL argument");
    if (n_devices == 0 || n_devices > ENGINE_MAX_DEVICES)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_new: %u devices (1..%d)", n_devices,
                              ENGINE_MAX_DEVICES);
    cuzk_status st = config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    daemon_t *d = calloc(1, sizeof *d);
    if (!d)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_new: no memory");
    d->cfg = *cfg;
    d->n_devices = n_devices;
    d->start_ns = ledger_clock_ns();
    if ((st = sync_init(d, err)) != CUZK_OK) {
        free(d);
        return st;
    }
    if ((st = daemon_open(d, devices, n_devices, err)) != CUZK_OK) {
        daemon_free(d);
        return st;
    }
    dmn_log(d, CONFIG_LOG_INFO, "ready: %u devices, journal %s, registry %s", n_devices,
            cfg->daemon.journal, cfg->srs.dir);
    *out = d;
    return CUZK_OK;
}

void daemon_shutdown(daemon_t *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->mu);
    d->stopping = 1;
    pthread_cond_broadcast(&d->done_cv);
    pthread_mutex_unlock(&d->mu);
}

void daemon_free(daemon_t *d)
{
    if (!d)
        return;
    daemon_shutdown(d);
    http_server_stop(d->http);
    d->http = NULL;
    if (d->thread_started) {
        pthread_mutex_lock(&d->mu);
        d->thread_stop = 1;
        pthread_cond_signal(&d->work_cv);
        pthread_mutex_unlock(&d->mu);
        pthread_join(d->thread, NULL);
    }
    /* Cancels what is left without journaling it: those jobs stay
     * unfinished in the journal, for the next start. */
    engine_destroy(d->engine);
    if (d->reg_ok)
        dmn_registry_fini(&d->reg, 1);
    while (d->first) {
        dmn_job_t *j = d->first;
        d->first = j->next;
        dmn_done_free(j->done);
        dmn_job_free(j);
    }
    for (unsigned i = 0; i < DAEMON_RECENT_MAX; i++)
        dmn_done_free(d->recent[i]);
    dmn_map_free(&d->by_id);
    dmn_map_free(&d->by_eid);
    eventlog_close(d->events);
    journal_close(d->journal);
    metrics_free(d->metrics);
    pthread_cond_destroy(&d->work_cv);
    pthread_cond_destroy(&d->done_cv);
    pthread_mutex_destroy(&d->submit_mu);
    pthread_mutex_destroy(&d->mu);
    free(d);
}

uint16_t daemon_http_port(const daemon_t *d)
{
    return d && d->http ? http_server_port(d->http) : 0;
}
