/* `cuzk bench prove [--log K] [--format bellperson|zkey] [--device cpu|cuda]
 * [--vram-budget SIZE]... [--repeats R] [--check] [--threads T]`: the whole
 * prover on a random satisfiable circuit of 2^K rows with a test key
 * (INSECURE setup, made in memory), witness in host memory. Reports the
 * median prove time after a warm-up (which also makes the key and circuit
 * resident on a GPU) and the per-stage split of the median run, once per
 * --vram-budget given (one setup for all: at 2^24 it is the slow part).
 * --check also proves on the CPU with the same r, s and requires
 * byte-identical proofs. The circuit is cli_circuit.h's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_circuit.h"
#include "cli_util.h"
#include "cuzk/backend_cpu.h"
#include "cuzk/encode.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"

/* The proofs' 192-byte encodings, to compare backends byte for byte. */
static void proof_bytes(uint8_t out[192], const groth16_proof_t *p)
{
    g1_compress(out, &p->a);
    g2_compress(out + 48, &p->b);
    g1_compress(out + 144, &p->c);
}

#define MAX_BUDGETS 4

typedef struct bench_setup {
    unsigned log_m;
    int repeats, threads;
    groth16_convention conv;
    const groth16_pk_t *pk;
    const circuit_t *c;
    const fr_t *w, *r, *s;
    const uint8_t *ref; /* the CPU proof's bytes, or NULL */
} bench_setup_t;

/* Warm-up, then `repeats` timed proofs on one backend (one budget);
 * prints its JSON line and table. Returns the exit code. */
static int bench_one(const bench_setup_t *B, device_kind device, size_t budget)
{
    cuzk_error_t err = {0};
    cli_backend_t be = {0};
    double times[100];
    struct groth16_timings tms[100];
    int rc = 2;
    if (cli_backend_open(&be, device, budget, &err) != CUZK_OK)
        return cli_fail("bench prove", "--device", &err);
    groth16_proof_t proof;
    double t_load = 0;
    for (int k = -1; k < B->repeats; k++) { /* k = -1: warm-up (uploads, plans) */
        struct groth16_timings tm;
        groth16_prove_opts_t opts = {B->threads, 0, &tm};
        if (groth16_prove(&proof, B->pk, B->c, B->w, B->r, B->s, be.be, &opts, &err) != CUZK_OK) {
            rc = cli_fail("bench prove", be.be->name, &err);
            goto out;
        }
        if (k >= 0) {
            times[k] = tm.total;
            tms[k] = tm;
        } else {
            t_load = tm.parts.s[PROVE_LOAD];
        }
    }
    if (B->ref) {
        uint8_t x[192];
        proof_bytes(x, &proof);
        if (memcmp(x, B->ref, sizeof x)) {
            fprintf(stderr, "cuzk bench prove: the %s proof (budget %zu) differs from the CPU's\n",
                    be.be->name, budget);
            rc = 1;
            goto out;
        }
        fprintf(stderr, "cuzk bench prove: %s proof (budget %zu) byte-identical to the CPU's\n",
                be.be->name, budget);
    }
    double sorted[100];
    memcpy(sorted, times, (size_t)B->repeats * sizeof *times);
    qsort(sorted, (size_t)B->repeats, sizeof *sorted, cli_cmp_double);
    double med = sorted[B->repeats / 2];
    int mi = 0;
    for (int k = 0; k < B->repeats; k++)
        if (times[k] == med)
            mi = k;
    const struct groth16_timings *t = &tms[mi];
#define P(part) t->parts.s[PROVE_##part]
    const char *fmt = B->conv == GROTH16_SNARKJS ? "zkey" : "bellperson";
    printf("{\"bench\":\"prove\",\"device\":\"%s\",\"format\":\"%s\",\"log\":%u,\"vars\":%u,"
           "\"repeats\":%d,\"vram_budget\":%zu,\"key_load_s\":%.3f,\"s_median\":%.4f,"
           "\"s_min\":%.4f,\"s_max\":%.4f,\"upload\":%.4f,\"h\":%.4f,\"msm_a\":%.4f,"
           "\"msm_b\":%.4f,\"msm_l\":%.4f,\"msm_h\":%.4f,\"verify\":%.4f,\"checked\":%s}\n",
           be.be->name, fmt, B->log_m, B->c->n_vars, B->repeats, budget, t_load, med, sorted[0],
           sorted[B->repeats - 1], P(UPLOAD), P(H), P(MSM_A), P(MSM_B), P(MSM_L), P(MSM_H),
           t->verify, B->ref ? "true" : "false");
    printf("\nprove 2^%u (%s, %s, budget %s%zu MiB): key to device %.3f s once; median %.4f s "
           "over %d runs\n"
           "  upload %.4f  H %.4f  MSM A %.4f  B %.4f  L %.4f  H %.4f  verify %.4f  (s)\n",
           B->log_m, fmt, be.be->name, budget ? "" : "free ", budget >> 20, t_load, med, B->repeats,
           P(UPLOAD), P(H), P(MSM_A), P(MSM_B), P(MSM_L), P(MSM_H), t->verify);
#undef P
    fflush(stdout);
    rc = 0;
out:
    cli_backend_close(&be);
    return rc;
}

int bench_prove(int argc, char **argv)
{
    unsigned log_m = 16;
    int repeats = 5, check = 0, threads = 0, nbudgets = 0;
    device_kind device = DEVICE_AUTO;
    size_t budgets[MAX_BUDGETS] = {0};
    groth16_convention conv = GROTH16_BELLPERSON;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        cuzk_error_t err = {0};
        if (!strcmp(a, "--log") && v) {
            long k = strtol(v, &end, 10);
            if (*end || k < 2 || k > 26)
                goto bad;
            log_m = (unsigned)k;
        } else if (!strcmp(a, "--repeats") && v) {
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 100)
                goto bad;
            repeats = (int)r;
        } else if (!strcmp(a, "--threads") && v) {
            threads = atoi(v);
        } else if (!strcmp(a, "--device") && v) {
            if (!cli_device_arg(&device, "bench prove", v))
                return 2;
        } else if (!strcmp(a, "--vram-budget") && v) {
            if (nbudgets == MAX_BUDGETS) {
                fprintf(stderr, "cuzk bench prove: at most %d --vram-budget values\n", MAX_BUDGETS);
                return 2;
            }
            if (cli_parse_bytes(&budgets[nbudgets++], v, &err) != CUZK_OK)
                return cli_fail("bench prove", a, &err);
        } else if (!strcmp(a, "--format") && v) {
            if (!strcmp(v, "zkey") || !strcmp(v, "snarkjs"))
                conv = GROTH16_SNARKJS;
            else if (strcmp(v, "bellperson"))
                goto bad;
        } else if (!strcmp(a, "--check")) {
            check = 1;
            continue;
        } else {
            goto bad;
        }
        i++;
        continue;
    bad:
        fprintf(stderr,
                "cuzk bench prove: bad option '%s'\nusage: cuzk bench prove [--log K] "
                "[--format bellperson|zkey] [--device cpu|cuda] [--vram-budget SIZE]... "
                "[--repeats R] [--check] [--threads T]\n",
                a);
        return 2;
    }
    if (nbudgets == 0)
        nbudgets = 1; /* budgets[0] = 0: the device's free memory */
    cuzk_error_t err = {0};
    circuit_t c = {0};
    fr_t *w = NULL;
    groth16_key_t key = {0};
    groth16_pk_t pk;
    int rc = 2;
    double t0 = cli_now();
    if (cli_test_circuit(&c, &w, log_m, 0xc0ffee + log_m) != CUZK_OK) {
        fprintf(stderr, "cuzk bench prove: cannot make the circuit (out of memory?)\n");
        goto out;
    }
    double t_circ = cli_now() - t0;
    t0 = cli_now();
    if (groth16_setup(&key, &c, conv, 7, threads, &err) != CUZK_OK) {
        rc = cli_fail("bench prove", "setup", &err);
        goto out;
    }
    groth16_key_pk(&pk, &key);
    double t_setup = cli_now() - t0;
    fprintf(stderr,
            "cuzk bench prove: 2^%u rows, %u variables: circuit %.1f s, setup %.1f s "
            "(INSECURE test key)\n",
            log_m, c.n_vars, t_circ, t_setup);
    fr_t r, s;
    uint64_t rs = 99;
    cli_test_fr(&r, &rs);
    cli_test_fr(&s, &rs);
    uint8_t ref[192];
    if (check) {
        groth16_proof_t p;
        groth16_prove_opts_t opts = {threads, 0, NULL};
        t0 = cli_now();
        if (groth16_prove(&p, &pk, &c, w, &r, &s, &GROTH16_BACKEND_CPU, &opts, &err) != CUZK_OK) {
            rc = cli_fail("bench prove", "cpu reference", &err);
            goto out;
        }
        proof_bytes(ref, &p);
        fprintf(stderr, "cuzk bench prove: CPU reference proof %.1f s\n", cli_now() - t0);
    }
    bench_setup_t B = {log_m, repeats, threads, conv, &pk, &c, w, &r, &s, check ? ref : NULL};
    rc = 0;
    for (int i = 0; i < nbudgets && rc == 0; i++)
        rc = bench_one(&B, device, budgets[i]);
out:
    groth16_key_free(&key);
    circuit_free(&c);
    free(w);
    return rc;
}
