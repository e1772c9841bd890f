/* The parent cache file where filecoin-proofs keeps it (filecoin_graph.h:
 * fil_parent_cache_path, fil_parent_cache_ensure; RFP@87348a7
 * storage-proofs-porep/src/stacked/vanilla/cache.rs: the folder from
 * FIL_PROOFS_PARENT_CACHE, default /var/tmp/filecoin-parents, files
 * <cache id>.cache). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/filecoin_graph.h"

#define DEFAULT_DIR "/var/tmp/filecoin-parents"

static const char *cache_dir(void)
{
    const char *d = getenv("FIL_PROOFS_PARENT_CACHE");
    return d && *d ? d : DEFAULT_DIR;
}

cuzk_status fil_parent_cache_path(char *out, size_t cap, const fil_graph_t *g, cuzk_error_t *err)
{
    char name[FIL_PARENT_CACHE_NAME_MAX];
    if (!out || !g)
        return cuzk_error_set(err, CUZK_ERR_ARG, "fil_parent_cache_path: NULL argument");
    cuzk_status st = fil_parent_cache_name(name, g, err);
    if (st != CUZK_OK)
        return st;
    int n = snprintf(out, cap, "%s/%s.cache", cache_dir(), name);
    if (n < 0 || (size_t)n >= cap)
        return cuzk_error_set(err, CUZK_ERR_ARG, "parent cache path longer than %zu bytes", cap);
    return CUZK_OK;
}

typedef struct fd_out {
    int fd;
} fd_out_t;

static int fd_write(void *ctx, const uint8_t *data, size_t n)
{
    int fd = ((fd_out_t *)ctx)->fd;
    while (n) {
        ssize_t k = write(fd, data, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        data += k;
        n -= (size_t)k;
    }
    return 0;
}

cuzk_status fil_parent_cache_ensure(char *path, size_t cap, int *made, const fil_graph_t *g,
                                    int threads, cuzk_error_t *err)
{
    if (made)
        *made = 0;
    cuzk_status st = fil_parent_cache_path(path, cap, g, err);
    if (st != CUZK_OK)
        return st;
    uint64_t want = g->nodes * FIL_DEGREE * sizeof(uint32_t);
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if ((uint64_t)sb.st_size == want)
            return CUZK_OK;
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s: %lld bytes, a parent cache of %llu nodes has %llu (remove it "
                              "to have it made again)",
                              path, (long long)sb.st_size, (unsigned long long)g->nodes,
                              (unsigned long long)want);
    }
    const char *dir = cache_dir();
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", dir, strerror(errno));
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return cuzk_error_set(err, CUZK_ERR_ARG, "parent cache path too long");
    fd_out_t o = {mkstemp(tmp)};
    if (o.fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    st = fil_parent_cache_stream(g, threads, fd_write, &o, err);
    if (st == CUZK_OK && fsync(o.fd) != 0)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    if (close(o.fd) != 0 && st == CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    if (st == CUZK_OK && chmod(tmp, 0644) != 0)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    if (st == CUZK_OK && rename(tmp, path) != 0)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    if (st != CUZK_OK) {
        unlink(tmp);
        return st;
    }
    if (made)
        *made = 1;
    return CUZK_OK;
}
