/* The daemon's private state, shared by its units:
 *   daemon.c           lifetime, the engine's event hook, the completion
 *                      thread, resume, logging
 *   daemon_jobs.c      the job table, submit, await, cancel, results
 *   daemon_registry.c  the circuit registry (and Filecoin's v28 parameters)
 *   daemon_filecoin.c  Filecoin requests: public values, job, journal header
 *   daemon_status.c    typed stats, the status JSON, the metrics
 *   daemon_http.c      GET /status and GET /metrics
 *
 * Owners and locks (taken in this order, never the other way round):
 *   submit_mu  serialises the queue-limit check, journal_accept and the
 *              job's entry in the table, so the limit holds and a request
 *              id's job is in the table before a duplicate can see it;
 *   mu         the job table and its flags, device busy windows, the
 *              recent ring, the counters, the stop flags; held briefly,
 *              never across an engine call, a journal call or a load;
 *   reg.mu     the registry (independent of mu: neither is taken under
 *              the other).
 * The engine's hooks (on_event, on_done) take mu only; the completion thread owns every
 * journal transition of a job after its submit (mark_running, finish) and
 * takes mu only to gather work and to publish results. A job that never
 * reached the engine (eid 0) is finished by the thread that submitted it. */
#ifndef CUZK_DAEMON_INTERNAL_H
#define CUZK_DAEMON_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/daemon.h"
#include "cuzk/eventlog.h"
#include "cuzk/filecoin_job.h"
#include "cuzk/http.h"
#include "cuzk/journal.h"
#include "cuzk/metrics.h"
#include "cuzk/request.h"

/* How often the completion thread retries a job's journal_finish that
 * failed (job ends themselves wake it: the engine's on_done). */
#define DMN_RETRY_MS 200

/* ---- a uint64 -> pointer map (chained; the job table's two indexes) ---- */

typedef struct dmn_map_node {
    uint64_t key;
    void *val;
    struct dmn_map_node *next;
} dmn_map_node_t;

typedef struct dmn_map {
    dmn_map_node_t **b;
    size_t nb, n;
} dmn_map_t;

/* 0 on success, -1 out of memory. A key present already gets the new value. */
int dmn_map_put(dmn_map_t *m, uint64_t key, void *val);
void *dmn_map_get(const dmn_map_t *m, uint64_t key);
void dmn_map_del(dmn_map_t *m, uint64_t key);
void dmn_map_free(dmn_map_t *m);

/* ---- the registry (daemon_registry.c) ---- */

/* ---- Filecoin requests (daemon_filecoin.c) ---- */

/* The journal header of a Filecoin job (input 0; daemon_filecoin.c). */
#define DMN_FIL_HEADER_BYTES 176

typedef struct dmn_fil dmn_fil_t;
/* One partition's witness generator context (engine_witness_t.ctx). */
typedef struct dmn_fil_part {
    const dmn_fil_t *fil;
    unsigned index;
} dmn_fil_part_t;

/* A Filecoin job as the daemon holds it: the library's job, its parts'
 * contexts, and the sizes the witnesses are made at (set once the key is
 * loaded, before the engine sees the job). */
struct dmn_fil {
    fil_job_t *job;
    dmn_fil_part_t *parts;
    unsigned n_parts;
    size_t n_public; /* the circuit's, ONE excluded */
    int threads;     /* synthesis.stage_threads: what a diagnosis uses */
};

int dmn_is_filecoin(engine_kind kind);
void dmn_fil_header_write(uint8_t out[DMN_FIL_HEADER_BYTES], const daemon_filecoin_t *f);
/* f points into h. CUZK_ERR_FORMAT for a damaged header. */
cuzk_status dmn_fil_header_read(daemon_filecoin_t *f, const uint8_t *h, size_t len,
                                cuzk_error_t *err);
/* The public values of a request (daemon.h's numbering), before the
 * vanilla proofs complete them. CUZK_ERR_ARG naming the field. */
cuzk_status dmn_fil_public(fil_public_t *p, engine_kind kind, const daemon_filecoin_t *f,
                           cuzk_error_t *err);
/* The job of a request: fil_job_new's errors, its messages naming
 * vanilla_proof or vanilla_proofs[i]. */
cuzk_status dmn_fil_new(dmn_fil_t **out, engine_kind kind, const daemon_filecoin_t *f,
                        cuzk_error_t *err);
void dmn_fil_free(dmn_fil_t *x); /* accepts NULL */
/* engine_witness_fn over a dmn_fil_part_t. */
cuzk_status dmn_fil_witness(void *ctx, fr_t *w, size_t n, int threads, cuzk_error_t *err);
/* engine_witness_pack_fn: the same witness made packed. */
cuzk_status dmn_fil_witness_pack(void *ctx, fr_pack_t *pack, size_t n, int threads,
                                 cuzk_error_t *err);
/* A job whose proof failed verification: when the vanilla proof is what
 * the circuit refuses, *error becomes CUZK_ERR_INVALID naming the
 * partition and the constraint (fil_job_diagnose, on the failed
 * partition, or every one when the message names none); otherwise it is
 * left as it is. Seconds of CPU at 32 GiB: a rare path. x may be NULL. */
void dmn_fil_diagnose(const dmn_fil_t *x, cuzk_error_t *error);

typedef struct dmn_key {
    char id[DAEMON_KEY_ID_MAX + 1];
    int filecoin; /* a v28 parameter set: id is its stem */
    groth16_convention format;
    daemon_key_state state; /* LOADING or LOADED (ON_DISK keys have no entry) */
    uint64_t bytes, loaded_bytes, load_ms;
    size_t n_public; /* the circuit's inputs (LOADED) */
    uint64_t last_used_ns;
    unsigned users;   /* submitters between dmn_registry_get and _put */
    engine_key_t *ek; /* the registry's reference (LOADED) */
    struct dmn_key *next;
} dmn_key_t;

typedef struct dmn_registry {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a load ended */
    dmn_key_t *keys;
    engine_t *engine;
    char dir[CONFIG_PATH_MAX];
    char fil_dir[CONFIG_PATH_MAX]; /* srs.filecoin_params, or filecoin-proofs' default */
    uint64_t max_resident;
    int threads;
    /* Told (reg.mu held) when a loaded key is dropped: evicted, or made
     * room for under srs.max_resident. Takes no lock but its own. */
    void (*on_drop)(void *ctx, const char *id);
    void *drop_ctx;
} dmn_registry_t;

cuzk_status dmn_registry_init(dmn_registry_t *r, engine_t *e, const cuzk_config_t *cfg,
                              cuzk_error_t *err);
/* engine_gone: the engine was destroyed (and every key with it), so the
 * registry's references are not released, only its entries freed. */
void dmn_registry_fini(dmn_registry_t *r, int engine_gone);
/* Whether id names a key (loaded, or its files in the directory). */
cuzk_status dmn_registry_check(dmn_registry_t *r, groth16_convention *format, const char *id,
                               cuzk_error_t *err);
/* The loaded key for id, loading it when needed (*waited_ms: the time this
 * call spent loading or waiting for a load; optional). Holds a use until
 * dmn_registry_put, during which the key cannot be evicted. */
cuzk_status dmn_registry_get(dmn_registry_t *r, dmn_key_t **out, uint64_t *waited_ms,
                             const char *id, cuzk_error_t *err);
void dmn_registry_put(dmn_registry_t *r, dmn_key_t *k);
/* The same for a Filecoin job's parameters (fil_job_param_stem): the files
 * <stem>.params and <stem>.vk in fil_dir, the circuit through its cache
 * <stem>.cuzk-r1.ccs beside them. */
cuzk_status dmn_registry_get_fil(dmn_registry_t *r, dmn_key_t **out, uint64_t *waited_ms,
                                 const fil_job_t *job, cuzk_error_t *err);
/* Whether a job's parameter files are there (CUZK_ERR_ARG naming the
 * missing one), without loading them. */
cuzk_status dmn_registry_check_fil(dmn_registry_t *r, const fil_job_t *job, cuzk_error_t *err);
/* The circuit's public inputs of a loaded key. */
size_t dmn_key_n_public(const dmn_key_t *k);
/* Loaded and loading keys; *n of them in a malloc'd *out. */
cuzk_status dmn_registry_list(dmn_registry_t *r, daemon_key_info_t **out, size_t *n,
                              cuzk_error_t *err);

/* ---- jobs (daemon_jobs.c) ---- */

/* A finished job's record: pending its journal_finish (with the result
 * bytes), then in the recent ring (bytes dropped). */
typedef struct dmn_done {
    uint64_t id;
    engine_kind kind;
    engine_job_state state;
    cuzk_error_t error;
    char circuit[REQUEST_CIRCUIT_ID_MAX + 1];
    daemon_times_t times;
    engine_part_timing_t *parts;
    size_t n_parts;
    uint8_t *proof, *pub;
    size_t proof_len, pub_len;
} dmn_done_t;

void dmn_done_free(dmn_done_t *r);

typedef struct dmn_job {
    uint64_t id;         /* the journal's */
    engine_job_id_t eid; /* 0: not in the engine (yet) */
    engine_kind kind;
    cuzk_priority prio;
    char circuit[REQUEST_CIRCUIT_ID_MAX + 1];
    size_t n_partitions;
    engine_job_state state;             /* QUEUED or RUNNING */
    int cancel_requested;               /* daemon_cancel before the engine had it */
    int settled;                        /* the engine's on_done came: collect it */
    int device;                         /* the latest admission; -1 none */
    unsigned running_marks;             /* journal_mark_running calls owed */
    uint64_t accept_ns, first_admit_ns; /* ledger clock: accepted or resumed; first admitted */
    int64_t accept_ms;                  /* the journal's created_ms */
    uint64_t srs_load_ms;
    dmn_fil_t *fil;              /* a Filecoin job: its vanilla proofs and values (owned) */
    dmn_done_t *done;            /* settled, its journal_finish failed: retried */
    struct dmn_job *prev, *next; /* acceptance order */
} dmn_job_t;

/* ---- the daemon ---- */

typedef struct dmn_busy {
    uint64_t sec[DAEMON_BUSY_WINDOW_S]; /* the second (ledger clock) each bucket holds */
    uint64_t ns[DAEMON_BUSY_WINDOW_S];  /* busy ns within it */
    uint64_t covered_until;             /* the end of the latest prove counted */
    unsigned inflight;                  /* admitted partitions without their prove event */
    engine_job_id_t current;
} dmn_busy_t;

struct daemon {
    cuzk_config_t cfg;
    engine_t *engine;
    unsigned n_devices;
    journal_t *journal;
    eventlog_t *events;
    http_server_t *http;
    dmn_registry_t reg;
    int reg_ok;
    uint64_t start_ns;
    int stage_threads; /* the engine's, resolved: what a Filecoin witness uses */

    metrics_t *metrics;
    metrics_family_t *m_proofs, *m_queue, *m_stage, *m_busy, *m_vram_res, *m_vram_tot, *m_key,
        *m_key_dev, *m_job;
    metrics_series_t *s_stage[ENGINE_STAGE_COUNT];
    metrics_series_t *s_job[ENGINE_KIND_COUNT];

    pthread_mutex_t submit_mu;
    pthread_mutex_t mu;
    pthread_cond_t done_cv; /* a job finished, or shutdown (monotonic clock) */
    pthread_cond_t work_cv; /* work for the completion thread (monotonic clock) */
    int stopping;           /* daemon_shutdown */
    int thread_stop;        /* the completion thread's last pass */
    int kick;
    dmn_map_t by_id, by_eid;
    dmn_job_t *first, *last;
    size_t n_jobs;
    dmn_busy_t busy[ENGINE_MAX_DEVICES];
    dmn_done_t *recent[DAEMON_RECENT_MAX]; /* a ring; recent_next is the next slot */
    unsigned recent_next, n_recent;
    daemon_kind_stats_t kinds[ENGINE_KIND_COUNT]; /* submitted, resumed, done, failed, cancelled */
    uint64_t journal_errors;

    pthread_t thread;
    int thread_started;
};

/* daemon.c */
void dmn_log(daemon_t *d, config_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dmn_on_event(void *ctx, const engine_event_t *ev);
void dmn_on_done(void *ctx, const engine_done_t *done);
void dmn_kick_locked(daemon_t *d);

/* daemon_jobs.c */
/* Frees a job that has left the table (its Filecoin job too). */
void dmn_job_free(dmn_job_t *j);
/* A journaled job into the table (mu not held). NULL when out of memory. */
dmn_job_t *dmn_job_add(daemon_t *d, uint64_t id, engine_kind kind, cuzk_priority prio,
                       const char *circuit, size_t n_partitions, int64_t accept_ms, int resumed);
/* The key, then the engine; on failure the job is finished FAILED with
 * the error returned (or CANCELLED when daemon_cancel came first). */
cuzk_status dmn_job_start(daemon_t *d, dmn_job_t *j, const daemon_blob_t *w, size_t n,
                          cuzk_error_t *err);
/* Finishes a job without the engine: journal, table, counters, waiters. */
void dmn_job_finish_now(daemon_t *d, dmn_job_t *j, engine_job_state state,
                        const cuzk_error_t *error);
/* The completion thread's view of a settled engine job: result encoded
 * and journaled (or kept for a retry). */
void dmn_job_collect(daemon_t *d, dmn_job_t *j, engine_result_t *res);
/* Journals a settled job's record r (taking it): on success the job leaves
 * the table; on an I/O error it stays with j->done = r for a retry. */
void dmn_job_publish(daemon_t *d, dmn_job_t *j, dmn_done_t *r);

/* daemon_status.c */
cuzk_status dmn_metrics_init(daemon_t *d, cuzk_error_t *err);
/* A job's end: counted by kind and state; a done one's seconds from
 * acceptance to its verified proof observed by kind. */
void dmn_metrics_count(daemon_t *d, engine_kind kind, engine_job_state state, uint64_t total_ms);
void dmn_metrics_key_unloaded(void *daemon, const char *circuit);
void dmn_busy_add(dmn_busy_t *b, uint64_t start_ns, uint64_t end_ns);
double dmn_busy_ratio(const dmn_busy_t *b, uint64_t now_ns, uint64_t since_ns);

/* daemon_http.c */
cuzk_status dmn_http_start(daemon_t *d, cuzk_error_t *err);

#endif
