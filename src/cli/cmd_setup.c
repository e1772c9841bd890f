/* `cuzk setup`: the insecure test setup (known toxic waste from a seed), so
 * tests can prove circuits of any size without a powers-of-tau ceremony. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/key_load.h"
#include "cuzk/key_write.h"
#include "cuzk/setup.h"
#include "cuzk/snarkjs_json.h"

static const char USAGE[] =
    "usage: cuzk setup --format zkey|bellperson [--seed N] [--threads N]\n"
    "                  [--vk out.vk] [--vkey-json out.json] <circuit.r1cs> <out-key>\n"
    "INSECURE: the toxic waste follows from the seed. For tests only.\n";

int cmd_setup(int argc, char **argv)
{
    int conv = -1, threads = 0;
    uint64_t seed = 1;
    const char *vk_out = NULL, *vkey_json = NULL, *pos[2];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--format") && val) {
            i++;
            conv = !strcmp(val, "bellperson")                          ? GROTH16_BELLPERSON
                   : (!strcmp(val, "zkey") || !strcmp(val, "snarkjs")) ? GROTH16_SNARKJS
                                                                       : -2;
        } else if (!strcmp(o, "--seed") && val) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(o, "--threads") && val) {
            threads = atoi(argv[++i]);
        } else if (!strcmp(o, "--vk") && val) {
            vk_out = argv[++i];
        } else if (!strcmp(o, "--vkey-json") && val) {
            vkey_json = argv[++i];
        } else if (o[0] != '-' && npos < 2) {
            pos[npos++] = o;
        } else {
            fputs(USAGE, stderr);
            return CLI_USAGE;
        }
    }
    if (conv < 0 || npos != 2) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    fprintf(stderr,
            "cuzk setup: WARNING: insecure test setup (toxic waste from seed %llu); "
            "for tests only\n",
            (unsigned long long)seed);
    cuzk_error_t err = {0};
    r1cs_t r;
    circuit_t c = {0};
    groth16_key_t k = {0};
    int rc = CLI_USAGE;
    double t0 = cli_now();
    if (r1cs_read(&r, pos[0], &err) != CUZK_OK)
        return cli_fail("setup", pos[0], &err);
    if (circuit_from_r1cs(&c, &r, &err) != CUZK_OK) {
        rc = cli_fail("setup", pos[0], &err);
        goto out;
    }
    if (groth16_setup(&k, &c, (groth16_convention)conv, seed, threads, &err) != CUZK_OK) {
        rc = cli_fail("setup", pos[0], &err);
        goto out;
    }
    cuzk_status st = conv == GROTH16_SNARKJS ? zkey_write_file(pos[1], &k, &err)
                                             : bellperson_params_write_file(pos[1], &k, &err);
    if (st != CUZK_OK) {
        rc = cli_fail("setup", pos[1], &err);
        goto out;
    }
    if (vk_out && bellperson_vk_write_file(vk_out, &k.vk, &err) != CUZK_OK) {
        rc = cli_fail("setup", vk_out, &err);
        goto out;
    }
    if (vkey_json && snarkjs_vk_write(vkey_json, &k.vk, &err) != CUZK_OK) {
        rc = cli_fail("setup", vkey_json, &err);
        goto out;
    }
    fprintf(stderr, "cuzk setup: %u constraints, %u wires, domain 2^%u -> %s in %.2f s\n",
            r.n_constraints, r.n_wires, k.log_m, pos[1], cli_now() - t0);
    rc = CLI_OK;
out:
    groth16_key_free(&k);
    circuit_free(&c);
    r1cs_free(&r);
    return rc;
}
