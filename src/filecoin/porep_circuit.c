/* The StackedDrg PoRep circuit (filecoin_porep.h). The comments name the
 * rust-fil-proofs step each block follows (RFP@87348a7,
 * storage-proofs-porep/src/stacked/circuit/).
 *
 * The challenges, and inside each the labels, are cs_parallel tasks: every
 * challenge allocates the same variables, every label too (layer 1 fewer
 * than the later ones, which also take the expander parents' bits), so a
 * parallel witness run fills each one's slice at once (cs_set_threads on
 * the caller's cs asks for it; the default, 1 thread, is the sequential
 * synthesis, and other modes always are). Their sizes come from a count
 * run of one blank challenge, once per shape (porep_sizes); a challenge
 * whose paths do not have the shape's lengths then fails the cs instead
 * of synthesizing another circuit. */
#include "cuzk/filecoin_porep.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/cs_uint32.h"
#include "cuzk/cs_uint64.h"
#include "cuzk/filecoin_por.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/poseidon.h"
#include "fil_internal.h"

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

/* What every challenge reads of the header (read-only while tasks run). */
typedef struct porep_header {
    cs_num_t comm_d, comm_c, comm_r_last;
    cs_bool_t id_bits[256];
} porep_header_t;

/* The variables each task allocates (cs_parallel's declared sizes). */
typedef struct porep_sizes {
    uint64_t challenge_aux, challenge_inputs;
    uint64_t label_aux[FIL_POREP_MAX_LAYERS], label_inputs[FIL_POREP_MAX_LAYERS];
} porep_sizes_t;

/* The labels' tasks: layer i + 1 writes labels[i] and nothing else. */
typedef struct label_job {
    const fil_porep_shape_t *shape;
    const cs_bool_t *id_bits;
    const cs_num_t (*drg)[FIL_POREP_MAX_LAYERS];
    const cs_num_t (*exp)[FIL_POREP_MAX_LAYERS];
    const cs_u64_t *challenge;
    cs_num_t labels[FIL_POREP_MAX_LAYERS];
} label_job_t;

/* create_label.rs for one layer. The parents' bits are taken afresh in
 * every layer, as the Rust code does (to_bits_le per use). */
static void label_task(cs_t *cs, size_t i, void *arg)
{
    label_job_t *job = arg;
    const unsigned layer = (unsigned)i + 1;
    cs_bool_t bits[FIL_POREP_DRG_PARENTS + FIL_POREP_EXP_PARENTS][256];
    cs_ns_push(cs, "labeling", layer);
    unsigned n = 0;
    for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS; k++, n++)
        label_bits(bits[n], cs, &job->drg[k][layer - 1]);
    if (layer > 1)
        for (unsigned k = 0; k < FIL_POREP_EXP_PARENTS; k++, n++)
            label_bits(bits[n], cs, &job->exp[k][layer - 2]);
    /* the 37 expanded parents: layer 1, the 6 DRG parents six times and
     * the first once more; later, the 14 twice and the first 9 */
    const cs_bool_t *expanded[FIL_LABEL_PARENTS];
    for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
        expanded[k] = bits[k % n];
    cs_u32_t layer_num;
    cs_u32_const(&layer_num, layer);
    job->labels[layer - 1] =
        fil_cs_create_label(cs, job->id_bits, 256, expanded, 256, &layer_num, job->challenge);
    cs_ns_pop(cs);
}

/* The challenges' tasks. sizes NULL: measuring (labels run one after
 * another, their sizes go to *measure). */
typedef struct challenge_job {
    const fil_porep_shape_t *shape;
    const fil_porep_challenge_t *ch;
    const porep_header_t *hdr;
    const porep_sizes_t *sizes;
    porep_sizes_t *measure;
} challenge_job_t;

/* The labels of every layer, as tasks or (measuring) in line. */
static void labels_synth(cs_t *cs, const challenge_job_t *cj, label_job_t *lj)
{
    const unsigned L = cj->shape->layers;
    if (cj->sizes) {
        cs_parallel(cs, L, cj->sizes->label_aux, cj->sizes->label_inputs, label_task, lj);
        return;
    }
    for (unsigned i = 0; i < L; i++) {
        cs_counts_t k0, k1;
        cs_counts(&k0, cs);
        label_task(cs, i, lj);
        cs_counts(&k1, cs);
        cj->measure->label_aux[i] = k1.aux - k0.aux;
        cj->measure->label_inputs[i] = k1.inputs - k0.inputs;
    }
}

/* params.rs Proof::synthesize for challenge i. */
static void challenge_task(cs_t *cs, size_t i, void *arg)
{
    const challenge_job_t *cj = arg;
    const fil_porep_shape_t *shape = cj->shape;
    const fil_porep_challenge_t *ch = &cj->ch[i];
    const porep_header_t *hdr = cj->hdr;
    const unsigned L = shape->layers;
    const fil_tree_shape_t tree_d = {FIL_HASHER_SHA256, 2, 0, 0};
    cs_ns_push(cs, "challenge", (int64_t)i);
    cs_num_t data_leaf = cs_num_alloc(cs, &ch->data_leaf);
    cs_ns_push(cs, "comm_d_inclusion", -1);
    inclusion(cs, &tree_d, &ch->comm_d_path, &hdr->comm_d, &data_leaf);
    cs_ns_pop(cs);

    cs_num_t drg[FIL_POREP_DRG_PARENTS][FIL_POREP_MAX_LAYERS];
    cs_num_t exp[FIL_POREP_EXP_PARENTS][FIL_POREP_MAX_LAYERS];
    for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS; k++)
        parent_column(drg[k], cs, shape, ch->drg_cols[k], &ch->drg_paths[k], &hdr->comm_c,
                      "drg_parent", k);
    for (unsigned k = 0; k < FIL_POREP_EXP_PARENTS; k++)
        parent_column(exp[k], cs, shape, ch->exp_cols[k], &ch->exp_paths[k], &hdr->comm_c,
                      "exp_parent", k);

    label_job_t lj;
    cs_u64_t challenge;
    cs_u64_alloc(&challenge, cs, ch->challenge);
    cs_u64_pack_into_input(cs, &challenge);
    lj.shape = shape;
    lj.id_bits = hdr->id_bits;
    lj.drg = (const cs_num_t(*)[FIL_POREP_MAX_LAYERS])drg;
    lj.exp = (const cs_num_t(*)[FIL_POREP_MAX_LAYERS])exp;
    lj.challenge = &challenge;
    labels_synth(cs, cj, &lj);

    /* the encoding: key = the last layer's label, encode = add(key, data) */
    cs_ns_push(cs, "encode_node", -1);
    cs_num_t encoded = cs_num_add(cs, &lj.labels[L - 1], &data_leaf);
    cs_ns_pop(cs);
    cs_ns_push(cs, "comm_r_last_data_inclusion", -1);
    inclusion(cs, &shape->tree, &ch->comm_r_last_path, &hdr->comm_r_last, &encoded);
    cs_ns_pop(cs);

    cs_ns_push(cs, "c_x", -1);
    cs_num_t col = column_hash(cs, lj.labels, L);
    inclusion(cs, &shape->tree, &ch->comm_c_path, &hdr->comm_c, &col);
    cs_ns_pop(cs);
    cs_ns_pop(cs);
}

/* proof.rs StackedCircuit::synthesize up to the challenges. */
static void header_synth(porep_header_t *h, cs_t *cs, const fil_porep_public_t *pub)
{
    cs_num_t replica_id = cs_num_alloc(cs, &pub->replica_id);
    cs_num_inputize(cs, &replica_id);
    label_bits(h->id_bits, cs, &replica_id);
    h->comm_d = cs_num_alloc(cs, &pub->comm_d);
    cs_num_inputize(cs, &h->comm_d);
    cs_num_t comm_r = cs_num_alloc(cs, &pub->comm_r);
    cs_num_inputize(cs, &comm_r);
    h->comm_r_last = cs_num_alloc(cs, &pub->comm_r_last);
    h->comm_c = cs_num_alloc(cs, &pub->comm_c);
    cs_num_t cr[2] = {h->comm_c, h->comm_r_last};
    cs_num_t hc = column_hash(cs, cr, 2); /* hash2_circuit: Poseidon arity 2 */
    cs_num_equal(cs, &comm_r, &hc);
}

/* ---- the tasks' sizes, once per shape ------------------------------------ */

/* Counts a header and one blank challenge of the shape, the labels in line.
 * Sizes do not depend on values or the challenge index: the R1CS is fixed
 * (a real challenge whose paths have another shape is caught by
 * cs_parallel's check). */
static cuzk_status sizes_measure(porep_sizes_t *out, const fil_porep_shape_t *shape,
                                 cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    fil_porep_challenge_t *ch = malloc(sizeof *ch);
    if (!ch)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: out of memory");
    fil_porep_public_t pub;
    memset(&pub, 0, sizeof pub);
    cs_t *cs = NULL;
    cuzk_status st = fil_porep_challenge_blank(ch, shape, err);
    if (st == CUZK_OK)
        st = cs_new(&cs, CS_COUNT, err);
    if (st == CUZK_OK) {
        porep_header_t hdr;
        header_synth(&hdr, cs, &pub);
        challenge_job_t cj = {shape, ch, &hdr, NULL, out};
        cs_counts_t k0, k1;
        cs_counts(&k0, cs);
        challenge_task(cs, 0, &cj);
        cs_counts(&k1, cs);
        out->challenge_aux = k1.aux - k0.aux;
        out->challenge_inputs = k1.inputs - k0.inputs;
        st = cs_status(cs, err);
    }
    cs_free(cs);
    free(ch);
    return st;
}

static int same_shape(const void *pa, const void *pb)
{
    const fil_porep_shape_t *a = pa, *b = pb; /* challenges ignored */
    return a->nodes == b->nodes && a->tree.hasher == b->tree.hasher &&
           a->tree.base_arity == b->tree.base_arity && a->tree.sub_arity == b->tree.sub_arity &&
           a->tree.top_arity == b->tree.top_arity && a->layers == b->layers;
}

static cuzk_status sizes_measure_memo(void *value, const void *key, cuzk_error_t *err)
{
    return sizes_measure(value, key, err);
}

/* The sizes of shape's tasks, measured the first time (a 32 GiB challenge
 * counts in ~0.25 s) for the production sizes and some test ones. */
static fil_memo_t g_sizes =
    FIL_MEMO_INIT(fil_porep_shape_t, porep_sizes_t, same_shape, sizes_measure_memo);

static cuzk_status porep_sizes(porep_sizes_t *out, const fil_porep_shape_t *shape,
                               cuzk_error_t *err)
{
    return fil_memo_get(&g_sizes, out, shape, err);
}

void fil_cs_porep(cs_t *cs, const fil_porep_shape_t *shape, const fil_porep_public_t *pub,
                  const fil_porep_challenge_t *ch)
{
    cuzk_error_t err;
    if (fil_porep_shape_check(shape, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return;
    }
    porep_header_t hdr;
    header_synth(&hdr, cs, pub);
    porep_sizes_t sizes;
    if (porep_sizes(&sizes, shape, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "porep circuit: %s", err.msg);
        return;
    }
    const unsigned n = shape->challenges;
    uint64_t *aux = malloc(2 * (size_t)n * sizeof *aux);
    if (!aux) {
        cs_fail(cs, CUZK_ERR_NOMEM, "porep circuit: out of memory for %u challenges", n);
        return;
    }
    uint64_t *inputs = aux + n;
    for (unsigned i = 0; i < n; i++) {
        aux[i] = sizes.challenge_aux;
        inputs[i] = sizes.challenge_inputs;
    }
    challenge_job_t cj = {shape, ch, &hdr, &sizes, NULL};
    cs_parallel(cs, n, aux, inputs, challenge_task, &cj);
    free(aux);
}
