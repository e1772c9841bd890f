/* The per-device VRAM admission ledger (see include/cuzk/ledger.h).
 *
 * Who owns what:
 *  - ledger_t.mu guards every field of the ledger and every queued waiter
 *    node. It is held only inside these functions, never while the caller's
 *    code runs, and nothing is called back under it.
 *  - A waiter node lives on the stack of the thread inside ledger_admit. It
 *    is linked into the queue only while that thread is inside the call, and
 *    only dispatch() decides its fate (granted, timed out, cancelled): it
 *    unlinks the node, sets its state and signals its own condition
 *    variable. Grants are handed over directly, under the mutex, so no
 *    thread ever races to claim freed memory and the service order is the
 *    one dispatch() computes.
 *  - A cancel token's mutex guards its list of registrations. Lock order is
 *    token -> ledger, never the reverse: an admit registers with its token
 *    before it takes the ledger's mutex and unregisters after it dropped it.
 *    The token's flag is atomic so that dispatch() can read it under the
 *    ledger's mutex alone.
 *  - A ledger_resv_t belongs to the caller's thread; the ledger writes it
 *    only in the calls that grant, shrink or release it.
 *
 * Nothing waits while holding: a waiting admit holds no reservation (the
 * all-or-nothing grant happens in one step) and sleeps in
 * pthread_cond_timedwait, which drops the mutex. Waiters wake when dispatch()
 * decides their fate, and on their own at their deadline and at each aging
 * boundary (a rise in a waiter's own priority is the only event that can
 * make it the head without a release). model/ledger.pml is the protocol in
 * Promela, checked by spin for deadlock and starvation. */
#include "cuzk/ledger.h"

#include <string.h>
#include <time.h>

#include "util/sync.h"

#define LEDGER_MAGIC 0x4c454447u /* "LEDG" */
#define CANCEL_MAGIC 0x434e434cu /* "CNCL" */

typedef enum wstate { W_WAITING, W_GRANTED, W_TIMED_OUT, W_CANCELLED } wstate;

typedef struct ledger_waiter {
    struct ledger_waiter *prev, *next;
    pthread_cond_t cv;
    size_t bytes;
    cuzk_priority prio;
    uint64_t arrival_ns, deadline_ns;
    const ledger_cancel_t *cancel;
    int kill; /* set by ledger_cancel_waiters */
    wstate state;
} ledger_waiter_t;

struct ledger_cancel_reg {
    ledger_t *l;
    struct ledger_cancel_reg *prev, *next;
};

uint64_t ledger_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int ledger_ok(const ledger_t *l)
{
    return l && l->magic == LEDGER_MAGIC;
}

/* ---- the queue (callers hold l->mu) ---- */

/* prio + one level per aging period waited, capped at CRITICAL. */
static int eff_prio(const ledger_t *l, const ledger_waiter_t *w, uint64_t now)
{
    int p = (int)w->prio;
    if (l->aging_ns == 0 || now <= w->arrival_ns)
        return p;
    uint64_t levels = (now - w->arrival_ns) / l->aging_ns;
    if (levels >= (uint64_t)(CUZK_PRIO_CRITICAL - p))
        return CUZK_PRIO_CRITICAL;
    return p + (int)levels;
}

/* The first waiter in service order: highest effective priority, then
 * earliest arrival (the list is in arrival order). NULL when empty. */
static ledger_waiter_t *queue_head(const ledger_t *l, uint64_t now, int *eff)
{
    ledger_waiter_t *best = NULL;
    int best_p = -1;
    for (ledger_waiter_t *w = l->first; w; w = w->next) {
        int p = eff_prio(l, w, now);
        if (p > best_p) {
            best = w;
            best_p = p;
        }
    }
    if (eff)
        *eff = best_p;
    return best;
}

static void queue_push(ledger_t *l, ledger_waiter_t *w)
{
    w->prev = l->last;
    w->next = NULL;
    if (l->last)
        l->last->next = w;
    else
        l->first = w;
    l->last = w;
    l->nwait[w->prio]++;
}

/* Unlinks w, decides its state and wakes its thread. */
static void queue_finish(ledger_t *l, ledger_waiter_t *w, wstate st)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        l->first = w->next;
    if (w->next)
        w->next->prev = w->prev;
    else
        l->last = w->prev;
    w->prev = w->next = NULL;
    l->nwait[w->prio]--;
    w->state = st;
    pthread_cond_signal(&w->cv);
}

static unsigned queue_len(const ledger_t *l)
{
    unsigned n = 0;
    for (const ledger_waiter_t *w = l->first; w; w = w->next)
        n++;
    return n;
}

static size_t queue_max_bytes(const ledger_t *l)
{
    size_t m = 0;
    for (const ledger_waiter_t *w = l->first; w; w = w->next)
        if (w->bytes > m)
            m = w->bytes;
    return m;
}

static void account_grant(ledger_t *l, size_t bytes, ledger_kind kind)
{
    l->reserved += bytes;
    if (kind == LEDGER_PERSISTENT)
        l->persistent += bytes;
    if (l->reserved > l->peak)
        l->peak = l->reserved;
    l->admitted++;
}

/* Ends waiters that are cancelled or past their deadline, then grants the
 * head while it fits. Called after every change that can let a waiter in:
 * arrival, release, shrink, departure, capacity growth, aging. */
static void dispatch(ledger_t *l, uint64_t now)
{
    ledger_waiter_t *next;
    for (ledger_waiter_t *w = l->first; w; w = next) {
        next = w->next;
        if (w->kill || ledger_cancelled(w->cancel)) {
            l->cancelled++;
            queue_finish(l, w, W_CANCELLED);
        } else if (w->deadline_ns && now >= w->deadline_ns) {
            l->timed_out++;
            queue_finish(l, w, W_TIMED_OUT);
        }
    }
    ledger_waiter_t *h;
    while ((h = queue_head(l, now, NULL)) && h->bytes <= l->capacity - l->reserved) {
        account_grant(l, h->bytes, LEDGER_STAGE);
        l->wait_ns += now - h->arrival_ns;
        queue_finish(l, h, W_GRANTED);
    }
}

/* ---- life cycle and settings ---- */

cuzk_status ledger_init(ledger_t *l, size_t capacity, cuzk_error_t *err)
{
    if (!l)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_init: NULL ledger");
    memset(l, 0, sizeof *l);
    if (pthread_mutex_init(&l->mu, NULL) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "ledger_init: cannot create a mutex");
    l->capacity = capacity;
    l->aging_ns = LEDGER_AGING_DEFAULT_NS;
    l->magic = LEDGER_MAGIC;
    return CUZK_OK;
}

cuzk_status ledger_destroy(ledger_t *l, cuzk_error_t *err)
{
    if (!ledger_ok(l))
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_destroy: not an initialised ledger");
    pthread_mutex_lock(&l->mu);
    size_t reserved = l->reserved, persistent = l->persistent;
    int waiting = l->first != NULL;
    pthread_mutex_unlock(&l->mu);
    if (reserved || waiting)
        return cuzk_error_set(err, CUZK_ERR_BUSY,
                              "ledger_destroy: %zu bytes still reserved (%zu persistent)%s",
                              reserved, persistent, waiting ? " and requests waiting" : "");
    l->magic = 0;
    pthread_mutex_destroy(&l->mu);
    return CUZK_OK;
}

/* Waiters recompute their wake-up time when the period changes. */
static void wake_all(ledger_t *l)
{
    for (ledger_waiter_t *w = l->first; w; w = w->next)
        pthread_cond_signal(&w->cv);
}

cuzk_status ledger_set_aging(ledger_t *l, uint64_t period_ns, cuzk_error_t *err)
{
    if (!ledger_ok(l))
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_set_aging: not an initialised ledger");
    pthread_mutex_lock(&l->mu);
    l->aging_ns = period_ns;
    dispatch(l, ledger_clock_ns());
    wake_all(l);
    pthread_mutex_unlock(&l->mu);
    return CUZK_OK;
}

cuzk_status ledger_set_capacity(ledger_t *l, size_t capacity, cuzk_error_t *err)
{
    if (!ledger_ok(l))
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_set_capacity: not an initialised ledger");
    pthread_mutex_lock(&l->mu);
    size_t reserved = l->reserved, persistent = l->persistent, need = queue_max_bytes(l);
    cuzk_status st = CUZK_OK;
    if (capacity < reserved)
        st = cuzk_error_set(err, CUZK_ERR_BUSY,
                            "ledger_set_capacity: %zu bytes is below the %zu reserved", capacity,
                            reserved);
    else if (need > capacity - persistent)
        st = cuzk_error_set(err, CUZK_ERR_BUSY,
                            "ledger_set_capacity: %zu bytes (%zu persistent) leaves a waiting "
                            "request of %zu bytes unable to fit",
                            capacity, persistent, need);
    else {
        l->capacity = capacity;
        dispatch(l, ledger_clock_ns());
    }
    pthread_mutex_unlock(&l->mu);
    return st;
}

/* ---- admission ---- */

static cuzk_status check_request(const ledger_t *l, const ledger_resv_t *out, cuzk_priority prio,
                                 const char *who, cuzk_error_t *err)
{
    if (!ledger_ok(l))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: not an initialised ledger", who);
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: NULL reservation", who);
    if ((int)prio < 0 || (int)prio >= CUZK_PRIO_COUNT)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: priority %d is not a cuzk_priority", who,
                              (int)prio);
    return CUZK_OK;
}

/* CUZK_ERR_CAPACITY when bytes cannot fit even with every stage released.
 * Called with l->mu held. */
static cuzk_status check_fits_ever(ledger_t *l, size_t bytes, const char *who, cuzk_error_t *err)
{
    if (bytes <= l->capacity - l->persistent)
        return CUZK_OK;
    l->too_large++;
    if (bytes > l->capacity)
        return cuzk_error_set(err, CUZK_ERR_CAPACITY, "%s: %zu bytes asked, capacity %zu", who,
                              bytes, l->capacity);
    return cuzk_error_set(err, CUZK_ERR_CAPACITY,
                          "%s: %zu bytes asked, capacity %zu of which %zu persistent: it can "
                          "fit only after an eviction",
                          who, bytes, l->capacity, l->persistent);
}

/* The waiter's next wake-up on its own: its deadline or its next aging
 * boundary, whichever is first; 0 when neither. */
static uint64_t next_wake(const ledger_t *l, const ledger_waiter_t *w, uint64_t now)
{
    uint64_t t = w->deadline_ns;
    if (l->aging_ns && eff_prio(l, w, now) < CUZK_PRIO_CRITICAL) {
        uint64_t k = (now - w->arrival_ns) / l->aging_ns + 1;
        if (l->aging_ns <= (UINT64_MAX - w->arrival_ns) / k) {
            uint64_t b = w->arrival_ns + k * l->aging_ns;
            if (t == 0 || b < t)
                t = b;
        }
    }
    return t;
}

/* Queues w, waits for dispatch() to decide, and reports the outcome.
 * Called with l->mu held; returns with it held. */
static cuzk_status queue_and_wait(ledger_t *l, ledger_waiter_t *w, cuzk_error_t *err)
{
    uint64_t now = w->arrival_ns;
    queue_push(l, w);
    dispatch(l, now);
    while (w->state == W_WAITING) {
        (void)sync_cond_wait_until(&w->cv, &l->mu, next_wake(l, w, now));
        now = ledger_clock_ns();
        dispatch(l, now);
    }
    double waited = (double)(now - w->arrival_ns) * 1e-9;
    switch (w->state) {
    case W_GRANTED: return CUZK_OK;
    case W_TIMED_OUT:
        return cuzk_error_set(err, CUZK_ERR_TIMEOUT,
                              "ledger_admit: %zu bytes at priority %s: deadline reached after "
                              "%.3f s (%zu of %zu bytes free, %u requests waiting)",
                              w->bytes, cuzk_priority_str(w->prio), waited,
                              l->capacity - l->reserved, l->capacity, queue_len(l));
    case W_CANCELLED:
        return cuzk_error_set(err, CUZK_ERR_CANCELLED,
                              "ledger_admit: %zu bytes at priority %s: cancelled after %.3f s",
                              w->bytes, cuzk_priority_str(w->prio), waited);
    case W_WAITING: break;
    }
    return cuzk_error_set(err, CUZK_ERR_INTERNAL, "ledger_admit: waiter left undecided");
}

static void token_register(ledger_cancel_t *c, struct ledger_cancel_reg *r)
{
    pthread_mutex_lock(&c->mu);
    r->prev = NULL;
    r->next = c->regs;
    if (c->regs)
        c->regs->prev = r;
    c->regs = r;
    pthread_mutex_unlock(&c->mu);
}

static void token_unregister(ledger_cancel_t *c, struct ledger_cancel_reg *r)
{
    pthread_mutex_lock(&c->mu);
    if (r->prev)
        r->prev->next = r->next;
    else
        c->regs = r->next;
    if (r->next)
        r->next->prev = r->prev;
    pthread_mutex_unlock(&c->mu);
}

static cuzk_status admit_locked(ledger_t *l, ledger_resv_t *out, ledger_waiter_t *w,
                                cuzk_error_t *err)
{
    pthread_mutex_lock(&l->mu);
    w->arrival_ns = ledger_clock_ns();
    cuzk_status st = check_fits_ever(l, w->bytes, "ledger_admit", err);
    if (st == CUZK_OK)
        st = queue_and_wait(l, w, err);
    if (st == CUZK_OK)
        *out = (ledger_resv_t){l, w->bytes, LEDGER_STAGE};
    pthread_mutex_unlock(&l->mu);
    return st;
}

cuzk_status ledger_admit(ledger_t *l, ledger_resv_t *out, size_t bytes, cuzk_priority prio,
                         const ledger_wait_t *wait, cuzk_error_t *err)
{
    if (out)
        *out = LEDGER_RESV_EMPTY;
    cuzk_status st = check_request(l, out, prio, "ledger_admit", err);
    if (st != CUZK_OK)
        return st;
    ledger_cancel_t *tok = wait ? wait->cancel : NULL;
    if (tok && tok->magic != CANCEL_MAGIC)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_admit: not an initialised cancel token");
    ledger_waiter_t w = {.bytes = bytes,
                         .prio = prio,
                         .deadline_ns = wait ? wait->deadline_ns : 0,
                         .cancel = tok,
                         .state = W_WAITING};
    if (sync_cond_init_monotonic(&w.cv) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "ledger_admit: cannot create a condition");
    struct ledger_cancel_reg reg = {.l = l};
    if (tok)
        token_register(tok, &reg);
    st = admit_locked(l, out, &w, err);
    if (tok)
        token_unregister(tok, &reg);
    pthread_cond_destroy(&w.cv);
    return st;
}

/* The immediate grant of ledger_try_admit and ledger_reserve_persistent.
 * Called with l->mu held. */
static cuzk_status grant_now(ledger_t *l, ledger_resv_t *out, size_t bytes, cuzk_priority prio,
                             ledger_kind kind, const char *who, cuzk_error_t *err)
{
    uint64_t now = ledger_clock_ns();
    dispatch(l, now); /* first end what is due: expired waiters, aged heads */
    cuzk_status st = check_fits_ever(l, bytes, who, err);
    if (st != CUZK_OK)
        return st;
    int head_p;
    const ledger_waiter_t *h = queue_head(l, now, &head_p);
    size_t need = queue_max_bytes(l);
    if (bytes > l->capacity - l->reserved)
        st = cuzk_error_set(err, CUZK_ERR_BUSY, "%s: %zu bytes do not fit now (%zu of %zu free)",
                            who, bytes, l->capacity - l->reserved, l->capacity);
    else if (h && head_p >= (int)prio)
        st = cuzk_error_set(err, CUZK_ERR_BUSY,
                            "%s: a request of %zu bytes at priority %s waits ahead of priority %s",
                            who, h->bytes, cuzk_priority_str(head_p), cuzk_priority_str(prio));
    else if (kind == LEDGER_PERSISTENT && need > l->capacity - l->persistent - bytes)
        st = cuzk_error_set(err, CUZK_ERR_BUSY,
                            "%s: %zu persistent bytes would leave a waiting request of %zu bytes "
                            "unable to fit",
                            who, bytes, need);
    if (st != CUZK_OK) {
        l->busy++;
        return st;
    }
    account_grant(l, bytes, kind);
    *out = (ledger_resv_t){l, bytes, kind};
    return CUZK_OK;
}

static cuzk_status try_grant(ledger_t *l, ledger_resv_t *out, size_t bytes, cuzk_priority prio,
                             ledger_kind kind, const char *who, cuzk_error_t *err)
{
    if (out)
        *out = LEDGER_RESV_EMPTY;
    cuzk_status st = check_request(l, out, prio, who, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&l->mu);
    st = grant_now(l, out, bytes, prio, kind, who, err);
    pthread_mutex_unlock(&l->mu);
    return st;
}

cuzk_status ledger_try_admit(ledger_t *l, ledger_resv_t *out, size_t bytes, cuzk_priority prio,
                             cuzk_error_t *err)
{
    return try_grant(l, out, bytes, prio, LEDGER_STAGE, "ledger_try_admit", err);
}

cuzk_status ledger_reserve_persistent(ledger_t *l, ledger_resv_t *out, size_t bytes,
                                      cuzk_priority prio, cuzk_error_t *err)
{
    return try_grant(l, out, bytes, prio, LEDGER_PERSISTENT, "ledger_reserve_persistent", err);
}

/* ---- giving back ---- */

/* Takes bytes out of r's accounting. Called with the ledger's mutex held. */
static void give_back(ledger_t *l, ledger_resv_t *r, size_t bytes)
{
    l->reserved -= bytes;
    if (r->kind == LEDGER_PERSISTENT)
        l->persistent -= bytes;
    r->bytes -= bytes;
}

cuzk_status ledger_shrink(ledger_resv_t *r, size_t bytes, cuzk_error_t *err)
{
    if (!r || !ledger_ok(r->ledger))
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_shrink: not a held reservation");
    if (bytes > r->bytes)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "ledger_shrink: %zu bytes is more than the %zu held (it only "
                              "shrinks)",
                              bytes, r->bytes);
    ledger_t *l = r->ledger;
    pthread_mutex_lock(&l->mu);
    give_back(l, r, r->bytes - bytes);
    dispatch(l, ledger_clock_ns());
    pthread_mutex_unlock(&l->mu);
    return CUZK_OK;
}

cuzk_status ledger_demote(ledger_resv_t *r, cuzk_error_t *err)
{
    if (!r || !ledger_ok(r->ledger))
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_demote: not a held reservation");
    ledger_t *l = r->ledger;
    pthread_mutex_lock(&l->mu);
    if (r->kind == LEDGER_PERSISTENT) {
        /* Nothing is freed, so no waiter is granted; persistent only falls,
         * so every queued request still fits. */
        l->persistent -= r->bytes;
        r->kind = LEDGER_STAGE;
    }
    pthread_mutex_unlock(&l->mu);
    return CUZK_OK;
}

void ledger_release(ledger_resv_t *r)
{
    if (!r || !ledger_ok(r->ledger))
        return;
    ledger_t *l = r->ledger;
    pthread_mutex_lock(&l->mu);
    give_back(l, r, r->bytes);
    l->released++;
    *r = LEDGER_RESV_EMPTY;
    dispatch(l, ledger_clock_ns());
    pthread_mutex_unlock(&l->mu);
}

unsigned ledger_cancel_waiters(ledger_t *l)
{
    if (!ledger_ok(l))
        return 0;
    unsigned n = 0;
    pthread_mutex_lock(&l->mu);
    for (ledger_waiter_t *w = l->first; w; w = w->next, n++)
        w->kill = 1;
    dispatch(l, ledger_clock_ns());
    pthread_mutex_unlock(&l->mu);
    return n;
}

void ledger_stats(const ledger_t *cl, ledger_stats_t *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!ledger_ok(cl))
        return;
    ledger_t *l = (ledger_t *)cl; /* the mutex is the only thing written */
    pthread_mutex_lock(&l->mu);
    out->capacity = l->capacity;
    out->reserved = l->reserved;
    out->persistent = l->persistent;
    out->peak_reserved = l->peak;
    const ledger_waiter_t *h = queue_head(l, ledger_clock_ns(), NULL);
    out->head_bytes = h ? h->bytes : 0;
    for (const ledger_waiter_t *w = l->first; w; w = w->next)
        out->waiting_bytes += w->bytes;
    out->waiters = queue_len(l);
    memcpy(out->waiters_by_prio, l->nwait, sizeof out->waiters_by_prio);
    out->admitted = l->admitted;
    out->released = l->released;
    out->timed_out = l->timed_out;
    out->cancelled = l->cancelled;
    out->busy = l->busy;
    out->too_large = l->too_large;
    out->wait_ns = l->wait_ns;
    out->aging_ns = l->aging_ns;
    pthread_mutex_unlock(&l->mu);
}

/* ---- cancel tokens ---- */

cuzk_status ledger_cancel_init(ledger_cancel_t *c, cuzk_error_t *err)
{
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_cancel_init: NULL token");
    memset(c, 0, sizeof *c);
    if (pthread_mutex_init(&c->mu, NULL) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "ledger_cancel_init: cannot create a mutex");
    c->magic = CANCEL_MAGIC;
    return CUZK_OK;
}

cuzk_status ledger_cancel_destroy(ledger_cancel_t *c, cuzk_error_t *err)
{
    if (!c || c->magic != CANCEL_MAGIC)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ledger_cancel_destroy: not an initialised token");
    pthread_mutex_lock(&c->mu);
    int busy = c->regs != NULL;
    pthread_mutex_unlock(&c->mu);
    if (busy)
        return cuzk_error_set(err, CUZK_ERR_BUSY,
                              "ledger_cancel_destroy: an admit is still waiting with the token");
    c->magic = 0;
    pthread_mutex_destroy(&c->mu);
    return CUZK_OK;
}

void ledger_cancel(ledger_cancel_t *c)
{
    if (!c || c->magic != CANCEL_MAGIC)
        return;
    pthread_mutex_lock(&c->mu);
    __atomic_store_n(&c->set, 1, __ATOMIC_SEQ_CST);
    for (struct ledger_cancel_reg *r = c->regs; r; r = r->next) {
        pthread_mutex_lock(&r->l->mu);
        dispatch(r->l, ledger_clock_ns());
        pthread_mutex_unlock(&r->l->mu);
    }
    pthread_mutex_unlock(&c->mu);
}

int ledger_cancelled(const ledger_cancel_t *c)
{
    return c ? __atomic_load_n(&c->set, __ATOMIC_SEQ_CST) : 0;
}
