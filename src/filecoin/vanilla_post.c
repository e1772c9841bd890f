/* bincode FallbackPoStSectorProof (filecoin_vanilla.h). */
#include <string.h>

#include "cuzk/filecoin_vanilla.h"

typedef struct rd {
    const uint8_t *p;
    size_t n, at;
    cuzk_error_t *err;
} rd_t;

static cuzk_status need(rd_t *r, size_t k, const char *what)
{
    if (r->n - r->at < k)
        return cuzk_error_set(r->err, CUZK_ERR_FORMAT,
                              "post vanilla proof: %s: %zu bytes needed at offset %zu, %zu left",
                              what, k, r->at, r->n - r->at);
    return CUZK_OK;
}

static cuzk_status u64(rd_t *r, uint64_t *out, const char *what)
{
    cuzk_status st = need(r, 8, what);
    if (st != CUZK_OK)
        return st;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | r->p[r->at + (size_t)i];
    r->at += 8;
    *out = v;
    return CUZK_OK;
}

static cuzk_status u32(rd_t *r, uint32_t *out, const char *what)
{
    cuzk_status st = need(r, 4, what);
    if (st != CUZK_OK)
        return st;
    *out = (uint32_t)r->p[r->at] | (uint32_t)r->p[r->at + 1] << 8 |
           (uint32_t)r->p[r->at + 2] << 16 | (uint32_t)r->p[r->at + 3] << 24;
    r->at += 4;
    return CUZK_OK;
}

static cuzk_status domain(rd_t *r, fr_t *out, const char *what)
{
    cuzk_status st = need(r, 32, what);
    if (st != CUZK_OK)
        return st;
    if (fr_from_le(out, r->p + r->at) != CUZK_OK)
        return cuzk_error_set(r->err, CUZK_ERR_NONCANONICAL,
                              "post vanilla proof: %s at offset %zu is not a canonical field "
                              "element",
                              what, r->at);
    r->at += 32;
    return CUZK_OK;
}

/* InclusionPath: Vec<PathElement { hashes: Vec<Domain>, index: u64 }>,
 * appended to p's levels; *arity is the arity of every element (all of
 * one InclusionPath share it). */
static cuzk_status inclusion_path(rd_t *r, fil_merkle_path_t *p, unsigned *arity, const char *what)
{
    uint64_t n;
    cuzk_status st = u64(r, &n, what);
    if (st != CUZK_OK)
        return st;
    if (n == 0 || n > FIL_MERKLE_MAX_LEVELS - p->n_levels)
        return cuzk_error_set(r->err, CUZK_ERR_FORMAT,
                              "post vanilla proof: %s has %llu levels (1..%u in all)", what,
                              (unsigned long long)n, FIL_MERKLE_MAX_LEVELS);
    *arity = 0;
    for (uint64_t l = 0; l < n; l++) {
        fil_merkle_level_t *lv = &p->level[p->n_levels];
        uint64_t nh, index;
        if ((st = u64(r, &nh, what)) != CUZK_OK)
            return st;
        unsigned a = (unsigned)nh + 1;
        if (nh == 0 || nh >= FIL_MERKLE_MAX_ARITY || (a & (a - 1)) != 0 || (*arity && a != *arity))
            return cuzk_error_set(r->err, CUZK_ERR_FORMAT,
                                  "post vanilla proof: %s level %llu has %llu sibling hashes (1, 3 "
                                  "or 7, the same at every level)",
                                  what, (unsigned long long)l, (unsigned long long)nh);
        *arity = a;
        lv->arity = a;
        for (unsigned h = 0; h < nh; h++)
            if ((st = domain(r, &lv->siblings[h], what)) != CUZK_OK)
                return st;
        if ((st = u64(r, &index, what)) != CUZK_OK)
            return st;
        if (index >= a)
            return cuzk_error_set(r->err, CUZK_ERR_FORMAT,
                                  "post vanilla proof: %s level %llu index %llu (arity %u)", what,
                                  (unsigned long long)l, (unsigned long long)index, a);
        lv->index = (unsigned)index;
        p->n_levels++;
    }
    return CUZK_OK;
}

/* MerkleProof { data: ProofData } */
static cuzk_status merkle_proof(rd_t *r, fil_merkle_path_t *p, fil_tree_shape_t *shape)
{
    uint32_t tag;
    memset(p, 0, sizeof *p);
    memset(shape, 0, sizeof *shape);
    shape->hasher = FIL_HASHER_POSEIDON;
    cuzk_status st = u32(r, &tag, "ProofData tag");
    if (st != CUZK_OK)
        return st;
    if (tag > 2)
        return cuzk_error_set(r->err, CUZK_ERR_FORMAT,
                              "post vanilla proof: ProofData tag %u (0 Single, 1 Sub, 2 Top)", tag);
    if (tag == 0) { /* SingleProof { root, leaf, path } */
        if ((st = domain(r, &p->root, "root")) == CUZK_OK &&
            (st = domain(r, &p->leaf, "leaf")) == CUZK_OK)
            st = inclusion_path(r, p, &shape->base_arity, "path");
        return st;
    }
    /* SubProof { base_proof, sub_proof, root, leaf }; TopProof adds
     * top_proof before root */
    if ((st = inclusion_path(r, p, &shape->base_arity, "base_proof")) != CUZK_OK ||
        (st = inclusion_path(r, p, &shape->sub_arity, "sub_proof")) != CUZK_OK)
        return st;
    if (tag == 2 && (st = inclusion_path(r, p, &shape->top_arity, "top_proof")) != CUZK_OK)
        return st;
    if ((st = domain(r, &p->root, "root")) == CUZK_OK)
        st = domain(r, &p->leaf, "leaf");
    return st;
}

cuzk_status fil_post_vproof_parse(fil_post_vproof_t *out, const uint8_t *data, size_t n,
                                  cuzk_error_t *err)
{
    if (!out || (!data && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_vproof_parse: NULL argument");
    memset(out, 0, sizeof *out);
    rd_t r = {data, n, 0, err};
    uint64_t sectors, proofs;
    cuzk_status st = u64(&r, &out->sector_id, "sector_id");
    if (st == CUZK_OK)
        st = domain(&r, &out->comm_r, "comm_r");
    if (st == CUZK_OK)
        st = u64(&r, &sectors, "vanilla_proof.sectors length");
    if (st == CUZK_OK && sectors != 1)
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "post vanilla proof: %llu sectors in the vanilla proof (one per "
                            "FallbackPoStSectorProof)",
                            (unsigned long long)sectors);
    if (st == CUZK_OK)
        st = u64(&r, &proofs, "inclusion_proofs length");
    if (st == CUZK_OK && (proofs == 0 || proofs > FIL_POST_VPROOF_MAX_PROOFS))
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "post vanilla proof: %llu inclusion proofs (1..%u)",
                            (unsigned long long)proofs, FIL_POST_VPROOF_MAX_PROOFS);
    for (uint64_t i = 0; st == CUZK_OK && i < proofs; i++) {
        fil_tree_shape_t s;
        st = merkle_proof(&r, &out->paths[i], &s);
        if (st != CUZK_OK)
            break;
        if (i == 0)
            out->shape = s;
        else if (memcmp(&s, &out->shape, sizeof s) != 0)
            st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                                "post vanilla proof: inclusion proof %llu has another tree shape "
                                "than the first",
                                (unsigned long long)i);
        out->n_proofs = (unsigned)i + 1;
    }
    if (st == CUZK_OK)
        st = domain(&r, &out->comm_c, "comm_c");
    if (st == CUZK_OK)
        st = domain(&r, &out->comm_r_last, "comm_r_last");
    if (st == CUZK_OK && r.at != n)
        st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                            "post vanilla proof: %zu bytes after the proof (it ends at %zu)",
                            n - r.at, r.at);
    if (st != CUZK_OK)
        memset(out, 0, sizeof *out);
    return st;
}
