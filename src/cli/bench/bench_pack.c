/* `cuzk bench pack`: packing a witness vector (fr_pack_make) and expanding
 * it again (fr_pack_expand) on the CPU, the engine's work per witness with
 * --witness-pack. Options: --log K (repeatable; default 20 and 24),
 * --scalars random|witness|zero-one:Z,O (default zero-one:49,49, a PoRep
 * partition's mix), --threads T (default all CPUs), --repeats R (default 5,
 * after one warm-up). One JSON line per size with the median milliseconds
 * of each, the pack's bytes against the vector's, and the vector's bytes
 * read per second while packing; then a table. Every expansion is
 * compared with the vector (exit 1 on a difference). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cuzk/fr_pack.h"
#include "cuzk/parallel.h"

#define MAX_LOGS 8

typedef struct pack_result {
    unsigned log_n;
    size_t n_full, bytes;
    double pack_ms, expand_ms;
} pack_result_t;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One size: 1 + repeats packs and expansions, the first not timed. */
static int run_size(pack_result_t *r, unsigned log_n, unsigned zero_pct, unsigned one_pct,
                    int threads, int repeats)
{
    size_t n = (size_t)1 << log_n;
    fr_t *w = bench_scalars_make(n, zero_pct, one_pct, 0x9ac4 + log_n);
    fr_t *x = malloc(n * sizeof *x);
    double pk[1001], ex[1001];
    if (!w || !x) {
        fprintf(stderr, "cuzk bench pack: no memory for 2^%u values\n", log_n);
        free(w);
        free(x);
        return 2;
    }
    int rc = 0;
    for (int i = 0; i <= repeats && rc == 0; i++) {
        fr_pack_t p;
        cuzk_error_t err = {0};
        double t0 = now_ms();
        if (fr_pack_make(&p, w, n, threads, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench pack: %s\n", err.msg);
            rc = 2;
            break;
        }
        double t1 = now_ms();
        cuzk_status st = fr_pack_expand(x, &p, threads);
        double t2 = now_ms();
        if (st != CUZK_OK || memcmp(x, w, n * sizeof *x)) {
            fprintf(stderr, "cuzk bench pack: 2^%u: the expansion differs from the vector\n",
                    log_n);
            rc = 1;
        }
        pk[i] = t1 - t0;
        ex[i] = t2 - t1;
        r->n_full = p.n_full;
        r->bytes = p.bytes;
        fr_pack_free(&p);
    }
    if (rc == 0) {
        r->log_n = log_n;
        r->pack_ms = median(pk + 1, repeats);
        r->expand_ms = median(ex + 1, repeats);
    }
    free(w);
    free(x);
    return rc;
}

int bench_pack(int argc, char **argv)
{
    unsigned logs[MAX_LOGS], n_logs = 0, zero_pct = 49, one_pct = 49;
    int threads = 0, repeats = 5;
    char scalars[SCALARS_LABEL] = "zero-one:49,49";
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        long x = v ? strtol(v, &end, 10) : 0;
        int num = v && *v && !*end;
        if (!strcmp(a, "--log") && num && x >= 6 && x <= 30 && n_logs < MAX_LOGS) {
            logs[n_logs++] = (unsigned)x;
        } else if (!strcmp(a, "--threads") && num && x >= 0 && x <= 4096) {
            threads = (int)x;
        } else if (!strcmp(a, "--repeats") && num && x >= 1 && x <= 1000) {
            repeats = (int)x;
        } else if (!strcmp(a, "--scalars") && v) {
            const char *why = bench_scalars_parse(&zero_pct, &one_pct, scalars, sizeof scalars, v);
            if (why) {
                fprintf(stderr, "cuzk bench pack: --scalars '%s': %s\n", v, why);
                return 2;
            }
        } else {
            fprintf(stderr,
                    "cuzk bench pack: bad option '%s'\n"
                    "usage: cuzk bench pack [--log K]... (6..30, at most %d) "
                    "[--scalars random|witness|zero-one:Z,O] [--threads T] [--repeats R]\n",
                    a, MAX_LOGS);
            return 2;
        }
    }
    if (n_logs == 0) {
        logs[n_logs++] = 20;
        logs[n_logs++] = 24;
    }
    int th = parallel_threads(threads);
    pack_result_t res[MAX_LOGS];
    for (unsigned k = 0; k < n_logs; k++) {
        int rc = run_size(&res[k], logs[k], zero_pct, one_pct, threads, repeats);
        if (rc)
            return rc;
        pack_result_t *r = &res[k];
        double vec = (double)((size_t)1 << r->log_n) * sizeof(fr_t);
        printf("{\"bench\":\"pack\",\"log_n\":%u,\"scalars\":\"%s\",\"threads\":%d,"
               "\"repeats\":%d,\"full_values\":%zu,\"pack_bytes\":%zu,\"vector_bytes\":%.0f,"
               "\"ratio\":%.4f,\"pack_ms\":%.3f,\"expand_ms\":%.3f,\"pack_gbs\":%.2f}\n",
               r->log_n, scalars, th, repeats, r->n_full, r->bytes, vec, (double)r->bytes / vec,
               r->pack_ms, r->expand_ms, vec / (r->pack_ms * 1e6));
    }
    printf("\npack / expand (%s, %d threads, medians of %d)\n", scalars, th, repeats);
    printf("  %-6s %12s %12s %8s %10s %10s %8s\n", "size", "vector MiB", "pack MiB", "ratio",
           "pack ms", "expand ms", "GB/s");
    for (unsigned k = 0; k < n_logs; k++) {
        const pack_result_t *r = &res[k];
        double vec = (double)((size_t)1 << r->log_n) * sizeof(fr_t);
        printf("  2^%-4u %12.1f %12.1f %8.4f %10.2f %10.2f %8.2f\n", r->log_n, vec / 1048576.0,
               (double)r->bytes / 1048576.0, (double)r->bytes / vec, r->pack_ms, r->expand_ms,
               vec / (r->pack_ms * 1e6));
    }
    return 0;
}
