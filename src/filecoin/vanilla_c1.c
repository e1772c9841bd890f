/* Reading the PoRep C1 output (filecoin_c1.h): the SealCommitPhase1Output
 * schema (API@0e64ce8 src/seal.rs; RFP@87348a7 storage-proofs-porep/src/
 * stacked/vanilla/params.rs, column.rs, column_proof.rs, labeling_proof.rs,
 * encoding_proof.rs; storage-proofs-core/src/merkle/proof.rs) over the
 * streaming reader of vanilla_c1_json.h, Curio's envelope (CUR lib/ffi/
 * cuzk_funcs.go, extern/cuzk/cuzk-core/src/prover.rs), and the circuit's
 * view of a parsed C1.
 *
 * No JSON tree (cJSON): a 32 GiB C1 holds ~380,000 domains of 32 numbers
 * each, and a node per number (~80 bytes with malloc's overhead) would
 * take ~0.9 GB for 38 MB of text; cJSON's doubles also cannot tell 1.0
 * from 1 (serde refuses the first for an integer) nor hold every u64. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"
#include "vanilla_c1_json.h"

_Static_assert(FIL_C1_LABEL_PARENTS == FIL_LABEL_PARENTS, "TOTAL_PARENTS");

static cuzk_status elem_domain(fil_jr_t *r, void *ctx, size_t i)
{
    return fil_jr_domain(r, &((fr_t *)ctx)[i]);
}

/* ---- MerkleProof ---------------------------------------------------------- */

enum { TAG_SINGLE, TAG_SUB, TAG_TOP };
static const char *const k_tags[3] = {"Single", "Sub", "Top"};

/* One proof being read: where it goes and the tree it must fit. */
typedef struct mp {
    fil_merkle_path_t *p;
    const fil_tree_shape_t *shape;
    unsigned base;                /* base levels */
    unsigned first, count, arity; /* the InclusionPath being read */
    unsigned level;               /* the PathElement being read */
} mp_t;

static cuzk_status path_element_field(fil_jr_t *r, void *ctx, unsigned f)
{
    mp_t *m = ctx;
    fil_merkle_level_t *lv = &m->p->level[m->level];
    if (f == 0)
        return fil_jr_array(r, m->arity - 1, "hashes", elem_domain, lv->siblings);
    uint64_t index = 0;
    fil_jr_peek(r);
    const size_t at = r->at;
    cuzk_status st = fil_jr_uint(r, &index, UINT64_MAX, "usize");
    if (st == CUZK_OK && index >= m->arity)
        st = fil_jr_fail(r, CUZK_ERR_FORMAT, at, "index %llu, the level's arity is %u",
                         (unsigned long long)index, m->arity);
    lv->index = (unsigned)index;
    return st;
}

static cuzk_status path_element(fil_jr_t *r, void *ctx, size_t i)
{
    static const char *const names[] = {"hashes", "index"};
    mp_t *m = ctx;
    m->level = m->first + (unsigned)i;
    m->p->level[m->level].arity = m->arity;
    return fil_jr_object(r, names, 2, path_element_field, m);
}

static cuzk_status inclusion_path_field(fil_jr_t *r, void *ctx, unsigned f)
{
    mp_t *m = ctx;
    (void)f;
    return fil_jr_array(r, m->count, "path elements", path_element, m);
}

/* InclusionPath { path } filling levels [first, first + count) of arity. */
static cuzk_status inclusion_path(fil_jr_t *r, mp_t *m, unsigned first, unsigned count,
                                  unsigned arity)
{
    static const char *const names[] = {"path"};
    m->first = first;
    m->count = count;
    m->arity = arity;
    return fil_jr_object(r, names, 1, inclusion_path_field, m);
}

/* SingleProof {root, leaf, path}; SubProof {base_proof, sub_proof, root,
 * leaf}; TopProof {base_proof, sub_proof, top_proof, root, leaf}: read
 * with one name table, fields mapped to these. */
enum { F_ROOT, F_LEAF, F_PATH, F_BASE, F_SUB, F_TOP };
static const char *const k_single[] = {"root", "leaf", "path"};
static const char *const k_sub[] = {"base_proof", "sub_proof", "root", "leaf"};
static const char *const k_top[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};
static const unsigned k_single_f[] = {F_ROOT, F_LEAF, F_PATH};
static const unsigned k_sub_f[] = {F_BASE, F_SUB, F_ROOT, F_LEAF};
static const unsigned k_top_f[] = {F_BASE, F_SUB, F_TOP, F_ROOT, F_LEAF};

typedef struct pd {
    mp_t *m;
    const unsigned *map;
} pd_t;

static cuzk_status proof_part(fil_jr_t *r, void *ctx, unsigned f)
{
    pd_t *d = ctx;
    mp_t *m = d->m;
    switch (d->map[f]) {
    case F_ROOT: return fil_jr_domain(r, &m->p->root);
    case F_LEAF: return fil_jr_domain(r, &m->p->leaf);
    case F_PATH:
    case F_BASE: return inclusion_path(r, m, 0, m->base, m->shape->base_arity);
    case F_SUB: return inclusion_path(r, m, m->base, 1, m->shape->sub_arity);
    default: return inclusion_path(r, m, m->base + 1, 1, m->shape->top_arity);
    }
}

static cuzk_status proof_data(fil_jr_t *r, void *ctx, unsigned f)
{
    mp_t *m = ctx;
    (void)f;
    unsigned tag;
    size_t key_at;
    cuzk_status st = fil_jr_variant(r, k_tags, 3, &tag, &key_at);
    if (st != CUZK_OK)
        return st;
    const fil_tree_shape_t *s = m->shape;
    unsigned want = s->top_arity ? TAG_TOP : s->sub_arity ? TAG_SUB : TAG_SINGLE;
    if (tag != want)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, key_at,
                           "variant `%s`, the %u-%u-%u tree's proofs are `%s`", k_tags[tag],
                           s->base_arity, s->sub_arity, s->top_arity, k_tags[want]);
    size_t old = fil_jr_push_field(r, k_tags[tag]);
    pd_t d = {m, tag == TAG_SINGLE ? k_single_f : tag == TAG_SUB ? k_sub_f : k_top_f};
    if (tag == TAG_SINGLE)
        st = fil_jr_object(r, k_single, 3, proof_part, &d);
    else if (tag == TAG_SUB)
        st = fil_jr_object(r, k_sub, 4, proof_part, &d);
    else
        st = fil_jr_object(r, k_top, 5, proof_part, &d);
    if (st != CUZK_OK)
        return st;
    fil_jr_pop(r, old);
    m->p->n_levels = m->base + (s->sub_arity ? 1u : 0u) + (s->top_arity ? 1u : 0u);
    return fil_jr_variant_end(r);
}

/* MerkleProof { data } of a tree of `shape` with `base` base levels. */
static cuzk_status merkle_proof(fil_jr_t *r, fil_merkle_path_t *p, const fil_tree_shape_t *shape,
                                unsigned base)
{
    static const char *const names[] = {"data"};
    mp_t m = {p, shape, base, 0, 0, 0, 0};
    memset(p, 0, sizeof *p);
    return fil_jr_object(r, names, 1, proof_data, &m);
}

/* ---- Proof ---------------------------------------------------------------- */

/* The shape a vanilla_proofs variant (a sector size) fixes. */
typedef struct vshape {
    fil_seal_proof v1; /* the variant: the size's V1 proof */
    uint64_t sector_size, nodes;
    unsigned layers, challenges;
    fil_tree_shape_t tree, dtree;
    unsigned tree_base, d_base;
} vshape_t;

static cuzk_status vshape_init(vshape_t *v, fil_seal_proof v1, cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_seal_info(v1);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG, "C1: seal proof %d is not registered", (int)v1);
    memset(v, 0, sizeof *v);
    v->v1 = v1;
    v->sector_size = info->sector_size;
    v->nodes = info->nodes;
    v->layers = info->layers;
    v->challenges = info->challenges_per_partition;
    v->dtree = (fil_tree_shape_t){FIL_HASHER_SHA256, 2, 0, 0};
    cuzk_status st = fil_sector_tree(&v->tree, info->sector_size, err);
    if (st == CUZK_OK)
        st = fil_tree_shape_levels(&v->tree_base, NULL, &v->tree, v->nodes, err);
    if (st == CUZK_OK)
        st = fil_tree_shape_levels(&v->d_base, NULL, &v->dtree, v->nodes, err);
    return st;
}

typedef struct pr {
    const vshape_t *v;
    fil_c1_proof_t *proof;
    fil_c1_column_t *col;
    fil_c1_label_t *label;
} pr_t;

static cuzk_status column_field(fil_jr_t *r, void *ctx, unsigned f)
{
    pr_t *c = ctx;
    uint64_t v = 0;
    cuzk_status st;
    switch (f) {
    case 0:
        st = fil_jr_uint(r, &v, UINT32_MAX, "u32");
        c->col->index = (uint32_t)v;
        return st;
    case 1: return fil_jr_array(r, c->v->layers, "rows", elem_domain, c->col->rows);
    default: /* _h: PhantomData, serialized as unit */ return fil_jr_null(r);
    }
}

static cuzk_status column_proof_field(fil_jr_t *r, void *ctx, unsigned f)
{
    static const char *const names[] = {"index", "rows", "_h"};
    pr_t *c = ctx;
    if (f == 0)
        return fil_jr_object(r, names, 3, column_field, c);
    return merkle_proof(r, &c->col->proof, &c->v->tree, c->v->tree_base);
}

static cuzk_status column_proof(fil_jr_t *r, pr_t *c, fil_c1_column_t *col)
{
    static const char *const names[] = {"column", "inclusion_proof"};
    c->col = col;
    return fil_jr_object(r, names, 2, column_proof_field, c);
}

static cuzk_status elem_drg(fil_jr_t *r, void *ctx, size_t i)
{
    pr_t *c = ctx;
    return column_proof(r, c, &c->proof->drg_parents[i]);
}

static cuzk_status elem_exp(fil_jr_t *r, void *ctx, size_t i)
{
    pr_t *c = ctx;
    return column_proof(r, c, &c->proof->exp_parents[i]);
}

static cuzk_status replica_columns_field(fil_jr_t *r, void *ctx, unsigned f)
{
    pr_t *c = ctx;
    if (f == 0)
        return column_proof(r, c, &c->proof->c_x);
    if (f == 1)
        return fil_jr_array(r, FIL_POREP_DRG_PARENTS, "DRG parent columns", elem_drg, c);
    return fil_jr_array(r, FIL_POREP_EXP_PARENTS, "expander parent columns", elem_exp, c);
}

static cuzk_status label_field(fil_jr_t *r, void *ctx, unsigned f)
{
    pr_t *c = ctx;
    uint64_t v = 0;
    cuzk_status st;
    switch (f) {
    case 0: return fil_jr_array(r, FIL_C1_LABEL_PARENTS, "parents", elem_domain, c->label->parents);
    case 1:
        st = fil_jr_uint(r, &v, UINT32_MAX, "u32");
        c->label->layer_index = (uint32_t)v;
        return st;
    default: return fil_jr_uint(r, &c->label->node, UINT64_MAX, "u64");
    }
}

static cuzk_status label(fil_jr_t *r, pr_t *c, fil_c1_label_t *l)
{
    static const char *const names[] = {"parents", "layer_index", "node"};
    c->label = l;
    return fil_jr_object(r, names, 3, label_field, c);
}

static cuzk_status elem_label(fil_jr_t *r, void *ctx, size_t i)
{
    pr_t *c = ctx;
    return label(r, c, &c->proof->labeling[i]);
}

static cuzk_status proof_field(fil_jr_t *r, void *ctx, unsigned f)
{
    static const char *const rcp[] = {"c_x", "drg_parents", "exp_parents"};
    pr_t *c = ctx;
    switch (f) {
    case 0: return merkle_proof(r, &c->proof->comm_d_proof, &c->v->dtree, c->v->d_base);
    case 1: return merkle_proof(r, &c->proof->comm_r_last_proof, &c->v->tree, c->v->tree_base);
    case 2: return fil_jr_object(r, rcp, 3, replica_columns_field, c);
    case 3: return fil_jr_array(r, c->v->layers, "labeling proofs", elem_label, c);
    default: return label(r, c, &c->proof->encoding);
    }
}

static cuzk_status proof(fil_jr_t *r, const vshape_t *v, fil_c1_proof_t *out)
{
    static const char *const names[] = {"comm_d_proofs", "comm_r_last_proof",
                                        "replica_column_proofs", "labeling_proofs",
                                        "encoding_proof"};
    pr_t c = {v, out, NULL, NULL};
    return fil_jr_object(r, names, 5, proof_field, &c);
}

/* ---- SealCommitPhase1Output ------------------------------------------------ */

typedef struct top {
    fil_c1_t *c1;
    vshape_t v;
    size_t variant_at, proofs_at; /* offsets for the checks after the object */
    unsigned partitions;
    size_t cap;           /* partitions c1->proofs has room for */
    fil_c1_proof_t *part; /* the partition being read */
} top_t;

static cuzk_status elem_proof(fil_jr_t *r, void *ctx, size_t i)
{
    top_t *t = ctx;
    return proof(r, &t->v, &t->part[i]);
}

/* [[Proof; challenges]; partitions]: the proofs grow a partition at a
 * time, at most FIL_C1_MAX_PARTITIONS. */
static cuzk_status partitions(fil_jr_t *r, top_t *t)
{
    fil_jr_peek(r);
    t->proofs_at = r->at;
    cuzk_status st = fil_jr_enter(r, '[', "'[' (partitions)");
    if (st != CUZK_OK)
        return st;
    const size_t per = t->v.challenges;
    for (size_t k = 0;; k++) {
        int more = fil_jr_next(r, k, &st);
        if (more < 0)
            return st;
        if (!more)
            break;
        if (k == FIL_C1_MAX_PARTITIONS)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, t->proofs_at, "more than %u partitions",
                               FIL_C1_MAX_PARTITIONS);
        if (k == t->cap) { /* doubling: realloc copies ~0.15 MB a proof */
            size_t cap = t->cap ? 2 * t->cap : 1;
            cap = cap < FIL_C1_MAX_PARTITIONS ? cap : FIL_C1_MAX_PARTITIONS;
            fil_c1_proof_t *q = realloc(t->c1->proofs, cap * per * sizeof *q);
            if (!q)
                return cuzk_error_set(r->err, CUZK_ERR_NOMEM, "%s: out of memory at partition %zu",
                                      r->what, k);
            t->c1->proofs = q;
            t->cap = cap;
        }
        t->part = t->c1->proofs + k * per;
        memset(t->part, 0, per * sizeof *t->part);
        t->partitions = (unsigned)k + 1;
        size_t old = fil_jr_push(r, "[%zu]", k);
        if ((st = fil_jr_array(r, per, "proofs", elem_proof, t)) != CUZK_OK)
            return st;
        fil_jr_pop(r, old);
    }
    if (t->partitions == 0)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, t->proofs_at, "no partitions");
    if (t->cap > t->partitions) { /* give back the unused room */
        fil_c1_proof_t *q = realloc(t->c1->proofs, t->partitions * per * sizeof *q);
        if (q)
            t->c1->proofs = q;
    }
    return CUZK_OK;
}

static cuzk_status vanilla_proofs(fil_jr_t *r, top_t *t)
{
    /* VanillaSealProof's variants: the V1 proofs' names, one per size */
    static const fil_seal_proof k_v1[] = {FIL_SEAL_2K_V1, FIL_SEAL_8M_V1, FIL_SEAL_512M_V1,
                                          FIL_SEAL_32G_V1, FIL_SEAL_64G_V1};
    const char *names[5];
    for (unsigned i = 0; i < 5; i++)
        names[i] = fil_seal_info(k_v1[i])->name;
    unsigned which;
    cuzk_status st = fil_jr_variant(r, names, 5, &which, &t->variant_at);
    if (st == CUZK_OK)
        st = vshape_init(&t->v, k_v1[which], r->err);
    if (st == CUZK_OK)
        st = partitions(r, t);
    if (st == CUZK_OK)
        st = fil_jr_variant_end(r);
    return st;
}

static cuzk_status registered_proof(fil_jr_t *r, fil_seal_proof *out)
{
    /* a unit variant: "Name", or {"Name": null} which serde_json also takes */
    fil_jr_peek(r);
    const size_t at = r->at;
    int wrapped = r->at < r->n && r->p[r->at] == '{';
    cuzk_status st = CUZK_OK;
    if (wrapped && (st = fil_jr_enter(r, '{', "'{'")) != CUZK_OK)
        return st;
    uint8_t name[64];
    size_t len;
    if ((st = fil_jr_string(r, name, sizeof name - 1, &len)) != CUZK_OK)
        return st;
    int found = 0;
    for (int p = 0; p < FIL_SEAL_COUNT && len < sizeof name; p++) {
        const char *nm = fil_seal_info((fil_seal_proof)p)->name;
        if (strlen(nm) == len && memcmp(nm, name, len) == 0) {
            *out = (fil_seal_proof)p;
            found = 1;
        }
    }
    if (!found) {
        name[len < sizeof name ? len : sizeof name - 1] = 0;
        for (size_t i = 0; name[i]; i++)
            if (name[i] < 0x20 || name[i] >= 0x7f)
                name[i] = '?';
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "unknown registered proof `%s`", (char *)name);
    }
    if (wrapped) {
        if ((st = fil_jr_expect(r, ':', "':'")) != CUZK_OK || (st = fil_jr_null(r)) != CUZK_OK)
            return st;
        return fil_jr_variant_end(r);
    }
    return CUZK_OK;
}

static cuzk_status top_field(fil_jr_t *r, void *ctx, unsigned f)
{
    top_t *t = ctx;
    fil_c1_t *c1 = t->c1;
    switch (f) {
    case 0: return registered_proof(r, &c1->registered_proof);
    case 1: return vanilla_proofs(r, t);
    case 2: return fil_jr_domain(r, &c1->comm_r);
    case 3: return fil_jr_domain(r, &c1->comm_d);
    case 4: return fil_jr_domain(r, &c1->replica_id);
    case 5: return fil_jr_bytes32(r, c1->seed);
    default: return fil_jr_bytes32(r, c1->ticket);
    }
}

/* The shape fields of a C1 of proof p. */
static cuzk_status c1_shape_of(fil_c1_t *c1, fil_seal_proof p, cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_seal_info(p);
    if (!info)
        return cuzk_error_set(err, CUZK_ERR_ARG, "C1: seal proof %d is not registered", (int)p);
    c1->registered_proof = p;
    c1->sector_size = info->sector_size;
    c1->nodes = info->nodes;
    c1->layers = info->layers;
    c1->partitions = info->partitions;
    c1->challenges = info->challenges_per_partition;
    return fil_sector_tree(&c1->tree, info->sector_size, err);
}

/* What serde cannot see: the variant and the counts against the
 * registered proof read (possibly after them). */
static cuzk_status top_check(fil_jr_t *r, top_t *t)
{
    fil_c1_t *c1 = t->c1;
    const fil_seal_proof p = c1->registered_proof;
    cuzk_status st = c1_shape_of(c1, p, r->err);
    if (st != CUZK_OK)
        return st;
    const char *name = fil_seal_info(p)->name;
    fil_jr_pop(r, 0);
    fil_jr_push(r, "vanilla_proofs");
    if (c1->sector_size != t->v.sector_size)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, t->variant_at,
                           "variant `%s` (%llu-byte sectors), the registered proof %s seals %llu",
                           fil_seal_info(t->v.v1)->name, (unsigned long long)t->v.sector_size, name,
                           (unsigned long long)c1->sector_size);
    if (c1->layers != t->v.layers || c1->challenges != t->v.challenges)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, t->variant_at,
                           "%s has %u layers and %u challenges a partition, %s %u and %u", name,
                           c1->layers, c1->challenges, fil_seal_info(t->v.v1)->name, t->v.layers,
                           t->v.challenges);
    if (c1->partitions != t->partitions)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, t->proofs_at, "%u partitions, %s has %u",
                           t->partitions, name, c1->partitions);
    fil_jr_pop(r, 0);
    return CUZK_OK;
}

static cuzk_status parse_c1(fil_c1_t *out, const uint8_t *json, size_t n, const char *what,
                            cuzk_error_t *err)
{
    static const char *const names[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                        "replica_id",       "seed",           "ticket"};
    memset(out, 0, sizeof *out);
    fil_jr_t r;
    fil_jr_init(&r, json, n, what, err);
    top_t t;
    memset(&t, 0, sizeof t);
    t.c1 = out;
    cuzk_status st = fil_jr_object(&r, names, 7, top_field, &t);
    if (st == CUZK_OK && fil_jr_peek(&r) >= 0)
        st = fil_jr_fail(&r, CUZK_ERR_FORMAT, r.at, "trailing characters after the C1 object");
    if (st == CUZK_OK)
        st = top_check(&r, &t);
    if (st != CUZK_OK)
        fil_c1_free(out);
    return st;
}

cuzk_status fil_c1_parse(fil_c1_t *out, const uint8_t *json, size_t n, cuzk_error_t *err)
{
    if (!out || (!json && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_parse: NULL argument");
    return parse_c1(out, json, n, "C1", err);
}

/* ---- Curio's envelope ----------------------------------------------------- */

static int b64_value(uint8_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Standard base64 with canonical padding (Rust base64 STANDARD: length a
 * multiple of 4, '=' only to pad the last group, unused bits zero),
 * decoded in place: b[0..*n) becomes the bytes. Returns the position of
 * the first bad character, or SIZE_MAX when it decoded. */
static size_t b64_decode_inplace(uint8_t *b, size_t *n)
{
    const size_t len = *n;
    if (len % 4)
        return len;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4], pad = 0;
        for (int j = 0; j < 4; j++) {
            uint8_t c = b[i + (size_t)j];
            if (c == '=' && i + 4 == len && j >= 2) {
                if (j == 2 && b[i + 3] != '=')
                    return i + 2;
                v[j] = 0;
                pad++;
                continue;
            }
            if (pad || (v[j] = b64_value(c)) < 0)
                return i + (size_t)j;
        }
        uint32_t w =
            (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))
            return i + 3 - (size_t)pad; /* the last symbol has bits the bytes do not use */
        b[o++] = (uint8_t)(w >> 16);
        if (pad < 2)
            b[o++] = (uint8_t)(w >> 8);
        if (pad < 1)
            b[o++] = (uint8_t)w;
    }
    *n = o;
    return SIZE_MAX;
}

typedef struct curio {
    uint64_t sector_num, sector_size;
    size_t size_at;
    uint8_t *c1_json; /* Phase1Out decoded */
    size_t c1_len;
} curio_t;

static cuzk_status curio_field(fil_jr_t *r, void *ctx, unsigned f)
{
    curio_t *c = ctx;
    if (f == 0)
        return fil_jr_uint(r, &c->sector_num, UINT64_MAX, "u64");
    if (f == 2) {
        fil_jr_peek(r);
        c->size_at = r->at;
        return fil_jr_uint(r, &c->sector_size, UINT64_MAX, "u64");
    }
    /* Phase1Out: validate and measure, then decode into a buffer of that
     * size, then base64 in place */
    fil_jr_peek(r);
    const size_t at = r->at;
    size_t len;
    cuzk_status st = fil_jr_string(r, NULL, 0, &len);
    if (st != CUZK_OK)
        return st;
    uint8_t *b = malloc(len ? len : 1);
    if (!b)
        return cuzk_error_set(r->err, CUZK_ERR_NOMEM, "%s: Phase1Out: out of memory (%zu bytes)",
                              r->what, len);
    r->at = at;
    if ((st = fil_jr_string(r, b, len, &len)) != CUZK_OK) {
        free(b);
        return st;
    }
    size_t bad = b64_decode_inplace(b, &len);
    if (bad != SIZE_MAX) {
        free(b);
        if (bad == len)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, at,
                               "base64 of %zu characters (not a multiple of 4)", len);
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "invalid base64 at character %zu", bad);
    }
    free(c->c1_json);
    c->c1_json = b;
    c->c1_len = len;
    return CUZK_OK;
}

cuzk_status fil_c1_parse_curio(fil_c1_t *out, uint64_t *sector_num, uint64_t *sector_size,
                               const uint8_t *json, size_t n, cuzk_error_t *err)
{
    static const char *const names[] = {"SectorNum", "Phase1Out", "SectorSize"};
    if (!out || !sector_num || !sector_size || (!json && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_parse_curio: NULL argument");
    memset(out, 0, sizeof *out);
    *sector_num = *sector_size = 0;
    fil_jr_t r;
    fil_jr_init(&r, json, n, "Curio C1", err);
    curio_t c;
    memset(&c, 0, sizeof c);
    cuzk_status st = fil_jr_object(&r, names, 3, curio_field, &c);
    if (st == CUZK_OK && fil_jr_peek(&r) >= 0)
        st = fil_jr_fail(&r, CUZK_ERR_FORMAT, r.at, "trailing characters after the object");
    if (st == CUZK_OK)
        st = parse_c1(out, c.c1_json, c.c1_len, "Curio C1: Phase1Out (decoded)", err);
    free(c.c1_json);
    if (st == CUZK_OK && out->sector_size != c.sector_size) {
        fil_jr_push(&r, "SectorSize");
        st = fil_jr_fail(&r, CUZK_ERR_FORMAT, c.size_at, "%llu, Phase1Out's %s seals %llu",
                         (unsigned long long)c.sector_size,
                         fil_seal_info(out->registered_proof)->name,
                         (unsigned long long)out->sector_size);
        fil_c1_free(out);
    }
    if (st == CUZK_OK) {
        *sector_num = c.sector_num;
        *sector_size = c.sector_size;
    }
    return st;
}

/* ---- the C1 as data and as circuit input ---------------------------------- */

cuzk_status fil_c1_init(fil_c1_t *out, fil_seal_proof p, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_init: NULL argument");
    memset(out, 0, sizeof *out);
    cuzk_status st = c1_shape_of(out, p, err);
    if (st != CUZK_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    out->proofs = calloc((size_t)out->partitions * out->challenges, sizeof *out->proofs);
    if (!out->proofs) {
        memset(out, 0, sizeof *out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "fil_c1_init: out of memory");
    }
    return CUZK_OK;
}

void fil_c1_free(fil_c1_t *c1)
{
    if (!c1)
        return;
    free(c1->proofs);
    memset(c1, 0, sizeof *c1);
}

void fil_c1_shape(fil_porep_shape_t *out, const fil_c1_t *c1)
{
    out->nodes = c1->nodes;
    out->tree = c1->tree;
    out->layers = c1->layers;
    out->challenges = c1->challenges;
}

static int is_zero32(const uint8_t b[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= b[i];
    return acc == 0;
}

static cuzk_status c1_arg_check(const fil_c1_t *c1, const char *fn, cuzk_error_t *err)
{
    if (!c1->proofs || !c1->partitions || !c1->challenges || c1->layers < 1 ||
        c1->layers > FIL_POREP_MAX_LAYERS)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: not a parsed or initialized C1", fn);
    return CUZK_OK;
}

/* Every root of kind `which` in every proof equals *want. */
static cuzk_status roots_agree(const fil_c1_t *c1, const fr_t *want, int which,
                               const char *want_name, cuzk_error_t *err)
{
    static const char *const what[] = {"comm_d_proofs", "comm_r_last_proof",
                                       "replica_column_proofs"};
    const size_t total = (size_t)c1->partitions * c1->challenges;
    for (size_t j = 0; j < total; j++) {
        const fil_c1_proof_t *p = &c1->proofs[j];
        const fr_t *roots[1 + FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS];
        const char *names[1 + FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS];
        char buf[1 + FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS][24];
        unsigned n = 0;
        if (which == 0 || which == 1) {
            roots[n] = which ? &p->comm_r_last_proof.root : &p->comm_d_proof.root;
            names[n++] = "";
        } else {
            roots[n] = &p->c_x.proof.root;
            names[n++] = ".c_x";
            for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS; k++) {
                int drg = k < FIL_POREP_DRG_PARENTS;
                snprintf(buf[n], sizeof buf[n], ".%s[%u]", drg ? "drg_parents" : "exp_parents",
                         drg ? k : k - FIL_POREP_DRG_PARENTS);
                roots[n] = drg ? &p->drg_parents[k].proof.root
                               : &p->exp_parents[k - FIL_POREP_DRG_PARENTS].proof.root;
                names[n] = buf[n];
                n++;
            }
        }
        for (unsigned k = 0; k < n; k++)
            if (!fr_equal(roots[k], want))
                return cuzk_error_set(
                    err, CUZK_ERR_FORMAT, "C1: vanilla_proofs[%zu][%zu].%s%s: root differs from %s",
                    j / c1->challenges, j % c1->challenges, what[which], names[k], want_name);
    }
    return CUZK_OK;
}

cuzk_status fil_c1_public(fil_porep_public_t *out, const fil_c1_t *c1, unsigned partition,
                          cuzk_error_t *err)
{
    if (!out || !c1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_public: NULL argument");
    cuzk_status st = c1_arg_check(c1, "fil_c1_public", err);
    if (st != CUZK_OK)
        return st;
    if (partition >= c1->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_public: partition %u of %u", partition,
                              c1->partitions);
    /* seal_commit_phase2_circuit_proofs refuses these (filecoin-proofs
     * src/api/seal.rs) */
    uint8_t b[32];
    fr_to_le(b, &c1->comm_d);
    if (is_zero32(b))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "C1: comm_d: all zero");
    fr_to_le(b, &c1->comm_r);
    if (is_zero32(b))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "C1: comm_r: all zero");
    if (is_zero32(c1->seed))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "C1: seed: all zero");
    /* StackedCompound::circuit: the first proof's roots, all proofs agreeing */
    const fil_c1_proof_t *p0 = &c1->proofs[0];
    fil_porep_public_t pub;
    pub.replica_id = c1->replica_id;
    pub.comm_d = c1->comm_d;
    pub.comm_r = c1->comm_r;
    pub.comm_r_last = p0->comm_r_last_proof.root;
    pub.comm_c = p0->c_x.proof.root;
    if ((st = roots_agree(c1, &pub.comm_d, 0, "comm_d", err)) != CUZK_OK ||
        (st = roots_agree(c1, &pub.comm_r_last, 1, "vanilla_proofs[0][0]'s", err)) != CUZK_OK ||
        (st = roots_agree(c1, &pub.comm_c, 2, "vanilla_proofs[0][0].c_x's", err)) != CUZK_OK)
        return st;
    const poseidon_constants_t *pc;
    fr_t in[2] = {pub.comm_c, pub.comm_r_last}, h;
    if ((st = poseidon_constants_get(&pc, 2, err)) != CUZK_OK ||
        (st = poseidon_hash(&h, pc, in, 2, POSEIDON_OPTIMIZED, err)) != CUZK_OK)
        return st;
    if (!fr_equal(&h, &pub.comm_r))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "C1: comm_r is not Poseidon-2(comm_c, comm_r_last) of the proofs' "
                              "roots");
    *out = pub;
    return CUZK_OK;
}

/* A CUZK_ERR_FORMAT naming vanilla_proofs[k][i] and the field. */
__attribute__((format(printf, 4, 5))) static cuzk_status bad(cuzk_error_t *err, unsigned k,
                                                             unsigned i, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "C1: vanilla_proofs[%u][%u].%s", k, i, msg);
}

cuzk_status fil_c1_porep_challenge(fil_porep_challenge_t *out, const fil_c1_t *c1,
                                   unsigned partition, unsigned i, cuzk_error_t *err)
{
    if (!out || !c1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_c1_porep_challenge: NULL argument");
    cuzk_status st = c1_arg_check(c1, "fil_c1_porep_challenge", err);
    if (st != CUZK_OK)
        return st;
    if (partition >= c1->partitions || i >= c1->challenges)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "fil_c1_porep_challenge: challenge %u of partition %u (%u x %u)", i,
                              partition, c1->partitions, c1->challenges);
    const fil_c1_proof_t *p = &c1->proofs[(size_t)partition * c1->challenges + i];
    const unsigned L = c1->layers;
    /* circuit/params.rs: the challenge is labeling_proofs[0].node */
    const uint64_t c = p->labeling[0].node;
    if (c >= c1->nodes)
        return bad(err, partition, i, "labeling_proofs[0].node: %llu, the sector has %llu nodes",
                   (unsigned long long)c, (unsigned long long)c1->nodes);
    const struct {
        const fil_merkle_path_t *path;
        const char *name;
    } opens_c[] = {{&p->comm_d_proof, "comm_d_proofs"},
                   {&p->comm_r_last_proof, "comm_r_last_proof"},
                   {&p->c_x.proof, "replica_column_proofs.c_x.inclusion_proof"}};
    for (unsigned k = 0; k < 3; k++) {
        uint64_t at = fil_merkle_path_leaf_index(opens_c[k].path);
        if (at != c)
            return bad(err, partition, i, "%s: opens node %llu, the challenge is %llu",
                       opens_c[k].name, (unsigned long long)at, (unsigned long long)c);
    }
    if (p->c_x.index != c)
        return bad(err, partition, i,
                   "replica_column_proofs.c_x.column.index: %u, the challenge is %llu",
                   p->c_x.index, (unsigned long long)c);
    for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS; k++) {
        int drg = k < FIL_POREP_DRG_PARENTS;
        unsigned j = drg ? k : k - FIL_POREP_DRG_PARENTS;
        const fil_c1_column_t *col = drg ? &p->drg_parents[j] : &p->exp_parents[j];
        uint64_t at = fil_merkle_path_leaf_index(&col->proof);
        if (at != col->index)
            return bad(err, partition, i,
                       "replica_column_proofs.%s[%u].inclusion_proof: opens node %llu, the "
                       "column is %u",
                       drg ? "drg_parents" : "exp_parents", j, (unsigned long long)at, col->index);
    }
    for (unsigned l = 0; l <= L; l++) {
        const fil_c1_label_t *lb = l < L ? &p->labeling[l] : &p->encoding;
        char name[32];
        if (l < L)
            snprintf(name, sizeof name, "labeling_proofs[%u]", l);
        else
            snprintf(name, sizeof name, "encoding_proof");
        uint32_t want = l < L ? l + 1 : L;
        if (lb->layer_index != want)
            return bad(err, partition, i, "%s.layer_index: %u, %u expected", name, lb->layer_index,
                       want);
        if (lb->node != c)
            return bad(err, partition, i, "%s.node: %llu, the challenge is %llu", name,
                       (unsigned long long)lb->node, (unsigned long long)c);
    }
    out->challenge = c;
    out->data_leaf = p->comm_d_proof.leaf;
    out->comm_d_path = p->comm_d_proof;
    out->comm_r_last_path = p->comm_r_last_proof;
    out->comm_c_path = p->c_x.proof;
    memset(out->drg_cols, 0, sizeof out->drg_cols);
    memset(out->exp_cols, 0, sizeof out->exp_cols);
    for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS; k++) {
        memcpy(out->drg_cols[k], p->drg_parents[k].rows, L * sizeof(fr_t));
        out->drg_paths[k] = p->drg_parents[k].proof;
    }
    for (unsigned k = 0; k < FIL_POREP_EXP_PARENTS; k++) {
        memcpy(out->exp_cols[k], p->exp_parents[k].rows, L * sizeof(fr_t));
        out->exp_paths[k] = p->exp_parents[k].proof;
    }
    return CUZK_OK;
}
