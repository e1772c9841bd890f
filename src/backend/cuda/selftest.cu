/* Self-test kernels for the device arithmetic (include/cuzk/cuda_selftest.h).
 *
 * Each op is one per-element function (`one_<name>`, __host__ __device__)
 * that SELFTEST_OP turns into a kernel (`selftest_<name>`, grid-stride,
 * inputs copied to registers first) and a host-emulation loop; one table
 * row per op gives its element sizes and both entry points. The kernels
 * double as the register-usage probes of the arithmetic: build with
 * -DCUZK_CUDA_PTXAS_VERBOSE=ON (nvcc -Xptxas -v) to see them. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend/cuda/cuda_check.cuh"
#include "backend/cuda/ec.cuh"
#include "backend/cuda/host_types.cuh"
#include "cuzk/cuda.h"
#include "cuzk/cuda_selftest.h"

using namespace cuzk_host;

#define SELFTEST_BLOCK 128
#define SELFTEST_MAX_GRID 4096

/* ---- per-element operations -------------------------------------------- */

static CUZK_HD void one_fp_add(dfp_t *o, const dfp_t *a, const dfp_t *b) { dfp_add(o, a, b); }
static CUZK_HD void one_fp_sub(dfp_t *o, const dfp_t *a, const dfp_t *b) { dfp_sub(o, a, b); }
static CUZK_HD void one_fp_neg(dfp_t *o, const dfp_t *a, const dfp_t *) { dfp_neg(o, a); }
static CUZK_HD void one_fp_dbl(dfp_t *o, const dfp_t *a, const dfp_t *) { dfp_dbl(o, a); }
static CUZK_HD void one_fp_mul(dfp_t *o, const dfp_t *a, const dfp_t *b) { dfp_mul(o, a, b); }
static CUZK_HD void one_fp_sqr(dfp_t *o, const dfp_t *a, const dfp_t *) { dfp_sqr(o, a); }
static CUZK_HD void one_fp_to_mont(dfp_t *o, const dfp_t *a, const dfp_t *) { dfp_to_mont(o, a); }
static CUZK_HD void one_fp_from_mont(dfp_t *o, const dfp_t *a, const dfp_t *) { dfp_from_mont(o, a); }
static CUZK_HD void one_fp_cmp(uint32_t *o, const dfp_t *a, const dfp_t *b)
{
    *o = (uint32_t)dfp_equal(a, b) | (uint32_t)dfp_is_zero(a) << 1 | (uint32_t)dfp_is_one(a) << 2;
}

static CUZK_HD void one_fr_add(dfr_t *o, const dfr_t *a, const dfr_t *b) { dfr_add(o, a, b); }
static CUZK_HD void one_fr_sub(dfr_t *o, const dfr_t *a, const dfr_t *b) { dfr_sub(o, a, b); }
static CUZK_HD void one_fr_neg(dfr_t *o, const dfr_t *a, const dfr_t *) { dfr_neg(o, a); }
static CUZK_HD void one_fr_mul(dfr_t *o, const dfr_t *a, const dfr_t *b) { dfr_mul(o, a, b); }
static CUZK_HD void one_fr_sqr(dfr_t *o, const dfr_t *a, const dfr_t *) { dfr_sqr(o, a); }
static CUZK_HD void one_fr_to_mont(dfr_t *o, const dfr_t *a, const dfr_t *) { dfr_to_mont(o, a); }
static CUZK_HD void one_fr_from_mont(dfr_t *o, const dfr_t *a, const dfr_t *) { dfr_from_mont(o, a); }

static CUZK_HD void one_fp2_mul(dfp2_t *o, const dfp2_t *a, const dfp2_t *b) { dfp2_mul(o, a, b); }
static CUZK_HD void one_fp2_sqr(dfp2_t *o, const dfp2_t *a, const dfp2_t *) { dfp2_sqr(o, a); }

static CUZK_HD void one_g1_add(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *b)
{
    dg1_add(o, a, b);
}
static CUZK_HD void one_g1_add_mixed(dg1_jac_t *o, const dg1_jac_t *a, const dg1_affine_t *b)
{
    dg1_add_mixed(o, a, b);
}
static CUZK_HD void one_g1_dbl(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *) { dg1_dbl(o, a); }
static CUZK_HD void one_g1_neg(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *) { dg1_neg(o, a); }
static CUZK_HD void one_g1_xyzz_add_mixed(dg1_jac_t *o, const dg1_jac_t *a, const dg1_affine_t *b)
{
    dg1_xyzz_t p;
    dg1_xyzz_from_jac(&p, a);
    dg1_xyzz_add_affine(&p, &p, b);
    dg1_xyzz_to_jac(o, &p);
}
static CUZK_HD void one_g1_xyzz_add(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *b)
{
    dg1_xyzz_t p, q;
    dg1_xyzz_from_jac(&p, a);
    dg1_xyzz_from_jac(&q, b);
    dg1_xyzz_add(&p, &p, &q);
    dg1_xyzz_to_jac(o, &p);
}
static CUZK_HD void one_g1_xyzz_dbl(dg1_jac_t *o, const dg1_jac_t *a, const dg1_jac_t *)
{
    dg1_xyzz_t p;
    dg1_xyzz_from_jac(&p, a);
    dg1_xyzz_dbl(&p, &p);
    dg1_xyzz_to_jac(o, &p);
}

static CUZK_HD void one_g2_add(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *b)
{
    dg2_add(o, a, b);
}
static CUZK_HD void one_g2_add_mixed(dg2_jac_t *o, const dg2_jac_t *a, const dg2_affine_t *b)
{
    dg2_add_mixed(o, a, b);
}
static CUZK_HD void one_g2_dbl(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *) { dg2_dbl(o, a); }
static CUZK_HD void one_g2_neg(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *) { dg2_neg(o, a); }
static CUZK_HD void one_g2_xyzz_add_mixed(dg2_jac_t *o, const dg2_jac_t *a, const dg2_affine_t *b)
{
    dg2_xyzz_t p;
    dg2_xyzz_from_jac(&p, a);
    dg2_xyzz_add_affine(&p, &p, b);
    dg2_xyzz_to_jac(o, &p);
}
static CUZK_HD void one_g2_xyzz_add(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *b)
{
    dg2_xyzz_t p, q;
    dg2_xyzz_from_jac(&p, a);
    dg2_xyzz_from_jac(&q, b);
    dg2_xyzz_add(&p, &p, &q);
    dg2_xyzz_to_jac(o, &p);
}
static CUZK_HD void one_g2_xyzz_dbl(dg2_jac_t *o, const dg2_jac_t *a, const dg2_jac_t *)
{
    dg2_xyzz_t p;
    dg2_xyzz_from_jac(&p, a);
    dg2_xyzz_dbl(&p, &p);
    dg2_xyzz_to_jac(o, &p);
}

/* ---- kernels and host loops -------------------------------------------- */

typedef void (*launch_fn)(void *out, const void *a, const void *b, size_t n, unsigned grid,
                          cudaStream_t stream);
typedef void (*emu_fn)(void *out, const void *a, const void *b, size_t n);

/* For unary ops B_T is A_T and b is a (never read). */
#define SELFTEST_OP(NAME, OUT_T, A_T, B_T)                                                      \
    static __global__ void __launch_bounds__(SELFTEST_BLOCK)                                   \
        selftest_##NAME(OUT_T *__restrict__ out, const A_T *__restrict__ a,                   \
                        const B_T *__restrict__ b, size_t n)                                   \
    {                                                                                          \
        size_t stride = (size_t)gridDim.x * blockDim.x;                                        \
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {   \
            A_T ra = a[i];                                                                     \
            B_T rb = b[i];                                                                     \
            OUT_T ro;                                                                          \
            one_##NAME(&ro, &ra, &rb);                                                         \
            out[i] = ro;                                                                       \
        }                                                                                      \
    }                                                                                          \
    static void launch_##NAME(void *out, const void *a, const void *b, size_t n, unsigned grid, \
                              cudaStream_t stream)                                             \
    {                                                                                          \
        selftest_##NAME<<<grid, SELFTEST_BLOCK, 0, stream>>>((OUT_T *)out, (const A_T *)a,      \
                                                             (const B_T *)b, n);               \
    }                                                                                          \
    static void emu_##NAME(void *out, const void *a, const void *b, size_t n)                  \
    {                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                       \
            A_T ra;                                                                            \
            B_T rb;                                                                            \
            OUT_T ro;                                                                          \
            memcpy(&ra, (const A_T *)a + i, sizeof ra);                                        \
            memcpy(&rb, (const B_T *)b + i, sizeof rb);                                        \
            one_##NAME(&ro, &ra, &rb);                                                         \
            memcpy((OUT_T *)out + i, &ro, sizeof ro);                                          \
        }                                                                                      \
    }

SELFTEST_OP(fp_add, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_sub, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_neg, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_dbl, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_mul, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_sqr, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_to_mont, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_from_mont, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_cmp, uint32_t, dfp_t, dfp_t)
SELFTEST_OP(fr_add, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_sub, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_neg, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_mul, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_sqr, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_to_mont, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_from_mont, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fp2_mul, dfp2_t, dfp2_t, dfp2_t)
SELFTEST_OP(fp2_sqr, dfp2_t, dfp2_t, dfp2_t)
SELFTEST_OP(g1_add, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_add_mixed, dg1_jac_t, dg1_jac_t, dg1_affine_t)
SELFTEST_OP(g1_dbl, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_neg, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_xyzz_add_mixed, dg1_jac_t, dg1_jac_t, dg1_affine_t)
SELFTEST_OP(g1_xyzz_add, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g1_xyzz_dbl, dg1_jac_t, dg1_jac_t, dg1_jac_t)
SELFTEST_OP(g2_add, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_add_mixed, dg2_jac_t, dg2_jac_t, dg2_affine_t)
SELFTEST_OP(g2_dbl, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_neg, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_xyzz_add_mixed, dg2_jac_t, dg2_jac_t, dg2_affine_t)
SELFTEST_OP(g2_xyzz_add, dg2_jac_t, dg2_jac_t, dg2_jac_t)
SELFTEST_OP(g2_xyzz_dbl, dg2_jac_t, dg2_jac_t, dg2_jac_t)

typedef struct op_row {
    cuzk_cuda_op op; /* the row's index: checked at compile time below */
    cuzk_cuda_op_info_t info;
    launch_fn launch;
    emu_fn emu;
} op_row_t;

#define ROW(OP, NAME, OUT_T, A_T, B_SIZE)                                                       \
    {OP, {#NAME, sizeof(OUT_T), sizeof(A_T), B_SIZE}, launch_##NAME, emu_##NAME}
#define BINARY(OP, NAME, OUT_T, A_T, B_T) ROW(OP, NAME, OUT_T, A_T, sizeof(B_T))
#define UNARY(OP, NAME, OUT_T, A_T) ROW(OP, NAME, OUT_T, A_T, 0)

static constexpr op_row_t OPS[] = {
    BINARY(CUZK_CUDA_OP_FP_ADD, fp_add, fp_t, fp_t, fp_t),
    BINARY(CUZK_CUDA_OP_FP_SUB, fp_sub, fp_t, fp_t, fp_t),
    UNARY(CUZK_CUDA_OP_FP_NEG, fp_neg, fp_t, fp_t),
    UNARY(CUZK_CUDA_OP_FP_DBL, fp_dbl, fp_t, fp_t),
    BINARY(CUZK_CUDA_OP_FP_MUL, fp_mul, fp_t, fp_t, fp_t),
    UNARY(CUZK_CUDA_OP_FP_SQR, fp_sqr, fp_t, fp_t),
    UNARY(CUZK_CUDA_OP_FP_TO_MONT, fp_to_mont, fp_t, fp_t),
    UNARY(CUZK_CUDA_OP_FP_FROM_MONT, fp_from_mont, fp_t, fp_t),
    BINARY(CUZK_CUDA_OP_FP_CMP, fp_cmp, uint32_t, fp_t, fp_t),
    BINARY(CUZK_CUDA_OP_FR_ADD, fr_add, fr_t, fr_t, fr_t),
    BINARY(CUZK_CUDA_OP_FR_SUB, fr_sub, fr_t, fr_t, fr_t),
    UNARY(CUZK_CUDA_OP_FR_NEG, fr_neg, fr_t, fr_t),
    BINARY(CUZK_CUDA_OP_FR_MUL, fr_mul, fr_t, fr_t, fr_t),
    UNARY(CUZK_CUDA_OP_FR_SQR, fr_sqr, fr_t, fr_t),
    UNARY(CUZK_CUDA_OP_FR_TO_MONT, fr_to_mont, fr_t, fr_t),
    UNARY(CUZK_CUDA_OP_FR_FROM_MONT, fr_from_mont, fr_t, fr_t),
    BINARY(CUZK_CUDA_OP_FP2_MUL, fp2_mul, fp2_t, fp2_t, fp2_t),
    UNARY(CUZK_CUDA_OP_FP2_SQR, fp2_sqr, fp2_t, fp2_t),
    BINARY(CUZK_CUDA_OP_G1_ADD, g1_add, g1_jac_t, g1_jac_t, g1_jac_t),
    BINARY(CUZK_CUDA_OP_G1_ADD_MIXED, g1_add_mixed, g1_jac_t, g1_jac_t, g1_affine_t),
    UNARY(CUZK_CUDA_OP_G1_DBL, g1_dbl, g1_jac_t, g1_jac_t),
    UNARY(CUZK_CUDA_OP_G1_NEG, g1_neg, g1_jac_t, g1_jac_t),
    BINARY(CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED, g1_xyzz_add_mixed, g1_jac_t, g1_jac_t, g1_affine_t),
    BINARY(CUZK_CUDA_OP_G1_XYZZ_ADD, g1_xyzz_add, g1_jac_t, g1_jac_t, g1_jac_t),
    UNARY(CUZK_CUDA_OP_G1_XYZZ_DBL, g1_xyzz_dbl, g1_jac_t, g1_jac_t),
    BINARY(CUZK_CUDA_OP_G2_ADD, g2_add, g2_jac_t, g2_jac_t, g2_jac_t),
    BINARY(CUZK_CUDA_OP_G2_ADD_MIXED, g2_add_mixed, g2_jac_t, g2_jac_t, g2_affine_t),
    UNARY(CUZK_CUDA_OP_G2_DBL, g2_dbl, g2_jac_t, g2_jac_t),
    UNARY(CUZK_CUDA_OP_G2_NEG, g2_neg, g2_jac_t, g2_jac_t),
    BINARY(CUZK_CUDA_OP_G2_XYZZ_ADD_MIXED, g2_xyzz_add_mixed, g2_jac_t, g2_jac_t, g2_affine_t),
    BINARY(CUZK_CUDA_OP_G2_XYZZ_ADD, g2_xyzz_add, g2_jac_t, g2_jac_t, g2_jac_t),
    UNARY(CUZK_CUDA_OP_G2_XYZZ_DBL, g2_xyzz_dbl, g2_jac_t, g2_jac_t),
};

static constexpr int ops_in_enum_order(void)
{
    for (int i = 0; i < (int)(sizeof OPS / sizeof OPS[0]); i++)
        if (OPS[i].op != (cuzk_cuda_op)i)
            return 0;
    return sizeof OPS / sizeof OPS[0] == CUZK_CUDA_OP_COUNT;
}
static_assert(ops_in_enum_order(), "OPS has one row per cuzk_cuda_op, in enum order");

extern "C" const cuzk_cuda_op_info_t *cuzk_cuda_op_info(cuzk_cuda_op op)
{
    if ((unsigned)op >= CUZK_CUDA_OP_COUNT)
        return NULL;
    return &OPS[op].info;
}

/* ---- the device run ----------------------------------------------------- */

/* Copies in, poisons out, launches, copies back, all on one new stream; the
 * first failure's message is kept, cleanup still runs. */
static cuzk_status run_device(const op_row_t *op, void *out, const void *a, const void *b,
                              size_t n, cuzk_error_t *err)
{
    size_t out_bytes = n * op->info.out_size, a_bytes = n * op->info.a_size;
    size_t b_bytes = n * op->info.b_size;
    unsigned grid = (unsigned)((n + SELFTEST_BLOCK - 1) / SELFTEST_BLOCK);
    if (grid > SELFTEST_MAX_GRID)
        grid = SELFTEST_MAX_GRID;
    cudaStream_t stream = NULL;
    void *d_out = NULL, *d_a = NULL, *d_b = NULL;
    cuzk_status st, st2;

    int count = 0;
    if ((st = cuzk_cuda_device_count(&count, err)) != CUZK_OK)
        return st;
    if (count == 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "cuzk_cuda_selftest_run: no CUDA device");
    if ((st = CUDA_CHECK(cudaSetDevice(0), err)) != CUZK_OK)
        return st;
    if ((st = CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), err)) !=
        CUZK_OK)
        return st;

    if ((st = CUDA_CHECK(cudaMallocAsync(&d_out, out_bytes, stream), err)) != CUZK_OK)
        goto done;
    if ((st = CUDA_CHECK(cudaMallocAsync(&d_a, a_bytes, stream), err)) != CUZK_OK)
        goto done;
    if (b_bytes && (st = CUDA_CHECK(cudaMallocAsync(&d_b, b_bytes, stream), err)) != CUZK_OK)
        goto done;
    if ((st = CUDA_CHECK(cudaMemcpyAsync(d_a, a, a_bytes, cudaMemcpyHostToDevice, stream), err)) !=
        CUZK_OK)
        goto done;
    if (b_bytes &&
        (st = CUDA_CHECK(cudaMemcpyAsync(d_b, b, b_bytes, cudaMemcpyHostToDevice, stream), err)) !=
            CUZK_OK)
        goto done;
    if ((st = CUDA_CHECK(cudaMemsetAsync(d_out, 0xff, out_bytes, stream), err)) != CUZK_OK)
        goto done;
    op->launch(d_out, d_a, b_bytes ? d_b : d_a, n, grid, stream);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
        goto done;
    if ((st = CUDA_CHECK(cudaMemcpyAsync(out, d_out, out_bytes, cudaMemcpyDeviceToHost, stream),
                         err)) != CUZK_OK)
        goto done;
    st = CUDA_CHECK(cudaStreamSynchronize(stream), err);

done:
    /* Frees are stream-ordered: after the copies, whatever failed. */
    if (d_b) {
        st2 = CUDA_CHECK(cudaFreeAsync(d_b, stream), st == CUZK_OK ? err : NULL);
        st = st == CUZK_OK ? st2 : st;
    }
    if (d_a) {
        st2 = CUDA_CHECK(cudaFreeAsync(d_a, stream), st == CUZK_OK ? err : NULL);
        st = st == CUZK_OK ? st2 : st;
    }
    if (d_out) {
        st2 = CUDA_CHECK(cudaFreeAsync(d_out, stream), st == CUZK_OK ? err : NULL);
        st = st == CUZK_OK ? st2 : st;
    }
    st2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? st2 : st;
    st2 = CUDA_CHECK(cudaStreamDestroy(stream), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? st2 : st;
}

extern "C" cuzk_status cuzk_cuda_selftest_run(cuzk_cuda_target target, cuzk_cuda_op op,
                                              void *out, const void *a, const void *b, size_t n,
                                              cuzk_error_t *err)
{
    const cuzk_cuda_op_info_t *info = cuzk_cuda_op_info(op);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run: unknown op %d", (int)op);
    if (target != CUZK_CUDA_TARGET_DEVICE && target != CUZK_CUDA_TARGET_HOST_EMU)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run: unknown target %d",
                              (int)target);
    if (n == 0)
        return CUZK_OK;
    if (!out || !a || (info->b_size && !b))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run(%s): NULL array",
                              info->name);
    if (n > SIZE_MAX / (2 * sizeof(g2_jac_t)))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run(%s): n = %zu too large",
                              info->name, n);
    const op_row_t *row = &OPS[op];
    if (target == CUZK_CUDA_TARGET_HOST_EMU) {
        row->emu(out, a, info->b_size ? b : a, n);
        return CUZK_OK;
    }
    return run_device(row, out, a, b, n, err);
}
