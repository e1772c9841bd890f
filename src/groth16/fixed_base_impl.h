/* Fixed-base scalar multiplication of a group generator, written once for
 * G1 and G2 (the pattern of src/curve/ec_impl.h). The including file defines:
 *   FB(name)          the name of each definition, e.g. setup_g1_##name
 *   FB_EC(name)       the curve's functions, e.g. g1_##name (g1.h / g2.h)
 *   FB_AFF, FB_JAC    its affine and Jacobian point types
 *   FB_GEN            a pointer to its generator (affine)
 *   FB_FIELD(name)    the coordinate field's functions, e.g. fp_##name
 *   FB_F, FB_F_ONE    the coordinate field type and its one
 *
 * Method: unsigned w-bit windows of the scalar with one table per window,
 * T[k][d] = d 2^(wk) G for 1 <= d < 2^w, so [s] G = sum_k T[k][s_k] costs
 * ceil(255 / w) additions and no doublings. The sums of a chunk of scalars
 * advance together, window by window, in affine coordinates with one shared
 * inversion per window (affine batch addition, 5M + 1S per addition). w is
 * chosen for the batch size n to minimise ceil(255 / w) (n + 3 * 2^w), a
 * table entry costing about three additions (a Jacobian chain step plus its
 * share of the affine conversion), and
 * w <= 14 so a table stays within 30 MiB (G1) / 60 MiB (G2): beyond that
 * each lookup is a DRAM miss and the saved additions are not worth it. */
#include <stdlib.h>

#include "cuzk/parallel.h"

#define FB_SCALAR_BITS 255 /* r < 2^255 */
#define FB_MAX_WINDOW 14
#define FB_CHUNK 512

typedef struct FB(table) {
    unsigned w, n_win;
    size_t per_win; /* 2^w - 1 entries, d = 1 .. 2^w - 1 */
    FB_AFF *pts;    /* pts[k * per_win + d - 1] */
} FB(table_t);

static unsigned FB(choose_window)(size_t n)
{
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned w = 1; w <= FB_MAX_WINDOW; w++) {
        unsigned n_win = (FB_SCALAR_BITS + w - 1) / w;
        double cost = (double)n_win * ((double)n + 3.0 * (double)((size_t)1 << w));
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

typedef struct FB(build_ctx) {
    FB(table_t) * t;
    const FB_AFF *win_base; /* 2^(wk) G for each window */
    size_t chunk;           /* table entries per work item */
    size_t items_per_win;
    int failed;
} FB(build_ctx_t);

/* Work item i fills entries [lo, hi) of window i / items_per_win: the first
 * by a scalar multiplication, the rest by adding the window base. */
static void FB(build_range)(void *vctx, size_t begin, size_t end)
{
    FB(build_ctx_t) *x = vctx;
    FB(table_t) *t = x->t;
    FB_JAC *jac = malloc(x->chunk * sizeof *jac);
    if (!jac) {
        __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (size_t item = begin; item < end; item++) {
        size_t k = item / x->items_per_win;
        size_t lo = (item % x->items_per_win) * x->chunk; /* d - 1 of the first entry */
        size_t hi = lo + x->chunk < t->per_win ? lo + x->chunk : t->per_win;
        const FB_AFF *base = &x->win_base[k];
        FB_JAC b;
        uint64_t d = lo + 1;
        FB_EC(from_affine)(&b, base);
        FB_EC(mul_var)(&jac[0], &b, &d, 1);
        for (size_t e = lo + 1; e < hi; e++)
            FB_EC(add_mixed)(&jac[e - lo], &jac[e - lo - 1], base);
        if (FB_EC(batch_to_affine)(&t->pts[k * t->per_win + lo], jac, hi - lo) != CUZK_OK)
            __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
    }
    free(jac);
}

static void FB(table_free)(FB(table_t) * t)
{
    free(t->pts);
    t->pts = NULL;
}

static cuzk_status FB(table_build)(FB(table_t) * t, unsigned w, int threads)
{
    t->w = w;
    t->n_win = (FB_SCALAR_BITS + w - 1) / w;
    t->per_win = ((size_t)1 << w) - 1;
    t->pts = malloc((size_t)t->n_win * t->per_win * sizeof *t->pts);
    FB_AFF *win_base = malloc(t->n_win * sizeof *win_base);
    FB_JAC *jb = malloc(t->n_win * sizeof *jb);
    cuzk_status st = CUZK_ERR_NOMEM;
    if (!t->pts || !win_base || !jb)
        goto out;
    FB_EC(from_affine)(&jb[0], FB_GEN);
    for (unsigned k = 1; k < t->n_win; k++) {
        jb[k] = jb[k - 1];
        for (unsigned i = 0; i < w; i++)
            FB_EC(dbl)(&jb[k], &jb[k]);
    }
    if ((st = FB_EC(batch_to_affine)(win_base, jb, t->n_win)) != CUZK_OK)
        goto out;
    FB(build_ctx_t) x = {t, win_base, 1024, 0, 0};
    if (x.chunk > t->per_win)
        x.chunk = t->per_win;
    x.items_per_win = (t->per_win + x.chunk - 1) / x.chunk;
    st = parallel_for(t->n_win * x.items_per_win, 1, threads, FB(build_range), &x);
    if (st == CUZK_OK && x.failed)
        st = CUZK_ERR_NOMEM;
out:
    free(win_base);
    free(jb);
    if (st != CUZK_OK)
        FB(table_free)(t);
    return st;
}

/* The w-bit digit `win` of the scalar limbs l (it may straddle two limbs). */
static unsigned FB(digit)(const uint64_t *l, unsigned win, unsigned w)
{
    unsigned bit = win * w;
    uint64_t d = l[bit / 64] >> (bit % 64);
    if (bit % 64 + w > 64 && bit / 64 + 1 < FR_LIMBS)
        d |= l[bit / 64 + 1] << (64 - bit % 64);
    return (unsigned)(d & (((uint64_t)1 << w) - 1));
}

typedef struct FB(chunk_scratch) {
    uint64_t (*limbs)[FR_LIMBS];
    FB_F *pre;          /* prefix products of the denominators */
    size_t *idx;        /* the points taking part in this window's batch */
    const FB_AFF **add; /* and what each one adds */
} FB(chunk_scratch_t);

/* The one case the batch formula cannot take: acc = +-p (x equal). For
 * scalars below r it never happens (the partial sum is below d 2^(wk), and
 * their sum is below r), but correctness must not rest on that. */
static void FB(add_slow)(FB_AFF *acc, const FB_AFF *p)
{
    FB_JAC j;
    FB_EC(from_affine)(&j, acc);
    FB_EC(add_mixed)(&j, &j, p);
    FB_EC(to_affine)(acc, &j);
}

/* out[i] = [k[i]] G for i < cnt, accumulated in affine coordinates window by
 * window: each window's additions share one inversion (Montgomery's trick),
 * so an addition costs 5M + 1S instead of a mixed Jacobian addition's
 * 7M + 4S, and no conversion is left at the end. */
static void FB(mul_chunk)(FB_AFF *out, const FB(table_t) * t, const fr_t *k, size_t cnt,
                          const FB(chunk_scratch_t) * s)
{
    for (size_t i = 0; i < cnt; i++) {
        fr_to_limbs(s->limbs[i], &k[i]);
        FB_EC(affine_set_inf)(&out[i]);
    }
    for (unsigned win = 0; win < t->n_win; win++) {
        size_t na = 0;
        FB_F acc = FB_F_ONE, den;
        for (size_t i = 0; i < cnt; i++) {
            unsigned d = FB(digit)(s->limbs[i], win, t->w);
            if (!d)
                continue;
            const FB_AFF *p = &t->pts[win * t->per_win + d - 1];
            if (FB_EC(affine_is_inf)(&out[i])) {
                out[i] = *p;
                continue;
            }
            FB_FIELD(sub)(&den, &p->x, &out[i].x);
            if (FB_FIELD(is_zero)(&den)) {
                FB(add_slow)(&out[i], p);
                continue;
            }
            s->pre[na] = acc;
            s->idx[na] = i;
            s->add[na] = p;
            na++;
            FB_FIELD(mul)(&acc, &acc, &den);
        }
        if (na == 0)
            continue;
        FB_FIELD(inv)(&acc, &acc);
        for (size_t j = na; j-- > 0;) {
            FB_AFF *a = &out[s->idx[j]];
            const FB_AFF *p = s->add[j];
            FB_F inv, lam, x3, u;
            FB_FIELD(sub)(&den, &p->x, &a->x);
            FB_FIELD(mul)(&inv, &acc, &s->pre[j]); /* 1 / den */
            FB_FIELD(mul)(&acc, &acc, &den);
            /* lam = (y2 - y1) / (x2 - x1), x3 = lam^2 - x1 - x2,
             * y3 = lam (x1 - x3) - y1 */
            FB_FIELD(sub)(&lam, &p->y, &a->y);
            FB_FIELD(mul)(&lam, &lam, &inv);
            FB_FIELD(sqr)(&x3, &lam);
            FB_FIELD(sub)(&x3, &x3, &a->x);
            FB_FIELD(sub)(&x3, &x3, &p->x);
            FB_FIELD(sub)(&u, &a->x, &x3);
            FB_FIELD(mul)(&u, &u, &lam);
            FB_FIELD(sub)(&a->y, &u, &a->y);
            a->x = x3;
        }
    }
}

typedef struct FB(mul_ctx) {
    const FB(table_t) * t;
    FB_AFF *out;
    const fr_t *k;
    size_t n;
    int failed;
} FB(mul_ctx_t);

static void FB(mul_range)(void *vctx, size_t begin, size_t end)
{
    FB(mul_ctx_t) *x = vctx;
    FB(chunk_scratch_t) s;
    s.limbs = malloc(FB_CHUNK * sizeof *s.limbs);
    s.pre = malloc(FB_CHUNK * sizeof *s.pre);
    s.idx = malloc(FB_CHUNK * sizeof *s.idx);
    s.add = malloc(FB_CHUNK * sizeof *s.add);
    if (s.limbs && s.pre && s.idx && s.add) {
        for (size_t c = begin; c < end; c++) {
            size_t lo = c * FB_CHUNK, hi = lo + FB_CHUNK < x->n ? lo + FB_CHUNK : x->n;
            FB(mul_chunk)(&x->out[lo], x->t, &x->k[lo], hi - lo, &s);
        }
    } else {
        __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
    }
    free(s.limbs);
    free(s.pre);
    free(s.idx);
    free(s.add);
}

static cuzk_status FB(mul_table)(FB_AFF *out, const FB(table_t) * t, const fr_t *k, size_t n,
                                 int threads)
{
    FB(mul_ctx_t) x = {t, out, k, n, 0};
    cuzk_status st = parallel_for((n + FB_CHUNK - 1) / FB_CHUNK, 1, threads, FB(mul_range), &x);
    if (st == CUZK_OK && x.failed)
        st = CUZK_ERR_NOMEM;
    return st;
}

cuzk_status FB(mul_gen)(FB_AFF *out, const fr_t *k, size_t n, int threads)
{
    if (n == 0)
        return CUZK_OK;
    FB(table_t) t;
    cuzk_status st = FB(table_build)(&t, FB(choose_window)(n), threads);
    if (st != CUZK_OK)
        return st;
    st = FB(mul_table)(out, &t, k, n, threads);
    FB(table_free)(&t);
    return st;
}

#undef FB_SCALAR_BITS
#undef FB_MAX_WINDOW
#undef FB_CHUNK
