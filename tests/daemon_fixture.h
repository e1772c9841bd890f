/* The daemon tests' shared fixture (test_daemon.c, test_daemon_rpc.c).
 *
 * dfix_setup makes, in a mkdtemp folder under /tmp: a circuit registry
 * (srs/) holding the snarkjs multiplier case of the shared test data
 * ("mult.zkey") and a bellperson circuit made here ("bp": gen_porep_circuit
 * at 2^10 with an INSECURE groth16_setup key, written as bp.params + bp.ccs),
 * and .wtns witnesses of DFIX_BP_PARTS partitions kept in memory.
 * dfix_teardown frees them and removes the folder.
 *
 * A dfix_rig_t is one daemon on a simulated CPU device (sim_device.h) under
 * a watchdog; test_daemon_rpc.c's rig puts a transport around one.
 *
 * Rules: one dfix_t per test binary, set up once per cmocka group; the
 * helpers fail the running test (cmocka assertions) rather than return
 * errors, so call them from test bodies or from code they call. */
#ifndef CUZK_TESTS_DAEMON_FIXTURE_H
#define CUZK_TESTS_DAEMON_FIXTURE_H

#include "test_util.h"

#include "cuzk/config.h"
#include "cuzk/daemon.h"
#include "sim_device.h"
#include "cuzk/gen.h"
#include "cuzk/groth16.h"
#include "cuzk/setup.h"

#define DFIX_WATCHDOG_S 300
#define DFIX_BP_PARTS 2 /* partitions of "bp" with a witness */

typedef struct dfix {
    char dir[64], srs[80]; /* the temporary folder; its registry */
    uint8_t *sj_wtns;      /* "mult"'s witness.wtns */
    size_t sj_len;
    groth16_vk_t sj_vk; /* "mult"'s verification_key.json */
    groth16_key_t bp_key;
    gen_shape_t bp_shape;
    uint8_t *bp_wtns[DFIX_BP_PARTS]; /* partition p's .wtns */
    size_t bp_len[DFIX_BP_PARTS];
    int journals; /* journal files named so far: each config its own */
} dfix_t;

/* Builds the fixture in a folder named by dir_template ("/tmp/x_XXXXXX").
 * Returns 0, or -1 when the folder or the test data is missing (a cmocka
 * group setup's answer). */
int dfix_setup(dfix_t *f, const char *dir_template);
/* Frees what dfix_setup made and removes its folder; 0 when removed. */
int dfix_teardown(dfix_t *f);

void dfix_sleep_ms(unsigned ms);
/* out = dir/name; fails the test when it does not fit in n. */
void dfix_path(char *out, size_t n, const char *dir, const char *name);
void dfix_copy_file(const char *from, const char *to);

/* A test config on f's registry: a journal in f->dir named journal, or a
 * fresh journal-N.db when journal is NULL; 2 synthesis threads, 1 prove
 * thread; logging at error level (debug with CUZK_TEST_VERBOSE set). */
void dfix_config(cuzk_config_t *cfg, dfix_t *f, const char *journal);

/* Fails the test unless proof/pub are proof.json/public.json texts of a
 * proof of "mult" that verifies under f->sj_vk with its two signals. */
void dfix_check_snarkjs(const dfix_t *f, const uint8_t *proof, size_t proof_len, const uint8_t *pub,
                        size_t pub_len);
/* Fails the test unless proof/pub are parts 192-byte "bp" proofs and their
 * inputs (32-byte big-endian scalars, partition by partition) that
 * batch-verify under f->bp_key. */
void dfix_check_bp(const dfix_t *f, const uint8_t *proof, size_t proof_len, const uint8_t *pub,
                   size_t pub_len, size_t parts);

/* One daemon on a simulated device, in static storage of the test so that
 * a failed assertion (cmocka's longjmp out of the test) leaves it to the
 * test's teardown to close (open says whether it must). */
typedef struct dfix_rig {
    engine_sim_t *sim;
    device_t dev;
    cuzk_config_t cfg;
    daemon_t *d;
    tu_watchdog_t wd;
    int open;
} dfix_rig_t;

/* Clears r, starts its watchdog (named what; it prints the daemon's status
 * when it fires), makes r->cfg (dfix_config, a fresh journal) and the
 * simulated device "sim0": 1 GiB, workers workers, each proof delay_us
 * long. No daemon yet: adjust r->cfg, then dfix_rig_start. */
void dfix_rig_open(dfix_rig_t *r, dfix_t *f, const char *what, unsigned delay_us, int workers);
/* r->d = a daemon on r->cfg and r->dev; fails the test (printing why) when
 * daemon_new does. */
void dfix_rig_start(dfix_rig_t *r);
/* Frees the daemon (none is fine); the device, config and journal stay for
 * the next dfix_rig_start. */
void dfix_rig_stop(dfix_rig_t *r);
/* dfix_rig_stop, then frees the device and stops the watchdog. */
void dfix_rig_close(dfix_rig_t *r);

#endif
