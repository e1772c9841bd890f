/* XXH64 through libxxhash (include/cuzk/hash.h). */
#include "cuzk/hash.h"

#include <xxhash.h>

uint64_t cuzk_hash64(const void *p, size_t n, uint64_t seed)
{
    return (uint64_t)XXH64(p, n, (XXH64_hash_t)seed); /* NULL is valid when n is 0 */
}
