/* The Prometheus registry (see include/cuzk/metrics.h).
 *
 * Ownership: the registry owns its families, each family its series; all of
 * it is guarded by the registry's one mutex (metrics_t.mu), families and
 * series are only appended until metrics_free, so handles never dangle. */
#include "cuzk/metrics.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

const double metrics_seconds_buckets[METRICS_SECONDS_BUCKETS_N] = {
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 600};

struct metrics_series {
    metrics_family_t *f;
    char *values[METRICS_LABELS_MAX];
    double value;     /* counter, gauge; a histogram's sum */
    uint64_t count;   /* histogram observations */
    uint64_t *counts; /* histogram: per bucket (not cumulative), +Inf last */
};

struct metrics_family {
    metrics_t *m;
    metrics_type type;
    char *name, *help;
    char *labels[METRICS_LABELS_MAX];
    unsigned n_labels;
    double buckets[METRICS_BUCKETS_MAX];
    unsigned n_buckets;
    metrics_series_t **series;
    size_t n_series, cap_series;
};

struct metrics {
    pthread_mutex_t mu;
    metrics_family_t **fam;
    size_t n_fam, cap_fam;
};

cuzk_status metrics_new(metrics_t **out, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics_new: NULL argument");
    *out = NULL;
    metrics_t *m = calloc(1, sizeof *m);
    if (!m)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "metrics: out of memory");
    if (pthread_mutex_init(&m->mu, NULL) != 0) {
        free(m);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "metrics: cannot make a mutex");
    }
    *out = m;
    return CUZK_OK;
}

static void series_free(metrics_series_t *s)
{
    for (unsigned i = 0; i < METRICS_LABELS_MAX; i++)
        free(s->values[i]);
    free(s->counts);
    free(s);
}

static void family_free(metrics_family_t *f)
{
    for (size_t i = 0; i < f->n_series; i++)
        series_free(f->series[i]);
    free(f->series);
    for (unsigned i = 0; i < METRICS_LABELS_MAX; i++)
        free(f->labels[i]);
    free(f->name);
    free(f->help);
    free(f);
}

void metrics_free(metrics_t *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_fam; i++)
        family_free(m->fam[i]);
    free(m->fam);
    pthread_mutex_destroy(&m->mu);
    free(m);
}

/* ---- validation ---- */

static int name_ok(const char *s, int colon)
{
    if (!s || !*s)
        return 0;
    for (const char *p = s; *p; p++) {
        char c = *p;
        int alpha =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
        if (!alpha && !(p > s && c >= '0' && c <= '9'))
            return 0;
    }
    return 1;
}

/* RFC 3629 UTF-8 (the format's text is UTF-8). */
static int utf8_ok(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned c = *s;
        if (c < 0x80) {
            s++;
            continue;
        }
        size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        static const unsigned long min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < 0xc2 || c > 0xf4)
            return 0;
        unsigned long cp = c & (0x7fu >> len);
        for (size_t i = 1; i < len; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3f);
        }
        if (cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        s += len;
    }
    return 1;
}

static cuzk_status spec_check(const metrics_spec_t *sp, const double **bk, unsigned *nb,
                              cuzk_error_t *err)
{
    if (sp->type != METRICS_COUNTER && sp->type != METRICS_GAUGE && sp->type != METRICS_HISTOGRAM)
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: bad type %d", (int)sp->type);
    if (!name_ok(sp->name, 1))
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: bad metric name '%s'",
                              sp->name ? sp->name : "(null)");
    if (!sp->help || !utf8_ok(sp->help))
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: %s: help must be UTF-8 text", sp->name);
    if (sp->n_labels > METRICS_LABELS_MAX || (sp->n_labels && !sp->labels))
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: %s: at most %d labels", sp->name,
                              METRICS_LABELS_MAX);
    for (unsigned i = 0; i < sp->n_labels; i++) {
        const char *l = sp->labels[i];
        if (!name_ok(l, 0) || !strncmp(l, "__", 2) ||
            (sp->type == METRICS_HISTOGRAM && !strcmp(l, "le")))
            return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: %s: bad label name '%s'", sp->name,
                                  l ? l : "(null)");
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(l, sp->labels[j]))
                return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: %s: label '%s' twice", sp->name,
                                      l);
    }
    *bk = NULL;
    *nb = 0;
    if (sp->type != METRICS_HISTOGRAM)
        return CUZK_OK;
    *bk = sp->buckets ? sp->buckets : metrics_seconds_buckets;
    *nb = sp->buckets ? sp->n_buckets : METRICS_SECONDS_BUCKETS_N;
    if (*nb < 1 || *nb > METRICS_BUCKETS_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: %s: 1..%d buckets", sp->name,
                              METRICS_BUCKETS_MAX);
    for (unsigned i = 0; i < *nb; i++)
        if (!isfinite((*bk)[i]) || (i && !((*bk)[i] > (*bk)[i - 1])))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "metrics: %s: bucket bounds must be finite and increasing",
                                  sp->name);
    return CUZK_OK;
}

static int family_same(const metrics_family_t *f, const metrics_spec_t *sp, const double *bk,
                       unsigned nb)
{
    if (f->type != sp->type || f->n_labels != sp->n_labels || f->n_buckets != nb)
        return 0;
    for (unsigned i = 0; i < f->n_labels; i++)
        if (strcmp(f->labels[i], sp->labels[i]))
            return 0;
    for (unsigned i = 0; i < nb; i++)
        if (f->buckets[i] != bk[i])
            return 0;
    return 1;
}

/* ---- registering ---- */

/* A new series, values copied; under mu. */
static metrics_series_t *series_new(metrics_family_t *f, const char *const *values)
{
    metrics_series_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->f = f;
    if (f->type == METRICS_HISTOGRAM && !(s->counts = calloc(f->n_buckets + 1, sizeof *s->counts)))
        goto fail;
    for (unsigned i = 0; i < f->n_labels; i++)
        if (!(s->values[i] = strdup(values[i])))
            goto fail;
    if (f->n_series == f->cap_series) {
        size_t nc = f->cap_series ? 2 * f->cap_series : 4;
        metrics_series_t **ns = realloc(f->series, nc * sizeof *ns);
        if (!ns)
            goto fail;
        f->series = ns;
        f->cap_series = nc;
    }
    f->series[f->n_series++] = s;
    return s;
fail:
    series_free(s);
    return NULL;
}

static metrics_family_t *family_new(const metrics_spec_t *sp, const double *bk, unsigned nb)
{
    metrics_family_t *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->type = sp->type;
    f->n_labels = sp->n_labels;
    f->n_buckets = nb;
    if (nb)
        memcpy(f->buckets, bk, nb * sizeof *bk);
    int ok = (f->name = strdup(sp->name)) && (f->help = strdup(sp->help));
    for (unsigned i = 0; ok && i < sp->n_labels; i++)
        ok = (f->labels[i] = strdup(sp->labels[i])) != NULL;
    /* A family without labels has its one series from the start. */
    if (!ok || (!f->n_labels && !series_new(f, NULL))) {
        family_free(f);
        return NULL;
    }
    return f;
}

cuzk_status metrics_register(metrics_t *m, metrics_family_t **out, const metrics_spec_t *spec,
                             cuzk_error_t *err)
{
    if (!m || !out || !spec)
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics_register: NULL argument");
    *out = NULL;
    const double *bk = NULL;
    unsigned nb = 0;
    cuzk_status st = spec_check(spec, &bk, &nb, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < m->n_fam; i++) {
        if (strcmp(m->fam[i]->name, spec->name))
            continue;
        if (family_same(m->fam[i], spec, bk, nb))
            *out = m->fam[i];
        pthread_mutex_unlock(&m->mu);
        return *out ? CUZK_OK
                    : cuzk_error_set(err, CUZK_ERR_ARG,
                                     "metrics: %s already registered with another type, labels "
                                     "or buckets",
                                     spec->name);
    }
    metrics_family_t *f = NULL;
    if (m->n_fam == m->cap_fam) {
        size_t nc = m->cap_fam ? 2 * m->cap_fam : 16;
        metrics_family_t **nf = realloc(m->fam, nc * sizeof *nf);
        if (nf) {
            m->fam = nf;
            m->cap_fam = nc;
        }
    }
    if (m->n_fam < m->cap_fam && (f = family_new(spec, bk, nb))) {
        f->m = m;
        m->fam[m->n_fam++] = f;
    }
    pthread_mutex_unlock(&m->mu);
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "metrics: out of memory for %s", spec->name);
    *out = f;
    return CUZK_OK;
}

cuzk_status metrics_series(metrics_family_t *f, metrics_series_t **out, const char *const *values,
                           cuzk_error_t *err)
{
    if (!f || !out || (f->n_labels && !values))
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics_series: NULL argument");
    *out = NULL;
    for (unsigned i = 0; i < f->n_labels; i++)
        if (!values[i] || !utf8_ok(values[i]))
            return cuzk_error_set(err, CUZK_ERR_ARG, "metrics: %s: label %s needs a UTF-8 value",
                                  f->name, f->labels[i]);
    metrics_t *m = f->m;
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < f->n_series && !*out; i++) {
        unsigned k = 0;
        while (k < f->n_labels && !strcmp(f->series[i]->values[k], values[k]))
            k++;
        if (k == f->n_labels)
            *out = f->series[i];
    }
    if (!*out) {
        if (f->n_series >= METRICS_SERIES_MAX)
            st = cuzk_error_set(err, CUZK_ERR_CAPACITY, "metrics: %s: more than %d series", f->name,
                                METRICS_SERIES_MAX);
        else if (!(*out = series_new(f, values)))
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "metrics: out of memory for %s", f->name);
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

/* ---- updates ---- */

void metrics_add(metrics_series_t *s, double v)
{
    if (!s || s->f->type == METRICS_HISTOGRAM)
        return;
    if (s->f->type == METRICS_COUNTER && !(v >= 0))
        return;
    pthread_mutex_lock(&s->f->m->mu);
    s->value += v;
    pthread_mutex_unlock(&s->f->m->mu);
}

void metrics_set(metrics_series_t *s, double v)
{
    if (!s || s->f->type == METRICS_HISTOGRAM)
        return;
    pthread_mutex_lock(&s->f->m->mu);
    s->value = v;
    pthread_mutex_unlock(&s->f->m->mu);
}

void metrics_observe(metrics_series_t *s, double v)
{
    if (!s || s->f->type != METRICS_HISTOGRAM)
        return;
    const metrics_family_t *f = s->f;
    unsigned b = 0;
    while (b < f->n_buckets && !(v <= f->buckets[b]))
        b++; /* NaN passes every bound: +Inf, as the reference clients do */
    pthread_mutex_lock(&f->m->mu);
    s->counts[b]++;
    s->count++;
    s->value += v;
    pthread_mutex_unlock(&f->m->mu);
}

double metrics_value(const metrics_series_t *s)
{
    if (!s)
        return 0;
    pthread_mutex_lock(&s->f->m->mu);
    double v = s->value;
    pthread_mutex_unlock(&s->f->m->mu);
    return v;
}

uint64_t metrics_count(const metrics_series_t *s)
{
    if (!s)
        return 0;
    pthread_mutex_lock(&s->f->m->mu);
    uint64_t c = s->count;
    pthread_mutex_unlock(&s->f->m->mu);
    return c;
}

/* ---- rendering ---- */

/* Escapes backslash and newline, and the double quote when quoted (label
 * values; help text leaves quotes alone). */
static void sb_escaped(strbuf_t *b, const char *s, int quoted)
{
    for (; *s; s++) {
        if (*s == '\\')
            STRBUF_LIT(b, "\\\\");
        else if (*s == '\n')
            STRBUF_LIT(b, "\\n");
        else if (quoted && *s == '"')
            STRBUF_LIT(b, "\\\"");
        else
            strbuf_put(b, s, 1);
    }
}

/* The shortest of %.15g .. %.17g that reads back as v: "0.1" rather than
 * "0.10000000000000001", and exact in every case. */
static void fmt_double(char *buf, size_t cap, double v)
{
    if (isnan(v)) {
        snprintf(buf, cap, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, cap, v > 0 ? "+Inf" : "-Inf");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static void sb_double(strbuf_t *b, double v)
{
    char buf[40];
    fmt_double(buf, sizeof buf, v);
    strbuf_str(b, buf);
}

/* name{l1="v1",...[,le="x"]} value\n; le NULL: no le label. */
static void sb_sample(strbuf_t *b, const metrics_family_t *f, const metrics_series_t *s,
                      const char *suffix, const char *le, double v)
{
    strbuf_str(b, f->name);
    strbuf_str(b, suffix);
    if (f->n_labels || le) {
        STRBUF_LIT(b, "{");
        for (unsigned i = 0; i < f->n_labels; i++) {
            if (i)
                STRBUF_LIT(b, ",");
            strbuf_str(b, f->labels[i]);
            STRBUF_LIT(b, "=\"");
            sb_escaped(b, s->values[i], 1);
            STRBUF_LIT(b, "\"");
        }
        if (le) {
            strbuf_str(b, f->n_labels ? ",le=\"" : "le=\"");
            strbuf_str(b, le);
            STRBUF_LIT(b, "\"");
        }
        STRBUF_LIT(b, "}");
    }
    STRBUF_LIT(b, " ");
    sb_double(b, v);
    STRBUF_LIT(b, "\n");
}

static void render_series(strbuf_t *b, const metrics_family_t *f, const metrics_series_t *s)
{
    if (f->type != METRICS_HISTOGRAM) {
        sb_sample(b, f, s, "", NULL, s->value);
        return;
    }
    uint64_t cum = 0;
    char le[40];
    for (unsigned i = 0; i <= f->n_buckets; i++) {
        cum += s->counts[i];
        if (i < f->n_buckets)
            fmt_double(le, sizeof le, f->buckets[i]);
        else
            snprintf(le, sizeof le, "+Inf");
        sb_sample(b, f, s, "_bucket", le, (double)cum);
    }
    sb_sample(b, f, s, "_sum", NULL, s->value);
    sb_sample(b, f, s, "_count", NULL, (double)s->count);
}

static int cmp_family(const void *a, const void *b)
{
    return strcmp((*(metrics_family_t *const *)a)->name, (*(metrics_family_t *const *)b)->name);
}

static int cmp_series(const void *a, const void *b)
{
    const metrics_series_t *x = *(metrics_series_t *const *)a, *y = *(metrics_series_t *const *)b;
    for (unsigned i = 0; i < x->f->n_labels; i++) {
        int c = strcmp(x->values[i], y->values[i]);
        if (c)
            return c;
    }
    return 0;
}

static void render_family(strbuf_t *b, metrics_family_t *f)
{
    static const char *const type_names[] = {"counter", "gauge", "histogram"};
    strbuf_str(b, "# HELP ");
    strbuf_str(b, f->name);
    STRBUF_LIT(b, " ");
    sb_escaped(b, f->help, 0);
    strbuf_str(b, "\n# TYPE ");
    strbuf_str(b, f->name);
    STRBUF_LIT(b, " ");
    strbuf_str(b, type_names[f->type]);
    STRBUF_LIT(b, "\n");
    /* Sorting in place keeps handles valid (they point at the series, not
     * at their slots). */
    if (f->n_series > 1)
        qsort(f->series, f->n_series, sizeof *f->series, cmp_series);
    for (size_t i = 0; i < f->n_series; i++)
        render_series(b, f, f->series[i]);
}

cuzk_status metrics_render(metrics_t *m, char **text, size_t *len, cuzk_error_t *err)
{
    if (!m || !text || !len)
        return cuzk_error_set(err, CUZK_ERR_ARG, "metrics_render: NULL argument");
    *text = NULL;
    *len = 0;
    strbuf_t b = {0};
    strbuf_put(&b, "", 0);
    pthread_mutex_lock(&m->mu);
    if (m->n_fam > 1)
        qsort(m->fam, m->n_fam, sizeof *m->fam, cmp_family);
    for (size_t i = 0; i < m->n_fam; i++)
        render_family(&b, m->fam[i]);
    pthread_mutex_unlock(&m->mu);
    if (b.nomem) {
        free(b.p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "metrics: out of memory rendering");
    }
    *text = b.p;
    *len = b.len;
    return CUZK_OK;
}
