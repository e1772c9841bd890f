/* Filecoin's circuits by name and sector size: the one place that knows
 * which shape each production circuit has (rust-fil-proofs' filecoin-proofs
 * constants.rs: sector shapes, layers, partitions, PoSt sector and
 * challenge counts), and synthesizes it into any cs back end. The daemon,
 * `cuzk filecoin info` and `cuzk filecoin circuit` all come through here.
 *
 * Rules: outputs first; errors are CUZK_ERR_ARG naming the valid values. */
#ifndef CUZK_FILECOIN_CIRCUITS_H
#define CUZK_FILECOIN_CIRCUITS_H

#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fil_circuit_kind {
    FIL_CIRCUIT_POREP = 0,               /* StackedDrg, one partition */
    FIL_CIRCUIT_WINNING_POST = 1,        /* 66 sectors x 1 challenge */
    FIL_CIRCUIT_WINDOW_POST = 2,         /* the size's sector count x 10 challenges */
    FIL_CIRCUIT_SNAP_DEALS = 3,          /* EmptySectorUpdate, one partition (SHA-256 TreeD) */
    FIL_CIRCUIT_SNAP_DEALS_POSEIDON = 4, /* its Poseidon variant */
    FIL_CIRCUIT_COUNT = 5
} fil_circuit_kind;

/* "porep", "winning-post", "window-post", "snap-deals",
 * "snap-deals-poseidon"; "invalid" otherwise. */
const char *fil_circuit_kind_str(int kind);
/* The names above; CUZK_ERR_ARG listing them otherwise. */
cuzk_status fil_circuit_kind_parse(fil_circuit_kind *out, const char *s, cuzk_error_t *err);

/* The replica tree (tree_r_last, tree_c) of a sector size: 8-0-0 at 2 KiB,
 * 8 MiB, 512 MiB; 8-2-0 at 4 KiB, 16 MiB, 1 GiB; 8-8-0 at 16 KiB, 32 GiB;
 * 8-8-2 at 32 KiB, 64 GiB (constants.rs SectorShape*). */
cuzk_status fil_sector_tree(fil_tree_shape_t *out, uint64_t sector_size, cuzk_error_t *err);

/* WindowPoSt sectors per partition (WINDOW_POST_SECTOR_COUNT): 2 below
 * 32 GiB, 2349 at 32 GiB, 2300 at 64 GiB. */
cuzk_status fil_window_post_sectors(unsigned *out, uint64_t sector_size, cuzk_error_t *err);

/* Synthesizes the blank circuit (no values: CS_COUNT or CS_RECORD) of kind
 * at sector_size under api into cs. The PoRep takes the interactive proof
 * of that size and version (fil_seal_from_size), or under 1.2 the
 * non-interactive one (more partitions of the same circuit: 2 / 18
 * challenges each, as interactive); PoSt ignores api (its
 * versions differ in challenges only, not in the R1CS). Errors are the
 * cs's and *err's. SnapDeals derives its shape from the sector size
 * (filecoin_update.h) and ignores api. */
cuzk_status fil_circuit_synth_blank(cs_t *cs, fil_circuit_kind kind, uint64_t sector_size,
                                    fil_api_version api, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
