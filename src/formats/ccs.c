/* The cuzk precompiled circuit file (see include/cuzk/ccs.h).
 *
 * The arrays of a circuit_t are stored in host order, which the format fixes
 * as little-endian, so both the writer and the reader move them with plain
 * writes and reads into the final arrays; the header and table are decoded
 * byte by byte. The reader derives the whole layout from the header, checks
 * every table entry and the file size against it, and only then allocates
 * (so a lying header costs no memory); sections are then read in chunks
 * straight into the circuit, hashed as they arrive. */
#include "cuzk/ccs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/parallel.h"
#include "formats/binfile.h"
#include "write_stream.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ccs.c moves the circuit arrays as they are stored: little-endian hosts only"
#endif

static const uint8_t ccs_magic[8] = {'c', 'u', 'z', 'k', 'c', 'c', 's', 0};
static const char *const sec_name[CCS_N_SECTIONS] = {
    "dictionary", "A row_ptr", "A col",     "A coef", "B row_ptr",
    "B col",      "B coef",    "C row_ptr", "C col",  "C coef"};

#define READ_CHUNK ((size_t)64 << 20) /* a multiple of the hash block */

/* ---- checksum: 4 lanes of multiply-rotate over 8-byte words ----------- */

#define H_P1 0x9e3779b185ebca87ULL
#define H_P2 0xc2b2ae3d27d4eb4fULL
#define H_P3 0x165667b19e3779f9ULL

typedef struct hash_state {
    uint64_t v[4];
    uint64_t n;
} hash_state_t;

static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static void hash_init(hash_state_t *h)
{
    for (int i = 0; i < 4; i++)
        h->v[i] = H_P3 * (uint64_t)(i + 1);
    h->n = 0;
}

static void hash_block(hash_state_t *h, const uint8_t *p)
{
    for (int i = 0; i < 4; i++) {
        uint64_t w;
        memcpy(&w, p + 8 * i, 8);
        h->v[i] = rotl64(h->v[i] + w * H_P2, 31) * H_P1;
    }
}

/* n must be a multiple of 32 except in the last call. */
static void hash_update(hash_state_t *h, const uint8_t *p, size_t n)
{
    size_t full = n / 32 * 32;
    for (size_t i = 0; i < full; i += 32)
        hash_block(h, p + i);
    if (full < n) {
        uint8_t last[32] = {0};
        memcpy(last, p + full, n - full);
        hash_block(h, last);
    }
    h->n += n;
}

static uint64_t hash_final(const hash_state_t *h)
{
    uint64_t x = rotl64(h->v[0], 1) + rotl64(h->v[1], 7) + rotl64(h->v[2], 12) +
                 rotl64(h->v[3], 18) + h->n * H_P1;
    x ^= x >> 33;
    x *= H_P2;
    x ^= x >> 29;
    x *= H_P3;
    return x ^ (x >> 32);
}

uint64_t ccs_checksum(const void *data, size_t n)
{
    hash_state_t h;
    hash_init(&h);
    hash_update(&h, data, n);
    return hash_final(&h);
}

/* ---- layout ------------------------------------------------------------ */

typedef struct layout {
    uint64_t off[CCS_N_SECTIONS], size[CCS_N_SECTIONS];
    uint64_t end;
} layout_t;

static uint64_t align_up(uint64_t x)
{
    return (x + CCS_ALIGN - 1) / CCS_ALIGN * CCS_ALIGN;
}

/* Sizes fit: n_rows, n_dict < 2^32 and the callers bound nnz by 2^60. */
static void layout_make(layout_t *l, uint32_t n_rows, uint32_t n_dict, const uint64_t nnz[3])
{
    uint64_t pos = align_up(CCS_HEADER_BYTES + CCS_N_SECTIONS * CCS_ENTRY_BYTES);
    l->size[0] = (uint64_t)n_dict * FR_BYTES;
    for (int m = 0; m < 3; m++) {
        l->size[1 + 3 * m] = ((uint64_t)n_rows + 1) * 8;
        l->size[2 + 3 * m] = nnz[m] * 4;
        l->size[3 + 3 * m] = nnz[m] * 4;
    }
    for (unsigned i = 0; i < CCS_N_SECTIONS; i++) {
        l->off[i] = pos;
        pos += l->size[i];
        if (i + 1 < CCS_N_SECTIONS)
            pos = align_up(pos);
    }
    l->end = pos;
}

/* ---- validation --------------------------------------------------------- */

typedef struct vctx {
    const circuit_t *c;
    const circuit_csr_t *m;
    _Atomic uint64_t bad_row, bad_entry; /* UINT64_MAX: none */
} vctx_t;

static void atomic_min_u64(_Atomic uint64_t *a, uint64_t v)
{
    uint64_t cur = atomic_load(a);
    while (v < cur && !atomic_compare_exchange_weak(a, &cur, v))
        ;
}

static void check_rows(void *vc, size_t begin, size_t end)
{
    vctx_t *v = vc;
    for (size_t r = begin; r < end; r++)
        if (v->m->row_ptr[r + 1] < v->m->row_ptr[r]) {
            atomic_min_u64(&v->bad_row, r);
            return;
        }
}

static void check_entries(void *vc, size_t begin, size_t end)
{
    vctx_t *v = vc;
    for (size_t k = begin; k < end; k++)
        if (v->m->col[k] >= v->c->n_vars || v->m->coef[k] >= v->c->n_dict) {
            atomic_min_u64(&v->bad_entry, k);
            return;
        }
}

/* Structure of one matrix; code is what a violation returns. */
static cuzk_status check_matrix(const circuit_t *c, int mi, const char *name, cuzk_status code,
                                int threads, cuzk_error_t *err)
{
    static const char mn[3] = {'A', 'B', 'C'};
    const circuit_csr_t *m = &c->m[mi];
    if (!m->row_ptr || ((!m->col || !m->coef) && m->nnz))
        return cuzk_error_set(err, code, "%s: matrix %c: NULL arrays", name, mn[mi]);
    if (m->row_ptr[0] != 0 || m->row_ptr[c->n_rows] != m->nnz)
        return cuzk_error_set(err, code,
                              "%s: matrix %c: row_ptr runs from %llu to %llu, expected 0 to nnz "
                              "= %llu",
                              name, mn[mi], (unsigned long long)m->row_ptr[0],
                              (unsigned long long)m->row_ptr[c->n_rows],
                              (unsigned long long)m->nnz);
    vctx_t v = {c, m, UINT64_MAX, UINT64_MAX};
    if (parallel_for(c->n_rows, 1 << 16, threads, check_rows, &v) != CUZK_OK ||
        parallel_for(m->nnz, 1 << 16, threads, check_entries, &v) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for threads", name);
    uint64_t r = atomic_load(&v.bad_row), k = atomic_load(&v.bad_entry);
    if (r != UINT64_MAX)
        return cuzk_error_set(err, code, "%s: matrix %c: row_ptr decreases at row %llu", name,
                              mn[mi], (unsigned long long)r);
    if (k != UINT64_MAX)
        return cuzk_error_set(err, code,
                              "%s: matrix %c, entry %llu: column %u (of %u variables) or "
                              "dictionary index %u (of %u) out of range",
                              name, mn[mi], (unsigned long long)k, m->col[k], c->n_vars, m->coef[k],
                              c->n_dict);
    return CUZK_OK;
}

static cuzk_status check_circuit(const circuit_t *c, const char *name, cuzk_status code,
                                 int threads, cuzk_error_t *err)
{
    if ((uint64_t)c->n_public + 1 > c->n_vars)
        return cuzk_error_set(err, code, "%s: %u public wires and ONE exceed %u variables", name,
                              c->n_public, c->n_vars);
    if (c->n_dict && !c->dict)
        return cuzk_error_set(err, code, "%s: NULL dictionary", name);
    for (uint32_t i = 0; i < c->n_dict; i++)
        if (fr_is_zero(&c->dict[i]))
            return cuzk_error_set(err, code, "%s: dictionary entry %u is zero", name, i);
    for (int m = 0; m < 3; m++) {
        cuzk_status st = check_matrix(c, m, name, code, threads, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status ccs_validate(const circuit_t *c, cuzk_error_t *err)
{
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ccs_validate: NULL circuit");
    return check_circuit(c, "circuit", CUZK_ERR_ARG, 0, err);
}

/* ---- writer -------------------------------------------------------------- */

static void put_header(wstream_t *w, const circuit_t *c)
{
    ws_put(w, ccs_magic, 8);
    ws_u32le(w, CCS_VERSION);
    ws_u32le(w, CCS_N_SECTIONS);
    ws_u32le(w, c->n_rows);
    ws_u32le(w, c->n_vars);
    ws_u32le(w, c->n_public);
    ws_u32le(w, c->n_dict);
    for (int m = 0; m < 3; m++)
        ws_u64le(w, c->m[m].nnz);
    ws_u64le(w, 0);
}

static void put_zeros(wstream_t *w, uint64_t n)
{
    static const uint8_t z[CCS_ALIGN];
    while (n) {
        size_t k = n < sizeof z ? (size_t)n : sizeof z;
        ws_put(w, z, k);
        n -= k;
    }
}

/* The bytes of section i in memory (the dictionary is encoded apart). */
static const void *section_data(const circuit_t *c, unsigned i)
{
    const circuit_csr_t *m = &c->m[(i - 1) / 3];
    switch ((i - 1) % 3) {
    case 0: return m->row_ptr;
    case 1: return m->col;
    default: return m->coef;
    }
}

cuzk_status ccs_write_file(const char *path, const circuit_t *c, cuzk_error_t *err)
{
    if (!path || !c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ccs_write_file: NULL argument");
    cuzk_status st = check_circuit(c, "ccs_write_file", CUZK_ERR_ARG, 0, err);
    if (st != CUZK_OK)
        return st;
    uint64_t nnz[3] = {c->m[0].nnz, c->m[1].nnz, c->m[2].nnz};
    layout_t l;
    layout_make(&l, c->n_rows, c->n_dict, nnz);
    uint8_t *dict = malloc(l.size[0] ? l.size[0] : 1);
    if (!dict)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for the dictionary", path);
    for (uint32_t i = 0; i < c->n_dict; i++)
        fr_to_le(dict + (size_t)i * FR_BYTES, &c->dict[i]);
    wstream_t w;
    if ((st = ws_open(&w, path, err)) != CUZK_OK) {
        free(dict);
        return st;
    }
    put_header(&w, c);
    for (unsigned i = 0; i < CCS_N_SECTIONS; i++) {
        const void *p = i == 0 ? dict : section_data(c, i);
        ws_u32le(&w, i);
        ws_u32le(&w, 0);
        ws_u64le(&w, l.off[i]);
        ws_u64le(&w, l.size[i]);
        ws_u64le(&w, ccs_checksum(p, (size_t)l.size[i]));
    }
    uint64_t pos = CCS_HEADER_BYTES + CCS_N_SECTIONS * CCS_ENTRY_BYTES;
    for (unsigned i = 0; i < CCS_N_SECTIONS; i++) {
        put_zeros(&w, l.off[i] - pos);
        ws_put(&w, i == 0 ? dict : section_data(c, i), (size_t)l.size[i]);
        pos = l.off[i] + l.size[i];
    }
    free(dict);
    return ws_close(&w, err);
}

/* ---- reader ---------------------------------------------------------------- */

typedef struct source {
    int fd;             /* >= 0: read with pread */
    const uint8_t *mem; /* else: this buffer */
    uint64_t size;
    char name[BINFILE_NAME_MAX];
} source_t;

static cuzk_status src_read(const source_t *s, void *dst, uint64_t off, size_t len,
                            cuzk_error_t *err)
{
    if (off > s->size || len > s->size - off)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: read past the end of the file", s->name);
    if (s->fd < 0) {
        memcpy(dst, s->mem + off, len);
        return CUZK_OK;
    }
    uint8_t *d = dst;
    while (len) {
        ssize_t got = pread(s->fd, d, len, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return cuzk_error_set(err, CUZK_ERR_IO, "%s: read failed at offset %llu: %s", s->name,
                                  (unsigned long long)off,
                                  got < 0 ? strerror(errno) : "unexpected end of file");
        d += got;
        off += (uint64_t)got;
        len -= (size_t)got;
    }
    return CUZK_OK;
}

typedef struct header {
    uint32_t n_rows, n_vars, n_public, n_dict;
    uint64_t nnz[3];
    uint64_t sum[CCS_N_SECTIONS];
} header_t;

static cuzk_status parse_head(header_t *h, const source_t *s, const uint8_t *b, cuzk_error_t *err)
{
    if (memcmp(b, ccs_magic, 8) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: not a cuzk circuit file (magic)", s->name);
    uint32_t version = binfile_u32(b + 8), n_sec = binfile_u32(b + 12);
    if (version != CCS_VERSION)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s: ccs version %u, expected %u", s->name,
                              version, CCS_VERSION);
    if (n_sec != CCS_N_SECTIONS)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: %u sections, expected %u", s->name, n_sec,
                              CCS_N_SECTIONS);
    h->n_rows = binfile_u32(b + 16);
    h->n_vars = binfile_u32(b + 20);
    h->n_public = binfile_u32(b + 24);
    h->n_dict = binfile_u32(b + 28);
    for (int m = 0; m < 3; m++)
        h->nnz[m] = binfile_u64(b + 32 + 8 * m);
    if (binfile_u64(b + 56) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: reserved header field is not zero",
                              s->name);
    if (h->n_rows == UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: %u rows (at most 2^32 - 2)", s->name,
                              h->n_rows);
    for (int m = 0; m < 3; m++)
        if (h->nnz[m] > s->size / 8) /* each entry takes 8 bytes of the file */
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s: matrix %c claims %llu entries, more than a %llu-byte file "
                                  "holds",
                                  s->name, "ABC"[m], (unsigned long long)h -> nnz[m],
                                  (unsigned long long)s -> size);
    return CUZK_OK;
}

static cuzk_status parse_table(header_t *h, const layout_t *l, const source_t *s, const uint8_t *t,
                               cuzk_error_t *err)
{
    for (unsigned i = 0; i < CCS_N_SECTIONS; i++, t += CCS_ENTRY_BYTES) {
        uint32_t id = binfile_u32(t), zero = binfile_u32(t + 4);
        uint64_t off = binfile_u64(t + 8), size = binfile_u64(t + 16);
        h->sum[i] = binfile_u64(t + 24);
        if (id != i || zero != 0 || off != l->off[i] || size != l->size[i])
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s: section entry %u (%s): id %u, offset %llu, size %llu; the "
                                  "header implies id %u, offset %llu, size %llu",
                                  s->name, i, sec_name[i], id, (unsigned long long)off,
                                  (unsigned long long)size, i, (unsigned long long)l->off[i],
                                  (unsigned long long)l->size[i]);
    }
    if (s->size != l->end)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: file is %llu bytes, the header implies %llu", s->name,
                              (unsigned long long)s->size, (unsigned long long)l->end);
    return CUZK_OK;
}

/* Reads section i into dst, checking its padding and checksum. */
static cuzk_status read_section(void *dst, const source_t *s, const layout_t *l, const header_t *h,
                                unsigned i, cuzk_error_t *err)
{
    uint64_t pad_at =
        i ? l->off[i - 1] + l->size[i - 1] : CCS_HEADER_BYTES + CCS_N_SECTIONS * CCS_ENTRY_BYTES;
    uint8_t pad[CCS_ALIGN];
    size_t n_pad = (size_t)(l->off[i] - pad_at);
    cuzk_status st = src_read(s, pad, pad_at, n_pad, err);
    if (st != CUZK_OK)
        return st;
    for (size_t k = 0; k < n_pad; k++)
        if (pad[k])
            return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: nonzero padding before section %s",
                                  s->name, sec_name[i]);
    hash_state_t hs;
    hash_init(&hs);
    uint8_t *d = dst;
    for (uint64_t done = 0; done < l->size[i];) {
        size_t k = l->size[i] - done < READ_CHUNK ? (size_t)(l->size[i] - done) : READ_CHUNK;
        if ((st = src_read(s, d + done, l->off[i] + done, k, err)) != CUZK_OK)
            return st;
        hash_update(&hs, d + done, k);
        done += k;
    }
    if (hash_final(&hs) != h->sum[i])
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: section %s fails its checksum", s->name,
                              sec_name[i]);
    return CUZK_OK;
}

static cuzk_status read_dict(circuit_t *c, const source_t *s, const layout_t *l, const header_t *h,
                             cuzk_error_t *err)
{
    uint8_t *raw = malloc(l->size[0] ? (size_t)l->size[0] : 1);
    c->dict = malloc(h->n_dict ? (size_t)h->n_dict * sizeof *c->dict : sizeof *c->dict);
    if (!raw || !c->dict) {
        free(raw);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for %u dictionary entries",
                              s->name, h->n_dict);
    }
    cuzk_status st = read_section(raw, s, l, h, 0, err);
    for (uint32_t i = 0; i < h->n_dict && st == CUZK_OK; i++)
        if (fr_from_le(&c->dict[i], raw + (size_t)i * FR_BYTES) != CUZK_OK)
            st = cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                "%s: dictionary entry %u is not below r", s->name, i);
    free(raw);
    c->n_dict = h->n_dict;
    return st;
}

static cuzk_status read_matrices(circuit_t *c, const source_t *s, const layout_t *l,
                                 const header_t *h, cuzk_error_t *err)
{
    for (int m = 0; m < 3; m++) {
        circuit_csr_t *x = &c->m[m];
        x->nnz = h->nnz[m];
        x->row_ptr = malloc((size_t)l->size[1 + 3 * m]);
        x->col = malloc(x->nnz ? (size_t)l->size[2 + 3 * m] : 4);
        x->coef = malloc(x->nnz ? (size_t)l->size[3 + 3 * m] : 4);
        if (!x->row_ptr || !x->col || !x->coef)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for matrix %c (%llu entries)",
                                  s->name, "ABC"[m], (unsigned long long)x -> nnz);
        void *dst[3] = {x->row_ptr, x->col, x->coef};
        for (int k = 0; k < 3; k++) {
            cuzk_status st = read_section(dst[k], s, l, h, (unsigned)(1 + 3 * m + k), err);
            if (st != CUZK_OK)
                return st;
        }
    }
    return CUZK_OK;
}

static cuzk_status read_source(circuit_t *out, const source_t *s, int threads, cuzk_error_t *err)
{
    uint8_t head[CCS_HEADER_BYTES + CCS_N_SECTIONS * CCS_ENTRY_BYTES];
    if (s->size < sizeof head)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %llu bytes, shorter than the %zu-byte header and table", s->name,
                              (unsigned long long)s->size, sizeof head);
    header_t h;
    layout_t l;
    cuzk_status st = src_read(s, head, 0, sizeof head, err);
    if (st == CUZK_OK)
        st = parse_head(&h, s, head, err);
    if (st != CUZK_OK)
        return st;
    layout_make(&l, h.n_rows, h.n_dict, h.nnz);
    if ((st = parse_table(&h, &l, s, head + CCS_HEADER_BYTES, err)) != CUZK_OK)
        return st;
    out->n_rows = h.n_rows;
    out->n_vars = h.n_vars;
    out->n_public = h.n_public;
    if ((st = read_dict(out, s, &l, &h, err)) != CUZK_OK)
        return st;
    if ((st = read_matrices(out, s, &l, &h, err)) != CUZK_OK)
        return st;
    return check_circuit(out, s->name, CUZK_ERR_FORMAT, threads, err);
}

static void set_name(source_t *s, const char *name)
{
    size_t n = strlen(name);
    if (n < sizeof s->name) {
        memcpy(s->name, name, n + 1);
        return;
    }
    size_t keep = sizeof s->name - 4; /* the tail names the file */
    memcpy(s->name, "...", 3);
    memcpy(s->name + 3, name + n - keep, keep + 1);
}

static cuzk_status finish(circuit_t *out, cuzk_status st)
{
    if (st != CUZK_OK)
        circuit_free(out);
    return st;
}

cuzk_status ccs_read_mem(circuit_t *out, const uint8_t *data, size_t size, const char *name,
                         int threads, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ccs_read_mem: NULL output");
    memset(out, 0, sizeof *out);
    if (!data && size)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ccs_read_mem: NULL data");
    source_t s = {.fd = -1, .mem = data, .size = size};
    set_name(&s, name ? name : "<buffer>");
    return finish(out, read_source(out, &s, threads, err));
}

cuzk_status ccs_read_file(circuit_t *out, const char *path, int threads, cuzk_error_t *err)
{
    if (!out || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "ccs_read_file: NULL argument");
    memset(out, 0, sizeof *out);
    source_t s = {.fd = -1};
    set_name(&s, path);
    s.fd = open(path, O_RDONLY | O_CLOEXEC);
    if (s.fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot open: %s", s.name, strerror(errno));
    struct stat sb;
    cuzk_status st = CUZK_OK;
    if (fstat(s.fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: not a readable regular file", s.name);
    else
        s.size = (uint64_t)sb.st_size;
    if (st == CUZK_OK)
        st = read_source(out, &s, threads, err);
    close(s.fd);
    return finish(out, st);
}
