/* XXH64 through libxxhash (include/cuzk/hash.h). */
#include "cuzk/hash.h"

#include <xxhash.h>

uint64_t cuzk_hash64(const void *p, size_t n, uint64_t seed)
{
    static const char empty[1] = {0};
    return (uint64_t)XXH64(n ? p : empty, n, (XXH64_hash_t)seed);
}
