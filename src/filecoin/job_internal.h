/* Internal to the Filecoin proving job (filecoin_job.h): the job's state
 * and the per-kind halves of fil_job_new and fil_job_partition
 * (job_porep.c, job_post.c, job_snap.c). A job is written only by
 * fil_job_new and read-only afterwards, which is all its thread safety. */
#ifndef CUZK_FILECOIN_JOB_INTERNAL_H
#define CUZK_FILECOIN_JOB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_job.h"
#include "cuzk/filecoin_params.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_update.h"

struct fil_job {
    fil_public_t pub; /* completed; owns its sectors */
    unsigned partitions;
    size_t n_inputs; /* per partition */
    fr_t *inputs;    /* partitions x n_inputs, derived at fil_job_new */
    char stem[FIL_PARAMS_STEM_MAX];
    char **names; /* n_vanilla labels for messages */
    size_t n_vanilla;
    /* porep */
    fil_c1_t c1;
    /* PoSt: the circuit's sectors. WindowPoSt: one per vanilla proof
     * (its first challenge_count paths), a partition a run of them;
     * WinningPoSt: its one sector's paths spread over the circuit's
     * sector_count sectors of one challenge each. */
    fil_post_params_t pp;
    fil_post_shape_t post_shape;
    fil_post_sector_t *post;
    size_t n_post;
    /* SnapDeals: the PartitionProof bytes (n_vanilla), parsed again per
     * partition (a parsed 32 GiB partition proof is hundreds of MB; its
     * bytes far fewer) */
    fil_update_shape_t update_shape;
    uint8_t **snap;
    size_t *snap_len;
};

/* err's message behind "prefix: " (a vanilla proof's name, "public
 * values"), its code st kept; returns st. */
cuzk_status fil_job_prefixed(cuzk_error_t *err, cuzk_status st, const char *prefix);

/* The label of vanilla proof i in messages. */
const char *fil_job_name(const fil_job_t *j, size_t i);

/* Per kind: parse the vanilla proofs into j and complete j->pub (before
 * fil_public_check); SnapDeals then checks its proofs against the checked
 * public values. */
cuzk_status fil_job_porep_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                               cuzk_error_t *err);
cuzk_status fil_job_post_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                              cuzk_error_t *err);
cuzk_status fil_job_snap_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                              cuzk_error_t *err);
cuzk_status fil_job_snap_check(fil_job_t *j, cuzk_error_t *err);

/* Partition i (< j->partitions) into a zeroed out. */
cuzk_status fil_job_porep_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                                    cuzk_error_t *err);
cuzk_status fil_job_post_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                                   cuzk_error_t *err);
cuzk_status fil_job_snap_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                                   cuzk_error_t *err);

#endif
