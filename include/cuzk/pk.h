/* The proving-key view the prover and every backend read (model layer):
 * the key's convention, its small points, and where each query's bases
 * live (bases.h: an mmapped file, a host array or device memory), plus
 * which witness wires each query takes (its density).
 *
 * A view borrows its bases; whoever made it (formats' key_load.h, or
 * groth16_key_pk over an in-memory key) says who releases what. */
#ifndef CUZK_PK_H
#define CUZK_PK_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/bases.h"
#include "cuzk/circuit.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The key kind: the two conventions of ../shared/DESIGN.md §4, the one
 * enum every layer uses for snarkjs vs bellperson (the daemon's registry
 * files: <id>.zkey for SNARKJS, <id>.params + <id>.ccs for BELLPERSON). */
typedef enum groth16_convention { GROTH16_SNARKJS = 0, GROTH16_BELLPERSON = 1 } groth16_convention;

/* "snarkjs", "bellperson", or "invalid". */
const char *groth16_convention_str(int conv);

typedef struct groth16_query {
    msm_bases_t bases;
    size_t n;
} groth16_query_t;

typedef struct groth16_pk {
    groth16_convention conv;
    uint32_t n_vars;   /* witness length, wire 0 = 1 */
    uint32_t n_public; /* public wires 1..n_public */
    unsigned log_m;    /* domain size m = 2^log_m */
    g1_affine_t alpha_g1, beta_g1, delta_g1;
    g2_affine_t beta_g2, delta_g2;
    groth16_query_t a, b_g1, b_g2, l, h;
    groth16_vk_t vk; /* for the check before a proof leaves */
} groth16_pk_t;

/* Which witness wires each query's bases belong to: for bellperson keys
 * A takes every input then the aux wires used in A, B the wires used in B
 * (a and b, malloc'd, ascending); for snarkjs keys every wire (a = b =
 * NULL: the identity). L always takes the n_l aux wires from n_public + 1.
 * CUZK_ERR_NOMEM with *q zeroed on failure. */
typedef struct groth16_query_indices {
    uint32_t *a, *b;
    size_t n_a, n_b, n_l;
} groth16_query_indices_t;

cuzk_status groth16_query_indices(groth16_query_indices_t *q, const groth16_pk_t *pk,
                                  const circuit_t *c, cuzk_error_t *err);
void groth16_query_indices_free(groth16_query_indices_t *q);

/* The key's query sizes against the counts in q (and H against the domain).
 * CUZK_ERR_ARG naming every count when they differ. A backend with its own
 * msms entry calls it when it takes a key: groth16_prove does not index
 * the queries for such a backend. */
cuzk_status groth16_query_check(const groth16_pk_t *pk, const groth16_query_indices_t *q,
                                cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
