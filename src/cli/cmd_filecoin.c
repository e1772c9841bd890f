/* `cuzk filecoin info|circuit|parents|parent-cache`: Filecoin's circuits
 * as we synthesize them, and its SDR parent graph.
 *
 *   info --circuit C --sector-size S [--api V] [--json] [--no-hash]
 *       constraints, aux, public inputs (ONE counted), the domain, the A
 *       and B densities over inputs and aux, and bellperson's
 *       TestConstraintSystem::hash() fingerprint (Blake2s, OpenSSL), so
 *       that anyone with a Rust toolchain can compare the R1CS with theirs;
 *   circuit --circuit C --sector-size S [--api V] --out FILE.ccs
 *       the precompiled circuit (record back end, then circuit_record.h's
 *       input rows): the form the prover and the engine load;
 *   parents --sector-size S --porep-id N [--api V] NODE...
 *       per node one line: the 6 DRG then the 8 expander parents;
 *   parent-cache --sector-size S --porep-id N [--api V] [--out FILE]
 *       filecoin-proofs' parent cache (per node 14 u32 LE), streamed, with
 *       its SHA-256 and the name filecoin-proofs gives it; without --out,
 *       made where filecoin-proofs looks for it when it is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "cli.h"
#include "cli_util.h"
#include "cuzk/ccs.h"
#include "cuzk/circuit_record.h"
#include "cuzk/cs.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_proofs.h"

#define CMD "filecoin"

typedef struct fc_args {
    const char *sub;
    fil_circuit_kind kind;
    uint64_t sector_size;
    fil_api_version api;
    int json, no_hash, have_api, have_porep_id;
    fil_seal_proof porep_id;
    const char *out;
    char **nodes; /* parents: the NODE arguments */
    int n_nodes;
} fc_args_t;

static int usage(void)
{
    fprintf(
        stderr,
        "usage: cuzk filecoin info --circuit C --sector-size S [--api V] [--json] [--no-hash]\n"
        "       cuzk filecoin circuit --circuit C --sector-size S [--api V] --out FILE.ccs\n"
        "       cuzk filecoin parents --sector-size S --porep-id N [--api V] NODE...\n"
        "       cuzk filecoin parent-cache --sector-size S --porep-id N [--api V] [--out FILE]\n"
        "       cuzk filecoin gen-vanilla|setup|prove|verify ... (each with --help)\n"
        "         (without --out: where filecoin-proofs keeps it, $FIL_PROOFS_PARENT_CACHE or\n"
        "          /var/tmp/filecoin-parents, made when missing)\n"
        "  C: porep, winning-post, window-post, snap-deals, snap-deals-poseidon\n"
        "  S: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB\n"
        "  V: 1.0, 1.1, 1.2 (default: 1.1; for parents, the porep id's)\n"
        "  N: a registered seal proof id, 0..19 (3: StackedDrg32GiBV1, 8: ...V1_1)\n");
    return CLI_USAGE;
}

static int parse(fc_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->api = FIL_API_1_1;
    a->kind = FIL_CIRCUIT_COUNT;
    if (argc < 2)
        return usage();
    a->sub = argv[1];
    int graph = !strcmp(a->sub, "parents") || !strcmp(a->sub, "parent-cache");
    if (strcmp(a->sub, "info") && strcmp(a->sub, "circuit") && !graph)
        return usage();
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        cuzk_error_t err = {0};
        if (!strcmp(a->sub, "parents") && o[0] != '-') {
            if (!a->nodes)
                a->nodes = &argv[i];
            else if (a->nodes + a->n_nodes != &argv[i]) {
                fprintf(stderr, "cuzk filecoin parents: the NODEs come last\n");
                return CLI_USAGE;
            }
            a->n_nodes++;
            continue;
        }
        if (!strcmp(o, "--json")) {
            a->json = 1;
            continue;
        }
        if (!strcmp(o, "--no-hash")) {
            a->no_hash = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "cuzk filecoin: %s needs a value\n", o);
            return CLI_USAGE;
        }
        i++;
        cuzk_status st = CUZK_OK;
        if (!strcmp(o, "--circuit"))
            st = fil_circuit_kind_parse(&a->kind, v, &err);
        else if (!strcmp(o, "--sector-size"))
            st = fil_sector_size_parse(&a->sector_size, v, &err);
        else if (!strcmp(o, "--api")) {
            st = fil_api_version_parse(&a->api, v, &err);
            a->have_api = 1;
        } else if (!strcmp(o, "--porep-id")) {
            char *end = NULL;
            unsigned long id = strtoul(v, &end, 10);
            if (!*v || *end || id >= FIL_SEAL_COUNT || !fil_seal_info((fil_seal_proof)id))
                st = cuzk_error_set(&err, CUZK_ERR_ARG,
                                    "'%s' is not a registered seal proof id (0..%d)", v,
                                    FIL_SEAL_COUNT - 1);
            a->porep_id = (fil_seal_proof)id;
            a->have_porep_id = 1;
        } else if (!strcmp(o, "--out"))
            a->out = v;
        else {
            fprintf(stderr, "cuzk filecoin: unexpected argument '%s'\n", o);
            return CLI_USAGE;
        }
        if (st != CUZK_OK)
            return cli_fail(CMD, o, &err);
    }
    if (graph) {
        if (!a->sector_size || !a->have_porep_id) {
            fprintf(stderr, "cuzk filecoin %s: --sector-size and --porep-id are required\n",
                    a->sub);
            return CLI_USAGE;
        }
        if (!strcmp(a->sub, "parents") && !a->n_nodes) {
            fprintf(stderr, "cuzk filecoin parents: no NODE given\n");
            return CLI_USAGE;
        }
        return CLI_OK;
    }
    if (a->kind == FIL_CIRCUIT_COUNT || !a->sector_size) {
        fprintf(stderr, "cuzk filecoin %s: --circuit and --sector-size are required\n", a->sub);
        return CLI_USAGE;
    }
    if (!strcmp(a->sub, "circuit") && !a->out) {
        fprintf(stderr, "cuzk filecoin circuit: --out FILE.ccs is required\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One blank synthesis in mode; hash: feed the fingerprint stream of a run
 * whose sizes are *expected into md. */
static cuzk_status synth(cs_t **out, cs_mode mode, const fc_args_t *a, const cs_counts_t *expected,
                         EVP_MD_CTX *md, cuzk_error_t *err);

static void md_update(void *ctx, const uint8_t *data, size_t n)
{
    EVP_DigestUpdate((EVP_MD_CTX *)ctx, data, n);
}

static cuzk_status synth(cs_t **out, cs_mode mode, const fc_args_t *a, const cs_counts_t *expected,
                         EVP_MD_CTX *md, cuzk_error_t *err)
{
    cs_t *cs = NULL;
    cuzk_status st = cs_new(&cs, mode, err);
    if (st == CUZK_OK && md)
        st = cs_hash_begin(cs, expected, md_update, md, err);
    if (st == CUZK_OK)
        st = fil_circuit_synth_blank(cs, a->kind, a->sector_size, a->api, err);
    if (st == CUZK_OK && md)
        st = cs_hash_end(cs, err);
    if (st != CUZK_OK) {
        cs_free(cs);
        return st;
    }
    *out = cs;
    return CUZK_OK;
}

static int info(const fc_args_t *a)
{
    cuzk_error_t err = {0};
    cs_t *cs = NULL;
    double t0 = now_s();
    if (synth(&cs, CS_COUNT, a, NULL, NULL, &err) != CUZK_OK)
        return cli_fail(CMD, fil_circuit_kind_str(a->kind), &err);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    double t_count = now_s() - t0;
    unsigned log_m = 0;
    while (((uint64_t)1 << log_m) < k.constraints + k.inputs)
        log_m++;
    char hex[65] = "";
    if (!a->no_hash) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        uint8_t d[32];
        unsigned dn = 0;
        if (!md || !EVP_DigestInit_ex(md, EVP_blake2s256(), NULL)) {
            EVP_MD_CTX_free(md);
            fprintf(stderr, "cuzk filecoin info: no Blake2s in this OpenSSL\n");
            return CLI_USAGE;
        }
        cuzk_status st = synth(&cs, CS_COUNT, a, &k, md, &err);
        if (st == CUZK_OK)
            cs_free(cs);
        EVP_DigestFinal_ex(md, d, &dn);
        EVP_MD_CTX_free(md);
        if (st != CUZK_OK)
            return cli_fail(CMD, "fingerprint", &err);
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", d[i]);
    }
    const char *size = fil_sector_size_str(a->sector_size);
    if (a->json) {
        printf("{\"circuit\":\"%s\",\"sector_size\":\"%s\",\"api\":\"%s\",\"constraints\":%llu,"
               "\"aux\":%llu,\"inputs\":%llu,\"domain_log2\":%u,\"a_aux_density\":%llu,"
               "\"b_input_density\":%llu,\"b_aux_density\":%llu,\"cs_hash\":%s%s%s,"
               "\"count_s\":%.3f}\n",
               fil_circuit_kind_str(a->kind), size, fil_api_version_str(a->api),
               (unsigned long long)k.constraints, (unsigned long long)k.aux,
               (unsigned long long)k.inputs, log_m, (unsigned long long)k.a_aux_density,
               (unsigned long long)k.b_input_density, (unsigned long long)k.b_aux_density,
               a->no_hash ? "" : "\"", a->no_hash ? "null" : hex, a->no_hash ? "" : "\"", t_count);
        return CLI_OK;
    }
    printf("%s %s (API %s)\n", fil_circuit_kind_str(a->kind), size, fil_api_version_str(a->api));
    printf("  constraints      %llu (before the prover's %llu input rows)\n",
           (unsigned long long)k.constraints, (unsigned long long)k.inputs);
    printf("  aux              %llu\n", (unsigned long long)k.aux);
    printf("  inputs           %llu (ONE included)\n", (unsigned long long)k.inputs);
    printf("  domain           2^%u\n", log_m);
    printf("  A aux density    %llu\n", (unsigned long long)k.a_aux_density);
    printf("  B input density  %llu\n", (unsigned long long)k.b_input_density);
    printf("  B aux density    %llu\n", (unsigned long long)k.b_aux_density);
    printf("  cs hash          %s\n", a->no_hash ? "(not computed)" : hex);
    printf("  counted in %.2f s\n", t_count);
    return CLI_OK;
}

static int circuit(const fc_args_t *a)
{
    cuzk_error_t err = {0};
    cs_t *cs = NULL;
    double t0 = now_s();
    if (synth(&cs, CS_RECORD, a, NULL, NULL, &err) != CUZK_OK)
        return cli_fail(CMD, fil_circuit_kind_str(a->kind), &err);
    double t1 = now_s();
    circuit_t c;
    cuzk_status st = circuit_from_record_take(&c, cs, &err); /* in place: one copy */
    cs_free(cs);
    if (st != CUZK_OK)
        return cli_fail(CMD, "record", &err);
    st = ccs_write_file(a->out, &c, &err);
    double t2 = now_s();
    if (st != CUZK_OK) {
        circuit_free(&c);
        return cli_fail(CMD, a->out, &err);
    }
    printf("%s %s: %u rows, %u variables, %u public, nnz A %llu B %llu C %llu; recorded in "
           "%.2f s, written in %.2f s to %s\n",
           fil_circuit_kind_str(a->kind), fil_sector_size_str(a->sector_size), c.n_rows, c.n_vars,
           c.n_public, (unsigned long long)c.m[0].nnz, (unsigned long long)c.m[1].nnz,
           (unsigned long long)c.m[2].nnz, t1 - t0, t2 - t1, a->out);
    circuit_free(&c);
    return CLI_OK;
}

/* The graph of --sector-size under --porep-id's seal proof (its porep id
 * bytes) and --api (default: the proof's). */
static cuzk_status graph_of(fil_graph_t *g, const fc_args_t *a, cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_seal_info(a->porep_id);
    if (info->sector_size != a->sector_size)
        return cuzk_error_set(err, CUZK_ERR_ARG, "porep id %d is %s, a %s proof, not %s",
                              (int)a->porep_id, info->name, fil_sector_size_str(info->sector_size),
                              fil_sector_size_str(a->sector_size));
    uint8_t id[32];
    cuzk_status st = fil_porep_id(id, a->porep_id, err);
    if (st != CUZK_OK)
        return st;
    return fil_graph_init(g, info->nodes, id, a->have_api ? a->api : info->api, err);
}

static int parents(const fc_args_t *a)
{
    cuzk_error_t err = {0};
    fil_graph_t g;
    if (graph_of(&g, a, &err) != CUZK_OK)
        return cli_fail(CMD, "--porep-id", &err);
    for (int i = 0; i < a->n_nodes; i++) {
        char *end = NULL;
        unsigned long long node = strtoull(a->nodes[i], &end, 10);
        if (!*a->nodes[i] || *end || node >= g.nodes) {
            fprintf(stderr, "cuzk filecoin parents: node '%s' is not in 0..%llu\n", a->nodes[i],
                    (unsigned long long)g.nodes - 1);
            return CLI_USAGE;
        }
        uint32_t p[FIL_DEGREE];
        if (fil_graph_parents(p, &g, node, &err) != CUZK_OK)
            return cli_fail(CMD, a->nodes[i], &err);
        for (unsigned k = 0; k < FIL_DEGREE; k++)
            printf("%s%u", k ? " " : "", p[k]);
        printf("\n");
    }
    return CLI_OK;
}

typedef struct cache_out {
    FILE *f;
    EVP_MD_CTX *md;
} cache_out_t;

static int cache_write(void *ctx, const uint8_t *data, size_t n)
{
    cache_out_t *c = ctx;
    EVP_DigestUpdate(c->md, data, n);
    return fwrite(data, 1, n, c->f) == n ? 0 : -1;
}

static int parent_cache(const fc_args_t *a)
{
    cuzk_error_t err = {0};
    fil_graph_t g;
    char name[FIL_PARENT_CACHE_NAME_MAX];
    if (graph_of(&g, a, &err) != CUZK_OK || fil_parent_cache_name(name, &g, &err) != CUZK_OK)
        return cli_fail(CMD, "--porep-id", &err);
    if (!a->out) {
        char path[4096];
        int made = 0;
        double t = now_s();
        if (fil_parent_cache_ensure(path, sizeof path, &made, &g, 0, &err) != CUZK_OK)
            return cli_fail(CMD, "parent cache", &err);
        printf("%s: %s (%llu nodes x 14 parents)%s\n", path, made ? "made" : "present",
               (unsigned long long)g.nodes, made ? "" : ", kept as it is");
        if (made)
            printf("  in %.2f s\n", now_s() - t);
        return CLI_OK;
    }
    cache_out_t c = {fopen(a->out, "wb"), EVP_MD_CTX_new()};
    if (!c.f || !c.md || !EVP_DigestInit_ex(c.md, EVP_sha256(), NULL)) {
        if (c.f)
            fclose(c.f);
        EVP_MD_CTX_free(c.md);
        cuzk_error_set(&err, CUZK_ERR_IO, "cannot write it");
        return cli_fail(CMD, a->out, &err);
    }
    double t0 = now_s();
    cuzk_status st = fil_parent_cache_stream(&g, 0, cache_write, &c, &err);
    if (fclose(c.f) != 0 && st == CUZK_OK)
        st = cuzk_error_set(&err, CUZK_ERR_IO, "write failed");
    uint8_t d[32];
    unsigned dn = 0;
    EVP_DigestFinal_ex(c.md, d, &dn);
    EVP_MD_CTX_free(c.md);
    if (st != CUZK_OK) {
        remove(a->out); /* never leave half a cache behind */
        return cli_fail(CMD, a->out, &err);
    }
    printf("%s: %llu nodes x 14 parents, sha256 ", a->out, (unsigned long long)g.nodes);
    for (int i = 0; i < 32; i++)
        printf("%02x", d[i]);
    printf(", in %.2f s (filecoin-proofs names it %s.cache)\n", now_s() - t0, name);
    return CLI_OK;
}

int cmd_filecoin(int argc, char **argv)
{
    if (argc >= 2 &&
        (!strcmp(argv[1], "setup") || !strcmp(argv[1], "prove") || !strcmp(argv[1], "verify")))
        return cmd_filecoin_prove(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "gen-vanilla"))
        return cmd_filecoin_gen(argc - 1, argv + 1);
    fc_args_t a;
    int rc = parse(&a, argc, argv);
    if (rc != CLI_OK)
        return rc;
    if (!strcmp(a.sub, "parents"))
        return parents(&a);
    if (!strcmp(a.sub, "parent-cache"))
        return parent_cache(&a);
    return !strcmp(a.sub, "info") ? info(&a) : circuit(&a);
}
