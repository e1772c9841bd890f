/* The inputs of `cuzk bench filecoin` (bench_filecoin_inputs.h).
 *
 * DESIGN: made on the caller's thread before any timing; window-post's
 * sectors are sealed by parallel_for chunks, each writing only its own
 * sectors' slots and recording the first failure under J->mu. */
#include "bench_filecoin_inputs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cli_draw.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/parallel.h"

#define MINER_ID 1000u
#define POREP_SECTOR_ID 1u
/* Dense sealings held at once while window-post seals its sectors. */
#define DENSE_BYTES_AT_ONCE ((uint64_t)16 << 30)

/* One sector of seal proof sp: densely up to FIL_SEAL_DENSE_MAX_SIZE (data
 * drawn from seed), else sparsely, where only porep_seed's challenges
 * (or NULL) and the PoSt leaves are real. */
static cuzk_status seal_sector(fil_sealed_t **out, fil_seal_proof sp, uint64_t id, uint64_t seed,
                               const uint8_t *porep_seed, const uint64_t *leaves, size_t n_leaves,
                               int threads, cuzk_error_t *err)
{
    uint8_t prover[32], ticket[32];
    fil_prover_id(prover, MINER_ID);
    cli_draw32(ticket, seed, "ticket", id);
    if (fil_seal_info(sp)->sector_size <= FIL_SEAL_DENSE_MAX_SIZE)
        return fil_seal(out, sp, prover, id, ticket, NULL, seed ^ (id << 20), threads, err);
    return fil_seal_sparse(out, sp, prover, id, ticket, porep_seed, leaves, n_leaves, threads, err);
}

/* The sector's seal proof: the size's interactive one (1.2 has none: its
 * non-interactive one for a PoRep, 1.1 for a PoSt's or SnapDeals' sector,
 * whose circuits do not depend on it). */
static cuzk_status seal_proof(fil_seal_proof *out, fil_circuit_kind kind, uint64_t size,
                              fil_api_version api, cuzk_error_t *err)
{
    if (api != FIL_API_1_2)
        return fil_seal_from_size(out, size, api, err);
    if (kind != FIL_CIRCUIT_POREP)
        return fil_seal_from_size(out, size, FIL_API_1_1, err);
    for (int i = 0; i < FIL_SEAL_COUNT; i++) {
        const fil_seal_info_t *r = fil_seal_info((fil_seal_proof)i);
        if (r && r->sector_size == size && r->kind == FIL_POREP_NON_INTERACTIVE) {
            *out = (fil_seal_proof)i;
            return CUZK_OK;
        }
    }
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "--sector-size: no non-interactive PoRep of %llu bytes",
                          (unsigned long long)size);
}

static cuzk_status nomem(cuzk_error_t *err, const char *what)
{
    return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory for %s", what);
}

/* ---- PoRep ---- */

/* Partition k's challenges, opened in the sealed sector. */
static cuzk_status porep_partition(bench_fil_inputs_t *in, const fil_sealed_t *s,
                                   const fil_porep_shape_t *shape, const uint8_t seed[32],
                                   unsigned k, cuzk_error_t *err)
{
    size_t C = shape->challenges, n = 0;
    uint64_t *chs = malloc(C * sizeof *chs);
    if (!chs)
        return nomem(err, "challenges");
    cuzk_status st = fil_porep_partition_challenges(chs, C, &n, in->pub.seal, in->pub.replica_id,
                                                    in->pub.comm_r, seed, k, err);
    if (st == CUZK_OK && n != C)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "partition %u: %zu challenges, the shape %zu",
                            k, n, C);
    for (size_t j = 0; st == CUZK_OK && j < C; j++)
        st = fil_sealed_porep_challenge(&in->ch[k * C + j], s, chs[j], err);
    free(chs);
    fil_partition_t *p = &in->parts[k];
    p->kind = FIL_CIRCUIT_POREP;
    p->porep.shape = *shape;
    fil_sealed_porep_public(&p->porep.pub, s);
    p->porep.ch = &in->ch[k * C];
    return st;
}

static cuzk_status make_porep(bench_fil_inputs_t *in, uint64_t size, fil_api_version api,
                              uint64_t seed, int threads, cuzk_error_t *err)
{
    fil_seal_proof sp;
    cuzk_status st = seal_proof(&sp, FIL_CIRCUIT_POREP, size, api, err);
    if (st != CUZK_OK)
        return st;
    fil_public_t *pub = &in->pub;
    cli_draw32(pub->ticket, seed, "ticket", POREP_SECTOR_ID);
    cli_draw32(pub->seed, seed, "seed", POREP_SECTOR_ID);
    fil_sealed_t *s = NULL;
    if ((st = seal_sector(&s, sp, POREP_SECTOR_ID, seed, pub->seed, NULL, 0, threads, err)) !=
        CUZK_OK)
        return st;
    in->sectors = 1;
    const fil_seal_info_t *info = fil_sealed_info(s);
    fil_porep_shape_t shape;
    fil_sealed_porep_shape(&shape, s);
    fr_t v;
    pub->seal = sp;
    pub->miner_id = MINER_ID;
    pub->sector_id = POREP_SECTOR_ID;
    fil_sealed_replica_id(&v, s);
    fr_to_le(pub->replica_id, &v);
    fil_sealed_comm_d(&v, s);
    fr_to_le(pub->comm_d, &v);
    fil_sealed_comm_r(&v, s);
    fr_to_le(pub->comm_r, &v);
    pub->have = FIL_PUB_REGISTERED_PROOF | FIL_PUB_MINER_ID | FIL_PUB_SECTOR_ID | FIL_PUB_TICKET |
                FIL_PUB_SEED | FIL_PUB_REPLICA_ID | FIL_PUB_COMM_D | FIL_PUB_COMM_R;
    in->partitions = info->partitions;
    in->parts = calloc(in->partitions, sizeof *in->parts);
    in->ch = calloc((size_t)in->partitions * shape.challenges, sizeof *in->ch);
    if (!in->parts || !in->ch)
        st = nomem(err, "the PoRep challenges");
    for (unsigned k = 0; st == CUZK_OK && k < in->partitions; k++)
        st = porep_partition(in, s, &shape, pub->seed, k, err);
    fil_sealed_free(s);
    return st;
}

/* ---- PoSt ---- */

typedef struct post_job {
    const fil_post_params_t *pp;
    fil_seal_proof sp;
    const uint8_t *randomness;
    uint64_t seed;
    int seal_threads;
    fil_post_sector_t *secs;
    fil_post_pub_sector_t *pub;
    pthread_mutex_t mu;
    cuzk_status st; /* the first failure, under mu */
    cuzk_error_t err;
} post_job_t;

/* Sector i (id 1 + i) sealed, opened at its leaves and turned into the
 * circuit's sectors: WindowPoSt's one of 10 challenges at place i;
 * WinningPoSt's one sector's 66 paths, one per circuit sector. */
static cuzk_status post_sector(post_job_t *J, fil_post_vproof_t *v, size_t i, cuzk_error_t *err)
{
    const fil_post_params_t *pp = J->pp;
    int winning = pp->kind == FIL_CIRCUIT_WINNING_POST;
    uint64_t id = 1 + i, leaves[FIL_POST_VPROOF_MAX_PROOFS];
    unsigned per = winning ? pp->sector_count : pp->challenge_count;
    cuzk_status st = CUZK_OK;
    if (per > FIL_POST_VPROOF_MAX_PROOFS || pp->challenge_count > FIL_POST_MAX_CHALLENGES)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "%u challenges per sector", per);
    for (unsigned j = 0; winning && st == CUZK_OK && j < per; j++)
        st = fil_post_sector_leaves(&leaves[j], pp, J->randomness, id, j, err);
    if (!winning)
        st = fil_post_sector_leaves(leaves, pp, J->randomness, id, i, err);
    fil_sealed_t *s = NULL;
    if (st != CUZK_OK || (st = seal_sector(&s, J->sp, id, J->seed, NULL, leaves, per,
                                           J->seal_threads, err)) != CUZK_OK)
        return st;
    st = fil_sealed_post_vproof(v, s, leaves, per, err);
    fil_sealed_free(s);
    if (st != CUZK_OK)
        return st;
    J->pub[i].id = id;
    fr_to_le(J->pub[i].comm_r, &v->comm_r);
    unsigned first = winning ? 0 : (unsigned)i, n = winning ? per : 1;
    unsigned ch = winning ? 1 : per;
    for (unsigned j = 0; j < n; j++) {
        fil_post_sector_t *c = &J->secs[first + j];
        c->comm_r = v->comm_r;
        c->comm_c = v->comm_c;
        c->comm_r_last = v->comm_r_last;
        for (unsigned q = 0; q < ch; q++) {
            c->paths[q] = v->paths[j + q];
            c->leafs[q] = v->paths[j + q].leaf;
        }
    }
    return CUZK_OK;
}

static void post_chunk(void *ctx, size_t begin, size_t end)
{
    post_job_t *J = ctx;
    fil_post_vproof_t *v = malloc(sizeof *v); /* ~490 KB: one per chunk */
    for (size_t i = begin; i < end; i++) {
        pthread_mutex_lock(&J->mu);
        int failed = J->st != CUZK_OK;
        pthread_mutex_unlock(&J->mu);
        if (failed)
            break;
        cuzk_error_t err = {0};
        cuzk_status st = v ? post_sector(J, v, i, &err) : nomem(&err, "a sector proof");
        if (st != CUZK_OK) {
            pthread_mutex_lock(&J->mu);
            if (J->st == CUZK_OK) {
                J->st = st;
                J->err = err;
            }
            pthread_mutex_unlock(&J->mu);
            break;
        }
    }
    free(v);
}

/* n sectors sealed on parallel threads, as many at once as the cores (and,
 * dense, 16 GiB of sealings) allow, each sealing with the cores left. */
static cuzk_status post_seal_all(post_job_t *J, size_t n, int threads, cuzk_error_t *err)
{
    int nproc = parallel_threads(threads);
    uint64_t dense = fil_seal_info(J->sp)->sector_size <= FIL_SEAL_DENSE_MAX_SIZE
                         ? fil_seal_dense_bytes(J->sp)
                         : 0;
    size_t at_once = (size_t)nproc < n ? (size_t)nproc : n;
    if (dense && at_once > DENSE_BYTES_AT_ONCE / dense)
        at_once = DENSE_BYTES_AT_ONCE / dense ? DENSE_BYTES_AT_ONCE / dense : 1;
    J->seal_threads = nproc / (int)at_once > 1 ? nproc / (int)at_once : 1;
    pthread_mutex_init(&J->mu, NULL);
    cuzk_status st = parallel_for(n, 1, (int)at_once, post_chunk, J);
    pthread_mutex_destroy(&J->mu);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "sealing: no memory for the threads");
    if (J->st != CUZK_OK)
        return cuzk_error_set(err, J->st, "%s", J->err.msg);
    return CUZK_OK;
}

static cuzk_status make_post(bench_fil_inputs_t *in, fil_circuit_kind kind, uint64_t size,
                             fil_api_version api, unsigned window_partitions, uint64_t seed,
                             int threads, cuzk_error_t *err)
{
    fil_post_params_t pp;
    fil_post_shape_t shape;
    cuzk_status st = fil_post_params(&pp, kind, size, api, err);
    if (st == CUZK_OK)
        st = fil_sector_tree(&shape.tree, size, err);
    post_job_t J = {.pp = &pp, .seed = seed, .st = CUZK_OK};
    if (st != CUZK_OK || (st = seal_proof(&J.sp, kind, size, api, err)) != CUZK_OK)
        return st;
    int winning = kind == FIL_CIRCUIT_WINNING_POST;
    in->partitions = winning ? 1 : window_partitions;
    in->sectors = winning ? 1 : (uint64_t)in->partitions * pp.sector_count;
    fil_public_t *pub = &in->pub;
    cli_draw32(pub->randomness, seed, "randomness", 0);
    pub->miner_id = MINER_ID;
    pub->n_sectors = in->sectors;
    pub->have = FIL_PUB_RANDOMNESS | FIL_PUB_SECTORS | FIL_PUB_MINER_ID;
    J.randomness = pub->randomness;
    pub->sectors = J.pub = calloc(in->sectors, sizeof *pub->sectors);
    in->secs = J.secs = calloc((size_t)in->partitions * pp.sector_count, sizeof *in->secs);
    in->parts = calloc(in->partitions, sizeof *in->parts);
    if (!pub->sectors || !in->secs || !in->parts)
        return nomem(err, "the PoSt sectors");
    if ((st = post_seal_all(&J, in->sectors, threads, err)) != CUZK_OK)
        return st;
    shape.nodes = size / FIL_NODE_SIZE;
    shape.challenges = pp.challenge_count;
    for (unsigned k = 0; k < in->partitions; k++) {
        fil_partition_t *p = &in->parts[k];
        p->kind = kind;
        p->post.shape = shape;
        p->post.sector_count = pp.sector_count;
        p->post.sectors = &in->secs[(size_t)k * pp.sector_count];
        p->post.n_sectors = pp.sector_count;
    }
    return CUZK_OK;
}

/* ---- SnapDeals ---- */

typedef struct snap_nodes {
    const fil_sealed_t *s;
    fr_t *r_old, *d_new;
    uint64_t seed;
    atomic_int bad; /* a replica node that could not be read (never: i < nodes) */
} snap_nodes_t;

static void snap_nodes_chunk(void *ctx, size_t begin, size_t end)
{
    snap_nodes_t *S = ctx;
    for (size_t i = begin; i < end; i++) {
        uint8_t b[32];
        cli_draw32(b, S->seed, "new data", i); /* fr32: top two bits clear */
        if (fil_sealed_replica(&S->r_old[i], S->s, i, NULL) != CUZK_OK ||
            fr_from_le(&S->d_new[i], b) != CUZK_OK)
            atomic_store(&S->bad, 1);
    }
}

/* New data nodes of a sparse (32/64 GiB) update: drawn from the seed
 * ("new data node" k, mod the node count, sorted, repeats dropped) as
 * `cuzk filecoin gen-vanilla` draws them; values as at small sizes. */

static cuzk_status snap_update_sparse(fil_snap_update_t **u, const fil_sealed_t *s,
                                      const fil_update_shape_t *sh, uint64_t seed, int threads,
                                      cuzk_error_t *err)
{
    uint64_t idx[CLI_SNAP_SPARSE_NODES];
    fr_t *val = malloc(CLI_SNAP_SPARSE_NODES * sizeof *val);
    if (!val)
        return nomem(err, "the new data");
    cuzk_status st = cli_draw_snap_data(idx, val, sh->nodes, seed, err);
    if (st == CUZK_OK)
        st = fil_snap_encode_sparse(u, sh->kind, s, idx, val, CLI_SNAP_SPARSE_NODES, sh->hs[3],
                                    threads, err);
    free(val);
    return st;
}

/* The encoding of new data into a sealed sector (dense: every node;
 * sparse: CLI_SNAP_SPARSE_NODES), every partition's witness from its vanilla
 * proof. */
static cuzk_status snap_encode(bench_fil_inputs_t *in, const fil_sealed_t *s,
                               const fil_update_shape_t *sh, fil_circuit_kind kind, uint64_t seed,
                               int threads, cuzk_error_t *err)
{
    uint64_t nodes = sh->nodes;
    const int sparse = fil_sealed_info(s)->sector_size > FIL_SEAL_DENSE_MAX_SIZE;
    snap_nodes_t S;
    S.s = s;
    S.r_old = sparse ? NULL : malloc(nodes * sizeof(fr_t));
    S.d_new = sparse ? NULL : malloc(nodes * sizeof(fr_t));
    S.seed = seed;
    atomic_init(&S.bad, 0);
    fil_snap_update_t *u = NULL;
    cuzk_status st = CUZK_OK;
    fr_t comm_c;
    if (sparse)
        st = snap_update_sparse(&u, s, sh, seed, threads, err);
    else if (!S.r_old || !S.d_new)
        st = nomem(err, "the sector's nodes");
    else if (parallel_for(nodes, 4096, threads, snap_nodes_chunk, &S) != CUZK_OK ||
             atomic_load(&S.bad))
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "reading the replica's nodes");
    if (st == CUZK_OK && !sparse) {
        fil_sealed_comm_c(&comm_c, s);
        st = fil_snap_encode(&u, sh->kind, nodes, S.r_old, &comm_c, S.d_new, sh->hs[3], err);
    }
    free(S.r_old);
    free(S.d_new);
    in->partitions = sh->partitions;
    in->parts = calloc(in->partitions, sizeof *in->parts);
    in->uw = calloc(in->partitions, sizeof *in->uw);
    if (st == CUZK_OK && (!in->parts || !in->uw))
        st = nomem(err, "the SnapDeals witnesses");
    fil_snap_public_t sp;
    for (unsigned k = 0; st == CUZK_OK && k < in->partitions; k++) {
        fil_snap_vproof_t v;
        if ((st = fil_snap_update_vproof(&v, u, k, err)) != CUZK_OK)
            break;
        fil_snap_update_public(&sp, u, k);
        st = fil_snap_vproof_witness(&in->uw[k], sh, &v, &sp, err);
        fil_snap_vproof_free(&v);
        in->parts[k].kind = kind;
        in->parts[k].update.shape = *sh;
        in->parts[k].update.w = &in->uw[k];
    }
    if (st == CUZK_OK) {
        fil_snap_update_public(&sp, u, 0);
        fr_to_le(in->pub.comm_r_old, &sp.comm_r_old);
        fr_to_le(in->pub.comm_d_new, &sp.comm_d_new);
        fr_to_le(in->pub.comm_r_new, &sp.comm_r_new);
        in->pub.h = sp.h;
        in->pub.have = FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_D_NEW | FIL_PUB_COMM_R_NEW | FIL_PUB_H;
    }
    fil_snap_update_free(u);
    return st;
}

static cuzk_status make_snap(bench_fil_inputs_t *in, fil_circuit_kind kind, uint64_t size,
                             fil_api_version api, uint64_t seed, int threads, cuzk_error_t *err)
{
    fil_update_kind uk = kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    fil_update_shape_t sh;
    fil_seal_proof sp;
    cuzk_status st = fil_update_shape_init(&sh, uk, size / FIL_NODE_SIZE, err);
    if (st != CUZK_OK || (st = seal_proof(&sp, kind, size, api, err)) != CUZK_OK)
        return st;
    /* above FIL_SEAL_DENSE_MAX_SIZE a sparse sealing with a PoRep seed
     * (real challenged columns), updated sparsely (snap_encode) */
    uint8_t porep_seed[32];
    cli_draw32(porep_seed, seed, "seed", 1);
    fil_sealed_t *s = NULL;
    if ((st = seal_sector(&s, sp, 1, seed, porep_seed, NULL, 0, threads, err)) != CUZK_OK)
        return st;
    in->sectors = 1;
    st = snap_encode(in, s, &sh, kind, seed, threads, err);
    fil_sealed_free(s);
    return st;
}

cuzk_status bench_fil_inputs_make(bench_fil_inputs_t *out, fil_circuit_kind kind,
                                  uint64_t sector_size, fil_api_version api,
                                  unsigned window_partitions, uint64_t seed, int threads,
                                  cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->pub.kind = kind;
    out->pub.sector_size = sector_size;
    out->pub.api = api;
    out->sparse = sector_size > FIL_SEAL_DENSE_MAX_SIZE;
    cuzk_status st;
    fil_seal_proof sp;
    if ((st = seal_proof(&sp, kind, sector_size, api, err)) != CUZK_OK)
        return st;
    out->seal_name = fil_seal_info(sp)->name;
    switch (kind) {
    case FIL_CIRCUIT_POREP: st = make_porep(out, sector_size, api, seed, threads, err); break;
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST:
        if (window_partitions < 1)
            return cuzk_error_set(err, CUZK_ERR_ARG, "window-post: %u partitions (1 or more)",
                                  window_partitions);
        st = make_post(out, kind, sector_size, api, window_partitions, seed, threads, err);
        break;
    case FIL_CIRCUIT_SNAP_DEALS:
    case FIL_CIRCUIT_SNAP_DEALS_POSEIDON:
        st = make_snap(out, kind, sector_size, api, seed, threads, err);
        break;
    default: return cuzk_error_set(err, CUZK_ERR_ARG, "unknown circuit kind %d", (int)kind);
    }
    if (st != CUZK_OK)
        bench_fil_inputs_free(out);
    return st;
}

void bench_fil_inputs_free(bench_fil_inputs_t *in)
{
    for (unsigned k = 0; in->uw && k < in->partitions; k++)
        fil_update_witness_free(&in->uw[k]);
    free(in->uw);
    free(in->ch);
    free(in->secs);
    free(in->parts);
    fil_public_free(&in->pub);
    memset(in, 0, sizeof *in);
}
