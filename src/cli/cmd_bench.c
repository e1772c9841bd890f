/* `cuzk bench <what>`: dispatch to one benchmark per file. Benchmarks print
 * JSON lines (one per measured figure), then a table. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct bench_entry {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} bench_entry_t;

static const bench_entry_t BENCHES[] = {
    {"field", bench_field, "field, curve and pairing microbenchmarks [--quick]"},
    {"ntt", bench_ntt, "CPU NTT over Fr"},
    {"msm", bench_msm, "CPU multi-scalar multiplication"},
};

int cmd_bench(int argc, char **argv)
{
    size_t n = sizeof BENCHES / sizeof BENCHES[0];
    if (argc >= 2)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(argv[1], BENCHES[i].name))
                return BENCHES[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "usage: cuzk bench <what> [options]\n");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  %-8s %s\n", BENCHES[i].name, BENCHES[i].help);
    return 2;
}
