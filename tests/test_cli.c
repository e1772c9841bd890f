/* The cuzk binary end to end: exit codes and output of demo and bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/* Runs `cuzk <args>`, captures stdout+stderr into out, returns exit code. */
static int run_cli(const char *args, char *out, size_t cap)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", CUZK_CLI_PATH, args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    int st = pclose(f);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static char out[1 << 16];

static void test_demo_passes(void **state)
{
    (void)state;
    assert_int_equal(run_cli("demo", out, sizeof out), 0);
    assert_non_null(strstr(out, "11 of 11 checks passed"));
    assert_non_null(strstr(out, "PoRep-shaped job"));
    assert_null(strstr(out, "FAIL"));
}

static void test_usage_errors_exit_2(void **state)
{
    (void)state;
    assert_int_equal(run_cli("", out, sizeof out), 2);
    assert_non_null(strstr(out, "usage"));
    assert_int_equal(run_cli("no-such-command", out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown command"));
    assert_int_equal(run_cli("bench", out, sizeof out), 2);
    assert_int_equal(run_cli("bench field --bogus", out, sizeof out), 2);
    assert_int_equal(run_cli("demo extra", out, sizeof out), 2);
    assert_int_equal(run_cli("help", out, sizeof out), 0);
}

static void test_bench_field_prints_json(void **state)
{
    (void)state;
    assert_int_equal(run_cli("bench field --quick", out, sizeof out), 0);
    static const char *ops[] = {"fp_mul", "fr_mul",  "g1_add_mixed",
                                "g2_add", "pairing", "multi_pairing_4"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "\"op\":\"%s\"", ops[i]);
        char *line = strstr(out, key);
        assert_non_null(line);
        double med = -1;
        char *m = strstr(line, "\"ns_median\":");
        assert_non_null(m);
        assert_int_equal(sscanf(m, "\"ns_median\":%lf", &med), 1);
        assert_true(med > 0);
    }
}

static char *data(const char *rel)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", CUZK_TESTDATA_DIR, rel);
    return buf[k];
}

static char tmpdir[256];

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk-test-cli-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *tmp(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static int files_equal(const char *a, const char *b)
{
    size_t la, lb;
    uint8_t *x = tu_read_file(a, &la), *y = tu_read_file(b, &lb);
    int eq = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return eq;
}

static void test_prove_verify_zkey(void **state)
{
    (void)state;
    char args[2048];
    const char *d = "snarkjs/multiplier";
    char zk[256], wt[256], vk[256], r0[256], p0[256];
    snprintf(zk, sizeof zk, "%s", data("snarkjs/multiplier/multiplier.zkey"));
    snprintf(wt, sizeof wt, "%s", data("snarkjs/multiplier/witness.wtns"));
    snprintf(vk, sizeof vk, "%s", data("snarkjs/multiplier/verification_key.json"));
    snprintf(r0, sizeof r0, "%s", data("snarkjs/multiplier/proof_rs0.json"));
    snprintf(p0, sizeof p0, "%s", data("snarkjs/multiplier/public_rs0.json"));
    (void)d;
    /* deterministic proof: byte for byte snarkjs's */
    snprintf(args, sizeof args, "prove --r 0 --s 0 '%s' '%s' '%s' '%s'", zk, wt, tmp("p0.json"),
             tmp("pub0.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_true(files_equal(tmp("p0.json"), r0));
    assert_true(files_equal(tmp("pub0.json"), p0));
    /* random proof verifies; snarkjs's own proof verifies */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", zk, wt, tmp("p.json"),
             tmp("pub.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_false(files_equal(tmp("p.json"), r0));
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", vk, tmp("pub.json"), tmp("p.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "OK"));
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", vk, data("snarkjs/multiplier/public.json"),
             data("snarkjs/multiplier/proof.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    /* a changed public signal: invalid, exit 1 */
    FILE *f = fopen(tmp("bad_pub.json"), "w");
    assert_non_null(f);
    fputs("[\n \"1035\",\n \"11\"\n]", f);
    fclose(f);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", vk, tmp("bad_pub.json"), tmp("p.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "INVALID"));
    /* export-vkey reproduces snarkjs's verification_key.json */
    snprintf(args, sizeof args, "export-vkey '%s' '%s'", zk, tmp("vk.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_true(files_equal(tmp("vk.json"), vk));
}

static void test_bad_inputs_exit_2(void **state)
{
    (void)state;
    char args[2048];
    /* a witness of another circuit */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'",
             data("snarkjs/multiplier/multiplier.zkey"), data("snarkjs/sha256_64/witness.wtns"),
             tmp("x.json"), tmp("y.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "witness"));
    /* missing and truncated files */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", tmp("nope.zkey"),
             data("snarkjs/multiplier/witness.wtns"), tmp("x.json"), tmp("y.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    size_t len;
    uint8_t *zk = tu_read_file(data("snarkjs/multiplier/multiplier.zkey"), &len);
    assert_non_null(zk);
    FILE *f = fopen(tmp("trunc.zkey"), "wb");
    assert_non_null(f);
    fwrite(zk, 1, len / 2, f);
    fclose(f);
    free(zk);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", tmp("trunc.zkey"),
             data("snarkjs/multiplier/witness.wtns"), tmp("x.json"), tmp("y.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "trunc.zkey"));
    /* an empty witness file */
    f = fopen(tmp("empty.wtns"), "wb");
    assert_non_null(f);
    fclose(f);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'",
             data("snarkjs/multiplier/multiplier.zkey"), tmp("empty.wtns"), tmp("x.json"),
             tmp("y.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    /* a witness that breaks a constraint, named by --r1cs */
    uint8_t *w = tu_read_file(data("snarkjs/multiplier/witness.wtns"), &len);
    assert_non_null(w);
    w[len - 32] ^= 1; /* last wire's low byte */
    f = fopen(tmp("bad.wtns"), "wb");
    assert_non_null(f);
    fwrite(w, 1, len, f);
    fclose(f);
    free(w);
    snprintf(args, sizeof args, "prove --r1cs '%s' '%s' '%s' '%s' '%s'",
             data("snarkjs/multiplier/multiplier.r1cs"), data("snarkjs/multiplier/multiplier.zkey"),
             tmp("bad.wtns"), tmp("x.json"), tmp("y.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "constraint"));
    /* without --r1cs the check of the proof catches it */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'",
             data("snarkjs/multiplier/multiplier.zkey"), tmp("bad.wtns"), tmp("x.json"),
             tmp("y.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "verification"));
}

static void test_setup_prove_verify_bellperson(void **state)
{
    (void)state;
    char args[2048];
    const char *r1 = data("snarkjs/multiplier/multiplier.r1cs");
    const char *wt = data("snarkjs/multiplier/witness.wtns");
    snprintf(args, sizeof args, "setup --format bellperson --seed 7 --vk '%s' '%s' '%s'",
             tmp("m.vk"), r1, tmp("m.params"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "insecure"));
    /* two partitions (the same witness twice) */
    snprintf(args, sizeof args, "prove --format bellperson '%s' '%s' '%s' '%s' '%s'",
             tmp("m.params"), r1, wt, wt, tmp("proofs.bin"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    /* the public inputs of multiplier are c = 1034, b = 11 */
    FILE *f = fopen(tmp("inputs.txt"), "w");
    assert_non_null(f);
    fputs("1034\n11\n0x40a\n0x0b\n", f);
    fclose(f);
    snprintf(args, sizeof args, "verify --format bellperson '%s' '%s' '%s'", tmp("m.vk"),
             tmp("proofs.bin"), tmp("inputs.txt"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    f = fopen(tmp("inputs_bad.txt"), "w");
    assert_non_null(f);
    fputs("1034\n11\n1034\n12\n", f);
    fclose(f);
    snprintf(args, sizeof args, "verify --format bellperson '%s' '%s' '%s'", tmp("m.vk"),
             tmp("proofs.bin"), tmp("inputs_bad.txt"));
    assert_int_equal(run_cli(args, out, sizeof out), 1);
    f = fopen(tmp("inputs_short.txt"), "w");
    assert_non_null(f);
    fputs("1034\n11\n", f);
    fclose(f);
    snprintf(args, sizeof args, "verify --format bellperson '%s' '%s' '%s'", tmp("m.vk"),
             tmp("proofs.bin"), tmp("inputs_short.txt"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    /* zkey from our setup: prove and verify with the exported key */
    snprintf(args, sizeof args, "setup --format zkey --vkey-json '%s' '%s' '%s'", tmp("m_vk.json"),
             r1, tmp("m.zkey"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", tmp("m.zkey"), wt, tmp("mp.json"),
             tmp("mpub.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", tmp("m_vk.json"), tmp("mpub.json"),
             tmp("mp.json"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
}

static void test_info(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args, "info '%s'", data("snarkjs/sha256_64/sha256_64.r1cs"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "constraints 63106"));
    snprintf(args, sizeof args, "info '%s'", data("snarkjs/sha256_64/sha256_64.zkey"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "domain 2^16"));
    snprintf(args, sizeof args, "info '%s'", data("snarkjs/sha256_64/witness.wtns"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "values 62483"));
    snprintf(args, sizeof args, "info '%s'", data("filecoin/README.md"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
}

#define ZKEY_BUDGET_CMD                                                                            \
    "bench prove --log 6 --format zkey --device cuda --repeats 1 --check --vram-budget 128MiB"

/* --device and --vram-budget: the CPU always works; cuda either proves the
 * same bytes as the CPU (a GPU is present) or says why it cannot. */
static void test_device_options(void **state)
{
    (void)state;
    assert_int_equal(
        run_cli("bench prove --log 6 --device cpu --repeats 1 --check", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"bench\":\"prove\""));
    assert_non_null(strstr(out, "byte-identical"));
    assert_int_equal(run_cli("bench prove --log 6 --device gpu", out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown device"));
    assert_int_equal(run_cli("bench prove --log 6 --vram-budget 12XB", out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown unit"));
    assert_int_equal(run_cli("prove --vram-budget lots a b c d", out, sizeof out), 2);
    assert_int_equal(run_cli("bench ntt --device", out, sizeof out), 2);
    const char *gpu_cmds[] = {"bench prove --log 6 --device cuda --repeats 1 --check",
                              ZKEY_BUDGET_CMD, "bench ntt --device cuda --log 10 --repeats 1",
                              "bench msm --device cuda --log 10 --repeats 1"};
    for (size_t i = 0; i < sizeof gpu_cmds / sizeof *gpu_cmds; i++) {
        int rc = run_cli(gpu_cmds[i], out, sizeof out);
        if (rc == 0) {
            assert_non_null(strstr(out, "\"device\":\"cuda\""));
        } else {
            assert_int_equal(rc, 2);
            if (!strstr(out, "no CUDA device") && !strstr(out, "no CUDA backend"))
                fail_msg("cuzk %s: exit 2 without saying why: %s", gpu_cmds[i], out);
            printf("no GPU here: cuzk %s says so\n", gpu_cmds[i]);
        }
    }
}

/* Jobs through the engine: 1 and 2 workers on a simulated CPU device,
 * every job verified; cuda proves or says why it cannot. */
static void test_bench_engine(void **state)
{
    (void)state;
    assert_int_equal(
        run_cli("bench engine --log 8 --jobs 3 --partitions 2 --device cpu", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"bench\":\"engine\""));
    assert_non_null(strstr(out, "\"workers\":2"));
    assert_int_equal(run_cli("bench engine --jobs 0", out, sizeof out), 2);
    assert_int_equal(run_cli("bench engine --device tpu", out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown device"));
    int rc =
        run_cli("bench engine --log 8 --jobs 2 --device cuda --vram-budget 4GiB", out, sizeof out);
    if (rc == 0) {
        assert_non_null(strstr(out, "\"device\":\"cuda\""));
    } else {
        assert_int_equal(rc, 2);
        if (!strstr(out, "no CUDA device") && !strstr(out, "no CUDA backend"))
            fail_msg("cuzk bench engine --device cuda: exit 2 without saying why: %s", out);
        printf("no GPU here: cuzk bench engine --device cuda says so\n");
    }
}

/* The PoRep-shaped throughput benchmark at 2^12 on the CPU: every proof
 * verified (the engine fails a job whose batch does not), the figures
 * reported, on one and on two simulated devices; bad options exit 2. */
static void test_bench_porep(void **state)
{
    (void)state;
    assert_int_equal(run_cli("bench porep --device cpu --log-domain 12 --partitions 2 --proofs 3 "
                             "--check",
                             out, sizeof out),
                     0);
    assert_non_null(strstr(out, "\"bench\":\"porep\""));
    assert_non_null(strstr(out, "\"all_verified\":true"));
    assert_non_null(strstr(out, "\"partitions\":2"));
    const char *s = strstr(out, "\"s_per_proof\":");
    assert_non_null(s);
    assert_true(strtod(s + strlen("\"s_per_proof\":"), NULL) > 0);
    assert_non_null(strstr(out, "proof 3/3 done"));
    /* two (simulated) devices: both prove, each one's busy fraction */
    assert_int_equal(run_cli("bench porep --device cpu --devices 2 --log-domain 12 --partitions 2 "
                             "--proofs 4",
                             out, sizeof out),
                     0);
    assert_non_null(strstr(out, "\"devices\":2"));
    assert_non_null(strstr(out, "\"all_verified\":true"));
    const char *b = strstr(out, "\"gpu_busy_per_device\":[");
    assert_non_null(b);
    char *end = NULL;
    double b0 = strtod(b + strlen("\"gpu_busy_per_device\":["), &end);
    assert_true(*end == ',');
    double b1 = strtod(end + 1, &end);
    assert_true(*end == ']');
    assert_true(b0 > 0 && b0 <= 1.0 && b1 > 0 && b1 <= 1.0);
    assert_non_null(strstr(out, "2 devices x 1 worker"));
    assert_int_equal(run_cli("bench porep --devices 0", out, sizeof out), 2);
    assert_int_equal(run_cli("bench porep --log-domain 9", out, sizeof out), 2);
    assert_int_equal(run_cli("bench porep --proofs 0", out, sizeof out), 2);
    assert_int_equal(run_cli("bench porep --setup tpu", out, sizeof out), 2);
}

/* gen-circuit writes a circuit and witnesses that info reads back and
 * checks; bad options exit 2. */
static void test_gen_circuit_info(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args,
             "gen-circuit --profile porep-32g --log-domain 10 --partitions 2 '%s'", tmp("gen"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "994 constraints"));
    snprintf(args, sizeof args, "info '%s' '%s'", tmp("gen/circuit.ccs"),
             tmp("gen/witness_1.wtns"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "non-zeros per row"));
    assert_non_null(strstr(out, "satisfies every row"));
    snprintf(args, sizeof args, "info '%s'", tmp("gen/circuit.r1cs"));
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "constraints 994"));
    snprintf(args, sizeof args, "gen-circuit --profile porep-64g '%s'", tmp("gen"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
    snprintf(args, sizeof args, "gen-circuit --profile porep-32g --log-domain 9 '%s'", tmp("gen"));
    assert_int_equal(run_cli(args, out, sizeof out), 2);
}

/* cuzk filecoin: the WinningPoSt of a 2 KiB sector is 66 sectors of
 * 313 + one PoR of two arity-8 levels (2 x 530 + 2): 90,750 constraints and
 * 1 + 66 x 2 inputs; the 2 KiB PoRep is recorded into a .ccs that `cuzk
 * info` reads back; bad names exit 2 listing the valid ones. */
static void test_filecoin_info_and_circuit(void **state)
{
    (void)state;
    assert_int_equal(
        run_cli("filecoin info --circuit winning-post --sector-size 2KiB --json", out, sizeof out),
        0);
    assert_non_null(strstr(out, "\"constraints\":90750,"));
    assert_non_null(strstr(out, "\"inputs\":133,"));
    assert_non_null(strstr(out, "\"b_input_density\":1,"));
    assert_non_null(strstr(out, "\"cs_hash\":\""));
    /* SnapDeals through the same registry: storage-proofs-update's 2 KiB */
    assert_int_equal(
        run_cli("filecoin info --circuit snap-deals --sector-size 2KiB --json --no-hash", out,
                sizeof out),
        0);
    assert_non_null(strstr(out, "\"constraints\":1705039,"));
    /* NI-PoRep (API 1.2): more partitions of the same partition circuit */
    assert_int_equal(run_cli("filecoin info --circuit porep --sector-size 2KiB --api 1.2 --json "
                             "--no-hash",
                             out, sizeof out),
                     0);
    assert_non_null(strstr(out, "\"constraints\":2687921,"));
    char path[] = "/tmp/cuzk_test_fc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "filecoin circuit --circuit porep --sector-size 2KiB --out %s",
             path);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    snprintf(args, sizeof args, "info %s", path);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    unlink(path);
    assert_non_null(strstr(out, "public 39"));
    assert_int_equal(run_cli("filecoin info --circuit nope --sector-size 2KiB", out, sizeof out),
                     2);
    assert_non_null(strstr(out, "winning-post"));
    assert_int_equal(run_cli("filecoin info --circuit porep --sector-size 3KiB", out, sizeof out),
                     2);
    assert_non_null(strstr(out, "32GiB"));
    assert_int_equal(
        run_cli("filecoin info --circuit porep --sector-size 2KiB --api 9", out, sizeof out), 2);
    assert_int_equal(
        run_cli("filecoin circuit --circuit porep --sector-size 2KiB", out, sizeof out), 2);
    assert_non_null(strstr(out, "--out"));
}

/* cuzk filecoin parents / parent-cache: NOTES.md's verified node under
 * porep id 3 and API 1.0 (seal32_x10.prf), and the 2 KiB cache of porep id
 * 0 with parent_cache.json's digest and name; a size that is not the
 * proof's exits 2. */
static void test_filecoin_parents(void **state)
{
    (void)state;
    assert_int_equal(run_cli("filecoin parents --sector-size 32GiB --porep-id 3 --api 1.0 "
                             "656705143",
                             out, sizeof out),
                     0);
    assert_string_equal(out, "656705142 650261453 656705056 656615026 656701296 656705142 "
                             "126549780 368190453 93666530 400166597 49615717 201682063 "
                             "515691232 260659802\n");
    char path[] = "/tmp/cuzk_test_pc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "filecoin parent-cache --sector-size 2KiB --porep-id 0 --out %s",
             path);
    assert_int_equal(run_cli(args, out, sizeof out), 0);
    unlink(path);
    assert_non_null(
        strstr(out, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"));
    assert_non_null(strstr(
        out, "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899"));
    /* without --out: where filecoin-proofs keeps it, made once */
    char dir[] = "/tmp/cuzk_test_pcdir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("FIL_PROOFS_PARENT_CACHE", dir, 1);
    assert_int_equal(
        run_cli("filecoin parent-cache --sector-size 2KiB --porep-id 0", out, sizeof out), 0);
    assert_non_null(strstr(out, ": made"));
    assert_int_equal(
        run_cli("filecoin parent-cache --sector-size 2KiB --porep-id 0", out, sizeof out), 0);
    assert_non_null(strstr(out, ": present"));
    unsetenv("FIL_PROOFS_PARENT_CACHE");
    snprintf(args, sizeof args, "%s/%s.cache", dir,
             "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899");
    assert_int_equal(unlink(args), 0);
    assert_int_equal(rmdir(dir), 0);
    assert_int_equal(run_cli("filecoin parents --sector-size 2KiB --porep-id 3 5", out, sizeof out),
                     2);
    assert_int_equal(
        run_cli("filecoin parents --sector-size 2KiB --porep-id 0 64", out, sizeof out), 2);
    assert_int_equal(
        run_cli("filecoin parents --sector-size 2KiB --porep-id 99 5", out, sizeof out), 2);
}

int main(void)
{
    tu_init("test_cli");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_passes),
        cmocka_unit_test(test_usage_errors_exit_2),
        cmocka_unit_test(test_bench_field_prints_json),
        cmocka_unit_test(test_prove_verify_zkey),
        cmocka_unit_test(test_bad_inputs_exit_2),
        cmocka_unit_test(test_filecoin_info_and_circuit),
        cmocka_unit_test(test_filecoin_parents),
        cmocka_unit_test(test_setup_prove_verify_bellperson),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_device_options),
        cmocka_unit_test(test_bench_engine),
        cmocka_unit_test(test_bench_porep),
        cmocka_unit_test(test_gen_circuit_info),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
