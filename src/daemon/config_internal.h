/* The strict TOML-subset reader of the daemon's configuration (config.c's
 * part 2, in config_toml.c): values into a tval_t, knowing nothing of the
 * options. Internal to src/daemon. */
#ifndef CUZK_DAEMON_CONFIG_INTERNAL_H
#define CUZK_DAEMON_CONFIG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/config.h"

typedef enum tv_type { TV_NONE, TV_STR, TV_INT, TV_BOOL, TV_FLOAT, TV_ARRAY } tv_type;

#define TV_ITEMS_MAX 2048 /* more than a CONFIG_LINE_MAX line can hold */

/* A value that is not an array (strings live in the caller's buffer). */
typedef struct tscalar {
    tv_type type;
    int64_t i;
    double f;
    int b;
} tscalar_t;

typedef struct tval {
    tv_type type;
    tv_type elem; /* TV_ARRAY: TV_STR, TV_INT, or TV_NONE when empty */
    int64_t i;
    double f;
    int b;
    size_t n;                      /* TV_ARRAY items */
    char buf[CONFIG_LINE_MAX + 2]; /* TV_STR, and TV_ARRAY strings, each NUL-terminated */
    size_t len;                    /* TV_STR: bytes in buf */
    union {
        uint32_t off[TV_ITEMS_MAX]; /* TV_ARRAY of strings: each item's offset in buf */
        int64_t ints[TV_ITEMS_MAX]; /* TV_ARRAY of integers */
    } u;
} tval_t;

typedef struct cur {
    const char *p, *e;
} cur_t;

/* Writes the message into why (wn bytes) and returns -1, so that a check
 * can `return toml_fail(...)`. */
int toml_fail(char *why, size_t wn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *toml_tv_name(tv_type t);
void toml_skip_ws(cur_t *c);
int toml_is_ctl(unsigned char ch);
int toml_is_bare(unsigned char ch);
int toml_hexval(unsigned char ch);
/* Bytes of valid UTF-8 at the start of s (n when all of it is). */
size_t toml_utf8_check(const unsigned char *s, size_t n);
int toml_lex_scalar(tscalar_t *v, const char *s, size_t n, char *why, size_t wn);
int toml_lex_end(cur_t *c, const char *what, char *why, size_t wn);
int toml_lex_value(tval_t *v, cur_t *c, char *why, size_t wn);

#endif
