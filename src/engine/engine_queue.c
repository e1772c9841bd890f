/* The engine's priority queues (see engine_internal.h): one FIFO per
 * priority level; service order is (effective priority, arrival), the
 * effective priority being the level plus one per aging period waited,
 * capped at CRITICAL. Within a level the list is in arrival order, so its
 * effective priorities are non-increasing and a merge of the four lists by
 * (effective priority desc, seq asc) walks the exact service order.
 * Callers hold engine_t.mu; nothing here locks. */
#include "engine/engine_internal.h"

void eng_queue_push(eng_queue_t *q, eng_task_t *t, uint64_t now, uint64_t *seq)
{
    int p = (int)t->prio;
    t->enq_ns = now;
    t->seq = (*seq)++;
    t->next = NULL;
    t->prev = q->last[p];
    if (q->last[p])
        q->last[p]->next = t;
    else
        q->first[p] = t;
    q->last[p] = t;
    q->n[p]++;
}

void eng_queue_remove(eng_queue_t *q, eng_task_t *t)
{
    int p = (int)t->prio;
    if (t->prev)
        t->prev->next = t->next;
    else
        q->first[p] = t->next;
    if (t->next)
        t->next->prev = t->prev;
    else
        q->last[p] = t->prev;
    t->prev = t->next = NULL;
    q->n[p]--;
}

static int eff_prio(const eng_task_t *t, uint64_t now, uint64_t aging_ns)
{
    int p = (int)t->prio;
    if (aging_ns == 0 || now <= t->enq_ns)
        return p;
    uint64_t levels = (now - t->enq_ns) / aging_ns;
    if (levels >= (uint64_t)(CUZK_PRIO_CRITICAL - p))
        return CUZK_PRIO_CRITICAL;
    return p + (int)levels;
}

eng_task_t *eng_queue_pick(const eng_queue_t *q, uint64_t now, uint64_t aging_ns,
                           int (*ok)(const eng_task_t *t, void *ctx), void *ctx)
{
    eng_task_t *cur[CUZK_PRIO_COUNT];
    int eff[CUZK_PRIO_COUNT];
    for (int p = 0; p < CUZK_PRIO_COUNT; p++) {
        cur[p] = q->first[p];
        eff[p] = cur[p] ? eff_prio(cur[p], now, aging_ns) : -1;
    }
    for (;;) {
        int best = -1;
        for (int p = 0; p < CUZK_PRIO_COUNT; p++) {
            if (!cur[p])
                continue;
            if (best < 0 || eff[p] > eff[best] ||
                (eff[p] == eff[best] && cur[p]->seq < cur[best]->seq))
                best = p;
        }
        if (best < 0)
            return NULL;
        eng_task_t *t = cur[best];
        int verdict = ok ? ok(t, ctx) : 1;
        if (verdict > 0)
            return t;
        if (verdict < 0)
            return NULL;
        cur[best] = t->next;
        eff[best] = cur[best] ? eff_prio(cur[best], now, aging_ns) : -1;
    }
}
