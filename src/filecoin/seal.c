/* The dense sealer (filecoin_seal.h): every label and every tree level in
 * memory. RFP = filecoin-project/rust-fil-proofs@87348a7.
 *
 * DESIGN. fil_seal runs its stages in order (data, tree_d, replica_id,
 * labels, columns and replica, tree_c and tree_r_last, comm_r); within a
 * stage, parallel_for workers each write a disjoint slice of an array the
 * stage owns and read only arrays finished by earlier stages. Labels of
 * one layer are sequential (a node's DRG parents are earlier nodes of the
 * same layer); only their parents are computed in parallel, a chunk at a
 * time. A worker's failure (OpenSSL out of memory) is kept in a
 * fil_seal_fail_t (seal_internal.h), read after every worker has joined.
 * Once fil_seal returns, the sealing is never written again. */
#include "cuzk/filecoin_seal.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/parallel.h"
#include "cuzk/poseidon.h"
#include "fil_internal.h"
#include "seal_internal.h"

/* Parent cache entries (56 bytes a node): kept for every layer up to
 * 2^20 nodes (56 MiB; 32 MiB sectors); above, made a chunk of 2^16 nodes
 * (3.5 MiB) at a time, again for each layer. The Feistel expander costs
 * about as much as the column hashes, so computing it once matters. */
#define PARENT_KEEP_NODES (1ull << 20)
#define PARENT_CHUNK (1u << 16)

static size_t parent_chunk(uint64_t nodes)
{
    return nodes <= PARENT_KEEP_NODES ? (size_t)nodes : PARENT_CHUNK;
}

typedef struct dense_tree {
    fr_t *level[FIL_MERKLE_MAX_LEVELS + 1]; /* level[0]: the leaves; level[levels]: the root */
    uint64_t len[FIL_MERKLE_MAX_LEVELS + 1];
} dense_tree_t;

typedef struct dense {
    fil_sealed_t s;        /* first: the reader's callbacks cast back to the sealing */
    uint8_t (*labels)[32]; /* label (l, i) at (l - 1) * nodes + i, as create_label stores it */
    dense_tree_t tree[FIL_SEAL_TREES];
} dense_t;

/* ---- sizes -------------------------------------------------------------- */

static void tree_lens(uint64_t len[FIL_MERKLE_MAX_LEVELS + 1], const fil_tree_shape_t *shape,
                      unsigned base_levels, unsigned levels, uint64_t leaves)
{
    len[0] = leaves;
    for (unsigned l = 0; l < levels; l++)
        len[l + 1] = len[l] / fil_tree_shape_level_arity(shape, base_levels, l);
}

static uint64_t tree_bytes(const fil_tree_shape_t *shape, uint64_t leaves)
{
    unsigned base_levels, levels;
    if (fil_tree_shape_levels(&base_levels, &levels, shape, leaves, NULL) != CUZK_OK)
        return 0;
    uint64_t len[FIL_MERKLE_MAX_LEVELS + 1], sum = 0;
    tree_lens(len, shape, base_levels, levels, leaves);
    for (unsigned l = 0; l <= levels; l++)
        sum += len[l];
    return sum * sizeof(fr_t);
}

uint64_t fil_seal_dense_bytes(fil_seal_proof p)
{
    const fil_seal_info_t *info = fil_seal_info(p);
    fil_tree_shape_t tr;
    if (!info || fil_sector_tree(&tr, info->sector_size, NULL) != CUZK_OK)
        return 0;
    uint64_t parents = (uint64_t)parent_chunk(info->nodes) * FIL_DEGREE * sizeof(uint32_t);
    return (uint64_t)info->layers * info->nodes * 32u +
           tree_bytes(&FIL_SEAL_TREE_D_SHAPE, info->nodes) + 2 * tree_bytes(&tr, info->nodes) +
           parents;
}

/* ---- the data ----------------------------------------------------------- */

typedef struct data_job {
    fr_t *out;
    uint64_t seed;
    fil_seal_fail_t *f;
} data_job_t;

/* node i = SHA-256(seed u64 LE || i u64 LE), top two bits cleared: fr32
 * data, below 2^254 */
static void data_range(void *ctx, size_t begin, size_t end)
{
    data_job_t *j = ctx;
    uint8_t seed[8], idx[8], d[32];
    for (int k = 0; k < 8; k++)
        seed[k] = (uint8_t)(j->seed >> (8 * k));
    for (size_t i = begin; i < end && !fil_seal_fail_seen(j->f); i++) {
        for (int k = 0; k < 8; k++)
            idx[k] = (uint8_t)((uint64_t)i >> (8 * k));
        const void *parts[2] = {seed, idx};
        size_t lens[2] = {8, 8};
        cuzk_error_t e;
        cuzk_status st = fil_sha256_parts(d, parts, lens, 2, &e);
        if (st == CUZK_OK) {
            d[31] &= 0x3f;
            st = fr_from_le(&j->out[i], d);
            if (st != CUZK_OK)
                cuzk_error_set(&e, CUZK_ERR_INTERNAL, "fil_seal: data node %zu not canonical", i);
        }
        if (st != CUZK_OK)
            fil_seal_fail_record(j->f, st, &e);
    }
}

static cuzk_status data_fill(fr_t *out, const fr_t *data, uint64_t nodes, uint64_t seed,
                             int threads, cuzk_error_t *err)
{
    if (data) {
        for (uint64_t i = 0; i < nodes; i++) {
            uint8_t b[32];
            fr_to_le(b, &data[i]);
            if (b[31] & 0xc0)
                return cuzk_error_set(err, CUZK_ERR_ARG,
                                      "fil_seal: data node %llu (byte offset %llu) is 2^254 or "
                                      "more: not fr32 data (byte 31's top two bits must be 0)",
                                      (unsigned long long)i, (unsigned long long)(i * 32));
        }
        memcpy(out, data, nodes * sizeof *out);
        return CUZK_OK;
    }
    fil_seal_fail_t f = {0};
    data_job_t j = {out, seed, &f};
    return fil_seal_run_parallel((size_t)nodes, 1024, threads, data_range, &j, &f, "fil_seal", err);
}

/* ---- trees -------------------------------------------------------------- */

typedef struct level_job {
    const fr_t *in;
    fr_t *out;
    unsigned arity;
    fil_hasher hasher;
    const poseidon_constants_t *pc; /* the arity's, for Poseidon */
    fil_seal_fail_t *f;
} level_job_t;

static void level_range(void *ctx, size_t begin, size_t end)
{
    level_job_t *j = ctx;
    for (size_t i = begin; i < end && !fil_seal_fail_seen(j->f); i++) {
        const fr_t *children = &j->in[i * j->arity];
        cuzk_error_t e;
        cuzk_status st =
            j->hasher == FIL_HASHER_POSEIDON
                ? poseidon_hash(&j->out[i], j->pc, children, j->arity, POSEIDON_OPTIMIZED, &e)
                : fil_merkle_node(&j->out[i], j->hasher, children, j->arity, &e);
        if (st != CUZK_OK)
            fil_seal_fail_record(j->f, st, &e);
    }
}

/* Every level above the leaves (t->level[0], already filled), one level
 * at a time, each level's nodes in parallel. */
static cuzk_status tree_build(dense_tree_t *t, const fil_seal_reader_t *r, fil_seal_tree which,
                              int threads, cuzk_error_t *err)
{
    const fil_tree_shape_t *shape = &r->shape[which];
    for (unsigned l = 0; l < r->levels[which]; l++) {
        fil_seal_fail_t f = {0};
        level_job_t j = {.in = t->level[l],
                         .out = t->level[l + 1],
                         .arity = fil_tree_shape_level_arity(shape, r->base_levels[which], l),
                         .hasher = shape->hasher,
                         .f = &f};
        cuzk_status st = CUZK_OK;
        if (shape->hasher == FIL_HASHER_POSEIDON)
            st = poseidon_constants_get(&j.pc, j.arity, err);
        if (st == CUZK_OK)
            st = fil_seal_run_parallel((size_t)t->len[l + 1], 64, threads, level_range, &j, &f,
                                       "fil_seal", err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status tree_alloc(dense_tree_t *t, const fil_seal_reader_t *r, fil_seal_tree which,
                              cuzk_error_t *err)
{
    tree_lens(t->len, &r->shape[which], r->base_levels[which], r->levels[which], r->info->nodes);
    for (unsigned l = 0; l <= r->levels[which]; l++)
        if (!(t->level[l] = malloc((size_t)t->len[l] * sizeof(fr_t))))
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "fil_seal: no memory for tree %d level %u (%llu nodes)",
                                  (int)which, l, (unsigned long long)t->len[l]);
    return CUZK_OK;
}

/* ---- labels ------------------------------------------------------------- */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* create_label (layer 1) / create_label_exp: the parents' labels expanded
 * to 37 as graph.rs copy_parents_data(_exp) feeds them: the n = 6 (layer
 * 1) or 14 parents repeated, parent k % n in slot k. */
static cuzk_status label_node(uint8_t out[32], const dense_t *s, const uint8_t rid[32],
                              unsigned layer, uint64_t node, const uint8_t *entry,
                              cuzk_error_t *err)
{
    if (node == 0)
        return fil_create_label(out, rid, layer, 0, NULL, err);
    uint64_t nodes = s->s.rd.info->nodes;
    const uint8_t(*cur)[32] = s->labels + (size_t)(layer - 1) * nodes;
    const uint8_t *par[FIL_DEGREE], *expanded[FIL_LABEL_PARENTS];
    unsigned n = FIL_DRG_DEGREE;
    for (unsigned k = 0; k < FIL_DRG_DEGREE; k++)
        par[k] = cur[le32(entry + 4 * k)];
    if (layer > 1) {
        const uint8_t(*prev)[32] = cur - nodes;
        for (unsigned k = FIL_DRG_DEGREE; k < FIL_DEGREE; k++)
            par[k] = prev[le32(entry + 4 * k)];
        n = FIL_DEGREE;
    }
    for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
        expanded[k] = par[k % n];
    return fil_create_label(out, rid, layer, node, expanded, err);
}

static cuzk_status labels_make(dense_t *s, const uint8_t rid[32], int threads, cuzk_error_t *err)
{
    uint64_t nodes = s->s.rd.info->nodes;
    size_t chunk = parent_chunk(nodes);
    int keep = chunk == nodes; /* one chunk: made for layer 1, read by every layer */
    uint8_t *entries = malloc(chunk * FIL_DEGREE * 4);
    if (!entries)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_seal: no memory for parents");
    cuzk_status st = CUZK_OK;
    for (unsigned layer = 1; layer <= s->s.rd.info->layers && st == CUZK_OK; layer++) {
        uint8_t(*cur)[32] = s->labels + (size_t)(layer - 1) * nodes;
        for (uint64_t first = 0; first < nodes && st == CUZK_OK; first += chunk) {
            uint64_t count = nodes - first < chunk ? nodes - first : chunk;
            if (!keep || layer == 1)
                st = fil_parent_cache_fill(entries, &s->s.rd.graph, first, count, threads, err);
            for (uint64_t i = 0; i < count && st == CUZK_OK; i++)
                st = label_node(cur[first + i], s, rid, layer, first + i,
                                entries + i * FIL_DEGREE * 4, err);
        }
    }
    free(entries);
    return st;
}

/* ---- columns and the replica -------------------------------------------- */

typedef struct column_job {
    const dense_t *s;
    const poseidon_constants_t *pc; /* arity = layers */
    fr_t *cols, *replica;
    fil_seal_fail_t *f;
} column_job_t;

/* fil_seal_label_bytes_fn over the dense labels (ctx: the dense_t). */
static cuzk_status column_label(uint8_t out[32], const void *ctx, unsigned layer, uint64_t node,
                                cuzk_error_t *err)
{
    (void)err; /* the labels are all in memory */
    const dense_t *s = ctx;
    memcpy(out, s->labels[(size_t)(layer - 1) * s->s.rd.info->nodes + node], 32);
    return CUZK_OK;
}

/* hash.rs hash_single_column over the labels of every layer at node i;
 * encode.rs encode(key = label_L[i], value = data[i]) = data + key */
static void column_range(void *ctx, size_t begin, size_t end)
{
    column_job_t *j = ctx;
    const dense_t *s = j->s;
    unsigned layers = s->s.rd.info->layers;
    const fr_t *data = s->tree[FIL_SEAL_TREE_D].level[0];
    for (size_t i = begin; i < end && !fil_seal_fail_seen(j->f); i++) {
        fr_t key;
        cuzk_error_t e;
        cuzk_status st = fil_seal_column_hash(&j->cols[i], &key, j->pc, layers, column_label, s, i,
                                              "fil_seal", &e);
        if (st != CUZK_OK) {
            fil_seal_fail_record(j->f, st, &e);
            return;
        }
        fr_add(&j->replica[i], &data[i], &key);
    }
}

/* ---- the reader --------------------------------------------------------- */

static cuzk_status dense_label(fr_t *out, const fil_seal_reader_t *r, unsigned layer, uint64_t node,
                               cuzk_error_t *err)
{
    const dense_t *s = (const dense_t *)r;
    if (layer < 1 || layer > r->info->layers || node >= r->info->nodes)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "sealed sector: label (layer %u, node %llu) of "
                              "%u layers x %llu nodes",
                              layer, (unsigned long long)node, r->info->layers,
                              (unsigned long long)r->info->nodes);
    if (fr_from_le(out, s->labels[(size_t)(layer - 1) * r->info->nodes + node]) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "sealed sector: label not canonical");
    return CUZK_OK;
}

static cuzk_status dense_tree_node(fr_t *out, const fil_seal_reader_t *r, fil_seal_tree t,
                                   unsigned level, uint64_t index, cuzk_error_t *err)
{
    const dense_t *s = (const dense_t *)r;
    if ((unsigned)t >= FIL_SEAL_TREES || level > r->levels[t] || index >= s->tree[t].len[level])
        return cuzk_error_set(err, CUZK_ERR_ARG, "sealed sector: tree %d level %u node %llu",
                              (int)t, level, (unsigned long long)index);
    *out = s->tree[t].level[level][index];
    return CUZK_OK;
}

/* ---- fil_seal ----------------------------------------------------------- */

static void dense_destroy(fil_sealed_t *base)
{
    dense_t *s = (dense_t *)base;
    for (int t = 0; t < FIL_SEAL_TREES; t++)
        for (unsigned l = 0; l <= FIL_MERKLE_MAX_LEVELS; l++)
            free(s->tree[t].level[l]);
    free(s->labels);
    free(s);
}

static cuzk_status sealed_init(dense_t *s, const fil_seal_info_t *info, uint64_t sector_id,
                               cuzk_error_t *err)
{
    fil_seal_reader_t *r = &s->s.rd;
    s->s.destroy = dense_destroy;
    r->label = dense_label;
    r->tree_node = dense_tree_node;
    cuzk_status st = fil_seal_reader_init(r, info, sector_id, err);
    for (int t = 0; t < FIL_SEAL_TREES && st == CUZK_OK; t++)
        st = tree_alloc(&s->tree[t], r, (fil_seal_tree)t, err);
    if (st == CUZK_OK &&
        !(s->labels = malloc((size_t)info->layers * (size_t)info->nodes * sizeof *s->labels)))
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_seal: no memory for %u layers of labels",
                            info->layers);
    return st;
}

static void root(fr_t *out, const dense_t *s, fil_seal_tree t)
{
    *out = s->tree[t].level[s->s.rd.levels[t]][0];
}

/* tree_c and tree_r_last from the labels and the data, then comm_r */
static cuzk_status commit_replica(dense_t *s, int threads, cuzk_error_t *err)
{
    fil_seal_reader_t *r = &s->s.rd;
    fil_seal_fail_t f = {0};
    column_job_t j = {s, NULL, s->tree[FIL_SEAL_TREE_C].level[0], s->tree[FIL_SEAL_TREE_R].level[0],
                      &f};
    cuzk_status st = poseidon_constants_get(&j.pc, r->info->layers, err);
    if (st == CUZK_OK)
        st = fil_seal_run_parallel((size_t)r->info->nodes, 256, threads, column_range, &j, &f,
                                   "fil_seal", err);
    if (st == CUZK_OK)
        st = tree_build(&s->tree[FIL_SEAL_TREE_C], r, FIL_SEAL_TREE_C, threads, err);
    if (st == CUZK_OK)
        st = tree_build(&s->tree[FIL_SEAL_TREE_R], r, FIL_SEAL_TREE_R, threads, err);
    if (st != CUZK_OK)
        return st;
    root(&r->comm_c, s, FIL_SEAL_TREE_C);
    root(&r->comm_r_last, s, FIL_SEAL_TREE_R);
    return fil_seal_reader_comm_r(r, err);
}

cuzk_status fil_seal(fil_sealed_t **out, fil_seal_proof proof, const uint8_t prover_id[32],
                     uint64_t sector_id, const uint8_t ticket[32], const fr_t *data, uint64_t seed,
                     int threads, cuzk_error_t *err)
{
    if (!out || !prover_id || !ticket)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_seal: NULL %s",
                              !out         ? "out"
                              : !prover_id ? "prover_id"
                                           : "ticket");
    *out = NULL;
    const fil_seal_info_t *info = fil_seal_info(proof);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "fil_seal: proof %d is not a registered seal proof", (int)proof);
    if (info->sector_size > FIL_SEAL_DENSE_MAX_SIZE)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "fil_seal: %s: dense sealing keeps every layer in memory (%llu "
                              "bytes); sectors above %llu bytes need sparse sealing",
                              info->name, (unsigned long long)fil_seal_dense_bytes(proof),
                              (unsigned long long)FIL_SEAL_DENSE_MAX_SIZE);
    dense_t *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_seal: no memory");
    uint8_t rid[32];
    cuzk_status st = sealed_init(s, info, sector_id, err);
    if (st == CUZK_OK)
        st = data_fill(s->tree[FIL_SEAL_TREE_D].level[0], data, info->nodes, seed, threads, err);
    if (st == CUZK_OK)
        st = tree_build(&s->tree[FIL_SEAL_TREE_D], &s->s.rd, FIL_SEAL_TREE_D, threads, err);
    if (st == CUZK_OK) {
        root(&s->s.rd.comm_d, s, FIL_SEAL_TREE_D);
        st = fil_seal_reader_replica_id(rid, &s->s.rd, prover_id, ticket, err);
    }
    if (st == CUZK_OK)
        st = labels_make(s, rid, threads, err);
    if (st == CUZK_OK)
        st = commit_replica(s, threads, err);
    if (st != CUZK_OK) {
        fil_sealed_free(&s->s);
        return st;
    }
    *out = &s->s;
    return CUZK_OK;
}
