/* The INSECURE test setup (setup.h) on a CUDA device: the same proving key
 * as groth16_setup_toxic, byte for byte, made on the GPU.
 *
 * Everything proportional to the circuit runs on the device: the Lagrange
 * basis at tau, u_j / v_j / w_j by a column-major copy of each matrix
 * (built there), the query scalars, and every point by fixed-base
 * multiplication of the generator with batched affine normalisation
 * (src/backend/cuda/setup*.cu). The host checks the arguments, counts the
 * bellperson query densities (to plan the memory before allocating), and
 * makes the six vk points and, for snarkjs, the coefficient list.
 * Affine coordinates are unique, so the bytes equal the CPU's whatever the
 * order of the device's work.
 *
 * Defined in libcuzk_cuda (builds with nvcc only). Rules as in status.h:
 * outputs first, err may be NULL, nothing exits. Each call runs on the
 * device it is given, on a non-blocking stream of its own, and restores
 * the calling thread's current device. Reentrant (two calls share nothing
 * but the device). Device output buffers are filled with 0xa5 bytes before
 * they are computed, so an entry a kernel misses comes back wrong. The
 * environment variable CUZK_CUDA_SETUP_CHUNK (points, >= 1) lowers the
 * fixed-base pass size (default 2^23), for tests of the pass boundaries.
 * Returns: CUZK_ERR_ARG as groth16_setup_toxic's checks (plus a malformed
 * circuit: row offsets that do not end at nnz, a column >= n_vars or a
 * coefficient index >= n_dict); CUZK_ERR_NO_DEVICE (no such device);
 * CUZK_ERR_NOMEM (host memory, or device memory below
 * cuzk_cuda_setup_bytes: the message names both numbers); CUZK_ERR_CUDA.
 * On failure everything is freed and *out and *dev are zeroed. */
#ifndef CUZK_CUDA_SETUP_H
#define CUZK_CUDA_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/key.h"
#include "cuzk/toxic.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A key's five base arrays left on a device (dg1_affine_t / dg2_affine_t:
 * the bytes of g1_affine_t / g2_affine_t). An empty array is NULL. */
typedef struct cuzk_cuda_key_dev {
    int device;
    void *a, *b_g1, *b_g2, *l, *h;
    size_t n_a, n_b, n_l, n_h;
    size_t bytes; /* device bytes they hold */
} cuzk_cuda_key_dev_t;

/* Seconds per stage (each ends with a wait for the stream). upload: the
 * host's density count and the circuit's copies; columns: the CSC builds
 * and the column sums; scalars: K, H and the query indices; g1 / g2: the
 * tables and the fixed-base multiplications; download: the bases to the
 * host (0 when they stay on the device). */
typedef struct cuzk_cuda_setup_times {
    double upload, lagrange, columns, scalars, g1, g2, download, total;
} cuzk_cuda_setup_times_t;

/* Same key as groth16_setup_toxic(out, c, conv, tw, ...), on CUDA device
 * `device`.
 * dev == NULL: the bases are downloaded into out's arrays (malloc'd, so
 * groth16_key_free frees them) and nothing stays on the device.
 * dev != NULL: the five base arrays stay on the device in *dev; out->a,
 * b_g1, b_g2, l, h are NULL, but the counts, vk (IC included) and, for
 * snarkjs, coefs are filled on the host. times may be NULL. */
cuzk_status cuzk_cuda_setup_toxic(groth16_key_t *out, cuzk_cuda_key_dev_t *dev, const circuit_t *c,
                                  groth16_convention conv, const groth16_toxic_t *tw, int device,
                                  cuzk_cuda_setup_times_t *times, cuzk_error_t *err);
/* The same with the toxic waste of groth16_toxic_from_seed(seed). */
cuzk_status cuzk_cuda_setup(groth16_key_t *out, cuzk_cuda_key_dev_t *dev, const circuit_t *c,
                            groth16_convention conv, uint64_t seed, int device,
                            cuzk_cuda_setup_times_t *times, cuzk_error_t *err);

/* Copies dev's bases into k's arrays. Each of k->a, b_g1, b_g2, l, h that
 * is NULL is malloc'd here (groth16_key_free frees it); one that is not is
 * taken to hold k's count of points. k's counts must equal dev's
 * (CUZK_ERR_ARG). CUZK_ERR_NOMEM: the arrays made here are freed again. */
cuzk_status cuzk_cuda_key_dev_download(groth16_key_t *k, const cuzk_cuda_key_dev_t *dev,
                                       cuzk_error_t *err);
/* Frees dev's arrays (on dev->device) and zeroes it; NULL and zeroed ok. */
void cuzk_cuda_key_dev_free(cuzk_cuda_key_dev_t *dev);

/* Peak device bytes cuzk_cuda_setup needs for c under conv (0 for a NULL
 * circuit or an unknown convention). For bellperson it counts the query
 * densities on the host: one pass over A's and B's columns. */
size_t cuzk_cuda_setup_bytes(const circuit_t *c, groth16_convention conv);

#ifdef __cplusplus
}
#endif
#endif
