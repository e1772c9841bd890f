/* `cuzk bench msm` (placeholder until the CPU MSM lands). */
#include <stdio.h>

#include "cli.h"

int bench_msm(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk bench msm: not built yet\n");
    return 2;
}
