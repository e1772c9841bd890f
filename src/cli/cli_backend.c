/* --device and --vram-budget (cli_backend.h). */
#include "cli_backend.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/backend_cpu.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#include "cuzk/cuda_backend.h"
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

cuzk_status cli_backend_open(cli_backend_t *out, const char *device, size_t budget,
                             cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->be = &GROTH16_BACKEND_CPU;
    int want_cuda;
    if (!device)
        want_cuda = cli_have_gpu();
    else if (!strcmp(device, "cpu"))
        want_cuda = 0;
    else if (!strcmp(device, "cuda"))
        want_cuda = 1;
    else
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown device '%s' (cpu or cuda)", device);
    if (!want_cuda)
        return CUZK_OK;
#ifdef CUZK_HAVE_CUDA
    cuzk_status st = cuzk_cuda_backend_new(&out->owned, 0, budget, err);
    if (st != CUZK_OK)
        return st;
    out->be = out->owned;
    out->cuda = 1;
    return CUZK_OK;
#else
    (void)budget;
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "this build has no CUDA backend (nvcc was not found when it was built)");
#endif
}

void cli_backend_close(cli_backend_t *b)
{
#ifdef CUZK_HAVE_CUDA
    if (b && b->owned)
        cuzk_cuda_backend_free(b->owned);
#endif
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
