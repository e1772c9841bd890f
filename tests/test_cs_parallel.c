/* cs_parallel (include/cuzk/cs.h): tasks synthesized in parallel into
 * their slices of one witness give the witness, counts and densities of
 * the same tasks run one after another; count and record runs through
 * cs_parallel emit the R1CS of plain loops (fingerprint and matrices); a
 * task whose size is not the declared one, or that fails, fails the cs
 * with its number. Then the PoRep circuit, whose challenges and labels are
 * such tasks: a real 2 KiB sealing's partition witness is the same with 1,
 * 2 and 4 threads and satisfies the circuit. The PoSt circuit's sectors
 * are such tasks too: the same witness and R1CS as the plain loop. Values
 * bound to caller memory (cs_bind_values) are the same bytes, and a
 * buffer too small is a clean error, nothing written past it.
 *
 * CUZK_SLOW=1 adds the timing of one 32 GiB partition's witness (blank
 * challenges) with the thread counts in CUZK_SLOW_THREADS (default "1,2"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "cs_fixture.h"
#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"
#include "cuzk/cs_num.h"
#include "cuzk/filecoin_circuits.h"
#include "cuzk/filecoin_graph.h"
#include "cuzk/filecoin_merkle.h"
#include "cuzk/filecoin_porep.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_proofs.h"
#include "cuzk/filecoin_sha.h"
#include "cuzk/fr_pack.h"
#include "cuzk/hash.h"
#include "cuzk/poseidon.h"
#include "test_util.h"

/* A synthesis under test: the toy circuit or the PoRep. */
typedef void (*synth_fn)(cs_t *cs, void *arg);

/* ---- the toy circuit ------------------------------------------------------- */

/* A header (one aux variable hx, inputized), then TOY_OUTER outer tasks;
 * outer task i allocates i + 1 values and their sum, runs 2 + i % 3 inner
 * tasks, then allocates the sum of everything and inputizes it when i is
 * even. Inner task (i, j) allocates 1 + (i + j) % 4 bits and
 * p = hx * (the bits' number + j + 1), inputized when j is odd: it reads an
 * earlier variable's value (hx, through cs_value) and uses earlier
 * variables in A (hx) and B (ONE), so the densities cross task edges. The
 * sizes differ per task, so the offsets do too. Values come from a hash of
 * (seed, i, j), never from a shared generator. */
#define TOY_OUTER 6
#define TOY_INNER_MAX 4

typedef struct toy {
    uint64_t seed;
    int direct;        /* 1: plain loops, no cs_parallel: the reference */
    cs_var_t hx;       /* set by the header */
    int skew_at[2];    /* (outer, inner) whose declared size is off; inner -1: outer's */
    int skew;          /* declared - allocated: +1 (too few) or -1 (too many); 0 off */
    int skew_inputs;   /* skew the inputs instead of the aux */
    int fail_at[2][2]; /* tasks that call cs_fail; outer -1: none */
} toy_t;

typedef struct outer_ctx {
    const toy_t *toy;
    size_t i;
    cs_num_t p[TOY_INNER_MAX];
} outer_ctx_t;

static uint64_t mix(uint64_t seed, uint64_t i, uint64_t j)
{
    uint64_t k[3] = {seed, i, j};
    return cuzk_hash64(k, sizeof k, 0x70e);
}

static size_t inner_n(size_t i)
{
    return 2 + i % 3;
}

static unsigned inner_bits(size_t i, size_t j)
{
    return 1 + (unsigned)((i + j) % 4);
}

static uint64_t inner_aux(size_t i, size_t j)
{
    return inner_bits(i, j) + 1;
}

static uint64_t inner_inputs(size_t j)
{
    return j % 2;
}

static uint64_t outer_aux(size_t i)
{
    uint64_t a = (i + 1) + 1 + 1;
    for (size_t j = 0; j < inner_n(i); j++)
        a += inner_aux(i, j);
    return a;
}

static uint64_t outer_inputs(size_t i)
{
    uint64_t n = i % 2 == 0;
    for (size_t j = 0; j < inner_n(i); j++)
        n += inner_inputs(j);
    return n;
}

/* The declared sizes, with the skew applied where asked. */
static void toy_declare(uint64_t *aux, uint64_t *inputs, const toy_t *t, int outer, int inner,
                        size_t i)
{
    int skewed = t->skew != 0 && t->skew_at[0] == outer && t->skew_at[1] == inner;
    *aux = inner >= 0 ? inner_aux(i, (size_t)inner) : outer_aux(i);
    *inputs = inner >= 0 ? inner_inputs((size_t)inner) : outer_inputs(i);
    if (skewed && t->skew_inputs)
        *inputs = (uint64_t)((int64_t)*inputs + t->skew);
    else if (skewed)
        *aux = (uint64_t)((int64_t)*aux + t->skew);
}

static void toy_maybe_fail(cs_t *cs, const toy_t *t, int outer, int inner)
{
    for (int k = 0; k < 2; k++)
        if (t->fail_at[k][0] == outer && t->fail_at[k][1] == inner)
            cs_fail(cs, CUZK_ERR_ARG, "toy failure %d.%d", outer, inner);
}

static void inner_task(cs_t *cs, size_t j, void *arg)
{
    outer_ctx_t *o = arg;
    const toy_t *t = o->toy;
    cs_ns_push(cs, "inner", (int64_t)j);
    toy_maybe_fail(cs, t, (int)o->i, (int)j);
    fr_t hx;
    cs_value(&hx, cs, t->hx); /* written before the fork, by the parent */
    uint64_t r = mix(t->seed, o->i, j);
    unsigned nb = inner_bits(o->i, j);
    cs_bool_t bits[4];
    for (unsigned k = 0; k < nb; k++)
        bits[k] = cs_bit_alloc(cs, (int)((r >> k) & 1));
    fr_t s, pv;
    fr_from_u64(&s, (r & ((1u << nb) - 1)) + j + 1);
    fr_mul(&pv, &hx, &s);
    cs_num_t p = cs_num_alloc(cs, &pv);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_add(cs, a, t->hx, NULL);
    for (unsigned k = 0; k < nb; k++)
        cs_lc_add_bool(cs, b, &bits[k], cs_pow2(cs, k));
    fr_t one_j;
    fr_from_u64(&one_j, j + 1);
    cs_lc_add(cs, b, CS_ONE, &one_j);
    cs_lc_add(cs, c, p.var, NULL);
    cs_enforce(cs, a, b, c);
    if (j % 2)
        cs_num_inputize(cs, &p);
    o->p[j] = p;
    cs_ns_pop(cs);
}

static void outer_task(cs_t *cs, size_t i, void *arg)
{
    const toy_t *t = arg;
    cs_ns_push(cs, "outer", (int64_t)i);
    toy_maybe_fail(cs, t, (int)i, -1);
    cs_lc_t *sum = cs_lc_get(cs);
    fr_t sv = FR_ZERO;
    for (size_t k = 0; k <= i; k++) {
        fr_t v;
        fr_from_u64(&v, mix(t->seed, i, 100 + k));
        cs_lc_add(cs, sum, cs_alloc(cs, &v), NULL);
        fr_add(&sv, &sv, &v);
    }
    cs_num_t s = cs_num_alloc(cs, &sv);
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_copy(cs, a, sum);
    cs_lc_add(cs, b, CS_ONE, NULL);
    cs_lc_add(cs, c, s.var, NULL);
    cs_enforce(cs, a, b, c);

    outer_ctx_t o;
    memset(&o, 0, sizeof o);
    o.toy = t;
    o.i = i;
    size_t m = inner_n(i);
    uint64_t aux[TOY_INNER_MAX], inputs[TOY_INNER_MAX];
    for (size_t j = 0; j < m; j++)
        toy_declare(&aux[j], &inputs[j], t, (int)i, (int)j, i);
    if (t->direct) {
        for (size_t j = 0; j < m; j++)
            inner_task(cs, j, &o);
    } else {
        cs_parallel(cs, m, aux, inputs, inner_task, &o);
    }

    /* after the join: everything the inner tasks made */
    cs_lc_clear(sum);
    cs_lc_add(cs, sum, s.var, NULL);
    fr_t tv = s.value;
    for (size_t j = 0; j < m; j++) {
        cs_lc_add(cs, sum, o.p[j].var, NULL);
        fr_add(&tv, &tv, &o.p[j].value);
    }
    cs_num_t tot = cs_num_alloc(cs, &tv);
    cs_enforce_begin(cs, &a, &b, &c);
    cs_lc_copy(cs, a, sum);
    cs_lc_add(cs, b, CS_ONE, NULL);
    cs_lc_add(cs, c, tot.var, NULL);
    cs_enforce(cs, a, b, c);
    cs_lc_put(cs, sum);
    if (i % 2 == 0)
        cs_num_inputize(cs, &tot);
    cs_ns_pop(cs);
}

static void toy_synth(cs_t *cs, void *arg)
{
    toy_t *t = arg;
    fr_t hv;
    fr_from_u64(&hv, mix(t->seed, 999, 0) | 1);
    cs_num_t hx = cs_num_alloc(cs, &hv);
    t->hx = hx.var;
    cs_num_inputize(cs, &hx);
    uint64_t aux[TOY_OUTER], inputs[TOY_OUTER];
    for (size_t i = 0; i < TOY_OUTER; i++)
        toy_declare(&aux[i], &inputs[i], t, (int)i, -1, i);
    if (t->direct) {
        for (size_t i = 0; i < TOY_OUTER; i++)
            outer_task(cs, i, t);
    } else {
        cs_parallel(cs, TOY_OUTER, aux, inputs, outer_task, t);
    }
}

static toy_t toy_new(uint64_t seed, int direct)
{
    toy_t t;
    memset(&t, 0, sizeof t);
    t.seed = seed;
    t.direct = direct;
    t.fail_at[0][0] = t.fail_at[1][0] = -1;
    return t;
}

/* ---- running a synthesis ----------------------------------------------------- */

/* What one run leaves: status, message, counts, values (copied out). */
typedef struct run {
    cuzk_status st;
    char msg[CUZK_ERRMSG_MAX];
    cs_counts_t k;
    fr_t *in, *aux;
    size_t n_in, n_aux;
    int unsat;
} run_t;

static run_t run_synth(cs_mode mode, int threads, synth_fn synth, void *arg)
{
    run_t r;
    memset(&r, 0, sizeof r);
    cs_t *cs = csf_new(mode);
    cs_set_threads(cs, threads);
    synth(cs, arg);
    cuzk_error_t err = {0};
    r.st = cs_status(cs, &err);
    if (r.st != CUZK_OK)
        snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    cs_counts(&r.k, cs);
    uint64_t row;
    r.unsat = mode == CS_CHECK && cs_unsatisfied(&row, NULL, 0, cs);
    if (cs_has_values(cs)) {
        const fr_t *in = cs_input_values(cs, &r.n_in);
        const fr_t *aux = cs_aux_values(cs, &r.n_aux);
        r.in = malloc(r.n_in * sizeof *r.in);
        r.aux = malloc(r.n_aux * sizeof *r.aux + 1);
        assert_true(r.in && r.aux);
        memcpy(r.in, in, r.n_in * sizeof *r.in);
        memcpy(r.aux, aux, r.n_aux * sizeof *r.aux);
    }
    cs_free(cs);
    return r;
}

static void run_free(run_t *r)
{
    free(r->in);
    free(r->aux);
}

static void assert_counts_equal(const cs_counts_t *a, const cs_counts_t *b)
{
    assert_int_equal(a->constraints, b->constraints);
    assert_int_equal(a->aux, b->aux);
    assert_int_equal(a->inputs, b->inputs);
    assert_int_equal(a->a_aux_density, b->a_aux_density);
    assert_int_equal(a->b_input_density, b->b_input_density);
    assert_int_equal(a->b_aux_density, b->b_aux_density);
}

/* The same witness: sizes and every byte of the input and aux values. */
static void assert_witness_equal(const run_t *a, const run_t *b)
{
    assert_int_equal(a->n_in, b->n_in);
    assert_int_equal(a->n_aux, b->n_aux);
    assert_true(a->n_aux > 0);
    assert_memory_equal(a->in, b->in, a->n_in * sizeof *a->in);
    assert_memory_equal(a->aux, b->aux, a->n_aux * sizeof *a->aux);
}

static void blake_update(void *ctx, const uint8_t *data, size_t n)
{
    EVP_DigestUpdate(ctx, data, n);
}

/* bellpepper's fingerprint (cs.h cs_hash_begin) of a synthesis in mode. */
static void fingerprint(uint8_t out[32], cs_mode mode, int threads, const cs_counts_t *k,
                        synth_fn synth, void *arg)
{
    cs_t *cs = csf_new(mode);
    cs_set_threads(cs, threads);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    assert_non_null(ctx);
    assert_int_equal(EVP_DigestInit_ex(ctx, EVP_blake2s256(), NULL), 1);
    assert_int_equal(cs_hash_begin(cs, k, blake_update, ctx, NULL), CUZK_OK);
    synth(cs, arg);
    cuzk_error_t err = {0};
    if (cs_hash_end(cs, &err) != CUZK_OK)
        fail_msg("fingerprint: %s", err.msg);
    unsigned n = 0;
    assert_int_equal(EVP_DigestFinal_ex(ctx, out, &n), 1);
    assert_int_equal(n, 32);
    EVP_MD_CTX_free(ctx);
    cs_free(cs);
}

/* ---- the toy: witness, counts, R1CS -------------------------------------- */

/* Parallel witness runs (2, 3, 4 and every CPU's threads) against plain
 * loops and against cs_parallel inline: the same bytes, counts and
 * densities; the witness satisfies the circuit (CS_CHECK, which runs
 * inline) and equals the check run's. */
static void test_toy_witness(void **state)
{
    (void)state;
    int iters = tu_iters(4);
    for (int it = 0; it < iters; it++) {
        toy_t ref = toy_new(tu_rand64(), 1), par = toy_new(ref.seed, 0);
        run_t direct = run_synth(CS_WITNESS, 1, toy_synth, &ref);
        run_t count = run_synth(CS_COUNT, 1, toy_synth, &ref);
        assert_int_equal(direct.st, CUZK_OK);
        assert_counts_equal(&direct.k, &count.k);
        static const int threads[] = {1, 2, 3, 4, 0};
        for (size_t ti = 0; ti < sizeof threads / sizeof threads[0]; ti++) {
            run_t r = run_synth(CS_WITNESS, threads[ti], toy_synth, &par);
            if (r.st != CUZK_OK)
                fail_msg("%d threads: %s", threads[ti], r.msg);
            assert_counts_equal(&r.k, &direct.k);
            assert_witness_equal(&r, &direct);
            run_free(&r);
        }
        run_t check = run_synth(CS_CHECK, 4, toy_synth, &par);
        assert_int_equal(check.st, CUZK_OK);
        assert_false(check.unsat);
        assert_witness_equal(&check, &direct);
        run_free(&check);
        run_free(&direct);
        run_free(&count);
    }
}

/* A wrong value is caught: the toy's constraints do tie its values. */
static void toy_bad_value(cs_t *cs, void *arg)
{
    fr_t seven;
    fr_from_u64(&seven, 7);
    cs_set_fault(cs, 9, &seven);
    toy_synth(cs, arg);
}

static void test_toy_check_catches(void **state)
{
    (void)state;
    toy_t t = toy_new(tu_rand64(), 0);
    run_t r = run_synth(CS_CHECK, 2, toy_bad_value, &t);
    assert_true(r.unsat);
    run_free(&r);
}

static void assert_records_equal(const cs_t *a, const cs_t *b)
{
    cs_record_matrix_t ma[3], mb[3];
    const fr_t *da, *db;
    uint32_t na, nb;
    assert_int_equal(cs_record_matrices(ma, &da, &na, a, NULL), CUZK_OK);
    assert_int_equal(cs_record_matrices(mb, &db, &nb, b, NULL), CUZK_OK);
    cs_counts_t k = csf_counts(a);
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na * sizeof *da);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(ma[m].nnz, mb[m].nnz);
        assert_memory_equal(ma[m].row_ptr, mb[m].row_ptr, (k.constraints + 1) * sizeof(uint64_t));
        assert_memory_equal(ma[m].var, mb[m].var, ma[m].nnz * sizeof(cs_var_t));
        assert_memory_equal(ma[m].coef, mb[m].coef, ma[m].nnz * sizeof(uint32_t));
    }
}

/* Count and record runs through cs_parallel (threads set, so only the
 * mode keeps them inline) emit the plain loops' R1CS: the same fingerprint
 * in both modes, and the same recorded matrices. */
static void test_toy_r1cs(void **state)
{
    (void)state;
    toy_t ref = toy_new(tu_rand64(), 1), par = toy_new(ref.seed, 0);
    run_t k = run_synth(CS_COUNT, 1, toy_synth, &ref);
    uint8_t want[32], got[32];
    fingerprint(want, CS_COUNT, 1, &k.k, toy_synth, &ref);
    static const cs_mode modes[] = {CS_COUNT, CS_RECORD, CS_WITNESS};
    for (size_t m = 0; m < 3; m++) {
        fingerprint(got, modes[m], 4, &k.k, toy_synth, &par);
        assert_memory_equal(got, want, 32);
    }
    cs_t *a = csf_new(CS_RECORD), *b = csf_new(CS_RECORD);
    cs_set_threads(b, 4);
    toy_synth(a, &ref);
    toy_synth(b, &par);
    csf_assert_ok(a);
    csf_assert_ok(b);
    cs_counts_t ka = csf_counts(a), kb = csf_counts(b);
    assert_counts_equal(&ka, &k.k);
    assert_counts_equal(&kb, &k.k);
    assert_records_equal(a, b);
    cs_free(a);
    cs_free(b);
    run_free(&k);
}

/* ---- the toy: sizes and errors ------------------------------------------- */

typedef struct mode_threads {
    cs_mode mode;
    int threads;
} mode_threads_t;

static const mode_threads_t every_path[] = {
    {CS_COUNT, 1},   {CS_COUNT, 4},   {CS_RECORD, 2},  {CS_CHECK, 2},
    {CS_WITNESS, 1}, {CS_WITNESS, 2}, {CS_WITNESS, 4},
};
#define N_PATHS (sizeof every_path / sizeof every_path[0])

/* The first aux variable of outer task i in the toy. */
static uint64_t toy_outer_aux0(size_t i)
{
    uint64_t a = 1; /* hx */
    for (size_t k = 0; k < i; k++)
        a += outer_aux(k);
    return a;
}

/* A task that allocates one aux variable or input more or fewer than it
 * declared fails the cs with CUZK_ERR_INTERNAL naming it (an inner task
 * by its outer task's namespace too), in every mode and on every path;
 * one that allocates more in a parallel run never writes into the next
 * task's slice. */
static void test_toy_wrong_size(void **state)
{
    (void)state;
    uint64_t seed = tu_rand64();
    toy_t good = toy_new(seed, 1);
    run_t ref = run_synth(CS_WITNESS, 1, toy_synth, &good);
    static const int at[2][2] = {{2, -1}, {3, 1}};
    for (int w = 0; w < 2; w++)
        for (int skew = -1; skew <= 1; skew += 2)
            for (int inputs = 0; inputs < 2; inputs++)
                for (size_t p = 0; p < N_PATHS; p++) {
                    toy_t t = toy_new(seed, 0);
                    t.skew_at[0] = at[w][0];
                    t.skew_at[1] = at[w][1];
                    t.skew = skew;
                    t.skew_inputs = inputs;
                    run_t r = run_synth(every_path[p].mode, every_path[p].threads, toy_synth, &t);
                    char want[32];
                    snprintf(want, sizeof want, "task %d", w ? at[w][1] : at[w][0]);
                    if (r.st != CUZK_ERR_INTERNAL || !strstr(r.msg, want) ||
                        (w && !strstr(r.msg, "outer 3")))
                        fail_msg("skew %+d %s at %d.%d, mode %d, %d threads: %d '%s'", skew,
                                 inputs ? "inputs" : "aux", at[w][0], at[w][1],
                                 (int)every_path[p].mode, every_path[p].threads, (int)r.st, r.msg);
                    if (!w && skew < 0 && !inputs && every_path[p].mode == CS_WITNESS &&
                        every_path[p].threads > 1) {
                        /* task 3 starts one early; task 2's extra value is not there */
                        uint64_t s3 = toy_outer_aux0(3);
                        assert_memory_equal(&r.aux[s3 - 1], &ref.aux[s3], sizeof(fr_t));
                    }
                    run_free(&r);
                }
    run_free(&ref);
}

/* cs_fail inside tasks: the first failing task in task order wins, however
 * the threads finish, with its namespace path; the counts still count. */
static void test_toy_task_error(void **state)
{
    (void)state;
    uint64_t seed = tu_rand64();
    toy_t good = toy_new(seed, 1);
    run_t ref = run_synth(CS_COUNT, 1, toy_synth, &good);
    static const int fails[2][2][2] = {{{3, -1}, {1, 0}}, {{4, -1}, {0, 1}}};
    static const char *const want[2] = {"toy failure 1.0 (at outer 1/inner 0)",
                                        "toy failure 0.1 (at outer 0/inner 1)"};
    for (int f = 0; f < 2; f++)
        for (size_t p = 0; p < N_PATHS; p++) {
            toy_t t = toy_new(seed, 0);
            memcpy(t.fail_at, fails[f], sizeof t.fail_at);
            run_t r = run_synth(every_path[p].mode, every_path[p].threads, toy_synth, &t);
            if (r.st != CUZK_ERR_ARG || strcmp(r.msg, want[f]) != 0)
                fail_msg("mode %d, %d threads: %d '%s'", (int)every_path[p].mode,
                         every_path[p].threads, (int)r.st, r.msg);
            assert_int_equal(r.k.constraints, ref.k.constraints);
            assert_int_equal(r.k.aux, ref.k.aux);
            assert_int_equal(r.k.inputs, ref.k.inputs);
            run_free(&r);
        }
    run_free(&ref);
}

static void noop_task(cs_t *cs, size_t i, void *ctx)
{
    (void)cs;
    (void)i;
    (void)ctx;
}

/* Required arguments; no tasks; a cs that failed before the call runs
 * the tasks inline, keeps its error and still counts. */
static void test_args_and_earlier_error(void **state)
{
    (void)state;
    uint64_t one = 0;
    cuzk_error_t err = {0};
    cs_t *cs = csf_new(CS_WITNESS);
    cs_parallel(cs, 0, NULL, NULL, noop_task, NULL);
    csf_assert_ok(cs);
    cs_parallel(cs, 1, NULL, &one, noop_task, NULL);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "aux"));
    cs_free(cs);
    cs = csf_new(CS_WITNESS);
    cs_parallel(cs, 1, &one, &one, NULL, NULL);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "fn"));
    cs_free(cs);

    toy_t ref = toy_new(tu_rand64(), 1), par = toy_new(ref.seed, 0);
    run_t k = run_synth(CS_WITNESS, 1, toy_synth, &ref);
    cs = csf_new(CS_WITNESS);
    cs_set_threads(cs, 2);
    cs_fail(cs, CUZK_ERR_UNSUPPORTED, "earlier");
    toy_synth(cs, &par);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_UNSUPPORTED);
    assert_string_equal(err.msg, "earlier");
    cs_counts_t kc = csf_counts(cs);
    assert_counts_equal(&kc, &k.k);
    cs_free(cs);
    run_free(&k);
}

/* ---- values bound to caller memory (cs_bind_values) ------------------------- */

/* run_synth with the values bound to buffers of exactly in_cap and aux_cap
 * values (malloc'd alone, so ASan sees a write past them), plus a canary
 * value after each that a plain build checks. */
static run_t run_bound(cs_mode mode, int threads, size_t in_cap, size_t aux_cap, synth_fn synth,
                       void *arg)
{
    run_t r;
    memset(&r, 0, sizeof r);
    fr_t canary;
    fr_from_u64(&canary, 0xc0ffee);
    fr_t *in = malloc((in_cap + 1) * sizeof *in), *aux = malloc((aux_cap + 1) * sizeof *aux);
    assert_true(in && aux);
    in[in_cap] = canary;
    aux[aux_cap] = canary;
    cs_t *cs = csf_new(mode);
    cs_set_threads(cs, threads);
    cuzk_error_t err = {0};
    if (cs_bind_values(cs, in, in_cap, aux, aux_cap, &err) != CUZK_OK)
        fail_msg("bind: %s", err.msg);
    synth(cs, arg);
    r.st = cs_status(cs, &err);
    if (r.st != CUZK_OK)
        snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    cs_counts(&r.k, cs);
    assert_ptr_equal(cs_input_values(cs, &r.n_in), in);
    assert_ptr_equal(cs_aux_values(cs, &r.n_aux), aux);
    cs_free(cs); /* the buffers stay ours: read below, freed by run_free */
    assert_memory_equal(&in[in_cap], &canary, sizeof canary);
    assert_memory_equal(&aux[aux_cap], &canary, sizeof canary);
    r.in = in;
    r.aux = aux;
    return r;
}

/* Bound values, inline and in parallel (the children write through the
 * binding), are the cs-owned run's bit for bit; one value short of either
 * buffer is a clean CUZK_ERR_ARG naming the count and the capacity, and
 * nothing lands past the buffer. */
static void test_bound_values(void **state)
{
    (void)state;
    toy_t ref = toy_new(tu_rand64(), 1), par = toy_new(ref.seed, 0);
    run_t own = run_synth(CS_WITNESS, 1, toy_synth, &ref);
    assert_int_equal(own.st, CUZK_OK);
    const size_t ni = own.n_in, na = own.n_aux;
    static const mode_threads_t paths[] = {
        {CS_WITNESS, 1}, {CS_WITNESS, 2}, {CS_WITNESS, 4}, {CS_CHECK, 1}, {CS_CHECK, 4}};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        run_t r = run_bound(paths[p].mode, paths[p].threads, ni, na, toy_synth, &par);
        if (r.st != CUZK_OK)
            fail_msg("mode %d, %d threads: %s", (int)paths[p].mode, paths[p].threads, r.msg);
        assert_counts_equal(&r.k, &own.k);
        assert_witness_equal(&r, &own);
        run_free(&r);
        /* room to spare: the same values, the rest untouched */
        r = run_bound(paths[p].mode, paths[p].threads, ni + 3, na + 5, toy_synth, &par);
        assert_int_equal(r.st, CUZK_OK);
        assert_int_equal(r.n_in, ni);
        assert_int_equal(r.n_aux, na);
        assert_witness_equal(&r, &own);
        run_free(&r);
        for (int which = 0; which < 2; which++) {
            r = run_bound(paths[p].mode, paths[p].threads, ni - (size_t)(which == 0),
                          na - (size_t)(which == 1), toy_synth, &par);
            char want[96];
            snprintf(want, sizeof want, "cs: %zu %s do not fit the bound buffer of %zu",
                     which ? na : ni, which ? "aux variables" : "inputs (ONE included)",
                     which ? na - 1 : ni - 1);
            if (r.st != CUZK_ERR_ARG || !strstr(r.msg, want))
                fail_msg("short %s, mode %d, %d threads: %d '%s'", which ? "aux" : "inputs",
                         (int)paths[p].mode, paths[p].threads, (int)r.st, r.msg);
            /* the counts go on past the buffer */
            assert_int_equal(r.k.inputs, own.k.inputs);
            assert_int_equal(r.k.aux, own.k.aux);
            run_free(&r);
        }
    }
    run_free(&own);
}

/* cs_bind_values only on a fresh witness or check cs, once, with room
 * for ONE; ONE is written to inputs[0]. */
static void test_bind_args(void **state)
{
    (void)state;
    fr_t in[4], aux[4];
    cuzk_error_t err = {0};
    cs_t *cs = csf_new(CS_COUNT);
    assert_int_equal(cs_bind_values(cs, in, 4, aux, 4, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "keeps no values"));
    cs_free(cs);
    cs = csf_new(CS_WITNESS);
    assert_int_equal(cs_bind_values(cs, NULL, 4, aux, 4, &err), CUZK_ERR_ARG);
    assert_int_equal(cs_bind_values(cs, in, 0, aux, 4, &err), CUZK_ERR_ARG);
    assert_int_equal(cs_bind_values(cs, in, 4, NULL, 4, &err), CUZK_ERR_ARG);
    memset(in, 0, sizeof in);
    assert_int_equal(cs_bind_values(cs, in, 1, NULL, 0, &err), CUZK_OK);
    assert_memory_equal(&in[0], &FR_ONE, sizeof(fr_t));
    assert_int_equal(cs_bind_values(cs, in, 4, aux, 4, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "only once"));
    /* no aux room at all: the first aux variable fails the cs */
    cs_alloc(cs, &FR_ONE);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "1 aux variables do not fit the bound buffer of 0"));
    assert_int_equal(cs_reserve(cs, 2, 1), CUZK_ERR_ARG);
    cs_free(cs);
    cs = csf_new(CS_WITNESS);
    cs_alloc(cs, &FR_ONE);
    assert_int_equal(cs_bind_values(cs, in, 4, aux, 4, &err), CUZK_ERR_ARG);
    cs_free(cs);
    /* cs_reserve past the capacity: refused, recorded */
    cs = csf_new(CS_CHECK);
    assert_int_equal(cs_bind_values(cs, in, 4, aux, 4, &err), CUZK_OK);
    assert_int_equal(cs_reserve(cs, 4, 4), CUZK_OK);
    assert_int_equal(cs_reserve(cs, 4, 5), CUZK_ERR_ARG);
    assert_int_equal(cs_status(cs, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "5 inputs (ONE included) do not fit the bound buffer of 4"));
    cs_free(cs);
}

/* ---- values classified into packed bitmaps (cs_bind_bits) ------------------ */

/* The toy's witness made packed (inline and in parallel, witness and
 * check modes) is the pack of the cs-owned run's [inputs, aux]: only its
 * values other than 0 and 1 reach the aux buffer; reads through the cs
 * see every value (the toy's products and sums read earlier values). */
static void test_bound_bits(void **state)
{
    (void)state;
    toy_t ref = toy_new(tu_rand64(), 1), par = toy_new(ref.seed, 0);
    run_t own = run_synth(CS_WITNESS, 1, toy_synth, &ref);
    assert_int_equal(own.st, CUZK_OK);
    const size_t ni = own.n_in, na = own.n_aux, n = ni + na;
    fr_t *whole = malloc(n * sizeof *whole);
    assert_non_null(whole);
    memcpy(whole, own.in, ni * sizeof *whole);
    memcpy(whole + ni, own.aux, na * sizeof *whole);
    fr_pack_t want;
    cuzk_error_t err = {0};
    assert_int_equal(fr_pack_make(&want, whole, n, 1, &err), CUZK_OK);
    assert_true(want.n_full < n); /* the toy has zeros and ones too */
    static const mode_threads_t paths[] = {
        {CS_WITNESS, 1}, {CS_WITNESS, 2}, {CS_WITNESS, 4}, {CS_CHECK, 1}, {CS_CHECK, 4}};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        fr_t *in = malloc(ni * sizeof *in), *aux = calloc(na, sizeof *aux);
        uint64_t *block = calloc(1, fr_pack_vals_offset(n));
        assert_true(in && aux && block);
        cs_t *cs = csf_new(paths[p].mode);
        cs_set_threads(cs, paths[p].threads);
        assert_int_equal(cs_bind_values(cs, in, ni, aux, na, &err), CUZK_OK);
        uint64_t *nz = block, *full = block + fr_pack_words(n);
        assert_int_equal(cs_bind_bits(cs, nz, full, ni, n, &err), CUZK_OK);
        toy_synth(cs, &par);
        if (cs_status(cs, &err) != CUZK_OK)
            fail_msg("mode %d, %d threads: %s", (int)paths[p].mode, paths[p].threads, err.msg);
        size_t got_n = 0;
        assert_null(cs_aux_values(cs, &got_n)); /* no whole vector to give */
        cs_free(cs);
        for (size_t i = 0; i < ni; i++) /* the inputs stay whole: classified here */
            if (!fr_is_zero(&in[i])) {
                nz[i / 64] |= 1ull << (i % 64);
                if (!fr_is_one(&in[i]))
                    full[i / 64] |= 1ull << (i % 64);
            }
        for (size_t j = 0; j < na; j++) /* 0 and 1 never reached aux */
            if (fr_is_zero(&own.aux[j]) || fr_is_one(&own.aux[j]))
                assert_true(fr_is_zero(&aux[j]));
        fr_pack_t got;
        assert_int_equal(fr_pack_finish(&got, block, n, in, ni, aux, 2, &err), CUZK_OK);
        assert_int_equal(got.bytes, want.bytes);
        assert_memory_equal(got.block, want.block, want.bytes);
        fr_pack_free(&got);
        free(in);
        free(aux);
    }
    /* out of turn or too short: refused */
    fr_t in[4], aux[4];
    uint64_t bits[2][1] = {{0}, {0}};
    cs_t *cs = csf_new(CS_WITNESS);
    assert_int_equal(cs_bind_bits(cs, bits[0], bits[1], 1, 64, &err), CUZK_ERR_ARG);
    assert_int_equal(cs_bind_values(cs, in, 4, aux, 4, &err), CUZK_OK);
    assert_int_equal(cs_bind_bits(cs, bits[0], bits[1], 4, 7, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "cannot hold"));
    assert_int_equal(cs_bind_bits(cs, bits[0], bits[1], 4, 8, &err), CUZK_OK);
    assert_int_equal(cs_bind_bits(cs, bits[0], bits[1], 4, 8, &err), CUZK_ERR_ARG);
    cs_free(cs);
    fr_pack_free(&want);
    free(whole);
    run_free(&own);
}

/* ---- the PoRep partition ----------------------------------------------------- */

/* A real sealing, as tests/test_filecoin_porep.c's: every layer's labels,
 * the data, the three trees. */
typedef struct sealed {
    uint64_t nodes;
    unsigned layers;
    fr_t replica_id;
    fr_t *data;   /* nodes */
    fr_t *labels; /* labels[(l - 1) * nodes + i] */
    fil_merkle_tree_t *d, *c, *r;
    fil_graph_t g;
} sealed_t;

/* SDR (stacked/vanilla/create_label.rs): label(l, i) = create_label over
 * the 6 DRG parents in layer l and, from layer 2, the 8 expander parents
 * in layer l - 1, expanded to 37 as the circuit expands them. */
static void seal_labels(sealed_t *S, const uint8_t rid[32])
{
    const uint64_t nodes = S->nodes;
    uint8_t(*lb)[32] = malloc(S->layers * nodes * 32);
    assert_non_null(lb);
    for (unsigned l = 1; l <= S->layers; l++)
        for (uint64_t i = 0; i < nodes; i++) {
            uint8_t out[32];
            const uint8_t *expanded[FIL_LABEL_PARENTS];
            if (i > 0) {
                uint32_t p[FIL_DEGREE];
                assert_int_equal(fil_graph_parents(p, &S->g, i, NULL), CUZK_OK);
                const uint8_t *par[FIL_DEGREE];
                unsigned n = FIL_DRG_DEGREE;
                for (unsigned k = 0; k < FIL_DRG_DEGREE; k++)
                    par[k] = lb[(l - 1) * nodes + p[k]];
                if (l > 1) {
                    for (unsigned k = 0; k < FIL_EXP_DEGREE; k++)
                        par[FIL_DRG_DEGREE + k] = lb[(l - 2) * nodes + p[FIL_DRG_DEGREE + k]];
                    n = FIL_DEGREE;
                }
                for (unsigned k = 0; k < FIL_LABEL_PARENTS; k++)
                    expanded[k] = par[k % n];
            }
            assert_int_equal(fil_create_label(out, rid, l, i, i ? expanded : NULL, NULL), CUZK_OK);
            memcpy(lb[(l - 1) * nodes + i], out, 32);
            assert_int_equal(fr_from_le(&S->labels[(l - 1) * nodes + i], out), CUZK_OK);
        }
    free(lb);
}

static void seal(sealed_t *S, const fil_porep_shape_t *shape, const uint8_t porep_id[32])
{
    memset(S, 0, sizeof *S);
    S->nodes = shape->nodes;
    S->layers = shape->layers;
    assert_int_equal(fil_graph_init(&S->g, S->nodes, porep_id, FIL_API_1_1, NULL), CUZK_OK);
    tu_rand_fr(&S->replica_id);
    uint8_t rid[32];
    fr_to_le(rid, &S->replica_id);
    S->data = malloc(S->nodes * sizeof *S->data);
    S->labels = malloc(S->layers * S->nodes * sizeof *S->labels);
    assert_true(S->data && S->labels);
    for (uint64_t i = 0; i < S->nodes; i++)
        tu_rand_fr(&S->data[i]);
    seal_labels(S, rid);
    const poseidon_constants_t *pc = NULL;
    assert_int_equal(poseidon_constants_get(&pc, S->layers, NULL), CUZK_OK);
    fr_t *col = malloc(S->nodes * sizeof *col), *rep = malloc(S->nodes * sizeof *rep);
    fr_t row[FIL_POREP_MAX_LAYERS];
    assert_true(col && rep);
    for (uint64_t i = 0; i < S->nodes; i++) {
        for (unsigned l = 0; l < S->layers; l++)
            row[l] = S->labels[l * S->nodes + i];
        assert_int_equal(poseidon_hash(&col[i], pc, row, S->layers, POSEIDON_OPTIMIZED, NULL),
                         CUZK_OK);
        fr_add(&rep[i], &S->data[i], &S->labels[(S->layers - 1) * S->nodes + i]);
    }
    fil_tree_shape_t dshape = {FIL_HASHER_SHA256, 2, 0, 0};
    assert_int_equal(fil_merkle_tree_build(&S->d, &dshape, S->data, S->nodes, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_build(&S->c, &shape->tree, col, S->nodes, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_build(&S->r, &shape->tree, rep, S->nodes, NULL), CUZK_OK);
    free(col);
    free(rep);
}

static void sealed_free(sealed_t *S)
{
    free(S->data);
    free(S->labels);
    fil_merkle_tree_free(S->d);
    fil_merkle_tree_free(S->c);
    fil_merkle_tree_free(S->r);
}

/* The vanilla proof of challenge node c (params.rs Proof's fields). */
static void prove_challenge(fil_porep_challenge_t *ch, const sealed_t *S, uint64_t c)
{
    memset(ch, 0, sizeof *ch);
    ch->challenge = c;
    ch->data_leaf = S->data[c];
    assert_int_equal(fil_merkle_tree_path(&ch->comm_d_path, S->d, c, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_path(&ch->comm_r_last_path, S->r, c, NULL), CUZK_OK);
    assert_int_equal(fil_merkle_tree_path(&ch->comm_c_path, S->c, c, NULL), CUZK_OK);
    uint32_t p[FIL_DEGREE];
    assert_int_equal(fil_graph_parents(p, &S->g, c, NULL), CUZK_OK);
    for (unsigned k = 0; k < FIL_DEGREE; k++) {
        int drg = k < FIL_DRG_DEGREE;
        fr_t *colv = drg ? ch->drg_cols[k] : ch->exp_cols[k - FIL_DRG_DEGREE];
        fil_merkle_path_t *path = drg ? &ch->drg_paths[k] : &ch->exp_paths[k - FIL_DRG_DEGREE];
        for (unsigned l = 0; l < S->layers; l++)
            colv[l] = S->labels[l * S->nodes + p[k]];
        assert_int_equal(fil_merkle_tree_path(path, S->c, p[k], NULL), CUZK_OK);
    }
}

typedef struct porep_arg {
    fil_porep_shape_t shape;
    fil_porep_public_t pub;
    fil_porep_challenge_t *ch;
} porep_arg_t;

static void porep_synth(cs_t *cs, void *arg)
{
    const porep_arg_t *a = arg;
    fil_cs_porep(cs, &a->shape, &a->pub, a->ch);
}

/* One partition of a real sealing of `shape`, random challenges. */
static void porep_real(porep_arg_t *a, sealed_t *S, const fil_porep_shape_t *shape,
                       const uint8_t porep_id[32])
{
    a->shape = *shape;
    seal(S, shape, porep_id);
    a->pub.replica_id = S->replica_id;
    fil_merkle_tree_root(&a->pub.comm_d, S->d);
    fil_merkle_tree_root(&a->pub.comm_c, S->c);
    fil_merkle_tree_root(&a->pub.comm_r_last, S->r);
    const poseidon_constants_t *c2 = NULL;
    assert_int_equal(poseidon_constants_get(&c2, 2, NULL), CUZK_OK);
    fr_t cr[2] = {a->pub.comm_c, a->pub.comm_r_last};
    assert_int_equal(poseidon_hash(&a->pub.comm_r, c2, cr, 2, POSEIDON_OPTIMIZED, NULL), CUZK_OK);
    a->ch = calloc(shape->challenges, sizeof *a->ch);
    assert_non_null(a->ch);
    for (unsigned i = 0; i < shape->challenges; i++)
        prove_challenge(&a->ch[i], S, 1 + tu_rand64() % (shape->nodes - 1));
}

/* The partition's witness with 1, 2 and 4 threads: the same bytes, counts
 * and densities (those of a count run too); it satisfies the circuit, and
 * the check run computes the same values. */
static void porep_witness_same(const porep_arg_t *a)
{
    run_t count = run_synth(CS_COUNT, 1, porep_synth, (void *)a);
    run_t one = run_synth(CS_WITNESS, 1, porep_synth, (void *)a);
    if (one.st != CUZK_OK)
        fail_msg("porep, 1 thread: %s", one.msg);
    assert_counts_equal(&one.k, &count.k);
    static const int threads[] = {2, 4};
    for (size_t t = 0; t < 2; t++) {
        run_t r = run_synth(CS_WITNESS, threads[t], porep_synth, (void *)a);
        if (r.st != CUZK_OK)
            fail_msg("porep, %d threads: %s", threads[t], r.msg);
        assert_counts_equal(&r.k, &one.k);
        assert_witness_equal(&r, &one);
        run_free(&r);
    }
    run_t check = run_synth(CS_CHECK, 4, porep_synth, (void *)a);
    assert_int_equal(check.st, CUZK_OK);
    assert_false(check.unsat);
    assert_witness_equal(&check, &one);
    printf("test_cs_parallel: porep %llu nodes, %u layers, %u challenges: %llu constraints, "
           "the same witness with 1, 2, 4 threads\n",
           (unsigned long long)a->shape.nodes, a->shape.layers, a->shape.challenges,
           (unsigned long long)one.k.constraints);
    run_free(&check);
    run_free(&one);
    run_free(&count);
}

/* The 2 KiB seal proof's partition (StackedDrg2KiBV1_1: its nodes, tree,
 * layers and challenges), a real sealing. Then a challenge whose comm_d
 * path is one level short, which the sequential code would synthesize
 * into another circuit without a word: now a clean error naming it. */
static void test_porep_2k(void **state)
{
    (void)state;
    fil_seal_proof sp;
    assert_int_equal(fil_seal_from_size(&sp, 2048, FIL_API_1_1, NULL), CUZK_OK);
    const fil_seal_info_t *info = fil_seal_info(sp);
    assert_non_null(info);
    fil_porep_shape_t shape = {info->nodes, {0}, info->layers, info->challenges_per_partition};
    assert_int_equal(fil_sector_tree(&shape.tree, info->sector_size, NULL), CUZK_OK);
    assert_true(shape.challenges >= 2);
    uint8_t porep_id[32];
    assert_int_equal(fil_porep_id(porep_id, sp, NULL), CUZK_OK);
    porep_arg_t a;
    sealed_t S;
    porep_real(&a, &S, &shape, porep_id);
    porep_witness_same(&a);

    a.ch[1].comm_d_path.n_levels--;
    for (size_t p = 0; p < N_PATHS; p++) {
        run_t r = run_synth(every_path[p].mode, every_path[p].threads, porep_synth, &a);
        /* a check run sees the wrong root first, inside the task */
        int check = every_path[p].mode == CS_CHECK;
        if (r.st != (check ? CUZK_ERR_ARG : CUZK_ERR_INTERNAL) ||
            !strstr(r.msg, check ? "(challenge 1/comm_d_inclusion" : "task 1 "))
            fail_msg("short path, mode %d, %d threads: %d '%s'", (int)every_path[p].mode,
                     every_path[p].threads, (int)r.st, r.msg);
        run_free(&r);
    }
    free(a.ch);
    sealed_free(&S);
}

/* 11 layers (the production label count: layer 1 smaller than the others)
 * on a small tree, so the labels are the most tasks. */
static void test_porep_11_layers(void **state)
{
    (void)state;
    fil_porep_shape_t shape = {64, {FIL_HASHER_POSEIDON, 8, 0, 0}, 11, 2};
    uint8_t porep_id[32];
    memset(porep_id, 44, sizeof porep_id);
    porep_arg_t a;
    sealed_t S;
    porep_real(&a, &S, &shape, porep_id);
    porep_witness_same(&a);
    free(a.ch);
    sealed_free(&S);
}

/* ---- the PoSt partition ---------------------------------------------------------- */

/* n_sectors distinct sectors padded to sector_count; direct: the plain
 * loop of fil_cs_post_sector calls (the reference), else fil_cs_post. */
typedef struct post_arg {
    fil_post_shape_t shape;
    fil_post_sector_t *sectors;
    unsigned n_sectors, sector_count;
    int direct;
} post_arg_t;

static void post_synth(cs_t *cs, void *arg)
{
    const post_arg_t *a = arg;
    if (!a->direct) {
        fil_cs_post(cs, &a->shape, a->sectors, a->n_sectors, a->sector_count);
        return;
    }
    for (unsigned i = 0; i < a->sector_count; i++)
        fil_cs_post_sector(cs, &a->shape, &a->sectors[i < a->n_sectors ? i : a->n_sectors - 1]);
}

/* A sector of the shape with random values and path positions (a
 * witness need not satisfy the circuit to be compared). */
static void post_sector_random(fil_post_sector_t *s, const fil_post_shape_t *shape)
{
    assert_int_equal(fil_post_sector_blank(s, shape, NULL), CUZK_OK);
    tu_rand_fr(&s->comm_r);
    tu_rand_fr(&s->comm_c);
    tu_rand_fr(&s->comm_r_last);
    for (unsigned c = 0; c < shape->challenges; c++) {
        fil_merkle_path_t *p = &s->paths[c];
        tu_rand_fr(&s->leafs[c]);
        for (unsigned l = 0; l < p->n_levels; l++) {
            p->level[l].index = (unsigned)(tu_rand64() % p->level[l].arity);
            for (unsigned k = 0; k + 1 < p->level[l].arity; k++)
                tu_rand_fr(&p->level[l].siblings[k]);
        }
    }
}

/* WindowPoSt's shape at 2 KiB and at 16 KiB (8-8-0: sub-tree levels), 3
 * sectors padded to 5: fil_cs_post with 1, 2 and 4 threads gives the
 * plain loop's witness, counts and densities; its count and record runs
 * the loop's fingerprint and matrices. Then a sector whose path is one
 * level short fails the cs naming its task, in every mode. */
static void test_post_sectors(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {2048, 16384};
    for (size_t z = 0; z < 2; z++) {
        post_arg_t ref, par;
        memset(&ref, 0, sizeof ref);
        ref.shape.nodes = sizes[z] / 32;
        ref.shape.challenges = 10;
        assert_int_equal(fil_sector_tree(&ref.shape.tree, sizes[z], NULL), CUZK_OK);
        ref.n_sectors = 3;
        ref.sector_count = 5;
        ref.direct = 1;
        ref.sectors = calloc(ref.n_sectors, sizeof *ref.sectors);
        assert_non_null(ref.sectors);
        for (unsigned i = 0; i < ref.n_sectors; i++)
            post_sector_random(&ref.sectors[i], &ref.shape);
        par = ref;
        par.direct = 0;
        run_t own = run_synth(CS_WITNESS, 1, post_synth, &ref);
        run_t count = run_synth(CS_COUNT, 1, post_synth, &ref);
        assert_int_equal(own.st, CUZK_OK);
        assert_counts_equal(&own.k, &count.k);
        static const int threads[] = {1, 2, 4};
        for (size_t t = 0; t < 3; t++) {
            run_t r = run_synth(CS_WITNESS, threads[t], post_synth, &par);
            if (r.st != CUZK_OK)
                fail_msg("post, %d threads: %s", threads[t], r.msg);
            assert_counts_equal(&r.k, &own.k);
            assert_witness_equal(&r, &own);
            run_free(&r);
        }
        uint8_t want[32], got[32];
        fingerprint(want, CS_COUNT, 1, &count.k, post_synth, &ref);
        fingerprint(got, CS_COUNT, 4, &count.k, post_synth, &par);
        assert_memory_equal(got, want, 32);
        cs_t *a = csf_new(CS_RECORD), *b = csf_new(CS_RECORD);
        cs_set_threads(b, 4);
        post_synth(a, &ref);
        post_synth(b, &par);
        csf_assert_ok(a);
        csf_assert_ok(b);
        assert_records_equal(a, b);
        cs_free(a);
        cs_free(b);
        printf("test_cs_parallel: post %llu nodes, 5 sectors x 10 challenges: %llu constraints, "
               "the loop's witness and R1CS\n",
               (unsigned long long)ref.shape.nodes, (unsigned long long)own.k.constraints);

        par.sectors[2].paths[1].n_levels--;
        for (size_t p = 0; p < N_PATHS; p++) {
            run_t r = run_synth(every_path[p].mode, every_path[p].threads, post_synth, &par);
            int check = every_path[p].mode == CS_CHECK;
            /* a check run fails on sector 0's random values first */
            if (check ? r.st != CUZK_ERR_ARG
                      : r.st != CUZK_ERR_INTERNAL || !strstr(r.msg, "task 2 "))
                fail_msg("short path, mode %d, %d threads: %d '%s'", (int)every_path[p].mode,
                         every_path[p].threads, (int)r.st, r.msg);
            run_free(&r);
        }
        /* no sectors, or more than the circuit holds */
        par.n_sectors = 0;
        run_t r = run_synth(CS_COUNT, 4, post_synth, &par);
        assert_int_equal(r.st, CUZK_ERR_ARG);
        run_free(&r);
        par.n_sectors = 6;
        r = run_synth(CS_COUNT, 1, post_synth, &par);
        assert_int_equal(r.st, CUZK_ERR_ARG);
        assert_non_null(strstr(r.msg, "6 vanilla sectors for a circuit of 5"));
        run_free(&r);
        run_free(&own);
        run_free(&count);
        free(ref.sectors);
    }
}

/* ---- timing (CUZK_SLOW=1) ----------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The process's user and system CPU seconds. */
static void cpu_s(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
    *sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* The fastest of three one-thread witness runs of a. */
static double witness_min_s(const porep_arg_t *a)
{
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now_s();
        run_t w = run_synth(CS_WITNESS, 1, porep_synth, (void *)a);
        double dt = now_s() - t0;
        assert_int_equal(w.st, CUZK_OK);
        run_free(&w);
        best = dt < best ? dt : best;
    }
    return best;
}

/* Is a blank witness as slow as a real one? 11 layers on 64 nodes (the
 * labels dominate, as at 32 GiB): a real sealing against blank
 * challenges of the same shape. */
static void real_vs_blank(void)
{
    fil_porep_shape_t shape = {64, {FIL_HASHER_POSEIDON, 8, 0, 0}, 11, 2};
    uint8_t porep_id[32];
    memset(porep_id, 44, sizeof porep_id);
    porep_arg_t real, blank;
    sealed_t S;
    porep_real(&real, &S, &shape, porep_id);
    blank = real;
    memset(&blank.pub, 0, sizeof blank.pub);
    blank.ch = calloc(shape.challenges, sizeof *blank.ch);
    assert_non_null(blank.ch);
    for (unsigned i = 0; i < shape.challenges; i++)
        assert_int_equal(fil_porep_challenge_blank(&blank.ch[i], &shape, NULL), CUZK_OK);
    double tr = witness_min_s(&real), tb = witness_min_s(&blank);
    printf("test_cs_parallel: 64 nodes, 11 layers, 2 challenges, 1 thread: real %.3f s, "
           "blank %.3f s\n",
           tr, tb);
    free(blank.ch);
    free(real.ch);
    sealed_free(&S);
}

/* One 32 GiB partition's witness (blank challenges: zero values, the same
 * gadgets and sizes) per thread count in CUZK_SLOW_THREADS; the witnesses
 * must agree (XXH64 of the values). The first fil_cs_porep call also
 * counts one challenge for the task sizes: it is timed apart. */
static void test_porep_32g_timing(void **state)
{
    (void)state;
    if (!getenv("CUZK_SLOW")) {
        printf("test_cs_parallel: 32 GiB witness timing skipped (CUZK_SLOW=1 runs it)\n");
        skip();
    }
    real_vs_blank();
    const char *list = getenv("CUZK_SLOW_THREADS");
    if (!list)
        list = "1,2";
    fil_porep_shape_t shape = {(uint64_t)1 << 30, {FIL_HASHER_POSEIDON, 8, 8, 0}, 11, 18};
    porep_arg_t a;
    memset(&a, 0, sizeof a);
    a.shape = shape;
    a.ch = calloc(shape.challenges, sizeof *a.ch);
    assert_non_null(a.ch);
    assert_int_equal(fil_porep_challenge_blank(&a.ch[0], &shape, NULL), CUZK_OK);
    for (unsigned i = 1; i < shape.challenges; i++)
        a.ch[i] = a.ch[0];
    double t0 = now_s();
    cs_t *warm = csf_new(CS_COUNT);
    fil_cs_porep(warm, &shape, &a.pub, a.ch);
    csf_assert_ok(warm);
    cs_counts_t k = csf_counts(warm);
    cs_free(warm);
    printf("test_cs_parallel: 32 GiB count run %.2f s (task sizes measured in it)\n", now_s() - t0);
    uint64_t first = 0;
    for (const char *p = list; *p;) {
        int threads = atoi(p);
        cs_t *cs = csf_new(CS_WITNESS);
        cs_set_threads(cs, threads);
        assert_int_equal(cs_reserve(cs, k.aux, k.inputs), CUZK_OK);
        double u0, s0, u1, s1;
        cpu_s(&u0, &s0);
        t0 = now_s();
        fil_cs_porep(cs, &shape, &a.pub, a.ch);
        double dt = now_s() - t0;
        cpu_s(&u1, &s1);
        csf_assert_ok(cs);
        cs_counts_t kw = csf_counts(cs);
        assert_counts_equal(&kw, &k);
        size_t na, ni;
        const fr_t *av = cs_aux_values(cs, &na), *iv = cs_input_values(cs, &ni);
        uint64_t h = cuzk_hash64(av, na * sizeof *av, cuzk_hash64(iv, ni * sizeof *iv, 0));
        printf("test_cs_parallel: 32 GiB partition witness, %d threads: %.2f s wall, CPU %.2f s "
               "user + %.2f s system (%llu constraints, %llu aux; values %016llx)\n",
               threads, dt, u1 - u0, s1 - s0, (unsigned long long)kw.constraints,
               (unsigned long long)kw.aux, (unsigned long long)h);
        if (first == 0)
            first = h;
        assert_true(h == first);
        cs_free(cs);
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    free(a.ch);
}

int main(void)
{
    tu_init("test_cs_parallel");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_witness),      cmocka_unit_test(test_toy_check_catches),
        cmocka_unit_test(test_toy_r1cs),         cmocka_unit_test(test_toy_wrong_size),
        cmocka_unit_test(test_toy_task_error),   cmocka_unit_test(test_args_and_earlier_error),
        cmocka_unit_test(test_bound_values),     cmocka_unit_test(test_bind_args),
        cmocka_unit_test(test_bound_bits),       cmocka_unit_test(test_porep_2k),
        cmocka_unit_test(test_porep_11_layers),  cmocka_unit_test(test_post_sectors),
        cmocka_unit_test(test_porep_32g_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
