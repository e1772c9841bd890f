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

/* The scalars a benchmark draws: each is 0 with probability zero_pct %,
 * 1 with probability one_pct %, else uniform below 2^254 (drawn per index
 * from a fixed seed, so a size and mix give the same scalars every run).
 * zero_pct + one_pct <= 100. {0, 0} is uniformly random; {45, 45} the
 * Filecoin-like witness; {50, 50} and {45, 45} are sppark's mixes. */
typedef struct cuzk_cuda_msm_mix {
    unsigned zero_pct, one_pct;
} cuzk_cuda_msm_mix_t;

typedef struct cuzk_cuda_msm_bench {
    double ms_median, ms_min, ms_max; /* CUDA events around each call */
    int reps;
    size_t plan_bytes;  /* device scratch of the MSM plan */
    size_t bases_bytes; /* device bases */
    unsigned window_bits;
} cuzk_cuda_msm_bench_t;

/* Times n-point MSMs (g2: G2, else G1) on device-resident random bases
 * (distinct points made on the device) and scalars drawn on the device as
 * mix says: one warm-up, then reps timed runs.
 * Returns CUZK_OK; CUZK_ERR_ARG (out NULL, n == 0 or n >= 2^31, reps < 1,
 * zero_pct + one_pct > 100; checked before the device is touched);
 * CUZK_ERR_NO_DEVICE; CUZK_ERR_NOMEM; CUZK_ERR_CUDA. */
cuzk_status cuzk_cuda_msm_bench(cuzk_cuda_msm_bench_t *out, int g2, size_t n,
                                cuzk_cuda_msm_mix_t mix, int reps, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
