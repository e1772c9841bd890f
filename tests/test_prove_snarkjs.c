/* The prover against snarkjs's own reference data (../shared/testdata/snarkjs):
 * with r = s = 0 our proof must equal proof_rs0.json byte for byte, and
 * public.json public_rs0.json; random proofs must verify under the shipped
 * verification_key.json; a witness that breaks a constraint must fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "cuzk/backend_cpu.h"
#include "cuzk/groth16.h"
#include "cuzk/key_load.h"
#include "cuzk/prover.h"
#include "cuzk/snarkjs_json.h"
#include "cuzk/wtns.h"

typedef struct snark_case {
    const char *name;
} snark_case_t;

static char *path_of(const char *name, const char *file)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/snarkjs/%s/%s", CUZK_TESTDATA_DIR, name, file);
    return buf[k];
}

typedef struct loaded {
    zkey_t z;
    wtns_t w;
    circuit_t c;
    groth16_pk_t pk;
} loaded_t;

/* Opening checks every key point once per case (ZKEY_CHECK_ALL costs
 * seconds for sha256_64), then tests work on copies of the loaded state. */
static void load_once(loaded_t *L, const char *name)
{
    char zk[64];
    snprintf(zk, sizeof zk, "%s.zkey", name);
    cuzk_error_t err = {0};
    memset(L, 0, sizeof *L);
    /* every point checked for the small case; sha256_64's 250k points are
     * checked by test_formats_snarkjs */
    zkey_check chk = strcmp(name, "multiplier") == 0 ? ZKEY_CHECK_ALL : ZKEY_CHECK_HEADER;
    assert_int_equal(zkey_open(&L->z, path_of(name, zk), chk, 0, &err), CUZK_OK);
    assert_int_equal(wtns_read(&L->w, path_of(name, "witness.wtns"), 0, &err), CUZK_OK);
    assert_int_equal(circuit_from_zkey(&L->c, &L->z, &err), CUZK_OK);
    assert_int_equal(groth16_pk_from_zkey(&L->pk, &L->z, &err), CUZK_OK);
    assert_int_equal(L->w.n, L->z.n_vars);
}

static loaded_t cache[2];
static const char *cache_name[2];

/* A view of the cached case with a private copy of the witness. */
static void load(loaded_t *L, const char *name)
{
    int k = strcmp(name, "multiplier") == 0 ? 0 : 1;
    if (!cache_name[k]) {
        load_once(&cache[k], name);
        cache_name[k] = name;
    }
    *L = cache[k];
    L->w.w = malloc(L->w.n * sizeof *L->w.w);
    assert_non_null(L->w.w);
    memcpy(L->w.w, cache[k].w.w, L->w.n * sizeof *L->w.w);
}

static void unload(loaded_t *L)
{
    free(L->w.w);
}

static int teardown_all(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        if (!cache_name[k])
            continue;
        groth16_pk_release(&cache[k].pk);
        circuit_free(&cache[k].c);
        wtns_free(&cache[k].w);
        zkey_close(&cache[k].z);
    }
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    return (char *)tu_read_file(path, len);
}

static void test_rs0_byte_exact(void **state)
{
    const snark_case_t *sc = *state;
    loaded_t L;
    load(&L, sc->name);
    groth16_proof_t proof;
    cuzk_error_t err = {0};
    assert_int_equal(groth16_prove(&proof, &L.pk, &L.c, L.w.w, &FR_ZERO, &FR_ZERO,
                                   &GROTH16_BACKEND_CPU, NULL, &err),
                     CUZK_OK);
    char *ours;
    size_t ours_len, want_len;
    assert_int_equal(snarkjs_proof_format(&ours, &ours_len, &proof, &err), CUZK_OK);
    char *want = slurp(path_of(sc->name, "proof_rs0.json"), &want_len);
    assert_non_null(want);
    assert_int_equal(ours_len, want_len);
    assert_memory_equal(ours, want, want_len);
    free(ours);
    free(want);
    assert_int_equal(snarkjs_public_format(&ours, &ours_len, &L.w.w[1], L.z.n_public, &err),
                     CUZK_OK);
    want = slurp(path_of(sc->name, "public_rs0.json"), &want_len);
    assert_non_null(want);
    assert_int_equal(ours_len, want_len);
    assert_memory_equal(ours, want, want_len);
    free(ours);
    free(want);
    unload(&L);
}

static void test_random_rs_verifies(void **state)
{
    const snark_case_t *sc = *state;
    loaded_t L;
    load(&L, sc->name);
    groth16_vk_t vk;
    cuzk_error_t err = {0};
    assert_int_equal(snarkjs_vk_read(&vk, path_of(sc->name, "verification_key.json"), &err),
                     CUZK_OK);
    for (int i = 0; i < 2; i++) {
        fr_t r, s;
        tu_rand_fr(&r);
        tu_rand_fr(&s);
        groth16_proof_t proof;
        groth16_prove_opts_t opts = {0, 1, NULL}; /* check below, with the shipped vk */
        assert_int_equal(
            groth16_prove(&proof, &L.pk, &L.c, L.w.w, &r, &s, &GROTH16_BACKEND_CPU, &opts, &err),
            CUZK_OK);
        int valid = 0;
        assert_int_equal(groth16_verify(&valid, &vk, &proof, &L.w.w[1], L.z.n_public, &err),
                         CUZK_OK);
        assert_true(valid);
        /* a changed public signal must not verify */
        fr_t bad[8];
        memcpy(bad, &L.w.w[1], L.z.n_public * sizeof *bad);
        fr_add(&bad[0], &bad[0], &FR_ONE);
        assert_int_equal(groth16_verify(&valid, &vk, &proof, bad, L.z.n_public, &err), CUZK_OK);
        assert_false(valid);
    }
    groth16_vk_free(&vk);
    unload(&L);
}

static void test_bad_witness_fails(void **state)
{
    const snark_case_t *sc = *state;
    loaded_t L;
    load(&L, sc->name);
    /* change a private wire: some constraint breaks, so the proof cannot verify */
    uint32_t at = L.z.n_vars - 1;
    fr_add(&L.w.w[at], &L.w.w[at], &FR_ONE);
    groth16_proof_t proof;
    cuzk_error_t err = {0};
    assert_int_equal(groth16_prove(&proof, &L.pk, &L.c, L.w.w, &FR_ZERO, &FR_ZERO,
                                   &GROTH16_BACKEND_CPU, NULL, &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "verification"));
    /* the r1cs names the constraint */
    char r1[64];
    snprintf(r1, sizeof r1, "%s.r1cs", sc->name);
    r1cs_t r;
    assert_int_equal(r1cs_read(&r, path_of(sc->name, r1), &err), CUZK_OK);
    int64_t first = -1;
    assert_int_equal(r1cs_check_witness(&first, &r, L.w.w, L.w.n, 0, &err), CUZK_OK);
    assert_true(first >= 0);
    r1cs_free(&r);
    /* a short witness is a usage error */
    L.w.w[at] = FR_ZERO;
    groth16_pk_t pk = L.pk;
    pk.n_vars = L.pk.n_vars + 1;
    assert_int_equal(groth16_prove(&proof, &pk, &L.c, L.w.w, &FR_ZERO, &FR_ZERO,
                                   &GROTH16_BACKEND_CPU, NULL, &err),
                     CUZK_ERR_ARG);
    unload(&L);
}

int main(void)
{
    tu_init("test_prove_snarkjs");
    static snark_case_t mult = {"multiplier"}, sha = {"sha256_64"};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_rs0_byte_exact, &mult),
        cmocka_unit_test_prestate(test_rs0_byte_exact, &sha),
        cmocka_unit_test_prestate(test_random_rs_verifies, &mult),
        cmocka_unit_test_prestate(test_random_rs_verifies, &sha),
        cmocka_unit_test_prestate(test_bad_witness_fails, &mult),
        cmocka_unit_test_prestate(test_bad_witness_fails, &sha),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}
