/* The streaming JSON reader of the C1 parser (vanilla_c1_json.h). */
#include "vanilla_c1_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fil_jr_init(fil_jr_t *r, const uint8_t *p, size_t n, const char *what, cuzk_error_t *err)
{
    memset(r, 0, sizeof *r);
    r->p = p;
    r->n = n;
    r->what = what;
    r->err = err;
}

cuzk_status fil_jr_fail(const fil_jr_t *r, cuzk_status code, size_t at, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_error_set(r->err, code, "%s: %s%sat offset %zu: %s", r->what, r->path,
                          r->plen ? " " : "", at, msg);
}

/* Appends to the path; returns the length to restore with fil_jr_pop. */
size_t fil_jr_push(fil_jr_t *r, const char *fmt, ...)
{
    size_t old = r->plen;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(r->path + old, sizeof r->path - old, fmt, ap);
    va_end(ap);
    if (k > 0)
        r->plen = old + (size_t)k < sizeof r->path ? old + (size_t)k : sizeof r->path - 1;
    return old;
}

void fil_jr_pop(fil_jr_t *r, size_t len)
{
    r->plen = len;
    r->path[len] = 0;
}

size_t fil_jr_push_field(fil_jr_t *r, const char *name)
{
    return fil_jr_push(r, "%s%s", r->plen ? "." : "", name);
}

/* The next byte after whitespace, or -1 at the end. */
int fil_jr_peek(fil_jr_t *r)
{
    while (r->at < r->n) {
        uint8_t c = r->p[r->at];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return c;
        r->at++;
    }
    return -1;
}

static const char *fil_jr_found(int c, char buf[16])
{
    if (c < 0)
        return "the end of the input";
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, 16, "'%c'", c);
    else
        snprintf(buf, 16, "byte 0x%02x", (unsigned)c);
    return buf;
}

cuzk_status fil_jr_unexpected(fil_jr_t *r, const char *want)
{
    char b[16];
    int c = fil_jr_peek(r);
    return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "expected %s, found %s", want,
                       fil_jr_found(c, b));
}

cuzk_status fil_jr_expect(fil_jr_t *r, int c, const char *want)
{
    if (fil_jr_peek(r) != c)
        return fil_jr_unexpected(r, want);
    r->at++;
    return CUZK_OK;
}

static cuzk_status fil_jr_literal(fil_jr_t *r, const char *word)
{
    size_t k = strlen(word);
    if (r->n - r->at < k || memcmp(r->p + r->at, word, k) != 0)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "expected `%s`", word);
    r->at += k;
    return CUZK_OK;
}

static int hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* \uXXXX at p[at] (the backslash): its code unit, or -1. */
static long u_escape(const fil_jr_t *r, size_t at)
{
    if (r->n - at < 6 || r->p[at] != '\\' || r->p[at + 1] != 'u')
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(r->p[at + 2 + (size_t)i]);
        if (h < 0)
            return -1;
        v = v << 4 | h;
    }
    return v;
}

static void put_byte(uint8_t *dst, size_t cap, size_t *k, uint8_t b)
{
    if (*k < cap)
        dst[*k] = b;
    (*k)++;
}

static void put_utf8(uint8_t *dst, size_t cap, size_t *k, unsigned long cp)
{
    if (cp < 0x80) {
        put_byte(dst, cap, k, (uint8_t)cp);
    } else if (cp < 0x800) {
        put_byte(dst, cap, k, (uint8_t)(0xc0 | cp >> 6));
        put_byte(dst, cap, k, (uint8_t)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        put_byte(dst, cap, k, (uint8_t)(0xe0 | cp >> 12));
        put_byte(dst, cap, k, (uint8_t)(0x80 | (cp >> 6 & 0x3f)));
        put_byte(dst, cap, k, (uint8_t)(0x80 | (cp & 0x3f)));
    } else {
        put_byte(dst, cap, k, (uint8_t)(0xf0 | cp >> 18));
        put_byte(dst, cap, k, (uint8_t)(0x80 | (cp >> 12 & 0x3f)));
        put_byte(dst, cap, k, (uint8_t)(0x80 | (cp >> 6 & 0x3f)));
        put_byte(dst, cap, k, (uint8_t)(0x80 | (cp & 0x3f)));
    }
}

/* The length of the UTF-8 sequence at p[at] (RFC 3629: no overlong forms,
 * no surrogates, at most U+10FFFF), or 0 when it is not one. */
static size_t utf8_len(const uint8_t *p, size_t left)
{
    uint8_t c = p[0];
    size_t k;
    unsigned long cp;
    if (c >= 0xc2 && c <= 0xdf)
        k = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        k = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        k = 4, cp = c & 0x07;
    else
        return 0;
    if (left < k)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return k;
}

/* A JSON string: decoded into dst[0..cap) (the rest only counted), its
 * decoded length in *len. Checks what serde_json checks: escapes, no raw
 * control characters, UTF-8, paired surrogates. */
cuzk_status fil_jr_string(fil_jr_t *r, uint8_t *dst, size_t cap, size_t *len)
{
    cuzk_status st = fil_jr_expect(r, '"', "a string");
    if (st != CUZK_OK)
        return st;
    const size_t start = r->at - 1;
    size_t k = 0;
    for (;;) {
        if (r->at >= r->n)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, start, "unterminated string");
        uint8_t c = r->p[r->at];
        if (c == '"') {
            r->at++;
            break;
        }
        if (c < 0x20)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "control character 0x%02x in a string",
                               (unsigned)c);
        if (c >= 0x80) {
            size_t u = utf8_len(r->p + r->at, r->n - r->at);
            if (!u)
                return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "invalid UTF-8 in a string");
            for (size_t i = 0; i < u; i++)
                put_byte(dst, cap, &k, r->p[r->at + i]);
            r->at += u;
            continue;
        }
        if (c != '\\') {
            put_byte(dst, cap, &k, c);
            r->at++;
            continue;
        }
        if (r->n - r->at < 2)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, start, "unterminated string");
        uint8_t e = r->p[r->at + 1];
        static const char simple_in[] = "\"\\/bfnrt", simple_out[] = "\"\\/\b\f\n\r\t";
        const char *s = e ? strchr(simple_in, e) : NULL;
        if (s) {
            put_byte(dst, cap, &k, (uint8_t)simple_out[s - simple_in]);
            r->at += 2;
            continue;
        }
        long u = u_escape(r, r->at);
        if (u < 0)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "invalid escape in a string");
        size_t esc = 6;
        unsigned long cp = (unsigned long)u;
        if (u >= 0xdc00 && u <= 0xdfff)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "lone trailing surrogate in a string");
        if (u >= 0xd800 && u <= 0xdbff) {
            long lo = u_escape(r, r->at + 6);
            if (lo < 0xdc00 || lo > 0xdfff)
                return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at, "lone leading surrogate in a string");
            cp = 0x10000 + (((unsigned long)u - 0xd800) << 10) + ((unsigned long)lo - 0xdc00);
            esc = 12;
        }
        put_utf8(dst, cap, &k, cp);
        r->at += esc;
    }
    *len = k;
    return CUZK_OK;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* An unsigned integer no larger than max, as serde_json reads a u8, u32 or
 * u64 (`type`): digits only, no leading zero, no sign, fraction or
 * exponent. */
cuzk_status fil_jr_uint(fil_jr_t *r, uint64_t *out, uint64_t max, const char *type)
{
    int c = fil_jr_peek(r);
    const size_t at = r->at;
    if (c == '-')
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "a negative number, expected %s", type);
    if (!is_digit(c))
        return fil_jr_unexpected(r, type);
    uint64_t v = 0;
    int over = 0;
    while (r->at < r->n && is_digit(r->p[r->at])) {
        unsigned d = (unsigned)(r->p[r->at] - '0');
        if (v > (UINT64_MAX - d) / 10)
            over = 1;
        v = v * 10 + d;
        r->at++;
    }
    if (r->p[at] == '0' && r->at - at > 1)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "a number with a leading zero");
    if (r->at < r->n && (r->p[r->at] == '.' || r->p[r->at] == 'e' || r->p[r->at] == 'E'))
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "a floating-point number, expected %s", type);
    if (over || v > max) {
        int k = (int)(r->at - at < 24 ? r->at - at : 24);
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "%.*s%s is out of range for %s", k,
                           (const char *)r->p + at, r->at - at > 24 ? "..." : "", type);
    }
    *out = v;
    return CUZK_OK;
}

cuzk_status fil_jr_null(fil_jr_t *r)
{
    if (fil_jr_peek(r) != 'n')
        return fil_jr_unexpected(r, "null");
    return fil_jr_literal(r, "null");
}

cuzk_status fil_jr_enter(fil_jr_t *r, int open, const char *want)
{
    cuzk_status st = fil_jr_expect(r, open, want);
    if (st == CUZK_OK && ++r->depth > FIL_JR_MAX_DEPTH)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, r->at - 1, "nested more than %u deep",
                           FIL_JR_MAX_DEPTH);
    return st;
}

/* Before element i of an array whose '[' was read: 1 when one follows, 0
 * after the closing ']', -1 on an error (in *st). */
int fil_jr_next(fil_jr_t *r, size_t i, cuzk_status *st)
{
    int c = fil_jr_peek(r);
    if (c == ']') {
        r->at++;
        r->depth--;
        return 0;
    }
    if (i == 0)
        return 1;
    if (c == ',') {
        r->at++;
        return 1;
    }
    *st = fil_jr_unexpected(r, "',' or ']'");
    return -1;
}

/* The number grammar of RFC 8259, for values that are skipped. */
static cuzk_status fil_jr_skip_number(fil_jr_t *r)
{
    const size_t at = r->at;
    if (r->at < r->n && r->p[r->at] == '-')
        r->at++;
    size_t d = r->at;
    while (r->at < r->n && is_digit(r->p[r->at]))
        r->at++;
    if (r->at == d || (r->p[d] == '0' && r->at - d > 1))
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "invalid number");
    if (r->at < r->n && r->p[r->at] == '.') {
        d = ++r->at;
        while (r->at < r->n && is_digit(r->p[r->at]))
            r->at++;
        if (r->at == d)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "invalid number");
    }
    if (r->at < r->n && (r->p[r->at] == 'e' || r->p[r->at] == 'E')) {
        r->at++;
        if (r->at < r->n && (r->p[r->at] == '+' || r->p[r->at] == '-'))
            r->at++;
        d = r->at;
        while (r->at < r->n && is_digit(r->p[r->at]))
            r->at++;
        if (r->at == d)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "invalid number");
    }
    return CUZK_OK;
}

/* Any value (an unknown field's), checked and passed over. */
cuzk_status fil_jr_skip(fil_jr_t *r)
{
    int c = fil_jr_peek(r);
    size_t len;
    cuzk_status st = CUZK_OK;
    switch (c) {
    case '"': return fil_jr_string(r, NULL, 0, &len);
    case 't': return fil_jr_literal(r, "true");
    case 'f': return fil_jr_literal(r, "false");
    case 'n': return fil_jr_literal(r, "null");
    case '[':
        if ((st = fil_jr_enter(r, '[', "'['")) != CUZK_OK)
            return st;
        for (size_t i = 0;; i++) {
            int more = fil_jr_next(r, i, &st);
            if (more <= 0)
                return st;
            if ((st = fil_jr_skip(r)) != CUZK_OK)
                return st;
        }
    case '{':
        if ((st = fil_jr_enter(r, '{', "'{'")) != CUZK_OK)
            return st;
        for (size_t i = 0;; i++) {
            c = fil_jr_peek(r);
            if (c == '}') {
                r->at++;
                r->depth--;
                return CUZK_OK;
            }
            if (i > 0 && (st = fil_jr_expect(r, ',', "',' or '}'")) != CUZK_OK)
                return st;
            if ((st = fil_jr_string(r, NULL, 0, &len)) != CUZK_OK ||
                (st = fil_jr_expect(r, ':', "':'")) != CUZK_OK || (st = fil_jr_skip(r)) != CUZK_OK)
                return st;
        }
    default:
        if (c == '-' || is_digit(c))
            return fil_jr_skip_number(r);
        return fil_jr_unexpected(r, "a value");
    }
}

/* An object of known fields: fn(r, ctx, f) reads field names[f]'s value
 * (the path then ends in it). Any order; unknown fields skipped;
 * duplicates and missing fields refused, as serde's derive does. */
cuzk_status fil_jr_object(fil_jr_t *r, const char *const *names, unsigned n_names,
                          fil_jr_field_fn fn, void *ctx)
{
    CUZK_ASSERT(n_names <= 32);
    cuzk_status st = fil_jr_enter(r, '{', "'{'");
    if (st != CUZK_OK)
        return st;
    uint32_t seen = 0;
    size_t close_at;
    for (size_t i = 0;; i++) {
        int c = fil_jr_peek(r);
        if (c == '}') {
            close_at = r->at++;
            r->depth--;
            break;
        }
        if (i > 0 && (st = fil_jr_expect(r, ',', "',' or '}'")) != CUZK_OK)
            return st;
        if (fil_jr_peek(r) != '"')
            return fil_jr_unexpected(r, "a field name");
        const size_t key_at = r->at;
        uint8_t key[48];
        size_t len;
        if ((st = fil_jr_string(r, key, sizeof key, &len)) != CUZK_OK ||
            (st = fil_jr_expect(r, ':', "':'")) != CUZK_OK)
            return st;
        unsigned f = n_names;
        for (unsigned k = 0; k < n_names && len <= sizeof key; k++)
            if (strlen(names[k]) == len && memcmp(names[k], key, len) == 0)
                f = k;
        if (f == n_names) {
            if ((st = fil_jr_skip(r)) != CUZK_OK)
                return st;
            continue;
        }
        if (seen >> f & 1)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, key_at, "duplicate field `%s`", names[f]);
        seen |= 1u << f;
        size_t old = fil_jr_push_field(r, names[f]);
        if ((st = fn(r, ctx, f)) != CUZK_OK)
            return st;
        fil_jr_pop(r, old);
    }
    for (unsigned f = 0; f < n_names; f++)
        if (!(seen >> f & 1))
            return fil_jr_fail(r, CUZK_ERR_FORMAT, close_at, "missing field `%s`", names[f]);
    return CUZK_OK;
}

/* An externally tagged enum's opening: '{', the variant name (one of
 * names[], else an error), ':'. The path is left alone: the caller names
 * the variant. */
cuzk_status fil_jr_variant(fil_jr_t *r, const char *const *names, unsigned n_names, unsigned *which,
                           size_t *key_at)
{
    cuzk_status st = fil_jr_enter(r, '{', "'{' (an enum variant)");
    if (st != CUZK_OK)
        return st;
    if (fil_jr_peek(r) != '"')
        return fil_jr_unexpected(r, "a variant name");
    *key_at = r->at;
    uint8_t key[48];
    size_t len;
    if ((st = fil_jr_string(r, key, sizeof key - 1, &len)) != CUZK_OK)
        return st;
    for (unsigned k = 0; k < n_names && len < sizeof key; k++)
        if (strlen(names[k]) == len && memcmp(names[k], key, len) == 0) {
            *which = k;
            return fil_jr_expect(r, ':', "':'");
        }
    key[len < sizeof key ? len : sizeof key - 1] = 0;
    for (size_t i = 0; key[i]; i++)
        if (key[i] < 0x20 || key[i] >= 0x7f)
            key[i] = '?';
    return fil_jr_fail(r, CUZK_ERR_FORMAT, *key_at, "unknown variant `%s`", (const char *)key);
}

cuzk_status fil_jr_variant_end(fil_jr_t *r)
{
    cuzk_status st = fil_jr_expect(r, '}', "'}' after the variant's value");
    if (st == CUZK_OK)
        r->depth--;
    return st;
}

/* A [u8; 32]: a JSON array of exactly 32 integers 0..255. */
cuzk_status fil_jr_bytes32(fil_jr_t *r, uint8_t out[32])
{
    const size_t at = r->at;
    cuzk_status st = fil_jr_enter(r, '[', "'[' (32 bytes)");
    if (st != CUZK_OK)
        return st;
    size_t i = 0;
    for (;; i++) {
        int more = fil_jr_next(r, i, &st);
        if (more < 0)
            return st;
        if (!more)
            break;
        if (i == 32)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "more than 32 bytes");
        uint64_t v;
        if ((st = fil_jr_uint(r, &v, 255, "u8")) != CUZK_OK)
            return st;
        out[i] = (uint8_t)v;
    }
    if (i != 32)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "%zu bytes, 32 expected", i);
    return CUZK_OK;
}

/* A domain: 32 bytes that must be a canonical field element. */
cuzk_status fil_jr_domain(fil_jr_t *r, fr_t *out)
{
    uint8_t b[32];
    fil_jr_peek(r);
    const size_t at = r->at;
    cuzk_status st = fil_jr_bytes32(r, b);
    if (st != CUZK_OK)
        return st;
    if (fr_from_le(out, b) != CUZK_OK)
        return fil_jr_fail(r, CUZK_ERR_NONCANONICAL, at, "not a canonical field element");
    return CUZK_OK;
}

/* An array of exactly `want` elements, element i read by fn(r, ctx, i)
 * with "[i]" on the path. */
cuzk_status fil_jr_array(fil_jr_t *r, size_t want, const char *noun, fil_jr_elem_fn fn, void *ctx)
{
    fil_jr_peek(r);
    const size_t at = r->at;
    cuzk_status st = fil_jr_enter(r, '[', "'['");
    if (st != CUZK_OK)
        return st;
    size_t i = 0;
    for (;; i++) {
        int more = fil_jr_next(r, i, &st);
        if (more < 0)
            return st;
        if (!more)
            break;
        if (i == want)
            return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "more than %zu %s", want, noun);
        size_t old = fil_jr_push(r, "[%zu]", i);
        if ((st = fn(r, ctx, i)) != CUZK_OK)
            return st;
        fil_jr_pop(r, old);
    }
    if (i != want)
        return fil_jr_fail(r, CUZK_ERR_FORMAT, at, "%zu %s, %zu expected", i, noun, want);
    return CUZK_OK;
}
