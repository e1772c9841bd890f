/* The optimal ate pairing e: G1 x G2 -> GT (a subgroup of Fp12*), in the
 * normalisation shared by blst, zkcrypto's bls12_381 and @noble/curves:
 * f_{|x|,Q}(P) conjugated (x < 0), raised to (p^12 - 1)/r * 3 (the
 * Fuentes-Castaneda hard part; 3 is coprime to r, so bilinearity holds).
 *
 * Inputs must be in their prime-order subgroups (callers decode with the
 * subgroup check when the points come from outside); infinity on either side
 * of a pair makes that pair contribute 1. */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

#include <stddef.h>

#include "cuzk/fp12.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = prod_i f_i(P_i, Q_i) before the final exponentiation; one shared
 * Fp12 squaring chain for all n pairs. Returns CUZK_ERR_NOMEM when scratch
 * for n > 8 pairs cannot be allocated. */
cuzk_status pairing_miller_loop(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n);
void pairing_final_exp(fp12_t *out, const fp12_t *f);
/* out = e(P, Q) */
void pairing_compute(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q);
/* out = prod_i e(P_i, Q_i) with one final exponentiation. */
cuzk_status pairing_product(fp12_t *out, const g1_affine_t *p, const g2_affine_t *q, size_t n);

#ifdef __cplusplus
}
#endif
#endif
