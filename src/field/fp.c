/* Fp arithmetic: Montgomery form over six 64-bit limbs (see include/cuzk/fp.h). */
#include "cuzk/fp.h"

#include "constants_gen.h"
#include "cpu_features.h"
#include "fp_inline.h"
#include "mont_asm_x86.h"
#include "mont_impl.h"

const uint64_t FP_MODULUS[FP_LIMBS] = CUZK_P_LIMBS;
const fp_t FP_ZERO_ELEM = {{0}};
const fp_t FP_ONE = {CUZK_P_ONE};
static const fp_t FP_R2 = {CUZK_P_R2};
#define N0 CUZK_P_N0

_Static_assert(CUZK_P_TOP_LIMB < 0x7fffffffffffffffULL,
               "no-carry Montgomery needs a spare top bit");

void fp_add(fp_t *out, const fp_t *a, const fp_t *b)
{
    fp_add_inl(out, a, b);
}

void fp_sub(fp_t *out, const fp_t *a, const fp_t *b)
{
    fp_sub_inl(out, a, b);
}

void fp_neg(fp_t *out, const fp_t *a)
{
    fp_neg_inl(out, a);
}

void fp_dbl(fp_t *out, const fp_t *a)
{
    fp_dbl_inl(out, a);
}

void fp_mul(fp_t *out, const fp_t *a, const fp_t *b)
{
    fp_mul_inl(out, a, b);
}

void fp_sqr(fp_t *out, const fp_t *a)
{
    fp_mul(out, a, a);
}

void fp_pow_var(fp_t *out, const fp_t *a, const uint64_t *e, size_t n)
{
    mont_pow_var(out->l, a->l, e, n, FP_ONE.l, FP_MODULUS, N0, FP_LIMBS);
}

static const uint64_t P_PLUS_1_DIV_4[FP_LIMBS] = CUZK_P_PLUS_1_DIV_4;
static const uint64_t P_MINUS_1_DIV_2[FP_LIMBS] = CUZK_P_MINUS_1_DIV_2;

void fp_inv(fp_t *out, const fp_t *a)
{
    /* Fermat: a^(p-2) with 4-bit windows (fp_inline.h). */
    fp_inv_inl(out, a);
}

int fp_sqrt(fp_t *out, const fp_t *a)
{
    fp_t s, chk;
    fp_pow_var(&s, a, P_PLUS_1_DIV_4, FP_LIMBS); /* p = 3 mod 4 */
    fp_sqr(&chk, &s);
    if (!fp_equal(&chk, a))
        return 0;
    *out = s;
    return 1;
}

int fp_is_square(const fp_t *a)
{
    fp_t t;
    if (fp_is_zero(a))
        return 1;
    fp_pow_var(&t, a, P_MINUS_1_DIV_2, FP_LIMBS);
    return fp_is_one(&t);
}

int fp_is_zero(const fp_t *a)
{
    return mont_is_zero(a->l, FP_LIMBS);
}

int fp_equal(const fp_t *a, const fp_t *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

int fp_is_one(const fp_t *a)
{
    return fp_equal(a, &FP_ONE);
}

int fp_is_lex_largest(const fp_t *a)
{
    uint64_t c[FP_LIMBS];
    fp_to_limbs(c, a);
    /* canonical > (p-1)/2 */
    return mont_lt(P_MINUS_1_DIV_2, c, FP_LIMBS);
}

cuzk_status fp_from_limbs(fp_t *out, const uint64_t in[FP_LIMBS])
{
    if (!mont_lt(in, FP_MODULUS, FP_LIMBS))
        return CUZK_ERR_NONCANONICAL;
    fp_t t;
    for (int i = 0; i < FP_LIMBS; i++)
        t.l[i] = in[i];
    fp_mul(out, &t, &FP_R2);
    return CUZK_OK;
}

void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a)
{
    static const uint64_t one[FP_LIMBS] = {1, 0, 0, 0, 0, 0};
    mont_mul(out, a->l, one, FP_MODULUS, N0, FP_LIMBS);
}

void fp_from_u64(fp_t *out, uint64_t v)
{
    uint64_t l[FP_LIMBS] = {v, 0, 0, 0, 0, 0};
    (void)fp_from_limbs(out, l);
}

cuzk_status fp_from_be(fp_t *out, const uint8_t in[FP_BYTES])
{
    uint64_t l[FP_LIMBS];
    bytes_to_limbs_be(l, in, FP_LIMBS);
    return fp_from_limbs(out, l);
}

cuzk_status fp_from_le(fp_t *out, const uint8_t in[FP_BYTES])
{
    uint64_t l[FP_LIMBS];
    bytes_to_limbs_le(l, in, FP_LIMBS);
    return fp_from_limbs(out, l);
}

void fp_to_be(uint8_t out[FP_BYTES], const fp_t *a)
{
    uint64_t l[FP_LIMBS];
    fp_to_limbs(l, a);
    limbs_to_bytes_be(out, l, FP_LIMBS);
}

void fp_to_le(uint8_t out[FP_BYTES], const fp_t *a)
{
    uint64_t l[FP_LIMBS];
    fp_to_limbs(l, a);
    limbs_to_bytes_le(out, l, FP_LIMBS);
}

cuzk_status fp_from_mont_le(fp_t *out, const uint8_t in[FP_BYTES])
{
    uint64_t l[FP_LIMBS];
    bytes_to_limbs_le(l, in, FP_LIMBS);
    if (!mont_lt(l, FP_MODULUS, FP_LIMBS))
        return CUZK_ERR_NONCANONICAL;
    for (int i = 0; i < FP_LIMBS; i++)
        out->l[i] = l[i];
    return CUZK_OK;
}

void fp_to_mont_le(uint8_t out[FP_BYTES], const fp_t *a)
{
    limbs_to_bytes_le(out, a->l, FP_LIMBS);
}
