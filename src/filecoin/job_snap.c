/* The SnapDeals half of a proving job (filecoin_job.h): one bincode
 * PartitionProof per partition (API update.rs generate_partition_proofs,
 * Curio lib/ffi/cuzk_funcs.go ProveUpdateCuzk), kept as bytes, checked
 * once at fil_job_new and parsed again when its partition is made
 * (RFP@87348a7 storage-proofs-update/src/compound.rs circuit(): the
 * partition's PublicInputs { k, comm_r_old, comm_d_new, comm_r_new, h }
 * with its PartitionProof). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_vanilla.h"
#include "job_internal.h"

static fil_update_kind update_kind(fil_circuit_kind k)
{
    return k == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
}

cuzk_status fil_job_snap_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                              cuzk_error_t *err)
{
    fil_public_t *p = &j->pub;
    fil_update_shape_t sh;
    /* filecoin-proofs api/update.rs proves with h_default(nodes) = hs[3];
     * a size without a shape is fil_public_check's to name */
    if (!(p->have & FIL_PUB_H) &&
        fil_update_shape_init(&sh, update_kind(p->kind), p->sector_size / FIL_NODE_SIZE, NULL) ==
            CUZK_OK) {
        p->h = sh.hs[3];
        p->have |= FIL_PUB_H;
    }
    j->snap = calloc(n, sizeof *j->snap);
    j->snap_len = calloc(n, sizeof *j->snap_len);
    if (!j->snap || !j->snap_len)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "no memory for %zu vanilla proofs", n);
    for (size_t i = 0; i < n; i++) {
        if (!(j->snap[i] = malloc(lens[i] ? lens[i] : 1)))
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %zu bytes",
                                  fil_job_name(j, i), lens[i]);
        if (lens[i])
            memcpy(j->snap[i], v[i], lens[i]);
        j->snap_len[i] = lens[i];
    }
    return CUZK_OK;
}

cuzk_status fil_job_snap_check(fil_job_t *j, cuzk_error_t *err)
{
    const fil_public_t *p = &j->pub;
    cuzk_status st = fil_update_shape_init(&j->update_shape, update_kind(p->kind),
                                           p->sector_size / FIL_NODE_SIZE, err);
    if (st != CUZK_OK)
        return fil_job_prefixed(err, st, "public values");
    unsigned parts = fil_public_partitions(p);
    if (j->n_vanilla != parts)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "%zu vanilla proofs for %u partitions (one PartitionProof per "
                              "partition, in order)",
                              j->n_vanilla, parts);
    for (size_t i = 0; i < j->n_vanilla; i++) {
        fil_snap_vproof_t v;
        st = fil_snap_vproof_parse(&v, &j->update_shape, j->snap[i], j->snap_len[i], err);
        fil_snap_vproof_free(&v);
        if (st != CUZK_OK)
            return fil_job_prefixed(err, st, fil_job_name(j, i));
    }
    return CUZK_OK;
}

cuzk_status fil_job_snap_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                                   cuzk_error_t *err)
{
    const fil_public_t *p = &j->pub;
    const char *name = fil_job_name(j, i);
    fil_snap_public_t sp;
    memset(&sp, 0, sizeof sp);
    sp.k = (p->have & FIL_PUB_PARTITION) ? p->partition : i;
    sp.h = p->h;
    /* canonical: fil_job_new derived the inputs from them */
    if (fr_from_le(&sp.comm_r_old, p->comm_r_old) != CUZK_OK ||
        fr_from_le(&sp.comm_d_new, p->comm_d_new) != CUZK_OK ||
        fr_from_le(&sp.comm_r_new, p->comm_r_new) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "a commitment is not a field element");
    fil_snap_vproof_t v;
    cuzk_status st = fil_snap_vproof_parse(&v, &j->update_shape, j->snap[i], j->snap_len[i], err);
    if (st != CUZK_OK)
        return fil_job_prefixed(err, st, name);
    cuzk_error_t e = {0};
    st = fil_snap_vproof_witness(&out->update, &j->update_shape, &v, &sp, &e);
    fil_snap_vproof_free(&v);
    if (st == CUZK_ERR_NOMEM)
        return cuzk_error_set(err, st, "%s: %s", name, e.msg);
    if (st != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INVALID,
                              "%s: %s: the vanilla proof does not fit the public values", name,
                              e.msg);
    out->p.kind = p->kind;
    out->p.update.shape = j->update_shape;
    out->p.update.w = &out->update;
    return CUZK_OK;
}
