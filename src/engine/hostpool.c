/* The engine's witness buffers (engine_internal.h): made by the config's
 * host allocator (page-locked memory, typically) or malloc, and kept for
 * reuse, so that pinning a 4 GiB buffer and faulting its pages in are paid
 * once per buffer rather than once per partition. Frees happen only when
 * more buffers are returned than the pool keeps, or at engine_destroy: an
 * allocator's free may be a device-wide call (cudaFreeHost), which the
 * proving path must not make. */
#include <stdlib.h>

#include "engine/engine_internal.h"

void eng_hostpool_init(eng_hostpool_t *p, const engine_config_t *cfg, unsigned keep)
{
    pthread_mutex_init(&p->mu, NULL);
    p->alloc = cfg->host_alloc;
    p->free = cfg->host_free;
    p->ctx = cfg->host_ctx;
    p->keep = keep > ENG_HOSTPOOL_MAX ? ENG_HOSTPOOL_MAX : keep;
    p->n = 0;
}

static void buf_release(const eng_hostpool_t *p, const eng_hostbuf_t *b)
{
    if (b->hook)
        p->free(p->ctx, b->p, b->bytes);
    else
        free(b->p);
}

void *eng_hostpool_get(eng_hostpool_t *p, size_t bytes, int *hook)
{
    pthread_mutex_lock(&p->mu);
    for (unsigned i = 0; i < p->n; i++)
        if (p->bufs[i].bytes == bytes) {
            eng_hostbuf_t b = p->bufs[i];
            p->bufs[i] = p->bufs[--p->n];
            pthread_mutex_unlock(&p->mu);
            *hook = b.hook;
            return b.p;
        }
    pthread_mutex_unlock(&p->mu);
    void *m = NULL;
    if (p->alloc && p->free && (m = p->alloc(p->ctx, bytes)) != NULL) {
        *hook = 1;
        return m;
    }
    /* no allocator, or it refused (pinned memory is a limited resource):
     * ordinary memory still proves, only its upload is slower */
    *hook = 0;
    return malloc(bytes);
}

void eng_hostpool_put(eng_hostpool_t *p, void *m, size_t bytes, int hook)
{
    if (!m)
        return;
    eng_hostbuf_t b = {m, bytes, hook}, out = {NULL, 0, 0};
    pthread_mutex_lock(&p->mu);
    if (p->n < p->keep) {
        p->bufs[p->n++] = b;
        b.p = NULL;
    } else if (p->n) { /* keep the newest: the oldest is likelier a size no longer used */
        out = p->bufs[0];
        for (unsigned i = 1; i < p->n; i++)
            p->bufs[i - 1] = p->bufs[i];
        p->bufs[p->n - 1] = b;
        b.p = NULL;
    }
    pthread_mutex_unlock(&p->mu);
    if (b.p)
        buf_release(p, &b);
    if (out.p)
        buf_release(p, &out);
}

size_t eng_hostpool_bytes(eng_hostpool_t *p, unsigned *count)
{
    size_t total = 0;
    pthread_mutex_lock(&p->mu);
    for (unsigned i = 0; i < p->n; i++)
        total += p->bufs[i].bytes;
    if (count)
        *count = p->n;
    pthread_mutex_unlock(&p->mu);
    return total;
}

void eng_hostpool_destroy(eng_hostpool_t *p)
{
    for (unsigned i = 0; i < p->n; i++)
        buf_release(p, &p->bufs[i]);
    p->n = 0;
    pthread_mutex_destroy(&p->mu);
}
