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
 * The integer ADM extractor's context and host-side steps, shared by the
 * CPU extractor (adm.c) and its GPU twin (gpu/adm_gpu.c).
 *
 * Both produce, per scale, the same integer totals (ADMScaleSums): every
 * row's masked or denominator sum, rounded and shifted per row, added up.
 * Integer sums do not depend on the order they are made in, so the GPU
 * may form them in parallel; everything in floating point, which does,
 * happens once per frame in ff_vmaf_adm_write(), on the host.
 */

#ifndef AVFILTER_VMAF_FEATURES_ADM_H
#define AVFILTER_VMAF_FEATURES_ADM_H

#include <stdint.h>

#include "adm_dsp.h"
#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"

typedef struct ADMScaleGeom {
    int w, h;           ///< DWT input size
    int bw, bh;         ///< band size
    int il, ir, it, ib; ///< inner region: columns [il, ir), rows [it, ib)
    int cl, cr, ct, cb; ///< where decouple and CSF run: inner +- 1, clamped
    int num_c_hv, num_c_d, num_e; ///< numerator rounding shifts
    int den_c, den_e;   ///< denominator rounding shifts (sa at scale 0)
} ADMScaleGeom;

typedef struct ADMContext {
    int debug;
    double csf_scale;
    double csf_diag_scale;
    double dlm_weight;
    double enhn_gain_limit;
    double norm_view_dist;
    int ref_display_height;
    int csf_mode;
    double noise_weight;
    int skip_scale0;
    double min_val;
    int skip_aim;

    uint16_t rf0[3];        ///< scale-0 rfactors, Q21, Q21, Q23
    uint32_t rf32[4][3];    ///< scales 1..3 rfactors, Q32
    float rf[4][3];         ///< float rfactors, used by the denominator
    ADMScaleGeom g[FF_VMAF_ADM_SCALES];
    double limit;           ///< num/den below this count as 0
    int32_t *div_lut;       ///< FF_VMAF_ADM_DIV_LUT_SIZE, read-only after init

    /* The CPU's kernels and scratch, set up by ff_vmaf_adm_init() for the
     * GPU twin too: after a fallback, the CPU extractor finds them ready. */
    FFVmafADMDSPContext dsp;
    uint8_t *buf;           ///< extract()'s scratch: rows, then band planes
    size_t stride;          ///< of one scratch row
    size_t a0, a1, a2;      ///< bytes of one band_a plane of scales 0..2
} ADMContext;

/**
 * Integer totals of one scale, orientations h, v, d: the numerator, AIM
 * and denominator sums over the inner rows, each row rounded and shifted
 * before it is added. Nine 64-bit words, in this order: the GPU twin's
 * result buffers are arrays of this struct.
 */
typedef struct ADMScaleSums {
    int64_t num[3];
    int64_t aim[3];
    uint64_t den[3];
} ADMScaleSums;

extern const FFVmafOption ff_vmaf_adm_options[];
extern const char *const ff_vmaf_adm_provides[];

int  ff_vmaf_adm_init(FFVmafFeature *f, const FFVmafGeometry *geo);
void ff_vmaf_adm_close(FFVmafFeature *f);

/**
 * Write frame index's values from the integer totals of the four scales
 * (scale 0's are ignored with adm_skip_scale0).
 */
int ff_vmaf_adm_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                      unsigned index, const ADMScaleSums sums[FF_VMAF_ADM_SCALES]);

#endif /* AVFILTER_VMAF_FEATURES_ADM_H */
