/* neptune's legacy Poseidon circuit (NEP:src/circuit.rs poseidon_hash, the
 * gadget rust-fil-proofs uses; not circuit2, whose R1CS differs), in its
 * optimized form: compressed round constants, the pre-sparse matrix and
 * the sparse matrices, walked through poseidon_round() (poseidon.h).
 * NEP = argumentcomputer/neptune@a513bea (11.1.0).
 *
 * The state is [domain tag, inputs...]; an element is either an allocated
 * variable or a Num (a linear combination with its value, BPC num.rs). The
 * R1CS, in order (c = constraints, a = aux; t = arity + 1):
 *  - round 0: the tag's S-box is a constant (constant_quintic_s_box_pre_add
 *    _tag). Each input x: square_sum: alloc s, (x + pre)(x + pre) = s;
 *    square: alloc q, s * s = q; mul_sum: alloc y, (x + pre) * q = y - post.
 *    3 c / 3 a per input. The MDS mix makes every element a Num (the tag's
 *    constant as a coefficient of ONE).
 *  - rounds 1 .. R_F/2 - 1 and R_F/2 + R_P .. R_F + R_P - 1, every element:
 *    ensure_allocated (alloc l, lc * ONE = l), square (l2), square (l4),
 *    mul_sum (alloc y, l * l4 = y - post; = y in the terminal round, which
 *    has no key). 4 c / 4 a per element.
 *  - partial rounds: the same 4 for element 0 only. The sparse mix keeps
 *    the other elements as Nums that grow by one term a round
 *    (elements[j] + v_rest[j-1] * elements[0]); element 0 becomes
 *    sum w_hat[i] * elements[i].
 *  - the result: ensure_allocated(elements[1]), 1 c / 1 a.
 * Total c = a = 3 A + 4 t (R_F - 1) + 4 R_P + 1 = 31 A + 29 + 4 R_P for
 * R_F = 8: 311, 377, 505, 598 for arity 2, 4, 8, 11 (reference.json);
 * 761, 1009, 1385 for 16, 24, 36 (neptune's circuit.rs test).
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). Values
 * are computed only when cs_has_values(cs). Thread-safe as cs.h: one cs per
 * thread; the per-arity tables the fast path keeps are made under a lock
 * on first use (about a reference hash's time) and kept until exit. */
#ifndef CUZK_CS_POSEIDON_H
#define CUZK_CS_POSEIDON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_num.h"
#include "cuzk/poseidon.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The MerkleTree hash of inputs[0..n) (n = c->arity), as neptune's
 * circuit::poseidon_hash over AllocatedNums. *out is the allocated result
 * (with its value when the cs keeps values). When n != c->arity the cs
 * records CUZK_ERR_ARG (neptune's arity is a type) and *out is {ONE, 0}. */
void cs_poseidon_hash(cs_num_t *out, cs_t *cs, const cs_num_t *inputs, size_t n,
                      const poseidon_constants_t *c);

/* The two ways to the same R1CS (src/circuits/cs_poseidon.c says why they
 * agree). */
typedef enum cs_poseidon_path {
    /* Replays the mixes' merged combinations, made once per constants
     * object from the reference path, for the shared constants of
     * poseidon_constants_get and poseidon_constants_get_custom; other
     * constants objects take the reference path. */
    CS_POSEIDON_FAST = 0,
    /* Builds every combination as neptune does (Num scale and add). */
    CS_POSEIDON_REFERENCE = 1
} cs_poseidon_path;

/* cs_poseidon_hash on a chosen path (cs_poseidon_hash takes the fast one).
 * Both emit the same allocations, constraints and values. */
void cs_poseidon_hash_path(cs_num_t *out, cs_t *cs, const cs_num_t *inputs, size_t n,
                           const poseidon_constants_t *c, cs_poseidon_path path);

/* Constraints (= aux variables) cs_poseidon_hash adds for constants c. */
uint64_t cs_poseidon_cost(const poseidon_constants_t *c);

#ifdef __cplusplus
}
#endif
#endif
