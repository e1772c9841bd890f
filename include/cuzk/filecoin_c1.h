/* The PoRep C1 output: what seal_commit_phase1 hands to phase 2, as JSON
 * (serde_json), and Curio's envelope around it. Read, written, and turned
 * into the PoRep circuit's inputs (filecoin_porep.h).
 *
 * Format (API = rust-filecoin-proofs-api@0e64ce8 src/seal.rs
 * SealCommitPhase1Output; RFP = rust-fil-proofs@87348a7):
 *   {"registered_proof": "StackedDrg32GiBV1_1",            RegisteredSealProof
 *    "vanilla_proofs": {"StackedDrg32GiBV1": [[Proof; challenges]; partitions]},
 *    "comm_r": [32 u8], "comm_d": [32 u8],                 Commitment
 *    "replica_id": [32 u8],                                PoseidonDomain
 *    "seed": [32 u8], "ticket": [32 u8]}                   Ticket
 * vanilla_proofs is VanillaSealProof, externally tagged by sector size with
 * the V1 name whatever the API version. Proof (RFP storage-proofs-porep/
 * src/stacked/vanilla/params.rs) = {comm_d_proofs: MerkleProof (tree_d),
 * comm_r_last_proof: MerkleProof (tree_r_last), replica_column_proofs:
 * {c_x, drg_parents [6], exp_parents [8]} of ColumnProof {column: {index
 * u32, rows [layers], _h: null}, inclusion_proof: MerkleProof (tree_c)},
 * labeling_proofs [layers] of {parents [37], layer_index u32, node u64},
 * encoding_proof {parents [37], layer_index u32, node u64}} (column.rs,
 * column_proof.rs, labeling_proof.rs, encoding_proof.rs). MerkleProof
 * (storage-proofs-core/src/merkle/proof.rs) = {data: {"Single": {root, leaf,
 * path}} | {"Sub": {base_proof, sub_proof, root, leaf}} | {"Top":
 * {base_proof, sub_proof, top_proof, root, leaf}}}, each path an
 * InclusionPath {path: [{hashes: [arity - 1 domains], index}]}. A domain
 * (Sha256Domain, PoseidonDomain, [u8; 32] commitments) is a JSON array of
 * 32 integers 0..255: the field element's little-endian bytes.
 * Curio (lib/ffi/cuzk_funcs.go c1OutputWrapper, Go encoding/json; read by
 * extern/cuzk/cuzk-core/src/prover.rs C1OutputWrapper):
 *   {"SectorNum": u64, "Phase1Out": "<standard base64 of the C1 JSON>",
 *    "SectorSize": u64}.
 *
 * Reading follows serde_json: fields in any order, unknown fields skipped,
 * a duplicate or missing field refused, integers only where Rust has an
 * integer (no sign, fraction or exponent; in range), strings valid UTF-8
 * with JSON escapes, nesting at most 128 deep, nothing but whitespace after
 * the value (the array form serde would also take for a struct, which no
 * producer writes, is refused). Beyond serde it checks the shape the
 * registered proof fixes: the variant is the sector size's; partitions
 * and challenges per partition are fil_seal_info's; comm_d paths are Single binary paths of
 * log2(nodes) levels; tree_r_last and tree_c proofs have fil_sector_tree's
 * variant, levels and arities; every index is below its level's arity;
 * columns have `layers` rows; 6 DRG and 8 expander columns; `layers`
 * labeling proofs; 37 parents each. Every domain, and comm_r, comm_d and
 * replica_id, must be a canonical field element (Rust converts each to Fr
 * and panics otherwise); seed and ticket are raw bytes. Errors name the
 * JSON path and byte offset: "C1: vanilla_proofs[3][7].comm_r_last_proof.
 * data.Sub.base_proof.path[2].hashes[5] at offset 1234: ...".
 * Writing gives serde_json::to_vec's bytes: fields in declaration order,
 * no whitespace, so parse(write(c1)) == c1 and write(parse(b)) == b for
 * what Rust writes.
 *
 * Memory and time: the parser streams over the bytes (no JSON tree) into a
 * fil_c1_t of partitions x challenges x sizeof(fil_c1_proof_t) (147 KB a
 * proof); its peak is the input plus that: for a 32 GiB C1 (180 proofs,
 * 38.6 MB of JSON, 51.4 MB in Curio's base64) 25 MB over the input, parsed
 * in 0.17 s on one core (0.5 s from Curio's envelope, which also holds the
 * decoded Phase1Out: 3/4 of the base64). The writer's peak is up to twice
 * its output (a doubling buffer); fil_c1_write_curio holds the C1 JSON and
 * the envelope (4/3 of it) at the end.
 *
 * Rules: outputs first, err last (may be NULL); other pointers are
 * required (NULL: CUZK_ERR_ARG). Errors: CUZK_ERR_FORMAT (bytes that are
 * not a C1 of its registered proof, or an inconsistent C1),
 * CUZK_ERR_NONCANONICAL (a value >= r), CUZK_ERR_ARG, CUZK_ERR_NOMEM; on
 * failure parse outputs are left zeroed and write outputs NULL / 0. A
 * fil_c1_t is plain data: any number of threads may read one. */
#ifndef CUZK_FILECOIN_C1_H
#define CUZK_FILECOIN_C1_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* stacked/vanilla/proof.rs TOTAL_PARENTS (filecoin_sha.h FIL_LABEL_PARENTS). */
#define FIL_C1_LABEL_PARENTS 37u
/* The most partitions a registered proof has (NI-PoRep 32/64 GiB). */
#define FIL_C1_MAX_PARTITIONS 126u

/* ColumnProof: a node's labels in every layer and their inclusion in
 * tree_c (leaf: the column hash; root: comm_c). */
typedef struct fil_c1_column {
    uint32_t index;                  /* Column.index: the node */
    fr_t rows[FIL_POREP_MAX_LAYERS]; /* rows[l - 1]: layer l's label, l <= layers */
    fil_merkle_path_t proof;         /* inclusion_proof */
} fil_c1_column_t;

/* LabelingProof and EncodingProof (the same fields): the 37 parent labels
 * a label (or the encoding key) hashes. */
typedef struct fil_c1_label {
    uint32_t layer_index;
    uint64_t node;
    fr_t parents[FIL_C1_LABEL_PARENTS];
} fil_c1_label_t;

/* One challenge's vanilla Proof (params.rs). */
typedef struct fil_c1_proof {
    fil_merkle_path_t comm_d_proof;      /* comm_d_proofs: tree_d, SHA-256 binary */
    fil_merkle_path_t comm_r_last_proof; /* tree_r_last */
    fil_c1_column_t c_x;                 /* the challenged node's column */
    fil_c1_column_t drg_parents[FIL_POREP_DRG_PARENTS];
    fil_c1_column_t exp_parents[FIL_POREP_EXP_PARENTS];
    fil_c1_label_t labeling[FIL_POREP_MAX_LAYERS]; /* labeling_proofs[0..layers) */
    fil_c1_label_t encoding;                       /* encoding_proof */
} fil_c1_proof_t;

/* A whole C1 output. The shape fields follow from registered_proof
 * (fil_c1_init sets them); proofs[k * challenges + i] is vanilla_proofs
 * [k][i]. */
typedef struct fil_c1 {
    fil_seal_proof registered_proof;
    uint64_t sector_size, nodes;
    unsigned layers;
    unsigned partitions;
    unsigned challenges;   /* per partition */
    fil_tree_shape_t tree; /* tree_r_last and tree_c (fil_sector_tree) */
    fil_c1_proof_t *proofs;
    fr_t comm_r, comm_d, replica_id;
    uint8_t seed[32], ticket[32];
} fil_c1_t;

/* An empty C1 of proof p: the shape fields set, every proof and value
 * zeroed (paths without levels). For producers that fill it in. Free with
 * fil_c1_free. Returns CUZK_OK, CUZK_ERR_ARG (p not registered),
 * CUZK_ERR_NOMEM. */
cuzk_status fil_c1_init(fil_c1_t *out, fil_seal_proof p, cuzk_error_t *err);

/* Frees the proofs and zeroes *c1; accepts NULL and a zeroed C1. */
void fil_c1_free(fil_c1_t *c1);

/* Parses the C1 JSON json[0..n) (serde_json SealCommitPhase1Output).
 * Returns CUZK_OK, CUZK_ERR_FORMAT, CUZK_ERR_NONCANONICAL, CUZK_ERR_ARG,
 * CUZK_ERR_NOMEM. */
cuzk_status fil_c1_parse(fil_c1_t *out, const uint8_t *json, size_t n, cuzk_error_t *err);

/* Parses Curio's envelope: SectorNum and SectorSize into *sector_num and
 * *sector_size, Phase1Out (standard base64 with padding, as Rust's
 * base64 STANDARD engine wants it) decoded and parsed as above; the C1's
 * sector size must equal SectorSize. Errors name "Phase1Out" and the
 * offset inside the decoded C1 JSON. */
cuzk_status fil_c1_parse_curio(fil_c1_t *out, uint64_t *sector_num, uint64_t *sector_size,
                               const uint8_t *json, size_t n, cuzk_error_t *err);

/* serde_json::to_vec of c1: a malloc'd buffer (not NUL-terminated; free
 * it with free()) of *n bytes. c1 must have its registered proof's shape
 * (fil_c1_init's fields) and every path its tree's levels and arities;
 * CUZK_ERR_ARG names the field that does not fit. Values are written as
 * they are (no consistency checks). Returns CUZK_OK, CUZK_ERR_ARG,
 * CUZK_ERR_NOMEM. */
cuzk_status fil_c1_write(char **out, size_t *n, const fil_c1_t *c1, cuzk_error_t *err);

/* Go's json.Marshal of Curio's envelope for c1 and sector_num:
 * {"SectorNum":N,"Phase1Out":"<base64>","SectorSize":<c1's size>}. */
cuzk_status fil_c1_write_curio(char **out, size_t *n, const fil_c1_t *c1, uint64_t sector_num,
                               cuzk_error_t *err);

/* The PoRep circuit's shape for one partition of c1. */
void fil_c1_shape(fil_porep_shape_t *out, const fil_c1_t *c1);

/* The circuit's commitments for partition `partition` (circuit/proof.rs
 * StackedCompound::circuit): replica_id, comm_d and comm_r from the C1,
 * comm_r_last the root of the comm_r_last proofs, comm_c the root of the
 * column proofs. Checks what that code and seal_commit_phase2 check, over
 * the whole C1: comm_d, comm_r and seed not all zero; every
 * comm_r_last_proof one root, every column proof (c_x and parents) one
 * root, every comm_d_proofs root comm_d; and, so that a C1 which cannot
 * satisfy the circuit is refused with a reason, comm_r = Poseidon-2(comm_c,
 * comm_r_last). Returns CUZK_OK, CUZK_ERR_ARG (partition out of range),
 * CUZK_ERR_FORMAT naming the proof and field. */
cuzk_status fil_c1_public(fil_porep_public_t *out, const fil_c1_t *c1, unsigned partition,
                          cuzk_error_t *err);

/* Challenge i of partition `partition` as the circuit reads it
 * (circuit/params.rs From<VanillaProof>): the challenge is
 * labeling_proofs[0].node; data_leaf the comm_d proof's leaf; the paths
 * and the parents' rows copied. Checks the proof's indices agree, as
 * Proof::verify would find: the challenge below nodes; the comm_d,
 * comm_r_last and c_x paths and c_x.column.index open the challenge; each
 * parent column's path opens its column index; labeling proof l has
 * layer_index l + 1, the encoding proof layer_index layers, and both node
 * = the challenge. Returns CUZK_OK, CUZK_ERR_ARG (out of range),
 * CUZK_ERR_FORMAT naming the field. */
cuzk_status fil_c1_porep_challenge(fil_porep_challenge_t *out, const fil_c1_t *c1,
                                   unsigned partition, unsigned i, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
