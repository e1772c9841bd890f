/* Key writers (formats layer), streamed: a file is never built whole in
 * memory. Each returns CUZK_ERR_IO naming the path when the file cannot be
 * created or written (a partial file is removed), CUZK_ERR_ARG when the key
 * has the other convention. */
#ifndef CUZK_KEY_WRITE_H
#define CUZK_KEY_WRITE_H

#include "cuzk/key.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A snarkjs Groth16 .zkey (version 1): sections 1-9 as in zkey.h, and an
 * empty section 10 (a zero contribution hash and no contributions) so that
 * snarkjs's own tools accept it. */
cuzk_status zkey_write_file(const char *path, const groth16_key_t *k, cuzk_error_t *err);
/* A bellperson .params file (Parameters::write: vk, then H, L, A, B_G1,
 * B_G2, each a big-endian u32 count and uncompressed points). */
cuzk_status bellperson_params_write_file(const char *path, const groth16_key_t *k,
                                         cuzk_error_t *err);
/* A bellperson .vk file (bellperson.h). Any convention's vk. */
cuzk_status bellperson_vk_write_file(const char *path, const groth16_vk_t *vk, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
