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
 * The CIEDE2000 extractor's context and host-side steps, shared by the CPU
 * extractor (ciede.c) and its GPU twin (gpu/ciede_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_CIEDE_H
#define AVFILTER_VMAF_FEATURES_CIEDE_H

#include "ciede_dsp.h"
#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"

typedef struct CIEDEContext {
    FFVmafCiedeScale scale;
    int ss_x, ss_y;
    FFVmafCiedeDSPContext dsp;
} CIEDEContext;

extern const char *const ff_vmaf_ciede_provides[];

int ff_vmaf_ciede_init(FFVmafFeature *f, const FFVmafGeometry *geo);

/** Write frame index's value from the sum of the w x h pixels' Delta E. */
int ff_vmaf_ciede_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                        unsigned index, double sum, int w, int h);

#endif /* AVFILTER_VMAF_FEATURES_CIEDE_H */
