/* A recorded constraint system as the prover's circuit
 * (include/cuzk/circuit_record.h): the recorded rows then the input rows,
 * zero terms dropped; the witness of the same synthesis satisfies it; it
 * survives a .ccs round trip; and a bellperson-convention key made for it
 * proves and verifies with the recorded public inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/ccs.h"
#include "cuzk/circuit_record.h"
#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/groth16.h"
#include "cuzk/key.h"
#include "cuzk/poseidon.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"
#include "test_util.h"

/* p = x y public, the bits of x, a Poseidon-2 of (x, y) public, and one
 * constraint whose A merges y - y to a zero term: (x + y - y) * ONE = x. */
static void body(cs_t *cs, const fr_t *x, const fr_t *y)
{
    cs_num_t a = cs_num_alloc(cs, x), b = cs_num_alloc(cs, y);
    cs_num_t p = cs_num_mul(cs, &a, &b);
    cs_num_inputize(cs, &p);
    cs_bool_t bits[255];
    cs_num_to_bits_le(bits, cs, &a);
    const poseidon_constants_t *pc = NULL;
    assert_int_equal(poseidon_constants_get(&pc, 2, NULL), CUZK_OK);
    cs_num_t in[2] = {a, b}, h;
    cs_poseidon_hash(&h, cs, in, 2, pc);
    cs_num_inputize(cs, &h);
    cs_lc_t *la, *lb, *lc;
    cs_enforce_begin(cs, &la, &lb, &lc);
    cs_lc_add(cs, la, a.var, NULL);
    cs_lc_add(cs, la, b.var, NULL);
    cs_lc_sub(cs, la, b.var, NULL);
    cs_lc_add(cs, lb, CS_ONE, NULL);
    cs_lc_add(cs, lc, a.var, NULL);
    cs_enforce(cs, la, lb, lc);
}

static cs_t *synth(cs_mode mode, const fr_t *x, const fr_t *y)
{
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, mode, NULL), CUZK_OK);
    body(cs, x, y);
    cuzk_error_t err;
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("cs: %s", err.msg);
    return cs;
}

/* The witness vector of circuit.h: ONE, the inputs, the aux values. */
static fr_t *witness_of(const cs_t *cs, size_t *n)
{
    size_t n_in, n_aux;
    const fr_t *in = cs_input_values(cs, &n_in), *aux = cs_aux_values(cs, &n_aux);
    fr_t *w = malloc((n_in + n_aux) * sizeof *w);
    assert_non_null(w);
    memcpy(w, in, n_in * sizeof *w);
    memcpy(w + n_in, aux, n_aux * sizeof *w);
    *n = n_in + n_aux;
    return w;
}

static void rand_fr(fr_t *out)
{
    uint64_t l[4] = {tu_rand64(), tu_rand64(), tu_rand64(), tu_rand64() >> 2};
    assert_int_equal(fr_from_limbs(out, l), CUZK_OK);
}

/* The slow, obviously correct conversion: every recorded term through
 * circuit_builder (which drops zeros and sorts), then the input rows. */
static void reference_circuit(circuit_t *out, const cs_t *cs)
{
    cs_record_matrix_t mat[3];
    const fr_t *dict;
    uint32_t n_dict;
    assert_int_equal(cs_record_matrices(mat, &dict, &n_dict, cs, NULL), CUZK_OK);
    cs_counts_t k;
    cs_counts(&k, cs);
    circuit_builder_t *b =
        circuit_builder_new((uint32_t)(k.constraints + k.inputs), (uint32_t)(k.inputs + k.aux),
                            (uint32_t)(k.inputs - 1));
    assert_non_null(b);
    for (int m = 0; m < 3; m++)
        for (uint64_t r = 0; r < k.constraints; r++)
            for (uint64_t e = mat[m].row_ptr[r]; e < mat[m].row_ptr[r + 1]; e++)
                assert_int_equal(
                    circuit_builder_add(b, (circuit_matrix)m, (uint32_t)r,
                                        (uint32_t)cs_record_column(mat[m].var[e], k.inputs),
                                        &dict[mat[m].coef[e]], NULL),
                    CUZK_OK);
    for (uint64_t i = 0; i < k.inputs; i++)
        assert_int_equal(circuit_builder_add(b, CIRCUIT_A, (uint32_t)(k.constraints + i),
                                             (uint32_t)i, &FR_ONE, NULL),
                         CUZK_OK);
    assert_int_equal(circuit_builder_finish(out, b, NULL), CUZK_OK);
}

/* Same rows, columns and coefficient values (dictionaries may number them
 * differently). */
static void expect_same_circuit(const circuit_t *a, const circuit_t *b)
{
    assert_int_equal(a->n_rows, b->n_rows);
    assert_int_equal(a->n_vars, b->n_vars);
    assert_int_equal(a->n_public, b->n_public);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(a->m[m].nnz, b->m[m].nnz);
        assert_memory_equal(a->m[m].row_ptr, b->m[m].row_ptr,
                            ((size_t)a->n_rows + 1) * sizeof *a->m[m].row_ptr);
        for (uint64_t e = 0; e < a->m[m].nnz; e++) {
            assert_int_equal(a->m[m].col[e], b->m[m].col[e]);
            assert_true(fr_equal(&a->dict[a->m[m].coef[e]], &b->dict[b->m[m].coef[e]]));
        }
    }
}

static void test_shape_and_witness(void **state)
{
    (void)state;
    fr_t x, y;
    rand_fr(&x);
    rand_fr(&y);
    cs_t *rec = synth(CS_RECORD, &x, &y), *wit = synth(CS_WITNESS, &x, &y);
    cs_counts_t k;
    cs_counts(&k, rec);
    circuit_t c;
    cuzk_error_t err = {0};
    assert_int_equal(circuit_from_record(&c, rec, &err), CUZK_OK);
    assert_int_equal(k.inputs, 3); /* ONE, p, h */
    assert_int_equal(c.n_rows, k.constraints + k.inputs);
    assert_int_equal(c.n_vars, k.inputs + k.aux);
    assert_int_equal(c.n_public, 2);
    assert_int_equal(ccs_validate(&c, &err), CUZK_OK);
    circuit_t ref;
    reference_circuit(&ref, rec);
    expect_same_circuit(&c, &ref);
    circuit_free(&ref);
    /* the last recorded row: A holds x alone (y merged to zero, dropped) */
    uint32_t last = (uint32_t)k.constraints - 1;
    assert_int_equal(c.m[CIRCUIT_A].row_ptr[last + 1] - c.m[CIRCUIT_A].row_ptr[last], 1);
    /* the input rows: A = input i, B = C = 0 */
    for (uint32_t i = 0; i < k.inputs; i++) {
        uint32_t r = (uint32_t)k.constraints + i;
        uint64_t at = c.m[CIRCUIT_A].row_ptr[r];
        assert_int_equal(c.m[CIRCUIT_A].row_ptr[r + 1] - at, 1);
        assert_int_equal(c.m[CIRCUIT_A].col[at], i);
        assert_true(fr_is_one(&c.dict[c.m[CIRCUIT_A].coef[at]]));
        assert_int_equal(c.m[CIRCUIT_B].row_ptr[r + 1], c.m[CIRCUIT_B].row_ptr[r]);
        assert_int_equal(c.m[CIRCUIT_C].row_ptr[r + 1], c.m[CIRCUIT_C].row_ptr[r]);
    }
    for (uint32_t i = 0; i < c.n_dict; i++)
        assert_false(fr_is_zero(&c.dict[i]));
    size_t n;
    fr_t *w = witness_of(wit, &n);
    assert_int_equal(n, c.n_vars);
    uint32_t bad;
    assert_int_equal(circuit_check(&bad, &c, w, 1), CUZK_OK);
    assert_int_equal(bad, UINT32_MAX);
    /* a wrong public product fails its inputize row */
    fr_add(&w[1], &w[1], &FR_ONE);
    assert_int_equal(circuit_check(&bad, &c, w, 1), CUZK_OK);
    assert_int_equal(bad, 1); /* row 1: the inputize of p */

    /* a .ccs round trip keeps it exactly */
    char path[] = "/tmp/cuzk_test_record_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ccs_write_file(path, &c, &err), CUZK_OK);
    circuit_t back;
    assert_int_equal(ccs_read_file(&back, path, 1, &err), CUZK_OK);
    unlink(path);
    assert_int_equal(back.n_rows, c.n_rows);
    assert_int_equal(back.n_dict, c.n_dict);
    assert_memory_equal(back.dict, c.dict, c.n_dict * sizeof *c.dict);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(back.m[m].nnz, c.m[m].nnz);
        assert_memory_equal(back.m[m].row_ptr, c.m[m].row_ptr,
                            ((size_t)c.n_rows + 1) * sizeof *c.m[m].row_ptr);
        assert_memory_equal(back.m[m].col, c.m[m].col, c.m[m].nnz * sizeof *c.m[m].col);
        assert_memory_equal(back.m[m].coef, c.m[m].coef, c.m[m].nnz * sizeof *c.m[m].coef);
    }
    circuit_free(&back);
    free(w);
    circuit_free(&c);
    cs_free(rec);
    cs_free(wit);
}

/* The recorded circuit is one a bellperson-convention key proves. */
static void test_prove_verify(void **state)
{
    (void)state;
    fr_t x, y;
    rand_fr(&x);
    rand_fr(&y);
    cs_t *rec = synth(CS_RECORD, &x, &y), *wit = synth(CS_WITNESS, &x, &y);
    circuit_t c;
    cuzk_error_t err = {0};
    assert_int_equal(circuit_from_record(&c, rec, &err), CUZK_OK);
    groth16_key_t key;
    assert_int_equal(groth16_setup(&key, &c, GROTH16_BELLPERSON, tu_rand64(), 0, &err), CUZK_OK);
    groth16_pk_t pk;
    groth16_key_pk(&pk, &key);
    size_t n;
    fr_t *w = witness_of(wit, &n);
    groth16_proof_t proof;
    fr_t r, s;
    rand_fr(&r);
    rand_fr(&s);
    assert_int_equal(groth16_prove(&proof, &pk, &c, w, &r, &s, &GROTH16_BACKEND_CPU, NULL, &err),
                     CUZK_OK);
    int valid = 0;
    assert_int_equal(groth16_verify(&valid, &pk.vk, &proof, w + 1, 2, &err), CUZK_OK);
    assert_true(valid);
    fr_t wrong[2] = {w[1], w[2]};
    fr_add(&wrong[1], &wrong[1], &FR_ONE);
    assert_int_equal(groth16_verify(&valid, &pk.vk, &proof, wrong, 2, &err), CUZK_OK);
    assert_false(valid);
    free(w);
    groth16_key_free(&key);
    circuit_free(&c);
    cs_free(rec);
    cs_free(wit);
}

/* Taking the record over converts it in place to exactly the circuit the
 * copying conversion makes; the cs then has no record left. */
static void test_take_matches_copy(void **state)
{
    (void)state;
    fr_t x, y;
    rand_fr(&x);
    rand_fr(&y);
    cs_t *a = synth(CS_RECORD, &x, &y), *b = synth(CS_RECORD, &x, &y);
    circuit_t ca, cb;
    cuzk_error_t err = {0};
    assert_int_equal(circuit_from_record(&ca, a, &err), CUZK_OK);
    assert_int_equal(circuit_from_record_take(&cb, b, &err), CUZK_OK);
    assert_int_equal(cb.n_rows, ca.n_rows);
    assert_int_equal(cb.n_vars, ca.n_vars);
    assert_int_equal(cb.n_public, ca.n_public);
    assert_int_equal(cb.n_dict, ca.n_dict);
    assert_memory_equal(cb.dict, ca.dict, ca.n_dict * sizeof *ca.dict);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(cb.m[m].nnz, ca.m[m].nnz);
        assert_memory_equal(cb.m[m].row_ptr, ca.m[m].row_ptr,
                            ((size_t)ca.n_rows + 1) * sizeof *ca.m[m].row_ptr);
        assert_memory_equal(cb.m[m].col, ca.m[m].col, ca.m[m].nnz * sizeof *ca.m[m].col);
        assert_memory_equal(cb.m[m].coef, ca.m[m].coef, ca.m[m].nnz * sizeof *ca.m[m].coef);
    }
    /* nothing left to take or read; a constraint now is an error */
    circuit_t again;
    assert_int_equal(circuit_from_record_take(&again, b, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "taken"));
    assert_int_equal(circuit_from_record(&again, b, &err), CUZK_ERR_ARG);
    cs_num_t n = cs_num_alloc(b, &x);
    cs_num_square(b, &n);
    assert_int_equal(cs_status(b, &err), CUZK_ERR_ARG);
    circuit_free(&ca);
    circuit_free(&cb);
    cs_free(a);
    cs_free(b);
}

static void test_errors(void **state)
{
    (void)state;
    fr_t x = FR_ONE, y = FR_ONE;
    cs_t *cnt = synth(CS_COUNT, &x, &y);
    circuit_t c;
    cuzk_error_t err = {0};
    assert_int_equal(circuit_from_record(&c, cnt, &err), CUZK_ERR_ARG);
    assert_int_equal(c.n_rows, 0);
    cs_free(cnt);
    cs_t *bad = NULL;
    assert_int_equal(cs_new(&bad, CS_RECORD, NULL), CUZK_OK);
    cs_fail(bad, CUZK_ERR_ARG, "a gadget's contract broken on purpose");
    assert_int_equal(circuit_from_record(&c, bad, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "on purpose"));
    cs_free(bad);
    assert_int_equal(circuit_from_record(&c, NULL, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_circuit_record");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_and_witness),
        cmocka_unit_test(test_prove_verify),
        cmocka_unit_test(test_take_matches_copy),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
