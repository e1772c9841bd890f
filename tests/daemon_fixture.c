/* The daemon tests' shared fixture (see daemon_fixture.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw's FTW_DEPTH, FTW_PHYS */
#endif
#include "daemon_fixture.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuzk/bellperson.h"
#include "cuzk/ccs.h"
#include "cuzk/key_write.h"
#include "cuzk/snarkjs_json.h"
#include "cuzk/wtns.h"

#define BP_SEED 0x5eedu

void dfix_sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    nanosleep(&ts, NULL);
}

void dfix_path(char *out, size_t n, const char *dir, const char *name)
{
    int k = snprintf(out, n, "%s/%s", dir, name);
    assert_true(k > 0 && (size_t)k < n);
}

void dfix_copy_file(const char *from, const char *to)
{
    size_t len = 0;
    uint8_t *data = tu_read_file(from, &len);
    assert_non_null(data);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(data);
}

/* ---- setup and teardown ---- */

/* "bp": its key and circuit in the registry, its witnesses in memory. */
static void make_bellperson(dfix_t *f)
{
    cuzk_error_t err = {0};
    circuit_t c = {0};
    char path[160];
    assert_int_equal(gen_porep_shape(&f->bp_shape, 10, &err), CUZK_OK);
    assert_int_equal(gen_porep_circuit(&c, &f->bp_shape, BP_SEED, 1, &err), CUZK_OK);
    assert_int_equal(groth16_setup(&f->bp_key, &c, GROTH16_BELLPERSON, BP_SEED + 1, 0, &err),
                     CUZK_OK);
    dfix_path(path, sizeof path, f->srs, "bp.params");
    assert_int_equal(bellperson_params_write_file(path, &f->bp_key, &err), CUZK_OK);
    dfix_path(path, sizeof path, f->srs, "bp.ccs");
    assert_int_equal(ccs_write_file(path, &c, &err), CUZK_OK);
    fr_t *w = calloc(f->bp_shape.n_vars, sizeof *w);
    assert_non_null(w);
    for (uint32_t p = 0; p < DFIX_BP_PARTS; p++) {
        assert_int_equal(gen_porep_witness(w, &f->bp_shape, BP_SEED, p, 1, &err), CUZK_OK);
        dfix_path(path, sizeof path, f->dir, "w.wtns");
        assert_int_equal(wtns_write_file(path, w, f->bp_shape.n_vars, &err), CUZK_OK);
        f->bp_wtns[p] = tu_read_file(path, &f->bp_len[p]);
        assert_non_null(f->bp_wtns[p]);
        remove(path);
    }
    free(w);
    circuit_free(&c);
}

int dfix_setup(dfix_t *f, const char *dir_template)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "%s", dir_template);
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->srs, sizeof f->srs, "%s/srs", f->dir);
    if (mkdir(f->srs, 0700) != 0)
        return -1;
    const char *case_dir = CUZK_TESTDATA_DIR "/snarkjs/multiplier";
    char from[512], to[160];
    snprintf(from, sizeof from, "%s/multiplier.zkey", case_dir);
    dfix_path(to, sizeof to, f->srs, "mult.zkey");
    dfix_copy_file(from, to);
    snprintf(from, sizeof from, "%s/witness.wtns", case_dir);
    f->sj_wtns = tu_read_file(from, &f->sj_len);
    snprintf(from, sizeof from, "%s/verification_key.json", case_dir);
    if (!f->sj_wtns || snarkjs_vk_read(&f->sj_vk, from, NULL) != CUZK_OK)
        return -1;
    make_bellperson(f);
    return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

int dfix_teardown(dfix_t *f)
{
    free(f->sj_wtns);
    groth16_vk_free(&f->sj_vk);
    groth16_key_free(&f->bp_key);
    for (int p = 0; p < DFIX_BP_PARTS; p++)
        free(f->bp_wtns[p]);
    return nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void dfix_config(cuzk_config_t *cfg, dfix_t *f, const char *journal)
{
    config_default(cfg);
    char name[32];
    if (!journal) {
        snprintf(name, sizeof name, "journal-%d.db", f->journals++);
        journal = name;
    }
    dfix_path(cfg->daemon.journal, sizeof cfg->daemon.journal, f->dir, journal);
    snprintf(cfg->srs.dir, sizeof cfg->srs.dir, "%s", f->srs);
    cfg->synthesis.threads = 2;
    cfg->synthesis.prove_threads = 1;
    cfg->logging.level = getenv("CUZK_TEST_VERBOSE") ? CONFIG_LOG_DEBUG : CONFIG_LOG_ERROR;
}

/* ---- checks of the bytes a daemon returns ---- */

void dfix_check_snarkjs(const dfix_t *f, const uint8_t *proof, size_t proof_len, const uint8_t *pub,
                        size_t pub_len)
{
    groth16_proof_t pr;
    fr_t *in = NULL;
    size_t n = 0;
    cuzk_error_t err = {0};
    assert_int_equal(snarkjs_proof_parse(&pr, (const char *)proof, proof_len, NULL, &err), CUZK_OK);
    assert_int_equal(snarkjs_public_parse(&in, &n, (const char *)pub, pub_len, NULL, &err),
                     CUZK_OK);
    assert_int_equal(n, 2);
    int valid = 0;
    assert_int_equal(groth16_verify(&valid, &f->sj_vk, &pr, in, n, &err), CUZK_OK);
    assert_true(valid);
    free(in);
}

void dfix_check_bp(const dfix_t *f, const uint8_t *proof, size_t proof_len, const uint8_t *pub,
                   size_t pub_len, size_t parts)
{
    uint32_t np = f->bp_shape.n_public;
    groth16_proof_t proofs[DFIX_BP_PARTS];
    fr_t *in = calloc(parts * np, sizeof *in);
    cuzk_error_t err = {0};
    assert_non_null(in);
    assert_int_equal(proof_len, parts * BELLPERSON_PROOF_BYTES);
    assert_int_equal(pub_len, parts * np * BELLPERSON_INPUT_BYTES);
    assert_int_equal(bellperson_proofs_read(proofs, parts, proof, proof_len, &err), CUZK_OK);
    assert_int_equal(bellperson_inputs_read(in, pub, parts * np, &err), CUZK_OK);
    int valid = 0;
    assert_int_equal(groth16_verify_batch(&valid, &f->bp_key.vk, proofs, parts, in, &err), CUZK_OK);
    assert_true(valid);
    free(in);
}

/* ---- a daemon on a simulated device ---- */

/* The watchdog's dump: the state the daemon hung in. */
static void dump_daemon(void *ctx)
{
    dfix_rig_t *r = ctx;
    char *json = NULL;
    size_t len = 0;
    if (r->d && daemon_status_json(r->d, &json, &len, NULL) == CUZK_OK)
        fprintf(stderr, "  status: %s\n", json);
    free(json);
}

void dfix_rig_open(dfix_rig_t *r, dfix_t *f, const char *what, unsigned delay_us, int workers)
{
    memset(r, 0, sizeof *r);
    r->open = 1;
    tu_watchdog_start(&r->wd, what, DFIX_WATCHDOG_S, dump_daemon, r);
    dfix_config(&r->cfg, f, NULL);
    engine_sim_config_t sc = {1u << 20, 64, 1u << 20, 64, 64, delay_us};
    assert_int_equal(engine_sim_new(&r->sim, &sc, NULL), CUZK_OK);
    engine_sim_device(&r->dev, r->sim, "sim0", (size_t)1 << 30, workers);
}

void dfix_rig_start(dfix_rig_t *r)
{
    cuzk_error_t err = {0};
    cuzk_status st = daemon_new(&r->d, &r->cfg, &r->dev, 1, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "daemon_new: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
}

void dfix_rig_stop(dfix_rig_t *r)
{
    daemon_free(r->d);
    r->d = NULL;
}

void dfix_rig_close(dfix_rig_t *r)
{
    dfix_rig_stop(r);
    engine_sim_free(r->sim);
    r->sim = NULL;
    if (r->open)
        tu_watchdog_stop(&r->wd);
    r->open = 0;
}
