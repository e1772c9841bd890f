/* A small Prometheus registry: counters, gauges and histograms, each family
 * with up to METRICS_LABELS_MAX label names, rendered in the text
 * exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/).
 *
 * Families the daemon exports (the daemon registers and feeds them; the
 * names are listed here so that dashboards have one reference):
 *   cuzk_proofs_total{kind,status}         counter   jobs finished, status
 *                                                    "done" | "failed" | "cancelled"
 *   cuzk_queue_depth{priority}             gauge     partitions waiting (witness
 *                                                    and ready queues), by priority
 *   cuzk_stage_seconds{stage}              histogram one stage run (engine_stage_str),
 *                                                    metrics_seconds_buckets
 *   cuzk_gpu_busy_ratio{device}            gauge     busy fraction of the last window
 *   cuzk_vram_reserved_bytes{device}       gauge     the VRAM ledger's reserved bytes
 *   cuzk_vram_total_bytes{device}          gauge     the ledger's capacity
 *   cuzk_key_load_bytes{circuit}           gauge     bytes of the circuit's key loaded
 *
 * Use: register a family once (metrics_register), take a series handle for
 * each label value tuple (metrics_series: found or made), then update the
 * handle on the hot path. Handles stay valid until metrics_free.
 *
 * Rendering: families sorted by name, each with # HELP and # TYPE lines
 * (also when it has no series yet); series sorted by their label values in
 * label order; label values escaped (\\, \", \n), help text escaped (\\,
 * \n); values in the shortest form that reads back exactly, "+Inf", "-Inf",
 * "NaN". A histogram series renders cumulative name_bucket{...,le="b"} lines
 * for every bound and le="+Inf", then name_sum and name_count. A family
 * without labels has its one series from the start (value 0).
 *
 * Rules for these functions:
 *  - argument order: the registry or handle first, then outputs, then
 *    inputs, cuzk_error_t *err last;
 *  - NULL: err may be NULL; metrics_free does nothing for NULL; the update
 *    functions do nothing for a NULL handle; every other pointer is required
 *    (CUZK_ERR_ARG);
 *  - thread safety: every function may be called from any number of
 *    threads at once, except metrics_free, which needs every other call on
 *    that registry to have returned. One mutex per registry guards all its
 *    state, so a render is a consistent snapshot (an update costs one
 *    uncontended lock: stage-rate updates, not per-element ones). */
#ifndef CUZK_METRICS_H
#define CUZK_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define METRICS_LABELS_MAX 4
#define METRICS_BUCKETS_MAX 32
#define METRICS_SERIES_MAX 4096 /* per family: bounds a label's cardinality */
#define METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

typedef enum metrics_type {
    METRICS_COUNTER = 0,
    METRICS_GAUGE = 1,
    METRICS_HISTOGRAM = 2,
} metrics_type;

/* Default histogram bounds, seconds: 0.01 .. 600, about x2.5 apart
 * (proof stages run from milliseconds to minutes). */
#define METRICS_SECONDS_BUCKETS_N 15
extern const double metrics_seconds_buckets[METRICS_SECONDS_BUCKETS_N];

typedef struct metrics metrics_t;
typedef struct metrics_family metrics_family_t;
typedef struct metrics_series metrics_series_t;

typedef struct metrics_spec {
    metrics_type type;
    const char *name; /* [a-zA-Z_:][a-zA-Z0-9_:]* */
    const char *help; /* UTF-8, one line or more */
    /* Label names, [a-zA-Z_][a-zA-Z0-9_]*, distinct, not starting "__", and
     * not "le" for a histogram. */
    const char *const *labels;
    unsigned n_labels; /* 0..METRICS_LABELS_MAX */
    /* Histograms: strictly increasing finite upper bounds (the +Inf bucket
     * is implicit); NULL: metrics_seconds_buckets. Ignored otherwise. */
    const double *buckets;
    unsigned n_buckets; /* 1..METRICS_BUCKETS_MAX */
} metrics_spec_t;

/* Returns: CUZK_OK; CUZK_ERR_NOMEM. */
cuzk_status metrics_new(metrics_t **out, cuzk_error_t *err);
/* Frees the registry, its families and series (every handle). */
void metrics_free(metrics_t *m);

/* Registers a family (strings copied). Registering a name again with the
 * same type, labels and buckets returns the existing family.
 * Returns: CUZK_OK; CUZK_ERR_ARG (a bad name, label or bucket list, or the
 * name taken by a different family: the message says which); CUZK_ERR_NOMEM. */
cuzk_status metrics_register(metrics_t *m, metrics_family_t **out, const metrics_spec_t *spec,
                             cuzk_error_t *err);

/* The series with these label values (n_labels UTF-8 strings, copied), made
 * when new. Returns: CUZK_OK; CUZK_ERR_ARG (a NULL or non-UTF-8 value);
 * CUZK_ERR_CAPACITY (METRICS_SERIES_MAX series already); CUZK_ERR_NOMEM. */
cuzk_status metrics_series(metrics_family_t *f, metrics_series_t **out, const char *const *values,
                           cuzk_error_t *err);

/* Counter or gauge: value += v. A counter ignores v < 0 and NaN (counters
 * only go up). Ignored on a histogram. */
void metrics_add(metrics_series_t *s, double v);
/* Counter or gauge: value = v (a counter may mirror a count kept
 * elsewhere, which the caller keeps monotonic). Ignored on a histogram. */
void metrics_set(metrics_series_t *s, double v);
/* Histogram: counts v in the first bucket whose bound is >= v (Prometheus
 * buckets are "less or equal"), adds it to the sum. Ignored otherwise. */
void metrics_observe(metrics_series_t *s, double v);
/* A counter's or gauge's value; a histogram's sum. 0 for NULL. */
double metrics_value(const metrics_series_t *s);
/* A histogram's observation count; 0 otherwise. */
uint64_t metrics_count(const metrics_series_t *s);

/* The whole registry in the text format: *text malloc'd, NUL-terminated,
 * *len its length. Returns: CUZK_OK; CUZK_ERR_NOMEM. */
cuzk_status metrics_render(metrics_t *m, char **text, size_t *len, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
