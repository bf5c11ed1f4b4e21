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
 * The float_ssim and float_ms_ssim extractors' contexts and host-side
 * steps, shared by the CPU extractors (ssim.c, ms_ssim.c) and their GPU
 * twins (gpu/ssim_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_SSIM_H
#define AVFILTER_VMAF_FEATURES_SSIM_H

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "ssim_dsp.h"

/** MS-SSIM's scales. */
#define FF_VMAF_MS_SSIM_SCALES 5

typedef struct SSIMContext {
    int enable_lcs;
    int enable_db;
    int clip_db;
    int scale;

    int factor;         ///< decimation factor in use (1: none)
    int w, h;           ///< frame size of the init
    int sw, sh;         ///< size the SSIM core runs at
    double max_db;

    FFVmafSsimDSPContext dsp;
    float *buf;         ///< planes and scratch of one frame
} SSIMContext;

typedef struct MSSSIMContext {
    int enable_lcs;
    int enable_db;
    int clip_db;

    double max_db;
    int w, h;           ///< frame size of the init
    FFVmafSsimDSPContext dsp;
    float *buf;         ///< pyramid levels and scratch of one frame
} MSSSIMContext;

extern const FFVmafOption ff_vmaf_ssim_options[];
extern const char *const ff_vmaf_ssim_provides[];
int  ff_vmaf_ssim_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_ssim_close(FFVmafFeature *f);
/** Write frame index's values from the sums of the SSIM core at (sw, sh). */
int  ff_vmaf_ssim_write(FFVmafFeature *f, FFVmafFeatureCollector *fc, unsigned index,
                        const FFVmafSsimSums *sums);

extern const FFVmafOption ff_vmaf_ms_ssim_options[];
extern const char *const ff_vmaf_ms_ssim_provides[];
int  ff_vmaf_ms_ssim_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_ms_ssim_close(FFVmafFeature *f);
/** Write frame index's values from the sums of the SSIM core at each scale. */
int  ff_vmaf_ms_ssim_write(FFVmafFeature *f, FFVmafFeatureCollector *fc, unsigned index,
                           const FFVmafSsimSums sums[FF_VMAF_MS_SSIM_SCALES]);

#endif /* AVFILTER_VMAF_FEATURES_SSIM_H */
