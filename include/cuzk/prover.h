/* The Groth16 prover, for both key conventions, over a backend.
 *
 * A proving key is a view: its bases stay where the key file is mapped
 * (msm_bases_t), the small points are decoded. The circuit (circuit.h)
 * carries every row the H computation needs: for snarkjs keys the rows of
 * zkey section 4 (public-input rows included, n_rows = domain size, no C);
 * for bellperson keys the R1CS rows followed by one row per input i with
 * A = w_i (ONE included), B = C = 0.
 *
 *   snarkjs:    omega from 5^((r-1)/2^32); p_i = A(x_i) B(x_i) - C(x_i) on
 *               the odd coset x_i = omega_2n^(2i+1), c = a.b row-wise;
 *               MSMs A, B1, B2 over all n_vars; L ("C") over w[n_public+1..];
 *               H over the n p_i.
 *   bellperson: omega from 7^((r-1)/2^32); h = coset-iNTT((a.b - c) /
 *               (7^m - 1)) on the coset 7; H over h[0..m-2]; A over inputs
 *               then aux with A-density; B over inputs and aux with
 *               B-density; L over all aux.
 * Then A = alpha + A_msm + r delta1, B = beta2 + B2_msm + s delta2,
 * C = L_msm + H_msm + s A + r (beta1 + B1_msm + s delta1) - r s delta1.
 * See ../shared/DESIGN.md §4. */
#ifndef CUZK_PROVER_H
#define CUZK_PROVER_H

#include <stddef.h>

#include "cuzk/backend.h"
#include "cuzk/circuit.h"
#include "cuzk/groth16.h"
#include "cuzk/pk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct groth16_prove_opts {
    int threads;   /* <= 0: all CPUs */
    int no_verify; /* skip the check before returning (benchmarks only) */
    /* Per-stage wall times in seconds, filled when non-NULL: the device's
     * parts (backend.h), then the check and the whole call. */
    struct groth16_timings {
        prove_times_t parts;
        double verify, total;
    } * timings;
} groth16_prove_opts_t;

/* Proves with blinding r, s (Montgomery fr_t; r = s = 0 gives the
 * deterministic proof). w has pk->n_vars elements with w[0] = 1.
 * Errors: CUZK_ERR_ARG for a witness or circuit that does not match the
 * key; CUZK_ERR_FORMAT "proof failed verification" when the witness does
 * not satisfy the circuit (callers that have the R1CS should run
 * circuit_check first to name the failing constraint). */
cuzk_status groth16_prove(groth16_proof_t *proof, const groth16_pk_t *pk, const circuit_t *c,
                          const fr_t *w, const fr_t *r, const fr_t *s, const groth16_backend_t *be,
                          const groth16_prove_opts_t *opts, cuzk_error_t *err);

/* groth16_prove over a packed witness (fr_pack.h; pw->n = pk->n_vars):
 * the backend's msms_packed takes it as it is, else it is expanded on the
 * host first (n values of memory for the call). The same proof as
 * groth16_prove over the expanded vector. */
cuzk_status groth16_prove_packed(groth16_proof_t *proof, const groth16_pk_t *pk, const circuit_t *c,
                                 const fr_pack_t *pw, const fr_t *r, const fr_t *s,
                                 const groth16_backend_t *be, const groth16_prove_opts_t *opts,
                                 cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
