/* Encodings: round trips, known bytes, and every rejection path with its
 * own status code. Also a mutation sweep: flipped bits either decode to a
 * valid point or fail with a status; nothing else. */
#include <stdio.h>
#include <string.h>

#include "test_util.h"
#include "cuzk/decimal.h"
#include "cuzk/encode.h"

static void hex_to_bytes(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static void rand_points(g1_affine_t *p, g2_affine_t *q)
{
    g1_jac_t pj;
    g2_jac_t qj;
    tu_rand_g1(&pj);
    tu_rand_g2(&qj);
    g1_to_affine(p, &pj);
    g2_to_affine(q, &qj);
}

static void test_roundtrip(void **state)
{
    (void)state;
    int n = tu_iters(50);
    for (int i = 0; i < n; i++) {
        g1_affine_t p, r;
        g2_affine_t q, s;
        rand_points(&p, &q);
        if (i == 0) {
            g1_affine_set_inf(&p);
            g2_affine_set_inf(&q);
        }
        uint8_t b1[G1_UNCOMPRESSED_BYTES], b2[G2_UNCOMPRESSED_BYTES];
        g1_compress(b1, &p);
        assert_int_equal(g1_decompress(&r, b1, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g1_affine_equal(&r, &p));
        g1_serialize(b1, &p);
        assert_int_equal(g1_deserialize(&r, b1, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g1_affine_equal(&r, &p));
        g1_to_lem(b1, &p);
        assert_int_equal(g1_from_lem(&r, b1, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g1_affine_equal(&r, &p));
        g2_compress(b2, &q);
        assert_int_equal(g2_decompress(&s, b2, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g2_affine_equal(&s, &q));
        g2_serialize(b2, &q);
        assert_int_equal(g2_deserialize(&s, b2, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g2_affine_equal(&s, &q));
        g2_to_lem(b2, &q);
        assert_int_equal(g2_from_lem(&s, b2, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g2_affine_equal(&s, &q));

        char d1[3][FP_DEC_MAX], d2[3][2][FP_DEC_MAX];
        g1_to_dec(d1, &p);
        const char *dp1[3] = {d1[0], d1[1], d1[2]};
        assert_int_equal(g1_from_dec(&r, dp1, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g1_affine_equal(&r, &p));
        g2_to_dec(d2, &q);
        const char *dp2[3][2] = {{d2[0][0], d2[0][1]}, {d2[1][0], d2[1][1]}, {d2[2][0], d2[2][1]}};
        assert_int_equal(g2_from_dec(&s, dp2, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g2_affine_equal(&s, &q));
    }
}

static void test_known_generator_bytes(void **state)
{
    (void)state;
    uint8_t want1[48], want2[96], got1[48], got2[96];
    hex_to_bytes(want1,
                 "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeff"
                 "b3af00adb22c6bb",
                 48);
    hex_to_bytes(want2,
                 "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e"
                 "5ac7d055d042b7e"
                 "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd"
                 "48056c8c121bdb8",
                 96);
    g1_compress(got1, &G1_GENERATOR);
    g2_compress(got2, &G2_GENERATOR);
    assert_memory_equal(got1, want1, 48);
    assert_memory_equal(got2, want2, 96);
    /* infinity */
    g1_affine_t o;
    g1_affine_set_inf(&o);
    g1_compress(got1, &o);
    assert_int_equal(got1[0], 0xc0);
    uint8_t u[96];
    g1_serialize(u, &o);
    assert_int_equal(u[0], 0x40);
    /* -P differs from P only in the sign flag */
    g1_affine_t n;
    g1_affine_neg(&n, &G1_GENERATOR);
    g1_compress(got1, &n);
    assert_int_equal(got1[0] ^ want1[0], 0x20);
    assert_memory_equal(got1 + 1, want1 + 1, 47);
}

static void expect(cuzk_status got, cuzk_status want, const cuzk_error_t *err)
{
    assert_int_equal(got, want);
    assert_int_equal(err->code, want);
    assert_true(strlen(err->msg) > 0);
}

static void test_rejects_flags(void **state)
{
    (void)state;
    g1_affine_t r;
    g2_affine_t s;
    cuzk_error_t err;
    uint8_t c1[48], u1[96], c2[96];
    g1_compress(c1, &G1_GENERATOR);
    g1_serialize(u1, &G1_GENERATOR);
    g2_compress(c2, &G2_GENERATOR);

    uint8_t b[96];
    memcpy(b, c1, 48);
    b[0] &= 0x7f; /* compressed without 0x80 */
    expect(g1_decompress(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
    memcpy(b, u1, 96);
    b[0] |= 0x80; /* uncompressed with 0x80 */
    expect(g1_deserialize(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
    memcpy(b, u1, 96);
    b[0] |= 0x20; /* uncompressed with sign */
    expect(g1_deserialize(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
    memset(b, 0, 96);
    b[0] = 0xc0;
    b[47] = 1; /* infinity with payload */
    expect(g1_decompress(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
    b[47] = 0;
    b[0] = 0xe0; /* infinity with sign */
    expect(g1_decompress(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
    memcpy(b, c2, 96);
    b[0] &= 0x7f;
    expect(g2_decompress(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
    memset(b, 0, 96);
    b[0] = 0xc0;
    b[95] = 1;
    expect(g2_decompress(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_FLAGS, &err);
}

static void test_rejects_noncanonical(void **state)
{
    (void)state;
    g1_affine_t r;
    g2_affine_t s;
    cuzk_error_t err;
    uint8_t b[192];
    /* x = p */
    uint64_t pl[FP_LIMBS];
    memcpy(pl, FP_MODULUS, sizeof pl);
    for (int i = 0; i < FP_LIMBS; i++)
        for (int j = 0; j < 8; j++)
            b[(FP_LIMBS - 1 - i) * 8 + j] = (uint8_t)(pl[i] >> (56 - 8 * j));
    b[0] |= 0x80;
    expect(g1_decompress(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NONCANONICAL, &err);
    b[0] &= 0x7f;
    memset(b + 48, 0, 48);
    expect(g1_deserialize(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NONCANONICAL, &err);
    /* x.c0 = p in a G2 compressed encoding (bytes 48..95) */
    g2_compress(b, &G2_GENERATOR);
    for (int i = 0; i < FP_LIMBS; i++)
        for (int j = 0; j < 8; j++)
            b[48 + (FP_LIMBS - 1 - i) * 8 + j] = (uint8_t)(pl[i] >> (56 - 8 * j));
    expect(g2_decompress(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NONCANONICAL, &err);
    /* LEM coordinate = all ones */
    memset(b, 0xff, 96);
    expect(g1_from_lem(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NONCANONICAL, &err);
    memset(b, 0xff, 192);
    expect(g2_from_lem(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NONCANONICAL, &err);
}

static void test_rejects_off_curve(void **state)
{
    (void)state;
    g1_affine_t r, p;
    g2_affine_t s, q;
    cuzk_error_t err;
    uint8_t b[192];
    rand_points(&p, &q);
    if (g1_affine_is_inf(&p))
        p = G1_GENERATOR;
    if (g2_affine_is_inf(&q))
        q = G2_GENERATOR;
    /* y + 1 */
    fp_add(&p.y, &p.y, &FP_ONE);
    g1_serialize(b, &p);
    expect(g1_deserialize(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    g1_to_lem(b, &p);
    expect(g1_from_lem(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    fp_add(&q.y.c1, &q.y.c1, &FP_ONE);
    g2_serialize(b, &q);
    expect(g2_deserialize(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    g2_to_lem(b, &q);
    expect(g2_from_lem(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    /* an x with no y: x^3 + 4 a non-square */
    fp_t x, rhs, four;
    fp_from_u64(&four, 4);
    uint64_t k = 1;
    for (;; k++) {
        fp_from_u64(&x, k);
        fp_sqr(&rhs, &x);
        fp_mul(&rhs, &rhs, &x);
        fp_add(&rhs, &rhs, &four);
        if (!fp_is_square(&rhs))
            break;
    }
    fp_to_be(b, &x);
    b[0] |= 0x80;
    expect(g1_decompress(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    /* (0, 0) without the infinity flag is not a point */
    memset(b, 0, 192);
    expect(g1_deserialize(&r, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    expect(g2_deserialize(&s, b, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
}

static void test_rejects_off_subgroup(void **state)
{
    (void)state;
    g1_affine_t p, r;
    g2_affine_t q, s;
    cuzk_error_t err;
    uint8_t b[192];
    tu_rand_g1_off_subgroup(&p);
    tu_rand_g2_off_subgroup(&q);
    g1_compress(b, &p);
    assert_int_equal(g1_decompress(&r, b, POINT_CHECK_CURVE, NULL), CUZK_OK);
    assert_true(g1_affine_equal(&r, &p));
    expect(g1_decompress(&r, b, POINT_CHECK_SUBGROUP, &err), CUZK_ERR_NOT_IN_SUBGROUP, &err);
    g1_to_lem(b, &p);
    expect(g1_from_lem(&r, b, POINT_CHECK_SUBGROUP, &err), CUZK_ERR_NOT_IN_SUBGROUP, &err);
    g2_compress(b, &q);
    assert_int_equal(g2_decompress(&s, b, POINT_CHECK_CURVE, NULL), CUZK_OK);
    assert_true(g2_affine_equal(&s, &q));
    expect(g2_decompress(&s, b, POINT_CHECK_SUBGROUP, &err), CUZK_ERR_NOT_IN_SUBGROUP, &err);
    g2_serialize(b, &q);
    expect(g2_deserialize(&s, b, POINT_CHECK_SUBGROUP, &err), CUZK_ERR_NOT_IN_SUBGROUP, &err);
}

/* Flip random bits of valid encodings: each decode either fails with a
 * status or yields a point that re-encodes to the same bytes. */
static void test_mutations(void **state)
{
    (void)state;
    int n = tu_iters(300);
    for (int i = 0; i < n; i++) {
        g1_affine_t p, r;
        g2_affine_t q, s;
        rand_points(&p, &q);
        uint8_t b[192], back[192];
        int which = (int)(tu_rand64() % 4);
        size_t len = which == 0 ? 48 : which == 1 ? 96 : which == 2 ? 96 : 192;
        if (which == 0)
            g1_compress(b, &p);
        else if (which == 1)
            g1_serialize(b, &p);
        else if (which == 2)
            g2_compress(b, &q);
        else
            g2_serialize(b, &q);
        size_t pos = (size_t)(tu_rand64() % len);
        b[pos] ^= (uint8_t)(1u << (tu_rand64() % 8));
        cuzk_status st;
        if (which == 0) {
            st = g1_decompress(&r, b, POINT_CHECK_SUBGROUP, NULL);
            if (st == CUZK_OK)
                g1_compress(back, &r);
        } else if (which == 1) {
            st = g1_deserialize(&r, b, POINT_CHECK_SUBGROUP, NULL);
            if (st == CUZK_OK)
                g1_serialize(back, &r);
        } else if (which == 2) {
            st = g2_decompress(&s, b, POINT_CHECK_SUBGROUP, NULL);
            if (st == CUZK_OK)
                g2_compress(back, &s);
        } else {
            st = g2_deserialize(&s, b, POINT_CHECK_SUBGROUP, NULL);
            if (st == CUZK_OK)
                g2_serialize(back, &s);
        }
        if (st == CUZK_OK)
            assert_memory_equal(back, b, len);
        else
            assert_true(st >= CUZK_ERR_LENGTH && st <= CUZK_ERR_NOT_IN_SUBGROUP);
    }
}

static void test_decimal(void **state)
{
    (void)state;
    char buf[FP_DEC_MAX];
    fp_t a, b;
    fr_t x, y;
    cuzk_error_t err;
    /* p - 1 and r - 1 */
    fp_neg(&a, &FP_ONE);
    fp_to_dec(buf, &a);
    assert_string_equal(buf, "400240955522166739341778982573590415655688281993900788533205813612403"
                             "1650490837864442687629129015664037894272559786");
    fr_neg(&x, &FR_ONE);
    fr_to_dec(buf, &x);
    assert_string_equal(
        buf, "52435875175126190479447740508185965837690552500527637822603658699938581184512");
    fp_to_dec(buf, &FP_ZERO_ELEM);
    assert_string_equal(buf, "0");
    /* p and r themselves are rejected */
    const char *p_dec = "40024095552216673934177898257359041565568828199390078853320581361240316504"
                        "90837864442687629129015664037894272559787";
    expect(fp_from_dec(&b, p_dec, strlen(p_dec), &err), CUZK_ERR_NONCANONICAL, &err);
    const char *r_dec =
        "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    expect(fr_from_dec(&y, r_dec, strlen(r_dec), &err), CUZK_ERR_NONCANONICAL, &err);
    /* syntax */
    expect(fp_from_dec(&b, "", 0, &err), CUZK_ERR_PARSE, &err);
    expect(fp_from_dec(&b, "-1", 2, &err), CUZK_ERR_PARSE, &err);
    expect(fp_from_dec(&b, " 1", 2, &err), CUZK_ERR_PARSE, &err);
    expect(fp_from_dec(&b, "12a", 3, &err), CUZK_ERR_PARSE, &err);
    char big[260];
    memset(big, '9', 250);
    big[250] = 0;
    expect(fp_from_dec(&b, big, 250, &err), CUZK_ERR_NONCANONICAL, &err);
    assert_int_equal(fp_from_dec(&b, "000042", 6, NULL), CUZK_OK);
    fp_from_u64(&a, 42);
    assert_true(fp_equal(&a, &b));
    /* random round trips */
    int n = tu_iters(200);
    for (int i = 0; i < n; i++) {
        tu_rand_fp(&a);
        size_t len = fp_to_dec(buf, &a);
        assert_int_equal(len, strlen(buf));
        assert_int_equal(fp_from_dec(&b, buf, len, NULL), CUZK_OK);
        assert_true(fp_equal(&a, &b));
        tu_rand_fr(&x);
        len = fr_to_dec(buf, &x);
        assert_int_equal(fr_from_dec(&y, buf, len, NULL), CUZK_OK);
        assert_true(fr_equal(&x, &y));
    }
}

static void test_decimal_points(void **state)
{
    (void)state;
    g1_affine_t r;
    g2_affine_t s;
    cuzk_error_t err;
    const char *inf1[3] = {"0", "1", "0"};
    assert_int_equal(g1_from_dec(&r, inf1, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
    assert_true(g1_affine_is_inf(&r));
    const char *inf2[3][2] = {{"0", "0"}, {"1", "0"}, {"0", "0"}};
    assert_int_equal(g2_from_dec(&s, inf2, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
    assert_true(g2_affine_is_inf(&s));
    const char *zero1[3] = {"0", "0", "1"};
    expect(g1_from_dec(&r, zero1, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
    const char *badinf[3] = {"5", "1", "0"};
    expect(g1_from_dec(&r, badinf, POINT_CHECK_CURVE, &err), CUZK_ERR_FORMAT, &err);
    char d[3][FP_DEC_MAX];
    g1_to_dec(d, &G1_GENERATOR);
    const char *z2[3] = {d[0], d[1], "2"};
    expect(g1_from_dec(&r, z2, POINT_CHECK_CURVE, &err), CUZK_ERR_FORMAT, &err);
    const char *offc[3] = {d[0], "5", "1"};
    expect(g1_from_dec(&r, offc, POINT_CHECK_CURVE, &err), CUZK_ERR_NOT_ON_CURVE, &err);
}

int main(void)
{
    tu_init("test_encode");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),         cmocka_unit_test(test_known_generator_bytes),
        cmocka_unit_test(test_rejects_flags),     cmocka_unit_test(test_rejects_noncanonical),
        cmocka_unit_test(test_rejects_off_curve), cmocka_unit_test(test_rejects_off_subgroup),
        cmocka_unit_test(test_mutations),         cmocka_unit_test(test_decimal),
        cmocka_unit_test(test_decimal_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
