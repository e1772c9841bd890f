/* Status names and error-message formatting (see include/cuzk/status.h). */
#include "cuzk/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *cuzk_status_str(cuzk_status s)
{
    switch (s) {
    case CUZK_OK: return "ok";
    case CUZK_ERR_ARG: return "bad argument";
    case CUZK_ERR_LENGTH: return "wrong length";
    case CUZK_ERR_FLAGS: return "bad flag bits";
    case CUZK_ERR_NONCANONICAL: return "non-canonical field element";
    case CUZK_ERR_NOT_ON_CURVE: return "point not on curve";
    case CUZK_ERR_NOT_IN_SUBGROUP: return "point not in subgroup";
    case CUZK_ERR_PARSE: return "parse error";
    case CUZK_ERR_IO: return "i/o error";
    case CUZK_ERR_FORMAT: return "bad file format";
    case CUZK_ERR_NOMEM: return "out of memory";
    case CUZK_ERR_UNSUPPORTED: return "unsupported";
    case CUZK_ERR_INTERNAL: return "internal error";
    case CUZK_ERR_CUDA: return "CUDA error";
    case CUZK_ERR_NO_DEVICE: return "no CUDA device";
    case CUZK_ERR_TIMEOUT: return "timed out";
    case CUZK_ERR_CANCELLED: return "cancelled";
    case CUZK_ERR_BUSY: return "busy";
    case CUZK_ERR_CAPACITY: return "exceeds capacity";
    case CUZK_ERR_INVALID: return "invalid proof";
    }
    return "unknown status";
}

cuzk_status cuzk_error_set(cuzk_error_t *err, cuzk_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void cuzk_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "cuzk: invariant broken at %s:%d: %s\n", file, line, expr);
    abort();
}
