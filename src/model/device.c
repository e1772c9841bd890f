/* Device kinds and layouts by name (device.h). */
#include "cuzk/device.h"

#include <string.h>

cuzk_status device_kind_parse(device_kind *out, const char *s, cuzk_error_t *err)
{
    if (!s || !strcmp(s, "auto"))
        *out = DEVICE_AUTO;
    else if (!strcmp(s, "cpu"))
        *out = DEVICE_CPU;
    else if (!strcmp(s, "cuda"))
        *out = DEVICE_CUDA;
    else
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown device '%s' (cpu or cuda)", s);
    return CUZK_OK;
}

const char *device_kind_str(int kind)
{
    switch (kind) {
    case DEVICE_AUTO: return "auto";
    case DEVICE_CPU: return "cpu";
    case DEVICE_CUDA: return "cuda";
    default: return "invalid";
    }
}

const char *device_layout_str(int layout)
{
    switch (layout) {
    case DEVICE_RESIDENT: return "resident";
    case DEVICE_STREAMED: return "streamed";
    case DEVICE_LEAN: return "lean";
    default: return "invalid";
    }
}
