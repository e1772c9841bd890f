/* Circuit and request id rules (include/cuzk/request.h). */
#include "cuzk/request.h"

#include <string.h>

static int id_char(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

cuzk_status request_circuit_id_check(const char *id, cuzk_error_t *err)
{
    if (!id || !id[0])
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit_id is empty");
    size_t n = strnlen(id, REQUEST_CIRCUIT_ID_MAX + 1);
    if (n > REQUEST_CIRCUIT_ID_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit_id is longer than %d characters",
                              REQUEST_CIRCUIT_ID_MAX);
    for (size_t i = 0; i < n; i++)
        if (!id_char((unsigned char)id[i]))
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "circuit_id has byte 0x%02x at %zu (allowed: A-Z a-z 0-9 . _ -)",
                                  (unsigned char)id[i], i);
    /* With '/' and '\\' refused above the id is one entry of one folder; a
     * leading dot would still reach ".", ".." and hidden files. */
    if (id[0] == '.')
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit_id '%s' starts with '.'", id);
    if (strstr(id, ".."))
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit_id '%s' contains '..'", id);
    return CUZK_OK;
}

cuzk_status request_id_check(const char *id, cuzk_error_t *err)
{
    if (!id)
        return CUZK_OK;
    size_t n = strnlen(id, REQUEST_ID_MAX + 1);
    if (n > REQUEST_ID_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "request_id is longer than %d bytes",
                              REQUEST_ID_MAX);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)id[i];
        if (c < 0x20 || c > 0x7e)
            return cuzk_error_set(err, CUZK_ERR_ARG,
                                  "request_id has byte 0x%02x at %zu (printable ASCII only)", c, i);
    }
    return CUZK_OK;
}
