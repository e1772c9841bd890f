/* The backend a command proves on: --device cpu|cuda and --vram-budget. */
#ifndef CUZK_CLI_BACKEND_H
#define CUZK_CLI_BACKEND_H

#include <stddef.h>

#include "cuzk/backend.h"
#include "cuzk/status.h"

typedef struct cli_backend {
    const groth16_backend_t *be; /* what to pass to groth16_prove */
    groth16_backend_t *owned;    /* the CUDA backend, freed by cli_backend_close */
    int cuda;
} cli_backend_t;

/* device: "cpu", "cuda" or NULL (cuda when this build has it and a GPU is
 * present, else cpu). budget: 0 for the device's free memory. Errors:
 * CUZK_ERR_UNSUPPORTED (cuda asked for in a build without it),
 * CUZK_ERR_NO_DEVICE, CUZK_ERR_ARG (unknown device name), CUDA errors. */
cuzk_status cli_backend_open(cli_backend_t *out, const char *device, size_t budget,
                             cuzk_error_t *err);
void cli_backend_close(cli_backend_t *b);

/* "16GiB", "512MiB", "2G", "1000000" -> bytes. CUZK_ERR_PARSE otherwise. */
cuzk_status cli_parse_bytes(size_t *out, const char *s, cuzk_error_t *err);

/* Whether this build has the CUDA backend and a GPU is present. */
int cli_have_gpu(void);

#endif
