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
 * The integer PSNR extractor's context and host-side steps, shared by the
 * CPU extractor (psnr.c) and its GPU twin (gpu/psnr_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_PSNR_H
#define AVFILTER_VMAF_FEATURES_PSNR_H

#include <stdint.h>

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "psnr_dsp.h"

typedef struct PSNRContext {
    int enable_chroma;
    int enable_mse;
    int enable_apsnr;
    int reduced_hbd_peak;
    double min_sse;

    int nb_planes;
    double peak;
    double psnr_max[3];
    /* Sequence totals for the aggregate PSNR (enable_apsnr). */
    uint64_t sse_total[3], n_total[3];
    FFVmafPSNRDSPContext dsp;   ///< set by ff_vmaf_psnr_init(), GPU twin's too
} PSNRContext;

extern const FFVmafOption ff_vmaf_psnr_options[];
extern const char *const ff_vmaf_psnr_provides[];

int ff_vmaf_psnr_init(FFVmafFeature *f, const FFVmafGeometry *geo);
int ff_vmaf_psnr_flush(FFVmafFeature *f, FFVmafFeatureCollector *fc);

/** Write frame index's values from the per-plane sums of squared differences. */
int ff_vmaf_psnr_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                       unsigned index, const uint64_t *sse, const int *w, const int *h);

#endif /* AVFILTER_VMAF_FEATURES_PSNR_H */
