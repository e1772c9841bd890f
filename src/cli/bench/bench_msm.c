/* `cuzk bench msm`: the CPU multi-scalar multiplication.
 *
 *   cuzk bench msm [--log K]... [--g2] [--threads T]
 *                  [--scalars random|witness|zero-one:Z,O]
 *                  [--format affine|lem|zcash] [--pippenger] [--window C] [--repeats R]
 *
 * For each size 2^K (default 16 and 20) one warm-up run, then R timed runs
 * (default 5) of msm_g1 / msm_g2 (the 0/1-aware entry point; --pippenger
 * times Pippenger alone; --window C times Pippenger alone with c-bit windows,
 * to tune msm_choose_c). Scalars: Z% zeros, O% ones, the rest uniform;
 * random is 0,0 (the default), witness 45,45 (Filecoin-like); the GPU
 * bench (bench_cuda.c) takes the same option, so both time one mix, and
 * zero-one:50,50 and zero-one:45,45 are sppark's mixes. Bases are distinct
 * multiples of the generator, given in the chosen encoding. One JSON line
 * per configuration (min / median / max milliseconds, points per second,
 * the mix, and the median CPU time of all threads: on a shared machine
 * cpu_ms / threads well below ms_median means the run waited for a CPU),
 * then a table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/encode.h"
#include "cuzk/msm.h"
#include "cuzk/parallel.h"

#define MAX_SIZES 16
typedef struct msm_bench_opts {
    unsigned logs[MAX_SIZES];
    int n_logs;
    int g2, threads, pippenger, repeats;
    unsigned zero_pct, one_pct;
    char scalars[SCALARS_LABEL];
    unsigned window; /* 0: msm_choose_c */
    msm_base_format fmt;
} msm_bench_opts_t;

typedef struct msm_bench_result {
    unsigned log;
    double min_ms, med_ms, max_ms;
    double cpu_ms; /* median process CPU time */
} msm_bench_result_t;

static const char *FORMAT_NAMES[] = {"affine", "lem", "zcash"};

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(fr_t *out, uint64_t *s)
{
    uint64_t l[FR_LIMBS];
    do {
        for (int i = 0; i < FR_LIMBS; i++)
            l[i] = rng_next(s);
        l[FR_LIMBS - 1] &= 0x7fffffffffffffffULL;
    } while (fr_from_limbs(out, l) != CUZK_OK);
}

/* The distribution the GPU bench draws (bench_scalars, msm_api.cu), not
 * the same values. */
fr_t *bench_scalars_make(size_t n, unsigned zero_pct, unsigned one_pct, uint64_t seed)
{
    fr_t *s = malloc(n * sizeof *s);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned pick = (unsigned)(rng_next(&seed) % 100);
        if (pick < zero_pct)
            s[i] = FR_ZERO;
        else if (pick < zero_pct + one_pct)
            s[i] = FR_ONE;
        else
            rand_fr(&s[i], &seed);
    }
    return s;
}

/* A whole percentage at *p, 0..100, decimal digits only; *p moves past. */
static int parse_pct(unsigned *out, const char **p)
{
    const char *s = *p;
    unsigned v = 0;
    int digits = 0;
    for (; *s >= '0' && *s <= '9' && digits < 4; s++, digits++)
        v = 10 * v + (unsigned)(*s - '0');
    if (digits == 0 || v > 100)
        return 0;
    *out = v;
    *p = s;
    return 1;
}

const char *bench_scalars_parse(unsigned *zero_pct, unsigned *one_pct, char *label,
                                size_t label_len, const char *v)
{
    static const char PREFIX[] = "zero-one:";
    unsigned z = 0, o = 0;
    if (!strcmp(v, "witness")) {
        z = o = 45;
    } else if (strcmp(v, "random")) {
        const char *p = v + sizeof PREFIX - 1;
        if (strncmp(v, PREFIX, sizeof PREFIX - 1))
            return "takes random, witness or zero-one:Z,O";
        if (!parse_pct(&z, &p) || *p++ != ',' || !parse_pct(&o, &p) || *p)
            return "zero-one:Z,O takes two whole percentages 0..100 (Z zeros, O ones)";
        if (z + o > 100)
            return "zero-one:Z,O needs Z + O <= 100";
    }
    *zero_pct = z;
    *one_pct = o;
    if (strcmp(v, "random") && strcmp(v, "witness"))
        snprintf(label, label_len, "zero-one:%u,%u", z, o);
    else
        snprintf(label, label_len, "%s", v);
    return NULL;
}

/* P_i = [a + i b] G as encoded bytes: one mixed addition per point, then
 * one batch inversion. */
static uint8_t *make_bases(size_t n, int g2, msm_base_format fmt, uint64_t seed)
{
    size_t rec = g2 ? G2_LEM_BYTES : G1_LEM_BYTES;
    uint8_t *out = malloc(n * rec);
    void *jac = malloc(n * (g2 ? sizeof(g2_jac_t) : sizeof(g1_jac_t)));
    void *aff = malloc(n * (g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t)));
    cuzk_status st = CUZK_ERR_NOMEM;
    fr_t a, b;
    rand_fr(&a, &seed);
    rand_fr(&b, &seed);
    if (out && jac && aff && !g2) {
        g1_jac_t *j = jac, step;
        g1_affine_t *p = aff, step_aff;
        g1_from_affine(&j[0], &G1_GENERATOR);
        g1_mul_fr(&step, &j[0], &b);
        g1_mul_fr(&j[0], &j[0], &a);
        g1_to_affine(&step_aff, &step);
        for (size_t i = 1; i < n; i++)
            g1_add_mixed(&j[i], &j[i - 1], &step_aff);
        st = g1_batch_to_affine(p, j, n);
        for (size_t i = 0; st == CUZK_OK && i < n; i++) {
            if (fmt == MSM_BASES_LEM)
                g1_to_lem(out + i * rec, &p[i]);
            else if (fmt == MSM_BASES_ZCASH)
                g1_serialize(out + i * rec, &p[i]);
            else
                memcpy(out + i * rec, &p[i], rec);
        }
    } else if (out && jac && aff) {
        g2_jac_t *j = jac, step;
        g2_affine_t *p = aff, step_aff;
        g2_from_affine(&j[0], &G2_GENERATOR);
        g2_mul_fr(&step, &j[0], &b);
        g2_mul_fr(&j[0], &j[0], &a);
        g2_to_affine(&step_aff, &step);
        for (size_t i = 1; i < n; i++)
            g2_add_mixed(&j[i], &j[i - 1], &step_aff);
        st = g2_batch_to_affine(p, j, n);
        for (size_t i = 0; st == CUZK_OK && i < n; i++) {
            if (fmt == MSM_BASES_LEM)
                g2_to_lem(out + i * rec, &p[i]);
            else if (fmt == MSM_BASES_ZCASH)
                g2_serialize(out + i * rec, &p[i]);
            else
                memcpy(out + i * rec, &p[i], rec);
        }
    }
    free(jac);
    free(aff);
    if (st != CUZK_OK) {
        free(out);
        return NULL;
    }
    return out;
}

static cuzk_status run_once(const msm_bench_opts_t *o, const msm_bases_t *b, const fr_t *s,
                            size_t n)
{
    g1_jac_t r1;
    g2_jac_t r2;
    if (o->window)
        return o->g2 ? msm_g2_pippenger_window(&r2, b, s, n, o->threads, o->window)
                     : msm_g1_pippenger_window(&r1, b, s, n, o->threads, o->window);
    if (o->g2)
        return o->pippenger ? msm_g2_pippenger(&r2, b, s, n, o->threads)
                            : msm_g2(&r2, b, s, n, o->threads);
    return o->pippenger ? msm_g1_pippenger(&r1, b, s, n, o->threads)
                        : msm_g1(&r1, b, s, n, o->threads);
}

static int bench_size(const msm_bench_opts_t *o, unsigned log, msm_bench_result_t *res)
{
    size_t n = (size_t)1 << log;
    uint8_t *bases = make_bases(n, o->g2, o->fmt, 0x5eed0000 + log);
    fr_t *s = bench_scalars_make(n, o->zero_pct, o->one_pct, 0xc0ffee00 + log);
    double *t = malloc(2 * (size_t)o->repeats * sizeof *t), *cpu = t ? t + o->repeats : NULL;
    int rc = 0;
    if (!bases || !s || !t) {
        fprintf(stderr, "cuzk bench msm: out of memory at 2^%u\n", log);
        rc = 1;
    }
    msm_bases_t b = {bases, o->fmt};
    for (int r = -1; rc == 0 && r < o->repeats; r++) {
        double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        cuzk_status st = run_once(o, &b, s, n);
        double dt = clock_ms(CLOCK_MONOTONIC) - t0;
        double dc = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk bench msm: %s at 2^%u\n", cuzk_status_str(st), log);
            rc = 1;
        } else if (r >= 0) {
            t[r] = dt;
            cpu[r] = dc;
        }
    }
    if (rc == 0) {
        qsort(t, (size_t)o->repeats, sizeof t[0], cli_cmp_double);
        qsort(cpu, (size_t)o->repeats, sizeof cpu[0], cli_cmp_double);
        *res = (msm_bench_result_t){log, t[0], t[o->repeats / 2], t[o->repeats - 1],
                                    cpu[o->repeats / 2]};
    }
    free(bases);
    free(s);
    free(t);
    return rc;
}

static int parse_args(msm_bench_opts_t *o, int argc, char **argv)
{
    *o = (msm_bench_opts_t){
        .threads = 0, .repeats = 5, .fmt = MSM_BASES_AFFINE, .scalars = "random"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--g2")) {
            o->g2 = 1;
        } else if (!strcmp(a, "--pippenger")) {
            o->pippenger = 1;
        } else if (!strcmp(a, "--log") && v) {
            long k = strtol(v, &end, 10);
            if (*end || k < 0 || k > 30 || o->n_logs == MAX_SIZES)
                goto bad;
            o->logs[o->n_logs++] = (unsigned)k;
            i++;
        } else if (!strcmp(a, "--window") && v) {
            long c = strtol(v, &end, 10);
            if (*end || c < 1 || c > MSM_WINDOW_MAX)
                goto bad;
            o->window = (unsigned)c;
            o->pippenger = 1;
            i++;
        } else if (!strcmp(a, "--threads") && v) {
            long t = strtol(v, &end, 10);
            if (*end || t < 0 || t > 4096)
                goto bad;
            o->threads = (int)t;
            i++;
        } else if (!strcmp(a, "--repeats") && v) {
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 1000)
                goto bad;
            o->repeats = (int)r;
            i++;
        } else if (!strcmp(a, "--scalars") && v) {
            const char *why =
                bench_scalars_parse(&o->zero_pct, &o->one_pct, o->scalars, sizeof o->scalars, v);
            if (why) {
                fprintf(stderr, "cuzk bench msm: --scalars '%s': %s\n", v, why);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--format") && v) {
            int f;
            for (f = 0; f < 3 && strcmp(v, FORMAT_NAMES[f]); f++)
                ;
            if (f == 3)
                goto bad;
            o->fmt = (msm_base_format)f;
            i++;
        } else {
            goto bad;
        }
        continue;
    bad:
        fprintf(stderr,
                "cuzk bench msm: bad option '%s'\n"
                "usage: cuzk bench msm [--log K]... [--g2] [--threads T] "
                "[--scalars random|witness|zero-one:Z,O] [--format affine|lem|zcash] [--pippenger] "
                "[--window C] [--repeats R]\n",
                a);
        return 2;
    }
    if (o->n_logs == 0) {
        o->logs[o->n_logs++] = 16;
        o->logs[o->n_logs++] = 20;
    }
    o->threads = parallel_threads(o->threads);
    return 0;
}

int bench_msm(int argc, char **argv)
{
    msm_bench_opts_t o;
    int rc = parse_args(&o, argc, argv);
    if (rc)
        return rc;
    msm_bench_result_t res[MAX_SIZES];
    const char *group = o.g2 ? "G2" : "G1", *scalars = o.scalars;
    const char *fn = o.pippenger ? "pippenger" : "msm";
    for (int i = 0; i < o.n_logs; i++) {
        if (bench_size(&o, o.logs[i], &res[i]))
            return 1;
        double n = (double)((size_t)1 << res[i].log);
        printf("{\"bench\":\"msm\",\"fn\":\"%s\",\"group\":\"%s\",\"log\":%u,\"n\":%.0f,"
               "\"threads\":%d,\"scalars\":\"%s\",\"zero_pct\":%u,\"one_pct\":%u,"
               "\"format\":\"%s\",\"repeats\":%d,"
               "\"ms_min\":%.2f,\"ms_median\":%.2f,\"ms_max\":%.2f,\"cpu_ms_median\":%.2f,"
               "\"points_per_s\":%.0f}\n",
               fn, group, res[i].log, n, o.threads, scalars, o.zero_pct, o.one_pct,
               FORMAT_NAMES[o.fmt], o.repeats, res[i].min_ms, res[i].med_ms, res[i].max_ms,
               res[i].cpu_ms, n / (res[i].med_ms / 1e3));
        fflush(stdout);
    }
    printf("\n%-9s %-5s %6s %8s %-14s %12s %12s %12s %12s %14s\n", "fn", "group", "size", "threads",
           "scalars", "min ms", "median ms", "max ms", "cpu ms", "points/s");
    for (int i = 0; i < o.n_logs; i++) {
        char size[16];
        snprintf(size, sizeof size, "2^%u", res[i].log);
        printf("%-9s %-5s %6s %8d %-14s %12.2f %12.2f %12.2f %12.2f %14.0f\n", fn, group, size,
               o.threads, scalars, res[i].min_ms, res[i].med_ms, res[i].max_ms, res[i].cpu_ms,
               (double)((size_t)1 << res[i].log) / (res[i].med_ms / 1e3));
    }
    return 0;
}
