/* G1 and G2 group law, scalar multiplication and subgroup checks. One test
 * body runs over both groups through a table of wrappers, so both share
 * their edge cases (infinity, P + P, P - P, scalars 0, 1, r - 1). */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Big enough for a G2 Jacobian point. */
typedef union pt {
    g1_jac_t j1;
    g2_jac_t j2;
    g1_affine_t a1;
    g2_affine_t a2;
} pt_t;

typedef struct group_ops {
    const char *name;
    void (*rand)(pt_t *);
    void (*rand_off)(pt_t *aff);
    void (*gen)(pt_t *);
    void (*set_inf)(pt_t *);
    int (*is_inf)(const pt_t *);
    void (*add)(pt_t *, const pt_t *, const pt_t *);
    void (*add_mixed)(pt_t *, const pt_t *, const pt_t *aff);
    void (*dbl)(pt_t *, const pt_t *);
    void (*neg)(pt_t *, const pt_t *);
    int (*eq)(const pt_t *, const pt_t *);
    void (*to_aff)(pt_t *aff, const pt_t *);
    void (*from_aff)(pt_t *, const pt_t *aff);
    cuzk_status (*batch_aff)(pt_t *aff, const pt_t *jac, size_t n);
    int (*aff_eq)(const pt_t *, const pt_t *);
    void (*mul_fr)(pt_t *, const pt_t *, const fr_t *);
    void (*mul_var)(pt_t *, const pt_t *, const uint64_t *, size_t);
    int (*on_curve)(const pt_t *jac);
    int (*aff_on_curve)(const pt_t *aff);
    int (*in_sub)(const pt_t *aff);
    int (*in_sub_slow)(const pt_t *aff);
} group_ops_t;

// clang-format off
static void w1_rand(pt_t *p) { tu_rand_g1(&p->j1); }
static void w1_rand_off(pt_t *p) { tu_rand_g1_off_subgroup(&p->a1); }
static void w1_gen(pt_t *p) { g1_from_affine(&p->j1, &G1_GENERATOR); }
static void w1_set_inf(pt_t *p) { g1_jac_set_inf(&p->j1); }
static int w1_is_inf(const pt_t *p) { return g1_jac_is_inf(&p->j1); }
static void w1_add(pt_t *o, const pt_t *a, const pt_t *b) { g1_add(&o->j1, &a->j1, &b->j1); }
static void w1_add_mixed(pt_t *o, const pt_t *a, const pt_t *b) { g1_add_mixed(&o->j1, &a->j1, &b->a1); }
static void w1_dbl(pt_t *o, const pt_t *a) { g1_dbl(&o->j1, &a->j1); }
static void w1_neg(pt_t *o, const pt_t *a) { g1_neg(&o->j1, &a->j1); }
static int w1_eq(const pt_t *a, const pt_t *b) { return g1_jac_equal(&a->j1, &b->j1); }
static void w1_to_aff(pt_t *o, const pt_t *a) { g1_to_affine(&o->a1, &a->j1); }
static void w1_from_aff(pt_t *o, const pt_t *a) { g1_from_affine(&o->j1, &a->a1); }
static int w1_aff_eq(const pt_t *a, const pt_t *b) { return g1_affine_equal(&a->a1, &b->a1); }
static void w1_mul_fr(pt_t *o, const pt_t *a, const fr_t *k) { g1_mul_fr(&o->j1, &a->j1, k); }
static void w1_mul_var(pt_t *o, const pt_t *a, const uint64_t *k, size_t n) { g1_mul_var(&o->j1, &a->j1, k, n); }
static int w1_on_curve(const pt_t *a) { return g1_jac_is_on_curve(&a->j1); }
static int w1_aff_on_curve(const pt_t *a) { return g1_affine_is_on_curve(&a->a1); }
static int w1_in_sub(const pt_t *a) { return g1_affine_in_subgroup(&a->a1); }
static int w1_in_sub_slow(const pt_t *a) { return g1_affine_in_subgroup_slow(&a->a1); }
// clang-format on
static cuzk_status w1_batch(pt_t *o, const pt_t *in, size_t n)
{
    g1_jac_t *j = calloc(n + 1, sizeof *j);
    g1_affine_t *a = calloc(n + 1, sizeof *a);
    for (size_t i = 0; i < n; i++)
        j[i] = in[i].j1;
    cuzk_status st = g1_batch_to_affine(a, j, n);
    for (size_t i = 0; i < n; i++)
        o[i].a1 = a[i];
    free(j);
    free(a);
    return st;
}

// clang-format off
static void w2_rand(pt_t *p) { tu_rand_g2(&p->j2); }
static void w2_rand_off(pt_t *p) { tu_rand_g2_off_subgroup(&p->a2); }
static void w2_gen(pt_t *p) { g2_from_affine(&p->j2, &G2_GENERATOR); }
static void w2_set_inf(pt_t *p) { g2_jac_set_inf(&p->j2); }
static int w2_is_inf(const pt_t *p) { return g2_jac_is_inf(&p->j2); }
static void w2_add(pt_t *o, const pt_t *a, const pt_t *b) { g2_add(&o->j2, &a->j2, &b->j2); }
static void w2_add_mixed(pt_t *o, const pt_t *a, const pt_t *b) { g2_add_mixed(&o->j2, &a->j2, &b->a2); }
static void w2_dbl(pt_t *o, const pt_t *a) { g2_dbl(&o->j2, &a->j2); }
static void w2_neg(pt_t *o, const pt_t *a) { g2_neg(&o->j2, &a->j2); }
static int w2_eq(const pt_t *a, const pt_t *b) { return g2_jac_equal(&a->j2, &b->j2); }
static void w2_to_aff(pt_t *o, const pt_t *a) { g2_to_affine(&o->a2, &a->j2); }
static void w2_from_aff(pt_t *o, const pt_t *a) { g2_from_affine(&o->j2, &a->a2); }
static int w2_aff_eq(const pt_t *a, const pt_t *b) { return g2_affine_equal(&a->a2, &b->a2); }
static void w2_mul_fr(pt_t *o, const pt_t *a, const fr_t *k) { g2_mul_fr(&o->j2, &a->j2, k); }
static void w2_mul_var(pt_t *o, const pt_t *a, const uint64_t *k, size_t n) { g2_mul_var(&o->j2, &a->j2, k, n); }
static int w2_on_curve(const pt_t *a) { return g2_jac_is_on_curve(&a->j2); }
static int w2_aff_on_curve(const pt_t *a) { return g2_affine_is_on_curve(&a->a2); }
static int w2_in_sub(const pt_t *a) { return g2_affine_in_subgroup(&a->a2); }
static int w2_in_sub_slow(const pt_t *a) { return g2_affine_in_subgroup_slow(&a->a2); }
// clang-format on
static cuzk_status w2_batch(pt_t *o, const pt_t *in, size_t n)
{
    g2_jac_t *j = calloc(n + 1, sizeof *j);
    g2_affine_t *a = calloc(n + 1, sizeof *a);
    for (size_t i = 0; i < n; i++)
        j[i] = in[i].j2;
    cuzk_status st = g2_batch_to_affine(a, j, n);
    for (size_t i = 0; i < n; i++)
        o[i].a2 = a[i];
    free(j);
    free(a);
    return st;
}

static const group_ops_t G1_OPS = {"G1",          w1_rand,     w1_rand_off,     w1_gen,
                                   w1_set_inf,    w1_is_inf,   w1_add,          w1_add_mixed,
                                   w1_dbl,        w1_neg,      w1_eq,           w1_to_aff,
                                   w1_from_aff,   w1_batch,    w1_aff_eq,       w1_mul_fr,
                                   w1_mul_var,    w1_on_curve, w1_aff_on_curve, w1_in_sub,
                                   w1_in_sub_slow};
static const group_ops_t G2_OPS = {"G2",          w2_rand,     w2_rand_off,     w2_gen,
                                   w2_set_inf,    w2_is_inf,   w2_add,          w2_add_mixed,
                                   w2_dbl,        w2_neg,      w2_eq,           w2_to_aff,
                                   w2_from_aff,   w2_batch,    w2_aff_eq,       w2_mul_fr,
                                   w2_mul_var,    w2_on_curve, w2_aff_on_curve, w2_in_sub,
                                   w2_in_sub_slow};

static void test_generator(void **state)
{
    const group_ops_t *g = *state;
    pt_t p, a;
    g->gen(&p);
    g->to_aff(&a, &p);
    assert_true(g->on_curve(&p));
    assert_true(g->in_sub(&a));
    assert_true(g->in_sub_slow(&a));
    assert_false(g->is_inf(&p));
}

static void test_group_law(void **state)
{
    const group_ops_t *g = *state;
    int n = tu_iters(40);
    for (int i = 0; i < n; i++) {
        pt_t a, b, c, t, u, inf, na;
        g->rand(&a);
        g->rand(&b);
        g->rand(&c);
        g->set_inf(&inf);
        /* commutativity and associativity */
        g->add(&t, &a, &b);
        g->add(&u, &b, &a);
        assert_true(g->eq(&t, &u));
        assert_true(g->on_curve(&t));
        g->add(&t, &t, &c);
        g->add(&u, &b, &c);
        g->add(&u, &a, &u);
        assert_true(g->eq(&t, &u));
        /* identity and inverse */
        g->add(&t, &a, &inf);
        assert_true(g->eq(&t, &a));
        g->add(&t, &inf, &a);
        assert_true(g->eq(&t, &a));
        g->neg(&na, &a);
        g->add(&t, &a, &na);
        assert_true(g->is_inf(&t));
        /* doubling agrees with addition, also through aliasing */
        g->add(&t, &a, &a);
        u = a;
        g->dbl(&u, &u);
        assert_true(g->eq(&t, &u));
        assert_true(g->on_curve(&u));
    }
    pt_t inf, t;
    g->set_inf(&inf);
    g->dbl(&t, &inf);
    assert_true(g->is_inf(&t));
}

static void test_mixed_add(void **state)
{
    const group_ops_t *g = *state;
    int n = tu_iters(40);
    for (int i = 0; i < n; i++) {
        pt_t a, b, ba, t, u, na, naa;
        g->rand(&a);
        g->rand(&b);
        g->to_aff(&ba, &b);
        g->add(&t, &a, &b);
        g->add_mixed(&u, &a, &ba);
        assert_true(g->eq(&t, &u));
        /* P + P and P - P through the mixed path */
        g->to_aff(&ba, &a);
        g->add_mixed(&u, &a, &ba);
        g->dbl(&t, &a);
        assert_true(g->eq(&t, &u));
        g->neg(&na, &a);
        g->to_aff(&naa, &na);
        g->add_mixed(&u, &a, &naa);
        assert_true(g->is_inf(&u));
        /* infinity on either side */
        pt_t inf, infa;
        g->set_inf(&inf);
        g->to_aff(&infa, &inf);
        g->add_mixed(&u, &inf, &ba);
        assert_true(g->eq(&u, &a));
        g->add_mixed(&u, &a, &infa);
        assert_true(g->eq(&u, &a));
    }
}

static void test_scalar_mul(void **state)
{
    const group_ops_t *g = *state;
    int n = tu_iters(10);
    for (int i = 0; i < n; i++) {
        pt_t p, pa, pb, pab, t;
        fr_t a, b, s;
        g->rand(&p);
        tu_rand_fr(&a);
        tu_rand_fr(&b);
        /* [a]P + [b]P = [a + b]P */
        g->mul_fr(&pa, &p, &a);
        g->mul_fr(&pb, &p, &b);
        g->add(&t, &pa, &pb);
        fr_add(&s, &a, &b);
        g->mul_fr(&pab, &p, &s);
        assert_true(g->eq(&t, &pab));
        /* [a]([b]P) = [ab]P */
        g->mul_fr(&t, &pb, &a);
        fr_mul(&s, &a, &b);
        g->mul_fr(&pab, &p, &s);
        assert_true(g->eq(&t, &pab));
        /* [r]P = O, [0]P = O, [1]P = P, [r-1]P = -P */
        g->mul_var(&t, &p, FR_MODULUS, FR_LIMBS);
        assert_true(g->is_inf(&t));
        g->mul_fr(&t, &p, &FR_ZERO);
        assert_true(g->is_inf(&t));
        g->mul_fr(&t, &p, &FR_ONE);
        assert_true(g->eq(&t, &p));
        fr_neg(&s, &FR_ONE);
        g->mul_fr(&t, &p, &s);
        g->neg(&pa, &p);
        assert_true(g->eq(&t, &pa));
        /* small scalars against repeated addition */
        uint64_t k = tu_rand64() % 40;
        pt_t acc;
        g->set_inf(&acc);
        for (uint64_t j = 0; j < k; j++)
            g->add(&acc, &acc, &p);
        g->mul_var(&t, &p, &k, 1);
        assert_true(g->eq(&t, &acc));
    }
}

static void test_batch_affine(void **state)
{
    const group_ops_t *g = *state;
    enum { N = 17 };
    pt_t jac[N], aff[N], one;
    for (int i = 0; i < N; i++) {
        g->rand(&jac[i]);
        if (i % 5 == 0)
            g->set_inf(&jac[i]);
    }
    assert_int_equal(g->batch_aff(aff, jac, N), CUZK_OK);
    for (int i = 0; i < N; i++) {
        g->to_aff(&one, &jac[i]);
        assert_true(g->aff_eq(&one, &aff[i]));
    }
    assert_int_equal(g->batch_aff(aff, jac, 0), CUZK_OK);
}

static void test_subgroup_checks(void **state)
{
    const group_ops_t *g = *state;
    int n = tu_iters(8);
    for (int i = 0; i < n; i++) {
        pt_t p, a;
        g->rand(&p);
        g->to_aff(&a, &p);
        assert_true(g->aff_on_curve(&a));
        assert_true(g->in_sub(&a));
        assert_true(g->in_sub_slow(&a));
        g->rand_off(&a);
        assert_true(g->aff_on_curve(&a));
        assert_int_equal(g->in_sub(&a), g->in_sub_slow(&a));
        assert_false(g->in_sub(&a));
        /* moved off the curve: y + 1 */
        pt_t bad = a;
        if (g == &G1_OPS)
            fp_add(&bad.a1.y, &bad.a1.y, &FP_ONE);
        else
            fp_add(&bad.a2.y.c0, &bad.a2.y.c0, &FP_ONE);
        assert_false(g->aff_on_curve(&bad));
    }
}

static void test_g1_small_order_point(void **state)
{
    (void)state;
    /* (0, 2) has order 3: on the curve, outside G1. */
    g1_affine_t t;
    fp_from_u64(&t.x, 0);
    fp_from_u64(&t.y, 2);
    assert_true(g1_affine_is_on_curve(&t));
    assert_false(g1_affine_in_subgroup(&t));
    assert_false(g1_affine_in_subgroup_slow(&t));
    g1_jac_t j, k;
    uint64_t three = 3;
    g1_from_affine(&j, &t);
    g1_mul_var(&k, &j, &three, 1);
    assert_true(g1_jac_is_inf(&k));
}

static void test_g2_psi_is_frobenius(void **state)
{
    (void)state;
    /* On G2, psi acts as multiplication by p mod r; check psi(P) = [p]P. */
    int n = tu_iters(4);
    for (int i = 0; i < n; i++) {
        g2_jac_t p, a, b;
        tu_rand_g2(&p);
        g2_psi(&a, &p);
        g2_mul_var(&b, &p, FP_MODULUS, FP_LIMBS);
        assert_true(g2_jac_equal(&a, &b));
    }
}

int main(void)
{
    tu_init("test_curve");
    void *g1 = (void *)&G1_OPS, *g2 = (void *)&G2_OPS;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_generator, g1),
        cmocka_unit_test_prestate(test_generator, g2),
        cmocka_unit_test_prestate(test_group_law, g1),
        cmocka_unit_test_prestate(test_group_law, g2),
        cmocka_unit_test_prestate(test_mixed_add, g1),
        cmocka_unit_test_prestate(test_mixed_add, g2),
        cmocka_unit_test_prestate(test_scalar_mul, g1),
        cmocka_unit_test_prestate(test_scalar_mul, g2),
        cmocka_unit_test_prestate(test_batch_affine, g1),
        cmocka_unit_test_prestate(test_batch_affine, g2),
        cmocka_unit_test_prestate(test_subgroup_checks, g1),
        cmocka_unit_test_prestate(test_subgroup_checks, g2),
        cmocka_unit_test(test_g1_small_order_point),
        cmocka_unit_test(test_g2_psi_is_frobenius),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
