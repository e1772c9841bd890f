/* Keys and their residency on devices (see include/cuzk/engine.h).
 *
 * Who owns what: every field of an engine_key_t but its spec (read-only once
 * registered) is guarded by engine_t.mu. A key is resident on a device while
 * key->dev[d].resv holds a persistent reservation on that device's ledger;
 * in_use counts the partitions of the key assigned to the device's workers,
 * and a key is evicted there only while in_use == 0. refs counts the
 * caller's reference and one per unsettled job; at 0 the key leaves every
 * device and goes on the dead list, whose destructors eng_unlock runs after
 * dropping the mutex. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"

void eng_key_ref(engine_key_t *k)
{
    k->refs++;
}

static int mask_empty(const uint64_t m[ENG_MASK_WORDS])
{
    for (int i = 0; i < ENG_MASK_WORDS; i++)
        if (m[i])
            return 0;
    return 1;
}

void eng_key_evict_dev(engine_t *e, engine_key_t *k, eng_device_t *dev)
{
    key_dev_t *kd = &k->dev[dev->index];
    /* the workers whose backends may hold k drop it before anything else
     * (the lane's too: its backend holds keys like any other) */
    uint64_t mask[ENG_MASK_WORDS] = {0};
    for (int w = 0; w < dev->n_workers; w++)
        if (dev->workers[w].last_key == k) {
            dev->workers[w].evict_pending = 1;
            dev->workers[w].last_key = NULL;
            mask[w / 64] |= 1ull << (w % 64);
        }
    int held = !mask_empty(mask);
    if (kd->resv.ledger) {
        dev->evictions++;
        eng_drain_t *slot = NULL;
        for (int i = 0; held && i < dev->n_workers && !slot; i++)
            if (!dev->drains[i].resv.ledger)
                slot = &dev->drains[i];
        CUZK_ASSERT(!held || slot);
        if (slot && ledger_demote(&kd->resv, NULL) == CUZK_OK) {
            slot->resv = kd->resv;
            memcpy(slot->mask, mask, sizeof slot->mask);
            kd->resv = LEDGER_RESV_EMPTY;
            dev->n_drains++;
        } else {
            ledger_release(&kd->resv);
        }
    }
    if (held)
        pthread_cond_broadcast(&e->ready_cv); /* idle holders wake to drop it */
    /* a load done or failed is forgotten; a pending one is dropped by the
     * worker that finds it no longer resident (it holds a reference) */
    if (kd->warm == ENGINE_WARM_DONE || kd->warm == ENGINE_WARM_FAILED) {
        kd->warm = ENGINE_WARM_NONE;
        kd->warm_done = kd->warm_total = 0;
    }
    if (kd->lane_warm == ENGINE_WARM_DONE || kd->lane_warm == ENGINE_WARM_FAILED)
        kd->lane_warm = ENGINE_WARM_NONE;
}

void eng_worker_dropped(engine_t *e, eng_device_t *dev, int w)
{
    dev->workers[w].evict_pending = 0;
    int released = 0;
    uint64_t bit = 1ull << (w % 64);
    for (int i = 0; dev->n_drains && i < dev->n_workers; i++) {
        eng_drain_t *dr = &dev->drains[i];
        if (!dr->resv.ledger || !(dr->mask[w / 64] & bit))
            continue;
        dr->mask[w / 64] &= ~bit;
        if (mask_empty(dr->mask)) {
            ledger_release(&dr->resv);
            dev->n_drains--;
            released = 1;
        }
    }
    if (released)
        pthread_cond_broadcast(&e->ready_cv); /* a residency waiting for them */
}

void eng_key_unref(engine_t *e, engine_key_t *k)
{
    if (--k->refs > 0)
        return;
    for (unsigned d = 0; d < e->n_devs; d++)
        eng_key_evict_dev(e, k, &e->devs[d]);
    if (k->prev)
        k->prev->next = k->next;
    else
        e->keys = k->next;
    if (k->next)
        k->next->prev = k->prev;
    e->n_keys--;
    k->prev = NULL;
    k->next = e->dead_keys;
    e->dead_keys = k;
}

static engine_key_t *lru_idle(engine_t *e, const eng_device_t *dev, const engine_key_t *keep)
{
    engine_key_t *best = NULL;
    for (engine_key_t *k = e->keys; k; k = k->next) {
        const key_dev_t *kd = &k->dev[dev->index];
        if (k == keep || !kd->resv.ledger || kd->in_use)
            continue;
        if (!best || kd->last_used_ns < best->dev[dev->index].last_used_ns)
            best = k;
    }
    return best;
}

int eng_make_room(engine_t *e, eng_device_t *dev, const engine_key_t *keep, size_t need)
{
    ledger_stats_t ls;
    ledger_stats(&dev->ledger, &ls);
    size_t idle = 0;
    for (engine_key_t *k = e->keys; k; k = k->next) {
        const key_dev_t *kd = &k->dev[dev->index];
        if (k != keep && kd->resv.ledger && !kd->in_use)
            idle += kd->resv.bytes;
    }
    size_t free_now = ls.capacity - ls.reserved;
    if (need <= free_now)
        return 1;
    if (need > free_now + idle)
        return 0; /* evicting would not be enough: keep them */
    while (need > free_now) {
        engine_key_t *v = lru_idle(e, dev, keep);
        if (!v)
            return 0;
        free_now += v->dev[dev->index].resv.bytes;
        eng_key_evict_dev(e, v, dev);
    }
    return 1;
}

unsigned eng_evict_idle(engine_t *e, eng_device_t *dev, const engine_key_t *keep)
{
    unsigned n = 0;
    engine_key_t *v;
    while ((v = lru_idle(e, dev, keep)) != NULL) {
        eng_key_evict_dev(e, v, dev);
        n++;
    }
    return n;
}

int eng_others_in_use(const eng_device_t *dev, const engine_t *e, const engine_key_t *k)
{
    for (const engine_key_t *o = e->keys; o; o = o->next)
        if (o != k && o->dev[dev->index].in_use && o->dev[dev->index].resv.ledger)
            return 1;
    return 0;
}

cuzk_status eng_key_plan(engine_t *e, engine_key_t *k, eng_device_t *dev, cuzk_error_t *err)
{
    pthread_mutex_lock(&e->mu);
    int planned = k->dev[dev->index].planned;
    pthread_mutex_unlock(&e->mu);
    if (planned)
        return CUZK_OK;
    device_plan_t p;
    cuzk_status st =
        dev->d.plan(dev->d.ctx, &p, k->spec.pk, k->spec.circuit, dev->d.vram_capacity, err);
    if (st != CUZK_OK)
        return st;
    pthread_mutex_lock(&e->mu);
    key_dev_t *kd = &k->dev[dev->index];
    kd->planned = 1;
    kd->layout = p.layout;
    kd->resident = p.resident;
    kd->scratch = p.scratch;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

int eng_key_make_resident(engine_t *e, engine_key_t *k, eng_device_t *dev, cuzk_priority prio)
{
    key_dev_t *kd = &k->dev[dev->index];
    kd->last_used_ns = ledger_clock_ns();
    if (kd->resv.ledger)
        return 1;
    if (!kd->planned || kd->resident == 0)
        return 0; /* the plan streams even on an empty device */
    /* The key and one proof's scratch must fit beside the other keys, or
     * making it resident would only make its own partitions unable to run. */
    for (;;) {
        ledger_stats_t ls;
        ledger_stats(&dev->ledger, &ls);
        if (kd->resident + kd->scratch <= ls.capacity - ls.persistent)
            break;
        engine_key_t *v = lru_idle(e, dev, k);
        if (!v)
            return 0;
        eng_key_evict_dev(e, v, dev);
    }
    if (ledger_reserve_persistent(&dev->ledger, &kd->resv, kd->resident, prio, NULL) == CUZK_OK)
        return 1;
    return eng_make_room(e, dev, k, kd->resident) &&
           ledger_reserve_persistent(&dev->ledger, &kd->resv, kd->resident, prio, NULL) == CUZK_OK;
}

/* ---- the public key API ---- */

cuzk_status engine_key_register(engine_t *e, engine_key_t **out, const engine_key_spec_t *spec,
                                cuzk_error_t *err)
{
    if (out)
        *out = NULL;
    if (!e || !out || !spec || !spec->pk || !spec->circuit)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_key_register: NULL argument");
    const groth16_pk_t *pk = spec->pk;
    const circuit_t *c = spec->circuit;
    if (pk->conv != GROTH16_SNARKJS && pk->conv != GROTH16_BELLPERSON)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_key_register: unknown key convention %d",
                              (int)pk->conv);
    if (c->n_vars != pk->n_vars || c->n_public != pk->n_public ||
        c->n_rows > ((uint64_t)1 << pk->log_m) || pk->vk.n_ic != (size_t)pk->n_public + 1)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "engine_key_register: circuit has %u variables (%u public, %u rows), "
                              "key expects %u (%u public, domain 2^%u, %zu IC points)",
                              c->n_vars, c->n_public, c->n_rows, pk->n_vars, pk->n_public,
                              pk->log_m, pk->vk.n_ic);
    if (spec->check && spec->check->n_vars != pk->n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "engine_key_register: check circuit has %u variables, key %u",
                              spec->check->n_vars, pk->n_vars);
    if (spec->r1cs && spec->r1cs->n_wires != pk->n_vars)
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "engine_key_register: r1cs has %u wires, key %u variables",
                              spec->r1cs->n_wires, pk->n_vars);
    engine_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "engine_key_register: no memory");
    k->spec = *spec;
    k->spec.name = NULL;
    if (spec->name) {
        strncpy(k->name, spec->name, sizeof k->name - 1);
    }
    k->refs = 1;
    pthread_mutex_lock(&e->mu);
    k->next = e->keys;
    if (e->keys)
        e->keys->prev = k;
    e->keys = k;
    e->n_keys++;
    eng_unlock(e);
    *out = k;
    return CUZK_OK;
}

void engine_key_release(engine_t *e, engine_key_t *k)
{
    if (!e || !k)
        return;
    pthread_mutex_lock(&e->mu);
    eng_key_unref(e, k);
    eng_unlock(e);
}

static cuzk_status check_dev(const engine_t *e, int device, const char *who, cuzk_error_t *err)
{
    if (device < 0 || (unsigned)device >= e->n_devs)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s: no device %d (the engine has %u)", who,
                              device, e->n_devs);
    return CUZK_OK;
}

/* With the mutex: k resident on dev, waiting for evicted keys to leave
 * (their holders are idle workers, woken for it: a short wait). */
static int preload_resident(engine_t *e, engine_key_t *k, eng_device_t *dev)
{
    int ok;
    while (!(ok = eng_key_make_resident(e, k, dev, CUZK_PRIO_CRITICAL)) && dev->n_drains &&
           !e->stopping)
        eng_wait(e, &e->ready_cv);
    return ok;
}

/* A load to ask for: none pending, running or done. */
static int warm_wanted(engine_warm w)
{
    return w != ENGINE_WARM_PENDING && w != ENGINE_WARM_LOADING && w != ENGINE_WARM_DONE;
}

cuzk_status engine_key_preload(engine_t *e, engine_key_t *k, int device, cuzk_error_t *err)
{
    if (!e || !k)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_key_preload: NULL argument");
    cuzk_status st = check_dev(e, device, "engine_key_preload", err);
    if (st != CUZK_OK)
        return st;
    eng_device_t *dev = &e->devs[device];
    if ((st = eng_key_plan(e, k, dev, err)) != CUZK_OK)
        return st;
    pthread_mutex_lock(&e->mu);
    key_dev_t *kd = &k->dev[device];
    if (kd->resident == 0 && !kd->resv.ledger)
        st = cuzk_error_set(err, CUZK_ERR_CAPACITY,
                            "engine_key_preload: key '%s' does not fit device %s (%zu bytes): it "
                            "streams",
                            k->name, dev->name, dev->d.vram_capacity);
    else if (!preload_resident(e, k, dev)) {
        ledger_stats_t ls;
        ledger_stats(&dev->ledger, &ls);
        st = cuzk_error_set(err, kd->resident > ls.capacity ? CUZK_ERR_CAPACITY : CUZK_ERR_BUSY,
                            "engine_key_preload: key '%s' needs %zu bytes on device %s, %zu of "
                            "%zu free and not enough idle keys to evict",
                            k->name, kd->resident, dev->name, ls.capacity - ls.reserved,
                            ls.capacity);
    }
    if (st == CUZK_OK && dev->d.warm && warm_wanted(kd->warm)) {
        kd->warm = ENGINE_WARM_PENDING; /* an idle worker loads it */
        eng_key_ref(k);
        pthread_cond_broadcast(&e->ready_cv);
    }
    if (st == CUZK_OK && dev->d.warm && e->cfg.critical_lane && k->spec.critical &&
        warm_wanted(kd->lane_warm)) {
        kd->lane_warm = ENGINE_WARM_PENDING; /* and the lane's worker */
        eng_key_ref(k);
        pthread_cond_broadcast(&e->ready_cv);
    }
    eng_unlock(e);
    return st;
}

cuzk_status engine_key_evict(engine_t *e, engine_key_t *k, int device, cuzk_error_t *err)
{
    if (!e || !k)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_key_evict: NULL argument");
    if (device != -1) {
        cuzk_status st = check_dev(e, device, "engine_key_evict", err);
        if (st != CUZK_OK)
            return st;
    }
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&e->mu);
    for (unsigned d = 0; d < e->n_devs; d++) {
        if (device != -1 && (unsigned)device != d)
            continue;
        if (k->dev[d].in_use) {
            st = cuzk_error_set(err, CUZK_ERR_BUSY,
                                "engine_key_evict: key '%s' is in use on device %s (%u "
                                "partitions)",
                                k->name, e->devs[d].name, k->dev[d].in_use);
            continue;
        }
        eng_key_evict_dev(e, k, &e->devs[d]);
    }
    eng_unlock(e);
    return st;
}

cuzk_status engine_key_status(engine_t *e, engine_key_info_t *out, const engine_key_t *k,
                              cuzk_error_t *err)
{
    if (!e || !out || !k)
        return cuzk_error_set(err, CUZK_ERR_ARG, "engine_key_status: NULL argument");
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&e->mu);
    memcpy(out->name, k->name, sizeof out->name);
    out->refs = k->refs;
    for (unsigned d = 0; d < e->n_devs; d++) {
        out->resident[d] = k->dev[d].resv.ledger != NULL;
        out->resident_bytes[d] = k->dev[d].resv.bytes;
        out->in_use[d] = k->dev[d].in_use;
        out->warm[d] = k->dev[d].warm;
        out->warm_ms[d] = k->dev[d].warm_ms;
        out->warm_done[d] = k->dev[d].warm_done;
        out->warm_total[d] = k->dev[d].warm_total;
        out->lane_warm[d] = k->dev[d].lane_warm;
    }
    eng_unlock(e);
    return CUZK_OK;
}
