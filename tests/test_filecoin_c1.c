/* The PoRep C1 output (include/cuzk/filecoin_c1.h) on a real sealing: a
 * 2 KiB StackedDrg2KiBV1_1 sector sealed here as rust-fil-proofs seals it
 * (the graph, labels, tree_d, tree_c, tree_r_last and comm_r of
 * filecoin_graph.h / filecoin_sha.h / filecoin_merkle.h) and its C1 made
 * as seal_commit_phase1 makes it (stacked/vanilla/proof.rs
 * prove_layers_generate: interactive challenges, parent columns, labeling
 * proofs with the 37 expanded parents, the encoding proof). Written, it
 * has serde_json's layout; parsed back, every field is the same; its
 * challenges satisfy the PoRep circuit in CS_CHECK mode; Curio's envelope
 * round-trips (its base64 checked with OpenSSL's decoder). Broken inputs
 * (truncations, wrong types, missing and duplicate fields, non-canonical
 * values, wrong path lengths and arities, wrong registered proofs, bad
 * base64, a SectorSize mismatch, inconsistent proofs) fail with the field
 * named.
 * CUZK_C1_CORPUS=<dir> also writes the fuzzer's seeds (fuzz/corpus/c1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_challenges.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

#define PROOF FIL_SEAL_2K_V1_1

/* ---- a real 2 KiB sealing and its C1 --------------------------------------- */

typedef struct sealed {
    uint64_t nodes;
    unsigned layers;
    fil_graph_t g;
    uint8_t rid[32];   /* replica_id */
    fr_t *data;        /* nodes */
    uint8_t (*lb)[32]; /* labels: lb[(l - 1) * nodes + i] */
    fil_merkle_tree_t *d, *c, *r;
} sealed_t;

static void rand_bytes(uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)tu_rand64();
}

/* A 32-byte node below 2^254 (fr32 padding), as an Fr. */
static void rand_node(fr_t *out)
{
    uint8_t b[32];
    rand_bytes(b, 32);
    b[31] &= 0x3f;
    assert_int_equal(fr_from_le(out, b), CUZK_OK);
}

static const uint8_t *label_at(const sealed_t *S, unsigned layer, uint64_t node)
{
    return S->lb[(size_t)(layer - 1) * S->nodes + node];
}

static void label_fr(fr_t *out, const sealed_t *S, unsigned layer, uint64_t node)
{
    assert_int_equal(fr_from_le(out, label_at(S, layer, node)), CUZK_OK);
}

/* The 37 parents a label of `layer` at `node` hashes (graph.rs
 * copy_parents_data; prove_layers_generate's parents_data_full): layer 1
 * the 6 DRG parents in layer 1, later layers those in `layer` and the 8
 * expander parents in layer - 1, repeated to 37. */
static void label_parents(const uint8_t *out[FIL_LABEL_PARENTS], const sealed_t *S, unsigned layer,
                          uint64_t node)
{
    uint32_t p[FIL_DEGREE];
    assert_int_equal(fil_graph_parents(p, &S->g, node, NULL), CUZK_OK);
    const uint8_t *base[FIL_DEGREE];
    unsigned n = layer == 1 ? FIL_DRG_DEGREE : FIL_DEGREE;
    for (unsigned k = 0; k < n; k++)
        base[k] = label_at(S, k < FIL_DRG_DEGREE ? layer : layer - 1, p[k]);
    for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
        out[k] = base[k % n];
}

/* seal_pre_commit: tree_d over the data, replica_id, the SDR labels,
 * tree_c over the column hashes, tree_r_last over data + last label. */
static void seal(sealed_t *S, const uint8_t prover_id[32], uint64_t sector_id,
                 const uint8_t ticket[32])
{
    cuzk_error_t err = {0};
    const fil_seal_info_t *info = fil_seal_info(PROOF);
    memset(S, 0, sizeof *S);
    S->nodes = info->nodes;
    S->layers = info->layers;
    assert_int_equal(fil_graph_init_seal(&S->g, PROOF, &err), CUZK_OK);
    S->data = malloc(S->nodes * sizeof *S->data);
    S->lb = malloc(S->layers * S->nodes * 32);
    assert_true(S->data && S->lb);
    for (uint64_t i = 0; i < S->nodes; i++)
        rand_node(&S->data[i]);
    fil_tree_shape_t dshape = {FIL_HASHER_SHA256, 2, 0, 0}, tree;
    assert_int_equal(fil_merkle_tree_build(&S->d, &dshape, S->data, S->nodes, &err), CUZK_OK);
    uint8_t porep_id[32], comm_d[32];
    fr_t root;
    fil_merkle_tree_root(&root, S->d);
    fr_to_le(comm_d, &root);
    assert_int_equal(fil_porep_id(porep_id, PROOF, &err), CUZK_OK);
    assert_int_equal(fil_replica_id(S->rid, prover_id, sector_id, ticket, comm_d, porep_id, &err),
                     CUZK_OK);
    for (unsigned l = 1; l <= S->layers; l++)
        for (uint64_t i = 0; i < S->nodes; i++) {
            const uint8_t *par[FIL_LABEL_PARENTS];
            if (i > 0)
                label_parents(par, S, l, i);
            assert_int_equal(
                fil_create_label(S->lb[(l - 1) * S->nodes + i], S->rid, l, i, i ? par : NULL, &err),
                CUZK_OK);
        }
    const poseidon_constants_t *pc = NULL;
    assert_int_equal(poseidon_constants_get(&pc, S->layers, NULL), CUZK_OK);
    fr_t *col = malloc(S->nodes * sizeof *col), *rep = malloc(S->nodes * sizeof *rep);
    assert_true(col && rep);
    for (uint64_t i = 0; i < S->nodes; i++) {
        fr_t row[FIL_POREP_MAX_LAYERS];
        for (unsigned l = 1; l <= S->layers; l++)
            label_fr(&row[l - 1], S, l, i);
        assert_int_equal(poseidon_hash(&col[i], pc, row, S->layers, POSEIDON_OPTIMIZED, NULL),
                         CUZK_OK);
        fr_add(&rep[i], &S->data[i], &row[S->layers - 1]); /* encode */
    }
    assert_int_equal(fil_sector_tree(&tree, info->sector_size, &err), CUZK_OK);
    assert_int_equal(fil_merkle_tree_build(&S->c, &tree, col, S->nodes, &err), CUZK_OK);
    assert_int_equal(fil_merkle_tree_build(&S->r, &tree, rep, S->nodes, &err), CUZK_OK);
    free(col);
    free(rep);
}

static void sealed_free(sealed_t *S)
{
    free(S->data);
    free(S->lb);
    fil_merkle_tree_free(S->d);
    fil_merkle_tree_free(S->c);
    fil_merkle_tree_free(S->r);
}

static void column(fil_c1_column_t *out, const sealed_t *S, uint64_t node)
{
    out->index = (uint32_t)node;
    for (unsigned l = 1; l <= S->layers; l++)
        label_fr(&out->rows[l - 1], S, l, node);
    assert_int_equal(fil_merkle_tree_path(&out->proof, S->c, node, NULL), CUZK_OK);
}

/* prove_layers_generate for challenge c. */
static void prove(fil_c1_proof_t *p, const sealed_t *S, uint64_t c)
{
    assert_int_equal(fil_merkle_tree_path(&p->comm_d_proof, S->d, c, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_path(&p->comm_r_last_proof, S->r, c, NULL), CUZK_OK);
    column(&p->c_x, S, c);
    uint32_t par[FIL_DEGREE];
    assert_int_equal(fil_graph_parents(par, &S->g, c, NULL), CUZK_OK);
    for (unsigned k = 0; k < FIL_DRG_DEGREE; k++)
        column(&p->drg_parents[k], S, par[k]);
    for (unsigned k = 0; k < FIL_EXP_DEGREE; k++)
        column(&p->exp_parents[k], S, par[FIL_DRG_DEGREE + k]);
    for (unsigned l = 1; l <= S->layers; l++) {
        fil_c1_label_t *lp = &p->labeling[l - 1];
        const uint8_t *pp[FIL_LABEL_PARENTS];
        label_parents(pp, S, l, c);
        lp->layer_index = l;
        lp->node = c;
        for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
            assert_int_equal(fr_from_le(&lp->parents[k], pp[k]), CUZK_OK);
        /* the labeling proof's own check (labeling_proof.rs verify) */
        uint8_t label[32];
        assert_int_equal(fil_create_label(label, S->rid, l, c, pp, NULL), CUZK_OK);
        assert_memory_equal(label, label_at(S, l, c), 32);
    }
    p->encoding = p->labeling[S->layers - 1];
}

/* seal_commit_phase1: the interactive challenges of every partition. */
static void make_c1(fil_c1_t *c1, sealed_t *S)
{
    uint8_t prover_id[32], ticket[32], seed[32];
    rand_bytes(prover_id, 32);
    rand_bytes(ticket, 32);
    rand_bytes(seed, 32);
    seal(S, prover_id, tu_rand64(), ticket);
    cuzk_error_t err = {0};
    assert_int_equal(fil_c1_init(c1, PROOF, &err), CUZK_OK);
    assert_int_equal(c1->partitions, 1);
    assert_int_equal(c1->challenges, 2);
    assert_int_equal(c1->layers, 2);
    memcpy(c1->seed, seed, 32);
    memcpy(c1->ticket, ticket, 32);
    assert_int_equal(fr_from_le(&c1->replica_id, S->rid), CUZK_OK);
    fil_merkle_tree_root(&c1->comm_d, S->d);
    fr_t cr[2];
    fil_merkle_tree_root(&cr[0], S->c);
    fil_merkle_tree_root(&cr[1], S->r);
    const poseidon_constants_t *p2 = NULL;
    assert_int_equal(poseidon_constants_get(&p2, 2, NULL), CUZK_OK);
    assert_int_equal(poseidon_hash(&c1->comm_r, p2, cr, 2, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
    for (unsigned k = 0; k < c1->partitions; k++) {
        uint64_t ch[2];
        assert_int_equal(fil_porep_challenges(ch, 2, S->nodes, S->rid, seed, k, &err), CUZK_OK);
        for (unsigned i = 0; i < c1->challenges; i++)
            prove(&c1->proofs[k * c1->challenges + i], S, ch[i]);
    }
}

/* ---- comparing two C1s field by field --------------------------------------- */

static void assert_fr(const fr_t *a, const fr_t *b)
{
    assert_true(fr_equal(a, b));
}

static void assert_path(const fil_merkle_path_t *a, const fil_merkle_path_t *b)
{
    assert_int_equal(a->n_levels, b->n_levels);
    assert_fr(&a->leaf, &b->leaf);
    assert_fr(&a->root, &b->root);
    for (unsigned l = 0; l < a->n_levels; l++) {
        assert_int_equal(a->level[l].arity, b->level[l].arity);
        assert_int_equal(a->level[l].index, b->level[l].index);
        for (unsigned h = 0; h + 1 < a->level[l].arity; h++)
            assert_fr(&a->level[l].siblings[h], &b->level[l].siblings[h]);
    }
}

static void assert_column(const fil_c1_column_t *a, const fil_c1_column_t *b, unsigned layers)
{
    assert_int_equal(a->index, b->index);
    for (unsigned l = 0; l < layers; l++)
        assert_fr(&a->rows[l], &b->rows[l]);
    assert_path(&a->proof, &b->proof);
}

static void assert_label(const fil_c1_label_t *a, const fil_c1_label_t *b)
{
    assert_int_equal(a->layer_index, b->layer_index);
    assert_int_equal(a->node, b->node);
    for (unsigned k = 0; k < FIL_C1_LABEL_PARENTS; k++)
        assert_fr(&a->parents[k], &b->parents[k]);
}

static void assert_c1_equal(const fil_c1_t *a, const fil_c1_t *b)
{
    assert_int_equal(a->registered_proof, b->registered_proof);
    assert_int_equal(a->sector_size, b->sector_size);
    assert_int_equal(a->nodes, b->nodes);
    assert_int_equal(a->layers, b->layers);
    assert_int_equal(a->partitions, b->partitions);
    assert_int_equal(a->challenges, b->challenges);
    assert_memory_equal(&a->tree, &b->tree, sizeof a->tree);
    assert_fr(&a->comm_r, &b->comm_r);
    assert_fr(&a->comm_d, &b->comm_d);
    assert_fr(&a->replica_id, &b->replica_id);
    assert_memory_equal(a->seed, b->seed, 32);
    assert_memory_equal(a->ticket, b->ticket, 32);
    for (size_t j = 0; j < (size_t)a->partitions * a->challenges; j++) {
        const fil_c1_proof_t *p = &a->proofs[j], *q = &b->proofs[j];
        assert_path(&p->comm_d_proof, &q->comm_d_proof);
        assert_path(&p->comm_r_last_proof, &q->comm_r_last_proof);
        assert_column(&p->c_x, &q->c_x, a->layers);
        for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS; k++)
            assert_column(&p->drg_parents[k], &q->drg_parents[k], a->layers);
        for (unsigned k = 0; k < FIL_POREP_EXP_PARENTS; k++)
            assert_column(&p->exp_parents[k], &q->exp_parents[k], a->layers);
        for (unsigned l = 0; l < a->layers; l++)
            assert_label(&p->labeling[l], &q->labeling[l]);
        assert_label(&p->encoding, &q->encoding);
    }
}

/* ---- the shared C1 ------------------------------------------------------------ */

static sealed_t g_S;
static fil_c1_t g_c1;
static char *g_json; /* fil_c1_write of g_c1, NUL-terminated */
static size_t g_len;

static int setup(void **state)
{
    (void)state;
    make_c1(&g_c1, &g_S);
    cuzk_error_t err = {0};
    char *js;
    if (fil_c1_write(&js, &g_len, &g_c1, &err) != CUZK_OK)
        return -1;
    g_json = malloc(g_len + 1);
    if (!g_json)
        return -1;
    memcpy(g_json, js, g_len);
    g_json[g_len] = 0;
    free(js);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fil_c1_free(&g_c1);
    sealed_free(&g_S);
    free(g_json);
    return 0;
}

/* ---- JSON surgery for the broken inputs ---------------------------------------- */

/* s with [b, e) replaced by repl (malloc'd, NUL-terminated). */
static char *splice(const char *s, size_t b, size_t e, const char *repl)
{
    size_t n = strlen(s), k = strlen(repl);
    char *o = malloc(n - (e - b) + k + 1);
    assert_non_null(o);
    memcpy(o, s, b);
    memcpy(o + b, repl, k);
    memcpy(o + b + k, s + e, n - e + 1);
    return o;
}

/* The end of the JSON value starting at s[b] (our writer's JSON: no
 * brackets inside strings). */
static size_t value_end(const char *s, size_t b)
{
    if (s[b] == '[' || s[b] == '{') {
        int depth = 0;
        for (size_t i = b;; i++) {
            if (s[i] == '[' || s[i] == '{')
                depth++;
            else if (s[i] == ']' || s[i] == '}')
                if (--depth == 0)
                    return i + 1;
            assert_true(s[i] != 0);
        }
    }
    if (s[b] == '"')
        return (size_t)(strchr(s + b + 1, '"') - s) + 1;
    size_t i = b;
    while (s[i] && s[i] != ',' && s[i] != '}' && s[i] != ']')
        i++;
    return i;
}

/* The value after the first `anchor` at or after s[from]: [*b, *e). */
static void find_value(const char *s, size_t from, const char *anchor, size_t *b, size_t *e)
{
    const char *a = strstr(s + from, anchor);
    assert_non_null(a);
    *b = (size_t)(a - s) + strlen(anchor);
    *e = value_end(s, *b);
}

/* g_json with the value after `anchor` replaced. */
static char *replace_value(const char *anchor, const char *repl)
{
    size_t b, e;
    find_value(g_json, 0, anchor, &b, &e);
    return splice(g_json, b, e, repl);
}

/* g_json with the first `what` replaced by `repl`. */
static char *replace_text(const char *what, const char *repl)
{
    const char *a = strstr(g_json, what);
    assert_non_null(a);
    return splice(g_json, (size_t)(a - g_json), (size_t)(a - g_json) + strlen(what), repl);
}

/* Parsing js fails with code and a message holding every `want`. */
static void expect_fail(const char *js, cuzk_status code, const char *want1, const char *want2)
{
    fil_c1_t c1;
    cuzk_error_t err = {0};
    cuzk_status st = fil_c1_parse(&c1, (const uint8_t *)js, strlen(js), &err);
    if (st != code)
        fail_msg("expected status %d, got %d: %s", (int)code, (int)st, err.msg);
    if (want1 && !strstr(err.msg, want1))
        fail_msg("'%s' not in: %s", want1, err.msg);
    if (want2 && !strstr(err.msg, want2))
        fail_msg("'%s' not in: %s", want2, err.msg);
    assert_null(c1.proofs); /* left zeroed */
    assert_int_equal(c1.partitions, 0);
}

static void expect_fail_free(char *js, cuzk_status code, const char *want1, const char *want2)
{
    expect_fail(js, code, want1, want2);
    free(js);
}

static void parse_ok(fil_c1_t *out, const char *js)
{
    cuzk_error_t err = {0};
    if (fil_c1_parse(out, (const uint8_t *)js, strlen(js), &err) != CUZK_OK)
        fail_msg("parse: %s", err.msg);
}

/* ---- tests -------------------------------------------------------------------- */

/* serde_json's layout, seen in the bytes: field order, tags, unit `_h`. */
static void test_layout(void **state)
{
    (void)state;
    static const char head[] = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":"
                               "{\"StackedDrg2KiBV1\":[[{\"comm_d_proofs\":{\"data\":{\"Single\":"
                               "{\"root\":[";
    assert_memory_equal(g_json, head, sizeof head - 1);
    assert_non_null(
        strstr(g_json, "]}}}},\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":["));
    assert_non_null(strstr(g_json, "},\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":"));
    assert_non_null(strstr(g_json, "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":"));
    assert_non_null(strstr(g_json, "]}}}}}],\"exp_parents\":[{\"column\":"));
    assert_non_null(strstr(g_json, "]},\"labeling_proofs\":[{\"parents\":[["));
    assert_non_null(strstr(g_json, "],\"layer_index\":1,\"node\":"));
    assert_non_null(strstr(g_json, "}],\"encoding_proof\":{\"parents\":[["));
    assert_non_null(strstr(g_json, "],\"layer_index\":2,\"node\":"));
    assert_non_null(strstr(g_json, "}]]},\"comm_r\":["));
    assert_non_null(strstr(g_json, "],\"comm_d\":["));
    assert_non_null(strstr(g_json, "],\"replica_id\":["));
    assert_non_null(strstr(g_json, "],\"seed\":["));
    assert_non_null(strstr(g_json, "],\"ticket\":["));
    assert_int_equal(g_json[g_len - 1], '}');
    assert_null(strchr(g_json, ' '));
    assert_null(strchr(g_json, '\n'));
    /* the last field: ticket's 32 bytes in decimal */
    char tail[160];
    int k = snprintf(tail, sizeof tail, "\"ticket\":[%u,%u,", g_c1.ticket[0], g_c1.ticket[1]);
    assert_non_null(strstr(g_json, tail));
    (void)k;
    /* a 2 KiB C1: 2 proofs of ~300 domains */
    assert_true(g_len > 40000 && g_len < 120000);
}

/* Written and parsed back: every field; written again: the same bytes. */
static void test_round_trip(void **state)
{
    (void)state;
    fil_c1_t c1;
    parse_ok(&c1, g_json);
    assert_c1_equal(&c1, &g_c1);
    char *js;
    size_t n;
    cuzk_error_t err = {0};
    assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_OK);
    assert_int_equal(n, g_len);
    assert_memory_equal(js, g_json, n);
    free(js);
    fil_c1_free(&c1);
    fil_c1_free(&c1); /* zeroed: a second free is harmless */
}

/* What serde_json accepts besides serde's own layout: whitespace
 * anywhere, fields in another order, unknown fields, escapes in names,
 * the {"Name": null} form of a unit variant. */
static void test_serde_leniency(void **state)
{
    (void)state;
    /* pretty: a newline and spaces after every ',' and ':' */
    size_t cap = 3 * g_len + 1, k = 0;
    char *pretty = malloc(cap);
    assert_non_null(pretty);
    for (size_t i = 0; i < g_len; i++) {
        pretty[k++] = g_json[i];
        if (g_json[i] == ',' || g_json[i] == ':' || g_json[i] == '[') {
            pretty[k++] = '\n';
            pretty[k++] = ' ';
        }
    }
    pretty[k] = 0;
    fil_c1_t c1;
    parse_ok(&c1, pretty);
    assert_c1_equal(&c1, &g_c1);
    fil_c1_free(&c1);
    free(pretty);
    /* ticket moved first, an unknown field of every JSON kind, an escaped
     * field name ("\u0073eed" is "seed") */
    size_t b, e;
    find_value(g_json, 0, ",\"ticket\":", &b, &e);
    char ticket[200];
    snprintf(ticket, sizeof ticket, "%.*s", (int)(e - b), g_json + b);
    char *a = splice(g_json, b - strlen(",\"ticket\":"), e, "");
    char head[400];
    snprintf(
        head, sizeof head,
        "{\"ticket\":%s,\"extra\":{\"a\":[1,-2.5e+3,true,false,null,\"x\\u00e9\\ud83d\\ude00\"]"
        ",\"b\":{}},",
        ticket);
    char *c = splice(a, 0, 1, head);
    char *d = splice(c, (size_t)(strstr(c, "\"seed\"") - c),
                     (size_t)(strstr(c, "\"seed\"") - c) + 6, "\"\\u0073eed\"");
    parse_ok(&c1, d);
    assert_c1_equal(&c1, &g_c1);
    fil_c1_free(&c1);
    free(a);
    free(c);
    free(d);
    /* registered_proof as {"Name": null} */
    char *u = replace_value("\"registered_proof\":", "{\"StackedDrg2KiBV1_1\":null}");
    parse_ok(&c1, u);
    assert_int_equal(c1.registered_proof, PROOF);
    fil_c1_free(&c1);
    free(u);
}

/* The parsed challenges satisfy the PoRep circuit; the public values are
 * the sealing's; one wrong parent label makes it fail. */
static void test_circuit(void **state)
{
    (void)state;
    fil_c1_t c1;
    parse_ok(&c1, g_json);
    cuzk_error_t err = {0};
    fil_porep_shape_t shape;
    fil_c1_shape(&shape, &c1);
    assert_int_equal(fil_porep_shape_check(&shape, &err), CUZK_OK);
    assert_int_equal(shape.nodes, 64);
    assert_int_equal(shape.challenges, 2);
    fil_porep_public_t pub;
    if (fil_c1_public(&pub, &c1, 0, &err) != CUZK_OK)
        fail_msg("public: %s", err.msg);
    fr_t want;
    fil_merkle_tree_root(&want, g_S.c);
    assert_fr(&pub.comm_c, &want);
    fil_merkle_tree_root(&want, g_S.r);
    assert_fr(&pub.comm_r_last, &want);
    assert_fr(&pub.comm_d, &g_c1.comm_d);
    assert_fr(&pub.comm_r, &g_c1.comm_r);
    assert_fr(&pub.replica_id, &g_c1.replica_id);
    fil_porep_challenge_t *ch = calloc(shape.challenges, sizeof *ch);
    assert_non_null(ch);
    uint64_t expect[2];
    assert_int_equal(fil_porep_challenges(expect, 2, 64, g_S.rid, c1.seed, 0, &err), CUZK_OK);
    for (unsigned i = 0; i < shape.challenges; i++) {
        if (fil_c1_porep_challenge(&ch[i], &c1, 0, i, &err) != CUZK_OK)
            fail_msg("challenge %u: %s", i, err.msg);
        assert_int_equal(ch[i].challenge, expect[i]);
        assert_fr(&ch[i].data_leaf, &g_S.data[expect[i]]);
    }
    for (int bad = 0; bad < 2; bad++) {
        if (bad) /* layer 2 of the 4th expander parent */
            fr_add(&ch[1].exp_cols[3][1], &ch[1].exp_cols[3][1], &FR_ONE);
        cs_t *cs = NULL;
        assert_int_equal(cs_new(&cs, CS_CHECK, NULL), CUZK_OK);
        fil_cs_porep(cs, &shape, &pub, ch);
        if (!bad && cs_status(cs, &err) != CUZK_OK)
            fail_msg("porep: %s", err.msg);
        uint64_t row;
        char where[256];
        int unsat = cs_unsatisfied(&row, where, sizeof where, cs);
        if (!bad && unsat)
            fail_msg("constraint %llu fails: %s", (unsigned long long)row, where);
        assert_int_equal(unsat, bad);
        if (bad)
            assert_non_null(strstr(where, "challenge 1/exp_parent 3"));
        if (!bad) {
            size_t n_in;
            const fr_t *in = cs_input_values(cs, &n_in);
            assert_int_equal(n_in, 4 + 18 * shape.challenges);
            assert_fr(&in[1], &pub.replica_id);
            assert_fr(&in[2], &pub.comm_d);
            assert_fr(&in[3], &pub.comm_r);
        }
        cs_free(cs);
    }
    free(ch);
    fil_c1_free(&c1);
}

/* Every truncation fails cleanly (a sample of prefixes, all short ones),
 * naming an offset inside the input. */
static void test_truncated(void **state)
{
    (void)state;
    fil_c1_t c1;
    cuzk_error_t err;
    for (size_t cut = 0; cut < g_len; cut += cut < 256 ? 1 : 97 + tu_rand64() % 400) {
        assert_int_equal(fil_c1_parse(&c1, (const uint8_t *)g_json, cut, &err), CUZK_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "at offset"));
        assert_null(c1.proofs);
    }
    assert_int_equal(fil_c1_parse(&c1, (const uint8_t *)g_json, g_len - 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "expected ',' or '}'"));
    /* trailing bytes after the object; NUL inside */
    char *t = malloc(g_len + 3);
    assert_non_null(t);
    memcpy(t, g_json, g_len);
    memcpy(t + g_len, " x", 3);
    expect_fail(t, CUZK_ERR_FORMAT, "trailing characters", NULL);
    assert_int_equal(fil_c1_parse(&c1, (const uint8_t *)g_json, g_len + 1, &err), CUZK_ERR_FORMAT);
    free(t);
    assert_int_equal(fil_c1_parse(NULL, (const uint8_t *)g_json, g_len, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_c1_parse(&c1, NULL, 1, &err), CUZK_ERR_ARG);
}

/* Wrong JSON types and integer forms, named by their path. */
static void test_wrong_types(void **state)
{
    (void)state;
    static const char *const lip = "vanilla_proofs[0][0].labeling_proofs[0].layer_index";
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":\"1\""), CUZK_ERR_FORMAT,
                     lip, "expected u32");
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":1.0"), CUZK_ERR_FORMAT, lip,
                     "floating-point");
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":1e0"), CUZK_ERR_FORMAT, lip,
                     "floating-point");
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":-1"), CUZK_ERR_FORMAT, lip,
                     "negative");
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":01"), CUZK_ERR_FORMAT, lip,
                     "leading zero");
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":4294967296"),
                     CUZK_ERR_FORMAT, lip, "out of range for u32");
    expect_fail_free(replace_text("\"layer_index\":1", "\"layer_index\":null"), CUZK_ERR_FORMAT,
                     lip, NULL);
    expect_fail_free(replace_text("\"node\":", "\"node\":99999999999999999999"), CUZK_ERR_FORMAT,
                     "labeling_proofs[0].node", "out of range for u64");
    /* a byte of a domain */
    expect_fail_free(replace_value("\"comm_d\":[", "256"), CUZK_ERR_FORMAT, "comm_d",
                     "out of range for u8");
    expect_fail_free(replace_value("\"seed\":", "\"abc\""), CUZK_ERR_FORMAT, "seed",
                     "expected '[' (32 bytes)");
    expect_fail_free(replace_value("\"seed\":", "[1,2,3]"), CUZK_ERR_FORMAT, "seed",
                     "3 bytes, 32 expected");
    expect_fail_free(replace_value("\"_h\":", "0"), CUZK_ERR_FORMAT,
                     "vanilla_proofs[0][0].replica_column_proofs.c_x.column._h", "expected null");
    expect_fail_free(replace_value("\"registered_proof\":", "5"), CUZK_ERR_FORMAT,
                     "registered_proof", "expected a string");
    expect_fail_free(replace_value("\"vanilla_proofs\":", "[]"), CUZK_ERR_FORMAT, "vanilla_proofs",
                     "enum variant");
    /* JSON syntax */
    expect_fail_free(replace_text("\"comm_r\":", "\"comm_r\"="), CUZK_ERR_FORMAT, "expected ':'",
                     NULL);
    expect_fail_free(replace_text("\"seed\"", "\"se\x01\""), CUZK_ERR_FORMAT, "control character",
                     NULL);
    expect_fail_free(replace_text("\"seed\"", "\"se\xc3\""), CUZK_ERR_FORMAT, "UTF-8", NULL);
    expect_fail_free(replace_text("\"seed\"", "\"\\ud800x\""), CUZK_ERR_FORMAT, "surrogate", NULL);
    expect_fail_free(replace_text("\"seed\"", "\"\\q\""), CUZK_ERR_FORMAT, "invalid escape", NULL);
    char deep[400], *p = deep;
    p += sprintf(p, "{\"x\":");
    for (int i = 0; i < 130; i++)
        *p++ = '[';
    *p = 0;
    char *dj = splice(g_json, 0, 1, deep);
    expect_fail_free(dj, CUZK_ERR_FORMAT, "nested more than 128", NULL);
}

/* Missing, duplicate and unknown-variant fields. */
static void test_fields(void **state)
{
    (void)state;
    expect_fail_free(replace_text(",\"_h\":null", ""), CUZK_ERR_FORMAT,
                     "vanilla_proofs[0][0].replica_column_proofs.c_x.column at offset",
                     "missing field `_h`");
    {
        size_t b, e;
        find_value(g_json, 0, ",\"encoding_proof\":", &b, &e);
        char *js = splice(g_json, b - strlen(",\"encoding_proof\":"), e, "");
        expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs[0][0] at offset",
                         "missing field `encoding_proof`");
    }
    expect_fail_free(replace_text("\"comm_d\":", "\"comm_r\":"), CUZK_ERR_FORMAT,
                     "duplicate field `comm_r`", NULL);
    expect_fail_free(replace_text("{\"data\":{\"Single\":", "{\"data\":{\"Single2\":"),
                     CUZK_ERR_FORMAT, "vanilla_proofs[0][0].comm_d_proofs.data",
                     "unknown variant `Single2`");
    expect_fail_free(replace_text("{\"data\":{\"Single\":", "{\"data\":{\"Sub\":"), CUZK_ERR_FORMAT,
                     "vanilla_proofs[0][0].comm_d_proofs.data",
                     "variant `Sub`, the 2-0-0 tree's proofs are `Single`");
    expect_fail_free(replace_text("{\"StackedDrg2KiBV1\":", "{\"StackedDrg2KiBV1_1\":"),
                     CUZK_ERR_FORMAT, "vanilla_proofs", "unknown variant `StackedDrg2KiBV1_1`");
}

/* Values >= r where Rust needs a field element; seed and ticket are raw. */
static void test_noncanonical(void **state)
{
    (void)state;
    static const char ff[] = "[255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,"
                             "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255]";
    expect_fail_free(replace_value("\"comm_r\":", ff), CUZK_ERR_NONCANONICAL, "comm_r", NULL);
    expect_fail_free(replace_value("\"replica_id\":", ff), CUZK_ERR_NONCANONICAL, "replica_id",
                     NULL);
    expect_fail_free(replace_value("\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":", ff),
                     CUZK_ERR_NONCANONICAL,
                     "vanilla_proofs[0][0].comm_r_last_proof.data.Single.root", NULL);
    {
        size_t b, e, b2, e2;
        find_value(g_json, 0, "\"comm_r_last_proof\":", &b, &e);
        find_value(g_json, b, "\"hashes\":[", &b2, &e2);
        char *js = splice(g_json, b2, e2, ff);
        expect_fail_free(
            js, CUZK_ERR_NONCANONICAL,
            "vanilla_proofs[0][0].comm_r_last_proof.data.Single.path.path[0].hashes[0]",
            "not a canonical field element");
    }
    {
        /* the second proof's 3rd exp parent, row 1 */
        size_t b, e, b2, e2, b3, e3;
        find_value(g_json, 0, "\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[", &b, &e);
        find_value(g_json, e + 1, "\"exp_parents\":", &b2, &e2);
        find_value(g_json, b2, "},{\"column\":{\"index\":", &b3, &e3);
        find_value(g_json, e3, "},{\"column\":{\"index\":", &b3, &e3);
        find_value(g_json, e3, "\"rows\":[", &b3, &e3); /* row 0 */
        char *js = splice(g_json, e3 + 1, value_end(g_json, e3 + 1), ff);
        expect_fail_free(js, CUZK_ERR_NONCANONICAL,
                         "vanilla_proofs[0][1].replica_column_proofs.exp_parents[2].column.rows[1]",
                         NULL);
    }
    /* labeling parents too */
    expect_fail_free(replace_value("\"labeling_proofs\":[{\"parents\":[", ff),
                     CUZK_ERR_NONCANONICAL, "vanilla_proofs[0][0].labeling_proofs[0].parents[0]",
                     NULL);
    /* seed and ticket are [u8; 32], any bytes */
    char *s = replace_value("\"seed\":", ff);
    fil_c1_t c1;
    parse_ok(&c1, s);
    for (int i = 0; i < 32; i++)
        assert_int_equal(c1.seed[i], 255);
    fil_c1_free(&c1);
    free(s);
}

/* Path lengths, sibling counts and indices must be the tree's. */
static void test_shapes(void **state)
{
    (void)state;
    size_t b, e, b2, e2;
    /* comm_d's path without its last element (6 levels: 5) */
    find_value(g_json, 0, "\"comm_d_proofs\":", &b, &e);
    find_value(g_json, b, "\"path\":{\"path\":", &b2, &e2);
    const char *last = g_json + e2 - 1;
    while (strncmp(last, ",{\"hashes\"", 10) != 0)
        last--;
    char *js = splice(g_json, (size_t)(last - g_json), e2 - 1, "");
    expect_fail_free(js, CUZK_ERR_FORMAT,
                     "vanilla_proofs[0][0].comm_d_proofs.data.Single.path.path",
                     "5 path elements, 6 expected");
    /* one element more */
    char *dup = malloc(e2 - b2 + 1);
    assert_non_null(dup);
    size_t first_end = value_end(g_json, b2 + 1);
    snprintf(dup, e2 - b2 + 1, ",%.*s", (int)(first_end - b2 - 1), g_json + b2 + 1);
    js = splice(g_json, e2 - 1, e2 - 1, dup);
    free(dup);
    expect_fail_free(js, CUZK_ERR_FORMAT, "comm_d_proofs.data.Single.path.path",
                     "more than 6 path elements");
    /* a binary level with two siblings */
    find_value(g_json, b2, "\"hashes\":", &b, &e);
    char *two = malloc(2 * (e - b) + 2);
    assert_non_null(two);
    snprintf(two, 2 * (e - b) + 2, "%.*s,%.*s", (int)(e - b - 1), g_json + b, (int)(e - b - 1),
             g_json + b + 1);
    js = splice(g_json, b, e, two);
    free(two);
    expect_fail_free(js, CUZK_ERR_FORMAT, "comm_d_proofs.data.Single.path.path[0].hashes",
                     "more than 1 hashes");
    /* an index past the arity (tree_r_last: 8) */
    find_value(g_json, 0, "\"comm_r_last_proof\":", &b, &e);
    find_value(g_json, b, "\"index\":", &b2, &e2);
    js = splice(g_json, b2, e2, "8");
    expect_fail_free(js, CUZK_ERR_FORMAT, "comm_r_last_proof.data.Single.path.path[0].index",
                     "index 8, the level's arity is 8");
    /* columns: rows = layers; 6 DRG and 8 expander parents; labels */
    find_value(g_json, 0, "\"rows\":", &b, &e);
    js = splice(g_json, e - 1, e - 1,
                ",[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]");
    expect_fail_free(js, CUZK_ERR_FORMAT, "replica_column_proofs.c_x.column.rows",
                     "more than 2 rows");
    find_value(g_json, 0, "\"drg_parents\":[", &b, &e);
    js = splice(g_json, b, value_end(g_json, b) + 1, "");
    expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs[0][0].replica_column_proofs.drg_parents",
                     "5 DRG parent columns, 6 expected");
    find_value(g_json, 0, "\"labeling_proofs\":[", &b, &e);
    js = splice(g_json, b, value_end(g_json, b) + 1, "");
    expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs[0][0].labeling_proofs",
                     "1 labeling proofs, 2 expected");
    find_value(g_json, 0, "\"encoding_proof\":{\"parents\":[", &b, &e);
    js = splice(g_json, b, e + 1, "");
    expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs[0][0].encoding_proof.parents",
                     "36 parents, 37 expected");
    /* a partition of 3 proofs; a second partition */
    find_value(g_json, 0, "{\"StackedDrg2KiBV1\":[", &b, &e);
    char *part = malloc(e - b + 2);
    assert_non_null(part);
    snprintf(part, e - b + 2, ",%.*s", (int)(e - b - 2), g_json + b + 1);
    js = splice(g_json, e - 1, e - 1, part);
    expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs[0]", "more than 2 proofs");
    snprintf(part, e - b + 2, ",%.*s", (int)(e - b), g_json + b);
    js = splice(g_json, e, e, part);
    expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs at offset",
                     "2 partitions, StackedDrg2KiBV1_1 has 1");
    free(part);
    js = replace_value("\"vanilla_proofs\":", "{\"StackedDrg2KiBV1\":[]}");
    expect_fail_free(js, CUZK_ERR_FORMAT, "vanilla_proofs", "no partitions");
}

/* The registered proof decides the variant and the counts. */
static void test_registered_proof(void **state)
{
    (void)state;
    expect_fail_free(replace_value("\"registered_proof\":", "\"StackedDrg2KiBV9\""),
                     CUZK_ERR_FORMAT, "registered_proof at offset",
                     "unknown registered proof `StackedDrg2KiBV9`");
    expect_fail_free(replace_value("\"registered_proof\":", "\"StackedDrg8MiBV1_1\""),
                     CUZK_ERR_FORMAT, "vanilla_proofs at offset",
                     "variant `StackedDrg2KiBV1` (2048-byte sectors), the registered proof "
                     "StackedDrg8MiBV1_1 seals 8388608");
    expect_fail_free(
        replace_value("\"registered_proof\":", "\"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep\""),
        CUZK_ERR_FORMAT, "vanilla_proofs at offset", "1 partitions");
    /* every 2 KiB interactive or synthetic proof shares the layout */
    static const char *const ok[] = {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1_Feat_SyntheticPoRep"};
    for (size_t i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, "\"%s\"", ok[i]);
        char *js = replace_value("\"registered_proof\":", name);
        fil_c1_t c1;
        parse_ok(&c1, js);
        fil_seal_proof p;
        assert_int_equal(fil_seal_from_name(&p, ok[i], NULL), CUZK_OK);
        assert_int_equal(c1.registered_proof, p);
        fil_c1_free(&c1);
        free(js);
    }
}

/* Curio's envelope: written as Go writes it, its base64 what OpenSSL
 * decodes to the C1 JSON; parsed back; broken base64 and a SectorSize
 * that is not the proof's fail naming the field. */
static void test_curio(void **state)
{
    (void)state;
    char *w;
    size_t n;
    cuzk_error_t err = {0};
    const uint64_t num = 18446744073709551615ull;
    assert_int_equal(fil_c1_write_curio(&w, &n, &g_c1, num, &err), CUZK_OK);
    static const char head[] = "{\"SectorNum\":18446744073709551615,\"Phase1Out\":\"";
    static const char tail[] = "\",\"SectorSize\":2048}";
    assert_memory_equal(w, head, sizeof head - 1);
    assert_memory_equal(w + n - (sizeof tail - 1), tail, sizeof tail - 1);
    size_t b64 = n - (sizeof head - 1) - (sizeof tail - 1);
    assert_int_equal(b64 % 4, 0);
    unsigned char *dec = malloc(b64 / 4 * 3);
    assert_non_null(dec);
    int k = EVP_DecodeBlock(dec, (const unsigned char *)w + sizeof head - 1, (int)b64);
    assert_int_equal(k, (int)(b64 / 4 * 3));
    int pad = (w[sizeof head - 1 + b64 - 1] == '=') + (w[sizeof head - 1 + b64 - 2] == '=');
    assert_int_equal((size_t)k - (size_t)pad, g_len);
    assert_memory_equal(dec, g_json, g_len);
    free(dec);

    fil_c1_t c1;
    uint64_t sn, ss;
    if (fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)w, n, &err) != CUZK_OK)
        fail_msg("curio: %s", err.msg);
    assert_int_equal(sn, num);
    assert_int_equal(ss, 2048);
    assert_c1_equal(&c1, &g_c1);
    char *w2;
    size_t n2;
    assert_int_equal(fil_c1_write_curio(&w2, &n2, &c1, sn, &err), CUZK_OK);
    assert_int_equal(n2, n);
    assert_memory_equal(w2, w, n);
    free(w2);
    fil_c1_free(&c1);

    char *s = malloc(n + 64);
    assert_non_null(s);
    const size_t at = sizeof head - 1; /* Phase1Out's first base64 character */
    struct {
        size_t pos; /* where to change */
        int del;    /* delete it instead */
        char c;     /* the new character */
        const char *want;
    } cases[] = {
        {at + 5, 0, '*', "invalid base64 at character 5"},
        {at + 5, 1, 0, "not a multiple of 4"},
        {at + 8, 0, '=', "invalid base64 at character 8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(s, w, n);
        size_t m = n;
        if (cases[i].del) {
            memmove(s + cases[i].pos, s + cases[i].pos + 1, n - cases[i].pos - 1);
            m--;
        } else {
            s[cases[i].pos] = cases[i].c;
        }
        assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)s, m, &err),
                         CUZK_ERR_FORMAT);
        if (!strstr(err.msg, "Curio C1: Phase1Out at offset") || !strstr(err.msg, cases[i].want))
            fail_msg("case %zu: %s", i, err.msg);
        assert_null(c1.proofs);
        assert_int_equal(sn, 0);
    }
    /* unused bits set in the last symbol before the padding */
    static const char *const nonzero[] = {"QR==", "QUF=", "QUE="};
    static const int bad[] = {1, 1, 0};
    for (size_t i = 0; i < 3; i++) {
        snprintf(s, n + 64, "{\"SectorNum\":1,\"Phase1Out\":\"%s\",\"SectorSize\":2048}",
                 nonzero[i]);
        assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)s, strlen(s), &err),
                         CUZK_ERR_FORMAT);
        if (bad[i] != (strstr(err.msg, "invalid base64") != NULL))
            fail_msg("%s: %s", nonzero[i], err.msg);
        if (!bad[i]) /* "AA" decodes; it is no C1 */
            assert_non_null(strstr(err.msg, "Curio C1: Phase1Out (decoded): at offset 0"));
    }
    /* a SectorSize that is not the proof's */
    memcpy(s, w, n);
    s[n] = 0;
    char *mis = splice(s, n - (sizeof tail - 1), n, "\",\"SectorSize\":8388608}");
    assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)mis, strlen(mis), &err),
                     CUZK_ERR_FORMAT);
    if (!strstr(err.msg, "Curio C1: SectorSize at offset") ||
        !strstr(err.msg, "8388608, Phase1Out's StackedDrg2KiBV1_1 seals 2048"))
        fail_msg("%s", err.msg);
    assert_null(c1.proofs);
    free(mis);
    /* a broken C1 inside is named inside Phase1Out */
    snprintf(s, n + 64, "{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}"); /* {} */
    assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)s, strlen(s), &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "Curio C1: Phase1Out (decoded): at offset 1: missing field"));
    /* envelope fields: missing, wrong type, null */
    snprintf(s, n + 64, "{\"SectorNum\":1,\"SectorSize\":2048}");
    assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)s, strlen(s), &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "missing field `Phase1Out`"));
    snprintf(s, n + 64, "{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}");
    assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)s, strlen(s), &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "Curio C1: SectorNum at offset 13: a negative number"));
    snprintf(s, n + 64, "{\"SectorNum\":1,\"Phase1Out\":null,\"SectorSize\":2048}");
    assert_int_equal(fil_c1_parse_curio(&c1, &sn, &ss, (const uint8_t *)s, strlen(s), &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "Curio C1: Phase1Out at offset 27: expected a string"));
    free(s);
    free(w);
}

/* fil_c1_public and fil_c1_porep_challenge refuse inconsistent proofs,
 * naming them; the writer refuses paths that do not fit. */
static void test_consistency(void **state)
{
    (void)state;
    fil_c1_t c1;
    parse_ok(&c1, g_json);
    cuzk_error_t err = {0};
    fil_porep_public_t pub;
    fil_porep_challenge_t *ch = malloc(sizeof *ch);
    assert_non_null(ch);
    fr_t save;

    save = c1.proofs[1].comm_r_last_proof.root;
    fr_add(&c1.proofs[1].comm_r_last_proof.root, &save, &FR_ONE);
    assert_int_equal(fil_c1_public(&pub, &c1, 0, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "vanilla_proofs[0][1].comm_r_last_proof: root differs"));
    c1.proofs[1].comm_r_last_proof.root = save;

    save = c1.proofs[1].exp_parents[7].proof.root;
    fr_add(&c1.proofs[1].exp_parents[7].proof.root, &save, &FR_ONE);
    assert_int_equal(fil_c1_public(&pub, &c1, 0, &err), CUZK_ERR_FORMAT);
    assert_non_null(
        strstr(err.msg, "vanilla_proofs[0][1].replica_column_proofs.exp_parents[7]: root differs"));
    c1.proofs[1].exp_parents[7].proof.root = save;

    save = c1.proofs[0].comm_d_proof.root;
    fr_add(&c1.proofs[0].comm_d_proof.root, &save, &FR_ONE);
    assert_int_equal(fil_c1_public(&pub, &c1, 0, &err), CUZK_ERR_FORMAT);
    assert_non_null(
        strstr(err.msg, "vanilla_proofs[0][0].comm_d_proofs: root differs from comm_d"));
    c1.proofs[0].comm_d_proof.root = save;

    save = c1.comm_r;
    fr_add(&c1.comm_r, &save, &FR_ONE);
    assert_int_equal(fil_c1_public(&pub, &c1, 0, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "comm_r is not Poseidon-2(comm_c, comm_r_last)"));
    c1.comm_r = save;

    memset(c1.seed, 0, 32);
    assert_int_equal(fil_c1_public(&pub, &c1, 0, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "seed: all zero"));
    memcpy(c1.seed, g_c1.seed, 32);
    assert_int_equal(fil_c1_public(&pub, &c1, 1, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_c1_public(&pub, &c1, 0, &err), CUZK_OK);

    fil_c1_proof_t *p = &c1.proofs[1];
    p->c_x.index ^= 1;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "vanilla_proofs[0][1].replica_column_proofs.c_x.column.index"));
    p->c_x.index ^= 1;
    p->labeling[1].node ^= 1;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "vanilla_proofs[0][1].labeling_proofs[1].node"));
    p->labeling[1].node ^= 1;
    p->encoding.layer_index = 1;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "encoding_proof.layer_index: 1, 2 expected"));
    p->encoding.layer_index = 2;
    p->drg_parents[4].index ^= 1;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "replica_column_proofs.drg_parents[4].inclusion_proof: opens"));
    p->drg_parents[4].index ^= 1;
    p->comm_d_proof.level[0].index ^= 1;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "vanilla_proofs[0][1].comm_d_proofs: opens node"));
    p->comm_d_proof.level[0].index ^= 1;
    p->labeling[0].node = 64;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "labeling_proofs[0].node: 64, the sector has 64 nodes"));
    p->labeling[0].node = g_c1.proofs[1].labeling[0].node;
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 2, &err), CUZK_ERR_ARG);
    assert_int_equal(fil_c1_porep_challenge(ch, &c1, 0, 1, &err), CUZK_OK);

    /* the writer: a path of the wrong shape, a shape not the proof's */
    char *js = NULL;
    size_t n = 7;
    p->comm_r_last_proof.n_levels = 3;
    assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_ERR_ARG);
    assert_non_null(
        strstr(err.msg, "vanilla_proofs[0][1].comm_r_last_proof: 3 levels, the tree has 2"));
    assert_null(js);
    assert_int_equal(n, 0);
    p->comm_r_last_proof.n_levels = 2;
    p->exp_parents[0].proof.level[1].index = 8;
    assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_ERR_ARG);
    assert_non_null(
        strstr(err.msg, "replica_column_proofs.exp_parents[0]: level 1 has arity 8, index 8"));
    p->exp_parents[0].proof.level[1].index = g_c1.proofs[1].exp_parents[0].proof.level[1].index;
    c1.partitions = 2;
    assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "not StackedDrg2KiBV1_1's"));
    c1.partitions = 1;
    assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_OK);
    assert_int_equal(n, g_len);
    free(js);
    free(ch);
    fil_c1_free(&c1);
    assert_int_equal(fil_c1_init(&c1, FIL_SEAL_COUNT, &err), CUZK_ERR_ARG);
    assert_null(c1.proofs);
}

/* Every registered proof's empty C1 has its published shape; a 32 GiB
 * one is the 10 x 18 proofs of an 8-8-0 tree and 11 layers. */
static void test_init_shapes(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    for (int p = 0; p < FIL_SEAL_COUNT; p++) {
        fil_c1_t c1;
        assert_int_equal(fil_c1_init(&c1, (fil_seal_proof)p, &err), CUZK_OK);
        const fil_seal_info_t *info = fil_seal_info((fil_seal_proof)p);
        assert_int_equal(c1.partitions, info->partitions);
        assert_true(c1.partitions <= FIL_C1_MAX_PARTITIONS);
        assert_int_equal(c1.layers, info->layers);
        fil_c1_free(&c1);
    }
    fil_c1_t c1;
    assert_int_equal(fil_c1_init(&c1, FIL_SEAL_32G_V1_1, &err), CUZK_OK);
    assert_int_equal(c1.partitions * c1.challenges, 180);
    assert_int_equal(c1.tree.base_arity, 8);
    assert_int_equal(c1.tree.sub_arity, 8);
    assert_int_equal(c1.tree.top_arity, 0);
    assert_int_equal(c1.layers, 11);
    fil_c1_free(&c1);
}

/* A full-size C1 of proof p with random values (not a sealing: the
 * shapes and the bytes are what matter): paths of every level and arity
 * of the sector's trees. */
static void random_path(fil_merkle_path_t *p, const fil_tree_shape_t *shape, uint64_t nodes)
{
    unsigned base, levels;
    assert_int_equal(fil_tree_shape_levels(&base, &levels, shape, nodes, NULL), CUZK_OK);
    p->n_levels = levels;
    tu_rand_fr(&p->leaf);
    tu_rand_fr(&p->root);
    for (unsigned l = 0; l < levels; l++) {
        fil_merkle_level_t *lv = &p->level[l];
        lv->arity = fil_tree_shape_level_arity(shape, base, l);
        lv->index = (unsigned)(tu_rand64() % lv->arity);
        for (unsigned h = 0; h + 1 < lv->arity; h++)
            tu_rand_fr(&lv->siblings[h]);
    }
}

static void random_c1(fil_c1_t *c1, fil_seal_proof proof)
{
    assert_int_equal(fil_c1_init(c1, proof, NULL), CUZK_OK);
    const fil_tree_shape_t dshape = {FIL_HASHER_SHA256, 2, 0, 0};
    for (size_t j = 0; j < (size_t)c1->partitions * c1->challenges; j++) {
        fil_c1_proof_t *p = &c1->proofs[j];
        random_path(&p->comm_d_proof, &dshape, c1->nodes);
        random_path(&p->comm_r_last_proof, &c1->tree, c1->nodes);
        for (unsigned k = 0; k < 1 + FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS; k++) {
            fil_c1_column_t *col = k == 0 ? &p->c_x
                                   : k <= FIL_POREP_DRG_PARENTS
                                       ? &p->drg_parents[k - 1]
                                       : &p->exp_parents[k - 1 - FIL_POREP_DRG_PARENTS];
            col->index = (uint32_t)tu_rand64();
            for (unsigned l = 0; l < c1->layers; l++)
                tu_rand_fr(&col->rows[l]);
            random_path(&col->proof, &c1->tree, c1->nodes);
        }
        for (unsigned l = 0; l <= c1->layers; l++) {
            fil_c1_label_t *lb = l < c1->layers ? &p->labeling[l] : &p->encoding;
            lb->layer_index = l < c1->layers ? l + 1 : c1->layers;
            lb->node = tu_rand64() % c1->nodes;
            for (unsigned k = 0; k < FIL_C1_LABEL_PARENTS; k++)
                tu_rand_fr(&lb->parents[k]);
        }
    }
    tu_rand_fr(&c1->comm_r);
    tu_rand_fr(&c1->comm_d);
    tu_rand_fr(&c1->replica_id);
    rand_bytes(c1->seed, 32);
    rand_bytes(c1->ticket, 32);
}

/* Production sizes: 32 GiB (tree_r 8-8-0: Sub proofs, 10 x 18 proofs of
 * 11 layers) and 64 GiB (8-8-2: Top proofs) round-trip through ~38 MB of
 * JSON; a non-canonical sibling deep inside is named by its path (the
 * example of the header). */
static void test_production_sizes(void **state)
{
    (void)state;
    static const fil_seal_proof proofs[] = {FIL_SEAL_32G_V1_1, FIL_SEAL_64G_V1};
    for (size_t t = 0; t < 2; t++) {
        fil_c1_t c1, back;
        random_c1(&c1, proofs[t]);
        /* a marker value for vanilla_proofs[3][7]'s comm_r_last sibling */
        uint8_t mark[32];
        for (int i = 0; i < 31; i++)
            mark[i] = (uint8_t)(201 - i);
        mark[31] = 0;
        fil_c1_proof_t *p37 = &c1.proofs[3 * c1.challenges + 7];
        assert_int_equal(fr_from_le(&p37->comm_r_last_proof.level[2].siblings[5], mark), CUZK_OK);
        char *js;
        size_t n;
        cuzk_error_t err = {0};
        assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_OK);
        assert_true(n > 30000000 && n < 50000000);
        assert_int_equal(fil_c1_parse(&back, (const uint8_t *)js, n, &err), CUZK_OK);
        assert_c1_equal(&back, &c1);
        fil_c1_free(&back);
        /* the marker, made >= r by its top byte */
        char *z = realloc(js, n + 1);
        assert_non_null(z);
        js = z;
        js[n] = 0;
        char m[200], *q = m;
        for (int i = 0; i < 32; i++)
            q += sprintf(q, "%s%u", i ? "," : "[", mark[i]);
        strcpy(q, "]");
        char *at = strstr(js, m);
        assert_non_null(at);
        assert_null(strstr(at + 1, m));
        char *big =
            splice(js, (size_t)(at - js) + strlen(m) - 2, (size_t)(at - js) + strlen(m) - 1, "255");
        const char *want =
            t == 0 ? "C1: vanilla_proofs[3][7].comm_r_last_proof.data.Sub.base_proof.path[2]."
                     "hashes[5] at offset"
                   : "C1: vanilla_proofs[3][7].comm_r_last_proof.data.Top.base_proof.path[2]."
                     "hashes[5] at offset";
        assert_int_equal(fil_c1_parse(&back, (const uint8_t *)big, n + 2, &err),
                         CUZK_ERR_NONCANONICAL);
        if (!strstr(err.msg, want))
            fail_msg("%s", err.msg);
        free(big);
        free(js);
        fil_c1_free(&c1);
    }
}

/* With CUZK_C1_CORPUS set: the fuzzer's seeds (each < 100 KB). */
static void write_seed(const char *dir, const char *name, const char *data, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* Small values in every domain: the C1 still parses, in ~60 KB. */
static void small_path(fil_merkle_path_t *p, uint64_t *k)
{
    fr_from_u64(&p->leaf, (*k)++ % 300);
    fr_from_u64(&p->root, (*k)++ % 300);
    for (unsigned l = 0; l < p->n_levels; l++)
        for (unsigned h = 0; h + 1 < p->level[l].arity; h++)
            fr_from_u64(&p->level[l].siblings[h], (*k)++ % 300);
}

static void small_column(fil_c1_column_t *c, unsigned layers, uint64_t *k)
{
    for (unsigned l = 0; l < layers; l++)
        fr_from_u64(&c->rows[l], (*k)++ % 300);
    small_path(&c->proof, k);
}

static void small_label(fil_c1_label_t *l, uint64_t *k)
{
    for (unsigned j = 0; j < FIL_C1_LABEL_PARENTS; j++)
        fr_from_u64(&l->parents[j], (*k)++ % 300);
}

static void test_corpus(void **state)
{
    (void)state;
    const char *dir = getenv("CUZK_C1_CORPUS");
    if (!dir) {
        skip();
        return;
    }
    fil_c1_t c1;
    parse_ok(&c1, g_json);
    uint64_t k = 1;
    for (size_t j = 0; j < (size_t)c1.partitions * c1.challenges; j++) {
        fil_c1_proof_t *p = &c1.proofs[j];
        small_path(&p->comm_d_proof, &k);
        small_path(&p->comm_r_last_proof, &k);
        small_column(&p->c_x, c1.layers, &k);
        for (unsigned q = 0; q < FIL_POREP_DRG_PARENTS; q++)
            small_column(&p->drg_parents[q], c1.layers, &k);
        for (unsigned q = 0; q < FIL_POREP_EXP_PARENTS; q++)
            small_column(&p->exp_parents[q], c1.layers, &k);
        for (unsigned l = 0; l < c1.layers; l++)
            small_label(&p->labeling[l], &k);
        small_label(&p->encoding, &k);
    }
    char *js;
    size_t n;
    cuzk_error_t err = {0};
    assert_int_equal(fil_c1_write(&js, &n, &c1, &err), CUZK_OK);
    fil_c1_free(&c1);
    assert_true(n < 100000);
    write_seed(dir, "valid_2k", js, n);
    write_seed(dir, "truncated_2k", js, n / 3);
    char *t = malloc(n + 1);
    assert_non_null(t);
    memcpy(t, js, n);
    t[n] = 0;
    char *a = strstr(t, "StackedDrg2KiBV1_1");
    assert_non_null(a);
    a[10] = '8', a[11] = 'M'; /* StackedDrg8MiBV1_1 */
    write_seed(dir, "wrong_proof_2k", t, n);
    a[10] = '2', a[11] = 'K';
    a = strstr(t, ",\"_h\":null");
    assert_non_null(a);
    memmove(a, a + 10, n - (size_t)(a - t) - 10);
    write_seed(dir, "missing_field_2k", t, n - 10);
    free(t);
    free(js);
    /* the harness reads a first byte 1 as "Curio envelope follows" */
    static const char curio[] = "\x01{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}";
    write_seed(dir, "curio_small", curio, sizeof curio - 1);
}

int main(void)
{
    tu_init("test_filecoin_c1");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),         cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_serde_leniency), cmocka_unit_test(test_circuit),
        cmocka_unit_test(test_truncated),      cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_fields),         cmocka_unit_test(test_noncanonical),
        cmocka_unit_test(test_shapes),         cmocka_unit_test(test_registered_proof),
        cmocka_unit_test(test_curio),          cmocka_unit_test(test_consistency),
        cmocka_unit_test(test_init_shapes),    cmocka_unit_test(test_production_sizes),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
