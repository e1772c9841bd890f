/* snarkjs Groth16 .zkey reader (see include/cuzk/zkey.h). */
#include "cuzk/zkey.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/encode.h"
#include "cuzk/parallel.h"
#include "formats/binfile.h"

#define ZKEY_VERSION 1
#define ZKEY_PROTOCOL_GROTH16 1
#define ZKEY_HEADER_BYTES                                                                          \
    (4 + FP_BYTES + 4 + FR_BYTES + 3 * 4 + 3 * G1_LEM_BYTES + 3 * G2_LEM_BYTES)

enum {
    SEC_PROTOCOL = 1,
    SEC_HEADER = 2,
    SEC_IC = 3,
    SEC_COEFS = 4,
    SEC_A = 5,
    SEC_B1 = 6,
    SEC_B2 = 7,
    SEC_C = 8,
    SEC_H = 9
};

_Static_assert(ZKEY_HEADER_BYTES == 964, "zkey header size");

void zkey_close(zkey_t *z)
{
    if (!z)
        return;
    if (z->file) {
        binfile_close(z->file);
        free(z->file);
    }
    free(z->ic);
    memset(z, 0, sizeof *z);
}

static const char *protocol_name(uint32_t p)
{
    switch (p) {
    case 2: return "PLONK";
    case 10: return "FFLONK";
    default: return "unknown";
    }
}

static cuzk_status check_protocol(const binfile_t *bf, cuzk_error_t *err)
{
    const uint8_t *s;
    uint64_t size;
    cuzk_status st =
        binfile_section(bf, SEC_PROTOCOL, "protocol", BINFILE_REQUIRED, &s, &size, err);
    if (st != CUZK_OK)
        return st;
    if (size != 4)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: protocol section is %llu bytes, expected 4", bf->name,
                              (unsigned long long)size);
    uint32_t p = binfile_u32(s);
    if (p != ZKEY_PROTOCOL_GROTH16)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: protocol %u (%s), only Groth16 (1) is supported", bf->name, p,
                              protocol_name(p));
    return CUZK_OK;
}

/* A header or IC point: curve and subgroup, message naming it. */
static cuzk_status g1_field(g1_affine_t *out, const uint8_t *p, const binfile_t *bf,
                            const char *what, cuzk_error_t *err)
{
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = g1_from_lem(out, p, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "%s: %s: %s", bf->name, what, e.msg);
    return CUZK_OK;
}

static cuzk_status g2_field(g2_affine_t *out, const uint8_t *p, const binfile_t *bf,
                            const char *what, cuzk_error_t *err)
{
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = g2_from_lem(out, p, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "%s: %s: %s", bf->name, what, e.msg);
    return CUZK_OK;
}

static cuzk_status check_prime(const binfile_t *bf, const uint8_t *h, uint64_t size, uint32_t n8,
                               uint32_t want_n8, const uint64_t *mod, const char *which,
                               cuzk_error_t *err)
{
    if (n8 != want_n8) {
        const char *known = size >= 4 + (uint64_t)n8 ? binfile_prime_name(h + 4, n8) : NULL;
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: %s field size is %u bytes (prime: %s), BLS12-381 needs %u",
                              bf->name, which, n8, known ? known : "unknown", want_n8);
    }
    if (size < 4 + (uint64_t)n8)
        return CUZK_OK; /* the size check that follows reports it */
    if (!binfile_is_modulus(h + 4, mod, n8 / 8)) {
        const char *known = binfile_prime_name(h + 4, n8);
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: %s prime is %s, not BLS12-381's",
                              bf->name, which, known ? known : "not a known one");
    }
    return CUZK_OK;
}

static cuzk_status parse_header(zkey_t *z, const binfile_t *bf, cuzk_error_t *err)
{
    const uint8_t *h;
    uint64_t size;
    cuzk_status st =
        binfile_section(bf, SEC_HEADER, "Groth16 header", BINFILE_REQUIRED, &h, &size, err);
    if (st != CUZK_OK)
        return st;
    if (size < 4)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: header section is %llu bytes, too short",
                              bf->name, (unsigned long long)size);
    if ((st = check_prime(bf, h, size, binfile_u32(h), FP_BYTES, FP_MODULUS, "base (q)", err)))
        return st;
    if (size >= 4 + FP_BYTES + 4) {
        const uint8_t *r = h + 4 + FP_BYTES;
        if ((st = check_prime(bf, r, size - 4 - FP_BYTES, binfile_u32(r), FR_BYTES, FR_MODULUS,
                              "scalar (r)", err)))
            return st;
    }
    if (size != ZKEY_HEADER_BYTES)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: header section is %llu bytes, expected %d",
                              bf->name, (unsigned long long)size, ZKEY_HEADER_BYTES);
    const uint8_t *p = h + 4 + FP_BYTES + 4 + FR_BYTES;
    z->n_vars = binfile_u32(p);
    z->n_public = binfile_u32(p + 4);
    z->domain_size = binfile_u32(p + 8);
    p += 12;
    if ((uint64_t)z->n_public + 1 > z->n_vars)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: nPublic = %u needs nVars > nPublic, got %u", bf->name,
                              z->n_public, z->n_vars);
    uint32_t d = z->domain_size;
    if (d < 2 || (d & (d - 1)) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: domainSize = %u is not a power of two >= 2", bf->name, d);
    z->log_domain = 0;
    while ((1u << z->log_domain) < d)
        z->log_domain++;
    if ((st = g1_field(&z->alpha_g1, p, bf, "alpha_1", err)) ||
        (st = g1_field(&z->beta_g1, p + G1_LEM_BYTES, bf, "beta_1", err)) ||
        (st = g2_field(&z->beta_g2, p + 2 * G1_LEM_BYTES, bf, "beta_2", err)) ||
        (st = g2_field(&z->gamma_g2, p + 2 * G1_LEM_BYTES + G2_LEM_BYTES, bf, "gamma_2", err)) ||
        (st =
             g1_field(&z->delta_g1, p + 2 * G1_LEM_BYTES + 2 * G2_LEM_BYTES, bf, "delta_1", err)) ||
        (st = g2_field(&z->delta_g2, p + 3 * G1_LEM_BYTES + 2 * G2_LEM_BYTES, bf, "delta_2", err)))
        return st;
    return CUZK_OK;
}

/* A section whose size is fixed by the header: found, and exactly sized. */
static cuzk_status fixed_section(const uint8_t **body, const binfile_t *bf, uint32_t id,
                                 const char *what, uint64_t count, uint64_t elem, cuzk_error_t *err)
{
    uint64_t size;
    cuzk_status st = binfile_section(bf, id, what, BINFILE_REQUIRED, body, &size, err);
    if (st != CUZK_OK)
        return st;
    if (size != count * elem)
        return cuzk_error_set(
            err, CUZK_ERR_FORMAT, "%s: section %u (%s) is %llu bytes, expected %llu (%llu x %llu)",
            bf->name, id, what, (unsigned long long)size, (unsigned long long)(count * elem),
            (unsigned long long)count, (unsigned long long)elem);
    return CUZK_OK;
}

static cuzk_status parse_ic(zkey_t *z, const binfile_t *bf, cuzk_error_t *err)
{
    const uint8_t *s;
    size_t n = (size_t)z->n_public + 1;
    cuzk_status st = fixed_section(&s, bf, SEC_IC, "IC", n, G1_LEM_BYTES, err);
    if (st != CUZK_OK)
        return st;
    z->ic = malloc(n * sizeof *z->ic);
    if (!z->ic)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %zu IC points", bf->name, n);
    z->n_ic = n;
    for (size_t i = 0; i < n; i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i);
        if ((st = g1_field(&z->ic[i], s + i * G1_LEM_BYTES, bf, what, err)) != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static int coef_value_canonical(const uint8_t *v)
{
    for (int i = FR_LIMBS - 1; i >= 0; i--) {
        uint64_t l = binfile_u64(v + 8 * i);
        if (l != FR_MODULUS[i])
            return l < FR_MODULUS[i];
    }
    return 0; /* equal to r */
}

/* 0 when record i is valid, else a reason code 1..4. */
static int coef_bad(const zkey_t *z, uint64_t i)
{
    const uint8_t *p = z->coefs + i * ZKEY_COEF_BYTES;
    if (binfile_u32(p) > ZKEY_B)
        return 1;
    if (binfile_u32(p + 4) >= z->domain_size)
        return 2;
    if (binfile_u32(p + 8) >= z->n_vars)
        return 3;
    if (!coef_value_canonical(p + 12))
        return 4;
    return 0;
}

typedef struct scan_ctx {
    const zkey_t *z;
    const zkey_points_t *pts; /* point scans */
    int g2;
    _Atomic int64_t first_bad; /* INT64_MAX: none */
} scan_ctx_t;

static void note_bad(scan_ctx_t *c, int64_t i)
{
    int64_t cur = atomic_load(&c->first_bad);
    while (i < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, i))
        ;
}

static void scan_coefs(void *vctx, size_t begin, size_t end)
{
    scan_ctx_t *c = vctx;
    for (size_t i = begin; i < end; i++) {
        if (coef_bad(c->z, i)) {
            note_bad(c, (int64_t)i);
            return;
        }
    }
}

static cuzk_status parse_coefs(zkey_t *z, const binfile_t *bf, int threads, cuzk_error_t *err)
{
    const uint8_t *s;
    uint64_t size;
    cuzk_status st =
        binfile_section(bf, SEC_COEFS, "coefficients", BINFILE_REQUIRED, &s, &size, err);
    if (st != CUZK_OK)
        return st;
    if (size < 4)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: coefficients section is %llu bytes, too short", bf->name,
                              (unsigned long long)size);
    uint64_t n = binfile_u32(s);
    if (size - 4 != n * ZKEY_COEF_BYTES)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: coefficients section is %llu bytes, expected %llu for %llu "
                              "records",
                              bf->name, (unsigned long long)size,
                              (unsigned long long)(4 + n * ZKEY_COEF_BYTES), (unsigned long long)n);
    z->coefs = s + 4;
    z->n_coefs = n;
    scan_ctx_t c = {z, NULL, 0, INT64_MAX};
    if (parallel_for(n, 1 << 16, threads, scan_coefs, &c) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for threads", bf->name);
    int64_t bad = atomic_load(&c.first_bad);
    if (bad == INT64_MAX)
        return CUZK_OK;
    const uint8_t *p = z->coefs + (uint64_t)bad * ZKEY_COEF_BYTES;
    switch (coef_bad(z, (uint64_t)bad)) {
    case 1:
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: coefficient record %lld: matrix %u, expected 0 (A) or 1 (B)",
                              bf->name, (long long)bad, binfile_u32(p));
    case 2:
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: coefficient record %lld: row %u is not below domainSize = %u",
                              bf->name, (long long)bad, binfile_u32(p + 4), z->domain_size);
    case 3:
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: coefficient record %lld: wire %u is not below nVars = %u",
                              bf->name, (long long)bad, binfile_u32(p + 8), z->n_vars);
    default:
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "%s: coefficient record %lld: value is not below r", bf->name,
                              (long long)bad);
    }
}

static cuzk_status parse_points(zkey_t *z, const binfile_t *bf, cuzk_error_t *err)
{
    const struct {
        zkey_points_t *pts;
        uint32_t id;
        const char *what;
        uint64_t count, elem;
    } secs[5] = {
        {&z->a, SEC_A, "A", z->n_vars, G1_LEM_BYTES},
        {&z->b1, SEC_B1, "B1", z->n_vars, G1_LEM_BYTES},
        {&z->b2, SEC_B2, "B2", z->n_vars, G2_LEM_BYTES},
        {&z->c, SEC_C, "C", (uint64_t)z->n_vars - z->n_public - 1, G1_LEM_BYTES},
        {&z->h, SEC_H, "H", z->domain_size, G1_LEM_BYTES},
    };
    for (int i = 0; i < 5; i++) {
        cuzk_status st = fixed_section(&secs[i].pts->data, bf, secs[i].id, secs[i].what,
                                       secs[i].count, secs[i].elem, err);
        if (st != CUZK_OK)
            return st;
        secs[i].pts->count = secs[i].count;
    }
    return CUZK_OK;
}

static void scan_points(void *vctx, size_t begin, size_t end)
{
    scan_ctx_t *c = vctx;
    size_t elem = c->g2 ? G2_LEM_BYTES : G1_LEM_BYTES;
    for (size_t i = begin; i < end; i++) {
        if ((int64_t)i >= atomic_load_explicit(&c->first_bad, memory_order_relaxed))
            return;
        const uint8_t *p = c->pts->data + i * elem;
        cuzk_status st;
        if (c->g2) {
            g2_affine_t q;
            st = g2_from_lem(&q, p, POINT_CHECK_SUBGROUP, NULL);
        } else {
            g1_affine_t q;
            st = g1_from_lem(&q, p, POINT_CHECK_SUBGROUP, NULL);
        }
        if (st != CUZK_OK) {
            note_bad(c, (int64_t)i);
            return;
        }
    }
}

cuzk_status zkey_check_points(const zkey_t *z, int threads, cuzk_error_t *err)
{
    if (!z || !z->file)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_check_points: key not open");
    const struct {
        const zkey_points_t *pts;
        uint32_t id;
        const char *what;
        int g2;
    } secs[5] = {{&z->a, SEC_A, "A", 0},
                 {&z->b1, SEC_B1, "B1", 0},
                 {&z->b2, SEC_B2, "B2", 1},
                 {&z->c, SEC_C, "C", 0},
                 {&z->h, SEC_H, "H", 0}};
    for (int s = 0; s < 5; s++) {
        scan_ctx_t c = {z, secs[s].pts, secs[s].g2, INT64_MAX};
        if (parallel_for(secs[s].pts->count, 256, threads, scan_points, &c) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for threads", z->file->name);
        int64_t bad = atomic_load(&c.first_bad);
        if (bad == INT64_MAX)
            continue;
        cuzk_error_t e = {CUZK_OK, ""};
        cuzk_status st;
        if (secs[s].g2) {
            g2_affine_t q;
            st = g2_from_lem(&q, secs[s].pts->data + (uint64_t)bad * G2_LEM_BYTES,
                             POINT_CHECK_SUBGROUP, &e);
        } else {
            g1_affine_t q;
            st = g1_from_lem(&q, secs[s].pts->data + (uint64_t)bad * G1_LEM_BYTES,
                             POINT_CHECK_SUBGROUP, &e);
        }
        if (st == CUZK_OK) /* cannot happen: the scan saw it fail */
            st = cuzk_error_set(&e, CUZK_ERR_INTERNAL, "point decoded on the second try");
        return cuzk_error_set(err, st, "%s: section %u (%s), point %lld: %s", z->file->name,
                              secs[s].id, secs[s].what, (long long)bad, e.msg);
    }
    return CUZK_OK;
}

static cuzk_status parse(zkey_t *z, zkey_check check, int threads, cuzk_error_t *err)
{
    const binfile_t *bf = z->file;
    cuzk_status st;
    if (bf->version != ZKEY_VERSION)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: zkey version %u, expected %d",
                              bf->name, bf->version, ZKEY_VERSION);
    if ((st = check_protocol(bf, err)) || (st = parse_header(z, bf, err)) ||
        (st = parse_ic(z, bf, err)) || (st = parse_points(z, bf, err)) ||
        (st = parse_coefs(z, bf, threads, err)))
        return st;
    if (check == ZKEY_CHECK_ALL)
        return zkey_check_points(z, threads, err);
    return CUZK_OK;
}

static cuzk_status open_common(zkey_t *z, zkey_check check, int threads, cuzk_status st,
                               cuzk_error_t *err)
{
    if (st == CUZK_OK) {
        if (check != ZKEY_CHECK_HEADER && check != ZKEY_CHECK_ALL)
            st = cuzk_error_set(err, CUZK_ERR_ARG, "%s: unknown check level %d", z->file->name,
                                (int)check);
        else
            st = parse(z, check, threads, err);
    }
    if (st != CUZK_OK)
        zkey_close(z);
    return st;
}

cuzk_status zkey_open(zkey_t *z, const char *path, zkey_check check, int threads, cuzk_error_t *err)
{
    if (!z)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_open: NULL handle");
    memset(z, 0, sizeof *z);
    z->file = calloc(1, sizeof *z->file);
    if (!z->file)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey_open: no memory");
    return open_common(z, check, threads, binfile_open(z->file, path, "zkey", err), err);
}

cuzk_status zkey_open_mem(zkey_t *z, const uint8_t *data, size_t size, const char *name,
                          zkey_check check, int threads, cuzk_error_t *err)
{
    if (!z)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_open_mem: NULL handle");
    memset(z, 0, sizeof *z);
    z->file = calloc(1, sizeof *z->file);
    if (!z->file)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "zkey_open_mem: no memory");
    return open_common(z, check, threads, binfile_open_mem(z->file, data, size, name, "zkey", err),
                       err);
}

cuzk_status zkey_coefs_get(zkey_coef_t *out, const zkey_t *z, uint64_t start, uint64_t count)
{
    if (!z || (!out && count) || start > z->n_coefs || count > z->n_coefs - start)
        return CUZK_ERR_ARG;
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *p = z->coefs + (start + i) * ZKEY_COEF_BYTES;
        fr_t s;
        out[i].matrix = binfile_u32(p);
        out[i].row = binfile_u32(p + 4);
        out[i].wire = binfile_u32(p + 8);
        /* Stored: s = v R^2 mod r. Read as Montgomery limbs, s stands for
         * v R; one reduction (fr_to_limbs: s R^-1) gives v R, which is v's
         * Montgomery form. */
        for (int l = 0; l < FR_LIMBS; l++)
            s.l[l] = binfile_u64(p + 12 + 8 * l);
        fr_to_limbs(out[i].value.l, &s);
    }
    return CUZK_OK;
}

cuzk_status zkey_to_vk(groth16_vk_t *out, const zkey_t *z, cuzk_error_t *err)
{
    if (!out || !z || !z->file)
        return cuzk_error_set(err, CUZK_ERR_ARG, "zkey_to_vk: NULL argument or key not open");
    memset(out, 0, sizeof *out);
    out->ic = malloc(z->n_ic * sizeof *out->ic);
    if (!out->ic)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %zu IC points", z->file->name,
                              z->n_ic);
    memcpy(out->ic, z->ic, z->n_ic * sizeof *out->ic);
    out->n_ic = z->n_ic;
    out->alpha_g1 = z->alpha_g1;
    out->beta_g1 = z->beta_g1;
    out->beta_g2 = z->beta_g2;
    out->gamma_g2 = z->gamma_g2;
    out->delta_g1 = z->delta_g1;
    out->delta_g2 = z->delta_g2;
    return CUZK_OK;
}
