/* Pieces shared by the self-test units (selftest.cu: the entry point and
 * the field ops; selftest_g1.cu, selftest_g2.cu: the curve ops, in units of
 * their own so that a parallel build compiles them side by side).
 *
 * Each op is one per-element function, one_<name>(out, a, b), that
 * SELFTEST_OP turns into
 *   - a kernel, selftest_<name>: grid-stride, reading its inputs from and
 *     writing its output to global memory as the function goes (restrict
 *     pointers; copying whole G2 points into registers first made the
 *     compiler spill more). The kernels double as register-usage probes:
 *     configure with -DCUZK_CUDA_PTXAS_VERBOSE=ON to see nvcc -Xptxas -v;
 *   - launch_<name>, which launches it on a given stream;
 *   - emu_<name>, the same function in a host loop (the host emulation).
 * A unit lists its ops in a table of selftest_row_t. Unary ops ignore b,
 * which the caller points at a. */
#ifndef CUZK_CUDA_SELFTEST_INTERNAL_CUH
#define CUZK_CUDA_SELFTEST_INTERNAL_CUH

#include <stddef.h>
#include <string.h>

#include <cuda_runtime.h>

#include "backend/cuda/arith/ec.cuh"
#include "backend/cuda/arith/host_types.cuh"
#include "cuzk/cuda_selftest.h"

#define SELFTEST_BLOCK 128

/* The lazy forms' tests (field.cuh: Fp's [0, 2p), Fr's [0, 2r)): a reduced
 * value lifted to x + m when it is odd, so that both halves of the range
 * come in; and whether a value is below 2m (else the op writes all ones,
 * which no reduced value has). */
template <int N> static CUZK_HD void selftest_lift_limbs(uint32_t *x, const uint32_t *m)
{
    uint32_t t[N];
    uint32_t add = 0u - (x[0] & 1u);
    t[0] = ptx_add_cc(x[0], m[0] & add);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        t[j] = ptx_addc_cc(x[j], m[j] & add);
    t[N - 1] = ptx_addc(x[N - 1], m[N - 1] & add);
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        x[j] = t[j];
}

template <int N> static CUZK_HD int selftest_below_limbs(const uint32_t *x, const uint32_t *m2)
{
    uint32_t t[N];
    return dwide_sub<N>(t, x, m2) != 0;
}

static CUZK_HD void selftest_lift(dfp_t *x)
{
    selftest_lift_limbs<DFP_LIMBS>(x->l, DCONST(DFP_P).l);
}

static CUZK_HD int selftest_below_2p(const dfp_t *x)
{
    return selftest_below_limbs<DFP_LIMBS>(x->l, DCONST(DFP_P2).l);
}

static CUZK_HD void selftest_lift_fr(dfr_t *x)
{
    selftest_lift_limbs<DFR_LIMBS>(x->l, DCONST(DFR_P).l);
}

static CUZK_HD int selftest_below_2r(const dfr_t *x)
{
    return selftest_below_limbs<DFR_LIMBS>(x->l, DCONST(DFR_P2).l);
}

typedef void (*selftest_launch_fn)(void *out, const void *a, const void *b, size_t n, unsigned grid,
                                   cudaStream_t stream);
typedef void (*selftest_emu_fn)(void *out, const void *a, const void *b, size_t n);

typedef struct selftest_row {
    cuzk_cuda_op op;
    cuzk_cuda_op_info_t info;
    selftest_launch_fn launch;
    selftest_emu_fn emu;
} selftest_row_t;

#define SELFTEST_OP(NAME, OUT_T, A_T, B_T)                                                         \
    static __global__ void __launch_bounds__(SELFTEST_BLOCK) selftest_##NAME(                      \
        OUT_T *__restrict__ out, const A_T *__restrict__ a, const B_T *__restrict__ b, size_t n)   \
    {                                                                                              \
        size_t stride = (size_t)gridDim.x * blockDim.x;                                            \
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)         \
            one_##NAME(&out[i], &a[i], &b[i]);                                                     \
    }                                                                                              \
    static void launch_##NAME(void *out, const void *a, const void *b, size_t n, unsigned grid,    \
                              cudaStream_t stream)                                                 \
    {                                                                                              \
        selftest_##NAME<<<grid, SELFTEST_BLOCK, 0, stream>>>((OUT_T *)out, (const A_T *)a,         \
                                                             (const B_T *)b, n);                   \
    }                                                                                              \
    static void emu_##NAME(void *out, const void *a, const void *b, size_t n)                      \
    {                                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            A_T ra;                                                                                \
            B_T rb;                                                                                \
            OUT_T ro;                                                                              \
            memcpy(&ra, (const A_T *)a + i, sizeof ra);                                            \
            memcpy(&rb, (const B_T *)b + i, sizeof rb);                                            \
            one_##NAME(&ro, &ra, &rb);                                                             \
            memcpy((OUT_T *)out + i, &ro, sizeof ro);                                              \
        }                                                                                          \
    }

/* A table row; sizes are the host types' (host_types.cuh checks that the
 * device types match them). */
#define SELFTEST_BINARY(OP, NAME, OUT_T, A_T, B_T)                                                 \
    {                                                                                              \
        OP, {#NAME, sizeof(OUT_T), sizeof(A_T), sizeof(B_T)}, launch_##NAME, emu_##NAME            \
    }
#define SELFTEST_UNARY(OP, NAME, OUT_T, A_T)                                                       \
    {                                                                                              \
        OP, {#NAME, sizeof(OUT_T), sizeof(A_T), 0}, launch_##NAME, emu_##NAME                      \
    }

extern const selftest_row_t selftest_rows_field[];
extern const size_t selftest_rows_field_count;
extern const selftest_row_t selftest_rows_g1[];
extern const size_t selftest_rows_g1_count;
extern const selftest_row_t selftest_rows_g2[];
extern const size_t selftest_rows_g2_count;

#endif
