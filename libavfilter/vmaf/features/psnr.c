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
 * libvmaf's integer "psnr" extractor: psnr_y, psnr_cb, psnr_cr.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "libavutil/error.h"

#include "libavfilter/vmaf/collector.h"
#include "libavfilter/vmaf/feature.h"
#include "psnr.h"
#include "psnr_dsp.h"

#define OFFSET(x) offsetof(PSNRContext, x)
const FFVmafOption ff_vmaf_psnr_options[] = {
    { "enable_chroma",    NULL, FF_VMAF_OPT_BOOL,   OFFSET(enable_chroma),    1, NULL, 0, 1 },
    { "enable_mse",       NULL, FF_VMAF_OPT_BOOL,   OFFSET(enable_mse),       0, NULL, 0, 1 },
    { "enable_apsnr",     NULL, FF_VMAF_OPT_BOOL,   OFFSET(enable_apsnr),     0, NULL, 0, 1 },
    { "reduced_hbd_peak", NULL, FF_VMAF_OPT_BOOL,   OFFSET(reduced_hbd_peak), 0, NULL, 0, 1 },
    { "min_sse",          NULL, FF_VMAF_OPT_DOUBLE, OFFSET(min_sse),          0, NULL, 0, 1e300 },
    { NULL }
};

static const char *const psnr_names[3] = { "psnr_y", "psnr_cb", "psnr_cr" };
static const char *const mse_names[3]  = { "mse_y",  "mse_cb",  "mse_cr"  };
static const char *const apsnr_names[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };

int ff_vmaf_psnr_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    PSNRContext *s = f->priv;
    int w[3], h[3];

    s->nb_planes = s->enable_chroma ? 3 : 1;
    ff_vmaf_psnr_dsp_init(&s->dsp, geo->bpc);
    /* The 8-bit peak is 255 but the high-bit-depth one is 2^bpc - 1, not
     * 255 * 2^(bpc - 8), unless reduced_hbd_peak asks for the latter. */
    if (geo->bpc == 8)
        s->peak = 255.0;
    else if (s->reduced_hbd_peak)
        s->peak = 255.0 * (1 << (geo->bpc - 8));
    else
        s->peak = (double)((1 << geo->bpc) - 1);

    w[0] = geo->width;
    h[0] = geo->height;
    w[1] = w[2] = geo->width  >> geo->ss_x;
    h[1] = h[2] = geo->height >> geo->ss_y;
    for (int p = 0; p < 3; p++) {
        if (s->min_sse > 0.0) {
            double n = (double)w[p] * h[p];
            s->psnr_max[p] = ceil(10.0 * log10(s->peak * s->peak / (s->min_sse / n)));
        } else {
            s->psnr_max[p] = 6.0 * geo->bpc + 12.0;
        }
    }
    return 0;
}

static double psnr_from_mse(double mse, double peak, double psnr_max)
{
    double psnr = 10.0 * log10(peak * peak / FFMAX(mse, 1e-16));
    return FFMIN(psnr, psnr_max);
}

int ff_vmaf_psnr_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                       unsigned index, const uint64_t *sse, const int *w, const int *h)
{
    PSNRContext *s = f->priv;

    for (int p = 0; p < s->nb_planes; p++) {
        uint64_t n = (uint64_t)w[p] * h[p];
        double mse;
        int ret;

        /* A chunk's context frames belong to its neighbours' sums. */
        if (index >= f->sum_first && index < f->sum_end) {
            s->sse_total[p] += sse[p];
            s->n_total[p]   += n;
        }

        mse = (double)sse[p] / (double)n;
        ret = ff_vmaf_feature_write(f, fc, psnr_names[p], index,
                                    psnr_from_mse(mse, s->peak, s->psnr_max[p]));
        if (ret >= 0 && s->enable_mse)
            ret = ff_vmaf_feature_write(f, fc, mse_names[p], index, mse);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int psnr_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                        const FFVmafPicture *dis, unsigned index,
                        FFVmafFeatureCollector *fc)
{
    PSNRContext *s = f->priv;
    uint64_t sse[3] = { 0 };

    for (int p = 0; p < s->nb_planes; p++)
        sse[p] = s->dsp.sse_plane(ref->data[p], ref->linesize[p],
                               dis->data[p], dis->linesize[p],
                               ref->w[p], ref->h[p]);
    return ff_vmaf_psnr_write(f, fc, index, sse, ref->w, ref->h);
}

int ff_vmaf_psnr_flush(FFVmafFeature *f, FFVmafFeatureCollector *fc)
{
    PSNRContext *s = f->priv;

    if (!s->enable_apsnr)
        return 0;
    for (int p = 0; p < s->nb_planes; p++) {
        double n = (double)s->n_total[p], cap, apsnr;
        int ret;

        if (!s->n_total[p])
            continue;
        /* peak^2 * N * 2 is formed as an integer before the logarithm. */
        cap = ceil(10.0 * log10((double)((uint64_t)(s->peak * s->peak) *
                                         s->n_total[p] * 2)));
        if (s->sse_total[p])
            apsnr = 10.0 * (log10(s->peak * s->peak) + log10(n) -
                            log10((double)s->sse_total[p]));
        else
            apsnr = cap;
        ret = ff_vmaf_collector_set_aggregate(fc, apsnr_names[p],
                                              FFMIN(apsnr, cap));
        if (ret < 0)
            return ret;
    }
    return 0;
}

/* The aggregates' sums, per plane: the squared errors and the samples. */
static int psnr_get_sums(const FFVmafFeature *f, uint64_t *sums, int max)
{
    const PSNRContext *s = f->priv;

    if (!s->enable_apsnr)
        return 0;
    if (max < 2 * s->nb_planes)
        return AVERROR(ENOSPC);
    for (int p = 0; p < s->nb_planes; p++) {
        sums[2 * p]     = s->sse_total[p];
        sums[2 * p + 1] = s->n_total[p];
    }
    return 2 * s->nb_planes;
}

static int psnr_add_sums(FFVmafFeature *f, const uint64_t *sums, int nb)
{
    PSNRContext *s = f->priv;

    if (nb != (s->enable_apsnr ? 2 * s->nb_planes : 0))
        return AVERROR(EINVAL);
    for (int p = 0; p < nb / 2; p++) {
        s->sse_total[p] += sums[2 * p];
        s->n_total[p]   += sums[2 * p + 1];
    }
    return 0;
}

const char *const ff_vmaf_psnr_provides[] = {
    "psnr_y", "psnr_cb", "psnr_cr", NULL
};

static const char *const psnr_plain_outputs[] = {
    "mse_y", "mse_cb", "mse_cr", NULL
};

const FFVmafExtractor ff_vmaf_extractor_psnr = {
    .name      = "psnr",
    .options   = ff_vmaf_psnr_options,
    .priv_size = sizeof(PSNRContext),
    /* The aggregate sums need every frame, in order, as in libvmaf. */
    .flags     = FF_VMAF_EXTRACTOR_TEMPORAL | FF_VMAF_EXTRACTOR_EVERY_FRAME,
    .provides  = ff_vmaf_psnr_provides,
    .plain_outputs = psnr_plain_outputs,
    .init      = ff_vmaf_psnr_init,
    .extract   = psnr_extract,
    .flush     = ff_vmaf_psnr_flush,
    .get_sums  = psnr_get_sums,
    .add_sums  = psnr_add_sums,
};
