/* The INSECURE test key of a PoRep-shaped benchmark, made on the CPU
 * (groth16_setup) or on the GPU (cuda_setup.h), with its bases kept in VRAM
 * when the proving runs in the same process and they fit. */
#ifndef CUZK_CLI_POREP_KEY_H
#define CUZK_CLI_POREP_KEY_H

#include <stddef.h>

#include "cuzk/circuit.h"
#include "cuzk/device.h"
#include "cuzk/prover.h"
#include "cuzk/setup.h"
#include "cuzk/status.h"

typedef struct cli_porep_key {
    groth16_key_t key; /* counts, vk; the bases too unless on_device */
    groth16_pk_t pk;   /* the prover's view: MSM_BASES_DEVICE when on_device */
    int on_device;     /* the bases live in VRAM (device 0) */
    size_t dev_bytes;  /* their bytes there */
    double setup_s;    /* making the key (and moving it where it stays) */
    void *dev;         /* the CUDA side (cuzk_cuda_key_dev_t), or NULL */
    char detail[160];  /* the GPU setup's stage times, or "" */
} cli_porep_key_t;

/* VRAM left free when a budget is the whole GPU (0): the key's placement
 * here and the benches' engine budget use the same figure. */
#define CLI_VRAM_HEADROOM ((size_t)1 << 30)

/* Makes the key for c from seed on `where` (DEVICE_CPU or DEVICE_CUDA). On the GPU
 * the bases stay there when budget (0: what is free beside them, less
 * CLI_VRAM_HEADROOM) holds them and what `workers` proofs need beside them
 * (each worker's circuit copy and scratch, cuda_backend.h's plan);
 * otherwise they are downloaded to host memory, from where the backend
 * streams them. Errors from the setups;
 * CUZK_ERR_ARG for another `where`, CUZK_ERR_UNSUPPORTED for cuda in a
 * build without it. On failure *out is zeroed. */
cuzk_status cli_porep_key_make(cli_porep_key_t *out, const circuit_t *c, uint64_t seed,
                               device_kind where, size_t budget, int workers, cuzk_error_t *err);
/* Bases in VRAM (device 0) moved to host memory, for proving on several
 * devices (each loads or streams its own copy from there); nothing to do
 * when they are already there. The setup time counts the move. */
cuzk_status cli_porep_key_to_host(cli_porep_key_t *k, cuzk_error_t *err);
void cli_porep_key_free(cli_porep_key_t *k);

#endif
