/* Filecoin's SHA-256 hashing, native and as R1CS-exact gadgets: the SHA-256
 * tree node (Sha256Hasher of filecoin-hashers, used for comm_d) and the SDR
 * label (create_label).
 *
 * A Filecoin SHA-256 value is the digest with the top two bits of byte 31
 * cleared (Sha256Domain::trim_to_fr32), read as a little-endian Fr: 254
 * bits. The gadgets compute the same value: the message bits go in
 * reversed inside each byte (a field element's to_bits_le, padded to whole
 * bytes with constant false, becomes the bytes of its LE repr, each most
 * significant bit first: reverse_bit_numbering), and the first 254 bits of
 * the digest, reversed inside each byte again, are packed (pack_bits).
 *
 * Sources (RFP = filecoin-project/rust-fil-proofs@87348a7):
 * filecoin-hashers/src/sha256.rs (hash, hash2, hash_circuit,
 * hash_leaf_bits_circuit, hash2_circuit, hash_multi_leaf_circuit),
 * storage-proofs-core/src/util.rs (reverse_bit_numbering),
 * storage-proofs-porep/src/stacked/circuit/create_label.rs and
 * stacked/vanilla/create_label/single.rs (create_label, create_label_exp).
 * Costs (../shared/testdata/filecoin/circuits/NOTES.md §2): hash2 of two
 * allocated nums 45,379 constraints / 45,331 aux; hash_leaf_bits of 2 x 256
 * allocated bits 45,387 with the bits; create_label 522,269 / 521,749 in
 * the PoRep circuit's shape.
 *
 * Rules: outputs first, then the cs; pointers are required unless said
 * otherwise; the gadgets' errors are the cs's (cs.h: sticky, checked once
 * with cs_status). Native functions are reentrant. */
#ifndef CUZK_FILECOIN_SHA_H
#define CUZK_FILECOIN_SHA_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* stacked/vanilla TOTAL_PARENTS: a label hashes 37 parent labels (layer 1:
 * the 6 DRG parents six times and the first once; later layers: the 14
 * parents twice and the first 9). */
#define FIL_LABEL_PARENTS 37u

/* ---- native ------------------------------------------------------------- */

/* Sha256Function::hash: SHA-256(data), trimmed to 254 bits. */
cuzk_status fil_sha256_hash(uint8_t out[32], const uint8_t *data, size_t len, cuzk_error_t *err);

/* Sha256Function::hash2 / Algorithm::node: SHA-256(left || right),
 * trimmed. */
cuzk_status fil_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32],
                            cuzk_error_t *err);

/* create_label / create_label_exp: SHA-256(replica_id || layer u32 BE ||
 * node u64 BE || 20 zero bytes || the 37 parent labels), trimmed. parents
 * NULL: node 0, which has no parents and hashes the first 64 bytes only
 * (the circuit never labels node 0: challenges are >= 1). */
cuzk_status fil_create_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer,
                             uint64_t node, const uint8_t *const parents[FIL_LABEL_PARENTS],
                             cuzk_error_t *err);

/* ---- gadgets ------------------------------------------------------------ */

/* hash_circuit: sha256 of n bits (a multiple of 8; namespace "hash"), the
 * digest reversed inside each byte, the first 254 bits packed into one
 * AllocatedNum (pack_bits, namespace "pack_le"). */
cs_num_t fil_cs_sha256_bits(cs_t *cs, const cs_bool_t *bits, size_t n);

/* hash_leaf_bits_circuit: left and right each padded with constant false to
 * whole bytes and reversed inside each byte (reverse_bit_numbering), then
 * fil_cs_sha256_bits of left || right. */
cs_num_t fil_cs_sha256_leaf_bits(cs_t *cs, const cs_bool_t *left, size_t n_left,
                                 const cs_bool_t *right, size_t n_right);

/* hash_multi_leaf_circuit: per leaf, in order, to_bits_le (255 bits, 256
 * constraints) padded and reversed as above; then fil_cs_sha256_bits. n >=
 * 1. */
cs_num_t fil_cs_sha256_multi_leaf(cs_t *cs, const cs_num_t *leaves, size_t n);

/* hash2_circuit: to_bits_le(a), to_bits_le(b), then as multi_leaf (the same
 * R1CS as fil_cs_sha256_multi_leaf of {a, b}). */
cs_num_t fil_cs_sha256_hash2(cs_t *cs, const cs_num_t *a, const cs_num_t *b);

/* create_label_circuit: the message replica_id (n_id bits, 32 <= n_id <=
 * 256, padded with constant false to 256) || layer into_bits_be (32) ||
 * node to_bits_be (64) || constant false to 512 || each parent (n_parent
 * bits, <= 256, padded with constant false to 256); SHA-256 (namespace
 * "hash"), reverse_bit_numbering, pack_bits of the first 254 bits
 * (namespace "result_num"). parents[i] may repeat pointers. */
cs_num_t fil_cs_create_label(cs_t *cs, const cs_bool_t *replica_id, size_t n_id,
                             const cs_bool_t *const parents[FIL_LABEL_PARENTS], size_t n_parent,
                             const cs_u32_t *layer, const cs_u64_t *node);

#ifdef __cplusplus
}
#endif
#endif
