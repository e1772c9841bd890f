/* The one device interface: how a device (the CPU or a GPU) states what a
 * proof needs on it, makes the backends that prove there, and keeps or
 * drops what they hold. The engine knows devices only through this; the
 * providers live with their backends (backend_cpu.h: cpu_device_open,
 * cuda_device.h: cuda_device_open) and device_open.h picks one by kind.
 *
 * The device decides nothing twice: plan() says which layout a proof takes
 * under a budget and what it costs; the engine admits one plan; the backend
 * then proves in exactly that layout (backend.h's device_admit_t) and fails
 * rather than pick another.
 *
 * Rules: outputs first, err last and optional; a device_t is copied by its
 * users (name included) and its ctx must outlive them. */
#ifndef CUZK_DEVICE_H
#define CUZK_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/backend.h"
#include "cuzk/circuit.h"
#include "cuzk/pk.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What proves: parsed once from "cpu" / "cuda" (device_kind_parse). */
typedef enum device_kind {
    DEVICE_AUTO = 0, /* cuda when this build has it and a GPU is present, else cpu */
    DEVICE_CPU = 1,
    DEVICE_CUDA = 2,
} device_kind;

/* "cpu", "cuda"; NULL or "auto" is DEVICE_AUTO. CUZK_ERR_ARG (naming the
 * word and the choices) otherwise. */
cuzk_status device_kind_parse(device_kind *out, const char *s, cuzk_error_t *err);
/* "auto", "cpu", "cuda"; "invalid" otherwise. Never NULL. */
const char *device_kind_str(int kind);

/* "resident", "streamed", "lean"; "invalid" otherwise. Never NULL. */
const char *device_layout_str(int layout);

/* A plan: the layout and its bytes on the device. resident: what its
 * backends keep across proofs with the key (a resident layout's key and
 * circuit; a streamed one's circuit and chunk buffers; 0: nothing, the
 * proof travels), reserved while the engine keeps the key there; scratch:
 * one proof's peak besides. */
typedef struct device_plan {
    device_layout layout;
    size_t resident, scratch;
} device_plan_t;

/* Which worker a backend serves: a regular one, or the engine's critical
 * lane (engine_config_t.critical_lane), whose proofs run beside the
 * regular workers' and must not queue behind their work on the device: a
 * GPU gives the lane's streams its highest priority, so its kernels'
 * blocks are scheduled ahead of the running proofs' as SMs free up. */
typedef enum device_role {
    DEVICE_ROLE_REGULAR = 0,
    DEVICE_ROLE_CRITICAL = 1,
} device_role;

/* How far a load got: done of total bytes. */
typedef void (*device_progress_fn)(void *pctx, uint64_t done, uint64_t total);

typedef struct device {
    const char *name;     /* for messages and stats ("cpu", "cuda:0") */
    size_t vram_capacity; /* the device's budget, bytes (host memory for the CPU) */
    int workers;          /* proofs in flight at once, each with its own backend (1..64) */
    void *ctx;
    /* Makes one backend for this device (device: its index in the engine's
     * config) for a worker of that role. Called on the thread that will use
     * it, lazily, and again after a failed proof. */
    cuzk_status (*backend_new)(void *ctx, int device, device_role role, groth16_backend_t **out,
                               cuzk_error_t *err);
    void (*backend_free)(void *ctx, groth16_backend_t *be);
    /* The plan for a proof with pk and c under budget: the resident layout
     * when the whole fits, else the cheapest that does (a device that can
     * stream). CUZK_ERR_NOMEM (with the numbers) when none fits. */
    cuzk_status (*plan)(void *ctx, device_plan_t *out, const groth16_pk_t *pk, const circuit_t *c,
                        size_t budget, cuzk_error_t *err);
    /* Optional (NULL: nothing): drop what be holds on the device. */
    void (*evict)(void *ctx, groth16_backend_t *be);
    /* Optional (NULL: none): host memory this device copies from fastest
     * (page-locked), for witness buffers. NULL from host_alloc: ordinary
     * memory. */
    void *(*host_alloc)(void *ctx, size_t bytes);
    void (*host_free)(void *ctx, void *p, size_t bytes);
    /* Its backends have msms_packed (backend.h): witnesses may reach them
     * packed (engine_config_t.witness_pack). */
    int takes_packed;
    /* Optional (NULL: a preload only reserves): makes be hold pk and c on
     * the device now, the load the first proof with them would do,
     * reporting progress(pctx, done, total) in bytes as it goes (done
     * never decreasing; no call at all is allowed). */
    cuzk_status (*warm)(void *ctx, groth16_backend_t *be, const groth16_pk_t *pk,
                        const circuit_t *c, device_progress_fn progress, void *pctx,
                        cuzk_error_t *err);
} device_t;

#ifdef __cplusplus
}
#endif
#endif
