/* Public inputs of Filecoin partitions (include/cuzk/filecoin_inputs.h)
 * against real proofs: the 10 partitions of a 32 GiB seal
 * (../shared/testdata/filecoin/seal32_x10.prf: every one of the 3,270
 * inputs rederived from replica_id, comm_d, comm_r and the challenges),
 * the input counts of the real WinningPoSt and WindowPoSt keys, and the
 * real WindowPoSt vanilla proof's leaf challenges (reference.json
 * post_vproof: randomness 0, sector 1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/bellperson.h"
#include "cuzk/filecoin_inputs.h"
#include "test_util.h"

#define FIL_DIR CUZK_TESTDATA_DIR "/filecoin/"

static void fr_bytes(uint8_t out[32], const fr_t *x)
{
    fr_to_le(out, x);
}

/* seal32_x10.prf is a StackedDrg32GiBV1 proof (API 1.0 graph rules): with
 * its own challenges, every input matches; the V1_1 rules do not. */
static void test_porep_real_seal(void **state)
{
    (void)state;
    bellperson_prf_t prf;
    cuzk_error_t err = {0};
    if (bellperson_prf_load(&prf, BELLPERSON_PRF_BATCH, FIL_DIR "seal32_x10.prf", &err) != CUZK_OK)
        fail_msg("seal32_x10.prf: %s", err.msg);
    assert_int_equal(prf.n_proofs, 10);
    assert_int_equal(prf.n_inputs, 327);
    const fil_seal_info_t *info = fil_seal_info(FIL_SEAL_32G_V1);
    assert_int_equal(info->partitions, 10);
    assert_int_equal(FIL_POREP_INPUTS_HEADER +
                         FIL_POREP_INPUTS_PER_CHALLENGE * info->challenges_per_partition,
                     327);
    fr_t got[327];
    for (size_t p = 0; p < prf.n_proofs; p++) {
        const fr_t *want = &prf.inputs[p * prf.n_inputs];
        uint8_t rid[32], cd[32], cr[32];
        fr_bytes(rid, &want[0]);
        fr_bytes(cd, &want[1]);
        fr_bytes(cr, &want[2]);
        uint64_t ch[18];
        for (unsigned i = 0; i < 18; i++) {
            uint8_t b[32];
            fr_bytes(b, &want[3 + 18 * i]);
            memcpy(&ch[i], b, 8); /* little-endian hosts only, as the project */
        }
        size_t n = 0;
        if (fil_porep_inputs_at(got, 327, &n, FIL_SEAL_32G_V1, rid, cd, cr, ch, 18, &err) !=
            CUZK_OK)
            fail_msg("partition %zu: %s", p, err.msg);
        assert_int_equal(n, 327);
        for (size_t i = 0; i < n; i++)
            if (!fr_equal(&got[i], &want[i]))
                fail_msg("partition %zu input %zu differs", p, i);
        if (p == 0) { /* the other graph rules give other parents */
            assert_int_equal(
                fil_porep_inputs_at(got, 327, &n, FIL_SEAL_32G_V1_1, rid, cd, cr, ch, 18, &err),
                CUZK_OK);
            assert_false(fr_equal(&got[4], &want[4]) && fr_equal(&got[10], &want[10]));
        }
    }
    bellperson_prf_free(&prf);
}

/* The real keys' input counts: WinningPoSt 66 x (comm_r + 1 leaf),
 * WindowPoSt 2349 x (comm_r + 10 leaves); in the real WinningPoSt proof
 * every comm_r is the one sector's and the 66 leaves differ. */
static void test_post_counts(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_post_params_t win, win2;
    assert_int_equal(
        fil_post_params(&win, FIL_CIRCUIT_WINNING_POST, (uint64_t)32 << 30, FIL_API_1_1, &err),
        CUZK_OK);
    assert_int_equal(win.sector_count * (1 + win.challenge_count), 132);
    assert_int_equal(
        fil_post_params(&win2, FIL_CIRCUIT_WINDOW_POST, (uint64_t)32 << 30, FIL_API_1_2, &err),
        CUZK_OK);
    assert_int_equal(win2.sector_count * (1 + win2.challenge_count), 25839);
    assert_int_equal(fil_post_partitions(&win2, 2349), 1);
    assert_int_equal(fil_post_partitions(&win2, 2350), 2);
    assert_int_equal(fil_post_partitions(&win2, 0), 1);

    bellperson_prf_t prf;
    if (bellperson_prf_load(&prf, BELLPERSON_PRF_AUTO, FIL_DIR "winning32.prf", &err) != CUZK_OK)
        fail_msg("winning32.prf: %s", err.msg);
    assert_int_equal(prf.n_inputs, 132);
    for (size_t i = 1; i < 66; i++) {
        assert_true(fr_equal(&prf.inputs[2 * i], &prf.inputs[0]));
        assert_false(fr_equal(&prf.inputs[2 * i + 1], &prf.inputs[1]));
    }
    bellperson_prf_free(&prf);
    if (bellperson_prf_load(&prf, BELLPERSON_PRF_AUTO, FIL_DIR "window.prf", &err) != CUZK_OK)
        fail_msg("window.prf: %s", err.msg);
    assert_int_equal(prf.n_inputs, 25839);
    bellperson_prf_free(&prf);

    assert_int_not_equal(
        fil_post_params(&win, FIL_CIRCUIT_POREP, (uint64_t)32 << 30, FIL_API_1_1, &err), CUZK_OK);
    assert_non_null(strstr(err.msg, "not a PoSt"));
    assert_int_not_equal(fil_post_params(&win, FIL_CIRCUIT_WINDOW_POST, 12345, FIL_API_1_1, &err),
                         CUZK_OK);
}

/* reference.json post_vproof: the real sector's 10 leaves (randomness 0,
 * sector 1, first in its partition, so every API version agrees), as
 * inputs of a WindowPoSt partition whose other 2348 places repeat it. */
static void test_post_leaves(void **state)
{
    (void)state;
    static const uint64_t LEAVES[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                        6202012,   1055504637, 389535735, 1000069704, 600088878};
    cuzk_error_t err = {0};
    uint8_t rnd[32] = {0};
    for (int api = FIL_API_1_0; api <= FIL_API_1_2; api++) {
        fil_post_params_t pp;
        assert_int_equal(fil_post_params(&pp, FIL_CIRCUIT_WINDOW_POST, (uint64_t)32 << 30,
                                         (fil_api_version)api, &err),
                         CUZK_OK);
        uint64_t got[10];
        assert_int_equal(fil_post_sector_leaves(got, &pp, rnd, 1, 0, &err), CUZK_OK);
        for (unsigned i = 0; i < 10; i++)
            assert_int_equal(got[i], LEAVES[i]);
        /* the second place: another challenge index before 1.2 only */
        assert_int_equal(fil_post_sector_leaves(got, &pp, rnd, 1, 1, &err), CUZK_OK);
        assert_true((got[0] == LEAVES[0]) == (api == FIL_API_1_2));

        fil_post_pub_sector_t s = {1, {0}};
        s.comm_r[0] = 7;
        size_t cap = 25839, n = 0;
        fr_t *in = malloc(cap * sizeof *in);
        assert_non_null(in);
        assert_int_equal(fil_post_inputs(in, cap, &n, &pp, rnd, &s, 1, 0, &err), CUZK_OK);
        assert_int_equal(n, cap);
        fr_t want;
        fr_from_u64(&want, 7);
        for (size_t sec = 0; sec < pp.sector_count; sec += 587) {
            assert_true(fr_equal(&in[11 * sec], &want));
            for (unsigned i = 0; i < 10; i++) {
                fr_t l;
                fr_from_u64(&l, LEAVES[i]);
                assert_true(fr_equal(&in[11 * sec + 1 + i], &l));
            }
        }
        assert_int_equal(fil_post_inputs(in, cap, &n, &pp, rnd, &s, 1, 1, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "holds no sector"));
        assert_int_equal(fil_post_inputs(in, cap - 1, &n, &pp, rnd, &s, 1, 0, &err), CUZK_ERR_ARG);
        s.comm_r[31] = 0xff;
        assert_int_equal(fil_post_inputs(in, cap, &n, &pp, rnd, &s, 1, 0, &err),
                         CUZK_ERR_NONCANONICAL);
        assert_non_null(strstr(err.msg, "comm_r"));
        free(in);
    }
    fil_post_params_t pp;
    assert_int_equal(
        fil_post_params(&pp, FIL_CIRCUIT_WINNING_POST, (uint64_t)32 << 30, FIL_API_1_1, &err),
        CUZK_OK);
    memset(rnd, 0xff, sizeof rnd);
    uint64_t got[1];
    assert_int_equal(fil_post_sector_leaves(got, &pp, rnd, 1, 0, &err), CUZK_ERR_NONCANONICAL);
    assert_non_null(strstr(err.msg, "randomness"));
    /* WinningPoSt's verifier list: one sector 66 times, 66 leaves */
    fil_post_pub_sector_t one = {5, {1}}, list[66];
    fil_post_winning_sectors(list, &pp, &one);
    memset(rnd, 3, sizeof rnd);
    rnd[31] = 0;
    fr_t in[132];
    size_t n;
    assert_int_equal(fil_post_inputs(in, 132, &n, &pp, rnd, list, 66, 0, &err), CUZK_OK);
    assert_false(fr_equal(&in[1], &in[3]));
}

/* Derived challenges: in range, deterministic, per partition different,
 * and the inputs list them; bad arguments are refused. */
static void test_porep_derived(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    uint8_t rid[32], cd[32], cr[32], seed[32];
    memset(rid, 1, 32);
    memset(cd, 2, 32);
    memset(cr, 3, 32);
    memset(seed, 4, 32);
    rid[31] = cd[31] = cr[31] = 0;
    static const fil_seal_proof proofs[] = {FIL_SEAL_2K_V1_1, FIL_SEAL_8M_V1,
                                            FIL_SEAL_2K_V1_1_SYNTH, FIL_SEAL_2K_V1_2_NI,
                                            FIL_SEAL_32G_V1_1};
    for (size_t pi = 0; pi < sizeof proofs / sizeof proofs[0]; pi++) {
        const fil_seal_info_t *info = fil_seal_info(proofs[pi]);
        uint64_t a[256], b[256];
        size_t na = 0, nb = 0;
        assert_int_equal(
            fil_porep_partition_challenges(a, 256, &na, proofs[pi], rid, cr, seed, 0, &err),
            CUZK_OK);
        assert_int_equal(na, info->challenges_per_partition);
        for (size_t i = 0; i < na; i++)
            assert_true(a[i] >= 1 && a[i] < info->nodes);
        size_t cap = FIL_POREP_INPUTS_HEADER + FIL_POREP_INPUTS_PER_CHALLENGE * na, n = 0;
        fr_t *in = malloc(cap * sizeof *in);
        assert_non_null(in);
        assert_int_equal(fil_porep_inputs(in, cap, &n, proofs[pi], rid, cd, cr, seed, 0, &err),
                         CUZK_OK);
        assert_int_equal(n, cap);
        for (size_t i = 0; i < na; i++) {
            fr_t c;
            fr_from_u64(&c, a[i]);
            assert_true(fr_equal(&in[3 + 18 * i], &c));
            assert_true(fr_equal(&in[3 + 18 * i + 17], &c));
        }
        assert_int_equal(fil_porep_inputs(in, cap - 1, &n, proofs[pi], rid, cd, cr, seed, 0, &err),
                         CUZK_ERR_ARG);
        free(in);
        if (info->partitions > 1) {
            assert_int_equal(
                fil_porep_partition_challenges(b, 256, &nb, proofs[pi], rid, cr, seed, 1, &err),
                CUZK_OK);
            assert_int_not_equal(memcmp(a, b, na * sizeof a[0]), 0);
        }
        assert_int_equal(fil_porep_partition_challenges(b, 256, &nb, proofs[pi], rid, cr, seed,
                                                        info->partitions, &err),
                         CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "partitions"));
    }
    uint64_t zero = 0;
    fr_t in[21];
    size_t n;
    assert_int_equal(fil_porep_inputs_at(in, 21, &n, FIL_SEAL_2K_V1_1, rid, cd, cr, &zero, 1, &err),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "challenge 0"));
    cd[31] = 0xff;
    uint64_t one = 1;
    assert_int_equal(fil_porep_inputs_at(in, 21, &n, FIL_SEAL_2K_V1_1, rid, cd, cr, &one, 1, &err),
                     CUZK_ERR_NONCANONICAL);
    assert_non_null(strstr(err.msg, "comm_d"));
}

int main(void)
{
    tu_init("test_filecoin_inputs");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_porep_real_seal),
        cmocka_unit_test(test_post_counts),
        cmocka_unit_test(test_post_leaves),
        cmocka_unit_test(test_porep_derived),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
