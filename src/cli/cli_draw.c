/* Labelled draws for test inputs (cli_draw.h). */
#include "cli_draw.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

void cli_draw32(uint8_t out[32], uint64_t seed, const char *label, uint64_t i)
{
    static const char prefix[] = "cuzk gen-vanilla ";
    uint8_t buf[128];
    size_t n = sizeof prefix - 1, l = strlen(label) < 64 ? strlen(label) : 64;
    memcpy(buf, prefix, n);
    memcpy(buf + n, label, l);
    n += l;
    for (int k = 0; k < 8; k++)
        buf[n++] = (uint8_t)(seed >> (8 * k));
    for (int k = 0; k < 8; k++)
        buf[n++] = (uint8_t)(i >> (8 * k));
    unsigned len = 32;
    if (EVP_Digest(buf, n, out, &len, EVP_sha256(), NULL) != 1)
        memset(out, 0, 32); /* never happens with OpenSSL's SHA-256 */
    out[31] &= 0x3f;
}

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

cuzk_status cli_draw_snap_data(uint64_t *idx, fr_t *val, uint64_t nodes, uint64_t seed,
                               cuzk_error_t *err)
{
    const size_t want = CLI_SNAP_SPARSE_NODES;
    if (nodes <= want)
        return cuzk_error_set(err, CUZK_ERR_ARG, "snap data: %zu nodes of %llu", want,
                              (unsigned long long)nodes);
    uint8_t b[32];
    size_t n = 0;
    for (uint64_t k = 0; n < want; k++) {
        cli_draw32(b, seed, "new data node", k);
        uint64_t x = 0;
        for (int i = 0; i < 8; i++)
            x |= (uint64_t)b[i] << (8 * i);
        idx[n++] = x % nodes;
        if (n == want) { /* sort, drop repeats, draw again if any */
            qsort(idx, n, sizeof *idx, u64_cmp);
            size_t m = 1;
            for (size_t i = 1; i < n; i++)
                if (idx[i] != idx[m - 1])
                    idx[m++] = idx[i];
            n = m;
        }
    }
    for (size_t i = 0; i < n; i++) {
        cli_draw32(b, seed, "new data", idx[i]);
        if (fr_from_le(&val[i], b) != CUZK_OK) /* top two bits clear: below r */
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "snap data: node not canonical");
    }
    return CUZK_OK;
}
