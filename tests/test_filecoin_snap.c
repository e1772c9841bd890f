/* SnapDeals encoding and partition vanilla proofs (include/cuzk/
 * filecoin_snap.h): for both variants and every partition of small
 * sectors, the proof survives bincode (write, parse), its witness
 * satisfies the real update circuit with the public inputs derived from
 * the public values, and a changed data node changes comm_d_new and
 * comm_r_new. The sparse encoder (fil_snap_encode_sparse) over a dense
 * and a sparse 2 KiB sealing equals the dense encoder over every leaf
 * (commitments and vanilla proof bytes) and its proofs satisfy the
 * circuit (fil_partition_witness, FIL_WITNESS_CHECK); at 32 GiB every
 * partition's paths end in the update's roots and every challenge obeys
 * the encoding at the challenges, and the last SHA partition's witness is
 * CHECKed (CUZK_SLOW=1 adds the Poseidon variant's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/filecoin_vanilla.h"
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

/* ---- the sparse encoder ------------------------------------------------- */

/* Partition k of u satisfies the update circuit (fil_partition_witness in
 * CHECK mode) with the public inputs its public values give. */
static void check_witness(const fil_snap_update_t *u, const fil_snap_vproof_t *v, unsigned k)
{
    cuzk_error_t err = {0};
    const fil_update_shape_t *sh = fil_snap_update_shape(u);
    fil_snap_public_t pub;
    fil_snap_update_public(&pub, u, k);
    fil_update_witness_t w;
    if (fil_snap_vproof_witness(&w, sh, v, &pub, &err) != CUZK_OK)
        fail_msg("witness of partition %u: %s", k, err.msg);
    fil_partition_t p;
    memset(&p, 0, sizeof p);
    p.kind = sh->kind == FIL_UPDATE_SHA ? FIL_CIRCUIT_SNAP_DEALS : FIL_CIRCUIT_SNAP_DEALS_POSEIDON;
    p.update.shape = *sh;
    p.update.w = &w;
    fil_witness_opts_t o = {.mode = FIL_WITNESS_CHECK, .threads = 1};
    fr_t *wv = NULL;
    size_t n_vars = 0, n_in = 0;
    if (fil_partition_witness(&wv, &n_vars, &n_in, &p, &o, &err) != CUZK_OK)
        fail_msg("kind %d partition %u: %s", (int)sh->kind, k, err.msg);
    fr_t want[4];
    assert_int_equal(fil_update_public_inputs(want, sh, k, pub.h, &pub.comm_r_old, &pub.comm_d_new,
                                              &pub.comm_r_new, &err),
                     CUZK_OK);
    assert_int_equal(n_in, 4);
    for (int i = 0; i < 4; i++)
        assert_true(fr_equal(&wv[1 + i], &want[i]));
    free(wv);
    fil_update_witness_free(&w);
}

/* n_data sorted unique nodes < nodes, edge-biased (0 and nodes - 1), with
 * fr32 values (some zero). */
static void draw_data(uint64_t *idx, fr_t *val, size_t n_data, uint64_t nodes)
{
    size_t n = 0;
    idx[n++] = 0;
    idx[n++] = nodes - 1;
    while (n < n_data) {
        uint64_t x = tu_rand64() % nodes;
        int dup = 0;
        for (size_t i = 0; i < n; i++)
            dup |= idx[i] == x;
        if (!dup)
            idx[n++] = x;
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: n is small */
        for (size_t j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
            uint64_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++)
        if (i == 1)
            val[i] = FR_ZERO;
        else
            rand_node(&val[i]);
}

static void sparse_equals_dense(fil_update_kind kind, const fil_sealed_t *s)
{
    cuzk_error_t err = {0};
    const uint64_t nodes = fil_sealed_info(s)->nodes;
    enum { N_DATA = 9 };
    uint64_t idx[N_DATA];
    fr_t val[N_DATA], comm_c;
    draw_data(idx, val, N_DATA, nodes);
    fr_t *r_old = calloc(nodes, sizeof *r_old), *d_new = calloc(nodes, sizeof *d_new);
    assert_true(r_old && d_new);
    for (uint64_t i = 0; i < nodes; i++)
        assert_int_equal(fil_sealed_replica(&r_old[i], s, i, &err), CUZK_OK);
    for (size_t k = 0; k < N_DATA; k++)
        d_new[idx[k]] = val[k];
    fil_sealed_comm_c(&comm_c, s);
    fil_update_shape_t sh;
    assert_int_equal(fil_update_shape_init(&sh, kind, nodes, &err), CUZK_OK);
    unsigned h = sh.hs[3];
    fil_snap_update_t *sp = NULL, *dn = NULL;
    if (fil_snap_encode_sparse(&sp, kind, s, idx, val, N_DATA, h, 1, &err) != CUZK_OK)
        fail_msg("sparse encode: %s", err.msg);
    assert_int_equal(fil_snap_encode(&dn, kind, nodes, r_old, &comm_c, d_new, h, &err), CUZK_OK);
    fr_t comm_r;
    fil_sealed_comm_r(&comm_r, s);
    for (unsigned k = 0; k < sh.partitions; k++) {
        fil_snap_public_t a, b;
        fil_snap_update_public(&a, sp, k);
        fil_snap_update_public(&b, dn, k);
        assert_true(fr_equal(&a.comm_r_old, &comm_r));
        assert_true(fr_equal(&a.comm_r_old, &b.comm_r_old));
        assert_true(fr_equal(&a.comm_d_new, &b.comm_d_new));
        assert_true(fr_equal(&a.comm_r_new, &b.comm_r_new));
        assert_int_equal(a.h, b.h);
        fil_snap_vproof_t va, vb;
        assert_int_equal(fil_snap_update_vproof(&va, sp, k, &err), CUZK_OK);
        assert_int_equal(fil_snap_update_vproof(&vb, dn, k, &err), CUZK_OK);
        uint8_t *ba = NULL, *bb = NULL;
        size_t la = 0, lb = 0;
        assert_int_equal(fil_snap_vproof_write(&ba, &la, &va, &err), CUZK_OK);
        assert_int_equal(fil_snap_vproof_write(&bb, &lb, &vb, &err), CUZK_OK);
        assert_int_equal(la, lb);
        assert_memory_equal(ba, bb, la);
        check_witness(sp, &va, k);
        free(ba);
        free(bb);
        fil_snap_vproof_free(&va);
        fil_snap_vproof_free(&vb);
    }
    /* refusals, naming the entry */
    fil_snap_update_free(sp);
    uint64_t bad[N_DATA];
    memcpy(bad, idx, sizeof bad);
    bad[4] = bad[3];
    assert_int_equal(fil_snap_encode_sparse(&sp, kind, s, bad, val, N_DATA, h, 1, &err),
                     CUZK_ERR_ARG);
    assert_null(sp);
    assert_non_null(strstr(err.msg, "data_nodes[4]"));
    bad[4] = idx[4];
    bad[N_DATA - 1] = nodes;
    assert_int_equal(fil_snap_encode_sparse(&sp, kind, s, bad, val, N_DATA, h, 1, &err),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "data_nodes[8]"));
    uint8_t big[32] = {0};
    big[31] = 0x40; /* 2^254 */
    assert_int_equal(fr_from_le(&val[5], big), CUZK_OK);
    assert_int_equal(fil_snap_encode_sparse(&sp, kind, s, idx, val, N_DATA, h, 1, &err),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "data[5]"));
    assert_int_equal(fil_snap_encode_sparse(&sp, kind, s, idx, val, N_DATA, h + 100, 1, &err),
                     CUZK_ERR_ARG);
    /* no new data at all: still an update (every data node zero) */
    assert_int_equal(fil_snap_encode_sparse(&sp, kind, s, NULL, NULL, 0, h, 1, &err), CUZK_OK);
    fil_snap_update_free(sp);
    fil_snap_update_free(dn);
    free(r_old);
    free(d_new);
}

static void test_sparse_2k(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    uint8_t prover[32] = {1}, ticket[32] = {2}, seed[32] = {3};
    fil_sealed_t *dense = NULL, *sparse = NULL;
    if (fil_seal(&dense, FIL_SEAL_2K_V1_1, prover, 7, ticket, NULL, tu_rand64(), 1, &err) !=
        CUZK_OK)
        fail_msg("seal: %s", err.msg);
    if (fil_seal_sparse(&sparse, FIL_SEAL_2K_V1_1, prover, 7, ticket, seed, NULL, 0, 1, &err) !=
        CUZK_OK)
        fail_msg("sparse seal: %s", err.msg);
    for (int kind = FIL_UPDATE_SHA; kind <= FIL_UPDATE_POSEIDON; kind++) {
        sparse_equals_dense((fil_update_kind)kind, dense);
        sparse_equals_dense((fil_update_kind)kind, sparse);
    }
    fil_sealed_free(dense);
    fil_sealed_free(sparse);
}

/* Every challenge of partition k: its three paths end in the update's
 * roots (comm_r_old, comm_d_new, comm_r_new through comm_c) and
 * r_new = r_old + d_new * rho. */
static void check_paths(const fil_snap_update_t *u, const fil_snap_vproof_t *v, unsigned k)
{
    cuzk_error_t err = {0};
    const fil_update_shape_t *sh = fil_snap_update_shape(u);
    fil_snap_public_t pub;
    fil_snap_update_public(&pub, u, k);
    uint64_t *idx = malloc(sh->challenges * sizeof *idx);
    assert_non_null(idx);
    assert_int_equal(fil_update_challenges(idx, sh, &pub.comm_r_new, k, &err), CUZK_OK);
    fr_t phi;
    assert_int_equal(fil_update_phi(&phi, &pub.comm_d_new, &pub.comm_r_old, &err), CUZK_OK);
    for (unsigned c = 0; c < sh->challenges; c++) {
        const fil_update_challenge_t *ch = &v->challenges[c];
        fr_t root, in[2], comm;
        assert_int_equal(fil_merkle_path_leaf_index(&ch->r_new), idx[c]);
        assert_int_equal(fil_merkle_path_compute_root(&root, FIL_HASHER_POSEIDON, &ch->r_old, &err),
                         CUZK_OK);
        in[0] = v->comm_c;
        in[1] = root;
        assert_int_equal(fil_merkle_node(&comm, FIL_HASHER_POSEIDON, in, 2, &err), CUZK_OK);
        assert_true(fr_equal(&comm, &pub.comm_r_old));
        assert_int_equal(fil_merkle_path_compute_root(&root, sh->tree_d.hasher, &ch->d_new, &err),
                         CUZK_OK);
        assert_true(fr_equal(&root, &pub.comm_d_new));
        assert_int_equal(fil_merkle_path_compute_root(&root, FIL_HASHER_POSEIDON, &ch->r_new, &err),
                         CUZK_OK);
        in[1] = root;
        assert_int_equal(fil_merkle_node(&comm, FIL_HASHER_POSEIDON, in, 2, &err), CUZK_OK);
        assert_true(fr_equal(&comm, &pub.comm_r_new));
        fr_t rho, want;
        assert_int_equal(
            fil_update_rho(&rho, &phi, (uint32_t)(idx[c] >> (sh->challenge_bits - pub.h)), &err),
            CUZK_OK);
        fr_mul(&want, &ch->d_new.leaf, &rho);
        fr_add(&want, &want, &ch->r_old.leaf);
        assert_true(fr_equal(&want, &ch->r_new.leaf));
    }
    free(idx);
}

static void test_sparse_32g(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    uint8_t prover[32] = {4}, ticket[32] = {5}, seed[32] = {6};
    fil_sealed_t *s = NULL;
    if (fil_seal_sparse(&s, FIL_SEAL_32G_V1_1, prover, 9, ticket, seed, NULL, 0, 0, &err) !=
        CUZK_OK)
        fail_msg("sparse seal: %s", err.msg);
    const uint64_t nodes = fil_sealed_info(s)->nodes;
    enum { N_DATA = 1024 };
    uint64_t *idx = malloc(N_DATA * sizeof *idx);
    fr_t *val = malloc(N_DATA * sizeof *val);
    assert_true(idx && val);
    draw_data(idx, val, N_DATA, nodes);
    const char *slow = getenv("CUZK_SLOW");
    for (int kind = FIL_UPDATE_SHA; kind <= FIL_UPDATE_POSEIDON; kind++) {
        fil_update_shape_t sh;
        assert_int_equal(fil_update_shape_init(&sh, (fil_update_kind)kind, nodes, &err), CUZK_OK);
        fil_snap_update_t *u = NULL;
        if (fil_snap_encode_sparse(&u, (fil_update_kind)kind, s, idx, val, N_DATA, sh.hs[3], 0,
                                   &err) != CUZK_OK)
            fail_msg("sparse encode: %s", err.msg);
        for (unsigned k = 0; k < sh.partitions; k++) {
            fil_snap_vproof_t v;
            assert_int_equal(fil_snap_update_vproof(&v, u, k, &err), CUZK_OK);
            check_paths(u, &v, k);
            /* one SHA partition's CHECK by default (about 15 s); the
             * Poseidon variant's single partition under CUZK_SLOW */
            if (k == sh.partitions - 1 && (kind == FIL_UPDATE_SHA || (slow && *slow)))
                check_witness(u, &v, k);
            fil_snap_vproof_free(&v);
        }
        fil_snap_update_free(u);
    }
    free(idx);
    free(val);
    fil_sealed_free(s);
}

int main(void)
{
    tu_init("test_filecoin_snap");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha),
        cmocka_unit_test(test_poseidon),
        cmocka_unit_test(test_sparse_2k),
        cmocka_unit_test(test_sparse_32g),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
