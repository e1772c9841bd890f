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
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/groth16.h"
#include "cuzk/key.h"
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
 * vanilla proof of WinningPoSt's 66 challenges (one per circuit sector). */
static void post_case_make(post_case_t *pc)
{
    cuzk_error_t err = {0};
    memset(pc, 0, sizeof *pc);
    assert_int_equal(fil_post_params(&pc->pp, FIL_CIRCUIT_WINNING_POST, SECTOR, FIL_API_1_1, &err),
                     CUZK_OK);
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
        uint64_t leaf;
        assert_int_equal(
            fil_post_sector_leaves(&leaf, &pc->pp, pc->randomness, pc->pub.id, i, &err), CUZK_OK);
        assert_int_equal(fil_merkle_tree_path(&s->paths[0], pc->tree, leaf, &err), CUZK_OK);
        s->leafs[0] = s->paths[0].leaf;
    }
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
    double t2 = now_s();
    assert_int_equal(n_vars, c.n_vars);
    assert_int_equal(n_in, c.n_public);
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
           "satisfied; record %.1f s, witness %.1f s, check %.1f s\n",
           c.n_rows, t1 - t0, t2 - t1, now_s() - t2);
    free(in);
    free(w);
    circuit_free(&c);
    free(s);
    free(v);
}

int main(void)
{
    tu_init("test_filecoin_prove");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_winning_post_end_to_end),
        cmocka_unit_test(test_post_padding),
        cmocka_unit_test(test_window_post_32g_real),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
