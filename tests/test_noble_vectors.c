/* Cross-check against @noble/curves, an independent BLS12-381 implementation.
 *
 * tests/vectors/noble_bls12_381.txt is written by tools/gen_vectors.mjs (see
 * its header for the format); every line `op field...` is recomputed here
 * with cuzk and compared as text: our result is written in the file's own
 * encoding (canonical big-endian hex, zcash points) and must match byte for
 * byte. Input points are read with the subgroup check, and every point read
 * must survive serialize and compress/decompress round trips.
 *
 * The test cannot pass vacuously: a missing or empty file, an unknown op, a
 * malformed line, or fewer than VEC_MIN_PER_OP vectors of any op fails it,
 * and test_noble_detect_change proves each checker rejects a changed vector. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/encode.h"
#include "cuzk/pairing.h"

#define VEC_PATH CUZK_SOURCE_DIR "/tests/vectors/noble_bls12_381.txt"
#define VEC_MIN_PER_OP 10
#define VEC_MAX_TOKENS 48 /* fp12_mul: 1 + 3 * 12 */
#define VEC_TEXT_MAX 1536 /* one Fp12 result: 12 * 97 characters */
#define FP12_COEFFS 12

/* ---- text helpers ------------------------------------------------------ */

typedef struct sbuf {
    char s[VEC_TEXT_MAX];
    size_t n;
} sbuf_t;

static void sb_reset(sbuf_t *b)
{
    b->n = 0;
    b->s[0] = '\0';
}

/* Appends a space-separated field. */
static void sb_str(sbuf_t *b, const char *s)
{
    size_t len = strlen(s);
    assert_true(b->n + len + 2 <= sizeof b->s);
    if (b->n)
        b->s[b->n++] = ' ';
    memcpy(b->s + b->n, s, len + 1);
    b->n += len;
}

static void sb_hex(sbuf_t *b, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[2 * G2_UNCOMPRESSED_BYTES + 1];
    assert_true(2 * n < sizeof tmp);
    for (size_t i = 0; i < n; i++) {
        tmp[2 * i] = digits[in[i] >> 4];
        tmp[2 * i + 1] = digits[in[i] & 15];
    }
    tmp[2 * n] = '\0';
    sb_str(b, tmp);
}

static int hex_nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1; /* the format is lowercase only */
}

/* Returns 1 when s is exactly 2n lowercase hex digits, decoded into out. */
static int hex_read(uint8_t *out, size_t n, const char *s)
{
    if (strlen(s) != 2 * n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

/* ---- one vector -------------------------------------------------------- */

typedef enum vec_result {
    VEC_OK = 0,
    VEC_MISMATCH,  /* cuzk computed something else */
    VEC_BAD_INPUT, /* cuzk rejected an input noble accepted, or the line is malformed */
} vec_result;

typedef struct vec_ctx {
    char **f;    /* the fields after the op name */
    sbuf_t got;  /* our result, in the file's format */
    sbuf_t want; /* the expected fields, joined */
    char why[CUZK_ERRMSG_MAX + 128];
} vec_ctx;

/* Compares c->got with fields f[first .. first+n-1]. */
static vec_result vec_expect(vec_ctx *c, int first, int n)
{
    sb_reset(&c->want);
    for (int i = 0; i < n; i++)
        sb_str(&c->want, c->f[first + i]);
    return strcmp(c->got.s, c->want.s) == 0 ? VEC_OK : VEC_MISMATCH;
}

/* Compares c->got, recomputed by a second code path named by via, with the
 * c->want of an earlier vec_expect. */
static vec_result vec_expect_again(vec_ctx *c, const char *via)
{
    if (strcmp(c->got.s, c->want.s) == 0)
        return VEC_OK;
    snprintf(c->why, sizeof c->why, "via %s", via);
    return VEC_MISMATCH;
}

static int vec_reject(vec_ctx *c, const char *what, const char *field)
{
    snprintf(c->why, sizeof c->why, "%s: cannot read \"%.40s\"", what, field);
    return 0;
}

static int read_fp(vec_ctx *c, fp_t *out, const char *s)
{
    uint8_t b[FP_BYTES];
    if (!hex_read(b, sizeof b, s) || fp_from_be(out, b) != CUZK_OK)
        return vec_reject(c, "Fp", s);
    return 1;
}

static int read_fr(vec_ctx *c, fr_t *out, const char *s)
{
    uint8_t b[FR_BYTES];
    if (!hex_read(b, sizeof b, s) || fr_from_be(out, b) != CUZK_OK)
        return vec_reject(c, "Fr", s);
    return 1;
}

static int read_fp2(vec_ctx *c, fp2_t *out, char **f)
{
    return read_fp(c, &out->c0, f[0]) && read_fp(c, &out->c1, f[1]);
}

/* Coefficient i of the file's order: c0.c0.c0 c0.c0.c1 c0.c1.c0 ... c1.c2.c1. */
static fp_t *fp12_coeff(fp12_t *a, int i)
{
    fp6_t *h = i < 6 ? &a->c0 : &a->c1;
    int j = (i % 6) / 2;
    fp2_t *q = j == 0 ? &h->c0 : j == 1 ? &h->c1 : &h->c2;
    return i % 2 ? &q->c1 : &q->c0;
}

static int read_fp12(vec_ctx *c, fp12_t *out, char **f)
{
    for (int i = 0; i < FP12_COEFFS; i++)
        if (!read_fp(c, fp12_coeff(out, i), f[i]))
            return 0;
    return 1;
}

static int read_g1(vec_ctx *c, g1_affine_t *out, const char *s)
{
    uint8_t b[G1_UNCOMPRESSED_BYTES], back[G1_UNCOMPRESSED_BYTES], z[G1_COMPRESSED_BYTES];
    cuzk_error_t err = {0};
    g1_affine_t rt;
    if (!hex_read(b, sizeof b, s))
        return vec_reject(c, "G1", s);
    if (g1_deserialize(out, b, POINT_CHECK_SUBGROUP, &err) != CUZK_OK) {
        snprintf(c->why, sizeof c->why, "g1_deserialize rejects %.24s...: %s", s, err.msg);
        return 0;
    }
    g1_serialize(back, out);
    g1_compress(z, out);
    if (memcmp(back, b, sizeof b) != 0 ||
        g1_decompress(&rt, z, POINT_CHECK_SUBGROUP, &err) != CUZK_OK ||
        !g1_affine_equal(&rt, out)) {
        snprintf(c->why, sizeof c->why, "G1 %.24s...: serialize/compress round trip fails: %s", s,
                 err.msg);
        return 0;
    }
    return 1;
}

static int read_g2(vec_ctx *c, g2_affine_t *out, const char *s)
{
    uint8_t b[G2_UNCOMPRESSED_BYTES], back[G2_UNCOMPRESSED_BYTES], z[G2_COMPRESSED_BYTES];
    cuzk_error_t err = {0};
    g2_affine_t rt;
    if (!hex_read(b, sizeof b, s))
        return vec_reject(c, "G2", s);
    if (g2_deserialize(out, b, POINT_CHECK_SUBGROUP, &err) != CUZK_OK) {
        snprintf(c->why, sizeof c->why, "g2_deserialize rejects %.24s...: %s", s, err.msg);
        return 0;
    }
    g2_serialize(back, out);
    g2_compress(z, out);
    if (memcmp(back, b, sizeof b) != 0 ||
        g2_decompress(&rt, z, POINT_CHECK_SUBGROUP, &err) != CUZK_OK ||
        !g2_affine_equal(&rt, out)) {
        snprintf(c->why, sizeof c->why, "G2 %.24s...: serialize/compress round trip fails: %s", s,
                 err.msg);
        return 0;
    }
    return 1;
}

static void put_fp(vec_ctx *c, const fp_t *a)
{
    uint8_t b[FP_BYTES];
    fp_to_be(b, a);
    sb_hex(&c->got, b, sizeof b);
}

static void put_fr(vec_ctx *c, const fr_t *a)
{
    uint8_t b[FR_BYTES];
    fr_to_be(b, a);
    sb_hex(&c->got, b, sizeof b);
}

static void put_fp2(vec_ctx *c, const fp2_t *a)
{
    put_fp(c, &a->c0);
    put_fp(c, &a->c1);
}

static void put_fp12(vec_ctx *c, const fp12_t *a)
{
    fp12_t t = *a;
    for (int i = 0; i < FP12_COEFFS; i++)
        put_fp(c, fp12_coeff(&t, i));
}

static void put_g1(vec_ctx *c, const g1_jac_t *p)
{
    g1_affine_t a;
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    g1_to_affine(&a, p);
    g1_serialize(b, &a);
    sb_hex(&c->got, b, sizeof b);
}

static void put_g2(vec_ctx *c, const g2_jac_t *p)
{
    g2_affine_t a;
    uint8_t b[G2_UNCOMPRESSED_BYTES];
    g2_to_affine(&a, p);
    g2_serialize(b, &a);
    sb_hex(&c->got, b, sizeof b);
}

/* ---- checkers: one per op; fields as in tools/gen_vectors.mjs ------------ */

typedef void (*fp_binop)(fp_t *, const fp_t *, const fp_t *);
typedef void (*fr_binop)(fr_t *, const fr_t *, const fr_t *);

static vec_result check_fp_binop(vec_ctx *c, fp_binop op)
{
    fp_t a, b, r;
    if (!read_fp(c, &a, c->f[0]) || !read_fp(c, &b, c->f[1]))
        return VEC_BAD_INPUT;
    op(&r, &a, &b);
    put_fp(c, &r);
    return vec_expect(c, 2, 1);
}

static vec_result check_fp_add(vec_ctx *c)
{
    return check_fp_binop(c, fp_add);
}
static vec_result check_fp_sub(vec_ctx *c)
{
    return check_fp_binop(c, fp_sub);
}
static vec_result check_fp_mul(vec_ctx *c)
{
    return check_fp_binop(c, fp_mul);
}

static vec_result check_fp_inv(vec_ctx *c)
{
    fp_t a, r;
    if (!read_fp(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    fp_inv(&r, &a);
    put_fp(c, &r);
    return vec_expect(c, 1, 1);
}

/* Either root is right: ours must square to a and be noble's up to sign. The
 * sign field must agree with fp_is_lex_largest of noble's root. */
static int sqrt_same_root, sqrt_negated_root;

static vec_result check_fp_sqrt(vec_ctx *c)
{
    fp_t a, want, got, sq, neg;
    int want_sign;
    if (!read_fp(c, &a, c->f[0]) || !read_fp(c, &want, c->f[1]))
        return VEC_BAD_INPUT;
    if (strcmp(c->f[2], "0") != 0 && strcmp(c->f[2], "1") != 0) {
        vec_reject(c, "sign", c->f[2]);
        return VEC_BAD_INPUT;
    }
    want_sign = c->f[2][0] - '0';
    fp_sqr(&sq, &want);
    if (!fp_equal(&sq, &a)) {
        snprintf(c->why, sizeof c->why, "noble's root does not square to a");
        return VEC_BAD_INPUT;
    }
    if (!fp_sqrt(&got, &a)) {
        vec_expect(c, 1, 2); /* fills c->want for the report */
        sb_reset(&c->got);
        sb_str(&c->got, "(fp_sqrt says non-square)");
        return VEC_MISMATCH;
    }
    put_fp(c, &got);
    sb_str(&c->got, fp_is_lex_largest(&want) ? "1" : "0");
    fp_sqr(&sq, &got);
    fp_neg(&neg, &want);
    if (!fp_equal(&sq, &a) || !(fp_equal(&got, &want) || fp_equal(&got, &neg)) ||
        fp_is_lex_largest(&want) != want_sign) {
        vec_expect(c, 1, 2); /* fills c->want for the report */
        return VEC_MISMATCH;
    }
    if (fp_equal(&got, &want))
        sqrt_same_root++;
    else
        sqrt_negated_root++;
    return VEC_OK;
}

static vec_result check_fp_nonsqr(vec_ctx *c)
{
    fp_t a, r = FP_ZERO_ELEM;
    if (!read_fp(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    int ok = fp_sqrt(&r, &a);
    int sq = fp_is_square(&a);
    if (!ok && !sq && fp_is_zero(&r))
        return VEC_OK;
    snprintf(c->got.s, sizeof c->got.s, "fp_sqrt returned %d, fp_is_square %d, out %s", ok, sq,
             fp_is_zero(&r) ? "untouched" : "written");
    snprintf(c->want.s, sizeof c->want.s, "no root (noble: not a square)");
    return VEC_MISMATCH;
}

static vec_result check_fr_binop(vec_ctx *c, fr_binop op)
{
    fr_t a, b, r;
    if (!read_fr(c, &a, c->f[0]) || !read_fr(c, &b, c->f[1]))
        return VEC_BAD_INPUT;
    op(&r, &a, &b);
    put_fr(c, &r);
    return vec_expect(c, 2, 1);
}

static vec_result check_fr_add(vec_ctx *c)
{
    return check_fr_binop(c, fr_add);
}
static vec_result check_fr_mul(vec_ctx *c)
{
    return check_fr_binop(c, fr_mul);
}

static vec_result check_fr_inv(vec_ctx *c)
{
    fr_t a, r;
    if (!read_fr(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    fr_inv(&r, &a);
    put_fr(c, &r);
    return vec_expect(c, 1, 1);
}

static vec_result check_fp2_mul(vec_ctx *c)
{
    fp2_t a, b, r;
    if (!read_fp2(c, &a, c->f) || !read_fp2(c, &b, c->f + 2))
        return VEC_BAD_INPUT;
    fp2_mul(&r, &a, &b);
    put_fp2(c, &r);
    return vec_expect(c, 4, 2);
}

static vec_result check_fp2_inv(vec_ctx *c)
{
    fp2_t a, r;
    if (!read_fp2(c, &a, c->f))
        return VEC_BAD_INPUT;
    fp2_inv(&r, &a);
    put_fp2(c, &r);
    return vec_expect(c, 2, 2);
}

static vec_result check_fp12_mul(vec_ctx *c)
{
    fp12_t a, b, r;
    if (!read_fp12(c, &a, c->f) || !read_fp12(c, &b, c->f + FP12_COEFFS))
        return VEC_BAD_INPUT;
    fp12_mul(&r, &a, &b);
    put_fp12(c, &r);
    return vec_expect(c, 2 * FP12_COEFFS, FP12_COEFFS);
}

static vec_result check_fp12_inv(vec_ctx *c)
{
    fp12_t a, r;
    if (!read_fp12(c, &a, c->f))
        return VEC_BAD_INPUT;
    fp12_inv(&r, &a);
    put_fp12(c, &r);
    return vec_expect(c, FP12_COEFFS, FP12_COEFFS);
}

/* P + Q through both the general and the mixed addition. */
static vec_result check_g1_add(vec_ctx *c)
{
    g1_affine_t a, b;
    g1_jac_t ja, jb, r;
    if (!read_g1(c, &a, c->f[0]) || !read_g1(c, &b, c->f[1]))
        return VEC_BAD_INPUT;
    g1_from_affine(&ja, &a);
    g1_from_affine(&jb, &b);
    g1_add(&r, &ja, &jb);
    put_g1(c, &r);
    if (vec_expect(c, 2, 1) != VEC_OK)
        return VEC_MISMATCH;
    sb_reset(&c->got);
    g1_add_mixed(&r, &ja, &b);
    put_g1(c, &r);
    return vec_expect_again(c, "g1_add_mixed");
}

static vec_result check_g1_dbl(vec_ctx *c)
{
    g1_affine_t a;
    g1_jac_t ja, r;
    if (!read_g1(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    g1_from_affine(&ja, &a);
    g1_dbl(&r, &ja);
    put_g1(c, &r);
    return vec_expect(c, 1, 1);
}

/* [k] P through g1_mul_fr and g1_mul_var on k's limbs. */
static vec_result check_g1_mul(vec_ctx *c)
{
    g1_affine_t a;
    g1_jac_t ja, r;
    fr_t k;
    uint64_t kl[FR_LIMBS];
    if (!read_g1(c, &a, c->f[0]) || !read_fr(c, &k, c->f[1]))
        return VEC_BAD_INPUT;
    g1_from_affine(&ja, &a);
    g1_mul_fr(&r, &ja, &k);
    put_g1(c, &r);
    if (vec_expect(c, 2, 1) != VEC_OK)
        return VEC_MISMATCH;
    sb_reset(&c->got);
    fr_to_limbs(kl, &k);
    g1_mul_var(&r, &ja, kl, FR_LIMBS);
    put_g1(c, &r);
    return vec_expect_again(c, "g1_mul_var");
}

static vec_result check_g1_compress(vec_ctx *c)
{
    g1_affine_t a, back;
    uint8_t z[G1_COMPRESSED_BYTES], want[G1_COMPRESSED_BYTES];
    cuzk_error_t err = {0};
    if (!read_g1(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    if (!hex_read(want, sizeof want, c->f[1])) {
        vec_reject(c, "G1 compressed", c->f[1]);
        return VEC_BAD_INPUT;
    }
    g1_compress(z, &a);
    sb_hex(&c->got, z, sizeof z);
    if (vec_expect(c, 1, 1) != VEC_OK)
        return VEC_MISMATCH;
    if (g1_decompress(&back, want, POINT_CHECK_SUBGROUP, &err) != CUZK_OK ||
        !g1_affine_equal(&back, &a)) {
        snprintf(c->why, sizeof c->why, "g1_decompress of noble's bytes: %s",
                 err.msg[0] ? err.msg : "another point");
        return VEC_BAD_INPUT;
    }
    return VEC_OK;
}

static vec_result check_g2_add(vec_ctx *c)
{
    g2_affine_t a, b;
    g2_jac_t ja, jb, r;
    if (!read_g2(c, &a, c->f[0]) || !read_g2(c, &b, c->f[1]))
        return VEC_BAD_INPUT;
    g2_from_affine(&ja, &a);
    g2_from_affine(&jb, &b);
    g2_add(&r, &ja, &jb);
    put_g2(c, &r);
    if (vec_expect(c, 2, 1) != VEC_OK)
        return VEC_MISMATCH;
    sb_reset(&c->got);
    g2_add_mixed(&r, &ja, &b);
    put_g2(c, &r);
    return vec_expect_again(c, "g2_add_mixed");
}

static vec_result check_g2_dbl(vec_ctx *c)
{
    g2_affine_t a;
    g2_jac_t ja, r;
    if (!read_g2(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    g2_from_affine(&ja, &a);
    g2_dbl(&r, &ja);
    put_g2(c, &r);
    return vec_expect(c, 1, 1);
}

static vec_result check_g2_mul(vec_ctx *c)
{
    g2_affine_t a;
    g2_jac_t ja, r;
    fr_t k;
    uint64_t kl[FR_LIMBS];
    if (!read_g2(c, &a, c->f[0]) || !read_fr(c, &k, c->f[1]))
        return VEC_BAD_INPUT;
    g2_from_affine(&ja, &a);
    g2_mul_fr(&r, &ja, &k);
    put_g2(c, &r);
    if (vec_expect(c, 2, 1) != VEC_OK)
        return VEC_MISMATCH;
    sb_reset(&c->got);
    fr_to_limbs(kl, &k);
    g2_mul_var(&r, &ja, kl, FR_LIMBS);
    put_g2(c, &r);
    return vec_expect_again(c, "g2_mul_var");
}

static vec_result check_g2_compress(vec_ctx *c)
{
    g2_affine_t a, back;
    uint8_t z[G2_COMPRESSED_BYTES], want[G2_COMPRESSED_BYTES];
    cuzk_error_t err = {0};
    if (!read_g2(c, &a, c->f[0]))
        return VEC_BAD_INPUT;
    if (!hex_read(want, sizeof want, c->f[1])) {
        vec_reject(c, "G2 compressed", c->f[1]);
        return VEC_BAD_INPUT;
    }
    g2_compress(z, &a);
    sb_hex(&c->got, z, sizeof z);
    if (vec_expect(c, 1, 1) != VEC_OK)
        return VEC_MISMATCH;
    if (g2_decompress(&back, want, POINT_CHECK_SUBGROUP, &err) != CUZK_OK ||
        !g2_affine_equal(&back, &a)) {
        snprintf(c->why, sizeof c->why, "g2_decompress of noble's bytes: %s",
                 err.msg[0] ? err.msg : "another point");
        return VEC_BAD_INPUT;
    }
    return VEC_OK;
}

/* e(P, Q) through pairing_compute and a one-pair pairing_product. */
static vec_result check_pairing(vec_ctx *c)
{
    g1_affine_t p;
    g2_affine_t q;
    fp12_t r;
    if (!read_g1(c, &p, c->f[0]) || !read_g2(c, &q, c->f[1]))
        return VEC_BAD_INPUT;
    pairing_compute(&r, &p, &q);
    put_fp12(c, &r);
    if (vec_expect(c, 2, FP12_COEFFS) != VEC_OK)
        return VEC_MISMATCH;
    sb_reset(&c->got);
    assert_int_equal(pairing_product(&r, &p, &q, 1), CUZK_OK);
    put_fp12(c, &r);
    return vec_expect_again(c, "pairing_product with n = 1");
}

static vec_result check_pairing_product(vec_ctx *c)
{
    g1_affine_t p[2];
    g2_affine_t q[2];
    fp12_t r;
    if (!read_g1(c, &p[0], c->f[0]) || !read_g2(c, &q[0], c->f[1]) || !read_g1(c, &p[1], c->f[2]) ||
        !read_g2(c, &q[1], c->f[3]))
        return VEC_BAD_INPUT;
    assert_int_equal(pairing_product(&r, p, q, 2), CUZK_OK);
    put_fp12(c, &r);
    return vec_expect(c, 4, FP12_COEFFS);
}

/* ---- the op table and the driver ----------------------------------------- */

typedef enum vec_mutation {
    MUTATION_DETECTED = 0, /* changing the last field must make the check fail */
    MUTATION_SKIP = 1      /* the last field is an input; a change may still pass */
} vec_mutation;

typedef struct vec_op {
    const char *name;
    int nfields; /* after the op name */
    vec_result (*check)(vec_ctx *c);
    vec_mutation mutation;
} vec_op;

static const vec_op VEC_OPS[] = {
    {"fp_add", 3, check_fp_add, MUTATION_DETECTED},
    {"fp_sub", 3, check_fp_sub, MUTATION_DETECTED},
    {"fp_mul", 3, check_fp_mul, MUTATION_DETECTED},
    {"fp_inv", 2, check_fp_inv, MUTATION_DETECTED},
    {"fp_sqrt", 3, check_fp_sqrt, MUTATION_DETECTED},
    {"fp_nonsqr", 1, check_fp_nonsqr, MUTATION_SKIP},
    {"fr_add", 3, check_fr_add, MUTATION_DETECTED},
    {"fr_mul", 3, check_fr_mul, MUTATION_DETECTED},
    {"fr_inv", 2, check_fr_inv, MUTATION_DETECTED},
    {"fp2_mul", 6, check_fp2_mul, MUTATION_DETECTED},
    {"fp2_inv", 4, check_fp2_inv, MUTATION_DETECTED},
    {"fp12_mul", 3 * FP12_COEFFS, check_fp12_mul, MUTATION_DETECTED},
    {"fp12_inv", 2 * FP12_COEFFS, check_fp12_inv, MUTATION_DETECTED},
    {"g1_add", 3, check_g1_add, MUTATION_DETECTED},
    {"g1_dbl", 2, check_g1_dbl, MUTATION_DETECTED},
    {"g1_mul", 3, check_g1_mul, MUTATION_DETECTED},
    {"g1_compress", 2, check_g1_compress, MUTATION_DETECTED},
    {"g2_add", 3, check_g2_add, MUTATION_DETECTED},
    {"g2_dbl", 2, check_g2_dbl, MUTATION_DETECTED},
    {"g2_mul", 3, check_g2_mul, MUTATION_DETECTED},
    {"g2_compress", 2, check_g2_compress, MUTATION_DETECTED},
    {"pairing", 2 + FP12_COEFFS, check_pairing, MUTATION_DETECTED},
    {"pairing_product", 4 + FP12_COEFFS, check_pairing_product, MUTATION_DETECTED},
};
#define VEC_NOPS (sizeof VEC_OPS / sizeof VEC_OPS[0])

static const vec_op *vec_op_find(const char *name)
{
    for (size_t i = 0; i < VEC_NOPS; i++)
        if (strcmp(VEC_OPS[i].name, name) == 0)
            return &VEC_OPS[i];
    return NULL;
}

/* Reads the vector file as a NUL-terminated string; fails the test if it is
 * missing or empty. */
static char *vec_load(void)
{
    size_t len = 0;
    uint8_t *raw = tu_read_file(VEC_PATH, &len);
    if (!raw)
        fail_msg("cannot read %s (regenerate with: node tools/gen_vectors.mjs)", VEC_PATH);
    if (len == 0) {
        free(raw);
        fail_msg("%s is empty", VEC_PATH);
    }
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, raw, len);
    text[len] = '\0';
    free(raw);
    return text;
}

/* Splits a line in place into tokens; returns the count, or -1 when there
 * are more than max. */
static int vec_split(char **tok, int max, char *line)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
        if (n == max)
            return -1;
        tok[n++] = t;
    }
    return n;
}

/* Runs one line (tokens already split). Returns VEC_OK, or prints why not. */
static vec_result vec_run_line(vec_ctx *c, const vec_op **op_out, char **tok, int ntok, int lineno,
                               int verbose)
{
    const vec_op *op = vec_op_find(tok[0]);
    *op_out = op;
    if (!op) {
        if (verbose)
            printf("line %d: unknown op \"%.40s\"\n", lineno, tok[0]);
        return VEC_BAD_INPUT;
    }
    if (ntok - 1 != op->nfields) {
        if (verbose)
            printf("line %d: %s: %d fields, expected %d\n", lineno, op->name, ntok - 1,
                   op->nfields);
        return VEC_BAD_INPUT;
    }
    sb_reset(&c->got);
    sb_reset(&c->want);
    c->why[0] = '\0';
    c->f = tok + 1;
    vec_result r = op->check(c);
    if (r == VEC_MISMATCH && verbose)
        printf("line %d: %s DISAGREES with noble%s%s\n  noble: %s\n  cuzk:  %s\n", lineno, op->name,
               c->why[0] ? " " : "", c->why, c->want.s, c->got.s);
    else if (r == VEC_BAD_INPUT && verbose)
        printf("line %d: %s: %s\n", lineno, op->name, c->why);
    return r;
}

/* Calls fn on every vector line (not blank, not a comment), in place. */
typedef void (*vec_line_fn)(void *arg, char **tok, int ntok, int lineno);

static void vec_for_each_line(char *text, vec_line_fn fn, void *arg)
{
    static char *tok[VEC_MAX_TOKENS];
    int lineno = 0;
    /* strtok_r would merge blank lines and shift the numbering: walk by hand. */
    for (char *line = text; line; lineno++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *p = line + strspn(line, " \t\r");
        if (*p != '\0' && *p != '#') {
            int ntok = vec_split(tok, VEC_MAX_TOKENS, p);
            fn(arg, tok, ntok, lineno + 1);
        }
        line = nl ? nl + 1 : NULL;
    }
}

typedef struct vec_tally {
    vec_ctx ctx;
    int count[VEC_NOPS];
    int ok[VEC_NOPS];
    int total;
    int failures;
} vec_tally;

static void vec_tally_line(void *arg, char **tok, int ntok, int lineno)
{
    vec_tally *t = arg;
    const vec_op *op = NULL;
    t->total++;
    if (ntok < 0) {
        printf("line %d: more than %d fields\n", lineno, VEC_MAX_TOKENS);
        t->failures++;
        return;
    }
    vec_result r = vec_run_line(&t->ctx, &op, tok, ntok, lineno, 1);
    if (op) {
        t->count[op - VEC_OPS]++;
        t->ok[op - VEC_OPS] += r == VEC_OK;
    }
    t->failures += r != VEC_OK;
}

static void test_noble_vectors_all(void **state)
{
    (void)state;
    char *text = vec_load();
    vec_tally *t = calloc(1, sizeof *t);
    assert_non_null(t);
    vec_for_each_line(text, vec_tally_line, t);
    free(text);

    printf("noble vectors (%s):\n", VEC_PATH);
    int too_few = 0;
    for (size_t i = 0; i < VEC_NOPS; i++) {
        printf("  %-16s %3d vectors, %3d agree%s\n", VEC_OPS[i].name, t->count[i], t->ok[i],
               t->count[i] < VEC_MIN_PER_OP ? "  (TOO FEW)" : "");
        too_few += t->count[i] < VEC_MIN_PER_OP;
    }
    printf("  fp_sqrt roots: %d equal to noble's, %d its negation\n", sqrt_same_root,
           sqrt_negated_root);
    printf("  total %d vectors, %d failures\n", t->total, t->failures);
    int total = t->total, failures = t->failures;
    free(t);
    assert_true(total > 0);
    assert_int_equal(too_few, 0);
    assert_int_equal(failures, 0);
}

/* Changing one hex digit of a vector's last field (the expected result for
 * all ops but fp_nonsqr) must make its check fail: the checkers compare. */
typedef struct vec_mutate {
    vec_ctx ctx;
    int tried[VEC_NOPS];
    int undetected;
} vec_mutate;

static char hex_digit_change(char ch)
{
    if (ch == '0')
        return '1';
    if (ch == 'a')
        return '9';
    return (char)(ch - 1);
}

static void vec_mutate_line(void *arg, char **tok, int ntok, int lineno)
{
    vec_mutate *m = arg;
    const vec_op *op;
    if (ntok < 2 || !(op = vec_op_find(tok[0])) || m->tried[op - VEC_OPS] ||
        op->mutation == MUTATION_SKIP)
        return;
    m->tried[op - VEC_OPS] = 1;
    char *last = tok[ntok - 1];
    size_t n = strlen(last);
    last[n - 1] = hex_digit_change(last[n - 1]);
    if (vec_run_line(&m->ctx, &op, tok, ntok, lineno, 0) == VEC_OK) {
        printf("line %d: %s accepts a changed result\n", lineno, op->name);
        m->undetected++;
    }
}

static void test_noble_detect_change(void **state)
{
    (void)state;
    char *text = vec_load();
    vec_mutate *m = calloc(1, sizeof *m);
    assert_non_null(m);
    vec_for_each_line(text, vec_mutate_line, m);
    free(text);
    int missing = 0;
    for (size_t i = 0; i < VEC_NOPS; i++)
        missing += VEC_OPS[i].mutation == MUTATION_DETECTED && !m->tried[i];
    int undetected = m->undetected;
    free(m);
    assert_int_equal(missing, 0);
    assert_int_equal(undetected, 0);
}

/* The format's other rules: bad hex, wrong field counts and unknown ops are
 * failures, never skipped lines. */
static void test_noble_reject_malformed(void **state)
{
    (void)state;
    char upper[2 * FP_BYTES + 1], p_hex[2 * FP_BYTES + 1], lines[5][256];
    memset(upper, '0', 2 * FP_BYTES);
    upper[2 * FP_BYTES - 1] = 'A'; /* the format is lowercase */
    upper[2 * FP_BYTES] = '\0';
    uint8_t p_be[FP_BYTES];
    for (int i = 0; i < FP_LIMBS; i++)
        for (int j = 0; j < 8; j++)
            p_be[FP_BYTES - 1 - 8 * i - j] = (uint8_t)(FP_MODULUS[i] >> (8 * j));
    for (int i = 0; i < FP_BYTES; i++)
        snprintf(p_hex + 2 * i, 3, "%02x", p_be[i]);
    snprintf(lines[0], sizeof lines[0], "fp_frobnicate 00");
    snprintf(lines[1], sizeof lines[1], "fp_add 00 00 00");
    snprintf(lines[2], sizeof lines[2], "fp_inv %s %s", upper, upper);
    snprintf(lines[3], sizeof lines[3], "fp_inv %s %s", p_hex, p_hex); /* p is not canonical */
    snprintf(lines[4], sizeof lines[4], "fr_add %.64s", upper + 32);   /* too few fields */
    vec_ctx *c = calloc(1, sizeof *c);
    assert_non_null(c);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char line[256];
        char *tok[VEC_MAX_TOKENS];
        const vec_op *op;
        snprintf(line, sizeof line, "%s", lines[i]);
        int ntok = vec_split(tok, VEC_MAX_TOKENS, line);
        assert_true(ntok > 0);
        assert_int_not_equal(vec_run_line(c, &op, tok, ntok, (int)i + 1, 0), VEC_OK);
    }
    free(c);
}

int main(void)
{
    tu_init("test_noble_vectors");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noble_vectors_all),
        cmocka_unit_test(test_noble_detect_change),
        cmocka_unit_test(test_noble_reject_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
