/* The shared resident copies (resident.cuh): a list under one mutex; a
 * copy being loaded is in the list (not ready) so that others wait on the
 * condition instead of loading it twice. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/resident.cuh"

typedef struct entry {
    cuda_resident_t r; /* first: a released pointer finds its entry */
    cuda_resident_id_t id;
    cuda_resident_free_fn free_fn;
    unsigned refs;
    int ready;
    struct entry *next;
} entry_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static entry_t *g_list;

static entry_t *find(const cuda_resident_id_t *id)
{
    for (entry_t *e = g_list; e; e = e->next)
        if (!memcmp(&e->id, id, sizeof *id))
            return e;
    return NULL;
}

static void unlink_entry(entry_t *e)
{
    for (entry_t **p = &g_list; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
}

cuzk_status cuda_resident_acquire(const cuda_resident_t **out, int *loaded,
                                  const cuda_resident_id_t *id, cuda_resident_load_fn load,
                                  cuda_resident_free_fn free_fn, void *ctx, cuzk_error_t *err)
{
    *out = NULL;
    *loaded = 0;
    cuda_resident_id_t key;
    memset(&key, 0, sizeof key); /* padding too: ids are compared as bytes */
    key.device = id->device;
    memcpy(key.data, id->data, sizeof key.data);
    memcpy(key.n, id->n, sizeof key.n);
    key.conv = id->conv;
    key.circuit = id->circuit;
    memcpy(key.nnz, id->nnz, sizeof key.nnz);
    key.n_rows = id->n_rows;
    key.n_vars = id->n_vars;
    pthread_mutex_lock(&g_mu);
    entry_t *e;
    while ((e = find(&key)) != NULL && !e->ready)
        pthread_cond_wait(&g_cv, &g_mu); /* its loader finishes, or fails and unlinks it */
    if (e) {
        e->refs++;
        pthread_mutex_unlock(&g_mu);
        *out = &e->r;
        return CUZK_OK;
    }
    e = (entry_t *)calloc(1, sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&g_mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuda resident copy: out of host memory");
    }
    e->id = key;
    e->free_fn = free_fn;
    e->refs = 1;
    e->next = g_list;
    g_list = e;
    pthread_mutex_unlock(&g_mu);
    cuzk_status st = load(&e->r, ctx, err); /* the long part, without the mutex */
    pthread_mutex_lock(&g_mu);
    if (st == CUZK_OK) {
        e->ready = 1;
    } else {
        unlink_entry(e);
    }
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
    if (st != CUZK_OK) {
        free(e);
        return st;
    }
    *out = &e->r;
    *loaded = 1;
    return CUZK_OK;
}

void cuda_resident_release(const cuda_resident_t *r)
{
    if (!r)
        return;
    entry_t *e = (entry_t *)r;
    pthread_mutex_lock(&g_mu);
    int last = --e->refs == 0;
    if (last)
        unlink_entry(e);
    pthread_mutex_unlock(&g_mu);
    if (!last)
        return;
    int caller = 0;
    (void)cudaGetDevice(&caller);
    (void)cudaSetDevice(e->id.device);
    e->free_fn(&e->r);
    (void)cudaSetDevice(caller);
    free(e);
}

unsigned cuda_resident_count(unsigned *refs)
{
    unsigned n = 0, total = 0;
    pthread_mutex_lock(&g_mu);
    for (entry_t *e = g_list; e; e = e->next) {
        n++;
        total += e->refs;
    }
    pthread_mutex_unlock(&g_mu);
    if (refs)
        *refs = total;
    return n;
}
