/* The precompiled circuit: the R1CS matrices A, B, C in compressed sparse
 * row form, the shape every backend consumes (the CUDA backend uploads it
 * once and keeps it resident).
 *
 * Rows are constraints, columns are witness variables (wire 0 is the
 * constant one). Each entry stores a u32 column and a u32 index into one
 * shared coefficient dictionary: real circuits use few distinct
 * coefficients (1, -1, powers of two), so the dictionary stays tiny and an
 * entry is 8 bytes. Coefficients are fr_t in Montgomery form; entries with a
 * zero coefficient are dropped when added.
 *
 * Build with circuit_builder_* (rows in any order, terms in any order), then
 * circuit_builder_finish. Thread safety: a finished circuit is read-only and
 * may be shared. */
#ifndef CUZK_CIRCUIT_H
#define CUZK_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum circuit_matrix { CIRCUIT_A = 0, CIRCUIT_B = 1, CIRCUIT_C = 2 } circuit_matrix;

typedef struct circuit_csr {
    uint64_t *row_ptr; /* n_rows + 1 offsets into col / coef */
    uint32_t *col;
    uint32_t *coef; /* index into circuit_t.dict */
    uint64_t nnz;
} circuit_csr_t;

typedef struct circuit {
    uint32_t n_rows;   /* constraints */
    uint32_t n_vars;   /* witness length, wire 0 = 1 */
    uint32_t n_public; /* public wires 1..n_public (outputs, then public inputs) */
    circuit_csr_t m[3];
    fr_t *dict;
    uint32_t n_dict;
} circuit_t;

typedef struct circuit_builder circuit_builder_t;

/* Returns NULL when out of memory. */
circuit_builder_t *circuit_builder_new(uint32_t n_rows, uint32_t n_vars, uint32_t n_public);
/* Adds coef * w[col] to row `row` of matrix m. CUZK_ERR_ARG when row or col
 * is out of range (the message names them), CUZK_ERR_NOMEM on allocation. */
cuzk_status circuit_builder_add(circuit_builder_t *b, circuit_matrix m, uint32_t row, uint32_t col,
                                const fr_t *coef, cuzk_error_t *err);
/* Consumes the builder (also on failure). */
cuzk_status circuit_builder_finish(circuit_t *out, circuit_builder_t *b, cuzk_error_t *err);
void circuit_builder_free(circuit_builder_t *b);
void circuit_free(circuit_t *c);

/* out[r] = sum_j M[r][j] w[j] for every row r of matrix m (n_rows outputs);
 * multi-threaded (threads <= 0: all CPUs). */
cuzk_status circuit_eval(fr_t *out, const circuit_t *c, circuit_matrix m, const fr_t *w,
                         int threads);
/* Checks (A.w) * (B.w) == C.w row by row. Returns CUZK_OK and *bad_row =
 * UINT32_MAX when satisfied, else CUZK_OK with the first failing row. */
cuzk_status circuit_check(uint32_t *bad_row, const circuit_t *c, const fr_t *w, int threads);

#ifdef __cplusplus
}
#endif
#endif
