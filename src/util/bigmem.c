/* Big scratch arrays (see bigmem.h). */
#include "util/bigmem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The mapping's length for a request of `bytes` >= BIGMEM_MIN; 0 when it
 * does not fit a size_t. */
static size_t map_len(size_t bytes)
{
    size_t len = (bytes + BIGMEM_PAGE - 1) & ~(BIGMEM_PAGE - 1);
    return len < bytes ? 0 : len;
}

void *bigmem_alloc(size_t bytes)
{
    if (bytes == 0)
        return NULL;
    if (bytes < BIGMEM_MIN) {
        size_t len = (bytes + 63) & ~(size_t)63;
        void *p = aligned_alloc(64, len);
        if (p)
            memset(p, 0, len);
        return p;
    }
    size_t len = map_len(bytes);
    if (!len)
        return NULL;
    /* Anonymous mappings of 2 MiB and more start on a 2 MiB boundary on
     * recent kernels, so every page of the array can be a huge one. */
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, len, MADV_HUGEPAGE); /* a hint: without it, small pages */
#endif
    return p;
}

void bigmem_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes >= BIGMEM_MIN)
        munmap(p, map_len(bytes));
    else
        free(p);
}
