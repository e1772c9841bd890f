/* The SDR parent graph of Filecoin's stacked DRG PoRep: per node 6 DRG
 * parents (bucket sampling) and 8 expander parents (a Feistel permutation),
 * and the parent cache file made of them.
 *
 * Sources (RFP = filecoin-project/rust-fil-proofs@87348a7):
 *  - DRG: storage-proofs-core/src/drgraph.rs (BucketGraph::parents,
 *    derive_drg_seed), seeded by SHA-256("Filecoin_DRSample" || porep_id)
 *    (crypto/mod.rs derive_porep_domain_seed), ChaCha8Rng per node;
 *  - expander: storage-proofs-porep/src/stacked/vanilla/graph.rs
 *    (derive_feistel_keys, correspondent) and storage-proofs-core/src/
 *    crypto/feistel.rs (precompute, permute, the BLAKE2b-512 round);
 *  - the cache: stacked/vanilla/cache.rs (per node 14 u32 little-endian, 6
 *    DRG then 8 expander parents; file v28-sdr-parent-<hex>.cache where hex
 *    = SHA-256("poseidon_hasher" || graph identifier || the 4 Feistel keys
 *    u64 LE || nodes u32 LE)), digests in parent_cache.json.
 * API-version quirks: under 1.0.0 the immediate predecessor node - 1 is DRG
 * slot 5 and the expander parent is (u32)permuted / 8 (the truncation bug);
 * from 1.1.0 it is slot 0 and permuted / 8.
 *
 * Rules: outputs first; pointers are required. A fil_graph_t is immutable
 * once made: any number of threads may read it. */
#ifndef CUZK_FILECOIN_GRAPH_H
#define CUZK_FILECOIN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_proofs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_DRG_DEGREE 6u /* drgraph.rs BASE_DEGREE */
#define FIL_EXP_DEGREE 8u /* graph.rs EXP_DEGREE */
#define FIL_DEGREE 14u
/* "v28-sdr-parent-" + 64 hex digits + NUL */
#define FIL_PARENT_CACHE_NAME_MAX 80u

typedef struct fil_graph {
    uint64_t nodes;
    fil_api_version api;
    uint8_t drg_seed[28];     /* SHA-256("Filecoin_DRSample" || porep_id)[0..28] */
    uint64_t feistel_keys[4]; /* SHA-256("Filecoin_Feistel" || porep_id), 4 u64 LE */
    /* feistel.rs precompute(8 * nodes): half_bits = log4 of the smallest
     * power of 4 >= 8 * nodes (at least 1) */
    uint64_t left_mask, right_mask;
    unsigned half_bits;
} fil_graph_t;

/* The graph of `nodes` nodes (2 <= nodes <= 2^32 - 1, as graph.rs
 * requires) for porep_id under api. Returns CUZK_OK, CUZK_ERR_ARG, or
 * CUZK_ERR_INTERNAL / CUZK_ERR_NOMEM when OpenSSL fails. */
cuzk_status fil_graph_init(fil_graph_t *g, uint64_t nodes, const uint8_t porep_id[32],
                           fil_api_version api, cuzk_error_t *err);
/* The same from a registered seal proof (its nodes, porep id and API). */
cuzk_status fil_graph_init_seal(fil_graph_t *g, fil_seal_proof p, cuzk_error_t *err);

/* The 6 DRG parents of node < nodes (all 0 for nodes 0 and 1). */
cuzk_status fil_graph_drg_parents(uint32_t out[FIL_DRG_DEGREE], const fil_graph_t *g, uint64_t node,
                                  cuzk_error_t *err);
/* The 8 expander parents of node < nodes. */
cuzk_status fil_graph_exp_parents(uint32_t out[FIL_EXP_DEGREE], const fil_graph_t *g, uint64_t node,
                                  cuzk_error_t *err);
/* The 14 parents of node: DRG then expander (a parent cache entry). */
cuzk_status fil_graph_parents(uint32_t out[FIL_DEGREE], const fil_graph_t *g, uint64_t node,
                              cuzk_error_t *err);

/* The parent cache bytes of nodes [first, first + count): per node 14 u32
 * LE, 56 bytes, into out (count * 56 bytes). Runs on up to `threads`
 * threads (parallel.h rules: <= 0 means every CPU). */
cuzk_status fil_parent_cache_fill(uint8_t *out, const fil_graph_t *g, uint64_t first,
                                  uint64_t count, int threads, cuzk_error_t *err);

/* The whole parent cache, streamed in slices of a few MiB (never the whole
 * cache in memory): each slice goes to write(ctx, data, n) in order; a
 * non-zero return from write stops the stream with CUZK_ERR_IO. */
typedef int (*fil_cache_write_fn)(void *ctx, const uint8_t *data, size_t n);
cuzk_status fil_parent_cache_stream(const fil_graph_t *g, int threads, fil_cache_write_fn write,
                                    void *ctx, cuzk_error_t *err);

/* The SHA-256 of the whole parent cache (what parent_cache.json lists),
 * streamed. */
cuzk_status fil_parent_cache_digest(uint8_t out[32], const fil_graph_t *g, int threads,
                                    cuzk_error_t *err);

/* The cache id rust-fil-proofs names the file by and keys parent_cache.json
 * with, "v28-sdr-parent-<64 hex>" (append ".cache" for the file name). */
cuzk_status fil_parent_cache_name(char out[FIL_PARENT_CACHE_NAME_MAX], const fil_graph_t *g,
                                  cuzk_error_t *err);

/* Where filecoin-proofs keeps parent caches: $FIL_PROOFS_PARENT_CACHE,
 * else /var/tmp/filecoin-parents; the file is <name>.cache (name as
 * fil_parent_cache_name). CUZK_ERR_ARG when the path does not fit cap. */
cuzk_status fil_parent_cache_path(char *out, size_t cap, const fil_graph_t *g, cuzk_error_t *err);

/* The parent cache file of g at fil_parent_cache_path, made when missing:
 * an existing file of the right size is taken as it is (filecoin-proofs'
 * own, or ours); otherwise the cache is streamed into a temporary file in
 * the same folder (created when missing), fsynced and renamed into place,
 * so that a reader never sees half a cache and two writers never corrupt
 * one. *made says which (may be NULL). Returns CUZK_OK, CUZK_ERR_IO (the
 * path and errno text), CUZK_ERR_FORMAT (a file there of another size),
 * CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status fil_parent_cache_ensure(char *path, size_t cap, int *made, const fil_graph_t *g,
                                    int threads, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
