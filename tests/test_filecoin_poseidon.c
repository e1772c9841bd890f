/* filecoin-hashers' hash_md (include/cuzk/filecoin_poseidon.h): its test
 * (poseidon.rs test_hash_md_circuit: 71 ones, 2,770 constraints, the
 * circuit's value equals the native hash) and padded lengths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/cs_num.h"
#include "cuzk/filecoin_poseidon.h"
#include "test_util.h"

static void check_len(size_t n, const fr_t *vals, uint64_t want_constraints)
{
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
    cs_num_t *el = malloc(n * sizeof *el);
    assert_non_null(el);
    for (size_t i = 0; i < n; i++)
        el[i] = cs_num_alloc(cs, &vals[i]);
    cs_counts_t before;
    cs_counts(&before, cs);
    cs_num_t h = fil_cs_poseidon_hash_md(cs, el, n);
    cuzk_error_t err;
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("hash_md: %s", err.msg);
    uint64_t bad;
    assert_int_equal(cs_unsatisfied(&bad, NULL, 0, cs), 0);
    cs_counts_t k;
    cs_counts(&k, cs);
    if (want_constraints)
        assert_int_equal(k.constraints - before.constraints, want_constraints);
    fr_t native;
    assert_int_equal(fil_poseidon_hash_md(&native, vals, n, &err), CUZK_OK);
    assert_true(fr_equal(&native, &h.value));
    free(el);
    cs_free(cs);
}

static void test_rust_vector(void **state)
{
    (void)state;
    fr_t ones[71];
    for (int i = 0; i < 71; i++)
        ones[i] = FR_ONE;
    check_len(71, ones, 2770);
}

/* Random elements at lengths that pad the last block (2, 36, 37, 70). */
static void test_padded(void **state)
{
    (void)state;
    static const size_t lens[] = {2, 35, 36, 37, 70, 72};
    fr_t v[72];
    for (int i = 0; i < 72; i++) {
        uint64_t l[4] = {tu_rand64(), tu_rand64(), tu_rand64(), tu_rand64() >> 2};
        assert_int_equal(fr_from_limbs(&v[i], l), CUZK_OK);
    }
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t blocks = (lens[i] - 1 + 34) / 35;
        check_len(lens[i], v, 1385 * blocks);
    }
    cuzk_error_t err = {0};
    fr_t out;
    assert_int_equal(fil_poseidon_hash_md(&out, v, 1, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_poseidon");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rust_vector),
        cmocka_unit_test(test_padded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
