/* neptune's legacy Poseidon circuit (NEP:src/circuit.rs PoseidonCircuit),
 * include/cuzk/cs_poseidon.h. The rounds and their constants come from
 * poseidon_round(), the schedule poseidon_hash_optimized() also walks, so
 * the gadget's values are the native hash's by construction and the test
 * compares the two.
 *
 * The reference path keeps every element of the state as a linear
 * combination: an allocated S-box output y as the combination 1 * y, which
 * is what neptune's Elt::scale and scalar_product turn an Elt::Allocated
 * into (Num::from, then Num::scale), and the tag's constant S-box as
 * c * ONE (Elt::num_from_fr). The mixes then add scaled copies exactly as
 * scalar_product folds them, so every combination holds the terms
 * bellpepper's holds, and cs_enforce merges them into the same map. The
 * only place neptune meets an Elt::Allocated in ensure_allocated is round
 * 0's inputs, which first_round() takes as they are.
 *
 * The fast path: the mixes cost O(t (t + k)) multiplications in partial
 * round k (element 0 sums the other elements' growing combinations), some
 * 25,000 per arity-11 hash, yet the merged combinations depend on the
 * constants alone. They never hold a caller's input (round 0's S-box
 * outputs replace them before the first mix), only ONE and the gadget's
 * own aux variables, whose numbers are the gadget's first aux plus a fixed
 * offset. So the reference path runs once per shared constants object
 * (poseidon_constants_get, poseidon_constants_get_custom: the tag's
 * constant enters the combinations) in a private count-mode cs and keeps each
 * ensure_allocated row's merged combination as (offset, coefficient)
 * terms; the fast path replays those rows and computes the values
 * natively. Same allocations, same constraints, same maps: the test
 * compares the recorded matrices and fingerprints of both paths. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_poseidon.h"

#include "cs_internal.h"

/* The ensure_allocated rows' A combinations, in order. off is the aux
 * offset from the gadget's first aux variable, or TMPL_ONE. */
#define TMPL_ONE UINT32_MAX

typedef struct tmpl {
    uint32_t n_rows, n_terms, cap_rows, cap_terms;
    uint32_t *row_ptr; /* n_rows + 1 */
    uint32_t *off;
    fr_t *coeff;
    uint32_t max_aux; /* most aux terms with a non-zero coefficient in a row */
    int failed;       /* out of memory or an unexpected variable while building */
} tmpl_t;

/* The known-terms replay (see ensure_allocated) holds a row's aux
 * variables on the stack; a template with longer rows replays its
 * combinations instead (arity 11's longest row has about 70). */
#define TMPL_KNOWN_MAX 256

typedef struct pstate {
    unsigned t;
    int values;
    uint64_t base;        /* the gadget's first aux index */
    const tmpl_t *replay; /* fast path: the rows to replay, else NULL */
    uint32_t row;         /* the next row of replay */
    tmpl_t *build;        /* reference path building a template, else NULL */
    cs_lc_t *lc[POSEIDON_MAX_WIDTH];
    fr_t val[POSEIDON_MAX_WIDTH]; /* when values */
} pstate_t;

static void tmpl_free(tmpl_t *tp)
{
    if (!tp)
        return;
    free(tp->row_ptr);
    free(tp->off);
    free(tp->coeff);
    free(tp);
}

static int tmpl_reserve(tmpl_t *tp, uint32_t rows, uint32_t terms)
{
    if (rows + 1 > tp->cap_rows) {
        uint32_t n = tp->cap_rows ? 2 * tp->cap_rows : 256;
        while (n < rows + 1)
            n *= 2;
        uint32_t *p = realloc(tp->row_ptr, n * sizeof *p);
        if (!p)
            return 0;
        tp->row_ptr = p;
        tp->cap_rows = n;
    }
    if (terms > tp->cap_terms) {
        uint32_t n = tp->cap_terms ? 2 * tp->cap_terms : 4096;
        while (n < terms)
            n *= 2;
        uint32_t *o = realloc(tp->off, n * sizeof *o);
        if (!o)
            return 0;
        tp->off = o;
        fr_t *c = realloc(tp->coeff, n * sizeof *c);
        if (!c)
            return 0;
        tp->coeff = c;
        tp->cap_terms = n;
    }
    return 1;
}

/* Appends lc (normalized) as the next row. */
static void tmpl_add_row(tmpl_t *tp, const cs_lc_t *lc, uint64_t base)
{
    if (tp->failed || !tmpl_reserve(tp, tp->n_rows + 1, tp->n_terms + lc->n)) {
        tp->failed = 1;
        return;
    }
    uint32_t n_aux = 0;
    for (uint32_t i = 0; i < lc->n; i++) {
        cs_var_t v = lc->terms[i].var;
        uint32_t off = TMPL_ONE;
        if (cs_var_is_aux(v) && cs_var_index(v) >= base)
            off = (uint32_t)(cs_var_index(v) - base);
        else if (v != CS_ONE)
            tp->failed = 1; /* cannot happen: see the top of the file */
        n_aux += off != TMPL_ONE && !cs_fr_is_zero_(&lc->terms[i].coeff);
        tp->off[tp->n_terms] = off;
        tp->coeff[tp->n_terms++] = lc->terms[i].coeff;
    }
    if (n_aux > tp->max_aux)
        tp->max_aux = n_aux;
    tp->row_ptr[0] = 0;
    tp->row_ptr[++tp->n_rows] = tp->n_terms;
}

/* Elt::ensure_allocated(enforce = true) of a Num: alloc l; lc * ONE = l.
 * Replayed where no back end reads the terms (count, witness): only the
 * row's aux variables with a non-zero coefficient matter then (the A
 * density; B is ONE), and building and merging the combinations was a
 * third of a WindowPoSt witness. */
static cs_num_t ensure_allocated(cs_t *cs, pstate_t *s, unsigned i)
{
    if (s->replay && !cs_terms_needed_(cs) && s->replay->max_aux <= TMPL_KNOWN_MAX) {
        const tmpl_t *tp = s->replay;
        cs_num_t l = cs_num_alloc(cs, &s->val[i]);
        cs_var_t av[TMPL_KNOWN_MAX];
        int na = 0;
        for (uint32_t e = tp->row_ptr[s->row]; e < tp->row_ptr[s->row + 1]; e++)
            if (tp->off[e] != TMPL_ONE && !cs_fr_is_zero_(&tp->coeff[e]))
                av[na++] = CS_VAR_AUX | (uint32_t)(s->base + tp->off[e]);
        s->row++;
        const cs_var_t one = CS_ONE;
        cs_enforce_known_(cs, av, na, &one, 1);
        return l;
    }
    if (s->replay) {
        const tmpl_t *tp = s->replay;
        cs_num_t l = cs_num_alloc(cs, &s->val[i]);
        cs_lc_t *a, *b, *c;
        cs_enforce_begin(cs, &a, &b, &c);
        for (uint32_t e = tp->row_ptr[s->row]; e < tp->row_ptr[s->row + 1]; e++) {
            cs_var_t v =
                tp->off[e] == TMPL_ONE ? CS_ONE : CS_VAR_AUX | (uint32_t)(s->base + tp->off[e]);
            cs_lc_add(cs, a, v, &tp->coeff[e]);
        }
        s->row++;
        cs_lc_add(cs, b, CS_ONE, NULL);
        cs_lc_add(cs, c, l.var, NULL);
        cs_enforce(cs, a, b, c);
        return l;
    }
    if (s->build) {
        cs_lc_normalize(cs, s->lc[i]); /* the same map, sorted */
        tmpl_add_row(s->build, s->lc[i], s->base);
    }
    cs_lcnum_t n;
    n.lc = s->lc[i];
    n.value = s->val[i];
    return cs_lcnum_alloc(cs, &n);
}

/* square_sum: alloc r = (x + k)^2; (x + k ONE)(x + k ONE) = r. */
static cs_num_t square_sum(cs_t *cs, const fr_t *k, const cs_num_t *x)
{
    fr_t v = FR_ZERO;
    if (cs_has_values(cs)) {
        fr_add(&v, &x->value, k);
        fr_sqr(&v, &v);
    }
    cs_num_t r = cs_num_alloc(cs, &v);
    if (!cs_terms_needed_(cs) && x->var != CS_ONE) { /* A: x (+ ONE), B: x + k ONE */
        const cs_var_t bv[2] = {x->var, CS_ONE};
        cs_enforce_known_(cs, &x->var, 1, bv, cs_fr_is_zero_(k) ? 1 : 2);
        return r;
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_add(cs, a, x->var, NULL);
    cs_lc_add(cs, a, CS_ONE, k);
    cs_lc_add(cs, b, x->var, NULL);
    cs_lc_add(cs, b, CS_ONE, k);
    cs_lc_add(cs, c, r.var, NULL);
    cs_enforce(cs, a, b, c);
    return r;
}

/* mul_sum(a, b, pre, post): alloc r = a (b + pre) + post;
 * (b + pre ONE) * a = r - post ONE. pre and post may be NULL (absent). */
static cs_num_t mul_sum(cs_t *cs, const cs_num_t *x, const cs_num_t *y, const fr_t *pre,
                        const fr_t *post)
{
    fr_t v = FR_ZERO;
    if (cs_has_values(cs)) {
        v = y->value;
        if (pre)
            fr_add(&v, &v, pre);
        fr_mul(&v, &v, &x->value);
        if (post)
            fr_add(&v, &v, post);
    }
    cs_num_t r = cs_num_alloc(cs, &v);
    if (!cs_terms_needed_(cs) && (!pre || y->var != CS_ONE)) { /* A: y (+ ONE), B: x */
        cs_enforce_known_(cs, &y->var, 1, &x->var, 1);
        return r;
    }
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_add(cs, a, y->var, NULL);
    if (pre)
        cs_lc_add(cs, a, CS_ONE, pre);
    cs_lc_add(cs, b, x->var, NULL);
    cs_lc_add(cs, c, r.var, NULL);
    if (post)
        cs_lc_sub(cs, c, CS_ONE, post);
    cs_enforce(cs, a, b, c);
    return r;
}

/* Element i becomes the allocated y (1 * y). */
static void set_allocated(cs_t *cs, pstate_t *s, unsigned i, const cs_num_t *y)
{
    cs_lc_clear(s->lc[i]);
    cs_lc_add(cs, s->lc[i], y->var, NULL);
    s->val[i] = y->value;
}

/* quintic_s_box on a Num: ensure_allocated, l^2, l^4, mul_sum(l4, l, None,
 * post). 4 constraints. */
static void sbox(cs_t *cs, pstate_t *s, unsigned i, const fr_t *post)
{
    cs_num_t l = ensure_allocated(cs, s, i);
    cs_num_t l2 = cs_num_square(cs, &l);
    cs_num_t l4 = cs_num_square(cs, &l2);
    cs_num_t y = mul_sum(cs, &l4, &l, NULL, post);
    set_allocated(cs, s, i, &y);
}

/* Round 0: the tag's S-box as a constant, then quintic_s_box_pre_add on
 * each (already allocated) input: square_sum, square, mul_sum. */
static void first_round(cs_t *cs, pstate_t *s, const cs_num_t *inputs,
                        const poseidon_constants_t *c, const poseidon_round_t *rd)
{
    fr_t k;
    poseidon_sbox(&k, &c->domain_tag, &rd->pre_keys[0], &rd->post_keys[0]);
    cs_lc_clear(s->lc[0]);
    cs_lc_add(cs, s->lc[0], CS_ONE, &k);
    s->val[0] = k;
    for (unsigned i = 1; i < s->t; i++) {
        cs_ns_push(cs, "quintic s-box", i);
        const cs_num_t *x = &inputs[i - 1];
        cs_num_t l2 = square_sum(cs, &rd->pre_keys[i], x);
        cs_num_t l4 = cs_num_square(cs, &l2);
        cs_num_t y = mul_sum(cs, &l4, x, &rd->pre_keys[i], &rd->post_keys[i]);
        set_allocated(cs, s, i, &y);
        cs_ns_pop(cs);
    }
}

/* product_mds_with_matrix: element j = sum_i m[i][j] * element i
 * (scalar_product over column j). */
static void mix_dense(cs_t *cs, pstate_t *s, const fr_t *m)
{
    const unsigned t = s->t;
    cs_lc_t *next[POSEIDON_MAX_WIDTH];
    for (unsigned j = 0; j < t; j++) {
        next[j] = cs_lc_get(cs);
        for (unsigned i = 0; i < t; i++)
            cs_lc_add_lc(cs, next[j], s->lc[i], &m[(size_t)i * t + j]);
    }
    for (unsigned i = 0; i < t; i++) {
        cs_lc_put(cs, s->lc[i]);
        s->lc[i] = next[i];
    }
}

/* product_mds_with_sparse_matrix: element 0 = sum_i w_hat[i] * element i;
 * element j = element j + v_rest[j-1] * element 0 (old element 0). */
static void mix_sparse(cs_t *cs, pstate_t *s, const fr_t *w_hat, const fr_t *v_rest)
{
    cs_lc_t *first = cs_lc_get(cs);
    for (unsigned i = 0; i < s->t; i++)
        cs_lc_add_lc(cs, first, s->lc[i], &w_hat[i]);
    for (unsigned j = 1; j < s->t; j++)
        cs_lc_add_lc(cs, s->lc[j], s->lc[0], &v_rest[j - 1]);
    cs_lc_put(cs, s->lc[0]);
    s->lc[0] = first;
}

static void mix(cs_t *cs, pstate_t *s, const poseidon_round_t *rd)
{
    if (!s->replay) { /* else the combinations are in the template */
        if (rd->mix == POSEIDON_MIX_SPARSE)
            mix_sparse(cs, s, rd->w_hat, rd->v_rest);
        else
            mix_dense(cs, s, rd->matrix);
    }
    if (s->values) {
        fr_t out[POSEIDON_MAX_WIDTH];
        poseidon_mix_apply(out, rd, s->val, s->t);
        memcpy(s->val, out, s->t * sizeof out[0]);
    }
}

/* The namespace of round r, as circuit.rs hash() names it. */
static void push_round_ns(cs_t *cs, const poseidon_constants_t *c, unsigned r)
{
    const unsigned h = c->half_full_rounds, rp = c->partial_rounds;
    if (r == 0)
        cs_ns_push(cs, "first round", -1);
    else if (r < h)
        cs_ns_push(cs, "initial full round", r);
    else if (r < h + rp)
        cs_ns_push(cs, "partial round", r - h);
    else if (r + 1 < poseidon_num_rounds(c))
        cs_ns_push(cs, "final full round", r - h - rp);
    else
        cs_ns_push(cs, "terminal full round", -1);
}

/* The circuit over inputs[0..c->arity), on either path (see the top). */
static void hash_walk(cs_num_t *out, cs_t *cs, const cs_num_t *inputs,
                      const poseidon_constants_t *c, const tmpl_t *replay, tmpl_t *build)
{
    pstate_t s;
    s.t = c->width;
    s.values = cs_has_values(cs);
    cs_counts_t k;
    cs_counts(&k, cs);
    s.base = k.aux;
    s.replay = replay;
    s.row = 0;
    s.build = build;
    for (unsigned i = 0; i < s.t; i++) {
        s.lc[i] = cs_lc_get(cs);
        s.val[i] = FR_ZERO;
    }
    const unsigned rounds = poseidon_num_rounds(c);
    for (unsigned r = 0; r < rounds; r++) {
        poseidon_round_t rd;
        poseidon_round(&rd, c, r);
        push_round_ns(cs, c, r);
        if (r == 0) {
            first_round(cs, &s, inputs, c, &rd);
        } else if (rd.kind == POSEIDON_ROUND_PARTIAL) {
            cs_ns_push(cs, "solitary quintic s-box", -1);
            sbox(cs, &s, 0, &rd.post_keys[0]);
            cs_ns_pop(cs);
        } else {
            for (unsigned i = 0; i < s.t; i++) {
                cs_ns_push(cs, "quintic s-box", i);
                sbox(cs, &s, i, rd.post_keys ? &rd.post_keys[i] : NULL);
                cs_ns_pop(cs);
            }
        }
        mix(cs, &s, &rd);
        cs_ns_pop(cs);
    }
    cs_ns_push(cs, "hash result", -1);
    *out = ensure_allocated(cs, &s, 1);
    cs_ns_pop(cs);
    for (unsigned i = 0; i < s.t; i++)
        cs_lc_put(cs, s.lc[i]);
}

/* The template of the shared constants of an arity, made on first use by
 * the reference path and kept until the process exits; NULL when it
 * cannot be made (the fast path then takes the reference path). */
static _Atomic(const tmpl_t *) g_tmpl[POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t g_tmpl_mu = PTHREAD_MUTEX_INITIALIZER;

static tmpl_t *tmpl_make(const poseidon_constants_t *c)
{
    tmpl_t *tp = calloc(1, sizeof *tp);
    cs_t *cs = NULL;
    if (!tp || cs_new(&cs, CS_COUNT, NULL) != CUZK_OK) {
        free(tp);
        return NULL;
    }
    cs_num_t in[POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < c->arity; i++)
        in[i] = cs_num_alloc(cs, NULL);
    cs_num_t out;
    hash_walk(&out, cs, in, c, NULL, tp);
    int ok = cs_status(cs, NULL) == CUZK_OK && !tp->failed &&
             tp->n_rows == (c->full_rounds - 1) * c->width + c->partial_rounds + 1;
    cs_free(cs);
    if (!ok) {
        tmpl_free(tp);
        return NULL;
    }
    return tp;
}

/* The templates of shared custom constants (poseidon_constants_get_custom),
 * keyed by the constants object: a list published as g_tmpl's slots are
 * (nodes complete before the release store that links them, never freed). */
typedef struct tmpl_node {
    const poseidon_constants_t *key;
    const tmpl_t *tp;
    struct tmpl_node *next;
} tmpl_node_t;
static _Atomic(tmpl_node_t *) g_tmpl_custom;

static const tmpl_t *tmpl_custom_find(const tmpl_node_t *n, const poseidon_constants_t *c)
{
    for (; n; n = n->next)
        if (n->key == c)
            return n->tp;
    return NULL;
}

static const tmpl_t *tmpl_get_custom(const poseidon_constants_t *c)
{
    const tmpl_t *tp =
        tmpl_custom_find(atomic_load_explicit(&g_tmpl_custom, memory_order_acquire), c);
    if (tp)
        return tp;
    pthread_mutex_lock(&g_tmpl_mu);
    tmpl_node_t *head = atomic_load_explicit(&g_tmpl_custom, memory_order_relaxed);
    tp = tmpl_custom_find(head, c);
    if (!tp) {
        tmpl_t *made = tmpl_make(c);
        tmpl_node_t *node = made ? malloc(sizeof *node) : NULL;
        if (node) {
            node->key = c;
            node->tp = made;
            node->next = head;
            atomic_store_explicit(&g_tmpl_custom, node, memory_order_release);
            tp = made;
        } else {
            tmpl_free(made);
        }
    }
    pthread_mutex_unlock(&g_tmpl_mu);
    return tp;
}

static const tmpl_t *tmpl_get(const poseidon_constants_t *c)
{
    const poseidon_constants_t *shared = NULL;
    cuzk_status st = c->custom_id
                         ? poseidon_constants_get_custom(&shared, c->arity, c->custom_id, NULL)
                         : poseidon_constants_get(&shared, c->arity, NULL);
    if (st != CUZK_OK || shared != c)
        return NULL; /* a caller's own constants: no cache */
    if (c->custom_id)
        return tmpl_get_custom(c);
    const tmpl_t *tp = atomic_load_explicit(&g_tmpl[c->arity], memory_order_acquire);
    if (tp)
        return tp;
    pthread_mutex_lock(&g_tmpl_mu);
    tp = atomic_load_explicit(&g_tmpl[c->arity], memory_order_relaxed);
    if (!tp) {
        tp = tmpl_make(c);
        if (tp)
            atomic_store_explicit(&g_tmpl[c->arity], tp, memory_order_release);
    }
    pthread_mutex_unlock(&g_tmpl_mu);
    return tp;
}

void cs_poseidon_hash_path(cs_num_t *out, cs_t *cs, const cs_num_t *inputs, size_t n,
                           const poseidon_constants_t *c, cs_poseidon_path path)
{
    out->var = CS_ONE;
    out->value = FR_ZERO;
    if (n != c->arity) {
        cs_fail(cs, CUZK_ERR_ARG, "poseidon: %zu inputs for arity %u", n, c->arity);
        return;
    }
    const tmpl_t *tp = path == CS_POSEIDON_FAST ? tmpl_get(c) : NULL;
    hash_walk(out, cs, inputs, c, tp, NULL);
}

void cs_poseidon_hash(cs_num_t *out, cs_t *cs, const cs_num_t *inputs, size_t n,
                      const poseidon_constants_t *c)
{
    cs_poseidon_hash_path(out, cs, inputs, n, c, CS_POSEIDON_FAST);
}

uint64_t cs_poseidon_cost(const poseidon_constants_t *c)
{
    return 3 * (uint64_t)c->arity + 4 * (uint64_t)c->width * (c->full_rounds - 1) +
           4 * (uint64_t)c->partial_rounds + 1;
}
