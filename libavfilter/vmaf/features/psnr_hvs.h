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
 * The PSNR-HVS extractor's context and host-side steps, shared by the CPU
 * extractor (psnr_hvs.c) and its GPU twin (gpu/psnr_hvs_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_PSNR_HVS_H
#define AVFILTER_VMAF_FEATURES_PSNR_HVS_H

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "psnr_hvs_dsp.h"

typedef struct PSNRHVSContext {
    /** Masking weights: the squared CSF scaled by 0.3885746..., as float. */
    float mask_tab[3][64];
    float peak2;    ///< (2^bpc - 1)^2
    FFVmafPsnrHvsDSPContext dsp;
} PSNRHVSContext;

/** Contrast sensitivity per DCT coefficient, luma, Cb, Cr (raster order). */
extern const float ff_vmaf_psnr_hvs_csf[3][64];
extern const char *const ff_vmaf_psnr_hvs_provides[];

int ff_vmaf_psnr_hvs_init(FFVmafFeature *f, const FFVmafGeometry *geo);

/** Blocks of a w x h plane, across and down (8x8, every 7 samples). */
static inline int ff_vmaf_psnr_hvs_blocks_x(int w)
{
    return (w - FF_VMAF_PSNR_HVS_BLOCK) / FF_VMAF_PSNR_HVS_STEP + 1;
}

static inline int ff_vmaf_psnr_hvs_blocks_y(int h)
{
    return (h - FF_VMAF_PSNR_HVS_BLOCK) / FF_VMAF_PSNR_HVS_STEP + 1;
}

/**
 * Write frame index's values from each plane's error accumulator and the
 * number of coefficients it took (64 a block).
 */
int ff_vmaf_psnr_hvs_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                           unsigned index, const float acc[3], const int count[3]);

#endif /* AVFILTER_VMAF_FEATURES_PSNR_HVS_H */
