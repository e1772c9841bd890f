/* --device and --vram-budget (cli_backend.h). */
#include "cli_backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/backend_cpu.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#endif

int cli_have_gpu(void)
{
#ifdef CUZK_HAVE_CUDA
    int n = 0;
    return cuzk_cuda_device_count(&n, NULL) == CUZK_OK && n > 0;
#else
    return 0;
#endif
}

device_kind cli_device_resolve(device_kind kind)
{
    if (kind == DEVICE_AUTO)
        return cli_have_gpu() ? DEVICE_CUDA : DEVICE_CPU;
    return kind;
}

int cli_device_arg(device_kind *out, const char *cmd, const char *value)
{
    cuzk_error_t err = {0};
    if (device_kind_parse(out, value, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: --device: %s\n", cmd, err.msg);
        return 0;
    }
    *out = cli_device_resolve(*out);
    return 1;
}

cuzk_status cli_device_open(device_t *out, cli_device_t *ctx, device_kind kind, int index,
                            size_t budget, int workers, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    memset(ctx, 0, sizeof *ctx);
    ctx->kind = cli_device_resolve(kind);
    if (ctx->kind == DEVICE_CPU)
        return cpu_device_open(out, budget, workers, err);
    if (ctx->kind != DEVICE_CUDA)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown device kind %d", (int)kind);
#ifdef CUZK_HAVE_CUDA
    if (budget == 0) { /* the device's free memory, less headroom */
        size_t free_b = 0, total = 0;
        cuzk_status st = cuzk_cuda_device_memory(&free_b, &total, index, err);
        if (st != CUZK_OK)
            return st;
        size_t headroom = (size_t)512 << 20;
        budget = free_b > 2 * headroom ? free_b - headroom : free_b / 2;
    }
    return cuda_device_open(out, &ctx->cuda, index, budget, workers, err);
#else
    (void)index;
    (void)budget;
    (void)workers;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "this build has no CUDA backend (nvcc was not found when it was built)");
#endif
}

cuzk_status cli_backend_open(cli_backend_t *out, device_kind kind, size_t budget, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = cli_device_open(&out->dev, &out->ctx, kind, 0, budget, 1, err);
    if (st == CUZK_OK)
        st = out->dev.backend_new(out->dev.ctx, 0, DEVICE_ROLE_REGULAR, &out->owned, err);
    if (st != CUZK_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    out->be = out->owned;
    out->cuda = out->ctx.kind == DEVICE_CUDA;
    return CUZK_OK;
}

void cli_backend_close(cli_backend_t *b)
{
    if (b && b->owned)
        b->dev.backend_free(b->dev.ctx, b->owned);
    if (b)
        memset(b, 0, sizeof *b);
}

cuzk_status cli_parse_bytes(size_t *out, const char *s, cuzk_error_t *err)
{
    char *end = NULL;
    errno = 0;
    double v = s ? strtod(s, &end) : -1;
    if (!s || end == s || errno || v < 0)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "'%s' is not a size (e.g. 16GiB)", s ? s : "");
    double mul = 1;
    if (!strcmp(end, "") || !strcmp(end, "B"))
        mul = 1;
    else if (!strcmp(end, "K") || !strcmp(end, "KiB"))
        mul = 1024.0;
    else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
        mul = 1024.0 * 1024;
    else if (!strcmp(end, "G") || !strcmp(end, "GiB"))
        mul = 1024.0 * 1024 * 1024;
    else if (!strcmp(end, "KB"))
        mul = 1e3;
    else if (!strcmp(end, "MB"))
        mul = 1e6;
    else if (!strcmp(end, "GB"))
        mul = 1e9;
    else
        return cuzk_error_set(err, CUZK_ERR_PARSE, "'%s': unknown unit '%s' (KiB, MiB, GiB)", s,
                              end);
    double b = v * mul;
    if (b >= 1.8e19 || b < 1)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "'%s' is out of range", s);
    *out = (size_t)b;
    return CUZK_OK;
}
