/* Shared test helpers: a seeded PRNG and edge-biased random elements.
 *
 * Every test binary prints its seed; rerun with CUZK_TEST_SEED=<seed> to
 * reproduce, and CUZK_TEST_ITERS=<n> to change the iteration count. */
#ifndef CUZK_TEST_UTIL_H
#define CUZK_TEST_UTIL_H

#include <setjmp.h> /* cmocka needs these before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>

#include "cuzk/fp.h"
#include "cuzk/fr.h"
#include "cuzk/fp2.h"
#include "cuzk/fp12.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"

/* Seeds the PRNG from CUZK_TEST_SEED (or the clock) and prints the seed;
 * CUZK_TEST_FILTER=pattern runs only the matching tests. */
void tu_init(const char *test_name);
/* Iterations: CUZK_TEST_ITERS if set, else def. */
int tu_iters(int def);
uint64_t tu_rand64(void);
/* Uniform below the modulus, except that about 1 in 8 draws is an edge case
 * (0, 1, -1, 2, small, or p-1 style values). */
void tu_rand_fp(fp_t *out);
void tu_rand_fr(fr_t *out);
void tu_rand_fp2(fp2_t *out);
void tu_rand_fp12(fp12_t *out);
/* Random multiples of the generators (occasionally infinity). */
void tu_rand_g1(g1_jac_t *out);
void tu_rand_g2(g2_jac_t *out);
/* Random curve points that are (almost surely) outside the subgroup. */
void tu_rand_g1_off_subgroup(g1_affine_t *out);
void tu_rand_g2_off_subgroup(g2_affine_t *out);

/* Reads a whole file into a malloc'd buffer; NULL if missing. */
uint8_t *tu_read_file(const char *path, size_t *len);

/* A watchdog thread that ends the whole run (exit 1, as cmocka cannot fail
 * a test from another thread) when tu_watchdog_stop has not been called
 * within `seconds`: it prints "<test>: <what>: watchdog: not finished after
 * N s", then calls dump(ctx) (may be NULL) to show the state it hung in. */
typedef struct tu_watchdog {
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done, seconds;
    const char *what;
    void (*dump)(void *ctx);
    void *ctx;
} tu_watchdog_t;

void tu_watchdog_start(tu_watchdog_t *wd, const char *what, int seconds, void (*dump)(void *ctx),
                       void *ctx);
void tu_watchdog_stop(tu_watchdog_t *wd);

#endif
