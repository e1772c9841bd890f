/* cuzk command-line entry point: dispatches to one command per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk <command> [args]\n"
            "commands:\n"
            "  demo            setup, prove and verify a built-in circuit (both key formats)\n"
            "  prove           make a Groth16 proof (snarkjs zkey or bellperson params)\n"
            "  verify          check proofs (snarkjs JSON or bellperson .vk + proofs)\n"
            "  setup           INSECURE test setup: a key with known toxic waste\n"
            "  export-vkey     verification_key.json from a zkey\n"
            "  info            what a .r1cs, .wtns, .zkey, .ccs, .params or .vk file holds\n"
            "  gen-circuit     a synthetic PoRep-shaped circuit and its witnesses\n"
            "  timeline        a Gantt chart (SVG) of an engine event log\n"
            "  daemon          the proving daemon: cuzk.v1 gRPC until SIGINT/SIGTERM (--config)\n"
            "  submit          queue a proof on a running daemon (--wait: and await it)\n"
            "  await           wait for a daemon job; write its proof\n"
            "  status          the daemon's devices, keys and queues (--json)\n"
            "  cancel          cancel a daemon job\n"
            "  preload, evict  load a key onto the daemon's devices, or drop it\n"
            "  filecoin        Filecoin's circuits: info (sizes, densities, fingerprint),\n"
            "                  circuit (the precompiled .ccs)\n"
            "  bench           benchmarks: field, ntt, msm, prove, engine, porep; single, batch,\n"
            "                  stress against a daemon (JSON lines + table)\n"
            "  help            this text\n"
            "Run a command without arguments for its usage.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"demo", cmd_demo},
                {"bench", cmd_bench},
                {"prove", cmd_prove},
                {"verify", cmd_verify},
                {"setup", cmd_setup},
                {"info", cmd_info},
                {"export-vkey", cmd_export_vkey},
                {"gen-circuit", cmd_gen_circuit},
                {"timeline", cmd_timeline},
                {"submit", cmd_submit},
                {"await", cmd_await},
                {"status", cmd_status},
                {"cancel", cmd_cancel},
                {"preload", cmd_preload},
                {"evict", cmd_evict},
                {"daemon", cmd_daemon},
                {"filecoin", cmd_filecoin}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(cmd, cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cuzk: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
