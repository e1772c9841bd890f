/* Internal to the sealer (filecoin_seal.h): what the vanilla provers
 * (seal_vanilla.c) read of a sealed sector, and nothing more.
 *
 * The provers never touch a sealing's arrays: they read one label or one
 * tree node at a time through fil_seal_reader_t. The dense sealing
 * (seal.c) answers from full arrays; a sparse sealing of 32/64 GiB sectors
 * (only the challenged paths and the labels they depend on materialized)
 * can answer from its own maps, giving an untouched subtree's node as the
 * hash of an all-zero subtree, and share every prover unchanged.
 *
 * Rules: a reader is immutable while provers use it; its functions are
 * called from any number of threads at once. */
#ifndef CUZK_FILECOIN_SEAL_INTERNAL_H
#define CUZK_FILECOIN_SEAL_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/fr.h"
#include "cuzk/parallel.h"
#include "cuzk/poseidon.h"
#include "cuzk/status.h"
#include "sparse_tree.h"

/* The sealing's trees; leaves: tree_d the data, tree_c the column hashes,
 * tree_r the replica (tree_r_last). */
typedef enum fil_seal_tree {
    FIL_SEAL_TREE_D = 0,
    FIL_SEAL_TREE_C = 1,
    FIL_SEAL_TREE_R = 2,
    FIL_SEAL_TREES = 3
} fil_seal_tree;

typedef struct fil_seal_reader fil_seal_reader_t;

struct fil_seal_reader {
    const fil_seal_info_t *info;
    uint64_t sector_id;
    fil_graph_t graph;
    fil_tree_shape_t shape[FIL_SEAL_TREES]; /* tree_d: SHA-256 2-0-0; c and r: the sector's */
    unsigned base_levels[FIL_SEAL_TREES], levels[FIL_SEAL_TREES];
    fr_t replica_id, comm_d, comm_c, comm_r_last, comm_r;
    /* Label (1 <= layer <= layers) of node < nodes. CUZK_OK, or an error
     * when the sealing does not hold it (a sparse one). */
    cuzk_status (*label)(fr_t *out, const fil_seal_reader_t *r, unsigned layer, uint64_t node,
                         cuzk_error_t *err);
    /* Node `index` of level `level` of tree t (level 0: the leaves; the
     * root is level levels[t]). */
    cuzk_status (*tree_node)(fr_t *out, const fil_seal_reader_t *r, fil_seal_tree t, unsigned level,
                             uint64_t index, cuzk_error_t *err);
};

/* Every sealing starts with its reader (dense: seal.c; sparse:
 * seal_sparse.c), so that the public accessors (sealed.c) read any of them
 * through it; destroy frees the whole sealing. */
struct fil_sealed {
    fil_seal_reader_t rd;
    void (*destroy)(fil_sealed_t *s);
};

/* tree_d's shape: the binary SHA-256 tree of the data (DefaultPieceHasher). */
extern const fil_tree_shape_t FIL_SEAL_TREE_D_SHAPE;

/* Fills r's info, sector id, graph, tree shapes and levels (not its
 * callbacks or values). Returns CUZK_OK or the graph's / shape's error. */
cuzk_status fil_seal_reader_init(fil_seal_reader_t *r, const fil_seal_info_t *info,
                                 uint64_t sector_id, cuzk_error_t *err);

/* params.rs generate_replica_id over r->comm_d (set first) and the proof's
 * porep_id: rid's bytes, and r->replica_id. */
cuzk_status fil_seal_reader_replica_id(uint8_t rid[32], fil_seal_reader_t *r,
                                       const uint8_t prover_id[32], const uint8_t ticket[32],
                                       cuzk_error_t *err);

/* comm_r = Poseidon-2(comm_c, comm_r_last) (proof.rs
 * transform_and_replicate_layers), from r's. */
cuzk_status fil_seal_reader_comm_r(fil_seal_reader_t *r, cuzk_error_t *err);

/* The inclusion path of leaf `leaf` in tree t, leaf and root filled. The
 * caller checks leaf < nodes. */
cuzk_status fil_seal_reader_path(fil_merkle_path_t *out, const fil_seal_reader_t *r,
                                 fil_seal_tree t, uint64_t leaf, cuzk_error_t *err);

/* params.rs Proof of one challenge (filecoin_seal.h
 * fil_sealed_porep_challenge). */
cuzk_status fil_seal_reader_porep_challenge(fil_porep_challenge_t *out, const fil_seal_reader_t *r,
                                            uint64_t challenge, cuzk_error_t *err);

/* SectorProof of leaf_challenges[0..n) (fil_sealed_post_vproof). */
cuzk_status fil_seal_reader_post_vproof(fil_post_vproof_t *out, const fil_seal_reader_t *r,
                                        const uint64_t *leaf_challenges, unsigned n,
                                        cuzk_error_t *err);

/* A parallel stage's first failure, for both sealers: the first failing
 * worker claims it with a compare-and-swap and writes its status and
 * message; the others see the claim and stop; the caller reads it after
 * parallel_for has joined every worker. */
typedef struct fil_seal_fail {
    atomic_int claimed;
    cuzk_status st;
    cuzk_error_t err;
} fil_seal_fail_t;

static inline void fil_seal_fail_record(fil_seal_fail_t *f, cuzk_status st, const cuzk_error_t *e)
{
    int expect = 0;
    if (atomic_compare_exchange_strong(&f->claimed, &expect, 1)) {
        f->st = st;
        f->err = *e;
    }
}

static inline int fil_seal_fail_seen(fil_seal_fail_t *f)
{
    return atomic_load_explicit(&f->claimed, memory_order_relaxed);
}

/* Runs fn over [0, n) and turns a recorded failure into the status; who
 * names the sealer in the one error of its own (no memory for threads). */
static inline cuzk_status fil_seal_run_parallel(size_t n, size_t grain, int threads, parallel_fn fn,
                                                void *ctx, fil_seal_fail_t *f, const char *who,
                                                cuzk_error_t *err)
{
    if (parallel_for(n, grain, threads, fn, ctx) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for threads", who);
    if (fil_seal_fail_seen(f)) {
        if (err)
            *err = f->err;
        return f->st;
    }
    return CUZK_OK;
}

/* The bytes of label (layer 1..layers, node) as create_label stores them,
 * from a sealer's own store (dense: its arrays; sparse: its maps). */
typedef cuzk_status (*fil_seal_label_bytes_fn)(uint8_t out[32], const void *ctx, unsigned layer,
                                               uint64_t node, cuzk_error_t *err);

/* RFP@87348a7 storage-proofs-porep/src/stacked/vanilla/hash.rs
 * hash_single_column: Poseidon (arity `layers`, optimized) of node's labels
 * of layers 1..layers, shared by the dense (seal.c) and the sparse
 * (seal_sparse.c) sealers' tree_c leaves. pc must be the constants of arity
 * `layers` (1 <= layers <= FIL_POREP_MAX_LAYERS). *last (when not NULL)
 * gets the last layer's label as an element: encode.rs's key, which the
 * dense sealer adds to the data for the replica.
 * Returns: CUZK_OK; label's error; CUZK_ERR_INTERNAL "<who>: label (layer,
 * node) not canonical" for a label >= r (the labeling masks the top two
 * bits, so only a broken sealer makes one); poseidon_hash's error. */
static inline cuzk_status fil_seal_column_hash(fr_t *out, fr_t *last,
                                               const poseidon_constants_t *pc, unsigned layers,
                                               fil_seal_label_bytes_fn label, const void *ctx,
                                               uint64_t node, const char *who, cuzk_error_t *err)
{
    if (layers < 1 || layers > FIL_POREP_MAX_LAYERS)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "%s: a column of %u layers", who, layers);
    fr_t rows[FIL_POREP_MAX_LAYERS];
    for (unsigned l = 1; l <= layers; l++) {
        uint8_t b[32];
        cuzk_status st = label(b, ctx, l, node, err);
        if (st != CUZK_OK)
            return st;
        if (fr_from_le(&rows[l - 1], b) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "%s: label (%u, %llu) not canonical", who,
                                  l, (unsigned long long)node);
    }
    if (last)
        *last = rows[layers - 1];
    return poseidon_hash(out, pc, rows, layers, POSEIDON_OPTIMIZED, err);
}

/* A sparse sealing's tree t (seal_sparse.c), whose level 0 lists the
 * materialized leaves (every other leaf is zero); NULL for a dense
 * sealing, whose every leaf is materialized. For the sparse SnapDeals
 * encoder (snap_sparse.c), which must know where the old replica is not
 * zero. */
const fil_sparse_tree_t *fil_seal_sparse_tree(const fil_sealed_t *s, fil_seal_tree t);

#endif
