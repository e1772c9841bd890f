/* Generic Montgomery arithmetic on N 64-bit limbs, shared by Fp (N = 6) and
 * Fr (N = 4). Every function is static inline and called with a constant N,
 * so the compiler unrolls the loops per field.
 *
 * Requirement (checked in fp.c / fr.c with _Static_assert): the modulus' top
 * limb is below 2^63 - 1. Then the CIOS loop needs no extra carry word
 * (the "no-carry" variant, gnark-crypto's note "Faster Montgomery
 * multiplication", 2020), and a + b never overflows N limbs. */
#ifndef CUZK_MONT_IMPL_H
#define CUZK_MONT_IMPL_H

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#if defined(__x86_64__) && defined(__GNUC__)
#include <x86intrin.h>
/* adc / sbb chains: the u128 versions below compile to about four times the
 * instructions, and gcc vectorises their select loops into a store-forward
 * stall (fr_add measured 17.6 ns with them, 3.5 ns with clang). */
#define MONT_CARRY_INTRINSICS 1
#endif

/* out = a - m if a >= m else a; constant time. */
static inline void mont_reduce_once(uint64_t *out, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t t[8];
#ifdef MONT_CARRY_INTRINSICS
    /* a - m, then m added back when that borrowed: two carry chains. (A
     * limb-by-limb select of a or a - m gets SLP-vectorised by gcc 12 into
     * 8-byte stores read back by 16-byte loads, a store-forward stall:
     * fr_add took as long as fr_mul in the NTT.) */
    unsigned char borrow = 0, carry = 0;
    for (int i = 0; i < n; i++)
        borrow = _subborrow_u64(borrow, a[i], m[i], (unsigned long long *)&t[i]);
    uint64_t mask = (uint64_t)0 - borrow;
    for (int i = 0; i < n; i++)
        carry = _addcarry_u64(carry, t[i], m[i] & mask, (unsigned long long *)&out[i]);
    (void)carry; /* set exactly when the subtraction borrowed */
#else
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 d = (u128)a[i] - m[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* borrow == 1 means a < m: keep a. */
    uint64_t keep_a = (uint64_t)0 - borrow;
    for (int i = 0; i < n; i++)
        out[i] = (a[i] & keep_a) | (t[i] & ~keep_a);
#endif
}

static inline void mont_add(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            int n)
{
    uint64_t s[8];
#ifdef MONT_CARRY_INTRINSICS
    unsigned char carry = 0;
    for (int i = 0; i < n; i++)
        carry = _addcarry_u64(carry, a[i], b[i], (unsigned long long *)&s[i]);
#else
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        u128 t = (u128)a[i] + b[i] + carry;
        s[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
#endif
    (void)carry; /* a + b < 2m < 2^(64n): no carry out (spare top bit) */
    mont_reduce_once(out, s, m, n);
}

static inline void mont_sub(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            int n)
{
    uint64_t d[8];
#ifdef MONT_CARRY_INTRINSICS
    unsigned char borrow = 0, carry = 0;
    for (int i = 0; i < n; i++)
        borrow = _subborrow_u64(borrow, a[i], b[i], (unsigned long long *)&d[i]);
    uint64_t mask = (uint64_t)0 - borrow; /* a < b: add m back */
    for (int i = 0; i < n; i++)
        carry = _addcarry_u64(carry, d[i], m[i] & mask, (unsigned long long *)&out[i]);
    (void)carry;
#else
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 t = (u128)a[i] - b[i] - borrow;
        d[i] = (uint64_t)t;
        borrow = (uint64_t)(t >> 64) & 1;
    }
    uint64_t mask = (uint64_t)0 - borrow;
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        u128 t = (u128)d[i] + (m[i] & mask) + carry;
        out[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
#endif
}

static inline int mont_is_zero(const uint64_t *a, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

static inline void mont_neg(uint64_t *out, const uint64_t *a, const uint64_t *m, int n)
{
    /* m - a, except that -0 must stay 0 (not m). */
    uint64_t nz = (uint64_t)0 - (uint64_t)!mont_is_zero(a, n);
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 t = (u128)m[i] - a[i] - borrow;
        out[i] = (uint64_t)t & nz;
        borrow = (uint64_t)(t >> 64) & 1;
    }
}

/* CIOS Montgomery product a * b * 2^(-64n) mod m. */
static inline void mont_mul(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            uint64_t n0, int n)
{
    uint64_t t[8] = {0};
    for (int i = 0; i < n; i++) {
        u128 acc = (u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(acc >> 64);
        uint64_t q = (uint64_t)acc * n0;
        u128 red = (u128)q * m[0] + (uint64_t)acc;
        uint64_t C = (uint64_t)(red >> 64);
        for (int j = 1; j < n; j++) {
            acc = (u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(acc >> 64);
            red = (u128)q * m[j] + (uint64_t)acc + C;
            C = (uint64_t)(red >> 64);
            t[j - 1] = (uint64_t)red;
        }
        t[n - 1] = C + A;
    }
    mont_reduce_once(out, t, m, n);
}

/* 1 if a < m (as integers). */
static inline int mont_lt(const uint64_t *a, const uint64_t *m, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        if (a[i] != m[i])
            return a[i] < m[i];
    }
    return 0;
}

static inline void mont_pow_var(uint64_t *out, const uint64_t *a, const uint64_t *e, size_t ne,
                                const uint64_t *one, const uint64_t *m, uint64_t n0, int n)
{
    uint64_t acc[8], base[8];
    memcpy(acc, one, (size_t)n * 8);
    memcpy(base, a, (size_t)n * 8);
    int started = 0;
    for (size_t i = ne; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            if (started)
                mont_mul(acc, acc, acc, m, n0, n);
            if ((e[i] >> bit) & 1) {
                mont_mul(acc, acc, base, m, n0, n);
                started = 1;
            }
        }
    }
    memcpy(out, acc, (size_t)n * 8);
}

static inline void bytes_to_limbs_be(uint64_t *out, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int j = 0; j < 8; j++)
            v = (v << 8) | in[(n - 1 - i) * 8 + j];
        out[i] = v;
    }
}

static inline void bytes_to_limbs_le(uint64_t *out, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
            v = (v << 8) | in[i * 8 + j];
        out[i] = v;
    }
}

static inline void limbs_to_bytes_be(uint8_t *out, const uint64_t *in, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 8; j++)
            out[(n - 1 - i) * 8 + j] = (uint8_t)(in[i] >> (56 - 8 * j));
}

static inline void limbs_to_bytes_le(uint8_t *out, const uint64_t *in, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 8; j++)
            out[i * 8 + j] = (uint8_t)(in[i] >> (8 * j));
}

#endif
