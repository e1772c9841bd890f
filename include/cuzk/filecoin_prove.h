/* One Filecoin partition from circuit inputs to a checked Groth16 witness,
 * and the precompiled circuit each kind proves with.
 *
 * A partition (fil_partition_t) names its kind, its shape and borrowed
 * pointers to what its circuit reads (filecoin_porep.h, filecoin_post.h,
 * filecoin_update.h). fil_partition_witness synthesizes it in the witness
 * back end and returns the full assignment [ONE, inputs, aux] that
 * groth16_prove takes, with the circuit's own public inputs, which the
 * caller compares with the inputs derived from public values
 * (filecoin_inputs.h): a vanilla proof that does not fit its public values
 * is refused before any proving. fil_partition_witness_into writes the
 * same assignment straight into the caller's buffer (the engine's), at
 * the circuit's sizes, with no allocation or copy of the values.
 *
 * fil_circuit_load returns the kind's precompiled circuit (circuit.h) from
 * a .ccs cache file, recording it with the record back end and writing the
 * file on first use (written to a temporary name and renamed, so a crash
 * never leaves a partial cache file; a cache file that does not read back
 * is rebuilt).
 *
 * Rules: outputs first; pointers are required unless said otherwise; the
 * partition's pointers are only read; reentrant. */
#ifndef CUZK_FILECOIN_PROVE_H
#define CUZK_FILECOIN_PROVE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/cs.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_update.h"
#include "cuzk/fr.h"
#include "cuzk/fr_pack.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fil_partition {
    fil_circuit_kind kind;
    struct {
        fil_porep_shape_t shape;
        fil_porep_public_t pub;
        const fil_porep_challenge_t *ch; /* shape.challenges */
    } porep;
    struct {
        fil_post_shape_t shape;
        unsigned sector_count;            /* the circuit's sectors */
        const fil_post_sector_t *sectors; /* n_sectors (1..sector_count); the */
        unsigned n_sectors;               /* last repeats to sector_count */
    } post;
    struct {
        fil_update_shape_t shape;
        const fil_update_witness_t *w;
    } update;
} fil_partition_t;

/* The circuit of p into cs (any mode; values are read when cs_has_values). */
void fil_partition_synth(cs_t *cs, const fil_partition_t *p);

/* How a witness is made. */
typedef enum fil_witness_mode {
    FIL_WITNESS_FAST = 0, /* values only (the witness back end) */
    FIL_WITNESS_CHECK = 1 /* and every constraint evaluated (CS_CHECK; one thread) */
} fil_witness_mode;

typedef struct fil_witness_opts {
    fil_witness_mode mode;
    int threads; /* cs_set_threads: 1 sequential (0 = 1), < 0 every CPU */
    /* The circuit's sizes when known (circuit_t n_vars, n_public; 0: not
     * known): the value vectors are sized once, not grown by doubling. */
    uint64_t n_vars, n_public;
} fil_witness_opts_t;

/* Synthesizes p with values. *w (malloc'd, *n_vars elements) is [ONE,
 * inputs, aux]; its inputs are w[1 .. *n_inputs] (ONE not counted). In
 * FIL_WITNESS_CHECK an unsatisfied constraint is CUZK_ERR_ARG naming it.
 * opts may be NULL (FAST, one thread). With the sizes in opts the values
 * are synthesized straight into *w (fil_partition_witness_into); when they
 * turn out not to be p's, p is synthesized again at its own sizes, which
 * *n_vars and *n_inputs then give (the caller compares). Returns CUZK_OK,
 * CUZK_ERR_ARG (the partition's values break the circuit's contract),
 * CUZK_ERR_NOMEM. */
cuzk_status fil_partition_witness(fr_t **w, size_t *n_vars, size_t *n_inputs,
                                  const fil_partition_t *p, const fil_witness_opts_t *opts,
                                  cuzk_error_t *err);

/* The same into the caller's w[0..n_vars) (the engine's page-locked
 * buffer; ENGINE_WITNESS_FN in engine.h): [ONE, inputs, aux] written in
 * place, the cs's inputs bound at w and its aux at w + 1 + n_public
 * (cs_bind_values), so nothing is allocated for the values nor copied.
 * n_public is the circuit's public inputs, ONE excluded (circuit_t
 * n_public); opts->n_vars and n_public are not read. p must come out at
 * exactly these sizes, else CUZK_ERR_ARG naming both (a vanilla proof of
 * another size); no value is ever written past w[n_vars - 1]. On any
 * error w's contents are unspecified. Threads as opts (cs_parallel:
 * PoRep challenges and labels, PoSt sectors). Returns CUZK_OK,
 * CUZK_ERR_ARG (w NULL, n_public >= n_vars, sizes, the partition's
 * values), CUZK_ERR_NOMEM. */
cuzk_status fil_partition_witness_into(fr_t *w, size_t n_vars, size_t n_public,
                                       const fil_partition_t *p, const fil_witness_opts_t *opts,
                                       cuzk_error_t *err);

/* The same witness packed (fr_pack.h: zeros and ones as bits), made as
 * such: the cs classifies each aux value as it makes it (cs_bind_bits),
 * so the n_vars-value vector never exists; only the values other than 0
 * and 1 are stored, in a mapping whose untouched pages cost nothing, then
 * gathered into the pack. The pack's bytes equal fr_pack_make's of
 * fil_partition_witness_into's vector. Arguments, sizes and errors as
 * fil_partition_witness_into (*out is empty on any error); also
 * CUZK_ERR_ARG past FR_PACK_MAX_VALUES. */
cuzk_status fil_partition_witness_pack(fr_pack_t *out, size_t n_vars, size_t n_public,
                                       const fil_partition_t *p, const fil_witness_opts_t *opts,
                                       cuzk_error_t *err);

/* Whether a kind's witness is mostly zeros and ones, so that making it
 * packed pays: PoRep (~98.7% at 32 GiB: SHA-256's bits) and SnapDeals
 * with its SHA-256 TreeD (~97% at 2 KiB). The PoSts and SnapDeals'
 * Poseidon variant are mostly Poseidon states: their packs are as large
 * as the vector. */
int fil_circuit_packs_well(fil_circuit_kind kind);

/* The revision in a circuit cache file's name (<stem>.cuzk-<rev>.ccs
 * beside the parameter files), bumped whenever a circuit's R1CS changes
 * so that an old cache is never read. Every user (CLI, daemon, bench)
 * names the file with it. */
#define FIL_CIRCUIT_CACHE_REV "r1"

/* Where fil_circuit_load found the circuit. */
typedef enum fil_circuit_source {
    FIL_CIRCUIT_CACHED = 0,   /* read from the cache file */
    FIL_CIRCUIT_RECORDED = 1, /* recorded now (no cache file yet, or none asked) */
    FIL_CIRCUIT_REBUILT = 2   /* recorded now: the cache file did not read back */
} fil_circuit_source;

/* The blank circuit of kind at sector_size under api (fil_circuit_synth_blank)
 * as a circuit_t, through the cache file cache_path (NULL: no cache).
 * *source (may be NULL) says where it came from. Returns CUZK_OK,
 * CUZK_ERR_ARG, CUZK_ERR_NOMEM, or CUZK_ERR_IO when the cache file cannot
 * be written (so that a full disk is seen, not a slow start each time). */
cuzk_status fil_circuit_load(circuit_t *out, fil_circuit_source *source, fil_circuit_kind kind,
                             uint64_t sector_size, fil_api_version api, const char *cache_path,
                             int threads, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
