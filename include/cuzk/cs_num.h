/* Field-element gadgets: bellpepper's AllocatedNum and Num
 * (BPC:src/gadgets/num.rs) and rust-fil-proofs' constraint.rs
 * (RFP:storage-proofs-core/src/gadgets/constraint.rs).
 *
 * A cs_num_t's value is meaningful only when cs_has_values(cs); gadgets
 * compute values only then. A Num (cs_lcnum_t) is a linear combination with
 * its value; its combination comes from the cs's pool (cs_lcnum_init /
 * cs_lcnum_release).
 *
 * Rules: as cs.h (outputs first, then the cs; errors are the cs's). */
#ifndef CUZK_CS_NUM_H
#define CUZK_CS_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/cs_boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cs_num {
    cs_var_t var;
    fr_t value;
} cs_num_t;

/* AllocatedNum::alloc / alloc_input: one variable, no constraint. value may
 * be NULL when the cs keeps no values. */
cs_num_t cs_num_alloc(cs_t *cs, const fr_t *value);
cs_num_t cs_num_alloc_input(cs_t *cs, const fr_t *value);

/* AllocatedNum::inputize: alloc_input i; i * ONE = x. 1 constraint,
 * 1 input. */
void cs_num_inputize(cs_t *cs, const cs_num_t *x);

/* AllocatedNum::mul: alloc p; a * b = p. square: alloc s; a * a = s. */
cs_num_t cs_num_mul(cs_t *cs, const cs_num_t *a, const cs_num_t *b);
cs_num_t cs_num_square(cs_t *cs, const cs_num_t *a);

/* AllocatedNum::to_bits_le: 255 AllocatedBits of x, LSB first, then
 * 0 * 0 = sum 2^i b_i - x. 256 constraints, 255 aux. */
void cs_num_to_bits_le(cs_bool_t out[255], cs_t *cs, const cs_num_t *x);

/* constraint.rs: equal (a * ONE = b, 1 constraint), add (alloc r;
 * (a + b) * ONE = r), sub (alloc r; (r + b) * ONE = a). */
void cs_num_equal(cs_t *cs, const cs_num_t *a, const cs_num_t *b);
cs_num_t cs_num_add(cs_t *cs, const cs_num_t *a, const cs_num_t *b);
cs_num_t cs_num_sub(cs_t *cs, const cs_num_t *a, const cs_num_t *b);

/* ---- Num: a linear combination with a value ----------------------------- */

typedef struct cs_lcnum {
    cs_lc_t *lc;
    fr_t value;
} cs_lcnum_t;

/* Num::zero (empty combination, value 0). */
void cs_lcnum_init(cs_lcnum_t *n, cs_t *cs);
/* Num::from(AllocatedNum): 1 * x. */
void cs_lcnum_from_num(cs_lcnum_t *n, cs_t *cs, const cs_num_t *x);
void cs_lcnum_release(cs_lcnum_t *n, cs_t *cs);
/* Num::add_bool_with_coeff(ONE, bit, coeff). */
void cs_lcnum_add_bool(cs_t *cs, cs_lcnum_t *n, const cs_bool_t *bit, const fr_t *coeff);
/* Num::add: n += other. */
void cs_lcnum_add(cs_t *cs, cs_lcnum_t *n, const cs_lcnum_t *other);
/* Num::scale: n *= s. */
void cs_lcnum_scale(cs_t *cs, cs_lcnum_t *n, const fr_t *s);
/* An AllocatedNum equal to n: alloc x; n * ONE = x (1 constraint, 1 aux;
 * neptune's Elt::ensure_allocated with enforce, multipack's pack_bits). n's
 * combination is normalized in place (the same map). */
cs_num_t cs_lcnum_alloc(cs_t *cs, cs_lcnum_t *n);

#ifdef __cplusplus
}
#endif
#endif
