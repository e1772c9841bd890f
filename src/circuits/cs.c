/* The constraint system: variables, enforce, densities, check, namespaces.
 * Linear combinations are in cs_lc.c, the record back end in cs_record.c.
 *
 * Densities follow bellperson's ProvingAssignment (BP:src/groth16/prover/
 * mod.rs): A is tracked over aux only (inputs have full density in A
 * because of the prover's input rows), B over inputs and aux, C not at all;
 * a term counts when its merged coefficient is non-zero (BP:src/lc.rs
 * eval_with_trackers). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"

cuzk_status cs_fail(cs_t *cs, cuzk_status code, const char *fmt, ...)
{
    if (cs->err.code != CUZK_OK)
        return code;
    char msg[CUZK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char path[CS_PATH_MAX];
    cs_ns_path(path, sizeof path, cs);
    if (path[0])
        cuzk_error_set(&cs->err, code, "%s (at %s)", msg, path);
    else
        cuzk_error_set(&cs->err, code, "%s", msg);
    return code;
}

cuzk_status cs_new(cs_t **out, cs_mode mode, cuzk_error_t *err)
{
    *out = NULL;
    if (mode != CS_COUNT && mode != CS_WITNESS && mode != CS_CHECK && mode != CS_RECORD)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_new: unknown mode %d", (int)mode);
    cs_t *cs = calloc(1, sizeof *cs);
    if (!cs)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cs_new: out of memory");
    cs->mode = mode;
    cs->values = mode == CS_WITNESS || mode == CS_CHECK;
    cs->err.code = CUZK_OK;
    cs->threads = 1;
    cs->a_aux.own_n = cs->b_input.own_n = cs->b_aux.own_n = SIZE_MAX;
    cs->vnz.own_n = cs->vfull.own_n = SIZE_MAX;
    cs->pow2[0] = FR_ONE;
    for (unsigned i = 1; i < 256; i++)
        fr_dbl(&cs->pow2[i], &cs->pow2[i - 1]);
    for (unsigned i = 0; i < 256; i++)
        fr_neg(&cs->neg_pow2[i], &cs->pow2[i]);
    fr_neg(&cs->minus_one, &FR_ONE);
    if (mode == CS_RECORD && cs_record_init(cs) != CUZK_OK) {
        cs_free(cs);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cs_new: out of memory");
    }
    /* bellperson's prover allocates ONE before the circuit synthesizes
     * (BP:src/groth16/prover/native.rs synthesize_circuits_batch). */
    cs_alloc_input(cs, &FR_ONE);
    if (cs->err.code != CUZK_OK) {
        cs_free(cs);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cs_new: out of memory");
    }
    *out = cs;
    return CUZK_OK;
}

void cs_free(cs_t *cs)
{
    if (!cs)
        return;
    if (!cs->task.child) { /* a child's are its parent's */
        free(cs->a_aux.words);
        free(cs->b_input.words);
        free(cs->b_aux.words);
        if (!cs->bound) { /* bound vectors are the caller's */
            free(cs->aux_val);
            free(cs->in_val);
        }
    }
    for (size_t i = 0; i < cs->pool_n; i++) {
        free(cs->pool[i]->terms);
        free(cs->pool[i]);
    }
    free(cs->pool);
    for (int i = 0; i < 3; i++)
        free(cs->scratch[i].terms);
    free(cs->hslots);
    free(cs->wpos);
    free(cs->sort_tmp);
    cs_record_free(cs);
    cs_hash_free(cs);
    free(cs);
}

cs_mode cs_get_mode(const cs_t *cs)
{
    return cs->mode;
}

int cs_has_values(const cs_t *cs)
{
    return cs->values;
}

cuzk_status cs_status(const cs_t *cs, cuzk_error_t *err)
{
    if (cs->err.code != CUZK_OK && err)
        *err = cs->err;
    return cs->err.code;
}

void cs_counts(cs_counts_t *out, const cs_t *cs)
{
    out->constraints = cs->n_constraints;
    out->aux = cs->n_aux;
    out->inputs = cs->n_inputs;
    out->a_aux_density = cs->a_aux.total;
    out->b_input_density = cs->b_input.total;
    out->b_aux_density = cs->b_aux.total;
}

/* ---- variables ---------------------------------------------------------- */

static int grow_values(cs_t *cs, fr_t **vals, uint64_t *cap, uint64_t need)
{
    if (cs->task.child) { /* its slice ends at *cap: the next task's begins there */
        int aux = vals == &cs->aux_val;
        uint64_t first = aux ? cs->task.aux0 : cs->task.in0;
        cs_fail(cs, CUZK_ERR_INTERNAL,
                "cs_parallel: task %zu allocates more than the %llu %s it declared", cs->task.index,
                (unsigned long long)(*cap - first), aux ? "aux" : "inputs");
        return 0;
    }
    if (cs->bound) { /* the caller's buffer never moves: a clean error, no write past it */
        int aux = vals == &cs->aux_val;
        cs_fail(cs, CUZK_ERR_ARG, "cs: %llu %s do not fit the bound buffer of %llu",
                (unsigned long long)need, aux ? "aux variables" : "inputs (ONE included)",
                (unsigned long long)*cap);
        return 0;
    }
    uint64_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    fr_t *p = realloc(*vals, n * sizeof *p);
    if (!p) {
        cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory for %llu values", (unsigned long long)n);
        return 0;
    }
    *vals = p;
    *cap = n;
    return 1;
}

cuzk_status cs_bind_values(cs_t *cs, fr_t *inputs, size_t n_inputs_cap, fr_t *aux, size_t n_aux_cap,
                           cuzk_error_t *err)
{
    if (!cs->values)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cs_bind_values: a count or record cs keeps no values");
    if (cs->task.child || cs->bound || cs->n_inputs != 1 || cs->n_aux != 0 ||
        cs->n_constraints != 0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cs_bind_values: only once, right after cs_new (%llu inputs, %llu "
                              "aux and %llu constraints so far)",
                              (unsigned long long)cs->n_inputs, (unsigned long long)cs->n_aux,
                              (unsigned long long)cs->n_constraints);
    if (!inputs || n_inputs_cap == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cs_bind_values: the inputs (%s, capacity %zu) must hold ONE",
                              inputs ? "given" : "NULL", n_inputs_cap);
    if (!aux && n_aux_cap > 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_bind_values: NULL aux of capacity %zu",
                              n_aux_cap);
    inputs[0] = FR_ONE; /* cs_new's ONE, allocated before the binding */
    free(cs->in_val);
    free(cs->aux_val);
    cs->in_val = inputs;
    cs->in_cap = n_inputs_cap;
    cs->aux_val = aux;
    cs->aux_cap = n_aux_cap;
    cs->bound = 1;
    return CUZK_OK;
}

cuzk_status cs_bind_bits(cs_t *cs, uint64_t *nz, uint64_t *full, uint64_t bit0, uint64_t n_bits,
                         cuzk_error_t *err)
{
    if (!cs->bound || cs->vbits || cs->n_aux != 0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cs_bind_bits: only once, after cs_bind_values and before any aux "
                              "variable");
    if (!nz || !full || bit0 + cs->aux_cap > n_bits)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cs_bind_bits: bitmaps of %llu bits cannot hold aux from bit %llu "
                              "(capacity %llu)",
                              (unsigned long long)n_bits, (unsigned long long)bit0,
                              (unsigned long long)cs->aux_cap);
    size_t words = (size_t)((n_bits + 63) / 64);
    cs->vnz.words = nz;
    cs->vfull.words = full;
    cs->vnz.n_words = cs->vfull.n_words = words;
    cs->vbit0 = bit0;
    cs->vbits = 1;
    return CUZK_OK;
}

/* A bit of a packed bitmap: plainly in the words the cs owns, with an
 * atomic OR in those a running sibling shares (as density_set). */
static inline void vbit_set(cs_density_t *d, uint64_t i)
{
    size_t w = (size_t)(i >> 6);
    uint64_t m = 1ull << (i & 63);
    if (w - d->own_lo >= d->own_n)
        __atomic_fetch_or(&d->words[w], m, __ATOMIC_RELAXED);
    else
        d->words[w] |= m;
}

/* Aux j's value: classified into the packed bitmaps (zeros set nothing:
 * the bitmaps start clear), kept in aux_val only when neither 0 nor 1. */
static inline void store_aux(cs_t *cs, uint64_t j, const fr_t *v)
{
    if (!cs->vbits) {
        cs->aux_val[j] = *v;
        return;
    }
    if ((v->l[0] | v->l[1] | v->l[2] | v->l[3]) == 0)
        return;
    uint64_t i = cs->vbit0 + j;
    vbit_set(&cs->vnz, i);
    if (!fr_equal(v, &FR_ONE)) {
        vbit_set(&cs->vfull, i);
        cs->aux_val[j] = *v;
    }
}

cs_var_t cs_alloc(cs_t *cs, const fr_t *value)
{
    uint64_t j = cs->n_aux;
    if (j > CS_VAR_INDEX_MAX) {
        cs_fail(cs, CUZK_ERR_CAPACITY, "cs: more than 2^31 aux variables");
        return CS_VAR_AUX | CS_VAR_INDEX_MAX;
    }
    if (cs->values && (j < cs->aux_cap || grow_values(cs, &cs->aux_val, &cs->aux_cap, j + 1)))
        store_aux(cs, j, cs->fault_set && j == cs->fault_index ? &cs->fault_value : value);
    cs->n_aux = j + 1;
    return CS_VAR_AUX | (cs_var_t)j;
}

cs_var_t cs_alloc_bit(cs_t *cs, int bit)
{
    return cs_alloc(cs, bit ? &FR_ONE : &FR_ZERO);
}

cs_var_t cs_alloc_input(cs_t *cs, const fr_t *value)
{
    uint64_t i = cs->n_inputs;
    if (i > CS_VAR_INDEX_MAX) {
        cs_fail(cs, CUZK_ERR_CAPACITY, "cs: more than 2^31 inputs");
        return CS_VAR_INDEX_MAX;
    }
    if (cs->values && (i < cs->in_cap || grow_values(cs, &cs->in_val, &cs->in_cap, i + 1)))
        cs->in_val[i] = *value;
    cs->n_inputs = i + 1;
    return (cs_var_t)i;
}

void cs_value(fr_t *out, const cs_t *cs, cs_var_t v)
{
    uint64_t j = cs_var_index(v);
    if (!cs->values) {
        *out = FR_ZERO;
    } else if (cs_var_is_aux(v)) {
        *out = *cs_aux_ref_(cs, j);
    } else {
        *out = j < cs->n_inputs && j < cs->in_cap ? cs->in_val[j] : FR_ZERO;
    }
}

/* The counts run on past the vectors when they could not grow (the cs has
 * failed then): never hand out more values than there are. */
const fr_t *cs_input_values(const cs_t *cs, size_t *n)
{
    *n = cs->values ? (size_t)(cs->n_inputs < cs->in_cap ? cs->n_inputs : cs->in_cap) : 0;
    return cs->values ? cs->in_val : NULL;
}

const fr_t *cs_aux_values(const cs_t *cs, size_t *n)
{
    int whole = cs->values && !cs->vbits;
    *n = whole ? (size_t)(cs->n_aux < cs->aux_cap ? cs->n_aux : cs->aux_cap) : 0;
    return whole ? cs->aux_val : NULL;
}

const fr_t *cs_pow2(const cs_t *cs, unsigned i)
{
    return &cs->pow2[i & 255];
}

const fr_t *cs_minus_one(const cs_t *cs)
{
    return &cs->minus_one;
}

/* ---- densities ---------------------------------------------------------- */

static int density_grow(cs_t *cs, cs_density_t *d, size_t need)
{
    if (cs->task.child) { /* the parent reserved every task's variables */
        cs_fail(cs, CUZK_ERR_INTERNAL, "cs_parallel: task %zu uses a variable past its slice",
                cs->task.index);
        return 0;
    }
    size_t n = d->n_words ? d->n_words : 1024;
    while (n < need)
        n *= 2;
    uint64_t *w = realloc(d->words, n * sizeof *w);
    if (!w) {
        cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory for a density bitmap");
        return 0;
    }
    memset(w + d->n_words, 0, (n - d->n_words) * sizeof *w);
    d->words = w;
    d->n_words = n;
    return 1;
}

/* A word a cs_parallel child shares with running siblings (its slice's
 * edges, older variables): the bit is set with an atomic OR, and the child
 * counts it only when its OR set it, so the totals the join adds up count
 * each variable once. The plain load first keeps a word every task reads
 * (ONE's) shared in the caches instead of bouncing it between cores.
 * Relaxed order: the bitmaps are read only after the join. Words inside
 * the slice take the plain path: a locked OR per variable would cost a
 * fifth of a parallel PoRep witness's CPU time. */
static void density_set_shared(cs_density_t *d, size_t w, uint64_t m)
{
    if (__atomic_load_n(&d->words[w], __ATOMIC_RELAXED) & m)
        return;
    if (!(__atomic_fetch_or(&d->words[w], m, __ATOMIC_RELAXED) & m))
        d->total++;
}

static inline void density_set(cs_t *cs, cs_density_t *d, uint32_t idx)
{
    size_t w = idx >> 6;
    if (w >= d->n_words && !density_grow(cs, d, w + 1))
        return;
    uint64_t m = 1ull << (idx & 63);
    if (w - d->own_lo >= d->own_n) {
        density_set_shared(d, w, m);
    } else if (!(d->words[w] & m)) {
        d->words[w] |= m;
        d->total++;
    }
}

cuzk_status cs_reserve(cs_t *cs, uint64_t aux, uint64_t inputs)
{
    if (cs->values) {
        if ((aux > cs->aux_cap && !grow_values(cs, &cs->aux_val, &cs->aux_cap, aux)) ||
            (inputs > cs->in_cap && !grow_values(cs, &cs->in_val, &cs->in_cap, inputs)))
            return cs->bound ? CUZK_ERR_ARG : CUZK_ERR_NOMEM;
    }
    size_t aux_words = (size_t)((aux + 63) / 64), in_words = (size_t)((inputs + 63) / 64);
    if ((aux_words > cs->a_aux.n_words && !density_grow(cs, &cs->a_aux, aux_words)) ||
        (aux_words > cs->b_aux.n_words && !density_grow(cs, &cs->b_aux, aux_words)) ||
        (in_words > cs->b_input.n_words && !density_grow(cs, &cs->b_input, in_words)))
        return CUZK_ERR_NOMEM;
    return CUZK_OK;
}

/* ---- enforce ------------------------------------------------------------ */

static void check_row(cs_t *cs, uint64_t row, const cs_lc_t *a, const cs_lc_t *b, const cs_lc_t *c)
{
    fr_t va, vb, vc, ab;
    cs_lc_eval(&va, cs, a);
    cs_lc_eval(&vb, cs, b);
    cs_lc_eval(&vc, cs, c);
    fr_mul(&ab, &va, &vb);
    if (fr_equal(&ab, &vc))
        return;
    cs->check_failed = 1;
    cs->bad_row = row;
    cs_ns_path(cs->bad_path, sizeof cs->bad_path, cs);
    if (cs->err.code == CUZK_OK)
        cuzk_error_set(&cs->err, CUZK_ERR_ARG, "constraint %llu (%s) is not satisfied",
                       (unsigned long long)row, cs->bad_path[0] ? cs->bad_path : "top level");
}

/* cs_lc_merge_ with the short cases inline (most constraints have 1 to 3
 * distinct terms per side). */
static inline void merge_fast(cs_t *cs, cs_lc_t *lc)
{
    const cs_term_t *t = lc->terms;
    if (lc->n < 2)
        return;
    if (lc->n == 2 && t[0].var != t[1].var)
        return;
    if (lc->n == 3 && t[0].var != t[1].var && t[0].var != t[2].var && t[1].var != t[2].var)
        return;
    cs_lc_merge_(cs, lc);
}

void cs_enforce(cs_t *cs, cs_lc_t *a, cs_lc_t *b, cs_lc_t *c)
{
    if (cs->mode == CS_RECORD || cs->hash_update) {
        cs_lc_normalize(cs, a);
        cs_lc_normalize(cs, b);
        cs_lc_normalize(cs, c);
    } else {
        merge_fast(cs, a);
        merge_fast(cs, b);
        merge_fast(cs, c);
    }
    uint64_t row = cs->n_constraints++;
    for (uint32_t i = 0; i < a->n; i++) {
        const cs_term_t *t = &a->terms[i];
        if (cs_var_is_aux(t->var) && !cs_fr_is_zero_(&t->coeff))
            density_set(cs, &cs->a_aux, cs_var_index(t->var));
    }
    for (uint32_t i = 0; i < b->n; i++) {
        const cs_term_t *t = &b->terms[i];
        if (cs_fr_is_zero_(&t->coeff))
            continue;
        density_set(cs, cs_var_is_aux(t->var) ? &cs->b_aux : &cs->b_input, cs_var_index(t->var));
    }
    if (cs->mode == CS_CHECK && !cs->check_failed)
        check_row(cs, row, a, b, c);
    else if (cs->mode == CS_RECORD)
        cs_record_row(cs, a, b, c);
    if (cs->hash_update)
        cs_hash_row(cs, a, b, c);
}

void cs_enforce_known_(cs_t *cs, const cs_var_t *a, int na, const cs_var_t *b, int nb)
{
    CUZK_ASSERT(!cs_terms_needed_(cs));
    cs->n_constraints++;
    for (int i = 0; i < na; i++)
        if (cs_var_is_aux(a[i]))
            density_set(cs, &cs->a_aux, cs_var_index(a[i]));
    for (int i = 0; i < nb; i++)
        density_set(cs, cs_var_is_aux(b[i]) ? &cs->b_aux : &cs->b_input, cs_var_index(b[i]));
}

/* ---- namespaces --------------------------------------------------------- */

void cs_ns_push(cs_t *cs, const char *name, int64_t idx)
{
    if (cs->ns_depth < CS_NS_MAX) {
        cs->ns[cs->ns_depth].name = name;
        cs->ns[cs->ns_depth].idx = idx;
    }
    cs->ns_depth++;
}

void cs_ns_pop(cs_t *cs)
{
    if (cs->ns_depth > 0)
        cs->ns_depth--;
}

void cs_ns_path(char *out, size_t cap, const cs_t *cs)
{
    if (cap == 0)
        return;
    size_t len = 0;
    out[0] = 0;
    unsigned depth = cs->ns_depth < CS_NS_MAX ? cs->ns_depth : CS_NS_MAX;
    for (unsigned i = 0; i < depth && len + 1 < cap; i++) {
        const cs_ns_entry_t *e = &cs->ns[i];
        int k = e->idx >= 0 ? snprintf(out + len, cap - len, "%s%s %lld", i ? "/" : "", e->name,
                                       (long long)e->idx)
                            : snprintf(out + len, cap - len, "%s%s", i ? "/" : "", e->name);
        if (k < 0)
            break;
        len += (size_t)k;
    }
    if (cs->ns_depth > CS_NS_MAX && len + 1 < cap)
        snprintf(out + len, cap - len, "/...");
}

/* ---- check -------------------------------------------------------------- */

void cs_set_fault(cs_t *cs, uint64_t index, const fr_t *value)
{
    cs->fault_set = 1;
    cs->fault_index = index;
    cs->fault_value = *value;
}

int cs_unsatisfied(uint64_t *index, char *path, size_t cap, const cs_t *cs)
{
    if (!cs->check_failed)
        return 0;
    *index = cs->bad_row;
    if (path && cap) {
        snprintf(path, cap, "%s", cs->bad_path);
    }
    return 1;
}
