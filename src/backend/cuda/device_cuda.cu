/* A CUDA GPU as a device (cuda_device.h). */
#include <stdio.h>
#include <string.h>

#include "cuzk/cuda.h"
#include "cuzk/cuda_backend.h"
#include "cuzk/cuda_device.h"

static cuzk_status cuda_dev_backend_new(void *ctx, int device, device_role role,
                                        groth16_backend_t **out, cuzk_error_t *err)
{
    const cuda_device_t *d = (const cuda_device_t *)ctx;
    (void)device; /* the engine's index; the GPU is d->index */
    return cuzk_cuda_backend_new_shared(out, d->index, d->budget, d->workers, role, err);
}

static void cuda_dev_backend_free(void *ctx, groth16_backend_t *be)
{
    (void)ctx;
    cuzk_cuda_backend_free(be);
}

static cuzk_status cuda_dev_plan(void *ctx, device_plan_t *out, const groth16_pk_t *pk,
                                 const circuit_t *c, size_t budget, cuzk_error_t *err)
{
    const cuda_device_t *d = (const cuda_device_t *)ctx;
    size_t w = (size_t)d->workers;
    cuzk_cuda_plan_t p;
    cuzk_status st = cuzk_cuda_backend_plan_shared(
        &p, pk, c, budget < d->budget ? budget : d->budget, d->workers, err);
    if (st != CUZK_OK)
        return st;
    out->layout = p.lean ? DEVICE_LEAN : p.streaming ? DEVICE_STREAMED : DEVICE_RESIDENT;
    /* resident: one copy shared by the workers; streaming: each its own */
    out->resident = (p.streaming ? w : 1) * (p.key_bytes + p.circuit_bytes);
    out->scratch = p.scratch_bytes;
    return CUZK_OK;
}

static void cuda_dev_evict(void *ctx, groth16_backend_t *be)
{
    (void)ctx;
    cuzk_cuda_backend_evict(be);
}

static cuzk_status cuda_dev_warm(void *ctx, groth16_backend_t *be, const groth16_pk_t *pk,
                                 const circuit_t *c, device_progress_fn progress, void *pctx,
                                 cuzk_error_t *err)
{
    (void)ctx;
    return cuzk_cuda_backend_warm(be, pk, c, progress, pctx, err);
}

extern "C" cuzk_status cuda_device_open(device_t *out, cuda_device_t *ctx, int index,
                                        size_t vram_budget, int workers, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    memset(ctx, 0, sizeof *ctx);
    if (workers < 1 || workers > 64 || vram_budget == 0)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "cuda device: %d workers (1..64), budget %zu bytes (> 0)", workers,
                              vram_budget);
    int count = 0;
    if (cuzk_cuda_device_count(&count, NULL) != CUZK_OK || count <= 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device is present");
    if (index < 0 || index >= count)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device %d (%d present)", index,
                              count);
    ctx->index = index;
    ctx->budget = vram_budget;
    ctx->workers = workers;
    snprintf(ctx->name, sizeof ctx->name, "cuda:%d", index);
    out->name = ctx->name;
    out->vram_capacity = vram_budget;
    out->workers = workers;
    out->ctx = ctx;
    out->backend_new = cuda_dev_backend_new;
    out->backend_free = cuda_dev_backend_free;
    out->plan = cuda_dev_plan;
    out->evict = cuda_dev_evict;
    out->warm = cuda_dev_warm;              /* a preload loads the key onto the GPU */
    out->host_alloc = cuzk_cuda_host_alloc; /* witnesses in page-locked memory */
    out->host_free = cuzk_cuda_host_free;
    out->takes_packed = 1; /* witnesses expanded on the GPU (msms_packed) */
    return CUZK_OK;
}
