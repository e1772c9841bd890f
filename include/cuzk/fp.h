/* Fp: the 381-bit base field of BLS12-381.
 *
 * Representation: six little-endian 64-bit limbs in Montgomery form
 * (a * 2^384 mod p), always fully reduced (< p). This is also the byte layout
 * snarkjs writes into .zkey files, so LEM bytes map to fp_t directly.
 * Outputs may alias inputs. Functions are constant-time unless named _var. */
#ifndef CUZK_FP_H
#define CUZK_FP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FP_LIMBS 6
#define FP_BYTES 48

typedef struct fp {
    uint64_t l[FP_LIMBS];
} fp_t;

/* Not FP_ZERO: <math.h> defines that (fpclassify). */
extern const fp_t FP_ZERO_ELEM;
extern const fp_t FP_ONE; /* Montgomery one */
extern const uint64_t FP_MODULUS[FP_LIMBS];

void fp_add(fp_t *out, const fp_t *a, const fp_t *b);
void fp_sub(fp_t *out, const fp_t *a, const fp_t *b);
void fp_neg(fp_t *out, const fp_t *a);
void fp_dbl(fp_t *out, const fp_t *a);
void fp_mul(fp_t *out, const fp_t *a, const fp_t *b);
void fp_sqr(fp_t *out, const fp_t *a);
/* out = a^e, e given as n little-endian limbs; variable time in e. */
void fp_pow_var(fp_t *out, const fp_t *a, const uint64_t *e, size_t n);
/* out = a^-1; 0 maps to 0. */
void fp_inv(fp_t *out, const fp_t *a);
/* Returns 1 and a root when a is a square, else 0 (out untouched).
 * The root returned is a^((p+1)/4); callers choose the sign they need. */
int fp_sqrt(fp_t *out, const fp_t *a);
/* Legendre-symbol test: 1 if a is a nonzero square or zero. */
int fp_is_square(const fp_t *a);

int fp_is_zero(const fp_t *a);
int fp_is_one(const fp_t *a);
int fp_equal(const fp_t *a, const fp_t *b);
/* 1 if canonical(a) > (p-1)/2: the zcash "lexicographically largest" sign. */
int fp_is_lex_largest(const fp_t *a);

/* Conversions between canonical integers and Montgomery form. The from_*
 * readers fail with CUZK_ERR_NONCANONICAL when the integer is >= p. */
cuzk_status fp_from_limbs(fp_t *out, const uint64_t in[FP_LIMBS]);
void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a);
void fp_from_u64(fp_t *out, uint64_t v);
cuzk_status fp_from_be(fp_t *out, const uint8_t in[FP_BYTES]);
cuzk_status fp_from_le(fp_t *out, const uint8_t in[FP_BYTES]);
void fp_to_be(uint8_t out[FP_BYTES], const fp_t *a);
void fp_to_le(uint8_t out[FP_BYTES], const fp_t *a);
/* Montgomery-form little-endian bytes (snarkjs LEM): checked < p. */
cuzk_status fp_from_mont_le(fp_t *out, const uint8_t in[FP_BYTES]);
void fp_to_mont_le(uint8_t out[FP_BYTES], const fp_t *a);

#ifdef __cplusplus
}
#endif
#endif
