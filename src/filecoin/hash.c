/* SHA-256 and BLAKE2b-512 through OpenSSL's EVP, and ChaCha (fil_internal.h). */
#include "fil_internal.h"

#include <string.h>

cuzk_status fil_sha256_parts(uint8_t out[32], const void *const *parts, const size_t *lens,
                             size_t n, cuzk_error_t *err)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SHA-256: no memory for a digest context");
    int ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
    for (size_t i = 0; ok && i < n; i++)
        ok = EVP_DigestUpdate(ctx, parts[i], lens[i]) == 1;
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(ctx, out, &len) == 1 && len == 32;
    EVP_MD_CTX_free(ctx);
    return ok ? CUZK_OK : cuzk_error_set(err, CUZK_ERR_INTERNAL, "SHA-256: OpenSSL failed");
}

static const uint64_t B2B_IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};

static const uint8_t B2B_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

#define B2B_G(a, b, c, d, x, y)                                                                    \
    do {                                                                                           \
        a = a + b + (x);                                                                           \
        d = rotr64(d ^ a, 32);                                                                     \
        c = c + d;                                                                                 \
        b = rotr64(b ^ c, 24);                                                                     \
        a = a + b + (y);                                                                           \
        d = rotr64(d ^ a, 16);                                                                     \
        c = c + d;                                                                                 \
        b = rotr64(b ^ c, 63);                                                                     \
    } while (0)

void fil_blake2b512_16_prefix(uint8_t out[8], const uint8_t in[16])
{
    uint64_t m[16] = {0};
    for (int i = 7; i >= 0; i--) {
        m[0] = m[0] << 8 | in[i];
        m[1] = m[1] << 8 | in[8 + i];
    }
    /* parameter block: digest length 64, no key, fanout 1, depth 1 */
    uint64_t h0 = B2B_IV[0] ^ 0x01010040ull;
    uint64_t v[16] = {h0};
    for (int i = 1; i < 8; i++)
        v[i] = B2B_IV[i];
    for (int i = 0; i < 8; i++)
        v[8 + i] = B2B_IV[i];
    v[12] ^= 16;    /* t = the 16 bytes hashed */
    v[14] = ~v[14]; /* the last block */
    /* Rounds written out with constant indices: the compiler folds the 14
     * zero message words away. */
#define B2B_ROUND(r)                                                                               \
    do {                                                                                           \
        const uint8_t *s = B2B_SIGMA[r];                                                           \
        B2B_G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);                                          \
        B2B_G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);                                          \
        B2B_G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);                                         \
        B2B_G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);                                         \
        B2B_G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);                                         \
        B2B_G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);                                       \
        B2B_G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);                                        \
        B2B_G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);                                        \
    } while (0)
    B2B_ROUND(0);
    B2B_ROUND(1);
    B2B_ROUND(2);
    B2B_ROUND(3);
    B2B_ROUND(4);
    B2B_ROUND(5);
    B2B_ROUND(6);
    B2B_ROUND(7);
    B2B_ROUND(8);
    B2B_ROUND(9);
    B2B_ROUND(10);
    B2B_ROUND(11);
#undef B2B_ROUND
    uint64_t w = h0 ^ v[0] ^ v[8];
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(w >> (8 * i));
}

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

#define QR(a, b, c, d)                                                                             \
    do {                                                                                           \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 16);                                                                     \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 12);                                                                     \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 8);                                                                      \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 7);                                                                      \
    } while (0)

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The ChaCha block function (Bernstein; RFC 8439 §2.3 with the original
 * 64-bit counter and 64-bit nonce, which rand_chacha keeps). */
void fil_chacha_words(uint32_t *out, const uint8_t key[32], unsigned rounds, unsigned n_blocks)
{
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; i++)
        in[4 + i] = le32(key + 4 * i);
    for (unsigned blk = 0; blk < n_blocks; blk++) {
        in[12] = blk; /* counter low word; the high word and the stream stay 0 */
        uint32_t x[16];
        memcpy(x, in, sizeof x);
        for (unsigned r = 0; r < rounds; r += 2) {
            QR(x[0], x[4], x[8], x[12]);
            QR(x[1], x[5], x[9], x[13]);
            QR(x[2], x[6], x[10], x[14]);
            QR(x[3], x[7], x[11], x[15]);
            QR(x[0], x[5], x[10], x[15]);
            QR(x[1], x[6], x[11], x[12]);
            QR(x[2], x[7], x[8], x[13]);
            QR(x[3], x[4], x[9], x[14]);
        }
        for (int i = 0; i < 16; i++)
            out[16 * blk + (unsigned)i] = x[i] + in[i];
    }
}
