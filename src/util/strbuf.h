/* A growable NUL-terminated string (internal to the library; shared by the
 * layers that render text: metrics, config dumps, timelines).
 *
 * Start from strbuf_t b = {0}. Out of memory is sticky: later appends do
 * nothing and b.nomem stays set, so a renderer appends freely and checks
 * once at the end. b.p is NULL until the first append (strbuf_put(b, "", 0)
 * makes an empty string); the caller owns it (free). */
#ifndef CUZK_UTIL_STRBUF_H
#define CUZK_UTIL_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
    char *p;
    size_t len, cap;
    int nomem;
} strbuf_t;

void strbuf_put(strbuf_t *b, const char *s, size_t n);
void strbuf_str(strbuf_t *b, const char *s);
void strbuf_fmt(strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define STRBUF_LIT(b, lit) strbuf_put(b, lit, sizeof lit - 1)

#endif
