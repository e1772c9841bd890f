/* The SnapDeals circuits (include/cuzk/filecoin_update.h; RFP@87348a7
 * storage-proofs-update/src/circuit.rs, poseidon/circuit.rs, gadgets.rs,
 * constants.rs). Allocation and enforce order follow the Rust line for
 * line: the header lists it. */
#include "cuzk/filecoin_update.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_insertion.h"
#include "cuzk/cs_multipack.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/filecoin_por.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"

/* ---- shape (constants.rs) ------------------------------------------------ */

/* ALLOWED_SECTOR_SIZES in nodes (log2) and validate_tree_r_shape's
 * sub/top arities for each. */
static const struct {
    unsigned log2_nodes, sub, top;
} k_sizes[] = {
    {5, 4, 0},  {6, 0, 0},  {7, 2, 0},  {8, 4, 0},  {9, 8, 0},  {10, 8, 2},
    {18, 0, 0}, {19, 2, 0}, {24, 0, 0}, {30, 8, 0}, {31, 8, 2},
};

cuzk_status fil_update_shape_init(fil_update_shape_t *out, fil_update_kind kind, uint64_t nodes,
                                  cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "update circuit: NULL shape");
    memset(out, 0, sizeof *out);
    if (kind != FIL_UPDATE_SHA && kind != FIL_UPDATE_POSEIDON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "update circuit: unknown kind %d", (int)kind);
    size_t i = 0;
    while (i < sizeof k_sizes / sizeof k_sizes[0] && nodes != UINT64_C(1) << k_sizes[i].log2_nodes)
        i++;
    if (i == sizeof k_sizes / sizeof k_sizes[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "update circuit: %llu nodes is not a sector size",
                              (unsigned long long)nodes);
    const unsigned lg = k_sizes[i].log2_nodes;
    fil_tree_shape_t r = {FIL_HASHER_POSEIDON, 8, k_sizes[i].sub, k_sizes[i].top};
    /* partition_count, challenge_count, hs, apex_leaf_count */
    unsigned partitions = lg <= 8 ? 1 : lg <= 10 ? 2 : lg <= 19 ? 4 : 16;
    unsigned challenges = lg <= 19 ? 10 : 86;
    out->kind = kind;
    out->nodes = nodes;
    out->tree_r = r;
    out->challenge_bits = lg;
    for (unsigned h = 0; h < FIL_UPDATE_HS; h++)
        out->hs[h] = lg <= 10 ? 1 : 7 + h;
    if (kind == FIL_UPDATE_SHA) {
        fil_tree_shape_t d = {FIL_HASHER_SHA256, 2, 0, 0};
        out->tree_d = d;
        out->challenges = challenges;
        out->partitions = partitions;
        while ((1u << out->partition_bits) < partitions)
            out->partition_bits++;
        out->apex_leafs = lg <= 8 ? 8 : 128;
        out->apex_leaf_bits = lg <= 8 ? 3 : 7;
    } else {
        out->tree_d = r;
        out->challenges = challenges * partitions; /* challenge_count_poseidon */
        out->partitions = 1;
    }
    return CUZK_OK;
}

/* ---- witness ------------------------------------------------------------- */

void fil_update_witness_free(fil_update_witness_t *w)
{
    if (!w)
        return;
    free(w->apex_leafs);
    free(w->challenges);
    w->apex_leafs = NULL;
    w->challenges = NULL;
}

cuzk_status fil_update_witness_blank(fil_update_witness_t *out, const fil_update_shape_t *shape,
                                     cuzk_error_t *err)
{
    if (!out || !shape)
        return cuzk_error_set(err, CUZK_ERR_ARG, "update circuit: NULL argument");
    memset(out, 0, sizeof *out);
    fil_update_challenge_t blank;
    cuzk_status st = fil_merkle_path_blank(&blank.r_old, &shape->tree_r, shape->nodes, err);
    if (st == CUZK_OK)
        st = fil_merkle_path_blank(&blank.d_new, &shape->tree_d, shape->nodes, err);
    if (st != CUZK_OK)
        return st;
    blank.r_new = blank.r_old;
    out->challenges = malloc((size_t)shape->challenges * sizeof *out->challenges);
    if (shape->apex_leafs)
        out->apex_leafs = calloc(shape->apex_leafs, sizeof *out->apex_leafs);
    if (!out->challenges || (shape->apex_leafs && !out->apex_leafs)) {
        fil_update_witness_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "update circuit: out of memory");
    }
    for (unsigned i = 0; i < shape->challenges; i++)
        out->challenges[i] = blank;
    return CUZK_OK;
}

/* ---- gadgets (gadgets.rs) ------------------------------------------------ */

static const poseidon_constants_t *gen_randomness(cs_t *cs)
{
    const poseidon_constants_t *pc = NULL;
    cuzk_error_t err;
    if (poseidon_constants_get_custom(&pc, 2, FIL_UPDATE_GEN_RANDOMNESS_ID, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return NULL;
    }
    return pc;
}

/* H(a, b) with POSEIDON_CONSTANTS_GEN_RANDOMNESS. */
static cs_num_t hash_rand(cs_t *cs, const char *ns, int64_t idx, const cs_num_t *a,
                          const cs_num_t *b)
{
    cs_num_t in[2] = {*a, *b}, h = {CS_ONE, FR_ZERO};
    const poseidon_constants_t *pc = gen_randomness(cs);
    if (!pc)
        return h;
    cs_ns_push(cs, ns, idx);
    cs_poseidon_hash(&h, cs, in, 2, pc);
    cs_ns_pop(cs);
    return h;
}

/* (sum 2^i bits[i]) * ONE = x: the binary decompositions of circuit.rs
 * (k_and_h_select, h_select) and of allocated_num_to_allocated_bits. */
static void enforce_decomp(cs_t *cs, const cs_bool_t *bits, size_t n, const cs_num_t *x)
{
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    for (size_t i = 0; i < n; i++)
        cs_lc_add(cs, a, bits[i].var, cs_pow2(cs, (unsigned)i));
    cs_lc_add(cs, b, CS_ONE, NULL);
    cs_lc_add(cs, c, x->var, NULL);
    cs_enforce(cs, a, b, c);
}

void fil_cs_update_gen_challenge_bits(cs_bool_t *out, cs_t *cs, const cs_num_t *comm_r_new,
                                      const cs_num_t *partition, unsigned challenges,
                                      unsigned bits_per_challenge)
{
    if (bits_per_challenge == 0 || bits_per_challenge > CS_MULTIPACK_CHUNK || challenges == 0) {
        cs_fail(cs, CUZK_ERR_ARG, "gen_challenge_bits: %u challenges of %u bits", challenges,
                bits_per_challenge);
        return;
    }
    const int vals = cs_has_values(cs);
    const unsigned per_digest = CS_MULTIPACK_CHUNK / bits_per_challenge;
    /* (challenges as f32 / per_digest as f32).ceil(): exact for these
     * small integers, so the integer ceiling. */
    const unsigned digests = (challenges + per_digest - 1) / per_digest;
    fr_t f_digests;
    fr_from_u64(&f_digests, digests);
    unsigned got = 0;
    for (unsigned j = 0; j < digests; j++) {
        fr_t v = FR_ZERO, f_j;
        fr_from_u64(&f_j, j);
        if (vals) {
            fr_mul(&v, &partition->value, &f_digests);
            fr_add(&v, &v, &f_j);
        }
        cs_ns_push(cs, "digest_index", j);
        cs_num_t di = cs_num_alloc(cs, &v);
        cs_ns_pop(cs);
        cs_lc_t *a, *b, *c;
        cs_enforce_begin(cs, &a, &b, &c);
        cs_lc_add(cs, a, partition->var, &f_digests);
        cs_lc_add(cs, a, CS_ONE, &f_j); /* j = 0 stays, as a zero term */
        cs_lc_add(cs, b, CS_ONE, NULL);
        cs_lc_add(cs, c, di.var, NULL);
        cs_enforce(cs, a, b, c);
        cs_num_t dg = hash_rand(cs, "digest", j, comm_r_new, &di);
        cs_bool_t bits[255];
        cs_ns_push(cs, "digest_bits", j);
        cs_bits_alloc_fr_le(bits, cs, &dg.value);
        enforce_decomp(cs, bits, 255, &dg);
        cs_ns_pop(cs);
        unsigned take = j + 1 == digests ? challenges - got : per_digest;
        for (unsigned t = 0; t < take; t++, got++)
            memcpy(out + (size_t)got * bits_per_challenge, bits + (size_t)t * bits_per_challenge,
                   bits_per_challenge * sizeof *bits);
    }
}

void fil_cs_update_apex_por(cs_t *cs, const cs_num_t *leafs, unsigned n,
                            const cs_bool_t *partition_bits, const cs_num_t *path, unsigned n_bits,
                            const cs_num_t *comm_d)
{
    if (n == 0 || (n & (n - 1)) || n > 1024) {
        cs_fail(cs, CUZK_ERR_ARG, "apex_por: %u apex leafs", n);
        return;
    }
    cs_num_t row[1024];
    memcpy(row, leafs, n * sizeof *row);
    for (unsigned w = n, r = 0; w > 1; w /= 2, r++) {
        cs_ns_push(cs, "apex_tree row", r);
        for (unsigned i = 0; i < w / 2; i++) {
            cs_ns_push(cs, "hash", i);
            row[i] = fil_cs_sha256_hash2(cs, &row[2 * i], &row[2 * i + 1]);
            cs_ns_pop(cs);
        }
        cs_ns_pop(cs);
    }
    const fil_tree_shape_t d = {FIL_HASHER_SHA256, 2, 0, 0};
    cs_ns_push(cs, "partition-tree por", -1);
    fil_cs_por_no_challenge_input(cs, &d, partition_bits, n_bits, &row[0], path, n_bits, comm_d);
    cs_ns_pop(cs);
}

cs_num_t fil_cs_update_challenge_high(cs_t *cs, const cs_bool_t *c_bits, unsigned n,
                                      const cs_bool_t *h_select_bits,
                                      const unsigned hs[FIL_UPDATE_HS])
{
    const int vals = cs_has_values(cs);
    cs_num_t zs[FIL_UPDATE_HS];
    fr_t sum = FR_ZERO;
    for (unsigned k = 0; k < FIL_UPDATE_HS; k++) {
        if (hs[k] > n || hs[k] == 0) {
            cs_fail(cs, CUZK_ERR_ARG, "get_challenge_high_bits: h = %u of %u bits", hs[k], n);
            cs_num_t none = {CS_ONE, FR_ZERO};
            return none;
        }
        cs_ns_push(cs, "c_high", k);
        cs_num_t hi = cs_pack_bits(cs, c_bits + (n - hs[k]), hs[k]);
        fr_t v = FR_ZERO;
        if (vals && h_select_bits[k].value)
            v = hi.value;
        zs[k] = cs_num_alloc(cs, &v);
        cs_lc_t *a, *b, *c;
        cs_enforce_begin(cs, &a, &b, &c);
        cs_lc_add(cs, a, hi.var, NULL);
        cs_lc_add(cs, b, h_select_bits[k].var, NULL);
        cs_lc_add(cs, c, zs[k].var, NULL);
        cs_enforce(cs, a, b, c);
        cs_ns_pop(cs);
        if (vals)
            fr_add(&sum, &sum, &v);
    }
    cs_num_t sel = cs_num_alloc(cs, &sum);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    for (unsigned k = 0; k < FIL_UPDATE_HS; k++)
        cs_lc_add(cs, a, zs[k].var, NULL);
    cs_lc_add(cs, b, CS_ONE, NULL);
    cs_lc_add(cs, c, sel.var, NULL);
    cs_enforce(cs, a, b, c);
    return sel;
}

cs_num_t fil_cs_update_label_r_new(cs_t *cs, const cs_num_t *r_old, const cs_num_t *d_new,
                                   const cs_num_t *rho)
{
    cs_num_t p = cs_num_mul(cs, d_new, rho);
    fr_t v = FR_ZERO;
    if (cs_has_values(cs))
        fr_add(&v, &r_old->value, &p.value);
    cs_num_t r = cs_num_alloc(cs, &v);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_add(cs, a, r_old->var, NULL);
    cs_lc_add(cs, a, p.var, NULL);
    cs_lc_add(cs, b, CS_ONE, NULL);
    cs_lc_add(cs, c, r.var, NULL);
    cs_enforce(cs, a, b, c);
    return r;
}

/* ---- the circuits -------------------------------------------------------- */

/* What every challenge shares. */
typedef struct update_ctx {
    const fil_update_shape_t *sh;
    const fil_update_witness_t *w;
    unsigned levels_r; /* TreeR path levels */
    cs_num_t phi, comm_d_new, root_r_old, root_r_new;
    const cs_bool_t *h_select_bits;
    const cs_num_t *apex_leafs;
} update_ctx_t;

/* The siblings of levels [from, to) of p, allocated in order; returns how
 * many. */
static unsigned alloc_siblings(cs_num_t *out, cs_t *cs, const fil_merkle_path_t *p, unsigned from,
                               unsigned to)
{
    unsigned n = 0;
    for (unsigned l = from; l < to; l++)
        for (unsigned s = 0; s + 1 < p->level[l].arity; s++)
            out[n++] = cs_num_alloc(cs, &p->level[l].siblings[s]);
    return n;
}

/* A path of the tree's shape over the sector (its level count and
 * arities)? */
static int path_fits(const fil_merkle_path_t *p, const fil_tree_shape_t *t, uint64_t nodes)
{
    unsigned base, levels;
    if (fil_tree_shape_levels(&base, &levels, t, nodes, NULL) != CUZK_OK || p->n_levels != levels)
        return 0;
    for (unsigned l = 0; l < levels; l++)
        if (p->level[l].arity != fil_tree_shape_level_arity(t, base, l))
            return 0;
    return 1;
}

/* One challenge's rho, encoding and replica openings (both circuits);
 * returns leaf_d_new. */
static cs_num_t challenge_common(cs_t *cs, const update_ctx_t *x, unsigned ci,
                                 const cs_bool_t *c_bits)
{
    const fil_update_shape_t *sh = x->sh;
    const fil_update_challenge_t *ch = &x->w->challenges[ci];
    cs_ns_push(cs, "get_challenge_high_bits", ci);
    cs_num_t c_high =
        fil_cs_update_challenge_high(cs, c_bits, sh->challenge_bits, x->h_select_bits, sh->hs);
    cs_ns_pop(cs);
    cs_num_t rho = hash_rand(cs, "rho", ci, &x->phi, &c_high);
    cs_num_t r_old = cs_num_alloc(cs, &ch->r_old.leaf);
    cs_num_t d_new = cs_num_alloc(cs, &ch->d_new.leaf);
    cs_ns_push(cs, "leaf_r_new", ci);
    cs_num_t r_new = fil_cs_update_label_r_new(cs, &r_old, &d_new, &rho);
    cs_ns_pop(cs);
    if (cs_has_values(cs) && !fr_equal(&r_new.value, &ch->r_new.leaf))
        cs_fail(cs, CUZK_ERR_ARG, "update circuit: challenge %u: leaf_r_new is not the encoding",
                ci);
    cs_num_t sib[FIL_MERKLE_MAX_LEVELS * (FIL_MERKLE_MAX_ARITY - 1)];
    alloc_siblings(sib, cs, &ch->r_old, 0, x->levels_r);
    cs_ns_push(cs, "por tree_r_old", ci);
    fil_cs_por_no_challenge_input(cs, &sh->tree_r, c_bits, sh->challenge_bits, &r_old, sib,
                                  x->levels_r, &x->root_r_old);
    cs_ns_pop(cs);
    alloc_siblings(sib, cs, &ch->r_new, 0, x->levels_r);
    cs_ns_push(cs, "por tree_r_new", ci);
    fil_cs_por_no_challenge_input(cs, &sh->tree_r, c_bits, sh->challenge_bits, &r_new, sib,
                                  x->levels_r, &x->root_r_new);
    cs_ns_pop(cs);
    return d_new;
}

/* The SHA circuit's TreeD opening: the apex leaf the challenge falls under
 * (select), then the path up to it. */
static void challenge_apex(cs_t *cs, const update_ctx_t *x, unsigned ci, const cs_bool_t *c_bits,
                           const cs_num_t *d_new)
{
    const fil_update_shape_t *sh = x->sh;
    const unsigned below = sh->challenge_bits - sh->partition_bits - sh->apex_leaf_bits;
    cs_ns_push(cs, "select_apex_leaf", ci);
    cs_num_t apex = cs_select(cs, x->apex_leafs, c_bits + below, sh->apex_leaf_bits);
    cs_ns_pop(cs);
    cs_num_t sib[FIL_MERKLE_MAX_LEVELS];
    alloc_siblings(sib, cs, &x->w->challenges[ci].d_new, 0, below);
    cs_ns_push(cs, "por to_apex_leaf", ci);
    fil_cs_por_no_challenge_input(cs, &sh->tree_d, c_bits, below, d_new, sib, below, &apex);
    cs_ns_pop(cs);
}

/* The Poseidon circuit's TreeD opening: the whole path to comm_d_new. */
static void challenge_d_poseidon(cs_t *cs, const update_ctx_t *x, unsigned ci,
                                 const cs_bool_t *c_bits, const cs_num_t *d_new)
{
    cs_num_t sib[FIL_MERKLE_MAX_LEVELS * (FIL_MERKLE_MAX_ARITY - 1)];
    alloc_siblings(sib, cs, &x->w->challenges[ci].d_new, 0, x->levels_r);
    cs_ns_push(cs, "por tree_d_new", ci);
    fil_cs_por_no_challenge_input(cs, &x->sh->tree_r, c_bits, x->sh->challenge_bits, d_new, sib,
                                  x->levels_r, &x->comm_d_new);
    cs_ns_pop(cs);
}

/* What rust-fil-proofs asserts about the witness before synthesis (values
 * only): k < partitions, exactly one h_select bit, nothing above; every
 * challenge's partition path the same; the paths of the trees' shapes
 * (always: blank witnesses too). Returns 0 after recording CUZK_ERR_ARG. */
static int witness_fits(cs_t *cs, const fil_update_shape_t *sh, const fil_update_witness_t *w)
{
    if (!w->challenges || (sh->apex_leafs && !w->apex_leafs))
        return cs_fail(cs, CUZK_ERR_ARG, "update circuit: witness without its arrays"), 0;
    for (unsigned i = 0; i < sh->challenges; i++) {
        const fil_update_challenge_t *ch = &w->challenges[i];
        if (!path_fits(&ch->r_old, &sh->tree_r, sh->nodes) ||
            !path_fits(&ch->r_new, &sh->tree_r, sh->nodes) ||
            !path_fits(&ch->d_new, &sh->tree_d, sh->nodes))
            return cs_fail(cs, CUZK_ERR_ARG,
                           "update circuit: challenge %u: a path of another shape", i),
                   0;
    }
    if (!cs_has_values(cs))
        return 1;
    uint8_t le[FR_BYTES];
    fr_to_le(le, &w->k_and_h_select);
    const unsigned pb = sh->partition_bits;
    unsigned k = 0, ones = 0, high = 0;
    for (unsigned i = 0; i < 8 * FR_BYTES; i++) {
        unsigned bit = (le[i / 8] >> (i % 8)) & 1u;
        if (i < pb)
            k |= bit << i;
        else if (i < pb + FIL_UPDATE_HS)
            ones += bit;
        else
            high |= bit;
    }
    if (k >= sh->partitions || ones != 1 || high)
        return cs_fail(cs, CUZK_ERR_ARG,
                       "update circuit: k_and_h_select: partition %u of %u, %u h_select bits", k,
                       sh->partitions, ones),
               0;
    const unsigned from = sh->challenge_bits - pb;
    for (unsigned i = 1; sh->kind == FIL_UPDATE_SHA && i < sh->challenges; i++)
        for (unsigned l = from; l < sh->challenge_bits; l++)
            if (!fr_equal(&w->challenges[i].d_new.level[l].siblings[0],
                          &w->challenges[0].d_new.level[l].siblings[0]))
                return cs_fail(cs, CUZK_ERR_ARG,
                               "update circuit: challenge %u: another partition path", i),
                       0;
    return 1;
}

/* The first input and its bits (partition bits, then h_select bits). */
static void alloc_selector(cs_bool_t *bits, cs_t *cs, const fil_update_shape_t *sh,
                           const fil_update_witness_t *w)
{
    const unsigned n = sh->partition_bits + FIL_UPDATE_HS;
    cs_num_t x = cs_num_alloc(cs, &w->k_and_h_select);
    cs_num_inputize(cs, &x);
    uint8_t le[FR_BYTES] = {0};
    if (cs_has_values(cs))
        fr_to_le(le, &w->k_and_h_select);
    for (unsigned i = 0; i < n; i++)
        bits[i] = cs_bit_alloc(cs, (le[i / 8] >> (i % 8)) & 1);
    enforce_decomp(cs, bits, n, &x);
}

/* comm_r = Poseidon-2(comm_c, root) (hash2_circuit), then calc * ONE =
 * comm_r. */
static void check_comm_r(cs_t *cs, const cs_num_t *comm_c, const cs_num_t *root,
                         const cs_num_t *comm_r)
{
    const poseidon_constants_t *pc = NULL;
    cuzk_error_t err;
    if (poseidon_constants_get(&pc, 2, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return;
    }
    cs_num_t in[2] = {*comm_c, *root}, calc;
    cs_poseidon_hash(&calc, cs, in, 2, pc);
    cs_num_equal(cs, &calc, comm_r);
}

static int tree_equal(const fil_tree_shape_t *a, const fil_tree_shape_t *b)
{
    return a->hasher == b->hasher && a->base_arity == b->base_arity &&
           a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

static int shape_equal(const fil_update_shape_t *a, const fil_update_shape_t *b)
{
    return a->kind == b->kind && a->nodes == b->nodes && tree_equal(&a->tree_r, &b->tree_r) &&
           tree_equal(&a->tree_d, &b->tree_d) && a->challenge_bits == b->challenge_bits &&
           a->challenges == b->challenges && a->partitions == b->partitions &&
           a->partition_bits == b->partition_bits && a->apex_leafs == b->apex_leafs &&
           a->apex_leaf_bits == b->apex_leaf_bits && memcmp(a->hs, b->hs, sizeof a->hs) == 0;
}

void fil_cs_update(cs_t *cs, const fil_update_shape_t *shape, const fil_update_witness_t *w)
{
    fil_update_shape_t sh;
    cuzk_error_t err;
    if (fil_update_shape_init(&sh, shape->kind, shape->nodes, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return;
    }
    if (!shape_equal(&sh, shape)) {
        cs_fail(cs, CUZK_ERR_ARG, "update circuit: the shape is not fil_update_shape_init's");
        return;
    }
    if (!witness_fits(cs, &sh, w))
        return;
    const int sha = sh.kind == FIL_UPDATE_SHA;
    update_ctx_t x;
    memset(&x, 0, sizeof x);
    x.sh = &sh;
    x.w = w;
    fil_tree_shape_levels(NULL, &x.levels_r, &sh.tree_r, sh.nodes, NULL);
    cs_bool_t sel[4 + FIL_UPDATE_HS];
    alloc_selector(sel, cs, &sh, w);
    x.h_select_bits = sel + sh.partition_bits;
    cs_num_t partition = {CS_ONE, FR_ZERO};
    if (sha)
        partition = cs_pack_bits(cs, sel, sh.partition_bits);
    cs_num_t comm_r_old = cs_num_alloc(cs, &w->comm_r_old);
    cs_num_inputize(cs, &comm_r_old);
    x.comm_d_new = cs_num_alloc(cs, &w->comm_d_new);
    cs_num_inputize(cs, &x.comm_d_new);
    cs_num_t comm_r_new = cs_num_alloc(cs, &w->comm_r_new);
    cs_num_inputize(cs, &comm_r_new);
    x.phi = hash_rand(cs, "phi", -1, &x.comm_d_new, &comm_r_old);
    cs_num_t comm_c = cs_num_alloc(cs, &w->comm_c);
    x.root_r_old = cs_num_alloc(cs, &w->root_r_old);
    x.root_r_new = cs_num_alloc(cs, &w->root_r_new);
    cs_num_t apex[128], ppath[4];
    for (unsigned i = 0; i < sh.apex_leafs; i++)
        apex[i] = cs_num_alloc(cs, &w->apex_leafs[i]);
    x.apex_leafs = apex;
    const unsigned rand_bits = sh.challenge_bits - sh.partition_bits;
    alloc_siblings(ppath, cs, &w->challenges[0].d_new, rand_bits, sh.challenge_bits);
    check_comm_r(cs, &comm_c, &x.root_r_old, &comm_r_old);
    check_comm_r(cs, &comm_c, &x.root_r_new, &comm_r_new);
    if (sha) {
        cs_ns_push(cs, "apex_gadget", -1);
        fil_cs_update_apex_por(cs, apex, sh.apex_leafs, sel, ppath, sh.partition_bits,
                               &x.comm_d_new);
        cs_ns_pop(cs);
    } else {
        fr_t zero = FR_ZERO;
        partition = cs_num_alloc(cs, &zero); /* "gen_challenge_bits partition zero" */
    }
    cs_bool_t *gen = malloc((size_t)sh.challenges * rand_bits * sizeof *gen);
    if (!gen) {
        cs_fail(cs, CUZK_ERR_NOMEM, "update circuit: out of memory");
        return;
    }
    cs_ns_push(cs, "gen_challenge_bits", -1);
    fil_cs_update_gen_challenge_bits(gen, cs, &comm_r_new, &partition, sh.challenges, rand_bits);
    cs_ns_pop(cs);
    cs_bool_t c_bits[64];
    for (unsigned ci = 0; ci < sh.challenges; ci++) {
        memcpy(c_bits, gen + (size_t)ci * rand_bits, rand_bits * sizeof *gen);
        memcpy(c_bits + rand_bits, sel, sh.partition_bits * sizeof *sel);
        cs_num_t d_new = challenge_common(cs, &x, ci, c_bits);
        if (sha)
            challenge_apex(cs, &x, ci, c_bits, &d_new);
        else
            challenge_d_poseidon(cs, &x, ci, c_bits, &d_new);
    }
    free(gen);
}
