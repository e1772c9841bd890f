/* `cuzk prove`: snarkjs zkeys (rapidsnark's argument order) and bellperson
 * params with a circom circuit. Every proof is verified before it is written
 * unless --no-verify; a witness that breaks a constraint is reported with
 * the constraint's index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/key_load.h"
#include "cuzk/prover.h"
#include "cuzk/snarkjs_json.h"
#include "cuzk/wtns.h"

static const char USAGE[] =
    "usage: cuzk prove [options] <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n"
    "       cuzk prove --format bellperson [options] <key.params> <circuit.r1cs>\n"
    "                  <witness.wtns>... <proofs.bin>\n"
    "options: --r DEC --s DEC   fixed blinding (tests only; default: random)\n"
    "         --r1cs FILE       (zkey) check the witness against the circuit first\n"
    "         --threads N       CPU threads (default: all)\n"
    "         --device cpu|cuda backend (default: cuda when a GPU is present)\n"
    "         --vram-budget SIZE  GPU memory the prover may hold, e.g. 16GiB\n"
    "                           (default: the device's free memory)\n"
    "         --no-verify       skip the check of each proof (benchmarks only)\n"
    "         --timings         print per-stage times on stderr\n";

typedef struct prove_args {
    int bellperson;
    int have_r, have_s, threads, no_verify, timings;
    fr_t r, s;
    const char *r1cs;
    device_kind device; /* resolved */
    size_t vram_budget;
    const char *pos[64];
    int npos;
} prove_args_t;

static int parse_args(prove_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        cuzk_error_t err = {0};
        if (!strcmp(o, "--format") && val) {
            i++;
            if (!strcmp(val, "bellperson"))
                a->bellperson = 1;
            else if (strcmp(val, "zkey") && strcmp(val, "snarkjs")) {
                fprintf(stderr, "cuzk prove: unknown format '%s'\n", val);
                return 0;
            }
        } else if ((!strcmp(o, "--r") || !strcmp(o, "--s")) && val) {
            i++;
            fr_t *dst = o[2] == 'r' ? &a->r : &a->s;
            if (cli_parse_fr(dst, val, strlen(val), &err) != CUZK_OK) {
                cli_fail("prove", o, &err);
                return 0;
            }
            *(o[2] == 'r' ? &a->have_r : &a->have_s) = 1;
        } else if (!strcmp(o, "--r1cs") && val) {
            a->r1cs = argv[++i];
        } else if (!strcmp(o, "--threads") && val) {
            a->threads = atoi(argv[++i]);
        } else if (!strcmp(o, "--device") && val) {
            i++;
            if (!cli_device_arg(&a->device, "prove", val))
                return 0;
        } else if (!strcmp(o, "--vram-budget") && val) {
            i++;
            if (cli_parse_bytes(&a->vram_budget, val, &err) != CUZK_OK) {
                cli_fail("prove", o, &err);
                return 0;
            }
        } else if (!strcmp(o, "--no-verify")) {
            a->no_verify = 1;
        } else if (!strcmp(o, "--timings")) {
            a->timings = 1;
        } else if (o[0] == '-' && o[1] == '-') {
            fprintf(stderr, "cuzk prove: unknown option '%s'\n", o);
            return 0;
        } else if (a->npos < 64) {
            a->pos[a->npos++] = o;
        } else {
            fprintf(stderr, "cuzk prove: too many arguments\n");
            return 0;
        }
    }
    return 1;
}

/* r, s: fixed, or fresh randomness from getrandom (fr_random). */
static int blinding(prove_args_t *a)
{
    cuzk_error_t err = {0};
    if ((!a->have_r && fr_random(&a->r, &err) != CUZK_OK) ||
        (!a->have_s && fr_random(&a->s, &err) != CUZK_OK)) {
        cli_fail("prove", "randomness", &err);
        return 0;
    }
    return 1;
}

static void print_timings(const struct groth16_timings *t, const char *label, const char *dev)
{
    fprintf(stderr,
            "cuzk prove %s(%s): key to device %.3f s, upload %.3f s, H %.3f s, MSM A %.3f s, "
            "B %.3f s, L %.3f s, H %.3f s, verify %.3f s, total %.3f s\n",
            label, dev, t->parts.s[PROVE_LOAD], t->parts.s[PROVE_UPLOAD], t->parts.s[PROVE_H],
            t->parts.s[PROVE_MSM_A], t->parts.s[PROVE_MSM_B], t->parts.s[PROVE_MSM_L],
            t->parts.s[PROVE_MSM_H], t->verify, t->total);
}

static int prove_zkey(prove_args_t *a)
{
    if (a->npos != 4) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    const char *zk = a->pos[0], *wt = a->pos[1], *out_proof = a->pos[2], *out_pub = a->pos[3];
    cuzk_error_t err = {0};
    zkey_t z;
    wtns_t w = {0};
    circuit_t c = {0};
    groth16_pk_t pk = {0};
    cli_backend_t be = {0};
    int rc = CLI_USAGE;
    double t0 = cli_now();
    if (zkey_open(&z, zk, ZKEY_CHECK_HEADER, a->threads, &err) != CUZK_OK)
        return cli_fail("prove", zk, &err);
    if (wtns_read(&w, wt, a->threads, &err) != CUZK_OK) {
        rc = cli_fail("prove", wt, &err);
        goto out;
    }
    if (w.n != z.n_vars) {
        fprintf(stderr, "cuzk prove: %s: witness has %u values, the key expects %u\n", wt, w.n,
                z.n_vars);
        goto out;
    }
    if (a->r1cs) {
        r1cs_t r;
        int64_t bad = -1;
        if (r1cs_read(&r, a->r1cs, &err) != CUZK_OK) {
            rc = cli_fail("prove", a->r1cs, &err);
            goto out;
        }
        cuzk_status st = r1cs_check_witness(&bad, &r, w.w, w.n, a->threads, &err);
        r1cs_free(&r);
        if (st != CUZK_OK) {
            rc = cli_fail("prove", wt, &err);
            goto out;
        }
        if (bad >= 0) {
            fprintf(stderr, "cuzk prove: %s: the witness does not satisfy constraint %lld of %s\n",
                    wt, (long long)bad, a->r1cs);
            goto out;
        }
    }
    if (circuit_from_zkey(&c, &z, &err) != CUZK_OK ||
        groth16_pk_from_zkey(&pk, &z, &err) != CUZK_OK) {
        rc = cli_fail("prove", zk, &err);
        goto out;
    }
    double t_load = cli_now() - t0;
    if (!blinding(a))
        goto out;
    struct groth16_timings tm;
    groth16_prove_opts_t opts = {a->threads, a->no_verify, &tm};
    groth16_proof_t proof;
    if (cli_backend_open(&be, a->device, a->vram_budget, &err) != CUZK_OK) {
        rc = cli_fail("prove", "--device", &err);
        goto out;
    }
    if (groth16_prove(&proof, &pk, &c, w.w, &a->r, &a->s, be.be, &opts, &err) != CUZK_OK) {
        rc = cli_fail("prove", wt, &err);
        goto out;
    }
    if (snarkjs_proof_write(out_proof, &proof, &err) != CUZK_OK ||
        snarkjs_public_write(out_pub, &w.w[1], z.n_public, &err) != CUZK_OK) {
        rc = cli_fail("prove", "output", &err);
        goto out;
    }
    if (a->timings) {
        fprintf(stderr, "cuzk prove: load %.3f s\n", t_load);
        print_timings(&tm, "", be.be->name);
    }
    rc = CLI_OK;
out:
    cli_backend_close(&be);
    groth16_pk_release(&pk);
    circuit_free(&c);
    wtns_free(&w);
    zkey_close(&z);
    return rc;
}

static int write_file(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cuzk prove: cannot write %s\n", path);
        if (f)
            fclose(f);
        remove(path);
        return 0;
    }
    return 1;
}

static int prove_bellperson(prove_args_t *a)
{
    if (a->npos < 4) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    const char *params = a->pos[0], *r1 = a->pos[1], *out = a->pos[a->npos - 1];
    int k = a->npos - 3;
    cuzk_error_t err = {0};
    bellperson_params_t p;
    r1cs_t r = {0};
    circuit_t c = {0};
    groth16_pk_t pk = {0};
    cli_backend_t be = {0};
    groth16_proof_t *proofs = calloc((size_t)k, sizeof *proofs);
    uint8_t *bytes = calloc((size_t)k, BELLPERSON_PROOF_BYTES);
    int rc = CLI_USAGE;
    if (!proofs || !bytes) {
        fprintf(stderr, "cuzk prove: out of memory\n");
        free(proofs);
        free(bytes);
        return CLI_USAGE;
    }
    if (bellperson_params_open(&p, params, BELLPERSON_CHECK_KEY, a->threads, &err) != CUZK_OK) {
        free(proofs);
        free(bytes);
        return cli_fail("prove", params, &err);
    }
    if (r1cs_read(&r, r1, &err) != CUZK_OK || circuit_from_r1cs(&c, &r, &err) != CUZK_OK) {
        rc = cli_fail("prove", r1, &err);
        goto out;
    }
    if (groth16_pk_from_params(&pk, &p, c.n_vars, &err) != CUZK_OK) {
        rc = cli_fail("prove", params, &err);
        goto out;
    }
    if (cli_backend_open(&be, a->device, a->vram_budget, &err) != CUZK_OK) {
        rc = cli_fail("prove", "--device", &err);
        goto out;
    }
    for (int i = 0; i < k; i++) {
        const char *wt = a->pos[2 + i];
        wtns_t w = {0};
        int64_t bad = -1;
        if (wtns_read(&w, wt, a->threads, &err) != CUZK_OK) {
            rc = cli_fail("prove", wt, &err);
            goto out;
        }
        if (r1cs_check_witness(&bad, &r, w.w, w.n, a->threads, &err) != CUZK_OK) {
            wtns_free(&w);
            rc = cli_fail("prove", wt, &err);
            goto out;
        }
        if (bad >= 0) {
            fprintf(stderr, "cuzk prove: %s: the witness does not satisfy constraint %lld of %s\n",
                    wt, (long long)bad, r1);
            wtns_free(&w);
            goto out;
        }
        struct groth16_timings tm;
        groth16_prove_opts_t opts = {a->threads, a->no_verify, &tm};
        cuzk_status st =
            blinding(a) ? groth16_prove(&proofs[i], &pk, &c, w.w, &a->r, &a->s, be.be, &opts, &err)
                        : CUZK_ERR_ARG;
        wtns_free(&w);
        if (st != CUZK_OK) {
            rc = err.msg[0] ? cli_fail("prove", wt, &err) : CLI_USAGE;
            goto out;
        }
        if (a->timings)
            print_timings(&tm, wt, be.be->name);
    }
    bellperson_proofs_write(bytes, proofs, (size_t)k);
    if (write_file(out, bytes, (size_t)k * BELLPERSON_PROOF_BYTES))
        rc = CLI_OK;
out:
    cli_backend_close(&be);
    groth16_pk_release(&pk);
    circuit_free(&c);
    r1cs_free(&r);
    bellperson_params_close(&p);
    free(proofs);
    free(bytes);
    return rc;
}

int cmd_prove(int argc, char **argv)
{
    prove_args_t a;
    if (!parse_args(&a, argc, argv)) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    return a.bellperson ? prove_bellperson(&a) : prove_zkey(&a);
}
