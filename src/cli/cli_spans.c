/* Busy intervals and their overlap (cli_spans.h). */
#include "cli_spans.h"

#include <stdlib.h>
#include <string.h>

cuzk_status span_recorder_init(span_recorder_t *r, size_t cap)
{
    memset(r, 0, sizeof *r);
    if (pthread_mutex_init(&r->mu, NULL) != 0)
        return CUZK_ERR_NOMEM;
    r->spans = calloc(cap ? cap : 1, sizeof *r->spans);
    r->cap = cap;
    if (!r->spans) {
        pthread_mutex_destroy(&r->mu);
        return CUZK_ERR_NOMEM;
    }
    return CUZK_OK;
}

void span_recorder_free(span_recorder_t *r)
{
    if (!r || !r->spans)
        return;
    free(r->spans);
    pthread_mutex_destroy(&r->mu);
    r->spans = NULL;
}

void span_recorder_hook(void *ctx, const engine_event_t *ev)
{
    span_recorder_t *r = ctx;
    eventlog_engine_hook(r->log, ev);
    if (ev->stage != ENGINE_STAGE_PROVE || ev->status != CUZK_OK)
        return;
    pthread_mutex_lock(&r->mu);
    if (r->n < r->cap)
        r->spans[r->n++] = (span_t){ev->start_ns, ev->end_ns, ev->device};
    pthread_mutex_unlock(&r->mu);
}

typedef struct edge {
    uint64_t t;
    int d; /* +1 a span starts, -1 one ends */
} edge_t;

static int cmp_edge(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    if (x->t != y->t)
        return (x->t > y->t) - (x->t < y->t);
    return x->d - y->d; /* an end before a start at the same instant */
}

overlap_t spans_overlap(const span_t *s, size_t n, uint64_t t0, uint64_t t1)
{
    overlap_t o = {0, 0, 0};
    edge_t *ev = malloc((2 * n + 1) * sizeof *ev);
    if (!ev)
        return o;
    size_t k = 0;
    uint64_t sum = 0, uni = 0, since = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = s[i].start > t0 ? s[i].start : t0;
        uint64_t b = t1 && s[i].end > t1 ? t1 : s[i].end;
        if (b <= a)
            continue;
        sum += b - a;
        ev[k++] = (edge_t){a, +1};
        ev[k++] = (edge_t){b, -1};
    }
    qsort(ev, k, sizeof *ev, cmp_edge);
    int active = 0;
    for (size_t i = 0; i < k; i++) {
        if (active == 0 && ev[i].d > 0)
            since = ev[i].t;
        active += ev[i].d;
        if (active > o.max_concurrent)
            o.max_concurrent = active;
        if (active == 0)
            uni += ev[i].t - since;
    }
    free(ev);
    o.union_s = (double)uni * 1e-9;
    o.sum_s = (double)sum * 1e-9;
    return o;
}

overlap_t spans_overlap_device(const span_t *s, size_t n, int device, uint64_t t0, uint64_t t1)
{
    if (device < 0)
        return spans_overlap(s, n, t0, t1);
    overlap_t o = {0, 0, 0};
    span_t *mine = malloc((n ? n : 1) * sizeof *mine);
    if (!mine)
        return o;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i].device == device)
            mine[k++] = s[i];
    o = spans_overlap(mine, k, t0, t1);
    free(mine);
    return o;
}
