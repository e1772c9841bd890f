/* The daemon's configuration file (cuzk.toml) and command-line overrides.
 *
 * Format. A strict reader for the subset of TOML 1.0 a flat config needs:
 * `[section]` headers, `key = value` lines, `#` comments and blank lines.
 * Values: basic strings "..." (escapes \" \\ \n \t \r \b \f \uXXXX
 * \UXXXXXXXX), literal strings '...', integers (decimal with an optional
 * sign and _ between digits; 0x, 0o and 0b without a sign), booleans, floats
 * (a fraction or an exponent; no inf/nan), and arrays of strings or of
 * integers written on one line. Anything else is refused with
 * CUZK_ERR_PARSE and a message "<file>:<line>: <what was wrong>": a key or
 * section given twice, an unterminated string, a bad number or escape, text
 * after a value, dotted keys, nested tables ([a.b], [[a]], inline tables),
 * multi-line strings or arrays, mixed or nested arrays, dates, NUL bytes,
 * control characters, invalid UTF-8, lines over CONFIG_LINE_MAX bytes.
 *
 * Keys. Every option is a row of one table (config_key_info): its section,
 * name, type, default and bounds; config_default, config_parse and
 * config_set all go through it, so a value is checked the same way wherever
 * it comes from. Unknown sections and keys are not errors: each one adds a
 * warning ("cuzk.toml:12: unknown key 'foo' in [daemon]") for the caller to
 * print, so a file written for another version still loads. A known key
 * with a bad value (wrong type, out of range, not one of an enum's names) is
 * CUZK_ERR_ARG naming it: "cuzk.toml:7: [memory] vram_budget: ...". Some
 * keys also answer to upstream Curio cuzk's name (config_key_info_t.alias:
 * daemon.status_listen, gpus.gpu_workers_per_device, srs.param_cache);
 * giving both in one section is a duplicate key. Upstream keys with no
 * counterpart here (memory.total_budget, [pipeline], ...) are warnings.
 *
 * Value types of the keys:
 *  - size: an integer (bytes) or a string "<number>[ ]<unit>" with unit B,
 *    KiB, MiB, GiB, TiB, PiB (powers of 1024) or kB/KB, MB, GB, TB, PB
 *    (powers of 1000), or no unit (bytes); a fraction ("1.5GiB") is rounded
 *    down to a whole byte (config_parse_size);
 *  - duration: an integer or float (seconds) or a string of <number><unit>
 *    terms, unit ms, s, m, h or d ("24h", "1h30m", "1.5s", "250ms"); a bare
 *    number string is seconds; rounded down to a whole millisecond
 *    (config_parse_duration);
 *  - mode: a file mode 0..0777 given as an integer (0o600 or its decimal
 *    value) or an octal string ("0600", "600", "0o600").
 *
 * Rules for these functions:
 *  - argument order: outputs first, then inputs, cuzk_error_t *err last;
 *  - NULL: err and warnings may be NULL (and config_parse's name: "config");
 *    every other pointer is required (CUZK_ERR_ARG);
 *  - on failure *cfg is unchanged (config_parse, config_load, config_set);
 *  - thread safety: no shared state: calls on different configs may run at
 *    once, calls on one config need the caller's lock. */
#ifndef CUZK_CONFIG_H
#define CUZK_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/request.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CONFIG_LINE_MAX 4096    /* bytes in one line, the newline not counted */
#define CONFIG_FILE_MAX 1048576 /* config_load refuses larger files */
#define CONFIG_ADDR_MAX 256     /* listen addresses, NUL included */
#define CONFIG_PATH_MAX 1024    /* paths, NUL included */
#define CONFIG_MAX_GPUS ENGINE_MAX_DEVICES
#define CONFIG_GPU_ORDINAL_MAX 255
#define CONFIG_MAX_PRELOAD 64
#define CONFIG_ID_MAX (REQUEST_CIRCUIT_ID_MAX + 1) /* a circuit id, NUL included (request.h) */

typedef enum config_log_level {
    CONFIG_LOG_ERROR = 0,
    CONFIG_LOG_WARN = 1,
    CONFIG_LOG_INFO = 2,
    CONFIG_LOG_DEBUG = 3,
} config_log_level;

typedef enum config_log_format {
    CONFIG_LOG_TEXT = 0, /* one human-readable line per message */
    CONFIG_LOG_JSON = 1, /* one JSON object per line */
} config_log_format;

/* The typed configuration. Strings are NUL-terminated and fit their arrays
 * (longer values are refused). Durations are milliseconds, sizes bytes.
 * Defaults (config_default) are those of cuzk.example.toml's comments. */
typedef struct cuzk_config {
    struct {
        /* "unix:///path" (the path below 108 bytes) or "tcp://host:port"
         * (host a name, an IPv4 address or [IPv6]); "unix:///run/cuzk/cuzk.sock" */
        char listen[CONFIG_ADDR_MAX];
        unsigned socket_mode; /* a unix socket's file mode; 0600 */
        /* The HTTP status/metrics listener "host:port"; "" (default): off */
        char http_listen[CONFIG_ADDR_MAX];
        uint64_t max_message_bytes;     /* largest gRPC message, 1 KiB..2 GiB-1; 128 MiB */
        unsigned max_queued_jobs;       /* unfinished jobs before submit is refused; 1024 */
        unsigned rpc_workers;           /* gRPC handler threads, 1..256; 128 */
        unsigned rpc_queue;             /* calls waiting for a handler, 0..65536; 256 */
        char tls_cert[CONFIG_PATH_MAX]; /* PEM paths; both or neither (config_check); "" */
        char tls_key[CONFIG_PATH_MAX];
        char journal[CONFIG_PATH_MAX]; /* the SQLite job journal; "cuzk-journal.db" */
        uint64_t result_ttl_ms;        /* finished results kept this long; 24 h */
        int resume;                    /* 1: unfinished journal jobs are resumed at start (default);
                                        * 0: they are marked failed */
    } daemon;
    struct {
        uint64_t host_budget;     /* host bytes for keys and witnesses; 0 (default): no limit */
        uint64_t ready_bytes_max; /* host bytes of witnessed partitions waiting; 0: no limit */
        /* witnessed partitions waiting for a device, 0..4096; 0 (the
         * default): one per device worker and 2 more */
        unsigned ready_max;
        uint64_t pinned_budget; /* page-locked host bytes for transfers; 0: no limit */
        /* engine_config_t.witness_pack: "off" (default), "auto", "always" */
        engine_witness_pack witness_pack;
    } memory;
    struct {
        int devices[CONFIG_MAX_GPUS]; /* GPU ordinals, distinct; n_devices 0 (default): all */
        unsigned n_devices;
        unsigned workers_per_gpu; /* proofs in flight per GPU, 1..64; 2 */
        uint64_t vram_budget;     /* ledger budget per GPU; 0 (default): free memory at start
                                   * minus vram_headroom */
        uint64_t vram_headroom;   /* kept free when vram_budget is 0; 512 MiB */
    } gpus;
    struct {
        uint64_t aging_ms;     /* one priority level per period waited; 0: off; 10 s */
        unsigned max_retries;  /* device failures retried per partition, 0..16; 1 */
        engine_retry retry;    /* "any_device" or "other_device" (default) */
        unsigned max_retained; /* finished jobs the engine keeps, 1..1000000; 1024 */
        int critical_lane;     /* engine_config_t.critical_lane; true */
    } scheduler;
    struct {
        int threads; /* witness/verify pool, 0..256 (0: one per CPU); 2 */
        /* threads inside one witness/parse/check/verify, 0..256; 0 (the
         * default): the CPUs left after 2 per device worker and 1,
         * shared by the pool threads (parallel_share) */
        int stage_threads;
        int nice;          /* added to the pool threads' nice value, 0..19; 5 */
        int prove_threads; /* groth16_prove's threads, 0..1024 (0: all CPUs); 0 */
    } synthesis;
    struct {
        char dir[CONFIG_PATH_MAX]; /* the circuit registry; "/var/lib/cuzk/srs" */
        /* Filecoin's v28 .params/.vk files (and the circuits cached beside
         * them); "" (default): $FIL_PROOFS_PARAMETER_CACHE, else
         * /var/tmp/filecoin-proof-parameters, as filecoin-proofs does */
        char filecoin_params[CONFIG_PATH_MAX];
        char preload[CONFIG_MAX_PRELOAD][CONFIG_ID_MAX]; /* circuit ids, distinct */
        unsigned n_preload;
        uint64_t max_resident; /* host bytes of loaded keys; 0 (default): no limit */
    } srs;
    struct {
        config_log_level level;       /* "error", "warn", "info" (default), "debug" */
        config_log_format format;     /* "text" (default) or "json" */
        char events[CONFIG_PATH_MAX]; /* JSON-lines stage event log; "" (default): off */
    } logging;
} cuzk_config_t;

/* Warnings collected by config_parse and config_load: n malloc'd messages. */
typedef struct config_warnings {
    char **msg;
    size_t n;
} config_warnings_t;

/* Frees every message and zeroes *w. NULL: nothing. */
void config_warnings_free(config_warnings_t *w);

/* Fills *cfg with every key's default. */
void config_default(cuzk_config_t *cfg);

/* Applies the settings of text (len bytes, no NUL needed; name is the file
 * name used in messages) on top of *cfg: keys the text does not mention
 * keep their values, so start from config_default. Cross-key rules are
 * config_check's, to be called after the last override.
 * Returns: CUZK_OK; CUZK_ERR_PARSE (syntax); CUZK_ERR_ARG (a known key's
 * bad value); CUZK_ERR_NOMEM. Warnings are appended to *warnings (NULL:
 * dropped); on failure *warnings is as it was. */
cuzk_status config_parse(cuzk_config_t *cfg, config_warnings_t *warnings, const char *text,
                         size_t len, const char *name, cuzk_error_t *err);

/* config_parse on the file at path (messages name it as given).
 * Returns config_parse's codes, and CUZK_ERR_IO (unreadable) or
 * CUZK_ERR_PARSE (larger than CONFIG_FILE_MAX). */
cuzk_status config_load(cuzk_config_t *cfg, config_warnings_t *warnings, const char *path,
                        cuzk_error_t *err);

/* Applies one override "section.key" = value with the file's validation
 * (for --set section.key=value and the CLI's own flags). value is the
 * value's text: a string key takes it literally unless it starts with a
 * quote (then it is a TOML string: "\"a b\"", "'C:\\x'"), other keys read
 * it as their type ("16GiB", "24h", "0600", "true", "3"); a list is
 * "[0, 1]" (TOML), "0,1" or "" (empty).
 * Returns: CUZK_OK; CUZK_ERR_ARG (unknown key, bad value: the message
 * names "[section] key"); CUZK_ERR_PARSE (a quoted value, or a list in
 * brackets, that is not valid TOML). */
cuzk_status config_set(cuzk_config_t *cfg, const char *key, const char *value, cuzk_error_t *err);

/* The rules between keys: tls_cert and tls_key both set or both empty;
 * ready_bytes_max and pinned_budget within a non-zero host_budget.
 * Returns CUZK_OK or CUZK_ERR_ARG naming the keys. */
cuzk_status config_check(const cuzk_config_t *cfg, cuzk_error_t *err);

/* Writes cfg as a TOML document that config_parse reads back to an equal
 * config (every key, sizes with the largest exact binary unit), into a
 * malloc'd NUL-terminated *out of *len bytes. Returns CUZK_OK or
 * CUZK_ERR_NOMEM. */
cuzk_status config_dump(char **out, size_t *len, const cuzk_config_t *cfg, cuzk_error_t *err);

typedef struct config_key_info config_key_info_t;

/* Compares every option of a and b (not padding).
 * Returns 1 when equal; else 0 with the first differing option in *which
 * (which may be NULL). */
int config_equal(const cuzk_config_t *a, const cuzk_config_t *b, const config_key_info_t **which);

/* ---- the option table ---- */

typedef enum config_type {
    CONFIG_STRING = 0,
    CONFIG_INT, /* an integer within [min, max] */
    CONFIG_BOOL,
    CONFIG_SIZE,     /* bytes within [min, max] */
    CONFIG_DURATION, /* milliseconds within [min, max] */
    CONFIG_MODE,
    CONFIG_ENUM,     /* one of a list of names */
    CONFIG_INT_LIST, /* integers within [min, max], distinct */
    CONFIG_STR_LIST, /* circuit ids, distinct */
} config_type;

struct config_key_info {
    const char *section;
    const char *name;
    const char *alias; /* upstream cuzk's name for the key, or NULL */
    config_type type;
    const char *def;   /* the default, written as config_set takes it */
    uint64_t min, max; /* CONFIG_INT, SIZE, DURATION, INT_LIST (INT may be negative: none is) */
    const char *const *names; /* CONFIG_ENUM: NULL-terminated */
    int runtime;              /* 1: safe to change in a running daemon (a reload) */
    const char *help;         /* one line */
};

/* The i-th option (0, 1, ...); NULL past the last. */
const config_key_info_t *config_key_info(size_t i);
/* The option "section.key" (or its alias); NULL when unknown. */
const config_key_info_t *config_key_find(const char *key);

/* ---- value helpers (also used for command-line flags) ---- */

/* Returns: CUZK_OK with *bytes; CUZK_ERR_ARG (empty, negative, bad unit,
 * over 18 fraction digits, more than 2^64-1 bytes), the message quoting s. */
cuzk_status config_parse_size(uint64_t *bytes, const char *s, cuzk_error_t *err);
/* Returns: CUZK_OK with *ms; CUZK_ERR_ARG (empty, negative, a term without a
 * unit after the first, bad unit, overflow), the message quoting s. */
cuzk_status config_parse_duration(uint64_t *ms, const char *s, cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
