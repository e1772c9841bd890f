/* `cuzk bench field`: microbenchmarks of the arithmetic, single thread.
 * Each op runs in repeats of a fixed batch; we report min / median / max
 * nanoseconds per op as JSON lines, then a table. Targets come from the
 * foundation issue (2-core CI machines): Fp mul <= 40 ns, pairing <= 2.5 ms;
 * blst's ~1 ms pairing is printed as a reference ratio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/pairing.h"

#define REPEATS 7

typedef struct bench_result {
    const char *op;
    double min_ns, med_ns, max_ns;
    double target_ns; /* 0: none */
    double ref_ns;    /* blst reference, 0: none */
} bench_result_t;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Shared state the op kernels work on; results feed back into inputs so the
 * compiler cannot drop the work and each op depends on the previous one. */
static struct {
    fp_t fa, fb;
    fr_t ra, rb;
    g1_jac_t j1;
    g1_affine_t a1;
    g2_jac_t j2, k2;
    g1_affine_t P[4];
    g2_affine_t Q[4];
    fp12_t gt;
} S;

static void op_fp_mul(long n)
{
    for (long i = 0; i < n; i++)
        fp_mul(&S.fa, &S.fa, &S.fb);
}
static void op_fr_mul(long n)
{
    for (long i = 0; i < n; i++)
        fr_mul(&S.ra, &S.ra, &S.rb);
}
static void op_g1_add_mixed(long n)
{
    for (long i = 0; i < n; i++)
        g1_add_mixed(&S.j1, &S.j1, &S.a1);
}
static void op_g2_add(long n)
{
    for (long i = 0; i < n; i++)
        g2_add(&S.j2, &S.j2, &S.k2);
}
static void op_pairing(long n)
{
    for (long i = 0; i < n; i++)
        pairing_compute(&S.gt, &S.P[0], &S.Q[0]);
}
static void op_pairing4(long n)
{
    for (long i = 0; i < n; i++)
        (void)pairing_product(&S.gt, S.P, S.Q, 4);
}

static void setup(void)
{
    fp_from_u64(&S.fa, 0x1234567);
    fp_neg(&S.fb, &S.fa);
    fr_from_u64(&S.ra, 0x7654321);
    fr_neg(&S.rb, &S.ra);
    g1_jac_t g;
    g2_jac_t h;
    g1_from_affine(&g, &G1_GENERATOR);
    g2_from_affine(&h, &G2_GENERATOR);
    S.j1 = g;
    g1_dbl(&g, &g);
    g1_to_affine(&S.a1, &g);
    S.j2 = h;
    g2_dbl(&S.k2, &h);
    for (int i = 0; i < 4; i++) {
        fr_t k;
        fr_from_u64(&k, 1000 + (uint64_t)i);
        g1_jac_t pj;
        g2_jac_t qj;
        g1_from_affine(&pj, &G1_GENERATOR);
        g2_from_affine(&qj, &G2_GENERATOR);
        g1_mul_fr(&pj, &pj, &k);
        g2_mul_fr(&qj, &qj, &k);
        g1_to_affine(&S.P[i], &pj);
        g2_to_affine(&S.Q[i], &qj);
    }
}

static bench_result_t run_op(const char *name, void (*fn)(long), long batch, double target,
                             double ref)
{
    double t[REPEATS];
    fn(batch / 4 + 1); /* warm-up */
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_ns();
        fn(batch);
        t[r] = (now_ns() - t0) / (double)batch;
    }
    qsort(t, REPEATS, sizeof t[0], cli_cmp_double);
    bench_result_t res = {name, t[0], t[REPEATS / 2], t[REPEATS - 1], target, ref};
    return res;
}

static void print_json(const bench_result_t *r)
{
    printf("{\"bench\":\"field\",\"op\":\"%s\",\"threads\":1,\"repeats\":%d,"
           "\"ns_min\":%.1f,\"ns_median\":%.1f,\"ns_max\":%.1f,\"ops_per_s\":%.0f",
           r->op, REPEATS, r->min_ns, r->med_ns, r->max_ns, 1e9 / r->med_ns);
    if (r->target_ns > 0)
        printf(",\"target_ns\":%.0f,\"ratio_to_target\":%.2f", r->target_ns,
               r->med_ns / r->target_ns);
    if (r->ref_ns > 0)
        printf(",\"blst_ns\":%.0f,\"ratio_to_blst\":%.2f", r->ref_ns, r->med_ns / r->ref_ns);
    printf("}\n");
}

static void fmt_ns(char *buf, size_t n, double ns)
{
    if (ns >= 1e6)
        snprintf(buf, n, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        snprintf(buf, n, "%.2f us", ns / 1e3);
    else
        snprintf(buf, n, "%.1f ns", ns);
}

int bench_field(int argc, char **argv)
{
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else {
            fprintf(stderr, "cuzk bench field: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    long s = quick ? 20 : 1;
    setup();
    bench_result_t res[] = {
        run_op("fp_mul", op_fp_mul, 2000000 / s, 40, 0),
        run_op("fr_mul", op_fr_mul, 2000000 / s, 0, 0),
        run_op("g1_add_mixed", op_g1_add_mixed, 200000 / s, 0, 0),
        run_op("g2_add", op_g2_add, 50000 / s, 0, 0),
        run_op("pairing", op_pairing, 200 / s, 2.5e6, 1.0e6),
        run_op("multi_pairing_4", op_pairing4, 60 / s, 0, 0),
    };
    size_t n = sizeof res / sizeof res[0];
    for (size_t i = 0; i < n; i++)
        print_json(&res[i]);
    printf("\n%-16s %12s %12s %12s %14s %10s\n", "op", "min", "median", "max", "ops/s",
           "vs target");
    for (size_t i = 0; i < n; i++) {
        char a[32], b[32], c[32], d[16] = "-";
        fmt_ns(a, sizeof a, res[i].min_ns);
        fmt_ns(b, sizeof b, res[i].med_ns);
        fmt_ns(c, sizeof c, res[i].max_ns);
        if (res[i].target_ns > 0)
            snprintf(d, sizeof d, "%.2fx", res[i].med_ns / res[i].target_ns);
        printf("%-16s %12s %12s %12s %14.0f %10s\n", res[i].op, a, b, c, 1e9 / res[i].med_ns, d);
    }
    return 0;
}
