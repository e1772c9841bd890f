/* The cuzk precompiled circuit file (.ccs): a circuit_t stored exactly.
 *
 * Layout (every integer little-endian):
 *   header, 64 bytes:
 *     magic "cuzkccs\0" (8) | u32 version (= 1) | u32 n_sections (= 10) |
 *     u32 n_rows | u32 n_vars | u32 n_public | u32 n_dict |
 *     u64 nnz_a | u64 nnz_b | u64 nnz_c | u64 0 (reserved)
 *   section table, n_sections x 32 bytes:
 *     u32 id | u32 0 | u64 offset | u64 size | u64 checksum
 *   sections, in id order, each starting at a multiple of 64 bytes (zero
 *   padding between them, none after the last), so that a mapped file can
 *   be used in place:
 *     0 dictionary: n_dict x 32-byte plain (not Montgomery) Fr, canonical,
 *       nonzero;
 *     1 + 3m, 2 + 3m, 3 + 3m for matrix m = A, B, C: row_ptr ((n_rows + 1)
 *       x u64), col (nnz x u32), coef (nnz x u32 dictionary indices).
 *   checksum: ccs_checksum of the section's bytes (a 64-bit multiply-rotate
 *   hash over 8-byte words, 4 lanes; stable across versions 1).
 * The section sizes follow from the header, so the table is redundant by
 * design: the reader checks that every entry says exactly what the header
 * implies before it allocates anything.
 *
 * A valid circuit (what the writer accepts and the reader returns):
 * n_public + 1 <= n_vars; row_ptr[0] = 0, non-decreasing, row_ptr[n_rows] =
 * nnz; every col < n_vars; every coef < n_dict; dictionary entries canonical
 * and nonzero.
 *
 * Rules: outputs first; err may be NULL; on failure *out is zeroed
 * (circuit_free is harmless). The reader streams the file straight into the
 * circuit's arrays (one copy in memory, never the file and the arrays), and
 * never trusts a count before checking it against the file size. */
#ifndef CUZK_CCS_H
#define CUZK_CCS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CCS_VERSION 1u
#define CCS_HEADER_BYTES 64u
#define CCS_N_SECTIONS 10u
#define CCS_ENTRY_BYTES 32u
#define CCS_ALIGN 64u

/* The checksum of n bytes (the words of the last partial word zero-padded).
 * Deterministic, not cryptographic: it catches corruption, not forgery. */
uint64_t ccs_checksum(const void *data, size_t n);

/* Checks the invariants above on an in-memory circuit. CUZK_ERR_ARG naming
 * the first violation. */
cuzk_status ccs_validate(const circuit_t *c, cuzk_error_t *err);

/* Writes c to path (streamed; a partial file is removed on failure).
 * Returns: CUZK_ERR_ARG (invalid circuit), CUZK_ERR_IO, CUZK_ERR_NOMEM. */
cuzk_status ccs_write_file(const char *path, const circuit_t *c, cuzk_error_t *err);

/* Reads and validates path. threads (<= 0: all CPUs) share the checks.
 * Returns: CUZK_ERR_IO, CUZK_ERR_FORMAT (magic, sizes, table, checksum,
 * structure), CUZK_ERR_NONCANONICAL (a dictionary entry >= r),
 * CUZK_ERR_UNSUPPORTED (another version), CUZK_ERR_NOMEM. */
cuzk_status ccs_read_file(circuit_t *out, const char *path, int threads, cuzk_error_t *err);
/* The same from a buffer; name labels messages (NULL: "<buffer>"). */
cuzk_status ccs_read_mem(circuit_t *out, const uint8_t *data, size_t size, const char *name,
                         int threads, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
