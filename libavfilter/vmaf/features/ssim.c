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
 * libvmaf's "float_ssim" extractor: float_ssim and, with enable_lcs,
 * float_ssim_l, float_ssim_c, float_ssim_s.
 *
 * Single-scale SSIM of the luma plane, after a box decimation that keeps
 * the smaller side near 256 samples (or by the factor of the scale
 * option). Frames are independent; the scratch is the instance's,
 * allocated at init (the engine gives each thread its own instance).
 */

#include <stddef.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "ssim.h"
#include "ssim_dsp.h"

/* None of these is a feature parameter: libvmaf never renames the keys. */
#define OFFSET(x) offsetof(SSIMContext, x)
const FFVmafOption ff_vmaf_ssim_options[] = {
    { "enable_lcs", NULL, FF_VMAF_OPT_BOOL, OFFSET(enable_lcs), 0, NULL, 0, 1,  0 },
    { "enable_db",  NULL, FF_VMAF_OPT_BOOL, OFFSET(enable_db),  0, NULL, 0, 1,  0 },
    { "clip_db",    NULL, FF_VMAF_OPT_BOOL, OFFSET(clip_db),    0, NULL, 0, 1,  0 },
    { "scale",      NULL, FF_VMAF_OPT_INT,  OFFSET(scale),      0, NULL, 0, 10, 0 },
    { NULL }
};

const char *const ff_vmaf_ssim_provides[] = {
    "float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", NULL
};

int ff_vmaf_ssim_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    SSIMContext *s = f->priv;

    if (geo->bpc < 8 || geo->bpc > 16) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "float_ssim: unsupported bit depth %d (8 to 16 accepted)\n", geo->bpc);
        return AVERROR(EINVAL);
    }

    s->factor = s->scale;
    if (!s->factor) {
        /* round(min(w, h) / 256), at least 1: 4 at 1080p, 1 below 384. */
        const int side = geo->width < geo->height ? geo->width : geo->height;
        s->factor = (int)(side / 256.0f + 0.5f);
        if (s->factor < 1)
            s->factor = 1;
    }
    s->sw = s->factor > 1 ? ff_vmaf_ssim_decimated_size(geo->width,  s->factor) : geo->width;
    s->sh = s->factor > 1 ? ff_vmaf_ssim_decimated_size(geo->height, s->factor) : geo->height;
    if (s->sw < FF_VMAF_SSIM_WINDOW || s->sh < FF_VMAF_SSIM_WINDOW) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "float_ssim: frame size %dx%d is too small: at least %dx%d is "
               "needed after decimation by %d\n", geo->width, geo->height,
               FF_VMAF_SSIM_WINDOW, FF_VMAF_SSIM_WINDOW, s->factor);
        return AVERROR(EINVAL);
    }
    s->max_db = ff_vmaf_ssim_max_db(s->clip_db, geo->width, geo->height, geo->bpc);
    s->w = geo->width;
    s->h = geo->height;
    ff_vmaf_ssim_dsp_init(&s->dsp, geo->bpc);

    av_freep(&s->buf);
    s->buf = av_malloc_array(2 * (size_t)s->w * s->h +
                             (s->factor > 1 ? 2 * (size_t)s->sw * s->sh : 0) +
                             ff_vmaf_ssim_tmp_floats(s->sw), sizeof(*s->buf));
    if (!s->buf)
        return AVERROR(ENOMEM);
    return 0;
}

void ff_vmaf_ssim_close(FFVmafFeature *f)
{
    SSIMContext *s = f->priv;
    av_freep(&s->buf);
}

static int ssim_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                        const FFVmafPicture *dis, unsigned index,
                        struct FFVmafFeatureCollector *fc)
{
    const SSIMContext *s = f->priv;
    const int w = ref->w[0], h = ref->h[0], sw = s->sw, sh = s->sh;
    const size_t full = (size_t)w * h, small = (size_t)sw * sh;
    FFVmafSsimSums sums;
    float *ref_f, *dis_f, *tmp;

    if (w != s->w || h != s->h)
        return AVERROR(EINVAL);
    ref_f = s->buf;
    dis_f = ref_f + full;
    tmp   = dis_f + full;
    s->dsp.load(ref_f, w, ref->data[0], ref->linesize[0], w, h, ref->bpc);
    s->dsp.load(dis_f, w, dis->data[0], dis->linesize[0], w, h, dis->bpc);
    if (s->factor > 1) {
        float *ref_d = tmp, *dis_d = tmp + small;
        s->dsp.box_decimate(ref_d, sw, ref_f, w, w, h, s->factor);
        s->dsp.box_decimate(dis_d, sw, dis_f, w, w, h, s->factor);
        ref_f = ref_d;
        dis_f = dis_d;
        tmp  += 2 * small;
    }
    ff_vmaf_ssim_sums_dsp(&s->dsp, &sums, ref_f, sw, dis_f, sw, sw, sh, tmp);
    return ff_vmaf_ssim_write(f, fc, index, &sums);
}

int ff_vmaf_ssim_write(FFVmafFeature *f, FFVmafFeatureCollector *fc, unsigned index,
                       const FFVmafSsimSums *sums)
{
    const SSIMContext *s = f->priv;
    /* Every mean is rounded to float, as libvmaf reports them. */
    const double n = (double)(s->sw - FF_VMAF_SSIM_WINDOW + 1) * (s->sh - FF_VMAF_SSIM_WINDOW + 1);
    double score = (float)(sums->ssim / n);
    int ret;

    if (s->enable_db)
        score = ff_vmaf_ssim_to_db(score, s->max_db);
    ret = ff_vmaf_feature_write(f, fc, "float_ssim", index, score);
    if (ret < 0 || !s->enable_lcs)
        return ret;
    ret = ff_vmaf_feature_write(f, fc, "float_ssim_l", index, (float)(sums->l / n));
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "float_ssim_c", index, (float)(sums->c / n));
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "float_ssim_s", index, (float)(sums->s / n));
    return ret;
}

const FFVmafExtractor ff_vmaf_extractor_float_ssim = {
    .name      = "float_ssim",
    .options   = ff_vmaf_ssim_options,
    .priv_size = sizeof(SSIMContext),
    .flags     = 0,
    .provides  = ff_vmaf_ssim_provides,
    .init      = ff_vmaf_ssim_init,
    .extract   = ssim_extract,
    .close     = ff_vmaf_ssim_close,
};
