/* Number-theoretic transforms over Fr on the CPU, for both root
 * conventions (see fr.h: FR_ROOTS_BELLMAN, FR_ROOTS_FFJS).
 *
 * A domain of size n = 2^log_n (0 <= log_n <= 27 here; the field allows 32)
 * with generator omega = fr_root_of_unity(conv, log_n). All vectors are in
 * natural order on input and output, elements in Montgomery form.
 *   forward:  a_i <- sum_j a_j omega^(ij)        (evaluation)
 *   inverse:  a_i <- n^-1 sum_j a_j omega^(-ij)  (interpolation)
 *   coset forward with shift g: evaluations at g omega^i
 *     (a_j <- a_j g^j, then forward)
 *   coset inverse: the inverse of that (inverse, then a_j <- a_j g^-j).
 * threads <= 0: all CPUs (parallel.h). The domain holds precomputed
 * twiddles (n/2 elements) and must be freed with ntt_domain_free. */
#ifndef CUZK_NTT_H
#define CUZK_NTT_H

#include <stddef.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

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
