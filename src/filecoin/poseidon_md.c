/* filecoin-hashers' Poseidon Merkle-Damgard hash (filecoin_poseidon.h). */
#include "cuzk/filecoin_poseidon.h"

#include <string.h>

#include "cuzk/cs_poseidon.h"
#include "cuzk/poseidon.h"

cuzk_status fil_poseidon_hash_md(fr_t *out, const fr_t *in, size_t n, cuzk_error_t *err)
{
    if (!out || !in || n < 2)
        return cuzk_error_set(err, CUZK_ERR_ARG, "hash_md needs more than one element");
    const poseidon_constants_t *c = NULL;
    cuzk_status st = poseidon_constants_get(&c, FIL_POSEIDON_MD_ARITY, err);
    if (st != CUZK_OK)
        return st;
    fr_t acc = in[0], block[FIL_POSEIDON_MD_ARITY];
    for (size_t at = 1; at < n; at += FIL_POSEIDON_MD_ARITY - 1) {
        size_t k = n - at < FIL_POSEIDON_MD_ARITY - 1 ? n - at : FIL_POSEIDON_MD_ARITY - 1;
        block[0] = acc;
        memcpy(&block[1], &in[at], k * sizeof *in);
        for (size_t i = k + 1; i < FIL_POSEIDON_MD_ARITY; i++)
            block[i] = FR_ZERO; /* neptune's reset leaves zeros */
        if ((st = poseidon_hash(&acc, c, block, FIL_POSEIDON_MD_ARITY, POSEIDON_OPTIMIZED, err)) !=
            CUZK_OK)
            return st;
    }
    *out = acc;
    return CUZK_OK;
}

cs_num_t fil_cs_poseidon_hash_md(cs_t *cs, const cs_num_t *elements, size_t n)
{
    cs_num_t hash = n ? elements[0] : (cs_num_t){CS_ONE, FR_ZERO};
    const poseidon_constants_t *c = NULL;
    cuzk_error_t err;
    if (n < 2) {
        cs_fail(cs, CUZK_ERR_ARG, "hash_md needs more than one element");
        return hash;
    }
    if (poseidon_constants_get(&c, FIL_POSEIDON_MD_ARITY, &err) != CUZK_OK) {
        cs_fail(cs, err.code, "hash_md: %s", err.msg);
        return hash;
    }
    cs_num_t pre[FIL_POSEIDON_MD_ARITY];
    size_t block = 0;
    for (size_t at = 1; at < n; at += FIL_POSEIDON_MD_ARITY - 1, block++) {
        size_t k = n - at < FIL_POSEIDON_MD_ARITY - 1 ? n - at : FIL_POSEIDON_MD_ARITY - 1;
        pre[0] = hash;
        memcpy(&pre[1], &elements[at], k * sizeof *elements);
        /* terminal padding: allocated zeros, in slot order */
        for (size_t i = k + 1; i < FIL_POSEIDON_MD_ARITY; i++)
            pre[i] = cs_num_alloc(cs, &FR_ZERO);
        cs_ns_push(cs, "hash md", (int64_t)block);
        cs_poseidon_hash(&hash, cs, pre, FIL_POSEIDON_MD_ARITY, c);
        cs_ns_pop(cs);
    }
    return hash;
}
