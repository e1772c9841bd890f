/* Groth16 verification against real Filecoin proofs (fil-blst test files,
 * ../shared/testdata/filecoin/README.md): every proof verifies alone and in
 * batches; single-byte changes to a proof, an input or the key never give
 * "valid" (they fail to decode or fail to verify); swapped inputs fail;
 * wrong input counts are errors. Positions are sampled (CUZK_TEST_ITERS
 * scales the sampling). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/encode.h"
#include "cuzk/groth16.h"

#define PRF_DIR CUZK_TESTDATA_DIR "/filecoin/"

typedef struct fixture {
    const char *name;
    bellperson_prf_layout layout;
    uint8_t *bytes; /* the whole file */
    size_t len;
    bellperson_prf_t prf;
    size_t vk_off, vk_len; /* where the key sits in the file */
} fixture_t;

/* window.prf uses the batch layout (one proof), not the single one. */
static fixture_t WINNING = {.name = "winning32.prf", .layout = BELLPERSON_PRF_SINGLE};
static fixture_t SEAL = {.name = "seal32_x10.prf", .layout = BELLPERSON_PRF_BATCH};
static fixture_t WINDOW = {.name = "window.prf", .layout = BELLPERSON_PRF_BATCH};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fixture_load(fixture_t *f)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", PRF_DIR, f->name);
    f->bytes = tu_read_file(path, &f->len);
    assert_non_null(f->bytes);
    cuzk_error_t err = {CUZK_OK, ""};
    double t = now_s();
    cuzk_status st = bellperson_prf_parse(&f->prf, f->layout, f->bytes, f->len, &err);
    if (st != CUZK_OK)
        fail_msg("%s: %s", f->name, err.msg);
    printf("  %s: parsed in %.3f s (%zu proofs, %zu inputs each, n_ic %zu)\n", f->name, now_s() - t,
           f->prf.n_proofs, f->prf.n_inputs, f->prf.vk.n_ic);
    size_t n = f->prf.n_inputs;
    if (f->layout == BELLPERSON_PRF_SINGLE)
        f->vk_off = BELLPERSON_PROOF_BYTES + 8 + n * BELLPERSON_INPUT_BYTES;
    else
        f->vk_off = 16;
    f->vk_len = bellperson_vk_bytes(f->prf.vk.n_ic);
}

static int group_setup(void **state)
{
    (void)state;
    fixture_load(&WINNING);
    fixture_load(&SEAL);
    fixture_load(&WINDOW);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    fixture_t *all[3] = {&WINNING, &SEAL, &WINDOW};
    for (int i = 0; i < 3; i++) {
        bellperson_prf_free(&all[i]->prf);
        free(all[i]->bytes);
    }
    return 0;
}

/* Proof j's bytes and inputs' bytes inside the file. */
static const uint8_t *proof_bytes(const fixture_t *f, size_t j)
{
    if (f->layout == BELLPERSON_PRF_SINGLE)
        return f->bytes;
    size_t entry = BELLPERSON_PROOF_BYTES + f->prf.n_inputs * BELLPERSON_INPUT_BYTES;
    return f->bytes + f->vk_off + f->vk_len + j * entry;
}

static const uint8_t *input_bytes(const fixture_t *f, size_t j)
{
    if (f->layout == BELLPERSON_PRF_SINGLE)
        return f->bytes + BELLPERSON_PROOF_BYTES + 8;
    return proof_bytes(f, j) + BELLPERSON_PROOF_BYTES;
}

static const fr_t *inputs_of(const fixture_t *f, size_t j)
{
    return f->prf.inputs + j * f->prf.n_inputs;
}

/* Returns valid (0/1) and asserts the call itself succeeded. */
static int verify_one(const groth16_vk_t *vk, const groth16_proof_t *p, const fr_t *x, size_t n)
{
    cuzk_error_t err = {CUZK_OK, ""};
    int valid = -1;
    cuzk_status st = groth16_verify(&valid, vk, p, x, n, &err);
    if (st != CUZK_OK)
        fail_msg("groth16_verify: %s", err.msg);
    assert_true(valid == 0 || valid == 1);
    return valid;
}

static int verify_batch(const groth16_vk_t *vk, const groth16_proof_t *p, size_t k, const fr_t *x)
{
    cuzk_error_t err = {CUZK_OK, ""};
    int valid = -1;
    cuzk_status st = groth16_verify_batch(&valid, vk, p, k, x, &err);
    if (st != CUZK_OK)
        fail_msg("groth16_verify_batch: %s", err.msg);
    assert_true(valid == 0 || valid == 1);
    return valid;
}

static void test_layouts(void **state)
{
    (void)state;
    assert_int_equal(WINNING.prf.n_proofs, 1);
    assert_int_equal(WINNING.prf.n_inputs, 132);
    assert_int_equal(WINNING.prf.vk.n_ic, 133);
    assert_int_equal(WINNING.vk_len, 13636);
    assert_int_equal(SEAL.prf.n_proofs, 10);
    assert_int_equal(SEAL.prf.n_inputs, 327);
    assert_int_equal(SEAL.prf.vk.n_ic, 328);
    assert_int_equal(SEAL.vk_len, 32356);
    assert_int_equal(WINDOW.prf.n_proofs, 1);
    assert_int_equal(WINDOW.prf.n_inputs, 25839);
    assert_int_equal(WINDOW.prf.vk.n_ic, 25840);
    assert_int_equal(WINDOW.vk_len, 2481508);
    /* README: input[3] of the first seal proof is 0x27248677. */
    fr_t c;
    fr_from_u64(&c, 0x27248677);
    assert_true(fr_equal(&SEAL.prf.inputs[3], &c));

    /* Writers give back the file's bytes. */
    fixture_t *all[3] = {&WINNING, &SEAL, &WINDOW};
    for (int i = 0; i < 3; i++) {
        fixture_t *f = all[i];
        uint8_t *vk = malloc(f->vk_len);
        assert_non_null(vk);
        bellperson_vk_write(vk, &f->prf.vk);
        assert_memory_equal(vk, f->bytes + f->vk_off, f->vk_len);
        free(vk);
        uint8_t *in = malloc(f->prf.n_inputs * BELLPERSON_INPUT_BYTES);
        assert_non_null(in);
        for (size_t j = 0; j < f->prf.n_proofs; j++) {
            uint8_t pb[BELLPERSON_PROOF_BYTES];
            bellperson_proof_write(pb, &f->prf.proofs[j]);
            assert_memory_equal(pb, proof_bytes(f, j), BELLPERSON_PROOF_BYTES);
            bellperson_inputs_write(in, inputs_of(f, j), f->prf.n_inputs);
            assert_memory_equal(in, input_bytes(f, j), f->prf.n_inputs * BELLPERSON_INPUT_BYTES);
        }
        free(in);
    }
}

static void test_single_all(void **state)
{
    (void)state;
    double t = now_s();
    assert_int_equal(verify_one(&WINNING.prf.vk, WINNING.prf.proofs, WINNING.prf.inputs, 132), 1);
    printf("  winning: %.1f ms\n", 1e3 * (now_s() - t));
    t = now_s();
    for (size_t j = 0; j < 10; j++)
        assert_int_equal(verify_one(&SEAL.prf.vk, &SEAL.prf.proofs[j], inputs_of(&SEAL, j), 327),
                         1);
    printf("  seal: 10 single verifications in %.1f ms\n", 1e3 * (now_s() - t));
    t = now_s();
    assert_int_equal(verify_one(&WINDOW.prf.vk, WINDOW.prf.proofs, WINDOW.prf.inputs, 25839), 1);
    printf("  window: %.1f ms\n", 1e3 * (now_s() - t));
}

static void test_batch(void **state)
{
    (void)state;
    const bellperson_prf_t *s = &SEAL.prf;
    double t = now_s();
    assert_int_equal(verify_batch(&s->vk, s->proofs, 10, s->inputs), 1);
    printf("  seal: batch of 10 in %.1f ms\n", 1e3 * (now_s() - t));
    /* Contiguous sub-batches. */
    static const size_t sub[][2] = {{0, 1}, {9, 1}, {0, 2}, {3, 5}, {1, 9}};
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++)
        assert_int_equal(
            verify_batch(&s->vk, s->proofs + sub[i][0], sub[i][1], inputs_of(&SEAL, sub[i][0])), 1);
    /* Random subsets, in random order, repeats allowed. */
    groth16_proof_t p[10];
    fr_t *x = malloc(10 * 327 * sizeof *x);
    assert_non_null(x);
    int n = tu_iters(3);
    for (int it = 0; it < n; it++) {
        size_t k = 1 + (size_t)(tu_rand64() % 10);
        for (size_t j = 0; j < k; j++) {
            size_t src = (size_t)(tu_rand64() % 10);
            p[j] = s->proofs[src];
            memcpy(x + j * 327, inputs_of(&SEAL, src), 327 * sizeof *x);
        }
        assert_int_equal(verify_batch(&s->vk, p, k, x), 1);
    }
    /* The winning proof as a batch of one. */
    assert_int_equal(verify_batch(&WINNING.prf.vk, WINNING.prf.proofs, 1, WINNING.prf.inputs), 1);

    /* One bad member spoils the batch: proof 4 with proof 5's C. */
    memcpy(p, s->proofs, sizeof p);
    memcpy(x, s->inputs, 10 * 327 * sizeof *x);
    p[4].c = s->proofs[5].c;
    assert_int_equal(verify_batch(&s->vk, p, 10, x), 0);
    /* A changed input in the last proof. */
    memcpy(p, s->proofs, sizeof p);
    fr_add(&x[9 * 327 + 100], &x[9 * 327 + 100], &FR_ONE);
    assert_int_equal(verify_batch(&s->vk, p, 10, x), 0);
    free(x);
}

static void test_swapped_inputs(void **state)
{
    (void)state;
    const bellperson_prf_t *s = &SEAL.prf;
    /* Singly: proof 0 with proof 1's inputs and the other way round. */
    assert_int_equal(verify_one(&s->vk, &s->proofs[0], inputs_of(&SEAL, 1), 327), 0);
    assert_int_equal(verify_one(&s->vk, &s->proofs[1], inputs_of(&SEAL, 0), 327), 0);
    /* In a batch: inputs of proofs 2 and 7 swapped. */
    fr_t *x = malloc(10 * 327 * sizeof *x);
    assert_non_null(x);
    memcpy(x, s->inputs, 10 * 327 * sizeof *x);
    memcpy(x + 2 * 327, inputs_of(&SEAL, 7), 327 * sizeof *x);
    memcpy(x + 7 * 327, inputs_of(&SEAL, 2), 327 * sizeof *x);
    assert_int_equal(verify_batch(&s->vk, s->proofs, 10, x), 0);
    /* Two inputs of one proof swapped (challenge and its first parent). */
    memcpy(x, s->inputs, 327 * sizeof *x);
    x[3] = s->inputs[4];
    x[4] = s->inputs[3];
    assert_int_equal(verify_one(&s->vk, &s->proofs[0], x, 327), 0);
    free(x);
}

static void test_wrong_input_count(void **state)
{
    (void)state;
    const bellperson_prf_t *w = &WINNING.prf;
    cuzk_error_t err = {CUZK_OK, ""};
    int valid = -1;
    fr_t x[134];
    memcpy(x, w->inputs, 132 * sizeof *x);
    x[132] = FR_ZERO;
    x[133] = FR_ZERO;
    static const size_t counts[] = {0, 1, 131, 133, 134};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        err.msg[0] = '\0';
        valid = -1;
        assert_int_equal(groth16_verify(&valid, &w->vk, w->proofs, x, counts[i], &err),
                         CUZK_ERR_ARG);
        assert_int_equal(err.code, CUZK_ERR_ARG);
        assert_non_null(strstr(err.msg, "inputs"));
        assert_int_equal(valid, 0);
    }
    /* Batch: the seal key with the winning proof's 132 inputs would read
     * past them; instead a key without IC and an empty batch. */
    groth16_vk_t empty = w->vk;
    empty.n_ic = 0;
    assert_int_equal(groth16_verify(&valid, &empty, w->proofs, x, 0, &err), CUZK_ERR_ARG);
    assert_int_equal(groth16_verify_batch(&valid, &empty, w->proofs, 1, x, &err), CUZK_ERR_ARG);
    assert_int_equal(groth16_verify_batch(&valid, &w->vk, w->proofs, 0, x, &err), CUZK_ERR_ARG);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(groth16_verify(NULL, &w->vk, w->proofs, x, 132, &err), CUZK_ERR_ARG);
    assert_int_equal(groth16_verify(&valid, &w->vk, w->proofs, NULL, 132, &err), CUZK_ERR_ARG);
}

/* Valid points in the wrong place: each used key point negated, and IC
 * points swapped, make a valid proof fail. (beta_g1 and delta_g1 are not in
 * the equation.) */
static void key_substitutions(const fixture_t *f)
{
    const groth16_proof_t *p = &f->prf.proofs[0];
    const fr_t *x = f->prf.inputs;
    size_t n = f->prf.n_inputs;
    groth16_vk_t vk = f->prf.vk;
    g1_affine_neg(&vk.alpha_g1, &vk.alpha_g1);
    assert_int_equal(verify_one(&vk, p, x, n), 0);
    vk = f->prf.vk;
    g2_affine_neg(&vk.beta_g2, &vk.beta_g2);
    assert_int_equal(verify_one(&vk, p, x, n), 0);
    vk = f->prf.vk;
    g2_affine_neg(&vk.gamma_g2, &vk.gamma_g2);
    assert_int_equal(verify_one(&vk, p, x, n), 0);
    vk = f->prf.vk;
    g2_affine_neg(&vk.delta_g2, &vk.delta_g2);
    assert_int_equal(verify_one(&vk, p, x, n), 0);
    vk = f->prf.vk;
    vk.gamma_g2 = f->prf.vk.delta_g2;
    vk.delta_g2 = f->prf.vk.gamma_g2;
    assert_int_equal(verify_one(&vk, p, x, n), 0);
    vk = f->prf.vk;
    g1_affine_neg(&vk.beta_g1, &vk.beta_g1);
    g1_affine_neg(&vk.delta_g1, &vk.delta_g1);
    assert_int_equal(verify_one(&vk, p, x, n), 1);

    g1_affine_t *ic = malloc(vk.n_ic * sizeof *ic);
    assert_non_null(ic);
    vk.ic = ic;
    /* IC[0], the last, and a random one with a nonzero input. */
    size_t picks[3] = {0, vk.n_ic - 1, 1 + (size_t)(tu_rand64() % n)};
    for (int k = 0; k < 3; k++) {
        size_t i = picks[k];
        if (i > 0 && fr_is_zero(&x[i - 1]))
            continue;
        memcpy(ic, f->prf.vk.ic, vk.n_ic * sizeof *ic);
        g1_affine_neg(&ic[i], &ic[i]);
        assert_int_equal(verify_one(&vk, p, x, n), 0);
    }
    /* Two neighbouring IC points swapped (their inputs differ). */
    for (size_t i = 1; i + 1 < vk.n_ic; i++) {
        if (fr_equal(&x[i - 1], &x[i]))
            continue;
        memcpy(ic, f->prf.vk.ic, vk.n_ic * sizeof *ic);
        ic[i] = f->prf.vk.ic[i + 1];
        ic[i + 1] = f->prf.vk.ic[i];
        assert_int_equal(verify_one(&vk, p, x, n), 0);
        break;
    }
    free(ic);
}

static void test_key_substitutions(void **state)
{
    (void)state;
    key_substitutions(&WINNING);
    key_substitutions(&SEAL);
    key_substitutions(&WINDOW);
}

/* ---- single-byte mutations ---- */

typedef struct mut_stats {
    int decode_err, invalid, arg_err;
} mut_stats_t;

static uint8_t flip_mask(void)
{
    uint8_t m;
    do
        m = (uint8_t)tu_rand64();
    while (m == 0);
    return m;
}

/* A proof byte changed: the proof must fail to decode or fail to verify. */
static void mutate_proof(mut_stats_t *ms, const fixture_t *f, size_t j, size_t pos)
{
    uint8_t b[BELLPERSON_PROOF_BYTES];
    memcpy(b, proof_bytes(f, j), sizeof b);
    b[pos] ^= flip_mask();
    groth16_proof_t p;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_proof_read(&p, b, &err);
    if (st != CUZK_OK) {
        assert_int_equal(err.code, st);
        assert_true(err.msg[0] != '\0');
        ms->decode_err++;
        return;
    }
    if (verify_one(&f->prf.vk, &p, inputs_of(f, j), f->prf.n_inputs))
        fail_msg("%s proof %zu: byte %zu changed, still valid", f->name, j, pos);
    ms->invalid++;
}

/* An input byte changed. */
static void mutate_input(mut_stats_t *ms, const fixture_t *f, size_t j, size_t i, size_t byte)
{
    size_t n = f->prf.n_inputs;
    fr_t *x = malloc(n * sizeof *x);
    assert_non_null(x);
    memcpy(x, inputs_of(f, j), n * sizeof *x);
    uint8_t b[BELLPERSON_INPUT_BYTES];
    memcpy(b, input_bytes(f, j) + i * BELLPERSON_INPUT_BYTES, sizeof b);
    b[byte] ^= flip_mask();
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_inputs_read(&x[i], b, 1, &err);
    if (st != CUZK_OK) {
        assert_int_equal(st, CUZK_ERR_NONCANONICAL);
        ms->decode_err++;
    } else {
        if (verify_one(&f->prf.vk, &f->prf.proofs[j], x, n))
            fail_msg("%s proof %zu: input %zu byte %zu changed, still valid", f->name, j, i, byte);
        ms->invalid++;
    }
    free(x);
}

/* A key byte changed (pos inside the key bytes). */
static void mutate_key(mut_stats_t *ms, const fixture_t *f, size_t pos)
{
    uint8_t *k = malloc(f->vk_len);
    assert_non_null(k);
    memcpy(k, f->bytes + f->vk_off, f->vk_len);
    k[pos] ^= flip_mask();
    groth16_vk_t vk;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_vk_parse(&vk, NULL, k, f->vk_len, &err);
    free(k);
    if (st != CUZK_OK) {
        assert_int_equal(err.code, st);
        assert_true(err.msg[0] != '\0');
        ms->decode_err++;
        return;
    }
    int valid = -1;
    st = groth16_verify(&valid, &vk, &f->prf.proofs[0], f->prf.inputs, f->prf.n_inputs, &err);
    groth16_vk_free(&vk);
    if (st == CUZK_ERR_ARG) { /* the count changed */
        ms->arg_err++;
        return;
    }
    assert_int_equal(st, CUZK_OK);
    if (valid)
        fail_msg("%s: key byte %zu changed, still valid", f->name, pos);
    ms->invalid++;
}

/* A key byte changed, decoding only the point it falls in (for the
 * window key, whose full parse checks 25,840 points). pos is below 864 (the
 * fixed points) or inside IC. */
static void mutate_key_point(mut_stats_t *ms, const fixture_t *f, size_t pos)
{
    /* Offsets of alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2. */
    static const size_t off[7] = {0, 96, 192, 384, 576, 672, 864};
    const uint8_t *key = f->bytes + f->vk_off;
    groth16_vk_t vk = f->prf.vk;
    g1_affine_t ic_copy;
    uint8_t b[192];
    cuzk_status st;
    if (pos < off[6]) {
        int k = 0;
        while (pos >= off[k + 1])
            k++;
        size_t len = off[k + 1] - off[k];
        memcpy(b, key + off[k], len);
        b[pos - off[k]] ^= flip_mask();
        g1_affine_t *g1s[6] = {&vk.alpha_g1, &vk.beta_g1, NULL, NULL, &vk.delta_g1, NULL};
        g2_affine_t *g2s[6] = {NULL, NULL, &vk.beta_g2, &vk.gamma_g2, NULL, &vk.delta_g2};
        st = g1s[k] ? g1_deserialize(g1s[k], b, POINT_CHECK_SUBGROUP, NULL)
                    : g2_deserialize(g2s[k], b, POINT_CHECK_SUBGROUP, NULL);
    } else {
        assert_true(pos >= BELLPERSON_VK_FIXED_BYTES && pos < f->vk_len);
        size_t i = (pos - BELLPERSON_VK_FIXED_BYTES) / 96;
        memcpy(b, key + BELLPERSON_VK_FIXED_BYTES + i * 96, 96);
        b[(pos - BELLPERSON_VK_FIXED_BYTES) % 96] ^= flip_mask();
        st = g1_deserialize(&ic_copy, b, POINT_CHECK_SUBGROUP, NULL);
        /* Swap the changed point into a copy of IC. */
        if (st == CUZK_OK) {
            g1_affine_t *ic = malloc(vk.n_ic * sizeof *ic);
            assert_non_null(ic);
            memcpy(ic, vk.ic, vk.n_ic * sizeof *ic);
            ic[i] = ic_copy;
            vk.ic = ic;
            if (verify_one(&vk, &f->prf.proofs[0], f->prf.inputs, f->prf.n_inputs))
                fail_msg("%s: key byte %zu (IC[%zu]) changed, still valid", f->name, pos, i);
            free(ic);
            ms->invalid++;
            return;
        }
    }
    if (st != CUZK_OK) {
        ms->decode_err++;
        return;
    }
    if (verify_one(&vk, &f->prf.proofs[0], f->prf.inputs, f->prf.n_inputs))
        fail_msg("%s: key byte %zu changed, still valid", f->name, pos);
    ms->invalid++;
}

/* A byte anywhere in the file: parse the whole file, then verify. */
static void mutate_file(mut_stats_t *ms, const fixture_t *f, size_t pos)
{
    uint8_t *b = malloc(f->len);
    assert_non_null(b);
    memcpy(b, f->bytes, f->len);
    b[pos] ^= flip_mask();
    bellperson_prf_t prf;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_prf_parse(&prf, f->layout, b, f->len, &err);
    free(b);
    if (st != CUZK_OK) {
        assert_int_equal(err.code, st);
        assert_true(err.msg[0] != '\0');
        ms->decode_err++;
        return;
    }
    int valid = -1;
    if (prf.n_proofs == 1)
        st = groth16_verify(&valid, &prf.vk, prf.proofs, prf.inputs, prf.n_inputs, &err);
    else
        st = groth16_verify_batch(&valid, &prf.vk, prf.proofs, prf.n_proofs, prf.inputs, &err);
    bellperson_prf_free(&prf);
    if (st == CUZK_ERR_ARG) {
        ms->arg_err++;
        return;
    }
    assert_int_equal(st, CUZK_OK);
    if (valid)
        fail_msg("%s: file byte %zu changed, still valid", f->name, pos);
    ms->invalid++;
}

static size_t rand_below(size_t n)
{
    return (size_t)(tu_rand64() % n);
}

static void mut_report(const char *what, const mut_stats_t *ms)
{
    printf("  %s: %d decode errors, %d invalid, %d count errors\n", what, ms->decode_err,
           ms->invalid, ms->arg_err);
}

static void test_mutate_winning(void **state)
{
    (void)state;
    const fixture_t *f = &WINNING;
    mut_stats_t ms = {0, 0, 0};
    int n = tu_iters(48);
    /* Byte 0 of each point (flags: compressed, infinity, sign) always. */
    static const size_t flag_pos[] = {0, 48, 144};
    for (size_t i = 0; i < 3; i++)
        for (int r = 0; r < 3; r++)
            mutate_proof(&ms, f, 0, flag_pos[i]);
    for (int it = 0; it < n; it++)
        mutate_proof(&ms, f, 0, rand_below(BELLPERSON_PROOF_BYTES));
    for (int it = 0; it < n; it++)
        mutate_input(&ms, f, 0, rand_below(f->prf.n_inputs), rand_below(BELLPERSON_INPUT_BYTES));
    for (int it = 0; it < n; it++)
        mutate_key(&ms, f, rand_below(f->vk_len));
    /* The count bytes of the key and bytes of the used fixed points. */
    for (size_t pos = BELLPERSON_VK_FIXED_BYTES - 4; pos < BELLPERSON_VK_FIXED_BYTES; pos++)
        mutate_key(&ms, f, pos);
    for (int it = 0; it < n / 4 + 1; it++)
        mutate_file(&ms, f, rand_below(f->len));
    mut_report("winning mutations", &ms);
}

static void test_mutate_seal(void **state)
{
    (void)state;
    const fixture_t *f = &SEAL;
    mut_stats_t ms = {0, 0, 0};
    int n = tu_iters(16);
    for (int it = 0; it < n; it++)
        mutate_proof(&ms, f, rand_below(10), rand_below(BELLPERSON_PROOF_BYTES));
    for (int it = 0; it < n; it++)
        mutate_input(&ms, f, rand_below(10), rand_below(f->prf.n_inputs),
                     rand_below(BELLPERSON_INPUT_BYTES));
    for (int it = 0; it < n; it++)
        mutate_key(&ms, f, rand_below(f->vk_len));
    /* Whole-file mutations verify as a batch of 10. */
    for (int it = 0; it < n / 2 + 1; it++)
        mutate_file(&ms, f, rand_below(f->len));
    mut_report("seal mutations", &ms);
}

static void test_mutate_window(void **state)
{
    (void)state;
    const fixture_t *f = &WINDOW;
    mut_stats_t ms = {0, 0, 0};
    int n = tu_iters(4);
    for (int it = 0; it < n; it++)
        mutate_proof(&ms, f, 0, rand_below(BELLPERSON_PROOF_BYTES));
    for (int it = 0; it < n; it++)
        mutate_input(&ms, f, 0, rand_below(f->prf.n_inputs), rand_below(BELLPERSON_INPUT_BYTES));
    /* Key bytes, decoding only the changed point: the fixed points and IC;
     * one full parse of the changed key as well. */
    for (int it = 0; it < n; it++)
        mutate_key_point(&ms, f, rand_below(864));
    for (int it = 0; it < n; it++)
        mutate_key_point(&ms, f, BELLPERSON_VK_FIXED_BYTES + rand_below(f->vk_len - 868));
    mutate_key(&ms, f, rand_below(f->vk_len));
    mut_report("window mutations", &ms);
}

int main(void)
{
    tu_init("test_verify_filecoin");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_single_all),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_swapped_inputs),
        cmocka_unit_test(test_wrong_input_count),
        cmocka_unit_test(test_key_substitutions),
        cmocka_unit_test(test_mutate_winning),
        cmocka_unit_test(test_mutate_seal),
        cmocka_unit_test(test_mutate_window),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
