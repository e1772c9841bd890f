/* The engine's witness buffers (engine_internal.h): made by the config's
 * host allocator (page-locked memory, typically) or malloc, and kept for
 * reuse, so that pinning a 4 GiB buffer and faulting its pages in are paid
 * once per buffer rather than once per partition. Frees happen only when
 * more buffers are returned than the pool keeps, or at engine_destroy: an
 * allocator's free may be a device-wide call (cudaFreeHost), which the
 * proving path must not make. */
#include <stdlib.h>

#include "engine/engine_internal.h"

void eng_hostpool_init(eng_hostpool_t *p, const engine_config_t *cfg, const device_t *devices,
                       unsigned keep)
{
    pthread_mutex_init(&p->mu, NULL);
    p->alloc = NULL;
    p->free = NULL;
    p->ctx = NULL;
    if (cfg->host_alloc && cfg->host_free) {
        p->alloc = cfg->host_alloc;
        p->free = cfg->host_free;
        p->ctx = cfg->host_ctx;
    } else {
        for (unsigned d = 0; d < cfg->n_devices && !p->alloc; d++)
            if (devices[d].host_alloc && devices[d].host_free) {
                p->alloc = devices[d].host_alloc;
                p->free = devices[d].host_free;
                p->ctx = devices[d].ctx;
            }
    }
    p->keep = keep > ENG_HOSTPOOL_MAX ? ENG_HOSTPOOL_MAX : keep;
    p->n = 0;
    p->cap = cfg->host_bytes_max;
    p->live = 0;
}

/* Without the pool's mutex: the allocator's free may take long. */
static void buf_release(eng_hostpool_t *p, const eng_hostbuf_t *b)
{
    if (b->hook) {
        p->free(p->ctx, b->p, b->bytes);
        pthread_mutex_lock(&p->mu);
        p->live -= b->bytes;
        pthread_mutex_unlock(&p->mu);
    } else {
        free(b->p);
    }
}

void *eng_hostpool_get(eng_hostpool_t *p, size_t bytes, int *hook)
{
    pthread_mutex_lock(&p->mu);
    int best = -1; /* a kept buffer of that size, the allocator's first */
    for (unsigned i = 0; i < p->n; i++)
        if (p->bufs[i].bytes == bytes && (best < 0 || (p->bufs[i].hook && !p->bufs[best].hook)))
            best = (int)i;
    if (best >= 0) {
        eng_hostbuf_t b = p->bufs[best];
        for (unsigned i = (unsigned)best + 1; i < p->n; i++)
            p->bufs[i - 1] = p->bufs[i];
        p->n--;
        pthread_mutex_unlock(&p->mu);
        *hook = b.hook;
        return b.p;
    }
    /* room under the cap is claimed before the call, so that concurrent
     * callers cannot pass it together */
    int room = p->alloc && (!p->cap || (p->live <= p->cap && bytes <= p->cap - p->live));
    if (room)
        p->live += bytes;
    pthread_mutex_unlock(&p->mu);
    void *m = NULL;
    if (room && (m = p->alloc(p->ctx, bytes)) != NULL) {
        *hook = 1;
        return m;
    }
    if (room) {
        pthread_mutex_lock(&p->mu);
        p->live -= bytes;
        pthread_mutex_unlock(&p->mu);
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
    } else if (p->n) {
        /* full: drop the oldest ordinary buffer (the allocator's are worth
         * more), else the oldest of the allocator's when b is one too (the
         * oldest is likelier a size no longer used), else b itself */
        int victim = -1;
        for (unsigned i = 0; i < p->n && victim < 0; i++)
            if (!p->bufs[i].hook)
                victim = (int)i;
        if (victim < 0 && hook)
            victim = 0;
        if (victim >= 0) {
            out = p->bufs[victim];
            for (unsigned i = (unsigned)victim + 1; i < p->n; i++)
                p->bufs[i - 1] = p->bufs[i];
            p->bufs[p->n - 1] = b;
            b.p = NULL;
        }
    }
    pthread_mutex_unlock(&p->mu);
    if (b.p)
        buf_release(p, &b);
    if (out.p)
        buf_release(p, &out);
}

size_t eng_hostpool_bytes(eng_hostpool_t *p, unsigned *count, size_t *live)
{
    size_t total = 0;
    pthread_mutex_lock(&p->mu);
    for (unsigned i = 0; i < p->n; i++)
        total += p->bufs[i].bytes;
    if (count)
        *count = p->n;
    if (live)
        *live = p->live;
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
