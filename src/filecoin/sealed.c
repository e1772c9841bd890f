/* What every sealing answers (filecoin_seal.h), dense or sparse: the
 * accessors read the sealing's reader (seal_internal.h) only, and the
 * steps both sealers share (the reader's shapes, the replica id, comm_r).
 * RFP = filecoin-project/rust-fil-proofs@87348a7. */
#include <string.h>

#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/poseidon.h"
#include "seal_internal.h"

const fil_tree_shape_t FIL_SEAL_TREE_D_SHAPE = {FIL_HASHER_SHA256, 2, 0, 0};

cuzk_status fil_seal_reader_init(fil_seal_reader_t *r, const fil_seal_info_t *info,
                                 uint64_t sector_id, cuzk_error_t *err)
{
    r->info = info;
    r->sector_id = sector_id;
    r->shape[FIL_SEAL_TREE_D] = FIL_SEAL_TREE_D_SHAPE;
    cuzk_status st = fil_sector_tree(&r->shape[FIL_SEAL_TREE_C], info->sector_size, err);
    if (st != CUZK_OK)
        return st;
    r->shape[FIL_SEAL_TREE_R] = r->shape[FIL_SEAL_TREE_C];
    if ((st = fil_graph_init_seal(&r->graph, info->proof, err)) != CUZK_OK)
        return st;
    for (int t = 0; t < FIL_SEAL_TREES && st == CUZK_OK; t++)
        st = fil_tree_shape_levels(&r->base_levels[t], &r->levels[t], &r->shape[t], info->nodes,
                                   err);
    return st;
}

cuzk_status fil_seal_reader_replica_id(uint8_t rid[32], fil_seal_reader_t *r,
                                       const uint8_t prover_id[32], const uint8_t ticket[32],
                                       cuzk_error_t *err)
{
    uint8_t comm_d[32], porep_id[32];
    fr_to_le(comm_d, &r->comm_d);
    cuzk_status st = fil_porep_id(porep_id, r->info->proof, err);
    if (st == CUZK_OK)
        st = fil_replica_id(rid, prover_id, r->sector_id, ticket, comm_d, porep_id, err);
    if (st == CUZK_OK && fr_from_le(&r->replica_id, rid) != CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "fil_seal: replica id not canonical");
    return st;
}

cuzk_status fil_seal_reader_comm_r(fil_seal_reader_t *r, cuzk_error_t *err)
{
    const poseidon_constants_t *c2;
    cuzk_status st = poseidon_constants_get(&c2, 2, err);
    if (st != CUZK_OK)
        return st;
    fr_t pair[2] = {r->comm_c, r->comm_r_last};
    return poseidon_hash(&r->comm_r, c2, pair, 2, POSEIDON_OPTIMIZED, err);
}

void fil_sealed_free(fil_sealed_t *s)
{
    if (s)
        s->destroy(s);
}

const fil_seal_info_t *fil_sealed_info(const fil_sealed_t *s)
{
    return s->rd.info;
}

uint64_t fil_sealed_sector_id(const fil_sealed_t *s)
{
    return s->rd.sector_id;
}

void fil_sealed_comm_d(fr_t *out, const fil_sealed_t *s)
{
    *out = s->rd.comm_d;
}

void fil_sealed_comm_c(fr_t *out, const fil_sealed_t *s)
{
    *out = s->rd.comm_c;
}

void fil_sealed_comm_r_last(fr_t *out, const fil_sealed_t *s)
{
    *out = s->rd.comm_r_last;
}

void fil_sealed_comm_r(fr_t *out, const fil_sealed_t *s)
{
    *out = s->rd.comm_r;
}

void fil_sealed_replica_id(fr_t *out, const fil_sealed_t *s)
{
    *out = s->rd.replica_id;
}

static cuzk_status leaf_at(fr_t *out, const fil_sealed_t *s, fil_seal_tree t, const char *what,
                           uint64_t node, cuzk_error_t *err)
{
    if (!out || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sealed_%s: NULL argument", what);
    if (node >= s->rd.info->nodes)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sealed_%s: node %llu of %llu", what,
                              (unsigned long long)node, (unsigned long long)s->rd.info->nodes);
    return s->rd.tree_node(out, &s->rd, t, 0, node, err);
}

cuzk_status fil_sealed_data(fr_t *out, const fil_sealed_t *s, uint64_t node, cuzk_error_t *err)
{
    return leaf_at(out, s, FIL_SEAL_TREE_D, "data", node, err);
}

cuzk_status fil_sealed_replica(fr_t *out, const fil_sealed_t *s, uint64_t node, cuzk_error_t *err)
{
    return leaf_at(out, s, FIL_SEAL_TREE_R, "replica", node, err);
}

cuzk_status fil_sealed_label(fr_t *out, const fil_sealed_t *s, unsigned layer, uint64_t node,
                             cuzk_error_t *err)
{
    if (!out || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sealed_label: NULL argument");
    return s->rd.label(out, &s->rd, layer, node, err);
}

void fil_sealed_porep_shape(fil_porep_shape_t *out, const fil_sealed_t *s)
{
    out->nodes = s->rd.info->nodes;
    out->tree = s->rd.shape[FIL_SEAL_TREE_R];
    out->layers = s->rd.info->layers;
    out->challenges = s->rd.info->challenges_per_partition;
}

void fil_sealed_porep_public(fil_porep_public_t *out, const fil_sealed_t *s)
{
    out->replica_id = s->rd.replica_id;
    out->comm_d = s->rd.comm_d;
    out->comm_r = s->rd.comm_r;
    out->comm_r_last = s->rd.comm_r_last;
    out->comm_c = s->rd.comm_c;
}

cuzk_status fil_sealed_porep_challenge(fil_porep_challenge_t *out, const fil_sealed_t *s,
                                       uint64_t challenge, cuzk_error_t *err)
{
    if (!out || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sealed_porep_challenge: NULL argument");
    return fil_seal_reader_porep_challenge(out, &s->rd, challenge, err);
}

cuzk_status fil_sealed_post_vproof(fil_post_vproof_t *out, const fil_sealed_t *s,
                                   const uint64_t *leaf_challenges, unsigned n, cuzk_error_t *err)
{
    if (!out || !s || !leaf_challenges)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sealed_post_vproof: NULL argument");
    return fil_seal_reader_post_vproof(out, &s->rd, leaf_challenges, n, err);
}
