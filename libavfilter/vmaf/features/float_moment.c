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
 * libvmaf's "float_moment" extractor: the first and second moments of the
 * reference and distorted luma, in 8-bit units.
 */

#include <stddef.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"
#include "float_simple.h"

int ff_vmaf_float_moment_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatMomentContext *s = f->priv;

    ff_vmaf_float_dsp_init(&s->dsp);
    return 0;
}

/* Sequential double sums of x and of the float square x * x. */
static void moments(const FFVmafFloatDSPContext *dsp, const FFVmafPicture *pic,
                    float *row, double *first, double *second)
{
    const int w = pic->w[0], h = pic->h[0];
    double s1 = 0.0, s2 = 0.0;

    for (int i = 0; i < h; i++) {
        dsp->from_luma(row, w, pic->data[0] + i * pic->linesize[0],
                       pic->linesize[0], w, 1, pic->bpc, 0.0f);
        for (int j = 0; j < w; j++) {
            s1 += row[j];
            s2 += (double)(row[j] * row[j]);
        }
    }
    *first  = s1 / ((double)w * h);
    *second = s2 / ((double)w * h);
}

static int float_moment_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                                const FFVmafPicture *dis, unsigned index,
                                struct FFVmafFeatureCollector *fc)
{
    const FloatMomentContext *s = f->priv;
    float *row = av_malloc_array(ref->w[0], sizeof(*row));
    double m[4];

    if (!row)
        return AVERROR(ENOMEM);
    moments(&s->dsp, ref, row, &m[0], &m[2]);
    moments(&s->dsp, dis, row, &m[1], &m[3]);
    av_free(row);
    return ff_vmaf_float_moment_write(f, fc, index, m);
}

int ff_vmaf_float_moment_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                               unsigned index, const double m[4])
{
    int ret = ff_vmaf_feature_write(f, fc, "float_moment_ref1st", index, m[0]);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "float_moment_dis1st", index, m[1]);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "float_moment_ref2nd", index, m[2]);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "float_moment_dis2nd", index, m[3]);
    return ret;
}

const char *const ff_vmaf_float_moment_provides[] = {
    "float_moment_ref1st", "float_moment_dis1st",
    "float_moment_ref2nd", "float_moment_dis2nd", NULL
};

const FFVmafExtractor ff_vmaf_extractor_float_moment = {
    .name      = "float_moment",
    .priv_size = sizeof(FloatMomentContext),
    .provides  = ff_vmaf_float_moment_provides,
    .init      = ff_vmaf_float_moment_init,
    .extract   = float_moment_extract,
};
