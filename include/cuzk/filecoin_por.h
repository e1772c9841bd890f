/* rust-fil-proofs' proof-of-retrievability gadgets, R1CS-exact: the
 * inclusion of a leaf in a Merkle tree of shape B-S-T (filecoin_merkle.h),
 * hashed with Poseidon (neptune's legacy circuit, cs_poseidon.h) or the
 * Filecoin SHA-256 (filecoin_sha.h).
 *
 * Sources (RFP = filecoin-project/rust-fil-proofs@87348a7):
 * storage-proofs-core/src/gadgets/por.rs (PoRCircuit::synthesize,
 * AuthPath / SubPath::synthesize, por_no_challenge_input), gadgets/
 * variables.rs (Root), gadgets/insertion.rs (insert), gadgets/constraint.rs
 * (equal), filecoin-hashers/src/poseidon.rs and sha256.rs
 * (hash_multi_leaf_circuit).
 *
 * fil_cs_por (PoRCircuit::synthesize), in order:
 *  1. the leaf: allocated (1 aux) when FIL_ROOT_VAL, reused when _VAR;
 *  2. per level, base levels then the sub level then the top level, with
 *     a = the level's arity: log2(a) index bits (AllocatedBit, least
 *     significant first; 1 c / 1 a each), the a - 1 siblings (AllocatedNum,
 *     a - 1 aux), insert (2 / 8 / 22 picks for a = 2 / 4 / 8), then the
 *     hash of the a inserted values (hash_multi_leaf_circuit);
 *  3. pack_into_inputs of all the index bits (one input and one constraint
 *     per 254 bits): the public input is the leaf's number, the challenge;
 *  4. the root: allocated (1 aux) when FIL_ROOT_VAL;
 *  5. equal(computed root, root): computed * ONE = root (1 c);
 *  6. FIL_POR_PUBLIC_ROOT only: inputize the root (1 input, 1 c). Every
 *     production circuit passes FIL_POR_PRIVATE_ROOT.
 * Per level (../shared/testdata/filecoin/circuits/NOTES.md §2): Poseidon
 * arity 8: 3 + 22 + 505 = 530 c, 3 + 7 + 22 + 505 = 537 a; arity 4: 387 /
 * 390; arity 2: 314 / 315; SHA-256 binary: 1 + 2 + 45,379 = 45,382 c /
 * 45,335 a; SHA-256 arity 4: 72,085 c, arity 8: 125,492 c (from the
 * published test circuits). So a PoR with Val leaf and root costs
 * sum(levels) + 2 (+ 1 for a public root) constraints, sum(levels) + 2
 * aux, 1 (+ 1) inputs besides ONE (one per 254 index bits). Every count of
 * RFP:storage-proofs-core/tests/por_circuit.rs is reproduced
 * (tests/test_filecoin_por.c); the 32 GiB tree_r (8-8-0, 2^30 leaves):
 * 5,302; comm_d (binary SHA-256, 2^30 leaves): 30 x 45,382 + 2.
 *
 * fil_cs_por_no_challenge_input (SnapDeals): the index bits, leaf, siblings
 * and root come allocated; per level only insert and hash; then computed *
 * ONE = root. No input, no allocation of its own.
 *
 * Rules: outputs first, then the cs; pointers are required; the gadgets'
 * errors are the cs's (cs.h: sticky, checked once with cs_status): a
 * shape or path that does not fit records CUZK_ERR_ARG, where
 * rust-fil-proofs asserts. Values are read only when cs_has_values(cs). */
#ifndef CUZK_FILECOIN_POR_H
#define CUZK_FILECOIN_POR_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/filecoin_merkle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* variables.rs Root: a value the gadget allocates, or a number allocated
 * before (shared with the rest of the circuit). */
typedef enum fil_root_kind {
    FIL_ROOT_VAL = 0, /* Root::Val: value = the value (read only with values) */
    FIL_ROOT_VAR = 1  /* Root::Var: num is the allocated number */
} fil_root_kind;

typedef struct fil_root {
    fil_root_kind kind;
    cs_num_t num; /* VAR: the variable and its value; VAL: num.value */
} fil_root_t;

static inline fil_root_t fil_root_val(const fr_t *value)
{
    fil_root_t r;
    r.kind = FIL_ROOT_VAL;
    r.num.var = CS_ONE;
    r.num.value = *value;
    return r;
}

static inline fil_root_t fil_root_var(const cs_num_t *num)
{
    fil_root_t r;
    r.kind = FIL_ROOT_VAR;
    r.num = *num;
    return r;
}

/* PoRCircuit's `private` flag. */
typedef enum fil_por_root_mode {
    FIL_POR_PRIVATE_ROOT = 0, /* private = true: the root is not an input */
    FIL_POR_PUBLIC_ROOT = 1   /* private = false: inputize the root */
} fil_por_root_mode;

/* hash_multi_leaf_circuit of the hasher: Poseidon of `arity` inputs
 * (neptune's legacy circuit with the constants of that arity), or the
 * Filecoin SHA-256 of the arity leaves (to_bits_le each, then SHA-256,
 * pack_bits). arity 2, 4 or 8. */
cs_num_t fil_cs_merkle_hash(cs_t *cs, fil_hasher hasher, const cs_num_t *children, unsigned arity);

/* PoRCircuit::synthesize over `path` (its level arities must be those of
 * `shape`: some base levels, then one sub and one top level as the shape
 * has them; its values are read only with values). path->leaf and
 * path->root are not read: leaf and root are. Returns the computed root
 * (also when the check fails) in *computed when computed is not NULL. */
void fil_cs_por(cs_num_t *computed, cs_t *cs, const fil_tree_shape_t *shape,
                const fil_merkle_path_t *path, const fil_root_t *leaf, const fil_root_t *root,
                fil_por_root_mode mode);

/* por_no_challenge_input: bits[0..n_bits) the challenge, least significant
 * first (AllocatedBits: kind CS_BOOL_IS), n_bits = sum of log2(arity) over
 * the levels; siblings the levels' siblings one level after the other (a -
 * 1 per level of arity a); n_levels base levels + the sub and top levels
 * of the shape. */
void fil_cs_por_no_challenge_input(cs_t *cs, const fil_tree_shape_t *shape, const cs_bool_t *bits,
                                   size_t n_bits, const cs_num_t *leaf, const cs_num_t *siblings,
                                   unsigned n_levels, const cs_num_t *root);

#ifdef __cplusplus
}
#endif
#endif
