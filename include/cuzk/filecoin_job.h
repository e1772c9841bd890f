/* A Filecoin proving job: the vanilla proofs and public values of one
 * request, as Curio sends them, turned into checked partitions, their
 * public inputs and their witnesses. The CLI (`cuzk filecoin prove`), the
 * daemon and the benchmarks share it, so a request is judged the same way
 * wherever it comes in.
 *
 * What a job takes (pub: filecoin_public.h; vanilla: the raw bytes):
 *  - porep: one C1 output, its JSON or Curio's {SectorNum, Phase1Out,
 *    SectorSize} envelope (filecoin_c1.h; told apart by "Phase1Out").
 *    Members pub lacks are taken from the C1: registered_proof (with the
 *    sector size and API version it fixes), seed, ticket, replica_id,
 *    comm_d, comm_r; the envelope's SectorNum gives sector_id. With
 *    miner_id and sector_id (Curio's request) replica_id is then checked
 *    against them (fil_public_check).
 *  - winning-post / window-post: one bincode FallbackPoStSectorProof per
 *    sector, in the proof's sector order (filecoin_vanilla.h). Without
 *    "sectors" they are the vanilla proofs' ids and comm_r; with them
 *    each must match its vanilla proof. With "partition" (Curio's
 *    WINDOW_POST_PARTITION) the proofs are that partition's sectors.
 *  - snap-deals / snap-deals-poseidon: one bincode PartitionProof per
 *    partition, in order (one with "partition"). Without "h" it is
 *    h_default (RFP@87348a7 filecoin-proofs/src/api/update.rs and
 *    storage-proofs-update/src/constants.rs h_default = hs(nodes)[3]).
 *
 * Two kinds of failure are kept apart:
 *  - bad input: bytes that do not parse (CUZK_ERR_FORMAT,
 *    CUZK_ERR_NONCANONICAL, naming the vanilla proof, the field and the
 *    offset), public values that are missing or do not fit the vanilla
 *    proofs (registered proof, sector ids and comm_r, tree shapes, counts:
 *    CUZK_ERR_ARG), and a caller's buffer of the wrong size (CUZK_ERR_ARG);
 *  - an invalid proof (CUZK_ERR_INVALID): well-formed vanilla proofs whose
 *    roots, indices or values cannot satisfy the circuit, or whose
 *    circuit inputs are not those the public values give (they belong to
 *    other public values). `cuzk filecoin prove` exits 1 for it.
 * fil_job_new checks everything that needs no hashing of the proofs;
 * what needs the proofs' values is found per partition by
 * fil_job_partition and fil_job_witness.
 *
 * Messages name the vanilla proof by its name (names[i], e.g. the file it
 * came from) or, without names, as "vanilla proof <i>"; they read as one
 * line after "cuzk filecoin prove: ".
 *
 * Rules: outputs first, the job next, err last (may be NULL); pointers are
 * required unless said otherwise (NULL: CUZK_ERR_ARG). A job owns copies
 * of everything it was given. Thread safety: once fil_job_new returns,
 * every function taking a const fil_job_t * may be called from any number
 * of threads at once (the engine makes the witnesses of several partitions
 * in parallel); fil_job_free must be the last call. */
#ifndef CUZK_FILECOIN_JOB_H
#define CUZK_FILECOIN_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_public.h"
#include "cuzk/filecoin_update.h"
#include "cuzk/fr.h"
#include "cuzk/fr_pack.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fil_job fil_job_t;

/* Parses vanilla[0..n) (lens[i] bytes each; names may be NULL, else
 * names[i] labels proof i in messages), completes pub as above, checks
 * the public values (fil_public_check) and their consistency with the
 * vanilla proofs, and derives every partition's public inputs. pub is
 * only read. Returns CUZK_OK; CUZK_ERR_ARG (pub's kind, counts, ids,
 * comm_r, registered proof, tree shapes), CUZK_ERR_FORMAT,
 * CUZK_ERR_NONCANONICAL, CUZK_ERR_NOMEM, CUZK_ERR_INTERNAL. On error *out
 * is NULL. */
cuzk_status fil_job_new(fil_job_t **out, const fil_public_t *pub, const uint8_t *const *vanilla,
                        const size_t *lens, size_t n, const char *const *names, cuzk_error_t *err);
void fil_job_free(fil_job_t *j); /* accepts NULL */

/* What the job proves: the partitions (Groth16 proofs, in order), the
 * circuit's kind, sector size and API version (fil_circuit_load's
 * arguments), the seal proof (porep; FIL_SEAL_COUNT otherwise), the
 * completed public values (fil_public_write gives their JSON), the public
 * inputs of each partition (without ONE) and the parameter file stem
 * (filecoin_params.h, "v28-..."), valid until fil_job_free. */
unsigned fil_job_partitions(const fil_job_t *j);
fil_circuit_kind fil_job_kind(const fil_job_t *j);
uint64_t fil_job_sector_size(const fil_job_t *j);
fil_api_version fil_job_api(const fil_job_t *j);
fil_seal_proof fil_job_seal_proof(const fil_job_t *j);
const fil_public_t *fil_job_public(const fil_job_t *j);
size_t fil_job_n_inputs(const fil_job_t *j);
const char *fil_job_param_stem(const fil_job_t *j);

/* Partition i's public inputs (fil_job_n_inputs of them), derived from
 * the public values alone (fil_public_inputs), never from the vanilla
 * proofs: *in is malloc'd (free()), *n its length. Returns CUZK_OK,
 * CUZK_ERR_ARG (i out of range), CUZK_ERR_NOMEM. */
cuzk_status fil_job_inputs(fr_t **in, size_t *n, const fil_job_t *j, unsigned i, cuzk_error_t *err);

/* Partition i as fil_partition_witness reads it (filecoin_prove.h): p
 * points into the job and into the part itself (the PoRep challenges,
 * the SnapDeals witness it owns), so a part is used where it was made,
 * never copied, and freed with fil_job_part_free before the job. */
typedef struct fil_job_part {
    fil_partition_t p;
    fil_porep_challenge_t *porep_ch; /* owned: p.porep.ch */
    fil_update_witness_t update;     /* owned: p.update.w */
} fil_job_part_t;

/* Builds partition i, checking what the vanilla proof must satisfy
 * before synthesis (filecoin_c1.h fil_c1_public and
 * fil_c1_porep_challenge; filecoin_vanilla.h fil_snap_vproof_witness).
 * Returns CUZK_OK, CUZK_ERR_INVALID (the vanilla proof does not hold
 * together or does not fit the public values), CUZK_ERR_ARG (i out of
 * range), CUZK_ERR_NOMEM. On error *out is zeroed. */
cuzk_status fil_job_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                              cuzk_error_t *err);
void fil_job_part_free(fil_job_part_t *part); /* accepts NULL and a zeroed part */

/* Partition i's witness [ONE, inputs, aux] into the caller's w[0..n_vars)
 * (fil_partition_witness_into: n_vars and n_public are the circuit's,
 * circuit_t n_vars and n_public), then its inputs w[1..n_public] compared
 * with fil_job_inputs. opts as fil_partition_witness_into (NULL: FAST,
 * one thread); FIL_WITNESS_CHECK also evaluates every constraint.
 * Returns CUZK_OK; CUZK_ERR_INVALID (fil_job_partition's, a value the
 * circuit refuses, an unsatisfied constraint, or the first input that
 * differs, named); CUZK_ERR_ARG (i out of range, w NULL, sizes that are
 * not the circuit's); CUZK_ERR_NOMEM. On error w's contents are
 * unspecified. */
cuzk_status fil_job_witness(fr_t *w, size_t n_vars, size_t n_public, const fil_job_t *j, unsigned i,
                            const fil_witness_opts_t *opts, cuzk_error_t *err);

/* The same witness made packed (fil_partition_witness_pack: the whole
 * vector never exists), its inputs read back from the pack and compared.
 * *out is empty on any error, else the caller's (fr_pack_free). */
cuzk_status fil_job_witness_pack(fr_pack_t *out, size_t n_vars, size_t n_public, const fil_job_t *j,
                                 unsigned i, const fil_witness_opts_t *opts, cuzk_error_t *err);

/* Why partition i's proof could not verify: its witness made again with
 * every constraint evaluated (FIL_WITNESS_CHECK, on `threads` as
 * fil_witness_opts_t), into memory of its own, and its inputs compared.
 * For a prover that makes witnesses with FIL_WITNESS_FAST (several times
 * cheaper: the check evaluates every one of up to 130 M constraints) and
 * lets the verification of the proof catch a vanilla proof the circuit
 * refuses. Returns CUZK_OK (the vanilla proof satisfies the circuit: the
 * fault lies elsewhere), CUZK_ERR_INVALID naming the first constraint it
 * breaks or the input that differs, CUZK_ERR_ARG (i out of range),
 * CUZK_ERR_NOMEM. */
cuzk_status fil_job_diagnose(const fil_job_t *j, unsigned i, int threads, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
