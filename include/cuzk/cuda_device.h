/* A CUDA GPU as a device (device.h), proving with the CUDA backend
 * (cuda_backend.h): `workers` backends under one VRAM budget.
 *
 * Accounting (cuzk_cuda_backend_plan_shared): when the key, the circuit
 * and every worker's scratch fit the budget, the workers share one resident
 * copy of key and circuit (resident bytes: one copy, layout resident);
 * otherwise each worker streams with its own circuit and chunk buffers on
 * its share of the budget (resident bytes: workers x those; layout
 * streamed, or lean when the circuit streams too). Scratch is one proof's
 * per-proof buffers. A proof then plans under the budget the engine
 * admitted and fails if that plan's layout is not the admitted one. Witness
 * buffers come from page-locked memory; a preload loads the key at once
 * (warm). Defined in libcuzk_cuda (builds with nvcc only). */
#ifndef CUZK_CUDA_DEVICE_H
#define CUZK_CUDA_DEVICE_H

#include <stddef.h>

#include "cuzk/device.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The provider's state; it must outlive every user of the device_t. */
typedef struct cuda_device {
    int index;     /* the CUDA device ordinal */
    char name[16]; /* "cuda:N", what device_t.name points to */
    size_t budget;
    int workers;
} cuda_device_t;

/* Fills *out with callbacks on *ctx for CUDA device `index` with
 * vram_budget bytes (> 0) and workers (1..64) proofs at once.
 * CUZK_ERR_NO_DEVICE when there is no such device; CUZK_ERR_ARG. */
cuzk_status cuda_device_open(device_t *out, cuda_device_t *ctx, int index, size_t vram_budget,
                             int workers, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
