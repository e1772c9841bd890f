/* Poseidon's permutation and MerkleTree hash, plain and optimized
 * (include/cuzk/poseidon.h). The plain form follows neptune
 * src/poseidon_alt.rs hash_correct; the optimized one neptune
 * src/poseidon.rs hash_optimized_static, through poseidon_round() so that
 * the circuit gadget, which walks the same rounds, and this hash share one
 * schedule. Reentrant: no state outside the caller's. */
#include <stddef.h>
#include <string.h>

#include "cuzk/fr.h"
#include "cuzk/poseidon.h"
#include "cuzk/status.h"

void poseidon_sbox(fr_t *out, const fr_t *x, const fr_t *pre, const fr_t *post)
{
    fr_t l = *x, l4;
    if (pre)
        fr_add(&l, &l, pre);
    fr_sqr(&l4, &l);
    fr_sqr(&l4, &l4);
    fr_mul(&l, &l, &l4);
    if (post)
        fr_add(&l, &l, post);
    *out = l;
}

unsigned poseidon_num_rounds(const poseidon_constants_t *c)
{
    return c->full_rounds + c->partial_rounds;
}

/* Offset of round r's first post-S-box key in compressed_round_constants:
 * round 0 takes t pre and t post keys, every other non-terminal full round
 * t, every partial round 1 (circuit.rs full_round / partial_round). */
static size_t post_key_offset(const poseidon_constants_t *c, unsigned r)
{
    const size_t t = c->width;
    const unsigned h = c->half_full_rounds, rp = c->partial_rounds;
    if (r < h)
        return t + (size_t)r * t;
    if (r < h + rp)
        return t + (size_t)h * t + (r - h);
    return t + (size_t)h * t + rp + (size_t)(r - h - rp) * t;
}

void poseidon_round(poseidon_round_t *out, const poseidon_constants_t *c, unsigned r)
{
    const unsigned h = c->half_full_rounds, rp = c->partial_rounds;
    const unsigned last = poseidon_num_rounds(c) - 1;
    CUZK_ASSERT(r <= last);
    memset(out, 0, sizeof *out);
    out->kind = (r >= h && r < h + rp) ? POSEIDON_ROUND_PARTIAL : POSEIDON_ROUND_FULL;
    out->pre_keys = r == 0 ? c->compressed_round_constants : NULL;
    out->post_keys = r == last ? NULL : &c->compressed_round_constants[post_key_offset(c, r)];
    /* poseidon.rs round_product_mds: the round before the first partial
     * one mixes with the pre-sparse matrix, each partial round with its
     * sparse matrix, all others with M. */
    if (r + 1 == h) {
        out->mix = POSEIDON_MIX_PRE_SPARSE;
        out->matrix = c->pre_sparse_matrix;
    } else if (r >= h && r < h + rp) {
        out->mix = POSEIDON_MIX_SPARSE;
        out->w_hat = &c->sparse_w_hat[(size_t)(r - h) * c->width];
        out->v_rest = &c->sparse_v_rest[(size_t)(r - h) * (c->width - 1)];
    } else {
        out->mix = POSEIDON_MIX_MDS;
        out->matrix = c->mds;
    }
}

/* out[j] = sum_i m[i][j] s[i] (poseidon.rs product_mds_with_matrix). */
static void mix_dense(fr_t *out, const fr_t *m, const fr_t *s, unsigned t)
{
    for (unsigned j = 0; j < t; j++) {
        fr_t acc = FR_ZERO, tmp;
        for (unsigned i = 0; i < t; i++) {
            fr_mul(&tmp, &m[i * t + j], &s[i]);
            fr_add(&acc, &acc, &tmp);
        }
        out[j] = acc;
    }
}

void poseidon_mix_apply(fr_t *out, const poseidon_round_t *round, const fr_t *s, unsigned width)
{
    if (round->mix != POSEIDON_MIX_SPARSE) {
        mix_dense(out, round->matrix, s, width);
        return;
    }
    /* poseidon.rs product_mds_with_sparse_matrix: dense first column,
     * dense first row, identity inside. */
    fr_t acc = FR_ZERO, tmp;
    for (unsigned i = 0; i < width; i++) {
        fr_mul(&tmp, &round->w_hat[i], &s[i]);
        fr_add(&acc, &acc, &tmp);
    }
    for (unsigned j = 1; j < width; j++) {
        fr_mul(&tmp, &round->v_rest[j - 1], &s[0]);
        fr_add(&out[j], &s[j], &tmp);
    }
    out[0] = acc;
}

static void permute_optimized(fr_t *s, const poseidon_constants_t *c)
{
    const unsigned t = c->width, nr = poseidon_num_rounds(c);
    fr_t next[POSEIDON_MAX_WIDTH];
    for (unsigned r = 0; r < nr; r++) {
        poseidon_round_t rd;
        poseidon_round(&rd, c, r);
        unsigned n_sbox = rd.kind == POSEIDON_ROUND_FULL ? t : 1;
        for (unsigned i = 0; i < n_sbox; i++)
            poseidon_sbox(&s[i], &s[i], rd.pre_keys ? &rd.pre_keys[i] : NULL,
                          rd.post_keys ? &rd.post_keys[i] : NULL);
        poseidon_mix_apply(next, &rd, s, t);
        memcpy(s, next, t * sizeof *s);
    }
}

/* hash_correct: R_F/2 full rounds, R_P partial, R_F/2 full; every round
 * adds its t round constants first (a partial round to every element, its
 * S-box on element 0 only) and mixes with M. */
static void permute_plain(fr_t *s, const poseidon_constants_t *c)
{
    const unsigned t = c->width, h = c->half_full_rounds, rp = c->partial_rounds;
    fr_t next[POSEIDON_MAX_WIDTH];
    for (unsigned r = 0; r < c->full_rounds + rp; r++) {
        const fr_t *rk = &c->round_constants[(size_t)r * t];
        int partial = r >= h && r < h + rp;
        for (unsigned i = 0; i < t; i++) {
            if (partial && i > 0)
                fr_add(&s[i], &s[i], &rk[i]);
            else
                poseidon_sbox(&s[i], &s[i], &rk[i], NULL);
        }
        mix_dense(next, c->mds, s, t);
        memcpy(s, next, t * sizeof *s);
    }
}

void poseidon_permute(fr_t *state, const poseidon_constants_t *c, poseidon_mode mode)
{
    CUZK_ASSERT(mode == POSEIDON_PLAIN || mode == POSEIDON_OPTIMIZED);
    if (mode == POSEIDON_PLAIN)
        permute_plain(state, c);
    else
        permute_optimized(state, c);
}

cuzk_status poseidon_hash(fr_t *out, const poseidon_constants_t *c, const fr_t *in, size_t n,
                          poseidon_mode mode, cuzk_error_t *err)
{
    if (!out || !c || (!in && n))
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_hash: NULL argument");
    if (n != c->arity)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_hash: %zu inputs for arity %u", n,
                              c->arity);
    if (mode != POSEIDON_PLAIN && mode != POSEIDON_OPTIMIZED)
        return cuzk_error_set(err, CUZK_ERR_ARG, "poseidon_hash: unknown mode %d", (int)mode);
    fr_t s[POSEIDON_MAX_WIDTH];
    s[0] = c->domain_tag;
    memcpy(&s[1], in, n * sizeof *s);
    poseidon_permute(s, c, mode);
    *out = s[1];
    return CUZK_OK;
}
