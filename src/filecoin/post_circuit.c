/* The FallbackPoSt circuit (filecoin_post.h; RFP@87348a7
 * storage-proofs-post/src/fallback/circuit.rs). */
#include "cuzk/filecoin_post.h"

#include <string.h>

#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/filecoin_por.h"
#include "cuzk/poseidon.h"

cuzk_status fil_post_shape_check(const fil_post_shape_t *shape, cuzk_error_t *err)
{
    if (!shape)
        return cuzk_error_set(err, CUZK_ERR_ARG, "post circuit: NULL shape");
    if (shape->tree.hasher != FIL_HASHER_POSEIDON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "post circuit: the replica tree is Poseidon");
    if (shape->challenges == 0 || shape->challenges > FIL_POST_MAX_CHALLENGES)
        return cuzk_error_set(err, CUZK_ERR_ARG, "post circuit: %u challenges per sector (1..%u)",
                              shape->challenges, FIL_POST_MAX_CHALLENGES);
    unsigned base, levels;
    return fil_tree_shape_levels(&base, &levels, &shape->tree, shape->nodes, err);
}

cuzk_status fil_post_sector_blank(fil_post_sector_t *out, const fil_post_shape_t *shape,
                                  cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = fil_post_shape_check(shape, err);
    if (st == CUZK_OK)
        st = fil_merkle_path_blank(&out->paths[0], &shape->tree, shape->nodes, err);
    for (unsigned i = 1; st == CUZK_OK && i < shape->challenges; i++)
        out->paths[i] = out->paths[0];
    return st;
}

void fil_cs_post_sector(cs_t *cs, const fil_post_shape_t *shape, const fil_post_sector_t *s)
{
    cuzk_error_t err;
    const poseidon_constants_t *pc = NULL;
    if (fil_post_shape_check(shape, &err) != CUZK_OK ||
        poseidon_constants_get(&pc, 2, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return;
    }
    cs_num_t comm_r_last = cs_num_alloc(cs, &s->comm_r_last);
    cs_num_t comm_c = cs_num_alloc(cs, &s->comm_c);
    cs_num_t comm_r = cs_num_alloc(cs, &s->comm_r);
    cs_num_inputize(cs, &comm_r);
    cs_num_t in[2] = {comm_c, comm_r_last}, h;
    cs_poseidon_hash(&h, cs, in, 2, pc); /* hash2_circuit */
    cs_num_equal(cs, &comm_r, &h);
    fil_root_t root = fil_root_var(&comm_r_last);
    for (unsigned i = 0; i < shape->challenges; i++) {
        cs_ns_push(cs, "challenge_inclusion", i);
        fil_root_t leaf = fil_root_val(&s->leafs[i]);
        fil_cs_por(NULL, cs, &shape->tree, &s->paths[i], &leaf, &root, FIL_POR_PRIVATE_ROOT);
        cs_ns_pop(cs);
    }
}
