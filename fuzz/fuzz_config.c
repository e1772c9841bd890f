/* libFuzzer harness for the config reader (config_parse, config_set).
 *
 * Input: a cuzk.toml text, or, when it starts with '@', one override
 * "@section.key=value". A parse or override must either fail with a status
 * and a message naming the file (or the key) and leave the config and the
 * warnings as they were, or succeed with a config that config_dump writes
 * and config_parse reads back equal, without warnings. The value text also
 * goes through the size and duration helpers. Anything else traps.
 * Seeds (fuzz/corpus/config/, hand-written): cuzk.example.toml, an
 * upstream-style file, every value type, CRLF, unknown sections, overrides,
 * and one of each error class. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/config.h"

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c))                                                                                  \
            __builtin_trap();                                                                      \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const cuzk_config_t *cfg)
{
    char *text;
    size_t len;
    if (config_dump(&text, &len, cfg, NULL) != CUZK_OK)
        return; /* out of memory */
    cuzk_config_t back;
    config_default(&back);
    config_warnings_t w = {0};
    cuzk_status st = config_parse(&back, &w, text, len, "dump", NULL);
    CHECK(st == CUZK_OK || st == CUZK_ERR_NOMEM);
    if (st == CUZK_OK) {
        CHECK(w.n == 0);
        CHECK(config_equal(&back, cfg, NULL));
    }
    config_warnings_free(&w);
    free(text);
    cuzk_error_t err = {CUZK_OK, ""};
    st = config_check(cfg, &err);
    CHECK(st == CUZK_OK || (st == CUZK_ERR_ARG && err.code == st && err.msg[0] == '['));
}

static void one_set(const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq)
        return;
    char *key = strndup(s, (size_t)(eq - s));
    if (!key)
        return;
    cuzk_config_t cfg, before;
    config_default(&cfg);
    before = cfg;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = config_set(&cfg, key, eq + 1, &err);
    if (st == CUZK_OK) {
        round_trip(&cfg);
    } else {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(config_equal(&cfg, &before, NULL));
    }
    uint64_t x = 12345;
    if (config_parse_size(&x, eq + 1, &err) != CUZK_OK)
        CHECK(x == 12345 && err.code == CUZK_ERR_ARG);
    x = 12345;
    if (config_parse_duration(&x, eq + 1, &err) != CUZK_OK)
        CHECK(x == 12345 && err.code == CUZK_ERR_ARG);
    free(key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == '@') {
        if (size > 8192 || memchr(data, '\0', size))
            return 0;
        char *s = strndup((const char *)data + 1, size - 1);
        if (s)
            one_set(s);
        free(s);
        return 0;
    }
    cuzk_config_t cfg, before;
    config_default(&cfg);
    before = cfg;
    config_warnings_t w = {0};
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = config_parse(&cfg, &w, (const char *)data, size, "fuzz.toml", &err);
    if (st == CUZK_OK) {
        for (size_t i = 0; i < w.n; i++)
            CHECK(strncmp(w.msg[i], "fuzz.toml:", 10) == 0);
        round_trip(&cfg);
    } else {
        CHECK(err.code == st);
        CHECK(st == CUZK_ERR_NOMEM || strncmp(err.msg, "fuzz.toml:", 10) == 0);
        CHECK(st == CUZK_ERR_PARSE || st == CUZK_ERR_ARG || st == CUZK_ERR_NOMEM);
        CHECK(w.n == 0);
        CHECK(config_equal(&cfg, &before, NULL));
    }
    config_warnings_free(&w);
    return 0;
}
