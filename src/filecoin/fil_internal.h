/* Internal to the Filecoin layer: the hashes (OpenSSL's EVP) and ChaCha8. */
#ifndef CUZK_FILECOIN_INTERNAL_H
#define CUZK_FILECOIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "cuzk/status.h"

/* SHA-256 of the concatenation of n parts (parts[i], lens[i] bytes).
 * Returns CUZK_OK, or CUZK_ERR_NOMEM / CUZK_ERR_INTERNAL when OpenSSL
 * fails (it does only without memory). */
cuzk_status fil_sha256_parts(uint8_t out[32], const void *const *parts, const size_t *lens,
                             size_t n, cuzk_error_t *err);

/* The first 8 bytes of BLAKE2b-512(in), in[0..16) the only input (RFC 7693;
 * one compression of a zero-padded block): the Feistel round function,
 * billions of times for a 32 GiB parent cache, where EVP's per-call cost
 * (about 1 us) would dominate. OpenSSL's EVP_blake2b512 is its reference
 * in the tests. */
void fil_blake2b512_16_prefix(uint8_t out[8], const uint8_t in[16]);

/* ChaCha with `rounds` rounds (8 for ChaCha8Rng, 20 for the published
 * rand_chacha vectors) as rand_chacha 0.3 runs it: key = the 32-byte seed,
 * a 64-bit block counter in words 12-13 starting at 0, stream 0 in words
 * 14-15. Writes the first 16 * n_blocks output words, block by block.
 * ChaCha8Rng's next_u64 reads two consecutive words, low then high. */
void fil_chacha_words(uint32_t *out, const uint8_t key[32], unsigned rounds, unsigned n_blocks);

#endif
