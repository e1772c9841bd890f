/* G1: the curve y^2 = x^3 + 4 over Fp, and its order-r subgroup.
 *
 * Affine points use (0, 0) for the point at infinity (it is not on the
 * curve, so the encoding is unambiguous; it is also snarkjs's). Jacobian
 * points (X, Y, Z) stand for (X/Z^2, Y/Z^3); Z = 0 is infinity.
 * Outputs may alias inputs. Everything here is variable time: cuzk proves
 * with public keys and its secrets (r, s) are used once per proof. */
#ifndef CUZK_G1_H
#define CUZK_G1_H

#include <stddef.h>

#include "cuzk/fp.h"
#include "cuzk/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct g1_affine {
    fp_t x, y;
} g1_affine_t;

typedef struct g1_jac {
    fp_t x, y, z;
} g1_jac_t;

extern const g1_affine_t G1_GENERATOR;

int g1_affine_is_inf(const g1_affine_t *a);
void g1_affine_set_inf(g1_affine_t *a);
int g1_jac_is_inf(const g1_jac_t *a);
void g1_jac_set_inf(g1_jac_t *a);
int g1_affine_equal(const g1_affine_t *a, const g1_affine_t *b);
int g1_jac_equal(const g1_jac_t *a, const g1_jac_t *b); /* same point */

void g1_from_affine(g1_jac_t *out, const g1_affine_t *a);
void g1_to_affine(g1_affine_t *out, const g1_jac_t *a);
/* n conversions for the price of one inversion (Montgomery's trick).
 * Returns CUZK_ERR_NOMEM if scratch cannot be allocated. */
cuzk_status g1_batch_to_affine(g1_affine_t *out, const g1_jac_t *in, size_t n);

void g1_affine_neg(g1_affine_t *out, const g1_affine_t *a);
void g1_neg(g1_jac_t *out, const g1_jac_t *a);
void g1_dbl(g1_jac_t *out, const g1_jac_t *a);                             /* dbl-2009-l */
void g1_add(g1_jac_t *out, const g1_jac_t *a, const g1_jac_t *b);          /* add-2007-bl */
void g1_add_mixed(g1_jac_t *out, const g1_jac_t *a, const g1_affine_t *b); /* madd-2007-bl */

/* out = [k] a, k given as n little-endian limbs (any length), 4-bit windows. */
void g1_mul_var(g1_jac_t *out, const g1_jac_t *a, const uint64_t *k, size_t n);
void g1_mul_fr(g1_jac_t *out, const g1_jac_t *a, const fr_t *k);

/* Infinity counts as on the curve and in the subgroup. */
int g1_affine_is_on_curve(const g1_affine_t *a);
int g1_jac_is_on_curve(const g1_jac_t *a);
/* Scott, "A note on group membership tests for G1, G2 and GT on BLS
 * pairing-friendly curves" (eprint 2021/1130): P in G1 iff
 * phi(P) = [-x^2] P with phi(x, y) = (beta x, y). Requires P on the curve. */
int g1_affine_in_subgroup(const g1_affine_t *a);
/* Reference: [r] P == O. */
int g1_affine_in_subgroup_slow(const g1_affine_t *a);

#ifdef __cplusplus
}
#endif
#endif
