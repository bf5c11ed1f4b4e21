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
 * The float ADM extractor's context and host-side steps, shared by the
 * CPU extractor (float_adm.c) and its GPU twin (gpu/float_adm_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_FLOAT_ADM_H
#define AVFILTER_VMAF_FEATURES_FLOAT_ADM_H

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"

#define FF_VMAF_FLOAT_ADM_SCALES 4

/** The detail bands' orientations, in the order of every per-band array. */
#define FF_VMAF_FLOAT_ADM_ORI_H 0
#define FF_VMAF_FLOAT_ADM_ORI_V 1
#define FF_VMAF_FLOAT_ADM_ORI_D 2

typedef struct FloatADMContext {
    /* options */
    int    debug;
    double enhn_gain_limit;
    double norm_view_dist;
    int    ref_display_height;
    double noise_weight;
    int    csf_mode;
    int    bypass_cm;
    int    adm3_apply_hm;
    double p_norm;
    double dlm_weight;
    double min_val;
    double rf_override[2][FF_VMAF_FLOAT_ADM_SCALES];  ///< adm_f1sK (h, v) and adm_f2sK (d); < 0: off
    int    skip_scale0;

    float  rf[FF_VMAF_FLOAT_ADM_SCALES][2];           ///< CSF weights of h/v and d bands
    double limit;                   ///< num and den below this count as 0
    FFVmafFloatDSPContext dsp;
    int w, h;
    float *buf;         ///< bands of every scale, DWT rows and the ring
} FloatADMContext;

/** Band geometry of one scale: the inner region of the sums, and the
 *  columns that decouple and CSF must cover for the 3x3 masking. */
typedef struct FFVmafFloatADMRegion {
    int w, h;               ///< band size
    int left, right, top, bottom;
    int ext_left, ext_right;
} FFVmafFloatADMRegion;

/** One scale's results. */
typedef struct FFVmafFloatADMScale {
    float num, den, aim;
} FFVmafFloatADMScale;

extern const FFVmafOption ff_vmaf_float_adm_options[];
extern const char *const ff_vmaf_float_adm_provides[];

int  ff_vmaf_float_adm_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_float_adm_close(FFVmafFeature *f);

/** The regions of a w x h band. */
void ff_vmaf_float_adm_region(FFVmafFloatADMRegion *g, int w, int h);

/**
 * A scale's results from its per-orientation float sums (rows added in
 * row order) of the masked detail loss, the additive impairment and the
 * reference: the norms with the noise floor, as libvmaf takes them.
 */
void ff_vmaf_float_adm_finish(const FloatADMContext *s, const FFVmafFloatADMRegion *g,
                              const float num_acc[3], const float aim_acc[3],
                              const float den_acc[3], FFVmafFloatADMScale *res);

/** Write frame index's values from the results of every scale. */
int ff_vmaf_float_adm_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                            unsigned index, const FFVmafFloatADMScale *res);

#endif /* AVFILTER_VMAF_FEATURES_FLOAT_ADM_H */
