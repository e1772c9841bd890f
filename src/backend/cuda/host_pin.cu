/* Host memory pinned in pieces (host_pin.cuh). */
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#include "backend/cuda/host_pin.cuh"

/* End of the piece that holds a: the next aligned address, or end. */
static uintptr_t piece_end(uintptr_t a, uintptr_t end)
{
    uintptr_t next = (a & ~(uintptr_t)(CUDA_HOST_PIN_PIECE - 1)) + CUDA_HOST_PIN_PIECE;
    return next < end ? next : end;
}

static void unregister_pieces(void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p, end = a + bytes;
    for (; a < end; a = piece_end(a, end))
        (void)cudaHostUnregister((void *)a);
}

/* 1: every piece registered; 0: refused (nothing left registered). */
static int register_pieces(void *p, size_t bytes, unsigned flags)
{
    uintptr_t a = (uintptr_t)p, end = a + bytes;
    for (; a < end; a = piece_end(a, end))
        if (cudaHostRegister((void *)a, piece_end(a, end) - a, flags) != cudaSuccess) {
            (void)cudaGetLastError(); /* a refusal is an answer, not a sticky error */
            unregister_pieces(p, a - (uintptr_t)p);
            return 0;
        }
    return 1;
}

/* ---- the shared pins ---- */

#define HOST_PINS_MAX 64

typedef enum pin_state { PIN_FREE, PIN_PINNING, PIN_READY, PIN_UNPINNING } pin_state;

typedef struct host_pin {
    void *p;
    size_t bytes;
    unsigned refs;
    pin_state state;
} host_pin_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static host_pin_t g_pins[HOST_PINS_MAX];

static host_pin_t *pin_find(const void *p)
{
    for (int i = 0; i < HOST_PINS_MAX; i++)
        if (g_pins[i].state != PIN_FREE && g_pins[i].p == p)
            return &g_pins[i];
    return NULL;
}

int cuda_host_pin_acquire(void *p, size_t bytes)
{
    pthread_mutex_lock(&g_mu);
    host_pin_t *h;
    /* the same range being pinned or unpinned by another: its outcome first */
    while ((h = pin_find(p)) && h->state != PIN_READY)
        pthread_cond_wait(&g_cv, &g_mu);
    if (h) { /* registered: shared when the same range, else refused (overlap) */
        int same = h->bytes == bytes;
        h->refs += (unsigned)same;
        pthread_mutex_unlock(&g_mu);
        return same;
    }
    for (int i = 0; i < HOST_PINS_MAX && !h; i++)
        if (g_pins[i].state == PIN_FREE)
            h = &g_pins[i];
    if (!h) {
        pthread_mutex_unlock(&g_mu);
        return 0;
    }
    *h = (host_pin_t){p, bytes, 1, PIN_PINNING};
    pthread_mutex_unlock(&g_mu);
    int ok = register_pieces(p, bytes, cudaHostRegisterPortable | cudaHostRegisterReadOnly);
    pthread_mutex_lock(&g_mu);
    if (ok)
        h->state = PIN_READY;
    else
        *h = (host_pin_t){NULL, 0, 0, PIN_FREE};
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
    return ok;
}

void cuda_host_pin_release(void *p)
{
    pthread_mutex_lock(&g_mu);
    host_pin_t *h = pin_find(p);
    if (h && h->state == PIN_READY && --h->refs == 0) {
        h->state = PIN_UNPINNING; /* a new acquire of p waits for it */
        pthread_mutex_unlock(&g_mu);
        unregister_pieces(p, h->bytes);
        pthread_mutex_lock(&g_mu);
        *h = (host_pin_t){NULL, 0, 0, PIN_FREE};
        pthread_cond_broadcast(&g_cv);
    }
    pthread_mutex_unlock(&g_mu);
}

/* ---- memory of its own ---- */

void *cuda_host_pieces_alloc(size_t bytes)
{
    if (bytes == 0)
        return NULL;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    /* fewer faults while the driver pins it, where the kernel allows */
    (void)madvise(p, bytes, MADV_HUGEPAGE);
    if (!register_pieces(p, bytes, cudaHostRegisterPortable)) {
        munmap(p, bytes);
        return NULL;
    }
    return p;
}

void cuda_host_pieces_free(void *p, size_t bytes)
{
    if (!p)
        return;
    unregister_pieces(p, bytes);
    munmap(p, bytes);
}

cudaError_t cuda_copy_h2d(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
    uintptr_t a = (uintptr_t)src, end = a + bytes;
    char *d = (char *)dst;
    for (uintptr_t b; a < end; a = b) {
        b = piece_end(a, end);
        cudaError_t e = cudaMemcpyAsync(d, (const void *)a, b - a, cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess)
            return e;
        d += b - a;
    }
    return cudaSuccess;
}
