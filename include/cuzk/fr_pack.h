/* Packed witness vectors.
 *
 * A Filecoin PoRep witness is ~98% zeros and ones (SHA-256's bits), so a
 * 130 M-value partition (4.2 GB of fr_t) packs into two bitmaps, a rank
 * table and the few other values: ~120 MB. The engine keeps packs, not
 * full vectors, between synthesis and the device, and a device expands a
 * pack where it is used (host memory and bus traffic ~30x smaller).
 *
 * One contiguous block (a single copy moves it), for n values of which
 * n_full are neither 0 nor 1, words = ceil(n / 64):
 *   nz[words]       bit b of word k: value 64 k + b is not 0
 *   full[words]     bit b of word k: value 64 k + b is neither 0 nor 1
 *   rank[words + 1] full values before word k (rank[words] = n_full)
 *   vals[n_full]    those values in index order (Montgomery fr_t)
 * at byte offsets 0, 8 words, 16 words and fr_pack_vals_offset(n). Bits
 * past n are 0; full implies nz. Value i is 0 without its nz bit, FR_ONE
 * with nz and without full, else vals[rank[i / 64] + the full bits below
 * bit i % 64 of word i / 64]. */
#ifndef CUZK_FR_PACK_H
#define CUZK_FR_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ranks are 32-bit: packs hold fewer values than this. */
#define FR_PACK_MAX_VALUES ((size_t)UINT32_MAX)

typedef struct fr_pack {
    size_t n, n_full;
    size_t bytes; /* of the block */
    uint64_t *nz, *full;
    uint32_t *rank;
    fr_t *vals;
    void *block; /* owned by fr_pack_make's packs (fr_pack_free), else NULL */
} fr_pack_t;

static inline size_t fr_pack_words(size_t n)
{
    return (n + 63) / 64;
}

/* Where vals starts: after the bitmaps and the rank table, on 32 bytes. */
static inline size_t fr_pack_vals_offset(size_t n)
{
    size_t w = fr_pack_words(n);
    return (16 * w + 4 * (w + 1) + 31) & ~(size_t)31;
}

static inline size_t fr_pack_bytes(size_t n, size_t n_full)
{
    return fr_pack_vals_offset(n) + n_full * sizeof(fr_t);
}

/* Packs w[0..n) into a block of its own (fr_pack_free), on `threads`
 * threads (<= 0: every CPU). CUZK_ERR_ARG when n exceeds
 * FR_PACK_MAX_VALUES, CUZK_ERR_NOMEM without memory (p is then empty). */
cuzk_status fr_pack_make(fr_pack_t *p, const fr_t *w, size_t n, int threads, cuzk_error_t *err);

/* fr_pack_make, unless the pack would take more than max_bytes: then
 * CUZK_OK with p empty (p->block NULL), w read once to classify its
 * values and nothing gathered (a witness of hash outputs costs a read,
 * not a second vector). */
cuzk_status fr_pack_make_within(fr_pack_t *p, const fr_t *w, size_t n, size_t max_bytes,
                                int threads, cuzk_error_t *err);

/* Completes a pack whose bitmaps a writer set as it made the values
 * (cs_bind_bits): block, malloc'd with fr_pack_vals_offset(n) bytes and
 * nz, full filled, is the pack's from now (freed on failure); the ranks
 * are counted and the full values gathered, value i from head[i] for i <
 * n_head, else from tail[i - n_head] (only where full is set is it read).
 * CUZK_ERR_NOMEM without memory (p is then empty). */
cuzk_status fr_pack_finish(fr_pack_t *p, void *block, size_t n, const fr_t *head, size_t n_head,
                           const fr_t *tail, int threads, cuzk_error_t *err);

/* A view of a block laid out as above (block's bytes, unchecked). */
void fr_pack_view(fr_pack_t *p, void *block, size_t n, size_t n_full);

/* The value at i < n. */
void fr_pack_get(fr_t *out, const fr_pack_t *p, size_t i);

/* w[0..n) from the pack, on `threads` threads. CUZK_ERR_NOMEM only if the
 * threads' bookkeeping cannot be allocated (then nothing is written). */
cuzk_status fr_pack_expand(fr_t *w, const fr_pack_t *p, int threads);

/* Whether the pack is consistent (bits past n clear, full within nz,
 * ranks counting the full bits, rank[words] = n_full); CUZK_ERR_FORMAT
 * naming the first fault otherwise. */
cuzk_status fr_pack_check(const fr_pack_t *p, cuzk_error_t *err);

void fr_pack_free(fr_pack_t *p);

#ifdef __cplusplus
}
#endif
#endif
