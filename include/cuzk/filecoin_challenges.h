/* Filecoin's public-input derivations: the replica id, the PoRep challenges
 * and the PoSt challenges.
 *
 * Sources (RFP = filecoin-project/rust-fil-proofs@87348a7):
 *  - replica id: storage-proofs-porep/src/stacked/vanilla/params.rs
 *    generate_replica_id;
 *  - PoRep: stacked/vanilla/challenges.rs (InteractiveChallenges,
 *    NiChallenges, SynthChallengeGenerator, bigint_to_challenge);
 *  - PoSt: storage-proofs-post/src/fallback/vanilla.rs
 *    (generate_sector_challenge, generate_leaf_challenge_inner) and
 *    fallback/utils.rs (get_challenge_index).
 * Byte strings of 32 bytes are Filecoin domains as stored (an Fr is its
 * little-endian repr).
 *
 * Rules: outputs first; pointers are required; all functions reentrant. */
#ifndef CUZK_FILECOIN_CHALLENGES_H
#define CUZK_FILECOIN_CHALLENGES_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_proofs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* replica_id = SHA-256(prover_id || sector_id u64 BE || ticket || comm_d
 * || porep_id) with the top two bits of byte 31 cleared (so it is an Fr).
 * Returns CUZK_OK or CUZK_ERR_INTERNAL (OpenSSL). */
cuzk_status fil_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                           const uint8_t ticket[32], const uint8_t comm_d[32],
                           const uint8_t porep_id[32], cuzk_error_t *err);

/* The interactive PoRep challenges of partition k: for i < n, with
 * j = n * k + i (u32), the little-endian integer of SHA-256(replica_id ||
 * seed || j u32 LE), mod (nodes - 1), plus 1 (node 0 is never challenged).
 * n is the seal proof's challenges_per_partition. Returns CUZK_OK or
 * CUZK_ERR_ARG (nodes < 2 or >= 2^32, j past u32). */
cuzk_status fil_porep_challenges(uint64_t *out, size_t n, uint64_t nodes,
                                 const uint8_t replica_id[32], const uint8_t seed[32], unsigned k,
                                 cuzk_error_t *err);

/* The non-interactive PoRep challenges of partition k: as above with
 * SHA-256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id || comm_r ||
 * j u32 LE). */
cuzk_status fil_porep_ni_challenges(uint64_t *out, size_t n, uint64_t nodes,
                                    const uint8_t replica_id[32], const uint8_t comm_r[32],
                                    unsigned k, cuzk_error_t *err);

/* Synthetic PoRep (challenges.rs mod synthetic, SynthChallengeGenerator):
 * num_synth synthetic challenges (0 means the default, min(nodes, 2^18)),
 * challenge i from bytes [32 i, 32 i + 32) of the ChaCha20 (IETF: 96-bit
 * nonce "synth-porep\0", 32-bit block counter) keystream keyed by
 * BLAKE2b-256 keyed with "filecoin.io|PoRep|1|Synthetic|1|Generation" over
 * replica_id || comm_r, read as a little-endian integer, mod (nodes - 1),
 * plus 1. */
cuzk_status fil_porep_synth_challenge(uint64_t *out, uint64_t nodes, uint64_t num_synth,
                                      const uint8_t replica_id[32], const uint8_t comm_r[32],
                                      uint64_t i, cuzk_error_t *err);

/* The synthetic PoRep challenges of partition k: for i < n, the synthetic
 * challenge whose index is u32 LE number n * k + i of the ChaCha20
 * keystream keyed by BLAKE2b-256 keyed with
 * "filecoin.io|PoRep|1|Synthetic|1|Selection" over replica_id || seed,
 * mod num_synth. */
cuzk_status fil_porep_synth_challenges(uint64_t *out, size_t n, uint64_t nodes, uint64_t num_synth,
                                       const uint8_t replica_id[32], const uint8_t comm_r[32],
                                       const uint8_t seed[32], unsigned k, cuzk_error_t *err);

/* The index a PoSt leaf challenge hashes (utils.rs get_challenge_index):
 * sector_index * challenge_count + n under API 1.0 and 1.1, n under 1.2.
 * sector_index is the sector's place in the proof (WindowPoSt: partition *
 * sector_count + i; WinningPoSt: 0 ... 65). */
uint64_t fil_post_challenge_index(fil_api_version api, uint64_t sector_index,
                                  uint64_t challenge_count, uint64_t n);

/* A PoSt leaf challenge: the u64 LE of the first 8 bytes of
 * SHA-256(randomness || sector_id u64 LE || challenge_index u64 LE), mod
 * leaves (sector_size / 32). Returns CUZK_OK, or CUZK_ERR_ARG for 0
 * leaves. */
cuzk_status fil_post_leaf_challenge(uint64_t *out, const uint8_t randomness[32], uint64_t sector_id,
                                    uint64_t challenge_index, uint64_t leaves, cuzk_error_t *err);

/* A WinningPoSt sector challenge: the u64 LE of the first 8 bytes of
 * SHA-256(prover_id || randomness || n u64 LE), mod sector_set_len (the
 * index of the challenged sector in the prover's set). */
cuzk_status fil_post_sector_challenge(uint64_t *out, const uint8_t randomness[32], uint64_t n,
                                      uint64_t sector_set_len, const uint8_t prover_id[32],
                                      cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
