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
 * Integer VIF feature extractor ("vif"), bit-exact with libvmaf 3.2.0.
 *
 * Visual information fidelity at four scales of a Gaussian pyramid of the
 * luma plane; the kernels are in vif_dsp.c (C) and x86/vif_template.h
 * (AVX2 and AVX-512), chosen once at init. Frames are independent, so
 * extract() keeps its scratch per call and may run on several threads.
 */

#include <stddef.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "vif.h"
#include "vif_dsp.h"

#define OFFSET(x) offsetof(VIFContext, x)
const FFVmafOption ff_vmaf_vif_options[] = {
    { "debug", NULL, FF_VMAF_OPT_BOOL, OFFSET(debug), 0, NULL, 0, 1, 0 },
    { "vif_enhn_gain_limit", "egl", FF_VMAF_OPT_DOUBLE, OFFSET(enhn_gain_limit),
      100.0, NULL, 1.0, 100.0, 1 },
    { "vif_skip_scale0", "ssclz", FF_VMAF_OPT_BOOL, OFFSET(skip_scale0),
      0, NULL, 0, 1, 1 },
    { NULL }
};

static const char *const score_names[FF_VMAF_VIF_SCALES] = {
    "VMAF_integer_feature_vif_scale0_score",
    "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score",
    "VMAF_integer_feature_vif_scale3_score",
};

static const char *const num_names[FF_VMAF_VIF_SCALES] = {
    "integer_vif_num_scale0", "integer_vif_num_scale1",
    "integer_vif_num_scale2", "integer_vif_num_scale3",
};

static const char *const den_names[FF_VMAF_VIF_SCALES] = {
    "integer_vif_den_scale0", "integer_vif_den_scale1",
    "integer_vif_den_scale2", "integer_vif_den_scale3",
};

/*
 * libvmaf writes the debug values through the same option dictionary as
 * the scores, so they carry the parameter suffix too: declare them all.
 */
const char *const ff_vmaf_vif_provides[] = {
    "VMAF_integer_feature_vif_scale0_score",
    "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score",
    "VMAF_integer_feature_vif_scale3_score",
    "integer_vif", "integer_vif_num", "integer_vif_den",
    "integer_vif_num_scale0", "integer_vif_den_scale0",
    "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2",
    "integer_vif_num_scale3", "integer_vif_den_scale3",
    NULL
};

int ff_vmaf_vif_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    VIFContext *s = f->priv;

    if (geo->bpc < 8 || geo->bpc > 16) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "vif: unsupported bit depth %d (8 to 16 accepted)\n", geo->bpc);
        return AVERROR(EINVAL);
    }

    s->log2_tab = av_calloc(FF_VMAF_VIF_LOG2_ALLOC, sizeof(*s->log2_tab));
    if (!s->log2_tab)
        return AVERROR(ENOMEM);
    ff_vmaf_vif_log2_init(s->log2_tab);
    ff_vmaf_vif_dsp_init(&s->dsp);

    /* Pyramid levels alternate between two buffer pairs: scales 1 and 3
     * in the larger one, scale 2 in the other. */
    s->tmp_size = FF_VMAF_VIF_TMP_SIZE(geo->width);
    s->size_13  = (size_t)(geo->width / 2) * (geo->height / 2);
    s->size_2   = (size_t)(geo->width / 4) * (geo->height / 4);
    s->buf = av_malloc(s->tmp_size + 2 * (s->size_13 + s->size_2) * sizeof(uint16_t));
    if (!s->buf) {
        av_freep(&s->log2_tab);
        return AVERROR(ENOMEM);
    }
    return 0;
}

int ff_vmaf_vif_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                      unsigned index, const FFVmafVifAccum *acc)
{
    const VIFContext *s = f->priv;
    const int first = s->skip_scale0 ? 1 : 0;
    float num[FF_VMAF_VIF_SCALES], den[FF_VMAF_VIF_SCALES];
    double sum_num = 0.0, sum_den = 0.0;
    int ret;

    /* A skipped scale 0 is not computed; libvmaf's float VIF reports it
     * as num 0 and den -1 (spec 17.6) and the integer one is assumed to
     * match: no reference run covers this option. */
    num[0] = 0.0f;
    den[0] = -1.0f;
    for (int i = first; i < FF_VMAF_VIF_SCALES; i++)
        ff_vmaf_vif_accum_to_float(&acc[i], &num[i], &den[i]);

    for (int i = 0; i < FF_VMAF_VIF_SCALES; i++) {
        /* The score is a single-precision quotient, reported as a double;
         * a skipped scale 0 reads 0. */
        double score = i < first ? 0.0 : (double)(num[i] / den[i]);
        ret = ff_vmaf_feature_write(f, fc, score_names[i], index, score);
        if (ret < 0)
            return ret;
    }
    if (!s->debug)
        return 0;

    /* Totals in double over the computed scales, in scale order. */
    for (int i = first; i < FF_VMAF_VIF_SCALES; i++) {
        sum_num += num[i];
        sum_den += den[i];
    }
    ret = ff_vmaf_feature_write(f, fc, "integer_vif", index,
                                sum_den == 0.0 ? 1.0 : sum_num / sum_den);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "integer_vif_num", index, sum_num);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "integer_vif_den", index, sum_den);
    for (int i = 0; i < FF_VMAF_VIF_SCALES && ret >= 0; i++) {
        ret = ff_vmaf_feature_write(f, fc, num_names[i], index, num[i]);
        if (ret >= 0)
            ret = ff_vmaf_feature_write(f, fc, den_names[i], index, den[i]);
    }
    return ret;
}

static int vif_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                       const FFVmafPicture *dis, unsigned index,
                       struct FFVmafFeatureCollector *fc)
{
    const VIFContext *s = f->priv;
        uint8_t *buf = s->buf;
    const uint8_t *cur_ref = ref->data[0], *cur_dis = dis->data[0];
    ptrdiff_t ref_stride = ref->linesize[0], dis_stride = dis->linesize[0];
    int w = ref->w[0], h = ref->h[0], bpc = ref->bpc;
    FFVmafVifAccum acc[FF_VMAF_VIF_SCALES] = { { 0 } };
    uint16_t *lvl_13[2], *lvl_2[2];

    lvl_13[0] = (uint16_t *)(buf + s->tmp_size);
    lvl_13[1] = lvl_13[0] + s->size_13;
    lvl_2[0]  = lvl_13[1] + s->size_13;
    lvl_2[1]  = lvl_2[0]  + s->size_2;

    for (int scale = 0; scale < FF_VMAF_VIF_SCALES; scale++) {
        if (scale > 0) {
            uint16_t *const *lvl = scale == 2 ? lvl_2 : lvl_13;
            const ptrdiff_t stride = (w / 2) * sizeof(uint16_t);

            s->dsp.decimate(lvl[0], stride, cur_ref, ref_stride,
                            w, h, bpc, scale, buf);
            s->dsp.decimate(lvl[1], stride, cur_dis, dis_stride,
                            w, h, bpc, scale, buf);
            cur_ref    = (const uint8_t *)lvl[0];
            cur_dis    = (const uint8_t *)lvl[1];
            ref_stride = dis_stride = stride;
            w  /= 2;
            h  /= 2;
            /* Pyramid levels are Q8 of 8-bit units, rounded like 16-bit input. */
            bpc = 16;
        }

        /* A skipped scale 0 is written by ff_vmaf_vif_write(). */
        if (scale == 0 && s->skip_scale0)
            continue;
        s->dsp.statistic(&acc[scale], cur_ref, ref_stride, cur_dis,
                         dis_stride, w, h, bpc, scale, s->enhn_gain_limit,
                         s->log2_tab, buf);
    }

    return ff_vmaf_vif_write(f, fc, index, acc);
}

void ff_vmaf_vif_close(FFVmafFeature *f)
{
    VIFContext *s = f->priv;

    av_freep(&s->log2_tab);
    av_freep(&s->buf);
}

const FFVmafExtractor ff_vmaf_extractor_vif = {
    .name      = "vif",
    .options   = ff_vmaf_vif_options,
    .priv_size = sizeof(VIFContext),
    .flags     = 0,
    .provides  = ff_vmaf_vif_provides,
    .init      = ff_vmaf_vif_init,
    .extract   = vif_extract,
    .close     = ff_vmaf_vif_close,
};
