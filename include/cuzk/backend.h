/* The backend interface: the few operations of a Groth16 proof that run on
 * a device (the CPU reference or CUDA). The prover calls only these, so CPU
 * and GPU share one prover and one test body. */
#ifndef CUZK_BACKEND_H
#define CUZK_BACKEND_H

#include <stddef.h>

#include "cuzk/bases.h"
#include "cuzk/circuit.h"
#include "cuzk/fr_pack.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/pk.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parts of one proof on a device, in the order they run. The one
 * record of stage times: the backend fills it, the prover, the engine
 * (its events ENGINE_STAGE_LOAD + part) and the daemon pass it on whole. */
typedef enum prove_part {
    PROVE_LOAD = 0,   /* key and circuit made resident (first proof with them) */
    PROVE_UPLOAD = 1, /* witness to the device (0 on the CPU) */
    PROVE_H = 2,      /* the H scalars: SpMV, NTTs, pointwise */
    PROVE_MSM_A = 3,
    PROVE_MSM_B = 4, /* B in G2 and, when asked for, in G1 */
    PROVE_MSM_L = 5,
    PROVE_MSM_H = 6,
    PROVE_PART_COUNT = 7
} prove_part;

/* Seconds per part. */
typedef struct prove_times {
    double s[PROVE_PART_COUNT];
} prove_times_t;

/* "load", "upload", "h", "msm_a", "msm_b", "msm_l", "msm_h"; "invalid". */
const char *prove_part_str(int part);

/* Where a proof's key and circuit live while it runs (device.h's plan). */
typedef enum device_layout {
    DEVICE_RESIDENT = 0, /* key and circuit on the device, reusable by the next proof */
    DEVICE_STREAMED = 1, /* the bases stream from host memory in chunks */
    DEVICE_LEAN = 2,     /* streamed, and the circuit's matrices stream too */
} device_layout;

/* What a device's admission ledger granted the next proof on a backend
 * (the engine decides; the backend never re-decides): the budget the
 * engine planned with (device_t.plan's) and the layout that plan gave,
 * which the backend's own plan under that budget must equal (it fails the
 * proof otherwise); and whether the resident part is reserved across
 * proofs (kept) or for this proof only (travels: the engine evicts the
 * backend after the proof, so nothing stays on the device unreserved). */
typedef struct device_admit {
    size_t budget;
    int kept;
    device_layout layout;
} device_admit_t;

/* The MSM results of one proof, and what each part took. */
typedef struct groth16_msms {
    g1_jac_t a, b1, l, h; /* b1 is infinity when not asked for */
    g2_jac_t b2;
    prove_times_t t;
} groth16_msms_t;

/* What a backend computes; the prover never knows which one runs. */
typedef struct groth16_backend {
    const char *name;
    void *ctx;
    /* p[0..m) = the H-MSM scalars of the key's convention (bellperson uses
     * the first m - 1) from the circuit and the witness. */
    cuzk_status (*h_scalars)(void *ctx, fr_t *p, const circuit_t *c, const fr_t *w, unsigned log_m,
                             groth16_convention conv, int threads, cuzk_error_t *err);
    cuzk_status (*msm_g1)(void *ctx, g1_jac_t *out, const msm_bases_t *b, const fr_t *s, size_t n,
                          int threads);
    cuzk_status (*msm_g2)(void *ctx, g2_jac_t *out, const msm_bases_t *b, const fr_t *s, size_t n,
                          int threads);
    /* Optional (NULL: the prover runs h_scalars and the MSMs above):
     * everything between the witness and the final assembly in one call,
     * so that a device keeps its data resident across the stages. The key
     * and circuit are checked against each other by the prover first;
     * need_b1: B in G1 too (r != 0). */
    cuzk_status (*msms)(void *ctx, groth16_msms_t *out, const groth16_pk_t *pk, const circuit_t *c,
                        const fr_t *w, int need_b1, int threads, cuzk_error_t *err);
    /* Optional (NULL: the prover expands a packed witness on the host and
     * proves from the vector): everything msms does, over a packed
     * witness (fr_pack.h) expanded where the device reads it, so the bus
     * carries the pack and not n 32-byte values. */
    cuzk_status (*msms_packed)(void *ctx, groth16_msms_t *out, const groth16_pk_t *pk,
                               const circuit_t *c, const fr_pack_t *w, int need_b1, int threads,
                               cuzk_error_t *err);
    /* Optional (NULL: the backend plans under its own budget, as for a
     * direct groth16_prove): the admission for the proofs that follow,
     * called by the engine before each proof. */
    void (*admit)(void *ctx, const device_admit_t *a);
} groth16_backend_t;

#ifdef __cplusplus
}
#endif
#endif
