/* CUDA or simulated CPU devices for the engine (cli_engine_device.h). */
#include "cli_engine_device.h"

#include <stdio.h>
#include <string.h>

#include "cli_backend.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#include "cuzk/cuda_backend.h"

static cuzk_status cuda_new(void *ctx, int device, groth16_backend_t **out, cuzk_error_t *err)
{
    const cli_engine_dev_t *d = ctx;
    (void)device; /* the engine's index; the GPU is d->device */
    return cuzk_cuda_backend_new_shared(out, d->device, d->budget, d->workers, err);
}

static void cuda_free(void *ctx, groth16_backend_t *be)
{
    (void)ctx;
    cuzk_cuda_backend_free(be);
}

static cuzk_status cuda_plan(void *ctx, const groth16_pk_t *pk, const circuit_t *c, size_t budget,
                             size_t *resident, size_t *scratch, cuzk_error_t *err)
{
    const cli_engine_dev_t *d = ctx;
    size_t w = (size_t)d->workers;
    cuzk_cuda_plan_t p;
    cuzk_status st = cuzk_cuda_backend_plan_shared(
        &p, pk, c, budget < d->budget ? budget : d->budget, d->workers, err);
    if (st != CUZK_OK)
        return st;
    /* resident: one copy shared by the workers; streaming: each its own */
    *resident = (p.streaming ? w : 1) * (p.key_bytes + p.circuit_bytes);
    *scratch = p.scratch_bytes;
    return CUZK_OK;
}

static void cuda_evict(void *ctx, groth16_backend_t *be)
{
    (void)ctx;
    cuzk_cuda_backend_evict(be);
}

static cuzk_status cuda_warm(void *ctx, groth16_backend_t *be, const groth16_pk_t *pk,
                             const circuit_t *c, engine_progress_fn progress, void *pctx,
                             cuzk_error_t *err)
{
    (void)ctx;
    return cuzk_cuda_backend_warm(be, pk, c, progress, pctx, err);
}
#endif

cuzk_status cli_engine_device(engine_device_t *out, cli_engine_dev_t *ctx, const char *device,
                              size_t budget, int workers, cuzk_error_t *err)
{
    return cli_engine_device_at(out, ctx, device, 0, budget, workers, err);
}

cuzk_status cli_engine_device_at(engine_device_t *out, cli_engine_dev_t *ctx, const char *device,
                                 int index, size_t budget, int workers, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    memset(ctx, 0, sizeof *ctx);
    ctx->budget = budget;
    ctx->workers = workers < 1 ? 1 : workers;
    int cuda = device ? !strcmp(device, "cuda") : cli_have_gpu();
    if (device && !cuda && strcmp(device, "cpu"))
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown device '%s' (cpu or cuda)", device);
    if (!cuda) {
        /* The CPU proves; the ledger still counts a GPU-like footprint
         * (about 1 KiB per row resident, 0.5 KiB scratch). */
        engine_sim_config_t sc = {0, 1024, 0, 512, 256, 0};
        cuzk_status st = engine_sim_new(&ctx->sim, &sc, err);
        if (st == CUZK_OK)
            engine_sim_device(out, ctx->sim, "cpu", budget, ctx->workers);
        return st;
    }
#ifdef CUZK_HAVE_CUDA
    int count = 0;
    if (cuzk_cuda_device_count(&count, NULL) != CUZK_OK || count <= 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device is present");
    if (index < 0 || index >= count)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device %d (%d present)", index,
                              count);
    ctx->cuda = 1;
    ctx->device = index;
    snprintf(ctx->name, sizeof ctx->name, "cuda:%d", index);
    out->name = ctx->name;
    out->vram_capacity = budget;
    out->workers = ctx->workers;
    out->ctx = ctx;
    out->backend_new = cuda_new;
    out->backend_free = cuda_free;
    out->plan = cuda_plan;
    out->evict = cuda_evict;
    out->warm = cuda_warm;                  /* a preload loads the key onto the GPU */
    out->host_alloc = cuzk_cuda_host_alloc; /* witnesses in page-locked memory */
    out->host_free = cuzk_cuda_host_free;
    return CUZK_OK;
#else
    (void)index;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "this build has no CUDA backend (nvcc was not found when it was built)");
#endif
}

void cli_engine_device_free(cli_engine_dev_t *ctx)
{
    if (ctx && ctx->sim)
        engine_sim_free(ctx->sim);
    if (ctx)
        memset(ctx, 0, sizeof *ctx);
}
