/* The fingerprint stream of bellpepper's TestConstraintSystem::hash()
 * (BPC:src/util_cs/test_cs.rs hash, hash_lc, proc_lc): zero coefficients
 * are dropped there ("to normalize"), inputs sort before aux.
 *
 * Coefficients repeat (1, -1, powers of two), and their canonical
 * big-endian bytes cost a Montgomery reduction each, so the last
 * conversions are kept in a small direct-mapped cache. */
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"

#define CS_HASH_CACHE 1024

struct cs_hash_cache {
    fr_t key[CS_HASH_CACHE];
    uint8_t be[CS_HASH_CACHE][FR_BYTES];
    uint8_t used[CS_HASH_CACHE];
};

static void put_u64_be(uint8_t *out, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        out[i] = (uint8_t)v;
        v >>= 8;
    }
}

cuzk_status cs_hash_begin(cs_t *cs, const cs_counts_t *expected, cs_hash_update_fn update,
                          void *ctx, cuzk_error_t *err)
{
    if (cs->n_aux != 0 || cs->n_inputs != 1 || cs->n_constraints != 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_hash_begin: synthesis has already begun");
    if (!update)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cs_hash_begin: no update function");
    if (!cs->hash_cache && !(cs->hash_cache = calloc(1, sizeof *cs->hash_cache)))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cs_hash_begin: out of memory");
    cs->hash_update = update;
    cs->hash_ctx = ctx;
    cs->hash_expected = *expected;
    uint8_t buf[24];
    put_u64_be(buf, expected->inputs);
    put_u64_be(buf + 8, expected->aux);
    put_u64_be(buf + 16, expected->constraints);
    update(ctx, buf, sizeof buf);
    return CUZK_OK;
}

cuzk_status cs_hash_end(const cs_t *cs, cuzk_error_t *err)
{
    const cs_counts_t *e = &cs->hash_expected;
    if (cs->hash_update &&
        (e->inputs != cs->n_inputs || e->aux != cs->n_aux || e->constraints != cs->n_constraints))
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cs fingerprint: sizes %llu/%llu/%llu (inputs/aux/constraints) "
                              "differ from the %llu/%llu/%llu it began with",
                              (unsigned long long)cs->n_inputs, (unsigned long long)cs->n_aux,
                              (unsigned long long)cs->n_constraints, (unsigned long long)e->inputs,
                              (unsigned long long)e->aux, (unsigned long long)e->constraints);
    return cs_status(cs, err);
}

void cs_hash_free(cs_t *cs)
{
    free(cs->hash_cache);
}

static const uint8_t *coeff_be(struct cs_hash_cache *hc, const fr_t *x)
{
    uint64_t h = (x->l[0] ^ x->l[1] * 0x9E3779B97F4A7C15ull ^ x->l[3]) * 0xC2B2AE3D27D4EB4Full;
    unsigned slot = (unsigned)(h >> 54) % CS_HASH_CACHE;
    if (!hc->used[slot] || !fr_equal(&hc->key[slot], x)) {
        hc->key[slot] = *x;
        fr_to_be(hc->be[slot], x);
        hc->used[slot] = 1;
    }
    return hc->be[slot];
}

static void hash_lc(cs_t *cs, const cs_lc_t *lc)
{
    uint8_t buf[9 + FR_BYTES];
    uint64_t live = 0;
    for (uint32_t i = 0; i < lc->n; i++)
        live += !cs_fr_is_zero_(&lc->terms[i].coeff);
    put_u64_be(buf, live);
    cs->hash_update(cs->hash_ctx, buf, 8);
    for (uint32_t i = 0; i < lc->n; i++) {
        const cs_term_t *t = &lc->terms[i];
        if (cs_fr_is_zero_(&t->coeff))
            continue;
        buf[0] = cs_var_is_aux(t->var) ? 'A' : 'I';
        put_u64_be(buf + 1, cs_var_index(t->var));
        memcpy(buf + 9, coeff_be(cs->hash_cache, &t->coeff), FR_BYTES);
        cs->hash_update(cs->hash_ctx, buf, sizeof buf);
    }
}

void cs_hash_row(cs_t *cs, const cs_lc_t *a, const cs_lc_t *b, const cs_lc_t *c)
{
    hash_lc(cs, a);
    hash_lc(cs, b);
    hash_lc(cs, c);
}
