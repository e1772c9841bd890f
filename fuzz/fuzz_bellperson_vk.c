/* libFuzzer harness for the bellperson .vk reader (from a memory buffer).
 *
 * Input: the .vk bytes. The reader must either fail with a status and a
 * message, or return a key whose points are on the curve and in the
 * subgroup and which writes back to exactly the input bytes; parsing a
 * prefix-tolerant way (used != NULL) must agree. A small key is also run
 * through the verifier, which must answer without error. Anything else
 * traps.
 * Seeds (fuzz/corpus/bellperson_vk/): the WinningPoSt key cut from
 * ../shared/testdata/filecoin/winning32.prf (bytes 4424..end), and the same
 * key with n_ic = 2 (its first two IC points). */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_error_t err = {CUZK_OK, ""};
    groth16_vk_t vk;
    cuzk_status st = bellperson_vk_parse(&vk, NULL, data, size, &err);
    size_t used = 0;
    groth16_vk_t vk2;
    cuzk_error_t err2 = {CUZK_OK, ""};
    cuzk_status st2 = bellperson_vk_parse(&vk2, &used, data, size, &err2);
    if (st2 == CUZK_OK) {
        CHECK(used <= size && used == bellperson_vk_bytes(vk2.n_ic));
        CHECK(st == (used == size ? CUZK_OK : CUZK_ERR_LENGTH));
        groth16_vk_free(&vk2);
    } else {
        CHECK(err2.code == st2 && err2.msg[0] != '\0');
        CHECK(vk2.ic == NULL && vk2.n_ic == 0);
        CHECK(st == st2 || st == CUZK_ERR_LENGTH); /* trailing bytes are found first */
    }
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(vk.ic == NULL && vk.n_ic == 0);
        return 0;
    }
    CHECK(vk.n_ic >= 1 && bellperson_vk_bytes(vk.n_ic) == size);
    uint8_t *back = malloc(size);
    if (back) {
        bellperson_vk_write(back, &vk);
        CHECK(memcmp(back, data, size) == 0);
        free(back);
    }
    CHECK(g1_affine_in_subgroup_slow(&vk.alpha_g1) && g2_affine_in_subgroup_slow(&vk.gamma_g2));
    for (size_t i = 0; i < vk.n_ic; i++)
        CHECK(g1_affine_is_on_curve(&vk.ic[i]) && !g1_affine_is_inf(&vk.ic[i]));
    if (vk.n_ic <= 4) {
        /* A made-up proof against the fuzzed key: an answer, not an error. */
        groth16_proof_t p = {vk.alpha_g1, vk.beta_g2, vk.delta_g1};
        fr_t x[3] = {FR_ONE, FR_ZERO, FR_ONE};
        int valid = -1;
        CHECK(groth16_verify(&valid, &vk, &p, x, vk.n_ic - 1, &err) == CUZK_OK);
        CHECK(valid == 0 || valid == 1);
        CHECK(groth16_verify_batch(&valid, &vk, &p, 1, x, &err) == CUZK_OK);
        CHECK(valid == 0 || valid == 1);
    }
    groth16_vk_free(&vk);
    return 0;
}
