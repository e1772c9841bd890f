/* SnapDeals encoding and partition vanilla proofs (include/cuzk/
 * filecoin_snap.h): for both variants and every partition of small
 * sectors, the proof survives bincode (write, parse), its witness
 * satisfies the real update circuit with the public inputs derived from
 * the public values, and a changed data node changes comm_d_new and
 * comm_r_new. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_snap.h"
#include "test_util.h"

static void rand_node(fr_t *out)
{
    uint8_t b[32];
    tu_rand_fr(out);
    fr_to_le(b, out);
    b[31] &= 0x3f; /* fr32 */
    assert_int_equal(fr_from_le(out, b), CUZK_OK);
}

static void check_kind(fil_update_kind kind, uint64_t nodes)
{
    cuzk_error_t err = {0};
    fr_t *r_old = malloc(nodes * sizeof *r_old), *d_new = malloc(nodes * sizeof *d_new), comm_c;
    assert_true(r_old && d_new);
    for (uint64_t i = 0; i < nodes; i++) {
        tu_rand_fr(&r_old[i]);
        rand_node(&d_new[i]);
    }
    tu_rand_fr(&comm_c);
    fil_update_shape_t sh;
    assert_int_equal(fil_update_shape_init(&sh, kind, nodes, &err), CUZK_OK);
    unsigned h = sh.hs[3]; /* constants.rs h_default */
    fil_snap_update_t *u = NULL;
    if (fil_snap_encode(&u, kind, nodes, r_old, &comm_c, d_new, h, &err) != CUZK_OK)
        fail_msg("encode: %s", err.msg);
    for (unsigned k = 0; k < sh.partitions; k++) {
        fil_snap_vproof_t v, back;
        assert_int_equal(fil_snap_update_vproof(&v, u, k, &err), CUZK_OK);
        uint8_t *bytes = NULL;
        size_t len = 0;
        assert_int_equal(fil_snap_vproof_write(&bytes, &len, &v, &err), CUZK_OK);
        if (fil_snap_vproof_parse(&back, &sh, bytes, len, &err) != CUZK_OK)
            fail_msg("parse: %s", err.msg);
        free(bytes);
        fil_snap_public_t pub;
        fil_snap_update_public(&pub, u, k);
        fil_update_witness_t w;
        if (fil_snap_vproof_witness(&w, &sh, &back, &pub, &err) != CUZK_OK)
            fail_msg("witness of partition %u: %s", k, err.msg);
        cs_t *cs = NULL;
        assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
        fil_cs_update(cs, &sh, &w);
        assert_int_equal(cs_status(cs, &err), CUZK_OK);
        uint64_t row;
        char where[256];
        if (cs_unsatisfied(&row, where, sizeof where, cs))
            fail_msg("kind %d partition %u: constraint %llu (%s)", (int)kind, k,
                     (unsigned long long)row, where);
        fr_t want[4];
        assert_int_equal(fil_update_public_inputs(want, &sh, k, h, &pub.comm_r_old, &pub.comm_d_new,
                                                  &pub.comm_r_new, &err),
                         CUZK_OK);
        size_t n_in;
        const fr_t *in = cs_input_values(cs, &n_in);
        assert_int_equal(n_in, 5);
        for (int i = 0; i < 4; i++)
            assert_true(fr_equal(&in[1 + i], &want[i]));
        cs_free(cs);
        fil_update_witness_free(&w);
        fil_snap_vproof_free(&back);
        fil_snap_vproof_free(&v);
    }
    fil_snap_vproof_t v;
    assert_int_equal(fil_snap_update_vproof(&v, u, sh.partitions, &err), CUZK_ERR_ARG);

    /* one data node more: other comm_d_new and comm_r_new */
    fil_snap_public_t a, b;
    fil_snap_update_public(&a, u, 0);
    fil_snap_update_free(u);
    fr_add(&d_new[nodes / 2], &d_new[nodes / 2], &FR_ONE);
    assert_int_equal(fil_snap_encode(&u, kind, nodes, r_old, &comm_c, d_new, h, &err), CUZK_OK);
    fil_snap_update_public(&b, u, 0);
    assert_true(fr_equal(&a.comm_r_old, &b.comm_r_old));
    assert_false(fr_equal(&a.comm_d_new, &b.comm_d_new));
    assert_false(fr_equal(&a.comm_r_new, &b.comm_r_new));
    fil_snap_update_free(u);

    /* refusals */
    assert_int_equal(fil_snap_encode(&u, kind, nodes, r_old, &comm_c, d_new, h + 100, &err),
                     CUZK_ERR_ARG);
    assert_null(u);
    uint8_t big[32];
    memset(big, 0, 32);
    big[31] = 0x40; /* 2^254 */
    assert_int_equal(fr_from_le(&d_new[3], big), CUZK_OK);
    assert_int_equal(fil_snap_encode(&u, kind, nodes, r_old, &comm_c, d_new, h, &err),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "data node 3"));
    free(r_old);
    free(d_new);
}

static void test_sha(void **state)
{
    (void)state;
    check_kind(FIL_UPDATE_SHA, 64);       /* 2 KiB */
    check_kind(FIL_UPDATE_SHA, 1u << 10); /* 32 KiB: 8-8-2, several partitions */
}

static void test_poseidon(void **state)
{
    (void)state;
    check_kind(FIL_UPDATE_POSEIDON, 64);
}

int main(void)
{
    tu_init("test_filecoin_snap");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha),
        cmocka_unit_test(test_poseidon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
