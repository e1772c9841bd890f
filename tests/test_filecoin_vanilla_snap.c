/* SnapDeals vanilla proofs (filecoin_vanilla.h: bincode PartitionProof,
 * RFP@87348a7 storage-proofs-update/src/vanilla.rs and poseidon/vanilla.rs).
 *
 * Small sectors are built from random data by the vanilla relations
 * (test_filecoin_update.c's make_instance: r_new = r_old + d_new * rho,
 * trees by fil_merkle_tree_build, openings by fil_merkle_tree_path at the
 * challenges fil_update_challenges draws). Each partition proof is written,
 * walked byte by byte by a reader written from the Rust structs alone
 * (check_layout), parsed back field for field, written again to the same
 * bytes, and turned into a witness that satisfies fil_cs_update in CS_CHECK
 * mode. Then every truncation, trailing bytes, bad tags, non-canonical
 * domains, wrong counts and path shapes are refused naming the field and
 * offset, as are witnesses whose roots, commitments or challenges disagree.
 *
 * CUZK_SNAP_SEEDS=<dir> also writes fuzz/corpus/snap_vproof's seeds (the
 * shape byte of fuzz_snap_vproof.c, then the proof) to <dir>. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_update.h"
#include "cuzk/filecoin_vanilla.h"
#include "cs_fixture.h"
#include "test_util.h"

/* fuzz_snap_vproof.c's k_shapes: the seed's first byte is the index. */
static const struct {
    fil_update_kind kind;
    unsigned lg;
} k_seed_shapes[] = {{FIL_UPDATE_SHA, 5},
                     {FIL_UPDATE_SHA, 6},
                     {FIL_UPDATE_SHA, 10},
                     {FIL_UPDATE_POSEIDON, 5},
                     {FIL_UPDATE_POSEIDON, 8}};

typedef struct instance {
    fil_update_shape_t sh;
    fil_snap_public_t pub;
    fil_snap_vproof_t v; /* as built, with the trees' paths */
} instance_t;

static fil_merkle_tree_t *build(const fil_tree_shape_t *t, const fr_t *leaves, uint64_t n)
{
    fil_merkle_tree_t *tree = NULL;
    cuzk_error_t err = {0};
    if (fil_merkle_tree_build(&tree, t, leaves, n, &err) != CUZK_OK)
        fail_msg("tree: %s", err.msg);
    return tree;
}

static void hash2(fr_t *out, const fr_t *a, const fr_t *b)
{
    fr_t in[2] = {*a, *b};
    assert_int_equal(fil_merkle_node(out, FIL_HASHER_POSEIDON, in, 2, NULL), CUZK_OK);
}

/* Partition k of a random sector of 2^lg nodes, encoded with h = hs[2]. */
static void make_instance(instance_t *in, fil_update_kind kind, unsigned lg, unsigned k)
{
    memset(in, 0, sizeof *in);
    cuzk_error_t err = {0};
    if (fil_update_shape_init(&in->sh, kind, UINT64_C(1) << lg, &err) != CUZK_OK)
        fail_msg("shape: %s", err.msg);
    const fil_update_shape_t *sh = &in->sh;
    const uint64_t n = sh->nodes;
    fr_t *r_old = malloc(n * sizeof *r_old), *d_new = malloc(n * sizeof *d_new);
    fr_t *r_new = malloc(n * sizeof *r_new);
    uint64_t *idx = malloc(sh->challenges * sizeof *idx);
    assert_true(r_old && d_new && r_new && idx);
    for (uint64_t i = 0; i < n; i++) {
        tu_rand_fr(&r_old[i]);
        tu_rand_fr(&d_new[i]);
    }
    fil_snap_public_t *pub = &in->pub;
    fil_snap_vproof_t *v = &in->v;
    fil_merkle_tree_t *t_r_old = build(&sh->tree_r, r_old, n);
    fil_merkle_tree_t *t_d_new = build(&sh->tree_d, d_new, n);
    fr_t root_r_old, root_r_new, phi;
    fil_merkle_tree_root(&root_r_old, t_r_old);
    fil_merkle_tree_root(&pub->comm_d_new, t_d_new);
    tu_rand_fr(&v->comm_c);
    hash2(&pub->comm_r_old, &v->comm_c, &root_r_old);
    assert_int_equal(fil_update_phi(&phi, &pub->comm_d_new, &pub->comm_r_old, NULL), CUZK_OK);
    pub->k = k;
    pub->h = sh->hs[2];
    const unsigned shr = sh->challenge_bits - pub->h;
    for (uint64_t i = 0; i < n; i++) {
        fr_t rho;
        assert_int_equal(fil_update_rho(&rho, &phi, (uint32_t)(i >> shr), NULL), CUZK_OK);
        fr_mul(&r_new[i], &d_new[i], &rho);
        fr_add(&r_new[i], &r_new[i], &r_old[i]);
    }
    fil_merkle_tree_t *t_r_new = build(&sh->tree_r, r_new, n);
    fil_merkle_tree_root(&root_r_new, t_r_new);
    hash2(&pub->comm_r_new, &v->comm_c, &root_r_new);

    v->kind = kind;
    v->tree_r = sh->tree_r;
    v->tree_d = sh->tree_d;
    v->n_challenges = sh->challenges;
    v->challenges = calloc(sh->challenges, sizeof *v->challenges);
    assert_non_null(v->challenges);
    assert_int_equal(fil_update_challenges(idx, sh, &pub->comm_r_new, k, NULL), CUZK_OK);
    for (unsigned c = 0; c < sh->challenges; c++) {
        assert_int_equal(fil_merkle_tree_path(&v->challenges[c].r_old, t_r_old, idx[c], NULL),
                         CUZK_OK);
        assert_int_equal(fil_merkle_tree_path(&v->challenges[c].d_new, t_d_new, idx[c], NULL),
                         CUZK_OK);
        assert_int_equal(fil_merkle_tree_path(&v->challenges[c].r_new, t_r_new, idx[c], NULL),
                         CUZK_OK);
    }
    /* apex leaf j of partition k: the root of the binary SHA-256 tree over
     * the 2^below nodes under it (vanilla.rs prove: tree_d_new's row at
     * apex_leafs_height) */
    v->n_apex_leafs = sh->apex_leafs;
    if (sh->apex_leafs) {
        v->apex_leafs = calloc(sh->apex_leafs, sizeof *v->apex_leafs);
        assert_non_null(v->apex_leafs);
    }
    const unsigned below = sh->challenge_bits - sh->partition_bits - sh->apex_leaf_bits;
    for (unsigned j = 0; j < sh->apex_leafs; j++) {
        uint64_t first = ((uint64_t)k * sh->apex_leafs + j) << below;
        fil_merkle_tree_t *sub = build(&sh->tree_d, d_new + first, UINT64_C(1) << below);
        fil_merkle_tree_root(&v->apex_leafs[j], sub);
        fil_merkle_tree_free(sub);
    }
    fil_merkle_tree_free(t_r_old);
    fil_merkle_tree_free(t_d_new);
    fil_merkle_tree_free(t_r_new);
    free(r_old);
    free(d_new);
    free(r_new);
    free(idx);
}

static uint8_t *write_or_fail(size_t *n, const fil_snap_vproof_t *v)
{
    uint8_t *b = NULL;
    cuzk_error_t err = {0};
    if (fil_snap_vproof_write(&b, n, v, &err) != CUZK_OK)
        fail_msg("write: %s", err.msg);
    return b;
}

/* ---- a reader from the Rust structs alone -------------------------------- */

typedef struct cur {
    const uint8_t *b;
    size_t n, at;
} cur_t;

static uint64_t take(cur_t *c, unsigned bytes)
{
    assert_true(c->n - c->at >= bytes);
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)c->b[c->at + i] << (8 * i);
    c->at += bytes;
    return v;
}

static void take_fr(cur_t *c, const fr_t *want)
{
    uint8_t le[32];
    fr_to_le(le, want);
    assert_true(c->n - c->at >= 32);
    assert_memory_equal(c->b + c->at, le, 32);
    c->at += 32;
}

/* InclusionPath { path: Vec<PathElement { hashes: Vec<Domain>, index } > }
 * over levels [from, to) */
static void take_inclusion_path(cur_t *c, const fil_merkle_path_t *p, unsigned from, unsigned to)
{
    assert_int_equal(take(c, 8), to - from);
    for (unsigned l = from; l < to; l++) {
        assert_int_equal(take(c, 8), p->level[l].arity - 1);
        for (unsigned h = 0; h + 1 < p->level[l].arity; h++)
            take_fr(c, &p->level[l].siblings[h]);
        assert_int_equal(take(c, 8), p->level[l].index);
    }
}

/* MerkleProof { data: ProofData::Single { root, leaf, path } | Sub {
 * base_proof, sub_proof, root, leaf } | Top { base_proof, sub_proof,
 * top_proof, root, leaf } } */
static void take_merkle_proof(cur_t *c, const fil_merkle_path_t *p, const fil_tree_shape_t *t)
{
    const unsigned extra = (t->sub_arity ? 1u : 0u) + (t->top_arity ? 1u : 0u);
    const unsigned base = p->n_levels - extra;
    assert_int_equal(take(c, 4), t->top_arity ? 2 : t->sub_arity ? 1 : 0);
    if (!extra) {
        take_fr(c, &p->root);
        take_fr(c, &p->leaf);
        take_inclusion_path(c, p, 0, base);
        return;
    }
    take_inclusion_path(c, p, 0, base);
    for (unsigned l = base; l < p->n_levels; l++)
        take_inclusion_path(c, p, l, l + 1);
    take_fr(c, &p->root);
    take_fr(c, &p->leaf);
}

/* PartitionProof { comm_c, apex_leafs (not in the Poseidon variant),
 * challenge_proofs: [{ proof_r_old, proof_d_new, proof_r_new }] }; off
 * (may be NULL) gets where each MerkleProof starts. */
static void check_layout(const uint8_t *b, size_t n, const fil_snap_vproof_t *v, size_t (*off)[3])
{
    cur_t c = {b, n, 0};
    take_fr(&c, &v->comm_c);
    if (v->kind == FIL_UPDATE_SHA) {
        assert_int_equal(take(&c, 8), v->n_apex_leafs);
        for (unsigned i = 0; i < v->n_apex_leafs; i++)
            take_fr(&c, &v->apex_leafs[i]);
    }
    assert_int_equal(take(&c, 8), v->n_challenges);
    for (unsigned i = 0; i < v->n_challenges; i++) {
        const fil_update_challenge_t *ch = &v->challenges[i];
        const fil_merkle_path_t *p[3] = {&ch->r_old, &ch->d_new, &ch->r_new};
        for (unsigned j = 0; j < 3; j++) {
            if (off)
                off[i][j] = c.at;
            take_merkle_proof(&c, p[j], j == 1 ? &v->tree_d : &v->tree_r);
        }
    }
    assert_int_equal(c.at, n);
}

/* ---- comparisons --------------------------------------------------------- */

static void assert_path_equal(const fil_merkle_path_t *a, const fil_merkle_path_t *b)
{
    assert_int_equal(a->n_levels, b->n_levels);
    assert_true(fr_equal(&a->leaf, &b->leaf));
    assert_true(fr_equal(&a->root, &b->root));
    for (unsigned l = 0; l < a->n_levels; l++) {
        assert_int_equal(a->level[l].arity, b->level[l].arity);
        assert_int_equal(a->level[l].index, b->level[l].index);
        for (unsigned h = 0; h + 1 < a->level[l].arity; h++)
            assert_true(fr_equal(&a->level[l].siblings[h], &b->level[l].siblings[h]));
    }
}

static void assert_tree_equal(const fil_tree_shape_t *a, const fil_tree_shape_t *b)
{
    assert_int_equal(a->hasher, b->hasher);
    assert_int_equal(a->base_arity, b->base_arity);
    assert_int_equal(a->sub_arity, b->sub_arity);
    assert_int_equal(a->top_arity, b->top_arity);
}

static void assert_vproof_equal(const fil_snap_vproof_t *a, const fil_snap_vproof_t *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_true(fr_equal(&a->comm_c, &b->comm_c));
    assert_int_equal(a->n_apex_leafs, b->n_apex_leafs);
    for (unsigned i = 0; i < a->n_apex_leafs; i++)
        assert_true(fr_equal(&a->apex_leafs[i], &b->apex_leafs[i]));
    assert_int_equal(a->n_challenges, b->n_challenges);
    for (unsigned i = 0; i < a->n_challenges; i++) {
        assert_path_equal(&a->challenges[i].r_old, &b->challenges[i].r_old);
        assert_path_equal(&a->challenges[i].d_new, &b->challenges[i].d_new);
        assert_path_equal(&a->challenges[i].r_new, &b->challenges[i].r_new);
    }
    assert_tree_equal(&a->tree_r, &b->tree_r);
    assert_tree_equal(&a->tree_d, &b->tree_d);
}

/* The witness from v satisfies the circuit, with the expected inputs. */
static void assert_witness_satisfies(const instance_t *in, const fil_snap_vproof_t *v)
{
    fil_update_witness_t w;
    cuzk_error_t err = {0};
    if (fil_snap_vproof_witness(&w, &in->sh, v, &in->pub, &err) != CUZK_OK)
        fail_msg("witness: %s", err.msg);
    assert_true(fr_equal(&w.root_r_old, &in->v.challenges[0].r_old.root));
    assert_true(fr_equal(&w.root_r_new, &in->v.challenges[0].r_new.root));
    assert_true(fr_equal(&w.comm_c, &in->v.comm_c));
    cs_t *cs = csf_new(CS_CHECK);
    fil_cs_update(cs, &in->sh, &w);
    uint64_t row = 0;
    char where[256];
    if (cs_unsatisfied(&row, where, sizeof where, cs))
        fail_msg("constraint %llu (%s) is not satisfied", (unsigned long long)row, where);
    csf_assert_ok(cs);
    fr_t want[4];
    assert_int_equal(fil_update_public_inputs(want, &in->sh, in->pub.k, in->pub.h,
                                              &in->pub.comm_r_old, &in->pub.comm_d_new,
                                              &in->pub.comm_r_new, NULL),
                     CUZK_OK);
    size_t n_in;
    const fr_t *inputs = cs_input_values(cs, &n_in);
    assert_int_equal(n_in, 5);
    for (int j = 0; j < 4; j++)
        assert_true(fr_equal(&inputs[1 + j], &want[j]));
    cs_free(cs);
    fil_update_witness_free(&w);
}

/* ---- fuzz seeds (CUZK_SNAP_SEEDS) ------------------------------------------ */

static void write_seed(const char *name, unsigned pick, const uint8_t *b, size_t n)
{
    const char *dir = getenv("CUZK_SNAP_SEEDS");
    if (!dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    uint8_t sel = (uint8_t)pick;
    assert_int_equal(fwrite(&sel, 1, 1, f), 1);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* Valid seeds of every fuzz shape, and broken ones of the first. */
static void write_seeds(const instance_t *in, const uint8_t *b, size_t n)
{
    if (!getenv("CUZK_SNAP_SEEDS"))
        return;
    for (unsigned s = 0; s < sizeof k_seed_shapes / sizeof k_seed_shapes[0]; s++) {
        if (k_seed_shapes[s].kind != in->sh.kind || in->sh.nodes != UINT64_C(1)
                                                                        << k_seed_shapes[s].lg)
            continue;
        char name[64];
        snprintf(name, sizeof name, "valid_%s_%u", in->sh.kind == FIL_UPDATE_SHA ? "sha" : "pos",
                 k_seed_shapes[s].lg);
        write_seed(name, s, b, n);
        if (s != 0)
            continue;
        write_seed("truncated_sha_5", s, b, n / 2);
        uint8_t *c = malloc(n + 1);
        assert_non_null(c);
        memcpy(c, b, n);
        c[n] = 0;
        write_seed("trailing_sha_5", s, c, n + 1);
        c[32 + 8 + 8 * 32 + 8] = 0; /* challenge 0's proof_r_old tag: Single for Sub */
        write_seed("bad_tag_sha_5", s, c, n);
        memcpy(c, b, n);
        memset(c, 0xff, 32); /* comm_c */
        write_seed("noncanonical_sha_5", s, c, n);
        free(c);
    }
}

/* ---- tests --------------------------------------------------------------- */

static const struct {
    fil_update_kind kind;
    unsigned lg, k;
} k_cases[] = {
    {FIL_UPDATE_SHA, 5, 0},      /* tree_r 8-4-0: ProofData Sub */
    {FIL_UPDATE_SHA, 6, 0},      /* 8-0-0: Single */
    {FIL_UPDATE_SHA, 10, 1},     /* 8-8-2: Top; two partitions */
    {FIL_UPDATE_POSEIDON, 5, 0}, /* tree_d = tree_r: Sub */
    {FIL_UPDATE_POSEIDON, 6, 0}, {FIL_UPDATE_POSEIDON, 8, 0},
};

/* write -> layout -> parse -> equal -> write again -> witness -> circuit */
static void test_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        instance_t in;
        make_instance(&in, k_cases[i].kind, k_cases[i].lg, k_cases[i].k);
        size_t n, n2;
        uint8_t *b = write_or_fail(&n, &in.v);
        check_layout(b, n, &in.v, NULL);
        fil_snap_vproof_t got;
        cuzk_error_t err = {0};
        if (fil_snap_vproof_parse(&got, &in.sh, b, n, &err) != CUZK_OK)
            fail_msg("case %zu: parse: %s", i, err.msg);
        assert_vproof_equal(&got, &in.v);
        uint8_t *b2 = write_or_fail(&n2, &got);
        assert_int_equal(n2, n);
        assert_memory_equal(b2, b, n);
        assert_witness_satisfies(&in, &got);
        printf("test_filecoin_vanilla_snap: %s 2^%u nodes, partition %u: %zu bytes\n",
               k_cases[i].kind == FIL_UPDATE_SHA ? "sha" : "poseidon", k_cases[i].lg, k_cases[i].k,
               n);
        write_seeds(&in, b, n);
        free(b);
        free(b2);
        fil_snap_vproof_free(&got);
        assert_null(got.challenges);
        fil_snap_vproof_free(&in.v);
    }
    fil_snap_vproof_free(NULL);
}

/* Every proper prefix runs out of bytes at or before its end (every count
 * is fixed by the shape), and leaves nothing behind. */
static void test_truncations(void **state)
{
    (void)state;
    static const fil_update_kind kinds[2] = {FIL_UPDATE_SHA, FIL_UPDATE_POSEIDON};
    for (int k = 0; k < 2; k++) {
        instance_t in;
        make_instance(&in, kinds[k], 5, 0);
        size_t n;
        uint8_t *b = write_or_fail(&n, &in.v);
        fil_snap_vproof_t got;
        cuzk_error_t err = {0};
        for (size_t len = 0; len < n; len++) {
            uint8_t *cut = malloc(len ? len : 1); /* exactly len: ASan sees over-reads */
            assert_non_null(cut);
            memcpy(cut, b, len);
            assert_int_equal(fil_snap_vproof_parse(&got, &in.sh, cut, len, &err), CUZK_ERR_FORMAT);
            free(cut);
            const char *at = strstr(err.msg, " at offset ");
            if (!at || !strstr(err.msg, "snap vanilla proof: ") || !strstr(err.msg, "needed"))
                fail_msg("length %zu: %s", len, err.msg);
            assert_true(strtoull(at + 11, NULL, 10) <= len);
            assert_null(got.challenges);
            assert_null(got.apex_leafs);
            assert_int_equal(got.n_challenges, 0);
        }
        free(b);
        fil_snap_vproof_free(&in.v);
    }
}

/* b with one u64 / u32 / domain replaced, parsed: the status and the
 * message part expected. */
static void expect_bad(const instance_t *in, const uint8_t *b, size_t n, size_t at,
                       const uint8_t *bytes, size_t k, cuzk_status want, const char *msg)
{
    uint8_t *c = malloc(n);
    assert_non_null(c);
    memcpy(c, b, n);
    memcpy(c + at, bytes, k);
    fil_snap_vproof_t got;
    cuzk_error_t err = {0};
    cuzk_status st = fil_snap_vproof_parse(&got, &in->sh, c, n, &err);
    if (st != want || !strstr(err.msg, msg))
        fail_msg("offset %zu: status %d (want %d): '%s', want '%s'", at, (int)st, (int)want,
                 err.msg, msg);
    assert_null(got.challenges);
    free(c);
}

static const uint8_t k_ones[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};

static void le(uint8_t *out, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

/* 2^5 nodes, SHA-256 TreeD: tree_r 8-4-0 (Sub: tag, base_proof of one
 * level, sub_proof of one level, root, leaf), tree_d binary (Single: tag,
 * root, leaf, path of 5 levels). */
static void test_bad_bytes(void **state)
{
    (void)state;
    instance_t in;
    make_instance(&in, FIL_UPDATE_SHA, 5, 0);
    size_t n;
    uint8_t *b = write_or_fail(&n, &in.v);
    size_t(*off)[3] = malloc(in.v.n_challenges * sizeof *off);
    assert_non_null(off);
    check_layout(b, n, &in.v, off);
    char msg[128];
    uint8_t u[8];
    /* trailing bytes */
    uint8_t *c = malloc(n + 3);
    assert_non_null(c);
    memcpy(c, b, n);
    memset(c + n, 0, 3);
    fil_snap_vproof_t got;
    cuzk_error_t err = {0};
    assert_int_equal(fil_snap_vproof_parse(&got, &in.sh, c, n + 3, &err), CUZK_ERR_FORMAT);
    snprintf(msg, sizeof msg, "at offset %zu: 3 bytes after the proof", n);
    assert_non_null(strstr(err.msg, msg));
    free(c);
    /* non-canonical domains: comm_c, an apex leaf, a sibling, a leaf, a
     * root (r = 0x73ed...0001 < 2^255 - 1) */
    expect_bad(&in, b, n, 0, k_ones, 32, CUZK_ERR_NONCANONICAL, "comm_c at offset 0");
    expect_bad(&in, b, n, 40 + 3 * 32, k_ones, 32, CUZK_ERR_NONCANONICAL,
               "apex_leafs[3] at offset 136");
    size_t at = off[9][2] + 4 + 8 + 8 + 32 * 2; /* proof_r_new base level 0, hash 2 */
    snprintf(msg, sizeof msg, "challenge_proofs[9].proof_r_new.base_proof level 0 at offset %zu",
             at);
    expect_bad(&in, b, n, at, k_ones, 32, CUZK_ERR_NONCANONICAL, msg);
    at = off[4][1] + 4 + 32; /* proof_d_new leaf */
    snprintf(msg, sizeof msg, "challenge_proofs[4].proof_d_new.leaf at offset %zu", at);
    expect_bad(&in, b, n, at, k_ones, 32, CUZK_ERR_NONCANONICAL, msg);
    at = off[0][0] + 4 + (8 + 8 + 7 * 32 + 8) + (8 + 8 + 3 * 32 + 8); /* proof_r_old root */
    snprintf(msg, sizeof msg, "challenge_proofs[0].proof_r_old.root at offset %zu", at);
    expect_bad(&in, b, n, at, k_ones, 32, CUZK_ERR_NONCANONICAL, msg);
    /* counts fixed by the shape */
    le(u, 9, 8);
    expect_bad(&in, b, n, 32, u, 8, CUZK_ERR_FORMAT, "apex_leafs at offset 32: length 9, 8");
    le(u, UINT64_MAX, 8);
    expect_bad(&in, b, n, 32, u, 8, CUZK_ERR_FORMAT, "apex_leafs at offset 32: length");
    le(u, 11, 8);
    expect_bad(&in, b, n, 296, u, 8, CUZK_ERR_FORMAT,
               "challenge_proofs at offset 296: length 11, 10 expected");
    le(u, 9, 8); /* a wrong challenge count */
    expect_bad(&in, b, n, 296, u, 8, CUZK_ERR_FORMAT, "challenge_proofs at offset 296");
    /* enum tags: out of range, and another variant than the tree's */
    le(u, 7, 4);
    snprintf(msg, sizeof msg, "challenge_proofs[2].proof_r_old.ProofData tag at offset %zu",
             off[2][0]);
    expect_bad(&in, b, n, off[2][0], u, 4, CUZK_ERR_FORMAT, msg);
    le(u, 1u << 31, 4);
    expect_bad(&in, b, n, off[2][0], u, 4, CUZK_ERR_FORMAT, "(0 Single, 1 Sub, 2 Top)");
    le(u, 1, 4);
    snprintf(msg, sizeof msg,
             "challenge_proofs[4].proof_d_new.ProofData tag at offset %zu: 1 (Sub), the 2-0-0 "
             "tree needs 0 (Single)",
             off[4][1]);
    expect_bad(&in, b, n, off[4][1], u, 4, CUZK_ERR_FORMAT, msg);
    le(u, 2, 4);
    snprintf(msg, sizeof msg, "the 8-4-0 tree needs 1 (Sub)");
    expect_bad(&in, b, n, off[7][2], u, 4, CUZK_ERR_FORMAT, msg);
    /* path shapes: TreeD's path length, a sibling count, an index */
    le(u, 4, 8);
    at = off[1][1] + 4 + 64;
    snprintf(msg, sizeof msg,
             "challenge_proofs[1].proof_d_new.path at offset %zu: length 4, 5 expected", at);
    expect_bad(&in, b, n, at, u, 8, CUZK_ERR_FORMAT, msg);
    le(u, 3, 8);
    at = off[1][1] + 4 + 64 + 8 + 48 * 2; /* level 2's hash count */
    snprintf(msg, sizeof msg,
             "proof_d_new.path level 2 at offset %zu: 3 sibling hashes, arity 2 needs 1", at);
    expect_bad(&in, b, n, at, u, 8, CUZK_ERR_FORMAT, msg);
    le(u, 2, 8);
    at = off[1][1] + 4 + 64 + 8 + 48 * 4 + 8 + 32; /* level 4's index */
    snprintf(msg, sizeof msg, "proof_d_new.path level 4 at offset %zu: index 2 (arity 2)", at);
    expect_bad(&in, b, n, at, u, 8, CUZK_ERR_FORMAT, msg);
    le(u, 7, 8);
    at = off[3][2] + 4 + 8 + 8 + 7 * 32 + 8 + 8; /* the sub level's hash count: 3 */
    snprintf(msg, sizeof msg,
             "challenge_proofs[3].proof_r_new.sub_proof level 0 at offset %zu: 7 sibling "
             "hashes, arity 4 needs 3",
             at);
    expect_bad(&in, b, n, at, u, 8, CUZK_ERR_FORMAT, msg);
    le(u, 2, 8);
    at = off[3][0] + 4 + 8 + 8 + 7 * 32 + 8; /* the sub path's length */
    snprintf(msg, sizeof msg, "proof_r_old.sub_proof at offset %zu: length 2, 1 expected", at);
    expect_bad(&in, b, n, at, u, 8, CUZK_ERR_FORMAT, msg);

    /* other shapes: 2^6 nodes has tree_r 8-0-0; the Poseidon variant has
     * no apex_leafs, so their count reads as the challenge count */
    fil_update_shape_t sh;
    assert_int_equal(fil_update_shape_init(&sh, FIL_UPDATE_SHA, 64, NULL), CUZK_OK);
    assert_int_equal(fil_snap_vproof_parse(&got, &sh, b, n, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "challenge_proofs[0].proof_r_old.ProofData tag at offset 304: "
                                    "1 (Sub), the 8-0-0 tree needs 0 (Single)"));
    assert_int_equal(fil_update_shape_init(&sh, FIL_UPDATE_POSEIDON, 32, NULL), CUZK_OK);
    assert_int_equal(fil_snap_vproof_parse(&got, &sh, b, n, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "challenge_proofs at offset 32: length 8, 10 expected"));
    sh = in.sh;
    sh.challenges = 9;
    assert_int_equal(fil_snap_vproof_parse(&got, &sh, b, n, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "fil_update_shape_init"));
    sh = in.sh;
    sh.nodes = 48;
    assert_int_equal(fil_snap_vproof_parse(&got, &sh, b, n, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_snap_vproof_parse(NULL, &in.sh, b, n, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_snap_vproof_parse(&got, NULL, b, n, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_snap_vproof_parse(&got, &in.sh, NULL, n, &err), CUZK_ERR_ARG);
    /* the untouched bytes still parse */
    assert_int_equal(fil_snap_vproof_parse(&got, &in.sh, b, n, &err), CUZK_OK);
    fil_snap_vproof_free(&got);
    free(off);
    free(b);
    fil_snap_vproof_free(&in.v);
}

static void expect_witness_error(const instance_t *in, const fil_snap_vproof_t *v,
                                 const fil_snap_public_t *pub, const char *msg)
{
    fil_update_witness_t w;
    cuzk_error_t err = {0};
    cuzk_status st = fil_snap_vproof_witness(&w, &in->sh, v, pub, &err);
    if (st != CUZK_ERR_ARG || !strstr(err.msg, msg))
        fail_msg("status %d: '%s', want '%s'", (int)st, err.msg, msg);
    assert_null(w.challenges);
    assert_null(w.apex_leafs);
}

/* What fil_snap_vproof_witness refuses (partition 1 of 2^10 nodes). */
static void test_witness_rejects(void **state)
{
    (void)state;
    instance_t in;
    make_instance(&in, FIL_UPDATE_SHA, 10, 1);
    fil_snap_vproof_t *v = &in.v;
    fil_snap_public_t pub = in.pub;
    fr_t saved;
    pub.k = 0; /* the other partition's challenges */
    expect_witness_error(&in, v, &pub, "challenge_proofs[0].proof_r_old opens node");
    pub.k = 2;
    expect_witness_error(&in, v, &pub, "partition 2 of 2");
    pub = in.pub;
    pub.h = 99;
    expect_witness_error(&in, v, &pub, "h = 99");
    pub = in.pub;
    fr_add(&pub.comm_r_old, &pub.comm_r_old, &FR_ONE);
    expect_witness_error(&in, v, &pub, "comm_r_old is not Poseidon-2(comm_c");
    pub = in.pub;
    fr_add(&pub.comm_d_new, &pub.comm_d_new, &FR_ONE);
    expect_witness_error(&in, v, &pub,
                         "challenge_proofs[0].proof_d_new: its root is not comm_d_new");
    pub = in.pub;
    fr_add(&v->comm_c, &v->comm_c, &FR_ONE);
    expect_witness_error(&in, v, &pub, "comm_r_old is not Poseidon-2(comm_c");
    fr_sub(&v->comm_c, &v->comm_c, &FR_ONE);
    saved = v->challenges[3].r_old.root;
    fr_add(&v->challenges[3].r_old.root, &saved, &FR_ONE);
    expect_witness_error(&in, v, &pub,
                         "challenge_proofs[3].proof_r_old: its root is not challenge 0's");
    v->challenges[3].r_old.root = saved;
    saved = v->challenges[6].r_new.root;
    fr_add(&v->challenges[6].r_new.root, &saved, &FR_ONE);
    expect_witness_error(&in, v, &pub, "challenge_proofs[6].proof_r_new: its root");
    v->challenges[6].r_new.root = saved;
    /* another node of the same tree: an index moved */
    fil_merkle_level_t *lv = &v->challenges[5].d_new.level[0];
    lv->index ^= 1;
    expect_witness_error(&in, v, &pub, "challenge_proofs[5].proof_d_new opens node");
    lv->index ^= 1;
    /* the proof's form */
    v->challenges[2].r_new.n_levels--;
    expect_witness_error(&in, v, &pub, "challenge_proofs[2].proof_r_new is not a path");
    v->challenges[2].r_new.n_levels++;
    v->n_challenges = 9;
    expect_witness_error(&in, v, &pub, "9 challenge proofs");
    v->n_challenges = 10;
    v->kind = FIL_UPDATE_POSEIDON;
    expect_witness_error(&in, v, &pub, "kind");
    v->kind = FIL_UPDATE_SHA;
    v->tree_d.hasher = FIL_HASHER_POSEIDON;
    expect_witness_error(&in, v, &pub, "tree shapes");
    v->tree_d.hasher = FIL_HASHER_SHA256;
    fil_update_shape_t sh = in.sh;
    in.sh.hs[0] = 2;
    expect_witness_error(&in, v, &pub, "fil_update_shape_init");
    in.sh = sh;
    /* restored: accepted, and the circuit is satisfied */
    assert_witness_satisfies(&in, v);
    fil_update_witness_t w;
    assert_int_equal(fil_snap_vproof_witness(NULL, &in.sh, v, &pub, NULL), CUZK_ERR_ARG);
    assert_int_equal(fil_snap_vproof_witness(&w, &in.sh, v, NULL, NULL), CUZK_ERR_ARG);
    fil_snap_vproof_free(v);
}

/* What fil_snap_vproof_write refuses. */
static void test_write_rejects(void **state)
{
    (void)state;
    instance_t in;
    make_instance(&in, FIL_UPDATE_POSEIDON, 5, 0);
    fil_snap_vproof_t *v = &in.v;
    uint8_t *b = NULL;
    size_t n = 0;
    cuzk_error_t err = {0};
    fr_t leaf = FR_ONE;
    v->n_apex_leafs = 1;
    v->apex_leafs = &leaf;
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "apex leafs in a Poseidon PartitionProof"));
    v->kind = FIL_UPDATE_SHA; /* the same proof with an apex leaf is a valid SHA one */
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_OK);
    assert_int_equal(b[32], 1);
    free(b);
    v->apex_leafs = NULL;
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "NULL"));
    v->n_apex_leafs = 0;
    v->kind = (fil_update_kind)7;
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_ERR_ARG);
    v->kind = FIL_UPDATE_POSEIDON;
    v->challenges[2].d_new.level[1].arity = 2;
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "challenge_proofs[2].proof_d_new: level 1"));
    assert_null(b);
    assert_int_equal(n, 0);
    v->challenges[2].d_new.level[1].arity = 4;
    v->challenges[8].r_old.n_levels = 1; /* a sub tree without a base level */
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "challenge_proofs[8].proof_r_old: 1 levels"));
    v->challenges[8].r_old.n_levels = 2;
    assert_int_equal(fil_snap_vproof_write(&b, &n, v, &err), CUZK_OK);
    check_layout(b, n, v, NULL);
    free(b);
    assert_int_equal(fil_snap_vproof_write(&b, NULL, v, &err), CUZK_ERR_ARG);
    fil_snap_vproof_free(v);
}

int main(void)
{
    tu_init("test_filecoin_vanilla_snap");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_bad_bytes),     cmocka_unit_test(test_witness_rejects),
        cmocka_unit_test(test_write_rejects),
    };
    return cmocka_run_group_tests_name("filecoin_vanilla_snap", tests, NULL, NULL);
}
