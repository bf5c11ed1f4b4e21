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
 * libvmaf's "float_ms_ssim" extractor: float_ms_ssim and, with enable_lcs,
 * float_ms_ssim_{l,c,s}_scale0..4.
 *
 * Five-scale SSIM of the luma plane: the SSIM core of ssim_dsp.c at each
 * level of a pyramid built with the 9 x 9 low-pass, the per-scale means
 * combined with fixed exponents. Frames are independent; the scratch is
 * the instance's, allocated at init (the engine gives each thread its own
 * instance).
 */

#include <math.h>
#include <stddef.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "ssim.h"
#include "ssim_dsp.h"

#define SCALES FF_VMAF_MS_SSIM_SCALES
/* The coarsest scale must still hold one Gaussian window after four
 * halvings: 11 << 4. */
#define MIN_SIZE (FF_VMAF_SSIM_WINDOW << (SCALES - 1))

/* None of these is a feature parameter: libvmaf never renames the keys. */
#define OFFSET(x) offsetof(MSSSIMContext, x)
const FFVmafOption ff_vmaf_ms_ssim_options[] = {
    { "enable_lcs", NULL, FF_VMAF_OPT_BOOL, OFFSET(enable_lcs), 0, NULL, 0, 1, 0 },
    { "enable_db",  NULL, FF_VMAF_OPT_BOOL, OFFSET(enable_db),  0, NULL, 0, 1, 0 },
    { "clip_db",    NULL, FF_VMAF_OPT_BOOL, OFFSET(clip_db),    0, NULL, 0, 1, 0 },
    { NULL }
};

/* Exponents of the luminance, contrast and structure means per scale
 * (Wang, Simoncelli and Bovik): luminance counts at the coarsest only.
 * libvmaf holds them in float and raises in double; the float rounding of
 * the exponents shows in the result (about 1e-10), so keep it. */
static const float alpha[SCALES]  = { 0.0f,    0.0f,    0.0f,    0.0f,    0.1333f };
static const float beta[SCALES]   = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };
static const float gamma_[SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };

static const char *const lcs_names[3][SCALES] = {
    { "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
      "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4" },
    { "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
      "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4" },
    { "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
      "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4" },
};

const char *const ff_vmaf_ms_ssim_provides[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
    "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
    "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4",
    NULL
};

int ff_vmaf_ms_ssim_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    MSSSIMContext *s = f->priv;

    if (geo->bpc < 8 || geo->bpc > 16) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "float_ms_ssim: unsupported bit depth %d (8 to 16 accepted)\n", geo->bpc);
        return AVERROR(EINVAL);
    }
    if (geo->width < MIN_SIZE || geo->height < MIN_SIZE) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "float_ms_ssim: frame size %dx%d is too small: at least %dx%d is "
               "needed for %d scales\n", geo->width, geo->height,
               MIN_SIZE, MIN_SIZE, SCALES);
        return AVERROR(EINVAL);
    }
    s->max_db = ff_vmaf_ssim_max_db(s->clip_db, geo->width, geo->height, geo->bpc);
    s->w = geo->width;
    s->h = geo->height;
    ff_vmaf_ssim_dsp_init(&s->dsp, geo->bpc);

    av_freep(&s->buf);
    s->buf = av_malloc_array(2 * ((size_t)s->w * s->h +
                                  (size_t)ff_vmaf_ssim_decimated_size(s->w, 2) *
                                  ff_vmaf_ssim_decimated_size(s->h, 2)) +
                             ff_vmaf_ssim_tmp_floats(s->w), sizeof(*s->buf));
    if (!s->buf)
        return AVERROR(ENOMEM);
    return 0;
}

void ff_vmaf_ms_ssim_close(FFVmafFeature *f)
{
    MSSSIMContext *s = f->priv;
    av_freep(&s->buf);
}

static int ms_ssim_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                           const FFVmafPicture *dis, unsigned index,
                           struct FFVmafFeatureCollector *fc)
{
    const MSSSIMContext *s = f->priv;
    int w = ref->w[0], h = ref->h[0];
    /* Levels alternate between two buffer pairs: even scales in the
     * full-size one, odd scales in the half-size one. */
    const size_t full = (size_t)w * h;
    const size_t half = (size_t)ff_vmaf_ssim_decimated_size(w, 2) *
                        ff_vmaf_ssim_decimated_size(h, 2);
    float *lvl[2][2], *tmp;
    FFVmafSsimSums sums[SCALES];

    if (w != s->w || h != s->h)
        return AVERROR(EINVAL);
    lvl[0][0] = s->buf;
    lvl[0][1] = lvl[0][0] + full;
    lvl[1][0] = lvl[0][1] + full;
    lvl[1][1] = lvl[1][0] + half;
    tmp       = lvl[1][1] + half;

    s->dsp.load(lvl[0][0], w, ref->data[0], ref->linesize[0], w, h, ref->bpc);
    s->dsp.load(lvl[0][1], w, dis->data[0], dis->linesize[0], w, h, dis->bpc);
    for (int i = 0; i < SCALES; i++) {
        float *const *cur = lvl[i & 1];

        if (i > 0) {
            float *const *prev = lvl[!(i & 1)];
            const int nw = ff_vmaf_ssim_decimated_size(w, 2);
            s->dsp.ms_ssim_decimate(cur[0], nw, prev[0], w, w, h);
            s->dsp.ms_ssim_decimate(cur[1], nw, prev[1], w, w, h);
            w = nw;
            h = ff_vmaf_ssim_decimated_size(h, 2);
        }
        ff_vmaf_ssim_sums_dsp(&s->dsp, &sums[i], cur[0], w, cur[1], w, w, h, tmp);
    }
    return ff_vmaf_ms_ssim_write(f, fc, index, sums);
}

int ff_vmaf_ms_ssim_write(FFVmafFeature *f, FFVmafFeatureCollector *fc, unsigned index,
                          const FFVmafSsimSums sums[SCALES])
{
    const MSSSIMContext *s = f->priv;
    int w = s->w, h = s->h;
    float mean[3][SCALES];
    double score = 1.0;
    int ret;

    for (int i = 0; i < SCALES; i++) {
        double n;
        if (i > 0) {
            w = ff_vmaf_ssim_decimated_size(w, 2);
            h = ff_vmaf_ssim_decimated_size(h, 2);
        }
        n = (double)(w - FF_VMAF_SSIM_WINDOW + 1) * (h - FF_VMAF_SSIM_WINDOW + 1);
        /* libvmaf keeps each mean as a float. */
        mean[0][i] = (float)(sums[i].l / n);
        mean[1][i] = (float)(sums[i].c / n);
        mean[2][i] = (float)(sums[i].s / n);
    }

    /* The product of each scale's three factors, then into the total. */
    for (int i = 0; i < SCALES; i++)
        score *= pow(mean[0][i], alpha[i]) * pow(mean[1][i], beta[i]) *
                 pow(mean[2][i], gamma_[i]);
    if (s->enable_db)
        score = ff_vmaf_ssim_to_db(score, s->max_db);

    ret = ff_vmaf_feature_write(f, fc, "float_ms_ssim", index, score);
    for (int k = 0; k < 3 && s->enable_lcs; k++)
        for (int i = 0; i < SCALES && ret >= 0; i++)
            ret = ff_vmaf_feature_write(f, fc, lcs_names[k][i], index, mean[k][i]);
    return ret;
}

const FFVmafExtractor ff_vmaf_extractor_float_ms_ssim = {
    .name      = "float_ms_ssim",
    .options   = ff_vmaf_ms_ssim_options,
    .priv_size = sizeof(MSSSIMContext),
    .flags     = 0,
    .provides  = ff_vmaf_ms_ssim_provides,
    .init      = ff_vmaf_ms_ssim_init,
    .extract   = ms_ssim_extract,
    .close     = ff_vmaf_ms_ssim_close,
};
