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
 * libvmaf 3.2's SpEED-QA extractors: "speed_chroma" (speed_chroma_u,
 * speed_chroma_v, speed_chroma_uv; used by the vmaf_v1.0.16 models) and
 * "speed_temporal" (speed_temporal, on luma frame differences).
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "speed.h"
#include "speed_dsp.h"

#define CHROMA_U_NAME  "Speed_chroma_feature_speed_chroma_u_score"
#define CHROMA_V_NAME  "Speed_chroma_feature_speed_chroma_v_score"
#define CHROMA_UV_NAME "Speed_chroma_feature_speed_chroma_uv_score"
#define TEMPORAL_NAME  "Speed_temporal_feature_speed_temporal_score"

#define OFFSET(x) offsetof(SpeedContext, x)
#define COMMON_OPTIONS \
    { "speed_kernelscale",     "ks",  FF_VMAF_OPT_DOUBLE, OFFSET(kernelscale),     1.0,    NULL,      0.1, 4.0,    1 }, \
    { "speed_prescale",        "ps",  FF_VMAF_OPT_DOUBLE, OFFSET(prescale),        1.0,    NULL,      0.1, 4.0,    1 }, \
    { "speed_prescale_method", "psm", FF_VMAF_OPT_STRING, OFFSET(prescale_method), 0,      "nearest", 0,   0,      1 }, \
    { "speed_sigma_nn",        "snn", FF_VMAF_OPT_DOUBLE, OFFSET(sigma_nn),        0.29,   NULL,      0.1, 2.0,    1 }, \
    { "speed_nn_floor",        "nnf", FF_VMAF_OPT_DOUBLE, OFFSET(nn_floor),        0.0,    NULL,      0.0, 1.0,    1 }, \
    { "speed_max_val",         "mxv", FF_VMAF_OPT_DOUBLE, OFFSET(max_val),         1000.0, NULL,      0.0, 1000.0, 1 }

const FFVmafOption ff_vmaf_speed_chroma_options[] = {
    COMMON_OPTIONS,
    { "speed_weight_var_mode", "wvm", FF_VMAF_OPT_INT, OFFSET(weight_var_mode), 0, NULL, 0, 6, 1 },
    { NULL }
};

const FFVmafOption ff_vmaf_speed_temporal_options[] = {
    COMMON_OPTIONS,
    { "speed_use_ref_diff", "urd", FF_VMAF_OPT_BOOL, OFFSET(use_ref_diff), 0, NULL, 0, 1, 1 },
    { NULL }
};

static const char *const scale_methods[] = {
    [FF_VMAF_SPEED_SCALE_NEAREST]  = "nearest",
    [FF_VMAF_SPEED_SCALE_BILINEAR] = "bilinear",
    [FF_VMAF_SPEED_SCALE_BICUBIC]  = "bicubic",
    [FF_VMAF_SPEED_SCALE_LANCZOS4] = "lanczos4",
};

/* Smallest plane side whose prescaled size still gives one block. */
static int min_plane_side(double prescale)
{
    const int need = FF_VMAF_SPEED_MIN_OPERATING * FF_VMAF_SPEED_DECIMATION;
    int side = need;

    if (fabs(prescale - 1.0) >= 1e-3) {
        side = 1;
        while ((int)(side * prescale + 0.5) < need)
            side++;
    }
    return side;
}

/*
 * Check the options and fill s->cfg for the luma plane or, with chroma,
 * the chroma planes. libvmaf only logs "image too small" and then crashes
 * on the first frame; fail here.
 */
static int speed_setup(FFVmafFeature *f, const FFVmafGeometry *geo,
                       int chroma, int wvm)
{
    SpeedContext *s = f->priv;
    const int ss_x = chroma ? geo->ss_x : 0, ss_y = chroma ? geo->ss_y : 0;
    const int w = geo->width >> ss_x, h = geo->height >> ss_y;
    int method = -1;

    for (int i = 0; i < FF_ARRAY_ELEMS(scale_methods); i++)
        if (s->prescale_method && !strcmp(s->prescale_method, scale_methods[i]))
            method = i;
    if (method < 0) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Invalid speed_prescale_method '%s' for feature '%s': expected "
               "nearest, bilinear, bicubic or lanczos4.\n",
               s->prescale_method ? s->prescale_method : "", f->ex->name);
        return AVERROR(EINVAL);
    }
    if (!ff_vmaf_speed_kernelscale_valid(s->kernelscale)) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Invalid speed_kernelscale %g for feature '%s': expected one of "
               "1, 1/2, 3/2, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, "
               "5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, 1.06667, 0.711111, "
               "0.740740, 1.111111.\n", s->kernelscale, f->ex->name);
        return AVERROR(EINVAL);
    }

    ff_vmaf_speed_dsp_init(&s->dsp);
    ff_vmaf_speed_config_init(&s->cfg, w, h, s->kernelscale, s->prescale,
                              method, s->sigma_nn, s->nn_floor, wvm);
    if (s->cfg.wo < FF_VMAF_SPEED_MIN_OPERATING ||
        s->cfg.ho < FF_VMAF_SPEED_MIN_OPERATING) {
        int side = min_plane_side(s->prescale);
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature '%s' needs frames of at least %dx%d (%s planes of "
               "at least %dx%d with speed_prescale %g), got %dx%d.\n",
               f->ex->name, side << ss_x, side << ss_y,
               chroma ? "chroma" : "luma", side, side, s->prescale,
               geo->width, geo->height);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* speed_chroma                                                           */

int ff_vmaf_speed_chroma_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    SpeedContext *s = f->priv;

    s->bpc = geo->bpc;
    return speed_setup(f, geo, 1, s->weight_var_mode);
}

/*
 * A singular block covariance in either picture makes the score 0.
 * *singular tells whether the plane is left out of speed_chroma_uv:
 * libvmaf treats a pair with exactly one singular picture as a failure,
 * while with both singular the score is computed as usual (every term is
 * 0) and the plane still counts. (No reference run has a plane singular
 * in both pictures next to a regular plane, so that last case rests on
 * the specification alone.)
 */
float ff_vmaf_speed_pair_score(const FFVmafSpeedConfig *c, const float *stats,
                               int sing_ref, int sing_dis, int *singular)
{
    const int nb = ff_vmaf_speed_nb_blocks(c);

    *singular = sing_ref != sing_dis;
    /* A singular model has zero variances, hence zero score terms. */
    if (sing_ref || sing_dis)
        return 0.0f;
    return ff_vmaf_speed_score(c, stats, stats + nb, stats + 2 * nb, stats + 3 * nb);
}

/* Score one chroma plane pair. */
static float chroma_plane_score(const SpeedContext *s,
                                const FFVmafPicture *ref,
                                const FFVmafPicture *dis, int plane,
                                float *stats, FFVmafSpeedScratch *tmp,
                                int *singular)
{
    const FFVmafSpeedConfig *c = &s->cfg;
    const int nb = ff_vmaf_speed_nb_blocks(c);
    float *sr = stats, *er = stats + nb, *sd = stats + 2 * nb, *ed = stats + 3 * nb;
    FFVmafSpeedSource src_ref = { ref->data[plane], ref->linesize[plane], NULL, 0, s->bpc };
    FFVmafSpeedSource src_dis = { dis->data[plane], dis->linesize[plane], NULL, 0, s->bpc };
    int sing_ref, sing_dis;

    sing_ref = ff_vmaf_speed_plane_stats(c, &s->dsp, &src_ref, sr, er, tmp);
    sing_dis = ff_vmaf_speed_plane_stats(c, &s->dsp, &src_dis, sd, ed, tmp);
    return ff_vmaf_speed_pair_score(c, stats, sing_ref, sing_dis, singular);
}

int ff_vmaf_speed_chroma_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                               unsigned index, float score_u, int sing_u,
                               float score_v, int sing_v)
{
    const SpeedContext *s = f->priv;
    float score_uv;
    int ret;

    if (sing_u || sing_v)
        av_log(f->log_ctx, AV_LOG_VERBOSE, "speed_chroma: frame %u: block "
               "covariance of the %s plane is singular in one picture.\n",
               index, sing_u && sing_v ? "U and V" : sing_u ? "U" : "V");
    /* A singular plane says nothing: the other one alone gives uv. */
    if (sing_u && !sing_v)
        score_uv = score_v;
    else if (sing_v && !sing_u)
        score_uv = score_u;
    else
        score_uv = (float)((score_u + score_v) / 2.0);

    ret = ff_vmaf_feature_write(f, fc, CHROMA_U_NAME, index,
                                FFMIN((double)score_u, s->max_val));
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, CHROMA_V_NAME, index,
                                    FFMIN((double)score_v, s->max_val));
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, CHROMA_UV_NAME, index,
                                    FFMIN((double)score_uv, s->max_val));
    return ret;
}

static int speed_chroma_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                const FFVmafPicture *dis, unsigned index,
                                FFVmafFeatureCollector *fc)
{
    const SpeedContext *s = f->priv;
    const FFVmafSpeedConfig *c = &s->cfg;
    const int nb = ff_vmaf_speed_nb_blocks(c);
    FFVmafSpeedScratch tmp;
    float *stats, score_u, score_v;
    int sing_u, sing_v, ret;

    /* Instances may run on several frames at once: private scratch. */
    if ((ret = ff_vmaf_speed_scratch_alloc(&tmp, c)) < 0)
        return ret;
    if (!(stats = av_malloc_array(4 * (size_t)nb, sizeof(*stats)))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }

    score_u = chroma_plane_score(s, ref, dis, 1, stats, &tmp, &sing_u);
    score_v = chroma_plane_score(s, ref, dis, 2, stats, &tmp, &sing_v);
    ret = ff_vmaf_speed_chroma_write(f, fc, index, score_u, sing_u, score_v, sing_v);
end:
    ff_vmaf_speed_scratch_free(&tmp);
    av_free(stats);
    return ret;
}

const char *const ff_vmaf_speed_chroma_provides[] = {
    CHROMA_U_NAME, CHROMA_V_NAME, CHROMA_UV_NAME, NULL
};

const FFVmafExtractor ff_vmaf_extractor_speed_chroma = {
    .name      = "speed_chroma",
    .options   = ff_vmaf_speed_chroma_options,
    .priv_size = sizeof(SpeedContext),
    .provides  = ff_vmaf_speed_chroma_provides,
    .init      = ff_vmaf_speed_chroma_init,
    .extract   = speed_chroma_extract,
};

/* ---------------------------------------------------------------------- */
/* speed_temporal                                                         */

void ff_vmaf_speed_temporal_close(FFVmafFeature *f)
{
    SpeedContext *s = f->priv;

    av_freep(&s->prev[0]);
    av_freep(&s->prev[1]);
    av_freep(&s->stats);
    ff_vmaf_speed_scratch_free(&s->scratch);
}

int ff_vmaf_speed_temporal_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    SpeedContext *s = f->priv;
    int ret;

    s->bpc = geo->bpc;
    s->prev_stride = (ptrdiff_t)geo->width * (geo->bpc > 8 ? 2 : 1);
    /* The weighting of the variances is fixed for the temporal score. */
    if ((ret = speed_setup(f, geo, 0, 0)) < 0)
        return ret;

    if (!(s->prev[0] = av_malloc_array(geo->height, s->prev_stride)) ||
        !(s->prev[1] = av_malloc_array(geo->height, s->prev_stride)) ||
        !(s->stats   = av_malloc_array(4 * (size_t)ff_vmaf_speed_nb_blocks(&s->cfg),
                                       sizeof(float))) ||
        ff_vmaf_speed_scratch_alloc(&s->scratch, &s->cfg) < 0) {
        /* The engine closes only the features whose init succeeded. */
        ff_vmaf_speed_temporal_close(f);
        return AVERROR(ENOMEM);
    }
    return 0;
}

void ff_vmaf_speed_temporal_keep(SpeedContext *s, const uint8_t *ref,
                                 ptrdiff_t ref_stride, const uint8_t *dis,
                                 ptrdiff_t dis_stride, unsigned nb_frames)
{
    for (int y = 0; y < s->cfg.h; y++) {
        memcpy(s->prev[0] + y * s->prev_stride, ref + y * ref_stride, s->prev_stride);
        memcpy(s->prev[1] + y * s->prev_stride, dis + y * dis_stride, s->prev_stride);
    }
    s->nb_frames = nb_frames;
}

int ff_vmaf_speed_temporal_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                                 unsigned index, float score)
{
    /* speed_max_val is accepted (and names the key) but never applied. */
    return ff_vmaf_feature_write(f, fc, TEMPORAL_NAME, index, score);
}

static int speed_temporal_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                  const FFVmafPicture *dis, unsigned index,
                                  FFVmafFeatureCollector *fc)
{
    SpeedContext *s = f->priv;
    const FFVmafSpeedConfig *c = &s->cfg;
    const int nb = ff_vmaf_speed_nb_blocks(c);
    float *sr = s->stats, *er = sr + nb, *sd = sr + 2 * nb, *ed = sr + 3 * nb;
    float score = 0.0f;

    if (index != s->nb_frames) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'speed_temporal' got frame %u, expected %u.\n",
               index, s->nb_frames);
        return AVERROR_BUG;
    }

    if (index > 0) {
        /* Previous minus current frame; with use_ref_diff, the distorted
         * previous frame minus the current reference frame. */
        const FFVmafPicture *cur_dis = s->use_ref_diff ? ref : dis;
        FFVmafSpeedSource src_ref = { s->prev[0], s->prev_stride,
                                      ref->data[0], ref->linesize[0], s->bpc };
        FFVmafSpeedSource src_dis = { s->prev[1], s->prev_stride,
                                      cur_dis->data[0], cur_dis->linesize[0], s->bpc };
        int sing_ref, sing_dis, one_singular;

        sing_ref = ff_vmaf_speed_plane_stats(c, &s->dsp, &src_ref, sr, er, &s->scratch);
        sing_dis = ff_vmaf_speed_plane_stats(c, &s->dsp, &src_dis, sd, ed, &s->scratch);
        if (sing_ref || sing_dis)
            av_log(f->log_ctx, AV_LOG_VERBOSE, "speed_temporal: frame %u: "
                   "block covariance is singular.\n", index);
        score = ff_vmaf_speed_pair_score(c, s->stats, sing_ref, sing_dis, &one_singular);
    }
    /* The pictures are only borrowed: keep copies for the next frame. */
    ff_vmaf_speed_temporal_keep(s, ref->data[0], ref->linesize[0],
                                dis->data[0], dis->linesize[0], index + 1);
    return ff_vmaf_speed_temporal_write(f, fc, index, score);
}

/* Each score compares a frame with the previous one. */
static void speed_temporal_context(const FFVmafFeature *f, int *before, int *after)
{
    *before = 1;
    *after  = 0;
}

const char *const ff_vmaf_speed_temporal_provides[] = {
    TEMPORAL_NAME, NULL
};

const FFVmafExtractor ff_vmaf_extractor_speed_temporal = {
    .name      = "speed_temporal",
    .options   = ff_vmaf_speed_temporal_options,
    .priv_size = sizeof(SpeedContext),
    /* Each score compares a frame with the previous one, so every frame
     * is needed, in order, even when n_subsample skips the others. */
    .flags     = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME,
    .provides  = ff_vmaf_speed_temporal_provides,
    .context   = speed_temporal_context,
    .init      = ff_vmaf_speed_temporal_init,
    .extract   = speed_temporal_extract,
    .close     = ff_vmaf_speed_temporal_close,
};
