/* The CPU backend: the reference every other backend is compared with.
 * H scalars from the circuit (circuit_eval) and the NTTs (ntt.h); MSMs from
 * msm.h. See include/cuzk/prover.h for the two H conventions. */
#include <stdlib.h>

#include "cuzk/backend.h"
#include "cuzk/backend_cpu.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "util/bigmem.h"

typedef struct pointwise_ctx {
    fr_t *p;
    const fr_t *b, *c;
    const fr_t *scale; /* NULL: none */
} pointwise_ctx_t;

/* p[i] = (p[i] * b[i] - c[i]) * scale */
static void pointwise(void *vctx, size_t begin, size_t end)
{
    pointwise_ctx_t *x = vctx;
    for (size_t i = begin; i < end; i++) {
        fr_mul(&x->p[i], &x->p[i], &x->b[i]);
        fr_sub(&x->p[i], &x->p[i], &x->c[i]);
        if (x->scale)
            fr_mul(&x->p[i], &x->p[i], x->scale);
    }
}

typedef struct mul_ctx {
    fr_t *out;
    const fr_t *a, *b;
} mul_ctx_t;

static void mul_range(void *vctx, size_t begin, size_t end)
{
    mul_ctx_t *x = vctx;
    for (size_t i = begin; i < end; i++)
        fr_mul(&x->out[i], &x->a[i], &x->b[i]);
}

static cuzk_status cpu_h_scalars(void *ctx, fr_t *p, const circuit_t *c, const fr_t *w,
                                 unsigned log_m, groth16_convention conv, int threads,
                                 cuzk_error_t *err)
{
    (void)ctx;
    size_t m = (size_t)1 << log_m;
    if (c->n_rows > m)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit has %u rows, domain only %zu", c->n_rows,
                              m);
    fr_t *b = bigmem_alloc(m * sizeof *b), *cc = bigmem_alloc(m * sizeof *cc);
    ntt_domain_t d = {0};
    cuzk_status st = CUZK_ERR_NOMEM;
    if (!b || !cc)
        goto out;
    for (size_t i = c->n_rows; i < m; i++)
        p[i] = FR_ZERO;
    if ((st = circuit_eval(p, c, CIRCUIT_A, w, threads)) != CUZK_OK ||
        (st = circuit_eval(b, c, CIRCUIT_B, w, threads)) != CUZK_OK)
        goto out;
    if (conv == GROTH16_SNARKJS) {
        /* zkeys carry no C: on the domain c = a.b row by row */
        mul_ctx_t mc = {cc, p, b};
        st = parallel_for(m, 1 << 14, threads, mul_range, &mc);
    } else {
        st = circuit_eval(cc, c, CIRCUIT_C, w, threads);
    }
    if (st != CUZK_OK)
        goto out;
    fr_roots roots = conv == GROTH16_SNARKJS ? FR_ROOTS_FFJS : FR_ROOTS_BELLMAN;
    if ((st = ntt_domain_init(&d, log_m, roots)) != CUZK_OK)
        goto out;
    fr_t g, scale, gm;
    if (conv == GROTH16_SNARKJS) {
        /* the odd coset of the 2m domain: shift by omega_2m */
        if ((st = fr_root_of_unity(&g, roots, log_m + 1)) != CUZK_OK)
            goto out;
    } else {
        /* coset 7; Z(7 w^i) = 7^m - 1 on the whole coset */
        uint64_t e = (uint64_t)m;
        fr_from_u64(&g, 7);
        fr_pow_var(&gm, &g, &e, 1);
        fr_sub(&scale, &gm, &FR_ONE);
        fr_inv(&scale, &scale);
    }
    fr_t *vec[3] = {p, b, cc};
    for (int k = 0; k < 3; k++) {
        if ((st = ntt_inverse(&d, vec[k], threads)) != CUZK_OK ||
            (st = ntt_coset_forward(&d, vec[k], &g, threads)) != CUZK_OK)
            goto out;
    }
    pointwise_ctx_t pc = {p, b, cc, conv == GROTH16_SNARKJS ? NULL : &scale};
    if ((st = parallel_for(m, 1 << 14, threads, pointwise, &pc)) != CUZK_OK)
        goto out;
    if (conv == GROTH16_BELLPERSON)
        st = ntt_coset_inverse(&d, p, &g, threads);
out:
    if (st != CUZK_OK)
        cuzk_error_set(err, st, "H computation (domain 2^%u) failed: %s", log_m,
                       cuzk_status_str(st));
    ntt_domain_free(&d);
    bigmem_free(b, m * sizeof *b);
    bigmem_free(cc, m * sizeof *cc);
    return st;
}

static cuzk_status cpu_msm_g1(void *ctx, g1_jac_t *out, const msm_bases_t *b, const fr_t *s,
                              size_t n, int threads)
{
    (void)ctx;
    return msm_g1(out, b, s, n, threads);
}

static cuzk_status cpu_msm_g2(void *ctx, g2_jac_t *out, const msm_bases_t *b, const fr_t *s,
                              size_t n, int threads)
{
    (void)ctx;
    return msm_g2(out, b, s, n, threads);
}

const groth16_backend_t GROTH16_BACKEND_CPU = {
    .name = "cpu", .h_scalars = cpu_h_scalars, .msm_g1 = cpu_msm_g1, .msm_g2 = cpu_msm_g2};
