/* The SHA-256 gadget (cs_sha256.h): bellperson's published constraint
 * counts (../shared/testdata/filecoin/circuits/reference.json), the
 * Filecoin SHA node of rust-fil-proofs' util.rs test, and the digest
 * against OpenSSL on random messages with the check back end on. */
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
#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_multipack.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_sha256.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "test_util.h"

static cs_t *new_cs(cs_mode mode)
{
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, mode, NULL), CUZK_OK);
    return cs;
}

static void assert_ok(const cs_t *cs)
{
    cuzk_error_t err;
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("cs: %s", err.msg);
}

static cs_counts_t counts(const cs_t *cs)
{
    cs_counts_t c;
    cs_counts(&c, cs);
    return c;
}

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
    cs_t *cs = new_cs(CS_COUNT);
    cs_bool_t block[512], out[256];
    for (int i = 0; i < 512; i++)
        block[i] = cs_bool_const(i == 0);
    cs_sha256_block_no_padding(out, cs, block);
    assert_int_equal(counts(cs).constraints, 0);
    assert_int_equal(counts(cs).aux, 0);
    uint8_t want[32];
    SHA256((const uint8_t *)"", 0, want);
    for (int i = 0; i < 256; i++)
        assert_int_equal(out[i].kind, CS_BOOL_CONST);
    assert_digest(out, want);
    assert_ok(cs);
    cs_free(cs);
}

/* bellperson's test_full_block and test_full_hash: 512 allocated bits,
 * then one compression (25,840) or SHA-256 with its padding block
 * (44,874); the aux count of the compression is NOTES.md's 25,814. */
static void test_full_block_counts(void **state)
{
    (void)state;
    for (int padded = 0; padded < 2; padded++) {
        cs_t *cs = new_cs(CS_WITNESS);
        uint8_t msg[64];
        for (int i = 0; i < 64; i++)
            msg[i] = (uint8_t)tu_rand64();
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        if (padded)
            cs_sha256(out, cs, bits, 512);
        else
            cs_sha256_block_no_padding(out, cs, bits);
        cs_counts_t k = counts(cs);
        if (padded) {
            assert_int_equal(k.constraints - 512, 44874);
            uint8_t want[32];
            SHA256(msg, 64, want);
            assert_digest(out, want);
        } else {
            assert_int_equal(k.constraints - 512, 25840);
            assert_int_equal(k.aux - 512, 25814);
        }
        assert_ok(cs);
        cs_free(cs);
    }
}

/* The Filecoin SHA node (filecoin-hashers sha256.rs hash_leaf_bits_circuit,
 * hash_circuit): pad each side to whole bytes with constant false, reverse
 * the bits inside each byte (reverse_bit_numbering), SHA-256, reverse bits
 * inside each digest byte, pack the first 254 (Fr::CAPACITY). */
static cs_num_t fil_sha_node(cs_t *cs, const cs_bool_t *left, size_t nl, const cs_bool_t *right,
                             size_t nr)
{
    cs_bool_t *pre = malloc((nl + nr + 16) * sizeof *pre);
    assert_non_null(pre);
    size_t bl = cs_bits_reverse_in_bytes(pre, left, nl);
    size_t br = cs_bits_reverse_in_bytes(pre + bl, right, nr);
    cs_bool_t digest[256], le[256];
    cs_ns_push(cs, "hash", -1);
    cs_sha256(digest, cs, pre, bl + br);
    cs_ns_pop(cs);
    cs_bits_reverse_in_bytes(le, digest, 256);
    free(pre);
    return cs_pack_bits(cs, le, 254);
}

/* Sha256Function::node: SHA-256 of the two 32-byte sides, top two bits of
 * the last byte cleared (trim_to_fr32), read little-endian. */
static void native_node(fr_t *out, const uint8_t left[32], const uint8_t right[32])
{
    uint8_t buf[64], d[32];
    memcpy(buf, left, 32);
    memcpy(buf + 32, right, 32);
    SHA256(buf, 64, d);
    d[31] &= 0x3f;
    assert_int_equal(fr_from_le(out, d), CUZK_OK);
}

/* storage-proofs-core util.rs hash_leaf_bits_circuit: 2 x 256 allocated
 * bits (bytes_into_boolean_vec, LSB first in each byte): 45,387. */
static void test_filecoin_node_bits(void **state)
{
    (void)state;
    cs_t *cs = new_cs(CS_CHECK);
    fr_t lf, rf;
    tu_rand_fr(&lf);
    tu_rand_fr(&rf);
    uint8_t l[32], r[32];
    fr_to_le(l, &lf);
    fr_to_le(r, &rf);
    cs_bool_t lb[256], rb[256];
    cs_bits_alloc_bytes_le(lb, cs, l, 32);
    cs_bits_alloc_bytes_le(rb, cs, r, 32);
    cs_num_t out = fil_sha_node(cs, lb, 256, rb, 256);
    assert_int_equal(counts(cs).constraints, 45387);
    fr_t want;
    native_node(&want, l, r);
    assert_true(fr_equal(&out.value, &want));
    assert_ok(cs);
    cs_free(cs);
}

/* hash2_circuit: to_bits_le of two AllocatedNums (255 bits each, padded
 * with a constant to 256) then the node: NOTES.md's model gives 45,379
 * constraints and 45,331 aux (with the two nums). */
static void test_filecoin_node_nums(void **state)
{
    (void)state;
    cs_t *cs = new_cs(CS_CHECK);
    fr_t lf, rf;
    tu_rand_fr(&lf);
    tu_rand_fr(&rf);
    cs_num_t a = cs_num_alloc(cs, &lf), b = cs_num_alloc(cs, &rf);
    cs_bool_t ab[255], bb[255];
    cs_num_to_bits_le(ab, cs, &a);
    cs_num_to_bits_le(bb, cs, &b);
    cs_num_t out = fil_sha_node(cs, ab, 255, bb, 255);
    cs_counts_t k = counts(cs);
    assert_int_equal(k.constraints, 45379);
    assert_int_equal(k.aux - 2, 45331);
    uint8_t l[32], r[32];
    fr_to_le(l, &lf);
    fr_to_le(r, &rf);
    fr_t want;
    native_node(&want, l, r);
    assert_true(fr_equal(&out.value, &want));
    assert_ok(cs);
    cs_free(cs);
}

/* rust-fil-proofs' create_label.rs test circuit: replica id and 37 parents
 * as allocated bits (bytes_into_boolean_vec_be), layer 3 and node 22 as
 * constants, SHA-256 over the 1,248-byte message, bits reversed in bytes,
 * 254 packed: 532,025 constraints (reference.json). The value is the
 * label: SHA-256 of the same bytes, trimmed to 254 bits. */
static void test_create_label_circuit(void **state)
{
    (void)state;
    enum { PARENTS = 37, BITS = (2 + PARENTS) * 256 };
    uint8_t bytes[BITS / 8];
    memset(bytes, 0, sizeof bytes);
    for (size_t i = 0; i < 32; i++)
        bytes[i] = (uint8_t)tu_rand64();
    bytes[31] &= 0x3f; /* an Fr */
    uint32_t layer = 3;
    uint64_t node = 22;
    for (int i = 0; i < 4; i++)
        bytes[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        bytes[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (size_t i = 64; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)tu_rand64();
    cs_t *cs = new_cs(CS_CHECK);
    cs_bool_t *msg = malloc(BITS * sizeof *msg);
    alloc_msg_bits(msg, cs, bytes, 32);
    cs_u32_t l;
    cs_u64_t nd;
    cs_u32_const(&l, layer);
    cs_u64_const(&nd, node);
    cs_u32_into_bits_be(msg + 256, &l);
    cs_u64_to_bits_be(msg + 288, &nd);
    for (size_t i = 352; i < 512; i++)
        msg[i] = cs_bool_const(0);
    alloc_msg_bits(msg + 512, cs, bytes + 64, PARENTS * 32);
    assert_int_equal(counts(cs).constraints, 256 + PARENTS * 256);
    cs_bool_t digest[256], le[256];
    cs_sha256(digest, cs, msg, BITS);
    cs_bits_reverse_in_bytes(le, digest, 256);
    cs_num_t label = cs_pack_bits(cs, le, 254);
    assert_int_equal(counts(cs).constraints, 532025);
    uint8_t d[32];
    SHA256(bytes, sizeof bytes, d);
    d[31] &= 0x3f;
    fr_t want;
    assert_int_equal(fr_from_le(&want, d), CUZK_OK);
    assert_true(fr_equal(&label.value, &want));
    assert_ok(cs);
    cs_free(cs);
    free(msg);
}

/* The label as the PoRep circuit builds it (NOTES.md §2, a model value):
 * every 256-bit field chunk comes from to_bits_le (255 bits, a constant
 * false padded, bits reversed in bytes: the constant lands at 248), the
 * node is 64 allocated bits: 522,269 constraints and 521,749 aux for the
 * hash and the packing alone. */
static void test_porep_label_shape(void **state)
{
    (void)state;
    enum { PARENTS = 37, BITS = (2 + PARENTS) * 256 };
    cs_t *cs = new_cs(CS_COUNT);
    cs_bool_t *msg = malloc(BITS * sizeof *msg), chunk[255];
    for (int i = 0; i < 255; i++)
        chunk[i] = cs_bit_alloc(cs, 0);
    cs_bits_reverse_in_bytes(msg, chunk, 255);
    cs_u32_t l;
    cs_u64_t nd;
    cs_u32_const(&l, 3);
    cs_u64_alloc(&nd, cs, 0);
    cs_u32_into_bits_be(msg + 256, &l);
    cs_u64_to_bits_be(msg + 288, &nd);
    for (size_t i = 352; i < 512; i++)
        msg[i] = cs_bool_const(0);
    for (size_t p = 0; p < PARENTS; p++)
        cs_bits_reverse_in_bytes(msg + 512 + 256 * p, chunk, 255);
    cs_counts_t k0 = counts(cs);
    cs_bool_t digest[256], le[256];
    cs_sha256(digest, cs, msg, BITS);
    cs_bits_reverse_in_bytes(le, digest, 256);
    cs_pack_bits(cs, le, 254);
    cs_counts_t k1 = counts(cs);
    assert_int_equal(k1.constraints - k0.constraints, 522269);
    assert_int_equal(k1.aux - k0.aux, 521749);
    assert_ok(cs);
    cs_free(cs);
    free(msg);
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
        cs_t *cs = new_cs(CS_CHECK);
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
        assert_ok(cs);
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
        cs_t *cs = new_cs(modes[m]);
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        cs_sha256(out, cs, bits, 512);
        cs_pack_into_inputs(cs, out, 256);
        assert_ok(cs);
        k[m] = counts(cs);
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

/* The circuit a record run writes, with circuit.h's numbering (ONE, the
 * inputs, then the aux variables), built into a circuit_t. */
static void record_to_circuit(circuit_t *out, const cs_t *cs)
{
    cs_record_matrix_t mat[3];
    const fr_t *dict;
    uint32_t n_dict;
    assert_int_equal(cs_record_matrices(mat, &dict, &n_dict, cs, NULL), CUZK_OK);
    cs_counts_t k = counts(cs);
    circuit_builder_t *b = circuit_builder_new(
        (uint32_t)k.constraints, (uint32_t)(k.inputs + k.aux), (uint32_t)(k.inputs - 1));
    assert_non_null(b);
    for (int m = 0; m < 3; m++)
        for (uint64_t r = 0; r < k.constraints; r++)
            for (uint64_t e = mat[m].row_ptr[r]; e < mat[m].row_ptr[r + 1]; e++)
                assert_int_equal(
                    circuit_builder_add(b, (circuit_matrix)m, (uint32_t)r,
                                        (uint32_t)cs_record_column(mat[m].var[e], k.inputs),
                                        &dict[mat[m].coef[e]], NULL),
                    CUZK_OK);
    assert_int_equal(circuit_builder_finish(out, b, NULL), CUZK_OK);
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
    cs_t *rec = new_cs(CS_RECORD), *wit = new_cs(CS_WITNESS);
    record_circuit_body(rec, msg, 40);
    record_circuit_body(wit, msg, 40);
    assert_ok(rec);
    assert_ok(wit);
    circuit_t c;
    record_to_circuit(&c, rec);
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
    cs_t *chk = new_cs(CS_CHECK);
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
        cs_t *cs = new_cs(CS_COUNT);
        cs_bool_t bits[512], out[256];
        alloc_msg_bits(bits, cs, msg, 64);
        cs_sha256(out, cs, bits, 512);
        k = counts(cs);
        cs_free(cs);
    }
    char hex[2][65];
    static const cs_mode modes[] = {CS_COUNT, CS_RECORD};
    for (int m = 0; m < 2; m++) {
        cs_t *cs = new_cs(modes[m]);
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
    cs_t *cs = new_cs(CS_COUNT);
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
    assert_int_equal(counts(cs).constraints, 512 + (uint64_t)n * 25840);
    assert_ok(cs);
    cs_free(cs);
}

int main(void)
{
    tu_init("test_cs_sha256");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_block),       cmocka_unit_test(test_full_block_counts),
        cmocka_unit_test(test_filecoin_node_bits),   cmocka_unit_test(test_filecoin_node_nums),
        cmocka_unit_test(test_create_label_circuit), cmocka_unit_test(test_porep_label_shape),
        cmocka_unit_test(test_sha256_random),        cmocka_unit_test(test_sha256_modes),
        cmocka_unit_test(test_record_circuit),       cmocka_unit_test(test_sha256_fingerprint),
        cmocka_unit_test(test_count_speed),
    };
    return cmocka_run_group_tests_name("cs_sha256", tests, NULL, NULL);
}
