/* Filecoin vanilla proofs (include/cuzk/filecoin_vanilla.h) against real
 * data: ../shared/testdata/filecoin/circuits/post.vproof, a 32 GiB
 * WindowPoSt sector proof from Curio's test golden files (reference.json
 * post_vproof). It parses; every inclusion path hashes to comm_r_last;
 * Poseidon-2(comm_c, comm_r_last) = comm_r; the challenged leaves are the
 * published ones; and the real proof satisfies our WindowPoSt circuit for
 * that sector. Truncated and corrupted copies fail cleanly. The writer
 * gives the file back byte for byte and refuses proofs that do not fit
 * their shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

#define VPROOF CUZK_TESTDATA_DIR "/filecoin/circuits/post.vproof"

/* reference.json post_vproof.leaf_challenges */
static const uint64_t LEAVES[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                    6202012,   1055504637, 389535735, 1000069704, 600088878};

static uint8_t *g_bytes;
static size_t g_len;

static int setup(void **state)
{
    (void)state;
    g_bytes = tu_read_file(VPROOF, &g_len);
    return g_bytes ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(g_bytes);
    return 0;
}

static void test_parse_and_check(void **state)
{
    (void)state;
    fil_post_vproof_t *v = malloc(sizeof *v);
    assert_non_null(v);
    cuzk_error_t err = {0};
    if (fil_post_vproof_parse(v, g_bytes, g_len, &err) != CUZK_OK)
        fail_msg("post.vproof: %s", err.msg);
    assert_int_equal(v->sector_id, 1);
    assert_int_equal(v->n_proofs, 10);
    assert_int_equal(v->shape.base_arity, 8);
    assert_int_equal(v->shape.sub_arity, 8);
    assert_int_equal(v->shape.top_arity, 0);
    for (unsigned i = 0; i < v->n_proofs; i++) {
        fr_t root;
        assert_int_equal(
            fil_merkle_path_compute_root(&root, FIL_HASHER_POSEIDON, &v->paths[i], &err), CUZK_OK);
        assert_true(fr_equal(&root, &v->comm_r_last));
        assert_true(fr_equal(&v->paths[i].root, &v->comm_r_last));
        assert_int_equal(fil_merkle_path_leaf_index(&v->paths[i]), LEAVES[i]);
    }
    const poseidon_constants_t *c2 = NULL;
    assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
    fr_t in[2] = {v->comm_c, v->comm_r_last}, comm_r;
    assert_int_equal(poseidon_hash(&comm_r, c2, in, 2, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
    assert_true(fr_equal(&comm_r, &v->comm_r));

    /* the real proof in our WindowPoSt circuit (32 GiB: 8-8-0, 10
     * challenges), one sector */
    fil_post_shape_t shape = {(uint64_t)1 << 30, v->shape, 10};
    fil_post_sector_t *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->comm_r = v->comm_r;
    s->comm_c = v->comm_c;
    s->comm_r_last = v->comm_r_last;
    for (unsigned i = 0; i < 10; i++) {
        s->leafs[i] = v->paths[i].leaf;
        s->paths[i] = v->paths[i];
    }
    cs_t *cs = NULL;
    assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
    fil_cs_post_sector(cs, &shape, s);
    if (cs_status(cs, &err) != CUZK_OK)
        fail_msg("post circuit: %s", err.msg);
    uint64_t row;
    char where[256];
    if (cs_unsatisfied(&row, where, sizeof where, cs))
        fail_msg("constraint %llu fails: %s", (unsigned long long)row, where);
    size_t n_in;
    const fr_t *pub = cs_input_values(cs, &n_in);
    assert_int_equal(n_in, 12);
    assert_true(fr_equal(&pub[1], &v->comm_r));
    for (unsigned i = 0; i < 10; i++) {
        fr_t want;
        fr_from_u64(&want, LEAVES[i]);
        assert_true(fr_equal(&pub[2 + i], &want));
    }
    cs_free(cs);
    free(s);
    free(v);
}

/* Every truncation fails with a message naming the field; a byte more, a
 * non-canonical domain, a bad enum tag and a bad index are refused. */
static void test_bad_bytes(void **state)
{
    (void)state;
    fil_post_vproof_t *v = malloc(sizeof *v);
    assert_non_null(v);
    cuzk_error_t err = {0};
    for (size_t n = 0; n < g_len; n += (n < 200 ? 1 : 97)) {
        assert_int_not_equal(fil_post_vproof_parse(v, g_bytes, n, &err), CUZK_OK);
        assert_non_null(strstr(err.msg, "post vanilla proof"));
        assert_int_equal(v->n_proofs, 0);
    }
    uint8_t *b = malloc(g_len + 1);
    assert_non_null(b);
    memcpy(b, g_bytes, g_len);
    b[g_len] = 0;
    assert_int_equal(fil_post_vproof_parse(v, b, g_len + 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "after the proof"));
    memcpy(b, g_bytes, g_len);
    memset(b + 8, 0xff, 32); /* comm_r = 2^256 - 1 */
    assert_int_equal(fil_post_vproof_parse(v, b, g_len, &err), CUZK_ERR_NONCANONICAL);
    assert_non_null(strstr(err.msg, "comm_r"));
    memcpy(b, g_bytes, g_len);
    b[56] = 7; /* the first ProofData tag */
    assert_int_equal(fil_post_vproof_parse(v, b, g_len, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "tag"));
    memcpy(b, g_bytes, g_len);
    /* the first path element's index: tag 4, path length 8, hashes length
     * 8, 7 hashes, then the index */
    size_t at = 56 + 4 + 8 + 8 + 7 * 32;
    b[at] = 8;
    assert_int_equal(fil_post_vproof_parse(v, b, g_len, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "index"));
    memcpy(b, g_bytes, g_len);
    b[40] = 2; /* two sectors */
    assert_int_equal(fil_post_vproof_parse(v, b, g_len, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "vanilla_proof.sectors at offset 40"));
    memcpy(b, g_bytes, g_len);
    /* the first proof's sub_proof length (after the tag and the 9-level
     * base path of 8 + 9 * (8 + 7 * 32 + 8) bytes): a sub tree is one
     * level */
    at = 56 + 4 + 8 + 9 * (8 + 7 * 32 + 8);
    assert_int_equal(b[at], 1);
    b[at] = 2;
    assert_int_equal(fil_post_vproof_parse(v, b, g_len, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "inclusion_proofs[0].sub_proof at offset 2228"));
    memcpy(b, g_bytes, g_len);
    b[at + 8] = 3; /* the sub level's sibling count: 3, not the first proof's 7 */
    assert_int_equal(fil_post_vproof_parse(v, b, g_len, &err), CUZK_ERR_FORMAT);
    free(b);
    free(v);
}

/* Parsing then writing gives the file back, byte for byte. */
static void test_write_round_trip(void **state)
{
    (void)state;
    fil_post_vproof_t *v = malloc(sizeof *v);
    assert_non_null(v);
    cuzk_error_t err = {0};
    assert_int_equal(fil_post_vproof_parse(v, g_bytes, g_len, &err), CUZK_OK);
    uint8_t *out = NULL;
    size_t n = 0;
    if (fil_post_vproof_write(&out, &n, v, &err) != CUZK_OK)
        fail_msg("write: %s", err.msg);
    assert_int_equal(n, g_len);
    assert_memory_equal(out, g_bytes, g_len);
    free(out);
    free(v);
}

/* The writer refuses what it cannot write as the shape says. */
static void test_write_rejects(void **state)
{
    (void)state;
    fil_post_vproof_t *v = malloc(sizeof *v);
    assert_non_null(v);
    cuzk_error_t err = {0};
    uint8_t *out = NULL;
    size_t n = 0;
    assert_int_equal(fil_post_vproof_parse(v, g_bytes, g_len, &err), CUZK_OK);
    v->n_proofs = 0;
    assert_int_equal(fil_post_vproof_write(&out, &n, v, &err), CUZK_ERR_ARG);
    assert_null(out);
    v->n_proofs = 10;
    v->paths[3].level[2].arity = 4; /* a base level of another arity */
    assert_int_equal(fil_post_vproof_write(&out, &n, v, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "inclusion_proofs[3]"));
    assert_null(out);
    assert_int_equal(n, 0);
    v->paths[3].level[2].arity = 8;
    v->paths[5].level[8].index = 8; /* the sub level's index */
    assert_int_equal(fil_post_vproof_write(&out, &n, v, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "inclusion_proofs[5]"));
    v->paths[5].level[8].index = 0;
    v->shape.top_arity = 2; /* top without its level */
    assert_int_equal(fil_post_vproof_write(&out, &n, v, &err), CUZK_ERR_ARG);
    v->shape.top_arity = 0;
    v->shape.base_arity = 3;
    assert_int_equal(fil_post_vproof_write(&out, &n, v, &err), CUZK_ERR_ARG);
    v->shape.base_arity = 8;
    assert_int_equal(fil_post_vproof_write(&out, &n, v, &err), CUZK_OK);
    assert_int_equal(n, g_len);
    free(out);
    assert_int_equal(fil_post_vproof_write(NULL, &n, v, &err), CUZK_ERR_ARG);
    free(v);
}

int main(void)
{
    tu_init("test_filecoin_vanilla");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_check),
        cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_write_round_trip),
        cmocka_unit_test(test_write_rejects),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
