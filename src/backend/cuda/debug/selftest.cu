/* Self-test of the device arithmetic (include/cuzk/cuda_selftest.h): the
 * entry point, the device run, and the field ops. The curve ops are in
 * selftest_g1.cu and selftest_g2.cu; the scheme is in
 * selftest_internal.cuh. */
#include <stdint.h>

#include "backend/cuda/arith/fp_f64.cuh"
#include "backend/cuda/arith/inv.cuh"
#include "backend/cuda/cuda_check.cuh"
#include "backend/cuda/debug/selftest_internal.cuh"
#include "cuzk/cuda.h"

using namespace cuzk_host;

#define SELFTEST_MAX_GRID 4096

/* ---- field ops ----------------------------------------------------------- */

static CUZK_HD void one_fp_add(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_add(o, a, b);
}
static CUZK_HD void one_fp_sub(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_sub(o, a, b);
}
static CUZK_HD void one_fp_neg(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dfp_neg(o, a);
}
static CUZK_HD void one_fp_dbl(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dfp_dbl(o, a);
}
static CUZK_HD void one_fp_mul(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_mul(o, a, b);
}
static CUZK_HD void one_fp_sqr(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dfp_sqr(o, a);
}
static CUZK_HD void one_fp_to_mont(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dfp_to_mont(o, a);
}
static CUZK_HD void one_fp_from_mont(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dfp_from_mont(o, a);
}
static CUZK_HD void one_fp_cmp(uint32_t *o, const dfp_t *a, const dfp_t *b)
{
    *o = (uint32_t)dfp_equal(a, b) | (uint32_t)dfp_is_zero(a) << 1 | (uint32_t)dfp_is_one(a) << 2;
}

static CUZK_HD void one_fr_add(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_add(o, a, b);
}
static CUZK_HD void one_fr_sub(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_sub(o, a, b);
}
static CUZK_HD void one_fr_neg(dfr_t *o, const dfr_t *a, const dfr_t *)
{
    dfr_neg(o, a);
}
static CUZK_HD void one_fr_mul(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_mul(o, a, b);
}
static CUZK_HD void one_fr_sqr(dfr_t *o, const dfr_t *a, const dfr_t *)
{
    dfr_sqr(o, a);
}
static CUZK_HD void one_fr_to_mont(dfr_t *o, const dfr_t *a, const dfr_t *)
{
    dfr_to_mont(o, a);
}
static CUZK_HD void one_fr_from_mont(dfr_t *o, const dfr_t *a, const dfr_t *)
{
    dfr_from_mont(o, a);
}

static CUZK_HD void one_fp2_mul(dfp2_t *o, const dfp2_t *a, const dfp2_t *b)
{
    dfp2_mul(o, a, b);
}
static CUZK_HD void one_fp2_sqr(dfp2_t *o, const dfp2_t *a, const dfp2_t *)
{
    dfp2_sqr(o, a);
}
static CUZK_HD void one_fp_inv(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dfp_inv_var(o, a);
}
static CUZK_HD void one_fp2_inv(dfp2_t *o, const dfp2_t *a, const dfp2_t *)
{
    dfp2_inv_var(o, a);
}
static CUZK_HD void one_fp_mul_wide(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    uint32_t p[2 * DFP_LIMBS];
    dmont_mul_wide<DFP_LIMBS>(p, a->l, b->l);
    dmont_redc_wide<DFP_LIMBS>(o->l, p, DCONST(DFP_P).l, DFP_N0);
}
static CUZK_HD void one_fp_sqr_wide(dfp_t *o, const dfp_t *a, const dfp_t *)
{
    dmont_sqr<DFP_LIMBS>(o->l, a->l, DCONST(DFP_P).l, DFP_N0);
}
static CUZK_HD void one_fp_mul_f64(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_mul_f64(o, a, b);
}
static CUZK_HD void one_fp2_mul_mixed(dfp2_t *o, const dfp2_t *a, const dfp2_t *b)
{
    dfp2_mul_mixed(o, a, b);
}
static CUZK_HD void one_fp2_sqr_mixed(dfp2_t *o, const dfp2_t *a, const dfp2_t *)
{
    dfp2_sqr_mixed(o, a);
}
/* a b through the [0, 2p) forms: inputs lifted, the lazy product reduced
 * once. */
static CUZK_HD void one_fp_mul_lazy(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_t x = *a, y = *b, r;
    selftest_lift(&x);
    selftest_lift(&y);
    dfp_mul_lz(&r, &x, &y);
    if (!selftest_below_2p(&r)) {
        memset(o, 0xff, sizeof *o);
        return;
    }
    dfp_canon(o, &r);
}
/* 2a - b through the [0, 2p) forms, and their zero test on every value. */
static CUZK_HD void one_fp_sub_lazy(dfp_t *o, const dfp_t *a, const dfp_t *b)
{
    dfp_t x = *a, y = *b, d, r, c;
    selftest_lift(&x);
    selftest_lift(&y);
    dfp_dbl_lz(&d, &x);
    dfp_sub_lz(&r, &d, &y);
    int ok = selftest_below_2p(&d) && selftest_below_2p(&r);
    dfp_canon(&c, &r);
    ok = ok && dfp_is_zero_lz(&r) == dfp_is_zero(&c) && dfp_is_zero_lz(&x) == dfp_is_zero(a);
    if (!ok) {
        memset(o, 0xff, sizeof *o);
        return;
    }
    *o = c;
}
/* a b through Fr's [0, 2r) forms: a reduced (the twiddle), b lifted. */
static CUZK_HD void one_fr_mul_lazy(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_t y = *b, r;
    selftest_lift_fr(&y);
    dfr_mul_lz(&r, a, &y);
    if (!selftest_below_2r(&r)) {
        memset(o, 0xff, sizeof *o);
        return;
    }
    dfr_canon(o, &r);
}
/* 2a - b through Fr's [0, 2r) forms (the sum of two lifted values carries
 * out of the top limb). */
static CUZK_HD void one_fr_sub_lazy(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    dfr_t x = *a, y = *b, d, r;
    selftest_lift_fr(&x);
    selftest_lift_fr(&y);
    dfr_add_lz(&d, &x, &x);
    dfr_sub_lz(&r, &d, &y);
    if (!selftest_below_2r(&d) || !selftest_below_2r(&r)) {
        memset(o, 0xff, sizeof *o);
        return;
    }
    dfr_canon(o, &r);
}
static CUZK_HD void one_fr_mul_wide(dfr_t *o, const dfr_t *a, const dfr_t *b)
{
    uint32_t p[2 * DFR_LIMBS];
    dmont_mul_wide<DFR_LIMBS>(p, a->l, b->l);
    dmont_redc_wide<DFR_LIMBS>(o->l, p, DCONST(DFR_P).l, DFR_N0);
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
SELFTEST_OP(fp_inv, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp2_inv, dfp2_t, dfp2_t, dfp2_t)
SELFTEST_OP(fp_mul_wide, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_sqr_wide, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fr_mul_wide, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fp_mul_f64, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp2_mul_mixed, dfp2_t, dfp2_t, dfp2_t)
SELFTEST_OP(fp2_sqr_mixed, dfp2_t, dfp2_t, dfp2_t)
SELFTEST_OP(fp_mul_lazy, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fp_sub_lazy, dfp_t, dfp_t, dfp_t)
SELFTEST_OP(fr_mul_lazy, dfr_t, dfr_t, dfr_t)
SELFTEST_OP(fr_sub_lazy, dfr_t, dfr_t, dfr_t)

const selftest_row_t selftest_rows_field[] = {
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_ADD, fp_add, fp_t, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_SUB, fp_sub, fp_t, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_NEG, fp_neg, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_DBL, fp_dbl, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_MUL, fp_mul, fp_t, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_SQR, fp_sqr, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_TO_MONT, fp_to_mont, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_FROM_MONT, fp_from_mont, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_CMP, fp_cmp, uint32_t, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FR_ADD, fr_add, fr_t, fr_t, fr_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FR_SUB, fr_sub, fr_t, fr_t, fr_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FR_NEG, fr_neg, fr_t, fr_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FR_MUL, fr_mul, fr_t, fr_t, fr_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FR_SQR, fr_sqr, fr_t, fr_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FR_TO_MONT, fr_to_mont, fr_t, fr_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FR_FROM_MONT, fr_from_mont, fr_t, fr_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP2_MUL, fp2_mul, fp2_t, fp2_t, fp2_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP2_SQR, fp2_sqr, fp2_t, fp2_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_INV, fp_inv, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP2_INV, fp2_inv, fp2_t, fp2_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_MUL_WIDE, fp_mul_wide, fp_t, fp_t, fp_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP_SQR_WIDE, fp_sqr_wide, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FR_MUL_WIDE, fr_mul_wide, fr_t, fr_t, fr_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_MUL_F64, fp_mul_f64, fp_t, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP2_MUL_MIXED, fp2_mul_mixed, fp2_t, fp2_t, fp2_t),
    SELFTEST_UNARY(CUZK_CUDA_OP_FP2_SQR_MIXED, fp2_sqr_mixed, fp2_t, fp2_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_MUL_LAZY, fp_mul_lazy, fp_t, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FP_SUB_LAZY, fp_sub_lazy, fp_t, fp_t, fp_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FR_MUL_LAZY, fr_mul_lazy, fr_t, fr_t, fr_t),
    SELFTEST_BINARY(CUZK_CUDA_OP_FR_SUB_LAZY, fr_sub_lazy, fr_t, fr_t, fr_t),
};
const size_t selftest_rows_field_count = sizeof selftest_rows_field / sizeof selftest_rows_field[0];

/* ---- the entry point ----------------------------------------------------- */

/* The op's row, from whichever unit holds it; NULL if none does. */
static const selftest_row_t *find_row(cuzk_cuda_op op)
{
    const selftest_row_t *tables[] = {selftest_rows_field, selftest_rows_g1, selftest_rows_g2};
    const size_t counts[] = {selftest_rows_field_count, selftest_rows_g1_count,
                             selftest_rows_g2_count};
    for (int t = 0; t < 3; t++)
        for (size_t i = 0; i < counts[t]; i++)
            if (tables[t][i].op == op)
                return &tables[t][i];
    return NULL;
}

extern "C" const cuzk_cuda_op_info_t *cuzk_cuda_op_info(cuzk_cuda_op op)
{
    const selftest_row_t *row = find_row(op);
    return row ? &row->info : NULL;
}

/* Frees one stream-ordered allocation; the first failure's status and
 * message win. */
static void free_async(cuzk_status *st, void *p, cudaStream_t stream, cuzk_error_t *err)
{
    if (!p)
        return;
    cuzk_status s = CUDA_CHECK(cudaFreeAsync(p, stream), *st == CUZK_OK ? err : NULL);
    if (*st == CUZK_OK)
        *st = s;
}

/* Copies in, poisons out with 0xff bytes, launches, copies back, all on a
 * stream of its own; frees are stream-ordered and run whatever failed. */
static cuzk_status run_device(const selftest_row_t *row, void *out, const void *a, const void *b,
                              size_t n, cuzk_error_t *err)
{
    const cuzk_cuda_op_info_t *info = &row->info;
    size_t out_bytes = n * info->out_size, a_bytes = n * info->a_size, b_bytes = n * info->b_size;
    size_t blocks = (n + SELFTEST_BLOCK - 1) / SELFTEST_BLOCK;
    unsigned grid = blocks < SELFTEST_MAX_GRID ? (unsigned)blocks : SELFTEST_MAX_GRID;
    cudaStream_t stream = NULL;
    void *d_out = NULL, *d_a = NULL, *d_b = NULL;
    cuzk_status st, s2;
    int count = 0, caller_device = 0;

    if ((st = cuzk_cuda_device_count(&count, err)) != CUZK_OK)
        return st;
    if (count == 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "cuzk_cuda_selftest_run: no CUDA device");
    /* Device 0 for this call; the calling thread's current device is restored. */
    if ((st = CUDA_CHECK(cudaGetDevice(&caller_device), err)) != CUZK_OK)
        return st;
    if ((st = CUDA_CHECK(cudaSetDevice(0), err)) != CUZK_OK)
        return st;
    if ((st = CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), err)) !=
        CUZK_OK)
        goto restore;

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
    row->launch(d_out, d_a, b_bytes ? d_b : d_a, n, grid, stream);
    if ((st = CUDA_CHECK(cudaGetLastError(), err)) != CUZK_OK)
        goto done;
    if ((st = CUDA_CHECK(cudaMemcpyAsync(out, d_out, out_bytes, cudaMemcpyDeviceToHost, stream),
                         err)) != CUZK_OK)
        goto done;

done:
    free_async(&st, d_b, stream, err);
    free_async(&st, d_a, stream, err);
    free_async(&st, d_out, stream, err);
    s2 = CUDA_CHECK(cudaStreamSynchronize(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
    s2 = CUDA_CHECK(cudaStreamDestroy(stream), st == CUZK_OK ? err : NULL);
    st = st == CUZK_OK ? s2 : st;
restore:
    s2 = CUDA_CHECK(cudaSetDevice(caller_device), st == CUZK_OK ? err : NULL);
    return st == CUZK_OK ? s2 : st;
}

extern "C" cuzk_status cuzk_cuda_selftest_run(cuzk_cuda_target target, cuzk_cuda_op op, void *out,
                                              const void *a, const void *b, size_t n,
                                              cuzk_error_t *err)
{
    const selftest_row_t *row = find_row(op);
    if (!row)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run: unknown op %d", (int)op);
    const cuzk_cuda_op_info_t *info = &row->info;
    if (target != CUZK_CUDA_TARGET_DEVICE && target != CUZK_CUDA_TARGET_HOST_EMU)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run: unknown target %d",
                              (int)target);
    if (n == 0)
        return CUZK_OK;
    if (!out || !a || (info->b_size && !b))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run(%s): NULL array",
                              info->name);
    if (n > SIZE_MAX / sizeof(g2_jac_t))
        return cuzk_error_set(err, CUZK_ERR_ARG, "cuzk_cuda_selftest_run(%s): n = %zu too large",
                              info->name, n);
    if (target == CUZK_CUDA_TARGET_HOST_EMU) {
        row->emu(out, a, info->b_size ? b : a, n);
        return CUZK_OK;
    }
    return run_device(row, out, a, b, n, err);
}
