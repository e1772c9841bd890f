/* Writing the PoRep C1 output (filecoin_c1.h): the bytes serde_json::
 * to_vec gives for SealCommitPhase1Output (API@0e64ce8 src/seal.rs; the
 * field order is the structs' declaration order in RFP@87348a7 storage-
 * proofs-porep/src/stacked/vanilla/params.rs, column.rs, column_proof.rs,
 * labeling_proof.rs, encoding_proof.rs and storage-proofs-core/src/merkle/
 * proof.rs), and Go's json.Marshal of Curio's envelope (CUR lib/ffi/
 * cuzk_funcs.go c1OutputWrapper: fields in declaration order, []byte as
 * standard padded base64). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_circuits.h"

/* A growing output; a failed allocation is remembered and reported at the
 * end. */
typedef struct jw {
    char *p;
    size_t n, cap;
    int nomem;
} jw_t;

static char *room(jw_t *w, size_t k)
{
    if (w->nomem)
        return NULL;
    if (w->cap - w->n < k) {
        size_t cap = w->cap ? w->cap : 1u << 16;
        while (cap - w->n < k) {
            if (cap > SIZE_MAX / 2) {
                w->nomem = 1;
                return NULL;
            }
            cap *= 2;
        }
        char *q = realloc(w->p, cap);
        if (!q) {
            w->nomem = 1;
            return NULL;
        }
        w->p = q;
        w->cap = cap;
    }
    return w->p + w->n;
}

static void put(jw_t *w, const char *s)
{
    size_t k = strlen(s);
    char *d = room(w, k);
    if (d) {
        memcpy(d, s, k);
        w->n += k;
    }
}

static size_t u64_dec(char out[20], uint64_t v)
{
    char t[20];
    size_t k = 0;
    do {
        t[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < k; i++)
        out[i] = t[k - 1 - i];
    return k;
}

static void put_u64(jw_t *w, uint64_t v)
{
    char *d = room(w, 20);
    if (d)
        w->n += u64_dec(d, v);
}

/* [u8; 32] as serde_json writes a tuple: "[b0,b1,...,b31]". */
static void put_bytes32(jw_t *w, const uint8_t b[32])
{
    char *d = room(w, 32 * 4 + 1);
    if (!d)
        return;
    char *s = d;
    *s++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = b[i];
        if (v >= 100)
            *s++ = (char)('0' + v / 100);
        if (v >= 10)
            *s++ = (char)('0' + v / 10 % 10);
        *s++ = (char)('0' + v % 10);
        *s++ = i < 31 ? ',' : ']';
    }
    w->n += (size_t)(s - d);
}

static void put_domain(jw_t *w, const fr_t *x)
{
    uint8_t b[32];
    fr_to_le(b, x);
    put_bytes32(w, b);
}

static void put_domains(jw_t *w, const fr_t *x, size_t n)
{
    put(w, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(w, ",");
        put_domain(w, &x[i]);
    }
    put(w, "]");
}

/* ---- the C1 -------------------------------------------------------------- */

typedef struct wr {
    jw_t w;
    const fil_c1_t *c1;
    cuzk_error_t *err;
    fil_tree_shape_t dtree;
    unsigned d_base, tree_base;
    size_t k, i; /* the proof being written */
} wr_t;

/* p must be a path of a tree of `shape` with `base` base levels. */
static cuzk_status check_path(wr_t *x, const fil_merkle_path_t *p, const fil_tree_shape_t *shape,
                              unsigned base, const char *field)
{
    const unsigned levels = base + (shape->sub_arity ? 1u : 0u) + (shape->top_arity ? 1u : 0u);
    if (p->n_levels != levels)
        return cuzk_error_set(x->err, CUZK_ERR_ARG,
                              "C1 write: vanilla_proofs[%zu][%zu].%s: %u levels, the tree has %u",
                              x->k, x->i, field, p->n_levels, levels);
    for (unsigned l = 0; l < levels; l++) {
        unsigned a = fil_tree_shape_level_arity(shape, base, l);
        if (p->level[l].arity != a || p->level[l].index >= a)
            return cuzk_error_set(x->err, CUZK_ERR_ARG,
                                  "C1 write: vanilla_proofs[%zu][%zu].%s: level %u has arity %u, "
                                  "index %u (the tree's arity: %u)",
                                  x->k, x->i, field, l, p->level[l].arity, p->level[l].index, a);
    }
    return CUZK_OK;
}

/* InclusionPath { path: [PathElement { hashes, index }] } of levels
 * [from, to). */
static void put_inclusion_path(jw_t *w, const fil_merkle_path_t *p, unsigned from, unsigned to)
{
    put(w, "{\"path\":[");
    for (unsigned l = from; l < to; l++) {
        const fil_merkle_level_t *lv = &p->level[l];
        put(w, l > from ? ",{\"hashes\":" : "{\"hashes\":");
        put_domains(w, lv->siblings, lv->arity - 1);
        put(w, ",\"index\":");
        put_u64(w, lv->index);
        put(w, "}");
    }
    put(w, "]}");
}

/* MerkleProof { data: ProofData::Single | Sub | Top }. */
static cuzk_status put_merkle_proof(wr_t *x, const fil_merkle_path_t *p,
                                    const fil_tree_shape_t *shape, unsigned base, const char *field)
{
    cuzk_status st = check_path(x, p, shape, base, field);
    if (st != CUZK_OK)
        return st;
    jw_t *w = &x->w;
    if (!shape->sub_arity) {
        put(w, "{\"data\":{\"Single\":{\"root\":");
        put_domain(w, &p->root);
        put(w, ",\"leaf\":");
        put_domain(w, &p->leaf);
        put(w, ",\"path\":");
        put_inclusion_path(w, p, 0, base);
    } else {
        put(w, shape->top_arity ? "{\"data\":{\"Top\":{\"base_proof\":"
                                : "{\"data\":{\"Sub\":{\"base_proof\":");
        put_inclusion_path(w, p, 0, base);
        put(w, ",\"sub_proof\":");
        put_inclusion_path(w, p, base, base + 1);
        if (shape->top_arity) {
            put(w, ",\"top_proof\":");
            put_inclusion_path(w, p, base + 1, base + 2);
        }
        put(w, ",\"root\":");
        put_domain(w, &p->root);
        put(w, ",\"leaf\":");
        put_domain(w, &p->leaf);
    }
    put(w, "}}}");
    return CUZK_OK;
}

/* ColumnProof { column: Column { index, rows, _h }, inclusion_proof }. */
static cuzk_status put_column(wr_t *x, const fil_c1_column_t *c, const char *field)
{
    jw_t *w = &x->w;
    put(w, "{\"column\":{\"index\":");
    put_u64(w, c->index);
    put(w, ",\"rows\":");
    put_domains(w, c->rows, x->c1->layers);
    put(w, ",\"_h\":null},\"inclusion_proof\":");
    cuzk_status st = put_merkle_proof(x, &c->proof, &x->c1->tree, x->tree_base, field);
    put(w, "}");
    return st;
}

/* LabelingProof / EncodingProof { parents, layer_index, node }. */
static void put_label(jw_t *w, const fil_c1_label_t *l)
{
    put(w, "{\"parents\":");
    put_domains(w, l->parents, FIL_C1_LABEL_PARENTS);
    put(w, ",\"layer_index\":");
    put_u64(w, l->layer_index);
    put(w, ",\"node\":");
    put_u64(w, l->node);
    put(w, "}");
}

/* Proof { comm_d_proofs, comm_r_last_proof, replica_column_proofs {c_x,
 * drg_parents, exp_parents}, labeling_proofs, encoding_proof }. */
static cuzk_status put_proof(wr_t *x, const fil_c1_proof_t *p)
{
    jw_t *w = &x->w;
    put(w, "{\"comm_d_proofs\":");
    cuzk_status st = put_merkle_proof(x, &p->comm_d_proof, &x->dtree, x->d_base, "comm_d_proofs");
    if (st != CUZK_OK)
        return st;
    put(w, ",\"comm_r_last_proof\":");
    st =
        put_merkle_proof(x, &p->comm_r_last_proof, &x->c1->tree, x->tree_base, "comm_r_last_proof");
    if (st != CUZK_OK)
        return st;
    put(w, ",\"replica_column_proofs\":{\"c_x\":");
    if ((st = put_column(x, &p->c_x, "replica_column_proofs.c_x")) != CUZK_OK)
        return st;
    char field[48];
    for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS; k++) {
        int drg = k < FIL_POREP_DRG_PARENTS;
        unsigned j = drg ? k : k - FIL_POREP_DRG_PARENTS;
        if (j == 0)
            put(w, drg ? ",\"drg_parents\":[" : "],\"exp_parents\":[");
        else
            put(w, ",");
        snprintf(field, sizeof field, "replica_column_proofs.%s[%u]",
                 drg ? "drg_parents" : "exp_parents", j);
        st = put_column(x, drg ? &p->drg_parents[j] : &p->exp_parents[j], field);
        if (st != CUZK_OK)
            return st;
    }
    put(w, "]},\"labeling_proofs\":[");
    for (unsigned l = 0; l < x->c1->layers; l++) {
        if (l)
            put(w, ",");
        put_label(w, &p->labeling[l]);
    }
    put(w, "],\"encoding_proof\":");
    put_label(w, &p->encoding);
    put(w, "}");
    return CUZK_OK;
}

/* c1's shape fields must be its registered proof's (fil_c1_init). */
static cuzk_status check_shape(wr_t *x)
{
    const fil_c1_t *c1 = x->c1;
    const fil_seal_info_t *info = fil_seal_info(c1->registered_proof);
    if (!info)
        return cuzk_error_set(x->err, CUZK_ERR_ARG,
                              "C1 write: registered_proof: %d is not a registered seal proof",
                              (int)c1->registered_proof);
    fil_tree_shape_t tree;
    cuzk_status st = fil_sector_tree(&tree, info->sector_size, x->err);
    if (st != CUZK_OK)
        return st;
    if (c1->sector_size != info->sector_size || c1->nodes != info->nodes ||
        c1->layers != info->layers || c1->partitions != info->partitions ||
        c1->challenges != info->challenges_per_partition ||
        memcmp(&c1->tree, &tree, sizeof tree) != 0 || !c1->proofs)
        return cuzk_error_set(x->err, CUZK_ERR_ARG,
                              "C1 write: the shape fields are not %s's (sector size, nodes, "
                              "layers, partitions, challenges, tree: see fil_c1_init)",
                              info->name);
    x->dtree = (fil_tree_shape_t){FIL_HASHER_SHA256, 2, 0, 0};
    if ((st = fil_tree_shape_levels(&x->tree_base, NULL, &c1->tree, c1->nodes, x->err)) != CUZK_OK)
        return st;
    return fil_tree_shape_levels(&x->d_base, NULL, &x->dtree, c1->nodes, x->err);
}

/* The C1 JSON into x->w (its bytes stay there on success). */
static cuzk_status write_c1(wr_t *x)
{
    cuzk_status st = check_shape(x);
    if (st != CUZK_OK)
        return st;
    const fil_c1_t *c1 = x->c1;
    jw_t *w = &x->w;
    fil_seal_proof v1;
    if ((st = fil_seal_from_size(&v1, c1->sector_size, FIL_API_1_0, x->err)) != CUZK_OK)
        return st;
    put(w, "{\"registered_proof\":\"");
    put(w, fil_seal_info(c1->registered_proof)->name);
    /* VanillaSealProof: the sector size's V1 name, whatever the version */
    put(w, "\",\"vanilla_proofs\":{\"");
    put(w, fil_seal_info(v1)->name);
    put(w, "\":[");
    for (x->k = 0; x->k < c1->partitions; x->k++) {
        put(w, x->k ? ",[" : "[");
        for (x->i = 0; x->i < c1->challenges; x->i++) {
            if (x->i)
                put(w, ",");
            st = put_proof(x, &c1->proofs[x->k * c1->challenges + x->i]);
            if (st != CUZK_OK)
                return st;
        }
        put(w, "]");
    }
    put(w, "]},\"comm_r\":");
    put_domain(w, &c1->comm_r);
    put(w, ",\"comm_d\":");
    put_domain(w, &c1->comm_d);
    put(w, ",\"replica_id\":");
    put_domain(w, &c1->replica_id);
    put(w, ",\"seed\":");
    put_bytes32(w, c1->seed);
    put(w, ",\"ticket\":");
    put_bytes32(w, c1->ticket);
    put(w, "}");
    if (w->nomem)
        return cuzk_error_set(x->err, CUZK_ERR_NOMEM, "C1 write: out of memory after %zu bytes",
                              w->n);
    return CUZK_OK;
}

cuzk_status fil_c1_write(char **out, size_t *n, const fil_c1_t *c1, cuzk_error_t *err)
{
    if (!out || !n || !c1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_write: NULL argument");
    *out = NULL;
    *n = 0;
    wr_t x;
    memset(&x, 0, sizeof x);
    x.c1 = c1;
    x.err = err;
    cuzk_status st = write_c1(&x);
    if (st != CUZK_OK) {
        free(x.w.p);
        return st;
    }
    *out = x.w.p;
    *n = x.w.n;
    return CUZK_OK;
}

/* ---- Curio's envelope ---------------------------------------------------- */

static const char k_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard base64 with padding (Go's base64.StdEncoding). */
static void b64_encode(char *out, const uint8_t *in, size_t n)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        *out++ = k_b64[v >> 18];
        *out++ = k_b64[v >> 12 & 63];
        *out++ = k_b64[v >> 6 & 63];
        *out++ = k_b64[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        *out++ = k_b64[v >> 18];
        *out++ = k_b64[v >> 12 & 63];
        *out++ = '=';
        *out++ = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        *out++ = k_b64[v >> 18];
        *out++ = k_b64[v >> 12 & 63];
        *out++ = k_b64[v >> 6 & 63];
        *out++ = '=';
    }
}

cuzk_status fil_c1_write_curio(char **out, size_t *n, const fil_c1_t *c1, uint64_t sector_num,
                               cuzk_error_t *err)
{
    if (!out || !n || !c1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_write_curio: NULL argument");
    *out = NULL;
    *n = 0;
    wr_t x;
    memset(&x, 0, sizeof x);
    x.c1 = c1;
    x.err = err;
    cuzk_status st = write_c1(&x);
    if (st != CUZK_OK) {
        free(x.w.p);
        return st;
    }
    /* the C1 JSON, then the envelope around its base64 */
    char head[64], tail[64];
    char num[21], size[21];
    num[u64_dec(num, sector_num)] = 0;
    size[u64_dec(size, c1->sector_size)] = 0;
    int hk = snprintf(head, sizeof head, "{\"SectorNum\":%s,\"Phase1Out\":\"", num);
    int tk = snprintf(tail, sizeof tail, "\",\"SectorSize\":%s}", size);
    const size_t b64 = (x.w.n + 2) / 3 * 4;
    const size_t total = (size_t)hk + b64 + (size_t)tk;
    char *buf = malloc(total);
    if (!buf) {
        free(x.w.p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "C1 write: out of memory (%zu bytes)", total);
    }
    memcpy(buf, head, (size_t)hk);
    b64_encode(buf + hk, (const uint8_t *)x.w.p, x.w.n);
    memcpy(buf + (size_t)hk + b64, tail, (size_t)tk);
    free(x.w.p);
    *out = buf;
    *n = total;
    return CUZK_OK;
}
