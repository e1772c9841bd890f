/* Self-test of the CUDA device arithmetic (the .cuh headers in src/backend/cuda): runs
 * one field or curve operation elementwise over arrays, on the GPU or in
 * the host emulation of the same device code, so that tests compare it
 * with the host library (tests/test_cuda_arith.c).
 *
 * Defined in libcuzk_cuda (builds with nvcc only). Element types are the
 * host's (fp_t, fr_t, fp2_t, g1_jac_t, g1_affine_t, g2_...): the device
 * types have the same bytes. Rules as in status.h: outputs first, err may
 * be NULL, nothing exits. Reentrant; the device target uses device 0 (the
 * calling thread's current device is restored) and a stream of its own,
 * never the default stream. */
#ifndef CUZK_CUDA_SELFTEST_H
#define CUZK_CUDA_SELFTEST_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the operation runs. */
typedef enum cuzk_cuda_target {
    CUZK_CUDA_TARGET_DEVICE = 0,  /* kernels on CUDA device 0 */
    CUZK_CUDA_TARGET_HOST_EMU = 1 /* the device code compiled for the host, PTX carry
                                     chains emulated (src/backend/cuda/ptx.cuh) */
} cuzk_cuda_target;

/* out[i] = op(a[i], b[i]) for i < n. Types: out <- a, b.
 * "jac" is Jacobian, "aff" affine; XYZZ ops take Jacobian inputs, convert
 * them to XYZZ (X, Y, Z^2, Z^3), operate, and return xyzz_to_jac's result
 * (the same point as the host's, other coordinates). */
typedef enum cuzk_cuda_op {
    CUZK_CUDA_OP_FP_ADD = 0,        /* fp_t <- fp_t, fp_t */
    CUZK_CUDA_OP_FP_SUB,            /* fp_t <- fp_t, fp_t */
    CUZK_CUDA_OP_FP_NEG,            /* fp_t <- fp_t */
    CUZK_CUDA_OP_FP_DBL,            /* fp_t <- fp_t */
    CUZK_CUDA_OP_FP_MUL,            /* fp_t <- fp_t, fp_t */
    CUZK_CUDA_OP_FP_SQR,            /* fp_t <- fp_t */
    CUZK_CUDA_OP_FP_TO_MONT,        /* fp_t <- canonical limbs < p in an fp_t */
    CUZK_CUDA_OP_FP_FROM_MONT,      /* canonical limbs in an fp_t <- fp_t */
    CUZK_CUDA_OP_FP_CMP,            /* uint32_t <- fp_t, fp_t: equal(a, b) | is_zero(a) << 1
                                       | is_one(a) << 2 */
    CUZK_CUDA_OP_FR_ADD,            /* fr_t <- fr_t, fr_t */
    CUZK_CUDA_OP_FR_SUB,            /* fr_t <- fr_t, fr_t */
    CUZK_CUDA_OP_FR_NEG,            /* fr_t <- fr_t */
    CUZK_CUDA_OP_FR_MUL,            /* fr_t <- fr_t, fr_t */
    CUZK_CUDA_OP_FR_SQR,            /* fr_t <- fr_t */
    CUZK_CUDA_OP_FR_TO_MONT,        /* fr_t <- canonical limbs < r in an fr_t */
    CUZK_CUDA_OP_FR_FROM_MONT,      /* canonical limbs in an fr_t <- fr_t */
    CUZK_CUDA_OP_FP2_MUL,           /* fp2_t <- fp2_t, fp2_t */
    CUZK_CUDA_OP_FP2_SQR,           /* fp2_t <- fp2_t */
    CUZK_CUDA_OP_G1_ADD,            /* g1_jac_t <- g1_jac_t, g1_jac_t */
    CUZK_CUDA_OP_G1_ADD_MIXED,      /* g1_jac_t <- g1_jac_t, g1_affine_t */
    CUZK_CUDA_OP_G1_DBL,            /* g1_jac_t <- g1_jac_t */
    CUZK_CUDA_OP_G1_NEG,            /* g1_jac_t <- g1_jac_t */
    CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED, /* g1_jac_t <- g1_jac_t, g1_affine_t (madd-2008-s) */
    CUZK_CUDA_OP_G1_XYZZ_ADD,       /* g1_jac_t <- g1_jac_t, g1_jac_t (add-2008-s) */
    CUZK_CUDA_OP_G1_XYZZ_DBL,       /* g1_jac_t <- g1_jac_t (dbl-2008-s-1) */
    CUZK_CUDA_OP_G2_ADD,            /* g2_jac_t <- g2_jac_t, g2_jac_t */
    CUZK_CUDA_OP_G2_ADD_MIXED,      /* g2_jac_t <- g2_jac_t, g2_affine_t */
    CUZK_CUDA_OP_G2_DBL,            /* g2_jac_t <- g2_jac_t */
    CUZK_CUDA_OP_G2_NEG,            /* g2_jac_t <- g2_jac_t */
    CUZK_CUDA_OP_G2_XYZZ_ADD_MIXED, /* g2_jac_t <- g2_jac_t, g2_affine_t */
    CUZK_CUDA_OP_G2_XYZZ_ADD,       /* g2_jac_t <- g2_jac_t, g2_jac_t */
    CUZK_CUDA_OP_G2_XYZZ_DBL,       /* g2_jac_t <- g2_jac_t */
    CUZK_CUDA_OP_FP_INV,            /* fp_t <- fp_t: a^-1, 0 for 0 (divsteps, inv.cuh) */
    CUZK_CUDA_OP_FP2_INV,           /* fp2_t <- fp2_t: a^-1, 0 for 0 */
    /* The wide product (or square) and REDC apart, the pieces of the lazy
     * forms, whatever the build's CUZK_FP_* knobs: equal to FP_MUL etc. */
    CUZK_CUDA_OP_FP_MUL_WIDE,   /* fp_t <- fp_t, fp_t: redc(a b) */
    CUZK_CUDA_OP_FP_SQR_WIDE,   /* fp_t <- fp_t: redc(a^2), cross products once */
    CUZK_CUDA_OP_FR_MUL_WIDE,   /* fr_t <- fr_t, fr_t: redc(a b) */
    CUZK_CUDA_OP_FP_MUL_F64,    /* fp_t <- fp_t, fp_t: a b on the FP64 pipe (fp_f64.cuh) */
    CUZK_CUDA_OP_FP2_MUL_MIXED, /* fp2_t <- fp2_t, fp2_t: one of three products on FP64 */
    CUZK_CUDA_OP_FP2_SQR_MIXED, /* fp2_t <- fp2_t: one of two products on FP64 */
    /* The [0, 2p) forms (field.cuh), inputs lifted by p when odd, results
     * reduced; all ones when a value left [0, 2p) or a zero test erred. */
    CUZK_CUDA_OP_FP_MUL_LAZY,            /* fp_t <- fp_t, fp_t: a b */
    CUZK_CUDA_OP_FP_SUB_LAZY,            /* fp_t <- fp_t, fp_t: 2a - b */
    CUZK_CUDA_OP_G1_XYZZ_ADD_MIXED_LAZY, /* g1_jac_t <- g1_jac_t, g1_affine_t: a + b + b */
    /* Fr's [0, 2r) forms (the NTT's), b (and a for the sum) lifted by r */
    CUZK_CUDA_OP_FR_MUL_LAZY, /* fr_t <- fr_t, fr_t: a b, a reduced */
    CUZK_CUDA_OP_FR_SUB_LAZY, /* fr_t <- fr_t, fr_t: 2a - b */
    CUZK_CUDA_OP_COUNT
} cuzk_cuda_op;

typedef struct cuzk_cuda_op_info {
    const char *name; /* "fp_mul", also the kernel's: selftest_fp_mul */
    size_t out_size;  /* bytes per element of out */
    size_t a_size;    /* ... of a */
    size_t b_size;    /* ... of b; 0 for unary ops (b is not read) */
} cuzk_cuda_op_info_t;

/* Returns the op's row, or NULL when op is not a cuzk_cuda_op below COUNT. */
const cuzk_cuda_op_info_t *cuzk_cuda_op_info(cuzk_cuda_op op);

/* Runs op over n elements.
 * In: a (n elements), b (n elements; may be NULL for unary ops), n >= 0.
 * Out: out (n elements), every element written; the device target fills
 * its device buffer with 0xff bytes first, so an element a kernel skips
 * comes back as 0xff bytes.
 * Returns CUZK_OK; CUZK_ERR_ARG for an unknown op or target, or n > 0 with
 * out, a or (binary ops) b NULL; CUZK_ERR_NO_DEVICE for the device target
 * without a GPU; CUZK_ERR_CUDA with file:line and the CUDA error in err. */
cuzk_status cuzk_cuda_selftest_run(cuzk_cuda_target target, cuzk_cuda_op op, void *out,
                                   const void *a, const void *b, size_t n, cuzk_error_t *err);

/* The MSM's affine rounds for the light bins (src/backend/cuda/msm/
 * msm_pairs.cuh) alone, on the device or its blocks and threads emulated
 * on the host: bin b (< nbins) holds the points sorted[off[b] .. off[b +
 * 1]) of bases (nbases g1_affine_t, or g2_affine_t when g2; an entry's bit
 * 31 negates it), off ascending. out[b] (g1_jac_t or g2_jac_t) is the sum
 * of each bin the rounds sum and infinity for the others; kind[b] says
 * which: 0 summed, 1 handed to the block kernel (more than `medium`
 * entries), 2 cut into pieces (heavy). chunk (>= 1): the sorted entries a
 * chunk of the rounds starts its bins in; rounds: 1 to 8. CUZK_ERR_ARG for
 * a bad layout, index or count. */
cuzk_status cuzk_cuda_msm_bins_check(cuzk_cuda_target target, int g2, void *out, uint8_t *kind,
                                     const void *bases, size_t nbases, const uint32_t *sorted,
                                     const uint32_t *off, uint32_t nbins, uint32_t medium,
                                     uint32_t chunk, uint32_t rounds, cuzk_error_t *err);

/* Host memory pinned in pieces (src/backend/cuda/host_pin.cuh) on device
 * 0: an allocation of `bytes` and `bytes` of the caller-style heap pinned
 * in place (shared twice, released, pinned again) are filled with a
 * pattern, copied to the device through cuda_copy_h2d in parts that start
 * and end off the piece boundaries (and one whole), copied back and
 * compared byte for byte. Use bytes above CUDA_HOST_PIN_PIECE (256 MiB):
 * the copies then span pieces, which one cudaMemcpyAsync may not do.
 * Returns CUZK_OK; CUZK_ERR_NO_DEVICE without a GPU; CUZK_ERR_NOMEM when
 * the memory cannot be had or pinned; CUZK_ERR_INTERNAL naming the first
 * wrong byte; CUZK_ERR_CUDA. */
cuzk_status cuzk_cuda_host_pin_check(size_t bytes, cuzk_error_t *err);

/* The Fp multiplication's throughput, for a choice between the pipes
 * (src/backend/cuda/arith/fp_f64.cuh). Each thread runs one or two
 * dependent chains x <- x y of Fp multiplications. */
typedef enum cuzk_cuda_fp_method {
    CUZK_CUDA_FP_IMAD = 0, /* one chain of dfp_mul (32-bit IMADs) */
    CUZK_CUDA_FP_IMAD2,    /* two independent dfp_mul chains */
    CUZK_CUDA_FP_F64,      /* one chain of dfp_mul_f64 (FP64 FMAs) */
    CUZK_CUDA_FP_F64_2,    /* two dfp_mul_f64 chains */
    CUZK_CUDA_FP_IMAD_F64, /* one chain of each, from the same start */
    CUZK_CUDA_FP_METHOD_COUNT
} cuzk_cuda_fp_method;

typedef struct cuzk_cuda_fp_rate {
    double ms;              /* the timed launch (median of 3) */
    double muls;            /* multiplications in it */
    double ns_per_mul;      /* ms / muls, the whole device */
    double clk_per_mul_sm;  /* SM clocks per multiplication per SM */
    int sms, blocks_per_sm; /* one wave: sms x blocks_per_sm blocks of 128 */
    int regs;               /* the kernel's registers per thread */
    int mismatches;         /* threads whose two chains differ (IMAD_F64 and the
                               pairs of one kind; 0 for single chains) */
} cuzk_cuda_fp_rate_t;

/* Runs method m for iters multiplications a chain (iters >= 1) over one
 * full wave of device 0, from random reduced inputs. Returns CUZK_OK (a
 * mismatch is reported in out, not as an error: the caller decides);
 * CUZK_ERR_ARG for a bad method or iters; CUZK_ERR_NO_DEVICE;
 * CUZK_ERR_CUDA. */
cuzk_status cuzk_cuda_fp_rate(cuzk_cuda_fp_rate_t *out, cuzk_cuda_fp_method m, int iters,
                              cuzk_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
