/* circom .r1cs (version 1) constraint systems over BLS12-381 r.
 *
 * File (iden3 container, magic "r1cs", see src/formats/binfile.h):
 *   section 1 header: u32 n8 (= 32), prime (n8 bytes, = r), u32 nWires,
 *     u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels, u32 nConstraints;
 *   section 2 constraints: nConstraints x (A, B, C), each linear combination
 *     a u32 term count then (u32 wire, n8-byte plain coefficient < r) terms;
 *   section 3 wire -> label map (nWires u64), optional, size checked, unused;
 *   sections 4/5 (PLONK custom gates) are rejected as unsupported.
 * A constraint means <A_i, w> * <B_i, w> = <C_i, w>. Wire 0 is the constant
 * one, then outputs, public inputs, private inputs, internal signals.
 *
 * In memory each matrix is CSR: row i's terms are [row_ptr[i], row_ptr[i+1])
 * of col[] (wire) and coef[] (a u32 index into the shared coefficient
 * dictionary r1cs_t.coef, Montgomery fr_t). circom coefficients are almost
 * all 1, -1 or a handful of powers of two, so 8 bytes per term instead of 36,
 * and evaluation skips the multiplication for R1CS_COEF_ONE / _MINUS_ONE.
 * Every wire index is < n_wires and every coefficient was canonical (< r).
 *
 * Rules: outputs first; err may be NULL; an r1cs_t is immutable after
 * reading and may be shared between threads; r1cs_free releases it (safe on a
 * zeroed or already freed struct). */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum r1cs_matrix_id { R1CS_A = 0, R1CS_B = 1, R1CS_C = 2 } r1cs_matrix_id;

/* Fixed dictionary slots. */
#define R1CS_COEF_ONE 0u
#define R1CS_COEF_MINUS_ONE 1u

typedef struct r1cs_matrix {
    uint64_t *row_ptr; /* n_constraints + 1 */
    uint32_t *col;     /* nnz wire indices */
    uint32_t *coef;    /* nnz indices into r1cs_t.coef */
    uint64_t nnz;
} r1cs_matrix_t;

typedef struct r1cs {
    uint32_t n_wires;
    uint32_t n_pub_out;
    uint32_t n_pub_in;
    uint32_t n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
    r1cs_matrix_t m[3]; /* indexed by r1cs_matrix_id */
    fr_t *coef;         /* n_coef distinct values; [0] = 1, [1] = -1 */
    uint32_t n_coef;
} r1cs_t;

/* Reads and validates path (mapped, not copied; closed before returning).
 * Returns: CUZK_ERR_IO, CUZK_ERR_FORMAT (container, sizes, wire index),
 * CUZK_ERR_NONCANONICAL (coefficient >= r), CUZK_ERR_UNSUPPORTED (another
 * version, another prime, custom gates), CUZK_ERR_NOMEM. On failure *out is
 * zeroed. */
cuzk_status r1cs_read(r1cs_t *out, const char *path, cuzk_error_t *err);
/* The same from a buffer; name labels messages (NULL: "<buffer>"). */
cuzk_status r1cs_read_mem(r1cs_t *out, const uint8_t *data, size_t size, const char *name,
                          cuzk_error_t *err);
void r1cs_free(r1cs_t *r);

/* out[i - begin] = <M_i, w> for constraints begin <= i < end.
 * Returns CUZK_ERR_ARG if n_w != n_wires or the range is outside
 * [0, n_constraints]. Single-threaded: callers split rows across threads. */
cuzk_status r1cs_eval(fr_t *out, const r1cs_t *r, r1cs_matrix_id m, const fr_t *w, size_t n_w,
                      uint32_t begin, uint32_t end, cuzk_error_t *err);

/* Checks <A_i,w> <B_i,w> = <C_i,w> for every i, on `threads` threads
 * (<= 0: all CPUs). *first_failing = the smallest failing index, or -1 when
 * every constraint holds.
 * Returns CUZK_OK whenever the check could be made (satisfied or not: err is
 * untouched); CUZK_ERR_ARG if n_w != n_wires or w[0] != 1 (the constant
 * wire); CUZK_ERR_NOMEM. */
cuzk_status r1cs_check_witness(int64_t *first_failing, const r1cs_t *r, const fr_t *w, size_t n_w,
                               int threads, cuzk_error_t *err);

/* Writes rows [0, n_constraints) of c as a circom .r1cs version 1 that
 * r1cs_read and snarkjs read: nWires = c->n_vars, nPubOut = 0, nPubIn =
 * c->n_public, nPrvIn = 0, nLabels = nWires; sections header, constraints,
 * wire-to-label (the identity), in that order. Rows past n_constraints (a
 * bellperson circuit's input rows) are left out: snarkjs adds its own.
 * Returns: CUZK_ERR_ARG (n_constraints > c->n_rows), CUZK_ERR_IO (a partial
 * file is removed), CUZK_ERR_NOMEM. */
cuzk_status r1cs_write_circuit(const char *path, const circuit_t *c, uint32_t n_constraints,
                               cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
