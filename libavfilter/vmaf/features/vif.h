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
 * The integer VIF extractor's context and host-side steps, shared by the
 * CPU extractor (vif.c) and its GPU twin (gpu/vif_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_VIF_H
#define AVFILTER_VMAF_FEATURES_VIF_H

#include <stdint.h>

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "vif_dsp.h"

typedef struct VIFContext {
    int debug;
    double enhn_gain_limit;
    int skip_scale0;

    uint16_t *log2_tab;  ///< FF_VMAF_VIF_LOG2_SIZE entries, read-only after init

    /* Set by ff_vmaf_vif_init(), for the GPU twin too: after a fallback,
     * the CPU extractor finds its kernels and scratch ready. */
    FFVmafVifDSPContext dsp;
    uint8_t *buf;        ///< the kernels' scratch, then the pyramid levels
    size_t tmp_size, size_13, size_2;
} VIFContext;

extern const FFVmafOption ff_vmaf_vif_options[];
extern const char *const ff_vmaf_vif_provides[];

int  ff_vmaf_vif_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_vif_close(FFVmafFeature *f);

/**
 * Write frame index's values from the exact sums of each scale; acc[0] is
 * ignored when scale 0 is skipped.
 */
int ff_vmaf_vif_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                      unsigned index, const FFVmafVifAccum *acc);

#endif /* AVFILTER_VMAF_FEATURES_VIF_H */
