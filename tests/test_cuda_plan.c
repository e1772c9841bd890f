/* The CUDA backend's memory plan for several workers sharing one device
 * (cuzk_cuda_backend_plan_shared), host arithmetic, without a GPU: one
 * copy of key and circuit, scratch per worker, while that fits; past it
 * each worker streams on its share of the budget; below that the lean
 * layout; too small a budget is refused with the numbers.
 * On a GPU: proofs in every layout (resident, streamed, lean, two backends
 * sharing one copy), from whole or packed witnesses, are byte-identical to
 * the CPU's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/cuda.h"
#include "cuzk/cuda_backend.h"
#include "cuzk/bellperson.h"
#include "cuzk/fr_pack.h"
#include "cuzk/gen.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"

/* The smallest budget (to 4 KiB) under which the plan still succeeds. */
static size_t smallest_budget(const groth16_pk_t *pk, const circuit_t *c, size_t hi)
{
    cuzk_cuda_plan_t p;
    cuzk_error_t e = {0};
    size_t lo = 0;
    while (hi - lo > 4096) {
        size_t mid = lo + (hi - lo) / 2;
        if (cuzk_cuda_backend_plan_shared(&p, pk, c, mid, 1, &e) == CUZK_OK)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

static void shared_plan_at(unsigned k)
{
    gen_shape_t sh;
    circuit_t c;
    cuzk_error_t e = {0};
    assert_int_equal(gen_porep_shape(&sh, k, &e), CUZK_OK);
    assert_int_equal(gen_porep_circuit(&c, &sh, 5, 0, &e), CUZK_OK);
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, 77);
    groth16_key_t key;
    assert_int_equal(groth16_setup_toxic(&key, &c, GROTH16_BELLPERSON, &tw, 0, &e), CUZK_OK);
    groth16_pk_t pk;
    groth16_key_pk(&pk, &key);

    cuzk_cuda_plan_t one, two, four;
    assert_int_equal(cuzk_cuda_backend_plan(&one, &pk, &c, 0, &e), CUZK_OK);
    assert_false(one.streaming);
    assert_true(one.key_bytes > 0 && one.circuit_bytes > 0 && one.scratch_bytes > 0);
    assert_int_equal(one.total, one.key_bytes + one.circuit_bytes + one.scratch_bytes);
    assert_int_equal(cuzk_cuda_backend_plan_shared(&two, &pk, &c, 0, 2, &e), CUZK_OK);
    assert_int_equal(cuzk_cuda_backend_plan_shared(&four, &pk, &c, 0, 4, &e), CUZK_OK);
    /* one copy of key and circuit, scratch for each worker */
    assert_int_equal(two.total, one.key_bytes + one.circuit_bytes + 2 * one.scratch_bytes);
    assert_int_equal(four.total, one.key_bytes + one.circuit_bytes + 4 * one.scratch_bytes);
    assert_int_equal(two.key_bytes, one.key_bytes);
    assert_int_equal(two.scratch_bytes, one.scratch_bytes);

    /* exactly enough for two sharing: resident */
    assert_int_equal(cuzk_cuda_backend_plan_shared(&two, &pk, &c, two.total, 2, &e), CUZK_OK);
    assert_false(two.streaming);
    /* one byte less: each streams on half the budget, its numbers its own */
    size_t budget = one.key_bytes + one.circuit_bytes + 2 * one.scratch_bytes - 1;
    cuzk_status st = cuzk_cuda_backend_plan_shared(&two, &pk, &c, budget, 2, &e);
    if (st == CUZK_OK) {
        assert_true(two.streaming);
        assert_true(two.total <= budget / 2);
        assert_true(two.chunk_points >= 4096);
    } else { /* a half too small even to stream: refused, naming the share */
        assert_int_equal(st, CUZK_ERR_NOMEM);
        assert_non_null(strstr(e.msg, "per worker"));
    }
    /* the single plan agrees with the shared one for one worker */
    cuzk_cuda_plan_t a, b;
    size_t small = one.total / 2;
    cuzk_status sa = cuzk_cuda_backend_plan(&a, &pk, &c, small, &e);
    cuzk_status sb = cuzk_cuda_backend_plan_shared(&b, &pk, &c, small, 1, &e);
    assert_int_equal(sa, sb);
    assert_memory_equal(&a, &b, sizeof a);
    /* below what streaming the bases needs: the lean layout (the circuit
     * streamed, smaller scratch), within the budget, before a refusal */
    cuzk_cuda_plan_t p;
    size_t hi = smallest_budget(&pk, &c, one.total);
    assert_int_equal(cuzk_cuda_backend_plan_shared(&p, &pk, &c, hi, 1, &e), CUZK_OK);
    assert_true(p.streaming && p.lean);
    assert_true(p.total <= hi);
    assert_true(p.circuit_bytes < one.circuit_bytes);
    assert_true(p.total == p.key_bytes + p.circuit_bytes + p.scratch_bytes);
    /* the H-MSM's chunk: a power of two, never below the other MSMs' nor
     * (much) above the H query (larger only where the witness and the H
     * scratch hold an MSM plan, 14 MiB and up: test_gpu_lean_h) */
    assert_true(p.h_chunk_points >= p.chunk_points);
    assert_true((p.h_chunk_points & (p.h_chunk_points - 1)) == 0);
    assert_true(p.h_chunk_points == p.chunk_points || p.h_chunk_points / 2 < pk.h.n);
    /* a snarkjs key never goes lean (its H needs the third vector) */
    pk.conv = GROTH16_SNARKJS;
    if (cuzk_cuda_backend_plan_shared(&p, &pk, &c, hi, 1, &e) == CUZK_OK)
        assert_false(p.lean);
    pk.conv = GROTH16_BELLPERSON;
    /* far too small: refused with the numbers */
    assert_int_equal(cuzk_cuda_backend_plan_shared(&b, &pk, &c, 4096, 2, &e), CUZK_ERR_NOMEM);
    assert_non_null(strstr(e.msg, "VRAM budget"));
    assert_int_equal(cuzk_cuda_backend_plan_shared(&b, &pk, &c, 0, 0, &e), CUZK_ERR_ARG);
    assert_int_equal(cuzk_cuda_backend_plan_shared(NULL, &pk, &c, 0, 1, &e), CUZK_ERR_ARG);
    groth16_key_free(&key);
    circuit_free(&c);
}

/* The sizes test_gpu_layouts proves at (at 2^10 and below no chunk is
 * smaller than the whole key, so nothing streams). */
static void test_shared_plan(void **state)
{
    (void)state;
    static const unsigned ks[] = {12, 16};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        shared_plan_at(ks[i]);
}

/* One proof on a CUDA backend of budget (workers sharing), as bytes. */
static void gpu_proof(uint8_t out[192], groth16_backend_t *be, const groth16_pk_t *pk,
                      const circuit_t *c, const fr_t *w, const fr_t *r, const fr_t *s)
{
    groth16_proof_t pr;
    groth16_prove_opts_t o = {0};
    cuzk_error_t e = {0};
    if (groth16_prove(&pr, pk, c, w, r, s, be, &o, &e) != CUZK_OK)
        fail_msg("GPU prove: %s", e.msg);
    bellperson_proof_write(out, &pr);
}

/* A warm's progress calls, checked as they come. */
typedef struct progress_log {
    unsigned calls;
    uint64_t done, total;
    int bad;
} progress_log_t;

static void progress_note(void *pctx, uint64_t done, uint64_t total)
{
    progress_log_t *l = pctx;
    if (done < l->done || done > total || (l->calls && total != l->total))
        l->bad = 1;
    l->calls++;
    l->done = done;
    l->total = total;
}

/* A PoRep-shaped circuit of 2^k, its witness, an INSECURE key and the
 * CPU's proof for fixed r and s: what the GPU's proofs must equal. */
typedef struct layout_case {
    circuit_t c;
    fr_t *w;
    groth16_key_t key;
    groth16_pk_t pk;
    fr_t r, s;
    uint8_t want[192];
} layout_case_t;

static void layout_case_make(layout_case_t *t, unsigned k)
{
    gen_shape_t sh;
    cuzk_error_t e = {0};
    assert_int_equal(gen_porep_shape(&sh, k, &e), CUZK_OK);
    assert_int_equal(gen_porep_circuit(&t->c, &sh, 9, 0, &e), CUZK_OK);
    t->w = malloc((size_t)sh.n_vars * sizeof *t->w);
    assert_non_null(t->w);
    assert_int_equal(gen_porep_witness(t->w, &sh, 9, 0, 0, &e), CUZK_OK);
    groth16_toxic_t tw;
    groth16_toxic_from_seed(&tw, 1000 + k);
    assert_int_equal(groth16_setup_toxic(&t->key, &t->c, GROTH16_BELLPERSON, &tw, 0, &e), CUZK_OK);
    groth16_key_pk(&t->pk, &t->key);
    fr_from_u64(&t->r, 12345 + k);
    fr_from_u64(&t->s, 67890 + k);
    groth16_proof_t ref;
    groth16_prove_opts_t o = {0};
    assert_int_equal(
        groth16_prove(&ref, &t->pk, &t->c, t->w, &t->r, &t->s, &GROTH16_BACKEND_CPU, &o, &e),
        CUZK_OK);
    bellperson_proof_write(t->want, &ref);
}

static void layout_case_free(layout_case_t *t)
{
    groth16_key_free(&t->key);
    circuit_free(&t->c);
    free(t->w);
}

/* 1 (and the test skipped, saying what is not checked) without a GPU. */
static int no_gpu(const char *what)
{
    int gpus = 0;
    if (cuzk_cuda_device_count(&gpus, NULL) == CUZK_OK && gpus > 0)
        return 0;
    print_message("test_cuda_plan: no GPU: %s not checked here\n", what);
    skip();
    return 1;
}

static void test_gpu_layouts(void **state)
{
    (void)state;
    if (no_gpu("the layouts' proofs are"))
        return;
    for (unsigned k = 12; k <= 16; k += 4) {
        layout_case_t t;
        layout_case_make(&t, k);
        const groth16_pk_t *pk = &t.pk;
        const circuit_t *c = &t.c;
        const fr_t *w = t.w, *r = &t.r, *s = &t.s;
        const uint8_t *want = t.want;
        uint8_t got[192];
        cuzk_error_t e = {0};

        cuzk_cuda_plan_t full, p;
        assert_int_equal(cuzk_cuda_backend_plan(&full, pk, c, 0, &e), CUZK_OK);
        size_t lean = smallest_budget(pk, c, full.total);
        assert_int_equal(cuzk_cuda_backend_plan(&p, pk, c, lean, &e), CUZK_OK);
        assert_true(p.lean);
        /* resident, streamed (just below resident), lean */
        size_t budgets[3] = {0, full.total - 4096, lean};
        for (int i = 0; i < 3; i++) {
            groth16_backend_t *be = NULL;
            assert_int_equal(cuzk_cuda_backend_new(&be, 0, budgets[i] ? budgets[i] : 0, &e),
                             CUZK_OK);
            for (int rep = 0; rep < 2; rep++) { /* the second proof reuses the layout */
                gpu_proof(got, be, pk, c, w, r, s);
                if (memcmp(got, want, 192))
                    fail_msg("2^%u, layout %d, proof %d: differs from the CPU's", k, i, rep);
            }
            cuzk_cuda_backend_free(be);
        }
        /* two backends sharing one resident copy, freed in either order
         * (the second a critical lane's, its streams at high priority);
         * the first loads it ahead (a preload's warm), in pieces */
        groth16_backend_t *b1 = NULL, *b2 = NULL;
        assert_int_equal(cuzk_cuda_backend_new_shared(&b1, 0, 0, 2, DEVICE_ROLE_REGULAR, &e),
                         CUZK_OK);
        assert_int_equal(cuzk_cuda_backend_new_shared(&b2, 0, 0, 2, DEVICE_ROLE_CRITICAL, &e),
                         CUZK_OK);
        progress_log_t pl = {0};
        if (cuzk_cuda_backend_warm(b1, pk, c, progress_note, &pl, &e) != CUZK_OK)
            fail_msg("2^%u warm: %s", k, e.msg);
        assert_false(pl.bad);
        /* the circuit, then each query in pieces of at least 1 MiB: at 2^16
         * A, B, L and H take several each */
        assert_true(pl.calls >= 6);
        if (k >= 16)
            assert_true(pl.calls > 6);
        assert_int_equal(pl.done, pl.total);
        assert_true(pl.total >= full.key_bytes && pl.total <= full.key_bytes + full.circuit_bytes);
        progress_log_t p2 = {0}; /* the copy is b1's: b2 waits for nothing, reports nothing */
        assert_int_equal(cuzk_cuda_backend_warm(b2, pk, c, progress_note, &p2, &e), CUZK_OK);
        assert_int_equal(p2.calls, 0);
        gpu_proof(got, b1, pk, c, w, r, s);
        assert_memory_equal(got, want, 192);
        gpu_proof(got, b2, pk, c, w, r, s);
        assert_memory_equal(got, want, 192);
        cuzk_cuda_backend_free(b1);
        gpu_proof(got, b2, pk, c, w, r, s); /* still holds the copy */
        assert_memory_equal(got, want, 192);
        cuzk_cuda_backend_free(b2);
        print_message("  2^%u: resident, streamed, lean (%.1f MiB) and shared proofs equal the "
                      "CPU's; the warm reported %u times up to %.1f MiB\n",
                      k, (double)lean / 1048576.0, pl.calls, (double)pl.total / 1048576.0);
        layout_case_free(&t);
    }
}

/* The lean layout at 2^20, where the H-MSM streams in chunks larger than
 * the other MSMs' (their buffers and plan in the H scratch and the witness
 * vector, which other stages use between its calls): proofs equal the
 * CPU's, the second after a proof's H and witness upload overwrote them. */
static void test_gpu_lean_h(void **state)
{
    (void)state;
    if (no_gpu("the lean H-MSM's chunks are"))
        return;
    const unsigned k = 20;
    layout_case_t t;
    layout_case_make(&t, k);
    uint8_t got[192];
    cuzk_error_t e = {0};
    cuzk_cuda_plan_t full, p;
    assert_int_equal(cuzk_cuda_backend_plan(&full, &t.pk, &t.c, 0, &e), CUZK_OK);
    size_t lean = smallest_budget(&t.pk, &t.c, full.total);
    assert_int_equal(cuzk_cuda_backend_plan(&p, &t.pk, &t.c, lean, &e), CUZK_OK);
    assert_true(p.lean);
    if (p.h_chunk_points <= p.chunk_points)
        fail_msg("2^%u lean: the H-MSM's chunk (%zu) is not above the others' (%zu)", k,
                 p.h_chunk_points, p.chunk_points);
    groth16_backend_t *be = NULL;
    assert_int_equal(cuzk_cuda_backend_new(&be, 0, lean, &e), CUZK_OK);
    for (int rep = 0; rep < 2; rep++) {
        gpu_proof(got, be, &t.pk, &t.c, t.w, &t.r, &t.s);
        if (memcmp(got, t.want, 192))
            fail_msg("2^%u lean, proof %d: differs from the CPU's", k, rep);
    }
    cuzk_cuda_backend_free(be);
    print_message("  2^%u lean (%.1f MiB): chunks of %zu points, the H-MSM's %zu; proofs equal "
                  "the CPU's\n",
                  k, (double)lean / 1048576.0, p.chunk_points, p.h_chunk_points);
    layout_case_free(&t);
}

/* The proof of a packed witness (fr_pack.h), which the backend expands on
 * the GPU, into out; verified unless no_verify. */
static void gpu_proof_packed(uint8_t out[192], const groth16_backend_t *be, const groth16_pk_t *pk,
                             const circuit_t *c, const fr_pack_t *pw, const fr_t *r, const fr_t *s,
                             int no_verify)
{
    groth16_proof_t pr;
    groth16_prove_opts_t o = {.no_verify = no_verify};
    cuzk_error_t e = {0};
    if (groth16_prove_packed(&pr, pk, c, pw, r, s, be, &o, &e) != CUZK_OK)
        fail_msg("GPU prove (packed): %s", e.msg);
    bellperson_proof_write(out, &pr);
}

/* CUZK_PROVE_OVERLAP=on (the default): where the bases stream, H is made
 * in a thread of its own while A, B and L's MSMs run on a second lane
 * (lean gathers their scalars a chunk at a time, the H scratch being
 * H's); the H-MSM follows H in that thread where its chunks and plan fit
 * the H scratch (2^20: 16K-point chunks in 32 MiB), else after both
 * (2^16). Off and on, streamed and lean, two proofs each, equal the
 * CPU's; a packed one too; a value other than on or off is refused. */
static void test_gpu_overlap(void **state)
{
    (void)state;
    if (no_gpu("H beside the MSMs is"))
        return;
    cuzk_error_t e = {0};
    groth16_backend_t *be = NULL;
    setenv("CUZK_PROVE_OVERLAP", "sometimes", 1);
    assert_int_equal(cuzk_cuda_backend_new(&be, 0, 0, &e), CUZK_ERR_ARG);
    assert_non_null(strstr(e.msg, "CUZK_PROVE_OVERLAP=sometimes"));
    assert_null(be);
    for (unsigned k = 16; k <= 20; k += 4) {
        layout_case_t t;
        layout_case_make(&t, k);
        uint8_t got[192];
        cuzk_cuda_plan_t full, p;
        assert_int_equal(cuzk_cuda_backend_plan(&full, &t.pk, &t.c, 0, &e), CUZK_OK);
        size_t lean = smallest_budget(&t.pk, &t.c, full.total);
        assert_int_equal(cuzk_cuda_backend_plan(&p, &t.pk, &t.c, lean, &e), CUZK_OK);
        assert_true(p.lean);
        size_t budgets[2] = {full.total - 4096, lean};
        fr_pack_t pw;
        assert_int_equal(fr_pack_make(&pw, t.w, t.pk.n_vars, 1, &e), CUZK_OK);
        for (int on = 0; on < 2; on++) {
            setenv("CUZK_PROVE_OVERLAP", on ? "on" : "off", 1);
            for (int i = 0; i < 2; i++) {
                assert_int_equal(cuzk_cuda_backend_new(&be, 0, budgets[i], &e), CUZK_OK);
                for (int rep = 0; rep < 2; rep++) {
                    gpu_proof(got, be, &t.pk, &t.c, t.w, &t.r, &t.s);
                    if (memcmp(got, t.want, 192))
                        fail_msg("2^%u, overlap %d, %s, proof %d: differs from the CPU's", k, on,
                                 i ? "lean" : "streamed", rep);
                }
                gpu_proof_packed(got, be, &t.pk, &t.c, &pw, &t.r, &t.s, 0);
                if (memcmp(got, t.want, 192))
                    fail_msg("2^%u, overlap %d, %s, packed: differs from the CPU's", k, on,
                             i ? "lean" : "streamed");
                cuzk_cuda_backend_free(be);
            }
        }
        fr_pack_free(&pw);
        print_message("  2^%u: overlap off and on, streamed and lean (%.1f MiB): proofs equal the "
                      "CPU's\n",
                      k, (double)lean / 1048576.0);
        layout_case_free(&t);
    }
    unsetenv("CUZK_PROVE_OVERLAP");
}

/* Packed witnesses expanded on the GPU: in every layout (resident,
 * streamed, lean; twice each, the second over the first's vectors) the
 * proof of a PoRep-shaped witness's pack equals the CPU's of the whole
 * vector; and a witness of random values (no zeros or ones past w[0],
 * unverified: it satisfies nothing) packs larger than the H vector the
 * pack is staged in, so the backend expands it on the host instead: the
 * same proof as the CPU's of it. */
static void test_gpu_packed(void **state)
{
    (void)state;
    if (no_gpu("packed witnesses are"))
        return;
    for (unsigned k = 12; k <= 16; k += 4) {
        layout_case_t t;
        layout_case_make(&t, k);
        cuzk_error_t e = {0};
        fr_pack_t pw;
        assert_int_equal(fr_pack_make(&pw, t.w, t.pk.n_vars, 0, &e), CUZK_OK);
        assert_true(pw.n_full > 0 && pw.n_full < pw.n / 4);
        cuzk_cuda_plan_t full;
        assert_int_equal(cuzk_cuda_backend_plan(&full, &t.pk, &t.c, 0, &e), CUZK_OK);
        size_t lean = smallest_budget(&t.pk, &t.c, full.total);
        size_t budgets[3] = {0, full.total - 4096, lean};
        uint8_t got[192];
        for (int i = 0; i < 3; i++) {
            groth16_backend_t *be = NULL;
            assert_int_equal(cuzk_cuda_backend_new(&be, 0, budgets[i], &e), CUZK_OK);
            for (int rep = 0; rep < 2; rep++) {
                gpu_proof_packed(got, be, &t.pk, &t.c, &pw, &t.r, &t.s, 0);
                if (memcmp(got, t.want, 192))
                    fail_msg("2^%u, layout %d, packed proof %d: differs from the CPU's", k, i, rep);
            }
            cuzk_cuda_backend_free(be);
        }
        fr_pack_free(&pw);

        /* random values: the pack outgrows the H vector (m values) */
        size_t n = t.pk.n_vars, m = (size_t)1 << t.pk.log_m;
        fr_t *x = malloc(n * sizeof *x);
        assert_non_null(x);
        x[0] = FR_ONE;
        for (size_t i = 1; i < n; i++) {
            fr_from_u64(&x[i], 1000003 * i + 7);
            fr_mul(&x[i], &x[i], &x[i]);
        }
        assert_int_equal(fr_pack_make(&pw, x, n, 0, &e), CUZK_OK);
        int host = pw.bytes > m * sizeof(fr_t);
        groth16_proof_t ref;
        groth16_prove_opts_t o = {.no_verify = 1};
        assert_int_equal(
            groth16_prove(&ref, &t.pk, &t.c, x, &t.r, &t.s, &GROTH16_BACKEND_CPU, &o, &e), CUZK_OK);
        uint8_t want[192];
        bellperson_proof_write(want, &ref);
        groth16_backend_t *be = NULL;
        assert_int_equal(cuzk_cuda_backend_new(&be, 0, 0, &e), CUZK_OK);
        gpu_proof_packed(got, be, &t.pk, &t.c, &pw, &t.r, &t.s, 1);
        assert_memory_equal(got, want, 192);
        cuzk_cuda_backend_free(be);
        print_message("  2^%u: packed proofs equal the CPU's in every layout; a random witness's "
                      "pack (%.1f MiB, H vector %.1f MiB) expanded on the %s\n",
                      k, (double)pw.bytes / 1048576.0, (double)(m * sizeof(fr_t)) / 1048576.0,
                      host ? "host" : "GPU");
        fr_pack_free(&pw);
        free(x);
        layout_case_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_plan), cmocka_unit_test(test_gpu_layouts),
        cmocka_unit_test(test_gpu_lean_h),  cmocka_unit_test(test_gpu_packed),
        cmocka_unit_test(test_gpu_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
