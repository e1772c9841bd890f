/* The engine's view of a device for the CLI (engine.h's engine_device_t):
 * a CUDA GPU through the CUDA backend, or the CPU as a simulated device
 * (engine_sim.h) with the given budget.
 *
 * CUDA accounting (cuzk_cuda_backend_plan_shared): when the key, the
 * circuit and every worker's scratch fit the budget, the workers share one
 * resident copy of key and circuit (resident bytes: one copy); otherwise
 * each worker streams with its own circuit and chunk buffers on its share
 * of the budget (resident bytes: workers x those). Scratch is one proof's
 * per-proof buffers. Each proof then plans under the budget the engine
 * admitted (backend.h's device_admit_t), so the layout is the engine's. */
#ifndef CUZK_CLI_ENGINE_DEVICE_H
#define CUZK_CLI_ENGINE_DEVICE_H

#include <stddef.h>

#include "cuzk/engine.h"
#include "cuzk/engine_sim.h"
#include "cuzk/status.h"

typedef struct cli_engine_dev {
    int cuda;
    int device;                 /* CUDA device index */
    char name[ENGINE_NAME_MAX]; /* "cuda:N", what out->name points to */
    size_t budget;
    int workers;
    engine_sim_t *sim; /* cpu */
} cli_engine_dev_t;

/* device: "cpu", "cuda" or NULL (cuda when present). Fills *out with
 * callbacks on *ctx (which must outlive the engine). Errors as
 * cli_backend_open's. */
cuzk_status cli_engine_device(engine_device_t *out, cli_engine_dev_t *ctx, const char *device,
                              size_t budget, int workers, cuzk_error_t *err);
/* The same on CUDA device `index` (cli_engine_device is index 0); for
 * "cpu" the index is ignored. CUZK_ERR_NO_DEVICE when there is no CUDA
 * device of that index. */
cuzk_status cli_engine_device_at(engine_device_t *out, cli_engine_dev_t *ctx, const char *device,
                                 int index, size_t budget, int workers, cuzk_error_t *err);
void cli_engine_device_free(cli_engine_dev_t *ctx);

#endif
