/* Where MSM bases live and how they are encoded (model layer: keys and
 * formats hand them to the backends, which read them in place).
 *   MSM_BASES_AFFINE  g1_affine_t / g2_affine_t arrays (may be unaligned)
 *   MSM_BASES_LEM     snarkjs .zkey LEM records (96 / 192 bytes)
 *   MSM_BASES_ZCASH   zcash uncompressed big-endian (96 / 192 bytes),
 *                     as in bellperson .params files
 *   MSM_BASES_DEVICE  affine arrays in a CUDA device's memory
 * A 44 GiB key is read chunk by chunk through these, never copied whole. */
#ifndef CUZK_BASES_H
#define CUZK_BASES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum msm_base_format {
    MSM_BASES_AFFINE = 0,
    MSM_BASES_LEM = 1,
    MSM_BASES_ZCASH = 2,
    /* g1_affine_t / g2_affine_t arrays already in a CUDA device's memory
     * (a key made on the GPU, cuda_setup.h): only the CUDA backend reads
     * them, in place; the CPU MSMs refuse them (CUZK_ERR_ARG). */
    MSM_BASES_DEVICE = 3
} msm_base_format;

typedef struct msm_bases {
    const void *data; /* first base */
    msm_base_format fmt;
} msm_bases_t;

#ifdef __cplusplus
}
#endif
#endif
