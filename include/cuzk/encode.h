/* Point encodings.
 *
 * zcash / bellperson / Filecoin (big-endian):
 *   G1 compressed 48 bytes, uncompressed 96 (x | y);
 *   G2 compressed 96 bytes, uncompressed 192 (x.c1 | x.c0 | y.c1 | y.c0).
 *   The top three bits of byte 0 are flags: 0x80 compressed, 0x40 infinity,
 *   0x20 y is lexicographically largest (compressed only). Infinity is the
 *   infinity flag (plus 0x80 when compressed) and all other bits zero.
 * snarkjs LEM (.zkey sections): affine coordinates in Montgomery form,
 *   48-byte little-endian limbs, G1 x | y (96 bytes), G2 x.c0 | x.c1 | y.c0 |
 *   y.c1 (192 bytes); infinity is all zero bytes.
 * snarkjs JSON: decimal strings of plain coordinates (see decimal.h).
 *
 * Decoders check, in order: flags, canonical coordinates (< p), curve
 * equation, and with POINT_CHECK_SUBGROUP the prime-order subgroup. Each
 * failure has its own status code and message; input bytes are never
 * trusted for lengths (the sizes are fixed by the function). */
#ifndef CUZK_ENCODE_H
#define CUZK_ENCODE_H

#include <stdint.h>

#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192
#define G1_LEM_BYTES 96
#define G2_LEM_BYTES 192

typedef enum point_check {
    POINT_CHECK_CURVE = 0,   /* on the curve (always checked) */
    POINT_CHECK_SUBGROUP = 1 /* and in the order-r subgroup */
} point_check;

void g1_compress(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *a);
void g1_serialize(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *a);
cuzk_status g1_decompress(g1_affine_t *out, const uint8_t in[G1_COMPRESSED_BYTES], point_check chk,
                          cuzk_error_t *err);
cuzk_status g1_deserialize(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES],
                           point_check chk, cuzk_error_t *err);

void g2_compress(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *a);
void g2_serialize(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *a);
cuzk_status g2_decompress(g2_affine_t *out, const uint8_t in[G2_COMPRESSED_BYTES], point_check chk,
                          cuzk_error_t *err);
cuzk_status g2_deserialize(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES],
                           point_check chk, cuzk_error_t *err);

void g1_to_lem(uint8_t out[G1_LEM_BYTES], const g1_affine_t *a);
cuzk_status g1_from_lem(g1_affine_t *out, const uint8_t in[G1_LEM_BYTES], point_check chk,
                        cuzk_error_t *err);
void g2_to_lem(uint8_t out[G2_LEM_BYTES], const g2_affine_t *a);
cuzk_status g2_from_lem(g2_affine_t *out, const uint8_t in[G2_LEM_BYTES], point_check chk,
                        cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
