/* snarkjs/circom formats: .r1cs, .wtns, .zkey and the JSON files, on the
 * shared reference cases (../shared/testdata/snarkjs, values from its
 * README), cross-checked against each other (zkey section 4 against the r1cs,
 * the zkey's verifying key against verification_key.json, public.json
 * against the witness), byte-exact JSON round trips, and every rejection
 * path: each must return an error code with a message and never crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "cuzk/decimal.h"
#include "cuzk/encode.h"
#include "cuzk/pairing.h"
#include "cuzk/r1cs.h"
#include "cuzk/snarkjs_json.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"

#define CASE_DIR CUZK_TESTDATA_DIR "/snarkjs/"
#define MUL(f) CASE_DIR "multiplier/" f
#define SHA(f) CASE_DIR "sha256_64/" f

/* ---- helpers ---------------------------------------------------------- */

typedef struct buf {
    uint8_t *p;
    size_t n;
} buf_t;

static buf_t load(const char *path)
{
    buf_t b = {NULL, 0};
    b.p = tu_read_file(path, &b.n);
    if (!b.p)
        fail_msg("cannot read %s", path);
    return b;
}

static buf_t copy(const buf_t *b)
{
    buf_t c = {malloc(b->n ? b->n : 1), b->n};
    assert_non_null(c.p);
    memcpy(c.p, b->p, b->n);
    return c;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Offset of the body of the first section with this id (its u32 id sits 12
 * bytes before); fails the test when absent. */
static size_t section_at(const buf_t *b, uint32_t id, uint64_t *size)
{
    size_t pos = 12;
    for (uint32_t i = 0, n = get32(b->p + 8); i < n; i++) {
        uint32_t sid = get32(b->p + pos);
        uint64_t sz = get64(b->p + pos + 4);
        if (sid == id) {
            if (size)
                *size = sz;
            return pos + 12;
        }
        pos += 12 + (size_t)sz;
    }
    fail_msg("section %u not found", id);
    return 0;
}

static void put_r(uint8_t *p)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            p[8 * i + j] = (uint8_t)(FR_MODULUS[i] >> (8 * j));
}

/* BN254's scalar field r, little-endian. */
static void put_bn254_r(uint8_t *p)
{
    static const char *hex = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * (31 - i), "%2x", &v);
        p[i] = (uint8_t)v;
    }
}

static void expect_fail(cuzk_status st, const cuzk_error_t *e, cuzk_status want, const char *sub)
{
    if (st != want || e->code != want || e->msg[0] == '\0' || (sub && !strstr(e->msg, sub)))
        fail_msg("expected status %d with \"%s\", got %d: %s", (int)want, sub ? sub : "", (int)st,
                 e->msg);
}

typedef enum fmt { F_R1CS, F_WTNS, F_ZKEY } fmt_t;

/* Parses a buffer with the reader for fmt, freeing whatever it built. */
static cuzk_status parse_any(fmt_t f, const buf_t *b, zkey_check chk, cuzk_error_t *e)
{
    cuzk_status st;
    e->code = CUZK_OK;
    e->msg[0] = '\0';
    if (f == F_R1CS) {
        r1cs_t r;
        st = r1cs_read_mem(&r, b->p, b->n, "t.r1cs", e);
        r1cs_free(&r);
    } else if (f == F_WTNS) {
        wtns_t w;
        st = wtns_read_mem(&w, b->p, b->n, "t.wtns", 1, e);
        wtns_free(&w);
    } else {
        zkey_t z;
        st = zkey_open_mem(&z, b->p, b->n, "t.zkey", chk, 1, e);
        zkey_close(&z);
    }
    return st;
}

static void expect_parse_fail(fmt_t f, const buf_t *b, cuzk_status want, const char *sub)
{
    cuzk_error_t e;
    expect_fail(parse_any(f, b, ZKEY_CHECK_ALL, &e), &e, want, sub);
}

static size_t count_inf(const zkey_points_t *p, size_t elem)
{
    size_t n = 0;
    static const uint8_t zero[G2_LEM_BYTES];
    for (uint64_t i = 0; i < p->count; i++)
        n += memcmp(p->data + i * elem, zero, elem) == 0;
    return n;
}

/* ---- the reference cases ---------------------------------------------- */

typedef struct expect {
    const char *r1cs, *wtns, *zkey, *pub;
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    uint32_t n_public, domain;
    size_t inf_a, inf_b;
} expect_t;

static const expect_t multiplier = {MUL("multiplier.r1cs"),
                                    MUL("witness.wtns"),
                                    MUL("multiplier.zkey"),
                                    MUL("public.json"),
                                    7,
                                    1,
                                    1,
                                    1,
                                    4,
                                    8,
                                    2,
                                    8,
                                    (size_t)-1,
                                    5};
static const expect_t sha256 = {SHA("sha256_64.r1cs"),
                                SHA("witness.wtns"),
                                SHA("sha256_64.zkey"),
                                SHA("public.json"),
                                62483,
                                2,
                                0,
                                64,
                                63106,
                                409429,
                                2,
                                65536,
                                23232,
                                41027};

static void check_case(const expect_t *x, zkey_check chk)
{
    cuzk_error_t e = {CUZK_OK, ""};
    r1cs_t r;
    wtns_t w;
    zkey_t z;
    if (r1cs_read(&r, x->r1cs, &e) != CUZK_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(r.n_wires, x->n_wires);
    assert_int_equal(r.n_pub_out, x->n_pub_out);
    assert_int_equal(r.n_pub_in, x->n_pub_in);
    assert_int_equal(r.n_prv_in, x->n_prv_in);
    assert_int_equal(r.n_labels, x->n_labels);
    assert_int_equal(r.n_constraints, x->n_constraints);
    assert_true(r.n_coef >= 2 && fr_is_one(&r.coef[R1CS_COEF_ONE]));

    if (wtns_read(&w, x->wtns, 0, &e) != CUZK_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(w.n, x->n_wires);
    assert_true(fr_is_one(&w.w[0]));

    /* The witness satisfies the system; a changed value breaks it. */
    int64_t bad = 0;
    assert_int_equal(r1cs_check_witness(&bad, &r, w.w, w.n, 0, &e), CUZK_OK);
    assert_int_equal(bad, -1);
    fr_t keep = w.w[w.n - 1];
    fr_add(&w.w[w.n - 1], &w.w[w.n - 1], &FR_ONE);
    assert_int_equal(r1cs_check_witness(&bad, &r, w.w, w.n, 0, &e), CUZK_OK);
    assert_true(bad >= 0 && bad < (int64_t)r.n_constraints);
    /* The reported one fails and every earlier one holds. */
    for (int64_t i = 0; i <= bad; i++) {
        fr_t a, b, c;
        assert_int_equal(r1cs_eval(&a, &r, R1CS_A, w.w, w.n, (uint32_t)i, (uint32_t)i + 1, &e), 0);
        assert_int_equal(r1cs_eval(&b, &r, R1CS_B, w.w, w.n, (uint32_t)i, (uint32_t)i + 1, &e), 0);
        assert_int_equal(r1cs_eval(&c, &r, R1CS_C, w.w, w.n, (uint32_t)i, (uint32_t)i + 1, &e), 0);
        fr_mul(&a, &a, &b);
        assert_int_equal(fr_equal(&a, &c), i < bad);
    }
    int64_t bad1 = 0;
    assert_int_equal(r1cs_check_witness(&bad1, &r, w.w, w.n, 1, &e), CUZK_OK);
    assert_int_equal(bad1, bad); /* threads do not change the answer */
    w.w[w.n - 1] = keep;
    printf("  %s: changed w[%u] fails at constraint %lld\n", x->r1cs, w.n - 1, (long long)bad);
    /* Argument checks. */
    expect_fail(r1cs_check_witness(&bad, &r, w.w, w.n - 1, 0, &e), &e, CUZK_ERR_ARG, "witness");
    w.w[0] = FR_ZERO;
    expect_fail(r1cs_check_witness(&bad, &r, w.w, w.n, 0, &e), &e, CUZK_ERR_ARG, "w[0]");
    w.w[0] = FR_ONE;

    if (zkey_open(&z, x->zkey, chk, 0, &e) != CUZK_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(z.n_vars, x->n_wires);
    assert_int_equal(z.n_public, x->n_public);
    assert_int_equal(z.domain_size, x->domain);
    assert_int_equal(1u << z.log_domain, z.domain_size);
    assert_int_equal(z.n_ic, x->n_public + 1);
    assert_int_equal(z.a.count, z.n_vars);
    assert_int_equal(z.b1.count, z.n_vars);
    assert_int_equal(z.b2.count, z.n_vars);
    assert_int_equal(z.c.count, z.n_vars - z.n_public - 1);
    assert_int_equal(z.h.count, z.domain_size);
    if (x->inf_a != (size_t)-1)
        assert_int_equal(count_inf(&z.a, G1_LEM_BYTES), x->inf_a);
    assert_int_equal(count_inf(&z.b1, G1_LEM_BYTES), x->inf_b);
    assert_int_equal(count_inf(&z.b2, G2_LEM_BYTES), x->inf_b);
    assert_true(g2_affine_equal(&z.gamma_g2, &G2_GENERATOR));
    /* The MSM view reads the same bytes. */
    msm_bases_t mb = zkey_bases(&z.a);
    assert_ptr_equal(mb.data, z.a.data);
    assert_int_equal(mb.fmt, MSM_BASES_LEM);

    /* public.json = w[1 .. nPublic]. */
    fr_t *pub = NULL;
    size_t n_pub = 0;
    if (snarkjs_public_read(&pub, &n_pub, x->pub, &e) != CUZK_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(n_pub, z.n_public);
    for (size_t i = 0; i < n_pub; i++)
        assert_true(fr_equal(&pub[i], &w.w[1 + i]));
    free(pub);

    zkey_close(&z);
    zkey_close(&z); /* harmless twice */
    wtns_free(&w);
    r1cs_free(&r);
    r1cs_free(&r);
}

static void test_multiplier(void **state)
{
    (void)state;
    check_case(&multiplier, ZKEY_CHECK_ALL);
}

static void test_sha256_64(void **state)
{
    (void)state;
    check_case(&sha256, ZKEY_CHECK_HEADER);
}

/* Every point of sections 5-9 on the curve and in the subgroup: ~300k
 * subgroup checks, about 20 s of CPU optimised and ten times that in the
 * unoptimised sanitizer build, where it runs only with CUZK_TEST_SLOW=1. */
static void test_sha256_64_checked(void **state)
{
    (void)state;
#ifndef __OPTIMIZE__
    const char *slow = getenv("CUZK_TEST_SLOW");
    if (!slow || strcmp(slow, "1") != 0) {
        printf("  unoptimised build: skipped (CUZK_TEST_SLOW=1 runs it)\n");
        skip();
    }
#endif
    zkey_t z;
    cuzk_error_t e = {CUZK_OK, ""};
    if (zkey_open(&z, SHA("sha256_64.zkey"), ZKEY_CHECK_ALL, 0, &e) != CUZK_OK)
        fail_msg("%s", e.msg);
    zkey_close(&z);
}

/* ---- zkey section 4 against the r1cs ---------------------------------- */

typedef struct entry {
    uint32_t matrix, row, wire;
    uint64_t v[4]; /* plain value */
} entry_t;

static int entry_cmp(const void *pa, const void *pb)
{
    const entry_t *a = pa, *b = pb;
    if (a->matrix != b->matrix)
        return a->matrix < b->matrix ? -1 : 1;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    if (a->wire != b->wire)
        return a->wire < b->wire ? -1 : 1;
    return memcmp(a->v, b->v, sizeof a->v);
}

/* snarkjs groth16 setup copies A and B of constraint i to row i and adds
 * A = 1 * w_s at row nConstraints + s for s = 0..nPublic. Checks our
 * decoding of the doubly-Montgomery values against the r1cs's plain ones. */
static void check_coefs_match(const char *r1cs_path, const char *zkey_path)
{
    cuzk_error_t e = {CUZK_OK, ""};
    r1cs_t r;
    zkey_t z;
    assert_int_equal(r1cs_read(&r, r1cs_path, &e), CUZK_OK);
    assert_int_equal(zkey_open(&z, zkey_path, ZKEY_CHECK_HEADER, 0, &e), CUZK_OK);
    size_t n_ref = (size_t)(r.m[R1CS_A].nnz + r.m[R1CS_B].nnz) + z.n_public + 1;
    assert_int_equal(z.n_coefs, n_ref);
    entry_t *ref = malloc(n_ref * sizeof *ref), *got = malloc(n_ref * sizeof *got);
    zkey_coef_t *zc = malloc(n_ref * sizeof *zc);
    assert_true(ref && got && zc);
    size_t k = 0;
    for (int m = 0; m < 2; m++)
        for (uint32_t i = 0; i < r.n_constraints; i++)
            for (uint64_t t = r.m[m].row_ptr[i]; t < r.m[m].row_ptr[i + 1]; t++) {
                ref[k] = (entry_t){(uint32_t)m, i, r.m[m].col[t], {0}};
                fr_to_limbs(ref[k].v, &r.coef[r.m[m].coef[t]]);
                k++;
            }
    for (uint32_t s = 0; s <= z.n_public; s++)
        ref[k++] = (entry_t){ZKEY_A, r.n_constraints + s, s, {1, 0, 0, 0}};
    assert_int_equal(zkey_coefs_get(zc, &z, 0, z.n_coefs), CUZK_OK);
    for (size_t i = 0; i < n_ref; i++) {
        got[i] = (entry_t){zc[i].matrix, zc[i].row, zc[i].wire, {0}};
        fr_to_limbs(got[i].v, &zc[i].value);
    }
    qsort(ref, n_ref, sizeof *ref, entry_cmp);
    qsort(got, n_ref, sizeof *got, entry_cmp);
    for (size_t i = 0; i < n_ref; i++)
        if (entry_cmp(&ref[i], &got[i]) != 0)
            fail_msg("entry %zu: r1cs (%u,%u,%u) zkey (%u,%u,%u)", i, ref[i].matrix, ref[i].row,
                     ref[i].wire, got[i].matrix, got[i].row, got[i].wire);
    /* Chunked reads agree with the whole read; out-of-range ones refuse. */
    zkey_coef_t one;
    assert_int_equal(zkey_coefs_get(&one, &z, z.n_coefs - 1, 1), CUZK_OK);
    assert_true(fr_equal(&one.value, &zc[z.n_coefs - 1].value));
    assert_int_equal(zkey_coefs_get(&one, &z, z.n_coefs, 1), CUZK_ERR_ARG);
    assert_int_equal(zkey_coefs_get(&one, &z, UINT64_MAX, 2), CUZK_ERR_ARG);
    free(ref);
    free(got);
    free(zc);
    zkey_close(&z);
    r1cs_free(&r);
}

static void test_zkey_coefs_match_r1cs(void **state)
{
    (void)state;
    check_coefs_match(MUL("multiplier.r1cs"), MUL("multiplier.zkey"));
    check_coefs_match(SHA("sha256_64.r1cs"), SHA("sha256_64.zkey"));
}

/* ---- JSON ------------------------------------------------------------- */

static void check_same_text(const char *path, const char *text, size_t len)
{
    buf_t f = load(path);
    if (f.n != len || memcmp(f.p, text, len) != 0) {
        size_t i = 0;
        while (i < len && i < f.n && f.p[i] == (uint8_t)text[i])
            i++;
        fail_msg("%s: differs at byte %zu (file %zu bytes, ours %zu)", path, i, f.n, len);
    }
    free(f.p);
}

static void check_json_case(const char *dir)
{
    char path[512];
    cuzk_error_t e = {CUZK_OK, ""};
    char *text;
    size_t len;
    static const char *proofs[] = {"proof.json", "proof_rs0.json"};
    for (int i = 0; i < 2; i++) {
        groth16_proof_t p;
        snprintf(path, sizeof path, "%s/%s", dir, proofs[i]);
        if (snarkjs_proof_read(&p, path, &e) != CUZK_OK)
            fail_msg("%s", e.msg);
        assert_int_equal(snarkjs_proof_format(&text, &len, &p, &e), CUZK_OK);
        check_same_text(path, text, len);
        free(text);
    }
    static const char *pubs[] = {"public.json", "public_rs0.json"};
    for (int i = 0; i < 2; i++) {
        fr_t *v;
        size_t n;
        snprintf(path, sizeof path, "%s/%s", dir, pubs[i]);
        if (snarkjs_public_read(&v, &n, path, &e) != CUZK_OK)
            fail_msg("%s", e.msg);
        assert_int_equal(snarkjs_public_format(&text, &len, v, n, &e), CUZK_OK);
        check_same_text(path, text, len);
        free(text);
        free(v);
    }
    groth16_vk_t vk;
    snprintf(path, sizeof path, "%s/verification_key.json", dir);
    if (snarkjs_vk_read(&vk, path, &e) != CUZK_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(snarkjs_vk_format(&text, &len, &vk, &e), CUZK_OK);
    check_same_text(path, text, len);
    free(text);

    /* The zkey's verifying key is the JSON one, and prints identically. */
    groth16_vk_t zvk;
    zkey_t z;
    char zpath[512];
    const char *base = strrchr(dir, '/') + 1;
    snprintf(zpath, sizeof zpath, "%s/%s.zkey", dir, base);
    assert_int_equal(zkey_open(&z, zpath, ZKEY_CHECK_HEADER, 0, &e), CUZK_OK);
    assert_int_equal(zkey_to_vk(&zvk, &z, &e), CUZK_OK);
    zkey_close(&z);
    assert_true(g1_affine_equal(&zvk.alpha_g1, &vk.alpha_g1));
    assert_true(g2_affine_equal(&zvk.beta_g2, &vk.beta_g2));
    assert_true(g2_affine_equal(&zvk.gamma_g2, &vk.gamma_g2));
    assert_true(g2_affine_equal(&zvk.delta_g2, &vk.delta_g2));
    assert_int_equal(zvk.n_ic, vk.n_ic);
    for (size_t i = 0; i < vk.n_ic; i++)
        assert_true(g1_affine_equal(&zvk.ic[i], &vk.ic[i]));
    assert_int_equal(snarkjs_vk_format(&text, &len, &zvk, &e), CUZK_OK);
    check_same_text(path, text, len);
    free(text);

    /* Through files as well. */
    char tmp[] = "/tmp/cuzk_fmt_XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(snarkjs_vk_write(tmp, &zvk, &e), CUZK_OK);
    buf_t back = load(tmp);
    check_same_text(path, (const char *)back.p, back.n);
    free(back.p);
    groth16_proof_t p;
    snprintf(path, sizeof path, "%s/proof_rs0.json", dir);
    assert_int_equal(snarkjs_proof_read(&p, path, &e), CUZK_OK);
    assert_int_equal(snarkjs_proof_write(tmp, &p, &e), CUZK_OK);
    back = load(tmp);
    check_same_text(path, (const char *)back.p, back.n);
    free(back.p);
    fr_t *v;
    size_t n;
    snprintf(path, sizeof path, "%s/public.json", dir);
    assert_int_equal(snarkjs_public_read(&v, &n, path, &e), CUZK_OK);
    assert_int_equal(snarkjs_public_write(tmp, v, n, &e), CUZK_OK);
    back = load(tmp);
    check_same_text(path, (const char *)back.p, back.n);
    free(back.p);
    free(v);
    unlink(tmp);
    groth16_vk_free(&vk);
    groth16_vk_free(&zvk);
}

static void test_json_roundtrip(void **state)
{
    (void)state;
    check_json_case(CASE_DIR "multiplier");
    check_json_case(CASE_DIR "sha256_64");
}

static void test_json_edge_writers(void **state)
{
    (void)state;
    cuzk_error_t e = {CUZK_OK, ""};
    char *text;
    size_t len;
    assert_int_equal(snarkjs_public_format(&text, &len, NULL, 0, &e), CUZK_OK);
    assert_string_equal(text, "[]");
    fr_t *v = (fr_t *)1;
    size_t n = 7;
    assert_int_equal(snarkjs_public_parse(&v, &n, text, len, NULL, &e), CUZK_OK);
    assert_null(v);
    assert_int_equal(n, 0);
    free(text);
    /* Infinity round-trips as ["0","1","0"]. */
    groth16_proof_t p, q;
    g1_affine_set_inf(&p.a);
    g2_affine_set_inf(&p.b);
    p.c = G1_GENERATOR;
    assert_int_equal(snarkjs_proof_format(&text, &len, &p, &e), CUZK_OK);
    assert_non_null(strstr(text, "\"pi_a\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ]"));
    assert_int_equal(snarkjs_proof_parse(&q, text, len, NULL, &e), CUZK_OK);
    assert_true(g1_affine_is_inf(&q.a) && g2_affine_is_inf(&q.b));
    assert_true(g1_affine_equal(&q.c, &G1_GENERATOR));
    free(text);
    groth16_vk_t vk = {0};
    expect_fail(snarkjs_vk_format(&text, &len, &vk, &e), &e, CUZK_ERR_ARG, NULL);
}

/* Replaces the first occurrence of `from` in the file's text by `to` and
 * parses the result with the given reader (0 proof, 1 public, 2 vk). */
static cuzk_status json_edit(int kind, const char *path, const char *from, const char *to,
                             cuzk_error_t *e)
{
    buf_t f = load(path);
    char *s = malloc(f.n + strlen(to) + 1);
    assert_non_null(s);
    memcpy(s, f.p, f.n);
    s[f.n] = '\0';
    char *at = strstr(s, from);
    assert_non_null(at);
    size_t pre = (size_t)(at - s), fl = strlen(from), tl = strlen(to);
    memmove(at + tl, at + fl, f.n - pre - fl + 1);
    memcpy(at, to, tl);
    size_t n = f.n - fl + tl;
    cuzk_status st;
    e->code = CUZK_OK;
    e->msg[0] = '\0';
    if (kind == 0) {
        groth16_proof_t p;
        st = snarkjs_proof_parse(&p, s, n, NULL, e);
    } else if (kind == 1) {
        fr_t *v = NULL;
        size_t cnt;
        st = snarkjs_public_parse(&v, &cnt, s, n, NULL, e);
        free(v);
    } else {
        groth16_vk_t vk;
        st = snarkjs_vk_parse(&vk, s, n, NULL, e);
        if (st == CUZK_OK)
            groth16_vk_free(&vk);
    }
    free(s);
    free(f.p);
    return st;
}

static void test_json_rejects(void **state)
{
    (void)state;
    cuzk_error_t e;
    const char *proof = MUL("proof.json"), *pub = MUL("public.json"),
               *vk = MUL("verification_key.json");
    /* The first digits of pi_a.x, pi_b.x.c0, vk_alpha_1.x. */
    expect_fail(json_edit(0, proof, "{", "[", &e), &e, CUZK_ERR_PARSE, "JSON");
    expect_fail(json_edit(0, proof, "\"pi_a\"", "\"pi_q\"", &e), &e, CUZK_ERR_PARSE, "pi_a");
    expect_fail(json_edit(0, proof, "\"3255104", "\"3255105", &e), &e, CUZK_ERR_NOT_ON_CURVE,
                "pi_a");
    expect_fail(json_edit(0, proof, "\"1683136", "\"1683137", &e), &e, CUZK_ERR_NOT_ON_CURVE,
                "pi_b");
    expect_fail(json_edit(0, proof, "\"6415233", "\"x415233", &e), &e, CUZK_ERR_PARSE, "pi_c");
    expect_fail(json_edit(0, proof, "\"6415233",
                          "\"9999999999999999999999999999999999999999999"
                          "99999999999999999999999999999999999999999999"
                          "99999999999999999999999999999999",
                          &e),
                &e, CUZK_ERR_NONCANONICAL, "pi_c");
    expect_fail(json_edit(0, proof, "\"bls12381\"", "\"bn128\"", &e), &e, CUZK_ERR_UNSUPPORTED,
                "curve");
    expect_fail(json_edit(0, proof, "\"groth16\"", "\"plonk\"", &e), &e, CUZK_ERR_UNSUPPORTED,
                "protocol");
    expect_fail(json_edit(0, proof, "\"1\"\n ],\n \"pi_b\"", "\"2\"\n ],\n \"pi_b\"", &e), &e,
                CUZK_ERR_FORMAT, "pi_a");
    expect_fail(json_edit(0, proof, "[\n   \"1\",\n   \"0\"\n  ]", "[\n   \"1\"\n  ]", &e), &e,
                CUZK_ERR_PARSE, "pi_b");
    expect_fail(json_edit(0, proof, "}", "", &e), &e, CUZK_ERR_PARSE, NULL);
    expect_fail(json_edit(1, pub, "\"1034\"", "1034", &e), &e, CUZK_ERR_PARSE, "value 0");
    expect_fail(json_edit(1, pub, "\"11\"",
                          "\"52435875175126190479447740508185965837690552500527637822603658699938"
                          "581184513\"",
                          &e),
                &e, CUZK_ERR_NONCANONICAL, "value 1");
    expect_fail(json_edit(1, pub, "[", "{", &e), &e, CUZK_ERR_PARSE, NULL);
    expect_fail(json_edit(2, vk, "\"nPublic\": 2", "\"nPublic\": 3", &e), &e, CUZK_ERR_FORMAT,
                "nPublic");
    expect_fail(json_edit(2, vk, "\"nPublic\": 2", "\"nPublic\": 2.5", &e), &e, CUZK_ERR_FORMAT,
                "nPublic");
    expect_fail(json_edit(2, vk, "\"nPublic\": 2", "\"nPublic\": \"2\"", &e), &e, CUZK_ERR_PARSE,
                "nPublic");
    expect_fail(json_edit(2, vk, "\"curve\": \"bls12381\",", "", &e), &e, CUZK_ERR_PARSE, "curve");
    expect_fail(json_edit(2, vk, "\"3753958", "\"3753959", &e), &e, CUZK_ERR_NOT_ON_CURVE,
                "vk_alpha_1");
    expect_fail(json_edit(2, vk, "\"1152542", "\"1152543", &e), &e, CUZK_ERR_FORMAT,
                "vk_alphabeta_12");
    expect_fail(json_edit(2, vk, "\"1039299", "\"1039298", &e), &e, CUZK_ERR_NOT_ON_CURVE, "IC[0]");
    /* vk_alphabeta_12 is optional; IC is not. */
    cuzk_error_t ok;
    assert_int_equal(json_edit(2, vk, "\"vk_alphabeta_12\"", "\"unused\"", &ok), CUZK_OK);
    expect_fail(json_edit(2, vk, "\"IC\"", "\"ic\"", &e), &e, CUZK_ERR_PARSE, "IC");

    /* A point on the curve but outside the subgroup. */
    g1_affine_t bad;
    tu_rand_g1_off_subgroup(&bad);
    groth16_proof_t p = {bad, G2_GENERATOR, G1_GENERATOR};
    char *text;
    size_t len;
    assert_int_equal(snarkjs_proof_format(&text, &len, &p, &e), CUZK_OK);
    expect_fail(snarkjs_proof_parse(&p, text, len, "x.json", &e), &e, CUZK_ERR_NOT_IN_SUBGROUP,
                "x.json: pi_a");
    free(text);

    /* Files. */
    expect_fail(snarkjs_proof_read(&p, "/nonexistent/proof.json", &e), &e, CUZK_ERR_IO,
                "/nonexistent/proof.json");
    expect_fail(snarkjs_proof_parse(&p, "", 0, NULL, &e), &e, CUZK_ERR_PARSE, NULL);
    expect_fail(snarkjs_proof_write("/nonexistent/dir/proof.json", &p, &e), &e, CUZK_ERR_IO, NULL);
}

/* ---- rejection of binary files ---------------------------------------- */

static void truncations(fmt_t f, const char *path)
{
    buf_t b = load(path);
    cuzk_error_t e;
    for (size_t n = 0; n < b.n; n++) {
        buf_t t = {b.p, n};
        cuzk_status st = parse_any(f, &t, ZKEY_CHECK_ALL, &e);
        if (st == CUZK_OK || e.code != st || e.msg[0] == '\0')
            fail_msg("%s truncated to %zu bytes: status %d: %s", path, n, (int)st, e.msg);
    }
    /* Extra bytes at the end are refused too. */
    buf_t x = {malloc(b.n + 1), b.n + 1};
    memcpy(x.p, b.p, b.n);
    x.p[b.n] = 0;
    expect_parse_fail(f, &x, CUZK_ERR_FORMAT, "trailing");
    free(x.p);
    free(b.p);
}

static void test_truncated(void **state)
{
    (void)state;
    truncations(F_R1CS, MUL("multiplier.r1cs"));
    truncations(F_WTNS, MUL("witness.wtns"));
    truncations(F_ZKEY, MUL("multiplier.zkey"));
}

/* Flips every bit of the container header, each section header and the
 * format's header section: either a clean error or a valid parse. */
static void flips(fmt_t f, const char *path, uint32_t header_id)
{
    buf_t b = load(path);
    uint64_t hsize;
    size_t h = section_at(&b, header_id, &hsize);
    size_t n_fail = 0, n_ok = 0;
    cuzk_error_t e;
    for (size_t i = 0; i < b.n; i++) {
        int in_table = i < 12;
        size_t pos = 12;
        for (uint32_t s = 0; s < get32(b.p + 8); s++) {
            in_table |= i >= pos && i < pos + 12;
            pos += 12 + (size_t)get64(b.p + pos + 4);
        }
        if (!in_table && !(i >= h && i < h + hsize))
            continue;
        /* zkey header points: one byte per coordinate (the point tests
         * cover the rest; every flip costs nine subgroup checks). */
        if (f == F_ZKEY && !in_table && i - h >= 100 && (i - h - 100) % 48 != 0)
            continue;
        for (int bit = 0; bit < 8; bit++) {
            b.p[i] ^= (uint8_t)(1u << bit);
            cuzk_status st = parse_any(f, &b, ZKEY_CHECK_HEADER, &e);
            b.p[i] ^= (uint8_t)(1u << bit);
            if (st != CUZK_OK && (e.code != st || e.msg[0] == '\0'))
                fail_msg("%s: flip at %zu.%d: status %d without message", path, i, bit, (int)st);
            if (st == CUZK_OK)
                n_ok++;
            else
                n_fail++;
        }
    }
    printf("  %s: %zu header bit flips rejected, %zu harmless\n", path, n_fail, n_ok);
    assert_true(n_fail > 0);
    free(b.p);
}

static void test_flipped_headers(void **state)
{
    (void)state;
    flips(F_R1CS, MUL("multiplier.r1cs"), 1);
    flips(F_WTNS, MUL("witness.wtns"), 1);
    flips(F_ZKEY, MUL("multiplier.zkey"), 2);
}

static void test_container_rejects(void **state)
{
    (void)state;
    static const struct {
        fmt_t f;
        const char *path;
        uint32_t version;
    } files[3] = {{F_R1CS, MUL("multiplier.r1cs"), 1},
                  {F_WTNS, MUL("witness.wtns"), 2},
                  {F_ZKEY, MUL("multiplier.zkey"), 1}};
    for (int k = 0; k < 3; k++) {
        buf_t b = load(files[k].path), c;
        /* Empty. */
        buf_t empty = {b.p, 0};
        expect_parse_fail(files[k].f, &empty, CUZK_ERR_FORMAT, "empty");
        /* Wrong magic (another format's). */
        c = copy(&b);
        memcpy(c.p, k == 0 ? "wtns" : "r1cs", 4);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "magic");
        c.p[0] = 0xff;
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "\\xff");
        free(c.p);
        /* Unknown version. */
        c = copy(&b);
        put32(c.p + 4, files[k].version + 1);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_UNSUPPORTED, "version");
        free(c.p);
        /* Section count too large for the file. */
        c = copy(&b);
        put32(c.p + 8, 0xffffffffu);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "sections");
        put32(c.p + 8, get32(b.p + 8) + 1);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "past the end");
        put32(c.p + 8, get32(b.p + 8) - 1);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "trailing");
        free(c.p);
        /* A section size that runs past the end, and one near 2^64. */
        c = copy(&b);
        for (int j = 0; j < 8; j++)
            c.p[16 + j] = 0xff;
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "remain");
        c.p[16] = 0xf0;
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "remain");
        free(c.p);
        /* Missing header section: its id renamed. */
        c = copy(&b);
        uint32_t hid = files[k].f == F_ZKEY ? 2 : 1;
        put32(c.p + section_at(&c, hid, NULL) - 12, 99);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "missing");
        free(c.p);
        /* Duplicate header section: appended again. */
        uint64_t hs;
        size_t ho = section_at(&b, hid, &hs);
        c = (buf_t){malloc(b.n + 12 + hs), b.n + 12 + hs};
        memcpy(c.p, b.p, b.n);
        memcpy(c.p + b.n, b.p + ho - 12, 12 + hs);
        put32(c.p + 8, get32(b.p + 8) + 1);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_FORMAT, "more than once");
        free(c.p);
        /* Wrong prime: BN254 r where r belongs (zkey: the scalar prime). */
        c = copy(&b);
        size_t po = section_at(&c, hid, NULL) + (files[k].f == F_ZKEY ? 4 + 48 + 4 : 4);
        put_bn254_r(c.p + po);
        expect_parse_fail(files[k].f, &c, CUZK_ERR_UNSUPPORTED, "BN254");
        c.p[po] ^= 0x40; /* no longer a known prime */
        expect_parse_fail(files[k].f, &c, CUZK_ERR_UNSUPPORTED, "prime");
        put32(c.p + po - 4, 8); /* n8 = 8 */
        expect_parse_fail(files[k].f, &c, CUZK_ERR_UNSUPPORTED, "size");
        free(c.p);
        free(b.p);
    }
    /* Files that are not there or not regular. */
    cuzk_error_t e;
    r1cs_t r;
    wtns_t w;
    zkey_t z;
    expect_fail(r1cs_read(&r, "/nonexistent.r1cs", &e), &e, CUZK_ERR_IO, "/nonexistent.r1cs");
    expect_fail(wtns_read(&w, "/tmp", 1, &e), &e, CUZK_ERR_IO, "regular");
    expect_fail(zkey_open(&z, "/nonexistent.zkey", ZKEY_CHECK_HEADER, 1, &e), &e, CUZK_ERR_IO,
                NULL);
    char tmp[] = "/tmp/cuzk_fmt_XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    expect_fail(zkey_open(&z, tmp, ZKEY_CHECK_HEADER, 1, &e), &e, CUZK_ERR_FORMAT, "empty");
    expect_fail(r1cs_read(&r, tmp, &e), &e, CUZK_ERR_FORMAT, "empty");
    unlink(tmp);
}

static void test_r1cs_rejects(void **state)
{
    (void)state;
    buf_t b = load(MUL("multiplier.r1cs")), c;
    size_t s2 = section_at(&b, 2, NULL), s1 = section_at(&b, 1, NULL);
    /* Constraint 0, A, term 0: count at s2, wire at s2 + 4, value s2 + 8. */
    assert_int_equal(get32(b.p + s2), 1);
    c = copy(&b);
    put32(c.p + s2 + 4, 7); /* nWires = 7 */
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "wire 7");
    put32(c.p + s2 + 4, 0xffffffffu);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "nWires");
    free(c.p);
    c = copy(&b);
    put_r(c.p + s2 + 8);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_NONCANONICAL, "constraint 0 (A), term 0");
    memset(c.p + s2 + 8, 0xff, 32);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_NONCANONICAL, "not below r");
    free(c.p);
    /* Term counts that do not add up to the section. */
    c = copy(&b);
    put32(c.p + s2, 0xffffffffu);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "past the end");
    free(c.p);
    /* Header counts: more named wires than wires; more constraints than fit;
     * fewer constraints than the section holds. */
    c = copy(&b);
    put32(c.p + s1 + 4 + 32 + 4, 7);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "exceed");
    free(c.p);
    c = copy(&b);
    put32(c.p + s1 + 60, 0xffffffffu);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "at least");
    put32(c.p + s1 + 60, 3);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "left");
    put32(c.p + s1 + 60, 5);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "past the end");
    free(c.p);
    /* Wire-to-label map of the wrong size: nWires changed to 8 (the extra
     * wire is unused, so only section 3 notices). */
    c = copy(&b);
    put32(c.p + s1 + 4 + 32, 8);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, "wire-to-label");
    free(c.p);
    /* Custom gates. */
    c = copy(&b);
    put32(c.p + section_at(&c, 3, NULL) - 12, 4);
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_UNSUPPORTED, "custom gates");
    free(c.p);
    /* Header section of the wrong size. */
    c = copy(&b);
    c.p[s1 - 8] = 65;
    expect_parse_fail(F_R1CS, &c, CUZK_ERR_FORMAT, NULL);
    free(c.p);
    free(b.p);
    /* r1cs_eval argument checks. */
    r1cs_t r;
    cuzk_error_t e;
    fr_t w[7], out[4];
    for (int i = 0; i < 7; i++)
        fr_from_u64(&w[i], (uint64_t)i + 1);
    assert_int_equal(r1cs_read(&r, MUL("multiplier.r1cs"), &e), CUZK_OK);
    assert_int_equal(r1cs_eval(out, &r, R1CS_C, w, 7, 0, 4, &e), CUZK_OK);
    expect_fail(r1cs_eval(out, &r, R1CS_C, w, 7, 0, 5, &e), &e, CUZK_ERR_ARG, NULL);
    expect_fail(r1cs_eval(out, &r, R1CS_C, w, 7, 3, 2, &e), &e, CUZK_ERR_ARG, NULL);
    expect_fail(r1cs_eval(out, &r, (r1cs_matrix_id)3, w, 7, 0, 1, &e), &e, CUZK_ERR_ARG, NULL);
    expect_fail(r1cs_eval(out, &r, R1CS_A, w, 6, 0, 1, &e), &e, CUZK_ERR_ARG, NULL);
    r1cs_free(&r);
}

static void test_wtns_rejects(void **state)
{
    (void)state;
    buf_t b = load(MUL("witness.wtns")), c;
    uint64_t vs;
    size_t s2 = section_at(&b, 2, &vs), s1 = section_at(&b, 1, NULL);
    c = copy(&b);
    put_r(c.p + s2 + 3 * 32);
    expect_parse_fail(F_WTNS, &c, CUZK_ERR_NONCANONICAL, "witness value 3 ");
    put_r(c.p + s2 + 6 * 32);
    expect_parse_fail(F_WTNS, &c, CUZK_ERR_NONCANONICAL, "witness value 3 "); /* the first */
    free(c.p);
    c = copy(&b);
    put32(c.p + s1 + 36, 8); /* nWitness */
    expect_parse_fail(F_WTNS, &c, CUZK_ERR_FORMAT, "nWitness = 8");
    put32(c.p + s1 + 36, 0xffffffffu);
    expect_parse_fail(F_WTNS, &c, CUZK_ERR_FORMAT, "values section");
    free(c.p);
    /* Many values, many threads: the first bad index still wins. */
    wtns_t w;
    cuzk_error_t e;
    const uint32_t n = 300000;
    size_t len = 12 + 12 + 40 + 12 + (size_t)n * 32;
    c = (buf_t){calloc(1, len), len};
    memcpy(c.p, "wtns", 4);
    put32(c.p + 4, 2);
    put32(c.p + 8, 2);
    put32(c.p + 12, 1);
    c.p[16] = 40;
    put32(c.p + 24, 32);
    put_r(c.p + 28);
    put32(c.p + 60, n);
    put32(c.p + 64, 2);
    uint64_t body = (uint64_t)n * 32;
    for (int j = 0; j < 8; j++)
        c.p[68 + j] = (uint8_t)(body >> (8 * j));
    for (uint32_t i = 0; i < n; i++)
        put32(c.p + 76 + (size_t)i * 32, i);
    assert_int_equal(wtns_read_mem(&w, c.p, c.n, NULL, 4, &e), CUZK_OK);
    assert_int_equal(w.n, n);
    fr_t x;
    fr_from_u64(&x, n - 1);
    assert_true(fr_equal(&w.w[n - 1], &x));
    /* into the caller's buffer: the same values; one value short of room
     * is refused; NULL arguments are refused */
    fr_t *into = malloc(((size_t)n + 1) * sizeof *into);
    assert_non_null(into);
    into[n] = FR_ONE;
    uint32_t got = 0;
    assert_int_equal(wtns_read_mem_into(into, n, &got, c.p, c.n, NULL, 4, &e), CUZK_OK);
    assert_int_equal(got, n);
    assert_memory_equal(into, w.w, (size_t)n * sizeof *into);
    assert_true(fr_equal(&into[n], &FR_ONE));
    expect_fail(wtns_read_mem_into(into, n - 1, &got, c.p, c.n, NULL, 4, &e), &e, CUZK_ERR_FORMAT,
                "more than the");
    assert_int_equal(got, 0);
    expect_fail(wtns_read_mem_into(NULL, n, &got, c.p, c.n, NULL, 4, &e), &e, CUZK_ERR_ARG, "NULL");
    wtns_free(&w);
    put_r(c.p + 76 + (size_t)250001 * 32);
    put_r(c.p + 76 + (size_t)170000 * 32);
    put_r(c.p + 76 + (size_t)290000 * 32);
    expect_fail(wtns_read_mem(&w, c.p, c.n, NULL, 4, &e), &e, CUZK_ERR_NONCANONICAL,
                "<buffer>: witness value 170000 ");
    assert_null(w.w);
    expect_fail(wtns_read_mem_into(into, n, &got, c.p, c.n, NULL, 4, &e), &e, CUZK_ERR_NONCANONICAL,
                "<buffer>: witness value 170000 ");
    free(into);
    free(c.p);
    free(b.p);
}

static void test_zkey_rejects(void **state)
{
    (void)state;
    buf_t b = load(MUL("multiplier.zkey")), c;
    size_t s1 = section_at(&b, 1, NULL), s2 = section_at(&b, 2, NULL);
    uint64_t s4size;
    size_t s4 = section_at(&b, 4, &s4size);
    size_t cnt = s2 + 4 + 48 + 4 + 32; /* nVars, nPublic, domainSize */
    /* Protocol. */
    c = copy(&b);
    put32(c.p + s1, 2);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_UNSUPPORTED, "PLONK");
    put32(c.p + s1, 10);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_UNSUPPORTED, "FFLONK");
    free(c.p);
    /* Base prime. */
    c = copy(&b);
    c.p[s2 + 4] ^= 1;
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_UNSUPPORTED, "base (q)");
    free(c.p);
    /* Header counts. */
    c = copy(&b);
    put32(c.p + cnt + 8, 12);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "power of two");
    put32(c.p + cnt + 8, 1);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "power of two");
    put32(c.p + cnt + 8, 16);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "section 9 (H)");
    free(c.p);
    c = copy(&b);
    put32(c.p + cnt + 4, 7);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "nPublic");
    put32(c.p + cnt + 4, 1);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "IC");
    free(c.p);
    c = copy(&b);
    put32(c.p + cnt, 8);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "section 5 (A)");
    free(c.p);
    /* Header points: alpha_1 y changed (Montgomery bytes). */
    c = copy(&b);
    c.p[cnt + 12 + 48] ^= 1;
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_NOT_ON_CURVE, "alpha_1");
    free(c.p);
    c = copy(&b);
    memset(c.p + cnt + 12 + 96 + 96 + 192 + 40, 0xff, 8); /* gamma_2 x.c0 top limb */
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_NONCANONICAL, "gamma_2");
    free(c.p);
    /* IC point. */
    c = copy(&b);
    c.p[section_at(&c, 3, NULL) + 96 + 5] ^= 4;
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_NOT_ON_CURVE, "IC[1]");
    free(c.p);
    /* Section-4 records: count, matrix, row, wire, value. */
    size_t r0 = s4 + 4;
    c = copy(&b);
    put32(c.p + s4, get32(b.p + s4) + 1);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "coefficients section");
    free(c.p);
    c = copy(&b);
    put32(c.p + r0 + 44 * 3, 2);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "record 3: matrix 2");
    free(c.p);
    c = copy(&b);
    put32(c.p + r0 + 44 * 2 + 4, 8);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "record 2: row 8");
    free(c.p);
    c = copy(&b);
    put32(c.p + r0 + 44 + 8, 7);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_FORMAT, "record 1: wire 7");
    free(c.p);
    c = copy(&b);
    put_r(c.p + r0 + 12);
    expect_parse_fail(F_ZKEY, &c, CUZK_ERR_NONCANONICAL, "record 0: value");
    free(c.p);
    /* Point sections: only the checked mode reads them. */
    static const struct {
        uint32_t id;
        const char *name;
    } pts[5] = {{5, "section 5 (A), point 2"},
                {6, "section 6 (B1), point 2"},
                {7, "section 7 (B2), point 2"},
                {8, "section 8 (C), point 2"},
                {9, "section 9 (H), point 2"}};
    for (int i = 0; i < 5; i++) {
        size_t elem = pts[i].id == 7 ? 192 : 96;
        c = copy(&b);
        size_t at = section_at(&c, pts[i].id, NULL) + 2 * elem;
        /* A non-zero point nearby so the flip is not on an infinity. */
        g1_affine_t p = G1_GENERATOR;
        g2_affine_t q = G2_GENERATOR;
        if (elem == 96)
            g1_to_lem(c.p + at, &p);
        else
            g2_to_lem(c.p + at, &q);
        cuzk_error_t e;
        assert_int_equal(parse_any(F_ZKEY, &c, ZKEY_CHECK_ALL, &e), CUZK_OK);
        c.p[at + 7] ^= 0x10;
        assert_int_equal(parse_any(F_ZKEY, &c, ZKEY_CHECK_HEADER, &e), CUZK_OK);
        expect_parse_fail(F_ZKEY, &c, CUZK_ERR_NOT_ON_CURVE, pts[i].name);
        /* Off the subgroup. */
        if (elem == 96) {
            tu_rand_g1_off_subgroup(&p);
            g1_to_lem(c.p + at, &p);
        } else {
            tu_rand_g2_off_subgroup(&q);
            g2_to_lem(c.p + at, &q);
        }
        expect_parse_fail(F_ZKEY, &c, CUZK_ERR_NOT_IN_SUBGROUP, pts[i].name);
        free(c.p);
    }
    /* Unknown check level. */
    zkey_t z;
    cuzk_error_t e;
    expect_fail(zkey_open_mem(&z, b.p, b.n, NULL, (zkey_check)7, 1, &e), &e, CUZK_ERR_ARG, NULL);
    free(b.p);
}

/* CUZK_TEST_ONLY=<name> runs one test (handy under sanitizers). */
int main(void)
{
    tu_init("test_formats_snarkjs");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multiplier),        cmocka_unit_test(test_sha256_64),
        cmocka_unit_test(test_sha256_64_checked), cmocka_unit_test(test_zkey_coefs_match_r1cs),
        cmocka_unit_test(test_json_roundtrip),    cmocka_unit_test(test_json_edge_writers),
        cmocka_unit_test(test_json_rejects),      cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_flipped_headers),   cmocka_unit_test(test_container_rejects),
        cmocka_unit_test(test_r1cs_rejects),      cmocka_unit_test(test_wtns_rejects),
        cmocka_unit_test(test_zkey_rejects),
    };
    const char *only = getenv("CUZK_TEST_ONLY");
    if (only && *only)
        cmocka_set_test_filter(only);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
