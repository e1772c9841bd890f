/* SnapDeals' native derivations (include/cuzk/filecoin_update.h; RFP@87348a7
 * storage-proofs-update/src/vanilla.rs phi, rho; challenges.rs Challenges;
 * circuit.rs and poseidon/circuit.rs PublicInputs::new; constants.rs
 * h_select). */
#include <string.h>

#include "cuzk/filecoin_update.h"
#include "cuzk/poseidon.h"

static cuzk_status hash_rand(fr_t *out, const fr_t *a, const fr_t *b, cuzk_error_t *err)
{
    const poseidon_constants_t *pc = NULL;
    cuzk_status st = poseidon_constants_get_custom(&pc, 2, FIL_UPDATE_GEN_RANDOMNESS_ID, err);
    if (st != CUZK_OK)
        return st;
    fr_t in[2] = {*a, *b};
    return poseidon_hash(out, pc, in, 2, POSEIDON_OPTIMIZED, err);
}

cuzk_status fil_update_phi(fr_t *out, const fr_t *comm_d_new, const fr_t *comm_r_old,
                           cuzk_error_t *err)
{
    if (!out || !comm_d_new || !comm_r_old)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_update_phi: NULL argument");
    return hash_rand(out, comm_d_new, comm_r_old, err);
}

cuzk_status fil_update_rho(fr_t *out, const fr_t *phi, uint32_t high, cuzk_error_t *err)
{
    if (!out || !phi)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_update_rho: NULL argument");
    fr_t h;
    fr_from_u64(&h, high);
    return hash_rand(out, phi, &h, err);
}

cuzk_status fil_update_h_select(uint64_t *out, const fil_update_shape_t *shape, unsigned h,
                                cuzk_error_t *err)
{
    if (!out || !shape)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_update_h_select: NULL argument");
    for (unsigned i = 0; i < FIL_UPDATE_HS; i++)
        if (shape->hs[i] == h) {
            *out = UINT64_C(1) << i;
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_ARG, "update: h = %u is not allowed for %llu nodes", h,
                          (unsigned long long)shape->nodes);
}

cuzk_status fil_update_public_inputs(fr_t out[4], const fil_update_shape_t *shape, unsigned k,
                                     unsigned h, const fr_t *comm_r_old, const fr_t *comm_d_new,
                                     const fr_t *comm_r_new, cuzk_error_t *err)
{
    if (!out || !shape || !comm_r_old || !comm_d_new || !comm_r_new)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_update_public_inputs: NULL argument");
    if (k >= shape->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "update: partition %u of %u", k,
                              shape->partitions);
    uint64_t sel;
    cuzk_status st = fil_update_h_select(&sel, shape, h, err);
    if (st != CUZK_OK)
        return st;
    fr_from_u64(&out[0], (uint64_t)k | sel << shape->partition_bits);
    out[1] = *comm_r_old;
    out[2] = *comm_d_new;
    out[3] = *comm_r_new;
    return CUZK_OK;
}

cuzk_status fil_update_challenges(uint64_t *out, const fil_update_shape_t *shape,
                                  const fr_t *comm_r_new, unsigned k, cuzk_error_t *err)
{
    if (!out || !shape || !comm_r_new)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_update_challenges: NULL argument");
    if (k >= shape->partitions)
        return cuzk_error_set(err, CUZK_ERR_ARG, "update: partition %u of %u", k,
                              shape->partitions);
    const unsigned bits = shape->challenge_bits - shape->partition_bits;
    const unsigned per_digest = 254 / bits;
    const unsigned digests = (shape->challenges + per_digest - 1) / per_digest;
    const uint64_t high = (uint64_t)k << bits;
    uint64_t index = (uint64_t)k * digests; /* digest_index_all_partitions */
    uint8_t le[FR_BYTES];
    for (unsigned c = 0, i = 0; c < shape->challenges; c++) {
        if (i == 0) {
            fr_t di, d;
            fr_from_u64(&di, index);
            cuzk_status st = hash_rand(&d, comm_r_new, &di, err);
            if (st != CUZK_OK)
                return st;
            fr_to_le(le, &d);
        }
        uint64_t v = 0;
        for (unsigned b = 0; b < bits; b++) {
            unsigned at = i * bits + b;
            v |= (uint64_t)((le[at / 8] >> (at % 8)) & 1u) << b;
        }
        out[c] = v | high;
        if (++i == per_digest) {
            i = 0;
            index++;
        }
    }
    return CUZK_OK;
}
