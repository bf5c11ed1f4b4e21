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
 * libvmaf's "float_vif" extractor: visual information fidelity at four
 * scales of a Gaussian pyramid of the luma, in single precision (the
 * original of the integer "vif").
 *
 * Each scale is one pass over its rows: the five filtered statistics of a
 * row (means, variances, covariance), then the per-pixel information
 * terms, summed as libvmaf sums them. Frames are independent; each
 * instance (one per thread) owns its scratch, allocated at init.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "float_dsp.h"
#include "float_vif.h"

#define SCALES FF_VMAF_FLOAT_VIF_SCALES
/** Widest prescaled frame the bilinear resampler accepts. */
#define MAX_BILINEAR_WIDTH 7680

#define OFFSET(x) offsetof(FloatVIFContext, x)
const FFVmafOption ff_vmaf_float_vif_options[] = {
    { "debug",               NULL,    FF_VMAF_OPT_BOOL,   OFFSET(debug),           0,     NULL, 0, 1, 0 },
    { "vif_enhn_gain_limit", "egl",   FF_VMAF_OPT_DOUBLE, OFFSET(enhn_gain_limit), 100.0, NULL, 1.0, 100.0, 1 },
    { "vif_kernelscale",     "ks",    FF_VMAF_OPT_DOUBLE, OFFSET(kernelscale),     1.0,   NULL, 0.1, 4.0, 1 },
    { "vif_prescale",        "ps",    FF_VMAF_OPT_DOUBLE, OFFSET(prescale),        1.0,   NULL, 0.1, 4.0, 1 },
    { "vif_prescale_method", "pm",    FF_VMAF_OPT_STRING, OFFSET(prescale_method), 0, "nearest", 0, 0, 1 },
    { "vif_sigma_nsq",       "snsq",  FF_VMAF_OPT_DOUBLE, OFFSET(sigma_nsq),       2.0,   NULL, 0.0, 100.0, 1 },
    { "vif_scale1_min_val",  "s1miv", FF_VMAF_OPT_DOUBLE, OFFSET(min_val[1]),      0.0,   NULL, 0.0, 1.0, 1 },
    { "vif_scale2_min_val",  "s2miv", FF_VMAF_OPT_DOUBLE, OFFSET(min_val[2]),      0.0,   NULL, 0.0, 1.0, 1 },
    { "vif_scale3_min_val",  "s3miv", FF_VMAF_OPT_DOUBLE, OFFSET(min_val[3]),      0.0,   NULL, 0.0, 1.0, 1 },
    { "vif_skip_scale0",     "ssclz", FF_VMAF_OPT_BOOL,   OFFSET(skip_scale0),     0,     NULL, 0, 1, 1 },
    { NULL }
};

static const char *const score_names[SCALES] = {
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score",
};
static const char *const num_names[SCALES] = {
    "vif_num_scale0", "vif_num_scale1", "vif_num_scale2", "vif_num_scale3",
};
static const char *const den_names[SCALES] = {
    "vif_den_scale0", "vif_den_scale1", "vif_den_scale2", "vif_den_scale3",
};

/* The debug values go through the same option dictionary as the scores in
 * libvmaf, so they carry the parameter suffix too: declare them all. */
const char *const ff_vmaf_float_vif_provides[] = {
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score",
    "vif", "vif_num", "vif_den",
    "vif_num_scale0", "vif_den_scale0", "vif_num_scale1", "vif_den_scale1",
    "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3",
    NULL
};

/* Smallest dimension whose pyramid every filter of s can mirror. */
static int min_dimension(const FloatVIFContext *s)
{
    for (int n = 1;; n++) {
        int d = n, ok = d > s->ntaps[0] / 2;
        for (int k = 1; k < SCALES && ok; k++) {
            /* Scale k is made with its own filter from scale k - 1. */
            ok = d > s->ntaps[k] / 2 && d / 2 > s->ntaps[k] / 2;
            d /= 2;
        }
        if (ok)
            return n;
    }
}

typedef struct VIFLayout VIFLayout;
static size_t vif_layout(const FloatVIFContext *s, float *buf, VIFLayout *l);

int ff_vmaf_float_vif_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatVIFContext *s = f->priv;
    int min;

    ff_vmaf_float_dsp_init(&s->dsp);
    if (!ff_vmaf_float_kernelscale_valid(s->kernelscale)) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_vif': vif_kernelscale %g is not one of the "
               "accepted values (1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, "
               "3.75/3, 4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, 1.06667, "
               "0.711111, 0.74074, 1.111111).\n", s->kernelscale);
        return AVERROR(EINVAL);
    }
    if (!strcmp(s->prescale_method, "nearest")) {
        s->method = FF_VMAF_RESIZE_NEAREST;
    } else if (!strcmp(s->prescale_method, "bilinear")) {
        s->method = FF_VMAF_RESIZE_BILINEAR;
    } else {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_vif': vif_prescale_method '%s' is not supported "
               "(nearest or bilinear).\n", s->prescale_method);
        return AVERROR(EINVAL);
    }

    s->resize = fabs(s->prescale - 1.0) >= 1e-3;
    s->w = s->resize ? (int)(geo->width  * s->prescale + 0.5) : geo->width;
    s->h = s->resize ? (int)(geo->height * s->prescale + 0.5) : geo->height;
    if (s->resize && s->method == FF_VMAF_RESIZE_BILINEAR && s->w > MAX_BILINEAR_WIDTH) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_vif': the bilinear prescale accepts widths up "
               "to %d, got %d.\n", MAX_BILINEAR_WIDTH, s->w);
        return AVERROR(EINVAL);
    }

    for (int k = 0; k < SCALES; k++) {
        s->ntaps[k] = ff_vmaf_float_filter_size(k, s->kernelscale);
        ff_vmaf_float_gaussian(s->taps[k], s->ntaps[k], (float)s->ntaps[k] / 5.0f);
    }
    min = min_dimension(s);
    if (s->w < min || s->h < min) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_vif' needs frames of at least %dx%d%s, got %dx%d.\n",
               min, min, s->resize ? " after vif_prescale" : "", s->w, s->h);
        return AVERROR(EINVAL);
    }
    s->in_w = geo->width;
    s->in_h = geo->height;
    s->buf  = av_malloc_array(vif_layout(s, NULL, NULL), sizeof(*s->buf));
    return s->buf ? 0 : AVERROR(ENOMEM);
}

typedef struct VIFRows {
    float *pad[5];      ///< vertical sums with room for the mirrored border
    float *out[5];      ///< mu1, mu2, ref², dis², ref·dis after both passes
    float *num, *den;   ///< the row's information terms
} VIFRows;

static size_t vif_rows_size(int w)
{
    return 5 * ff_vmaf_float_conv_tmp_size(w) + 7 * (size_t)w;
}

static void vif_rows_init(VIFRows *rows, float *buf, int w)
{
    for (int k = 0; k < 5; k++) {
        rows->pad[k] = buf + FF_VMAF_FLOAT_MAX_TAPS / 2;
        buf += ff_vmaf_float_conv_tmp_size(w);
    }
    for (int k = 0; k < 5; k++) {
        rows->out[k] = buf;
        buf += w;
    }
    rows->num = buf;
    rows->den = buf + w;
}

/* The information terms of one scale, summed into *num and *den. */
static void vif_statistic(const FloatVIFContext *s, const float *x, const float *y,
                          int w, int h, int scale, const VIFRows *rows,
                          float *num, float *den)
{
    const float *g = s->taps[scale];
    const int n = s->ntaps[scale];
    const float egl = (float)s->enhn_gain_limit;
    const float *const *st = (const float *const *)rows->out;
    float num_sum = 0.0f, den_sum = 0.0f;

    for (int i = 0; i < h; i++) {
        float num_row = 0.0f, den_row = 0.0f;

        s->dsp.vfilter_stats(rows->pad, x, y, w, w, h, i, g, n);
        for (int k = 0; k < 5; k++)
            s->dsp.hfilter(rows->out[k], rows->pad[k], w, g, n, 1, w);
        s->dsp.vif_terms(rows->num, rows->den, st, w, s->sigma_nsq, egl);
        /* Float sums in pixel order, per row, then of the rows. */
        for (int j = 0; j < w; j++) {
            num_row += rows->num[j];
            den_row += rows->den[j];
        }
        num_sum += num_row;
        den_sum += den_row;
    }
    *num = num_sum;
    *den = den_sum;
}

int ff_vmaf_float_vif_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                            unsigned index, const float *num, const float *den)
{
    const FloatVIFContext *s = f->priv;
    const int first = s->skip_scale0 ? 1 : 0;
    double sum_num = 0.0, sum_den = 0.0;
    int ret;

    for (int k = 0; k < SCALES; k++) {
        double score = k < first ? 0.0 : (double)num[k] / den[k];
        if (k > 0)
            score = FFMAX(score, s->min_val[k]);
        if ((ret = ff_vmaf_feature_write(f, fc, score_names[k], index, score)) < 0)
            return ret;
    }
    if (!s->debug)
        return 0;

    for (int k = first; k < SCALES; k++) {
        sum_num += num[k];
        sum_den += den[k];
    }
    ret = ff_vmaf_feature_write(f, fc, "vif", index,
                                sum_den == 0.0 ? 1.0 : sum_num / sum_den);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "vif_num", index, sum_num);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "vif_den", index, sum_den);
    for (int k = 0; k < SCALES && ret >= 0; k++) {
        ret = ff_vmaf_feature_write(f, fc, num_names[k], index, num[k]);
        if (ret >= 0)
            ret = ff_vmaf_feature_write(f, fc, den_names[k], index, den[k]);
    }
    return ret;
}

/* Where each plane of the pyramid and the row scratch lie in buf. */
struct VIFLayout {
    float *input[2];            ///< the luma before prescale (resize only)
    float *planes[SCALES][2];
    float *rows;
};

static size_t vif_layout(const FloatVIFContext *s, float *buf, VIFLayout *l)
{
    const size_t in_plane = s->resize ? (size_t)s->in_w * s->in_h : 0;
    size_t total = 2 * in_plane;

    if (l) {
        l->input[0] = buf;
        l->input[1] = buf + in_plane;
    }
    for (int k = 0; k < SCALES; k++) {
        size_t size = (size_t)(s->w >> k) * (s->h >> k);
        if (l) {
            l->planes[k][0] = buf + total;
            l->planes[k][1] = buf + total + size;
        }
        total += 2 * size;
    }
    if (l)
        l->rows = buf + total;
    return total + vif_rows_size(s->w);
}

void ff_vmaf_float_vif_close(FFVmafFeature *f)
{
    FloatVIFContext *s = f->priv;
    av_freep(&s->buf);
}

static int float_vif_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                             const FFVmafPicture *dis, unsigned index,
                             struct FFVmafFeatureCollector *fc)
{
    const FloatVIFContext *s = f->priv;
    const int in_w = ref->w[0], in_h = ref->h[0];
    float num[SCALES], den[SCALES];
    int w = s->w, h = s->h;
    VIFLayout l;
    VIFRows rows;

    if (in_w != s->in_w || in_h != s->in_h)
        return AVERROR(EINVAL);
    vif_layout(s, s->buf, &l);
    vif_rows_init(&rows, l.rows, w);

    for (int c = 0; c < 2; c++) {
        const FFVmafPicture *pic = c ? dis : ref;
        float *dst = s->resize ? l.input[c] : l.planes[0][c];
        s->dsp.from_luma(dst, in_w, pic->data[0], pic->linesize[0],
                         in_w, in_h, pic->bpc, -128.0f);
        if (s->resize)
            ff_vmaf_float_resize(l.planes[0][c], w, h, dst, in_w, in_w, in_h,
                                 s->method);
    }

    for (int k = 0; k < SCALES; k++) {
        if (k > 0) {
            /* Scale k is filtered with its own kernel, then decimated. */
            for (int c = 0; c < 2; c++)
                ff_vmaf_float_conv(&s->dsp, l.planes[k][c], w / 2, l.planes[k - 1][c], w,
                                   w, h, s->taps[k], s->ntaps[k], 2, l.rows);
            w /= 2;
            h /= 2;
        }
        if (k == 0 && s->skip_scale0) {
            num[0] = 0.0f;
            den[0] = -1.0f;
            continue;
        }
        vif_statistic(s, l.planes[k][0], l.planes[k][1], w, h, k, &rows,
                      &num[k], &den[k]);
    }

    return ff_vmaf_float_vif_write(f, fc, index, num, den);
}

const FFVmafExtractor ff_vmaf_extractor_float_vif = {
    .name      = "float_vif",
    .options   = ff_vmaf_float_vif_options,
    .priv_size = sizeof(FloatVIFContext),
    .provides  = ff_vmaf_float_vif_provides,
    .init      = ff_vmaf_float_vif_init,
    .extract   = float_vif_extract,
    .close     = ff_vmaf_float_vif_close,
};
