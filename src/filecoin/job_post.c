/* The PoSt half of a proving job (filecoin_job.h): one bincode
 * FallbackPoStSectorProof per sector parsed into the circuit's sectors,
 * the public sectors completed from them or checked against them, and a
 * partition's sectors handed out without copying.
 *
 * RFP@87348a7: filecoin-proofs/src/api/window_post.rs and
 * winning_post.rs (the vanilla proofs in the sector order of the public
 * sectors), storage-proofs-post/src/fallback/compound.rs circuit()
 * (partition k takes sectors [k * sector_count, ...); a short partition
 * is padded with its last sector by fil_cs_post) and
 * filecoin-proofs/src/api/post_util.rs single_partition_vanilla_proofs
 * (WinningPoSt: the one sector's 66 inclusion proofs become the circuit's
 * 66 sectors of one challenge each). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_vanilla.h"
#include "job_internal.h"

static const char *size_str(uint64_t sector_size)
{
    const char *s = fil_sector_size_str(sector_size);
    return s ? s : "?";
}

/* v's paths must be of the sector size's tree, as many as the proof
 * reads. */
static cuzk_status check_shape(const fil_job_t *j, const fil_post_vproof_t *v, unsigned levels,
                               cuzk_error_t *err)
{
    const fil_tree_shape_t *t = &j->post_shape.tree;
    int ok = v->shape.base_arity == t->base_arity && v->shape.sub_arity == t->sub_arity &&
             v->shape.top_arity == t->top_arity;
    for (unsigned k = 0; ok && k < v->n_proofs; k++)
        ok = v->paths[k].n_levels == levels;
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "the vanilla proof of sector %llu has paths of a %u-%u-%u tree; a "
                              "%s sector's are %u-%u-%u with %u levels",
                              (unsigned long long)v->sector_id, v->shape.base_arity,
                              v->shape.sub_arity, v->shape.top_arity, size_str(j->pub.sector_size),
                              t->base_arity, t->sub_arity, t->top_arity, levels);
    int winning = j->pub.kind == FIL_CIRCUIT_WINNING_POST;
    unsigned need = winning ? j->pp.sector_count : j->pp.challenge_count;
    if (v->n_proofs < need)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "the vanilla proof of sector %llu holds %u inclusion proofs; this "
                              "proof needs %u",
                              (unsigned long long)v->sector_id, v->n_proofs, need);
    return CUZK_OK;
}

/* The circuit's sector `at` from v's inclusion proofs [first, first +
 * count). */
static void put_sector(fil_post_sector_t *s, const fil_post_vproof_t *v, unsigned first,
                       unsigned count)
{
    s->comm_r = v->comm_r;
    s->comm_c = v->comm_c;
    s->comm_r_last = v->comm_r_last;
    for (unsigned c = 0; c < count; c++) {
        s->paths[c] = v->paths[first + c];
        s->leafs[c] = v->paths[first + c].leaf;
    }
}

/* The public sectors are the vanilla proofs' (ids and comm_r), in order:
 * given, they must match; absent, they are taken. */
static cuzk_status public_sectors(fil_job_t *j, fil_post_pub_sector_t *got, size_t n,
                                  cuzk_error_t *err)
{
    fil_public_t *p = &j->pub;
    if (!(p->have & FIL_PUB_SECTORS)) {
        p->sectors = got;
        p->n_sectors = n;
        p->have |= FIL_PUB_SECTORS;
        return CUZK_OK;
    }
    cuzk_status st = CUZK_OK;
    if (p->n_sectors != n)
        st = cuzk_error_set(err, CUZK_ERR_ARG, "%zu public sectors but %zu vanilla proofs",
                            p->n_sectors, n);
    for (size_t i = 0; st == CUZK_OK && i < n; i++)
        if (p->sectors[i].id != got[i].id || memcmp(p->sectors[i].comm_r, got[i].comm_r, 32))
            st = cuzk_error_set(err, CUZK_ERR_ARG,
                                "vanilla proof %zu is of sector %llu, not the public sector %llu "
                                "with its comm_r",
                                i, (unsigned long long)got[i].id,
                                (unsigned long long)p->sectors[i].id);
    free(got);
    return st;
}

/* Parses vanilla proof i into scratch, checks it and keeps what the
 * circuit reads. */
static cuzk_status load_one(fil_job_t *j, fil_post_vproof_t *scratch, const uint8_t *b, size_t len,
                            size_t i, unsigned levels, fil_post_pub_sector_t *got,
                            cuzk_error_t *err)
{
    cuzk_status st = fil_post_vproof_parse(scratch, b, len, err);
    if (st != CUZK_OK)
        return fil_job_prefixed(err, st, fil_job_name(j, i));
    if ((st = check_shape(j, scratch, levels, err)) != CUZK_OK)
        return st;
    got[i].id = scratch->sector_id;
    fr_to_le(got[i].comm_r, &scratch->comm_r);
    if (j->pub.kind == FIL_CIRCUIT_WINDOW_POST)
        put_sector(&j->post[i], scratch, 0, j->pp.challenge_count);
    else if (i == 0) /* a second sector is refused by fil_public_check */
        for (unsigned k = 0; k < j->pp.sector_count; k++)
            put_sector(&j->post[k], scratch, k, 1);
    return CUZK_OK;
}

cuzk_status fil_job_post_load(fil_job_t *j, const uint8_t *const *v, const size_t *lens, size_t n,
                              cuzk_error_t *err)
{
    const fil_public_t *p = &j->pub;
    fil_post_shape_t *sh = &j->post_shape;
    unsigned levels = 0;
    cuzk_status st = fil_post_params(&j->pp, p->kind, p->sector_size, p->api, err);
    if (st == CUZK_OK)
        st = fil_sector_tree(&sh->tree, p->sector_size, err);
    sh->nodes = p->sector_size / FIL_NODE_SIZE;
    sh->challenges = j->pp.challenge_count;
    if (st == CUZK_OK)
        st = fil_tree_shape_levels(NULL, &levels, &sh->tree, sh->nodes, err);
    if (st != CUZK_OK)
        return fil_job_prefixed(err, st, "public values");
    j->n_post = p->kind == FIL_CIRCUIT_WINNING_POST ? j->pp.sector_count : n;
    j->post = calloc(j->n_post, sizeof *j->post);
    fil_post_pub_sector_t *got = calloc(n, sizeof *got);
    fil_post_vproof_t *scratch = malloc(sizeof *scratch); /* ~490 KB: one, reused */
    if (!j->post || !got || !scratch)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "no memory for %zu vanilla proofs", n);
    for (size_t i = 0; st == CUZK_OK && i < n; i++)
        st = load_one(j, scratch, v[i], lens[i], i, levels, got, err);
    free(scratch);
    if (st != CUZK_OK) {
        free(got);
        return st;
    }
    return public_sectors(j, got, n, err);
}

cuzk_status fil_job_post_partition(fil_job_part_t *out, const fil_job_t *j, unsigned i,
                                   cuzk_error_t *err)
{
    const fil_public_t *p = &j->pub;
    size_t count = j->pp.sector_count, first = 0;
    if (p->kind == FIL_CIRCUIT_WINDOW_POST) {
        first = (p->have & FIL_PUB_PARTITION) ? 0 : (size_t)i * j->pp.sector_count;
        if (first >= j->n_post)
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "partition %u holds no sector", i);
        if (j->n_post - first < count)
            count = j->n_post - first;
    }
    out->p.kind = p->kind;
    out->p.post.shape = j->post_shape;
    out->p.post.sector_count = j->pp.sector_count;
    out->p.post.sectors = j->post + first;
    out->p.post.n_sectors = (unsigned)count;
    return CUZK_OK;
}
