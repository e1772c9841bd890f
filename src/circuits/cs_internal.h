/* The constraint system's representation, shared by the gadgets of this
 * layer so that the hot paths (term pushes, bit allocations) inline.
 * Internal: the public contract is include/cuzk/cs.h. */
#ifndef CUZK_CS_INTERNAL_H
#define CUZK_CS_INTERNAL_H

#include <stdint.h>

#include "cuzk/cs.h"

#define CS_NS_MAX 64
#define CS_PATH_MAX 256

typedef struct cs_ns_entry {
    const char *name;
    int64_t idx;
} cs_ns_entry_t;

/* A growable bitmap with its population count kept up to date, so a density
 * is read in O(1) (bellperson's DensityTracker, ec-gpu-gen multiexp_cpu.rs).
 * Words [own_lo, own_lo + own_n) are the cs's alone (all of them, but in a
 * cs_parallel child); the others it shares with running siblings and sets
 * with atomic OR (cs.c density_set). */
typedef struct cs_density {
    uint64_t *words;
    size_t n_words;
    uint64_t total;
    size_t own_lo, own_n;
} cs_density_t;

/* One recorded matrix (CS_RECORD). */
typedef struct cs_rec_matrix {
    uint64_t *row_ptr;
    cs_var_t *var;
    uint32_t *coef;
    uint64_t nnz, cap;
} cs_rec_matrix_t;

/* A child cs of cs_parallel (one task of a parallel CS_WITNESS run). It
 * borrows its parent's value vectors and density bitmaps: it writes values
 * only to its own slice, aux [aux0, aux_cap) and inputs [in0, in_cap) (the
 * caps are the slice's ends, so an allocation past the declared count
 * fails instead of writing into the next task's slice), and sets density
 * bits plainly in the words wholly inside its slice, with atomic OR in the
 * others (the slice's edges, older variables); its density totals count
 * the bits it set first. It never grows, reallocates or frees what it
 * borrows. */
typedef struct cs_task_info {
    int child;          /* 0 for a cs of cs_new */
    size_t index;       /* the task's number in its cs_parallel call */
    uint64_t aux0, in0; /* its first aux variable and input */
} cs_task_info_t;

struct cs {
    cs_mode mode;
    int values; /* CS_WITNESS or CS_CHECK */
    uint64_t n_constraints;
    uint64_t n_aux, n_inputs;

    cs_density_t a_aux, b_input, b_aux;

    fr_t *aux_val, *in_val; /* when values */
    uint64_t aux_cap, in_cap;
    int bound; /* cs_bind_values: the vectors are the caller's (never grown or freed) */
    /* cs_bind_bits: aux j's value classified at bit vbit0 + j of the
     * caller's packed bitmaps (fr_pack.h); only values other than 0 and 1
     * reach aux_val. own_lo/own_n as for the densities. */
    int vbits;
    uint64_t vbit0;
    cs_density_t vnz, vfull;

    cs_lc_t **pool;
    size_t pool_n, pool_cap;
    cs_lc_t scratch[3];
    cs_lc_t sink; /* handed out when the pool cannot grow */

    uint32_t *hslots; /* cs_lc_merge_'s hash table: term index + 1, 0 = empty */
    size_t hslots_n;
    cs_term_t *sort_tmp; /* cs_lc_normalize's radix sort buffer */
    uint32_t sort_cap;
    uint32_t *wpos; /* cs_lc_merge_'s positions over a window of aux indices */
    size_t wpos_n;

    fr_t pow2[256];
    fr_t neg_pow2[256];
    fr_t minus_one;

    cs_ns_entry_t ns[CS_NS_MAX];
    unsigned ns_depth;

    cuzk_error_t err; /* the first error; err.code == CUZK_OK while none */

    int check_failed;
    uint64_t bad_row;
    char bad_path[CS_PATH_MAX];
    int fault_set;
    uint64_t fault_index;
    fr_t fault_value;

    /* the fingerprint stream (cs_hash.c) */
    cs_hash_update_fn hash_update;
    void *hash_ctx;
    cs_counts_t hash_expected;
    struct cs_hash_cache *hash_cache;

    /* CS_RECORD */
    cs_rec_matrix_t rec[3];
    uint64_t rows_cap;
    fr_t *dict;
    uint32_t n_dict, dict_cap;
    uint32_t *dict_slots; /* open addressing: dict index + 1, 0 = empty */
    uint32_t dict_slots_n;
    int taken; /* cs_record_take handed the matrices over */

    /* cs_parallel (cs_parallel.c) */
    int threads;          /* cs_set_threads: 1 = inline, <= 0 = every CPU */
    struct cs_team *team; /* the thread budget of the outermost call; NULL outside one */
    cs_task_info_t task;  /* what this child may write, when task.child */
};

/* Where aux j's value is read (0 and 1 from the packed bitmaps, when
 * bound); FR_ZERO past the values made. Relaxed loads: a sibling task may
 * be setting other bits of an edge word. */
static inline const fr_t *cs_aux_ref_(const cs_t *cs, uint64_t j)
{
    if (j >= cs->n_aux || j >= cs->aux_cap)
        return &FR_ZERO;
    if (!cs->vbits)
        return &cs->aux_val[j];
    uint64_t i = cs->vbit0 + j, m = 1ull << (i & 63);
    if (!(__atomic_load_n(&cs->vnz.words[i >> 6], __ATOMIC_RELAXED) & m))
        return &FR_ZERO;
    if (!(__atomic_load_n(&cs->vfull.words[i >> 6], __ATOMIC_RELAXED) & m))
        return &FR_ONE;
    return &cs->aux_val[j];
}

/* Grows lc to hold at least one more term; 0 (and CUZK_ERR_NOMEM recorded)
 * when it cannot. */
int cs_lc_grow_(cs_t *cs, cs_lc_t *lc, uint32_t need);

/* Merges duplicate terms (adding coefficients; zero sums stay) without
 * sorting: what count, witness and check need. */
void cs_lc_merge_(cs_t *cs, cs_lc_t *lc);

/* Feeds one constraint to the fingerprint; a, b and c are normalized. */
void cs_hash_row(cs_t *cs, const cs_lc_t *a, const cs_lc_t *b, const cs_lc_t *c);
void cs_hash_free(cs_t *cs);

/* Whether cs_enforce needs the terms themselves (checking, recording,
 * fingerprinting). When it does not, a gadget whose constraint has
 * non-zero coefficients known in advance may call cs_enforce_known_
 * instead of building the combinations: the same count and densities. */
static inline int cs_terms_needed_(const cs_t *cs)
{
    return cs->mode == CS_CHECK || cs->mode == CS_RECORD || cs->hash_update != NULL;
}

/* One constraint whose A has exactly the distinct variables a[0..na) and B
 * exactly b[0..nb) with non-zero merged coefficients (C is not tracked). */
void cs_enforce_known_(cs_t *cs, const cs_var_t *a, int na, const cs_var_t *b, int nb);

/* The record back end (cs_record.c). */
cuzk_status cs_record_init(cs_t *cs);
void cs_record_free(cs_t *cs);
/* Appends one constraint; a, b and c are normalized. */
void cs_record_row(cs_t *cs, const cs_lc_t *a, const cs_lc_t *b, const cs_lc_t *c);

static inline void cs_lc_push_(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *c)
{
    if (lc->n == lc->cap && !cs_lc_grow_(cs, lc, lc->n + 1))
        return;
    cs_term_t *t = &lc->terms[lc->n++];
    t->var = v;
    t->coeff = *c;
}

static inline int cs_fr_is_zero_(const fr_t *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

static inline int cs_fr_is_one_(const fr_t *a)
{
    return a->l[0] == FR_ONE.l[0] && a->l[1] == FR_ONE.l[1] && a->l[2] == FR_ONE.l[2] &&
           a->l[3] == FR_ONE.l[3];
}

#endif
