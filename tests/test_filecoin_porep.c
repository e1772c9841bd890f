/* The StackedDrg PoRep circuit (include/cuzk/filecoin_porep.h) against
 * rust-fil-proofs' published sizes: its own 2-layer test circuits
 * (storage-proofs-porep/tests/stacked_circuit.rs) and the production
 * 32 GiB partition (reference.json: constraints, aux, inputs and the A and
 * B densities the real proving key was made for). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_porep.h"
#include "test_util.h"

static cs_counts_t count(const fil_porep_shape_t *shape)
{
    cuzk_error_t err = {0};
    fil_porep_challenge_t *ch = calloc(shape->challenges, sizeof *ch);
    assert_non_null(ch);
    assert_int_equal(fil_porep_challenge_blank(&ch[0], shape, &err), CUZK_OK);
    for (unsigned i = 1; i < shape->challenges; i++)
        ch[i] = ch[0];
    fil_porep_public_t pub;
    memset(&pub, 0, sizeof pub);
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, CS_COUNT, NULL), CUZK_OK);
    fil_cs_porep(cs, shape, &pub, ch);
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("porep circuit: %s", err.msg);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    free(ch);
    return k;
}

/* stacked_circuit.rs: 2 layers, 1 interactive challenge, 8 nodes per base
 * tree, 22 inputs (ONE included) and these constraint counts. */
static void test_rust_test_circuits(void **state)
{
    (void)state;
    static const struct {
        unsigned base, sub, top;
        uint64_t constraints;
    } cases[] = {
        {2, 0, 0, 1206212},
        {8, 0, 0, 1199620},
        {8, 4, 0, 1296576},
        {8, 4, 2, 1346982},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t trees = (cases[i].sub ? cases[i].sub : 1) * (cases[i].top ? cases[i].top : 1);
        fil_porep_shape_t shape = {
            8 * trees, {FIL_HASHER_POSEIDON, cases[i].base, cases[i].sub, cases[i].top}, 2, 1};
        cs_counts_t k = count(&shape);
        printf("test_filecoin_porep: %u-%u-%u: %llu constraints, %llu inputs\n", cases[i].base,
               cases[i].sub, cases[i].top, (unsigned long long)k.constraints,
               (unsigned long long)k.inputs);
        assert_int_equal(k.constraints, cases[i].constraints);
        assert_int_equal(k.inputs, 22);
    }
}

/* The production 32 GiB partition: 2^30 nodes, tree 8-8-0, 11 layers, 18
 * challenges (reference.json production_circuits "porep 32GiB"). */
static void test_porep_32g(void **state)
{
    (void)state;
    fil_porep_shape_t shape = {(uint64_t)1 << 30, {FIL_HASHER_POSEIDON, 8, 8, 0}, 11, 18};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cs_counts_t k = count(&shape);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("test_filecoin_porep: 32 GiB partition: %llu constraints, %llu aux, %llu inputs, "
           "A-aux %llu, B-input %llu, B-aux %llu (counted in %.2f s)\n",
           (unsigned long long)k.constraints, (unsigned long long)k.aux,
           (unsigned long long)k.inputs, (unsigned long long)k.a_aux_density,
           (unsigned long long)k.b_input_density, (unsigned long long)k.b_aux_density,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    assert_int_equal(k.constraints, 130278541);
    assert_int_equal(k.aux, 130169893);
    assert_int_equal(k.inputs, 328);
    assert_int_equal(k.a_aux_density, 129753292);
    assert_int_equal(k.b_input_density, 1);
    assert_int_equal(k.b_aux_density, 33112281);
}

static void test_bad_shape(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_porep_shape_t shape = {8, {FIL_HASHER_POSEIDON, 8, 0, 0}, 3, 1};
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "layers"));
    shape.layers = 2;
    shape.challenges = 0;
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_ERR_ARG);
    shape.challenges = 1;
    shape.tree.hasher = FIL_HASHER_SHA256;
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_porep");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rust_test_circuits),
        cmocka_unit_test(test_porep_32g),
        cmocka_unit_test(test_bad_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
