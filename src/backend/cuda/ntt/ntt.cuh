/* The device NTT over Fr (ntt.cu): transforms of 2^0..2^27 elements that
 * live in device memory, in place, natural order in and out, on an
 * explicit stream. The transforms are ntt.h's (forward, inverse, coset
 * forward, coset inverse; both root conventions) and give the CPU's bytes.
 *
 * A domain holds the roots of one (size, convention) and a coset the powers
 * of one shift g for one domain; both are built once on the device
 * (two-level tables, omega^e = hi[e >> half] lo[e & (2^half-1)], not the
 * CPU's n/2 twiddles) and are read-only afterwards, so one domain serves
 * any number of streams at once. With three passes (2^19 and up) the
 * second reads its four-step twiddles from a direct table instead (n / 2^k1
 * elements, k1 the first pass's bits: 8 MiB a direction at 2^27, most of a
 * domain's ~18 MiB), which saves the two-level table's product on every
 * element it touches. The bytes they take are known
 * before anything is allocated (cuda_ntt_domain_bytes, cuda_ntt_coset_bytes)
 * for the memory plan.
 *
 * init allocates on the current device (cudaMalloc: setup, not the hot
 * path), fills the tables with kernels on `stream` and waits for them, so
 * the object is ready on every stream when init returns. On failure the
 * object is left zeroed (free on it is harmless). free releases the memory
 * (cudaFree, which waits for the device) and zeroes the object; NULL is
 * ignored. cuda_ntt only enqueues work on its stream: no allocation, no
 * synchronisation. */
#ifndef CUZK_CUDA_NTT_CUH
#define CUZK_CUDA_NTT_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "backend/cuda/cuda_check.cuh"
#include "backend/cuda/arith/host_types.cuh"

namespace cuzk_host
{
#include "cuzk/cuda_ntt.h"
} // namespace cuzk_host

/* One direction's roots (omega or omega^-1) of a domain of 2^log_n. */
typedef struct cuda_ntt_roots {
    dfr_t *lo;  /* w^j, j < 2^half */
    dfr_t *hi;  /* w^(j 2^half), j < 2^(log_n - half) */
    dfr_t *blk; /* w_{2^kb}^j = w^(j 2^(log_n - kb)), j < 2^(kb-1): the in-block DFTs */
    dfr_t *tw2; /* w^(j 2^k1), j < 2^(log_n - k1), k1 the first pass's bits: the later
                 * passes' four-step twiddles; NULL below three passes */
} cuda_ntt_roots_t;

typedef struct cuda_ntt_domain {
    unsigned log_n;
    size_t n;
    cuzk_host::fr_roots conv;
    unsigned half; /* two-level split: ceil(log_n / 2) */
    unsigned kb;   /* largest in-block DFT, log2: min(log_n, CUDA_NTT_PASS_MAX_LOG) */
    dfr_t n_inv;
    cuda_ntt_roots_t fwd, inv;
    void *mem; /* the one allocation the tables live in */
    size_t bytes;
} cuda_ntt_domain_t;

/* The powers of one shift g for one domain, two-level like its roots. */
typedef struct cuda_ntt_coset {
    unsigned log_n, half;
    dfr_t *pre_lo, *pre_hi;   /* g^j: coset forward */
    dfr_t *post_lo, *post_hi; /* n^-1 g^-j (n^-1 folded into lo): coset inverse */
    void *mem;
    size_t bytes;
} cuda_ntt_coset_t;

/* Bits of one in-block DFT at most (one pass of the transform). */
#define CUDA_NTT_PASS_MAX_LOG 9

/* Device bytes of a domain / a coset of 2^log_n (0 for log_n >= NTT_MAX_LOG). */
size_t cuda_ntt_domain_bytes(unsigned log_n);
size_t cuda_ntt_coset_bytes(unsigned log_n);

/* CUZK_ERR_ARG for log_n >= NTT_MAX_LOG or an unknown convention;
 * CUZK_ERR_CUDA (out of memory included). */
cuzk_status cuda_ntt_domain_init(cuda_ntt_domain_t *d, unsigned log_n, cuzk_host::fr_roots conv,
                                 cudaStream_t stream, cuzk_error_t *err);
void cuda_ntt_domain_free(cuda_ntt_domain_t *d);

/* g: the shift, nonzero (host memory). CUZK_ERR_ARG for a NULL or zeroed
 * domain or g NULL or zero; CUZK_ERR_CUDA. */
cuzk_status cuda_ntt_coset_init(cuda_ntt_coset_t *c, const cuda_ntt_domain_t *d,
                                const cuzk_host::fr_t *g, cudaStream_t stream, cuzk_error_t *err);
void cuda_ntt_coset_free(cuda_ntt_coset_t *c);

/* Transforms a[0..d->n) in place (device memory), enqueued on stream.
 * coset: built for d; read by the coset kinds only (may be NULL otherwise).
 * Returns CUZK_OK; CUZK_ERR_ARG (NULL a or d, unknown kind, a coset kind
 * without a coset of d's size); CUZK_ERR_CUDA (a launch failed; a may then
 * be partly transformed). */
cuzk_status cuda_ntt(dfr_t *a, const cuda_ntt_domain_t *d, cuzk_host::cuzk_ntt_kind kind,
                     const cuda_ntt_coset_t *coset, cudaStream_t stream, cuzk_error_t *err);

/* The whole transform on the host: tables and every kernel body run in host
 * loops (block by block, thread by thread, round by round; PTX carry chains
 * emulated by ptx.cuh), on host memory. Slow; for tests without a GPU,
 * through cuzk_cuda_ntt_emu (cuda_ntt.h), which checks the arguments. */
cuzk_status cuda_ntt_host_emu(cuzk_host::fr_t *a, unsigned log_n, cuzk_host::fr_roots conv,
                              cuzk_host::cuzk_ntt_kind kind, const cuzk_host::fr_t *g,
                              cuzk_error_t *err);

#endif
