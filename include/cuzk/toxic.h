/* The toxic waste of an INSECURE test setup and the pieces of a setup that
 * the CPU (setup.h) and GPU (cuda_setup.h) setups share, so that both make
 * the same bytes (model layer: the GPU setup lives in the CUDA backend,
 * below the groth16 layer). */
#ifndef CUZK_TOXIC_H
#define CUZK_TOXIC_H

#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/proof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The secrets of a test setup (Montgomery fr_t, all nonzero). */
typedef struct groth16_toxic {
    fr_t tau, alpha, beta, gamma, delta;
} groth16_toxic_t;

/* Derives the toxic waste from seed. Rule (stable: keys made by one version
 * must equal keys made by the next): splitmix64 seeded with `seed`; each
 * element takes the next four outputs as little-endian limbs, clears the top
 * bit, and is drawn again while the value is >= r or zero. The draws come in
 * the order tau, alpha, beta, gamma, delta; tau is also drawn again while
 * tau^(2^32) = 1 (a root of unity would sit on the evaluation domain). */
void groth16_toxic_from_seed(groth16_toxic_t *out, uint64_t seed);

/* 1 when x^(2^32) = 1: x is a root of unity of some power-of-two domain
 * (a tau there would sit on the evaluation domain). */
int groth16_tau_is_root_of_unity(const fr_t *x);

/* alpha, beta, delta in G1 and beta, gamma, delta in G2 of the vk. */
void groth16_setup_vk_points(groth16_vk_t *vk, const groth16_toxic_t *tw);
/* zfac = (tau^N - 1) / N * scale, N = 2^log_n. */
void groth16_setup_vanishing(fr_t *zfac, const fr_t *tau, unsigned log_n, const fr_t *scale);

#ifdef __cplusplus
}
#endif
#endif
