/* `cuzk filecoin gen-vanilla`: real test inputs for Filecoin proofs. Seals
 * small sectors for real (filecoin_seal.h) and writes what a sealer and a
 * PoSt worker hand the prover, in their real formats, with the public
 * values beside them (filecoin_public.h):
 *
 *   gen-vanilla --kind K --sector-size S [--seed N] [--api V]
 *               [--sectors N] [--miner-id N] [--threads N] --out DIR
 *
 *   DIR/public.json           the public values (the verifier's input);
 *   DIR/sector-<id>.vproof     PoSt: one bincode FallbackPoStSectorProof
 *                              per sector (WinningPoSt: one sector, its 66
 *                              challenges; WindowPoSt: --sectors sectors,
 *                              default one partition's worth, 10 each);
 *   DIR/c1.json, c1.curio.json PoRep: a sealed sector's C1 output
 *                              (SealCommitPhase1Output JSON) and Curio's
 *                              {SectorNum, Phase1Out, SectorSize} of it;
 *   DIR/partition-<k>.vproof   SnapDeals: a sealed sector updated with new
 *                              data (h_default), one bincode PartitionProof
 *                              per partition.
 *
 * Sectors up to 512 MiB are sealed for real; 32 and 64 GiB sectors
 * sparsely (fil_seal_sparse: committed-capacity sectors in which every
 * challenged path is real). A sparse SnapDeals sector is sealed with the
 * PoRep seed gen_porep draws (so its challenged columns are real) and
 * updated (fil_snap_encode_sparse) with new data at CLI_SNAP_SPARSE_NODES
 * nodes drawn from --seed ("new data node" k, mod the node count, sorted,
 * repeats dropped), each node's value drawn as at small sizes.
 *
 * Everything is drawn from --seed (default 1): the data, the ticket, the
 * randomness, so a run is reproducible. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_draw.h"
#include "cli_util.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_public.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/filecoin_vanilla.h"

typedef struct gen_args {
    fil_circuit_kind kind;
    uint64_t sector_size, seed, miner_id, sectors;
    fil_api_version api;
    int threads;
    const char *out;
} gen_args_t;

static int usage(void)
{
    fprintf(stderr,
            "usage: cuzk filecoin gen-vanilla --kind K --sector-size S [--seed N] [--api V]\n"
            "                                 [--sectors N] [--miner-id N] [--threads N]\n"
            "                                 --out DIR\n"
            "  K: porep, winning-post, window-post, snap-deals, snap-deals-poseidon\n"
            "  S: 2KiB, 8MiB, 512MiB: a real sealing; 32GiB, 64GiB: a sparse one\n"
            "     (committed-capacity sectors; snap-deals: new data at %u nodes)\n",
            CLI_SNAP_SPARSE_NODES);
    return CLI_USAGE;
}

static int parse(gen_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->kind = FIL_CIRCUIT_COUNT;
    a->api = FIL_API_1_1;
    a->seed = 1;
    a->miner_id = 1000;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        cuzk_error_t err = {0};
        cuzk_status st = CUZK_OK;
        if (!v)
            return usage();
        i++;
        char *end = NULL;
        unsigned long long u = strtoull(v, &end, 10);
        int num = *v && !*end && v[0] != '-';
        if (!strcmp(o, "--kind"))
            st = fil_circuit_kind_parse(&a->kind, v, &err);
        else if (!strcmp(o, "--sector-size"))
            st = fil_sector_size_parse(&a->sector_size, v, &err);
        else if (!strcmp(o, "--api"))
            st = fil_api_version_parse(&a->api, v, &err);
        else if (!strcmp(o, "--out"))
            a->out = v;
        else if (num && !strcmp(o, "--seed"))
            a->seed = u;
        else if (num && !strcmp(o, "--miner-id"))
            a->miner_id = u;
        else if (num && u > 0 && u <= 100000 && !strcmp(o, "--sectors"))
            a->sectors = u;
        else if (num && u <= 1024 && !strcmp(o, "--threads"))
            a->threads = (int)u;
        else {
            fprintf(stderr, "cuzk filecoin gen-vanilla: bad option %s %s\n", o, v);
            return usage();
        }
        if (st != CUZK_OK)
            return cli_fail("filecoin gen-vanilla", o, &err);
    }
    if (a->kind == FIL_CIRCUIT_COUNT || !a->sector_size || !a->out)
        return usage();
    return CLI_OK;
}

static int write_bytes(const char *dir, const char *name, const void *data, size_t len)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path)
        return 0;
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "cuzk filecoin gen-vanilla: cannot write %s\n", path);
        remove(path);
    }
    free(path);
    return ok;
}

/* A sector of the kind's seal proof (PoSt: its sector size under the
 * API's interactive proof). Up to 512 MiB a real sealing of seeded data;
 * above, a sparse one (filecoin_seal.h) in which what `seed` (PoRep)
 * challenges and the PoSt leaves[0..n) are real. */
static cuzk_status seal_one(fil_sealed_t **out, const gen_args_t *a, uint64_t sector_id,
                            const uint8_t *seed, const uint64_t *leaves, size_t n,
                            cuzk_error_t *err)
{
    fil_seal_proof sp = FIL_SEAL_COUNT;
    cuzk_status st = CUZK_OK;
    if (a->kind == FIL_CIRCUIT_POREP && a->api == FIL_API_1_2) { /* NI-PoRep */
        for (int i = 0; i < FIL_SEAL_COUNT; i++) {
            const fil_seal_info_t *r = fil_seal_info((fil_seal_proof)i);
            if (r && r->sector_size == a->sector_size && r->kind == FIL_POREP_NON_INTERACTIVE)
                sp = (fil_seal_proof)i;
        }
        if (sp == FIL_SEAL_COUNT)
            return cuzk_error_set(err, CUZK_ERR_ARG, "no non-interactive PoRep of that size");
    } else {
        /* PoSt and SnapDeals sectors: the interactive seal proof (1.2 has none) */
        st = fil_seal_from_size(&sp, a->sector_size,
                                a->api == FIL_API_1_0 ? FIL_API_1_0 : FIL_API_1_1, err);
    }
    if (st != CUZK_OK)
        return st;
    uint8_t prover[32], ticket[32];
    fil_prover_id(prover, a->miner_id);
    cli_draw32(ticket, a->seed, "ticket", sector_id);
    if (a->sector_size > FIL_SEAL_DENSE_MAX_SIZE)
        return fil_seal_sparse(out, sp, prover, sector_id, ticket, seed, leaves, n, a->threads,
                               err);
    return fil_seal(out, sp, prover, sector_id, ticket, NULL, a->seed ^ (sector_id << 20),
                    a->threads, err);
}

static int gen_post(const gen_args_t *a)
{
    cuzk_error_t err = {0};
    fil_post_params_t pp;
    if (fil_post_params(&pp, a->kind, a->sector_size, a->api, &err) != CUZK_OK)
        return cli_fail("filecoin gen-vanilla", "--kind", &err);
    uint64_t n = a->kind == FIL_CIRCUIT_WINNING_POST ? 1
                 : a->sectors                        ? a->sectors
                                                     : pp.sector_count;
    if (a->kind == FIL_CIRCUIT_WINNING_POST && a->sectors > 1) {
        fprintf(stderr, "cuzk filecoin gen-vanilla: a winning-post proof has one sector\n");
        return CLI_USAGE;
    }
    unsigned per = a->kind == FIL_CIRCUIT_WINNING_POST ? pp.sector_count : pp.challenge_count;
    fil_public_t pub;
    memset(&pub, 0, sizeof pub);
    pub.kind = a->kind;
    pub.sector_size = a->sector_size;
    pub.api = a->api;
    pub.miner_id = a->miner_id;
    pub.have = FIL_PUB_RANDOMNESS | FIL_PUB_SECTORS | FIL_PUB_MINER_ID;
    cli_draw32(pub.randomness, a->seed, "randomness", 0);
    pub.sectors = calloc(n, sizeof *pub.sectors);
    pub.n_sectors = n;
    fil_post_vproof_t *v = malloc(sizeof *v);
    int rc = CLI_USAGE;
    if (!pub.sectors || !v)
        goto out;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t id = 1 + i;
        fil_sealed_t *s = NULL;
        uint64_t leaves[FIL_POST_VPROOF_MAX_PROOFS];
        if (per > sizeof leaves / sizeof leaves[0]) {
            fprintf(stderr, "cuzk filecoin gen-vanilla: %u challenges per sector\n", per);
            goto out;
        }
        /* The leaves a prover draws for this sector: WinningPoSt's 66 are
         * the circuit's 66 places of one challenge each; WindowPoSt's 10
         * sit at the sector's place in the proof. */
        if (a->kind == FIL_CIRCUIT_WINNING_POST) {
            for (unsigned j = 0; j < per; j++)
                if (fil_post_sector_leaves(&leaves[j], &pp, pub.randomness, id, j, &err) != CUZK_OK)
                    goto fail;
        } else if (fil_post_sector_leaves(leaves, &pp, pub.randomness, id, i, &err) != CUZK_OK) {
            goto fail;
        }
        if (seal_one(&s, a, id, NULL, leaves, per, &err) != CUZK_OK)
            goto fail;
        cuzk_status st = fil_sealed_post_vproof(v, s, leaves, per, &err);
        fil_sealed_free(s);
        if (st != CUZK_OK)
            goto fail;
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (fil_post_vproof_write(&bytes, &len, v, &err) != CUZK_OK)
            goto fail;
        char name[64];
        snprintf(name, sizeof name, "sector-%llu.vproof", (unsigned long long)id);
        int ok = write_bytes(a->out, name, bytes, len);
        free(bytes);
        if (!ok)
            goto out;
        pub.sectors[i].id = id;
        fr_to_le(pub.sectors[i].comm_r, &v->comm_r);
    }
    char *json = NULL;
    if (fil_public_write(&json, &pub, &err) != CUZK_OK)
        goto fail;
    int ok = write_bytes(a->out, "public.json", json, strlen(json));
    free(json);
    if (ok) {
        printf("%s: %llu %s sector proof%s of %s, public.json\n", a->out, (unsigned long long)n,
               fil_circuit_kind_str(a->kind), n == 1 ? "" : "s",
               fil_sector_size_str(a->sector_size));
        rc = CLI_OK;
    }
    goto out;
fail:
    rc = cli_fail("filecoin gen-vanilla", fil_circuit_kind_str(a->kind), &err);
out:
    free(v);
    fil_public_free(&pub);
    return rc;
}

static int gen_porep(const gen_args_t *a)
{
    cuzk_error_t err = {0};
    fil_sealed_t *s = NULL;
    fil_c1_t c1;
    memset(&c1, 0, sizeof c1);
    char *json = NULL, *curio = NULL;
    size_t n = 0, nc = 0;
    int rc = CLI_USAGE;
    uint8_t ticket[32], seed[32];
    const uint64_t id = 1;
    cli_draw32(ticket, a->seed, "ticket", id);
    cli_draw32(seed, a->seed, "seed", id);
    if (seal_one(&s, a, id, seed, NULL, 0, &err) != CUZK_OK ||
        fil_sealed_c1(&c1, s, ticket, seed, &err) != CUZK_OK ||
        fil_c1_write(&json, &n, &c1, &err) != CUZK_OK ||
        fil_c1_write_curio(&curio, &nc, &c1, id, &err) != CUZK_OK)
        goto fail;
    if (!write_bytes(a->out, "c1.json", json, n) ||
        !write_bytes(a->out, "c1.curio.json", curio, nc))
        goto out;
    fil_public_t pub;
    memset(&pub, 0, sizeof pub);
    pub.kind = FIL_CIRCUIT_POREP;
    pub.sector_size = a->sector_size;
    pub.api = a->api;
    pub.seal = c1.registered_proof;
    pub.miner_id = a->miner_id;
    pub.sector_id = id;
    memcpy(pub.ticket, ticket, 32);
    memcpy(pub.seed, seed, 32);
    fr_to_le(pub.replica_id, &c1.replica_id);
    fr_to_le(pub.comm_d, &c1.comm_d);
    fr_to_le(pub.comm_r, &c1.comm_r);
    pub.have = FIL_PUB_REGISTERED_PROOF | FIL_PUB_MINER_ID | FIL_PUB_SECTOR_ID | FIL_PUB_TICKET |
               FIL_PUB_SEED | FIL_PUB_REPLICA_ID | FIL_PUB_COMM_D | FIL_PUB_COMM_R;
    char *pj = NULL;
    if (fil_public_write(&pj, &pub, &err) != CUZK_OK)
        goto fail;
    int ok = write_bytes(a->out, "public.json", pj, strlen(pj));
    free(pj);
    if (ok) {
        printf("%s: C1 of a %s %s sector (%u partition%s x %u challenges), c1.curio.json, "
               "public.json\n",
               a->out, fil_sector_size_str(a->sector_size),
               fil_seal_info(c1.registered_proof)->name, c1.partitions,
               c1.partitions == 1 ? "" : "s", c1.challenges);
        rc = CLI_OK;
    }
    goto out;
fail:
    rc = cli_fail("filecoin gen-vanilla", "porep", &err);
out:
    free(json);
    free(curio);
    fil_c1_free(&c1);
    fil_sealed_free(s);
    return rc;
}

/* A sparse sealing of a's size updated with new data at
 * CLI_SNAP_SPARSE_NODES drawn nodes. */
static cuzk_status snap_sparse(fil_snap_update_t **u, fil_sealed_t **s, const gen_args_t *a,
                               const fil_update_shape_t *sh, cuzk_error_t *err)
{
    uint8_t seed[32];
    cli_draw32(seed, a->seed, "seed", 1);
    cuzk_status st = seal_one(s, a, 1, seed, NULL, 0, err);
    uint64_t idx[CLI_SNAP_SPARSE_NODES];
    fr_t *val = malloc(CLI_SNAP_SPARSE_NODES * sizeof *val);
    const size_t n = CLI_SNAP_SPARSE_NODES;
    if (st == CUZK_OK && !val)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "snap-deals: no memory for the new data");
    if (st == CUZK_OK)
        st = cli_draw_snap_data(idx, val, sh->nodes, a->seed, err);
    if (st == CUZK_OK)
        st = fil_snap_encode_sparse(u, sh->kind, *s, idx, val, n, sh->hs[3], a->threads, err);
    free(val);
    return st;
}

static int gen_snap(const gen_args_t *a)
{
    cuzk_error_t err = {0};
    fil_update_kind uk = a->kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    fil_update_shape_t sh;
    if (fil_update_shape_init(&sh, uk, a->sector_size / FIL_NODE_SIZE, &err) != CUZK_OK)
        return cli_fail("filecoin gen-vanilla", "--sector-size", &err);
    const uint64_t nodes = sh.nodes;
    const int sparse = a->sector_size > FIL_SEAL_DENSE_MAX_SIZE;
    fil_sealed_t *s = NULL;
    fil_snap_update_t *u = NULL;
    fr_t *r_old = NULL, *d_new = NULL, comm_c;
    int rc = CLI_USAGE;
    if (sparse) {
        if (snap_sparse(&u, &s, a, &sh, &err) != CUZK_OK)
            goto fail;
        goto proofs;
    }
    r_old = malloc(nodes * sizeof *r_old);
    d_new = malloc(nodes * sizeof *d_new);
    if (!r_old || !d_new)
        goto out;
    if (seal_one(&s, a, 1, NULL, NULL, 0, &err) != CUZK_OK)
        goto fail;
    for (uint64_t i = 0; i < nodes; i++) {
        uint8_t b[32];
        if (fil_sealed_replica(&r_old[i], s, i, &err) != CUZK_OK)
            goto fail;
        cli_draw32(b, a->seed, "new data", i); /* fr32: top two bits clear */
        if (fr_from_le(&d_new[i], b) != CUZK_OK)
            goto out;
    }
    fil_sealed_comm_c(&comm_c, s);
    if (fil_snap_encode(&u, uk, nodes, r_old, &comm_c, d_new, sh.hs[3], &err) != CUZK_OK)
        goto fail;
proofs:
    for (unsigned k = 0; k < sh.partitions; k++) {
        fil_snap_vproof_t v;
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (fil_snap_update_vproof(&v, u, k, &err) != CUZK_OK)
            goto fail;
        cuzk_status st = fil_snap_vproof_write(&bytes, &len, &v, &err);
        fil_snap_vproof_free(&v);
        if (st != CUZK_OK)
            goto fail;
        char name[64];
        snprintf(name, sizeof name, "partition-%u.vproof", k);
        int ok = write_bytes(a->out, name, bytes, len);
        free(bytes);
        if (!ok)
            goto out;
    }
    fil_snap_public_t sp;
    fil_snap_update_public(&sp, u, 0);
    fil_public_t pub;
    memset(&pub, 0, sizeof pub);
    pub.kind = a->kind;
    pub.sector_size = a->sector_size;
    pub.api = a->api;
    pub.h = sp.h;
    fr_to_le(pub.comm_r_old, &sp.comm_r_old);
    fr_to_le(pub.comm_d_new, &sp.comm_d_new);
    fr_to_le(pub.comm_r_new, &sp.comm_r_new);
    pub.have = FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_D_NEW | FIL_PUB_COMM_R_NEW | FIL_PUB_H;
    char *json = NULL;
    if (fil_public_write(&json, &pub, &err) != CUZK_OK)
        goto fail;
    int ok = write_bytes(a->out, "public.json", json, strlen(json));
    free(json);
    if (ok) {
        printf("%s: %u %s partition proof%s of %s, public.json\n", a->out, sh.partitions,
               fil_circuit_kind_str(a->kind), sh.partitions == 1 ? "" : "s",
               fil_sector_size_str(a->sector_size));
        rc = CLI_OK;
    }
    goto out;
fail:
    rc = cli_fail("filecoin gen-vanilla", fil_circuit_kind_str(a->kind), &err);
out:
    fil_snap_update_free(u);
    fil_sealed_free(s);
    free(r_old);
    free(d_new);
    return rc;
}

int cmd_filecoin_gen(int argc, char **argv)
{
    gen_args_t a;
    int rc = parse(&a, argc, argv);
    if (rc != CLI_OK)
        return rc;
    if (mkdir(a.out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk filecoin gen-vanilla: cannot make %s: %s\n", a.out, strerror(errno));
        return CLI_USAGE;
    }
    if (a.kind == FIL_CIRCUIT_POREP)
        return gen_porep(&a);
    if (a.kind == FIL_CIRCUIT_WINNING_POST || a.kind == FIL_CIRCUIT_WINDOW_POST)
        return gen_post(&a);
    if (a.kind == FIL_CIRCUIT_SNAP_DEALS || a.kind == FIL_CIRCUIT_SNAP_DEALS_POSEIDON)
        return gen_snap(&a);
    fprintf(stderr, "cuzk filecoin gen-vanilla: --kind %s is not generated yet\n",
            fil_circuit_kind_str(a.kind));
    return CLI_USAGE;
}
