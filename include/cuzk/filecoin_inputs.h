/* The public inputs of a Filecoin partition proof, derived from public
 * values alone, exactly as filecoin-proofs derives them to verify (and as
 * the circuits expose them: a proof verifies only if both agree).
 *
 * Sources (RFP = rust-fil-proofs@87348a7):
 *  - PoRep: storage-proofs-porep/src/stacked/circuit/proof.rs
 *    StackedCompound::generate_public_inputs; the partition's challenges
 *    from stacked/vanilla/params.rs PublicInputs::challenges (interactive:
 *    seed; synthetic: replica_id, comm_r, seed; non-interactive: comm_r).
 *    [replica_id, comm_d, comm_r], then per challenge c: c (its comm_d path,
 *    packed), its 6 DRG and 8 expander parents (their comm_c paths), c (the
 *    UInt64), c (comm_r_last path), c (comm_c path): 3 + 18 per challenge.
 *  - PoSt: storage-proofs-post/src/fallback/compound.rs
 *    generate_public_inputs; filecoin-proofs/src/parameters.rs
 *    winning_post_setup_params / window_post_setup_params. Partition k takes
 *    sectors [k * sector_count, ...); per sector comm_r, then per
 *    challenge the leaf (its path, packed); a short partition repeats its
 *    last sector's inputs. WinningPoSt's circuit is 66 sectors x 1
 *    challenge and its verifier lists the one challenged sector 66 times
 *    (winning_post.rs verify_winning_post): fil_post_winning_sectors.
 *  - SnapDeals: filecoin_update.h fil_update_public_inputs.
 *
 * Byte strings of 32 bytes are Filecoin domains as stored (an Fr's
 * little-endian repr); those that become inputs must be canonical
 * (CUZK_ERR_NONCANONICAL naming the value), as must PoSt randomness
 * (as_safe_commitment).
 *
 * Rules: outputs first; out holds cap elements, *n gets the count (too
 * small a cap is CUZK_ERR_ARG saying how many are needed); pointers are
 * required; reentrant. */
#ifndef CUZK_FILECOIN_INPUTS_H
#define CUZK_FILECOIN_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inputs per PoRep challenge and before the first one. */
#define FIL_POREP_INPUTS_PER_CHALLENGE 18u
#define FIL_POREP_INPUTS_HEADER 3u

/* The challenges of partition k (challenges_per_partition of them) of
 * proof, by its kind (fil_seal_info): seed is read by interactive and
 * synthetic proofs, comm_r by synthetic and non-interactive ones. Returns
 * CUZK_OK, CUZK_ERR_ARG (unknown proof, k >= partitions, cap too small),
 * CUZK_ERR_INTERNAL (hashing). */
cuzk_status fil_porep_partition_challenges(uint64_t *out, size_t cap, size_t *n,
                                           fil_seal_proof proof, const uint8_t replica_id[32],
                                           const uint8_t comm_r[32], const uint8_t seed[32],
                                           unsigned k, cuzk_error_t *err);

/* The inputs of a PoRep partition whose challenges are given (each in
 * [1, nodes)): what fil_porep_inputs lists after deriving them. For
 * checking inputs whose seed is not known (real proofs). */
cuzk_status fil_porep_inputs_at(fr_t *out, size_t cap, size_t *n, fil_seal_proof proof,
                                const uint8_t replica_id[32], const uint8_t comm_d[32],
                                const uint8_t comm_r[32], const uint64_t *challenges,
                                size_t n_challenges, cuzk_error_t *err);

/* The inputs of PoRep partition k. */
cuzk_status fil_porep_inputs(fr_t *out, size_t cap, size_t *n, fil_seal_proof proof,
                             const uint8_t replica_id[32], const uint8_t comm_d[32],
                             const uint8_t comm_r[32], const uint8_t seed[32], unsigned k,
                             cuzk_error_t *err);

/* FallbackPoSt's public parameters for a kind (winning-post or
 * window-post) and sector size: 66 sectors x 1 challenge, or the size's
 * WindowPoSt sector count x 10 challenges. */
typedef struct fil_post_params {
    fil_circuit_kind kind;
    uint64_t sector_size;
    unsigned sector_count;    /* sectors per partition (circuit) */
    unsigned challenge_count; /* challenges per sector */
    fil_api_version api;
} fil_post_params_t;

cuzk_status fil_post_params(fil_post_params_t *out, fil_circuit_kind kind, uint64_t sector_size,
                            fil_api_version api, cuzk_error_t *err);

/* A public sector (PublicSector): its id and comm_r. */
typedef struct fil_post_pub_sector {
    uint64_t id;
    uint8_t comm_r[32];
} fil_post_pub_sector_t;

/* The leaf challenges of the sector at place sector_index of the proof's
 * sector list (out[0..challenge_count)). */
cuzk_status fil_post_sector_leaves(uint64_t *out, const fil_post_params_t *pp,
                                   const uint8_t randomness[32], uint64_t sector_id,
                                   uint64_t sector_index, cuzk_error_t *err);

/* The number of partitions a sector list needs (at least 1). */
unsigned fil_post_partitions(const fil_post_params_t *pp, size_t n_sectors);

/* The inputs of partition k over the proof's whole sector list
 * (sector_count x (1 + challenge_count) of them). CUZK_ERR_ARG when
 * partition k holds no sector. */
cuzk_status fil_post_inputs(fr_t *out, size_t cap, size_t *n, const fil_post_params_t *pp,
                            const uint8_t randomness[32], const fil_post_pub_sector_t *sectors,
                            size_t n_sectors, unsigned k, cuzk_error_t *err);

/* The same from partition k's own sectors (1..sector_count of them), as a
 * prover of one partition holds them (window_post.rs
 * generate_single_window_post_with_vanilla): sector i is at place
 * k * sector_count + i of the proof. */
cuzk_status fil_post_partition_inputs(fr_t *out, size_t cap, size_t *n, const fil_post_params_t *pp,
                                      const uint8_t randomness[32],
                                      const fil_post_pub_sector_t *sectors, size_t n_sectors,
                                      unsigned k, cuzk_error_t *err);

/* WinningPoSt's verifier-side sector list: the challenged sector repeated
 * sector_count (66) times into out (which holds pp->sector_count). */
void fil_post_winning_sectors(fil_post_pub_sector_t *out, const fil_post_params_t *pp,
                              const fil_post_pub_sector_t *sector);

#ifdef __cplusplus
}
#endif
#endif
