/* The backend interface: the few operations of a Groth16 proof that run on
 * a device (the CPU reference or CUDA). The prover calls only these, so CPU
 * and GPU share one prover and one test body. */
#ifndef CUZK_BACKEND_H
#define CUZK_BACKEND_H

#include <stddef.h>

#include "cuzk/bases.h"
#include "cuzk/circuit.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/pk.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The MSM results of one proof, and what each stage took (seconds). */
typedef struct groth16_msms {
    g1_jac_t a, b1, l, h; /* b1 is infinity when not asked for */
    g2_jac_t b2;
    double t_load;   /* key and circuit made resident (first proof with them) */
    double t_upload; /* witness to the device (0 on the CPU) */
    double t_h, t_a, t_b, t_l, t_hm;
} groth16_msms_t;

/* What a backend computes; the prover never knows which one runs. */
typedef struct groth16_backend {
    const char *name;
    void *ctx;
    /* p[0..m) = the H-MSM scalars of the key's convention (bellperson uses
     * the first m - 1) from the circuit and the witness. */
    cuzk_status (*h_scalars)(void *ctx, fr_t *p, const circuit_t *c, const fr_t *w,
                             unsigned log_m, groth16_convention conv, int threads,
                             cuzk_error_t *err);
    cuzk_status (*msm_g1)(void *ctx, g1_jac_t *out, const msm_bases_t *b, const fr_t *s,
                          size_t n, int threads);
    cuzk_status (*msm_g2)(void *ctx, g2_jac_t *out, const msm_bases_t *b, const fr_t *s,
                          size_t n, int threads);
    /* Optional (NULL: the prover runs h_scalars and the MSMs above):
     * everything between the witness and the final assembly in one call,
     * so that a device keeps its data resident across the stages. The key
     * and circuit are checked against each other by the prover first;
     * need_b1: B in G1 too (r != 0). */
    cuzk_status (*msms)(void *ctx, groth16_msms_t *out, const groth16_pk_t *pk,
                        const circuit_t *c, const fr_t *w, int need_b1, int threads,
                        cuzk_error_t *err);
} groth16_backend_t;

#ifdef __cplusplus
}
#endif
#endif
