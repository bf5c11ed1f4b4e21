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
 * CAMBI (cambi.c and cambi_dsp.c are its C reference), one picture at a
 * time:
 *
 *  - preprocess: the luma at the scoring size in 10 bits, with the
 *    anti-dither average below 10 bits (one thread per output sample);
 *  - mask: the spatial mask from the zero-derivative flags of a tile;
 *  - per scale: mode (the decimation from the previous scale and the 3x3
 *    mode filter, out of place), c_values (the window counts of every
 *    pixel, counted in a shared-memory tile, and its c-value), then the
 *    exact top-k sum: select finds the 16-bit bin of the k-th largest
 *    c-value, pass adds the values above it and histograms the low bits of
 *    those in it, finish takes the largest of that bin.
 *
 * The counts, the top-k selection and the sums are integers (the sum in
 * units of 2^-24, in which every c-value is an integer: see
 * ff_vmaf_cambi_topk_mean()), so their order is free. The c-value of a
 * pixel is the reference's float expression with the host's reciprocal
 * table.
 */

#include "../../gpu/gpu_compat.h"

#define CAMBI_BX 32
#define CAMBI_BY 8

#define CAMBI_MAX_WINDOW 65
#define CAMBI_TOPK_BINS  2048
#define CAMBI_TOPK_LO    (126 << 7)
#define CAMBI_LOW_BINS   65536
/* Tile value of a pixel outside the mask or the image: matches no value. */
#define CAMBI_NONE       0xffff

/* c_values: each thread scores CAMBI_ROWS pixels down a column, so that
 * the window counts of a pixel can be updated from those of the one above
 * it when both have the same value. */
#define CAMBI_ROWS 8
#define CAMBI_TILE_W (CAMBI_BX + CAMBI_MAX_WINDOW - 1)
#define CAMBI_TILE_H (CAMBI_BY * CAMBI_ROWS + CAMBI_MAX_WINDOW - 1)

/* The per-scale statistics; cambi_gpu.c allocates CAMBI_STATS_BYTES. */
typedef struct CambiStats {
    unsigned hist[CAMBI_TOPK_BINS]; ///< nonzero c-values by their top 16 bits
    gpu_u64 total;      ///< their sum in units of 2^-24
    gpu_u64 above_sum;  ///< the sum of those above bin
    unsigned nonzero;
    unsigned out_of_range;
    int mode;           ///< 1: the k largest are fewer than the nonzero ones
    int bin, above;     ///< the bin of the k-th largest; how many lie above it
    unsigned pad;
    unsigned low[CAMBI_LOW_BINS];   ///< the values of bin by their low 16 bits
} CambiStats;

#define CAMBI_STATS_BYTES 270376
static_assert(sizeof(CambiStats) == CAMBI_STATS_BYTES, "CambiStats layout");

/* One scale's result in the frame's results. */
typedef struct CambiResult {
    gpu_u64 sum;        ///< the top k in units of 2^-24
    unsigned out_of_range;
    unsigned pad;
} CambiResult;

__device__ static inline gpu_u64 cambi_fixed24(unsigned u)
{
    return (gpu_u64)((u & 0x7fffff) | 0x800000) << ((u >> 23) - 126);
}

/* Sample (i, j) of the input, resampled, in 10 bits. */
template <typename T>
__device__ static inline int cambi_sample(const uint8_t *src, int pitch, const int *xmap,
                                          const int *ymap, int i, int j, int up, int down,
                                          int rnd)
{
    const T *row = (const T *)(src + (size_t)ymap[i] * pitch);
    return (((int)row[xmap[j]] << up) + rnd) >> down;
}

template <typename T>
__device__ static inline void cambi_preprocess(uint16_t *dst, const uint8_t *src, int pitch,
                                               const int *xmap, const int *ymap, int w, int h,
                                               int up, int down, int dither)
{
    const int j = blockIdx.x * CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * CAMBI_BY + threadIdx.y;
    const int rnd = down ? 1 << (down - 1) : 0;
    int v;

    if (i >= h || j >= w)
        return;
    v = cambi_sample<T>(src, pitch, xmap, ymap, i, j, up, down, rnd);
    if (dither) {
        /* The 2x2 average of the converted samples; the last column and
         * row average two, the last sample is kept. */
        const int down_ok = i + 1 < h, right_ok = j + 1 < w;
        if (down_ok && right_ok)
            v = (v + cambi_sample<T>(src, pitch, xmap, ymap, i, j + 1, up, down, rnd) +
                 cambi_sample<T>(src, pitch, xmap, ymap, i + 1, j, up, down, rnd) +
                 cambi_sample<T>(src, pitch, xmap, ymap, i + 1, j + 1, up, down, rnd)) >> 2;
        else if (down_ok)
            v = (v + cambi_sample<T>(src, pitch, xmap, ymap, i + 1, j, up, down, rnd)) >> 1;
        else if (right_ok)
            v = (v + cambi_sample<T>(src, pitch, xmap, ymap, i, j + 1, up, down, rnd)) >> 1;
    }
    dst[(size_t)i * w + j] = (uint16_t)v;
}

GPU_KERNEL void __launch_bounds__(CAMBI_BX * CAMBI_BY)
vmaf_cambi_preprocess_8(uint16_t *dst, const uint8_t *src, int pitch, const int *xmap,
                        const int *ymap, int w, int h, int up, int down, int dither)
{
    cambi_preprocess<uint8_t>(dst, src, pitch, xmap, ymap, w, h, up, down, dither);
}

GPU_KERNEL void __launch_bounds__(CAMBI_BX * CAMBI_BY)
vmaf_cambi_preprocess_16(uint16_t *dst, const uint8_t *src, int pitch, const int *xmap,
                         const int *ymap, int w, int h, int up, int down, int dither)
{
    cambi_preprocess<uint16_t>(dst, src, pitch, xmap, ymap, w, h, up, down, dither);
}

/*
 * The spatial mask: 1 where more than threshold of the 7x7 flags around a
 * sample are set (none outside the image). A flag is set where the sample
 * equals its right and lower neighbours (the last column and row compare
 * in one direction only, the last sample always).
 */
#define MASK_TW (CAMBI_BX + 6)
#define MASK_TH (CAMBI_BY + 6)

GPU_KERNEL void __launch_bounds__(CAMBI_BX * CAMBI_BY)
vmaf_cambi_mask(uint8_t *mask, const uint16_t *img, int w, int h, int threshold)
{
    __shared__ uint8_t z[MASK_TH][MASK_TW];
    const int x0 = blockIdx.x * CAMBI_BX - 3, y0 = blockIdx.y * CAMBI_BY - 3;
    const int tid = threadIdx.y * CAMBI_BX + threadIdx.x;
    const int j = blockIdx.x * CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * CAMBI_BY + threadIdx.y;
    int sum = 0;

    for (int k = tid; k < MASK_TW * MASK_TH; k += CAMBI_BX * CAMBI_BY) {
        const int r = y0 + k / MASK_TW, c = x0 + k % MASK_TW;
        int flag = 0;
        if (r >= 0 && r < h && c >= 0 && c < w) {
            const uint16_t *p = img + (size_t)r * w + c;
            flag = (c == w - 1 || p[0] == p[1]) && (r == h - 1 || p[0] == p[w]);
        }
        z[k / MASK_TW][k % MASK_TW] = flag;
    }
    __syncthreads();
    if (i >= h || j >= w)
        return;
    for (int dy = 0; dy < 7; dy++)
        for (int dx = 0; dx < 7; dx++)
            sum += z[threadIdx.y + dy][threadIdx.x + dx];
    mask[(size_t)i * w + j] = sum > threshold;
}

/* The value two of a, b, c share, else the smallest. */
__device__ static inline int cambi_mode3(int a, int b, int c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return min(min(a, b), c);
}

/*
 * The w x h image of a scale: the samples (step i, step j) of src (the
 * previous scale, or the preprocessed picture), mode filtered: a 3-tap
 * horizontal mode of each row (ends kept), then a 3-tap vertical mode of
 * those rows; the first and last rows, and images of fewer than 3 rows,
 * are kept as they are.
 */
__device__ static inline int cambi_dec(const uint16_t *src, int sw, int step, int i, int j)
{
    return src[(size_t)i * step * sw + (size_t)j * step];
}

__device__ static inline int cambi_mode_h(const uint16_t *src, int sw, int step, int w,
                                          int i, int j)
{
    if (j == 0 || j == w - 1)
        return cambi_dec(src, sw, step, i, j);
    return cambi_mode3(cambi_dec(src, sw, step, i, j - 1), cambi_dec(src, sw, step, i, j),
                       cambi_dec(src, sw, step, i, j + 1));
}

GPU_KERNEL void __launch_bounds__(CAMBI_BX * CAMBI_BY)
vmaf_cambi_mode(uint16_t *dst, const uint16_t *src, int sw, int step, int w, int h)
{
    const int j = blockIdx.x * CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * CAMBI_BY + threadIdx.y;
    int v;

    if (i >= h || j >= w)
        return;
    if (h < 3 || i == 0 || i == h - 1)
        v = cambi_dec(src, sw, step, i, j);
    else
        v = cambi_mode3(cambi_mode_h(src, sw, step, w, i - 1, j),
                        cambi_mode_h(src, sw, step, w, i, j),
                        cambi_mode_h(src, sw, step, w, i + 1, j));
    dst[(size_t)i * w + j] = (uint16_t)v;
}

/*
 * Window counts: bin b = value - lo (0 <= b <= 2 * ND) in 16-bit lane
 * b & 3 of word b >> 2. A lane never exceeds window² <= 4225, and rows are
 * only taken out after they were added, so no lane carries or borrows.
 */
template <int ND, int SIGN>
__device__ static inline void cambi_count_row(gpu_u64 *acc, const uint16_t *row, int ws, int lo)
{
    constexpr int NW = (2 * ND + 1 + 3) >> 2;

    for (int x = 0; x < ws; x++) {
        const unsigned b = (unsigned)((int)row[x] - lo);
        if (b <= 2 * ND) {
            const gpu_u64 inc = (gpu_u64)1 << ((b & 3) * 16);
            const unsigned q = b >> 2;
#pragma unroll
            for (int k = 0; k < NW; k++)
                if (q == (unsigned)k)
                    acc[k] = SIGN > 0 ? acc[k] + inc : acc[k] - inc;
        }
    }
}

template <int ND>
__device__ static inline int cambi_lane(const gpu_u64 *acc, int b)
{
    return (int)((acc[b >> 2] >> ((b & 3) * 16)) & 0xffff);
}

/*
 * The c-values of a w x h scale, a CAMBI_BX x (CAMBI_BY * CAMBI_ROWS)
 * block of them per block, and their top-k statistics. The tile holds the
 * values of the masked samples around the block (mask: the full-size mask,
 * mw wide, at (i << shift, j << shift)); a sample's ws x ws window, clipped
 * to the image, is the tile's ws x ws square from its own row and column.
 */
template <int ND>
__device__ static inline void cambi_c_values(float *c, const uint16_t *img, int w, int h,
                                             const uint8_t *mask, int mw, int shift, int ws,
                                             const float *recip, const unsigned *active,
                                             const int *weights, CambiStats *st)
{
    constexpr int NW = (2 * ND + 1 + 3) >> 2;
    constexpr unsigned all = ND >= 32 ? 0xffffffffu : (1u << ND) - 1;
    __shared__ uint16_t tile[CAMBI_TILE_W * CAMBI_TILE_H];
    __shared__ unsigned hist[CAMBI_TOPK_BINS];
    __shared__ unsigned oor, count;
    const int pad = ws >> 1;
    const int tw = CAMBI_BX + ws - 1, th = CAMBI_BY * CAMBI_ROWS + ws - 1;
    const int x0 = blockIdx.x * CAMBI_BX, y0 = blockIdx.y * CAMBI_BY * CAMBI_ROWS;
    const int tid = threadIdx.y * CAMBI_BX + threadIdx.x;
    const int x = x0 + threadIdx.x, r0 = threadIdx.y * CAMBI_ROWS;
    gpu_u64 acc[NW], total = 0;
    unsigned nonzero = 0;
    int vb = -1, have = 0;

    for (int k = tid; k < CAMBI_TOPK_BINS; k += CAMBI_BX * CAMBI_BY)
        hist[k] = 0;
    if (!tid)
        oor = count = 0;
    for (int k = tid; k < tw * th; k += CAMBI_BX * CAMBI_BY) {
        const int i = y0 - pad + k / tw, j = x0 - pad + k % tw;
        int v = CAMBI_NONE;
        if (i >= 0 && i < h && j >= 0 && j < w &&
            mask[(size_t)(i << shift) * mw + ((size_t)j << shift)])
            v = img[(size_t)i * w + j];
        tile[k] = (uint16_t)v;
    }
    for (int k = 0; k < NW; k++)
        acc[k] = 0;
    __syncthreads();

    for (int k = 0; k < CAMBI_ROWS && x < w; k++) {
        const int y = y0 + r0 + k;
        const uint16_t *win = tile + (r0 + k) * tw + threadIdx.x;
        const int v = win[pad * tw + pad];
        unsigned act;
        float cmax = 0.0f;

        if (y >= h)
            break;
        if (v != CAMBI_NONE && (act = active[v])) {
            const int lo = v - ND;
            int p0;
            if (v == vb && 2 * (k - have) <= ws) {
                /* Slide the window of row have down to row k. */
                for (int t = have + 1; t <= k; t++) {
                    cambi_count_row<ND, -1>(acc, tile + (r0 + t - 1) * tw + threadIdx.x, ws, lo);
                    cambi_count_row<ND, 1>(acc, tile + (r0 + t - 1 + ws) * tw + threadIdx.x,
                                           ws, lo);
                }
            } else {
                for (int q = 0; q < NW; q++)
                    acc[q] = 0;
                for (int r = 0; r < ws; r++)
                    cambi_count_row<ND, 1>(acc, win + r * tw, ws, lo);
                vb = v;
            }
            have = k;

            /* The reference's max over the steps of w·p0·pm/(p0 + pm). */
            p0 = cambi_lane<ND>(acc, ND);
#pragma unroll
            for (int d = 1; d <= ND; d++) {
                const int cp = cambi_lane<ND>(acc, ND + d), cm = cambi_lane<ND>(acc, ND - d);
                const int pm = cp > cm ? cp : cm;
                float val;
                if (act != all && !(act >> (d - 1) & 1))
                    continue;
                val = (float)(weights[d] * p0 * pm) * recip[p0 + pm];
                cmax = val > cmax ? val : cmax;
            }
            if (cmax != 0.0f) {
                const unsigned u = __float_as_uint(cmax);
                const unsigned bin = (u >> 16) - CAMBI_TOPK_LO;
                if (bin >= CAMBI_TOPK_BINS) {
                    oor = 1;
                } else {
                    atomicAdd(&hist[bin], 1u);
                    total += cambi_fixed24(u);
                    nonzero++;
                }
            }
        }
        c[(size_t)y * w + x] = cmax;
    }

    if (nonzero)
        atomicAdd(&count, nonzero);
    gpu_block_sum_u64<CAMBI_BX * CAMBI_BY>(total, &st->total);
    __syncthreads();
    for (int k = tid; k < CAMBI_TOPK_BINS; k += CAMBI_BX * CAMBI_BY)
        if (hist[k])
            atomicAdd(&st->hist[k], hist[k]);
    if (!tid) {
        if (count)
            atomicAdd(&st->nonzero, count);
        if (oor)
            atomicOr(&st->out_of_range, 1u);
    }
}

#define CAMBI_C_VALUES(nd)                                                                 \
GPU_KERNEL void __launch_bounds__(CAMBI_BX * CAMBI_BY)                                     \
vmaf_cambi_c_values_##nd(float *c, const uint16_t *img, int w, int h, const uint8_t *mask, \
                         int mw, int shift, int ws, const float *recip,                    \
                         const unsigned *active, const int *weights, CambiStats *st)       \
{                                                                                          \
    cambi_c_values<nd>(c, img, w, h, mask, mw, shift, ws, recip, active, weights, st);     \
}

CAMBI_C_VALUES(1)
CAMBI_C_VALUES(2)
CAMBI_C_VALUES(4)
CAMBI_C_VALUES(8)
CAMBI_C_VALUES(16)
CAMBI_C_VALUES(32)

/* In-place inclusive scan of a[0..n) over a block of n threads, summing
 * from the end (suffix) or from the start. */
template <int N, int SUFFIX>
__device__ static inline void cambi_scan(int *a)
{
    const int t = threadIdx.x;
    for (int off = 1; off < N; off <<= 1) {
        int v = a[t];
        if (SUFFIX ? t + off < N : t >= off)
            v += a[SUFFIX ? t + off : t - off];
        __syncthreads();
        a[t] = v;
        __syncthreads();
    }
}

#define CAMBI_SCAN_THREADS 1024

/*
 * One block: where the k-th largest c-value lies. When the nonzero values
 * are k or fewer, the zeros fill up the rest and the sum is their total.
 * Otherwise bin is the largest of 1..2047 whose values and those above
 * number k or more (0 if none), as the reference scans down for it, and
 * above counts the values above bin.
 */
GPU_KERNEL void __launch_bounds__(CAMBI_SCAN_THREADS)
vmaf_cambi_select(CambiStats *st, int k)
{
    __shared__ int part[CAMBI_SCAN_THREADS];
    __shared__ int suffix[CAMBI_TOPK_BINS + 1];
    __shared__ int bin;
    const int t = threadIdx.x;
    const int h0 = st->hist[2 * t], h1 = st->hist[2 * t + 1];

    if ((int)st->nonzero <= k)
        return;     /* mode stays 0 */
    part[t] = h0 + h1;
    if (!t) {
        bin = 0;
        suffix[CAMBI_TOPK_BINS] = 0;
    }
    __syncthreads();
    cambi_scan<CAMBI_SCAN_THREADS, 1>(part);
    /* part[t]: the values of bins 2t and up */
    suffix[2 * t]     = part[t];
    suffix[2 * t + 1] = part[t] - h0;
    if (part[t] - h0 >= k)
        atomicMax(&bin, 2 * t + 1);
    else if (t && part[t] >= k)
        atomicMax(&bin, 2 * t);
    __syncthreads();
    if (!t) {
        st->mode  = 1;
        st->bin   = bin;
        st->above = suffix[bin + 1];
    }
}

/* Over the c-values: the sum of those above bin, and the low 16 bits of
 * those in it. */
GPU_KERNEL void __launch_bounds__(CAMBI_BX * CAMBI_BY)
vmaf_cambi_pass(const float *c, int w, int h, CambiStats *st)
{
    const int j = blockIdx.x * CAMBI_BX + threadIdx.x;
    gpu_u64 sum = 0;
    int bin;

    if (!st->mode)
        return;
    bin = st->bin;
    for (int i = blockIdx.y * CAMBI_BY + threadIdx.y; j < w && i < h; i += gridDim.y * CAMBI_BY) {
        const unsigned u = __float_as_uint(c[(size_t)i * w + j]);
        const int hi = (int)(u >> 16) - CAMBI_TOPK_LO;
        if (hi > bin)
            sum += cambi_fixed24(u);
        else if (hi == bin)
            atomicAdd(&st->low[u & 0xffff], 1u);
    }
    gpu_block_sum_u64<CAMBI_BX * CAMBI_BY>(sum, &st->above_sum);
}

/*
 * One block: the scale's sum. With mode 1, the values of bin taken from
 * the largest low bits down until k are taken; thread t has the 64 low
 * values from 65535 - 64 t down, and how many the threads before it hold.
 */
#define CAMBI_LOW_PER_THREAD (CAMBI_LOW_BINS / CAMBI_SCAN_THREADS)

GPU_KERNEL void __launch_bounds__(CAMBI_SCAN_THREADS)
vmaf_cambi_finish(CambiStats *st, int k, CambiResult *res)
{
    __shared__ int part[CAMBI_SCAN_THREADS];
    const int t = threadIdx.x, top = CAMBI_LOW_BINS - 1 - CAMBI_LOW_PER_THREAD * t;
    gpu_u64 sum = 0;
    int n = 0, taken;

    if (!st->mode) {
        if (!t) {
            res->sum = st->total;
            res->out_of_range = st->out_of_range;
        }
        return;
    }
    for (int q = 0; q < CAMBI_LOW_PER_THREAD; q++)
        n += st->low[top - q];
    part[t] = n;
    __syncthreads();
    cambi_scan<CAMBI_SCAN_THREADS, 0>(part);
    taken = st->above + part[t] - n;
    for (int q = 0; q < CAMBI_LOW_PER_THREAD && taken < k; q++) {
        const int lo = top - q;
        int cnt = st->low[lo];
        if (!cnt)
            continue;
        if (cnt > k - taken)
            cnt = k - taken;
        sum += cnt * cambi_fixed24((unsigned)(st->bin + CAMBI_TOPK_LO) << 16 | lo);
        taken += cnt;
    }
    gpu_block_sum_u64<CAMBI_SCAN_THREADS>(sum, &res->sum);
    if (!t) {
        /* res->sum is zeroed with the frame's results */
        atomicAdd(&res->sum, st->above_sum);
        res->out_of_range = st->out_of_range;
    }
}
