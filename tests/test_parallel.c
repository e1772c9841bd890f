/* parallel.h against obvious references: parallel_for calls every index of
 * [0, n) exactly once whatever n, grain and threads are; parallel_threads
 * resolves <= 0 from CUZK_THREADS; parallel_share divides what is left
 * after the reserved CPUs and never gives less than one. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "test_util.h"

typedef struct cover {
    unsigned char *hit; /* one counter per index */
    size_t n;
    int bad; /* a chunk outside [0, n) or empty */
} cover_t;

static void cover_chunk(void *vctx, size_t begin, size_t end)
{
    cover_t *c = vctx;
    if (begin >= end || end > c->n) {
        __atomic_store_n(&c->bad, 1, __ATOMIC_RELAXED);
        return;
    }
    for (size_t i = begin; i < end; i++)
        __atomic_add_fetch(&c->hit[i], 1, __ATOMIC_RELAXED);
}

static void test_for_covers_once(void **state)
{
    (void)state;
    int iters = tu_iters(200);
    for (int it = 0; it < iters; it++) {
        size_t n = tu_rand64() % 5000;
        size_t grain = tu_rand64() % 70; /* 0 counts as 1 */
        int threads = (int)(tu_rand64() % 9) - 1;
        cover_t c = {calloc(n ? n : 1, 1), n, 0};
        assert_non_null(c.hit);
        assert_int_equal(parallel_for(n, grain, threads, cover_chunk, &c), CUZK_OK);
        assert_int_equal(c.bad, 0);
        for (size_t i = 0; i < n; i++)
            if (c.hit[i] != 1)
                fail_msg("n %zu grain %zu threads %d: index %zu run %u times", n, grain, threads, i,
                         c.hit[i]);
        free(c.hit);
    }
}

static void test_threads_and_share(void **state)
{
    (void)state;
    const char *old = getenv("CUZK_THREADS");
    char *keep = old ? strdup(old) : NULL;
    setenv("CUZK_THREADS", "16", 1);
    assert_int_equal(parallel_threads(0), 16);
    assert_int_equal(parallel_threads(-3), 16);
    assert_int_equal(parallel_threads(5), 5);
    /* the H200 host: 2 workers keep 2 CPUs each, 1 more; a pool of 2 */
    assert_int_equal(parallel_share(2, 2 * 2 + 1), 5);
    assert_int_equal(parallel_share(3, 1), 5);
    assert_int_equal(parallel_share(1, 0), 16);
    assert_int_equal(parallel_share(0, 0), 16);  /* no stages counts as one */
    assert_int_equal(parallel_share(4, -7), 4);  /* nothing negative reserved */
    assert_int_equal(parallel_share(2, 16), 1);  /* nothing left: still one */
    assert_int_equal(parallel_share(64, 40), 1); /* more reserved than there is */
    setenv("CUZK_THREADS", "2", 1);              /* this CI-class machine */
    assert_int_equal(parallel_share(2, 5), 1);
    if (keep) {
        setenv("CUZK_THREADS", keep, 1);
        free(keep);
    } else {
        unsetenv("CUZK_THREADS");
    }
}

int main(void)
{
    tu_init("test_parallel");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_for_covers_once),
        cmocka_unit_test(test_threads_and_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
