/* Poseidon (include/cuzk/poseidon.h) against neptune 11:
 *  - round numbers: the (t, R_P) table of neptune round_numbers.rs's test;
 *  - the hash: neptune's hash_values vectors (reference.json for arity 2,
 *    4, 8, 11; neptune's test for 16, 24, 36), plain and optimized;
 *  - every generated table of arity 11 against poseidon-arity11-constants.json
 *    (round constants, MDS, compressed constants, pre-sparse and sparse
 *    matrices);
 *  - plain == optimized on random inputs for every arity 1..36, and the
 *    optimized schedule's bookkeeping;
 *  - the cache (same object, racing first use) and argument errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include <cjson/cJSON.h>

#include "cuzk/fr.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

#define CIRCUITS_DIR CUZK_TESTDATA_DIR "/filecoin/circuits/"

static cJSON *load_json(const char *path)
{
    size_t len;
    uint8_t *buf = tu_read_file(path, &len);
    if (!buf)
        fail_msg("cannot read %s", path);
    cJSON *j = cJSON_ParseWithLength((const char *)buf, len);
    free(buf);
    if (!j)
        fail_msg("%s is not JSON", path);
    return j;
}

static int hex_nibble(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* A canonical Fr as 64 big-endian hex digits, with or without "0x". */
static void fr_from_hex(fr_t *out, const cJSON *item)
{
    assert_true(cJSON_IsString(item));
    const char *s = item->valuestring;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    assert_int_equal(strlen(s), 2 * FR_BYTES);
    uint8_t be[FR_BYTES];
    for (int i = 0; i < FR_BYTES; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        assert_true(hi >= 0 && lo >= 0);
        be[i] = (uint8_t)(hi << 4 | lo);
    }
    assert_int_equal(fr_from_be(out, be), CUZK_OK);
}

static void print_fr(const char *what, const fr_t *a)
{
    uint8_t be[FR_BYTES];
    fr_to_be(be, a);
    printf("%s 0x", what);
    for (int i = 0; i < FR_BYTES; i++)
        printf("%02x", be[i]);
    printf("\n");
}

/* A JSON array of n hex Frs equals the n elements at want. */
static void expect_vec(const cJSON *arr, const fr_t *want, size_t n, const char *what)
{
    assert_true(cJSON_IsArray(arr));
    if ((size_t)cJSON_GetArraySize(arr) != n)
        fail_msg("%s: %d entries in the JSON, %zu generated", what, cJSON_GetArraySize(arr), n);
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        fr_t x;
        fr_from_hex(&x, it);
        if (!fr_equal(&x, &want[i])) {
            print_fr("json     ", &x);
            print_fr("generated", &want[i]);
            fail_msg("%s: entry %zu differs", what, i);
        }
        i++;
    }
}

/* A JSON array of n rows of n equals the row-major matrix m. */
static void expect_mat(const cJSON *arr, const fr_t *m, size_t n, const char *what)
{
    assert_true(cJSON_IsArray(arr));
    assert_int_equal(cJSON_GetArraySize(arr), n);
    for (size_t i = 0; i < n; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s row %zu", what, i);
        expect_vec(cJSON_GetArrayItem(arr, (int)i), &m[i * n], n, buf);
    }
}

static const poseidon_constants_t *constants(unsigned arity)
{
    const poseidon_constants_t *c = NULL;
    cuzk_error_t err = {0};
    if (poseidon_constants_get(&c, arity, &err) != CUZK_OK)
        fail_msg("poseidon_constants_get(%u): %s", arity, err.msg);
    return c;
}

static void test_round_numbers(void **state)
{
    (void)state;
    /* neptune round_numbers.rs test_round_numbers_against_known_values. */
    static const unsigned cases[][2] = {
        {2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
        {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
        {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned rf = 0, rp = 0;
        assert_int_equal(poseidon_round_numbers(&rf, &rp, cases[i][0], NULL), CUZK_OK);
        if (rf != 8 || rp != cases[i][1])
            fail_msg("t = %u: R_F %u R_P %u, neptune 8 %u", cases[i][0], rf, rp, cases[i][1]);
    }
    unsigned rf, rp;
    assert_int_equal(poseidon_round_numbers(&rf, &rp, 1, NULL), CUZK_ERR_ARG);
    assert_int_equal(poseidon_round_numbers(&rf, &rp, 4096, NULL), CUZK_ERR_ARG);
}

static void test_hash_values(void **state)
{
    (void)state;
    cJSON *ref = load_json(CIRCUITS_DIR "reference.json");
    const cJSON *vals = cJSON_GetObjectItemCaseSensitive(ref, "poseidon_hash_values");
    assert_non_null(vals);
    static const unsigned arities[] = {2, 4, 8, 11};
    for (size_t k = 0; k < sizeof arities / sizeof arities[0]; k++) {
        unsigned a = arities[k];
        char key[8];
        snprintf(key, sizeof key, "%u", a);
        fr_t want;
        fr_from_hex(&want, cJSON_GetObjectItemCaseSensitive(vals, key));
        /* neptune poseidon.rs hash_values: inputs 0, 1, .., arity - 1. */
        fr_t in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < a; i++)
            fr_from_u64(&in[i], i);
        const poseidon_constants_t *c = constants(a);
        static const poseidon_mode modes[] = {POSEIDON_PLAIN, POSEIDON_OPTIMIZED};
        for (int m = 0; m < 2; m++) {
            fr_t got;
            assert_int_equal(poseidon_hash(&got, c, in, a, modes[m], NULL), CUZK_OK);
            if (!fr_equal(&got, &want)) {
                print_fr("neptune", &want);
                print_fr("cuzk   ", &got);
                fail_msg("arity %u, %s hash differs", a, m ? "optimized" : "plain");
            }
        }
    }
    cJSON_Delete(ref);
}

/* The arities filecoin-hashers also lists, from neptune's own test
 * (src/poseidon.rs hash_values_aux, Strength::Standard, @a513bea): the
 * value as scalar_from_u64s, little-endian 64-bit limbs. */
static void test_hash_values_wide(void **state)
{
    (void)state;
    static const struct {
        unsigned arity;
        uint64_t limbs[FR_LIMBS];
    } cases[] = {
        {16, {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a}},
        {24, {0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15}},
        {36, {0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        unsigned a = cases[k].arity;
        fr_t want, in[POSEIDON_MAX_ARITY], got;
        assert_int_equal(fr_from_limbs(&want, cases[k].limbs), CUZK_OK);
        for (unsigned i = 0; i < a; i++)
            fr_from_u64(&in[i], i);
        const poseidon_constants_t *c = constants(a);
        for (int m = 0; m < 2; m++) {
            poseidon_mode mode = m ? POSEIDON_OPTIMIZED : POSEIDON_PLAIN;
            assert_int_equal(poseidon_hash(&got, c, in, a, mode, NULL), CUZK_OK);
            if (!fr_equal(&got, &want)) {
                print_fr("neptune", &want);
                print_fr("cuzk   ", &got);
                fail_msg("arity %u, %s hash differs", a, m ? "optimized" : "plain");
            }
        }
    }
}

static void test_arity11_tables(void **state)
{
    (void)state;
    cJSON *j = load_json(CIRCUITS_DIR "poseidon-arity11-constants.json");
    const poseidon_constants_t *c = constants(11);
    const size_t t = c->width, rp = c->partial_rounds;
    assert_int_equal(t, 12);
    assert_int_equal(c->full_rounds, 8);
    assert_int_equal(rp, 57);
    expect_vec(cJSON_GetObjectItemCaseSensitive(j, "constants"), c->round_constants,
               (c->full_rounds + rp) * t, "round constants");
    expect_mat(cJSON_GetObjectItemCaseSensitive(j, "mds"), c->mds, t, "mds");
    expect_vec(cJSON_GetObjectItemCaseSensitive(j, "compress"), c->compressed_round_constants,
               c->full_rounds * t + rp, "compressed round constants");
    expect_mat(cJSON_GetObjectItemCaseSensitive(j, "pre_sparse"), c->pre_sparse_matrix, t,
               "pre-sparse matrix");
    /* sparse: [[w_hat (t), v_rest (t - 1)], ...] in neptune's order of use. */
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(j, "sparse");
    assert_true(cJSON_IsArray(sp));
    assert_int_equal(cJSON_GetArraySize(sp), rp);
    for (size_t k = 0; k < rp; k++) {
        const cJSON *m = cJSON_GetArrayItem(sp, (int)k);
        assert_int_equal(cJSON_GetArraySize(m), 2);
        char buf[64];
        snprintf(buf, sizeof buf, "sparse %zu w_hat", k);
        expect_vec(cJSON_GetArrayItem(m, 0), &c->sparse_w_hat[k * t], t, buf);
        snprintf(buf, sizeof buf, "sparse %zu v_rest", k);
        expect_vec(cJSON_GetArrayItem(m, 1), &c->sparse_v_rest[k * (t - 1)], t - 1, buf);
    }
    /* The inverse is an inverse. */
    for (size_t i = 0; i < t; i++)
        for (size_t k = 0; k < t; k++) {
            fr_t acc = FR_ZERO, tmp;
            for (size_t q = 0; q < t; q++) {
                fr_mul(&tmp, &c->mds[i * t + q], &c->mds_inv[q * t + k]);
                fr_add(&acc, &acc, &tmp);
            }
            assert_true(i == k ? fr_is_one(&acc) : fr_is_zero(&acc));
        }
    cJSON_Delete(j);
}

/* The round descriptions consume the compressed constants exactly once, in
 * order, and mix as neptune's round_product_mds does. */
static void check_schedule(const poseidon_constants_t *c)
{
    const unsigned t = c->width, h = c->half_full_rounds, rp = c->partial_rounds;
    const fr_t *next = c->compressed_round_constants;
    unsigned nr = poseidon_num_rounds(c);
    assert_int_equal(nr, c->full_rounds + rp);
    for (unsigned r = 0; r < nr; r++) {
        poseidon_round_t rd;
        poseidon_round(&rd, c, r);
        int partial = r >= h && r < h + rp;
        assert_int_equal(rd.kind, partial ? POSEIDON_ROUND_PARTIAL : POSEIDON_ROUND_FULL);
        if (r == 0) {
            assert_ptr_equal(rd.pre_keys, next);
            next += t;
        } else {
            assert_null(rd.pre_keys);
        }
        if (r + 1 == nr) {
            assert_null(rd.post_keys);
        } else {
            assert_ptr_equal(rd.post_keys, next);
            next += partial ? 1 : t;
        }
        if (r + 1 == h) {
            assert_int_equal(rd.mix, POSEIDON_MIX_PRE_SPARSE);
            assert_ptr_equal(rd.matrix, c->pre_sparse_matrix);
        } else if (partial) {
            assert_int_equal(rd.mix, POSEIDON_MIX_SPARSE);
            assert_ptr_equal(rd.w_hat, c->sparse_w_hat + (size_t)(r - h) * t);
            assert_ptr_equal(rd.v_rest, c->sparse_v_rest + (size_t)(r - h) * (t - 1));
        } else {
            assert_int_equal(rd.mix, POSEIDON_MIX_MDS);
            assert_ptr_equal(rd.matrix, c->mds);
        }
    }
    assert_ptr_equal(next, c->compressed_round_constants + (size_t)c->full_rounds * t + rp);
}

static void test_plain_vs_optimized(void **state)
{
    (void)state;
    int iters = tu_iters(8);
    for (unsigned a = POSEIDON_MIN_ARITY; a <= POSEIDON_MAX_ARITY; a++) {
        const poseidon_constants_t *c = constants(a);
        assert_int_equal(c->arity, a);
        assert_int_equal(c->width, a + 1);
        assert_int_equal(c->full_rounds, 8);
        fr_t tag;
        fr_from_u64(&tag, (UINT64_C(1) << a) - 1);
        assert_true(fr_equal(&c->domain_tag, &tag));
        check_schedule(c);
        /* The production arities get more draws than the others. */
        int n = (a == 2 || a == 4 || a == 8 || a == 11) ? 4 * iters : iters;
        for (int it = 0; it < n; it++) {
            fr_t in[POSEIDON_MAX_ARITY], h1, h2;
            for (unsigned i = 0; i < a; i++)
                tu_rand_fr(&in[i]);
            assert_int_equal(poseidon_hash(&h1, c, in, a, POSEIDON_PLAIN, NULL), CUZK_OK);
            assert_int_equal(poseidon_hash(&h2, c, in, a, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
            if (!fr_equal(&h1, &h2))
                fail_msg("arity %u: plain and optimized differ (iteration %d)", a, it);
            /* The whole permuted state agrees, not only the output. */
            fr_t s1[POSEIDON_MAX_WIDTH], s2[POSEIDON_MAX_WIDTH];
            for (unsigned i = 0; i <= a; i++)
                tu_rand_fr(&s1[i]);
            memcpy(s2, s1, sizeof s1);
            poseidon_permute(s1, c, POSEIDON_PLAIN);
            poseidon_permute(s2, c, POSEIDON_OPTIMIZED);
            for (unsigned i = 0; i <= a; i++)
                assert_true(fr_equal(&s1[i], &s2[i]));
        }
    }
}

/* The uncached constructor makes the same tables as the cache. */
static void test_new_matches_cache(void **state)
{
    (void)state;
    static const unsigned arities[] = {1, 2, 8, 16};
    for (size_t k = 0; k < sizeof arities / sizeof arities[0]; k++) {
        poseidon_constants_t *own = NULL;
        cuzk_error_t err = {0};
        assert_int_equal(poseidon_constants_new(&own, arities[k], &err), CUZK_OK);
        const poseidon_constants_t *c = constants(arities[k]);
        assert_ptr_not_equal(own, c);
        size_t t = c->width, rp = c->partial_rounds, rf = c->full_rounds;
        assert_memory_equal(own->round_constants, c->round_constants, (rf + rp) * t * sizeof(fr_t));
        assert_memory_equal(own->compressed_round_constants, c->compressed_round_constants,
                            (rf * t + rp) * sizeof(fr_t));
        assert_memory_equal(own->pre_sparse_matrix, c->pre_sparse_matrix, t * t * sizeof(fr_t));
        assert_memory_equal(own->sparse_w_hat, c->sparse_w_hat, rp * t * sizeof(fr_t));
        assert_memory_equal(own->sparse_v_rest, c->sparse_v_rest, rp * (t - 1) * sizeof(fr_t));
        poseidon_constants_free(own);
    }
    poseidon_constants_free(NULL);
}

/* HashType::Custom(CType::Arbitrary(id)): neptune's hash_type.rs
 * test_domain_tags gives the tag of every id as the limbs [id * 2^40, 0, 0,
 * 0]; the tables are the MerkleTree ones; the hash is the permutation of
 * [tag, inputs] (neptune has no Custom hash vectors), plain = optimized. */
static void test_custom(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    for (unsigned id = 1; id <= POSEIDON_CUSTOM_ID_MAX; id++) {
        if (id > 4 && id < POSEIDON_CUSTOM_ID_MAX - 2 && id % 37 != 0)
            continue;
        poseidon_constants_t *own = NULL;
        assert_int_equal(poseidon_constants_new_custom(&own, 8, id, &err), CUZK_OK);
        uint8_t le[32] = {0}, want[32] = {0};
        uint64_t limb0 = UINT64_C(0x0000010000000000) * id;
        for (int i = 0; i < 8; i++)
            want[i] = (uint8_t)(limb0 >> (8 * i));
        fr_to_le(le, &own->domain_tag);
        assert_memory_equal(le, want, 32);
        assert_int_equal(own->custom_id, id);
        poseidon_constants_free(own);
    }
    poseidon_constants_t *bad = NULL;
    assert_int_equal(poseidon_constants_new_custom(&bad, 2, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(poseidon_constants_new_custom(&bad, 2, 257, &err), CUZK_ERR_ARG);
    assert_int_equal(poseidon_constants_new_custom(&bad, 0, 1, &err), CUZK_ERR_ARG);
    assert_null(bad);
    const poseidon_constants_t *g = NULL;
    assert_int_equal(poseidon_constants_get_custom(&g, 2, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(poseidon_constants_get_custom(NULL, 2, 1, &err), CUZK_ERR_ARG);

    static const unsigned arities[] = {2, 4, 8, 11};
    for (size_t k = 0; k < sizeof arities / sizeof arities[0]; k++) {
        unsigned a = arities[k];
        const poseidon_constants_t *c = NULL, *c2 = NULL, *m = constants(a);
        assert_int_equal(poseidon_constants_get_custom(&c, a, 1, &err), CUZK_OK);
        assert_int_equal(poseidon_constants_get_custom(&c2, a, 1, &err), CUZK_OK);
        assert_ptr_equal(c, c2);
        assert_ptr_not_equal(c, m);
        assert_int_equal(m->custom_id, 0);
        assert_int_equal(c->custom_id, 1);
        fr_t tag;
        fr_from_u64(&tag, UINT64_C(1) << 40);
        assert_true(fr_equal(&c->domain_tag, &tag));
        size_t t = c->width, rp = c->partial_rounds, rf = c->full_rounds;
        assert_int_equal(rp, m->partial_rounds);
        assert_memory_equal(c->round_constants, m->round_constants, (rf + rp) * t * sizeof(fr_t));
        assert_memory_equal(c->compressed_round_constants, m->compressed_round_constants,
                            (rf * t + rp) * sizeof(fr_t));
        assert_memory_equal(c->sparse_w_hat, m->sparse_w_hat, rp * t * sizeof(fr_t));
        for (int it = 0; it < tu_iters(8); it++) {
            fr_t in[POSEIDON_MAX_ARITY], h1, h2, hm, st[POSEIDON_MAX_WIDTH];
            for (unsigned i = 0; i < a; i++)
                tu_rand_fr(&in[i]);
            assert_int_equal(poseidon_hash(&h1, c, in, a, POSEIDON_PLAIN, NULL), CUZK_OK);
            assert_int_equal(poseidon_hash(&h2, c, in, a, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
            assert_int_equal(poseidon_hash(&hm, m, in, a, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
            assert_true(fr_equal(&h1, &h2));
            assert_false(fr_equal(&h1, &hm));
            st[0] = tag;
            memcpy(&st[1], in, a * sizeof in[0]);
            poseidon_permute(st, m, POSEIDON_PLAIN);
            assert_true(fr_equal(&st[1], &h1));
        }
    }
}

static void *race_get(void *arg)
{
    const poseidon_constants_t **out = arg;
    if (poseidon_constants_get(out, 24, NULL) != CUZK_OK)
        *out = NULL;
    return NULL;
}

static void test_cache_and_errors(void **state)
{
    (void)state;
    /* First use of arity 24 from several threads at once: one object. */
    enum { N = 4 };
    pthread_t th[N];
    const poseidon_constants_t *got[N] = {0};
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_create(&th[i], NULL, race_get, &got[i]), 0);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++) {
        assert_non_null(got[i]);
        assert_ptr_equal(got[i], got[0]);
    }
    assert_ptr_equal(constants(24), got[0]);

    cuzk_error_t err = {0};
    const poseidon_constants_t *c = (const poseidon_constants_t *)1;
    assert_int_equal(poseidon_constants_get(&c, 0, &err), CUZK_ERR_ARG);
    assert_null(c);
    assert_true(strlen(err.msg) > 0);
    assert_int_equal(poseidon_constants_get(&c, POSEIDON_MAX_ARITY + 1, NULL), CUZK_ERR_ARG);
    assert_int_equal(poseidon_constants_get(NULL, 2, NULL), CUZK_ERR_ARG);
    poseidon_constants_t *own = (poseidon_constants_t *)1;
    assert_int_equal(poseidon_constants_new(&own, 37, NULL), CUZK_ERR_ARG);
    assert_null(own);

    c = constants(4);
    fr_t in[5] = {0}, out;
    err.msg[0] = 0;
    assert_int_equal(poseidon_hash(&out, c, in, 5, POSEIDON_PLAIN, &err), CUZK_ERR_ARG);
    assert_true(strlen(err.msg) > 0);
    assert_int_equal(poseidon_hash(&out, c, in, 3, POSEIDON_OPTIMIZED, NULL), CUZK_ERR_ARG);
    assert_int_equal(poseidon_hash(&out, c, in, 4, (poseidon_mode)7, NULL), CUZK_ERR_ARG);
    assert_int_equal(poseidon_hash(NULL, c, in, 4, POSEIDON_PLAIN, NULL), CUZK_ERR_ARG);
    assert_int_equal(poseidon_hash(&out, NULL, in, 4, POSEIDON_PLAIN, NULL), CUZK_ERR_ARG);
    assert_int_equal(poseidon_hash(&out, c, in, 4, POSEIDON_PLAIN, NULL), CUZK_OK);
}

/* The S-box helper: (x + pre)^5 + post, keys optional. */
static void test_sbox(void **state)
{
    (void)state;
    for (int it = 0; it < tu_iters(64); it++) {
        fr_t x, pre, post, want, got, y;
        tu_rand_fr(&x);
        tu_rand_fr(&pre);
        tu_rand_fr(&post);
        fr_add(&y, &x, &pre);
        uint64_t five = 5;
        fr_pow_var(&want, &y, &five, 1);
        fr_add(&want, &want, &post);
        poseidon_sbox(&got, &x, &pre, &post);
        assert_true(fr_equal(&got, &want));
        fr_pow_var(&want, &x, &five, 1);
        poseidon_sbox(&got, &x, NULL, NULL);
        assert_true(fr_equal(&got, &want));
    }
}

int main(void)
{
    tu_init("test_poseidon");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_numbers),
        cmocka_unit_test(test_hash_values),
        cmocka_unit_test(test_hash_values_wide),
        cmocka_unit_test(test_arity11_tables),
        cmocka_unit_test(test_sbox),
        cmocka_unit_test(test_cache_and_errors),
        cmocka_unit_test(test_new_matches_cache),
        cmocka_unit_test(test_plain_vs_optimized),
        cmocka_unit_test(test_custom),
    };
    return cmocka_run_group_tests_name("poseidon", tests, NULL, NULL);
}
