/* libFuzzer harness for the circom .r1cs reader (r1cs_read_mem).
 *
 * Input: the file bytes. The reader must either fail with a status and a
 * message (leaving the struct zeroed), or return a system whose CSR arrays
 * are consistent (rows monotonic, wires < nWires, dictionary indices in
 * range, canonical coefficients); a witness check on it must then run
 * cleanly. Anything else traps. Seeds (fuzz/corpus/r1cs/): the shared
 * multiplier.r1cs, truncations, and edits of its header, counts, wires and
 * coefficients. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static void check_matrix(const r1cs_t *r, const r1cs_matrix_t *m)
{
    CHECK(m->row_ptr[0] == 0);
    for (uint32_t i = 0; i < r->n_constraints; i++)
        CHECK(m->row_ptr[i] <= m->row_ptr[i + 1]);
    CHECK(m->row_ptr[r->n_constraints] == m->nnz);
    for (uint64_t k = 0; k < m->nnz; k++) {
        CHECK(m->col[k] < r->n_wires);
        CHECK(m->coef[k] < r->n_coef);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_error_t err = {CUZK_OK, ""};
    r1cs_t r;
    cuzk_status st = r1cs_read_mem(&r, data, size, "fuzz.r1cs", &err);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(r.coef == NULL && r.m[0].row_ptr == NULL && r.n_constraints == 0);
        return 0;
    }
    CHECK(1 + (uint64_t)r.n_pub_out + r.n_pub_in + r.n_prv_in <= r.n_wires);
    CHECK(r.n_coef >= 2 && fr_is_one(&r.coef[R1CS_COEF_ONE]));
    for (int m = 0; m < 3; m++)
        check_matrix(&r, &r.m[m]);
    for (uint32_t i = 0; i < r.n_coef; i++) {
        uint8_t le[FR_BYTES];
        fr_t back;
        fr_to_le(le, &r.coef[i]);
        CHECK(fr_from_le(&back, le) == CUZK_OK && fr_equal(&back, &r.coef[i]));
    }
    if (r.n_wires <= 4096) {
        /* w_i = i + 1 except w_0 = 1: some systems hold, most do not. */
        fr_t *w = malloc(r.n_wires * sizeof *w);
        CHECK(w != NULL);
        for (uint32_t i = 0; i < r.n_wires; i++)
            fr_from_u64(&w[i], i ? (uint64_t)i + 1 : 1);
        int64_t bad = -2;
        CHECK(r1cs_check_witness(&bad, &r, w, r.n_wires, 1, &err) == CUZK_OK);
        CHECK(bad >= -1 && bad < (int64_t)r.n_constraints);
        if (bad >= 0) {
            fr_t a, b, c;
            uint32_t i = (uint32_t)bad;
            CHECK(r1cs_eval(&a, &r, R1CS_A, w, r.n_wires, i, i + 1, NULL) == CUZK_OK);
            CHECK(r1cs_eval(&b, &r, R1CS_B, w, r.n_wires, i, i + 1, NULL) == CUZK_OK);
            CHECK(r1cs_eval(&c, &r, R1CS_C, w, r.n_wires, i, i + 1, NULL) == CUZK_OK);
            fr_mul(&a, &a, &b);
            CHECK(!fr_equal(&a, &c));
        }
        free(w);
    }
    r1cs_free(&r);
    return 0;
}
