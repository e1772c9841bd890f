/* Groth16 verification, single and batched (see include/cuzk/groth16.h).
 *
 * Single: one multi-pairing with one final exponentiation,
 *   e(-A, B) e(alpha, beta) e(acc, gamma) e(C, delta) == 1.
 * Batch (Filecoin / bellperson verify_proofs_batch): with random nonzero
 * 128-bit z_j from getrandom(),
 *   prod_j e(-z_j A_j, B_j) e(sum_j z_j C_j, delta)
 *   e(sum_i w_i IC_i, gamma) e((sum_j z_j) alpha, beta) == 1,
 * w_0 = sum_j z_j, w_{i+1} = sum_j z_j x_ji: k + 3 Miller loops and one
 * final exponentiation. A batch with an invalid proof passes with
 * probability about 2^-128 (the z_j are unknown to the prover).
 * The IC combinations go through the 0/1-aware MSM: WindowPoSt keys have
 * 25,840 IC points. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cuzk/fp12.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/pairing.h"

/* out = sum_i scalars[i] * bases[i] over the key's IC points. */
static cuzk_status ic_combine(g1_jac_t *out, const g1_affine_t *bases, const fr_t *scalars,
                              size_t n)
{
    msm_bases_t b = {bases, MSM_BASES_AFFINE};
    return msm_g1(out, &b, scalars, n, 0);
}

static cuzk_status vk_check(const groth16_vk_t *vk, const char *fn, cuzk_error_t *err)
{
    if (!vk || !vk->ic || vk->n_ic == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: verifying key without IC points", fn);
    return CUZK_OK;
}

cuzk_status groth16_verify(int *valid, const groth16_vk_t *vk, const groth16_proof_t *proof,
                           const fr_t *inputs, size_t n_inputs, cuzk_error_t *err)
{
    if (valid)
        *valid = 0;
    if (!valid || !proof || (!inputs && n_inputs))
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_verify: NULL argument");
    cuzk_status st = vk_check(vk, "groth16_verify", err);
    if (st != CUZK_OK)
        return st;
    if (n_inputs != vk->n_ic - 1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "groth16_verify: %zu public inputs, the key expects %zu", n_inputs,
                              vk->n_ic - 1);
    g1_jac_t acc;
    if ((st = ic_combine(&acc, vk->ic + 1, inputs, n_inputs)) != CUZK_OK)
        return cuzk_error_set(err, st, "groth16_verify: MSM over %zu inputs failed", n_inputs);
    g1_add_mixed(&acc, &acc, &vk->ic[0]);

    g1_affine_t p[4];
    g2_affine_t q[4] = {proof->b, vk->beta_g2, vk->gamma_g2, vk->delta_g2};
    g1_affine_neg(&p[0], &proof->a);
    p[1] = vk->alpha_g1;
    g1_to_affine(&p[2], &acc);
    p[3] = proof->c;
    fp12_t f;
    if ((st = pairing_product(&f, p, q, 4)) != CUZK_OK)
        return cuzk_error_set(err, st, "groth16_verify: pairing failed");
    *valid = fp12_is_one(&f);
    return CUZK_OK;
}

static cuzk_status random_fill(uint8_t *buf, size_t n)
{
    while (n) {
        ssize_t got = getrandom(buf, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return CUZK_ERR_IO;
        }
        buf += got;
        n -= (size_t)got;
    }
    return CUZK_OK;
}

/* k random nonzero 128-bit scalars. */
static cuzk_status random_z(fr_t *z, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        uint64_t l[FR_LIMBS] = {0, 0, 0, 0};
        do {
            uint8_t b[16];
            if (random_fill(b, sizeof b) != CUZK_OK)
                return CUZK_ERR_IO;
            memcpy(l, b, sizeof b);
        } while (l[0] == 0 && l[1] == 0);
        if (fr_from_limbs(&z[j], l) != CUZK_OK) /* < 2^128 < r: cannot fail */
            return CUZK_ERR_INTERNAL;
    }
    return CUZK_OK;
}

typedef struct batch_scratch {
    fr_t *z, *w;
    g1_jac_t *pj;
    g1_affine_t *p;
    g2_affine_t *q;
} batch_scratch_t;

static void batch_scratch_free(batch_scratch_t *s)
{
    free(s->z);
    free(s->w);
    free(s->pj);
    free(s->p);
    free(s->q);
}

/* Builds the k + 3 pairs of the batch equation into s->p / s->q. */
static cuzk_status batch_pairs(batch_scratch_t *s, const groth16_vk_t *vk,
                               const groth16_proof_t *proofs, size_t k, const fr_t *inputs)
{
    size_t n = vk->n_ic - 1;
    fr_t zsum = FR_ZERO;
    g1_jac_t csum, t;
    g1_jac_set_inf(&csum);
    for (size_t i = 0; i < vk->n_ic; i++)
        s->w[i] = FR_ZERO;
    for (size_t j = 0; j < k; j++) {
        uint64_t zl[FR_LIMBS];
        fr_to_limbs(zl, &s->z[j]);
        fr_add(&zsum, &zsum, &s->z[j]);
        const fr_t *x = inputs + j * n;
        for (size_t i = 0; i < n; i++) {
            fr_t m;
            fr_mul(&m, &s->z[j], &x[i]);
            fr_add(&s->w[i + 1], &s->w[i + 1], &m);
        }
        /* -z_j A_j, and z_j C_j into the sum (128-bit scalars: 2 limbs). */
        g1_from_affine(&t, &proofs[j].a);
        g1_mul_var(&s->pj[j], &t, zl, 2);
        g1_neg(&s->pj[j], &s->pj[j]);
        g1_from_affine(&t, &proofs[j].c);
        g1_mul_var(&t, &t, zl, 2);
        g1_add(&csum, &csum, &t);
        s->q[j] = proofs[j].b;
    }
    s->w[0] = zsum;
    cuzk_status st = ic_combine(&s->pj[k + 1], vk->ic, s->w, vk->n_ic);
    if (st != CUZK_OK)
        return st;
    s->pj[k] = csum;
    s->q[k] = vk->delta_g2;
    s->q[k + 1] = vk->gamma_g2;
    g1_from_affine(&t, &vk->alpha_g1);
    g1_mul_fr(&s->pj[k + 2], &t, &zsum);
    s->q[k + 2] = vk->beta_g2;
    return g1_batch_to_affine(s->p, s->pj, k + 3);
}

cuzk_status groth16_verify_batch(int *valid, const groth16_vk_t *vk, const groth16_proof_t *proofs,
                                 size_t k, const fr_t *inputs, cuzk_error_t *err)
{
    if (valid)
        *valid = 0;
    if (!valid || !proofs)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_verify_batch: NULL argument");
    cuzk_status st = vk_check(vk, "groth16_verify_batch", err);
    if (st != CUZK_OK)
        return st;
    if (k == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_verify_batch: no proofs");
    if (!inputs && vk->n_ic > 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_verify_batch: NULL inputs");
    if (k > SIZE_MAX / sizeof(g2_affine_t) - 3)
        return cuzk_error_set(err, CUZK_ERR_ARG, "groth16_verify_batch: %zu proofs", k);
    batch_scratch_t s;
    s.z = malloc(k * sizeof *s.z);
    s.w = malloc(vk->n_ic * sizeof *s.w);
    s.pj = malloc((k + 3) * sizeof *s.pj);
    s.p = malloc((k + 3) * sizeof *s.p);
    s.q = malloc((k + 3) * sizeof *s.q);
    if (!s.z || !s.w || !s.pj || !s.p || !s.q) {
        batch_scratch_free(&s);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "groth16_verify_batch: no memory for %zu proofs",
                              k);
    }
    if ((st = random_z(s.z, k)) != CUZK_OK) {
        batch_scratch_free(&s);
        return cuzk_error_set(err, st, "groth16_verify_batch: getrandom failed: %s",
                              strerror(errno));
    }
    if ((st = batch_pairs(&s, vk, proofs, k, inputs)) != CUZK_OK) {
        batch_scratch_free(&s);
        return cuzk_error_set(err, st, "groth16_verify_batch: MSM failed");
    }
    fp12_t f;
    st = pairing_product(&f, s.p, s.q, k + 3);
    batch_scratch_free(&s);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "groth16_verify_batch: pairing failed");
    *valid = fp12_is_one(&f);
    return CUZK_OK;
}
