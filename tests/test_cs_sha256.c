/* The SHA-256 gadget (cs_sha256.h): bellperson's published constraint
 * counts (../shared/testdata/filecoin/circuits/reference.json) and the
 * digest against OpenSSL on random messages with the check back end on.
 * The Filecoin SHA node and create_label counts built on it are tested
 * with their gadgets in test_filecoin_sha.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "cuzk/circuit.h"
#include "cuzk/circuit_record.h"
#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_multipack.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_sha256.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "cs_fixture.h"
#include "test_util.h"

/* Message bytes as SHA-256 bits (most significant first), each allocated. */
static void alloc_msg_bits(cs_bool_t *out, cs_t *cs, const uint8_t *msg, size_t len)
{
    for (size_t i = 0; i < 8 * len; i++)
        out[i] = cs_bit_alloc(cs, (msg[i / 8] >> (7 - i % 8)) & 1);
}

static void assert_digest(const cs_bool_t bits[256], const uint8_t want[32])
{
    for (int i = 0; i < 256; i++)
        if (bits[i].value != ((want[i / 8] >> (7 - i % 8)) & 1))
            fail_msg("digest bit %d differs", i);
}

/* bellperson's test_blank_hash: the block 0x80 0x00..., all constant, costs
 * nothing and is the compression of the empty message. */
static void test_constant_block(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_COUNT);
    cs_bool_t block[512], out[256];
    for (int i = 0; i < 512; i++)
        block[i] = cs_bool_const(i == 0);
    cs_sha256_block_no_padding(out, cs, block);
    assert_int_equal(csf_counts(cs).constraints, 0);
    assert_int_equal(csf_counts(cs).aux, 0);
    uint8_t want[32];
    SHA256((const uint8_t *)"", 0, want);
    for (int i = 0; i < 256; i++)
        assert_int_equal(out[i].kind, CS_BOOL_CONST);
    assert_digest(out, want);
    csf_assert_ok(cs);
    cs_free(cs);
}

/* bellperson's test_full_block and test_full_hash: 512 allocated bits,
 * then one compression (25,840) or SHA-256 with its padding block
 * (44,874); the aux count of the compression is NOTES.md's 25,814. */
static void test_full_block_counts(void **state)
{
    (void)state;
    for (int padded = 0; padded < 2; padded++) {
        cs_t *cs = csf_new(CS_WITNESS);
        uint8_t msg[64];
        for (int i = 0; i < 64; i++)
            msg[i] = (uint8_t)tu_rand64();
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        if (padded)
            cs_sha256(out, cs, bits, 512);
        else
            cs_sha256_block_no_padding(out, cs, bits);
        cs_counts_t k = csf_counts(cs);
        if (padded) {
            assert_int_equal(k.constraints - 512, 44874);
            uint8_t want[32];
            SHA256(msg, 64, want);
            assert_digest(out, want);
        } else {
            assert_int_equal(k.constraints - 512, 25840);
            assert_int_equal(k.aux - 512, 25814);
        }
        csf_assert_ok(cs);
        cs_free(cs);
    }
}

/* Random messages (random lengths, a mix of allocated, negated and
 * constant bits): the digest equals OpenSSL's and every constraint holds. */
static void test_sha256_random(void **state)
{
    (void)state;
    int iters = tu_iters(12);
    for (int it = 0; it < iters; it++) {
        size_t len = (size_t)(tu_rand64() % 140);
        if (it < 3)
            len = (size_t[]){0, 55, 56}[it]; /* padding edges */
        uint8_t *msg = malloc(len + 1);
        cs_bool_t *bits = malloc((8 * len + 1) * sizeof *bits);
        for (size_t i = 0; i < len; i++)
            msg[i] = (uint8_t)tu_rand64();
        cs_t *cs = csf_new(CS_CHECK);
        int style = (int)(tu_rand64() % 3);
        for (size_t i = 0; i < 8 * len; i++) {
            int v = (msg[i / 8] >> (7 - i % 8)) & 1;
            int kind = style == 0 ? CS_BOOL_IS : (int)(tu_rand64() % 3);
            if (kind == CS_BOOL_CONST) {
                bits[i] = cs_bool_const(v);
            } else {
                cs_bool_t b = cs_bit_alloc(cs, kind == CS_BOOL_NOT ? !v : v);
                bits[i] = kind == CS_BOOL_NOT ? cs_bool_not(&b) : b;
            }
        }
        cs_bool_t out[256];
        cs_sha256(out, cs, bits, 8 * len);
        uint8_t want[32];
        SHA256(msg, len, want);
        assert_digest(out, want);
        csf_assert_ok(cs);
        cs_free(cs);
        free(msg);
        free(bits);
    }
}

/* The four back ends agree on every size and density; the record back end
 * holds one row per constraint. */
static void test_sha256_modes(void **state)
{
    (void)state;
    static const cs_mode modes[] = {CS_COUNT, CS_WITNESS, CS_CHECK, CS_RECORD};
    uint8_t msg[64];
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)tu_rand64();
    cs_counts_t k[4];
    for (int m = 0; m < 4; m++) {
        cs_t *cs = csf_new(modes[m]);
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        cs_sha256(out, cs, bits, 512);
        cs_pack_into_inputs(cs, out, 256);
        csf_assert_ok(cs);
        k[m] = csf_counts(cs);
        if (modes[m] == CS_RECORD) {
            cs_record_matrix_t mat[3];
            const fr_t *dict;
            uint32_t n_dict;
            assert_int_equal(cs_record_matrices(mat, &dict, &n_dict, cs, NULL), CUZK_OK);
            for (int j = 0; j < 3; j++)
                assert_int_equal(mat[j].row_ptr[k[m].constraints], mat[j].nnz);
            /* coefficients are +-2^i and a few sums: a small dictionary */
            assert_true(n_dict < 2000);
        }
        cs_free(cs);
    }
    for (int m = 1; m < 4; m++)
        assert_memory_equal(&k[m], &k[0], sizeof k[0]);
    assert_int_equal(k[0].constraints, 512 + 44874 + 2);
    assert_int_equal(k[0].inputs, 3);
    printf("sha256 512-bit message: %llu constraints, %llu aux, A-aux %llu, B-input %llu, "
           "B-aux %llu\n",
           (unsigned long long)k[0].constraints, (unsigned long long)k[0].aux,
           (unsigned long long)k[0].a_aux_density, (unsigned long long)k[0].b_input_density,
           (unsigned long long)k[0].b_aux_density);
}

/* A small SHA-256 circuit with public inputs, for the record test. */
static void record_circuit_body(cs_t *cs, const uint8_t *msg, size_t len)
{
    cs_bool_t bits[8 * 40], out[256];
    alloc_msg_bits(bits, cs, msg, len);
    cs_sha256(out, cs, bits, 8 * len);
    cs_pack_into_inputs(cs, out, 256);
}

/* The recorded matrices hold exactly the witness the witness back end
 * makes, and a corrupted witness fails at the row the check back end
 * names. */
static void test_record_circuit(void **state)
{
    (void)state;
    uint8_t msg[40];
    for (int i = 0; i < 40; i++)
        msg[i] = (uint8_t)tu_rand64();
    cs_t *rec = csf_new(CS_RECORD), *wit = csf_new(CS_WITNESS);
    record_circuit_body(rec, msg, 40);
    record_circuit_body(wit, msg, 40);
    csf_assert_ok(rec);
    csf_assert_ok(wit);
    circuit_t c;
    assert_int_equal(circuit_from_record(&c, rec, NULL), CUZK_OK);
    size_t n_in, n_aux;
    const fr_t *in = cs_input_values(wit, &n_in), *aux = cs_aux_values(wit, &n_aux);
    fr_t *w = malloc((n_in + n_aux) * sizeof *w);
    memcpy(w, in, n_in * sizeof *w);
    memcpy(w + n_in, aux, n_aux * sizeof *w);
    uint32_t bad;
    assert_int_equal(circuit_check(&bad, &c, w, 1), CUZK_OK);
    assert_int_equal(bad, UINT32_MAX);
    /* flip an aux bit somewhere in the middle */
    uint64_t j = tu_rand64() % n_aux;
    fr_t flipped;
    if (fr_is_zero(&aux[j]))
        flipped = FR_ONE;
    else
        fr_add(&flipped, &aux[j], &FR_ONE);
    w[n_in + j] = flipped;
    assert_int_equal(circuit_check(&bad, &c, w, 1), CUZK_OK);
    cs_t *chk = csf_new(CS_CHECK);
    cs_set_fault(chk, j, &flipped);
    record_circuit_body(chk, msg, 40);
    uint64_t row;
    assert_int_equal(cs_unsatisfied(&row, NULL, 0, chk), 1);
    assert_int_equal(bad, row);
    cs_free(chk);
    free(w);
    circuit_free(&c);
    cs_free(rec);
    cs_free(wit);
}

static void blake_update(void *ctx, const uint8_t *data, size_t n)
{
    EVP_DigestUpdate(ctx, data, n);
}

/* The TestConstraintSystem::hash() fingerprint (Blake2s-256 over the
 * stream cs_hash_begin feeds) of a 512-bit SHA-256 message: the same in
 * every back end. No published value exists for this circuit; the line
 * printed lets a Rust run compare. */
static void test_sha256_fingerprint(void **state)
{
    (void)state;
    uint8_t msg[64] = {0};
    cs_counts_t k;
    {
        cs_t *cs = csf_new(CS_COUNT);
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        cs_sha256(out, cs, bits, 512);
        k = csf_counts(cs);
        cs_free(cs);
    }
    char hex[2][65];
    static const cs_mode modes[] = {CS_COUNT, CS_RECORD};
    for (int m = 0; m < 2; m++) {
        cs_t *cs = csf_new(modes[m]);
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        assert_non_null(ctx);
        assert_int_equal(EVP_DigestInit_ex(ctx, EVP_blake2s256(), NULL), 1);
        assert_int_equal(cs_hash_begin(cs, &k, blake_update, ctx, NULL), CUZK_OK);
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        cs_sha256(out, cs, bits, 512);
        assert_int_equal(cs_hash_end(cs, NULL), CUZK_OK);
        uint8_t d[32];
        unsigned dn = 0;
        assert_int_equal(EVP_DigestFinal_ex(ctx, d, &dn), 1);
        assert_int_equal(dn, 32);
        for (int i = 0; i < 32; i++)
            snprintf(&hex[m][2 * i], 3, "%02x", d[i]);
        EVP_MD_CTX_free(ctx);
        cs_free(cs);
    }
    assert_string_equal(hex[0], hex[1]);
    printf("512 allocated bits + sha256: cs hash %s\n", hex[0]);
}

/* Counting speed (not a gate): the 32 GiB PoRep partition is about 5,000
 * such compressions. */
static void test_count_speed(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_COUNT);
    cs_bool_t bits[512], out[256];
    for (int i = 0; i < 512; i++)
        bits[i] = cs_bit_alloc(cs, 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = 200;
    for (int i = 0; i < n; i++)
        cs_sha256_block_no_padding(out, cs, bits);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("count mode: %.1f us per compression (%.0f ns per constraint)\n", 1e6 * s / n,
           1e9 * s / ((double)n * 25840));
    assert_int_equal(csf_counts(cs).constraints, 512 + (uint64_t)n * 25840);
    csf_assert_ok(cs);
    cs_free(cs);
}

int main(void)
{
    tu_init("test_cs_sha256");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_block), cmocka_unit_test(test_full_block_counts),
        cmocka_unit_test(test_sha256_random),  cmocka_unit_test(test_sha256_modes),
        cmocka_unit_test(test_record_circuit), cmocka_unit_test(test_sha256_fingerprint),
        cmocka_unit_test(test_count_speed),
    };
    return cmocka_run_group_tests_name("cs_sha256", tests, NULL, NULL);
}
