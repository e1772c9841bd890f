/* The constraint system (cs.h) and the small gadgets: linear-combination
 * merging as bellpepper's Indexer, densities as bellperson's
 * ProvingAssignment, the check back end, and each gadget's constraint and
 * aux counts (../shared/testdata/filecoin/circuits/NOTES.md §2) and values
 * against plain C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_insertion.h"
#include "cuzk/cs_multipack.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "cs_fixture.h"
#include "test_util.h"

static const cs_mode MODES[] = {CS_COUNT, CS_WITNESS, CS_CHECK, CS_RECORD};
#define N_MODES (sizeof MODES / sizeof MODES[0])

static int rand_bit(void)
{
    return (int)(tu_rand64() & 1);
}

/* ---- linear combinations and densities --------------------------------- */

static void test_lc_merge(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_COUNT);
    cs_var_t x = cs_alloc(cs, NULL), y = cs_alloc(cs, NULL), in = cs_alloc_input(cs, NULL);
    cs_lc_t *lc = cs_lc_get(cs);
    fr_t two, three;
    fr_from_u64(&two, 2);
    fr_from_u64(&three, 3);
    /* y + 2x + in - y + x + ONE: y merges to a kept zero, x to 3 */
    cs_lc_add(cs, lc, y, NULL);
    cs_lc_add(cs, lc, x, &two);
    cs_lc_add(cs, lc, in, NULL);
    cs_lc_sub(cs, lc, y, NULL);
    cs_lc_add(cs, lc, x, NULL);
    cs_lc_add(cs, lc, CS_ONE, NULL);
    cs_lc_normalize(cs, lc);
    assert_int_equal(lc->n, 4);
    /* inputs first (ONE, in), then aux (x, y), each by index */
    assert_int_equal(lc->terms[0].var, CS_ONE);
    assert_int_equal(lc->terms[1].var, in);
    assert_int_equal(lc->terms[2].var, x);
    assert_int_equal(lc->terms[3].var, y);
    assert_true(fr_equal(&lc->terms[2].coeff, &three));
    assert_true(fr_is_zero(&lc->terms[3].coeff));
    /* a long combination takes the hashed merge: 40 variables, each added
     * three times with coefficients 1, 2, -3 (sum 0) or 1, 1, 1 (sum 3) */
    cs_var_t v[40];
    for (int i = 0; i < 40; i++)
        v[i] = cs_alloc(cs, NULL);
    cs_lc_clear(lc);
    fr_t m3;
    fr_neg(&m3, &three);
    for (int r = 0; r < 3; r++)
        for (int i = 39; i >= 0; i--)
            cs_lc_add(cs, lc, v[i], i % 2 ? &FR_ONE : r == 0 ? &FR_ONE : r == 1 ? &two : &m3);
    cs_lc_normalize(cs, lc);
    assert_int_equal(lc->n, 40);
    for (int i = 0; i < 40; i++) {
        assert_int_equal(lc->terms[i].var, v[i]);
        assert_true(i % 2 ? fr_equal(&lc->terms[i].coeff, &three)
                          : fr_is_zero(&lc->terms[i].coeff));
    }
    cs_lc_put(cs, lc);
    csf_assert_ok(cs);
    cs_free(cs);
}

/* cs_lc_normalize (small, windowed and hashed merges, insertion and radix
 * sorts) against an obviously correct merge: for each variable in order,
 * the sum of its coefficients, present iff it was added. */
static void test_lc_normalize_random(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_COUNT);
    for (int i = 0; i < 200000; i++)
        cs_alloc(cs, NULL);
    fr_t coeffs[4];
    fr_from_u64(&coeffs[0], 1);
    fr_neg(&coeffs[1], &coeffs[0]);
    fr_from_u64(&coeffs[2], 2);
    fr_neg(&coeffs[3], &coeffs[2]);
    int iters = tu_iters(300);
    for (int it = 0; it < iters; it++) {
        uint32_t n = 1 + (uint32_t)(tu_rand64() % (it % 3 == 0 ? 12 : 3000));
        uint32_t aux_span = 1 + (uint32_t)(tu_rand64() % (it % 2 ? 200000 : 2 * n + 1));
        uint32_t in_span = 1 + (uint32_t)(tu_rand64() % (it % 5 == 0 ? 40 : 3));
        uint32_t base = (uint32_t)(tu_rand64() % (200001 - aux_span));
        cs_lc_t *lc = cs_lc_get(cs);
        cs_term_t *ref = malloc(n * sizeof *ref);
        uint32_t n_ref = 0;
        for (uint32_t i = 0; i < n; i++) {
            cs_var_t v = tu_rand64() % 4 == 0
                             ? (cs_var_t)(tu_rand64() % in_span)
                             : CS_VAR_AUX | (base + (uint32_t)(tu_rand64() % aux_span));
            const fr_t *c = &coeffs[tu_rand64() % 4];
            cs_lc_add(cs, lc, v, c);
            uint32_t j = 0;
            while (j < n_ref && ref[j].var != v)
                j++;
            if (j == n_ref) {
                ref[n_ref].var = v;
                ref[n_ref++].coeff = *c;
            } else {
                fr_add(&ref[j].coeff, &ref[j].coeff, c);
            }
        }
        for (uint32_t i = 1; i < n_ref; i++) /* sort the reference */
            for (uint32_t j = i; j > 0 && ref[j - 1].var > ref[j].var; j--) {
                cs_term_t x = ref[j];
                ref[j] = ref[j - 1];
                ref[j - 1] = x;
            }
        cs_lc_normalize(cs, lc);
        assert_int_equal(lc->n, n_ref);
        for (uint32_t i = 0; i < n_ref; i++) {
            assert_int_equal(lc->terms[i].var, ref[i].var);
            assert_true(fr_equal(&lc->terms[i].coeff, &ref[i].coeff));
        }
        cs_lc_put(cs, lc);
        free(ref);
    }
    csf_assert_ok(cs);
    cs_free(cs);
}

/* Densities on a hand-made circuit, counted by hand from bellperson's rules:
 * A over aux, B over inputs and aux, non-zero merged coefficients only. */
static void test_density(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODES; m++) {
        cs_t *cs = csf_new(MODES[m]);
        fr_t v2, v3, v6;
        fr_from_u64(&v2, 2);
        fr_from_u64(&v3, 3);
        fr_from_u64(&v6, 6);
        cs_var_t x = cs_alloc(cs, &v2), y = cs_alloc(cs, &v3), z = cs_alloc(cs, &v6);
        cs_var_t in = cs_alloc_input(cs, &v3);
        cs_var_t unused = cs_alloc(cs, &v2);
        (void)unused;
        cs_lc_t *a, *b, *c;
        /* (x + y - y) * (in) = z: y has a zero merged coefficient in A */
        cs_enforce_begin(cs, &a, &b, &c);
        cs_lc_add(cs, a, x, NULL);
        cs_lc_add(cs, a, y, NULL);
        cs_lc_sub(cs, a, y, NULL);
        cs_lc_add(cs, b, in, NULL);
        cs_lc_add(cs, c, z, NULL);
        cs_enforce(cs, a, b, c);
        /* (ONE) * (y - ONE + ONE) = y: ONE merges to zero in B */
        cs_enforce_begin(cs, &a, &b, &c);
        cs_lc_add(cs, a, CS_ONE, NULL);
        cs_lc_add(cs, b, y, NULL);
        cs_lc_sub(cs, b, CS_ONE, NULL);
        cs_lc_add(cs, b, CS_ONE, NULL);
        cs_lc_add(cs, c, y, NULL);
        cs_enforce(cs, a, b, c);
        /* x * x = ... twice over the same variables: counted once */
        cs_enforce_begin(cs, &a, &b, &c);
        cs_lc_add(cs, a, x, NULL);
        cs_lc_add(cs, b, x, NULL);
        fr_t v4;
        fr_from_u64(&v4, 4);
        cs_lc_add(cs, c, CS_ONE, &v4);
        cs_enforce(cs, a, b, c);
        cs_counts_t k = csf_counts(cs);
        assert_int_equal(k.constraints, 3);
        assert_int_equal(k.aux, 4);
        assert_int_equal(k.inputs, 2);
        assert_int_equal(k.a_aux_density, 1);   /* x */
        assert_int_equal(k.b_input_density, 1); /* in (ONE's B coefficient is zero) */
        assert_int_equal(k.b_aux_density, 2);   /* y, x */
        csf_assert_ok(cs);
        if (MODES[m] == CS_RECORD) {
            cs_record_matrix_t mat[3];
            const fr_t *dict;
            uint32_t n_dict;
            assert_int_equal(cs_record_matrices(mat, &dict, &n_dict, cs, NULL), CUZK_OK);
            /* zero coefficients are recorded (y in A, ONE in B) */
            assert_int_equal(mat[0].nnz, 4);
            assert_int_equal(mat[1].nnz, 4);
            assert_int_equal(mat[2].nnz, 3);
            assert_int_equal(mat[0].row_ptr[1], 2);
            assert_int_equal(mat[1].var[1], CS_ONE); /* row 1 of B: ONE, then y */
            assert_true(fr_is_zero(&dict[mat[1].coef[1]]));
            assert_int_equal(mat[1].var[2], y);
            assert_int_equal(n_dict, 3); /* 1, 0, 4 */
            assert_int_equal(cs_record_column(z, k.inputs), 2 + 2);
        }
        cs_free(cs);
    }
}

/* ---- booleans ------------------------------------------------------------ */

static cs_bool_t make_bool(cs_t *cs, int kind, int value)
{
    if (kind == CS_BOOL_CONST)
        return cs_bool_const(value);
    cs_bool_t b = cs_bit_alloc(cs, kind == CS_BOOL_NOT ? !value : value);
    return kind == CS_BOOL_NOT ? cs_bool_not(&b) : b;
}

/* Constraints each Boolean operation costs by the states of its operands
 * (boolean.rs): xor and and are free when a side is constant. */
static void test_boolean_tables(void **state)
{
    (void)state;
    for (int ka = 0; ka < 3; ka++)
        for (int kb = 0; kb < 3; kb++)
            for (int va = 0; va < 2; va++)
                for (int vb = 0; vb < 2; vb++) {
                    cs_t *cs = csf_new(CS_CHECK);
                    cs_bool_t a = make_bool(cs, ka, va), b = make_bool(cs, kb, vb);
                    uint64_t c0 = csf_counts(cs).constraints;
                    int free_op = ka == CS_BOOL_CONST || kb == CS_BOOL_CONST;
                    cs_bool_t x = cs_bool_xor(cs, &a, &b);
                    assert_int_equal(x.value, va ^ vb);
                    assert_int_equal(csf_counts(cs).constraints - c0, free_op ? 0 : 1);
                    cs_bool_t y = cs_bool_and(cs, &a, &b);
                    assert_int_equal(y.value, va & vb);
                    assert_int_equal(csf_counts(cs).constraints - c0, free_op ? 0 : 2);
                    /* a Not result of xor only for mixed Is/Not */
                    if (!free_op)
                        assert_int_equal(x.kind, ka == kb ? CS_BOOL_IS : CS_BOOL_NOT);
                    /* the results hold their values in the witness */
                    cs_bool_enforce_equal(cs, &x, &x);
                    csf_assert_ok(cs);
                    cs_free(cs);
                }
}

static void test_boolean_ch_maj(void **state)
{
    (void)state;
    for (int k = 0; k < 27; k++)
        for (int v = 0; v < 8; v++) {
            int ka = k % 3, kb = k / 3 % 3, kc = k / 9;
            int va = v & 1, vb = v >> 1 & 1, vc = v >> 2 & 1;
            cs_t *cs = csf_new(CS_CHECK);
            cs_bool_t a = make_bool(cs, ka, va), b = make_bool(cs, kb, vb),
                      c = make_bool(cs, kc, vc);
            uint64_t c0 = csf_counts(cs).constraints, a0 = csf_counts(cs).aux;
            cs_bool_t ch = cs_bool_sha256_ch(cs, &a, &b, &c);
            assert_int_equal(ch.value, (va & vb) ^ ((!va) & vc));
            uint64_t c1 = csf_counts(cs).constraints;
            cs_bool_t maj = cs_bool_sha256_maj(cs, &a, &b, &c);
            assert_int_equal(maj.value, (va & vb) ^ (va & vc) ^ (vb & vc));
            int all_var = ka != CS_BOOL_CONST && kb != CS_BOOL_CONST && kc != CS_BOOL_CONST;
            if (all_var) { /* the general cases: 1/1 and 2/2 */
                assert_int_equal(c1 - c0, 1);
                assert_int_equal(csf_counts(cs).constraints - c1, 2);
                assert_int_equal(csf_counts(cs).aux - a0, 3);
            }
            if (ka == CS_BOOL_CONST && kb == CS_BOOL_CONST && kc == CS_BOOL_CONST)
                assert_int_equal(csf_counts(cs).constraints, c0);
            /* force the results into constraints so check sees them */
            cs_bool_t t = cs_bool_const(ch.value), u = cs_bool_const(maj.value);
            cs_bool_enforce_equal(cs, &ch, &t);
            cs_bool_enforce_equal(cs, &maj, &u);
            csf_assert_ok(cs);
            cs_free(cs);
        }
}

static void test_bit_counts(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_CHECK);
    cs_bool_t a = cs_bit_alloc(cs, 1), b = cs_bit_alloc(cs, 0);
    assert_int_equal(csf_counts(cs).constraints, 2);
    assert_int_equal(csf_counts(cs).aux, 2);
    cs_bool_t r[4] = {cs_bit_xor(cs, &a, &b), cs_bit_and(cs, &a, &b), cs_bit_and_not(cs, &a, &b),
                      cs_bit_nor(cs, &a, &b)};
    assert_int_equal(csf_counts(cs).constraints, 6);
    assert_int_equal(csf_counts(cs).aux, 6);
    assert_int_equal(r[0].value, 1);
    assert_int_equal(r[1].value, 0);
    assert_int_equal(r[2].value, 1);
    assert_int_equal(r[3].value, 0);
    csf_assert_ok(cs);
    cs_free(cs);
}

/* ---- nums ----------------------------------------------------------------- */

static void test_num(void **state)
{
    (void)state;
    int iters = tu_iters(20);
    for (int it = 0; it < iters; it++) {
        for (size_t m = 0; m < N_MODES; m++) {
            cs_t *cs = csf_new(MODES[m]);
            fr_t xv, yv;
            tu_rand_fr(&xv);
            tu_rand_fr(&yv);
            cs_num_t x = cs_num_alloc(cs, &xv), y = cs_num_alloc(cs, &yv);
            cs_bool_t bits[255];
            cs_num_to_bits_le(bits, cs, &x);
            cs_counts_t k = csf_counts(cs);
            assert_int_equal(k.constraints, 256);
            assert_int_equal(k.aux, 2 + 255);
            cs_num_t p = cs_num_mul(cs, &x, &y), s = cs_num_square(cs, &x);
            cs_num_inputize(cs, &p);
            cs_num_t sum = cs_num_add(cs, &x, &y), dif = cs_num_sub(cs, &x, &y);
            cs_num_equal(cs, &sum, &sum);
            k = csf_counts(cs);
            assert_int_equal(k.constraints, 256 + 6);
            assert_int_equal(k.aux, 257 + 4);
            assert_int_equal(k.inputs, 2);
            if (cs_has_values(cs)) {
                uint64_t l[4];
                fr_to_limbs(l, &xv);
                for (int i = 0; i < 255; i++)
                    assert_int_equal(bits[i].value, (l[i / 64] >> (i % 64)) & 1);
                fr_t e;
                fr_mul(&e, &xv, &yv);
                assert_true(fr_equal(&p.value, &e));
                fr_sqr(&e, &xv);
                assert_true(fr_equal(&s.value, &e));
                fr_add(&e, &xv, &yv);
                assert_true(fr_equal(&sum.value, &e));
                fr_sub(&e, &xv, &yv);
                assert_true(fr_equal(&dif.value, &e));
                size_t n;
                const fr_t *in = cs_input_values(cs, &n);
                assert_int_equal(n, 2);
                assert_true(fr_is_one(&in[0]));
                assert_true(fr_equal(&in[1], &p.value));
            }
            csf_assert_ok(cs);
            cs_free(cs);
        }
    }
}

/* Num: a combination with its value, allocated at the end (the shape of
 * neptune's Poseidon elements). */
static void test_lcnum(void **state)
{
    (void)state;
    for (size_t m = 0; m < N_MODES; m++) {
        cs_t *cs = csf_new(MODES[m]);
        fr_t xv, k, e;
        tu_rand_fr(&xv);
        tu_rand_fr(&k);
        cs_num_t x = cs_num_alloc(cs, &xv);
        cs_bool_t bit = cs_bit_alloc(cs, 1), t = cs_bool_const(1);
        cs_lcnum_t n, o;
        cs_lcnum_from_num(&n, cs, &x);
        cs_lcnum_init(&o, cs);
        cs_lcnum_add_bool(cs, &o, &bit, &k);    /* k * bit */
        cs_lcnum_add_bool(cs, &o, &t, &FR_ONE); /* + 1 */
        cs_lcnum_add(cs, &n, &o);               /* x + k + 1 */
        cs_lcnum_scale(cs, &n, &k);             /* k (x + k + 1) */
        cs_num_t y = cs_lcnum_alloc(cs, &n);
        assert_int_equal(n.lc->n, 3); /* ONE, x, bit */
        assert_int_equal(csf_counts(cs).constraints, 2);
        assert_int_equal(csf_counts(cs).aux, 3);
        if (cs_has_values(cs)) {
            fr_add(&e, &xv, &k);
            fr_add(&e, &e, &FR_ONE);
            fr_mul(&e, &e, &k);
            assert_true(fr_equal(&y.value, &e));
        }
        cs_lcnum_release(&n, cs);
        cs_lcnum_release(&o, cs);
        csf_assert_ok(cs);
        cs_free(cs);
    }
}

/* ---- uint32 ---------------------------------------------------------------- */

static void test_uint32_addmany(void **state)
{
    (void)state;
    int iters = tu_iters(50);
    for (int it = 0; it < iters; it++) {
        size_t n = 2 + (size_t)(tu_rand64() % 9);
        int kinds = (int)(tu_rand64() % 3); /* 0 all constant, 1 mixed, 2 all allocated */
        cs_t *cs = csf_new(CS_CHECK);
        cs_u32_t ops[10];
        const cs_u32_t *p[10];
        int any_var = 0;
        for (size_t k = 0; k < n; k++) {
            uint32_t v = (uint32_t)tu_rand64();
            if (tu_rand64() % 8 == 0)
                v = UINT32_MAX;
            int var = kinds == 2 || (kinds == 1 && rand_bit());
            any_var |= var;
            if (var)
                cs_u32_alloc(&ops[k], cs, v);
            else
                cs_u32_const(&ops[k], v);
            if (var && rand_bit()) /* some Not bits (the value follows them) */
                for (int i = 0; i < 32; i += 3)
                    ops[k].bits[i] = cs_bool_not(&ops[k].bits[i]);
            p[k] = &ops[k];
        }
        uint32_t expect = 0;
        for (size_t k = 0; k < n; k++)
            expect += cs_u32_value(&ops[k]);
        cs_counts_t k0 = csf_counts(cs);
        cs_multieq_t me;
        cs_multieq_init(&me, cs);
        cs_u32_t r;
        cs_u32_addmany(&r, &me, p, n);
        cs_multieq_finish(&me);
        cs_counts_t k1 = csf_counts(cs);
        unsigned width = n == 2 ? 33 : n <= 4 ? 34 : n <= 8 ? 35 : 36;
        if (any_var) {
            assert_int_equal(k1.aux - k0.aux, width);
            assert_int_equal(k1.constraints - k0.constraints, width + 1);
            assert_false(cs_u32_is_const(&r));
        } else {
            assert_int_equal(k1.constraints, k0.constraints);
            assert_true(cs_u32_is_const(&r));
        }
        assert_int_equal(cs_u32_value(&r), expect);
        csf_assert_ok(cs);
        cs_free(cs);
    }
}

/* Seven 35-bit additions fill a MultiEq (7 * 35 = 245 < 254); the eighth
 * flushes first, after its own 35 boolean constraints. */
static void test_multieq_flush(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_CHECK);
    cs_u32_t ops[5];
    const cs_u32_t *p[5];
    for (int k = 0; k < 5; k++) {
        cs_u32_alloc(&ops[k], cs, (uint32_t)tu_rand64());
        p[k] = &ops[k];
    }
    cs_multieq_t me;
    cs_multieq_init(&me, cs);
    uint64_t c0 = csf_counts(cs).constraints;
    cs_u32_t r;
    for (int j = 0; j < 7; j++)
        cs_u32_addmany(&r, &me, p, 5);
    assert_int_equal(csf_counts(cs).constraints - c0, 7 * 35);
    cs_u32_addmany(&r, &me, p, 5);
    assert_int_equal(csf_counts(cs).constraints - c0, 8 * 35 + 1);
    cs_multieq_finish(&me);
    assert_int_equal(csf_counts(cs).constraints - c0, 8 * 35 + 2);
    csf_assert_ok(cs);
    cs_free(cs);
}

static void test_uint32_ops(void **state)
{
    (void)state;
    int iters = tu_iters(20);
    for (int it = 0; it < iters; it++) {
        cs_t *cs = csf_new(CS_CHECK);
        uint32_t va = (uint32_t)tu_rand64(), vb = (uint32_t)tu_rand64(), vc = (uint32_t)tu_rand64();
        cs_u32_t a, b, c, r, t;
        cs_u32_alloc(&a, cs, va);
        cs_u32_const(&b, vb);
        cs_u32_alloc(&c, cs, vc);
        unsigned by = (unsigned)(tu_rand64() % 32);
        cs_u32_rotr(&r, &a, by);
        assert_int_equal(cs_u32_value(&r), (va >> by) | (va << ((32 - by) % 32)));
        cs_u32_shr(&r, &a, by);
        assert_int_equal(cs_u32_value(&r), va >> by);
        cs_u32_xor(&r, cs, &a, &b);
        assert_int_equal(cs_u32_value(&r), va ^ vb);
        cs_u32_sha256_ch(&r, cs, &a, &b, &c);
        assert_int_equal(cs_u32_value(&r), (va & vb) ^ (~va & vc));
        cs_u32_sha256_maj(&r, cs, &a, &b, &c);
        assert_int_equal(cs_u32_value(&r), (va & vb) ^ (va & vc) ^ (vb & vc));
        cs_bool_t be[32];
        cs_u32_into_bits_be(be, &a);
        cs_u32_from_bits_be(&t, be);
        assert_int_equal(cs_u32_value(&t), va);
        assert_int_equal(be[0].value, va >> 31);
        csf_assert_ok(cs);
        cs_free(cs);
    }
}

static void test_uint64(void **state)
{
    (void)state;
    cs_t *cs = csf_new(CS_CHECK);
    uint64_t v = tu_rand64();
    cs_u64_t x, y;
    cs_u64_alloc(&x, cs, v);
    assert_int_equal(csf_counts(cs).constraints, 64);
    assert_int_equal(csf_counts(cs).aux, 64);
    assert_int_equal(cs_u64_value(&x), v);
    cs_u64_pack_into_input(cs, &x);
    assert_int_equal(csf_counts(cs).constraints, 65);
    assert_int_equal(csf_counts(cs).inputs, 2);
    size_t n;
    const fr_t *in = cs_input_values(cs, &n);
    fr_t e;
    fr_from_u64(&e, v);
    assert_true(fr_equal(&in[1], &e));
    cs_bool_t be[64];
    cs_u64_to_bits_be(be, &x);
    cs_u64_from_bits_be(&y, be);
    assert_int_equal(cs_u64_value(&y), v);
    cs_u64_const(&y, v);
    assert_int_equal(cs_u64_value(&y), v);
    csf_assert_ok(cs);
    cs_free(cs);
}

/* ---- insertion ---------------------------------------------------------- */

static void test_insertion(void **state)
{
    (void)state;
    static const unsigned costs[4] = {0, 2, 8, 22};
    for (size_t n_bits = 1; n_bits <= 4; n_bits++) {
        size_t size = (size_t)1 << n_bits;
        for (size_t idx = 0; idx < size; idx++) {
            cs_t *cs = csf_new(CS_CHECK);
            cs_num_t elems[15], elem, out[16];
            fr_t ev[16];
            for (size_t i = 0; i < size; i++)
                tu_rand_fr(&ev[i]);
            elem = cs_num_alloc(cs, &ev[size - 1]);
            for (size_t i = 0; i + 1 < size; i++)
                elems[i] = cs_num_alloc(cs, &ev[i]);
            cs_bool_t bits[4];
            for (size_t i = 0; i < n_bits; i++)
                bits[i] = cs_bit_alloc(cs, (int)((idx >> i) & 1));
            cs_counts_t k0 = csf_counts(cs);
            cs_insert(out, cs, &elem, bits, n_bits, elems);
            cs_counts_t k1 = csf_counts(cs);
            /* general insertion: size selects of size - 1 picks */
            uint64_t cost = n_bits <= 3 ? costs[n_bits] : size * (size - 1);
            assert_int_equal(k1.constraints - k0.constraints, cost);
            assert_int_equal(k1.aux - k0.aux, cost);
            for (size_t pos = 0; pos < size; pos++) {
                const fr_t *want = pos < idx ? &ev[pos] : pos == idx ? &ev[size - 1] : &ev[pos - 1];
                assert_true(fr_equal(&out[pos].value, want));
            }
            /* select picks out[idx] = elem again */
            cs_num_t s = cs_select(cs, out, bits, n_bits);
            assert_int_equal(csf_counts(cs).constraints - k1.constraints, size - 1);
            assert_true(fr_equal(&s.value, &ev[size - 1]));
            csf_assert_ok(cs);
            cs_free(cs);
        }
    }
    /* pick: 1/1; insert_8 wants allocated, unnegated low bits */
    cs_t *cs = csf_new(CS_CHECK);
    fr_t av, bv;
    tu_rand_fr(&av);
    tu_rand_fr(&bv);
    cs_num_t a = cs_num_alloc(cs, &av), b = cs_num_alloc(cs, &bv);
    cs_bool_t t = cs_bool_const(1), f = cs_bit_alloc(cs, 0);
    cs_num_t p = cs_pick(cs, &t, &a, &b);
    assert_true(fr_equal(&p.value, &av));
    p = cs_pick(cs, &f, &a, &b);
    assert_true(fr_equal(&p.value, &bv));
    assert_int_equal(csf_counts(cs).constraints, 3);
    csf_assert_ok(cs);
    cs_bool_t bad[3] = {cs_bool_not(&f), f, f};
    cs_num_t el[7] = {a, a, a, a, a, a, a}, out8[8];
    cs_insert_8(out8, cs, &b, bad, el);
    assert_int_equal(cs_status(cs, NULL), CUZK_ERR_ARG);
    cs_free(cs);
}

/* ---- multipack ---------------------------------------------------------- */

static void test_multipack(void **state)
{
    (void)state;
    size_t sizes[] = {0, 1, 253, 254, 255, 508, 509, 777};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        uint8_t *bits = malloc(n + 1);
        cs_bool_t *cb = malloc((n + 1) * sizeof *cb);
        cs_t *cs = csf_new(CS_CHECK);
        for (size_t i = 0; i < n; i++) {
            bits[i] = (uint8_t)rand_bit();
            int kind = (int)(tu_rand64() % 3);
            cb[i] = make_bool(cs, kind, bits[i]);
        }
        cs_counts_t k0 = csf_counts(cs);
        cs_pack_into_inputs(cs, cb, n);
        size_t chunks = cs_multipacking_len(n);
        assert_int_equal(chunks, (n + 253) / 254);
        cs_counts_t k1 = csf_counts(cs);
        assert_int_equal(k1.inputs - k0.inputs, chunks);
        assert_int_equal(k1.constraints - k0.constraints, chunks);
        fr_t *want = malloc((chunks + 1) * sizeof *want);
        cs_compute_multipacking(want, bits, n);
        size_t n_in;
        const fr_t *in = cs_input_values(cs, &n_in);
        for (size_t c = 0; c < chunks; c++) {
            /* by hand: bit i of the chunk is 2^i */
            uint64_t l[4] = {0, 0, 0, 0};
            for (size_t i = 0; i < 254 && c * 254 + i < n; i++)
                l[i / 64] |= (uint64_t)bits[c * 254 + i] << (i % 64);
            fr_t h;
            assert_int_equal(fr_from_limbs(&h, l), CUZK_OK);
            assert_true(fr_equal(&want[c], &h));
            assert_true(fr_equal(&in[k0.inputs + c], &h));
        }
        cs_num_t packed = cs_pack_bits(cs, cb, n);
        assert_int_equal(csf_counts(cs).constraints - k1.constraints, 1);
        if (chunks)
            assert_true(fr_equal(&packed.value, &want[0]));
        csf_assert_ok(cs);
        cs_free(cs);
        free(want);
        free(bits);
        free(cb);
    }
}

/* ---- the check back end ---------------------------------------------------- */

/* A small circuit: 32 bits, a xor with another word, an addition. */
static void small_circuit(cs_t *cs, uint32_t x, uint32_t y)
{
    cs_u32_t a, b, r;
    cs_ns_push(cs, "a", -1);
    cs_u32_alloc(&a, cs, x);
    cs_ns_pop(cs);
    cs_ns_push(cs, "b", -1);
    cs_u32_alloc(&b, cs, y);
    cs_ns_pop(cs);
    cs_ns_push(cs, "xor", -1);
    cs_u32_xor(&r, cs, &a, &b);
    cs_ns_pop(cs);
    cs_multieq_t me;
    cs_multieq_init(&me, cs);
    const cs_u32_t *ops[2] = {&a, &r};
    cs_ns_push(cs, "add", -1);
    cs_u32_addmany(&r, &me, ops, 2);
    cs_ns_pop(cs);
    cs_multieq_finish(&me);
}

static void test_check_fault(void **state)
{
    (void)state;
    uint32_t x = (uint32_t)tu_rand64(), y = (uint32_t)tu_rand64();
    cs_t *cs = csf_new(CS_CHECK);
    small_circuit(cs, x, y);
    csf_assert_ok(cs);
    uint64_t row;
    assert_int_equal(cs_unsatisfied(&row, NULL, 0, cs), 0);
    cs_counts_t good = csf_counts(cs);
    cs_free(cs);

    /* 2 in a bit: its own boolean constraint (row = index for the first 64) */
    cs = csf_new(CS_CHECK);
    fr_t two;
    fr_from_u64(&two, 2);
    cs_set_fault(cs, 37, &two);
    small_circuit(cs, x, y);
    char path[128];
    assert_int_equal(cs_unsatisfied(&row, path, sizeof path, cs), 1);
    assert_int_equal(row, 37);
    assert_string_equal(path, "b/allocated bit 5");
    cuzk_error_t err;
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "constraint 37 (b/allocated bit 5)"));
    cs_free(cs);

    /* a flipped xor result (aux 64 + i): its xor constraint, row 64 + i */
    unsigned i = (unsigned)(tu_rand64() % 32);
    cs = csf_new(CS_CHECK);
    int bit = (int)(((x ^ y) >> i) & 1);
    cs_set_fault(cs, 64 + i, bit ? &FR_ZERO : &FR_ONE);
    small_circuit(cs, x, y);
    assert_int_equal(cs_unsatisfied(&row, path, sizeof path, cs), 1);
    assert_int_equal(row, 64 + i);
    char want[64];
    snprintf(want, sizeof want, "xor/xor of bit %u", i);
    assert_string_equal(path, want);
    /* synthesis went on: the sizes are those of the good run */
    cs_counts_t bad = csf_counts(cs);
    assert_memory_equal(&bad, &good, sizeof good);
    cs_free(cs);

    /* a flipped result bit of the addition: only the MultiEq row sees it */
    cs = csf_new(CS_CHECK);
    uint64_t sum = (uint64_t)x + (x ^ y);
    cs_set_fault(cs, 96 + 32, ((sum >> 32) & 1) ? &FR_ZERO : &FR_ONE);
    small_circuit(cs, x, y);
    assert_int_equal(cs_unsatisfied(&row, path, sizeof path, cs), 1);
    assert_int_equal(row, good.constraints - 1);
    assert_string_equal(path, "multieq 0");
    cs_free(cs);
}

/* Every back end sees the same sizes. */
static void test_modes_agree(void **state)
{
    (void)state;
    uint32_t x = (uint32_t)tu_rand64(), y = (uint32_t)tu_rand64();
    cs_counts_t k[N_MODES];
    for (size_t m = 0; m < N_MODES; m++) {
        cs_t *cs = csf_new(MODES[m]);
        if (m % 2) /* sized up front, or grown as it goes: the same */
            assert_int_equal(cs_reserve(cs, 200, 2), CUZK_OK);
        small_circuit(cs, x, y);
        csf_assert_ok(cs);
        k[m] = csf_counts(cs);
        size_t n_aux, n_in;
        const fr_t *aux = cs_aux_values(cs, &n_aux);
        const fr_t *in = cs_input_values(cs, &n_in);
        if (cs_has_values(cs)) {
            assert_non_null(aux);
            assert_non_null(in);
            assert_int_equal(n_aux, k[m].aux);
            assert_int_equal(n_in, k[m].inputs);
        } else {
            assert_null(aux);
        }
        cs_free(cs);
    }
    for (size_t m = 1; m < N_MODES; m++)
        assert_memory_equal(&k[m], &k[0], sizeof k[0]);
    assert_int_equal(k[0].constraints, 64 + 32 + 33 + 1);
    /* A: the bits of a and b and the 33 result bits (boolean constraints),
     * and the xor results (the MultiEq's sum side) */
    assert_int_equal(k[0].a_aux_density, 32 + 32 + 33 + 32);
    assert_int_equal(k[0].b_input_density, 1); /* ONE in the MultiEq row */
}

/* ---- fingerprint stream -------------------------------------------------- */

typedef struct byte_sink {
    uint8_t buf[4096];
    size_t n;
} byte_sink_t;

static void sink_update(void *ctx, const uint8_t *data, size_t n)
{
    byte_sink_t *s = ctx;
    assert_true(s->n + n <= sizeof s->buf);
    memcpy(s->buf + s->n, data, n);
    s->n += n;
}

static size_t put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
    return 8;
}

static size_t put_term(uint8_t *p, char kind, uint64_t idx, const fr_t *coeff)
{
    p[0] = (uint8_t)kind;
    put_u64(p + 1, idx);
    fr_to_be(p + 9, coeff);
    return 9 + 32;
}

/* TestConstraintSystem::hash's canonical form, written out by hand for a
 * bit and a constraint with a zero merged coefficient and unsorted terms. */
static void test_hash_stream(void **state)
{
    (void)state;
    cs_counts_t expect = {2, 2, 1, 0, 0, 0};
    for (int m = 0; m < 2; m++) {
        cs_t *cs = csf_new(m ? CS_WITNESS : CS_COUNT);
        byte_sink_t sink = {{0}, 0};
        assert_int_equal(cs_hash_begin(cs, &expect, sink_update, &sink, NULL), CUZK_OK);
        cs_bool_t b = cs_bit_alloc(cs, 1);
        cs_var_t y = cs_alloc(cs, &FR_ONE);
        cs_lc_t *a, *lb, *c;
        cs_enforce_begin(cs, &a, &lb, &c);
        cs_lc_add(cs, a, y, NULL);
        cs_lc_add(cs, a, b.var, NULL);
        cs_lc_sub(cs, a, y, NULL); /* y: zero, dropped */
        cs_lc_add(cs, lb, CS_ONE, NULL);
        cs_lc_add(cs, c, b.var, NULL);
        cs_enforce(cs, a, lb, c);
        assert_int_equal(cs_hash_end(cs, NULL), CUZK_OK);
        uint8_t want[4096];
        size_t n = 0;
        n += put_u64(want + n, 1);
        n += put_u64(want + n, 2);
        n += put_u64(want + n, 2);
        /* (ONE - b) * b = 0 */
        n += put_u64(want + n, 2);
        n += put_term(want + n, 'I', 0, &FR_ONE);
        n += put_term(want + n, 'A', 0, cs_minus_one(cs));
        n += put_u64(want + n, 1);
        n += put_term(want + n, 'A', 0, &FR_ONE);
        n += put_u64(want + n, 0);
        /* (b) * (ONE) = b */
        n += put_u64(want + n, 1);
        n += put_term(want + n, 'A', 0, &FR_ONE);
        n += put_u64(want + n, 1);
        n += put_term(want + n, 'I', 0, &FR_ONE);
        n += put_u64(want + n, 1);
        n += put_term(want + n, 'A', 0, &FR_ONE);
        assert_int_equal(sink.n, n);
        assert_memory_equal(sink.buf, want, n);
        /* another circuit than announced: the stream is not a fingerprint */
        cs_bit_alloc(cs, 0);
        assert_int_equal(cs_hash_end(cs, NULL), CUZK_ERR_ARG);
        assert_int_equal(cs_hash_begin(cs, &expect, sink_update, &sink, NULL), CUZK_ERR_ARG);
        cs_free(cs);
    }
}

static void test_bad_mode(void **state)
{
    (void)state;
    cs_t *cs = (cs_t *)1;
    cuzk_error_t err;
    assert_int_equal(cs_new(&cs, (cs_mode)9, &err), CUZK_ERR_ARG);
    assert_null(cs);
    cs = csf_new(CS_COUNT);
    cs_record_matrix_t m[3];
    const fr_t *d;
    uint32_t nd;
    assert_int_equal(cs_record_matrices(m, &d, &nd, cs, &err), CUZK_ERR_ARG);
    cs_free(cs);
    cs_free(NULL);
}

int main(void)
{
    tu_init("test_cs");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lc_merge),
        cmocka_unit_test(test_lc_normalize_random),
        cmocka_unit_test(test_density),
        cmocka_unit_test(test_boolean_tables),
        cmocka_unit_test(test_boolean_ch_maj),
        cmocka_unit_test(test_bit_counts),
        cmocka_unit_test(test_num),
        cmocka_unit_test(test_uint32_addmany),
        cmocka_unit_test(test_multieq_flush),
        cmocka_unit_test(test_uint32_ops),
        cmocka_unit_test(test_uint64),
        cmocka_unit_test(test_insertion),
        cmocka_unit_test(test_multipack),
        cmocka_unit_test(test_check_fault),
        cmocka_unit_test(test_modes_agree),
        cmocka_unit_test(test_lcnum),
        cmocka_unit_test(test_hash_stream),
        cmocka_unit_test(test_bad_mode),
    };
    return cmocka_run_group_tests_name("cs", tests, NULL, NULL);
}
