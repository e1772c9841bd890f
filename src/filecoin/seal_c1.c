/* A sealed sector's C1 output (fil_sealed_c1, filecoin_seal.h): what
 * seal_commit_phase1 hands the prover (filecoin-proofs src/api/seal.rs;
 * storage-proofs-porep stacked/vanilla/proof.rs prove_layers_generate). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_inputs.h"
#include "cuzk/filecoin_seal.h"

static void column(fil_c1_column_t *out, uint64_t node, const fr_t *rows, unsigned layers,
                   const fil_merkle_path_t *path)
{
    out->index = (uint32_t)node;
    memcpy(out->rows, rows, layers * sizeof *rows);
    out->proof = *path;
}

/* One challenge's vanilla Proof. Its labeling proofs list the 37 parents
 * a label hashes (graph.rs copy_parents_data): layer 1 the 6 DRG parents'
 * layer-1 labels, later layers those in the layer and the 8 expander
 * parents' in the layer below, repeated to 37; the encoding proof is the
 * last layer's. */
static cuzk_status prove(fil_c1_proof_t *p, const fil_sealed_t *s, const fil_graph_t *g,
                         fil_porep_challenge_t *scratch, uint64_t c, cuzk_error_t *err)
{
    const unsigned L = fil_sealed_info(s)->layers;
    cuzk_status st = fil_sealed_porep_challenge(scratch, s, c, err);
    uint32_t par[FIL_DEGREE];
    if (st == CUZK_OK)
        st = fil_graph_parents(par, g, c, err);
    if (st != CUZK_OK)
        return st;
    memset(p, 0, sizeof *p);
    p->comm_d_proof = scratch->comm_d_path;
    p->comm_r_last_proof = scratch->comm_r_last_path;
    fr_t rows[FIL_POREP_MAX_LAYERS];
    for (unsigned l = 1; l <= L && st == CUZK_OK; l++)
        st = fil_sealed_label(&rows[l - 1], s, l, c, err);
    if (st != CUZK_OK)
        return st;
    column(&p->c_x, c, rows, L, &scratch->comm_c_path);
    for (unsigned k = 0; k < FIL_POREP_DRG_PARENTS; k++)
        column(&p->drg_parents[k], par[k], scratch->drg_cols[k], L, &scratch->drg_paths[k]);
    for (unsigned k = 0; k < FIL_POREP_EXP_PARENTS; k++)
        column(&p->exp_parents[k], par[FIL_DRG_DEGREE + k], scratch->exp_cols[k], L,
               &scratch->exp_paths[k]);
    for (unsigned l = 1; l <= L; l++) {
        fr_t base[FIL_DEGREE];
        unsigned n = l == 1 ? FIL_DRG_DEGREE : FIL_DEGREE;
        for (unsigned k = 0; k < FIL_DRG_DEGREE; k++)
            base[k] = scratch->drg_cols[k][l - 1];
        for (unsigned k = 0; l > 1 && k < FIL_EXP_DEGREE; k++)
            base[FIL_DRG_DEGREE + k] = scratch->exp_cols[k][l - 2];
        fil_c1_label_t *lp = &p->labeling[l - 1];
        lp->layer_index = l;
        lp->node = c;
        for (unsigned k = 0; k < FIL_C1_LABEL_PARENTS; k++)
            lp->parents[k] = base[k % n];
    }
    p->encoding = p->labeling[L - 1];
    return CUZK_OK;
}

cuzk_status fil_sealed_c1(fil_c1_t *out, const fil_sealed_t *s, const uint8_t ticket[32],
                          const uint8_t seed[32], cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_sealed_info(s);
    cuzk_status st = fil_c1_init(out, info->proof, err);
    if (st != CUZK_OK)
        return st;
    fil_graph_t g;
    fil_porep_challenge_t *scratch = malloc(sizeof *scratch);
    if (!scratch) {
        fil_c1_free(out);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "C1: no memory");
    }
    memcpy(out->seed, seed, 32);
    memcpy(out->ticket, ticket, 32);
    fil_sealed_replica_id(&out->replica_id, s);
    fil_sealed_comm_d(&out->comm_d, s);
    fil_sealed_comm_r(&out->comm_r, s);
    uint8_t rid[32], cr[32];
    fr_to_le(rid, &out->replica_id);
    fr_to_le(cr, &out->comm_r);
    st = fil_graph_init_seal(&g, info->proof, err);
    for (unsigned k = 0; st == CUZK_OK && k < out->partitions; k++) {
        uint64_t ch[256];
        size_t n = 0;
        st = fil_porep_partition_challenges(ch, sizeof ch / sizeof ch[0], &n, info->proof, rid, cr,
                                            seed, k, err);
        for (size_t i = 0; st == CUZK_OK && i < n; i++)
            st = prove(&out->proofs[(size_t)k * out->challenges + i], s, &g, scratch, ch[i], err);
    }
    free(scratch);
    if (st != CUZK_OK)
        fil_c1_free(out);
    return st;
}
