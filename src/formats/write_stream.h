/* Streamed binary file writing for the key writers (internal to the
 * formats layer): a stdio stream with a large buffer, a scratch buffer for
 * encoding point vectors a chunk at a time, and sticky error state so a
 * writer checks once, at the end.
 *
 * ws_close reports the first failure as CUZK_ERR_IO naming the path and
 * removes the partial file (only when it is a regular file: writing to a
 * device such as /dev/full must never unlink it). */
#ifndef CUZK_FORMATS_WRITE_STREAM_H
#define CUZK_FORMATS_WRITE_STREAM_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/status.h"

#define WS_SCRATCH_BYTES (256u * 1024u)

typedef struct wstream {
    FILE *f;
    const char *path;
    int err_no;       /* errno of the first failed write, 0 if none */
    uint8_t *scratch; /* WS_SCRATCH_BYTES */
} wstream_t;

static inline cuzk_status ws_open(wstream_t *w, const char *path, cuzk_error_t *err)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->scratch = malloc(WS_SCRATCH_BYTES);
    if (!w->scratch)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "%s: no memory for the write buffer", path);
    w->f = fopen(path, "wb");
    if (!w->f) {
        int e = errno;
        free(w->scratch);
        w->scratch = NULL;
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: cannot create: %s", path, strerror(e));
    }
    setvbuf(w->f, NULL, _IOFBF, 1u << 20);
    return CUZK_OK;
}

static inline void ws_put(wstream_t *w, const void *p, size_t n)
{
    if (w->err_no || n == 0)
        return;
    errno = 0;
    if (fwrite(p, 1, n, w->f) != n)
        w->err_no = errno ? errno : EIO;
}

static inline void ws_u32le(wstream_t *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    ws_put(w, b, 4);
}

static inline void ws_u64le(wstream_t *w, uint64_t v)
{
    ws_u32le(w, (uint32_t)v);
    ws_u32le(w, (uint32_t)(v >> 32));
}

static inline void ws_u32be(wstream_t *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    ws_put(w, b, 4);
}

/* n records of `size` bytes, record i made by enc(out, base + i * stride). */
static inline void ws_records(wstream_t *w, const void *base, size_t stride, size_t n, size_t size,
                              void (*enc)(uint8_t *out, const void *in))
{
    size_t per = WS_SCRATCH_BYTES / size;
    const uint8_t *src = base;
    for (size_t i = 0; i < n && !w->err_no; i += per) {
        size_t cnt = n - i < per ? n - i : per;
        for (size_t k = 0; k < cnt; k++)
            enc(w->scratch + k * size, src + (i + k) * stride);
        ws_put(w, w->scratch, cnt * size);
    }
}

static inline cuzk_status ws_close(wstream_t *w, cuzk_error_t *err)
{
    errno = 0;
    if (fflush(w->f) != 0 && !w->err_no)
        w->err_no = errno ? errno : EIO;
    struct stat sb;
    int regular = fstat(fileno(w->f), &sb) == 0 && S_ISREG(sb.st_mode);
    errno = 0;
    if (fclose(w->f) != 0 && !w->err_no)
        w->err_no = errno ? errno : EIO;
    free(w->scratch);
    w->f = NULL;
    w->scratch = NULL;
    if (!w->err_no)
        return CUZK_OK;
    if (regular)
        unlink(w->path);
    return cuzk_error_set(err, CUZK_ERR_IO, "%s: write failed: %s", w->path, strerror(w->err_no));
}

#endif
