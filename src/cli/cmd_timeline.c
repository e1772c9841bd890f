/* `cuzk timeline`: an event log (eventlog.h) drawn as a Gantt chart SVG
 * (timeline.h), with each device's busy fraction printed. Exit 0, or 2 for
 * bad usage or input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/eventlog.h"
#include "cuzk/timeline.h"

int cmd_timeline(int argc, char **argv); /* declared in cli.h */

static const char USAGE[] =
    "usage: cuzk timeline --in events.jsonl --out pipeline.svg [--width PX]\n"
    "                     [--from S] [--to S] [--mark KIND]\n"
    "Draws one lane group per device (cpu, gpu 0, ...) over time; --from and --to\n"
    "bound the window in seconds after the log's first event (default: all of it).\n"
    "--mark outlines the stages of the jobs of one kind (winning-post, porep, ...).\n"
    "--out - writes the SVG to standard output.\n";

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "cuzk timeline: %s\n", why);
    fputs(USAGE, stderr);
    return CLI_USAGE;
}

static int parse_seconds(double *out, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    return 0;
}

static int write_svg(const char *out, const eventlog_rec_t *recs, size_t n,
                     const timeline_opts_t *o)
{
    cuzk_error_t err = {0};
    int to_stdout = !strcmp(out, "-");
    FILE *f = to_stdout ? stdout : fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "cuzk timeline: %s: cannot create: %s\n", out, strerror(errno));
        return CLI_USAGE;
    }
    cuzk_status st = timeline_render(f, recs, n, o, &err);
    if (!to_stdout && fclose(f) != 0 && st == CUZK_OK)
        st = cuzk_error_set(&err, CUZK_ERR_IO, "closing the file failed");
    if (st != CUZK_OK)
        return cli_fail("timeline", out, &err);
    return CLI_OK;
}

static void print_busy(const eventlog_rec_t *recs, size_t n, const timeline_opts_t *o)
{
    timeline_busy_t *b = NULL;
    size_t nd = 0;
    if (timeline_busy(&b, &nd, recs, n, o, NULL) != CUZK_OK)
        return;
    for (size_t i = 0; i < nd; i++) {
        if (b[i].device < 0)
            fprintf(stderr, "  cpu   ");
        else
            fprintf(stderr, "  gpu %-2d", b[i].device);
        fprintf(stderr, " busy %5.1f%% (%.3f s of %.3f s)\n", 100 * b[i].fraction, b[i].busy_s,
                b[i].window_s);
    }
    free(b);
}

int cmd_timeline(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    timeline_opts_t o;
    timeline_opts_default(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            return usage("every option takes a value");
        const char *v = argv[++i];
        if (!strcmp(a, "--in")) {
            in = v;
        } else if (!strcmp(a, "--out")) {
            out = v;
        } else if (!strcmp(a, "--width")) {
            char *end;
            long w = strtol(v, &end, 10);
            if (*end || end == v || w < TIMELINE_WIDTH_MIN || w > TIMELINE_WIDTH_MAX)
                return usage("--width: a whole number of pixels, 400..100000");
            o.width = (int)w;
        } else if (!strcmp(a, "--from")) {
            if (parse_seconds(&o.from_s, v))
                return usage("--from: seconds >= 0");
        } else if (!strcmp(a, "--to")) {
            if (parse_seconds(&o.to_s, v))
                return usage("--to: seconds >= 0");
        } else if (!strcmp(a, "--mark")) {
            if (!*v)
                return usage("--mark: a job kind");
            o.mark = v;
        } else {
            fprintf(stderr, "cuzk timeline: unknown option '%s'\n", a);
            return usage(NULL);
        }
    }
    if (!in || !out)
        return usage("--in and --out are required");
    if (o.to_s >= 0 && o.to_s < o.from_s)
        return usage("--to is before --from");
    cuzk_error_t err = {0};
    eventlog_rec_t *recs = NULL;
    size_t n = 0;
    if (eventlog_read(&recs, &n, in, &err) != CUZK_OK)
        return cli_fail("timeline", "event log", &err);
    int rc = write_svg(out, recs, n, &o);
    if (rc == CLI_OK) {
        fprintf(stderr, "cuzk timeline: %zu stage runs from %s -> %s\n", n, in, out);
        print_busy(recs, n, &o);
    }
    free(recs);
    return rc;
}
