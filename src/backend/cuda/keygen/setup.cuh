/* The GPU test setup (include/cuzk/cuda_setup.h): what its units share.
 *
 *   setup.cu          the entry points: checks, memory plan, stage order,
 *                     vk, download, device key
 *   setup_scalars.cu  Lagrange basis at tau, powers of tau, K
 *   setup_columns.cu  one matrix at a time: CSR upload, CSC build on the
 *                     device, column sums u_j / v_j / w_j, query indices
 *   setup_fb.cu       fixed-base plan: window choice, bytes, free
 *   setup_fb_g1.cu, setup_fb_g2.cu
 *                     fixed-base multiplication of the generator and batch
 *                     affine normalisation (written once: setup_fb_impl.cuh)
 *
 * Every function here enqueues on the stream it is given (the device is the
 * caller's current one); the ones that allocate say so and free what they
 * allocated before returning, on every path. cudaMalloc / cudaFree are used
 * at stage boundaries only (cudaFree waits for the device). Sizes are
 * 64-bit; wire and row numbers 32-bit, as in circuit.h. */
#ifndef CUZK_CUDA_SETUP_CUH
#define CUZK_CUDA_SETUP_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "backend/cuda/cuda_check.cuh"
#include "backend/cuda/arith/host_types.cuh"

namespace cuzk_host
{
#include "cuzk/circuit.h"
#include "cuzk/cuda_setup.h"
} // namespace cuzk_host

#define SETUP_BLOCK 256                     /* threads of the elementwise kernels */
#define SETUP_ALLOC_GRAIN ((size_t)2 << 20) /* cudaMalloc's granularity, for the plan */
#define SETUP_POISON 0xa5                   /* output bytes before they are computed */

/* The bytes one cudaMalloc of b takes, as the plan counts them. */
static inline size_t setup_round(size_t b)
{
    return (b + SETUP_ALLOC_GRAIN - 1) / SETUP_ALLOC_GRAIN * SETUP_ALLOC_GRAIN;
}

/* Blocks for one thread per item, at most `cap` (grid-stride beyond). */
static inline unsigned setup_grid(size_t items, size_t cap)
{
    size_t b = (items + SETUP_BLOCK - 1) / SETUP_BLOCK;
    return (unsigned)(b < 1 ? 1 : b < cap ? b : cap);
}

static inline dfr_t setup_dfr(const cuzk_host::fr_t *x)
{
    dfr_t r;
    static_assert(sizeof r == sizeof *x, "dfr_t has fr_t's bytes");
    __builtin_memcpy(&r, x, sizeof r);
    return r;
}

/* ---- device arithmetic the units share --------------------------------- */

/* The bits of m - 2 for a modulus m of n limbs: the Fermat exponent. */
CUZK_HD void setup_fermat_exp(uint32_t *e, const uint32_t *m, int n)
{
    uint32_t borrow = 2;
    for (int i = 0; i < n; i++) {
        e[i] = m[i] - borrow;
        borrow = m[i] < borrow;
    }
}

/* a^-1 = a^(p - 2) (0 for 0). The exponent is public: left-to-right
 * square-and-multiply, 380 squarings and ~190 multiplications, through the
 * unit's dfp_mul (outlined where the unit asks for it). */
CUZK_HD void setup_fp_inv(dfp_t *out, const dfp_t *a)
{
    uint32_t e[DFP_LIMBS];
    setup_fermat_exp(e, DCONST(DFP_P).l, DFP_LIMBS);
    dfp_t r = *a;
    int top = DFP_LIMBS * 32 - 1;
    while (!((e[top >> 5] >> (top & 31)) & 1))
        top--;
    for (int bit = top - 1; bit >= 0; bit--) {
        dfp_sqr(&r, &r);
        if ((e[bit >> 5] >> (bit & 31)) & 1)
            dfp_mul(&r, &r, a);
    }
    *out = r;
}

/* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2), as u^2 = -1. */
CUZK_HD void setup_fp2_inv(dfp2_t *out, const dfp2_t *a)
{
    dfp_t t0, t1;
    dfp_sqr(&t0, &a->c0);
    dfp_sqr(&t1, &a->c1);
    dfp_add(&t0, &t0, &t1);
    setup_fp_inv(&t0, &t0);
    dfp_mul(&out->c0, &a->c0, &t0);
    dfp_mul(&t1, &a->c1, &t0);
    dfp_neg(&out->c1, &t1);
}

/* a^-1 = a^(r - 2) in Fr (0 for 0). */
CUZK_HD void setup_fr_inv(dfr_t *out, const dfr_t *a)
{
    uint32_t e[DFR_LIMBS];
    setup_fermat_exp(e, DCONST(DFR_P).l, DFR_LIMBS);
    dfr_t r = *a;
    int top = DFR_LIMBS * 32 - 1;
    while (!((e[top >> 5] >> (top & 31)) & 1))
        top--;
    for (int bit = top - 1; bit >= 0; bit--) {
        dfr_sqr(&r, &r);
        if ((e[bit >> 5] >> (bit & 31)) & 1)
            dfr_mul(&r, &r, a);
    }
    *out = r;
}

/* a^e for a 64-bit e (e = 0 gives one). */
CUZK_HD void setup_fr_pow(dfr_t *out, const dfr_t *a, uint64_t e)
{
    dfr_t r, b = *a;
    dfr_set_one(&r);
    while (e) {
        if (e & 1)
            dfr_mul(&r, &r, &b);
        e >>= 1;
        if (e)
            dfr_sqr(&b, &b);
    }
    *out = r;
}

/* ---- scalars (setup_scalars.cu) ----------------------------------------- */

/* out[i] = zfac x_i / (tau - x_i), x_i = g step^i, i < n: the CPU's
 * lagrange() (setup.c). tau must be no x_i. Threads take strided elements
 * (coalesced) and share one inversion over theirs (Montgomery's trick, the
 * prefix products kept in out). */
cuzk_status cuda_setup_lagrange(dfr_t *out, size_t n, const cuzk_host::fr_t *tau,
                                const cuzk_host::fr_t *g, const cuzk_host::fr_t *step,
                                const cuzk_host::fr_t *zfac, int sms, cudaStream_t s,
                                cuzk_error_t *err);
/* out[i] = scale x^i, i < n. */
cuzk_status cuda_setup_powers(dfr_t *out, size_t n, const cuzk_host::fr_t *x,
                              const cuzk_host::fr_t *scale, int sms, cudaStream_t s,
                              cuzk_error_t *err);
/* w[j] <- (beta u_j + alpha v_j + w_j) (j < n_in ? gamma_inv : delta_inv),
 * j < n. */
cuzk_status cuda_setup_k(dfr_t *w, const dfr_t *u, const dfr_t *v, size_t n, size_t n_in,
                         const cuzk_host::groth16_toxic_t *tw, const cuzk_host::fr_t *gamma_inv,
                         const cuzk_host::fr_t *delta_inv, cudaStream_t s, cuzk_error_t *err);

/* ---- columns (setup_columns.cu) ----------------------------------------- */

/* The circuit's coefficient dictionary on the device, with each entry's
 * kind (1, -1, other) so that the sums add or subtract instead of
 * multiplying where they can. */
typedef struct cuda_setup_dict {
    dfr_t *val;
    uint8_t *kind;
    uint32_t n;
} cuda_setup_dict_t;

/* Allocates (cudaMalloc) and copies; CUZK_ERR_NOMEM (host), CUZK_ERR_CUDA. */
cuzk_status cuda_setup_dict_upload(cuda_setup_dict_t *d, const cuzk_host::circuit_t *c,
                                   cudaStream_t s, cuzk_error_t *err);
void cuda_setup_dict_free(cuda_setup_dict_t *d);

/* The query-index request of one matrix: idx = the wires j < n_vars with
 * j < all_below or an entry in column j, ascending; n is the host's count
 * of them (a different device count is CUZK_ERR_INTERNAL). */
typedef struct cuda_setup_idx_req {
    uint32_t *idx; /* device, n entries; NULL: none wanted */
    size_t n;
    uint32_t all_below;
} cuda_setup_idx_req_t;

/* out[j] = sum_r M[r][j] lag[r] for every j < n_vars (device; each written
 * once), M = matrix m of c, and the query indices of q (may be NULL).
 * Uploads the matrix, builds its CSC, sums, and frees its scratch:
 * cuda_setup_column_bytes(c, m, q != NULL) at most, on top of what the
 * caller holds. *t_upload gets the seconds the copies took (they wait for
 * the stream). CUZK_ERR_ARG for a malformed matrix (row offsets that do
 * not end at nnz, a column >= n_vars, a coefficient index >= n_dict). */
cuzk_status cuda_setup_column(dfr_t *out, const cuda_setup_idx_req_t *q,
                              const cuzk_host::circuit_t *c, cuzk_host::circuit_matrix m,
                              const dfr_t *lag, const cuda_setup_dict_t *dict, int sms,
                              cudaStream_t s, double *t_upload, cuzk_error_t *err);
size_t cuda_setup_column_bytes(const cuzk_host::circuit_t *c, cuzk_host::circuit_matrix m,
                               int with_idx);

/* ---- fixed base (setup_fb*.cu) ------------------------------------------ */

/* One group's tables and scratch. Signed c-bit windows: digits in
 * [-2^(c-1), 2^(c-1)], n_win = ceil(256 / c) windows (k < 2^255 leaves no
 * final carry), table[w][d - 1] = d 2^(c w) G for 1 <= d <= 2^(c-1). */
typedef struct cuda_setup_fb {
    unsigned c, n_win;
    size_t per_win; /* 2^(c-1) */
    void *table;    /* n_win * per_win affine points */
    void *jac;      /* chunk Jacobian points */
    void *pre;      /* chunk coordinates: the prefix products */
    size_t chunk;   /* points per pass */
    size_t bytes;   /* device bytes held */
    int sms;
} cuda_setup_fb_t;

/* The window for n points in all (cost model in setup_fb.cu). */
unsigned cuda_setup_fb_window(size_t n_total, size_t aff_bytes);
/* Points per pass for calls of at most n_max points and a table of
 * `entries` (built in passes too). */
size_t cuda_setup_fb_chunk(size_t n_max, size_t entries);
/* Device bytes of a plan for n_total points, the largest call n_max (the
 * window bases of the build included). */
size_t cuda_setup_fb_bytes(int g2, size_t n_total, size_t n_max);
void cuda_setup_fb_free(cuda_setup_fb_t *fb);

/* Allocates (cudaMalloc) the table and scratch and builds the table. */
cuzk_status cuda_setup_fb_g1_init(cuda_setup_fb_t *fb, size_t n_total, size_t n_max, int sms,
                                  cudaStream_t s, cuzk_error_t *err);
cuzk_status cuda_setup_fb_g2_init(cuda_setup_fb_t *fb, size_t n_total, size_t n_max, int sms,
                                  cudaStream_t s, cuzk_error_t *err);
/* out[i] = k[idx ? idx[i] : i] G for i < n (n <= the plan's n_max;
 * affine, infinity (0, 0) for a zero scalar). k: Montgomery Fr. */
cuzk_status cuda_setup_fb_g1_mul(dg1_affine_t *out, const cuda_setup_fb_t *fb, const dfr_t *k,
                                 const uint32_t *idx, size_t n, cudaStream_t s, cuzk_error_t *err);
cuzk_status cuda_setup_fb_g2_mul(dg2_affine_t *out, const cuda_setup_fb_t *fb, const dfr_t *k,
                                 const uint32_t *idx, size_t n, cudaStream_t s, cuzk_error_t *err);

#endif
