/* cs_parallel: fork / join over a static witness layout (cs.h).
 *
 * DESIGN. A circuit whose parts allocate fixed numbers of variables (the
 * PoRep's challenges, and their labels) has a layout known before it is
 * synthesized, so the parts can fill their slices of one value vector at
 * once. Who owns what while a parallel call runs:
 *  - The parent cs belongs to the thread that called cs_parallel, which
 *    waits in it. Before any child starts, it reserves every task's
 *    variables (values and density bitmaps), so nothing moves while the
 *    children run, and it reads their results only after joining them.
 *  - A child (cs_task_info_t) is owned by the thread running its task. It
 *    writes the parent's value vectors (the parent's own, or the caller's
 *    memory that cs_bind_values bound to it) only in its own slice (disjoint from
 *    every other task's), reads below its slice only what the parent wrote
 *    before the fork (pthread_create orders it), and sets density bits
 *    plainly in the words wholly inside its slice and with atomic OR in
 *    the others (cs.c density_set): its slice's edge words, and those of
 *    variables older than the call, which siblings may set too.
 *  - A job (one call) hands out task numbers from an atomic counter; the
 *    result slot of task i is written only by the thread that ran it and
 *    read by the owner after pthread_join. Only the owner starts and joins
 *    the job's helper threads.
 *  - The team (the outermost call's thread budget, threads - 1 helpers)
 *    is shared by every nested job: a helper takes one unit with a CAS
 *    before it starts and gives it back when its job has no task left. So
 *    at most `threads` threads synthesize at once, and an owner that looks
 *    for helpers before each of its tasks picks up the threads that other
 *    jobs freed: the last challenges' labels spread over the cores that
 *    finished theirs.
 * Threads are started per job, as parallel_for does: a task is at least
 * one SDR label (~0.5 M constraints), so start-up cost is noise. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs_internal.h"
#include "cuzk/parallel.h"

/* Gadgets keep bit vectors on the stack (a label's 37 x 256 parent bits). */
#define CS_PAR_STACK ((size_t)16 << 20)

struct cs_team {
    int idle; /* helpers that may still start (atomic) */
};

typedef struct task_result {
    uint64_t constraints, aux, inputs;
    uint64_t a_aux, b_input, b_aux; /* density bits the task set first */
    cuzk_error_t err;
} task_result_t;

typedef struct job {
    cs_t *parent;
    size_t n;
    const uint64_t *aux, *inputs;
    uint64_t *aux0, *in0; /* each task's first aux variable and input */
    cs_task_fn fn;
    void *ctx;
    struct cs_team *team;
    size_t next; /* the next unclaimed task (atomic) */
    task_result_t *res;
    pthread_t *tids; /* owner only */
    size_t n_tids;
    pthread_attr_t attr;
} job_t;

void cs_set_threads(cs_t *cs, int threads)
{
    cs->threads = threads;
}

/* ---- inline ------------------------------------------------------------- */

static void check_counts(cs_t *cs, size_t i, uint64_t aux, uint64_t inputs, uint64_t want_aux,
                         uint64_t want_inputs)
{
    if (aux != want_aux || inputs != want_inputs)
        cs_fail(cs, CUZK_ERR_INTERNAL,
                "cs_parallel: task %zu allocated %llu aux and %llu inputs, declared %llu and %llu",
                i, (unsigned long long)aux, (unsigned long long)inputs,
                (unsigned long long)want_aux, (unsigned long long)want_inputs);
}

static void run_inline(cs_t *cs, size_t n, const uint64_t *aux, const uint64_t *inputs,
                       cs_task_fn fn, void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t a0 = cs->n_aux, i0 = cs->n_inputs;
        fn(cs, i, ctx);
        check_counts(cs, i, cs->n_aux - a0, cs->n_inputs - i0, aux[i], inputs[i]);
    }
}

/* ---- children ----------------------------------------------------------- */

/* The parent's bitmap; the child owns the words wholly inside [lo, hi). */
static void child_density(cs_density_t *c, const cs_density_t *p, uint64_t lo, uint64_t hi)
{
    uint64_t w0 = (lo + 63) / 64, w1 = hi / 64;
    *c = (cs_density_t){p->words, p->n_words, 0, (size_t)w0, w1 > w0 ? (size_t)(w1 - w0) : 0};
}

static void child_init(cs_t *c, const job_t *job, size_t i)
{
    const cs_t *p = job->parent;
    c->mode = CS_WITNESS;
    c->values = 1;
    c->err.code = CUZK_OK;
    c->task.child = 1;
    c->task.index = i;
    c->task.aux0 = c->n_aux = job->aux0[i];
    c->task.in0 = c->n_inputs = job->in0[i];
    c->aux_val = p->aux_val;
    c->aux_cap = job->aux0[i] + job->aux[i];
    c->in_val = p->in_val;
    c->in_cap = job->in0[i] + job->inputs[i];
    child_density(&c->a_aux, &p->a_aux, c->task.aux0, c->aux_cap);
    child_density(&c->b_aux, &p->b_aux, c->task.aux0, c->aux_cap);
    child_density(&c->b_input, &p->b_input, c->task.in0, c->in_cap);
    c->vbits = p->vbits;
    c->vbit0 = p->vbit0;
    if (c->vbits) { /* the packed bitmaps, in their own index space */
        child_density(&c->vnz, &p->vnz, c->vbit0 + c->task.aux0, c->vbit0 + c->aux_cap);
        child_density(&c->vfull, &p->vfull, c->vbit0 + c->task.aux0, c->vbit0 + c->aux_cap);
    }
    memcpy(c->pow2, p->pow2, sizeof c->pow2);
    memcpy(c->neg_pow2, p->neg_pow2, sizeof c->neg_pow2);
    c->minus_one = p->minus_one;
    memcpy(c->ns, p->ns, sizeof c->ns);
    c->ns_depth = p->ns_depth;
    c->threads = p->threads;
    c->team = job->team;
}

static void run_task(job_t *job, size_t i)
{
    task_result_t *r = &job->res[i];
    cs_t *c = calloc(1, sizeof *c);
    if (!c) { /* the sizes as declared, so the parent's numbering holds */
        r->aux = job->aux[i];
        r->inputs = job->inputs[i];
        cuzk_error_set(&r->err, CUZK_ERR_NOMEM, "cs_parallel: out of memory for task %zu", i);
        return;
    }
    child_init(c, job, i);
    job->fn(c, i, job->ctx);
    r->constraints = c->n_constraints;
    r->aux = c->n_aux - job->aux0[i];
    r->inputs = c->n_inputs - job->in0[i];
    r->a_aux = c->a_aux.total;
    r->b_input = c->b_input.total;
    r->b_aux = c->b_aux.total;
    r->err = c->err;
    cs_free(c);
}

/* ---- threads ------------------------------------------------------------ */

static void work(job_t *job)
{
    for (;;) {
        size_t i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (i >= job->n)
            return;
        run_task(job, i);
    }
}

static void *helper_main(void *arg)
{
    job_t *job = arg;
    work(job);
    __atomic_fetch_add(&job->team->idle, 1, __ATOMIC_RELAXED);
    return NULL;
}

static int team_take(struct cs_team *team)
{
    int v = __atomic_load_n(&team->idle, __ATOMIC_RELAXED);
    while (v > 0)
        if (__atomic_compare_exchange_n(&team->idle, &v, v - 1, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            return 1;
    return 0;
}

/* Starts helpers for the tasks nobody has claimed, less the one the owner
 * takes next, while the team has threads to spare. */
static void recruit(job_t *job)
{
    size_t next = __atomic_load_n(&job->next, __ATOMIC_RELAXED);
    size_t left = next < job->n ? job->n - next : 0;
    while (left > 1 && job->n_tids < job->n && team_take(job->team)) {
        if (pthread_create(&job->tids[job->n_tids], &job->attr, helper_main, job) != 0) {
            __atomic_fetch_add(&job->team->idle, 1, __ATOMIC_RELAXED);
            return; /* the owner runs the tasks itself */
        }
        job->n_tids++;
        left--;
    }
}

/* ---- fork / join -------------------------------------------------------- */

/* The job's offsets and buffers; 0 when the parallel path cannot be taken
 * (the inline one then runs, and reports what went wrong). */
static int job_init(job_t *job, cs_t *cs, size_t n, const uint64_t *aux, const uint64_t *inputs)
{
    uint64_t a = cs->n_aux, in = cs->n_inputs;
    for (size_t i = 0; i < n; i++) {
        a += aux[i];
        in += inputs[i];
        if (aux[i] > CS_VAR_INDEX_MAX || inputs[i] > CS_VAR_INDEX_MAX || a > CS_VAR_INDEX_MAX ||
            in > CS_VAR_INDEX_MAX)
            return 0; /* cs_alloc reports it inline */
    }
    /* Nested tasks that declare more than their task's slice: inline, the
     * one whose size is off is named (as in a count run). */
    if (cs->task.child && (a > cs->aux_cap || in > cs->in_cap))
        return 0;
    if (cs_reserve(cs, a, in) != CUZK_OK)
        return 0;
    job->aux0 = malloc(n * sizeof *job->aux0);
    job->in0 = malloc(n * sizeof *job->in0);
    job->res = calloc(n, sizeof *job->res);
    job->tids = malloc(n * sizeof *job->tids);
    if (!job->aux0 || !job->in0 || !job->res || !job->tids)
        return 0;
    a = cs->n_aux;
    in = cs->n_inputs;
    for (size_t i = 0; i < n; i++) {
        job->aux0[i] = a;
        job->in0[i] = in;
        a += aux[i];
        in += inputs[i];
    }
    if (pthread_attr_init(&job->attr) != 0)
        return 0;
    size_t stack = 0;
    if (pthread_attr_getstacksize(&job->attr, &stack) == 0 && stack < CS_PAR_STACK)
        pthread_attr_setstacksize(&job->attr, CS_PAR_STACK);
    return 1;
}

static void job_free(job_t *job, int attr)
{
    if (attr)
        pthread_attr_destroy(&job->attr);
    free(job->aux0);
    free(job->in0);
    free(job->res);
    free(job->tids);
}

/* Adds the results to the parent in task order: the first error wins. */
static void join(cs_t *cs, const job_t *job)
{
    for (size_t i = 0; i < job->n; i++) {
        const task_result_t *r = &job->res[i];
        cs->n_constraints += r->constraints;
        cs->n_aux += r->aux;
        cs->n_inputs += r->inputs;
        cs->a_aux.total += r->a_aux;
        cs->b_input.total += r->b_input;
        cs->b_aux.total += r->b_aux;
        if (r->err.code != CUZK_OK && cs->err.code == CUZK_OK)
            cs->err = r->err;
        check_counts(cs, i, r->aux, r->inputs, job->aux[i], job->inputs[i]);
    }
}

static int parallel_wanted(const cs_t *cs)
{
    return cs->mode == CS_WITNESS && (cs->team || parallel_threads(cs->threads) > 1) &&
           cs->err.code == CUZK_OK && !cs->hash_update && !cs->fault_set;
}

void cs_parallel(cs_t *cs, size_t n, const uint64_t *aux, const uint64_t *inputs, cs_task_fn fn,
                 void *ctx)
{
    if (!fn || (n > 0 && (!aux || !inputs))) {
        cs_fail(cs, CUZK_ERR_ARG, "cs_parallel: NULL %s", !fn ? "fn" : !aux ? "aux" : "inputs");
        return;
    }
    if (n == 0)
        return;
    if (!parallel_wanted(cs)) {
        run_inline(cs, n, aux, inputs, fn, ctx);
        return;
    }
    job_t job;
    memset(&job, 0, sizeof job);
    if (!job_init(&job, cs, n, aux, inputs)) { /* inline still counts, and reports */
        job_free(&job, 0);
        run_inline(cs, n, aux, inputs, fn, ctx);
        return;
    }
    struct cs_team team = {parallel_threads(cs->threads) - 1};
    job.parent = cs;
    job.n = n;
    job.aux = aux;
    job.inputs = inputs;
    job.fn = fn;
    job.ctx = ctx;
    job.team = cs->team ? cs->team : &team;
    for (;;) {
        recruit(&job);
        size_t i = __atomic_fetch_add(&job.next, 1, __ATOMIC_RELAXED);
        if (i >= n)
            break;
        run_task(&job, i);
    }
    for (size_t t = 0; t < job.n_tids; t++)
        pthread_join(job.tids[t], NULL);
    join(cs, &job);
    job_free(&job, 1);
}
