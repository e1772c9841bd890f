/* SHA-256 (BP:src/gadgets/sha256.rs). The order of every gadget call below
 * is bellperson's: message schedule first, then per round the deferred e,
 * S1, ch, the deferred a, S0, maj; then h0..h7; then the MultiEq's last
 * flush (its Drop, when sha256_compression_function returns). */
#include <string.h>

#include "cuzk/cs_sha256.h"

#include "cs_internal.h"

static const uint32_t ROUND_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

void cs_sha256_iv(cs_u32_t out[8])
{
    for (int i = 0; i < 8; i++)
        cs_u32_const(&out[i], IV[i]);
}

/* sha256.rs's Maybe: a word known now, or the operands of an addition
 * deferred until the word is used. */
typedef struct maybe {
    int deferred;
    size_t n;
    cs_u32_t ops[8]; /* ops[0] is the word when !deferred */
} maybe_t;

/* Maybe::compute(others): the word, or the deferred addition with `extra`
 * (NULL: none) appended. */
static void maybe_compute(cs_u32_t *out, cs_multieq_t *me, const maybe_t *m, const cs_u32_t *extra)
{
    if (!m->deferred) {
        *out = m->ops[0];
        return;
    }
    const cs_u32_t *ops[9];
    size_t n = 0;
    for (size_t k = 0; k < m->n; k++)
        ops[n++] = &m->ops[k];
    if (extra)
        ops[n++] = extra;
    cs_u32_addmany(out, me, ops, n);
}

/* x rotr r0 xor x rotr r1 xor (x rotr r2, or x shr r2 when shift) */
static void sigma(cs_u32_t *out, cs_t *cs, const cs_u32_t *x, unsigned r0, unsigned r1, unsigned r2,
                  int shift, const char *first, const char *second)
{
    cs_u32_t t, u;
    cs_u32_rotr(out, x, r0);
    cs_u32_rotr(&t, x, r1);
    cs_ns_push(cs, first, -1);
    cs_u32_xor(out, cs, out, &t);
    cs_ns_pop(cs);
    if (shift)
        cs_u32_shr(&u, x, r2);
    else
        cs_u32_rotr(&u, x, r2);
    cs_ns_push(cs, second, -1);
    cs_u32_xor(out, cs, out, &u);
    cs_ns_pop(cs);
}

static void schedule(cs_u32_t w[64], cs_multieq_t *me)
{
    cs_t *cs = me->cs;
    for (int i = 16; i < 64; i++) {
        cs_ns_push(cs, "w extension", i);
        cs_u32_t s0, s1;
        sigma(&s0, cs, &w[i - 15], 7, 18, 3, 1, "first xor for s0", "second xor for s0");
        sigma(&s1, cs, &w[i - 2], 17, 19, 10, 1, "first xor for s1", "second xor for s1");
        const cs_u32_t *ops[4] = {&w[i - 16], &s0, &w[i - 7], &s1};
        cs_ns_push(cs, "computation of w[i]", -1);
        cs_u32_addmany(&w[i], me, ops, 4);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
    }
}

void cs_sha256_compress(cs_u32_t out[8], cs_t *cs, const cs_bool_t block[512],
                        const cs_u32_t cur_in[8])
{
    cs_u32_t cur[8], w[64];
    memcpy(cur, cur_in, sizeof cur);
    for (int i = 0; i < 16; i++)
        cs_u32_from_bits_be(&w[i], &block[32 * i]);
    cs_multieq_t me;
    cs_multieq_init(&me, cs);
    schedule(w, &me);

    maybe_t a = {0, 1, {cur[0]}}, e = {0, 1, {cur[4]}};
    cs_u32_t b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (int i = 0; i < 64; i++) {
        cs_ns_push(cs, "compression round", i);
        cs_u32_t new_e, new_a, s1, ch, s0, maj, k;
        cs_ns_push(cs, "deferred e computation", -1);
        maybe_compute(&new_e, &me, &e, NULL);
        cs_ns_pop(cs);
        sigma(&s1, cs, &new_e, 6, 11, 25, 0, "first xor for s1", "second xor for s1");
        cs_ns_push(cs, "ch", -1);
        cs_u32_sha256_ch(&ch, cs, &new_e, &f, &g);
        cs_ns_pop(cs);
        cs_u32_const(&k, ROUND_K[i]);
        cs_ns_push(cs, "deferred a computation", -1);
        maybe_compute(&new_a, &me, &a, NULL);
        cs_ns_pop(cs);
        sigma(&s0, cs, &new_a, 2, 13, 22, 0, "first xor for s0", "second xor for s0");
        cs_ns_push(cs, "maj", -1);
        cs_u32_sha256_maj(&maj, cs, &new_a, &b, &c);
        cs_ns_pop(cs);
        /* temp1 = [h, S1, ch, k, w]; e = temp1 + d; a = temp1 + [S0, maj] */
        const cs_u32_t temp1[5] = {h, s1, ch, k, w[i]};
        h = g;
        g = f;
        f = new_e;
        e.deferred = 1;
        e.n = 6;
        memcpy(e.ops, temp1, sizeof temp1);
        e.ops[5] = d;
        d = c;
        c = b;
        b = new_a;
        a.deferred = 1;
        a.n = 7;
        memcpy(a.ops, temp1, sizeof temp1);
        a.ops[5] = s0;
        a.ops[6] = maj;
        cs_ns_pop(cs);
    }

    cs_u32_t res[8];
    const cs_u32_t *pair[2];
    cs_ns_push(cs, "deferred h0 computation", -1);
    maybe_compute(&res[0], &me, &a, &cur[0]);
    cs_ns_pop(cs);
    const cs_u32_t *mid[3] = {&b, &c, &d};
    for (int j = 1; j <= 3; j++) {
        pair[0] = &cur[j];
        pair[1] = mid[j - 1];
        cs_ns_push(cs, "new h", j);
        cs_u32_addmany(&res[j], &me, pair, 2);
        cs_ns_pop(cs);
    }
    cs_ns_push(cs, "deferred h4 computation", -1);
    maybe_compute(&res[4], &me, &e, &cur[4]);
    cs_ns_pop(cs);
    const cs_u32_t *late[3] = {&f, &g, &h};
    for (int j = 5; j <= 7; j++) {
        pair[0] = &cur[j];
        pair[1] = late[j - 5];
        cs_ns_push(cs, "new h", j);
        cs_u32_addmany(&res[j], &me, pair, 2);
        cs_ns_pop(cs);
    }
    cs_multieq_finish(&me);
    memcpy(out, res, sizeof res);
}

static void digest_bits(cs_bool_t out[256], const cs_u32_t st[8])
{
    for (int i = 0; i < 8; i++)
        cs_u32_into_bits_be(&out[32 * i], &st[i]);
}

void cs_sha256_block_no_padding(cs_bool_t out[256], cs_t *cs, const cs_bool_t block[512])
{
    cs_u32_t st[8];
    cs_sha256_iv(st);
    cs_sha256_compress(st, cs, block, st);
    digest_bits(out, st);
}

void cs_sha256(cs_bool_t out[256], cs_t *cs, const cs_bool_t *msg, size_t n_bits)
{
    cs_u32_t st[8];
    cs_sha256_iv(st);
    if (n_bits % 8 != 0) {
        cs_fail(cs, CUZK_ERR_ARG, "sha256: %zu bits is not a whole number of bytes", n_bits);
        digest_bits(out, st);
        return;
    }
    /* message, a 1 bit, zeros until 64 bits short of a block, the bit length
     * as a 64-bit big-endian integer: all padding bits are constants */
    size_t padded = n_bits + 1;
    while ((padded + 64) % 512 != 0)
        padded++;
    padded += 64;
    cs_bool_t block[512];
    for (size_t blk = 0; blk < padded / 512; blk++) {
        for (size_t j = 0; j < 512; j++) {
            size_t p = blk * 512 + j;
            if (p < n_bits)
                block[j] = msg[p];
            else if (p == n_bits)
                block[j] = cs_bool_const(1);
            else if (p < padded - 64)
                block[j] = cs_bool_const(0);
            else
                block[j] = cs_bool_const((int)(((uint64_t)n_bits >> (padded - 1 - p)) & 1));
        }
        cs_ns_push(cs, "block", (int64_t)blk);
        cs_sha256_compress(st, cs, block, st);
        cs_ns_pop(cs);
    }
    digest_bits(out, st);
}
