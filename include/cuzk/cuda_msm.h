/* The CUDA MSM from host memory, for tests and benchmarks: the prover's
 * backend keeps bases resident instead (src/backend/cuda/msm.cuh).
 *
 * Defined in libcuzk_cuda (builds with nvcc only). Each call runs on
 * device 0 with a stream and a plan of its own (the calling thread's
 * current device is restored), and allocates and frees its device memory.
 * Rules as in status.h. Without a GPU: CUZK_ERR_NO_DEVICE. */
#ifndef CUZK_CUDA_MSM_H
#define CUZK_CUDA_MSM_H

#include <stddef.h>

#include "cuzk/bases.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = sum_i scalars[i] bases[i], as msm_g1 / msm_g2 (msm.h: same
 * formats, same result point). n < 2^31. */
cuzk_status cuzk_cuda_msm_g1(g1_jac_t *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                             cuzk_error_t *err);
cuzk_status cuzk_cuda_msm_g2(g2_jac_t *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                             cuzk_error_t *err);

/* What scalars a benchmark draws. */
typedef enum cuzk_cuda_msm_scalars {
    CUZK_CUDA_MSM_RANDOM = 0, /* uniform below 2^254 */
    CUZK_CUDA_MSM_WITNESS = 1 /* 45% zero, 45% one, 10% random: a Filecoin-like witness */
} cuzk_cuda_msm_scalars;

typedef struct cuzk_cuda_msm_bench {
    double ms_median, ms_min, ms_max; /* CUDA events around each call */
    int reps;
    size_t plan_bytes;  /* device scratch of the MSM plan */
    size_t bases_bytes; /* device bases */
    unsigned window_bits;
} cuzk_cuda_msm_bench_t;

/* Times n-point MSMs (g2: G2, else G1) on device-resident random bases
 * (distinct points made on the device) and scalars: one warm-up, then reps
 * timed runs (reps >= 1). */
cuzk_status cuzk_cuda_msm_bench(cuzk_cuda_msm_bench_t *out, int g2, size_t n,
                                cuzk_cuda_msm_scalars kind, int reps, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
