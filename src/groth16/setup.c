/* The insecure test setup (see include/cuzk/setup.h).
 *
 * Steps: the Lagrange basis at tau over the circuit rows (one batch
 * inversion per thread range); u_j, v_j, w_j by scattering the matrix
 * entries into their columns; the query scalars; then every point by a
 * fixed-base multiplication of the generator (fixed_base_impl.h), one table
 * per group shared by all of that group's queries. */
#include "cuzk/setup.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"

/* fixed-base multiplication, once per group */
#define FB(name) setup_g1_##name
#define FB_EC(name) g1_##name
#define FB_FIELD(name) fp_##name
#define FB_AFF g1_affine_t
#define FB_JAC g1_jac_t
#define FB_F fp_t
#define FB_F_ONE FP_ONE
#define FB_GEN (&G1_GENERATOR)
#include "fixed_base_impl.h"
#undef FB
#undef FB_EC
#undef FB_FIELD
#undef FB_AFF
#undef FB_JAC
#undef FB_F
#undef FB_F_ONE
#undef FB_GEN

#define FB(name) setup_g2_##name
#define FB_EC(name) g2_##name
#define FB_FIELD(name) fp2_##name
#define FB_AFF g2_affine_t
#define FB_JAC g2_jac_t
#define FB_F fp2_t
#define FB_F_ONE FP2_ONE
#define FB_GEN (&G2_GENERATOR)
#include "fixed_base_impl.h"
#undef FB
#undef FB_EC
#undef FB_FIELD
#undef FB_AFF
#undef FB_JAC
#undef FB_F
#undef FB_F_ONE
#undef FB_GEN

/* ---- Lagrange basis and powers at tau ---- */

/* out[i] = zfac x_i / (tau - x_i) with x_i = g step^i, i < n: the Lagrange
 * basis L_i(tau) = (tau^N - 1) / N * x_i / (tau - x_i) of an N-point domain
 * when zfac = (tau^N - 1) / N. tau must not be any x_i. */
typedef struct lag_ctx {
    fr_t *out;
    fr_t tau, g, step, zfac;
    int failed;
} lag_ctx_t;

#define LAG_BLOCK 512 /* elements per inversion */

static void lag_block(const lag_ctx_t *x, fr_t *pre, size_t begin, size_t end)
{
    fr_t xi, acc = FR_ONE, den, inv;
    uint64_t e = begin;
    fr_pow_var(&xi, &x->step, &e, 1);
    fr_mul(&xi, &xi, &x->g);
    for (size_t i = begin; i < end; i++) {
        x->out[i] = xi;
        pre[i - begin] = acc; /* prod of the denominators before i */
        fr_sub(&den, &x->tau, &xi);
        fr_mul(&acc, &acc, &den);
        fr_mul(&xi, &xi, &x->step);
    }
    fr_inv(&acc, &acc);
    for (size_t i = end; i-- > begin;) {
        fr_sub(&den, &x->tau, &x->out[i]);
        fr_mul(&inv, &acc, &pre[i - begin]); /* 1 / den_i */
        fr_mul(&acc, &acc, &den);
        fr_mul(&x->out[i], &x->out[i], &inv);
        fr_mul(&x->out[i], &x->out[i], &x->zfac);
    }
}

static void lag_range(void *vctx, size_t begin, size_t end)
{
    lag_ctx_t *x = vctx;
    fr_t *pre = malloc(LAG_BLOCK * sizeof *pre);
    if (!pre) {
        __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (size_t lo = begin; lo < end; lo += LAG_BLOCK)
        lag_block(x, pre, lo, end - lo < LAG_BLOCK ? end : lo + LAG_BLOCK);
    free(pre);
}

static cuzk_status lagrange(fr_t *out, size_t n, const fr_t *tau, const fr_t *g, const fr_t *step,
                            const fr_t *zfac, int threads)
{
    lag_ctx_t x = {out, *tau, *g, *step, *zfac, 0};
    cuzk_status st = parallel_for(n, LAG_BLOCK, threads, lag_range, &x);
    return st == CUZK_OK && x.failed ? CUZK_ERR_NOMEM : st;
}

/* out[i] = tau^i * scale, i < n */
typedef struct pow_ctx {
    fr_t *out;
    fr_t tau, scale;
} pow_ctx_t;

static void pow_range(void *vctx, size_t begin, size_t end)
{
    pow_ctx_t *x = vctx;
    fr_t t;
    uint64_t e = begin;
    fr_pow_var(&t, &x->tau, &e, 1);
    fr_mul(&t, &t, &x->scale);
    for (size_t i = begin; i < end; i++) {
        x->out[i] = t;
        fr_mul(&t, &t, &x->tau);
    }
}

/* ---- columns u_j(tau), v_j(tau), w_j(tau) ---- */

typedef struct col_ctx {
    const circuit_t *c;
    const fr_t *lag;
    fr_t *col[3];
} col_ctx_t;

/* One matrix per work item: col[j] += M[r][j] L_r(tau). */
static void col_range(void *vctx, size_t begin, size_t end)
{
    col_ctx_t *x = vctx;
    const circuit_t *c = x->c;
    for (size_t mi = begin; mi < end; mi++) {
        const circuit_csr_t *m = &c->m[mi];
        fr_t *col = x->col[mi], t;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
                const fr_t *coef = &c->dict[m->coef[k]];
                fr_t *dst = &col[m->col[k]];
                if (fr_is_one(coef)) {
                    fr_add(dst, dst, &x->lag[r]);
                } else {
                    fr_mul(&t, coef, &x->lag[r]);
                    fr_add(dst, dst, &t);
                }
            }
        }
    }
}

/* w_j <- (beta u_j + alpha v_j + w_j) * (j < n_in ? 1/gamma : 1/delta) */
typedef struct k_ctx {
    const fr_t *u, *v;
    fr_t *w;
    fr_t alpha, beta, gamma_inv, delta_inv;
    size_t n_in;
} k_ctx_t;

static void k_range(void *vctx, size_t begin, size_t end)
{
    k_ctx_t *x = vctx;
    for (size_t j = begin; j < end; j++) {
        fr_t t, s;
        fr_mul(&t, &x->beta, &x->u[j]);
        fr_mul(&s, &x->alpha, &x->v[j]);
        fr_add(&t, &t, &s);
        fr_add(&t, &t, &x->w[j]);
        fr_mul(&x->w[j], &t, j < x->n_in ? &x->gamma_inv : &x->delta_inv);
    }
}

/* ---- the key ---- */

/* Everything setup allocates besides the key. */
typedef struct scratch {
    fr_t *lag, *u, *v, *w, *sa, *sb, *sh;
} scratch_t;

static void scratch_free(scratch_t *s)
{
    free(s->lag);
    free(s->u);
    free(s->v);
    free(s->w);
    free(s->sh);
    if (s->sa != s->u)
        free(s->sa);
    if (s->sb != s->v)
        free(s->sb);
}

/* col[idx[k]] for k < n: a bellperson query's scalars, in its bases' order. */
static fr_t *gather(const fr_t *col, const uint32_t *idx, size_t n)
{
    fr_t *s = malloc((n ? n : 1) * sizeof *s);
    if (s)
        for (size_t k = 0; k < n; k++)
            s[k] = col[idx[k]];
    return s;
}

static cuzk_status check_args(const groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                              const groth16_toxic_t *tw, cuzk_error_t *err)
{
    if (!out || !c || !tw)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_setup: NULL argument");
    if (conv != GROTH16_SNARKJS && conv != GROTH16_BELLPERSON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_setup: unknown convention %d", (int)conv);
    if ((uint64_t)c->n_public + 1 > c->n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "groth16_setup: %u variables cannot hold %u public inputs and ONE",
                              c->n_vars, c->n_public);
    const fr_t *nz[4] = {&tw->alpha, &tw->beta, &tw->gamma, &tw->delta};
    for (int i = 0; i < 4; i++)
        if (fr_is_zero(nz[i]))
            return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_setup: zero toxic value");
    if (groth16_tau_is_root_of_unity(&tw->tau) || fr_is_zero(&tw->tau))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "groth16_setup: tau is zero or a power-of-two root of unity");
    return CUZK_OK;
}

/* All points of the key from the scalars: one table per group. */
static cuzk_status make_points(groth16_key_t *k, const scratch_t *s, int threads)
{
    size_t n_in = (size_t)k->n_public + 1;
    size_t n_g1 = k->n_a + k->n_b + k->n_l + n_in + k->n_h;
    k->a = malloc((k->n_a ? k->n_a : 1) * sizeof *k->a);
    k->b_g1 = malloc((k->n_b ? k->n_b : 1) * sizeof *k->b_g1);
    k->b_g2 = malloc((k->n_b ? k->n_b : 1) * sizeof *k->b_g2);
    k->l = malloc((k->n_l ? k->n_l : 1) * sizeof *k->l);
    k->h = malloc(k->n_h * sizeof *k->h);
    k->vk.ic = malloc(n_in * sizeof *k->vk.ic);
    if (!k->a || !k->b_g1 || !k->b_g2 || !k->l || !k->h || !k->vk.ic)
        return CUZK_ERR_NOMEM;
    k->vk.n_ic = n_in;

    setup_g1_table_t t1;
    cuzk_status st = setup_g1_table_build(&t1, setup_g1_choose_window(n_g1), threads);
    if (st != CUZK_OK)
        return st;
    if ((st = setup_g1_mul_table(k->a, &t1, s->sa, k->n_a, threads)) == CUZK_OK &&
        (st = setup_g1_mul_table(k->b_g1, &t1, s->sb, k->n_b, threads)) == CUZK_OK &&
        (st = setup_g1_mul_table(k->l, &t1, &s->w[n_in], k->n_l, threads)) == CUZK_OK &&
        (st = setup_g1_mul_table(k->vk.ic, &t1, s->w, n_in, threads)) == CUZK_OK)
        st = setup_g1_mul_table(k->h, &t1, s->sh, k->n_h, threads);
    setup_g1_table_free(&t1);
    if (st != CUZK_OK)
        return st;
    return setup_g2_mul_gen(k->b_g2, s->sb, k->n_b, threads);
}

/* The scalars of every query into s; sets the key's counts. */
static cuzk_status make_scalars(groth16_key_t *k, scratch_t *s, const circuit_t *c,
                                const groth16_toxic_t *tw, int threads)
{
    fr_roots roots = k->conv == GROTH16_SNARKJS ? FR_ROOTS_FFJS : FR_ROOTS_BELLMAN;
    size_t m = (size_t)1 << k->log_m, n = c->n_vars, n_in = (size_t)c->n_public + 1;
    fr_t omega, zfac, delta_inv, gamma_inv;
    fr_inv(&delta_inv, &tw->delta);
    fr_inv(&gamma_inv, &tw->gamma);
    s->lag = malloc((c->n_rows ? c->n_rows : 1) * sizeof *s->lag);
    s->u = calloc(n, sizeof *s->u);
    s->v = calloc(n, sizeof *s->v);
    s->w = calloc(n, sizeof *s->w);
    s->sh = malloc(m * sizeof *s->sh);
    if (!s->lag || !s->u || !s->v || !s->w || !s->sh)
        return CUZK_ERR_NOMEM;
    cuzk_status st = fr_root_of_unity(&omega, roots, k->log_m);
    if (st != CUZK_OK)
        return st;
    groth16_setup_vanishing(&zfac, &tw->tau, k->log_m, &FR_ONE);
    if ((st = lagrange(s->lag, c->n_rows, &tw->tau, &FR_ONE, &omega, &zfac, threads)) != CUZK_OK)
        return st;
    col_ctx_t cx = {c, s->lag, {s->u, s->v, s->w}};
    if ((st = parallel_for(3, 1, threads, col_range, &cx)) != CUZK_OK)
        return st;
    k_ctx_t kx = {s->u, s->v, s->w, tw->alpha, tw->beta, gamma_inv, delta_inv, n_in};
    if ((st = parallel_for(n, 4096, threads, k_range, &kx)) != CUZK_OK)
        return st;
    k->n_l = n - n_in;

    if (k->conv == GROTH16_SNARKJS) {
        /* H_i = L'_{2i+1}(tau) / delta: x_i = omega_2m^(2i+1) = omega_2m omega_m^i */
        fr_t omega2;
        if ((st = fr_root_of_unity(&omega2, roots, k->log_m + 1)) != CUZK_OK)
            return st;
        groth16_setup_vanishing(&zfac, &tw->tau, k->log_m + 1, &delta_inv);
        k->n_h = m;
        if ((st = lagrange(s->sh, m, &tw->tau, &omega2, &omega, &zfac, threads)) != CUZK_OK)
            return st;
        s->sa = s->u;
        s->sb = s->v;
        k->n_a = k->n_b = n;
        return CUZK_OK;
    }
    /* bellperson: H_i = tau^i Z(tau) / delta, Z(tau) = tau^m - 1 */
    pow_ctx_t px = {s->sh, tw->tau, FR_ZERO};
    groth16_setup_vanishing(&zfac, &tw->tau, k->log_m, &delta_inv);
    fr_from_u64(&px.scale, m);
    fr_mul(&px.scale, &px.scale, &zfac);
    k->n_h = m - 1;
    if ((st = parallel_for(m - 1, 4096, threads, pow_range, &px)) != CUZK_OK)
        return st;
    /* the prover's own rule, so that key and prover agree by construction */
    groth16_pk_t shape = {.conv = GROTH16_BELLPERSON, .n_vars = c->n_vars, .n_public = c->n_public};
    groth16_query_indices_t ix;
    if ((st = groth16_query_indices(&ix, &shape, c, NULL)) != CUZK_OK)
        return st;
    k->n_a = ix.n_a;
    k->n_b = ix.n_b;
    s->sa = gather(s->u, ix.a, ix.n_a);
    s->sb = gather(s->v, ix.b, ix.n_b);
    groth16_query_indices_free(&ix);
    return s->sa && s->sb ? CUZK_OK : CUZK_ERR_NOMEM;
}

cuzk_status groth16_setup_toxic(groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                                const groth16_toxic_t *tw, int threads, cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    cuzk_status st = check_args(out, c, conv, tw, err);
    if (st != CUZK_OK)
        return st;
    unsigned log_m = 1;
    while (((uint64_t)1 << log_m) < c->n_rows)
        log_m++;
    if (log_m + 1 > FR_TWO_ADICITY)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_setup: %u rows need a domain of 2^%u",
                              c->n_rows, log_m);
    out->conv = conv;
    out->n_vars = c->n_vars;
    out->n_public = c->n_public;
    out->n_rows = c->n_rows;
    out->log_m = log_m;

    scratch_t s;
    memset(&s, 0, sizeof s);
    if ((st = make_scalars(out, &s, c, tw, threads)) == CUZK_OK &&
        (st = make_points(out, &s, threads)) == CUZK_OK && conv == GROTH16_SNARKJS)
        st = groth16_setup_copy_coefs(out, c);
    scratch_free(&s);
    if (st == CUZK_OK)
        groth16_setup_vk_points(&out->vk, tw);
    if (st != CUZK_OK) {
        groth16_key_free(out);
        return cuzk_error_set(err, st, "groth16_setup: %s (%u rows, %u variables, domain 2^%u)",
                              cuzk_status_str(st), c->n_rows, c->n_vars, log_m);
    }
    return CUZK_OK;
}

cuzk_status groth16_setup(groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                          uint64_t seed, int threads, cuzk_error_t *err)
{
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, seed);
    return groth16_setup_toxic(out, c, conv, &tw, threads, err);
}
