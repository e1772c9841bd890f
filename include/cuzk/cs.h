/* The constraint system under the bellperson gadgets: variables, linear
 * combinations, alloc / alloc_input / enforce, and four back ends.
 *
 * The R1CS a gadget emits is the sequence of cs_alloc, cs_alloc_input and
 * cs_enforce calls and the linear combinations given to cs_enforce; names
 * never reach it (../shared/testdata/filecoin/circuits/NOTES.md §2). It must
 * equal what bellperson 0.27 / bellpepper-core emit, term for term:
 *  - variables: input 0 is ONE (allocated by cs_new, as bellperson's prover
 *    does before synthesize: BP:src/groth16/prover/native.rs), then inputs
 *    and aux variables numbered in allocation order;
 *  - a linear combination is a map variable -> coefficient: inputs sorted by
 *    index, then aux sorted by index; adding a variable that is already
 *    there adds the coefficients, and a term whose coefficient sums to zero
 *    stays (BPC:src/lc.rs, Indexer). Terms may be added in any order; they
 *    are merged when the combination is enforced, and sorted too where the
 *    order shows (the record back end, the fingerprint; cs_lc_normalize),
 *    which gives the same map because field addition commutes.
 * Gadgets take the short-cuts bellperson takes when values are known (its
 * prover, which the published counts describe) in every mode, so the count
 * and record back ends emit what the prover emits.
 *
 * Back ends (cs_mode):
 *  - CS_COUNT: constraints, aux, inputs (ONE included) and the densities
 *    bellperson's ProvingAssignment tracks (BP:src/groth16/prover/mod.rs,
 *    BP:src/lc.rs eval_with_trackers): a variable counts once in the A-aux,
 *    B-input or B-aux density if it appears with a non-zero merged
 *    coefficient in that matrix in any constraint. No values are computed:
 *    gadgets ask cs_has_values() before doing value work.
 *  - CS_WITNESS: the same, plus the input and aux value vectors.
 *  - CS_CHECK: CS_WITNESS, plus every constraint is evaluated as it is
 *    enforced; the first that fails is kept (index and namespace path) and
 *    synthesis goes on, so the counts stay right. cs_set_fault replaces one
 *    aux value as it is allocated, to test that a wrong witness is caught.
 *  - CS_RECORD: the counts, and the matrices A, B, C (see cs_record_*),
 *    for the precompiled circuit (.ccs, circuit.h).
 *
 * Errors are sticky: a gadget call never fails on its own. The first error
 * (out of memory, a gadget's contract broken, a failed check) is kept, later
 * calls still count but do nothing else that could fail again, and
 * cs_status() reports it. So a circuit is written as straight-line calls,
 * followed by one cs_status() check.
 *
 * Rules: outputs first, then the cs, then inputs; pointers are required
 * unless said otherwise. A cs_t is owned by one thread (cs_parallel lends
 * children of it to helper threads while it waits); linear combinations
 * (cs_lc_t) come from and go back to their cs, and live at most as long as
 * it. Namespace names are not copied: pass string literals (or strings that
 * outlive the cs).
 *
 * Citations: BP = filecoin-project/bellperson@d1fa22c (0.27), BPC =
 * argumentcomputer/bellpepper crates/bellpepper-core@81a69fd, RFP =
 * filecoin-project/rust-fil-proofs@87348a7. */
#ifndef CUZK_CS_H
#define CUZK_CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A variable: input i is i, aux j is CS_VAR_AUX | j. The order of the
 * numbers is bellpepper's order inside a linear combination (inputs first,
 * each kind by index). */
typedef uint32_t cs_var_t;
#define CS_VAR_AUX 0x80000000u
#define CS_VAR_INDEX_MAX 0x7fffffffu
#define CS_ONE ((cs_var_t)0)

static inline int cs_var_is_aux(cs_var_t v)
{
    return (v & CS_VAR_AUX) != 0;
}

static inline uint32_t cs_var_index(cs_var_t v)
{
    return v & ~CS_VAR_AUX;
}

typedef enum cs_mode {
    CS_COUNT = 0,   /* sizes and densities only */
    CS_WITNESS = 1, /* + input and aux values */
    CS_CHECK = 2,   /* + every constraint evaluated */
    CS_RECORD = 3   /* + the matrices */
} cs_mode;

typedef struct cs cs_t;

typedef struct cs_term {
    cs_var_t var;
    fr_t coeff; /* Montgomery form, as fr.h */
} cs_term_t;

/* A linear combination. Read terms[0..n) freely; change it only through
 * the cs_lc_* functions (they grow the buffer from its cs). */
typedef struct cs_lc {
    cs_term_t *terms;
    uint32_t n, cap;
} cs_lc_t;

typedef struct cs_counts {
    uint64_t constraints;     /* before the prover's one-per-input rows */
    uint64_t aux;             /* aux variables */
    uint64_t inputs;          /* public inputs, ONE included */
    uint64_t a_aux_density;   /* aux variables used in A */
    uint64_t b_input_density; /* inputs used in B (ONE included) */
    uint64_t b_aux_density;   /* aux variables used in B */
} cs_counts_t;

/* A new constraint system in `mode`, with ONE allocated as input 0.
 * Returns CUZK_OK; CUZK_ERR_ARG for an unknown mode; CUZK_ERR_NOMEM. */
cuzk_status cs_new(cs_t **out, cs_mode mode, cuzk_error_t *err);
void cs_free(cs_t *cs); /* accepts NULL */

cs_mode cs_get_mode(const cs_t *cs);
/* Whether gadgets must compute values (CS_WITNESS, CS_CHECK). */
int cs_has_values(const cs_t *cs);

/* The first error so far (CUZK_OK when none), with its message. A failed
 * check is CUZK_ERR_ARG ("constraint N (path) is not satisfied"). */
cuzk_status cs_status(const cs_t *cs, cuzk_error_t *err);
/* Records an error (the first one wins); for gadgets whose contract was
 * broken. Returns code. */
cuzk_status cs_fail(cs_t *cs, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void cs_counts(cs_counts_t *out, const cs_t *cs);

/* ---- variables ---------------------------------------------------------- */

/* A new aux / input variable. value is read only when cs_has_values(cs)
 * (it may be NULL otherwise). */
cs_var_t cs_alloc(cs_t *cs, const fr_t *value);
cs_var_t cs_alloc_input(cs_t *cs, const fr_t *value);
/* cs_alloc with the value 0 or 1 (bit != 0), without a field conversion. */
cs_var_t cs_alloc_bit(cs_t *cs, int bit);

/* Sizes the value vectors and density bitmaps for `aux` aux variables and
 * `inputs` inputs up front (known from an earlier count run), so that a
 * large synthesis does not regrow them. Returns CUZK_OK, CUZK_ERR_NOMEM,
 * or CUZK_ERR_ARG past a bound buffer's capacity (also recorded in the
 * cs). */
cuzk_status cs_reserve(cs_t *cs, uint64_t aux, uint64_t inputs);

/* CS_WITNESS / CS_CHECK: the values go straight into caller memory, input
 * i to inputs[i] (ONE, written now, to inputs[0]) and aux j to aux[j], so
 * a witness of gigabytes is never copied (the engine's page-locked buffer,
 * [ONE, inputs, aux], takes inputs at w and aux at w + 1 + public inputs).
 * cs_parallel children write through it too. Call once, right after
 * cs_new. The cs never grows, moves or frees bound memory: an allocation
 * past a capacity fails the cs with CUZK_ERR_ARG naming the count and the
 * capacity, and writes nothing (the counts go on, as after any error).
 * aux may be NULL when n_aux_cap is 0. Returns CUZK_OK, or CUZK_ERR_ARG
 * (no values kept, called late or twice, no room for ONE). */
cuzk_status cs_bind_values(cs_t *cs, fr_t *inputs, size_t n_inputs_cap, fr_t *aux, size_t n_aux_cap,
                           cuzk_error_t *err);

/* After cs_bind_values, before any aux variable: aux j's value goes to
 * the packed bitmaps nz and full (fr_pack.h's, n_bits long, cleared by the
 * caller) at bit bit0 + j, and to aux[j] only when it is neither 0 nor 1:
 * a witness of mostly bits writes a few of its aux values (aux may be
 * sparse memory: untouched pages cost nothing). Reads (cs_value, the
 * linear combinations) see every value as before; cs_aux_values has no
 * whole vector to give then (NULL). cs_parallel children share the
 * binding. CUZK_ERR_ARG when called out of turn or the bitmaps are too
 * short for the aux capacity. */
cuzk_status cs_bind_bits(cs_t *cs, uint64_t *nz, uint64_t *full, uint64_t bit0, uint64_t n_bits,
                         cuzk_error_t *err);

/* The value of v (zero when values are not kept). */
void cs_value(fr_t *out, const cs_t *cs, cs_var_t v);
/* The value vectors, valid until the next allocation: *n = count. NULL when
 * values are not kept. Input 0 is ONE. Complete only while cs_status() is
 * CUZK_OK. */
const fr_t *cs_input_values(const cs_t *cs, size_t *n);
const fr_t *cs_aux_values(const cs_t *cs, size_t *n);

/* ---- linear combinations ------------------------------------------------ */

/* An empty combination from the cs's pool (no allocation once the pool is
 * warm); give it back with cs_lc_put. Never NULL: when memory runs out the
 * cs records CUZK_ERR_NOMEM and hands out a sink that drops its terms. */
cs_lc_t *cs_lc_get(cs_t *cs);
void cs_lc_put(cs_t *cs, cs_lc_t *lc);

/* The cs's three scratch combinations, emptied: for a constraint built and
 * enforced at once (nothing that enforces may run in between). */
void cs_enforce_begin(cs_t *cs, cs_lc_t **a, cs_lc_t **b, cs_lc_t **c);

void cs_lc_clear(cs_lc_t *lc);
/* lc += coeff * v; coeff NULL means one. */
void cs_lc_add(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *coeff);
/* lc -= coeff * v; coeff NULL means one. */
void cs_lc_sub(cs_t *cs, cs_lc_t *lc, cs_var_t v, const fr_t *coeff);
/* lc += coeff * other (other != lc); coeff NULL means one. */
void cs_lc_add_lc(cs_t *cs, cs_lc_t *lc, const cs_lc_t *other, const fr_t *coeff);
/* lc -= coeff * other (other != lc); coeff NULL means one. */
void cs_lc_sub_lc(cs_t *cs, cs_lc_t *lc, const cs_lc_t *other, const fr_t *coeff);
/* dst = src. */
void cs_lc_copy(cs_t *cs, cs_lc_t *dst, const cs_lc_t *src);
/* Every coefficient times s (bellpepper Num::scale). */
void cs_lc_scale(cs_lc_t *lc, const fr_t *s);
/* Sorts the terms into bellpepper's order and merges duplicates by adding
 * their coefficients (zero sums stay). cs_enforce does it; callers need it
 * only to read the final terms. */
void cs_lc_normalize(cs_t *cs, cs_lc_t *lc);
/* The value of lc under the current assignment (zero without values). */
void cs_lc_eval(fr_t *out, const cs_t *cs, const cs_lc_t *lc);

/* 2^i in Montgomery form, 0 <= i < 256 (the coefficients of bit packing). */
const fr_t *cs_pow2(const cs_t *cs, unsigned i);
/* -1 in Montgomery form. */
const fr_t *cs_minus_one(const cs_t *cs);

/* ---- constraints -------------------------------------------------------- */

/* The constraint a * b = c. Normalizes a, b and c in place (they stay the
 * caller's). */
void cs_enforce(cs_t *cs, cs_lc_t *a, cs_lc_t *b, cs_lc_t *c);

/* ---- namespaces (messages only) ---------------------------------------- */

/* Enters namespace `name`, or "name idx" when idx >= 0. Costs two stores:
 * the path is formatted only for a message. */
void cs_ns_push(cs_t *cs, const char *name, int64_t idx);
void cs_ns_pop(cs_t *cs);
/* The current path, "a/b 3/c", truncated to cap - 1 characters. */
void cs_ns_path(char *out, size_t cap, const cs_t *cs);

/* ---- fork / join ----------------------------------------------------------- */

/* Part i of a circuit, synthesized into cs. */
typedef void (*cs_task_fn)(cs_t *cs, size_t i, void *ctx);

/* How many threads cs_parallel may use: 1 (the default) runs every task
 * inline, n > 1 up to n threads in all (nested calls included), <= 0 every
 * CPU (parallel_threads). Only CS_WITNESS runs use more than one. */
void cs_set_threads(cs_t *cs, int threads);

/* Synthesizes fn(cs, 0, ctx), ..., fn(cs, n - 1, ctx) as if one ran after
 * another in cs: task i's variables are numbered right after task i - 1's.
 * Task i must allocate exactly aux[i] aux variables and inputs[i] inputs,
 * nested tasks included (an earlier count run gives them); one that
 * allocates more or fewer fails the cs with CUZK_ERR_INTERNAL naming the
 * task, in every mode.
 *
 * In CS_WITNESS, when cs_set_threads allows more than one thread and no
 * error, fingerprint or fault is pending, the tasks run in parallel, each
 * in a child cs that fn receives: the parent reserves every task's
 * variables first (cs_reserve), the child writes its values straight into
 * the parent's vectors at its offsets and reads earlier variables' values
 * from them, and keeps its own linear-combination pool, namespaces (a copy
 * of the parent's) and error. At the join the children's counts are added
 * to the parent's, their densities too (exact: the same as inline), and the
 * first error in task order becomes the parent's. The witness is
 * bit-identical to the inline one. Otherwise (any other mode, one thread)
 * fn runs on cs itself, in order, so count, record and check runs emit
 * exactly the R1CS of the inline code.
 *
 * Tasks must be independent: task i may use the variables that existed
 * before the call and its own, and read values computed before the call
 * (in ctx); it must not read what another task of the same call computes
 * (variables' values, its slots in ctx), which may not exist yet, and
 * writes only its own slots. It may call cs_parallel again (nested tasks
 * share the thread budget). It must leave the namespace depth as it found
 * it, and not free cs, read cs_*_values, or call cs_reserve beyond its
 * slice, cs_set_fault, cs_hash_begin or the cs_record_* functions; inside
 * a child, cs_status reports the task's own error only.
 *
 * aux and inputs (n entries each) and fn are required (CUZK_ERR_ARG, and
 * nothing runs). Thread safety: the caller owns cs as always; ctx is read
 * by up to `threads` threads at once. */
void cs_parallel(cs_t *cs, size_t n, const uint64_t *aux, const uint64_t *inputs, cs_task_fn fn,
                 void *ctx);

/* ---- check -------------------------------------------------------------- */

/* CS_CHECK only: when aux variable `index` is allocated, store `value`
 * instead of the gadget's value (the gadget still computes with its own). */
void cs_set_fault(cs_t *cs, uint64_t index, const fr_t *value);
/* Returns 1 and the first failing constraint's index and namespace path when
 * a check failed, else 0. path may be NULL. */
int cs_unsatisfied(uint64_t *index, char *path, size_t cap, const cs_t *cs);

/* ---- fingerprint ---------------------------------------------------------- */

/* The byte stream of bellpepper's TestConstraintSystem::hash()
 * (BPC:src/util_cs/test_cs.rs), which Blake2s-256 turns into the published
 * fingerprint of a circuit: u64 BE inputs (ONE included), aux, constraints;
 * then per constraint, for A, B and C: u64 BE the number of terms with a
 * non-zero merged coefficient, then each such term in bellpepper's order as
 * 'I' or 'A', u64 BE index, the coefficient as 32 canonical big-endian
 * bytes. The counts come first, so they must be known: pass those of an
 * earlier count run. The cs feeds the bytes to update(ctx, data, n) as it
 * goes (any mode); the caller owns the hash (Blake2s is not this layer's).
 * Call right after cs_new, before anything is allocated. */
typedef void (*cs_hash_update_fn)(void *ctx, const uint8_t *data, size_t n);
cuzk_status cs_hash_begin(cs_t *cs, const cs_counts_t *expected, cs_hash_update_fn update,
                          void *ctx, cuzk_error_t *err);
/* After synthesis: CUZK_ERR_ARG when the sizes differ from `expected` (the
 * fed stream is then not the fingerprint), else cs_status(). */
cuzk_status cs_hash_end(const cs_t *cs, cuzk_error_t *err);

/* ---- record ------------------------------------------------------------- */

/* CS_RECORD only: the matrices as recorded, in CSR form over the variable
 * numbering of circuit.h (column 0 = ONE, inputs 1..inputs-1, then aux at
 * inputs + j, so it is final only once synthesis is over). Rows are the
 * constraints in order; each row's terms are in bellpepper's order, zero
 * coefficients included. Coefficients are indices into a dictionary of
 * distinct values. The pointers stay valid until the next cs call. */
typedef struct cs_record_matrix {
    const uint64_t *row_ptr; /* constraints + 1 */
    const cs_var_t *var;     /* cs variables (convert with cs_record_column) */
    const uint32_t *coef;    /* dictionary indices */
    uint64_t nnz;
} cs_record_matrix_t;

/* Returns CUZK_ERR_ARG when cs is not in CS_RECORD mode. */
cuzk_status cs_record_matrices(cs_record_matrix_t out[3], const fr_t **dict, uint32_t *n_dict,
                               const cs_t *cs, cuzk_error_t *err);
/* The same, handed over: the caller owns (and frees with free()) the
 * arrays and the dictionary; the cs keeps its counts but no record, so a
 * 32 GiB PoRep record (~9 GB) is converted in place, never copied. Once
 * per cs; CUZK_ERR_ARG when not CS_RECORD or taken already. */
typedef struct cs_record_owned {
    uint64_t *row_ptr; /* constraints + 1 */
    cs_var_t *var;
    uint32_t *coef;
    uint64_t nnz;
} cs_record_owned_t;
cuzk_status cs_record_take(cs_record_owned_t out[3], fr_t **dict, uint32_t *n_dict, cs_t *cs,
                           cuzk_error_t *err);

/* The circuit.h column of a cs variable, given the final input count. */
static inline uint64_t cs_record_column(cs_var_t v, uint64_t inputs)
{
    return cs_var_is_aux(v) ? inputs + cs_var_index(v) : (uint64_t)v;
}

#ifdef __cplusplus
}
#endif
#endif
