/* libFuzzer harness for the snarkjs .wtns reader (wtns_read_mem, and
 * wtns_read_mem_into checked against it).
 *
 * Input: the file bytes. The reader must either fail with a status and a
 * message (leaving the struct zeroed), or return nWitness canonical values
 * that encode back to the bytes of the input's values section (found here
 * by an independent walk of the section table). Anything else traps.
 * Seeds (fuzz/corpus/wtns/): the shared multiplier witness.wtns, truncations
 * and edits. */
#include <stdint.h>
#include <string.h>

#include "cuzk/wtns.h"

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

/* The body of section `id` of a well-formed container (the reader accepted
 * it, so the table is sound). */
static const uint8_t *find_section(const uint8_t *d, size_t size, uint32_t id, uint64_t *len)
{
    size_t pos = 12;
    uint64_t n = le_get(d + 8, 4);
    for (uint64_t i = 0; i < n; i++) {
        CHECK(pos + 12 <= size);
        uint64_t sz = le_get(d + pos + 4, 8);
        if (le_get(d + pos, 4) == id) {
            *len = sz;
            return d + pos + 12;
        }
        pos += 12 + sz;
    }
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* wtns_read_mem_into agrees with wtns_read_mem: same status, same values,
 * and a buffer one value too small is refused (FORMAT) without a write
 * past it. */
static void check_into(const uint8_t *data, size_t size, cuzk_status want, const wtns_t *w)
{
    enum { CAP = 64 };
    fr_t buf[CAP + 1];
    memset(buf, 0x5a, sizeof buf);
    uint8_t canary[sizeof(fr_t)];
    memcpy(canary, &buf[CAP], sizeof canary);
    cuzk_error_t err = {CUZK_OK, ""};
    uint32_t n = 7;
    cuzk_status st = wtns_read_mem_into(buf, CAP, &n, data, size, "fuzz.wtns", 1, &err);
    CHECK(memcmp(canary, &buf[CAP], sizeof canary) == 0);
    if (want != CUZK_OK || w->n > CAP) {
        CHECK(st != CUZK_OK && err.code == st && err.msg[0] != '\0' && n == 0);
        CHECK(want != CUZK_OK || st == CUZK_ERR_FORMAT);
        return;
    }
    CHECK(st == CUZK_OK && n == w->n);
    CHECK(n == 0 || memcmp(buf, w->w, n * sizeof(fr_t)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_error_t err = {CUZK_OK, ""};
    wtns_t w;
    cuzk_status st = wtns_read_mem(&w, data, size, "fuzz.wtns", 1, &err);
    check_into(data, size, st, &w);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(w.w == NULL && w.n == 0);
        return 0;
    }
    uint64_t len = 0;
    const uint8_t *v = find_section(data, size, 2, &len);
    CHECK(w.w != NULL && v != NULL && len == (uint64_t)w.n * FR_BYTES);
    for (uint32_t i = 0; i < w.n; i++) {
        uint8_t le[FR_BYTES];
        fr_to_le(le, &w.w[i]);
        CHECK(memcmp(le, v + (size_t)i * FR_BYTES, FR_BYTES) == 0);
    }
    wtns_free(&w);
    return 0;
}
