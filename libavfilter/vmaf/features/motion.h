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
 * The integer motion extractor's context and host-side steps, shared by
 * the CPU extractor (motion.c) and its GPU twin (gpu/motion_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_MOTION_H
#define AVFILTER_VMAF_FEATURES_MOTION_H

#include <stddef.h>
#include <stdint.h>

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "motion_dsp.h"

typedef struct MotionContext {
    /* options */
    int    force_zero;
    double blend_factor;
    double blend_offset;
    double fps_weight;
    double max_val;
    int    five_frame_window;
    int    moving_average;
    int    debug;

    int w, h, bpc;
    /*
     * The SAD of frame i compares it with frame i - stride; frames below m0
     * have none and score 0. Both are 2 with the five-frame window, else 1.
     */
    int m0, stride;
    /* Own copies of the last `stride` reference luma planes: refs[i % stride]
     * holds frame i - stride when frame i arrives. */
    uint8_t  *refs[2];
    ptrdiff_t ref_linesize;
    int32_t  *tmp;
    FFVmafMotionDSPContext dsp; ///< set by ff_vmaf_motion_init(), GPU twin's too

    unsigned nb_frames;
    double   sad[3];    ///< sad of frame i at sad[i % 3]
    double   prev_p;    ///< blended motion2 of the previous frame, for the average
} MotionContext;

extern const FFVmafOption ff_vmaf_motion_options[];
extern const char *const ff_vmaf_motion_provides[];

int  ff_vmaf_motion_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_motion_close(FFVmafFeature *f);
int  ff_vmaf_motion_flush(FFVmafFeature *f, FFVmafFeatureCollector *fc);

/**
 * Write what frame index determines, from the blurred-difference SAD
 * `sum` of its reference against frame index - stride (ignored for the
 * first frames, which have none). Frames must come in order.
 */
int ff_vmaf_motion_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                         unsigned index, uint64_t sum);

/** Keep a copy of frame index's reference luma for the later SADs. */
void ff_vmaf_motion_keep_ref(MotionContext *s, unsigned index,
                             const uint8_t *luma, ptrdiff_t linesize);

#endif /* AVFILTER_VMAF_FEATURES_MOTION_H */
