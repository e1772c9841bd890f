/* bellperson formats: .vk, .params, proof bytes, inputs and .prf files.
 * Tiny .params files are generated here from random points (written byte
 * by byte, independently of the library's writers); every rejection path
 * (truncation, bad flags, non-canonical coordinates, points off the curve or
 * the subgroup, counts that overflow the file) must give its status code and
 * a message, never a crash. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/encode.h"

#define G1U G1_UNCOMPRESSED_BYTES
#define G2U G2_UNCOMPRESSED_BYTES

/* ---- a generated params file ---- */

#define POOL1 8
#define POOL2 4

typedef struct gen {
    g1_affine_t p1[POOL1]; /* G1 points, none infinity */
    g2_affine_t p2[POOL2];
    size_t n_ic;
    uint32_t count[5]; /* H, L, A, B_G1, B_G2 */
    uint8_t *buf;
    size_t len;
    size_t vec_off[5]; /* offset of each vector's count */
} gen_t;

static const char *const VEC[5] = {"H", "L", "A", "B_G1", "B_G2"};

static void be32_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void gen_points(gen_t *g)
{
    for (int i = 0; i < POOL1; i++) {
        g1_jac_t j;
        do
            tu_rand_g1(&j);
        while (g1_jac_is_inf(&j));
        g1_to_affine(&g->p1[i], &j);
    }
    for (int i = 0; i < POOL2; i++) {
        g2_jac_t j;
        do
            tu_rand_g2(&j);
        while (g2_jac_is_inf(&j));
        g2_to_affine(&g->p2[i], &j);
    }
}

/* Point i of vector v, drawn from the pools. */
static const g1_affine_t *vec_g1(const gen_t *g, int v, size_t i)
{
    return &g->p1[(i + (size_t)v) % POOL1];
}

static const g2_affine_t *vec_g2(const gen_t *g, size_t i)
{
    return &g->p2[i % POOL2];
}

/* The key: alpha p1[0], beta_g1 p1[1], beta_g2 p2[0], gamma p2[1],
 * delta_g1 p1[2], delta_g2 p2[2], IC p1[3 + i]. */
static size_t vk_put(uint8_t *b, const gen_t *g)
{
    size_t o = 0;
    g1_serialize(b + o, &g->p1[0]), o += G1U;
    g1_serialize(b + o, &g->p1[1]), o += G1U;
    g2_serialize(b + o, &g->p2[0]), o += G2U;
    g2_serialize(b + o, &g->p2[1]), o += G2U;
    g1_serialize(b + o, &g->p1[2]), o += G1U;
    g2_serialize(b + o, &g->p2[2]), o += G2U;
    be32_put(b + o, (uint32_t)g->n_ic), o += 4;
    for (size_t i = 0; i < g->n_ic; i++)
        g1_serialize(b + o, &g->p1[(3 + i) % POOL1]), o += G1U;
    return o;
}

static void gen_build(gen_t *g, size_t n_ic, const uint32_t count[5])
{
    gen_points(g);
    g->n_ic = n_ic;
    memcpy(g->count, count, sizeof g->count);
    size_t len = BELLPERSON_VK_FIXED_BYTES + n_ic * G1U;
    for (int v = 0; v < 5; v++)
        len += 4 + count[v] * (size_t)(v == 4 ? G2U : G1U);
    g->buf = malloc(len);
    assert_non_null(g->buf);
    g->len = len;
    size_t o = vk_put(g->buf, g);
    for (int v = 0; v < 5; v++) {
        g->vec_off[v] = o;
        be32_put(g->buf + o, count[v]);
        o += 4;
        for (size_t i = 0; i < count[v]; i++) {
            if (v == 4)
                g2_serialize(g->buf + o, vec_g2(g, i)), o += G2U;
            else
                g1_serialize(g->buf + o, vec_g1(g, v, i)), o += G1U;
        }
    }
    assert_int_equal(o, len);
}

static void gen_small(gen_t *g)
{
    static const uint32_t counts[5] = {7, 3, 5, 4, 4};
    gen_build(g, 3, counts);
}

/* Byte offset of point i of vector v. */
static size_t point_off(const gen_t *g, int v, size_t i)
{
    return g->vec_off[v] + 4 + i * (v == 4 ? G2U : G1U);
}

static void expect_error(cuzk_status st, cuzk_status want, const cuzk_error_t *err,
                         const char *needle)
{
    if (st != want)
        fail_msg("got status %d (%s), wanted %d: %s", st, cuzk_status_str(st), want, err->msg);
    assert_int_equal(err->code, want);
    assert_true(err->msg[0] != '\0');
    if (needle && !strstr(err->msg, needle))
        fail_msg("message \"%s\" does not name \"%s\"", err->msg, needle);
}

static void check_params(const bellperson_params_t *p, const gen_t *g)
{
    assert_true(g1_affine_equal(&p->vk.alpha_g1, &g->p1[0]));
    assert_true(g1_affine_equal(&p->vk.beta_g1, &g->p1[1]));
    assert_true(g2_affine_equal(&p->vk.beta_g2, &g->p2[0]));
    assert_true(g2_affine_equal(&p->vk.gamma_g2, &g->p2[1]));
    assert_true(g1_affine_equal(&p->vk.delta_g1, &g->p1[2]));
    assert_true(g2_affine_equal(&p->vk.delta_g2, &g->p2[2]));
    assert_int_equal(p->vk.n_ic, g->n_ic);
    for (size_t i = 0; i < g->n_ic; i++)
        assert_true(g1_affine_equal(&p->vk.ic[i], &g->p1[(3 + i) % POOL1]));
    const bellperson_points_t *vecs[5] = {&p->h, &p->l, &p->a, &p->b_g1, &p->b_g2};
    assert_int_equal(p->size, g->len);
    for (int v = 0; v < 5; v++) {
        assert_int_equal(vecs[v]->n, g->count[v]);
        assert_ptr_equal(vecs[v]->data, p->bytes + g->vec_off[v] + 4);
        msm_bases_t b = bellperson_points_bases(vecs[v]);
        assert_ptr_equal(b.data, vecs[v]->data);
        assert_int_equal(b.fmt, MSM_BASES_ZCASH);
        for (size_t i = 0; i < vecs[v]->n; i++) {
            if (v == 4) {
                g2_affine_t q;
                assert_int_equal(
                    g2_deserialize(&q, vecs[v]->data + i * G2U, POINT_CHECK_CURVE, NULL), CUZK_OK);
                assert_true(g2_affine_equal(&q, vec_g2(g, i)));
            } else {
                g1_affine_t q;
                assert_int_equal(
                    g1_deserialize(&q, vecs[v]->data + i * G1U, POINT_CHECK_CURVE, NULL), CUZK_OK);
                assert_true(g1_affine_equal(&q, vec_g1(g, v, i)));
            }
        }
    }
}

static char *temp_file(const uint8_t *data, size_t len)
{
    char *path = strdup("/tmp/cuzk_test_bp_XXXXXX");
    assert_non_null(path);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    if (len)
        assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static void test_params_roundtrip(void **state)
{
    (void)state;
    int n = tu_iters(3);
    for (int it = 0; it < n; it++) {
        gen_t g;
        gen_small(&g);
        for (int chk = 0; chk < 2; chk++) {
            bellperson_params_t p;
            cuzk_error_t err = {CUZK_OK, ""};
            cuzk_status st =
                bellperson_params_parse(&p, g.buf, g.len, (bellperson_check)chk, 1 + it, &err);
            if (st != CUZK_OK)
                fail_msg("%s", err.msg);
            check_params(&p, &g);
            bellperson_params_close(&p);
        }
        char *path = temp_file(g.buf, g.len);
        bellperson_params_t p;
        cuzk_error_t err = {CUZK_OK, ""};
        cuzk_status st = bellperson_params_open(&p, path, BELLPERSON_CHECK_ALL, 0, &err);
        if (st != CUZK_OK)
            fail_msg("%s", err.msg);
        assert_non_null(p.map);
        check_params(&p, &g);
        bellperson_params_close(&p);
        bellperson_params_close(&p); /* closing twice is harmless */
        unlink(path);
        free(path);
        free(g.buf);
    }
    /* Empty vectors are fine. */
    static const uint32_t zero[5] = {0, 0, 0, 0, 0};
    gen_t g;
    gen_build(&g, 1, zero);
    bellperson_params_t p;
    assert_int_equal(bellperson_params_parse(&p, g.buf, g.len, BELLPERSON_CHECK_ALL, 0, NULL),
                     CUZK_OK);
    check_params(&p, &g);
    bellperson_params_close(&p);
    free(g.buf);
}

static void test_params_truncated(void **state)
{
    (void)state;
    gen_t g;
    gen_small(&g);
    size_t cuts[256];
    size_t n = 0;
    /* Inside the key, at each boundary +-1, and a few random places. */
    static const size_t fixed[] = {0, 1, 95, 96, 191, 863, 864, 867, 868, 869};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        cuts[n++] = fixed[i];
    for (int v = 0; v < 5; v++)
        for (int d = -1; d <= 5; d++)
            cuts[n++] = (size_t)((long)g.vec_off[v] + d);
    cuts[n++] = g.len - 1;
    int r = tu_iters(32);
    for (int i = 0; i < r && n < 256; i++)
        cuts[n++] = (size_t)(tu_rand64() % g.len);
    for (size_t i = 0; i < n; i++) {
        for (int chk = 0; chk < 2; chk++) {
            bellperson_params_t p;
            cuzk_error_t err = {CUZK_OK, ""};
            cuzk_status st =
                bellperson_params_parse(&p, g.buf, cuts[i], (bellperson_check)chk, 0, &err);
            expect_error(st, CUZK_ERR_LENGTH, &err, NULL);
            assert_null(p.vk.ic);
            bellperson_params_close(&p);
        }
    }
    /* One byte too many. */
    uint8_t *longer = malloc(g.len + 1);
    assert_non_null(longer);
    memcpy(longer, g.buf, g.len);
    longer[g.len] = 0;
    bellperson_params_t p;
    cuzk_error_t err = {CUZK_OK, ""};
    expect_error(bellperson_params_parse(&p, longer, g.len + 1, BELLPERSON_CHECK_KEY, 0, &err),
                 CUZK_ERR_LENGTH, &err, "after B_G2");
    free(longer);
    /* The same through a file: truncated and empty. */
    char *path = temp_file(g.buf, g.len - 7);
    expect_error(bellperson_params_open(&p, path, BELLPERSON_CHECK_KEY, 0, &err), CUZK_ERR_LENGTH,
                 &err, path);
    unlink(path);
    free(path);
    path = temp_file(g.buf, 0);
    expect_error(bellperson_params_open(&p, path, BELLPERSON_CHECK_KEY, 0, &err), CUZK_ERR_LENGTH,
                 &err, NULL);
    unlink(path);
    free(path);
    expect_error(bellperson_params_open(&p, "/nonexistent/x.params", BELLPERSON_CHECK_KEY, 0, &err),
                 CUZK_ERR_IO, &err, "/nonexistent/x.params");
    expect_error(bellperson_params_open(&p, "/tmp", BELLPERSON_CHECK_KEY, 0, &err), CUZK_ERR_IO,
                 &err, NULL);
    expect_error(bellperson_params_parse(&p, g.buf, g.len, (bellperson_check)7, 0, &err),
                 CUZK_ERR_ARG, &err, NULL);
    free(g.buf);
}

static void test_params_counts(void **state)
{
    (void)state;
    gen_t g;
    gen_small(&g);
    static const uint32_t bad[] = {0xffffffffu, 0x80000000u, 0x02aaaaabu, 0x01555556u, 1000};
    for (int v = 0; v < 5; v++) {
        uint32_t wrong[7];
        size_t nw = 0;
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            wrong[nw++] = bad[i];
        wrong[nw++] = g.count[v] + 1;
        wrong[nw++] = g.count[v] - 1;
        for (size_t i = 0; i < nw; i++) {
            uint8_t save[4];
            memcpy(save, g.buf + g.vec_off[v], 4);
            be32_put(g.buf + g.vec_off[v], wrong[i]);
            bellperson_params_t p;
            cuzk_error_t err = {CUZK_OK, ""};
            cuzk_status st =
                bellperson_params_parse(&p, g.buf, g.len, BELLPERSON_CHECK_KEY, 0, &err);
            expect_error(st, CUZK_ERR_LENGTH, &err, NULL);
            memcpy(g.buf + g.vec_off[v], save, 4);
        }
    }
    /* The key's IC count. */
    size_t at = BELLPERSON_VK_FIXED_BYTES - 4;
    be32_put(g.buf + at, 0xffffffffu);
    bellperson_params_t p;
    cuzk_error_t err = {CUZK_OK, ""};
    expect_error(bellperson_params_parse(&p, g.buf, g.len, BELLPERSON_CHECK_KEY, 0, &err),
                 CUZK_ERR_LENGTH, &err, "n_ic");
    be32_put(g.buf + at, 0);
    expect_error(bellperson_params_parse(&p, g.buf, g.len, BELLPERSON_CHECK_KEY, 0, &err),
                 CUZK_ERR_FORMAT, &err, "n_ic");
    free(g.buf);
}

/* Corrupts point i of vector v in one of four ways; returns the status a
 * checked parse must give. */
static cuzk_status corrupt(uint8_t *b, int g2, int how)
{
    size_t n = g2 ? G2U : G1U;
    switch (how) {
    case 0: b[0] |= 0x80; return CUZK_ERR_FLAGS; /* compressed flag on an uncompressed point */
    case 1: b[0] |= 0x20; return CUZK_ERR_FLAGS;
    case 2: { /* x (or x.c1) = p: non-canonical */
        static const uint8_t P[48] = {0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b,
                                      0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84,
                                      0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0,
                                      0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff,
                                      0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
        memcpy(b, P, 48);
        return CUZK_ERR_NONCANONICAL;
    }
    case 3: b[n - 1] ^= 1; return CUZK_ERR_NOT_ON_CURVE;
    default:
        if (g2) {
            g2_affine_t q;
            tu_rand_g2_off_subgroup(&q);
            g2_serialize(b, &q);
        } else {
            g1_affine_t q;
            tu_rand_g1_off_subgroup(&q);
            g1_serialize(b, &q);
        }
        return CUZK_ERR_NOT_IN_SUBGROUP;
    }
}

static void test_params_bad_points(void **state)
{
    (void)state;
    gen_t g;
    gen_small(&g);
    uint8_t *copy = malloc(g.len);
    assert_non_null(copy);
    for (int v = 0; v < 5; v++) {
        for (int how = 0; how < 5; how++) {
            size_t i = (size_t)(tu_rand64() % g.count[v]);
            memcpy(copy, g.buf, g.len);
            cuzk_status want = corrupt(copy + point_off(&g, v, i), v == 4, how);
            char name[32];
            snprintf(name, sizeof name, "%s[%zu]", VEC[v], i);
            bellperson_params_t p;
            cuzk_error_t err = {CUZK_OK, ""};
            expect_error(bellperson_params_parse(&p, copy, g.len, BELLPERSON_CHECK_ALL, 2, &err),
                         want, &err, name);
            /* Unchecked mode only sizes the vectors. */
            assert_int_equal(
                bellperson_params_parse(&p, copy, g.len, BELLPERSON_CHECK_KEY, 0, &err), CUZK_OK);
            bellperson_params_close(&p);
        }
        /* Infinity is allowed in the vectors (the MSM skips it). */
        memcpy(copy, g.buf, g.len);
        uint8_t *b = copy + point_off(&g, v, 0);
        memset(b, 0, v == 4 ? G2U : G1U);
        b[0] = 0x40;
        bellperson_params_t p;
        cuzk_error_t err = {CUZK_OK, ""};
        assert_int_equal(bellperson_params_parse(&p, copy, g.len, BELLPERSON_CHECK_ALL, 0, &err),
                         CUZK_OK);
        bellperson_params_close(&p);
    }
    /* Two bad points: the first (in file order) is named. */
    memcpy(copy, g.buf, g.len);
    corrupt(copy + point_off(&g, 3, 1), 0, 4);
    corrupt(copy + point_off(&g, 1, 2), 0, 3);
    bellperson_params_t p;
    cuzk_error_t err = {CUZK_OK, ""};
    expect_error(bellperson_params_parse(&p, copy, g.len, BELLPERSON_CHECK_ALL, 0, &err),
                 CUZK_ERR_NOT_ON_CURVE, &err, "L[2]");
    free(copy);
    free(g.buf);
}

/* A long vector checked on several threads still reports the first bad
 * point, whichever thread finds one first. */
static void test_params_first_bad_parallel(void **state)
{
    (void)state;
    uint32_t counts[5] = {1600, 0, 0, 0, 1100};
    gen_t g;
    gen_build(&g, 2, counts);
    uint8_t *copy = malloc(g.len);
    assert_non_null(copy);
    for (int v = 0; v < 5; v += 4) {
        size_t n = g.count[v];
        /* (first, second) bad indices: across chunks, at chunk edges, equal. */
        const size_t pairs[][2] = {
            {n * 7 / 10, n * 96 / 100}, {5, n - 1}, {n / 2 - 1, n / 2}, {n - 1, n - 1}};
        for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
            memcpy(copy, g.buf, g.len);
            corrupt(copy + point_off(&g, v, pairs[k][1]), v == 4, 3);
            corrupt(copy + point_off(&g, v, pairs[k][0]), v == 4, 4);
            char name[32];
            snprintf(name, sizeof name, "%s[%zu]", VEC[v], pairs[k][0]);
            for (int threads = 1; threads <= 4; threads += 3) {
                bellperson_params_t p;
                cuzk_error_t err = {CUZK_OK, ""};
                expect_error(
                    bellperson_params_parse(&p, copy, g.len, BELLPERSON_CHECK_ALL, threads, &err),
                    CUZK_ERR_NOT_IN_SUBGROUP, &err, name);
            }
        }
    }
    free(copy);
    free(g.buf);
}

/* 64-bit offsets: a sparse file of more than 4 GiB whose H vector (all
 * holes: unchecked) pushes the later vectors past 2^32. */
static void test_params_large_sparse(void **state)
{
    (void)state;
    static const uint32_t counts[5] = {0, 0, 0, 0, 0};
    gen_t g;
    gen_build(&g, 2, counts);
    uint32_t nh = 50000000; /* 4.8 GB */
    uint64_t tail = (uint64_t)g.vec_off[0] + 4 + (uint64_t)nh * G1U;
    char *path = temp_file(g.buf, g.vec_off[0]);
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    uint8_t cnt[4];
    be32_put(cnt, nh);
    assert_int_equal(pwrite(fd, cnt, 4, (off_t)g.vec_off[0]), 4);
    /* L, A, B_G1: zero counts; B_G2: one point. */
    uint8_t rest[12 + 4 + G2U];
    memset(rest, 0, sizeof rest);
    be32_put(rest + 12, 1);
    g2_serialize(rest + 16, &g.p2[3]);
    ssize_t w = pwrite(fd, rest, sizeof rest, (off_t)tail);
    close(fd);
    if (w != (ssize_t)sizeof rest) {
        printf("  sparse file not supported here: skipped\n");
    } else {
        bellperson_params_t p;
        cuzk_error_t err = {CUZK_OK, ""};
        cuzk_status st = bellperson_params_open(&p, path, BELLPERSON_CHECK_KEY, 0, &err);
        if (st != CUZK_OK)
            fail_msg("%s", err.msg);
        assert_int_equal(p.size, tail + sizeof rest);
        assert_int_equal(p.h.n, nh);
        assert_int_equal(p.b_g2.n, 1);
        assert_int_equal((uint64_t)(p.b_g2.data - p.bytes), tail + 16);
        g2_affine_t q;
        assert_int_equal(g2_deserialize(&q, p.b_g2.data, POINT_CHECK_SUBGROUP, NULL), CUZK_OK);
        assert_true(g2_affine_equal(&q, &g.p2[3]));
        bellperson_params_close(&p);
        /* One byte short at the very end. */
        assert_int_equal(truncate(path, (off_t)(tail + sizeof rest - 1)), 0);
        expect_error(bellperson_params_open(&p, path, BELLPERSON_CHECK_KEY, 0, &err),
                     CUZK_ERR_LENGTH, &err, "B_G2");
    }
    unlink(path);
    free(path);
    free(g.buf);
}

/* ---- verifying keys ---- */

static void test_vk(void **state)
{
    (void)state;
    static const uint32_t none[5] = {0, 0, 0, 0, 0};
    gen_t g;
    gen_build(&g, 4, none);
    size_t vk_len = bellperson_vk_bytes(4);
    assert_int_equal(vk_len, BELLPERSON_VK_FIXED_BYTES + 4 * G1U);
    assert_int_equal(bellperson_vk_bytes(SIZE_MAX / 2), SIZE_MAX);
    uint8_t *b = malloc(vk_len + 8);
    assert_non_null(b);
    memcpy(b, g.buf, vk_len);
    memset(b + vk_len, 0x5a, 8);

    groth16_vk_t vk;
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(bellperson_vk_parse(&vk, NULL, b, vk_len, &err), CUZK_OK);
    uint8_t *w = malloc(vk_len);
    assert_non_null(w);
    bellperson_vk_write(w, &vk);
    assert_memory_equal(w, b, vk_len);
    groth16_vk_free(&vk);
    groth16_vk_free(&vk); /* harmless twice */
    /* Trailing bytes: an error unless the caller asks how much was used. */
    expect_error(bellperson_vk_parse(&vk, NULL, b, vk_len + 8, &err), CUZK_ERR_LENGTH, &err, NULL);
    size_t used = 0;
    assert_int_equal(bellperson_vk_parse(&vk, &used, b, vk_len + 8, &err), CUZK_OK);
    assert_int_equal(used, vk_len);
    groth16_vk_free(&vk);
    /* Every truncation. */
    for (size_t cut = 0; cut < vk_len; cut += (cut < 870 ? 1 : 7)) {
        if (cut > 200 && cut < 860 && cut % 16)
            continue;
        expect_error(bellperson_vk_parse(&vk, NULL, b, cut, &err), CUZK_ERR_LENGTH, &err, "vk");
        assert_null(vk.ic);
    }
    /* Named bad points in the fixed part and in IC. */
    static const struct {
        size_t off;
        int g2, how;
        const char *name;
    } cases[] = {
        {0, 0, 0, "alpha_g1"},     {96, 0, 4, "beta_g1"},      {192, 1, 2, "beta_g2"},
        {384, 1, 4, "gamma_g2"},   {576, 0, 3, "delta_g1"},    {672, 1, 1, "delta_g2"},
        {868 + 96, 0, 4, "IC[1]"}, {868 + 288, 0, 2, "IC[3]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(w, b, vk_len);
        cuzk_status want = corrupt(w + cases[i].off, cases[i].g2, cases[i].how);
        expect_error(bellperson_vk_parse(&vk, NULL, w, vk_len, &err), want, &err, cases[i].name);
    }
    /* IC at infinity is rejected, as bellman does. */
    memcpy(w, b, vk_len);
    memset(w + 868 + 2 * 96, 0, 96);
    w[868 + 2 * 96] = 0x40;
    expect_error(bellperson_vk_parse(&vk, NULL, w, vk_len, &err), CUZK_ERR_FORMAT, &err, "IC[2]");
    /* Files. */
    char *path = temp_file(b, vk_len);
    assert_int_equal(bellperson_vk_load(&vk, path, &err), CUZK_OK);
    assert_int_equal(vk.n_ic, 4);
    groth16_vk_free(&vk);
    unlink(path);
    free(path);
    path = temp_file(b, 0);
    expect_error(bellperson_vk_load(&vk, path, &err), CUZK_ERR_LENGTH, &err, path);
    unlink(path);
    free(path);
    expect_error(bellperson_vk_load(&vk, "/nonexistent/k.vk", &err), CUZK_ERR_IO, &err, NULL);
    expect_error(bellperson_vk_parse(NULL, NULL, b, vk_len, &err), CUZK_ERR_ARG, &err, NULL);
    free(w);
    free(b);
    free(g.buf);
}

/* ---- proofs and inputs ---- */

static void rand_proof(groth16_proof_t *p)
{
    g1_jac_t a;
    g2_jac_t b;
    do
        tu_rand_g1(&a);
    while (g1_jac_is_inf(&a));
    g1_to_affine(&p->a, &a);
    do
        tu_rand_g2(&b);
    while (g2_jac_is_inf(&b));
    g2_to_affine(&p->b, &b);
    do
        tu_rand_g1(&a);
    while (g1_jac_is_inf(&a));
    g1_to_affine(&p->c, &a);
}

static void test_proof(void **state)
{
    (void)state;
    groth16_proof_t p[3], q[3];
    for (int i = 0; i < 3; i++)
        rand_proof(&p[i]);
    uint8_t b[3 * BELLPERSON_PROOF_BYTES], c[3 * BELLPERSON_PROOF_BYTES];
    bellperson_proofs_write(b, p, 3);
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(bellperson_proofs_read(q, 3, b, sizeof b, &err), CUZK_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(g1_affine_equal(&p[i].a, &q[i].a));
        assert_true(g2_affine_equal(&p[i].b, &q[i].b));
        assert_true(g1_affine_equal(&p[i].c, &q[i].c));
    }
    bellperson_proofs_write(c, q, 3);
    assert_memory_equal(b, c, sizeof b);
    /* Lengths. */
    expect_error(bellperson_proofs_read(q, 3, b, sizeof b - 1, &err), CUZK_ERR_LENGTH, &err, NULL);
    expect_error(bellperson_proofs_read(q, 2, b, sizeof b, &err), CUZK_ERR_LENGTH, &err, NULL);
    expect_error(bellperson_proofs_read(q, SIZE_MAX / 100, b, sizeof b, &err), CUZK_ERR_LENGTH,
                 &err, NULL);
    assert_int_equal(bellperson_proofs_read(q, 0, NULL, 0, &err), CUZK_OK);

    /* Each point, each way of being wrong; named by proof and point. */
    static const struct {
        size_t off;
        const char *name;
    } pts[] = {{0, "A"}, {48, "B"}, {144, "C"}};
    for (int k = 0; k < 3; k++) {
        int g2 = k == 1;
        size_t n = g2 ? G2_COMPRESSED_BYTES : G1_COMPRESSED_BYTES;
        char name[32];
        snprintf(name, sizeof name, "proof 2, %s", pts[k].name);
        uint8_t *at = c + 2 * BELLPERSON_PROOF_BYTES + pts[k].off;
        /* Uncompressed flag. */
        memcpy(c, b, sizeof b);
        at[0] &= 0x7f;
        expect_error(bellperson_proofs_read(q, 3, c, sizeof c, &err), CUZK_ERR_FLAGS, &err, name);
        /* Infinity with a stray bit. */
        memcpy(c, b, sizeof b);
        memset(at, 0, n);
        at[0] = 0xc0;
        at[n - 1] = 1;
        expect_error(bellperson_proofs_read(q, 3, c, sizeof c, &err), CUZK_ERR_FLAGS, &err, name);
        /* Proper infinity: a format error (bellman rejects it too). */
        at[n - 1] = 0;
        expect_error(bellperson_proofs_read(q, 3, c, sizeof c, &err), CUZK_ERR_FORMAT, &err,
                     "proof 2");
        /* Non-canonical x: all ones under the flags. */
        memcpy(c, b, sizeof b);
        memset(at, 0xff, 48);
        at[0] = 0x9f;
        expect_error(bellperson_proofs_read(q, 3, c, sizeof c, &err), CUZK_ERR_NONCANONICAL, &err,
                     name);
        /* Off the subgroup. */
        memcpy(c, b, sizeof b);
        if (g2) {
            g2_affine_t o;
            tu_rand_g2_off_subgroup(&o);
            g2_compress(at, &o);
        } else {
            g1_affine_t o;
            tu_rand_g1_off_subgroup(&o);
            g1_compress(at, &o);
        }
        expect_error(bellperson_proofs_read(q, 3, c, sizeof c, &err), CUZK_ERR_NOT_IN_SUBGROUP,
                     &err, name);
        /* Not on the curve: an x with no y. */
        memcpy(c, b, sizeof b);
        cuzk_status st = CUZK_OK;
        for (uint8_t x = 1; st != CUZK_ERR_NOT_ON_CURVE; x++) {
            memset(at, 0, n);
            at[0] = 0x80;
            at[47] = x;
            st = bellperson_proofs_read(q, 3, c, sizeof c, &err);
            assert_int_not_equal(st, CUZK_OK);
        }
        expect_error(st, CUZK_ERR_NOT_ON_CURVE, &err, name);
    }
    /* The single-proof reader names no index. */
    memcpy(c, b, sizeof b);
    c[0] &= 0x7f;
    expect_error(bellperson_proof_read(q, c, &err), CUZK_ERR_FLAGS, &err, "proof, A");
    expect_error(bellperson_proof_read(NULL, c, &err), CUZK_ERR_ARG, &err, NULL);
}

static void test_inputs(void **state)
{
    (void)state;
    fr_t x[3], y[3];
    for (int i = 0; i < 3; i++)
        tu_rand_fr(&x[i]);
    uint8_t b[96];
    bellperson_inputs_write(b, x, 3);
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(bellperson_inputs_read(y, b, 3, &err), CUZK_OK);
    for (int i = 0; i < 3; i++)
        assert_true(fr_equal(&x[i], &y[i]));
    /* r - 1 is fine, r is not. */
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    fr_to_be(b + 64, &m1);
    assert_int_equal(bellperson_inputs_read(y, b, 3, &err), CUZK_OK);
    b[95] += 1;
    expect_error(bellperson_inputs_read(y, b, 3, &err), CUZK_ERR_NONCANONICAL, &err, "input 2");
    memset(b + 32, 0xff, 32);
    expect_error(bellperson_inputs_read(y, b, 3, &err), CUZK_ERR_NONCANONICAL, &err, "input 1");
    assert_int_equal(bellperson_inputs_read(NULL, NULL, 0, &err), CUZK_OK);
}

/* ---- .prf files ---- */

static void be64_put(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static void test_prf(void **state)
{
    (void)state;
    size_t len;
    uint8_t *f = tu_read_file(CUZK_TESTDATA_DIR "/filecoin/winning32.prf", &len);
    assert_non_null(f);
    bellperson_prf_t prf;
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(bellperson_prf_parse(&prf, BELLPERSON_PRF_SINGLE, f, len, &err), CUZK_OK);
    assert_int_equal(prf.n_inputs, 132);
    bellperson_prf_free(&prf);
    assert_int_equal(bellperson_prf_parse(&prf, BELLPERSON_PRF_AUTO, f, len, &err), CUZK_OK);
    assert_int_equal(prf.n_proofs, 1);
    bellperson_prf_free(&prf);
    /* Read as the other layout it fails cleanly. */
    assert_int_not_equal(bellperson_prf_parse(&prf, BELLPERSON_PRF_BATCH, f, len, &err), CUZK_OK);
    assert_true(err.msg[0] != '\0');
    /* Truncations anywhere. */
    int n = tu_iters(40);
    for (int i = 0; i < n; i++) {
        size_t cut = i < 4 ? (size_t)i * 100 : (size_t)(tu_rand64() % len);
        cuzk_status st = bellperson_prf_parse(&prf, BELLPERSON_PRF_AUTO, f, cut, &err);
        assert_int_not_equal(st, CUZK_OK);
        assert_int_equal(err.code, st);
        assert_true(err.msg[0] != '\0');
        assert_null(prf.proofs);
    }
    /* A huge input count. */
    uint8_t save[8];
    memcpy(save, f + 192, 8);
    be64_put(f + 192, UINT64_MAX);
    expect_error(bellperson_prf_parse(&prf, BELLPERSON_PRF_SINGLE, f, len, &err), CUZK_ERR_LENGTH,
                 &err, "inputs");
    be64_put(f + 192, 1ull << 59);
    expect_error(bellperson_prf_parse(&prf, BELLPERSON_PRF_SINGLE, f, len, &err), CUZK_ERR_LENGTH,
                 &err, "inputs");
    memcpy(f + 192, save, 8);
    free(f);

    f = tu_read_file(CUZK_TESTDATA_DIR "/filecoin/seal32_x10.prf", &len);
    assert_non_null(f);
    assert_int_equal(bellperson_prf_parse(&prf, BELLPERSON_PRF_AUTO, f, len, &err), CUZK_OK);
    assert_int_equal(prf.n_proofs, 10);
    bellperson_prf_free(&prf);
    static const uint64_t bad_proofs[] = {0, 9, 11, UINT64_MAX, 1ull << 63};
    for (size_t i = 0; i < sizeof bad_proofs / sizeof bad_proofs[0]; i++) {
        be64_put(f, bad_proofs[i]);
        expect_error(bellperson_prf_parse(&prf, BELLPERSON_PRF_BATCH, f, len, &err),
                     CUZK_ERR_LENGTH, &err, "proofs");
    }
    be64_put(f, 10);
    static const uint64_t bad_inputs[] = {0, 326, 328, UINT64_MAX, 1ull << 59, 1ull << 62};
    for (size_t i = 0; i < sizeof bad_inputs / sizeof bad_inputs[0]; i++) {
        be64_put(f + 8, bad_inputs[i]);
        expect_error(bellperson_prf_parse(&prf, BELLPERSON_PRF_BATCH, f, len, &err),
                     CUZK_ERR_LENGTH, &err, NULL);
    }
    free(f);
    expect_error(bellperson_prf_parse(&prf, BELLPERSON_PRF_AUTO, NULL, 0, &err), CUZK_ERR_LENGTH,
                 &err, NULL);
    expect_error(bellperson_prf_parse(&prf, (bellperson_prf_layout)9, save, 8, &err), CUZK_ERR_ARG,
                 &err, NULL);
    expect_error(bellperson_prf_load(&prf, BELLPERSON_PRF_AUTO, "/nonexistent.prf", &err),
                 CUZK_ERR_IO, &err, NULL);
}

int main(void)
{
    tu_init("test_formats_bellperson");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_roundtrip),
        cmocka_unit_test(test_params_truncated),
        cmocka_unit_test(test_params_counts),
        cmocka_unit_test(test_params_bad_points),
        cmocka_unit_test(test_params_first_bad_parallel),
        cmocka_unit_test(test_params_large_sparse),
        cmocka_unit_test(test_vk),
        cmocka_unit_test(test_proof),
        cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_prf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
