/* The Filecoin SHA-256 node and create_label (filecoin_sha.h): the
 * published constraint counts (../shared/testdata/filecoin/circuits/
 * reference.json, NOTES.md §2), witness values equal to the native
 * functions, every constraint satisfied (check back end), a corrupted
 * witness caught, and the native functions against one SHA-256 of the
 * concatenated bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "cs_fixture.h"
#include "test_util.h"

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "cuzk/filecoin_sha.h"

/* A random Fr and its 32-byte LE repr (a Filecoin domain). */
static void rand_domain(fr_t *x, uint8_t bytes[32])
{
    tu_rand_fr(x);
    fr_to_le(bytes, x);
}

static void assert_value(const cs_num_t *x, const uint8_t want[32])
{
    fr_t w;
    assert_int_equal(fr_from_le(&w, want), CUZK_OK);
    assert_true(fr_equal(&x->value, &w));
}

/* Bytes as allocated bits, most significant first in each byte
 * (bytes_into_boolean_vec_be). */
static void alloc_bits_be(cs_bool_t *out, cs_t *cs, const uint8_t *b, size_t len)
{
    for (size_t i = 0; i < 8 * len; i++)
        out[i] = cs_bit_alloc(cs, (b[i / 8] >> (7 - i % 8)) & 1);
}

/* The native functions against SHA-256 of the concatenation. */
static void test_native(void **state)
{
    (void)state;
    uint8_t l[32], r[32], buf[64 + 37 * 32], want[32], got[32];
    for (int i = 0; i < 32; i++) {
        l[i] = (uint8_t)tu_rand64();
        r[i] = (uint8_t)tu_rand64();
    }
    memcpy(buf, l, 32);
    memcpy(buf + 32, r, 32);
    SHA256(buf, 64, want);
    want[31] &= 0x3f;
    assert_int_equal(fil_sha256_node(got, l, r, NULL), CUZK_OK);
    assert_memory_equal(got, want, 32);
    assert_int_equal(fil_sha256_hash(got, buf, 64, NULL), CUZK_OK);
    assert_memory_equal(got, want, 32);

    /* create_label: id || layer BE || node BE || zeros || 37 parents */
    const uint8_t *parents[FIL_LABEL_PARENTS];
    memset(buf, 0, sizeof buf);
    memcpy(buf, l, 32);
    uint32_t layer = 7;
    uint64_t node = 0x0102030405060708ull;
    buf[35] = 7;
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(i + 1);
    for (unsigned p = 0; p < FIL_LABEL_PARENTS; p++) {
        for (int i = 0; i < 32; i++)
            buf[64 + 32 * p + (unsigned)i] = (uint8_t)tu_rand64();
        parents[p] = buf + 64 + 32 * p;
    }
    SHA256(buf, sizeof buf, want);
    want[31] &= 0x3f;
    assert_int_equal(fil_create_label(got, l, layer, node, parents, NULL), CUZK_OK);
    assert_memory_equal(got, want, 32);
    SHA256(buf, 64, want); /* node 0: no parents */
    want[31] &= 0x3f;
    assert_int_equal(fil_create_label(got, l, layer, node, NULL, NULL), CUZK_OK);
    assert_memory_equal(got, want, 32);
}

/* hash2_circuit of two allocated nums: 45,379 constraints and 45,331 aux
 * (NOTES.md §2) beyond the two nums; the value is the native node. Also
 * hash_multi_leaf_circuit of the same two leaves: the same R1CS. */
static void test_node_nums(void **state)
{
    (void)state;
    for (int multi = 0; multi < 2; multi++) {
        cs_t *cs = csf_new(CS_CHECK);
        fr_t a, b;
        uint8_t la[32], lb[32], want[32];
        rand_domain(&a, la);
        rand_domain(&b, lb);
        cs_num_t x[2] = {cs_num_alloc(cs, &a), cs_num_alloc(cs, &b)};
        cs_num_t out =
            multi ? fil_cs_sha256_multi_leaf(cs, x, 2) : fil_cs_sha256_hash2(cs, &x[0], &x[1]);
        cs_counts_t k = csf_counts(cs);
        assert_int_equal(k.constraints, 45379);
        assert_int_equal(k.aux - 2, 45331);
        assert_int_equal(fil_sha256_node(want, la, lb, NULL), CUZK_OK);
        assert_value(&out, want);
        csf_assert_ok(cs);
        cs_free(cs);
    }
}

/* storage-proofs-core util.rs hash_leaf_bits_circuit: 2 x 256 allocated
 * bits (bytes_into_boolean_vec, least significant first): 45,387 with the
 * bits (reference.json). */
static void test_node_leaf_bits(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_CHECK);
    fr_t a, b;
    uint8_t la[32], lb[32], want[32];
    rand_domain(&a, la);
    rand_domain(&b, lb);
    cs_bool_t lbits[256], rbits[256];
    cs_bits_alloc_bytes_le(lbits, cs, la, 32);
    cs_bits_alloc_bytes_le(rbits, cs, lb, 32);
    cs_num_t out = fil_cs_sha256_leaf_bits(cs, lbits, 256, rbits, 256);
    assert_int_equal(csf_counts(cs).constraints, 45387);
    assert_int_equal(fil_sha256_node(want, la, lb, NULL), CUZK_OK);
    assert_value(&out, want);
    csf_assert_ok(cs);
    cs_free(cs);
}

/* hash_multi_leaf_circuit over 1 to 4 leaves: the native hash of the LE
 * reprs; a 256-bit chunk per leaf with its constant at bit 248. */
static void test_multi_leaf(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 4; n++) {
        cs_t *cs = csf_new(CS_CHECK);
        cs_num_t leaves[4];
        uint8_t bytes[128], want[32];
        for (size_t i = 0; i < n; i++) {
            fr_t v;
            rand_domain(&v, bytes + 32 * i);
            leaves[i] = cs_num_alloc(cs, &v);
        }
        cs_num_t out = fil_cs_sha256_multi_leaf(cs, leaves, n);
        assert_int_equal(fil_sha256_hash(want, bytes, 32 * n, NULL), CUZK_OK);
        assert_value(&out, want);
        csf_assert_ok(cs);
        cs_free(cs);
    }
    cs_t *cs = csf_new(CS_COUNT);
    fil_cs_sha256_multi_leaf(cs, NULL, 0);
    assert_int_equal(cs_status(cs, NULL), CUZK_ERR_ARG);
    cs_free(cs);
}

/* create_label.rs test_create_label: replica id and 37 parents as allocated
 * bits (bytes_into_boolean_vec_be), layer 3 and node 22 as constants:
 * 532,025 constraints (reference.json); the value is the native label. */
static void test_create_label_rfp(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_CHECK);
    fr_t idf;
    uint8_t id[32], pbytes[FIL_LABEL_PARENTS][32], want[32];
    rand_domain(&idf, id);
    cs_bool_t idbits[256], (*pbits)[256] = malloc(FIL_LABEL_PARENTS * sizeof *pbits);
    assert_non_null(pbits);
    alloc_bits_be(idbits, cs, id, 32);
    const cs_bool_t *parents[FIL_LABEL_PARENTS];
    const uint8_t *pnative[FIL_LABEL_PARENTS];
    for (unsigned p = 0; p < FIL_LABEL_PARENTS; p++) {
        fr_t v;
        rand_domain(&v, pbytes[p]);
        alloc_bits_be(pbits[p], cs, pbytes[p], 32);
        parents[p] = pbits[p];
        pnative[p] = pbytes[p];
    }
    cs_u32_t layer;
    cs_u64_t node;
    cs_u32_const(&layer, 3);
    cs_u64_const(&node, 22);
    cs_num_t out = fil_cs_create_label(cs, idbits, 256, parents, 256, &layer, &node);
    assert_int_equal(csf_counts(cs).constraints, 532025);
    assert_int_equal(fil_create_label(want, id, 3, 22, pnative, NULL), CUZK_OK);
    assert_value(&out, want);
    csf_assert_ok(cs);
    cs_free(cs);
    free(pbits);
}

/* A label as the PoRep circuit builds it (NOTES.md §2): the replica id and
 * the parent labels from to_bits_le of allocated nums, reversed inside
 * bytes (reverse_bit_numbering: 256 bits with a constant at 248), layer a
 * constant, node 64 allocated bits. The label alone: 522,269 constraints,
 * 521,749 aux, whatever the layer. The parents repeat as in layer 1 (6 DRG
 * six times, then the first) or later layers (14 twice, then the first 9). */
static void porep_label(cs_mode mode, uint32_t layer_value, uint64_t fault_at, int *caught)
{
    cs_t *cs = csf_new(mode);
    fr_t idf, pf[14];
    uint8_t id[32], pbytes[14][32], want[32];
    rand_domain(&idf, id);
    cs_num_t idn = cs_num_alloc(cs, &idf);
    cs_bool_t le[255], idbits[256], pbits[14][256];
    cs_num_to_bits_le(le, cs, &idn);
    cs_bits_reverse_in_bytes(idbits, le, 255);
    unsigned distinct = layer_value == 1 ? 6 : 14;
    for (unsigned p = 0; p < distinct; p++) {
        rand_domain(&pf[p], pbytes[p]);
        cs_num_t pn = cs_num_alloc(cs, &pf[p]);
        cs_num_to_bits_le(le, cs, &pn);
        cs_bits_reverse_in_bytes(pbits[p], le, 255);
    }
    const cs_bool_t *parents[FIL_LABEL_PARENTS];
    const uint8_t *pnative[FIL_LABEL_PARENTS];
    for (unsigned p = 0; p < FIL_LABEL_PARENTS; p++) {
        unsigned q = p % distinct;
        parents[p] = pbits[q];
        pnative[p] = pbytes[q];
    }
    uint64_t node_value = 0x123456789ull;
    cs_u32_t layer;
    cs_u64_t node;
    cs_u32_const(&layer, layer_value);
    cs_u64_alloc(&node, cs, node_value);
    cs_counts_t k0 = csf_counts(cs);
    if (fault_at != UINT64_MAX) {
        fr_t two; /* never a bit's value: a changed value wherever it lands */
        fr_from_u64(&two, 2);
        cs_set_fault(cs, k0.aux + fault_at, &two);
    }
    cs_num_t out = fil_cs_create_label(cs, idbits, 256, parents, 256, &layer, &node);
    cs_counts_t k1 = csf_counts(cs);
    assert_int_equal(k1.constraints - k0.constraints, 522269);
    assert_int_equal(k1.aux - k0.aux, 521749);
    if (mode == CS_CHECK && fault_at == UINT64_MAX) {
        assert_int_equal(fil_create_label(want, id, layer_value, node_value, pnative, NULL),
                         CUZK_OK);
        assert_value(&out, want);
        csf_assert_ok(cs);
    }
    if (caught) {
        uint64_t row;
        *caught = cs_unsatisfied(&row, NULL, 0, cs);
    }
    cs_free(cs);
}

static void test_create_label_porep(void **state)
{
    (void)state;
    porep_label(CS_CHECK, 1, UINT64_MAX, NULL);
    porep_label(CS_CHECK, 2, UINT64_MAX, NULL);
    porep_label(CS_COUNT, 11, UINT64_MAX, NULL);
    /* one corrupted aux value anywhere in the label is caught */
    int caught = 0;
    porep_label(CS_CHECK, 2, tu_rand64() % 521749, &caught);
    assert_true(caught);
}

/* The four back ends agree on the node's sizes and densities. */
static void test_modes_agree(void **state)
{
    (void)state;
    static const cs_mode modes[] = {CS_COUNT, CS_WITNESS, CS_CHECK, CS_RECORD};
    cs_counts_t k[4];
    fr_t a, b;
    tu_rand_fr(&a);
    tu_rand_fr(&b);
    for (int m = 0; m < 4; m++) {
        cs_t *cs = csf_new(modes[m]);
        cs_num_t x = cs_num_alloc(cs, &a), y = cs_num_alloc(cs, &b);
        cs_num_t out = fil_cs_sha256_hash2(cs, &x, &y);
        cs_num_inputize(cs, &out);
        csf_assert_ok(cs);
        k[m] = csf_counts(cs);
        cs_free(cs);
    }
    for (int m = 1; m < 4; m++)
        assert_memory_equal(&k[m], &k[0], sizeof k[0]);
    printf("sha256 node of two nums + inputize: %llu constraints, %llu aux, A-aux %llu, "
           "B-aux %llu\n",
           (unsigned long long)k[0].constraints, (unsigned long long)k[0].aux,
           (unsigned long long)k[0].a_aux_density, (unsigned long long)k[0].b_aux_density);
}

/* Contract errors go to the cs. */
static void test_label_args(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_COUNT);
    cs_bool_t id[256];
    for (int i = 0; i < 256; i++)
        id[i] = cs_bool_const(0);
    const cs_bool_t *parents[FIL_LABEL_PARENTS];
    for (unsigned p = 0; p < FIL_LABEL_PARENTS; p++)
        parents[p] = id;
    cs_u32_t layer;
    cs_u64_t node;
    cs_u32_const(&layer, 1);
    cs_u64_const(&node, 1);
    fil_cs_create_label(cs, id, 31, parents, 256, &layer, &node);
    cuzk_error_t err;
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    cs_free(cs);
    /* all constant: costs only the packing */
    cs = csf_new(CS_COUNT);
    fil_cs_create_label(cs, id, 256, parents, 256, &layer, &node);
    assert_int_equal(csf_counts(cs).constraints, 1);
    csf_assert_ok(cs);
    cs_free(cs);
}

int main(void)
{
    tu_init("test_filecoin_sha");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native),           cmocka_unit_test(test_node_nums),
        cmocka_unit_test(test_node_leaf_bits),   cmocka_unit_test(test_multi_leaf),
        cmocka_unit_test(test_create_label_rfp), cmocka_unit_test(test_create_label_porep),
        cmocka_unit_test(test_modes_agree),      cmocka_unit_test(test_label_args),
    };
    return cmocka_run_group_tests_name("filecoin_sha", tests, NULL, NULL);
}
