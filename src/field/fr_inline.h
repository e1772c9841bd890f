/* Static inline Fr operations for hot loops (the CPU NTT's butterflies) and
 * the implementation of the public fr_add, fr_sub and fr_mul in fr.c: one
 * definition, which hot loops can inline (as fp_inline.h for Fp).
 * fr_mul_inl takes the mulx/adx assembly under the run-time switch of
 * cpu_features.c and the portable CIOS otherwise.
 * Outputs may alias inputs. Internal: not part of the public API. */
#ifndef CUZK_FR_INLINE_H
#define CUZK_FR_INLINE_H

#include "constants_gen.h"
#include "cpu_features.h"
#include "cuzk/fr.h"
#include "mont_asm_x86.h"
#include "mont_impl.h"

static const uint64_t FR_INL_R[FR_LIMBS] = CUZK_R_LIMBS;

static inline void fr_add_inl(fr_t *out, const fr_t *a, const fr_t *b)
{
    mont_add(out->l, a->l, b->l, FR_INL_R, FR_LIMBS);
}

static inline void fr_sub_inl(fr_t *out, const fr_t *a, const fr_t *b)
{
    mont_sub(out->l, a->l, b->l, FR_INL_R, FR_LIMBS);
}

static inline void fr_mul_inl(fr_t *out, const fr_t *a, const fr_t *b)
{
#ifdef CUZK_HAVE_MONT_ASM
    if (__builtin_expect(cuzk_field_use_adx, 1)) {
        mont_mul4_adx(out->l, a->l, b->l, FR_INL_R, CUZK_R_N0);
        return;
    }
#endif
    mont_mul(out->l, a->l, b->l, FR_INL_R, CUZK_R_N0, FR_LIMBS);
}

#endif
