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
 * CIEDE2000 feature extractor ("ciede"), bit-exact with libvmaf 3.2.0:
 * ciede2000 = 45 - 20 log10(mean Delta E 2000 over the luma grid).
 *
 * Chroma is brought to the luma grid by repetition. The chroma sample of
 * luma pixel (i, j) is (i >> ss_y, j >> ss_x); for an odd-sized 4:2:0
 * picture that is one column/row past libvmaf's rounded-down chroma
 * plane, i.e. the last column/row of FFmpeg's rounded-up plane, which
 * callers must therefore provide. libvmaf reads uninitialised memory
 * there, so no implementation can match it on such sizes.
 * Identical pictures give +inf (printed as null in JSON).
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "libavutil/error.h"
#include "libavutil/log.h"

#include "ciede.h"
#include "libavfilter/vmaf/feature.h"

int ff_vmaf_ciede_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    CIEDEContext *s = f->priv;

    if (geo->bpc != 8 && geo->bpc != 10 && geo->bpc != 12 && geo->bpc != 16) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "ciede: unsupported bit depth %d (8, 10, 12 or 16 accepted)\n",
               geo->bpc);
        return AVERROR(EINVAL);
    }
    /* libvmaf's values cannot be reproduced in these two cases: it reads
     * memory it never wrote. Say so rather than fail, since the value
     * computed here is the one a correct upsampling gives. */
    if (geo->ss_x && !geo->ss_y)
        av_log(f->log_ctx, AV_LOG_WARNING,
               "ciede: libvmaf 3.2.0 upsamples 4:2:2 chroma wrongly (it "
               "repeats rows instead of columns and reads undefined memory); "
               "ciede2000 here uses the correct upsampling and will differ "
               "from libvmaf's\n");
    else if ((geo->ss_x && (geo->width & 1)) ||
             (geo->ss_y && (geo->height & 1)))
        av_log(f->log_ctx, AV_LOG_WARNING,
               "ciede: at odd frame sizes libvmaf 3.2.0 reads undefined "
               "memory for the last column/row of chroma; ciede2000 here "
               "uses the frame's own last chroma column/row and may differ "
               "from libvmaf's\n");
    ff_vmaf_ciede_scale_init(&s->scale, geo->bpc);
    s->ss_x = geo->ss_x;
    s->ss_y = geo->ss_y;
    ff_vmaf_ciede_dsp_init(&s->dsp, geo->bpc);
    return 0;
}

static int ciede_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                         const FFVmafPicture *dis, unsigned index,
                         struct FFVmafFeatureCollector *fc)
{
    const CIEDEContext *s = f->priv;
    int w = ref->w[0], h = ref->h[0], ret;
    FFVmafCiedeCache cache;
    double sum = 0.0;

    /* Per call: extract() may run on several frames at once. */
    if ((ret = ff_vmaf_ciede_cache_alloc(&cache, (int64_t)w * h)) < 0)
        return ret;

    for (int i = 0; i < h; i++) {
        const uint8_t *r[3], *d[3];
        int ci = i >> s->ss_y;
        r[0] = ref->data[0] + i  * ref->linesize[0];
        d[0] = dis->data[0] + i  * dis->linesize[0];
        for (int p = 1; p < 3; p++) {
            r[p] = ref->data[p] + ci * ref->linesize[p];
            d[p] = dis->data[p] + ci * dis->linesize[p];
        }
        sum = s->dsp.row(sum, &s->scale, &cache, r, d, w, s->ss_x, ref->bpc);
    }
    ff_vmaf_ciede_cache_free(&cache);
    return ff_vmaf_ciede_write(f, fc, index, sum, w, h);
}

int ff_vmaf_ciede_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                        unsigned index, double sum, int w, int h)
{
    /* sum == 0 (identical pictures) gives +inf, as in libvmaf. */
    return ff_vmaf_feature_write(f, fc, "ciede2000", index,
                                 45.0 - 20.0 * log10(sum / ((double)w * h)));
}

const char *const ff_vmaf_ciede_provides[] = { "ciede2000", NULL };

const FFVmafExtractor ff_vmaf_extractor_ciede = {
    .name      = "ciede",
    .priv_size = sizeof(CIEDEContext),
    .provides  = ff_vmaf_ciede_provides,
    .init      = ff_vmaf_ciede_init,
    .extract   = ciede_extract,
};
