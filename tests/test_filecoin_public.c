/* The public values JSON (include/cuzk/filecoin_public.h): round trips for
 * every kind, the inputs it gives (the same as filecoin_inputs.h's for the
 * same values), the replica_id check against miner, sector, ticket and
 * comm_d, Lotus' prover id (LEB128 of the miner id), and refusals naming
 * the member. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_public.h"
#include "cuzk/filecoin_update.h"
#include "test_util.h"

static void rand32(uint8_t out[32])
{
    fr_t x;
    tu_rand_fr(&x);
    fr_to_le(out, &x);
}

static fil_public_t porep_values(void)
{
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_POREP;
    p.sector_size = 2048;
    p.api = FIL_API_1_1;
    p.seal = FIL_SEAL_2K_V1_1;
    p.miner_id = 1000;
    p.sector_id = 7;
    rand32(p.ticket);
    rand32(p.seed);
    rand32(p.comm_d);
    rand32(p.comm_r);
    uint8_t prover[32], porep_id[32];
    fil_prover_id(prover, p.miner_id);
    assert_int_equal(fil_porep_id(porep_id, p.seal, NULL), CUZK_OK);
    assert_int_equal(
        fil_replica_id(p.replica_id, prover, p.sector_id, p.ticket, p.comm_d, porep_id, NULL),
        CUZK_OK);
    p.have = FIL_PUB_REGISTERED_PROOF | FIL_PUB_MINER_ID | FIL_PUB_SECTOR_ID | FIL_PUB_TICKET |
             FIL_PUB_SEED | FIL_PUB_COMM_D | FIL_PUB_COMM_R | FIL_PUB_REPLICA_ID;
    return p;
}

static fil_public_t roundtrip(const fil_public_t *p)
{
    char *json = NULL;
    cuzk_error_t err = {0};
    if (fil_public_write(&json, p, &err) != CUZK_OK)
        fail_msg("write: %s", err.msg);
    fil_public_t q;
    if (fil_public_parse(&q, (const uint8_t *)json, strlen(json), &err) != CUZK_OK)
        fail_msg("parse: %s\n%s", err.msg, json);
    free(json);
    assert_int_equal(q.kind, p->kind);
    assert_int_equal(q.sector_size, p->sector_size);
    assert_int_equal(q.api, p->api);
    assert_int_equal(q.have, p->have);
    assert_int_equal(q.n_sectors, p->n_sectors);
    return q;
}

static void test_prover_id(void **state)
{
    (void)state;
    uint8_t id[32], want[32] = {0xe8, 0x07};
    fil_prover_id(id, 1000);
    assert_memory_equal(id, want, 32);
    fil_prover_id(id, 0);
    memset(want, 0, 32);
    assert_memory_equal(id, want, 32);
    fil_prover_id(id, UINT64_MAX); /* ten bytes, the last 0x01 */
    for (int i = 0; i < 9; i++)
        assert_int_equal(id[i], 0xff);
    assert_int_equal(id[9], 0x01);
    assert_int_equal(id[10], 0);
}

static void test_porep(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_public_t p = porep_values();
    fil_public_t q = roundtrip(&p);
    assert_memory_equal(q.replica_id, p.replica_id, 32);
    assert_memory_equal(q.seed, p.seed, 32);
    assert_int_equal(fil_public_partitions(&q), 1);
    fr_t a[3 + 18 * 2], b[3 + 18 * 2];
    size_t na = 0, nb = 0;
    assert_int_equal(fil_public_inputs(a, 39, &na, &q, 0, &err), CUZK_OK);
    assert_int_equal(
        fil_porep_inputs(b, 39, &nb, p.seal, p.replica_id, p.comm_d, p.comm_r, p.seed, 0, &err),
        CUZK_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof a[0]);
    assert_int_equal(fil_public_inputs(a, 39, &na, &q, 1, &err), CUZK_ERR_ARG);
    fil_public_free(&q);

    /* a replica_id of another sector */
    p.sector_id++;
    assert_int_equal(fil_public_check(&p, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "replica_id"));
    p.sector_id--;
    p.seal = FIL_SEAL_8M_V1_1; /* not a 2 KiB proof */
    assert_int_equal(fil_public_check(&p, &err), CUZK_ERR_ARG);
    p.seal = FIL_SEAL_2K_V1_1;
    p.have &= ~(unsigned)FIL_PUB_SEED;
    assert_int_equal(fil_public_check(&p, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "\"seed\""));
}

static void test_post(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_post_pub_sector_t sec[3];
    for (int i = 0; i < 3; i++) {
        sec[i].id = 10 + (uint64_t)i;
        rand32(sec[i].comm_r);
    }
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_WINDOW_POST;
    p.sector_size = 2048;
    p.api = FIL_API_1_2;
    rand32(p.randomness);
    p.sectors = sec;
    p.n_sectors = 3;
    p.have = FIL_PUB_RANDOMNESS | FIL_PUB_SECTORS;
    fil_public_t q = roundtrip(&p);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(q.sectors[i].id, sec[i].id);
        assert_memory_equal(q.sectors[i].comm_r, sec[i].comm_r, 32);
    }
    fil_post_params_t pp;
    assert_int_equal(fil_post_params(&pp, p.kind, 2048, p.api, &err), CUZK_OK);
    assert_int_equal(pp.sector_count, 2);
    assert_int_equal(fil_public_partitions(&q), 2);
    fr_t a[22], b[22];
    size_t na, nb;
    for (unsigned k = 0; k < 2; k++) {
        assert_int_equal(fil_public_inputs(a, 22, &na, &q, k, &err), CUZK_OK);
        assert_int_equal(fil_post_inputs(b, 22, &nb, &pp, p.randomness, sec, 3, k, &err), CUZK_OK);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na * sizeof a[0]);
    }
    fil_public_free(&q);
    /* one partition's own sectors: partition 1 holds sector 12 */
    p.sectors = &sec[2];
    p.n_sectors = 1;
    p.partition = 1;
    p.have |= FIL_PUB_PARTITION;
    q = roundtrip(&p);
    assert_int_equal(fil_public_partitions(&q), 1);
    assert_int_equal(fil_public_inputs(a, 22, &na, &q, 0, &err), CUZK_OK);
    assert_memory_equal(a, b, na * sizeof a[0]); /* partition 1 of the whole list */
    fil_public_free(&q);

    /* WinningPoSt: one sector, 66 places */
    p.kind = FIL_CIRCUIT_WINNING_POST;
    p.have &= ~(unsigned)FIL_PUB_PARTITION;
    p.sectors = sec;
    p.n_sectors = 2;
    assert_int_equal(fil_public_check(&p, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "one sector"));
    p.n_sectors = 1;
    q = roundtrip(&p);
    fr_t w[132];
    assert_int_equal(fil_public_inputs(w, 132, &na, &q, 0, &err), CUZK_OK);
    assert_int_equal(na, 132);
    fil_public_free(&q);
}

static void test_snap(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    fil_public_t p;
    memset(&p, 0, sizeof p);
    p.kind = FIL_CIRCUIT_SNAP_DEALS;
    p.sector_size = 2048;
    rand32(p.comm_r_old);
    rand32(p.comm_d_new);
    rand32(p.comm_r_new);
    p.have = FIL_PUB_COMM_R_OLD | FIL_PUB_COMM_D_NEW | FIL_PUB_COMM_R_NEW | FIL_PUB_H |
             FIL_PUB_PARTITION;
    fil_update_shape_t sh;
    assert_int_equal(fil_update_shape_init(&sh, FIL_UPDATE_SHA, 64, &err), CUZK_OK);
    p.h = sh.hs[0];
    fil_public_t q = roundtrip(&p);
    fr_t a[4], b[4], r_old, d_new, r_new;
    size_t na;
    assert_int_equal(fil_public_inputs(a, 4, &na, &q, 0, &err), CUZK_OK);
    assert_int_equal(na, 4);
    assert_int_equal(fr_from_le(&r_old, p.comm_r_old), CUZK_OK);
    assert_int_equal(fr_from_le(&d_new, p.comm_d_new), CUZK_OK);
    assert_int_equal(fr_from_le(&r_new, p.comm_r_new), CUZK_OK);
    assert_int_equal(fil_update_public_inputs(b, &sh, 0, p.h, &r_old, &d_new, &r_new, &err),
                     CUZK_OK);
    assert_memory_equal(a, b, sizeof a);
    fil_public_free(&q);
    p.partition = sh.partitions;
    assert_int_equal(fil_public_check(&p, &err), CUZK_ERR_ARG);
    p.partition = 0;
    p.have &= ~(unsigned)FIL_PUB_PARTITION; /* the whole proof */
    assert_int_equal(fil_public_check(&p, &err), CUZK_OK);
    assert_int_equal(fil_public_partitions(&p), sh.partitions);
    p.have &= ~(unsigned)FIL_PUB_H;
    assert_int_equal(fil_public_check(&p, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "\"h\""));
}

/* Every refusal names what is wrong. */
static void test_bad_json(void **state)
{
    (void)state;
    static const char H[] = "\"0000000000000000000000000000000000000000000000000000000000000000\"";
    static const struct {
        const char *json, *msg;
    } cases[] = {
        {"", "not a JSON object"},
        {"[1]", "not a JSON object"},
        {"{\"kind\": \"window-post\", \"sector_size\": 2048}", "\"randomness\""},
        {"{\"sector_size\": 2048}", "kind"},
        {"{\"kind\": \"nope\", \"sector_size\": 2048}", "unknown circuit"},
        {"{\"kind\": \"porep\", \"sector_size\": 2049}", "not a Filecoin sector size"},
        {"{\"kind\": \"porep\", \"sector_size\": 2048, \"colour\": 1}", "unknown member"},
        {"{\"kind\": \"porep\", \"kind\": \"porep\", \"sector_size\": 2048}", "twice"},
        {"{\"kind\": \"porep\", \"sector_size\": 2048, \"seed\": \"00\"}", "64 hex"},
        {"{\"kind\": \"porep\", \"sector_size\": 2048, \"seed\": "
         "\"000000000000000000000000000000000000000000000000000000000000000g\"}",
         "non-hex"},
        {"{\"kind\": \"porep\", \"sector_size\": 2048, \"miner_id\": -1}", "whole number"},
        {"{\"kind\": \"porep\", \"sector_size\": 2048, \"miner_id\": 1.5}", "whole number"},
        {"{\"kind\": \"porep\", \"sector_size\": 2048, \"registered_proof\": \"X\"}", "X"},
        {"{\"kind\": \"window-post\", \"sector_size\": 2048, \"sectors\": []}", "empty"},
        {"{\"kind\": \"window-post\", \"sector_size\": 2048, \"sectors\": [{\"id\": 1}]}",
         "sectors[0]"},
        {"{\"kind\": \"window-post\", \"sector_size\": 2048, \"randomness\": "
         "%H%"
         "}",
         "\"sectors\""},
        /* a seal proof on a PoSt: refused (it would not be written back) */
        {"{\"kind\": \"window-post\", \"sector_size\": 2048, \"registered_proof\": "
         "\"StackedDrg2KiBV1_1\", \"sectors\": [{\"id\": 1, \"comm_r\": "
         "\"0000000000000000000000000000000000000000000000000000000000000001\"}], \"randomness\": "
         "%H%"
         "}",
         "belongs to porep"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fil_public_t p;
        cuzk_error_t err = {0};
        const char *j = cases[i].json;
        char buf[512];
        const char *at = strstr(j, "%H%");
        if (at) { /* randomness but no sectors */
            snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - j), j, H, at + 3);
            j = buf;
        }
        assert_int_not_equal(fil_public_parse(&p, (const uint8_t *)j, strlen(j), &err), CUZK_OK);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].msg);
        assert_null(p.sectors);
    }
}

int main(void)
{
    tu_init("test_filecoin_public");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prover_id), cmocka_unit_test(test_porep),
        cmocka_unit_test(test_post),      cmocka_unit_test(test_snap),
        cmocka_unit_test(test_bad_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
