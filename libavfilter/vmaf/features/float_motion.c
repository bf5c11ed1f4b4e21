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
 * libvmaf's "float_motion" extractor: the mean absolute difference between
 * consecutive blurred reference frames (motion), the smaller of a frame's
 * and the next frame's (motion2) and its blended form (motion3).
 *
 * motion2 and motion3 of frame i need frame i + 1: they are written as soon
 * as it arrives, those of the last frame at flush, so the delay is one frame.
 */

#include <stddef.h>
#include <math.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"
#include "float_simple.h"

#define MOTION_NAME  "VMAF_feature_motion_score"
#define MOTION2_NAME "VMAF_feature_motion2_score"
#define MOTION3_NAME "VMAF_feature_motion3_score"

/*
 * libvmaf's fixed blur taps, as float32 literals: the 5-tap one is one ulp
 * away from the generated Gaussian that float_vif uses at scale 2.
 */
static const float blur5[5] = {
    0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f,
};
static const float blur3[3] = { 0.166378498f, 0.667243004f, 0.166378498f };

#define OFFSET(x) offsetof(FloatMotionContext, x)
const FFVmafOption ff_vmaf_float_motion_options[] = {
    /* On by default: libvmaf prints "motion" beside motion2 and motion3. */
    { "debug",               NULL,      FF_VMAF_OPT_BOOL,   OFFSET(debug),        1,       NULL, 0, 1, 0 },
    { "motion_force_zero",   "force_0", FF_VMAF_OPT_BOOL,   OFFSET(force_zero),   0,       NULL, 0, 1, 1 },
    { "motion_filter_size",  "mfs",     FF_VMAF_OPT_INT,    OFFSET(filter_size),  5,       NULL, 1, 5, 1 },
    { "motion_add_scale1",   "mdc",     FF_VMAF_OPT_BOOL,   OFFSET(add_scale1),   0,       NULL, 0, 1, 1 },
    { "motion_add_uv",       "mau",     FF_VMAF_OPT_BOOL,   OFFSET(add_uv),       0,       NULL, 0, 1, 1 },
    { "motion_fps_weight",   "mfw",     FF_VMAF_OPT_DOUBLE, OFFSET(fps_weight),   1.0,     NULL, 0, 5, 1 },
    { "motion_max_val",      "mmxv",    FF_VMAF_OPT_DOUBLE, OFFSET(max_val),      10000.0, NULL, 0, 10000, 1 },
    { "motion_blend_factor", "mbf",     FF_VMAF_OPT_DOUBLE, OFFSET(blend_factor), 1.0,     NULL, 0, 1, 1 },
    { "motion_blend_offset", "mbo",     FF_VMAF_OPT_DOUBLE, OFFSET(blend_offset), 40.0,    NULL, 0, 1000, 1 },
    { NULL }
};

void ff_vmaf_float_motion_close(FFVmafFeature *f)
{
    FloatMotionContext *s = f->priv;

    av_freep(&s->src);
    av_freep(&s->blur[0]);
    av_freep(&s->blur[1]);
    av_freep(&s->tmp);
}

int ff_vmaf_float_motion_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatMotionContext *s = f->priv;
    const size_t plane = (size_t)geo->width * geo->height;
    int min;

    ff_vmaf_float_dsp_init(&s->dsp);
    s->w = geo->width;
    s->h = geo->height;
    /* Every value is known at once when nothing is computed. */
    f->frame_delay = s->force_zero ? 0 : 1;
    if (s->force_zero)
        return 0;

    if (s->add_scale1 || s->add_uv) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_motion': motion_add_scale1 and motion_add_uv "
               "are not supported.\n");
        return AVERROR(ENOSYS);
    }
    switch (s->filter_size) {
    case 5: s->taps = blur5; break;
    case 3: s->taps = blur3; break;
    case 1: s->taps = NULL;  break;
    default:
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_motion': motion_filter_size must be 1, 3 or 5, "
               "got %d.\n", s->filter_size);
        return AVERROR(EINVAL);
    }
    min = s->filter_size / 2 + 1;
    if (s->w < min || s->h < min) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_motion' needs frames of at least %dx%d, got %dx%d.\n",
               min, min, s->w, s->h);
        return AVERROR(EINVAL);
    }

    s->src     = av_malloc_array(plane, sizeof(*s->src));
    s->blur[0] = av_malloc_array(plane, sizeof(*s->blur[0]));
    s->blur[1] = av_malloc_array(plane, sizeof(*s->blur[1]));
    s->tmp     = av_malloc_array(ff_vmaf_float_conv_tmp_size(s->w), sizeof(*s->tmp));
    if (!s->src || !s->blur[0] || !s->blur[1] || !s->tmp) {
        /* The engine closes only the features whose init succeeded. */
        ff_vmaf_float_motion_close(f);
        return AVERROR(ENOMEM);
    }
    return 0;
}

/* motion compares a frame's blurred reference with the previous one's, and
 * motion2 takes the smaller of a frame's motion and the next frame's. */
static void float_motion_context(const FFVmafFeature *f, int *before, int *after)
{
    const FloatMotionContext *s = f->priv;

    *before = *after = s->force_zero ? 0 : 1;
}

/* Mean |prev - cur|: float sums per row, then a float sum of the rows. */
static float mean_abs_diff(const float *prev, const float *cur, int w, int h)
{
    float sum = 0.0f;

    for (int i = 0; i < h; i++) {
        const float *a = prev + i * w, *b = cur + i * w;
        float row = 0.0f;
        for (int j = 0; j < w; j++)
            row += fabsf(a[j] - b[j]);
        sum += row;
    }
    return sum / (float)(w * h);
}

/* x * bf + (1 - bf) * min(bo, x): the identity at the default bf = 1. */
static double blend(const FloatMotionContext *s, double x)
{
    return x * s->blend_factor + (1.0 - s->blend_factor) * FFMIN(s->blend_offset, x);
}

static int write_m2_m3(FFVmafFeature *f, struct FFVmafFeatureCollector *fc,
                       unsigned index, float m2)
{
    const FloatMotionContext *s = f->priv;
    double x = m2 * s->fps_weight;
    int ret = ff_vmaf_feature_write(f, fc, MOTION2_NAME, index,
                                    FFMIN(x, s->max_val));
    if (ret < 0)
        return ret;
    return ff_vmaf_feature_write(f, fc, MOTION3_NAME, index,
                                 FFMIN(blend(s, x), s->max_val));
}

void ff_vmaf_float_motion_blur(FloatMotionContext *s, unsigned index,
                               const uint8_t *data, ptrdiff_t linesize, int bpc)
{
    float *cur = s->blur[index % 2];

    s->dsp.from_luma(s->taps ? s->src : cur, s->w, data, linesize,
                     s->w, s->h, bpc, -128.0f);
    if (s->taps)
        ff_vmaf_float_conv(&s->dsp, cur, s->w, s->src, s->w, s->w, s->h,
                           s->taps, s->filter_size, 1, s->tmp);
}

static int float_motion_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                const FFVmafPicture *dis, unsigned index,
                                struct FFVmafFeatureCollector *fc)
{
    FloatMotionContext *s = f->priv;
    float motion = 0.0f;

    if (index != s->nb_frames) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_motion' got frame %u, expected %u.\n",
               index, s->nb_frames);
        return AVERROR_BUG;
    }
    if (!s->force_zero) {
        ff_vmaf_float_motion_blur(s, index, ref->data[0], ref->linesize[0], ref->bpc);
        if (index > 0)
            motion = mean_abs_diff(s->blur[(index - 1) % 2], s->blur[index % 2], s->w, s->h);
    }
    return ff_vmaf_float_motion_write(f, fc, index, motion);
}

int ff_vmaf_float_motion_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                               unsigned index, float motion)
{
    FloatMotionContext *s = f->priv;
    int ret = 0;

    s->nb_frames++;
    if (s->force_zero) {
        ret = ff_vmaf_feature_write(f, fc, MOTION2_NAME, index, 0.0);
        if (ret >= 0 && s->debug)
            ret = ff_vmaf_feature_write(f, fc, MOTION_NAME, index, 0.0);
        if (ret >= 0)
            ret = ff_vmaf_feature_write(f, fc, MOTION3_NAME, index, 0.0);
        return ret;
    }

    /* libvmaf writes motion2 of frame 0 first, before motion. */
    if (index == 0 && (ret = ff_vmaf_feature_write(f, fc, MOTION2_NAME, 0, 0.0)) < 0)
        return ret;
    if (s->debug &&
        (ret = ff_vmaf_feature_write(f, fc, MOTION_NAME, index,
                                     FFMIN(motion * s->fps_weight, s->max_val))) < 0)
        return ret;

    if (index == 1) {
        /* Frame 0 has motion2 0, but its motion3 takes frame 1's motion. */
        ret = ff_vmaf_feature_write(f, fc, MOTION3_NAME, 0,
                                    FFMIN(blend(s, motion * s->fps_weight), s->max_val));
    } else if (index > 1) {
        ret = write_m2_m3(f, fc, index - 1, FFMIN(s->prev_motion, motion));
    }
    s->prev_motion = motion;
    return ret < 0 ? ret : 0;
}

int ff_vmaf_float_motion_flush(FFVmafFeature *f, FFVmafFeatureCollector *fc)
{
    FloatMotionContext *s = f->priv;

    if (s->force_zero || !s->nb_frames)
        return 0;
    if (s->nb_frames == 1)
        return ff_vmaf_feature_write(f, fc, MOTION3_NAME, 0, 0.0);
    /* The last frame has no successor: motion2 is its own motion. */
    return write_m2_m3(f, fc, s->nb_frames - 1, s->prev_motion);
}

const char *const ff_vmaf_float_motion_provides[] = {
    MOTION_NAME, MOTION2_NAME, MOTION3_NAME, NULL
};

const FFVmafExtractor ff_vmaf_extractor_float_motion = {
    .name        = "float_motion",
    .options     = ff_vmaf_float_motion_options,
    .priv_size   = sizeof(FloatMotionContext),
    /* Each value compares a reference frame with the previous one: every
     * frame, in order, even when n_subsample skips the others. */
    .flags       = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME,
    .provides    = ff_vmaf_float_motion_provides,
    .frame_delay = 1,
    .context     = float_motion_context,
    .init        = ff_vmaf_float_motion_init,
    .extract     = float_motion_extract,
    .flush       = ff_vmaf_float_motion_flush,
    .close       = ff_vmaf_float_motion_close,
};
