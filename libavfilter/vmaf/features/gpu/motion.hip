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


/* Integer motion: the SAD of the blurred difference of two reference luma
 * planes (motion_dsp.c is its C reference), on tiles: a block loads the
 * difference prev - cur of a MOTION_TILE_W x MOTION_TILE_H tile and its
 * 2-sample mirrored halo into shared memory, runs the vertical 5-tap pass
 * of the tile's rows over the tile's columns and halo into shared memory,
 * then the horizontal pass and |z| of each output, and adds the block's
 * sum with one atomic. Each sample of each picture is read once by the
 * block (the halo again by its neighbours, from L2) instead of 25 times
 * by every pixel. Plane rows are a pitch in bytes apart.
 *
 * The integer widths are the reference's: the vertical sum in int32 (the
 * C code's blur_v; exact since |Σ taps · d| <= 65536 · (2^15 - 1) < 2^31
 * for samples of up to 15 bits), in int64 only for 16-bit samples
 * (shift 16, the reference's "wide"); the horizontal sum in int64 from
 * int32 sums of two vertical results, as sad_h. >> is an arithmetic
 * shift (floor) on both sides. */

#include "../../gpu/gpu_compat.h"

#define MOTION_TILE_W  64
#define MOTION_TILE_H  16
#define MOTION_THREADS 256
/* The tile with its halo: 2 samples on each side. */
#define MOTION_IN_W    (MOTION_TILE_W + 4)
#define MOTION_IN_H    (MOTION_TILE_H + 4)

#define MOTION_F0  3571
#define MOTION_F1 16004
#define MOTION_F2 26386

template <typename T>
__device__ static inline void motion_sad(const T *prev, size_t prev_pitch, const T *cur,
                                         size_t cur_pitch, int w, int h, int shift,
                                         gpu_u64 *sad)
{
    /* d: prev - cur of the tile and halo; v: the vertical results of the
     * tile's rows over the tile's columns and halo. */
    __shared__ int32_t s_d[MOTION_IN_H * MOTION_IN_W];
    __shared__ int32_t s_v[MOTION_TILE_H * MOTION_IN_W];
    const int tid = threadIdx.x;
    const int x0 = blockIdx.x * MOTION_TILE_W, y0 = blockIdx.y * MOTION_TILE_H;
    const uint8_t *p8 = (const uint8_t *)prev, *c8 = (const uint8_t *)cur;
    gpu_u64 v = 0;

    /* Tile cell (r, t) holds plane sample (y0 - 2 + r, x0 - 2 + t),
     * mirrored (reflect-101, as the reference: its row pointers and its
     * padded row of vertical results). Cells beyond the last row or column
     * an output reads (h + 1, w + 1) are never read: they stay 0, so that
     * no load leaves the plane. */
    for (int n = tid; n < MOTION_IN_H * MOTION_IN_W; n += MOTION_THREADS) {
        const int r = n / MOTION_IN_W, t = n % MOTION_IN_W;
        const int y = y0 - 2 + r, x = x0 - 2 + t;
        int32_t d = 0;

        if (y <= h + 1 && x <= w + 1) {
            const size_t yy = gpu_mirror101(y, h);
            const int xx = gpu_mirror101(x, w);
            d = (int32_t)((const T *)(p8 + yy * prev_pitch))[xx] -
                ((const T *)(c8 + yy * cur_pitch))[xx];
        }
        s_d[n] = d;
    }
    __syncthreads();

    for (int n = tid; n < MOTION_TILE_H * MOTION_IN_W; n += MOTION_THREADS) {
        const int32_t *d = s_d + n;     /* rows r .. r + 4 of column t */
        const int32_t d0 = d[0], d1 = d[MOTION_IN_W], d2 = d[2 * MOTION_IN_W];
        const int32_t d3 = d[3 * MOTION_IN_W], d4 = d[4 * MOTION_IN_W];

        if (sizeof(T) == 1 || shift <= 15) {
            const int32_t rnd = 1 << (shift - 1);
            s_v[n] = (MOTION_F0 * (d0 + d4) + MOTION_F1 * (d1 + d3) +
                      MOTION_F2 * d2 + rnd) >> shift;
        } else {
            const int32_t rnd = 1 << (shift - 1);
            s_v[n] = (int32_t)(((gpu_i64)MOTION_F0 * (d0 + d4) +
                                (gpu_i64)MOTION_F1 * (d1 + d3) +
                                (gpu_i64)MOTION_F2 * d2 + rnd) >> shift);
        }
    }
    __syncthreads();

    for (int n = tid; n < MOTION_TILE_H * MOTION_TILE_W; n += MOTION_THREADS) {
        const int r = n / MOTION_TILE_W, t = n % MOTION_TILE_W;
        const int32_t *y = s_v + r * MOTION_IN_W + t + 2;   /* column x0 + t */

        if (y0 + r < h && x0 + t < w) {
            const gpu_i64 z = ((gpu_i64)MOTION_F0 * (y[-2] + y[2]) +
                               (gpu_i64)MOTION_F1 * (y[-1] + y[1]) +
                               (gpu_i64)MOTION_F2 *  y[0] + 32768) >> 16;
            v += (gpu_u64)(z < 0 ? -z : z);
        }
    }
    gpu_block_sum_u64<MOTION_THREADS>(v, sad);
}

GPU_KERNEL void __launch_bounds__(MOTION_THREADS)
vmaf_motion_sad_8(const uint8_t *prev, size_t prev_pitch, const uint8_t *cur,
                  size_t cur_pitch, int w, int h, int shift, gpu_u64 *sad)
{
    motion_sad(prev, prev_pitch, cur, cur_pitch, w, h, shift, sad);
}

GPU_KERNEL void __launch_bounds__(MOTION_THREADS)
vmaf_motion_sad_16(const uint16_t *prev, size_t prev_pitch, const uint16_t *cur,
                   size_t cur_pitch, int w, int h, int shift, gpu_u64 *sad)
{
    motion_sad(prev, prev_pitch, cur, cur_pitch, w, h, shift, sad);
}
