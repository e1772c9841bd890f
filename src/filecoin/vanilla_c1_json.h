/* Internal to the Filecoin layer: a streaming JSON reader with serde_json's
 * rules, for the C1 output (filecoin_c1.h). It reads straight from the
 * bytes into the caller's structures; no tree is built.
 *
 * serde_json's rules as the C1's types see them: whitespace between
 * tokens; strings with escapes (\uXXXX with paired surrogates), no raw
 * control characters, valid UTF-8; integers for u8/u32/u64/usize as
 * digits only (no sign, fraction, exponent or leading zero) within range;
 * a struct is an object whose fields come in any order, unknown ones
 * skipped (their JSON still checked), a duplicate or missing one an error;
 * an externally tagged enum is {"Variant": value}; nesting at most
 * FIL_JR_MAX_DEPTH deep.
 *
 * Messages: "<what>: <path> at offset <n>: <problem>", the path the JSON
 * path of the value being read ("vanilla_proofs[3][7].comm_d_proofs.data.
 * Single.root"), the offset that of the first byte at fault. Every
 * function returns CUZK_OK or the error it recorded (CUZK_ERR_FORMAT;
 * CUZK_ERR_NONCANONICAL for a domain >= r) and may leave the position
 * anywhere on an error: the parse is then over. */
#ifndef CUZK_FILECOIN_VANILLA_C1_JSON_H
#define CUZK_FILECOIN_VANILLA_C1_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

/* serde_json's default recursion limit. */
#define FIL_JR_MAX_DEPTH 128u

typedef struct fil_jr {
    const uint8_t *p;
    size_t n, at;
    unsigned depth;
    const char *what; /* first in every message */
    char path[192];   /* the JSON path of the value being read */
    size_t plen;
    cuzk_error_t *err;
} fil_jr_t;

void fil_jr_init(fil_jr_t *r, const uint8_t *p, size_t n, const char *what, cuzk_error_t *err);

/* Records code with the message above for offset `at`. */
cuzk_status fil_jr_fail(const fil_jr_t *r, cuzk_status code, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends to the path (printf-style); returns the length fil_jr_pop
 * restores. fil_jr_push_field appends ".name" (or "name" at the top). */
size_t fil_jr_push(fil_jr_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t fil_jr_push_field(fil_jr_t *r, const char *name);
void fil_jr_pop(fil_jr_t *r, size_t len);

/* The next byte after whitespace (the position moves past the
 * whitespace), or -1 at the end of the input. */
int fil_jr_peek(fil_jr_t *r);
/* "expected <want>, found <the next byte>". */
cuzk_status fil_jr_unexpected(fil_jr_t *r, const char *want);
/* The byte c (after whitespace), else fil_jr_unexpected(want). */
cuzk_status fil_jr_expect(fil_jr_t *r, int c, const char *want);
/* '[' or '{' (open), one level deeper. */
cuzk_status fil_jr_enter(fil_jr_t *r, int open, const char *want);

/* A string, decoded into dst[0..cap) (the rest only counted; dst may be
 * NULL with cap 0); its decoded length in *len. */
cuzk_status fil_jr_string(fil_jr_t *r, uint8_t *dst, size_t cap, size_t *len);
/* An unsigned integer <= max; `type` names it in messages ("u32"). */
cuzk_status fil_jr_uint(fil_jr_t *r, uint64_t *out, uint64_t max, const char *type);
/* null (a unit, PhantomData). */
cuzk_status fil_jr_null(fil_jr_t *r);
/* Any value, checked and passed over. */
cuzk_status fil_jr_skip(fil_jr_t *r);

/* Walks an array whose '[' fil_jr_enter read: before element i, 1 when
 * one follows, 0 after the closing ']', -1 on an error (in *st). */
int fil_jr_next(fil_jr_t *r, size_t i, cuzk_status *st);

/* An array of exactly `want` elements (`noun` names them in messages),
 * element i read by fn(r, ctx, i) with "[i]" on the path. */
typedef cuzk_status (*fil_jr_elem_fn)(fil_jr_t *r, void *ctx, size_t i);
cuzk_status fil_jr_array(fil_jr_t *r, size_t want, const char *noun, fil_jr_elem_fn fn, void *ctx);

/* A struct of the fields names[0..n_names) (n_names <= 32): fn(r, ctx, f)
 * reads field f's value with ".names[f]" on the path. */
typedef cuzk_status (*fil_jr_field_fn)(fil_jr_t *r, void *ctx, unsigned f);
cuzk_status fil_jr_object(fil_jr_t *r, const char *const *names, unsigned n_names,
                          fil_jr_field_fn fn, void *ctx);

/* An externally tagged enum: fil_jr_variant reads '{', the variant's name
 * (one of names[0..n_names), its index in *which, its offset in *key_at)
 * and ':'; the caller reads the value, then fil_jr_variant_end the '}'. */
cuzk_status fil_jr_variant(fil_jr_t *r, const char *const *names, unsigned n_names, unsigned *which,
                           size_t *key_at);
cuzk_status fil_jr_variant_end(fil_jr_t *r);

/* [u8; 32]: an array of exactly 32 integers 0..255. */
cuzk_status fil_jr_bytes32(fil_jr_t *r, uint8_t out[32]);
/* A domain: [u8; 32] holding a canonical field element's LE bytes. */
cuzk_status fil_jr_domain(fil_jr_t *r, fr_t *out);

#endif
