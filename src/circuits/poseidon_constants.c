/* neptune's Poseidon constants, generated (include/cuzk/poseidon.h).
 *
 * Sources, argumentcomputer/neptune@a513bea (11.1.0):
 *  - round numbers: src/round_numbers.rs (a port of the Poseidon authors'
 *    calc_round_numbers.py in f32 arithmetic);
 *  - round constants: src/round_constants.rs (Grain LFSR, self-shrinking);
 *  - MDS: src/mds.rs generate_mds (Cauchy, x_i = i, y_j = t + j);
 *  - compressed round constants: src/preprocessing.rs
 *    compress_round_constants with every partial round preprocessed;
 *  - pre-sparse and sparse matrices: src/mds.rs factor_to_sparse_matrices,
 *    make_prime, make_double_prime.
 * Matrix inverses are unique, so Gauss-Jordan here gives neptune's values
 * although neptune inverts by its own elimination (matrix.rs invert).
 *
 * DESIGN: the cache is one slot per arity (and a list for the custom
 * domain tags), published with a release store after the table is
 * complete; readers take an acquire load and never lock. Builders
 * serialise on one mutex (builds are rare: once per arity per process).
 * Published tables are never freed or written again. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/fr.h"
#include "cuzk/poseidon.h"
#include "cuzk/status.h"

/* ---- round numbers (round_numbers.rs) --------------------------------- */

/* Bits of the prime (rounded up to 256, as neptune does) and the security
 * level M of the Poseidon paper. */
#define RN_PRIME_BITLEN 256.0f
#define RN_SECURITY 128.0f

/* neptune casts `ceil(x) as usize`, which saturates negatives (and NaN) to
 * 0; a C cast of a negative float to unsigned would be undefined. */
static unsigned long ceil_to_usize(float x)
{
    float c = ceilf(x);
    return c > 0.0f ? (unsigned long)c : 0ul;
}

/* round_numbers_are_secure: equations (2)-(4) of the Poseidon paper. All
 * arithmetic in float, as neptune's f32, so that boundary cases round the
 * same way. */
static int rounds_are_secure(unsigned t, unsigned rf, unsigned rp)
{
    const float n = RN_PRIME_BITLEN, m = RN_SECURITY;
    const float rpf = (float)rp, tf = (float)t;
    float rf_stat = m <= (n - 3.0f) * (tf + 1.0f) ? 6.0f : 10.0f;
    float rf_interp = 0.43f * m + log2f(tf) - rpf;
    float rf_grob_1 = 0.21f * n - rpf;
    float rf_grob_2 = (0.14f * n - 1.0f - rpf) / (tf - 1.0f);
    unsigned long need = ceil_to_usize(rf_stat);
    unsigned long v[3] = {ceil_to_usize(rf_interp), ceil_to_usize(rf_grob_1),
                          ceil_to_usize(rf_grob_2)};
    for (int i = 0; i < 3; i++)
        if (v[i] > need)
            need = v[i];
    return rf >= need;
}

cuzk_status poseidon_round_numbers(unsigned *full_rounds, unsigned *partial_rounds, unsigned t,
                                   cuzk_error_t *err)
{
    if (!full_rounds || !partial_rounds)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_round_numbers: NULL output");
    /* t feeds 12 bits of the Grain seed (round_constants.rs). */
    if (t < 2 || t > 4095)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon: width %u outside [2, 4095]", t);
    unsigned rf = 0, rp = 0;
    unsigned long best = (unsigned long)-1;
    /* calc_round_numbers(t, security_margin = true). neptune bumps its loop
     * variable rf_test inside the inner loop, so the bump persists for the
     * rest of that rp sweep; kept, so the search is the same search. */
    for (unsigned rf_outer = 2; rf_outer <= 1000; rf_outer += 2) {
        unsigned rf_test = rf_outer;
        for (unsigned rp_test = 4; rp_test < 200; rp_test++) {
            if (!rounds_are_secure(t, rf_test, rp_test))
                continue;
            rf_test += 2;
            unsigned rp_m = (unsigned)ceilf(1.075f * (float)rp_test);
            unsigned long cost = (unsigned long)t * rf_test + rp_m;
            if (cost < best || (cost == best && rf_test < rf)) {
                rf = rf_test;
                rp = rp_m;
                best = cost;
            }
        }
    }
    *full_rounds = rf;
    *partial_rounds = rp;
    return CUZK_OK;
}

/* ---- Grain LFSR (round_constants.rs) ----------------------------------- */

typedef struct grain {
    uint8_t s[80]; /* ring buffer: bit i of the state is s[(head + i) % 80] */
    unsigned head;
} grain_t;

static unsigned grain_bit(const grain_t *g, unsigned i)
{
    return g->s[(g->head + i) % 80];
}

/* b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i. */
static unsigned grain_step(grain_t *g)
{
    unsigned nb = grain_bit(g, 62) ^ grain_bit(g, 51) ^ grain_bit(g, 38) ^ grain_bit(g, 23) ^
                  grain_bit(g, 13) ^ grain_bit(g, 0);
    g->s[g->head] = (uint8_t)nb; /* drop b_0, append the new bit */
    g->head = (g->head + 1) % 80;
    return nb;
}

/* Appends the low n bits of v, most significant first (append_bits). */
static void grain_seed_bits(grain_t *g, unsigned *pos, unsigned n, unsigned v)
{
    for (unsigned i = n; i-- > 0;)
        g->s[(*pos)++] = (uint8_t)((v >> i) & 1);
}

/* The 80-bit seed: field = 1 (prime field, 2 bits), sbox = 1 (x^alpha, 4),
 * field size (12), t (12), R_F (10), R_P (10), thirty ones; then 160
 * discarded steps. */
static void grain_init(grain_t *g, unsigned field_bits, unsigned t, unsigned rf, unsigned rp)
{
    unsigned pos = 0;
    grain_seed_bits(g, &pos, 2, 1);
    grain_seed_bits(g, &pos, 4, 1);
    grain_seed_bits(g, &pos, 12, field_bits);
    grain_seed_bits(g, &pos, 12, t);
    grain_seed_bits(g, &pos, 10, rf);
    grain_seed_bits(g, &pos, 10, rp);
    grain_seed_bits(g, &pos, 30, 0x3fffffffu);
    g->head = 0;
    for (int i = 0; i < 160; i++)
        grain_step(g);
}

/* Self-shrinking output: draw pairs; a pair starting with 1 yields its
 * second bit, one starting with 0 is dropped (Grain's Iterator::next). */
static unsigned grain_next(grain_t *g)
{
    while (!grain_step(g))
        grain_step(g);
    return grain_step(g);
}

static uint8_t grain_byte(grain_t *g, unsigned nbits)
{
    unsigned acc = 0;
    for (unsigned i = 0; i < nbits; i++)
        acc = (acc << 1) | grain_next(g);
    return (uint8_t)acc;
}

/* (R_F + R_P) * t constants, each 255 bits (field_size = Fr::NUM_BITS)
 * read big-endian, the first byte holding the 255 % 8 = 7 leftover bits;
 * a value >= r is rejected and the next one drawn (generate_constants). */
static void grain_round_constants(fr_t *out, size_t count, unsigned t, unsigned rf, unsigned rp)
{
    grain_t g;
    grain_init(&g, 255, t, rf, rp);
    for (size_t k = 0; k < count; k++) {
        uint8_t be[FR_BYTES];
        do {
            be[0] = grain_byte(&g, 255 % 8);
            for (int i = 1; i < FR_BYTES; i++)
                be[i] = grain_byte(&g, 8);
        } while (fr_from_be(&out[k], be) != CUZK_OK);
    }
}

/* ---- matrices (row-major t*t, matrix.rs conventions) ------------------- */

/* out = v * m for a row vector v (matrix.rs apply_matrix):
 * out[j] = sum_i m[i][j] v[i]. out must not alias v. */
static void vec_mat(fr_t *out, const fr_t *v, const fr_t *m, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        fr_t acc = FR_ZERO, tmp;
        for (unsigned i = 0; i < n; i++) {
            fr_mul(&tmp, &m[i * n + j], &v[i]);
            fr_add(&acc, &acc, &tmp);
        }
        out[j] = acc;
    }
}

/* Gauss-Jordan on [a | I]; a is destroyed. Returns 0 if a is singular. */
static int mat_inv(fr_t *out, fr_t *a, unsigned n)
{
    for (unsigned i = 0; i < n * n; i++)
        out[i] = (i / n == i % n) ? FR_ONE : FR_ZERO;
    for (unsigned col = 0; col < n; col++) {
        unsigned piv = col;
        while (piv < n && fr_is_zero(&a[piv * n + col]))
            piv++;
        if (piv == n)
            return 0;
        if (piv != col) {
            for (unsigned j = 0; j < n; j++) {
                fr_t x = a[col * n + j], y = out[col * n + j];
                a[col * n + j] = a[piv * n + j];
                out[col * n + j] = out[piv * n + j];
                a[piv * n + j] = x;
                out[piv * n + j] = y;
            }
        }
        fr_t inv;
        fr_inv(&inv, &a[col * n + col]);
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&a[col * n + j], &a[col * n + j], &inv);
            fr_mul(&out[col * n + j], &out[col * n + j], &inv);
        }
        for (unsigned i = 0; i < n; i++) {
            if (i == col || fr_is_zero(&a[i * n + col]))
                continue;
            fr_t f = a[i * n + col], tmp;
            for (unsigned j = 0; j < n; j++) {
                fr_mul(&tmp, &f, &a[col * n + j]);
                fr_sub(&a[i * n + j], &a[i * n + j], &tmp);
                fr_mul(&tmp, &f, &out[col * n + j]);
                fr_sub(&out[i * n + j], &out[i * n + j], &tmp);
            }
        }
    }
    return 1;
}

/* Cauchy matrix m[i][j] = 1 / (x_i + y_j), x_i = i, y_j = t + j: every
 * square submatrix is invertible (mds.rs generate_mds). */
static void cauchy_mds(fr_t *m, unsigned t)
{
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr_t x;
            fr_from_u64(&x, (uint64_t)i + t + j);
            fr_inv(&m[i * t + j], &x);
        }
}

/* ---- preprocessing ----------------------------------------------------- */

/* preprocessing.rs compress_round_constants(.., partial_preprocessed = R_P):
 * round keys are moved behind the S-boxes by pushing them back through
 * M^-1, and the keys of all partial rounds are folded, from the last one
 * backwards, into one t-vector plus one scalar per partial round. Output
 * order: rk(0); M^-1 rk(1 .. h-1); M^-1 acc; the R_P scalars in forward
 * order; M^-1 rk(h+R_P+1 .. 2h-1) (h = R_F/2). */
static cuzk_status compress_round_constants(fr_t *res, const poseidon_constants_t *c,
                                            cuzk_error_t *err)
{
    const unsigned t = c->width, h = c->half_full_rounds, rp = c->partial_rounds;
    const fr_t *rk = c->round_constants, *minv = c->mds_inv;
    fr_t *acc = malloc(2 * (size_t)t * sizeof *acc);
    fr_t *pk = malloc((size_t)rp * sizeof *pk);
    if (!acc || !pk) {
        free(acc);
        free(pk);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "poseidon: out of memory");
    }
    fr_t *inv = acc + t;
    size_t off = 0;
    memcpy(res, rk, t * sizeof *res);
    off += t;
    for (unsigned i = 0; i + 1 < h; i++, off += t)
        vec_mat(&res[off], &rk[(size_t)(i + 1) * t], minv, t);

    /* Fold from the first round after the partial ones back through every
     * partial round: the S-box of a partial round touches element 0 only,
     * so the other t - 1 components of M^-1 acc pass through it to the
     * previous round's keys, while component 0 must be added right after
     * that S-box (pk, recorded last round first). */
    memcpy(acc, &rk[(size_t)(h + rp) * t], t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        const fr_t *prev = &rk[(size_t)(h + rp - i - 1) * t];
        vec_mat(inv, acc, minv, t);
        pk[i] = inv[0];
        inv[0] = FR_ZERO;
        for (unsigned j = 0; j < t; j++)
            fr_add(&acc[j], &prev[j], &inv[j]);
    }
    vec_mat(&res[off], acc, minv, t);
    off += t;
    for (unsigned i = rp; i-- > 0;)
        res[off++] = pk[i];
    for (unsigned i = 1; i < h; i++, off += t)
        vec_mat(&res[off], &rk[(size_t)(i + h + rp) * t], minv, t);
    free(acc);
    free(pk);
    if (off != (size_t)c->full_rounds * t + rp)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "poseidon: compressed %zu constants", off);
    return CUZK_OK;
}

/* mds.rs factor_to_sparse_matrices(M, R_P): with curr = M, R_P times
 * factor curr = M' M'' (M' keeps the first row e_0 and curr's interior; M''
 * is sparse: first row [curr00 | v], first column [curr00 | M^^-1 w] with
 * M^ the interior, v and w curr's first row and column), keep M'', and
 * continue with curr = M M'. The last curr is the pre-sparse matrix; the
 * M'' are applied in reverse order of their making. */
static cuzk_status factor_sparse(fr_t *pre_sparse, fr_t *w_hat, fr_t *v_rest,
                                 const poseidon_constants_t *c, cuzk_error_t *err)
{
    const unsigned t = c->width, n = t - 1, rp = c->partial_rounds;
    const fr_t *m = c->mds;
    size_t nn = (size_t)n * n;
    fr_t *buf = malloc((2 * nn + n + (size_t)t * t) * sizeof *buf);
    if (!buf)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "poseidon: out of memory");
    fr_t *hat = buf, *hat_inv = hat + nn, *w = hat_inv + nn, *next = w + n;
    fr_t *curr = pre_sparse;
    memcpy(curr, m, (size_t)t * t * sizeof *curr);
    for (unsigned k = 0; k < rp; k++) {
        unsigned slot = rp - 1 - k;
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; j < n; j++)
                hat[i * n + j] = curr[(i + 1) * t + (j + 1)];
            w[i] = curr[(i + 1) * t];
        }
        if (!mat_inv(hat_inv, hat, n)) {
            free(buf);
            return cuzk_error_set(err, CUZK_ERR_INTERNAL, "poseidon: singular minor (t = %u)", t);
        }
        fr_t *wh = &w_hat[(size_t)slot * t];
        wh[0] = curr[0];
        vec_mat(&wh[1], w, hat_inv, n);
        memcpy(&v_rest[(size_t)slot * n], &curr[1], n * sizeof *v_rest);
        /* next = M * M'(curr): column 0 is M's (M' has e_0 as first row and
         * zeros below it); column j >= 1 is sum_{k>=1} M[i][k] curr[k][j]. */
        for (unsigned i = 0; i < t; i++) {
            next[i * t] = m[i * t];
            for (unsigned j = 1; j < t; j++) {
                fr_t acc = FR_ZERO, tmp;
                for (unsigned q = 1; q < t; q++) {
                    fr_mul(&tmp, &m[i * t + q], &curr[q * t + j]);
                    fr_add(&acc, &acc, &tmp);
                }
                next[i * t + j] = acc;
            }
        }
        memcpy(curr, next, (size_t)t * t * sizeof *curr);
    }
    free(buf);
    return CUZK_OK;
}

/* ---- construction ------------------------------------------------------ */

cuzk_status poseidon_constants_new(poseidon_constants_t **out, unsigned arity, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_constants_new: NULL output");
    *out = NULL;
    if (arity < POSEIDON_MIN_ARITY || arity > POSEIDON_MAX_ARITY)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon: arity %u outside [%d, %d]", arity,
                              POSEIDON_MIN_ARITY, POSEIDON_MAX_ARITY);
    const unsigned t = arity + 1;
    unsigned rf, rp;
    cuzk_status st = poseidon_round_numbers(&rf, &rp, t, err);
    if (st != CUZK_OK)
        return st;
    const size_t n_rc = (size_t)(rf + rp) * t, n_mat = (size_t)t * t;
    const size_t n_crc = (size_t)rf * t + rp;
    const size_t n_fr = n_rc + 3 * n_mat + n_crc + (size_t)rp * t + (size_t)rp * (t - 1);
    /* One block: the struct, then the tables (fr_t alignment is 8, the
     * struct size a multiple of it). */
    _Static_assert(sizeof(poseidon_constants_t) % _Alignof(fr_t) == 0, "table alignment");
    poseidon_constants_t *c = calloc(1, sizeof *c + n_fr * sizeof(fr_t));
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "poseidon: out of memory");
    fr_t *p = (fr_t *)(c + 1);
    fr_t *rc = p, *mds = rc + n_rc, *mds_inv = mds + n_mat, *crc = mds_inv + n_mat;
    fr_t *pre = crc + n_crc, *w_hat = pre + n_mat, *v_rest = w_hat + (size_t)rp * t;
    c->arity = arity;
    c->width = t;
    c->full_rounds = rf;
    c->half_full_rounds = rf / 2;
    c->partial_rounds = rp;
    /* HashType::MerkleTree: 2^arity - 1 (poseidon.rs Arity::tag). */
    fr_from_u64(&c->domain_tag, (UINT64_C(1) << arity) - 1);
    c->round_constants = rc;
    c->mds = mds;
    c->mds_inv = mds_inv;
    c->compressed_round_constants = crc;
    c->pre_sparse_matrix = pre;
    c->sparse_w_hat = w_hat;
    c->sparse_v_rest = v_rest;

    grain_round_constants(rc, n_rc, t, rf, rp);
    cauchy_mds(mds, t);
    memcpy(pre, mds, n_mat * sizeof *pre); /* scratch: mat_inv destroys its input */
    if (!mat_inv(mds_inv, pre, t)) {
        free(c);
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "poseidon: singular MDS (t = %u)", t);
    }
    st = compress_round_constants(crc, c, err);
    if (st == CUZK_OK)
        st = factor_sparse(pre, w_hat, v_rest, c, err);
    if (st != CUZK_OK) {
        free(c);
        return st;
    }
    *out = c;
    return CUZK_OK;
}

void poseidon_constants_free(poseidon_constants_t *c)
{
    free(c);
}

static cuzk_status custom_id_check(unsigned custom_id, cuzk_error_t *err)
{
    if (custom_id < 1 || custom_id > POSEIDON_CUSTOM_ID_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon: custom id %u outside [1, %u]",
                              custom_id, POSEIDON_CUSTOM_ID_MAX);
    return CUZK_OK;
}

cuzk_status poseidon_constants_new_custom(poseidon_constants_t **out, unsigned arity,
                                          unsigned custom_id, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_constants_new_custom: NULL output");
    *out = NULL;
    cuzk_status st = custom_id_check(custom_id, err);
    if (st == CUZK_OK)
        st = poseidon_constants_new(out, arity, err);
    if (st != CUZK_OK)
        return st;
    /* CType::domain_tag: x_pow2(id, 40) = id * 2^40 (< 2^49). */
    fr_from_u64(&(*out)->domain_tag, (uint64_t)custom_id << 40);
    (*out)->custom_id = custom_id;
    return CUZK_OK;
}

static _Atomic(const poseidon_constants_t *) g_cache[POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t g_cache_mu = PTHREAD_MUTEX_INITIALIZER;

cuzk_status poseidon_constants_get(const poseidon_constants_t **out, unsigned arity,
                                   cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_constants_get: NULL output");
    *out = NULL;
    if (arity < POSEIDON_MIN_ARITY || arity > POSEIDON_MAX_ARITY)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon: arity %u outside [%d, %d]", arity,
                              POSEIDON_MIN_ARITY, POSEIDON_MAX_ARITY);
    const poseidon_constants_t *c = atomic_load_explicit(&g_cache[arity], memory_order_acquire);
    if (c) {
        *out = c;
        return CUZK_OK;
    }
    pthread_mutex_lock(&g_cache_mu);
    c = atomic_load_explicit(&g_cache[arity], memory_order_relaxed);
    cuzk_status st = CUZK_OK;
    if (!c) {
        poseidon_constants_t *made;
        st = poseidon_constants_new(&made, arity, err);
        if (st == CUZK_OK) {
            c = made;
            atomic_store_explicit(&g_cache[arity], c, memory_order_release);
        }
    }
    pthread_mutex_unlock(&g_cache_mu);
    *out = c;
    return st;
}

/* The custom constants: a list, newest first, published like the slots
 * above (a node is complete before the release store of the head that
 * links it; nodes are never freed or changed). */
typedef struct custom_node {
    const poseidon_constants_t *c;
    struct custom_node *next;
} custom_node_t;
static _Atomic(custom_node_t *) g_custom;

static const poseidon_constants_t *custom_find(custom_node_t *n, unsigned arity, unsigned custom_id)
{
    for (; n; n = n->next)
        if (n->c->arity == arity && n->c->custom_id == custom_id)
            return n->c;
    return NULL;
}

cuzk_status poseidon_constants_get_custom(const poseidon_constants_t **out, unsigned arity,
                                          unsigned custom_id, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_constants_get_custom: NULL output");
    *out = NULL;
    const poseidon_constants_t *c =
        custom_find(atomic_load_explicit(&g_custom, memory_order_acquire), arity, custom_id);
    if (c) {
        *out = c;
        return CUZK_OK;
    }
    pthread_mutex_lock(&g_cache_mu);
    custom_node_t *head = atomic_load_explicit(&g_custom, memory_order_relaxed);
    c = custom_find(head, arity, custom_id);
    cuzk_status st = CUZK_OK;
    if (!c) {
        poseidon_constants_t *made = NULL;
        custom_node_t *node = NULL;
        st = poseidon_constants_new_custom(&made, arity, custom_id, err);
        if (st == CUZK_OK && !(node = malloc(sizeof *node))) {
            poseidon_constants_free(made);
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "poseidon: out of memory");
        }
        if (st == CUZK_OK) {
            node->c = made;
            node->next = head;
            atomic_store_explicit(&g_custom, node, memory_order_release);
            c = made;
        }
    }
    pthread_mutex_unlock(&g_cache_mu);
    *out = c;
    return st;
}
