/* Static inline Fp operations for hot loops (the CPU MSM's bucket
 * arithmetic) and the implementation of the public fp_add, fp_sub, fp_mul
 * and fp_inv in fp.c: one definition, which hot loops can inline.
 * fp_mul_inl takes the mulx/adx assembly under the run-time switch of
 * cpu_features.c and the portable CIOS otherwise.
 * Outputs may alias inputs. Internal: not part of the public API. */
#ifndef CUZK_FP_INLINE_H
#define CUZK_FP_INLINE_H

#include "constants_gen.h"
#include "cpu_features.h"
#include "cuzk/fp.h"
#include "mont_asm_x86.h"
#include "mont_impl.h"

static const uint64_t FP_INL_P[FP_LIMBS] = CUZK_P_LIMBS;

static inline void fp_add_inl(fp_t *out, const fp_t *a, const fp_t *b)
{
    mont_add(out->l, a->l, b->l, FP_INL_P, FP_LIMBS);
}

static inline void fp_dbl_inl(fp_t *out, const fp_t *a)
{
    mont_add(out->l, a->l, a->l, FP_INL_P, FP_LIMBS);
}

static inline void fp_sub_inl(fp_t *out, const fp_t *a, const fp_t *b)
{
    mont_sub(out->l, a->l, b->l, FP_INL_P, FP_LIMBS);
}

static inline void fp_neg_inl(fp_t *out, const fp_t *a)
{
    mont_neg(out->l, a->l, FP_INL_P, FP_LIMBS);
}

static inline int fp_is_zero_inl(const fp_t *a)
{
    return mont_is_zero(a->l, FP_LIMBS);
}

static inline void fp_mul_inl(fp_t *out, const fp_t *a, const fp_t *b)
{
#ifdef CUZK_HAVE_MONT_ASM
    if (__builtin_expect(cuzk_field_use_adx, 1)) {
        mont_mul6_adx(out->l, a->l, b->l, FP_INL_P, CUZK_P_N0);
        return;
    }
#endif
    mont_mul(out->l, a->l, b->l, FP_INL_P, CUZK_P_N0, FP_LIMBS);
}

static inline void fp_sqr_inl(fp_t *out, const fp_t *a)
{
    fp_mul_inl(out, a, a);
}

/* out = a^(p-2) = a^-1 (0 maps to 0), as fp_inv, with 4-bit fixed
 * windows: 380 squarings + 95 multiplications + 14 for the table.
 * Variable time only in the public exponent. */
static inline void fp_inv_inl(fp_t *out, const fp_t *a)
{
    static const uint64_t e[FP_LIMBS] = CUZK_P_MINUS_2;
    fp_t tab[16], acc = FP_ONE;
    tab[0] = FP_ONE;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        fp_mul_inl(&tab[i], &tab[i - 1], a);
    /* p - 2 has 381 bits: the top nibble is bits 380..377 of limb 5. */
    int started = 0;
    for (int bit = FP_LIMBS * 64 - 4; bit >= 0; bit -= 4) {
        unsigned nib = (unsigned)(e[bit / 64] >> (bit % 64)) & 15;
        if (started) {
            for (int s = 0; s < 4; s++)
                fp_sqr_inl(&acc, &acc);
            if (nib)
                fp_mul_inl(&acc, &acc, &tab[nib]);
        } else if (nib) {
            acc = tab[nib];
            started = 1;
        }
    }
    *out = acc;
}

#endif
