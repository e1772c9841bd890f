/* The pipeline picture (see include/cuzk/timeline.h). The SVG is written by
 * hand: a few element kinds, every text run through one XML escaper. */
#include "cuzk/timeline.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* Geometry, pixels. */
#define LABEL_W 170    /* the device names and busy fractions */
#define RIGHT_PAD 24   /* room for the last tick label */
#define LANE_H 14      /* one sub-lane */
#define LANE_GAP 2     /* between sub-lanes */
#define GROUP_PAD 5    /* above and below a group's lanes */
#define GROUP_MIN_H 38 /* two label lines */
#define GROUP_GAP 8    /* between groups */
#define AXIS_H 44      /* tick labels and the axis caption */
#define TICK_PX 110    /* aim: one tick per this many pixels */
#define FROM_S_MAX 1e9 /* window bounds beyond this (31 years) are refused */

static const struct {
    const char *name, *colour;
} stages[] = {
    {"witness", "#4e79a7"}, {"admit", "#f5e6a8"},  {"prove", "#e15759"}, {"verify", "#59a14f"},
    {"load", "#9c755f"},    {"upload", "#76b7b2"}, {"h", "#b07aa1"},     {"spmv", "#8cd17d"},
    {"ntt", "#d37295"},     {"msm_a", "#f28e2b"},  {"msm_b", "#ffbe7d"}, {"msm_l", "#499894"},
    {"msm_h", "#a0cbe8"},
};
#define N_STAGES (sizeof stages / sizeof stages[0])
#define OTHER_COLOUR "#a0a0a0"

static int stage_index(const char *name)
{
    for (size_t i = 0; i < N_STAGES; i++)
        if (!strcmp(name, stages[i].name))
            return (int)i;
    return -1;
}

const char *timeline_stage_colour(const char *stage)
{
    int i = stage ? stage_index(stage) : -1;
    return i < 0 ? OTHER_COLOUR : stages[i].colour;
}

void timeline_opts_default(timeline_opts_t *opts)
{
    opts->width = TIMELINE_WIDTH_DEFAULT;
    opts->from_s = 0;
    opts->to_s = -1;
    opts->mark = NULL;
}

/* ---- the window, devices and lanes ---- */

typedef struct window {
    uint64_t t0, from, to; /* absolute ns: t0 the earliest start */
} window_t;

/* a + s seconds in ns, rounded (s in [0, FROM_S_MAX]: no overflow in the
 * conversion), saturating. */
static uint64_t add_sat(uint64_t a, double s)
{
    uint64_t d = (uint64_t)(s * 1e9 + 0.5);
    return d > UINT64_MAX - a ? UINT64_MAX : a + d;
}

static cuzk_status check_input(window_t *w, const eventlog_rec_t *recs, size_t n,
                               const timeline_opts_t *o, cuzk_error_t *err)
{
    if (n && !recs)
        return cuzk_error_set(err, CUZK_ERR_ARG, "timeline: NULL records");
    if (o->width < TIMELINE_WIDTH_MIN || o->width > TIMELINE_WIDTH_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "timeline: width %d outside %d..%d", o->width,
                              TIMELINE_WIDTH_MIN, TIMELINE_WIDTH_MAX);
    if (!(o->from_s >= 0 && o->from_s <= FROM_S_MAX) || !(o->to_s <= FROM_S_MAX) ||
        (o->to_s >= 0 && o->to_s < o->from_s))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "timeline: window from %g s to %g s: need 0 <= from <= to <= %g",
                              o->from_s, o->to_s, FROM_S_MAX);
    uint64_t t0 = UINT64_MAX, last = 0;
    for (size_t i = 0; i < n; i++) {
        cuzk_error_t e;
        if (eventlog_rec_check(&recs[i], &e) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_ARG, "timeline: record %zu: %s", i, e.msg);
        if (recs[i].start_ns < t0)
            t0 = recs[i].start_ns;
        if (recs[i].end_ns > last)
            last = recs[i].end_ns;
    }
    if (!n)
        t0 = 0;
    w->t0 = t0;
    w->from = add_sat(t0, o->from_s);
    w->to = o->to_s < 0 ? last : add_sat(t0, o->to_s);
    if (w->to < w->from)
        w->to = w->from;
    return CUZK_OK;
}

static int meets(const eventlog_rec_t *r, const window_t *w)
{
    if (r->start_ns == r->end_ns)
        return r->start_ns >= w->from && r->start_ns <= w->to;
    return r->start_ns < w->to && r->end_ns > w->from;
}

/* Record indices of one layout: those meeting the window, sorted by device,
 * start, longer first, then index (a stable, total order). */
typedef struct layout {
    size_t *idx;
    size_t n;
    int *devices; /* every device in the log, ascending */
    size_t n_devices;
    int *lane;         /* per record (n of the caller's), -1 outside */
    unsigned *n_lanes; /* per device */
} layout_t;

typedef struct sort_key {
    int device;
    uint64_t start, end;
    size_t idx;
} sort_key_t;

static int cmp_key(const void *a, const void *b)
{
    const sort_key_t *x = a, *y = b;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void layout_free(layout_t *l)
{
    free(l->idx);
    free(l->devices);
    free(l->lane);
    free(l->n_lanes);
    memset(l, 0, sizeof *l);
}

static size_t device_slot(const layout_t *l, int device)
{
    size_t lo = 0, hi = l->n_devices;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->devices[mid] < device)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Greedy sub-lanes of one device's records idx[a..b). */
static cuzk_status assign_lanes(layout_t *l, const eventlog_rec_t *recs, size_t a, size_t b,
                                unsigned *n_lanes, cuzk_error_t *err)
{
    uint64_t *lane_end = NULL;
    size_t lanes = 0, cap = 0;
    for (size_t k = a; k < b; k++) {
        const eventlog_rec_t *r = &recs[l->idx[k]];
        size_t j = 0;
        while (j < lanes && lane_end[j] > r->start_ns)
            j++;
        if (j == lanes) {
            if (lanes == cap) {
                size_t nc = cap ? 2 * cap : 8;
                uint64_t *ne = realloc(lane_end, nc * sizeof *ne);
                if (!ne) {
                    free(lane_end);
                    return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory");
                }
                lane_end = ne;
                cap = nc;
            }
            lanes++;
        }
        lane_end[j] = r->end_ns;
        l->lane[l->idx[k]] = (int)j;
    }
    free(lane_end);
    *n_lanes = (unsigned)lanes;
    return CUZK_OK;
}

static cuzk_status layout_make(layout_t *l, window_t *w, const eventlog_rec_t *recs, size_t n,
                               const timeline_opts_t *opts, cuzk_error_t *err)
{
    timeline_opts_t def;
    memset(l, 0, sizeof *l);
    if (!opts) {
        timeline_opts_default(&def);
        opts = &def;
    }
    cuzk_status st = check_input(w, recs, n, opts, err);
    if (st != CUZK_OK)
        return st;
    size_t alloc_n = n ? n : 1;
    l->idx = malloc(alloc_n * sizeof *l->idx);
    l->devices = malloc(alloc_n * sizeof *l->devices);
    l->lane = malloc(alloc_n * sizeof *l->lane);
    l->n_lanes = calloc(alloc_n, sizeof *l->n_lanes);
    if (!l->idx || !l->devices || !l->lane || !l->n_lanes) {
        layout_free(l);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory for %zu records", n);
    }
    sort_key_t *keys = malloc(alloc_n * sizeof *keys);
    if (!keys) {
        layout_free(l);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory for %zu records", n);
    }
    for (size_t i = 0; i < n; i++) {
        l->devices[i] = recs[i].device;
        l->lane[i] = -1;
        if (meets(&recs[i], w))
            keys[l->n++] = (sort_key_t){recs[i].device, recs[i].start_ns, recs[i].end_ns, i};
    }
    qsort(l->devices, n, sizeof *l->devices, cmp_int);
    for (size_t i = 0; i < n; i++)
        if (!l->n_devices || l->devices[l->n_devices - 1] != l->devices[i])
            l->devices[l->n_devices++] = l->devices[i];
    qsort(keys, l->n, sizeof *keys, cmp_key);
    for (size_t k = 0; k < l->n; k++)
        l->idx[k] = keys[k].idx;
    free(keys);
    for (size_t a = 0; a < l->n;) {
        size_t b = a;
        while (b < l->n && recs[l->idx[b]].device == recs[l->idx[a]].device)
            b++;
        size_t slot = device_slot(l, recs[l->idx[a]].device);
        if ((st = assign_lanes(l, recs, a, b, &l->n_lanes[slot], err)) != CUZK_OK) {
            layout_free(l);
            return st;
        }
        a = b;
    }
    return CUZK_OK;
}

/* Busy ns of each device: one pass over the layout's start-sorted records
 * merging the clipped intervals of every stage but "admit". */
static void busy_ns(uint64_t *busy, const layout_t *l, const window_t *w,
                    const eventlog_rec_t *recs)
{
    memset(busy, 0, l->n_devices * sizeof *busy);
    size_t slot = 0;
    int have = 0, dev = 0;
    uint64_t cs = 0, ce = 0; /* the union's current run */
    for (size_t k = 0; k <= l->n; k++) {
        const eventlog_rec_t *r = k < l->n ? &recs[l->idx[k]] : NULL;
        if (have && (!r || r->device != dev)) {
            busy[slot] += ce - cs;
            have = 0;
        }
        if (!r)
            break;
        if (!strcmp(r->stage, "admit"))
            continue;
        uint64_t s = r->start_ns > w->from ? r->start_ns : w->from;
        uint64_t e = r->end_ns < w->to ? r->end_ns : w->to;
        if (e <= s)
            continue;
        if (have && s <= ce) {
            if (e > ce)
                ce = e;
            continue;
        }
        if (have)
            busy[slot] += ce - cs;
        have = 1;
        dev = r->device;
        slot = device_slot(l, dev);
        cs = s;
        ce = e;
    }
}

cuzk_status timeline_lanes(int *lane, const eventlog_rec_t *recs, size_t n,
                           const timeline_opts_t *opts, cuzk_error_t *err)
{
    if (!lane && n)
        return cuzk_error_set(err, CUZK_ERR_ARG, "timeline_lanes: NULL lane array");
    layout_t l;
    window_t w;
    cuzk_status st = layout_make(&l, &w, recs, n, opts, err);
    if (st != CUZK_OK)
        return st;
    if (n)
        memcpy(lane, l.lane, n * sizeof *lane);
    layout_free(&l);
    return CUZK_OK;
}

static cuzk_status busy_make(timeline_busy_t **out, const layout_t *l, const window_t *w,
                             const eventlog_rec_t *recs, cuzk_error_t *err)
{
    *out = NULL;
    if (!l->n_devices)
        return CUZK_OK;
    uint64_t *ns = malloc(l->n_devices * sizeof *ns);
    timeline_busy_t *b = malloc(l->n_devices * sizeof *b);
    if (!ns || !b) {
        free(ns);
        free(b);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory");
    }
    busy_ns(ns, l, w, recs);
    double win = (double)(w->to - w->from) / 1e9;
    for (size_t i = 0; i < l->n_devices; i++) {
        b[i].device = l->devices[i];
        b[i].busy_s = (double)ns[i] / 1e9;
        b[i].window_s = win;
        b[i].fraction = w->to > w->from ? (double)ns[i] / (double)(w->to - w->from) : 0;
    }
    free(ns);
    *out = b;
    return CUZK_OK;
}

cuzk_status timeline_busy(timeline_busy_t **out, size_t *n_devices, const eventlog_rec_t *recs,
                          size_t n, const timeline_opts_t *opts, cuzk_error_t *err)
{
    if (!out || !n_devices)
        return cuzk_error_set(err, CUZK_ERR_ARG, "timeline_busy: NULL argument");
    *out = NULL;
    *n_devices = 0;
    layout_t l;
    window_t w;
    cuzk_status st = layout_make(&l, &w, recs, n, opts, err);
    if (st != CUZK_OK)
        return st;
    st = busy_make(out, &l, &w, recs, err);
    if (st == CUZK_OK)
        *n_devices = l.n_devices;
    layout_free(&l);
    return st;
}

/* ---- SVG text ---- */

/* The code point of the UTF-8 sequence at s, *k its length; -1 for an
 * invalid sequence (*k = 1). */
static long utf8_decode(const unsigned char *s, size_t n, size_t *k)
{
    unsigned c = s[0];
    *k = 1;
    if (c < 0x80)
        return (long)c;
    size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    static const unsigned long min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < 0xc2 || c > 0xf4 || n < len)
        return -1;
    unsigned long cp = c & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return -1;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return -1;
    *k = len;
    return (long)cp;
}

/* XML 1.0 section 2.2 Char: what a document may carry at all. */
static int xml_char_ok(long cp)
{
    return cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
           (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

static void sb_xml(strbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k;
        long cp = utf8_decode((const unsigned char *)s + i, n - i, &k);
        if (cp == '&')
            STRBUF_LIT(b, "&amp;");
        else if (cp == '<')
            STRBUF_LIT(b, "&lt;");
        else if (cp == '>')
            STRBUF_LIT(b, "&gt;");
        else if (cp == '"')
            STRBUF_LIT(b, "&quot;");
        else if (cp == '\'')
            STRBUF_LIT(b, "&#39;");
        else if (cp < 0 || !xml_char_ok(cp))
            STRBUF_LIT(b, "?");
        else
            strbuf_put(b, s + i, k);
        i += k;
    }
}

/* ---- drawing ---- */

typedef struct scale {
    uint64_t from, span; /* ns; span > 0 */
    double x0, w;        /* plot area, pixels */
} scale_t;

static double x_of(const scale_t *s, uint64_t t)
{
    return s->x0 + (double)(t - s->from) / (double)s->span * s->w;
}

static void device_name(char *buf, size_t cap, int device)
{
    if (device < 0)
        snprintf(buf, cap, "cpu");
    else
        snprintf(buf, cap, "gpu %d", device);
}

/* The stages in the log, legend order: known ones in table order, then
 * "other" when some stage is unknown. Returns the legend's height. */
/* A record of the marked kind (none when mark is NULL or ""). */
static int is_marked(const eventlog_rec_t *r, const char *mark)
{
    return mark && *mark && r->status == 0 && !strcmp(r->kind, mark);
}

static int draw_legend(strbuf_t *b, const eventlog_rec_t *recs, size_t n, int width, int y,
                       const char *mark)
{
    int used[N_STAGES] = {0}, other = 0, marked = 0;
    for (size_t i = 0; i < n; i++) {
        int k = stage_index(recs[i].stage);
        if (k < 0)
            other = 1;
        else
            used[k] = 1;
        marked |= is_marked(&recs[i], mark);
    }
    int x = 10, rows = 1;
    for (size_t i = 0; i <= N_STAGES; i++) {
        if (i < N_STAGES ? !used[i] : !other)
            continue;
        const char *name = i < N_STAGES ? stages[i].name : "other";
        const char *col = i < N_STAGES ? stages[i].colour : OTHER_COLOUR;
        int item_w = 22 + 8 * (int)strlen(name) + 14;
        if (x + item_w > width - 10 && x > 10) {
            x = 10;
            y += 18;
            rows++;
        }
        strbuf_fmt(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y - 10,
                   col);
        strbuf_fmt(b, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 17, y, name);
        x += item_w;
    }
    if (marked) { /* the outline, and whose it is */
        int item_w = 22 + 8 * ((int)strlen(mark) + 10) + 14;
        if (x + item_w > width - 10 && x > 10) {
            x = 10;
            y += 18;
            rows++;
        }
        strbuf_fmt(b,
                   "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#ffffff\" "
                   "stroke=\"" TIMELINE_MARK_COLOUR "\" stroke-width=\"2\"/><text x=\"%d\" "
                   "y=\"%d\">",
                   x, y - 10, x + 17, y);
        sb_xml(b, mark);
        STRBUF_LIT(b, " (outlined)</text>\n");
    }
    return rows * 18;
}

/* 1, 2 or 5 times a power of ten, near span / want (libm is not linked:
 * the power is found by steps of ten). */
static double tick_step(double span_s, int want)
{
    double raw = span_s / (want > 2 ? want : 2); /* two ticks at least */
    double mag = 1;
    while (mag * 10 <= raw)
        mag *= 10;
    while (mag > raw)
        mag /= 10;
    double norm = raw / mag;
    return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

/* Decimals that show step exactly (1 for 0.5, 4 for 0.0002). */
static int tick_decimals(double step)
{
    int dec = 0;
    for (double s = step; s < 0.999999 && dec < 12; s *= 10)
        dec++;
    return dec;
}

static void draw_axis(strbuf_t *b, const scale_t *sc, const window_t *w, int top, int bottom)
{
    double from_s = (double)(w->from - w->t0) / 1e9;
    double span_s = (double)sc->span / 1e9;
    double step = tick_step(span_s, (int)(sc->w / TICK_PX));
    int dec = tick_decimals(step);
    strbuf_fmt(b, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#444\"/>\n", sc->x0,
               bottom, sc->x0 + sc->w, bottom);
    /* Tick k at k * step, for the k inside the window (both >= 0). */
    double lo = from_s / step - 1e-9, hi = (from_s + span_s) / step + 1e-9;
    long long k0 = lo <= 0 ? 0 : (long long)lo + ((double)(long long)lo < lo);
    long long k1 = (long long)hi;
    for (long long k = k0; k <= k1; k++) {
        double t = (double)k * step;
        double x = sc->x0 + (t - from_s) / span_s * sc->w;
        strbuf_fmt(b,
                   "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#dddddd\"/>"
                   "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#444\"/>"
                   "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n",
                   x, top, x, bottom, x, bottom, x, bottom + 5, x, bottom + 18, dec, t);
    }
    strbuf_fmt(b, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">time (s)</text>\n",
               sc->x0 + sc->w / 2, bottom + 36);
}

static void draw_rec(strbuf_t *b, const scale_t *sc, const window_t *w, const eventlog_rec_t *r,
                     int y, const char *mark)
{
    uint64_t s = r->start_ns > w->from ? r->start_ns : w->from;
    uint64_t e = r->end_ns < w->to ? r->end_ns : w->to;
    double x0 = x_of(sc, s), x1 = e > s ? x_of(sc, e) : x0;
    double wd = x1 - x0 < 0.5 ? 0.5 : x1 - x0; /* a short stage stays visible */
    strbuf_fmt(b, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"", x0, y, wd,
               LANE_H, timeline_stage_colour(r->stage));
    if (r->status != 0)
        STRBUF_LIT(b, " stroke=\"#000\" stroke-width=\"1.5\"");
    else if (is_marked(r, mark))
        STRBUF_LIT(b, " stroke=\"" TIMELINE_MARK_COLOUR "\" stroke-width=\"2\"");
    strbuf_fmt(b, "><title>job %llu", (unsigned long long)r->job);
    if (r->partition >= 0)
        strbuf_fmt(b, " partition %d", r->partition);
    STRBUF_LIT(b, " ");
    sb_xml(b, r->stage);
    strbuf_fmt(b, " %.3f ms", (double)(r->end_ns - r->start_ns) / 1e6);
    if (r->kind[0]) {
        STRBUF_LIT(b, " (");
        sb_xml(b, r->kind);
        STRBUF_LIT(b, ")");
    }
    if (r->worker >= 0)
        strbuf_fmt(b, " worker %d", r->worker);
    if (r->status != 0)
        strbuf_fmt(b, " failed: %s", cuzk_status_str((cuzk_status)r->status));
    if (r->detail[0]) {
        STRBUF_LIT(b, ": ");
        sb_xml(b, r->detail);
    }
    STRBUF_LIT(b, "</title></rect>\n");
}

static int group_height(unsigned lanes)
{
    int h = 2 * GROUP_PAD + (int)lanes * (LANE_H + LANE_GAP) - (lanes ? LANE_GAP : 0);
    return h < GROUP_MIN_H ? GROUP_MIN_H : h;
}

static void draw(strbuf_t *b, const layout_t *l, const window_t *w, const timeline_busy_t *busy,
                 const eventlog_rec_t *recs, size_t n, int width, const char *mark)
{
    scale_t sc = {w->from, w->to > w->from ? w->to - w->from : 1000000, LABEL_W,
                  (double)(width - LABEL_W - RIGHT_PAD)};
    /* Heights first: the svg element states its size. */
    strbuf_t legend = {0};
    int legend_h = draw_legend(&legend, recs, n, width, 46, mark);
    int top = 46 + legend_h + 8, y = top;
    for (size_t g = 0; g < l->n_devices; g++)
        y += group_height(l->n_lanes[g]) + GROUP_GAP;
    int bottom = y > top ? y - GROUP_GAP + 4 : top + 20;
    int height = bottom + AXIS_H;
    strbuf_fmt(b,
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
               width, height, width, height, width, height);
    strbuf_fmt(b,
               "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">cuzk pipeline: %zu "
               "stage runs, %.3f s to %.3f s</text>\n",
               l->n, (double)(w->from - w->t0) / 1e9, (double)(w->to - w->t0) / 1e9);
    if (legend.nomem)
        b->nomem = 1;
    else if (legend.len)
        strbuf_put(b, legend.p, legend.len);
    free(legend.p);
    /* Group backgrounds (idle shows as bare background), then the grid,
     * then the stage rectangles over both. */
    y = top;
    for (size_t g = 0; g < l->n_devices; g++) {
        int h = group_height(l->n_lanes[g]);
        char name[32];
        device_name(name, sizeof name, l->devices[g]);
        strbuf_fmt(b,
                   "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"#f2f2f2\"/>"
                   "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>"
                   "<text x=\"10\" y=\"%d\">busy %.1f%%</text>\n",
                   sc.x0, y, sc.w, h, y + 15, name, y + 30, 100 * busy[g].fraction);
        y += h + GROUP_GAP;
    }
    if (!l->n_devices)
        strbuf_fmt(b, "<text x=\"%.2f\" y=\"%d\">no events</text>\n", sc.x0 + 10, top + 14);
    draw_axis(b, &sc, w, top, bottom);
    y = top;
    size_t k = 0;
    for (size_t g = 0; g < l->n_devices; g++) {
        for (; k < l->n && recs[l->idx[k]].device == l->devices[g]; k++) {
            const eventlog_rec_t *r = &recs[l->idx[k]];
            draw_rec(b, &sc, w, r, y + GROUP_PAD + l->lane[l->idx[k]] * (LANE_H + LANE_GAP), mark);
        }
        y += group_height(l->n_lanes[g]) + GROUP_GAP;
    }
    STRBUF_LIT(b, "</svg>\n");
}

cuzk_status timeline_render_mem(char **svg, size_t *len, const eventlog_rec_t *recs, size_t n,
                                const timeline_opts_t *opts, cuzk_error_t *err)
{
    if (!svg || !len)
        return cuzk_error_set(err, CUZK_ERR_ARG, "timeline_render: NULL argument");
    *svg = NULL;
    *len = 0;
    timeline_opts_t def;
    if (!opts) {
        timeline_opts_default(&def);
        opts = &def;
    }
    layout_t l;
    window_t w;
    cuzk_status st = layout_make(&l, &w, recs, n, opts, err);
    if (st != CUZK_OK)
        return st;
    timeline_busy_t *busy = NULL;
    if ((st = busy_make(&busy, &l, &w, recs, err)) != CUZK_OK) {
        layout_free(&l);
        return st;
    }
    strbuf_t b = {0};
    draw(&b, &l, &w, busy, recs, n, opts->width, opts->mark);
    free(busy);
    layout_free(&l);
    if (b.nomem) {
        free(b.p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "timeline: out of memory for the SVG");
    }
    *svg = b.p;
    *len = b.len;
    return CUZK_OK;
}

cuzk_status timeline_render(FILE *out, const eventlog_rec_t *recs, size_t n,
                            const timeline_opts_t *opts, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "timeline_render: NULL file");
    char *svg;
    size_t len;
    cuzk_status st = timeline_render_mem(&svg, &len, recs, n, opts, err);
    if (st != CUZK_OK)
        return st;
    int bad = fwrite(svg, 1, len, out) != len || fflush(out) != 0;
    free(svg);
    if (bad)
        return cuzk_error_set(err, CUZK_ERR_IO, "timeline: writing the SVG failed");
    return CUZK_OK;
}
