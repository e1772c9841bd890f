/* The GPU test setup's entry points (include/cuzk/cuda_setup.h): the
 * checks, the memory plan, the stages in order, the vk and the download.
 *
 * Stages, all on one stream (each ends with a wait, for its time):
 *   upload    bellperson query densities counted on the host (they size
 *             the A and B queries before anything is allocated), the
 *             dictionary; each matrix's CSR is copied inside `columns`
 *   lagrange  L_r(tau) for the circuit rows
 *   columns   u, v, w (setup_columns.cu), the bellperson query indices
 *   scalars   K into w (in place); later H's scalars
 *   g1        one table for every G1 query: A, L, IC, B_G1, H
 *   g2        B_G2
 *   download  the bases to malloc'd host arrays (dev == NULL)
 * The device memory plan (plan_bytes) follows this order exactly; its peak
 * at 2^27 (bellperson, gen_porep) is the point stage's 58.5 GiB: the 44 GiB
 * of bases, u, v, w and the G1 table with its scratch.
 * Measured there on the H200 (2026-12-03): 7.9 s with the key left on the
 * device (upload 2.4, of which 0.8 the host's density count; lagrange
 * 0.02; columns 0.16; scalars 0.02; g1 4.3; g2 1.0), then 7.7 s to download
 * into fresh host memory (1.6 s into memory already touched). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cuda/keygen/setup.cuh"
#include "cuzk/cuda.h"

namespace cuzk_host
{
#include "cuzk/parallel.h"
} // namespace cuzk_host

using namespace cuzk_host;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The five base arrays, in the order of cuzk_cuda_key_dev_t. */
enum { Q_A, Q_B1, Q_B2, Q_L, Q_H, Q_N };

/* ---- the plan ------------------------------------------------------------ */

/* Sizes of a key and the device bytes of each stage. */
typedef struct setup_plan {
    unsigned log_m;
    size_t m, n_in;
    size_t n[Q_N]; /* points per base array */
    size_t g1_total, g1_max;
    size_t peak; /* device bytes */
} setup_plan_t;

static const size_t Q_POINT[Q_N] = {sizeof(dg1_affine_t), sizeof(dg1_affine_t),
                                    sizeof(dg2_affine_t), sizeof(dg1_affine_t),
                                    sizeof(dg1_affine_t)};

/* Wires j < n_vars with j < all_below or an entry in column j of m: the
 * prover's density rule (groth16_query_indices). CUZK_ERR_NOMEM. */
static cuzk_status count_dense(size_t *out, const circuit_t *c, circuit_matrix m,
                               uint32_t all_below)
{
    size_t words = ((size_t)c->n_vars + 63) / 64;
    uint64_t *bit = (uint64_t *)calloc(words ? words : 1, sizeof *bit);
    if (!bit)
        return CUZK_ERR_NOMEM;
    const circuit_csr_t *M = &c->m[m];
    for (uint64_t k = 0; k < M->nnz; k++) {
        uint32_t j = M->col[k];
        if (j < c->n_vars) /* a bad column is the device's error to report */
            bit[j / 64] |= (uint64_t)1 << (j % 64);
    }
    size_t n = 0;
    for (uint32_t j = 0; j < c->n_vars; j++)
        n += j < all_below || ((bit[j / 64] >> (j % 64)) & 1);
    free(bit);
    *out = n;
    return CUZK_OK;
}

static unsigned log_domain(const circuit_t *c)
{
    unsigned log_m = 1;
    while (((uint64_t)1 << log_m) < c->n_rows)
        log_m++;
    return log_m;
}

/* The device bytes of each stage, in the order cuzk_cuda_setup_toxic runs
 * them; p->peak is the largest. */
static void plan_bytes(setup_plan_t *p, const circuit_t *c, groth16_convention conv)
{
    const size_t F = sizeof(dfr_t), R = SETUP_ALLOC_GRAIN;
    int bell = conv == GROTH16_BELLPERSON;
    size_t col = setup_round((size_t)c->n_vars * F);
    size_t idx = bell ? setup_round(p->n[Q_A] * 4) + setup_round(p->n[Q_B1] * 4) : 0;
    size_t idx_b = bell ? setup_round(p->n[Q_B1] * 4) : 0;
    size_t nd = c->n_dict ? c->n_dict : 1;
    size_t dict = setup_round(nd * F) + setup_round(nd);
    size_t lag = setup_round(((size_t)c->n_rows ? c->n_rows : 1) * F);
    size_t worst = 0;
    for (int m = 0; m < 3; m++) {
        size_t b = cuda_setup_column_bytes(c, (circuit_matrix)m, bell && m != CIRCUIT_C);
        worst = b > worst ? b : worst;
    }
    size_t cols = lag + 3 * col + idx + dict + worst;
    size_t out = setup_round(p->n_in * sizeof(dg1_affine_t));
    for (int q = 0; q < Q_N; q++)
        out += p->n[q] ? setup_round(p->n[q] * Q_POINT[q]) : 0;
    size_t fb1 = cuda_setup_fb_bytes(0, p->g1_total, p->g1_max);
    size_t fb2 = p->n[Q_B2] ? cuda_setup_fb_bytes(1, p->n[Q_B2], p->n[Q_B2]) : 0;
    size_t sh = setup_round(p->n[Q_H] * F);
    size_t st_a = out + 3 * col + idx + fb1;    /* A from u */
    size_t st_h = out + col + idx_b + sh + fb1; /* H, after u and w are freed */
    size_t st_g2 = out + col + idx_b + fb2;     /* B_G2 from v */
    size_t peak = cols;
    size_t st[3] = {st_a, st_h, st_g2};
    for (int i = 0; i < 3; i++)
        peak = st[i] > peak ? st[i] : peak;
    p->peak = peak + R; /* the control words and cub's scratch of the index pass */
}

/* Everything about the key's shape; CUZK_ERR_NOMEM from the count. */
static cuzk_status plan_make(setup_plan_t *p, const circuit_t *c, groth16_convention conv)
{
    memset(p, 0, sizeof *p);
    p->log_m = log_domain(c);
    p->m = (size_t)1 << p->log_m;
    p->n_in = (size_t)c->n_public + 1;
    p->n[Q_L] = c->n_vars - p->n_in;
    if (conv == GROTH16_SNARKJS) {
        p->n[Q_A] = p->n[Q_B1] = p->n[Q_B2] = c->n_vars;
        p->n[Q_H] = p->m;
    } else {
        cuzk_status st;
        if ((st = count_dense(&p->n[Q_A], c, CIRCUIT_A, (uint32_t)p->n_in)) != CUZK_OK ||
            (st = count_dense(&p->n[Q_B1], c, CIRCUIT_B, 0)) != CUZK_OK)
            return st;
        p->n[Q_B2] = p->n[Q_B1];
        p->n[Q_H] = p->m - 1;
    }
    p->g1_total = p->n[Q_A] + p->n[Q_B1] + p->n[Q_L] + p->n_in + p->n[Q_H];
    size_t q1[5] = {p->n[Q_A], p->n[Q_B1], p->n[Q_L], p->n_in, p->n[Q_H]};
    for (int i = 0; i < 5; i++)
        p->g1_max = q1[i] > p->g1_max ? q1[i] : p->g1_max;
    plan_bytes(p, c, conv);
    return CUZK_OK;
}

extern "C" size_t cuzk_cuda_setup_bytes(const circuit_t *c, groth16_convention conv)
{
    if (!c || (conv != GROTH16_SNARKJS && conv != GROTH16_BELLPERSON) ||
        (uint64_t)c->n_public + 1 > c->n_vars)
        return 0;
    setup_plan_t p;
    return plan_make(&p, c, conv) == CUZK_OK ? p.peak : 0;
}

/* ---- checks -------------------------------------------------------------- */

/* 1 when x^(2^32) = 1 (the CPU's rule: tau on some power-of-two domain). */
static int is_two_adic_root(const fr_t *x)
{
    fr_t t = *x;
    for (int i = 0; i < FR_TWO_ADICITY; i++)
        fr_sqr(&t, &t);
    return fr_is_one(&t);
}

/* groth16_setup_toxic's checks, then the circuit's shape. */
static cuzk_status check_args(const groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                              const groth16_toxic_t *tw, cuzk_error_t *err)
{
    if (!out || !c || !tw)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_setup: NULL argument");
    if (conv != GROTH16_SNARKJS && conv != GROTH16_BELLPERSON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_setup: unknown convention %d",
                              (int)conv);
    if ((uint64_t)c->n_public + 1 > c->n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_setup: %u variables cannot hold %u public inputs and ONE",
                              c->n_vars, c->n_public);
    const fr_t *nz[4] = {&tw->alpha, &tw->beta, &tw->gamma, &tw->delta};
    for (int i = 0; i < 4; i++)
        if (fr_is_zero(nz[i]))
            return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_setup: zero toxic value");
    if (is_two_adic_root(&tw->tau) || fr_is_zero(&tw->tau))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_setup: tau is zero or a power-of-two root of unity");
    if (log_domain(c) + 1 > FR_TWO_ADICITY)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_setup: %u rows need a domain of 2^%u",
                              c->n_rows, log_domain(c));
    for (int i = 0; i < 3; i++) {
        const circuit_csr_t *m = &c->m[i];
        if (!m->row_ptr || m->row_ptr[0] != 0 || m->row_ptr[c->n_rows] != m->nnz)
            return cuzk_error_set(
                err, CUZK_ERR_ARG,
                "cuzk_cuda_setup: matrix %c: row offsets do not run from 0 to nnz", "ABC"[i]);
        if (m->nnz && (!m->col || !m->coef || !c->dict || c->n_dict == 0))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "cuzk_cuda_setup: matrix %c: terms without arrays", "ABC"[i]);
    }
    return CUZK_OK;
}

/* The host-side pieces (the vk points, the vanishing factor, zkey section
 * 4) are shared with setup.c (toxic.h, key.h), so both setups make the
 * same bytes. */

/* ---- the device run ------------------------------------------------------- */

/* Everything the run holds on the device. */
typedef struct setup_run {
    cudaStream_t s;
    int sms;
    const circuit_t *c;
    groth16_convention conv;
    const groth16_toxic_t *tw;
    const setup_plan_t *p;
    fr_t gamma_inv, delta_inv;
    dfr_t *lag, *u, *v, *w, *sh;
    uint32_t *idx_a, *idx_b;
    cuda_setup_dict_t dict;
    cuda_setup_fb_t fb;
    void *q[Q_N];
    dg1_affine_t *ic;
    cuzk_cuda_setup_times_t t;
} setup_run_t;

static void dev_free(void *pp)
{
    void **p = (void **)pp;
    if (*p)
        (void)cudaFree(*p);
    *p = NULL;
}

static void run_free(setup_run_t *r)
{
    dev_free(&r->lag);
    dev_free(&r->u);
    dev_free(&r->v);
    dev_free(&r->w);
    dev_free(&r->sh);
    dev_free(&r->idx_a);
    dev_free(&r->idx_b);
    dev_free(&r->ic);
    for (int q = 0; q < Q_N; q++)
        dev_free(&r->q[q]);
    cuda_setup_dict_free(&r->dict);
    cuda_setup_fb_free(&r->fb);
}

static cuzk_status dev_alloc(void *pp, size_t bytes, cuzk_error_t *err)
{
    return CUDA_CHECK(cudaMalloc((void **)pp, bytes ? bytes : 1), err);
}

/* Waits for the stream and adds the seconds since *t0 to *acc. */
static cuzk_status stage_end(setup_run_t *r, double *acc, double *t0, cuzk_error_t *err)
{
    cuzk_status st = CUDA_CHECK(cudaStreamSynchronize(r->s), err);
    double t = now_s();
    *acc += t - *t0;
    *t0 = t;
    return st;
}

/* Lagrange basis, then u, v, w and the bellperson query indices. */
static cuzk_status run_columns(setup_run_t *r, double *t0, cuzk_error_t *err)
{
    const circuit_t *c = r->c;
    const setup_plan_t *p = r->p;
    int bell = r->conv == GROTH16_BELLPERSON;
    fr_roots roots = bell ? FR_ROOTS_BELLMAN : FR_ROOTS_FFJS;
    size_t nv = c->n_vars;
    fr_t omega, zfac;
    cuzk_status st = fr_root_of_unity(&omega, roots, p->log_m);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "cuzk_cuda_setup: no root of unity for 2^%u", p->log_m);
    groth16_setup_vanishing(&zfac, &r->tw->tau, p->log_m, &FR_ONE);
    if ((st = dev_alloc(&r->lag, (size_t)c->n_rows * sizeof(dfr_t), err)) != CUZK_OK ||
        (st = dev_alloc(&r->u, nv * sizeof(dfr_t), err)) != CUZK_OK ||
        (st = dev_alloc(&r->v, nv * sizeof(dfr_t), err)) != CUZK_OK ||
        (st = dev_alloc(&r->w, nv * sizeof(dfr_t), err)) != CUZK_OK)
        return st;
    if (bell && ((st = dev_alloc(&r->idx_a, p->n[Q_A] * 4, err)) != CUZK_OK ||
                 (st = dev_alloc(&r->idx_b, p->n[Q_B1] * 4, err)) != CUZK_OK))
        return st;
    if ((st = cuda_setup_dict_upload(&r->dict, c, r->s, err)) != CUZK_OK ||
        (st = stage_end(r, &r->t.upload, t0, err)) != CUZK_OK ||
        (st = cuda_setup_lagrange(r->lag, c->n_rows, &r->tw->tau, &FR_ONE, &omega, &zfac, r->sms,
                                  r->s, err)) != CUZK_OK ||
        (st = stage_end(r, &r->t.lagrange, t0, err)) != CUZK_OK)
        return st;
    dfr_t *dst[3] = {r->u, r->v, r->w};
    cuda_setup_idx_req_t q[3] = {
        {r->idx_a, p->n[Q_A], (uint32_t)p->n_in}, {r->idx_b, p->n[Q_B1], 0}, {NULL, 0, 0}};
    for (int m = 0; m < 3; m++) {
        double up = 0;
        st = cuda_setup_column(dst[m], bell ? &q[m] : NULL, c, (circuit_matrix)m, r->lag, &r->dict,
                               r->sms, r->s, &up, err);
        r->t.upload += up;
        *t0 += up; /* the copies count as upload, not columns */
        if (st != CUZK_OK)
            return st;
    }
    st = stage_end(r, &r->t.columns, t0, err);
    dev_free(&r->lag);
    cuda_setup_dict_free(&r->dict);
    return st;
}

/* H's scalars into r->sh. */
static cuzk_status run_h_scalars(setup_run_t *r, cuzk_error_t *err)
{
    const setup_plan_t *p = r->p;
    fr_roots roots = r->conv == GROTH16_BELLPERSON ? FR_ROOTS_BELLMAN : FR_ROOTS_FFJS;
    fr_t omega, zfac;
    cuzk_status st = dev_alloc(&r->sh, p->n[Q_H] * sizeof(dfr_t), err);
    if (st != CUZK_OK)
        return st;
    if (r->conv == GROTH16_SNARKJS) {
        /* H_i = L'_{2i+1}(tau) / delta: x_i = omega_2m omega_m^i */
        fr_t omega2;
        if (fr_root_of_unity(&omega, roots, p->log_m) != CUZK_OK ||
            fr_root_of_unity(&omega2, roots, p->log_m + 1) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_setup: no root for 2^%u",
                                  p->log_m + 1);
        groth16_setup_vanishing(&zfac, &r->tw->tau, p->log_m + 1, &r->delta_inv);
        return cuda_setup_lagrange(r->sh, p->n[Q_H], &r->tw->tau, &omega2, &omega, &zfac, r->sms,
                                   r->s, err);
    }
    /* bellperson: H_i = tau^i Z(tau) / delta, Z(tau) = tau^m - 1 */
    fr_t scale;
    groth16_setup_vanishing(&zfac, &r->tw->tau, p->log_m, &r->delta_inv);
    fr_from_u64(&scale, p->m);
    fr_mul(&scale, &scale, &zfac);
    return cuda_setup_powers(r->sh, p->n[Q_H], &r->tw->tau, &scale, r->sms, r->s, err);
}

/* The base arrays, poisoned. */
static cuzk_status run_alloc_bases(setup_run_t *r, cuzk_error_t *err)
{
    const setup_plan_t *p = r->p;
    cuzk_status st = CUZK_OK;
    for (int q = 0; q < Q_N && st == CUZK_OK; q++) {
        if (!p->n[q])
            continue;
        size_t b = p->n[q] * Q_POINT[q];
        if ((st = dev_alloc(&r->q[q], b, err)) == CUZK_OK)
            st = CUDA_CHECK(cudaMemsetAsync(r->q[q], SETUP_POISON, b, r->s), err);
    }
    size_t b = p->n_in * sizeof(dg1_affine_t);
    if (st == CUZK_OK && (st = dev_alloc(&r->ic, b, err)) == CUZK_OK)
        st = CUDA_CHECK(cudaMemsetAsync(r->ic, SETUP_POISON, b, r->s), err);
    return st;
}

/* K, then every point (the order of plan_bytes). */
static cuzk_status run_points(setup_run_t *r, double *t0, cuzk_error_t *err)
{
    const setup_plan_t *p = r->p;
    const uint32_t *ia = r->idx_a, *ib = r->idx_b; /* NULL for snarkjs: the identity */
    cuzk_status st;
    if ((st = cuda_setup_k(r->w, r->u, r->v, r->c->n_vars, p->n_in, r->tw, &r->gamma_inv,
                           &r->delta_inv, r->s, err)) != CUZK_OK ||
        (st = stage_end(r, &r->t.scalars, t0, err)) != CUZK_OK ||
        (st = run_alloc_bases(r, err)) != CUZK_OK ||
        (st = cuda_setup_fb_g1_init(&r->fb, p->g1_total, p->g1_max, r->sms, r->s, err)) !=
            CUZK_OK ||
        (st = cuda_setup_fb_g1_mul((dg1_affine_t *)r->q[Q_A], &r->fb, r->u, ia, p->n[Q_A], r->s,
                                   err)) != CUZK_OK)
        return st;
    dev_free(&r->u);
    dev_free(&r->idx_a);
    if ((st = cuda_setup_fb_g1_mul((dg1_affine_t *)r->q[Q_L], &r->fb, r->w + p->n_in, NULL,
                                   p->n[Q_L], r->s, err)) != CUZK_OK ||
        (st = cuda_setup_fb_g1_mul(r->ic, &r->fb, r->w, NULL, p->n_in, r->s, err)) != CUZK_OK ||
        (st = cuda_setup_fb_g1_mul((dg1_affine_t *)r->q[Q_B1], &r->fb, r->v, ib, p->n[Q_B1], r->s,
                                   err)) != CUZK_OK ||
        (st = stage_end(r, &r->t.g1, t0, err)) != CUZK_OK)
        return st;
    dev_free(&r->w);
    if ((st = run_h_scalars(r, err)) != CUZK_OK ||
        (st = stage_end(r, &r->t.scalars, t0, err)) != CUZK_OK ||
        (st = cuda_setup_fb_g1_mul((dg1_affine_t *)r->q[Q_H], &r->fb, r->sh, NULL, p->n[Q_H], r->s,
                                   err)) != CUZK_OK ||
        (st = stage_end(r, &r->t.g1, t0, err)) != CUZK_OK)
        return st;
    dev_free(&r->sh);
    cuda_setup_fb_free(&r->fb);
    if (p->n[Q_B2] && ((st = cuda_setup_fb_g2_init(&r->fb, p->n[Q_B2], p->n[Q_B2], r->sms, r->s,
                                                   err)) != CUZK_OK ||
                       (st = cuda_setup_fb_g2_mul((dg2_affine_t *)r->q[Q_B2], &r->fb, r->v, ib,
                                                  p->n[Q_B2], r->s, err)) != CUZK_OK))
        return st;
    st = stage_end(r, &r->t.g2, t0, err);
    cuda_setup_fb_free(&r->fb);
    dev_free(&r->v);
    dev_free(&r->idx_b);
    return st;
}

/* ---- download ---------------------------------------------------------------
 * A copy to pageable memory goes through the driver's staging buffer and
 * one thread's memcpy, page faults included: 37 s for the 47.5 GB of a
 * 2^27 key on the H200 machine. Instead: two pinned buffers, the DMA of
 * one slice overlapping the copy of the previous one out of the other, the
 * copy (and its first-touch faults) spread over every CPU. */

#define STAGE_BYTES ((size_t)256 << 20)
#define STAGE_GRAIN ((size_t)8 << 20) /* bytes per host copy task */

typedef struct stager {
    void *buf[2];
    cudaEvent_t done[2];
    size_t bytes; /* each */
} stager_t;

typedef struct copy_task {
    uint8_t *dst;
    const uint8_t *src;
} copy_task_t;

static void copy_range(void *vctx, size_t begin, size_t end)
{
    const copy_task_t *t = (const copy_task_t *)vctx;
    memcpy(t->dst + begin, t->src + begin, end - begin);
}

static void stager_free(stager_t *g)
{
    for (int i = 0; i < 2; i++) {
        if (g->buf[i])
            (void)cudaFreeHost(g->buf[i]);
        if (g->done[i])
            (void)cudaEventDestroy(g->done[i]);
    }
    memset(g, 0, sizeof *g);
}

/* Buffers for arrays of at most `largest` bytes (pinning is not free). */
static cuzk_status stager_init(stager_t *g, size_t largest, cuzk_error_t *err)
{
    memset(g, 0, sizeof *g);
    g->bytes = largest < STAGE_BYTES ? (largest ? largest : 1) : STAGE_BYTES;
    cuzk_status st = CUZK_OK;
    for (int i = 0; i < 2 && st == CUZK_OK; i++) {
        st = CUDA_CHECK(cudaMallocHost(&g->buf[i], g->bytes), err);
        if (st == CUZK_OK)
            st = CUDA_CHECK(cudaEventCreateWithFlags(&g->done[i], cudaEventDisableTiming), err);
    }
    if (st != CUZK_OK)
        stager_free(g);
    return st;
}

/* host[0 .. bytes) = dev_p[0 .. bytes), slice by slice. */
static cuzk_status staged_copy(void *host, const void *dev_p, size_t bytes, stager_t *g,
                               cudaStream_t s, cuzk_error_t *err)
{
    uint8_t *h = (uint8_t *)host;
    const uint8_t *d = (const uint8_t *)dev_p;
    size_t prev_off = 0, prev_len = 0;
    int k = 0;
    for (size_t off = 0;; off += g->bytes, k++) {
        size_t len = off < bytes ? (bytes - off < g->bytes ? bytes - off : g->bytes) : 0;
        cuzk_status st = CUZK_OK;
        if (len) {
            st = CUDA_CHECK(cudaMemcpyAsync(g->buf[k & 1], d + off, len, cudaMemcpyDeviceToHost, s),
                            err);
            if (st == CUZK_OK)
                st = CUDA_CHECK(cudaEventRecord(g->done[k & 1], s), err);
        }
        if (st == CUZK_OK && prev_len) {
            /* slice k - 1 out of the other buffer while slice k travels */
            st = CUDA_CHECK(cudaEventSynchronize(g->done[(k - 1) & 1]), err);
            copy_task_t t = {h + prev_off, (const uint8_t *)g->buf[(k - 1) & 1]};
            if (st == CUZK_OK && parallel_for(prev_len, STAGE_GRAIN, 0, copy_range, &t) != CUZK_OK)
                copy_range(&t, 0, prev_len); /* no threads: this one does it */
        }
        if (st != CUZK_OK)
            (void)cudaStreamSynchronize(s); /* no DMA may outlive the buffers */
        if (st != CUZK_OK || !len)
            return st;
        prev_off = off;
        prev_len = len;
    }
}

/* One array of n points to the host: into *host when it is non-NULL, else
 * into a malloc'd array (at least one element, as the CPU allocates). */
static cuzk_status download_array(void **host, const void *dev_p, size_t n, size_t point,
                                  stager_t *g, cudaStream_t s, cuzk_error_t *err)
{
    void *h = *host;
    int mine = !h;
    if (mine && !(h = malloc((n ? n : 1) * point)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_setup: no host memory for %zu points",
                              n);
    cuzk_status st = n ? staged_copy(h, dev_p, n * point, g, s, err) : CUZK_OK;
    if (st != CUZK_OK && mine)
        free(h);
    else
        *host = h;
    return st;
}

/* IC and, for dev == NULL, the bases to the host; else the bases to *dev. */
static cuzk_status run_finish(setup_run_t *r, groth16_key_t *out, cuzk_cuda_key_dev_t *dev,
                              int device, cuzk_error_t *err)
{
    const setup_plan_t *p = r->p;
    void *ic = NULL;
    stager_t g;
    size_t largest = p->n_in * sizeof(g1_affine_t);
    for (int q = 0; q < Q_N && !dev; q++)
        largest = p->n[q] * Q_POINT[q] > largest ? p->n[q] * Q_POINT[q] : largest;
    cuzk_status st = stager_init(&g, largest, err);
    if (st == CUZK_OK)
        st = download_array(&ic, r->ic, p->n_in, sizeof(g1_affine_t), &g, r->s, err);
    if (st != CUZK_OK || dev)
        stager_free(&g);
    if (st != CUZK_OK)
        return st;
    out->vk.ic = (g1_affine_t *)ic;
    out->vk.n_ic = p->n_in;
    if (dev) {
        dev->device = device;
        void **dq[Q_N] = {&dev->a, &dev->b_g1, &dev->b_g2, &dev->l, &dev->h};
        for (int q = 0; q < Q_N; q++) {
            *dq[q] = r->q[q];
            dev->bytes += p->n[q] * Q_POINT[q];
            r->q[q] = NULL;
        }
        dev->n_a = p->n[Q_A];
        dev->n_b = p->n[Q_B1];
        dev->n_l = p->n[Q_L];
        dev->n_h = p->n[Q_H];
        return CUZK_OK;
    }
    void **hq[Q_N] = {(void **)&out->a, (void **)&out->b_g1, (void **)&out->b_g2, (void **)&out->l,
                      (void **)&out->h};
    for (int q = 0; q < Q_N && st == CUZK_OK; q++) {
        st = download_array(hq[q], r->q[q], p->n[q], Q_POINT[q], &g, r->s, err);
        dev_free(&r->q[q]); /* as it goes: the host copy is all there is now */
    }
    stager_free(&g);
    return st;
}

/* The device part, on the current device and r->s. */
static cuzk_status run_all(setup_run_t *r, groth16_key_t *out, cuzk_cuda_key_dev_t *dev, int device,
                           double *t0, cuzk_error_t *err)
{
    size_t free_b = 0, total_b = 0;
    cuzk_status st = CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b), err);
    if (st != CUZK_OK)
        return st;
    if (r->p->peak > free_b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM,
                              "cuzk_cuda_setup: needs %zu bytes of device memory (%.2f GiB), "
                              "device %d has %zu free (%.2f GiB)",
                              r->p->peak, (double)r->p->peak / (double)(1u << 30), device, free_b,
                              (double)free_b / (double)(1u << 30));
    if ((st = run_columns(r, t0, err)) != CUZK_OK || (st = run_points(r, t0, err)) != CUZK_OK)
        return st;
    st = run_finish(r, out, dev, device, err);
    double t = now_s();
    if (!dev)
        r->t.download += t - *t0;
    *t0 = t;
    return st;
}

/* The host's share of the key: counts and shape (vk points and coefs come
 * after the device run). */
static void key_shape(groth16_key_t *out, const circuit_t *c, groth16_convention conv,
                      const setup_plan_t *p)
{
    out->conv = conv;
    out->n_vars = c->n_vars;
    out->n_public = c->n_public;
    out->n_rows = c->n_rows;
    out->log_m = p->log_m;
    out->n_a = p->n[Q_A];
    out->n_b = p->n[Q_B1];
    out->n_l = p->n[Q_L];
    out->n_h = p->n[Q_H];
}

/* Selects `device` and makes the stream; *caller gets the thread's device. */
static cuzk_status device_begin(cudaStream_t *s, int *caller, int *sms, int device,
                                cuzk_error_t *err)
{
    int count = 0;
    cuzk_status st = cuzk_cuda_device_count(&count, err);
    if (st != CUZK_OK)
        return st;
    if (device < 0 || device >= count)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE,
                              "cuzk_cuda_setup: no CUDA device %d (%d present)", device, count);
    if ((st = CUDA_CHECK(cudaGetDevice(caller), err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaSetDevice(device), err)) != CUZK_OK)
        return st;
    if ((st = CUDA_CHECK(cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device),
                         err)) != CUZK_OK ||
        (st = CUDA_CHECK(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), err)) != CUZK_OK)
        (void)cudaSetDevice(*caller);
    return st;
}

extern "C" cuzk_status cuzk_cuda_setup_toxic(groth16_key_t *out, cuzk_cuda_key_dev_t *dev,
                                             const circuit_t *c, groth16_convention conv,
                                             const groth16_toxic_t *tw, int device,
                                             cuzk_cuda_setup_times_t *times, cuzk_error_t *err)
{
    double t_start = now_s(), t0 = t_start;
    if (out)
        memset(out, 0, sizeof *out);
    if (dev)
        memset(dev, 0, sizeof *dev);
    if (times)
        memset(times, 0, sizeof *times);
    cuzk_status st = check_args(out, c, conv, tw, err);
    if (st != CUZK_OK)
        return st;
    setup_plan_t plan;
    if (plan_make(&plan, c, conv) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_setup: out of host memory");
    setup_run_t r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.conv = conv;
    r.tw = tw;
    r.p = &plan;
    fr_inv(&r.gamma_inv, &tw->gamma);
    fr_inv(&r.delta_inv, &tw->delta);
    int caller = 0;
    if ((st = device_begin(&r.s, &caller, &r.sms, device, err)) != CUZK_OK)
        return st;
    r.t.upload = now_s() - t0; /* the density count */
    t0 = now_s();
    key_shape(out, c, conv, &plan);
    st = run_all(&r, out, dev, device, &t0, err);
    (void)cudaStreamSynchronize(r.s); /* nothing may still use what is freed */
    run_free(&r);
    (void)cudaStreamDestroy(r.s);
    (void)cudaSetDevice(caller);
    if (st == CUZK_OK && conv == GROTH16_SNARKJS && groth16_setup_copy_coefs(out, c) != CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM,
                            "cuzk_cuda_setup: no host memory for %zu coefficients",
                            (size_t)(c->m[CIRCUIT_A].nnz + c->m[CIRCUIT_B].nnz));
    if (st == CUZK_OK)
        groth16_setup_vk_points(&out->vk, tw);
    if (st != CUZK_OK) {
        groth16_key_free(out);
        cuzk_cuda_key_dev_free(dev);
        return st;
    }
    r.t.total = now_s() - t_start;
    if (times)
        *times = r.t;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_cuda_setup(groth16_key_t *out, cuzk_cuda_key_dev_t *dev,
                                       const circuit_t *c, groth16_convention conv, uint64_t seed,
                                       int device, cuzk_cuda_setup_times_t *times,
                                       cuzk_error_t *err)
{
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, seed);
    return cuzk_cuda_setup_toxic(out, dev, c, conv, &tw, device, times, err);
}

/* ---- the device key ------------------------------------------------------- */

extern "C" cuzk_status cuzk_cuda_key_dev_download(groth16_key_t *k, const cuzk_cuda_key_dev_t *dev,
                                                  cuzk_error_t *err)
{
    if (!k || !dev)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_key_dev_download: NULL argument");
    if (k->n_a != dev->n_a || k->n_b != dev->n_b || k->n_l != dev->n_l || k->n_h != dev->n_h)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuzk_cuda_key_dev_download: key counts A %zu, B %zu, L %zu, H %zu; "
                              "device A %zu, B %zu, L %zu, H %zu",
                              k->n_a, k->n_b, k->n_l, k->n_h, dev->n_a, dev->n_b, dev->n_l,
                              dev->n_h);
    const void *src[Q_N] = {dev->a, dev->b_g1, dev->b_g2, dev->l, dev->h};
    size_t n[Q_N] = {dev->n_a, dev->n_b, dev->n_b, dev->n_l, dev->n_h};
    void **dst[Q_N] = {(void **)&k->a, (void **)&k->b_g1, (void **)&k->b_g2, (void **)&k->l,
                       (void **)&k->h};
    for (int q = 0; q < Q_N; q++)
        if (n[q] && !src[q])
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "cuzk_cuda_key_dev_download: device array %d is NULL", q);
    int caller = 0, made[Q_N] = {0};
    cudaStream_t s = NULL;
    cuzk_status st = CUDA_CHECK(cudaGetDevice(&caller), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaSetDevice(dev->device), err);
    if (st != CUZK_OK)
        return st;
    stager_t g;
    memset(&g, 0, sizeof g);
    st = CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), err);
    size_t largest = 0;
    for (int q = 0; q < Q_N; q++)
        largest = n[q] * Q_POINT[q] > largest ? n[q] * Q_POINT[q] : largest;
    if (st == CUZK_OK)
        st = stager_init(&g, largest, err);
    for (int q = 0; q < Q_N && st == CUZK_OK; q++) {
        made[q] = !*dst[q];
        st = download_array(dst[q], src[q], n[q], Q_POINT[q], &g, s, err);
        if (st != CUZK_OK)
            made[q] = 0; /* download_array freed what it made */
    }
    if (s)
        (void)cudaStreamSynchronize(s); /* the staging buffers may still be written */
    stager_free(&g);
    if (s)
        (void)cudaStreamDestroy(s);
    (void)cudaSetDevice(caller);
    if (st != CUZK_OK)
        for (int q = 0; q < Q_N; q++)
            if (made[q]) {
                free(*dst[q]);
                *dst[q] = NULL;
            }
    return st;
}

extern "C" void cuzk_cuda_key_dev_free(cuzk_cuda_key_dev_t *dev)
{
    if (!dev)
        return;
    void *p[Q_N] = {dev->a, dev->b_g1, dev->b_g2, dev->l, dev->h};
    int any = 0;
    for (int q = 0; q < Q_N; q++)
        any |= p[q] != NULL;
    if (any) {
        int caller = 0;
        int have = cudaGetDevice(&caller) == cudaSuccess;
        if (cudaSetDevice(dev->device) == cudaSuccess)
            for (int q = 0; q < Q_N; q++)
                if (p[q])
                    (void)cudaFree(p[q]);
        if (have)
            (void)cudaSetDevice(caller);
    }
    memset(dev, 0, sizeof *dev);
}
