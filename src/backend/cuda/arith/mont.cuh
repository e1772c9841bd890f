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

#include "backend/cuda/arith/ptx.cuh"

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

/* out = a + b - m2 if a + b >= m2, else a + b, for a, b < m2 where m2 <
 * 2^(32N) but a + b may carry out of the top limb (Fr's [0, 2r): 2r >
 * 2^255): a carry means a + b >= 2^(32N) > m2, and the N-limb difference
 * is then exact. */
template <int N>
CUZK_HD void dmont_add_carry(uint32_t *out, const uint32_t *a, const uint32_t *b,
                             const uint32_t *m2)
{
    uint32_t s[N], d[N];
    s[0] = ptx_add_cc(a[0], b[0]);
    CUZK_UNROLL
    for (int j = 1; j < N; j++)
        s[j] = ptx_addc_cc(a[j], b[j]);
    uint32_t carry = ptx_addc(0, 0);
    d[0] = ptx_sub_cc(s[0], m2[0]);
    CUZK_UNROLL
    for (int j = 1; j < N; j++)
        d[j] = ptx_subc_cc(s[j], m2[j]);
    /* all ones when s < m2 without a carry: then s stays */
    uint32_t keep_s = ptx_subc(0, 0) & (carry - 1u);
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        out[j] = (s[j] & keep_s) | (d[j] & ~keep_s);
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
 * adds (Fp: 611), then one conditional subtraction. The reference for
 * dmont_mul_eo below (CUZK_MONT_EO=0 selects it for A/B runs). */
template <int N>
CUZK_HD void dmont_mul_cios(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
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

/* ---- CIOS with even/odd accumulators --------------------------------------
 *
 * The same rows as dmont_mul_cios, with the running sum T kept as two
 * arrays, T = X + W Y (W = 2^32; X[k] weighs W^k, Y[k] weighs W^(k+1)):
 * the products of the even limbs of a (and of m) go to X as whole 64-bit
 * pairs (X[j], X[j+1]), those of the odd limbs to Y's pairs. Each chain is
 * then lo, hi, lo, hi ... over consecutive words, one carry per word, so
 * a multiply-add of a 64-bit product is one chain step pair instead of a
 * lo chain and a hi chain whose carries must be fixed up separately.
 *
 * Dividing by W after a row's reduction (X[0] = 0) swaps the roles: the
 * new X is Y, the new Y is X moved down two words (X[k+2] now weighs
 * W^(k+1): renaming, no instructions), and X[1], which now weighs W^0, is
 * added into the new X[0] with its carry going into the new Y[0] (which
 * weighs W^1) as the first step of the next row's Y chain.
 *
 * Bounds: each row's T < 2 m W < W^(N+1) (m < W^N / 2, CIOS's t < 2m), and
 * X and Y are parts of sums of non-negative terms, so W Y <= T: Y never
 * carries out of Y[N-1] (those chain ends drop a carry that is always 0),
 * while X may: its chains end by adding their carry into Y[N-1], which
 * weighs the same W^N. N must be even. */

/* y += q (odd limbs of m) as pairs, x += q (even limbs), x's carry into y's
 * top: afterwards x[0] = 0 (q = x[0] n0). */
template <int N>
CUZK_HD void dmont_eo_reduce(uint32_t *x, uint32_t *y, const uint32_t *m, uint32_t n0)
{
    uint32_t q = x[0] * n0;
    y[0] = ptx_mad_lo_cc(m[1], q, y[0]);
    y[1] = ptx_madc_hi_cc(m[1], q, y[1]);
    CUZK_UNROLL
    for (int j = 2; j < N - 2; j += 2) {
        y[j] = ptx_madc_lo_cc(m[j + 1], q, y[j]);
        y[j + 1] = ptx_madc_hi_cc(m[j + 1], q, y[j + 1]);
    }
    y[N - 2] = ptx_madc_lo_cc(m[N - 1], q, y[N - 2]);
    y[N - 1] = ptx_madc_hi(m[N - 1], q, y[N - 1]);
    x[0] = ptx_mad_lo_cc(m[0], q, x[0]);
    x[1] = ptx_madc_hi_cc(m[0], q, x[1]);
    CUZK_UNROLL
    for (int j = 2; j < N; j += 2) {
        x[j] = ptx_madc_lo_cc(m[j], q, x[j]);
        x[j + 1] = ptx_madc_hi_cc(m[j], q, x[j + 1]);
    }
    y[N - 1] = ptx_addc(y[N - 1], 0);
}

template <int N, bool Full = true>
CUZK_HD void dmont_mul_eo(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                          uint32_t n0)
{
    uint32_t x[N], y[N];
    /* row 0: products only (a 64-bit product never carries) */
    CUZK_UNROLL
    for (int j = 0; j < N; j += 2) {
        uint64_t px = (uint64_t)a[j] * b[0], py = (uint64_t)a[j + 1] * b[0];
        x[j] = (uint32_t)px;
        x[j + 1] = (uint32_t)(px >> 32);
        y[j] = (uint32_t)py;
        y[j + 1] = (uint32_t)(py >> 32);
    }
    dmont_eo_reduce<N>(x, y, m, n0);
    CUZK_UNROLL
    for (int i = 1; i < N; i++) {
        uint32_t nx[N], ny[N];
        /* divide by W: nx = y + x[1], ny = x[2..] (+ the carry), then
         * ny += b_i (odd limbs of a) in the same chain */
        nx[0] = ptx_add_cc(y[0], x[1]);
        CUZK_UNROLL
        for (int j = 1; j < N - 1; j += 2) {
            ny[j - 1] = ptx_madc_lo_cc(a[j], b[i], x[j + 1]);
            ny[j] = ptx_madc_hi_cc(a[j], b[i], x[j + 2]);
        }
        ny[N - 2] = ptx_madc_lo_cc(a[N - 1], b[i], 0);
        ny[N - 1] = ptx_madc_hi(a[N - 1], b[i], 0);
        CUZK_UNROLL
        for (int j = 1; j < N; j++)
            nx[j] = y[j];
        /* nx += b_i (even limbs of a) */
        nx[0] = ptx_mad_lo_cc(a[0], b[i], nx[0]);
        nx[1] = ptx_madc_hi_cc(a[0], b[i], nx[1]);
        CUZK_UNROLL
        for (int j = 2; j < N; j += 2) {
            nx[j] = ptx_madc_lo_cc(a[j], b[i], nx[j]);
            nx[j + 1] = ptx_madc_hi_cc(a[j], b[i], nx[j + 1]);
        }
        ny[N - 1] = ptx_addc(ny[N - 1], 0);
        CUZK_UNROLL
        for (int j = 0; j < N; j++) {
            x[j] = nx[j];
            y[j] = ny[j];
        }
        dmont_eo_reduce<N>(x, y, m, n0);
    }
    /* the last division by W: r = y + x[1..] */
    uint32_t r[N];
    r[0] = ptx_add_cc(y[0], x[1]);
    CUZK_UNROLL
    for (int k = 1; k < N - 1; k++)
        r[k] = ptx_addc_cc(y[k], x[k + 1]);
    r[N - 1] = ptx_addc(y[N - 1], 0);
    if (Full) {
        dmont_reduce_once<N>(out, r, m);
    } else {
        CUZK_UNROLL
        for (int k = 0; k < N; k++)
            out[k] = r[k];
    }
}

/* out = a b / 2^(32N) mod m in [0, 2m), without the final conditional
 * subtraction, for a, b < 2m and 4m < 2^(32N) (Fp: p < 2^381): each row
 * keeps T < a + m < 3m, so T + a b_i + q m < 3 m W < W^(N+1) as the even/odd
 * chains need, and the result (a b + Q m) / R < 4 m^2 / R + m < 2m. Or for
 * a < m and any b (Fr, 4r > 2^256): T < a + m < 2m as for reduced inputs,
 * and the result < m (b / R + 1) < 2m. */
template <int N>
CUZK_HD void dmont_mul_lazy(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                            uint32_t n0)
{
    dmont_mul_eo<N, false>(out, a, b, m, n0);
}

/* ---- products and reduction apart ---------------------------------------
 *
 * For a sum of products reduced once (Fp2's Karatsuba: three products,
 * two reductions) and for a squaring (each cross product computed once).
 * A wide value is 2N words, little-endian. */

/* p = a b, 2N words: schoolbook rows, each a lo chain and a hi chain as
 * in dmont_mul_cios (2N IMADs a row, 2 N^2 in all); no row carries out,
 * as the partial sum of rows 0..i is < W^(i+N+1). */
template <int N> CUZK_HD void dmont_mul_wide_rows(uint32_t *p, const uint32_t *a, const uint32_t *b)
{
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        p[j] = a[j] * b[0];
    p[1] = ptx_mad_hi_cc(a[0], b[0], p[1]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        p[j + 1] = ptx_madc_hi_cc(a[j], b[0], p[j + 1]);
    p[N] = ptx_madc_hi(a[N - 1], b[0], 0);
    CUZK_UNROLL
    for (int i = 1; i < N; i++) {
        p[i] = ptx_mad_lo_cc(a[0], b[i], p[i]);
        CUZK_UNROLL
        for (int j = 1; j < N; j++)
            p[i + j] = ptx_madc_lo_cc(a[j], b[i], p[i + j]);
        p[i + N] = ptx_addc(0, 0);
        p[i + 1] = ptx_mad_hi_cc(a[0], b[i], p[i + 1]);
        CUZK_UNROLL
        for (int j = 1; j < N - 1; j++)
            p[i + j + 1] = ptx_madc_hi_cc(a[j], b[i], p[i + j + 1]);
        p[i + N] = ptx_madc_hi(a[N - 1], b[i], p[i + N]);
    }
}

/* ---- aligned even/odd accumulators for the wide forms --------------------
 *
 * A wide product or square keeps two accumulators: E takes the 64-bit
 * products at even words (i + j even, words i + j and i + j + 1), O those
 * at odd words (O[i + j - 1], O[m] weighing W^(m+1)), so that every product
 * lands on an aligned register pair and is one wide multiply-add. (Splitting
 * by a's limb parity instead put odd rows' pairs on odd words: ~240
 * register moves a wide Fp product in SASS.) */

/* acc[k + j] and acc[k + j + 1] += x y_j as 64-bit pairs for j = j0, j0 + 2,
 * ... < N, in one carry chain whose carry goes into the word after the
 * last pair (when it is below LEN). Rows in order of i (k = i for E, i - 1
 * for O) alternate in parity, so that word is one no pair has touched yet,
 * holding 0 or the row before's carry: it stays <= 2 and never carries on;
 * past LEN the carry is 0 (the whole value is < W^(2N)). */
template <int N, int LEN>
CUZK_HD void dmont_pair_chain(uint32_t *acc, uint32_t x, const uint32_t *y, int j0, int k)
{
    acc[k + j0] = ptx_mad_lo_cc(x, y[j0], acc[k + j0]);
    acc[k + j0 + 1] = ptx_madc_hi_cc(x, y[j0], acc[k + j0 + 1]);
    CUZK_UNROLL
    for (int j = j0 + 2; j < N; j += 2) {
        acc[k + j] = ptx_madc_lo_cc(x, y[j], acc[k + j]);
        acc[k + j + 1] = ptx_madc_hi_cc(x, y[j], acc[k + j + 1]);
    }
    const int c = k + j0 + ((N - 1 - j0) & ~1) + 2; /* after the last pair */
    if (c < LEN)
        acc[c] = ptx_addc(acc[c], 0);
}

template <int N> CUZK_HD void dmont_eo_zero(uint32_t *e, uint32_t *o)
{
    CUZK_UNROLL
    for (int k = 0; k < 2 * N; k++)
        e[k] = 0;
    CUZK_UNROLL
    for (int k = 0; k < 2 * N - 1; k++)
        o[k] = 0;
}

/* p = E + W O, 2N words (2N - 1 adds). */
template <int N> CUZK_HD void dmont_eo_join(uint32_t *p, const uint32_t *e, const uint32_t *o)
{
    p[0] = e[0];
    p[1] = ptx_add_cc(e[1], o[0]);
    CUZK_UNROLL
    for (int k = 2; k < 2 * N - 1; k++)
        p[k] = ptx_addc_cc(e[k], o[k - 1]);
    p[2 * N - 1] = ptx_addc(e[2 * N - 1], o[2 * N - 2]);
}

/* p = a b, 2N words: row i's products a_j b_i as one chain in E (j of
 * i's parity) and one in O. N even. */
template <int N> CUZK_HD void dmont_mul_wide_eo(uint32_t *p, const uint32_t *a, const uint32_t *b)
{
    uint32_t e[2 * N], o[2 * N - 1];
    dmont_eo_zero<N>(e, o);
    CUZK_UNROLL
    for (int j = 0; j < N; j += 2) { /* row 0: products only */
        uint64_t pe = (uint64_t)a[j] * b[0], po = (uint64_t)a[j + 1] * b[0];
        e[j] = (uint32_t)pe;
        e[j + 1] = (uint32_t)(pe >> 32);
        o[j] = (uint32_t)po;
        o[j + 1] = (uint32_t)(po >> 32);
    }
    CUZK_UNROLL
    for (int i = 1; i < N; i++) {
        const int je = i & 1; /* the first j with i + j even */
        dmont_pair_chain<N, 2 * N>(e, b[i], a, je, i);
        dmont_pair_chain<N, 2 * N - 1>(o, b[i], a, 1 - je, i - 1);
    }
    dmont_eo_join<N>(p, e, o);
}

/* p = a^2, 2N words: the N(N-1)/2 cross products once (row i from a_i
 * a_(i+1) on: its chains end where a product's row i ends, so the same
 * carry words hold), their sum doubled by a one-bit shift (it is < W^(2N)
 * / 2), then the squares a_i^2 added in one chain of aligned pairs:
 * N(N+1)/2 wide multiply-adds where a product takes N^2 (Fp: 78 against
 * 144; with the REDC 613 slots against 663 for dmont_mul,
 * tools/sass_ops.sh). N even. */
template <int N> CUZK_HD void dmont_sqr_wide(uint32_t *p, const uint32_t *a)
{
    uint32_t e[2 * N], o[2 * N - 1], s[2 * N];
    dmont_eo_zero<N>(e, o);
    CUZK_UNROLL
    for (int i = 0; i < N - 1; i++) {
        dmont_pair_chain<N, 2 * N - 1>(o, a[i], a, i + 1, i - 1);
        if (i + 2 < N)
            dmont_pair_chain<N, 2 * N>(e, a[i], a, i + 2, i);
    }
    dmont_eo_join<N>(s, e, o); /* the cross sum */
    CUZK_UNROLL
    for (int k = 2 * N - 1; k > 0; k--)
        s[k] = (s[k] << 1) | (s[k - 1] >> 31);
    s[0] <<= 1;
    p[0] = ptx_mad_lo_cc(a[0], a[0], s[0]);
    p[1] = ptx_madc_hi_cc(a[0], a[0], s[1]);
    CUZK_UNROLL
    for (int i = 1; i < N - 1; i++) {
        p[2 * i] = ptx_madc_lo_cc(a[i], a[i], s[2 * i]);
        p[2 * i + 1] = ptx_madc_hi_cc(a[i], a[i], s[2 * i + 1]);
    }
    p[2 * N - 2] = ptx_madc_lo_cc(a[N - 1], a[N - 1], s[2 * N - 2]);
    p[2 * N - 1] = ptx_madc_hi(a[N - 1], a[N - 1], s[2 * N - 1]);
}

/* out = t / 2^(32N) mod m for a wide t < m 2^(32N), fully reduced.
 * Montgomery's REDC over the low half, a word a row (dmont_reduce_row):
 * with Q the multiple of m that clears it, (t_lo + Q m) / 2^(32N) <= m,
 * then the high half (< m) is added: the sum is < 2m, one subtraction. */
template <int N>
CUZK_HD void dmont_redc_wide_rows(uint32_t *out, const uint32_t *t, const uint32_t *m, uint32_t n0)
{
    uint32_t r[N + 1];
    CUZK_UNROLL
    for (int j = 0; j < N; j++)
        r[j] = t[j];
    CUZK_UNROLL
    for (int i = 0; i < N; i++) {
        r[N] = 0;
        dmont_reduce_row<N>(r, m, n0);
    }
    r[0] = ptx_add_cc(r[0], t[N]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        r[j] = ptx_addc_cc(r[j], t[N + j]);
    r[N - 1] = ptx_addc(r[N - 1], t[2 * N - 1]);
    dmont_reduce_once<N>(out, r, m);
}

/* dmont_redc_wide with even/odd accumulators: x = the low half, y = 0,
 * then N rows of dmont_eo_reduce, each division by W merged into the next
 * row as in dmont_mul_eo (the shifted x words take the place of the
 * products there: the odd chain adds them), then the high half. The same
 * bounds as dmont_mul_eo: every intermediate sum is < W^(N+1). N even. */
template <int N, bool Full = true>
CUZK_HD void dmont_redc_wide_eo(uint32_t *out, const uint32_t *t, const uint32_t *m, uint32_t n0)
{
    uint32_t x[N], y[N];
    CUZK_UNROLL
    for (int j = 0; j < N; j++) {
        x[j] = t[j];
        y[j] = 0;
    }
    dmont_eo_reduce<N>(x, y, m, n0);
    CUZK_UNROLL
    for (int i = 1; i < N; i++) {
        uint32_t nx[N], ny[N];
        /* divide by W: nx = y + x[1] (its carry into ny[0]); the new word 0
         * decides q; ny = x[2..] + q (odd limbs of m) in one chain */
        nx[0] = ptx_add_cc(y[0], x[1]);
        uint32_t q = nx[0] * n0;
        CUZK_UNROLL
        for (int j = 1; j < N - 1; j += 2) {
            ny[j - 1] = ptx_madc_lo_cc(m[j], q, x[j + 1]);
            ny[j] = ptx_madc_hi_cc(m[j], q, x[j + 2]);
        }
        ny[N - 2] = ptx_madc_lo_cc(m[N - 1], q, 0);
        ny[N - 1] = ptx_madc_hi(m[N - 1], q, 0);
        CUZK_UNROLL
        for (int j = 1; j < N; j++)
            nx[j] = y[j];
        /* nx += q (even limbs of m): word 0 becomes 0, the carry into ny's top */
        nx[0] = ptx_mad_lo_cc(m[0], q, nx[0]);
        nx[1] = ptx_madc_hi_cc(m[0], q, nx[1]);
        CUZK_UNROLL
        for (int j = 2; j < N; j += 2) {
            nx[j] = ptx_madc_lo_cc(m[j], q, nx[j]);
            nx[j + 1] = ptx_madc_hi_cc(m[j], q, nx[j + 1]);
        }
        ny[N - 1] = ptx_addc(ny[N - 1], 0);
        CUZK_UNROLL
        for (int j = 0; j < N; j++) {
            x[j] = nx[j];
            y[j] = ny[j];
        }
    }
    /* the last division by W (<= m), then the high half (< m): < 2m */
    uint32_t r[N];
    r[0] = ptx_add_cc(y[0], x[1]);
    CUZK_UNROLL
    for (int k = 1; k < N - 1; k++)
        r[k] = ptx_addc_cc(y[k], x[k + 1]);
    r[N - 1] = ptx_addc(y[N - 1], 0);
    r[0] = ptx_add_cc(r[0], t[N]);
    CUZK_UNROLL
    for (int j = 1; j < N - 1; j++)
        r[j] = ptx_addc_cc(r[j], t[N + j]);
    r[N - 1] = ptx_addc(r[N - 1], t[2 * N - 1]);
    if (Full) {
        dmont_reduce_once<N>(out, r, m);
    } else {
        CUZK_UNROLL
        for (int k = 0; k < N; k++)
            out[k] = r[k];
    }
}

/* out = a + b over K words, the carry out of the top dropped (callers
 * know it is 0). */
template <int K> CUZK_HD void dwide_add(uint32_t *out, const uint32_t *a, const uint32_t *b)
{
    out[0] = ptx_add_cc(a[0], b[0]);
    CUZK_UNROLL
    for (int j = 1; j < K - 1; j++)
        out[j] = ptx_addc_cc(a[j], b[j]);
    out[K - 1] = ptx_addc(a[K - 1], b[K - 1]);
}

/* out = a - b over K words; returns all ones when it borrowed (a < b). */
template <int K> CUZK_HD uint32_t dwide_sub(uint32_t *out, const uint32_t *a, const uint32_t *b)
{
    out[0] = ptx_sub_cc(a[0], b[0]);
    CUZK_UNROLL
    for (int j = 1; j < K; j++)
        out[j] = ptx_subc_cc(a[j], b[j]);
    return ptx_subc(0, 0);
}

#ifndef CUZK_MONT_EO
#define CUZK_MONT_EO 1
#endif

/* The wide product and REDC the lazy forms use: even/odd chains unless
 * CUZK_MONT_EO=0 (A/B runs). */
template <int N> CUZK_HD void dmont_mul_wide(uint32_t *p, const uint32_t *a, const uint32_t *b)
{
#if CUZK_MONT_EO
    dmont_mul_wide_eo<N>(p, a, b);
#else
    dmont_mul_wide_rows<N>(p, a, b);
#endif
}

template <int N>
CUZK_HD void dmont_redc_wide(uint32_t *out, const uint32_t *t, const uint32_t *m, uint32_t n0)
{
#if CUZK_MONT_EO
    dmont_redc_wide_eo<N>(out, t, m, n0);
#else
    dmont_redc_wide_rows<N>(out, t, m, n0);
#endif
}

/* out = a^2 / 2^(32N) mod m. */
template <int N>
CUZK_HD void dmont_sqr(uint32_t *out, const uint32_t *a, const uint32_t *m, uint32_t n0)
{
    uint32_t p[2 * N];
    dmont_sqr_wide<N>(p, a);
    dmont_redc_wide<N>(out, p, m, n0);
}

/* out = a^2 / 2^(32N) mod m in [0, 2m) for a < 2m and 4m < 2^(32N): a^2's
 * high half is < 4 m^2 / 2^(32N) < m, as REDC needs, and the sum it ends
 * with is < 2m without the final subtraction. */
template <int N>
CUZK_HD void dmont_sqr_lazy(uint32_t *out, const uint32_t *a, const uint32_t *m, uint32_t n0)
{
    uint32_t p[2 * N];
    dmont_sqr_wide<N>(p, a);
    dmont_redc_wide_eo<N, false>(out, p, m, n0);
}

template <int N>
CUZK_HD void dmont_mul(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                       uint32_t n0)
{
#if CUZK_MONT_EO
    dmont_mul_eo<N>(out, a, b, m, n0);
#else
    dmont_mul_cios<N>(out, a, b, m, n0);
#endif
}

#endif
