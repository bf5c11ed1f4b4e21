/*
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * float_ssim and float_ms_ssim (ssim_dsp.c is their C reference):
 *
 *  - box / decimate: float_ssim's box decimation and MS-SSIM's low-pass
 *    pyramid, one thread per output sample of both pictures;
 *  - terms: per scale, the five Gaussian-filtered moments from shared
 *    memory tiles (horizontal pass of the tile's rows, then vertical) and
 *    the l, c, s, l c s terms of each window position, stored as doubles,
 *    with an approximate sum per 32 positions of a row;
 *  - prefix, rows, scan: the sequential raster-order double sums of the
 *    terms with the reference's bits (ssim_sum.h): approximate S before
 *    each row, each row's exact integer model for that binade, then a
 *    block per sum applies the models (and the terms where S leaves a
 *    binade) with parallel scans.
 *
 * Every per-sample expression is the reference's, in its types and order
 * (float products, double sums stored as float); the taps are the host's,
 * uploaded once. Samples are converted as the reference loads them:
 * value / 2^(bpc - 8), in float.
 */

#include "../../gpu/gpu_compat.h"
#include "ssim_sum.h"

#define SSIM_WIN 11
#define SSIM_LP  9
#define SSIM_TX  32                     /* outputs per tile row: one chunk */
#define SSIM_TY  32                     /* output rows per tile */
#define SSIM_BY  8                      /* thread rows: four outputs each */
#define SSIM_IW  (SSIM_TX + SSIM_WIN - 1)
#define SSIM_IH  (SSIM_TY + SSIM_WIN - 1)
#define SSIM_THREADS (SSIM_TX * SSIM_BY)

/* libvmaf derives the constants in float: (K L)^2 with L = 255. */
#define SSIM_C1 ((0.01f * 255) * (0.01f * 255))
#define SSIM_C2 ((0.03f * 255) * (0.03f * 255))

/** The reference's symmetric mirror (the edge sample repeated), any distance. */
__device__ static inline int ssim_mirror(int i, int n)
{
    while (i < 0 || i >= n)
        i = i < 0 ? -1 - i : 2 * n - 1 - i;
    return i;
}

/* A sample as the reference's load() gives it. */
template <typename T> struct SsimSrc;
template <> struct SsimSrc<uint8_t> {
    __device__ static inline float at(const uint8_t *p, gpu_i64 pitch, int x, int y, float div)
    {
        return p[y * pitch + x];
    }
};
template <> struct SsimSrc<uint16_t> {
    __device__ static inline float at(const uint8_t *p, gpu_i64 pitch, int x, int y, float div)
    {
        return ((const uint16_t *)(p + y * pitch))[x] / div;
    }
};
template <> struct SsimSrc<float> {
    __device__ static inline float at(const uint8_t *p, gpu_i64 pitch, int x, int y, float div)
    {
        return ((const float *)(p + y * pitch))[x];
    }
};

/*
 * float_ssim's box decimation by factor of both pictures (rows 0..oh-1 of
 * the grid: reference; oh..2 oh - 1: distorted) into packed float planes.
 */
template <typename T>
__device__ static void ssim_box(float *dst_ref, float *dst_dis,
                                const uint8_t *ref, const uint8_t *dis, gpu_i64 pitch,
                                int w, int h, int factor, int ow, int oh, float div)
{
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    const int lo = -(factor / 2);
    const float weight = 1.0f / (factor * factor);
    const uint8_t *src = ref;
    float *dst = dst_ref;
    double acc = 0.0;

    if (ox >= ow || oy >= 2 * oh)
        return;
    if (oy >= oh) {
        oy -= oh;
        src = dis;
        dst = dst_dis;
    }
    for (int ky = 0; ky < factor; ky++) {
        const int y = ssim_mirror(oy * factor + lo + ky, h);
        for (int kx = 0; kx < factor; kx++)
            acc += weight * SsimSrc<T>::at(src, pitch, ssim_mirror(ox * factor + lo + kx, w), y, div);
    }
    dst[oy * ow + ox] = (float)acc;
}

/* MS-SSIM's decimation by 2 with the 9 x 9 low-pass table lp. */
template <typename T>
__device__ static void ssim_lowpass(float *dst_ref, float *dst_dis,
                                    const uint8_t *ref, const uint8_t *dis, gpu_i64 pitch,
                                    int w, int h, int ow, int oh, float div, const float *lp)
{
    __shared__ float k[SSIM_LP * SSIM_LP];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    const uint8_t *src = ref;
    float *dst = dst_ref;
    int cols[SSIM_LP];
    double acc = 0.0;

    for (int i = tid; i < SSIM_LP * SSIM_LP; i += blockDim.x * blockDim.y)
        k[i] = lp[i];
    __syncthreads();
    if (ox >= ow || oy >= 2 * oh)
        return;
    if (oy >= oh) {
        oy -= oh;
        src = dis;
        dst = dst_dis;
    }
    for (int kx = 0; kx < SSIM_LP; kx++)
        cols[kx] = ssim_mirror(2 * ox - SSIM_LP / 2 + kx, w);
    for (int ky = 0; ky < SSIM_LP; ky++) {
        const int y = ssim_mirror(2 * oy - SSIM_LP / 2 + ky, h);
        for (int kx = 0; kx < SSIM_LP; kx++)
            acc += k[ky * SSIM_LP + kx] * SsimSrc<T>::at(src, pitch, cols[kx], y, div);
    }
    dst[oy * ow + ox] = (float)acc;
}

/*
 * The SSIM core at one scale, a tile of 32 x 32 window positions a block:
 * the taller the tile, the fewer rows its horizontal pass repeats (42 for
 * 32 rows, 26 for 16), each tap a float-to-double conversion.
 * terms: nb_sums planes of ow x oh doubles (l, c, s, and l c s when
 * nb_sums is 4); approx: per sum, row and tile column, the sum of the
 * tile row's terms (in any order: only a guess is made from it).
 */
template <typename T>
__device__ static void ssim_terms(const uint8_t *ref, const uint8_t *dis, gpu_i64 pitch,
                                  int w, int h, float div, const float *win,
                                  double *terms, double *approx, int nb_sums)
{
    __shared__ float a[SSIM_IH][SSIM_IW], b[SSIM_IH][SSIM_IW];
    __shared__ float hm[5][SSIM_IH][SSIM_TX];
    const float c1 = SSIM_C1, c2 = SSIM_C2, c3 = c2 / 2.0f;
    const int ow = w - SSIM_WIN + 1, oh = h - SSIM_WIN + 1;
    const int ncx = (ow + SSIM_TX - 1) / SSIM_TX;
    const int x0 = blockIdx.x * SSIM_TX, y0 = blockIdx.y * SSIM_TY;
    const int tid = threadIdx.y * SSIM_TX + threadIdx.x;
    const size_t plane = (size_t)ow * oh;
    float g[SSIM_WIN];

    for (int k = 0; k < SSIM_WIN; k++)
        g[k] = win[k];
    for (int i = tid; i < SSIM_IH * SSIM_IW; i += SSIM_THREADS) {
        const int r = i / SSIM_IW, c = i % SSIM_IW, x = x0 + c, y = y0 + r;
        float va = 0.0f, vb = 0.0f;
        if (x < w && y < h) {
            va = SsimSrc<T>::at(ref, pitch, x, y, div);
            vb = SsimSrc<T>::at(dis, pitch, x, y, div);
        }
        a[r][c] = va;
        b[r][c] = vb;
    }
    __syncthreads();

    /* Horizontal: ref, dis, ref^2, dis^2, ref dis (float products), each a
     * double sum of float products in tap order, stored as float. */
    for (int i = tid; i < SSIM_IH * SSIM_TX; i += SSIM_THREADS) {
        const int r = i / SSIM_TX, c = i % SSIM_TX;
        double acc0 = 0.0, acc1 = 0.0, acc2 = 0.0, acc3 = 0.0, acc4 = 0.0;
        for (int k = 0; k < SSIM_WIN; k++) {
            const float va = a[r][c + k], vb = b[r][c + k];
            const float xx = va * va, yy = vb * vb, xy = va * vb;
            acc0 += g[k] * va;
            acc1 += g[k] * vb;
            acc2 += g[k] * xx;
            acc3 += g[k] * yy;
            acc4 += g[k] * xy;
        }
        hm[0][r][c] = (float)acc0;
        hm[1][r][c] = (float)acc1;
        hm[2][r][c] = (float)acc2;
        hm[3][r][c] = (float)acc3;
        hm[4][r][c] = (float)acc4;
    }
    __syncthreads();

    for (int j = 0; j < SSIM_TY / SSIM_BY; j++) {
        const int tx = threadIdx.x, ty = threadIdx.y + j * SSIM_BY;
        const int x = x0 + tx, y = y0 + ty;
        double t[4] = { 0.0, 0.0, 0.0, 0.0 };

        if (y >= oh)            /* the whole warp row */
            break;
        if (x < ow) {
            double acc0 = 0.0, acc1 = 0.0, acc2 = 0.0, acc3 = 0.0, acc4 = 0.0;
            float mu1, mu2, s11, s22, s12, s1s2, s12p, s;
            double l, c, lc;
            size_t o = (size_t)y * ow + x;

            for (int k = 0; k < SSIM_WIN; k++) {
                acc0 += g[k] * hm[0][ty + k][tx];
                acc1 += g[k] * hm[1][ty + k][tx];
                acc2 += g[k] * hm[2][ty + k][tx];
                acc3 += g[k] * hm[3][ty + k][tx];
                acc4 += g[k] * hm[4][ty + k][tx];
            }
            mu1 = (float)acc0;
            mu2 = (float)acc1;
            s11 = (float)acc2 - mu1 * mu1;
            s22 = (float)acc3 - mu2 * mu2;
            s11 = s11 < 0.0f ? 0.0f : s11;
            s22 = s22 < 0.0f ? 0.0f : s22;
            s12 = (float)acc4 - mu1 * mu2;
            /* The reference's sqrt is the double one. */
            s1s2 = (float)sqrt((double)(s11 * s22));
            l = (2.0 * mu1 * mu2 + c1) / (double)(mu1 * mu1 + mu2 * mu2 + c1);
            c = (2.0 * s1s2 + c2) / (double)(s11 + s22 + c2);
            s12p = s12 < 0.0f && s1s2 <= 0.0f ? 0.0f : s12;
            s = (s12p + c3) / (s1s2 + c3);
            lc = l * c;
            t[0] = l;
            t[1] = c;
            t[2] = s;
            t[3] = lc * s;
            for (int m = 0; m < nb_sums; m++)
                terms[m * plane + o] = t[m];
        }
        for (int m = 0; m < nb_sums; m++) {
            double v = t[m];
            for (int d = 16; d > 0; d >>= 1)
                v += GPU_SHFL_DOWN32(v, d);
            if (!tx)
                approx[((size_t)m * oh + y) * ncx + blockIdx.x] = v;
        }
    }
}

#define SSIM_SRC_KERNELS(sfx, T)                                                      \
GPU_KERNEL void vmaf_ms_ssim_decimate_##sfx(float *dst_ref, float *dst_dis,           \
                                            const uint8_t *ref, const uint8_t *dis,   \
                                            gpu_i64 pitch, int w, int h, int ow,      \
                                            int oh, float div, const float *lp)       \
{                                                                                     \
    ssim_lowpass<T>(dst_ref, dst_dis, ref, dis, pitch, w, h, ow, oh, div, lp);        \
}                                                                                     \
GPU_KERNEL void __launch_bounds__(SSIM_THREADS)                                       \
vmaf_ssim_terms_##sfx(const uint8_t *ref, const uint8_t *dis, gpu_i64 pitch,          \
                      int w, int h, float div, const float *win,                      \
                      double *terms, double *approx, int nb_sums)                     \
{                                                                                     \
    ssim_terms<T>(ref, dis, pitch, w, h, div, win, terms, approx, nb_sums);           \
}

SSIM_SRC_KERNELS(8, uint8_t)
SSIM_SRC_KERNELS(16, uint16_t)
SSIM_SRC_KERNELS(f, float)

GPU_KERNEL void vmaf_ssim_box_8(float *dst_ref, float *dst_dis, const uint8_t *ref,
                                const uint8_t *dis, gpu_i64 pitch, int w, int h,
                                int factor, int ow, int oh, float div)
{
    ssim_box<uint8_t>(dst_ref, dst_dis, ref, dis, pitch, w, h, factor, ow, oh, div);
}

GPU_KERNEL void vmaf_ssim_box_16(float *dst_ref, float *dst_dis, const uint8_t *ref,
                                 const uint8_t *dis, gpu_i64 pitch, int w, int h,
                                 int factor, int ow, int oh, float div)
{
    ssim_box<uint16_t>(dst_ref, dst_dis, ref, dis, pitch, w, h, factor, ow, oh, div);
}

#if defined(__HIP__) || defined(__HIPCC__)
#define SSIM_SHFL_UP32(v, d) __shfl_up((v), (d), 32)
#else
#define SSIM_SHFL_UP32(v, d) __shfl_up_sync(0xffffffffu, (v), (d), 32)
#endif

#define SSIM_PREFIX_THREADS 1024

/*
 * Rows a warp of the prefix adds at once: their loads are in flight
 * together. With the launch bound of two blocks an SM (CUDA's meaning; 32
 * registers a thread) a block leaves half its SM to the other twins'
 * kernels: four rows took 64 registers, a whole SM a block, and the
 * engine with the four extras ran 5 % slower for it on an H200.
 */
#define SSIM_PREFIX_ROWS 2

/*
 * Approximate S before each row, a block per (scale, sum): each warp adds
 * the approximate sums of SSIM_PREFIX_ROWS rows at a time, its lanes over
 * their chunks (so the loads coalesce), and stores the rows' totals in
 * place of their starts; then each thread takes a stretch of rows, the
 * block scans the stretches' totals, and each thread writes the starts of
 * its rows. Only guesses are made from these, so their order does not
 * matter.
 */
GPU_KERNEL void __launch_bounds__(SSIM_PREFIX_THREADS, 2) vmaf_ssim_prefix(FFSsimSumLayout L)
{
    __shared__ double tot[SSIM_PREFIX_THREADS / 32];
    const int job = blockIdx.x, sc = job / L.nb_sums, m = job % L.nb_sums;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int oh = L.oh[sc], ncx = L.ncx[sc];
    const double *ap = (const double *)L.approx[sc] + (size_t)m * oh * ncx;
    double *st = (double *)L.start[sc] + (size_t)m * oh;
    const int per = (oh + SSIM_PREFIX_THREADS - 1) / SSIM_PREFIX_THREADS;
    const int b = tid * per, e = b + per < oh ? b + per : oh;
    double own = 0.0, v, run;

    for (int i0 = warp * SSIM_PREFIX_ROWS; i0 < oh; i0 += SSIM_PREFIX_THREADS / 32 * SSIM_PREFIX_ROWS) {
        double r[SSIM_PREFIX_ROWS];
        for (int k = 0; k < SSIM_PREFIX_ROWS; k++)
            r[k] = 0.0;
        for (int c = lane; c < ncx; c += 32)
            for (int k = 0; k < SSIM_PREFIX_ROWS; k++)
                if (i0 + k < oh)
                    r[k] += ap[(size_t)(i0 + k) * ncx + c];
        for (int k = 0; k < SSIM_PREFIX_ROWS; k++) {
            for (int d = 16; d > 0; d >>= 1)
                r[k] += GPU_SHFL_DOWN32(r[k], d);
            if (!lane && i0 + k < oh)
                st[i0 + k] = r[k];
        }
    }
    __syncthreads();        /* the rows' totals, written above, are seen */

    for (int i = b; i < e; i++)
        own += st[i];
    v = own;
    for (int d = 1; d < 32; d <<= 1) {
        const double o = SSIM_SHFL_UP32(v, d);
        if (lane >= d)
            v += o;
    }
    if (lane == 31)
        tot[warp] = v;
    __syncthreads();
    if (warp == 0) {
        double w = tot[lane];
        for (int d = 1; d < 32; d <<= 1) {
            const double o = SSIM_SHFL_UP32(w, d);
            if (lane >= d)
                w += o;
        }
        tot[lane] = w;
    }
    __syncthreads();
    run = v - own + (warp ? tot[warp - 1] : 0.0);
    for (int i = b; i < e; i++) {
        const double r = st[i];
        st[i] = run;
        run += r;
    }
}

#define SSIM_ROWS_THREADS 128

/** m, then lane + d's model of a warp (the lanes in order). */
__device__ static inline void ssim_model_shfl_compose(FFSsimModel *m, int d, int lane)
{
    FFSsimModel c;

    for (int p = 0; p < 2; p++) {
        c.q[p]  = GPU_SHFL_DOWN32((gpu_i64)m->q[p], d);
        c.mn[p] = GPU_SHFL_DOWN32((gpu_i64)m->mn[p], d);
        c.mx[p] = GPU_SHFL_DOWN32((gpu_i64)m->mx[p], d);
    }
    c.n   = GPU_SHFL_DOWN32(m->n, d);
    c.bad = GPU_SHFL_DOWN32(m->bad, d);
    if (!(lane & (2 * d - 1)))
        ff_ssim_sum_compose(m, &c);
}

/*
 * A block per (scale, sum, row): the row's model for the binade of the
 * approximate S before it. Each thread takes a stretch of the row; the
 * stretches are composed in order.
 */
GPU_KERNEL void __launch_bounds__(SSIM_ROWS_THREADS) vmaf_ssim_rows(FFSsimSumLayout L)
{
    __shared__ FFSsimModel part[SSIM_ROWS_THREADS / 32];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int row = blockIdx.x, sc = 0, m, y, ow, oh, key, per, b, e;
    const double *x;
    FFSsimModel *out, acc;
    double inv;

    while (sc < L.nb_scales - 1 && row >= L.nb_sums * L.oh[sc]) {
        row -= L.nb_sums * L.oh[sc];
        sc++;
    }
    ow  = L.ow[sc];
    oh  = L.oh[sc];
    m   = row / oh;
    y   = row % oh;
    if (m >= L.nb_sums)
        return;
    x   = (const double *)L.terms[sc] + ((size_t)m * oh + y) * ow;
    out = (FFSsimModel *)L.rows[sc] + (size_t)m * oh + y;
    key = ff_ssim_sum_key(((const double *)L.start[sc])[(size_t)m * oh + y]);
    if (key < 0) {
        if (!tid)
            out->key = -1;
        return;
    }
    inv = ff_ssim_sum_pow2(52 - (key - 1024));
    per = (ow + SSIM_ROWS_THREADS - 1) / SSIM_ROWS_THREADS;
    b   = tid * per;
    e   = b + per < ow ? b + per : ow;
    ff_ssim_sum_empty(&acc, key);
    for (int i = b; i < e; i++)
        ff_ssim_sum_push(&acc, x[i], inv);
    for (int d = 1; d < 32; d <<= 1)
        ssim_model_shfl_compose(&acc, d, lane);
    if (!lane)
        part[warp] = acc;
    __syncthreads();
    if (!tid) {
        for (int w = 1; w < SSIM_ROWS_THREADS / 32; w++)
            ff_ssim_sum_compose(&acc, &part[w]);
        acc.key = acc.bad ? -1 : key;
        *out = acc;
    }
}

#define SSIM_SCAN_THREADS 1024
/** Most terms a thread of the scan takes from the current row. */
#define SSIM_SCAN_TERMS 16
/** |S| below which the scan's first terms are added one by one ... */
#define SSIM_SCAN_SERIAL_BELOW 512.0
/** ... for at most this many terms (a multiple of SSIM_SCAN_THREADS). */
#define SSIM_SCAN_SERIAL_MAX (2 * SSIM_SCAN_THREADS)
/** No row (of a crossing foreseen). */
#define SSIM_SCAN_NONE 0x7fffffff

/*
 * The first terms of a sum, one by one as the CPU adds them, until |S|
 * reaches SSIM_SCAN_SERIAL_BELOW. While S is small it leaves its binade
 * every few terms (with terms near 1, ten times before 512: about half of
 * a 1080p sum's crossings), and each crossing costs the scan two rounds
 * of the whole block; one thread adds a few hundred terms in the time of
 * two or three rounds. The block stages the terms in shared memory. On
 * return (every thread) *s_sum is S and *s_next the terms taken.
 */
__device__ static inline void ssim_scan_serial(const double *x, size_t total, double *stage,
                                               double *s_sum, size_t *s_next, int *s_more)
{
    const int tid = threadIdx.x;
    size_t t0 = 0;

    if (!tid) {
        *s_sum  = 0.0;
        *s_next = 0;
    }
    for (;;) {
        const int n = total - t0 < SSIM_SCAN_THREADS ? (int)(total - t0) : SSIM_SCAN_THREADS;

        if (tid < n)
            stage[tid] = x[t0 + tid];
        __syncthreads();
        if (!tid) {
            double s = *s_sum;
            int i = 0;
            /* Where to stop is free: checked every 8 terms, not after each. */
            while (i + 8 <= n && fabs(s) < SSIM_SCAN_SERIAL_BELOW) {
                s += stage[i];
                s += stage[i + 1];
                s += stage[i + 2];
                s += stage[i + 3];
                s += stage[i + 4];
                s += stage[i + 5];
                s += stage[i + 6];
                s += stage[i + 7];
                i += 8;
            }
            while (i < n && fabs(s) < SSIM_SCAN_SERIAL_BELOW)
                s += stage[i++];
            *s_sum  = s;
            *s_next = t0 + i;
            *s_more = i == n && t0 + n < total && t0 + n < SSIM_SCAN_SERIAL_MAX &&
                      fabs(s) < SSIM_SCAN_SERIAL_BELOW;
        }
        __syncthreads();
        if (!*s_more)
            return;
        t0 += n;
    }
}

/* The advances (for a even, odd) of m, then n. */
__device__ static inline void ssim_pair(gpu_u64 *r0, gpu_u64 *r1, gpu_u64 m0, gpu_u64 m1,
                                        gpu_u64 n0, gpu_u64 n1)
{
    *r0 = m0 + ((m0 & 1) ? n1 : n0);
    *r1 = m1 + ((m1 & 1) ? n0 : n1);
}

/*
 * The sums, a block per (scale, sum), S exact in shared memory. After the
 * first terms (ssim_scan_serial), each round lays out a window of parts,
 * a thread each:
 *  - the rest of the current row in stretches of up to SSIM_SCAN_TERMS
 *    terms, when the row is to be taken term by term;
 *  - the models of the next rows;
 *  - where the approximate sums put S's next crossing of a binade inside
 *    a row of the window (the first row whose model was made for another
 *    binade follows it), that row in stretches instead of its model, and
 *    none after it, when enough threads are left for it.
 * The advances are scanned, each thread checks its own part at its exact
 * start, and the longest accepted prefix is applied at once. The first
 * part that fails: a row is taken term by term next round; a stretch is
 * stepped through up to the term that leaves the binade, which is added
 * as a double. So a crossing the approximate sums foresee costs one round,
 * another two. out[scale * nb_sums + sum].
 */
GPU_KERNEL void __launch_bounds__(SSIM_SCAN_THREADS) vmaf_ssim_scan(FFSsimSumLayout L, double *out)
{
    __shared__ gpu_u64 wq[SSIM_SCAN_THREADS / 32][2];
    __shared__ double stage[SSIM_SCAN_THREADS];
    __shared__ double s_sum;
    __shared__ size_t s_next;
    __shared__ int s_row, s_pos, s_first, s_cross;
    const int job = blockIdx.x, sc = job / L.nb_sums, m = job % L.nb_sums;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int ow = L.ow[sc], oh = L.oh[sc];
    const double *x = (const double *)L.terms[sc] + (size_t)m * oh * ow;
    const FFSsimModel *rows = (const FFSsimModel *)L.rows[sc] + (size_t)m * oh;

    /* s_first serves as the serial part's flag: it is set again below. */
    ssim_scan_serial(x, (size_t)ow * oh, stage, &s_sum, &s_next, &s_first);
    if (!tid) {
        s_row = (int)(s_next / ow);
        s_pos = (int)(s_next % ow);  /* >= 0: the row from there term by term; -1: its model */
        if (!s_pos)
            s_pos = -1;
        s_cross = SSIM_SCAN_NONE;
    }
    for (;;) {
        double s, u, inv;
        int row, pos, key, neg, per = 0, nt = 0, r0, nr, nm, per2 = 0, nt2 = 0, rc = -1;
        int count, ok, f;
        int srow = -1, sb = 0, se = 0;  /* this thread's stretch: row srow, terms [sb, se) */
        int mrow = -1;                  /* or the row whose model it applies */
        int64_t a, at;
        gpu_u64 c0, c1, p0, p1;
        FFSsimModel el;

        __syncthreads();
        s   = s_sum;
        row = s_row;
        pos = s_pos;
        if (row >= oh)
            break;
        key = ff_ssim_sum_key(s);
        if (key < 0) {
            /* No binade to model (S is 0 at first): term by term. */
            __syncthreads();        /* everyone has read the state */
            if (!tid) {
                while (row < oh && ff_ssim_sum_key(s) < 0) {
                    pos = pos < 0 ? 0 : pos;
                    s += x[(size_t)row * ow + pos];
                    if (++pos == ow) {
                        row++;
                        pos = -1;
                    }
                }
                s_sum = s;
                s_row = row;
                s_pos = pos;
            }
            continue;
        }
        u   = ff_ssim_sum_pow2(key - 1024 - 52);
        inv = ff_ssim_sum_pow2(52 - (key - 1024));
        a   = (int64_t)(s * inv);           /* S / u, exact */
        neg = s < 0;

        r0 = row;
        if (pos >= 0) {
            const int rem = ow - pos;
            per = (rem + SSIM_SCAN_THREADS / 2 - 1) / (SSIM_SCAN_THREADS / 2);
            per = per > SSIM_SCAN_TERMS ? SSIM_SCAN_TERMS : per;
            nt  = (rem + per - 1) / per;
            nt  = nt > SSIM_SCAN_THREADS ? SSIM_SCAN_THREADS : nt;
            r0  = row + 1;
        }
        nr = SSIM_SCAN_THREADS - nt < oh - r0 ? SSIM_SCAN_THREADS - nt : oh - r0;

        /* The window's row models, and the first made for another binade. */
        f = SSIM_SCAN_NONE;
        if (tid >= nt && tid < nt + nr) {
            el = rows[r0 + tid - nt];
            if (tid > nt && el.key != key)
                f = r0 + tid - nt;
        }
        for (int d = 16; d > 0; d >>= 1) {
            const int o = GPU_SHFL_DOWN32(f, d);
            f = o < f ? o : f;
        }
        if (!lane && f != SSIM_SCAN_NONE)
            atomicMin(&s_cross, f);
        __syncthreads();
        nm = nr;
        if (s_cross != SSIM_SCAN_NONE) {
            /* S is to leave its binade in row rc (rc > r0 - 1, rc - r0 < nr - 1). */
            const int left = SSIM_SCAN_THREADS - nt - (s_cross - 1 - r0);
            per2 = (ow + left - 1) / left;
            if (per2 <= SSIM_SCAN_TERMS) {
                rc  = s_cross - 1;
                nm  = rc - r0;
                nt2 = (ow + per2 - 1) / per2;
            }
        }
        count = nt + nm + nt2;

        ok = 1;
        if (tid < nt) {
            srow = row;
            sb   = pos + tid * per;
            se   = sb + per < ow ? sb + per : ow;
        } else if (tid < nt + nm) {
            mrow = r0 + tid - nt;
            ok   = el.key == key;
        } else if (tid < count) {
            srow = rc;
            sb   = (tid - nt - nm) * per2;
            se   = sb + per2 < ow ? sb + per2 : ow;
        } else {
            ff_ssim_sum_empty(&el, -1);
            ok = 0;
        }
        if (srow >= 0) {
            ff_ssim_sum_empty(&el, key);
            for (int i = sb; i < se; i++)
                ff_ssim_sum_push(&el, x[(size_t)srow * ow + i], inv);
        }
        if (!tid)
            s_first = count;

        /* Inclusive scan of the advances: in the warp, then its warps. */
        c0 = el.q[0];
        c1 = el.q[1];
        for (int d = 1; d < 32; d <<= 1) {
            const gpu_u64 o0 = SSIM_SHFL_UP32(c0, d), o1 = SSIM_SHFL_UP32(c1, d);
            if (lane >= d)
                ssim_pair(&c0, &c1, o0, o1, c0, c1);
        }
        if (lane == 31) {
            wq[warp][0] = c0;
            wq[warp][1] = c1;
        }
        __syncthreads();
        if (warp == 0) {
            gpu_u64 w0 = wq[lane][0], w1 = wq[lane][1];
            for (int d = 1; d < 32; d <<= 1) {
                const gpu_u64 o0 = SSIM_SHFL_UP32(w0, d), o1 = SSIM_SHFL_UP32(w1, d);
                if (lane >= d)
                    ssim_pair(&w0, &w1, o0, o1, w0, w1);
            }
            wq[lane][0] = w0;
            wq[lane][1] = w1;
        }
        __syncthreads();
        /* Exclusive: the lanes before, after the warps before. */
        p0 = SSIM_SHFL_UP32(c0, 1);
        p1 = SSIM_SHFL_UP32(c1, 1);
        if (!lane)
            p0 = p1 = 0;
        if (warp)
            ssim_pair(&p0, &p1, wq[warp - 1][0], wq[warp - 1][1], p0, p1);
        at = ff_ssim_sum_add(a, (int64_t)((a & 1) ? p1 : p0));

        /* Exact where every part before is accepted. */
        ok = ok && ff_ssim_sum_fits(&el, at, neg);
        f  = ok ? SSIM_SCAN_THREADS : tid;
        for (int d = 16; d > 0; d >>= 1) {
            const int o = GPU_SHFL_DOWN32(f, d);
            f = o < f ? o : f;
        }
        if (!lane)
            atomicMin(&s_first, f);
        __syncthreads();
        f = s_first;

        if (f < count && tid == f) {
            if (srow >= 0) {
                /* Step to the term that leaves the binade; add it as the CPU does. */
                int i = sb;
                while (i < se && ff_ssim_sum_step(&at, x[(size_t)srow * ow + i], inv, neg))
                    i++;
                s = (double)at * u;
                if (i < se)
                    s += x[(size_t)srow * ow + i++];
                s_sum = s;
                s_row = i == ow ? srow + 1 : srow;
                s_pos = i == ow ? -1 : i;
            } else {
                /* This row's model fails: the row term by term. */
                s_sum = (double)at * u;
                s_row = mrow;
                s_pos = 0;
            }
        } else if (f == count && tid == count - 1) {
            /* All accepted. */
            s_sum = (double)ff_ssim_sum_add(at, FF_SSIM_SUM_SEL(el.q, at & 1)) * u;
            if (srow >= 0) {
                s_row = se == ow ? srow + 1 : srow;
                s_pos = se == ow ? -1 : se;
            } else {
                s_row = mrow + 1;
                s_pos = -1;
            }
        }
        if (!tid)
            s_cross = SSIM_SCAN_NONE;      /* every thread read it two barriers ago */
    }
    if (!tid)
        out[job] = s_sum;
}
