/* The CPU backend (src/backend/cpu): the reference every device is checked
 * against. Stateless; safe to share between threads. */
#ifndef CUZK_BACKEND_CPU_H
#define CUZK_BACKEND_CPU_H

#include <stddef.h>

#include "cuzk/backend.h"
#include "cuzk/device.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const groth16_backend_t GROTH16_BACKEND_CPU;

/* The CPU as a device (device.h) of `workers` proofs at once, each on
 * GROTH16_BACKEND_CPU. Its budget is host memory (0: no limit): a plan is
 * always resident (the CPU reads the key where it lies), counting the key
 * and circuit (cpu_device_key_bytes) as kept while the key is, and a
 * proof's working vectors (cpu_device_proof_bytes) as its scratch;
 * CUZK_ERR_NOMEM when they exceed the budget. CUZK_ERR_ARG: workers not in
 * 1..64. */
cuzk_status cpu_device_open(device_t *out, size_t budget, int workers, cuzk_error_t *err);
size_t cpu_device_key_bytes(const groth16_pk_t *pk, const circuit_t *c);
size_t cpu_device_proof_bytes(const groth16_pk_t *pk);

#ifdef __cplusplus
}
#endif
#endif
