/* The porep-32g synthetic circuit and its witnesses (see include/cuzk/gen.h).
 *
 * A block keeps pools of its own variables: the free bits (the only B
 * operands of the bit rows, so B's aux density is the free-bit share plus
 * the mul pool), bits and wide values not yet used in A (consumed first, so
 * nearly every variable lands in A), and a pool of wide values for B. A row
 * kind is drawn from the mix below; a kind whose operands are not there yet
 * (the start of a block) falls back to booleanity. The mix solves the
 * profile's averages: with fractions f_bool, f_xor, f_and, f_pack, f_mul,
 * B = 1 per row exactly, C = 3 f_xor + f_and + f_pack + f_mul = 2.2, A =
 * 2 f_bool + f_xor + f_and + k f_pack + 3 f_mul = 2.4, B density = f_bool +
 * the mul pool = 0.254 of aux (the constants were then tuned on measured
 * statistics at K = 18..20). A small share of xor/and outputs is never used
 * again ("dead"), as in real circuits, which puts A's density at ~99.7%. */
#include "cuzk/gen.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"

/* Row mix in units of 2^-24. */
#define U24 (1u << 24)
#define F_BOOL ((uint32_t)(0.2385 * U24))
#define F_XOR ((uint32_t)(0.7220 * U24))
#define F_AND ((uint32_t)(0.0095 * U24))
#define F_PACK ((uint32_t)(0.0150 * U24)) /* mul: the rest */
#define PACK_MIN 41u
#define PACK_MAX 113u
#define POOL_P ((uint32_t)(0.49 * U24)) /* wide outputs that join the B pool */
#define DEAD_P ((uint32_t)(0.0035 * U24))
#define WARM_ROWS 32u /* every block opens with free bits; public rows pack them */
#define PUBLIC_BITS 32u

/* Dictionary: [0] = 1, [1] = -1, [i + 1] = 2^i for 1 <= i < PACK_MAX. */
#define N_DICT (PACK_MAX + 1u)
#define COEF_ONE 0u
#define COEF_MINUS_ONE 1u
#define COEF_TWO 2u

static uint32_t pow2_coef(uint32_t i)
{
    return i == 0 ? COEF_ONE : i + 1;
}

enum row_kind { K_BOOL, K_XOR, K_AND, K_PACK, K_MUL };
enum var_kind { V_FREE, V_BIT, V_WIDE };
enum gen_mode { M_COUNT, M_FILL, M_WITNESS };

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rng_next(uint64_t *s)
{
    return mix64(*s += 0x9e3779b97f4a7c15ULL);
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

static uint32_t rng_u24(uint64_t *s)
{
    return (uint32_t)(rng_next(s) >> 40);
}

cuzk_status gen_porep_shape(gen_shape_t *out, unsigned log_domain, cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "gen_porep_shape: NULL output");
    memset(out, 0, sizeof *out);
    if (log_domain < GEN_LOG_DOMAIN_MIN || log_domain > GEN_LOG_DOMAIN_MAX)
        return cuzk_error_set(err, CUZK_ERR_ARG, "gen: log domain %u outside [%u, %u]", log_domain,
                              GEN_LOG_DOMAIN_MIN, GEN_LOG_DOMAIN_MAX);
    unsigned sh = GEN_LOG_DOMAIN_MAX - log_domain;
    uint64_t half = sh ? (uint64_t)1 << (sh - 1) : 0;
    uint32_t cons = (uint32_t)((130278541ULL + half) >> sh);
    uint32_t inputs = (uint32_t)((328ULL + half) >> sh);
    out->log_domain = log_domain;
    out->n_inputs = inputs < 2 ? 2 : inputs;
    out->n_public = out->n_inputs - 1;
    out->n_constraints = cons;
    out->n_rows = cons + out->n_inputs;
    out->n_vars = 1 + out->n_public + (cons - out->n_public);
    return CUZK_OK;
}

static int shape_ok(const gen_shape_t *s)
{
    gen_shape_t t;
    return s && gen_porep_shape(&t, s->log_domain, NULL) == CUZK_OK && !memcmp(&t, s, sizeof t);
}

/* ---- one block ---------------------------------------------------------- */

typedef struct gen_ctx {
    const gen_shape_t *s;
    uint64_t seed;
    uint32_t partition;
    enum gen_mode mode;
    circuit_t *c;       /* M_FILL */
    fr_t *w;            /* M_WITNESS */
    uint64_t (*pos)[3]; /* per block: nnz (M_COUNT), first entry (M_FILL) */
    fr_t pow2[PACK_MAX];
    _Atomic int nomem;
} gen_ctx_t;

typedef struct pool {
    uint32_t *v, n;
} pool_t;

typedef struct block {
    const gen_ctx_t *g;
    uint64_t rs, vs;        /* structure and value streams */
    uint32_t row0, n, var0; /* first body row, rows, first variable */
    pool_t free_bits, bitq, bits, wideq, wide, poolq, pool;
    uint32_t *stamp; /* local var -> 1 + last local row using it in A */
    uint8_t *bit;    /* bit values (M_WITNESS) */
    uint64_t pos[3];
    uint32_t row; /* local row being made */
} block_t;

#define N_POOLS 7

static int block_alloc(block_t *b)
{
    pool_t *p[N_POOLS] = {&b->free_bits, &b->bitq,  &b->bits, &b->wideq,
                          &b->wide,      &b->poolq, &b->pool};
    for (int i = 0; i < N_POOLS; i++)
        if (!(p[i]->v = malloc(GEN_BLOCK_ROWS * sizeof *p[i]->v)))
            return 0;
    b->stamp = malloc(GEN_BLOCK_ROWS * sizeof *b->stamp);
    b->bit = malloc(GEN_BLOCK_ROWS);
    return b->stamp && b->bit;
}

static void block_free(block_t *b)
{
    pool_t *p[N_POOLS] = {&b->free_bits, &b->bitq,  &b->bits, &b->wideq,
                          &b->wide,      &b->poolq, &b->pool};
    for (int i = 0; i < N_POOLS; i++)
        free(p[i]->v);
    free(b->stamp);
    free(b->bit);
}

static void pool_add(pool_t *p, uint32_t v)
{
    p->v[p->n++] = v;
}

static uint32_t pool_take(pool_t *p, uint64_t *rs) /* random, removed */
{
    uint32_t i = rng_below(rs, p->n), v = p->v[i];
    p->v[i] = p->v[--p->n];
    return v;
}

static uint32_t pool_pick(const pool_t *p, uint64_t *rs)
{
    return p->v[rng_below(rs, p->n)];
}

static void put(block_t *b, int m, uint32_t local, uint32_t coef)
{
    if (b->g->mode == M_FILL) {
        circuit_csr_t *x = &b->g->c->m[m];
        x->col[b->pos[m]] = local == UINT32_MAX ? 0 : b->var0 + local;
        x->coef[b->pos[m]] = coef;
    }
    b->pos[m]++;
}

static void end_row(block_t *b)
{
    if (b->g->mode == M_FILL)
        for (int m = 0; m < 3; m++)
            b->g->c->m[m].row_ptr[b->row0 + b->row + 1] = b->pos[m];
}

#define ONE_VAR UINT32_MAX /* put(): wire 0 */

static fr_t *wval(block_t *b, uint32_t local)
{
    return &b->g->w[b->var0 + local];
}

static void set_bit(block_t *b, uint32_t v, uint8_t x)
{
    b->bit[v] = x;
    *wval(b, v) = x ? FR_ONE : FR_ZERO;
}

/* A bit for A, not yet in this row: unused ones first. */
static uint32_t pick_a_bit(block_t *b)
{
    if (b->bitq.n)
        return pool_take(&b->bitq, &b->rs);
    for (int tries = 0; tries < 8; tries++) {
        uint32_t v = pool_pick(&b->bits, &b->rs);
        if (b->stamp[v] != b->row + 1)
            return v;
    }
    return UINT32_MAX;
}

static uint32_t pick_wide(block_t *b)
{
    if (b->wideq.n)
        return pool_take(&b->wideq, &b->rs);
    for (int tries = 0; tries < 8; tries++) {
        uint32_t v = pool_pick(&b->wide, &b->rs);
        if (b->stamp[v] != b->row + 1)
            return v;
    }
    return UINT32_MAX;
}

static void row_bool(block_t *b, uint32_t v)
{
    put(b, CIRCUIT_A, ONE_VAR, COEF_ONE);
    put(b, CIRCUIT_A, v, COEF_MINUS_ONE);
    put(b, CIRCUIT_B, v, COEF_ONE);
    if (b->g->mode == M_WITNESS)
        set_bit(b, v, (uint8_t)(rng_next(&b->vs) >> 63));
    pool_add(&b->free_bits, v);
    pool_add(&b->bits, v);
}

static void new_bit(block_t *b, uint32_t v)
{
    if (rng_u24(&b->rs) < DEAD_P)
        return;
    pool_add(&b->bitq, v);
    pool_add(&b->bits, v);
}

/* xor: (2a) * y = a + y - c; and: a * y = c. y is a free bit. */
static void row_bitop(block_t *b, uint32_t v, int is_xor)
{
    uint32_t y = pool_pick(&b->free_bits, &b->rs);
    b->stamp[y] = b->row + 1;
    uint32_t a = pick_a_bit(b);
    if (a == UINT32_MAX || a == y) { /* rare: a tiny block */
        b->stamp[y] = 0;
        row_bool(b, v);
        return;
    }
    b->stamp[a] = b->row + 1;
    put(b, CIRCUIT_A, a, is_xor ? COEF_TWO : COEF_ONE);
    put(b, CIRCUIT_B, y, COEF_ONE);
    if (is_xor) {
        put(b, CIRCUIT_C, a, COEF_ONE);
        put(b, CIRCUIT_C, y, COEF_ONE);
        put(b, CIRCUIT_C, v, COEF_MINUS_ONE);
    } else {
        put(b, CIRCUIT_C, v, COEF_ONE);
    }
    if (b->g->mode == M_WITNESS)
        set_bit(b, v, is_xor ? b->bit[a] ^ b->bit[y] : b->bit[a] & b->bit[y]);
    new_bit(b, v);
}

static void new_wide(block_t *b, uint32_t v)
{
    pool_add(&b->wideq, v);
    pool_add(&b->wide, v);
    if (rng_u24(&b->rs) < POOL_P) {
        pool_add(&b->poolq, v);
        pool_add(&b->pool, v);
    }
}

static void row_pack(block_t *b, uint32_t v)
{
    uint32_t k = PACK_MIN + rng_below(&b->rs, PACK_MAX - PACK_MIN + 1);
    fr_t acc = FR_ZERO;
    uint32_t got = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t x = pick_a_bit(b);
        if (x == UINT32_MAX)
            continue;
        b->stamp[x] = b->row + 1;
        put(b, CIRCUIT_A, x, pow2_coef(got));
        if (b->g->mode == M_WITNESS && b->bit[x])
            fr_add(&acc, &acc, &b->g->pow2[got]);
        got++;
    }
    put(b, CIRCUIT_B, ONE_VAR, COEF_ONE);
    put(b, CIRCUIT_C, v, COEF_ONE);
    if (b->g->mode == M_WITNESS)
        *wval(b, v) = acc;
    new_wide(b, v);
}

static void row_mul(block_t *b, uint32_t v)
{
    fr_t acc = FR_ZERO;
    for (int j = 0; j < 3; j++) {
        uint32_t x = pick_wide(b);
        if (x == UINT32_MAX)
            continue;
        b->stamp[x] = b->row + 1;
        put(b, CIRCUIT_A, x, COEF_ONE);
        if (b->g->mode == M_WITNESS)
            fr_add(&acc, &acc, wval(b, x));
    }
    uint32_t y = b->poolq.n ? pool_take(&b->poolq, &b->rs) : pool_pick(&b->pool, &b->rs);
    put(b, CIRCUIT_B, y, COEF_ONE);
    put(b, CIRCUIT_C, v, COEF_ONE);
    if (b->g->mode == M_WITNESS)
        fr_mul(wval(b, v), &acc, wval(b, y));
    new_wide(b, v);
}

static enum row_kind choose(block_t *b)
{
    if (b->row < WARM_ROWS)
        return K_BOOL;
    uint32_t u = rng_u24(&b->rs);
    enum row_kind k = u < F_BOOL                            ? K_BOOL
                      : u < F_BOOL + F_XOR                  ? K_XOR
                      : u < F_BOOL + F_XOR + F_AND          ? K_AND
                      : u < F_BOOL + F_XOR + F_AND + F_PACK ? K_PACK
                                                            : K_MUL;
    if (k == K_MUL && (b->wide.n < 3 || b->pool.n == 0))
        k = K_PACK;
    if (k == K_PACK && b->bits.n < 2 * PACK_MAX)
        k = K_XOR;
    return k;
}

static void block_run(block_t *b, uint32_t blk)
{
    const gen_ctx_t *g = b->g;
    uint32_t body = g->s->n_constraints - g->s->n_public;
    b->row0 = blk * GEN_BLOCK_ROWS;
    b->n = body - b->row0 < GEN_BLOCK_ROWS ? body - b->row0 : GEN_BLOCK_ROWS;
    b->var0 = 1 + g->s->n_public + b->row0;
    b->rs = mix64(g->seed ^ mix64(0x5354525543ULL + blk));
    b->vs = mix64(g->seed ^ mix64(0x56414c5545ULL ^ ((uint64_t)g->partition << 32 | blk)));
    pool_t *p[N_POOLS] = {&b->free_bits, &b->bitq,  &b->bits, &b->wideq,
                          &b->wide,      &b->poolq, &b->pool};
    for (int i = 0; i < N_POOLS; i++)
        p[i]->n = 0;
    memset(b->stamp, 0, b->n * sizeof *b->stamp);
    for (b->row = 0; b->row < b->n; b->row++) {
        uint32_t v = b->row;
        switch (choose(b)) {
        case K_BOOL: row_bool(b, v); break;
        case K_XOR: row_bitop(b, v, 1); break;
        case K_AND: row_bitop(b, v, 0); break;
        case K_PACK: row_pack(b, v); break;
        case K_MUL: row_mul(b, v); break;
        }
        end_row(b);
    }
}

static void run_blocks(void *vctx, size_t begin, size_t end)
{
    gen_ctx_t *g = vctx;
    block_t b;
    memset(&b, 0, sizeof b);
    b.g = g;
    if (!block_alloc(&b)) {
        atomic_store(&g->nomem, 1);
        block_free(&b);
        return;
    }
    for (size_t blk = begin; blk < end; blk++) {
        for (int m = 0; m < 3; m++)
            b.pos[m] = g->mode == M_FILL ? g->pos[blk][m] : 0;
        block_run(&b, (uint32_t)blk);
        if (g->mode == M_COUNT)
            memcpy(g->pos[blk], b.pos, sizeof b.pos);
    }
    block_free(&b);
}

static uint32_t n_blocks(const gen_shape_t *s)
{
    uint32_t body = s->n_constraints - s->n_public;
    return (body + GEN_BLOCK_ROWS - 1) / GEN_BLOCK_ROWS;
}

/* Bits packed into public input i: the first free bits of one block. */
static uint32_t public_bits(const gen_shape_t *s, uint32_t i, uint32_t *var0)
{
    uint32_t nb = n_blocks(s), blk = i % nb, body = s->n_constraints - s->n_public;
    uint32_t rows = body - blk * GEN_BLOCK_ROWS;
    *var0 = 1 + s->n_public + blk * GEN_BLOCK_ROWS;
    rows = rows < WARM_ROWS ? rows : WARM_ROWS;
    return rows < PUBLIC_BITS ? rows : PUBLIC_BITS;
}

static cuzk_status run(gen_ctx_t *g, int threads, cuzk_error_t *err)
{
    for (uint32_t i = 0; i < PACK_MAX; i++) {
        uint64_t l[4] = {0, 0, 0, 0};
        l[i / 64] = (uint64_t)1 << (i % 64);
        (void)fr_from_limbs(&g->pow2[i], l);
    }
    if (parallel_for(n_blocks(g->s), 1, threads, run_blocks, g) != CUZK_OK ||
        atomic_load(&g->nomem))
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gen: no memory for the block pools");
    return CUZK_OK;
}

/* ---- the circuit ----------------------------------------------------------- */

static void tail_fill(circuit_t *c, const gen_shape_t *s, uint64_t pos[3])
{
    uint32_t row = s->n_constraints - s->n_public;
    for (uint32_t i = 0; i < s->n_public; i++, row++) {
        uint32_t var0, nb = public_bits(s, i, &var0);
        for (uint32_t j = 0; j < nb; j++, pos[0]++) {
            c->m[0].col[pos[0]] = var0 + j;
            c->m[0].coef[pos[0]] = pow2_coef(j);
        }
        c->m[1].col[pos[1]] = 0;
        c->m[1].coef[pos[1]++] = COEF_ONE;
        c->m[2].col[pos[2]] = 1 + i;
        c->m[2].coef[pos[2]++] = COEF_ONE;
        for (int m = 0; m < 3; m++)
            c->m[m].row_ptr[row + 1] = pos[m];
    }
    for (uint32_t k = 0; k < s->n_inputs; k++, row++) {
        c->m[0].col[pos[0]] = k;
        c->m[0].coef[pos[0]++] = COEF_ONE;
        for (int m = 0; m < 3; m++)
            c->m[m].row_ptr[row + 1] = pos[m];
    }
}

static cuzk_status alloc_csr(circuit_t *c, const uint64_t nnz[3])
{
    for (int m = 0; m < 3; m++) {
        c->m[m].nnz = nnz[m];
        c->m[m].row_ptr = malloc(((size_t)c->n_rows + 1) * sizeof(uint64_t));
        c->m[m].col = malloc((nnz[m] ? nnz[m] : 1) * sizeof(uint32_t));
        c->m[m].coef = malloc((nnz[m] ? nnz[m] : 1) * sizeof(uint32_t));
        if (!c->m[m].row_ptr || !c->m[m].col || !c->m[m].coef)
            return CUZK_ERR_NOMEM;
        c->m[m].row_ptr[0] = 0;
    }
    c->dict = malloc(N_DICT * sizeof *c->dict);
    if (!c->dict)
        return CUZK_ERR_NOMEM;
    c->n_dict = N_DICT;
    c->dict[COEF_ONE] = FR_ONE;
    fr_neg(&c->dict[COEF_MINUS_ONE], &FR_ONE);
    for (uint32_t i = 1; i < PACK_MAX; i++) {
        uint64_t l[4] = {0, 0, 0, 0};
        l[i / 64] = (uint64_t)1 << (i % 64);
        (void)fr_from_limbs(&c->dict[i + 1], l);
    }
    return CUZK_OK;
}

/* Block offsets from the counts; nnz = the body's, then the tail's added. */
static void prefix_counts(uint64_t nnz[3], uint64_t (*pos)[3], uint32_t nb, const gen_shape_t *s)
{
    for (int m = 0; m < 3; m++) {
        uint64_t acc = 0;
        for (uint32_t blk = 0; blk < nb; blk++) {
            uint64_t n = pos[blk][m];
            pos[blk][m] = acc;
            acc += n;
        }
        nnz[m] = acc;
    }
    for (uint32_t i = 0; i < s->n_public; i++) {
        uint32_t var0;
        nnz[0] += public_bits(s, i, &var0);
        nnz[1]++;
        nnz[2]++;
    }
    nnz[0] += s->n_inputs;
}

cuzk_status gen_porep_circuit(circuit_t *out, const gen_shape_t *s, uint64_t seed, int threads,
                              cuzk_error_t *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_ARG, "gen_porep_circuit: NULL output");
    memset(out, 0, sizeof *out);
    if (!shape_ok(s))
        return cuzk_error_set(err, CUZK_ERR_ARG, "gen_porep_circuit: not a porep-32g shape");
    uint32_t nb = n_blocks(s);
    gen_ctx_t *g = calloc(1, sizeof *g);
    uint64_t(*pos)[3] = calloc(nb, sizeof *pos);
    cuzk_status st = CUZK_OK;
    if (!g || !pos) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gen: no memory for %u blocks", nb);
        goto done;
    }
    *g = (gen_ctx_t){.s = s, .seed = seed, .mode = M_COUNT, .c = out, .pos = pos};
    if ((st = run(g, threads, err)) != CUZK_OK)
        goto done;
    uint64_t nnz[3];
    prefix_counts(nnz, pos, nb, s);
    out->n_rows = s->n_rows;
    out->n_vars = s->n_vars;
    out->n_public = s->n_public;
    if (alloc_csr(out, nnz) != CUZK_OK) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gen: no memory for the circuit (%llu entries)",
                            (unsigned long long)(nnz[0] + nnz[1] + nnz[2]));
        goto done;
    }
    g->mode = M_FILL;
    if ((st = run(g, threads, err)) != CUZK_OK)
        goto done;
    uint64_t tail[3];
    for (int m = 0; m < 3; m++)
        tail[m] = nb ? out->m[m].row_ptr[s->n_constraints - s->n_public] : 0;
    tail_fill(out, s, tail);
done:
    if (st != CUZK_OK)
        circuit_free(out);
    free(pos);
    free(g);
    return st;
}

cuzk_status gen_porep_witness(fr_t *w, const gen_shape_t *s, uint64_t seed, uint32_t partition,
                              int threads, cuzk_error_t *err)
{
    if (!w || !shape_ok(s))
        return cuzk_error_set(err, CUZK_ERR_ARG, "gen_porep_witness: NULL or not a shape");
    gen_ctx_t *g = calloc(1, sizeof *g);
    if (!g)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gen: no memory");
    *g = (gen_ctx_t){.s = s, .seed = seed, .partition = partition, .mode = M_WITNESS, .w = w};
    cuzk_status st = run(g, threads, err);
    w[0] = FR_ONE;
    for (uint32_t i = 0; i < s->n_public && st == CUZK_OK; i++) {
        uint32_t var0, nb = public_bits(s, i, &var0);
        fr_t acc = FR_ZERO;
        for (uint32_t j = 0; j < nb; j++)
            if (fr_is_one(&w[var0 + j]))
                fr_add(&acc, &acc, &g->pow2[j]);
        w[1 + i] = acc;
    }
    free(g);
    return st;
}

/* ---- statistics ------------------------------------------------------------- */

cuzk_status gen_circuit_stats(gen_stats_t *out, const circuit_t *c, cuzk_error_t *err)
{
    if (!out || !c)
        return cuzk_error_set(err, CUZK_ERR_ARG, "gen_circuit_stats: NULL argument");
    memset(out, 0, sizeof *out);
    out->n_rows = c->n_rows;
    out->n_vars = c->n_vars;
    out->n_public = c->n_public;
    out->n_dict = c->n_dict;
    uint8_t *seen = malloc(c->n_vars ? c->n_vars : 1);
    if (!seen)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gen_circuit_stats: no memory");
    for (int m = 0; m < 3; m++) {
        const circuit_csr_t *x = &c->m[m];
        memset(seen, 0, c->n_vars);
        for (uint64_t k = 0; k < x->nnz; k++)
            seen[x->col[k]] = 1;
        out->nnz[m] = x->nnz;
        for (uint32_t v = 0; v < c->n_vars; v++) {
            if (v <= c->n_public)
                out->input_touched[m] += seen[v];
            else
                out->aux_touched[m] += seen[v];
        }
    }
    free(seen);
    return CUZK_OK;
}

void gen_witness_stats(uint64_t *zeros, uint64_t *ones, uint64_t *others, const fr_t *w, size_t n)
{
    uint64_t z = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        z += fr_is_zero(&w[i]);
        o += fr_is_one(&w[i]);
    }
    *zeros = z;
    *ones = o;
    *others = n - z - o;
}
