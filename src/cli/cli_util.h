/* Small helpers shared by the CLI commands. */
#ifndef CUZK_CLI_UTIL_H
#define CUZK_CLI_UTIL_H

#include <stddef.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

/* Exit codes of every command. */
#define CLI_OK 0
#define CLI_INVALID 1
#define CLI_USAGE 2

/* Prints "cuzk <cmd>: <what>: <message>" on stderr and returns CLI_USAGE. */
int cli_fail(const char *cmd, const char *what, const cuzk_error_t *err);
/* Parses a decimal or 0x-prefixed big-endian hex Fr element. */
cuzk_status cli_parse_fr(fr_t *out, const char *s, size_t len, cuzk_error_t *err);
/* Reads an inputs file: one Fr per line (decimal or 0x hex), blank lines
 * ignored. *out is malloc'd. */
cuzk_status cli_read_inputs(fr_t **out, size_t *n, const char *path, cuzk_error_t *err);
double cli_now(void);
/* qsort's comparison of doubles, ascending. */
int cli_cmp_double(const void *a, const void *b);
/* The nearest-rank percentile q (0..1] of sorted[0..n), n >= 1: the
 * smallest value with at least q n of them at or below it. */
double cli_percentile(const double *sorted, size_t n, double q);

#endif
