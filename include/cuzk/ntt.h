/* Number-theoretic transforms over Fr on the CPU, for both root
 * conventions (see fr.h: FR_ROOTS_BELLMAN, FR_ROOTS_FFJS).
 *
 * A domain of size n = 2^log_n, 0 <= log_n < NTT_MAX_LOG (so up to 2^27,
 * the largest Filecoin circuit; the field would allow 2^32), with
 * generator omega = fr_root_of_unity(conv, log_n). All vectors are in
 * natural order on input and output, n elements in Montgomery form,
 * transformed in place.
 *   forward:  a_i <- sum_j a_j omega^(ij)        (evaluation)
 *   inverse:  a_i <- n^-1 sum_j a_j omega^(-ij)  (interpolation)
 *   coset forward with shift g: evaluations at g omega^i
 *     (a_j <- a_j g^j, then forward)
 *   coset inverse: the inverse of that (inverse, then a_j <- a_j g^-j).
 * g must be nonzero (bellperson uses g = 7; snarkjs's odd coset is
 * g = fr_root_of_unity(conv, log_n + 1)).
 *
 * Rules:
 *  - threads <= 0: all CPUs (parallel.h, CUZK_THREADS); small transforms use
 *    fewer. The result is bit-identical for every thread count.
 *  - Transforms return CUZK_ERR_ARG, leaving `a` untouched, for a NULL
 *    domain, vector or shift, a zero shift, or a zeroed domain (freed, or
 *    a failed init); otherwise CUZK_OK: they allocate nothing of their own
 *    and cannot run out of memory (without threads they run on the
 *    caller's).
 *  - A domain is read-only after ntt_domain_init: one domain may serve
 *    concurrent transforms of different vectors.
 *  - CUZK_NTT_TILE_LOG=<1..20> overrides the cache tile (2^13 elements by
 *    default), for tuning; the result does not depend on it.
 *
 * ntt_domain_init: CUZK_ERR_ARG for log_n >= NTT_MAX_LOG or an unknown
 * convention, CUZK_ERR_NOMEM if the twiddles cannot be allocated; on any
 * error *d is zeroed (ntt_domain_free on it is harmless). The twiddles,
 * n/2 elements (2 GiB at 2^27, 64-byte aligned), are computed on all CPUs.
 * ntt_domain_free releases them and zeroes *d; NULL is ignored. */
#ifndef CUZK_NTT_H
#define CUZK_NTT_H

#include <stddef.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exclusive bound on log_n; also the size of a table indexed by log_n. */
#define NTT_MAX_LOG 28

typedef struct ntt_domain {
    unsigned log_n;
    size_t n;
    fr_roots conv;
    fr_t omega, omega_inv, n_inv;
    fr_t *twiddles; /* omega^i, i < n/2 (NULL when n == 1) */
} ntt_domain_t;

cuzk_status ntt_domain_init(ntt_domain_t *d, unsigned log_n, fr_roots conv);
void ntt_domain_free(ntt_domain_t *d);

cuzk_status ntt_forward(const ntt_domain_t *d, fr_t *a, int threads);
cuzk_status ntt_inverse(const ntt_domain_t *d, fr_t *a, int threads);
cuzk_status ntt_coset_forward(const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads);
cuzk_status ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, const fr_t *g, int threads);

#ifdef __cplusplus
}
#endif
#endif
