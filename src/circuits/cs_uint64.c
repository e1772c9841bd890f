/* UInt64 (RFP:storage-proofs-core/src/gadgets/uint64.rs). */
#include "cuzk/cs_uint64.h"

#include "cuzk/cs_multipack.h"

void cs_u64_const(cs_u64_t *out, uint64_t value)
{
    for (unsigned i = 0; i < 64; i++)
        out->bits[i] = cs_bool_const((int)((value >> i) & 1));
}

void cs_u64_alloc(cs_u64_t *out, cs_t *cs, uint64_t value)
{
    for (unsigned i = 0; i < 64; i++) {
        cs_ns_push(cs, "allocated bit", i);
        out->bits[i] = cs_bit_alloc(cs, (int)((value >> i) & 1));
        cs_ns_pop(cs);
    }
}

uint64_t cs_u64_value(const cs_u64_t *x)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 64; i++)
        v |= (uint64_t)(x->bits[i].value & 1) << i;
    return v;
}

void cs_u64_pack_into_input(cs_t *cs, const cs_u64_t *x)
{
    cs_pack_into_inputs(cs, x->bits, 64);
}

void cs_u64_to_bits_be(cs_bool_t out[64], const cs_u64_t *x)
{
    for (unsigned i = 0; i < 64; i++)
        out[i] = x->bits[63 - i];
}

void cs_u64_from_bits_be(cs_u64_t *out, const cs_bool_t bits[64])
{
    for (unsigned i = 0; i < 64; i++)
        out->bits[i] = bits[63 - i];
}
