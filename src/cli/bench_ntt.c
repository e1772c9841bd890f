/* `cuzk bench ntt` (placeholder until the CPU NTT lands; see bench_msm.c). */
#include <stdio.h>

#include "cli.h"

int bench_ntt(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk bench ntt: not built yet\n");
    return 2;
}
