/* The StackedDrg PoRep circuit (filecoin_porep.h). The comments name the
 * rust-fil-proofs step each block follows (RFP@87348a7,
 * storage-proofs-porep/src/stacked/circuit/). */
#include "cuzk/filecoin_porep.h"

#include <string.h>

#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "cuzk/filecoin_por.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"

cuzk_status fil_porep_shape_check(const fil_porep_shape_t *shape, cuzk_error_t *err)
{
    if (!shape)
        return cuzk_error_set(err, CUZK_ERR_ARG, "porep circuit: NULL shape");
    if (shape->tree.hasher != FIL_HASHER_POSEIDON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "porep circuit: tree_r and tree_c are Poseidon");
    if (shape->layers != 2 && shape->layers != 11)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "porep circuit: %u layers (the column hash takes 2 or 11)",
                              shape->layers);
    if (shape->challenges == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "porep circuit: no challenges");
    unsigned base, levels;
    cuzk_status st = fil_tree_shape_levels(&base, &levels, &shape->tree, shape->nodes, err);
    if (st != CUZK_OK)
        return st;
    fil_tree_shape_t d = {FIL_HASHER_SHA256, 2, 0, 0};
    return fil_tree_shape_levels(&base, &levels, &d, shape->nodes, err);
}

cuzk_status fil_porep_challenge_blank(fil_porep_challenge_t *out, const fil_porep_shape_t *shape,
                                      cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = fil_porep_shape_check(shape, err);
    fil_tree_shape_t d = {FIL_HASHER_SHA256, 2, 0, 0};
    if (st == CUZK_OK)
        st = fil_merkle_path_blank(&out->comm_d_path, &d, shape->nodes, err);
    if (st == CUZK_OK)
        st = fil_merkle_path_blank(&out->comm_r_last_path, &shape->tree, shape->nodes, err);
    if (st == CUZK_OK)
        out->comm_c_path = out->comm_r_last_path;
    for (unsigned i = 0; st == CUZK_OK && i < FIL_POREP_DRG_PARENTS; i++)
        out->drg_paths[i] = out->comm_r_last_path;
    for (unsigned i = 0; st == CUZK_OK && i < FIL_POREP_EXP_PARENTS; i++)
        out->exp_paths[i] = out->comm_r_last_path;
    return st;
}

/* params.rs enforce_inclusion: leaf and root as Root::Var, private. */
static void inclusion(cs_t *cs, const fil_tree_shape_t *tree, const fil_merkle_path_t *path,
                      const cs_num_t *root, const cs_num_t *leaf)
{
    fil_root_t l = fil_root_var(leaf), r = fil_root_var(root);
    fil_cs_por(NULL, cs, tree, path, &l, &r, FIL_POR_PRIVATE_ROOT);
}

/* hash.rs hash_single_column: Poseidon of arity = the column's length. */
static cs_num_t column_hash(cs_t *cs, const cs_num_t *rows, unsigned n)
{
    const poseidon_constants_t *pc = NULL;
    cs_num_t out;
    cuzk_error_t err;
    if (poseidon_constants_get(&pc, n, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "column hash: %s", err.msg);
        memset(&out, 0, sizeof out);
        return out;
    }
    cs_poseidon_hash(&out, cs, rows, n, pc);
    return out;
}

/* column.rs Column::alloc, then its hash and inclusion in comm_c's tree. */
static void parent_column(cs_num_t *rows, cs_t *cs, const fil_porep_shape_t *shape,
                          const fr_t *vals, const fil_merkle_path_t *path, const cs_num_t *comm_c,
                          const char *what, unsigned i)
{
    cs_ns_push(cs, what, i);
    for (unsigned l = 0; l < shape->layers; l++)
        rows[l] = cs_num_alloc(cs, &vals[l]);
    cs_num_t h = column_hash(cs, rows, shape->layers);
    inclusion(cs, &shape->tree, path, comm_c, &h);
    cs_ns_pop(cs);
}

/* to_bits_le of a label, then reverse_bit_numbering: 256 bits. */
static void label_bits(cs_bool_t out[256], cs_t *cs, const cs_num_t *x)
{
    cs_bool_t le[255];
    cs_num_to_bits_le(le, cs, x);
    cs_bits_reverse_in_bytes(out, le, 255);
}

/* params.rs Proof::synthesize for one challenge. */
static void challenge_synth(cs_t *cs, const fil_porep_shape_t *shape,
                            const fil_porep_challenge_t *ch, const cs_num_t *comm_d,
                            const cs_num_t *comm_c, const cs_num_t *comm_r_last,
                            const cs_bool_t replica_id[256])
{
    const unsigned L = shape->layers;
    const fil_tree_shape_t tree_d = {FIL_HASHER_SHA256, 2, 0, 0};
    cs_num_t data_leaf = cs_num_alloc(cs, &ch->data_leaf);
    cs_ns_push(cs, "comm_d_inclusion", -1);
    inclusion(cs, &tree_d, &ch->comm_d_path, comm_d, &data_leaf);
    cs_ns_pop(cs);

    cs_num_t drg[FIL_POREP_DRG_PARENTS][FIL_POREP_MAX_LAYERS];
    cs_num_t exp[FIL_POREP_EXP_PARENTS][FIL_POREP_MAX_LAYERS];
    for (unsigned i = 0; i < FIL_POREP_DRG_PARENTS; i++)
        parent_column(drg[i], cs, shape, ch->drg_cols[i], &ch->drg_paths[i], comm_c, "drg_parent",
                      i);
    for (unsigned i = 0; i < FIL_POREP_EXP_PARENTS; i++)
        parent_column(exp[i], cs, shape, ch->exp_cols[i], &ch->exp_paths[i], comm_c, "exp_parent",
                      i);

    cs_u64_t challenge;
    cs_u64_alloc(&challenge, cs, ch->challenge);
    cs_u64_pack_into_input(cs, &challenge);

    /* the labels, layer by layer: the parents' bits are taken afresh in
     * every layer, as the Rust code does (to_bits_le per use) */
    cs_num_t labels[FIL_POREP_MAX_LAYERS];
    cs_bool_t bits[FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS][256];
    for (unsigned layer = 1; layer <= L; layer++) {
        cs_ns_push(cs, "labeling", layer);
        unsigned n = 0;
        for (unsigned i = 0; i < FIL_POREP_DRG_PARENTS; i++, n++)
            label_bits(bits[n], cs, &drg[i][layer - 1]);
        if (layer > 1)
            for (unsigned i = 0; i < FIL_POREP_EXP_PARENTS; i++, n++)
                label_bits(bits[n], cs, &exp[i][layer - 2]);
        /* the 37 expanded parents: layer 1, the 6 DRG parents six times and
         * the first once more; later, the 14 twice and the first 9 */
        const cs_bool_t *expanded[FIL_LABEL_PARENTS];
        for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
            expanded[k] = bits[k % n];
        cs_u32_t layer_num;
        cs_u32_const(&layer_num, layer);
        labels[layer - 1] =
            fil_cs_create_label(cs, replica_id, 256, expanded, 256, &layer_num, &challenge);
        cs_ns_pop(cs);
    }

    /* the encoding: key = the last layer's label, encode = add(key, data) */
    cs_ns_push(cs, "encode_node", -1);
    cs_num_t encoded = cs_num_add(cs, &labels[L - 1], &data_leaf);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_r_last_data_inclusion", -1);
    inclusion(cs, &shape->tree, &ch->comm_r_last_path, comm_r_last, &encoded);
    cs_ns_pop(cs);

    cs_ns_push(cs, "c_x", -1);
    cs_num_t col = column_hash(cs, labels, L);
    inclusion(cs, &shape->tree, &ch->comm_c_path, comm_c, &col);
    cs_ns_pop(cs);
}

void fil_cs_porep(cs_t *cs, const fil_porep_shape_t *shape, const fil_porep_public_t *pub,
                  const fil_porep_challenge_t *ch)
{
    cuzk_error_t err;
    if (fil_porep_shape_check(shape, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return;
    }
    /* proof.rs StackedCircuit::synthesize */
    cs_num_t replica_id = cs_num_alloc(cs, &pub->replica_id);
    cs_num_inputize(cs, &replica_id);
    cs_bool_t id_bits[256];
    label_bits(id_bits, cs, &replica_id);
    cs_num_t comm_d = cs_num_alloc(cs, &pub->comm_d);
    cs_num_inputize(cs, &comm_d);
    cs_num_t comm_r = cs_num_alloc(cs, &pub->comm_r);
    cs_num_inputize(cs, &comm_r);
    cs_num_t comm_r_last = cs_num_alloc(cs, &pub->comm_r_last);
    cs_num_t comm_c = cs_num_alloc(cs, &pub->comm_c);
    cs_num_t cr[2] = {comm_c, comm_r_last};
    cs_num_t h = column_hash(cs, cr, 2); /* hash2_circuit: Poseidon arity 2 */
    cs_num_equal(cs, &comm_r, &h);
    for (unsigned i = 0; i < shape->challenges; i++) {
        cs_ns_push(cs, "challenge", i);
        challenge_synth(cs, shape, &ch[i], &comm_d, &comm_c, &comm_r_last, id_bits);
        cs_ns_pop(cs);
    }
}
