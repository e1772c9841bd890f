/* libFuzzer harness for the snarkjs Groth16 .zkey reader (zkey_open_mem).
 *
 * Input: the file bytes. Opened at ZKEY_CHECK_HEADER, the reader must either
 * fail with a status and a message (leaving the struct closed), or return a
 * key whose counts match its point sections, whose sections lie inside the
 * input, whose section-4 records decode in range, and whose verifying key
 * can be built. The ZKEY_CHECK_ALL pass must then succeed or fail with a
 * point status naming a section. Anything else traps. Seeds
 * (fuzz/corpus/zkey/): the shared multiplier.zkey, truncations and edits of
 * its header, counts, records and points. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/encode.h"
#include "cuzk/zkey.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static void check_inside(const zkey_points_t *p, size_t elem, const uint8_t *d, size_t size)
{
    CHECK(p->count == 0 || (p->data >= d && p->count <= size / elem &&
                            (size_t)(p->data - d) <= size - p->count * elem));
}

static void check_key(const zkey_t *z, const uint8_t *d, size_t size)
{
    CHECK(z->domain_size >= 2 && (z->domain_size & (z->domain_size - 1)) == 0);
    CHECK((1u << z->log_domain) == z->domain_size);
    CHECK(z->n_ic == (size_t)z->n_public + 1 && z->n_public < z->n_vars);
    CHECK(z->a.count == z->n_vars && z->b1.count == z->n_vars && z->b2.count == z->n_vars);
    CHECK(z->c.count == (uint64_t)z->n_vars - z->n_public - 1);
    CHECK(z->h.count == z->domain_size);
    check_inside(&z->a, G1_LEM_BYTES, d, size);
    check_inside(&z->b1, G1_LEM_BYTES, d, size);
    check_inside(&z->b2, G2_LEM_BYTES, d, size);
    check_inside(&z->c, G1_LEM_BYTES, d, size);
    check_inside(&z->h, G1_LEM_BYTES, d, size);
    CHECK(z->n_coefs <= size / ZKEY_COEF_BYTES);
    for (size_t i = 0; i < z->n_ic; i++)
        CHECK(g1_affine_is_on_curve(&z->ic[i]));
    CHECK(g2_affine_is_on_curve(&z->delta_g2));
    zkey_coef_t c;
    for (uint64_t i = 0; i < z->n_coefs; i++) {
        CHECK(zkey_coefs_get(&c, z, i, 1) == CUZK_OK);
        CHECK(c.matrix <= ZKEY_B && c.row < z->domain_size && c.wire < z->n_vars);
        uint8_t le[FR_BYTES];
        fr_t back;
        fr_to_le(le, &c.value);
        CHECK(fr_from_le(&back, le) == CUZK_OK && fr_equal(&back, &c.value));
    }
    CHECK(zkey_coefs_get(&c, z, z->n_coefs, 1) == CUZK_ERR_ARG);
    groth16_vk_t vk;
    CHECK(zkey_to_vk(&vk, z, NULL) == CUZK_OK);
    CHECK(vk.n_ic == z->n_ic && memcmp(vk.ic, z->ic, z->n_ic * sizeof *vk.ic) == 0);
    free(vk.ic);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_error_t err = {CUZK_OK, ""};
    zkey_t z;
    cuzk_status st = zkey_open_mem(&z, data, size, "fuzz.zkey", ZKEY_CHECK_HEADER, 1, &err);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(z.file == NULL && z.ic == NULL);
        return 0;
    }
    check_key(&z, data, size);
    st = zkey_check_points(&z, 1, &err);
    if (st != CUZK_OK) {
        CHECK(st == CUZK_ERR_NONCANONICAL || st == CUZK_ERR_NOT_ON_CURVE ||
              st == CUZK_ERR_NOT_IN_SUBGROUP);
        CHECK(err.code == st && strstr(err.msg, "section") != NULL);
    }
    zkey_close(&z);
    return 0;
}
