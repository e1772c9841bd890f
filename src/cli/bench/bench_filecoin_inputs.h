/* The inputs of `cuzk bench filecoin`: real Filecoin partitions made from
 * sectors sealed in memory, exactly as `cuzk filecoin gen-vanilla` and
 * `cuzk filecoin prove` make them, with the public values a verifier
 * derives each partition's inputs from (filecoin_public.h).
 *
 *  - porep: one sector of the size's seal proof (1.2: its non-interactive
 *    proof), every partition's challenges drawn from a seed
 *    (fil_porep_partition_challenges) and opened (fil_sealed_porep_challenge);
 *  - winning-post: one sector, its 66 leaf challenges spread over the
 *    circuit's 66 sectors (post_util.rs single_partition_vanilla_proofs);
 *  - window-post: `partitions` x the size's sector count sectors, each
 *    opened at the 10 leaves of its place in the proof
 *    (fil_post_sector_leaves), sealed on parallel threads;
 *  - snap-deals: one sector updated with new data (fil_snap_encode, h the
 *    shape's hs[3], as gen-vanilla does), every partition's vanilla proof
 *    turned into the circuit's witness (fil_snap_vproof_witness).
 * Sectors up to FIL_SEAL_DENSE_MAX_SIZE are sealed densely (fil_seal);
 * larger ones sparsely (fil_seal_sparse: only what the proof opens is
 * real). SnapDeals above it is refused: fil_snap_encode keeps every node.
 * Everything is drawn from `seed` (data, ticket, PoRep seed, randomness),
 * so a run is reproducible.
 *
 * Rules: outputs first, err last (may be NULL); the inputs are read-only
 * once made (any number of witness threads may read them); free with
 * bench_fil_inputs_free, which accepts a zeroed struct. */
#ifndef CUZK_CLI_BENCH_FILECOIN_INPUTS_H
#define CUZK_CLI_BENCH_FILECOIN_INPUTS_H

#include <stdint.h>

#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_public.h"
#include "cuzk/filecoin_update.h"
#include "cuzk/status.h"

typedef struct bench_fil_inputs {
    fil_public_t pub;          /* fil_public_inputs(.., &pub, k) gives partition k's inputs */
    unsigned partitions;       /* the proof's partitions: parts[0..partitions) */
    fil_partition_t *parts;    /* what each partition's circuit reads */
    uint64_t sectors;          /* sectors sealed */
    int sparse;                /* sealed sparsely */
    const char *seal_name;     /* the sectors' seal proof ("StackedDrg2KiBV1_1") */
    fil_porep_challenge_t *ch; /* porep: partitions x challenges */
    fil_post_sector_t *secs;   /* PoSt: the circuit's sectors, partition after partition */
    fil_update_witness_t *uw;  /* snap-deals: one per partition */
} bench_fil_inputs_t;

/* Makes one proof's inputs of kind at sector_size under api.
 * window_partitions: window-post's partitions (each of the size's sector
 * count of distinct sectors; >= 1); the other kinds take their real
 * count. threads: parallel.h rules (<= 0: every CPU).
 * Returns CUZK_OK; CUZK_ERR_ARG (a kind, size or version without a seal
 * proof); CUZK_ERR_UNSUPPORTED (SnapDeals above FIL_SEAL_DENSE_MAX_SIZE;
 * the sparse sealer's refusals); the sealer's and the vanilla proofs'
 * errors; CUZK_ERR_NOMEM. On failure *out is freed and zeroed. */
cuzk_status bench_fil_inputs_make(bench_fil_inputs_t *out, fil_circuit_kind kind,
                                  uint64_t sector_size, fil_api_version api,
                                  unsigned window_partitions, uint64_t seed, int threads,
                                  cuzk_error_t *err);
void bench_fil_inputs_free(bench_fil_inputs_t *in);

#endif
