/* `cuzk bench <what>`: dispatch to one benchmark per file. Benchmarks print
 * JSON lines (one per measured figure), then a table. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cuzk/device.h"

typedef struct bench_entry {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} bench_entry_t;

static const bench_entry_t BENCHES[] = {
    {"field", bench_field, "field, curve and pairing microbenchmarks [--quick]"},
    {"ntt", bench_ntt, "NTT over Fr [--device cpu|cuda]"},
    {"msm", bench_msm, "multi-scalar multiplication [--device cpu|cuda]"},
    {"pack", bench_pack, "packing and expanding witness vectors (fr_pack) [--scalars MIX]"},
    {"prove", bench_prove, "Groth16 prove of a random circuit [--device cpu|cuda]"},
    {"engine", bench_engine, "jobs through the proving engine, 1 vs 2 workers [--device cpu|cuda]"},
    {"porep", bench_porep,
     "PoRep-shaped proofs through the engine [--log-domain K] [--device ...]"},
    {"filecoin", bench_filecoin,
     "real Filecoin proofs on sealed sectors through the engine --kind K --sector-size S ..."},
    {"single", bench_client, "sequential Prove calls to a running daemon [--addr A] [--n N]"},
    {"batch", bench_client, "N submits at once to a daemon, then await all (throughput)"},
    {"stress", bench_client, "C client threads submitting/awaiting/cancelling for --seconds S"},
};

/* The CUDA variants of the benchmarks that have one. */
static const bench_entry_t CUDA_BENCHES[] = {
    {"ntt", bench_cuda_ntt, NULL},
    {"msm", bench_cuda_msm, NULL},
    {"field", bench_cuda_field, NULL},
};

/* Takes "--device D" out of argv (its kind in *device; absent: AUTO, which
 * these micro-benchmarks run on the CPU). 0 when malformed. */
static int take_device(int *argc, char **argv, device_kind *device)
{
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--device"))
            continue;
        cuzk_error_t err = {0};
        if (i + 1 >= *argc || device_kind_parse(device, argv[i + 1], &err) != CUZK_OK ||
            *device == DEVICE_AUTO) {
            fprintf(stderr, "cuzk bench: --device takes cpu or cuda\n");
            return 0;
        }
        for (int j = i; j + 2 <= *argc; j++)
            argv[j] = argv[j + 2];
        *argc -= 2;
        return 1;
    }
    return 1;
}

int cmd_bench(int argc, char **argv)
{
    size_t n = sizeof BENCHES / sizeof BENCHES[0];
    device_kind device = DEVICE_AUTO;
    /* prove, engine, porep and filecoin take --device themselves */
    if (argc >= 2 && strcmp(argv[1], "prove") && strcmp(argv[1], "engine") &&
        strcmp(argv[1], "porep") && strcmp(argv[1], "filecoin")) {
        if (!take_device(&argc, argv, &device))
            return 2;
        if (device == DEVICE_CUDA) {
            for (size_t i = 0; i < sizeof CUDA_BENCHES / sizeof *CUDA_BENCHES; i++)
                if (!strcmp(argv[1], CUDA_BENCHES[i].name))
                    return CUDA_BENCHES[i].fn(argc - 1, argv + 1);
            fprintf(stderr, "cuzk bench %s: no CUDA variant\n", argv[1]);
            return 2;
        }
    }
    if (argc >= 2)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(argv[1], BENCHES[i].name))
                return BENCHES[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "usage: cuzk bench <what> [options]\n");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  %-8s %s\n", BENCHES[i].name, BENCHES[i].help);
    return 2;
}
