/* libFuzzer harness for every point and field-element decoder.
 *
 * Input: byte 0 picks the decoder (low nibble) and the check level (0x10:
 * subgroup); the rest is the encoding. A decoder must either fail with a
 * status and a message, or return a point that encodes back to the same
 * bytes. Anything else traps. Seeds: tools/gen_fuzz_corpus.py. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/decimal.h"
#include "cuzk/encode.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static void check_failure(cuzk_status st, const cuzk_error_t *err)
{
    CHECK(st != CUZK_OK);
    CHECK(err->code == st);
    CHECK(err->msg[0] != '\0');
}

static void fuzz_fixed(int mode, point_check chk, const uint8_t *in)
{
    cuzk_error_t err = {CUZK_OK, ""};
    uint8_t back[G2_LEM_BYTES];
    g1_affine_t p;
    g2_affine_t q;
    cuzk_status st;
    size_t n;
    switch (mode) {
        // clang-format off
    case 0: st = g1_decompress(&p, in, chk, &err); n = G1_COMPRESSED_BYTES; if (!st) g1_compress(back, &p); break;
    case 1: st = g1_deserialize(&p, in, chk, &err); n = G1_UNCOMPRESSED_BYTES; if (!st) g1_serialize(back, &p); break;
    case 2: st = g2_decompress(&q, in, chk, &err); n = G2_COMPRESSED_BYTES; if (!st) g2_compress(back, &q); break;
    case 3: st = g2_deserialize(&q, in, chk, &err); n = G2_UNCOMPRESSED_BYTES; if (!st) g2_serialize(back, &q); break;
    case 4: st = g1_from_lem(&p, in, chk, &err); n = G1_LEM_BYTES; if (!st) g1_to_lem(back, &p); break;
    default: st = g2_from_lem(&q, in, chk, &err); n = G2_LEM_BYTES; if (!st) g2_to_lem(back, &q); break;
        // clang-format on
    }
    if (st != CUZK_OK) {
        check_failure(st, &err);
        return;
    }
    CHECK(memcmp(back, in, n) == 0);
    if (mode == 0 || mode == 1 || mode == 4)
        CHECK(g1_affine_is_on_curve(&p));
    else
        CHECK(g2_affine_is_on_curve(&q));
    if (chk == POINT_CHECK_SUBGROUP) {
        if (mode == 0 || mode == 1 || mode == 4)
            CHECK(g1_affine_in_subgroup_slow(&p));
        else
            CHECK(g2_affine_in_subgroup_slow(&q));
    }
}

static void fuzz_field_dec(int is_fp, const char *s, size_t len)
{
    cuzk_error_t err = {CUZK_OK, ""};
    char buf[FP_DEC_MAX];
    if (is_fp) {
        fp_t a, b;
        cuzk_status st = fp_from_dec(&a, s, len, &err);
        if (st != CUZK_OK) {
            check_failure(st, &err);
            return;
        }
        size_t n = fp_to_dec(buf, &a);
        CHECK(fp_from_dec(&b, buf, n, NULL) == CUZK_OK && fp_equal(&a, &b));
    } else {
        fr_t a, b;
        cuzk_status st = fr_from_dec(&a, s, len, &err);
        if (st != CUZK_OK) {
            check_failure(st, &err);
            return;
        }
        size_t n = fr_to_dec(buf, &a);
        CHECK(fr_from_dec(&b, buf, n, NULL) == CUZK_OK && fr_equal(&a, &b));
    }
}

/* Splits s at ',' into up to k NUL-terminated strings inside copy. */
static int split(char *copy, const char *s, size_t len, const char **parts, int k)
{
    memcpy(copy, s, len);
    copy[len] = '\0';
    int n = 0;
    parts[n++] = copy;
    for (size_t i = 0; i < len && n < k; i++) {
        if (copy[i] == ',') {
            copy[i] = '\0';
            parts[n++] = copy + i + 1;
        }
    }
    return n == k;
}

static void fuzz_point_dec(int g2, point_check chk, const char *s, size_t len)
{
    cuzk_error_t err = {CUZK_OK, ""};
    char *copy = malloc(len + 1);
    const char *parts[6];
    if (!copy)
        return;
    if (!g2 && split(copy, s, len, parts, 3)) {
        g1_affine_t p;
        cuzk_status st = g1_from_dec(&p, parts, chk, &err);
        if (st != CUZK_OK)
            check_failure(st, &err);
        else
            CHECK(g1_affine_is_on_curve(&p));
    } else if (g2 && split(copy, s, len, parts, 6)) {
        const char *pp[3][2] = {{parts[0], parts[1]}, {parts[2], parts[3]}, {parts[4], parts[5]}};
        g2_affine_t q;
        cuzk_status st = g2_from_dec(&q, pp, chk, &err);
        if (st != CUZK_OK)
            check_failure(st, &err);
        else
            CHECK(g2_affine_is_on_curve(&q));
    }
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t fixed_len[6] = {G1_COMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES,
                                        G2_COMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES,
                                        G1_LEM_BYTES,        G2_LEM_BYTES};
    if (size < 1)
        return 0;
    int mode = data[0] & 0x0f;
    point_check chk = (data[0] & 0x10) ? POINT_CHECK_SUBGROUP : POINT_CHECK_CURVE;
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    if (mode < 6) {
        if (n < fixed_len[mode])
            return 0;
        fuzz_fixed(mode, chk, in);
    } else if (mode == 6 || mode == 7) {
        fuzz_field_dec(mode == 6, (const char *)in, n);
    } else if (mode == 8 || mode == 9) {
        if (n <= 4096)
            fuzz_point_dec(mode == 9, chk, (const char *)in, n);
    }
    return 0;
}
