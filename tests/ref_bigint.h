/* A slow, obviously correct multiprecision reference for tests.
 *
 * Numbers are unsigned integers below 2^REF_BITS, held as little-endian arrays
 * of 32-bit words so that every word product and carry fits a uint64_t. Each
 * routine is the schoolbook algorithm: add and subtract with a carry, multiply
 * word by word, reduce by binary long division (shift one bit of the dividend
 * in, subtract the modulus when the remainder reaches it), exponentiate by
 * left-to-right square-and-multiply. No Montgomery form, no tricks: the code
 * exists to check the library's fast paths, so it must be easy to believe.
 * It is neither fast nor constant time.
 *
 * Rules: outputs come first; outputs may alias inputs. A result that does not
 * fit where it goes (a product over REF_BITS, a value too big for its byte
 * buffer) or a zero modulus is a bug in the calling test: the function prints
 * what went wrong and aborts. */
#ifndef CUZK_REF_BIGINT_H
#define CUZK_REF_BIGINT_H

#include <stddef.h>
#include <stdint.h>

#define REF_WORDS 32
#define REF_BITS (32 * REF_WORDS)
/* Enough for "0x", every hex digit of a REF_BITS number and the NUL. */
#define REF_HEX_MAX (2 + REF_BITS / 4 + 1)

typedef struct ref_bn {
    uint32_t w[REF_WORDS]; /* w[0] is the least significant word */
} ref_bn_t;

void ref_set_u64(ref_bn_t *out, uint64_t v);
/* Big-endian hex, with or without "0x"; aborts on anything else. */
void ref_set_hex(ref_bn_t *out, const char *hex);
/* "0x" and the hex digits without leading zeros ("0x0" for zero). */
void ref_to_hex(char out[REF_HEX_MAX], const ref_bn_t *a);

/* Byte and 64-bit limb conversions. The to_* writers abort when a does not
 * fit the len bytes (n limbs) given. */
void ref_from_be(ref_bn_t *out, const uint8_t *in, size_t len);
void ref_from_le(ref_bn_t *out, const uint8_t *in, size_t len);
void ref_to_be(uint8_t *out, size_t len, const ref_bn_t *a);
void ref_to_le(uint8_t *out, size_t len, const ref_bn_t *a);
void ref_from_limbs(ref_bn_t *out, const uint64_t *in, size_t n);
void ref_to_limbs(uint64_t *out, size_t n, const ref_bn_t *a);

/* -1, 0 or 1 as a < b, a == b, a > b. */
int ref_cmp(const ref_bn_t *a, const ref_bn_t *b);
int ref_is_zero(const ref_bn_t *a);
/* Bit i (0 = least significant); 0 for i >= REF_BITS. */
int ref_bit(const ref_bn_t *a, unsigned i);
/* Number of significant bits (0 for zero). */
unsigned ref_bitlen(const ref_bn_t *a);

/* Arithmetic modulo 2^REF_BITS: add returns the carry out, sub the borrow
 * out (1 when a < b). */
uint32_t ref_add(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b);
uint32_t ref_sub(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b);
/* Shifts by k bits; shl aborts if a set bit would fall off the top. */
void ref_shl(ref_bn_t *out, const ref_bn_t *a, unsigned k);
void ref_shr(ref_bn_t *out, const ref_bn_t *a, unsigned k);
/* Full product; aborts if it needs more than REF_BITS. */
void ref_mul(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b);
/* q = a / m, r = a mod m by binary long division; q or r may be NULL.
 * m must be nonzero and below 2^(REF_BITS - 32). */
void ref_divmod(ref_bn_t *q, ref_bn_t *r, const ref_bn_t *a, const ref_bn_t *m);

/* Modular arithmetic: inputs of any size are reduced mod m first; results
 * are in [0, m). */
void ref_mod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *m);
void ref_addmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b, const ref_bn_t *m);
void ref_submod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b, const ref_bn_t *m);
void ref_negmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *m);
void ref_mulmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b, const ref_bn_t *m);
/* a^e mod m; a^0 = 1 (mod m), including 0^0. */
void ref_powmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *e, const ref_bn_t *m);

#endif
