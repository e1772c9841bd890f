/* The FallbackPoSt circuit (filecoin_post.h; RFP@87348a7
 * storage-proofs-post/src/fallback/circuit.rs).
 *
 * The sectors of a partition are cs_parallel tasks, as the PoRep's
 * challenges are (porep_circuit.c): a sector's R1CS depends on the shape
 * alone (its paths have the tree's levels and arities), so every sector,
 * the padding included, allocates the same variables, counted once per
 * shape from a blank sector (post_sizes) and cached. cs_parallel checks
 * each task's count, so a sector whose paths have another shape fails the
 * cs naming it instead of synthesizing another circuit. The Rust code runs
 * the same split: WindowPoSt's extendable synthesis makes each sector in
 * its own cs (circuit.rs synthesize_extendable, "sector_{i}") and appends
 * them in order. */
#include "cuzk/filecoin_post.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_num.h"
#include "cuzk/cs_poseidon.h"
#include "cuzk/filecoin_por.h"
#include "cuzk/poseidon.h"
#include "fil_internal.h"

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

/* ---- the partition: sectors as tasks --------------------------------------- */

typedef struct post_sizes {
    uint64_t aux, inputs;
} post_sizes_t;

static cuzk_status sizes_measure(post_sizes_t *out, const fil_post_shape_t *shape,
                                 cuzk_error_t *err)
{
    fil_post_sector_t *s = malloc(sizeof *s);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "post circuit: out of memory");
    cs_t *cs = NULL;
    cuzk_status st = fil_post_sector_blank(s, shape, err);
    if (st == CUZK_OK)
        st = cs_new(&cs, CS_COUNT, err);
    if (st == CUZK_OK) {
        cs_counts_t k0, k1;
        cs_counts(&k0, cs);
        fil_cs_post_sector(cs, shape, s);
        cs_counts(&k1, cs);
        out->aux = k1.aux - k0.aux;
        out->inputs = k1.inputs - k0.inputs;
        st = cs_status(cs, err);
    }
    cs_free(cs);
    free(s);
    return st;
}

static int same_shape(const void *pa, const void *pb)
{
    const fil_post_shape_t *a = pa, *b = pb;
    return a->nodes == b->nodes && a->tree.hasher == b->tree.hasher &&
           a->tree.base_arity == b->tree.base_arity && a->tree.sub_arity == b->tree.sub_arity &&
           a->tree.top_arity == b->tree.top_arity && a->challenges == b->challenges;
}

static cuzk_status sizes_measure_memo(void *value, const void *key, cuzk_error_t *err)
{
    return sizes_measure(value, key, err);
}

/* The variables one sector of shape allocates, counted the first time (a
 * 32 GiB WindowPoSt sector: ~53 k constraints, milliseconds), for
 * WinningPoSt and WindowPoSt of a size or two. */
static fil_memo_t g_sizes =
    FIL_MEMO_INIT(fil_post_shape_t, post_sizes_t, same_shape, sizes_measure_memo);

static cuzk_status post_sizes(post_sizes_t *out, const fil_post_shape_t *shape, cuzk_error_t *err)
{
    return fil_memo_get(&g_sizes, out, shape, err);
}

typedef struct post_job {
    const fil_post_shape_t *shape;
    const fil_post_sector_t *sectors;
    unsigned n_sectors;
} post_job_t;

/* Sector i of the circuit: compound.rs circuit() pads with the last. */
static void sector_task(cs_t *cs, size_t i, void *arg)
{
    const post_job_t *job = arg;
    size_t j = i < job->n_sectors ? i : job->n_sectors - 1;
    cs_ns_push(cs, "sector", (int64_t)i);
    fil_cs_post_sector(cs, job->shape, &job->sectors[j]);
    cs_ns_pop(cs);
}

void fil_cs_post(cs_t *cs, const fil_post_shape_t *shape, const fil_post_sector_t *sectors,
                 unsigned n_sectors, unsigned sector_count)
{
    cuzk_error_t err;
    if (!sectors || n_sectors == 0 || n_sectors > sector_count) {
        cs_fail(cs, CUZK_ERR_ARG,
                "post circuit: %u vanilla sectors for a circuit of %u (1 or more, at most the "
                "circuit's)",
                sectors ? n_sectors : 0, sector_count);
        return;
    }
    post_sizes_t sz;
    if (fil_post_shape_check(shape, &err) != CUZK_OK || post_sizes(&sz, shape, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "%s", err.msg);
        return;
    }
    uint64_t *aux = malloc(2 * (size_t)sector_count * sizeof *aux);
    if (!aux) {
        cs_fail(cs, CUZK_ERR_NOMEM, "post circuit: out of memory for %u sectors", sector_count);
        return;
    }
    uint64_t *inputs = aux + sector_count;
    for (unsigned i = 0; i < sector_count; i++) {
        aux[i] = sz.aux;
        inputs[i] = sz.inputs;
    }
    post_job_t job = {shape, sectors, n_sectors};
    cs_parallel(cs, sector_count, aux, inputs, sector_task, &job);
    free(aux);
}
