/* bincode FallbackPoStSectorProof (filecoin_vanilla.h; RFP@87348a7
 * filecoin-proofs/src/types/mod.rs FallbackPoStSectorProof { sector_id,
 * comm_r, vanilla_proof }, storage-proofs-post/src/fallback/vanilla.rs
 * Proof { sectors }, SectorProof { inclusion_proofs, comm_c, comm_r_last }). */
#include <stdio.h>
#include <string.h>

#include "cuzk/filecoin_vanilla.h"
#include "vanilla_merkle.h"

static const char k_what[] = "post vanilla proof";

static cuzk_status parse(fil_post_vproof_t *out, fil_vrd_t *r)
{
    uint64_t sectors, proofs;
    cuzk_status st = fil_vrd_u64(r, &out->sector_id, "sector_id");
    if (st == CUZK_OK)
        st = fil_vrd_domain(r, &out->comm_r, "comm_r");
    /* one sector per FallbackPoStSectorProof, as Curio sends them */
    if (st == CUZK_OK)
        st = fil_vrd_len(r, &sectors, 1, 1, "vanilla_proof.sectors");
    if (st == CUZK_OK)
        st = fil_vrd_len(r, &proofs, 1, FIL_POST_VPROOF_MAX_PROOFS, "inclusion_proofs");
    for (uint64_t i = 0; st == CUZK_OK && i < proofs; i++) {
        fil_tree_shape_t s;
        size_t at = r->at;
        fil_vrd_ctx(r, "inclusion_proofs[%llu]", (unsigned long long)i);
        st = fil_vrd_merkle_proof_any(r, &out->paths[i], &s, FIL_HASHER_POSEIDON);
        if (st != CUZK_OK)
            break;
        if (i == 0)
            out->shape = s;
        else if (memcmp(&s, &out->shape, sizeof s) != 0)
            st = fil_vrd_fail(r, CUZK_ERR_FORMAT, at, "",
                              "tree %u-%u-%u, the first proof's is %u-%u-%u", s.base_arity,
                              s.sub_arity, s.top_arity, out->shape.base_arity, out->shape.sub_arity,
                              out->shape.top_arity);
        out->n_proofs = (unsigned)i + 1;
    }
    fil_vrd_ctx(r, "%s", "");
    if (st == CUZK_OK)
        st = fil_vrd_domain(r, &out->comm_c, "comm_c");
    if (st == CUZK_OK)
        st = fil_vrd_domain(r, &out->comm_r_last, "comm_r_last");
    if (st == CUZK_OK)
        st = fil_vrd_end(r);
    return st;
}

cuzk_status fil_post_vproof_parse(fil_post_vproof_t *out, const uint8_t *data, size_t n,
                                  cuzk_error_t *err)
{
    if (!out || (!data && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_vproof_parse: NULL argument");
    memset(out, 0, sizeof *out);
    fil_vrd_t r;
    fil_vrd_init(&r, data, n, k_what, err);
    cuzk_status st = parse(out, &r);
    if (st != CUZK_OK)
        memset(out, 0, sizeof *out);
    return st;
}

cuzk_status fil_post_vproof_write(uint8_t **out, size_t *n, const fil_post_vproof_t *v,
                                  cuzk_error_t *err)
{
    if (!out || !n || !v)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_vproof_write: NULL argument");
    *out = NULL;
    *n = 0;
    if (v->n_proofs == 0 || v->n_proofs > FIL_POST_VPROOF_MAX_PROOFS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %u inclusion proofs (1..%u)", k_what,
                              v->n_proofs, FIL_POST_VPROOF_MAX_PROOFS);
    fil_vwr_t w = {0};
    fil_vwr_u64(&w, v->sector_id);
    fil_vwr_domain(&w, &v->comm_r);
    fil_vwr_u64(&w, 1); /* vanilla_proof.sectors */
    fil_vwr_u64(&w, v->n_proofs);
    cuzk_status st = CUZK_OK;
    for (unsigned i = 0; st == CUZK_OK && i < v->n_proofs; i++) {
        char field[32];
        snprintf(field, sizeof field, "inclusion_proofs[%u]", i);
        st = fil_vwr_merkle_proof(&w, &v->paths[i], &v->shape, k_what, field, err);
    }
    fil_vwr_domain(&w, &v->comm_c);
    fil_vwr_domain(&w, &v->comm_r_last);
    return fil_vwr_finish(&w, out, n, st, k_what, err);
}
