/* The engine's private state, shared by src/engine/engine*.c.
 *
 * Who owns what (redis bio.c style):
 *  - engine_t.mu guards everything below that is not marked otherwise: the
 *    job table, both queues, every task's queue links and `where`, every
 *    job's counters and state, the key list, every key's refs and per-device
 *    residency, every device's counters and idle/busy counts (the critical
 *    lane's worker apart: lane_idle, lane_busy), and each worker's
 *    last_key / evict_pending. It is never held while user code
 *    runs (plan, backend, event hook, key destructor) nor across a wait in
 *    ledger_admit; the non-blocking ledger calls (reserve_persistent,
 *    release, stats, cancel) are made under it (lock order engine.mu ->
 *    token.mu -> ledger.mu; the ledger calls back into nothing).
 *  - A task that is WITNESSING belongs to the pool thread that took it, and
 *    one that is ON_DEVICE to the worker that took it: that thread alone
 *    touches its witness buffers and timings until it hands the task back
 *    under the mutex. A job being verified belongs to its pool thread in the
 *    same way (proofs and inputs). A job is freed only once settled (final
 *    and in_flight == 0), so a thread holding one of its tasks keeps it
 *    alive, cancel token included.
 *  - worker.be belongs to the worker thread (made, used, freed there).
 *  - Key destructors run after the mutex is dropped (eng_unlock reaps the
 *    keys whose last reference went while it was held).
 * Queues are mutex + condition variable FIFOs (one per priority level):
 * witness_cv wakes the pool (new witness work, ready space, verify work),
 * ready_cv wakes device workers, done_cv wakes engine_await / drain. */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>

#include "cuzk/engine.h"
#include "cuzk/fr_pack.h"
#include "cuzk/wtns.h"

typedef struct eng_job eng_job_t;
typedef struct eng_device eng_device_t;

/* Reusable witness buffers (hostpool.c); a mutex of its own, taken with or
 * without the engine's, never the other way round. */
#define ENG_HOSTPOOL_MAX 64
typedef struct eng_hostbuf {
    void *p;
    size_t bytes;
    int hook; /* made by the config's host_alloc (else malloc) */
} eng_hostbuf_t;
typedef struct eng_hostpool {
    pthread_mutex_t mu;
    void *(*alloc)(void *ctx, size_t bytes);
    void (*free)(void *ctx, void *p, size_t bytes);
    void *ctx;
    unsigned keep, n;
    size_t cap, live; /* the allocator's bytes: at most cap (0: no cap), live now */
    eng_hostbuf_t bufs[ENG_HOSTPOOL_MAX];
} eng_hostpool_t;

typedef enum task_where {
    TASK_WITNESS_Q = 0, /* waiting for the witness stage */
    TASK_WITNESSING,
    TASK_READY_Q, /* witnessed, waiting for a device */
    TASK_ON_DEVICE,
    TASK_PROVED,
    TASK_DROPPED, /* its job failed or was cancelled first */
} task_where;

typedef struct eng_task {
    struct eng_task *prev, *next; /* queue links */
    eng_job_t *job;
    uint32_t index;
    cuzk_priority prio;
    uint64_t enq_ns, seq; /* arrival in the current queue (aging, FIFO) */
    task_where where;
    /* the input, copied at submit */
    engine_witness_form form;
    uint8_t *raw;
    size_t raw_size;
    fr_t *wcopy;           /* ENGINE_WITNESS_FR (malloc), ENGINE_WITNESS_FN (made in the stage) */
    eng_hostpool_t *wpool; /* wcopy came from this pool (ENGINE_WITNESS_FN), else NULL */
    int wpool_hook;        /* ... made by its host allocator */
    engine_witness_fn fn;
    void *fn_ctx;
    engine_witness_pack_fn pack_fn; /* optional: made packed (engine_t.pack, no check) */
    /* the witness stage's output: w points into wt.w or wcopy */
    wtns_t wt;
    const fr_t *w;
    fr_pack_t pack; /* ... or packed (engine_t.pack): w is then NULL */
    int packed;
    size_t w_bytes; /* host bytes counted against ready_bytes_max */
    /* device attempts */
    uint64_t failed_mask; /* devices where it failed */
    int skip_dev;         /* -1, or a device to avoid until its idle_gen moves */
    uint64_t skip_gen;
    int kept; /* the last proof's key stays on the device (device_admit_t.kept) */
    engine_part_timing_t tm;
} eng_task_t;

typedef struct eng_queue {
    eng_task_t *first[CUZK_PRIO_COUNT], *last[CUZK_PRIO_COUNT];
    unsigned n[CUZK_PRIO_COUNT];
} eng_queue_t;

/* A settled job's on_done, queued under the engine's lock and delivered by
 * eng_unlock after the lock is dropped. */
typedef struct eng_note {
    engine_done_t done;
    struct eng_note *next;
} eng_note_t;

struct eng_job {
    engine_job_id_t id;
    engine_kind kind;
    cuzk_priority prio;
    void *user;            /* engine_job_spec_t.user */
    struct eng_note *note; /* its on_done, made at submit so it cannot fail later */
    engine_key_t *key;     /* a reference, dropped when settled */
    uint32_t n_public;
    size_t n;
    eng_task_t *tasks;
    groth16_proof_t *proofs;
    fr_t *inputs; /* n x n_public */
    size_t witnessed, proved;
    unsigned in_flight; /* tasks witnessing or on a device, plus 1 while verifying */
    unsigned awaiting;  /* threads in engine_await on it: not dropped meanwhile */
    engine_job_state state;
    int final, settled;
    cuzk_error_t error;
    ledger_cancel_t cancel;
    int fixed_rs;
    fr_t r, s;
    uint64_t submit_ns, done_ns, verify_ns;
    eng_job_t *vnext;               /* verify queue */
    eng_job_t *ret_prev, *ret_next; /* settled jobs, oldest first */
};

typedef struct key_dev {
    int planned;
    device_layout layout;     /* the plan under the device's capacity */
    size_t resident, scratch; /* ... and its bytes */
    ledger_resv_t resv;       /* non-empty while resident */
    unsigned in_use;          /* partitions assigned here, and a warm loading */
    uint64_t last_used_ns;
    engine_warm warm;      /* PENDING holds a reference on the key */
    engine_warm lane_warm; /* the critical lane's load (critical keys), the same way */
    uint64_t warm_ms;
    uint64_t warm_done, warm_total; /* bytes (engine_key_info_t) */
} key_dev_t;

struct engine_key {
    char name[ENGINE_NAME_MAX];
    engine_key_spec_t spec;
    unsigned refs;
    engine_key_t *prev, *next; /* the engine's list; next also links the dead list */
    key_dev_t dev[ENGINE_MAX_DEVICES];
};

/* A device's workers: device_t.workers (1..64) regular ones, then, with
 * engine_config_t.critical_lane, the lane's: one more that takes only tasks
 * whose own priority is CRITICAL (not aged ones) and loads only critical
 * keys' preloads. */
#define ENG_WORKERS_MAX 65
#define ENG_MASK_WORDS ((ENG_WORKERS_MAX + 63) / 64)

typedef struct eng_worker {
    eng_device_t *dev;
    int index; /* in dev->workers */
    int lane;  /* the critical lane's worker (the last one) */
    pthread_t tid;
    int started;
    groth16_backend_t *be;
    /* The key be may hold on the device (NULL: none); compared only, never
     * dereferenced. Set before a proof or load with the key, which keeps it
     * in use (never evicted) until it ends. */
    const engine_key_t *last_key;
    int evict_pending; /* drop what be holds, then leave the drains */
} eng_worker_t;

/* An evicted key's reservation, kept (as a stage reservation: it is leaving)
 * until every worker whose backend may hold the key has dropped it, so the
 * ledger never counts bytes free that a backend still holds. A worker is in
 * at most one drain (it drops before it can hold another key), so a device
 * needs one slot per worker. */
typedef struct eng_drain {
    ledger_resv_t resv;            /* empty: the slot is free */
    uint64_t mask[ENG_MASK_WORDS]; /* workers yet to drop, by index (the lane's included) */
} eng_drain_t;

struct eng_device {
    engine_t *e;
    int index;
    device_t d;
    char name[ENGINE_NAME_MAX];
    ledger_t ledger;
    int ledger_ok;
    eng_worker_t *workers; /* n_workers: d.workers regular ones, then the lane's */
    int n_workers;
    eng_drain_t *drains; /* n_workers slots */
    unsigned n_drains;   /* slots in use */
    /* idle: regular workers waiting for a task (ready_ok asks for one: the
     * lane's cannot take every task, so it is counted apart in lane_idle);
     * busy: every worker with a task, the lane's too (lane_busy: it alone). */
    unsigned idle, busy, lane_idle, lane_busy;
    uint64_t idle_gen; /* moves when a key stops being in use here */
    uint64_t proofs, failures, streamed, evictions;
};

struct engine {
    pthread_mutex_t mu;
    pthread_cond_t witness_cv, ready_cv, done_cv;
    engine_config_t cfg;
    eng_device_t *devs;
    unsigned n_devs;
    pthread_t *pool;
    int n_pool;
    int closing;  /* engine_destroy began: submit refused */
    int stopping; /* threads exit */
    int pack;     /* witnesses wait packed (cfg.witness_pack, resolved) */
    uint64_t packed, packed_bytes;
    eng_queue_t witness_q, ready_q;
    eng_hostpool_t wpool;
    unsigned ready_count; /* tasks witnessing or in ready_q */
    size_t ready_bytes;
    unsigned witnessing, verifying;
    eng_job_t *verify_first, *verify_last;
    eng_job_t **jobs; /* sorted by id */
    size_t n_jobs, cap_jobs;
    eng_job_t *ret_first, *ret_last;
    unsigned n_retained;
    unsigned unsettled;
    engine_key_t *keys, *dead_keys;
    eng_note_t *notes_first, *notes_last; /* on_done owed, in settle order */
    unsigned n_keys;
    uint64_t next_id, seq;
    uint64_t submitted[ENGINE_KIND_COUNT], done[ENGINE_KIND_COUNT], failed[ENGINE_KIND_COUNT],
        cancelled[ENGINE_KIND_COUNT];
};

/* engine.c */
/* Drops the mutex, then runs pending key destructors and delivers pending
 * on_done notes (in settle order). */
void eng_unlock(engine_t *e);
/* With the mutex held: runs pending key destructors and delivers pending
 * on_done notes (dropping it meanwhile). */
void eng_reap(engine_t *e);
/* pthread_cond_wait / sync_cond_wait_until on e->mu, except that pending
 * destructors and notes are delivered instead of sleeping (a wakeup to the
 * caller, who re-checks its condition). eng_wait_until: 0 on timeout. */
void eng_wait(engine_t *e, pthread_cond_t *cv);
int eng_wait_until(engine_t *e, pthread_cond_t *cv, uint64_t deadline);
void eng_emit(engine_t *e, const eng_job_t *job, int part, int dev, engine_stage stage, uint64_t t0,
              uint64_t t1, cuzk_status st);
void eng_job_fail(engine_t *e, eng_job_t *j, const cuzk_error_t *why);
void eng_job_settle_maybe(engine_t *e, eng_job_t *j);
void eng_task_free_buffers(eng_task_t *t);

/* hostpool.c: keep = buffers kept for reuse (at most ENG_HOSTPOOL_MAX) */
void eng_hostpool_init(eng_hostpool_t *p, const engine_config_t *cfg, const device_t *devices,
                       unsigned keep);
/* A buffer of exactly bytes: a kept one, else a new one from the host
 * allocator, else malloc; *hook says which (give it back to put). NULL when
 * out of memory. */
void *eng_hostpool_get(eng_hostpool_t *p, size_t bytes, int *hook);
void eng_hostpool_put(eng_hostpool_t *p, void *m, size_t bytes, int hook);
/* Bytes (and *count buffers) kept now; *live: the allocator's bytes alive. */
size_t eng_hostpool_bytes(eng_hostpool_t *p, unsigned *count, size_t *live);
void eng_hostpool_destroy(eng_hostpool_t *p);

/* engine_queue.c */
void eng_queue_push(eng_queue_t *q, eng_task_t *t, uint64_t now, uint64_t *seq);
void eng_queue_remove(eng_queue_t *q, eng_task_t *t);
/* The first task in service order that ok() accepts (> 0), skipping those it
 * refuses (0) and giving up at the first it says must not be passed (< 0);
 * ok NULL: the first. */
eng_task_t *eng_queue_pick(const eng_queue_t *q, uint64_t now, uint64_t aging_ns,
                           int (*ok)(const eng_task_t *t, void *ctx), void *ctx);

/* engine_keys.c */
void eng_key_ref(engine_key_t *k);
void eng_key_unref(engine_t *e, engine_key_t *k);
/* Evicts k on device d (must be idle there). Its reservation is released
 * once the workers whose backends may hold k have dropped it (a drain). */
void eng_key_evict_dev(engine_t *e, engine_key_t *k, eng_device_t *dev);
/* With the mutex: worker w of dev holds nothing now; drains it was the
 * last holder of are released. */
void eng_worker_dropped(engine_t *e, eng_device_t *dev, int w);
/* Makes room for `need` bytes on dev by evicting idle keys other than keep,
 * least recently used first, but only when that can make need fit now.
 * Returns 1 when need fits now afterwards. */
int eng_make_room(engine_t *e, eng_device_t *dev, const engine_key_t *keep, size_t need);
/* Evicts every idle key on dev except keep; returns how many. */
unsigned eng_evict_idle(engine_t *e, eng_device_t *dev, const engine_key_t *keep);
/* 1 when a key other than k is in use on dev. */
int eng_others_in_use(const eng_device_t *dev, const engine_t *e, const engine_key_t *k);
/* Plans k on dev if not yet done. Called without the mutex. */
cuzk_status eng_key_plan(engine_t *e, engine_key_t *k, eng_device_t *dev, cuzk_error_t *err);
/* With the mutex: the key resident on dev (1), or not (0). */
int eng_key_make_resident(engine_t *e, engine_key_t *k, eng_device_t *dev, cuzk_priority prio);

/* engine_pipeline.c */
void *eng_pool_main(void *arg);
void *eng_lane_main(void *arg); /* the critical lane (engine_config_t.critical_lane) */
void *eng_worker_main(void *arg);

#endif
