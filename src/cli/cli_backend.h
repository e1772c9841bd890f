/* The device a command proves on: --device cpu|cuda and --vram-budget. */
#ifndef CUZK_CLI_BACKEND_H
#define CUZK_CLI_BACKEND_H

#include <stddef.h>

#include "cuzk/backend.h"
#include "cuzk/cuda_device.h"
#include "cuzk/device.h"
#include "cuzk/status.h"

/* The device a command proves on, by kind (device.h; AUTO resolved here:
 * cuda when this build has it and a GPU is present, else cpu), made by the
 * CPU or CUDA provider. ctx must outlive every user of the device_t.
 * budget: bytes for the device (0: the GPU's free memory less 512 MiB, or
 * no limit on the CPU). Errors: CUZK_ERR_UNSUPPORTED (cuda in a build
 * without it), CUZK_ERR_NO_DEVICE, CUZK_ERR_ARG. */
typedef struct cli_device {
    device_kind kind; /* DEVICE_CPU or DEVICE_CUDA */
    cuda_device_t cuda;
} cli_device_t;
cuzk_status cli_device_open(device_t *out, cli_device_t *ctx, device_kind kind, int index,
                            size_t budget, int workers, cuzk_error_t *err);

/* One backend of a one-worker device (cli_device_open), for a direct
 * groth16_prove: what `cuzk prove` and the engine prove with are the same
 * device objects. */
typedef struct cli_backend {
    const groth16_backend_t *be; /* what to pass to groth16_prove */
    groth16_backend_t *owned;
    device_t dev;
    cli_device_t ctx;
    int cuda;
} cli_backend_t;
cuzk_status cli_backend_open(cli_backend_t *out, device_kind kind, size_t budget,
                             cuzk_error_t *err);
void cli_backend_close(cli_backend_t *b);

/* "16GiB", "512MiB", "2G", "1000000" -> bytes. CUZK_ERR_PARSE otherwise. */
cuzk_status cli_parse_bytes(size_t *out, const char *s, cuzk_error_t *err);

/* Whether this build has the CUDA backend and a GPU is present. */
int cli_have_gpu(void);
/* kind with AUTO resolved (cli_have_gpu). */
device_kind cli_device_resolve(device_kind kind);
/* device_kind_parse of a --device value, resolved; prints "cuzk CMD: --device:
 * ..." and returns 0 when it is not a device. */
int cli_device_arg(device_kind *out, const char *cmd, const char *value);

#endif
