/* Metrics registry tests (include/cuzk/metrics.h).
 *
 * The exact exposition text of a small registry (sorting, HELP escaping,
 * a cumulative histogram with observations on its bounds, a series with no
 * observations, a family without labels); label value escaping; every
 * default bucket bound hit exactly and just past; number formatting
 * (shortest exact form, NaN, infinities); the contract checks; the series
 * cap; and 4 threads x 100k updates giving exact totals while a fifth
 * thread renders. */
#include "test_util.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/metrics.h"

static metrics_family_t *reg(metrics_t *m, metrics_type type, const char *name, const char *help,
                             const char *const *labels, unsigned n_labels, const double *bk,
                             unsigned n_bk)
{
    metrics_spec_t sp = {type, name, help, labels, n_labels, bk, n_bk};
    metrics_family_t *f = NULL;
    cuzk_error_t err = {0};
    if (metrics_register(m, &f, &sp, &err) != CUZK_OK)
        fail_msg("register %s: %s", name, err.msg);
    return f;
}

static metrics_series_t *ser(metrics_family_t *f, const char *const *values)
{
    metrics_series_t *s = NULL;
    cuzk_error_t err = {0};
    if (metrics_series(f, &s, values, &err) != CUZK_OK)
        fail_msg("series: %s", err.msg);
    return s;
}

static char *render(metrics_t *m)
{
    char *t = NULL;
    size_t len = 0;
    cuzk_error_t err = {0};
    assert_int_equal(metrics_render(m, &t, &len, &err), CUZK_OK);
    assert_non_null(t);
    assert_int_equal(len, strlen(t));
    return t;
}

static void test_exact_text(void **state)
{
    (void)state;
    metrics_t *m = NULL;
    assert_int_equal(metrics_new(&m, NULL), CUZK_OK);
    /* Registered out of order: the text is sorted. */
    metrics_family_t *up =
        reg(m, METRICS_GAUGE, "cuzk_up", "1 while the daemon runs.", NULL, 0, NULL, 0);
    static const char *const st_l[] = {"stage"};
    static const double bk[] = {0.25, 1, 10};
    metrics_family_t *stage =
        reg(m, METRICS_HISTOGRAM, "cuzk_stage_seconds", "Stage run time.", st_l, 1, bk, 3);
    static const char *const pr_l[] = {"kind", "status"};
    metrics_family_t *proofs = reg(m, METRICS_COUNTER, "cuzk_proofs_total",
                                   "Proofs finished, by kind and status.", pr_l, 2, NULL, 0);
    static const char *const q_l[] = {"priority"};
    metrics_family_t *queue = reg(m, METRICS_GAUGE, "cuzk_queue_depth",
                                  "Partitions waiting \\ queued\nby priority.", q_l, 1, NULL, 0);
    reg(m, METRICS_COUNTER, "cuzk_empty_total", "No series yet.", pr_l, 2, NULL, 0);

    metrics_set(ser(up, NULL), 1);
    metrics_add(ser(proofs, (const char *const[]){"snarkjs", "done"}), 3);
    metrics_add(ser(proofs, (const char *const[]){"bellperson", "failed"}), 1);
    metrics_series_t *bd = ser(proofs, (const char *const[]){"bellperson", "done"});
    metrics_add(bd, 1);
    metrics_add(bd, 1);
    metrics_add(bd, -5); /* a counter never goes down */
    metrics_add(bd, NAN);
    metrics_set(ser(queue, (const char *const[]){"low"}), -0.5);
    metrics_set(ser(queue, (const char *const[]){"high"}), 2);
    ser(stage, (const char *const[]){"witness"}); /* no observations */
    metrics_series_t *pv = ser(stage, (const char *const[]){"prove"});
    const double obs[] = {0.125, 0.25, 0.5, 10, 11}; /* two exactly on bounds */
    for (size_t i = 0; i < 5; i++)
        metrics_observe(pv, obs[i]);
    metrics_observe(ser(up, NULL), 3); /* not a histogram: ignored */
    metrics_add(pv, 3);                /* a histogram: ignored */

    static const char want[] =
        "# HELP cuzk_empty_total No series yet.\n"
        "# TYPE cuzk_empty_total counter\n"
        "# HELP cuzk_proofs_total Proofs finished, by kind and status.\n"
        "# TYPE cuzk_proofs_total counter\n"
        "cuzk_proofs_total{kind=\"bellperson\",status=\"done\"} 2\n"
        "cuzk_proofs_total{kind=\"bellperson\",status=\"failed\"} 1\n"
        "cuzk_proofs_total{kind=\"snarkjs\",status=\"done\"} 3\n"
        "# HELP cuzk_queue_depth Partitions waiting \\\\ queued\\nby priority.\n"
        "# TYPE cuzk_queue_depth gauge\n"
        "cuzk_queue_depth{priority=\"high\"} 2\n"
        "cuzk_queue_depth{priority=\"low\"} -0.5\n"
        "# HELP cuzk_stage_seconds Stage run time.\n"
        "# TYPE cuzk_stage_seconds histogram\n"
        "cuzk_stage_seconds_bucket{stage=\"prove\",le=\"0.25\"} 2\n"
        "cuzk_stage_seconds_bucket{stage=\"prove\",le=\"1\"} 3\n"
        "cuzk_stage_seconds_bucket{stage=\"prove\",le=\"10\"} 4\n"
        "cuzk_stage_seconds_bucket{stage=\"prove\",le=\"+Inf\"} 5\n"
        "cuzk_stage_seconds_sum{stage=\"prove\"} 21.875\n"
        "cuzk_stage_seconds_count{stage=\"prove\"} 5\n"
        "cuzk_stage_seconds_bucket{stage=\"witness\",le=\"0.25\"} 0\n"
        "cuzk_stage_seconds_bucket{stage=\"witness\",le=\"1\"} 0\n"
        "cuzk_stage_seconds_bucket{stage=\"witness\",le=\"10\"} 0\n"
        "cuzk_stage_seconds_bucket{stage=\"witness\",le=\"+Inf\"} 0\n"
        "cuzk_stage_seconds_sum{stage=\"witness\"} 0\n"
        "cuzk_stage_seconds_count{stage=\"witness\"} 0\n"
        "# HELP cuzk_up 1 while the daemon runs.\n"
        "# TYPE cuzk_up gauge\n"
        "cuzk_up 1\n";
    char *t = render(m);
    if (strcmp(t, want))
        fail_msg("got:\n%s\nwanted:\n%s", t, want);
    free(t);
    assert_true(metrics_value(bd) == 2);
    assert_true(metrics_value(pv) == 21.875);
    assert_int_equal(metrics_count(pv), 5);
    assert_int_equal(metrics_count(bd), 0);
    metrics_free(m);
}

static void test_label_escaping(void **state)
{
    (void)state;
    metrics_t *m = NULL;
    assert_int_equal(metrics_new(&m, NULL), CUZK_OK);
    static const char *const l[] = {"circuit", "b"};
    metrics_family_t *f = reg(m, METRICS_GAUGE, "cuzk_key_load_bytes", "h", l, 2, NULL, 0);
    metrics_set(ser(f, (const char *const[]){"a\"b\\c\nd", "caf\xc3\xa9 {x=1}"}), 1e21);
    metrics_set(ser(f, (const char *const[]){"", ""}), 0.1);
    char *t = render(m);
    static const char want[] = "# HELP cuzk_key_load_bytes h\n"
                               "# TYPE cuzk_key_load_bytes gauge\n"
                               "cuzk_key_load_bytes{circuit=\"\",b=\"\"} 0.1\n"
                               "cuzk_key_load_bytes{circuit=\"a\\\"b\\\\c\\nd\",b=\"caf\xc3\xa9 "
                               "{x=1}\"} 1e+21\n";
    if (strcmp(t, want))
        fail_msg("got:\n%s\nwanted:\n%s", t, want);
    free(t);
    metrics_free(m);
}

static void test_number_format(void **state)
{
    (void)state;
    metrics_t *m = NULL;
    assert_int_equal(metrics_new(&m, NULL), CUZK_OK);
    static const char *const l[] = {"i"};
    metrics_family_t *f = reg(m, METRICS_GAUGE, "g", "h", l, 1, NULL, 0);
    static const struct {
        double v;
        const char *text;
    } cases[] = {
        {0, "0"},
        {1.0 / 3, "0.3333333333333333"},
        {9007199254740993.0, "9007199254740992"},
        {123456789012345678.0, "1.2345678901234568e+17"},
        {-2.5e-7, "-2.5e-07"},
        {INFINITY, "+Inf"},
        {-INFINITY, "-Inf"},
        {NAN, "NaN"},
        {1e301, "1e+301"},
    };
    char label[8];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(label, sizeof label, "%zu", i);
        metrics_set(ser(f, (const char *const[]){label}), cases[i].v);
    }
    char *t = render(m);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[96];
        snprintf(line, sizeof line, "g{i=\"%zu\"} %s\n", i, cases[i].text);
        if (!strstr(t, line))
            fail_msg("missing '%s' in:\n%s", line, t);
    }
    free(t);
    metrics_free(m);
}

static void test_bucket_bounds(void **state)
{
    (void)state;
    metrics_t *m = NULL;
    assert_int_equal(metrics_new(&m, NULL), CUZK_OK);
    metrics_family_t *f = reg(m, METRICS_HISTOGRAM, "h_seconds", "h", NULL, 0, NULL, 0);
    metrics_series_t *s = ser(f, NULL);
    /* Each default bound once exactly (its own bucket), and once a hair
     * above (the next bucket up). */
    for (int i = 0; i < METRICS_SECONDS_BUCKETS_N; i++) {
        metrics_observe(s, metrics_seconds_buckets[i]);
        metrics_observe(s, metrics_seconds_buckets[i] * (1 + 1e-12));
    }
    metrics_observe(s, -1); /* below every bound: the first bucket */
    char *t = render(m);
    for (int i = 0; i < METRICS_SECONDS_BUCKETS_N; i++) {
        /* bucket i holds bound i, "just above bound i-1", and (i == 0) -1 */
        char le[32], line[96];
        snprintf(le, sizeof le, "%.15g", metrics_seconds_buckets[i]);
        snprintf(line, sizeof line, "h_seconds_bucket{le=\"%s\"} %d\n", le, 2 * i + 2);
        if (!strstr(t, line))
            fail_msg("missing '%s' in:\n%s", line, t);
    }
    char line[96];
    snprintf(line, sizeof line, "h_seconds_bucket{le=\"+Inf\"} %d\n",
             2 * METRICS_SECONDS_BUCKETS_N + 1);
    assert_non_null(strstr(t, line));
    snprintf(line, sizeof line, "h_seconds_count %d\n", 2 * METRICS_SECONDS_BUCKETS_N + 1);
    assert_non_null(strstr(t, line));
    assert_non_null(strstr(t, "h_seconds_bucket{le=\"0.01\"}"));
    assert_non_null(strstr(t, "h_seconds_bucket{le=\"600\"}"));
    free(t);
    metrics_free(m);
}

static void test_contract(void **state)
{
    (void)state;
    metrics_t *m = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(metrics_new(&m, &err), CUZK_OK);
    static const char *const ok_l[] = {"device"};
    static const char *const le_l[] = {"le"};
    static const char *const dup_l[] = {"a", "a"};
    static const char *const under_l[] = {"__x"};
    static const char *const bad_l[] = {"1x"};
    static const char *const five_l[] = {"a", "b", "c", "d", "e"};
    static const double dec_bk[] = {1, 1};
    static const double nan_bk[] = {1, NAN};
    static const struct {
        metrics_spec_t sp;
        const char *msg;
    } bad[] = {
        {{METRICS_GAUGE, "9bad", "h", NULL, 0, NULL, 0}, "bad metric name"},
        {{METRICS_GAUGE, "a-b", "h", NULL, 0, NULL, 0}, "bad metric name"},
        {{METRICS_GAUGE, "", "h", NULL, 0, NULL, 0}, "bad metric name"},
        {{METRICS_GAUGE, NULL, "h", NULL, 0, NULL, 0}, "bad metric name"},
        {{METRICS_GAUGE, "g", NULL, NULL, 0, NULL, 0}, "help"},
        {{METRICS_GAUGE, "g", "\xff", NULL, 0, NULL, 0}, "help"},
        {{(metrics_type)7, "g", "h", NULL, 0, NULL, 0}, "bad type"},
        {{METRICS_HISTOGRAM, "g", "h", le_l, 1, NULL, 0}, "bad label name 'le'"},
        {{METRICS_GAUGE, "g", "h", dup_l, 2, NULL, 0}, "label 'a' twice"},
        {{METRICS_GAUGE, "g", "h", under_l, 1, NULL, 0}, "bad label name"},
        {{METRICS_GAUGE, "g", "h", bad_l, 1, NULL, 0}, "bad label name"},
        {{METRICS_GAUGE, "g", "h", five_l, 5, NULL, 0}, "at most 4 labels"},
        {{METRICS_HISTOGRAM, "g", "h", NULL, 0, dec_bk, 2}, "increasing"},
        {{METRICS_HISTOGRAM, "g", "h", NULL, 0, nan_bk, 2}, "increasing"},
        {{METRICS_HISTOGRAM, "g", "h", NULL, 0, dec_bk, 0}, "buckets"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        metrics_family_t *f = (metrics_family_t *)&err;
        err.msg[0] = '\0';
        if (metrics_register(m, &f, &bad[i].sp, &err) != CUZK_ERR_ARG ||
            !strstr(err.msg, bad[i].msg) || f)
            fail_msg("case %zu: '%s', wanted '%s'", i, err.msg, bad[i].msg);
    }
    /* "le" is fine outside histograms; a colon is fine in metric names. */
    reg(m, METRICS_GAUGE, "a:b_c", "h", le_l, 1, NULL, 0);
    /* Same spec again: the same family; another spec: refused. */
    metrics_family_t *f1 = reg(m, METRICS_GAUGE, "cuzk_vram_total_bytes", "h", ok_l, 1, NULL, 0);
    metrics_family_t *f2 =
        reg(m, METRICS_GAUGE, "cuzk_vram_total_bytes", "other help", ok_l, 1, NULL, 0);
    assert_ptr_equal(f1, f2);
    metrics_spec_t other = {METRICS_COUNTER, "cuzk_vram_total_bytes", "h", ok_l, 1, NULL, 0};
    metrics_family_t *f3;
    assert_int_equal(metrics_register(m, &f3, &other, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "already registered"));
    /* Series: the same values give the same handle; bad values refused. */
    metrics_series_t *s1 = ser(f1, (const char *const[]){"0"});
    assert_ptr_equal(s1, ser(f1, (const char *const[]){"0"}));
    assert_ptr_not_equal(s1, ser(f1, (const char *const[]){"1"}));
    metrics_series_t *s;
    assert_int_equal(metrics_series(f1, &s, (const char *const[]){NULL}, &err), CUZK_ERR_ARG);
    assert_int_equal(metrics_series(f1, &s, (const char *const[]){"\xc3"}, &err), CUZK_ERR_ARG);
    assert_int_equal(metrics_series(f1, &s, NULL, &err), CUZK_ERR_ARG);
    /* The cardinality cap. */
    for (int i = 2; i < METRICS_SERIES_MAX; i++) {
        char v[16];
        snprintf(v, sizeof v, "%d", i);
        ser(f1, (const char *const[]){v});
    }
    assert_int_equal(metrics_series(f1, &s, (const char *const[]){"one more"}, &err),
                     CUZK_ERR_CAPACITY);
    assert_ptr_equal(ser(f1, (const char *const[]){"7"}), ser(f1, (const char *const[]){"7"}));
    /* NULL handles do nothing. */
    metrics_add(NULL, 1);
    metrics_set(NULL, 1);
    metrics_observe(NULL, 1);
    assert_true(metrics_value(NULL) == 0);
    metrics_free(m);
    metrics_free(NULL);
    /* An empty registry renders as nothing. */
    assert_int_equal(metrics_new(&m, &err), CUZK_OK);
    char *t = render(m);
    assert_string_equal(t, "");
    free(t);
    assert_int_equal(metrics_render(m, NULL, NULL, &err), CUZK_ERR_ARG);
    metrics_free(m);
}

enum { THREADS = 4, INCS = 100000 };

typedef struct conc {
    metrics_family_t *counter, *hist;
    metrics_series_t *gauge;
    int id;
} conc_t;

static void *inc_thread(void *p)
{
    conc_t *c = p;
    metrics_series_t *mine = NULL, *shared = NULL, *h = NULL;
    char v[8];
    snprintf(v, sizeof v, "t%d", c->id);
    /* The shared series is looked up by every thread at once. */
    if (metrics_series(c->counter, &shared, (const char *const[]){"shared"}, NULL) ||
        metrics_series(c->counter, &mine, (const char *const[]){v}, NULL) ||
        metrics_series(c->hist, &h, NULL, NULL))
        return (void *)1;
    for (int i = 0; i < INCS; i++) {
        metrics_add(shared, 1);
        metrics_add(mine, 0.5);
        metrics_add(c->gauge, i % 2 ? 1 : -1);
        metrics_observe(h, (double)(i % 4)); /* 0, 1, 2, 3 seconds */
    }
    return NULL;
}

typedef struct renderer {
    metrics_t *m;
    atomic_int stop;
    int renders;
} renderer_t;

static void *render_thread(void *p)
{
    renderer_t *r = p;
    while (!atomic_load(&r->stop)) {
        char *t = NULL;
        size_t len;
        if (metrics_render(r->m, &t, &len, NULL) != CUZK_OK)
            return (void *)1;
        free(t);
        r->renders++;
    }
    return NULL;
}

static void test_concurrency(void **state)
{
    (void)state;
    metrics_t *m = NULL;
    assert_int_equal(metrics_new(&m, NULL), CUZK_OK);
    static const char *const l[] = {"who"};
    conc_t c[THREADS];
    metrics_family_t *counter = reg(m, METRICS_COUNTER, "c_total", "h", l, 1, NULL, 0);
    metrics_family_t *hist = reg(m, METRICS_HISTOGRAM, "h_seconds", "h", NULL, 0, NULL, 0);
    metrics_series_t *gauge = ser(reg(m, METRICS_GAUGE, "g", "h", NULL, 0, NULL, 0), NULL);
    renderer_t rd = {m, 0, 0};
    pthread_t t[THREADS], rt;
    assert_int_equal(pthread_create(&rt, NULL, render_thread, &rd), 0);
    for (int i = 0; i < THREADS; i++) {
        c[i] = (conc_t){counter, hist, gauge, i};
        assert_int_equal(pthread_create(&t[i], NULL, inc_thread, &c[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        void *rv;
        pthread_join(t[i], &rv);
        assert_null(rv);
    }
    atomic_store(&rd.stop, 1);
    void *rv;
    pthread_join(rt, &rv);
    assert_null(rv);
    assert_true(metrics_value(ser(counter, (const char *const[]){"shared"})) ==
                (double)THREADS * INCS);
    for (int i = 0; i < THREADS; i++) {
        char v[8];
        snprintf(v, sizeof v, "t%d", i);
        assert_true(metrics_value(ser(counter, (const char *const[]){v})) == 0.5 * INCS);
    }
    assert_true(metrics_value(gauge) == 0);
    metrics_series_t *h = ser(hist, NULL);
    assert_int_equal(metrics_count(h), (uint64_t)THREADS * INCS);
    assert_true(metrics_value(h) == (double)THREADS * INCS / 4 * (0 + 1 + 2 + 3));
    char *text = render(m);
    char line[96];
    snprintf(line, sizeof line, "c_total{who=\"shared\"} %d\n", THREADS * INCS);
    assert_non_null(strstr(text, line));
    /* 0 s lands in le=0.01; 1 s in le=1 (cumulative: half of all); all by 5. */
    snprintf(line, sizeof line, "h_seconds_bucket{le=\"0.01\"} %d\n", THREADS * INCS / 4);
    assert_non_null(strstr(text, line));
    snprintf(line, sizeof line, "h_seconds_bucket{le=\"1\"} %d\n", THREADS * INCS / 2);
    assert_non_null(strstr(text, line));
    snprintf(line, sizeof line, "h_seconds_bucket{le=\"5\"} %d\n", THREADS * INCS);
    assert_non_null(strstr(text, line));
    free(text);
    print_message("concurrency: %d renders during the updates\n", rd.renders);
    metrics_free(m);
}

int main(void)
{
    tu_init("test_metrics");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_text),    cmocka_unit_test(test_label_escaping),
        cmocka_unit_test(test_number_format), cmocka_unit_test(test_bucket_bounds),
        cmocka_unit_test(test_contract),      cmocka_unit_test(test_concurrency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
