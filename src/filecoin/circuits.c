/* Filecoin's circuits by name and sector size (filecoin_circuits.h). */
#include "cuzk/filecoin_circuits.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_update.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

static const char *const KIND_NAMES[FIL_CIRCUIT_COUNT] = {"porep", "winning-post", "window-post",
                                                          "snap-deals", "snap-deals-poseidon"};

const char *fil_circuit_kind_str(int kind)
{
    return kind >= 0 && kind < FIL_CIRCUIT_COUNT ? KIND_NAMES[kind] : "invalid";
}

cuzk_status fil_circuit_kind_parse(fil_circuit_kind *out, const char *s, cuzk_error_t *err)
{
    for (int k = 0; s && k < FIL_CIRCUIT_COUNT; k++)
        if (!strcmp(s, KIND_NAMES[k])) {
            *out = (fil_circuit_kind)k;
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "unknown circuit '%s' (porep, winning-post, window-post, snap-deals "
                          "or snap-deals-poseidon)",
                          s ? s : "");
}

/* constants.rs SectorShape* */
static const struct {
    uint64_t size;
    unsigned sub, top;
    unsigned window_sectors;
} SIZES[] = {
    {2 * KIB, 0, 0, 2},     {4 * KIB, 2, 0, 2},     {16 * KIB, 8, 0, 2},  {32 * KIB, 8, 2, 2},
    {8 * MIB, 0, 0, 2},     {16 * MIB, 2, 0, 2},    {512 * MIB, 0, 0, 2}, {1 * GIB, 2, 0, 2},
    {32 * GIB, 8, 0, 2349}, {64 * GIB, 8, 2, 2300},
};

static int size_row(uint64_t sector_size)
{
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (SIZES[i].size == sector_size)
            return (int)i;
    return -1;
}

static cuzk_status bad_size(uint64_t sector_size, cuzk_error_t *err)
{
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "sector size %llu bytes is not a Filecoin sector size (2KiB, 4KiB, "
                          "16KiB, 32KiB, 8MiB, 16MiB, 512MiB, 1GiB, 32GiB, 64GiB)",
                          (unsigned long long)sector_size);
}

cuzk_status fil_sector_tree(fil_tree_shape_t *out, uint64_t sector_size, cuzk_error_t *err)
{
    int i = size_row(sector_size);
    if (i < 0)
        return bad_size(sector_size, err);
    *out = (fil_tree_shape_t){FIL_HASHER_POSEIDON, 8, SIZES[i].sub, SIZES[i].top};
    return CUZK_OK;
}

cuzk_status fil_window_post_sectors(unsigned *out, uint64_t sector_size, cuzk_error_t *err)
{
    int i = size_row(sector_size);
    if (i < 0)
        return bad_size(sector_size, err);
    *out = SIZES[i].window_sectors;
    return CUZK_OK;
}

static cuzk_status synth_porep(cs_t *cs, uint64_t sector_size, fil_api_version api,
                               cuzk_error_t *err)
{
    fil_seal_proof p = FIL_SEAL_COUNT;
    cuzk_status st = CUZK_OK;
    if (api == FIL_API_1_2) { /* NI-PoRep: more partitions, the same partition */
        for (int i = 0; i < FIL_SEAL_COUNT; i++) {
            const fil_seal_info_t *r = fil_seal_info((fil_seal_proof)i);
            if (r && r->sector_size == sector_size && r->kind == FIL_POREP_NON_INTERACTIVE)
                p = (fil_seal_proof)i;
        }
        if (p == FIL_SEAL_COUNT)
            return bad_size(sector_size, err);
    } else if ((st = fil_seal_from_size(&p, sector_size, api, err)) != CUZK_OK) {
        return st;
    }
    const fil_seal_info_t *info = fil_seal_info(p);
    fil_porep_shape_t shape = {
        info->nodes, {FIL_HASHER_POSEIDON, 8, 0, 0}, info->layers, info->challenges_per_partition};
    if ((st = fil_sector_tree(&shape.tree, sector_size, err)) != CUZK_OK)
        return st;
    fil_porep_challenge_t *ch = malloc(sizeof *ch);
    if (!ch)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: no memory");
    st = fil_porep_challenge_blank(ch, &shape, err);
    if (st == CUZK_OK) {
        /* every challenge of a blank circuit is the same blank challenge */
        fil_porep_challenge_t *all = calloc(shape.challenges, sizeof *all);
        if (!all) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: no memory");
        } else {
            for (unsigned i = 0; i < shape.challenges; i++)
                all[i] = *ch;
            fil_porep_public_t pub;
            memset(&pub, 0, sizeof pub);
            fil_cs_porep(cs, &shape, &pub, all);
            free(all);
        }
    }
    free(ch);
    return st;
}

static cuzk_status synth_post(cs_t *cs, fil_circuit_kind kind, uint64_t sector_size,
                              cuzk_error_t *err)
{
    fil_post_shape_t shape = {sector_size / FIL_NODE_SIZE, {FIL_HASHER_POSEIDON, 8, 0, 0}, 1};
    unsigned sectors = 66; /* WINNING_POST_CHALLENGE_COUNT sectors of one challenge */
    cuzk_status st = fil_sector_tree(&shape.tree, sector_size, err);
    if (st == CUZK_OK && kind == FIL_CIRCUIT_WINDOW_POST) {
        shape.challenges = 10; /* WINDOW_POST_CHALLENGE_COUNT */
        st = fil_window_post_sectors(&sectors, sector_size, err);
    }
    if (st != CUZK_OK)
        return st;
    fil_post_sector_t *s = malloc(sizeof *s);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "post circuit: no memory");
    /* one blank sector padded to the circuit's count, as a partition of
     * fewer vanilla sectors is padded (fil_cs_post) */
    st = fil_post_sector_blank(s, &shape, err);
    if (st == CUZK_OK)
        fil_cs_post(cs, &shape, s, 1, sectors);
    free(s);
    return st;
}

static cuzk_status synth_update(cs_t *cs, fil_circuit_kind kind, uint64_t sector_size,
                                cuzk_error_t *err)
{
    if (size_row(sector_size) < 0)
        return bad_size(sector_size, err);
    fil_update_shape_t shape;
    fil_update_kind uk = kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    cuzk_status st = fil_update_shape_init(&shape, uk, sector_size / FIL_NODE_SIZE, err);
    if (st != CUZK_OK)
        return st;
    fil_update_witness_t w;
    if ((st = fil_update_witness_blank(&w, &shape, err)) != CUZK_OK)
        return st;
    fil_cs_update(cs, &shape, &w);
    fil_update_witness_free(&w);
    return CUZK_OK;
}

cuzk_status fil_circuit_synth_blank(cs_t *cs, fil_circuit_kind kind, uint64_t sector_size,
                                    fil_api_version api, cuzk_error_t *err)
{
    cuzk_status st;
    if (cs_has_values(cs))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "fil_circuit_synth_blank: a blank circuit has no values (count or "
                              "record)");
    switch (kind) {
    case FIL_CIRCUIT_POREP: st = synth_porep(cs, sector_size, api, err); break;
    case FIL_CIRCUIT_WINNING_POST:
    case FIL_CIRCUIT_WINDOW_POST: st = synth_post(cs, kind, sector_size, err); break;
    case FIL_CIRCUIT_SNAP_DEALS:
    case FIL_CIRCUIT_SNAP_DEALS_POSEIDON: st = synth_update(cs, kind, sector_size, err); break;
    default: return cuzk_error_set(err, CUZK_ERR_ARG, "unknown circuit kind %d", (int)kind);
    }
    if (st != CUZK_OK)
        return st;
    return cs_status(cs, err);
}
