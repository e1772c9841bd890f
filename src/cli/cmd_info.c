/* `cuzk info <file>` (what a key, witness or circuit holds) and
 * `cuzk export-vkey <circuit.zkey> <verification_key.json>`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/ccs.h"
#include "cuzk/gen.h"
#include "cuzk/r1cs.h"
#include "cuzk/snarkjs_json.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"

/* The profile numbers of include/cuzk/gen.h (nnz per row, densities). */
static int print_profile(const circuit_t *c)
{
    cuzk_error_t err = {0};
    gen_stats_t st;
    if (gen_circuit_stats(&st, c, &err) != CUZK_OK)
        return cli_fail("info", "statistics", &err);
    double rows = st.n_rows ? st.n_rows : 1;
    uint64_t aux = st.n_vars - st.n_public - 1, in = st.n_public + 1;
    double da = aux ? 100.0 / (double)aux : 0;
    printf("  non-zeros per row: A %.3f, B %.3f, C %.3f\n", (double)st.nnz[0] / rows,
           (double)st.nnz[1] / rows, (double)st.nnz[2] / rows);
    printf("  aux variables %llu touched by A %.2f%%, B %.2f%%, C %.2f%%\n",
           (unsigned long long)aux, (double)st.aux_touched[0] * da, (double)st.aux_touched[1] * da,
           (double)st.aux_touched[2] * da);
    printf("  inputs (ONE included) %llu touched by A %llu, B %llu, C %llu\n",
           (unsigned long long)in, (unsigned long long)st.input_touched[0],
           (unsigned long long)st.input_touched[1], (unsigned long long)st.input_touched[2]);
    return CLI_OK;
}

static void print_witness_shares(const fr_t *w, size_t n)
{
    uint64_t z, o, x;
    gen_witness_stats(&z, &o, &x, w, n);
    double d = n ? 100.0 / (double)n : 0;
    printf("  witness values %zu: zero %.2f%%, one %.2f%%, 0/1 %.2f%%, other %.2f%%\n", n,
           (double)z * d, (double)o * d, (double)(z + o) * d, (double)x * d);
}

/* A circuit view of an r1cs (no copy: the CSR arrays have the same types). */
static circuit_t r1cs_view(const r1cs_t *r)
{
    circuit_t c = {r->n_constraints, r->n_wires, r->n_pub_out + r->n_pub_in, {{0}},
                   r->coef,          r->n_coef};
    for (int m = 0; m < 3; m++)
        c.m[m] = (circuit_csr_t){r->m[m].row_ptr, r->m[m].col, r->m[m].coef, r->m[m].nnz};
    return c;
}

static int info_r1cs(const char *path)
{
    cuzk_error_t err = {0};
    r1cs_t r;
    if (r1cs_read(&r, path, &err) != CUZK_OK)
        return cli_fail("info", path, &err);
    printf("%s: circom r1cs v1, curve bls12-381\n", path);
    printf("  constraints %u\n  wires %u (outputs %u, public inputs %u, private inputs %u)\n",
           r.n_constraints, r.n_wires, r.n_pub_out, r.n_pub_in, r.n_prv_in);
    printf("  labels %llu\n", (unsigned long long)r.n_labels);
    printf("  non-zeros A %llu, B %llu, C %llu; %u distinct coefficients\n",
           (unsigned long long)r.m[0].nnz, (unsigned long long)r.m[1].nnz,
           (unsigned long long)r.m[2].nnz, r.n_coef);
    uint64_t need = (uint64_t)r.n_constraints + r.n_pub_out + r.n_pub_in + 1, m = 1;
    unsigned k = 0;
    while (m < need)
        m <<= 1, k++;
    printf("  Groth16 domain 2^%u (%llu)\n", k, (unsigned long long)m);
    circuit_t view = r1cs_view(&r);
    int rc = print_profile(&view);
    r1cs_free(&r);
    return rc;
}

static int info_wtns(const char *path)
{
    cuzk_error_t err = {0};
    wtns_t w;
    if (wtns_read(&w, path, 0, &err) != CUZK_OK)
        return cli_fail("info", path, &err);
    size_t zeros = 0, ones = 0;
    for (uint32_t i = 0; i < w.n; i++) {
        zeros += fr_is_zero(&w.w[i]);
        ones += fr_is_one(&w.w[i]);
    }
    printf("%s: snarkjs wtns v2, curve bls12-381\n  values %u (zero %zu, one %zu, other %zu)\n",
           path, w.n, zeros, ones, (size_t)w.n - zeros - ones);
    print_witness_shares(w.w, w.n);
    wtns_free(&w);
    return CLI_OK;
}

static int info_zkey(const char *path)
{
    cuzk_error_t err = {0};
    zkey_t z;
    if (zkey_open(&z, path, ZKEY_CHECK_HEADER, 0, &err) != CUZK_OK)
        return cli_fail("info", path, &err);
    printf("%s: snarkjs zkey, Groth16, curve bls12-381\n", path);
    printf("  variables %u, public %u, domain 2^%u (%u)\n", z.n_vars, z.n_public, z.log_domain,
           z.domain_size);
    printf("  A/B coefficients %llu\n  points: A %llu, B1 %llu, B2 %llu, C %llu, H %llu\n",
           (unsigned long long)z.n_coefs, (unsigned long long)z.a.count,
           (unsigned long long)z.b1.count, (unsigned long long)z.b2.count,
           (unsigned long long)z.c.count, (unsigned long long)z.h.count);
    zkey_close(&z);
    return CLI_OK;
}

static int info_params(const char *path)
{
    cuzk_error_t err = {0};
    bellperson_params_t p;
    if (bellperson_params_open(&p, path, BELLPERSON_CHECK_KEY, 0, &err) != CUZK_OK)
        return cli_fail("info", path, &err);
    printf("%s: bellperson Groth16 parameters, curve bls12-381, %llu bytes\n", path,
           (unsigned long long)p.size);
    printf("  inputs (IC) %zu; H %llu (domain %llu), L %llu, A %llu, B_G1 %llu, B_G2 %llu\n",
           p.vk.n_ic, (unsigned long long)p.h.n, (unsigned long long)p.h.n + 1,
           (unsigned long long)p.l.n, (unsigned long long)p.a.n, (unsigned long long)p.b_g1.n,
           (unsigned long long)p.b_g2.n);
    bellperson_params_close(&p);
    return CLI_OK;
}

static int info_vk(const char *path)
{
    cuzk_error_t err = {0};
    groth16_vk_t vk;
    if (bellperson_vk_load(&vk, path, &err) != CUZK_OK)
        return cli_fail("info", path, &err);
    printf("%s: bellperson verifying key, curve bls12-381\n  IC points %zu (public inputs %zu)\n",
           path, vk.n_ic, vk.n_ic - 1);
    groth16_vk_free(&vk);
    return CLI_OK;
}

/* A .ccs circuit, and with a witness the share of 0/1 values. */
static int info_ccs(const char *path, const char *wtns_path)
{
    cuzk_error_t err = {0};
    circuit_t c;
    if (ccs_read_file(&c, path, 0, &err) != CUZK_OK)
        return cli_fail("info", path, &err);
    printf("%s: cuzk circuit v%u, curve bls12-381\n", path, CCS_VERSION);
    printf("  rows %u, variables %u (public %u), dictionary %u coefficients\n", c.n_rows, c.n_vars,
           c.n_public, c.n_dict);
    printf("  non-zeros A %llu, B %llu, C %llu\n", (unsigned long long)c.m[0].nnz,
           (unsigned long long)c.m[1].nnz, (unsigned long long)c.m[2].nnz);
    int rc = print_profile(&c);
    if (rc == CLI_OK && wtns_path) {
        wtns_t w;
        if (wtns_read(&w, wtns_path, 0, &err) != CUZK_OK) {
            rc = cli_fail("info", wtns_path, &err);
        } else {
            uint32_t bad = 0;
            print_witness_shares(w.w, w.n);
            if (w.n != c.n_vars)
                printf("  witness: %u values, the circuit has %u variables\n", w.n, c.n_vars);
            else if (circuit_check(&bad, &c, w.w, 0) == CUZK_OK)
                printf("  witness %s\n", bad == UINT32_MAX ? "satisfies every row" : "FAILS");
            if (w.n != c.n_vars || bad != UINT32_MAX)
                rc = CLI_INVALID;
            wtns_free(&w);
        }
    }
    circuit_free(&c);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

int cmd_info(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: cuzk info <file> [witness.wtns (with a .ccs)]\n");
        return CLI_USAGE;
    }
    const char *path = argv[1];
    char magic[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cuzk info: %s: cannot open\n", path);
        return CLI_USAGE;
    }
    size_t got = fread(magic, 1, 4, f);
    fclose(f);
    if (got == 4 && !memcmp(magic, "cuzk", 4))
        return info_ccs(path, argc == 3 ? argv[2] : NULL);
    if (argc == 3) {
        fprintf(stderr, "cuzk info: a witness goes with a .ccs circuit only\n");
        return CLI_USAGE;
    }
    if (got == 4 && !memcmp(magic, "r1cs", 4))
        return info_r1cs(path);
    if (got == 4 && !memcmp(magic, "wtns", 4))
        return info_wtns(path);
    if (got == 4 && !memcmp(magic, "zkey", 4))
        return info_zkey(path);
    if (ends_with(path, ".vk"))
        return info_vk(path);
    if (ends_with(path, ".params"))
        return info_params(path);
    fprintf(stderr, "cuzk info: %s: not an r1cs, wtns, zkey or ccs file (magic), nor .params/.vk\n",
            path);
    return CLI_USAGE;
}

int cmd_export_vkey(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: cuzk export-vkey <circuit.zkey> <verification_key.json>\n");
        return CLI_USAGE;
    }
    cuzk_error_t err = {0};
    zkey_t z;
    groth16_vk_t vk = {0};
    if (zkey_open(&z, argv[1], ZKEY_CHECK_HEADER, 0, &err) != CUZK_OK)
        return cli_fail("export-vkey", argv[1], &err);
    int rc = CLI_OK;
    if (zkey_to_vk(&vk, &z, &err) != CUZK_OK)
        rc = cli_fail("export-vkey", argv[1], &err);
    else if (snarkjs_vk_write(argv[2], &vk, &err) != CUZK_OK)
        rc = cli_fail("export-vkey", argv[2], &err);
    groth16_vk_free(&vk);
    zkey_close(&z);
    return rc;
}
