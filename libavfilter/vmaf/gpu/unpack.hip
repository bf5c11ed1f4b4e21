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

/* One plane of a source picture into the frame ring's packed planar layout
 * (pitch = w samples): every step-th sample from offset, shifted down. The
 * source is a hardware frame (pitched, any layout) or a semi-planar or
 * high-bit-packed upload (NV12, NV21, P010, P016, NV16, P210...). The C
 * reference is ff_vmaf_picture_unpack() in vmaf/picture.c. */

#include "gpu_compat.h"

#define UNPACK_BLOCK_X 64
#define UNPACK_BLOCK_Y 4

template <typename T>
__device__ static inline void unpack_plane(T *dst, const uint8_t *src, size_t src_pitch,
                                           int w, int h, int step, int offset, int shift)
{
    const int x = blockIdx.x * UNPACK_BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * UNPACK_BLOCK_Y + threadIdx.y;

    if (x < w && y < h) {
        const T *row = (const T *)(src + (size_t)y * src_pitch);
        dst[(size_t)y * w + x] = row[(size_t)x * step + offset] >> shift;
    }
}

GPU_KERNEL void __launch_bounds__(UNPACK_BLOCK_X * UNPACK_BLOCK_Y)
vmaf_unpack_8(uint8_t *dst, const uint8_t *src, size_t src_pitch, int w, int h,
              int step, int offset, int shift)
{
    unpack_plane(dst, src, src_pitch, w, h, step, offset, shift);
}

GPU_KERNEL void __launch_bounds__(UNPACK_BLOCK_X * UNPACK_BLOCK_Y)
vmaf_unpack_16(uint16_t *dst, const uint8_t *src, size_t src_pitch, int w, int h,
               int step, int offset, int shift)
{
    unpack_plane(dst, src, src_pitch, w, h, step, offset, shift);
}
