/* `cuzk bench ntt|msm --device cuda`: the GPU kernels on device-resident
 * data, timed with CUDA events (median of --repeats runs after a warm-up),
 * with the ratio to the floors of ../shared/DESIGN.md §6:
 *   NTT 2^27 over Fr: 27.5 ms (25-30), scaled by n log n;
 *   G1 MSM 2^26 random: 250 ms (0.2-0.3 s), scaled by n;
 *   G2 MSM: three times G1's (an Fp2 multiplication is three Fp ones;
 *   derived here, DESIGN.md gives no G2 figure).
 * Witness-like MSM scalars (45% zero, 45% one) use the random floor, so
 * their ratio shows the 0/1 split's gain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#include "cuzk/cuda_msm.h"
#include "cuzk/cuda_ntt.h"
#endif

#define MAX_LOGS 16

typedef struct cuda_bench_opts {
    unsigned logs[MAX_LOGS];
    int n_logs, repeats, g2, witness;
} cuda_bench_opts_t;

static int parse(cuda_bench_opts_t *o, const char *what, int argc, char **argv, int msm)
{
    memset(o, 0, sizeof *o);
    o->repeats = 5;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--log") && v && o->n_logs < MAX_LOGS) {
            long k = strtol(v, &end, 10);
            if (*end || k < 0 || k > (msm ? 30 : 27))
                goto bad;
            o->logs[o->n_logs++] = (unsigned)k;
            i++;
        } else if (!strcmp(a, "--repeats") && v) {
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 1000)
                goto bad;
            o->repeats = (int)r;
            i++;
        } else if (msm && !strcmp(a, "--g2")) {
            o->g2 = 1;
        } else if (msm && !strcmp(a, "--scalars") && v) {
            if (!strcmp(v, "witness"))
                o->witness = 1;
            else if (strcmp(v, "random"))
                goto bad;
            i++;
        } else {
            goto bad;
        }
        continue;
    bad:
        fprintf(stderr,
                "cuzk bench %s --device cuda: bad option '%s'\n"
                "usage: cuzk bench %s --device cuda [--log K]... [--repeats R]%s\n",
                what, a, what, msm ? " [--g2] [--scalars random|witness]" : "");
        return 2;
    }
    if (o->n_logs == 0) {
        unsigned def_ntt[] = {16, 20, 24, 27}, def_msm[] = {16, 20, 24};
        unsigned *d = msm ? def_msm : def_ntt;
        int nd = msm ? 3 : 4;
        for (int i = 0; i < nd; i++)
            o->logs[o->n_logs++] = d[i];
    }
    return 0;
}

#ifdef CUZK_HAVE_CUDA
static double ntt_floor_ms(unsigned log)
{
    double n = (double)((size_t)1 << log);
    return 27.5 * (n * log) / ((double)(1u << 27) * 27.0);
}

static double msm_floor_ms(unsigned log, int g2)
{
    return 250.0 * (double)((size_t)1 << log) / (double)(1u << 26) * (g2 ? 3.0 : 1.0);
}

static int device_line(char *dev, size_t len)
{
    cuzk_error_t err = {0};
    if (cuzk_cuda_device_describe(dev, len, 0, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench: %s\n", err.msg);
        return 0;
    }
    return 1;
}
#endif

int bench_cuda_ntt(int argc, char **argv)
{
    cuda_bench_opts_t o;
    int rc = parse(&o, "ntt", argc, argv, 0);
    if (rc)
        return rc;
#ifndef CUZK_HAVE_CUDA
    fprintf(stderr, "cuzk bench ntt: this build has no CUDA backend\n");
    return 2;
#else
    char dev[128];
    if (!device_line(dev, sizeof dev))
        return 2;
    double med[MAX_LOGS];
    for (int i = 0; i < o.n_logs; i++) {
        cuzk_error_t err = {0};
        if (cuzk_cuda_ntt_bench(&med[i], o.logs[i], o.repeats, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench ntt: 2^%u: %s\n", o.logs[i], err.msg);
            return 2;
        }
        printf("{\"bench\":\"ntt\",\"device\":\"cuda\",\"gpu\":\"%s\",\"log\":%u,\"repeats\":%d,"
               "\"ms_median\":%.3f,\"floor_ms\":%.3f,\"ratio\":%.2f}\n",
               dev, o.logs[i], o.repeats, med[i], ntt_floor_ms(o.logs[i]),
               med[i] / ntt_floor_ms(o.logs[i]));
        fflush(stdout);
    }
    printf("\nNTT (forward, Fr) on %s\n%6s %12s %12s %8s\n", dev, "size", "median ms", "floor ms",
           "ratio");
    for (int i = 0; i < o.n_logs; i++)
        printf("  2^%-3u %12.3f %12.3f %8.2f\n", o.logs[i], med[i], ntt_floor_ms(o.logs[i]),
               med[i] / ntt_floor_ms(o.logs[i]));
    return 0;
#endif
}

int bench_cuda_msm(int argc, char **argv)
{
    cuda_bench_opts_t o;
    int rc = parse(&o, "msm", argc, argv, 1);
    if (rc)
        return rc;
#ifndef CUZK_HAVE_CUDA
    fprintf(stderr, "cuzk bench msm: this build has no CUDA backend\n");
    return 2;
#else
    char dev[128];
    if (!device_line(dev, sizeof dev))
        return 2;
    cuzk_cuda_msm_bench_t res[MAX_LOGS];
    const char *group = o.g2 ? "G2" : "G1", *sc = o.witness ? "witness" : "random";
    for (int i = 0; i < o.n_logs; i++) {
        cuzk_error_t err = {0};
        size_t n = (size_t)1 << o.logs[i];
        if (cuzk_cuda_msm_bench(&res[i], o.g2, n,
                                o.witness ? CUZK_CUDA_MSM_WITNESS : CUZK_CUDA_MSM_RANDOM, o.repeats,
                                &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench msm: 2^%u: %s\n", o.logs[i], err.msg);
            return 2;
        }
        double fl = msm_floor_ms(o.logs[i], o.g2);
        printf("{\"bench\":\"msm\",\"device\":\"cuda\",\"gpu\":\"%s\",\"group\":\"%s\","
               "\"log\":%u,\"scalars\":\"%s\",\"repeats\":%d,\"window_bits\":%u,"
               "\"ms_min\":%.3f,\"ms_median\":%.3f,\"ms_max\":%.3f,\"floor_ms\":%.3f,"
               "\"ratio\":%.2f,\"plan_bytes\":%zu,\"bases_bytes\":%zu}\n",
               dev, group, o.logs[i], sc, o.repeats, res[i].window_bits, res[i].ms_min,
               res[i].ms_median, res[i].ms_max, fl, res[i].ms_median / fl, res[i].plan_bytes,
               res[i].bases_bytes);
        fflush(stdout);
    }
    printf("\nMSM %s, %s scalars, on %s\n%6s %4s %12s %12s %8s %10s\n", group, sc, dev, "size", "c",
           "median ms", "floor ms", "ratio", "VRAM MiB");
    for (int i = 0; i < o.n_logs; i++) {
        double fl = msm_floor_ms(o.logs[i], o.g2);
        printf("  2^%-3u %4u %12.3f %12.3f %8.2f %10.0f\n", o.logs[i], res[i].window_bits,
               res[i].ms_median, fl, res[i].ms_median / fl,
               (double)(res[i].plan_bytes + res[i].bases_bytes) / 1048576.0);
    }
    return 0;
#endif
}
