/* Status codes, error messages and CUZK_ASSERT (include/cuzk/status.h). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/status.h"

static void test_error_set(void **state)
{
    (void)state;
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(cuzk_error_set(&err, CUZK_ERR_ARG, "bad %s %d", "thing", 7), CUZK_ERR_ARG);
    assert_int_equal(err.code, CUZK_ERR_ARG);
    assert_string_equal(err.msg, "bad thing 7");
    assert_int_equal(cuzk_error_set(NULL, CUZK_ERR_IO, "no target"), CUZK_ERR_IO);
    char big[2 * CUZK_ERRMSG_MAX];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cuzk_error_set(&err, CUZK_ERR_FORMAT, "%s", big); /* truncated, terminated */
    assert_int_equal(strlen(err.msg), CUZK_ERRMSG_MAX - 1);
    for (int s = CUZK_OK; s <= CUZK_ERR_LAST; s++)
        assert_true(strcmp(cuzk_status_str((cuzk_status)s), "unknown status") != 0);
    assert_string_equal(cuzk_status_str((cuzk_status)999), "unknown status");
}

/* Debug builds stop at a broken invariant, naming it; release builds do not
 * even evaluate the expression. */
static void test_assert(void **state)
{
    (void)state;
    int n = 0;
    CUZK_ASSERT(++n == 1);
#ifdef CUZK_DEBUG
    assert_int_equal(n, 1);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        CUZK_ASSERT(n == 2);
        _exit(0); /* not reached when the assert works */
    }
    close(fds[1]);
    char out[512] = {0};
    ssize_t got = 0, r;
    while ((r = read(fds[0], out + got, sizeof out - 1 - (size_t)got)) > 0)
        got += r;
    close(fds[0]);
    int ws = 0;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFSIGNALED(ws));
    assert_int_equal(WTERMSIG(ws), SIGABRT);
    assert_non_null(strstr(out, "invariant broken at"));
    assert_non_null(strstr(out, "n == 2"));
#else
    assert_int_equal(n, 0);
    CUZK_ASSERT(n == 2); /* compiled out: no effect */
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_set),
        cmocka_unit_test(test_assert),
    };
    return cmocka_run_group_tests_name("status", tests, NULL, NULL);
}
