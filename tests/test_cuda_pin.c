/* Host memory pinned in pieces (src/backend/cuda/host_pin.cuh): copies
 * that cross the pieces' boundaries come back byte for byte, from memory
 * allocated in pieces and from heap memory pinned in place and shared. A
 * single copy may not span two registrations, so a missed split fails
 * here. Without a GPU: an argument check only, and the rest skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cuzk/cuda.h"
#include "cuzk/cuda_selftest.h"

static void test_pin_args(void **state)
{
    (void)state;
    cuzk_error_t err = {0};
    assert_int_equal(cuzk_cuda_host_pin_check(4096, &err), CUZK_ERR_ARG);
}

static void test_gpu_pin_copies(void **state)
{
    (void)state;
    int gpus = 0;
    if (cuzk_cuda_device_count(&gpus, NULL) != CUZK_OK || gpus == 0) {
        print_message("test_cuda_pin: no GPU: copies from pinned pieces are not checked here\n");
        skip();
    }
    cuzk_error_t err = {0};
    /* 600 MiB: three pieces of 256 MiB, the last one partial */
    cuzk_status st = cuzk_cuda_host_pin_check((size_t)600 << 20, &err);
    if (st != CUZK_OK)
        fail_msg("%s: %s", cuzk_status_str(st), err.msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pin_args),
        cmocka_unit_test(test_gpu_pin_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
