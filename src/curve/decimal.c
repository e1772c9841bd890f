/* Decimal strings for field elements and snarkjs JSON coordinates
 * (see include/cuzk/decimal.h). */
#include "cuzk/decimal.h"

#include <string.h>

typedef unsigned __int128 u128;

#define DEC_CHUNK 10000000000000000000ULL /* 10^19 */

/* Writes the decimal form of n limbs (destroyed) into out; returns length. */
static size_t limbs_to_dec(char *out, uint64_t *l, int n)
{
    char rev[160];
    size_t len = 0;
    for (;;) {
        /* l /= 10^19, rem = l mod 10^19 */
        u128 rem = 0;
        int nonzero = 0;
        for (int i = n - 1; i >= 0; i--) {
            u128 cur = (rem << 64) | l[i];
            l[i] = (uint64_t)(cur / DEC_CHUNK);
            rem = cur % DEC_CHUNK;
            nonzero |= l[i] != 0;
        }
        uint64_t r = (uint64_t)rem;
        for (int d = 0; d < 19; d++) {
            rev[len++] = (char)('0' + r % 10);
            r /= 10;
            if (!nonzero && r == 0)
                break;
        }
        if (!nonzero)
            break;
    }
    for (size_t i = 0; i < len; i++)
        out[i] = rev[len - 1 - i];
    out[len] = '\0';
    return len;
}

size_t fp_to_dec(char out[FP_DEC_MAX], const fp_t *a)
{
    uint64_t l[FP_LIMBS];
    fp_to_limbs(l, a);
    return limbs_to_dec(out, l, FP_LIMBS);
}

size_t fr_to_dec(char out[FR_DEC_MAX], const fr_t *a)
{
    uint64_t l[FR_LIMBS];
    fr_to_limbs(l, a);
    return limbs_to_dec(out, l, FR_LIMBS);
}

/* Parses digits into n limbs; CUZK_ERR_NONCANONICAL when the value needs
 * more than n limbs, CUZK_ERR_PARSE on a non-digit or empty string. */
static cuzk_status dec_to_limbs(uint64_t *l, int n, const char *s, size_t len, cuzk_error_t *err)
{
    if (len == 0)
        return cuzk_error_set(err, CUZK_ERR_PARSE, "empty decimal number");
    memset(l, 0, (size_t)n * sizeof *l);
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return cuzk_error_set(err, CUZK_ERR_PARSE,
                                  "decimal number has a non-digit at offset %zu", i);
        u128 carry = (u128)(s[i] - '0');
        for (int k = 0; k < n; k++) {
            u128 t = (u128)l[k] * 10 + carry;
            l[k] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "decimal number is too large");
    }
    return CUZK_OK;
}

cuzk_status fp_from_dec(fp_t *out, const char *s, size_t len, cuzk_error_t *err)
{
    uint64_t l[FP_LIMBS];
    cuzk_status st = dec_to_limbs(l, FP_LIMBS, s, len, err);
    if (st != CUZK_OK)
        return st;
    if (fp_from_limbs(out, l) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "decimal number is not below p");
    return CUZK_OK;
}

cuzk_status fr_from_dec(fr_t *out, const char *s, size_t len, cuzk_error_t *err)
{
    uint64_t l[FR_LIMBS];
    cuzk_status st = dec_to_limbs(l, FR_LIMBS, s, len, err);
    if (st != CUZK_OK)
        return st;
    if (fr_from_limbs(out, l) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "decimal number is not below r");
    return CUZK_OK;
}

static void set_dec(char *out, const char *s)
{
    strcpy(out, s);
}

void g1_to_dec(char out[3][FP_DEC_MAX], const g1_affine_t *a)
{
    if (g1_affine_is_inf(a)) {
        set_dec(out[0], "0");
        set_dec(out[1], "1");
        set_dec(out[2], "0");
        return;
    }
    fp_to_dec(out[0], &a->x);
    fp_to_dec(out[1], &a->y);
    set_dec(out[2], "1");
}

void g2_to_dec(char out[3][2][FP_DEC_MAX], const g2_affine_t *a)
{
    if (g2_affine_is_inf(a)) {
        set_dec(out[0][0], "0");
        set_dec(out[0][1], "0");
        set_dec(out[1][0], "1");
        set_dec(out[1][1], "0");
        set_dec(out[2][0], "0");
        set_dec(out[2][1], "0");
        return;
    }
    fp_to_dec(out[0][0], &a->x.c0);
    fp_to_dec(out[0][1], &a->x.c1);
    fp_to_dec(out[1][0], &a->y.c0);
    fp_to_dec(out[1][1], &a->y.c1);
    set_dec(out[2][0], "1");
    set_dec(out[2][1], "0");
}

static cuzk_status fp_from_cstr(fp_t *out, const char *s, cuzk_error_t *err)
{
    return fp_from_dec(out, s, strlen(s), err);
}

cuzk_status g1_from_dec(g1_affine_t *out, const char *const in[3], point_check chk,
                        cuzk_error_t *err)
{
    g1_affine_t p;
    fp_t z;
    cuzk_status st;
    if ((st = fp_from_cstr(&p.x, in[0], err)) != CUZK_OK ||
        (st = fp_from_cstr(&p.y, in[1], err)) != CUZK_OK ||
        (st = fp_from_cstr(&z, in[2], err)) != CUZK_OK)
        return st;
    if (fp_is_zero(&z)) {
        if (!fp_is_zero(&p.x) || !fp_is_one(&p.y))
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "G1 JSON: z = 0 but not [0, 1, 0]");
        g1_affine_set_inf(out);
        return CUZK_OK;
    }
    if (!fp_is_one(&z))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "G1 JSON: z must be 1 (affine) or 0");
    if (!g1_affine_is_on_curve(&p) || g1_affine_is_inf(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "G1 JSON: point is not on the curve");
    if (chk == POINT_CHECK_SUBGROUP && !g1_affine_in_subgroup(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP,
                              "G1 JSON: point is not in the subgroup");
    *out = p;
    return CUZK_OK;
}

cuzk_status g2_from_dec(g2_affine_t *out, const char *const in[3][2], point_check chk,
                        cuzk_error_t *err)
{
    g2_affine_t p;
    fp2_t z;
    cuzk_status st;
    if ((st = fp_from_cstr(&p.x.c0, in[0][0], err)) != CUZK_OK ||
        (st = fp_from_cstr(&p.x.c1, in[0][1], err)) != CUZK_OK ||
        (st = fp_from_cstr(&p.y.c0, in[1][0], err)) != CUZK_OK ||
        (st = fp_from_cstr(&p.y.c1, in[1][1], err)) != CUZK_OK ||
        (st = fp_from_cstr(&z.c0, in[2][0], err)) != CUZK_OK ||
        (st = fp_from_cstr(&z.c1, in[2][1], err)) != CUZK_OK)
        return st;
    if (fp2_is_zero(&z)) {
        if (!fp2_is_zero(&p.x) || !fp2_is_one(&p.y))
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "G2 JSON: z = 0 but not [[0,0], [1,0], [0,0]]");
        g2_affine_set_inf(out);
        return CUZK_OK;
    }
    if (!fp2_is_one(&z))
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "G2 JSON: z must be [1, 0] (affine) or 0");
    if (!g2_affine_is_on_curve(&p) || g2_affine_is_inf(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE, "G2 JSON: point is not on the curve");
    if (chk == POINT_CHECK_SUBGROUP && !g2_affine_in_subgroup(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP,
                              "G2 JSON: point is not in the subgroup");
    *out = p;
    return CUZK_OK;
}
