/* The daemon's configuration (see include/cuzk/config.h).
 *
 * DESIGN. Three parts, top to bottom:
 *  1. the option table: one row per key (section, name, type, default,
 *     bounds, where it lives in cuzk_config_t, a validator); config_default,
 *     config_set, config_parse, config_dump and config_equal all walk it;
 *  2. a strict reader for the TOML subset: its values (tval_t) in
 *     config_toml.c, which knows nothing of the options; lines into
 *     sections and keys here;
 *  3. the appliers that check a tval_t against a row and store it.
 * No global mutable state: every parse owns its parser_t. */
#include "cuzk/config.h"
#include "cuzk/hash.h"
#include "cuzk/request.h"
#include "daemon/config_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

typedef unsigned __int128 u128;

/* Enums are stored through an int (config_store ST_ENUM). */
_Static_assert(sizeof(engine_retry) == sizeof(int), "engine_retry is not int-sized");
_Static_assert(sizeof(config_log_level) == sizeof(int), "config_log_level is not int-sized");
_Static_assert(sizeof(config_log_format) == sizeof(int), "config_log_format is not int-sized");

#define WHY_MAX 200

/* ======================================================================
 * 1. The option table
 * ====================================================================== */

typedef enum store {
    ST_STR,    /* char[size] */
    ST_INT,    /* int */
    ST_UINT,   /* unsigned */
    ST_U64,    /* uint64_t */
    ST_ENUM,   /* an int-sized enum */
    ST_INTARR, /* int[cap] with unsigned count at off_n */
    ST_STRARR, /* char[cap][CONFIG_ID_MAX] with unsigned count at off_n */
} store;

typedef int (*str_check_fn)(const char *s, char *why, size_t wn);

typedef struct option {
    config_key_info_t info;
    store st;
    size_t off, off_n, size, cap;
    str_check_fn check; /* ST_STR: NULL when any text (no control characters) goes */
} option_t;

static int check_listen(const char *s, char *why, size_t wn);
static int check_hostport_or_empty(const char *s, char *why, size_t wn);
static int check_nonempty(const char *s, char *why, size_t wn);

static const char *const retry_names[] = {"any_device", "other_device", NULL};
/* engine_witness_pack's order */
static const char *const pack_names[] = {"off", "auto", "always", NULL};
static const char *const level_names[] = {"error", "warn", "info", "debug", NULL};
static const char *const format_names[] = {"text", "json", NULL};

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define DAY_MS 86400000ull
#define U64MAX UINT64_MAX

#define OFF(f) offsetof(cuzk_config_t, f)
#define SZ(f) sizeof(((cuzk_config_t *)0)->f)
#define CAP(f) (sizeof(((cuzk_config_t *)0)->f) / sizeof(((cuzk_config_t *)0)->f[0]))

#define STR(sec, key, alias, def, check, rt, help)                                                 \
    {                                                                                              \
        {#sec, #key, alias, CONFIG_STRING, def, 0, 0, NULL, rt, help}, ST_STR, OFF(sec.key), 0,    \
            SZ(sec.key), 0, check                                                                  \
    }
#define NUM(sec, key, alias, type, st, def, lo, hi, rt, help)                                      \
    {                                                                                              \
        {#sec, #key, alias, type, def, lo, hi, NULL, rt, help}, st, OFF(sec.key), 0, SZ(sec.key),  \
            0, NULL                                                                                \
    }
/* A duration key "key" stored in milliseconds as sec.key_ms. */
#define DUR(sec, key, def, hi, rt, help)                                                           \
    {                                                                                              \
        {#sec, #key, NULL, CONFIG_DURATION, def, 0, hi, NULL, rt, help}, ST_U64,                   \
            OFF(sec.key##_ms), 0, SZ(sec.key##_ms), 0, NULL                                        \
    }
#define ENUM(sec, key, names, def, rt, help)                                                       \
    {                                                                                              \
        {#sec, #key, NULL, CONFIG_ENUM, def, 0, 0, names, rt, help}, ST_ENUM, OFF(sec.key), 0,     \
            SZ(sec.key), 0, NULL                                                                   \
    }
#define LIST(sec, key, n, type, st, lo, hi, help)                                                  \
    {                                                                                              \
        {#sec, #key, NULL, type, "", lo, hi, NULL, 0, help}, st, OFF(sec.key), OFF(sec.n), 0,      \
            CAP(sec.key), NULL                                                                     \
    }

/* Grouped by section, in cuzk.example.toml's order (config_dump keeps it). */
static const option_t options[] = {
    STR(daemon, listen, NULL, "unix:///run/cuzk/cuzk.sock", check_listen, 0,
        "gRPC listen address: unix:///path or tcp://host:port"),
    NUM(daemon, socket_mode, NULL, CONFIG_MODE, ST_UINT, "0600", 0, 0777, 0,
        "file mode of a unix socket"),
    STR(daemon, http_listen, "status_listen", "", check_hostport_or_empty, 0,
        "HTTP status/metrics host:port; empty: off"),
    NUM(daemon, max_message_bytes, NULL, CONFIG_SIZE, ST_U64, "128MiB", KiB, 2 * GiB - 1, 0,
        "largest gRPC message"),
    NUM(daemon, max_queued_jobs, NULL, CONFIG_INT, ST_UINT, "1024", 1, 1000000, 1,
        "unfinished jobs before submit is refused"),
    NUM(daemon, rpc_workers, NULL, CONFIG_INT, ST_UINT, "128", 1, 256, 0,
        "gRPC handler threads (awaits hold one each)"),
    NUM(daemon, rpc_queue, NULL, CONFIG_INT, ST_UINT, "256", 0, 65536, 0,
        "gRPC calls that may wait for a handler; more are refused as busy"),
    STR(daemon, tls_cert, NULL, "", NULL, 0, "TLS certificate (PEM); with tls_key"),
    STR(daemon, tls_key, NULL, "", NULL, 0, "TLS private key (PEM); with tls_cert"),
    STR(daemon, journal, NULL, "cuzk-journal.db", check_nonempty, 0, "SQLite job journal"),
    DUR(daemon, result_ttl, "24h", 3650 * DAY_MS, 1, "how long finished results stay retrievable"),
    NUM(daemon, resume, NULL, CONFIG_BOOL, ST_INT, "true", 0, 1, 0,
        "resume unfinished journal jobs at start (false: fail them)"),

    NUM(memory, host_budget, NULL, CONFIG_SIZE, ST_U64, "0", 0, U64MAX, 0,
        "host bytes for keys and witnesses; 0: no limit"),
    NUM(memory, ready_bytes_max, NULL, CONFIG_SIZE, ST_U64, "0", 0, U64MAX, 0,
        "host bytes of witnessed partitions waiting; 0: no limit"),
    NUM(memory, ready_max, NULL, CONFIG_INT, ST_UINT, "0", 0, 4096, 0,
        "witnessed partitions waiting for a device; 0: one per device worker and 2"),
    NUM(memory, pinned_budget, NULL, CONFIG_SIZE, ST_U64, "0", 0, U64MAX, 0,
        "page-locked host bytes for witness buffers; 0: no limit"),
    ENUM(memory, witness_pack, pack_names, "auto", 0,
         "witnesses wait packed (0/1 as bits): off, auto (devices that take packs), always"),

    LIST(gpus, devices, n_devices, CONFIG_INT_LIST, ST_INTARR, 0, CONFIG_GPU_ORDINAL_MAX,
         "GPU ordinals; empty: all"),
    NUM(gpus, workers_per_gpu, "gpu_workers_per_device", CONFIG_INT, ST_UINT, "2", 1, 64, 0,
        "proofs in flight per GPU"),
    NUM(gpus, vram_budget, NULL, CONFIG_SIZE, ST_U64, "0", 0, U64MAX, 0,
        "VRAM ledger budget per GPU; 0: free memory minus vram_headroom"),
    NUM(gpus, vram_headroom, NULL, CONFIG_SIZE, ST_U64, "512MiB", 0, U64MAX, 0,
        "VRAM left free when vram_budget is 0"),

    DUR(scheduler, aging, "10s", DAY_MS, 0, "wait that raises a job one priority level; 0: off"),
    NUM(scheduler, max_retries, NULL, CONFIG_INT, ST_UINT, "1", 0, 16, 0,
        "device failures retried per partition"),
    ENUM(scheduler, retry, retry_names, "other_device", 0, "where a retry may run"),
    NUM(scheduler, max_retained, NULL, CONFIG_INT, ST_UINT, "1024", 1, 1000000, 0,
        "finished jobs the engine keeps in memory"),
    NUM(scheduler, critical_lane, NULL, CONFIG_BOOL, ST_INT, "true", 0, 1, 0,
        "one more pool thread and one more worker per GPU for CRITICAL jobs (WinningPoSt)"),

    NUM(synthesis, threads, NULL, CONFIG_INT, ST_INT, "2", 0, 256, 0,
        "witness/verify pool threads; 0: one per CPU"),
    NUM(synthesis, stage_threads, NULL, CONFIG_INT, ST_INT, "0", 0, 256, 0,
        "threads inside one witness, check or verify; 0: the CPUs the devices' workers leave, "
        "shared by the pool"),
    NUM(synthesis, nice, NULL, CONFIG_INT, ST_INT, "5", 0, 19, 0,
        "added to the pool threads' nice value, so synthesis never delays the device workers"),
    NUM(synthesis, prove_threads, NULL, CONFIG_INT, ST_INT, "0", 0, 1024, 0,
        "CPU threads of one proof; 0: all CPUs"),

    STR(srs, dir, "param_cache", "/var/lib/cuzk/srs", check_nonempty, 0, "circuit registry"),
    STR(srs, filecoin_params, NULL, "", NULL, 0,
        "Filecoin v28 parameter folder; empty: $FIL_PROOFS_PARAMETER_CACHE, else "
        "/var/tmp/filecoin-proof-parameters"),
    LIST(srs, preload, n_preload, CONFIG_STR_LIST, ST_STRARR, 0, 0, "circuit ids loaded at start"),
    NUM(srs, max_resident, NULL, CONFIG_SIZE, ST_U64, "0", 0, U64MAX, 0,
        "host bytes of loaded keys; 0: no limit"),

    ENUM(logging, level, level_names, "info", 1, "least severe message logged"),
    ENUM(logging, format, format_names, "text", 0, "log line format"),
    STR(logging, events, NULL, "", NULL, 0, "JSON-lines stage event log; empty: off"),
};
#define N_OPTIONS (sizeof options / sizeof options[0])

const config_key_info_t *config_key_info(size_t i)
{
    return i < N_OPTIONS ? &options[i].info : NULL;
}

static const option_t *option_lookup(const char *section, const char *name)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const config_key_info_t *k = &options[i].info;
        if (strcmp(k->section, section) != 0)
            continue;
        if (strcmp(k->name, name) == 0 || (k->alias && strcmp(k->alias, name) == 0))
            return &options[i];
    }
    return NULL;
}

static int section_known(const char *section)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (strcmp(options[i].info.section, section) == 0)
            return 1;
    return 0;
}

/* Splits "section.key"; 0 when there is no dot or a part is too long. */
static int split_key(char *sec, size_t sn, const char **name, const char *key)
{
    const char *dot = strchr(key, '.');
    if (!dot || (size_t)(dot - key) >= sn)
        return 0;
    memcpy(sec, key, (size_t)(dot - key));
    sec[dot - key] = '\0';
    *name = dot + 1;
    return 1;
}

const config_key_info_t *config_key_find(const char *key)
{
    char sec[64];
    const char *name;
    if (!key || !split_key(sec, sizeof sec, &name, key))
        return NULL;
    const option_t *o = option_lookup(sec, name);
    return o ? &o->info : NULL;
}

/* ---- a set of names (duplicate sections and keys) ---- */

typedef struct nset {
    char **name;
    unsigned *line;
    size_t cap, n; /* cap: 0 or a power of two */
} nset_t;

/* The slot holding s, or the empty slot where it would go. */
static size_t nset_slot(const nset_t *s, const char *name)
{
    size_t i = (size_t)cuzk_hash64(name, strlen(name), 0) & (s->cap - 1);
    while (s->name[i] && strcmp(s->name[i], name) != 0)
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* The line where name was added, or 0. */
static unsigned nset_find(const nset_t *s, const char *name)
{
    if (s->cap == 0)
        return 0;
    size_t i = nset_slot(s, name);
    return s->name[i] ? s->line[i] : 0;
}

static void nset_clear(nset_t *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->name[i]);
    free(s->name);
    free(s->line);
    memset(s, 0, sizeof *s);
}

static int nset_add(nset_t *s, const char *name, unsigned line)
{
    if (2 * (s->n + 1) > s->cap) {
        nset_t g = {NULL, NULL, s->cap ? 2 * s->cap : 16, 0};
        g.name = calloc(g.cap, sizeof *g.name);
        g.line = calloc(g.cap, sizeof *g.line);
        if (!g.name || !g.line) {
            free(g.name);
            free(g.line);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->name[i])
                continue;
            size_t j = nset_slot(&g, s->name[i]);
            g.name[j] = s->name[i];
            g.line[j] = s->line[i];
            g.n++;
        }
        free(s->name);
        free(s->line);
        *s = g;
    }
    char *copy = strdup(name);
    if (!copy)
        return -1;
    size_t i = nset_slot(s, name);
    s->name[i] = copy;
    s->line[i] = line;
    s->n++;
    return 0;
}

/* ======================================================================
 * 3. Values into options
 * ====================================================================== */

static void *field(cuzk_config_t *cfg, size_t off)
{
    return (char *)cfg + off;
}

static const void *cfield(const cuzk_config_t *cfg, size_t off)
{
    return (const char *)cfg + off;
}

/* Exact decimal "<digits>[.<digits>]" at *s, advancing it: the integer part
 * in *ip (saturating above 2^64), the fraction as *fp / 10^*fd. */
static int lex_decimal(const char **s, u128 *ip, u128 *fp, unsigned *fd, char *why, size_t wn)
{
    const char *p = *s;
    *ip = 0;
    *fp = 0;
    *fd = 0;
    if (*p < '0' || *p > '9')
        return toml_fail(why, wn, "expected a number");
    for (; *p >= '0' && *p <= '9'; p++)
        if (*ip <= ((u128)1 << 70))
            *ip = *ip * 10 + (unsigned)(*p - '0');
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return toml_fail(why, wn, "expected digits after '.'");
        for (; *p >= '0' && *p <= '9'; p++) {
            if (++*fd > 18)
                return toml_fail(why, wn, "more than 18 fraction digits");
            *fp = *fp * 10 + (unsigned)(*p - '0');
        }
    }
    *s = p;
    return 0;
}

static u128 pow10_u128(unsigned k)
{
    u128 r = 1;
    while (k--)
        r *= 10;
    return r;
}

typedef struct unit {
    const char *name;
    uint64_t mult;
} unit_t;

static const unit_t size_units[] = {
    {"B", 1},
    {"KiB", KiB},
    {"MiB", MiB},
    {"GiB", GiB},
    {"TiB", 1024 * GiB},
    {"PiB", 1024 * 1024 * GiB},
    {"kB", 1000},
    {"KB", 1000},
    {"MB", 1000000},
    {"GB", 1000000000},
    {"TB", 1000000000000ull},
    {"PB", 1000000000000000ull},
};

static const unit_t duration_units[] = {
    {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", DAY_MS},
};

/* The unit at *s among units (longest match), advancing *s. */
static const unit_t *match_unit(const char **s, const unit_t *units, size_t n)
{
    const unit_t *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(units[i].name);
        if (l > best_len && strncmp(*s, units[i].name, l) == 0) {
            best = &units[i];
            best_len = l;
        }
    }
    *s += best_len;
    return best;
}

static int size_from_text(uint64_t *out, const char *s, char *why, size_t wn)
{
    const char *p = s;
    if (*p == '\0')
        return toml_fail(why, wn, "empty size");
    if (*p == '-')
        return toml_fail(why, wn, "a size cannot be negative");
    u128 ip, fp;
    unsigned fd;
    if (lex_decimal(&p, &ip, &fp, &fd, why, wn) < 0)
        return -1;
    const char *num_end = p;
    while (*p == ' ')
        p++;
    uint64_t mult = 1;
    if (*p || p != num_end) {
        const unit_t *u = match_unit(&p, size_units, sizeof size_units / sizeof size_units[0]);
        if (!u || *p)
            return toml_fail(why, wn,
                             "bad size unit in \"%.40s\" (B, KiB, MiB, GiB, TiB, PiB, kB, MB, GB, "
                             "TB or PB)",
                             s);
        mult = u->mult;
    }
    /* ip below 2^74 and mult below 2^50: the product fits 128 bits. */
    u128 v = ip * mult + fp * mult / pow10_u128(fd);
    if (v > UINT64_MAX)
        return toml_fail(why, wn, "size \"%.40s\" is more than 2^64-1 bytes", s);
    *out = (uint64_t)v;
    return 0;
}

static int duration_from_text(uint64_t *out, const char *s, char *why, size_t wn)
{
    const char *p = s;
    if (*p == '\0')
        return toml_fail(why, wn, "empty duration");
    if (*p == '-')
        return toml_fail(why, wn, "a duration cannot be negative");
    u128 total = 0;
    for (int term = 0; *p; term++) {
        u128 ip, fp;
        unsigned fd;
        if (lex_decimal(&p, &ip, &fp, &fd, why, wn) < 0)
            return toml_fail(why, wn, "bad duration \"%.40s\" (e.g. \"24h\", \"1h30m\", \"250ms\")",
                             s);
        uint64_t mult;
        if (*p == '\0' && term == 0) {
            mult = 1000; /* a bare number: seconds */
        } else {
            const unit_t *u =
                match_unit(&p, duration_units, sizeof duration_units / sizeof duration_units[0]);
            if (!u)
                return toml_fail(why, wn, "bad duration unit in \"%.40s\" (ms, s, m, h or d)", s);
            mult = u->mult;
        }
        total += ip * mult + fp * mult / pow10_u128(fd);
        if (total > UINT64_MAX)
            return toml_fail(why, wn, "duration \"%.40s\" is too long", s);
    }
    *out = (uint64_t)total;
    return 0;
}

cuzk_status config_parse_size(uint64_t *bytes, const char *s, cuzk_error_t *err)
{
    char why[WHY_MAX];
    if (!bytes || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_parse_size: NULL argument");
    if (size_from_text(bytes, s, why, sizeof why) < 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s", why);
    return CUZK_OK;
}

cuzk_status config_parse_duration(uint64_t *ms, const char *s, cuzk_error_t *err)
{
    char why[WHY_MAX];
    if (!ms || !s)
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_parse_duration: NULL argument");
    if (duration_from_text(ms, s, why, sizeof why) < 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "%s", why);
    return CUZK_OK;
}

/* ---- string validators ---- */

static int check_nonempty(const char *s, char *why, size_t wn)
{
    return *s ? 0 : toml_fail(why, wn, "must not be empty");
}

/* "host:port": host a name or IPv4 address ([A-Za-z0-9.-]+) or "[IPv6]". */
static int check_hostport(const char *s, char *why, size_t wn)
{
    const char *colon;
    if (s[0] == '[') {
        const char *close = strchr(s, ']');
        if (!close || close == s + 1 || close[1] != ':')
            return toml_fail(why, wn, "expected host:port or [ipv6]:port, got \"%.60s\"", s);
        for (const char *q = s + 1; q < close; q++)
            if (toml_hexval((unsigned char)*q) < 0 && *q != ':' && *q != '.')
                return toml_fail(why, wn, "bad IPv6 address in \"%.60s\"", s);
        colon = close + 1;
    } else {
        colon = strrchr(s, ':');
        if (!colon || colon == s)
            return toml_fail(why, wn, "expected host:port, got \"%.60s\"", s);
        for (const char *q = s; q < colon; q++)
            if (!(toml_is_bare((unsigned char)*q) && *q != '_') && *q != '.')
                return toml_fail(why, wn, "bad host name in \"%.60s\"", s);
    }
    const char *port = colon + 1;
    size_t pn = strlen(port);
    unsigned long v = 0;
    if (pn == 0 || pn > 5 || strspn(port, "0123456789") != pn)
        return toml_fail(why, wn, "bad port in \"%.60s\"", s);
    v = strtoul(port, NULL, 10);
    if (v == 0 || v > 65535)
        return toml_fail(why, wn, "port %lu out of range 1..65535", v);
    return 0;
}

static int check_hostport_or_empty(const char *s, char *why, size_t wn)
{
    return *s ? check_hostport(s, why, wn) : 0;
}

static int check_listen(const char *s, char *why, size_t wn)
{
    if (strncmp(s, "unix://", 7) == 0) {
        const char *path = s + 7;
        if (path[0] != '/')
            return toml_fail(why, wn,
                             "unix:// needs an absolute path (unix:///run/cuzk/cuzk.sock)");
        /* sockaddr_un.sun_path is 108 bytes on Linux, NUL included. */
        if (strlen(path) > 107)
            return toml_fail(why, wn, "unix socket path longer than 107 bytes");
        return 0;
    }
    if (strncmp(s, "tcp://", 6) == 0)
        return check_hostport(s + 6, why, wn);
    char tmp[WHY_MAX];
    if (check_hostport(s, tmp, sizeof tmp) == 0)
        return toml_fail(why, wn, "write \"tcp://%.60s\" for a TCP address", s);
    return toml_fail(why, wn, "expected unix:///path or tcp://host:port, got \"%.60s\"", s);
}

static int check_circuit_id(const char *s, char *why, size_t wn)
{
    cuzk_error_t e;
    if (request_circuit_id_check(s, &e) != CUZK_OK)
        return toml_fail(why, wn, "%s", e.msg);
    return 0;
}

/* ---- appliers ---- */

static int apply_string(cuzk_config_t *cfg, const option_t *o, const tval_t *v, char *why,
                        size_t wn)
{
    if (v->type != TV_STR)
        return toml_fail(why, wn, "expected a string, got %s", toml_tv_name(v->type));
    if (v->len >= o->size)
        return toml_fail(why, wn, "longer than %zu bytes", o->size - 1);
    for (size_t i = 0; i < v->len; i++)
        if (toml_is_ctl((unsigned char)v->buf[i]))
            return toml_fail(why, wn, "control characters are not allowed");
    /* A file's lines are checked as they are read; config_set's text is not. */
    if (toml_utf8_check((const unsigned char *)v->buf, v->len) != v->len)
        return toml_fail(why, wn, "not valid UTF-8");
    if (o->check && o->check(v->buf, why, wn) < 0)
        return -1;
    memcpy(field(cfg, o->off), v->buf, v->len + 1);
    return 0;
}

static int in_range(const option_t *o, uint64_t x, char *why, size_t wn)
{
    if (x < o->info.min || x > o->info.max)
        return toml_fail(why, wn, "%llu out of range %llu..%llu", (unsigned long long)x,
                         (unsigned long long)o->info.min, (unsigned long long)o->info.max);
    return 0;
}

static void store_number(cuzk_config_t *cfg, const option_t *o, uint64_t x)
{
    void *f = field(cfg, o->off);
    switch (o->st) {
    case ST_INT: *(int *)f = (int)x; break;
    case ST_UINT: *(unsigned *)f = (unsigned)x; break;
    case ST_U64: *(uint64_t *)f = x; break;
    default: break;
    }
}

static uint64_t load_number(const cuzk_config_t *cfg, const option_t *o)
{
    const void *f = cfield(cfg, o->off);
    switch (o->st) {
    case ST_INT: return (uint64_t)(int64_t) * (const int *)f;
    case ST_UINT: return *(const unsigned *)f;
    case ST_U64: return *(const uint64_t *)f;
    case ST_ENUM: return (uint64_t)(int64_t) * (const int *)f;
    default: return 0;
    }
}

static int value_number(uint64_t *x, const option_t *o, const tval_t *v, char *why, size_t wn)
{
    switch (o->info.type) {
    case CONFIG_INT:
        if (v->type != TV_INT)
            return toml_fail(why, wn, "expected an integer, got %s", toml_tv_name(v->type));
        if (v->i < 0)
            return toml_fail(why, wn, "%lld out of range %llu..%llu", (long long)v->i,
                             (unsigned long long)o->info.min, (unsigned long long)o->info.max);
        *x = (uint64_t)v->i;
        return 0;
    case CONFIG_BOOL:
        if (v->type != TV_BOOL)
            return toml_fail(why, wn, "expected true or false, got %s", toml_tv_name(v->type));
        *x = (uint64_t)v->b;
        return 0;
    case CONFIG_SIZE:
        if (v->type == TV_INT) {
            if (v->i < 0)
                return toml_fail(why, wn, "a size cannot be negative");
            *x = (uint64_t)v->i;
            return 0;
        }
        if (v->type == TV_STR)
            return size_from_text(x, v->buf, why, wn);
        return toml_fail(why, wn, "expected a size (\"16GiB\" or bytes), got %s",
                         toml_tv_name(v->type));
    case CONFIG_DURATION:
        if (v->type == TV_INT) {
            if (v->i < 0)
                return toml_fail(why, wn, "a duration cannot be negative");
            if ((uint64_t)v->i > UINT64_MAX / 1000)
                return toml_fail(why, wn, "duration too long");
            *x = (uint64_t)v->i * 1000;
            return 0;
        }
        if (v->type == TV_FLOAT) {
            if (v->f < 0)
                return toml_fail(why, wn, "a duration cannot be negative");
            if (v->f * 1000.0 >= 18446744073709551616.0)
                return toml_fail(why, wn, "duration too long");
            *x = (uint64_t)(v->f * 1000.0);
            return 0;
        }
        if (v->type == TV_STR)
            return duration_from_text(x, v->buf, why, wn);
        return toml_fail(why, wn, "expected a duration (\"24h\" or seconds), got %s",
                         toml_tv_name(v->type));
    case CONFIG_MODE:
        if (v->type == TV_INT) {
            if (v->i < 0 || v->i > 0777)
                return toml_fail(why, wn,
                                 "mode %lld is not within 0..0777 (write 0o600 or \"0600\")",
                                 (long long)v->i);
            *x = (uint64_t)v->i;
            return 0;
        }
        if (v->type == TV_STR) {
            const char *s = v->buf;
            if (s[0] == '0' && s[1] == 'o')
                s += 2;
            size_t n = strlen(s);
            if (n == 0 || n > 4 || strspn(s, "01234567") != n)
                return toml_fail(why, wn, "expected an octal mode such as \"0600\", got \"%.20s\"",
                                 v->buf);
            unsigned long m = strtoul(s, NULL, 8);
            if (m > 0777)
                return toml_fail(why, wn, "mode %lo is not within 0..0777", m);
            *x = m;
            return 0;
        }
        return toml_fail(why, wn, "expected a mode (\"0600\"), got %s", toml_tv_name(v->type));
    case CONFIG_ENUM: {
        if (v->type != TV_STR)
            return toml_fail(why, wn, "expected a string, got %s", toml_tv_name(v->type));
        size_t i = 0;
        for (; o->info.names[i]; i++)
            if (strcmp(o->info.names[i], v->buf) == 0) {
                *x = i;
                return 0;
            }
        char list[WHY_MAX] = "";
        size_t used = 0;
        for (i = 0; o->info.names[i]; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "",
                                     o->info.names[i]);
        return toml_fail(why, wn, "\"%.40s\" is not one of %s", v->buf, list);
    }
    default: return toml_fail(why, wn, "internal: not a number option");
    }
}

static int apply_list(cuzk_config_t *cfg, const option_t *o, const tval_t *v, char *why, size_t wn)
{
    if (v->type != TV_ARRAY)
        return toml_fail(why, wn, "expected an array, got %s", toml_tv_name(v->type));
    int want_str = o->info.type == CONFIG_STR_LIST;
    if (v->n && v->elem != (want_str ? TV_STR : TV_INT))
        return toml_fail(why, wn, "expected an array of %s", want_str ? "strings" : "integers");
    if (v->n > o->cap)
        return toml_fail(why, wn, "more than %zu items", o->cap);
    for (size_t i = 0; i < v->n; i++) {
        if (want_str) {
            const char *s = v->buf + v->u.off[i];
            if (check_circuit_id(s, why, wn) < 0)
                return -1;
            for (size_t j = 0; j < i; j++)
                if (strcmp(s, v->buf + v->u.off[j]) == 0)
                    return toml_fail(why, wn, "\"%.60s\" is listed twice", s);
        } else {
            int64_t x = v->u.ints[i];
            if (x < (int64_t)o->info.min || x > (int64_t)o->info.max)
                return toml_fail(why, wn, "%lld out of range %llu..%llu", (long long)x,
                                 (unsigned long long)o->info.min, (unsigned long long)o->info.max);
            for (size_t j = 0; j < i; j++)
                if (v->u.ints[j] == x)
                    return toml_fail(why, wn, "%lld is listed twice", (long long)x);
        }
    }
    /* Checked first, stored after: a refused list leaves the old one. */
    for (size_t i = 0; i < v->n; i++) {
        if (want_str)
            strcpy((char *)field(cfg, o->off) + i * CONFIG_ID_MAX, v->buf + v->u.off[i]);
        else
            ((int *)field(cfg, o->off))[i] = (int)v->u.ints[i];
    }
    *(unsigned *)field(cfg, o->off_n) = (unsigned)v->n;
    return 0;
}

static int apply(cuzk_config_t *cfg, const option_t *o, const tval_t *v, char *why, size_t wn)
{
    switch (o->info.type) {
    case CONFIG_STRING: return apply_string(cfg, o, v, why, wn);
    case CONFIG_INT_LIST:
    case CONFIG_STR_LIST: return apply_list(cfg, o, v, why, wn);
    default: break;
    }
    uint64_t x;
    if (value_number(&x, o, v, why, wn) < 0)
        return -1;
    if (o->st != ST_ENUM && in_range(o, x, why, wn) < 0)
        return -1;
    if (o->st == ST_ENUM) {
        int e = (int)x;
        memcpy(field(cfg, o->off), &e, sizeof e);
    } else {
        store_number(cfg, o, x);
    }
    return 0;
}

/* ---- config_set: command-line text into a tval_t ---- */

static int text_value(tval_t *v, const option_t *o, const char *text, char *why, size_t wn)
{
    size_t n = strlen(text);
    if (n > CONFIG_LINE_MAX)
        return toml_fail(why, wn, "value longer than %d bytes", CONFIG_LINE_MAX);
    v->type = TV_NONE;
    v->n = 0;
    v->len = 0;
    cur_t c = {text, text + n};
    config_type t = o->info.type;
    int list = t == CONFIG_INT_LIST || t == CONFIG_STR_LIST;
    /* Only lists read '[' as TOML: "[::1]:9820" is a plain string. */
    if (text[0] == '"' || text[0] == '\'' || (list && text[0] == '['))
        return toml_lex_value(v, &c, why, wn);
    if (t == CONFIG_INT || t == CONFIG_BOOL)
        return toml_lex_value(v, &c, why, wn);
    if (list) {
        v->type = TV_ARRAY;
        v->elem = t == CONFIG_STR_LIST ? TV_STR : TV_INT;
        size_t used = 0;
        const char *p = text;
        while (*p) {
            while (*p == ' ')
                p++;
            const char *q = p;
            while (*q && *q != ',')
                q++;
            const char *r = q;
            while (r > p && r[-1] == ' ')
                r--;
            if (r == p)
                return toml_fail(why, wn, "empty item in a list");
            if (v->n == TV_ITEMS_MAX)
                return toml_fail(why, wn, "too many items");
            if (t == CONFIG_STR_LIST) {
                v->u.off[v->n] = (uint32_t)used;
                memcpy(v->buf + used, p, (size_t)(r - p));
                used += (size_t)(r - p);
                v->buf[used++] = '\0';
            } else {
                tscalar_t item = {TV_NONE, 0, 0, 0};
                if (toml_lex_scalar(&item, p, (size_t)(r - p), why, wn) < 0)
                    return -1;
                if (item.type != TV_INT)
                    return toml_fail(why, wn, "expected integers, got %s", toml_tv_name(item.type));
                v->u.ints[v->n] = item.i;
            }
            v->n++;
            p = *q ? q + 1 : q;
            if (*q && !*p)
                return toml_fail(why, wn, "empty item in a list");
        }
        return 0;
    }
    /* Strings, sizes, durations, modes and enums: the text as it is. */
    v->type = TV_STR;
    memcpy(v->buf, text, n + 1);
    v->len = n;
    return 0;
}

static cuzk_status oom(cuzk_error_t *err)
{
    return cuzk_error_set(err, CUZK_ERR_NOMEM, "config: out of memory");
}

static cuzk_status set_option(cuzk_config_t *cfg, const option_t *o, tval_t *v, const char *value,
                              cuzk_error_t *err)
{
    char why[WHY_MAX];
    config_type t = o->info.type;
    int quoted = value[0] == '"' || value[0] == '\'' ||
                 ((t == CONFIG_INT_LIST || t == CONFIG_STR_LIST) && value[0] == '[');
    if (text_value(v, o, value, why, sizeof why) < 0)
        return cuzk_error_set(err, quoted ? CUZK_ERR_PARSE : CUZK_ERR_ARG, "[%s] %s: %s",
                              o->info.section, o->info.name, why);
    if (apply(cfg, o, v, why, sizeof why) < 0)
        return cuzk_error_set(err, CUZK_ERR_ARG, "[%s] %s: %s", o->info.section, o->info.name, why);
    return CUZK_OK;
}

cuzk_status config_set(cuzk_config_t *cfg, const char *key, const char *value, cuzk_error_t *err)
{
    if (!cfg || !key || !value)
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_set: NULL argument");
    char sec[64];
    const char *name;
    if (!split_key(sec, sizeof sec, &name, key))
        return cuzk_error_set(err, CUZK_ERR_ARG, "config key '%.100s' is not section.key", key);
    const option_t *o = option_lookup(sec, name);
    if (!o)
        return cuzk_error_set(err, CUZK_ERR_ARG, "unknown config key '%.100s'", key);
    tval_t *v = malloc(sizeof *v);
    if (!v)
        return oom(err);
    cuzk_status st = set_option(cfg, o, v, value, err);
    free(v);
    return st;
}

void config_default(cuzk_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    /* Through the same path as an override, so a default is checked like any
     * value (tests/test_config.c makes sure each is accepted); the scratch
     * value is on the stack as this function cannot fail. */
    tval_t v;
    for (size_t i = 0; i < N_OPTIONS; i++)
        (void)set_option(cfg, &options[i], &v, options[i].info.def, NULL);
}

/* ---- the document ---- */

typedef struct parser {
    const char *name;
    unsigned line;
    cuzk_config_t *cfg;
    config_warnings_t *warn;
    int sect_state; /* 0: before any section, 1: a known section, 2: an unknown one */
    char sect[CONFIG_LINE_MAX + 1];
    nset_t sections, keys;
    tval_t val;
    cuzk_error_t *err;
} parser_t;

static int warn_add(config_warnings_t *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int warn_add(config_warnings_t *w, const char *fmt, ...)
{
    if (!w)
        return 0;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **grown = realloc(w->msg, (w->n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    w->msg = grown;
    if (!(w->msg[w->n] = strdup(buf)))
        return -1;
    w->n++;
    return 0;
}

void config_warnings_free(config_warnings_t *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n; i++)
        free(w->msg[i]);
    free(w->msg);
    w->msg = NULL;
    w->n = 0;
}

static cuzk_status perr(parser_t *ps, const char *why)
{
    return cuzk_error_set(ps->err, CUZK_ERR_PARSE, "%s:%u: %s", ps->name, ps->line, why);
}

/* A bare key or section name at c->p into out. */
static int lex_name(cur_t *c, char *out, const char *what, char *why, size_t wn)
{
    if (c->p < c->e && (*c->p == '"' || *c->p == '\''))
        return toml_fail(why, wn, "quoted %ss are not supported", what);
    const char *s = c->p;
    while (c->p < c->e && toml_is_bare((unsigned char)*c->p))
        c->p++;
    if (c->p == s) {
        if (c->p < c->e && !toml_is_ctl((unsigned char)*c->p) && (unsigned char)*c->p < 0x80)
            return toml_fail(why, wn, "expected a %s, got '%c'", what, *c->p);
        return toml_fail(why, wn, "expected a %s", what);
    }
    memcpy(out, s, (size_t)(c->p - s));
    out[c->p - s] = '\0';
    return 0;
}

static cuzk_status parse_header(parser_t *ps, cur_t *c)
{
    char why[WHY_MAX], name[CONFIG_LINE_MAX + 1];
    c->p++; /* '[' */
    if (c->p < c->e && *c->p == '[')
        return perr(ps, "arrays of tables ([[...]]) are not supported");
    toml_skip_ws(c);
    if (lex_name(c, name, "section name", why, sizeof why) < 0)
        return perr(ps, why);
    toml_skip_ws(c);
    if (c->p < c->e && *c->p == '.')
        return perr(ps, "nested tables are not supported");
    if (c->p >= c->e || *c->p != ']')
        return perr(ps, "expected ']' after the section name");
    c->p++;
    if (toml_lex_end(c, "section header", why, sizeof why) < 0)
        return perr(ps, why);
    unsigned prev = nset_find(&ps->sections, name);
    if (prev) {
        snprintf(why, sizeof why, "section [%.100s] already given on line %u", name, prev);
        return perr(ps, why);
    }
    if (nset_add(&ps->sections, name, ps->line) < 0)
        return oom(ps->err);
    nset_clear(&ps->keys); /* a section is never reopened: its keys are done */
    strcpy(ps->sect, name);
    ps->sect_state = section_known(name) ? 1 : 2;
    if (ps->sect_state == 2 &&
        warn_add(ps->warn, "%s:%u: unknown section [%.100s]", ps->name, ps->line, name) < 0)
        return oom(ps->err);
    return CUZK_OK;
}

static cuzk_status parse_keyval(parser_t *ps, cur_t *c)
{
    char why[WHY_MAX], key[CONFIG_LINE_MAX + 1];
    if (lex_name(c, key, "key", why, sizeof why) < 0)
        return perr(ps, why);
    toml_skip_ws(c);
    if (c->p < c->e && *c->p == '.')
        return perr(ps, "dotted keys are not supported");
    if (c->p >= c->e || *c->p != '=')
        return perr(ps, "expected '=' after the key");
    c->p++;
    toml_skip_ws(c);
    if (toml_lex_value(&ps->val, c, why, sizeof why) < 0)
        return perr(ps, why);
    const option_t *o = ps->sect_state == 1 ? option_lookup(ps->sect, key) : NULL;
    /* Aliases count as their key: giving both is a duplicate. */
    const char *canon = o ? o->info.name : key;
    unsigned prev = nset_find(&ps->keys, canon);
    if (prev) {
        snprintf(why, sizeof why, "key '%.100s' already set on line %u", key, prev);
        return perr(ps, why);
    }
    if (nset_add(&ps->keys, canon, ps->line) < 0)
        return oom(ps->err);
    if (o) {
        if (apply(ps->cfg, o, &ps->val, why, sizeof why) < 0)
            return cuzk_error_set(ps->err, CUZK_ERR_ARG, "%s:%u: [%s] %s: %s", ps->name, ps->line,
                                  o->info.section, o->info.name, why);
        return CUZK_OK;
    }
    int r = 0;
    if (ps->sect_state == 1)
        r = warn_add(ps->warn, "%s:%u: unknown key '%.100s' in [%s]", ps->name, ps->line, key,
                     ps->sect);
    else if (ps->sect_state == 0)
        r = warn_add(ps->warn, "%s:%u: unknown key '%.100s' outside any section", ps->name,
                     ps->line, key);
    return r < 0 ? oom(ps->err) : CUZK_OK;
}

static cuzk_status parse_line(parser_t *ps, const char *s, size_t n)
{
    char why[WHY_MAX];
    size_t bad = toml_utf8_check((const unsigned char *)s, n);
    if (bad != n) {
        snprintf(why, sizeof why, "invalid UTF-8 at column %zu", bad + 1);
        return perr(ps, why);
    }
    cur_t c = {s, s + n};
    toml_skip_ws(&c);
    if (c.p == c.e)
        return CUZK_OK;
    if (*c.p == '#')
        return toml_lex_end(&c, "comment", why, sizeof why) < 0 ? perr(ps, why) : CUZK_OK;
    if (*c.p == '[')
        return parse_header(ps, &c);
    return parse_keyval(ps, &c);
}

static cuzk_status parse_text(parser_t *ps, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3; /* a byte order mark some editors write */
    while (p < end) {
        ps->line++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (memchr(p, '\0', n))
            return perr(ps, "NUL byte");
        if (n && p[n - 1] == '\r')
            n--; /* CRLF line ends */
        if (n > CONFIG_LINE_MAX) {
            char why[WHY_MAX];
            snprintf(why, sizeof why, "line longer than %d bytes", CONFIG_LINE_MAX);
            return perr(ps, why);
        }
        cuzk_status st = parse_line(ps, p, n);
        if (st != CUZK_OK)
            return st;
        p = nl ? nl + 1 : end;
    }
    return CUZK_OK;
}

cuzk_status config_parse(cuzk_config_t *cfg, config_warnings_t *warnings, const char *text,
                         size_t len, const char *name, cuzk_error_t *err)
{
    if (!cfg || (!text && len))
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_parse: NULL argument");
    parser_t *ps = calloc(1, sizeof *ps);
    if (!ps)
        return oom(err);
    ps->name = name ? name : "config";
    ps->cfg = malloc(sizeof *ps->cfg);
    ps->warn = warnings;
    ps->err = err;
    size_t warn0 = warnings ? warnings->n : 0;
    cuzk_status st = ps->cfg ? CUZK_OK : oom(err);
    if (st == CUZK_OK) {
        memcpy(ps->cfg, cfg, sizeof *cfg);
        st = text ? parse_text(ps, text, len) : CUZK_OK;
    }
    if (st == CUZK_OK) {
        memcpy(cfg, ps->cfg, sizeof *cfg);
    } else if (warnings) {
        while (warnings->n > warn0)
            free(warnings->msg[--warnings->n]);
    }
    nset_clear(&ps->sections);
    nset_clear(&ps->keys);
    free(ps->cfg);
    free(ps);
    return st;
}

cuzk_status config_load(cuzk_config_t *cfg, config_warnings_t *warnings, const char *path,
                        cuzk_error_t *err)
{
    if (!cfg || !path)
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_load: NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    char *buf = malloc(CONFIG_FILE_MAX + 1);
    if (!buf) {
        fclose(f);
        return oom(err);
    }
    size_t n = fread(buf, 1, CONFIG_FILE_MAX + 1, f);
    int rerr = ferror(f);
    fclose(f);
    cuzk_status st;
    if (rerr)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: read error", path);
    else if (n > CONFIG_FILE_MAX)
        st = cuzk_error_set(err, CUZK_ERR_PARSE, "%s: larger than %d bytes", path, CONFIG_FILE_MAX);
    else
        st = config_parse(cfg, warnings, buf, n, path, err);
    free(buf);
    return st;
}

cuzk_status config_check(const cuzk_config_t *cfg, cuzk_error_t *err)
{
    if (!cfg)
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_check: NULL argument");
    if (!cfg->daemon.tls_cert[0] != !cfg->daemon.tls_key[0])
        return cuzk_error_set(err, CUZK_ERR_ARG,
                              "[daemon] tls_cert and tls_key: give both or neither");
    uint64_t host = cfg->memory.host_budget;
    if (host && cfg->memory.ready_bytes_max > host)
        return cuzk_error_set(
            err, CUZK_ERR_ARG, "[memory] ready_bytes_max (%llu) is more than host_budget (%llu)",
            (unsigned long long)cfg->memory.ready_bytes_max, (unsigned long long)host);
    if (host && cfg->memory.pinned_budget > host)
        return cuzk_error_set(
            err, CUZK_ERR_ARG, "[memory] pinned_budget (%llu) is more than host_budget (%llu)",
            (unsigned long long)cfg->memory.pinned_budget, (unsigned long long)host);
    return CUZK_OK;
}

/* ---- writing it back ---- */

static void sb_string(strbuf_t *b, const char *s)
{
    strbuf_fmt(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            strbuf_fmt(b, "\\%c", ch);
        else if (toml_is_ctl(ch))
            strbuf_fmt(b, "\\u%04X", ch);
        else
            strbuf_fmt(b, "%c", ch);
    }
    strbuf_fmt(b, "\"");
}

/* The largest unit that divides x exactly (x > 0). */
static const char *exact_unit(uint64_t *scaled, uint64_t x, const unit_t *u, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (x % u[i].mult == 0) {
            *scaled = x / u[i].mult;
            return u[i].name;
        }
    *scaled = x;
    return u[0].name;
}

static void dump_value(strbuf_t *b, const cuzk_config_t *cfg, const option_t *o)
{
    const void *f = cfield(cfg, o->off);
    uint64_t x = load_number(cfg, o), s;
    switch (o->info.type) {
    case CONFIG_STRING: sb_string(b, f); return;
    case CONFIG_INT: strbuf_fmt(b, "%lld", (long long)x); return;
    case CONFIG_BOOL: strbuf_fmt(b, "%s", x ? "true" : "false"); return;
    case CONFIG_SIZE: {
        /* The binary units only (B..PiB): the first six rows. */
        const char *u = x ? exact_unit(&s, x, size_units, 6) : NULL;
        if (u)
            strbuf_fmt(b, "\"%llu%s\"", (unsigned long long)s, u);
        else
            strbuf_fmt(b, "0");
        return;
    }
    case CONFIG_DURATION: {
        const char *u = x ? exact_unit(&s, x, duration_units, 5) : NULL;
        if (u)
            strbuf_fmt(b, "\"%llu%s\"", (unsigned long long)s, u);
        else
            strbuf_fmt(b, "0");
        return;
    }
    case CONFIG_MODE: strbuf_fmt(b, "\"%04llo\"", (unsigned long long)x); return;
    case CONFIG_ENUM: sb_string(b, o->info.names[x]); return;
    case CONFIG_INT_LIST:
    case CONFIG_STR_LIST: {
        unsigned n = *(const unsigned *)cfield(cfg, o->off_n);
        strbuf_fmt(b, "[");
        for (unsigned i = 0; i < n; i++) {
            if (i)
                strbuf_fmt(b, ", ");
            if (o->info.type == CONFIG_INT_LIST)
                strbuf_fmt(b, "%d", ((const int *)f)[i]);
            else
                sb_string(b, (const char *)f + (size_t)i * CONFIG_ID_MAX);
        }
        strbuf_fmt(b, "]");
        return;
    }
    }
}

cuzk_status config_dump(char **out, size_t *len, const cuzk_config_t *cfg, cuzk_error_t *err)
{
    if (!out || !len || !cfg)
        return cuzk_error_set(err, CUZK_ERR_ARG, "config_dump: NULL argument");
    strbuf_t b = {0};
    const char *sect = "";
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const option_t *o = &options[i];
        if (strcmp(o->info.section, sect) != 0) {
            strbuf_fmt(&b, "%s[%s]\n", i ? "\n" : "", o->info.section);
            sect = o->info.section;
        }
        strbuf_fmt(&b, "%s = ", o->info.name);
        dump_value(&b, cfg, o);
        strbuf_fmt(&b, "\n");
    }
    if (b.nomem) {
        free(b.p);
        return oom(err);
    }
    *out = b.p;
    *len = b.len;
    return CUZK_OK;
}

int config_equal(const cuzk_config_t *a, const cuzk_config_t *b, const config_key_info_t **which)
{
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const option_t *o = &options[i];
        const void *fa = cfield(a, o->off), *fb = cfield(b, o->off);
        int same;
        if (o->st == ST_STR) {
            same = strcmp(fa, fb) == 0;
        } else if (o->st == ST_INTARR || o->st == ST_STRARR) {
            unsigned na = *(const unsigned *)cfield(a, o->off_n);
            unsigned nb = *(const unsigned *)cfield(b, o->off_n);
            same = na == nb;
            for (unsigned k = 0; same && k < na; k++)
                same = o->st == ST_INTARR
                           ? ((const int *)fa)[k] == ((const int *)fb)[k]
                           : strcmp((const char *)fa + (size_t)k * CONFIG_ID_MAX,
                                    (const char *)fb + (size_t)k * CONFIG_ID_MAX) == 0;
        } else {
            same = load_number(a, o) == load_number(b, o);
        }
        if (!same) {
            if (which)
                *which = &o->info;
            return 0;
        }
    }
    return 1;
}
