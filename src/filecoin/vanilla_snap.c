/* bincode PartitionProof, SnapDeals' vanilla proof of one partition
 * (filecoin_vanilla.h; RFP@87348a7 storage-proofs-update/src/vanilla.rs
 * PartitionProof { comm_c, apex_leafs, challenge_proofs }, ChallengeProof
 * { proof_r_old, proof_d_new, proof_r_new }; src/poseidon/vanilla.rs the
 * same without apex_leafs), and the circuit witness it gives with the
 * public values (vanilla.rs EmptySectorUpdate::verify_all_partitions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_vanilla.h"
#include "vanilla_merkle.h"

static const char k_what[] = "snap vanilla proof";
static const char *const k_proof_name[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};

static int tree_equal(const fil_tree_shape_t *a, const fil_tree_shape_t *b)
{
    return a->hasher == b->hasher && a->base_arity == b->base_arity &&
           a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

/* The shape must be fil_update_shape_init's for its kind and node count:
 * the counts below are trusted only then. */
static cuzk_status shape_check(const fil_update_shape_t *sh, cuzk_error_t *err)
{
    fil_update_shape_t ref;
    cuzk_error_t e;
    if (fil_update_shape_init(&ref, sh->kind, sh->nodes, &e) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: %s", k_what, e.msg);
    if (ref.kind != sh->kind || ref.nodes != sh->nodes || !tree_equal(&ref.tree_r, &sh->tree_r) ||
        !tree_equal(&ref.tree_d, &sh->tree_d) || ref.challenge_bits != sh->challenge_bits ||
        ref.challenges != sh->challenges || ref.partitions != sh->partitions ||
        ref.partition_bits != sh->partition_bits || ref.apex_leafs != sh->apex_leafs ||
        ref.apex_leaf_bits != sh->apex_leaf_bits || memcmp(ref.hs, sh->hs, sizeof ref.hs) != 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: the shape is not fil_update_shape_init's",
                              k_what);
    return CUZK_OK;
}

static fil_merkle_path_t *proof_of(fil_update_challenge_t *ch, unsigned j)
{
    return j == 0 ? &ch->r_old : j == 1 ? &ch->d_new : &ch->r_new;
}

static const fil_merkle_path_t *cproof_of(const fil_update_challenge_t *ch, unsigned j)
{
    return j == 0 ? &ch->r_old : j == 1 ? &ch->d_new : &ch->r_new;
}

/* ---- parsing ------------------------------------------------------------- */

static cuzk_status parse(fil_snap_vproof_t *out, const fil_update_shape_t *sh, fil_vrd_t *r)
{
    unsigned base[2]; /* tree_r, tree_d */
    if (fil_tree_shape_levels(&base[0], NULL, &sh->tree_r, sh->nodes, r->err) != CUZK_OK ||
        fil_tree_shape_levels(&base[1], NULL, &sh->tree_d, sh->nodes, r->err) != CUZK_OK)
        return CUZK_ERR_ARG;
    out->kind = sh->kind;
    out->tree_r = sh->tree_r;
    out->tree_d = sh->tree_d;
    uint64_t len;
    cuzk_status st = fil_vrd_domain(r, &out->comm_c, "comm_c");
    if (st == CUZK_OK && sh->kind == FIL_UPDATE_SHA) {
        if ((st = fil_vrd_len(r, &len, sh->apex_leafs, sh->apex_leafs, "apex_leafs")) != CUZK_OK)
            return st;
        if (!(out->apex_leafs = calloc(sh->apex_leafs, sizeof *out->apex_leafs)))
            return cuzk_error_set(r->err, CUZK_ERR_NOMEM, "%s: out of memory", k_what);
        out->n_apex_leafs = sh->apex_leafs;
        char f[24];
        for (unsigned i = 0; st == CUZK_OK && i < sh->apex_leafs; i++) {
            snprintf(f, sizeof f, "apex_leafs[%u]", i);
            st = fil_vrd_domain(r, &out->apex_leafs[i], f);
        }
    }
    if (st == CUZK_OK)
        st = fil_vrd_len(r, &len, sh->challenges, sh->challenges, "challenge_proofs");
    if (st != CUZK_OK)
        return st;
    if (!(out->challenges = calloc(sh->challenges, sizeof *out->challenges)))
        return cuzk_error_set(r->err, CUZK_ERR_NOMEM, "%s: out of memory for %u challenges", k_what,
                              sh->challenges);
    out->n_challenges = sh->challenges;
    for (unsigned c = 0; st == CUZK_OK && c < sh->challenges; c++)
        for (unsigned j = 0; st == CUZK_OK && j < 3; j++) {
            fil_vrd_ctx(r, "challenge_proofs[%u].%s", c, k_proof_name[j]);
            const int d = j == 1;
            st = fil_vrd_merkle_proof_of(r, proof_of(&out->challenges[c], j),
                                         d ? &sh->tree_d : &sh->tree_r, base[d]);
        }
    fil_vrd_ctx(r, "%s", "");
    return st == CUZK_OK ? fil_vrd_end(r) : st;
}

cuzk_status fil_snap_vproof_parse(fil_snap_vproof_t *out, const fil_update_shape_t *shape,
                                  const uint8_t *data, size_t n, cuzk_error_t *err)
{
    if (!out || !shape || (!data && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_snap_vproof_parse: NULL argument");
    memset(out, 0, sizeof *out);
    cuzk_status st = shape_check(shape, err);
    if (st != CUZK_OK)
        return st;
    fil_vrd_t r;
    fil_vrd_init(&r, data, n, k_what, err);
    if ((st = parse(out, shape, &r)) != CUZK_OK)
        fil_snap_vproof_free(out);
    return st;
}

void fil_snap_vproof_free(fil_snap_vproof_t *v)
{
    if (!v)
        return;
    free(v->apex_leafs);
    free(v->challenges);
    memset(v, 0, sizeof *v);
}

/* ---- writing ------------------------------------------------------------- */

cuzk_status fil_snap_vproof_write(uint8_t **out, size_t *n, const fil_snap_vproof_t *v,
                                  cuzk_error_t *err)
{
    if (!out || !n || !v)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_snap_vproof_write: NULL argument");
    *out = NULL;
    *n = 0;
    if (v->kind != FIL_UPDATE_SHA && v->kind != FIL_UPDATE_POSEIDON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown kind %d", k_what, (int)v->kind);
    if (v->kind == FIL_UPDATE_POSEIDON && v->n_apex_leafs)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "%s: %u apex leafs in a Poseidon PartitionProof (it has none)",
                              k_what, v->n_apex_leafs);
    if ((v->n_apex_leafs && !v->apex_leafs) || (v->n_challenges && !v->challenges))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: an array is NULL", k_what);
    fil_vwr_t w = {0};
    fil_vwr_domain(&w, &v->comm_c);
    if (v->kind == FIL_UPDATE_SHA) {
        fil_vwr_u64(&w, v->n_apex_leafs);
        for (unsigned i = 0; i < v->n_apex_leafs; i++)
            fil_vwr_domain(&w, &v->apex_leafs[i]);
    }
    fil_vwr_u64(&w, v->n_challenges);
    cuzk_status st = CUZK_OK;
    for (unsigned c = 0; st == CUZK_OK && c < v->n_challenges; c++)
        for (unsigned j = 0; st == CUZK_OK && j < 3; j++) {
            char f[48];
            snprintf(f, sizeof f, "challenge_proofs[%u].%s", c, k_proof_name[j]);
            st = fil_vwr_merkle_proof(&w, cproof_of(&v->challenges[c], j),
                                      j == 1 ? &v->tree_d : &v->tree_r, k_what, f, err);
        }
    return fil_vwr_finish(&w, out, n, st, k_what, err);
}

/* ---- the circuit's witness ----------------------------------------------- */

/* p has `t`'s levels over `nodes` leaves, each index below its arity. */
static int path_fits(const fil_merkle_path_t *p, const fil_tree_shape_t *t, uint64_t nodes)
{
    unsigned base, levels;
    if (fil_tree_shape_levels(&base, &levels, t, nodes, NULL) != CUZK_OK || p->n_levels != levels)
        return 0;
    for (unsigned l = 0; l < levels; l++)
        if (p->level[l].arity != fil_tree_shape_level_arity(t, base, l) ||
            p->level[l].index >= p->level[l].arity)
            return 0;
    return 1;
}

/* v is a partition proof of sh's form. */
static cuzk_status fits(const fil_update_shape_t *sh, const fil_snap_vproof_t *v, cuzk_error_t *err)
{
    if (v->kind != sh->kind)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: a proof of kind %d for a shape of kind %d",
                              k_what, (int)v->kind, (int)sh->kind);
    if (v->n_challenges != sh->challenges || v->n_apex_leafs != sh->apex_leafs || !v->challenges ||
        (sh->apex_leafs && !v->apex_leafs))
        return cuzk_error_set(
            err, CUZK_ERR_ARG, "%s: %u challenge proofs and %u apex leafs, the shape has %u and %u",
            k_what, v->n_challenges, v->n_apex_leafs, sh->challenges, sh->apex_leafs);
    if (!tree_equal(&v->tree_r, &sh->tree_r) || !tree_equal(&v->tree_d, &sh->tree_d))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: tree shapes that are not the sector's",
                              k_what);
    for (unsigned c = 0; c < sh->challenges; c++)
        for (unsigned j = 0; j < 3; j++)
            if (!path_fits(cproof_of(&v->challenges[c], j), j == 1 ? &sh->tree_d : &sh->tree_r,
                           sh->nodes))
                return cuzk_error_set(err, CUZK_ERR_ARG,
                                      "%s: challenge_proofs[%u].%s is not a path of its tree",
                                      k_what, c, k_proof_name[j]);
    return CUZK_OK;
}

/* want = Poseidon-2(comm_c, root) (hash2, as circuit.rs checks comm_r). */
static cuzk_status comm_r_check(const fr_t *comm_c, const fr_t *root, const fr_t *want,
                                const char *name, cuzk_error_t *err)
{
    fr_t in[2] = {*comm_c, *root}, got;
    cuzk_status st = fil_merkle_node(&got, FIL_HASHER_POSEIDON, in, 2, err);
    if (st == CUZK_OK && !fr_equal(&got, want))
        st = cuzk_error_set(err, CUZK_ERR_ARG,
                            "%s: %s is not Poseidon-2(comm_c, the proofs' root): the proof is "
                            "of another sector",
                            k_what, name);
    return st;
}

/* Roots and challenge positions (ChallengeProof::verify_merkle_proofs less
 * the hashing). */
static cuzk_status openings_check(const fil_update_shape_t *sh, const fil_snap_vproof_t *v,
                                  const fil_snap_public_t *pub, cuzk_error_t *err)
{
    const fr_t *want_root[3] = {&v->challenges[0].r_old.root, &pub->comm_d_new,
                                &v->challenges[0].r_new.root};
    static const char *const k_want_name[3] = {"challenge 0's", "comm_d_new", "challenge 0's"};
    uint64_t *idx = malloc(sh->challenges * sizeof *idx);
    if (!idx)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: out of memory", k_what);
    cuzk_status st = fil_update_challenges(idx, sh, &pub->comm_r_new, pub->k, err);
    for (unsigned c = 0; st == CUZK_OK && c < sh->challenges; c++)
        for (unsigned j = 0; st == CUZK_OK && j < 3; j++) {
            const fil_merkle_path_t *p = cproof_of(&v->challenges[c], j);
            uint64_t at = fil_merkle_path_leaf_index(p);
            if (!fr_equal(&p->root, want_root[j]))
                st = cuzk_error_set(err, CUZK_ERR_ARG,
                                    "%s: challenge_proofs[%u].%s: its root is not %s", k_what, c,
                                    k_proof_name[j], k_want_name[j]);
            else if (at != idx[c])
                st = cuzk_error_set(err, CUZK_ERR_ARG,
                                    "%s: challenge_proofs[%u].%s opens node %llu, partition %u's "
                                    "challenge %u is node %llu",
                                    k_what, c, k_proof_name[j], (unsigned long long)at, pub->k, c,
                                    (unsigned long long)idx[c]);
        }
    free(idx);
    return st;
}

cuzk_status fil_snap_vproof_witness(fil_update_witness_t *out, const fil_update_shape_t *shape,
                                    const fil_snap_vproof_t *v, const fil_snap_public_t *pub,
                                    cuzk_error_t *err)
{
    if (!out || !shape || !v || !pub)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_snap_vproof_witness: NULL argument");
    memset(out, 0, sizeof *out);
    fr_t inputs[4];
    cuzk_status st = shape_check(shape, err);
    if (st == CUZK_OK)
        st = fits(shape, v, err);
    if (st == CUZK_OK)
        st = fil_update_public_inputs(inputs, shape, pub->k, pub->h, &pub->comm_r_old,
                                      &pub->comm_d_new, &pub->comm_r_new, err);
    if (st == CUZK_OK)
        st = openings_check(shape, v, pub, err);
    if (st == CUZK_OK)
        st = comm_r_check(&v->comm_c, &v->challenges[0].r_old.root, &pub->comm_r_old, "comm_r_old",
                          err);
    if (st == CUZK_OK)
        st = comm_r_check(&v->comm_c, &v->challenges[0].r_new.root, &pub->comm_r_new, "comm_r_new",
                          err);
    if (st == CUZK_OK)
        st = fil_update_witness_blank(out, shape, err);
    if (st != CUZK_OK)
        return st;
    out->k_and_h_select = inputs[0];
    out->comm_r_old = pub->comm_r_old;
    out->comm_d_new = pub->comm_d_new;
    out->comm_r_new = pub->comm_r_new;
    out->comm_c = v->comm_c;
    out->root_r_old = v->challenges[0].r_old.root;
    out->root_r_new = v->challenges[0].r_new.root;
    if (shape->apex_leafs)
        memcpy(out->apex_leafs, v->apex_leafs, shape->apex_leafs * sizeof *out->apex_leafs);
    memcpy(out->challenges, v->challenges, shape->challenges * sizeof *out->challenges);
    return CUZK_OK;
}
