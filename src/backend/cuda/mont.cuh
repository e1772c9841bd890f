/* Montgomery arithmetic on N 32-bit limbs, shared by Fp (N = 12) and Fr
 * (N = 8): the device twin of src/field/mont_impl.h. A template over the
 * limb count only, so that every loop unrolls and the limbs stay in
 * registers (a run-time index would move them to local memory).
 *
 * Contract: the modulus m is odd with m < 2^(32N - 1) (Fp's top limb is
 * 0x1a0111ea, Fr's 0x73eda753), inputs are fully reduced (< m), outputs
 * are fully reduced, n0 = -m^-1 mod 2^32. R = 2^(32N) is the host's
 * 2^(64 N/2), so device and host values are the same bytes.
 * Outputs may alias inputs: every function reads all of its input before it
 * writes out. Constant time: no branch depends on the values. */
#ifndef CUZK_CUDA_MONT_CUH
#define CUZK_CUDA_MONT_CUH

#include "backend/cuda/ptx.cuh"

/* out = t - m if t >= m, else t; t < 2m. */
template <int N> CUZK_HD void dmont_reduce_once(uint32_t *out, const uint32_t *t, const uint32_t *m)
{
    uint32_t d[N];
    d[0] = ptx_sub_cc(t[0], m[0]);
    CUZK_UNROLL
    for (int j = 1; j < N; j++)
        d[j] = ptx_subc_cc(t[j], m[j]);
    uint32_t keep_t = ptx_subc(0, 0); /* all ones when t < m (a borrow) */
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        out[j] = (t[j] & keep_t) | (d[j] & ~keep_t);
}

/* a + b < 2m < 2^(32N): no carry out of the top limb. */
template <int N>
CUZK_HD void dmont_add(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m)
{
    uint32_t s[N];
    s[0] = ptx_add_cc(a[0], b[0]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        s[j] = ptx_addc_cc(a[j], b[j]);
    s[N - 1] = ptx_addc(a[N - 1], b[N - 1]);
    dmont_reduce_once<N>(out, s, m);
}

template <int N>
CUZK_HD void dmont_sub(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m)
{
    uint32_t d[N];
    d[0] = ptx_sub_cc(a[0], b[0]);
    CUZK_UNROLL
    for (int j = 1; j < N; j++)
        d[j] = ptx_subc_cc(a[j], b[j]);
    uint32_t add_m = ptx_subc(0, 0); /* all ones when a < b */
    d[0] = ptx_add_cc(d[0], m[0] & add_m);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        d[j] = ptx_addc_cc(d[j], m[j] & add_m);
    d[N - 1] = ptx_addc(d[N - 1], m[N - 1] & add_m); /* the carry out cancels the borrow */
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        out[j] = d[j];
}

template <int N> CUZK_HD int dmont_is_zero(const uint32_t *a)
{
    uint32_t acc = 0;
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        acc |= a[j];
    return acc == 0;
}

template <int N> CUZK_HD int dmont_equal(const uint32_t *a, const uint32_t *b)
{
    uint32_t acc = 0;
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        acc |= a[j] ^ b[j];
    return acc == 0;
}

/* m - a, except that -0 stays 0 (not m). */
template <int N> CUZK_HD void dmont_neg(uint32_t *out, const uint32_t *a, const uint32_t *m)
{
    uint32_t nz = 0u - (uint32_t)!dmont_is_zero<N>(a);
    uint32_t d[N];
    d[0] = ptx_sub_cc(m[0], a[0]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        d[j] = ptx_subc_cc(m[j], a[j]);
    d[N - 1] = ptx_subc(m[N - 1], a[N - 1]);
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        out[j] = d[j] & nz;
}

/* One CIOS reduction step on t[0..N] (value < 2 m W, W = 2^32):
 * t = (t + q m) / W with q = t[0] n0 mod W, so the low word vanishes.
 * The result is < 2m < W^N, so t[N] is free again afterwards. The lo and
 * hi halves of q m go in two carry chains (a word takes one lo and one hi
 * product); the partial sums stay below the final one, < W^(N+1), so
 * neither chain carries out of t[N]: the no-carry condition of gnark-crypto's
 * note "Faster Montgomery multiplication" (2020), m < W^N / 2. 2N IMADs. */
template <int N> CUZK_HD void dmont_reduce_row(uint32_t *t, const uint32_t *m, uint32_t n0)
{
    uint32_t q = t[0] * n0;
    (void)ptx_mad_lo_cc(q, m[0], t[0]); /* 0 by the choice of q: only its carry counts */
    CUZK_UNROLL
    for (int j = 1; j < N; j++)
        t[j] = ptx_madc_lo_cc(q, m[j], t[j]);
    t[N] = ptx_addc(t[N], 0);
    t[1] = ptx_mad_hi_cc(q, m[0], t[1]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        t[j + 1] = ptx_madc_hi_cc(q, m[j], t[j + 1]);
    t[N] = ptx_madc_hi(q, m[N - 1], t[N]);
    CUZK_UNROLL
    for (int j = 0; j < N; j++) /* divide by W: register renaming once unrolled */
        t[j] = t[j + 1];
}

/* out = a b / 2^(32N) mod m: CIOS (Koc, Acar, Kaliski, "Analyzing and
 * comparing Montgomery multiplication algorithms", 1996) on 32-bit words
 * with PTX carry chains. Each row adds a b_i (again lo and hi chains), then
 * reduces one word; t < 2m between rows. 4N^2 + 3N - 1 multiply-adds and
 * adds (Fp: 611), then one conditional subtraction.
 * Tuning left to the performance issue: a separate even/odd accumulator
 * (fewer carry fix-ups) and a dedicated squaring. */
template <int N>
CUZK_HD void dmont_mul(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                       uint32_t n0)
{
    uint32_t t[N + 1];
    /* row 0: t = a b_0 */
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        t[j] = a[j] * b[0];
    t[1] = ptx_mad_hi_cc(a[0], b[0], t[1]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        t[j + 1] = ptx_madc_hi_cc(a[j], b[0], t[j + 1]);
    t[N] = ptx_madc_hi(a[N - 1], b[0], 0);
    dmont_reduce_row<N>(t, m, n0);
    CUZK_UNROLL
    for (int i = 1; i < N; i++) {
        /* t += a b_i; t < 2m on entry, so t[N] starts as 0 */
        t[0] = ptx_mad_lo_cc(a[0], b[i], t[0]);
        CUZK_UNROLL
        for (int j = 1; j < N; j++)
            t[j] = ptx_madc_lo_cc(a[j], b[i], t[j]);
        t[N] = ptx_addc(0, 0);
        t[1] = ptx_mad_hi_cc(a[0], b[i], t[1]);
        CUZK_UNROLL
        for (int j = 1; j < N - 1; j++)
            t[j + 1] = ptx_madc_hi_cc(a[j], b[i], t[j + 1]);
        t[N] = ptx_madc_hi(a[N - 1], b[i], t[N]);
        dmont_reduce_row<N>(t, m, n0);
    }
    dmont_reduce_once<N>(out, t, m);
}

#endif
