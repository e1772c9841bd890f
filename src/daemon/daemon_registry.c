/* The circuit registry (include/cuzk/daemon.h; state and locks:
 * daemon_internal.h).
 *
 * DESIGN. One entry per loaded or loading key, in a list guarded by
 * reg.mu. A load runs outside the lock (the entry is LOADING meanwhile;
 * other users of that id wait on reg.cv); its files are mapped by their
 * loaders (zkey_open, bellperson_params_open), only the circuit is read
 * into memory (ccs_read_file, circuit_from_zkey). What a load made lives
 * in one dmn_loaded_t that the engine key's destroy callback frees, so the
 * files stay mapped as long as any job holds the key, even after an evict
 * dropped the registry's reference. Submitters hold a "use" (users) from
 * dmn_registry_get until their engine_submit returned, which is what makes
 * the evict check (no use, no engine reference but ours) race-free: a job
 * can only take an engine reference inside a use.
 *
 * Filecoin keys are entries like the others, named by their parameter
 * stem: the .params mapped, the .vk read and compared with the .params'
 * own, the circuit from fil_circuit_load (recorded once, then read from
 * its cache file beside the parameters, the name `cuzk filecoin prove`
 * uses, so the CLI and the daemon share the cache). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/bellperson.h"
#include "cuzk/ccs.h"
#include "cuzk/filecoin_params.h"
#include "cuzk/filecoin_prove.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/key_load.h"
#include "cuzk/request.h"
#include "daemon/daemon_internal.h"

const char *daemon_key_state_str(int state)
{
    static const char *const names[] = {"on_disk", "loading", "loaded"};
    return state >= 0 && state <= DAEMON_KEY_LOADED ? names[state] : "invalid";
}

/* ---- files ---- */

typedef struct key_files {
    groth16_convention format;
    char path[2][CONFIG_PATH_MAX]; /* .zkey; or .params and .ccs (Filecoin: .params and .vk) */
    uint64_t size[2];
    unsigned n;
    uint64_t bytes;
    /* Filecoin: the circuit to record, and its cache file */
    int fil;
    fil_circuit_kind kind;
    uint64_t sector_size;
    fil_api_version api;
    char ccs[CONFIG_PATH_MAX];
} key_files_t;

static int regular_file(const char *path, uint64_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    *size = (uint64_t)st.st_size;
    return 1;
}

/* dir/id.ext into out (CONFIG_PATH_MAX bytes); 0 when it does not fit. */
static int make_path(char *out, const dmn_registry_t *r, const char *id, const char *ext)
{
    size_t a = strlen(r->dir), b = strlen(id), c = strlen(ext);
    if (a + 1 + b + c >= CONFIG_PATH_MAX)
        return 0;
    memcpy(out, r->dir, a);
    out[a] = '/';
    memcpy(out + a + 1, id, b);
    memcpy(out + a + 1 + b, ext, c + 1);
    return 1;
}

/* Which files make id: <id>.zkey first, else <id>.params with <id>.ccs. */
static cuzk_status key_locate(key_files_t *f, const dmn_registry_t *r, const char *id,
                              cuzk_error_t *err)
{
    memset(f, 0, sizeof *f);
    if (!make_path(f->path[0], r, id, ".params") || !make_path(f->path[1], r, id, ".zkey"))
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit '%s': path too long", id);
    if (regular_file(f->path[1], &f->size[0])) {
        memmove(f->path[0], f->path[1], sizeof f->path[0]);
        f->format = GROTH16_SNARKJS;
        f->n = 1;
        f->bytes = f->size[0];
        return CUZK_OK;
    }
    int have_params = regular_file(f->path[0], &f->size[0]);
    make_path(f->path[1], r, id, ".ccs");
    int have_ccs = regular_file(f->path[1], &f->size[1]);
    if (have_params && have_ccs) {
        f->format = GROTH16_BELLPERSON;
        f->n = 2;
        f->bytes = f->size[0] + f->size[1];
        return CUZK_OK;
    }
    if (have_params)
        return cuzk_error_set(err, CUZK_ERR_ARG, "circuit '%s': %s.params without %s.ccs in %s", id,
                              id, id, r->dir);
    return cuzk_error_set(err, CUZK_ERR_ARG,
                          "unknown circuit '%s' (no %s.zkey, or %s.params with %s.ccs, in %s)", id,
                          id, id, id, r->dir);
}

/* Upstream cuzk's circuit ids (its srs_manager CircuitId), under which
 * Curio preloads and GetStatus lists the Filecoin keys; their files are
 * the v28 parameters of the kind and size (API 1.1: the same files as
 * 1.0). A Filecoin key of another size is known by its file stem. */
static const struct fil_id {
    const char *id;
    fil_circuit_kind kind;
    uint64_t sector_size;
} FIL_IDS[] = {
    {"porep-32g", FIL_CIRCUIT_POREP, 32ull << 30},
    {"porep-64g", FIL_CIRCUIT_POREP, 64ull << 30},
    {"wpost-32g", FIL_CIRCUIT_WINDOW_POST, 32ull << 30},
    {"winning-32g", FIL_CIRCUIT_WINNING_POST, 32ull << 30},
    {"snap-32g", FIL_CIRCUIT_SNAP_DEALS, 32ull << 30},
    {"snap-64g", FIL_CIRCUIT_SNAP_DEALS, 64ull << 30},
};
#define N_FIL_IDS (sizeof FIL_IDS / sizeof FIL_IDS[0])

static const struct fil_id *fil_id_find(const char *id)
{
    for (size_t i = 0; i < N_FIL_IDS; i++)
        if (!strcmp(FIL_IDS[i].id, id))
            return &FIL_IDS[i];
    return NULL;
}

/* The registry id of a Filecoin key: the upstream id of its kind and size
 * when its files are that id's, else its stem. */
static const char *fil_key_id(const char *stem, fil_circuit_kind kind, uint64_t sector_size)
{
    for (size_t i = 0; i < N_FIL_IDS; i++) {
        char s[FIL_PARAMS_STEM_MAX];
        if (FIL_IDS[i].kind == kind && FIL_IDS[i].sector_size == sector_size &&
            fil_params_stem(s, sizeof s, kind, sector_size, FIL_API_1_1, NULL) == CUZK_OK &&
            !strcmp(s, stem))
            return FIL_IDS[i].id;
    }
    return stem;
}

/* A Filecoin key's files: <stem>.params and <stem>.vk in fil_dir (both
 * must be there: CUZK_ERR_ARG naming the missing one), the circuit cache
 * beside them (made on first use). */
static cuzk_status fil_locate_at(key_files_t *f, const dmn_registry_t *r, const char *stem,
                                 fil_circuit_kind kind, uint64_t sector_size, fil_api_version api,
                                 cuzk_error_t *err)
{
    memset(f, 0, sizeof *f);
    cuzk_error_t e = {0};
    if (fil_params_path(f->path[0], sizeof f->path[0], r->fil_dir, stem, "params", 1, &e) !=
            CUZK_OK ||
        fil_params_path(f->path[1], sizeof f->path[1], r->fil_dir, stem, "vk", 1, &e) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s", e.msg); /* names the file */
    int n = snprintf(f->ccs, sizeof f->ccs, "%s/%s.cuzk-%s.ccs", r->fil_dir, stem,
                     FIL_CIRCUIT_CACHE_REV);
    if (n < 0 || (size_t)n >= sizeof f->ccs)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: path too long", stem);
    if (!regular_file(f->path[0], &f->size[0]) || !regular_file(f->path[1], &f->size[1]))
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: not a regular file", f->path[0]);
    f->format = GROTH16_BELLPERSON;
    f->n = 2;
    f->bytes = f->size[0] + f->size[1];
    f->fil = 1;
    f->kind = kind;
    f->sector_size = sector_size;
    f->api = api;
    return CUZK_OK;
}

static cuzk_status fil_locate(key_files_t *f, const dmn_registry_t *r, const fil_job_t *job,
                              cuzk_error_t *err)
{
    return fil_locate_at(f, r, fil_job_param_stem(job), fil_job_kind(job), fil_job_sector_size(job),
                         fil_job_api(job), err);
}

/* The files of upstream id x. */
static cuzk_status fil_locate_id(key_files_t *f, const dmn_registry_t *r, const struct fil_id *x,
                                 cuzk_error_t *err)
{
    char stem[FIL_PARAMS_STEM_MAX];
    cuzk_status st = fil_params_stem(stem, sizeof stem, x->kind, x->sector_size, FIL_API_1_1, err);
    if (st != CUZK_OK)
        return st;
    return fil_locate_at(f, r, stem, x->kind, x->sector_size, FIL_API_1_1, err);
}

cuzk_status dmn_registry_check_fil(dmn_registry_t *r, const fil_job_t *job, cuzk_error_t *err)
{
    key_files_t f;
    return fil_locate(&f, r, job, err);
}

/* ---- loading ---- */

typedef struct dmn_loaded {
    groth16_convention format;
    zkey_t z;
    bellperson_params_t p;
    circuit_t c;
    groth16_pk_t pk;
} dmn_loaded_t;

/* The engine key's destroy callback: runs once, when the last reference
 * (the registry's or a job's) is gone. Takes no lock. */
static void loaded_free(void *ctx)
{
    dmn_loaded_t *l = ctx;
    groth16_pk_release(&l->pk);
    circuit_free(&l->c);
    zkey_close(&l->z);
    bellperson_params_close(&l->p);
    free(l);
}

static void set_progress(dmn_registry_t *r, dmn_key_t *k, uint64_t bytes)
{
    pthread_mutex_lock(&r->mu);
    k->loaded_bytes = bytes;
    pthread_mutex_unlock(&r->mu);
}

static cuzk_status prefixed(cuzk_error_t *err, const char *id, cuzk_status st,
                            const cuzk_error_t *inner)
{
    return cuzk_error_set(err, st, "circuit '%s': %s", id, inner->msg);
}

static int vk_same(const groth16_vk_t *a, const groth16_vk_t *b)
{
    if (a->n_ic != b->n_ic || !g1_affine_equal(&a->alpha_g1, &b->alpha_g1) ||
        !g2_affine_equal(&a->beta_g2, &b->beta_g2) ||
        !g2_affine_equal(&a->gamma_g2, &b->gamma_g2) ||
        !g2_affine_equal(&a->delta_g2, &b->delta_g2))
        return 0;
    for (size_t i = 0; i < a->n_ic; i++)
        if (!g1_affine_equal(&a->ic[i], &b->ic[i]))
            return 0;
    return 1;
}

/* A Filecoin key: the .params mapped, its .vk checked against it (a
 * verifier holds the .vk: proofs must verify there), the circuit recorded
 * or read from its cache, and the key's sizes checked against the circuit. */
static cuzk_status fil_key_load(dmn_loaded_t *l, dmn_registry_t *r, dmn_key_t *k,
                                const key_files_t *f, cuzk_error_t *err)
{
    groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    cuzk_status st =
        bellperson_params_open(&l->p, f->path[0], BELLPERSON_CHECK_KEY, r->threads, err);
    if (st != CUZK_OK)
        return st;
    set_progress(r, k, f->size[0]);
    if ((st = bellperson_vk_load(&vk, f->path[1], err)) != CUZK_OK)
        return st;
    int same = vk_same(&vk, &l->p.vk);
    groth16_vk_free(&vk);
    if (!same)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s is not the verifying key of %s", f->path[1],
                              f->path[0]);
    fil_circuit_source src;
    st = fil_circuit_load(&l->c, &src, f->kind, f->sector_size, f->api, f->ccs, r->threads, err);
    if (st != CUZK_OK)
        return st;
    if (l->p.vk.n_ic != (size_t)l->c.n_public + 1)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s has %zu IC points; the %s circuit has %u inputs", f->path[0],
                              l->p.vk.n_ic, fil_circuit_kind_str(f->kind), l->c.n_public);
    return groth16_pk_from_params(&l->pk, &l->p, l->c.n_vars, err);
}

static cuzk_status key_load(dmn_registry_t *r, dmn_key_t *k, const key_files_t *f,
                            engine_key_t **ek, size_t *n_public, cuzk_error_t *err)
{
    cuzk_error_t e = {0};
    cuzk_status st;
    dmn_loaded_t *l = calloc(1, sizeof *l);
    if (!l)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit '%s': no memory", k->id);
    l->format = f->format;
    engine_key_spec_t spec = {.name = k->id, .pk = &l->pk, .circuit = &l->c};
    if (f->format == GROTH16_SNARKJS) {
        st = zkey_open(&l->z, f->path[0], ZKEY_CHECK_HEADER, r->threads, &e);
        if (st == CUZK_OK) {
            set_progress(r, k, f->size[0]);
            st = circuit_from_zkey(&l->c, &l->z, &e);
        }
        if (st == CUZK_OK)
            st = groth16_pk_from_zkey(&l->pk, &l->z, &e);
        /* a zkey's circuit has no C: a bad witness fails at verification */
    } else if (f->fil) {
        st = fil_key_load(l, r, k, f, &e); /* checked as made: dmn_fil_witness */
        /* WinningPoSt runs CRITICAL (daemon_kind_priority): a preload warms
         * the critical lane with it too */
        spec.critical = f->kind == FIL_CIRCUIT_WINNING_POST;
    } else {
        st = bellperson_params_open(&l->p, f->path[0], BELLPERSON_CHECK_KEY, r->threads, &e);
        if (st == CUZK_OK) {
            set_progress(r, k, f->size[0]);
            st = ccs_read_file(&l->c, f->path[1], r->threads, &e);
        }
        if (st == CUZK_OK)
            st = groth16_pk_from_params(&l->pk, &l->p, l->c.n_vars, &e);
        spec.check = &l->c; /* names the broken constraint of a bad witness */
    }
    if (st == CUZK_OK) {
        *n_public = l->c.n_public;
        spec.destroy = loaded_free;
        spec.destroy_ctx = l;
        st = engine_key_register(r->engine, ek, &spec, &e);
    }
    if (st != CUZK_OK) {
        loaded_free(l);
        return prefixed(err, k->id, st, &e);
    }
    return CUZK_OK;
}

/* ---- entries ---- */

static dmn_key_t *key_find(const dmn_registry_t *r, const char *id)
{
    for (dmn_key_t *k = r->keys; k; k = k->next)
        if (!strcmp(k->id, id))
            return k;
    return NULL;
}

static void key_unlink(dmn_registry_t *r, dmn_key_t *k)
{
    for (dmn_key_t **p = &r->keys; *p; p = &(*p)->next)
        if (*p == k) {
            *p = k->next;
            return;
        }
}

/* Engine references beyond the registry's own: jobs in the engine. */
static unsigned key_job_refs(const dmn_registry_t *r, const dmn_key_t *k)
{
    engine_key_info_t ki;
    if (!k->ek || engine_key_status(r->engine, &ki, k->ek, NULL) != CUZK_OK)
        return 0;
    return ki.refs > 0 ? ki.refs - 1 : 0;
}

/* Drops an idle LOADED entry, reg.mu held (the destroy callback it may
 * run takes no lock). */
static void key_drop(dmn_registry_t *r, dmn_key_t *k)
{
    key_unlink(r, k);
    if (r->on_drop)
        r->on_drop(r->drop_ctx, k->id);
    engine_key_evict(r->engine, k->ek, -1, NULL);
    engine_key_release(r->engine, k->ek);
    free(k);
}

/* srs.max_resident: evicts idle keys, least recently used first, until
 * `bytes` more fit. reg.mu held. */
static cuzk_status make_room(dmn_registry_t *r, const char *id, uint64_t bytes, cuzk_error_t *err)
{
    if (!r->max_resident)
        return CUZK_OK;
    if (bytes > r->max_resident)
        return cuzk_error_set(err, CUZK_ERR_CAPACITY,
                              "circuit '%s': %llu bytes exceed srs.max_resident (%llu)", id,
                              (unsigned long long)bytes, (unsigned long long)r->max_resident);
    for (;;) {
        uint64_t used = 0;
        dmn_key_t *victim = NULL;
        for (dmn_key_t *k = r->keys; k; k = k->next) {
            used += k->bytes;
            if (k->state == DAEMON_KEY_LOADED && !k->users && !key_job_refs(r, k) &&
                (!victim || k->last_used_ns < victim->last_used_ns))
                victim = k;
        }
        if (used + bytes <= r->max_resident)
            return CUZK_OK;
        if (!victim)
            return cuzk_error_set(err, CUZK_ERR_BUSY,
                                  "circuit '%s': srs.max_resident (%llu bytes) is held by keys in "
                                  "use (%llu bytes)",
                                  id, (unsigned long long)r->max_resident,
                                  (unsigned long long)used);
        key_drop(r, victim);
    }
}

cuzk_status dmn_registry_init(dmn_registry_t *r, engine_t *e, const cuzk_config_t *cfg,
                              cuzk_error_t *err)
{
    memset(r, 0, sizeof *r);
    r->engine = e;
    memcpy(r->dir, cfg->srs.dir, sizeof r->dir);
    snprintf(r->fil_dir, sizeof r->fil_dir, "%s",
             cfg->srs.filecoin_params[0] ? cfg->srs.filecoin_params : fil_params_dir_default());
    r->max_resident = cfg->srs.max_resident;
    r->threads = cfg->synthesis.prove_threads;
    if (pthread_mutex_init(&r->mu, NULL) != 0)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: registry mutex");
    if (pthread_cond_init(&r->cv, NULL) != 0) {
        pthread_mutex_destroy(&r->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon: registry condition variable");
    }
    return CUZK_OK;
}

void dmn_registry_fini(dmn_registry_t *r, int engine_gone)
{
    while (r->keys) {
        dmn_key_t *k = r->keys;
        r->keys = k->next;
        if (!engine_gone && k->ek)
            engine_key_release(r->engine, k->ek);
        free(k);
    }
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
}

cuzk_status dmn_registry_check(dmn_registry_t *r, groth16_convention *format, const char *id,
                               cuzk_error_t *err)
{
    cuzk_status st = request_circuit_id_check(id, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&r->mu);
    dmn_key_t *k = key_find(r, id);
    if (k)
        *format = k->format;
    pthread_mutex_unlock(&r->mu);
    if (k)
        return CUZK_OK;
    key_files_t f;
    st = key_locate(&f, r, id, err);
    *format = f.format;
    return st;
}

/* dmn_registry_get for a circuit id (job NULL) or a Filecoin job's stem. */
static cuzk_status registry_get(dmn_registry_t *r, dmn_key_t **out, uint64_t *waited_ms,
                                const char *id, const fil_job_t *job, cuzk_error_t *err)
{
    *out = NULL;
    if (waited_ms)
        *waited_ms = 0;
    cuzk_status st = job ? CUZK_OK : request_circuit_id_check(id, err);
    if (st != CUZK_OK)
        return st;
    if (strlen(id) > DAEMON_KEY_ID_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "key id '%.40s...' is too long", id);
    uint64_t t0 = ledger_clock_ns();
    pthread_mutex_lock(&r->mu);
    dmn_key_t *k;
    while ((k = key_find(r, id)) && k->state == DAEMON_KEY_LOADING)
        pthread_cond_wait(&r->cv, &r->mu);
    if (k) {
        k->users++;
        k->last_used_ns = ledger_clock_ns();
        pthread_mutex_unlock(&r->mu);
        if (waited_ms)
            *waited_ms = (ledger_clock_ns() - t0) / 1000000u;
        *out = k;
        return CUZK_OK;
    }
    key_files_t f;
    const struct fil_id *x = job ? NULL : fil_id_find(id);
    if ((st = job ? fil_locate(&f, r, job, err)
              : x ? fil_locate_id(&f, r, x, err)
                  : key_locate(&f, r, id, err)) != CUZK_OK ||
        (st = make_room(r, id, f.bytes, err)) != CUZK_OK) {
        pthread_mutex_unlock(&r->mu);
        return st;
    }
    k = calloc(1, sizeof *k);
    if (!k) {
        pthread_mutex_unlock(&r->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit '%s': no memory", id);
    }
    memcpy(k->id, id, strlen(id) + 1);
    k->format = f.format;
    k->filecoin = f.fil;
    k->state = DAEMON_KEY_LOADING;
    k->bytes = f.bytes;
    k->users = 1;
    k->next = r->keys;
    r->keys = k;
    pthread_mutex_unlock(&r->mu);

    engine_key_t *ek = NULL;
    size_t n_public = 0;
    st = key_load(r, k, &f, &ek, &n_public, err);
    uint64_t t1 = ledger_clock_ns();
    pthread_mutex_lock(&r->mu);
    if (st != CUZK_OK) {
        key_unlink(r, k);
        free(k);
        k = NULL;
    } else {
        k->ek = ek;
        k->n_public = n_public;
        k->state = DAEMON_KEY_LOADED;
        k->loaded_bytes = k->bytes;
        k->load_ms = (t1 - t0) / 1000000u;
        k->last_used_ns = t1;
    }
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (waited_ms)
        *waited_ms = (t1 - t0) / 1000000u;
    *out = k;
    return st;
}

cuzk_status dmn_registry_get(dmn_registry_t *r, dmn_key_t **out, uint64_t *waited_ms,
                             const char *id, cuzk_error_t *err)
{
    return registry_get(r, out, waited_ms, id, NULL, err);
}

cuzk_status dmn_registry_get_fil(dmn_registry_t *r, dmn_key_t **out, uint64_t *waited_ms,
                                 const fil_job_t *job, cuzk_error_t *err)
{
    return registry_get(
        r, out, waited_ms,
        fil_key_id(fil_job_param_stem(job), fil_job_kind(job), fil_job_sector_size(job)), job, err);
}

size_t dmn_key_n_public(const dmn_key_t *k)
{
    return k->n_public;
}

void dmn_registry_put(dmn_registry_t *r, dmn_key_t *k)
{
    if (!k)
        return;
    pthread_mutex_lock(&r->mu);
    k->users--;
    k->last_used_ns = ledger_clock_ns();
    pthread_mutex_unlock(&r->mu);
}

/* reg.mu held. */
static void key_info_fill(daemon_key_info_t *out, const dmn_registry_t *r, const dmn_key_t *k)
{
    memset(out, 0, sizeof *out);
    memcpy(out->circuit_id, k->id, sizeof out->circuit_id);
    out->format = k->format;
    out->state = k->state;
    out->bytes = k->bytes;
    out->loaded_bytes = k->loaded_bytes;
    out->load_ms = k->load_ms;
    out->jobs = k->users;
    engine_key_info_t ki;
    if (k->ek && engine_key_status(r->engine, &ki, k->ek, NULL) == CUZK_OK) {
        out->jobs += ki.refs > 0 ? ki.refs - 1 : 0;
        for (unsigned dv = 0; dv < ENGINE_MAX_DEVICES; dv++) {
            out->resident[dv] = ki.resident[dv];
            out->n_resident += ki.resident[dv] ? 1u : 0u;
            out->resident_bytes += ki.resident_bytes[dv];
            out->device_load[dv] = ki.warm[dv];
            out->device_load_done[dv] = ki.warm_done[dv];
            out->device_load_total[dv] = ki.warm_total[dv];
            out->device_load_ms[dv] = ki.warm_ms[dv];
            out->device_loaded_bytes += ki.warm_done[dv];
            out->device_bytes += ki.warm_total[dv];
        }
    }
}

cuzk_status dmn_registry_list(dmn_registry_t *r, daemon_key_info_t **out, size_t *n,
                              cuzk_error_t *err)
{
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&r->mu);
    size_t count = 0;
    for (dmn_key_t *k = r->keys; k; k = k->next)
        count++;
    /* and the upstream Filecoin ids whose files are there, not loaded */
    daemon_key_info_t *a = calloc(count + N_FIL_IDS, sizeof *a);
    if (!a) {
        pthread_mutex_unlock(&r->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "daemon_keys: no memory");
    }
    size_t i = 0;
    for (dmn_key_t *k = r->keys; k; k = k->next)
        key_info_fill(&a[i++], r, k);
    for (size_t j = 0; j < N_FIL_IDS; j++) {
        key_files_t f;
        if (key_find(r, FIL_IDS[j].id) || fil_locate_id(&f, r, &FIL_IDS[j], NULL) != CUZK_OK)
            continue;
        daemon_key_info_t *ki = &a[i++];
        snprintf(ki->circuit_id, sizeof ki->circuit_id, "%s", FIL_IDS[j].id);
        ki->format = GROTH16_BELLPERSON;
        ki->state = DAEMON_KEY_ON_DISK;
        ki->bytes = f.bytes;
    }
    pthread_mutex_unlock(&r->mu);
    if (i == 0) {
        free(a);
        a = NULL;
    }
    *out = a;
    *n = i;
    return CUZK_OK;
}

/* ---- the public registry calls ---- */

cuzk_status daemon_key_info(daemon_t *d, daemon_key_info_t *out, const char *circuit_id,
                            cuzk_error_t *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!d || !out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_key_info: NULL argument");
    cuzk_status st = request_circuit_id_check(circuit_id, err);
    if (st != CUZK_OK)
        return st;
    dmn_registry_t *r = &d->reg;
    pthread_mutex_lock(&r->mu);
    dmn_key_t *k = key_find(r, circuit_id);
    if (k) {
        key_info_fill(out, r, k);
        pthread_mutex_unlock(&r->mu);
        return CUZK_OK;
    }
    pthread_mutex_unlock(&r->mu);
    key_files_t f;
    const struct fil_id *x = fil_id_find(circuit_id);
    if ((st = x ? fil_locate_id(&f, r, x, err) : key_locate(&f, r, circuit_id, err)) != CUZK_OK)
        return st;
    memcpy(out->circuit_id, circuit_id, strlen(circuit_id) + 1);
    out->format = f.format;
    out->state = DAEMON_KEY_ON_DISK;
    out->bytes = f.bytes;
    return CUZK_OK;
}

cuzk_status daemon_keys(daemon_t *d, daemon_key_info_t **keys, size_t *n, cuzk_error_t *err)
{
    if (keys)
        *keys = NULL;
    if (n)
        *n = 0;
    if (!d || !keys || !n)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_keys: NULL argument");
    return dmn_registry_list(&d->reg, keys, n, err);
}

cuzk_status daemon_preload(daemon_t *d, daemon_key_info_t *info, int *already_loaded,
                           const char *circuit_id, cuzk_error_t *err)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (already_loaded)
        *already_loaded = 0;
    if (!d)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_preload: NULL argument");
    cuzk_status st = request_circuit_id_check(circuit_id, err);
    if (st != CUZK_OK)
        return st;
    dmn_registry_t *r = &d->reg;
    pthread_mutex_lock(&r->mu);
    dmn_key_t *k = key_find(r, circuit_id);
    int was = k && k->state == DAEMON_KEY_LOADED;
    pthread_mutex_unlock(&r->mu);
    if ((st = dmn_registry_get(r, &k, NULL, circuit_id, err)) != CUZK_OK)
        return st;
    /* Device residency is best effort: a device without room streams. */
    for (unsigned dv = 0; dv < d->n_devices; dv++) {
        cuzk_error_t e = {0};
        if (engine_key_preload(d->engine, k->ek, (int)dv, &e) != CUZK_OK)
            dmn_log(d, CONFIG_LOG_INFO, "preload %s: device %u: %s (it will stream)", circuit_id,
                    dv, e.msg);
    }
    if (info) {
        pthread_mutex_lock(&r->mu);
        key_info_fill(info, r, k);
        if (info->jobs)
            info->jobs--; /* not this call's own use */
        pthread_mutex_unlock(&r->mu);
    }
    dmn_registry_put(r, k);
    if (already_loaded)
        *already_loaded = was;
    return CUZK_OK;
}

cuzk_status daemon_evict(daemon_t *d, int *was_loaded, uint64_t *freed_bytes,
                         const char *circuit_id, cuzk_error_t *err)
{
    if (was_loaded)
        *was_loaded = 0;
    if (freed_bytes)
        *freed_bytes = 0;
    if (!d)
        return cuzk_error_set(err, CUZK_ERR_ARG, "daemon_evict: NULL argument");
    cuzk_status st = request_circuit_id_check(circuit_id, err);
    if (st != CUZK_OK)
        return st;
    dmn_registry_t *r = &d->reg;
    pthread_mutex_lock(&r->mu);
    dmn_key_t *k = key_find(r, circuit_id);
    if (!k) {
        pthread_mutex_unlock(&r->mu);
        return CUZK_OK;
    }
    unsigned jobs = k->users + key_job_refs(r, k);
    if (k->state == DAEMON_KEY_LOADING)
        st = cuzk_error_set(err, CUZK_ERR_BUSY, "circuit '%s' is loading", circuit_id);
    else if (jobs)
        st = cuzk_error_set(err, CUZK_ERR_BUSY, "circuit '%s' is in use by %u job%s", circuit_id,
                            jobs, jobs == 1 ? "" : "s");
    uint64_t bytes = k->bytes;
    if (st == CUZK_OK)
        key_drop(r, k);
    pthread_mutex_unlock(&r->mu);
    if (st != CUZK_OK)
        return st;
    dmn_log(d, CONFIG_LOG_INFO, "evicted %s (%llu bytes)", circuit_id, (unsigned long long)bytes);
    if (was_loaded)
        *was_loaded = 1;
    if (freed_bytes)
        *freed_bytes = bytes;
    return CUZK_OK;
}
