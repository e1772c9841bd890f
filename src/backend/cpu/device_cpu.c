/* The CPU as a device (backend_cpu.h's cpu_device_open). */
#include <stdint.h>
#include <string.h>

#include "cuzk/backend_cpu.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"

static cuzk_status cpu_backend_new(void *ctx, int device, device_role role, groth16_backend_t **out,
                                   cuzk_error_t *err)
{
    (void)ctx;
    (void)device;
    (void)role; /* the host's scheduler has no such priority to give */
    (void)err;
    /* stateless and shareable: every worker gets the one reference backend */
    *out = (groth16_backend_t *)&GROTH16_BACKEND_CPU;
    return CUZK_OK;
}

static void cpu_backend_free(void *ctx, groth16_backend_t *be)
{
    (void)ctx;
    (void)be;
}

size_t cpu_device_key_bytes(const groth16_pk_t *pk, const circuit_t *c)
{
    size_t g1 = pk->a.n + pk->b_g1.n + pk->l.n + pk->h.n;
    size_t bytes = g1 * sizeof(g1_affine_t) + pk->b_g2.n * sizeof(g2_affine_t);
    for (int i = 0; i < 3; i++)
        bytes +=
            (size_t)c->m[i].nnz * 2 * sizeof(uint32_t) + ((size_t)c->n_rows + 1) * sizeof(uint64_t);
    return bytes + (size_t)c->n_dict * sizeof(fr_t);
}

size_t cpu_device_proof_bytes(const groth16_pk_t *pk)
{
    /* the witness copy and the H step's evaluations of A, B, C and their
     * product, each a domain of Fr */
    return ((size_t)pk->n_vars + 4 * ((size_t)1 << pk->log_m)) * sizeof(fr_t);
}

static cuzk_status cpu_plan(void *ctx, device_plan_t *out, const groth16_pk_t *pk,
                            const circuit_t *c, size_t budget, cuzk_error_t *err)
{
    (void)ctx;
    out->layout = DEVICE_RESIDENT;
    out->resident = cpu_device_key_bytes(pk, c);
    out->scratch = cpu_device_proof_bytes(pk);
    if (out->resident + out->scratch > budget)
        return cuzk_error_set(err, CUZK_ERR_NOMEM,
                              "the proof needs %.3f GiB of host memory (key and circuit %.3f, "
                              "proof %.3f), more than the CPU device's budget of %.3f GiB",
                              (double)(out->resident + out->scratch) / 1073741824.0,
                              (double)out->resident / 1073741824.0,
                              (double)out->scratch / 1073741824.0, (double)budget / 1073741824.0);
    return CUZK_OK;
}

cuzk_status cpu_device_open(device_t *out, size_t budget, int workers, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (workers < 1 || workers > 64)
        return cuzk_error_set(err, CUZK_ERR_ARG, "cpu device: %d workers (1..64)", workers);
    out->name = "cpu";
    out->vram_capacity = budget ? budget : SIZE_MAX;
    out->workers = workers;
    out->backend_new = cpu_backend_new;
    out->backend_free = cpu_backend_free;
    out->plan = cpu_plan;
    return CUZK_OK;
}
