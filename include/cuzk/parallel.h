/* A minimal parallel-for on POSIX threads, used by the CPU backend.
 *
 * parallel_for splits [0, n) into contiguous chunks of at least `grain`
 * items and calls fn(ctx, begin, end) for each, on up to `threads` threads
 * (the caller's thread is one of them). threads <= 0 means every online
 * CPU (or CUZK_THREADS from the environment). Every chunk runs exactly once
 * before it returns (if a thread cannot start, the caller runs its chunk).
 * Returns CUZK_ERR_NOMEM only if its bookkeeping cannot be allocated, in
 * which case nothing has run. */
#ifndef CUZK_PARALLEL_H
#define CUZK_PARALLEL_H

#include <stddef.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*parallel_fn)(void *ctx, size_t begin, size_t end);

/* Number of threads parallel_for uses for `threads` (resolves <= 0). */
int parallel_threads(int threads);

/* The threads each of `stages` stages running at once may use when
 * `reserved` CPUs are kept for other threads: (every CPU - reserved) /
 * stages, at least 1 (CPUs as parallel_threads(0) counts them; stages
 * <= 0 counts as 1). The engine's users size a witness pool with it, the
 * device workers' threads reserved. */
int parallel_share(int stages, int reserved);
cuzk_status parallel_for(size_t n, size_t grain, int threads, parallel_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
