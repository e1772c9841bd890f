/* Internal to the Filecoin layer: the hashes (OpenSSL's EVP) and ChaCha8. */
#ifndef CUZK_FILECOIN_INTERNAL_H
#define CUZK_FILECOIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

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

/* A process-wide memo of a few values measured once per key (the sizes
 * each circuit task allocates, per shape: a count run of a blank part).
 * Keys are compared with `same`, so struct padding never matters; the
 * oldest entry goes when all FIL_MEMO_SLOTS are taken. Thread-safe: the
 * measurement runs under the memo's lock, so it runs once per key. */
#define FIL_MEMO_SLOTS 8u
#define FIL_MEMO_BYTES 256u /* key + value */

typedef int (*fil_memo_same_fn)(const void *a, const void *b);
typedef cuzk_status (*fil_memo_measure_fn)(void *value, const void *key, cuzk_error_t *err);

typedef struct fil_memo {
    pthread_mutex_t mu;
    size_t key_size, value_size; /* key_size + value_size <= FIL_MEMO_BYTES */
    fil_memo_same_fn same;
    fil_memo_measure_fn measure;
    unsigned n, next;
    _Alignas(max_align_t) unsigned char slot[FIL_MEMO_SLOTS][FIL_MEMO_BYTES]; /* key, value */
} fil_memo_t;

#define FIL_MEMO_INIT(key_type, value_type, same_fn, measure_fn)                                   \
    {                                                                                              \
        PTHREAD_MUTEX_INITIALIZER, sizeof(key_type), sizeof(value_type), same_fn, measure_fn, 0,   \
            0,                                                                                     \
        {                                                                                          \
            {                                                                                      \
                0                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

/* The value for key (copied to value), measured and kept the first time.
 * Returns CUZK_OK or the measurement's error (nothing kept). */
cuzk_status fil_memo_get(fil_memo_t *m, void *value, const void *key, cuzk_error_t *err);

#endif
