/* Busy intervals of a device (prove spans from the engine's event hook) and
 * how they overlap, for the engine benchmarks. */
#ifndef CUZK_CLI_SPANS_H
#define CUZK_CLI_SPANS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/eventlog.h"

typedef struct span {
    uint64_t start, end; /* ledger_clock_ns() */
    int device;          /* the engine's device index */
} span_t;

typedef struct overlap {
    double union_s, sum_s; /* seconds covered by some span; all spans' lengths added */
    int max_concurrent;    /* the most spans that overlap at one instant */
} overlap_t;

/* The successful prove spans of a run, from the engine's event hook
 * (span_recorder_hook as on_event, the recorder as event_ctx), which also
 * writes every event to log when one is set. At most cap spans are kept. */
typedef struct span_recorder {
    pthread_mutex_t mu;
    span_t *spans;
    size_t n, cap;
    eventlog_t *log; /* optional */
} span_recorder_t;

/* CUZK_ERR_NOMEM. */
cuzk_status span_recorder_init(span_recorder_t *r, size_t cap);
void span_recorder_free(span_recorder_t *r);
void span_recorder_hook(void *ctx, const engine_event_t *ev);

/* Of the spans clipped to [t0, t1] (t1 = 0: no end): one sweep over their
 * sorted ends. All zero when memory runs out. */
overlap_t spans_overlap(const span_t *s, size_t n, uint64_t t0, uint64_t t1);
/* The same over the spans of one device (device < 0: all of them). */
overlap_t spans_overlap_device(const span_t *s, size_t n, int device, uint64_t t0, uint64_t t1);

#endif
