/* The sparse sealer (filecoin_seal.h fil_seal_sparse): a 32 or 64 GiB
 * sector whose every challenged path is real, at the cost of a few
 * thousand hashes. RFP = filecoin-project/rust-fil-proofs@87348a7.
 *
 * DESIGN. The sector is a committed-capacity sector: every data node is
 * zero, so tree_d is the all-zero tree and comm_d the published zero-piece
 * commitment; replica_id and the interactive challenges (replica_id, seed)
 * follow before any label exists. A label is real where a circuit checks
 * it: at a challenged node c, every layer's label is create_label over its
 * parents' labels as the dense sealer computes it. Elsewhere a label is a
 * fixed stand-in, SHA-256(tag || replica_id || layer || node) with the
 * top two bits cleared, which nothing recomputes: a real sealing would
 * need every label below it. Challenged labels are computed layer by
 * layer in node order, so a challenged DRG parent (always an earlier
 * node) and a challenged expander parent (the layer below) are real when
 * they are read.
 *
 * tree_c and tree_r_last are sparse: a leaf is materialized at the
 * challenged nodes and their 14 parents (tree_c: the column hash of its
 * labels) and at the challenged nodes and the given PoSt leaves (tree_r:
 * the replica, label_L + data = label_L); every other leaf is zero and an
 * untouched subtree is the hash of an all-zero subtree of its height. Only
 * the materialized leaves' ancestors are stored, a sorted array per
 * level (sparse_tree.h); any other node is its level's zero hash. Every node of the
 * full-size tree therefore has one value, every path ends in the one
 * root, and the circuits' checks (inclusion, labeling, encoding, comm_r)
 * hold for every challenge.
 *
 * Synthetic and non-interactive proofs draw challenges from comm_r, which
 * depends on the materialized nodes: they are refused when a seed is
 * given. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/parallel.h"
#include "cuzk/poseidon.h"
#include "fil_internal.h"
#include "seal_internal.h"
#include "sparse_tree.h"

static const char STANDIN_TAG[] = "cuzk sparse label v1";

typedef struct sparse {
    fil_sealed_t s; /* first: the reader's callbacks cast back to the sealing */
    uint8_t rid[32];
    uint64_t *chal; /* the challenged nodes, sorted, unique */
    size_t n_chal;
    uint8_t (*labels)[32]; /* label (l, chal[k]) at k * layers + l - 1 */
    fil_sparse_tree_t tree[FIL_SEAL_TREES];
} sparse_t;

/* ---- labels --------------------------------------------------------------- */

static cuzk_status standin_label(uint8_t out[32], const sparse_t *s, unsigned layer, uint64_t node,
                                 cuzk_error_t *err)
{
    uint8_t l[4], n[8];
    for (int k = 0; k < 4; k++)
        l[k] = (uint8_t)(layer >> (8 * k));
    for (int k = 0; k < 8; k++)
        n[k] = (uint8_t)(node >> (8 * k));
    const void *parts[4] = {STANDIN_TAG, s->rid, l, n};
    size_t lens[4] = {sizeof STANDIN_TAG - 1, 32, 4, 8};
    cuzk_status st = fil_sha256_parts(out, parts, lens, 4, err);
    out[31] &= 0x3f;
    return st;
}

/* The label's bytes: the challenged node's real one (computed before it
 * is read: see labels_make), else the stand-in. */
static cuzk_status label_bytes(uint8_t out[32], const sparse_t *s, unsigned layer, uint64_t node,
                               cuzk_error_t *err)
{
    size_t k = fil_sparse_find(s->chal, s->n_chal, node);
    if (k == s->n_chal)
        return standin_label(out, s, layer, node, err);
    memcpy(out, s->labels[k * s->s.rd.info->layers + layer - 1], 32);
    return CUZK_OK;
}

/* create_label over the parents' labels as graph.rs copy_parents_data(_exp)
 * feeds them (seal.c label_node): layer 1 the 6 DRG parents, later layers
 * those and the 8 expander parents in the layer below, repeated to 37. */
static cuzk_status labels_make(sparse_t *s, cuzk_error_t *err)
{
    const fil_seal_info_t *info = s->s.rd.info;
    uint8_t par[FIL_DEGREE][32];
    const uint8_t *expanded[FIL_LABEL_PARENTS];
    cuzk_status st = CUZK_OK;
    for (unsigned layer = 1; layer <= info->layers && st == CUZK_OK; layer++)
        for (size_t k = 0; k < s->n_chal && st == CUZK_OK; k++) {
            uint64_t c = s->chal[k];
            uint32_t p[FIL_DEGREE];
            unsigned n = layer == 1 ? FIL_DRG_DEGREE : FIL_DEGREE;
            st = fil_graph_parents(p, &s->s.rd.graph, c, err);
            for (unsigned j = 0; j < n && st == CUZK_OK; j++) {
                if (j < FIL_DRG_DEGREE && p[j] >= c)
                    return cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                          "sparse sealing: DRG parent %u of node %llu is not "
                                          "an earlier node",
                                          p[j], (unsigned long long)c);
                st = label_bytes(par[j], s, j < FIL_DRG_DEGREE ? layer : layer - 1, p[j], err);
            }
            for (unsigned j = 0; j < FIL_LABEL_PARENTS; j++)
                expanded[j] = par[j % n];
            if (st == CUZK_OK)
                st = fil_create_label(s->labels[k * info->layers + layer - 1], s->rid, layer, c,
                                      expanded, err);
        }
    return st;
}

/* ---- trees ---------------------------------------------------------------- */

/* Tree `which` over its materialized leaves (level 0 filled). */
static cuzk_status tree_make(sparse_t *s, fil_seal_tree which, int threads, cuzk_error_t *err)
{
    const fil_seal_reader_t *r = &s->s.rd;
    return fil_sparse_tree_make(&s->tree[which], &r->shape[which], r->info->nodes, threads, err);
}

/* tree_c's leaves: the column hashes (hash.rs hash_single_column) of the
 * challenged nodes and their parents. */
typedef struct column_job {
    const sparse_t *s;
    const poseidon_constants_t *pc;
    fil_sparse_level_t *leaves;
    fil_seal_fail_t *f;
} column_job_t;

/* fil_seal_label_bytes_fn over label_bytes (ctx: the sparse_t). */
static cuzk_status column_label(uint8_t out[32], const void *ctx, unsigned layer, uint64_t node,
                                cuzk_error_t *err)
{
    return label_bytes(out, ctx, layer, node, err);
}

static void column_range(void *ctx, size_t begin, size_t end)
{
    column_job_t *j = ctx;
    unsigned layers = j->s->s.rd.info->layers;
    for (size_t i = begin; i < end && !fil_seal_fail_seen(j->f); i++) {
        cuzk_error_t e;
        cuzk_status st = fil_seal_column_hash(&j->leaves->val[i], NULL, j->pc, layers, column_label,
                                              j->s, j->leaves->idx[i], "sparse sealing", &e);
        if (st != CUZK_OK) {
            fil_seal_fail_record(j->f, st, &e);
            return;
        }
    }
}

static cuzk_status tree_c_make(sparse_t *s, int threads, cuzk_error_t *err)
{
    fil_seal_reader_t *r = &s->s.rd;
    fil_sparse_level_t *lv = &s->tree[FIL_SEAL_TREE_C].level[0];
    cuzk_status st = fil_sparse_leaves_alloc(lv, s->n_chal * (1 + FIL_DEGREE), err);
    for (size_t k = 0; k < s->n_chal && st == CUZK_OK; k++) {
        uint32_t p[FIL_DEGREE];
        lv->idx[lv->n++] = s->chal[k];
        if ((st = fil_graph_parents(p, &r->graph, s->chal[k], err)) == CUZK_OK)
            for (unsigned j = 0; j < FIL_DEGREE; j++)
                lv->idx[lv->n++] = p[j];
    }
    if (st != CUZK_OK)
        return st;
    lv->n = fil_sparse_sort_unique(lv->idx, lv->n);
    fil_seal_fail_t f = {0};
    column_job_t j = {.s = s, .leaves = lv, .f = &f};
    if ((st = poseidon_constants_get(&j.pc, r->info->layers, err)) != CUZK_OK)
        return st;
    st = fil_seal_run_parallel(lv->n, 8, threads, column_range, &j, &f, "sparse sealing", err);
    if (st != CUZK_OK)
        return st;
    st = tree_make(s, FIL_SEAL_TREE_C, threads, err);
    if (st == CUZK_OK)
        fil_sparse_tree_root(&r->comm_c, &s->tree[FIL_SEAL_TREE_C]);
    return st;
}

/* tree_r_last's leaves: replica = data (zero) + label_L (encode.rs) at
 * the challenged nodes and the PoSt leaves. */
static cuzk_status tree_r_make(sparse_t *s, const uint64_t *post, size_t n_post, int threads,
                               cuzk_error_t *err)
{
    fil_seal_reader_t *r = &s->s.rd;
    fil_sparse_level_t *lv = &s->tree[FIL_SEAL_TREE_R].level[0];
    cuzk_status st = fil_sparse_leaves_alloc(lv, s->n_chal + n_post, err);
    if (st != CUZK_OK)
        return st;
    if (s->n_chal) /* NULL without a seed */
        memcpy(lv->idx, s->chal, s->n_chal * sizeof *lv->idx);
    if (n_post)
        memcpy(lv->idx + s->n_chal, post, n_post * sizeof *lv->idx);
    lv->n = fil_sparse_sort_unique(lv->idx, s->n_chal + n_post);
    for (size_t i = 0; i < lv->n && st == CUZK_OK; i++) {
        uint8_t b[32];
        if ((st = label_bytes(b, s, r->info->layers, lv->idx[i], err)) == CUZK_OK &&
            fr_from_le(&lv->val[i], b) != CUZK_OK)
            st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "sparse sealing: label not canonical");
    }
    if (st == CUZK_OK)
        st = tree_make(s, FIL_SEAL_TREE_R, threads, err);
    if (st == CUZK_OK)
        fil_sparse_tree_root(&r->comm_r_last, &s->tree[FIL_SEAL_TREE_R]);
    return st;
}

/* ---- the reader ----------------------------------------------------------- */

static cuzk_status sparse_label(fr_t *out, const fil_seal_reader_t *r, unsigned layer,
                                uint64_t node, cuzk_error_t *err)
{
    if (layer < 1 || layer > r->info->layers || node >= r->info->nodes)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "sealed sector: label (layer %u, node %llu) of "
                              "%u layers x %llu nodes",
                              layer, (unsigned long long)node, r->info->layers,
                              (unsigned long long)r->info->nodes);
    uint8_t b[32];
    cuzk_status st = label_bytes(b, (const sparse_t *)r, layer, node, err);
    if (st == CUZK_OK && fr_from_le(out, b) != CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "sealed sector: label not canonical");
    return st;
}

static cuzk_status sparse_tree_node(fr_t *out, const fil_seal_reader_t *r, fil_seal_tree t,
                                    unsigned level, uint64_t index, cuzk_error_t *err)
{
    const sparse_t *s = (const sparse_t *)r;
    if ((unsigned)t >= FIL_SEAL_TREES || level > r->levels[t] || index >= s->tree[t].len[level])
        return cuzk_error_set(err, CUZK_ERR_ARG, "sealed sector: tree %d level %u node %llu",
                              (int)t, level, (unsigned long long)index);
    fil_sparse_tree_node(out, &s->tree[t], level, index);
    return CUZK_OK;
}

/* ---- fil_seal_sparse ------------------------------------------------------ */

static void sparse_destroy(fil_sealed_t *base)
{
    sparse_t *s = (sparse_t *)base;
    for (int t = 0; t < FIL_SEAL_TREES; t++)
        fil_sparse_tree_clear(&s->tree[t]);
    free(s->chal);
    free(s->labels);
    free(s);
}

/* Every partition's challenges for seed (interactive: from replica_id and
 * the seed only). */
static cuzk_status challenges_make(sparse_t *s, const uint8_t seed[32], cuzk_error_t *err)
{
    const fil_seal_info_t *info = s->s.rd.info;
    if (info->kind != FIL_POREP_INTERACTIVE)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "sparse sealing: %s draws its PoRep challenges from comm_r, which "
                              "depends on the challenged nodes; only interactive proofs "
                              "(V1, V1_1) seal sparsely with a seed",
                              info->name);
    size_t per = info->challenges_per_partition, cap = per * info->partitions;
    if (!(s->chal = malloc(cap * sizeof *s->chal)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "sparse sealing: no memory for challenges");
    static const uint8_t no_comm_r[32]; /* interactive challenges do not read it */
    for (unsigned k = 0; k < info->partitions; k++) {
        size_t n = 0;
        cuzk_status st = fil_porep_partition_challenges(
            s->chal + s->n_chal, cap - s->n_chal, &n, info->proof, s->rid, no_comm_r, seed, k, err);
        if (st != CUZK_OK)
            return st;
        s->n_chal += n;
    }
    s->n_chal = fil_sparse_sort_unique(s->chal, s->n_chal);
    if (!(s->labels = malloc((s->n_chal ? s->n_chal : 1) * info->layers * sizeof *s->labels)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "sparse sealing: no memory for labels");
    return CUZK_OK;
}

cuzk_status fil_seal_sparse(fil_sealed_t **out, fil_seal_proof proof, const uint8_t prover_id[32],
                            uint64_t sector_id, const uint8_t ticket[32], const uint8_t *seed,
                            const uint64_t *post_leaves, size_t n_post_leaves, int threads,
                            cuzk_error_t *err)
{
    if (!out || !prover_id || !ticket || (n_post_leaves && !post_leaves))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_seal_sparse: NULL %s",
                              !out         ? "out"
                              : !prover_id ? "prover_id"
                              : !ticket    ? "ticket"
                                           : "post_leaves");
    *out = NULL;
    const fil_seal_info_t *info = fil_seal_info(proof);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "fil_seal_sparse: proof %d is not a registered seal proof",
                              (int)proof);
    for (size_t i = 0; i < n_post_leaves; i++)
        if (post_leaves[i] >= info->nodes)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "fil_seal_sparse: post_leaves[%zu] = %llu: the sector has %llu "
                                  "leaves",
                                  i, (unsigned long long)post_leaves[i],
                                  (unsigned long long)info->nodes);
    sparse_t *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_seal_sparse: no memory");
    fil_seal_reader_t *r = &s->s.rd;
    s->s.destroy = sparse_destroy;
    r->label = sparse_label;
    r->tree_node = sparse_tree_node;
    cuzk_status st = fil_seal_reader_init(r, info, sector_id, err);
    /* tree_d: no leaf materialized, every data node zero */
    if (st == CUZK_OK)
        st = tree_make(s, FIL_SEAL_TREE_D, threads, err);
    if (st == CUZK_OK) {
        fil_sparse_tree_root(&r->comm_d, &s->tree[FIL_SEAL_TREE_D]);
        st = fil_seal_reader_replica_id(s->rid, r, prover_id, ticket, err);
    }
    if (st == CUZK_OK && seed)
        st = challenges_make(s, seed, err);
    if (st == CUZK_OK)
        st = labels_make(s, err);
    if (st == CUZK_OK)
        st = tree_c_make(s, threads, err);
    if (st == CUZK_OK)
        st = tree_r_make(s, post_leaves, n_post_leaves, threads, err);
    if (st == CUZK_OK)
        st = fil_seal_reader_comm_r(r, err);
    if (st != CUZK_OK) {
        fil_sealed_free(&s->s);
        return st;
    }
    *out = &s->s;
    return CUZK_OK;
}

const fil_sparse_tree_t *fil_seal_sparse_tree(const fil_sealed_t *s, fil_seal_tree t)
{
    if (s->destroy != sparse_destroy || (unsigned)t >= FIL_SEAL_TREES)
        return NULL;
    return &((const sparse_t *)s)->tree[t];
}
