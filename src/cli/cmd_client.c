/* The daemon client commands: `cuzk submit`, `await`, `cancel`, `status`,
 * `preload` and `evict`, one cuzk.v1.ProvingEngine call each (rpc.h) to a
 * running daemon.
 *
 * Output: what a script wants on stdout (a job id, a result summary, the
 * status table or JSON), problems on stderr as "cuzk <cmd>: <what>:
 * <message>". Exit codes: 0 done; 1 the job failed, was cancelled or is
 * still running; 2 usage, bad input, or a call that failed (the daemon
 * unreachable, a request it refused, no answer in time). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_util.h"
#include "client_filecoin.h"
#include "client_json.h"
#include "client_util.h"
#include "cuzk/request.h"

/* ---- small helpers ---- */

/* The value of option argv[*i], advancing *i; NULL (message printed) when
 * it has none. */
static const char *opt_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc || !argv[*i + 1][0]) {
        fprintf(stderr, "cuzk %s: %s: needs a value\n", cmd, argv[*i]);
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

static int usage(const char *text)
{
    fputs(text, stderr);
    fputs(CLIENT_CONN_USAGE, stderr);
    return CLI_USAGE;
}

static void fmt_bytes(char *buf, size_t cap, uint64_t n)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, cap, "%" PRIu64 " B", n);
    else
        snprintf(buf, cap, "%.1f %s", v, units[u]);
}

/* Writes p[0..n) to path through a temporary file and a rename, so a
 * reader never sees half a proof; "-": stdout. */
static cuzk_status write_file(const char *path, const uint8_t *p, size_t n, cuzk_error_t *err)
{
    if (!strcmp(path, "-")) {
        if (fwrite(p, 1, n, stdout) != n || fflush(stdout) != 0)
            return cuzk_error_set(err, CUZK_ERR_IO, "cannot write to stdout");
        return CUZK_OK;
    }
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: path too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot create %s", tmp);
    int ok = fwrite(p, 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return cuzk_error_set(err, CUZK_ERR_IO, "cannot write %s", path);
    }
    return CUZK_OK;
}

/* ---- await (also submit --wait) ---- */

typedef struct result_out {
    const char *proof, *public; /* files, or NULL */
} result_out_t;

/* Writes a COMPLETED result and its summary. */
static int report_completed(const char *cmd, const char *job, const Cuzk__V1__AwaitProofResponse *r,
                            const result_out_t *out)
{
    cuzk_error_t err = {0};
    if (out->proof && write_file(out->proof, r->proof.data, r->proof.len, &err) != CUZK_OK)
        return cli_fail(cmd, "--proof-out", &err);
    if (out->public &&
        write_file(out->public, r->public_signals.data, r->public_signals.len, &err) != CUZK_OK)
        return cli_fail(cmd, "--public-out", &err);
    int to_stdout =
        !(out->proof && !strcmp(out->proof, "-")) && !(out->public && !strcmp(out->public, "-"));
    fprintf(to_stdout ? stdout : stderr,
            "job %s COMPLETED: proof %zu bytes%s%s, public signals %zu bytes%s%s; queue %" PRIu64
            " ms, srs load %" PRIu64 " ms, synthesis %" PRIu64 " ms, gpu %" PRIu64
            " ms, total %" PRIu64 " ms\n",
            job, r->proof.len, out->proof ? " -> " : "", out->proof ? out->proof : "",
            r->public_signals.len, out->public ? " -> " : "", out->public ? out->public : "",
            r->queue_wait_ms, r->srs_load_ms, r->synthesis_ms, r->gpu_compute_ms, r->total_ms);
    return CLI_OK;
}

/* Reports an AwaitProof answer: 0 COMPLETED, 1 otherwise. */
static int report_result(const char *cmd, const char *job, const Cuzk__V1__AwaitProofResponse *r,
                         long timeout_ms, const result_out_t *out)
{
    const char *name = client_await_status_name(r->status);
    switch (r->status) {
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED:
        return report_completed(cmd, job, r, out);
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT:
        fprintf(stderr, "cuzk %s: job %s: still running (no result within %ld ms)\n", cmd, job,
                timeout_ms);
        return CLI_INVALID;
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED:
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED:
        fprintf(stderr, "cuzk %s: job %s: %s: %s\n", cmd, job, name,
                r->error_message[0] ? r->error_message : "(no message)");
        return CLI_INVALID;
    default:
        fprintf(stderr, "cuzk %s: job %s: the daemon answered status %s%s%s\n", cmd, job, name,
                r->error_message[0] ? ": " : "", r->error_message);
        return CLI_INVALID;
    }
}

/* AwaitProof with timeout_ms (0: no limit), then report_result. */
static int await_job(const char *cmd, rpc_client_t *cl, const client_conn_t *c, const char *job,
                     long timeout_ms, const result_out_t *out)
{
    Cuzk__V1__AwaitProofRequest req;
    cuzk__v1__await_proof_request__init(&req);
    req.job_id = (char *)job;
    req.timeout_ms = (uint64_t)timeout_ms;
    long deadline = timeout_ms > 0 ? timeout_ms + CLIENT_AWAIT_GRACE_MS : 0;
    if (deadline > INT_MAX)
        deadline = INT_MAX;
    Cuzk__V1__AwaitProofResponse *r = NULL;
    rpc_status_t st;
    cuzk_error_t err = {0};
    cuzk_status s = rpc_await_proof(cl, &r, &req, (int)deadline, &st, &err);
    if (s != CUZK_OK) {
        if (st.code == GRPC_STATUS_DEADLINE_EXCEEDED) {
            fprintf(stderr, "cuzk %s: job %s: still running (no answer within %ld ms)\n", cmd, job,
                    deadline);
            return CLI_INVALID;
        }
        return client_call_fail(cmd, c, "AwaitProof", s, &st, &err);
    }
    int rc = report_result(cmd, r->job_id[0] ? r->job_id : job, r, timeout_ms, out);
    cuzk__v1__await_proof_response__free_unpacked(r, NULL);
    return rc;
}

static const char AWAIT_USAGE[] =
    "usage: cuzk await JOB_ID [--proof-out FILE] [--public-out FILE] [connection options]\n"
    "  waits for the job; COMPLETED: writes the proof (snarkjs proof.json text, or the\n"
    "  partitions' 192-byte bellperson proofs concatenated) and the public signals to\n"
    "  the files ('-': stdout) and prints a summary. --timeout-ms N: wait at most N ms\n"
    "  (default: no limit), then exit 1 'still running'. FAILED, CANCELLED: exit 1.\n";

int cmd_await(int argc, char **argv)
{
    client_conn_t c;
    client_conn_default(&c);
    result_out_t out = {NULL, NULL};
    const char *job = NULL;
    for (int i = 1; i < argc; i++) {
        int t = client_conn_take(&c, "await", argc, argv, &i);
        if (t < 0)
            return CLI_USAGE;
        if (t)
            continue;
        if (!strcmp(argv[i], "--proof-out") || !strcmp(argv[i], "--public-out")) {
            const char **dst = !strcmp(argv[i], "--proof-out") ? &out.proof : &out.public;
            if (!(*dst = opt_value("await", argc, argv, &i)))
                return CLI_USAGE;
        } else if (argv[i][0] == '-' || job) {
            fprintf(stderr, "cuzk await: unexpected argument '%s'\n", argv[i]);
            return usage(AWAIT_USAGE);
        } else {
            job = argv[i];
        }
    }
    if (!job || !job[0]) {
        fprintf(stderr, "cuzk await: no job id\n");
        return usage(AWAIT_USAGE);
    }
    rpc_client_t *cl = NULL;
    cuzk_error_t err = {0};
    if (client_connect(&cl, &c, &err) != CUZK_OK)
        return cli_fail("await", c.addr, &err);
    int rc = await_job("await", cl, &c, job, client_timeout(&c, 0), &out);
    rpc_client_free(cl);
    return rc;
}

/* ---- submit ---- */

static const char SUBMIT_USAGE[] =
    "usage: cuzk submit --circuit ID [options] WITNESS.wtns...\n"
    "       cuzk submit [--kind K] --public DIR/public.json --vanilla FILE... [options]\n"
    "  queues a proof and prints its job id ('ID existing' when --request-id named a\n"
    "  job the daemon had already).\n"
    "options: --kind groth16|porep|snap-deals|window-post|winning-post  (default groth16,\n"
    "                      or the kind of --public)\n"
    "         --priority critical|high|normal|low  (default: the daemon's)\n"
    "         --request-id S   idempotency key: resubmitting returns the same job\n"
    "         --wait           then await it, as `cuzk await` (--timeout-ms: the wait)\n"
    "         --proof-out FILE --public-out FILE   (with --wait)\n";

static void submit_usage(void)
{
    fputs(SUBMIT_USAGE, stderr);
    fputs(CLIENT_FIL_USAGE, stderr);
    fputs(CLIENT_CONN_USAGE, stderr);
}

typedef struct submit_args {
    client_conn_t c;
    client_job_t job;
    client_fil_opts_t fil;
    int wait;
    result_out_t out;
    char **files;
    size_t n_files;
} submit_args_t;

static int submit_parse(submit_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    client_conn_default(&a->c);
    a->job.kind = CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT;
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->files)
        return 0;
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v;
        int t = only_files ? 0 : client_conn_take(&a->c, "submit", argc, argv, &i);
        if (t < 0)
            return 0;
        if (t)
            continue;
        const char *file = NULL;
        t = only_files ? 0 : client_fil_take(&a->fil, &file, "submit", argc, argv, &i);
        if (t < 0)
            return 0;
        if (t == 2)
            a->files[a->n_files++] = (char *)file;
        if (t)
            continue;
        if (only_files || o[0] != '-') {
            a->files[a->n_files++] = argv[i];
        } else if (!strcmp(o, "--")) {
            only_files = 1;
        } else if (!strcmp(o, "--wait")) {
            a->wait = 1;
        } else if (!strcmp(o, "--circuit") || !strcmp(o, "--request-id") ||
                   !strcmp(o, "--proof-out") || !strcmp(o, "--public-out")) {
            if (!(v = opt_value("submit", argc, argv, &i)))
                return 0;
            if (!strcmp(o, "--circuit"))
                a->job.circuit_id = v;
            else if (!strcmp(o, "--request-id"))
                a->job.request_id = v;
            else if (!strcmp(o, "--proof-out"))
                a->out.proof = v;
            else
                a->out.public = v;
        } else if (!strcmp(o, "--kind")) {
            if (!(v = opt_value("submit", argc, argv, &i)))
                return 0;
            if (!client_kind_parse(&a->job.kind, v)) {
                fprintf(stderr, "cuzk submit: --kind: unknown kind '%s'\n", v);
                return 0;
            }
        } else if (!strcmp(o, "--priority")) {
            if (!(v = opt_value("submit", argc, argv, &i)))
                return 0;
            if (!client_priority_parse(&a->job.priority, v)) {
                fprintf(stderr, "cuzk submit: --priority: unknown priority '%s'\n", v);
                return 0;
            }
        } else {
            fprintf(stderr, "cuzk submit: unknown option '%s'\n", o);
            submit_usage();
            return 0;
        }
    }
    const char *missing =
        a->n_files == 0
            ? (a->fil.public_path ? "--vanilla: no vanilla proof files" : "no witness files")
        : a->job.kind == CUZK__V1__PROOF_KIND__GROTH16_CIRCUIT && !a->job.circuit_id &&
                !a->fil.public_path
            ? "--circuit is required (--kind groth16)"
            : NULL;
    if (missing) {
        fprintf(stderr, "cuzk submit: %s\n", missing);
        submit_usage();
        return 0;
    }
    if ((a->out.proof || a->out.public) && !a->wait) {
        fprintf(stderr, "cuzk submit: --proof-out and --public-out need --wait\n");
        return 0;
    }
    return 1;
}

/* Whether the daemon said the request id named a job it had: a bool field
 * "existing" in SubmitProofResponse. cuzk.v1 has none yet (upstream's
 * response is job_id, queue_position, assigned_gpu), so this is 0 until the
 * proto gains one; looking it up by name keeps this file right then. */
static int submit_existing(const Cuzk__V1__SubmitProofResponse *r)
{
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field_by_name(r->base.descriptor, "existing");
    if (!f || f->type != PROTOBUF_C_TYPE_BOOL || f->label == PROTOBUF_C_LABEL_REPEATED)
        return 0;
    return *(const protobuf_c_boolean *)((const char *)r + f->offset) != 0;
}

/* Checks the request as the daemon will, so that a bad one fails here with
 * the field named; the Filecoin kinds are the daemon's to refuse. */
static int submit_check(const Cuzk__V1__SubmitProofRequest *req)
{
    rpc_limits_t lim;
    rpc_limits_default(&lim);
    cuzk_error_t err = {0};
    cuzk_status s = rpc_validate_submit(req, &lim, &err);
    if (s == CUZK_OK || s == CUZK_ERR_UNSUPPORTED)
        return 1;
    cli_fail("submit", "request", &err);
    return 0;
}

int cmd_submit(int argc, char **argv)
{
    submit_args_t a;
    client_files_t files = {0};
    rpc_client_t *cl = NULL;
    Cuzk__V1__SubmitProofResponse *r = NULL;
    cuzk_error_t err = {0};
    int rc = CLI_USAGE;
    client_fil_t fil;
    memset(&fil, 0, sizeof fil);
    if (!submit_parse(&a, argc, argv))
        goto out;
    if (client_fil_load(&fil, &a.job, &a.fil, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk submit: %s\n", err.msg);
        goto out;
    }
    if (a.job.kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && a.n_files != 1) {
        fprintf(stderr, "cuzk submit: --vanilla: a porep request takes one file (the C1 "
                        "output)\n");
        goto out;
    }
    if (client_files_map(&files, a.files, a.n_files, &err) != CUZK_OK) {
        rc = cli_fail("submit", "input", &err);
        goto out;
    }
    Cuzk__V1__SubmitProofRequest req;
    client_request_fill(&req, &a.job, &files);
    if (a.fil.public_path)
        client_fil_fill(&req, &fil);
    if (!submit_check(&req))
        goto out;
    if (client_connect(&cl, &a.c, &err) != CUZK_OK) {
        rc = cli_fail("submit", a.c.addr, &err);
        goto out;
    }
    int tmo = a.wait ? CLIENT_LOAD_TIMEOUT_MS : client_timeout(&a.c, CLIENT_LOAD_TIMEOUT_MS);
    rpc_status_t st;
    cuzk_status s = rpc_submit_proof(cl, &r, &req, tmo, &st, &err);
    if (s != CUZK_OK) {
        rc = client_call_fail("submit", &a.c, "SubmitProof", s, &st, &err);
        goto out;
    }
    if (!r->job_id[0]) {
        fprintf(stderr, "cuzk submit: SubmitProof: the daemon answered without a job id\n");
        goto out;
    }
    int existing = submit_existing(r);
    if (!a.wait) {
        printf("%s%s\n", r->job_id, existing ? " existing" : "");
        rc = CLI_OK;
    } else {
        fprintf(stderr, "cuzk submit: job %s%s\n", r->job_id, existing ? " (existing)" : "");
        rc = await_job("submit", cl, &a.c, r->job_id, client_timeout(&a.c, 0), &a.out);
    }
    if (!a.wait && isatty(STDERR_FILENO))
        fprintf(stderr, "cuzk submit: queue position %u%s%s\n", r->queue_position,
                r->assigned_gpu[0] ? ", gpu " : "", r->assigned_gpu);
out:
    if (r)
        cuzk__v1__submit_proof_response__free_unpacked(r, NULL);
    rpc_client_free(cl);
    client_files_unmap(&files);
    client_fil_free(&fil);
    free(a.files);
    return rc;
}

/* ---- commands with one argument: cancel, preload, evict ---- */

/* Parses "<cmd> ARG [connection options]"; NULL (message printed) when
 * malformed. */
static const char *one_arg(client_conn_t *c, const char *cmd, const char *use, int argc,
                           char **argv)
{
    client_conn_default(c);
    const char *arg = NULL;
    for (int i = 1; i < argc; i++) {
        int t = client_conn_take(c, cmd, argc, argv, &i);
        if (t < 0)
            return NULL;
        if (t)
            continue;
        if (argv[i][0] == '-' || arg) {
            fprintf(stderr, "cuzk %s: unexpected argument '%s'\n", cmd, argv[i]);
            usage(use);
            return NULL;
        }
        arg = argv[i];
    }
    if (!arg || !arg[0]) {
        fprintf(stderr, "cuzk %s: missing argument\n", cmd);
        usage(use);
        return NULL;
    }
    return arg;
}

int cmd_cancel(int argc, char **argv)
{
    client_conn_t c;
    const char *job =
        one_arg(&c, "cancel", "usage: cuzk cancel JOB_ID [connection options]\n", argc, argv);
    if (!job)
        return CLI_USAGE;
    rpc_client_t *cl = NULL;
    cuzk_error_t err = {0};
    if (client_connect(&cl, &c, &err) != CUZK_OK)
        return cli_fail("cancel", c.addr, &err);
    Cuzk__V1__CancelProofRequest req;
    cuzk__v1__cancel_proof_request__init(&req);
    req.job_id = (char *)job;
    Cuzk__V1__CancelProofResponse *r = NULL;
    rpc_status_t st;
    cuzk_status s =
        rpc_cancel_proof(cl, &r, &req, client_timeout(&c, CLIENT_QUICK_TIMEOUT_MS), &st, &err);
    int rc = CLI_OK;
    if (s != CUZK_OK)
        rc = client_call_fail("cancel", &c, "CancelProof", s, &st, &err);
    else
        printf("job %s: cancel requested (%s)\n", job,
               r->was_running ? "it was running" : "it was not running");
    if (r)
        cuzk__v1__cancel_proof_response__free_unpacked(r, NULL);
    rpc_client_free(cl);
    return rc;
}

int cmd_preload(int argc, char **argv)
{
    client_conn_t c;
    const char *id = one_arg(&c, "preload",
                             "usage: cuzk preload CIRCUIT_ID [connection options]\n"
                             "  loads the key onto the daemon's devices ahead of its first proof\n",
                             argc, argv);
    if (!id)
        return CLI_USAGE;
    cuzk_error_t err = {0};
    if (request_circuit_id_check(id, &err) != CUZK_OK)
        return cli_fail("preload", id, &err);
    rpc_client_t *cl = NULL;
    if (client_connect(&cl, &c, &err) != CUZK_OK)
        return cli_fail("preload", c.addr, &err);
    Cuzk__V1__PreloadSrsRequest req;
    cuzk__v1__preload_srs_request__init(&req);
    req.circuit_id = (char *)id;
    Cuzk__V1__PreloadSrsResponse *r = NULL;
    rpc_status_t st;
    cuzk_status s =
        rpc_preload_srs(cl, &r, &req, client_timeout(&c, CLIENT_LOAD_TIMEOUT_MS), &st, &err);
    int rc = CLI_OK;
    if (s != CUZK_OK)
        rc = client_call_fail("preload", &c, "PreloadSRS", s, &st, &err);
    else if (r->already_loaded)
        printf("circuit %s: already loaded\n", id);
    else
        printf("circuit %s: loaded in %" PRIu64 " ms\n", id, r->load_time_ms);
    if (r)
        cuzk__v1__preload_srs_response__free_unpacked(r, NULL);
    rpc_client_free(cl);
    return rc;
}

int cmd_evict(int argc, char **argv)
{
    client_conn_t c;
    const char *id = one_arg(&c, "evict",
                             "usage: cuzk evict CIRCUIT_ID [connection options]\n"
                             "  drops the key from the daemon's devices and memory\n",
                             argc, argv);
    if (!id)
        return CLI_USAGE;
    cuzk_error_t err = {0};
    if (request_circuit_id_check(id, &err) != CUZK_OK)
        return cli_fail("evict", id, &err);
    rpc_client_t *cl = NULL;
    if (client_connect(&cl, &c, &err) != CUZK_OK)
        return cli_fail("evict", c.addr, &err);
    Cuzk__V1__EvictSrsRequest req;
    cuzk__v1__evict_srs_request__init(&req);
    req.circuit_id = (char *)id;
    Cuzk__V1__EvictSrsResponse *r = NULL;
    rpc_status_t st;
    cuzk_status s =
        rpc_evict_srs(cl, &r, &req, client_timeout(&c, CLIENT_QUICK_TIMEOUT_MS), &st, &err);
    int rc = CLI_OK;
    char b[32];
    if (s != CUZK_OK) {
        rc = client_call_fail("evict", &c, "EvictSRS", s, &st, &err);
    } else if (r->was_loaded) {
        fmt_bytes(b, sizeof b, r->freed_bytes);
        printf("circuit %s: evicted, %s freed\n", id, b);
    } else {
        printf("circuit %s: was not loaded\n", id);
    }
    if (r)
        cuzk__v1__evict_srs_response__free_unpacked(r, NULL);
    rpc_client_free(cl);
    return rc;
}

/* ---- status ---- */

/* Widens column width w to fit s (up to 48 characters). */
static int fit(int w, const char *s)
{
    int l = (int)strlen(s);
    return l > w ? (l > 48 ? 48 : l) : w;
}

static void status_table(const Cuzk__V1__GetStatusResponse *r)
{
    char b1[32], b2[32];
    uint64_t up = r->uptime_seconds;
    fmt_bytes(b1, sizeof b1, r->pinned_memory_bytes);
    fmt_bytes(b2, sizeof b2, r->pinned_memory_limit_bytes);
    printf("daemon: up %" PRIu64 "d %02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 ", %" PRIu64
           " proofs completed, %" PRIu64 " failed, pinned memory %s of %s\n",
           up / 86400, up / 3600 % 24, up / 60 % 60, up % 60, r->total_proofs_completed,
           r->total_proofs_failed, b1, b2);
    int w = 4;
    for (size_t i = 0; i < r->n_gpus; i++)
        w = fit(w, r->gpus[i]->name);
    printf("\n%-4s %-*s %12s %12s  %-12s %s\n", "gpu", w, "name", "vram free", "vram total", "job",
           "kind");
    for (size_t i = 0; i < r->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = r->gpus[i];
        fmt_bytes(b1, sizeof b1, g->vram_free_bytes);
        fmt_bytes(b2, sizeof b2, g->vram_total_bytes);
        printf("%-4u %-*s %12s %12s  %-12s %s\n", g->ordinal, w, g->name, b1, b2,
               g->current_job_id[0] ? g->current_job_id : "-",
               g->current_proof_kind[0] ? g->current_proof_kind : "-");
    }
    if (!r->n_gpus)
        printf("(no devices)\n");
    w = 7;
    for (size_t i = 0; i < r->n_loaded_srs; i++)
        w = fit(w, r->loaded_srs[i]->circuit_id);
    printf("\n%-*s %-5s %12s %5s %6s %12s %6s\n", w, "circuit", "tier", "size", "refs", "host",
           "on devices", "loaded");
    for (size_t i = 0; i < r->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *k = r->loaded_srs[i];
        const ProtobufCEnumValue *t =
            protobuf_c_enum_descriptor_get_value(&cuzk__v1__srsstatus__tier__descriptor, k->tier);
        fmt_bytes(b1, sizeof b1, k->size_bytes);
        fmt_bytes(b2, sizeof b2, k->device_bytes);
        char host[16] = "-", dev[16] = "-";
        if (k->size_bytes)
            snprintf(host, sizeof host, "%.0f%%",
                     100.0 * (double)k->loaded_bytes / (double)k->size_bytes);
        if (k->device_bytes)
            snprintf(dev, sizeof dev, "%.0f%%",
                     100.0 * (double)k->device_loaded_bytes / (double)k->device_bytes);
        printf("%-*s %-5s %12s %5u %6s %12s %6s\n", w, k->circuit_id, t ? t->name : "?", b1,
               k->ref_count, host, k->device_bytes ? b2 : "-", dev);
    }
    if (!r->n_loaded_srs)
        printf("(no keys loaded)\n");
    w = 5;
    for (size_t i = 0; i < r->n_queues; i++)
        w = fit(w, r->queues[i]->proof_kind);
    printf("\n%-*s %8s %8s\n", w, "queue", "pending", "running");
    for (size_t i = 0; i < r->n_queues; i++)
        printf("%-*s %8u %8u\n", w, r->queues[i]->proof_kind, r->queues[i]->pending,
               r->queues[i]->in_progress);
    if (!r->n_queues)
        printf("(no queues)\n");
}

static int status_json(const Cuzk__V1__GetStatusResponse *r)
{
    cJSON *j = client_json_message(&r->base);
    char *s = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!s) {
        fprintf(stderr, "cuzk status: out of memory\n");
        return CLI_USAGE;
    }
    printf("%s\n", s);
    cJSON_free(s);
    return CLI_OK;
}

int cmd_status(int argc, char **argv)
{
    client_conn_t c;
    client_conn_default(&c);
    int json = 0;
    for (int i = 1; i < argc; i++) {
        int t = client_conn_take(&c, "status", argc, argv, &i);
        if (t < 0)
            return CLI_USAGE;
        if (t)
            continue;
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        fprintf(stderr, "cuzk status: unexpected argument '%s'\n", argv[i]);
        return usage("usage: cuzk status [--json] [connection options]\n"
                     "  the daemon's devices, loaded keys, queues and counters (GetStatus);\n"
                     "  --json: every field of the reply, by its proto name\n");
    }
    rpc_client_t *cl = NULL;
    cuzk_error_t err = {0};
    if (client_connect(&cl, &c, &err) != CUZK_OK)
        return cli_fail("status", c.addr, &err);
    Cuzk__V1__GetStatusRequest req;
    cuzk__v1__get_status_request__init(&req);
    Cuzk__V1__GetStatusResponse *r = NULL;
    rpc_status_t st;
    cuzk_status s =
        rpc_get_status(cl, &r, &req, client_timeout(&c, CLIENT_QUICK_TIMEOUT_MS), &st, &err);
    int rc = CLI_OK;
    if (s != CUZK_OK)
        rc = client_call_fail("status", &c, "GetStatus", s, &st, &err);
    else if (json)
        rc = status_json(r);
    else
        status_table(r);
    if (r)
        cuzk__v1__get_status_response__free_unpacked(r, NULL);
    rpc_client_free(cl);
    return rc;
}
