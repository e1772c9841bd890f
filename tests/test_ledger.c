/* VRAM admission ledger tests.
 *
 * Unit tests of each rule in include/cuzk/ledger.h: all-or-nothing grants,
 * service order by priority then arrival, a large head request not bypassed
 * by small ones, aging (deterministic, and LOW through a flood of HIGH),
 * requests that can never fit failing at once, deadlines, cancel tokens and
 * ledger_cancel_waiters, idempotent release, shrink, capacity changes,
 * persistent reservations, statistics. Then a stress run (several small
 * ledgers, many threads, thousands of multi-stage jobs with random sizes,
 * priorities, deadlines and cancels, resident keys loaded and evicted
 * meanwhile) checking the budget from outside the ledger, and the
 * predecessor's deadlock scenario (two workers whose peaks together exceed
 * the budget). A watchdog thread fails the run if anything hangs.
 * Rerun with CUZK_TEST_SEED=<seed>; scale the stress with CUZK_TEST_ITERS. */
#include "test_util.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/ledger.h"

#define MS 1000000ull /* ns */

static void sleep_us(unsigned us)
{
    struct timespec ts = {.tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000};
    nanosleep(&ts, NULL);
}

static ledger_stats_t stats_of(const ledger_t *l)
{
    ledger_stats_t s;
    ledger_stats(l, &s);
    return s;
}

/* Polls until the ledger has n queued requests; fails after 5 s. */
static void wait_waiters(const ledger_t *l, unsigned n)
{
    for (int i = 0; i < 5000; i++) {
        if (stats_of(l).waiters == n)
            return;
        sleep_us(1000);
    }
    fail_msg("ledger never reached %u waiters (has %u)", n, stats_of(l).waiters);
}

/* ---- what a watchdog (test_util.h) prints when a body hangs ---- */

typedef struct ledger_set {
    ledger_t *ledgers;
    int n;
} ledger_set_t;

static void dump_ledgers(void *ctx)
{
    const ledger_set_t *ls = ctx;
    for (int i = 0; i < ls->n; i++) {
        ledger_stats_t s = stats_of(&ls->ledgers[i]);
        fprintf(stderr, "  ledger %d: capacity %zu reserved %zu persistent %zu waiters %u\n", i,
                s.capacity, s.reserved, s.persistent, s.waiters);
    }
}

/* ---- a waiting request on its own thread ---- */

typedef struct waiter {
    ledger_t *l;
    size_t bytes;
    cuzk_priority prio;
    ledger_wait_t wait;
    int use_wait;
    pthread_t tid;
    cuzk_status st;
    cuzk_error_t err;
    ledger_resv_t r;
    uint64_t took_ns;
    int done; /* __atomic */
} waiter_t;

static void *waiter_run(void *arg)
{
    waiter_t *w = arg;
    uint64_t t0 = ledger_clock_ns();
    w->st = ledger_admit(w->l, &w->r, w->bytes, w->prio, w->use_wait ? &w->wait : NULL, &w->err);
    w->took_ns = ledger_clock_ns() - t0;
    __atomic_store_n(&w->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static int is_done(waiter_t *w)
{
    return __atomic_load_n(&w->done, __ATOMIC_SEQ_CST);
}

/* Starts a waiter and, when queued is set, waits until it is in the queue
 * (the ledger then has `queued` waiters), which fixes the arrival order. */
static void waiter_start(waiter_t *w, ledger_t *l, size_t bytes, cuzk_priority prio,
                         unsigned queued)
{
    memset(w, 0, sizeof *w);
    w->l = l;
    w->bytes = bytes;
    w->prio = prio;
    assert_int_equal(pthread_create(&w->tid, NULL, waiter_run, w), 0);
    if (queued)
        wait_waiters(l, queued);
}

static void waiter_start_wait(waiter_t *w, ledger_t *l, size_t bytes, cuzk_priority prio,
                              ledger_wait_t wait, unsigned queued)
{
    memset(w, 0, sizeof *w);
    w->l = l;
    w->bytes = bytes;
    w->prio = prio;
    w->wait = wait;
    w->use_wait = 1;
    assert_int_equal(pthread_create(&w->tid, NULL, waiter_run, w), 0);
    if (queued)
        wait_waiters(l, queued);
}

static void waiter_join(waiter_t *w)
{
    pthread_join(w->tid, NULL);
}

/* ---- unit tests ---- */

static void test_args(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t r;
    cuzk_error_t err = {0};
    assert_int_equal(ledger_init(NULL, 10, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_init(&l, 10, NULL), CUZK_OK);
    assert_int_equal(ledger_admit(&l, NULL, 1, CUZK_PRIO_LOW, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_admit(NULL, &r, 1, CUZK_PRIO_LOW, NULL, &err), CUZK_ERR_ARG);
    assert_null(r.ledger);
    assert_int_equal(ledger_admit(&l, &r, 1, (cuzk_priority)7, NULL, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "priority 7"));
    assert_int_equal(ledger_try_admit(&l, &r, 1, (cuzk_priority)-1, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_reserve_persistent(&l, NULL, 1, CUZK_PRIO_LOW, &err), CUZK_ERR_ARG);
    ledger_cancel_t bad;
    memset(&bad, 0, sizeof bad);
    ledger_wait_t w = {.cancel = &bad};
    assert_int_equal(ledger_admit(&l, &r, 1, CUZK_PRIO_LOW, &w, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_shrink(&r, 0, &err), CUZK_ERR_ARG); /* empty */
    assert_int_equal(ledger_set_aging(NULL, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_set_capacity(NULL, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_cancel_waiters(NULL), 0);
    ledger_release(NULL);
    ledger_stats(&l, NULL);
    ledger_stats_t s;
    ledger_stats(NULL, &s);
    assert_int_equal(s.capacity, 0);

    /* a zero-byte request is granted (and counted) like any other */
    assert_int_equal(ledger_admit(&l, &r, 0, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
    assert_ptr_equal(r.ledger, &l);
    /* destroy refuses while something is held, and the ledger stays usable */
    ledger_resv_t r2;
    assert_int_equal(ledger_admit(&l, &r2, 3, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "3 bytes still reserved"));
    ledger_release(&r2);
    ledger_release(&r);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_admit(&l, &r, 1, CUZK_PRIO_LOW, NULL, &err), CUZK_ERR_ARG);
    assert_string_equal(cuzk_status_str(CUZK_ERR_TIMEOUT), "timed out");
    assert_string_equal(cuzk_status_str(CUZK_ERR_CAPACITY), "exceeds capacity");
    assert_string_equal(cuzk_priority_str(CUZK_PRIO_HIGH), "high");
    assert_string_equal(cuzk_priority_str(9), "invalid");
}

/* A request is granted whole or not at all: nothing is taken while it waits. */
static void test_all_or_nothing(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t a, b;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &a, 6, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    assert_int_equal(a.bytes, 6);
    assert_int_equal(a.kind, LEDGER_STAGE);
    assert_int_equal(ledger_try_admit(&l, &b, 5, CUZK_PRIO_CRITICAL, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "4 of 10 free"));
    assert_null(b.ledger);

    waiter_t w;
    waiter_start(&w, &l, 5, CUZK_PRIO_NORMAL, 1);
    sleep_us(20000);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.reserved, 6); /* not 10: no partial grant */
    assert_int_equal(s.waiting_bytes, 5);
    assert_int_equal(s.head_bytes, 5);
    assert_false(is_done(&w));
    ledger_release(&a);
    waiter_join(&w);
    assert_int_equal(w.st, CUZK_OK);
    assert_int_equal(stats_of(&l).reserved, 5);
    ledger_release(&w.r);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* Service order is priority, then arrival; shrinking the holder one byte at
 * a time lets exactly one 1-byte waiter in per step. */
static void test_order(void **state)
{
    (void)state;
    enum { N = 7 };
    static const cuzk_priority prios[N] = {CUZK_PRIO_NORMAL, CUZK_PRIO_LOW,      CUZK_PRIO_HIGH,
                                           CUZK_PRIO_LOW,    CUZK_PRIO_CRITICAL, CUZK_PRIO_HIGH,
                                           CUZK_PRIO_NORMAL};
    static const int expect[N] = {4, 2, 5, 0, 6, 1, 3}; /* indexes in service order */
    ledger_t l;
    ledger_resv_t hold;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, N, &err), CUZK_OK);
    assert_int_equal(ledger_set_aging(&l, 0, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, N, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
    waiter_t w[N];
    for (unsigned i = 0; i < N; i++)
        waiter_start(&w[i], &l, 1, prios[i], i + 1);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.waiters_by_prio[CUZK_PRIO_LOW], 2);
    assert_int_equal(s.waiters_by_prio[CUZK_PRIO_NORMAL], 2);
    assert_int_equal(s.waiters_by_prio[CUZK_PRIO_HIGH], 2);
    assert_int_equal(s.waiters_by_prio[CUZK_PRIO_CRITICAL], 1);
    for (int k = 0; k < N; k++) {
        assert_int_equal(ledger_shrink(&hold, (size_t)(N - 1 - k), &err), CUZK_OK);
        waiter_join(&w[expect[k]]);
        assert_int_equal(w[expect[k]].st, CUZK_OK);
        for (int j = k + 1; j < N; j++)
            assert_false(is_done(&w[expect[j]]));
        assert_int_equal(stats_of(&l).waiters, (unsigned)(N - 1 - k));
    }
    ledger_release(&hold);
    for (int i = 0; i < N; i++)
        ledger_release(&w[i].r);
    s = stats_of(&l);
    assert_int_equal(s.reserved, 0);
    assert_int_equal(s.admitted, N + 1);
    assert_int_equal(s.released, N + 1);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* A large request at the head is not bypassed by a small one behind it that
 * would fit; only a higher priority may go first. */
static void test_head_not_bypassed(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t a, t;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &a, 6, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    waiter_t big, small;
    waiter_start(&big, &l, 8, CUZK_PRIO_NORMAL, 1);
    waiter_start(&small, &l, 2, CUZK_PRIO_NORMAL, 2);
    sleep_us(30000);
    assert_false(is_done(&small)); /* 4 free, but the 8 is first */
    assert_int_equal(stats_of(&l).head_bytes, 8);
    assert_int_equal(ledger_try_admit(&l, &t, 1, CUZK_PRIO_NORMAL, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "waits ahead"));
    assert_int_equal(ledger_try_admit(&l, &t, 1, CUZK_PRIO_HIGH, &err), CUZK_OK);
    ledger_release(&t);
    ledger_release(&a); /* 10 free: 8 then 2 */
    waiter_join(&big);
    waiter_join(&small);
    assert_int_equal(big.st, CUZK_OK);
    assert_int_equal(small.st, CUZK_OK);
    assert_int_equal(stats_of(&l).reserved, 10);
    ledger_release(&big.r);
    ledger_release(&small.r);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* Deterministic aging: a LOW waiter queued for more than three periods is
 * CRITICAL and goes before a later HIGH, and blocks CRITICAL tries. */
static void test_aging_order(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t hold, t;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 4, &err), CUZK_OK);
    assert_int_equal(stats_of(&l).aging_ns, LEDGER_AGING_DEFAULT_NS);
    assert_int_equal(ledger_set_aging(&l, 30 * MS, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, 4, CUZK_PRIO_HIGH, NULL, &err), CUZK_OK);
    waiter_t low, high;
    waiter_start(&low, &l, 4, CUZK_PRIO_LOW, 1);
    sleep_us(120000);
    assert_int_equal(ledger_try_admit(&l, &t, 0, CUZK_PRIO_CRITICAL, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "priority critical waits ahead"));
    waiter_start(&high, &l, 4, CUZK_PRIO_HIGH, 2);
    ledger_release(&hold);
    waiter_join(&low);
    assert_int_equal(low.st, CUZK_OK);
    assert_false(is_done(&high));
    ledger_release(&low.r);
    waiter_join(&high);
    assert_int_equal(high.st, CUZK_OK);
    ledger_release(&high.r);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* A flood of HIGH requests, each wanting the whole budget, always has a HIGH
 * waiter ready; a LOW request still gets through once it has aged. */
typedef struct flood {
    ledger_t *l;
    int stop; /* __atomic */
    unsigned rounds;
    cuzk_status st;
} flood_t;

static void *flood_run(void *arg)
{
    flood_t *f = arg;
    while (!__atomic_load_n(&f->stop, __ATOMIC_SEQ_CST)) {
        ledger_resv_t r;
        ledger_wait_t w = {.deadline_ns = ledger_clock_ns() + 5000 * MS};
        cuzk_status st = ledger_admit(f->l, &r, 4, CUZK_PRIO_HIGH, &w, NULL);
        if (st != CUZK_OK) {
            f->st = st;
            return NULL;
        }
        sleep_us(1000);
        ledger_release(&r);
        f->rounds++;
    }
    return NULL;
}

static void test_aging_flood(void **state)
{
    (void)state;
    enum { FLOODERS = 3 };
    ledger_t l;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 4, &err), CUZK_OK);
    assert_int_equal(ledger_set_aging(&l, 10 * MS, &err), CUZK_OK);
    ledger_set_t ls = {&l, 1};

    tu_watchdog_t wd;

    tu_watchdog_start(&wd, "aging flood", 30, dump_ledgers, &ls);
    flood_t f[FLOODERS];
    pthread_t tid[FLOODERS];
    for (int i = 0; i < FLOODERS; i++) {
        f[i] = (flood_t){.l = &l};
        assert_int_equal(pthread_create(&tid[i], NULL, flood_run, &f[i]), 0);
    }
    sleep_us(20000);
    waiter_t low;
    waiter_start_wait(&low, &l, 4, CUZK_PRIO_LOW,
                      (ledger_wait_t){.deadline_ns = ledger_clock_ns() + 3000 * MS}, 0);
    waiter_join(&low);
    for (int i = 0; i < FLOODERS; i++)
        __atomic_store_n(&f[i].stop, 1, __ATOMIC_SEQ_CST);
    assert_int_equal(low.st, CUZK_OK);
    ledger_release(&low.r);
    unsigned rounds = 0;
    for (int i = 0; i < FLOODERS; i++) {
        pthread_join(tid[i], NULL);
        assert_int_equal(f[i].st, CUZK_OK);
        rounds += f[i].rounds;
    }
    tu_watchdog_stop(&wd);
    printf("test_ledger: LOW admitted after %.1f ms under a HIGH flood (%u HIGH stages)\n",
           (double)low.took_ns / 1e6, rounds);
    assert_int_equal(stats_of(&l).reserved, 0);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* Requests that can never fit fail at once, whatever is queued. */
static void test_too_large(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t hold, k, r;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, 10, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
    waiter_t w;
    waiter_start(&w, &l, 3, CUZK_PRIO_NORMAL, 1);
    uint64_t t0 = ledger_clock_ns();
    assert_int_equal(ledger_admit(&l, &r, 11, CUZK_PRIO_CRITICAL, NULL, &err), CUZK_ERR_CAPACITY);
    assert_true(ledger_clock_ns() - t0 < 1000 * MS); /* at once, not after the waiter */
    assert_string_equal(err.msg, "ledger_admit: 11 bytes asked, capacity 10");
    assert_null(r.ledger);
    assert_int_equal(ledger_try_admit(&l, &r, 11, CUZK_PRIO_LOW, &err), CUZK_ERR_CAPACITY);
    assert_int_equal(ledger_reserve_persistent(&l, &r, 11, CUZK_PRIO_LOW, &err), CUZK_ERR_CAPACITY);
    ledger_release(&hold);
    waiter_join(&w);
    ledger_release(&w.r);

    /* with a resident key, "capacity" is what the key leaves */
    assert_int_equal(ledger_reserve_persistent(&l, &k, 4, CUZK_PRIO_NORMAL, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &r, 7, CUZK_PRIO_NORMAL, NULL, &err), CUZK_ERR_CAPACITY);
    assert_non_null(strstr(err.msg, "7 bytes asked, capacity 10 of which 4 persistent"));
    assert_int_equal(ledger_admit(&l, &r, 6, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    ledger_release(&r);
    ledger_release(&k);
    assert_int_equal(ledger_admit(&l, &r, 7, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    ledger_release(&r);
    assert_int_equal(stats_of(&l).too_large, 4);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_timeout(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t hold, r;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, 6, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    ledger_wait_t w = {.deadline_ns = ledger_clock_ns() + 50 * MS};
    uint64_t t0 = ledger_clock_ns();
    assert_int_equal(ledger_admit(&l, &r, 8, CUZK_PRIO_HIGH, &w, &err), CUZK_ERR_TIMEOUT);
    assert_true(ledger_clock_ns() - t0 >= 50 * MS);
    assert_non_null(strstr(err.msg, "8 bytes at priority high: deadline reached"));
    assert_null(r.ledger);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.reserved, 6);
    assert_int_equal(s.waiters, 0);
    assert_int_equal(s.timed_out, 1);

    /* a deadline already past fails even a request that fits */
    w.deadline_ns = ledger_clock_ns() - 1;
    assert_int_equal(ledger_admit(&l, &r, 1, CUZK_PRIO_HIGH, &w, &err), CUZK_ERR_TIMEOUT);

    /* a head that times out lets the request behind it in */
    waiter_t big, small;
    waiter_start_wait(&big, &l, 8, CUZK_PRIO_HIGH,
                      (ledger_wait_t){.deadline_ns = ledger_clock_ns() + 80 * MS}, 1);
    waiter_start(&small, &l, 3, CUZK_PRIO_NORMAL, 2);
    waiter_join(&big);
    assert_int_equal(big.st, CUZK_ERR_TIMEOUT);
    waiter_join(&small);
    assert_int_equal(small.st, CUZK_OK);
    assert_int_equal(stats_of(&l).reserved, 9);
    ledger_release(&small.r);
    ledger_release(&hold);
    s = stats_of(&l);
    assert_int_equal(s.timed_out, 3);
    assert_int_equal(s.reserved, 0);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_cancel_token(void **state)
{
    (void)state;
    ledger_t l;
    ledger_cancel_t c;
    ledger_resv_t hold, r;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_cancel_init(&c, &err), CUZK_OK);
    assert_int_equal(ledger_cancelled(&c), 0);
    assert_int_equal(ledger_cancelled(NULL), 0);
    assert_int_equal(ledger_admit(&l, &hold, 7, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    waiter_t w, behind;
    waiter_start_wait(&w, &l, 5, CUZK_PRIO_HIGH, (ledger_wait_t){.cancel = &c}, 1);
    waiter_start(&behind, &l, 2, CUZK_PRIO_NORMAL, 2);
    assert_int_equal(ledger_cancel_destroy(&c, &err), CUZK_ERR_BUSY);
    assert_false(is_done(&behind));
    ledger_cancel(&c);
    waiter_join(&w);
    assert_int_equal(w.st, CUZK_ERR_CANCELLED);
    assert_non_null(strstr(w.err.msg, "cancelled"));
    assert_null(w.r.ledger);
    waiter_join(&behind); /* the head left: 3 free, 2 fit */
    assert_int_equal(behind.st, CUZK_OK);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.reserved, 9); /* the holder's 7 untouched */
    assert_int_equal(s.waiters, 0);
    assert_int_equal(s.cancelled, 1);
    ledger_cancel(&c); /* repeatable */
    assert_int_equal(ledger_cancelled(&c), 1);
    /* a set token fails a new admit at once, even one that would fit */
    ledger_wait_t wt = {.cancel = &c};
    assert_int_equal(ledger_admit(&l, &r, 1, CUZK_PRIO_CRITICAL, &wt, &err), CUZK_ERR_CANCELLED);
    ledger_release(&behind.r);
    ledger_release(&hold);
    assert_int_equal(ledger_cancel_destroy(&c, &err), CUZK_OK);
    assert_int_equal(ledger_cancel_destroy(&c, &err), CUZK_ERR_ARG);
    assert_int_equal(stats_of(&l).reserved, 0);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* One token, waits on two ledgers (one job's stages on two devices). */
static void test_cancel_token_two_ledgers(void **state)
{
    (void)state;
    ledger_t l[2];
    ledger_resv_t hold[2];
    ledger_cancel_t c;
    cuzk_error_t err;
    assert_int_equal(ledger_cancel_init(&c, &err), CUZK_OK);
    waiter_t w[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ledger_init(&l[i], 4, &err), CUZK_OK);
        assert_int_equal(ledger_admit(&l[i], &hold[i], 4, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
        waiter_start_wait(&w[i], &l[i], 4, CUZK_PRIO_LOW, (ledger_wait_t){.cancel = &c}, 1);
    }
    ledger_cancel(&c);
    for (int i = 0; i < 2; i++) {
        waiter_join(&w[i]);
        assert_int_equal(w[i].st, CUZK_ERR_CANCELLED);
        ledger_release(&hold[i]);
        assert_int_equal(ledger_destroy(&l[i], &err), CUZK_OK);
    }
    assert_int_equal(ledger_cancel_destroy(&c, &err), CUZK_OK);
}

static void test_cancel_waiters(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t hold;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, 8, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    waiter_t w[3];
    for (unsigned i = 0; i < 3; i++)
        waiter_start(&w[i], &l, 5 + i, (cuzk_priority)i, i + 1);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "requests waiting"));
    assert_int_equal(ledger_cancel_waiters(&l), 3);
    for (int i = 0; i < 3; i++) {
        waiter_join(&w[i]);
        assert_int_equal(w[i].st, CUZK_ERR_CANCELLED);
        assert_null(w[i].r.ledger);
    }
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.reserved, 8);
    assert_int_equal(s.cancelled, 3);
    assert_int_equal(s.waiters, 0);
    assert_int_equal(ledger_cancel_waiters(&l), 0);
    /* later requests are not affected */
    ledger_resv_t r;
    assert_int_equal(ledger_admit(&l, &r, 2, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
    ledger_release(&r);
    ledger_release(&hold);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_release_idempotent(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t a, b, empty = LEDGER_RESV_EMPTY;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &a, 4, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &b, 5, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    ledger_release(&a);
    assert_null(a.ledger);
    assert_int_equal(a.bytes, 0);
    ledger_release(&a);
    ledger_release(&a);
    ledger_release(&empty);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.reserved, 5);
    assert_int_equal(s.released, 1);
    ledger_release(&b);
    ledger_release(&b);
    s = stats_of(&l);
    assert_int_equal(s.reserved, 0);
    assert_int_equal(s.released, 2);
    assert_int_equal(s.admitted, 2);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* A demoted reservation keeps its bytes but is no longer resident: a
 * request too large beside it while persistent waits for it instead of
 * failing, and gets it when it is released. */
static void test_demote(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t key, empty = LEDGER_RESV_EMPTY;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_demote(&empty, &err), CUZK_ERR_ARG);
    assert_int_equal(ledger_reserve_persistent(&l, &key, 6, CUZK_PRIO_LOW, &err), CUZK_OK);
    ledger_resv_t r;
    assert_int_equal(ledger_admit(&l, &r, 5, CUZK_PRIO_NORMAL, NULL, &err), CUZK_ERR_CAPACITY);
    assert_int_equal(ledger_demote(&key, &err), CUZK_OK);
    assert_int_equal(key.kind, LEDGER_STAGE);
    assert_int_equal(key.bytes, 6);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.persistent, 0);
    assert_int_equal(s.reserved, 6);
    assert_int_equal(ledger_demote(&key, &err), CUZK_OK); /* a stage one stays */
    waiter_t w;
    waiter_start(&w, &l, 5, CUZK_PRIO_NORMAL, 1);
    sleep_us(20000);
    assert_false(is_done(&w)); /* 4 free: it waits for the leaving bytes */
    ledger_release(&key);
    waiter_join(&w);
    assert_int_equal(w.st, CUZK_OK);
    ledger_release(&w.r);
    s = stats_of(&l);
    assert_int_equal(s.reserved, 0);
    assert_int_equal(s.released, 2);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_shrink(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t hold, k;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, 10, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    assert_int_equal(ledger_shrink(&hold, 11, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "only shrinks"));
    waiter_t w;
    waiter_start(&w, &l, 4, CUZK_PRIO_NORMAL, 1);
    assert_int_equal(ledger_shrink(&hold, 7, &err), CUZK_OK);
    sleep_us(20000);
    assert_false(is_done(&w)); /* 3 free */
    assert_int_equal(ledger_shrink(&hold, 6, &err), CUZK_OK);
    waiter_join(&w);
    assert_int_equal(w.st, CUZK_OK);
    assert_int_equal(hold.bytes, 6);
    assert_int_equal(stats_of(&l).reserved, 10);
    ledger_release(&w.r);
    ledger_release(&hold);
    /* persistent reservations shrink their persistent part */
    assert_int_equal(ledger_reserve_persistent(&l, &k, 5, CUZK_PRIO_LOW, &err), CUZK_OK);
    assert_int_equal(ledger_shrink(&k, 2, &err), CUZK_OK);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.persistent, 2);
    assert_int_equal(s.reserved, 2);
    ledger_release(&k);
    assert_int_equal(stats_of(&l).persistent, 0);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_set_capacity(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t hold;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &hold, 8, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    assert_int_equal(ledger_set_capacity(&l, 7, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "below the 8 reserved"));
    waiter_t w;
    waiter_start(&w, &l, 4, CUZK_PRIO_NORMAL, 1);
    assert_int_equal(ledger_set_capacity(&l, 11, &err), CUZK_OK);
    sleep_us(20000);
    assert_false(is_done(&w));
    assert_int_equal(ledger_set_capacity(&l, 12, &err), CUZK_OK); /* growing lets it in */
    waiter_join(&w);
    assert_int_equal(w.st, CUZK_OK);
    ledger_release(&w.r);
    /* a change that would strand a queued request is refused */
    waiter_t big;
    waiter_start(&big, &l, 9, CUZK_PRIO_NORMAL, 1);
    assert_int_equal(ledger_set_capacity(&l, 8, &err), CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "request of 9 bytes unable to fit"));
    ledger_release(&hold);
    waiter_join(&big);
    assert_int_equal(big.st, CUZK_OK);
    ledger_release(&big.r);
    assert_int_equal(ledger_set_capacity(&l, 0, &err), CUZK_OK);
    ledger_resv_t r;
    assert_int_equal(ledger_try_admit(&l, &r, 1, CUZK_PRIO_LOW, &err), CUZK_ERR_CAPACITY);
    assert_int_equal(ledger_try_admit(&l, &r, 0, CUZK_PRIO_LOW, &err), CUZK_OK);
    ledger_release(&r);
    assert_int_equal(stats_of(&l).capacity, 0);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_persistent(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t key, key2, st, r;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 10, &err), CUZK_OK);
    assert_int_equal(ledger_reserve_persistent(&l, &key, 4, CUZK_PRIO_NORMAL, &err), CUZK_OK);
    assert_int_equal(key.kind, LEDGER_PERSISTENT);
    assert_int_equal(ledger_admit(&l, &st, 5, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    /* does not fit now: a key load never waits */
    assert_int_equal(ledger_reserve_persistent(&l, &key2, 2, CUZK_PRIO_CRITICAL, &err),
                     CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "1 of 10 free"));
    /* fits now, but would leave the queued 6 unable to ever fit */
    waiter_t w;
    waiter_start(&w, &l, 6, CUZK_PRIO_NORMAL, 1);
    assert_int_equal(ledger_reserve_persistent(&l, &key2, 1, CUZK_PRIO_CRITICAL, &err),
                     CUZK_ERR_BUSY);
    assert_non_null(strstr(err.msg, "waiting request of 6 bytes"));
    /* a try at the same level as a waiter does not overtake it */
    assert_int_equal(ledger_reserve_persistent(&l, &key2, 0, CUZK_PRIO_NORMAL, &err),
                     CUZK_ERR_BUSY);
    ledger_release(&st);
    waiter_join(&w);
    assert_int_equal(w.st, CUZK_OK);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.reserved, 10);
    assert_int_equal(s.persistent, 4);
    assert_int_equal(s.busy, 3);
    ledger_release(&w.r);
    /* eviction (release) frees room for a stage that needed it */
    assert_int_equal(ledger_admit(&l, &r, 8, CUZK_PRIO_NORMAL, NULL, &err), CUZK_ERR_CAPACITY);
    ledger_release(&key);
    assert_int_equal(ledger_admit(&l, &r, 8, CUZK_PRIO_NORMAL, NULL, &err), CUZK_OK);
    ledger_release(&r);
    s = stats_of(&l);
    assert_int_equal(s.reserved, 0);
    assert_int_equal(s.persistent, 0);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

static void test_stats(void **state)
{
    (void)state;
    ledger_t l;
    ledger_resv_t key, a, b, c;
    cuzk_error_t err;
    assert_int_equal(ledger_init(&l, 100, &err), CUZK_OK);
    assert_int_equal(ledger_reserve_persistent(&l, &key, 10, CUZK_PRIO_NORMAL, &err), CUZK_OK);
    assert_int_equal(ledger_admit(&l, &a, 30, CUZK_PRIO_HIGH, NULL, &err), CUZK_OK);
    assert_int_equal(ledger_try_admit(&l, &b, 50, CUZK_PRIO_LOW, &err), CUZK_OK);
    assert_int_equal(ledger_try_admit(&l, &c, 20, CUZK_PRIO_LOW, &err), CUZK_ERR_BUSY);
    assert_int_equal(ledger_admit(&l, &c, 200, CUZK_PRIO_LOW, NULL, &err), CUZK_ERR_CAPACITY);
    ledger_release(&a);
    ledger_release(&b);
    assert_int_equal(ledger_admit(&l, &a, 20, CUZK_PRIO_LOW, NULL, &err), CUZK_OK);
    ledger_stats_t s = stats_of(&l);
    assert_int_equal(s.capacity, 100);
    assert_int_equal(s.reserved, 30);
    assert_int_equal(s.persistent, 10);
    assert_int_equal(s.peak_reserved, 90);
    assert_int_equal(s.waiters, 0);
    assert_int_equal(s.waiting_bytes, 0);
    assert_int_equal(s.head_bytes, 0);
    assert_int_equal(s.admitted, 4);
    assert_int_equal(s.released, 2);
    assert_int_equal(s.busy, 1);
    assert_int_equal(s.too_large, 1);
    assert_int_equal(s.timed_out, 0);
    assert_int_equal(s.cancelled, 0);
    ledger_release(&a);
    ledger_release(&key);
    assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
}

/* ---- stress: devices, threads, multi-stage jobs ---- */

#define DEVICES 3
#define WORKERS 8
#define MAX_STAGES 4

static const size_t dev_cap[DEVICES] = {16, 24, 40};
static const size_t dev_key[DEVICES] = {2, 4, 0}; /* resident for the whole run */

typedef struct stress {
    ledger_t led[DEVICES];
    ledger_resv_t key[DEVICES];
    size_t stage_held[DEVICES]; /* __atomic: stage bytes held, counted by the jobs */
    ledger_cancel_t *tokens;    /* one per job */
    int jobs, next_job;         /* next_job is __atomic */
    int stop;                   /* __atomic: helpers stop */
    int failed;                 /* __atomic */
    char failmsg[256];
    uint64_t seed[WORKERS + 2];
    unsigned outcome[WORKERS][4]; /* ok, timed out, cancelled, too large */
    unsigned loads, cancels_sent;
} stress_t;

static uint64_t xs_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void stress_fail(stress_t *S, const char *msg, size_t a, size_t b)
{
    if (__atomic_exchange_n(&S->failed, 1, __ATOMIC_SEQ_CST) == 0)
        snprintf(S->failmsg, sizeof S->failmsg, "%s (%zu, %zu)", msg, a, b);
}

/* A stage size, biased to the edges: 0, 1, and the most that can fit. */
static size_t stage_size(uint64_t *rng, int d)
{
    size_t max = dev_cap[d] - dev_key[d];
    switch (xs_next(rng) % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return max;
    default: return 1 + xs_next(rng) % max;
    }
}

static int run_stage(stress_t *S, int t, int job, int d, uint64_t *rng)
{
    size_t bytes = stage_size(rng, d);
    cuzk_priority prio = (cuzk_priority)(xs_next(rng) % CUZK_PRIO_COUNT);
    ledger_wait_t w = {0};
    unsigned mode = (unsigned)(xs_next(rng) % 16);
    if (mode == 0)
        w.deadline_ns = ledger_clock_ns() + xs_next(rng) % (2 * MS);
    else if (mode == 1)
        w.cancel = &S->tokens[job];
    ledger_resv_t r;
    cuzk_error_t err;
    cuzk_status st = ledger_admit(&S->led[d], &r, bytes, prio, &w, &err);
    int o = st == CUZK_OK              ? 0
            : st == CUZK_ERR_TIMEOUT   ? 1
            : st == CUZK_ERR_CANCELLED ? 2
            : st == CUZK_ERR_CAPACITY  ? 3
                                       : -1;
    if (o < 0) {
        stress_fail(S, "unexpected status from ledger_admit", (size_t)st, bytes);
        return -1;
    }
    S->outcome[t][o]++;
    if (st != CUZK_OK)
        return 1; /* the job gives up; it holds nothing */
    if (r.bytes != bytes || r.ledger != &S->led[d])
        stress_fail(S, "reservation does not match the request", r.bytes, bytes);
    size_t held = __atomic_add_fetch(&S->stage_held[d], bytes, __ATOMIC_SEQ_CST);
    if (held > dev_cap[d] - dev_key[d])
        stress_fail(S, "stages hold more than the budget leaves", held, dev_cap[d] - dev_key[d]);
    if (xs_next(rng) % 2) /* the stage's device work */
        sleep_us((unsigned)(xs_next(rng) % 200));
    else
        sched_yield();
    __atomic_sub_fetch(&S->stage_held[d], bytes, __ATOMIC_SEQ_CST);
    ledger_release(&r);
    return 0;
}

static void *stress_worker(void *arg)
{
    void **a = arg;
    stress_t *S = a[0];
    int t = (int)(intptr_t)a[1];
    uint64_t rng = S->seed[t];
    for (;;) {
        int job = __atomic_fetch_add(&S->next_job, 1, __ATOMIC_SEQ_CST);
        if (job >= S->jobs || __atomic_load_n(&S->failed, __ATOMIC_SEQ_CST))
            break;
        int d = (int)(xs_next(&rng) % DEVICES);
        int stages = 1 + (int)(xs_next(&rng) % MAX_STAGES);
        for (int k = 0; k < stages; k++)
            if (run_stage(S, t, job, d, &rng) != 0)
                break;
    }
    return NULL;
}

/* Checks every ledger's invariants, loads and evicts extra keys, cancels
 * random jobs' tokens and, now and then, every waiter of one device. */
static void *stress_helper(void *arg)
{
    stress_t *S = arg;
    uint64_t rng = S->seed[WORKERS];
    ledger_resv_t extra[DEVICES] = {LEDGER_RESV_EMPTY, LEDGER_RESV_EMPTY, LEDGER_RESV_EMPTY};
    for (unsigned it = 0; !__atomic_load_n(&S->stop, __ATOMIC_SEQ_CST); it++) {
        for (int d = 0; d < DEVICES; d++) {
            ledger_stats_t s = stats_of(&S->led[d]);
            unsigned by_prio = 0;
            for (int p = 0; p < CUZK_PRIO_COUNT; p++)
                by_prio += s.waiters_by_prio[p];
            if (s.reserved > s.capacity || s.peak_reserved > s.capacity)
                stress_fail(S, "reserved above capacity", s.reserved, s.capacity);
            if (s.persistent > s.reserved || s.persistent < dev_key[d])
                stress_fail(S, "persistent out of range", s.persistent, s.reserved);
            if (by_prio != s.waiters)
                stress_fail(S, "waiter counts disagree", by_prio, s.waiters);
        }
        int d = (int)(xs_next(&rng) % DEVICES);
        if (extra[d].ledger)
            ledger_release(&extra[d]);
        else if (ledger_reserve_persistent(&S->led[d], &extra[d], 1 + xs_next(&rng) % 4,
                                           (cuzk_priority)(xs_next(&rng) % CUZK_PRIO_COUNT),
                                           NULL) == CUZK_OK)
            S->loads++;
        /* a job now running (about the last WORKERS issued) */
        int issued = __atomic_load_n(&S->next_job, __ATOMIC_SEQ_CST);
        if (issued > 0 && issued <= S->jobs) {
            int j = issued - 1 - (int)(xs_next(&rng) % WORKERS);
            ledger_cancel(&S->tokens[j < 0 ? 0 : j]);
            S->cancels_sent++;
        }
        if (it % 64 == 63)
            ledger_cancel_waiters(&S->led[xs_next(&rng) % DEVICES]);
        sleep_us(200);
    }
    for (int d = 0; d < DEVICES; d++)
        ledger_release(&extra[d]);
    return NULL;
}

static void test_stress(void **state)
{
    (void)state;
    stress_t *S = calloc(1, sizeof *S);
    assert_non_null(S);
    int rounds = tu_iters(2000) / 2000; /* CUZK_TEST_ITERS scales it like the field tests */
    S->jobs = 10000 * (rounds > 0 ? rounds : 1);
    S->tokens = calloc((size_t)S->jobs, sizeof *S->tokens);
    assert_non_null(S->tokens);
    for (int j = 0; j < S->jobs; j++)
        assert_int_equal(ledger_cancel_init(&S->tokens[j], NULL), CUZK_OK);
    for (int i = 0; i < WORKERS + 2; i++)
        S->seed[i] = tu_rand64() | 1;
    cuzk_error_t err;
    for (int d = 0; d < DEVICES; d++) {
        assert_int_equal(ledger_init(&S->led[d], dev_cap[d], &err), CUZK_OK);
        assert_int_equal(ledger_set_aging(&S->led[d], (uint64_t)(d + 1) * MS, &err), CUZK_OK);
        S->key[d] = LEDGER_RESV_EMPTY;
        if (dev_key[d])
            assert_int_equal(
                ledger_reserve_persistent(&S->led[d], &S->key[d], dev_key[d], CUZK_PRIO_LOW, &err),
                CUZK_OK);
    }
    ledger_set_t ls = {S->led, DEVICES};

    tu_watchdog_t wd;

    tu_watchdog_start(&wd, "stress", 60, dump_ledgers, &ls);
    uint64_t t0 = ledger_clock_ns();
    pthread_t tid[WORKERS], helper;
    void *args[WORKERS][2];
    assert_int_equal(pthread_create(&helper, NULL, stress_helper, S), 0);
    for (int t = 0; t < WORKERS; t++) {
        args[t][0] = S;
        args[t][1] = (void *)(intptr_t)t;
        assert_int_equal(pthread_create(&tid[t], NULL, stress_worker, args[t]), 0);
    }
    for (int t = 0; t < WORKERS; t++)
        pthread_join(tid[t], NULL);
    __atomic_store_n(&S->stop, 1, __ATOMIC_SEQ_CST);
    pthread_join(helper, NULL);
    tu_watchdog_stop(&wd);
    if (S->failed)
        fail_msg("%s", S->failmsg);

    unsigned tot[4] = {0};
    for (int t = 0; t < WORKERS; t++)
        for (int o = 0; o < 4; o++)
            tot[o] += S->outcome[t][o];
    printf("test_ledger: stress: %d jobs, %u stages admitted, %u timed out, %u cancelled, %u too "
           "large; %u key loads, %u cancels sent; %.2f s\n",
           S->jobs, tot[0], tot[1], tot[2], tot[3], S->loads, S->cancels_sent,
           (double)(ledger_clock_ns() - t0) * 1e-9);
    assert_true(tot[0] > (unsigned)S->jobs / 2);
    uint64_t admitted = 0, waited = 0;
    for (int d = 0; d < DEVICES; d++) {
        ledger_stats_t s = stats_of(&S->led[d]);
        waited += s.wait_ns;
        assert_int_equal(s.reserved, s.persistent);
        assert_int_equal(s.persistent, dev_key[d]);
        assert_int_equal(s.waiters, 0);
        assert_true(s.peak_reserved <= s.capacity);
        assert_int_equal(s.admitted, s.released + (dev_key[d] ? 1 : 0));
        admitted += s.admitted;
        ledger_release(&S->key[d]);
        assert_int_equal(ledger_destroy(&S->led[d], &err), CUZK_OK);
    }
    assert_int_equal(admitted, tot[0] + S->loads + 2);
    assert_true(waited > 0); /* the budgets were contended */
    for (int j = 0; j < S->jobs; j++)
        assert_int_equal(ledger_cancel_destroy(&S->tokens[j], NULL), CUZK_OK);
    free(S->tokens);
    free(S);
}

/* ---- the predecessor's deadlock ---- */

/* Two workers, each needing a 10-unit stage and then another 10-unit stage,
 * on a 16-unit budget: their peaks together exceed it. With a compute lock
 * and a memory lock held across the stages this deadlocked on capacity; with
 * admission per stage (released before the next) both always finish. */
typedef struct pred {
    ledger_t *l;
    int rounds, id;
    int *inside; /* __atomic: stages running now */
    int bad;
    cuzk_status st;
} pred_t;

static void *pred_worker(void *arg)
{
    pred_t *p = arg;
    for (int i = 0; i < p->rounds; i++) {
        for (int stage = 0; stage < 2; stage++) {
            ledger_resv_t r;
            p->st =
                ledger_admit(p->l, &r, 10, stage ? CUZK_PRIO_HIGH : CUZK_PRIO_NORMAL, NULL, NULL);
            if (p->st != CUZK_OK)
                return NULL;
            if (__atomic_add_fetch(p->inside, 1, __ATOMIC_SEQ_CST) > 1)
                p->bad = 1;
            sleep_us(100);
            __atomic_sub_fetch(p->inside, 1, __ATOMIC_SEQ_CST);
            ledger_release(&r);
        }
    }
    return NULL;
}

static void test_predecessor_deadlock(void **state)
{
    (void)state;
    ledger_t l;
    cuzk_error_t err;
    for (int keyed = 0; keyed < 2; keyed++) {
        assert_int_equal(ledger_init(&l, keyed ? 20 : 16, &err), CUZK_OK);
        ledger_resv_t key = LEDGER_RESV_EMPTY;
        if (keyed) /* a resident key of 4 leaves the same 16 */
            assert_int_equal(ledger_reserve_persistent(&l, &key, 4, CUZK_PRIO_NORMAL, &err),
                             CUZK_OK);
        ledger_set_t ls = {&l, 1};

        tu_watchdog_t wd;

        tu_watchdog_start(&wd, "predecessor scenario", 30, dump_ledgers, &ls);
        int inside = 0;
        pred_t p[2];
        pthread_t tid[2];
        for (int i = 0; i < 2; i++) {
            p[i] = (pred_t){.l = &l, .rounds = 200, .id = i, .inside = &inside};
            assert_int_equal(pthread_create(&tid[i], NULL, pred_worker, &p[i]), 0);
        }
        for (int i = 0; i < 2; i++) {
            pthread_join(tid[i], NULL);
            assert_int_equal(p[i].st, CUZK_OK);
            assert_int_equal(p[i].bad, 0);
        }
        tu_watchdog_stop(&wd);
        ledger_stats_t s = stats_of(&l);
        assert_int_equal(s.admitted, 2 * 2 * 200 + keyed);
        assert_int_equal(s.peak_reserved, keyed ? 14 : 10);
        assert_int_equal(s.reserved, s.persistent);
        ledger_release(&key);
        assert_int_equal(ledger_destroy(&l, &err), CUZK_OK);
    }
}

int main(void)
{
    tu_init("test_ledger");
    tu_watchdog_t wd; /* the whole run: a hang anywhere fails it */
    tu_watchdog_start(&wd, "all tests", 120, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_all_or_nothing),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_head_not_bypassed),
        cmocka_unit_test(test_aging_order),
        cmocka_unit_test(test_aging_flood),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_cancel_token),
        cmocka_unit_test(test_cancel_token_two_ledgers),
        cmocka_unit_test(test_cancel_waiters),
        cmocka_unit_test(test_release_idempotent),
        cmocka_unit_test(test_shrink),
        cmocka_unit_test(test_demote),
        cmocka_unit_test(test_set_capacity),
        cmocka_unit_test(test_persistent),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_stress),
        cmocka_unit_test(test_predecessor_deadlock),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tu_watchdog_stop(&wd);
    return failed;
}
