/* Replica id and PoRep / PoSt challenges (filecoin_challenges.h): the PoSt
 * leaf challenges of the real 32 GiB WindowPoSt vanilla proof
 * (../shared/testdata/filecoin/circuits/reference.json post_vproof), and
 * the other derivations against references written out here from the
 * rust-fil-proofs code (one SHA-256 over the concatenated bytes, a
 * 256-bit remainder by limbs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <openssl/sha.h>

#include "test_util.h"

#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_proofs.h"

static void rand_bytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)tu_rand64();
}

/* reference.json post_vproof: randomness 32 zero bytes, sector 1, 10
 * challenges over 2^30 leaves (32 GiB), challenge index n (sector index 0
 * of the partition; WindowPoSt V1 is API 1.0, so index = 0 * 10 + n). */
static void test_post_leaf_challenges(void **state)
{
    (void)state;
    size_t len;
    uint8_t *f = tu_read_file(CUZK_TESTDATA_DIR "/filecoin/circuits/reference.json", &len);
    assert_non_null(f);
    cJSON *doc = cJSON_ParseWithLength((const char *)f, len);
    free(f);
    assert_non_null(doc);
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "post_vproof"), "leaf_challenges");
    assert_int_equal(cJSON_GetArraySize(want), 10);
    uint8_t randomness[32] = {0};
    for (uint64_t n = 0; n < 10; n++) {
        uint64_t idx = fil_post_challenge_index(FIL_API_1_0, 0, 10, n), c;
        assert_int_equal(idx, n);
        assert_int_equal(fil_post_leaf_challenge(&c, randomness, 1, idx, 1ull << 30, NULL),
                         CUZK_OK);
        const cJSON *w = cJSON_GetArrayItem(want, (int)n);
        assert_true((uint64_t)w->valuedouble == c);
    }
    cJSON_Delete(doc);
    /* the index rules: sector 3 of 10 challenges each */
    assert_int_equal(fil_post_challenge_index(FIL_API_1_1, 3, 10, 7), 37);
    assert_int_equal(fil_post_challenge_index(FIL_API_1_2, 3, 10, 7), 7);
    uint64_t c;
    cuzk_error_t err;
    assert_int_equal(fil_post_leaf_challenge(&c, randomness, 1, 0, 0, &err), CUZK_ERR_ARG);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The PoSt sector challenge against one SHA-256 of the concatenation. */
static void test_post_sector_challenge(void **state)
{
    (void)state;
    for (int it = 0; it < tu_iters(20); it++) {
        uint8_t buf[72], h[32];
        rand_bytes(buf, 72);
        uint64_t n = le64(buf + 64), set = 1 + tu_rand64() % 5000, c;
        SHA256(buf, 72, h);
        assert_int_equal(fil_post_sector_challenge(&c, buf + 32, n, set, buf, NULL), CUZK_OK);
        assert_int_equal(c, le64(h) % set);
    }
}

/* replica id: SHA-256 of prover_id || sector id BE || ticket || comm_d ||
 * porep_id, top two bits cleared. */
static void test_replica_id(void **state)
{
    (void)state;
    for (int it = 0; it < tu_iters(20); it++) {
        uint8_t buf[136], want[32], got[32];
        rand_bytes(buf, sizeof buf);
        uint64_t sector = tu_rand64();
        for (int i = 0; i < 8; i++)
            buf[32 + i] = (uint8_t)(sector >> (56 - 8 * i));
        SHA256(buf, sizeof buf, want);
        want[31] &= 0x3f;
        assert_int_equal(fil_replica_id(got, buf, sector, buf + 40, buf + 72, buf + 104, NULL),
                         CUZK_OK);
        assert_memory_equal(got, want, 32);
    }
}

/* The LE 256-bit integer mod m by 64-bit limbs (a different route than the
 * library's byte-wise Horner). */
static uint64_t mod256(const uint8_t h[32], uint64_t m)
{
    unsigned __int128 r = 0;
    for (int l = 3; l >= 0; l--)
        r = ((r << 64) | le64(h + 8 * l)) % m;
    return (uint64_t)r;
}

/* Interactive and NI challenges against SHA-256 of the concatenation and
 * mod256; every partition of the 32 GiB and 2 KiB layouts, nodes 2 (all
 * challenges 1) and 2^32 - 1. */
static void test_porep_challenges(void **state)
{
    (void)state;
    static const char TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
    uint8_t rid[32], seed[32];
    rand_bytes(rid, 32);
    rand_bytes(seed, 32);
    static const uint64_t nodes_list[] = {64, 1ull << 30, 2, 0xffffffffull, 262144};
    for (size_t t = 0; t < 5; t++) {
        uint64_t nodes = nodes_list[t];
        unsigned per = nodes == (1ull << 30) ? 18 : 2, parts = nodes == (1ull << 30) ? 10 : 1;
        for (unsigned k = 0; k < parts; k++) {
            uint64_t got[18], got_ni[18];
            assert_int_equal(fil_porep_challenges(got, per, nodes, rid, seed, k, NULL), CUZK_OK);
            assert_int_equal(fil_porep_ni_challenges(got_ni, per, nodes, rid, seed, k, NULL),
                             CUZK_OK);
            for (unsigned i = 0; i < per; i++) {
                uint32_t j = per * k + i;
                uint8_t buf[68 + sizeof TAG], h[32];
                memcpy(buf, rid, 32);
                memcpy(buf + 32, seed, 32);
                memcpy(buf + 64, &j, 4); /* x86: little-endian */
                SHA256(buf, 68, h);
                assert_int_equal(got[i], mod256(h, nodes - 1) + 1);
                assert_true(got[i] >= 1 && got[i] < nodes);
                memcpy(buf, TAG, sizeof TAG - 1);
                memcpy(buf + sizeof TAG - 1, rid, 32);
                memcpy(buf + sizeof TAG - 1 + 32, seed, 32);
                memcpy(buf + sizeof TAG - 1 + 64, &j, 4);
                SHA256(buf, sizeof TAG - 1 + 68, h);
                assert_int_equal(got_ni[i], mod256(h, nodes - 1) + 1);
            }
        }
    }
    uint64_t c[2];
    cuzk_error_t err;
    assert_int_equal(fil_porep_challenges(c, 2, 1, rid, seed, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_porep_challenges(c, 2, 1ull << 32, rid, seed, 0, &err), CUZK_ERR_ARG);
}

/* challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes,
 * replica id Fr 55, comm_r Fr 101, 21 synthetic challenges, 10 PoRep
 * challenges from randomness [1; 32]. */
static void test_synth_challenges(void **state)
{
    (void)state;
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t rid[32] = {55}, comm_r[32] = {101}, rand[32];
    memset(rand, 1, 32);
    for (uint64_t i = 21; i-- > 0;) {
        uint64_t c;
        assert_int_equal(fil_porep_synth_challenge(&c, 1024, 21, rid, comm_r, i, NULL), CUZK_OK);
        assert_int_equal(c, synth[i]);
    }
    uint64_t c[10];
    assert_int_equal(fil_porep_synth_challenges(c, 10, 1024, 21, rid, comm_r, rand, 0, NULL),
                     CUZK_OK);
    assert_memory_equal(c, porep, sizeof porep);
    /* partitions: k = 1 of 5 equals challenges 5..9 of one partition of 10 */
    uint64_t c5[5];
    assert_int_equal(fil_porep_synth_challenges(c5, 5, 1024, 21, rid, comm_r, rand, 1, NULL),
                     CUZK_OK);
    assert_memory_equal(c5, porep + 5, sizeof c5);
    cuzk_error_t err;
    assert_int_equal(fil_porep_synth_challenge(c, 1024, 21, rid, comm_r, 21, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_challenges");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_leaf_challenges), cmocka_unit_test(test_post_sector_challenge),
        cmocka_unit_test(test_replica_id),           cmocka_unit_test(test_porep_challenges),
        cmocka_unit_test(test_synth_challenges),
    };
    return cmocka_run_group_tests_name("filecoin_challenges", tests, NULL, NULL);
}
