/* The H computation on the device (contract: h_scalars.cuh).
 *
 * Work at 2^27 (bellperson): 3 SpMVs, 7 NTTs (~40 ms each, ntt.cu) and one
 * elementwise pass, ~0.3 s; snarkjs has 6 NTTs and no C product. The
 * vectors never leave the device. */
#include <string.h>

#include "backend/cuda/h/h_scalars.cuh"

using namespace cuzk_host;

#define H_BLOCK 256
#define H_GRID_MAX 65536 /* grid-stride beyond this many blocks */

/* c = a b elementwise (snarkjs: the C column is never read). */
static __global__ void h_mul(dfr_t *__restrict__ c, const dfr_t *__restrict__ a,
                             const dfr_t *__restrict__ b, size_t m)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += (size_t)gridDim.x * blockDim.x) {
        dfr_t x = a[i], y = b[i];
        dfr_mul(&x, &x, &y);
        c[i] = x;
    }
}

/* p = p b - c (snarkjs: on the odd coset, no division by Z). */
static __global__ void h_combine(dfr_t *__restrict__ p, const dfr_t *__restrict__ b,
                                 const dfr_t *__restrict__ c, size_t m)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += (size_t)gridDim.x * blockDim.x) {
        dfr_t x = p[i], y = b[i], z = c[i];
        dfr_mul(&x, &x, &y);
        dfr_sub(&x, &x, &z);
        p[i] = x;
    }
}

/* p = p b, elementwise (bellperson: before c takes b's place). */
static __global__ void h_mul_into(dfr_t *p, const dfr_t *__restrict__ b, size_t m)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += (size_t)gridDim.x * blockDim.x) {
        dfr_t x = p[i], y = b[i];
        dfr_mul(&x, &x, &y);
        p[i] = x;
    }
}

/* p = (p - c) scale, elementwise. */
static __global__ void h_sub_scale(dfr_t *p, const dfr_t *__restrict__ c, size_t m, dfr_t scale)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += (size_t)gridDim.x * blockDim.x) {
        dfr_t x = p[i], z = c[i], s = scale;
        dfr_sub(&x, &x, &z);
        dfr_mul(&x, &x, &s);
        p[i] = x;
    }
}

static unsigned grid_for(size_t m)
{
    size_t blocks = (m + H_BLOCK - 1) / H_BLOCK;
    return (unsigned)(blocks < H_GRID_MAX ? blocks : H_GRID_MAX);
}

/* Scratch vectors besides the caller's p: bellperson's c takes b's place
 * once a and b are multiplied; snarkjs needs c = a.b before any NTT. */
static size_t scratch_vectors(groth16_convention conv)
{
    return conv == GROTH16_BELLPERSON ? 1 : 2;
}

size_t cuda_h_scratch_bytes(unsigned log_m, groth16_convention conv)
{
    return log_m >= NTT_MAX_LOG ? 0 : scratch_vectors(conv) * (sizeof(dfr_t) << log_m);
}

size_t cuda_h_plan_bytes(unsigned log_m, groth16_convention conv)
{
    if (log_m >= NTT_MAX_LOG)
        return 0;
    return cuda_ntt_domain_bytes(log_m) + cuda_ntt_coset_bytes(log_m) +
           scratch_vectors(conv) * (sizeof(dfr_t) << log_m);
}

/* The convention's coset shift g and, for bellperson, 1/(g^m - 1) (Z on
 * the coset g omega^i is g^m - 1 everywhere). */
static cuzk_status shift_of(fr_t *g, fr_t *scale, unsigned log_m, groth16_convention conv)
{
    *scale = FR_ONE;
    if (conv == GROTH16_SNARKJS)
        return fr_root_of_unity(g, FR_ROOTS_FFJS, log_m + 1);
    fr_t gm;
    uint64_t e = (uint64_t)1 << log_m;
    fr_from_u64(g, 7);
    fr_pow_var(&gm, g, &e, 1);
    fr_sub(scale, &gm, &FR_ONE);
    fr_inv(scale, scale);
    return CUZK_OK;
}

cuzk_status cuda_h_plan_init(cuda_h_plan_t *plan, unsigned log_m, groth16_convention conv,
                             cudaStream_t stream, cuzk_error_t *err)
{
    if (!plan)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda_h_plan_init: plan is NULL");
    memset(plan, 0, sizeof *plan);
    if (log_m >= NTT_MAX_LOG || (conv != GROTH16_SNARKJS && conv != GROTH16_BELLPERSON))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda_h_plan_init: domain 2^%u (max 2^%d) or convention %d", log_m,
                              NTT_MAX_LOG - 1, (int)conv);
    cuda_h_plan_t t;
    memset(&t, 0, sizeof t);
    t.log_m = log_m;
    t.m = (size_t)1 << log_m;
    t.conv = conv;
    fr_t g, scale;
    if (shift_of(&g, &scale, log_m, conv) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuda_h_plan_init: no coset shift");
    memcpy(&t.scale, &scale, sizeof t.scale);
    fr_roots roots = conv == GROTH16_SNARKJS ? FR_ROOTS_FFJS : FR_ROOTS_BELLMAN;
    cuzk_status st = cuda_ntt_domain_init(&t.domain, log_m, roots, stream, err);
    if (st == CUZK_OK)
        st = cuda_ntt_coset_init(&t.coset, &t.domain, &g, stream, err);
    size_t nv = scratch_vectors(conv);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&t.b, nv * t.m * sizeof(dfr_t)), err);
    if (st != CUZK_OK) {
        cuda_h_plan_free(&t);
        return st;
    }
    t.c = nv > 1 ? t.b + t.m : t.b;
    t.bytes = t.domain.bytes + t.coset.bytes + nv * t.m * sizeof(dfr_t);
    *plan = t;
    return CUZK_OK;
}

void cuda_h_plan_free(cuda_h_plan_t *plan)
{
    if (!plan)
        return;
    cuda_ntt_coset_free(&plan->coset);
    cuda_ntt_domain_free(&plan->domain);
    if (plan->b)
        (void)cudaFree(plan->b);
    memset(plan, 0, sizeof *plan);
}

/* out[0..n_rows) = M w, out[n_rows..m) = 0. */
static cuzk_status eval_padded(dfr_t *out, const cuda_circuit_t *c, circuit_matrix mat,
                               const dfr_t *w, size_t m, cudaStream_t stream, cuzk_error_t *err)
{
    cuzk_status st = cuda_spmv(out, c, mat, w, stream, err);
    if (st == CUZK_OK && c->n_rows < m)
        st = CUDA_CHECK(
            cudaMemsetAsync(out + c->n_rows, 0, (m - c->n_rows) * sizeof(dfr_t), stream), err);
    return st;
}

/* v = M w, then its inverse NTT and coset forward NTT. */
static cuzk_status eval_to_coset(dfr_t *v, const cuda_circuit_t *c, circuit_matrix mat,
                                 const dfr_t *w, cuda_h_plan_t *plan, cudaStream_t stream,
                                 cuzk_error_t *err)
{
    cuzk_status st = eval_padded(v, c, mat, w, plan->m, stream, err);
    if (st == CUZK_OK)
        st = cuda_ntt(v, &plan->domain, CUZK_NTT_INVERSE, NULL, stream, err);
    if (st == CUZK_OK)
        st = cuda_ntt(v, &plan->domain, CUZK_NTT_COSET_FORWARD, &plan->coset, stream, err);
    return st;
}

/* bellperson in two vectors: p = a b on the coset, then c in b's place,
 * p = (p - c) / (g^m - 1), coset inverse NTT. The same arithmetic as the
 * three-vector order, so the same bytes. */
static cuzk_status h_two_vectors(dfr_t *p, dfr_t *b, const cuda_circuit_t *c, const dfr_t *w,
                                 cuda_h_plan_t *plan, cudaStream_t stream, cuzk_error_t *err)
{
    const size_t m = plan->m;
    cuzk_status st = eval_to_coset(p, c, CIRCUIT_A, w, plan, stream, err);
    if (st == CUZK_OK)
        st = eval_to_coset(b, c, CIRCUIT_B, w, plan, stream, err);
    if (st != CUZK_OK)
        return st;
    h_mul_into<<<grid_for(m), H_BLOCK, 0, stream>>>(p, b, m);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK ||
        (st = eval_to_coset(b, c, CIRCUIT_C, w, plan, stream, err)) != CUZK_OK)
        return st;
    h_sub_scale<<<grid_for(m), H_BLOCK, 0, stream>>>(p, b, m, plan->scale);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
        return st;
    return cuda_ntt(p, &plan->domain, CUZK_NTT_COSET_INVERSE, &plan->coset, stream, err);
}

cuzk_status cuda_h_scalars(dfr_t *p, const cuda_circuit_t *c, const dfr_t *w, cuda_h_plan_t *plan,
                           cudaStream_t stream, cuzk_error_t *err)
{
    if (!p || !c || (!c->mem && !c->stream) || !w || !plan || !plan->b)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda_h_scalars: NULL output, circuit, witness or plan");
    const size_t m = plan->m;
    if (c->n_rows > m)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit has %u rows, domain only %zu", c->n_rows,
                              m);
    dfr_t *b = plan->b, *cc = plan->c;
    if (plan->conv == GROTH16_BELLPERSON) /* two vectors: p = a, b = b then c */
        return h_two_vectors(p, b, c, w, plan, stream, err);
    /* snarkjs: zkey section 4 has no C; c = a.b row by row. */
    cuzk_status st = eval_padded(p, c, CIRCUIT_A, w, m, stream, err);
    if (st == CUZK_OK)
        st = eval_padded(b, c, CIRCUIT_B, w, m, stream, err);
    if (st == CUZK_OK) {
        h_mul<<<grid_for(m), H_BLOCK, 0, stream>>>(cc, p, b, m);
        st = CUDA_CHECK(cudaGetLastError(), err);
    }
    dfr_t *vec[3] = {p, b, cc};
    for (int k = 0; k < 3 && st == CUZK_OK; k++) {
        st = cuda_ntt(vec[k], &plan->domain, CUZK_NTT_INVERSE, NULL, stream, err);
        if (st == CUZK_OK)
            st = cuda_ntt(vec[k], &plan->domain, CUZK_NTT_COSET_FORWARD, &plan->coset, stream, err);
    }
    if (st != CUZK_OK)
        return st;
    h_combine<<<grid_for(m), H_BLOCK, 0, stream>>>(p, b, cc, m);
    return CUDA_CHECK(cudaGetLastError(), err);
}
