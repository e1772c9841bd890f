/* The setup's elementwise scalars (setup.cuh): the Lagrange basis at tau,
 * the powers of tau, K.
 *
 * Each thread t of T takes the elements t, t + T, t + 2T, ... (coalesced),
 * so a thread's points x_i = g step^i advance by one multiplication by
 * step^T; it starts from g step^t (one exponentiation). The Lagrange
 * denominators of a thread share one Fermat inversion (Montgomery's trick):
 * forward, out[i] holds the product of the thread's earlier denominators;
 * backward, zfac / prod gives each zfac / den_i in one multiplication and
 * the x_i come back by multiplying by step^-T. At 2^27 with T ~ 135k that
 * is ~1000 elements per inversion and ~6 Fr multiplications an element. */
#include "backend/cuda/keygen/setup.cuh"

using namespace cuzk_host;

#define SETUP_THREADS_PER_SM 1024 /* threads of the strided kernels, per SM */
#define SETUP_MIN_RUN 32          /* elements a thread at least, where there are enough */

/* Enough threads to fill the device, each with at least SETUP_MIN_RUN
 * elements (so that small inputs run the multi-element path too). */
static size_t strided_threads(size_t n, int sms)
{
    size_t fill = (size_t)(sms > 0 ? sms : 1) * SETUP_THREADS_PER_SM;
    size_t t = (n + SETUP_MIN_RUN - 1) / SETUP_MIN_RUN;
    return t < fill ? t : fill;
}

static __global__ void __launch_bounds__(SETUP_BLOCK)
    setup_lagrange_kernel(dfr_t *__restrict__ out, size_t n, size_t T, dfr_t tau, dfr_t g,
                          dfr_t step, dfr_t step_t, dfr_t step_t_inv, dfr_t zfac)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T || t >= n)
        return;
    dfr_t x, acc, den, last;
    setup_fr_pow(&x, &step, t);
    dfr_mul(&x, &x, &g);
    dfr_set_one(&acc);
    size_t i_last = t;
    for (size_t i = t; i < n; i += T) {
        out[i] = acc;
        dfr_sub(&den, &tau, &x);
        dfr_mul(&acc, &acc, &den);
        last = x;
        i_last = i;
        dfr_mul(&x, &x, &step_t);
    }
    setup_fr_inv(&acc, &acc);
    dfr_mul(&acc, &acc, &zfac); /* zfac / (den_t ... den_last) */
    x = last;
    for (size_t i = i_last;; i -= T) {
        dfr_t l = out[i];
        dfr_sub(&den, &tau, &x);
        dfr_mul(&l, &l, &acc); /* zfac / den_i */
        dfr_mul(&acc, &acc, &den);
        dfr_mul(&l, &l, &x);
        out[i] = l;
        if (i < T)
            break;
        dfr_mul(&x, &x, &step_t_inv);
    }
}

cuzk_status cuda_setup_lagrange(dfr_t *out, size_t n, const fr_t *tau, const fr_t *g,
                                const fr_t *step, const fr_t *zfac, int sms, cudaStream_t s,
                                cuzk_error_t *err)
{
    if (n == 0)
        return CUZK_OK;
    size_t T = strided_threads(n, sms);
    uint64_t e = T;
    fr_t st, st_inv;
    fr_pow_var(&st, step, &e, 1);
    fr_inv(&st_inv, &st);
    setup_lagrange_kernel<<<setup_grid(T, (size_t)-1), SETUP_BLOCK, 0, s>>>(
        out, n, T, setup_dfr(tau), setup_dfr(g), setup_dfr(step), setup_dfr(&st),
        setup_dfr(&st_inv), setup_dfr(zfac));
    return CUDA_CHECK(cudaGetLastError(), err);
}

static __global__ void __launch_bounds__(SETUP_BLOCK)
    setup_powers_kernel(dfr_t *__restrict__ out, size_t n, size_t T, dfr_t x, dfr_t x_t,
                        dfr_t scale)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T || t >= n)
        return;
    dfr_t v;
    setup_fr_pow(&v, &x, t);
    dfr_mul(&v, &v, &scale);
    for (size_t i = t; i < n; i += T) {
        out[i] = v;
        dfr_mul(&v, &v, &x_t);
    }
}

cuzk_status cuda_setup_powers(dfr_t *out, size_t n, const fr_t *x, const fr_t *scale, int sms,
                              cudaStream_t s, cuzk_error_t *err)
{
    if (n == 0)
        return CUZK_OK;
    size_t T = strided_threads(n, sms);
    uint64_t e = T;
    fr_t xt;
    fr_pow_var(&xt, x, &e, 1);
    setup_powers_kernel<<<setup_grid(T, (size_t)-1), SETUP_BLOCK, 0, s>>>(
        out, n, T, setup_dfr(x), setup_dfr(&xt), setup_dfr(scale));
    return CUDA_CHECK(cudaGetLastError(), err);
}

static __global__ void __launch_bounds__(SETUP_BLOCK)
    setup_k_kernel(dfr_t *__restrict__ w, const dfr_t *__restrict__ u, const dfr_t *__restrict__ v,
                   size_t n, size_t n_in, dfr_t alpha, dfr_t beta, dfr_t gamma_inv, dfr_t delta_inv)
{
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n;
         j += (size_t)gridDim.x * blockDim.x) {
        dfr_t a = u[j], b = v[j], c = w[j];
        dfr_mul(&a, &a, &beta);
        dfr_mul(&b, &b, &alpha);
        dfr_add(&a, &a, &b);
        dfr_add(&a, &a, &c);
        dfr_mul(&a, &a, j < n_in ? &gamma_inv : &delta_inv);
        w[j] = a;
    }
}

cuzk_status cuda_setup_k(dfr_t *w, const dfr_t *u, const dfr_t *v, size_t n, size_t n_in,
                         const groth16_toxic_t *tw, const fr_t *gamma_inv, const fr_t *delta_inv,
                         cudaStream_t s, cuzk_error_t *err)
{
    if (n == 0)
        return CUZK_OK;
    setup_k_kernel<<<setup_grid(n, 65536), SETUP_BLOCK, 0, s>>>(
        w, u, v, n, n_in, setup_dfr(&tw->alpha), setup_dfr(&tw->beta), setup_dfr(gamma_inv),
        setup_dfr(delta_inv));
    return CUDA_CHECK(cudaGetLastError(), err);
}
