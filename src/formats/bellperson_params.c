/* bellperson .params files (Parameters::write), read in place from a
 * read-only mapping (see include/cuzk/bellperson.h).
 *
 * A Filecoin PoRep key is 44 GiB: it is mmapped, never copied; offsets and
 * counts are 64-bit, and every count is checked against the bytes left
 * before it is used. The vectors stay encoded where they are and the MSM
 * decodes them chunk by chunk (MSM_BASES_ZCASH). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/bellperson.h"
#include "cuzk/encode.h"
#include "cuzk/parallel.h"

#include "bellperson_internal.h"

cuzk_status bellperson_file_map(void **map, size_t *len, const char *path, cuzk_error_t *err)
{
    *map = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: not a regular file", path);
    }
    if ((uint64_t)sb.st_size > (uint64_t)SIZE_MAX) {
        close(fd);
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "%s: %lld bytes do not fit the address space", path,
                              (long long)sb.st_size);
    }
    if (sb.st_size == 0) {
        close(fd);
        return CUZK_OK;
    }
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps the file */
    if (m == MAP_FAILED)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot map %lld bytes: %s", path,
                              (long long)sb.st_size, strerror(e));
    *map = m;
    *len = (size_t)sb.st_size;
    return CUZK_OK;
}

void bellperson_file_unmap(void *map, size_t len)
{
    if (map)
        munmap(map, len);
}

/* ---- parallel point scan ---- */

typedef struct scan_ctx {
    const uint8_t *data;
    g1_affine_t *out;
    int g2, allow_inf;
    uint64_t first_bad; /* atomic minimum */
} scan_ctx_t;

static void first_bad_lower(uint64_t *slot, uint64_t i)
{
    uint64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (i < cur &&
           !__atomic_compare_exchange_n(slot, &cur, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

static int point_good(const scan_ctx_t *c, uint64_t i)
{
    if (c->g2) {
        g2_affine_t q;
        if (g2_deserialize(&q, c->data + i * G2_UNCOMPRESSED_BYTES, POINT_CHECK_SUBGROUP, NULL))
            return 0;
        return c->allow_inf || !g2_affine_is_inf(&q);
    }
    g1_affine_t p;
    if (g1_deserialize(&p, c->data + i * G1_UNCOMPRESSED_BYTES, POINT_CHECK_SUBGROUP, NULL))
        return 0;
    if (c->out)
        c->out[i] = p;
    return c->allow_inf || !g1_affine_is_inf(&p);
}

static void scan_chunk(void *arg, size_t begin, size_t end)
{
    scan_ctx_t *c = arg;
    for (size_t i = begin; i < end; i++) {
        /* A bad point before this one already decides the answer. */
        if ((i & 63) == 0 && __atomic_load_n(&c->first_bad, __ATOMIC_RELAXED) < i)
            return;
        if (!point_good(c, i)) {
            first_bad_lower(&c->first_bad, i);
            return;
        }
    }
}

cuzk_status bellperson_points_scan(uint64_t *first_bad, g1_affine_t *out, const uint8_t *data,
                                   uint64_t n, int g2, int allow_inf, int threads)
{
    scan_ctx_t c = {data, out, g2, allow_inf, n};
    *first_bad = n;
    if (n > SIZE_MAX)
        return CUZK_ERR_NOMEM;
    cuzk_status st = parallel_for((size_t)n, 512, threads, scan_chunk, &c);
    if (st != CUZK_OK)
        return st;
    *first_bad = c.first_bad;
    return CUZK_OK;
}

/* ---- layout ---- */

static uint32_t be32_read(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Reads a u32 count at *off and lays out that many points of `size`
 * bytes after it, advancing *off. */
static cuzk_status vec_layout(bellperson_points_t *v, uint64_t *off, const uint8_t *buf,
                              uint64_t len, uint64_t size, const char *name, cuzk_error_t *err)
{
    if (len - *off < 4)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "params: file ends at byte %llu, before the %s count",
                              (unsigned long long)len, name);
    uint32_t n = be32_read(buf + *off);
    *off += 4;
    /* n < 2^32 and size <= 192: the product cannot overflow 64 bits. */
    uint64_t need = (uint64_t)n * size;
    if (need > len - *off)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "params: %s has %u points (%llu bytes) at offset %llu, but only "
                              "%llu bytes remain",
                              name, n, (unsigned long long)need, (unsigned long long)*off,
                              (unsigned long long)(len - *off));
    v->data = buf + *off;
    v->n = n;
    *off += need;
    return CUZK_OK;
}

static cuzk_status vec_check(const bellperson_points_t *v, int g2, const char *name, int threads,
                             cuzk_error_t *err)
{
    uint64_t bad;
    if (bellperson_points_scan(&bad, NULL, v->data, v->n, g2, 1, threads) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "params: no memory to check %s", name);
    if (bad == v->n)
        return CUZK_OK;
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st;
    if (g2) {
        g2_affine_t q;
        st = g2_deserialize(&q, v->data + bad * G2_UNCOMPRESSED_BYTES, POINT_CHECK_SUBGROUP, &e);
    } else {
        g1_affine_t p;
        st = g1_deserialize(&p, v->data + bad * G1_UNCOMPRESSED_BYTES, POINT_CHECK_SUBGROUP, &e);
    }
    if (st == CUZK_OK) /* cannot happen: the scan and this decode agree */
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "params %s[%llu]: scan disagrees", name,
                              (unsigned long long)bad);
    return cuzk_error_set(err, st, "params %s[%llu]: %s", name, (unsigned long long)bad, e.msg);
}

static const char *const VEC_NAMES[5] = {"H", "L", "A", "B_G1", "B_G2"};

cuzk_status bellperson_params_parse(bellperson_params_t *p, const uint8_t *buf, size_t len,
                                    bellperson_check chk, int threads, cuzk_error_t *err)
{
    if (!p || (!buf && len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_params_parse: NULL argument");
    if (chk != BELLPERSON_CHECK_KEY && chk != BELLPERSON_CHECK_ALL)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_params_parse: bad check mode %d",
                              (int)chk);
    memset(p, 0, sizeof *p);
    bellperson_params_t q;
    memset(&q, 0, sizeof q);
    size_t vk_len;
    cuzk_error_t e = {CUZK_OK, ""};
    cuzk_status st = bellperson_vk_parse(&q.vk, &vk_len, buf, len, &e);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "params: %s", e.msg);
    bellperson_points_t *vecs[5] = {&q.h, &q.l, &q.a, &q.b_g1, &q.b_g2};
    uint64_t off = vk_len;
    for (int i = 0; i < 5 && st == CUZK_OK; i++)
        st = vec_layout(vecs[i], &off, buf, len,
                        i == 4 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES, VEC_NAMES[i], err);
    if (st == CUZK_OK && off != len)
        st = cuzk_error_set(err, CUZK_ERR_LENGTH, "params: %llu bytes after B_G2 (file of %zu)",
                            (unsigned long long)(len - off), len);
    for (int i = 0; i < 5 && st == CUZK_OK && chk == BELLPERSON_CHECK_ALL; i++)
        st = vec_check(vecs[i], i == 4, VEC_NAMES[i], threads, err);
    if (st != CUZK_OK) {
        groth16_vk_free(&q.vk);
        return st;
    }
    q.bytes = buf;
    q.size = len;
    *p = q;
    return CUZK_OK;
}

cuzk_status bellperson_params_open(bellperson_params_t *p, const char *path, bellperson_check chk,
                                   int threads, cuzk_error_t *err)
{
    if (!p || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "bellperson_params_open: NULL argument");
    memset(p, 0, sizeof *p);
    void *map;
    size_t len;
    cuzk_status st = bellperson_file_map(&map, &len, path, err);
    if (st != CUZK_OK)
        return st;
    /* Checked mode reads every byte once, front to back per thread. */
    if (map && chk == BELLPERSON_CHECK_ALL)
        madvise(map, len, MADV_SEQUENTIAL);
    cuzk_error_t e = {CUZK_OK, ""};
    st = bellperson_params_parse(p, map, len, chk, threads, &e);
    if (st != CUZK_OK) {
        bellperson_file_unmap(map, len);
        return cuzk_error_set(err, st, "%s: %s", path, e.msg);
    }
    p->map = map;
    p->map_len = len;
    return CUZK_OK;
}

void bellperson_params_close(bellperson_params_t *p)
{
    if (!p)
        return;
    groth16_vk_free(&p->vk);
    bellperson_file_unmap(p->map, p->map_len);
    memset(p, 0, sizeof *p);
}

msm_bases_t bellperson_points_bases(const bellperson_points_t *v)
{
    msm_bases_t b = {v->data, MSM_BASES_ZCASH};
    return b;
}
