/* Decimal strings for field elements and snarkjs JSON point coordinates.
 *
 * Readers accept only ASCII digits (no sign, no spaces, at least one digit;
 * leading zeros allowed) of a value below the modulus, and report the
 * offending text in err. Writers produce the shortest form ("0" for zero),
 * NUL-terminated, and return its length. */
#ifndef CUZK_DECIMAL_H
#define CUZK_DECIMAL_H

#include <stddef.h>

#include "cuzk/encode.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FP_DEC_MAX 118 /* 115 digits of p, NUL, slack */
#define FR_DEC_MAX 80  /* 77 digits of r, NUL, slack */

size_t fp_to_dec(char out[FP_DEC_MAX], const fp_t *a);
size_t fr_to_dec(char out[FR_DEC_MAX], const fr_t *a);
cuzk_status fp_from_dec(fp_t *out, const char *s, size_t len, cuzk_error_t *err);
cuzk_status fr_from_dec(fr_t *out, const char *s, size_t len, cuzk_error_t *err);

/* snarkjs projective JSON coordinates: G1 ["x", "y", "1"], infinity
 * ["0", "1", "0"]; G2 [["x0","x1"], ["y0","y1"], ["1","0"]], infinity
 * [["0","0"], ["1","0"], ["0","0"]]. Readers take NUL-terminated strings;
 * z must be 1 (snarkjs writes affine points), or the triple infinity's. */
void g1_to_dec(char out[3][FP_DEC_MAX], const g1_affine_t *a);
void g2_to_dec(char out[3][2][FP_DEC_MAX], const g2_affine_t *a);
cuzk_status g1_from_dec(g1_affine_t *out, const char *const in[3], point_check chk,
                        cuzk_error_t *err);
cuzk_status g2_from_dec(g2_affine_t *out, const char *const in[3][2], point_check chk,
                        cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
