/* The fixed-base plan shared by G1 and G2 (setup.cuh): the window, the
 * bytes, the release. The kernels are in setup_fb_impl.cuh.
 *
 * Cost model: n points of ceil(256 / c) mixed additions each, against a
 * table of ceil(256 / c) 2^(c-1) entries costing about three additions
 * each (a chain step, a doubling share and its share of the normalisation),
 * as the CPU's fixed_base_impl.h. The table is capped at SETUP_FB_TABLE_MAX:
 * beyond it a bigger window saves under 10% of the additions (c = 20 and
 * 13 windows for the 4.3e8 G1 points at 2^27; G2, 3.3e7 points, c = 19).
 * Lookups are random 96 / 192-byte reads, ~1.25 KB a G1 point against
 * ~100k IMADs: compute-bound even from HBM, so the table need not fit L2. */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/keygen/setup.cuh"

#define SETUP_FB_MAX_C 24
#define SETUP_FB_TABLE_MAX ((size_t)1 << 30)
#define SETUP_FB_CHUNK ((size_t)1 << 23) /* points per pass: bounds the scratch */

unsigned cuda_setup_fb_window(size_t n_total, size_t aff_bytes)
{
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= SETUP_FB_MAX_C; c++) {
        size_t n_win = (256 + c - 1) / c, per = (size_t)1 << (c - 1);
        if (c > 1 && n_win * per * aff_bytes > SETUP_FB_TABLE_MAX)
            break;
        double cost = (double)n_win * ((double)n_total + 3.0 * (double)per);
        if (c == 1 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

/* CUZK_CUDA_SETUP_CHUNK (points, >= 1) replaces SETUP_FB_CHUNK: tests set
 * it small to cross pass boundaries with small circuits. */
static size_t chunk_limit(void)
{
    const char *e = getenv("CUZK_CUDA_SETUP_CHUNK");
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        if (*end == '\0' && v >= 1)
            return (size_t)v;
    }
    return SETUP_FB_CHUNK;
}

size_t cuda_setup_fb_chunk(size_t n_max, size_t entries)
{
    size_t want = n_max > entries ? n_max : entries, lim = chunk_limit();
    if (want < 1)
        want = 1;
    return want < lim ? want : lim;
}

size_t cuda_setup_fb_bytes(int g2, size_t n_total, size_t n_max)
{
    size_t aff = g2 ? sizeof(dg2_affine_t) : sizeof(dg1_affine_t);
    size_t jac = g2 ? sizeof(dg2_jac_t) : sizeof(dg1_jac_t);
    size_t f = g2 ? sizeof(dfp2_t) : sizeof(dfp_t);
    unsigned c = cuda_setup_fb_window(n_total, aff);
    size_t n_win = (256 + c - 1) / c, entries = n_win << (c - 1);
    size_t chunk = cuda_setup_fb_chunk(n_max, entries);
    return setup_round(entries * aff) + setup_round(chunk * jac) + setup_round(chunk * f) +
           setup_round(n_win * aff);
}

void cuda_setup_fb_free(cuda_setup_fb_t *fb)
{
    if (!fb)
        return;
    void *p[3] = {fb->table, fb->jac, fb->pre};
    for (int i = 0; i < 3; i++)
        if (p[i])
            (void)cudaFree(p[i]);
    memset(fb, 0, sizeof *fb);
}
