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
 * PSNR-HVS feature extractor ("psnr_hvs"), bit-exact with libvmaf 3.2.0:
 * psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr and their weighted combination
 * psnr_hvs.
 *
 * Each plane is cut into overlapping 8x8 blocks whose DCT errors are
 * weighted by a contrast sensitivity table and reduced by the masking the
 * block content provides (Xiph/Daala's PSNR-HVS-M); the kernels are in
 * psnr_hvs_dsp.c. Identical planes give an infinite value, which the log
 * writers print as null (JSON) or inf, as libvmaf does.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"

#include "libavfilter/vmaf/feature.h"
#include "psnr_hvs.h"

/* The int32 DCT has headroom for 12-bit samples only. */
#define PSNR_HVS_MAX_BPC 12

/* Contrast sensitivity per DCT coefficient, for luma and for each chroma
 * plane (used for chroma whatever the subsampling). Stored as float. */
const float ff_vmaf_psnr_hvs_csf[3][64] = {
    {
        1.6193873005,   2.2901594831,   2.08509755623,  1.48366094411,
        1.00227514334,  0.678296995242, 0.466224900598, 0.3265091542,
        2.2901594831,   1.94321815382,  2.04793073064,  1.68731108984,
        1.2305666963,   0.868920337363, 0.61280991668,  0.436405793551,
        2.08509755623,  2.04793073064,  1.34329019223,  1.09205635862,
        0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596,
        1.48366094411,  1.68731108984,  1.09205635862,  0.772819797575,
        0.605636379554, 0.48309405692,  0.380429446972, 0.295774038565,
        1.00227514334,  1.2305666963,   0.875748795257, 0.605636379554,
        0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204,
        0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692,
        0.352889268808, 0.27032073436,  0.215017739696, 0.17408067321,
        0.466224900598, 0.61280991668,  0.501731932449, 0.380429446972,
        0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001,
        0.3265091542,   0.436405793551, 0.372504254596, 0.295774038565,
        0.226951348204, 0.17408067321,  0.136153931001, 0.109083846276,
    }, {
        1.91113096927,  2.46074210438,  1.18284184739,  1.14982565193,
        1.05017074788,  0.898018824055, 0.74725392039,  0.615105596242,
        2.46074210438,  1.58529308355,  1.21363250036,  1.38190029285,
        1.33100189972,  1.17428548929,  0.996404342439, 0.830890433625,
        1.18284184739,  1.21363250036,  0.978712413627, 1.02624506078,
        1.03145147362,  0.960060382087, 0.849823426169, 0.731221236837,
        1.14982565193,  1.38190029285,  1.02624506078,  0.861317501629,
        0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374,
        1.05017074788,  1.33100189972,  1.03145147362,  0.801821139099,
        0.676555426187, 0.605503172737, 0.55002013668,  0.495804539034,
        0.898018824055, 1.17428548929,  0.960060382087, 0.751437590932,
        0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965,
        0.74725392039,  0.996404342439, 0.849823426169, 0.685398513368,
        0.55002013668,  0.454353482512, 0.389234902883, 0.342353999733,
        0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374,
        0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237,
    }, {
        2.03871978502,  2.62502345193,  1.26180942886,  1.11019789803,
        1.01397751469,  0.867069376285, 0.721500455585, 0.593906509971,
        2.62502345193,  1.69112867013,  1.17180569821,  1.3342742857,
        1.28513006198,  1.13381474809,  0.962064122248, 0.802254508198,
        1.26180942886,  1.17180569821,  0.944981930573, 0.990876405848,
        0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706,
        1.11019789803,  1.3342742857,   0.990876405848, 0.831632933426,
        0.77418706195,  0.725539939514, 0.661776842059, 0.587716619023,
        1.01397751469,  1.28513006198,  0.995903384143, 0.77418706195,
        0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273,
        0.867069376285, 1.13381474809,  0.926972725286, 0.725539939514,
        0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543,
        0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059,
        0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063,
        0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023,
        0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658,
    },
};

static const char *const plane_names[3] = {
    "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr",
};

int ff_vmaf_psnr_hvs_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    PSNRHVSContext *s = f->priv;
    int cw = geo->width >> geo->ss_x, ch = geo->height >> geo->ss_y;
    int max = (1 << geo->bpc) - 1;

    if (geo->bpc > PSNR_HVS_MAX_BPC) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "psnr_hvs: bit depth %d is not supported (at most %d bits, "
               "as in libvmaf)\n", geo->bpc, PSNR_HVS_MAX_BPC);
        return AVERROR(EINVAL);
    }
    /* Without one whole 8x8 block in every plane the score is 0/0. */
    if (cw < FF_VMAF_PSNR_HVS_BLOCK || ch < FF_VMAF_PSNR_HVS_BLOCK) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "psnr_hvs: frame size %dx%d is too small (every plane needs "
               "at least 8x8 samples: at least %dx%d here)\n",
               geo->width, geo->height,
               FF_VMAF_PSNR_HVS_BLOCK << geo->ss_x,
               FF_VMAF_PSNR_HVS_BLOCK << geo->ss_y);
        return AVERROR(EINVAL);
    }

    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 64; k++) {
            double c = (double)ff_vmaf_psnr_hvs_csf[p][k] * 0.3885746225901003;
            s->mask_tab[p][k] = (float)(c * c);
        }
    s->peak2 = (float)(max * max);
    ff_vmaf_psnr_hvs_dsp_init(&s->dsp, geo->bpc);
    return 0;
}

/* Masked error accumulator of plane p and its coefficient count. */
static float plane_acc(const PSNRHVSContext *s, const FFVmafPicture *ref,
                       const FFVmafPicture *dis, int p, int *count_out)
{
    const FFVmafPsnrHvsDSPContext *dsp = &s->dsp;
    const float *csf = ff_vmaf_psnr_hvs_csf[p], *mask_tab = s->mask_tab[p];
    const int L = FF_VMAF_PSNR_HVS_LANES;
    int w = ref->w[p], h = ref->h[p], count = 0, hbd = ref->bpc > 8;
    /* Blocks start every 7 samples, so neighbours share a row or column;
     * samples right of or below the last whole block are not used. */
    int nbx = ff_vmaf_psnr_hvs_blocks_x(w);
    float acc = 0.0f;

    for (int y = 0; y < h - 7; y += FF_VMAF_PSNR_HVS_STEP) {
        /* Groups of up to 8 neighbouring blocks; acc still takes the
         * blocks one after another, left to right. */
        for (int bx = 0; bx < nbx; bx += L) {
            int32_t px_ref[FF_VMAF_PSNR_HVS_GROUP], px_dis[FF_VMAF_PSNR_HVS_GROUP];
            int32_t dct_ref[FF_VMAF_PSNR_HVS_GROUP], dct_dis[FF_VMAF_PSNR_HVS_GROUP];
            float mask_ref[FF_VMAF_PSNR_HVS_LANES], mask_dis[FF_VMAF_PSNR_HVS_LANES];
            int x = bx * FF_VMAF_PSNR_HVS_STEP, n = FFMIN(L, nbx - bx);
            unsigned live;

            dsp->load(px_ref, ref->data[p] + y * ref->linesize[p] + (x << hbd),
                      ref->linesize[p], n, ref->bpc);
            dsp->load(px_dis, dis->data[p] + y * dis->linesize[p] + (x << hbd),
                      dis->linesize[p], n, dis->bpc);
            count += 64 * n;
            /* Equal blocks add exactly +0 to every term of acc. */
            if (!(live = dsp->diff(px_ref, px_dis)))
                continue;
            dsp->fdct8x8(dct_ref, px_ref);
            dsp->fdct8x8(dct_dis, px_dis);
            dsp->block_mask(mask_ref, px_ref, dct_ref, mask_tab);
            dsp->block_mask(mask_dis, px_dis, dct_dis, mask_tab);
            acc = dsp->block_error(acc, dct_ref, dct_dis, mask_ref, mask_dis,
                                   live, csf, mask_tab);
        }
    }
    *count_out = count;
    return acc;
}

int ff_vmaf_psnr_hvs_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                           unsigned index, const float acc[3], const int count[3])
{
    const PSNRHVSContext *s = f->priv;
    float score[3];
    double combined;
    int ret;

    for (int p = 0; p < 3; p++) {
        /* Mean masked error relative to the squared peak (0: equal). */
        score[p] = acc[p] / (float)count[p] / s->peak2;
        /* -log10(0) is +inf for identical planes, as in libvmaf. */
        ret = ff_vmaf_feature_write(f, fc, plane_names[p], index,
                                    10.0 * -log10(score[p]));
        if (ret < 0)
            return ret;
    }
    /* The chroma scores are added as doubles. */
    combined = score[0] * 0.8 + 0.1 * ((double)score[1] + score[2]);
    return ff_vmaf_feature_write(f, fc, "psnr_hvs", index,
                                 10.0 * -log10(combined));
}

static int psnr_hvs_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                            const FFVmafPicture *dis, unsigned index,
                            struct FFVmafFeatureCollector *fc)
{
    const PSNRHVSContext *s = f->priv;
    float acc[3];
    int count[3];

    for (int p = 0; p < 3; p++)
        acc[p] = plane_acc(s, ref, dis, p, &count[p]);
    return ff_vmaf_psnr_hvs_write(f, fc, index, acc, count);
}

const char *const ff_vmaf_psnr_hvs_provides[] = {
    "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs", NULL
};

const FFVmafExtractor ff_vmaf_extractor_psnr_hvs = {
    .name      = "psnr_hvs",
    .priv_size = sizeof(PSNRHVSContext),
    .provides  = ff_vmaf_psnr_hvs_provides,
    .init      = ff_vmaf_psnr_hvs_init,
    .extract   = psnr_hvs_extract,
};
