/* Small helpers shared by the CLI commands (see cli_util.h). */
#include "cli_util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/decimal.h"

int cli_fail(const char *cmd, const char *what, const cuzk_error_t *err)
{
    fprintf(stderr, "cuzk %s: %s: %s\n", cmd, what,
            err && err->msg[0] ? err->msg : cuzk_status_str(err ? err->code : CUZK_ERR_ARG));
    return CLI_USAGE;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

cuzk_status cli_parse_fr(fr_t *out, const char *s, size_t len, cuzk_error_t *err)
{
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        len -= 2;
        if (len > 64)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "hex value longer than 32 bytes");
        uint8_t be[FR_BYTES] = {0};
        for (size_t i = 0; i < len; i++) {
            int v = hexval(s[len - 1 - i]);
            if (v < 0)
                return cuzk_error_set(err, CUZK_ERR_PARSE, "bad hex digit '%c'", s[len - 1 - i]);
            be[FR_BYTES - 1 - i / 2] |= (uint8_t)(i % 2 ? v << 4 : v);
        }
        if (fr_from_be(out, be) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "value is not below r");
        return CUZK_OK;
    }
    return fr_from_dec(out, s, len, err);
}

cuzk_status cli_read_inputs(fr_t **out, size_t *n, const char *path, cuzk_error_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot open %s", path);
    size_t cap = 64, cnt = 0, lineno = 0;
    fr_t *v = malloc(cap * sizeof *v);
    char line[512];
    cuzk_status st = v ? CUZK_OK : CUZK_ERR_NOMEM;
    while (st == CUZK_OK && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            st = cuzk_error_set(err, CUZK_ERR_PARSE, "%s:%zu: line too long", path, lineno);
            break;
        }
        char *b = line, *e = line + len;
        while (b < e && isspace((unsigned char)*b))
            b++;
        while (e > b && isspace((unsigned char)e[-1]))
            e--;
        if (b == e)
            continue;
        if (cnt == cap) {
            fr_t *nv = realloc(v, 2 * cap * sizeof *v);
            if (!nv) {
                st = CUZK_ERR_NOMEM;
                break;
            }
            v = nv;
            cap *= 2;
        }
        cuzk_error_t e2;
        if (cli_parse_fr(&v[cnt], b, (size_t)(e - b), &e2) != CUZK_OK)
            st = cuzk_error_set(err, e2.code, "%s:%zu: %s", path, lineno, e2.msg);
        cnt++;
    }
    if (st == CUZK_OK && ferror(f))
        st = cuzk_error_set(err, CUZK_ERR_IO, "error reading %s", path);
    fclose(f);
    if (st == CUZK_ERR_NOMEM)
        cuzk_error_set(err, st, "out of memory reading %s", path);
    if (st != CUZK_OK) {
        free(v);
        return st;
    }
    *out = v;
    *n = cnt;
    return CUZK_OK;
}

int cli_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_percentile(const double *sorted, size_t n, double q)
{
    size_t k = (size_t)(q * (double)n + 0.999999);
    return sorted[k == 0 ? 0 : (k > n ? n - 1 : k - 1)];
}
