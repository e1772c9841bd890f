/* multipack (BP:src/gadgets/multipack.rs): pack_into_inputs, pack_bits,
 * compute_multipacking. */
#include "cuzk/cs_multipack.h"

#include "cs_internal.h"

/* Num::zero().add_bool_with_coeff(ONE, bit_i, 2^i) over bits[0..n), into
 * the scratch combination `a` (its value in *value). */
static void pack_lc(cs_t *cs, cs_lc_t *a, fr_t *value, const cs_bool_t *bits, size_t n)
{
    *value = FR_ZERO;
    for (size_t i = 0; i < n; i++) {
        cs_lc_add_bool(cs, a, &bits[i], &cs->pow2[i]);
        if (cs->values && bits[i].value)
            fr_add(value, value, &cs->pow2[i]);
    }
}

void cs_pack_into_inputs(cs_t *cs, const cs_bool_t *bits, size_t n)
{
    for (size_t off = 0, chunk = 0; off < n; off += CS_MULTIPACK_CHUNK, chunk++) {
        size_t len = n - off < CS_MULTIPACK_CHUNK ? n - off : CS_MULTIPACK_CHUNK;
        cs_lc_t *a, *b, *c;
        cs_enforce_begin(cs, &a, &b, &c);
        fr_t value;
        pack_lc(cs, a, &value, bits + off, len);
        cs_var_t in = cs_alloc_input(cs, &value);
        /* num * 1 = input */
        cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
        cs_lc_push_(cs, c, in, &FR_ONE);
        cs_ns_push(cs, "packing constraint", (int64_t)chunk);
        cs_enforce(cs, a, b, c);
        cs_ns_pop(cs);
    }
}

cs_num_t cs_pack_bits(cs_t *cs, const cs_bool_t *bits, size_t n)
{
    if (n > CS_MULTIPACK_CHUNK)
        n = CS_MULTIPACK_CHUNK;
    cs_lc_t *a, *b, *c;
    cs_enforce_begin(cs, &a, &b, &c);
    fr_t value;
    pack_lc(cs, a, &value, bits, n);
    cs_num_t x = cs_num_alloc(cs, &value);
    cs_lc_push_(cs, b, CS_ONE, &FR_ONE);
    cs_lc_push_(cs, c, x.var, &FR_ONE);
    cs_enforce(cs, a, b, c);
    return x;
}

size_t cs_multipacking_len(size_t n_bits)
{
    return (n_bits + CS_MULTIPACK_CHUNK - 1) / CS_MULTIPACK_CHUNK;
}

void cs_compute_multipacking(fr_t *out, const uint8_t *bits, size_t n_bits)
{
    for (size_t off = 0, k = 0; off < n_bits; off += CS_MULTIPACK_CHUNK, k++) {
        uint64_t limbs[FR_LIMBS] = {0, 0, 0, 0};
        for (size_t i = 0; i < CS_MULTIPACK_CHUNK && off + i < n_bits; i++)
            if (bits[off + i])
                limbs[i / 64] |= 1ull << (i % 64);
        /* < 2^254 < r: always canonical */
        (void)fr_from_limbs(&out[k], limbs);
    }
}
