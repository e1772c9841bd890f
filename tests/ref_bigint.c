/* Slow reference big integers (see ref_bigint.h). Every routine computes into
 * a local and copies out at the end, which is what makes aliasing safe. */
#include "ref_bigint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ref_die(const char *fn, const char *why)
{
    fprintf(stderr, "ref_bigint: %s: %s\n", fn, why);
    abort();
}

/* Word-array helpers over the low n words. */

static int cmp_words(const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

static uint32_t sub_words(uint32_t *out, const uint32_t *a, const uint32_t *b, size_t n)
{
    uint32_t borrow = 0;
    for (size_t i = 0; i < n; i++) {
        /* A negative difference wraps to 2^64 - x: bit 32 is then set. */
        uint64_t d = (uint64_t)a[i] - b[i] - borrow;
        out[i] = (uint32_t)d;
        borrow = (uint32_t)(d >> 32) & 1;
    }
    return borrow;
}

/* a = 2a + in_bit; returns the bit shifted out of the top. */
static uint32_t shl1_words(uint32_t *a, size_t n, uint32_t in_bit)
{
    uint32_t carry = in_bit;
    for (size_t i = 0; i < n; i++) {
        uint32_t top = a[i] >> 31;
        a[i] = (a[i] << 1) | carry;
        carry = top;
    }
    return carry;
}

static void set_bit(ref_bn_t *a, unsigned i)
{
    a->w[i / 32] |= (uint32_t)1 << (i % 32);
}

static uint8_t get_byte(const ref_bn_t *a, size_t j)
{
    if (j >= 4 * (size_t)REF_WORDS)
        return 0;
    return (uint8_t)(a->w[j / 4] >> (8 * (j % 4)));
}

static void put_byte(ref_bn_t *a, size_t j, uint8_t v, const char *fn)
{
    if (j >= 4 * (size_t)REF_WORDS) {
        if (v != 0)
            ref_die(fn, "value does not fit REF_BITS");
        return;
    }
    a->w[j / 4] |= (uint32_t)v << (8 * (j % 4));
}

void ref_set_u64(ref_bn_t *out, uint64_t v)
{
    memset(out, 0, sizeof *out);
    out->w[0] = (uint32_t)v;
    out->w[1] = (uint32_t)(v >> 32);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void ref_set_hex(ref_bn_t *out, const char *hex)
{
    ref_bn_t r;
    memset(&r, 0, sizeof r);
    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
        hex += 2;
    if (*hex == '\0')
        ref_die("ref_set_hex", "no digits");
    for (; *hex; hex++) {
        int d = hex_digit(*hex);
        if (d < 0)
            ref_die("ref_set_hex", "not a hex digit");
        ref_shl(&r, &r, 4); /* aborts if the number outgrows REF_BITS */
        r.w[0] |= (uint32_t)d;
    }
    *out = r;
}

void ref_to_hex(char out[REF_HEX_MAX], const ref_bn_t *a)
{
    static const char digits[] = "0123456789abcdef";
    unsigned nibbles = (ref_bitlen(a) + 3) / 4;
    if (nibbles == 0)
        nibbles = 1;
    size_t k = 0;
    out[k++] = '0';
    out[k++] = 'x';
    for (unsigned i = nibbles; i-- > 0;)
        out[k++] = digits[(a->w[i / 8] >> (4 * (i % 8))) & 15];
    out[k] = '\0';
}

void ref_from_be(ref_bn_t *out, const uint8_t *in, size_t len)
{
    ref_bn_t r;
    memset(&r, 0, sizeof r);
    for (size_t j = 0; j < len; j++)
        put_byte(&r, j, in[len - 1 - j], "ref_from_be");
    *out = r;
}

void ref_from_le(ref_bn_t *out, const uint8_t *in, size_t len)
{
    ref_bn_t r;
    memset(&r, 0, sizeof r);
    for (size_t j = 0; j < len; j++)
        put_byte(&r, j, in[j], "ref_from_le");
    *out = r;
}

void ref_to_be(uint8_t *out, size_t len, const ref_bn_t *a)
{
    if (ref_bitlen(a) > 8 * len)
        ref_die("ref_to_be", "value does not fit the buffer");
    for (size_t j = 0; j < len; j++)
        out[len - 1 - j] = get_byte(a, j);
}

void ref_to_le(uint8_t *out, size_t len, const ref_bn_t *a)
{
    if (ref_bitlen(a) > 8 * len)
        ref_die("ref_to_le", "value does not fit the buffer");
    for (size_t j = 0; j < len; j++)
        out[j] = get_byte(a, j);
}

void ref_from_limbs(ref_bn_t *out, const uint64_t *in, size_t n)
{
    ref_bn_t r;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < 8; j++)
            put_byte(&r, 8 * i + j, (uint8_t)(in[i] >> (8 * j)), "ref_from_limbs");
    }
    *out = r;
}

void ref_to_limbs(uint64_t *out, size_t n, const ref_bn_t *a)
{
    if (ref_bitlen(a) > 64 * n)
        ref_die("ref_to_limbs", "value does not fit the limbs");
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (size_t j = 8; j-- > 0;)
            v = (v << 8) | get_byte(a, 8 * i + j);
        out[i] = v;
    }
}

int ref_cmp(const ref_bn_t *a, const ref_bn_t *b)
{
    return cmp_words(a->w, b->w, REF_WORDS);
}

int ref_is_zero(const ref_bn_t *a)
{
    for (size_t i = 0; i < REF_WORDS; i++) {
        if (a->w[i] != 0)
            return 0;
    }
    return 1;
}

int ref_bit(const ref_bn_t *a, unsigned i)
{
    if (i >= REF_BITS)
        return 0;
    return (int)((a->w[i / 32] >> (i % 32)) & 1);
}

unsigned ref_bitlen(const ref_bn_t *a)
{
    for (unsigned i = REF_WORDS; i-- > 0;) {
        if (a->w[i] == 0)
            continue;
        unsigned b = 32;
        while (!((a->w[i] >> (b - 1)) & 1))
            b--;
        return 32 * i + b;
    }
    return 0;
}

uint32_t ref_add(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b)
{
    ref_bn_t r;
    uint32_t carry = 0;
    for (size_t i = 0; i < REF_WORDS; i++) {
        uint64_t s = (uint64_t)a->w[i] + b->w[i] + carry;
        r.w[i] = (uint32_t)s;
        carry = (uint32_t)(s >> 32);
    }
    *out = r;
    return carry;
}

uint32_t ref_sub(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b)
{
    ref_bn_t r;
    uint32_t borrow = sub_words(r.w, a->w, b->w, REF_WORDS);
    *out = r;
    return borrow;
}

void ref_shl(ref_bn_t *out, const ref_bn_t *a, unsigned k)
{
    ref_bn_t r;
    memset(&r, 0, sizeof r);
    for (unsigned i = 0; i < REF_BITS; i++) {
        if (!ref_bit(a, i))
            continue;
        if (i + k >= REF_BITS)
            ref_die("ref_shl", "result does not fit REF_BITS");
        set_bit(&r, i + k);
    }
    *out = r;
}

void ref_shr(ref_bn_t *out, const ref_bn_t *a, unsigned k)
{
    ref_bn_t r;
    memset(&r, 0, sizeof r);
    for (unsigned i = 0; i + k < REF_BITS; i++) {
        if (ref_bit(a, i + k))
            set_bit(&r, i);
    }
    *out = r;
}

void ref_mul(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b)
{
    /* (2^32-1)^2 + 2 (2^32-1) = 2^64 - 1: a word product plus the partial
     * sum plus the carry always fits a uint64_t. */
    uint32_t t[2 * REF_WORDS] = {0};
    for (size_t i = 0; i < REF_WORDS; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < REF_WORDS; j++) {
            uint64_t cur = (uint64_t)a->w[i] * b->w[j] + t[i + j] + carry;
            t[i + j] = (uint32_t)cur;
            carry = cur >> 32;
        }
        t[i + REF_WORDS] = (uint32_t)carry;
    }
    for (size_t i = REF_WORDS; i < 2 * REF_WORDS; i++) {
        if (t[i] != 0)
            ref_die("ref_mul", "product does not fit REF_BITS");
    }
    memcpy(out->w, t, sizeof out->w);
}

void ref_divmod(ref_bn_t *q, ref_bn_t *r, const ref_bn_t *a, const ref_bn_t *m)
{
    if (ref_is_zero(m))
        ref_die("ref_divmod", "zero modulus");
    if (m->w[REF_WORDS - 1] != 0)
        ref_die("ref_divmod", "modulus too large");
    /* The remainder stays below m before each shift, so below 2m after it:
     * one word more than m has is enough, and loops over that many words
     * instead of all REF_WORDS keep the reference usable in loops. */
    size_t n = REF_WORDS - 1;
    while (n > 0 && m->w[n - 1] == 0)
        n--;
    n++;
    ref_bn_t qq, rr;
    memset(&qq, 0, sizeof qq);
    memset(&rr, 0, sizeof rr);
    for (unsigned i = ref_bitlen(a); i-- > 0;) {
        shl1_words(rr.w, n, (uint32_t)ref_bit(a, i));
        if (cmp_words(rr.w, m->w, n) >= 0) {
            sub_words(rr.w, rr.w, m->w, n);
            set_bit(&qq, i);
        }
    }
    if (q)
        *q = qq;
    if (r)
        *r = rr;
}

void ref_mod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *m)
{
    if (ref_is_zero(m))
        ref_die("ref_mod", "zero modulus");
    if (ref_cmp(a, m) < 0) {
        *out = *a; /* already reduced: skips a long division */
        return;
    }
    ref_divmod(NULL, out, a, m);
}

void ref_addmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b, const ref_bn_t *m)
{
    ref_bn_t x, y;
    ref_mod(&x, a, m);
    ref_mod(&y, b, m);
    ref_add(&x, &x, &y); /* < 2m: no carry, since m < 2^(REF_BITS - 32) */
    ref_mod(out, &x, m);
}

void ref_submod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b, const ref_bn_t *m)
{
    /* a - b = a + (m - b) mod m, with m - b in (0, m]: nothing goes negative. */
    ref_bn_t x, y;
    ref_mod(&x, a, m);
    ref_mod(&y, b, m);
    ref_sub(&y, m, &y);
    ref_add(&x, &x, &y);
    ref_mod(out, &x, m);
}

void ref_negmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *m)
{
    ref_bn_t zero;
    memset(&zero, 0, sizeof zero);
    ref_submod(out, &zero, a, m);
}

void ref_mulmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *b, const ref_bn_t *m)
{
    ref_bn_t x, y;
    ref_mod(&x, a, m);
    ref_mod(&y, b, m);
    ref_mul(&x, &x, &y);
    ref_mod(out, &x, m);
}

void ref_powmod(ref_bn_t *out, const ref_bn_t *a, const ref_bn_t *e, const ref_bn_t *m)
{
    ref_bn_t base, acc;
    ref_mod(&base, a, m);
    ref_set_u64(&acc, 1);
    ref_mod(&acc, &acc, m); /* 1 mod m: 0 when m = 1 */
    for (unsigned i = ref_bitlen(e); i-- > 0;) {
        ref_mulmod(&acc, &acc, &acc, m);
        if (ref_bit(e, i))
            ref_mulmod(&acc, &acc, &base, m);
    }
    *out = acc;
}
