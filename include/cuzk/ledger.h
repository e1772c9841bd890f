/* The per-device VRAM admission ledger: VRAM is a budget, not a lock
 * (DESIGN.md 3.2).
 *
 * Each device has one ledger_t holding its capacity in bytes. A job stage
 * declares its peak VRAM and is admitted all-or-nothing before it touches the
 * device; it releases the reservation when the stage's device memory is
 * free again. Persistent data (proving keys, precompiled circuits) is
 * reserved when it is loaded and released when it is evicted. The ledger
 * only counts: it never allocates device memory.
 *
 * Service order. Waiting requests are served strictly in order of
 * (effective priority, arrival): only the first request in that order can be
 * granted, and nothing behind it is granted while it does not fit, so a large
 * request is never starved by small ones behind it. A waiter's effective
 * priority rises one level per aging period spent waiting (up to CRITICAL),
 * so with aging on (the default) every waiter is admitted once the stages
 * already holding memory release it: after at most three periods it is
 * CRITICAL, and then only earlier arrivals go first. With aging off (period
 * 0) the order is strict priority and a flood of higher work can starve
 * lower work.
 *
 * Refusals. A request that could not fit even with every stage released
 * (bytes > capacity - persistent) fails at once with CUZK_ERR_CAPACITY, and
 * nothing is allowed to make a queued request unable to fit (a persistent
 * reservation or a capacity change that would is refused with
 * CUZK_ERR_BUSY), so a queued request waits only for stage reservations,
 * which by contract end.
 *
 * The caller's side of the rule: never wait in ledger_admit while holding a
 * reservation, on this ledger or another, that a waiter may need. A job
 * releases stage k before it admits stage k+1 (or admits the peak of both at
 * once).
 *
 * Rules for these functions:
 *  - argument order: the ledger (or the reservation) first, then outputs,
 *    then inputs, cuzk_error_t *err last; sizes are bytes;
 *  - NULL: err may be NULL; the ledger_wait_t may be NULL (no deadline, no
 *    token); functions that return no status (ledger_release, ledger_stats,
 *    ledger_cancel, ledger_cancel_waiters, ledger_cancelled) do nothing for
 *    NULL, and ledger_release nothing for an empty reservation; for the
 *    others a NULL or uninitialised ledger, reservation or token is
 *    CUZK_ERR_ARG;
 *  - on failure *out is the empty reservation (LEDGER_RESV_EMPTY), so
 *    cleanup code may release it unconditionally;
 *  - thread safety: every function may be called on one ledger from any
 *    number of threads at once, except ledger_init and ledger_destroy, which
 *    need every other call on that ledger to have returned. A ledger_resv_t
 *    belongs to one thread at a time: hand it to another thread with your
 *    own synchronisation. A cancel token may be set from any thread.
 *  - only ledger_admit blocks. The ledger's mutex is internal, never held
 *    while the caller's code runs, and the ledger calls back into nothing. */
#ifndef CUZK_LEDGER_H
#define CUZK_LEDGER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/priority.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Aging period of a new ledger: a waiter gains one priority level per 10 s
 * waited, so a LOW stage is CRITICAL after 30 s (PoRep stages take ~1-4 s
 * of GPU time, DESIGN.md 2). */
#define LEDGER_AGING_DEFAULT_NS (10ull * 1000000000ull)

typedef enum ledger_kind {
    LEDGER_STAGE = 0,      /* a job stage's peak VRAM, held while the stage runs */
    LEDGER_PERSISTENT = 1, /* resident data, held until evicted */
} ledger_kind;

typedef struct ledger ledger_t;

/* A granted reservation. Empty (ledger == NULL) when never granted or
 * already released. Read-only for the caller. */
typedef struct ledger_resv {
    ledger_t *ledger;
    size_t bytes;
    ledger_kind kind;
} ledger_resv_t;

#define LEDGER_RESV_EMPTY ((ledger_resv_t){NULL, 0, LEDGER_STAGE})

/* A cancel token: set once from any thread, it ends every ledger_admit that
 * waits with it (on any ledger) with CUZK_ERR_CANCELLED, and makes later
 * ones fail at once. Fields are private. */
struct ledger_cancel_reg;
typedef struct ledger_cancel {
    pthread_mutex_t mu; /* guards regs; taken before any ledger's mutex */
    int set;            /* atomic (__atomic builtins) */
    uint32_t magic;
    struct ledger_cancel_reg *regs; /* admits now waiting with this token */
} ledger_cancel_t;

/* How long ledger_admit may wait. deadline_ns is a ledger_clock_ns() time
 * (0: no deadline); a deadline that has passed fails even a request that
 * would fit. cancel may be NULL; it must outlive the call. */
typedef struct ledger_wait {
    uint64_t deadline_ns;
    ledger_cancel_t *cancel;
} ledger_wait_t;

typedef struct ledger_stats {
    size_t capacity;
    size_t reserved;      /* held now: stages and persistent */
    size_t persistent;    /* the persistent part of reserved */
    size_t peak_reserved; /* the most reserved at any time since init */
    size_t waiting_bytes; /* asked by all queued requests together */
    size_t head_bytes;    /* asked by the first request in service order; 0: none */
    unsigned waiters;     /* queued requests */
    unsigned waiters_by_prio[CUZK_PRIO_COUNT]; /* by the priority they asked with */
    uint64_t admitted;                         /* grants, persistent ones included */
    uint64_t released; /* releases (a second release of one reservation is not counted) */
    uint64_t timed_out, cancelled;
    uint64_t busy;      /* try/persistent requests refused because they would wait */
    uint64_t too_large; /* requests refused with CUZK_ERR_CAPACITY */
    uint64_t wait_ns;   /* total time granted requests spent queued */
    uint64_t aging_ns;  /* the aging period; 0: off */
} ledger_stats_t;

/* Private state; read it through ledger_stats. Guarded by mu. */
struct ledger_waiter;
struct ledger {
    pthread_mutex_t mu;
    uint32_t magic;
    size_t capacity, reserved, persistent, peak;
    uint64_t aging_ns;
    struct ledger_waiter *first, *last; /* the queue, in arrival order */
    unsigned nwait[CUZK_PRIO_COUNT];
    uint64_t admitted, released, timed_out, cancelled, busy, too_large, wait_ns;
};

/* Monotonic clock (CLOCK_MONOTONIC) in ns, the time base of deadlines. */
uint64_t ledger_clock_ns(void);

/* Returns: CUZK_OK, CUZK_ERR_ARG, CUZK_ERR_NOMEM (mutex). Aging starts at
 * LEDGER_AGING_DEFAULT_NS. A capacity of 0 admits only 0-byte requests. */
cuzk_status ledger_init(ledger_t *l, size_t capacity, cuzk_error_t *err);
/* Refuses (CUZK_ERR_BUSY, the ledger stays usable) while anything is
 * reserved or queued: release persistent reservations first. */
cuzk_status ledger_destroy(ledger_t *l, cuzk_error_t *err);

/* period_ns: time per priority level gained while waiting; 0 turns aging off. */
cuzk_status ledger_set_aging(ledger_t *l, uint64_t period_ns, cuzk_error_t *err);
/* Changes the budget (the vram_budget setting). Refused with CUZK_ERR_BUSY
 * below what is reserved, or where a queued request could no longer fit;
 * growing admits waiters that now fit. */
cuzk_status ledger_set_capacity(ledger_t *l, size_t capacity, cuzk_error_t *err);

/* Waits until the whole of bytes is granted at priority prio, in service
 * order, then fills *out.
 * Returns: CUZK_OK (granted); CUZK_ERR_CAPACITY at once when bytes >
 * capacity - persistent (the message gives both); CUZK_ERR_TIMEOUT at
 * w->deadline_ns; CUZK_ERR_CANCELLED when w->cancel is set or
 * ledger_cancel_waiters runs; CUZK_ERR_ARG; CUZK_ERR_NOMEM. On any error
 * nothing is held. A grant decided before a cancel or deadline was seen
 * stands (CUZK_OK): check your token afterwards if that matters. */
cuzk_status ledger_admit(ledger_t *l, ledger_resv_t *out, size_t bytes, cuzk_priority prio,
                         const ledger_wait_t *w, cuzk_error_t *err);

/* Grants at once or not at all: only when bytes fit now and prio is higher
 * than every queued request's effective priority (a try never overtakes a
 * waiter of its own level).
 * Returns: CUZK_OK; CUZK_ERR_BUSY (would wait); CUZK_ERR_CAPACITY; CUZK_ERR_ARG. */
cuzk_status ledger_try_admit(ledger_t *l, ledger_resv_t *out, size_t bytes, cuzk_priority prio,
                             cuzk_error_t *err);

/* Reserves resident data (a proving key at load time) under the rules of
 * ledger_try_admit, and also refuses when it would leave a queued request
 * unable to ever fit. It never waits: what to do when a key does not fit
 * (evict an unreferenced key, or keep it in host memory and stream it) is
 * the residency manager's decision, and a loader must not wait holding the
 * host buffers and references it has. Eviction is ledger_release.
 * Returns: CUZK_OK; CUZK_ERR_BUSY; CUZK_ERR_CAPACITY; CUZK_ERR_ARG. */
cuzk_status ledger_reserve_persistent(ledger_t *l, ledger_resv_t *out, size_t bytes,
                                      cuzk_priority prio, cuzk_error_t *err);

/* Gives back part of a held reservation (a stage that freed a buffer);
 * the reservation now holds bytes. Growing is not offered: it would be a
 * wait while holding. Returns: CUZK_OK; CUZK_ERR_ARG (empty reservation, or
 * bytes more than held). */
cuzk_status ledger_shrink(ledger_resv_t *r, size_t bytes, cuzk_error_t *err);

/* Turns a persistent reservation into a stage one, keeping its bytes: data
 * that is leaving the device (an evicted key that a backend has yet to free)
 * is held until it is gone, and is no longer resident, so requests may wait
 * for it as for any stage. A stage reservation is left as it is.
 * Returns: CUZK_OK; CUZK_ERR_ARG (empty reservation). */
cuzk_status ledger_demote(ledger_resv_t *r, cuzk_error_t *err);

/* Returns the reservation to its ledger, wakes waiters that now fit, and
 * empties *r. Idempotent: an empty reservation (or NULL) is a no-op. */
void ledger_release(ledger_resv_t *r);

/* Ends every request queued now with CUZK_ERR_CANCELLED (device shutdown or
 * failure); later requests are not affected. Returns how many it ended. */
unsigned ledger_cancel_waiters(ledger_t *l);

/* A consistent snapshot. out is zeroed when l is not an initialised ledger. */
void ledger_stats(const ledger_t *l, ledger_stats_t *out);

/* Returns: CUZK_OK, CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status ledger_cancel_init(ledger_cancel_t *c, cuzk_error_t *err);
/* Refuses (CUZK_ERR_BUSY) while an admit is waiting with the token. */
cuzk_status ledger_cancel_destroy(ledger_cancel_t *c, cuzk_error_t *err);
/* Sets the token and wakes its waiters. Safe from any thread, repeatable. */
void ledger_cancel(ledger_cancel_t *c);
/* 1 once ledger_cancel has run on c, else 0 (also for NULL). */
int ledger_cancelled(const ledger_cancel_t *c);

#ifdef __cplusplus
}
#endif
#endif
