/* G2: the sextic M-twist y^2 = x^3 + 4(u + 1) over Fp2, and its order-r subgroup.
 *
 * Affine points use (0, 0) for the point at infinity (it is not on the
 * curve, so the encoding is unambiguous; it is also snarkjs's). Jacobian
 * points (X, Y, Z) stand for (X/Z^2, Y/Z^3); Z = 0 is infinity.
 * Outputs may alias inputs. Everything here is variable time: cuzk proves
 * with public keys and its secrets (r, s) are used once per proof. */
#ifndef CUZK_G2_H
#define CUZK_G2_H

#include <stddef.h>

#include "cuzk/fp2.h"
#include "cuzk/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct g2_affine {
    fp2_t x, y;
} g2_affine_t;

typedef struct g2_jac {
    fp2_t x, y, z;
} g2_jac_t;

extern const g2_affine_t G2_GENERATOR;

int g2_affine_is_inf(const g2_affine_t *a);
void g2_affine_set_inf(g2_affine_t *a);
int g2_jac_is_inf(const g2_jac_t *a);
void g2_jac_set_inf(g2_jac_t *a);
int g2_affine_equal(const g2_affine_t *a, const g2_affine_t *b);
int g2_jac_equal(const g2_jac_t *a, const g2_jac_t *b); /* same point */

void g2_from_affine(g2_jac_t *out, const g2_affine_t *a);
void g2_to_affine(g2_affine_t *out, const g2_jac_t *a);
/* n conversions for the price of one inversion (Montgomery's trick).
 * Returns CUZK_ERR_NOMEM if scratch cannot be allocated. */
cuzk_status g2_batch_to_affine(g2_affine_t *out, const g2_jac_t *in, size_t n);

void g2_affine_neg(g2_affine_t *out, const g2_affine_t *a);
void g2_neg(g2_jac_t *out, const g2_jac_t *a);
void g2_dbl(g2_jac_t *out, const g2_jac_t *a);                             /* dbl-2009-l */
void g2_add(g2_jac_t *out, const g2_jac_t *a, const g2_jac_t *b);          /* add-2007-bl */
void g2_add_mixed(g2_jac_t *out, const g2_jac_t *a, const g2_affine_t *b); /* madd-2007-bl */

/* out = [k] a, k given as n little-endian limbs (any length), 4-bit windows. */
void g2_mul_var(g2_jac_t *out, const g2_jac_t *a, const uint64_t *k, size_t n);
void g2_mul_fr(g2_jac_t *out, const g2_jac_t *a, const fr_t *k);

/* Infinity counts as on the curve and in the subgroup. */
int g2_affine_is_on_curve(const g2_affine_t *a);
int g2_jac_is_on_curve(const g2_jac_t *a);
/* Scott (eprint 2021/1130): P in G2 iff psi(P) = [x] P, psi the
 * untwist-Frobenius-twist endomorphism. Requires P on the curve. */
int g2_affine_in_subgroup(const g2_affine_t *a);
/* psi(P) = (conj(x) cx, conj(y) cy): acts as [p] on G2. */
void g2_psi(g2_jac_t *out, const g2_jac_t *a);
/* Reference: [r] P == O. */
int g2_affine_in_subgroup_slow(const g2_affine_t *a);

#ifdef __cplusplus
}
#endif
#endif
