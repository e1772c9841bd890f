/* The daemon's status: typed stats, the status JSON and the Prometheus
 * metrics (include/cuzk/daemon.h, include/cuzk/metrics.h).
 *
 * All three are made from the same counters the daemon runs on: the
 * engine's snapshot (engine_stats), the job table and counters under mu,
 * the registry under reg.mu. Counters and histograms are fed as things
 * happen (cuzk_proofs_total when a job is journaled, cuzk_stage_seconds from
 * the event hook); gauges are set from those snapshots when the metrics
 * are rendered. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon_internal.h"

#define NS_PER_S 1000000000ull

/* ---- the busy window ---- */

void dmn_busy_add(dmn_busy_t *b, uint64_t s, uint64_t e)
{
    /* Proofs that overlap on a device are counted once: only what lies
     * past the latest end counted so far is new busy time. */
    if (s < b->covered_until)
        s = b->covered_until;
    if (e <= s)
        return;
    b->covered_until = e;
    uint64_t first = s / NS_PER_S, last = (e - 1) / NS_PER_S;
    if (last - first >= DAEMON_BUSY_WINDOW_S)
        first = last - (DAEMON_BUSY_WINDOW_S - 1);
    for (uint64_t k = first; k <= last; k++) {
        uint64_t lo = k * NS_PER_S > s ? k * NS_PER_S : s;
        uint64_t hi = (k + 1) * NS_PER_S < e ? (k + 1) * NS_PER_S : e;
        unsigned slot = (unsigned)(k % DAEMON_BUSY_WINDOW_S);
        if (b->sec[slot] > k)
            continue; /* a newer second holds the slot */
        if (b->sec[slot] != k) {
            b->sec[slot] = k;
            b->ns[slot] = 0;
        }
        b->ns[slot] += hi - lo;
    }
}

double dmn_busy_ratio(const dmn_busy_t *b, uint64_t now, uint64_t since)
{
    uint64_t now_s = now / NS_PER_S;
    uint64_t oldest = now_s >= DAEMON_BUSY_WINDOW_S - 1 ? now_s - (DAEMON_BUSY_WINDOW_S - 1) : 0;
    uint64_t start = oldest * NS_PER_S > since ? oldest * NS_PER_S : since;
    if (now <= start)
        return 0;
    uint64_t busy = 0;
    for (unsigned i = 0; i < DAEMON_BUSY_WINDOW_S; i++)
        if (b->sec[i] >= oldest && b->sec[i] <= now_s)
            busy += b->ns[i];
    double r = (double)busy / (double)(now - start);
    return r > 1 ? 1 : r;
}

/* ---- metrics ---- */

static const char *const STATUS_NAMES[] = {"done", "failed", "cancelled"};

static cuzk_status family(daemon_t *d, metrics_family_t **out, metrics_type type, const char *name,
                          const char *help, const char *label, const char *label2,
                          cuzk_error_t *err)
{
    const char *labels[2] = {label, label2};
    metrics_spec_t spec = {type, name, help, labels, label2 ? 2u : 1u, NULL, 0};
    if (type == METRICS_HISTOGRAM)
        spec.n_buckets = METRICS_SECONDS_BUCKETS_N;
    return metrics_register(d->metrics, out, &spec, err);
}

static metrics_series_t *series1(metrics_family_t *f, const char *v)
{
    const char *values[1] = {v};
    metrics_series_t *s = NULL;
    metrics_series(f, &s, values, NULL);
    return s;
}

static metrics_series_t *series2(metrics_family_t *f, const char *a, const char *b)
{
    const char *values[2] = {a, b};
    metrics_series_t *s = NULL;
    metrics_series(f, &s, values, NULL);
    return s;
}

cuzk_status dmn_metrics_init(daemon_t *d, cuzk_error_t *err)
{
    cuzk_status st = metrics_new(&d->metrics, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_proofs, METRICS_COUNTER, "cuzk_proofs_total",
                    "Jobs finished, by proof kind and final status.", "kind", "status", err);
    if (st == CUZK_OK)
        st = family(d, &d->m_queue, METRICS_GAUGE, "cuzk_queue_depth",
                    "Partitions waiting (witness and ready queues), by priority.", "priority", NULL,
                    err);
    if (st == CUZK_OK)
        st = family(d, &d->m_stage, METRICS_HISTOGRAM, "cuzk_stage_seconds",
                    "Duration of one engine stage run.", "stage", NULL, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_job, METRICS_HISTOGRAM, "cuzk_job_seconds",
                    "Time from a job's acceptance to its verified proof, by proof kind (done "
                    "jobs): a WinningPoSt's deadline is read here.",
                    "kind", NULL, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_busy, METRICS_GAUGE, "cuzk_gpu_busy_ratio",
                    "Fraction of the last 60 s (or of the uptime) in which a proof ran on the "
                    "device.",
                    "device", NULL, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_vram_res, METRICS_GAUGE, "cuzk_vram_reserved_bytes",
                    "Bytes reserved on the device's VRAM ledger.", "device", NULL, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_vram_tot, METRICS_GAUGE, "cuzk_vram_total_bytes",
                    "The device's VRAM ledger capacity.", "device", NULL, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_key, METRICS_GAUGE, "cuzk_key_load_bytes",
                    "Bytes of the circuit's key files loaded.", "circuit", NULL, err);
    if (st == CUZK_OK)
        st = family(d, &d->m_key_dev, METRICS_GAUGE, "cuzk_key_device_load_bytes",
                    "Bytes of the circuit's key and circuit a preload put on the devices (over "
                    "every device).",
                    "circuit", NULL, err);
    if (st != CUZK_OK)
        return st;
    /* The series every dashboard expects exist from the start (value 0). */
    for (int s = 0; s < ENGINE_STAGE_COUNT; s++)
        d->s_stage[s] = series1(d->m_stage, engine_stage_str(s));
    for (int k = 0; k < ENGINE_KIND_COUNT; k++)
        d->s_job[k] = series1(d->m_job, engine_kind_str(k));
    for (int p = 0; p < CUZK_PRIO_COUNT; p++)
        series1(d->m_queue, cuzk_priority_str(p));
    for (int k = ENGINE_KIND_SNARKJS; k <= ENGINE_KIND_BELLPERSON; k++)
        for (int s = 0; s < 3; s++)
            series2(d->m_proofs, engine_kind_str(k), STATUS_NAMES[s]);
    for (unsigned dv = 0; dv < d->n_devices; dv++) {
        char name[16];
        snprintf(name, sizeof name, "%u", dv);
        series1(d->m_busy, name);
        series1(d->m_vram_res, name);
        series1(d->m_vram_tot, name);
    }
    return CUZK_OK;
}

void dmn_metrics_count(daemon_t *d, engine_kind kind, engine_job_state state, uint64_t total_ms)
{
    int s = state == ENGINE_JOB_DONE ? 0 : state == ENGINE_JOB_FAILED ? 1 : 2;
    metrics_add(series2(d->m_proofs, engine_kind_str(kind), STATUS_NAMES[s]), 1);
    if (state == ENGINE_JOB_DONE && (int)kind >= 0 && kind < ENGINE_KIND_COUNT)
        metrics_observe(d->s_job[kind], (double)total_ms / 1e3);
}

void dmn_metrics_key_unloaded(void *daemon, const char *circuit)
{
    daemon_t *d = daemon;
    metrics_set(series1(d->m_key, circuit), 0);
    metrics_set(series1(d->m_key_dev, circuit), 0);
}

/* ---- typed stats ---- */

void daemon_stats(daemon_t *d, daemon_stats_t *out)
{
    memset(out, 0, sizeof *out);
    if (!d)
        return;
    engine_stats_t es;
    engine_stats(d->engine, &es);
    uint64_t now = ledger_clock_ns();
    out->uptime_ms = (now - d->start_ns) / 1000000u;
    out->n_devices = d->n_devices;
    memcpy(out->witness_queue, es.witness_queue, sizeof out->witness_queue);
    memcpy(out->ready_queue, es.ready_queue, sizeof out->ready_queue);
    out->ready_bytes = es.ready_bytes;
    out->pinned_bytes = es.host_alloc_bytes;
    out->pinned_kept_bytes = es.witness_pool_bytes;
    out->pinned_limit = d->cfg.memory.pinned_budget;
    out->witnesses_packed = es.witnesses_packed;
    out->packed_bytes = es.packed_bytes;
    out->max_queued = d->cfg.daemon.max_queued_jobs;
    for (unsigned i = 0; i < d->n_devices && i < es.n_devices; i++) {
        const engine_device_stats_t *s = &es.devices[i];
        daemon_device_stats_t *o = &out->devices[i];
        memcpy(o->name, s->name, sizeof o->name);
        o->vram_capacity = s->ledger.capacity;
        o->vram_reserved = s->ledger.reserved;
        o->vram_persistent = s->ledger.persistent;
        o->vram_peak = s->ledger.peak_reserved;
        o->workers = s->workers;
        o->busy_workers = s->busy_workers;
        o->idle_workers = s->idle_workers;
        o->lane_workers = s->lane_workers;
        o->lane_busy = s->lane_busy;
        o->resident_keys = s->resident_keys;
        o->proofs = s->proofs;
        o->failures = s->failures;
        o->streamed = s->streamed;
        o->evictions = s->evictions;
    }
    pthread_mutex_lock(&d->mu);
    for (unsigned i = 0; i < d->n_devices; i++) {
        dmn_busy_t *b = &d->busy[i];
        daemon_device_stats_t *o = &out->devices[i];
        o->busy_ratio = dmn_busy_ratio(b, now, d->start_ns);
        if (!o->busy_workers) { /* an admission whose proof was discarded has no prove event */
            b->inflight = 0;
            b->current = 0;
        }
        const dmn_job_t *j = b->current ? dmn_map_get(&d->by_eid, b->current) : NULL;
        if (j) {
            o->current_job = j->id;
            o->current_kind = j->kind;
        }
    }
    memcpy(out->kinds, d->kinds, sizeof out->kinds);
    for (const dmn_job_t *j = d->first; j; j = j->next) {
        if (j->done)
            continue;
        if (j->state == ENGINE_JOB_RUNNING)
            out->kinds[j->kind].running++;
        else
            out->kinds[j->kind].queued++;
        out->unfinished++;
    }
    out->journal_errors = d->journal_errors;
    pthread_mutex_unlock(&d->mu);
    pthread_mutex_lock(&d->reg.mu);
    for (const dmn_key_t *k = d->reg.keys; k; k = k->next) {
        out->keys_loaded++;
        out->key_bytes += k->bytes;
    }
    pthread_mutex_unlock(&d->reg.mu);
    out->key_bytes_max = d->cfg.srs.max_resident;
    out->events_dropped = d->events ? eventlog_dropped(d->events) : 0;
}

/* ---- JSON ---- */

/* cJSON adds that cannot fail silently: any failure marks *ok 0. */
static void num(cJSON *o, const char *k, double v, int *ok)
{
    if (!cJSON_AddNumberToObject(o, k, v))
        *ok = 0;
}

static void str(cJSON *o, const char *k, const char *v, int *ok)
{
    if (!cJSON_AddStringToObject(o, k, v))
        *ok = 0;
}

static cJSON *obj_in(cJSON *parent, const char *k, int *ok)
{
    cJSON *o = cJSON_AddObjectToObject(parent, k);
    if (!o)
        *ok = 0;
    return o;
}

static cJSON *arr_in(cJSON *parent, const char *k, int *ok)
{
    cJSON *a = cJSON_AddArrayToObject(parent, k);
    if (!a)
        *ok = 0;
    return a;
}

static cJSON *push_obj(cJSON *arr, int *ok)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        *ok = 0;
        return NULL;
    }
    return o;
}

static void json_devices(cJSON *root, const daemon_stats_t *s, int *ok)
{
    cJSON *devs = arr_in(root, "devices", ok);
    for (unsigned i = 0; devs && i < s->n_devices; i++) {
        const daemon_device_stats_t *dv = &s->devices[i];
        cJSON *o = push_obj(devs, ok);
        if (!o)
            return;
        num(o, "index", i, ok);
        str(o, "name", dv->name, ok);
        cJSON *v = obj_in(o, "vram", ok);
        if (v) {
            num(v, "capacity", (double)dv->vram_capacity, ok);
            num(v, "reserved", (double)dv->vram_reserved, ok);
            num(v, "persistent", (double)dv->vram_persistent, ok);
            num(v, "peak", (double)dv->vram_peak, ok);
        }
        cJSON *w = obj_in(o, "workers", ok);
        if (w) {
            num(w, "total", dv->workers, ok);
            num(w, "busy", dv->busy_workers, ok);
            num(w, "idle", dv->idle_workers, ok);
            /* the critical lane's worker: in busy, not in total */
            num(w, "critical_lane", dv->lane_workers, ok);
            num(w, "critical_lane_busy", dv->lane_busy, ok);
        }
        num(o, "proofs", (double)dv->proofs, ok);
        num(o, "failures", (double)dv->failures, ok);
        num(o, "streamed", (double)dv->streamed, ok);
        num(o, "evictions", (double)dv->evictions, ok);
        num(o, "resident_keys", dv->resident_keys, ok);
        num(o, "busy_ratio", dv->busy_ratio, ok);
        if (dv->current_job)
            num(o, "current_job", (double)dv->current_job, ok);
        else if (!cJSON_AddNullToObject(o, "current_job"))
            *ok = 0;
    }
}

static void json_queues(cJSON *root, const daemon_stats_t *s, int *ok)
{
    cJSON *q = arr_in(root, "queues", ok);
    for (int p = CUZK_PRIO_COUNT - 1; q && p >= 0; p--) {
        cJSON *o = push_obj(q, ok);
        if (!o)
            return;
        str(o, "priority", cuzk_priority_str(p), ok);
        num(o, "witness", s->witness_queue[p], ok);
        num(o, "ready", s->ready_queue[p], ok);
    }
    cJSON *jobs = obj_in(root, "jobs", ok);
    if (jobs) {
        uint64_t queued = 0, running = 0;
        for (int k = 0; k < ENGINE_KIND_COUNT; k++) {
            queued += s->kinds[k].queued;
            running += s->kinds[k].running;
        }
        num(jobs, "unfinished", (double)s->unfinished, ok);
        num(jobs, "queued", (double)queued, ok);
        num(jobs, "running", (double)running, ok);
        num(jobs, "max_queued", s->max_queued, ok);
    }
    cJSON *mem = obj_in(root, "memory", ok);
    if (mem) { /* host memory of the witness stage */
        num(mem, "ready_bytes", (double)s->ready_bytes, ok);
        num(mem, "pinned_bytes", (double)s->pinned_bytes, ok);
        num(mem, "pinned_limit_bytes", (double)s->pinned_limit, ok);
        num(mem, "witness_buffers_kept_bytes", (double)s->pinned_kept_bytes, ok);
        num(mem, "witnesses_packed", (double)s->witnesses_packed, ok);
        num(mem, "witness_packed_bytes", (double)s->packed_bytes, ok);
    }
    cJSON *tot = obj_in(root, "totals", ok);
    for (int k = 0; tot && k < ENGINE_KIND_COUNT; k++) {
        cJSON *o = obj_in(tot, engine_kind_str(k), ok);
        if (!o)
            return;
        num(o, "submitted", (double)s->kinds[k].submitted, ok);
        num(o, "resumed", (double)s->kinds[k].resumed, ok);
        num(o, "done", (double)s->kinds[k].done, ok);
        num(o, "failed", (double)s->kinds[k].failed, ok);
        num(o, "cancelled", (double)s->kinds[k].cancelled, ok);
    }
}

static void json_keys(cJSON *root, daemon_t *d, int *ok)
{
    daemon_key_info_t *keys = NULL;
    size_t n = 0;
    if (dmn_registry_list(&d->reg, &keys, &n, NULL) != CUZK_OK)
        *ok = 0;
    cJSON *arr = arr_in(root, "keys", ok);
    for (size_t i = 0; arr && i < n; i++) {
        const daemon_key_info_t *k = &keys[i];
        cJSON *o = push_obj(arr, ok);
        if (!o)
            break;
        str(o, "circuit", k->circuit_id, ok);
        str(o, "format", groth16_convention_str(k->format), ok);
        str(o, "state", daemon_key_state_str(k->state), ok);
        num(o, "bytes", (double)k->bytes, ok);
        num(o, "loaded_bytes", (double)k->loaded_bytes, ok);
        num(o, "progress", k->bytes ? (double)k->loaded_bytes / (double)k->bytes : 1.0, ok);
        num(o, "load_ms", (double)k->load_ms, ok);
        num(o, "jobs", k->jobs, ok);
        cJSON *devs = arr_in(o, "devices", ok);
        for (unsigned dv = 0; devs && dv < d->n_devices; dv++)
            if (k->resident[dv] && !cJSON_AddItemToArray(devs, cJSON_CreateNumber(dv)))
                *ok = 0;
        num(o, "resident_bytes", (double)k->resident_bytes, ok);
        /* a preload's loads onto the devices, while and after they run */
        cJSON *loads = arr_in(o, "device_loads", ok);
        for (unsigned dv = 0; loads && dv < d->n_devices; dv++) {
            if (k->device_load[dv] == ENGINE_WARM_NONE)
                continue;
            cJSON *l = push_obj(loads, ok);
            if (!l)
                break;
            num(l, "device", dv, ok);
            str(l, "state", engine_warm_str(k->device_load[dv]), ok);
            num(l, "loaded_bytes", (double)k->device_load_done[dv], ok);
            num(l, "bytes", (double)k->device_load_total[dv], ok);
            num(l, "progress",
                k->device_load_total[dv]
                    ? (double)k->device_load_done[dv] / (double)k->device_load_total[dv]
                    : 0.0,
                ok);
            num(l, "load_ms", (double)k->device_load_ms[dv], ok);
        }
    }
    free(keys);
}

static void json_times(cJSON *o, const daemon_times_t *t, int *ok)
{
    cJSON *x = obj_in(o, "times", ok);
    if (!x)
        return;
    num(x, "queue_wait_ms", (double)t->queue_wait_ms, ok);
    num(x, "srs_load_ms", (double)t->srs_load_ms, ok);
    num(x, "synthesis_ms", (double)t->synthesis_ms, ok);
    num(x, "gpu_compute_ms", (double)t->gpu_compute_ms, ok);
    num(x, "verify_ms", (double)t->verify_ms, ok);
    num(x, "total_ms", (double)t->total_ms, ok);
}

/* mu held. */
static void json_recent(cJSON *root, const daemon_t *d, int *ok)
{
    cJSON *arr = arr_in(root, "recent", ok);
    for (unsigned i = 0; arr && i < d->n_recent; i++) {
        unsigned slot = (d->recent_next + DAEMON_RECENT_MAX - 1 - i) % DAEMON_RECENT_MAX;
        const dmn_done_t *r = d->recent[slot];
        cJSON *o = r ? push_obj(arr, ok) : NULL;
        if (!o)
            continue;
        num(o, "id", (double)r->id, ok);
        str(o, "kind", engine_kind_str(r->kind), ok);
        str(o, "state", engine_job_state_str(r->state), ok);
        str(o, "circuit", r->circuit, ok);
        if (r->error.code != CUZK_OK)
            str(o, "error", r->error.msg, ok);
        json_times(o, &r->times, ok);
        cJSON *parts = arr_in(o, "partitions", ok);
        for (size_t p = 0; parts && p < r->n_parts; p++) {
            const engine_part_timing_t *t = &r->parts[p];
            cJSON *po = push_obj(parts, ok);
            if (!po)
                break;
            num(po, "witness_ms", (double)t->witness_ns / 1e6, ok);
            num(po, "ready_ms", (double)t->ready_ns / 1e6, ok);
            num(po, "admit_ms", (double)t->admit_ns / 1e6, ok);
            num(po, "prove_ms", (double)t->prove_ns / 1e6, ok);
            num(po, "device", t->device, ok);
            num(po, "attempts", t->attempts, ok);
            if (!cJSON_AddBoolToObject(po, "streamed", t->streamed))
                *ok = 0;
        }
    }
}

cuzk_status daemon_status_json(daemon_t *d, char **json, size_t *len, cuzk_error_t *err)
{
    if (json)
        *json = NULL;
    if (len)
        *len = 0;
    if (!d || !json || !len)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_status_json: NULL argument");
    daemon_stats_t s;
    daemon_stats(d, &s);
    int ok = 1;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_status_json: no memory");
    num(root, "uptime_ms", (double)s.uptime_ms, &ok);
    json_devices(root, &s, &ok);
    json_queues(root, &s, &ok);
    json_keys(root, d, &ok);
    cJSON *reg = obj_in(root, "registry", &ok);
    if (reg) {
        str(reg, "dir", d->cfg.srs.dir, &ok);
        num(reg, "bytes", (double)s.key_bytes, &ok);
        num(reg, "max_resident", (double)s.key_bytes_max, &ok);
    }
    num(root, "journal_errors", (double)s.journal_errors, &ok);
    num(root, "events_dropped", (double)s.events_dropped, &ok);
    pthread_mutex_lock(&d->mu);
    json_recent(root, d, &ok);
    pthread_mutex_unlock(&d->mu);
    char *text = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_status_json: no memory");
    *json = text;
    *len = strlen(text);
    return CUZK_OK;
}

/* ---- metrics text ---- */

cuzk_status daemon_metrics_text(daemon_t *d, char **text, size_t *len, cuzk_error_t *err)
{
    if (text)
        *text = NULL;
    if (len)
        *len = 0;
    if (!d || !text || !len)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_metrics_text: NULL argument");
    daemon_stats_t s;
    daemon_stats(d, &s);
    for (int p = 0; p < CUZK_PRIO_COUNT; p++)
        metrics_set(series1(d->m_queue, cuzk_priority_str(p)),
                    (double)s.witness_queue[p] + (double)s.ready_queue[p]);
    for (unsigned dv = 0; dv < s.n_devices; dv++) {
        char name[16];
        snprintf(name, sizeof name, "%u", dv);
        metrics_set(series1(d->m_busy, name), s.devices[dv].busy_ratio);
        metrics_set(series1(d->m_vram_res, name), (double)s.devices[dv].vram_reserved);
        metrics_set(series1(d->m_vram_tot, name), (double)s.devices[dv].vram_capacity);
    }
    daemon_key_info_t *keys = NULL;
    size_t n = 0;
    if (dmn_registry_list(&d->reg, &keys, &n, err) != CUZK_OK)
        return CUZK_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        metrics_set(series1(d->m_key, keys[i].circuit_id), (double)keys[i].loaded_bytes);
        metrics_set(series1(d->m_key_dev, keys[i].circuit_id), (double)keys[i].device_loaded_bytes);
    }
    free(keys);
    return metrics_render(d->metrics, text, len, err);
}
