/* PoR inclusion-proof gadgets (filecoin_por.h), in the allocation and
 * enforce order of RFP:storage-proofs-core/src/gadgets/por.rs. RFP =
 * filecoin-project/rust-fil-proofs@87348a7. */
#include "cuzk/filecoin_por.h"

#include "cuzk/cs_insertion.h"
#include "cuzk/cs_multipack.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"

/* Index bits a level of arity a takes: a's trailing zeros (a is a power
 * of two). */
static unsigned index_bits(unsigned a)
{
    unsigned n = 0;
    while (a > 1) {
        a >>= 1;
        n++;
    }
    return n;
}

static cs_num_t failed_num(void)
{
    cs_num_t x = {CS_ONE, FR_ZERO};
    return x;
}

cs_num_t fil_cs_merkle_hash(cs_t *cs, fil_hasher hasher, const cs_num_t *children, unsigned arity)
{
    if (arity != 2 && arity != 4 && arity != 8) {
        cs_fail(cs, CUZK_ERR_ARG, "merkle hash: arity %u", arity);
        return failed_num();
    }
    if (hasher == FIL_HASHER_SHA256)
        return fil_cs_sha256_multi_leaf(cs, children, arity);
    if (hasher != FIL_HASHER_POSEIDON) {
        cs_fail(cs, CUZK_ERR_ARG, "merkle hash: unknown hasher %d", (int)hasher);
        return failed_num();
    }
    const poseidon_constants_t *c;
    cuzk_error_t err = {0};
    cuzk_status st = poseidon_constants_get(&c, arity, &err);
    if (st != CUZK_OK) {
        cs_fail(cs, st, "merkle hash: %s", err.msg);
        return failed_num();
    }
    cs_num_t out;
    cs_poseidon_hash(&out, cs, children, arity, c);
    return out;
}

/* The number of base levels of a path of n_levels levels in `shape`
 * (AuthPath::from splits off the sub and top elements at the end). -1 when
 * the shape is bad or too few levels. */
static int base_levels_of(cs_t *cs, const fil_tree_shape_t *shape, unsigned n_levels,
                          const char *who)
{
    cuzk_error_t err = {0};
    if (fil_tree_shape_check(shape, &err) != CUZK_OK) {
        cs_fail(cs, CUZK_ERR_ARG, "%s: %s", who, err.msg);
        return -1;
    }
    unsigned extra = (shape->sub_arity ? 1u : 0u) + (shape->top_arity ? 1u : 0u);
    if (n_levels < extra || n_levels > FIL_MERKLE_MAX_LEVELS) {
        cs_fail(cs, CUZK_ERR_ARG, "%s: %u levels in a %u-%u-%u tree", who, n_levels,
                shape->base_arity, shape->sub_arity, shape->top_arity);
        return -1;
    }
    return (int)(n_levels - extra);
}

/* One path element of SubPath::synthesize: the index bits, the siblings,
 * insert, hash. Writes the bits to bits[0..log2(arity)). */
static cs_num_t por_level(cs_t *cs, fil_hasher hasher, const fil_merkle_level_t *lv,
                          const cs_num_t *cur, cs_bool_t *bits)
{
    int vals = cs_has_values(cs);
    unsigned a = lv->arity, nb = index_bits(a);
    for (unsigned i = 0; i < nb; i++) {
        cs_ns_push(cs, "index bit", (int64_t)i);
        bits[i] = cs_bit_alloc(cs, vals ? (int)((lv->index >> i) & 1u) : 0);
        cs_ns_pop(cs);
    }
    cs_num_t sib[FIL_MERKLE_MAX_ARITY - 1], ins[FIL_MERKLE_MAX_ARITY];
    for (unsigned i = 0; i + 1 < a; i++) {
        cs_ns_push(cs, "path element", (int64_t)i);
        sib[i] = cs_num_alloc(cs, vals ? &lv->siblings[i] : NULL);
        cs_ns_pop(cs);
    }
    cs_insert(ins, cs, cur, bits, nb, sib);
    cs_ns_push(cs, "computation of commitment hash", -1);
    cs_num_t h = fil_cs_merkle_hash(cs, hasher, ins, a);
    cs_ns_pop(cs);
    return h;
}

/* SubPath::synthesize over levels [from, to) of the path. */
static cs_num_t por_subpath(cs_t *cs, const char *name, fil_hasher hasher,
                            const fil_merkle_path_t *path, unsigned from, unsigned to, cs_num_t cur,
                            cs_bool_t *bits, size_t *n_bits)
{
    cs_ns_push(cs, name, -1);
    for (unsigned l = from; l < to; l++) {
        cs_ns_push(cs, "merkle tree hash", (int64_t)(l - from));
        cur = por_level(cs, hasher, &path->level[l], &cur, bits + *n_bits);
        *n_bits += index_bits(path->level[l].arity);
        cs_ns_pop(cs);
    }
    cs_ns_pop(cs);
    return cur;
}

static cs_num_t root_allocated(cs_t *cs, const fil_root_t *r, const char *name)
{
    if (r->kind == FIL_ROOT_VAR)
        return r->num;
    cs_ns_push(cs, name, -1);
    cs_num_t x = cs_num_alloc(cs, cs_has_values(cs) ? &r->num.value : NULL);
    cs_ns_pop(cs);
    return x;
}

void fil_cs_por(cs_num_t *computed, cs_t *cs, const fil_tree_shape_t *shape,
                const fil_merkle_path_t *path, const fil_root_t *leaf, const fil_root_t *root,
                fil_por_root_mode mode)
{
    if (computed)
        *computed = failed_num();
    int nb = base_levels_of(cs, shape, path->n_levels, "por");
    if (nb < 0)
        return;
    unsigned base = (unsigned)nb, n = path->n_levels;
    for (unsigned l = 0; l < n; l++) {
        const fil_merkle_level_t *lv = &path->level[l];
        unsigned want = fil_tree_shape_level_arity(shape, base, l);
        if (lv->arity != want || lv->index >= lv->arity) {
            cs_fail(cs, CUZK_ERR_ARG, "por: level %u: arity %u index %u, the shape wants %u", l,
                    lv->arity, lv->index, want);
            return;
        }
    }
    if ((leaf->kind != FIL_ROOT_VAL && leaf->kind != FIL_ROOT_VAR) ||
        (root->kind != FIL_ROOT_VAL && root->kind != FIL_ROOT_VAR) ||
        (mode != FIL_POR_PRIVATE_ROOT && mode != FIL_POR_PUBLIC_ROOT)) {
        cs_fail(cs, CUZK_ERR_ARG, "por: unknown root kind or mode");
        return;
    }

    cs_num_t cur = root_allocated(cs, leaf, "value");
    /* at most 3 bits per level */
    cs_bool_t bits[3 * FIL_MERKLE_MAX_LEVELS];
    size_t n_bits = 0;
    unsigned sub_end = base + (shape->sub_arity ? 1u : 0u);
    cur = por_subpath(cs, "base", shape->hasher, path, 0, base, cur, bits, &n_bits);
    cur = por_subpath(cs, "sub", shape->hasher, path, base, sub_end, cur, bits, &n_bits);
    cur = por_subpath(cs, "top", shape->hasher, path, sub_end, n, cur, bits, &n_bits);

    cs_ns_push(cs, "path", -1);
    cs_pack_into_inputs(cs, bits, n_bits);
    cs_ns_pop(cs);

    cs_num_t rt = root_allocated(cs, root, "root_value");
    cs_ns_push(cs, "enforce root is correct", -1);
    cs_num_equal(cs, &cur, &rt);
    cs_ns_pop(cs);
    if (mode == FIL_POR_PUBLIC_ROOT) {
        cs_ns_push(cs, "root", -1);
        cs_num_inputize(cs, &rt);
        cs_ns_pop(cs);
    }
    if (computed)
        *computed = cur;
}

void fil_cs_por_no_challenge_input(cs_t *cs, const fil_tree_shape_t *shape, const cs_bool_t *bits,
                                   size_t n_bits, const cs_num_t *leaf, const cs_num_t *siblings,
                                   unsigned n_levels, const cs_num_t *root)
{
    int nb = base_levels_of(cs, shape, n_levels, "por_no_challenge_input");
    if (nb < 0)
        return;
    unsigned base = (unsigned)nb;
    size_t want_bits = 0;
    for (unsigned l = 0; l < n_levels; l++)
        want_bits += index_bits(fil_tree_shape_level_arity(shape, base, l));
    if (n_bits != want_bits) {
        cs_fail(cs, CUZK_ERR_ARG,
                "por_no_challenge_input: %zu challenge bits, the %u levels take %zu", n_bits,
                n_levels, want_bits);
        return;
    }
    for (size_t i = 0; i < n_bits; i++)
        if (bits[i].kind != CS_BOOL_IS) {
            cs_fail(cs, CUZK_ERR_ARG, "por_no_challenge_input: bit %zu is not an AllocatedBit", i);
            return;
        }

    cs_num_t cur = *leaf, ins[FIL_MERKLE_MAX_ARITY];
    const cs_bool_t *b = bits;
    const cs_num_t *sib = siblings;
    for (unsigned l = 0; l < n_levels; l++) {
        unsigned a = fil_tree_shape_level_arity(shape, base, l), k = index_bits(a);
        cs_ns_push(cs, "merkle proof insert height", (int64_t)l);
        cs_insert(ins, cs, &cur, b, k, sib);
        cs_ns_pop(cs);
        cs_ns_push(cs, "merkle proof hash height", (int64_t)l);
        cur = fil_cs_merkle_hash(cs, shape->hasher, ins, a);
        cs_ns_pop(cs);
        b += k;
        sib += a - 1;
    }
    /* calculated root == provided root: computed * ONE = root */
    cs_ns_push(cs, "calculated root == provided root", -1);
    cs_num_equal(cs, &cur, root);
    cs_ns_pop(cs);
}
