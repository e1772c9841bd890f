/* `cuzk bench field --device cuda`: the Fp multiplication's throughput on
 * the GPU by pipe: 32-bit IMADs (dfp_mul), FP64 FMAs (dfp_mul_f64), and
 * one chain of each a thread, the case for splitting an MSM's
 * multiplications between the pipes (issue 22). One full wave, medians of
 * three launches; the IMAD model (../shared/DESIGN.md §6: ~588 IMADs a
 * multiplication at 64 a clock an SM) is 9.19 SM clocks a multiplication.
 *
 *   cuzk bench field --device cuda [--iters N]
 *
 * One JSON line per method, then a table. Exit 0; 1 when the two pipes'
 * chains disagree (a wrong FP64 multiplication); 2 for bad options, no
 * GPU or a failed run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#include "cuzk/cuda_selftest.h"
#endif

#define IMAD_MODEL_CLK (588.0 / 64.0)

int bench_cuda_field(int argc, char **argv)
{
    long iters = 2000;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = strtol(argv[++i], &end, 10);
            if (*end || iters < 1 || iters > 1000000) {
                fprintf(stderr, "cuzk bench field --device cuda: --iters takes 1..1000000\n");
                return 2;
            }
        } else {
            fprintf(stderr,
                    "cuzk bench field --device cuda: bad option '%s'\n"
                    "usage: cuzk bench field --device cuda [--iters N]\n",
                    argv[i]);
            return 2;
        }
    }
#ifndef CUZK_HAVE_CUDA
    fprintf(stderr, "cuzk bench field: this build has no CUDA backend\n");
    return 2;
#else
    static const char *const NAMES[CUZK_CUDA_FP_METHOD_COUNT] = {"imad", "imad x2", "f64", "f64 x2",
                                                                 "imad + f64"};
    char dev[128];
    cuzk_error_t err = {0};
    if (cuzk_cuda_device_describe(dev, sizeof dev, 0, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench field: %s\n", err.msg);
        return 2;
    }
    cuzk_cuda_fp_rate_t r[CUZK_CUDA_FP_METHOD_COUNT];
    int bad = 0;
    for (int m = 0; m < CUZK_CUDA_FP_METHOD_COUNT; m++) {
        if (cuzk_cuda_fp_rate(&r[m], (cuzk_cuda_fp_method)m, (int)iters, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench field: %s: %s\n", NAMES[m], err.msg);
            return 2;
        }
        bad |= r[m].mismatches != 0;
        printf("{\"bench\":\"fp_mul\",\"device\":\"cuda\",\"gpu\":\"%s\",\"method\":\"%s\","
               "\"iters\":%ld,\"ms\":%.3f,\"muls\":%.0f,\"ns_per_mul\":%.5f,"
               "\"clk_per_mul_sm\":%.3f,\"imad_model_clk\":%.3f,\"regs\":%d,"
               "\"blocks_per_sm\":%d,\"mismatches\":%d}\n",
               dev, NAMES[m], iters, r[m].ms, r[m].muls, r[m].ns_per_mul, r[m].clk_per_mul_sm,
               IMAD_MODEL_CLK, r[m].regs, r[m].blocks_per_sm, r[m].mismatches);
        fflush(stdout);
    }
    printf("\nFp multiplication throughput on %s (one wave, blocks of 128; IMAD model %.2f "
           "SM clocks a multiplication)\n%-12s %6s %8s %12s %14s %10s %10s\n",
           dev, IMAD_MODEL_CLK, "method", "regs", "blocks", "ns/mul", "clk/mul/SM", "vs imad",
           "mismatch");
    for (int m = 0; m < CUZK_CUDA_FP_METHOD_COUNT; m++)
        printf("%-12s %6d %8d %12.5f %14.3f %10.2f %10d\n", NAMES[m], r[m].regs, r[m].blocks_per_sm,
               r[m].ns_per_mul, r[m].clk_per_mul_sm, r[0].ns_per_mul / r[m].ns_per_mul,
               r[m].mismatches);
    if (bad)
        fprintf(stderr, "cuzk bench field: the IMAD and FP64 chains disagree\n");
    return bad ? 1 : 0;
#endif
}
