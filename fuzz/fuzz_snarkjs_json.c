/* libFuzzer harness for the snarkjs JSON readers and writers.
 *
 * Input: byte 0 picks the file kind (mod 3: proof.json, public.json,
 * verification_key.json); the rest is the text. A reader must either fail
 * with a status and a message, or return values that the writer prints, the
 * reader takes back unchanged, and the writer prints again to the same bytes.
 * Anything else traps. Seeds (fuzz/corpus/snarkjs_json/): the shared
 * multiplier and sha256_64 JSON files behind their kind byte, and edits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/snarkjs_json.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static void check_failure(cuzk_status st, const cuzk_error_t *err)
{
    CHECK(st != CUZK_OK);
    CHECK(err->code == st);
    CHECK(err->msg[0] != '\0');
}

static void fuzz_proof(const char *s, size_t n)
{
    cuzk_error_t err = {CUZK_OK, ""};
    groth16_proof_t p, q;
    cuzk_status st = snarkjs_proof_parse(&p, s, n, NULL, &err);
    if (st != CUZK_OK) {
        check_failure(st, &err);
        return;
    }
    char *t1, *t2;
    size_t l1, l2;
    CHECK(snarkjs_proof_format(&t1, &l1, &p, NULL) == CUZK_OK && strlen(t1) == l1);
    CHECK(snarkjs_proof_parse(&q, t1, l1, NULL, NULL) == CUZK_OK);
    CHECK(g1_affine_equal(&p.a, &q.a) && g2_affine_equal(&p.b, &q.b) &&
          g1_affine_equal(&p.c, &q.c));
    CHECK(snarkjs_proof_format(&t2, &l2, &q, NULL) == CUZK_OK);
    CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
    free(t1);
    free(t2);
}

static void fuzz_public(const char *s, size_t n)
{
    cuzk_error_t err = {CUZK_OK, ""};
    fr_t *v, *u;
    size_t nv, nu;
    cuzk_status st = snarkjs_public_parse(&v, &nv, s, n, NULL, &err);
    if (st != CUZK_OK) {
        check_failure(st, &err);
        return;
    }
    char *t1, *t2;
    size_t l1, l2;
    CHECK(snarkjs_public_format(&t1, &l1, v, nv, NULL) == CUZK_OK && strlen(t1) == l1);
    CHECK(snarkjs_public_parse(&u, &nu, t1, l1, NULL, NULL) == CUZK_OK && nu == nv);
    for (size_t i = 0; i < nv; i++)
        CHECK(fr_equal(&u[i], &v[i]));
    CHECK(snarkjs_public_format(&t2, &l2, u, nu, NULL) == CUZK_OK);
    CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
    free(t1);
    free(t2);
    free(v);
    free(u);
}

static void fuzz_vk(const char *s, size_t n)
{
    cuzk_error_t err = {CUZK_OK, ""};
    groth16_vk_t vk, wk;
    cuzk_status st = snarkjs_vk_parse(&vk, s, n, NULL, &err);
    if (st != CUZK_OK) {
        check_failure(st, &err);
        return;
    }
    char *t1, *t2;
    size_t l1, l2;
    CHECK(snarkjs_vk_format(&t1, &l1, &vk, NULL) == CUZK_OK && strlen(t1) == l1);
    CHECK(snarkjs_vk_parse(&wk, t1, l1, NULL, NULL) == CUZK_OK);
    CHECK(g1_affine_equal(&vk.alpha_g1, &wk.alpha_g1) && g2_affine_equal(&vk.beta_g2, &wk.beta_g2));
    CHECK(g2_affine_equal(&vk.gamma_g2, &wk.gamma_g2) &&
          g2_affine_equal(&vk.delta_g2, &wk.delta_g2));
    CHECK(vk.n_ic == wk.n_ic);
    for (size_t i = 0; i < vk.n_ic; i++)
        CHECK(g1_affine_equal(&vk.ic[i], &wk.ic[i]));
    CHECK(snarkjs_vk_format(&t2, &l2, &wk, NULL) == CUZK_OK);
    CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
    free(t1);
    free(t2);
    free(vk.ic);
    free(wk.ic);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    switch (data[0] % 3) {
    case 0: fuzz_proof(s, n); break;
    case 1: fuzz_public(s, n); break;
    default: fuzz_vk(s, n); break;
    }
    return 0;
}
