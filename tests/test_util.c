/* Shared test helpers (see test_util.h). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static uint64_t s[4];

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t tu_rand64(void)
{
    /* xoshiro256** */
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static const char *tu_name = "test";

void tu_init(const char *test_name)
{
    tu_name = test_name;
    const char *env = getenv("CUZK_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)clock();
    printf("%s: CUZK_TEST_SEED=%llu\n", test_name, (unsigned long long)seed);
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        /* splitmix64 */
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        s[i] = x ^ (x >> 31);
    }
    /* CUZK_TEST_FILTER=pattern runs only the matching tests (cmocka's
     * wildcards): one slow test without the others */
    const char *filter = getenv("CUZK_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
}

int tu_iters(int def)
{
    const char *env = getenv("CUZK_TEST_ITERS");
    int n = env ? atoi(env) : 0;
    return n > 0 ? n : def;
}

void tu_rand_fp(fp_t *out)
{
    unsigned kind = (unsigned)(tu_rand64() % 16);
    switch (kind) {
    case 0: *out = FP_ZERO_ELEM; return;
    case 1: *out = FP_ONE; return;
    case 2: fp_neg(out, &FP_ONE); return;
    case 3: fp_from_u64(out, tu_rand64() % 1000); return;
    case 4:
        fp_from_u64(out, tu_rand64() % 5);
        fp_neg(out, out);
        return;
    default: break;
    }
    uint64_t l[FP_LIMBS];
    do {
        for (int i = 0; i < FP_LIMBS; i++)
            l[i] = tu_rand64();
        l[FP_LIMBS - 1] &= 0x1fffffffffffffffULL;
    } while (fp_from_limbs(out, l) != CUZK_OK);
}

void tu_rand_fr(fr_t *out)
{
    unsigned kind = (unsigned)(tu_rand64() % 16);
    switch (kind) {
    case 0: *out = FR_ZERO; return;
    case 1: *out = FR_ONE; return;
    case 2: fr_neg(out, &FR_ONE); return;
    case 3: fr_from_u64(out, tu_rand64() % 1000); return;
    default: break;
    }
    uint64_t l[FR_LIMBS];
    do {
        for (int i = 0; i < FR_LIMBS; i++)
            l[i] = tu_rand64();
        l[FR_LIMBS - 1] &= 0x7fffffffffffffffULL;
    } while (fr_from_limbs(out, l) != CUZK_OK);
}

void tu_rand_fp2(fp2_t *out)
{
    tu_rand_fp(&out->c0);
    tu_rand_fp(&out->c1);
}

void tu_rand_fp12(fp12_t *out)
{
    fp2_t *c[6] = {&out->c0.c0, &out->c0.c1, &out->c0.c2, &out->c1.c0, &out->c1.c1, &out->c1.c2};
    for (int i = 0; i < 6; i++)
        tu_rand_fp2(c[i]);
}

void tu_rand_g1(g1_jac_t *out)
{
    fr_t k;
    g1_jac_t g;
    tu_rand_fr(&k);
    g1_from_affine(&g, &G1_GENERATOR);
    g1_mul_fr(out, &g, &k);
}

void tu_rand_g2(g2_jac_t *out)
{
    fr_t k;
    g2_jac_t g;
    tu_rand_fr(&k);
    g2_from_affine(&g, &G2_GENERATOR);
    g2_mul_fr(out, &g, &k);
}

void tu_rand_g1_off_subgroup(g1_affine_t *out)
{
    fp_t four, rhs;
    fp_from_u64(&four, 4);
    for (;;) {
        uint64_t l[FP_LIMBS];
        for (int i = 0; i < FP_LIMBS; i++)
            l[i] = tu_rand64();
        l[FP_LIMBS - 1] &= 0x0fffffffffffffffULL;
        if (fp_from_limbs(&out->x, l) != CUZK_OK)
            continue;
        fp_sqr(&rhs, &out->x);
        fp_mul(&rhs, &rhs, &out->x);
        fp_add(&rhs, &rhs, &four);
        if (fp_sqrt(&out->y, &rhs))
            return;
    }
}

void tu_rand_g2_off_subgroup(g2_affine_t *out)
{
    fp2_t b, rhs;
    fp_from_u64(&b.c0, 4);
    fp_from_u64(&b.c1, 4);
    for (;;) {
        uint64_t l[FP_LIMBS];
        for (int i = 0; i < FP_LIMBS; i++)
            l[i] = tu_rand64();
        l[FP_LIMBS - 1] &= 0x0fffffffffffffffULL;
        if (fp_from_limbs(&out->x.c0, l) != CUZK_OK)
            continue;
        fp_from_u64(&out->x.c1, tu_rand64());
        fp2_sqr(&rhs, &out->x);
        fp2_mul(&rhs, &rhs, &out->x);
        fp2_add(&rhs, &rhs, &b);
        if (fp2_sqrt(&out->y, &rhs))
            return;
    }
}

uint8_t *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        *len = (size_t)n;
    return buf;
}

static void *tu_watchdog_run(void *arg)
{
    tu_watchdog_t *wd = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += wd->seconds;
    pthread_mutex_lock(&wd->mu);
    while (!wd->done)
        if (pthread_cond_timedwait(&wd->cv, &wd->mu, &until) != 0)
            break;
    int done = wd->done;
    pthread_mutex_unlock(&wd->mu);
    if (done)
        return NULL;
    fprintf(stderr, "%s: %s: watchdog: not finished after %d s (deadlock?)\n", tu_name, wd->what,
            wd->seconds);
    if (wd->dump)
        wd->dump(wd->ctx);
    fflush(stderr);
    _exit(1);
}

void tu_watchdog_start(tu_watchdog_t *wd, const char *what, int seconds, void (*dump)(void *ctx),
                       void *ctx)
{
    *wd = (tu_watchdog_t){.seconds = seconds, .what = what, .dump = dump, .ctx = ctx};
    pthread_mutex_init(&wd->mu, NULL);
    pthread_cond_init(&wd->cv, NULL);
    if (pthread_create(&wd->tid, NULL, tu_watchdog_run, wd) != 0) {
        fprintf(stderr, "%s: cannot start the watchdog thread\n", tu_name);
        _exit(1);
    }
}

void tu_watchdog_stop(tu_watchdog_t *wd)
{
    pthread_mutex_lock(&wd->mu);
    wd->done = 1;
    pthread_cond_signal(&wd->cv);
    pthread_mutex_unlock(&wd->mu);
    pthread_join(wd->tid, NULL);
    pthread_mutex_destroy(&wd->mu);
    pthread_cond_destroy(&wd->cv);
}
