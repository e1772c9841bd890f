/* The engine's threads (see engine_internal.h for who owns what).
 *
 * Pool threads (witness_threads of them) serve, in this order: the verify
 * queue (jobs whose partitions are all proved), then the witness queue in
 * service order, taking a task only when the ready queue has room for it
 * (ready_max tasks and ready_bytes_max bytes, counting the ones being
 * witnessed): that is the backpressure, applied before any work is done, so
 * a pool thread never waits holding a parsed witness. No backfill: when the
 * first task in service order does not fit, nothing behind it is taken.
 * The critical lane (one more pool thread, engine_config_t.critical_lane)
 * serves only CRITICAL jobs' verification and witnesses, and may take one
 * task past the ready queue's bounds: a WinningPoSt never waits for a pool
 * thread busy with seconds of PoRep synthesis.
 *
 * Device workers (device_t.workers per device) take the first ready
 * task in service order that they may run: not on a device it failed on
 * (ENGINE_RETRY_OTHER_DEVICE), and not when its key is resident on another
 * device with an idle worker that may run it (that worker takes it). A task
 * blocked on this device (it cannot fit while another key is in use here)
 * stops the scan until a key here goes idle: no backfill behind it, or
 * partitions of the key in use would keep it in use forever. Then, without the
 * mutex: plan, residency (under the mutex, never waiting), backend, the
 * scratch admission (the one wait, holding no reservation), the proof with
 * no_verify = 1, the release. The outcome goes back under the mutex:
 * proved, discarded (job cancelled or failed meanwhile), blocked (cannot fit
 * while another key is in use here: requeued until one goes idle), or
 * failed (retried or failing the job).
 *
 * The critical lane on the devices (same knob): one more worker per device
 * that takes only tasks whose own priority is CRITICAL (lane_ok, as the
 * pool's lane) and runs them as every worker does, ledger admission
 * included, so a WinningPoSt proves beside the PoRep partitions already
 * running instead of after them when its scratch fits. It is not counted in
 * dev->idle (ready_ok's "a worker there is free" must mean one that takes
 * any task; idle_for adds the lane's for CRITICAL tasks), loads only the
 * preloads of critical keys (engine_key_spec_t.critical: its own copy of
 * the load, so that the first WinningPoSt after a start finds the lane
 * ready), and a blocked non-CRITICAL task does not stop its scan (it skips
 * what it may not take). Its backend holds keys like any other, so it has
 * its bit in the drains. */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cuzk/parallel.h"
#include "engine/engine_internal.h"

/* ---- the witness stage ---- */

static int ready_has_room(const engine_t *e, const eng_task_t *t)
{
    if (e->ready_count >= e->cfg.ready_max)
        return 0;
    return e->cfg.ready_bytes_max == 0 || e->ready_count == 0 ||
           e->ready_bytes + t->w_bytes <= e->cfg.ready_bytes_max;
}

static cuzk_status witness_check(const eng_task_t *t, const engine_key_spec_t *ks, int threads,
                                 cuzk_error_t *err)
{
    const groth16_pk_t *pk = ks->pk;
    if (!fr_is_one(&t->w[0]))
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u: witness wire 0 is not 1", t->index);
    if (ks->r1cs) {
        int64_t bad = -1;
        cuzk_status st = r1cs_check_witness(&bad, ks->r1cs, t->w, pk->n_vars, threads, err);
        if (st != CUZK_OK)
            return st;
        if (bad >= 0)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "partition %u: witness does not satisfy constraint %lld",
                                  t->index, (long long)bad);
    } else if (ks->check) {
        uint32_t bad = UINT32_MAX;
        cuzk_status st = circuit_check(&bad, ks->check, t->w, threads);
        if (st != CUZK_OK)
            return cuzk_error_set(err, st, "partition %u: circuit check: %s", t->index,
                                  cuzk_status_str(st));
        if (bad != UINT32_MAX)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "partition %u: witness does not satisfy constraint %u", t->index,
                                  bad);
    }
    return CUZK_OK;
}

typedef struct copy_ctx {
    fr_t *dst;
    const fr_t *src;
} copy_ctx_t;

static void copy_chunk(void *vctx, size_t begin, size_t end)
{
    copy_ctx_t *c = vctx;
    memcpy(c->dst + begin, c->src + begin, (end - begin) * sizeof *c->dst);
}

/* The submitted copy of an ENGINE_WITNESS_FR witness moves into a buffer
 * of the host allocator (page-locked: the device reads it at the bus's
 * speed), on this CPU stage rather than on the device's time. Without an
 * allocator, or when it has no memory, the copy stays where it is. */
static void witness_to_pool(engine_t *e, eng_task_t *t, int threads)
{
    if (!e->wpool.alloc || t->wpool || !t->wcopy)
        return;
    int hook = 0;
    fr_t *b = eng_hostpool_get(&e->wpool, t->w_bytes, &hook);
    if (!b)
        return;
    if (!hook) { /* the allocator refused: no gain in a second ordinary copy */
        eng_hostpool_put(&e->wpool, b, t->w_bytes, hook);
        return;
    }
    copy_ctx_t c = {b, t->wcopy};
    size_t n = t->w_bytes / sizeof(fr_t);
    if (parallel_for(n, 1 << 20, threads, copy_chunk, &c) != CUZK_OK)
        memcpy(b, t->wcopy, t->w_bytes);
    free(t->wcopy);
    t->wcopy = b;
    t->wpool = &e->wpool;
    t->wpool_hook = hook;
}

/* Packs the made witness and gives its buffer back (engine_t.pack), where
 * the pack is at most half the vector (any size with ENGINE_PACK_ALWAYS);
 * otherwise, or without memory for the pack, the witness stays whole:
 * never a failure. witness_done moves the ready bytes to the pack's. */
static void witness_pack(const engine_t *e, eng_task_t *t, size_t n, int threads)
{
    /* a witness of hash outputs (PoSt) is classified, not gathered: auto
     * is the default, and every such witness passes here */
    size_t cap = e->cfg.witness_pack == ENGINE_PACK_ALWAYS ? SIZE_MAX : n * sizeof(fr_t) / 2;
    if (fr_pack_make_within(&t->pack, t->w, n, cap, threads, NULL) != CUZK_OK || !t->pack.block)
        return;
    if (t->wpool)
        eng_hostpool_put(t->wpool, t->wcopy, t->w_bytes, t->wpool_hook);
    else
        free(t->wcopy);
    wtns_free(&t->wt);
    t->wcopy = NULL;
    t->wpool = NULL;
    t->w = NULL;
    t->packed = 1;
}

/* The threads of a witness that starts now (e->witnessing counts it):
 * the pool's cores shared by the witnesses in the making. A lone one
 * takes them all (a 32 GiB WindowPoSt witness: ~2 s on 16 cores where
 * stage_threads alone gave 6.8 s); ones already running keep theirs, so
 * the cores may be oversubscribed until they end (they run niced). */
static int witness_share(const engine_t *e)
{
    int each = e->cfg.stage_threads;
    long pool = (long)each * (long)(e->cfg.witness_threads ? e->cfg.witness_threads : 1);
    long share = pool / (long)(e->witnessing ? e->witnessing : 1);
    return share > each ? (int)share : each;
}

/* Parses or takes the witness, checks it, copies its public inputs, on
 * `threads` threads. The task belongs to this thread (WITNESSING); no
 * mutex. */
static cuzk_status witness_run(engine_t *e, eng_task_t *t, int threads, cuzk_error_t *err)
{
    eng_job_t *j = t->job;
    const engine_key_spec_t *ks = &j->key->spec;
    cuzk_status st = CUZK_OK;
    if (t->form == ENGINE_WITNESS_FN && t->pack_fn && e->pack && !ks->r1cs && !ks->check) {
        /* made packed: no buffer of n values, no check to run on one */
        size_t n = ks->pk->n_vars;
        if ((st = t->pack_fn(t->fn_ctx, &t->pack, n, threads, err)) != CUZK_OK)
            return st;
        if (t->pack.n != n) {
            size_t got = t->pack.n;
            fr_pack_free(&t->pack);
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "partition %u: a packed witness of %zu values, the key expects "
                                  "%zu",
                                  t->index, got, n);
        }
        fr_t v;
        fr_pack_get(&v, &t->pack, 0);
        if (!fr_is_one(&v)) {
            fr_pack_free(&t->pack);
            return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u: witness wire 0 is not 1",
                                  t->index);
        }
        for (size_t k = 0; k < j->n_public; k++)
            fr_pack_get(&j->inputs[(size_t)t->index * j->n_public + k], &t->pack, 1 + k);
        t->packed = 1;
        return CUZK_OK;
    }
    if (t->form == ENGINE_WITNESS_WTNS || t->form == ENGINE_WITNESS_FN) {
        /* parsed or made straight into a pool buffer (reused; page-locked
         * with a host allocator) */
        size_t n = ks->pk->n_vars;
        if (!t->wcopy && (t->wcopy = eng_hostpool_get(&e->wpool, t->w_bytes, &t->wpool_hook)))
            t->wpool = &e->wpool;
        if (!t->wcopy)
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "partition %u: no memory for a witness of %zu values", t->index,
                                  n);
        if (t->form == ENGINE_WITNESS_FN) {
            st = t->fn(t->fn_ctx, t->wcopy, n, threads, err);
        } else {
            char name[48];
            uint32_t got = 0;
            snprintf(name, sizeof name, "partition %u", t->index);
            st = wtns_read_mem_into(t->wcopy, n, &got, t->raw, t->raw_size, name, threads, err);
            if (st == CUZK_OK && got != n)
                st = cuzk_error_set(err, CUZK_ERR_ARG,
                                    "partition %u: witness has %u values, the key expects %zu",
                                    t->index, got, n);
        }
        if (st != CUZK_OK)
            return st;
        t->w = t->wcopy;
    } else {
        witness_to_pool(e, t, threads);
        t->w = t->wcopy;
    }
    if ((st = witness_check(t, ks, threads, err)) != CUZK_OK)
        return st;
    if (j->n_public)
        memcpy(&j->inputs[(size_t)t->index * j->n_public], &t->w[1], j->n_public * sizeof(fr_t));
    if (e->pack)
        witness_pack(e, t, ks->pk->n_vars, threads);
    return CUZK_OK;
}

static void witness_done(engine_t *e, eng_task_t *t, cuzk_status st, const cuzk_error_t *err)
{
    eng_job_t *j = t->job;
    e->witnessing--;
    j->in_flight--;
    if (j->final || st != CUZK_OK) {
        t->where = TASK_DROPPED;
        eng_task_free_buffers(t);
        e->ready_count--;
        e->ready_bytes -= t->w_bytes;
        pthread_cond_broadcast(&e->witness_cv);
        if (st != CUZK_OK)
            eng_job_fail(e, j, err);
        eng_job_settle_maybe(e, j);
        return;
    }
    if (t->raw) { /* parsed: the file bytes are no longer needed */
        free(t->raw);
        t->raw = NULL;
    }
    if (t->packed) { /* the pack's bytes wait now, not the vector's */
        e->packed++;
        e->packed_bytes += t->pack.bytes;
        e->ready_bytes -= t->w_bytes;
        t->w_bytes = t->pack.bytes;
        e->ready_bytes += t->w_bytes;
        pthread_cond_broadcast(&e->witness_cv);
    }
    t->where = TASK_READY_Q;
    j->witnessed++;
    eng_queue_push(&e->ready_q, t, ledger_clock_ns(), &e->seq);
    pthread_cond_broadcast(&e->ready_cv);
}

/* ---- verification ---- */

static cuzk_status verify_run(eng_job_t *j, cuzk_error_t *err)
{
    const groth16_vk_t *vk = &j->key->spec.pk->vk;
    int valid = 0;
    cuzk_status st = j->n == 1
                         ? groth16_verify(&valid, vk, &j->proofs[0], j->inputs, j->n_public, err)
                         : groth16_verify_batch(&valid, vk, j->proofs, j->n, j->inputs, err);
    if (st != CUZK_OK || valid)
        return st;
    for (size_t i = 0; i < j->n && j->n > 1; i++) { /* name the partition */
        st = groth16_verify(&valid, vk, &j->proofs[i], &j->inputs[i * j->n_public], j->n_public,
                            err);
        if (st != CUZK_OK)
            return st;
        if (!valid)
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "proof failed verification (partition %zu)",
                                  i);
    }
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "proof failed verification");
}

static void verify_job(engine_t *e, eng_job_t *j)
{
    cuzk_error_t err = {0};
    uint64_t t0 = ledger_clock_ns();
    cuzk_status st = verify_run(j, &err);
    uint64_t t1 = ledger_clock_ns();
    j->verify_ns = t1 - t0;
    eng_emit(e, j, -1, -1, ENGINE_STAGE_VERIFY, t0, t1, st);
    pthread_mutex_lock(&e->mu);
    e->verifying--;
    j->in_flight--;
    if (!j->final && st == CUZK_OK) {
        j->final = 1;
        j->state = ENGINE_JOB_DONE;
    } else if (!j->final) {
        eng_job_fail(e, j, &err);
    }
    eng_job_settle_maybe(e, j);
}

/* The pool's CPU work (witness synthesis, verification) must not take the
 * cores from the threads that drive the devices: a device worker that waits
 * for a time slice leaves its GPU idle between kernels. On Linux nice is
 * per thread and inherited by the threads a stage starts (parallel.h), so
 * lowering the pool thread lowers its stage's threads too. Best effort: a
 * refusal changes nothing else. */
static void pool_lower_priority(int nice_inc)
{
#ifdef __linux__
    if (nice_inc > 0) {
        pid_t tid = (pid_t)syscall(SYS_gettid);
        errno = 0;
        int cur = getpriority(PRIO_PROCESS, (id_t)tid);
        if (errno == 0)
            (void)setpriority(PRIO_PROCESS, (id_t)tid, cur + nice_inc);
    }
#else
    (void)nice_inc;
#endif
}

/* The first job of the verify queue the thread serves (the lane: a
 * CRITICAL one only), unlinked; NULL when none. */
static eng_job_t *verify_take(engine_t *e, int lane)
{
    eng_job_t *prev = NULL, *vj = e->verify_first;
    while (vj && lane && vj->prio != CUZK_PRIO_CRITICAL) {
        prev = vj;
        vj = vj->vnext;
    }
    if (!vj)
        return NULL;
    if (prev)
        prev->vnext = vj->vnext;
    else
        e->verify_first = vj->vnext;
    if (e->verify_last == vj)
        e->verify_last = prev;
    vj->vnext = NULL;
    return vj;
}

/* The lane takes CRITICAL tasks by their own priority, not aged ones. */
static int lane_ok(const eng_task_t *t, void *ctx)
{
    (void)ctx;
    return t->prio == CUZK_PRIO_CRITICAL;
}

/* Room for t: the pool's backpressure; the lane may go one task past it,
 * and only one (a second CRITICAL task waits for room like any other). */
static int pool_has_room(const engine_t *e, const eng_task_t *t, int lane)
{
    return lane ? e->ready_count <= e->cfg.ready_max : ready_has_room(e, t);
}

static void *pool_loop(engine_t *e, int lane)
{
    pool_lower_priority(e->cfg.witness_nice);
    pthread_mutex_lock(&e->mu);
    for (;;) {
        eng_reap(e); /* drops the mutex: stopping is read after it */
        if (e->stopping)
            break;
        eng_job_t *vj = verify_take(e, lane);
        if (vj) {
            if (vj->final) { /* cancelled or failed meanwhile: nothing to check */
                vj->in_flight--;
                eng_job_settle_maybe(e, vj);
                continue;
            }
            e->verifying++;
            eng_unlock(e);
            verify_job(e, vj); /* returns with the mutex held */
            continue;
        }
        eng_task_t *t = eng_queue_pick(&e->witness_q, ledger_clock_ns(), e->cfg.aging_ns,
                                       lane ? lane_ok : NULL, NULL);
        if (!t || !pool_has_room(e, t, lane)) {
            eng_wait(e, &e->witness_cv);
            continue;
        }
        eng_queue_remove(&e->witness_q, t);
        t->where = TASK_WITNESSING;
        t->job->in_flight++;
        e->witnessing++;
        e->ready_count++;
        e->ready_bytes += t->w_bytes;
        int threads = witness_share(e);
        eng_unlock(e);
        cuzk_error_t err = {0};
        uint64_t t0 = ledger_clock_ns();
        cuzk_status st = witness_run(e, t, threads, &err);
        uint64_t t1 = ledger_clock_ns();
        t->tm.witness_ns = t1 - t0;
        eng_emit(e, t->job, (int)t->index, -1, ENGINE_STAGE_WITNESS, t0, t1, st);
        pthread_mutex_lock(&e->mu);
        witness_done(e, t, st, &err);
    }
    eng_unlock(e);
    return NULL;
}

void *eng_pool_main(void *arg)
{
    return pool_loop(arg, 0);
}

void *eng_lane_main(void *arg)
{
    return pool_loop(arg, 1);
}

/* ---- device workers ---- */

typedef enum outcome { OUT_PROVED, OUT_DISCARD, OUT_BLOCKED, OUT_FAILED } outcome;

static int may_run(const engine_t *e, const eng_task_t *t, const eng_device_t *dev)
{
    if (e->cfg.retry == ENGINE_RETRY_OTHER_DEVICE && (t->failed_mask >> dev->index & 1))
        return 0;
    return !(t->skip_dev == dev->index && t->skip_gen == dev->idle_gen);
}

typedef struct pick_ctx {
    const engine_t *e;
    const eng_device_t *dev;
    int lane; /* the picking worker is the critical lane's */
} pick_ctx_t;

/* Workers on od that would take t now: its idle regular ones, and its idle
 * lane worker when t is CRITICAL by its own priority. */
static unsigned idle_for(const eng_device_t *od, const eng_task_t *t)
{
    return od->idle + (lane_ok(t, NULL) ? od->lane_idle : 0);
}

static int ready_ok(const eng_task_t *t, void *vctx)
{
    const pick_ctx_t *c = vctx;
    const engine_t *e = c->e;
    if (c->lane && !lane_ok(t, NULL))
        return 0; /* not the lane's: skipped, never a stop for it */
    if (t->skip_dev == c->dev->index && t->skip_gen == c->dev->idle_gen)
        return -1; /* blocked here until a key goes idle: nothing behind it either */
    if (!may_run(e, t, c->dev))
        return 0;
    const engine_key_t *k = t->job->key;
    if (k->dev[c->dev->index].resv.ledger)
        return 1;
    for (unsigned o = 0; o < e->n_devs; o++) {
        const eng_device_t *od = &e->devs[o];
        if (od != c->dev && k->dev[o].resv.ledger && idle_for(od, t) > 0 && may_run(e, t, od))
            return 0; /* resident there, and a worker there is free */
    }
    return 1;
}

static void task_take(engine_t *e, eng_worker_t *wk, eng_task_t *t)
{
    eng_device_t *dev = wk->dev;
    eng_job_t *j = t->job;
    eng_queue_remove(&e->ready_q, t);
    t->tm.ready_ns = ledger_clock_ns() - t->enq_ns;
    t->where = TASK_ON_DEVICE;
    e->ready_count--;
    e->ready_bytes -= t->w_bytes;
    j->in_flight++;
    if (j->state == ENGINE_JOB_QUEUED)
        j->state = ENGINE_JOB_RUNNING;
    j->key->dev[dev->index].in_use++;
    dev->busy++;
    dev->lane_busy += (unsigned)wk->lane;
    pthread_cond_broadcast(&e->witness_cv); /* ready room */
    if (e->n_devs > 1)
        pthread_cond_broadcast(&e->ready_cv); /* an idle worker is not idle now */
}

/* One round of residency for t on dev: resident (OUT_PROVED, *streamed 0),
 * streaming with the plan under what the resident keys leave (OUT_PROVED,
 * *streamed 1), or neither (OUT_FAILED, err set by the plan). adm: the
 * admission the backend proves in (the budget of the plan made here). */
static outcome residency_round(eng_worker_t *wk, eng_task_t *t, size_t *scratch, int *streamed,
                               device_admit_t *adm, cuzk_error_t *err)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    engine_key_t *k = t->job->key;
    pthread_mutex_lock(&e->mu);
    int resident;
    /* Evicted keys leave once their holders (other workers, woken for it)
     * have dropped them: wait for that rather than stream. */
    while (!(resident = eng_key_make_resident(e, k, dev, t->job->prio)) && dev->n_drains &&
           k->dev[dev->index].resident && !e->stopping)
        eng_wait(e, &e->ready_cv);
    *scratch = k->dev[dev->index].scratch;
    device_layout layout = k->dev[dev->index].layout; /* read under the mutex */
    ledger_stats_t ls;
    ledger_stats(&dev->ledger, &ls);
    eng_unlock(e);
    if (resident) { /* eng_key_plan's budget and layout */
        *adm = (device_admit_t){dev->d.vram_capacity, 1, layout};
        *streamed = adm->layout != DEVICE_RESIDENT;
        return OUT_PROVED;
    }
    device_plan_t p;
    size_t budget = ls.capacity - ls.persistent;
    if (dev->d.plan(dev->d.ctx, &p, k->spec.pk, k->spec.circuit, budget, err) != CUZK_OK)
        return OUT_FAILED;
    *adm = (device_admit_t){budget, 0, p.layout};
    *streamed = 1;                     /* nothing of the key stays: it travels */
    *scratch = p.resident + p.scratch; /* with its proof */
    return OUT_PROVED;
}

static device_role worker_role(const eng_worker_t *wk)
{
    return wk->lane ? DEVICE_ROLE_CRITICAL : DEVICE_ROLE_REGULAR;
}

/* Drops what this worker's backend holds on the device (called without
 * the mutex), then leaves the drains it was in. */
static void worker_drop(eng_worker_t *wk)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    if (wk->be && dev->d.evict)
        dev->d.evict(dev->d.ctx, wk->be);
    pthread_mutex_lock(&e->mu);
    eng_worker_dropped(e, dev, wk->index);
    eng_unlock(e);
}

/* With the mutex, before the worker's backend is used with k: the backend
 * is to hold k only, so anything else it may hold (an evicted key, or the
 * key of its last proof) is dropped first (1: call worker_drop). From here
 * until the proof or load ends k is in use here, so no eviction names this
 * worker, and it never waits for a drain it is part of. */
static int worker_claim(eng_worker_t *wk, const engine_key_t *k)
{
    int drop = wk->evict_pending || (wk->last_key && wk->last_key != k);
    wk->evict_pending = 0;
    wk->last_key = k;
    return drop;
}

/* Residency and the scratch size for t on this worker's device. When
 * neither fits, idle keys are evicted and it tries again; with none to
 * evict it is blocked while another key is in use here, else failed. */
static outcome task_prepare(eng_worker_t *wk, eng_task_t *t, size_t *scratch, device_admit_t *adm,
                            cuzk_error_t *err)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    engine_key_t *k = t->job->key;
    pthread_mutex_lock(&e->mu);
    int drop = worker_claim(wk, k);
    eng_unlock(e);
    if (drop)
        worker_drop(wk);
    if (eng_key_plan(e, k, dev, err) != CUZK_OK)
        return OUT_FAILED;
    outcome o = OUT_FAILED;
    for (int round = 0; round < 3 && o != OUT_PROVED; round++) {
        o = residency_round(wk, t, scratch, &t->tm.streamed, adm, err);
        if (o == OUT_PROVED)
            break;
        pthread_mutex_lock(&e->mu);
        unsigned n = eng_evict_idle(e, dev, k);
        int others = eng_others_in_use(dev, e, k);
        int now_resident = k->dev[dev->index].resv.ledger != NULL;
        eng_unlock(e);
        if (!n && !now_resident)
            return others ? OUT_BLOCKED : OUT_FAILED;
    }
    if (o != OUT_PROVED)
        return o;
    if (!wk->be &&
        dev->d.backend_new(dev->d.ctx, dev->index, worker_role(wk), &wk->be, err) != CUZK_OK) {
        wk->be = NULL;
        return OUT_FAILED;
    }
    return OUT_PROVED;
}

/* The scratch admission; on CAPACITY evicts idle keys once and retries. */
static outcome task_admit(eng_worker_t *wk, eng_task_t *t, ledger_resv_t *resv, size_t scratch,
                          cuzk_error_t *err)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    eng_job_t *j = t->job;
    ledger_wait_t w = {0, &j->cancel};
    for (int round = 0;; round++) {
        uint64_t t0 = ledger_clock_ns();
        cuzk_status st = ledger_admit(&dev->ledger, resv, scratch, j->prio, &w, err);
        uint64_t t1 = ledger_clock_ns();
        t->tm.admit_ns = t1 - t0;
        eng_emit(e, j, (int)t->index, dev->index, ENGINE_STAGE_ADMIT, t0, t1, st);
        if (st == CUZK_OK)
            return ledger_cancelled(&j->cancel) ? OUT_DISCARD : OUT_PROVED;
        if (st == CUZK_ERR_CANCELLED)
            return OUT_DISCARD;
        if (st != CUZK_ERR_CAPACITY || round > 0)
            return OUT_FAILED;
        pthread_mutex_lock(&e->mu);
        unsigned n = eng_evict_idle(e, dev, j->key);
        int others = eng_others_in_use(dev, e, j->key);
        eng_unlock(e);
        if (n == 0)
            return others ? OUT_BLOCKED : OUT_FAILED;
    }
}

/* The prove's parts as events laid end to end from its start (clamped to
 * its end), and into the partition's timings. */
static void emit_parts(engine_t *e, eng_task_t *t, int device, const struct groth16_timings *tm,
                       uint64_t t0, uint64_t t1)
{
    const double *part = tm->parts.s;
    t->tm.parts = tm->parts;
    uint64_t at = t0;
    for (int i = 0; i < PROVE_PART_COUNT; i++) {
        if (part[i] <= 0)
            continue;
        uint64_t end = at + (uint64_t)(part[i] * 1e9);
        if (end > t1)
            end = t1;
        eng_emit(e, t->job, (int)t->index, device, (engine_stage)(ENGINE_STAGE_LOAD + i), at, end,
                 CUZK_OK);
        at = end;
    }
}

static outcome task_run(eng_worker_t *wk, eng_task_t *t, cuzk_error_t *err)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    eng_job_t *j = t->job;
    size_t scratch = 0;
    device_admit_t adm = {0, 0, DEVICE_RESIDENT};
    outcome o = task_prepare(wk, t, &scratch, &adm, err);
    if (o != OUT_PROVED)
        return o;
    t->kept = adm.kept;
    ledger_resv_t resv = LEDGER_RESV_EMPTY;
    if ((o = task_admit(wk, t, &resv, scratch, err)) != OUT_PROVED) {
        ledger_release(&resv);
        return o;
    }
    fr_t r = j->r, s = j->s;
    cuzk_status st = CUZK_OK;
    if (!j->fixed_rs && (st = fr_random(&r, err)) == CUZK_OK)
        st = fr_random(&s, err);
    groth16_proof_t proof;
    struct groth16_timings tm;
    memset(&tm, 0, sizeof tm);
    uint64_t t0 = ledger_clock_ns();
    if (st == CUZK_OK) {
        groth16_prove_opts_t opts = {
            .threads = e->cfg.prove_threads, .no_verify = 1, .timings = &tm};
        /* The layout was decided here, once: the backend proves in it. */
        if (wk->be->admit)
            wk->be->admit(wk->be->ctx, &adm);
        st = t->packed ? groth16_prove_packed(&proof, j->key->spec.pk, j->key->spec.circuit,
                                              &t->pack, &r, &s, wk->be, &opts, err)
                       : groth16_prove(&proof, j->key->spec.pk, j->key->spec.circuit, t->w, &r, &s,
                                       wk->be, &opts, err);
    }
    /* A key that travelled leaves nothing behind before its bytes go. */
    if (!adm.kept && wk->be && dev->d.evict)
        dev->d.evict(dev->d.ctx, wk->be);
    uint64_t t1 = ledger_clock_ns();
    ledger_release(&resv);
    t->tm.prove_ns = t1 - t0;
    eng_emit(e, j, (int)t->index, dev->index, ENGINE_STAGE_PROVE, t0, t1, st);
    if (st == CUZK_OK)
        emit_parts(e, t, dev->index, &tm, t0, t1);
    if (st != CUZK_OK) { /* a device error may leave the backend unusable: remake it */
        dev->d.backend_free(dev->d.ctx, wk->be);
        wk->be = NULL;
        return OUT_FAILED;
    }
    j->proofs[t->index] = proof;
    return OUT_PROVED;
}

static int runnable_anywhere(const engine_t *e, const eng_task_t *t)
{
    for (unsigned d = 0; d < e->n_devs; d++)
        if (may_run(e, t, &e->devs[d]) || e->cfg.retry == ENGINE_RETRY_ANY_DEVICE)
            return 1;
    return 0;
}

static void task_requeue(engine_t *e, eng_task_t *t)
{
    t->where = TASK_READY_Q;
    e->ready_count++;
    e->ready_bytes += t->w_bytes;
    eng_queue_push(&e->ready_q, t, ledger_clock_ns(), &e->seq);
}

static void task_failed(engine_t *e, eng_device_t *dev, eng_task_t *t, const cuzk_error_t *err)
{
    eng_job_t *j = t->job;
    dev->failures++;
    t->failed_mask |= 1ull << dev->index;
    t->skip_dev = -1;
    if (t->tm.attempts <= e->cfg.max_retries && runnable_anywhere(e, t)) {
        task_requeue(e, t);
        return;
    }
    t->where = TASK_DROPPED;
    eng_task_free_buffers(t);
    cuzk_error_t why;
    cuzk_error_set(&why, err->code != CUZK_OK ? err->code : CUZK_ERR_INTERNAL,
                   "partition %u on device %s: %s", t->index, dev->name, err->msg);
    eng_job_fail(e, j, &why);
}

/* The outcome, under the mutex. */
static void task_finish(eng_worker_t *wk, eng_task_t *t, outcome o, const cuzk_error_t *err)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    eng_job_t *j = t->job;
    dev->busy--;
    dev->lane_busy -= (unsigned)wk->lane;
    j->in_flight--;
    if (--j->key->dev[dev->index].in_use == 0)
        dev->idle_gen++;
    if (o == OUT_PROVED || o == OUT_FAILED)
        t->tm.attempts++;
    if (o == OUT_PROVED) {
        dev->proofs++;
        dev->streamed += (uint64_t)t->tm.streamed;
        if (!t->kept)
            wk->last_key = NULL; /* a travelling key was dropped */
        t->tm.device = dev->index;
    }
    if (!wk->be)
        wk->last_key = NULL; /* freed after a failure */
    if (j->final || o == OUT_DISCARD) {
        t->where = TASK_DROPPED;
        eng_task_free_buffers(t);
    } else if (o == OUT_PROVED) {
        t->where = TASK_PROVED;
        eng_task_free_buffers(t);
        if (++j->proved == j->n) {
            j->in_flight++; /* the verify */
            if (e->verify_last)
                e->verify_last->vnext = j;
            else
                e->verify_first = j;
            e->verify_last = j;
            pthread_cond_broadcast(&e->witness_cv);
        }
    } else if (o == OUT_BLOCKED) {
        t->skip_dev = dev->index;
        t->skip_gen = dev->idle_gen;
        task_requeue(e, t);
    } else {
        task_failed(e, dev, t, err);
    }
    pthread_cond_broadcast(&e->ready_cv);
    eng_job_settle_maybe(e, j);
}

/* ---- preload loads (device_t.warm) ---- */

/* The load state a worker serves: the lane's own for the lane's worker. */
static engine_warm *warm_state(key_dev_t *kd, int lane)
{
    return lane ? &kd->lane_warm : &kd->warm;
}

/* A key waiting for this worker's kind of load on dev, or NULL. With the
 * mutex. */
static engine_key_t *warm_pick(engine_t *e, const eng_device_t *dev, int lane)
{
    for (engine_key_t *k = e->keys; k; k = k->next)
        if (*warm_state(&k->dev[dev->index], lane) == ENGINE_WARM_PENDING)
            return k;
    return NULL;
}

typedef struct warm_progress {
    engine_t *e;
    key_dev_t *kd;
} warm_progress_t;

/* device_t.warm's progress, on the loading worker's thread (no
 * engine lock held there). */
static void warm_progress(void *pctx, uint64_t done, uint64_t total)
{
    warm_progress_t *wp = pctx;
    pthread_mutex_lock(&wp->e->mu);
    if (total)
        wp->kd->warm_total = total;
    if (done > wp->kd->warm_done) /* never backwards */
        wp->kd->warm_done = done < wp->kd->warm_total ? done : wp->kd->warm_total;
    pthread_mutex_unlock(&wp->e->mu);
}

/* The lane's load reports no progress: the regular load's is the key's. */
static void warm_progress_none(void *pctx, uint64_t done, uint64_t total)
{
    (void)pctx;
    (void)done;
    (void)total;
}

/* Loads k on this worker's backend, as a preload asked; called with the
 * mutex, returns with it (dropped meanwhile). A key evicted since the
 * request is only let go. */
static void warm_run(eng_worker_t *wk, engine_key_t *k)
{
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    key_dev_t *kd = &k->dev[dev->index];
    engine_warm *ws = warm_state(kd, wk->lane);
    if (!kd->resv.ledger) {
        *ws = ENGINE_WARM_NONE;
        eng_key_unref(e, k);
        return;
    }
    *ws = ENGINE_WARM_LOADING;
    if (!wk->lane) {
        kd->warm_done = 0;
        kd->warm_total = kd->resident;
    }
    kd->in_use++; /* not evicted while it loads */
    int drop = worker_claim(wk, k);
    eng_unlock(e);
    cuzk_error_t err = {0};
    cuzk_status st = CUZK_OK;
    uint64_t t0 = ledger_clock_ns();
    if (drop)
        worker_drop(wk);
    if (!wk->be && (st = dev->d.backend_new(dev->d.ctx, dev->index, worker_role(wk), &wk->be,
                                            &err)) != CUZK_OK)
        wk->be = NULL;
    warm_progress_t wp = {e, kd};
    if (st == CUZK_OK)
        st = dev->d.warm(dev->d.ctx, wk->be, k->spec.pk, k->spec.circuit,
                         wk->lane ? warm_progress_none : warm_progress, &wp, &err);
    if (st != CUZK_OK && wk->be) { /* as after a failed proof: remake it */
        dev->d.backend_free(dev->d.ctx, wk->be);
        wk->be = NULL;
    }
    uint64_t t1 = ledger_clock_ns();
    eng_emit(e, NULL, -1, dev->index, ENGINE_STAGE_LOAD, t0, t1, st);
    pthread_mutex_lock(&e->mu);
    kd->in_use--;
    *ws = st == CUZK_OK ? ENGINE_WARM_DONE : ENGINE_WARM_FAILED;
    if (!wk->lane) {
        kd->warm_ms = (t1 - t0) / 1000000u;
        if (st == CUZK_OK)
            kd->warm_done = kd->warm_total;
    }
    kd->last_used_ns = t1;
    if (st != CUZK_OK)
        wk->last_key = NULL;
    eng_key_unref(e, k); /* the request's reference */
    pthread_cond_broadcast(&e->ready_cv);
}

void *eng_worker_main(void *arg)
{
    eng_worker_t *wk = arg;
    eng_device_t *dev = wk->dev;
    engine_t *e = dev->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        eng_reap(e);
        eng_task_t *t = NULL;
        pick_ctx_t pc = {e, dev, wk->lane};
        while (!e->stopping && !(t = eng_queue_pick(&e->ready_q, ledger_clock_ns(), e->cfg.aging_ns,
                                                    ready_ok, &pc))) {
            if (wk->evict_pending) { /* an eviction named this idle worker */
                wk->evict_pending = 0;
                eng_unlock(e);
                worker_drop(wk);
                pthread_mutex_lock(&e->mu);
                continue;
            }
            /* preload loads (the lane's worker: critical keys' only) */
            engine_key_t *wkey = dev->d.warm ? warm_pick(e, dev, wk->lane) : NULL;
            if (wkey) { /* no task to run here: a preload's load */
                warm_run(wk, wkey);
                eng_reap(e);
                continue;
            }
            unsigned *idle = wk->lane ? &dev->lane_idle : &dev->idle;
            (*idle)++;
            eng_wait(e, &e->ready_cv);
            (*idle)--;
        }
        if (e->stopping)
            break;
        task_take(e, wk, t);
        eng_unlock(e);
        cuzk_error_t err = {0};
        outcome o = task_run(wk, t, &err);
        pthread_mutex_lock(&e->mu);
        task_finish(wk, t, o, &err);
    }
    eng_unlock(e);
    if (wk->be)
        dev->d.backend_free(dev->d.ctx, wk->be);
    wk->be = NULL;
    pthread_mutex_lock(&e->mu);
    wk->last_key = NULL;
    eng_worker_dropped(e, dev, wk->index);
    eng_unlock(e);
    return NULL;
}
