/* A simulated device (device.h) for tests of the engine and the daemon:
 * proves on the CPU (GROTH16_BACKEND_CPU) and states VRAM needs by formula,
 * so the whole pipeline, ledger included, runs without a GPU, with faults
 * injected where a test wants them. Its backends check that the layout the
 * engine admitted is the one their own plan gives (else CUZK_ERR_INTERNAL).
 *
 * Plan. With m = 2^pk->log_m rows: resident = resident_base +
 * resident_per_row m, scratch = scratch_base + scratch_per_row m. When
 * resident + scratch exceeds the budget the device "streams": resident 0 and
 * scratch + stream_per_row m; when even that exceeds the budget, plan fails
 * with CUZK_ERR_NOMEM.
 *
 * Failure injection (set from any thread at any time, atomically):
 * the Nth prove from now fails with CUZK_ERR_CUDA "injected launch failure";
 * plan fails with CUZK_ERR_NOMEM while armed; the next K backend_new calls
 * fail with CUZK_ERR_CUDA. Each proof sleeps delay_us first (device time),
 * or its key's own delay where engine_sim_set_key_delay set one.
 *
 * Rules: as status.h; an engine_sim_t must outlive every engine that uses
 * its device description; all functions are thread-safe. */
#ifndef CUZK_TESTS_SIM_DEVICE_H
#define CUZK_TESTS_SIM_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/device.h"
#include "cuzk/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct engine_sim_config {
    size_t resident_base, resident_per_row;
    size_t scratch_base, scratch_per_row;
    size_t stream_per_row;
    unsigned delay_us;
} engine_sim_config_t;

typedef struct engine_sim engine_sim_t;

typedef struct engine_sim_stats {
    uint64_t proves; /* prove calls started (failed ones included) */
    uint64_t plans;
    uint64_t backends;          /* backend_new calls that succeeded */
    uint64_t critical_backends; /* ... of them for the critical lane (DEVICE_ROLE_CRITICAL) */
    uint64_t live;              /* backends made and not yet freed */
    uint64_t evicts;            /* evict callbacks */
    uint64_t warms;             /* warm callbacks (preload loads) */
    uint64_t critical_warms;    /* ... of them on a critical lane's backend */
    unsigned max_concurrent;    /* most proofs running at once */
} engine_sim_stats_t;

/* Returns CUZK_OK, CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status engine_sim_new(engine_sim_t **out, const engine_sim_config_t *cfg, cuzk_error_t *err);
/* NULL: nothing. Every backend made must have been freed (the engine
 * destroyed) first. */
void engine_sim_free(engine_sim_t *s);
/* Fills a device description whose callbacks run on s. */
void engine_sim_device(device_t *out, engine_sim_t *s, const char *name, size_t capacity,
                       int workers);

/* Gives a device that engine_sim_device filled a warm callback (off by
 * default): each loads the plan's resident bytes in 4 steps over
 * delay_us, reporting progress after each; the next fail_count warms
 * fail half way. Before
 * engine_new. */
void engine_sim_device_warm(device_t *dev, unsigned fail_count, unsigned delay_us);
/* nth = 1: the next prove fails; 0 disarms. */
void engine_sim_fail_prove(engine_sim_t *s, uint64_t nth);
void engine_sim_fail_plan(engine_sim_t *s, int armed);
void engine_sim_fail_backend_new(engine_sim_t *s, unsigned count);
void engine_sim_set_delay(engine_sim_t *s, unsigned delay_us);
/* Proofs of the key whose circuit is c sleep delay_us instead of the
 * device's delay (0: back to the device's). A key is named by its circuit
 * (engine_key_spec_t.circuit): that is what the backend sees of it. At most
 * ENGINE_SIM_KEY_DELAYS keys; more: CUZK_ERR_CAPACITY. */
#define ENGINE_SIM_KEY_DELAYS 8
cuzk_status engine_sim_set_key_delay(engine_sim_t *s, const circuit_t *c, unsigned delay_us,
                                     cuzk_error_t *err);
void engine_sim_stats(const engine_sim_t *s, engine_sim_stats_t *out);
/* Device bytes the sim's backends hold resident between proofs (one copy
 * per key, as the CUDA backend shares it): what their own plans keep. The
 * engine's ledger must reserve at least this persistently. */
size_t engine_sim_held_bytes(const engine_sim_t *s);

#ifdef __cplusplus
}
#endif
#endif
