/* The daemon configuration's TOML subset (config_internal.h): strings with
 * escapes, integers, floats, booleans and one-line arrays, read strictly;
 * what the values mean is config.c's business. */
#include "daemon/config_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * 2. The TOML subset
 * ====================================================================== */

const char *toml_tv_name(tv_type t)
{
    switch (t) {
    case TV_STR: return "a string";
    case TV_INT: return "an integer";
    case TV_BOOL: return "a boolean";
    case TV_FLOAT: return "a float";
    case TV_ARRAY: return "an array";
    case TV_NONE: break;
    }
    return "nothing";
}

int toml_fail(char *why, size_t wn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, wn, fmt, ap);
    va_end(ap);
    return -1;
}

void toml_skip_ws(cur_t *c)
{
    while (c->p < c->e && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

int toml_is_ctl(unsigned char ch)
{
    return (ch < 0x20 && ch != '\t') || ch == 0x7f;
}

int toml_is_bare(unsigned char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '-';
}

int toml_hexval(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Byte offset of the first invalid UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or n when all is valid. */
size_t toml_utf8_check(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        uint32_t cp, min;
        if ((c & 0xe0) == 0xc0)
            k = 1, cp = c & 0x1f, min = 0x80;
        else if ((c & 0xf0) == 0xe0)
            k = 2, cp = c & 0x0f, min = 0x800;
        else if ((c & 0xf8) == 0xf0)
            k = 3, cp = c & 0x07, min = 0x10000;
        else
            return i;
        if (n - i <= k)
            return i;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return i;
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        i += k + 1;
    }
    return n;
}

static size_t utf8_put(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A basic or literal string at c->p (its opening quote) into out, which has
 * room for the line's length: decoding never grows the text. */
static int lex_string(cur_t *c, char *out, size_t *len, char *why, size_t wn)
{
    char q = *c->p;
    if (c->e - c->p >= 3 && c->p[1] == q && c->p[2] == q)
        return toml_fail(why, wn, "multi-line strings are not supported");
    c->p++;
    size_t n = 0;
    for (;;) {
        if (c->p >= c->e)
            return toml_fail(why, wn, "unterminated string");
        unsigned char ch = (unsigned char)*c->p;
        if (ch == (unsigned char)q) {
            c->p++;
            break;
        }
        if (toml_is_ctl(ch))
            return toml_fail(why, wn, "control character 0x%02x in a string", ch);
        if (ch != '\\' || q == '\'') {
            out[n++] = (char)ch;
            c->p++;
            continue;
        }
        if (c->e - c->p < 2)
            return toml_fail(why, wn, "unterminated string");
        char esc = c->p[1];
        c->p += 2;
        switch (esc) {
        case '"': out[n++] = '"'; continue;
        case '\\': out[n++] = '\\'; continue;
        case 'n': out[n++] = '\n'; continue;
        case 't': out[n++] = '\t'; continue;
        case 'r': out[n++] = '\r'; continue;
        case 'b': out[n++] = '\b'; continue;
        case 'f': out[n++] = '\f'; continue;
        case 'u':
        case 'U': break;
        default:
            if (toml_is_ctl((unsigned char)esc) || (unsigned char)esc >= 0x80)
                return toml_fail(why, wn, "bad escape sequence in a string");
            return toml_fail(why, wn, "bad escape '\\%c' in a string", esc);
        }
        int digits = esc == 'u' ? 4 : 8;
        if (c->e - c->p < digits)
            return toml_fail(why, wn, "\\%c needs %d hex digits", esc, digits);
        uint32_t cp = 0;
        for (int i = 0; i < digits; i++) {
            int h = toml_hexval((unsigned char)c->p[i]);
            if (h < 0)
                return toml_fail(why, wn, "\\%c needs %d hex digits", esc, digits);
            cp = cp << 4 | (uint32_t)h;
        }
        c->p += digits;
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return toml_fail(why, wn, "\\%c%0*X is not a Unicode scalar value", esc, digits, cp);
        if (cp == 0)
            return toml_fail(why, wn, "NUL (\\%c%0*X) is not allowed in a string", esc, digits, 0u);
        /* A \u escape is at least 6 bytes and encodes to at most 4. */
        n += utf8_put(out + n, cp);
    }
    out[n] = '\0';
    *len = n;
    return 0;
}

/* Digits of `base` with '_' only between two digits, into *mag. */
static int lex_digits(uint64_t *mag, const char *s, size_t n, unsigned base, char *why, size_t wn)
{
    uint64_t v = 0;
    int overflow = 0;
    if (n == 0)
        return toml_fail(why, wn, "missing digits");
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '_') {
            if (i == 0 || i + 1 == n || s[i - 1] == '_')
                return toml_fail(why, wn, "'_' must sit between two digits");
            continue;
        }
        int d = toml_hexval((unsigned char)s[i]);
        if (d < 0 || (unsigned)d >= base)
            return toml_fail(why, wn, "bad digit '%c' in a base-%u number", s[i], base);
        if (v > (UINT64_MAX - (unsigned)d) / base)
            overflow = 1;
        else
            v = v * base + (unsigned)d;
    }
    if (overflow)
        return toml_fail(why, wn, "integer out of range");
    *mag = v;
    return 0;
}

/* A run of [0-9_] at s[*i] with '_' only between two digits; the digits are
 * appended to clean[*k]. */
static int digit_run(const char *s, size_t n, size_t *i, char *clean, size_t *k, char *why,
                     size_t wn)
{
    size_t start = *i;
    for (; *i < n && (s[*i] == '_' || (s[*i] >= '0' && s[*i] <= '9')); (*i)++) {
        if (s[*i] != '_') {
            clean[(*k)++] = s[*i];
            continue;
        }
        if (*i == start || *i + 1 >= n || s[*i + 1] < '0' || s[*i + 1] > '9')
            return toml_fail(why, wn, "'_' must sit between two digits");
    }
    if (*i == start)
        return toml_fail(why, wn, "missing digits in a float");
    return 0;
}

/* [sign] int [. digits] [e [sign] digits], a fraction or exponent required. */
static int lex_float(double *out, const char *s, size_t n, char *why, size_t wn)
{
    char clean[CONFIG_LINE_MAX + 1];
    size_t k = 0, i = 0;
    if (s[0] == '+' || s[0] == '-')
        clean[k++] = s[i++];
    size_t int_start = i;
    if (digit_run(s, n, &i, clean, &k, why, wn) < 0)
        return -1;
    if (s[int_start] == '0' && i - int_start > 1)
        return toml_fail(why, wn, "leading zeros are not allowed");
    int frac = 0, exp = 0;
    if (i < n && s[i] == '.') {
        clean[k++] = '.';
        i++;
        if (digit_run(s, n, &i, clean, &k, why, wn) < 0)
            return -1;
        frac = 1;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        clean[k++] = 'e';
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            clean[k++] = s[i++];
        if (digit_run(s, n, &i, clean, &k, why, wn) < 0)
            return -1;
        exp = 1;
    }
    if (i != n || (!frac && !exp))
        return toml_fail(why, wn, "bad number '%.*s'", (int)(n > 40 ? 40 : n), s);
    clean[k] = '\0';
    char *end;
    double d = strtod(clean, &end);
    if (*end != '\0')
        return toml_fail(why, wn, "bad float '%.*s'", (int)(n > 40 ? 40 : n), s);
    if (!isfinite(d))
        return toml_fail(why, wn, "float out of range");
    *out = d;
    return 0;
}

static int tok_is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* A bare token: a boolean, an integer or a float. */
int toml_lex_scalar(tscalar_t *v, const char *s, size_t n, char *why, size_t wn)
{
    if (tok_is(s, n, "true") || tok_is(s, n, "false")) {
        v->type = TV_BOOL;
        v->b = s[0] == 't';
        return 0;
    }
    const char *t = s + (n && (s[0] == '+' || s[0] == '-'));
    size_t tn = n - (size_t)(t - s);
    if (tok_is(t, tn, "inf") || tok_is(t, tn, "nan"))
        return toml_fail(why, wn, "inf and nan are not supported");
    if (memchr(s, ':', n) || (n >= 10 && s[4] == '-' && s[0] >= '0' && s[0] <= '9'))
        return toml_fail(why, wn, "dates and times are not supported");
    if (n == 0 || !((s[0] >= '0' && s[0] <= '9') || s[0] == '+' || s[0] == '-'))
        return toml_fail(why, wn, "bad value '%.*s' (strings need quotes)", (int)(n > 40 ? 40 : n),
                         s);
    if (tn >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b')) {
        if (t != s)
            return toml_fail(why, wn, "a sign is not allowed before 0%c", t[1]);
        unsigned base = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
        uint64_t mag;
        if (lex_digits(&mag, t + 2, tn - 2, base, why, wn) < 0)
            return -1;
        if (mag > INT64_MAX)
            return toml_fail(why, wn, "integer out of range");
        v->type = TV_INT;
        v->i = (int64_t)mag;
        return 0;
    }
    if (memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n)) {
        v->type = TV_FLOAT;
        return lex_float(&v->f, s, n, why, wn);
    }
    if (tn > 1 && t[0] == '0')
        return toml_fail(why, wn, "leading zeros are not allowed (octal is written 0o%.*s)",
                         (int)(tn - 1 > 20 ? 20 : tn - 1), t + 1);
    uint64_t mag;
    if (lex_digits(&mag, t, tn, 10, why, wn) < 0)
        return -1;
    if (s[0] == '-' ? mag > (uint64_t)INT64_MAX + 1 : mag > INT64_MAX)
        return toml_fail(why, wn, "integer out of range");
    v->type = TV_INT;
    v->i = s[0] == '-' ? (int64_t)(0 - mag) : (int64_t)mag;
    return 0;
}

static int is_token_char(unsigned char ch)
{
    return toml_is_bare(ch) || ch == '+' || ch == '.' || ch == ':';
}

/* One value that is not an array; a string goes to out. */
static int lex_item(tscalar_t *v, cur_t *c, char *out, size_t *len, char *why, size_t wn)
{
    if (c->p >= c->e)
        return toml_fail(why, wn, "missing value");
    char ch = *c->p;
    if (ch == '"' || ch == '\'') {
        v->type = TV_STR;
        return lex_string(c, out, len, why, wn);
    }
    if (ch == '{')
        return toml_fail(why, wn, "inline tables are not supported");
    const char *s = c->p;
    while (c->p < c->e && is_token_char((unsigned char)*c->p))
        c->p++;
    if (c->p == s) {
        if (toml_is_ctl((unsigned char)ch))
            return toml_fail(why, wn, "control character 0x%02x", (unsigned char)ch);
        if ((unsigned char)ch >= 0x80 || ch == '#')
            return toml_fail(why, wn, "missing value");
        return toml_fail(why, wn, "unexpected '%c' where a value belongs", ch);
    }
    return toml_lex_scalar(v, s, (size_t)(c->p - s), why, wn);
}

static int lex_array(tval_t *v, cur_t *c, char *why, size_t wn)
{
    c->p++; /* '[' */
    v->type = TV_ARRAY;
    v->elem = TV_NONE;
    v->n = 0;
    size_t used = 0;
    for (;;) {
        toml_skip_ws(c);
        if (c->p >= c->e || *c->p == '#')
            return toml_fail(why, wn, "unterminated array (arrays must be on one line)");
        if (*c->p == ']') {
            c->p++;
            return 0;
        }
        if (*c->p == '[')
            return toml_fail(why, wn, "nested arrays are not supported");
        if (*c->p == ',')
            return toml_fail(why, wn, "missing value in an array");
        tscalar_t item = {TV_NONE, 0, 0, 0};
        size_t len = 0;
        if (lex_item(&item, c, v->buf + used, &len, why, wn) < 0)
            return -1;
        if (item.type != TV_STR && item.type != TV_INT)
            return toml_fail(why, wn, "arrays hold strings or integers, not %s",
                             toml_tv_name(item.type));
        if (v->elem != TV_NONE && item.type != v->elem)
            return toml_fail(why, wn, "an array mixes strings and integers");
        if (v->n == TV_ITEMS_MAX)
            return toml_fail(why, wn, "too many array items");
        v->elem = item.type;
        if (item.type == TV_STR) {
            v->u.off[v->n] = (uint32_t)used;
            used += len + 1;
        } else {
            v->u.ints[v->n] = item.i;
        }
        v->n++;
        toml_skip_ws(c);
        if (c->p < c->e && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->e && *c->p == ']')
            continue;
        if (c->p >= c->e || *c->p == '#')
            return toml_fail(why, wn, "unterminated array (arrays must be on one line)");
        return toml_fail(why, wn, "expected ',' or ']' in an array");
    }
}

/* Whatever follows a value or header: blanks, then a comment or nothing. */
int toml_lex_end(cur_t *c, const char *what, char *why, size_t wn)
{
    toml_skip_ws(c);
    if (c->p >= c->e)
        return 0;
    if (*c->p == '#') {
        for (const char *q = c->p; q < c->e; q++)
            if (toml_is_ctl((unsigned char)*q))
                return toml_fail(why, wn, "control character 0x%02x in a comment",
                                 (unsigned char)*q);
        return 0;
    }
    return toml_fail(why, wn, "unexpected text after the %s", what);
}

/* A value filling the whole of c (a line's rest, or config_set's text). */
int toml_lex_value(tval_t *v, cur_t *c, char *why, size_t wn)
{
    v->type = TV_NONE;
    v->len = 0;
    v->n = 0;
    toml_skip_ws(c);
    if (c->p < c->e && *c->p == '[') {
        if (lex_array(v, c, why, wn) < 0)
            return -1;
    } else {
        tscalar_t sc = {TV_NONE, 0, 0, 0};
        if (lex_item(&sc, c, v->buf, &v->len, why, wn) < 0)
            return -1;
        v->type = sc.type;
        v->i = sc.i;
        v->f = sc.f;
        v->b = sc.b;
    }
    return toml_lex_end(c, "value", why, wn);
}
