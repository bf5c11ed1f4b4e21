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
 * float_psnr, float_moment, float_ansnr and float_motion (float_psnr.c,
 * float_moment.c, float_ansnr.c, float_motion.c and float_dsp.c are their C
 * reference). Every per-sample value is computed with the C code's float
 * operations in its order (built without contraction).
 *
 * float_psnr and float_moment: the CPU adds terms that are integer
 * multiples of a power of two into one double; while the total stays
 * below 2^53 of those units (the host checks it at init) every partial
 * sum is exact, so the kernels add the terms as 64-bit integers, in any
 * order.
 *
 * float_ansnr and float_motion add float terms in float, per row from the
 * first column, then rows on the host. One warp a row: each lane computes
 * the term of its column in 32-column chunks, and every lane adds the
 * chunk's terms in column order, read with shuffles, so the row sum has
 * the C loop's order and roundings.
 */

#include "../../gpu/gpu_compat.h"

#if defined(__HIP__) || defined(__HIPCC__)
#define GPU_SHFL32(v, k) __shfl((v), (k), 32)
#else
#define GPU_SHFL32(v, k) __shfl_sync(0xffffffffu, (v), (k), 32)
#endif

#define SUM_BLOCK_X 32
#define SUM_BLOCK_Y 8
/* Rows (warps of 32 lanes) per block of the row kernels. */
#define ROWS 4

/* A sample in 8-bit units plus offset, as ff_vmaf_float_from_luma(). */
__device__ static inline float to_float(uint8_t v, float scale, float offset)
{
    return (float)v + offset;
}

__device__ static inline float to_float(uint16_t v, float scale, float offset)
{
    return (float)v / scale + offset;
}

template <typename T>
__device__ static inline float sample(const uint8_t *plane, size_t pitch, int y, int x,
                                      float scale, float offset)
{
    return to_float(((const T *)(plane + (size_t)y * pitch))[x], scale, offset);
}

/*
 * Add the chunk's terms t of lanes 0..n-1 to acc in lane order; every lane
 * of the warp must call it with the same n, and ends with the same acc.
 */
__device__ static inline float row_add(float acc, float t, int n)
{
    if (n == 32) {
#pragma unroll
        for (int k = 0; k < 32; k++)
            acc += GPU_SHFL32(t, k);
    } else {
        for (int k = 0; k < n; k++)
            acc += GPU_SHFL32(t, k);
    }
    return acc;
}

/* float_psnr: sum of f(e * e), e = f(r - d), in units of `unit`^-1. */
template <typename T>
__device__ static inline void psnr_sse(const uint8_t *ref, const uint8_t *dis, size_t pitch,
                                       int w, int h, float scale, double unit, gpu_u64 *sum)
{
    const int x = blockIdx.x * SUM_BLOCK_X + threadIdx.x;
    gpu_u64 acc = 0;

    for (int y = blockIdx.y * SUM_BLOCK_Y + threadIdx.y; x < w && y < h;
         y += gridDim.y * SUM_BLOCK_Y) {
        const float r = sample<T>(ref, pitch, y, x, scale, 0.0f);
        const float d = sample<T>(dis, pitch, y, x, scale, 0.0f);
        const float e = r - d;
        const float ee = e * e;
        /* An integer: exact in double, then in the sum. */
        acc += (gpu_u64)((double)ee * unit);
    }
    gpu_block_sum_u64<SUM_BLOCK_X * SUM_BLOCK_Y>(acc, sum);
}

GPU_KERNEL void __launch_bounds__(SUM_BLOCK_X * SUM_BLOCK_Y)
vmaf_float_psnr_8(const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h,
                  float scale, double unit, gpu_u64 *sum)
{
    psnr_sse<uint8_t>(ref, dis, pitch, w, h, scale, unit, sum);
}

GPU_KERNEL void __launch_bounds__(SUM_BLOCK_X * SUM_BLOCK_Y)
vmaf_float_psnr_16(const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h,
                   float scale, double unit, gpu_u64 *sum)
{
    psnr_sse<uint16_t>(ref, dis, pitch, w, h, scale, unit, sum);
}

/*
 * float_moment: sum[0], sum[1]: the sums of x (in units of unit1^-1) and
 * of f(x * x) (units of unit2^-1) of the reference; sum[2], sum[3]: the
 * distorted picture's.
 */
template <typename T>
__device__ static inline void moments(const uint8_t *ref, const uint8_t *dis, size_t pitch,
                                      int w, int h, float scale, double unit1, double unit2,
                                      gpu_u64 *sum)
{
    const int x = blockIdx.x * SUM_BLOCK_X + threadIdx.x;
    gpu_u64 acc[4] = { 0, 0, 0, 0 };

    for (int y = blockIdx.y * SUM_BLOCK_Y + threadIdx.y; x < w && y < h;
         y += gridDim.y * SUM_BLOCK_Y) {
        const float r = sample<T>(ref, pitch, y, x, scale, 0.0f);
        const float d = sample<T>(dis, pitch, y, x, scale, 0.0f);
        const float rr = r * r, dd = d * d;
        acc[0] += (gpu_u64)((double)r  * unit1);
        acc[1] += (gpu_u64)((double)rr * unit2);
        acc[2] += (gpu_u64)((double)d  * unit1);
        acc[3] += (gpu_u64)((double)dd * unit2);
    }
    for (int i = 0; i < 4; i++)
        gpu_block_sum_u64<SUM_BLOCK_X * SUM_BLOCK_Y>(acc[i], sum + i);
}

GPU_KERNEL void __launch_bounds__(SUM_BLOCK_X * SUM_BLOCK_Y)
vmaf_float_moment_8(const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h,
                    float scale, double unit1, double unit2, gpu_u64 *sum)
{
    moments<uint8_t>(ref, dis, pitch, w, h, scale, unit1, unit2, sum);
}

GPU_KERNEL void __launch_bounds__(SUM_BLOCK_X * SUM_BLOCK_Y)
vmaf_float_moment_16(const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h,
                     float scale, double unit1, double unit2, gpu_u64 *sum)
{
    moments<uint16_t>(ref, dis, pitch, w, h, scale, unit1, unit2, sum);
}

/* float_ansnr's border: reflect-101 before the start, symmetric after the end. */
__device__ static inline int mirror_2d(int t, int n)
{
    return t < 0 ? -t : t >= n ? 2 * n - 1 - t : t;
}

/*
 * ff_vmaf_float_filter2d() at (y, j): each kernel row summed in float from
 * 0, then added to the total, rows top to bottom.
 */
template <typename T, int N>
__device__ static inline float filter2d(const uint8_t *src, size_t pitch, int w, int h,
                                        int y, int j, float scale, const float *k)
{
    float acc = 0.0f;

#pragma unroll
    for (int fi = 0; fi < N; fi++) {
        const int row = mirror_2d(y - N / 2 + fi, h);
        float inner = 0.0f;
#pragma unroll
        for (int fj = 0; fj < N; fj++)
            inner += k[fi * N + fj] * sample<T>(src, pitch, row, mirror_2d(j - N / 2 + fj, w),
                                                scale, -128.0f);
        acc += inner;
    }
    return acc;
}

/*
 * float_ansnr: out[y] = the float sum over row y of f(r * r), out[h + y]
 * that of f(e * e), e = f(r - d), r and d the filtered reference (3x3 kr)
 * and distorted (5x5 kd) samples.
 */
template <typename T>
__device__ static inline void ansnr_rows(const uint8_t *ref, const uint8_t *dis, size_t pitch,
                                         int w, int h, float scale, const float *kr,
                                         const float *kd, float *out)
{
    __shared__ float skr[9], skd[25];
    const int lane = threadIdx.x, y = blockIdx.y * ROWS + threadIdx.y;
    const int tid = threadIdx.y * 32 + lane;
    float sig = 0.0f, noise = 0.0f;

    if (tid < 9)
        skr[tid] = kr[tid];
    if (tid < 25)
        skd[tid] = kd[tid];
    __syncthreads();

    /* Every lane of the warp runs the loop: the shuffles need them all. */
    for (int c = 0; c < w; c += 32) {
        const int j = c + lane;
        float ts = 0.0f, tn = 0.0f;
        if (y < h && j < w) {
            const float r = filter2d<T, 3>(ref, pitch, w, h, y, j, scale, skr);
            const float d = filter2d<T, 5>(dis, pitch, w, h, y, j, scale, skd);
            const float e = r - d;
            ts = r * r;
            tn = e * e;
        }
        const int n = min(32, w - c);
        sig   = row_add(sig, ts, n);
        noise = row_add(noise, tn, n);
    }
    if (y < h && lane == 0) {
        out[y]     = sig;
        out[h + y] = noise;
    }
}

GPU_KERNEL void __launch_bounds__(32 * ROWS)
vmaf_float_ansnr_8(const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h,
                   float scale, const float *kr, const float *kd, float *out)
{
    ansnr_rows<uint8_t>(ref, dis, pitch, w, h, scale, kr, kd, out);
}

GPU_KERNEL void __launch_bounds__(32 * ROWS)
vmaf_float_ansnr_16(const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h,
                    float scale, const float *kr, const float *kd, float *out)
{
    ansnr_rows<uint16_t>(ref, dis, pitch, w, h, scale, kr, kd, out);
}

/*
 * float_motion: blur the reference (ff_vmaf_float_conv() with the n taps g,
 * n = 1: none) into cur (w floats a row) and, when has_prev, out[y] = the
 * float sum over row y of |f(prev - cur)|.
 *
 * conv at (y, j): the horizontal pass sums in float, tap order, the
 * products of g with the vertical pass at columns R101(j - n/2 + k), each
 * a float sum in tap order over rows R101(y - n/2 + k). A lane computes
 * the n vertical sums its output reads.
 */
template <typename T>
__device__ static inline float motion_blur(const uint8_t *ref, size_t pitch, int w, int h,
                                           int y, int j, float scale, const float *g, int n)
{
    const int r = n / 2;
    float b = 0.0f;

    if (n == 1)
        return sample<T>(ref, pitch, y, j, scale, -128.0f);
    for (int k = 0; k < n; k++) {
        const int col = gpu_mirror101(j - r + k, w);
        float v = 0.0f;
        for (int kk = 0; kk < n; kk++)
            v += g[kk] * sample<T>(ref, pitch, gpu_mirror101(y - r + kk, h), col, scale, -128.0f);
        b += g[k] * v;
    }
    return b;
}

template <typename T>
__device__ static inline void motion_rows(const uint8_t *ref, size_t pitch, int w, int h,
                                          float scale, const float *taps, int n,
                                          float *cur, const float *prev, int has_prev,
                                          float *out)
{
    __shared__ float g[5];
    const int lane = threadIdx.x, y = blockIdx.y * ROWS + threadIdx.y;
    const int tid = threadIdx.y * 32 + lane;
    float sum = 0.0f;

    /* No taps (and no buffer) without a blur. */
    if (n > 1 && tid < n)
        g[tid] = taps[tid];
    __syncthreads();

    for (int c = 0; c < w; c += 32) {
        const int j = c + lane;
        float t = 0.0f;
        if (y < h && j < w) {
            const float b = motion_blur<T>(ref, pitch, w, h, y, j, scale, g, n);
            cur[(size_t)y * w + j] = b;
            if (has_prev)
                t = fabsf(prev[(size_t)y * w + j] - b);
        }
        sum = row_add(sum, t, min(32, w - c));
    }
    if (y < h && lane == 0)
        out[y] = sum;
}

GPU_KERNEL void __launch_bounds__(32 * ROWS)
vmaf_float_motion_8(const uint8_t *ref, size_t pitch, int w, int h, float scale,
                    const float *taps, int n, float *cur, const float *prev, int has_prev,
                    float *out)
{
    motion_rows<uint8_t>(ref, pitch, w, h, scale, taps, n, cur, prev, has_prev, out);
}

GPU_KERNEL void __launch_bounds__(32 * ROWS)
vmaf_float_motion_16(const uint8_t *ref, size_t pitch, int w, int h, float scale,
                     const float *taps, int n, float *cur, const float *prev, int has_prev,
                     float *out)
{
    motion_rows<uint16_t>(ref, pitch, w, h, scale, taps, n, cur, prev, has_prev, out);
}
