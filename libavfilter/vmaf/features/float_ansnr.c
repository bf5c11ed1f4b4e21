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
 * libvmaf's "float_ansnr" extractor: the SNR of the reference, smoothed by
 * a 3x3 filter, against the distorted picture smoothed by a 5x5 filter
 * that models contrast sensitivity ("anti-noise SNR"). It also writes
 * float_anpsnr, the same noise as a PSNR.
 */

#include <math.h>
#include <stddef.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"
#include "float_simple.h"

#define REF_TAPS FF_VMAF_ANSNR_REF_TAPS
#define DIS_TAPS FF_VMAF_ANSNR_DIS_TAPS

static const int ref_weights[REF_TAPS * REF_TAPS] = {
    1, 2, 1,
    2, 4, 2,
    1, 2, 1,
};

static const int dis_weights[DIS_TAPS * DIS_TAPS] = {
     2,  7,  12,  7,  2,
     7, 31,  52, 31,  7,
    12, 52, 127, 52, 12,
     7, 31,  52, 31,  7,
     2,  7,  12,  7,  2,
};

int ff_vmaf_float_ansnr_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatANSNRContext *s = f->priv;

    ff_vmaf_float_dsp_init(&s->dsp);
    if (geo->width <= DIS_TAPS / 2 || geo->height <= DIS_TAPS / 2) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_ansnr' needs frames of at least %dx%d, got %dx%d.\n",
               DIS_TAPS / 2 + 1, DIS_TAPS / 2 + 1, geo->width, geo->height);
        return AVERROR(EINVAL);
    }
    s->peak = ff_vmaf_float_psnr_peak(geo->bpc);
    s->cap  = ff_vmaf_float_psnr_cap(geo->bpc);
    for (int i = 0; i < REF_TAPS * REF_TAPS; i++)
        s->ref_kernel[i] = (float)(ref_weights[i] / 16.0);
    for (int i = 0; i < DIS_TAPS * DIS_TAPS; i++)
        s->dis_kernel[i] = (float)(dis_weights[i] / 571.0);
    return 0;
}

static int float_ansnr_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                               const FFVmafPicture *dis, unsigned index,
                               struct FFVmafFeatureCollector *fc)
{
    const FloatANSNRContext *s = f->priv;
    const int w = ref->w[0], h = ref->h[0];
    const size_t plane = (size_t)w * h;
    float *buf, *src, *ref_f, *dis_f, *tmp;
    float sig = 0.0f, noise = 0.0f;

    buf = av_malloc_array(3 * plane + ff_vmaf_float_filter2d_tmp_size(w),
                          sizeof(*buf));
    if (!buf)
        return AVERROR(ENOMEM);
    src   = buf;
    ref_f = src + plane;
    dis_f = ref_f + plane;
    tmp   = dis_f + plane;

    s->dsp.from_luma(src, w, ref->data[0], ref->linesize[0],
                     w, h, ref->bpc, -128.0f);
    s->dsp.filter2d(ref_f, w, src, w, w, h, s->ref_kernel, REF_TAPS, tmp);
    s->dsp.from_luma(src, w, dis->data[0], dis->linesize[0],
                     w, h, dis->bpc, -128.0f);
    s->dsp.filter2d(dis_f, w, src, w, w, h, s->dis_kernel, DIS_TAPS, tmp);

    /* Float sums per row, then a float sum of the rows. */
    for (int i = 0; i < h; i++) {
        const float *r = ref_f + i * w, *d = dis_f + i * w;
        float row_sig = 0.0f, row_noise = 0.0f;
        for (int j = 0; j < w; j++) {
            float e = r[j] - d[j];
            row_sig   += r[j] * r[j];
            row_noise += e * e;
        }
        sig   += row_sig;
        noise += row_noise;
    }
    av_free(buf);
    return ff_vmaf_float_ansnr_write(f, fc, index, sig, noise, w, h);
}

int ff_vmaf_float_ansnr_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                              unsigned index, float sig, float noise, int w, int h)
{
    const FloatANSNRContext *s = f->priv;
    double anpsnr;
    int ret;

    ret = ff_vmaf_feature_write(f, fc, "float_ansnr", index,
                                noise == 0.0f ? s->cap :
                                10.0 * log10((double)(sig / noise)));
    if (ret < 0)
        return ret;
    anpsnr = 10.0 * log10(s->peak * s->peak * w * h / FFMAX((double)noise, 1e-10));
    return ff_vmaf_feature_write(f, fc, "float_anpsnr", index,
                                 FFMIN(anpsnr, s->cap));
}

/* libvmaf declares only float_ansnr: float_anpsnr never takes a suffix. */
const char *const ff_vmaf_float_ansnr_provides[] = { "float_ansnr", NULL };
const char *const ff_vmaf_float_ansnr_plain_outputs[] = { "float_anpsnr", NULL };

const FFVmafExtractor ff_vmaf_extractor_float_ansnr = {
    .name      = "float_ansnr",
    .priv_size = sizeof(FloatANSNRContext),
    .provides  = ff_vmaf_float_ansnr_provides,
    .plain_outputs = ff_vmaf_float_ansnr_plain_outputs,
    .init      = ff_vmaf_float_ansnr_init,
    .extract   = float_ansnr_extract,
};
