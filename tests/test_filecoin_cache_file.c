/* The parent cache file where filecoin-proofs keeps it
 * (include/cuzk/filecoin_graph.h: fil_parent_cache_path / _ensure): made
 * once under $FIL_PROOFS_PARENT_CACHE with parent_cache.json's digest,
 * taken as it is the second time, a file of the wrong size refused, no
 * temporary file left behind. */
#include <dirent.h>
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
#include <openssl/evp.h>

#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_proofs.h"
#include "test_util.h"

static void file_sha256(char hex[65], const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    assert_true(EVP_DigestInit_ex(md, EVP_sha256(), NULL));
    uint8_t buf[1 << 16], d[32];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        EVP_DigestUpdate(md, buf, n);
    unsigned dn;
    EVP_DigestFinal_ex(md, d, &dn);
    EVP_MD_CTX_free(md);
    fclose(f);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_ensure(void **state)
{
    (void)state;
    char dir[] = "/tmp/cuzk_test_parents_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[256];
    snprintf(sub, sizeof sub, "%s/made-here", dir); /* created when missing */
    setenv("FIL_PROOFS_PARENT_CACHE", sub, 1);
    fil_graph_t g;
    cuzk_error_t err = {0};
    assert_int_equal(fil_graph_init_seal(&g, FIL_SEAL_2K_V1_1, &err), CUZK_OK);
    char path[512];
    int made = -1;
    assert_int_equal(fil_parent_cache_ensure(path, sizeof path, &made, &g, 1, &err), CUZK_OK);
    assert_int_equal(made, 1);
    assert_non_null(strstr(path, "/made-here/v28-sdr-parent-"));
    char hex[65];
    file_sha256(hex, path);
    /* parent_cache.json: 2 KiB, porep id 5 (V1_1) */
    assert_string_equal(hex, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97");
    assert_int_equal(count_entries(sub), 1); /* no temporary left */
    assert_int_equal(fil_parent_cache_ensure(path, sizeof path, &made, &g, 1, &err), CUZK_OK);
    assert_int_equal(made, 0);
    /* a file of another size is refused, not overwritten */
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("short", f);
    fclose(f);
    assert_int_equal(fil_parent_cache_ensure(path, sizeof path, &made, &g, 1, &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "remove it"));
    unlink(path);
    rmdir(sub);
    rmdir(dir);
    unsetenv("FIL_PROOFS_PARENT_CACHE");
    assert_int_equal(fil_parent_cache_path(path, sizeof path, &g, &err), CUZK_OK);
    assert_int_equal(strncmp(path, "/var/tmp/filecoin-parents/", 26), 0);
    assert_int_equal(fil_parent_cache_path(path, 8, &g, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_cache_file");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ensure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
