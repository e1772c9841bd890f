/* The H computation on the device (h_scalars.cu): the H-MSM scalars
 * p[0..m) from the resident circuit and a witness in device memory, exactly
 * as the CPU backend computes them (backend_cpu.c, DESIGN.md §4):
 *   a = A w, b = B w, c = C w (snarkjs: c = a.b row by row); rows
 *   n_rows..m of each are 0;
 *   each of a, b, c: inverse NTT, then coset forward NTT with shift g
 *   (bellperson: 7; snarkjs: omega_2m, the odd coset of the 2m domain);
 *   p = a.b - c, times 1/(g^m - 1) for bellperson;
 *   bellperson: p <- coset inverse NTT of p.
 *
 * A plan holds everything one (domain size, convention) needs: the NTT
 * domain and coset tables and the scratch vectors b, c (m elements each;
 * a is the caller's p; bellperson's c reuses b, once a b is formed). Its device bytes are known
 * before it is made (cuda_h_plan_bytes), for the memory plan; it is made once (cudaMalloc on the
 * current device) and serves one call at a time; calls allocate nothing and only enqueue work on
 * their stream. The circuit is shared, read-only. On failure init leaves the plan zeroed; free
 * releases it (cudaFree) and zeroes it; NULL is ignored. */
#ifndef CUZK_CUDA_H_SCALARS_CUH
#define CUZK_CUDA_H_SCALARS_CUH

#include "backend/cuda/ntt/ntt.cuh"
#include "backend/cuda/h/spmv.cuh"

namespace cuzk_host
{
#include "cuzk/backend.h"
} // namespace cuzk_host

typedef struct cuda_h_plan {
    unsigned log_m;
    size_t m;
    cuzk_host::groth16_convention conv;
    cuda_ntt_domain_t domain;
    cuda_ntt_coset_t coset;
    dfr_t scale;  /* 1/(g^m - 1) (bellperson only) */
    dfr_t *b, *c; /* scratch, m elements each (one allocation; c == b for bellperson) */
    size_t bytes; /* device bytes held, all of it */
} cuda_h_plan_t;

/* Device bytes a plan for 2^log_m takes (0 for log_m >= NTT_MAX_LOG):
 * bellperson needs one scratch vector, snarkjs two. */
size_t cuda_h_plan_bytes(unsigned log_m, cuzk_host::groth16_convention conv);
/* The scratch vectors' bytes of that plan (one allocation from plan->b on):
 * free to other work between calls. */
size_t cuda_h_scratch_bytes(unsigned log_m, cuzk_host::groth16_convention conv);

/* CUZK_ERR_ARG for log_m >= NTT_MAX_LOG or an unknown convention;
 * CUZK_ERR_CUDA (out of memory included). */
cuzk_status cuda_h_plan_init(cuda_h_plan_t *plan, unsigned log_m,
                             cuzk_host::groth16_convention conv, cudaStream_t stream,
                             cuzk_error_t *err);
void cuda_h_plan_free(cuda_h_plan_t *plan);

/* In: c, the uploaded circuit (n_rows <= plan->m); w, its n_vars witness
 * elements (device). Out: p, plan->m elements (device), every one written.
 * Enqueued on stream. Returns CUZK_OK; CUZK_ERR_ARG (NULL pointers, an
 * empty plan, more rows than the domain); CUZK_ERR_CUDA. */
cuzk_status cuda_h_scalars(dfr_t *p, const cuda_circuit_t *c, const dfr_t *w, cuda_h_plan_t *plan,
                           cudaStream_t stream, cuzk_error_t *err);

#endif
