/* Multi-scalar multiplication on the CPU: out = sum_i scalars[i] * bases[i].
 *
 * Bases are read straight from where they live (an mmapped key file, or an
 * array) through msm_bases_t, which names their encoding, so a 44 GiB key is
 * decoded chunk by chunk and never copied whole:
 *   MSM_BASES_AFFINE  g1_affine_t / g2_affine_t arrays (may be unaligned)
 *   MSM_BASES_LEM     snarkjs .zkey LEM records (96 / 192 bytes)
 *   MSM_BASES_ZCASH   zcash uncompressed big-endian (96 / 192 bytes),
 *                     as in bellperson .params files
 * Decoding here does no curve or subgroup check: keys are validated when
 * loaded (or in their checked mode); infinity entries are skipped. ZCASH
 * flag bits are masked off (0x40 in byte 0 marks infinity); a coordinate
 * >= p decodes as zero. Scalars are fr_t in Montgomery form, fully reduced.
 *
 * msm_g1 / msm_g2 are 0/1-aware: zero scalars are skipped, scalars equal to
 * one are summed with plain additions, and the rest go through Pippenger with
 * signed-digit windows chosen from their count. On G1 the Pippenger splits
 * each scalar in two 128-bit halves with the GLV endomorphism
 * phi(x, y) = (beta x, y) = [lambda] P, which holds on the order-r subgroup
 * only: G1 bases must lie in it (as checked keys' points do), or the result
 * is some other point. Multi-threaded (threads <= 0:
 * all CPUs, or CUZK_THREADS); the result is the same point for any thread
 * count (its Jacobian coordinates may differ). Scratch memory is about
 * threads x 2^(c-1) buckets per window set (at most 64 MiB unless one window
 * needs more) plus a few hundred decoded points per thread.
 *
 * Returns CUZK_OK; CUZK_ERR_ARG when out is NULL, or n > 0 and bases,
 * bases->data or scalars is NULL or the format unknown; CUZK_ERR_NOMEM when
 * scratch memory is not available. n = 0 gives infinity (other pointers may
 * then be NULL). Whenever out is non-NULL and the call fails, *out is
 * infinity. Reentrant: calls share no state. */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/bases.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes bases [start, start + count) into out, unchecked, as the MSM
 * reads them (infinity as (0, 0)). */
void msm_g1_bases_get(g1_affine_t *out, const msm_bases_t *b, size_t start, size_t count);
void msm_g2_bases_get(g2_affine_t *out, const msm_bases_t *b, size_t start, size_t count);

cuzk_status msm_g1(g1_jac_t *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                   int threads);
cuzk_status msm_g2(g2_jac_t *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                   int threads);

/* Pippenger alone (no 0/1 split), for benchmarks and cross-checks. */
cuzk_status msm_g1_pippenger(g1_jac_t *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                             int threads);
cuzk_status msm_g2_pippenger(g2_jac_t *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                             int threads);

#define MSM_WINDOW_MAX 16 /* widest window: 2^15 buckets per window */

/* msm_gX_pippenger with the window width forced to c in [1, MSM_WINDOW_MAX]
 * (CUZK_ERR_ARG otherwise): for tests and for tuning the width rule. */
cuzk_status msm_g1_pippenger_window(g1_jac_t *out, const msm_bases_t *bases, const fr_t *scalars,
                                    size_t n, int threads, unsigned c);
cuzk_status msm_g2_pippenger_window(g2_jac_t *out, const msm_bases_t *bases, const fr_t *scalars,
                                    size_t n, int threads, unsigned c);

#ifdef __cplusplus
}
#endif
#endif
