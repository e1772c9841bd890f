/* The demo's last step: a multi-partition proof of the PoRep-shaped
 * workload (gen.h, profile porep-32g at 2^12) through the proving engine
 * on whatever device is present (a GPU, else the CPU as a simulated
 * device), every partition verified in one batch by the engine, then the
 * batch checked again here and with a tampered public input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_util.h"
#include "cuzk/engine.h"
#include "cuzk/gen.h"
#include "cuzk/setup.h"

#define DEMO_LOG 12
#define DEMO_PARTS 3
#define DEMO_SEED 2026

/* Proves the job and checks its batch; 1 when all is as it should be. */
static int demo_engine_job(const groth16_pk_t *pk, const circuit_t *c, const fr_t *ws,
                           size_t n_vars, const groth16_vk_t *vk, const char **dev_name)
{
    cuzk_error_t err = {0};
    cli_device_t dctx;
    device_t dev;
    engine_t *e = NULL;
    engine_key_t *key = NULL;
    engine_result_t res;
    int ok = 0;
    memset(&res, 0, sizeof res);
    if (cli_device_open(&dev, &dctx, DEVICE_AUTO, 0, (size_t)4 << 30, 2, &err) != CUZK_OK) {
        printf("         no device: %s\n", err.msg);
        return 0;
    }
    *dev_name = device_kind_str(dctx.kind);
    engine_config_t cfg;
    engine_config_default(&cfg);
    cfg.devices = &dev;
    cfg.n_devices = 1;
    engine_key_spec_t ks;
    memset(&ks, 0, sizeof ks);
    ks.name = "porep-32g";
    ks.pk = pk;
    ks.circuit = c;
    ks.check = c;
    engine_witness_t w[DEMO_PARTS];
    for (int p = 0; p < DEMO_PARTS; p++)
        w[p] = (engine_witness_t){
            .form = ENGINE_WITNESS_FR, .w = ws + (size_t)p * n_vars, .n = n_vars};
    engine_job_spec_t spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = ENGINE_KIND_BELLPERSON;
    spec.priority = CUZK_PRIO_NORMAL;
    spec.witnesses = w;
    spec.n_partitions = DEMO_PARTS;
    engine_job_id_t id;
    cuzk_status st = engine_new(&e, &cfg, &err);
    if (st == CUZK_OK)
        st = engine_key_register(e, &key, &ks, &err);
    spec.key = key;
    if (st == CUZK_OK)
        st = engine_submit(e, &id, &spec, &err);
    if (st == CUZK_OK)
        st = engine_await(e, id, 120000, &res, &err);
    if (st != CUZK_OK) {
        printf("         engine: %s\n", err.msg);
        goto out;
    }
    int valid = 0, tampered = 1;
    groth16_verify_batch(&valid, vk, res.proofs, res.n_partitions, res.public_inputs, NULL);
    size_t n_in = res.n_partitions * res.n_public;
    fr_t *bad = malloc((n_in ? n_in : 1) * sizeof *bad);
    if (bad) {
        memcpy(bad, res.public_inputs, n_in * sizeof *bad);
        fr_add(&bad[n_in - 1], &bad[n_in - 1], &FR_ONE);
        groth16_verify_batch(&tampered, vk, res.proofs, res.n_partitions, bad, NULL);
        free(bad);
    }
    ok = valid && !tampered;
    for (size_t p = 0; p < res.n_partitions; p++)
        printf("         partition %zu: witness %.1f ms, prove %.1f ms on %s\n", p,
               (double)res.timings[p].witness_ns * 1e-6, (double)res.timings[p].prove_ns * 1e-6,
               *dev_name);
    printf("         batch verification %.1f ms\n", (double)res.verify_ns * 1e-6);
out:
    engine_result_free(&res);
    if (key)
        engine_key_release(e, key);
    engine_destroy(e);
    return ok;
}

int demo_porep(void)
{
    gen_shape_t sh;
    circuit_t c = {0};
    groth16_key_t key = {0};
    groth16_pk_t pk;
    fr_t *ws = NULL;
    int ok = 0;
    const char *dev = "?";
    double t0 = cli_now();
    if (gen_porep_shape(&sh, DEMO_LOG, NULL) != CUZK_OK ||
        gen_porep_circuit(&c, &sh, DEMO_SEED, 0, NULL) != CUZK_OK)
        goto out;
    ws = malloc((size_t)DEMO_PARTS * sh.n_vars * sizeof *ws);
    if (!ws)
        goto out;
    for (uint32_t p = 0; p < DEMO_PARTS; p++)
        if (gen_porep_witness(ws + (size_t)p * sh.n_vars, &sh, DEMO_SEED, p, 0, NULL) != CUZK_OK)
            goto out;
    if (groth16_setup(&key, &c, GROTH16_BELLPERSON, 42, 0, NULL) != CUZK_OK)
        goto out;
    groth16_key_pk(&pk, &key);
    double t_s = cli_now();
    ok = demo_engine_job(&pk, &c, ws, sh.n_vars, &key.vk, &dev);
    printf("  [%s] PoRep-shaped job (porep-32g at 2^%u: %u constraints, %u public), %d "
           "partitions through the engine on %s: workload + setup %.0f ms, job %.0f ms; "
           "tampered input rejected\n",
           ok ? " ok " : "FAIL", DEMO_LOG, sh.n_constraints, sh.n_public, DEMO_PARTS, dev,
           (t_s - t0) * 1e3, (cli_now() - t_s) * 1e3);
out:
    if (!ok && !c.n_rows)
        printf("  [FAIL] PoRep-shaped job: could not build the workload or key\n");
    groth16_key_free(&key);
    circuit_free(&c);
    free(ws);
    return ok;
}
