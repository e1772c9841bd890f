/* PoR inclusion proofs (filecoin_por.h) over native Merkle trees
 * (filecoin_merkle.h):
 *  - the native trees: roots against hand-made hashes, every leaf's path
 *    leads to the root and spells the leaf's number, shapes checked;
 *  - the per-level costs of NOTES.md §2 (arity 8: 530 c / 537 a, 4: 387 /
 *    390, 2: 314 / 315, SHA-256 binary: 45,382 / 45,335) and the + 2 at the
 *    end;
 *  - rust-fil-proofs' own PoR test circuits with their published counts
 *    (RFP:storage-proofs-core/tests/por_circuit.rs @87348a7: Poseidon
 *    base 2 / 4 / 8, sub 8-2, 8-8, top 8-4-2, 8-8-2, 8-2-4, private roots,
 *    SHA-256 base 2 / 4 / 8), each over a real tree of random leaves: the
 *    witness satisfies every constraint, the packed input is the challenge
 *    and the second input the root;
 *  - the whole circuit's size for the shapes 8-0-0, 8-4-0, 8-4-2, 8-8-0,
 *    8-8-2 and binary SHA-256 against a formula read off por.rs, up to the
 *    production trees (32 GiB tree_r 8-8-0: 5,302, the NOTES.md column
 *    proof; comm_d binary: 30 x 45,382 + 2);
 *  - a wrong sibling, index or leaf fails at the equality constraint, and
 *    only there; a non-boolean index bit at its own constraint;
 *  - count (blank path), witness, check and record agree on sizes and
 *    densities, and the recorded matrices accept the witness;
 *  - the TestConstraintSystem::hash() fingerprint is the same for the
 *    blank circuit and for real paths to different leaves (printed);
 *  - por_no_challenge_input as RFP's test_por_no_challenge_input runs it
 *    (shapes 8-0-0, 8-8-0, 8-4-0, 8-4-2, 8-8-2, one shared root);
 *  - broken shapes and paths are the cs's CUZK_ERR_ARG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "cs_fixture.h"
#include "test_util.h"

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_por.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"

static void assert_counts_equal(const cs_counts_t *a, const cs_counts_t *b)
{
    assert_int_equal(a->constraints, b->constraints);
    assert_int_equal(a->aux, b->aux);
    assert_int_equal(a->inputs, b->inputs);
    assert_int_equal(a->a_aux_density, b->a_aux_density);
    assert_int_equal(a->b_input_density, b->b_input_density);
    assert_int_equal(a->b_aux_density, b->b_aux_density);
}

static fil_tree_shape_t shape_of(fil_hasher h, unsigned b, unsigned s, unsigned t)
{
    fil_tree_shape_t sh = {h, b, s, t};
    return sh;
}

static const char *hasher_name(fil_hasher h)
{
    return h == FIL_HASHER_SHA256 ? "sha256" : "poseidon";
}

/* get_base_tree_count */
static uint64_t base_tree_count(const fil_tree_shape_t *s)
{
    return (uint64_t)(s->sub_arity ? s->sub_arity : 1u) * (s->top_arity ? s->top_arity : 1u);
}

/* A tree of random leaves (tu_rand_fr: edge-biased Fr). */
/* distinct: no two leaves equal (tu_rand_fr draws 0, 1, -1 and small
 * values often, and equal subtrees make some wrong paths right). */
static fil_merkle_tree_t *random_tree_of(const fil_tree_shape_t *s, uint64_t leaves,
                                         fr_t **out_leaves, int distinct)
{
    fr_t *l = malloc(leaves * sizeof *l);
    assert_non_null(l);
    for (uint64_t i = 0; i < leaves; i++)
        for (int again = 1; again;) {
            tu_rand_fr(&l[i]);
            again = 0;
            for (uint64_t k = 0; distinct && k < i && !again; k++)
                again = fr_equal(&l[k], &l[i]);
        }
    fil_merkle_tree_t *t = NULL;
    cuzk_error_t err = {0};
    if (fil_merkle_tree_build(&t, s, l, leaves, &err) != CUZK_OK)
        fail_msg("tree: %s", err.msg);
    if (out_leaves)
        *out_leaves = l;
    else
        free(l);
    return t;
}

static fil_merkle_tree_t *random_tree(const fil_tree_shape_t *s, uint64_t leaves, fr_t **out_leaves)
{
    return random_tree_of(s, leaves, out_leaves, 0);
}

static fil_merkle_path_t *path_of(const fil_merkle_tree_t *t, uint64_t leaf)
{
    fil_merkle_path_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(fil_merkle_tree_path(p, t, leaf, NULL), CUZK_OK);
    return p;
}

static fil_merkle_path_t *blank_path(const fil_tree_shape_t *s, uint64_t leaves)
{
    fil_merkle_path_t *p = malloc(sizeof *p);
    assert_non_null(p);
    assert_int_equal(fil_merkle_path_blank(p, s, leaves, NULL), CUZK_OK);
    return p;
}

/* PoRCircuit::new(proof, private) synthesized: leaf and root Root::Val. */
static cs_t *por_run(cs_mode mode, const fil_tree_shape_t *s, const fil_merkle_path_t *p,
                     fil_por_root_mode rm, cs_num_t *computed)
{
    cs_t *cs = csf_new(mode);
    fil_root_t leaf = fil_root_val(&p->leaf), root = fil_root_val(&p->root);
    fil_cs_por(computed, cs, s, p, &leaf, &root, rm);
    return cs;
}

/* ---- native trees --------------------------------------------------------- */

static void node(fr_t *out, fil_hasher h, const fr_t *children, unsigned arity)
{
    cuzk_error_t err = {0};
    if (fil_merkle_node(out, h, children, arity, &err) != CUZK_OK)
        fail_msg("node: %s", err.msg);
}

/* Roots by hand: Poseidon through poseidon_hash directly, SHA-256 through
 * fil_sha256_node / fil_sha256_hash of the LE bytes. */
static void test_native_roots(void **state)
{
    (void)state;
    fr_t l[16], root, want;
    uint8_t b[16][32];
    for (int i = 0; i < 16; i++) {
        tu_rand_fr(&l[i]);
        fr_to_le(b[i], &l[i]);
    }
    /* Poseidon 2-2-0 over 8 leaves: H2(H2(H2(l0,l1), H2(l2,l3)), H2(...)) */
    const poseidon_constants_t *c2, *c4, *c8;
    assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
    assert_int_equal(poseidon_constants_get(&c4, 4, NULL), CUZK_OK);
    assert_int_equal(poseidon_constants_get(&c8, 8, NULL), CUZK_OK);
    fr_t h[8];
    for (int i = 0; i < 4; i++)
        assert_int_equal(poseidon_hash(&h[i], c2, &l[2 * i], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&h[4], c2, &h[0], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&h[5], c2, &h[2], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&want, c2, &h[4], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    fil_tree_shape_t s = shape_of(FIL_HASHER_POSEIDON, 2, 2, 0);
    fil_merkle_tree_t *t = NULL;
    assert_int_equal(fil_merkle_tree_build(&t, &s, l, 8, NULL), CUZK_OK);
    fil_merkle_tree_root(&root, t);
    assert_true(fr_equal(&root, &want));
    fil_merkle_tree_free(t);

    /* Poseidon 4-2-2 over 16 leaves: 4 base trees of 4 leaves, 2 sub trees
     * of 2 base trees, one top node of 2 */
    for (int i = 0; i < 4; i++)
        assert_int_equal(poseidon_hash(&h[i], c4, &l[4 * i], 4, POSEIDON_PLAIN, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&h[4], c2, &h[0], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&h[5], c2, &h[2], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&want, c2, &h[4], 2, POSEIDON_PLAIN, NULL), CUZK_OK);
    s = shape_of(FIL_HASHER_POSEIDON, 4, 2, 2);
    assert_int_equal(fil_merkle_tree_build(&t, &s, l, 16, NULL), CUZK_OK);
    fil_merkle_tree_root(&root, t);
    assert_true(fr_equal(&root, &want));
    fil_merkle_tree_free(t);

    /* Poseidon 8 over 8 leaves: one hash */
    assert_int_equal(poseidon_hash(&want, c8, l, 8, POSEIDON_PLAIN, NULL), CUZK_OK);
    node(&root, FIL_HASHER_POSEIDON, l, 8);
    assert_true(fr_equal(&root, &want));
    s = shape_of(FIL_HASHER_POSEIDON, 8, 0, 0);
    assert_int_equal(fil_merkle_tree_build(&t, &s, l, 8, NULL), CUZK_OK);
    fil_merkle_tree_root(&root, t);
    assert_true(fr_equal(&root, &want));
    fil_merkle_tree_free(t);

    /* SHA-256 binary over 4 leaves: node(node(l0,l1), node(l2,l3)) */
    uint8_t n0[32], n1[32], r[32];
    assert_int_equal(fil_sha256_node(n0, b[0], b[1], NULL), CUZK_OK);
    assert_int_equal(fil_sha256_node(n1, b[2], b[3], NULL), CUZK_OK);
    assert_int_equal(fil_sha256_node(r, n0, n1, NULL), CUZK_OK);
    assert_int_equal(fr_from_le(&want, r), CUZK_OK);
    s = shape_of(FIL_HASHER_SHA256, 2, 0, 0);
    assert_int_equal(fil_merkle_tree_build(&t, &s, l, 4, NULL), CUZK_OK);
    fil_merkle_tree_root(&root, t);
    assert_true(fr_equal(&root, &want));
    fil_merkle_tree_free(t);

    /* SHA-256 arity 4: one hash of the 128 bytes */
    assert_int_equal(fil_sha256_hash(r, b[0], 128, NULL), CUZK_OK);
    assert_int_equal(fr_from_le(&want, r), CUZK_OK);
    s = shape_of(FIL_HASHER_SHA256, 4, 0, 0);
    assert_int_equal(fil_merkle_tree_build(&t, &s, l, 4, NULL), CUZK_OK);
    fil_merkle_tree_root(&root, t);
    assert_true(fr_equal(&root, &want));
    fil_merkle_tree_free(t);
}

/* Every leaf's path leads to the root and spells the leaf's number; the
 * level arities are the shape's. */
static void test_native_paths(void **state)
{
    (void)state;
    static const unsigned shapes[][4] = {
        {FIL_HASHER_POSEIDON, 8, 0, 0}, {FIL_HASHER_POSEIDON, 8, 4, 0},
        {FIL_HASHER_POSEIDON, 8, 4, 2}, {FIL_HASHER_POSEIDON, 8, 8, 2},
        {FIL_HASHER_POSEIDON, 2, 4, 8}, {FIL_HASHER_SHA256, 2, 0, 0},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        fil_tree_shape_t s =
            shape_of((fil_hasher)shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]);
        uint64_t leaves = base_tree_count(&s) * s.base_arity * s.base_arity;
        unsigned base_levels, levels;
        assert_int_equal(fil_tree_shape_levels(&base_levels, &levels, &s, leaves, NULL), CUZK_OK);
        assert_int_equal(base_levels, 2);
        assert_int_equal(levels, 2 + (s.sub_arity != 0) + (s.top_arity != 0));
        fr_t *l;
        fil_merkle_tree_t *t = random_tree(&s, leaves, &l);
        assert_int_equal(fil_merkle_tree_leaves(t), leaves);
        fr_t root;
        fil_merkle_tree_root(&root, t);
        for (uint64_t j = 0; j < leaves; j++) {
            fil_merkle_path_t *p = path_of(t, j);
            assert_int_equal(p->n_levels, levels);
            assert_true(fr_equal(&p->leaf, &l[j]));
            assert_true(fr_equal(&p->root, &root));
            assert_int_equal(fil_merkle_path_leaf_index(p), j);
            for (unsigned m = 0; m < levels; m++)
                assert_int_equal(p->level[m].arity, fil_tree_shape_level_arity(&s, base_levels, m));
            fr_t got;
            assert_int_equal(fil_merkle_path_compute_root(&got, s.hasher, p, NULL), CUZK_OK);
            assert_true(fr_equal(&got, &root));
            /* a wrong sibling leads elsewhere */
            fr_add(&p->level[levels - 1].siblings[0], &p->level[levels - 1].siblings[0], &FR_ONE);
            assert_int_equal(fil_merkle_path_compute_root(&got, s.hasher, p, NULL), CUZK_OK);
            assert_false(fr_equal(&got, &root));
            free(p);
        }
        fil_merkle_path_t p;
        assert_int_equal(fil_merkle_tree_path(&p, t, leaves, NULL), CUZK_ERR_ARG);
        fil_merkle_tree_free(t);
        free(l);
    }
    /* shapes and sizes that do not fit */
    fil_tree_shape_t bad[] = {
        shape_of(FIL_HASHER_POSEIDON, 8, 0, 2),  shape_of(FIL_HASHER_POSEIDON, 3, 0, 0),
        shape_of(FIL_HASHER_POSEIDON, 16, 0, 0), shape_of(FIL_HASHER_POSEIDON, 8, 1, 0),
        shape_of((fil_hasher)7, 8, 0, 0),
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        assert_int_equal(fil_tree_shape_levels(NULL, NULL, &bad[k], 64, NULL), CUZK_ERR_ARG);
    fil_tree_shape_t s = shape_of(FIL_HASHER_POSEIDON, 8, 2, 0);
    assert_int_equal(fil_tree_shape_levels(NULL, NULL, &s, 64, NULL), CUZK_ERR_ARG); /* 32 */
    assert_int_equal(fil_tree_shape_levels(NULL, NULL, &s, 2, NULL), CUZK_ERR_ARG);  /* 1 */
    assert_int_equal(fil_tree_shape_levels(NULL, NULL, &s, 0, NULL), CUZK_ERR_ARG);
    assert_int_equal(fil_tree_shape_levels(NULL, NULL, &s, 128, NULL), CUZK_OK);
    /* 64 GiB's binary tree_d has 31 levels; 33 are more than a path holds */
    s = shape_of(FIL_HASHER_SHA256, 2, 0, 0);
    assert_int_equal(fil_tree_shape_levels(NULL, NULL, &s, 1ull << 32, NULL), CUZK_OK);
    assert_int_equal(fil_tree_shape_levels(NULL, NULL, &s, 1ull << 33, NULL), CUZK_ERR_ARG);
}

/* ---- costs ------------------------------------------------------------------ */

/* insert over 2^k elements: insert_2 2, insert_4 8, insert_8 22 picks. */
static uint64_t insert_cost(unsigned arity)
{
    return arity == 2 ? 2 : arity == 4 ? 8 : 22;
}

static unsigned log2u(unsigned a)
{
    unsigned n = 0;
    while (a > 1) {
        a >>= 1;
        n++;
    }
    return n;
}

/* hash_multi_leaf_circuit's constraints and aux: neptune's count for
 * Poseidon (c = a = 31 A + 29 + 4 R_P), a count run of the SHA gadget. */
static void hash_cost(uint64_t *c, uint64_t *a, fil_hasher h, unsigned arity)
{
    if (h == FIL_HASHER_POSEIDON) {
        const poseidon_constants_t *pc;
        assert_int_equal(poseidon_constants_get(&pc, arity, NULL), CUZK_OK);
        *c = *a = 31u * arity + 29u + 4u * pc->partial_rounds;
        assert_int_equal(*c, cs_poseidon_cost(pc));
        return;
    }
    cs_t *cs = csf_new(CS_COUNT);
    cs_num_t x[8];
    for (unsigned i = 0; i < arity; i++)
        x[i] = cs_num_alloc(cs, NULL);
    fil_cs_sha256_multi_leaf(cs, x, arity);
    csf_assert_ok(cs);
    cs_counts_t k = csf_counts(cs);
    *c = k.constraints;
    *a = k.aux - arity;
    cs_free(cs);
}

/* por.rs, per level: log2(a) AllocatedBits, a - 1 siblings, insert, hash. */
static void level_cost(uint64_t *c, uint64_t *a, fil_hasher h, unsigned arity)
{
    uint64_t hc, ha;
    hash_cost(&hc, &ha, h, arity);
    *c = log2u(arity) + insert_cost(arity) + hc;
    *a = log2u(arity) + (arity - 1) + insert_cost(arity) + ha;
}

/* The whole PoRCircuit with Val leaf and root: the leaf (1 aux), the
 * levels, pack_into_inputs (an input and a constraint per 254 bits), the
 * root (1 aux), equal (1 c), inputize when public (1 input, 1 c). */
static void por_formula(cs_counts_t *out, const fil_tree_shape_t *s, uint64_t leaves,
                        fil_por_root_mode rm)
{
    unsigned base_levels, levels;
    assert_int_equal(fil_tree_shape_levels(&base_levels, &levels, s, leaves, NULL), CUZK_OK);
    uint64_t c = 0, a = 0, bits = 0;
    for (unsigned l = 0; l < levels; l++) {
        unsigned ar = fil_tree_shape_level_arity(s, base_levels, l);
        uint64_t lc, la;
        level_cost(&lc, &la, s->hasher, ar);
        c += lc;
        a += la;
        bits += log2u(ar);
    }
    uint64_t packed = (bits + 253) / 254, pub = rm == FIL_POR_PUBLIC_ROOT;
    memset(out, 0, sizeof *out);
    out->constraints = c + packed + 1 + pub;
    out->aux = 1 + a + 1;
    out->inputs = 1 + packed + pub;
}

/* NOTES.md §2: per level arity 8 530 / 537, 4 387 / 390, 2 314 / 315,
 * SHA-256 binary 45,382 / 45,335, and + 2 constraints (+ 2 aux: leaf and
 * root) at the end; checked on one- and two-level trees. */
static void test_level_costs(void **state)
{
    (void)state;
    static const struct {
        fil_hasher h;
        unsigned arity;
        uint64_t c, a;
    } want[] = {
        {FIL_HASHER_POSEIDON, 8, 530, 537},
        {FIL_HASHER_POSEIDON, 4, 387, 390},
        {FIL_HASHER_POSEIDON, 2, 314, 315},
        {FIL_HASHER_SHA256, 2, 45382, 45335},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        uint64_t c, a;
        level_cost(&c, &a, want[k].h, want[k].arity);
        assert_int_equal(c, want[k].c);
        assert_int_equal(a, want[k].a);
        fil_tree_shape_t s = shape_of(want[k].h, want[k].arity, 0, 0);
        for (unsigned levels = 1; levels <= 2; levels++) {
            uint64_t leaves = levels == 1 ? want[k].arity : want[k].arity * want[k].arity;
            fil_merkle_path_t *p = blank_path(&s, leaves);
            cs_t *cs = por_run(CS_COUNT, &s, p, FIL_POR_PRIVATE_ROOT, NULL);
            csf_assert_ok(cs);
            cs_counts_t got = csf_counts(cs);
            assert_int_equal(got.constraints, levels * want[k].c + 2);
            assert_int_equal(got.aux, levels * want[k].a + 2);
            assert_int_equal(got.inputs, 2);
            cs_free(cs);
            free(p);
        }
        printf("por level %s arity %u: %llu constraints, %llu aux\n", hasher_name(want[k].h),
               want[k].arity, (unsigned long long)c, (unsigned long long)a);
    }
}

/* ---- rust-fil-proofs' PoR test circuits ------------------------------------ */

/* Runs the circuit over a real tree for `n_challenges` leaves (the first,
 * the last, then random): every constraint holds, input 1 is the
 * challenge, input 2 the root when public; the sizes equal the blank
 * circuit's and `want` (0: not checked). Returns the counts. */
static cs_counts_t por_real(const fil_tree_shape_t *s, uint64_t leaves, fil_por_root_mode rm,
                            uint64_t want, int n_challenges)
{
    fil_merkle_path_t *bp = blank_path(s, leaves);
    cs_t *cs = por_run(CS_COUNT, s, bp, rm, NULL);
    csf_assert_ok(cs);
    cs_counts_t blank = csf_counts(cs);
    cs_free(cs);
    free(bp);
    if (want)
        assert_int_equal(blank.constraints, want);
    cs_counts_t f;
    por_formula(&f, s, leaves, rm);
    assert_int_equal(blank.constraints, f.constraints);
    assert_int_equal(blank.aux, f.aux);
    assert_int_equal(blank.inputs, f.inputs);

    fil_merkle_tree_t *t = random_tree(s, leaves, NULL);
    fr_t root;
    fil_merkle_tree_root(&root, t);
    for (int i = 0; i < n_challenges; i++) {
        uint64_t j = i == 0 ? 0 : i == 1 ? leaves - 1 : tu_rand64() % leaves;
        fil_merkle_path_t *p = path_of(t, j);
        cs_num_t computed;
        cs = por_run(CS_CHECK, s, p, rm, &computed);
        cuzk_error_t err;
        if (cs_status(cs, &err) != CUZK_OK)
            fail_msg("%s %u-%u-%u leaf %llu: %s", hasher_name(s->hasher), s->base_arity,
                     s->sub_arity, s->top_arity, (unsigned long long)j, err.msg);
        cs_counts_t got = csf_counts(cs);
        assert_counts_equal(&got, &blank);
        assert_true(fr_equal(&computed.value, &root));
        size_t n_in;
        const fr_t *in = cs_input_values(cs, &n_in);
        assert_int_equal(n_in, blank.inputs);
        fr_t cj;
        fr_from_u64(&cj, j);
        assert_true(fr_is_one(&in[0]));
        assert_true(fr_equal(&in[1], &cj));
        if (rm == FIL_POR_PUBLIC_ROOT)
            assert_true(fr_equal(&in[2], &root));
        cs_free(cs);
        free(p);
    }
    fil_merkle_tree_free(t);
    return blank;
}

/* RFP:storage-proofs-core/tests/por_circuit.rs: leaves = 64 *
 * get_base_tree_count, PoRCircuit::new(proof, private): 3 inputs (ONE,
 * the challenge, the root) with a public root, 2 with a private one. */
static void test_rfp_por_circuit(void **state)
{
    (void)state;
    static const struct {
        const char *rust_test;
        unsigned h, b, s, t;
        fil_por_root_mode rm;
        uint64_t constraints;
        int challenges;
    } cases[] = {
        {"poseidon_base_2", FIL_HASHER_POSEIDON, 2, 0, 0, FIL_POR_PUBLIC_ROOT, 1887, 4},
        {"poseidon_base_4", FIL_HASHER_POSEIDON, 4, 0, 0, FIL_POR_PUBLIC_ROOT, 1164, 4},
        {"poseidon_base_8", FIL_HASHER_POSEIDON, 8, 0, 0, FIL_POR_PUBLIC_ROOT, 1063, 4},
        {"poseidon_sub_8_2", FIL_HASHER_POSEIDON, 8, 2, 0, FIL_POR_PUBLIC_ROOT, 1377, 4},
        {"poseidon_top_8_4_2", FIL_HASHER_POSEIDON, 8, 4, 2, FIL_POR_PUBLIC_ROOT, 1764, 4},
        {"poseidon_sub_8_8", FIL_HASHER_POSEIDON, 8, 8, 0, FIL_POR_PUBLIC_ROOT, 1593, 4},
        {"poseidon_top_8_8_2", FIL_HASHER_POSEIDON, 8, 8, 2, FIL_POR_PUBLIC_ROOT, 1907, 4},
        {"poseidon_top_8_2_4", FIL_HASHER_POSEIDON, 8, 2, 4, FIL_POR_PUBLIC_ROOT, 1764, 4},
        {"poseidon_base_2_private_root", FIL_HASHER_POSEIDON, 2, 0, 0, FIL_POR_PRIVATE_ROOT, 1886,
         4},
        {"poseidon_base_4_private_root", FIL_HASHER_POSEIDON, 4, 0, 0, FIL_POR_PRIVATE_ROOT, 1163,
         4},
        {"poseidon_base_8_private_root", FIL_HASHER_POSEIDON, 8, 0, 0, FIL_POR_PRIVATE_ROOT, 1062,
         4},
        {"sha256_base_2", FIL_HASHER_SHA256, 2, 0, 0, FIL_POR_PUBLIC_ROOT, 272295, 2},
        {"sha256_base_4", FIL_HASHER_SHA256, 4, 0, 0, FIL_POR_PUBLIC_ROOT, 216258, 2},
        {"sha256_base_8", FIL_HASHER_SHA256, 8, 0, 0, FIL_POR_PUBLIC_ROOT, 250987, 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fil_tree_shape_t s = shape_of((fil_hasher)cases[k].h, cases[k].b, cases[k].s, cases[k].t);
        uint64_t leaves = 64 * base_tree_count(&s);
        cs_counts_t got =
            por_real(&s, leaves, cases[k].rm, cases[k].constraints, tu_iters(cases[k].challenges));
        assert_int_equal(got.inputs, cases[k].rm == FIL_POR_PUBLIC_ROOT ? 3 : 2);
        printf("test_por_circuit_%s: %llu constraints (published %llu), %llu aux, %llu "
               "inputs\n",
               cases[k].rust_test, (unsigned long long)got.constraints,
               (unsigned long long)cases[k].constraints, (unsigned long long)got.aux,
               (unsigned long long)got.inputs);
    }
}

/* Shapes of the production trees on small real trees, and their sizes at
 * full scale (count back end, blank path) against the formula. */
static void test_shapes(void **state)
{
    (void)state;
    static const struct {
        unsigned h, b, s, t;
        uint64_t leaves;
    } small[] = {
        {FIL_HASHER_POSEIDON, 8, 0, 0, 64},   {FIL_HASHER_POSEIDON, 8, 4, 0, 256},
        {FIL_HASHER_POSEIDON, 8, 4, 2, 512},  {FIL_HASHER_POSEIDON, 8, 8, 0, 512},
        {FIL_HASHER_POSEIDON, 8, 8, 2, 1024}, {FIL_HASHER_POSEIDON, 8, 8, 2, 128},
        {FIL_HASHER_SHA256, 2, 0, 0, 8},
    };
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
        fil_tree_shape_t s = shape_of((fil_hasher)small[k].h, small[k].b, small[k].s, small[k].t);
        for (int rm = 0; rm < 2; rm++) {
            cs_counts_t got = por_real(&s, small[k].leaves, (fil_por_root_mode)rm, 0, tu_iters(3));
            printf("por %s %u-%u-%u, %llu leaves, %s root: %llu constraints, %llu aux\n",
                   hasher_name(s.hasher), s.base_arity, s.sub_arity, s.top_arity,
                   (unsigned long long)small[k].leaves, rm ? "public" : "private",
                   (unsigned long long)got.constraints, (unsigned long long)got.aux);
        }
    }
    /* production trees: 32 GiB tree_r 8-8-0 (2^30 leaves; NOTES.md: 5,302
     * per column proof), 64 GiB 8-8-2, 32 GiB comm_d binary SHA-256 */
    static const struct {
        unsigned h, b, s, t;
        uint64_t leaves, constraints;
    } big[] = {
        {FIL_HASHER_POSEIDON, 8, 8, 0, 1ull << 30, 9 * 530 + 530 + 2},
        {FIL_HASHER_POSEIDON, 8, 8, 2, 1ull << 31, 9 * 530 + 530 + 314 + 2},
        {FIL_HASHER_POSEIDON, 8, 0, 0, 1ull << 24, 8 * 530 + 2},
        {FIL_HASHER_SHA256, 2, 0, 0, 1ull << 30, 30 * 45382 + 2},
    };
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
        fil_tree_shape_t s = shape_of((fil_hasher)big[k].h, big[k].b, big[k].s, big[k].t);
        fil_merkle_path_t *p = blank_path(&s, big[k].leaves);
        cs_t *cs = por_run(CS_COUNT, &s, p, FIL_POR_PRIVATE_ROOT, NULL);
        csf_assert_ok(cs);
        cs_counts_t got = csf_counts(cs), f;
        por_formula(&f, &s, big[k].leaves, FIL_POR_PRIVATE_ROOT);
        assert_int_equal(got.constraints, big[k].constraints);
        assert_int_equal(got.constraints, f.constraints);
        assert_int_equal(got.aux, f.aux);
        assert_int_equal(got.inputs, 2);
        printf("por %s %u-%u-%u, 2^%u leaves, private root: %llu constraints, %llu aux\n",
               hasher_name(s.hasher), s.base_arity, s.sub_arity, s.top_arity,
               (unsigned)__builtin_ctzll(big[k].leaves), (unsigned long long)got.constraints,
               (unsigned long long)got.aux);
        cs_free(cs);
        free(p);
    }
}

/* Root::Var for the leaf (PoRep's column proofs) or the root (PoSt's
 * comm_r_last): one aux fewer each, the same constraints. */
static void test_root_var(void **state)
{
    (void)state;
    fil_tree_shape_t s = shape_of(FIL_HASHER_POSEIDON, 8, 2, 0);
    fil_merkle_tree_t *t = random_tree(&s, 128, NULL);
    fil_merkle_path_t *p = path_of(t, tu_rand64() % 128);
    cs_counts_t f;
    por_formula(&f, &s, 128, FIL_POR_PRIVATE_ROOT);
    for (int var_leaf = 0; var_leaf < 2; var_leaf++)
        for (int var_root = 0; var_root < 2; var_root++) {
            cs_t *cs = csf_new(CS_CHECK);
            cs_num_t ln = cs_num_alloc(cs, &p->leaf), rn = cs_num_alloc(cs, &p->root);
            fil_root_t leaf = var_leaf ? fil_root_var(&ln) : fil_root_val(&p->leaf);
            fil_root_t root = var_root ? fil_root_var(&rn) : fil_root_val(&p->root);
            fil_cs_por(NULL, cs, &s, p, &leaf, &root, FIL_POR_PRIVATE_ROOT);
            csf_assert_ok(cs);
            cs_counts_t got = csf_counts(cs);
            assert_int_equal(got.constraints, f.constraints);
            assert_int_equal(got.aux, f.aux + 2 - (uint64_t)var_leaf - (uint64_t)var_root);
            cs_free(cs);
        }
    free(p);
    fil_merkle_tree_free(t);
}

/* ---- wrong witnesses ---------------------------------------------------------- */

/* Runs the check back end on a path and returns the first failing row
 * (UINT64_MAX when none). */
static uint64_t failing_row(const fil_tree_shape_t *s, const fil_merkle_path_t *p,
                            fil_por_root_mode rm, uint64_t *n_constraints)
{
    cs_t *cs = por_run(CS_CHECK, s, p, rm, NULL);
    uint64_t row = UINT64_MAX;
    char path[256];
    if (cs_unsatisfied(&row, path, sizeof path, cs))
        assert_int_equal(cs_status(cs, NULL), CUZK_ERR_ARG);
    else
        csf_assert_ok(cs);
    *n_constraints = csf_counts(cs).constraints;
    cs_free(cs);
    return row;
}

/* A wrong sibling (at every level), a wrong index or a wrong leaf: every
 * gadget constraint holds (each computes from what it is given), the root
 * differs, and the equality constraint is the first to fail. */
static void test_wrong_witness(void **state)
{
    (void)state;
    static const unsigned shapes[][4] = {{FIL_HASHER_POSEIDON, 8, 8, 2},
                                         {FIL_HASHER_POSEIDON, 8, 4, 0},
                                         {FIL_HASHER_POSEIDON, 2, 0, 0},
                                         {FIL_HASHER_SHA256, 2, 0, 0}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        fil_tree_shape_t s =
            shape_of((fil_hasher)shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]);
        uint64_t leaves = base_tree_count(&s) * s.base_arity * s.base_arity;
        fil_merkle_tree_t *t = random_tree_of(&s, leaves, NULL, 1); /* a moved index shows */
        uint64_t j = tu_rand64() % leaves, n;
        fil_merkle_path_t *p = path_of(t, j);
        for (int rm = 0; rm < 2; rm++) {
            /* the equality row: last, or before the root's inputize */
            uint64_t eq_back = rm == FIL_POR_PUBLIC_ROOT ? 2 : 1;
            assert_int_equal(failing_row(&s, p, (fil_por_root_mode)rm, &n), UINT64_MAX);
            for (unsigned l = 0; l < p->n_levels; l++) {
                unsigned si = (unsigned)(tu_rand64() % (p->level[l].arity - 1));
                fr_t keep = p->level[l].siblings[si];
                fr_add(&p->level[l].siblings[si], &keep, &FR_ONE);
                assert_int_equal(failing_row(&s, p, (fil_por_root_mode)rm, &n), n - eq_back);
                p->level[l].siblings[si] = keep;
                /* another index with the same siblings */
                unsigned ki = p->level[l].index;
                p->level[l].index = (ki + 1) % p->level[l].arity;
                assert_int_equal(failing_row(&s, p, (fil_por_root_mode)rm, &n), n - eq_back);
                p->level[l].index = ki;
            }
            fr_t keep = p->leaf;
            fr_add(&p->leaf, &keep, &FR_ONE);
            assert_int_equal(failing_row(&s, p, (fil_por_root_mode)rm, &n), n - eq_back);
            p->leaf = keep;
            assert_int_equal(failing_row(&s, p, (fil_por_root_mode)rm, &n), UINT64_MAX);
        }
        free(p);
        fil_merkle_tree_free(t);
    }
}

/* A non-boolean index bit (aux 1: the leaf is aux 0) is caught at its own
 * boolean constraint, row 0. */
static void test_fault_index_bit(void **state)
{
    (void)state;
    fil_tree_shape_t s = shape_of(FIL_HASHER_POSEIDON, 4, 0, 0);
    fil_merkle_tree_t *t = random_tree(&s, 16, NULL);
    fil_merkle_path_t *p = path_of(t, 5);
    cs_t *cs = csf_new(CS_CHECK);
    fr_t two;
    fr_from_u64(&two, 2);
    cs_set_fault(cs, 1, &two);
    fil_root_t leaf = fil_root_val(&p->leaf), root = fil_root_val(&p->root);
    fil_cs_por(NULL, cs, &s, p, &leaf, &root, FIL_POR_PRIVATE_ROOT);
    uint64_t row;
    char path[256];
    assert_int_equal(cs_unsatisfied(&row, path, sizeof path, cs), 1);
    assert_int_equal(row, 0);
    printf("index bit fault caught at row %llu (%s)\n", (unsigned long long)row, path);
    cs_free(cs);
    free(p);
    fil_merkle_tree_free(t);
}

/* ---- back ends ------------------------------------------------------------------ */

static void fr_from_var(fr_t *out, const fr_t *in, size_t n_in, const fr_t *aux, size_t n_aux,
                        cs_var_t v)
{
    uint32_t i = cs_var_index(v);
    if (cs_var_is_aux(v)) {
        assert_true(i < n_aux);
        *out = aux[i];
    } else {
        assert_true(i < n_in);
        *out = in[i];
    }
}

/* Count (blank path), witness, check and record give the same sizes and
 * densities; the recorded matrices, evaluated on the witness, hold row by
 * row. */
static void test_modes_agree(void **state)
{
    (void)state;
    static const unsigned shapes[][5] = {
        {FIL_HASHER_POSEIDON, 8, 8, 2, 128}, {FIL_HASHER_POSEIDON, 8, 4, 0, 32},
        {FIL_HASHER_POSEIDON, 2, 0, 0, 8},   {FIL_HASHER_SHA256, 2, 0, 0, 4},
        {FIL_HASHER_SHA256, 4, 0, 0, 4},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        fil_tree_shape_t s =
            shape_of((fil_hasher)shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]);
        uint64_t leaves = shapes[k][4];
        fil_merkle_tree_t *t = random_tree(&s, leaves, NULL);
        fil_merkle_path_t *p = path_of(t, tu_rand64() % leaves);
        fil_merkle_path_t *bp = blank_path(&s, leaves);
        for (int rm = 0; rm < 2; rm++) {
            cs_t *c0 = por_run(CS_COUNT, &s, bp, (fil_por_root_mode)rm, NULL);
            cs_t *w = por_run(CS_WITNESS, &s, p, (fil_por_root_mode)rm, NULL);
            cs_t *ch = por_run(CS_CHECK, &s, p, (fil_por_root_mode)rm, NULL);
            cs_t *rec = por_run(CS_RECORD, &s, bp, (fil_por_root_mode)rm, NULL);
            csf_assert_ok(c0);
            csf_assert_ok(w);
            csf_assert_ok(ch);
            csf_assert_ok(rec);
            cs_counts_t k0 = csf_counts(c0), kw = csf_counts(w), kc = csf_counts(ch),
                        kr = csf_counts(rec);
            assert_counts_equal(&k0, &kw);
            assert_counts_equal(&k0, &kc);
            assert_counts_equal(&k0, &kr);
            assert_true(k0.a_aux_density > 0 && k0.b_aux_density > 0);

            cs_record_matrix_t m[3];
            const fr_t *dict;
            uint32_t n_dict;
            assert_int_equal(cs_record_matrices(m, &dict, &n_dict, rec, NULL), CUZK_OK);
            size_t n_in, n_aux;
            const fr_t *in = cs_input_values(w, &n_in), *aux = cs_aux_values(w, &n_aux);
            assert_int_equal(n_in, k0.inputs);
            assert_int_equal(n_aux, k0.aux);
            for (uint64_t r = 0; r < k0.constraints; r++) {
                fr_t ev[3];
                for (int mi = 0; mi < 3; mi++) {
                    ev[mi] = FR_ZERO;
                    for (uint64_t e = m[mi].row_ptr[r]; e < m[mi].row_ptr[r + 1]; e++) {
                        fr_t x;
                        assert_true(m[mi].coef[e] < n_dict);
                        fr_from_var(&x, in, n_in, aux, n_aux, m[mi].var[e]);
                        fr_mul(&x, &x, &dict[m[mi].coef[e]]);
                        fr_add(&ev[mi], &ev[mi], &x);
                    }
                }
                fr_t ab;
                fr_mul(&ab, &ev[0], &ev[1]);
                if (!fr_equal(&ab, &ev[2]))
                    fail_msg("recorded row %llu does not hold", (unsigned long long)r);
            }
            printf("por %s %u-%u-%u %s root: %llu constraints, %llu aux, %llu inputs, A-aux "
                   "%llu, B-input %llu, B-aux %llu, nnz %llu/%llu/%llu\n",
                   hasher_name(s.hasher), s.base_arity, s.sub_arity, s.top_arity,
                   rm ? "public" : "private", (unsigned long long)k0.constraints,
                   (unsigned long long)k0.aux, (unsigned long long)k0.inputs,
                   (unsigned long long)k0.a_aux_density, (unsigned long long)k0.b_input_density,
                   (unsigned long long)k0.b_aux_density, (unsigned long long)m[0].nnz,
                   (unsigned long long)m[1].nnz, (unsigned long long)m[2].nnz);
            cs_free(c0);
            cs_free(w);
            cs_free(ch);
            cs_free(rec);
        }
        free(bp);
        free(p);
        fil_merkle_tree_free(t);
    }
}

/* ---- fingerprint ------------------------------------------------------------ */

static void blake_update(void *ctx, const uint8_t *data, size_t n)
{
    EVP_DigestUpdate(ctx, data, n);
}

/* TestConstraintSystem::hash() of one run (cs.h cs_hash_begin), as hex. */
static void fingerprint(char hex[65], cs_mode mode, const fil_tree_shape_t *s,
                        const fil_merkle_path_t *p, fil_por_root_mode rm, const cs_counts_t *want)
{
    cs_t *cs = csf_new(mode);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    assert_non_null(ctx);
    assert_int_equal(EVP_DigestInit_ex(ctx, EVP_blake2s256(), NULL), 1);
    assert_int_equal(cs_hash_begin(cs, want, blake_update, ctx, NULL), CUZK_OK);
    fil_root_t leaf = fil_root_val(&p->leaf), root = fil_root_val(&p->root);
    fil_cs_por(NULL, cs, s, p, &leaf, &root, rm);
    assert_int_equal(cs_hash_end(cs, NULL), CUZK_OK);
    uint8_t d[32];
    unsigned dn = 0;
    assert_int_equal(EVP_DigestFinal_ex(ctx, d, &dn), 1);
    assert_int_equal(dn, 32);
    for (int i = 0; i < 32; i++)
        snprintf(&hex[2 * i], 3, "%02x", d[i]);
    EVP_MD_CTX_free(ctx);
    cs_free(cs);
}

/* The R1CS does not depend on the witness: the blank circuit and real
 * paths to different leaves give one fingerprint (printed for a Rust run of
 * por_circuit.rs to compare; no published value). */
static void test_fingerprint(void **state)
{
    (void)state;
    static const unsigned shapes[][5] = {
        {FIL_HASHER_POSEIDON, 8, 8, 0, 512},
        {FIL_HASHER_POSEIDON, 8, 8, 2, 1024},
        {FIL_HASHER_POSEIDON, 2, 0, 0, 64},
        {FIL_HASHER_SHA256, 2, 0, 0, 8},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        fil_tree_shape_t s =
            shape_of((fil_hasher)shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]);
        uint64_t leaves = shapes[k][4];
        fil_merkle_tree_t *t = random_tree(&s, leaves, NULL);
        fil_merkle_path_t *bp = blank_path(&s, leaves);
        for (int rm = 0; rm < 2; rm++) {
            cs_t *cs = por_run(CS_COUNT, &s, bp, (fil_por_root_mode)rm, NULL);
            cs_counts_t want = csf_counts(cs);
            cs_free(cs);
            char h0[65], h1[65];
            fingerprint(h0, CS_COUNT, &s, bp, (fil_por_root_mode)rm, &want);
            for (int i = 0; i < 2; i++) {
                fil_merkle_path_t *p = path_of(t, i ? leaves - 1 : tu_rand64() % leaves);
                fingerprint(h1, CS_CHECK, &s, p, (fil_por_root_mode)rm, &want);
                assert_string_equal(h0, h1);
                free(p);
            }
            printf("por %s %u-%u-%u, %llu leaves, %s root: cs hash %s\n", hasher_name(s.hasher),
                   s.base_arity, s.sub_arity, s.top_arity, (unsigned long long)leaves,
                   rm ? "public" : "private", h0);
        }
        free(bp);
        fil_merkle_tree_free(t);
    }
}

/* ---- por_no_challenge_input ------------------------------------------------------ */

/* RFP:storage-proofs-core/tests/por_circuit.rs test_por_no_challenge_input:
 * one root allocated, then per challenge the leaf, the challenge bits and
 * the siblings allocated, then the gadget; all satisfied, no input. The
 * gadget's own cost: per level insert + hash, + 1. A wrong sibling fails
 * at the equality. */
static void test_no_challenge_input(void **state)
{
    (void)state;
    static const unsigned shapes[][4] = {
        {8, 0, 0, 1u << 6}, {8, 8, 0, 1u << 6},  {8, 4, 0, 1u << 8},
        {8, 4, 2, 1u << 9}, {8, 8, 2, 1u << 10},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        fil_tree_shape_t s =
            shape_of(FIL_HASHER_POSEIDON, shapes[k][0], shapes[k][1], shapes[k][2]);
        uint64_t leaves = shapes[k][3];
        unsigned base_levels, levels;
        assert_int_equal(fil_tree_shape_levels(&base_levels, &levels, &s, leaves, NULL), CUZK_OK);
        uint64_t gadget_c = 1;
        size_t n_bits = 0;
        for (unsigned l = 0; l < levels; l++) {
            unsigned a = fil_tree_shape_level_arity(&s, base_levels, l);
            uint64_t hc, ha;
            hash_cost(&hc, &ha, s.hasher, a);
            gadget_c += insert_cost(a) + hc;
            n_bits += log2u(a);
        }
        assert_int_equal((uint64_t)1 << n_bits, leaves);
        fil_merkle_tree_t *t = random_tree(&s, leaves, NULL);
        fr_t rv;
        fil_merkle_tree_root(&rv, t);
        cs_t *cs = csf_new(CS_CHECK);
        cs_num_t root = cs_num_alloc(cs, &rv);
        int iters = tu_iters(20);
        for (int c_index = 0; c_index < iters; c_index++) {
            uint64_t c = tu_rand64() % leaves;
            fil_merkle_path_t *p = path_of(t, c);
            cs_num_t leaf = cs_num_alloc(cs, &p->leaf);
            cs_bool_t bits[64];
            for (size_t i = 0; i < n_bits; i++)
                bits[i] = cs_bit_alloc(cs, (int)((c >> i) & 1));
            cs_num_t sib[64 * 7];
            size_t ns = 0;
            for (unsigned l = 0; l < levels; l++)
                for (unsigned i = 0; i + 1 < p->level[l].arity; i++)
                    sib[ns++] = cs_num_alloc(cs, &p->level[l].siblings[i]);
            uint64_t before = csf_counts(cs).constraints;
            fil_cs_por_no_challenge_input(cs, &s, bits, n_bits, &leaf, sib, levels, &root);
            assert_int_equal(csf_counts(cs).constraints - before, gadget_c);
            free(p);
        }
        csf_assert_ok(cs);
        assert_int_equal(csf_counts(cs).inputs, 1);
        cs_free(cs);

        /* a wrong sibling: caught at the gadget's last row */
        cs = csf_new(CS_CHECK);
        root = cs_num_alloc(cs, &rv);
        uint64_t c = tu_rand64() % leaves;
        fil_merkle_path_t *p = path_of(t, c);
        cs_num_t leaf = cs_num_alloc(cs, &p->leaf);
        cs_bool_t bits[64];
        for (size_t i = 0; i < n_bits; i++)
            bits[i] = cs_bit_alloc(cs, (int)((c >> i) & 1));
        cs_num_t sib[64 * 7];
        size_t ns = 0;
        for (unsigned l = 0; l < levels; l++)
            for (unsigned i = 0; i + 1 < p->level[l].arity; i++) {
                fr_t v = p->level[l].siblings[i];
                if (l == levels - 1 && i == 0)
                    fr_add(&v, &v, &FR_ONE);
                sib[ns++] = cs_num_alloc(cs, &v);
            }
        fil_cs_por_no_challenge_input(cs, &s, bits, n_bits, &leaf, sib, levels, &root);
        uint64_t row;
        assert_int_equal(cs_unsatisfied(&row, NULL, 0, cs), 1);
        assert_int_equal(row, csf_counts(cs).constraints - 1);
        cs_free(cs);
        free(p);
        fil_merkle_tree_free(t);
        printf("por_no_challenge_input 8-%u-%u, %llu leaves: %llu constraints per challenge "
               "(gadget)\n",
               s.sub_arity, s.top_arity, (unsigned long long)leaves, (unsigned long long)gadget_c);
    }
}

/* ---- contract errors ------------------------------------------------------------- */

static void expect_arg_error(cs_t *cs)
{
    assert_int_equal(cs_status(cs, NULL), CUZK_ERR_ARG);
    cs_free(cs);
}

static void test_args(void **state)
{
    (void)state;
    fil_tree_shape_t s = shape_of(FIL_HASHER_POSEIDON, 8, 8, 0);
    fil_merkle_path_t *p = blank_path(&s, 512);
    fr_t z = FR_ZERO;
    fil_root_t leaf = fil_root_val(&z), root = fil_root_val(&z);

    /* a path of another shape */
    fil_tree_shape_t other = shape_of(FIL_HASHER_POSEIDON, 8, 4, 0);
    cs_t *cs = csf_new(CS_COUNT);
    fil_cs_por(NULL, cs, &other, p, &leaf, &root, FIL_POR_PRIVATE_ROOT);
    expect_arg_error(cs);
    /* top without sub */
    other = shape_of(FIL_HASHER_POSEIDON, 8, 0, 8);
    cs = csf_new(CS_COUNT);
    fil_cs_por(NULL, cs, &other, p, &leaf, &root, FIL_POR_PRIVATE_ROOT);
    expect_arg_error(cs);
    /* an index out of range */
    p->level[0].index = 8;
    cs = csf_new(CS_COUNT);
    fil_cs_por(NULL, cs, &s, p, &leaf, &root, FIL_POR_PRIVATE_ROOT);
    expect_arg_error(cs);
    p->level[0].index = 0;
    /* an unknown mode */
    cs = csf_new(CS_COUNT);
    fil_cs_por(NULL, cs, &s, p, &leaf, &root, (fil_por_root_mode)5);
    expect_arg_error(cs);
    /* a hash of an arity neptune's Filecoin trees do not use */
    cs = csf_new(CS_COUNT);
    cs_num_t x[8] = {{0}};
    fil_cs_merkle_hash(cs, FIL_HASHER_POSEIDON, x, 3);
    expect_arg_error(cs);

    /* por_no_challenge_input: bits that do not fit, a constant bit */
    cs = csf_new(CS_COUNT);
    cs_bool_t bits[6];
    for (int i = 0; i < 6; i++)
        bits[i] = cs_bit_alloc(cs, 0);
    cs_num_t sib[14], n = cs_num_alloc(cs, NULL);
    for (int i = 0; i < 14; i++)
        sib[i] = cs_num_alloc(cs, NULL);
    fil_cs_por_no_challenge_input(cs, &s, bits, 5, &n, sib, 2, &n);
    expect_arg_error(cs);
    cs = csf_new(CS_COUNT);
    for (int i = 0; i < 6; i++)
        bits[i] = cs_bit_alloc(cs, 0);
    bits[4] = cs_bool_const(1);
    fil_cs_por_no_challenge_input(cs, &s, bits, 6, &n, sib, 2, &n);
    expect_arg_error(cs);
    cs = csf_new(CS_COUNT);
    for (int i = 0; i < 6; i++)
        bits[i] = cs_bit_alloc(cs, 0);
    n = cs_num_alloc(cs, NULL);
    for (int i = 0; i < 14; i++)
        sib[i] = cs_num_alloc(cs, NULL);
    fil_cs_por_no_challenge_input(cs, &s, bits, 6, &n, sib, 2, &n);
    csf_assert_ok(cs);
    cs_free(cs);
    free(p);
}

int main(void)
{
    tu_init("test_filecoin_por");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native_roots),  cmocka_unit_test(test_native_paths),
        cmocka_unit_test(test_level_costs),   cmocka_unit_test(test_rfp_por_circuit),
        cmocka_unit_test(test_shapes),        cmocka_unit_test(test_root_var),
        cmocka_unit_test(test_wrong_witness), cmocka_unit_test(test_fault_index_bit),
        cmocka_unit_test(test_modes_agree),   cmocka_unit_test(test_no_challenge_input),
        cmocka_unit_test(test_fingerprint),   cmocka_unit_test(test_args),
    };
    return cmocka_run_group_tests_name("filecoin_por", tests, NULL, NULL);
}
