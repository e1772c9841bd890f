/* The pipeline picture: a Gantt chart (SVG) of an event log (eventlog.h).
 *
 * Layout. Time runs left to right in seconds since the earliest start in
 * the log (t0), whatever the window. One lane group per device: "cpu" for
 * device -1 first, then "gpu 0", "gpu 1", ... in device order; every device
 * that appears anywhere in the log gets a group, so a device idle through
 * the whole window still shows. Inside a group the records that meet the
 * window are stacked into sub-lanes greedily: taken by start, the longer
 * first at equal starts (so a prove comes before the sub-stages inside it),
 * each goes to the first sub-lane whose last interval ended at or before its
 * start. No rectangle overlaps another.
 *
 * Busy fraction of a device: the length of the union of its intervals
 * clipped to the window, divided by the window's length (0 for an empty
 * window), counting every stage except "admit", which is a wait for VRAM
 * and not work. On a GPU that is the union of its proves (the finer GPU
 * stages lie inside them); on the CPU the witness and verify stages.
 *
 * Each known stage has a fixed colour (timeline_stage_colour); any other
 * stage is grey. A failed stage (status != 0) has a black outline. With
 * opts.mark, every stage of a job of that kind (eventlog_rec_t.kind) that
 * did not fail has a purple outline (TIMELINE_MARK_COLOUR), and the
 * legend says so: a WinningPoSt among PoRep partitions stands out.
 *
 * Rules for these functions:
 *  - argument order: outputs first, then inputs, cuzk_error_t *err last;
 *  - NULL: err may be NULL; opts NULL means the defaults; recs may be NULL
 *    when n is 0; every other pointer is required (CUZK_ERR_ARG);
 *  - thread safety: reentrant (no state beyond the arguments). */
#ifndef CUZK_TIMELINE_H
#define CUZK_TIMELINE_H

#include <stddef.h>
#include <stdio.h>

#include "cuzk/eventlog.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TIMELINE_WIDTH_DEFAULT 1600
#define TIMELINE_WIDTH_MIN 400
#define TIMELINE_WIDTH_MAX 100000

#define TIMELINE_MARK_COLOUR "#7a0177"

typedef struct timeline_opts {
    int width;        /* picture width, pixels (TIMELINE_WIDTH_MIN..MAX) */
    double from_s;    /* window start, seconds after t0 (>= 0) */
    double to_s;      /* window end, seconds after t0; < 0: the last end in the log */
    const char *mark; /* a job kind to outline; NULL or "": none */
} timeline_opts_t;

/* Width TIMELINE_WIDTH_DEFAULT, the whole log, nothing marked. */
void timeline_opts_default(timeline_opts_t *opts);

typedef struct timeline_busy {
    int device;      /* -1: the CPU */
    double busy_s;   /* the union's length inside the window */
    double window_s; /* the window's length */
    double fraction; /* busy_s / window_s; 0 when window_s is 0 */
} timeline_busy_t;

/* Per-device busy fractions, one entry per device in the log, in group
 * order (-1 first). *out is malloc'd (free() it; NULL when n is 0).
 * Returns: CUZK_OK; CUZK_ERR_ARG (bad options: the message names them);
 * CUZK_ERR_NOMEM. */
cuzk_status timeline_busy(timeline_busy_t **out, size_t *n_devices, const eventlog_rec_t *recs,
                          size_t n, const timeline_opts_t *opts, cuzk_error_t *err);

/* The sub-lane of every record inside its device's group: lane[i] >= 0, or
 * -1 when recs[i] does not meet the window. lane has n entries. A record
 * meets the window [from, to] when it overlaps it, or lies on it with zero
 * length. Returns as timeline_busy. */
cuzk_status timeline_lanes(int *lane, const eventlog_rec_t *recs, size_t n,
                           const timeline_opts_t *opts, cuzk_error_t *err);

/* The picture as a NUL-terminated SVG document, *svg malloc'd, *len its
 * length. All text is XML-escaped (characters XML 1.0 cannot carry become
 * '?'), so the document is well-formed whatever the stage names hold.
 * Returns as timeline_busy. */
cuzk_status timeline_render_mem(char **svg, size_t *len, const eventlog_rec_t *recs, size_t n,
                                const timeline_opts_t *opts, cuzk_error_t *err);
/* The same, written to out. CUZK_ERR_IO when the write fails. */
cuzk_status timeline_render(FILE *out, const eventlog_rec_t *recs, size_t n,
                            const timeline_opts_t *opts, cuzk_error_t *err);

/* A stage's fill colour ("#rrggbb"); grey for a stage it does not know.
 * Never NULL. */
const char *timeline_stage_colour(const char *stage);

#ifdef __cplusplus
}
#endif
#endif
