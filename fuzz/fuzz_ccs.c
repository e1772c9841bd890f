/* libFuzzer harness for the cuzk circuit reader (ccs_read_mem).
 *
 * Input: the file bytes. The reader must either fail with a status and a
 * message (leaving the circuit zeroed), or return a circuit that passes
 * ccs_validate and whose counts are the header's (read here by hand), with
 * every dictionary entry equal to the input's bytes. Anything else traps.
 * Each input is read twice: as it is, and with every checksum whose section
 * lies inside the input recomputed, so that mutations reach the structure
 * checks behind the checksums.
 * Seeds (fuzz/corpus/ccs/, tools/gen_ccs_corpus.py): small valid circuits,
 * truncations and edits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ccs.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

static uint64_t le_get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_one(const uint8_t *data, size_t size)
{
    cuzk_error_t err = {CUZK_OK, ""};
    circuit_t c;
    cuzk_status st = ccs_read_mem(&c, data, size, "fuzz.ccs", 1, &err);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(c.dict == NULL && c.m[0].row_ptr == NULL && c.n_rows == 0);
        return;
    }
    CHECK(size >= CCS_HEADER_BYTES + CCS_N_SECTIONS * CCS_ENTRY_BYTES);
    CHECK(c.n_rows == le_get(data + 16, 4) && c.n_vars == le_get(data + 20, 4));
    CHECK(c.n_public == le_get(data + 24, 4) && c.n_dict == le_get(data + 28, 4));
    for (int m = 0; m < 3; m++)
        CHECK(c.m[m].nnz == le_get(data + 32 + 8 * m, 8));
    CHECK(ccs_validate(&c, &err) == CUZK_OK);
    uint64_t dict_off = le_get(data + CCS_HEADER_BYTES + 8, 8);
    for (uint32_t i = 0; i < c.n_dict; i++) {
        uint8_t le[FR_BYTES];
        fr_to_le(le, &c.dict[i]);
        CHECK(memcmp(le, data + dict_off + (size_t)i * FR_BYTES, FR_BYTES) == 0);
    }
    circuit_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_one(data, size);
    size_t head = CCS_HEADER_BYTES + CCS_N_SECTIONS * CCS_ENTRY_BYTES;
    if (size < head)
        return 0;
    uint8_t *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    for (unsigned i = 0; i < CCS_N_SECTIONS; i++) {
        uint8_t *t = copy + CCS_HEADER_BYTES + i * CCS_ENTRY_BYTES;
        uint64_t off = le_get(t + 8, 8), len = le_get(t + 16, 8);
        if (off > size || len > size - off)
            continue;
        uint64_t sum = ccs_checksum(copy + off, (size_t)len);
        for (int b = 0; b < 8; b++)
            t[24 + b] = (uint8_t)(sum >> (8 * b));
    }
    read_one(copy, size);
    free(copy);
    return 0;
}
