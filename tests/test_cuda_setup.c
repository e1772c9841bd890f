/* The GPU test setup (cuda_setup.h) against the CPU's groth16_setup_toxic:
 * every array of the key byte for byte (A, B_G1, B_G2, L, H, the vk with
 * IC, the counts, snarkjs's coefficients), both conventions.
 *
 * Circuits: gen_porep at K = 10, 12, 14; hand-made edge cases: one row, a
 * wire in no matrix (zero scalars: infinity points), no B entries at all,
 * no aux wire (empty L), a column far over the heavy threshold (several
 * block-summed pieces) and one just over it, a row of 5000 terms,
 * non-power-of-two row counts, coefficients 1, -1 and random; toxic waste
 * from several seeds (printed). The device-key path (dev != NULL, then
 * cuzk_cuda_key_dev_download into NULL and into poisoned arrays) must give
 * the same bytes. Some runs set CUZK_CUDA_SETUP_CHUNK small so that the
 * fixed-base passes cross chunk boundaries.
 * CUZK_TEST_BIG=K (e.g. 27) also times a gen_porep circuit at 2^K with the
 * device key, prints the stage times and cuzk_cuda_setup_bytes, and checks
 * a sample of L and H points against the host (no full CPU key there).
 * Without a GPU the comparisons print "no GPU" and are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/circuit.h"
#include "cuzk/cuda.h"
#include "cuzk/cuda_setup.h"
#include "cuzk/gen.h"
#include "cuzk/setup.h"
#include "test_util.h"

static int g_gpus;

static const groth16_convention CONVS[2] = {GROTH16_SNARKJS, GROTH16_BELLPERSON};
static const char *const CONV_NAME[2] = {"snarkjs", "bellperson"};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int skip_without_gpu(void)
{
    if (g_gpus > 0)
        return 0;
    printf("no GPU: CUDA setup test skipped\n");
    skip();
    return 1;
}

/* ---- comparison ----------------------------------------------------------- */

static void same_array(const void *cpu, const void *gpu, size_t n, size_t point, const char *name,
                       const char *what)
{
    if (n == 0)
        return;
    if (!cpu || !gpu)
        fail_msg("%s: %s array missing (cpu %p, gpu %p)", what, name, cpu, gpu);
    if (memcmp(cpu, gpu, n * point) == 0)
        return;
    for (size_t i = 0; i < n; i++)
        if (memcmp((const uint8_t *)cpu + i * point, (const uint8_t *)gpu + i * point, point))
            fail_msg("%s: %s[%zu] of %zu differs", what, name, i, n);
}

static void same_key(const groth16_key_t *c, const groth16_key_t *g, const char *what)
{
    if (c->conv != g->conv || c->n_vars != g->n_vars || c->n_public != g->n_public ||
        c->n_rows != g->n_rows || c->log_m != g->log_m)
        fail_msg("%s: key shape differs", what);
    if (c->n_a != g->n_a || c->n_b != g->n_b || c->n_l != g->n_l || c->n_h != g->n_h)
        fail_msg("%s: counts differ: A %zu/%zu B %zu/%zu L %zu/%zu H %zu/%zu", what, c->n_a, g->n_a,
                 c->n_b, g->n_b, c->n_l, g->n_l, c->n_h, g->n_h);
    const groth16_vk_t *a = &c->vk, *b = &g->vk;
    if (memcmp(&a->alpha_g1, &b->alpha_g1, sizeof a->alpha_g1) ||
        memcmp(&a->beta_g1, &b->beta_g1, sizeof a->beta_g1) ||
        memcmp(&a->beta_g2, &b->beta_g2, sizeof a->beta_g2) ||
        memcmp(&a->gamma_g2, &b->gamma_g2, sizeof a->gamma_g2) ||
        memcmp(&a->delta_g1, &b->delta_g1, sizeof a->delta_g1) ||
        memcmp(&a->delta_g2, &b->delta_g2, sizeof a->delta_g2))
        fail_msg("%s: vk points differ", what);
    if (a->n_ic != b->n_ic)
        fail_msg("%s: %zu / %zu IC points", what, a->n_ic, b->n_ic);
    same_array(a->ic, b->ic, a->n_ic, sizeof *a->ic, "IC", what);
    same_array(c->a, g->a, c->n_a, sizeof *c->a, "A", what);
    same_array(c->b_g1, g->b_g1, c->n_b, sizeof *c->b_g1, "B_G1", what);
    same_array(c->b_g2, g->b_g2, c->n_b, sizeof *c->b_g2, "B_G2", what);
    same_array(c->l, g->l, c->n_l, sizeof *c->l, "L", what);
    same_array(c->h, g->h, c->n_h, sizeof *c->h, "H", what);
    if (c->n_coefs != g->n_coefs || (!c->coefs) != (!g->coefs))
        fail_msg("%s: %zu / %zu coefficients", what, c->n_coefs, g->n_coefs);
    /* field by field: the CPU leaves the padding before value uninitialised */
    for (size_t i = 0; i < c->n_coefs; i++) {
        const zkey_coef_t *x = &c->coefs[i], *y = &g->coefs[i];
        if (x->matrix != y->matrix || x->row != y->row || x->wire != y->wire ||
            memcmp(&x->value, &y->value, sizeof x->value))
            fail_msg("%s: coefs[%zu] of %zu differs", what, i, c->n_coefs);
    }
}

/* CPU key, GPU key (downloaded), GPU key left on the device then
 * downloaded twice (into NULL arrays and into poisoned ones): all equal. */
static void check_circuit(const circuit_t *c, groth16_convention conv, const groth16_toxic_t *tw,
                          const char *what)
{
    cuzk_error_t err = {0};
    groth16_key_t cpu, gpu, kd;
    double t0 = now_s();
    if (groth16_setup_toxic(&cpu, c, conv, tw, 0, &err) != CUZK_OK)
        fail_msg("%s: CPU setup: %s", what, err.msg);
    double t1 = now_s();
    cuzk_cuda_setup_times_t tm;
    if (cuzk_cuda_setup_toxic(&gpu, NULL, c, conv, tw, 0, &tm, &err) != CUZK_OK)
        fail_msg("%s: GPU setup: %s", what, err.msg);
    double t2 = now_s();
    same_key(&cpu, &gpu, what);
    groth16_key_free(&gpu);

    cuzk_cuda_key_dev_t dev;
    if (cuzk_cuda_setup_toxic(&kd, &dev, c, conv, tw, 0, NULL, &err) != CUZK_OK)
        fail_msg("%s: GPU setup (device key): %s", what, err.msg);
    assert_null(kd.a);
    assert_null(kd.b_g1);
    assert_null(kd.b_g2);
    assert_null(kd.l);
    assert_null(kd.h);
    assert_int_equal(dev.device, 0);
    assert_int_equal(dev.n_a, cpu.n_a);
    assert_int_equal(dev.n_b, cpu.n_b);
    assert_int_equal(dev.n_l, cpu.n_l);
    assert_int_equal(dev.n_h, cpu.n_h);
    if (cuzk_cuda_key_dev_download(&kd, &dev, &err) != CUZK_OK)
        fail_msg("%s: download: %s", what, err.msg);
    same_key(&cpu, &kd, what);
    /* again into the caller's arrays, poisoned */
    void **arr[5] = {(void **)&kd.a, (void **)&kd.b_g1, (void **)&kd.b_g2, (void **)&kd.l,
                     (void **)&kd.h};
    size_t bytes[5] = {kd.n_a * sizeof *kd.a, kd.n_b * sizeof *kd.b_g1, kd.n_b * sizeof *kd.b_g2,
                       kd.n_l * sizeof *kd.l, kd.n_h * sizeof *kd.h};
    for (int i = 0; i < 5; i++)
        memset(*arr[i], 0xa5, bytes[i]);
    if (cuzk_cuda_key_dev_download(&kd, &dev, &err) != CUZK_OK)
        fail_msg("%s: download into arrays: %s", what, err.msg);
    same_key(&cpu, &kd, what);
    cuzk_cuda_key_dev_free(&dev);
    assert_null(dev.a);
    cuzk_cuda_key_dev_free(&dev); /* zeroed: harmless */
    groth16_key_free(&kd);
    groth16_key_free(&cpu);
    printf("  %s: equal (CPU %.3f s, GPU %.3f s: lagrange %.3f columns %.3f g1 %.3f g2 %.3f)\n",
           what, t1 - t0, t2 - t1, tm.lagrange, tm.columns, tm.g1, tm.g2);
}

static void seeded_toxic(groth16_toxic_t *tw, uint64_t *seed_out)
{
    uint64_t seed = tu_rand64();
    groth16_toxic_from_seed(tw, seed);
    if (seed_out)
        *seed_out = seed;
}

/* ---- circuits ------------------------------------------------------------- */

static void add(circuit_builder_t *b, circuit_matrix m, uint32_t row, uint32_t col,
                const fr_t *coef)
{
    cuzk_error_t e = {0};
    if (circuit_builder_add(b, m, row, col, coef, &e) != CUZK_OK)
        fail_msg("circuit_builder_add: %s", e.msg);
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

static void finish(circuit_t *c, circuit_builder_t *b)
{
    cuzk_error_t e = {0};
    if (circuit_builder_finish(c, b, &e) != CUZK_OK)
        fail_msg("circuit_builder_finish: %s", e.msg);
}

typedef struct shape {
    const char *name;
    uint32_t n_body, n_public, n_aux; /* body rows, then one input row per input */
    uint32_t hot_rows;                /* rows (from 0) using wire `hot` in A, B and C */
    uint32_t warm_rows;               /* rows using wire `warm` in B (just heavy) */
    uint32_t long_row;                /* terms of row 0 in A (0: none extra) */
    int no_b;                         /* no B entries at all */
    int unused;                       /* the last wire is in no matrix */
} shape_t;

/* Random terms over the wires (the last one skipped when s->unused), then
 * the input rows A = w_i. Not satisfiable: the setup does not need it. */
static void make_circuit(circuit_t *c, const shape_t *s)
{
    uint32_t n_in = s->n_public + 1, n_vars = n_in + s->n_aux;
    uint32_t rows = s->n_body + n_in, pick = n_vars - (s->unused ? 1 : 0);
    uint32_t hot = n_vars > n_in + 1 ? n_in + 1 : 0, warm = n_vars > n_in ? n_in : 0;
    circuit_builder_t *b = circuit_builder_new(rows, n_vars, s->n_public);
    assert_non_null(b);
    fr_t k;
    for (uint32_t r = 0; r < s->n_body; r++) {
        for (int m = 0; m < 3; m++) {
            if (m == CIRCUIT_B && s->no_b)
                continue;
            unsigned terms = (unsigned)(tu_rand64() % 4);
            for (unsigned t = 0; t < terms; t++) {
                rand_coef(&k);
                add(b, (circuit_matrix)m, r, (uint32_t)(tu_rand64() % pick), &k);
            }
            if (r < s->hot_rows && !(m == CIRCUIT_B && s->no_b)) {
                rand_coef(&k);
                add(b, (circuit_matrix)m, r, hot, &k);
            }
        }
        if (r < s->warm_rows && !s->no_b) {
            rand_coef(&k);
            add(b, CIRCUIT_B, r, warm, &k);
        }
    }
    for (uint32_t t = 0; t < s->long_row && s->n_body; t++) {
        rand_coef(&k);
        add(b, CIRCUIT_A, 0, t % pick, &k);
    }
    for (uint32_t i = 0; i < n_in; i++)
        add(b, CIRCUIT_A, s->n_body + i, i, &FR_ONE);
    finish(c, b);
}

static void make_porep(circuit_t *c, unsigned k)
{
    gen_shape_t s;
    cuzk_error_t e = {0};
    assert_int_equal(gen_porep_shape(&s, k, &e), CUZK_OK);
    if (gen_porep_circuit(c, &s, 1000 + k, 0, &e) != CUZK_OK)
        fail_msg("gen_porep_circuit: %s", e.msg);
}

/* ---- tests ---------------------------------------------------------------- */

static void test_porep(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const unsigned ks[] = {10, 12, 14};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        circuit_t c;
        make_porep(&c, ks[i]);
        for (int ci = 0; ci < 2; ci++) {
            groth16_toxic_t tw;
            uint64_t seed;
            seeded_toxic(&tw, &seed);
            char what[96];
            snprintf(what, sizeof what, "porep K=%u %s seed %llu", ks[i], CONV_NAME[ci],
                     (unsigned long long)seed);
            check_circuit(&c, CONVS[ci], &tw, what);
        }
        size_t need = cuzk_cuda_setup_bytes(&c, GROTH16_BELLPERSON);
        assert_true(need > 0);
        printf("  porep K=%u: cuzk_cuda_setup_bytes %zu\n", ks[i], need);
        circuit_free(&c);
    }
}

static const shape_t SHAPES[] = {
    {"one row", 0, 0, 2, 0, 0, 0, 0, 1},
    {"tiny", 1, 1, 3, 0, 0, 0, 0, 1},
    {"no B", 40, 2, 30, 0, 0, 0, 1, 0},
    {"no aux", 7, 3, 0, 0, 0, 0, 0, 0},
    {"hot column", 9000, 2, 500, 9000, 100, 0, 0, 1},
    {"long row", 300, 1, 6000, 0, 0, 5000, 0, 0},
    {"odd rows", 1000, 5, 997, 70, 65, 0, 0, 1},
};

static void test_edges(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    for (size_t i = 0; i < sizeof SHAPES / sizeof *SHAPES; i++) {
        circuit_t c;
        make_circuit(&c, &SHAPES[i]);
        for (int ci = 0; ci < 2; ci++) {
            for (int rep = 0; rep < 2; rep++) {
                groth16_toxic_t tw;
                uint64_t seed;
                seeded_toxic(&tw, &seed);
                char what[96];
                snprintf(what, sizeof what, "%s (%u rows) %s seed %llu", SHAPES[i].name, c.n_rows,
                         CONV_NAME[ci], (unsigned long long)seed);
                check_circuit(&c, CONVS[ci], &tw, what);
            }
        }
        circuit_free(&c);
    }
}

/* Small fixed-base passes: every query and the table cross pass boundaries. */
static void test_chunks(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    static const char *chunks[] = {"1", "7", "1000"};
    circuit_t c;
    make_porep(&c, 10);
    for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
        setenv("CUZK_CUDA_SETUP_CHUNK", chunks[i], 1);
        for (int ci = 0; ci < 2; ci++) {
            groth16_toxic_t tw;
            uint64_t seed;
            seeded_toxic(&tw, &seed);
            char what[96];
            snprintf(what, sizeof what, "porep K=10 chunk %s %s seed %llu", chunks[i],
                     CONV_NAME[ci], (unsigned long long)seed);
            check_circuit(&c, CONVS[ci], &tw, what);
        }
    }
    unsetenv("CUZK_CUDA_SETUP_CHUNK");
    circuit_free(&c);
}

/* Errors as the CPU's, checked before the device is touched; then the
 * device-side checks (no such device, bad terms). */
static void test_args(void **state)
{
    (void)state;
    shape_t s = {"args", 10, 1, 8, 0, 0, 0, 0, 0};
    circuit_t c;
    make_circuit(&c, &s);
    groth16_toxic_t tw, bad;
    groth16_toxic_from_seed(&tw, 7);
    groth16_key_t k;
    cuzk_cuda_key_dev_t dev;
    cuzk_error_t err = {0};
    assert_int_equal(cuzk_cuda_setup_toxic(NULL, NULL, &c, GROTH16_BELLPERSON, &tw, 0, NULL, &err),
                     CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_setup_toxic(&k, NULL, NULL, GROTH16_BELLPERSON, &tw, 0, NULL, &err),
                     CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_setup_toxic(&k, &dev, &c, (groth16_convention)9, &tw, 0, NULL, &err),
                     CUZK_ERR_ARG);
    assert_null(dev.a);
    bad = tw;
    bad.delta = FR_ZERO;
    assert_int_equal(cuzk_cuda_setup_toxic(&k, NULL, &c, GROTH16_SNARKJS, &bad, 0, NULL, &err),
                     CUZK_ERR_ARG);
    bad = tw;
    bad.tau = FR_ONE; /* a root of unity */
    assert_int_equal(cuzk_cuda_setup_toxic(&k, NULL, &c, GROTH16_SNARKJS, &bad, 0, NULL, &err),
                     CUZK_ERR_ARG);
    printf("  bad tau: \"%s\"\n", err.msg);
    /* row offsets that do not end at nnz */
    c.m[CIRCUIT_B].row_ptr[c.n_rows]++;
    assert_int_equal(cuzk_cuda_setup_toxic(&k, NULL, &c, GROTH16_BELLPERSON, &tw, 0, NULL, &err),
                     CUZK_ERR_ARG);
    c.m[CIRCUIT_B].row_ptr[c.n_rows]--;
    assert_int_equal(cuzk_cuda_setup_bytes(NULL, GROTH16_BELLPERSON), 0);
    assert_true(cuzk_cuda_setup_bytes(&c, GROTH16_SNARKJS) > 0);
    cuzk_cuda_key_dev_free(NULL);
    cuzk_status st =
        cuzk_cuda_setup_toxic(&k, NULL, &c, GROTH16_BELLPERSON, &tw, g_gpus + 3, NULL, &err);
    assert_int_equal(st, CUZK_ERR_NO_DEVICE);
    printf("  device %d: \"%s\"\n", g_gpus + 3, err.msg);
    st = cuzk_cuda_setup(&k, NULL, &c, GROTH16_BELLPERSON, 7, 0, NULL, &err);
    if (g_gpus == 0) {
        assert_int_equal(st, CUZK_ERR_NO_DEVICE);
        printf("no GPU: cuzk_cuda_setup says \"%s\"\n", err.msg);
        circuit_free(&c);
        return;
    }
    if (st != CUZK_OK)
        fail_msg("cuzk_cuda_setup: %s", err.msg);
    groth16_key_t cpu;
    assert_int_equal(groth16_setup(&cpu, &c, GROTH16_BELLPERSON, 7, 0, &err), CUZK_OK);
    same_key(&cpu, &k, "seeded setup");
    groth16_key_free(&cpu);
    groth16_key_free(&k);
    /* a column out of range: the device finds it */
    uint32_t saved = c.m[CIRCUIT_C].col[0];
    c.m[CIRCUIT_C].col[0] = c.n_vars + 5;
    memset(&dev, 0x5a, sizeof dev);
    st = cuzk_cuda_setup_toxic(&k, &dev, &c, GROTH16_BELLPERSON, &tw, 0, NULL, &err);
    assert_int_equal(st, CUZK_ERR_ARG);
    printf("  bad column: \"%s\"\n", err.msg);
    assert_null(dev.a);
    assert_null(k.vk.ic);
    c.m[CIRCUIT_C].col[0] = saved;
    /* counts that do not match the device key */
    assert_int_equal(cuzk_cuda_setup_toxic(&k, &dev, &c, GROTH16_BELLPERSON, &tw, 0, NULL, &err),
                     CUZK_OK);
    k.n_l++;
    assert_int_equal(cuzk_cuda_key_dev_download(&k, &dev, &err), CUZK_ERR_ARG);
    k.n_l--;
    cuzk_cuda_key_dev_free(&dev);
    groth16_key_free(&k);
    circuit_free(&c);
}

/* ---- the big run (CUZK_TEST_BIG=K) ----------------------------------------- */

/* L_r(tau) over the bellperson domain for one row r. */
static void lagrange_at(fr_t *out, const fr_t *tau, const fr_t *omega, unsigned log_m, uint32_t r)
{
    fr_t x, z, t, n_inv;
    uint64_t e = r;
    fr_pow_var(&x, omega, &e, 1);
    z = *tau;
    for (unsigned i = 0; i < log_m; i++)
        fr_sqr(&z, &z);
    fr_sub(&z, &z, &FR_ONE);
    fr_from_u64(&n_inv, (uint64_t)1 << log_m);
    fr_inv(&n_inv, &n_inv);
    fr_mul(&z, &z, &n_inv);
    fr_sub(&t, tau, &x);
    fr_inv(&t, &t);
    fr_mul(&t, &t, &x);
    fr_mul(out, &t, &z);
}

static void expect_g1(const g1_affine_t *got, const fr_t *k, const char *what, size_t i)
{
    g1_jac_t j;
    g1_affine_t a;
    g1_from_affine(&j, &G1_GENERATOR);
    g1_mul_fr(&j, &j, k);
    g1_to_affine(&a, &j);
    if (memcmp(got, &a, sizeof a))
        fail_msg("big run: %s[%zu] differs from the host's", what, i);
}

/* A sample of L (columns other than the heavy ONE) and H against the host. */
static void spot_check(const circuit_t *c, const groth16_key_t *k, const groth16_toxic_t *tw)
{
    enum { N_SAMPLE = 8 };
    fr_t omega, delta_inv;
    assert_int_equal(fr_root_of_unity(&omega, FR_ROOTS_BELLMAN, k->log_m), CUZK_OK);
    fr_inv(&delta_inv, &tw->delta);
    uint32_t n_in = c->n_public + 1, cols[N_SAMPLE];
    fr_t sum[3][N_SAMPLE];
    memset(sum, 0, sizeof sum);
    for (int i = 0; i < N_SAMPLE; i++)
        cols[i] = n_in + (uint32_t)(tu_rand64() % (c->n_vars - n_in));
    for (int m = 0; m < 3; m++) {
        const circuit_csr_t *M = &c->m[m];
        for (uint32_t r = 0; r < c->n_rows; r++)
            for (uint64_t e = M->row_ptr[r]; e < M->row_ptr[r + 1]; e++)
                for (int i = 0; i < N_SAMPLE; i++)
                    if (M->col[e] == cols[i]) {
                        fr_t l;
                        lagrange_at(&l, &tw->tau, &omega, k->log_m, r);
                        fr_mul(&l, &l, &c->dict[M->coef[e]]);
                        fr_add(&sum[m][i], &sum[m][i], &l);
                    }
    }
    for (int i = 0; i < N_SAMPLE; i++) {
        fr_t kk, t;
        fr_mul(&kk, &tw->beta, &sum[0][i]);
        fr_mul(&t, &tw->alpha, &sum[1][i]);
        fr_add(&kk, &kk, &t);
        fr_add(&kk, &kk, &sum[2][i]);
        fr_mul(&kk, &kk, &delta_inv);
        expect_g1(&k->l[cols[i] - n_in], &kk, "L", cols[i] - n_in);
    }
    /* H_i = tau^i (tau^m - 1) / delta */
    fr_t zm = tw->tau;
    for (unsigned i = 0; i < k->log_m; i++)
        fr_sqr(&zm, &zm);
    fr_sub(&zm, &zm, &FR_ONE);
    fr_mul(&zm, &zm, &delta_inv);
    for (int s = 0; s < N_SAMPLE; s++) {
        size_t i = s == 0 ? 0 : s == 1 ? k->n_h - 1 : (size_t)(tu_rand64() % k->n_h);
        uint64_t e = i;
        fr_t x;
        fr_pow_var(&x, &tw->tau, &e, 1);
        fr_mul(&x, &x, &zm);
        expect_g1(&k->h[i], &x, "H", i);
    }
}

static void print_times(const char *what, const cuzk_cuda_setup_times_t *t)
{
    printf("  %s: upload %.3f lagrange %.3f columns %.3f scalars %.3f g1 %.3f g2 %.3f "
           "download %.3f total %.3f s\n",
           what, t->upload, t->lagrange, t->columns, t->scalars, t->g1, t->g2, t->download,
           t->total);
}

/* CUZK_TEST_BIG: the full comparison at K = 18 (several SMs' worth of
 * threads, many elements a thread). */
static void test_big(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    if (!getenv("CUZK_TEST_BIG")) {
        printf("  K = 18 comparison skipped (set CUZK_TEST_BIG=1)\n");
        return;
    }
    circuit_t c;
    make_porep(&c, 18);
    for (int ci = 0; ci < 2; ci++) {
        groth16_toxic_t tw;
        uint64_t seed;
        seeded_toxic(&tw, &seed);
        char what[96];
        snprintf(what, sizeof what, "porep K=18 %s seed %llu", CONV_NAME[ci],
                 (unsigned long long)seed);
        check_circuit(&c, CONVS[ci], &tw, what);
    }
    circuit_free(&c);
}

/* CUZK_TEST_SETUP_K=K: time the bellperson key of gen_porep at 2^K, left
 * on the device, then downloaded; spot-check L and H. */
static void test_scale(void **state)
{
    (void)state;
    if (skip_without_gpu())
        return;
    const char *ks = getenv("CUZK_TEST_SETUP_K");
    if (!ks) {
        printf("  timing run skipped (set CUZK_TEST_SETUP_K=27)\n");
        return;
    }
    unsigned k = (unsigned)atoi(ks);
    double t0 = now_s();
    circuit_t c;
    make_porep(&c, k);
    double t1 = now_s();
    size_t need = cuzk_cuda_setup_bytes(&c, GROTH16_BELLPERSON);
    double t2 = now_s();
    printf("  K=%u: %u rows, %u vars, nnz %llu/%llu/%llu; generated in %.1f s; "
           "cuzk_cuda_setup_bytes %zu (%.2f GiB, %.2f s)\n",
           k, c.n_rows, c.n_vars, (unsigned long long)c.m[0].nnz, (unsigned long long)c.m[1].nnz,
           (unsigned long long)c.m[2].nnz, t1 - t0, need, (double)need / (1u << 30), t2 - t1);
    groth16_toxic_t tw;
    uint64_t seed;
    seeded_toxic(&tw, &seed);
    groth16_key_t key;
    cuzk_cuda_key_dev_t dev;
    cuzk_cuda_setup_times_t tm;
    cuzk_error_t err = {0};
    if (cuzk_cuda_setup_toxic(&key, &dev, &c, GROTH16_BELLPERSON, &tw, 0, &tm, &err) != CUZK_OK)
        fail_msg("K=%u: %s", k, err.msg);
    print_times("device key", &tm);
    printf("  K=%u: A %zu B %zu L %zu H %zu points, %.2f GiB on the device\n", k, dev.n_a, dev.n_b,
           dev.n_l, dev.n_h, (double)dev.bytes / (1u << 30));
    double t3 = now_s();
    if (cuzk_cuda_key_dev_download(&key, &dev, &err) != CUZK_OK)
        fail_msg("K=%u: download: %s", k, err.msg);
    double t4 = now_s();
    /* again into the same arrays: the copy without the first-touch faults */
    if (cuzk_cuda_key_dev_download(&key, &dev, &err) != CUZK_OK)
        fail_msg("K=%u: download: %s", k, err.msg);
    printf("  K=%u: download %.3f s into fresh arrays, %.3f s into touched ones\n", k, t4 - t3,
           now_s() - t4);
    cuzk_cuda_key_dev_free(&dev);
    spot_check(&c, &key, &tw);
    printf("  K=%u: sampled L and H points equal the host's (seed %llu)\n", k,
           (unsigned long long)seed);
    groth16_key_free(&key);
    circuit_free(&c);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress survives a timeout */
    tu_init("test_cuda_setup");
    cuzk_error_t err = {0};
    if (cuzk_cuda_device_count(&g_gpus, &err) != CUZK_OK) {
        printf("CUDA error: %s\n", err.msg);
        return 1;
    }
    if (g_gpus == 0)
        printf("no GPU: the GPU parts of test_cuda_setup are skipped\n");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args),   cmocka_unit_test(test_edges), cmocka_unit_test(test_porep),
        cmocka_unit_test(test_chunks), cmocka_unit_test(test_big),   cmocka_unit_test(test_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
