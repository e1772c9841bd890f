/* Fr: the 255-bit scalar field of BLS12-381 (the group order r).
 *
 * Representation: four little-endian 64-bit limbs in Montgomery form
 * (a * 2^256 mod r), fully reduced. Outputs may alias inputs. */
#ifndef CUZK_FR_H
#define CUZK_FR_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FR_LIMBS 4
#define FR_BYTES 32

typedef struct fr {
    uint64_t l[FR_LIMBS];
} fr_t;

extern const fr_t FR_ZERO;
extern const fr_t FR_ONE;
extern const uint64_t FR_MODULUS[FR_LIMBS];

void fr_add(fr_t *out, const fr_t *a, const fr_t *b);
void fr_sub(fr_t *out, const fr_t *a, const fr_t *b);
void fr_neg(fr_t *out, const fr_t *a);
void fr_dbl(fr_t *out, const fr_t *a);
void fr_mul(fr_t *out, const fr_t *a, const fr_t *b);
void fr_sqr(fr_t *out, const fr_t *a);
void fr_pow_var(fr_t *out, const fr_t *a, const uint64_t *e, size_t n);
void fr_inv(fr_t *out, const fr_t *a); /* 0 maps to 0 */

int fr_is_zero(const fr_t *a);
int fr_is_one(const fr_t *a);
int fr_equal(const fr_t *a, const fr_t *b);

cuzk_status fr_from_limbs(fr_t *out, const uint64_t in[FR_LIMBS]);
void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a);
void fr_from_u64(fr_t *out, uint64_t v);
cuzk_status fr_from_be(fr_t *out, const uint8_t in[FR_BYTES]);
cuzk_status fr_from_le(fr_t *out, const uint8_t in[FR_BYTES]);
void fr_to_be(uint8_t out[FR_BYTES], const fr_t *a);
void fr_to_le(uint8_t out[FR_BYTES], const fr_t *a);

/* A uniformly random element from the kernel's CSPRNG (getrandom);
 * CUZK_ERR_IO when no randomness is available. */
cuzk_status fr_random(fr_t *out, cuzk_error_t *err);

/* Roots of unity. Two conventions exist for the same field:
 *  FR_ROOTS_BELLMAN: omega_32 = 7^((r-1)/2^32)  (bellman, bellperson, Filecoin)
 *  FR_ROOTS_FFJS:    omega_32 = 5^((r-1)/2^32)  (ffjavascript, snarkjs)
 * fr_root_of_unity returns omega_32^(2^(32-log_n)): a primitive 2^log_n-th
 * root, 0 <= log_n <= 32. */
typedef enum fr_roots { FR_ROOTS_BELLMAN = 0, FR_ROOTS_FFJS = 1 } fr_roots;
#define FR_TWO_ADICITY 32
cuzk_status fr_root_of_unity(fr_t *out, fr_roots conv, unsigned log_n);

#ifdef __cplusplus
}
#endif
#endif
