/* `cuzk bench ntt`: the CPU NTT over Fr (include/cuzk/ntt.h), in place on
 * 2^K elements. Options: --log K (repeatable; default 16 and 20),
 * --threads T (default: 1 and all CPUs), --repeats R (default 5, after one
 * warm-up), --conv bellman|ffjs|both (default both), --op
 * forward|inverse|coset_forward|coset_inverse|all (default forward).
 * One JSON line per (size, threads, conv, op) with min / median / max
 * milliseconds and elements per second, then a table. The median process
 * CPU time is printed too: on a busy machine wall time inflates, and
 * cpu / threads is then the better estimate of the idle-machine time.
 *
 * Floor: the transform's multiplications, (n/2) log n butterflies minus the
 * n - 1 whose twiddle is 1 (plus n for the inverse's scaling, 2n for a
 * coset's), at the fr_mul throughput measured here, divided by the threads
 * asked for; the ratio says how much goes to additions, memory and
 * threading. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"

#define MAX_LOGS 16

typedef enum bench_op { B_FORWARD, B_INVERSE, B_COSET_FORWARD, B_COSET_INVERSE, B_OPS } bench_op;
static const char *const OP_NAMES[] = {"forward", "inverse", "coset_forward", "coset_inverse"};
static const char *const CONV_NAMES[] = {"bellman", "ffjs"};
/* every (log, conv, threads, op): 2 thread counts at most */
#define MAX_RESULTS (MAX_LOGS * 2 * 2 * B_OPS)

typedef struct ntt_result {
    unsigned log_n;
    int threads;
    fr_roots conv;
    bench_op op;
    int repeats;
    double init_ms, min_ms, med_ms, max_ms, floor_ms;
    double cpu_ms; /* process CPU time, median: wall ~ cpu / threads when the machine is idle */
} ntt_result_t;

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

/* fr_mul throughput on independent products (as in a butterfly pass), ns. */
static double fr_mul_ns(void)
{
    enum { LEN = 256, ROUNDS = 2000 };
    static fr_t v[LEN];
    fr_t c;
    fr_from_u64(&c, 0x1234567);
    for (int i = 0; i < LEN; i++)
        fr_from_u64(&v[i], (uint64_t)i + 1);
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_ms();
        for (int r = 0; r < ROUNDS; r++)
            for (int i = 0; i < LEN; i++)
                fr_mul(&v[i], &v[i], &c);
        double t = (now_ms() - t0) * 1e6 / (LEN * ROUNDS);
        best = t < best ? t : best;
    }
    return best;
}

static cuzk_status run_op(bench_op op, const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads)
{
    switch (op) {
    case B_FORWARD: return ntt_forward(d, a, threads);
    case B_INVERSE: return ntt_inverse(d, a, threads);
    case B_COSET_FORWARD: return ntt_coset_forward(d, a, g, threads);
    case B_COSET_INVERSE: return ntt_coset_inverse(d, a, g, threads);
    case B_OPS: break;
    }
    return CUZK_ERR_ARG;
}

static double floor_ms(unsigned log_n, bench_op op, int threads, double mul_ns)
{
    double n = (double)((size_t)1 << log_n);
    double muls = n / 2 * log_n - (n - 1);
    if (op == B_INVERSE)
        muls += n; /* n^-1 */
    else if (op != B_FORWARD)
        muls += 2 * n; /* g^i and its running product */
    return muls * mul_ns / 1e6 / threads;
}

static int bench_one(ntt_result_t *res, const ntt_domain_t *d, double init_ms, fr_t *a, bench_op op,
                     int threads, int repeats, double mul_ns)
{
    double t[64], cpu[64];
    fr_t g;
    fr_from_u64(&g, 7);
    if (run_op(op, d, a, &g, threads) != CUZK_OK) /* warm-up */
        return -1;
    for (int r = 0; r < repeats; r++) {
        double t0 = now_ms(), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        (void)run_op(op, d, a, &g, threads);
        t[r] = now_ms() - t0;
        cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    qsort(t, (size_t)repeats, sizeof t[0], cli_cmp_double);
    qsort(cpu, (size_t)repeats, sizeof cpu[0], cli_cmp_double);
    *res = (ntt_result_t){.log_n = d->log_n,
                          .threads = threads,
                          .conv = d->conv,
                          .op = op,
                          .repeats = repeats,
                          .init_ms = init_ms};
    res->min_ms = t[0];
    res->med_ms = t[repeats / 2];
    res->max_ms = t[repeats - 1];
    res->floor_ms = floor_ms(d->log_n, op, threads, mul_ns);
    res->cpu_ms = cpu[repeats / 2];
    return 0;
}

/* Elements per second and the ratio to the floor, finite even for the
 * tiniest sizes (a median of 0 ms, a floor of 0 at n = 1). */
static double per_s(const ntt_result_t *r)
{
    return (double)((size_t)1 << r->log_n) / ((r->med_ms > 1e-6 ? r->med_ms : 1e-6) / 1e3);
}

static double vs_floor(const ntt_result_t *r)
{
    return r->floor_ms > 0 ? r->med_ms / r->floor_ms : 0;
}

static void print_json(const ntt_result_t *r, double mul_ns)
{
    size_t n = (size_t)1 << r->log_n;
    printf("{\"bench\":\"ntt\",\"op\":\"%s\",\"conv\":\"%s\",\"log_n\":%u,\"n\":%zu,"
           "\"threads\":%d,\"repeats\":%d,\"init_ms\":%.2f,\"ms_min\":%.3f,\"ms_median\":%.3f,"
           "\"ms_max\":%.3f,\"elements_per_s\":%.0f,\"cpu_ms_median\":%.3f,\"fr_mul_ns\":%.2f,"
           "\"floor_ms\":%.3f,\"ratio_to_floor\":%.2f}\n",
           OP_NAMES[r->op], CONV_NAMES[r->conv], r->log_n, n, r->threads, r->repeats, r->init_ms,
           r->min_ms, r->med_ms, r->max_ms, per_s(r), r->cpu_ms, mul_ns, r->floor_ms, vs_floor(r));
}

static void print_table(const ntt_result_t *res, size_t count)
{
    printf("\n%-14s %-8s %4s %7s %10s %10s %10s %12s %10s %8s\n", "op", "conv", "log", "threads",
           "min ms", "median ms", "max ms", "elements/s", "cpu ms", "vs floor");
    for (size_t i = 0; i < count; i++) {
        const ntt_result_t *r = &res[i];
        printf("%-14s %-8s %4u %7d %10.3f %10.3f %10.3f %12.0f %10.3f %7.2fx\n", OP_NAMES[r->op],
               CONV_NAMES[r->conv], r->log_n, r->threads, r->min_ms, r->med_ms, r->max_ms, per_s(r),
               r->cpu_ms, vs_floor(r));
    }
}

static int usage(const char *msg, const char *arg)
{
    fprintf(stderr, "cuzk bench ntt: %s '%s'\n", msg, arg);
    fprintf(stderr, "usage: cuzk bench ntt [--log K]... [--threads T] [--repeats R]\n"
                    "                      [--conv bellman|ffjs|both] [--op NAME|all]\n");
    return 2;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int bench_ntt(int argc, char **argv)
{
    unsigned logs[MAX_LOGS];
    size_t nlogs = 0;
    int threads = 0, repeats = 5, conv_lo = 0, conv_hi = 1, op_lo = B_FORWARD, op_hi = B_FORWARD;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (i + 1 >= argc)
            return usage("unknown option or missing value", opt);
        const char *val = argv[++i];
        long v;
        if (!strcmp(opt, "--log")) {
            if (nlogs == MAX_LOGS || parse_int(val, 0, NTT_MAX_LOG - 1, &v))
                return usage("bad --log (0..27, at most 16 of them)", val);
            logs[nlogs++] = (unsigned)v;
        } else if (!strcmp(opt, "--threads")) {
            if (parse_int(val, 1, 4096, &v))
                return usage("bad --threads", val);
            threads = (int)v;
        } else if (!strcmp(opt, "--repeats")) {
            if (parse_int(val, 1, 64, &v))
                return usage("bad --repeats (1..64)", val);
            repeats = (int)v;
        } else if (!strcmp(opt, "--conv")) {
            if (!strcmp(val, "bellman"))
                conv_lo = conv_hi = FR_ROOTS_BELLMAN;
            else if (!strcmp(val, "ffjs"))
                conv_lo = conv_hi = FR_ROOTS_FFJS;
            else if (strcmp(val, "both"))
                return usage("bad --conv", val);
        } else if (!strcmp(opt, "--op")) {
            if (!strcmp(val, "all")) {
                op_lo = B_FORWARD, op_hi = B_COSET_INVERSE;
            } else {
                int k = 0;
                while (k < B_OPS && strcmp(val, OP_NAMES[k]))
                    k++;
                if (k == B_OPS)
                    return usage("bad --op", val);
                op_lo = op_hi = k;
            }
        } else {
            return usage("unknown option", opt);
        }
    }
    if (nlogs == 0) {
        logs[nlogs++] = 16;
        logs[nlogs++] = 20;
    }
    int tlist[2], nt = 0;
    if (threads > 0) {
        tlist[nt++] = threads;
    } else {
        tlist[nt++] = 1;
        if (parallel_threads(0) > 1)
            tlist[nt++] = parallel_threads(0);
    }

    double mul_ns = fr_mul_ns();
    static ntt_result_t res[MAX_RESULTS];
    size_t count = 0;
    for (size_t li = 0; li < nlogs; li++) {
        size_t n = (size_t)1 << logs[li];
        fr_t *a = aligned_alloc(64, n < 2 ? 64 : n * sizeof *a);
        if (!a) {
            fprintf(stderr, "cuzk bench ntt: no memory for 2^%u elements\n", logs[li]);
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            fr_from_u64(&a[i], (uint64_t)i * 0x9e3779b97f4a7c15ULL);
        for (int c = conv_lo; c <= conv_hi; c++) {
            ntt_domain_t d;
            double t0 = now_ms();
            cuzk_status st = ntt_domain_init(&d, logs[li], (fr_roots)c);
            double init_ms = now_ms() - t0;
            if (st != CUZK_OK) {
                fprintf(stderr, "cuzk bench ntt: domain 2^%u: %s\n", logs[li], cuzk_status_str(st));
                free(a);
                return 1;
            }
            for (int ti = 0; ti < nt; ti++)
                for (int op = op_lo; op <= op_hi; op++) {
                    ntt_result_t *r = &res[count];
                    if (bench_one(r, &d, init_ms, a, (bench_op)op, tlist[ti], repeats, mul_ns)) {
                        fprintf(stderr, "cuzk bench ntt: transform failed\n");
                        ntt_domain_free(&d);
                        free(a);
                        return 1;
                    }
                    print_json(r, mul_ns);
                    fflush(stdout);
                    count++;
                }
            ntt_domain_free(&d);
        }
        free(a);
    }
    print_table(res, count);
    return 0;
}
