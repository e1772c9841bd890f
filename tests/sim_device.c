/* The simulated device (see sim_device.h).
 *
 * Who owns what: engine_sim_t.mu guards the counters and the injection
 * state; it is held only inside these functions, never while proving or
 * sleeping. A sim backend is owned by the engine worker that made it; it
 * forwards to GROTH16_BACKEND_CPU, and its h_scalars (the first backend call
 * of every proof) is where a proof is counted, delayed and failed.
 *
 * Device memory is modelled as the CUDA backend behaves: at a proof a
 * backend plans for its key under the budget the engine admitted (its
 * admit slot; without one, the device's whole capacity) and, when that
 * plan keeps the key resident, holds it afterwards, one copy per key
 * shared by the device's backends, until evicted or freed. held_bytes()
 * is what the device holds between proofs: the engine's ledger must have
 * it reserved persistently (test_engine checks this). */
#include "cuzk/backend_cpu.h"
#include "sim_device.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>

#define SIM_HELD_MAX 16

/* One key resident on the device and how many backends hold it. */
typedef struct sim_held {
    const void *key; /* its circuit: the first thing a proof shows the backend */
    size_t bytes;
    unsigned refs;
} sim_held_t;

struct engine_sim {
    pthread_mutex_t mu;
    engine_sim_config_t cfg;
    size_t capacity; /* engine_sim_device's */
    sim_held_t held[SIM_HELD_MAX];
    uint64_t fail_prove_in; /* 0: off; 1: the next prove fails */
    int fail_plan;
    unsigned fail_backend_new;
    unsigned fail_warm; /* warms still to fail */
    unsigned warm_delay_us;
    unsigned running;
    struct {
        const circuit_t *key; /* NULL: a free slot */
        unsigned delay_us;
    } key_delay[ENGINE_SIM_KEY_DELAYS];
    engine_sim_stats_t st;
};

typedef struct sim_backend {
    groth16_backend_t be; /* first: the engine holds &be */
    engine_sim_t *sim;
    size_t budget;        /* the admitted plan budget; 0: the capacity */
    device_layout layout; /* ... and the layout the engine planned there */
    const void *hold;     /* the key (circuit) this backend holds resident, or NULL */
    int critical;         /* made for the critical lane (DEVICE_ROLE_CRITICAL) */
} sim_backend_t;

/* mu held. Drops b's hold on its key. */
static void held_drop(engine_sim_t *s, sim_backend_t *b)
{
    for (int i = 0; b->hold && i < SIM_HELD_MAX; i++)
        if (s->held[i].key == b->hold && s->held[i].refs && --s->held[i].refs == 0)
            s->held[i] = (sim_held_t){NULL, 0, 0};
    b->hold = NULL;
}

/* mu held. b now holds key resident (bytes), shared with its other holders. */
static void held_take(engine_sim_t *s, sim_backend_t *b, const void *key, size_t bytes)
{
    if (b->hold == key)
        return;
    held_drop(s, b);
    int free_slot = -1;
    for (int i = 0; i < SIM_HELD_MAX; i++) {
        if (s->held[i].refs && s->held[i].key == key) {
            s->held[i].refs++;
            b->hold = key;
            return;
        }
        if (!s->held[i].refs && free_slot < 0)
            free_slot = i;
    }
    if (free_slot >= 0) {
        s->held[free_slot] = (sim_held_t){key, bytes, 1};
        b->hold = key;
    }
}

/* A key of 2^log_m rows held resident, and one proof's scratch. */
static void sim_sizes(const engine_sim_config_t *cfg, unsigned log_m, size_t *res, size_t *scr)
{
    size_t m = (size_t)1 << log_m;
    *res = cfg->resident_base + cfg->resident_per_row * m;
    *scr = cfg->scratch_base + cfg->scratch_per_row * m;
}

/* The layout of the plan under budget and what it keeps resident, as
 * sim_plan. */
static device_layout plan_resident(const engine_sim_config_t *cfg, unsigned log_m, size_t budget,
                                   size_t *keep)
{
    size_t res, scr;
    sim_sizes(cfg, log_m, &res, &scr);
    int fits = res + scr <= budget;
    *keep = fits ? res : 0;
    return fits ? DEVICE_RESIDENT : DEVICE_STREAMED;
}

static void sleep_us(unsigned us)
{
    struct timespec ts = {.tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Counts the proof of key c, applies the injected failure and the delay
 * (c's own, else the device's). */
static cuzk_status sim_proof_start(engine_sim_t *s, const circuit_t *c, cuzk_error_t *err)
{
    pthread_mutex_lock(&s->mu);
    s->st.proves++;
    int fail = 0;
    if (s->fail_prove_in && --s->fail_prove_in == 0)
        fail = 1;
    unsigned delay = s->cfg.delay_us;
    for (int i = 0; i < ENGINE_SIM_KEY_DELAYS; i++)
        if (s->key_delay[i].key == c)
            delay = s->key_delay[i].delay_us;
    if (!fail && ++s->running > s->st.max_concurrent)
        s->st.max_concurrent = s->running;
    pthread_mutex_unlock(&s->mu);
    if (fail)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "injected launch failure");
    if (delay)
        sleep_us(delay);
    pthread_mutex_lock(&s->mu);
    s->running--;
    pthread_mutex_unlock(&s->mu);
    return CUZK_OK;
}

static cuzk_status sim_h_scalars(void *ctx, fr_t *p, const circuit_t *c, const fr_t *w,
                                 unsigned log_m, groth16_convention conv, int threads,
                                 cuzk_error_t *err)
{
    sim_backend_t *b = ctx;
    cuzk_status st = sim_proof_start(b->sim, c, err);
    if (st != CUZK_OK)
        return st;
    engine_sim_t *s = b->sim;
    pthread_mutex_lock(&s->mu);
    size_t keep = 0;
    /* The engine's layout is the one this plan gives under its budget:
     * the device never decides twice (device.h). */
    device_layout mine = plan_resident(&s->cfg, log_m, b->budget ? b->budget : s->capacity, &keep);
    if (b->budget && mine != b->layout) {
        pthread_mutex_unlock(&s->mu);
        return cuzk_error_set(err, CUZK_ERR_INTERNAL,
                              "sim: admitted the %s layout under %zu bytes, planned %s",
                              device_layout_str(b->layout), b->budget, device_layout_str(mine));
    }
    if (keep)
        held_take(s, b, c, keep);
    else
        held_drop(s, b); /* streaming: a key held before is replaced */
    pthread_mutex_unlock(&s->mu);
    return GROTH16_BACKEND_CPU.h_scalars(GROTH16_BACKEND_CPU.ctx, p, c, w, log_m, conv, threads,
                                         err);
}

static cuzk_status sim_msm_g1(void *ctx, g1_jac_t *out, const msm_bases_t *b, const fr_t *s,
                              size_t n, int threads)
{
    (void)ctx;
    return GROTH16_BACKEND_CPU.msm_g1(GROTH16_BACKEND_CPU.ctx, out, b, s, n, threads);
}

static cuzk_status sim_msm_g2(void *ctx, g2_jac_t *out, const msm_bases_t *b, const fr_t *s,
                              size_t n, int threads)
{
    (void)ctx;
    return GROTH16_BACKEND_CPU.msm_g2(GROTH16_BACKEND_CPU.ctx, out, b, s, n, threads);
}

static void sim_admit(void *ctx, const device_admit_t *a)
{
    sim_backend_t *b = ctx;
    b->budget = a->budget;
    b->layout = a->layout;
}

static cuzk_status sim_backend_new(void *ctx, int device, device_role role, groth16_backend_t **out,
                                   cuzk_error_t *err)
{
    engine_sim_t *s = ctx;
    *out = NULL;
    pthread_mutex_lock(&s->mu);
    int fail = s->fail_backend_new > 0;
    if (fail)
        s->fail_backend_new--;
    pthread_mutex_unlock(&s->mu);
    if (fail)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "sim device %d: injected backend_new failure",
                              device);
    sim_backend_t *b = calloc(1, sizeof *b);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "sim device %d: no memory for a backend",
                              device);
    b->be = (groth16_backend_t){.name = "sim",
                                .ctx = b,
                                .h_scalars = sim_h_scalars,
                                .msm_g1 = sim_msm_g1,
                                .msm_g2 = sim_msm_g2,
                                .admit = sim_admit};
    b->sim = s;
    b->critical = role == DEVICE_ROLE_CRITICAL;
    pthread_mutex_lock(&s->mu);
    s->st.backends++;
    s->st.critical_backends += role == DEVICE_ROLE_CRITICAL;
    s->st.live++;
    pthread_mutex_unlock(&s->mu);
    *out = &b->be;
    return CUZK_OK;
}

static void sim_backend_free(void *ctx, groth16_backend_t *be)
{
    engine_sim_t *s = ctx;
    if (!be)
        return;
    pthread_mutex_lock(&s->mu);
    s->st.live--;
    held_drop(s, be->ctx);
    pthread_mutex_unlock(&s->mu);
    free(be->ctx);
}

static void sim_evict(void *ctx, groth16_backend_t *be)
{
    engine_sim_t *s = ctx;
    pthread_mutex_lock(&s->mu);
    s->st.evicts++;
    if (be)
        held_drop(s, be->ctx);
    pthread_mutex_unlock(&s->mu);
}

/* A load of the plan's resident bytes in SIM_WARM_STEPS steps of
 * delay_us / SIM_WARM_STEPS each, progress after every step; an injected
 * failure comes half way. */
#define SIM_WARM_STEPS 4
static cuzk_status sim_warm(void *ctx, groth16_backend_t *be, const groth16_pk_t *pk,
                            const circuit_t *c, device_progress_fn progress, void *pctx,
                            cuzk_error_t *err)
{
    engine_sim_t *s = ctx;
    (void)c;
    if (!be)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "sim warm: no backend");
    pthread_mutex_lock(&s->mu);
    s->st.warms++;
    s->st.critical_warms += (uint64_t)((sim_backend_t *)be->ctx)->critical;
    int fail = s->fail_warm > 0;
    if (fail)
        s->fail_warm--;
    unsigned delay = s->warm_delay_us;
    uint64_t total = s->cfg.resident_base + s->cfg.resident_per_row * ((uint64_t)1 << pk->log_m);
    pthread_mutex_unlock(&s->mu);
    for (unsigned i = 1; i <= SIM_WARM_STEPS; i++) {
        if (delay)
            sleep_us(delay / SIM_WARM_STEPS);
        if (fail && i == SIM_WARM_STEPS / 2)
            return cuzk_error_set(err, CUZK_ERR_CUDA, "sim warm: injected load failure");
        progress(pctx, total * i / SIM_WARM_STEPS, total);
    }
    return CUZK_OK;
}

static cuzk_status sim_plan(void *ctx, device_plan_t *out, const groth16_pk_t *pk,
                            const circuit_t *c, size_t budget, cuzk_error_t *err)
{
    engine_sim_t *s = ctx;
    (void)c;
    pthread_mutex_lock(&s->mu);
    s->st.plans++;
    int fail = s->fail_plan;
    engine_sim_config_t cfg = s->cfg;
    pthread_mutex_unlock(&s->mu);
    size_t m = (size_t)1 << pk->log_m;
    out->layout = DEVICE_RESIDENT;
    sim_sizes(&cfg, pk->log_m, &out->resident, &out->scratch);
    if (fail)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "sim plan: injected out of device memory");
    if (out->resident + out->scratch <= budget)
        return CUZK_OK;
    out->layout = DEVICE_STREAMED;
    out->resident = 0;
    out->scratch += cfg.stream_per_row * m;
    if (out->scratch > budget)
        return cuzk_error_set(err, CUZK_ERR_NOMEM,
                              "sim plan: 2^%u rows need %zu scratch bytes even streaming, budget "
                              "%zu",
                              pk->log_m, out->scratch, budget);
    return CUZK_OK;
}

cuzk_status engine_sim_new(engine_sim_t **out, const engine_sim_config_t *cfg, cuzk_error_t *err)
{
    if (!out || !cfg)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_sim_new: NULL argument");
    *out = NULL;
    engine_sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_sim_new: no memory");
    if (pthread_mutex_init(&s->mu, NULL) != 0) {
        free(s);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_sim_new: cannot create a mutex");
    }
    s->cfg = *cfg;
    *out = s;
    return CUZK_OK;
}

void engine_sim_free(engine_sim_t *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->mu);
    free(s);
}

void engine_sim_device(device_t *out, engine_sim_t *s, const char *name, size_t capacity,
                       int workers)
{
    pthread_mutex_lock(&s->mu);
    s->capacity = capacity;
    pthread_mutex_unlock(&s->mu);
    *out = (device_t){.name = name,
                      .vram_capacity = capacity,
                      .workers = workers,
                      .ctx = s,
                      .backend_new = sim_backend_new,
                      .backend_free = sim_backend_free,
                      .plan = sim_plan,
                      .evict = sim_evict};
}

void engine_sim_device_warm(device_t *dev, unsigned fail_count, unsigned delay_us)
{
    engine_sim_t *s = dev->ctx;
    pthread_mutex_lock(&s->mu);
    s->fail_warm = fail_count;
    s->warm_delay_us = delay_us;
    pthread_mutex_unlock(&s->mu);
    dev->warm = sim_warm;
}

void engine_sim_fail_prove(engine_sim_t *s, uint64_t nth)
{
    pthread_mutex_lock(&s->mu);
    s->fail_prove_in = nth;
    pthread_mutex_unlock(&s->mu);
}

void engine_sim_fail_plan(engine_sim_t *s, int armed)
{
    pthread_mutex_lock(&s->mu);
    s->fail_plan = armed;
    pthread_mutex_unlock(&s->mu);
}

void engine_sim_fail_backend_new(engine_sim_t *s, unsigned count)
{
    pthread_mutex_lock(&s->mu);
    s->fail_backend_new = count;
    pthread_mutex_unlock(&s->mu);
}

void engine_sim_set_delay(engine_sim_t *s, unsigned delay_us)
{
    pthread_mutex_lock(&s->mu);
    s->cfg.delay_us = delay_us;
    pthread_mutex_unlock(&s->mu);
}

cuzk_status engine_sim_set_key_delay(engine_sim_t *s, const circuit_t *c, unsigned delay_us,
                                     cuzk_error_t *err)
{
    if (!s || !c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_sim_set_key_delay: NULL argument");
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&s->mu);
    int at = -1;
    for (int i = 0; i < ENGINE_SIM_KEY_DELAYS; i++) {
        if (s->key_delay[i].key == c) {
            at = i;
            break;
        }
        if (!s->key_delay[i].key && at < 0)
            at = i;
    }
    if (at >= 0 && delay_us) {
        s->key_delay[at].key = c;
        s->key_delay[at].delay_us = delay_us;
    } else if (at >= 0 && s->key_delay[at].key == c) {
        s->key_delay[at].key = NULL; /* 0: the device's delay again */
    } else if (at < 0 && delay_us) {
        st = cuzk_error_set(err, CUZK_ERR_CAPACITY,
                            "engine_sim_set_key_delay: more than %d keys with a delay",
                            ENGINE_SIM_KEY_DELAYS);
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

void engine_sim_stats(const engine_sim_t *cs, engine_sim_stats_t *out)
{
    engine_sim_t *s = (engine_sim_t *)cs; /* only the mutex is written */
    pthread_mutex_lock(&s->mu);
    *out = s->st;
    pthread_mutex_unlock(&s->mu);
}

size_t engine_sim_held_bytes(const engine_sim_t *cs)
{
    engine_sim_t *s = (engine_sim_t *)cs; /* only the mutex is written */
    size_t n = 0;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < SIM_HELD_MAX; i++)
        n += s->held[i].refs ? s->held[i].bytes : 0;
    pthread_mutex_unlock(&s->mu);
    return n;
}
