/* The CUDA device arithmetic (the .cuh headers of src/backend/cuda) against the host
 * library, op by op, through cuzk_cuda_selftest_run (cuda_selftest.h).
 *
 * One test body runs every op over two targets: the GPU, and the host
 * emulation of the same device code (PTX carry chains emulated), which
 * runs here without a GPU. Inputs: edge cases first (0, 1, -1, limbs at
 * the 32-bit carry boundaries; infinity in both of its Jacobian forms,
 * P + P, P + (-P), each also with the other operand's Z rescaled), then
 * fresh random values (points from a random walk, Z rescaled now and
 * then). Sizes 1, 3, 1001 and CUZK_TEST_ITERS (default 2^16; GPU only).
 * Output buffers are filled with 0xff bytes before each run, so an element
 * a kernel leaves unwritten fails (no valid output has those bytes).
 * Jacobian ops must match the host byte for byte (same formulas); XYZZ ops
 * must give the same point, with fully reduced coordinates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuda.h"
#include "cuzk/cuda_selftest.h"
#include "test_util.h"

static int g_gpus;   /* CUDA devices present */
static size_t g_big; /* the largest size, CUZK_TEST_ITERS */

/* ---- inputs -------------------------------------------------------------- */

/* Values whose Montgomery limbs sit at carry boundaries of 32-bit limbs. */
#define N_FP_EDGES 12
static void fp_edges(fp_t e[N_FP_EDGES])
{
    memset(e, 0, N_FP_EDGES * sizeof *e);
    e[1] = FP_ONE;
    fp_neg(&e[2], &FP_ONE);
    fp_add(&e[3], &FP_ONE, &FP_ONE);
    e[4].l[0] = 1; /* the canonical value R^-1 */
    memcpy(e[5].l, FP_MODULUS, sizeof e[5].l);
    e[5].l[0] -= 1; /* limbs p - 1 */
    e[6] = e[5];
    e[6].l[0] -= 1; /* limbs p - 2 */
    e[7].l[0] = 0xffffffffULL;
    e[8].l[0] = ~0ULL;
    for (int i = 0; i < FP_LIMBS - 1; i++)
        e[9].l[i] = ~0ULL; /* below p: the top limb is 0 */
    for (int i = 0; i < FP_LIMBS; i++)
        e[10].l[i] = 0x00000000ffffffffULL; /* every odd 32-bit limb 0 */
    for (int i = 0; i < FP_LIMBS; i++)
        e[11].l[i] = ~0ULL;
    e[11].l[FP_LIMBS - 1] >>= 4; /* 2^380 - 1 < p: the largest 24-bit digits (fp_f64.cuh) */
}

#define N_FR_EDGES 9
static void fr_edges(fr_t e[N_FR_EDGES])
{
    memset(e, 0, N_FR_EDGES * sizeof *e);
    e[1] = FR_ONE;
    fr_neg(&e[2], &FR_ONE);
    fr_add(&e[3], &FR_ONE, &FR_ONE);
    e[4].l[0] = 1;
    memcpy(e[5].l, FR_MODULUS, sizeof e[5].l);
    e[5].l[0] -= 1;
    e[6].l[0] = 0xffffffffULL;
    for (int i = 0; i < FR_LIMBS - 1; i++)
        e[7].l[i] = ~0ULL;
    for (int i = 0; i < FR_LIMBS; i++)
        e[8].l[i] = 0xffffffff00000000ULL & (i == FR_LIMBS - 1 ? 0x0fffffffffffffffULL : ~0ULL);
}

/* A random value; b-side values equal a or -a now and then. */
static void fill_fp(fp_t *a, fp_t *b, size_t n)
{
    fp_t e[N_FP_EDGES];
    fp_edges(e);
    size_t k = 0;
    if (b && n >= N_FP_EDGES * N_FP_EDGES)
        for (int i = 0; i < N_FP_EDGES; i++)
            for (int j = 0; j < N_FP_EDGES; j++, k++)
                a[k] = e[i], b[k] = e[j];
    if (!b && n >= N_FP_EDGES)
        for (; k < N_FP_EDGES; k++)
            a[k] = e[k];
    for (; k < n; k++) {
        tu_rand_fp(&a[k]);
        if (!b)
            continue;
        unsigned r = (unsigned)(tu_rand64() % 8);
        if (r == 0)
            b[k] = a[k];
        else if (r == 1)
            fp_neg(&b[k], &a[k]);
        else
            tu_rand_fp(&b[k]);
    }
}

static void fill_fr(fr_t *a, fr_t *b, size_t n)
{
    fr_t e[N_FR_EDGES];
    fr_edges(e);
    size_t k = 0;
    if (b && n >= N_FR_EDGES * N_FR_EDGES)
        for (int i = 0; i < N_FR_EDGES; i++)
            for (int j = 0; j < N_FR_EDGES; j++, k++)
                a[k] = e[i], b[k] = e[j];
    if (!b && n >= N_FR_EDGES)
        for (; k < N_FR_EDGES; k++)
            a[k] = e[k];
    for (; k < n; k++) {
        tu_rand_fr(&a[k]);
        if (!b)
            continue;
        unsigned r = (unsigned)(tu_rand64() % 8);
        if (r == 0)
            b[k] = a[k];
        else if (r == 1)
            fr_neg(&b[k], &a[k]);
        else
            tu_rand_fr(&b[k]);
    }
}

static void fill_fp2(fp2_t *a, fp2_t *b, size_t n)
{
    fp_t *c = malloc(4 * n * sizeof *c);
    assert_non_null(c);
    /* Components from fill_fp: its edges pair up as (c0, c1). */
    fill_fp(c, c + n, n);
    fill_fp(c + 2 * n, c + 3 * n, n);
    for (size_t k = 0; k < n; k++) {
        a[k].c0 = c[k];
        a[k].c1 = c[n + k];
        if (b) {
            b[k].c0 = c[2 * n + k];
            b[k].c1 = c[3 * n + k];
        }
    }
    free(c);
}

/* Curve points through one table, G1 and G2 alike (as in test_curve.c). */
typedef union jac {
    g1_jac_t g1;
    g2_jac_t g2;
} jac_t;
typedef union aff {
    g1_affine_t g1;
    g2_affine_t g2;
} aff_t;

typedef struct group {
    size_t jac_size, aff_size;
    void (*rand)(jac_t *);
    void (*add)(jac_t *, const jac_t *, const jac_t *);
    void (*neg)(jac_t *, const jac_t *);
    void (*set_inf)(jac_t *);
    int (*is_inf)(const jac_t *);
    void (*rescale)(jac_t *, const jac_t *); /* the same point, another Z */
    void (*odd_inf)(jac_t *);                /* (X, Y, 0), X and Y random */
    void (*from_aff)(jac_t *, const aff_t *);
    void (*to_aff)(aff_t *, const jac_t *);
    cuzk_status (*batch_aff)(void *aff, const void *jac, size_t n); /* packed arrays */
    void (*aff_neg)(aff_t *, const aff_t *);
    void (*aff_set_inf)(aff_t *);
    int (*equal)(const jac_t *, const jac_t *);
    int (*reduced)(const jac_t *); /* every coordinate < p */
} group_t;

static int fp_reduced(const fp_t *a)
{
    fp_t t;
    return fp_from_limbs(&t, a->l) == CUZK_OK;
}

static void g1w_rand(jac_t *p)
{
    tu_rand_g1(&p->g1);
}
static void g1w_add(jac_t *o, const jac_t *a, const jac_t *b)
{
    g1_add(&o->g1, &a->g1, &b->g1);
}
static void g1w_neg(jac_t *o, const jac_t *a)
{
    g1_neg(&o->g1, &a->g1);
}
static void g1w_set_inf(jac_t *p)
{
    g1_jac_set_inf(&p->g1);
}
static int g1w_is_inf(const jac_t *p)
{
    return g1_jac_is_inf(&p->g1);
}
static void g1w_rescale(jac_t *o, const jac_t *a)
{
    fp_t l, l2, l3;
    do
        tu_rand_fp(&l);
    while (fp_is_zero(&l));
    fp_sqr(&l2, &l);
    fp_mul(&l3, &l2, &l);
    fp_mul(&o->g1.x, &a->g1.x, &l2);
    fp_mul(&o->g1.y, &a->g1.y, &l3);
    fp_mul(&o->g1.z, &a->g1.z, &l);
}
static void g1w_odd_inf(jac_t *p)
{
    tu_rand_fp(&p->g1.x);
    tu_rand_fp(&p->g1.y);
    p->g1.z = FP_ZERO_ELEM;
}
static void g1w_from_aff(jac_t *o, const aff_t *a)
{
    g1_from_affine(&o->g1, &a->g1);
}
static void g1w_to_aff(aff_t *o, const jac_t *a)
{
    g1_to_affine(&o->g1, &a->g1);
}
static cuzk_status g1w_batch_aff(void *o, const void *a, size_t n)
{
    return g1_batch_to_affine(o, a, n);
}
static void g1w_aff_neg(aff_t *o, const aff_t *a)
{
    g1_affine_neg(&o->g1, &a->g1);
}
static void g1w_aff_set_inf(aff_t *a)
{
    g1_affine_set_inf(&a->g1);
}
static int g1w_equal(const jac_t *a, const jac_t *b)
{
    return g1_jac_equal(&a->g1, &b->g1);
}
static int g1w_reduced(const jac_t *a)
{
    return fp_reduced(&a->g1.x) && fp_reduced(&a->g1.y) && fp_reduced(&a->g1.z);
}

static void g2w_rand(jac_t *p)
{
    tu_rand_g2(&p->g2);
}
static void g2w_add(jac_t *o, const jac_t *a, const jac_t *b)
{
    g2_add(&o->g2, &a->g2, &b->g2);
}
static void g2w_neg(jac_t *o, const jac_t *a)
{
    g2_neg(&o->g2, &a->g2);
}
static void g2w_set_inf(jac_t *p)
{
    g2_jac_set_inf(&p->g2);
}
static int g2w_is_inf(const jac_t *p)
{
    return g2_jac_is_inf(&p->g2);
}
static void g2w_rescale(jac_t *o, const jac_t *a)
{
    fp2_t l, l2, l3;
    do
        tu_rand_fp2(&l);
    while (fp2_is_zero(&l));
    fp2_sqr(&l2, &l);
    fp2_mul(&l3, &l2, &l);
    fp2_mul(&o->g2.x, &a->g2.x, &l2);
    fp2_mul(&o->g2.y, &a->g2.y, &l3);
    fp2_mul(&o->g2.z, &a->g2.z, &l);
}
static void g2w_odd_inf(jac_t *p)
{
    tu_rand_fp2(&p->g2.x);
    tu_rand_fp2(&p->g2.y);
    p->g2.z = FP2_ZERO;
}
static void g2w_from_aff(jac_t *o, const aff_t *a)
{
    g2_from_affine(&o->g2, &a->g2);
}
static void g2w_to_aff(aff_t *o, const jac_t *a)
{
    g2_to_affine(&o->g2, &a->g2);
}
static cuzk_status g2w_batch_aff(void *o, const void *a, size_t n)
{
    return g2_batch_to_affine(o, a, n);
}
static void g2w_aff_neg(aff_t *o, const aff_t *a)
{
    g2_affine_neg(&o->g2, &a->g2);
}
static void g2w_aff_set_inf(aff_t *a)
{
    g2_affine_set_inf(&a->g2);
}
static int g2w_equal(const jac_t *a, const jac_t *b)
{
    return g2_jac_equal(&a->g2, &b->g2);
}
static int g2w_reduced(const jac_t *a)
{
    const fp2_t *c[3] = {&a->g2.x, &a->g2.y, &a->g2.z};
    for (int i = 0; i < 3; i++)
        if (!fp_reduced(&c[i]->c0) || !fp_reduced(&c[i]->c1))
            return 0;
    return 1;
}

static const group_t G1W = {
    .jac_size = sizeof(g1_jac_t),
    .aff_size = sizeof(g1_affine_t),
    .rand = g1w_rand,
    .add = g1w_add,
    .neg = g1w_neg,
    .set_inf = g1w_set_inf,
    .is_inf = g1w_is_inf,
    .rescale = g1w_rescale,
    .odd_inf = g1w_odd_inf,
    .from_aff = g1w_from_aff,
    .to_aff = g1w_to_aff,
    .batch_aff = g1w_batch_aff,
    .aff_neg = g1w_aff_neg,
    .aff_set_inf = g1w_aff_set_inf,
    .equal = g1w_equal,
    .reduced = g1w_reduced,
};
static const group_t G2W = {
    .jac_size = sizeof(g2_jac_t),
    .aff_size = sizeof(g2_affine_t),
    .rand = g2w_rand,
    .add = g2w_add,
    .neg = g2w_neg,
    .set_inf = g2w_set_inf,
    .is_inf = g2w_is_inf,
    .rescale = g2w_rescale,
    .odd_inf = g2w_odd_inf,
    .from_aff = g2w_from_aff,
    .to_aff = g2w_to_aff,
    .batch_aff = g2w_batch_aff,
    .aff_neg = g2w_aff_neg,
    .aff_set_inf = g2w_aff_set_inf,
    .equal = g2w_equal,
    .reduced = g2w_reduced,
};

#define JAC(g, base, i) ((jac_t *)((uint8_t *)(base) + (i) * (g)->jac_size))
#define AFF(g, base, i) ((aff_t *)((uint8_t *)(base) + (i) * (g)->aff_size))

static void rand_finite(const group_t *g, jac_t *p)
{
    do
        g->rand(p);
    while (g->is_inf(p));
}

/* n random points for the price of n additions: a walk P_{i+1} = P_i + S,
 * now and then restarted, repeated, rescaled or infinity. */
static void walk(const group_t *g, void *pts, size_t n)
{
    jac_t cur, step;
    rand_finite(g, &cur);
    rand_finite(g, &step);
    for (size_t i = 0; i < n; i++) {
        unsigned r = (unsigned)(tu_rand64() % 64);
        jac_t *p = JAC(g, pts, i);
        if (r == 0) {
            g->set_inf(p);
            continue;
        }
        if (r == 1)
            g->rand(&cur);
        else if (r != 2) /* r == 2: the previous point again */
            g->add(&cur, &cur, &step);
        if (r < 12)
            g->rescale(p, &cur);
        else
            memcpy(p, &cur, g->jac_size);
    }
}

/* a: Jacobian, b: Jacobian (b_aff = 0) or affine (b_aff = 1), or none. */
static void fill_points(const group_t *g, void *a, void *b, int b_aff, size_t n)
{
    walk(g, a, n);
    jac_t *bj = malloc((n + 1) * sizeof *bj);
    assert_non_null(bj);
    if (b) {
        walk(g, bj, n);
        for (size_t i = 0; i < n; i++) {
            unsigned r = (unsigned)(tu_rand64() % 16);
            if (r == 0) /* P + P, P + (-P) among the random ones too */
                memcpy(&bj[i], JAC(g, a, i), g->jac_size);
            else if (r == 1)
                g->neg(&bj[i], JAC(g, a, i));
        }
    }
    /* Edge cases: (a, b) with P, Q finite and P' a rescaled P. */
    jac_t P, Q, t;
    rand_finite(g, &P);
    rand_finite(g, &Q);
    size_t k = 0;
#define EDGE(A, B)                                                                                 \
    do {                                                                                           \
        if (k < n) {                                                                               \
            memcpy(JAC(g, a, k), (A), g->jac_size);                                                \
            memcpy(&bj[k], (B), g->jac_size);                                                      \
        }                                                                                          \
        k++;                                                                                       \
    } while (0)
    if (n >= 16) {
        jac_t inf, odd, Pr, nP, nPr;
        g->set_inf(&inf);
        g->odd_inf(&odd);
        g->rescale(&Pr, &P);
        g->neg(&nP, &P);
        g->rescale(&nPr, &nP);
        EDGE(&inf, &P);
        EDGE(&P, &inf);
        EDGE(&inf, &inf);
        EDGE(&odd, &P);
        EDGE(&P, &odd);
        EDGE(&odd, &odd);
        EDGE(&P, &P);
        EDGE(&P, &Pr);
        EDGE(&Pr, &P);
        EDGE(&P, &nP);
        EDGE(&P, &nPr);
        EDGE(&nPr, &P);
        g->add(&t, &P, &P);
        EDGE(&P, &t);
        EDGE(&P, &Q);
        EDGE(&Pr, &Q);
    }
#undef EDGE
    if (b && !b_aff)
        memcpy(b, bj, n * g->jac_size);
    if (b && b_aff) {
        /* Pack the Jacobian points, then one inversion for all of them. */
        uint8_t *packed = malloc(n * g->jac_size);
        assert_non_null(packed);
        for (size_t i = 0; i < n; i++)
            memcpy(packed + i * g->jac_size, &bj[i], g->jac_size);
        assert_int_equal(g->batch_aff(b, packed, n), CUZK_OK);
        free(packed);
        /* Mixed edge cases, over the first ones: A + inf, A = +-B in
         * several Z, inf + inf. */
        if (n >= 16) {
            aff_t B, nB;
            g->to_aff(&B, &Q);
            g->aff_neg(&nB, &B);
            g->aff_set_inf(AFF(g, b, 0)); /* inf + (0, 0) */
            g->set_inf(JAC(g, a, 0));
            g->aff_set_inf(AFF(g, b, 1));  /* P + (0, 0) */
            g->from_aff(JAC(g, a, 2), &B); /* B + B, Z = 1 */
            memcpy(AFF(g, b, 2), &B, g->aff_size);
            g->from_aff(&t, &B); /* B' + B */
            g->rescale(JAC(g, a, 3), &t);
            memcpy(AFF(g, b, 3), &B, g->aff_size);
            g->from_aff(JAC(g, a, 4), &nB); /* -B + B */
            memcpy(AFF(g, b, 4), &B, g->aff_size);
            g->from_aff(&t, &nB); /* -B' + B */
            g->rescale(JAC(g, a, 5), &t);
            memcpy(AFF(g, b, 5), &B, g->aff_size);
            g->odd_inf(JAC(g, a, 6)); /* (X, Y, 0) + B */
            memcpy(AFF(g, b, 6), &B, g->aff_size);
        }
    }
    free(bj);
}

/* ---- the ops, their host references and their inputs --------------------- */

typedef enum in_kind {
    IN_FP,     /* fp_t a (and b) */
    IN_FR,     /* fr_t */
    IN_FP2,    /* fp2_t */
    IN_G1,     /* g1_jac_t a (and b) */
    IN_G1_AFF, /* g1_jac_t a, g1_affine_t b */
    IN_G2,
    IN_G2_AFF
} in_kind;

typedef struct op_case {
    cuzk_cuda_op op;
    in_kind in;
    void (*ref)(void *out, const void *a, const void *b);
    const group_t *point_eq; /* NULL: byte-exact; else same point, reduced coordinates */
} op_case_t;

static void r_fp_add(void *o, const void *a, const void *b)
{
    fp_add(o, a, b);
}
static void r_fp_sub(void *o, const void *a, const void *b)
{
    fp_sub(o, a, b);
}
static void r_fp_neg(void *o, const void *a, const void *b)
{
    (void)b;
    fp_neg(o, a);
}
static void r_fp_dbl_sub(void *o, const void *a, const void *b)
{
    fp_t t;
    fp_dbl(&t, a);
    fp_sub(o, &t, b);
}
static void r_fr_dbl_sub(void *o, const void *a, const void *b)
{
    fr_t t;
    fr_dbl(&t, a);
    fr_sub(o, &t, b);
}
static void r_fp_dbl(void *o, const void *a, const void *b)
{
    (void)b;
    fp_dbl(o, a);
}
static void r_fp_mul(void *o, const void *a, const void *b)
{
    fp_mul(o, a, b);
}
static void r_fp_sqr(void *o, const void *a, const void *b)
{
    (void)b;
    fp_sqr(o, a);
}
static void r_fp_to_mont(void *o, const void *a, const void *b)
{
    (void)b;
    assert_int_equal(fp_from_limbs(o, ((const fp_t *)a)->l), CUZK_OK);
}
static void r_fp_from_mont(void *o, const void *a, const void *b)
{
    (void)b;
    fp_to_limbs(((fp_t *)o)->l, a);
}
static void r_fp_cmp(void *o, const void *a, const void *b)
{
    *(uint32_t *)o =
        (uint32_t)fp_equal(a, b) | (uint32_t)fp_is_zero(a) << 1 | (uint32_t)fp_is_one(a) << 2;
}
static void r_fr_add(void *o, const void *a, const void *b)
{
    fr_add(o, a, b);
}
static void r_fr_sub(void *o, const void *a, const void *b)
{
    fr_sub(o, a, b);
}
static void r_fr_neg(void *o, const void *a, const void *b)
{
    (void)b;
    fr_neg(o, a);
}
static void r_fr_mul(void *o, const void *a, const void *b)
{
    fr_mul(o, a, b);
}
static void r_fr_sqr(void *o, const void *a, const void *b)
{
    (void)b;
    fr_sqr(o, a);
}
static void r_fr_to_mont(void *o, const void *a, const void *b)
{
    (void)b;
    assert_int_equal(fr_from_limbs(o, ((const fr_t *)a)->l), CUZK_OK);
}
static void r_fr_from_mont(void *o, const void *a, const void *b)
{
    (void)b;
    fr_to_limbs(((fr_t *)o)->l, a);
}
static void r_fp2_mul(void *o, const void *a, const void *b)
{
    fp2_mul(o, a, b);
}
static void r_fp2_sqr(void *o, const void *a, const void *b)
{
    (void)b;
    fp2_sqr(o, a);
}
static void r_fp_inv(void *o, const void *a, const void *b)
{
    (void)b;
    fp_inv(o, a);
}
static void r_fp2_inv(void *o, const void *a, const void *b)
{
    (void)b;
    fp2_inv(o, a);
}
static void r_g1_add(void *o, const void *a, const void *b)
{
    g1_add(o, a, b);
}
static void r_g1_add_mixed(void *o, const void *a, const void *b)
{
    g1_add_mixed(o, a, b);
}
static void r_g1_add_mixed2(void *o, const void *a, const void *b)
{
    g1_jac_t t;
    g1_add_mixed(&t, a, b);
    g1_add_mixed(o, &t, b);
}
static void r_g1_dbl(void *o, const void *a, const void *b)
{
    (void)b;
    g1_dbl(o, a);
}
static void r_g1_neg(void *o, const void *a, const void *b)
{
    (void)b;
    g1_neg(o, a);
}
static void r_g2_add(void *o, const void *a, const void *b)
{
    g2_add(o, a, b);
}
static void r_g2_add_mixed(void *o, const void *a, const void *b)
{
    g2_add_mixed(o, a, b);
}
static void r_g2_dbl(void *o, const void *a, const void *b)
{
    (void)b;
    g2_dbl(o, a);
}
static void r_g2_neg(void *o, const void *a, const void *b)
{
    (void)b;
    g2_neg(o, a);
}

static const op_case_t FIELD_CASES[] = {
    {CUZK_CUDA_OP_FP_ADD, IN_FP, r_fp_add, NULL},
    {CUZK_CUDA_OP_FP_SUB, IN_FP, r_fp_sub, NULL},
    {CUZK_CUDA_OP_FP_NEG, IN_FP, r_fp_neg, NULL},
    {CUZK_CUDA_OP_FP_DBL, IN_FP, r_fp_dbl, NULL},
    {CUZK_CUDA_OP_FP_MUL, IN_FP, r_fp_mul, NULL},
    {CUZK_CUDA_OP_FP_SQR, IN_FP, r_fp_sqr, NULL},
    {CUZK_CUDA_OP_FP_TO_MONT, IN_FP, r_fp_to_mont, NULL},
    {CUZK_CUDA_OP_FP_FROM_MONT, IN_FP, r_fp_from_mont, NULL},
    {CUZK_CUDA_OP_FP_CMP, IN_FP, r_fp_cmp, NULL},
    {CUZK_CUDA_OP_FR_ADD, IN_FR, r_fr_add, NULL},
    {CUZK_CUDA_OP_FR_SUB, IN_FR, r_fr_sub, NULL},
    {CUZK_CUDA_OP_FR_NEG, IN_FR, r_fr_neg, NULL},
    {CUZK_CUDA_OP_FR_MUL, IN_FR, r_fr_mul, NULL},
    {CUZK_CUDA_OP_FR_SQR, IN_FR, r_fr_sqr, NULL},
    {CUZK_CUDA_OP_FR_TO_MONT, IN_FR, r_fr_to_mont, NULL},
    {CUZK_CUDA_OP_FR_FROM_MONT, IN_FR, r_fr_from_mont, NULL},
    {CUZK_CUDA_OP_FP2_MUL, IN_FP2, r_fp2_mul, NULL},
    {CUZK_CUDA_OP_FP2_SQR, IN_FP2, r_fp2_sqr, NULL},
    {CUZK_CUDA_OP_FP_INV, IN_FP, r_fp_inv, NULL},
    {CUZK_CUDA_OP_FP_MUL_WIDE, IN_FP, r_fp_mul, NULL},
    {CUZK_CUDA_OP_FP_SQR_WIDE, IN_FP, r_fp_sqr, NULL},
    {CUZK_CUDA_OP_FR_MUL_WIDE, IN_FR, r_fr_mul, NULL},
    {CUZK_CUDA_OP_FP_MUL_F64, IN_FP, r_fp_mul, NULL},
    {CUZK_CUDA_OP_FP2_MUL_MIXED, IN_FP2, r_fp2_mul, NULL},
    {CUZK_CUDA_OP_FP2_SQR_MIXED, IN_FP2, r_fp2_sqr, NULL},
    {CUZK_CUDA_OP_FP_MUL_LAZY, IN_FP, r_fp_mul, NULL},
    {CUZK_CUDA_OP_FP_SUB_LAZY, IN_FP, r_fp_dbl_sub, NULL},
    {CUZK_CUDA_OP_FR_MUL_LAZY, IN_FR, r_fr_mul, NULL},
    {CUZK_CUDA_OP_FR_SUB_LAZY, IN_FR, r_fr_dbl_sub, NULL},
    {CUZK_CUDA_OP_FP2_INV, IN_FP2, r_fp2_inv, NULL},
};
static const op_case_t G1_CASES[] = {
    {CUZK_CUDA_OP_G1_ADD, IN_G1, r_g1_add, NULL},
    {CUZK_CUDA_OP_G1_ADD_MIXED, IN_G1_AFF, r_g1_add_mixed, NULL},
    {CUZK_CUDA_OP_G1_DBL, IN_G1, r_g1_dbl, NULL},
    {CUZK_CUDA_OP_G1_NEG, IN_G1, r_g1_neg, NULL},
    {CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED, IN_G1_AFF, r_g1_add_mixed, &G1W},
    {CUZK_CUDA_OP_G1_XYZZ_ADD, IN_G1, r_g1_add, &G1W},
    {CUZK_CUDA_OP_G1_XYZZ_DBL, IN_G1, r_g1_dbl, &G1W},
    {CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED_LAZY, IN_G1_AFF, r_g1_add_mixed2, &G1W},
};
static const op_case_t G2_CASES[] = {
    {CUZK_CUDA_OP_G2_ADD, IN_G2, r_g2_add, NULL},
    {CUZK_CUDA_OP_G2_ADD_MIXED, IN_G2_AFF, r_g2_add_mixed, NULL},
    {CUZK_CUDA_OP_G2_DBL, IN_G2, r_g2_dbl, NULL},
    {CUZK_CUDA_OP_G2_NEG, IN_G2, r_g2_neg, NULL},
    {CUZK_CUDA_OP_G2_XYZZ_ADD_MIXED, IN_G2_AFF, r_g2_add_mixed, &G2W},
    {CUZK_CUDA_OP_G2_XYZZ_ADD, IN_G2, r_g2_add, &G2W},
    {CUZK_CUDA_OP_G2_XYZZ_DBL, IN_G2, r_g2_dbl, &G2W},
};

static void fill_inputs(in_kind in, void *a, void *b, size_t n)
{
    switch (in) {
    case IN_FP: fill_fp(a, b, n); break;
    case IN_FR: fill_fr(a, b, n); break;
    case IN_FP2: fill_fp2(a, b, n); break;
    case IN_G1: fill_points(&G1W, a, b, 0, n); break;
    case IN_G1_AFF: fill_points(&G1W, a, b, 1, n); break;
    case IN_G2: fill_points(&G2W, a, b, 0, n); break;
    case IN_G2_AFF: fill_points(&G2W, a, b, 1, n); break;
    }
}

/* ---- the test body ------------------------------------------------------- */

static void hex(const char *label, const void *p, size_t len)
{
    const uint8_t *b = p;
    printf("    %s ", label);
    for (size_t i = 0; i < len; i++)
        printf("%02x", b[i]);
    printf("\n");
}

/* Runs one op over n fresh inputs on target t and compares with the host. */
static void check_op(const op_case_t *c, cuzk_cuda_target t, size_t n)
{
    const cuzk_cuda_op_info_t *info = cuzk_cuda_op_info(c->op);
    assert_non_null(info);
    size_t bs = info->b_size;
    uint8_t *a = malloc(n * info->a_size);
    uint8_t *b = bs ? malloc(n * bs) : NULL;
    uint8_t *got = malloc(n * info->out_size);
    uint8_t *want = malloc(n * info->out_size);
    assert_true(a && got && want && (b || !bs));
    fill_inputs(c->in, a, b, n);
    memset(got, 0xff, n * info->out_size);

    cuzk_error_t err = {0};
    cuzk_status st = cuzk_cuda_selftest_run(t, c->op, got, a, b, n, &err);
    if (st != CUZK_OK)
        fail_msg("%s (%s, n = %zu): %s: %s", info->name,
                 t == CUZK_CUDA_TARGET_DEVICE ? "gpu" : "emu", n, cuzk_status_str(st), err.msg);

    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *wi = want + i * info->out_size, *gi = got + i * info->out_size;
        c->ref(wi, a + i * info->a_size, bs ? b + i * bs : NULL);
        int ok = c->point_eq ? c->point_eq->reduced((const jac_t *)gi) &&
                                   c->point_eq->equal((const jac_t *)gi, (const jac_t *)wi)
                             : memcmp(gi, wi, info->out_size) == 0;
        if (!ok && bad++ == 0)
            first = i;
    }
    if (bad) {
        printf("test_cuda_arith: %s (%s, n = %zu): %zu of %zu wrong, first at %zu\n", info->name,
               t == CUZK_CUDA_TARGET_DEVICE ? "gpu" : "emu", n, bad, n, first);
        hex("a   ", a + first * info->a_size, info->a_size);
        if (bs)
            hex("b   ", b + first * bs, bs);
        hex("got ", got + first * info->out_size, info->out_size);
        hex("want", want + first * info->out_size, info->out_size);
    }
    free(a);
    free(b);
    free(got);
    free(want);
    if (bad)
        fail();
}

/* Sizes 1, 3, min(1001, big), and big on the GPU. */
static void run_cases(const op_case_t *cases, size_t count, cuzk_cuda_target t)
{
    size_t mid = g_big < 1001 ? g_big : 1001;
    size_t sizes[] = {1, 3, mid, g_big};
    size_t nsizes = t == CUZK_CUDA_TARGET_DEVICE && g_big > mid ? 4 : 3;
    for (size_t c = 0; c < count; c++)
        for (size_t s = 0; s < nsizes; s++)
            check_op(&cases[c], t, sizes[s]);
}

#define CASES(x) x, sizeof x / sizeof x[0]

static void skip_without_gpu(void)
{
    if (!g_gpus)
        skip();
}

static void test_emu_field(void **state)
{
    (void)state;
    run_cases(CASES(FIELD_CASES), CUZK_CUDA_TARGET_HOST_EMU);
}
static void test_emu_g1(void **state)
{
    (void)state;
    run_cases(CASES(G1_CASES), CUZK_CUDA_TARGET_HOST_EMU);
}
static void test_emu_g2(void **state)
{
    (void)state;
    run_cases(CASES(G2_CASES), CUZK_CUDA_TARGET_HOST_EMU);
}

static void test_gpu_field(void **state)
{
    (void)state;
    skip_without_gpu();
    run_cases(CASES(FIELD_CASES), CUZK_CUDA_TARGET_DEVICE);
}

static void test_gpu_g1(void **state)
{
    (void)state;
    skip_without_gpu();
    run_cases(CASES(G1_CASES), CUZK_CUDA_TARGET_DEVICE);
}

static void test_gpu_g2(void **state)
{
    (void)state;
    skip_without_gpu();
    run_cases(CASES(G2_CASES), CUZK_CUDA_TARGET_DEVICE);
}

/* Every op has a row; its sizes are the host types' (the device types are
 * copied from them as bytes); the cases above cover every op. */
static void test_op_table(void **state)
{
    (void)state;
    int covered[CUZK_CUDA_OP_COUNT] = {0};
    const op_case_t *all[] = {FIELD_CASES, G1_CASES, G2_CASES};
    size_t counts[] = {sizeof FIELD_CASES / sizeof FIELD_CASES[0],
                       sizeof G1_CASES / sizeof G1_CASES[0], sizeof G2_CASES / sizeof G2_CASES[0]};
    static const size_t in_a[] = {sizeof(fp_t),     sizeof(fr_t),     sizeof(fp2_t),
                                  sizeof(g1_jac_t), sizeof(g1_jac_t), sizeof(g2_jac_t),
                                  sizeof(g2_jac_t)};
    static const size_t in_b[] = {sizeof(fp_t),       sizeof(fr_t),        sizeof(fp2_t),
                                  sizeof(g1_jac_t),   sizeof(g1_affine_t), sizeof(g2_jac_t),
                                  sizeof(g2_affine_t)};
    for (int t = 0; t < 3; t++)
        for (size_t i = 0; i < counts[t]; i++) {
            const op_case_t *c = &all[t][i];
            const cuzk_cuda_op_info_t *info = cuzk_cuda_op_info(c->op);
            assert_non_null(info);
            covered[c->op]++;
            assert_int_equal(info->a_size, in_a[c->in]);
            if (info->b_size)
                assert_int_equal(info->b_size, in_b[c->in]);
            size_t out = c->op == CUZK_CUDA_OP_FP_CMP ? sizeof(uint32_t) : in_a[c->in];
            assert_int_equal(info->out_size, out);
        }
    for (int op = 0; op < CUZK_CUDA_OP_COUNT; op++) {
        assert_non_null(cuzk_cuda_op_info((cuzk_cuda_op)op));
        assert_int_equal(covered[op], 1);
    }
    assert_null(cuzk_cuda_op_info(CUZK_CUDA_OP_COUNT));
}

/* Bad arguments are refused at the edge, with a message. */
static void test_args(void **state)
{
    (void)state;
    fp_t a = FP_ONE, out;
    cuzk_error_t err = {0};
    assert_int_equal(cuzk_cuda_selftest_run(CUZK_CUDA_TARGET_HOST_EMU, CUZK_CUDA_OP_COUNT, &out, &a,
                                            &a, 1, &err),
                     CUZK_ERR_ARG);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(
        cuzk_cuda_selftest_run((cuzk_cuda_target)7, CUZK_CUDA_OP_FP_MUL, &out, &a, &a, 1, &err),
        CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_selftest_run(CUZK_CUDA_TARGET_HOST_EMU, CUZK_CUDA_OP_FP_MUL, &out,
                                            &a, NULL, 1, &err),
                     CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_selftest_run(CUZK_CUDA_TARGET_HOST_EMU, CUZK_CUDA_OP_FP_NEG, &out,
                                            &a, NULL, 1, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_cuda_selftest_run(CUZK_CUDA_TARGET_DEVICE, CUZK_CUDA_OP_FP_MUL, NULL,
                                            NULL, NULL, 0, NULL),
                     CUZK_OK);
    /* Without a GPU the device target says so; with one it runs. */
    cuzk_status st =
        cuzk_cuda_selftest_run(CUZK_CUDA_TARGET_DEVICE, CUZK_CUDA_OP_FP_MUL, &out, &a, &a, 1, &err);
    assert_int_equal(st, g_gpus ? CUZK_OK : CUZK_ERR_NO_DEVICE);
    if (!g_gpus)
        assert_non_null(strstr(err.msg, "no CUDA device"));
    char line[128];
    assert_int_equal(cuzk_cuda_device_describe(line, sizeof line, g_gpus, &err),
                     CUZK_ERR_NO_DEVICE);
}

int main(void)
{
    tu_init("test_cuda_arith");
    g_big = (size_t)tu_iters(1 << 16);
    cuzk_error_t err = {0};
    cuzk_status st = cuzk_cuda_device_count(&g_gpus, &err);
    if (st != CUZK_OK) {
        /* A broken runtime is a failure, not a missing GPU. */
        printf("test_cuda_arith: cuzk_cuda_device_count: %s: %s\n", cuzk_status_str(st), err.msg);
        return 1;
    }
    if (g_gpus == 0) {
        printf("test_cuda_arith: no GPU: skipped\n");
        printf("test_cuda_arith: the host emulation of the device code runs all the same\n");
    } else {
        char line[128];
        st = cuzk_cuda_device_describe(line, sizeof line, 0, &err);
        printf("test_cuda_arith: device 0: %s\n", st == CUZK_OK ? line : err.msg);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_table),  cmocka_unit_test(test_args),
        cmocka_unit_test(test_emu_field), cmocka_unit_test(test_emu_g1),
        cmocka_unit_test(test_emu_g2),    cmocka_unit_test(test_gpu_field),
        cmocka_unit_test(test_gpu_g1),    cmocka_unit_test(test_gpu_g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
