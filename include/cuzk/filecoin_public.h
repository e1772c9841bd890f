/* The public values of a Filecoin proof: what a verifier needs besides the
 * proof bytes, and what `cuzk filecoin gen-vanilla` writes beside the
 * vanilla proofs it makes. One JSON object (cuzk's own format):
 *
 *   {"kind": "porep" | "winning-post" | "window-post" | "snap-deals" |
 *            "snap-deals-poseidon",
 *    "sector_size": 2048, "api": "1.1",
 *    "registered_proof": "StackedDrg2KiBV1_1",        (porep)
 *    "miner_id": 1000, "sector_id": 1, "partition": 0,
 *    "prover_id", "ticket", "seed", "randomness", "replica_id", "comm_d",
 *    "comm_r", "comm_r_old", "comm_d_new", "comm_r_new":  64 hex digits
 *        each, the 32 bytes as Filecoin stores them (an Fr little-endian),
 *    "h": 8                                            (snap-deals)
 *    "sectors": [{"id": 1, "comm_r": "..."}, ...]       (PoSt)}
 *
 * Which members a kind needs: porep registered_proof, replica_id, comm_d,
 * comm_r, seed (prover_id, ticket, miner_id, sector_id optional: when all
 * present, replica_id is checked against them); PoSt randomness, sectors
 * (WinningPoSt: the one challenged sector; WindowPoSt: the proof's sectors
 * in order, or with "partition" that partition's own); SnapDeals
 * comm_r_old, comm_d_new, comm_r_new, h (and "partition" for one
 * partition's proof). Unknown members are
 * refused (a typo never silently drops a value).
 *
 * Rules: outputs first; err names the member; reentrant. */
#ifndef CUZK_FILECOIN_PUBLIC_H
#define CUZK_FILECOIN_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Members present (bit per member). */
typedef enum fil_public_member {
    FIL_PUB_MINER_ID = 1u << 0,
    FIL_PUB_SECTOR_ID = 1u << 1,
    FIL_PUB_PARTITION = 1u << 2,
    FIL_PUB_PROVER_ID = 1u << 3,
    FIL_PUB_TICKET = 1u << 4,
    FIL_PUB_SEED = 1u << 5,
    FIL_PUB_RANDOMNESS = 1u << 6,
    FIL_PUB_REPLICA_ID = 1u << 7,
    FIL_PUB_COMM_D = 1u << 8,
    FIL_PUB_COMM_R = 1u << 9,
    FIL_PUB_COMM_R_OLD = 1u << 10,
    FIL_PUB_COMM_D_NEW = 1u << 11,
    FIL_PUB_COMM_R_NEW = 1u << 12,
    FIL_PUB_H = 1u << 13,
    FIL_PUB_SECTORS = 1u << 14,
    FIL_PUB_REGISTERED_PROOF = 1u << 15
} fil_public_member;

typedef struct fil_public {
    fil_circuit_kind kind;
    uint64_t sector_size;
    fil_api_version api;
    fil_seal_proof seal; /* porep */
    unsigned have;       /* fil_public_member bits */
    uint64_t miner_id, sector_id;
    unsigned partition, h;
    uint8_t prover_id[32], ticket[32], seed[32], randomness[32];
    uint8_t replica_id[32], comm_d[32], comm_r[32];
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    fil_post_pub_sector_t *sectors; /* n_sectors, owned */
    size_t n_sectors;
} fil_public_t;

/* Parses the JSON above and checks that the kind's members are there.
 * Returns CUZK_OK, CUZK_ERR_FORMAT (not JSON, a wrong type, an unknown or
 * missing member), CUZK_ERR_ARG (a value out of range), CUZK_ERR_NOMEM. */
cuzk_status fil_public_parse(fil_public_t *out, const uint8_t *json, size_t n, cuzk_error_t *err);
/* Checks what a kind needs (fil_public_parse does; for values set by
 * hand). */
cuzk_status fil_public_check(const fil_public_t *p, cuzk_error_t *err);
/* The JSON of p (malloc'd, NUL-terminated), members in the order above. */
cuzk_status fil_public_write(char **out, const fil_public_t *p, cuzk_error_t *err);
void fil_public_free(fil_public_t *p); /* the sectors; accepts a zeroed p */

/* 64 hex digits (either case) to the 32 bytes they spell, in order.
 * CUZK_ERR_FORMAT naming `what` and the first bad character. */
cuzk_status fil_hex32_parse(uint8_t out[32], const char *s, const char *what, cuzk_error_t *err);

/* prover_id as filecoin-proofs makes it from a miner id (Curio's
 * cuzk_funcs.go: the unsigned LEB128 of the id, zero padded). */
void fil_prover_id(uint8_t out[32], uint64_t miner_id);

/* The number of partitions the proof has (porep: the seal proof's;
 * WindowPoSt: by sector count; SnapDeals: the sector size's; 1 with
 * "partition"; WinningPoSt 1). */
unsigned fil_public_partitions(const fil_public_t *p);

/* The public inputs of partition i of the proof (with "partition" set,
 * i = 0 is that partition). */
cuzk_status fil_public_inputs(fr_t *out, size_t cap, size_t *n, const fil_public_t *p, unsigned i,
                              cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
