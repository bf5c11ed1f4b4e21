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
 * SpEED-QA pre-processing (speed_dsp.c is its C reference) for nb_in
 * inputs at once (speed_chroma: U ref, U dis, V ref, V dis; speed_temporal:
 * the ref and dis frame differences), in three kernels a frame:
 *
 *  - blur: each input sample as float (8-bit units minus 128, or the
 *    difference of two frames), resampled if the prescale asks, blurred
 *    by the anti-alias Gaussian and decimated by 16: only the samples kept
 *    are computed, each with the reference's operations in its order;
 *  - local_mean: the local mean (the small Gaussian) removed, on the
 *    region the block model reads, written to the frame's results;
 *  - cov: the 25 window means (float sums) and the 25x25 covariance
 *    (double sums), each sum sequential in one thread in raster order, as
 *    the reference adds it; written to the frame's results too.
 *
 * The block model (eigenvalues, linear solve, log2) runs on the host on
 * those results with the CPU's own code. The Gaussian taps and the
 * resampling taps are the host's (ff_vmaf_speed_resample_taps()),
 * uploaded once. Kernels are built without FMA contraction and with IEEE
 * division, so each float expression rounds as on the CPU.
 */

#include "../../gpu/gpu_compat.h"

#define SPEED_DEC   16              /* decimation */
#define SPEED_B     5               /* block side */
#define SPEED_B2    25
#define SPEED_TAPS  8               /* FF_VMAF_SPEED_RESAMPLE_TAPS */
#define SPEED_MAX_N 64              /* FF_VMAF_SPEED_MAX_TAPS */

#define BLUR_OUT     32             /* outputs of one row per blur block */
#define BLUR_THREADS 128
#define MEAN_BLOCK_X 32
#define MEAN_BLOCK_Y 8
#define COV_THREADS  64

/* enum FFVmafSpeedScaleMethod; -1: no resampling. */
#define SCALE_NONE     -1
#define SCALE_NEAREST   0
#define SCALE_BILINEAR  1
#define SCALE_BICUBIC   2
#define SCALE_LANCZOS4  3

/** The planes of up to four inputs: sample a, or a - b when b is set. */
struct SpeedInputs {
    const uint8_t *a[4];
    const uint8_t *b[4];
};

/* to_float_8_c / to_float_16_c of one sample. */
template <typename T>
__device__ static inline float speed_to_float(const uint8_t *p, size_t pitch, int y, int x,
                                              float scale)
{
    const T v = ((const T *)(p + (size_t)y * pitch))[x];
    if (sizeof(T) == 1)
        return (float)v - 128.0f;
    return (float)v * scale - 128.0f;
}

/* Sample (y, x) of the input plane: get_row() of the reference. */
template <typename T>
__device__ static inline float speed_source(const uint8_t *a, const uint8_t *b, size_t pitch,
                                            int y, int x, float scale)
{
    if (!b)
        return speed_to_float<T>(a, pitch, y, x, scale);
    return speed_to_float<T>(a, pitch, y, x, scale) - speed_to_float<T>(b, pitch, y, x, scale);
}

/*
 * Sample (y, x) of the resampled plane, from the taps of its column (ix,
 * wx) and row (iy, wy): resample_nearest(), resample_bilinear() and
 * resample_kernel() of the reference for one output sample.
 */
template <typename T>
__device__ static float speed_resampled(const uint8_t *a, const uint8_t *b, size_t pitch,
                                        float scale, int method, const int *ix, const float *wx,
                                        const int *iy, const float *wy)
{
    if (method == SCALE_NEAREST)
        return speed_source<T>(a, b, pitch, iy[0], ix[0], scale);
    if (method == SCALE_BILINEAR) {
        const float dx = wx[0], dy = wy[0];
        const float w11 = (1.0f - dy) * (1.0f - dx), w12 = (1.0f - dy) * dx;
        const float w21 = dy * (1.0f - dx),          w22 = dy * dx;

        return w11 * speed_source<T>(a, b, pitch, iy[0], ix[0], scale) +
               w12 * speed_source<T>(a, b, pitch, iy[0], ix[1], scale) +
               w21 * speed_source<T>(a, b, pitch, iy[1], ix[0], scale) +
               w22 * speed_source<T>(a, b, pitch, iy[1], ix[1], scale);
    }
    {
        const int taps = method == SCALE_LANCZOS4 ? 8 : 4;
        float acc = 0.0f;

        for (int i = 0; i < taps; i++) {
            float racc = 0.0f;
            for (int j = 0; j < taps; j++)
                racc += wx[j] * speed_source<T>(a, b, pitch, iy[i], ix[j], scale);
            acc += wy[i] * racc;
        }
        return acc;
    }
}

/*
 * blur_decimate() of the reference: output (i, j) of input `in` is the
 * horizontal tap sum at column 16j of the vertical tap sums at row 16i,
 * both from +0 in tap order, reflect-101 borders on the ws x hs plane.
 * Block: BLUR_OUT outputs of one row; first the n vertical sums of each
 * (the columns they need), then the horizontal sums.
 * Grid: x over the outputs of a row, y over input * ho + row.
 */
template <typename T>
__device__ static inline void speed_blur(SpeedInputs in, size_t pitch, float scale,
                                         int ws, int hs, int wo, int ho, int n, const float *g,
                                         int method, const int *xi, const float *xw,
                                         const int *yi, const float *yw, float *d)
{
    __shared__ float col[BLUR_OUT * SPEED_MAX_N];
    __shared__ float gs[SPEED_MAX_N];
    const int k_in = blockIdx.y / ho, i = blockIdx.y - k_in * ho;
    const int j0 = blockIdx.x * BLUR_OUT, nj = min(BLUR_OUT, wo - j0);
    const int r = n >> 1, tid = threadIdx.x;
    const uint8_t *a = in.a[k_in], *b = in.b[k_in];

    for (int k = tid; k < n; k += BLUR_THREADS)
        gs[k] = g[k];
    __syncthreads();

    for (int c = tid; c < nj * n; c += BLUR_THREADS) {
        const int jj = c / n, k = c - jj * n;
        const int x = gpu_mirror101((j0 + jj) * SPEED_DEC - r + k, ws);
        float v = 0.0f;

        for (int kk = 0; kk < n; kk++) {
            const int y = gpu_mirror101(i * SPEED_DEC - r + kk, hs);
            const float s = method == SCALE_NONE
                          ? speed_source<T>(a, b, pitch, y, x, scale)
                          : speed_resampled<T>(a, b, pitch, scale, method,
                                               xi + x * SPEED_TAPS, xw + x * SPEED_TAPS,
                                               yi + y * SPEED_TAPS, yw + y * SPEED_TAPS);
            v += gs[kk] * s;
        }
        col[c] = v;
    }
    __syncthreads();

    if (tid < nj) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += gs[k] * col[tid * n + k];
        d[((size_t)k_in * ho + i) * wo + j0 + tid] = acc;
    }
}

#define SPEED_BLUR_ARGS                                                            \
    SpeedInputs in, size_t pitch, float scale, int ws, int hs, int wo, int ho,     \
    int n, const float *g, int method, const int *xi, const float *xw,             \
    const int *yi, const float *yw, float *d

GPU_KERNEL void __launch_bounds__(BLUR_THREADS)
vmaf_speed_blur_8(SPEED_BLUR_ARGS)
{
    speed_blur<uint8_t>(in, pitch, scale, ws, hs, wo, ho, n, g, method, xi, xw, yi, yw, d);
}

GPU_KERNEL void __launch_bounds__(BLUR_THREADS)
vmaf_speed_blur_16(SPEED_BLUR_ARGS)
{
    speed_blur<uint16_t>(in, pitch, scale, ws, hs, wo, ho, n, g, method, xi, xw, yi, yw, d);
}

/*
 * remove_local_mean() of the reference on the wt x ht region the block
 * model reads: mu(i, j) = horizontal tap sum at j of the vertical tap
 * sums at row i (each from +0 in tap order, reflect-101 on the whole
 * wo x ho plane), then d - mu, written to the input's record at rec + 625.
 * Grid: x over j, y over input * row_blocks + row block.
 */
GPU_KERNEL void __launch_bounds__(MEAN_BLOCK_X * MEAN_BLOCK_Y)
vmaf_speed_local_mean(const float *d, int wo, int ho, int wt, int ht, int row_blocks,
                      int n, const float *g, float *res, int rec)
{
    const int k_in = blockIdx.y / row_blocks;
    const int i = (blockIdx.y - k_in * row_blocks) * MEAN_BLOCK_Y + threadIdx.y;
    const int j = blockIdx.x * MEAN_BLOCK_X + threadIdx.x;
    const int r = n >> 1;
    const float *dk = d + (size_t)k_in * wo * ho;
    float mu = 0.0f;

    if (i >= ht || j >= wt)
        return;
    for (int k = 0; k < n; k++) {
        const int x = gpu_mirror101(j - r + k, wo);
        float t = 0.0f;
        for (int kk = 0; kk < n; kk++)
            t += g[kk] * dk[(size_t)gpu_mirror101(i - r + kk, ho) * wo + x];
        mu += g[k] * t;
    }
    res[(size_t)k_in * rec + SPEED_B2 * SPEED_B2 + (size_t)i * wt + j] = dk[(size_t)i * wo + j] - mu;
}

/*
 * covariance() of the reference on the record of input blockIdx.y: the
 * wt x ht plane D at rec + 625, its 25x25 covariance to rec[0..624], both
 * triangles. Each block first forms the 25 window means (one thread
 * each, float, raster order), then each thread one of the 325 sums of
 * products of centred values (double, raster order).
 * Grid: x over the 325 sums, y over the inputs.
 */
GPU_KERNEL void __launch_bounds__(COV_THREADS)
vmaf_speed_cov(float *res, int rec, int wt, int ht)
{
    __shared__ float mean[SPEED_B2];
    float *k = res + (size_t)blockIdx.y * rec;
    const float *dp = k + SPEED_B2 * SPEED_B2;
    const int sub_w = wt - (SPEED_B - 1), sub_h = ht - (SPEED_B - 1);
    const int npix = sub_w * sub_h, tid = threadIdx.x;
    const int t = blockIdx.x * COV_THREADS + tid;

    if (tid < SPEED_B2) {
        const float *win = dp + (tid / SPEED_B) * wt + tid % SPEED_B;
        float sum = 0.0f;
        for (int i = 0; i < sub_h; i++)
            for (int j = 0; j < sub_w; j++)
                sum += win[(size_t)i * wt + j];
        mean[tid] = sum / (float)npix;
    }
    __syncthreads();

    if (t < SPEED_B2 * (SPEED_B2 + 1) / 2) {
        int p = 0, q;
        while ((p + 1) * (p + 2) / 2 <= t)
            p++;
        q = t - p * (p + 1) / 2;
        {
            const float *wp = dp + (p / SPEED_B) * wt + p % SPEED_B;
            const float *wq = dp + (q / SPEED_B) * wt + q % SPEED_B;
            const double mp = mean[p], mq = mean[q];
            double acc = 0.0;
            float v;

            for (int i = 0; i < sub_h; i++)
                for (int j = 0; j < sub_w; j++) {
                    const size_t o = (size_t)i * wt + j;
                    acc += ((double)wp[o] - mp) * ((double)wq[o] - mq);
                }
            v = (float)(acc / (double)npix);
            k[p * SPEED_B2 + q] = v;
            k[q * SPEED_B2 + p] = v;
        }
    }
}
