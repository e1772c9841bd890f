/* Big scratch arrays, internal to libcuzk.
 *
 * From BIGMEM_MIN bytes on, an array is mapped on its own, rounded up to
 * whole 2 MiB pages, and asked for transparent huge pages (MADV_HUGEPAGE;
 * the kernel may still give 4 KiB pages). The first touch of a 4 KiB page
 * costs a fault: ~0.2 us on bare metal, but 17-20 us measured on the
 * shadow-paging VM cuzk is developed on, where filling a fresh 2 MiB array
 * cost ~9 ms of faults. A 2 MiB page is one fault, and fewer TLB misses for
 * the MSM's random bucket accesses. Smaller arrays come from aligned_alloc.
 *
 * bigmem_alloc returns zeroed memory aligned to 64 bytes, or NULL when out
 * of memory (or bytes == 0); bigmem_free takes the same size back and
 * accepts NULL. Thread safe. */
#ifndef CUZK_UTIL_BIGMEM_H
#define CUZK_UTIL_BIGMEM_H

#include <stddef.h>

#define BIGMEM_PAGE ((size_t)2 << 20)
#define BIGMEM_MIN ((size_t)1 << 20)

void *bigmem_alloc(size_t bytes);
void bigmem_free(void *p, size_t bytes);

#endif
