/* The rules for the names a request carries, in one place: every layer that
 * receives a request (the gRPC edge, the daemon, the journal, the config
 * file, the client commands) checks them here, so they cannot drift.
 *
 *   circuit id  1..REQUEST_CIRCUIT_ID_MAX characters of [A-Za-z0-9._-], not
 *               starting with '.', never containing "..": it names one
 *               entry of one folder (srs.dir) and nothing above it.
 *   request id  optional (NULL or "" is none); at most REQUEST_ID_MAX bytes
 *               of printable ASCII (0x20..0x7e): it is logged and journaled.
 *
 * Rules: err may be NULL; the message names the field and the offence. */
#ifndef CUZK_REQUEST_H
#define CUZK_REQUEST_H

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define REQUEST_CIRCUIT_ID_MAX 128 /* characters, NUL not included */
#define REQUEST_ID_MAX 127         /* bytes, NUL not included */

/* CUZK_OK, or CUZK_ERR_ARG naming what is wrong (the id is quoted only
 * when its characters are safe to print). */
cuzk_status request_circuit_id_check(const char *id, cuzk_error_t *err);
cuzk_status request_id_check(const char *id, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
