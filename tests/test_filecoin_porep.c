/* The StackedDrg PoRep circuit (include/cuzk/filecoin_porep.h) against
 * rust-fil-proofs' published sizes: its own 2-layer test circuits
 * (storage-proofs-porep/tests/stacked_circuit.rs) and the production
 * 32 GiB partition (reference.json: constraints, aux, inputs and the A and
 * B densities the real proving key was made for). */
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
#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

static cs_counts_t count(const fil_porep_shape_t *shape)
{
    cuzk_error_t err = {0};
    fil_porep_challenge_t *ch = calloc(shape->challenges, sizeof *ch);
    assert_non_null(ch);
    assert_int_equal(fil_porep_challenge_blank(&ch[0], shape, &err), CUZK_OK);
    for (unsigned i = 1; i < shape->challenges; i++)
        ch[i] = ch[0];
    fil_porep_public_t pub;
    memset(&pub, 0, sizeof pub);
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, CS_COUNT, NULL), CUZK_OK);
    fil_cs_porep(cs, shape, &pub, ch);
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("porep circuit: %s", err.msg);
    cs_counts_t k;
    cs_counts(&k, cs);
    cs_free(cs);
    free(ch);
    return k;
}

/* stacked_circuit.rs: 2 layers, 1 interactive challenge, 8 nodes per base
 * tree, 22 inputs (ONE included) and these constraint counts. */
static void test_rust_test_circuits(void **state)
{
    (void)state;
    static const struct {
        unsigned base, sub, top;
        uint64_t constraints;
    } cases[] = {
        {2, 0, 0, 1206212},
        {8, 0, 0, 1199620},
        {8, 4, 0, 1296576},
        {8, 4, 2, 1346982},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t trees = (cases[i].sub ? cases[i].sub : 1) * (cases[i].top ? cases[i].top : 1);
        fil_porep_shape_t shape = {
            8 * trees, {FIL_HASHER_POSEIDON, cases[i].base, cases[i].sub, cases[i].top}, 2, 1};
        cs_counts_t k = count(&shape);
        printf("test_filecoin_porep: %u-%u-%u: %llu constraints, %llu inputs\n", cases[i].base,
               cases[i].sub, cases[i].top, (unsigned long long)k.constraints,
               (unsigned long long)k.inputs);
        assert_int_equal(k.constraints, cases[i].constraints);
        assert_int_equal(k.inputs, 22);
    }
}

/* The production 32 GiB partition: 2^30 nodes, tree 8-8-0, 11 layers, 18
 * challenges (reference.json production_circuits "porep 32GiB"). */
static void test_porep_32g(void **state)
{
    (void)state;
    fil_porep_shape_t shape = {(uint64_t)1 << 30, {FIL_HASHER_POSEIDON, 8, 8, 0}, 11, 18};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cs_counts_t k = count(&shape);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("test_filecoin_porep: 32 GiB partition: %llu constraints, %llu aux, %llu inputs, "
           "A-aux %llu, B-input %llu, B-aux %llu (counted in %.2f s)\n",
           (unsigned long long)k.constraints, (unsigned long long)k.aux,
           (unsigned long long)k.inputs, (unsigned long long)k.a_aux_density,
           (unsigned long long)k.b_input_density, (unsigned long long)k.b_aux_density,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    assert_int_equal(k.constraints, 130278541);
    assert_int_equal(k.aux, 130169893);
    assert_int_equal(k.inputs, 328);
    assert_int_equal(k.a_aux_density, 129753292);
    assert_int_equal(k.b_input_density, 1);
    assert_int_equal(k.b_aux_density, 33112281);
}

/* ---- a real witness: a tiny SDR sealing, as rust-fil-proofs' test does ---- */

/* What the sealing keeps: every layer's labels (Fr), the data, the trees. */
typedef struct sealed {
    uint64_t nodes;
    unsigned layers;
    fr_t replica_id;
    fr_t *data;           /* nodes */
    fr_t *labels;         /* layers x nodes: labels[(l - 1) * nodes + i] */
    fil_merkle_tree_t *d; /* tree_d over the data (SHA-256) */
    fil_merkle_tree_t *c; /* tree_c over the column hashes */
    fil_merkle_tree_t *r; /* tree_r_last over the replica */
    fil_graph_t g;
} sealed_t;

static void label_bytes(uint8_t out[32], const fr_t *x)
{
    fr_to_le(out, x);
}

/* SDR (stacked/vanilla/create_label.rs): label(l, i) = create_label over
 * the 6 DRG parents in layer l and, from layer 2, the 8 expander parents
 * in layer l - 1, expanded to 37 as the circuit expands them. */
static void seal(sealed_t *S, const fil_tree_shape_t *tree, uint64_t nodes, unsigned layers)
{
    cuzk_error_t err = {0};
    memset(S, 0, sizeof *S);
    S->nodes = nodes;
    S->layers = layers;
    uint8_t porep_id[32];
    memset(porep_id, 44, sizeof porep_id); /* stacked_circuit.rs's arbitrary porep id */
    assert_int_equal(fil_graph_init(&S->g, nodes, porep_id, FIL_API_1_1, &err), CUZK_OK);
    tu_rand_fr(&S->replica_id);
    uint8_t rid[32];
    label_bytes(rid, &S->replica_id);
    S->data = malloc(nodes * sizeof *S->data);
    S->labels = malloc(layers * nodes * sizeof *S->labels);
    assert_true(S->data && S->labels);
    for (uint64_t i = 0; i < nodes; i++)
        tu_rand_fr(&S->data[i]);
    uint8_t(*lb)[32] = malloc(layers * nodes * 32);
    assert_non_null(lb);
    for (unsigned l = 1; l <= layers; l++)
        for (uint64_t i = 0; i < nodes; i++) {
            uint8_t out[32];
            if (i == 0) {
                assert_int_equal(fil_create_label(out, rid, l, 0, NULL, &err), CUZK_OK);
            } else {
                uint32_t p[FIL_DEGREE];
                assert_int_equal(fil_graph_parents(p, &S->g, i, &err), CUZK_OK);
                const uint8_t *par[FIL_DEGREE];
                unsigned n = FIL_DRG_DEGREE;
                for (unsigned k = 0; k < FIL_DRG_DEGREE; k++)
                    par[k] = lb[(l - 1) * nodes + p[k]];
                if (l > 1) {
                    for (unsigned k = 0; k < FIL_EXP_DEGREE; k++)
                        par[FIL_DRG_DEGREE + k] = lb[(l - 2) * nodes + p[FIL_DRG_DEGREE + k]];
                    n = FIL_DEGREE;
                }
                const uint8_t *expanded[FIL_LABEL_PARENTS];
                for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
                    expanded[k] = par[k % n];
                assert_int_equal(fil_create_label(out, rid, l, i, expanded, &err), CUZK_OK);
            }
            memcpy(lb[(l - 1) * nodes + i], out, 32);
            assert_int_equal(fr_from_le(&S->labels[(l - 1) * nodes + i], out), CUZK_OK);
        }
    free(lb);
    const poseidon_constants_t *pc = NULL;
    assert_int_equal(poseidon_constants_get(&pc, layers, NULL), CUZK_OK);
    fr_t *col = malloc(nodes * sizeof *col), *rep = malloc(nodes * sizeof *rep);
    fr_t row[FIL_POREP_MAX_LAYERS];
    assert_true(col && rep);
    for (uint64_t i = 0; i < nodes; i++) {
        for (unsigned l = 0; l < layers; l++)
            row[l] = S->labels[l * nodes + i];
        assert_int_equal(poseidon_hash(&col[i], pc, row, layers, POSEIDON_OPTIMIZED, NULL),
                         CUZK_OK);
        /* the replica: data encoded with the last layer's label */
        fr_add(&rep[i], &S->data[i], &S->labels[(layers - 1) * nodes + i]);
    }
    fil_tree_shape_t dshape = {FIL_HASHER_SHA256, 2, 0, 0};
    assert_int_equal(fil_merkle_tree_build(&S->d, &dshape, S->data, nodes, &err), CUZK_OK);
    assert_int_equal(fil_merkle_tree_build(&S->c, tree, col, nodes, &err), CUZK_OK);
    assert_int_equal(fil_merkle_tree_build(&S->r, tree, rep, nodes, &err), CUZK_OK);
    free(col);
    free(rep);
}

static void sealed_free(sealed_t *S)
{
    free(S->data);
    free(S->labels);
    fil_merkle_tree_free(S->d);
    fil_merkle_tree_free(S->c);
    fil_merkle_tree_free(S->r);
}

/* The vanilla proof of challenge node c (params.rs Proof's fields). */
static void prove_challenge(fil_porep_challenge_t *ch, const sealed_t *S, uint64_t c)
{
    memset(ch, 0, sizeof *ch);
    ch->challenge = c;
    ch->data_leaf = S->data[c];
    assert_int_equal(fil_merkle_tree_path(&ch->comm_d_path, S->d, c, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_path(&ch->comm_r_last_path, S->r, c, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_path(&ch->comm_c_path, S->c, c, NULL), CUZK_OK);
    uint32_t p[FIL_DEGREE];
    assert_int_equal(fil_graph_parents(p, &S->g, c, NULL), CUZK_OK);
    for (unsigned k = 0; k < FIL_DEGREE; k++) {
        int drg = k < FIL_DRG_DEGREE;
        fr_t *colv = drg ? ch->drg_cols[k] : ch->exp_cols[k - FIL_DRG_DEGREE];
        fil_merkle_path_t *path = drg ? &ch->drg_paths[k] : &ch->exp_paths[k - FIL_DRG_DEGREE];
        for (unsigned l = 0; l < S->layers; l++)
            colv[l] = S->labels[l * S->nodes + p[k]];
        assert_int_equal(fil_merkle_tree_path(path, S->c, p[k], NULL), CUZK_OK);
    }
}

/* stacked_circuit.rs's configuration (2 layers, 8 nodes per base tree):
 * a sealing of random data and the vanilla proof of random challenges
 * satisfy every constraint; the inputs are what generate_public_inputs
 * lists (replica_id, comm_d, comm_r, then per challenge comm_d's path
 * index, the 14 parents' indices, the challenge, its comm_r_last and
 * comm_c indices); a wrong label in a parent column fails. */
static void test_real_witness(void **state)
{
    (void)state;
    static const unsigned shapes[][3] = {{8, 0, 0}, {8, 4, 0}, {2, 0, 0}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        uint64_t trees = (shapes[si][1] ? shapes[si][1] : 1) * (shapes[si][2] ? shapes[si][2] : 1);
        fil_porep_shape_t shape = {
            8 * trees, {FIL_HASHER_POSEIDON, shapes[si][0], shapes[si][1], shapes[si][2]}, 2, 2};
        sealed_t S;
        seal(&S, &shape.tree, shape.nodes, shape.layers);
        fil_porep_public_t pub;
        pub.replica_id = S.replica_id;
        fil_merkle_tree_root(&pub.comm_d, S.d);
        fil_merkle_tree_root(&pub.comm_c, S.c);
        fil_merkle_tree_root(&pub.comm_r_last, S.r);
        const poseidon_constants_t *c2 = NULL;
        assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
        fr_t cr[2] = {pub.comm_c, pub.comm_r_last};
        assert_int_equal(poseidon_hash(&pub.comm_r, c2, cr, 2, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
        fil_porep_challenge_t *ch = calloc(shape.challenges, sizeof *ch);
        assert_non_null(ch);
        uint64_t cs_idx[2] = {1 + tu_rand64() % (shape.nodes - 1), shape.nodes - 1};
        for (unsigned i = 0; i < shape.challenges; i++)
            prove_challenge(&ch[i], &S, cs_idx[i]);
        cs_t *cs = NULL;
        assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
        fil_cs_porep(cs, &shape, &pub, ch);
        cuzk_error_t err;
        if (cs_status(cs, &err) != CUZK_OK)
            fail_msg("porep: %s", err.msg);
        uint64_t row;
        char where[256];
        if (cs_unsatisfied(&row, where, sizeof where, cs))
            fail_msg("shape %u-%u-%u: constraint %llu fails: %s", shapes[si][0], shapes[si][1],
                     shapes[si][2], (unsigned long long)row, where);
        size_t n_in;
        const fr_t *in = cs_input_values(cs, &n_in);
        assert_int_equal(n_in, 4 + 18 * shape.challenges);
        assert_true(fr_equal(&in[1], &pub.replica_id));
        assert_true(fr_equal(&in[2], &pub.comm_d));
        assert_true(fr_equal(&in[3], &pub.comm_r));
        for (unsigned i = 0; i < shape.challenges; i++) {
            const fr_t *ci = &in[4 + 18 * i];
            uint32_t p[FIL_DEGREE];
            assert_int_equal(fil_graph_parents(p, &S.g, cs_idx[i], NULL), CUZK_OK);
            fr_t want;
            fr_from_u64(&want, cs_idx[i]);
            assert_true(fr_equal(&ci[0], &want)); /* comm_d path */
            for (unsigned k = 0; k < FIL_DEGREE; k++) {
                fr_from_u64(&want, p[k]);
                assert_true(fr_equal(&ci[1 + k], &want));
            }
            fr_from_u64(&want, cs_idx[i]);
            assert_true(fr_equal(&ci[15], &want)); /* the challenge */
            assert_true(fr_equal(&ci[16], &want)); /* comm_r_last path */
            assert_true(fr_equal(&ci[17], &want)); /* comm_c path */
        }
        cs_free(cs);
        /* one wrong label in the first challenge's third DRG parent */
        fr_add(&ch[0].drg_cols[2][1], &ch[0].drg_cols[2][1], &FR_ONE);
        assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
        fil_cs_porep(cs, &shape, &pub, ch);
        assert_int_equal(cs_unsatisfied(&row, where, sizeof where, cs), 1);
        assert_non_null(strstr(where, "drg_parent 2"));
        cs_free(cs);
        free(ch);
        sealed_free(&S);
    }
}

static void test_bad_shape(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_porep_shape_t shape = {8, {FIL_HASHER_POSEIDON, 8, 0, 0}, 3, 1};
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "layers"));
    shape.layers = 2;
    shape.challenges = 0;
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_ERR_ARG);
    shape.challenges = 1;
    shape.tree.hasher = FIL_HASHER_SHA256;
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_ERR_ARG);
}

int main(void)
{
    tu_init("test_filecoin_porep");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rust_test_circuits),
        cmocka_unit_test(test_porep_32g),
        cmocka_unit_test(test_real_witness),
        cmocka_unit_test(test_bad_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
