/* The GPU NTT and H computation with host memory in and out: the entry
 * points tests and benchmarks use to compare the CUDA backend with the CPU
 * (ntt.h, GROTH16_BACKEND_CPU.h_scalars). The prover uses the device-pointer
 * API in src/backend/cuda/ntt.cuh and h_scalars.cuh instead.
 *
 * Defined in libcuzk_cuda (builds with nvcc only). Every call copies its
 * input to CUDA device 0, works there on a stream of its own (never the
 * default stream), copies the result back and returns when it is done; the
 * calling thread's current device is restored. Device buffers are filled
 * with 0xff bytes before use, so an element a kernel leaves unwritten comes
 * back wrong rather than plausibly right. Results are bit-identical to the
 * CPU's: field arithmetic is exact and both are fully reduced.
 *
 * Rules as in status.h: outputs first, err may be NULL, nothing exits.
 * Arguments are checked before the device is touched: CUZK_ERR_ARG (with a
 * message) for a NULL pointer, a size or enum out of range; then
 * CUZK_ERR_NO_DEVICE ("no CUDA device") where there is no GPU;
 * CUZK_ERR_CUDA with file:line and the CUDA error otherwise. Reentrant. */
#ifndef CUZK_CUDA_NTT_H
#define CUZK_CUDA_NTT_H

#include "cuzk/backend.h"
#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/ntt.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a transform computes; the definitions are ntt.h's:
 *   FORWARD        a_i <- sum_j a_j omega^(ij)
 *   INVERSE        a_i <- n^-1 sum_j a_j omega^(-ij)
 *   COSET_FORWARD  evaluations at g omega^i (a_j <- a_j g^j, then forward)
 *   COSET_INVERSE  the inverse of COSET_FORWARD */
typedef enum cuzk_ntt_kind {
    CUZK_NTT_FORWARD = 0,
    CUZK_NTT_INVERSE = 1,
    CUZK_NTT_COSET_FORWARD = 2,
    CUZK_NTT_COSET_INVERSE = 3
} cuzk_ntt_kind;

/* In: a, n = 2^log_n elements (Montgomery, fully reduced), natural order;
 * log_n < NTT_MAX_LOG; conv the root convention; g the coset shift
 * (nonzero; read only by the coset kinds, may be NULL otherwise).
 * Out: a, transformed in place, natural order.
 * Returns CUZK_OK; CUZK_ERR_ARG (a NULL, log_n or conv or kind out of
 * range, a coset kind with g NULL or zero); CUZK_ERR_NO_DEVICE;
 * CUZK_ERR_CUDA (out of device memory included). On failure a is
 * unchanged or partly written. */
cuzk_status cuzk_cuda_ntt(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind, const fr_t *g,
                          cuzk_error_t *err);

/* cuzk_cuda_ntt's algorithm on the host: the same kernel code compiled for
 * the host and run block by block, thread by thread (PTX carry chains
 * emulated, src/backend/cuda/ptx.cuh), on host memory; no GPU needed, and
 * slow (about 10x the CPU NTT). Same contract as cuzk_cuda_ntt, except that
 * it never returns CUZK_ERR_NO_DEVICE or CUZK_ERR_CUDA (CUZK_ERR_NOMEM
 * instead when host memory runs out). For tests. */
cuzk_status cuzk_cuda_ntt_emu(fr_t *a, unsigned log_n, fr_roots conv, cuzk_ntt_kind kind,
                              const fr_t *g, cuzk_error_t *err);

/* The H-MSM scalars, as GROTH16_BACKEND_CPU.h_scalars computes them: the
 * three SpMVs, the NTTs and the pointwise step all on the GPU (circuit
 * uploaded, plan made and freed within the call).
 * In: c, a finished circuit with n_rows <= 2^log_m; w, c->n_vars elements;
 * log_m < NTT_MAX_LOG; conv GROTH16_SNARKJS or GROTH16_BELLPERSON.
 * Out: p, 2^log_m elements.
 * Returns CUZK_OK; CUZK_ERR_ARG (NULL pointer, log_m or conv out of range,
 * more rows than the domain); CUZK_ERR_NO_DEVICE; CUZK_ERR_CUDA. */
cuzk_status cuzk_cuda_h_scalars(fr_t *p, const circuit_t *c, const fr_t *w, unsigned log_m,
                                groth16_convention conv, cuzk_error_t *err);

/* Times one kind of NTT (FR_ROOTS_BELLMAN) of 2^log_n device-resident
 * random elements: one warm-up, then reps runs, each between two CUDA
 * events on the stream, each transforming the previous run's output. The
 * domain, and for the coset kinds the coset of the shift the bellperson H
 * step uses (g = 7, h_scalars.cu), are built before the warm-up and are
 * not timed: the prover builds them once per plan too.
 * Out: *ms_median, the median of the reps times in milliseconds.
 * Returns CUZK_OK; CUZK_ERR_ARG (ms_median NULL, log_n >= NTT_MAX_LOG,
 * unknown kind, reps < 1 or > 1000; checked before the device is touched);
 * CUZK_ERR_NO_DEVICE; CUZK_ERR_NOMEM; CUZK_ERR_CUDA. */
cuzk_status cuzk_cuda_ntt_bench_kind(double *ms_median, unsigned log_n, cuzk_ntt_kind kind,
                                     int reps, cuzk_error_t *err);

/* cuzk_cuda_ntt_bench_kind of CUZK_NTT_FORWARD. */
cuzk_status cuzk_cuda_ntt_bench(double *ms_median, unsigned log_n, int reps, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
