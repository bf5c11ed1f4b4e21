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
 * The CAMBI extractor's context and host-side steps, shared by the CPU
 * extractor (cambi.c) and its GPU twin (gpu/cambi_gpu.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_CAMBI_H
#define AVFILTER_VMAF_FEATURES_CAMBI_H

#include <stddef.h>
#include <stdint.h>

#include "cambi_dsp.h"
#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"

/** Weight of contrast step d = 1..32 (index 0 unused). */
extern const int ff_vmaf_cambi_contrast_weights[FF_VMAF_CAMBI_MAX_DIFFS + 1];

/* How one picture (distorted at enc size, reference at src size) is scored. */
typedef struct CambiSize {
    int w, h;           ///< size after resampling, before the speed-up
    int *xmap, *ymap;   ///< resampling from the input; NULL: same size
    int window;
    int high_res;       ///< decimate once more before scale 0
    int mask_threshold;
    size_t tmp_size;    ///< c-value scratch at scale 0
} CambiSize;

/** The heatmap files of a heatmaps_path, shared by the feature's instances. */
typedef struct CambiHeatmaps CambiHeatmaps;

typedef struct CambiContext {
    /* options */
    int enc_width, enc_height, enc_bitdepth;
    int src_width, src_height;
    int window_size;
    double topk, cambi_topk;
    double tvi_threshold;
    double vis_lum_threshold;
    int max_log_contrast;
    char *eotf, *cambi_eotf;
    int high_res_speedup;
    double max_val;
    int full_ref;
    char *heatmaps_path;

    int in_w, in_h;
    int bitdepth;       ///< enc_bitdepth, resolved
    double eff_topk;
    int tvi[FF_VMAF_CAMBI_MAX_DIFFS + 1];
    int vlt_luma;
    uint32_t active[FF_VMAF_CAMBI_MAX_SAMPLE + 1];
    float recip[FF_VMAF_CAMBI_MAX_AREA + 1];
    FFVmafCambiParams params;   ///< window and tables set per picture
    FFVmafCambiDSPContext dsp;
    uint8_t *buf;               ///< scratch of ff_vmaf_cambi_score()
    CambiSize enc, src;

    /* heatmaps_path: NULL when it is not set */
    CambiHeatmaps *heatmaps;
    double heatmap_k;           ///< a sample is (uint16_t)(heatmap_k * c)
    uint8_t *heatmap_buf;       ///< samples on their way to the file
} CambiContext;

extern const FFVmafOption ff_vmaf_cambi_options[];
extern const char *const ff_vmaf_cambi_provides[];
extern const char *const ff_vmaf_cambi_plain_outputs[];

int  ff_vmaf_cambi_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_cambi_close(FFVmafFeature *f);

/**
 * CAMBI of one luma plane (dis at sz = &s->enc, ref at &s->src), on the CPU.
 * Writes no heatmap: the CPU extractor's own frames do.
 */
double ff_vmaf_cambi_score(const CambiContext *s, const CambiSize *sz,
                           const FFVmafPicture *pic);

/**
 * The k of the top-k pooling of a scale of n c-values:
 * clip((int)(topk * n), 1, n).
 */
int ff_vmaf_cambi_topk_count(const CambiContext *s, int n);

/**
 * A picture's score from the top-k means of its five scales (scale 0
 * first), as ff_vmaf_cambi_score() adds them.
 */
double ff_vmaf_cambi_pool(const CambiContext *s, const CambiSize *sz, const double *means);

/** Write frame index's values; src is read only with full_ref. */
int ff_vmaf_cambi_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                        unsigned index, double dist, double src);

#endif /* AVFILTER_VMAF_FEATURES_CAMBI_H */
