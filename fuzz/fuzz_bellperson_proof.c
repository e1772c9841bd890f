/* libFuzzer harness for bellperson proof bytes, public inputs and fil-blst
 * .prf files (from memory buffers).
 *
 * Input: byte 0 picks the reader (0: concatenated 192-byte proofs, 1: 32-byte
 * inputs, 2: a .prf file, layout detected); the rest is its bytes. A reader
 * must either fail with a status and a message, or return values that write
 * back to the same bytes (proofs: subgroup points, no infinity). Anything
 * else traps.
 * Seeds (fuzz/corpus/bellperson_proof/): the proof, the inputs and the whole
 * file of ../shared/testdata/filecoin/winning32.prf, and a small batch-layout
 * file (1 proof, 1 input, the winning key cut to n_ic = 2). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/groth16.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static void check_proof(const groth16_proof_t *p)
{
    CHECK(!g1_affine_is_inf(&p->a) && !g2_affine_is_inf(&p->b) && !g1_affine_is_inf(&p->c));
    CHECK(g1_affine_in_subgroup_slow(&p->a) && g2_affine_in_subgroup_slow(&p->b) &&
          g1_affine_in_subgroup_slow(&p->c));
}

static void fuzz_proofs(const uint8_t *in, size_t len)
{
    size_t k = len / BELLPERSON_PROOF_BYTES;
    groth16_proof_t *p = malloc((k ? k : 1) * sizeof *p);
    if (!p)
        return;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_proofs_read(p, k, in, len, &err);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
    } else {
        uint8_t *back = malloc(len + 1);
        if (back) {
            bellperson_proofs_write(back, p, k);
            CHECK(memcmp(back, in, len) == 0);
            free(back);
        }
        if (k)
            check_proof(&p[0]);
    }
    free(p);
}

static void fuzz_inputs(const uint8_t *in, size_t len)
{
    size_t n = len / BELLPERSON_INPUT_BYTES;
    fr_t *x = malloc((n ? n : 1) * sizeof *x);
    uint8_t *back = malloc(n * BELLPERSON_INPUT_BYTES + 1);
    cuzk_error_t err = {CUZK_OK, ""};
    if (x && back) {
        cuzk_status st = bellperson_inputs_read(x, in, n, &err);
        if (st != CUZK_OK) {
            CHECK(st == CUZK_ERR_NONCANONICAL && err.code == st && err.msg[0] != '\0');
        } else {
            bellperson_inputs_write(back, x, n);
            CHECK(memcmp(back, in, n * BELLPERSON_INPUT_BYTES) == 0);
        }
    }
    free(x);
    free(back);
}

static void fuzz_prf(const uint8_t *in, size_t len)
{
    bellperson_prf_t prf;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_prf_parse(&prf, BELLPERSON_PRF_AUTO, in, len, &err);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(prf.proofs == NULL && prf.inputs == NULL && prf.vk.ic == NULL);
        return;
    }
    CHECK(prf.n_proofs >= 1 && prf.vk.n_ic >= 1);
    /* Every byte accounted for. */
    size_t entry = BELLPERSON_PROOF_BYTES + prf.n_inputs * BELLPERSON_INPUT_BYTES;
    size_t head = (in[0] & 0x80) ? 8 : 16;
    CHECK(head + prf.n_proofs * entry + bellperson_vk_bytes(prf.vk.n_ic) == len);
    uint8_t b[BELLPERSON_PROOF_BYTES];
    bellperson_proof_write(b, &prf.proofs[0]);
    const uint8_t *at = (in[0] & 0x80) ? in : in + 16 + bellperson_vk_bytes(prf.vk.n_ic);
    CHECK(memcmp(b, at, sizeof b) == 0);
    check_proof(&prf.proofs[prf.n_proofs - 1]);
    if (prf.n_inputs + 1 == prf.vk.n_ic && prf.n_inputs <= 8) {
        int valid = -1;
        CHECK(groth16_verify(&valid, &prf.vk, prf.proofs, prf.inputs, prf.n_inputs, &err) ==
              CUZK_OK);
        CHECK(valid == 0 || valid == 1);
    }
    bellperson_prf_free(&prf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0: fuzz_proofs(data + 1, size - 1); break;
    case 1: fuzz_inputs(data + 1, size - 1); break;
    default: fuzz_prf(data + 1, size - 1); break;
    }
    return 0;
}
