/* The FallbackPoSt circuit (include/cuzk/filecoin_post.h) against
 * rust-fil-proofs' published sizes: its fallback_circuit.rs test circuits
 * and the production WinningPoSt and WindowPoSt circuits
 * (reference.json). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

static cs_counts_t count(const fil_post_shape_t *shape, unsigned sectors)
{
    cuzk_error_t err = {0};
    fil_post_sector_t *s = malloc(sizeof *s);
    assert_non_null(s);
    assert_int_equal(fil_post_sector_blank(s, shape, &err), CUZK_OK);
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, CS_COUNT, NULL), CUZK_OK);
    for (unsigned i = 0; i < sectors; i++)
        fil_cs_post_sector(cs, shape, s);
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("post circuit: %s", err.msg);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    free(s);
    return k;
}

/* fallback_circuit.rs: 64 leaves per base tree, 5 challenges per sector,
 * sector_count sectors per partition, expected inputs and constraints. */
static void test_rust_test_circuits(void **state)
{
    (void)state;
    static const struct {
        unsigned base, sub, top, sectors;
        uint64_t inputs, constraints;
    } cases[] = {
        {8, 0, 0, 3, 19, 16869},
        {8, 4, 0, 3, 19, 22674},
        {8, 4, 2, 3, 19, 27384},
        {8, 0, 0, 2, 13, 11246},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t trees = (cases[i].sub ? cases[i].sub : 1) * (cases[i].top ? cases[i].top : 1);
        fil_post_shape_t shape = {
            64 * trees, {FIL_HASHER_POSEIDON, cases[i].base, cases[i].sub, cases[i].top}, 5};
        cs_counts_t k = count(&shape, cases[i].sectors);
        assert_int_equal(k.constraints, cases[i].constraints);
        assert_int_equal(k.inputs, cases[i].inputs);
    }
    /* its bench_cs test: 32 GiB, 5 sectors x 10 challenges */
    fil_post_shape_t big = {(uint64_t)1 << 30, {FIL_HASHER_POSEIDON, 8, 8, 0}, 10};
    assert_int_equal(count(&big, 5).constraints, 266665);
}

/* WinningPoSt: 66 sectors x 1 challenge; WindowPoSt: the sector count of
 * the size (32 GiB: 2349, tree 8-8-0; 64 GiB: 2300, tree 8-8-2) x 10. */
static void test_production(void **state)
{
    (void)state;
    fil_post_shape_t win = {(uint64_t)1 << 30, {FIL_HASHER_POSEIDON, 8, 8, 0}, 1};
    cs_counts_t k = count(&win, 66);
    assert_int_equal(k.constraints, 370590);
    assert_int_equal(k.inputs, 1 + 66 * 2);
    /* the blank circuit the keys are made for (circuits.c: one sector
     * padded to the count, as fil_cs_post pads) counts the same */
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, CS_COUNT, NULL), CUZK_OK);
    assert_int_equal(fil_circuit_synth_blank(cs, FIL_CIRCUIT_WINNING_POST, (uint64_t)32 << 30,
                                             FIL_API_1_1, NULL),
                     CUZK_OK);
    cs_counts_t b;
    cs_counts(&b, cs);
    cs_free(cs);
    assert_memory_equal(&b, &k, sizeof b);
    fil_post_shape_t w32 = {(uint64_t)1 << 30, {FIL_HASHER_POSEIDON, 8, 8, 0}, 10};
    k = count(&w32, 2349);
    printf("test_filecoin_post: WindowPoSt 32 GiB: %llu constraints, %llu aux, %llu inputs\n",
           (unsigned long long)k.constraints, (unsigned long long)k.aux,
           (unsigned long long)k.inputs);
    assert_int_equal(k.constraints, 125279217);
    fil_post_shape_t w64 = {(uint64_t)1 << 31, {FIL_HASHER_POSEIDON, 8, 8, 2}, 10};
    k = count(&w64, 2300);
    printf("test_filecoin_post: WindowPoSt 64 GiB: %llu constraints, %llu aux, %llu inputs\n",
           (unsigned long long)k.constraints, (unsigned long long)k.aux,
           (unsigned long long)k.inputs);
    assert_int_equal(k.constraints, 129887900);
}

/* Real sectors: random replicas in trees of each test shape, comm_r =
 * Poseidon-2(comm_c, comm_r_last), 5 challenged leaves each: every
 * constraint holds, the inputs are comm_r and the leaf numbers, and a
 * wrong leaf is caught at its PoR's equality. */
static void test_real_witness(void **state)
{
    (void)state;
    static const unsigned shapes[][3] = {{8, 0, 0}, {8, 4, 0}, {8, 4, 2}};
    const poseidon_constants_t *c2 = NULL;
    assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        uint64_t trees = (shapes[si][1] ? shapes[si][1] : 1) * (shapes[si][2] ? shapes[si][2] : 1);
        fil_post_shape_t shape = {
            64 * trees, {FIL_HASHER_POSEIDON, shapes[si][0], shapes[si][1], shapes[si][2]}, 5};
        enum { SECTORS = 2 };
        fil_post_sector_t *s = calloc(SECTORS, sizeof *s);
        assert_non_null(s);
        uint64_t idx[SECTORS][5];
        for (int k = 0; k < SECTORS; k++) {
            fr_t *leaves = malloc(shape.nodes * sizeof *leaves);
            assert_non_null(leaves);
            for (uint64_t i = 0; i < shape.nodes; i++)
                tu_rand_fr(&leaves[i]);
            fil_merkle_tree_t *t = NULL;
            assert_int_equal(fil_merkle_tree_build(&t, &shape.tree, leaves, shape.nodes, NULL),
                             CUZK_OK);
            fil_merkle_tree_root(&s[k].comm_r_last, t);
            tu_rand_fr(&s[k].comm_c);
            fr_t in[2] = {s[k].comm_c, s[k].comm_r_last};
            assert_int_equal(poseidon_hash(&s[k].comm_r, c2, in, 2, POSEIDON_OPTIMIZED, NULL),
                             CUZK_OK);
            for (int j = 0; j < 5; j++) {
                idx[k][j] = j == 0 ? 0 : j == 1 ? shape.nodes - 1 : tu_rand64() % shape.nodes;
                s[k].leafs[j] = leaves[idx[k][j]];
                assert_int_equal(fil_merkle_tree_path(&s[k].paths[j], t, idx[k][j], NULL), CUZK_OK);
            }
            fil_merkle_tree_free(t);
            free(leaves);
        }
        cs_t *cs = NULL;
        assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
        for (int k = 0; k < SECTORS; k++)
            fil_cs_post_sector(cs, &shape, &s[k]);
        cuzk_error_t err;
        if (cs_status(cs, &err) != CUZK_OK)
            fail_msg("post: %s", err.msg);
        uint64_t bad;
        assert_int_equal(cs_unsatisfied(&bad, NULL, 0, cs), 0);
        size_t n_in;
        const fr_t *in = cs_input_values(cs, &n_in);
        assert_int_equal(n_in, 1 + SECTORS * 6);
        for (int k = 0; k < SECTORS; k++) {
            assert_true(fr_equal(&in[1 + 6 * k], &s[k].comm_r));
            for (int j = 0; j < 5; j++) {
                fr_t want;
                fr_from_u64(&want, idx[k][j]);
                assert_true(fr_equal(&in[2 + 6 * k + j], &want));
            }
        }
        cs_free(cs);
        /* a wrong leaf in the second sector's third challenge */
        fr_add(&s[1].leafs[2], &s[1].leafs[2], &FR_ONE);
        assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
        for (int k = 0; k < SECTORS; k++)
            fil_cs_post_sector(cs, &shape, &s[k]);
        char path[256];
        uint64_t row;
        assert_int_equal(cs_unsatisfied(&row, path, sizeof path, cs), 1);
        assert_non_null(strstr(path, "challenge_inclusion 2"));
        cs_free(cs);
        free(s);
    }
}

static void test_bad_shape(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_post_shape_t shape = {64, {FIL_HASHER_POSEIDON, 8, 0, 0}, 11};
    assert_int_equal(fil_post_shape_check(&shape, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "challenges"));
    shape.challenges = 1;
    shape.nodes = 100; /* not a tree of that shape */
    assert_int_equal(fil_post_shape_check(&shape, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_post");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rust_test_circuits),
        cmocka_unit_test(test_production),
        cmocka_unit_test(test_real_witness),
        cmocka_unit_test(test_bad_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
