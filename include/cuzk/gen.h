/* Synthetic workloads: satisfiable R1CS circuits with the shape of a real
 * proof system's circuit, and their witnesses, for benchmarks and tests.
 *
 * Profile porep-32g (one partition of a Filecoin 32 GiB PoRep C2 proof,
 * measured on the real circuit): 130,278,541 constraints and 328 inputs
 * (ONE and 327 public values) at domain 2^27; non-zeros per row A 2.4, B
 * 1.0, C 2.2; A touches 99.7% of the aux variables, B 25.4% of them and one
 * input (ONE); the witness is mostly bits, a few percent wider values.
 * gen_porep_shape scales the counts by 2^(K - 27) for a domain 2^K (at least
 * one public value), and the generator builds (src/workloads/gen_porep.c):
 *   booleanity  (ONE - b) * b = 0          for free bits b (the witness input)
 *   xor         (2a) * b = a + b - c       c = a xor b
 *   and         a * b = c
 *   pack        (sum 2^i x_i) * ONE = z    k = 41..113 bits into one value
 *   mul         (x1 + x2 + x3) * y = z     wide values (y from a B pool)
 *   public      (sum 2^j b_j) * ONE = x_i  32 free bits into public input i
 * then the bellperson input rows (A = w_i for i = 0..n_public). Rows come in
 * independent blocks of GEN_BLOCK_ROWS that use only their own variables;
 * each block draws its structure from (seed, block) and its free bits from
 * (seed, partition, block), so the result does not depend on the thread
 * count, and different partitions are different witnesses of one circuit.
 * Every body row defines exactly one new variable: aux variable n_public +
 * 1 + r belongs to body row r.
 *
 * Rules: outputs first; err may be NULL; threads <= 0 means all CPUs. */
#ifndef CUZK_GEN_H
#define CUZK_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GEN_LOG_DOMAIN_MIN 10u
#define GEN_LOG_DOMAIN_MAX 27u
#define GEN_BLOCK_ROWS 16384u

typedef struct gen_shape {
    unsigned log_domain;
    uint32_t n_constraints; /* R1CS rows (body + public packing) */
    uint32_t n_public;      /* public wires 1..n_public */
    uint32_t n_inputs;      /* bellperson inputs: n_public + 1 */
    uint32_t n_rows;        /* n_constraints + n_inputs <= 2^log_domain */
    uint32_t n_vars;        /* 1 + n_public + body rows */
} gen_shape_t;

/* The porep-32g shape at domain 2^log_domain. CUZK_ERR_ARG outside
 * [GEN_LOG_DOMAIN_MIN, GEN_LOG_DOMAIN_MAX]. */
cuzk_status gen_porep_shape(gen_shape_t *out, unsigned log_domain, cuzk_error_t *err);

/* The circuit for shape s and seed (bellperson input rows included).
 * Memory: the CSR arrays only (two passes over the blocks: count, fill).
 * Returns CUZK_ERR_ARG (a shape gen_porep_shape did not make),
 * CUZK_ERR_NOMEM. On failure *out is zeroed. */
cuzk_status gen_porep_circuit(circuit_t *out, const gen_shape_t *s, uint64_t seed, int threads,
                              cuzk_error_t *err);

/* Partition `partition`'s witness of that circuit into w (s->n_vars values,
 * caller-owned; w[0] = 1, public values at 1..n_public). */
cuzk_status gen_porep_witness(fr_t *w, const gen_shape_t *s, uint64_t seed, uint32_t partition,
                              int threads, cuzk_error_t *err);

/* Profile statistics of any circuit: non-zeros per row, and how many aux
 * variables (n_public + 1 ..) and inputs (0 .. n_public) each matrix
 * touches. */
typedef struct gen_stats {
    uint32_t n_rows, n_vars, n_public;
    uint64_t nnz[3];
    uint64_t aux_touched[3];   /* aux variables with an entry in A, B, C */
    uint64_t input_touched[3]; /* inputs (ONE included) likewise */
    uint32_t n_dict;
} gen_stats_t;

cuzk_status gen_circuit_stats(gen_stats_t *out, const circuit_t *c, cuzk_error_t *err);

/* Witness values: zeros, ones, others. */
void gen_witness_stats(uint64_t *zeros, uint64_t *ones, uint64_t *others, const fr_t *w, size_t n);

#ifdef __cplusplus
}
#endif
#endif
