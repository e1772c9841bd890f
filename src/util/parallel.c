/* parallel_for on POSIX threads (see include/cuzk/parallel.h). Threads are
 * started per call: the CPU backend's parallel regions are large (NTT
 * passes, MSM windows), so start-up cost is noise, and no pool state is
 * shared between callers. */
#include "cuzk/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct chunk {
    parallel_fn fn;
    void *ctx;
    size_t begin, end;
} chunk_t;

static void *chunk_run(void *arg)
{
    chunk_t *c = arg;
    c->fn(c->ctx, c->begin, c->end);
    return NULL;
}

int parallel_threads(int threads)
{
    if (threads > 0)
        return threads;
    const char *env = getenv("CUZK_THREADS");
    if (env && atoi(env) > 0)
        return atoi(env);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int parallel_share(int stages, int reserved)
{
    int spare = parallel_threads(0) - (reserved > 0 ? reserved : 0);
    int each = spare / (stages > 0 ? stages : 1);
    return each > 1 ? each : 1;
}

cuzk_status parallel_for(size_t n, size_t grain, int threads, parallel_fn fn, void *ctx)
{
    if (n == 0)
        return CUZK_OK;
    if (grain == 0)
        grain = 1;
    size_t t = (size_t)parallel_threads(threads);
    size_t max_chunks = (n + grain - 1) / grain;
    if (t > max_chunks)
        t = max_chunks;
    if (t <= 1) {
        fn(ctx, 0, n);
        return CUZK_OK;
    }
    chunk_t *chunks = malloc(t * sizeof *chunks);
    pthread_t *tids = malloc(t * sizeof *tids);
    if (!chunks || !tids) {
        free(chunks);
        free(tids);
        return CUZK_ERR_NOMEM;
    }
    size_t per = n / t, extra = n % t, pos = 0;
    for (size_t i = 0; i < t; i++) {
        size_t len = per + (i < extra ? 1 : 0);
        chunks[i] = (chunk_t){fn, ctx, pos, pos + len};
        pos += len;
    }
    size_t started = 1;
    for (; started < t; started++)
        if (pthread_create(&tids[started], NULL, chunk_run, &chunks[started]) != 0)
            break;
    /* If a thread could not start, the caller runs its chunk too. */
    for (size_t i = started; i < t; i++)
        chunk_run(&chunks[i]);
    chunk_run(&chunks[0]);
    for (size_t i = 1; i < started; i++)
        pthread_join(tids[i], NULL);
    free(chunks);
    free(tids);
    return CUZK_OK;
}
