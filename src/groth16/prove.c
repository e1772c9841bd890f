/* The Groth16 prover over a backend (see include/cuzk/prover.h). */
#include "cuzk/prover.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The scalars of each query, in the order of its bases. */
typedef struct query_scalars {
    fr_t *a, *b, *l;
    size_t n_a, n_b, n_l;
    int own; /* a and b allocated (bellperson) or views into w (snarkjs) */
} query_scalars_t;

static void query_scalars_free(query_scalars_t *q)
{
    if (q->own) {
        free(q->a);
        free(q->b);
    }
}

static fr_t *gather(const fr_t *w, const uint32_t *idx, size_t n)
{
    fr_t *s = malloc((n ? n : 1) * sizeof *s);
    if (s)
        for (size_t k = 0; k < n; k++)
            s[k] = w[idx[k]];
    return s;
}

static cuzk_status scalars_for(query_scalars_t *q, const groth16_query_indices_t *ix,
                               const groth16_pk_t *pk, const fr_t *w, cuzk_error_t *err)
{
    memset(q, 0, sizeof *q);
    q->l = (fr_t *)&w[pk->n_public + 1];
    q->n_a = ix->n_a;
    q->n_b = ix->n_b;
    q->n_l = ix->n_l;
    if (!ix->a) {
        q->a = q->b = (fr_t *)w;
        return CUZK_OK;
    }
    q->own = 1;
    q->a = gather(w, ix->a, ix->n_a);
    q->b = gather(w, ix->b, ix->n_b);
    if (!q->a || !q->b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory gathering MSM scalars");
    return CUZK_OK;
}

/* Before anything indexes the witness by the key's sizes (w0: its first
 * value). */
static cuzk_status check_circuit(const groth16_pk_t *pk, const circuit_t *c, const fr_t *w0,
                                 cuzk_error_t *err)
{
    size_t m = (size_t)1 << pk->log_m;
    if (pk->n_vars < (uint64_t)pk->n_public + 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "key has %u variables for %u public ones",
                              pk->n_vars, pk->n_public);
    if (c->n_vars != pk->n_vars || c->n_public != pk->n_public)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "circuit has %u variables (%u public), key expects %u (%u)",
                              c->n_vars, c->n_public, pk->n_vars, pk->n_public);
    if (c->n_rows > m)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit has %u rows, key domain is %zu",
                              c->n_rows, m);
    if (!fr_is_one(w0))
        return cuzk_error_set(err, CUZK_ERR_ARG, "witness[0] must be 1");
    if (pk->vk.n_ic != (size_t)pk->n_public + 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "key has %zu IC points for %u public inputs",
                              pk->vk.n_ic, pk->n_public);
    return CUZK_OK;
}

static void g1_add_affine_to(g1_jac_t *acc, const g1_affine_t *p)
{
    g1_add_mixed(acc, acc, p);
}

/* The MSM stages through a backend's h_scalars and msm entries. */
static cuzk_status backend_msms(groth16_msms_t *m, const groth16_pk_t *pk,
                                const groth16_query_indices_t *ix, const circuit_t *c,
                                const fr_t *w, int need_b1, const groth16_backend_t *be, int th,
                                cuzk_error_t *err)
{
    query_scalars_t q;
    size_t msize = (size_t)1 << pk->log_m;
    fr_t *p = NULL;
    double t;
    cuzk_status st = scalars_for(&q, ix, pk, w, err);
    if (st != CUZK_OK)
        goto out;
    p = malloc(msize * sizeof *p);
    if (!p) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory (H scalars, %zu)", msize);
        goto out;
    }
    t = now_s();
    if ((st = be->h_scalars(be->ctx, p, c, w, pk->log_m, pk->conv, th, err)) != CUZK_OK)
        goto out;
    m->t.s[PROVE_H] = now_s() - t;
    t = now_s();
    st = be->msm_g1(be->ctx, &m->a, &pk->a.bases, q.a, q.n_a, th);
    m->t.s[PROVE_MSM_A] = now_s() - t;
    t = now_s();
    if (st == CUZK_OK)
        st = be->msm_g2(be->ctx, &m->b2, &pk->b_g2.bases, q.b, q.n_b, th);
    if (st == CUZK_OK && need_b1)
        st = be->msm_g1(be->ctx, &m->b1, &pk->b_g1.bases, q.b, q.n_b, th);
    m->t.s[PROVE_MSM_B] = now_s() - t;
    t = now_s();
    if (st == CUZK_OK)
        st = be->msm_g1(be->ctx, &m->l, &pk->l.bases, q.l, q.n_l, th);
    m->t.s[PROVE_MSM_L] = now_s() - t;
    t = now_s();
    if (st == CUZK_OK)
        st = be->msm_g1(be->ctx, &m->h, &pk->h.bases, p, pk->h.n, th);
    m->t.s[PROVE_MSM_H] = now_s() - t;
    if (st != CUZK_OK)
        cuzk_error_set(err, st, "MSM failed: %s", cuzk_status_str(st));
out:
    free(p);
    query_scalars_free(&q);
    return st;
}

/* The witness either whole (w) or packed (pw, for a backend with
 * msms_packed); pub: its public values w[1..n_public]. */
static cuzk_status prove_any(groth16_proof_t *proof, const groth16_pk_t *pk, const circuit_t *c,
                             const fr_t *w, const fr_pack_t *pw, const fr_t *w0, const fr_t *pub,
                             const fr_t *r, const fr_t *s, const groth16_backend_t *be,
                             const groth16_prove_opts_t *opts, cuzk_error_t *err)
{
    static const groth16_prove_opts_t defaults = {0, 0, NULL};
    if (!opts)
        opts = &defaults;
    int th = opts->threads;
    double t0 = now_s(), t;
    groth16_query_indices_t ix;
    memset(&ix, 0, sizeof ix);
    cuzk_status st = check_circuit(pk, c, w0, err);
    if (st != CUZK_OK)
        return st;
    /* A backend with its own msms entry indexes (and checks) the queries
     * when it makes the key resident: not a host pass per proof. */
    if (!be->msms && ((st = groth16_query_indices(&ix, pk, c, err)) != CUZK_OK ||
                      (st = groth16_query_check(pk, &ix, err)) != CUZK_OK))
        goto out;

    int need_b1 = !fr_is_zero(r);
    groth16_msms_t m;
    memset(&m, 0, sizeof m);
    g1_jac_set_inf(&m.b1);
    if (pw)
        st = be->msms_packed(be->ctx, &m, pk, c, pw, need_b1, th, err);
    else if (be->msms)
        st = be->msms(be->ctx, &m, pk, c, w, need_b1, th, err);
    else
        st = backend_msms(&m, pk, &ix, c, w, need_b1, be, th, err);
    if (st != CUZK_OK)
        goto out;
    g1_jac_t a = m.a, b1 = m.b1, l = m.l, h = m.h, tmp;
    g2_jac_t b2 = m.b2;

    /* A = alpha + A_msm + r delta1 */
    g1_jac_t d1;
    g1_from_affine(&d1, &pk->delta_g1);
    g1_add_affine_to(&a, &pk->alpha_g1);
    g1_mul_fr(&tmp, &d1, r);
    g1_add(&a, &a, &tmp);
    /* B = beta2 + B2_msm + s delta2 */
    g2_jac_t d2, t2;
    g2_from_affine(&d2, &pk->delta_g2);
    g2_add_mixed(&b2, &b2, &pk->beta_g2);
    g2_mul_fr(&t2, &d2, s);
    g2_add(&b2, &b2, &t2);
    /* C = L + H + s A + r B1 - r s delta1, B1 = beta1 + B1_msm + s delta1 */
    g1_jac_t cc;
    g1_add(&cc, &l, &h);
    g1_mul_fr(&tmp, &a, s);
    g1_add(&cc, &cc, &tmp);
    if (need_b1) {
        fr_t rs;
        g1_add_affine_to(&b1, &pk->beta_g1);
        g1_mul_fr(&tmp, &d1, s);
        g1_add(&b1, &b1, &tmp);
        g1_mul_fr(&tmp, &b1, r);
        g1_add(&cc, &cc, &tmp);
        fr_mul(&rs, r, s);
        g1_mul_fr(&tmp, &d1, &rs);
        g1_neg(&tmp, &tmp);
        g1_add(&cc, &cc, &tmp);
    }
    g1_to_affine(&proof->a, &a);
    g2_to_affine(&proof->b, &b2);
    g1_to_affine(&proof->c, &cc);

    double t_v = 0;
    if (!opts->no_verify) {
        int valid = 0;
        t = now_s();
        st = groth16_verify(&valid, &pk->vk, proof, pub, pk->n_public, err);
        t_v = now_s() - t;
        if (st == CUZK_OK && !valid)
            st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                                "proof failed verification: the witness does not satisfy the "
                                "circuit (or the key does not match it)");
    }
    if (opts->timings) {
        opts->timings->parts = m.t;
        opts->timings->verify = t_v;
        opts->timings->total = now_s() - t0;
    }
out:
    groth16_query_indices_free(&ix);
    return st;
}

cuzk_status groth16_prove(groth16_proof_t *proof, const groth16_pk_t *pk, const circuit_t *c,
                          const fr_t *w, const fr_t *r, const fr_t *s, const groth16_backend_t *be,
                          const groth16_prove_opts_t *opts, cuzk_error_t *err)
{
    return prove_any(proof, pk, c, w, NULL, &w[0], &w[1], r, s, be, opts, err);
}

cuzk_status groth16_prove_packed(groth16_proof_t *proof, const groth16_pk_t *pk, const circuit_t *c,
                                 const fr_pack_t *pw, const fr_t *r, const fr_t *s,
                                 const groth16_backend_t *be, const groth16_prove_opts_t *opts,
                                 cuzk_error_t *err)
{
    if (pw->n != pk->n_vars || pw->n < (size_t)pk->n_public + 1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "packed witness has %zu values, the key expects %u", pw->n,
                              pk->n_vars);
    cuzk_status st;
    if (!be->msms_packed) { /* the device takes whole vectors: expand here */
        fr_t *w = malloc(pw->n * sizeof *w);
        if (!w)
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "out of memory expanding a packed witness of %zu values", pw->n);
        if ((st = fr_pack_expand(w, pw, opts ? opts->threads : 0)) == CUZK_OK)
            st = groth16_prove(proof, pk, c, w, r, s, be, opts, err);
        else
            cuzk_error_set(err, st, "expanding a packed witness: %s", cuzk_status_str(st));
        free(w);
        return st;
    }
    /* the values the host still reads: w[0] and the public inputs */
    size_t n_pub = (size_t)pk->n_public + 1;
    fr_t *head = malloc(n_pub * sizeof *head);
    if (!head)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory (%zu public values)", n_pub);
    for (size_t i = 0; i < n_pub; i++)
        fr_pack_get(&head[i], pw, i);
    st = prove_any(proof, pk, c, NULL, pw, &head[0], &head[1], r, s, be, opts, err);
    free(head);
    return st;
}
