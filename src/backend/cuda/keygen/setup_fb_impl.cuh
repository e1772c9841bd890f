/* Fixed-base multiplication of a group generator on the device, written
 * once for G1 and G2 (setup.cuh's cuda_setup_fb_*). The including unit
 * defines
 *   FBK(name)            this instance's names, e.g. fb_g1_##name
 *   EC(name)             the device curve ops (dg1_xxx / dg2_xxx, ec.cuh)
 *   AFF, JAC, F_T        its point types and coordinate field
 *   F_mul, F_sqr, F_is_zero, F_set_one, F_inv
 *   HEC(name), HAFF, HJAC, HGEN
 *                        the host curve (g1_xxx), for the window bases
 * and may define FB_OUTLINE_ADD: the mixed addition as one out-of-line
 * call instead of a copy per use (G2: its ~30 Fp products inlined need
 * more than 255 registers and spill).
 *
 * Method: out = [k] G = sum_w T[w][d_w] over the signed c-bit digits d_w of
 * k (a negative digit adds -T[w][|d_w|], free in affine), so no doublings:
 * ceil(256 / c) mixed Jacobian additions (madd-2007-bl, 7M + 4S) a point,
 * one thread a point. The Jacobian sums go to a scratch buffer, a chunk at
 * a time, and are normalised to affine by threads that each own a strided
 * set of ~64 of them and share one inversion over it (Montgomery's trick:
 * 3M a point plus the 1 / Z^2, 1 / Z^3 products, and 1 / 64 of ~570M).
 * The table is built the same way: run of consecutive digits d B_w, d0 B_w
 * by double-and-add, then + B_w each, B_w = 2^(c w) G made on the host.
 * Results are affine, hence unique: the same bytes as the CPU's. */

/* ---- kernels ------------------------------------------------------------- */

#ifdef FB_OUTLINE_ADD
static __device__ __noinline__ void FBK(add)(JAC *out, const JAC *a, const AFF *b)
#else
static __device__ __forceinline__ void FBK(add)(JAC *out, const JAC *a, const AFF *b)
#endif
{
    EC(add_mixed)(out, a, b);
}

/* out = d b for 0 < d < 2^32: double-and-add from the top bit. */
static __device__ void FBK(small_mul)(JAC *out, const AFF *b, uint32_t d)
{
    JAC acc;
    EC(jac_set_inf)(&acc);
    for (int bit = 31 - __clz(d); bit >= 0; bit--) {
        EC(dbl)(&acc, &acc);
        if ((d >> bit) & 1)
            FBK(add)(&acc, &acc, b);
    }
    *out = acc;
}

/* Table entries e0 + e for e < n (entry g = w per_win + d - 1 is d B_w),
 * Jacobian, into jac[e]; a thread takes `run` consecutive entries. */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    FBK(table_jac)(JAC *__restrict__ jac, const AFF *__restrict__ base, size_t per_win, size_t e0,
                   size_t n, unsigned run)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * run;
    if (first >= n)
        return;
    size_t last = first + run < n ? first + run : n;
    JAC acc;
    for (size_t e = first; e < last; e++) {
        size_t g = e0 + e, w = g / per_win;
        uint32_t d = (uint32_t)(g % per_win) + 1;
        if (e == first || d == 1)
            FBK(small_mul)(&acc, &base[w], d);
        else
            FBK(add)(&acc, &acc, &base[w]);
        jac[e] = acc;
    }
}

/* Signed digit w of the canonical k (c bits from bit w c), given the carry
 * from digit w - 1: in [-2^(c-1), 2^(c-1)]. */
static __device__ __forceinline__ int32_t FBK(digit)(const dfr_t *k, unsigned w, unsigned c,
                                                     uint32_t *carry)
{
    unsigned off = w * c;
    uint32_t raw = *carry;
    if (off < 256) {
        unsigned li = off >> 5, sh = off & 31;
        uint64_t v = k->l[li];
        if (li < 7)
            v |= (uint64_t)k->l[li + 1] << 32;
        raw += (uint32_t)(v >> sh) & ((1u << c) - 1);
    }
    uint32_t half = 1u << (c - 1);
    if (raw > half) {
        *carry = 1;
        return (int32_t)raw - (int32_t)(2 * half);
    }
    *carry = 0;
    return (int32_t)raw;
}

/* jac[i] = [k[j]] G, j = idx ? idx[off + i] : off + i, for i < n. */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    FBK(mul_jac)(JAC *__restrict__ jac, const AFF *__restrict__ table, unsigned c, unsigned n_win,
                 size_t per_win, const dfr_t *__restrict__ k, const uint32_t *__restrict__ idx,
                 size_t off, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t src = off + i;
    dfr_t s = k[idx ? idx[src] : src];
    dfr_from_mont(&s, &s);
    JAC acc;
    EC(jac_set_inf)(&acc);
    uint32_t carry = 0;
    for (unsigned w = 0; w < n_win; w++) {
        int32_t d = FBK(digit)(&s, w, c, &carry);
        if (!d)
            continue;
        AFF p = table[(size_t)w * per_win + (uint32_t)(d < 0 ? -d : d) - 1];
        if (d < 0)
            EC(affine_neg)(&p, &p);
        FBK(add)(&acc, &acc, &p);
    }
    jac[i] = acc;
}

/* out[i] = jac[i] in affine for i < n; thread t of T owns i = t, t + T, ...
 * and inverts the product of their Z once (infinity: Z = 0 is left out of
 * the product and becomes (0, 0)). pre[i]: the product before i. */
static __global__ void __launch_bounds__(SETUP_BLOCK)
    FBK(normalize)(AFF *__restrict__ out, const JAC *__restrict__ jac, F_T *__restrict__ pre,
                   size_t n, size_t T)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T || t >= n)
        return;
    F_T acc;
    F_set_one(&acc);
    size_t last = t;
    for (size_t i = t; i < n; i += T) {
        F_T z = jac[i].z;
        pre[i] = acc;
        if (!F_is_zero(&z))
            F_mul(&acc, &acc, &z);
        last = i;
    }
    F_inv(&acc, &acc);
    for (size_t i = last;; i -= T) {
        F_T z = jac[i].z;
        AFF r;
        if (F_is_zero(&z)) {
            EC(affine_set_inf)(&r);
        } else {
            F_T zi = pre[i], zi2, x = jac[i].x, y = jac[i].y;
            F_mul(&zi, &zi, &acc); /* 1 / z */
            F_mul(&acc, &acc, &z);
            F_sqr(&zi2, &zi);
            F_mul(&r.x, &x, &zi2);
            F_mul(&zi2, &zi2, &zi);
            F_mul(&r.y, &y, &zi2);
        }
        out[i] = r;
        if (i < T)
            break;
    }
}

/* ---- host ---------------------------------------------------------------- */

#define FB_NORM_RUN 64 /* points sharing one inversion */

/* out[i] = fb->jac[i] in affine, i < n. A pass of 2^23 points has 131k
 * threads (the device is full); smaller ones run fewer, still 64 points a
 * thread, as the inversion would otherwise dominate. */
static cuzk_status FBK(normalize_launch)(AFF *out, const cuda_setup_fb_t *fb, size_t n,
                                         cudaStream_t s, cuzk_error_t *err)
{
    size_t T = (n + FB_NORM_RUN - 1) / FB_NORM_RUN;
    FBK(normalize)<<<setup_grid(T, (size_t)-1), SETUP_BLOCK, 0, s>>>(out, (const JAC *)fb->jac,
                                                                     (F_T *)fb->pre, n, T);
    return CUDA_CHECK(cudaGetLastError(), err);
}

/* B_w = 2^(c w) G for w < n_win, affine, on the host (n_win c doublings). */
static cuzk_status FBK(window_bases)(HAFF *out, unsigned c, unsigned n_win, cuzk_error_t *err)
{
    HJAC *j = (HJAC *)malloc(n_win * sizeof *j);
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_setup: out of host memory");
    HEC(from_affine)(&j[0], &HGEN);
    for (unsigned w = 1; w < n_win; w++) {
        j[w] = j[w - 1];
        for (unsigned b = 0; b < c; b++)
            HEC(dbl)(&j[w], &j[w]);
    }
    cuzk_status st = HEC(batch_to_affine)(out, j, n_win);
    free(j);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "cuzk_cuda_setup: out of host memory");
    return CUZK_OK;
}

/* The table, pass by pass through the scratch. */
static cuzk_status FBK(build)(cuda_setup_fb_t *fb, const AFF *d_base, cudaStream_t s,
                              cuzk_error_t *err)
{
    size_t entries = (size_t)fb->n_win * fb->per_win;
    unsigned run = fb->per_win < 64 ? (unsigned)fb->per_win : 64;
    for (size_t e0 = 0; e0 < entries; e0 += fb->chunk) {
        size_t len = entries - e0 < fb->chunk ? entries - e0 : fb->chunk;
        size_t threads = (len + run - 1) / run;
        FBK(table_jac)<<<setup_grid(threads, (size_t)-1), SETUP_BLOCK, 0, s>>>(
            (JAC *)fb->jac, d_base, fb->per_win, e0, len, run);
        cuzk_status st = CUDA_CHECK(cudaGetLastError(), err);
        if (st == CUZK_OK)
            st = FBK(normalize_launch)((AFF *)fb->table + e0, fb, len, s, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status FBK(init)(cuda_setup_fb_t *fb, size_t n_total, size_t n_max, int sms,
                             cudaStream_t s, cuzk_error_t *err)
{
    memset(fb, 0, sizeof *fb);
    fb->sms = sms > 0 ? sms : 1;
    fb->c = cuda_setup_fb_window(n_total, sizeof(AFF));
    fb->n_win = (256 + fb->c - 1) / fb->c;
    fb->per_win = (size_t)1 << (fb->c - 1);
    size_t entries = (size_t)fb->n_win * fb->per_win;
    fb->chunk = cuda_setup_fb_chunk(n_max, entries);
    HAFF *h_base = (HAFF *)malloc(fb->n_win * sizeof *h_base);
    AFF *d_base = NULL;
    cuzk_status st =
        h_base ? CUZK_OK
               : cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_cuda_setup: out of host memory");
    if (st == CUZK_OK)
        st = FBK(window_bases)(h_base, fb->c, fb->n_win, err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&fb->table, entries * sizeof(AFF)), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&fb->jac, fb->chunk * sizeof(JAC)), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc(&fb->pre, fb->chunk * sizeof(F_T)), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(cudaMalloc((void **)&d_base, fb->n_win * sizeof(AFF)), err);
    if (st == CUZK_OK)
        st = CUDA_CHECK(
            cudaMemcpyAsync(d_base, h_base, fb->n_win * sizeof(AFF), cudaMemcpyHostToDevice, s),
            err);
    if (st == CUZK_OK)
        st = FBK(build)(fb, d_base, s, err);
    /* h_base and d_base must outlive the copy and the build */
    cuzk_status s2 = CUDA_CHECK(cudaStreamSynchronize(s), st == CUZK_OK ? err : NULL);
    if (st == CUZK_OK)
        st = s2;
    if (d_base)
        (void)cudaFree(d_base);
    free(h_base);
    if (st != CUZK_OK) {
        cuda_setup_fb_free(fb);
        return st;
    }
    fb->bytes = entries * sizeof(AFF) + fb->chunk * (sizeof(JAC) + sizeof(F_T));
    return CUZK_OK;
}

static cuzk_status FBK(mul)(AFF *out, const cuda_setup_fb_t *fb, const dfr_t *k,
                            const uint32_t *idx, size_t n, cudaStream_t s, cuzk_error_t *err)
{
    if (n && (!fb->table || !out || !k))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "cuzk_cuda_setup: fixed base unplanned");
    for (size_t off = 0; off < n; off += fb->chunk) {
        size_t len = n - off < fb->chunk ? n - off : fb->chunk;
        FBK(mul_jac)<<<setup_grid(len, (size_t)-1), SETUP_BLOCK, 0, s>>>(
            (JAC *)fb->jac, (const AFF *)fb->table, fb->c, fb->n_win, fb->per_win, k, idx, off,
            len);
        cuzk_status st = CUDA_CHECK(cudaGetLastError(), err);
        if (st == CUZK_OK)
            st = FBK(normalize_launch)(out + off, fb, len, s, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

#undef FB_NORM_RUN
