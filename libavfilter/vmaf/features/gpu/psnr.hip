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

/* Integer PSNR: the sum of squared differences of a plane, as a 64-bit
 * integer (psnr_dsp.c is its C reference). */

#include "../../gpu/gpu_compat.h"

#define SSE_BLOCK_X 32
#define SSE_BLOCK_Y 8

/* Row y of a plane whose rows are pitch bytes apart. */
template <typename T>
__device__ static inline const T *psnr_row(const T *base, size_t pitch, int y)
{
    return (const T *)((const uint8_t *)base + (size_t)y * pitch);
}

template <typename T>
__device__ static inline void sse_plane(const T *ref, size_t ref_pitch, const T *dis,
                                        size_t dis_pitch, int w, int h, gpu_u64 *sse)
{
    gpu_u64 acc = 0;
    const int x = blockIdx.x * SSE_BLOCK_X + threadIdx.x;

    /* Each thread walks a column strip of the block's rows. */
    for (int y = blockIdx.y * SSE_BLOCK_Y + threadIdx.y; x < w && y < h;
         y += gridDim.y * SSE_BLOCK_Y) {
        const gpu_i64 d = (gpu_i64)psnr_row(ref, ref_pitch, y)[x] - psnr_row(dis, dis_pitch, y)[x];
        acc += (gpu_u64)(d * d);
    }
    gpu_block_sum_u64<SSE_BLOCK_X * SSE_BLOCK_Y>(acc, sse);
}

/* Pitches in bytes. */
GPU_KERNEL void __launch_bounds__(SSE_BLOCK_X * SSE_BLOCK_Y)
vmaf_psnr_sse_8(const uint8_t *ref, size_t ref_pitch, const uint8_t *dis, size_t dis_pitch,
                int w, int h, gpu_u64 *sse)
{
    sse_plane(ref, ref_pitch, dis, dis_pitch, w, h, sse);
}

GPU_KERNEL void __launch_bounds__(SSE_BLOCK_X * SSE_BLOCK_Y)
vmaf_psnr_sse_16(const uint16_t *ref, size_t ref_pitch, const uint16_t *dis,
                 size_t dis_pitch, int w, int h, gpu_u64 *sse)
{
    sse_plane(ref, ref_pitch, dis, dis_pitch, w, h, sse);
}
