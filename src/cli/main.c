/* cuzk command-line entry point: dispatches to one command per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk <command> [args]\n"
            "commands:\n"
            "  demo            self-check of the BLS12-381 arithmetic (pairing, encodings)\n"
            "  bench field     field, curve and pairing microbenchmarks (JSON lines + table)\n"
            "  help            this text\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "demo"))
        return cmd_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cuzk: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
