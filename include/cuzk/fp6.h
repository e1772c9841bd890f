/* Fp6 = Fp2[v] / (v^3 - xi), xi = u + 1. Element c0 + c1 v + c2 v^2.
 * Outputs may alias inputs. */
#ifndef CUZK_FP6_H
#define CUZK_FP6_H

#include "cuzk/fp2.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fp6 {
    fp2_t c0, c1, c2;
} fp6_t;

extern const fp6_t FP6_ZERO;
extern const fp6_t FP6_ONE;

void fp6_add(fp6_t *out, const fp6_t *a, const fp6_t *b);
void fp6_sub(fp6_t *out, const fp6_t *a, const fp6_t *b);
void fp6_neg(fp6_t *out, const fp6_t *a);
void fp6_mul(fp6_t *out, const fp6_t *a, const fp6_t *b); /* 6 Fp2 M */
void fp6_sqr(fp6_t *out, const fp6_t *a);
void fp6_inv(fp6_t *out, const fp6_t *a); /* 0 maps to 0 */
/* out = a * v (shifts coefficients, multiplying the wrapped one by xi). */
void fp6_mul_by_v(fp6_t *out, const fp6_t *a);
/* Sparse products used by the Miller loop: b = b0 + b1 v, and b = b1 v. */
void fp6_mul_by_01(fp6_t *out, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1(fp6_t *out, const fp6_t *a, const fp2_t *b1);
/* out = a^(p^k), 0 <= k < 6 (any k is reduced mod 6). */
void fp6_frobenius(fp6_t *out, const fp6_t *a, unsigned k);

int fp6_is_zero(const fp6_t *a);
int fp6_equal(const fp6_t *a, const fp6_t *b);

#ifdef __cplusplus
}
#endif
#endif
