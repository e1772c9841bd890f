/* Internal to the Filecoin layer: the bincode 1.x reading and writing the
 * vanilla proof formats share (filecoin_vanilla.h): integers, domains, Vec
 * lengths and MerkleProof (RFP@87348a7 storage-proofs-core/src/merkle/
 * proof.rs: MerkleProof { data: ProofData }, ProofData Single(root, leaf,
 * path) / Sub(base_proof, sub_proof, root, leaf) / Top(base_proof,
 * sub_proof, top_proof, root, leaf), InclusionPath { path:
 * Vec<PathElement> }, PathElement { hashes: Vec<Domain>, index: usize,
 * _arity: skipped }).
 *
 * The sub and top levels of a compound tree are one hash each
 * (filecoin_merkle.h), so sub_proof and top_proof hold exactly one
 * PathElement; the base path holds at least one. A fil_merkle_path_t
 * keeps the levels of all three in order, so the split is the shape's.
 *
 * Messages read "<what>: <ctx>.<field> at offset <n>: <problem>", the
 * offset that of the first byte of the item at fault. */
#ifndef CUZK_FILECOIN_VANILLA_MERKLE_H
#define CUZK_FILECOIN_VANILLA_MERKLE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_merkle.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

/* A reader over data[0..n): never reads past n, never trusts a length
 * before checking it against what is left. */
typedef struct fil_vrd {
    const uint8_t *p;
    size_t n, at;
    const char *what; /* the format, first in every message */
    char ctx[80];     /* the enclosing field ("challenge_proofs[3].proof_d_new"), or "" */
    cuzk_error_t *err;
} fil_vrd_t;

void fil_vrd_init(fil_vrd_t *r, const uint8_t *data, size_t n, const char *what, cuzk_error_t *err);
/* Sets the enclosing field (printf-style; "" at the top). */
void fil_vrd_ctx(fil_vrd_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records code with the message above for the item at offset `at`. */
cuzk_status fil_vrd_fail(const fil_vrd_t *r, cuzk_status code, size_t at, const char *field,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

cuzk_status fil_vrd_u32(fil_vrd_t *r, uint32_t *out, const char *field);
cuzk_status fil_vrd_u64(fil_vrd_t *r, uint64_t *out, const char *field);
/* A domain: 32 bytes, a canonical field element (else CUZK_ERR_NONCANONICAL). */
cuzk_status fil_vrd_domain(fil_vrd_t *r, fr_t *out, const char *field);
/* A Vec length that must lie in [lo, hi]. */
cuzk_status fil_vrd_len(fil_vrd_t *r, uint64_t *out, uint64_t lo, uint64_t hi, const char *field);
/* Fails when bytes are left after the proof. */
cuzk_status fil_vrd_end(const fil_vrd_t *r);

/* A MerkleProof of any shape: the tag gives the parts; each InclusionPath
 * has one arity (2, 4 or 8) at every level; *shape gets the arities and
 * `hasher`. */
cuzk_status fil_vrd_merkle_proof_any(fil_vrd_t *r, fil_merkle_path_t *p, fil_tree_shape_t *shape,
                                     fil_hasher hasher);
/* A MerkleProof of a tree of `shape` with `base_levels` base levels: the
 * tag, every path length and every arity must be the shape's. */
cuzk_status fil_vrd_merkle_proof_of(fil_vrd_t *r, fil_merkle_path_t *p,
                                    const fil_tree_shape_t *shape, unsigned base_levels);

/* A growing output buffer; a failed allocation is remembered and reported
 * by fil_vwr_finish. */
typedef struct fil_vwr {
    uint8_t *p;
    size_t n, cap;
    int nomem;
} fil_vwr_t;

void fil_vwr_u32(fil_vwr_t *w, uint32_t v);
void fil_vwr_u64(fil_vwr_t *w, uint64_t v);
void fil_vwr_domain(fil_vwr_t *w, const fr_t *x);
/* p as a MerkleProof of `shape` (ProofData Single without a sub level,
 * Sub without a top level, else Top). Returns CUZK_OK, or CUZK_ERR_ARG
 * naming `what` and `field` when the shape fails fil_tree_shape_check or
 * p does not fit it (no base level; an arity not the shape's; an index
 * not below its arity). */
cuzk_status fil_vwr_merkle_proof(fil_vwr_t *w, const fil_merkle_path_t *p,
                                 const fil_tree_shape_t *shape, const char *what, const char *field,
                                 cuzk_error_t *err);
/* Ends writing: with st == CUZK_OK and no failed allocation hands the
 * bytes to *out / *n (the caller frees them with free()); else frees them,
 * sets *out = NULL, *n = 0 and returns st or CUZK_ERR_NOMEM. */
cuzk_status fil_vwr_finish(fil_vwr_t *w, uint8_t **out, size_t *n, cuzk_status st, const char *what,
                           cuzk_error_t *err);

#endif
