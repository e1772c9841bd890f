/* The CUDA backend's memory plan for several workers sharing one device
 * (cuzk_cuda_backend_plan_shared): host arithmetic only, so it runs
 * without a GPU. One copy of key and circuit, scratch per worker, while
 * that fits; past it each worker streams on its share of the budget; too
 * small a budget is refused with the numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cuda_backend.h"
#include "cuzk/gen.h"
#include "cuzk/setup.h"

static void test_shared_plan(void **state)
{
    (void)state;
    gen_shape_t sh;
    circuit_t c;
    cuzk_error_t e = {0};
    assert_int_equal(gen_porep_shape(&sh, 12, &e), CUZK_OK);
    assert_int_equal(gen_porep_circuit(&c, &sh, 5, 0, &e), CUZK_OK);
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, 77);
    groth16_key_t key;
    assert_int_equal(groth16_setup_toxic(&key, &c, GROTH16_BELLPERSON, &tw, 0, &e), CUZK_OK);
    groth16_pk_t pk;
    groth16_key_pk(&pk, &key);

    cuzk_cuda_plan_t one, two, four;
    assert_int_equal(cuzk_cuda_backend_plan(&one, &pk, &c, 0, &e), CUZK_OK);
    assert_false(one.streaming);
    assert_true(one.key_bytes > 0 && one.circuit_bytes > 0 && one.scratch_bytes > 0);
    assert_int_equal(one.total, one.key_bytes + one.circuit_bytes + one.scratch_bytes);
    assert_int_equal(cuzk_cuda_backend_plan_shared(&two, &pk, &c, 0, 2, &e), CUZK_OK);
    assert_int_equal(cuzk_cuda_backend_plan_shared(&four, &pk, &c, 0, 4, &e), CUZK_OK);
    /* one copy of key and circuit, scratch for each worker */
    assert_int_equal(two.total, one.key_bytes + one.circuit_bytes + 2 * one.scratch_bytes);
    assert_int_equal(four.total, one.key_bytes + one.circuit_bytes + 4 * one.scratch_bytes);
    assert_int_equal(two.key_bytes, one.key_bytes);
    assert_int_equal(two.scratch_bytes, one.scratch_bytes);

    /* exactly enough for two sharing: resident */
    assert_int_equal(cuzk_cuda_backend_plan_shared(&two, &pk, &c, two.total, 2, &e), CUZK_OK);
    assert_false(two.streaming);
    /* one byte less: each streams on half the budget, its numbers its own */
    size_t budget = one.key_bytes + one.circuit_bytes + 2 * one.scratch_bytes - 1;
    cuzk_status st = cuzk_cuda_backend_plan_shared(&two, &pk, &c, budget, 2, &e);
    if (st == CUZK_OK) {
        assert_true(two.streaming);
        assert_true(two.total <= budget / 2);
        assert_true(two.chunk_points >= 4096);
    } else { /* a half too small even to stream: refused, naming the share */
        assert_int_equal(st, CUZK_ERR_NOMEM);
        assert_non_null(strstr(e.msg, "per worker"));
    }
    /* the single plan agrees with the shared one for one worker */
    cuzk_cuda_plan_t a, b;
    size_t small = one.total / 2;
    cuzk_status sa = cuzk_cuda_backend_plan(&a, &pk, &c, small, &e);
    cuzk_status sb = cuzk_cuda_backend_plan_shared(&b, &pk, &c, small, 1, &e);
    assert_int_equal(sa, sb);
    assert_memory_equal(&a, &b, sizeof a);
    /* far too small: refused with the numbers */
    assert_int_equal(cuzk_cuda_backend_plan_shared(&b, &pk, &c, 4096, 2, &e), CUZK_ERR_NOMEM);
    assert_non_null(strstr(e.msg, "VRAM budget"));
    assert_int_equal(cuzk_cuda_backend_plan_shared(&b, &pk, &c, 0, 0, &e), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_backend_plan_shared(NULL, &pk, &c, 0, 1, &e), CUZK_ERR_ARG);
    groth16_key_free(&key);
    circuit_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
