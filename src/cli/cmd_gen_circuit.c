/* `cuzk gen-circuit`: a synthetic circuit with a real circuit's profile and
 * its partition witnesses (include/cuzk/gen.h), written as
 *   <out>/circuit.ccs          the precompiled circuit (bellperson rows)
 *   <out>/circuit.r1cs         the same constraints for snarkjs (K <= 20)
 *   <out>/witness_<p>.wtns     one witness per partition p
 * The witness is the one witness format cuzk reads, so it is written at
 * every K (32 bytes a value: 4.2 GB per partition at K = 27). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/ccs.h"
#include "cuzk/gen.h"
#include "cuzk/r1cs.h"
#include "cuzk/wtns.h"

#define GEN_R1CS_MAX_LOG 20u

static const char USAGE[] =
    "usage: cuzk gen-circuit --profile porep-32g [--log-domain K] [--seed S]\n"
    "                        [--partitions P] [--threads N] <out-dir>\n"
    "  K from 10 to 27 (default 27), S default 1, P default 10.\n"
    "  Writes circuit.ccs, circuit.r1cs (K <= 20) and witness_<p>.wtns.\n";

typedef struct gen_opts {
    unsigned log_domain;
    uint64_t seed;
    uint32_t partitions;
    int threads;
    const char *out;
} gen_opts_t;

static int parse_opts(gen_opts_t *o, int argc, char **argv)
{
    int profile = 0;
    *o = (gen_opts_t){27, 1, 10, 0, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--profile") && val) {
            profile = !strcmp(argv[++i], "porep-32g") ? 1 : -1;
        } else if (!strcmp(a, "--log-domain") && val) {
            unsigned long k = strtoul(argv[++i], &end, 10);
            if (*end || k < GEN_LOG_DOMAIN_MIN || k > GEN_LOG_DOMAIN_MAX)
                return 0;
            o->log_domain = (unsigned)k;
        } else if (!strcmp(a, "--seed") && val) {
            o->seed = strtoull(argv[++i], &end, 0);
            if (*end)
                return 0;
        } else if (!strcmp(a, "--partitions") && val) {
            unsigned long p = strtoul(argv[++i], &end, 10);
            if (*end || p < 1 || p > 1000)
                return 0;
            o->partitions = (uint32_t)p;
        } else if (!strcmp(a, "--threads") && val) {
            o->threads = atoi(argv[++i]);
        } else if (a[0] != '-' && !o->out) {
            o->out = a;
        } else {
            return 0;
        }
    }
    return profile == 1 && o->out;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 1;
    fprintf(stderr, "cuzk gen-circuit: %s: cannot create: %s\n", path, strerror(errno));
    return 0;
}

static int write_witnesses(const gen_opts_t *o, const gen_shape_t *s, const circuit_t *c)
{
    cuzk_error_t err = {0};
    fr_t *w = malloc((size_t)s->n_vars * sizeof *w);
    if (!w) {
        fprintf(stderr, "cuzk gen-circuit: no memory for a witness of %u values\n", s->n_vars);
        return CLI_USAGE;
    }
    int rc = CLI_OK;
    char path[4096];
    for (uint32_t p = 0; p < o->partitions && rc == CLI_OK; p++) {
        double t0 = cli_now(), t1, t2;
        uint32_t bad = 0;
        snprintf(path, sizeof path, "%s/witness_%u.wtns", o->out, p);
        if (gen_porep_witness(w, s, o->seed, p, o->threads, &err) != CUZK_OK) {
            rc = cli_fail("gen-circuit", "witness", &err);
            break;
        }
        t1 = cli_now();
        /* A generator bug must not reach a benchmark as a failed proof. */
        if (circuit_check(&bad, c, w, o->threads) != CUZK_OK || bad != UINT32_MAX) {
            fprintf(stderr, "cuzk gen-circuit: internal error: witness %u fails row %u\n", p, bad);
            rc = CLI_INVALID;
            break;
        }
        t2 = cli_now();
        if (wtns_write_file(path, w, s->n_vars, &err) != CUZK_OK)
            rc = cli_fail("gen-circuit", path, &err);
        else
            printf("  %s: generated %.2f s, checked %.2f s, written %.2f s\n", path, t1 - t0,
                   t2 - t1, cli_now() - t2);
    }
    free(w);
    return rc;
}

int cmd_gen_circuit(int argc, char **argv)
{
    gen_opts_t o;
    if (!parse_opts(&o, argc, argv)) {
        fputs(USAGE, stderr);
        return CLI_USAGE;
    }
    cuzk_error_t err = {0};
    gen_shape_t s;
    if (gen_porep_shape(&s, o.log_domain, &err) != CUZK_OK)
        return cli_fail("gen-circuit", "shape", &err);
    if (!make_dir(o.out))
        return CLI_USAGE;
    printf("porep-32g at 2^%u: %u constraints, %u public, %u rows, %u variables, seed %llu\n",
           s.log_domain, s.n_constraints, s.n_public, s.n_rows, s.n_vars,
           (unsigned long long)o.seed);
    double t0 = cli_now();
    circuit_t c;
    if (gen_porep_circuit(&c, &s, o.seed, o.threads, &err) != CUZK_OK)
        return cli_fail("gen-circuit", "circuit", &err);
    double t1 = cli_now();
    printf("  circuit: %.2f s, nnz A %llu B %llu C %llu\n", t1 - t0, (unsigned long long)c.m[0].nnz,
           (unsigned long long)c.m[1].nnz, (unsigned long long)c.m[2].nnz);
    char path[4096];
    int rc = CLI_OK;
    snprintf(path, sizeof path, "%s/circuit.ccs", o.out);
    if (ccs_write_file(path, &c, &err) != CUZK_OK)
        rc = cli_fail("gen-circuit", path, &err);
    else
        printf("  %s: %.2f s\n", path, cli_now() - t1);
    if (rc == CLI_OK && s.log_domain <= GEN_R1CS_MAX_LOG) {
        snprintf(path, sizeof path, "%s/circuit.r1cs", o.out);
        if (r1cs_write_circuit(path, &c, s.n_constraints, &err) != CUZK_OK)
            rc = cli_fail("gen-circuit", path, &err);
    }
    if (rc == CLI_OK)
        rc = write_witnesses(&o, &s, &c);
    circuit_free(&c);
    if (rc == CLI_OK)
        printf("  total %.2f s\n", cli_now() - t0);
    return rc;
}
