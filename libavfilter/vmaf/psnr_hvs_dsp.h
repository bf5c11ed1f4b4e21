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
 * PSNR-HVS kernels (libvmaf 3.2.0 "psnr_hvs"), plain C.
 *
 * An 8x8 block is 64 int32_t values in raster order (row-major, row =
 * vertical position or vertical frequency). Every float operation is
 * rounded separately and sums run in raster order: the block kernels are
 * bit-exact with libvmaf only if that order is kept, so SIMD versions must
 * keep it too.
 */

#ifndef AVFILTER_VMAF_PSNR_HVS_DSP_H
#define AVFILTER_VMAF_PSNR_HVS_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Block size and the step between block origins (neighbours overlap). */
#define FF_VMAF_PSNR_HVS_BLOCK 8
#define FF_VMAF_PSNR_HVS_STEP  7

/**
 * Daala's 8-point integer forward DCT (od_bin_fdct8): y[k * ystride] from
 * x[k * xstride], k = 0..7. Exact for inputs of up to 16 bits.
 */
void ff_vmaf_psnr_hvs_fdct8(int32_t *y, ptrdiff_t ystride,
                            const int32_t *x, ptrdiff_t xstride);

/** 2-D transform of a block: columns first, then rows; dst[u * 8 + v]. */
void ff_vmaf_psnr_hvs_fdct8x8(int32_t dst[64], const int32_t src[64]);

/**
 * Masking strength of one block: the AC energy of its DCT weighted by
 * mask_tab, scaled by how much of the block variance is local to its
 * quadrants.
 *
 * @param px       the 64 samples
 * @param dct      their 2-D DCT
 * @param mask_tab squared, scaled CSF weights (index 0 is not used)
 */
float ff_vmaf_psnr_hvs_block_mask(const int32_t px[64], const int32_t dct[64],
                                  const float mask_tab[64]);

/**
 * Add the masked, CSF-weighted squared errors of one block's 64
 * coefficients to acc, in raster order, and return the new acc.
 */
float ff_vmaf_psnr_hvs_block_error(float acc, const int32_t dct_ref[64],
                                   const int32_t dct_dis[64], float mask,
                                   const float csf[64],
                                   const float mask_tab[64]);

#endif /* AVFILTER_VMAF_PSNR_HVS_DSP_H */
