/* zcash / bellperson and snarkjs LEM point encodings (see include/cuzk/encode.h). */
#include <string.h>

#include "cuzk/encode.h"

#include "../field/constants_gen.h"

#define FLAG_COMPRESSED 0x80
#define FLAG_INFINITY 0x40
#define FLAG_SIGN 0x20
#define FLAG_MASK 0xe0

static const fp_t B1 = {CUZK_G1_B};

/* Checks the flag bits of an encoding of n bytes. Returns the sign bit in
 * *sign and whether it is infinity in *inf. */
static cuzk_status flags_check(int *inf, int *sign, const uint8_t *in, size_t n, int compressed,
                               const char *what, cuzk_error_t *err)
{
    uint8_t f = in[0] & FLAG_MASK;
    if (compressed && !(f & FLAG_COMPRESSED))
        return cuzk_error_set(err, CUZK_ERR_FLAGS, "%s: compressed encoding without the 0x80 flag",
                              what);
    if (!compressed && (f & FLAG_COMPRESSED))
        return cuzk_error_set(err, CUZK_ERR_FLAGS, "%s: uncompressed encoding with the 0x80 flag",
                              what);
    if (!compressed && (f & FLAG_SIGN))
        return cuzk_error_set(err, CUZK_ERR_FLAGS, "%s: uncompressed encoding with the sign flag",
                              what);
    *inf = (f & FLAG_INFINITY) != 0;
    *sign = (f & FLAG_SIGN) != 0;
    if (*inf) {
        int rest = in[0] & 0x1f;
        for (size_t i = 1; i < n; i++)
            rest |= in[i];
        if (rest || *sign)
            return cuzk_error_set(err, CUZK_ERR_FLAGS, "%s: infinity flag with other bits set",
                                  what);
    }
    return CUZK_OK;
}

/* Reads a big-endian coordinate, masking the flag bits when first. */
static cuzk_status coord_read(fp_t *out, const uint8_t *in, int first, const char *what,
                              cuzk_error_t *err)
{
    uint8_t b[FP_BYTES];
    memcpy(b, in, FP_BYTES);
    if (first)
        b[0] &= (uint8_t)~FLAG_MASK;
    if (fp_from_be(out, b) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "%s: coordinate is not below p", what);
    return CUZK_OK;
}

static cuzk_status g1_finish(g1_affine_t *out, const g1_affine_t *p, point_check chk,
                             const char *what, cuzk_error_t *err)
{
    /* (0, 0) is our infinity but not a curve point: reject it as coordinates. */
    if (g1_affine_is_inf(p) || !g1_affine_is_on_curve(p))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: point is not on the curve", what);
    if (chk == POINT_CHECK_SUBGROUP && !g1_affine_in_subgroup(p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: point is not in the subgroup",
                              what);
    *out = *p;
    return CUZK_OK;
}

static cuzk_status g2_finish(g2_affine_t *out, const g2_affine_t *p, point_check chk,
                             const char *what, cuzk_error_t *err)
{
    /* (0, 0) is our infinity but not a curve point: reject it as coordinates. */
    if (g2_affine_is_inf(p) || !g2_affine_is_on_curve(p))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: point is not on the curve", what);
    if (chk == POINT_CHECK_SUBGROUP && !g2_affine_in_subgroup(p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: point is not in the subgroup",
                              what);
    *out = *p;
    return CUZK_OK;
}

void g1_compress(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *a)
{
    if (g1_affine_is_inf(a)) {
        memset(out, 0, G1_COMPRESSED_BYTES);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fp_to_be(out, &a->x);
    out[0] |= FLAG_COMPRESSED;
    if (fp_is_lex_largest(&a->y))
        out[0] |= FLAG_SIGN;
}

void g1_serialize(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *a)
{
    if (g1_affine_is_inf(a)) {
        memset(out, 0, G1_UNCOMPRESSED_BYTES);
        out[0] = FLAG_INFINITY;
        return;
    }
    fp_to_be(out, &a->x);
    fp_to_be(out + FP_BYTES, &a->y);
}

cuzk_status g1_decompress(g1_affine_t *out, const uint8_t in[G1_COMPRESSED_BYTES], point_check chk,
                          cuzk_error_t *err)
{
    const char *what = "G1 compressed";
    int inf = 0, sign = 0;
    cuzk_status st = flags_check(&inf, &sign, in, G1_COMPRESSED_BYTES, 1, what, err);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        g1_affine_set_inf(out);
        return CUZK_OK;
    }
    g1_affine_t p;
    if ((st = coord_read(&p.x, in, 1, what, err)) != CUZK_OK)
        return st;
    fp_t rhs;
    fp_sqr(&rhs, &p.x);
    fp_mul(&rhs, &rhs, &p.x);
    fp_add(&rhs, &rhs, &B1);
    if (!fp_sqrt(&p.y, &rhs))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: x is not on the curve", what);
    if (fp_is_lex_largest(&p.y) != sign)
        fp_neg(&p.y, &p.y);
    return g1_finish(out, &p, chk, what, err);
}

cuzk_status g1_deserialize(g1_affine_t *out, const uint8_t in[G1_UNCOMPRESSED_BYTES],
                           point_check chk, cuzk_error_t *err)
{
    const char *what = "G1 uncompressed";
    int inf = 0, sign = 0;
    cuzk_status st = flags_check(&inf, &sign, in, G1_UNCOMPRESSED_BYTES, 0, what, err);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        g1_affine_set_inf(out);
        return CUZK_OK;
    }
    g1_affine_t p;
    if ((st = coord_read(&p.x, in, 1, what, err)) != CUZK_OK ||
        (st = coord_read(&p.y, in + FP_BYTES, 0, what, err)) != CUZK_OK)
        return st;
    return g1_finish(out, &p, chk, what, err);
}

/* G2 coordinates are written c1 first, then c0. */
static void fp2_to_be(uint8_t *out, const fp2_t *a)
{
    fp_to_be(out, &a->c1);
    fp_to_be(out + FP_BYTES, &a->c0);
}

static cuzk_status fp2_read_be(fp2_t *out, const uint8_t *in, int first, const char *what,
                               cuzk_error_t *err)
{
    cuzk_status st = coord_read(&out->c1, in, first, what, err);
    if (st != CUZK_OK)
        return st;
    return coord_read(&out->c0, in + FP_BYTES, 0, what, err);
}

void g2_compress(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *a)
{
    if (g2_affine_is_inf(a)) {
        memset(out, 0, G2_COMPRESSED_BYTES);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fp2_to_be(out, &a->x);
    out[0] |= FLAG_COMPRESSED;
    if (fp2_is_lex_largest(&a->y))
        out[0] |= FLAG_SIGN;
}

void g2_serialize(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *a)
{
    if (g2_affine_is_inf(a)) {
        memset(out, 0, G2_UNCOMPRESSED_BYTES);
        out[0] = FLAG_INFINITY;
        return;
    }
    fp2_to_be(out, &a->x);
    fp2_to_be(out + 2 * FP_BYTES, &a->y);
}

cuzk_status g2_decompress(g2_affine_t *out, const uint8_t in[G2_COMPRESSED_BYTES], point_check chk,
                          cuzk_error_t *err)
{
    const char *what = "G2 compressed";
    int inf = 0, sign = 0;
    cuzk_status st = flags_check(&inf, &sign, in, G2_COMPRESSED_BYTES, 1, what, err);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        g2_affine_set_inf(out);
        return CUZK_OK;
    }
    g2_affine_t p;
    if ((st = fp2_read_be(&p.x, in, 1, what, err)) != CUZK_OK)
        return st;
    fp2_t rhs, b2 = {B1, B1};
    fp2_sqr(&rhs, &p.x);
    fp2_mul(&rhs, &rhs, &p.x);
    fp2_add(&rhs, &rhs, &b2);
    if (!fp2_sqrt(&p.y, &rhs))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: x is not on the curve", what);
    if (fp2_is_lex_largest(&p.y) != sign)
        fp2_neg(&p.y, &p.y);
    return g2_finish(out, &p, chk, what, err);
}

cuzk_status g2_deserialize(g2_affine_t *out, const uint8_t in[G2_UNCOMPRESSED_BYTES],
                           point_check chk, cuzk_error_t *err)
{
    const char *what = "G2 uncompressed";
    int inf = 0, sign = 0;
    cuzk_status st = flags_check(&inf, &sign, in, G2_UNCOMPRESSED_BYTES, 0, what, err);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        g2_affine_set_inf(out);
        return CUZK_OK;
    }
    g2_affine_t p;
    if ((st = fp2_read_be(&p.x, in, 1, what, err)) != CUZK_OK ||
        (st = fp2_read_be(&p.y, in + 2 * FP_BYTES, 0, what, err)) != CUZK_OK)
        return st;
    return g2_finish(out, &p, chk, what, err);
}

/* ---- snarkjs LEM: Montgomery little-endian, infinity all zero ---- */

static int all_zero(const uint8_t *in, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= in[i];
    return acc == 0;
}

void g1_to_lem(uint8_t out[G1_LEM_BYTES], const g1_affine_t *a)
{
    fp_to_mont_le(out, &a->x);
    fp_to_mont_le(out + FP_BYTES, &a->y);
}

cuzk_status g1_from_lem(g1_affine_t *out, const uint8_t in[G1_LEM_BYTES], point_check chk,
                        cuzk_error_t *err)
{
    const char *what = "G1 (snarkjs LEM)";
    if (all_zero(in, G1_LEM_BYTES)) {
        g1_affine_set_inf(out);
        return CUZK_OK;
    }
    g1_affine_t p;
    if (fp_from_mont_le(&p.x, in) != CUZK_OK || fp_from_mont_le(&p.y, in + FP_BYTES) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "%s: coordinate is not below p", what);
    return g1_finish(out, &p, chk, what, err);
}

void g2_to_lem(uint8_t out[G2_LEM_BYTES], const g2_affine_t *a)
{
    fp_to_mont_le(out, &a->x.c0);
    fp_to_mont_le(out + FP_BYTES, &a->x.c1);
    fp_to_mont_le(out + 2 * FP_BYTES, &a->y.c0);
    fp_to_mont_le(out + 3 * FP_BYTES, &a->y.c1);
}

cuzk_status g2_from_lem(g2_affine_t *out, const uint8_t in[G2_LEM_BYTES], point_check chk,
                        cuzk_error_t *err)
{
    const char *what = "G2 (snarkjs LEM)";
    if (all_zero(in, G2_LEM_BYTES)) {
        g2_affine_set_inf(out);
        return CUZK_OK;
    }
    g2_affine_t p;
    if (fp_from_mont_le(&p.x.c0, in) != CUZK_OK ||
        fp_from_mont_le(&p.x.c1, in + FP_BYTES) != CUZK_OK ||
        fp_from_mont_le(&p.y.c0, in + 2 * FP_BYTES) != CUZK_OK ||
        fp_from_mont_le(&p.y.c1, in + 3 * FP_BYTES) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "%s: coordinate is not below p", what);
    return g2_finish(out, &p, chk, what, err);
}
