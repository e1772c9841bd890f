/* `cuzk demo`: a visible self-check of the BLS12-381 layer on random inputs,
 * then an insecure test setup, a proof and its verification for a built-in
 * circuit in both key conventions. It needs no file from outside the
 * repository. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cli.h"
#include "cli_backend.h"
#include "cuzk/decimal.h"
#include "cuzk/encode.h"
#include "cuzk/pairing.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"

static const char G1_GEN_COMPRESSED[] = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f17"
                                        "1bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G2_GEN_COMPRESSED[] = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc"
                                        "7f5049334cf11213945d57e5ac7d055d042b7e"
                                        "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647a"
                                        "e3d1770bac0326a805bbefd48056c8c121bdb8";

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void rand_fr(fr_t *out)
{
    uint8_t b[FR_BYTES];
    do {
        if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
            memset(b, 0x5a, sizeof b); /* still a valid scalar; the demo stays deterministic */
        b[0] &= 0x7f;
    } while (fr_from_be(out, b) != CUZK_OK);
}

static void to_hex(char *out, const uint8_t *in, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static int check_generators(void)
{
    return g1_affine_is_on_curve(&G1_GENERATOR) && g2_affine_is_on_curve(&G2_GENERATOR) &&
           g1_affine_in_subgroup(&G1_GENERATOR) && g1_affine_in_subgroup_slow(&G1_GENERATOR) &&
           g2_affine_in_subgroup(&G2_GENERATOR) && g2_affine_in_subgroup_slow(&G2_GENERATOR);
}

static int check_gt_order(void)
{
    fp12_t e, er;
    pairing_compute(&e, &G1_GENERATOR, &G2_GENERATOR);
    fp12_pow_var(&er, &e, FR_MODULUS, FR_LIMBS);
    return !fp12_is_one(&e) && fp12_is_one(&er);
}

static int check_bilinear(void)
{
    fr_t a, b, ab;
    rand_fr(&a);
    rand_fr(&b);
    fr_mul(&ab, &a, &b);
    g1_jac_t p;
    g2_jac_t q;
    g1_affine_t pa;
    g2_affine_t qa;
    g1_from_affine(&p, &G1_GENERATOR);
    g2_from_affine(&q, &G2_GENERATOR);
    g1_mul_fr(&p, &p, &a);
    g2_mul_fr(&q, &q, &b);
    g1_to_affine(&pa, &p);
    g2_to_affine(&qa, &q);
    fp12_t lhs, rhs;
    uint64_t e[FR_LIMBS];
    pairing_compute(&lhs, &pa, &qa);
    pairing_compute(&rhs, &G1_GENERATOR, &G2_GENERATOR);
    fr_to_limbs(e, &ab);
    fp12_pow_var(&rhs, &rhs, e, FR_LIMBS);
    return fp12_equal(&lhs, &rhs);
}

static int check_multi_pairing(void)
{
    fr_t a;
    rand_fr(&a);
    g1_jac_t p;
    g2_jac_t q;
    g1_affine_t ps[2];
    g2_affine_t qs[2];
    g1_from_affine(&p, &G1_GENERATOR);
    g2_from_affine(&q, &G2_GENERATOR);
    g1_mul_fr(&p, &p, &a);
    g2_mul_fr(&q, &q, &a);
    g1_to_affine(&ps[0], &p);
    qs[0] = G2_GENERATOR;
    g1_affine_neg(&ps[1], &G1_GENERATOR);
    g2_to_affine(&qs[1], &q);
    fp12_t r;
    return pairing_product(&r, ps, qs, 2) == CUZK_OK && fp12_is_one(&r);
}

static int check_generator_bytes(void)
{
    uint8_t b1[G1_COMPRESSED_BYTES], b2[G2_COMPRESSED_BYTES];
    char h1[2 * G1_COMPRESSED_BYTES + 1], h2[2 * G2_COMPRESSED_BYTES + 1];
    g1_compress(b1, &G1_GENERATOR);
    g2_compress(b2, &G2_GENERATOR);
    to_hex(h1, b1, sizeof b1);
    to_hex(h2, b2, sizeof b2);
    return !strcmp(h1, G1_GEN_COMPRESSED) && !strcmp(h2, G2_GEN_COMPRESSED);
}

static int roundtrip_one(const g1_affine_t *p, const g2_affine_t *q)
{
    uint8_t c1[G1_COMPRESSED_BYTES], u1[G1_UNCOMPRESSED_BYTES], l1[G1_LEM_BYTES];
    uint8_t c2[G2_COMPRESSED_BYTES], u2[G2_UNCOMPRESSED_BYTES], l2[G2_LEM_BYTES];
    g1_affine_t p1, p2, p3, p4;
    g2_affine_t q1, q2, q3, q4;
    char d1[3][FP_DEC_MAX], d2[3][2][FP_DEC_MAX];
    g1_compress(c1, p);
    g1_serialize(u1, p);
    g1_to_lem(l1, p);
    g1_to_dec(d1, p);
    g2_compress(c2, q);
    g2_serialize(u2, q);
    g2_to_lem(l2, q);
    g2_to_dec(d2, q);
    const char *dp1[3] = {d1[0], d1[1], d1[2]};
    const char *dp2[3][2] = {{d2[0][0], d2[0][1]}, {d2[1][0], d2[1][1]}, {d2[2][0], d2[2][1]}};
    const point_check chk = POINT_CHECK_SUBGROUP;
    if (g1_decompress(&p1, c1, chk, NULL) || g1_deserialize(&p2, u1, chk, NULL) ||
        g1_from_lem(&p3, l1, chk, NULL) || g1_from_dec(&p4, dp1, chk, NULL) ||
        g2_decompress(&q1, c2, chk, NULL) || g2_deserialize(&q2, u2, chk, NULL) ||
        g2_from_lem(&q3, l2, chk, NULL) || g2_from_dec(&q4, dp2, chk, NULL))
        return 0;
    return g1_affine_equal(&p1, p) && g1_affine_equal(&p2, p) && g1_affine_equal(&p3, p) &&
           g1_affine_equal(&p4, p) && g2_affine_equal(&q1, q) && g2_affine_equal(&q2, q) &&
           g2_affine_equal(&q3, q) && g2_affine_equal(&q4, q);
}

static int check_roundtrips(void)
{
    for (int i = 0; i < 16; i++) {
        fr_t k;
        rand_fr(&k);
        g1_jac_t p;
        g2_jac_t q;
        g1_affine_t pa;
        g2_affine_t qa;
        g1_from_affine(&p, &G1_GENERATOR);
        g2_from_affine(&q, &G2_GENERATOR);
        g1_mul_fr(&p, &p, &k);
        g2_mul_fr(&q, &q, &k);
        g1_to_affine(&pa, &p);
        g2_to_affine(&qa, &q);
        if (i == 0) { /* infinity round-trips too */
            g1_affine_set_inf(&pa);
            g2_affine_set_inf(&qa);
        }
        if (!roundtrip_one(&pa, &qa))
            return 0;
    }
    return 1;
}

static int check_rejects_off_subgroup(void)
{
    /* (0, 2) is on y^2 = x^3 + 4 and has order 3. */
    g1_affine_t t, out;
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    fp_from_u64(&t.x, 0);
    fp_from_u64(&t.y, 2);
    g1_serialize(b, &t);
    cuzk_error_t err;
    return g1_deserialize(&out, b, POINT_CHECK_CURVE, NULL) == CUZK_OK &&
           g1_deserialize(&out, b, POINT_CHECK_SUBGROUP, &err) == CUZK_ERR_NOT_IN_SUBGROUP;
}

static int check_roots(void)
{
    fr_t w, t, minus_one;
    fr_neg(&minus_one, &FR_ONE);
    for (int conv = 0; conv < 2; conv++) {
        if (fr_root_of_unity(&w, (fr_roots)conv, 32) != CUZK_OK)
            return 0;
        t = w;
        for (int i = 0; i < 31; i++)
            fr_sqr(&t, &t);
        if (!fr_equal(&t, &minus_one))
            return 0;
    }
    return 1;
}

/* The built-in circuit: y = f^N(x) with f(t) = t * x + k, one constraint
 * per step, x private, y public; wires: 0 = 1, 1 = y, 2 = x, 3.. = t_k. */
#define DEMO_STEPS 4000

static cuzk_status demo_circuit(circuit_t *c, fr_t *w, const fr_t *x)
{
    const uint32_t n_vars = 3 + DEMO_STEPS;
    circuit_builder_t *b = circuit_builder_new(DEMO_STEPS + 1 + 2, n_vars, 1);
    if (!b)
        return CUZK_ERR_NOMEM;
    fr_t k, minus_k;
    w[0] = FR_ONE;
    w[2] = *x;
    fr_t t = *x; /* t_0 = x */
    cuzk_status st = CUZK_OK;
    for (uint32_t i = 0; i < DEMO_STEPS && st == CUZK_OK; i++) {
        uint32_t prev = i == 0 ? 2 : 3 + i - 1, next = 3 + i;
        /* t_prev * x = t_next - k */
        fr_from_u64(&k, i + 1);
        fr_neg(&minus_k, &k);
        fr_mul(&t, &t, x);
        fr_add(&t, &t, &k);
        w[next] = t;
        st = circuit_builder_add(b, CIRCUIT_A, i, prev, &FR_ONE, NULL);
        if (st == CUZK_OK)
            st = circuit_builder_add(b, CIRCUIT_B, i, 2, &FR_ONE, NULL);
        if (st == CUZK_OK)
            st = circuit_builder_add(b, CIRCUIT_C, i, next, &FR_ONE, NULL);
        if (st == CUZK_OK)
            st = circuit_builder_add(b, CIRCUIT_C, i, 0, &minus_k, NULL);
    }
    /* y * 1 = t_N */
    w[1] = t;
    if (st == CUZK_OK)
        st = circuit_builder_add(b, CIRCUIT_A, DEMO_STEPS, 1, &FR_ONE, NULL);
    if (st == CUZK_OK)
        st = circuit_builder_add(b, CIRCUIT_B, DEMO_STEPS, 0, &FR_ONE, NULL);
    if (st == CUZK_OK)
        st = circuit_builder_add(b, CIRCUIT_C, DEMO_STEPS, 3 + DEMO_STEPS - 1, &FR_ONE, NULL);
    /* the public-input rows both conventions prove over (keys.h) */
    for (uint32_t s = 0; s <= 1 && st == CUZK_OK; s++)
        st = circuit_builder_add(b, CIRCUIT_A, DEMO_STEPS + 1 + s, s, &FR_ONE, NULL);
    if (st != CUZK_OK) {
        circuit_builder_free(b);
        return st;
    }
    return circuit_builder_finish(c, b, NULL);
}

/* Setup, prove (random r, s), verify, and check that a wrong public input
 * is rejected, for one convention. */
static int demo_groth16(groth16_convention conv)
{
    const char *name = conv == GROTH16_SNARKJS ? "snarkjs zkey" : "bellperson params";
    circuit_t c = {0};
    groth16_key_t key = {0};
    groth16_pk_t pk;
    cli_backend_t be = {0};
    fr_t x, r, s, *w = calloc(3 + DEMO_STEPS, sizeof *w);
    int ok = 0;
    rand_fr(&x);
    rand_fr(&r);
    rand_fr(&s);
    double t0 = now_ms();
    if (!w || demo_circuit(&c, w, &x) != CUZK_OK)
        goto out;
    double t_c = now_ms();
    if (groth16_setup(&key, &c, conv, 42, 0, NULL) != CUZK_OK)
        goto out;
    groth16_key_pk(&pk, &key);
    double t_s = now_ms();
    groth16_proof_t proof;
    groth16_prove_opts_t opts = {0, 0, NULL}; /* verifies before returning */
    cuzk_error_t err = {0};
    if (cli_backend_open(&be, DEVICE_AUTO, 0, &err) != CUZK_OK) {
        printf("         no backend: %s\n", err.msg);
        goto out;
    }
    if (groth16_prove(&proof, &pk, &c, w, &r, &s, be.be, &opts, &err) != CUZK_OK) {
        printf("         prove failed (%s): %s\n", be.be->name, err.msg);
        goto out;
    }
    double t_p = now_ms();
    int valid = 0, valid_bad = 1;
    fr_t bad_y;
    fr_add(&bad_y, &w[1], &FR_ONE);
    groth16_verify(&valid, &key.vk, &proof, &w[1], 1, NULL);
    groth16_verify(&valid_bad, &key.vk, &proof, &bad_y, 1, NULL);
    double t_v = now_ms();
    ok = valid && !valid_bad;
    printf("  [%s] Groth16 %-18s %u constraints, domain 2^%u: setup %.0f ms, prove %.0f ms "
           "(%s), verify %.1f ms; wrong public input rejected\n",
           ok ? " ok " : "FAIL", name, c.n_rows, key.log_m, t_s - t_c, t_p - t_s, be.be->name,
           (t_v - t_p) / 2);
    (void)t0;
out:
    if (!ok && !c.n_rows)
        printf("  [FAIL] Groth16 %s: could not build the circuit or key\n", name);
    cli_backend_close(&be);
    groth16_key_free(&key);
    circuit_free(&c);
    free(w);
    return ok;
}

typedef struct demo_check {
    const char *what;
    int (*fn)(void);
} demo_check_t;

int cmd_demo(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: cuzk demo\n");
        return 2;
    }
    static const demo_check_t checks[] = {
        {"G1/G2 generators on the curve and in the subgroup (endomorphism == [r]P test)",
         check_generators},
        {"e(G1, G2) != 1 and e(G1, G2)^r == 1", check_gt_order},
        {"bilinearity: e(aP, bQ) == e(P, Q)^(ab) for random a, b", check_bilinear},
        {"multi-pairing: e(aP, Q) * e(-P, aQ) == 1 with one final exponentiation",
         check_multi_pairing},
        {"generators encode to the zcash compressed constants (97f1d3a7..., 93e02b60...)",
         check_generator_bytes},
        {"16 random points round-trip: zcash compressed/uncompressed, snarkjs LEM, JSON decimal",
         check_roundtrips},
        {"checked decoder rejects the order-3 point (0, 2); unchecked accepts it",
         check_rejects_off_subgroup},
        {"roots of unity 7^((r-1)/2^32) (bellman) and 5^((r-1)/2^32) (snarkjs) have order 2^32",
         check_roots},
    };
    size_t n = sizeof checks / sizeof checks[0], passed = 0;
    printf("cuzk demo: BLS12-381 arithmetic self-check, then Groth16 on a built-in circuit and a "
           "PoRep-shaped multi-partition job\n");
    double t_all = now_ms();
    for (size_t i = 0; i < n; i++) {
        double t0 = now_ms();
        int ok = checks[i].fn();
        passed += (size_t)ok;
        printf("  [%s] %-88s %8.2f ms\n", ok ? " ok " : "FAIL", checks[i].what, now_ms() - t0);
    }
    passed += (size_t)demo_groth16(GROTH16_SNARKJS);
    passed += (size_t)demo_groth16(GROTH16_BELLPERSON);
    passed += (size_t)demo_porep();
    n += 3;
    printf("%zu of %zu checks passed in %.1f ms\n", passed, n, now_ms() - t_all);
    return passed == n ? 0 : 1;
}
