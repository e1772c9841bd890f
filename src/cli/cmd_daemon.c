/* `cuzk daemon`: the proving daemon. The configuration (config.h) from
 * --config and the overrides, the engine's devices (every configured GPU
 * through the CUDA backend, or one simulated CPU device), the daemon core
 * (daemon.h) and the cuzk.v1 gRPC server (rpc.h, daemon_rpc.h); then it
 * serves until SIGINT or SIGTERM.
 *
 * Start-up order, and why:
 *  1. SIGINT and SIGTERM are blocked before any thread exists, so every
 *     thread inherits the mask and the main thread alone takes them, with
 *     sigwait (no work in a signal handler);
 *  2. the gRPC server binds first: the socket is what says "a daemon runs
 *     here", so a second daemon stops before it touches anything (calls
 *     that arrive meanwhile answer UNAVAILABLE "daemon starting");
 *  3. "<journal>.lock" is locked (flock, released by the kernel however the
 *     process ends): two daemons on one journal would both resume its jobs;
 *  4. the devices, then daemon_new (which opens the journal, loads
 *     srs.preload and resumes unfinished jobs), published to the handlers.
 * Shutdown: daemon_shutdown (refuses new jobs, wakes waiting AwaitProof
 * calls), rpc_server_shutdown with a grace period, daemon_free (unfinished
 * jobs stay in the journal for the next start).
 *
 * Exit codes: 0 after a signal; 2 for usage, a bad configuration, or a
 * start-up failure (the message names what failed). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sigwait, flock, mkdir under -std=c11 */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_backend.h"
#include "cli_util.h"
#include "cuzk/config.h"
#include "cuzk/daemon.h"
#include "cuzk/daemon_rpc.h"
#include "cuzk/rpc.h"

#ifdef CUZK_HAVE_CUDA
#include "cuzk/cuda.h"
#endif

#define CMD "daemon"
/* The CPU device's host-memory budget when gpus.vram_budget is 0 (as
 * `cuzk bench porep` uses). */
#define CPU_BUDGET ((size_t)64 << 30)
/* AwaitProof and Prove hold a worker for as long as they wait, so the pool
 * is sized for many waiting clients; a GetStatus must not queue behind them. */
#define SHUTDOWN_GRACE_MS 10000
#define OVERRIDES_MAX 256

static const char USAGE[] =
    "usage: cuzk daemon [--config FILE] [--set section.key=value]... [--listen ADDR]\n"
    "                   [--http ADDR] [--device cpu|cuda]\n"
    "  serves cuzk.v1.ProvingEngine until SIGINT or SIGTERM.\n"
    "  --config FILE   a cuzk.toml (cuzk.example.toml documents every key)\n"
    "  --set K=V       override one key (\"daemon.max_queued_jobs=64\"); later wins\n"
    "  --listen ADDR   daemon.listen: unix:///path.sock or tcp://host:port\n"
    "  --http ADDR     daemon.http_listen: host:port of GET /status and /metrics\n"
    "  --device D      cuda: the GPUs of gpus.devices (default: every GPU);\n"
    "                  cpu: one device proving on the CPU\n"
    "                  (default: cuda when a GPU is present, else cpu)\n";

/* ---- arguments ---- */

typedef struct override {
    const char *flag; /* for messages: "--set", "--listen", "--http" */
    const char *key;  /* "section.key", key_len bytes */
    size_t key_len;
    const char *value; /* NUL-terminated */
} override_t;

typedef struct daemon_args {
    const char *config; /* NULL: defaults only */
    device_kind device; /* resolved */
    override_t ov[OVERRIDES_MAX];
    size_t n_ov;
    int help;
} daemon_args_t;

static int add_override(daemon_args_t *a, const char *flag, const char *key, size_t key_len,
                        const char *value)
{
    if (a->n_ov == OVERRIDES_MAX) {
        fprintf(stderr, "cuzk daemon: more than %d overrides\n", OVERRIDES_MAX);
        return 0;
    }
    a->ov[a->n_ov++] = (override_t){flag, key, key_len, value};
    return 1;
}

/* Returns 1 when argv parsed (a->help: print the usage), 0 after printing
 * what is wrong. */
static int args_parse(daemon_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            a->help = 1;
            return 1;
        }
        int known = !strcmp(o, "--config") || !strcmp(o, "--set") || !strcmp(o, "--listen") ||
                    !strcmp(o, "--http") || !strcmp(o, "--device");
        if (!known) {
            fprintf(stderr, "cuzk daemon: unexpected argument '%s'\n", o);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk daemon: %s needs a value\n", o);
            return 0;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--config")) {
            a->config = v;
        } else if (!strcmp(o, "--device")) {
            if (!cli_device_arg(&a->device, "daemon", v))
                return 0;
        } else if (!strcmp(o, "--listen")) {
            if (!add_override(a, o, "daemon.listen", strlen("daemon.listen"), v))
                return 0;
        } else if (!strcmp(o, "--http")) {
            if (!add_override(a, o, "daemon.http_listen", strlen("daemon.http_listen"), v))
                return 0;
        } else {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v) {
                fprintf(stderr, "cuzk daemon: --set '%s': expected section.key=value\n", v);
                return 0;
            }
            if (!add_override(a, o, v, (size_t)(eq - v), eq + 1))
                return 0;
        }
    }
    return 1;
}

/* config_default, the file, the overrides in command-line order, then the
 * rules between keys. Returns 1, or 0 after printing what is wrong. */
static int config_make(cuzk_config_t *cfg, const daemon_args_t *a)
{
    cuzk_error_t err = {0};
    config_default(cfg);
    if (a->config) {
        config_warnings_t w = {0};
        cuzk_status s = config_load(cfg, &w, a->config, &err);
        for (size_t i = 0; i < w.n; i++)
            fprintf(stderr, "cuzk daemon: warning: %s\n", w.msg[i]);
        config_warnings_free(&w);
        if (s != CUZK_OK) {
            cli_fail(CMD, "--config", &err); /* the message names the file and line */
            return 0;
        }
    }
    for (size_t i = 0; i < a->n_ov; i++) {
        const override_t *o = &a->ov[i];
        char key[128];
        if (o->key_len >= sizeof key) {
            fprintf(stderr, "cuzk daemon: %s: key '%.40s...' is too long\n", o->flag, o->key);
            return 0;
        }
        memcpy(key, o->key, o->key_len);
        key[o->key_len] = '\0';
        if (config_set(cfg, key, o->value, &err) != CUZK_OK) {
            cli_fail(CMD, o->flag, &err);
            return 0;
        }
    }
    if (config_check(cfg, &err) != CUZK_OK) {
        cli_fail(CMD, "config", &err);
        return 0;
    }
    return 1;
}

/* ---- devices ---- */

typedef struct dev_set {
    device_t dev[ENGINE_MAX_DEVICES];
    cli_device_t ctx[ENGINE_MAX_DEVICES]; /* what dev[i].ctx points to */
    unsigned n;
    int cuda;
} dev_set_t;

static void devices_close(dev_set_t *ds)
{
    ds->n = 0; /* the providers hold nothing to free */
}

#ifdef CUZK_HAVE_CUDA
/* One GPU's ledger budget: gpus.vram_budget, else its free memory now less
 * gpus.vram_headroom. */
static cuzk_status gpu_budget(size_t *budget, const cuzk_config_t *cfg, int ordinal,
                              cuzk_error_t *err)
{
    *budget = (size_t)cfg->gpus.vram_budget;
    if (*budget)
        return CUZK_OK;
    size_t fr = 0, total = 0;
    cuzk_status s = cuzk_cuda_device_memory(&fr, &total, ordinal, err);
    if (s != CUZK_OK)
        return s;
    if (fr <= cfg->gpus.vram_headroom)
        return cuzk_error_set(err, CUZK_ERR_CAPACITY,
                              "GPU %d: %zu bytes free, not more than gpus.vram_headroom (%llu)",
                              ordinal, fr, (unsigned long long)cfg->gpus.vram_headroom);
    *budget = fr - (size_t)cfg->gpus.vram_headroom;
    return CUZK_OK;
}

/* Every GPU of gpus.devices, or every GPU present when it is empty. */
static cuzk_status devices_cuda(dev_set_t *ds, const cuzk_config_t *cfg, cuzk_error_t *err)
{
    int count = 0;
    cuzk_status s = cuzk_cuda_device_count(&count, err);
    if (s != CUZK_OK)
        return s;
    if (count <= 0)
        return cuzk_error_set(err, CUZK_ERR_NO_DEVICE, "no CUDA device is present");
    unsigned n = cfg->gpus.n_devices ? cfg->gpus.n_devices : (unsigned)count;
    if (n > ENGINE_MAX_DEVICES)
        n = ENGINE_MAX_DEVICES;
    ds->cuda = 1;
    for (unsigned i = 0; i < n; i++) {
        int ordinal = cfg->gpus.n_devices ? cfg->gpus.devices[i] : (int)i;
        size_t budget = 0;
        if ((s = gpu_budget(&budget, cfg, ordinal, err)) != CUZK_OK)
            return s;
        s = cli_device_open(&ds->dev[i], &ds->ctx[i], DEVICE_CUDA, ordinal, budget,
                            (int)cfg->gpus.workers_per_gpu, err);
        if (s != CUZK_OK)
            return s;
        ds->n = i + 1;
    }
    return CUZK_OK;
}
#endif

/* device: resolved (cli_device_arg; DEVICE_AUTO: cuda when a GPU is
 * present). On failure nothing stays open. */
static cuzk_status devices_open(dev_set_t *ds, const cuzk_config_t *cfg, device_kind device,
                                cuzk_error_t *err)
{
    memset(ds, 0, sizeof *ds);
    cuzk_status s;
    if (cli_device_resolve(device) == DEVICE_CPU) {
        size_t budget = cfg->gpus.vram_budget ? (size_t)cfg->gpus.vram_budget : CPU_BUDGET;
        s = cli_device_open(&ds->dev[0], &ds->ctx[0], DEVICE_CPU, 0, budget,
                            (int)cfg->gpus.workers_per_gpu, err);
        ds->n = s == CUZK_OK;
        return s;
    }
#ifdef CUZK_HAVE_CUDA
    s = devices_cuda(ds, cfg, err);
#else
    /* cli_device_open says what this build lacks. */
    s = cli_device_open(&ds->dev[0], &ds->ctx[0], DEVICE_CUDA, 0, 0, 1, err);
#endif
    if (s != CUZK_OK)
        devices_close(ds);
    return s;
}

/* ---- the listener ---- */

/* The rpc target for daemon.listen: "unix:///path" as it is, "tcp://h:p" as
 * "h:p" (what gRPC binds). */
static const char *listen_target(const char *listen)
{
    return strncmp(listen, "tcp://", 6) == 0 ? listen + 6 : listen;
}

/* Makes the directories above a unix socket that do not exist yet, mode
 * 0700: whoever can enter them can reach the daemon. */
static cuzk_status socket_dir_make(const char *listen, cuzk_error_t *err)
{
    if (strncmp(listen, "unix://", 7) != 0)
        return CUZK_OK;
    char dir[CONFIG_ADDR_MAX];
    snprintf(dir, sizeof dir, "%s", listen + 7);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return CUZK_OK; /* in / itself */
    *slash = '\0';
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return cuzk_error_set(err, CUZK_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
        *p = c;
        if (!c)
            return CUZK_OK;
    }
}

/* Locks "<journal>.lock" for this process's lifetime. Returns its fd
 * (>= 0), or -1 with err set. */
static int journal_lock(const char *journal, cuzk_error_t *err)
{
    char path[CONFIG_PATH_MAX + 8];
    snprintf(path, sizeof path, "%s.lock", journal);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        cuzk_error_set(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            cuzk_error_set(err, CUZK_ERR_BUSY,
                           "already running: another daemon holds the journal %s (%s)", journal,
                           path);
        else
            cuzk_error_set(err, CUZK_ERR_IO, "cannot lock %s: %s", path, strerror(e));
        return -1;
    }
    return fd;
}

static cuzk_status server_start(rpc_server_t **srv, const cuzk_config_t *cfg, daemon_rpc_t *ctx,
                                cuzk_error_t *err)
{
    rpc_server_opts_t o;
    rpc_server_opts_default(&o);
    o.listen = listen_target(cfg->daemon.listen);
    o.socket_mode = cfg->daemon.socket_mode;
    o.tls_cert_path = cfg->daemon.tls_cert[0] ? cfg->daemon.tls_cert : NULL;
    o.tls_key_path = cfg->daemon.tls_key[0] ? cfg->daemon.tls_key : NULL;
    o.max_message_bytes = (size_t)cfg->daemon.max_message_bytes;
    o.workers = (int)cfg->daemon.rpc_workers;
    o.queue_max = (int)cfg->daemon.rpc_queue;
    daemon_rpc_handlers(&o.handlers, ctx);
    cuzk_status s = rpc_server_new(srv, &o, err);
    if (s == CUZK_ERR_BUSY) {
        cuzk_error_t e = *err;
        cuzk_error_set(err, s, "already running: %s", e.msg);
    }
    return s;
}

/* "ADDR (http ADDR)" with the bound ports where they were 0. */
static void print_ready(const cuzk_config_t *cfg, rpc_server_t *srv, daemon_t *d, unsigned n)
{
    char addr[CONFIG_ADDR_MAX + 16], http[CONFIG_ADDR_MAX + 16];
    const char *l = cfg->daemon.listen, *colon = strrchr(l, ':');
    int port = rpc_server_port(srv);
    if (!strncmp(l, "tcp://", 6) && port > 0 && colon)
        snprintf(addr, sizeof addr, "%.*s:%d", (int)(colon - l), l, port);
    else
        snprintf(addr, sizeof addr, "%s", l);
    const char *h = cfg->daemon.http_listen, *hc = strrchr(h, ':');
    uint16_t hp = daemon_http_port(d);
    if (!h[0])
        snprintf(http, sizeof http, "off");
    else if (hp && hc)
        snprintf(http, sizeof http, "%.*s:%u", (int)(hc - h), h, (unsigned)hp);
    else
        snprintf(http, sizeof http, "%s", h);
    printf("cuzk daemon: listening on %s (http %s), %u device%s, journal %s\n", addr, http, n,
           n == 1 ? "" : "s", cfg->daemon.journal);
    fflush(stdout);
}

/* ---- the command ---- */

typedef struct daemon_run {
    cuzk_config_t cfg;
    dev_set_t devs;
    daemon_rpc_t ctx;
    rpc_server_t *srv;
    daemon_t *d;
    int lock_fd;
} daemon_run_t;

/* Steps 2-4 of the file comment. Returns CLI_OK, or CLI_USAGE after
 * printing what failed (the caller stops what was started). */
static int run_start(daemon_run_t *r, device_kind device)
{
    cuzk_error_t err = {0};
    if (socket_dir_make(r->cfg.daemon.listen, &err) != CUZK_OK)
        return cli_fail(CMD, "daemon.listen", &err);
    daemon_rpc_init(&r->ctx, NULL, &r->cfg);
    if (server_start(&r->srv, &r->cfg, &r->ctx, &err) != CUZK_OK)
        return cli_fail(CMD, r->cfg.daemon.listen, &err);
    if ((r->lock_fd = journal_lock(r->cfg.daemon.journal, &err)) < 0)
        return cli_fail(CMD, "daemon.journal", &err);
    if (devices_open(&r->devs, &r->cfg, device, &err) != CUZK_OK)
        return cli_fail(CMD, "devices", &err);
    if (daemon_new(&r->d, &r->cfg, r->devs.dev, r->devs.n, &err) != CUZK_OK)
        return cli_fail(CMD, "start", &err);
    daemon_rpc_attach(&r->ctx, r->d);
    return CLI_OK;
}

static void run_stop(daemon_run_t *r)
{
    daemon_shutdown(r->d);
    rpc_server_shutdown(r->srv, r->d ? SHUTDOWN_GRACE_MS : 0);
    daemon_free(r->d);
    devices_close(&r->devs);
    if (r->lock_fd >= 0)
        close(r->lock_fd);
    r->srv = NULL;
    r->d = NULL;
    r->lock_fd = -1;
}

int cmd_daemon(int argc, char **argv)
{
    daemon_args_t *a = malloc(sizeof *a);
    daemon_run_t *r = calloc(1, sizeof *r);
    int rc = CLI_USAGE;
    if (!a || !r) {
        fprintf(stderr, "cuzk daemon: out of memory\n");
        goto out;
    }
    r->lock_fd = -1;
    if (!args_parse(a, argc, argv)) {
        fputs(USAGE, stderr);
        goto out;
    }
    if (a->help) {
        fputs(USAGE, stdout);
        rc = CLI_OK;
        goto out;
    }
    if (!config_make(&r->cfg, a))
        goto out;
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    signal(SIGPIPE, SIG_IGN); /* a client gone mid-reply is an error return, not death */
    rc = run_start(r, a->device);
    if (rc == CLI_OK) {
        print_ready(&r->cfg, r->srv, r->d, r->devs.n);
        int sig = 0;
        while (sigwait(&stop, &sig) != 0)
            ;
        fprintf(stderr, "cuzk daemon: %s: shutting down\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    }
    run_stop(r);
    if (rc == CLI_OK)
        fprintf(stderr, "cuzk daemon: stopped\n");
    pthread_sigmask(SIG_SETMASK, &old, NULL);
out:
    free(a);
    free(r);
    return rc;
}
