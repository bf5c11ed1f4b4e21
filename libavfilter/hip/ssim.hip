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
 *    with an approximate sum per chunk of 32 positions;
 *  - prefix, runs, scan: the sequential raster-order double sums of the
 *    terms with the reference's bits (ssim_sum.h): approximate starts,
 *    chunk and row summaries, then one thread per sum walks them.
 *
 * Every per-sample expression is the reference's, in its types and order
 * (float products, double sums stored as float); the taps are the host's,
 * uploaded once. Samples are converted as the reference loads them:
 * value / 2^(bpc - 8), in float.
 */

#include "gpu_compat.h"
#include "ssim_sum.h"

#define SSIM_WIN 11
#define SSIM_LP  9
#define SSIM_TX  32                     /* outputs per tile row: one chunk */
#define SSIM_TY  16                     /* output rows per tile */
#define SSIM_BY  8                      /* thread rows: two outputs each */
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
 * The SSIM core at one scale, a tile of 32 x 16 window positions a block.
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

#define SSIM_PREFIX_THREADS 256

/*
 * Approximate S before each chunk, a block per (scale, sum): contiguous
 * ranges of chunks per thread, their totals scanned in shared memory.
 * Only guesses are made from these, so their order does not matter.
 */
GPU_KERNEL void __launch_bounds__(SSIM_PREFIX_THREADS) vmaf_ssim_prefix(FFSsimSumLayout L)
{
    __shared__ double tot[SSIM_PREFIX_THREADS];
    const int job = blockIdx.y, sc = job / L.nb_sums, m = job % L.nb_sums;
    const int tid = threadIdx.x;
    const int n = L.oh[sc] * L.ncx[sc];
    const double *ap = (const double *)L.approx[sc] + (size_t)m * n;
    double *st = (double *)L.start[sc] + (size_t)m * n;
    const int per = (n + SSIM_PREFIX_THREADS - 1) / SSIM_PREFIX_THREADS;
    const int b = tid * per, e = b + per < n ? b + per : n;
    double run = 0.0;

    for (int i = b; i < e; i++)
        run += ap[i];
    tot[tid] = run;
    __syncthreads();
    if (!tid) {
        double acc = 0.0;
        for (int i = 0; i < SSIM_PREFIX_THREADS; i++) {
            const double v = tot[i];
            tot[i] = acc;
            acc += v;
        }
    }
    __syncthreads();
    run = tot[tid];
    for (int i = b; i < e; i++) {
        st[i] = run;
        run += ap[i];
    }
}

#define SSIM_RUNS_THREADS 64

/* A block per (scale, sum, row): its chunks' summaries, then the row's. */
GPU_KERNEL void __launch_bounds__(SSIM_RUNS_THREADS) vmaf_ssim_runs(FFSsimSumLayout L)
{
    int row = blockIdx.y, sc = 0, m, y, ow, oh, ncx;
    const double *x, *st;
    FFSsimRun *ch;

    while (sc < L.nb_scales - 1 && row >= L.nb_sums * L.oh[sc]) {
        row -= L.nb_sums * L.oh[sc];
        sc++;
    }
    ow  = L.ow[sc];
    oh  = L.oh[sc];
    ncx = L.ncx[sc];
    m   = row / oh;
    y   = row % oh;
    if (m >= L.nb_sums)
        return;
    x  = (const double *)L.terms[sc] + ((size_t)m * oh + y) * ow;
    st = (const double *)L.start[sc] + ((size_t)m * oh + y) * ncx;
    ch = (FFSsimRun *)L.chunks[sc] + ((size_t)m * oh + y) * ncx;

    for (int c = threadIdx.x; c < ncx; c += SSIM_RUNS_THREADS) {
        const int n = ow - c * FF_SSIM_SUM_CHUNK < FF_SSIM_SUM_CHUNK ?
                      ow - c * FF_SSIM_SUM_CHUNK : FF_SSIM_SUM_CHUNK;
        FFSsimRun r;
        ff_ssim_sum_chunk(&r, x + c * FF_SSIM_SUM_CHUNK, n, st[c]);
        ch[c] = r;
    }
    __syncthreads();
    if (!threadIdx.x) {
        FFSsimRun acc;
        acc.n = 0;
        for (int c = 0; c < ncx; c++) {
            const FFSsimRun r = ch[c];
            ff_ssim_sum_append(&acc, &r);
        }
        ((FFSsimRun *)L.rows[sc])[(size_t)m * oh + y] = acc;
    }
}

/*
 * The sums, a thread per (scale, sum): rows that provably stay in one
 * binade at once, else their chunks, else term by term as the reference.
 * out[scale * nb_sums + sum].
 */
GPU_KERNEL void vmaf_ssim_scan(FFSsimSumLayout L, double *out)
{
    const int job = blockIdx.x * blockDim.x + threadIdx.x;
    int sc, m, ow, oh, ncx;
    const double *x;
    const FFSsimRun *rows, *ch;
    FFSsimRun next;
    double s = 0.0;

    if (job >= L.nb_scales * L.nb_sums)
        return;
    sc   = job / L.nb_sums;
    m    = job % L.nb_sums;
    ow   = L.ow[sc];
    oh   = L.oh[sc];
    ncx  = L.ncx[sc];
    x    = (const double *)L.terms[sc] + (size_t)m * oh * ow;
    rows = (const FFSsimRun *)L.rows[sc] + (size_t)m * oh;
    ch   = (const FFSsimRun *)L.chunks[sc] + (size_t)m * oh * ncx;

    next = rows[0];
    for (int y = 0; y < oh; y++) {
        const FFSsimRun r = next;
        if (y + 1 < oh)
            next = rows[y + 1];     /* loaded while this row is applied */
        if (ff_ssim_sum_apply(&s, &r))
            continue;
        {
            const FFSsimRun *cr = ch + (size_t)y * ncx;
            FFSsimRun cnext = cr[0];
            for (int c = 0; c < ncx; c++) {
                const FFSsimRun rc = cnext;
                const double *t = x + (size_t)y * ow + c * FF_SSIM_SUM_CHUNK;
                if (c + 1 < ncx)
                    cnext = cr[c + 1];
                if (ff_ssim_sum_apply(&s, &rc))
                    continue;
                for (int k = 0; k < rc.n; k++)
                    s += t[k];
            }
        }
    }
    out[job] = s;
}
