/* The CUDA Groth16 backend: everything between the witness and the final
 * assembly on one GPU (backend.h's msms entry), for both key conventions.
 *
 * Residency: the first proof with a key and circuit uploads the circuit
 * (CSR + dictionary), the density index lists and the five base sets
 * (zcash records decoded on the device) and they stay on the device for
 * the next proofs with the same key and circuit, shared with every backend
 * of the process on that device that proves with them; a different key or
 * circuit replaces them (for this backend). A key is recognised by its base pointers and sizes, so
 * it must not be freed and another loaded at the same addresses while the backend holds it: call
 * cuzk_cuda_backend_evict first. Per proof only the witness travels. Every buffer is allocated when
 * a key/circuit is first seen (the memory plan), none in the proving path.
 *
 * VRAM budget: before allocating, the backend adds up what the key, the
 * circuit and the per-proof scratch need (cuzk_cuda_backend_plan). When
 * the whole key does not fit the budget, the bases stay in pinned host
 * memory (copied there once) and stream through two device buffers in
 * chunks sized from the budget: the copy of chunk i + 1 (a copy stream)
 * overlaps the MSM of chunk i (the compute stream). When not even that
 * fits (bellperson), the lean layout streams the circuit's matrices as
 * well and reuses the H scratch vector for the gathered A and B scalars.
 * When nothing fits, CUZK_ERR_NOMEM names the numbers.
 *
 * One backend serves one proof at a time (calls on it are serialised by
 * the caller). Defined in libcuzk_cuda (builds with nvcc only). Rules as in
 * status.h. */
#ifndef CUZK_CUDA_BACKEND_H
#define CUZK_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/backend.h"
#include "cuzk/device.h"
#include "cuzk/pk.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vram_budget: bytes the backend may hold on the device; 0: the device's
 * free memory when the backend is made, less 512 MiB.
 * CUZK_ERR_NO_DEVICE without that device; CUZK_ERR_CUDA; CUZK_ERR_NOMEM. */
cuzk_status cuzk_cuda_backend_new(groth16_backend_t **out, int device, size_t vram_budget,
                                  cuzk_error_t *err);
/* One of `workers` backends of this process on the device, all under one
 * vram_budget (the device's, not a share of it): when the key and circuit
 * fit resident beside every worker's scratch, the backends proving with
 * the same key and circuit hold one copy of them (the first loads it, the
 * others wait for it; the last to let go frees it); otherwise each streams
 * the bases on its share of the budget, with its own circuit.
 * role DEVICE_ROLE_CRITICAL (the engine's critical lane) creates its
 * streams at the device's highest priority, so that its kernels run ahead
 * of the other backends' queued blocks.
 * cuzk_cuda_backend_new is this with workers = 1, DEVICE_ROLE_REGULAR. */
cuzk_status cuzk_cuda_backend_new_shared(groth16_backend_t **out, int device, size_t vram_budget,
                                         int workers, device_role role, cuzk_error_t *err);
void cuzk_cuda_backend_free(groth16_backend_t *be);

/* Device bytes a proof with pk and c needs under a budget (0: unbounded):
 * resident (key bases, circuit) and scratch (witness, H vectors, MSM
 * plans). streaming: the bases stream in chunks of chunk_points G1 points
 * (half as many G2); key_bytes is then the two chunk buffers'.
 * CUZK_ERR_NOMEM (with the numbers) when the budget is too small even for
 * streaming; *out is filled either way. */
typedef struct cuzk_cuda_plan {
    size_t key_bytes, circuit_bytes, scratch_bytes, total;
    int streaming;
    size_t chunk_points;
    /* streaming with the circuit streamed too (its CSR copied in blocks
     * per product) and the gathered A/B scalars in the H scratch vector:
     * the layout for budgets that cannot hold the circuit (bellperson) */
    int lean;
    /* streaming: the H-MSM's chunk, larger than chunk_points where the H
     * scratch and the witness vector, both free when the H-MSM runs last,
     * hold two such chunks and an MSM plan for them (fewer, larger MSMs);
     * else chunk_points */
    size_t h_chunk_points;
} cuzk_cuda_plan_t;
cuzk_status cuzk_cuda_backend_plan(cuzk_cuda_plan_t *out, const groth16_pk_t *pk,
                                   const circuit_t *c, size_t budget, cuzk_error_t *err);
/* The plan of `workers` backends made by cuzk_cuda_backend_new_shared:
 * resident when key + circuit + workers x scratch fit budget (total is that
 * sum: one copy of key and circuit); else each worker streams within
 * budget / workers (the numbers, total included, are one worker's, each
 * with its own circuit). workers = 1 is cuzk_cuda_backend_plan. */
cuzk_status cuzk_cuda_backend_plan_shared(cuzk_cuda_plan_t *out, const groth16_pk_t *pk,
                                          const circuit_t *c, size_t budget, int workers,
                                          cuzk_error_t *err);

/* How far a load got: done of total bytes (the engine's device_progress_fn). */
typedef void (*cuzk_cuda_progress_fn)(void *pctx, uint64_t done, uint64_t total);

/* Makes the backend hold pk and c on its device now, as the first proof
 * with them would (device_t.warm), calling progress (optional) as
 * the bytes reach the device: the circuit, then the bases in about 64
 * pieces (1 MiB to 1 GiB each). A backend whose copy another backend loads waits and reports
 * nothing, as does a streaming layout. Errors as a proof's. */
cuzk_status cuzk_cuda_backend_warm(groth16_backend_t *be, const groth16_pk_t *pk,
                                   const circuit_t *c, cuzk_cuda_progress_fn progress, void *pctx,
                                   cuzk_error_t *err);

/* Drops what the backend holds on the device (key, circuit, scratch). */
void cuzk_cuda_backend_evict(groth16_backend_t *be);

#ifdef __cplusplus
}
#endif
#endif
