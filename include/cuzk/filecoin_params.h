/* Filecoin's Groth16 parameter files by circuit and sector size: the names
 * rust-fil-proofs gives them and where they lie. A file is
 * "v28-<prefix>-<hex SHA-256 of the identifier>.<ext>", ext "params",
 * "vk" or "meta" (RFP@87348a7 storage-proofs-core parameter_cache.rs:
 * VERSION 28, CacheableParameters::cache_identifier). The prefix names
 * the circuit and its TreeR (cache_prefix of StackedCompound,
 * FallbackPoStCompound, EmptySectorUpdateCompound and its Poseidon
 * variant); the identifier is the public parameters' Rust formatting
 * (ParameterSetMetadata::identifier), e.g. for WindowPoSt at 32 GiB:
 *   FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count:
 *   10, sector_count: 2349}
 * Neither holds the porep id or the API version, so every seal proof of
 * a size (V1, V1_1, synthetic, non-interactive: all 2 or 18 challenges
 * per partition) shares one PoRep file, and PoSt and SnapDeals have one
 * file per size whatever the version.
 *
 * Rules: outputs first (a caller's buffer and its capacity in bytes,
 * NUL included), err last; pointers are required unless said otherwise;
 * errors are CUZK_ERR_ARG naming the valid values, or CUZK_ERR_ARG when
 * the buffer is too small (the message gives the size needed).
 * Thread safety: reentrant, except that fil_params_dir_default and a NULL
 * dir read the environment (not safe against a concurrent setenv). */
#ifndef CUZK_FILECOIN_PARAMS_H
#define CUZK_FILECOIN_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* parameter_cache.rs VERSION: bumped when a circuit changes. */
#define FIL_PARAMS_VERSION 28u

/* Buffer sizes that always suffice (the longest identifier, the 64 GiB
 * PoRep's, has 276 characters; the longest stem 144). */
#define FIL_PARAMS_ID_MAX 320u
#define FIL_PARAMS_STEM_MAX 192u

/* Settings::parameter_cache's default (storage-proofs-core settings.rs). */
#define FIL_PARAMS_DIR_FALLBACK "/var/tmp/filecoin-proof-parameters"

/* The identifier string of kind at sector_size under api, before hashing.
 * Sizes are fil_sector_tree's, except that the PoRep has registered seal
 * proofs only at 2KiB, 8MiB, 512MiB, 32GiB and 64GiB, and SnapDeals has
 * no 1GiB (storage-proofs-update constants.rs ALLOWED_SECTOR_SIZES).
 * The PoRep under 1.0 / 1.1 is the interactive proof, under 1.2 the
 * non-interactive one (the same file). Returns CUZK_OK or CUZK_ERR_ARG. */
cuzk_status fil_params_identifier(char *out, size_t cap, fil_circuit_kind kind,
                                  uint64_t sector_size, fil_api_version api, cuzk_error_t *err);

/* The file name without its extension: "v28-<prefix>-<64 hex digits>",
 * e.g. "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-
 * 0170db1f...". Returns CUZK_OK, CUZK_ERR_ARG, or CUZK_ERR_NOMEM /
 * CUZK_ERR_INTERNAL from OpenSSL. */
cuzk_status fil_params_stem(char *out, size_t cap, fil_circuit_kind kind, uint64_t sector_size,
                            fil_api_version api, cuzk_error_t *err);

/* $FIL_PROOFS_PARAMETER_CACHE when set and not empty, else
 * FIL_PARAMS_DIR_FALLBACK. Never NULL; valid until the environment
 * changes. */
const char *fil_params_dir_default(void);

/* Joins "<dir>/<stem>.<ext>" into out (no doubled '/' when dir ends in
 * one). dir NULL: fil_params_dir_default(). ext has no leading dot. With
 * must_exist, a file that is missing, not a regular file or unreadable is
 * CUZK_ERR_IO naming the file, the folder it was looked for in and how
 * to point elsewhere (--params-dir or FIL_PROOFS_PARAMETER_CACHE).
 * Returns CUZK_OK, CUZK_ERR_ARG or CUZK_ERR_IO. */
cuzk_status fil_params_path(char *out, size_t cap, const char *dir, const char *stem,
                            const char *ext, int must_exist, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
