/* The cuzk binary end to end: exit codes and output of demo and bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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
    assert_non_null(strstr(out, "8 of 8 checks passed"));
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
    static const char *ops[] = {"fp_mul", "fr_mul", "g1_add_mixed", "g2_add", "pairing",
                                "multi_pairing_4"};
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

int main(void)
{
    tu_init("test_cli");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_passes),
        cmocka_unit_test(test_usage_errors_exit_2),
        cmocka_unit_test(test_bench_field_prints_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
