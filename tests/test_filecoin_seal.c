/* The sealer (include/cuzk/filecoin_seal.h): a 2 KiB sector under both
 * graph rules (V1, V1_1; and the synthetic and NI proofs) against a slow reference built from the
 * public primitives (merkle.c's trees, fil_graph_parents, fil_create_label), the published
 * zero-piece comm_d, the real 2 KiB PoRep circuit (every challenge of partition 0, CS_CHECK) and
 * the 2 KiB WindowPoSt circuit of two sealed sectors; a changed data node, determinism, bad
 * arguments. An 8 MiB sealing runs when CUZK_SLOW is set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cmocka.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/filecoin_vanilla.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

/* The zero-piece commitments (comm_d of an all-zero sector), the table
 * Filecoin implementations share (lotus and go-commp-utils zerocomm
 * PieceComms; read here from cpp-filecoin's copy): entry log2(bytes) - 7. */
static const char ZERO_COMM_D_2K[] =
    "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833";
static const char ZERO_COMM_D_8M[] =
    "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c";

static uint8_t PROVER_ID[32], TICKET[32], SEED[32], RANDOMNESS[32];

static void hex32(uint8_t out[32], const char *hex)
{
    for (int i = 0; i < 32; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static fil_sealed_t *seal(fil_seal_proof p, uint64_t sector_id, const fr_t *data, uint64_t seed)
{
    fil_sealed_t *s = NULL;
    cuzk_error_t err = {0};
    if (fil_seal(&s, p, PROVER_ID, sector_id, TICKET, data, seed, 2, &err) != CUZK_OK)
        fail_msg("fil_seal: %s", err.msg);
    return s;
}

static void fr_bytes(uint8_t out[32], const fr_t *x)
{
    fr_to_le(out, x);
}

/* ---- the slow reference ------------------------------------------------- */

/* Every label, column, replica node and commitment of s recomputed one
 * node at a time from the public primitives (as test_filecoin_porep.c's
 * sealing does), compared with the sealer's. */
static void check_reference(const fil_sealed_t *s)
{
    cuzk_error_t err = {0};
    const fil_seal_info_t *info = fil_sealed_info(s);
    uint64_t n = info->nodes;
    unsigned L = info->layers;
    fr_t *data = malloc(n * sizeof *data), *col = malloc(n * sizeof *col);
    fr_t *rep = malloc(n * sizeof *rep);
    uint8_t(*lb)[32] = malloc(L * n * 32);
    assert_true(data && col && rep && lb);
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(fil_sealed_data(&data[i], s, i, &err), CUZK_OK);
    /* comm_d, then replica_id from it (seal.rs, params.rs) */
    fil_merkle_tree_t *t = NULL;
    fil_tree_shape_t dshape = {FIL_HASHER_SHA256, 2, 0, 0}, rshape;
    assert_int_equal(fil_merkle_tree_build(&t, &dshape, data, n, &err), CUZK_OK);
    fr_t want, got;
    fil_merkle_tree_root(&want, t);
    fil_merkle_tree_free(t);
    fil_sealed_comm_d(&got, s);
    assert_true(fr_equal(&want, &got));
    uint8_t comm_d[32], porep_id[32], rid[32], rid_got[32];
    fr_bytes(comm_d, &want);
    assert_int_equal(fil_porep_id(porep_id, info->proof, &err), CUZK_OK);
    assert_int_equal(
        fil_replica_id(rid, PROVER_ID, fil_sealed_sector_id(s), TICKET, comm_d, porep_id, &err),
        CUZK_OK);
    fil_sealed_replica_id(&got, s);
    fr_bytes(rid_got, &got);
    assert_memory_equal(rid, rid_got, 32);
    /* labels, parents straight from the graph */
    fil_graph_t g;
    assert_int_equal(fil_graph_init_seal(&g, info->proof, &err), CUZK_OK);
    for (unsigned l = 1; l <= L; l++)
        for (uint64_t i = 0; i < n; i++) {
            uint8_t *out = lb[(l - 1) * n + i];
            if (i == 0) {
                assert_int_equal(fil_create_label(out, rid, l, 0, NULL, &err), CUZK_OK);
            } else {
                uint32_t p[FIL_DEGREE];
                assert_int_equal(fil_graph_parents(p, &g, i, &err), CUZK_OK);
                const uint8_t *par[FIL_DEGREE], *expanded[FIL_LABEL_PARENTS];
                unsigned np = l == 1 ? FIL_DRG_DEGREE : FIL_DEGREE;
                for (unsigned k = 0; k < np; k++)
                    par[k] = lb[(k < FIL_DRG_DEGREE ? l - 1 : l - 2) * n + p[k]];
                for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
                    expanded[k] = par[k % np];
                assert_int_equal(fil_create_label(out, rid, l, i, expanded, &err), CUZK_OK);
            }
            uint8_t got_b[32];
            assert_int_equal(fil_sealed_label(&got, s, l, i, &err), CUZK_OK);
            fr_bytes(got_b, &got);
            if (memcmp(got_b, out, 32) != 0)
                fail_msg("%s: label (%u, %llu) differs", info->name, l, (unsigned long long)i);
        }
    /* columns and the replica */
    const poseidon_constants_t *pc = NULL, *c2 = NULL;
    assert_int_equal(poseidon_constants_get(&pc, L, &err), CUZK_OK);
    for (uint64_t i = 0; i < n; i++) {
        fr_t row[FIL_POREP_MAX_LAYERS];
        for (unsigned l = 0; l < L; l++)
            assert_int_equal(fr_from_le(&row[l], lb[l * n + i]), CUZK_OK);
        assert_int_equal(poseidon_hash(&col[i], pc, row, L, POSEIDON_PLAIN, &err), CUZK_OK);
        fr_add(&rep[i], &data[i], &row[L - 1]);
        assert_int_equal(fil_sealed_replica(&got, s, i, &err), CUZK_OK);
        assert_true(fr_equal(&got, &rep[i]));
    }
    assert_int_equal(fil_sector_tree(&rshape, info->sector_size, &err), CUZK_OK);
    fr_t comm_c, comm_r_last, comm_r;
    assert_int_equal(fil_merkle_tree_build(&t, &rshape, col, n, &err), CUZK_OK);
    fil_merkle_tree_root(&comm_c, t);
    fil_merkle_tree_free(t);
    assert_int_equal(fil_merkle_tree_build(&t, &rshape, rep, n, &err), CUZK_OK);
    fil_merkle_tree_root(&comm_r_last, t);
    fil_merkle_tree_free(t);
    fil_sealed_comm_c(&got, s);
    assert_true(fr_equal(&got, &comm_c));
    fil_sealed_comm_r_last(&got, s);
    assert_true(fr_equal(&got, &comm_r_last));
    /* comm_r = Poseidon-2(comm_c, comm_r_last) */
    fr_t pair[2] = {comm_c, comm_r_last};
    assert_int_equal(poseidon_constants_get(&c2, 2, &err), CUZK_OK);
    assert_int_equal(poseidon_hash(&comm_r, c2, pair, 2, POSEIDON_PLAIN, &err), CUZK_OK);
    fil_sealed_comm_r(&got, s);
    assert_true(fr_equal(&got, &comm_r));
    free(data);
    free(col);
    free(rep);
    free(lb);
}

/* ---- the PoRep circuit -------------------------------------------------- */

/* The circuit's shape from the proof's row and fil_sector_tree alone. */
static void porep_shape(fil_porep_shape_t *shape, const fil_seal_info_t *info)
{
    shape->nodes = info->nodes;
    assert_int_equal(fil_sector_tree(&shape->tree, info->sector_size, NULL), CUZK_OK);
    shape->layers = info->layers;
    shape->challenges = info->challenges_per_partition;
}

/* Partition 0's challenges as the proof's kind draws them: interactive
 * from SEED, synthetic from SEED among the default synthetic challenges,
 * non-interactive from comm_r. */
static void partition0(uint64_t *cs_idx, const fil_sealed_t *s)
{
    const fil_seal_info_t *info = fil_sealed_info(s);
    fr_t rid, comm_r;
    uint8_t rid_b[32], comm_r_b[32];
    fil_sealed_replica_id(&rid, s);
    fil_sealed_comm_r(&comm_r, s);
    fr_bytes(rid_b, &rid);
    fr_bytes(comm_r_b, &comm_r);
    size_t n = info->challenges_per_partition;
    cuzk_status st;
    switch (info->kind) {
    case FIL_POREP_SYNTHETIC:
        st = fil_porep_synth_challenges(cs_idx, n, info->nodes, 0, rid_b, comm_r_b, SEED, 0, NULL);
        break;
    case FIL_POREP_NON_INTERACTIVE:
        st = fil_porep_ni_challenges(cs_idx, n, info->nodes, rid_b, comm_r_b, 0, NULL);
        break;
    default: st = fil_porep_challenges(cs_idx, n, info->nodes, rid_b, SEED, 0, NULL); break;
    }
    assert_int_equal(st, CUZK_OK);
}

/* Synthesizes the partition in CS_CHECK; returns whether every constraint
 * holds (the first failing one is printed when `expect_ok`). */
static int porep_check(const fil_porep_shape_t *shape, const fil_porep_public_t *pub,
                       const fil_porep_challenge_t *ch, cs_t **keep, int expect_ok)
{
    cs_t *cs = NULL;
    cuzk_error_t err = {0};
    assert_int_equal(cs_new(&cs, CS_CHECK, &err), CUZK_OK);
    fil_cs_porep(cs, shape, pub, ch);
    uint64_t row;
    char where[256];
    /* a failed check is also the cs's sticky error: any other is a bug */
    int bad = cs_unsatisfied(&row, where, sizeof where, cs);
    if (!bad && cs_status(cs, &err) != CUZK_OK)
        fail_msg("porep circuit: %s", err.msg);
    if (bad && expect_ok)
        print_message("constraint %llu fails: %s\n", (unsigned long long)row, where);
    if (keep)
        *keep = cs;
    else
        cs_free(cs);
    return !bad;
}

/* The public inputs generate_public_inputs lists: replica_id, comm_d,
 * comm_r, then per challenge comm_d's path index, the 14 parents, the
 * challenge, its comm_r_last and comm_c path indices. */
static void check_porep_inputs(const cs_t *cs, const fil_sealed_t *s, const uint64_t *cs_idx)
{
    const fil_seal_info_t *info = fil_sealed_info(s);
    unsigned nch = info->challenges_per_partition;
    fil_porep_public_t pub;
    fil_sealed_porep_public(&pub, s);
    size_t n_in;
    const fr_t *in = cs_input_values(cs, &n_in);
    assert_int_equal(n_in, 4 + 18 * nch);
    assert_true(fr_equal(&in[1], &pub.replica_id));
    assert_true(fr_equal(&in[2], &pub.comm_d));
    assert_true(fr_equal(&in[3], &pub.comm_r));
    fil_graph_t g;
    assert_int_equal(fil_graph_init_seal(&g, info->proof, NULL), CUZK_OK);
    for (unsigned i = 0; i < nch; i++) {
        const fr_t *ci = &in[4 + 18 * i];
        uint32_t p[FIL_DEGREE];
        assert_int_equal(fil_graph_parents(p, &g, cs_idx[i], NULL), CUZK_OK);
        fr_t want;
        fr_from_u64(&want, cs_idx[i]);
        assert_true(fr_equal(&ci[0], &want));
        for (unsigned k = 0; k < FIL_DEGREE; k++) {
            fr_t pk;
            fr_from_u64(&pk, p[k]);
            assert_true(fr_equal(&ci[1 + k], &pk));
        }
        assert_true(fr_equal(&ci[15], &want));
        assert_true(fr_equal(&ci[16], &want));
        assert_true(fr_equal(&ci[17], &want));
    }
}

/* Every challenge of partition 0 satisfies the real circuit of s's size;
 * the inputs are as above; a wrong parent label fails. */
static void check_porep(const fil_sealed_t *s)
{
    const fil_seal_info_t *info = fil_sealed_info(s);
    fil_porep_shape_t shape, from_s;
    porep_shape(&shape, info);
    fil_sealed_porep_shape(&from_s, s);
    assert_memory_equal(&shape, &from_s, sizeof shape);
    unsigned nch = info->challenges_per_partition;
    uint64_t *cs_idx = calloc(nch, sizeof *cs_idx);
    fil_porep_challenge_t *ch = calloc(nch, sizeof *ch);
    assert_true(cs_idx && ch);
    partition0(cs_idx, s);
    cuzk_error_t err = {0};
    for (unsigned i = 0; i < nch; i++)
        if (fil_sealed_porep_challenge(&ch[i], s, cs_idx[i], &err) != CUZK_OK)
            fail_msg("challenge %llu: %s", (unsigned long long)cs_idx[i], err.msg);
    fil_porep_public_t pub;
    fil_sealed_porep_public(&pub, s);
    cs_t *cs = NULL;
    if (!porep_check(&shape, &pub, ch, &cs, 1))
        fail_msg("%s: partition 0 does not satisfy the PoRep circuit", info->name);
    check_porep_inputs(cs, s, cs_idx);
    cs_free(cs);
    fr_add(&ch[0].exp_cols[3][0], &ch[0].exp_cols[3][0], &FR_ONE);
    assert_false(porep_check(&shape, &pub, ch, NULL, 0));
    free(ch);
    free(cs_idx);
}

static void test_seal_2k(void **state)
{
    (void)state;
    /* both graph rules (1.0.0, 1.1.0), and the 1.2.0 proofs, which seal
     * alike and draw their challenges otherwise */
    static const fil_seal_proof proofs[] = {FIL_SEAL_2K_V1, FIL_SEAL_2K_V1_1,
                                            FIL_SEAL_2K_V1_1_SYNTH, FIL_SEAL_2K_V1_2_NI};
    fr_t comm_r[4];
    for (size_t k = 0; k < 4; k++) {
        double t0 = now_s();
        fil_sealed_t *s = seal(proofs[k], 7, NULL, 42);
        print_message("%s: sealed in %.3f s (dense %llu bytes)\n", fil_sealed_info(s)->name,
                      now_s() - t0, (unsigned long long)fil_seal_dense_bytes(proofs[k]));
        assert_int_equal(fil_sealed_info(s)->proof, proofs[k]);
        check_reference(s);
        check_porep(s);
        fil_sealed_comm_r(&comm_r[k], s);
        fil_sealed_free(s);
    }
    /* the porep ids differ, so do the replica ids, labels and comm_r */
    for (size_t i = 0; i < 4; i++)
        for (size_t k = i + 1; k < 4; k++)
            assert_false(fr_equal(&comm_r[i], &comm_r[k]));
}

/* A node of the seeded data is SHA-256(seed u64 LE || node u64 LE),
 * trimmed to 254 bits (filecoin_seal.h). */
static void test_seeded_data(void **state)
{
    (void)state;
    fil_sealed_t *s = seal(FIL_SEAL_2K_V1_1, 1, NULL, 0x0102030405060708ull);
    for (uint64_t i = 0; i < 64; i += 9) {
        uint8_t msg[16], d[32], got_b[32];
        for (int k = 0; k < 8; k++) {
            msg[k] = (uint8_t)(0x0102030405060708ull >> (8 * k));
            msg[8 + k] = (uint8_t)(i >> (8 * k));
        }
        assert_int_equal(fil_sha256_hash(d, msg, 16, NULL), CUZK_OK);
        fr_t got;
        assert_int_equal(fil_sealed_data(&got, s, i, NULL), CUZK_OK);
        fr_bytes(got_b, &got);
        assert_memory_equal(d, got_b, 32);
    }
    fil_sealed_free(s);
}

/* An all-zero (committed-capacity) sector has the published comm_d. */
static void check_zero_comm_d(fil_seal_proof p, const char *hex)
{
    const fil_seal_info_t *info = fil_seal_info(p);
    fr_t *zero = calloc(info->nodes, sizeof *zero);
    assert_non_null(zero);
    fil_sealed_t *s = seal(p, 3, zero, 0);
    uint8_t want[32], got[32];
    fr_t c;
    hex32(want, hex);
    fil_sealed_comm_d(&c, s);
    fr_bytes(got, &c);
    assert_memory_equal(want, got, 32);
    fil_sealed_free(s);
    free(zero);
}

static void test_zero_comm_d(void **state)
{
    (void)state;
    check_zero_comm_d(FIL_SEAL_2K_V1_1, ZERO_COMM_D_2K);
    check_zero_comm_d(FIL_SEAL_2K_V1, ZERO_COMM_D_2K);
}

/* ---- PoSt --------------------------------------------------------------- */

/* The WindowPoSt vanilla proof of sector `index` of a partition: 10 leaf
 * challenges (fallback/vanilla.rs), each path verifies to comm_r_last and
 * holds the replica node it names. */
/* The 10 WindowPoSt leaf challenges of sector `index` of a partition. */
static void post_leaves(uint64_t leaves[10], const fil_seal_info_t *info, uint64_t sector_id,
                        uint64_t index)
{
    for (uint64_t n = 0; n < 10; n++)
        assert_int_equal(fil_post_leaf_challenge(&leaves[n], RANDOMNESS, sector_id,
                                                 fil_post_challenge_index(info->api, index, 10, n),
                                                 info->nodes, NULL),
                         CUZK_OK);
}

static void post_vproof(fil_post_vproof_t *vp, uint64_t leaves[10], const fil_sealed_t *s,
                        uint64_t index)
{
    const fil_seal_info_t *info = fil_sealed_info(s);
    post_leaves(leaves, info, fil_sealed_sector_id(s), index);
    cuzk_error_t err = {0};
    if (fil_sealed_post_vproof(vp, s, leaves, 10, &err) != CUZK_OK)
        fail_msg("post vproof: %s", err.msg);
    fr_t comm_r_last, comm_r, comm_c, x;
    fil_sealed_comm_r_last(&comm_r_last, s);
    fil_sealed_comm_r(&comm_r, s);
    fil_sealed_comm_c(&comm_c, s);
    assert_int_equal(vp->n_proofs, 10);
    assert_true(vp->sector_id == fil_sealed_sector_id(s));
    assert_true(fr_equal(&vp->comm_r, &comm_r));
    assert_true(fr_equal(&vp->comm_c, &comm_c));
    assert_true(fr_equal(&vp->comm_r_last, &comm_r_last));
    fil_tree_shape_t shape;
    assert_int_equal(fil_sector_tree(&shape, info->sector_size, NULL), CUZK_OK);
    assert_memory_equal(&vp->shape, &shape, sizeof shape);
    for (unsigned i = 0; i < 10; i++) {
        const fil_merkle_path_t *p = &vp->paths[i];
        assert_int_equal(fil_merkle_path_compute_root(&x, FIL_HASHER_POSEIDON, p, NULL), CUZK_OK);
        assert_true(fr_equal(&x, &comm_r_last));
        assert_true(fr_equal(&p->root, &comm_r_last));
        assert_true(fil_merkle_path_leaf_index(p) == leaves[i]);
        assert_int_equal(fil_sealed_replica(&x, s, leaves[i], NULL), CUZK_OK);
        assert_true(fr_equal(&x, &p->leaf));
    }
}

static int paths_equal(const fil_merkle_path_t *a, const fil_merkle_path_t *b)
{
    if (a->n_levels != b->n_levels || !fr_equal(&a->leaf, &b->leaf) ||
        !fr_equal(&a->root, &b->root))
        return 0;
    for (unsigned l = 0; l < a->n_levels; l++) {
        const fil_merkle_level_t *x = &a->level[l], *y = &b->level[l];
        if (x->arity != y->arity || x->index != y->index)
            return 0;
        for (unsigned k = 0; k + 1 < x->arity; k++)
            if (!fr_equal(&x->siblings[k], &y->siblings[k]))
                return 0;
    }
    return 1;
}

/* The proof as Curio would send it: written as bincode
 * FallbackPoStSectorProof and parsed back (vanilla_post.c), unchanged. */
static void check_bincode(const fil_post_vproof_t *vp)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    cuzk_error_t err = {0};
    if (fil_post_vproof_write(&buf, &n, vp, &err) != CUZK_OK)
        fail_msg("fil_post_vproof_write: %s", err.msg);
    fil_post_vproof_t *back = malloc(sizeof *back);
    assert_non_null(back);
    if (fil_post_vproof_parse(back, buf, n, &err) != CUZK_OK)
        fail_msg("fil_post_vproof_parse: %s", err.msg);
    assert_true(back->sector_id == vp->sector_id);
    assert_true(fr_equal(&back->comm_r, &vp->comm_r));
    assert_true(fr_equal(&back->comm_c, &vp->comm_c));
    assert_true(fr_equal(&back->comm_r_last, &vp->comm_r_last));
    assert_int_equal(back->n_proofs, vp->n_proofs);
    assert_memory_equal(&back->shape, &vp->shape, sizeof vp->shape);
    for (unsigned i = 0; i < vp->n_proofs; i++)
        assert_true(paths_equal(&back->paths[i], &vp->paths[i]));
    free(back);
    free(buf);
}

static void post_sector(fil_post_sector_t *ps, const fil_post_vproof_t *vp)
{
    memset(ps, 0, sizeof *ps);
    ps->comm_r = vp->comm_r;
    ps->comm_c = vp->comm_c;
    ps->comm_r_last = vp->comm_r_last;
    for (unsigned i = 0; i < vp->n_proofs; i++) {
        ps->leafs[i] = vp->paths[i].leaf;
        ps->paths[i] = vp->paths[i];
    }
}

/* A 2 KiB WindowPoSt partition (fil_window_post_sectors sectors, 10
 * challenges each; circuits.c synth_post's shape) of real sealed sectors
 * satisfies the circuit; its inputs are per sector comm_r and the 10
 * challenged leaves' numbers (por.rs packs the path bits); a wrong leaf
 * fails. Each sector proof survives a bincode round trip. */
static fil_sealed_t *seal_sparse(fil_seal_proof p, uint64_t sector_id, const uint8_t *seed,
                                 const uint64_t *leaves, size_t n_leaves)
{
    fil_sealed_t *s = NULL;
    cuzk_error_t err = {0};
    if (fil_seal_sparse(&s, p, PROVER_ID, sector_id, TICKET, seed, leaves, n_leaves, 2, &err) !=
        CUZK_OK)
        fail_msg("fil_seal_sparse: %s", err.msg);
    return s;
}

static void window_post_2k(int sparse)
{
    unsigned sectors;
    assert_int_equal(fil_window_post_sectors(&sectors, 2048, NULL), CUZK_OK);
    assert_int_equal(sectors, 2);
    fil_post_shape_t shape = {64, {FIL_HASHER_POSEIDON, 8, 0, 0}, 10};
    assert_int_equal(fil_sector_tree(&shape.tree, 2048, NULL), CUZK_OK);
    fil_post_sector_t ps[2];
    uint64_t leaves[2][10];
    fil_post_vproof_t *vp = malloc(sizeof *vp);
    assert_non_null(vp);
    for (unsigned i = 0; i < 2; i++) {
        fil_sealed_t *s;
        if (sparse) {
            post_leaves(leaves[i], fil_seal_info(FIL_SEAL_2K_V1_1), 100 + i, i);
            s = seal_sparse(FIL_SEAL_2K_V1_1, 100 + i, NULL, leaves[i], 10);
        } else
            s = seal(FIL_SEAL_2K_V1_1, 100 + i, NULL, 1000 + i);
        post_vproof(vp, leaves[i], s, i);
        check_bincode(vp);
        post_sector(&ps[i], vp);
        fil_sealed_free(s);
    }
    free(vp);
    for (int corrupt = 0; corrupt < 2; corrupt++) {
        if (corrupt)
            fr_add(&ps[1].leafs[4], &ps[1].leafs[4], &FR_ONE);
        cs_t *cs = NULL;
        cuzk_error_t err = {0};
        assert_int_equal(cs_new(&cs, CS_CHECK, &err), CUZK_OK);
        for (unsigned i = 0; i < 2; i++)
            fil_cs_post_sector(cs, &shape, &ps[i]);
        uint64_t row;
        char where[256];
        int bad = cs_unsatisfied(&row, where, sizeof where, cs);
        if (!bad && cs_status(cs, &err) != CUZK_OK)
            fail_msg("post circuit: %s", err.msg);
        if (!corrupt && bad)
            fail_msg("window post: constraint %llu fails: %s", (unsigned long long)row, where);
        assert_int_equal(bad, corrupt);
        size_t n_in;
        const fr_t *in = cs_input_values(cs, &n_in);
        assert_int_equal(n_in, 1 + 2 * 11);
        for (unsigned i = 0; i < 2; i++) {
            assert_true(fr_equal(&in[1 + 11 * i], &ps[i].comm_r));
            for (unsigned n = 0; n < 10; n++) {
                fr_t want;
                fr_from_u64(&want, leaves[i][n]);
                assert_true(fr_equal(&in[2 + 11 * i + n], &want));
            }
        }
        cs_free(cs);
    }
}

static void test_window_post_2k(void **state)
{
    (void)state;
    window_post_2k(0);
}

/* ---- data changes, determinism ------------------------------------------ */

static void test_changed_data(void **state)
{
    (void)state;
    fil_sealed_t *a = seal(FIL_SEAL_2K_V1_1, 9, NULL, 5);
    uint64_t n = fil_sealed_info(a)->nodes;
    fr_t *data = malloc(n * sizeof *data);
    assert_non_null(data);
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(fil_sealed_data(&data[i], a, i, NULL), CUZK_OK);
    /* the same nodes passed in seal to the same sector */
    fil_sealed_t *b = seal(FIL_SEAL_2K_V1_1, 9, data, 0);
    fil_porep_public_t pa, pb;
    fil_sealed_porep_public(&pa, a);
    fil_sealed_porep_public(&pb, b);
    assert_memory_equal(&pa, &pb, sizeof pa);
    fil_sealed_free(b);
    /* one node changed: comm_d, replica_id and comm_r change */
    fr_from_u64(&data[33], 12345);
    fil_sealed_t *c = seal(FIL_SEAL_2K_V1_1, 9, data, 0);
    fil_porep_public_t pc;
    fil_sealed_porep_public(&pc, c);
    assert_false(fr_equal(&pa.comm_d, &pc.comm_d));
    assert_false(fr_equal(&pa.replica_id, &pc.replica_id));
    assert_false(fr_equal(&pa.comm_r, &pc.comm_r));
    /* a's proof of a challenge does not prove c's sector, and its comm_d
     * path does not lead to c's comm_d */
    fil_porep_shape_t shape;
    fil_sealed_porep_shape(&shape, a);
    fil_porep_challenge_t *ch = calloc(shape.challenges, sizeof *ch);
    uint64_t *idx = calloc(shape.challenges, sizeof *idx);
    assert_true(ch && idx);
    partition0(idx, a);
    for (unsigned i = 0; i < shape.challenges; i++)
        assert_int_equal(fil_sealed_porep_challenge(&ch[i], a, idx[i], NULL), CUZK_OK);
    assert_true(porep_check(&shape, &pa, ch, NULL, 1));
    assert_false(porep_check(&shape, &pc, ch, NULL, 0));
    fil_porep_challenge_t one;
    assert_int_equal(fil_sealed_porep_challenge(&one, a, 33, NULL), CUZK_OK);
    fr_t root;
    assert_int_equal(fil_merkle_path_compute_root(&root, FIL_HASHER_SHA256, &one.comm_d_path, NULL),
                     CUZK_OK);
    assert_true(fr_equal(&root, &pa.comm_d));
    assert_false(fr_equal(&root, &pc.comm_d));
    free(ch);
    free(idx);
    free(data);
    fil_sealed_free(a);
    fil_sealed_free(c);
}

static void test_deterministic(void **state)
{
    (void)state;
    fil_sealed_t *a = seal(FIL_SEAL_2K_V1, 11, NULL, 77);
    fil_sealed_t *b = seal(FIL_SEAL_2K_V1, 11, NULL, 77);
    fil_sealed_t *c = seal(FIL_SEAL_2K_V1, 11, NULL, 78);
    fil_porep_public_t pa, pb, pc;
    fil_sealed_porep_public(&pa, a);
    fil_sealed_porep_public(&pb, b);
    fil_sealed_porep_public(&pc, c);
    assert_memory_equal(&pa, &pb, sizeof pa);
    for (unsigned l = 1; l <= 2; l++)
        for (uint64_t i = 0; i < 64; i++) {
            fr_t x, y;
            assert_int_equal(fil_sealed_label(&x, a, l, i, NULL), CUZK_OK);
            assert_int_equal(fil_sealed_label(&y, b, l, i, NULL), CUZK_OK);
            assert_true(fr_equal(&x, &y));
        }
    assert_false(fr_equal(&pa.comm_d, &pc.comm_d));
    assert_false(fr_equal(&pa.comm_r, &pc.comm_r));
    fil_sealed_free(a);
    fil_sealed_free(b);
    fil_sealed_free(c);
}

/* ---- bad arguments ------------------------------------------------------ */

static void expect(cuzk_status got, cuzk_status want, const cuzk_error_t *err, const char *word)
{
    if (got != want)
        fail_msg("expected status %d about \"%s\", got %d (%s)", (int)want, word, (int)got,
                 err->msg);
    if (!strstr(err->msg, word))
        fail_msg("message \"%s\" does not name \"%s\"", err->msg, word);
}

static void test_bad_args(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    static char dummy;
    fil_sealed_t *s = (fil_sealed_t *)(void *)&dummy; /* fil_seal must reset it to NULL */
    expect(fil_seal(&s, FIL_SEAL_COUNT, PROVER_ID, 1, TICKET, NULL, 0, 1, &err), CUZK_ERR_ARG, &err,
           "proof");
    assert_null(s);
    expect(fil_seal(&s, FIL_SEAL_2K_V1, NULL, 1, TICKET, NULL, 0, 1, &err), CUZK_ERR_ARG, &err,
           "prover_id");
    expect(fil_seal(&s, FIL_SEAL_32G_V1_1, PROVER_ID, 1, TICKET, NULL, 0, 1, &err),
           CUZK_ERR_UNSUPPORTED, &err, "sparse");
    assert_int_equal(fil_seal_dense_bytes(FIL_SEAL_COUNT), 0);
    /* a data node of 2^254: not fr32 data */
    fr_t data[64];
    memset(data, 0, sizeof data);
    uint8_t big[32] = {0};
    big[31] = 0x40;
    assert_int_equal(fr_from_le(&data[17], big), CUZK_OK);
    expect(fil_seal(&s, FIL_SEAL_2K_V1, PROVER_ID, 1, TICKET, data, 0, 1, &err), CUZK_ERR_ARG, &err,
           "data node 17");
    assert_null(s);
    big[31] = 0x3f; /* below 2^254: fr32 data */
    assert_int_equal(fr_from_le(&data[17], big), CUZK_OK);
    s = seal(FIL_SEAL_2K_V1, 1, data, 0);

    fil_porep_challenge_t ch;
    expect(fil_sealed_porep_challenge(&ch, s, 0, &err), CUZK_ERR_ARG, &err, "challenge 0");
    expect(fil_sealed_porep_challenge(&ch, s, 64, &err), CUZK_ERR_ARG, &err, "challenge 64");
    assert_int_equal(fil_sealed_porep_challenge(&ch, s, 63, &err), CUZK_OK);
    fil_post_vproof_t *vp = malloc(sizeof *vp);
    assert_non_null(vp);
    uint64_t leaves[FIL_POST_VPROOF_MAX_PROOFS + 1] = {0};
    char many[32];
    snprintf(many, sizeof many, "%u challenges", FIL_POST_VPROOF_MAX_PROOFS + 1);
    expect(fil_sealed_post_vproof(vp, s, leaves, 0, &err), CUZK_ERR_ARG, &err, "0 challenges");
    expect(fil_sealed_post_vproof(vp, s, leaves, FIL_POST_VPROOF_MAX_PROOFS + 1, &err),
           CUZK_ERR_ARG, &err, many);
    leaves[3] = 64;
    expect(fil_sealed_post_vproof(vp, s, leaves, 4, &err), CUZK_ERR_ARG, &err, "challenge 3");
    expect(fil_sealed_post_vproof(vp, s, NULL, 4, &err), CUZK_ERR_ARG, &err, "NULL");
    free(vp);
    fr_t x;
    expect(fil_sealed_label(&x, s, 0, 1, &err), CUZK_ERR_ARG, &err, "layer 0");
    expect(fil_sealed_label(&x, s, 3, 1, &err), CUZK_ERR_ARG, &err, "layer 3");
    expect(fil_sealed_label(&x, s, 1, 64, &err), CUZK_ERR_ARG, &err, "node 64");
    expect(fil_sealed_data(&x, s, 64, &err), CUZK_ERR_ARG, &err, "node 64");
    expect(fil_sealed_replica(&x, s, 99, &err), CUZK_ERR_ARG, &err, "node 99");
    fil_sealed_free(s);
    fil_sealed_free(NULL);
}

/* ---- sparse sealing ------------------------------------------------------ */

/* The all-zero SHA-256 tree's root over `nodes` leaves, one level at a
 * time from the primitive (not the sealer's zero hashes). */
static void zero_root(fr_t *out, uint64_t nodes)
{
    uint8_t z[32] = {0};
    for (uint64_t n = nodes; n > 1; n /= 2)
        assert_int_equal(fil_sha256_node(z, z, z, NULL), CUZK_OK);
    assert_int_equal(fr_from_le(out, z), CUZK_OK);
}

/* Every challenge of every partition of SEED: its labels are create_label
 * over its parents' labels as the sealer reads them (so a challenged
 * node's labels are real, whatever its parents' are), and its vanilla
 * proof's paths end in the commitments. Returns how many there were. */
static size_t check_sparse_challenges(const fil_sealed_t *s)
{
    const fil_seal_info_t *info = fil_sealed_info(s);
    fr_t rid, comm_d, comm_c, comm_r_last, x;
    uint8_t rid_b[32];
    fil_sealed_replica_id(&rid, s);
    fr_bytes(rid_b, &rid);
    fil_sealed_comm_d(&comm_d, s);
    fil_sealed_comm_c(&comm_c, s);
    fil_sealed_comm_r_last(&comm_r_last, s);
    fil_graph_t g;
    assert_int_equal(fil_graph_init_seal(&g, info->proof, NULL), CUZK_OK);
    fil_porep_challenge_t *ch = malloc(sizeof *ch);
    assert_non_null(ch);
    cuzk_error_t err = {0};
    size_t total = 0;
    for (unsigned k = 0; k < info->partitions; k++) {
        uint64_t c[256];
        size_t n = 0;
        assert_int_equal(fil_porep_challenges(c, info->challenges_per_partition, info->nodes, rid_b,
                                              SEED, k, NULL),
                         CUZK_OK);
        n = info->challenges_per_partition;
        for (size_t i = 0; i < n; i++, total++) {
            uint32_t p[FIL_DEGREE];
            assert_int_equal(fil_graph_parents(p, &g, c[i], NULL), CUZK_OK);
            for (unsigned l = 1; l <= info->layers; l++) {
                unsigned np = l == 1 ? FIL_DRG_DEGREE : FIL_DEGREE;
                uint8_t par[FIL_DEGREE][32], want[32], got[32];
                const uint8_t *exp[FIL_LABEL_PARENTS];
                for (unsigned j = 0; j < np; j++) {
                    assert_int_equal(
                        fil_sealed_label(&x, s, j < FIL_DRG_DEGREE ? l : l - 1, p[j], NULL),
                        CUZK_OK);
                    fr_bytes(par[j], &x);
                }
                for (unsigned j = 0; j < FIL_LABEL_PARENTS; j++)
                    exp[j] = par[j % np];
                assert_int_equal(fil_create_label(want, rid_b, l, c[i], exp, NULL), CUZK_OK);
                assert_int_equal(fil_sealed_label(&x, s, l, c[i], NULL), CUZK_OK);
                fr_bytes(got, &x);
                assert_memory_equal(got, want, 32);
            }
            if (fil_sealed_porep_challenge(ch, s, c[i], &err) != CUZK_OK)
                fail_msg("challenge %llu: %s", (unsigned long long)c[i], err.msg);
            const struct {
                const fil_merkle_path_t *p;
                fil_hasher h;
                const fr_t *root;
            } paths[3] = {{&ch->comm_d_path, FIL_HASHER_SHA256, &comm_d},
                          {&ch->comm_r_last_path, FIL_HASHER_POSEIDON, &comm_r_last},
                          {&ch->comm_c_path, FIL_HASHER_POSEIDON, &comm_c}};
            for (int t = 0; t < 3; t++) {
                assert_int_equal(fil_merkle_path_compute_root(&x, paths[t].h, paths[t].p, NULL),
                                 CUZK_OK);
                assert_true(fr_equal(&x, paths[t].root));
                assert_true(fil_merkle_path_leaf_index(paths[t].p) == c[i]);
            }
            for (unsigned j = 0; j < FIL_DEGREE; j++) {
                const fil_merkle_path_t *pp =
                    j < FIL_DRG_DEGREE ? &ch->drg_paths[j] : &ch->exp_paths[j - FIL_DRG_DEGREE];
                assert_int_equal(fil_merkle_path_compute_root(&x, FIL_HASHER_POSEIDON, pp, NULL),
                                 CUZK_OK);
                assert_true(fr_equal(&x, &comm_c));
                assert_true(fil_merkle_path_leaf_index(pp) == p[j]);
            }
            /* encoding: the replica node is the last label (data is zero) */
            fr_t lab;
            assert_int_equal(fil_sealed_label(&lab, s, info->layers, c[i], NULL), CUZK_OK);
            assert_true(fr_equal(&ch->comm_r_last_path.leaf, &lab));
            assert_true(fr_is_zero(&ch->data_leaf));
        }
    }
    free(ch);
    return total;
}

/* A sparse 2 KiB sealing: a committed-capacity sector (the published
 * zero comm_d); its trees, rebuilt densely from every leaf it answers,
 * have its roots; every challenge's labels are real and partition 0
 * satisfies the real circuit (a changed parent label fails it); its
 * PoSt proofs satisfy the PoSt circuit; synthetic and non-interactive
 * proofs are refused with a seed. */
static void test_sparse_2k(void **state)
{
    (void)state;
    static const fil_seal_proof proofs[] = {FIL_SEAL_2K_V1, FIL_SEAL_2K_V1_1};
    for (size_t k = 0; k < 2; k++) {
        uint64_t leaves[10];
        post_leaves(leaves, fil_seal_info(proofs[k]), 7, 0);
        fil_sealed_t *s = seal_sparse(proofs[k], 7, SEED, leaves, 10);
        const fil_seal_info_t *info = fil_sealed_info(s);
        uint8_t want[32], got[32];
        fr_t x, root;
        hex32(want, ZERO_COMM_D_2K);
        fil_sealed_comm_d(&x, s);
        fr_bytes(got, &x);
        assert_memory_equal(got, want, 32);
        /* tree_r_last and tree_d rebuilt from every leaf */
        fr_t *leaf = malloc(info->nodes * sizeof *leaf);
        assert_non_null(leaf);
        fil_tree_shape_t rshape;
        assert_int_equal(fil_sector_tree(&rshape, info->sector_size, NULL), CUZK_OK);
        size_t nonzero = 0;
        for (uint64_t i = 0; i < info->nodes; i++) {
            assert_int_equal(fil_sealed_replica(&leaf[i], s, i, NULL), CUZK_OK);
            nonzero += !fr_is_zero(&leaf[i]);
        }
        assert_true(nonzero > 0 && nonzero < info->nodes);
        fil_merkle_tree_t *t = NULL;
        assert_int_equal(fil_merkle_tree_build(&t, &rshape, leaf, info->nodes, NULL), CUZK_OK);
        fil_merkle_tree_root(&root, t);
        fil_sealed_comm_r_last(&x, s);
        assert_true(fr_equal(&root, &x));
        fil_merkle_tree_free(t);
        for (uint64_t i = 0; i < info->nodes; i++) {
            assert_int_equal(fil_sealed_data(&leaf[i], s, i, NULL), CUZK_OK);
            assert_true(fr_is_zero(&leaf[i]));
        }
        free(leaf);
        /* comm_r = Poseidon-2(comm_c, comm_r_last) */
        const poseidon_constants_t *c2;
        fr_t pair[2], comm_r;
        assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
        fil_sealed_comm_c(&pair[0], s);
        fil_sealed_comm_r_last(&pair[1], s);
        assert_int_equal(poseidon_hash(&x, c2, pair, 2, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
        fil_sealed_comm_r(&comm_r, s);
        assert_true(fr_equal(&x, &comm_r));
        assert_true(check_sparse_challenges(s) ==
                    (size_t)info->partitions * info->challenges_per_partition);
        check_porep(s);
        fil_post_vproof_t *vp = malloc(sizeof *vp);
        assert_non_null(vp);
        post_vproof(vp, leaves, s, 0);
        free(vp);
        fil_sealed_free(s);
    }
    window_post_2k(1);
    cuzk_error_t err = {0};
    fil_sealed_t *s = NULL;
    expect(
        fil_seal_sparse(&s, FIL_SEAL_2K_V1_1_SYNTH, PROVER_ID, 1, TICKET, SEED, NULL, 0, 1, &err),
        CUZK_ERR_UNSUPPORTED, &err, "comm_r");
    expect(fil_seal_sparse(&s, FIL_SEAL_2K_V1_2_NI, PROVER_ID, 1, TICKET, SEED, NULL, 0, 1, &err),
           CUZK_ERR_UNSUPPORTED, &err, "comm_r");
    assert_null(s);
    uint64_t far = 64;
    expect(fil_seal_sparse(&s, FIL_SEAL_2K_V1_1, PROVER_ID, 1, TICKET, NULL, &far, 1, 1, &err),
           CUZK_ERR_ARG, &err, "post_leaves[0]");
    expect(fil_seal_sparse(&s, FIL_SEAL_2K_V1_1, PROVER_ID, 1, TICKET, NULL, NULL, 1, 1, &err),
           CUZK_ERR_ARG, &err, "post_leaves");
    expect(fil_seal_sparse(&s, FIL_SEAL_COUNT, PROVER_ID, 1, TICKET, NULL, NULL, 0, 1, &err),
           CUZK_ERR_ARG, &err, "proof");
    /* without a seed, a synthetic proof seals (PoSt only) */
    s = seal_sparse(FIL_SEAL_2K_V1_1_SYNTH, 1, NULL, NULL, 0);
    fil_sealed_free(s);
}

/* 32 and 64 GiB: every PoRep challenge of SEED (180 at 32 GiB, each with
 * 11 real labels) and a sector's PoSt leaves, in well under a second;
 * comm_d is the all-zero tree's root. CUZK_SLOW adds partition 0 of the
 * 32 GiB sector through the real circuit (CS_CHECK: 130,278,541
 * constraints), and once more with a wrong parent label, which fails. */
static void test_sparse_large(void **state)
{
    (void)state;
    static const fil_seal_proof proofs[] = {FIL_SEAL_32G_V1_1, FIL_SEAL_64G_V1_1};
    for (size_t k = 0; k < 2; k++) {
        const fil_seal_info_t *info = fil_seal_info(proofs[k]);
        uint64_t leaves[10];
        post_leaves(leaves, info, 9, 3);
        double t0 = now_s();
        fil_sealed_t *s = seal_sparse(proofs[k], 9, SEED, leaves, 10);
        double sealed = now_s() - t0;
        fr_t want, got;
        zero_root(&want, info->nodes);
        fil_sealed_comm_d(&got, s);
        assert_true(fr_equal(&want, &got));
        size_t n = check_sparse_challenges(s);
        assert_true(n == (size_t)info->partitions * info->challenges_per_partition);
        fil_post_vproof_t *vp = malloc(sizeof *vp);
        assert_non_null(vp);
        post_vproof(vp, leaves, s, 3);
        check_bincode(vp);
        free(vp);
        print_message("%s: sparse sealing of %zu challenges and 10 PoSt leaves in %.3f s\n",
                      info->name, n, sealed);
        if (k == 0 && getenv("CUZK_SLOW")) {
            t0 = now_s();
            check_porep(s);
            print_message("%s: partition 0 (%u challenges) satisfies the real circuit, its "
                          "inputs as derived (checked twice in %.1f s, max RSS %ld KiB)\n",
                          info->name, info->challenges_per_partition, now_s() - t0, max_rss_kib());
        }
        fil_sealed_free(s);
    }
}

/* ---- 8 MiB (CUZK_SLOW) -------------------------------------------------- */

static void test_seal_8m(void **state)
{
    (void)state;
    if (!getenv("CUZK_SLOW")) {
        print_message("test_seal_8m: skipped (set CUZK_SLOW=1 to seal an 8 MiB sector)\n");
        return;
    }
    double t0 = now_s();
    fil_sealed_t *s = seal(FIL_SEAL_8M_V1_1, 8, NULL, 8);
    print_message("StackedDrg8MiBV1_1: sealed in %.2f s on 2 threads (dense %llu bytes, "
                  "max RSS %ld KiB)\n",
                  now_s() - t0, (unsigned long long)fil_seal_dense_bytes(FIL_SEAL_8M_V1_1),
                  max_rss_kib());
    t0 = now_s();
    check_porep(s);
    fil_post_vproof_t *vp = malloc(sizeof *vp);
    uint64_t leaves[10];
    assert_non_null(vp);
    post_vproof(vp, leaves, s, 0);
    free(vp);
    print_message("StackedDrg8MiBV1_1: partition 0 and a PoSt proof checked in %.2f s\n",
                  now_s() - t0);
    fil_sealed_free(s);
    check_zero_comm_d(FIL_SEAL_8M_V1, ZERO_COMM_D_8M);
}

int main(void)
{
    tu_init("test_filecoin_seal");
    for (int i = 0; i < 32; i++) {
        PROVER_ID[i] = (uint8_t)(i + 1);
        TICKET[i] = (uint8_t)(0xa0 ^ i);
        SEED[i] = (uint8_t)(3 * i + 7);
        RANDOMNESS[i] = (uint8_t)(0x55 + i);
    }
    PROVER_ID[31] &= 0x3f;
    RANDOMNESS[31] &= 0x3f;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seal_2k),      cmocka_unit_test(test_seeded_data),
        cmocka_unit_test(test_zero_comm_d),  cmocka_unit_test(test_window_post_2k),
        cmocka_unit_test(test_changed_data), cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_args),     cmocka_unit_test(test_sparse_2k),
        cmocka_unit_test(test_sparse_large), cmocka_unit_test(test_seal_8m),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
