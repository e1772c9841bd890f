/* `cuzk verify`: snarkjs's argument order for JSON files; bellperson .vk with
 * concatenated 192-byte proofs and an inputs file (k >= 2 proofs use the
 * batch check). Exit 0 valid, 1 invalid, 2 bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/groth16.h"
#include "cuzk/snarkjs_json.h"

static const char USAGE[] =
    "usage: cuzk verify <verification_key.json> <public.json> <proof.json>\n"
    "       cuzk verify --format bellperson <key.vk> <proofs.bin> <inputs.txt>\n"
    "inputs.txt: one Fr per line (decimal or 0x big-endian hex); for k proofs the\n"
    "k input lists are concatenated, each of n_ic - 1 values.\n";

static int report(int valid)
{
    printf("%s\n", valid ? "OK" : "INVALID");
    return valid ? CLI_OK : CLI_INVALID;
}

static int verify_snarkjs(const char *vkp, const char *pubp, const char *proofp)
{
    cuzk_error_t err = {0};
    groth16_vk_t vk = {0};
    fr_t *pub = NULL;
    size_t n_pub = 0;
    groth16_proof_t proof;
    int rc;
    if (snarkjs_vk_read(&vk, vkp, &err) != CUZK_OK)
        return cli_fail("verify", vkp, &err);
    if (snarkjs_public_read(&pub, &n_pub, pubp, &err) != CUZK_OK) {
        rc = cli_fail("verify", pubp, &err);
        goto out;
    }
    if (snarkjs_proof_read(&proof, proofp, &err) != CUZK_OK) {
        rc = cli_fail("verify", proofp, &err);
        goto out;
    }
    int valid = 0;
    if (groth16_verify(&valid, &vk, &proof, pub, n_pub, &err) != CUZK_OK) {
        rc = cli_fail("verify", pubp, &err);
        goto out;
    }
    rc = report(valid);
out:
    free(pub);
    groth16_vk_free(&vk);
    return rc;
}

static int verify_bellperson(const char *vkp, const char *proofsp, const char *inputsp)
{
    cuzk_error_t err = {0};
    groth16_vk_t vk = {0};
    fr_t *in = NULL;
    size_t n_in = 0, len = 0;
    groth16_proof_t *proofs = NULL;
    uint8_t *bytes = NULL;
    int rc = CLI_USAGE;
    if (bellperson_vk_load(&vk, vkp, &err) != CUZK_OK)
        return cli_fail("verify", vkp, &err);
    FILE *f = fopen(proofsp, "rb");
    if (f) {
        fseek(f, 0, SEEK_END);
        long sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        if (sz > 0 && sz % BELLPERSON_PROOF_BYTES == 0 && (bytes = malloc((size_t)sz)) &&
            fread(bytes, 1, (size_t)sz, f) == (size_t)sz)
            len = (size_t)sz;
        fclose(f);
    }
    if (!len) {
        fprintf(stderr, "cuzk verify: %s: not a non-empty sequence of %d-byte proofs\n", proofsp,
                BELLPERSON_PROOF_BYTES);
        goto out;
    }
    size_t k = len / BELLPERSON_PROOF_BYTES;
    proofs = malloc(k * sizeof *proofs);
    if (!proofs || bellperson_proofs_read(proofs, k, bytes, len, &err) != CUZK_OK) {
        rc = cli_fail("verify", proofsp, &err);
        goto out;
    }
    if (cli_read_inputs(&in, &n_in, inputsp, &err) != CUZK_OK) {
        rc = cli_fail("verify", inputsp, &err);
        goto out;
    }
    size_t per = vk.n_ic - 1;
    if (n_in != k * per) {
        fprintf(stderr, "cuzk verify: %s: %zu inputs, expected %zu (%zu proofs x %zu)\n", inputsp,
                n_in, k * per, k, per);
        goto out;
    }
    int valid = 0;
    cuzk_status st = k == 1 ? groth16_verify(&valid, &vk, proofs, in, per, &err)
                            : groth16_verify_batch(&valid, &vk, proofs, k, in, &err);
    rc = st == CUZK_OK ? report(valid) : cli_fail("verify", proofsp, &err);
out:
    free(in);
    free(proofs);
    free(bytes);
    groth16_vk_free(&vk);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    if (argc == 4)
        return verify_snarkjs(argv[1], argv[2], argv[3]);
    if (argc == 6 && !strcmp(argv[1], "--format") && !strcmp(argv[2], "bellperson"))
        return verify_bellperson(argv[3], argv[4], argv[5]);
    if (argc == 6 && !strcmp(argv[1], "--format") &&
        (!strcmp(argv[2], "zkey") || !strcmp(argv[2], "snarkjs")))
        return verify_snarkjs(argv[3], argv[4], argv[5]);
    fputs(USAGE, stderr);
    return CLI_USAGE;
}
