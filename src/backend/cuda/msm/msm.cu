/* The device MSM (msm.cuh): shapes, plans and the upload of key bases;
 * the kernels are in msm_g1.cu and msm_g2.cu. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>

#include "backend/cuda/host_pin.cuh"
#include "backend/cuda/msm/msm_common.cuh"

using namespace cuzk_host;

/* ---- shapes ------------------------------------------------------------- */

size_t cuda_msm_xyzz_bytes(cuda_curve curve)
{
    return curve == CUDA_CURVE_G1 ? sizeof(dg1_xyzz_t) : sizeof(dg2_xyzz_t);
}

size_t cuda_msm_aff_bytes(cuda_curve curve)
{
    return curve == CUDA_CURVE_G1 ? sizeof(dg1_affine_t) : sizeof(dg2_affine_t);
}

size_t cuda_msm_jac_bytes(cuda_curve curve)
{
    return curve == CUDA_CURVE_G1 ? sizeof(dg1_jac_t) : sizeof(dg2_jac_t);
}

cuda_msm_shape_t cuda_msm_shape_finish(cuda_msm_shape_t sh, size_t n)
{
    uint32_t nb = 1u << (sh.c - 1);
    sh.bins = (size_t)sh.group * nb;
    sh.entries = n * sh.group;
    unsigned segs = 1;
    while (segs * 2 <= nb && (size_t)segs * 2 * sh.group <= CUDA_MSM_SEGS)
        segs *= 2;
    sh.segs = segs;
    return sh;
}

#define DEFAULT_SCRATCH ((size_t)2 << 30)

cuda_msm_shape_t cuda_msm_shape(cuda_curve curve, size_t n, size_t limit, unsigned c_force)
{
    /* The default limit may stretch by an eighth where that saves a group
     * of windows: G1 2^24 in one group of 13 rather than 12 + 1 (-7.7%). */
    size_t stretch = limit ? 0 : DEFAULT_SCRATCH / 8;
    if (!limit)
        limit = DEFAULT_SCRATCH;
    /* Additions: n per window to fill buckets, about 3 per bucket (XYZZ,
     * dearer than the mixed ones) to reduce them. */
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= CUDA_MSM_MAX_C; c++) {
        unsigned w = (256 + c - 1) / c;
        double cost = (double)w * ((double)n + 3.0 * (double)(1u << (c - 1)));
        if (c == 1 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    /* 22 bits (12 windows, not 13) only pay at the largest G1 sizes, where
     * 20-bit windows run the bins kernel furthest from its floor (H100:
     * 2^27 875 -> 783 ms; 2^26 396 -> 416); from 2^26.5 on. */
    if (curve == CUDA_CURVE_G1 && n >= CUDA_MSM_C22_FROM)
        best = 22;
    /* G2 takes 21 bits (still 13 windows, bins of 128 entries rather than
     * 256) where the bins kernel's gain outweighs twice the buckets to
     * reduce (H100, stop 42: 2^27 2257 -> 2110 ms; 2^26 1050 -> 1065,
     * 2^25 532 -> 548); from 2^26.5 on, as G1's 22. */
    if (curve == CUDA_CURVE_G2 && n >= CUDA_MSM_G2_C21_FROM)
        best = 21;
    if (c_force)
        best = c_force;
    cuda_msm_shape_t sh;
    size_t per_bin = cuda_msm_xyzz_bytes(curve) + 3 * sizeof(uint32_t), per_window;
    for (;; best--) {
        sh.c = best;
        sh.windows = (256 + best - 1) / best;
        per_window = n * sizeof(uint32_t) + ((size_t)1 << (best - 1)) * per_bin;
        size_t g = limit / per_window;
        if (g >= 1 || best == 1) {
            sh.group = g < 1 ? 1 : g > sh.windows ? sh.windows : (unsigned)g;
            break;
        }
    }
    unsigned groups = (sh.windows + sh.group - 1) / sh.group;
    if (groups > 1) {
        unsigned g = (sh.windows + groups - 2) / (groups - 1);
        if (g * per_window <= limit + stretch)
            sh.group = g;
    }
    return cuda_msm_shape_finish(sh, n);
}

/* The shape for n under a plan's buffers: fewer windows per group, or
 * smaller windows, when its bins or entries would not fit. */
cuda_msm_shape_t cuda_msm_shape_fit(cuda_msm_shape_t sh, size_t n, size_t bins_cap,
                                    size_t entries_cap)
{
    for (;; sh.c--) {
        sh.windows = (256 + sh.c - 1) / sh.c;
        size_t nb = (size_t)1 << (sh.c - 1), g = bins_cap / nb;
        if (n && entries_cap / n < g)
            g = entries_cap / n;
        if (g >= 1 || sh.c == 1) {
            if (g < sh.group)
                sh.group = g < 1 ? 1 : (unsigned)g;
            if (sh.group > sh.windows)
                sh.group = sh.windows;
            return cuda_msm_shape_finish(sh, n);
        }
    }
}

/* ---- plans --------------------------------------------------------------- */

/* The buffers of a plan, in one table for sizing, allocating and freeing. */
typedef struct plan_buf {
    void **ptr;
    size_t bytes;
} plan_buf_t;

static int plan_table(plan_buf_t *t, cuda_msm_plan_t *p)
{
    size_t xz = cuda_msm_xyzz_bytes(p->curve), n = p->n_max ? p->n_max : 1;
    size_t bins = p->max.bins, ent = p->max.entries > n ? p->max.entries : n;
    p->jobs_max = ent / CUDA_MSM_PIECE + ent / CUDA_MSM_HEAVY + 2;
    p->heavy_max = ent / CUDA_MSM_HEAVY + 2;
    size_t nranges = p->heavy_max > CUDA_MSM_MAX_WINDOWS ? p->heavy_max : CUDA_MSM_MAX_WINDOWS;
    int k = 0;
    t[k++] = {(void **)&p->k, n * sizeof(dfr_t)};
    t[k++] = {(void **)&p->full_idx, n * sizeof(uint32_t)};
    t[k++] = {(void **)&p->ones_idx, n * sizeof(uint32_t)};
    t[k++] = {(void **)&p->bin_count, (bins + 1) * sizeof(uint32_t)};
    t[k++] = {(void **)&p->bin_off, (bins + 2) * sizeof(uint32_t)};
    t[k++] = {(void **)&p->cursor, (bins + 1) * sizeof(uint32_t)};
    t[k++] = {(void **)&p->tile_sums, (scan_tmp_words(bins + 1) + 4) * sizeof(uint32_t)};
    t[k++] = {(void **)&p->sorted, ent * sizeof(uint32_t)};
    t[k++] = {&p->buckets, bins * xz};
    t[k++] = {&p->pieces, p->jobs_max * xz};
    t[k++] = {&p->segs, (size_t)CUDA_MSM_SEGS * xz};
    t[k++] = {&p->wins, (CUDA_MSM_MAX_WINDOWS + 1) * xz};
    t[k++] = {&p->wins_jac, (CUDA_MSM_MAX_WINDOWS + 1) * cuda_msm_jac_bytes(p->curve)};
    t[k++] = {(void **)&p->jobs, p->jobs_max * sizeof(cuda_msm_job_t)};
    t[k++] = {(void **)&p->ranges, nranges * sizeof(cuda_msm_range_t)};
    t[k++] = {(void **)&p->med, (bins + 1) * sizeof(uint32_t)};
    t[k++] = {(void **)&p->ctl, CTL_N * sizeof(uint32_t)};
    if (p->scatter == CUDA_MSM_SCATTER_SORT) {
        t[k++] = {(void **)&p->keys_alt, n * sizeof(uint32_t)};
        t[k++] = {(void **)&p->vals, n * sizeof(uint32_t)};
        t[k++] = {(void **)&p->vals_alt, n * sizeof(uint32_t)};
        t[k++] = {&p->sort_tmp, p->sort_tmp_bytes};
    }
    if (p->bins == CUDA_MSM_BINS_AFFINE) {
        /* a chunk need not be larger than a group's entries */
        if ((size_t)p->pair_chunk > ent)
            p->pair_chunk = (uint32_t)ent;
        size_t aff = cuda_msm_aff_bytes(p->curve);
        t[k++] = {(void **)&p->pair_scan, (size_t)p->pair_rounds * (bins + 1) * sizeof(uint32_t)};
        t[k++] = {(void **)&p->pair_cs, (ent / p->pair_chunk + 2) * sizeof(uint32_t)};
        t[k++] = {&p->pair_a, cuda_msm_pair_cap(p->pair_chunk, 1) * aff};
        t[k++] = {&p->pair_b, cuda_msm_pair_cap(p->pair_chunk, 2) * aff};
    }
    return k;
}

#define PLAN_BUFS 25

/* CUB's scratch for sorting a window's entries (at most n_max) on all 32
 * key bits, into p->sort_tmp_bytes. */
static cuzk_status plan_sort_tmp(cuda_msm_plan_t *p, cuzk_error_t *err)
{
    p->sort_tmp_bytes = 0;
    if (p->scatter != CUDA_MSM_SCATTER_SORT)
        return CUZK_OK;
    size_t n = p->n_max ? p->n_max : 1; /* < 2^31: cuda_msm_plan_init checks */
    cub::DoubleBuffer<uint32_t> keys(NULL, NULL), vals(NULL, NULL);
    return CUDA_CHECK(
        cub::DeviceRadixSort::SortPairs(NULL, p->sort_tmp_bytes, keys, vals, (int)n, 0, 32), err);
}

/* The largest shape any n' <= n_max can take: the shape of n_max bounds the
 * entries; smaller n may choose a smaller c with more windows per group,
 * bounded by the same bins. */
static void plan_shape(cuda_msm_plan_t *p)
{
    p->max = cuda_msm_shape(p->curve, p->n_max, p->scratch_limit, p->c_force);
    for (size_t n = p->n_max; n > 0; n /= 2) {
        cuda_msm_shape_t sh = cuda_msm_shape(p->curve, n, p->scratch_limit, p->c_force);
        if (sh.bins > p->max.bins)
            p->max.bins = sh.bins;
        if (sh.entries > p->max.entries)
            p->max.entries = sh.entries;
    }
}

static cuzk_status plan_modes(cuda_msm_plan_t *p, cuda_curve curve, cuzk_error_t *err);

size_t cuda_msm_plan_bytes(cuda_curve curve, size_t n_max, size_t scratch_limit)
{
    cuda_msm_plan_t p;
    memset(&p, 0, sizeof p);
    p.curve = curve;
    p.n_max = n_max;
    p.scratch_limit = scratch_limit;
    /* the knobs count as the environment sets them (a bad value fails
     * cuda_msm_plan_init, which says why); CUB's scratch, should it not
     * answer, as one more buffer of entries */
    cuzk_error_t err;
    if (plan_modes(&p, curve, &err) != CUZK_OK) {
        p.scatter = CUDA_MSM_SCATTER_DEFAULT;
        p.scratch_limit = scratch_limit;
    }
    plan_shape(&p);
    if (plan_sort_tmp(&p, &err) != CUZK_OK)
        p.sort_tmp_bytes = (n_max ? n_max : 1) * sizeof(uint32_t);
    plan_buf_t t[PLAN_BUFS];
    int k = plan_table(t, &p);
    size_t total = 0;
    for (int i = 0; i < k; i++)
        total += (t[i].bytes + 255) & ~(size_t)255;
    return total;
}

void cuda_msm_plan_free(cuda_msm_plan_t *p)
{
    if (!p)
        return;
    plan_buf_t t[PLAN_BUFS];
    int k = plan_table(t, p);
    for (int i = 0; i < k && !p->carved; i++)
        if (*t[i].ptr)
            (void)cudaFree(*t[i].ptr);
    if (p->ctl_host)
        (void)cudaFreeHost(p->ctl_host);
    if (p->jac_host)
        (void)cudaFreeHost(p->jac_host);
    cuda_msm_trace_free(p->trace);
    memset(p, 0, sizeof *p);
}

/* CUZK_MSM_MEDIUM_FILL (medium bins, >= 1) replaces CUDA_MSM_MEDIUM_FILL
 * per SM: tests set it to 1 to sum small MSMs' medium bins a thread each
 * (the path of MSMs with many of them). */
static uint32_t medium_fill(int sms)
{
    const char *e = getenv("CUZK_MSM_MEDIUM_FILL");
    if (e && *e) {
        char *end;
        unsigned long v = strtoul(e, &end, 10);
        if (*end == '\0' && v >= 1 && v <= UINT32_MAX)
            return (uint32_t)v;
    }
    return CUDA_MSM_MEDIUM_FILL * (uint32_t)(sms > 0 ? sms : 1);
}

/* A two-way plan knob from the environment: var = zero (0) or one (1),
 * else def when unset or empty; any other value is an error naming it.
 * CUZK_MSM_BINS (xyzz, affine), CUZK_MSM_ORDER (index, size),
 * CUZK_MSM_SEGS (pow2, wave), CUZK_MSM_SCATTER (atomic, sort) and
 * CUZK_MSM_ONES (pieces, wave), each enum's values in that order. */
static cuzk_status env_choice(int *out, const char *var, const char *zero, const char *one, int def,
                              cuzk_error_t *err)
{
    const char *e = getenv(var);
    *out = def;
    if (!e || !*e)
        return CUZK_OK;
    if (!strcmp(e, zero))
        *out = 0;
    else if (!strcmp(e, one))
        *out = 1;
    else
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s=%s: expected %s or %s", var, e, zero, one);
    return CUZK_OK;
}

/* *out = var's value in MiB (1 to 2^20), left as it is when unset or
 * empty; anything else is an error naming it. */
static cuzk_status env_mib(size_t *out, const char *var, cuzk_error_t *err)
{
    const char *e = getenv(var);
    if (!e || !*e)
        return CUZK_OK;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(e, &end, 10);
    if (errno || *end || e[0] == '-' || v < 1 || v > (1ull << 20))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s=%s: expected MiB from 1 to 1048576", var, e);
    *out = (size_t)v << 20;
    return CUZK_OK;
}

/* *out = var's value, from 1 to max, left as it is when unset or empty;
 * anything else is an error naming it. */
static cuzk_status env_uint(unsigned *out, const char *var, unsigned max, cuzk_error_t *err)
{
    const char *e = getenv(var);
    if (!e || !*e)
        return CUZK_OK;
    char *end;
    errno = 0;
    unsigned long v = strtoul(e, &end, 10);
    if (errno || *end || e[0] == '-' || v < 1 || v > max)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s=%s: expected 1 to %u", var, e, max);
    *out = (unsigned)v;
    return CUZK_OK;
}

/* The plan's knobs: the light bins' method (each curve's default) and the
 * affine rounds' count and chunk, their order, the reduction's segments, the scatter; the scratch
 * limit when the caller left it to the default; the window bits (CUZK_MSM_WINDOW, for tests and
 * measurements). */
static cuzk_status plan_modes(cuda_msm_plan_t *p, cuda_curve curve, cuzk_error_t *err)
{
    int bins, order, segs, scatter, ones;
    cuzk_status st = env_choice(
        &bins, "CUZK_MSM_BINS", "xyzz", "affine",
        curve == CUDA_CURVE_G1 ? CUDA_MSM_BINS_DEFAULT_G1 : CUDA_MSM_BINS_DEFAULT_G2, err);
    if (st == CUZK_OK)
        st = env_choice(&order, "CUZK_MSM_ORDER", "index", "size", CUDA_MSM_ORDER_DEFAULT, err);
    if (st == CUZK_OK)
        st = env_choice(&segs, "CUZK_MSM_SEGS", "pow2", "wave", CUDA_MSM_SEGS_DEFAULT, err);
    if (st == CUZK_OK)
        st = env_choice(&scatter, "CUZK_MSM_SCATTER", "atomic", "sort", CUDA_MSM_SCATTER_DEFAULT,
                        err);
    if (st == CUZK_OK)
        st = env_choice(&ones, "CUZK_MSM_ONES", "pieces", "wave", CUDA_MSM_ONES_DEFAULT, err);
    if (st == CUZK_OK && !p->scratch_limit)
        st = env_mib(&p->scratch_limit, "CUZK_MSM_SCRATCH", err);
    if (st == CUZK_OK)
        st = env_uint(&p->c_force, "CUZK_MSM_WINDOW", CUDA_MSM_FORCE_C_MAX, err);
    unsigned rounds = CUDA_MSM_PAIR_ROUNDS,
             chunk = curve == CUDA_CURVE_G1 ? CUDA_MSM_PAIR_CHUNK_G1 : CUDA_MSM_PAIR_CHUNK_G2;
    if (st == CUZK_OK)
        st = env_uint(&rounds, "CUZK_MSM_PAIR_ROUNDS", CUDA_MSM_PAIR_ROUNDS_MAX, err);
    if (st == CUZK_OK)
        st = env_uint(&chunk, "CUZK_MSM_PAIR_CHUNK", 1u << 30, err);
    if (st != CUZK_OK)
        return st;
    p->pair_rounds = rounds;
    p->pair_chunk = chunk;
    p->bins = bins ? CUDA_MSM_BINS_AFFINE : CUDA_MSM_BINS_XYZZ;
    p->order = order ? CUDA_MSM_ORDER_SIZE : CUDA_MSM_ORDER_INDEX;
    p->seg_mode = segs ? CUDA_MSM_SEGS_WAVE : CUDA_MSM_SEGS_POW2;
    p->scatter = scatter ? CUDA_MSM_SCATTER_SORT : CUDA_MSM_SCATTER_ATOMIC;
    p->ones = ones ? CUDA_MSM_ONES_WAVE : CUDA_MSM_ONES_PIECES;
    return CUZK_OK;
}

/* Device buffers from cudaMalloc (mem NULL) or carved from mem. */
static cuzk_status plan_make(cuda_msm_plan_t *p, cuda_curve curve, size_t n_max,
                             size_t scratch_limit, void *mem, size_t bytes, cuzk_error_t *err)
{
    memset(p, 0, sizeof *p);
    if (n_max >= ((size_t)1 << 31))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda msm plan: %zu points (at most 2^31 - 1)",
                              n_max);
    p->curve = curve;
    p->n_max = n_max;
    p->scratch_limit = scratch_limit;
    p->carved = mem != NULL;
    int dev = 0;
    cuzk_status st = plan_modes(p, curve, err);
    if (st == CUZK_OK) {
        plan_shape(p);
        st = plan_sort_tmp(p, err);
    }
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaGetDevice(&dev), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaDeviceGetAttribute(&p->sms, cudaDevAttrMultiProcessorCount, dev), err);
    p->medium_fill = medium_fill(p->sms);
    p->trace = cuda_msm_trace_new();
    plan_buf_t t[PLAN_BUFS];
    int k = plan_table(t, p);
    /* carved as cuda_msm_plan_bytes counts: each buffer on 256 bytes */
    uintptr_t at = ((uintptr_t)mem + 255) & ~(uintptr_t)255, end = (uintptr_t)mem + bytes;
    for (int i = 0; i < k && st == CUZK_OK; i++) {
        if (!mem) {
            st = CUDA_CHECK(cudaMalloc(t[i].ptr, t[i].bytes), err);
        } else if (at > end || t[i].bytes > end - at) {
            st = cuzk_error_set(err, CUZK_ERR_ARG,
                                "cuda msm plan: %zu bytes given, more needed for %zu points", bytes,
                                n_max);
        } else {
            *t[i].ptr = (void *)at;
            at += (t[i].bytes + 255) & ~(size_t)255;
        }
        if (st == CUZK_OK)
            p->bytes += t[i].bytes;
    }
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMallocHost((void **)&p->ctl_host, CTL_N * sizeof(uint32_t)), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(
            cudaMallocHost(&p->jac_host, (CUDA_MSM_MAX_WINDOWS + 1) * cuda_msm_jac_bytes(curve)),
            err);
    if (st != CUZK_OK)
        cuda_msm_plan_free(p);
    return st;
}

cuzk_status cuda_msm_plan_init(cuda_msm_plan_t *p, cuda_curve curve, size_t n_max,
                               size_t scratch_limit, cuzk_error_t *err)
{
    return plan_make(p, curve, n_max, scratch_limit, NULL, 0, err);
}

cuzk_status cuda_msm_plan_init_in(cuda_msm_plan_t *p, cuda_curve curve, size_t n_max,
                                  size_t scratch_limit, void *mem, size_t bytes, cuzk_error_t *err)
{
    if (!mem) {
        memset(p, 0, sizeof *p);
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda msm plan: no memory to carve from");
    }
    return plan_make(p, curve, n_max, scratch_limit, mem, bytes, err);
}

/* ---- key bases ----------------------------------------------------------- */

/* A big-endian 48-byte coordinate at byte offset `at` of a record of u32
 * words (the record is 4-byte aligned), flags masked when first. Returns
 * the Montgomery value, or 0 when it is >= p (unchecked, as on the CPU). */
static __device__ void bases_be_coord(dfp_t *out, const uint32_t *rec, unsigned at, bool first)
{
    dfp_t v;
    for (int j = 0; j < DFP_LIMBS; j++) /* limb j holds bytes 48 - 4(j+1) .. 48 - 4j */
        v.l[j] = __byte_perm(rec[(at + 48 - 4 * (j + 1)) / 4], 0, 0x0123);
    if (first)
        v.l[DFP_LIMBS - 1] &= 0x1fffffffu;
    /* v < p? */
    int lt = 0, decided = 0;
    for (int j = DFP_LIMBS - 1; j >= 0; j--) {
        uint32_t a = v.l[j], b = DCONST(DFP_P).l[j];
        if (!decided && a != b) {
            lt = a < b;
            decided = 1;
        }
    }
    if (!lt) {
        dfp_set_zero(out);
        return;
    }
    dfp_to_mont(out, &v);
}

/* In place: each record of nfp coordinates (zcash order perm) becomes the
 * device affine point. */
__global__ void bases_decode_zcash(uint32_t *recs, size_t n, unsigned nfp)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t *rec = recs + i * nfp * (48 / 4);
    bool inf = (__byte_perm(rec[0], 0, 0x0123) >> 30) & 1; /* 0x40 of byte 0 */
    dfp_t c[4];
    for (unsigned k = 0; k < nfp; k++) {
        /* zcash writes G2 coordinates c1 first: our k reads its k ^ 1 */
        unsigned z = nfp == 2 ? k : k ^ 1;
        if (inf)
            dfp_set_zero(&c[k]);
        else
            bases_be_coord(&c[k], rec, z * 48, z == 0);
    }
    for (unsigned k = 0; k < nfp; k++)
        for (int j = 0; j < DFP_LIMBS; j++)
            rec[k * 12 + j] = c[k].l[j];
}

cuzk_status cuda_bases_decode(void *dst, size_t n, int g2, msm_base_format fmt, cudaStream_t s,
                              cuzk_error_t *err)
{
    if (n == 0 || fmt != MSM_BASES_ZCASH)
        return CUZK_OK;
    bases_decode_zcash<<<(unsigned)((n + 127) / 128), 128, 0, s>>>((uint32_t *)dst, n, g2 ? 4 : 2);
    return CUDA_CHECK(cudaGetLastError(), err);
}

static cuzk_status bases_upload(void *dst, const msm_bases_t *src, size_t n, unsigned nfp,
                                cudaStream_t s, cuzk_error_t *err)
{
    if (n == 0)
        return CUZK_OK;
    if (!dst || !src || !src->data)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuda bases upload: NULL pointer");
    size_t bytes = n * nfp * 48;
    cuzk_status st = CUDA_CHECK(cuda_copy_h2d(dst, src->data, bytes, s), err);
    if (st != CUZK_OK)
        return st;
    return cuda_bases_decode(dst, n, nfp == 4, src->fmt, s, err);
}

cuzk_status cuda_bases_upload_g1(dg1_affine_t *dst, const msm_bases_t *src, size_t n,
                                 cudaStream_t s, cuzk_error_t *err)
{
    return bases_upload(dst, src, n, 2, s, err);
}

cuzk_status cuda_bases_upload_g2(dg2_affine_t *dst, const msm_bases_t *src, size_t n,
                                 cudaStream_t s, cuzk_error_t *err)
{
    return bases_upload(dst, src, n, 4, s, err);
}
