/* `cuzk bench single|batch|stress`: proofs through a running daemon, over
 * cuzk.v1 (rpc.h), measured at the client.
 *   single: --n N Prove calls one after another; each one's latency. With
 *           --every S one call is due every S seconds (a WinningPoSt
 *           every 30 s); a call still running when the next is due
 *           delays it, none is made up.
 *   batch:  --n N SubmitProof calls at once, then every job awaited by
 *           --concurrency C threads; throughput over the whole batch.
 *   stress: C client threads for --seconds S, each submitting and awaiting
 *           one job at a time with a random priority (unless --priority),
 *           cancelling --cancel-pct P % of its jobs shortly after submit;
 *           counts every outcome.
 * Filecoin requests (--public and --vanilla, client_filecoin.h): every
 * proof is the same request, filled once as Curio fills it; stress varies
 * only the priority and the cancels, as for circuits. A mixed load (PoRep
 * jobs plus a WinningPoSt every 30 s) is two bench runs side by side:
 * `bench batch` of PoRep and `bench single --every 30` of WinningPoSt.
 * Latency is from the request's send to its answer. Prints JSON lines
 * (single: one per proof; every mode: a summary), then a table; a progress
 * line on stderr when stderr is a terminal.
 * Exit: 0 every proof completed (stress: none failed and no call errors;
 * cancelled and RESOURCE_EXHAUSTED answers are expected there); 1
 * otherwise; 2 usage, bad input or an unreachable daemon. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_util.h"
#include "client_filecoin.h"
#include "client_util.h"

typedef enum bench_mode { MODE_SINGLE, MODE_BATCH, MODE_STRESS } bench_mode;

/* What a proof came to. */
typedef enum outcome {
    OUT_COMPLETED,
    OUT_FAILED,    /* the job FAILED */
    OUT_CANCELLED, /* the job CANCELLED (stress cancels some) */
    OUT_TIMEOUT,   /* TIMEOUT or DEADLINE_EXCEEDED: still running */
    OUT_REJECTED,  /* RESOURCE_EXHAUSTED: the daemon's queue or workers are full */
    OUT_ERROR,     /* any other failed call, or an answer that makes no sense */
    OUT_COUNT
} outcome;

static const char *const OUT_NAMES[OUT_COUNT] = {"completed", "failed",   "cancelled",
                                                 "timeout",   "rejected", "errors"};

typedef struct bench_args {
    bench_mode mode;
    const char *name; /* argv[0] */
    client_conn_t c;
    client_job_t job;
    client_fil_opts_t fil;
    int random_priority; /* stress without --priority */
    long n, concurrency, seconds, cancel_pct;
    double every_s; /* single: one call due every this many seconds; 0: back to back */
    unsigned seed;
    int timeout_ms; /* per proof */
    char **files;
    size_t n_files;
} bench_args_t;

/* Shared by the client threads; every field below mu is under it. */
typedef struct bench {
    const bench_args_t *a;
    rpc_client_t *cl;
    const Cuzk__V1__SubmitProofRequest *req; /* read-only once the threads start */
    double t0, stop_at;                      /* cli_now() seconds */
    int tty;
    pthread_mutex_t mu;
    double *lat_ms; /* completed proofs' latencies */
    size_t n_lat, cap_lat;
    uint64_t count[OUT_COUNT], done;
    uint64_t cancel_errors; /* CancelProof calls that failed (stress) */
    double last_done, last_progress;
    char first_error[CUZK_ERRMSG_MAX + 64];
    /* batch: the jobs and their submit times; next job to await */
    char **jobs;
    double *sent;
    size_t next;
} bench_t;

static double ms_since(double t)
{
    return (cli_now() - t) * 1e3;
}

/* Progress on stderr, at most 10 times a second (under mu). */
static void progress(bench_t *b, int final)
{
    double now = cli_now();
    if (!b->tty || (!final && now - b->last_progress < 0.1))
        return;
    b->last_progress = now;
    uint64_t bad = b->done - b->count[OUT_COMPLETED];
    if (b->a->mode == MODE_STRESS) {
        fprintf(stderr, "\r%s: %5.1f / %ld s  %" PRIu64 " done, %" PRIu64 " not completed ",
                b->a->name, now - b->t0, b->a->seconds, b->done, bad);
    } else {
        int w = 30, k = (int)((double)w * (double)b->done / (double)b->a->n);
        fprintf(stderr, "\r%s: [%.*s%*s] %" PRIu64 "/%ld, %" PRIu64 " not completed ", b->a->name,
                k, "##############################", w - k, "", b->done, b->a->n, bad);
    }
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

/* Clears the progress line, so that stdout (a terminal too, maybe) starts
 * on a clean line. */
static void progress_clear(const bench_t *b)
{
    if (b->tty) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

/* Records one proof's outcome (and error message, the first one kept). */
static void record(bench_t *b, outcome o, double lat_ms, const char *why)
{
    pthread_mutex_lock(&b->mu);
    b->count[o]++;
    b->done++;
    b->last_done = cli_now();
    if (o == OUT_COMPLETED) {
        if (b->n_lat == b->cap_lat) {
            size_t cap = b->cap_lat ? 2 * b->cap_lat : 1024;
            double *v = realloc(b->lat_ms, cap * sizeof *v);
            if (v) {
                b->lat_ms = v;
                b->cap_lat = cap;
            }
        }
        if (b->n_lat < b->cap_lat)
            b->lat_ms[b->n_lat++] = lat_ms;
    } else if (why && !b->first_error[0] && !(o == OUT_CANCELLED && b->a->mode == MODE_STRESS)) {
        snprintf(b->first_error, sizeof b->first_error, "%s: %s", OUT_NAMES[o], why);
    }
    progress(b, 0);
    pthread_mutex_unlock(&b->mu);
}

static outcome outcome_of_status(int status)
{
    switch (status) {
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED: return OUT_COMPLETED;
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED: return OUT_FAILED;
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED: return OUT_CANCELLED;
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT: return OUT_TIMEOUT;
    default: return OUT_ERROR;
    }
}

static outcome outcome_of_call(const rpc_status_t *st)
{
    if (st->code == GRPC_STATUS_DEADLINE_EXCEEDED)
        return OUT_TIMEOUT;
    if (st->code == GRPC_STATUS_RESOURCE_EXHAUSTED)
        return OUT_REJECTED;
    return OUT_ERROR;
}

/* Awaits job (sent at `sent`) and records the outcome. */
static outcome await_one(bench_t *b, const char *job, double sent)
{
    Cuzk__V1__AwaitProofRequest req;
    cuzk__v1__await_proof_request__init(&req);
    req.job_id = (char *)job;
    req.timeout_ms = (uint64_t)b->a->timeout_ms;
    Cuzk__V1__AwaitProofResponse *r = NULL;
    rpc_status_t st;
    cuzk_error_t err = {0};
    long deadline = (long)b->a->timeout_ms + CLIENT_AWAIT_GRACE_MS;
    outcome o;
    if (rpc_await_proof(b->cl, &r, &req, deadline > INT32_MAX ? INT32_MAX : (int)deadline, &st,
                        &err) != CUZK_OK) {
        o = outcome_of_call(&st);
        record(b, o, 0, err.msg);
    } else {
        o = outcome_of_status(r->status);
        char why[CUZK_ERRMSG_MAX];
        snprintf(why, sizeof why, "job %s: %s%s%s", job, client_await_status_name(r->status),
                 r->error_message[0] ? ": " : "", r->error_message);
        record(b, o, ms_since(sent), why);
        cuzk__v1__await_proof_response__free_unpacked(r, NULL);
    }
    return o;
}

/* ---- single ---- */

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ; /* interrupted: sleep the rest */
}

static void run_single(bench_t *b)
{
    Cuzk__V1__ProveRequest req;
    cuzk__v1__prove_request__init(&req);
    req.submit = (Cuzk__V1__SubmitProofRequest *)b->req; /* packed, never written */
    double due = cli_now();
    for (long i = 0; i < b->a->n; i++) {
        Cuzk__V1__ProveResponse *r = NULL;
        rpc_status_t st;
        cuzk_error_t err = {0};
        if (b->a->every_s > 0) {
            double wait = due - cli_now();
            if (wait > 0)
                sleep_s(wait);
            due += b->a->every_s;
            if (due < cli_now()) /* a call outlived its period: the next now */
                due = cli_now();
        }
        double t = cli_now();
        cuzk_status s = rpc_prove(b->cl, &r, &req, b->a->timeout_ms, &st, &err);
        double lat = ms_since(t);
        outcome o = OUT_ERROR;
        uint64_t server_ms = 0;
        char why[CUZK_ERRMSG_MAX] = "Prove: a reply without a result";
        if (s != CUZK_OK) {
            o = outcome_of_call(&st);
            snprintf(why, sizeof why, "%s", err.msg);
        } else if (r->result) {
            o = outcome_of_status(r->result->status);
            server_ms = r->result->total_ms;
            snprintf(why, sizeof why, "job %s: %s%s%s", r->result->job_id,
                     client_await_status_name(r->result->status),
                     r->result->error_message[0] ? ": " : "", r->result->error_message);
        }
        progress_clear(b);
        printf("{\"bench\":\"single\",\"proof\":%ld,\"outcome\":\"%s\",\"latency_ms\":%.3f,"
               "\"server_total_ms\":%" PRIu64 "}\n",
               i, OUT_NAMES[o], lat, server_ms);
        fflush(stdout);
        record(b, o, lat, why);
        if (r)
            cuzk__v1__prove_response__free_unpacked(r, NULL);
    }
}

/* ---- batch ---- */

static void *batch_awaiter(void *arg)
{
    bench_t *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        size_t i = b->next < (size_t)b->a->n ? b->next++ : (size_t)b->a->n;
        pthread_mutex_unlock(&b->mu);
        if (i >= (size_t)b->a->n)
            return NULL;
        if (b->jobs[i]) /* NULL: its submit failed, already recorded */
            await_one(b, b->jobs[i], b->sent[i]);
    }
}

static void run_batch(bench_t *b)
{
    size_t n = (size_t)b->a->n;
    b->jobs = calloc(n, sizeof *b->jobs);
    b->sent = calloc(n, sizeof *b->sent);
    if (!b->jobs || !b->sent) {
        record(b, OUT_ERROR, 0, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        Cuzk__V1__SubmitProofResponse *r = NULL;
        rpc_status_t st;
        cuzk_error_t err = {0};
        b->sent[i] = cli_now();
        if (rpc_submit_proof(b->cl, &r, b->req, CLIENT_LOAD_TIMEOUT_MS, &st, &err) != CUZK_OK) {
            record(b, outcome_of_call(&st), 0, err.msg);
            continue;
        }
        b->jobs[i] = strdup(r->job_id);
        if (!b->jobs[i])
            record(b, OUT_ERROR, 0, "out of memory");
        cuzk__v1__submit_proof_response__free_unpacked(r, NULL);
    }
    pthread_t *t = calloc((size_t)b->a->concurrency, sizeof *t);
    long started = 0;
    while (t && started < b->a->concurrency &&
           pthread_create(&t[started], NULL, batch_awaiter, b) == 0)
        started++;
    if (started == 0)
        batch_awaiter(b); /* no thread: await them here */
    for (long k = 0; k < started; k++)
        pthread_join(t[k], NULL);
    free(t);
    for (size_t i = 0; i < n; i++)
        free(b->jobs[i]);
}

/* ---- stress ---- */

typedef struct stress_thread {
    bench_t *b;
    unsigned seed;
    pthread_t tid;
} stress_thread_t;

static void stress_one(bench_t *b, unsigned *seed)
{
    static const Cuzk__V1__Priority prios[] = {CUZK__V1__PRIORITY__LOW, CUZK__V1__PRIORITY__NORMAL,
                                               CUZK__V1__PRIORITY__HIGH,
                                               CUZK__V1__PRIORITY__CRITICAL};
    Cuzk__V1__SubmitProofRequest req = *b->req; /* a shallow copy: only priority changes */
    if (b->a->random_priority)
        req.priority = prios[rand_r(seed) % 4];
    Cuzk__V1__SubmitProofResponse *r = NULL;
    rpc_status_t st;
    cuzk_error_t err = {0};
    double t = cli_now();
    if (rpc_submit_proof(b->cl, &r, &req, CLIENT_LOAD_TIMEOUT_MS, &st, &err) != CUZK_OK) {
        outcome o = outcome_of_call(&st);
        record(b, o, 0, err.msg);
        /* back off a little: a full queue, or a daemon gone, answers at once */
        nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
        return;
    }
    if (rand_r(seed) % 100 < b->a->cancel_pct) {
        nanosleep(&(struct timespec){0, (long)(rand_r(seed) % 50) * 1000000L}, NULL);
        Cuzk__V1__CancelProofRequest cr;
        cuzk__v1__cancel_proof_request__init(&cr);
        cr.job_id = r->job_id;
        Cuzk__V1__CancelProofResponse *cresp = NULL;
        if (rpc_cancel_proof(b->cl, &cresp, &cr, CLIENT_QUICK_TIMEOUT_MS, &st, &err) != CUZK_OK) {
            pthread_mutex_lock(&b->mu);
            b->cancel_errors++; /* the await below counts the proof itself */
            if (!b->first_error[0])
                snprintf(b->first_error, sizeof b->first_error, "cancel: %s", err.msg);
            pthread_mutex_unlock(&b->mu);
        }
        if (cresp)
            cuzk__v1__cancel_proof_response__free_unpacked(cresp, NULL);
    }
    await_one(b, r->job_id, t);
    cuzk__v1__submit_proof_response__free_unpacked(r, NULL);
}

static void *stress_thread(void *arg)
{
    stress_thread_t *s = arg;
    while (cli_now() < s->b->stop_at)
        stress_one(s->b, &s->seed);
    return NULL;
}

static void run_stress(bench_t *b)
{
    long n = b->a->concurrency;
    stress_thread_t *t = calloc((size_t)n, sizeof *t);
    long started = 0;
    b->stop_at = b->t0 + (double)b->a->seconds;
    for (; t && started < n; started++) {
        t[started].b = b;
        t[started].seed = b->a->seed + (unsigned)started * 7919u;
        if (pthread_create(&t[started].tid, NULL, stress_thread, &t[started]) != 0)
            break;
    }
    if (started == 0) {
        record(b, OUT_ERROR, 0, "cannot start a client thread");
        free(t);
        return;
    }
    for (long k = 0; k < started; k++)
        pthread_join(t[k].tid, NULL);
    free(t);
}

/* ---- report ---- */

static void report(bench_t *b)
{
    const bench_args_t *a = b->a;
    double wall = (b->last_done > b->t0 ? b->last_done : cli_now()) - b->t0;
    double lat[5] = {0, 0, 0, 0, 0}; /* min, median, p95, p99, max */
    if (b->n_lat) {
        qsort(b->lat_ms, b->n_lat, sizeof *b->lat_ms, cli_cmp_double);
        lat[0] = b->lat_ms[0];
        lat[1] = cli_percentile(b->lat_ms, b->n_lat, 0.5);
        lat[2] = cli_percentile(b->lat_ms, b->n_lat, 0.95);
        lat[3] = cli_percentile(b->lat_ms, b->n_lat, 0.99);
        lat[4] = b->lat_ms[b->n_lat - 1];
    }
    double rate = wall > 0 ? (double)b->count[OUT_COMPLETED] / wall : 0;
    printf("{\"bench\":\"%s\",\"circuit\":\"%s\",\"kind\":\"%s\",\"addr\":\"%s\","
           "\"partitions\":%zu,\"priority\":\"%s\",\"n\":%" PRIu64 ",\"concurrency\":%ld,",
           a->name, a->job.circuit_id ? a->job.circuit_id : "", client_kind_name(a->job.kind),
           a->c.addr, a->n_files,
           a->random_priority ? "random" : client_priority_name(a->job.priority), b->done,
           a->mode == MODE_SINGLE ? 1 : a->concurrency);
    for (int o = 0; o < OUT_COUNT; o++)
        printf("\"%s\":%" PRIu64 ",", OUT_NAMES[o], b->count[o]);
    printf("\"wall_s\":%.3f,\"proofs_per_s\":%.3f,\"lat_min_ms\":%.3f,\"lat_median_ms\":%.3f,"
           "\"lat_p95_ms\":%.3f,\"lat_p99_ms\":%.3f,\"lat_max_ms\":%.3f,\"every_s\":%.3f,"
           "\"cancel_errors\":%" PRIu64 ",\"seed\":%u}\n",
           wall, rate, lat[0], lat[1], lat[2], lat[3], lat[4], a->every_s, b->cancel_errors,
           a->seed);
    printf("\n%-7s %6s %6s %6s %6s %6s %6s %6s %9s %10s %10s %10s %10s %10s\n", "bench", "n", "ok",
           "failed", "cancel", "tmout", "reject", "errors", "proofs/s", "min ms", "median ms",
           "p95 ms", "p99 ms", "max ms");
    printf("%-7s %6" PRIu64, a->name, b->done);
    for (int o = 0; o < OUT_COUNT; o++)
        printf(" %6" PRIu64, b->count[o]);
    printf(" %9.3f %10.1f %10.1f %10.1f %10.1f %10.1f\n", rate, lat[0], lat[1], lat[2], lat[3],
           lat[4]);
    if (b->first_error[0])
        fprintf(stderr, "cuzk bench %s: first problem: %s\n", a->name, b->first_error);
}

/* ---- arguments ---- */

static int bench_usage(const char *name)
{
    fprintf(stderr,
            "usage: cuzk bench %s --circuit ID [options] WITNESS.wtns...\n"
            "       cuzk bench %s [--kind K] --public DIR/public.json --vanilla FILE...\n"
            "                 [options]   (each proof the same Filecoin request)\n"
            "  single: --n N sequential Prove calls (default 10), the latency of each;\n"
            "          --every S: one due every S seconds (e.g. a WinningPoSt every 30)\n"
            "  batch:  --n N submits at once (default 32), awaited by --concurrency C\n"
            "          threads (default 8): throughput\n"
            "  stress: --concurrency C threads (default 4) for --seconds S (default 10),\n"
            "          random priorities unless --priority, --cancel-pct P %% of jobs\n"
            "          cancelled (default 10)\n"
            "options: --kind K --priority critical|high|normal|low --seed N\n"
            "         --timeout-ms N: per proof (default %d)\n",
            name, name, CLIENT_LOAD_TIMEOUT_MS);
    fputs(CLIENT_FIL_USAGE, stderr);
    fputs(CLIENT_CONN_USAGE, stderr);
    return CLI_USAGE;
}

/* --every: seconds in (0, 86400]. */
static int parse_every(double *out, const char *v)
{
    char *end = NULL;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0 && x <= 86400))
        return 0;
    *out = x;
    return 1;
}

static int bench_parse(bench_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->name = argv[0];
    a->mode = !strcmp(argv[0], "single")  ? MODE_SINGLE
              : !strcmp(argv[0], "batch") ? MODE_BATCH
                                          : MODE_STRESS;
    client_conn_default(&a->c);
    a->job.kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    a->n = a->mode == MODE_SINGLE ? 10 : 32;
    a->concurrency = a->mode == MODE_BATCH ? 8 : 4;
    a->seconds = 10;
    a->cancel_pct = 10;
    a->seed = (unsigned)time(NULL);
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->files)
        return 0;
    int have_prio = 0;
    char cmd[32];
    snprintf(cmd, sizeof cmd, "bench %s", a->name);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int t = client_conn_take(&a->c, cmd, argc, argv, &i);
        if (t < 0)
            return 0;
        if (t)
            continue;
        const char *file = NULL;
        t = client_fil_take(&a->fil, &file, cmd, argc, argv, &i);
        if (t < 0)
            return 0;
        if (t == 2)
            a->files[a->n_files++] = (char *)file;
        if (t)
            continue;
        if (o[0] != '-') {
            a->files[a->n_files++] = argv[i];
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x = 0;
        int ok = v != NULL;
        if (!strcmp(o, "--circuit") && ok)
            a->job.circuit_id = v;
        else if (!strcmp(o, "--kind") && ok)
            ok = client_kind_parse(&a->job.kind, v);
        else if (!strcmp(o, "--priority") && ok)
            ok = have_prio = client_priority_parse(&a->job.priority, v);
        else if (!strcmp(o, "--n") && ok && (ok = client_parse_long(&x, v, 1, 1000000)))
            a->n = x;
        else if (!strcmp(o, "--concurrency") && ok && (ok = client_parse_long(&x, v, 1, 1024)))
            a->concurrency = x;
        else if (!strcmp(o, "--seconds") && ok && (ok = client_parse_long(&x, v, 1, 86400)))
            a->seconds = x;
        else if (!strcmp(o, "--cancel-pct") && ok && (ok = client_parse_long(&x, v, 0, 100)))
            a->cancel_pct = x;
        else if (!strcmp(o, "--seed") && ok && (ok = client_parse_long(&x, v, 0, UINT32_MAX)))
            a->seed = (unsigned)x;
        else if (!strcmp(o, "--every") && ok && a->mode == MODE_SINGLE)
            ok = parse_every(&a->every_s, v);
        else
            ok = 0;
        if (!ok) {
            fprintf(stderr, "cuzk bench %s: bad option '%s%s%s'\n", a->name, o, v ? " " : "",
                    v ? v : "");
            return 0;
        }
        i++;
    }
    if (a->n_files == 0 || (a->job.kind == CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT &&
                            !a->job.circuit_id && !a->fil.public_path)) {
        fprintf(stderr, "cuzk bench %s: %s\n", a->name,
                a->n_files           ? "--circuit is required (--kind groth16)"
                : a->fil.public_path ? "--vanilla: no vanilla proof files"
                                     : "no witness files");
        return 0;
    }
    a->random_priority = a->mode == MODE_STRESS && !have_prio;
    a->timeout_ms = client_timeout(&a->c, CLIENT_LOAD_TIMEOUT_MS);
    if (a->timeout_ms == 0) /* "no limit": Prove has no timeout of its own */
        a->timeout_ms = CLIENT_TIMEOUT_MS_MAX - CLIENT_AWAIT_GRACE_MS;
    return 1;
}

/* One GetStatus, so an unreachable daemon is reported once, clearly. */
static int preflight(rpc_client_t *cl, const bench_args_t *a)
{
    Cuzk__V1__GetStatusRequest req;
    cuzk__v1__get_status_request__init(&req);
    Cuzk__V1__GetStatusResponse *r = NULL;
    rpc_status_t st;
    cuzk_error_t err = {0};
    char cmd[32];
    snprintf(cmd, sizeof cmd, "bench %s", a->name);
    cuzk_status s = rpc_get_status(cl, &r, &req, CLIENT_QUICK_TIMEOUT_MS, &st, &err);
    if (s != CUZK_OK)
        return client_call_fail(cmd, &a->c, "GetStatus", s, &st, &err);
    cuzk__v1__get_status_response__free_unpacked(r, NULL);
    return CLI_OK;
}

int bench_client(int argc, char **argv)
{
    bench_args_t a;
    client_files_t files = {0};
    client_fil_t fil;
    memset(&fil, 0, sizeof fil);
    bench_t b;
    memset(&b, 0, sizeof b);
    pthread_mutex_init(&b.mu, NULL);
    cuzk_error_t err = {0};
    int rc = CLI_USAGE;
    char cmd[32];
    snprintf(cmd, sizeof cmd, "bench %s", argv[0]);
    if (!bench_parse(&a, argc, argv)) {
        bench_usage(argv[0]);
        goto out;
    }
    if (client_fil_load(&fil, &a.job, &a.fil, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err.msg);
        goto out;
    }
    if (a.job.kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && a.n_files != 1) {
        fprintf(stderr, "cuzk %s: --vanilla: a porep request takes one file (the C1 output)\n",
                cmd);
        goto out;
    }
    if (client_files_map(&files, a.files, a.n_files, &err) != CUZK_OK) {
        rc = cli_fail(cmd, "input", &err);
        goto out;
    }
    Cuzk__V1__SubmitProofRequest req;
    client_request_fill(&req, &a.job, &files);
    if (a.fil.public_path)
        client_fil_fill(&req, &fil);
    rpc_limits_t lim;
    rpc_limits_default(&lim);
    cuzk_status vs = rpc_validate_submit(&req, &lim, &err);
    if (vs != CUZK_OK && vs != CUZK_ERR_UNSUPPORTED) {
        rc = cli_fail(cmd, "request", &err);
        goto out;
    }
    if (client_connect(&b.cl, &a.c, &err) != CUZK_OK) {
        rc = cli_fail(cmd, a.c.addr, &err);
        goto out;
    }
    if ((rc = preflight(b.cl, &a)) != CLI_OK)
        goto out;
    b.a = &a;
    b.req = &req;
    b.tty = isatty(STDERR_FILENO);
    b.t0 = cli_now();
    if (a.mode == MODE_SINGLE)
        run_single(&b);
    else if (a.mode == MODE_BATCH)
        run_batch(&b);
    else
        run_stress(&b);
    pthread_mutex_lock(&b.mu);
    progress(&b, 1);
    pthread_mutex_unlock(&b.mu);
    report(&b);
    uint64_t bad = a.mode == MODE_STRESS
                       ? b.count[OUT_FAILED] + b.count[OUT_ERROR] + b.cancel_errors
                       : b.done - b.count[OUT_COMPLETED];
    rc = bad || b.done == 0 ? CLI_INVALID : CLI_OK;
out:
    rpc_client_free(b.cl);
    client_files_unmap(&files);
    client_fil_free(&fil);
    free(a.files);
    free(b.lat_ms);
    free(b.jobs);
    free(b.sent);
    pthread_mutex_destroy(&b.mu);
    return rc;
}
