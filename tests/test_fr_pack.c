/* Packed witness vectors (fr_pack.h) against the plain vector they came
 * from: every value read back one by one and expanded whole, on 1-4
 * threads, over mixes of zeros, ones and other values (a PoRep-like 49/49/2,
 * all of one kind, alternating, random), lengths around word edges, and
 * values that sit next to 0 and 1 (r - 1, 2, one's raw 1) and must stay
 * full. The consistency check must catch planted faults. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/fr_pack.h"

typedef enum mix { MIX_POREP, MIX_ZERO, MIX_ONE, MIX_FULL, MIX_ALT, MIX_EVEN, MIX_COUNT } mix;

/* Values next to 0 and 1 in some sense, none of them 0 or 1. */
static void near_value(fr_t *v, uint64_t pick)
{
    switch (pick % 4) {
    case 0: /* r - 1 */ fr_neg(v, &FR_ONE); break;
    case 1: fr_from_u64(v, 2); break;
    case 2: /* the integer 1 as limbs: Montgomery 1 / R, not one */
        memset(v, 0, sizeof *v);
        v->l[0] = 1;
        break;
    default:
        tu_rand_fr(v);
        if (fr_is_zero(v) || fr_is_one(v))
            fr_from_u64(v, 3);
    }
}

static void fill(fr_t *w, size_t n, mix m)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tu_rand64();
        int kind; /* 0 zero, 1 one, 2 full */
        switch (m) {
        case MIX_POREP: kind = r % 100 < 49 ? 0 : r % 100 < 98 ? 1 : 2; break;
        case MIX_ZERO: kind = 0; break;
        case MIX_ONE: kind = 1; break;
        case MIX_FULL: kind = 2; break;
        case MIX_ALT: kind = (int)(i % 3); break;
        default: kind = (int)(r % 3);
        }
        if (kind == 0)
            w[i] = FR_ZERO;
        else if (kind == 1)
            w[i] = FR_ONE;
        else
            near_value(&w[i], r >> 8);
    }
}

static size_t count_full(const fr_t *w, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += !fr_is_zero(&w[i]) && !fr_is_one(&w[i]);
    return c;
}

static void round_trip(size_t n, mix m, int threads)
{
    fr_t *w = malloc((n ? n : 1) * sizeof *w);
    fr_t *x = malloc((n ? n : 1) * sizeof *x);
    assert_non_null(w);
    assert_non_null(x);
    fill(w, n, m);
    fr_pack_t p;
    cuzk_error_t err = {0};
    assert_int_equal(fr_pack_make(&p, w, n, threads, &err), CUZK_OK);
    assert_int_equal(p.n, n);
    assert_int_equal(p.n_full, count_full(w, n));
    assert_int_equal(p.bytes, fr_pack_bytes(n, p.n_full));
    assert_int_equal(fr_pack_check(&p, &err), CUZK_OK);
    for (size_t i = 0; i < n; i++) {
        fr_t v;
        fr_pack_get(&v, &p, i);
        if (!fr_equal(&v, &w[i]))
            fail_msg("n %zu mix %d: value %zu differs", n, (int)m, i);
    }
    memset(x, 0xa5, n * sizeof *x);
    assert_int_equal(fr_pack_expand(x, &p, threads), CUZK_OK);
    assert_memory_equal(x, w, n * sizeof *x);
    /* packs of one vector are equal bytes, whatever the threads */
    fr_pack_t again;
    assert_int_equal(fr_pack_make(&again, w, n, 1 + threads % 4, &err), CUZK_OK);
    assert_int_equal(again.bytes, p.bytes);
    assert_memory_equal(again.block, p.block, p.bytes);
    fr_pack_free(&again);
    /* a view of a copy of the block reads the same */
    void *copy = malloc(p.bytes);
    assert_non_null(copy);
    memcpy(copy, p.block, p.bytes);
    fr_pack_t v;
    fr_pack_view(&v, copy, n, p.n_full);
    assert_null(v.block);
    memset(x, 0, n * sizeof *x);
    assert_int_equal(fr_pack_expand(x, &v, 1), CUZK_OK);
    assert_memory_equal(x, w, n * sizeof *x);
    free(copy);
    fr_pack_free(&p);
    assert_null(p.block);
    free(w);
    free(x);
}

static void test_round_trip_mixes(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 4097};
    for (int m = 0; m < MIX_COUNT; m++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            round_trip(sizes[s], (mix)m, 1 + (int)(s % 3));
}

/* Large enough that 4 threads each take several grains of words. */
static void test_round_trip_threads(void **state)
{
    (void)state;
    size_t n = (size_t)tu_iters(1) * ((size_t)1 << 20) + 37;
    for (int t = 1; t <= 4; t++)
        round_trip(n, t == 3 ? MIX_EVEN : MIX_POREP, t);
}

/* A PoRep-like mix packs to well under a tenth of its bytes. */
static void test_size(void **state)
{
    (void)state;
    size_t n = (size_t)1 << 18;
    fr_t *w = malloc(n * sizeof *w);
    assert_non_null(w);
    fill(w, n, MIX_POREP);
    fr_pack_t p;
    assert_int_equal(fr_pack_make(&p, w, n, 2, NULL), CUZK_OK);
    assert_true(p.bytes * 10 < n * sizeof(fr_t));
    assert_true(p.bytes % 8 == 0 || p.n_full == 0);
    assert_int_equal((size_t)((uint8_t *)p.vals - (uint8_t *)p.block) % 32, 0);
    fr_pack_free(&p);
    free(w);
}

/* fr_pack_make_within: the same bytes as fr_pack_make at or above the
 * pack's size, an empty pack one byte below it. */
static void test_within(void **state)
{
    (void)state;
    static const mix mixes[] = {MIX_POREP, MIX_FULL, MIX_ALT};
    for (size_t m = 0; m < 3; m++) {
        size_t n = 4099;
        fr_t *w = malloc(n * sizeof *w);
        assert_non_null(w);
        fill(w, n, mixes[m]);
        fr_pack_t ref, p;
        assert_int_equal(fr_pack_make(&ref, w, n, 2, NULL), CUZK_OK);
        assert_int_equal(fr_pack_make_within(&p, w, n, ref.bytes, 3, NULL), CUZK_OK);
        assert_non_null(p.block);
        assert_int_equal(p.bytes, ref.bytes);
        assert_memory_equal(p.block, ref.block, ref.bytes);
        fr_pack_free(&p);
        assert_int_equal(fr_pack_make_within(&p, w, n, ref.bytes - 1, 3, NULL), CUZK_OK);
        assert_null(p.block);
        assert_int_equal(p.bytes, 0);
        fr_pack_free(&p); /* an empty pack frees nothing */
        /* half the vector (the engine's auto): 2% or a third full fits,
         * all full does not */
        assert_int_equal(fr_pack_make_within(&p, w, n, n * sizeof(fr_t) / 2, 1, NULL), CUZK_OK);
        assert_int_equal(p.block != NULL, mixes[m] != MIX_FULL);
        fr_pack_free(&p);
        fr_pack_free(&ref);
        free(w);
    }
}

static void test_refuses(void **state)
{
    (void)state;
    fr_pack_t p;
    cuzk_error_t err = {0};
    assert_int_equal(fr_pack_make(&p, NULL, 5, 1, &err), CUZK_ERR_ARG);
    assert_null(p.block);
    assert_int_equal(fr_pack_make(&p, NULL, FR_PACK_MAX_VALUES + 1, 1, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "at most"));
    fr_pack_free(NULL);
}

/* Each planted fault is named by the check. */
static void test_check_catches(void **state)
{
    (void)state;
    size_t n = 200;
    fr_t w[200];
    fill(w, n, MIX_EVEN);
    fr_pack_t p;
    cuzk_error_t err = {0};
    assert_int_equal(fr_pack_make(&p, w, n, 1, &err), CUZK_OK);
    assert_true(p.n_full > 2);
    size_t last = fr_pack_words(n) - 1;

    p.nz[last] |= (uint64_t)1 << 63; /* 200 = 3 * 64 + 8: bit 63 is past n */
    assert_int_equal(fr_pack_check(&p, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "past"));
    p.nz[last] &= ~((uint64_t)1 << 63);

    uint64_t keep = p.nz[0];
    p.nz[0] &= ~p.full[0];
    if (p.full[0]) {
        assert_int_equal(fr_pack_check(&p, &err), CUZK_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "without nz"));
    }
    p.nz[0] = keep;

    p.rank[1]++;
    assert_int_equal(fr_pack_check(&p, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "rank"));
    p.rank[1]--;

    fr_t v = p.vals[1];
    p.vals[1] = FR_ONE;
    assert_int_equal(fr_pack_check(&p, &err), CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "0 or 1"));
    p.vals[1] = v;

    p.n_full--;
    assert_int_equal(fr_pack_check(&p, &err), CUZK_ERR_FORMAT);
    p.n_full++;
    assert_int_equal(fr_pack_check(&p, &err), CUZK_OK);
    fr_pack_free(&p);
}

int main(void)
{
    tu_init("test_fr_pack");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_mixes),
        cmocka_unit_test(test_round_trip_threads),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_within),
        cmocka_unit_test(test_refuses),
        cmocka_unit_test(test_check_catches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
