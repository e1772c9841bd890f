/* Timeline tests (include/cuzk/timeline.h).
 *
 * Sub-lane assignment on hand-made overlaps (nested sub-stages, the witness
 * pool, touching intervals, zero-length ones, a window), then on random
 * logs: no two intervals of one lane overlap and the lane count equals the
 * most intervals overlapping at one instant (first fit by start is optimal
 * for intervals). Busy fractions on a known log and against a slow
 * reference (coordinate compression) on random logs and windows. The SVG
 * for hostile stage names is checked by a small XML well-formedness checker
 * below (and by xmllint when it is installed), as are an empty log and the
 * option checks. Last, end to end: a real engine (a simulated device, two
 * workers) proves a 3-partition PoRep-shaped job with eventlog_engine_hook
 * as its on_event hook; the log file read back holds every stage of every
 * partition, and its timeline is well-formed with both devices busy.
 * Rerun with CUZK_TEST_SEED=<seed>; CUZK_TEST_ITERS scales the random
 * rounds. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_device.h"
#include "cuzk/gen.h"
#include "cuzk/setup.h"
#include "cuzk/timeline.h"

#define S 1000000000ull /* ns */
#define T0 (1000 * S)   /* the logs do not start at 0 */

/* libm is not linked into the tests. */
static uint64_t ns_of(double s)
{
    return (uint64_t)(s * 1e9 + 0.5);
}

static double dabs(double x)
{
    return x < 0 ? -x : x;
}

static eventlog_rec_t rec(int device, const char *stage, double start_s, double end_s)
{
    eventlog_rec_t r;
    memset(&r, 0, sizeof r);
    r.job = 1;
    r.device = device;
    r.worker = -1;
    r.start_ns = T0 + ns_of(start_s);
    r.end_ns = T0 + ns_of(end_s);
    snprintf(r.stage, sizeof r.stage, "%s", stage);
    return r;
}

/* ---- a small XML 1.0 well-formedness checker ---- */

typedef struct xml {
    const char *p, *end;
    const char *stack[64];
    size_t depth_names[64];
    int depth;
    const char *why;
} xml_t;

static int xml_fail(xml_t *x, const char *why)
{
    x->why = why;
    return 0;
}

static int name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static int name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static size_t xml_name(xml_t *x)
{
    const char *s = x->p;
    if (x->p >= x->end || !name_start(*x->p))
        return 0;
    while (x->p < x->end && name_char(*x->p))
        x->p++;
    return (size_t)(x->p - s);
}

static void xml_ws(xml_t *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r'))
        x->p++;
}

/* An entity or character reference at '&'. */
static int xml_ref(xml_t *x)
{
    static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++) {
        size_t n = strlen(ents[i]);
        if ((size_t)(x->end - x->p) >= n && !memcmp(x->p, ents[i], n)) {
            x->p += n;
            return 1;
        }
    }
    if (x->end - x->p < 4 || x->p[1] != '#')
        return xml_fail(x, "bad reference");
    x->p += 2;
    int hex = *x->p == 'x';
    if (hex)
        x->p++;
    long v = 0;
    const char *s = x->p;
    for (; x->p < x->end && *x->p != ';'; x->p++) {
        char c = *x->p;
        int d = c >= '0' && c <= '9'          ? c - '0'
                : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                              : -1;
        if (d < 0 || v > 0x10ffff)
            return xml_fail(x, "bad character reference");
        v = v * (hex ? 16 : 10) + d;
    }
    if (x->p == s || x->p >= x->end)
        return xml_fail(x, "bad character reference");
    x->p++;
    if (!(v == 9 || v == 10 || v == 13 || (v >= 0x20 && v <= 0xd7ff) ||
          (v >= 0xe000 && v <= 0xfffd) || (v >= 0x10000 && v <= 0x10ffff)))
        return xml_fail(x, "reference to a character XML forbids");
    return 1;
}

static int xml_tag(xml_t *x)
{
    x->p++; /* '<' */
    if (x->p < x->end && *x->p == '/') {
        x->p++;
        const char *s = x->p;
        size_t n = xml_name(x);
        if (!n || !x->depth)
            return xml_fail(x, "bad end tag");
        x->depth--;
        if (n != x->depth_names[x->depth] || memcmp(s, x->stack[x->depth], n))
            return xml_fail(x, "end tag does not match");
        xml_ws(x);
        if (x->p >= x->end || *x->p != '>')
            return xml_fail(x, "end tag not closed");
        x->p++;
        return 1;
    }
    const char *s = x->p;
    size_t n = xml_name(x);
    if (!n)
        return xml_fail(x, "bad element name");
    const char *attrs[32];
    size_t attr_len[32], n_attrs = 0;
    for (;;) {
        int had_ws = x->p < x->end && (*x->p == ' ' || *x->p == '\n' || *x->p == '\t');
        xml_ws(x);
        if (x->p >= x->end)
            return xml_fail(x, "unterminated tag");
        if (*x->p == '>' || *x->p == '/')
            break;
        const char *an = x->p;
        size_t al = xml_name(x);
        if (!al || !had_ws)
            return xml_fail(x, "bad attribute");
        for (size_t i = 0; i < n_attrs; i++)
            if (attr_len[i] == al && !memcmp(attrs[i], an, al))
                return xml_fail(x, "attribute twice");
        if (n_attrs == 32)
            return xml_fail(x, "too many attributes");
        attrs[n_attrs] = an;
        attr_len[n_attrs++] = al;
        xml_ws(x);
        if (x->p >= x->end || *x->p != '=')
            return xml_fail(x, "attribute without '='");
        x->p++;
        xml_ws(x);
        if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
            return xml_fail(x, "attribute value not quoted");
        char q = *x->p++;
        while (x->p < x->end && *x->p != q) {
            if (*x->p == '<')
                return xml_fail(x, "'<' in an attribute value");
            if (*x->p == '&') {
                if (!xml_ref(x))
                    return 0;
            } else {
                x->p++;
            }
        }
        if (x->p >= x->end)
            return xml_fail(x, "unterminated attribute value");
        x->p++;
    }
    if (*x->p == '/') {
        x->p++;
        if (x->p >= x->end || *x->p != '>')
            return xml_fail(x, "bad empty-element tag");
        x->p++;
        return 1;
    }
    x->p++;
    if (x->depth == 64)
        return xml_fail(x, "too deep");
    x->stack[x->depth] = s;
    x->depth_names[x->depth++] = n;
    return 1;
}

/* Returns NULL when doc is well-formed, else why not. */
static const char *xml_check(const char *doc, size_t len)
{
    xml_t x = {doc, doc + len, {0}, {0}, 0, NULL};
    /* Every byte valid UTF-8 of an XML Char. */
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)doc[i];
        if (c < 0x20 && c != 9 && c != 10 && c != 13)
            return "control character";
        size_t k = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        if (c >= 0x80 && (c < 0xc2 || c > 0xf4 || i + k > len))
            return "bad UTF-8";
        for (size_t j = 1; j < k; j++)
            if (((unsigned char)doc[i + j] & 0xc0) != 0x80)
                return "bad UTF-8";
        i += k;
    }
    if (len >= 5 && !memcmp(doc, "<?xml", 5)) {
        const char *e = strstr(doc, "?>");
        if (!e)
            return "unterminated declaration";
        x.p = e + 2;
    }
    int roots = 0;
    while (x.p < x.end) {
        if (*x.p == '<') {
            if (x.end - x.p >= 4 && !memcmp(x.p, "<!--", 4)) {
                const char *e = strstr(x.p + 4, "-->");
                if (!e)
                    return "unterminated comment";
                x.p = e + 3;
                continue;
            }
            int at_top = x.depth == 0 && x.p[1] != '/';
            if (at_top && roots++)
                return "more than one root element";
            if (!xml_tag(&x))
                return x.why;
        } else if (*x.p == '&') {
            if (!x.depth)
                return "reference outside the root";
            if (!xml_ref(&x))
                return x.why;
        } else {
            if (!x.depth && !strchr(" \t\r\n", *x.p))
                return "text outside the root";
            if (*x.p == '>' && x.p - doc >= 2 && !memcmp(x.p - 2, "]]", 2))
                return "']]>' in text";
            x.p++;
        }
    }
    if (x.depth)
        return "unclosed element";
    return roots == 1 ? NULL : "no root element";
}

static void assert_well_formed(const char *svg, size_t len)
{
    const char *why = xml_check(svg, len);
    if (why)
        fail_msg("SVG not well-formed: %s", why);
    /* A second opinion when xmllint is installed (not required). */
    if (system("command -v xmllint >/dev/null 2>&1") == 0) {
        char path[] = "/tmp/cuzk_timeline_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, svg, len), (ssize_t)len);
        close(fd);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
        int rc = system(cmd);
        unlink(path);
        assert_int_equal(rc, 0);
    }
}

static void test_xml_checker(void **state)
{
    (void)state;
    static const char *const good[] = {
        "<a/>", "<?xml version=\"1.0\"?>\n<a b='1' c=\"&amp;\">x&lt;<d/></a>\n",
        "<a><!-- c --><b>&#65;&#x42;</b></a>"};
    static const char *const bad[] = {"<a>",      "<a></b>",     "<a b=1/>",    "<a>&</a>",
                                      "<a/><b/>", "<a b='<'/>",  "<a>\x01</a>", "<a b='1' b='2'/>",
                                      "x<a/>",    "<a>&#0;</a>", "<a>\xc3</a>"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_null(xml_check(good[i], strlen(good[i])));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!xml_check(bad[i], strlen(bad[i])))
            fail_msg("checker accepted bad document %zu", i);
}

/* ---- lanes ---- */

static void test_lanes_known(void **state)
{
    (void)state;
    eventlog_rec_t r[] = {
        rec(0, "prove", 0, 10),  /* 0: lane 0 */
        rec(0, "prove", 2, 5),   /* 1: lane 1 */
        rec(0, "prove", 5, 8),   /* 2: lane 1 again (touches 1) */
        rec(0, "prove", 10, 12), /* 3: lane 0 again (touches 0) */
        rec(0, "prove", 3, 20),  /* 4: lane 2 */
        rec(-1, "witness", 0, 4), rec(-1, "witness", 1, 3), rec(-1, "witness", 3, 6),
        rec(-1, "witness", 4, 5), /* the pool: lanes 0 1 1 0 */
        rec(1, "msm_a", 0, 2),    /* given before its prove: still above it */
        rec(1, "prove", 0, 10),   rec(1, "msm_b", 2, 2), /* zero length: after the longer msm_l at 2
                                                          */
        rec(1, "msm_l", 2, 4),
    };
    size_t n = sizeof r / sizeof r[0];
    int lane[sizeof r / sizeof r[0]];
    cuzk_error_t err = {0};
    assert_int_equal(timeline_lanes(lane, r, n, NULL, &err), CUZK_OK);
    static const int want[] = {0, 1, 1, 0, 2, 0, 1, 1, 0, 1, 0, 2, 1};
    for (size_t i = 0; i < n; i++)
        if (lane[i] != want[i])
            fail_msg("record %zu: lane %d, wanted %d", i, lane[i], want[i]);
    /* A window: [4 s, 9 s] keeps what overlaps it. */
    timeline_opts_t o;
    timeline_opts_default(&o);
    o.from_s = 4;
    o.to_s = 9;
    assert_int_equal(timeline_lanes(lane, r, n, &o, &err), CUZK_OK);
    static const int want_w[] = {0, 1, 1, -1, 2, -1, -1, 0, 1, -1, 0, -1, -1};
    for (size_t i = 0; i < n; i++)
        if (lane[i] != want_w[i])
            fail_msg("windowed record %zu: lane %d, wanted %d", i, lane[i], want_w[i]);
}

static void rand_log(eventlog_rec_t *r, size_t n, int devices, int zero_len)
{
    static const char *const st[] = {"witness", "admit", "prove", "verify", "msm_a", "h", "odd"};
    for (size_t i = 0; i < n; i++) {
        double a = (double)(tu_rand64() % 1000) / 100, len = (double)(tu_rand64() % 300) / 100;
        if (!zero_len && len == 0)
            len = 0.01;
        int dev = (int)(tu_rand64() % (unsigned)devices) - 1;
        r[i] = rec(dev, st[tu_rand64() % 7], a, a + len);
    }
}

static void test_lanes_random(void **state)
{
    (void)state;
    int iters = tu_iters(200);
    for (int it = 0; it < iters; it++) {
        size_t n = 1 + tu_rand64() % 60;
        eventlog_rec_t r[60];
        int lane[60];
        rand_log(r, n, 3, 0);
        cuzk_error_t err = {0};
        assert_int_equal(timeline_lanes(lane, r, n, NULL, &err), CUZK_OK);
        for (int dev = -1; dev < 2; dev++) {
            int lanes = 0, most = 0;
            for (size_t i = 0; i < n; i++) {
                if (r[i].device != dev)
                    continue;
                assert_true(lane[i] >= 0);
                if (lane[i] + 1 > lanes)
                    lanes = lane[i] + 1;
                int here = 0; /* intervals covering r[i]'s start, half-open */
                for (size_t j = 0; j < n; j++) {
                    if (r[j].device != dev)
                        continue;
                    if (r[j].start_ns <= r[i].start_ns && r[i].start_ns < r[j].end_ns)
                        here++;
                    if (j != i && lane[j] == lane[i] && r[j].start_ns < r[i].end_ns &&
                        r[i].start_ns < r[j].end_ns)
                        fail_msg("round %d: records %zu and %zu overlap in lane %d", it, i, j,
                                 lane[i]);
                }
                if (here > most)
                    most = here;
            }
            assert_int_equal(lanes, most);
        }
    }
}

/* ---- busy ---- */

static const timeline_busy_t *busy_of(const timeline_busy_t *b, size_t n, int device)
{
    for (size_t i = 0; i < n; i++)
        if (b[i].device == device)
            return &b[i];
    fail_msg("no busy entry for device %d", device);
    return NULL;
}

static eventlog_rec_t known[] = {
    {.device = 0, .stage = "admit"},    {.device = 0, .stage = "prove"},
    {.device = 0, .stage = "prove"},    {.device = 0, .stage = "msm_a"},
    {.device = 1, .stage = "prove"},    {.device = -1, .stage = "witness"},
    {.device = -1, .stage = "witness"}, {.device = -1, .stage = "verify"},
    {.device = 3, .stage = "admit"}, /* a device that only waited */
};
static const double known_t[][2] = {{0, 1}, {1, 4},     {2, 6},  {1, 2}, {5, 10},
                                    {0, 1}, {0.5, 1.5}, {9, 10}, {0, 3}};
#define N_KNOWN (sizeof known / sizeof known[0])

static void known_log(void)
{
    for (size_t i = 0; i < N_KNOWN; i++) {
        eventlog_rec_t r = rec(known[i].device, known[i].stage, known_t[i][0], known_t[i][1]);
        known[i] = r;
    }
}

static void test_busy_known(void **state)
{
    (void)state;
    known_log();
    timeline_busy_t *b = NULL;
    size_t nd = 0;
    cuzk_error_t err = {0};
    assert_int_equal(timeline_busy(&b, &nd, known, N_KNOWN, NULL, &err), CUZK_OK);
    assert_int_equal(nd, 4);
    assert_int_equal(b[0].device, -1); /* group order */
    assert_int_equal(b[1].device, 0);
    assert_int_equal(b[3].device, 3);
    assert_true(dabs(busy_of(b, nd, 0)->busy_s - 5) < 1e-12); /* [1,6] */
    assert_true(dabs(busy_of(b, nd, 0)->fraction - 0.5) < 1e-12);
    assert_true(dabs(busy_of(b, nd, 1)->fraction - 0.5) < 1e-12);
    assert_true(dabs(busy_of(b, nd, -1)->busy_s - 2.5) < 1e-12); /* [0,1.5] + [9,10] */
    assert_true(dabs(busy_of(b, nd, -1)->fraction - 0.25) < 1e-12);
    assert_true(busy_of(b, nd, 3)->fraction == 0);
    assert_true(dabs(b[0].window_s - 10) < 1e-12);
    free(b);
    timeline_opts_t o;
    timeline_opts_default(&o);
    o.from_s = 2;
    o.to_s = 8;
    assert_int_equal(timeline_busy(&b, &nd, known, N_KNOWN, &o, &err), CUZK_OK);
    assert_int_equal(nd, 4);
    assert_true(dabs(busy_of(b, nd, 0)->fraction - 4.0 / 6) < 1e-12);
    assert_true(dabs(busy_of(b, nd, 1)->fraction - 3.0 / 6) < 1e-12);
    assert_true(busy_of(b, nd, -1)->fraction == 0);
    free(b);
    /* An empty window and an empty log. */
    o.from_s = o.to_s = 3;
    assert_int_equal(timeline_busy(&b, &nd, known, N_KNOWN, &o, &err), CUZK_OK);
    assert_true(b[1].fraction == 0 && b[1].window_s == 0);
    free(b);
    assert_int_equal(timeline_busy(&b, &nd, NULL, 0, NULL, &err), CUZK_OK);
    assert_int_equal(nd, 0);
    assert_null(b);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Union length by coordinate compression: every elementary segment
 * between sorted endpoints, covered or not. O(n^2), obviously right. */
static uint64_t busy_ref(const eventlog_rec_t *r, size_t n, int dev, uint64_t from, uint64_t to)
{
    uint64_t pts[2 * 64 + 2];
    size_t k = 0;
    pts[k++] = from;
    pts[k++] = to;
    for (size_t i = 0; i < n; i++) {
        if (r[i].device != dev)
            continue;
        pts[k++] = r[i].start_ns < from ? from : r[i].start_ns > to ? to : r[i].start_ns;
        pts[k++] = r[i].end_ns < from ? from : r[i].end_ns > to ? to : r[i].end_ns;
    }
    qsort(pts, k, sizeof *pts, cmp_u64);
    uint64_t sum = 0;
    for (size_t s = 0; s + 1 < k; s++) {
        uint64_t a = pts[s], b = pts[s + 1];
        if (a == b)
            continue;
        for (size_t i = 0; i < n; i++)
            if (r[i].device == dev && strcmp(r[i].stage, "admit") && r[i].start_ns <= a &&
                r[i].end_ns >= b) {
                sum += b - a;
                break;
            }
    }
    return sum;
}

static void test_busy_random(void **state)
{
    (void)state;
    int iters = tu_iters(300);
    for (int it = 0; it < iters; it++) {
        size_t n = 1 + tu_rand64() % 64;
        eventlog_rec_t r[64];
        rand_log(r, n, 4, 1);
        timeline_opts_t o;
        timeline_opts_default(&o);
        if (tu_rand64() % 2) {
            o.from_s = (double)(tu_rand64() % 800) / 100;
            o.to_s = o.from_s + (double)(tu_rand64() % 800) / 100;
        }
        uint64_t t0 = UINT64_MAX, last = 0;
        for (size_t i = 0; i < n; i++) {
            t0 = r[i].start_ns < t0 ? r[i].start_ns : t0;
            last = r[i].end_ns > last ? r[i].end_ns : last;
        }
        uint64_t from = t0 + ns_of(o.from_s);
        uint64_t to = o.to_s < 0 ? last : t0 + ns_of(o.to_s);
        if (to < from)
            to = from;
        timeline_busy_t *b = NULL;
        size_t nd = 0;
        cuzk_error_t err = {0};
        assert_int_equal(timeline_busy(&b, &nd, r, n, &o, &err), CUZK_OK);
        for (size_t d = 0; d < nd; d++) {
            uint64_t want = busy_ref(r, n, b[d].device, from, to);
            if (dabs(b[d].busy_s - (double)want / 1e9) > 1e-9)
                fail_msg("round %d device %d: busy %.9f s, reference %.9f s", it, b[d].device,
                         b[d].busy_s, (double)want / 1e9);
            double f = to > from ? (double)want / (double)(to - from) : 0;
            assert_true(dabs(b[d].fraction - f) < 1e-9);
            assert_true(b[d].fraction >= 0 && b[d].fraction <= 1 + 1e-12);
        }
        free(b);
    }
}

/* ---- the picture ---- */

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_svg(void **state)
{
    (void)state;
    known_log();
    eventlog_rec_t r[N_KNOWN + 3];
    memcpy(r, known, sizeof known);
    r[N_KNOWN] = rec(1, "<b>&\"'x\x01\x7f", 0, 0.5); /* an unknown, hostile name */
    snprintf(r[N_KNOWN].detail, sizeof r[N_KNOWN].detail, "]]> \t\n\xef\xbf\xbe end");
    snprintf(r[N_KNOWN].kind, sizeof r[N_KNOWN].kind, "k&<");
    r[N_KNOWN + 1] = rec(2, "prove", 0.5, 0.75);
    r[N_KNOWN + 1].status = CUZK_ERR_CUDA;         /* failed: outlined */
    r[N_KNOWN + 2] = rec(2, "\xe2\x82\xac", 1, 2); /* non-ASCII */
    size_t n = N_KNOWN + 3;
    char *svg = NULL;
    size_t len = 0;
    cuzk_error_t err = {0};
    assert_int_equal(timeline_render_mem(&svg, &len, r, n, NULL, &err), CUZK_OK);
    assert_int_equal(len, strlen(svg));
    assert_well_formed(svg, len);
    assert_int_equal(count(svg, "<title>"), n);
    /* \x01 is no XML character, \x7f is one */
    assert_non_null(strstr(svg, "&lt;b&gt;&amp;&quot;&#39;x?\x7f"));
    assert_non_null(strstr(svg, "]]&gt; \t\n? end"));
    assert_non_null(strstr(svg, ">cpu<"));
    assert_non_null(strstr(svg, ">gpu 0<"));
    assert_non_null(strstr(svg, ">gpu 3<"));
    assert_non_null(strstr(svg, "busy 50.0%")); /* gpu 0 and gpu 1 */
    assert_non_null(strstr(svg, "busy 25.0%")); /* cpu */
    assert_non_null(strstr(svg, "busy 0.0%"));  /* gpu 3 */
    assert_non_null(strstr(svg, ">prove<"));    /* the legend */
    assert_non_null(strstr(svg, ">other<"));
    assert_null(strstr(svg, ">verify_x<"));
    assert_non_null(strstr(svg, "stroke=\"#000\""));
    assert_non_null(strstr(svg, "failed: CUDA"));     /* cuzk_status_str of the status */
    assert_non_null(strstr(svg, ">10</text>"));       /* a tick at 10 s */
    assert_non_null(strstr(svg, "\xe2\x82\xac"));     /* kept as it is */
    assert_non_null(strstr(svg, "fill=\"#e15759\"")); /* prove's colour */
    assert_non_null(strstr(svg, "fill=\""
                                "#a0a0a0"
                                "\""));
    /* The same through a FILE. */
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(timeline_render(f, r, n, NULL, &err), CUZK_OK);
    assert_int_equal((size_t)ftell(f), len);
    rewind(f);
    char *back = malloc(len + 1);
    assert_int_equal(fread(back, 1, len, f), len);
    assert_memory_equal(back, svg, len);
    free(back);
    fclose(f);
    free(svg);
    /* A marked kind: each of its stages that did not fail outlined, once,
     * and the legend names it; a kind no record has marks nothing. */
    timeline_opts_t mo;
    timeline_opts_default(&mo);
    r[N_KNOWN + 1].status = 0;
    snprintf(r[N_KNOWN + 1].kind, sizeof r[N_KNOWN + 1].kind, "k&<");
    snprintf(r[N_KNOWN + 2].kind, sizeof r[N_KNOWN + 2].kind, "k&<");
    r[N_KNOWN + 2].status = CUZK_ERR_CUDA; /* failed: the black outline wins */
    size_t want = 0;
    for (size_t i = 0; i < n; i++)
        want += !strcmp(r[i].kind, "k&<") && r[i].status == 0;
    assert_int_equal(want, 2);
    mo.mark = "k&<";
    assert_int_equal(timeline_render_mem(&svg, &len, r, n, &mo, &err), CUZK_OK);
    assert_well_formed(svg, len);
    assert_int_equal(count(svg, "stroke=\"" TIMELINE_MARK_COLOUR "\""), want + 1);
    assert_non_null(strstr(svg, ">k&amp;&lt; (outlined)</text>"));
    free(svg);
    mo.mark = "porep";
    assert_int_equal(timeline_render_mem(&svg, &len, r, n, &mo, &err), CUZK_OK);
    assert_null(strstr(svg, TIMELINE_MARK_COLOUR));
    assert_null(strstr(svg, "(outlined)"));
    free(svg);
    r[N_KNOWN + 1].status = CUZK_ERR_CUDA;
    r[N_KNOWN + 1].kind[0] = r[N_KNOWN + 2].kind[0] = 0;
    r[N_KNOWN + 2].status = 0;
    /* Narrow windows keep the ticks sensible and the document valid. */
    timeline_opts_t o;
    timeline_opts_default(&o);
    o.width = TIMELINE_WIDTH_MIN;
    o.from_s = 1.0001;
    o.to_s = 1.0003;
    assert_int_equal(timeline_render_mem(&svg, &len, r, n, &o, &err), CUZK_OK);
    assert_well_formed(svg, len);
    assert_non_null(strstr(svg, ">1.0002</text>"));
    free(svg);
    /* No events at all. */
    assert_int_equal(timeline_render_mem(&svg, &len, NULL, 0, NULL, &err), CUZK_OK);
    assert_well_formed(svg, len);
    assert_non_null(strstr(svg, "no events"));
    free(svg);
}

static void test_svg_random(void **state)
{
    (void)state;
    int iters = tu_iters(40);
    for (int it = 0; it < iters; it++) {
        size_t n = tu_rand64() % 64;
        eventlog_rec_t r[64];
        rand_log(r, n, 5, 1);
        for (size_t i = 0; i < n; i++) /* random bytes in the names, made valid UTF-8 */
            for (size_t c = 0; c + 1 < sizeof r[i].detail && tu_rand64() % 8; c++)
                r[i].detail[c] = (char)(1 + tu_rand64() % 0x7f);
        timeline_opts_t o;
        timeline_opts_default(&o);
        o.width = TIMELINE_WIDTH_MIN + (int)(tu_rand64() % 3000);
        if (tu_rand64() % 2) {
            o.from_s = (double)(tu_rand64() % 1000) / 100;
            o.to_s = o.from_s + (double)(tu_rand64() % 1000) / 1000;
        }
        char *svg = NULL;
        size_t len = 0;
        cuzk_error_t err = {0};
        assert_int_equal(timeline_render_mem(&svg, &len, r, n, &o, &err), CUZK_OK);
        const char *why = xml_check(svg, len);
        if (why)
            fail_msg("round %d: SVG not well-formed: %s", it, why);
        free(svg);
    }
}

static void test_args(void **state)
{
    (void)state;
    known_log();
    timeline_opts_t o;
    timeline_opts_default(&o);
    char *svg;
    size_t len;
    cuzk_error_t err = {0};
    o.width = 10;
    assert_int_equal(timeline_render_mem(&svg, &len, known, N_KNOWN, &o, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "width"));
    timeline_opts_default(&o);
    o.from_s = 5;
    o.to_s = 4;
    assert_int_equal(timeline_render_mem(&svg, &len, known, N_KNOWN, &o, &err), CUZK_ERR_ARG);
    o.from_s = -1;
    o.to_s = -1;
    assert_int_equal(timeline_render_mem(&svg, &len, known, N_KNOWN, &o, &err), CUZK_ERR_ARG);
    o.from_s = NAN;
    assert_int_equal(timeline_render_mem(&svg, &len, known, N_KNOWN, &o, &err), CUZK_ERR_ARG);
    eventlog_rec_t bad = known[0];
    bad.end_ns = bad.start_ns - 1;
    int lane;
    assert_int_equal(timeline_lanes(&lane, &bad, 1, NULL, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "record 0"));
    assert_int_equal(timeline_render_mem(NULL, &len, known, N_KNOWN, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(timeline_render(NULL, known, N_KNOWN, NULL, &err), CUZK_ERR_ARG);
    assert_string_equal(timeline_stage_colour("prove"), "#e15759");
    assert_string_equal(timeline_stage_colour("nope"), "#a0a0a0");
    assert_string_equal(timeline_stage_colour(NULL), "#a0a0a0");
}

/* ---- end to end: engine -> event log -> timeline ---- */

#define E2E_PARTS 3

static void test_engine_end_to_end(void **state)
{
    (void)state;
    gen_shape_t sh;
    circuit_t c;
    groth16_key_t key;
    groth16_pk_t pk;
    memset(&c, 0, sizeof c);
    memset(&key, 0, sizeof key);
    cuzk_error_t err = {0};
    assert_int_equal(gen_porep_shape(&sh, GEN_LOG_DOMAIN_MIN, &err), CUZK_OK);
    assert_int_equal(gen_porep_circuit(&c, &sh, 7, 1, &err), CUZK_OK);
    fr_t *ws = malloc((size_t)E2E_PARTS * sh.n_vars * sizeof *ws);
    assert_non_null(ws);
    engine_witness_t w[E2E_PARTS];
    for (uint32_t p = 0; p < E2E_PARTS; p++) {
        assert_int_equal(gen_porep_witness(ws + (size_t)p * sh.n_vars, &sh, 7, p, 1, &err),
                         CUZK_OK);
        w[p] = (engine_witness_t){
            .form = ENGINE_WITNESS_FR, .w = ws + (size_t)p * sh.n_vars, .n = sh.n_vars};
    }
    assert_int_equal(groth16_setup(&key, &c, GROTH16_BELLPERSON, 42, 1, &err), CUZK_OK);
    groth16_key_pk(&pk, &key);

    char path[] = "/tmp/cuzk_e2e_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    eventlog_t *log = NULL;
    assert_int_equal(eventlog_open(&log, path, &err), CUZK_OK);
    engine_sim_t *sim = NULL;
    engine_sim_config_t sc;
    memset(&sc, 0, sizeof sc);
    assert_int_equal(engine_sim_new(&sim, &sc, &err), CUZK_OK);
    device_t dev;
    engine_sim_device(&dev, sim, "sim", (size_t)1 << 30, 2);
    engine_config_t cfg;
    engine_config_default(&cfg);
    cfg.devices = &dev;
    cfg.n_devices = 1;
    cfg.prove_threads = 1;
    cfg.on_event = eventlog_engine_hook;
    cfg.event_ctx = log;
    engine_t *e = NULL;
    assert_int_equal(engine_new(&e, &cfg, &err), CUZK_OK);
    engine_key_spec_t ks;
    memset(&ks, 0, sizeof ks);
    ks.name = "porep";
    ks.pk = &pk;
    ks.circuit = &c;
    ks.check = &c;
    engine_key_t *k = NULL;
    assert_int_equal(engine_key_register(e, &k, &ks, &err), CUZK_OK);
    engine_job_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = ENGINE_KIND_BELLPERSON;
    spec.priority = CUZK_PRIO_NORMAL;
    spec.key = k;
    spec.witnesses = w;
    spec.n_partitions = E2E_PARTS;
    engine_job_id_t id;
    assert_int_equal(engine_submit(e, &id, &spec, &err), CUZK_OK);
    engine_result_t res;
    if (engine_await(e, id, 120000, &res, &err) != CUZK_OK)
        fail_msg("job: %s", err.msg);
    engine_result_free(&res);
    engine_key_release(e, k);
    engine_destroy(e); /* every hook call has returned */
    assert_int_equal(eventlog_dropped(log), 0);
    eventlog_close(log);
    engine_sim_free(sim);

    eventlog_rec_t *r = NULL;
    size_t n = 0;
    assert_int_equal(eventlog_read(&r, &n, path, &err), CUZK_OK);
    unlink(path);
    int witness[E2E_PARTS] = {0}, admit[E2E_PARTS] = {0}, prove[E2E_PARTS] = {0}, verify = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(r[i].job == id);
        assert_int_equal(r[i].status, 0);
        if (!strcmp(r[i].stage, "verify")) {
            assert_int_equal(r[i].partition, -1);
            assert_int_equal(r[i].device, -1);
            verify++;
            continue;
        }
        assert_true(r[i].partition >= 0 && r[i].partition < E2E_PARTS);
        int p = r[i].partition;
        if (!strcmp(r[i].stage, "witness")) {
            assert_int_equal(r[i].device, -1);
            witness[p]++;
        } else {
            assert_int_equal(r[i].device, 0);
            admit[p] += !strcmp(r[i].stage, "admit");
            prove[p] += !strcmp(r[i].stage, "prove");
        }
    }
    assert_int_equal(verify, 1);
    for (int p = 0; p < E2E_PARTS; p++) {
        assert_int_equal(witness[p], 1);
        assert_int_equal(admit[p], 1);
        assert_int_equal(prove[p], 1);
    }
    timeline_busy_t *b = NULL;
    size_t nd = 0;
    assert_int_equal(timeline_busy(&b, &nd, r, n, NULL, &err), CUZK_OK);
    assert_int_equal(nd, 2);
    assert_true(b[0].device == -1 && b[0].fraction > 0);
    assert_true(b[1].device == 0 && b[1].fraction > 0);
    free(b);
    char *svg = NULL;
    size_t len = 0;
    assert_int_equal(timeline_render_mem(&svg, &len, r, n, NULL, &err), CUZK_OK);
    assert_null(xml_check(svg, len));
    assert_non_null(strstr(svg, ">gpu 0<"));
    print_message("end to end: %zu stage runs logged\n", n);
    free(svg);
    free(r);
    groth16_key_free(&key);
    circuit_free(&c);
    free(ws);
}

int main(void)
{
    tu_init("test_timeline");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_checker),       cmocka_unit_test(test_lanes_known),
        cmocka_unit_test(test_lanes_random),      cmocka_unit_test(test_busy_known),
        cmocka_unit_test(test_busy_random),       cmocka_unit_test(test_svg),
        cmocka_unit_test(test_svg_random),        cmocka_unit_test(test_args),
        cmocka_unit_test(test_engine_end_to_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
