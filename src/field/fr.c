/* Fr arithmetic: Montgomery form over four 64-bit limbs (see include/cuzk/fr.h). */
#include "cuzk/fr.h"

#include <sys/random.h>

#include "constants_gen.h"
#include "cpu_features.h"
#include "fr_inline.h"
#include "mont_asm_x86.h"
#include "mont_impl.h"

const uint64_t FR_MODULUS[FR_LIMBS] = CUZK_R_LIMBS;
const fr_t FR_ZERO = {{0}};
const fr_t FR_ONE = {CUZK_R_ONE};
static const fr_t FR_R2 = {CUZK_R_R2};
#define N0 CUZK_R_N0

_Static_assert(CUZK_R_TOP_LIMB < 0x7fffffffffffffffULL,
               "no-carry Montgomery needs a spare top bit");

void fr_add(fr_t *out, const fr_t *a, const fr_t *b)
{
    fr_add_inl(out, a, b);
}

void fr_sub(fr_t *out, const fr_t *a, const fr_t *b)
{
    fr_sub_inl(out, a, b);
}

void fr_neg(fr_t *out, const fr_t *a)
{
    mont_neg(out->l, a->l, FR_MODULUS, FR_LIMBS);
}

void fr_dbl(fr_t *out, const fr_t *a)
{
    mont_add(out->l, a->l, a->l, FR_MODULUS, FR_LIMBS);
}

void fr_mul(fr_t *out, const fr_t *a, const fr_t *b)
{
    fr_mul_inl(out, a, b);
}

void fr_sqr(fr_t *out, const fr_t *a)
{
    fr_mul(out, a, a);
}

void fr_pow_var(fr_t *out, const fr_t *a, const uint64_t *e, size_t n)
{
    mont_pow_var(out->l, a->l, e, n, FR_ONE.l, FR_MODULUS, N0, FR_LIMBS);
}

static const uint64_t R_MINUS_2[FR_LIMBS] = CUZK_R_MINUS_2;

void fr_inv(fr_t *out, const fr_t *a)
{
    fr_pow_var(out, a, R_MINUS_2, FR_LIMBS);
}

int fr_is_zero(const fr_t *a)
{
    return mont_is_zero(a->l, FR_LIMBS);
}

int fr_equal(const fr_t *a, const fr_t *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FR_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

int fr_is_one(const fr_t *a)
{
    return fr_equal(a, &FR_ONE);
}

cuzk_status fr_from_limbs(fr_t *out, const uint64_t in[FR_LIMBS])
{
    if (!mont_lt(in, FR_MODULUS, FR_LIMBS))
        return CUZK_ERR_NONCANONICAL;
    fr_t t;
    for (int i = 0; i < FR_LIMBS; i++)
        t.l[i] = in[i];
    fr_mul(out, &t, &FR_R2);
    return CUZK_OK;
}

void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a)
{
    static const uint64_t one[FR_LIMBS] = {1, 0, 0, 0};
    mont_mul(out, a->l, one, FR_MODULUS, N0, FR_LIMBS);
}

void fr_from_u64(fr_t *out, uint64_t v)
{
    uint64_t l[FR_LIMBS] = {v, 0, 0, 0};
    (void)fr_from_limbs(out, l);
}

cuzk_status fr_from_be(fr_t *out, const uint8_t in[FR_BYTES])
{
    uint64_t l[FR_LIMBS];
    bytes_to_limbs_be(l, in, FR_LIMBS);
    return fr_from_limbs(out, l);
}

cuzk_status fr_from_le(fr_t *out, const uint8_t in[FR_BYTES])
{
    uint64_t l[FR_LIMBS];
    bytes_to_limbs_le(l, in, FR_LIMBS);
    return fr_from_limbs(out, l);
}

void fr_to_be(uint8_t out[FR_BYTES], const fr_t *a)
{
    uint64_t l[FR_LIMBS];
    fr_to_limbs(l, a);
    limbs_to_bytes_be(out, l, FR_LIMBS);
}

void fr_to_le(uint8_t out[FR_BYTES], const fr_t *a)
{
    uint64_t l[FR_LIMBS];
    fr_to_limbs(l, a);
    limbs_to_bytes_le(out, l, FR_LIMBS);
}

cuzk_status fr_root_of_unity(fr_t *out, fr_roots conv, unsigned log_n)
{
    static const uint64_t bellman[FR_LIMBS] = CUZK_FR_ROOT_BELLMAN_PLAIN;
    static const uint64_t ffjs[FR_LIMBS] = CUZK_FR_ROOT_FFJS_PLAIN;
    if (log_n > FR_TWO_ADICITY || (conv != FR_ROOTS_BELLMAN && conv != FR_ROOTS_FFJS))
        return CUZK_ERR_ARG;
    fr_t w;
    (void)fr_from_limbs(&w, conv == FR_ROOTS_BELLMAN ? bellman : ffjs);
    for (unsigned i = log_n; i < FR_TWO_ADICITY; i++)
        fr_sqr(&w, &w);
    *out = w;
    return CUZK_OK;
}

cuzk_status fr_random(fr_t *out, cuzk_error_t *err)
{
    /* rejection sampling: 255 random bits, redrawn while >= r (p ~ 0.55) */
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t l[FR_LIMBS];
        if (getrandom(l, sizeof l, 0) != (ssize_t)sizeof l)
            return cuzk_error_set(err, CUZK_ERR_IO, "getrandom failed");
        l[FR_LIMBS - 1] &= 0x7fffffffffffffffULL;
        if (fr_from_limbs(out, l) == CUZK_OK)
            return CUZK_OK;
    }
    return cuzk_error_set(err, CUZK_ERR_IO, "getrandom gave no value below r");
}
