/* Fp12 = Fp6[w] / (w^2 - v). Element c0 + c1 w. Pairing values (GT) live
 * here. The same tower as zkcrypto's bls12_381, blst and @noble/curves, so
 * GT values compare coefficient by coefficient.
 * Outputs may alias inputs. */
#ifndef CUZK_FP12_H
#define CUZK_FP12_H

#include "cuzk/fp6.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp12 {
    fp6_t c0, c1;
} fp12_t;

extern const fp12_t FP12_ONE;

void fp12_add(fp12_t *out, const fp12_t *a, const fp12_t *b);
void fp12_sub(fp12_t *out, const fp12_t *a, const fp12_t *b);
void fp12_mul(fp12_t *out, const fp12_t *a, const fp12_t *b);
void fp12_sqr(fp12_t *out, const fp12_t *a);
void fp12_inv(fp12_t *out, const fp12_t *a); /* 0 maps to 0 */
/* out = c0 - c1 w = a^(p^6); the inverse of an element of the cyclotomic
 * subgroup (every pairing value after the easy final-exponentiation part). */
void fp12_conj(fp12_t *out, const fp12_t *a);
/* out = a^(p^k) for any k. */
void fp12_frobenius(fp12_t *out, const fp12_t *a, unsigned k);
/* out = a * ((d0 + d1 v) + (d4 v) w): a Miller-loop line, coefficients 0, 1, 4. */
void fp12_mul_by_014(fp12_t *out, const fp12_t *a, const fp2_t *d0, const fp2_t *d1,
                     const fp2_t *d4);
/* Granger-Scott squaring, valid only in the cyclotomic subgroup. */
void fp12_cyclotomic_sqr(fp12_t *out, const fp12_t *a);
void fp12_pow_var(fp12_t *out, const fp12_t *a, const uint64_t *e, size_t n);

int fp12_is_one(const fp12_t *a);
int fp12_equal(const fp12_t *a, const fp12_t *b);

#ifdef __cplusplus
}
#endif
#endif
