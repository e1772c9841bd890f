/* Config file and override tests (include/cuzk/config.h).
 *
 * The option table's defaults; cuzk.example.toml (documents every key, loads
 * without warnings, equals the defaults but for the key it deliberately
 * sets); every value type through the file and through config_set; every
 * class of syntax error and bad value with its exact line number, and the
 * config left as it was; warnings for unknown keys and sections; size and
 * duration edge cases; config_check; config_dump round trips of random
 * configs; random garbage never crashes (fuzz/fuzz_config.c goes further).
 * Rerun with CUZK_TEST_SEED=<seed>; CUZK_TEST_ITERS scales the random parts. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/config.h"

#define GiB (1024ull * 1024 * 1024)
#define MiB (1024ull * 1024)

static cuzk_status parse(cuzk_config_t *cfg, config_warnings_t *w, const char *text,
                         cuzk_error_t *err)
{
    return config_parse(cfg, w, text, strlen(text), "t.toml", err);
}

/* Parses text on top of the defaults; fails the test unless it loads. */
static void parse_ok(cuzk_config_t *cfg, const char *text)
{
    cuzk_error_t err = {CUZK_OK, ""};
    config_warnings_t w = {0};
    config_default(cfg);
    cuzk_status st = parse(cfg, &w, text, &err);
    if (st != CUZK_OK)
        fail_msg("parse failed (%s): %s\n--- input:\n%s", cuzk_status_str(st), err.msg, text);
    if (w.n)
        fail_msg("unexpected warning: %s", w.msg[0]);
    config_warnings_free(&w);
}

/* Expects text (len bytes) to be refused with code and a message holding
 * want, leaving the config and the warnings as they were. */
static void expect_fail_len(const char *text, size_t len, cuzk_status code, const char *want)
{
    cuzk_config_t cfg, before;
    config_default(&cfg);
    before = cfg;
    config_warnings_t w = {0};
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = config_parse(&cfg, &w, text, len, "t.toml", &err);
    if (st != code || err.code != code || !strstr(err.msg, want))
        fail_msg("input:\n%.*s\n--- got %s \"%s\", want %s containing \"%s\"", (int)len, text,
                 cuzk_status_str(st), err.msg, cuzk_status_str(code), want);
    if (w.n)
        fail_msg("a failed parse kept warning \"%s\"", w.msg[0]);
    const config_key_info_t *diff = NULL;
    if (!config_equal(&cfg, &before, &diff))
        fail_msg("a failed parse changed %s.%s", diff->section, diff->name);
    config_warnings_free(&w);
}

static void expect_fail(const char *text, cuzk_status code, const char *want)
{
    expect_fail_len(text, strlen(text), code, want);
}

/* ---- the table and the defaults ---- */

static void test_defaults(void **state)
{
    (void)state;
    cuzk_config_t c;
    config_default(&c);
    assert_string_equal(c.daemon.listen, "unix:///run/cuzk/cuzk.sock");
    assert_int_equal(c.daemon.socket_mode, 0600);
    assert_string_equal(c.daemon.http_listen, "");
    assert_int_equal(c.daemon.max_message_bytes, 128 * MiB);
    assert_int_equal(c.daemon.max_queued_jobs, 1024);
    assert_int_equal(c.daemon.rpc_workers, 128);
    assert_int_equal(c.daemon.rpc_queue, 256);
    assert_string_equal(c.daemon.tls_cert, "");
    assert_string_equal(c.daemon.tls_key, "");
    assert_string_equal(c.daemon.journal, "cuzk-journal.db");
    assert_int_equal(c.daemon.result_ttl_ms, 24ull * 3600 * 1000);
    assert_int_equal(c.daemon.resume, 1);
    assert_int_equal(c.memory.host_budget, 0);
    assert_int_equal(c.memory.ready_bytes_max, 0);
    assert_int_equal(c.memory.ready_max, 0);
    assert_int_equal(c.memory.pinned_budget, 0);
    assert_int_equal(c.gpus.n_devices, 0);
    assert_int_equal(c.gpus.workers_per_gpu, 2);
    assert_int_equal(c.gpus.vram_budget, 0);
    assert_int_equal(c.gpus.vram_headroom, 512 * MiB);
    assert_int_equal(c.scheduler.aging_ms, LEDGER_AGING_DEFAULT_NS / 1000000);
    assert_int_equal(c.scheduler.max_retries, 1);
    assert_int_equal(c.scheduler.retry, ENGINE_RETRY_OTHER_DEVICE);
    assert_int_equal(c.scheduler.max_retained, 1024);
    assert_int_equal(c.scheduler.critical_lane, 1);
    assert_int_equal(c.synthesis.threads, 2);
    assert_int_equal(c.synthesis.stage_threads, 0);
    assert_int_equal(c.synthesis.nice, 5);
    assert_int_equal(c.synthesis.prove_threads, 0);
    assert_string_equal(c.srs.dir, "/var/lib/cuzk/srs");
    assert_int_equal(c.srs.n_preload, 0);
    assert_int_equal(c.srs.max_resident, 0);
    assert_int_equal(c.logging.level, CONFIG_LOG_INFO);
    assert_int_equal(c.logging.format, CONFIG_LOG_TEXT);
    assert_string_equal(c.logging.events, "");
    assert_int_equal(config_check(&c, NULL), CUZK_OK);

    /* The defaults agree with the engine's own where they overlap. */
    engine_config_t e;
    engine_config_default(&e);
    assert_int_equal(c.synthesis.threads, e.witness_threads);
    /* stage_threads 0 and nice 5 are the daemon's own: it sizes the
     * stages by its devices (parallel_share) and lowers the pool */
    assert_true(e.stage_threads >= 1 && e.witness_nice == 0);
    assert_int_equal(c.synthesis.prove_threads, e.prove_threads);
    assert_true(e.ready_max >= 1); /* the daemon's 0: sized by its device workers */
    assert_int_equal(c.memory.ready_bytes_max, e.ready_bytes_max);
    assert_int_equal(c.scheduler.aging_ms * 1000000, e.aging_ns);
    assert_int_equal(c.scheduler.max_retries, e.max_retries);
    assert_int_equal(c.scheduler.retry, e.retry);
    assert_int_equal(c.scheduler.max_retained, e.max_retained);
    assert_int_equal(c.scheduler.critical_lane, e.critical_lane);
    assert_int_equal(c.memory.witness_pack, e.witness_pack);
}

static void test_table(void **state)
{
    (void)state;
    size_t n = 0;
    for (const config_key_info_t *k; (k = config_key_info(n)); n++) {
        char key[128];
        snprintf(key, sizeof key, "%s.%s", k->section, k->name);
        /* Every default is accepted by the override path it is applied through. */
        cuzk_config_t c;
        config_default(&c);
        cuzk_error_t err = {CUZK_OK, ""};
        if (config_set(&c, key, k->def, &err) != CUZK_OK)
            fail_msg("default of %s refused: %s", key, err.msg);
        assert_ptr_equal(config_key_find(key), k);
        if (k->alias) {
            snprintf(key, sizeof key, "%s.%s", k->section, k->alias);
            assert_ptr_equal(config_key_find(key), k);
        }
        assert_non_null(k->help);
        for (size_t j = 0; j < n; j++) {
            const config_key_info_t *o = config_key_info(j);
            if (strcmp(o->section, k->section) == 0)
                assert_string_not_equal(o->name, k->name);
        }
    }
    assert_true(n >= 30);
    assert_null(config_key_find("daemon.nope"));
    assert_null(config_key_find("nope.listen"));
    assert_null(config_key_find("listen"));
    assert_null(config_key_find(NULL));
}

/* ---- cuzk.example.toml ---- */

static char *read_text(const char *path)
{
    size_t len;
    uint8_t *b = tu_read_file(path, &len);
    if (!b)
        fail_msg("cannot read %s", path);
    char *s = malloc(len + 1);
    memcpy(s, b, len);
    s[len] = '\0';
    free(b);
    return s;
}

static void test_example(void **state)
{
    (void)state;
    const char *path = CUZK_SOURCE_DIR "/cuzk.example.toml";
    cuzk_config_t c, def;
    config_default(&c);
    config_default(&def);
    config_warnings_t w = {0};
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = config_load(&c, &w, path, &err);
    if (st != CUZK_OK)
        fail_msg("%s", err.msg);
    if (w.n)
        fail_msg("example warns: %s", w.msg[0]);
    assert_int_equal(config_check(&c, NULL), CUZK_OK);
    /* The one deliberate difference. */
    assert_string_equal(c.daemon.http_listen, "127.0.0.1:9820");
    strcpy(c.daemon.http_listen, def.daemon.http_listen);
    const config_key_info_t *diff = NULL;
    if (!config_equal(&c, &def, &diff))
        fail_msg("example differs from the defaults at %s.%s", diff->section, diff->name);

    /* Every key is written out (and so documented) in its own section. */
    char *text = read_text(path);
    for (size_t i = 0; config_key_info(i); i++) {
        const config_key_info_t *k = config_key_info(i);
        char head[64], line[96];
        snprintf(head, sizeof head, "\n[%s]\n", k->section);
        snprintf(line, sizeof line, "\n%s = ", k->name);
        const char *sec = strstr(text, head);
        if (!sec)
            fail_msg("example has no [%s]", k->section);
        const char *next = strstr(sec + 1, "\n[");
        const char *at = strstr(sec, line);
        if (!at || (next && at > next))
            fail_msg("example does not set %s in [%s]", k->name, k->section);
        /* The comment above the key says its default. */
        const char *prev_blank = at;
        while (prev_blank > sec && !(prev_blank[0] == '\n' && prev_blank[-1] == '\n'))
            prev_blank--;
        char *block = strndup(prev_blank, (size_t)(at - prev_blank));
        if (!strstr(block, "Default"))
            fail_msg("example's comment on %s.%s does not give its default", k->section, k->name);
        free(block);
    }
    free(text);
    config_warnings_free(&w);
}

/* ---- value types ---- */

static void test_strings(void **state)
{
    (void)state;
    cuzk_config_t c;
    parse_ok(&c, "[logging]\n"
                 "events = \"a\\\"b\\\\c\\u00e9\\U0001F600/\xc3\xa9\" # trailing comment\n"
                 "[daemon]\n"
                 "journal = 'C:\\jobs\\j.db'\n"
                 "tls_cert = \"\"\n");
    assert_string_equal(c.logging.events, "a\"b\\c\xc3\xa9\xf0\x9f\x98\x80/\xc3\xa9");
    assert_string_equal(c.daemon.journal, "C:\\jobs\\j.db");
    assert_string_equal(c.daemon.tls_cert, "");

    parse_ok(&c, "[daemon]\r\nlisten = \"tcp://[::1]:9000\"\r\nhttp_listen=\"localhost:80\"\r\n");
    assert_string_equal(c.daemon.listen, "tcp://[::1]:9000");
    assert_string_equal(c.daemon.http_listen, "localhost:80");
    parse_ok(&c, "\xef\xbb\xbf[daemon]\n  listen\t=\t\"tcp://0.0.0.0:1\"\t\n");
    assert_string_equal(c.daemon.listen, "tcp://0.0.0.0:1");

    /* Escapes that decode to something TOML allows but a key does not. */
    expect_fail("[logging]\n\nevents = \"a\\nb\"\n", CUZK_ERR_ARG,
                "t.toml:3: [logging] events: control characters are not allowed");
    /* Escape-free strings in an unknown section are still checked. */
    parse_ok(&c, "[daemon]\n");
    config_warnings_t w = {0};
    config_default(&c);
    assert_int_equal(parse(&c, &w, "[x]\na = \"\\t\\n\\r\\b\\f\"\nb = 'x\\y'\n", NULL), CUZK_OK);
    assert_int_equal(w.n, 1);
    config_warnings_free(&w);
}

static void test_integers_bools_floats(void **state)
{
    (void)state;
    cuzk_config_t c;
    parse_ok(&c, "[daemon]\nmax_queued_jobs = 1_000\nresume = false\nsocket_mode = 0o640\n");
    assert_int_equal(c.daemon.max_queued_jobs, 1000);
    assert_int_equal(c.daemon.resume, 0);
    assert_int_equal(c.daemon.socket_mode, 0640);
    parse_ok(&c, "[daemon]\nrpc_workers = 4\nrpc_queue = 0\n");
    assert_int_equal(c.daemon.rpc_workers, 4);
    assert_int_equal(c.daemon.rpc_queue, 0);
    expect_fail("[daemon]\nrpc_workers = 0\n", CUZK_ERR_ARG,
                "[daemon] rpc_workers: 0 out of range 1..256");
    expect_fail("[daemon]\nrpc_workers = 257\n", CUZK_ERR_ARG, "out of range 1..256");
    parse_ok(&c, "[daemon]\nmax_queued_jobs = +7\nresume = true\nsocket_mode = 416\n");
    assert_int_equal(c.daemon.max_queued_jobs, 7);
    assert_int_equal(c.daemon.resume, 1);
    assert_int_equal(c.daemon.socket_mode, 0640);
    parse_ok(&c, "[daemon]\nmax_queued_jobs = 0x1F\nsocket_mode = \"0o600\"\n");
    assert_int_equal(c.daemon.max_queued_jobs, 31);
    assert_int_equal(c.daemon.socket_mode, 0600);
    parse_ok(&c, "[daemon]\nmax_queued_jobs = 0b101\nsocket_mode = \"660\"\n");
    assert_int_equal(c.daemon.max_queued_jobs, 5);
    assert_int_equal(c.daemon.socket_mode, 0660);
    parse_ok(&c, "[daemon]\nsocket_mode = 0\n");
    assert_int_equal(c.daemon.socket_mode, 0);

    /* Floats: durations take them as seconds, rounded down to a millisecond. */
    parse_ok(&c, "[scheduler]\naging = 2.5\n[daemon]\nresult_ttl = 1e1\n");
    assert_int_equal(c.scheduler.aging_ms, 2500);
    assert_int_equal(c.daemon.result_ttl_ms, 10000);
    parse_ok(&c, "[scheduler]\naging = 0.0015\n[daemon]\nresult_ttl = 1_0.2_5E+0_1\n");
    assert_int_equal(c.scheduler.aging_ms, 1);
    assert_int_equal(c.daemon.result_ttl_ms, 102500);
    parse_ok(&c, "[scheduler]\naging = -0.0\n");
    assert_int_equal(c.scheduler.aging_ms, 0);

    /* Every syntax in an unknown section, where only the parser sees it. */
    config_warnings_t w = {0};
    config_default(&c);
    const char *all = "[unknown]\na = 1\nb = -9_223_372_036_854_775_808\nc = 0x7FFFFFFFFFFFFFFF\n"
                      "d = 3.25e-2\ne = true\nf = [1, 2, ]\ng = [\"x\", 'y']\nh = []\n"
                      "i = 9_223_372_036_854_775_807\nj = 0o777\nk = 6.02E23\nl = -1e-400\n";
    cuzk_error_t err = {CUZK_OK, ""};
    if (parse(&c, &w, all, &err) != CUZK_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(w.n, 1);
    config_warnings_free(&w);
}

static void test_arrays_sizes_durations_enums(void **state)
{
    (void)state;
    cuzk_config_t c;
    parse_ok(&c,
             "[gpus]\ndevices = [0, 3, 7,]\nvram_budget = \"1.5GiB\"\nvram_headroom = 1024\n"
             "[srs]\npreload = [\"porep-32g\", 'wpost.v1_x']\nmax_resident = \"16 GiB\"\n"
             "[memory]\nhost_budget = \"1GB\"\nready_bytes_max = \"0\"\npinned_budget = 0\n"
             "witness_pack = \"always\"\n"
             "[scheduler]\naging = \"1h30m\"\nretry = \"any_device\"\n"
             "[daemon]\nresult_ttl = \"2d\"\n[logging]\nlevel = \"debug\"\nformat = \"json\"\n");
    assert_int_equal(c.gpus.n_devices, 3);
    assert_int_equal(c.gpus.devices[0], 0);
    assert_int_equal(c.gpus.devices[1], 3);
    assert_int_equal(c.gpus.devices[2], 7);
    assert_int_equal(c.gpus.vram_budget, 3 * GiB / 2);
    assert_int_equal(c.gpus.vram_headroom, 1024);
    assert_int_equal(c.srs.n_preload, 2);
    assert_string_equal(c.srs.preload[0], "porep-32g");
    assert_string_equal(c.srs.preload[1], "wpost.v1_x");
    assert_int_equal(c.srs.max_resident, 16 * GiB);
    assert_int_equal(c.memory.host_budget, 1000000000);
    assert_int_equal(c.memory.ready_bytes_max, 0);
    assert_int_equal(c.scheduler.aging_ms, 5400000);
    assert_int_equal(c.scheduler.retry, ENGINE_RETRY_ANY_DEVICE);
    assert_int_equal(c.memory.witness_pack, ENGINE_PACK_ALWAYS);
    assert_int_equal(c.daemon.result_ttl_ms, 2 * 86400000ull);
    assert_int_equal(c.logging.level, CONFIG_LOG_DEBUG);
    assert_int_equal(c.logging.format, CONFIG_LOG_JSON);

    parse_ok(&c, "[gpus]\ndevices = [ ]\n[srs]\npreload = []\n[scheduler]\naging = 0\n");
    assert_int_equal(c.gpus.n_devices, 0);
    assert_int_equal(c.srs.n_preload, 0);
    assert_int_equal(c.scheduler.aging_ms, 0);
    parse_ok(&c, "[scheduler]\naging = \"250ms\"\n[daemon]\nresult_ttl = 60\n");
    assert_int_equal(c.scheduler.aging_ms, 250);
    assert_int_equal(c.daemon.result_ttl_ms, 60000);
}

static void test_size_helper(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        uint64_t v;
    } ok[] = {
        {"0", 0},
        {"0B", 0},
        {"0GiB", 0},
        {"1", 1},
        {"1.5GiB", 1610612736},
        {"1.5GB", 1500000000},
        {"0.1KiB", 102}, /* 102.4, rounded down */
        {"512MiB", 536870912},
        {"16 GiB", 17179869184ull},
        {"1kB", 1000},
        {"1KB", 1000},
        {"1TiB", 1099511627776ull},
        {"2PB", 2000000000000000ull},
        {"18446744073709551615", UINT64_MAX},
        {"16383.99999999999999PiB", 18446744073709551604ull}, /* just under 2^64 */
        {"0.000000000000001PiB", 1},                          /* 1.13 */
        {"0.000000000000000001PiB", 0},                       /* 0.0011 */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 7;
        cuzk_error_t err = {CUZK_OK, ""};
        if (config_parse_size(&v, ok[i].s, &err) != CUZK_OK)
            fail_msg("\"%s\": %s", ok[i].s, err.msg);
        if (v != ok[i].v)
            fail_msg("\"%s\" = %llu, want %llu", ok[i].s, (unsigned long long)v,
                     (unsigned long long)ok[i].v);
    }
    static const struct {
        const char *s, *want;
    } bad[] = {
        {"", "empty"},
        {"-1", "negative"},
        {"-1GiB", "negative"},
        {"+1", "expected a number"},
        {"GiB", "expected a number"},
        {".5GiB", "expected a number"},
        {"1.GiB", "digits after '.'"},
        {"16gb", "bad size unit"},
        {"16EiB", "bad size unit"},
        {"16 ", "bad size unit"},
        {"16GiBs", "bad size unit"},
        {"1,5GiB", "bad size unit"},
        {"18446744073709551616", "more than 2^64-1"},
        {"16PiB", "ok"}, /* placeholder: 2^54, fits (see below) */
        {"16384PiB", "more than 2^64-1"},
        {"99999999999999999999999999999", "more than 2^64-1"},
        {"1.0000000000000000001GiB", "more than 18 fraction digits"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        cuzk_error_t err = {CUZK_OK, ""};
        cuzk_status st = config_parse_size(&v, bad[i].s, &err);
        if (strcmp(bad[i].want, "ok") == 0) {
            assert_int_equal(st, CUZK_OK);
            continue;
        }
        if (st != CUZK_ERR_ARG || !strstr(err.msg, bad[i].want))
            fail_msg("\"%s\": got %s \"%s\", want \"%s\"", bad[i].s, cuzk_status_str(st), err.msg,
                     bad[i].want);
        assert_int_equal(v, 7);
    }
}

static void test_duration_helper(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        uint64_t v;
    } ok[] = {
        {"0", 0},
        {"0s", 0},
        {"60", 60000},
        {"1.5", 1500},
        {"24h", 86400000},
        {"30m", 1800000},
        {"1h30m", 5400000},
        {"1m1s1ms", 61001},
        {"1.5s", 1500},
        {"1.0005s", 1000}, /* rounded down */
        {"250ms", 250},
        {"2d", 172800000},
        {"213503982334d", 213503982334ull * 86400000ull},
        {"18446744073709551615ms", UINT64_MAX},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 7;
        cuzk_error_t err = {CUZK_OK, ""};
        if (config_parse_duration(&v, ok[i].s, &err) != CUZK_OK)
            fail_msg("\"%s\": %s", ok[i].s, err.msg);
        if (v != ok[i].v)
            fail_msg("\"%s\" = %llu, want %llu", ok[i].s, (unsigned long long)v,
                     (unsigned long long)ok[i].v);
    }
    static const struct {
        const char *s, *want;
    } bad[] = {
        {"", "empty"},
        {"-1s", "negative"},
        {"1h30", "bad duration unit"},
        {"5x", "bad duration unit"},
        {"5 s", "bad duration unit"},
        {"h", "bad duration"},
        {"1.h", "bad duration"},
        {"213503982335d", "too long"},
        {"18446744073709551616ms", "too long"},
        {"1e3s", "bad duration unit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        cuzk_error_t err = {CUZK_OK, ""};
        cuzk_status st = config_parse_duration(&v, bad[i].s, &err);
        if (st != CUZK_ERR_ARG || !strstr(err.msg, bad[i].want))
            fail_msg("\"%s\": got %s \"%s\", want \"%s\"", bad[i].s, cuzk_status_str(st), err.msg,
                     bad[i].want);
        assert_int_equal(v, 7);
    }
    /* Range checks apply to the converted value. */
    expect_fail("[scheduler]\naging = \"25h\"\n", CUZK_ERR_ARG,
                "t.toml:2: [scheduler] aging: 90000000 out of range 0..86400000");
    expect_fail("[scheduler]\naging = -1\n", CUZK_ERR_ARG, "negative");
    expect_fail("[scheduler]\naging = -0.5\n", CUZK_ERR_ARG, "negative");
    expect_fail("[scheduler]\naging = 1e300\n", CUZK_ERR_ARG, "too long");
    expect_fail("[scheduler]\naging = 9223372036854775807\n", CUZK_ERR_ARG, "too long");
}

/* ---- errors ---- */

static void test_syntax_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"[daemon]\nlisten = \"unix:///a\"\nlisten = \"unix:///b\"\n",
         "t.toml:3: key 'listen' already set on line 2"},
        {"[daemon]\nhttp_listen = \"a:1\"\n\nstatus_listen = \"a:2\"\n",
         "t.toml:4: key 'status_listen' already set on line 2"},
        {"[x]\na = 1\n# c\na = 2\n", "t.toml:4: key 'a' already set on line 2"},
        {"[daemon]\n[memory]\n[daemon]\n", "t.toml:3: section [daemon] already given on line 1"},
        {"[x]\n[y]\n[ x ]\n", "t.toml:3: section [x] already given on line 1"},
        {"[daemon]\nlisten = \"unix:///a\n", "t.toml:2: unterminated string"},
        {"[daemon]\nlisten = 'unix:///a\n", "t.toml:2: unterminated string"},
        {"[daemon]\nlisten = \"a\\\"\n", "t.toml:2: unterminated string"},
        {"[daemon]\n\nlisten = \"\"\"x\"\"\"\n", "t.toml:3: multi-line strings"},
        {"[x]\na = '''x'''\n", "t.toml:2: multi-line strings"},
        {"[x]\na = \"\\x41\"\n", "t.toml:2: bad escape '\\x'"},
        {"[x]\na = \"\\u12\"\n", "t.toml:2: \\u needs 4 hex digits"},
        {"[x]\na = \"\\u12G4\"\n", "t.toml:2: \\u needs 4 hex digits"},
        {"[x]\na = \"\\uD800\"\n", "t.toml:2: \\uD800 is not a Unicode scalar value"},
        {"[x]\na = \"\\U00110000\"\n", "not a Unicode scalar value"},
        {"[x]\na = \"\\u0000\"\n", "t.toml:2: NUL (\\u0000) is not allowed"},
        {"[x]\na = \"a\tb\x01\"\n", "t.toml:2: control character 0x01 in a string"},
        {"[x]\na = 1__0\n", "t.toml:2: '_' must sit between two digits"},
        {"[x]\na = 1_\n", "'_' must sit between two digits"},
        {"[x]\na = _1\n", "bad value '_1'"},
        {"[x]\na = 01\n", "t.toml:2: leading zeros are not allowed (octal is written 0o1)"},
        {"[x]\na = 0600\n", "octal is written 0o600"},
        {"[x]\na = 0x\n", "t.toml:2: missing digits"},
        {"[x]\na = 0xG\n", "bad digit 'G' in a base-16 number"},
        {"[x]\na = 0b102\n", "bad digit '2' in a base-2 number"},
        {"[x]\na = +0x1\n", "a sign is not allowed before 0x"},
        {"[x]\na = 9223372036854775808\n", "t.toml:2: integer out of range"},
        {"[x]\na = -9223372036854775809\n", "integer out of range"},
        {"[x]\na = 99999999999999999999999\n", "integer out of range"},
        {"[x]\na = 0x8000000000000000\n", "integer out of range"},
        {"[x]\na = 1.\n", "t.toml:2: missing digits in a float"},
        {"[x]\na = .5\n", "bad value '.5'"},
        {"[x]\na = ,\n", "unexpected ',' where a value belongs"},
        {"[x]\na = 1e\n", "missing digits in a float"},
        {"[x]\na = 1.5.3\n", "bad number '1.5.3'"},
        {"[x]\na = 01.5\n", "leading zeros"},
        {"[x]\na = 1e999\n", "float out of range"},
        {"[x]\na = inf\n", "t.toml:2: inf and nan are not supported"},
        {"[x]\na = -nan\n", "inf and nan are not supported"},
        {"[x]\na = 1979-05-27\n", "t.toml:2: dates and times are not supported"},
        {"[x]\na = 07:32:00\n", "dates and times are not supported"},
        {"[x]\na = yes\n", "t.toml:2: bad value 'yes' (strings need quotes)"},
        {"[x]\na = True\n", "bad value 'True'"},
        {"[daemon]\nmax_queued_jobs = 4 5\n", "t.toml:2: unexpected text after the value"},
        {"[daemon]\nlisten = \"a\" \"b\"\n", "unexpected text after the value"},
        {"[daemon]\nlisten = \"a\"x\n", "unexpected text after the value"},
        {"[x]\na = [1] 2\n", "unexpected text after the value"},
        {"[x] y\n", "t.toml:1: unexpected text after the section header"},
        {"[a.b]\n", "t.toml:1: nested tables are not supported"},
        {"[x]\n[ a . b ]\n", "t.toml:2: nested tables are not supported"},
        {"[[a]]\n", "arrays of tables ([[...]]) are not supported"},
        {"[x]\na = {b = 1}\n", "t.toml:2: inline tables are not supported"},
        {"[x]\na.b = 1\n", "t.toml:2: dotted keys are not supported"},
        {"[x]\n\"a\" = 1\n", "quoted keys are not supported"},
        {"[\"x\"]\n", "quoted section names are not supported"},
        {"[]\n", "expected a section name, got ']'"},
        {"[x\n", "expected ']' after the section name"},
        {"[x]\na = \n", "t.toml:2: missing value"},
        {"[x]\na =# c\n", "missing value"},
        {"[x]\na 1\n", "t.toml:2: expected '=' after the key"},
        {"[x]\n= 1\n", "t.toml:2: expected a key, got '='"},
        {"[x]\na = [1, \"b\"]\n", "an array mixes strings and integers"},
        {"[x]\na = [[1]]\n", "nested arrays are not supported"},
        {"[x]\na = [true]\n", "arrays hold strings or integers, not a boolean"},
        {"[x]\na = [1.5]\n", "arrays hold strings or integers, not a float"},
        {"[x]\na = [1,,2]\n", "missing value in an array"},
        {"[x]\na = [,]\n", "missing value in an array"},
        {"[x]\na = [1 2]\n", "expected ',' or ']' in an array"},
        {"[x]\na = [1,\n2]\n", "t.toml:2: unterminated array (arrays must be on one line)"},
        {"[x]\na = [1 # c ]\n", "unterminated array"},
        {"[x]\na = 1 # bell \x07\n", "t.toml:2: control character 0x07 in a comment"},
        {"# \x7f\n", "t.toml:1: control character 0x7f in a comment"},
        {"[x]\na = 1\r2\n", "unexpected text after the value"},
        {"[x]\n\xff = 1\n", "t.toml:2: invalid UTF-8 at column 1"},
        {"[x]\na = \"\xc0\xaf\"\n", "t.toml:2: invalid UTF-8 at column 6"}, /* overlong '/' */
        {"[x]\na = \"\xed\xa0\x80\"\n", "invalid UTF-8"},                   /* a surrogate */
        {"[x]\na = \"\xf4\x90\x80\x80\"\n", "invalid UTF-8"},               /* above U+10FFFF */
        {"[x]\na = \"\xe2\x82\"\n", "invalid UTF-8"},                       /* truncated */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_fail(cases[i].text, CUZK_ERR_PARSE, cases[i].want);

    /* NUL bytes and long lines, with their line numbers. */
    expect_fail_len("[x]\na = 1\n# a\0b\n", 15, CUZK_ERR_PARSE, "t.toml:3: NUL byte");
    expect_fail_len("\0", 1, CUZK_ERR_PARSE, "t.toml:1: NUL byte");
    char *big = malloc(CONFIG_LINE_MAX + 32);
    memcpy(big, "[x]\na = \"", 9);
    memset(big + 9, 'y', CONFIG_LINE_MAX - 6);
    char *tail = big + 9 + CONFIG_LINE_MAX - 6;
    strcpy(tail, "\"\n"); /* line 2 is exactly CONFIG_LINE_MAX bytes */
    cuzk_config_t c;
    config_default(&c);
    assert_int_equal(strlen(big + 4), CONFIG_LINE_MAX + 1);
    assert_int_equal(parse(&c, NULL, big, NULL), CUZK_OK);
    strcpy(tail, "y\"\n"); /* one byte more */
    expect_fail(big, CUZK_ERR_PARSE, "t.toml:2: line longer than 4096 bytes");
    /* CRLF: the CR does not count toward the limit. */
    strcpy(tail, "\"\r\n");
    assert_int_equal(parse(&c, NULL, big, NULL), CUZK_OK);
    free(big);
}

static void test_value_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"[memory]\nready_max = \"4\"\n",
         "t.toml:2: [memory] ready_max: expected an integer, got a string"},
        {"[memory]\n\nready_max = 4097\n",
         "t.toml:3: [memory] ready_max: 4097 out of range 0..4096"},
        {"[memory]\nready_max = -1\n", "-1 out of range 0..4096"},
        {"[memory]\nready_max = 1.0\n", "expected an integer, got a float"},
        {"[memory]\nhost_budget = true\n", "[memory] host_budget: expected a size"},
        {"[memory]\nhost_budget = -1\n", "[memory] host_budget: a size cannot be negative"},
        {"[memory]\nhost_budget = \"16gb\"\n", "[memory] host_budget: bad size unit in \"16gb\""},
        {"[memory]\nhost_budget = 1.5\n", "expected a size"},
        {"[daemon]\nmax_message_bytes = 100\n", "[daemon] max_message_bytes: 100 out of range"},
        {"[daemon]\nmax_message_bytes = \"2GiB\"\n", "out of range 1024..2147483647"},
        {"[daemon]\nresume = 1\n",
         "t.toml:2: [daemon] resume: expected true or false, got an integer"},
        {"[daemon]\nlisten = 5\n", "[daemon] listen: expected a string, got an integer"},
        {"[daemon]\nlisten = [\"a\"]\n", "expected a string, got an array"},
        {"[daemon]\nlisten = \"0.0.0.0:9820\"\n",
         "[daemon] listen: write \"tcp://0.0.0.0:9820\" for a TCP address"},
        {"[daemon]\nlisten = \"unix://run/x.sock\"\n", "unix:// needs an absolute path"},
        {"[daemon]\nlisten = \"http://x:1\"\n", "expected unix:///path or tcp://host:port"},
        {"[daemon]\nlisten = \"tcp://x:0\"\n", "port 0 out of range 1..65535"},
        {"[daemon]\nlisten = \"tcp://x:65536\"\n", "port 65536 out of range"},
        {"[daemon]\nlisten = \"tcp://x\"\n", "expected host:port"},
        {"[daemon]\nlisten = \"tcp://a b:1\"\n", "bad host name"},
        {"[daemon]\nlisten = \"tcp://[::1]\"\n", "expected host:port or [ipv6]:port"},
        {"[daemon]\nlisten = \"tcp://[zz]:1\"\n", "bad IPv6 address"},
        {"[daemon]\nhttp_listen = \":80\"\n", "[daemon] http_listen: expected host:port"},
        {"[daemon]\nhttp_listen = \"x:8a\"\n", "bad port"},
        {"[daemon]\nsocket_mode = 600\n", "[daemon] socket_mode: mode 600 is not within 0..0777"},
        {"[daemon]\nsocket_mode = \"0800\"\n", "expected an octal mode such as \"0600\""},
        {"[daemon]\nsocket_mode = \"1777\"\n", "mode 1777 is not within 0..0777"},
        {"[daemon]\nsocket_mode = \"\"\n", "expected an octal mode"},
        {"[daemon]\nsocket_mode = true\n", "expected a mode"},
        {"[daemon]\njournal = \"\"\n", "[daemon] journal: must not be empty"},
        {"[srs]\nparam_cache = \"\"\n", "[srs] dir: must not be empty"},
        {"[logging]\nlevel = \"trace\"\n",
         "[logging] level: \"trace\" is not one of \"error\", \"warn\", \"info\", \"debug\""},
        {"[logging]\nformat = 1\n", "[logging] format: expected a string, got an integer"},
        {"[scheduler]\nretry = \"other\"\n", "is not one of \"any_device\", \"other_device\""},
        {"[memory]\nwitness_pack = \"on\"\n", "is not one of \"off\", \"auto\", \"always\""},
        {"[scheduler]\nmax_retries = 17\n", "[scheduler] max_retries: 17 out of range 0..16"},
        {"[gpus]\ndevices = [0, 0]\n", "[gpus] devices: 0 is listed twice"},
        {"[gpus]\ndevices = [256]\n", "[gpus] devices: 256 out of range 0..255"},
        {"[gpus]\ndevices = [-1]\n", "-1 out of range 0..255"},
        {"[gpus]\ndevices = [\"0\"]\n", "expected an array of integers"},
        {"[gpus]\ndevices = 0\n", "[gpus] devices: expected an array, got an integer"},
        {"[gpus]\nworkers_per_gpu = 0\n", "[gpus] workers_per_gpu: 0 out of range 1..64"},
        {"[gpus]\ngpu_workers_per_device = 65\n", "[gpus] workers_per_gpu: 65 out of range"},
        {"[srs]\npreload = [\"a b\"]\n", "[srs] preload: circuit_id has byte 0x20 at 1"},
        {"[srs]\npreload = [\"\"]\n", "circuit_id is empty"},
        {"[srs]\npreload = [\"a..b\"]\n", "circuit_id 'a..b' contains '..'"},
        {"[srs]\npreload = [\"x\", \"x\"]\n", "\"x\" is listed twice"},
        {"[srs]\npreload = [1]\n", "expected an array of strings"},
        {"[synthesis]\nthreads = 257\n", "[synthesis] threads: 257 out of range 0..256"},
        {"[synthesis]\nprove_threads = 1025\n", "out of range 0..1024"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_fail(cases[i].text, CUZK_ERR_ARG, cases[i].want);

    /* A string longer than its field. */
    char text[600];
    snprintf(text, sizeof text, "[daemon]\nhttp_listen = \"%0300d\"\n", 0);
    expect_fail(text, CUZK_ERR_ARG, "[daemon] http_listen: longer than 255 bytes");
    /* A unix socket path too long for sockaddr_un. */
    char path[200];
    memset(path, 'p', sizeof path);
    path[0] = '/';
    snprintf(text, sizeof text, "[daemon]\nlisten = \"unix://%.108s\"\n", path);
    expect_fail(text, CUZK_ERR_ARG, "unix socket path longer than 107 bytes");
    snprintf(text, sizeof text, "[daemon]\nlisten = \"unix://%.107s\"\n", path);
    cuzk_config_t c;
    parse_ok(&c, text);
    /* Too many devices. */
    char devs[400] = "[gpus]\ndevices = [";
    for (int i = 0; i <= CONFIG_MAX_GPUS; i++)
        snprintf(devs + strlen(devs), sizeof devs - strlen(devs), "%d,", i);
    strcat(devs, "]\n");
    expect_fail(devs, CUZK_ERR_ARG, "[gpus] devices: more than 32 items");
    /* A failure after good lines leaves every earlier key as it was. */
    expect_fail("[memory]\nready_max = 9\n[gpus]\ndevices = [1]\nworkers_per_gpu = 99\n",
                CUZK_ERR_ARG, "t.toml:5:");
}

static void test_warnings(void **state)
{
    (void)state;
    cuzk_config_t c;
    config_default(&c);
    config_warnings_t w = {0};
    cuzk_error_t err = {CUZK_OK, ""};
    const char *text = "top = 1\n"
                       "[daemon]\n"
                       "listen = \"tcp://h:1\"\n"
                       "foo = \"bar\"\n"
                       "[pipeline]\n"
                       "enabled = true\n"
                       "slot_size = 3\n"
                       "[gpus]\n"
                       "gpu_threads = 32\n";
    assert_int_equal(parse(&c, &w, text, &err), CUZK_OK);
    assert_int_equal(w.n, 4);
    assert_string_equal(w.msg[0], "t.toml:1: unknown key 'top' outside any section");
    assert_string_equal(w.msg[1], "t.toml:4: unknown key 'foo' in [daemon]");
    assert_string_equal(w.msg[2], "t.toml:5: unknown section [pipeline]");
    assert_string_equal(w.msg[3], "t.toml:9: unknown key 'gpu_threads' in [gpus]");
    assert_string_equal(c.daemon.listen, "tcp://h:1");
    /* Warnings accumulate over loads; a failed one adds none. */
    assert_int_equal(parse(&c, &w, "[x]\n", &err), CUZK_OK);
    assert_int_equal(w.n, 5);
    assert_int_not_equal(parse(&c, &w, "[y]\n[z]\na = \"\n", &err), CUZK_OK);
    assert_int_equal(w.n, 5);
    config_warnings_free(&w);
    assert_int_equal(w.n, 0);
    assert_null(w.msg);
    config_warnings_free(&w);
    config_warnings_free(NULL);
    /* NULL warnings: dropped. */
    assert_int_equal(parse(&c, NULL, text, &err), CUZK_OK);

    /* Upstream Curio cuzk's example (abridged) loads: its shared keys are
     * read, the rest become warnings. */
    const char *upstream =
        "[daemon]\nlisten = \"tcp://0.0.0.0:9820\"\nstatus_listen = \"0.0.0.0:9821\"\n"
        "[srs]\nparam_cache = \"/data/zk/params\"\n"
        "[memory]\ntotal_budget = \"auto\"\nsafety_margin = \"5GiB\"\n"
        "eviction_min_idle = \"5m\"\n"
        "[gpus]\ndevices = []\ngpu_threads = 32\ngpu_workers_per_device = 2\n"
        "[scheduler]\nmax_batch_size = 1\nmax_batch_wait_ms = 10000\n"
        "sort_by_type = true\n"
        "[synthesis]\nthreads = 0\n"
        "[pipeline]\nenabled = true\nsynthesis_lookahead = 1\n"
        "[logging]\nlevel = \"info\"\n";
    config_default(&c);
    if (parse(&c, &w, upstream, &err) != CUZK_OK)
        fail_msg("%s", err.msg);
    assert_string_equal(c.daemon.http_listen, "0.0.0.0:9821");
    assert_string_equal(c.srs.dir, "/data/zk/params");
    assert_int_equal(c.gpus.workers_per_gpu, 2);
    assert_int_equal(c.synthesis.threads, 0);
    assert_int_equal(w.n, 8);
    config_warnings_free(&w);
}

/* ---- overrides ---- */

static void set_ok(cuzk_config_t *c, const char *key, const char *value)
{
    cuzk_error_t err = {CUZK_OK, ""};
    if (config_set(c, key, value, &err) != CUZK_OK)
        fail_msg("--set %s=%s: %s", key, value, err.msg);
}

static void set_fail(const char *key, const char *value, cuzk_status code, const char *want)
{
    cuzk_config_t c, before;
    config_default(&c);
    before = c;
    cuzk_error_t err = {CUZK_OK, ""};
    cuzk_status st = config_set(&c, key, value, &err);
    if (st != code || !strstr(err.msg, want))
        fail_msg("--set %s=%s: got %s \"%s\", want %s \"%s\"", key, value, cuzk_status_str(st),
                 err.msg, cuzk_status_str(code), want);
    assert_true(config_equal(&c, &before, NULL));
}

static void test_overrides(void **state)
{
    (void)state;
    cuzk_config_t c;
    config_default(&c);
    set_ok(&c, "gpus.vram_budget", "16GiB");
    assert_int_equal(c.gpus.vram_budget, 16 * GiB);
    set_ok(&c, "gpus.vram_budget", "4096");
    assert_int_equal(c.gpus.vram_budget, 4096);
    set_ok(&c, "gpus.vram_budget", "\"1MiB\"");
    assert_int_equal(c.gpus.vram_budget, MiB);
    set_ok(&c, "daemon.listen", "tcp://127.0.0.1:9000");
    assert_string_equal(c.daemon.listen, "tcp://127.0.0.1:9000");
    set_ok(&c, "daemon.listen", "\"unix:///tmp/a b.sock\"");
    assert_string_equal(c.daemon.listen, "unix:///tmp/a b.sock");
    set_ok(&c, "logging.events", "'C:\\x'");
    assert_string_equal(c.logging.events, "C:\\x");
    set_ok(&c, "daemon.socket_mode", "0660");
    assert_int_equal(c.daemon.socket_mode, 0660);
    set_ok(&c, "daemon.max_queued_jobs", "  12");
    assert_int_equal(c.daemon.max_queued_jobs, 12);
    set_ok(&c, "daemon.max_queued_jobs", "0x10");
    assert_int_equal(c.daemon.max_queued_jobs, 16);
    set_ok(&c, "daemon.resume", "false");
    assert_int_equal(c.daemon.resume, 0);
    set_ok(&c, "daemon.result_ttl", "30m");
    assert_int_equal(c.daemon.result_ttl_ms, 1800000);
    set_ok(&c, "daemon.result_ttl", "90");
    assert_int_equal(c.daemon.result_ttl_ms, 90000);
    set_ok(&c, "scheduler.retry", "any_device");
    assert_int_equal(c.scheduler.retry, ENGINE_RETRY_ANY_DEVICE);
    set_ok(&c, "gpus.devices", "[1, 2]");
    assert_int_equal(c.gpus.n_devices, 2);
    assert_int_equal(c.gpus.devices[1], 2);
    set_ok(&c, "gpus.devices", "3, 4,5");
    assert_int_equal(c.gpus.n_devices, 3);
    assert_int_equal(c.gpus.devices[2], 5);
    set_ok(&c, "gpus.devices", "");
    assert_int_equal(c.gpus.n_devices, 0);
    set_ok(&c, "srs.preload", "a, b.c");
    assert_int_equal(c.srs.n_preload, 2);
    assert_string_equal(c.srs.preload[1], "b.c");
    set_ok(&c, "srs.preload", "[\"z\"]");
    assert_int_equal(c.srs.n_preload, 1);
    assert_string_equal(c.srs.preload[0], "z");
    set_ok(&c, "srs.param_cache", "/p");
    assert_string_equal(c.srs.dir, "/p");
    set_ok(&c, "daemon.http_listen", "");
    assert_string_equal(c.daemon.http_listen, "");

    set_fail("gpus.nope", "1", CUZK_ERR_ARG, "unknown config key 'gpus.nope'");
    set_fail("vram_budget", "1", CUZK_ERR_ARG, "config key 'vram_budget' is not section.key");
    set_fail("gpus.vram_budget", "16XB", CUZK_ERR_ARG, "[gpus] vram_budget: bad size unit");
    set_fail("gpus.vram_budget", "\"16GiB", CUZK_ERR_PARSE, "[gpus] vram_budget: unterminated");
    set_fail("gpus.devices", "[1,", CUZK_ERR_PARSE, "unterminated array");
    set_fail("gpus.devices", "1,,2", CUZK_ERR_ARG, "empty item");
    set_fail("gpus.devices", "1,", CUZK_ERR_ARG, "empty item");
    set_fail("gpus.devices", "1,x", CUZK_ERR_ARG, "bad value 'x'");
    set_fail("gpus.devices", "1,1", CUZK_ERR_ARG, "1 is listed twice");
    set_fail("srs.preload", "a,a", CUZK_ERR_ARG, "\"a\" is listed twice");
    set_fail("daemon.max_queued_jobs", "many", CUZK_ERR_ARG, "bad value 'many'");
    set_fail("daemon.max_queued_jobs", "0", CUZK_ERR_ARG, "0 out of range");
    set_fail("daemon.max_queued_jobs", "1 2", CUZK_ERR_ARG, "unexpected text");
    set_fail("daemon.resume", "yes", CUZK_ERR_ARG, "bad value 'yes'");
    set_fail("daemon.listen", "tcp://x", CUZK_ERR_ARG, "[daemon] listen: expected host:port");
    set_fail("logging.level", "loud", CUZK_ERR_ARG, "[logging] level: \"loud\" is not one of");
    set_fail("daemon.socket_mode", "999", CUZK_ERR_ARG, "expected an octal mode");
    set_fail("logging.events", "/a\xff", CUZK_ERR_ARG, "[logging] events: not valid UTF-8");
    set_fail("logging.events", "\"/a\xc3\"", CUZK_ERR_ARG, "not valid UTF-8");
    set_fail("logging.events", "/a\x01b", CUZK_ERR_ARG, "control characters");
    char *huge = malloc(CONFIG_LINE_MAX + 2);
    memset(huge, 'a', CONFIG_LINE_MAX + 1);
    huge[CONFIG_LINE_MAX + 1] = '\0';
    set_fail("logging.events", huge, CUZK_ERR_ARG, "value longer than 4096 bytes");
    free(huge);
    assert_int_equal(config_set(&c, NULL, "1", NULL), CUZK_ERR_ARG);
    assert_int_equal(config_set(&c, "a.b", NULL, NULL), CUZK_ERR_ARG);
}

static void test_check(void **state)
{
    (void)state;
    cuzk_config_t c;
    cuzk_error_t err = {CUZK_OK, ""};
    config_default(&c);
    set_ok(&c, "daemon.tls_cert", "/c.pem");
    assert_int_equal(config_check(&c, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "[daemon] tls_cert and tls_key: give both or neither"));
    set_ok(&c, "daemon.tls_key", "/k.pem");
    assert_int_equal(config_check(&c, &err), CUZK_OK);
    set_ok(&c, "daemon.tls_cert", "");
    assert_int_equal(config_check(&c, &err), CUZK_ERR_ARG);
    set_ok(&c, "daemon.tls_key", "");
    set_ok(&c, "memory.ready_bytes_max", "2GiB");
    assert_int_equal(config_check(&c, &err), CUZK_OK); /* host_budget 0: no limit */
    set_ok(&c, "memory.host_budget", "1GiB");
    assert_int_equal(config_check(&c, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "[memory] ready_bytes_max"));
    set_ok(&c, "memory.ready_bytes_max", "1GiB");
    set_ok(&c, "memory.pinned_budget", "2GiB");
    assert_int_equal(config_check(&c, &err), CUZK_ERR_ARG);
    assert_non_null(strstr(err.msg, "[memory] pinned_budget"));
    set_ok(&c, "memory.pinned_budget", "1GiB");
    assert_int_equal(config_check(&c, &err), CUZK_OK);
}

static void test_load(void **state)
{
    (void)state;
    cuzk_config_t c;
    config_default(&c);
    cuzk_error_t err = {CUZK_OK, ""};
    assert_int_equal(config_load(&c, NULL, "/nonexistent/cuzk.toml", &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/cuzk.toml"));

    char path[] = "/tmp/cuzk_cfg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("[memory]\nready_max = 3\nready_max = 4\n", f);
    fclose(f);
    assert_int_equal(config_load(&c, NULL, path, &err), CUZK_ERR_PARSE);
    char want[128];
    snprintf(want, sizeof want, "%s:3: key 'ready_max' already set on line 2", path);
    assert_string_equal(err.msg, want);

    f = fopen(path, "w");
    for (int i = 0; i < CONFIG_FILE_MAX / 16 + 1; i++)
        fputs("# padding......\n", f);
    fclose(f);
    assert_int_equal(config_load(&c, NULL, path, &err), CUZK_ERR_PARSE);
    assert_non_null(strstr(err.msg, "larger than 1048576 bytes"));
    unlink(path);
    assert_int_equal(config_parse(&c, NULL, NULL, 0, NULL, NULL), CUZK_OK);
    assert_int_equal(config_parse(&c, NULL, NULL, 1, NULL, NULL), CUZK_ERR_ARG);
}

/* ---- round trips and garbage ---- */

static uint64_t rand_below(uint64_t n)
{
    return n ? tu_rand64() % n : 0;
}

/* A value for key k, as config_set takes it, within its bounds. */
static void rand_value(char *out, size_t n, const config_key_info_t *k)
{
    uint64_t span = k->max - k->min;
    uint64_t x = k->min + (span == UINT64_MAX ? tu_rand64() : rand_below(span + 1));
    if (tu_rand64() % 4 == 0)
        x = tu_rand64() % 2 ? k->min : k->max; /* edges */
    switch (k->type) {
    case CONFIG_STRING:
        if (strcmp(k->name, "listen") == 0)
            snprintf(out, n, "tcp://host%llu:%llu", (unsigned long long)x % 100,
                     1 + (unsigned long long)x % 65535);
        else if (strcmp(k->name, "http_listen") == 0)
            snprintf(out, n, "[::%llx]:%llu", (unsigned long long)x % 0xffff,
                     1 + (unsigned long long)x % 65535);
        else
            snprintf(out, n, "/p/\"q\"\\r %llu \xc3\xa9", (unsigned long long)x);
        return;
    case CONFIG_INT:
    case CONFIG_SIZE: snprintf(out, n, "%llu", (unsigned long long)x); return;
    case CONFIG_DURATION: snprintf(out, n, "%llums", (unsigned long long)x); return;
    case CONFIG_BOOL: snprintf(out, n, "%s", x & 1 ? "true" : "false"); return;
    case CONFIG_MODE: snprintf(out, n, "%llo", (unsigned long long)(x % 0777)); return;
    case CONFIG_ENUM: {
        size_t m = 0;
        while (k->names[m])
            m++;
        snprintf(out, n, "%s", k->names[x % m]);
        return;
    }
    case CONFIG_INT_LIST: {
        size_t used = 0;
        out[0] = '\0';
        unsigned items = (unsigned)rand_below(CONFIG_MAX_GPUS + 1);
        for (unsigned i = 0; i < items; i++) /* distinct: a stride through 0..255 */
            used += (size_t)snprintf(out + used, n - used, "%s%u", i ? "," : "",
                                     (unsigned)((x + i * 7) % 256));
        return;
    }
    case CONFIG_STR_LIST: {
        size_t used = 0;
        out[0] = '\0';
        unsigned items = (unsigned)rand_below(8);
        for (unsigned i = 0; i < items; i++)
            used += (size_t)snprintf(out + used, n - used, "%sc%u.v-%llu", i ? "," : "", i,
                                     (unsigned long long)x % 1000);
        return;
    }
    }
}

static void round_trip(const cuzk_config_t *c)
{
    char *text;
    size_t len;
    assert_int_equal(config_dump(&text, &len, c, NULL), CUZK_OK);
    assert_int_equal(strlen(text), len);
    cuzk_config_t back;
    config_default(&back);
    memset(&back.gpus, 0x5a, sizeof back.gpus); /* every key must be written */
    cuzk_error_t err = {CUZK_OK, ""};
    config_warnings_t w = {0};
    if (config_parse(&back, &w, text, len, "dump", &err) != CUZK_OK)
        fail_msg("%s\n--- dump:\n%s", err.msg, text);
    assert_int_equal(w.n, 0);
    const config_key_info_t *diff = NULL;
    if (!config_equal(&back, c, &diff))
        fail_msg("round trip changed %s.%s\n--- dump:\n%s", diff->section, diff->name, text);
    free(text);
}

static void test_dump_round_trip(void **state)
{
    (void)state;
    cuzk_config_t c;
    config_default(&c);
    round_trip(&c);
    char *text;
    size_t len;
    assert_int_equal(config_dump(&text, &len, &c, NULL), CUZK_OK);
    assert_non_null(strstr(text, "[daemon]\nlisten = \"unix:///run/cuzk/cuzk.sock\"\n"));
    assert_non_null(strstr(text, "socket_mode = \"0600\"\n"));
    assert_non_null(strstr(text, "result_ttl = \"1d\"\n"));
    assert_non_null(strstr(text, "vram_headroom = \"512MiB\"\n"));
    assert_non_null(strstr(text, "devices = []\n"));
    free(text);

    int iters = tu_iters(300);
    for (int it = 0; it < iters; it++) {
        config_default(&c);
        for (size_t i = 0; config_key_info(i); i++) {
            const config_key_info_t *k = config_key_info(i);
            if (tu_rand64() % 3 == 0)
                continue;
            char key[96], value[1024];
            snprintf(key, sizeof key, "%s.%s", k->section, k->name);
            rand_value(value, sizeof value, k);
            set_ok(&c, key, value);
        }
        round_trip(&c);
    }
}

static void test_garbage(void **state)
{
    (void)state;
    /* Mostly TOML-shaped bytes, so the parser gets past the first line. */
    static const char alphabet[] = "[]=\"'#\\ \t\n\r.,_-+0123456789abcdefxobnu{}eE:";
    static const char *const pieces[] = {
        "[daemon]\n",    "[gpus]\n", "listen = ", "devices = [",
        "\"unix:///a\"", "16GiB",    "\\u00e9",   "true",
        "0x1F",          "1.5e3",    "# c\n",     "[srs]\npreload = [\"a\"]\n",
        "\xc3",          "\xff",     "\0",
    };
    int iters = tu_iters(200);
    char *buf = malloc(10240);
    for (int it = 0; it < iters; it++) {
        size_t n = 0;
        while (n < 10240) {
            uint64_t r = tu_rand64();
            if (r % 4 == 0) {
                const char *p = pieces[(r >> 8) % (sizeof pieces / sizeof pieces[0])];
                size_t l = p[0] ? strlen(p) : 1;
                if (n + l > 10240)
                    break;
                memcpy(buf + n, p, l);
                n += l;
            } else if (r % 4 == 1) {
                buf[n++] = (char)(r >> 8);
            } else {
                buf[n++] = alphabet[(r >> 8) % (sizeof alphabet - 1)];
            }
        }
        cuzk_config_t c, before;
        config_default(&c);
        before = c;
        config_warnings_t w = {0};
        cuzk_error_t err = {CUZK_OK, ""};
        cuzk_status st = config_parse(&c, &w, buf, n, "g.toml", &err);
        if (st != CUZK_OK) {
            assert_int_equal(err.code, st);
            assert_true(strncmp(err.msg, "g.toml:", 7) == 0 || st == CUZK_ERR_NOMEM);
            assert_true(config_equal(&c, &before, NULL));
            assert_int_equal(w.n, 0);
        } else {
            round_trip(&c);
        }
        config_warnings_free(&w);
    }
    free(buf);
}

int main(void)
{
    tu_init("test_config");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_integers_bools_floats),
        cmocka_unit_test(test_arrays_sizes_durations_enums),
        cmocka_unit_test(test_size_helper),
        cmocka_unit_test(test_duration_helper),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_value_errors),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_dump_round_trip),
        cmocka_unit_test(test_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
