/* Pairing laws: bilinearity, non-degeneracy, order r, infinity, and the
 * multi-pairing against the product of single pairings. The absolute values
 * are pinned by the @noble/curves vectors (test_noble_vectors). */
#include <string.h>

#include "test_util.h"
#include "cuzk/pairing.h"

static void rand_pair(g1_affine_t *p, g2_affine_t *q)
{
    g1_jac_t pj;
    g2_jac_t qj;
    tu_rand_g1(&pj);
    tu_rand_g2(&qj);
    g1_to_affine(p, &pj);
    g2_to_affine(q, &qj);
}

/* As rand_pair, but never infinity (tu_rand_* is edge-biased and can be). */
static void rand_pair_finite(g1_affine_t *p, g2_affine_t *q)
{
    do
        rand_pair(p, q);
    while (g1_affine_is_inf(p) || g2_affine_is_inf(q));
}

static void gt_pow_fr(fp12_t *out, const fp12_t *a, const fr_t *k)
{
    uint64_t l[FR_LIMBS];
    fr_to_limbs(l, k);
    fp12_pow_var(out, a, l, FR_LIMBS);
}

static void test_bilinearity(void **state)
{
    (void)state;
    int n = tu_iters(4);
    for (int i = 0; i < n; i++) {
        fr_t a, b, ab;
        tu_rand_fr(&a);
        tu_rand_fr(&b);
        fr_mul(&ab, &a, &b);
        g1_jac_t p;
        g2_jac_t q;
        g1_affine_t pa, p1;
        g2_affine_t qb, q1;
        rand_pair(&p1, &q1);
        g1_from_affine(&p, &p1);
        g2_from_affine(&q, &q1);
        g1_mul_fr(&p, &p, &a);
        g2_mul_fr(&q, &q, &b);
        g1_to_affine(&pa, &p);
        g2_to_affine(&qb, &q);
        fp12_t lhs, rhs;
        pairing_compute(&lhs, &pa, &qb);
        pairing_compute(&rhs, &p1, &q1);
        gt_pow_fr(&rhs, &rhs, &ab);
        assert_true(fp12_equal(&lhs, &rhs));
    }
}

static void test_scalar_moves_across(void **state)
{
    (void)state;
    /* e([a]P, Q) = e(P, [a]Q) */
    fr_t a;
    tu_rand_fr(&a);
    g1_affine_t p, pa;
    g2_affine_t q, qa;
    rand_pair(&p, &q);
    g1_jac_t pj;
    g2_jac_t qj;
    g1_from_affine(&pj, &p);
    g2_from_affine(&qj, &q);
    g1_mul_fr(&pj, &pj, &a);
    g2_mul_fr(&qj, &qj, &a);
    g1_to_affine(&pa, &pj);
    g2_to_affine(&qa, &qj);
    fp12_t l, r;
    pairing_compute(&l, &pa, &q);
    pairing_compute(&r, &p, &qa);
    assert_true(fp12_equal(&l, &r));
}

static void test_order_and_nondegeneracy(void **state)
{
    (void)state;
    fp12_t e, er;
    pairing_compute(&e, &G1_GENERATOR, &G2_GENERATOR);
    assert_false(fp12_is_one(&e));
    fp12_pow_var(&er, &e, FR_MODULUS, FR_LIMBS);
    assert_true(fp12_is_one(&er));
    /* first coefficient of e(G1, G2), as published with zkcrypto's bls12_381 */
    uint8_t be[FP_BYTES];
    static const uint8_t want[FP_BYTES] = {
        0x12, 0x50, 0xeb, 0xd8, 0x71, 0xfc, 0x0a, 0x92, 0xa7, 0xb2, 0xd8, 0x31,
        0x68, 0xd0, 0xd7, 0x27, 0x27, 0x2d, 0x44, 0x1b, 0xef, 0xa1, 0x5c, 0x50,
        0x3d, 0xd8, 0xe9, 0x0c, 0xe9, 0x8d, 0xb3, 0xe7, 0xb6, 0xd1, 0x94, 0xf6,
        0x08, 0x39, 0xc5, 0x08, 0xa8, 0x43, 0x05, 0xaa, 0xca, 0x17, 0x89, 0xb6};
    fp_to_be(be, &e.c0.c0.c0);
    assert_memory_equal(be, want, FP_BYTES);
}

static void test_infinity(void **state)
{
    (void)state;
    g1_affine_t p, o1;
    g2_affine_t q, o2;
    rand_pair(&p, &q);
    g1_affine_set_inf(&o1);
    g2_affine_set_inf(&o2);
    fp12_t e;
    pairing_compute(&e, &o1, &q);
    assert_true(fp12_is_one(&e));
    pairing_compute(&e, &p, &o2);
    assert_true(fp12_is_one(&e));
    assert_int_equal(pairing_product(&e, &p, &q, 0), CUZK_OK);
    assert_true(fp12_is_one(&e));
}

static void test_product_matches_singles(void **state)
{
    (void)state;
    /* sizes 1..11 cover the stack (<= 8) and heap scratch paths */
    for (size_t n = 1; n <= 11; n += 2) {
        g1_affine_t p[11];
        g2_affine_t q[11];
        fp12_t want = FP12_ONE, got, e;
        for (size_t i = 0; i < n; i++) {
            rand_pair(&p[i], &q[i]);
            if (i == 2)
                g1_affine_set_inf(&p[i]);
            if (i == 5)
                g2_affine_set_inf(&q[i]);
            pairing_compute(&e, &p[i], &q[i]);
            fp12_mul(&want, &want, &e);
        }
        assert_int_equal(pairing_product(&got, p, q, n), CUZK_OK);
        assert_true(fp12_equal(&got, &want));
    }
}

static void test_product_cancels(void **state)
{
    (void)state;
    /* e(aP, Q) * e(-P, aQ) = 1: the shape of a Groth16 check */
    fr_t a;
    do
        tu_rand_fr(&a);
    while (fr_is_zero(&a));
    g1_affine_t p[2];
    g2_affine_t q[2];
    g1_jac_t pj;
    g2_jac_t qj;
    rand_pair_finite(&p[1], &q[0]);
    g1_from_affine(&pj, &p[1]);
    g1_mul_fr(&pj, &pj, &a);
    g1_to_affine(&p[0], &pj);
    g1_affine_neg(&p[1], &p[1]);
    g2_from_affine(&qj, &q[0]);
    g2_mul_fr(&qj, &qj, &a);
    g2_to_affine(&q[1], &qj);
    fp12_t e;
    assert_int_equal(pairing_product(&e, p, q, 2), CUZK_OK);
    assert_true(fp12_is_one(&e));
    /* and a wrong scalar does not cancel */
    g1_from_affine(&pj, &p[0]);
    g1_dbl(&pj, &pj);
    g1_to_affine(&p[0], &pj);
    assert_int_equal(pairing_product(&e, p, q, 2), CUZK_OK);
    assert_false(fp12_is_one(&e));
}

static void test_final_exp_of_miller_loop(void **state)
{
    (void)state;
    g1_affine_t p;
    g2_affine_t q;
    rand_pair(&p, &q);
    fp12_t f, a, b;
    assert_int_equal(pairing_miller_loop(&f, &p, &q, 1), CUZK_OK);
    pairing_final_exp(&a, &f);
    pairing_compute(&b, &p, &q);
    assert_true(fp12_equal(&a, &b));
}

int main(void)
{
    tu_init("test_pairing");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bilinearity),
        cmocka_unit_test(test_scalar_moves_across),
        cmocka_unit_test(test_order_and_nondegeneracy),
        cmocka_unit_test(test_infinity),
        cmocka_unit_test(test_product_matches_singles),
        cmocka_unit_test(test_product_cancels),
        cmocka_unit_test(test_final_exp_of_miller_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
