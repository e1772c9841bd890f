/* cuzk_hash64 (include/cuzk/hash.h) against XXH64's published answers:
 * the journal stores these hashes, so they must never change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/hash.h"
#include "test_util.h"

static void test_known_answers(void **state)
{
    (void)state;
    /* Known answers of the XXH64 reference implementation. */
    assert_int_equal(cuzk_hash64("", 0, 0), 0xEF46DB3751D8E999ull);
    assert_int_equal(cuzk_hash64("a", 1, 0), 0xD24EC4F1A98C6E5Bull);
    assert_int_equal(cuzk_hash64("abc", 3, 0), 0x44BC2CF5AD770999ull);
    const char *s = "Nobody inspects the spammish repetition";
    assert_int_equal(cuzk_hash64(s, strlen(s), 0), 0xFBCEA83C8A378BF1ull);
    assert_int_equal(cuzk_hash64(NULL, 0, 0), 0xEF46DB3751D8E999ull);
    /* Every single-bit change of a 100-byte input changes the hash. */
    uint8_t buf[100];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)tu_rand64();
    uint64_t h = cuzk_hash64(buf, sizeof buf, 7);
    assert_int_not_equal(h, cuzk_hash64(buf, sizeof buf, 8));
    for (size_t bit = 0; bit < 8 * sizeof buf; bit++) {
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        assert_int_not_equal(cuzk_hash64(buf, sizeof buf, 7), h);
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    assert_int_not_equal(cuzk_hash64(buf, sizeof buf - 1, 7), h);
}

int main(void)
{
    tu_init("test_hash");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answers),
    };
    return cmocka_run_group_tests_name("hash", tests, NULL, NULL);
}
