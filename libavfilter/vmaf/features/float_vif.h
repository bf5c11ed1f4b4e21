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
 * The float VIF extractor's context and host-side steps, shared by the
 * CPU extractor (float_vif.c) and its GPU twin (gpu/float_vif_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_FLOAT_VIF_H
#define AVFILTER_VMAF_FEATURES_FLOAT_VIF_H

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"

#define FF_VMAF_FLOAT_VIF_SCALES 4

typedef struct FloatVIFContext {
    /* options */
    int    debug;
    double enhn_gain_limit;
    double kernelscale;
    double prescale;
    char  *prescale_method;
    double sigma_nsq;
    double min_val[FF_VMAF_FLOAT_VIF_SCALES];   ///< [0] unused: scale 0 has no floor
    int    skip_scale0;

    int w, h;                   ///< after prescale
    int resize;
    enum FFVmafResizeMethod method;
    int ntaps[FF_VMAF_FLOAT_VIF_SCALES];
    float taps[FF_VMAF_FLOAT_VIF_SCALES][FF_VMAF_FLOAT_MAX_TAPS];
    FFVmafFloatDSPContext dsp;
    int in_w, in_h;             ///< before prescale
    float *buf;                 ///< the planes of every scale and the row scratch
} FloatVIFContext;

extern const FFVmafOption ff_vmaf_float_vif_options[];
extern const char *const ff_vmaf_float_vif_provides[];

int  ff_vmaf_float_vif_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_float_vif_close(FFVmafFeature *f);

/**
 * Write frame index's values from the per-scale float sums of the
 * information terms (num[0], den[0] are ignored with vif_skip_scale0).
 */
int ff_vmaf_float_vif_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                            unsigned index, const float *num, const float *den);

#endif /* AVFILTER_VMAF_FEATURES_FLOAT_VIF_H */
