/* snarkjs Groth16 proving keys (.zkey, version 1) over BLS12-381.
 *
 * File (iden3 container, magic "zkey", see src/formats/binfile.h; sections
 * in any order):
 *   1  u32 protocol (1 = Groth16; PLONK 2 and FFLONK 10 are rejected)
 *   2  header: u32 n8q (= 48), q, u32 n8r (= 32), r, u32 nVars,
 *      u32 nPublic, u32 domainSize, then LEM points alpha_1, beta_1 (G1),
 *      beta_2, gamma_2 (G2), delta_1 (G1), delta_2 (G2)
 *   3  IC: nPublic + 1 G1 points (verifier only)
 *   4  A/B matrix entries: u32 count, then 44-byte records
 *      u32 matrix (0 = A, 1 = B) | u32 row | u32 wire | 32-byte value;
 *      the value is v * R^2 mod r (R = 2^256), i.e. "doubly Montgomery"
 *   5  A:  nVars G1        6  B1: nVars G1        7  B2: nVars G2
 *   8  C:  nVars - nPublic - 1 G1 (wires nPublic+1 ..)
 *   9  H:  domainSize G1 (odd-coset Lagrange points of the 2n domain)
 *   10 contributions (ignored)
 * Points are snarkjs LEM (encode.h): Montgomery little-endian affine, all
 * zero for infinity. See ../shared/testdata/snarkjs/README.md.
 *
 * Opening maps the file read-only and checks, always: the section table,
 * every section size exactly against the header counts, the primes, the
 * protocol, domainSize (a power of two >= 2), nPublic + 1 <= nVars, the
 * header and IC points (curve + subgroup), and every section-4 record
 * (matrix 0/1, row < domainSize, wire < nVars, value < r). ZKEY_CHECK_ALL
 * also checks every point of sections 5-9 on the curve and in the subgroup
 * (multi-threaded; seconds per million points). The point sections stay in
 * the mapping: zkey_points_t.data is read in place by the MSM (msm.h,
 * MSM_BASES_LEM), never copied.
 *
 * Rules: outputs first; err may be NULL; an open zkey_t is immutable and may
 * be shared between threads; zkey_close unmaps it (safe on a zeroed or
 * closed struct), after which every pointer into it is dangling. */
#ifndef CUZK_ZKEY_H
#define CUZK_ZKEY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/bases.h"
#include "cuzk/key.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum zkey_check {
    ZKEY_CHECK_HEADER = 0, /* everything but the points of sections 5-9 */
    ZKEY_CHECK_ALL = 1     /* and those, on the curve and in the subgroup */
} zkey_check;

typedef enum zkey_matrix { ZKEY_A = 0, ZKEY_B = 1 } zkey_matrix;

#define ZKEY_COEF_BYTES 44

typedef struct zkey_points {
    const uint8_t *data; /* count LEM records in the mapping; no alignment */
    uint64_t count;
} zkey_points_t;

typedef struct zkey {
    struct binfile *file; /* the mapping, owned */
    uint32_t n_vars;
    uint32_t n_public;
    uint32_t domain_size;
    uint32_t log_domain; /* domain_size = 1 << log_domain */
    g1_affine_t alpha_g1, beta_g1, delta_g1;
    g2_affine_t beta_g2, gamma_g2, delta_g2;
    g1_affine_t *ic; /* n_public + 1 decoded points, owned */
    size_t n_ic;
    const uint8_t *coefs; /* n_coefs raw 44-byte records (zkey_coefs_get) */
    uint64_t n_coefs;
    zkey_points_t a, b1, b2, c, h; /* G1, G1, G2, G1, G1 */
} zkey_t;

/* Maps path and validates it at the given level; threads <= 0: all CPUs.
 * Returns: CUZK_ERR_IO, CUZK_ERR_FORMAT (container, sizes, counts, records),
 * CUZK_ERR_NONCANONICAL / _NOT_ON_CURVE / _NOT_IN_SUBGROUP (a point or value;
 * the message names the section and index), CUZK_ERR_UNSUPPORTED (protocol,
 * version, primes), CUZK_ERR_NOMEM. On failure *z is closed. */
cuzk_status zkey_open(zkey_t *z, const char *path, zkey_check check, int threads,
                      cuzk_error_t *err);
/* The same over a caller-owned buffer that must outlive *z; name labels
 * messages (NULL: "<buffer>"). */
cuzk_status zkey_open_mem(zkey_t *z, const uint8_t *data, size_t size, const char *name,
                          zkey_check check, int threads, cuzk_error_t *err);
void zkey_close(zkey_t *z);

/* The ZKEY_CHECK_ALL pass on an open key: the first bad point of sections
 * 5, 6, 7, 8, 9 (in that order) is reported with its section and index. */
cuzk_status zkey_check_points(const zkey_t *z, int threads, cuzk_error_t *err);

/* Decodes section-4 records [start, start + count) into out (validated when
 * opened). Returns CUZK_ERR_ARG if the range is outside [0, n_coefs). */
cuzk_status zkey_coefs_get(zkey_coef_t *out, const zkey_t *z, uint64_t start, uint64_t count);

/* The MSM view of a point section. */
static inline msm_bases_t zkey_bases(const zkey_points_t *p)
{
    msm_bases_t b = {p->data, MSM_BASES_LEM};
    return b;
}

/* The verifying key (alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1,
 * delta_g2, IC copied); out->ic is malloc'd: groth16_vk_free (or free). */
cuzk_status zkey_to_vk(groth16_vk_t *out, const zkey_t *z, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
