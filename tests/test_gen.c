/* The porep-32g generator (gen.h), the .ccs circuit file (ccs.h) and the
 * .r1cs / .wtns writers: generated circuits are satisfied by every
 * partition's witness and land on the profile; generation is deterministic
 * and independent of the thread count; files read back exactly; every
 * damaged .ccs is rejected with a status and a message; a K = 10 circuit
 * proves and verifies with the bellperson test setup, from its witness
 * whole or packed. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/ccs.h"
#include "cuzk/circuit.h"
#include "cuzk/fr_pack.h"
#include "cuzk/gen.h"
#include "cuzk/msm.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"
#include "cuzk/setup.h"
#include "cuzk/wtns.h"

static char g_dir[64];

static const char *tmp_path(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return p;
}

static void make(circuit_t *c, gen_shape_t *s, unsigned k, uint64_t seed, int threads)
{
    cuzk_error_t e = {0};
    assert_int_equal(gen_porep_shape(s, k, &e), CUZK_OK);
    if (gen_porep_circuit(c, s, seed, threads, &e) != CUZK_OK)
        fail_msg("gen_porep_circuit: %s", e.msg);
}

static fr_t *witness(const gen_shape_t *s, uint64_t seed, uint32_t part, int threads)
{
    cuzk_error_t e = {0};
    fr_t *w = malloc((size_t)s->n_vars * sizeof *w);
    assert_non_null(w);
    if (gen_porep_witness(w, s, seed, part, threads, &e) != CUZK_OK)
        fail_msg("gen_porep_witness: %s", e.msg);
    return w;
}

static void assert_circuit_equal(const circuit_t *a, const circuit_t *b)
{
    assert_int_equal(a->n_rows, b->n_rows);
    assert_int_equal(a->n_vars, b->n_vars);
    assert_int_equal(a->n_public, b->n_public);
    assert_int_equal(a->n_dict, b->n_dict);
    for (uint32_t i = 0; i < a->n_dict; i++)
        assert_true(fr_equal(&a->dict[i], &b->dict[i]));
    for (int m = 0; m < 3; m++) {
        assert_int_equal(a->m[m].nnz, b->m[m].nnz);
        assert_memory_equal(a->m[m].row_ptr, b->m[m].row_ptr,
                            ((size_t)a->n_rows + 1) * sizeof(uint64_t));
        if (a->m[m].nnz) {
            assert_memory_equal(a->m[m].col, b->m[m].col, a->m[m].nnz * 4);
            assert_memory_equal(a->m[m].coef, b->m[m].coef, a->m[m].nnz * 4);
        }
    }
}

static void test_shape(void **state)
{
    (void)state;
    gen_shape_t s;
    assert_int_equal(gen_porep_shape(&s, 27, NULL), CUZK_OK);
    assert_int_equal(s.n_constraints, 130278541);
    assert_int_equal(s.n_inputs, 328);
    assert_int_equal(s.n_public, 327);
    for (unsigned k = GEN_LOG_DOMAIN_MIN; k <= GEN_LOG_DOMAIN_MAX; k++) {
        assert_int_equal(gen_porep_shape(&s, k, NULL), CUZK_OK);
        assert_true(s.n_rows <= (1u << k) && s.n_rows > (1u << (k - 1)));
        assert_true(s.n_public >= 1);
        assert_int_equal(s.n_rows, s.n_constraints + s.n_public + 1);
    }
    cuzk_error_t e = {0};
    assert_int_equal(gen_porep_shape(&s, 9, &e), CUZK_ERR_ARG);
    assert_int_equal(gen_porep_shape(&s, 28, &e), CUZK_ERR_ARG);
    circuit_t c;
    s.n_vars++;
    assert_int_equal(gen_porep_circuit(&c, &s, 1, 1, &e), CUZK_ERR_ARG);
}

static void test_satisfied(void **state)
{
    (void)state;
    for (unsigned k = 10; k <= 14; k++) {
        circuit_t c;
        gen_shape_t s;
        make(&c, &s, k, 7 + k, 0);
        for (uint32_t p = 0; p < 3; p++) {
            fr_t *w = witness(&s, 7 + k, p, 0);
            uint32_t bad = 0;
            assert_true(fr_is_one(&w[0]));
            assert_int_equal(circuit_check(&bad, &c, w, 0), CUZK_OK);
            if (bad != UINT32_MAX)
                fail_msg("K = %u partition %u: row %u fails", k, p, bad);
            free(w);
        }
        circuit_free(&c);
    }
}

static void near(double got, double want, double rel, const char *what)
{
    print_message("  %-24s %.4f (profile %.4f)\n", what, got, want);
    if (got < want * (1 - rel) || got > want * (1 + rel))
        fail_msg("%s = %.4f, profile %.4f (+-%.0f%%)", what, got, want, rel * 100);
}

static void test_profile(void **state)
{
    (void)state;
    circuit_t c;
    gen_shape_t s;
    make(&c, &s, 16, 3, 0);
    gen_stats_t st;
    assert_int_equal(gen_circuit_stats(&st, &c, NULL), CUZK_OK);
    double rows = st.n_rows, aux = st.n_vars - st.n_public - 1;
    near(st.nnz[0] / rows, 2.4, 0.03, "A per row");
    near(st.nnz[1] / rows, 1.0, 0.03, "B per row");
    near(st.nnz[2] / rows, 2.2, 0.03, "C per row");
    near(st.aux_touched[0] / aux, 0.997, 0.01, "A aux density");
    near(st.aux_touched[1] / aux, 0.254, 0.03, "B aux density");
    assert_int_equal(st.input_touched[1], 1); /* ONE */
    fr_t *w = witness(&s, 3, 0, 0);
    uint64_t z, o, x;
    gen_witness_stats(&z, &o, &x, w, s.n_vars);
    print_message("  witness: %llu zero, %llu one, %llu other\n", (unsigned long long)z,
                  (unsigned long long)o, (unsigned long long)x);
    assert_true(x > s.n_vars / 100 && x < s.n_vars / 15); /* a few percent */
    assert_true(z > s.n_vars / 3 && o > s.n_vars / 3);
    free(w);
    circuit_free(&c);
}

static int files_equal(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *pa = tu_read_file(a, &na), *pb = tu_read_file(b, &nb);
    int eq = pa && pb && na == nb && !memcmp(pa, pb, na);
    free(pa);
    free(pb);
    return eq;
}

static void test_deterministic(void **state)
{
    (void)state;
    circuit_t c1, c2, c3;
    gen_shape_t s;
    make(&c1, &s, 16, 11, 1); /* 4 blocks */
    make(&c2, &s, 16, 11, 3); /* thread count must not matter */
    assert_circuit_equal(&c1, &c2);
    assert_int_equal(ccs_write_file(tmp_path("d1.ccs"), &c1, NULL), CUZK_OK);
    assert_int_equal(ccs_write_file(tmp_path("d2.ccs"), &c2, NULL), CUZK_OK);
    assert_true(files_equal(tmp_path("d1.ccs"), tmp_path("d2.ccs")));
    make(&c3, &s, 16, 12, 2);
    assert_true(c3.m[0].nnz != c1.m[0].nnz ||
                memcmp(c3.m[0].col, c1.m[0].col, c1.m[0].nnz * 4) != 0);
    fr_t *w1 = witness(&s, 11, 0, 1), *w2 = witness(&s, 11, 0, 4), *w3 = witness(&s, 11, 1, 2);
    assert_memory_equal(w1, w2, (size_t)s.n_vars * sizeof *w1);
    assert_memory_not_equal(w1, w3, (size_t)s.n_vars * sizeof *w1);
    uint32_t bad = 0;
    assert_int_equal(circuit_check(&bad, &c1, w3, 0), CUZK_OK);
    assert_int_equal(bad, UINT32_MAX);
    free(w1);
    free(w2);
    free(w3);
    circuit_free(&c1);
    circuit_free(&c2);
    circuit_free(&c3);
}

/* A builder circuit with arbitrary coefficients and empty rows. */
static void random_circuit(circuit_t *c, uint32_t rows, uint32_t vars)
{
    circuit_builder_t *b = circuit_builder_new(rows, vars, 2);
    assert_non_null(b);
    for (uint32_t r = 0; r < rows; r++)
        for (int m = 0; m < 3; m++) {
            uint32_t n = (uint32_t)(tu_rand64() % 4);
            for (uint32_t t = 0; t < n; t++) {
                fr_t v;
                tu_rand_fr(&v);
                assert_int_equal(circuit_builder_add(b, (circuit_matrix)m, r,
                                                     (uint32_t)(tu_rand64() % vars), &v, NULL),
                                 CUZK_OK);
            }
        }
    assert_int_equal(circuit_builder_finish(c, b, NULL), CUZK_OK);
}

static void test_ccs_roundtrip(void **state)
{
    (void)state;
    circuit_t c, back;
    gen_shape_t s;
    cuzk_error_t e = {0};
    make(&c, &s, 12, 5, 0);
    const char *p = tmp_path("r.ccs");
    assert_int_equal(ccs_write_file(p, &c, &e), CUZK_OK);
    if (ccs_read_file(&back, p, 0, &e) != CUZK_OK)
        fail_msg("ccs_read_file: %s", e.msg);
    assert_circuit_equal(&c, &back);
    circuit_free(&back);
    size_t n;
    uint8_t *buf = tu_read_file(p, &n);
    assert_non_null(buf);
    assert_int_equal(ccs_read_mem(&back, buf, n, "r.ccs", 1, &e), CUZK_OK);
    assert_circuit_equal(&c, &back);
    circuit_free(&back);
    free(buf);
    circuit_free(&c);
    /* arbitrary coefficients, empty rows, and a circuit with no entries */
    uint32_t sizes[3][2] = {{1, 3}, {17, 5}, {300, 90}};
    for (int i = 0; i < 3; i++) {
        random_circuit(&c, sizes[i][0], sizes[i][1]);
        assert_int_equal(ccs_write_file(p, &c, &e), CUZK_OK);
        assert_int_equal(ccs_read_file(&back, p, 0, &e), CUZK_OK);
        assert_circuit_equal(&c, &back);
        circuit_free(&back);
        circuit_free(&c);
    }
    circuit_builder_t *b = circuit_builder_new(4, 3, 1);
    assert_int_equal(circuit_builder_finish(&c, b, NULL), CUZK_OK);
    assert_int_equal(ccs_write_file(p, &c, &e), CUZK_OK);
    assert_int_equal(ccs_read_file(&back, p, 0, &e), CUZK_OK);
    assert_circuit_equal(&c, &back);
    circuit_free(&back);
    circuit_free(&c);
}

/* ---- rejection: every damaged file gets a status and a message ---------- */

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint8_t *entry(uint8_t *f, unsigned sec)
{
    return f + CCS_HEADER_BYTES + sec * CCS_ENTRY_BYTES;
}

/* Recomputes section sec's checksum after an edit. */
static void reseal(uint8_t *f, unsigned sec)
{
    uint8_t *t = entry(f, sec);
    put64(t + 24, ccs_checksum(f + get64(t + 8), (size_t)get64(t + 16)));
}

static void expect_reject(const uint8_t *f, size_t n, cuzk_status want, const char *sub)
{
    circuit_t c;
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = ccs_read_mem(&c, f, n, "bad.ccs", 1, &e);
    if (st != want || e.code != want || !e.msg[0] || (sub && !strstr(e.msg, sub)))
        fail_msg("expected %d \"%s\", got %d: %s", (int)want, sub ? sub : "", (int)st, e.msg);
    assert_null(c.dict);
    assert_null(c.m[0].row_ptr);
}

static void test_ccs_rejects(void **state)
{
    (void)state;
    circuit_t c;
    gen_shape_t s;
    make(&c, &s, 10, 9, 1);
    const char *p = tmp_path("bad.ccs");
    assert_int_equal(ccs_write_file(p, &c, NULL), CUZK_OK);
    size_t n;
    uint8_t *good = tu_read_file(p, &n), *f = malloc(n + 1);
    assert_non_null(good);
    assert_non_null(f);
#define RESET() memcpy(f, good, n)
    /* truncations, including inside the header and table */
    size_t cuts[] = {0, 7, 63, 64, 200, 383, 384, n / 2, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        RESET();
        expect_reject(f, cuts[i], CUZK_ERR_FORMAT, NULL);
    }
    RESET();
    f[n] = 0;
    expect_reject(f, n + 1, CUZK_ERR_FORMAT, "implies");
    RESET();
    f[0] ^= 1;
    expect_reject(f, n, CUZK_ERR_FORMAT, "magic");
    RESET();
    f[8] = 2;
    expect_reject(f, n, CUZK_ERR_UNSUPPORTED, "version");
    RESET();
    f[12] = 9;
    expect_reject(f, n, CUZK_ERR_FORMAT, "sections");
    RESET();
    f[16] ^= 1; /* n_rows: the table no longer matches */
    expect_reject(f, n, CUZK_ERR_FORMAT, "implies");
    RESET();
    put64(f + 32, (uint64_t)1 << 62); /* nnz beyond the file */
    expect_reject(f, n, CUZK_ERR_FORMAT, "entries");
    RESET();
    f[56] = 1;
    expect_reject(f, n, CUZK_ERR_FORMAT, "reserved");
    RESET();
    put64(entry(f, 3) + 8, get64(entry(f, 3) + 8) + 64);
    expect_reject(f, n, CUZK_ERR_FORMAT, "section entry 3");
    /* one flipped byte in every section: its checksum */
    for (unsigned sec = 0; sec < CCS_N_SECTIONS; sec++) {
        RESET();
        uint64_t off = get64(entry(f, sec) + 8), size = get64(entry(f, sec) + 16);
        if (!size)
            continue;
        f[off + size / 2] ^= 0x10;
        expect_reject(f, n, CUZK_ERR_FORMAT, "checksum");
    }
    /* padding */
    int padded = 0;
    for (unsigned sec = 1; sec < CCS_N_SECTIONS; sec++) {
        RESET();
        uint64_t off = get64(entry(f, sec) + 8);
        if (get64(entry(f, sec - 1) + 8) + get64(entry(f, sec - 1) + 16) == off)
            continue;
        f[off - 1] = 1;
        expect_reject(f, n, CUZK_ERR_FORMAT, "padding");
        padded++;
    }
    assert_true(padded > 0);
    /* structure errors behind a valid checksum */
    uint64_t dict = get64(entry(good, 0) + 8), arp = get64(entry(good, 1) + 8);
    uint64_t acol = get64(entry(good, 2) + 8), bcoef = get64(entry(good, 6) + 8);
    RESET();
    for (int i = 0; i < 32; i++) /* entry 1 := r */
        f[dict + 32 + i] = (uint8_t)(FR_MODULUS[i / 8] >> (8 * (i % 8)));
    reseal(f, 0);
    expect_reject(f, n, CUZK_ERR_NONCANONICAL, "dictionary entry 1");
    RESET();
    memset(f + dict + 64, 0, 32);
    reseal(f, 0);
    expect_reject(f, n, CUZK_ERR_FORMAT, "is zero");
    RESET();
    put64(f + arp + 8 * 5, 0);
    reseal(f, 1);
    expect_reject(f, n, CUZK_ERR_FORMAT, "decreases");
    RESET();
    put64(f + arp, 1);
    reseal(f, 1);
    expect_reject(f, n, CUZK_ERR_FORMAT, "row_ptr runs");
    RESET();
    f[acol + 4 * 10] = 0xff, f[acol + 4 * 10 + 1] = 0xff;
    reseal(f, 2);
    expect_reject(f, n, CUZK_ERR_FORMAT, "out of range");
    RESET();
    f[bcoef + 4 * 3 + 2] = 1;
    reseal(f, 6);
    expect_reject(f, n, CUZK_ERR_FORMAT, "out of range");
#undef RESET
    /* files and arguments */
    circuit_t out;
    cuzk_error_t e = {0};
    assert_int_equal(ccs_read_file(&out, tmp_path("missing.ccs"), 0, &e), CUZK_ERR_IO);
    assert_int_equal(ccs_read_file(&out, g_dir, 0, &e), CUZK_ERR_IO);
    assert_int_equal(ccs_read_mem(NULL, good, n, NULL, 0, &e), CUZK_ERR_ARG);
    assert_int_equal(ccs_write_file("/nonexistent-dir/x.ccs", &c, &e), CUZK_ERR_IO);
    c.m[1].col[0] = c.n_vars; /* the writer refuses what the reader would */
    assert_int_equal(ccs_write_file(p, &c, &e), CUZK_ERR_ARG);
    assert_int_equal(ccs_validate(&c, &e), CUZK_ERR_ARG);
    free(good);
    free(f);
    circuit_free(&c);
}

static void test_r1cs_wtns_roundtrip(void **state)
{
    (void)state;
    circuit_t c;
    gen_shape_t s;
    cuzk_error_t e = {0};
    make(&c, &s, 11, 21, 0);
    fr_t *w = witness(&s, 21, 2, 0);
    assert_int_equal(r1cs_write_circuit(tmp_path("g.r1cs"), &c, s.n_constraints, &e), CUZK_OK);
    assert_int_equal(wtns_write_file(tmp_path("g.wtns"), w, s.n_vars, &e), CUZK_OK);
    r1cs_t r;
    wtns_t wt;
    if (r1cs_read(&r, tmp_path("g.r1cs"), &e) != CUZK_OK)
        fail_msg("r1cs_read: %s", e.msg);
    assert_int_equal(wtns_read(&wt, tmp_path("g.wtns"), 0, &e), CUZK_OK);
    assert_int_equal(wt.n, s.n_vars);
    assert_memory_equal(wt.w, w, (size_t)s.n_vars * sizeof *w);
    assert_int_equal(r.n_constraints, s.n_constraints);
    assert_int_equal(r.n_wires, c.n_vars);
    assert_int_equal(r.n_pub_in, c.n_public);
    for (int m = 0; m < 3; m++)
        for (uint32_t i = 0; i < s.n_constraints; i++) {
            uint64_t k0 = c.m[m].row_ptr[i], n0 = c.m[m].row_ptr[i + 1] - k0;
            assert_int_equal(r.m[m].row_ptr[i + 1] - r.m[m].row_ptr[i], n0);
            for (uint64_t t = 0; t < n0; t++) {
                uint64_t kr = r.m[m].row_ptr[i] + t;
                assert_int_equal(r.m[m].col[kr], c.m[m].col[k0 + t]);
                assert_true(fr_equal(&r.coef[r.m[m].coef[kr]], &c.dict[c.m[m].coef[k0 + t]]));
            }
        }
    int64_t bad = 0;
    assert_int_equal(r1cs_check_witness(&bad, &r, wt.w, wt.n, 0, &e), CUZK_OK);
    assert_int_equal(bad, -1);
    assert_int_equal(r1cs_write_circuit(tmp_path("x.r1cs"), &c, c.n_rows + 1, &e), CUZK_ERR_ARG);
    assert_int_equal(wtns_write_file("/nonexistent-dir/x.wtns", w, 1, &e), CUZK_ERR_IO);
    r1cs_free(&r);
    wtns_free(&wt);
    free(w);
    circuit_free(&c);
}

/* A K = 10 circuit of 2 partitions and its bellperson test key. */
static void small_key(circuit_t *c, gen_shape_t *s, groth16_key_t *k, groth16_pk_t *pk,
                      uint64_t seed)
{
    cuzk_error_t e = {0};
    make(c, s, 10, 2, 0);
    if (groth16_setup(k, c, GROTH16_BELLPERSON, seed, 0, &e) != CUZK_OK)
        fail_msg("groth16_setup: %s", e.msg);
    groth16_key_pk(pk, k);
}

static void test_prove_verify(void **state)
{
    (void)state;
    circuit_t c;
    gen_shape_t s;
    cuzk_error_t e = {0};
    groth16_key_t k;
    groth16_pk_t pk;
    small_key(&c, &s, &k, &pk, 99);
    for (uint32_t part = 0; part < 2; part++) {
        fr_t *w = witness(&s, 2, part, 0), r, sb;
        tu_rand_fr(&r);
        tu_rand_fr(&sb);
        groth16_proof_t proof;
        groth16_prove_opts_t opts = {.threads = 0};
        if (groth16_prove(&proof, &pk, &c, w, &r, &sb, &GROTH16_BACKEND_CPU, &opts, &e) != CUZK_OK)
            fail_msg("groth16_prove: %s", e.msg);
        int valid = 0;
        assert_int_equal(groth16_verify(&valid, &k.vk, &proof, &w[1], s.n_public, &e), CUZK_OK);
        assert_int_equal(valid, 1);
        fr_add(&w[1], &w[1], &FR_ONE);
        assert_int_equal(groth16_verify(&valid, &k.vk, &proof, &w[1], s.n_public, &e), CUZK_OK);
        assert_int_equal(valid, 0);
        free(w);
    }
    groth16_key_free(&k);
    circuit_free(&c);
}

/* A backend that takes packs (msms_packed): it expands the pack and runs
 * the CPU's stages over the vector, so the prover's handling of a pack
 * (w[0] and the public inputs read from it, the dispatch) is checked
 * against the whole vector's proof. */
static fr_t *gather_idx(const fr_t *w, const uint32_t *idx, size_t n)
{
    fr_t *s = malloc((n ? n : 1) * sizeof *s);
    assert_non_null(s);
    for (size_t k = 0; k < n; k++)
        s[k] = idx ? w[idx[k]] : w[k];
    return s;
}

static cuzk_status packed_msms(void *ctx, groth16_msms_t *out, const groth16_pk_t *pk,
                               const circuit_t *c, const fr_pack_t *pw, int need_b1, int threads,
                               cuzk_error_t *err)
{
    (*(int *)ctx)++;
    size_t m = (size_t)1 << pk->log_m;
    fr_t *w = malloc(pw->n * sizeof *w), *p = malloc(m * sizeof *p);
    assert_non_null(w);
    assert_non_null(p);
    assert_int_equal(fr_pack_expand(w, pw, threads), CUZK_OK);
    groth16_query_indices_t ix;
    assert_int_equal(groth16_query_indices(&ix, pk, c, err), CUZK_OK);
    assert_int_equal(
        GROTH16_BACKEND_CPU.h_scalars(NULL, p, c, w, pk->log_m, pk->conv, threads, err), CUZK_OK);
    fr_t *a = gather_idx(w, ix.a, ix.n_a), *b = gather_idx(w, ix.b, ix.n_b);
    assert_int_equal(msm_g1(&out->a, &pk->a.bases, a, ix.n_a, threads), CUZK_OK);
    assert_int_equal(msm_g2(&out->b2, &pk->b_g2.bases, b, ix.n_b, threads), CUZK_OK);
    if (need_b1)
        assert_int_equal(msm_g1(&out->b1, &pk->b_g1.bases, b, ix.n_b, threads), CUZK_OK);
    assert_int_equal(msm_g1(&out->l, &pk->l.bases, &w[pk->n_public + 1], ix.n_l, threads), CUZK_OK);
    assert_int_equal(msm_g1(&out->h, &pk->h.bases, p, pk->h.n, threads), CUZK_OK);
    groth16_query_indices_free(&ix);
    free(a);
    free(b);
    free(p);
    free(w);
    return CUZK_OK;
}

/* groth16_prove_packed gives the whole vector's proof, through a backend
 * that takes packs and through the CPU's (expanded on the host), and
 * verifies (its public inputs read from the pack); a pack of the wrong
 * length is refused. */
static void test_prove_packed(void **state)
{
    (void)state;
    circuit_t c;
    gen_shape_t s;
    cuzk_error_t e = {0};
    groth16_key_t k;
    groth16_pk_t pk;
    small_key(&c, &s, &k, &pk, 77);
    int calls = 0;
    groth16_backend_t takes = GROTH16_BACKEND_CPU;
    takes.ctx = &calls;
    takes.msms_packed = packed_msms;
    fr_t *w = witness(&s, 2, 1, 0), r, sb;
    tu_rand_fr(&r);
    tu_rand_fr(&sb);
    fr_pack_t pw;
    assert_int_equal(fr_pack_make(&pw, w, pk.n_vars, 0, &e), CUZK_OK);
    assert_true(pw.n_full > 0 && pw.bytes * 4 < (size_t)pk.n_vars * sizeof(fr_t));
    groth16_prove_opts_t opts = {.threads = 0};
    groth16_proof_t want, got;
    assert_int_equal(groth16_prove(&want, &pk, &c, w, &r, &sb, &GROTH16_BACKEND_CPU, &opts, &e),
                     CUZK_OK);
    const groth16_backend_t *bes[2] = {&takes, &GROTH16_BACKEND_CPU};
    for (int i = 0; i < 2; i++) {
        if (groth16_prove_packed(&got, &pk, &c, &pw, &r, &sb, bes[i], &opts, &e) != CUZK_OK)
            fail_msg("groth16_prove_packed (%s): %s", i ? "expanded" : "msms_packed", e.msg);
        assert_true(g1_affine_equal(&got.a, &want.a) && g2_affine_equal(&got.b, &want.b) &&
                    g1_affine_equal(&got.c, &want.c));
    }
    assert_int_equal(calls, 1);
    fr_pack_free(&pw);
    assert_int_equal(fr_pack_make(&pw, w, pk.n_vars - 1, 0, &e), CUZK_OK);
    assert_int_equal(groth16_prove_packed(&got, &pk, &c, &pw, &r, &sb, &takes, &opts, &e),
                     CUZK_ERR_ARG);
    assert_non_null(strstr(e.msg, "packed witness"));
    fr_pack_free(&pw);
    free(w);
    groth16_key_free(&k);
    circuit_free(&c);
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk_test_gen_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    const char *names[] = {"d1.ccs", "d2.ccs", "r.ccs", "bad.ccs", "g.r1cs", "g.wtns"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(tmp_path(names[i]));
    return rmdir(g_dir);
}

/* CUZK_TEST_ONLY=<name> runs one test. */
int main(void)
{
    tu_init("test_gen");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_satisfied),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_ccs_roundtrip),
        cmocka_unit_test(test_ccs_rejects),
        cmocka_unit_test(test_r1cs_wtns_roundtrip),
        cmocka_unit_test(test_prove_verify),
        cmocka_unit_test(test_prove_packed),
    };
    const char *only = getenv("CUZK_TEST_ONLY");
    if (only && *only)
        cmocka_set_test_filter(only);
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
