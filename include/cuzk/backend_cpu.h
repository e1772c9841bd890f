/* The CPU backend (src/backend/cpu): the reference every device is checked
 * against. Stateless; safe to share between threads. */
#ifndef CUZK_BACKEND_CPU_H
#define CUZK_BACKEND_CPU_H

#include "cuzk/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const groth16_backend_t GROTH16_BACKEND_CPU;

#ifdef __cplusplus
}
#endif
#endif
