/* cuzk_cuda_host_pin_check (cuda_selftest.h): copies out of memory pinned
 * in pieces, across the pieces' boundaries, come back byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/host_call.cuh"
#include "backend/cuda/host_pin.cuh"
#include "cuzk/cuda_selftest.h"

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (uint8_t)(x >> 24);
    }
}

/* src's [off, off + len) through cuda_copy_h2d to dev, back into back, and
 * compared with src. */
static cuzk_status copy_round(const uint8_t *src, size_t off, size_t len, uint8_t *dev,
                              uint8_t *back, cudaStream_t s, const char *what, cuzk_error_t *err)
{
    cuzk_status st = CUDA_CHECK(cuda_copy_h2d(dev, src + off, len, s), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMemcpyAsync(back, dev, len, cudaMemcpyDeviceToHost, s), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaStreamSynchronize(s), err);
    if (st != CUZK_OK)
        return st;
    for (size_t i = 0; i < len; i++)
        if (back[i] != src[off + i])
            return cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                  "host pin check: %s: byte %zu of the copy from offset %zu "
                                  "is %u, not %u",
                                  what, i, off, back[i], src[off + i]);
    return CUZK_OK;
}

/* The copies of one pinned range: three parts cut off the boundaries,
 * then the whole. */
static cuzk_status copies(const uint8_t *src, size_t bytes, uint8_t *dev, uint8_t *back,
                          cudaStream_t s, const char *what, cuzk_error_t *err)
{
    size_t cut[4] = {0, CUDA_HOST_PIN_PIECE / 3, bytes / 2 + 4097, bytes};
    cuzk_status st = CUZK_OK;
    for (int i = 0; i < 3 && st == CUZK_OK; i++)
        st = copy_round(src, cut[i], cut[i + 1] - cut[i], dev, back, s, what, err);
    return st == CUZK_OK ? copy_round(src, 0, bytes, dev, back, s, what, err) : st;
}

extern "C" cuzk_status cuzk_cuda_host_pin_check(size_t bytes, cuzk_error_t *err)
{
    if (bytes < 2 * CUDA_HOST_PIN_PIECE / 3 + 8192)
        return cuzk_error_set(err, CUZK_ERR_ARG, "host pin check: %zu bytes: too few", bytes);
    cuda_call_t g;
    cuzk_status st = cuda_call_begin(&g, "host pin check", err);
    if (st != CUZK_OK)
        return st;
    uint8_t *own = (uint8_t *)cuda_host_pieces_alloc(bytes);
    uint8_t *heap = (uint8_t *)malloc(bytes), *back = (uint8_t *)malloc(bytes), *dev = NULL;
    int pinned = 0;
    if (!own || !heap || !back)
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "host pin check: %zu bytes not had", bytes);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&dev, bytes), err);
    if (st == CUZK_OK) {
        fill(own, bytes, 1);
        fill(heap, bytes, 2);
        st = copies(own, bytes, dev, back, g.stream, "allocated in pieces", err);
    }
    /* shared twice, released by both, pinned again */
    for (int round = 0; round < 2 && st == CUZK_OK; round++) {
        pinned = cuda_host_pin_acquire(heap, bytes);
        if (pinned && !cuda_host_pin_acquire(heap, bytes))
            st = cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                "host pin check: a second acquire of the same range refused");
        else if (!pinned)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "host pin check: the heap range not pinned");
        if (st == CUZK_OK)
            st = copies(heap, bytes, dev, back, g.stream, "pinned in place", err);
        if (pinned) {
            cuda_host_pin_release(heap);
            cuda_host_pin_release(heap);
            pinned = 0;
        }
    }
    if (dev)
        (void)cudaFree(dev);
    cuda_host_pieces_free(own, bytes);
    free(heap);
    free(back);
    return cuda_call_end(&g, st, err);
}
