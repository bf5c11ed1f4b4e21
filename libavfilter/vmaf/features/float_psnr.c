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
 * libvmaf's "float_psnr" extractor: PSNR of the luma plane computed in
 * float, as Netflix's Python reference does (not the integer "psnr").
 */

#include <math.h>
#include <stddef.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"
#include "float_simple.h"

int ff_vmaf_float_psnr_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatPSNRContext *s = f->priv;

    ff_vmaf_float_dsp_init(&s->dsp);
    /* The peak is in 8-bit units: 255.75 at 10 bits, not 1023. */
    s->peak = ff_vmaf_float_psnr_peak(geo->bpc);
    s->cap  = ff_vmaf_float_psnr_cap(geo->bpc);
    return 0;
}

static int float_psnr_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                              const FFVmafPicture *dis, unsigned index,
                              struct FFVmafFeatureCollector *fc)
{
    const FloatPSNRContext *s = f->priv;
    const int w = ref->w[0], h = ref->h[0];
    float *r = av_malloc_array(2 * (size_t)w, sizeof(*r)), *d = r + w;
    double noise = 0.0;

    if (!r)
        return AVERROR(ENOMEM);
    for (int i = 0; i < h; i++) {
        s->dsp.from_luma(r, w, ref->data[0] + i * ref->linesize[0],
                         ref->linesize[0], w, 1, ref->bpc, 0.0f);
        s->dsp.from_luma(d, w, dis->data[0] + i * dis->linesize[0],
                         dis->linesize[0], w, 1, dis->bpc, 0.0f);
        /* One double accumulator over the plane; the square is a float. */
        for (int j = 0; j < w; j++) {
            float e = r[j] - d[j];
            noise += (double)(e * e);
        }
    }
    av_free(r);
    return ff_vmaf_float_psnr_write(f, fc, index, noise, w, h);
}

int ff_vmaf_float_psnr_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                             unsigned index, double noise, int w, int h)
{
    const FloatPSNRContext *s = f->priv;
    double mse  = noise / ((double)w * h);
    double psnr = 10.0 * log10(s->peak * s->peak / FFMAX(mse, 1e-10));
    return ff_vmaf_feature_write(f, fc, "float_psnr", index, FFMIN(psnr, s->cap));
}

const char *const ff_vmaf_float_psnr_provides[] = { "float_psnr", NULL };

const FFVmafExtractor ff_vmaf_extractor_float_psnr = {
    .name      = "float_psnr",
    .priv_size = sizeof(FloatPSNRContext),
    .provides  = ff_vmaf_float_psnr_provides,
    .init      = ff_vmaf_float_psnr_init,
    .extract   = float_psnr_extract,
};
