/* neptune's legacy Poseidon circuit (cs_poseidon.h):
 *  - constraint and aux counts: reference.json for arity 2, 4, 8, 11 and
 *    neptune's circuit.rs test_poseidon_hash for 16, 24, 36;
 *  - the witness's hash equals the native poseidon_hash on reference.json's
 *    vectors (inputs 0 .. A-1) and on random, edge-biased inputs for every
 *    arity 1 .. 36, with the check back end on;
 *  - the R1CS shape read back from the record back end, row by row: the
 *    round-0 S-box rows with their round keys, the tag's constant S-box as
 *    ONE's coefficient, the size of every ensure_allocated combination
 *    (t, t + k in partial round k, t + R_P after the last partial round),
 *    the terminal round without keys; and the densities that shape implies;
 *  - count, witness, check and record agree; the recorded matrices accept
 *    the witness; a corrupted aux value is caught at the constraint that
 *    defines it, with its namespace;
 *  - the TestConstraintSystem::hash() fingerprint, printed for a Rust run
 *    to compare (no published value).
 * Every test runs on the fast path and on the reference path; and the two
 * record identical matrices and witnesses for every arity 1 .. 36. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <pthread.h>

#include <cjson/cJSON.h>

#include "cuzk/circuit.h"
#include "cuzk/circuit_record.h"
#include "cuzk/cs.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/fr.h"
#include "cuzk/poseidon.h"
#include "cs_fixture.h"
#include "test_util.h"

#define CIRCUITS_DIR CUZK_TESTDATA_DIR "/filecoin/circuits/"

/* The path every test body runs on; main runs the group once per path. */
static cs_poseidon_path g_path = CS_POSEIDON_FAST;

static const char *path_name(cs_poseidon_path p)
{
    return p == CS_POSEIDON_FAST ? "fast" : "reference";
}

static const poseidon_constants_t *constants(unsigned arity)
{
    const poseidon_constants_t *c = NULL;
    cuzk_error_t err = {0};
    if (poseidon_constants_get(&c, arity, &err) != CUZK_OK)
        fail_msg("poseidon_constants_get(%u): %s", arity, err.msg);
    return c;
}

static cJSON *load_json(const char *path)
{
    size_t len;
    uint8_t *buf = tu_read_file(path, &len);
    if (!buf)
        fail_msg("cannot read %s", path);
    cJSON *j = cJSON_ParseWithLength((const char *)buf, len);
    free(buf);
    if (!j)
        fail_msg("%s is not JSON", path);
    return j;
}

static int hex_nibble(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* A canonical Fr as 64 big-endian hex digits, with or without "0x". */
static void fr_from_hex(fr_t *out, const cJSON *item)
{
    assert_true(cJSON_IsString(item));
    const char *s = item->valuestring;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    assert_int_equal(strlen(s), 2 * FR_BYTES);
    uint8_t be[FR_BYTES];
    for (int i = 0; i < FR_BYTES; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        assert_true(hi >= 0 && lo >= 0);
        be[i] = (uint8_t)(hi << 4 | lo);
    }
    assert_int_equal(fr_from_be(out, be), CUZK_OK);
}

static void print_fr(const char *what, const fr_t *a)
{
    uint8_t be[FR_BYTES];
    fr_to_be(be, a);
    printf("%s 0x", what);
    for (int i = 0; i < FR_BYTES; i++)
        printf("%02x", be[i]);
    printf("\n");
}

/* S-boxes in the circuit: A in round 0 (the tag's is a constant), t in
 * each of the other R_F - 1 full rounds, one per partial round. */
static uint64_t n_sboxes(const poseidon_constants_t *c)
{
    return c->arity + (uint64_t)(c->full_rounds - 1) * c->width + c->partial_rounds;
}

/* The hash of `in` over freshly allocated inputs (A aux variables, as
 * neptune's test allocates its preimage). */
static cs_num_t hash_allocated(cs_t *cs, const poseidon_constants_t *c, const fr_t *in)
{
    cs_num_t x[POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < c->arity; i++)
        x[i] = cs_num_alloc(cs, &in[i]);
    cs_num_t out;
    cs_poseidon_hash_path(&out, cs, x, c->arity, c, g_path);
    return out;
}

/* c = a = 31 A + 29 + 4 R_P: reference.json for 2, 4, 8, 11; neptune
 * circuit.rs test_poseidon_hash (Strength::Standard) for 16, 24, 36. */
static void test_counts(void **state)
{
    (void)state;
    cJSON *ref = load_json(CIRCUITS_DIR "reference.json");
    const cJSON *gc = cJSON_GetObjectItemCaseSensitive(ref, "gadget_constraints");
    const cJSON *pub = NULL, *it;
    cJSON_ArrayForEach(it, gc)
    {
        if (strncmp(it->string, "poseidon_legacy_circuit", 23) == 0)
            pub = it;
    }
    assert_non_null(pub);
    assert_int_equal(cJSON_GetArraySize(pub), 4);
    static const unsigned arities[] = {2, 4, 8, 11, 16, 24, 36};
    uint64_t want[7] = {0, 0, 0, 0, 761, 1009, 1385};
    for (int i = 0; i < 4; i++)
        want[i] = (uint64_t)cJSON_GetArrayItem(pub, i)->valuedouble;
    cJSON_Delete(ref);
    for (size_t k = 0; k < 7; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        fr_t in[POSEIDON_MAX_ARITY] = {{{0}}};
        cs_t *cs = csf_new(CS_COUNT);
        hash_allocated(cs, c, in);
        csf_assert_ok(cs);
        cs_counts_t n = csf_counts(cs);
        uint64_t gadget_aux = n.aux - c->arity;
        printf("arity %2u: %llu constraints, %llu aux (neptune %llu)\n", arities[k],
               (unsigned long long)n.constraints, (unsigned long long)gadget_aux,
               (unsigned long long)want[k]);
        assert_int_equal(n.constraints, want[k]);
        assert_int_equal(gadget_aux, want[k]);
        assert_int_equal(cs_poseidon_cost(c), want[k]);
        assert_int_equal(31 * (uint64_t)c->arity + 29 + 4 * (uint64_t)c->partial_rounds, want[k]);
        assert_int_equal(n.inputs, 1);
        cs_free(cs);
    }
}

/* neptune poseidon.rs hash_values (reference.json): inputs 0 .. A-1. */
static void test_hash_vectors(void **state)
{
    (void)state;
    cJSON *ref = load_json(CIRCUITS_DIR "reference.json");
    const cJSON *vals = cJSON_GetObjectItemCaseSensitive(ref, "poseidon_hash_values");
    assert_non_null(vals);
    static const unsigned arities[] = {2, 4, 8, 11};
    for (size_t k = 0; k < 4; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        char key[8];
        snprintf(key, sizeof key, "%u", arities[k]);
        fr_t want, in[POSEIDON_MAX_ARITY];
        fr_from_hex(&want, cJSON_GetObjectItemCaseSensitive(vals, key));
        for (unsigned i = 0; i < c->arity; i++)
            fr_from_u64(&in[i], i);
        cs_t *cs = csf_new(CS_CHECK);
        cs_num_t out = hash_allocated(cs, c, in);
        csf_assert_ok(cs);
        fr_t stored;
        cs_value(&stored, cs, out.var);
        if (!fr_equal(&out.value, &want) || !fr_equal(&stored, &want)) {
            print_fr("neptune", &want);
            print_fr("circuit", &out.value);
            fail_msg("arity %u: the circuit's hash differs", arities[k]);
        }
        cs_free(cs);
    }
    cJSON_Delete(ref);
}

static void rand_edge_fr(fr_t *out)
{
    switch (tu_rand64() % 6) {
    case 0: *out = FR_ZERO; break;
    case 1: *out = FR_ONE; break;
    case 2: fr_neg(out, &FR_ONE); break;
    default: tu_rand_fr(out);
    }
}

/* Random, edge-biased inputs for every arity neptune implements: the
 * circuit's hash equals the native one (plain and optimized) and every
 * constraint holds. Some runs hash one variable in every slot, or public
 * inputs. */
static void test_random(void **state)
{
    (void)state;
    int iters = tu_iters(2);
    for (unsigned a = POSEIDON_MIN_ARITY; a <= POSEIDON_MAX_ARITY; a++) {
        const poseidon_constants_t *c = constants(a);
        for (int it = 0; it < iters; it++) {
            fr_t in[POSEIDON_MAX_ARITY];
            cs_num_t x[POSEIDON_MAX_ARITY];
            cs_t *cs = csf_new(CS_CHECK);
            int style = (int)(tu_rand64() % 3);
            for (unsigned i = 0; i < a; i++) {
                if (style == 1 && i > 0) { /* the same variable everywhere */
                    in[i] = in[0];
                    x[i] = x[0];
                    continue;
                }
                rand_edge_fr(&in[i]);
                x[i] = style == 2 ? cs_num_alloc_input(cs, &in[i]) : cs_num_alloc(cs, &in[i]);
            }
            cs_num_t out;
            cs_poseidon_hash_path(&out, cs, x, a, c, g_path);
            csf_assert_ok(cs);
            fr_t plain, opt;
            assert_int_equal(poseidon_hash(&plain, c, in, a, POSEIDON_PLAIN, NULL), CUZK_OK);
            assert_int_equal(poseidon_hash(&opt, c, in, a, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
            assert_true(fr_equal(&plain, &opt));
            if (!fr_equal(&out.value, &plain)) {
                print_fr("native ", &plain);
                print_fr("circuit", &out.value);
                fail_msg("arity %u, style %d: the circuit's hash differs", a, style);
            }
            assert_int_equal(csf_counts(cs).constraints, cs_poseidon_cost(c));
            cs_free(cs);
        }
    }
}

static void test_wrong_arity(void **state)
{
    (void)state;
    const poseidon_constants_t *c = constants(4);
    cs_t *cs = csf_new(CS_WITNESS);
    cs_num_t x[3];
    for (int i = 0; i < 3; i++)
        x[i] = cs_num_alloc(cs, &FR_ONE);
    cs_num_t out;
    cs_poseidon_hash_path(&out, cs, x, 3, c, g_path);
    assert_int_equal(cs_status(cs, NULL), CUZK_ERR_ARG);
    assert_int_equal(out.var, CS_ONE);
    assert_int_equal(csf_counts(cs).constraints, 0);
    cs_free(cs);
}

/* ---- the R1CS shape, read back from the record back end ---------------- */

typedef struct recorded {
    cs_record_matrix_t m[3];
    const fr_t *dict;
    uint32_t n_dict;
} recorded_t;

static uint64_t row_len(const recorded_t *r, int m, uint64_t row)
{
    return r->m[m].row_ptr[row + 1] - r->m[m].row_ptr[row];
}

/* The coefficient of v in row `row` of matrix m; fails when absent. */
static fr_t row_coeff(const recorded_t *r, int m, uint64_t row, cs_var_t v)
{
    for (uint64_t e = r->m[m].row_ptr[row]; e < r->m[m].row_ptr[row + 1]; e++)
        if (r->m[m].var[e] == v)
            return r->dict[r->m[m].coef[e]];
    fail_msg("row %llu of matrix %d has no variable 0x%x", (unsigned long long)row, m, v);
    return FR_ZERO;
}

static void expect_coeff(const recorded_t *r, int m, uint64_t row, cs_var_t v, const fr_t *want)
{
    fr_t got = row_coeff(r, m, row, v);
    if (!fr_equal(&got, want)) {
        print_fr("want", want);
        print_fr("got ", &got);
        fail_msg("row %llu, matrix %d, variable 0x%x", (unsigned long long)row, m, v);
    }
}

/* ensure_allocated's row: lc * ONE = fresh aux `row + A` with `terms`
 * terms in lc. */
static void expect_ensure(const recorded_t *r, uint64_t row, unsigned arity, uint64_t terms)
{
    if (row_len(r, 0, row) != terms)
        fail_msg("row %llu: %llu terms in A, expected %llu", (unsigned long long)row,
                 (unsigned long long)row_len(r, 0, row), (unsigned long long)terms);
    assert_int_equal(row_len(r, 1, row), 1);
    expect_coeff(r, 1, row, CS_ONE, &FR_ONE);
    assert_int_equal(row_len(r, 2, row), 1);
    expect_coeff(r, 2, row, CS_VAR_AUX | (uint32_t)(row + arity), &FR_ONE);
}

/* Row by row, the constraints neptune's circuit.rs emits: read from the
 * Rust, not from our gadget. Each constraint allocates exactly one aux
 * variable just before it, so gadget aux k (aux A + k) is defined by
 * row k. */
static void check_shape(unsigned arity)
{
    const poseidon_constants_t *c = constants(arity);
    const unsigned t = c->width, h = c->half_full_rounds, rp = c->partial_rounds;
    cs_t *cs = csf_new(CS_RECORD);
    fr_t in[POSEIDON_MAX_ARITY] = {{{0}}};
    hash_allocated(cs, c, in);
    csf_assert_ok(cs);
    recorded_t r;
    assert_int_equal(cs_record_matrices(r.m, &r.dict, &r.n_dict, cs, NULL), CUZK_OK);
#define AUX(k) (CS_VAR_AUX | (uint32_t)(k))
    const fr_t *rc = c->compressed_round_constants; /* t pre, t post, ... */
    /* round 0, input i (element i + 1): square_sum, square, mul_sum */
    for (unsigned i = 0; i < arity; i++) {
        const fr_t *pre = &rc[i + 1], *post = &rc[t + i + 1];
        fr_t neg_post;
        fr_neg(&neg_post, post);
        uint64_t row = 3 * (uint64_t)i;
        cs_var_t x = AUX(i), l2 = AUX(arity + row), l4 = AUX(arity + row + 1),
                 y = AUX(arity + row + 2);
        for (int m = 0; m < 2; m++) { /* (x + pre)(x + pre) = l2 */
            assert_int_equal(row_len(&r, m, row), 2);
            expect_coeff(&r, m, row, CS_ONE, pre);
            expect_coeff(&r, m, row, x, &FR_ONE);
        }
        assert_int_equal(row_len(&r, 2, row), 1);
        expect_coeff(&r, 2, row, l2, &FR_ONE);
        expect_coeff(&r, 0, row + 1, l2, &FR_ONE); /* l2 * l2 = l4 */
        expect_coeff(&r, 1, row + 1, l2, &FR_ONE);
        expect_coeff(&r, 2, row + 1, l4, &FR_ONE);
        assert_int_equal(row_len(&r, 0, row + 2), 2); /* (x + pre) l4 = y - post */
        expect_coeff(&r, 0, row + 2, CS_ONE, pre);
        expect_coeff(&r, 0, row + 2, x, &FR_ONE);
        assert_int_equal(row_len(&r, 1, row + 2), 1);
        expect_coeff(&r, 1, row + 2, l4, &FR_ONE);
        assert_int_equal(row_len(&r, 2, row + 2), 2);
        expect_coeff(&r, 2, row + 2, CS_ONE, &neg_post);
        expect_coeff(&r, 2, row + 2, y, &FR_ONE);
    }
    /* round 1's combinations: the tag's S-box constant k0 through MDS
     * column j on ONE, M[i][j] on round 0's outputs. */
    fr_t k0;
    poseidon_sbox(&k0, &c->domain_tag, &rc[0], &rc[t]);
    uint64_t row = 3 * (uint64_t)arity;
    for (unsigned j = 0; j < t; j++) {
        uint64_t rj = row + 4 * (uint64_t)j;
        expect_ensure(&r, rj, arity, t);
        fr_t w;
        fr_mul(&w, &k0, &c->mds[j]);
        expect_coeff(&r, 0, rj, CS_ONE, &w);
        for (unsigned i = 1; i < t; i++)
            expect_coeff(&r, 0, rj, AUX(arity + 3 * (i - 1) + 2), &c->mds[(size_t)i * t + j]);
    }
    /* every later full S-box: ensure, l^2, l^4, mul_sum with the round's
     * post key (none in the terminal round); partial rounds: element 0 */
    unsigned key = 2 * t; /* the next compressed round constant */
    for (unsigned rd = 1; rd < c->full_rounds + rp; rd++) {
        int partial = rd >= h && rd < h + rp, terminal = rd + 1 == c->full_rounds + rp;
        unsigned n = partial ? 1 : t;
        for (unsigned j = 0; j < n; j++, row += 4) {
            uint64_t terms = t;
            if (partial)
                terms = t + (rd - h); /* one more term each partial round */
            else if (rd == h + rp)
                terms = t + rp; /* the Nums the partial rounds grew */
            expect_ensure(&r, row, arity, terms);
            cs_var_t l = AUX(arity + row), l2 = AUX(arity + row + 1), l4 = AUX(arity + row + 2),
                     y = AUX(arity + row + 3);
            expect_coeff(&r, 0, row + 1, l, &FR_ONE);
            expect_coeff(&r, 1, row + 1, l, &FR_ONE);
            expect_coeff(&r, 2, row + 1, l2, &FR_ONE);
            expect_coeff(&r, 0, row + 2, l2, &FR_ONE);
            expect_coeff(&r, 2, row + 2, l4, &FR_ONE);
            assert_int_equal(row_len(&r, 0, row + 3), 1); /* l * l4 = y - post */
            expect_coeff(&r, 0, row + 3, l, &FR_ONE);
            expect_coeff(&r, 1, row + 3, l4, &FR_ONE);
            if (terminal) {
                assert_int_equal(row_len(&r, 2, row + 3), 1);
            } else {
                fr_t neg_post;
                fr_neg(&neg_post, &rc[key++]);
                assert_int_equal(row_len(&r, 2, row + 3), 2);
                expect_coeff(&r, 2, row + 3, CS_ONE, &neg_post);
            }
            expect_coeff(&r, 2, row + 3, y, &FR_ONE);
        }
    }
    assert_int_equal(key, c->full_rounds * t + rp); /* every key used once */
    /* the result: ensure_allocated(elements[1]) over the terminal S-boxes */
    expect_ensure(&r, row, arity, t);
    for (unsigned i = 0; i < t; i++)
        expect_coeff(&r, 0, row, AUX(arity + row - 4 * (t - i) + 3), &c->mds[(size_t)i * t + 1]);
    assert_int_equal(row + 1, cs_poseidon_cost(c));
#undef AUX
    cs_free(cs);
}

static void test_shape(void **state)
{
    (void)state;
    static const unsigned arities[] = {1, 2, 4, 8, 11, 16};
    for (size_t k = 0; k < sizeof arities / sizeof arities[0]; k++)
        check_shape(arities[k]);
}

/* The back ends agree; the densities are what the shape implies: every
 * aux is in A except the l^4 values and the result, in B except the S-box
 * outputs and the result; ONE is the only input in B. */
static void test_modes(void **state)
{
    (void)state;
    static const cs_mode modes[] = {CS_COUNT, CS_WITNESS, CS_CHECK, CS_RECORD};
    static const unsigned arities[] = {2, 8, 11};
    for (size_t k = 0; k < 3; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        fr_t in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < c->arity; i++)
            tu_rand_fr(&in[i]);
        cs_counts_t n[4];
        for (int m = 0; m < 4; m++) {
            cs_t *cs = csf_new(modes[m]);
            hash_allocated(cs, c, in);
            csf_assert_ok(cs);
            n[m] = csf_counts(cs);
            cs_free(cs);
        }
        for (int m = 1; m < 4; m++)
            assert_memory_equal(&n[m], &n[0], sizeof n[0]);
        uint64_t aux = c->arity + cs_poseidon_cost(c);
        assert_int_equal(n[0].aux, aux);
        assert_int_equal(n[0].a_aux_density, aux - n_sboxes(c) - 1);
        assert_int_equal(n[0].b_aux_density, aux - n_sboxes(c) - 1);
        assert_int_equal(n[0].b_input_density, 1);
        printf("arity %2u (inputs allocated): %llu constraints, %llu aux, A-aux %llu, "
               "B-input %llu, B-aux %llu\n",
               arities[k], (unsigned long long)n[0].constraints, (unsigned long long)n[0].aux,
               (unsigned long long)n[0].a_aux_density, (unsigned long long)n[0].b_input_density,
               (unsigned long long)n[0].b_aux_density);
    }
}

/* A check-mode run with aux `fault` replaced; returns the first failing
 * row and its path. */
static uint64_t faulty_row(char *path, size_t cap, const poseidon_constants_t *c, const fr_t *in,
                           uint64_t fault, const fr_t *bad)
{
    cs_t *cs = csf_new(CS_CHECK);
    cs_set_fault(cs, fault, bad);
    hash_allocated(cs, c, in);
    uint64_t row = UINT64_MAX;
    assert_int_equal(cs_unsatisfied(&row, path, cap, cs), 1);
    assert_int_equal(cs_status(cs, NULL), CUZK_ERR_ARG);
    cs_free(cs);
    return row;
}

/* A corrupted aux value fails the constraint that defines it (gadget aux
 * k at row k), or, for an input, its first S-box row; the namespace path
 * says where. */
static void test_fault(void **state)
{
    (void)state;
    static const unsigned arities[] = {2, 11};
    for (size_t k = 0; k < 2; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        const unsigned a = c->arity, t = c->width, h = c->half_full_rounds;
        fr_t in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < a; i++)
            tu_rand_fr(&in[i]);
        char path[256];
        fr_t bad;
        /* input i: its square_sum row, 3 i */
        for (unsigned i = 0; i < a; i++) {
            fr_add(&bad, &in[i], &FR_ONE);
            assert_int_equal(faulty_row(path, sizeof path, c, in, i, &bad), 3 * (uint64_t)i);
        }
        assert_string_equal(path, a == 2 ? "first round/quintic s-box 2"
                                         : "first round/quintic s-box 11");
        /* random gadget aux */
        const uint64_t cost = cs_poseidon_cost(c);
        for (int it = 0; it < tu_iters(6); it++) {
            uint64_t g = tu_rand64() % cost;
            tu_rand_fr(&bad);
            assert_int_equal(faulty_row(path, sizeof path, c, in, a + g, &bad), g);
        }
        /* named places */
        tu_rand_fr(&bad);
        uint64_t p5 = 3 * (uint64_t)a + (uint64_t)(h - 1) * 4 * t + 4 * 5;
        assert_int_equal(faulty_row(path, sizeof path, c, in, a + p5 + 2, &bad), p5 + 2);
        assert_string_equal(path, "partial round 5/solitary quintic s-box");
        assert_int_equal(faulty_row(path, sizeof path, c, in, a + cost - 1, &bad), cost - 1);
        assert_string_equal(path, "hash result");
        uint64_t term = cost - 1 - 4 * (uint64_t)t + 4; /* terminal round, element 1 */
        assert_int_equal(faulty_row(path, sizeof path, c, in, a + term, &bad), term);
        assert_string_equal(path, "terminal full round/quintic s-box 1");
        uint64_t init = 3 * (uint64_t)a + 4 * (uint64_t)t; /* round 2, element 0 */
        assert_int_equal(faulty_row(path, sizeof path, c, in, a + init + 3, &bad), init + 3);
        assert_string_equal(path, "initial full round 2/quintic s-box 0");
    }
}

/* Two chained hashes (a small Merkle path), the root made public. */
static void record_body(cs_t *cs, const poseidon_constants_t *c, const fr_t *in)
{
    cs_num_t h1 = hash_allocated(cs, c, in);
    cs_num_t x[POSEIDON_MAX_ARITY];
    x[0] = h1;
    for (unsigned i = 1; i < c->arity; i++)
        x[i] = cs_num_alloc(cs, &in[i]);
    cs_num_t root;
    cs_poseidon_hash_path(&root, cs, x, c->arity, c, g_path);
    cs_num_inputize(cs, &root);
}

/* The recorded matrices accept the witness the witness back end makes,
 * and a corrupted witness fails at the row the check back end names. */
static void test_record_circuit(void **state)
{
    (void)state;
    static const unsigned arities[] = {2, 8};
    for (size_t k = 0; k < 2; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        fr_t in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < c->arity; i++)
            rand_edge_fr(&in[i]);
        cs_t *rec = csf_new(CS_RECORD), *wit = csf_new(CS_WITNESS);
        record_body(rec, c, in);
        record_body(wit, c, in);
        csf_assert_ok(rec);
        csf_assert_ok(wit);
        circuit_t circ;
        assert_int_equal(circuit_from_record(&circ, rec, NULL), CUZK_OK);
        size_t n_in, n_aux;
        const fr_t *iv = cs_input_values(wit, &n_in), *av = cs_aux_values(wit, &n_aux);
        assert_int_equal(n_in, 2);
        fr_t *w = malloc((n_in + n_aux) * sizeof *w);
        assert_non_null(w);
        memcpy(w, iv, n_in * sizeof *w);
        memcpy(w + n_in, av, n_aux * sizeof *w);
        uint32_t bad;
        assert_int_equal(circuit_check(&bad, &circ, w, 1), CUZK_OK);
        assert_int_equal(bad, UINT32_MAX);
        uint64_t j = tu_rand64() % n_aux;
        fr_t flipped;
        fr_add(&flipped, &av[j], &FR_ONE);
        w[n_in + j] = flipped;
        assert_int_equal(circuit_check(&bad, &circ, w, 1), CUZK_OK);
        cs_t *chk = csf_new(CS_CHECK);
        cs_set_fault(chk, j, &flipped);
        record_body(chk, c, in);
        uint64_t row;
        assert_int_equal(cs_unsatisfied(&row, NULL, 0, chk), 1);
        assert_int_equal(bad, row);
        cs_free(chk);
        free(w);
        circuit_free(&circ);
        cs_free(rec);
        cs_free(wit);
    }
}

static void blake_update(void *ctx, const uint8_t *data, size_t n)
{
    EVP_DigestUpdate(ctx, data, n);
}

/* bellpepper's TestConstraintSystem::hash() of neptune's own test circuit
 * (A allocated inputs, then poseidon_hash): no published value, so the
 * lines are printed for a Rust run to compare; count and record agree. */
static void test_fingerprint(void **state)
{
    (void)state;
    static const unsigned arities[] = {2, 4, 8, 11};
    for (size_t k = 0; k < 4; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        fr_t in[POSEIDON_MAX_ARITY] = {{{0}}};
        cs_counts_t want;
        {
            cs_t *cs = csf_new(CS_COUNT);
            hash_allocated(cs, c, in);
            want = csf_counts(cs);
            cs_free(cs);
        }
        char hex[2][65];
        static const cs_mode modes[] = {CS_COUNT, CS_RECORD};
        for (int m = 0; m < 2; m++) {
            cs_t *cs = csf_new(modes[m]);
            EVP_MD_CTX *ctx = EVP_MD_CTX_new();
            assert_non_null(ctx);
            assert_int_equal(EVP_DigestInit_ex(ctx, EVP_blake2s256(), NULL), 1);
            assert_int_equal(cs_hash_begin(cs, &want, blake_update, ctx, NULL), CUZK_OK);
            hash_allocated(cs, c, in);
            assert_int_equal(cs_hash_end(cs, NULL), CUZK_OK);
            uint8_t d[32];
            unsigned dn = 0;
            assert_int_equal(EVP_DigestFinal_ex(ctx, d, &dn), 1);
            assert_int_equal(dn, 32);
            for (int i = 0; i < 32; i++)
                snprintf(&hex[m][2 * i], 3, "%02x", d[i]);
            EVP_MD_CTX_free(ctx);
            cs_free(cs);
        }
        assert_string_equal(hex[0], hex[1]);
        printf("poseidon arity %2u over %u allocated inputs (%s path): cs hash %s\n", arities[k],
               arities[k], path_name(g_path), hex[0]);
    }
}

/* Counting and witness speed (not a gate): a 32 GiB PoRep partition hashes
 * a few thousand times with arity 8 and 11. */
static void test_speed(void **state)
{
    (void)state;
    static const unsigned arities[] = {2, 8, 11};
    static const cs_mode modes[] = {CS_COUNT, CS_WITNESS};
    for (size_t k = 0; k < 3; k++) {
        const poseidon_constants_t *c = constants(arities[k]);
        fr_t in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < c->arity; i++)
            tu_rand_fr(&in[i]);
        for (int m = 0; m < 2; m++) {
            cs_t *cs = csf_new(modes[m]);
            cs_num_t x[POSEIDON_MAX_ARITY];
            for (unsigned i = 0; i < c->arity; i++)
                x[i] = cs_num_alloc(cs, &in[i]);
            const int n = 200;
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (int i = 0; i < n; i++) {
                cs_num_t out;
                cs_poseidon_hash_path(&out, cs, x, c->arity, c, g_path);
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            csf_assert_ok(cs);
            assert_int_equal(csf_counts(cs).constraints, (uint64_t)n * cs_poseidon_cost(c));
            double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            printf("arity %2u, %s path, %s mode: %.1f us per hash\n", arities[k], path_name(g_path),
                   m ? "witness" : "count", 1e6 * s / n);
            cs_free(cs);
        }
    }
}

/* Both paths, on every arity neptune implements: the recorded matrices are
 * identical term for term (variables, coefficients, zeros included), the
 * witnesses equal; and caller-owned constants (no template) give the same
 * R1CS as the shared ones. */
static void record_path(cs_t **out, const poseidon_constants_t *c, const fr_t *in,
                        cs_poseidon_path path, cs_mode mode)
{
    cs_t *cs = csf_new(mode);
    cs_num_t x[POSEIDON_MAX_ARITY], h;
    for (unsigned i = 0; i < c->arity; i++)
        x[i] = cs_num_alloc(cs, &in[i]);
    cs_poseidon_hash_path(&h, cs, x, c->arity, c, path);
    csf_assert_ok(cs);
    *out = cs;
}

static void expect_same_record(const cs_t *a, const cs_t *b)
{
    recorded_t ra, rb;
    assert_int_equal(cs_record_matrices(ra.m, &ra.dict, &ra.n_dict, a, NULL), CUZK_OK);
    assert_int_equal(cs_record_matrices(rb.m, &rb.dict, &rb.n_dict, b, NULL), CUZK_OK);
    cs_counts_t ka = csf_counts(a), kb = csf_counts(b);
    assert_memory_equal(&ka, &kb, sizeof ka);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(ra.m[m].nnz, rb.m[m].nnz);
        assert_memory_equal(ra.m[m].row_ptr, rb.m[m].row_ptr,
                            (ka.constraints + 1) * sizeof ra.m[m].row_ptr[0]);
        assert_memory_equal(ra.m[m].var, rb.m[m].var, ra.m[m].nnz * sizeof ra.m[m].var[0]);
        for (uint64_t e = 0; e < ra.m[m].nnz; e++)
            assert_true(fr_equal(&ra.dict[ra.m[m].coef[e]], &rb.dict[rb.m[m].coef[e]]));
    }
}

static void test_paths_agree(void **state)
{
    (void)state;
    for (unsigned a = POSEIDON_MIN_ARITY; a <= POSEIDON_MAX_ARITY; a++) {
        const poseidon_constants_t *c = constants(a);
        poseidon_constants_t *own = NULL;
        assert_int_equal(poseidon_constants_new(&own, a, NULL), CUZK_OK);
        fr_t in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < a; i++)
            rand_edge_fr(&in[i]);
        cs_t *fast, *ref, *mine;
        record_path(&fast, c, in, CS_POSEIDON_FAST, CS_RECORD);
        record_path(&ref, c, in, CS_POSEIDON_REFERENCE, CS_RECORD);
        record_path(&mine, own, in, CS_POSEIDON_FAST, CS_RECORD);
        expect_same_record(fast, ref);
        expect_same_record(mine, ref);
        cs_free(fast);
        cs_free(ref);
        cs_free(mine);
        record_path(&fast, c, in, CS_POSEIDON_FAST, CS_WITNESS);
        record_path(&ref, c, in, CS_POSEIDON_REFERENCE, CS_WITNESS);
        size_t nf, nr;
        const fr_t *wf = cs_aux_values(fast, &nf), *wr = cs_aux_values(ref, &nr);
        assert_int_equal(nf, nr);
        assert_memory_equal(wf, wr, nf * sizeof wf[0]);
        cs_free(fast);
        cs_free(ref);
        poseidon_constants_free(own);
    }
}

/* The custom domain tag (SnapDeals' POSEIDON_CONSTANTS_GEN_RANDOMNESS,
 * poseidon_constants_get_custom): the tag's constant S-box is ONE's
 * coefficient, so its template is its own; both paths and an uncached copy
 * record the same R1CS, the witness's hash is the native one, and the
 * MerkleTree template of the arity is not reused. */
static void test_custom_tag(void **state)
{
    (void)state;
    static const unsigned arities[] = {2, 8};
    for (size_t k = 0; k < sizeof arities / sizeof arities[0]; k++) {
        unsigned a = arities[k];
        const poseidon_constants_t *c = NULL;
        poseidon_constants_t *own = NULL;
        assert_int_equal(poseidon_constants_get_custom(&c, a, 1, NULL), CUZK_OK);
        assert_int_equal(poseidon_constants_new_custom(&own, a, 1, NULL), CUZK_OK);
        fr_t in[POSEIDON_MAX_ARITY], want;
        for (unsigned i = 0; i < a; i++)
            rand_edge_fr(&in[i]);
        cs_t *fast, *ref, *mine, *merkle;
        record_path(&fast, c, in, CS_POSEIDON_FAST, CS_RECORD);
        record_path(&ref, c, in, CS_POSEIDON_REFERENCE, CS_RECORD);
        record_path(&mine, own, in, CS_POSEIDON_FAST, CS_RECORD);
        record_path(&merkle, constants(a), in, CS_POSEIDON_FAST, CS_RECORD);
        expect_same_record(fast, ref);
        expect_same_record(mine, ref);
        recorded_t rf, rm;
        assert_int_equal(cs_record_matrices(rf.m, &rf.dict, &rf.n_dict, fast, NULL), CUZK_OK);
        assert_int_equal(cs_record_matrices(rm.m, &rm.dict, &rm.n_dict, merkle, NULL), CUZK_OK);
        int differs = rf.m[0].nnz != rm.m[0].nnz;
        for (uint64_t e = 0; !differs && e < rf.m[0].nnz; e++)
            differs = !fr_equal(&rf.dict[rf.m[0].coef[e]], &rm.dict[rm.m[0].coef[e]]);
        assert_true(differs);
        cs_free(fast);
        cs_free(ref);
        cs_free(mine);
        cs_free(merkle);
        cs_t *chk = csf_new(CS_CHECK);
        cs_num_t x[POSEIDON_MAX_ARITY], h;
        for (unsigned i = 0; i < a; i++)
            x[i] = cs_num_alloc(chk, &in[i]);
        cs_poseidon_hash(&h, chk, x, a, c);
        csf_assert_ok(chk);
        assert_int_equal(poseidon_hash(&want, c, in, a, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
        assert_true(fr_equal(&h.value, &want));
        cs_free(chk);
        poseidon_constants_free(own);
    }
}

/* Threads racing on an arity's first use of the fast path (its table is
 * made once, under the lock) record the same circuit as the reference. */
#define RACE_THREADS 4
#define RACE_ARITY 5 /* used by no test before this one */

typedef struct race {
    cs_t *cs;
    const fr_t *in;
} race_t;

static void *race_hash(void *arg)
{
    race_t *r = arg;
    const poseidon_constants_t *c = NULL;
    if (poseidon_constants_get(&c, RACE_ARITY, NULL) != CUZK_OK || cs_new(&r->cs, CS_RECORD, NULL))
        return NULL;
    cs_num_t x[RACE_ARITY], h;
    for (unsigned i = 0; i < RACE_ARITY; i++)
        x[i] = cs_num_alloc(r->cs, &r->in[i]);
    cs_poseidon_hash(&h, r->cs, x, RACE_ARITY, c);
    return NULL;
}

static void test_first_use_race(void **state)
{
    (void)state;
    fr_t in[RACE_ARITY];
    for (unsigned i = 0; i < RACE_ARITY; i++)
        tu_rand_fr(&in[i]);
    race_t r[RACE_THREADS];
    pthread_t th[RACE_THREADS];
    for (int i = 0; i < RACE_THREADS; i++) {
        r[i].cs = NULL;
        r[i].in = in;
        assert_int_equal(pthread_create(&th[i], NULL, race_hash, &r[i]), 0);
    }
    for (int i = 0; i < RACE_THREADS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    cs_t *ref;
    record_path(&ref, constants(RACE_ARITY), in, CS_POSEIDON_REFERENCE, CS_RECORD);
    for (int i = 0; i < RACE_THREADS; i++) {
        assert_non_null(r[i].cs);
        csf_assert_ok(r[i].cs);
        expect_same_record(r[i].cs, ref);
        cs_free(r[i].cs);
    }
    cs_free(ref);
}

static int use_fast(void **state)
{
    (void)state;
    g_path = CS_POSEIDON_FAST;
    return 0;
}

static int use_reference(void **state)
{
    (void)state;
    g_path = CS_POSEIDON_REFERENCE;
    return 0;
}

int main(void)
{
    tu_init("test_cs_poseidon");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),      cmocka_unit_test(test_hash_vectors),
        cmocka_unit_test(test_random),      cmocka_unit_test(test_wrong_arity),
        cmocka_unit_test(test_shape),       cmocka_unit_test(test_modes),
        cmocka_unit_test(test_fault),       cmocka_unit_test(test_record_circuit),
        cmocka_unit_test(test_fingerprint), cmocka_unit_test(test_speed),
    };
    const struct CMUnitTest first[] = {
        cmocka_unit_test(test_first_use_race),
    };
    const struct CMUnitTest both[] = {
        cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_custom_tag),
    };
    int fails = cmocka_run_group_tests_name("cs_poseidon first use", first, NULL, NULL);
    fails += cmocka_run_group_tests_name("cs_poseidon fast path", tests, use_fast, NULL);
    fails += cmocka_run_group_tests_name("cs_poseidon reference path", tests, use_reference, NULL);
    fails += cmocka_run_group_tests_name("cs_poseidon paths agree", both, NULL, NULL);
    return fails;
}
