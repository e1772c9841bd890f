/* The growable string (strbuf.h). */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for need more bytes and the NUL; capacity doubles from 4 KiB. */
static int grow(strbuf_t *b, size_t need)
{
    if (b->nomem)
        return 0;
    if (b->p && b->cap - b->len > need)
        return 1;
    size_t nc = b->cap ? b->cap : 4096;
    while (nc - b->len <= need) {
        if (nc > SIZE_MAX / 2) {
            b->nomem = 1;
            return 0;
        }
        nc *= 2;
    }
    char *np = realloc(b->p, nc);
    if (!np) {
        b->nomem = 1;
        return 0;
    }
    b->p = np;
    b->cap = nc;
    return 1;
}

void strbuf_put(strbuf_t *b, const char *s, size_t n)
{
    if (!grow(b, n))
        return;
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void strbuf_str(strbuf_t *b, const char *s)
{
    strbuf_put(b, s, strlen(s));
}

void strbuf_fmt(strbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
        b->nomem = 1;
        return;
    }
    if (!grow(b, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)k;
}
