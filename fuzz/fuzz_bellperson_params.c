/* libFuzzer harness for the bellperson .params reader (from a memory
 * buffer).
 *
 * Input: byte 0 picks the thread count (bit 0: 1 or 2 threads); the rest is
 * the .params bytes. Both check modes run: a failure must carry a status and
 * a message; the vectors laid out must tile the buffer exactly after the
 * key; the checked mode may only fail where the unchecked one succeeded (on
 * a vector point), and when it succeeds every vector point decodes with the
 * subgroup check. Anything else traps.
 * Seeds (fuzz/corpus/bellperson_params/): small files built from the points
 * of the WinningPoSt key in ../shared/testdata/filecoin/winning32.prf: its
 * fixed part with n_ic = 2, then H = IC[2..5), L = IC[5..7), A = IC[7..9),
 * B_G1 = IC[9..10), B_G2 = (beta_g2, gamma_g2); one with empty vectors. */
#include <stdint.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/encode.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static void check_layout(const bellperson_params_t *p, const uint8_t *buf, size_t len)
{
    const bellperson_points_t *v[5] = {&p->h, &p->l, &p->a, &p->b_g1, &p->b_g2};
    CHECK(p->bytes == buf && p->size == len && p->vk.n_ic >= 1);
    uint64_t off = bellperson_vk_bytes(p->vk.n_ic);
    for (int i = 0; i < 5; i++) {
        uint64_t sz = i == 4 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        CHECK(v[i]->data == buf + off + 4);
        off += 4 + v[i]->n * sz;
        CHECK(off <= len);
    }
    CHECK(off == len);
}

static void check_points(const bellperson_params_t *p)
{
    const bellperson_points_t *v[5] = {&p->h, &p->l, &p->a, &p->b_g1, &p->b_g2};
    for (int i = 0; i < 5; i++) {
        for (uint64_t j = 0; j < v[i]->n; j++) {
            if (i == 4) {
                g2_affine_t q;
                CHECK(g2_deserialize(&q, v[i]->data + j * G2_UNCOMPRESSED_BYTES,
                                     POINT_CHECK_SUBGROUP, NULL) == CUZK_OK);
            } else {
                g1_affine_t q;
                CHECK(g1_deserialize(&q, v[i]->data + j * G1_UNCOMPRESSED_BYTES,
                                     POINT_CHECK_SUBGROUP, NULL) == CUZK_OK);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int threads = 1 + (data[0] & 1);
    const uint8_t *buf = data + 1;
    size_t len = size - 1;

    bellperson_params_t p;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = bellperson_params_parse(&p, buf, len, BELLPERSON_CHECK_KEY, threads, &err);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(p.vk.ic == NULL);
    } else {
        check_layout(&p, buf, len);
    }
    bellperson_params_close(&p);

    bellperson_params_t c;
    cuzk_error_t err2 = {CUZK_OK, ""};
    cuzk_status st2 = bellperson_params_parse(&c, buf, len, BELLPERSON_CHECK_ALL, threads, &err2);
    if (st2 != CUZK_OK) {
        CHECK(err2.code == st2 && err2.msg[0] != '\0');
        CHECK(c.vk.ic == NULL);
        CHECK(st != CUZK_OK ? st2 == st
                            : (st2 == CUZK_ERR_FLAGS || st2 == CUZK_ERR_NONCANONICAL ||
                               st2 == CUZK_ERR_NOT_ON_CURVE || st2 == CUZK_ERR_NOT_IN_SUBGROUP));
    } else {
        CHECK(st == CUZK_OK);
        check_layout(&c, buf, len);
        check_points(&c);
    }
    bellperson_params_close(&c);
    return 0;
}
