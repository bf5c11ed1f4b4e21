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
 * vertical position or vertical frequency), interleaved with the other
 * blocks of its group (see FFVmafPsnrHvsDSPContext). Every float operation is
 * rounded separately and sums run in raster order: the block kernels are
 * bit-exact with libvmaf only if that order is kept, so SIMD versions must
 * keep it too.
 */

#ifndef AVFILTER_VMAF_FEATURES_PSNR_HVS_DSP_H
#define AVFILTER_VMAF_FEATURES_PSNR_HVS_DSP_H

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

/**
 * The block kernels work on groups of FF_VMAF_PSNR_HVS_LANES blocks stored
 * interleaved: element k (raster order) of block b of a group is at
 * [k * FF_VMAF_PSNR_HVS_LANES + b]. Blocks are independent, so a SIMD
 * version can give each block a lane and keep, per block, exactly the C
 * order of operations.
 */
#define FF_VMAF_PSNR_HVS_LANES 8
#define FF_VMAF_PSNR_HVS_GROUP (64 * FF_VMAF_PSNR_HVS_LANES)

typedef struct FFVmafPsnrHvsDSPContext {
    /**
     * Load a group: block b (b < n, n = 1..8) is the 8x8 samples at
     * src + 7 b samples, rows linesize bytes apart; lanes n..7 are set to
     * 0. Samples are uint8_t for 8 bits, else uint16_t clamped to
     * 2^bpc - 1 (the transform has room for 12 bits only).
     */
    void (*load)(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                 ptrdiff_t linesize, int n, int bpc);

    /** Bit b set where block b of the two groups differs. */
    unsigned (*diff)(const int32_t a[FF_VMAF_PSNR_HVS_GROUP],
                     const int32_t b[FF_VMAF_PSNR_HVS_GROUP]);

    /**
     * 2-D transform of each block of a group: columns first, then rows,
     * so that element u * 8 + v of a block has u vertical. Inputs of up to
     * 12 bits.
     */
    void (*fdct8x8)(int32_t dst[FF_VMAF_PSNR_HVS_GROUP],
                    const int32_t src[FF_VMAF_PSNR_HVS_GROUP]);

    /**
     * Masking strength of each block of a group: the AC energy of its DCT
     * weighted by mask_tab, scaled by how much of the block variance is
     * local to its quadrants.
     *
     * @param mask     the 8 results
     * @param px       the samples
     * @param dct      their 2-D DCT
     * @param mask_tab squared, scaled CSF weights (index 0 is not used)
     */
    void (*block_mask)(float mask[FF_VMAF_PSNR_HVS_LANES],
                       const int32_t px[FF_VMAF_PSNR_HVS_GROUP],
                       const int32_t dct[FF_VMAF_PSNR_HVS_GROUP],
                       const float mask_tab[64]);

    /**
     * For each block b of a group whose bit b is set in live, in the order
     * of b: add the CSF-weighted squared errors of its 64 coefficients to
     * acc, in raster order, each reduced by the stronger of mask_ref[b]
     * and mask_dis[b] (except the DC one); return the new acc.
     */
    float (*block_error)(float acc,
                         const int32_t dct_ref[FF_VMAF_PSNR_HVS_GROUP],
                         const int32_t dct_dis[FF_VMAF_PSNR_HVS_GROUP],
                         const float mask_ref[FF_VMAF_PSNR_HVS_LANES],
                         const float mask_dis[FF_VMAF_PSNR_HVS_LANES],
                         unsigned live, const float csf[64],
                         const float mask_tab[64]);
} FFVmafPsnrHvsDSPContext;

/** Set the C kernels, then the SIMD ones av_get_cpu_flags() allows. */
void ff_vmaf_psnr_hvs_dsp_init(FFVmafPsnrHvsDSPContext *c, int bpc);
void ff_vmaf_psnr_hvs_dsp_init_x86(FFVmafPsnrHvsDSPContext *c, int bpc);

/* AVX2 kernels (x86/psnr_hvs_avx2.c). */
void ff_vmaf_psnr_hvs_load_8_avx2(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                                  ptrdiff_t linesize, int n, int bpc);
void ff_vmaf_psnr_hvs_load_16_avx2(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                                   ptrdiff_t linesize, int n, int bpc);
unsigned ff_vmaf_psnr_hvs_diff_avx2(const int32_t a[FF_VMAF_PSNR_HVS_GROUP],
                                    const int32_t b[FF_VMAF_PSNR_HVS_GROUP]);
void ff_vmaf_psnr_hvs_fdct8x8_avx2(int32_t dst[FF_VMAF_PSNR_HVS_GROUP],
                                   const int32_t src[FF_VMAF_PSNR_HVS_GROUP]);
void ff_vmaf_psnr_hvs_block_mask_avx2(float mask[FF_VMAF_PSNR_HVS_LANES],
                                      const int32_t px[FF_VMAF_PSNR_HVS_GROUP],
                                      const int32_t dct[FF_VMAF_PSNR_HVS_GROUP],
                                      const float mask_tab[64]);
float ff_vmaf_psnr_hvs_block_error_avx2(float acc,
                                        const int32_t dct_ref[FF_VMAF_PSNR_HVS_GROUP],
                                        const int32_t dct_dis[FF_VMAF_PSNR_HVS_GROUP],
                                        const float mask_ref[FF_VMAF_PSNR_HVS_LANES],
                                        const float mask_dis[FF_VMAF_PSNR_HVS_LANES],
                                        unsigned live, const float csf[64],
                                        const float mask_tab[64]);

#endif /* AVFILTER_VMAF_FEATURES_PSNR_HVS_DSP_H */
