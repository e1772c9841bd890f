/* Filecoin's registered seal proofs: sector size, node count, porep id, API
 * version and the challenge layout of each, as rust-filecoin-proofs-api and
 * filecoin-proofs define them.
 *
 * Sources: API = filecoin-project/rust-filecoin-proofs-api@0e64ce8
 * (src/registry.rs: the ids, nonce, porep_id, version, partitions); RFP =
 * filecoin-project/rust-fil-proofs@87348a7 (filecoin-proofs/src/constants.rs:
 * layers, partitions, minimum challenges; parameters.rs: select_challenges).
 *
 * Rules: outputs first; pointers are required unless said otherwise; every
 * function is reentrant (the table is constant). */
#ifndef CUZK_FILECOIN_PROOFS_H
#define CUZK_FILECOIN_PROOFS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A node (a label, a leaf) is 32 bytes (RFP storage-proofs-core util.rs). */
#define FIL_NODE_SIZE 32u

/* The proofs API version of a registered proof. It decides the DRG slot
 * order and the expander truncation (filecoin_graph.h) and the PoSt
 * challenge index (filecoin_challenges.h). */
typedef enum fil_api_version {
    FIL_API_1_0 = 0, /* 1.0.0: the StackedDrg*V1 proofs */
    FIL_API_1_1 = 1, /* 1.1.0: the StackedDrg*V1_1 proofs */
    FIL_API_1_2 = 2  /* 1.2.0: synthetic and non-interactive PoRep */
} fil_api_version;

/* How a seal proof draws its challenges (stacked/vanilla/challenges.rs). */
typedef enum fil_porep_kind {
    FIL_POREP_INTERACTIVE = 0,
    FIL_POREP_SYNTHETIC = 1,
    FIL_POREP_NON_INTERACTIVE = 2
} fil_porep_kind;

/* RegisteredSealProof; the value is the registered id that porep_id
 * encodes (API registry.rs REGISTERED_PROOF_IDS). */
typedef enum fil_seal_proof {
    FIL_SEAL_2K_V1 = 0,
    FIL_SEAL_8M_V1 = 1,
    FIL_SEAL_512M_V1 = 2,
    FIL_SEAL_32G_V1 = 3,
    FIL_SEAL_64G_V1 = 4,
    FIL_SEAL_2K_V1_1 = 5,
    FIL_SEAL_8M_V1_1 = 6,
    FIL_SEAL_512M_V1_1 = 7,
    FIL_SEAL_32G_V1_1 = 8,
    FIL_SEAL_64G_V1_1 = 9,
    FIL_SEAL_2K_V1_1_SYNTH = 10,
    FIL_SEAL_8M_V1_1_SYNTH = 11,
    FIL_SEAL_512M_V1_1_SYNTH = 12,
    FIL_SEAL_32G_V1_1_SYNTH = 13,
    FIL_SEAL_64G_V1_1_SYNTH = 14,
    FIL_SEAL_2K_V1_2_NI = 15,
    FIL_SEAL_8M_V1_2_NI = 16,
    FIL_SEAL_512M_V1_2_NI = 17,
    FIL_SEAL_32G_V1_2_NI = 18,
    FIL_SEAL_64G_V1_2_NI = 19,
    FIL_SEAL_COUNT = 20
} fil_seal_proof;

typedef struct fil_seal_info {
    fil_seal_proof proof;
    const char *name;     /* the serde name, "StackedDrg32GiBV1_1" */
    uint64_t sector_size; /* bytes */
    uint64_t nodes;       /* sector_size / 32 */
    fil_api_version api;
    fil_porep_kind kind;
    unsigned layers;                   /* SDR layers: 2, or 11 at 32/64 GiB */
    unsigned partitions;               /* Groth16 proofs per sector */
    unsigned challenges_per_partition; /* ceil(minimum challenges / partitions) */
} fil_seal_info_t;

/* The row of p, or NULL when p is not a registered seal proof. */
const fil_seal_info_t *fil_seal_info(fil_seal_proof p);

/* The seal proof with the serde name `name` ("StackedDrg2KiBV1").
 * Returns CUZK_OK or CUZK_ERR_ARG (the message lists the valid names). */
cuzk_status fil_seal_from_name(fil_seal_proof *out, const char *name, cuzk_error_t *err);

/* The interactive seal proof of a sector size and API version (V1 for 1.0,
 * V1_1 for 1.1; 1.2 has no interactive proof). Returns CUZK_OK or
 * CUZK_ERR_ARG. */
cuzk_status fil_seal_from_size(fil_seal_proof *out, uint64_t sector_size, fil_api_version api,
                               cuzk_error_t *err);

/* porep_id (API registry.rs): registered id u64 LE || nonce u64 LE (0 for
 * every proof) || 16 zero bytes. Returns CUZK_OK or CUZK_ERR_ARG. */
cuzk_status fil_porep_id(uint8_t out[32], fil_seal_proof p, cuzk_error_t *err);

/* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (the published sizes) to bytes,
 * and back (NULL for another size). Returns CUZK_OK or CUZK_ERR_ARG. */
cuzk_status fil_sector_size_parse(uint64_t *out, const char *s, cuzk_error_t *err);
const char *fil_sector_size_str(uint64_t sector_size);

/* "1.0", "1.1", "1.2" (also "1.0.0" ...) and back ("1.0.0" ...). */
cuzk_status fil_api_version_parse(fil_api_version *out, const char *s, cuzk_error_t *err);
const char *fil_api_version_str(fil_api_version v);

#ifdef __cplusplus
}
#endif
#endif
