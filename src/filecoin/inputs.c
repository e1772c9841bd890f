/* Public inputs of Filecoin partition proofs (filecoin_inputs.h). */
#include "cuzk/filecoin_inputs.h"

#include <string.h>

#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_graph.h"

static cuzk_status domain(fr_t *out, const uint8_t bytes[32], const char *what, cuzk_error_t *err)
{
    if (fr_from_le(out, bytes) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "%s is not a field element (its 32 little-endian bytes are >= r)",
                              what);
    return CUZK_OK;
}

static cuzk_status room(size_t need, size_t cap, const char *what, cuzk_error_t *err)
{
    if (need > cap)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %zu inputs do not fit in %zu", what, need,
                              cap);
    return CUZK_OK;
}

cuzk_status fil_porep_partition_challenges(uint64_t *out, size_t cap, size_t *n,
                                           fil_seal_proof proof, const uint8_t replica_id[32],
                                           const uint8_t comm_r[32], const uint8_t seed[32],
                                           unsigned k, cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_seal_info(proof);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown seal proof %d", (int)proof);
    if (k >= info->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "partition %u of %s: it has %u partitions", k,
                              info->name, info->partitions);
    size_t m = info->challenges_per_partition;
    cuzk_status st = room(m, cap, "porep challenges", err);
    if (st != CUZK_OK)
        return st;
    /* params.rs challenges() passes k as u8; every registered proof has
     * fewer than 256 partitions, so the cast never changes k. */
    switch (info->kind) {
    case FIL_POREP_INTERACTIVE:
        st = fil_porep_challenges(out, m, info->nodes, replica_id, seed, k, err);
        break;
    case FIL_POREP_SYNTHETIC:
        st = fil_porep_synth_challenges(out, m, info->nodes, 0, replica_id, comm_r, seed, k, err);
        break;
    case FIL_POREP_NON_INTERACTIVE:
        st = fil_porep_ni_challenges(out, m, info->nodes, replica_id, comm_r, k, err);
        break;
    default: return cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown challenge kind", info->name);
    }
    if (st == CUZK_OK)
        *n = m;
    return st;
}

cuzk_status fil_porep_inputs_at(fr_t *out, size_t cap, size_t *n, fil_seal_proof proof,
                                const uint8_t replica_id[32], const uint8_t comm_d[32],
                                const uint8_t comm_r[32], const uint64_t *challenges,
                                size_t n_challenges, cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_seal_info(proof);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown seal proof %d", (int)proof);
    size_t need = FIL_POREP_INPUTS_HEADER + FIL_POREP_INPUTS_PER_CHALLENGE * n_challenges;
    cuzk_status st = room(need, cap, "porep inputs", err);
    if (st == CUZK_OK)
        st = domain(&out[0], replica_id, "replica_id", err);
    if (st == CUZK_OK)
        st = domain(&out[1], comm_d, "comm_d", err);
    if (st == CUZK_OK)
        st = domain(&out[2], comm_r, "comm_r", err);
    fil_graph_t g;
    if (st == CUZK_OK)
        st = fil_graph_init_seal(&g, proof, err);
    if (st != CUZK_OK)
        return st;
    for (size_t i = 0; i < n_challenges; i++) {
        uint64_t c = challenges[i];
        if (c == 0 || c >= info->nodes)
            return cuzk_error_set(
                err, CUZK_ERR_ARG, "challenge %zu is node %llu: not in [1, %llu) for %s", i,
                (unsigned long long)c, (unsigned long long)info->nodes, info->name);
        uint32_t p[FIL_DEGREE];
        if ((st = fil_graph_parents(p, &g, c, err)) != CUZK_OK)
            return st;
        /* A path's packed bits are the bits of its leaf's number, in one
         * input for every tree Filecoin uses (at most 31 levels). */
        fr_t *row = &out[FIL_POREP_INPUTS_HEADER + FIL_POREP_INPUTS_PER_CHALLENGE * i];
        fr_from_u64(&row[0], c);
        for (unsigned j = 0; j < FIL_DEGREE; j++)
            fr_from_u64(&row[1 + j], p[j]);
        fr_from_u64(&row[15], c);
        fr_from_u64(&row[16], c);
        fr_from_u64(&row[17], c);
    }
    *n = need;
    return CUZK_OK;
}

cuzk_status fil_porep_inputs(fr_t *out, size_t cap, size_t *n, fil_seal_proof proof,
                             const uint8_t replica_id[32], const uint8_t comm_d[32],
                             const uint8_t comm_r[32], const uint8_t seed[32], unsigned k,
                             cuzk_error_t *err)
{
    uint64_t ch[256];
    size_t m = 0;
    cuzk_status st = fil_porep_partition_challenges(ch, sizeof ch / sizeof ch[0], &m, proof,
                                                    replica_id, comm_r, seed, k, err);
    if (st != CUZK_OK)
        return st;
    return fil_porep_inputs_at(out, cap, n, proof, replica_id, comm_d, comm_r, ch, m, err);
}

cuzk_status fil_post_params(fil_post_params_t *out, fil_circuit_kind kind, uint64_t sector_size,
                            fil_api_version api, cuzk_error_t *err)
{
    fil_tree_shape_t tree;
    cuzk_status st = fil_sector_tree(&tree, sector_size, err);
    if (st != CUZK_OK)
        return st;
    if (api > FIL_API_1_2)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown API version %d", (int)api);
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->sector_size = sector_size;
    out->api = api;
    if (kind == FIL_CIRCUIT_WINNING_POST) {
        /* WINNING_POST_CHALLENGE_COUNT 66 over WINNING_POST_SECTOR_COUNT 1:
         * winning_post_setup_params makes it 66 sectors of 1 challenge. */
        out->sector_count = 66;
        out->challenge_count = 1;
        return CUZK_OK;
    }
    if (kind == FIL_CIRCUIT_WINDOW_POST) {
        out->challenge_count = 10; /* WINDOW_POST_CHALLENGE_COUNT */
        return fil_window_post_sectors(&out->sector_count, sector_size, err);
    }
    return cuzk_error_set(err, CUZK_ERR_ARG, "'%s' is not a PoSt (winning-post or window-post)",
                          fil_circuit_kind_str(kind));
}

cuzk_status fil_post_sector_leaves(uint64_t *out, const fil_post_params_t *pp,
                                   const uint8_t randomness[32], uint64_t sector_id,
                                   uint64_t sector_index, cuzk_error_t *err)
{
    fr_t r;
    cuzk_status st = domain(&r, randomness, "randomness", err);
    for (unsigned c = 0; st == CUZK_OK && c < pp->challenge_count; c++) {
        uint64_t idx = fil_post_challenge_index(pp->api, sector_index, pp->challenge_count, c);
        st = fil_post_leaf_challenge(&out[c], randomness, sector_id, idx,
                                     pp->sector_size / FIL_NODE_SIZE, err);
    }
    return st;
}

unsigned fil_post_partitions(const fil_post_params_t *pp, size_t n_sectors)
{
    if (n_sectors <= pp->sector_count)
        return 1;
    return (unsigned)((n_sectors + pp->sector_count - 1) / pp->sector_count);
}

cuzk_status fil_post_partition_inputs(fr_t *out, size_t cap, size_t *n, const fil_post_params_t *pp,
                                      const uint8_t randomness[32],
                                      const fil_post_pub_sector_t *sectors, size_t n_sectors,
                                      unsigned k, cuzk_error_t *err)
{
    size_t per = 1 + (size_t)pp->challenge_count;
    size_t need = per * pp->sector_count;
    cuzk_status st = room(need, cap, "post inputs", err);
    if (st != CUZK_OK)
        return st;
    if (n_sectors == 0 || n_sectors > pp->sector_count)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "post partition %u: %zu sectors (1 to %u per partition)", k,
                              n_sectors, pp->sector_count);
    uint64_t leaves[16];
    if (pp->challenge_count > sizeof leaves / sizeof leaves[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "%u challenges per sector: at most 16",
                              pp->challenge_count);
    for (size_t i = 0; i < n_sectors; i++) {
        const fil_post_pub_sector_t *s = &sectors[i];
        fr_t *row = &out[per * i];
        uint64_t place = (uint64_t)k * pp->sector_count + i;
        if ((st = domain(&row[0], s->comm_r, "a sector's comm_r", err)) != CUZK_OK ||
            (st = fil_post_sector_leaves(leaves, pp, randomness, s->id, place, err)) != CUZK_OK)
            return st;
        for (unsigned c = 0; c < pp->challenge_count; c++)
            fr_from_u64(&row[1 + c], leaves[c]);
    }
    for (size_t i = n_sectors; i < pp->sector_count; i++) /* the last sector again */
        memcpy(&out[per * i], &out[per * (n_sectors - 1)], per * sizeof *out);
    *n = need;
    return CUZK_OK;
}

cuzk_status fil_post_inputs(fr_t *out, size_t cap, size_t *n, const fil_post_params_t *pp,
                            const uint8_t randomness[32], const fil_post_pub_sector_t *sectors,
                            size_t n_sectors, unsigned k, cuzk_error_t *err)
{
    size_t first = (size_t)k * pp->sector_count;
    if (first >= n_sectors)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "post partition %u holds no sector (%zu sectors, %u per partition)",
                              k, n_sectors, pp->sector_count);
    size_t here = n_sectors - first < pp->sector_count ? n_sectors - first : pp->sector_count;
    return fil_post_partition_inputs(out, cap, n, pp, randomness, sectors + first, here, k, err);
}

void fil_post_winning_sectors(fil_post_pub_sector_t *out, const fil_post_params_t *pp,
                              const fil_post_pub_sector_t *sector)
{
    for (unsigned i = 0; i < pp->sector_count; i++)
        out[i] = *sector;
}
