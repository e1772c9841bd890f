/* Fp2 = Fp[u] / (u^2 + 1), the field of G2 coordinates.
 * Element c0 + c1 u. Outputs may alias inputs. */
#ifndef CUZK_FP2_H
#define CUZK_FP2_H

#include "cuzk/fp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp2 {
    fp_t c0, c1;
} fp2_t;

extern const fp2_t FP2_ZERO;
extern const fp2_t FP2_ONE;

void fp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b);
void fp2_sub(fp2_t *out, const fp2_t *a, const fp2_t *b);
void fp2_neg(fp2_t *out, const fp2_t *a);
void fp2_dbl(fp2_t *out, const fp2_t *a);
void fp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b); /* Karatsuba: 3M */
void fp2_sqr(fp2_t *out, const fp2_t *a);                 /* complex: 2M */
void fp2_mul_fp(fp2_t *out, const fp2_t *a, const fp_t *b);
/* out = a * (u + 1), the non-residue xi of the Fp6 and Fp12 towers. */
void fp2_mul_by_xi(fp2_t *out, const fp2_t *a);
void fp2_conj(fp2_t *out, const fp2_t *a); /* = a^p, the Frobenius map */
void fp2_inv(fp2_t *out, const fp2_t *a);  /* 0 maps to 0 */
void fp2_pow_var(fp2_t *out, const fp2_t *a, const uint64_t *e, size_t n);
/* Returns 1 and a square root when a is a square, else 0 (out untouched).
 * Algorithm 9 of Adj and Rodriguez-Henriquez, "Square root computation over
 * even extension fields" (eprint 2012/685), for p = 3 mod 4. */
int fp2_sqrt(fp2_t *out, const fp2_t *a);

int fp2_is_zero(const fp2_t *a);
int fp2_is_one(const fp2_t *a);
int fp2_equal(const fp2_t *a, const fp2_t *b);
/* zcash's sign of an Fp2 element: c1 lexicographically largest, or c1 = 0 and
 * c0 lexicographically largest. */
int fp2_is_lex_largest(const fp2_t *a);

#ifdef __cplusplus
}
#endif
#endif
