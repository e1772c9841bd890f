/* The one non-cryptographic 64-bit hash of the project: XXH64 (xxHash,
 * github.com/Cyan4973/xxHash, doc/xxhash_spec.md) from Debian's libxxhash.
 * Used where a stable fingerprint is kept (the journal's request-id
 * checks store it, so it must never change) and for hash tables. Not for
 * anything an adversary may choose to collide. Reentrant. */
#ifndef CUZK_HASH_H
#define CUZK_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* XXH64 of n bytes with seed (p may be NULL when n is 0). */
uint64_t cuzk_hash64(const void *p, size_t n, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
