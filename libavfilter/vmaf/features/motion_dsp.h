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
 * ff_vmaf_motion_sad_8/_16 are the plain C reference that SIMD and GPU
 * versions must match bit for bit. They compute, for D = prev - cur (per
 * pixel, signed):
 *   y = (sum_k f_k * D[R101(row - 2 + k)][col] + 2^(S-1)) >> S
 *   z = (sum_k f_k * y[row][R101(col - 2 + k)] + 32768) >> 16
 *   SAD = sum |z|
 * with f = {3571, 16004, 26386, 16004, 3571} (Q16), S = 8 for 8-bit input
 * and S = bpc otherwise, R101 the reflect-101 mirror and >> arithmetic.
 * y is then in Q8 of 8-bit units whatever the bit depth.
 */

#ifndef AVFILTER_VMAF_FEATURES_MOTION_DSP_H
#define AVFILTER_VMAF_FEATURES_MOTION_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Smallest width and height the reflect-101 mirror of the 5-tap blur can serve. */
#define FF_VMAF_MOTION_MIN_SIZE 3

/** Number of int32_t elements of scratch the SAD functions need for width w. */
static inline size_t ff_vmaf_motion_sad_tmp_elems(int w)
{
    /* one row of vertical output with two samples of padding on each side */
    return (size_t)w + 4;
}

/**
 * The two passes of the kernel, one row at a time, so that SIMD versions
 * can stand in for each and be checked alone.
 */
typedef struct FFVmafMotionDSPContext {
    /**
     * Vertical pass of one output row: for x in [0, w),
     *   y[x] = (sum_k f_k * (prev[k][x] - cur[k][x]) + 2^(shift-1)) >> shift
     * prev[k] and cur[k] are the input rows R101(row - 2 + k), of uint8_t
     * samples (shift 8) or of uint16_t samples below 2^shift (shift 9..16),
     * as the init's bpc says. Writes y[0 .. w-1] only.
     */
    void (*blur_v)(int32_t *y, const uint8_t *const prev[5],
                   const uint8_t *const cur[5], int w, int shift);
    /**
     * Horizontal pass and absolute sum of one row:
     *   sum over x in [0, w) of |(sum_k f_k * y[x - 2 + k] + 32768) >> 16|
     * Reads y[-2 .. w+1] (the caller fills the mirrored padding); every
     * |y| < 2^16, as the vertical pass gives.
     */
    uint64_t (*sad_h)(const int32_t *y, int w);
} FFVmafMotionDSPContext;

/**
 * Set the C kernels for samples of bpc bits (8: uint8_t, 9..16: uint16_t),
 * then the SIMD ones av_get_cpu_flags() allows.
 */
void ff_vmaf_motion_dsp_init(FFVmafMotionDSPContext *c, int bpc);
void ff_vmaf_motion_dsp_init_x86(FFVmafMotionDSPContext *c, int bpc);

/* AVX2 kernels (x86/motion_avx2.c). blur_v_16_avx2 takes shift 9..16. */
void ff_vmaf_motion_blur_v_8_avx2(int32_t *y, const uint8_t *const prev[5],
                                  const uint8_t *const cur[5], int w, int shift);
void ff_vmaf_motion_blur_v_16_avx2(int32_t *y, const uint8_t *const prev[5],
                                   const uint8_t *const cur[5], int w, int shift);
uint64_t ff_vmaf_motion_sad_h_avx2(const int32_t *y, int w);

/**
 * Blur-of-difference SAD of two w x h planes (w, h >= 3) of the depth c was
 * initialised for, through c's kernels. Strides in bytes.
 * tmp: ff_vmaf_motion_sad_tmp_elems(w) elements, contents ignored.
 */
uint64_t ff_vmaf_motion_sad(const FFVmafMotionDSPContext *c,
                            const uint8_t *prev, ptrdiff_t prev_stride,
                            const uint8_t *cur, ptrdiff_t cur_stride,
                            int w, int h, int bpc, int32_t *tmp);

/**
 * The plain C reference: ff_vmaf_motion_sad() with the C kernels, for
 * 8-bit planes (w, h >= 3).
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

#endif /* AVFILTER_VMAF_FEATURES_MOTION_DSP_H */
