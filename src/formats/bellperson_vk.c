/* bellperson .vk verifying keys (see include/cuzk/bellperson.h). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/encode.h"

#include "bellperson_internal.h"

#define G1U G1_UNCOMPRESSED_BYTES
#define G2U G2_UNCOMPRESSED_BYTES

size_t bellperson_vk_bytes(size_t n_ic)
{
    if (n_ic > (SIZE_MAX - BELLPERSON_VK_FIXED_BYTES) / G1U)
        return SIZE_MAX;
    return BELLPERSON_VK_FIXED_BYTES + n_ic * G1U;
}

/* Decodes a fixed vk point, prefixing the decoder's message with its name. */
static cuzk_status vk_g1(g1_affine_t *out, const uint8_t *in, const char *name, cuzk_error_t *err)
{
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = g1_deserialize(out, in, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "vk %s: %s", name, e.msg);
    return CUZK_OK;
}

static cuzk_status vk_g2(g2_affine_t *out, const uint8_t *in, const char *name, cuzk_error_t *err)
{
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = g2_deserialize(out, in, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "vk %s: %s", name, e.msg);
    return CUZK_OK;
}

static cuzk_status vk_fixed_parse(groth16_vk_t *vk, const uint8_t *b, cuzk_error_t *err)
{
    cuzk_status st;
    if ((st = vk_g1(&vk->alpha_g1, b, "alpha_g1", err)) != CUZK_OK ||
        (st = vk_g1(&vk->beta_g1, b + G1U, "beta_g1", err)) != CUZK_OK ||
        (st = vk_g2(&vk->beta_g2, b + 2 * G1U, "beta_g2", err)) != CUZK_OK ||
        (st = vk_g2(&vk->gamma_g2, b + 2 * G1U + G2U, "gamma_g2", err)) != CUZK_OK ||
        (st = vk_g1(&vk->delta_g1, b + 2 * G1U + 2 * G2U, "delta_g1", err)) != CUZK_OK ||
        (st = vk_g2(&vk->delta_g2, b + 3 * G1U + 2 * G2U, "delta_g2", err)) != CUZK_OK)
        return st;
    return CUZK_OK;
}

static uint32_t be32_read(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void be32_write(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Decodes the IC vector (in parallel when long) and names the first bad
 * point. */
static cuzk_status vk_ic_parse(g1_affine_t *ic, const uint8_t *b, uint32_t n_ic, cuzk_error_t *err)
{
    uint64_t bad;
    if (bellperson_points_scan(&bad, ic, b, n_ic, 0, 0, 0) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "vk: no memory to decode %u IC points", n_ic);
    if (bad == n_ic)
        return CUZK_OK;
    cuzk_error_t e = {CUZK_OK, ""};
    g1_affine_t p;
    cuzk_status st = g1_deserialize(&p, b + bad * G1U, POINT_CHECK_SUBGROUP, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "vk IC[%llu]: %s", (unsigned long long)bad, e.msg);
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "vk IC[%llu]: point at infinity",
                          (unsigned long long)bad);
}

cuzk_status bellperson_vk_parse(groth16_vk_t *vk, size_t *used, const uint8_t *buf, size_t len,
                                cuzk_error_t *err)
{
    if (!vk || (!buf && len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_vk_parse: NULL argument");
    memset(vk, 0, sizeof *vk);
    if (len < BELLPERSON_VK_FIXED_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "vk: %zu bytes, shorter than its %d-byte fixed part", len,
                              BELLPERSON_VK_FIXED_BYTES);
    groth16_vk_t k;
    memset(&k, 0, sizeof k);
    cuzk_status st = vk_fixed_parse(&k, buf, err);
    if (st != CUZK_OK)
        return st;
    uint32_t n_ic = be32_read(buf + BELLPERSON_VK_FIXED_BYTES - 4);
    if (n_ic == 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "vk: n_ic is 0 (IC[0] is required)");
    uint64_t need = (uint64_t)n_ic * G1U;
    if (need > len - BELLPERSON_VK_FIXED_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "vk: n_ic = %u needs %llu bytes of IC points, %zu present", n_ic,
                              (unsigned long long)need, len - BELLPERSON_VK_FIXED_BYTES);
    size_t total = BELLPERSON_VK_FIXED_BYTES + (size_t)need;
    if (!used && total != len)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "vk: %zu bytes after the key's %zu",
                              len - total, total);
    k.ic = malloc((size_t)n_ic * sizeof *k.ic);
    if (!k.ic)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "vk: no memory for %u IC points", n_ic);
    k.n_ic = n_ic;
    if ((st = vk_ic_parse(k.ic, buf + BELLPERSON_VK_FIXED_BYTES, n_ic, err)) != CUZK_OK) {
        free(k.ic);
        return st;
    }
    *vk = k;
    if (used)
        *used = total;
    return CUZK_OK;
}

cuzk_status bellperson_vk_load(groth16_vk_t *vk, const char *path, cuzk_error_t *err)
{
    if (!vk || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_vk_load: NULL argument");
    memset(vk, 0, sizeof *vk);
    void *map;
    size_t len;
    cuzk_status st = bellperson_file_map(&map, &len, path, err);
    if (st != CUZK_OK)
        return st;
    cuzk_error_t e = {CUZK_OK, ""};
    st = bellperson_vk_parse(vk, NULL, map, len, &e);
    bellperson_file_unmap(map, len);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "%s: %s", path, e.msg);
    return CUZK_OK;
}

void bellperson_vk_write(uint8_t *out, const groth16_vk_t *vk)
{
    g1_serialize(out, &vk->alpha_g1);
    g1_serialize(out + G1U, &vk->beta_g1);
    g2_serialize(out + 2 * G1U, &vk->beta_g2);
    g2_serialize(out + 2 * G1U + G2U, &vk->gamma_g2);
    g1_serialize(out + 2 * G1U + 2 * G2U, &vk->delta_g1);
    g2_serialize(out + 3 * G1U + 2 * G2U, &vk->delta_g2);
    be32_write(out + BELLPERSON_VK_FIXED_BYTES - 4, (uint32_t)vk->n_ic);
    for (size_t i = 0; i < vk->n_ic; i++)
        g1_serialize(out + BELLPERSON_VK_FIXED_BYTES + i * G1U, &vk->ic[i]);
}
