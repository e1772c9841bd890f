/* A Filecoin partition from vanilla proof to verified Groth16 proof
 * (include/cuzk/filecoin_prove.h): a 2 KiB WinningPoSt over a real
 * Poseidon tree_r_last, its circuit recorded and cached (.ccs), an
 * insecure bellperson key for it, the witness's public inputs equal to
 * those derived from public values alone (filecoin_inputs.h), the proof
 * verified against the derived inputs; a wrong leaf breaks the witness
 * check, a wrong randomness the verification, and a damaged cache file is
 * rebuilt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/groth16.h"
#include "cuzk/hash.h"
#include "cuzk/key.h"
#include "cuzk/parallel.h"
#include "cuzk/poseidon.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"
#include "test_util.h"

#define SECTOR 2048u

static const fil_witness_opts_t CHECK = {FIL_WITNESS_CHECK, 1, 0, 0};

typedef struct post_case {
    fil_post_params_t pp;
    fil_post_shape_t shape;
    fil_post_pub_sector_t pub;
    uint8_t randomness[32];
    fil_post_sector_t *sectors; /* pp.sector_count */
    fil_merkle_tree_t *tree;
} post_case_t;

/* A sealed sector's public side for PoSt: tree_r_last over random
 * leaves, a random comm_c, comm_r = Poseidon-2(comm_c, comm_r_last); the
 * vanilla proof of every circuit sector's challenges (WinningPoSt: 66
 * sectors x 1, WindowPoSt: 2 x 10). */
static void post_case_make_kind(post_case_t *pc, fil_circuit_kind kind)
{
    cuzk_error_t err = {0};
    memset(pc, 0, sizeof *pc);
    assert_int_equal(fil_post_params(&pc->pp, kind, SECTOR, FIL_API_1_1, &err), CUZK_OK);
    uint64_t leaves = SECTOR / 32;
    pc->shape.nodes = leaves;
    pc->shape.challenges = pc->pp.challenge_count;
    assert_int_equal(fil_sector_tree(&pc->shape.tree, SECTOR, &err), CUZK_OK);
    fr_t data[SECTOR / 32], comm_c, comm_r_last, comm_r;
    for (uint64_t i = 0; i < leaves; i++)
        tu_rand_fr(&data[i]);
    assert_int_equal(fil_merkle_tree_build(&pc->tree, &pc->shape.tree, data, leaves, &err),
                     CUZK_OK);
    fil_merkle_tree_root(&comm_r_last, pc->tree);
    tu_rand_fr(&comm_c);
    const poseidon_constants_t *c2 = NULL;
    assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
    fr_t two[2] = {comm_c, comm_r_last};
    assert_int_equal(poseidon_hash(&comm_r, c2, two, 2, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
    pc->pub.id = 1 + tu_rand64() % 1000;
    fr_to_le(pc->pub.comm_r, &comm_r);
    fr_t rnd;
    tu_rand_fr(&rnd);
    fr_to_le(pc->randomness, &rnd);
    pc->sectors = calloc(pc->pp.sector_count, sizeof *pc->sectors);
    assert_non_null(pc->sectors);
    for (unsigned i = 0; i < pc->pp.sector_count; i++) {
        fil_post_sector_t *s = &pc->sectors[i];
        s->comm_r = comm_r;
        s->comm_c = comm_c;
        s->comm_r_last = comm_r_last;
        uint64_t leaf[FIL_POST_MAX_CHALLENGES];
        assert_int_equal(fil_post_sector_leaves(leaf, &pc->pp, pc->randomness, pc->pub.id, i, &err),
                         CUZK_OK);
        for (unsigned c = 0; c < pc->pp.challenge_count; c++) {
            assert_int_equal(fil_merkle_tree_path(&s->paths[c], pc->tree, leaf[c], &err), CUZK_OK);
            s->leafs[c] = s->paths[c].leaf;
        }
    }
}

/* WinningPoSt's case (its sector list is one sector per challenge). */
static void post_case_make(post_case_t *pc)
{
    post_case_make_kind(pc, FIL_CIRCUIT_WINNING_POST);
}

static void post_case_free(post_case_t *pc)
{
    free(pc->sectors);
    fil_merkle_tree_free(pc->tree);
}

static fil_partition_t post_partition(const post_case_t *pc, unsigned n_sectors)
{
    fil_partition_t p;
    memset(&p, 0, sizeof p);
    p.kind = pc->pp.kind;
    p.post.shape = pc->shape;
    p.post.sector_count = pc->pp.sector_count;
    p.post.sectors = pc->sectors;
    p.post.n_sectors = n_sectors;
    return p;
}

static void derived_inputs(fr_t *in, size_t cap, size_t *n, const post_case_t *pc,
                           const uint8_t randomness[32])
{
    fil_post_pub_sector_t list[66];
    fil_post_winning_sectors(list, &pc->pp, &pc->pub);
    cuzk_error_t err = {0};
    assert_int_equal(
        fil_post_inputs(in, cap, n, &pc->pp, randomness, list, pc->pp.sector_count, 0, &err),
        CUZK_OK);
}

static void test_winning_post_end_to_end(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    post_case_t pc;
    post_case_make(&pc);

    char cache[] = "/tmp/cuzk_fil_prove_XXXXXX";
    int fd = mkstemp(cache);
    assert_true(fd >= 0);
    close(fd);
    remove(cache); /* a path that does not exist yet */
    circuit_t c, c2;
    fil_circuit_source made = FIL_CIRCUIT_CACHED;
    if (fil_circuit_load(&c, &made, FIL_CIRCUIT_WINNING_POST, SECTOR, FIL_API_1_1, cache, 0,
                         &err) != CUZK_OK)
        fail_msg("circuit: %s", err.msg);
    assert_int_equal(made, FIL_CIRCUIT_RECORDED);
    assert_int_equal(
        fil_circuit_load(&c2, &made, FIL_CIRCUIT_WINNING_POST, SECTOR, FIL_API_1_1, cache, 0, &err),
        CUZK_OK);
    assert_int_equal(made, FIL_CIRCUIT_CACHED);
    assert_int_equal(c2.n_rows, c.n_rows);
    assert_int_equal(c2.n_vars, c.n_vars);
    assert_int_equal(c2.n_public, c.n_public);
    circuit_free(&c2);
    printf("test_filecoin_prove: WinningPoSt 2 KiB: %u constraints, %u variables, %u inputs\n",
           c.n_rows, c.n_vars, c.n_public);

    /* the witness: its inputs are the derived ones */
    fil_partition_t p = post_partition(&pc, pc.pp.sector_count);
    fr_t *w = NULL;
    size_t n_vars = 0, n_in = 0;
    if (fil_partition_witness(&w, &n_vars, &n_in, &p, &CHECK, &err) != CUZK_OK)
        fail_msg("witness: %s", err.msg);
    assert_int_equal(n_vars, c.n_vars);
    assert_int_equal(n_in, c.n_public);
    uint32_t bad_row = 0;
    assert_int_equal(circuit_check(&bad_row, &c, w, 0), CUZK_OK);
    assert_int_equal(bad_row, UINT32_MAX);
    fr_t in[132];
    size_t n = 0;
    derived_inputs(in, 132, &n, &pc, pc.randomness);
    assert_int_equal(n, n_in);
    for (size_t i = 0; i < n; i++)
        if (!fr_equal(&in[i], &w[1 + i]))
            fail_msg("input %zu: the witness's differs from the derived one", i);

    /* prove and verify against the derived inputs */
    groth16_key_t key = {0};
    assert_int_equal(groth16_setup(&key, &c, GROTH16_BELLPERSON, tu_rand64(), 0, &err), CUZK_OK);
    groth16_pk_t pk;
    groth16_key_pk(&pk, &key);
    fr_t r, s;
    tu_rand_fr(&r);
    tu_rand_fr(&s);
    groth16_proof_t proof;
    if (groth16_prove(&proof, &pk, &c, w, &r, &s, &GROTH16_BACKEND_CPU, NULL, &err) != CUZK_OK)
        fail_msg("prove: %s", err.msg);
    int valid = 0;
    assert_int_equal(groth16_verify(&valid, &key.vk, &proof, in, n, &err), CUZK_OK);
    assert_true(valid);
    uint8_t other[32]; /* other randomness (a flipped bit could leave the field) */
    do {
        fr_t o;
        tu_rand_fr(&o);
        fr_to_le(other, &o);
    } while (!memcmp(other, pc.randomness, 32));
    derived_inputs(in, 132, &n, &pc, other);
    assert_int_equal(groth16_verify(&valid, &key.vk, &proof, in, n, &err), CUZK_OK);
    assert_false(valid);
    free(w);

    /* a wrong leaf is caught by the check, naming the constraint */
    fr_add(&pc.sectors[3].leafs[0], &pc.sectors[3].leafs[0], &FR_ONE);
    assert_int_equal(fil_partition_witness(&w, &n_vars, &n_in, &p, &CHECK, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "not satisfied"));
    assert_null(w);
    p.post.n_sectors = 0;
    assert_int_equal(fil_partition_witness(&w, &n_vars, &n_in, &p, NULL, &err), CUZK_ERR_ARG);

    /* a damaged cache is rebuilt */
    FILE *f = fopen(cache, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 200, SEEK_SET), 0);
    fputc(0x5a, f);
    fclose(f);
    assert_int_equal(
        fil_circuit_load(&c2, &made, FIL_CIRCUIT_WINNING_POST, SECTOR, FIL_API_1_1, cache, 0, &err),
        CUZK_OK);
    assert_int_equal(made, FIL_CIRCUIT_REBUILT);
    circuit_free(&c2);
    /* an unwritable cache is an error, not a silent slow path */
    assert_int_equal(fil_circuit_load(&c2, &made, FIL_CIRCUIT_WINNING_POST, SECTOR, FIL_API_1_1,
                                      "/nonexistent-dir/x.ccs", 0, &err),
                     CUZK_ERR_IO);
    remove(cache);
    groth16_key_free(&key);
    circuit_free(&c);
    post_case_free(&pc);
}

/* Fewer vanilla sectors than the circuit holds: the last repeats, as the
 * derived inputs repeat it. */
static void test_post_padding(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    post_case_t pc;
    post_case_make(&pc);
    fil_partition_t p = post_partition(&pc, 5);
    fr_t *w = NULL;
    size_t n_vars, n_in;
    assert_int_equal(fil_partition_witness(&w, &n_vars, &n_in, &p, &CHECK, &err), CUZK_OK);
    for (unsigned i = 5; i < pc.pp.sector_count; i++) {
        assert_true(fr_equal(&w[1 + 2 * i], &w[1 + 2 * 4]));
        assert_true(fr_equal(&w[2 + 2 * i], &w[2 + 2 * 4]));
    }
    free(w);
    post_case_free(&pc);
}

/* ---- witnesses in place (fil_partition_witness_into) ------------------------ */

/* A path of its shape with random siblings, positions and leaf. */
static void path_random(fil_merkle_path_t *p)
{
    tu_rand_fr(&p->leaf);
    for (unsigned l = 0; l < p->n_levels; l++) {
        p->level[l].index = (unsigned)(tu_rand64() % p->level[l].arity);
        for (unsigned k = 0; k + 1 < p->level[l].arity; k++)
            tu_rand_fr(&p->level[l].siblings[k]);
    }
}

/* The 2 KiB PoRep partition (StackedDrg2KiBV1_1's shape) with random
 * values: the witness need not satisfy the circuit to be compared. */
static fil_porep_challenge_t *porep_random(fil_partition_t *p)
{
    fil_seal_proof sp;
    assert_int_equal(fil_seal_from_size(&sp, SECTOR, FIL_API_1_1, NULL), CUZK_OK);
    const fil_seal_info_t *info = fil_seal_info(sp);
    assert_non_null(info);
    memset(p, 0, sizeof *p);
    p->kind = FIL_CIRCUIT_POREP;
    fil_porep_shape_t *sh = &p->porep.shape;
    *sh = (fil_porep_shape_t){info->nodes, {0}, info->layers, info->challenges_per_partition};
    assert_int_equal(fil_sector_tree(&sh->tree, SECTOR, NULL), CUZK_OK);
    fil_porep_challenge_t *ch = calloc(sh->challenges, sizeof *ch);
    assert_non_null(ch);
    fil_porep_public_t *pub = &p->porep.pub;
    tu_rand_fr(&pub->replica_id);
    tu_rand_fr(&pub->comm_d);
    tu_rand_fr(&pub->comm_r);
    tu_rand_fr(&pub->comm_r_last);
    tu_rand_fr(&pub->comm_c);
    for (unsigned i = 0; i < sh->challenges; i++) {
        fil_porep_challenge_t *c = &ch[i];
        assert_int_equal(fil_porep_challenge_blank(c, sh, NULL), CUZK_OK);
        c->challenge = 1 + tu_rand64() % (sh->nodes - 1);
        tu_rand_fr(&c->data_leaf);
        path_random(&c->comm_d_path);
        path_random(&c->comm_r_last_path);
        path_random(&c->comm_c_path);
        for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS; k++) {
            path_random(&c->drg_paths[k]);
            for (unsigned l = 0; l < sh->layers; l++)
                tu_rand_fr(&c->drg_cols[k][l]);
        }
        for (unsigned k = 0; k < FIL_POREP_EXP_PARENTS; k++) {
            path_random(&c->exp_paths[k]);
            for (unsigned l = 0; l < sh->layers; l++)
                tu_rand_fr(&c->exp_cols[k][l]);
        }
    }
    p->porep.ch = ch;
    return ch;
}

/* A 2 KiB SnapDeals partition of the kind with random values (a valid
 * k_and_h_select: the circuit refuses others). */
static void snap_random(fil_partition_t *p, fil_update_witness_t *w, fil_circuit_kind kind)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    fil_update_shape_t *sh = &p->update.shape;
    fil_update_kind uk = kind == FIL_CIRCUIT_SNAP_DEALS ? FIL_UPDATE_SHA : FIL_UPDATE_POSEIDON;
    assert_int_equal(fil_update_shape_init(sh, uk, SECTOR / 32, NULL), CUZK_OK);
    assert_int_equal(fil_update_witness_blank(w, sh, NULL), CUZK_OK);
    tu_rand_fr(&w->comm_r_old);
    tu_rand_fr(&w->comm_d_new);
    tu_rand_fr(&w->comm_r_new);
    tu_rand_fr(&w->comm_c);
    tu_rand_fr(&w->root_r_old);
    tu_rand_fr(&w->root_r_new);
    fr_t pub[4];
    assert_int_equal(fil_update_public_inputs(pub, sh, 0, sh->hs[2], &w->comm_r_old, &w->comm_d_new,
                                              &w->comm_r_new, NULL),
                     CUZK_OK);
    w->k_and_h_select = pub[0];
    for (unsigned i = 0; i < sh->apex_leafs; i++)
        tu_rand_fr(&w->apex_leafs[i]);
    /* leaf_r_new = leaf_r_old + leaf_d_new * rho(phi, the challenge's high
     * bits): the circuit computes it and refuses another */
    fr_t phi;
    uint64_t c[64];
    assert_true(sh->challenges <= 64);
    assert_int_equal(fil_update_phi(&phi, &w->comm_d_new, &w->comm_r_old, NULL), CUZK_OK);
    assert_int_equal(fil_update_challenges(c, sh, &w->comm_r_new, 0, NULL), CUZK_OK);
    for (unsigned i = 0; i < sh->challenges; i++) {
        fil_update_challenge_t *ch = &w->challenges[i];
        path_random(&ch->r_old);
        path_random(&ch->d_new);
        path_random(&ch->r_new);
        fr_t rho;
        assert_int_equal(
            fil_update_rho(&rho, &phi, (uint32_t)(c[i] >> (sh->challenge_bits - sh->hs[2])), NULL),
            CUZK_OK);
        fr_mul(&ch->r_new.leaf, &ch->d_new.leaf, &rho);
        fr_add(&ch->r_new.leaf, &ch->r_new.leaf, &ch->r_old.leaf);
    }
    p->update.w = w;
}

/* The witness of p in place, with 1 and 4 threads, through the malloc
 * version with sizes too: the bytes of the malloc version without sizes
 * (cs-owned vectors, copied out). Buffers of exactly n_vars values, so
 * ASan sees any write past them. Wrong sizes are refused naming both. */
static void into_same(const fil_partition_t *p, fil_witness_mode mode)
{
    const char *name = fil_circuit_kind_str(p->kind);
    cuzk_error_t err = {0};
    fr_t *ref = NULL;
    size_t nv = 0, ni = 0;
    fil_witness_opts_t o = {mode, 1, 0, 0};
    if (fil_partition_witness(&ref, &nv, &ni, p, &o, &err) != CUZK_OK)
        fail_msg("%s: %s", name, err.msg);
    static const int threads[] = {1, 4};
    for (size_t t = 0; t < 2; t++) {
        o = (fil_witness_opts_t){mode, threads[t], 0, 0};
        fr_t *w = malloc(nv * sizeof *w);
        assert_non_null(w);
        if (fil_partition_witness_into(w, nv, ni, p, &o, &err) != CUZK_OK)
            fail_msg("%s into, %d threads: %s", name, threads[t], err.msg);
        assert_memory_equal(w, ref, nv * sizeof *w);
        free(w);
        o.n_vars = nv;
        o.n_public = ni;
        size_t nv2 = 0, ni2 = 0;
        if (fil_partition_witness(&w, &nv2, &ni2, p, &o, &err) != CUZK_OK)
            fail_msg("%s sized, %d threads: %s", name, threads[t], err.msg);
        assert_int_equal(nv2, nv);
        assert_int_equal(ni2, ni);
        assert_memory_equal(w, ref, nv * sizeof *w);
        free(w);
    }
    /* made packed (fil_partition_witness_pack): fr_pack_make's bytes of
     * the vector, whatever the threads */
    fr_pack_t ref_pack;
    assert_int_equal(fr_pack_make(&ref_pack, ref, nv, 1, &err), CUZK_OK);
    /* fil_circuit_packs_well names the kinds whose pack is a small part of
     * the vector (bench and daemon make only those packed) */
    const double ratio = (double)ref_pack.bytes / (double)(nv * sizeof(fr_t));
    if (fil_circuit_packs_well(p->kind) ? ratio > 0.1 : ratio < 0.5)
        fail_msg("%s: a pack of %.3f of the vector, yet fil_circuit_packs_well says %d", name,
                 ratio, fil_circuit_packs_well(p->kind));
    for (size_t t = 0; t < 2; t++) {
        o = (fil_witness_opts_t){mode, threads[t], 0, 0};
        fr_pack_t got;
        if (fil_partition_witness_pack(&got, nv, ni, p, &o, &err) != CUZK_OK)
            fail_msg("%s packed, %d threads: %s", name, threads[t], err.msg);
        assert_int_equal(got.n_full, ref_pack.n_full);
        assert_int_equal(got.bytes, ref_pack.bytes);
        assert_memory_equal(got.block, ref_pack.block, ref_pack.bytes);
        assert_int_equal(fr_pack_check(&got, &err), CUZK_OK);
        fr_pack_free(&got);
    }
    fr_pack_free(&ref_pack);
    /* a vanilla proof of another size: refused, nothing written past */
    const size_t bad[4][2] = {{nv - 1, ni}, {nv + 1, ni}, {nv, ni - 1}, {nv, ni + 1}};
    for (size_t b = 0; b < 4; b++) {
        o = (fil_witness_opts_t){mode, threads[b % 2], 0, 0};
        fr_t *w = malloc(bad[b][0] * sizeof *w);
        assert_non_null(w);
        assert_int_equal(fil_partition_witness_into(w, bad[b][0], bad[b][1], p, &o, &err),
                         CUZK_ERR_ARG);
        char want[128];
        snprintf(want, sizeof want, "%zu variables and %zu public inputs, the buffer %zu and %zu",
                 nv, ni, bad[b][0], bad[b][1]);
        if (!strstr(err.msg, want))
            fail_msg("%s, buffer %zu / %zu: '%s'", name, bad[b][0], bad[b][1], err.msg);
        free(w);
        fr_pack_t pk;
        assert_int_equal(fil_partition_witness_pack(&pk, bad[b][0], bad[b][1], p, &o, &err),
                         CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, want));
        assert_null(pk.block);
    }
    printf("test_filecoin_prove: %s 2 KiB (%s): %zu variables, %zu inputs; in place = "
           "malloc'd = packed (%.3f of the vector), 1 and 4 threads\n",
           name, mode == FIL_WITNESS_CHECK ? "checked" : "fast", nv, ni, ratio);
    free(ref);
}

/* Every kind at 2 KiB: PoSt from real trees (FAST and CHECK), PoRep and
 * SnapDeals with random values (FAST). */
static void test_into_every_kind(void **state)
{
    (void)state;
    fil_partition_t p;
    fil_porep_challenge_t *ch = porep_random(&p);
    into_same(&p, FIL_WITNESS_FAST);
    free(ch);
    static const fil_circuit_kind posts[] = {FIL_CIRCUIT_WINNING_POST, FIL_CIRCUIT_WINDOW_POST};
    for (size_t k = 0; k < 2; k++) {
        post_case_t pc;
        post_case_make_kind(&pc, posts[k]);
        p = post_partition(&pc, pc.pp.sector_count);
        into_same(&p, FIL_WITNESS_FAST);
        into_same(&p, FIL_WITNESS_CHECK);
        post_case_free(&pc);
    }
    static const fil_circuit_kind snaps[] = {FIL_CIRCUIT_SNAP_DEALS,
                                             FIL_CIRCUIT_SNAP_DEALS_POSEIDON};
    for (size_t k = 0; k < 2; k++) {
        fil_update_witness_t w;
        snap_random(&p, &w, snaps[k]);
        into_same(&p, FIL_WITNESS_FAST);
        fil_update_witness_free(&w);
    }
}

/* In place with a check: a wrong leaf in one sector is named, whatever
 * the threads; arguments that cannot hold a witness are refused; sizes
 * that are not the partition's in the malloc version give the partition's
 * own witness (the caller compares sizes). */
static void test_into_errors(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    post_case_t pc;
    post_case_make_kind(&pc, FIL_CIRCUIT_WINDOW_POST);
    fil_partition_t p = post_partition(&pc, pc.pp.sector_count);
    fr_t *ref = NULL;
    size_t nv = 0, ni = 0;
    assert_int_equal(fil_partition_witness(&ref, &nv, &ni, &p, NULL, &err), CUZK_OK);
    fr_t *w = malloc(nv * sizeof *w);
    assert_non_null(w);
    fil_witness_opts_t o = {FIL_WITNESS_CHECK, 4, 0, 0};
    fr_add(&pc.sectors[1].leafs[7], &pc.sectors[1].leafs[7], &FR_ONE);
    assert_int_equal(fil_partition_witness_into(w, nv, ni, &p, &o, &err), CUZK_ERR_ARG);
    if (!strstr(err.msg, "not satisfied") || !strstr(err.msg, "sector 1/challenge_inclusion 7"))
        fail_msg("wrong leaf: '%s'", err.msg);
    fr_sub(&pc.sectors[1].leafs[7], &pc.sectors[1].leafs[7], &FR_ONE);
    assert_int_equal(fil_partition_witness_into(w, nv, ni, &p, &o, &err), CUZK_OK);
    assert_memory_equal(w, ref, nv * sizeof *w);

    assert_int_equal(fil_partition_witness_into(NULL, nv, ni, &p, NULL, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_partition_witness_into(w, ni, ni, &p, NULL, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "cannot hold ONE"));
    assert_int_equal(fil_partition_witness_into(w, 0, 0, &p, NULL, &err), CUZK_ERR_ARG);
    p.post.n_sectors = 0;
    assert_int_equal(fil_partition_witness_into(w, nv, ni, &p, NULL, &err), CUZK_ERR_ARG);
    p.post.n_sectors = pc.pp.sector_count;

    fr_t *w2 = NULL;
    size_t nv2 = 0, ni2 = 0;
    o = (fil_witness_opts_t){FIL_WITNESS_FAST, 4, nv + 1, ni};
    assert_int_equal(fil_partition_witness(&w2, &nv2, &ni2, &p, &o, &err), CUZK_OK);
    assert_int_equal(nv2, nv);
    assert_int_equal(ni2, ni);
    assert_memory_equal(w2, ref, nv * sizeof *w2);
    free(w2);
    free(w);
    free(ref);
    post_case_free(&pc);
}

/* CUZK_SLOW=1: a full 32 GiB WindowPoSt partition from the real vanilla
 * proof (post.vproof, sector 1, its partition padded with it to 2,349
 * sectors as filecoin-proofs pads): the recorded circuit, the witness
 * (every CPU) whose inputs are those derived from randomness 0 and the
 * sector, and every one of the ~125 M constraints satisfied by
 * circuit_check. About 13 GB of memory. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_window_post_32g_real(void **state)
{
    (void)state;
    if (!getenv("CUZK_SLOW")) {
        printf("test_filecoin_prove: 32 GiB WindowPoSt from post.vproof skipped (CUZK_SLOW=1 "
               "runs it)\n");
        return;
    }
    cuzk_error_t err = {0};
    size_t len = 0;
    uint8_t *bytes = tu_read_file(CUZK_TESTDATA_DIR "/filecoin/circuits/post.vproof", &len);
    assert_non_null(bytes);
    fil_post_vproof_t *v = malloc(sizeof *v);
    fil_post_sector_t *s = calloc(1, sizeof *s);
    assert_true(v && s);
    assert_int_equal(fil_post_vproof_parse(v, bytes, len, &err), CUZK_OK);
    free(bytes);
    const uint64_t size = (uint64_t)32 << 30;
    fil_post_params_t pp;
    assert_int_equal(fil_post_params(&pp, FIL_CIRCUIT_WINDOW_POST, size, FIL_API_1_1, &err),
                     CUZK_OK);
    s->comm_r = v->comm_r;
    s->comm_c = v->comm_c;
    s->comm_r_last = v->comm_r_last;
    for (unsigned i = 0; i < pp.challenge_count; i++) {
        s->paths[i] = v->paths[i];
        s->leafs[i] = v->paths[i].leaf;
    }
    fil_partition_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_WINDOW_POST;
    p.post.shape.nodes = size / 32;
    p.post.shape.challenges = pp.challenge_count;
    assert_int_equal(fil_sector_tree(&p.post.shape.tree, size, &err), CUZK_OK);
    p.post.sector_count = pp.sector_count;
    p.post.sectors = s;
    p.post.n_sectors = 1;

    double t0 = now_s();
    circuit_t c;
    if (fil_circuit_load(&c, NULL, FIL_CIRCUIT_WINDOW_POST, size, FIL_API_1_1, NULL, 0, &err) !=
        CUZK_OK)
        fail_msg("circuit: %s", err.msg);
    double t1 = now_s();
    fil_witness_opts_t o = {FIL_WITNESS_FAST, -1, c.n_vars, c.n_public};
    fr_t *w = NULL;
    size_t n_vars = 0, n_in = 0;
    if (fil_partition_witness(&w, &n_vars, &n_in, &p, &o, &err) != CUZK_OK)
        fail_msg("witness: %s", err.msg);
    double t2 = now_s(), t_malloc = t2 - t1;
    assert_int_equal(n_vars, c.n_vars);
    assert_int_equal(n_in, c.n_public);
    /* in place, as the engine calls it (its buffer would be page-locked):
     * every CPU, the FAST witness, the same bytes (compared by hash, so
     * that two 4 GB witnesses never live at once) */
    const uint64_t h = cuzk_hash64(w, n_vars * sizeof *w, 0);
    memset(w, 0, n_vars * sizeof *w);
    double t3 = now_s();
    if (fil_partition_witness_into(w, n_vars, n_in, &p, &o, &err) != CUZK_OK)
        fail_msg("witness into: %s", err.msg);
    double t_into = now_s() - t3;
    assert_true(cuzk_hash64(w, n_vars * sizeof *w, 0) == h);
    printf("test_filecoin_prove: 32 GiB WindowPoSt FAST witness in place, %d threads: %.2f s\n",
           parallel_threads(-1), t_into);
    t2 = now_s();
    fil_post_pub_sector_t pub = {v->sector_id, {0}};
    fr_to_le(pub.comm_r, &v->comm_r);
    uint8_t rnd[32] = {0};
    fr_t *in = malloc(n_in * sizeof *in);
    size_t n = 0;
    assert_non_null(in);
    assert_int_equal(fil_post_inputs(in, n_in, &n, &pp, rnd, &pub, 1, 0, &err), CUZK_OK);
    assert_int_equal(n, n_in);
    for (size_t i = 0; i < n; i++)
        if (!fr_equal(&in[i], &w[1 + i]))
            fail_msg("input %zu differs from the derived one", i);
    uint32_t bad = 0;
    assert_int_equal(circuit_check(&bad, &c, w, 0), CUZK_OK);
    if (bad != UINT32_MAX)
        fail_msg("constraint %u is not satisfied", bad);
    printf("test_filecoin_prove: 32 GiB WindowPoSt, real sector x 2349: %u constraints "
           "satisfied; record %.1f s, witness %.1f s (malloc'd), check %.1f s\n",
           c.n_rows, t1 - t0, t_malloc, now_s() - t2);
    free(in);
    free(w);
    circuit_free(&c);
    free(s);
    free(v);
}

/* CUZK_SLOW=1: partition 0 of a 32 GiB PoRep (a sparse sealing: every
 * challenged path real), its witness made inline on one thread (the
 * generic back end as the circuits issue left it) and again in place with
 * every CPU (cs_parallel over challenges and labels): the same bytes, the
 * inputs those the public values give. Prints both times (the issue's
 * 2-core and 16-core figures). About 13 GB of memory. */
/* The process's peak resident memory so far (VmHWM), GiB; 0 unknown. */
static double vm_hwm_gib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lf kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib / 1048576.0;
}

static void test_porep_32g_sparse(void **state)
{
    (void)state;
    if (!getenv("CUZK_SLOW")) {
        printf("test_filecoin_prove: 32 GiB PoRep witness (sparse sealing) skipped (CUZK_SLOW=1 "
               "runs it)\n");
        return;
    }
    cuzk_error_t err = {0};
    uint8_t prover[32] = {1}, ticket[32] = {2}, seed[32] = {3};
    fil_sealed_t *s = NULL;
    double t0 = now_s();
    if (fil_seal_sparse(&s, FIL_SEAL_32G_V1_1, prover, 5, ticket, seed, NULL, 0, -1, &err) !=
        CUZK_OK)
        fail_msg("sparse sealing: %s", err.msg);
    const double t_seal = now_s() - t0;
    fil_partition_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_POREP;
    fil_sealed_porep_shape(&p.porep.shape, s);
    fil_sealed_porep_public(&p.porep.pub, s);
    const unsigned nch = p.porep.shape.challenges;
    uint64_t ch_idx[64];
    fr_t rid;
    uint8_t rid_b[32], comm_d[32], comm_r[32];
    fil_sealed_replica_id(&rid, s);
    fr_to_le(rid_b, &rid);
    fr_to_le(comm_d, &p.porep.pub.comm_d);
    fr_to_le(comm_r, &p.porep.pub.comm_r);
    size_t n = 0;
    assert_int_equal(fil_porep_partition_challenges(ch_idx, 64, &n, FIL_SEAL_32G_V1_1, rid_b,
                                                    comm_r, seed, 0, &err),
                     CUZK_OK);
    assert_int_equal(n, nch);
    fil_porep_challenge_t *ch = calloc(nch, sizeof *ch);
    assert_non_null(ch);
    for (unsigned i = 0; i < nch; i++)
        assert_int_equal(fil_sealed_porep_challenge(&ch[i], s, ch_idx[i], &err), CUZK_OK);
    p.porep.ch = ch;

    /* packed first, while the process holds no whole vector: its peak
     * RSS is the sealing's and the packed witness's (the partition's
     * 130,170,221 variables, issue 19's count, checked below) */
    const size_t pv = 130170221,
                 pin = FIL_POREP_INPUTS_HEADER + FIL_POREP_INPUTS_PER_CHALLENGE * nch;
    const double hwm0 = vm_hwm_gib();
    fil_witness_opts_t pall = {FIL_WITNESS_FAST, -1, 0, 0};
    fr_pack_t pk;
    t0 = now_s();
    if (fil_partition_witness_pack(&pk, pv, pin, &p, &pall, &err) != CUZK_OK)
        fail_msg("packed witness: %s", err.msg);
    const double t_pack = now_s() - t0, hwm1 = vm_hwm_gib();
    pall.threads = 1;
    fr_pack_t pk1;
    t0 = now_s();
    if (fil_partition_witness_pack(&pk1, pv, pin, &p, &pall, &err) != CUZK_OK)
        fail_msg("packed witness, 1 thread: %s", err.msg);
    const double t_pack1 = now_s() - t0;
    assert_int_equal(pk1.bytes, pk.bytes);
    assert_memory_equal(pk1.block, pk.block, pk.bytes);
    fr_pack_free(&pk1);

    fil_witness_opts_t one = {FIL_WITNESS_FAST, 1, 0, 0};
    fr_t *w = NULL;
    size_t n_vars = 0, n_in = 0;
    t0 = now_s();
    if (fil_partition_witness(&w, &n_vars, &n_in, &p, &one, &err) != CUZK_OK)
        fail_msg("witness: %s", err.msg);
    const double t_one = now_s() - t0;
    assert_int_equal(n_vars, pv);
    assert_int_equal(n_in, pin);
    /* the packed witness is the vector's pack, byte for byte */
    fr_pack_t ref_pack;
    assert_int_equal(fr_pack_make(&ref_pack, w, n_vars, -1, &err), CUZK_OK);
    assert_int_equal(ref_pack.bytes, pk.bytes);
    assert_memory_equal(ref_pack.block, pk.block, pk.bytes);
    fr_pack_free(&ref_pack);
    printf("test_filecoin_prove: 32 GiB PoRep partition 0 packed as it is made: %zu of %zu "
           "values full, pack %.1f MiB; on %d threads %.2f s, on 1 thread %.2f s; peak RSS "
           "%.2f GiB before it, %.2f after (the whole vector: %.2f GiB)\n",
           pk.n_full, pk.n, (double)pk.bytes / 1048576.0, parallel_threads(-1), t_pack, t_pack1,
           hwm0, hwm1, (double)pv * sizeof(fr_t) / 1073741824.0);
    fr_pack_free(&pk);
    assert_int_equal(n_in, FIL_POREP_INPUTS_HEADER + FIL_POREP_INPUTS_PER_CHALLENGE * nch);
    fr_t *in = malloc(n_in * sizeof *in);
    assert_non_null(in);
    assert_int_equal(
        fil_porep_inputs(in, n_in, &n, FIL_SEAL_32G_V1_1, rid_b, comm_d, comm_r, seed, 0, &err),
        CUZK_OK);
    assert_int_equal(n, n_in);
    for (size_t i = 0; i < n; i++)
        if (!fr_equal(&in[i], &w[1 + i]))
            fail_msg("input %zu differs from the derived one", i);
    const uint64_t h = cuzk_hash64(w, n_vars * sizeof *w, 0);
    memset(w, 0, n_vars * sizeof *w);
    fil_witness_opts_t all = {FIL_WITNESS_FAST, -1, n_vars, n_in};
    t0 = now_s();
    if (fil_partition_witness_into(w, n_vars, n_in, &p, &all, &err) != CUZK_OK)
        fail_msg("witness into: %s", err.msg);
    const double t_all = now_s() - t0;
    assert_true(cuzk_hash64(w, n_vars * sizeof *w, 0) == h);
    /* and in place on one thread: the buffer's pages already touched, as
     * the engine's reused buffers are */
    memset(w, 0, n_vars * sizeof *w);
    all.threads = 1;
    t0 = now_s();
    if (fil_partition_witness_into(w, n_vars, n_in, &p, &all, &err) != CUZK_OK)
        fail_msg("witness into: %s", err.msg);
    const double t_into1 = now_s() - t0;
    assert_true(cuzk_hash64(w, n_vars * sizeof *w, 0) == h);
    /* what the daemon makes: every constraint evaluated as it is made */
    memset(w, 0, n_vars * sizeof *w);
    fil_witness_opts_t chk = {FIL_WITNESS_CHECK, -1, n_vars, n_in};
    t0 = now_s();
    if (fil_partition_witness_into(w, n_vars, n_in, &p, &chk, &err) != CUZK_OK)
        fail_msg("witness into, checked: %s", err.msg);
    const double t_check = now_s() - t0;
    assert_true(cuzk_hash64(w, n_vars * sizeof *w, 0) == h);
    printf("test_filecoin_prove: 32 GiB PoRep partition 0 (sparse sealing in %.2f s): %zu "
           "variables; witness inline on 1 thread %.2f s (malloc'd), in place on 1 thread "
           "%.2f s, on %d threads %.2f s, checked (FIL_WITNESS_CHECK) on %d threads %.2f s, "
           "bit-identical\n",
           t_seal, n_vars, t_one, t_into1, parallel_threads(-1), t_all, parallel_threads(-1),
           t_check);
    free(in);
    free(w);
    free(ch);
    fil_sealed_free(s);
}

int main(void)
{
    tu_init("test_filecoin_prove");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_winning_post_end_to_end), cmocka_unit_test(test_post_padding),
        cmocka_unit_test(test_into_every_kind),         cmocka_unit_test(test_into_errors),
        cmocka_unit_test(test_window_post_32g_real),    cmocka_unit_test(test_porep_32g_sparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
