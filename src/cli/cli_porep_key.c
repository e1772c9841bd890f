/* The PoRep benchmark's key (cli_porep_key.h). */
#include "cli_porep_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#include "cuzk/cuda_backend.h"
#include "cuzk/cuda_setup.h"

/* The prover's view of a key whose bases are in VRAM. */
static void pk_device_view(groth16_pk_t *pk, const groth16_key_t *k, const cuzk_cuda_key_dev_t *d)
{
    groth16_key_pk(pk, k);
    pk->a = (groth16_query_t){{d->a, MSM_BASES_DEVICE}, d->n_a};
    pk->b_g1 = (groth16_query_t){{d->b_g1, MSM_BASES_DEVICE}, d->n_b};
    pk->b_g2 = (groth16_query_t){{d->b_g2, MSM_BASES_DEVICE}, d->n_b};
    pk->l = (groth16_query_t){{d->l, MSM_BASES_DEVICE}, d->n_l};
    pk->h = (groth16_query_t){{d->h, MSM_BASES_DEVICE}, d->n_h};
}

/* The bases from VRAM into k->key's host memory, the device copy freed. */
static cuzk_status download(cli_porep_key_t *k, cuzk_error_t *err)
{
    cuzk_cuda_key_dev_t *d = k->dev;
    cuzk_status st = cuzk_cuda_key_dev_download(&k->key, d, err);
    cuzk_cuda_key_dev_free(d);
    free(d);
    k->dev = NULL;
    k->on_device = 0;
    k->dev_bytes = 0;
    if (st == CUZK_OK)
        groth16_key_pk(&k->pk, &k->key);
    return st;
}

static cuzk_status make_cuda(cli_porep_key_t *k, const circuit_t *c, uint64_t seed, size_t budget,
                             int workers, cuzk_error_t *err)
{
    cuzk_cuda_key_dev_t *d = calloc(1, sizeof *d);
    if (!d)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    k->dev = d;
    cuzk_cuda_setup_times_t tm;
    cuzk_status st = cuzk_cuda_setup(&k->key, d, c, GROTH16_BELLPERSON, seed, 0, &tm, err);
    if (st != CUZK_OK)
        return st;
    pk_device_view(&k->pk, &k->key, d);
    cuzk_cuda_plan_t plan; /* the device bases count nothing in it; one circuit copy */
    if ((st = cuzk_cuda_backend_plan_shared(&plan, &k->pk, c, 0, workers, err)) != CUZK_OK)
        return st;
    snprintf(k->detail, sizeof k->detail,
             "upload %.2f, Lagrange %.2f, columns %.2f, scalars %.2f, G1 %.2f, G2 %.2f s",
             tm.upload, tm.lagrange, tm.columns, tm.scalars, tm.g1, tm.g2);
    if (budget == 0) {
        /* the whole GPU: what is free beside the bases, as the engine's
         * budget will be (an 80 GB card cannot hold a 32 GiB PoRep key's
         * bases and two workers' scratch) */
        size_t fr = 0, tot = 0;
        if ((st = cuzk_cuda_device_memory(&fr, &tot, 0, err)) != CUZK_OK)
            return st;
        budget = d->bytes + (fr > CLI_VRAM_HEADROOM ? fr - CLI_VRAM_HEADROOM : 0);
    }
    if (d->bytes + plan.total <= budget) {
        k->on_device = 1;
        k->dev_bytes = d->bytes;
        return CUZK_OK;
    }
    /* does not fit the budget beside what proving needs: to host memory,
     * from where the backend streams the bases */
    return download(k, err);
}
#endif

cuzk_status cli_porep_key_make(cli_porep_key_t *out, const circuit_t *c, uint64_t seed,
                               device_kind where, size_t budget, int workers, cuzk_error_t *err)
{
    memset(out, 0, sizeof *out);
    double t0 = cli_now();
    cuzk_status st;
    if (where == DEVICE_CPU) {
        (void)budget;
        (void)workers;
        if ((st = groth16_setup(&out->key, c, GROTH16_BELLPERSON, seed, 0, err)) == CUZK_OK)
            groth16_key_pk(&out->pk, &out->key);
    } else if (where == DEVICE_CUDA) {
#ifdef CUZK_HAVE_CUDA
        st = make_cuda(out, c, seed, budget, workers, err);
#else
        st =
            cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                           "this build has no CUDA backend (nvcc was not found when it was built)");
#endif
    } else {
        st = cuzk_error_set(err, CUZK_ERR_ARG, "setup device %s (cpu or cuda)",
                            device_kind_str(where));
    }
    if (st != CUZK_OK) {
        cli_porep_key_free(out);
        return st;
    }
    out->setup_s = cli_now() - t0;
    return CUZK_OK;
}

cuzk_status cli_porep_key_to_host(cli_porep_key_t *k, cuzk_error_t *err)
{
    if (!k || !k->dev)
        return CUZK_OK;
#ifdef CUZK_HAVE_CUDA
    double t0 = cli_now();
    cuzk_status st = download(k, err);
    k->setup_s += cli_now() - t0;
    return st;
#else
    (void)err;
    return CUZK_OK;
#endif
}

void cli_porep_key_free(cli_porep_key_t *k)
{
    if (!k)
        return;
#ifdef CUZK_HAVE_CUDA
    if (k->dev) {
        cuzk_cuda_key_dev_free((cuzk_cuda_key_dev_t *)k->dev);
        free(k->dev);
    }
#endif
    groth16_key_free(&k->key);
    memset(k, 0, sizeof *k);
}
