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

/**
 * @file
 * The integer motion kernel of libvmaf 3.2: the sum of absolute values of
 * the 5x5 Gaussian blur of the difference of two luma planes.
 *
 * This is the plain C reference that SIMD and GPU versions must match bit
 * for bit. Both functions compute, for D = prev - cur (per pixel, signed):
 *   y = (sum_k f_k * D[R101(row - 2 + k)][col] + 2^(S-1)) >> S
 *   z = (sum_k f_k * y[row][R101(col - 2 + k)] + 32768) >> 16
 *   SAD = sum |z|
 * with f = {3571, 16004, 26386, 16004, 3571} (Q16), S = 8 for 8-bit input
 * and S = bpc otherwise, R101 the reflect-101 mirror and >> arithmetic.
 * y is then in Q8 of 8-bit units whatever the bit depth.
 */

#ifndef AVFILTER_VMAF_MOTION_DSP_H
#define AVFILTER_VMAF_MOTION_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Smallest width and height the reflect-101 mirror of the 5-tap blur can serve. */
#define FF_VMAF_MOTION_MIN_SIZE 3

/** Number of int32_t elements of scratch the SAD functions need for width w. */
static inline size_t ff_vmaf_motion_sad_tmp_elems(int w)
{
    /* five rows of differences plus one padded row of vertical output */
    return 5 * (size_t)w + (size_t)w + 4;
}

/**
 * Blur-of-difference SAD of two w x h 8-bit planes (w, h >= 3).
 * tmp: ff_vmaf_motion_sad_tmp_elems(w) elements, contents ignored.
 */
uint64_t ff_vmaf_motion_sad_8(const uint8_t *prev, ptrdiff_t prev_stride,
                              const uint8_t *cur, ptrdiff_t cur_stride,
                              int w, int h, int32_t *tmp);

/**
 * Same for 16-bit samples holding bpc-bit values (bpc 9..16); strides in
 * bytes.
 */
uint64_t ff_vmaf_motion_sad_16(const uint8_t *prev, ptrdiff_t prev_stride,
                               const uint8_t *cur, ptrdiff_t cur_stride,
                               int w, int h, int bpc, int32_t *tmp);

#endif /* AVFILTER_VMAF_MOTION_DSP_H */
