/* snarkjs .wtns (version 2) witnesses over BLS12-381 r.
 *
 * File (iden3 container, magic "wtns", see src/formats/binfile.h):
 *   section 1 header: u32 n8 (= 32), prime (n8 bytes, = r), u32 nWitness;
 *   section 2 values: nWitness plain (not Montgomery) n8-byte little-endian
 *     integers, each < r.
 * Values come out as fr_t in Montgomery form, in wire order (w[0] = 1 for a
 * circom witness; not enforced here, see r1cs_check_witness).
 *
 * Rules: outputs first; err may be NULL; wtns_free releases (safe on a zeroed
 * or already freed struct). */
#ifndef CUZK_WTNS_H
#define CUZK_WTNS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wtns {
    fr_t *w;    /* n values, Montgomery form, owned */
    uint32_t n; /* nWitness */
} wtns_t;

/* Reads path (mapped, closed before returning) on `threads` threads for the
 * conversion (<= 0: all CPUs).
 * Returns: CUZK_ERR_IO, CUZK_ERR_FORMAT (container, sizes),
 * CUZK_ERR_NONCANONICAL (a value >= r; the message gives its index),
 * CUZK_ERR_UNSUPPORTED (another version or prime), CUZK_ERR_NOMEM.
 * On failure *out is zeroed. */
cuzk_status wtns_read(wtns_t *out, const char *path, int threads, cuzk_error_t *err);
/* The same from a buffer; name labels messages (NULL: "<buffer>"). */
cuzk_status wtns_read_mem(wtns_t *out, const uint8_t *data, size_t size, const char *name,
                          int threads, cuzk_error_t *err);
/* The same into the caller's dst, room for cap values (never freed here;
 * a reader that keeps reusable, e.g. page-locked, buffers): *n_out values
 * on success, 0 on failure (dst's contents then undefined).
 * CUZK_ERR_FORMAT also when the file holds more than cap values. */
cuzk_status wtns_read_mem_into(fr_t *dst, size_t cap, uint32_t *n_out, const uint8_t *data,
                               size_t size, const char *name, int threads, cuzk_error_t *err);
void wtns_free(wtns_t *w);
/* Writes n values (Montgomery fr_t) as a snarkjs .wtns version 2 (sections
 * header, values). Returns CUZK_ERR_ARG (NULL), CUZK_ERR_IO (a partial file
 * is removed), CUZK_ERR_NOMEM. */
cuzk_status wtns_write_file(const char *path, const fr_t *w, uint32_t n, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
