/* Condition variables on the monotonic clock, internal to libcuzk: the
 * engine's and the ledger's deadlines are ledger_clock_ns() times
 * (CLOCK_MONOTONIC), which a wall-clock jump must not move.
 * Thread safety: as pthreads'. */
#ifndef CUZK_UTIL_SYNC_H
#define CUZK_UTIL_SYNC_H

#include <pthread.h>
#include <stdint.h>

/* pthread_cond_init with CLOCK_MONOTONIC. Returns 0 or an errno value. */
int sync_cond_init_monotonic(pthread_cond_t *cv);

/* One wait on cv (made by sync_cond_init_monotonic), mu held, until
 * deadline_ns on CLOCK_MONOTONIC (0: no deadline). Returns 0 when the
 * deadline had passed before the wait, else 1 (woken or timed out: the
 * caller re-checks its condition and the clock). */
int sync_cond_wait_until(pthread_cond_t *cv, pthread_mutex_t *mu, uint64_t deadline_ns);

#endif
