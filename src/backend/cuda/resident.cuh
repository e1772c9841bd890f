/* One resident copy of a key and circuit per device, shared by every CUDA
 * backend of the process that proves with them (resident.cu): engine
 * workers of one GPU hold one copy of a 44 GiB key, not one each.
 *
 * A copy is named by its device, the key's base pointers and sizes, its
 * convention and the circuit's address and shape (the backend's own test
 * of "the same key"). The first backend to ask loads it with its own load
 * function while later ones for the same copy wait (holding no device
 * memory: the copy's bytes are reserved by the caller's plan); each then
 * holds a reference; the last release frees it with the free function (on
 * the copy's device). A failed load is not kept: the waiters try again. */
#ifndef CUZK_CUDA_RESIDENT_CUH
#define CUZK_CUDA_RESIDENT_CUH

#include <stddef.h>
#include <stdint.h>

#include "backend/cuda/h/spmv.cuh"

#define CUDA_RESIDENT_QUERIES 5 /* A, B_G1, B_G2, L, H */

typedef struct cuda_resident {
    cuda_circuit_t dc;
    void *dev[CUDA_RESIDENT_QUERIES]; /* decoded bases; NULL: the key's own device bases */
    uint32_t *a_idx, *b_idx;          /* bellperson density lists, else NULL */
    size_t n_a, n_b, n_l;
    size_t bytes; /* device bytes of the copy (not counting the key's own device bases) */
} cuda_resident_t;

typedef struct cuda_resident_id {
    int device;
    const void *data[CUDA_RESIDENT_QUERIES];
    size_t n[CUDA_RESIDENT_QUERIES];
    int conv;
    const void *circuit;
    uint64_t nnz[3];
    uint32_t n_rows, n_vars;
} cuda_resident_id_t;

/* Fills *out (zeroed on entry) on the current device; on failure frees
 * what it made and leaves *out zeroed. */
typedef cuzk_status (*cuda_resident_load_fn)(cuda_resident_t *out, void *ctx, cuzk_error_t *err);
/* Frees a copy load made (the current device is the copy's). */
typedef void (*cuda_resident_free_fn)(cuda_resident_t *r);

/* *out: the shared copy for id, loaded by load(ctx) when nobody holds it
 * (the current device must be id->device). *loaded: 1 when this call
 * loaded it. Returns load's status, or CUZK_ERR_NOMEM. */
cuzk_status cuda_resident_acquire(const cuda_resident_t **out, int *loaded,
                                  const cuda_resident_id_t *id, cuda_resident_load_fn load,
                                  cuda_resident_free_fn free_fn, void *ctx, cuzk_error_t *err);
/* Drops a reference (NULL: nothing); the last frees the copy. */
void cuda_resident_release(const cuda_resident_t *r);
/* Copies held now and references on them (tests, stats). */
unsigned cuda_resident_count(unsigned *refs);

#endif
