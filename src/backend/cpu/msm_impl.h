/* The CPU MSM, written once for G1 and G2 (see include/cuzk/msm.h and
 * msm_internal.h). The including file defines the ec_impl.h macros (EC,
 * EC_AFF, EC_JAC, F_T, F_xxx), XYZZ / XYZZ_T for the bucket type, and
 *   MSM(suffix)     the public names: MSM(), MSM(_pippenger), MSM(_bases_get)
 *   MSM_NFP         fp_t coordinates per affine point (2 or 4)
 *   zcash_perm[]    (a static array) for each of them, its index in the
 *                   zcash encoding
 *   MSM_GLV_BASE    optional: MSM_GLV_BASE(out, p) sets out = -phi(p), the
 *                   GLV partner of p (msm_internal.h); with it the
 *                   Pippenger takes each scalar as two 128-bit halves
 *
 * Threading: a run cuts the scalars into contiguous ranges (balanced on
 * the scalars they will take; one range unless more threads than windows
 * pay off) and gives each thread a run of consecutive (range, window) units
 * (msm_plan_t). For each window set of its run a thread makes one pass over
 * the range's bases, decoding them MSM_CHUNK at a time, adds them into its
 * own buckets for every window of the set, then reduces those buckets to
 * one partial sum per (range, window). The partial sums are added in range
 * order, so the result is the same point for any thread count (not the same
 * coordinates). Scratch: threads x set x 2^(c-1) buckets plus MSM_CHUNK
 * decoded points and canonical scalars per thread; the bases are never
 * copied. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "util/bigmem.h"

#define BASE_BYTES sizeof(EC_AFF)
_Static_assert(sizeof(EC_AFF) == MSM_NFP * FP_BYTES, "affine points are packed fp_t");
_Static_assert(sizeof(fp_t) == FP_BYTES, "fp_t is its LEM bytes");

static void decode_one(EC_AFF *out, const uint8_t *p, msm_base_format fmt)
{
    /* AFFINE and LEM records are the fp_t limbs themselves (little-endian
     * Montgomery), possibly unaligned. */
    if (fmt != MSM_BASES_ZCASH) {
        memcpy(out, p, sizeof *out);
        return;
    }
    if (p[0] & 0x40) {
        EC(affine_set_inf)(out);
        return;
    }
    uint8_t first[FP_BYTES];
    memcpy(first, p, FP_BYTES);
    first[0] &= 0x1f; /* compression, infinity and sign flags */
    fp_t c[MSM_NFP];
    for (unsigned i = 0; i < MSM_NFP; i++) {
        unsigned z = zcash_perm[i];
        /* Unchecked: a non-canonical coordinate decodes to zero. */
        if (fp_from_be(&c[i], z ? p + z * FP_BYTES : first) != CUZK_OK)
            c[i] = FP_ZERO_ELEM;
    }
    memcpy(out, c, sizeof *out);
}

void MSM(_bases_get)(EC_AFF *out, const msm_bases_t *b, size_t start, size_t count)
{
    if (count == 0)
        return;
    const uint8_t *p = (const uint8_t *)b->data + start * BASE_BYTES;
    for (size_t i = 0; i < count; i++)
        decode_one(&out[i], p + i * BASE_BYTES, b->fmt);
}

/* ---- Pippenger ---- */

#ifdef MSM_GLV_BASE
#define PIP_FORM MSM_FORM_GLV
#define PIP_PER_SCALAR 2
#else
#define PIP_FORM MSM_FORM_FULL
#define PIP_PER_SCALAR 1
#endif

/* The digits' scalars for base pts[0] and scalar sc into k, the GLV
 * partner into pts[1] when it is needed; returns the points taken. */
static inline size_t pip_take(EC_AFF *pts, uint64_t (*k)[FR_LIMBS], const fr_t *sc)
{
#ifdef MSM_GLV_BASE
    uint64_t full[FR_LIMBS];
    fr_to_limbs(full, sc);
    msm_glv_split(k[0], k[1], full);
    if (!k[1][0] && !k[1][1])
        return 1; /* k < z: no partner */
    MSM_GLV_BASE(&pts[1], &pts[0]);
    return 2;
#else
    (void)pts;
    fr_to_limbs(k[0], sc);
    return 1;
#endif
}

/* Buckets are affine and take points in batches (Montgomery's trick): a
 * batch of up to MSM_BATCH additions bucket += P shares one inversion of
 * the product of their denominators, so an addition costs 6M (3M for the
 * shared inverse, 1M slope, 1S x3, 1M y3) + I / MSM_BATCH, against the
 * XYZZ mixed addition's 8M + 2S. (Prediction before measuring, with
 * I ~ 600M: accumulation ~1.5x faster; the bucket reduction unchanged.)
 * A point whose bucket already waits in the batch (a collision) goes into
 * that bucket's XYZZ twin instead, so a batch never holds one bucket twice
 * and repeated digits degrade to the XYZZ cost, not to tiny batches. An
 * empty bucket just takes the point. A batch spans the windows of a pass,
 * so it fills without raising the collision rate of any one window. */
#define MSM_BATCH 1024
/* Scratch per bucket; the XYZZ twins are written only on collisions, but
 * are counted in full. */
#define PIP_BUCKET_BYTES (sizeof(EC_AFF) + sizeof(XYZZ_T) + 1)

/* Bucket state bits. */
#define BK_AFF 1  /* the affine bucket holds a point (never infinity) */
#define BK_BUSY 2 /* the affine bucket waits in the batch */
#define BK_XYZZ 4 /* the XYZZ twin is in use */

/* Kinds of a batch entry, found when the batch is flushed. */
enum { PIP_ADD, PIP_DBL, PIP_INF };

typedef struct pip_entry {
    EC_AFF p;   /* the point to add, sign applied */
    F_T acc;    /* product of the denominators of the entries up to this one */
    uint32_t b; /* bucket index */
    uint32_t kind;
} pip_entry_t;

/* One thread's buckets for the windows of a pass (set x plan->buckets). */
typedef struct pip_buckets {
    EC_AFF *aff;
    XYZZ_T *xyzz;
    uint8_t *state;
    pip_entry_t *batch; /* MSM_BATCH */
    size_t n;           /* entries in the batch */
} pip_buckets_t;

typedef struct pip_job {
    const msm_plan_t *plan;
    const uint8_t *bases;
    msm_base_format fmt;
    const fr_t *scalars;
    EC_AFF *aff;             /* per thread: set x plan->buckets */
    XYZZ_T *xyzz;            /* per thread: set x plan->buckets */
    uint8_t *state;          /* per thread: set x plan->buckets */
    pip_entry_t *batch;      /* per thread: MSM_BATCH */
    EC_AFF *pts;             /* per thread: MSM_CHUNK */
    uint64_t (*k)[FR_LIMBS]; /* per thread: MSM_CHUNK */
    XYZZ_T *partial;         /* [range][window] */
} pip_job_t;

/* The denominator of bucket + p (x_p - x_b, or 2y for a doubling); sets
 * the entry's kind. 0 only for PIP_INF. */
static inline void pip_den(F_T *den, pip_entry_t *e, const EC_AFF *bk)
{
    F_sub(den, &e->p.x, &bk->x);
    if (!F_is_zero(den)) {
        e->kind = PIP_ADD;
        return;
    }
    F_sub(den, &e->p.y, &bk->y);
    if (F_is_zero(den)) {
        /* P + P; y = 0 (order 2: not on these curves) gives infinity. */
        F_dbl(den, &e->p.y);
        e->kind = F_is_zero(den) ? PIP_INF : PIP_DBL;
    } else {
        e->kind = PIP_INF; /* P + (-P) */
    }
}

/* Adds every batch entry into its bucket with one inversion: prefix
 * products of the denominators forward, then their inverses backward. */
static void pip_flush(pip_buckets_t *s)
{
    const F_T *run = &F_ONE; /* the product so far, in the last entry's acc */
    F_T den, inv, lam, t;
    for (size_t i = 0; i < s->n; i++) {
        pip_entry_t *e = &s->batch[i];
        pip_den(&den, e, &s->aff[e->b]);
        if (e->kind != PIP_INF) {
            F_mul(&e->acc, run, &den);
            run = &e->acc;
        } else {
            e->acc = *run;
        }
    }
    F_inv(&inv, run);
    for (size_t i = s->n; i-- > 0;) {
        pip_entry_t *e = &s->batch[i];
        EC_AFF *bk = &s->aff[e->b];
        uint8_t *st = &s->state[e->b];
        *st &= (uint8_t)~BK_BUSY;
        if (e->kind == PIP_INF) {
            *st &= (uint8_t)~BK_AFF;
            continue;
        }
        /* inv = 1 / acc_i: 1 / den_i = inv acc_(i-1), then drop den_i. */
        if (i > 0)
            F_mul(&t, &inv, &s->batch[i - 1].acc);
        else
            t = inv;
        if (e->kind == PIP_ADD) {
            F_sub(&den, &e->p.x, &bk->x);
            F_mul(&inv, &inv, &den);
            F_sub(&lam, &e->p.y, &bk->y);
        } else {
            F_dbl(&den, &e->p.y);
            F_mul(&inv, &inv, &den);
            F_sqr(&lam, &e->p.x); /* 3 x^2 (a = 0) */
            F_dbl(&den, &lam);
            F_add(&lam, &lam, &den);
        }
        F_mul(&lam, &lam, &t);
        /* x3 = lam^2 - x1 - x2, y3 = lam (x1 - x3) - y1 */
        F_sqr(&t, &lam);
        F_sub(&t, &t, &bk->x);
        F_sub(&t, &t, &e->p.x);
        F_sub(&den, &bk->x, &t);
        F_mul(&den, &den, &lam);
        F_sub(&bk->y, &den, &bk->y);
        bk->x = t;
    }
    s->n = 0;
}

static inline void prefetch_aff(const EC_AFF *b)
{
    for (size_t off = 0; off < sizeof *b; off += 64)
        __builtin_prefetch((const char *)b + off, 1, 3);
    __builtin_prefetch((const char *)b + sizeof *b - 1, 1, 3);
}

/* out = p, or -p when neg, written where it goes (a negated copy made
 * first and then copied costs a call and a store-forward stall). */
static inline void pip_point(EC_AFF *out, const EC_AFF *p, int neg)
{
    out->x = p->x;
    if (neg)
        F_neg(&out->y, &p->y);
    else
        out->y = p->y;
}

/* bucket b += p, or -p when neg (p not infinity). */
static inline void pip_add(pip_buckets_t *s, uint32_t b, const EC_AFF *p, int neg)
{
    uint8_t st = s->state[b];
    if (st & BK_BUSY) {
        if (!(st & BK_XYZZ)) {
            XYZZ(set_inf)(&s->xyzz[b]);
            s->state[b] = st | BK_XYZZ;
        }
        EC_AFF q;
        pip_point(&q, p, neg);
        XYZZ(add_affine)(&s->xyzz[b], &s->xyzz[b], &q);
    } else if (!(st & BK_AFF)) {
        pip_point(&s->aff[b], p, neg);
        s->state[b] = st | BK_AFF;
    } else {
        pip_entry_t *e = &s->batch[s->n++];
        prefetch_aff(&s->aff[b]);
        pip_point(&e->p, p, neg);
        e->b = b;
        s->state[b] = st | BK_BUSY;
        if (s->n == MSM_BATCH)
            pip_flush(s);
    }
}

/* Adds the m points into the buckets from `base` on of window w, negated
 * for negative digits. */
static void pip_accumulate(pip_buckets_t *s, uint32_t base, const EC_AFF *pts,
                           const uint64_t (*k)[FR_LIMBS], size_t m, unsigned c, unsigned w)
{
    for (size_t i = 0; i < m; i++) {
        int32_t d = msm_digit(k[i], c, w);
        if (d > 0)
            pip_add(s, base + (uint32_t)d - 1, &pts[i], 0);
        else if (d < 0)
            pip_add(s, base + (uint32_t)-d - 1, &pts[i], 1);
    }
}

/* out = sum_b (b + 1) bucket_b by running sums, high bucket first: 2(nb)
 * additions instead of a multiplication per bucket (one more per bucket
 * whose XYZZ twin was used). */
static void pip_reduce(XYZZ_T *out, const pip_buckets_t *s, uint32_t base, unsigned nb)
{
    XYZZ_T run, sum;
    XYZZ(set_inf)(&run);
    XYZZ(set_inf)(&sum);
    for (uint32_t b = base + nb; b-- > base;) {
        uint8_t st = s->state[b];
        if (st & BK_AFF)
            XYZZ(add_affine)(&run, &run, &s->aff[b]);
        if (st & BK_XYZZ)
            XYZZ(add)(&run, &run, &s->xyzz[b]);
        XYZZ(add)(&sum, &sum, &run);
    }
    *out = sum;
}

/* One pass: the bases of range `part` into thread t's buckets for windows
 * [w0, w1), then their partial sums. */
static void pip_pass(pip_job_t *j, size_t t, unsigned part, unsigned w0, unsigned w1)
{
    const msm_plan_t *pl = j->plan;
    size_t nb = pl->buckets;
    unsigned nw = w1 - w0;
    pip_buckets_t s = {
        .aff = j->aff + t * pl->set * nb,
        .xyzz = j->xyzz + t * pl->set * nb,
        .state = j->state + t * pl->set * nb,
        .batch = j->batch + t * MSM_BATCH,
        .n = 0,
    };
    EC_AFF *pts = j->pts + t * MSM_CHUNK;
    uint64_t(*k)[FR_LIMBS] = j->k + t * MSM_CHUNK;
    memset(s.state, 0, nw * nb);
    for (size_t pos = pl->bounds[part], end = pl->bounds[part + 1]; pos < end;) {
        size_t m = 0;
        for (; pos < end && m + PIP_PER_SCALAR <= MSM_CHUNK; pos++) {
            const fr_t *sc = &j->scalars[pos];
            if (fr_is_zero(sc) || (pl->select == MSM_SELECT_OTHER && fr_is_one(sc)))
                continue;
            decode_one(&pts[m], j->bases + pos * BASE_BYTES, j->fmt);
            if (EC(affine_is_inf)(&pts[m]))
                continue;
            m += pip_take(&pts[m], &k[m], sc);
        }
        for (unsigned w = 0; w < nw; w++)
            pip_accumulate(&s, (uint32_t)(w * nb), pts, (const uint64_t(*)[FR_LIMBS])k, m, pl->c,
                           w0 + w);
    }
    pip_flush(&s);
    for (unsigned w = 0; w < nw; w++) {
        unsigned win = w0 + w;
        pip_reduce(&j->partial[(size_t)part * pl->windows + win], &s, (uint32_t)(w * nb),
                   win == pl->windows - 1 ? pl->top_buckets : pl->buckets);
    }
}

/* Thread t's units (see msm_plan_t): each range's windows among them in
 * as few passes as the window set allows, spread evenly over the passes. */
static void pip_thread(pip_job_t *j, size_t t)
{
    const msm_plan_t *pl = j->plan;
    size_t u = pl->units * t / (size_t)pl->threads;
    size_t end = pl->units * (t + 1) / (size_t)pl->threads;
    while (u < end) {
        unsigned part = (unsigned)(u / pl->windows), w0 = (unsigned)(u % pl->windows);
        unsigned w1 = end - u < pl->windows - w0 ? w0 + (unsigned)(end - u) : pl->windows;
        unsigned passes = (w1 - w0 + pl->set - 1) / pl->set;
        for (unsigned i = 0; i < passes; i++)
            pip_pass(j, t, part, w0 + (w1 - w0) * i / passes, w0 + (w1 - w0) * (i + 1) / passes);
        u += w1 - w0;
    }
}

static void pip_range(void *ctx, size_t t0, size_t t1)
{
    for (size_t t = t0; t < t1; t++)
        pip_thread(ctx, t);
}

static void pip_combine(EC_JAC *out, const msm_plan_t *pl, const XYZZ_T *partial)
{
    /* Horner over the windows, top first: acc = 2^c acc + S_w. */
    EC_JAC acc, s;
    EC(jac_set_inf)(&acc);
    for (unsigned w = pl->windows; w-- > 0;) {
        for (unsigned i = 0; i < pl->c && !EC(jac_is_inf)(&acc); i++)
            EC(dbl)(&acc, &acc);
        XYZZ_T sum;
        XYZZ(set_inf)(&sum);
        for (unsigned p = 0; p < pl->parts; p++)
            XYZZ(add)(&sum, &sum, &partial[(size_t)p * pl->windows + w]);
        XYZZ(to_jac)(&s, &sum);
        EC(add)(&acc, &acc, &s);
    }
    *out = acc;
}

/* Pippenger over the scalars that `select` takes among [0, n); count of
 * them, spread over threads by block_weight (see msm_plan_new). */
static cuzk_status pippenger(EC_JAC *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                             size_t count, const uint32_t *block_weight, int threads,
                             msm_select select, unsigned c)
{
    msm_plan_t *pl =
        msm_plan_new(n, count, block_weight, threads, c, PIP_BUCKET_BYTES, select, PIP_FORM);
    if (!pl)
        return CUZK_ERR_NOMEM;
    size_t t = (size_t)pl->threads, nb = t * pl->set * pl->buckets;
    pip_job_t job = {
        .plan = pl,
        .bases = bases->data,
        .fmt = bases->fmt,
        .scalars = scalars,
        .aff = bigmem_alloc(nb * sizeof(EC_AFF)),
        .xyzz = bigmem_alloc(nb * sizeof(XYZZ_T)),
        .state = bigmem_alloc(nb),
        .batch = malloc(t * MSM_BATCH * sizeof(pip_entry_t)),
        .pts = malloc(t * MSM_CHUNK * sizeof(EC_AFF)),
        .k = malloc(t * MSM_CHUNK * sizeof *job.k),
        .partial = malloc((size_t)pl->units * sizeof(XYZZ_T)),
    };
    cuzk_status st = CUZK_ERR_NOMEM;
    if (job.aff && job.xyzz && job.state && job.batch && job.pts && job.k && job.partial) {
        st = parallel_for(t, 1, pl->threads, pip_range, &job);
        if (st == CUZK_OK)
            pip_combine(out, pl, job.partial);
    }
    bigmem_free(job.aff, nb * sizeof(EC_AFF));
    bigmem_free(job.xyzz, nb * sizeof(XYZZ_T));
    bigmem_free(job.state, nb);
    free(job.batch);
    free(job.pts);
    free(job.k);
    free(job.partial);
    free(pl);
    return st;
}

/* ---- Scalars equal to one: plain additions ---- */

typedef struct ones_job {
    const uint8_t *bases;
    msm_base_format fmt;
    const fr_t *scalars;
    const size_t *bounds;
    XYZZ_T *partial;
} ones_job_t;

static void ones_range(void *ctx, size_t t0, size_t t1)
{
    ones_job_t *j = ctx;
    for (size_t t = t0; t < t1; t++) {
        XYZZ_T acc;
        XYZZ(set_inf)(&acc);
        for (size_t i = j->bounds[t]; i < j->bounds[t + 1]; i++) {
            if (!fr_is_one(&j->scalars[i]))
                continue;
            EC_AFF p;
            decode_one(&p, j->bases + i * BASE_BYTES, j->fmt);
            if (!EC(affine_is_inf)(&p))
                XYZZ(add_affine)(&acc, &acc, &p);
        }
        j->partial[t] = acc;
    }
}

static cuzk_status ones_sum(EC_JAC *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                            size_t count, const uint32_t *block_weight, int threads)
{
    size_t t = (size_t)parallel_threads(threads);
    if (t > count / MSM_MIN_PER_THREAD)
        t = count / MSM_MIN_PER_THREAD ? count / MSM_MIN_PER_THREAD : 1;
    size_t *bounds = malloc((t + 1) * sizeof *bounds);
    XYZZ_T *partial = malloc(t * sizeof *partial);
    cuzk_status st = CUZK_ERR_NOMEM;
    if (bounds && partial) {
        msm_split(bounds, (int)t, block_weight, n);
        ones_job_t job = {bases->data, bases->fmt, scalars, bounds, partial};
        st = parallel_for(t, 1, (int)t, ones_range, &job);
    }
    if (st == CUZK_OK) {
        XYZZ_T sum;
        XYZZ(set_inf)(&sum);
        for (size_t i = 0; i < t; i++)
            XYZZ(add)(&sum, &sum, &partial[i]);
        XYZZ(to_jac)(out, &sum);
    }
    free(bounds);
    free(partial);
    return st;
}

/* ---- Entry points ---- */

static cuzk_status check_args(EC_JAC *out, const msm_bases_t *bases, const fr_t *scalars, size_t n)
{
    if (!out)
        return CUZK_ERR_ARG;
    EC(jac_set_inf)(out);
    if (n == 0)
        return CUZK_OK;
    if (!bases || !bases->data || !scalars)
        return CUZK_ERR_ARG;
    if (bases->fmt != MSM_BASES_AFFINE && bases->fmt != MSM_BASES_LEM &&
        bases->fmt != MSM_BASES_ZCASH)
        return CUZK_ERR_ARG;
    if (n > SIZE_MAX / BASE_BYTES)
        return CUZK_ERR_ARG;
    return CUZK_OK;
}

cuzk_status MSM(_pippenger)(EC_JAC *out, const msm_bases_t *bases, const fr_t *scalars, size_t n,
                            int threads)
{
    cuzk_status st = check_args(out, bases, scalars, n);
    if (st != CUZK_OK || n == 0)
        return st;
    return pippenger(out, bases, scalars, n, n, NULL, threads, MSM_SELECT_ALL, 0);
}

cuzk_status MSM(_pippenger_window)(EC_JAC *out, const msm_bases_t *bases, const fr_t *scalars,
                                   size_t n, int threads, unsigned c)
{
    cuzk_status st = check_args(out, bases, scalars, n);
    if (st != CUZK_OK || n == 0)
        return st;
    if (c < 1 || c > MSM_C_MAX)
        return CUZK_ERR_ARG;
    return pippenger(out, bases, scalars, n, n, NULL, threads, MSM_SELECT_ALL, c);
}

cuzk_status MSM()(EC_JAC *out, const msm_bases_t *bases, const fr_t *scalars, size_t n, int threads)
{
    cuzk_status st = check_args(out, bases, scalars, n);
    if (st != CUZK_OK || n == 0)
        return st;
    size_t blocks = (n + MSM_BLOCK - 1) / MSM_BLOCK, n_ones, n_others;
    uint32_t *ones = malloc(blocks * sizeof *ones);
    uint32_t *others = malloc(blocks * sizeof *others);
    EC_JAC a, b;
    EC(jac_set_inf)(&a);
    EC(jac_set_inf)(&b);
    st = CUZK_ERR_NOMEM;
    if (ones && others)
        st = msm_classify(ones, others, &n_ones, &n_others, scalars, n, threads);
    if (st == CUZK_OK && n_ones)
        st = ones_sum(&a, bases, scalars, n, n_ones, ones, threads);
    if (st == CUZK_OK && n_others)
        st = pippenger(&b, bases, scalars, n, n_others, others, threads, MSM_SELECT_OTHER, 0);
    if (st == CUZK_OK)
        EC(add)(out, &a, &b);
    free(ones);
    free(others);
    return st;
}
