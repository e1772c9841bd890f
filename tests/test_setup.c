/* Tests for the insecure test setup and the key writers (setup.h, key_write.h).
 *
 * Random satisfiable circuits (one output wire per constraint, defined so
 * the constraint holds) are set up, proved with the CPU backend and
 * verified, for both conventions; every key point of small circuits is
 * checked against a slow reference (Lagrange products, g1_mul_fr); written
 * keys are read back with the zkey / bellperson readers and must prove the
 * same proof; section 4 is compared byte for byte with snarkjs's own
 * multiplier.zkey.
 * Sizes: circuits of 2^2 .. 2^(9 + CUZK_TEST_ITERS) rows (default 2^10). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/bellperson.h"
#include "cuzk/circuit.h"
#include "cuzk/encode.h"
#include "cuzk/key_write.h"
#include "cuzk/pairing.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"
#include "cuzk/setup.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "ref_bigint.h"

static const groth16_convention CONVS[2] = {GROTH16_SNARKJS, GROTH16_BELLPERSON};
static const char *const CONV_NAME[2] = {"snarkjs", "bellperson"};

static char g_tmpdir[64];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void tmp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", g_tmpdir, name);
}

/* ---- random satisfiable circuits ---- */

typedef struct tcirc {
    circuit_t c;
    fr_t *w;
    uint32_t n_c;    /* constraints before the input rows */
    uint32_t unused; /* a private input no row mentions */
} tcirc_t;

static uint32_t rand_below(uint32_t n)
{
    return (uint32_t)(tu_rand64() % n);
}

static void rand_coef(fr_t *c)
{
    switch (tu_rand64() % 4) {
    case 0: *c = FR_ONE; break;
    case 1: fr_neg(c, &FR_ONE); break;
    default:
        do
            tu_rand_fr(c);
        while (fr_is_zero(c));
    }
}

static void add_term(circuit_builder_t *b, circuit_matrix m, uint32_t row, uint32_t col,
                     const fr_t *coef)
{
    cuzk_error_t e = {CUZK_OK, ""};
    assert_int_equal(circuit_builder_add(b, m, row, col, coef, &e), CUZK_OK);
}

/* A random term over the wires below `below`, skipping t->unused; adds
 * coef * w[col] to *acc. */
static void rand_term(circuit_builder_t *b, const tcirc_t *t, const fr_t *w, circuit_matrix m,
                      uint32_t row, uint32_t below, fr_t *acc)
{
    uint32_t col = rand_below(below - 1);
    if (col >= t->unused)
        col++;
    fr_t coef, x;
    rand_coef(&coef);
    add_term(b, m, row, col, &coef);
    fr_mul(&x, &coef, &w[col]);
    fr_add(acc, acc, &x);
}

/* n_rows rows in all: the constraints, then one row A = w_i per input
 * i = 0..n_public (both conventions put them there). */
static void make_circuit(tcirc_t *t, uint32_t n_rows, uint32_t n_public)
{
    uint32_t n_in = n_public + 1;
    assert_true(n_rows > n_in);
    memset(t, 0, sizeof *t);
    t->n_c = n_rows - n_in;
    uint32_t n_priv = 1 + rand_below(3);
    uint32_t first_out = n_in + n_priv;
    uint32_t n_vars = first_out + t->n_c;
    t->unused = first_out - 1;
    circuit_builder_t *b = circuit_builder_new(n_rows, n_vars, n_public);
    fr_t *w = calloc(n_vars, sizeof *w);
    assert_non_null(b);
    assert_non_null(w);
    w[0] = FR_ONE;
    for (uint32_t j = 1; j < first_out; j++)
        tu_rand_fr(&w[j]);
    for (uint32_t k = 0; k < t->n_c; k++) {
        uint32_t o = first_out + k;
        fr_t a = FR_ZERO, bb = FR_ZERO, extra = FR_ZERO, co, ab;
        uint32_t na = 1 + rand_below(3), nb = rand_below(4);
        for (uint32_t i = 0; i < na; i++)
            rand_term(b, t, w, CIRCUIT_A, k, o, &a);
        for (uint32_t i = 0; i < nb; i++)
            rand_term(b, t, w, CIRCUIT_B, k, o, &bb);
        if (tu_rand64() & 1)
            rand_term(b, t, w, CIRCUIT_C, k, o, &extra);
        /* C = extra + co w_o = a b */
        rand_coef(&co);
        add_term(b, CIRCUIT_C, k, o, &co);
        fr_mul(&ab, &a, &bb);
        fr_sub(&ab, &ab, &extra);
        fr_inv(&co, &co);
        fr_mul(&w[o], &ab, &co);
    }
    for (uint32_t i = 0; i < n_in; i++)
        add_term(b, CIRCUIT_A, t->n_c + i, i, &FR_ONE);
    cuzk_error_t e = {CUZK_OK, ""};
    assert_int_equal(circuit_builder_finish(&t->c, b, &e), CUZK_OK);
    t->w = w;
    uint32_t bad;
    assert_int_equal(circuit_check(&bad, &t->c, w, 0), CUZK_OK);
    assert_int_equal(bad, UINT32_MAX);
}

static void tcirc_free(tcirc_t *t)
{
    circuit_free(&t->c);
    free(t->w);
}

/* ---- proving helpers ---- */

static cuzk_status prove(groth16_proof_t *pf, const groth16_pk_t *pk, const tcirc_t *t,
                         const fr_t *w, const fr_t *r, const fr_t *s)
{
    cuzk_error_t e = {CUZK_OK, ""};
    groth16_prove_opts_t o = {0, 0, NULL};
    cuzk_status st = groth16_prove(pf, pk, &t->c, w, r, s, &GROTH16_BACKEND_CPU, &o, &e);
    if (st != CUZK_OK && st != CUZK_ERR_FORMAT)
        print_message("groth16_prove: %s\n", e.msg);
    return st;
}

static int verifies(const groth16_vk_t *vk, const groth16_proof_t *pf, const tcirc_t *t)
{
    int valid = -1;
    cuzk_error_t e = {CUZK_OK, ""};
    assert_int_equal(groth16_verify(&valid, vk, pf, &t->w[1], t->c.n_public, &e), CUZK_OK);
    return valid;
}

static int proofs_equal(const groth16_proof_t *x, const groth16_proof_t *y)
{
    return g1_affine_equal(&x->a, &y->a) && g2_affine_equal(&x->b, &y->b) &&
           g1_affine_equal(&x->c, &y->c);
}

static void prove_and_verify(const groth16_key_t *k, const tcirc_t *t)
{
    groth16_pk_t pk;
    groth16_proof_t pf;
    groth16_key_pk(&pk, k);
    fr_t zero = FR_ZERO, r, s;
    assert_int_equal(prove(&pf, &pk, t, t->w, &zero, &zero), CUZK_OK);
    assert_int_equal(verifies(&k->vk, &pf, t), 1);
    tu_rand_fr(&r);
    tu_rand_fr(&s);
    assert_int_equal(prove(&pf, &pk, t, t->w, &r, &s), CUZK_OK);
    assert_int_equal(verifies(&k->vk, &pf, t), 1);
}

static uint64_t rand_seed(void)
{
    return tu_rand64();
}

static void setup_ok(groth16_key_t *k, const tcirc_t *t, groth16_convention conv, uint64_t seed,
                     int threads)
{
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = groth16_setup(k, &t->c, conv, seed, threads, &e);
    if (st != CUZK_OK)
        print_message("groth16_setup: %s\n", e.msg);
    assert_int_equal(st, CUZK_OK);
}

static unsigned max_log_rows(void)
{
    return 9 + (unsigned)tu_iters(1);
}

/* ---- tests ---- */

static void test_prove_verify(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        for (unsigned lg = 2; lg <= max_log_rows(); lg++) {
            /* exactly 2^lg rows, and now and then one more (the next domain) */
            uint32_t rows = ((uint32_t)1 << lg) + (lg % 3 == 0);
            uint32_t np = 1 + rand_below(rows < 8 ? 2 : 4);
            tcirc_t t;
            groth16_key_t k;
            make_circuit(&t, rows, np);
            double t0 = now_s();
            setup_ok(&k, &t, CONVS[ci], rand_seed(), 0);
            double t1 = now_s();
            unsigned want_log = lg + (rows > (1u << lg));
            assert_int_equal(k.log_m, want_log);
            prove_and_verify(&k, &t);
            if (lg >= 10)
                print_message("%s 2^%u rows: setup %.3f s, 2 proofs %.3f s\n", CONV_NAME[ci], lg,
                              t1 - t0, now_s() - t1);
            groth16_key_free(&k);
            tcirc_free(&t);
        }
    }
}

static void test_unsatisfied(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        tcirc_t t;
        groth16_key_t k;
        groth16_pk_t pk;
        groth16_proof_t pf;
        make_circuit(&t, 32, 2);
        setup_ok(&k, &t, CONVS[ci], rand_seed(), 0);
        groth16_key_pk(&pk, &k);
        fr_t *w = malloc(t.c.n_vars * sizeof *w);
        assert_non_null(w);
        memcpy(w, t.w, t.c.n_vars * sizeof *w);
        uint32_t o = t.c.n_vars - 1 - rand_below(t.n_c); /* an output wire */
        fr_add(&w[o], &w[o], &FR_ONE);
        uint32_t bad;
        assert_int_equal(circuit_check(&bad, &t.c, w, 0), CUZK_OK);
        assert_int_not_equal(bad, UINT32_MAX);
        fr_t r, s;
        tu_rand_fr(&r);
        tu_rand_fr(&s);
        assert_int_equal(prove(&pf, &pk, &t, w, &r, &s), CUZK_ERR_FORMAT);
        fr_t zero = FR_ZERO;
        assert_int_equal(prove(&pf, &pk, &t, w, &zero, &zero), CUZK_ERR_FORMAT);
        free(w);
        groth16_key_free(&k);
        tcirc_free(&t);
    }
}

static void test_wrong_key(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        tcirc_t t;
        groth16_key_t k1, k2;
        groth16_pk_t pk;
        groth16_proof_t pf;
        make_circuit(&t, 16, 2);
        setup_ok(&k1, &t, CONVS[ci], 1, 0);
        setup_ok(&k2, &t, CONVS[ci], 2, 0);
        groth16_key_pk(&pk, &k1);
        fr_t zero = FR_ZERO;
        assert_int_equal(prove(&pf, &pk, &t, t.w, &zero, &zero), CUZK_OK);
        assert_int_equal(verifies(&k1.vk, &pf, &t), 1);
        assert_int_equal(verifies(&k2.vk, &pf, &t), 0);
        /* a wrong public input fails too */
        fr_add(&t.w[1], &t.w[1], &FR_ONE);
        assert_int_equal(verifies(&k1.vk, &pf, &t), 0);
        groth16_key_free(&k1);
        groth16_key_free(&k2);
        tcirc_free(&t);
    }
}

/* L_i(x) over the points pts[0..n) by the product formula. */
static void lagrange_slow(fr_t *out, const fr_t *x, const fr_t *pts, size_t n, size_t i)
{
    fr_t num = FR_ONE, den = FR_ONE, t;
    for (size_t k = 0; k < n; k++) {
        if (k == i)
            continue;
        fr_sub(&t, x, &pts[k]);
        fr_mul(&num, &num, &t);
        fr_sub(&t, &pts[i], &pts[k]);
        fr_mul(&den, &den, &t);
    }
    fr_inv(&den, &den);
    fr_mul(out, &num, &den);
}

static void powers(fr_t *out, const fr_t *g, size_t n)
{
    out[0] = FR_ONE;
    for (size_t i = 1; i < n; i++)
        fr_mul(&out[i], &out[i - 1], g);
}

static void expect_g1(const g1_affine_t *got, const fr_t *k)
{
    g1_jac_t j;
    g1_affine_t a;
    g1_from_affine(&j, &G1_GENERATOR);
    g1_mul_fr(&j, &j, k);
    g1_to_affine(&a, &j);
    assert_true(g1_affine_equal(got, &a));
}

static void expect_g2(const g2_affine_t *got, const fr_t *k)
{
    g2_jac_t j;
    g2_affine_t a;
    g2_from_affine(&j, &G2_GENERATOR);
    g2_mul_fr(&j, &j, k);
    g2_to_affine(&a, &j);
    assert_true(g2_affine_equal(got, &a));
}

/* Every point of the key from the definitions (setup.h, key_write.h). */
static void check_key_slow(const groth16_key_t *k, const tcirc_t *t, uint64_t seed)
{
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, seed);
    int snark = k->conv == GROTH16_SNARKJS;
    fr_roots roots = snark ? FR_ROOTS_FFJS : FR_ROOTS_BELLMAN;
    size_t m = (size_t)1 << k->log_m, n = t->c.n_vars, n_in = t->c.n_public + 1;
    assert_true(m >= t->c.n_rows && m >= 2 && (m == 2 || m / 2 < t->c.n_rows));
    fr_t *dom = calloc(2 * m, sizeof *dom), *lag = calloc(m, sizeof *lag);
    fr_t *col[3];
    for (int i = 0; i < 3; i++)
        col[i] = calloc(n, sizeof *col[i]);
    fr_t om;
    assert_int_equal(fr_root_of_unity(&om, roots, k->log_m), CUZK_OK);
    powers(dom, &om, m);
    for (size_t i = 0; i < t->c.n_rows; i++)
        lagrange_slow(&lag[i], &tw.tau, dom, m, i);
    for (int mi = 0; mi < 3; mi++) {
        const circuit_csr_t *cs = &t->c.m[mi];
        for (uint32_t r = 0; r < t->c.n_rows; r++)
            for (uint64_t e = cs->row_ptr[r]; e < cs->row_ptr[r + 1]; e++) {
                fr_t x;
                fr_mul(&x, &t->c.dict[cs->coef[e]], &lag[r]);
                fr_add(&col[mi][cs->col[e]], &col[mi][cs->col[e]], &x);
            }
    }
    /* A, B: all wires (snarkjs) or by density (bellperson) */
    size_t ia = 0, ib = 0;
    for (size_t j = 0; j < n; j++) {
        int in_a = 0, in_b = 0;
        for (uint64_t e = 0; e < t->c.m[CIRCUIT_A].nnz; e++)
            in_a |= t->c.m[CIRCUIT_A].col[e] == j;
        for (uint64_t e = 0; e < t->c.m[CIRCUIT_B].nnz; e++)
            in_b |= t->c.m[CIRCUIT_B].col[e] == j;
        if (snark || j < n_in || in_a)
            expect_g1(&k->a[ia++], &col[0][j]);
        if (snark || in_b) {
            expect_g1(&k->b_g1[ib], &col[1][j]);
            expect_g2(&k->b_g2[ib++], &col[1][j]);
        }
    }
    assert_int_equal(ia, k->n_a);
    assert_int_equal(ib, k->n_b);
    /* IC and L */
    fr_t gi, di;
    fr_inv(&gi, &tw.gamma);
    fr_inv(&di, &tw.delta);
    assert_int_equal(k->vk.n_ic, n_in);
    assert_int_equal(k->n_l, n - n_in);
    for (size_t j = 0; j < n; j++) {
        fr_t kk, x;
        fr_mul(&kk, &tw.beta, &col[0][j]);
        fr_mul(&x, &tw.alpha, &col[1][j]);
        fr_add(&kk, &kk, &x);
        fr_add(&kk, &kk, &col[2][j]);
        fr_mul(&kk, &kk, j < n_in ? &gi : &di);
        expect_g1(j < n_in ? &k->vk.ic[j] : &k->l[j - n_in], &kk);
    }
    /* H */
    if (snark) {
        fr_t om2;
        assert_int_equal(fr_root_of_unity(&om2, roots, k->log_m + 1), CUZK_OK);
        powers(dom, &om2, 2 * m);
        assert_int_equal(k->n_h, m);
        for (size_t i = 0; i < m; i++) {
            fr_t x;
            lagrange_slow(&x, &tw.tau, dom, 2 * m, 2 * i + 1);
            fr_mul(&x, &x, &di);
            expect_g1(&k->h[i], &x);
        }
    } else {
        fr_t z = FR_ONE, x;
        for (size_t i = 0; i < m; i++)
            fr_mul(&z, &z, &tw.tau);
        fr_sub(&z, &z, &FR_ONE);
        fr_mul(&z, &z, &di);
        assert_int_equal(k->n_h, m - 1);
        x = z;
        for (size_t i = 0; i + 1 < m; i++) {
            expect_g1(&k->h[i], &x);
            fr_mul(&x, &x, &tw.tau);
        }
    }
    /* vk */
    expect_g1(&k->vk.alpha_g1, &tw.alpha);
    expect_g1(&k->vk.beta_g1, &tw.beta);
    expect_g1(&k->vk.delta_g1, &tw.delta);
    expect_g2(&k->vk.beta_g2, &tw.beta);
    expect_g2(&k->vk.gamma_g2, &tw.gamma);
    expect_g2(&k->vk.delta_g2, &tw.delta);
    free(dom);
    free(lag);
    for (int i = 0; i < 3; i++)
        free(col[i]);
}

static void test_key_vs_reference(void **state)
{
    (void)state;
    static const uint32_t rows[] = {3, 4, 5, 8, 9, 17};
    for (int ci = 0; ci < 2; ci++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            tcirc_t t;
            groth16_key_t k;
            uint64_t seed = rand_seed();
            make_circuit(&t, rows[i], rows[i] <= 4 ? 1 : 1 + rand_below(2));
            setup_ok(&k, &t, CONVS[ci], seed, 1 + (int)rand_below(4));
            check_key_slow(&k, &t, seed);
            if (CONVS[ci] == GROTH16_SNARKJS) {
                /* section 4: the A then B entries, row by row */
                size_t at = 0;
                for (int mi = 0; mi < 2; mi++)
                    for (uint32_t r = 0; r < t.c.n_rows; r++)
                        for (uint64_t e = t.c.m[mi].row_ptr[r]; e < t.c.m[mi].row_ptr[r + 1];
                             e++, at++) {
                            assert_true(at < k.n_coefs);
                            assert_int_equal(k.coefs[at].matrix, mi);
                            assert_int_equal(k.coefs[at].row, r);
                            assert_int_equal(k.coefs[at].wire, t.c.m[mi].col[e]);
                            assert_true(fr_equal(&k.coefs[at].value, &t.c.dict[t.c.m[mi].coef[e]]));
                        }
                assert_int_equal(at, k.n_coefs);
            } else {
                assert_null(k.coefs);
            }
            groth16_key_free(&k);
            tcirc_free(&t);
        }
}

/* Fixed-base multiplication against g1_mul_fr / g2_mul_fr on edge-biased
 * scalars (tu_rand_fr gives 0, 1, -1, small values) plus long runs of 0/1
 * bits and powers of two. */
static void edge_scalar(fr_t *out, size_t i)
{
    uint64_t l[FR_LIMBS] = {0, 0, 0, 0};
    switch (i % 5) {
    case 0: /* 2^b */
        l[(i / 5 % 255) / 64] = (uint64_t)1 << ((i / 5 % 255) % 64);
        (void)fr_from_limbs(out, l);
        return;
    case 1: /* 2^b - 1: a run of ones */
        for (unsigned b = 0; b < (i / 5 % 254) + 1; b++)
            l[b / 64] |= (uint64_t)1 << (b % 64);
        (void)fr_from_limbs(out, l);
        return;
    default: tu_rand_fr(out); return;
    }
}

static void test_fixed_base(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 17, 600, 1025};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        fr_t *k = malloc(n * sizeof *k);
        g1_affine_t *p1 = malloc(n * sizeof *p1);
        g2_affine_t *p2 = malloc(n * sizeof *p2);
        assert_true(k && p1 && p2);
        for (size_t i = 0; i < n; i++)
            edge_scalar(&k[i], i + (size_t)rand_below(5));
        k[0] = FR_ZERO;
        if (n > 1)
            fr_neg(&k[1], &FR_ONE);
        assert_int_equal(setup_g1_mul_gen(p1, k, n, 1 + (int)rand_below(3)), CUZK_OK);
        size_t n2 = n < 64 ? n : 64;
        assert_int_equal(setup_g2_mul_gen(p2, k, n2, 0), CUZK_OK);
        for (size_t i = 0; i < n; i++)
            expect_g1(&p1[i], &k[i]);
        for (size_t i = 0; i < n2; i++)
            expect_g2(&p2[i], &k[i]);
        assert_true(g1_affine_is_inf(&p1[0]));
        free(k);
        free(p1);
        free(p2);
    }
    assert_int_equal(setup_g1_mul_gen(NULL, NULL, 0, 0), CUZK_OK);
}

/* e(P, G2) == e(G1, Q), checked as e(P, -G2) e(G1, Q) == 1. */
static int same_log(const g1_affine_t *p, const g2_affine_t *q)
{
    g1_affine_t ps[2] = {*p, G1_GENERATOR};
    g2_affine_t qs[2];
    g2_affine_neg(&qs[0], &G2_GENERATOR);
    qs[1] = *q;
    fp12_t f;
    assert_int_equal(pairing_product(&f, ps, qs, 2), CUZK_OK);
    return fp12_is_one(&f);
}

static void test_pairing_identities(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        tcirc_t t;
        groth16_key_t k;
        make_circuit(&t, 24, 2);
        setup_ok(&k, &t, CONVS[ci], rand_seed(), 0);
        for (size_t j = 0; j < k.n_b; j += 1 + rand_below(3))
            assert_true(same_log(&k.b_g1[j], &k.b_g2[j]));
        assert_true(same_log(&k.vk.beta_g1, &k.vk.beta_g2));
        assert_true(same_log(&k.vk.delta_g1, &k.vk.delta_g2));
        assert_false(same_log(&k.vk.alpha_g1, &k.vk.beta_g2));
        assert_false(same_log(&k.vk.delta_g1, &k.vk.beta_g2));
        /* every point is in the subgroup */
        for (size_t j = 0; j < k.n_a; j++)
            assert_true(g1_affine_is_on_curve(&k.a[j]) && g1_affine_in_subgroup(&k.a[j]));
        for (size_t j = 0; j < k.n_h; j++)
            assert_true(g1_affine_is_on_curve(&k.h[j]) && g1_affine_in_subgroup(&k.h[j]));
        for (size_t j = 0; j < k.n_b; j++)
            assert_true(g2_affine_is_on_curve(&k.b_g2[j]) && g2_affine_in_subgroup(&k.b_g2[j]));
        groth16_key_free(&k);
        tcirc_free(&t);
    }
}

static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *b = tu_read_file(path, len);
    assert_non_null(b);
    return b;
}

static void write_key(const groth16_key_t *k, const char *path)
{
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = k->conv == GROTH16_SNARKJS ? zkey_write_file(path, k, &e)
                                                : bellperson_params_write_file(path, k, &e);
    if (st != CUZK_OK)
        print_message("write %s: %s\n", path, e.msg);
    assert_int_equal(st, CUZK_OK);
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int ci = 0; ci < 2; ci++) {
        tcirc_t t;
        groth16_key_t k1, k2, k3;
        char p1[128], p2[128], p3[128], v1[128], v2[128];
        make_circuit(&t, 40, 3);
        uint64_t seed = rand_seed();
        setup_ok(&k1, &t, CONVS[ci], seed, 1);
        setup_ok(&k2, &t, CONVS[ci], seed, 3);
        setup_ok(&k3, &t, CONVS[ci], seed + 1, 0);
        tmp_path(p1, sizeof p1, "det1.key");
        tmp_path(p2, sizeof p2, "det2.key");
        tmp_path(p3, sizeof p3, "det3.key");
        tmp_path(v1, sizeof v1, "det1.vk");
        tmp_path(v2, sizeof v2, "det2.vk");
        write_key(&k1, p1);
        write_key(&k2, p2);
        write_key(&k3, p3);
        cuzk_error_t e = {CUZK_OK, ""};
        assert_int_equal(bellperson_vk_write_file(v1, &k1.vk, &e), CUZK_OK);
        assert_int_equal(bellperson_vk_write_file(v2, &k2.vk, &e), CUZK_OK);
        size_t l1, l2, l3, lv1, lv2;
        uint8_t *b1 = slurp(p1, &l1), *b2 = slurp(p2, &l2), *b3 = slurp(p3, &l3);
        uint8_t *c1 = slurp(v1, &lv1), *c2 = slurp(v2, &lv2);
        assert_int_equal(l1, l2);
        assert_memory_equal(b1, b2, l1);
        assert_int_equal(lv1, lv2);
        assert_memory_equal(c1, c2, lv1);
        assert_int_equal(l1, l3);
        assert_memory_not_equal(b1, b3, l1);
        /* the .vk is the start of the .params */
        if (CONVS[ci] == GROTH16_BELLPERSON)
            assert_memory_equal(b1, c1, lv1);
        assert_int_equal(lv1, bellperson_vk_bytes(k1.vk.n_ic));
        free(b1);
        free(b2);
        free(b3);
        free(c1);
        free(c2);
        unlink(p1);
        unlink(p2);
        unlink(p3);
        unlink(v1);
        unlink(v2);
        groth16_key_free(&k1);
        groth16_key_free(&k2);
        groth16_key_free(&k3);
        tcirc_free(&t);
    }
}

/* A written .zkey read back by zkey.h proves the same proof. */
static void test_zkey_roundtrip(void **state)
{
    (void)state;
    tcirc_t t;
    groth16_key_t k;
    char path[128];
    make_circuit(&t, 100, 2);
    setup_ok(&k, &t, GROTH16_SNARKJS, rand_seed(), 0);
    tmp_path(path, sizeof path, "rt.zkey");
    write_key(&k, path);
    zkey_t z;
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = zkey_open(&z, path, ZKEY_CHECK_ALL, 0, &e);
    if (st != CUZK_OK)
        print_message("zkey_open: %s\n", e.msg);
    assert_int_equal(st, CUZK_OK);
    assert_int_equal(z.n_vars, k.n_vars);
    assert_int_equal(z.n_public, k.n_public);
    assert_int_equal(z.log_domain, k.log_m);
    assert_int_equal(z.n_coefs, k.n_coefs);
    zkey_coef_t *cf = malloc(k.n_coefs * sizeof *cf);
    assert_non_null(cf);
    assert_int_equal(zkey_coefs_get(cf, &z, 0, z.n_coefs), CUZK_OK);
    for (size_t i = 0; i < k.n_coefs; i++) {
        assert_int_equal(cf[i].matrix, k.coefs[i].matrix);
        assert_int_equal(cf[i].row, k.coefs[i].row);
        assert_int_equal(cf[i].wire, k.coefs[i].wire);
        assert_true(fr_equal(&cf[i].value, &k.coefs[i].value));
    }
    free(cf);
    /* section 4 value bytes = v R^2 mod r, by the reference bigint */
    ref_bn_t rmod, v, rr, want, got;
    ref_from_limbs(&rmod, FR_MODULUS, FR_LIMBS);
    ref_set_u64(&rr, 1);
    ref_shl(&rr, &rr, 512);
    for (size_t i = 0; i < k.n_coefs; i += 7) {
        uint8_t le[FR_BYTES];
        fr_to_le(le, &k.coefs[i].value);
        ref_from_le(&v, le, FR_BYTES);
        ref_mulmod(&want, &v, &rr, &rmod);
        ref_from_le(&got, z.coefs + i * ZKEY_COEF_BYTES + 12, FR_BYTES);
        assert_int_equal(ref_cmp(&want, &got), 0);
    }
    groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    pk.conv = GROTH16_SNARKJS;
    pk.n_vars = z.n_vars;
    pk.n_public = z.n_public;
    pk.log_m = z.log_domain;
    pk.alpha_g1 = z.alpha_g1;
    pk.beta_g1 = z.beta_g1;
    pk.delta_g1 = z.delta_g1;
    pk.beta_g2 = z.beta_g2;
    pk.delta_g2 = z.delta_g2;
    pk.a = (groth16_query_t){zkey_bases(&z.a), z.a.count};
    pk.b_g1 = (groth16_query_t){zkey_bases(&z.b1), z.b1.count};
    pk.b_g2 = (groth16_query_t){zkey_bases(&z.b2), z.b2.count};
    pk.l = (groth16_query_t){zkey_bases(&z.c), z.c.count};
    pk.h = (groth16_query_t){zkey_bases(&z.h), z.h.count};
    assert_int_equal(zkey_to_vk(&pk.vk, &z, &e), CUZK_OK);
    groth16_pk_t mem;
    groth16_key_pk(&mem, &k);
    groth16_proof_t p1, p2;
    fr_t zero = FR_ZERO;
    assert_int_equal(prove(&p1, &pk, &t, t.w, &zero, &zero), CUZK_OK);
    assert_int_equal(prove(&p2, &mem, &t, t.w, &zero, &zero), CUZK_OK);
    assert_true(proofs_equal(&p1, &p2));
    assert_int_equal(verifies(&pk.vk, &p1, &t), 1);
    groth16_vk_free(&pk.vk);
    zkey_close(&z);
    unlink(path);
    groth16_key_free(&k);
    tcirc_free(&t);
}

/* A written .params / .vk read back by bellperson.h proves the same proof. */
static void test_params_roundtrip(void **state)
{
    (void)state;
    tcirc_t t;
    groth16_key_t k;
    char path[128], vpath[128];
    make_circuit(&t, 100, 3);
    setup_ok(&k, &t, GROTH16_BELLPERSON, rand_seed(), 0);
    tmp_path(path, sizeof path, "rt.params");
    tmp_path(vpath, sizeof vpath, "rt.vk");
    write_key(&k, path);
    cuzk_error_t e = {CUZK_OK, ""};
    assert_int_equal(bellperson_vk_write_file(vpath, &k.vk, &e), CUZK_OK);
    bellperson_params_t p;
    cuzk_status st = bellperson_params_open(&p, path, BELLPERSON_CHECK_ALL, 0, &e);
    if (st != CUZK_OK)
        print_message("params_open: %s\n", e.msg);
    assert_int_equal(st, CUZK_OK);
    groth16_vk_t vk;
    assert_int_equal(bellperson_vk_load(&vk, vpath, &e), CUZK_OK);
    assert_int_equal(vk.n_ic, k.vk.n_ic);
    for (size_t i = 0; i < vk.n_ic; i++)
        assert_true(g1_affine_equal(&vk.ic[i], &k.vk.ic[i]));
    assert_true(g2_affine_equal(&vk.delta_g2, &k.vk.delta_g2));
    assert_int_equal(p.h.n, k.n_h);
    assert_int_equal(p.l.n, k.n_l);
    assert_int_equal(p.a.n, k.n_a);
    assert_int_equal(p.b_g1.n, k.n_b);
    assert_int_equal(p.b_g2.n, k.n_b);
    groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    pk.conv = GROTH16_BELLPERSON;
    pk.n_vars = k.n_vars;
    pk.n_public = (uint32_t)p.vk.n_ic - 1;
    pk.log_m = 0;
    while (((size_t)1 << pk.log_m) < p.h.n + 1)
        pk.log_m++;
    pk.alpha_g1 = p.vk.alpha_g1;
    pk.beta_g1 = p.vk.beta_g1;
    pk.delta_g1 = p.vk.delta_g1;
    pk.beta_g2 = p.vk.beta_g2;
    pk.delta_g2 = p.vk.delta_g2;
    pk.a = (groth16_query_t){bellperson_points_bases(&p.a), p.a.n};
    pk.b_g1 = (groth16_query_t){bellperson_points_bases(&p.b_g1), p.b_g1.n};
    pk.b_g2 = (groth16_query_t){bellperson_points_bases(&p.b_g2), p.b_g2.n};
    pk.l = (groth16_query_t){bellperson_points_bases(&p.l), p.l.n};
    pk.h = (groth16_query_t){bellperson_points_bases(&p.h), p.h.n};
    pk.vk = p.vk;
    groth16_pk_t mem;
    groth16_key_pk(&mem, &k);
    groth16_proof_t p1, p2;
    fr_t r, s;
    tu_rand_fr(&r);
    tu_rand_fr(&s);
    assert_int_equal(prove(&p1, &pk, &t, t.w, &r, &s), CUZK_OK);
    assert_int_equal(prove(&p2, &mem, &t, t.w, &r, &s), CUZK_OK);
    assert_true(proofs_equal(&p1, &p2));
    assert_int_equal(verifies(&vk, &p1, &t), 1);
    groth16_vk_free(&vk);
    bellperson_params_close(&p);
    unlink(path);
    unlink(vpath);
    groth16_key_free(&k);
    tcirc_free(&t);
}

/* The circom circuit as a snarkjs-convention circuit: the r1cs rows, then
 * A = w_s in row nConstraints + s for s = 0..nPublic. */
static void circuit_from_r1cs(circuit_t *c, const r1cs_t *r)
{
    uint32_t np = r->n_pub_out + r->n_pub_in;
    circuit_builder_t *b = circuit_builder_new(r->n_constraints + np + 1, r->n_wires, np);
    assert_non_null(b);
    for (int mi = 0; mi < 3; mi++)
        for (uint32_t row = 0; row < r->n_constraints; row++)
            for (uint64_t e = r->m[mi].row_ptr[row]; e < r->m[mi].row_ptr[row + 1]; e++)
                add_term(b, (circuit_matrix)mi, row, r->m[mi].col[e], &r->coef[r->m[mi].coef[e]]);
    for (uint32_t s = 0; s <= np; s++)
        add_term(b, CIRCUIT_A, r->n_constraints + s, s, &FR_ONE);
    cuzk_error_t e = {CUZK_OK, ""};
    assert_int_equal(circuit_builder_finish(c, b, &e), CUZK_OK);
}

static int cmp_rec(const void *x, const void *y)
{
    return memcmp(x, y, ZKEY_COEF_BYTES);
}

/* Section 4 of our multiplier key equals snarkjs's (as a set of records),
 * and the key proves the reference witness. */
static void test_multiplier(void **state)
{
    (void)state;
    const char *dir = CUZK_TESTDATA_DIR "/snarkjs/multiplier";
    char p_r1cs[512], p_wtns[512], p_zkey[512], out[128];
    snprintf(p_r1cs, sizeof p_r1cs, "%s/multiplier.r1cs", dir);
    snprintf(p_wtns, sizeof p_wtns, "%s/witness.wtns", dir);
    snprintf(p_zkey, sizeof p_zkey, "%s/multiplier.zkey", dir);
    if (access(p_r1cs, R_OK) != 0) {
        print_message("skipped: %s not found\n", p_r1cs);
        return;
    }
    cuzk_error_t e = {CUZK_OK, ""};
    r1cs_t r;
    wtns_t w;
    zkey_t ref, ours;
    assert_int_equal(r1cs_read(&r, p_r1cs, &e), CUZK_OK);
    assert_int_equal(wtns_read(&w, p_wtns, 0, &e), CUZK_OK);
    assert_int_equal(zkey_open(&ref, p_zkey, ZKEY_CHECK_HEADER, 0, &e), CUZK_OK);
    tcirc_t t;
    memset(&t, 0, sizeof t);
    circuit_from_r1cs(&t.c, &r);
    t.w = w.w;
    groth16_key_t k;
    setup_ok(&k, &t, GROTH16_SNARKJS, 20250101, 0);
    tmp_path(out, sizeof out, "multiplier.zkey");
    write_key(&k, out);
    assert_int_equal(zkey_open(&ours, out, ZKEY_CHECK_ALL, 0, &e), CUZK_OK);
    assert_int_equal(ours.n_vars, ref.n_vars);
    assert_int_equal(ours.n_public, ref.n_public);
    assert_int_equal(ours.domain_size, ref.domain_size);
    assert_int_equal(ours.n_coefs, ref.n_coefs);
    size_t nb = ref.n_coefs * ZKEY_COEF_BYTES;
    uint8_t *a = malloc(nb), *b = malloc(nb);
    assert_true(a && b);
    memcpy(a, ref.coefs, nb);
    memcpy(b, ours.coefs, nb);
    qsort(a, ref.n_coefs, ZKEY_COEF_BYTES, cmp_rec);
    qsort(b, ref.n_coefs, ZKEY_COEF_BYTES, cmp_rec);
    assert_memory_equal(a, b, nb);
    free(a);
    free(b);
    prove_and_verify(&k, &t);
    zkey_close(&ours);
    zkey_close(&ref);
    unlink(out);
    groth16_key_free(&k);
    circuit_free(&t.c);
    wtns_free(&w);
    r1cs_free(&r);
}

static void test_errors(void **state)
{
    (void)state;
    tcirc_t t;
    groth16_key_t k, kb;
    cuzk_error_t e = {CUZK_OK, ""};
    make_circuit(&t, 8, 1);
    assert_int_equal(groth16_setup(NULL, &t.c, GROTH16_SNARKJS, 1, 0, &e), CUZK_ERR_ARG);
    assert_int_equal(groth16_setup(&k, NULL, GROTH16_SNARKJS, 1, 0, &e), CUZK_ERR_ARG);
    assert_int_equal(groth16_setup(&k, &t.c, (groth16_convention)7, 1, 0, &e), CUZK_ERR_ARG);
    assert_null(k.a);
    groth16_key_free(&k); /* zeroed: harmless */
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, 5);
    groth16_toxic_t bad = tw;
    assert_int_equal(fr_root_of_unity(&bad.tau, FR_ROOTS_FFJS, 5), CUZK_OK);
    assert_int_equal(groth16_setup_toxic(&k, &t.c, GROTH16_SNARKJS, &bad, 0, &e), CUZK_ERR_ARG);
    bad = tw;
    bad.delta = FR_ZERO;
    assert_int_equal(groth16_setup_toxic(&k, &t.c, GROTH16_SNARKJS, &bad, 0, &e), CUZK_ERR_ARG);
    circuit_t c2 = t.c;
    c2.n_public = c2.n_vars;
    assert_int_equal(groth16_setup(&k, &c2, GROTH16_SNARKJS, 1, 0, &e), CUZK_ERR_ARG);

    /* writers: the wrong convention, a missing folder, a full device */
    setup_ok(&k, &t, GROTH16_SNARKJS, 1, 0);
    setup_ok(&kb, &t, GROTH16_BELLPERSON, 1, 0);
    char path[128];
    tmp_path(path, sizeof path, "wrong.key");
    assert_int_equal(zkey_write_file(path, &kb, &e), CUZK_ERR_ARG);
    assert_int_equal(bellperson_params_write_file(path, &k, &e), CUZK_ERR_ARG);
    assert_int_equal(access(path, F_OK), -1);
    const char *missing = "/nonexistent-cuzk-dir/k.zkey";
    assert_int_equal(zkey_write_file(missing, &k, &e), CUZK_ERR_IO);
    assert_non_null(strstr(e.msg, missing));
    assert_int_equal(bellperson_params_write_file(missing, &kb, &e), CUZK_ERR_IO);
    assert_non_null(strstr(e.msg, missing));
    assert_int_equal(bellperson_vk_write_file(missing, &kb.vk, &e), CUZK_ERR_IO);
    struct stat sb;
    if (stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode)) {
        assert_int_equal(zkey_write_file("/dev/full", &k, &e), CUZK_ERR_IO);
        assert_non_null(strstr(e.msg, "/dev/full"));
        assert_int_equal(bellperson_params_write_file("/dev/full", &kb, &e), CUZK_ERR_IO);
        assert_int_equal(stat("/dev/full", &sb), 0); /* never unlinked */
    }
    /* the key's vk agrees with its pk view */
    groth16_pk_t pk;
    groth16_key_pk(&pk, &k);
    assert_int_equal(pk.h.n, 8);
    assert_int_equal(pk.h.bases.fmt, MSM_BASES_AFFINE);
    assert_ptr_equal(pk.vk.ic, k.vk.ic);
    groth16_key_pk(&pk, &kb);
    assert_int_equal(pk.h.n, 7);
    groth16_key_free(&k);
    groth16_key_free(&kb);
    groth16_key_free(&kb);
    tcirc_free(&t);
}

int main(void)
{
    tu_init("test_setup");
    snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/cuzk_setup_XXXXXX");
    if (!mkdtemp(g_tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_base),       cmocka_unit_test(test_key_vs_reference),
        cmocka_unit_test(test_prove_verify),     cmocka_unit_test(test_unsatisfied),
        cmocka_unit_test(test_wrong_key),        cmocka_unit_test(test_pairing_identities),
        cmocka_unit_test(test_deterministic),    cmocka_unit_test(test_zkey_roundtrip),
        cmocka_unit_test(test_params_roundtrip), cmocka_unit_test(test_multiplier),
        cmocka_unit_test(test_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(g_tmpdir);
    return rc;
}
