/* Filecoin parameter file names (include/cuzk/filecoin_params.h) against
 * the published v28 list, ../shared/testdata/filecoin/circuits/
 * parameters.json (RFP@87348a7 storage-proofs-core parameters.json): every
 * .params and .vk name there comes from exactly one (kind, sector size) of
 * ours, under every API version; the identifier strings are Rust's,
 * character by character; bad kinds, sizes, versions and buffers are
 * refused with messages naming the valid values; the parameter folder
 * follows FIL_PROOFS_PARAMETER_CACHE; a missing file is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "cuzk/filecoin_params.h"
#include "test_util.h"

#define PARAMS_JSON CUZK_TESTDATA_DIR "/filecoin/circuits/parameters.json"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

/* fil_sector_tree's sizes, and two that are none. */
static const uint64_t SIZES[] = {2 * KIB,  4 * KIB,   16 * KIB, 32 * KIB, 8 * MIB,
                                 16 * MIB, 512 * MIB, 1 * GIB,  32 * GIB, 64 * GIB};
#define N_SIZES (sizeof SIZES / sizeof SIZES[0])

static int published_size(uint64_t s)
{
    return s == 2 * KIB || s == 8 * MIB || s == 512 * MIB || s == 32 * GIB || s == 64 * GIB;
}

typedef struct entry {
    const char *name;
    uint64_t sector_size;
    int hits;
} entry_t;

static cJSON *g_json;
static entry_t g_entries[128];
static size_t g_n;

static int setup(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *buf = tu_read_file(PARAMS_JSON, &len);
    if (!buf)
        return -1;
    g_json = cJSON_ParseWithLength((const char *)buf, len);
    free(buf);
    if (!g_json)
        return -1;
    for (cJSON *e = g_json->child; e; e = e->next) {
        const cJSON *sz = cJSON_GetObjectItemCaseSensitive(e, "sector_size");
        if (!e->string || !cJSON_IsNumber(sz) || g_n == sizeof g_entries / sizeof g_entries[0])
            return -1;
        g_entries[g_n++] = (entry_t){e->string, (uint64_t)sz->valuedouble, 0};
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cJSON_Delete(g_json);
    return 0;
}

static entry_t *find(const char *name)
{
    for (size_t i = 0; i < g_n; i++)
        if (!strcmp(g_entries[i].name, name))
            return &g_entries[i];
    return NULL;
}

/* Every published .params / .vk is one (kind, size) of ours, the same
 * under 1.0, 1.1 and 1.2, with the JSON's sector size; the (kind, size)
 * pairs with a file are the published sizes for all kinds, except the
 * Poseidon SnapDeals below 32 GiB. */
static void test_published_names(void **state)
{
    (void)state;
    size_t want_files = 0;
    for (size_t i = 0; i < g_n; i++) {
        size_t l = strlen(g_entries[i].name);
        if ((l > 7 && !strcmp(g_entries[i].name + l - 7, ".params")) ||
            (l > 3 && !strcmp(g_entries[i].name + l - 3, ".vk")))
            want_files++;
    }
    assert_int_equal(want_files, 44);
    unsigned pairs = 0;
    for (int k = 0; k < FIL_CIRCUIT_COUNT; k++) {
        for (size_t s = 0; s < N_SIZES; s++) {
            char stem[FIL_PARAMS_STEM_MAX], other[FIL_PARAMS_STEM_MAX];
            cuzk_error_t err = {0};
            cuzk_status st = fil_params_stem(stem, sizeof stem, (fil_circuit_kind)k, SIZES[s],
                                             FIL_API_1_1, &err);
            int has_circuit = !(k == FIL_CIRCUIT_POREP && !published_size(SIZES[s])) &&
                              !(k >= FIL_CIRCUIT_SNAP_DEALS && SIZES[s] == 1 * GIB);
            assert_int_equal(st, has_circuit ? CUZK_OK : CUZK_ERR_ARG);
            if (!has_circuit)
                continue;
            for (int api = FIL_API_1_0; api <= FIL_API_1_2; api++) {
                assert_int_equal(fil_params_stem(other, sizeof other, (fil_circuit_kind)k, SIZES[s],
                                                 (fil_api_version)api, &err),
                                 CUZK_OK);
                assert_string_equal(other, stem);
            }
            int want = published_size(SIZES[s]) &&
                       !(k == FIL_CIRCUIT_SNAP_DEALS_POSEIDON && SIZES[s] < 32 * GIB);
            int found = 0;
            static const char *const ext[2] = {"params", "vk"};
            for (int x = 0; x < 2; x++) {
                char name[FIL_PARAMS_STEM_MAX + 8];
                snprintf(name, sizeof name, "%s.%s", stem, ext[x]);
                entry_t *e = find(name);
                if (!e)
                    continue;
                found++;
                e->hits++;
                assert_true(e->sector_size == SIZES[s]);
            }
            if (found != (want ? 2 : 0))
                fail_msg("%s at %llu bytes: %d of 2 published files (%s)", fil_circuit_kind_str(k),
                         (unsigned long long)SIZES[s], found, stem);
            pairs += want;
        }
    }
    assert_int_equal(pairs, 22);
    for (size_t i = 0; i < g_n; i++)
        if (g_entries[i].hits != 1)
            fail_msg("%s: made by %d (kind, size) pairs", g_entries[i].name, g_entries[i].hits);
}

/* Two identifiers written out from the Rust format! strings, and the
 * published names they hash to. */
static void test_identifier_literal(void **state)
{
    (void)state;
    char id[FIL_PARAMS_ID_MAX], stem[FIL_PARAMS_STEM_MAX];
    cuzk_error_t err = {0};
    /* params.rs + graph.rs + drgraph.rs, 32 GiB: 2^30 nodes, 11 layers, 18
     * challenges per partition, TreeR 8-8-0 */
    assert_int_equal(
        fil_params_identifier(id, sizeof id, FIL_CIRCUIT_POREP, 32 * GIB, FIL_API_1_1, &err),
        CUZK_OK);
    assert_string_equal(
        id, "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: "
            "8 base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: "
            "poseidon_hasher} }, challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
            "merkletree-poseidon_hasher-8-8-0 }");
    assert_int_equal(
        fil_params_stem(stem, sizeof stem, FIL_CIRCUIT_POREP, 32 * GIB, FIL_API_1_0, &err),
        CUZK_OK);
    assert_string_equal(stem, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-"
                              "sha256_hasher-"
                              "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820");
    /* fallback/vanilla.rs: Winning is 66 sectors of 1 challenge */
    assert_int_equal(
        fil_params_identifier(id, sizeof id, FIL_CIRCUIT_WINNING_POST, 2 * KIB, FIL_API_1_2, &err),
        CUZK_OK);
    assert_string_equal(
        id, "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 1, sector_count: 66}");
    assert_int_equal(fil_params_identifier(id, sizeof id, FIL_CIRCUIT_SNAP_DEALS_POSEIDON, 64 * GIB,
                                           FIL_API_1_2, &err),
                     CUZK_OK);
    assert_string_equal(id, "empty_sector_update::PublicParams{ sector_nodes: 2147483648 }");
    /* The longest identifier and stem fit the documented maxima. */
    size_t id_max = 0, stem_max = 0;
    for (int k = 0; k < FIL_CIRCUIT_COUNT; k++)
        for (size_t s = 0; s < N_SIZES; s++)
            if (fil_params_stem(stem, sizeof stem, (fil_circuit_kind)k, SIZES[s], FIL_API_1_1,
                                NULL) == CUZK_OK) {
                assert_int_equal(fil_params_identifier(id, sizeof id, (fil_circuit_kind)k, SIZES[s],
                                                       FIL_API_1_1, NULL),
                                 CUZK_OK);
                id_max = strlen(id) > id_max ? strlen(id) : id_max;
                stem_max = strlen(stem) > stem_max ? strlen(stem) : stem_max;
            }
    assert_int_equal(id_max, 276);
    assert_int_equal(stem_max, 144);
}

/* NI-PoRep and synthetic PoRep share the interactive file: every seal proof
 * of a size has its layers and challenges per partition, the only numbers
 * in the identifier besides the node count. */
static void test_seal_proofs_share(void **state)
{
    (void)state;
    for (int p = 0; p < FIL_SEAL_COUNT; p++) {
        const fil_seal_info_t *a = fil_seal_info((fil_seal_proof)p);
        fil_seal_proof q = FIL_SEAL_COUNT;
        assert_int_equal(fil_seal_from_size(&q, a->sector_size, FIL_API_1_1, NULL), CUZK_OK);
        const fil_seal_info_t *b = fil_seal_info(q);
        assert_int_equal(a->layers, b->layers);
        assert_int_equal(a->challenges_per_partition, b->challenges_per_partition);
    }
}

static void expect_arg(cuzk_status st, const cuzk_error_t *err, const char *needle)
{
    assert_int_equal(st, CUZK_ERR_ARG);
    if (!strstr(err->msg, needle))
        fail_msg("message '%s' lacks '%s'", err->msg, needle);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    char out[FIL_PARAMS_STEM_MAX];
    cuzk_error_t err = {0};
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_COUNT, 2 * KIB, FIL_API_1_1, &err),
               &err, "porep, winning-post, window-post, snap-deals, snap-deals-poseidon");
    expect_arg(
        fil_params_identifier(out, sizeof out, (fil_circuit_kind)-1, 2 * KIB, FIL_API_1_1, &err),
        &err, "snap-deals-poseidon");
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_WINDOW_POST, 3000, FIL_API_1_1, &err),
               &err, "2KiB, 4KiB, 16KiB");
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_WINDOW_POST, 0, FIL_API_1_1, &err),
               &err, "64GiB");
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_POREP, 4 * KIB, FIL_API_1_1, &err),
               &err, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB");
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_SNAP_DEALS, 1 * GIB, FIL_API_1_1, &err),
               &err, "512MiB, 32GiB");
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_SNAP_DEALS_POSEIDON, 1 * GIB,
                               FIL_API_1_1, &err),
               &err, "snap-deals-poseidon");
    expect_arg(fil_params_stem(out, sizeof out, FIL_CIRCUIT_WINNING_POST, 2 * KIB,
                               (fil_api_version)3, &err),
               &err, "1.0, 1.1, 1.2");
    expect_arg(fil_params_stem(NULL, 10, FIL_CIRCUIT_WINNING_POST, 2 * KIB, FIL_API_1_1, &err),
               &err, "NULL");
    /* every buffer one byte short of the need fails; the exact need works */
    char full[FIL_PARAMS_STEM_MAX], id[FIL_PARAMS_ID_MAX];
    for (int k = 0; k < FIL_CIRCUIT_COUNT; k++) {
        assert_int_equal(
            fil_params_stem(full, sizeof full, (fil_circuit_kind)k, 32 * GIB, FIL_API_1_1, &err),
            CUZK_OK);
        assert_int_equal(
            fil_params_identifier(id, sizeof id, (fil_circuit_kind)k, 32 * GIB, FIL_API_1_1, &err),
            CUZK_OK);
        size_t need = strlen(full) + 1, id_need = strlen(id) + 1;
        for (size_t cap = 0; cap < need; cap += cap < 8 ? 1 : 17) {
            memset(out, 'x', sizeof out);
            expect_arg(fil_params_stem(out, cap, (fil_circuit_kind)k, 32 * GIB, FIL_API_1_1, &err),
                       &err, "needed");
            assert_int_equal(out[cap], 'x'); /* nothing written past cap */
        }
        expect_arg(fil_params_stem(out, need - 1, (fil_circuit_kind)k, 32 * GIB, FIL_API_1_1, &err),
                   &err, "needed");
        assert_int_equal(
            fil_params_stem(out, need, (fil_circuit_kind)k, 32 * GIB, FIL_API_1_1, &err), CUZK_OK);
        assert_string_equal(out, full);
        expect_arg(fil_params_identifier(id, id_need - 1, (fil_circuit_kind)k, 32 * GIB,
                                         FIL_API_1_1, &err),
                   &err, "needed");
        assert_int_equal(
            fil_params_identifier(id, id_need, (fil_circuit_kind)k, 32 * GIB, FIL_API_1_1, &err),
            CUZK_OK);
    }
}

static void test_default_dir(void **state)
{
    (void)state;
    const char *was = getenv("FIL_PROOFS_PARAMETER_CACHE");
    char *saved = was ? strdup(was) : NULL;
    assert_int_equal(setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/fil-params", 1), 0);
    assert_string_equal(fil_params_dir_default(), "/srv/fil-params");
    assert_int_equal(setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1), 0);
    assert_string_equal(fil_params_dir_default(), "/var/tmp/filecoin-proof-parameters");
    assert_int_equal(unsetenv("FIL_PROOFS_PARAMETER_CACHE"), 0);
    assert_string_equal(fil_params_dir_default(), "/var/tmp/filecoin-proof-parameters");
    if (saved)
        assert_int_equal(setenv("FIL_PROOFS_PARAMETER_CACHE", saved, 1), 0);
    free(saved);
}

static void test_path(void **state)
{
    (void)state;
    /* as long as FIL_PARAMS_DIR_FALLBACK, and the longest stem: the
     * message still ends with the way out (CUZK_ERRMSG_MAX) */
    char dir[] = "/tmp/cuzk_filecoin_params_t_XXXXXX";
    assert_int_equal(strlen(dir), strlen(FIL_PARAMS_DIR_FALLBACK));
    assert_non_null(mkdtemp(dir));
    char stem[FIL_PARAMS_STEM_MAX], path[512], want[512];
    cuzk_error_t err = {0};
    assert_int_equal(
        fil_params_stem(stem, sizeof stem, FIL_CIRCUIT_POREP, 64 * GIB, FIL_API_1_1, &err),
        CUZK_OK);
    /* joins, with or without the folder's trailing '/' */
    assert_int_equal(fil_params_path(path, sizeof path, "/a/b", "x", "vk", 0, &err), CUZK_OK);
    assert_string_equal(path, "/a/b/x.vk");
    assert_int_equal(fil_params_path(path, sizeof path, "/a/b/", "x", "meta", 0, &err), CUZK_OK);
    assert_string_equal(path, "/a/b/x.meta");
    expect_arg(fil_params_path(path, 9, "/a/b", "x", "vk", 0, &err), &err, "needed");
    expect_arg(fil_params_path(path, sizeof path, "/a/b", "x", ".vk", 0, &err), &err, "ext");
    expect_arg(fil_params_path(path, sizeof path, "/a/b", "../x", "vk", 0, &err), &err, "stem");
    expect_arg(fil_params_path(path, sizeof path, "", "x", "vk", 0, &err), &err, "folder");
    expect_arg(fil_params_path(path, sizeof path, "/a", NULL, "vk", 0, &err), &err, "NULL");

    /* a missing file: named, with its folder and the way out */
    assert_int_equal(fil_params_path(path, sizeof path, dir, stem, "params", 1, &err), CUZK_ERR_IO);
    snprintf(want, sizeof want, "%s.params", stem);
    assert_non_null(strstr(err.msg, want));
    assert_non_null(strstr(err.msg, dir));
    assert_non_null(strstr(err.msg, "missing"));
    assert_non_null(strstr(err.msg, "--params-dir"));
    const char *hint = "; set --params-dir or FIL_PROOFS_PARAMETER_CACHE";
    assert_true(strlen(err.msg) > strlen(hint));
    assert_string_equal(err.msg + strlen(err.msg) - strlen(hint), hint);
    printf("  %s\n", err.msg);
    snprintf(want, sizeof want, "%s/%s.params", dir, stem);
    assert_string_equal(path, want);

    /* present: found, also through the default folder (dir NULL) */
    FILE *f = fopen(want, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(fil_params_path(path, sizeof path, dir, stem, "params", 1, &err), CUZK_OK);
    const char *was = getenv("FIL_PROOFS_PARAMETER_CACHE");
    char *saved = was ? strdup(was) : NULL;
    assert_int_equal(setenv("FIL_PROOFS_PARAMETER_CACHE", dir, 1), 0);
    assert_int_equal(fil_params_path(path, sizeof path, NULL, stem, "params", 1, &err), CUZK_OK);
    assert_string_equal(path, want);
    if (saved)
        assert_int_equal(setenv("FIL_PROOFS_PARAMETER_CACHE", saved, 1), 0);
    else
        assert_int_equal(unsetenv("FIL_PROOFS_PARAMETER_CACHE"), 0);
    free(saved);

    /* a "folder" that is a file: cannot read, with the reason */
    assert_int_equal(fil_params_path(path, sizeof path, want, stem, "vk", 1, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "cannot read v28-stacked-proof-of-replication"));
    char file_dir[64];
    snprintf(file_dir, sizeof file_dir, "%s/f", dir);
    assert_non_null(f = fopen(file_dir, "wb"));
    fclose(f);
    assert_int_equal(fil_params_path(path, sizeof path, file_dir, "x", "vk", 1, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "cannot read x.vk in"));
    assert_non_null(strstr(err.msg, file_dir));
    assert_non_null(strstr(err.msg, "(Not a directory); set --params-dir"));
    assert_int_equal(unlink(file_dir), 0);
    /* unreadable (root reads anything, so only as another user) */
    if (geteuid() != 0) {
        assert_int_equal(chmod(want, 0), 0);
        assert_int_equal(fil_params_path(path, sizeof path, dir, stem, "params", 1, &err),
                         CUZK_ERR_IO);
        assert_non_null(strstr(err.msg, "cannot read"));
        assert_non_null(strstr(err.msg, dir));
    }
    assert_int_equal(unlink(want), 0);

    /* a folder where the file should be */
    snprintf(want, sizeof want, "%s/%s.vk", dir, stem);
    assert_int_equal(mkdir(want, 0700), 0);
    assert_int_equal(fil_params_path(path, sizeof path, dir, stem, "vk", 1, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "not a regular file"));
    assert_int_equal(rmdir(want), 0);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    tu_init("test_filecoin_params");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_names),   cmocka_unit_test(test_identifier_literal),
        cmocka_unit_test(test_seal_proofs_share), cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_default_dir),       cmocka_unit_test(test_path),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
