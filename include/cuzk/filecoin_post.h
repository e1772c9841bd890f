/* The FallbackPoSt circuit (WinningPoSt and WindowPoSt), R1CS-exact to
 * rust-fil-proofs (RFP@87348a7: storage-proofs-post/src/fallback/
 * circuit.rs, Sector::synthesize; the extendable path that WindowPoSt
 * takes builds the same R1CS: its chunks' variables and constraints are
 * appended in sector order).
 *
 * Per sector, in order: comm_r_last, comm_c, comm_r (alloc), comm_r
 * inputized, comm_r = Poseidon-2(comm_c, comm_r_last) (hash2_circuit,
 * equal); then per challenge a PoR (por.rs) of the challenged leaf
 * (Root::Val: allocated) in the replica's tree, root comm_r_last, private.
 * A sector costs 313 + challenges x (PoR levels + 2) constraints: 5,615 for
 * a 32 GiB sector and one challenge (WinningPoSt: 66 sectors, 370,590).
 *
 * Rules: outputs first, then the cs; values are read only when
 * cs_has_values(cs); errors are the cs's (cs_status). */
#ifndef CUZK_FILECOIN_POST_H
#define CUZK_FILECOIN_POST_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_POST_MAX_CHALLENGES 10u

/* nodes per sector, the replica tree's shape (Poseidon), the challenges
 * per sector (1: WinningPoSt, 10: WindowPoSt). */
typedef struct fil_post_shape {
    uint64_t nodes;
    fil_tree_shape_t tree;
    unsigned challenges;
} fil_post_shape_t;

/* One sector's part of a vanilla proof (SectorProof) and its public comm_r;
 * leaf and root inside the paths are not read. */
typedef struct fil_post_sector {
    fr_t comm_r, comm_c, comm_r_last;
    fr_t leafs[FIL_POST_MAX_CHALLENGES];
    fil_merkle_path_t paths[FIL_POST_MAX_CHALLENGES];
} fil_post_sector_t;

/* CUZK_ERR_ARG naming the field: a Poseidon tree of that shape over nodes,
 * 1..FIL_POST_MAX_CHALLENGES challenges. */
cuzk_status fil_post_shape_check(const fil_post_shape_t *shape, cuzk_error_t *err);

/* A sector with blank paths and zero values (count and record runs). */
cuzk_status fil_post_sector_blank(fil_post_sector_t *out, const fil_post_shape_t *shape,
                                  cuzk_error_t *err);

/* Sector::synthesize of one sector; a circuit of n sectors is n calls in
 * order (a partition padded as filecoin-proofs pads it repeats its last
 * sector). */
void fil_cs_post_sector(cs_t *cs, const fil_post_shape_t *shape, const fil_post_sector_t *s);

/* The circuit of a partition: sector_count sectors, sectors[0..n_sectors)
 * then the last of them repeated (compound.rs circuit() pads so), each in
 * namespace "sector i". The same R1CS as sector_count fil_cs_post_sector
 * calls; the sectors are cs_parallel tasks, so a CS_WITNESS cs whose
 * cs_set_threads allows it fills them in parallel, bit-identical. A sector
 * whose paths do not have the shape's levels fails the cs naming it; so do
 * n_sectors of 0 or more than sector_count (CUZK_ERR_ARG). */
void fil_cs_post(cs_t *cs, const fil_post_shape_t *shape, const fil_post_sector_t *sectors,
                 unsigned n_sectors, unsigned sector_count);

#ifdef __cplusplus
}
#endif
#endif
