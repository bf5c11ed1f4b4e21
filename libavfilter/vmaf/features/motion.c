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
 * libvmaf 3.2's integer "motion" extractor: VMAF_integer_feature_motion_sad_score,
 * integer_motion2, integer_motion3 (and integer_motion with debug).
 *
 * libvmaf derives motion2 and motion3 from the whole list of per-frame SADs
 * at flush. Here each value is written as soon as it is determined, with
 * the same arithmetic, so that the filter can emit frame i once frame i + 1
 * is in: sad of frame i at extract(i); motion2 and motion3 of frame i at
 * extract(i + 1), or at flush for the last frame. The only longer wait is
 * for the first m0 frames (two with motion_five_frame_window): their motion3
 * is a copy of a value known at extract(m0).
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "motion.h"
#include "motion_dsp.h"

#define SAD_NAME     "VMAF_integer_feature_motion_sad_score"
#define MOTION_NAME  "VMAF_integer_feature_motion_score"
#define MOTION2_NAME "VMAF_integer_feature_motion2_score"
#define MOTION3_NAME "VMAF_integer_feature_motion3_score"

#define OFFSET(x) offsetof(MotionContext, x)
const FFVmafOption ff_vmaf_motion_options[] = {
    { "debug",                    NULL,      FF_VMAF_OPT_BOOL,   OFFSET(debug),             0,       NULL, 0, 1 },
    { "motion_force_zero",        "force_0", FF_VMAF_OPT_BOOL,   OFFSET(force_zero),        0,       NULL, 0, 1, 1 },
    { "motion_blend_factor",      "mbf",     FF_VMAF_OPT_DOUBLE, OFFSET(blend_factor),      1.0,     NULL, 0, 1, 1 },
    { "motion_blend_offset",      "mbo",     FF_VMAF_OPT_DOUBLE, OFFSET(blend_offset),      40.0,    NULL, 0, 1000, 1 },
    { "motion_fps_weight",        "mfw",     FF_VMAF_OPT_DOUBLE, OFFSET(fps_weight),        1.0,     NULL, 0, 5, 1 },
    { "motion_max_val",           "mmxv",    FF_VMAF_OPT_DOUBLE, OFFSET(max_val),           10000.0, NULL, 0, 10000, 1 },
    { "motion_five_frame_window", "mffw",    FF_VMAF_OPT_BOOL,   OFFSET(five_frame_window), 0,       NULL, 0, 1, 1 },
    { "motion_moving_average",    "mma",     FF_VMAF_OPT_BOOL,   OFFSET(moving_average),    0,       NULL, 0, 1, 1 },
    { NULL }
};

void ff_vmaf_motion_close(FFVmafFeature *f)
{
    MotionContext *s = f->priv;

    av_freep(&s->refs[0]);
    av_freep(&s->refs[1]);
    av_freep(&s->tmp);
}

int ff_vmaf_motion_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    MotionContext *s = f->priv;
    int bytes = geo->bpc > 8 ? 2 : 1;

    s->w      = geo->width;
    s->h      = geo->height;
    s->bpc    = geo->bpc;
    s->m0     = s->stride = s->five_frame_window ? 2 : 1;
    s->ref_linesize = (ptrdiff_t)s->w * bytes;
    /* motion2/motion3 of frame i are known once frame i + stride is in
     * (sad of the next frame; with mffw, frame 0 waits for frame 2). */
    f->frame_delay = s->force_zero ? 0 : s->m0;
    /* The GPU twin runs this too: after a fallback, the CPU extractor finds
     * its kernels ready. */
    ff_vmaf_motion_dsp_init(&s->dsp, s->bpc);

    if (s->force_zero)
        return 0;

    if (s->w < FF_VMAF_MOTION_MIN_SIZE || s->h < FF_VMAF_MOTION_MIN_SIZE) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'motion' needs frames of at least %dx%d, got %dx%d.\n",
               FF_VMAF_MOTION_MIN_SIZE, FF_VMAF_MOTION_MIN_SIZE, s->w, s->h);
        return AVERROR(EINVAL);
    }
    for (int i = 0; i < s->stride; i++)
        if (!(s->refs[i] = av_malloc_array(s->h, s->ref_linesize)))
            goto fail;
    s->tmp = av_malloc_array(ff_vmaf_motion_sad_tmp_elems(s->w), sizeof(*s->tmp));
    if (!s->tmp)
        goto fail;
    return 0;
fail:
    /* The engine closes only the features whose init succeeded. */
    ff_vmaf_motion_close(f);
    return AVERROR(ENOMEM);
}

/*
 * The sad of frame i compares its reference with that of frame i - st;
 * motion2 of frame i takes the sad of frame i - st + 1 (when i - st + 1 >=
 * m0) and of frame i + 1; motion3 with motion_moving_average averages with
 * the previous frame's. So frame i's values need frames down to
 * i - 2 * st + 1 (one more with the average) and up to i + 1; frames below
 * m0 wait for frame m0 (their motion3 is its blended sad).
 */
static void motion_context(const FFVmafFeature *f, int *before, int *after)
{
    const MotionContext *s = f->priv;
    int st = s->five_frame_window ? 2 : 1;

    if (s->force_zero) {
        *before = *after = 0;
        return;
    }
    *before = 2 * st - 1 + !!s->moving_average;
    *after  = st;
}

static double clamp_max(double x, double mx)
{
    return x > mx ? mx : x;
}

/* x * bf + (1 - bf) * min(bo, x): the identity at the default bf = 1. */
static double blend(const MotionContext *s, double x)
{
    double lo = s->blend_offset < x ? s->blend_offset : x;
    return x * s->blend_factor + (1.0 - s->blend_factor) * lo;
}

static int write_m2_m3(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                       unsigned index, double motion2, double motion3)
{
    int ret = ff_vmaf_feature_write(f, fc, MOTION2_NAME, index, motion2);
    if (ret < 0)
        return ret;
    return ff_vmaf_feature_write(f, fc, MOTION3_NAME, index, motion3);
}

/* motion2 of frame i >= m0 is final: derive motion3 and write both. */
static int finish_frame(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                        unsigned i, double motion2)
{
    MotionContext *s = f->priv;
    double p = clamp_max(blend(s, motion2), s->max_val);
    double motion3 = s->moving_average ? (p + s->prev_p) / 2.0 : p;

    s->prev_p = p;
    return write_m2_m3(f, fc, i, motion2, motion3);
}

/*
 * Frames below m0 have motion2 0 and share motion3 with the blended sad of
 * frame m0 (0 if the stream ends before it); it also seeds the average.
 */
static int finish_head(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                       unsigned nb, double stamp)
{
    MotionContext *s = f->priv;

    s->prev_p = stamp;
    for (unsigned i = 0; i < nb; i++) {
        int ret = write_m2_m3(f, fc, i, 0.0, stamp);
        if (ret < 0)
            return ret;
    }
    return 0;
}

int ff_vmaf_motion_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                         unsigned index, uint64_t sum)
{
    MotionContext *s = f->priv;
    unsigned m0 = s->m0, st = s->stride;
    double sad = 0.0;
    int ret;

    if (index != s->nb_frames) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'motion' got frame %u, expected %u.\n",
               index, s->nb_frames);
        return AVERROR_BUG;
    }
    s->nb_frames++;

    if (s->force_zero) {
        /* libvmaf computes nothing and reports 0 for every output. */
        ret = ff_vmaf_feature_write(f, fc, SAD_NAME, index, 0.0);
        if (ret >= 0 && s->debug)
            ret = ff_vmaf_feature_write(f, fc, MOTION_NAME, index, 0.0);
        if (ret >= 0)
            ret = write_m2_m3(f, fc, index, 0.0, 0.0);
        return ret;
    }

    /* SAD is in Q8; the evaluation order is libvmaf's. */
    if (index >= m0)
        sad = clamp_max((double)sum / 256.0 / ((double)s->w * s->h) *
                        s->fps_weight, s->max_val);
    s->sad[index % 3] = sad;

    ret = ff_vmaf_feature_write(f, fc, SAD_NAME, index, sad);
    if (ret >= 0 && s->debug)
        ret = ff_vmaf_feature_write(f, fc, MOTION_NAME, index, sad);
    if (ret < 0)
        return ret;

    if (index == m0)
        return finish_head(f, fc, m0, clamp_max(blend(s, sad), s->max_val));
    if (index > m0) {
        /* Frame k = index - 1 is not the last: min of sad[k - st + 1]
         * (when it exists) and sad[k + 1], the latter winning ties. */
        unsigned k = index - 1;
        double hi = sad, motion2 = hi;
        if (k - st + 1 >= m0) {
            double lo = s->sad[(k - st + 1) % 3];
            motion2 = lo < hi ? lo : hi;
        }
        return finish_frame(f, fc, k, motion2);
    }
    return 0;
}

void ff_vmaf_motion_keep_ref(MotionContext *s, unsigned index,
                             const uint8_t *luma, ptrdiff_t linesize)
{
    for (int y = 0; y < s->h; y++)
        memcpy(s->refs[index % s->stride] + y * s->ref_linesize,
               luma + y * linesize, s->ref_linesize);
}

static int motion_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                          const FFVmafPicture *dis, unsigned index,
                          FFVmafFeatureCollector *fc)
{
    MotionContext *s = f->priv;
    uint64_t sum = 0;

    if (!s->force_zero && index >= (unsigned)s->m0 && index == s->nb_frames) {
        const uint8_t *prev = s->refs[index % s->stride];

        sum = ff_vmaf_motion_sad(&s->dsp, prev, s->ref_linesize,
                                 ref->data[0], ref->linesize[0],
                                 s->w, s->h, s->bpc, s->tmp);
    }
    /* The picture is only borrowed: keep a copy for frame index + st. */
    if (!s->force_zero)
        ff_vmaf_motion_keep_ref(s, index, ref->data[0], ref->linesize[0]);
    return ff_vmaf_motion_write(f, fc, index, sum);
}

int ff_vmaf_motion_flush(FFVmafFeature *f, FFVmafFeatureCollector *fc)
{
    MotionContext *s = f->priv;
    unsigned n = s->nb_frames;

    if (s->force_zero || !n)
        return 0;
    if (n <= (unsigned)s->m0)
        return finish_head(f, fc, n, 0.0);
    /* The last frame has no successor: its motion2 is its own sad. */
    return finish_frame(f, fc, n - 1, s->sad[(n - 1) % 3]);
}

const char *const ff_vmaf_motion_provides[] = {
    SAD_NAME, MOTION_NAME, MOTION2_NAME, MOTION3_NAME, NULL
};

const FFVmafExtractor ff_vmaf_extractor_motion = {
    .name      = "motion",
    .options   = ff_vmaf_motion_options,
    .priv_size = sizeof(MotionContext),
    /* Each SAD compares a reference frame with an earlier one, so motion
     * needs every frame, in order, even when n_subsample skips the others. */
    .flags     = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME,
    .provides  = ff_vmaf_motion_provides,
    /* motion2 of frame i needs frame i + 1, but with
     * motion_five_frame_window the motion3 of frames 0 and 1 needs the sad
     * of frame 2. The table entry cannot depend on options, so take the
     * larger bound. */
    .frame_delay = 2,
    .context   = motion_context,
    .init      = ff_vmaf_motion_init,
    .extract   = motion_extract,
    .flush     = ff_vmaf_motion_flush,
    .close     = ff_vmaf_motion_close,
};
