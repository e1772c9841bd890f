/* The SDR parent graph (filecoin_graph.h) and the registered proofs
 * (filecoin_proofs.h) against rust-fil-proofs' published values:
 * ../shared/testdata/filecoin/circuits/parent_cache.json (parent cache
 * digests and file names), NOTES.md §3 (the VERIFIED node 656,705,143 of
 * porep id 3 and its keys), and every challenge of seal32_x10.prf (a real
 * 32 GiB V1 seal proof whose public inputs list each challenge's 14
 * parents). ChaCha against rand_chacha's published vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "test_util.h"

#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_proofs.h"
#include "../src/filecoin/fil_internal.h"

#define FC_DIR CUZK_TESTDATA_DIR "/filecoin/"

static void hex(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void graph_of(fil_graph_t *g, fil_seal_proof p)
{
    cuzk_error_t err;
    if (fil_graph_init_seal(g, p, &err) != CUZK_OK)
        fail_msg("graph: %s", err.msg);
}

/* rand_chacha 0.3 test_chacha_true_values_a (ChaCha20, zero key: two
 * blocks), and the 8-round keystream of the zero key (the eSTREAM ChaCha8
 * vector, draft-strombergson-chacha-test-vectors TC1). */
static void test_chacha_vectors(void **state)
{
    (void)state;
    static const uint32_t want20[32] = {
        0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0, 0xccef36a8,
        0xc70d778b, 0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8, 0xf4b8436a, 0x1ca11815,
        0x69b687c3, 0x8665eeb2, 0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb,
        0x6965e348, 0x3e53c612, 0xed7aee32, 0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874,
        0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b};
    static const uint8_t want8[32] = {0x3e, 0x00, 0xef, 0x2f, 0x89, 0x5f, 0x40, 0xd6,
                                      0x7f, 0x5b, 0xb8, 0xe8, 0x1f, 0x09, 0xa5, 0xa1,
                                      0x2c, 0x84, 0x0e, 0xc3, 0xce, 0x9a, 0x7f, 0x3b,
                                      0x18, 0x1b, 0xe1, 0x88, 0xef, 0x71, 0x1a, 0x1e};
    uint8_t key[32] = {0};
    uint32_t w[32];
    fil_chacha_words(w, key, 20, 2);
    assert_memory_equal(w, want20, sizeof want20);
    fil_chacha_words(w, key, 8, 1);
    for (int i = 0; i < 32; i++)
        assert_int_equal((w[i / 4] >> (8 * (i % 4))) & 0xff, want8[i]);
}

/* The Feistel round's BLAKE2b-512 prefix against OpenSSL's on random and
 * edge inputs. */
static void test_blake2b_prefix(void **state)
{
    (void)state;
    int iters = tu_iters(200);
    for (int it = 0; it < iters; it++) {
        uint8_t in[16], want[64], got[8];
        for (int i = 0; i < 16; i++)
            in[i] = it == 0 ? 0 : it == 1 ? 0xff : (uint8_t)tu_rand64();
        unsigned len = 0;
        assert_int_equal(EVP_Digest(in, 16, want, &len, EVP_blake2b512(), NULL), 1);
        assert_int_equal(len, 64);
        fil_blake2b512_16_prefix(got, in);
        assert_memory_equal(got, want, 8);
    }
}

static void test_registered_proofs(void **state)
{
    (void)state;
    for (unsigned p = 0; p < FIL_SEAL_COUNT; p++) {
        const fil_seal_info_t *s = fil_seal_info((fil_seal_proof)p);
        assert_non_null(s);
        assert_int_equal(s->proof, p);
        assert_int_equal(s->nodes * 32, s->sector_size);
        fil_seal_proof q;
        assert_int_equal(fil_seal_from_name(&q, s->name, NULL), CUZK_OK);
        assert_int_equal(q, p);
        uint8_t id[32], want[32] = {0};
        want[0] = (uint8_t)p;
        assert_int_equal(fil_porep_id(id, q, NULL), CUZK_OK);
        assert_memory_equal(id, want, 32);
        /* 176 / 10 and 2253 / 126 round up to 18; 2 / 1 and 26 / 13 to 2 */
        int big = s->sector_size >= (32ull << 30);
        assert_int_equal(s->challenges_per_partition, big ? 18 : 2);
        assert_int_equal(s->layers, big ? 11 : 2);
    }
    assert_null(fil_seal_info(FIL_SEAL_COUNT));
    const fil_seal_info_t *s = fil_seal_info(FIL_SEAL_32G_V1_1);
    assert_string_equal(s->name, "StackedDrg32GiBV1_1");
    assert_int_equal(s->api, FIL_API_1_1);
    assert_int_equal(s->partitions, 10);
    assert_int_equal(fil_seal_info(FIL_SEAL_32G_V1_2_NI)->partitions, 126);
    assert_int_equal(fil_seal_info(FIL_SEAL_2K_V1_2_NI)->partitions, 13);
    assert_int_equal(fil_seal_info(FIL_SEAL_8M_V1_1_SYNTH)->api, FIL_API_1_2);
    assert_int_equal(fil_seal_info(FIL_SEAL_32G_V1)->api, FIL_API_1_0);
    uint64_t size;
    assert_int_equal(fil_sector_size_parse(&size, "32GiB", NULL), CUZK_OK);
    fil_seal_proof q;
    assert_int_equal(fil_seal_from_size(&q, size, FIL_API_1_0, NULL), CUZK_OK);
    assert_int_equal(q, FIL_SEAL_32G_V1);
    assert_int_equal(fil_seal_from_size(&q, size, FIL_API_1_1, NULL), CUZK_OK);
    assert_int_equal(q, FIL_SEAL_32G_V1_1);
    cuzk_error_t err;
    assert_int_equal(fil_seal_from_size(&q, 4096, FIL_API_1_1, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_sector_size_parse(&size, "4KiB", &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "2KiB"));
    assert_int_equal(fil_seal_from_name(&q, "StackedDrg32GiBV2", &err), CUZK_ERR_ARG);
    fil_api_version v;
    assert_int_equal(fil_api_version_parse(&v, "1.1", NULL), CUZK_OK);
    assert_int_equal(v, FIL_API_1_1);
    assert_string_equal(fil_api_version_str(v), "1.1.0");
    assert_int_equal(fil_api_version_parse(&v, "2.0", NULL), CUZK_ERR_ARG);
}

/* NOTES.md §3, VERIFIED on seal32_x10.prf: porep id 3 (StackedDrg32GiBV1),
 * its Feistel keys and DRG seed, and node 656,705,143 under both rules. */
static void test_porep_id3_node(void **state)
{
    (void)state;
    fil_graph_t g;
    graph_of(&g, FIL_SEAL_32G_V1);
    static const uint64_t keys[4] = {0xad34733ae94c2bc0ull, 0x128224972c156342ull,
                                     0x935d1caca8ada2d9ull, 0x70aa0104742ce2d6ull};
    assert_memory_equal(g.feistel_keys, keys, sizeof keys);
    char h[57];
    hex(h, g.drg_seed, 28);
    assert_memory_equal(h, "a674e44e", 8);
    assert_memory_equal(h + 52, "5a92", 4);
    assert_int_equal(g.half_bits, 17); /* 8 * 2^30 = 2^33 -> 4^17 */

    const uint64_t node = 656705143;
    static const uint32_t drg10[6] = {656705142, 650261453, 656705056,
                                      656615026, 656701296, 656705142};
    static const uint32_t exp10[8] = {126549780, 368190453, 93666530,  400166597,
                                      49615717,  201682063, 515691232, 260659802};
    uint32_t p[FIL_DEGREE];
    assert_int_equal(fil_graph_parents(p, &g, node, NULL), CUZK_OK);
    assert_memory_equal(p, drg10, sizeof drg10);
    assert_memory_equal(p + 6, exp10, sizeof exp10);

    /* V1.1 rules, same porep id: node - 1 moves to slot 0, the random
     * parents follow in draw order; the expander parents change */
    fil_graph_t g11;
    uint8_t id[32];
    assert_int_equal(fil_porep_id(id, FIL_SEAL_32G_V1, NULL), CUZK_OK);
    assert_int_equal(fil_graph_init(&g11, g.nodes, id, FIL_API_1_1, NULL), CUZK_OK);
    uint32_t q[FIL_DEGREE];
    assert_int_equal(fil_graph_parents(q, &g11, node, NULL), CUZK_OK);
    assert_int_equal(q[0], node - 1);
    assert_memory_equal(q + 1, drg10, 5 * sizeof drg10[0]);
    assert_memory_not_equal(q + 6, exp10, sizeof exp10);

    /* nodes 0 and 1: all DRG parents 0 */
    assert_int_equal(fil_graph_drg_parents(q, &g, 1, NULL), CUZK_OK);
    for (int i = 0; i < 6; i++)
        assert_int_equal(q[i], 0);
    cuzk_error_t err;
    assert_int_equal(fil_graph_parents(q, &g, g.nodes, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_graph_init(&g11, 1, id, FIL_API_1_1, &err), CUZK_ERR_ARG);
}

static uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* seal32_x10.prf (README.md there): per proof, inputs [replica_id, comm_d,
 * comm_r], then per challenge c: c, 6 DRG, 8 expander, c, c, c. Every one
 * of the 180 challenges must give exactly its 14 inputs (V1.0 rules, porep
 * id 3). */
static void test_seal32_parents(void **state)
{
    (void)state;
    size_t len;
    uint8_t *f = tu_read_file(FC_DIR "seal32_x10.prf", &len);
    assert_non_null(f);
    uint64_t n_proofs = be64(f), n_inputs = be64(f + 8);
    assert_int_equal(n_proofs, 10);
    assert_int_equal(n_inputs, 327);
    const uint8_t *vk = f + 16;
    uint32_t n_ic =
        (uint32_t)vk[864] << 24 | (uint32_t)vk[865] << 16 | (uint32_t)vk[866] << 8 | vk[867];
    size_t off = 16 + 868 + 96 * (size_t)n_ic;
    assert_int_equal(off + n_proofs * (192 + 32 * n_inputs), len);
    fil_graph_t g;
    graph_of(&g, FIL_SEAL_32G_V1);
    unsigned checked = 0;
    for (uint64_t k = 0; k < n_proofs; k++) {
        const uint8_t *in = f + off + k * (192 + 32 * n_inputs) + 192;
        for (unsigned c = 0; c < 18; c++) {
            const uint8_t *x = in + 32 * (3 + 18 * c);
            uint64_t v[18];
            for (int i = 0; i < 18; i++) {
                for (int j = 0; j < 24; j++) /* a u64 in a 32-byte BE field element */
                    assert_int_equal(x[32 * i + j], 0);
                v[i] = be64(x + 32 * i + 24);
            }
            assert_int_equal(v[15], v[0]);
            uint32_t p[FIL_DEGREE];
            assert_int_equal(fil_graph_parents(p, &g, v[0], NULL), CUZK_OK);
            for (int i = 0; i < 14; i++)
                if (p[i] != v[1 + i])
                    fail_msg("proof %llu challenge %u (node %llu) parent %d: %u, want %llu",
                             (unsigned long long)k, c, (unsigned long long)v[0], i, p[i],
                             (unsigned long long)v[1 + i]);
            checked++;
        }
    }
    assert_int_equal(checked, 180);
    free(f);
}

/* parent_cache.json: the entry named by our cache name, its size and
 * digest (hex), or NULL. */
static const cJSON *cache_entry(const cJSON *doc, const fil_graph_t *g)
{
    char name[FIL_PARENT_CACHE_NAME_MAX];
    assert_int_equal(fil_parent_cache_name(name, g, NULL), CUZK_OK);
    return cJSON_GetObjectItemCaseSensitive(doc, name);
}

static cJSON *load_cache_json(void)
{
    size_t len;
    uint8_t *f = tu_read_file(FC_DIR "circuits/parent_cache.json", &len);
    assert_non_null(f);
    cJSON *doc = cJSON_ParseWithLength((const char *)f, len);
    free(f);
    assert_non_null(doc);
    return doc;
}

/* Every entry of parent_cache.json is named by one interactive seal proof
 * (5 sizes x V1 / V1_1): this checks the file names, the Feistel keys of
 * every production porep id and the sector sizes. */
static void test_parent_cache_names(void **state)
{
    (void)state;
    cJSON *doc = load_cache_json();
    assert_int_equal(cJSON_GetArraySize(doc), 10);
    for (unsigned p = FIL_SEAL_2K_V1; p <= FIL_SEAL_64G_V1_1; p++) {
        fil_graph_t g;
        graph_of(&g, (fil_seal_proof)p);
        const cJSON *e = cache_entry(doc, &g);
        if (!e)
            fail_msg("%s: no parent_cache.json entry", fil_seal_info((fil_seal_proof)p)->name);
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(e, "sector_size");
        assert_true(cJSON_IsNumber(size));
        assert_true((uint64_t)size->valuedouble == fil_seal_info((fil_seal_proof)p)->sector_size);
    }
    cJSON_Delete(doc);
}

static void check_cache_digest(const cJSON *doc, fil_seal_proof p)
{
    fil_graph_t g;
    graph_of(&g, p);
    const cJSON *e = cache_entry(doc, &g);
    assert_non_null(e);
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(e, "digest");
    assert_true(cJSON_IsString(want));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint8_t d[32];
    cuzk_error_t err;
    if (fil_parent_cache_digest(d, &g, 0, &err) != CUZK_OK)
        fail_msg("digest: %s", err.msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    char h[65];
    hex(h, d, 32);
    printf("%s: parent cache sha256 %s (%.2f s)\n", fil_seal_info(p)->name, h,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    assert_string_equal(h, want->valuestring);
}

/* The whole cache, streamed, hashes to parent_cache.json's digest: 2 KiB
 * (porep ids 0 and 5) and 8 MiB (1 and 6), both API rules. Larger sizes on
 * request, for a big machine: CUZK_TEST_PARENT_CACHE="512MiB 32GiB 64GiB"
 * (any of them; V1 and V1_1 each; 512 MiB takes about a minute on two
 * cores, 32 GiB about 64 times that). */
static void test_parent_cache_digests(void **state)
{
    (void)state;
    cJSON *doc = load_cache_json();
    static const fil_seal_proof proofs[] = {FIL_SEAL_2K_V1, FIL_SEAL_2K_V1_1, FIL_SEAL_8M_V1,
                                            FIL_SEAL_8M_V1_1};
    for (size_t i = 0; i < 4; i++)
        check_cache_digest(doc, proofs[i]);
    const char *more = getenv("CUZK_TEST_PARENT_CACHE");
    static const char *const big[] = {"512MiB", "32GiB", "64GiB"};
    for (size_t i = 0; more && i < 3; i++) {
        if (!strstr(more, big[i]))
            continue;
        uint64_t size;
        fil_seal_proof p;
        assert_int_equal(fil_sector_size_parse(&size, big[i], NULL), CUZK_OK);
        for (int v = FIL_API_1_0; v <= FIL_API_1_1; v++) {
            assert_int_equal(fil_seal_from_size(&p, size, (fil_api_version)v, NULL), CUZK_OK);
            check_cache_digest(doc, p);
        }
    }
    cJSON_Delete(doc);
}

/* fil_parent_cache_fill over any range equals fil_graph_parents node by
 * node, little-endian. */
static void test_cache_fill_matches(void **state)
{
    (void)state;
    fil_graph_t g;
    graph_of(&g, FIL_SEAL_2K_V1_1);
    uint8_t buf[64 * 56];
    assert_int_equal(fil_parent_cache_fill(buf, &g, 0, 64, 2, NULL), CUZK_OK);
    for (uint64_t n = 0; n < 64; n++) {
        uint32_t p[FIL_DEGREE];
        assert_int_equal(fil_graph_parents(p, &g, n, NULL), CUZK_OK);
        for (unsigned k = 0; k < FIL_DEGREE; k++) {
            const uint8_t *e = buf + 56 * n + 4 * k;
            assert_int_equal((uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 |
                                 (uint32_t)e[3] << 24,
                             p[k]);
            assert_true(p[k] < g.nodes);
        }
        if (n >= 2) /* V1.1: the predecessor first */
            assert_int_equal(p[0], n - 1);
    }
    cuzk_error_t err;
    assert_int_equal(fil_parent_cache_fill(buf, &g, 60, 5, 1, &err), CUZK_ERR_ARG);
}

typedef struct sink {
    uint8_t *buf;
    size_t len, cap;
    int fail_after; /* calls that succeed before one fails; < 0: never */
} sink_t;

static int sink_write(void *ctx, const uint8_t *data, size_t n)
{
    sink_t *s = ctx;
    if (s->fail_after == 0)
        return -1;
    s->fail_after--;
    assert_true(s->len + n <= s->cap);
    memcpy(s->buf + s->len, data, n);
    s->len += n;
    return 0;
}

/* The stream writes the whole cache in order (the bytes of one fill), and
 * a failing writer stops it with CUZK_ERR_IO. */
static void test_cache_stream(void **state)
{
    (void)state;
    fil_graph_t g;
    graph_of(&g, FIL_SEAL_2K_V1);
    uint8_t want[64 * 56], got[64 * 56];
    assert_int_equal(fil_parent_cache_fill(want, &g, 0, 64, 1, NULL), CUZK_OK);
    sink_t s = {got, 0, sizeof got, -1};
    assert_int_equal(fil_parent_cache_stream(&g, 0, sink_write, &s, NULL), CUZK_OK);
    assert_int_equal(s.len, sizeof want);
    assert_memory_equal(got, want, sizeof want);
    sink_t f = {got, 0, sizeof got, 0};
    cuzk_error_t err;
    assert_int_equal(fil_parent_cache_stream(&g, 0, sink_write, &f, &err), CUZK_ERR_IO);
}

int main(void)
{
    tu_init("test_filecoin_graph");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chacha_vectors),       cmocka_unit_test(test_blake2b_prefix),
        cmocka_unit_test(test_registered_proofs),    cmocka_unit_test(test_porep_id3_node),
        cmocka_unit_test(test_seal32_parents),       cmocka_unit_test(test_parent_cache_names),
        cmocka_unit_test(test_cache_fill_matches),   cmocka_unit_test(test_cache_stream),
        cmocka_unit_test(test_parent_cache_digests),
    };
    return cmocka_run_group_tests_name("filecoin_graph", tests, NULL, NULL);
}
