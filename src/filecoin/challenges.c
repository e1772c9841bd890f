/* Replica id, PoRep and PoSt challenges (filecoin_challenges.h).
 * RFP = filecoin-project/rust-fil-proofs@87348a7. */
#include "cuzk/filecoin_challenges.h"

#include <string.h>

#include <openssl/core_names.h>

#include "fil_internal.h"

cuzk_status fil_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                           const uint8_t ticket[32], const uint8_t comm_d[32],
                           const uint8_t porep_id[32], cuzk_error_t *err)
{
    if (!out || !prover_id || !ticket || !comm_d || !porep_id)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_replica_id: NULL argument");
    /* params.rs generate_replica_id: the sector id big-endian (u64::to_be_bytes) */
    uint8_t sid[8];
    for (int i = 0; i < 8; i++)
        sid[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    const void *parts[5] = {prover_id, sid, ticket, comm_d, porep_id};
    size_t lens[5] = {32, 8, 32, 32, 32};
    cuzk_status st = fil_sha256_parts(out, parts, lens, 5, err);
    if (st == CUZK_OK)
        out[31] &= 0x3f; /* bytes_into_fr_repr_safe */
    return st;
}

/* challenges.rs bigint_to_challenge: (LE 256-bit integer mod (nodes - 1))
 * + 1, by Horner's rule from the most significant byte (r < 2^32, so
 * r * 256 + byte fits in 64 bits). */
static uint64_t digest_to_challenge(const uint8_t h[32], uint64_t nodes)
{
    uint64_t r = 0;
    uint64_t m = nodes - 1;
    for (int i = 31; i >= 0; i--)
        r = ((r << 8) | h[i]) % m;
    return r + 1;
}

static cuzk_status porep_challenges(uint64_t *out, size_t n, uint64_t nodes, const void *prefix,
                                    size_t prefix_len, const uint8_t a[32], const uint8_t b[32],
                                    unsigned k, cuzk_error_t *err)
{
    if ((n && !out) || !a || !b)
        return cuzk_error_set(err, CUZK_ERR_ARG, "PoRep challenges: NULL argument");
    /* challenges.rs: debug_assert!(sector_nodes < 1 << 32); a challenge of
     * node 0 is excluded by the + 1 */
    if (nodes < 2 || nodes > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "PoRep challenges: %llu nodes (2 .. 2^32 - 1)",
                              (unsigned long long)nodes);
    if ((uint64_t)n * k + n > (uint64_t)UINT32_MAX + 1)
        return cuzk_error_set(err, CUZK_ERR_ARG, "PoRep challenges: index past u32");
    for (size_t i = 0; i < n; i++) {
        uint32_t j = (uint32_t)(n * k + i);
        uint8_t jle[4] = {(uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24)};
        const void *parts[4] = {prefix, a, b, jle};
        size_t lens[4] = {prefix_len, 32, 32, 4};
        uint8_t h[32];
        cuzk_status st = fil_sha256_parts(h, parts, lens, 4, err);
        if (st != CUZK_OK)
            return st;
        out[i] = digest_to_challenge(h, nodes);
    }
    return CUZK_OK;
}

cuzk_status fil_porep_challenges(uint64_t *out, size_t n, uint64_t nodes,
                                 const uint8_t replica_id[32], const uint8_t seed[32], unsigned k,
                                 cuzk_error_t *err)
{
    /* InteractiveChallenges::derive: SHA-256(replica_id || seed || j LE) */
    return porep_challenges(out, n, nodes, "", 0, replica_id, seed, k, err);
}

cuzk_status fil_porep_ni_challenges(uint64_t *out, size_t n, uint64_t nodes,
                                    const uint8_t replica_id[32], const uint8_t comm_r[32],
                                    unsigned k, cuzk_error_t *err)
{
    static const char TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
    return porep_challenges(out, n, nodes, TAG, sizeof TAG - 1, replica_id, comm_r, k, err);
}

/* ---- synthetic PoRep (challenges.rs mod synthetic) ----------------------- */

/* SYNTH_CHALLENGE_SIZE, SYNTH_INDEX_SIZE, DEFAULT_SYNTH_CHALLENGE_COUNT */
#define SYNTH_CHALLENGE_BYTES 32u
#define SYNTH_INDEX_BYTES 4u
#define SYNTH_DEFAULT_COUNT (1u << 18)

/* chacha20_gen / chacha20_select: the key is BLAKE2b with hash_length 32
 * keyed by the tag, over a || b (blake2b_simd Params::key). */
static cuzk_status synth_key(uint8_t out[32], const char *tag, const uint8_t a[32],
                             const uint8_t b[32], cuzk_error_t *err)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, OSSL_MAC_NAME_BLAKE2BMAC, NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    size_t size = 32, len = 0;
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                            OSSL_PARAM_construct_end()};
    int ok = ctx && EVP_MAC_init(ctx, (const unsigned char *)tag, strlen(tag), params) == 1 &&
             EVP_MAC_update(ctx, a, 32) == 1 && EVP_MAC_update(ctx, b, 32) == 1 &&
             EVP_MAC_final(ctx, out, &len, 32) == 1 && len == 32;
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok ? CUZK_OK : cuzk_error_set(err, CUZK_ERR_INTERNAL, "BLAKE2b MAC: OpenSSL failed");
}

/* `len` bytes of the ChaCha20 keystream (nonce "synth-porep\0", the
 * RustCrypto chacha20 crate's IETF variant) from byte `offset`: OpenSSL's
 * 16-byte IV is the 32-bit block counter LE then the nonce. */
static cuzk_status synth_stream(uint8_t *out, size_t len, const uint8_t key[32], uint64_t offset,
                                cuzk_error_t *err)
{
    static const uint8_t nonce[12] = "synth-porep";
    if (offset / 64 + (len + 63) / 64 + 1 > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "synthetic challenges: keystream past 2^32 blocks");
    uint8_t iv[16], skip[64] = {0};
    uint32_t block = (uint32_t)(offset / 64);
    for (int i = 0; i < 4; i++)
        iv[i] = (uint8_t)(block >> (8 * i));
    memcpy(iv + 4, nonce, 12);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0, ok = ctx && EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) == 1;
    size_t pre = (size_t)(offset % 64);
    if (ok && pre)
        ok = EVP_EncryptUpdate(ctx, skip, &outl, skip, (int)pre) == 1;
    memset(out, 0, len);
    if (ok && len)
        ok = EVP_EncryptUpdate(ctx, out, &outl, out, (int)len) == 1 && (size_t)outl == len;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? CUZK_OK : cuzk_error_set(err, CUZK_ERR_INTERNAL, "ChaCha20: OpenSSL failed");
}

static cuzk_status synth_args(uint64_t *num_synth, uint64_t nodes, cuzk_error_t *err)
{
    if (nodes < 2 || nodes > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "synthetic challenges: %llu nodes (2 .. 2^32 - 1)",
                              (unsigned long long)nodes);
    if (*num_synth == 0) /* SynthChallengeGenerator::default */
        *num_synth = nodes < SYNTH_DEFAULT_COUNT ? nodes : SYNTH_DEFAULT_COUNT;
    /* new(): num_synth_challenges < 1 << 32; seek's u32 byte offset */
    if (*num_synth * SYNTH_CHALLENGE_BYTES > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "synthetic challenges: %llu is too many",
                              (unsigned long long)*num_synth);
    return CUZK_OK;
}

cuzk_status fil_porep_synth_challenge(uint64_t *out, uint64_t nodes, uint64_t num_synth,
                                      const uint8_t replica_id[32], const uint8_t comm_r[32],
                                      uint64_t i, cuzk_error_t *err)
{
    if (!out || !replica_id || !comm_r)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_porep_synth_challenge: NULL argument");
    cuzk_status st = synth_args(&num_synth, nodes, err);
    if (st != CUZK_OK)
        return st;
    if (i >= num_synth)
        return cuzk_error_set(err, CUZK_ERR_ARG, "synthetic challenge %llu of %llu",
                              (unsigned long long)i, (unsigned long long)num_synth);
    uint8_t key[32], r[SYNTH_CHALLENGE_BYTES];
    if ((st = synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r,
                        err)) != CUZK_OK ||
        (st = synth_stream(r, sizeof r, key, i * SYNTH_CHALLENGE_BYTES, err)) != CUZK_OK)
        return st;
    *out = digest_to_challenge(r, nodes);
    return CUZK_OK;
}

cuzk_status fil_porep_synth_challenges(uint64_t *out, size_t n, uint64_t nodes, uint64_t num_synth,
                                       const uint8_t replica_id[32], const uint8_t comm_r[32],
                                       const uint8_t seed[32], unsigned k, cuzk_error_t *err)
{
    if ((n && !out) || !replica_id || !comm_r || !seed)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_porep_synth_challenges: NULL argument");
    cuzk_status st = synth_args(&num_synth, nodes, err);
    if (st != CUZK_OK)
        return st;
    uint8_t key[32];
    if ((st = synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed, err)) !=
        CUZK_OK)
        return st;
    /* gen_partition_synth_indexes: u32 LE indices from byte 4 * n * k */
    for (size_t i = 0; i < n; i++) {
        uint8_t b[SYNTH_INDEX_BYTES];
        uint64_t pos = ((uint64_t)n * k + i) * SYNTH_INDEX_BYTES;
        if ((st = synth_stream(b, sizeof b, key, pos, err)) != CUZK_OK)
            return st;
        uint32_t idx =
            (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        st = fil_porep_synth_challenge(&out[i], nodes, num_synth, replica_id, comm_r,
                                       idx % num_synth, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

uint64_t fil_post_challenge_index(fil_api_version api, uint64_t sector_index,
                                  uint64_t challenge_count, uint64_t n)
{
    return api == FIL_API_1_2 ? n : sector_index * challenge_count + n;
}

static void le64_put(uint8_t out[8], uint64_t v)
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le64_get(const uint8_t in[8])
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | in[i];
    return v;
}

cuzk_status fil_post_leaf_challenge(uint64_t *out, const uint8_t randomness[32], uint64_t sector_id,
                                    uint64_t challenge_index, uint64_t leaves, cuzk_error_t *err)
{
    if (!out || !randomness)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_leaf_challenge: NULL argument");
    if (leaves == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_leaf_challenge: 0 leaves");
    uint8_t sid[8], idx[8], h[32];
    le64_put(sid, sector_id);
    le64_put(idx, challenge_index);
    const void *parts[3] = {randomness, sid, idx};
    size_t lens[3] = {32, 8, 8};
    cuzk_status st = fil_sha256_parts(h, parts, lens, 3, err);
    if (st == CUZK_OK)
        *out = le64_get(h) % leaves;
    return st;
}

cuzk_status fil_post_sector_challenge(uint64_t *out, const uint8_t randomness[32], uint64_t n,
                                      uint64_t sector_set_len, const uint8_t prover_id[32],
                                      cuzk_error_t *err)
{
    if (!out || !randomness || !prover_id)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_sector_challenge: NULL argument");
    if (sector_set_len == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_post_sector_challenge: empty sector set");
    uint8_t nle[8], h[32];
    le64_put(nle, n);
    const void *parts[3] = {prover_id, randomness, nle};
    size_t lens[3] = {32, 32, 8};
    cuzk_status st = fil_sha256_parts(h, parts, lens, 3, err);
    if (st == CUZK_OK)
        *out = le64_get(h) % sector_set_len;
    return st;
}
