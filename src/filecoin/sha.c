/* The Filecoin SHA-256 node and create_label, native and as gadgets
 * (filecoin_sha.h). RFP = filecoin-project/rust-fil-proofs@87348a7. */
#include "cuzk/filecoin_sha.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_multipack.h"
#include "cuzk/cs_sha256.h"
#include "fil_internal.h"

/* ---- native ------------------------------------------------------------- */

/* Sha256Domain::trim_to_fr32: the value is < 2^254 < r. */
static void trim(uint8_t d[32])
{
    d[31] &= 0x3f;
}

cuzk_status fil_sha256_hash(uint8_t out[32], const uint8_t *data, size_t len, cuzk_error_t *err)
{
    if (!out || (len && !data))
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sha256_hash: NULL argument");
    const void *parts[1] = {data ? (const void *)data : ""};
    cuzk_status st = fil_sha256_parts(out, parts, &len, 1, err);
    if (st == CUZK_OK)
        trim(out);
    return st;
}

cuzk_status fil_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32],
                            cuzk_error_t *err)
{
    if (!out || !left || !right)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_sha256_node: NULL argument");
    const void *parts[2] = {left, right};
    size_t lens[2] = {32, 32};
    cuzk_status st = fil_sha256_parts(out, parts, lens, 2, err);
    if (st == CUZK_OK)
        trim(out);
    return st;
}

cuzk_status fil_create_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer,
                             uint64_t node, const uint8_t *const parents[FIL_LABEL_PARENTS],
                             cuzk_error_t *err)
{
    if (!out || !replica_id)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_create_label: NULL argument");
    /* single.rs create_label: buffer[0..4] = layer BE, [4..12] = node BE,
     * the rest zero; node 0 hashes replica_id || buffer alone */
    uint8_t buf[32] = {0};
    for (int i = 0; i < 4; i++)
        buf[i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[4 + i] = (uint8_t)(node >> (56 - 8 * i));
    const void *parts[2 + FIL_LABEL_PARENTS] = {replica_id, buf};
    size_t lens[2 + FIL_LABEL_PARENTS] = {32, 32};
    size_t n = 2;
    if (parents)
        for (unsigned i = 0; i < FIL_LABEL_PARENTS; i++, n++) {
            if (!parents[i])
                return cuzk_error_set(err, CUZK_ERR_ARG, "fil_create_label: parent %u is NULL", i);
            parts[n] = parents[i];
            lens[n] = 32;
        }
    cuzk_status st = fil_sha256_parts(out, parts, lens, n, err);
    if (st == CUZK_OK)
        trim(out);
    return st;
}

/* ---- gadgets ------------------------------------------------------------ */

/* What a gadget returns when it could not run (its error is in the cs). */
static cs_num_t failed_num(void)
{
    cs_num_t x = {CS_ONE, FR_ZERO};
    return x;
}

cs_num_t fil_cs_sha256_bits(cs_t *cs, const cs_bool_t *bits, size_t n)
{
    cs_bool_t digest[256], le[256];
    cs_ns_push(cs, "hash", -1);
    cs_sha256(digest, cs, bits, n);
    cs_ns_pop(cs);
    /* hash_circuit: be_bits.chunks(8).flat_map(rev).take(Fr::CAPACITY) */
    cs_bits_reverse_in_bytes(le, digest, 256);
    cs_ns_push(cs, "pack_le", -1);
    cs_num_t x = cs_pack_bits(cs, le, 254);
    cs_ns_pop(cs);
    return x;
}

cs_num_t fil_cs_sha256_leaf_bits(cs_t *cs, const cs_bool_t *left, size_t n_left,
                                 const cs_bool_t *right, size_t n_right)
{
    size_t cap = (n_left + 7) / 8 * 8 + (n_right + 7) / 8 * 8;
    cs_bool_t *pre = malloc((cap ? cap : 1) * sizeof *pre);
    if (!pre) {
        cs_fail(cs, CUZK_ERR_NOMEM, "sha256 leaf: no memory for %zu bits", cap);
        return failed_num();
    }
    size_t nl = cs_bits_reverse_in_bytes(pre, left, n_left);
    size_t nr = cs_bits_reverse_in_bytes(pre + nl, right, n_right);
    cs_num_t x = fil_cs_sha256_bits(cs, pre, nl + nr);
    free(pre);
    return x;
}

cs_num_t fil_cs_sha256_multi_leaf(cs_t *cs, const cs_num_t *leaves, size_t n)
{
    if (n == 0) {
        cs_fail(cs, CUZK_ERR_ARG, "sha256 multi leaf: no leaves");
        return failed_num();
    }
    cs_bool_t *pre = malloc(n * 256 * sizeof *pre);
    if (!pre) {
        cs_fail(cs, CUZK_ERR_NOMEM, "sha256 multi leaf: no memory for %zu leaves", n);
        return failed_num();
    }
    for (size_t i = 0; i < n; i++) {
        cs_bool_t bits[255];
        cs_ns_push(cs, "num_into_bits", (int64_t)i);
        cs_num_to_bits_le(bits, cs, &leaves[i]);
        cs_ns_pop(cs);
        /* 255 bits + one constant false, reversed inside each byte: the
         * constant lands at bit 248 of the chunk */
        cs_bits_reverse_in_bytes(pre + 256 * i, bits, 255);
    }
    cs_num_t x = fil_cs_sha256_bits(cs, pre, 256 * n);
    free(pre);
    return x;
}

cs_num_t fil_cs_sha256_hash2(cs_t *cs, const cs_num_t *a, const cs_num_t *b)
{
    /* hash2_circuit allocates a's bits, then b's, then builds the same
     * preimage as hash_multi_leaf_circuit: one R1CS */
    cs_num_t leaves[2] = {*a, *b};
    return fil_cs_sha256_multi_leaf(cs, leaves, 2);
}

cs_num_t fil_cs_create_label(cs_t *cs, const cs_bool_t *replica_id, size_t n_id,
                             const cs_bool_t *const parents[FIL_LABEL_PARENTS], size_t n_parent,
                             const cs_u32_t *layer, const cs_u64_t *node)
{
    /* create_label.rs: assert!(32 <= replica_id.len() <= 256) */
    if (n_id < 32 || n_id > 256 || n_parent > 256) {
        cs_fail(cs, CUZK_ERR_ARG, "create_label: replica id of %zu bits, parents of %zu bits", n_id,
                n_parent);
        return failed_num();
    }
    enum { BITS = (2 + FIL_LABEL_PARENTS) * 256 };
    cs_bool_t *msg = malloc(BITS * sizeof *msg);
    if (!msg) {
        cs_fail(cs, CUZK_ERR_NOMEM, "create_label: no memory for the message");
        return failed_num();
    }
    /* id | layer | node | zeros to 64 bytes | parent_0 | parent_1 | ... */
    memcpy(msg, replica_id, n_id * sizeof *msg);
    for (size_t i = n_id; i < 256; i++)
        msg[i] = cs_bool_const(0);
    cs_u32_into_bits_be(msg + 256, layer);
    cs_u64_to_bits_be(msg + 288, node);
    for (size_t i = 352; i < 512; i++)
        msg[i] = cs_bool_const(0);
    for (unsigned p = 0; p < FIL_LABEL_PARENTS; p++) {
        cs_bool_t *dst = msg + 512 + 256 * (size_t)p;
        if (n_parent)
            memcpy(dst, parents[p], n_parent * sizeof *msg);
        for (size_t i = n_parent; i < 256; i++)
            dst[i] = cs_bool_const(0);
    }
    cs_bool_t digest[256], le[256];
    cs_ns_push(cs, "hash", -1);
    cs_sha256(digest, cs, msg, BITS);
    cs_ns_pop(cs);
    free(msg);
    cs_bits_reverse_in_bytes(le, digest, 256);
    cs_ns_push(cs, "result_num", -1);
    cs_num_t x = cs_pack_bits(cs, le, 254);
    cs_ns_pop(cs);
    return x;
}
