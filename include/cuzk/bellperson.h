/* bellperson / Filecoin Groth16 formats: verifying keys (.vk), parameter
 * files (.params, bellperson's Parameters::write), proof bytes, and the
 * fil-blst .prf test files.
 *
 * Encodings (all big-endian; see encode.h for the point bytes):
 *   .vk      alpha_g1, beta_g1 (G1 uncompressed, 96), beta_g2, gamma_g2
 *            (G2 uncompressed, 192), delta_g1, delta_g2, u32 n_ic,
 *            n_ic x G1 (IC): 868 + 96 n_ic bytes.
 *   .params  the .vk bytes, then H, L, A, B_G1 (G1) and B_G2 (G2), each a
 *            u32 count followed by that many uncompressed points.
 *   proof    A (G1 compressed, 48) | B (G2 compressed, 96) | C (48) = 192
 *            bytes; the partitions of a multi-partition proof concatenated.
 *   input    an Fr element, 32 bytes, canonical (< r).
 *
 * Rules: outputs first, then inputs, sizes explicit; err may be NULL. Every
 * reader takes (bytes, length) and checks each read against the length; a
 * count read from a file is checked against the bytes that remain before
 * anything is allocated or indexed with it. Structures that own memory are
 * released by their _free / _close, which accept a zeroed structure and one
 * whose reader failed (readers leave it zeroed on failure).
 * Points from keys and proofs are checked on the curve and in the subgroup;
 * like bellman, IC points and proof points must not be infinity. The large
 * .params vectors are checked only in BELLPERSON_CHECK_ALL mode.
 * Thread safety: reentrant; an open params object is read-only and may be
 * shared between threads. */
#ifndef CUZK_BELLPERSON_H
#define CUZK_BELLPERSON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/bases.h"
#include "cuzk/fr.h"
#include "cuzk/proof.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BELLPERSON_PROOF_BYTES 192
#define BELLPERSON_INPUT_BYTES 32
/* .vk bytes before the IC points: 3 G1 + 3 G2 uncompressed + the u32 count. */
#define BELLPERSON_VK_FIXED_BYTES 868

/* ---- verifying keys (.vk) ---- */

/* Bytes of a .vk with n_ic IC points (SIZE_MAX when that does not fit). */
size_t bellperson_vk_bytes(size_t n_ic);

/* Reads a verifying key from the start of buf. With used non-NULL, *used
 * gets the number of bytes the key spans and bytes after it are allowed;
 * with used NULL the key must fill buf exactly. Every point is checked;
 * large IC vectors are decoded on all CPUs (parallel_for, threads <= 0). */
cuzk_status bellperson_vk_parse(groth16_vk_t *vk, size_t *used, const uint8_t *buf, size_t len,
                                cuzk_error_t *err);
/* Reads a whole .vk file. */
cuzk_status bellperson_vk_load(groth16_vk_t *vk, const char *path, cuzk_error_t *err);
/* Writes bellperson_vk_bytes(vk->n_ic) bytes to out. */
void bellperson_vk_write(uint8_t *out, const groth16_vk_t *vk);

/* ---- parameter files (.params) ---- */

/* A vector of encoded points in place (inside a mapping or buffer):
 * n points of 96 (G1) or 192 (G2) bytes starting at data. */
typedef struct bellperson_points {
    const uint8_t *data;
    uint64_t n;
} bellperson_points_t;

typedef enum bellperson_check {
    BELLPERSON_CHECK_KEY = 0, /* the vk's points are checked; vectors only sized */
    BELLPERSON_CHECK_ALL = 1  /* and every vector point: flags, canonical,
                                 curve, subgroup (multi-threaded) */
} bellperson_check;

typedef struct bellperson_params {
    groth16_vk_t vk;
    bellperson_points_t h, l, a, b_g1; /* G1 */
    bellperson_points_t b_g2;          /* G2 */
    const uint8_t *bytes;              /* the whole file */
    uint64_t size;
    void *map; /* private: the mapping when opened from a file */
    size_t map_len;
} bellperson_params_t;

/* Maps a .params file read-only (never copied into memory; files of tens of
 * GiB are fine) and lays out its vectors. threads: for BELLPERSON_CHECK_ALL
 * (<= 0: all CPUs). The first bad point is reported by vector and index. */
cuzk_status bellperson_params_open(bellperson_params_t *p, const char *path, bellperson_check chk,
                                   int threads, cuzk_error_t *err);
/* The same over a buffer the caller owns; p points into it, so buf must
 * outlive p (bellperson_params_close still frees the vk). */
cuzk_status bellperson_params_parse(bellperson_params_t *p, const uint8_t *buf, size_t len,
                                    bellperson_check chk, int threads, cuzk_error_t *err);
void bellperson_params_close(bellperson_params_t *p);
/* The MSM view of a vector (MSM_BASES_ZCASH, read in place). */
msm_bases_t bellperson_points_bases(const bellperson_points_t *v);

/* ---- proofs ---- */

/* Decodes one 192-byte proof (subgroup-checked, no infinity). */
cuzk_status bellperson_proof_read(groth16_proof_t *out, const uint8_t in[BELLPERSON_PROOF_BYTES],
                                  cuzk_error_t *err);
void bellperson_proof_write(uint8_t out[BELLPERSON_PROOF_BYTES], const groth16_proof_t *p);
/* k concatenated proofs; len must be exactly k * 192. */
cuzk_status bellperson_proofs_read(groth16_proof_t *out, size_t k, const uint8_t *in, size_t len,
                                   cuzk_error_t *err);
/* Writes k * 192 bytes. */
void bellperson_proofs_write(uint8_t *out, const groth16_proof_t *p, size_t k);

/* n public inputs of 32 bytes each (n * 32 bytes at in), non-canonical
 * values rejected. */
cuzk_status bellperson_inputs_read(fr_t *out, const uint8_t *in, size_t n, cuzk_error_t *err);
void bellperson_inputs_write(uint8_t *out, const fr_t *in, size_t n);

/* ---- fil-blst .prf test files ---- */

typedef enum bellperson_prf_layout {
    /* proof | u64 n_inputs | inputs | vk (the rest of the file) */
    BELLPERSON_PRF_SINGLE = 0,
    /* u64 n_proofs | u64 n_inputs | vk | n_proofs x (proof | inputs) */
    BELLPERSON_PRF_BATCH = 1,
    /* either, told apart by byte 0: a compressed point has the 0x80 flag,
     * a batch file's u64 proof count has a zero top byte. (window.prf is a
     * batch-layout file with one proof, though the README lists it as single.) */
    BELLPERSON_PRF_AUTO = 2
} bellperson_prf_layout;

typedef struct bellperson_prf {
    groth16_vk_t vk;
    groth16_proof_t *proofs; /* n_proofs */
    size_t n_proofs;
    fr_t *inputs;    /* n_proofs lists of n_inputs, concatenated */
    size_t n_inputs; /* per proof (the key's n_ic - 1 when consistent; not
                        checked here: groth16_verify does) */
} bellperson_prf_t;

cuzk_status bellperson_prf_parse(bellperson_prf_t *out, bellperson_prf_layout layout,
                                 const uint8_t *buf, size_t len, cuzk_error_t *err);
cuzk_status bellperson_prf_load(bellperson_prf_t *out, bellperson_prf_layout layout,
                                const char *path, cuzk_error_t *err);
void bellperson_prf_free(bellperson_prf_t *p);

#ifdef __cplusplus
}
#endif
#endif
