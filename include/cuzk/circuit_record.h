/* A recorded constraint system (cs.h, CS_RECORD) as the prover's circuit
 * (circuit.h), for bellperson-convention keys: the recorded constraints in
 * order, then the prover's one row per public input (ONE included) with
 * A = input_i, B = C = 0 (BP:src/groth16/prover/native.rs; DESIGN.md §4).
 * Columns follow circuit.h: ONE, the inputs, then the aux variables.
 * Terms whose coefficient merged to zero are dropped (they add nothing to
 * any product and count in no density). This is the circuit a .ccs file
 * holds (ccs.h).
 *
 * Rules: *out is zeroed on failure (circuit_free is harmless); the cs must
 * have finished synthesis without error. */
#ifndef CUZK_CIRCUIT_RECORD_H
#define CUZK_CIRCUIT_RECORD_H

#include "cuzk/circuit.h"
#include "cuzk/cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns: CUZK_OK; CUZK_ERR_ARG (cs not in CS_RECORD mode, or with an
 * error of its own: its message; more than 2^32 - 1 rows or variables);
 * CUZK_ERR_NOMEM. */
cuzk_status circuit_from_record(circuit_t *out, const cs_t *cs, cuzk_error_t *err);
/* The same, taking the record over (cs_record_take) and converting it in
 * place: the peak is the record's own size, not twice it. The cs keeps its
 * counts; its record is gone, also on failure. */
cuzk_status circuit_from_record_take(circuit_t *out, cs_t *cs, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
