/* The device MSM: out = sum_i s_i P_i over bases and scalars that live in
 * device memory, for G1 and G2 (msm.cu; the kernels are written once in
 * msm_impl.cuh).
 *
 * Method (Pippenger with signed digits, buckets sorted by counting sort):
 *  1. classify: scalars equal to 0 are dropped, scalars equal to 1 go to a
 *     list summed with plain additions, the rest ("full") are converted
 *     out of Montgomery form and compacted;
 *  2. window size c from the number of full scalars (a cost model); the
 *     windows are processed in groups that fit the plan's scratch;
 *  3. per group: histogram of the digits (one bin per window and |digit|),
 *     exclusive scan, scatter of the point indices (sign in bit 31) so
 *     that each bin's points are contiguous: the sort by bucket (by
 *     atomic cursors, or a radix sort: cuda_msm_scatter);
 *  4. one thread per bin sums its points in XYZZ; a bin with more than
 *     CUDA_MSM_HEAVY points is cut into pieces of CUDA_MSM_PIECE, each
 *     summed by a block, and the pieces then by another block (so equal
 *     scalars cost no more than random ones, not one thread's lifetime);
 *     a bin between the two, longer than CUDA_MSM_MEDIUM and than 4x the
 *     mean bin, is summed by one block: the top window of a mid-size MSM
 *     (its few top bits give 2^7..2^8 bins for all the full scalars) would
 *     otherwise be one thread's chain of ~1600 additions, ~33 ms for G2
 *     (unless there are CUDA_MSM_MEDIUM_FILL per SM or more: those fill the
 *     GPU a thread each);
 *  5. bucket reduction sum_b (b+1) B_b by running sums over segments of
 *     each window, the segments' sums by a block per window;
 *  6. the host combines the windows (c doublings each) and the ones' sum.
 * The result is the same point as the CPU's msm_g1/msm_g2 (its Jacobian
 * coordinates depend on the order atomics gave the points).
 *
 * A plan owns every scratch buffer, sized once for at most n_max points
 * (cuda_msm_plan_bytes says how much before anything is allocated); calls
 * allocate nothing. A plan serves one call at a time, on the stream given;
 * each call ends with one synchronisation of that stream (the result goes
 * to the host). Errors are returned with a message, never abort(). */
#ifndef CUZK_CUDA_MSM_CUH
#define CUZK_CUDA_MSM_CUH

#include <stddef.h>
#include <stdint.h>

#include "backend/cuda/cuda_check.cuh"
#include "backend/cuda/arith/host_types.cuh"
#include "backend/cuda/debug/msm_trace.cuh"

#define CUDA_MSM_PIECE 4096            /* points per block-summed piece of a heavy bin */
#define CUDA_MSM_HEAVY 4096            /* a bin with more points than this is heavy */
#define CUDA_MSM_MEDIUM 256            /* ... with more than this (and 4x the mean), medium */
#define CUDA_MSM_MEDIUM_FILL 128       /* medium bins per SM that a thread each fills */
#define CUDA_MSM_MAX_C 20              /* the model's window bits: 2^19 buckets a window at most */
#define CUDA_MSM_FORCE_C_MAX 24        /* CUZK_MSM_WINDOW's: 2^23 buckets */
#define CUDA_MSM_C22_FROM 94906266u    /* G1 full scalars from which c = 22: ~2^26.5 */
#define CUDA_MSM_G2_C21_FROM 94906266u /* G2 full scalars from which c = 21: ~2^26.5 */
#define CUDA_MSM_SEGS 65536            /* bucket-reduction threads per window group */

typedef enum cuda_curve { CUDA_CURVE_G1 = 0, CUDA_CURVE_G2 = 1 } cuda_curve;

/* How the light bins are summed: a thread per bin in XYZZ, or in affine
 * coordinates by pairwise rounds with one inversion a block a round
 * (msm_pairs.cuh). CUZK_MSM_BINS=xyzz|affine picks one for a plan;
 * CUZK_MSM_PAIR_ROUNDS (1..8) and CUZK_MSM_PAIR_CHUNK (entries) tune the
 * rounds. */
typedef enum cuda_msm_bins { CUDA_MSM_BINS_XYZZ = 0, CUDA_MSM_BINS_AFFINE = 1 } cuda_msm_bins;
#define CUDA_MSM_BINS_DEFAULT_G1 CUDA_MSM_BINS_XYZZ
#define CUDA_MSM_BINS_DEFAULT_G2 CUDA_MSM_BINS_XYZZ
#define CUDA_MSM_PAIR_ROUNDS 3            /* affine rounds, then XYZZ chains */
#define CUDA_MSM_PAIR_ROUNDS_MAX 8        /* CUZK_MSM_PAIR_ROUNDS at most */
#define CUDA_MSM_PAIR_CHUNK_G1 (1u << 23) /* entries a chunk of the rounds */
#define CUDA_MSM_PAIR_CHUNK_G2 (1u << 22)

/* The order in which the XYZZ kernel's threads take the light bins: by
 * index, or by size, largest first, so that a warp's lanes sum bins of one
 * size (msm_common.cuh). CUZK_MSM_ORDER=index|size picks one for a plan. */
typedef enum cuda_msm_order { CUDA_MSM_ORDER_INDEX = 0, CUDA_MSM_ORDER_SIZE = 1 } cuda_msm_order;
#define CUDA_MSM_ORDER_DEFAULT CUDA_MSM_ORDER_SIZE

/* How many segments a window's buckets are reduced in: the largest power
 * of two that fits CUDA_MSM_SEGS, or as many as the segments kernel holds
 * resident at once (one wave; the last segment shorter). The reduction's
 * threads are all equal, so a second wave of a few of them costs as much
 * as the first (13 G1 windows at 2^24: 1.05 waves). One wave: G2 2^24 -2.8%,
 * G1 2^24 -1.4%, the reduction at G1 2^27 -11% (H100 and H200, stop 35).
 * CUZK_MSM_SEGS=pow2|wave picks one for a plan. */
typedef enum cuda_msm_segs { CUDA_MSM_SEGS_POW2 = 0, CUDA_MSM_SEGS_WAVE = 1 } cuda_msm_segs;
#define CUDA_MSM_SEGS_DEFAULT CUDA_MSM_SEGS_WAVE

/* How a group's entries are put in bin order: by atomic cursors after a
 * histogram, each entry a 4-byte store at a random place (a DRAM sector
 * read and written for each: the scatter was 64 of G1 2^26's 451 ms on the
 * H100), or window by window by a stable radix sort (CUB) of the window's
 * (bin and sign, point) pairs, whose passes read and write in runs, the
 * bins' offsets found in the sorted keys (no histogram) and the entries
 * then packed in place. The keys of a group's windows wait in the entries'
 * buffer (window j at j n: its entries, packed, end at or before j n + n);
 * the sort takes 12 bytes an n_max point more (the keys' second buffer,
 * two for the points) and CUB's scratch. The sort: G1 2^24 -11.9%, 2^26
 * -9.9%, 2^27 -8.3%, G2 2^24 -3.2%, plans +7..+20% (H100, stop 37).
 * CUZK_MSM_SCATTER=atomic|sort picks one for a plan. */
typedef enum cuda_msm_scatter {
    CUDA_MSM_SCATTER_ATOMIC = 0,
    CUDA_MSM_SCATTER_SORT = 1
} cuda_msm_scatter;
#define CUDA_MSM_SCATTER_DEFAULT CUDA_MSM_SCATTER_SORT

/* How the ones' list (one heavy bin) is cut (CUZK_MSM_ONES = pieces,
 * wave): into CUDA_MSM_PIECE-entry pieces as the windows' heavy bins, or
 * into one piece per resident block of the pieces kernel (MK(ones_piece)).
 * Pieces stay the default until the GPU has measured the wave. */
typedef enum cuda_msm_ones { CUDA_MSM_ONES_PIECES = 0, CUDA_MSM_ONES_WAVE = 1 } cuda_msm_ones;
#define CUDA_MSM_ONES_DEFAULT CUDA_MSM_ONES_WAVE

/* A contiguous run of sorted entries summed by one block. */
typedef struct cuda_msm_job {
    uint32_t first, count;
} cuda_msm_job_t;

/* count xyzz sums from src[first..] added into dst[target]. */
typedef struct cuda_msm_range {
    uint32_t first, count, target;
} cuda_msm_range_t;

/* The sizes a plan was made for (host side, from cuda_msm_shape). */
typedef struct cuda_msm_shape {
    unsigned c;       /* window bits */
    unsigned windows; /* ceil(256 / c) */
    unsigned group;   /* windows per group */
    size_t bins;      /* group x 2^(c-1) */
    size_t entries;   /* sorted entries per group, at most n x group */
    unsigned segs;    /* bucket-reduction segments per window */
} cuda_msm_shape_t;

typedef struct cuda_msm_plan {
    cuda_curve curve;
    size_t n_max;
    size_t scratch_limit;  /* bound on the sorted entries and buckets, bytes */
    unsigned c_force;      /* window bits from CUZK_MSM_WINDOW (0: the model's) */
    cuda_msm_shape_t max;  /* the largest shape its buffers hold */
    cuda_msm_shape_t last; /* the shape of the last call */
    size_t jobs_max, heavy_max;
    size_t bytes;             /* device bytes it holds */
    int carved;               /* its buffers lie in the caller's memory (cuda_msm_plan_init_in) */
    int sms;                  /* multiprocessors, for grid-stride grids */
    uint32_t medium_fill;     /* medium bins from which a thread each sums them */
    cuda_msm_bins bins;       /* how light bins are summed */
    cuda_msm_order order;     /* which light bin an XYZZ thread takes */
    cuda_msm_segs seg_mode;   /* how many reduction segments a window gets */
    uint32_t seg_wave;        /* segments-kernel threads resident at once (0: not asked yet) */
    cuda_msm_ones ones;       /* how the ones' list is cut */
    uint32_t piece_wave;      /* pieces-kernel blocks resident at once (0: not asked yet) */
    cuda_msm_scatter scatter; /* how a group's entries get in bin order */
    uint32_t pair_rounds;     /* CUDA_MSM_BINS_AFFINE: rounds */
    uint32_t pair_chunk;      /* ... entries a chunk */
    cuda_msm_trace_t *trace;  /* CUZK_MSM_TRACE, else NULL */
    /* device */
    dfr_t *k; /* canonical full scalars, n_max */
    uint32_t *full_idx, *ones_idx;
    uint32_t *bin_count, *bin_off, *cursor, *tile_sums;
    uint32_t *sorted;
    /* CUDA_MSM_SCATTER_SORT, n_max each: the keys' second buffer (the
     * first is in `sorted`), the points and their second buffer; CUB's
     * scratch */
    uint32_t *keys_alt, *vals, *vals_alt;
    void *sort_tmp;
    size_t sort_tmp_bytes;
    /* CUDA_MSM_BINS_AFFINE: the rounds' list starts (pair_rounds x (bins
     * + 1)), chunk starts, lists of odd and even rounds (affine points) */
    uint32_t *pair_scan, *pair_cs;
    void *pair_a, *pair_b;
    void *buckets, *pieces, *segs, *wins; /* XYZZ points */
    void *wins_jac;                       /* Jacobian, windows + 1 */
    cuda_msm_job_t *jobs;
    cuda_msm_range_t *ranges;
    uint32_t *med; /* the medium bins of a group */
    uint32_t *ctl; /* counters, CUDA_MSM_CTL_N */
    /* pinned host */
    uint32_t *ctl_host;
    void *jac_host;
} cuda_msm_plan_t;

/* Window size, window count and group for n full scalars whose group's
 * entries and buckets fit scratch_limit (0: 2 GiB, or 2.25 GiB where that
 * saves a group). c_force (0: the cost model's) sets the window bits,
 * fewer where one window would not fit. */
cuda_msm_shape_t cuda_msm_shape(cuda_curve curve, size_t n, size_t scratch_limit, unsigned c_force);

/* The shape for n under a plan's buffers (bins_cap, entries_cap): fewer
 * windows per group, or smaller windows, when they would not fit. */
cuda_msm_shape_t cuda_msm_shape_fit(cuda_msm_shape_t sh, size_t n, size_t bins_cap,
                                    size_t entries_cap);
cuda_msm_shape_t cuda_msm_shape_finish(cuda_msm_shape_t sh, size_t n);
size_t cuda_msm_xyzz_bytes(cuda_curve curve);
size_t cuda_msm_aff_bytes(cuda_curve curve);

/* Points the affine rounds' lists of round r >= 1 hold at most, for a
 * chunk of `chunk` entries (msm_pairs.cuh says why). */
static inline __host__ __device__ size_t cuda_msm_pair_cap(uint32_t chunk, uint32_t r)
{
    size_t c = (size_t)chunk + CUDA_MSM_HEAVY;
    for (uint32_t i = 0; i < r; i++)
        c = c * 2 / 3;
    return c + 1;
}
size_t cuda_msm_jac_bytes(cuda_curve curve);

/* Device bytes a plan for n_max points takes. scratch_limit bounds the
 * sorted entries plus buckets of one window group (0: CUZK_MSM_SCRATCH
 * MiB if set, else 2 GiB). */
size_t cuda_msm_plan_bytes(cuda_curve curve, size_t n_max, size_t scratch_limit);

/* Allocates on the current device. CUZK_ERR_CUDA (out of memory included)
 * with the plan left empty; CUZK_ERR_ARG for n_max >= 2^31. */
cuzk_status cuda_msm_plan_init(cuda_msm_plan_t *p, cuda_curve curve, size_t n_max,
                               size_t scratch_limit, cuzk_error_t *err);
/* The same plan with its device buffers carved from the caller's mem
 * (bytes long, at least cuda_msm_plan_bytes of the same arguments):
 * scratch that is free while the plan's calls run, such as a vector of
 * another stage. Nothing on the device is allocated or written here, and
 * each call writes every buffer before it reads it, so mem may serve
 * other work between calls. CUZK_ERR_ARG when mem is NULL or too small. */
cuzk_status cuda_msm_plan_init_in(cuda_msm_plan_t *p, cuda_curve curve, size_t n_max,
                                  size_t scratch_limit, void *mem, size_t bytes, cuzk_error_t *err);
/* Frees what init allocated (a carved plan's memory stays the caller's). */
void cuda_msm_plan_free(cuda_msm_plan_t *p);

/* n <= p->n_max; bases: n affine points (infinity as (0, 0)); scalars: n
 * Montgomery Fr, fully reduced. */
cuzk_status cuda_msm_g1(cuzk_host::g1_jac_t *out, cuda_msm_plan_t *p, const dg1_affine_t *bases,
                        const dfr_t *scalars, size_t n, cudaStream_t s, cuzk_error_t *err);
cuzk_status cuda_msm_g2(cuzk_host::g2_jac_t *out, cuda_msm_plan_t *p, const dg2_affine_t *bases,
                        const dfr_t *scalars, size_t n, cudaStream_t s, cuzk_error_t *err);

/* The affine rounds alone over host arrays (the debug check behind
 * cuzk_cuda_msm_bins_check, which validates the arguments): on the host
 * (its blocks and threads in turn) or on the device (on stream s); chunks
 * of `chunk` entries, `rounds` rounds; out: per bin, a Jacobian point of
 * the curve. */
cuzk_status cuda_msm_g1_bins_check(int on_device, cudaStream_t s, void *out, uint8_t *kind,
                                   const void *bases, size_t nbases, const uint32_t *sorted,
                                   const uint32_t *off, uint32_t nbins, uint32_t medium,
                                   uint32_t chunk, uint32_t rounds, cuzk_error_t *err);
cuzk_status cuda_msm_g2_bins_check(int on_device, cudaStream_t s, void *out, uint8_t *kind,
                                   const void *bases, size_t nbases, const uint32_t *sorted,
                                   const uint32_t *off, uint32_t nbins, uint32_t medium,
                                   uint32_t chunk, uint32_t rounds, cuzk_error_t *err);

/* Bases from a host key (msm.h's formats) into device affine points:
 * copies n records to dst and decodes them there (ZCASH: big-endian, flags,
 * to Montgomery; a coordinate >= p becomes 0, as on the CPU). The host
 * memory must stay valid until the stream passes this point. */
cuzk_status cuda_bases_upload_g1(dg1_affine_t *dst, const cuzk_host::msm_bases_t *src, size_t n,
                                 cudaStream_t s, cuzk_error_t *err);
cuzk_status cuda_bases_upload_g2(dg2_affine_t *dst, const cuzk_host::msm_bases_t *src, size_t n,
                                 cudaStream_t s, cuzk_error_t *err);
/* The decoding step alone, in place, for n records of format fmt already
 * copied to dst (G2 when g2): nothing to do unless fmt is ZCASH. */
cuzk_status cuda_bases_decode(void *dst, size_t n, int g2, cuzk_host::msm_base_format fmt,
                              cudaStream_t s, cuzk_error_t *err);

#endif
