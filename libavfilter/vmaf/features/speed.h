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
 * The SpEED-QA extractors' context and host-side steps, shared by the CPU
 * extractors (speed.c) and their GPU twins (gpu/speed_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_SPEED_H
#define AVFILTER_VMAF_FEATURES_SPEED_H

#include <stddef.h>
#include <stdint.h>

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "speed_dsp.h"

typedef struct SpeedContext {
    /* options */
    double kernelscale;
    double prescale;
    char  *prescale_method;
    double sigma_nn;
    double nn_floor;
    double max_val;
    int    weight_var_mode;     ///< speed_chroma only
    int    use_ref_diff;        ///< speed_temporal only

    FFVmafSpeedConfig cfg;
    FFVmafSpeedDSPContext dsp;
    int bpc;

    /* speed_temporal: copies of the previous luma planes (ref, dis) and
     * the working memory (frames arrive in order). */
    uint8_t  *prev[2];
    ptrdiff_t prev_stride;
    float    *stats;            ///< s_ref, e_ref, s_dis, e_dis
    FFVmafSpeedScratch scratch;
    unsigned nb_frames;
} SpeedContext;

extern const FFVmafOption ff_vmaf_speed_chroma_options[];
extern const FFVmafOption ff_vmaf_speed_temporal_options[];
extern const char *const ff_vmaf_speed_chroma_provides[];
extern const char *const ff_vmaf_speed_temporal_provides[];

int  ff_vmaf_speed_chroma_init(FFVmafFeature *f, const FFVmafGeometry *geo);
int  ff_vmaf_speed_temporal_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_speed_temporal_close(FFVmafFeature *f);

/**
 * The score of one (ref, dis) pair from their statistics (s_ref, e_ref,
 * s_dis, e_dis, nb floats each) and singular flags: 0 when either is
 * singular. *singular: whether exactly one of them is.
 */
float ff_vmaf_speed_pair_score(const FFVmafSpeedConfig *c, const float *stats,
                               int sing_ref, int sing_dis, int *singular);

/** Write frame index's speed_chroma values from the U and V scores. */
int ff_vmaf_speed_chroma_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                               unsigned index, float score_u, int sing_u,
                               float score_v, int sing_v);

/** Write frame index's speed_temporal value. */
int ff_vmaf_speed_temporal_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                                 unsigned index, float score);

/**
 * speed_temporal: keep the luma planes of frame nb_frames - 1 (rows of
 * the given strides) as the previous frame; the next frame expected is
 * nb_frames.
 */
void ff_vmaf_speed_temporal_keep(SpeedContext *s, const uint8_t *ref,
                                 ptrdiff_t ref_stride, const uint8_t *dis,
                                 ptrdiff_t dis_stride, unsigned nb_frames);

#endif /* AVFILTER_VMAF_FEATURES_SPEED_H */
