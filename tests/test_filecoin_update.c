/* The SnapDeals circuits (include/cuzk/filecoin_update.h) against
 * rust-fil-proofs' published sizes (RFP@87348a7 storage-proofs-update):
 * the gadget tests of gadgets.rs (gen_challenge_bits, apex_por), the
 * test circuits of tests/circuit.rs and tests/circuit_poseidon.rs, and
 * the production 32 GiB circuits (reference.json); then small instances
 * built from random sectors by the vanilla relations (vanilla.rs,
 * tests/common encode_new_replica) that satisfy every constraint, and a
 * corrupted one that does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/cs_num.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_update.h"
#include "cs_fixture.h"
#include "test_util.h"

static fil_update_shape_t shape_of(fil_update_kind kind, unsigned log2_nodes)
{
    fil_update_shape_t sh;
    cuzk_error_t err = {0};
    if (fil_update_shape_init(&sh, kind, UINT64_C(1) << log2_nodes, &err) != CUZK_OK)
        fail_msg("shape: %s", err.msg);
    return sh;
}

static cs_counts_t count(const fil_update_shape_t *sh)
{
    fil_update_witness_t w;
    cuzk_error_t err = {0};
    if (fil_update_witness_blank(&w, sh, &err) != CUZK_OK)
        fail_msg("blank: %s", err.msg);
    cs_t *cs = csf_new(CS_COUNT);
    fil_cs_update(cs, sh, &w);
    csf_assert_ok(cs);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    fil_update_witness_free(&w);
    return k;
}

/* gadgets.rs test_gen_challenge_bits_gadget: per ALLOWED_SECTOR_SIZES. */
static void test_gen_challenge_bits_count(void **state)
{
    (void)state;
    static const struct {
        unsigned lg;
        uint64_t constraints;
    } cases[] = {{5, 568},  {6, 568},  {7, 568},   {8, 568},   {9, 568},  {10, 568},
                 {18, 568}, {19, 568}, {24, 4544}, {30, 5680}, {31, 5680}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fil_update_shape_t sh = shape_of(FIL_UPDATE_SHA, cases[i].lg);
        cs_t *cs = csf_new(CS_COUNT);
        cs_num_t comm = cs_num_alloc(cs, NULL), k = cs_num_alloc(cs, NULL);
        cs_counts_t before, after;
        cs_counts(&before, cs);
        unsigned bits = sh.challenge_bits - sh.partition_bits;
        cs_bool_t *out = malloc((size_t)sh.challenges * bits * sizeof *out);
        assert_non_null(out);
        fil_cs_update_gen_challenge_bits(out, cs, &comm, &k, sh.challenges, bits);
        csf_assert_ok(cs);
        cs_counts(&after, cs);
        assert_int_equal(after.constraints - before.constraints, cases[i].constraints);
        free(out);
        cs_free(cs);
    }
}

/* gadgets.rs test_apex_por_gadget: sector size, partitions, apex leafs per
 * partition, constraints. */
static void test_apex_por_count(void **state)
{
    (void)state;
    static const struct {
        unsigned lg, partitions, leafs;
        uint64_t constraints;
    } cases[] = {
        {5, 1, 8, 317654},    {6, 1, 8, 317654},     {7, 1, 8, 317654},  {8, 1, 8, 317654},
        {9, 2, 128, 5808515}, {10, 2, 128, 5808515}, {9, 4, 16, 771448}, {9, 8, 8, 453797},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_t *cs = csf_new(CS_COUNT);
        cs_num_t comm_d = cs_num_alloc(cs, NULL), leafs[128], path[8];
        cs_bool_t bits[8];
        unsigned pb = 0;
        while ((1u << pb) < cases[i].partitions)
            pb++;
        for (unsigned b = 0; b < pb; b++)
            bits[b] = cs_bit_alloc(cs, 0);
        for (unsigned l = 0; l < cases[i].leafs; l++)
            leafs[l] = cs_num_alloc(cs, NULL);
        for (unsigned b = 0; b < pb; b++)
            path[b] = cs_num_alloc(cs, NULL);
        cs_counts_t before, after;
        cs_counts(&before, cs);
        fil_cs_update_apex_por(cs, leafs, cases[i].leafs, bits, path, pb, &comm_d);
        csf_assert_ok(cs);
        cs_counts(&after, cs);
        assert_int_equal(after.constraints - before.constraints, cases[i].constraints);
        cs_free(cs);
    }
}

/* tests/circuit.rs and tests/circuit_poseidon.rs (the tree shapes are
 * validate_tree_r_shape's, which fil_update_shape_init derives). */
static void test_rust_test_circuits(void **state)
{
    (void)state;
    static const struct {
        fil_update_kind kind;
        unsigned lg;
        uint64_t constraints;
    } cases[] = {
        {FIL_UPDATE_SHA, 5, 1248389},    {FIL_UPDATE_SHA, 6, 1705039},
        {FIL_UPDATE_SHA, 7, 2165109},    {FIL_UPDATE_SHA, 8, 2620359},
        {FIL_UPDATE_SHA, 9, 6300021},    {FIL_UPDATE_SHA, 10, 6760091},
        {FIL_UPDATE_POSEIDON, 5, 32164}, {FIL_UPDATE_POSEIDON, 8, 47974},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fil_update_shape_t sh = shape_of(cases[i].kind, cases[i].lg);
        cs_counts_t k = count(&sh);
        printf("test_filecoin_update: %s 2^%u nodes: %llu constraints, %llu aux\n",
               cases[i].kind == FIL_UPDATE_SHA ? "sha" : "poseidon", cases[i].lg,
               (unsigned long long)k.constraints, (unsigned long long)k.aux);
        assert_int_equal(k.constraints, cases[i].constraints);
        assert_int_equal(k.inputs, 5);
    }
}

/* reference.json production_circuits: 32 GiB, both kinds. */
static void test_production(void **state)
{
    (void)state;
    static const struct {
        fil_update_kind kind;
        uint64_t constraints;
    } cases[] = {{FIL_UPDATE_SHA, 81049499}, {FIL_UPDATE_POSEIDON, 22305906}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fil_update_shape_t sh = shape_of(cases[i].kind, 30);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        cs_counts_t k = count(&sh);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("test_filecoin_update: %s 32 GiB: %llu constraints, %llu aux, %llu inputs, "
               "a/b_aux density %llu/%llu (%.2f s)\n",
               cases[i].kind == FIL_UPDATE_SHA ? "snap-deals" : "snap-deals-poseidon",
               (unsigned long long)k.constraints, (unsigned long long)k.aux,
               (unsigned long long)k.inputs, (unsigned long long)k.a_aux_density,
               (unsigned long long)k.b_aux_density,
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        assert_int_equal(k.constraints, cases[i].constraints);
        assert_int_equal(k.inputs, 5);
    }
}

/* ---- challenges.rs test_challenges_against_hardcoded ------------------- */

/* rand_xorshift 0.3 XorShiftRng: seeded by 4 u32 LE, next_u64 = two
 * next_u32, low word first (rand_core impls::next_u64_via_u32). */
typedef struct xorshift {
    uint32_t x, y, z, w;
} xorshift_t;

static uint32_t xs_next_u32(xorshift_t *r)
{
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}

static uint64_t xs_next_u64(xorshift_t *r)
{
    uint64_t lo = xs_next_u32(r);
    return (uint64_t)xs_next_u32(r) << 32 | lo;
}

/* blstrs 0.7 Scalar::random: 4 u64 LE, the top bit cleared, rejected
 * until below r. */
static void xs_fr(fr_t *out, xorshift_t *r)
{
    for (;;) {
        uint8_t le[32];
        for (int i = 0; i < 4; i++) {
            uint64_t v = xs_next_u64(r);
            if (i == 3)
                v &= UINT64_MAX >> 1;
            for (int b = 0; b < 8; b++)
                le[8 * i + b] = (uint8_t)(v >> (8 * b));
        }
        if (fr_from_le(out, le) == CUZK_OK)
            return;
    }
}

/* comm_r_new = TreeRDomain::random(XorShiftRng::from_seed(TEST_SEED)); the
 * first 5 challenges of partitions of every size. The digests are Poseidon
 * with the custom domain tag, so this pins POSEIDON_CONSTANTS_GEN_RANDOMNESS
 * to rust-fil-proofs. */
static void test_challenges_hardcoded(void **state)
{
    (void)state;
    static const uint8_t seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                     0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};
    uint32_t w[4];
    for (int i = 0; i < 4; i++)
        w[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
               (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    xorshift_t rng = {w[0], w[1], w[2], w[3]};
    fr_t comm_r_new;
    xs_fr(&comm_r_new, &rng);
    static const struct {
        unsigned lg, k;
        uint32_t c[5];
    } cases[] = {
        {5, 0, {21, 7, 3, 31, 0}},
        {6, 0, {53, 51, 56, 3, 0}},
        {7, 0, {117, 25, 62, 0, 72}},
        {8, 0, {245, 140, 15, 128, 28}},
        {9, 0, {245, 140, 15, 128, 28}},
        {9, 1, {286, 308, 493, 510, 508}},
        {10, 0, {245, 454, 3, 400, 193}},
        {10, 1, {542, 666, 955, 927, 911}},
        {18, 0, {36085, 32783, 44060, 10950, 3731}},
        {18, 1, {78878, 130797, 112892, 93994, 78379}},
        {19, 0, {101621, 16391, 109319, 25944, 41193}},
        {19, 1, {209950, 163702, 175679, 224741, 197410}},
        {24, 0, {1019125, 116736, 706220, 59698, 799498}},
        {24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fil_update_shape_t sh = shape_of(FIL_UPDATE_SHA, cases[i].lg);
        uint64_t c[86];
        assert_int_equal(fil_update_challenges(c, &sh, &comm_r_new, cases[i].k, NULL), CUZK_OK);
        for (int j = 0; j < 5; j++)
            if (c[j] != cases[i].c[j])
                fail_msg("2^%u nodes, partition %u, challenge %d: %llu, want %u", cases[i].lg,
                         cases[i].k, j, (unsigned long long)c[j], cases[i].c[j]);
    }
}

/* ---- witnesses from random sectors -------------------------------------- */

typedef struct instance {
    fil_update_shape_t sh;
    fil_update_witness_t w;
    fr_t pub[4];
} instance_t;

static fil_merkle_tree_t *build(const fil_tree_shape_t *t, const fr_t *leaves, uint64_t n)
{
    fil_merkle_tree_t *tree = NULL;
    cuzk_error_t err = {0};
    if (fil_merkle_tree_build(&tree, t, leaves, n, &err) != CUZK_OK)
        fail_msg("tree: %s", err.msg);
    return tree;
}

static void path(fil_merkle_path_t *out, const fil_merkle_tree_t *t, uint64_t leaf)
{
    assert_int_equal(fil_merkle_tree_path(out, t, leaf, NULL), CUZK_OK);
}

static void hash2(fr_t *out, const fr_t *a, const fr_t *b)
{
    fr_t in[2] = {*a, *b};
    assert_int_equal(fil_merkle_node(out, FIL_HASHER_POSEIDON, in, 2, NULL), CUZK_OK);
}

/* The instance of tests/circuit.rs (and circuit_poseidon.rs) for partition
 * k: random old replica and new data, the new replica by
 * encode_new_replica with h = hs[2] (H_SELECT = 1 << 2), comm_r = H(comm_c,
 * root), the challenges of Challenges::new, the three openings of each,
 * the apex leafs of the partition (roots of TreeD's subtrees at the apex
 * row). */
static void make_instance(instance_t *in, fil_update_kind kind, unsigned lg, unsigned k)
{
    in->sh = shape_of(kind, lg);
    const fil_update_shape_t *sh = &in->sh;
    const uint64_t n = sh->nodes;
    assert_int_equal(fil_update_witness_blank(&in->w, sh, NULL), CUZK_OK);
    fil_update_witness_t *w = &in->w;
    fr_t *r_old = malloc(n * sizeof *r_old), *d_new = malloc(n * sizeof *d_new);
    fr_t *r_new = malloc(n * sizeof *r_new);
    uint64_t *cs_idx = malloc(sh->challenges * sizeof *cs_idx);
    assert_true(r_old && d_new && r_new && cs_idx);
    for (uint64_t i = 0; i < n; i++) {
        tu_rand_fr(&r_old[i]);
        tu_rand_fr(&d_new[i]);
    }
    fil_merkle_tree_t *t_r_old = build(&sh->tree_r, r_old, n);
    fil_merkle_tree_t *t_d_new = build(&sh->tree_d, d_new, n);
    fil_merkle_tree_root(&w->root_r_old, t_r_old);
    fil_merkle_tree_root(&w->comm_d_new, t_d_new);
    tu_rand_fr(&w->comm_c);
    hash2(&w->comm_r_old, &w->comm_c, &w->root_r_old);
    fr_t phi;
    assert_int_equal(fil_update_phi(&phi, &w->comm_d_new, &w->comm_r_old, NULL), CUZK_OK);
    const unsigned h = sh->hs[2], shr = sh->challenge_bits - h;
    for (uint64_t i = 0; i < n; i++) {
        fr_t rho;
        assert_int_equal(fil_update_rho(&rho, &phi, (uint32_t)(i >> shr), NULL), CUZK_OK);
        fr_mul(&r_new[i], &d_new[i], &rho);
        fr_add(&r_new[i], &r_new[i], &r_old[i]);
    }
    fil_merkle_tree_t *t_r_new = build(&sh->tree_r, r_new, n);
    fil_merkle_tree_root(&w->root_r_new, t_r_new);
    hash2(&w->comm_r_new, &w->comm_c, &w->root_r_new);
    assert_int_equal(fil_update_public_inputs(in->pub, sh, k, h, &w->comm_r_old, &w->comm_d_new,
                                              &w->comm_r_new, NULL),
                     CUZK_OK);
    w->k_and_h_select = in->pub[0];
    assert_int_equal(fil_update_challenges(cs_idx, sh, &w->comm_r_new, k, NULL), CUZK_OK);
    for (unsigned c = 0; c < sh->challenges; c++) {
        assert_true(cs_idx[c] < n);
        if (sh->kind == FIL_UPDATE_SHA) /* within the partition's nodes */
            assert_int_equal(cs_idx[c] >> (sh->challenge_bits - sh->partition_bits), k);
        path(&w->challenges[c].r_old, t_r_old, cs_idx[c]);
        path(&w->challenges[c].d_new, t_d_new, cs_idx[c]);
        path(&w->challenges[c].r_new, t_r_new, cs_idx[c]);
    }
    /* apex leaf j of partition k: the root of the binary SHA-256 tree over
     * the 2^below nodes under it */
    const unsigned below = sh->challenge_bits - sh->partition_bits - sh->apex_leaf_bits;
    for (unsigned j = 0; j < sh->apex_leafs; j++) {
        uint64_t first = ((uint64_t)k * sh->apex_leafs + j) << below;
        fil_merkle_tree_t *sub = build(&sh->tree_d, d_new + first, UINT64_C(1) << below);
        fil_merkle_tree_root(&w->apex_leafs[j], sub);
        fil_merkle_tree_free(sub);
    }
    fil_merkle_tree_free(t_r_old);
    fil_merkle_tree_free(t_d_new);
    fil_merkle_tree_free(t_r_new);
    free(r_old);
    free(d_new);
    free(r_new);
    free(cs_idx);
}

/* Synthesizes in the check back end, aux fault_aux (when >= 0) replaced
 * by *bad; returns the cs. */
static cs_t *check_run(const instance_t *in, int64_t fault_aux, const fr_t *bad)
{
    cs_t *cs = csf_new(CS_CHECK);
    if (fault_aux >= 0)
        cs_set_fault(cs, (uint64_t)fault_aux, bad);
    fil_cs_update(cs, &in->sh, &in->w);
    return cs;
}

static void test_witness(void **state)
{
    (void)state;
    static const struct {
        fil_update_kind kind;
        unsigned lg, k;
    } cases[] = {
        {FIL_UPDATE_SHA, 5, 0},      {FIL_UPDATE_SHA, 6, 0},      {FIL_UPDATE_SHA, 10, 1},
        {FIL_UPDATE_POSEIDON, 5, 0}, {FIL_UPDATE_POSEIDON, 8, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        instance_t in;
        make_instance(&in, cases[i].kind, cases[i].lg, cases[i].k);
        cs_t *cs = check_run(&in, -1, NULL);
        uint64_t row = 0;
        char where[256];
        if (cs_unsatisfied(&row, where, sizeof where, cs))
            fail_msg("case %zu: constraint %llu (%s) is not satisfied", i, (unsigned long long)row,
                     where);
        csf_assert_ok(cs);
        size_t n_in;
        const fr_t *inputs = cs_input_values(cs, &n_in);
        assert_int_equal(n_in, 5);
        for (int j = 0; j < 4; j++)
            assert_true(fr_equal(&inputs[1 + j], &in.pub[j]));
        cs_counts_t k;
        cs_counts(&k, cs);
        cs_counts_t blank = count(&in.sh);
        assert_memory_equal(&k, &blank, sizeof k);
        /* a corrupted aux value (the right one plus one), mid-circuit, is
         * caught */
        size_t n_aux;
        fr_t bad = cs_aux_values(cs, &n_aux)[k.aux / 2];
        fr_add(&bad, &bad, &FR_ONE);
        cs_free(cs);
        cs = check_run(&in, (int64_t)(k.aux / 2), &bad);
        assert_true(cs_unsatisfied(&row, NULL, 0, cs));
        assert_int_not_equal(cs_status(cs, NULL), CUZK_OK);
        cs_free(cs);
        fil_update_witness_free(&in.w);
    }
}

/* What rust-fil-proofs asserts: a wrong encoding, an h_select with two
 * bits, a partition out of range, another partition path. */
static void test_witness_rejects(void **state)
{
    (void)state;
    instance_t in;
    make_instance(&in, FIL_UPDATE_SHA, 10, 0);
    cuzk_error_t err;
    fr_t saved = in.w.challenges[3].r_new.leaf;
    fr_add(&in.w.challenges[3].r_new.leaf, &saved, &FR_ONE);
    cs_t *cs = check_run(&in, -1, NULL);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "leaf_r_new"));
    cs_free(cs);
    in.w.challenges[3].r_new.leaf = saved;
    fr_t khs = in.w.k_and_h_select;
    static const uint64_t bad_sel[] = {3u << 1, 1, 1u << 7};
    for (size_t i = 0; i < sizeof bad_sel / sizeof bad_sel[0]; i++) {
        fr_from_u64(&in.w.k_and_h_select, bad_sel[i]);
        cs = check_run(&in, -1, NULL);
        assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "k_and_h_select"));
        cs_free(cs);
    }
    in.w.k_and_h_select = khs;
    fr_add(&in.w.challenges[5].d_new.level[9].siblings[0],
           &in.w.challenges[5].d_new.level[9].siblings[0], &FR_ONE);
    cs = check_run(&in, -1, NULL);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "partition path"));
    cs_free(cs);
    fil_update_witness_free(&in.w);
    fil_update_shape_t sh;
    assert_int_equal(fil_update_shape_init(&sh, FIL_UPDATE_SHA, 1u << 11, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_update_shape_init(&sh, (fil_update_kind)7, 1u << 5, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_update");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen_challenge_bits_count),
        cmocka_unit_test(test_apex_por_count),
        cmocka_unit_test(test_rust_test_circuits),
        cmocka_unit_test(test_challenges_hardcoded),
        cmocka_unit_test(test_production),
        cmocka_unit_test(test_witness),
        cmocka_unit_test(test_witness_rejects),
    };
    return cmocka_run_group_tests_name("filecoin_update", tests, NULL, NULL);
}
