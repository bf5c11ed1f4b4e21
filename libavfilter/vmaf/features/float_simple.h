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
 * The contexts and host-side steps of float_psnr, float_ansnr,
 * float_moment and float_motion, shared by the CPU extractors and their
 * GPU twins (gpu/float_simple_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_FLOAT_SIMPLE_H
#define AVFILTER_VMAF_FEATURES_FLOAT_SIMPLE_H

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"

/* float_psnr */

typedef struct FloatPSNRContext {
    double peak, cap;
    FFVmafFloatDSPContext dsp;
} FloatPSNRContext;

extern const char *const ff_vmaf_float_psnr_provides[];

int ff_vmaf_float_psnr_init(FFVmafFeature *f, const FFVmafGeometry *geo);
/** Write frame index's value from the plane's sum of squared errors. */
int ff_vmaf_float_psnr_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                             unsigned index, double noise, int w, int h);

/* float_ansnr */

#define FF_VMAF_ANSNR_REF_TAPS 3
#define FF_VMAF_ANSNR_DIS_TAPS 5

typedef struct FloatANSNRContext {
    double peak, cap;
    /* Integer weights divided in double, then stored as float. */
    float ref_kernel[FF_VMAF_ANSNR_REF_TAPS * FF_VMAF_ANSNR_REF_TAPS];
    float dis_kernel[FF_VMAF_ANSNR_DIS_TAPS * FF_VMAF_ANSNR_DIS_TAPS];
    FFVmafFloatDSPContext dsp;
} FloatANSNRContext;

extern const char *const ff_vmaf_float_ansnr_provides[];
extern const char *const ff_vmaf_float_ansnr_plain_outputs[];

int ff_vmaf_float_ansnr_init(FFVmafFeature *f, const FFVmafGeometry *geo);
/** Write frame index's values from the signal and noise sums (float). */
int ff_vmaf_float_ansnr_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                              unsigned index, float sig, float noise, int w, int h);

/* float_moment */

typedef struct FloatMomentContext {
    FFVmafFloatDSPContext dsp;
} FloatMomentContext;

extern const char *const ff_vmaf_float_moment_provides[];

int ff_vmaf_float_moment_init(FFVmafFeature *f, const FFVmafGeometry *geo);
/** Write frame index's moments: ref 1st, dis 1st, ref 2nd, dis 2nd. */
int ff_vmaf_float_moment_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                               unsigned index, const double m[4]);

/* float_motion */

typedef struct FloatMotionContext {
    /* options */
    int    debug;
    int    force_zero;
    int    filter_size;
    int    add_scale1;
    int    add_uv;
    double fps_weight;
    double max_val;
    double blend_factor;
    double blend_offset;

    int w, h;
    const float *taps;  ///< filter_size taps; NULL: no blur
    float *src;         ///< the current reference, as float
    float *blur[2];     ///< blurred reference of frame i at blur[i % 2]
    float *tmp;
    unsigned nb_frames;
    float prev_motion;  ///< motion of the last frame pushed
    FFVmafFloatDSPContext dsp;
} FloatMotionContext;

extern const FFVmafOption ff_vmaf_float_motion_options[];
extern const char *const ff_vmaf_float_motion_provides[];

int  ff_vmaf_float_motion_init(FFVmafFeature *f, const FFVmafGeometry *geo);
int  ff_vmaf_float_motion_flush(FFVmafFeature *f, FFVmafFeatureCollector *fc);
void ff_vmaf_float_motion_close(FFVmafFeature *f);

/** Blur a reference luma plane into s->blur[index % 2], as extract() does. */
void ff_vmaf_float_motion_blur(FloatMotionContext *s, unsigned index,
                               const uint8_t *data, ptrdiff_t linesize, int bpc);

/**
 * Write what frame index (the next expected one, s->nb_frames) makes
 * known, from its motion (0 for frame 0), and move on to the next frame.
 */
int ff_vmaf_float_motion_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                               unsigned index, float motion);

#endif /* AVFILTER_VMAF_FEATURES_FLOAT_SIMPLE_H */
