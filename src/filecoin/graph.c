/* The SDR parent graph and its parent cache (filecoin_graph.h).
 * RFP = filecoin-project/rust-fil-proofs@87348a7. */
#include "cuzk/filecoin_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "fil_internal.h"

/* crypto/mod.rs: derive_porep_domain_seed(tag, porep_id) = SHA-256(tag ||
 * porep_id), the tag without a terminator. */
static cuzk_status domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32],
                               cuzk_error_t *err)
{
    const void *parts[2] = {tag, porep_id};
    size_t lens[2] = {strlen(tag), 32};
    return fil_sha256_parts(out, parts, lens, 2, err);
}

cuzk_status fil_graph_init(fil_graph_t *g, uint64_t nodes, const uint8_t porep_id[32],
                           fil_api_version api, cuzk_error_t *err)
{
    if (!g || !porep_id)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_graph_init: NULL argument");
    /* graph.rs new: nodes <= u32::MAX; a graph needs node 1's predecessor */
    if (nodes < 2 || nodes > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_graph_init: %llu nodes (2 .. 2^32 - 1)",
                              (unsigned long long)nodes);
    if (api != FIL_API_1_0 && api != FIL_API_1_1 && api != FIL_API_1_2)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_graph_init: unknown API version %d",
                              (int)api);
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->api = api;
    uint8_t seed[32];
    cuzk_status st = domain_seed(seed, "Filecoin_DRSample", porep_id, err);
    if (st != CUZK_OK)
        return st;
    memcpy(g->drg_seed, seed, 28); /* drgraph.rs derive_drg_seed */
    if ((st = domain_seed(seed, "Filecoin_Feistel", porep_id, err)) != CUZK_OK)
        return st;
    for (int k = 0; k < 4; k++) { /* graph.rs derive_feistel_keys: u64 LE */
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | seed[8 * k + i];
        g->feistel_keys[k] = v;
    }
    /* feistel.rs precompute(expansion_degree * nodes) */
    uint64_t n = FIL_EXP_DEGREE * nodes, pow4 = 4;
    unsigned log4 = 1;
    while (pow4 < n) {
        pow4 *= 4;
        log4++;
    }
    g->half_bits = log4;
    g->right_mask = (1ull << log4) - 1;
    g->left_mask = g->right_mask << log4;
    return CUZK_OK;
}

cuzk_status fil_graph_init_seal(fil_graph_t *g, fil_seal_proof p, cuzk_error_t *err)
{
    const fil_seal_info_t *info = fil_seal_info(p);
    uint8_t porep_id[32];
    cuzk_status st = fil_porep_id(porep_id, p, err);
    if (st != CUZK_OK)
        return st;
    return fil_graph_init(g, info->nodes, porep_id, info->api, err);
}

/* ---- DRG parents (drgraph.rs BucketGraph::parents) ------------------------ */

static void drg_parents(uint32_t out[FIL_DRG_DEGREE], const fil_graph_t *g, uint32_t node)
{
    if (node < 2) { /* node 0 self-references, node 1 has only node 0 */
        memset(out, 0, FIL_DRG_DEGREE * sizeof *out);
        return;
    }
    /* ChaCha8Rng::from_seed(drg_seed || node u32 LE); 5 parents x 2 draws
     * of next_u64 = 20 words = two ChaCha blocks */
    uint8_t key[32];
    memcpy(key, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        key[28 + i] = (uint8_t)(node >> (8 * i));
    uint32_t words[32];
    fil_chacha_words(words, key, 8, 2);
    const uint64_t m_prime = FIL_DRG_DEGREE - 1;
    uint64_t meta = (uint64_t)node * m_prime;
    /* n_buckets = ceil(log2(meta as f64)). meta >= 10 and < 2^35, where the
     * f64 log2 is exact at powers of two and above k elsewhere (log2(2^k+1)
     * - k ~ 1.44 / 2^k is far above an ulp), so this is the bit length of
     * meta - 1. */
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);
    /* V1.0.0: random parents in slots 0..4, node - 1 in slot 5; V1.1+:
     * node - 1 in slot 0, random parents in slots 1..5. */
    unsigned pred = g->api == FIL_API_1_0 ? (unsigned)m_prime : 0;
    unsigned slot = g->api == FIL_API_1_0 ? 0 : 1;
    for (unsigned k = 0; k < m_prime; k++) {
        uint64_t r1 = (uint64_t)words[4 * k] | (uint64_t)words[4 * k + 1] << 32;
        uint64_t r2 = (uint64_t)words[4 * k + 2] | (uint64_t)words[4 * k + 3] << 32;
        uint64_t bucket = r1 % n_buckets + 1;
        uint64_t largest = meta < (1ull << bucket) ? meta : (1ull << bucket);
        uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        uint64_t distance = smallest + r2 % (largest - smallest + 1);
        uint32_t mapped = (uint32_t)((meta - distance) / m_prime);
        out[slot + k] = mapped == node ? node - 1 : mapped;
    }
    out[pred] = node - 1;
}

/* ---- expander parents (graph.rs correspondent, feistel.rs) ---------------- */

/* feistel.rs feistel(): BLAKE2b-512(right u64 BE || key u64 BE), the first
 * 8 digest bytes big-endian, masked. */
static uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t mask)
{
    uint8_t data[16], h[8];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    fil_blake2b512_16_prefix(h, data);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | h[i];
    return v & mask;
}

/* feistel.rs encode: 3 rounds (FEISTEL_ROUNDS) with keys[0..3]. */
static uint64_t feistel_encode(const fil_graph_t *g, uint64_t index)
{
    uint64_t left = (index & g->left_mask) >> g->half_bits, right = index & g->right_mask;
    for (int r = 0; r < 3; r++) {
        uint64_t l = right;
        right = left ^ feistel_round(right, g->feistel_keys[r], g->right_mask);
        left = l;
    }
    return left << g->half_bits | right;
}

static void exp_parents(uint32_t out[FIL_EXP_DEGREE], const fil_graph_t *g, uint64_t node)
{
    uint64_t n = g->nodes * FIL_EXP_DEGREE;
    for (unsigned i = 0; i < FIL_EXP_DEGREE; i++) {
        /* feistel.rs permute: cycle-walk until the value is in the domain */
        uint64_t u = feistel_encode(g, node * FIL_EXP_DEGREE + i);
        while (u >= n)
            u = feistel_encode(g, u);
        /* V1.0.0 truncates to u32 before dividing (`transformed as u32 /
         * 8`): at 32 and 64 GiB the domain exceeds 2^32, so parents never
         * reach the later part of the sector. V1.1+ divides first. */
        out[i] =
            g->api == FIL_API_1_0 ? (uint32_t)u / FIL_EXP_DEGREE : (uint32_t)(u / FIL_EXP_DEGREE);
    }
}

static cuzk_status check_node(const fil_graph_t *g, uint64_t node, cuzk_error_t *err)
{
    if (!g || node >= g->nodes)
        return cuzk_error_set(err, CUZK_ERR_ARG, "node %llu outside the graph (%llu nodes)",
                              (unsigned long long)node, g ? (unsigned long long)g->nodes : 0ull);
    return CUZK_OK;
}

cuzk_status fil_graph_drg_parents(uint32_t out[FIL_DRG_DEGREE], const fil_graph_t *g, uint64_t node,
                                  cuzk_error_t *err)
{
    cuzk_status st = check_node(g, node, err);
    if (st == CUZK_OK)
        drg_parents(out, g, (uint32_t)node);
    return st;
}

cuzk_status fil_graph_exp_parents(uint32_t out[FIL_EXP_DEGREE], const fil_graph_t *g, uint64_t node,
                                  cuzk_error_t *err)
{
    cuzk_status st = check_node(g, node, err);
    if (st == CUZK_OK)
        exp_parents(out, g, node);
    return st;
}

cuzk_status fil_graph_parents(uint32_t out[FIL_DEGREE], const fil_graph_t *g, uint64_t node,
                              cuzk_error_t *err)
{
    cuzk_status st = fil_graph_drg_parents(out, g, node, err);
    return st == CUZK_OK ? fil_graph_exp_parents(out + FIL_DRG_DEGREE, g, node, err) : st;
}

/* ---- the parent cache (cache.rs generate) --------------------------------- */

#define ENTRY_BYTES (FIL_DEGREE * 4u)
/* Nodes per streamed slice: 64 Ki nodes, 3.5 MiB. */
#define SLICE_NODES 65536u

typedef struct fill_job {
    uint8_t *out;
    const fil_graph_t *g;
    uint64_t first;
} fill_job_t;

static void fill_range(void *ctx, size_t begin, size_t end)
{
    const fill_job_t *job = ctx;
    for (size_t i = begin; i < end; i++) {
        uint64_t node = job->first + i;
        uint32_t p[FIL_DEGREE];
        drg_parents(p, job->g, (uint32_t)node);
        exp_parents(p + FIL_DRG_DEGREE, job->g, node);
        uint8_t *e = job->out + i * ENTRY_BYTES;
        for (unsigned k = 0; k < FIL_DEGREE; k++) /* LittleEndian::write_u32_into */
            for (unsigned j = 0; j < 4; j++)
                e[4 * k + j] = (uint8_t)(p[k] >> (8 * j));
    }
}

cuzk_status fil_parent_cache_fill(uint8_t *out, const fil_graph_t *g, uint64_t first,
                                  uint64_t count, int threads, cuzk_error_t *err)
{
    if (!out || !g)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_parent_cache_fill: NULL argument");
    if (first > g->nodes || count > g->nodes - first)
        return cuzk_error_set(
            err, CUZK_ERR_ARG, "fil_parent_cache_fill: nodes %llu + %llu outside the graph (%llu)",
            (unsigned long long)first, (unsigned long long)count, (unsigned long long)g->nodes);
    fill_job_t job = {out, g, first};
    if (parallel_for((size_t)count, 1024, threads, fill_range, &job) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "parent cache: no memory for threads");
    return CUZK_OK;
}

cuzk_status fil_parent_cache_stream(const fil_graph_t *g, int threads, fil_cache_write_fn write,
                                    void *ctx, cuzk_error_t *err)
{
    if (!g || !write)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_parent_cache_stream: NULL argument");
    uint64_t slice = g->nodes < SLICE_NODES ? g->nodes : SLICE_NODES;
    uint8_t *buf = malloc((size_t)slice * ENTRY_BYTES);
    if (!buf)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "parent cache: no memory for a slice");
    cuzk_status st = CUZK_OK;
    for (uint64_t first = 0; first < g->nodes && st == CUZK_OK; first += slice) {
        uint64_t n = g->nodes - first < slice ? g->nodes - first : slice;
        st = fil_parent_cache_fill(buf, g, first, n, threads, err);
        if (st == CUZK_OK && write(ctx, buf, (size_t)n * ENTRY_BYTES) != 0)
            st = cuzk_error_set(err, CUZK_ERR_IO, "parent cache: writing node %llu failed",
                                (unsigned long long)first);
    }
    free(buf);
    return st;
}

static int digest_write(void *ctx, const uint8_t *data, size_t n)
{
    return EVP_DigestUpdate(ctx, data, n) == 1 ? 0 : -1;
}

cuzk_status fil_parent_cache_digest(uint8_t out[32], const fil_graph_t *g, int threads,
                                    cuzk_error_t *err)
{
    if (!out || !g)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_parent_cache_digest: NULL argument");
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "SHA-256: no memory for a digest context");
    cuzk_status st = CUZK_OK;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "SHA-256: OpenSSL failed");
    if (st == CUZK_OK)
        st = fil_parent_cache_stream(g, threads, digest_write, ctx, err);
    unsigned len = 0;
    if (st == CUZK_OK && (EVP_DigestFinal_ex(ctx, out, &len) != 1 || len != 32))
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "SHA-256: OpenSSL failed");
    EVP_MD_CTX_free(ctx);
    return st;
}

cuzk_status fil_parent_cache_name(char out[FIL_PARENT_CACHE_NAME_MAX], const fil_graph_t *g,
                                  cuzk_error_t *err)
{
    if (!out || !g)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_parent_cache_name: NULL argument");
    /* cache.rs cache_path: SHA-256(H::name() || graph.identifier() || the
     * Feistel keys u64 LE || cache_entries u32 LE), H = PoseidonHasher (the
     * tree hasher of every production sector shape); the identifiers are
     * graph.rs StackedGraph::new and drgraph.rs BucketGraph::identifier. */
    char id[200];
    int n = snprintf(id, sizeof id,
                     "stacked_graph::StackedGraph{expansion_degree: %u base_graph: "
                     "drgraph::BucketGraph{size: %llu; degree: %u; hasher: poseidon_hasher} }",
                     FIL_EXP_DEGREE, (unsigned long long)g->nodes, FIL_DRG_DEGREE);
    if (n < 0 || (size_t)n >= sizeof id)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "parent cache id too long");
    uint8_t keys[32], entries[4];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 8; i++)
            keys[8 * k + i] = (uint8_t)(g->feistel_keys[k] >> (8 * i));
    for (int i = 0; i < 4; i++)
        entries[i] = (uint8_t)(g->nodes >> (8 * i));
    const char *hasher = "poseidon_hasher";
    const void *parts[4] = {hasher, id, keys, entries};
    size_t lens[4] = {strlen(hasher), (size_t)n, 32, 4};
    uint8_t h[32];
    cuzk_status st = fil_sha256_parts(h, parts, lens, 4, err);
    if (st != CUZK_OK)
        return st;
    /* parameter_cache.rs VERSION = 28 */
    int m = snprintf(out, FIL_PARENT_CACHE_NAME_MAX, "v28-sdr-parent-");
    for (int i = 0; i < 32; i++)
        snprintf(out + m + 2 * i, 3, "%02x", h[i]);
    return CUZK_OK;
}
