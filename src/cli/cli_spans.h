/* Busy intervals of a device (prove spans from the engine's event hook) and
 * how they overlap, for the engine benchmarks. */
#ifndef CUZK_CLI_SPANS_H
#define CUZK_CLI_SPANS_H

#include <stddef.h>
#include <stdint.h>

typedef struct span {
    uint64_t start, end; /* ledger_clock_ns() */
} span_t;

typedef struct overlap {
    double union_s, sum_s; /* seconds covered by some span; all spans' lengths added */
    int max_concurrent;    /* the most spans that overlap at one instant */
} overlap_t;

/* Of the spans clipped to [t0, t1] (t1 = 0: no end): one sweep over their
 * sorted ends. All zero when memory runs out. */
overlap_t spans_overlap(const span_t *s, size_t n, uint64_t t0, uint64_t t1);

#endif
