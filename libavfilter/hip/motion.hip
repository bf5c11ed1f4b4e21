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
 * planes (motion_dsp.c is its C reference). One thread per pixel computes
 * the vertical 5-tap blur of the difference at the five columns its
 * horizontal tap reads, with the same integer rounding, and the block
 * adds |z| into a 64-bit sum. Plane rows are a pitch in bytes apart. */

#include "gpu_compat.h"

#define MOTION_BLOCK_X 32
#define MOTION_BLOCK_Y 8

__device__ static const int motion_taps[5] = { 3571, 16004, 26386, 16004, 3571 };

/* Rows are pitch bytes apart. */
template <typename T>
__device__ static inline void motion_sad(const T *prev, size_t prev_pitch, const T *cur,
                                         size_t cur_pitch, int w, int h, int shift,
                                         gpu_u64 *sad)
{
    const int x = blockIdx.x * MOTION_BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * MOTION_BLOCK_Y + threadIdx.y;
    gpu_u64 v = 0;

    if (x < w && y < h) {
        const gpu_i64 rnd = (gpu_i64)1 << (shift - 1);
        const uint8_t *p8 = (const uint8_t *)prev, *c8 = (const uint8_t *)cur;
        gpu_i64 acc = 0;
        for (int i = 0; i < 5; i++) {
            const int xx = gpu_mirror101(x - 2 + i, w);
            gpu_i64 col = 0;
            for (int k = 0; k < 5; k++) {
                const size_t r = gpu_mirror101(y - 2 + k, h);
                const T pv = ((const T *)(p8 + r * prev_pitch))[xx];
                const T cv = ((const T *)(c8 + r * cur_pitch))[xx];
                col += (gpu_i64)motion_taps[k] * ((gpu_i64)pv - cv);
            }
            /* Arithmetic shift: floor, as the C code. */
            acc += (gpu_i64)motion_taps[i] * ((col + rnd) >> shift);
        }
        acc = (acc + 32768) >> 16;
        v = (gpu_u64)(acc < 0 ? -acc : acc);
    }
    gpu_block_sum_u64<MOTION_BLOCK_X * MOTION_BLOCK_Y>(v, sad);
}

GPU_KERNEL void __launch_bounds__(MOTION_BLOCK_X * MOTION_BLOCK_Y)
vmaf_motion_sad_8(const uint8_t *prev, size_t prev_pitch, const uint8_t *cur,
                  size_t cur_pitch, int w, int h, int shift, gpu_u64 *sad)
{
    motion_sad(prev, prev_pitch, cur, cur_pitch, w, h, shift, sad);
}

GPU_KERNEL void __launch_bounds__(MOTION_BLOCK_X * MOTION_BLOCK_Y)
vmaf_motion_sad_16(const uint16_t *prev, size_t prev_pitch, const uint16_t *cur,
                   size_t cur_pitch, int w, int h, int shift, gpu_u64 *sad)
{
    motion_sad(prev, prev_pitch, cur, cur_pitch, w, h, shift, sad);
}
