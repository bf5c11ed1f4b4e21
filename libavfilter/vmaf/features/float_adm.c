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
 * libvmaf's "float_adm" extractor: the detail loss metric (adm2), the
 * additive impairment metric (aim), their blend (adm3) and the four
 * per-scale ratios, in single precision (the original of the integer
 * "adm").
 *
 * Per scale: one db2 wavelet level of ref and dis; the distorted detail
 * bands split into a part restored from the reference and an additive
 * impairment (decouple); both weighted by the Watson contrast sensitivity
 * (CSF); and cube-norms of each, masked by the other, over the inner
 * region. Decouple and CSF run row by row into a ring of three rows, just
 * ahead of the 3x3 masking that reads them. Frames are independent; each
 * instance (one per thread) owns its scratch, allocated at init.
 *
 * libvmaf divides by an x86 reciprocal estimate (RCPSS) refined by one
 * Newton step, not by an IEEE division. The estimate is not specified
 * bit for bit (AMD and Intel tables differ): results are libvmaf's exactly
 * on a CPU of the oracle's vendor, and on others (or without SSE, where an
 * exact reciprocal stands in) they can differ in the last bits. That
 * division lives in float_dsp.c (ff_vmaf_float_adm_decouple).
 */

#include <math.h>
#include <stddef.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mathematics.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/feature.h"
#include "float_adm.h"
#include "float_dsp.h"

#define SCALES FF_VMAF_FLOAT_ADM_SCALES
/* Smallest frame whose scale-3 bands still have two rows and columns
 * (the masking mirror reads index 1), as for the integer ADM. */
#define ADM_MIN_SIZE 17

enum { ORI_H = FF_VMAF_FLOAT_ADM_ORI_H, ORI_V = FF_VMAF_FLOAT_ADM_ORI_V,
       ORI_D = FF_VMAF_FLOAT_ADM_ORI_D, NB_ORI };
enum { RF_HV, RF_D };

#define OFFSET(x) offsetof(FloatADMContext, x)
#define RF_OPTION(name, o, k) \
    { name, NULL, FF_VMAF_OPT_DOUBLE, OFFSET(rf_override[o][k]), -1.0, NULL, -1.0, 1e4, 1 }
const FFVmafOption ff_vmaf_float_adm_options[] = {
    { "debug",                  NULL,   FF_VMAF_OPT_BOOL,   OFFSET(debug),              0,       NULL, 0, 1, 0 },
    { "adm_enhn_gain_limit",    "egl",  FF_VMAF_OPT_DOUBLE, OFFSET(enhn_gain_limit),    100.0,   NULL, 1.0, 100.0, 1 },
    { "adm_norm_view_dist",     "nvd",  FF_VMAF_OPT_DOUBLE, OFFSET(norm_view_dist),     3.0,     NULL, 0.75, 24.0, 1 },
    /* The float ADM spells this alias "rdf", the integer one "rdh". */
    { "adm_ref_display_height", "rdf",  FF_VMAF_OPT_INT,    OFFSET(ref_display_height), 1080,    NULL, 1, 4320, 1 },
    { "adm_noise_weight",       "nw",   FF_VMAF_OPT_DOUBLE, OFFSET(noise_weight),       0.03125, NULL, 0.0, 1.0, 1 },
    { "adm_csf_mode",           "csf",  FF_VMAF_OPT_INT,    OFFSET(csf_mode),           0,       NULL, 0, 2, 1 },
    { "adm_bypass_cm",          "bcm",  FF_VMAF_OPT_BOOL,   OFFSET(bypass_cm),          0,       NULL, 0, 1, 1 },
    { "adm_adm3_apply_hm",      "aah",  FF_VMAF_OPT_BOOL,   OFFSET(adm3_apply_hm),      0,       NULL, 0, 1, 1 },
    { "adm_p_norm",             "apn",  FF_VMAF_OPT_DOUBLE, OFFSET(p_norm),             3.0,     NULL, 1.0, 16.0, 1 },
    { "adm_dlm_weight",         "dlmw", FF_VMAF_OPT_DOUBLE, OFFSET(dlm_weight),         0.5,     NULL, 0.0, 1.0, 1 },
    { "adm_min_val",            "min",  FF_VMAF_OPT_DOUBLE, OFFSET(min_val),            0.0,     NULL, 0.0, 1.0, 1 },
    RF_OPTION("adm_f1s0", 0, 0), RF_OPTION("adm_f1s1", 0, 1),
    RF_OPTION("adm_f1s2", 0, 2), RF_OPTION("adm_f1s3", 0, 3),
    RF_OPTION("adm_f2s0", 1, 0), RF_OPTION("adm_f2s1", 1, 1),
    RF_OPTION("adm_f2s2", 1, 2), RF_OPTION("adm_f2s3", 1, 3),
    { "adm_skip_scale0",        "ssz",  FF_VMAF_OPT_BOOL,   OFFSET(skip_scale0),        0,       NULL, 0, 1, 1 },
    { NULL }
};

static const char *const score_names[SCALES] = {
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
    "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score",
};
static const char *const num_names[SCALES] = {
    "adm_num_scale0", "adm_num_scale1", "adm_num_scale2", "adm_num_scale3",
};
static const char *const den_names[SCALES] = {
    "adm_den_scale0", "adm_den_scale1", "adm_den_scale2", "adm_den_scale3",
};

/* The debug values go through the same option dictionary as the scores in
 * libvmaf, so they carry the parameter suffix too: declare them all. */
const char *const ff_vmaf_float_adm_provides[] = {
    "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
    "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score",
    "adm", "adm_num", "adm_den",
    "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3",
    NULL
};

/*
 * Watson et al. 1997: the quantisation step of DWT level lambda for
 * orientation theta (1: h and v, 2: d) at the viewing geometry, and its
 * reciprocal as the CSF weight, each step in libvmaf's precision.
 */
static float watson_rfactor(int lambda, int theta, double nvd, int rdh)
{
    static const float amp[2][SCALES] = {
        { 0.67234f, 0.41317f, 0.22727f, 0.11792f },
        { 0.72709f, 0.49428f, 0.28688f, 0.15214f },
    };
    static const float g[3] = { 1.501f, 1.0f, 0.534f };
    const float a = 0.495f, k = 0.466f, f0 = 0.401f;
    const float r = (float)(nvd * rdh * M_PI / 180.0);
    float temp = (float)log10(pow(2.0, lambda + 1) * f0 * g[theta] / r);
    float q = (float)(2 * a * pow(10.0, k * temp * temp) / amp[theta - 1][lambda]);
    return 1.0f / q;
}

/* The "ADM-native" CSF of adm_csf_mode 2 (not validated against libvmaf). */
static float native_rfactor(int lambda, int theta, double nvd, int rdh)
{
    const float r = (float)(nvd * rdh * M_PI / 180.0);
    const float phi = r / (float)(1 << (lambda + 1));
    float csf = (float)((0.31 + 0.69 * phi) * exp(-0.29 * phi));
    return theta == 2 ? (float)(csf / 0.7) : csf;
}

static size_t adm_ring_size(int w);

/* Floats of scratch for w0 x h0 frames: the a bands of every scale (kept
 * for the next), one set of v, h, d per picture, DWT rows and the ring. */
static size_t adm_buf_size(int w0, int h0)
{
    const size_t detail = (size_t)((w0 + 1) / 2) * ((h0 + 1) / 2);
    size_t approx = 0;

    for (int k = 0, bw = w0, bh = h0; k < SCALES; k++) {
        bw = (bw + 1) / 2;
        bh = (bh + 1) / 2;
        approx += (size_t)bw * bh;
    }
    return 2 * approx + 6 * detail + (2 + FF_VMAF_DWT_TAPS) * (size_t)w0 +
           adm_ring_size((w0 + 1) / 2);
}

int ff_vmaf_float_adm_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    FloatADMContext *s = f->priv;

    ff_vmaf_float_dsp_init(&s->dsp);
    if (geo->width < ADM_MIN_SIZE || geo->height < ADM_MIN_SIZE) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_adm' needs frames of at least %dx%d, got %dx%d.\n",
               ADM_MIN_SIZE, ADM_MIN_SIZE, geo->width, geo->height);
        return AVERROR(EINVAL);
    }
    if (s->csf_mode == 1) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "Feature 'float_adm': adm_csf_mode 1 (Barten) is not supported; "
               "use 0 (Watson) or 2.\n");
        return AVERROR(ENOSYS);
    }

    for (int k = 0; k < SCALES; k++) {
        for (int o = 0; o < 2; o++) {
            int theta = o == RF_HV ? 1 : 2;
            if (s->rf_override[o][k] >= 0.0)
                s->rf[k][o] = (float)s->rf_override[o][k];
            else if (s->csf_mode == 2)
                s->rf[k][o] = native_rfactor(k, theta, s->norm_view_dist,
                                             s->ref_display_height);
            else
                s->rf[k][o] = watson_rfactor(k, theta, s->norm_view_dist,
                                             s->ref_display_height);
        }
    }
    /* The floor scales with the frame area, relative to 1080p. */
    s->limit = 1e-10 * ((double)geo->width * geo->height) / (1920.0 * 1080.0);
    s->w = geo->width;
    s->h = geo->height;
    s->buf = av_malloc_array(adm_buf_size(s->w, s->h), sizeof(*s->buf));
    return s->buf ? 0 : AVERROR(ENOMEM);
}

void ff_vmaf_float_adm_close(FFVmafFeature *f)
{
    FloatADMContext *s = f->priv;
    av_freep(&s->buf);
}

void ff_vmaf_float_adm_region(FFVmafFloatADMRegion *g, int w, int h)
{
    g->w      = w;
    g->h      = h;
    g->left   = (int)(w * 0.1 - 0.5);
    g->top    = (int)(h * 0.1 - 0.5);
    g->right  = w - g->left;
    g->bottom = h - g->top;
    /* The masking reads one column beyond the inner region, mirrored at
     * the band edge: -1 reads 1 and w reads w - 1. */
    g->ext_left  = g->left > 0 ? g->left - 1 : 0;
    g->ext_right = g->right < w ? g->right + 1 : w;
}

/** Detail bands of one scale: h, v, d of ref (o) and dis (t). */
typedef struct ADMBands {
    const float *o[NB_ORI], *t[NB_ORI];
    ptrdiff_t stride;
} ADMBands;

/** One ring row: CSF-weighted restored (r) and additive (a) bands and their
 *  masking contributions. */
typedef struct ADMCsfRow {
    float *dst_r[NB_ORI], *flt_r[NB_ORI];
    float *dst_a[NB_ORI], *flt_a[NB_ORI];
} ADMCsfRow;

/*
 * Decouple row y of the dis bands into the part restored from ref and the
 * additive impairment, then weight both by the CSF.
 */
static void adm_decouple_csf_row(const FloatADMContext *s, const ADMBands *b,
                                 const FFVmafFloatADMRegion *g, const float *rf, int y,
                                 const ADMCsfRow *out)
{
    const ptrdiff_t off = y * b->stride;
    const float *o[NB_ORI], *t[NB_ORI];

    for (int ori = 0; ori < NB_ORI; ori++) {
        o[ori] = b->o[ori] + off;
        t[ori] = b->t[ori] + off;
    }
    s->dsp.adm_decouple(out->dst_r, out->flt_r, out->dst_a, out->flt_a, o, t,
                        rf, s->enhn_gain_limit, g->ext_left, g->ext_right);
}

/* x^p for x >= 0, with libvmaf's plain cube at the default p = 3. */
static inline float adm_pow(float x, float p, int cube)
{
    return cube ? x * x * x : powf(x, p);
}

/* The (1/p)-th power of an orientation's sum plus the noise floor term. */
static float adm_norm(float acc, float noise, float root)
{
    return powf(acc, root) + powf(noise, root);
}

/*
 * One inner row of a masked cube sum: the CSF-weighted signal sig of row
 * y, less the threshold from the masker (mdst at row y, mflt at rows
 * y - 1, y, y + 1), summed per orientation into acc in column order.
 * x: NB_ORI rows of scratch.
 */
static void adm_cm_row(const FloatADMContext *s, const FFVmafFloatADMRegion *g,
                       float *const sig[NB_ORI], float *const mdst[NB_ORI],
                       const float *const mflt[3][NB_ORI],
                       float p, int cube, float *const x[NB_ORI], float acc[NB_ORI])
{
    float row_acc[NB_ORI] = { 0.0f, 0.0f, 0.0f };

    s->dsp.adm_cm(x, (const float *const *)sig, (const float *const *)mdst, mflt,
                  g->left, g->right, g->w, s->bypass_cm);
    for (int j = g->left; j < g->right; j++)
        for (int ori = 0; ori < NB_ORI; ori++)
            row_acc[ori] += adm_pow(x[ori][j], p, cube);
    for (int ori = 0; ori < NB_ORI; ori++)
        acc[ori] += row_acc[ori];
}

/* The reference's CSF-weighted cube sums over the inner region. */
static void adm_denominator(const ADMBands *b, const FFVmafFloatADMRegion *g,
                            const float *rf, float p, int cube, float acc[NB_ORI])
{
    for (int ori = 0; ori < NB_ORI; ori++) {
        const float c = rf[ori == ORI_D];
        for (int i = g->top; i < g->bottom; i++) {
            const float *o = b->o[ori] + i * b->stride;
            float row = 0.0f;
            for (int j = g->left; j < g->right; j++)
                row += adm_pow(fabsf(c * o[j]), p, cube);
            acc[ori] += row;
        }
    }
}

void ff_vmaf_float_adm_finish(const FloatADMContext *s, const FFVmafFloatADMRegion *g,
                              const float num_acc[3], const float aim_acc[3],
                              const float den_acc[3], FFVmafFloatADMScale *res)
{
    const float root = (float)(1.0 / s->p_norm);
    const float noise = (float)((double)(g->right - g->left) * (g->bottom - g->top) *
                                s->noise_weight);
    const float aim_noise = 0.0f;

    res->den = adm_norm(den_acc[ORI_H], noise, root) + adm_norm(den_acc[ORI_V], noise, root) +
               adm_norm(den_acc[ORI_D], noise, root);
    res->num = adm_norm(num_acc[ORI_H], noise, root) + adm_norm(num_acc[ORI_V], noise, root) +
               adm_norm(num_acc[ORI_D], noise, root);
    res->aim = adm_norm(aim_acc[ORI_H], aim_noise, root) +
               adm_norm(aim_acc[ORI_V], aim_noise, root) +
               adm_norm(aim_acc[ORI_D], aim_noise, root);
}

/* Floats of ring scratch for bands w wide. */
static size_t adm_ring_size(int w)
{
    return (3 * 4 + 1) * NB_ORI * (size_t)w;
}

static void adm_scale(const FloatADMContext *s, const ADMBands *b,
                      const float *rf, int w, int h, float *ring_buf,
                      FFVmafFloatADMScale *res)
{
    const int cube = s->p_norm == 3.0;
    const float p = (float)s->p_norm;
    float num_acc[NB_ORI] = { 0.0f, 0.0f, 0.0f }, aim_acc[NB_ORI] = { 0.0f, 0.0f, 0.0f };
    float den_acc[NB_ORI] = { 0.0f, 0.0f, 0.0f };
    ADMCsfRow slots[3];
    float *x[NB_ORI];
    FFVmafFloatADMRegion g;
    int next = 0;   ///< the next band row to decouple

    ff_vmaf_float_adm_region(&g, w, h);

    for (int k = 0; k < 3; k++)
        for (int ori = 0; ori < NB_ORI; ori++) {
            slots[k].dst_r[ori] = ring_buf; ring_buf += w;
            slots[k].flt_r[ori] = ring_buf; ring_buf += w;
            slots[k].dst_a[ori] = ring_buf; ring_buf += w;
            slots[k].flt_a[ori] = ring_buf; ring_buf += w;
        }
    for (int ori = 0; ori < NB_ORI; ori++) {
        x[ori] = ring_buf;
        ring_buf += w;
    }

    adm_denominator(b, &g, rf, p, cube, den_acc);

    next = g.top > 0 ? g.top - 1 : 0;
    for (int i = g.top; i < g.bottom; i++) {
        /* Rows beyond the band mirror: -1 reads 1, h reads h - 1. Both
         * are among the last three decoupled rows. */
        int im = i > 0 ? i - 1 : 1, ip = i + 1 < h ? i + 1 : h - 1;
        const ADMCsfRow *ring[3];
        const float *flt_r[3][NB_ORI], *flt_a[3][NB_ORI];

        for (; next <= ip; next++)
            adm_decouple_csf_row(s, b, &g, rf, next, &slots[next % 3]);
        ring[0] = &slots[im % 3];
        ring[1] = &slots[i % 3];
        ring[2] = &slots[ip % 3];
        for (int k = 0; k < 3; k++)
            for (int ori = 0; ori < NB_ORI; ori++) {
                flt_r[k][ori] = ring[k]->flt_r[ori];
                flt_a[k][ori] = ring[k]->flt_a[ori];
            }
        /* Detail loss: the restored part, masked by the impairment. */
        adm_cm_row(s, &g, ring[1]->dst_r, ring[1]->dst_a, flt_a, p, cube, x, num_acc);
        /* Additive impairment, masked by the restored part. */
        adm_cm_row(s, &g, ring[1]->dst_a, ring[1]->dst_r, flt_r, p, cube, x, aim_acc);
    }
    ff_vmaf_float_adm_finish(s, &g, num_acc, aim_acc, den_acc, res);
}

int ff_vmaf_float_adm_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                            unsigned index, const FFVmafFloatADMScale *res)
{
    const FloatADMContext *s = f->priv;
    double num = 0.0, den = 0.0, aim_num = 0.0, aim_den = 0.0;
    double adm2, aim = 0.0, adm3;
    int ret;

    for (int k = 0; k < SCALES; k++) {
        num     += res[k].num;
        den     += res[k].den;
        aim_num += res[k].aim;
        aim_den += res[k].den;
    }
    if (num < s->limit)
        num = 0.0;
    if (den < s->limit)
        den = 0.0;
    /* libvmaf leaves aim undefined when den is 0; that needs a reference
     * without any detail and a zero noise weight. */
    if (den == 0.0) {
        adm2 = 1.0;
    } else {
        adm2 = num / den;
        aim  = FFMIN(aim_num / aim_den, 1.0);
    }
    if (s->adm3_apply_hm)
        adm3 = 2.0 * adm2 * aim / (adm2 + aim);
    else
        adm3 = adm2 * s->dlm_weight + (1.0 - aim) * (1.0 - s->dlm_weight);
    adm3 = FFMAX(adm3, s->min_val);

    ret = ff_vmaf_feature_write(f, fc, "VMAF_feature_adm2_score", index, adm2);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "VMAF_feature_aim_score", index, aim);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "VMAF_feature_adm3_score", index, adm3);
    for (int k = 0; k < SCALES && ret >= 0; k++)
        ret = ff_vmaf_feature_write(f, fc, score_names[k], index,
                                    (double)res[k].num / res[k].den);
    if (ret < 0 || !s->debug)
        return ret;

    ret = ff_vmaf_feature_write(f, fc, "adm", index, adm2);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "adm_num", index, num);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "adm_den", index, den);
    for (int k = 0; k < SCALES && ret >= 0; k++) {
        ret = ff_vmaf_feature_write(f, fc, num_names[k], index, res[k].num);
        if (ret >= 0)
            ret = ff_vmaf_feature_write(f, fc, den_names[k], index, res[k].den);
    }
    return ret;
}

/* Scale 0 reads the pictures: four luma rows converted per band row. */
static void adm_dwt_picture(const FFVmafFloatDSPContext *dsp,
                            float *const band[4], ptrdiff_t band_stride,
                            const FFVmafPicture *pic, float *tmp)
{
    const int w = pic->w[0], h = pic->h[0];
    float *rows = tmp + 2 * (size_t)w;

    for (int i = 0; i < (h + 1) / 2; i++) {
        const float *src[FF_VMAF_DWT_TAPS];
        ptrdiff_t o = i * band_stride;

        for (int k = 0; k < FF_VMAF_DWT_TAPS; k++) {
            int y = ff_vmaf_float_dwt_index(2 * i - 1 + k, h);
            float *row = rows + k * (size_t)w;
            dsp->from_luma(row, w, pic->data[0] + y * pic->linesize[0],
                           pic->linesize[0], w, 1, pic->bpc, -128.0f);
            src[k] = row;
        }
        dsp->dwt2_row(band[0] + o, band[1] + o, band[2] + o, band[3] + o,
                      src, w, tmp);
    }
}

enum { BAND_A, BAND_V, BAND_H, BAND_D, NB_BANDS };

static int float_adm_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                             const FFVmafPicture *dis, unsigned index,
                             struct FFVmafFeatureCollector *fc)
{
    const FloatADMContext *s = f->priv;
    const int w0 = ref->w[0], h0 = ref->h[0];
    /* Band a of every scale is kept for the next; v, h, d are reused. */
    const size_t detail = (size_t)((w0 + 1) / 2) * ((h0 + 1) / 2);
    FFVmafFloatADMScale res[SCALES];
    float *p, *approx_buf[SCALES][2], *detail_buf[2][NB_ORI], *tmp, *ring;
    int w = w0, h = h0;

    if (w0 != s->w || h0 != s->h)
        return AVERROR(EINVAL);
    p = s->buf;
    for (int k = 0, bw = w0, bh = h0; k < SCALES; k++) {
        bw = (bw + 1) / 2;
        bh = (bh + 1) / 2;
        for (int c = 0; c < 2; c++) {
            approx_buf[k][c] = p;
            p += (size_t)bw * bh;
        }
    }
    for (int c = 0; c < 2; c++)
        for (int ori = 0; ori < NB_ORI; ori++) {
            detail_buf[c][ori] = p;
            p += detail;
        }
    tmp  = p;
    ring = tmp + (2 + FF_VMAF_DWT_TAPS) * (size_t)w0;

    for (int k = 0; k < SCALES; k++) {
        const int bw = (w + 1) / 2, bh = (h + 1) / 2;
        ADMBands bands = { .stride = bw };

        for (int c = 0; c < 2; c++) {
            float *band[NB_BANDS] = {
                [BAND_A] = approx_buf[k][c],   [BAND_V] = detail_buf[c][ORI_V],
                [BAND_H] = detail_buf[c][ORI_H], [BAND_D] = detail_buf[c][ORI_D],
            };
            if (k == 0)
                adm_dwt_picture(&s->dsp, band, bw, c ? dis : ref, tmp);
            else
                ff_vmaf_float_dwt2(&s->dsp, band[BAND_A], band[BAND_V], band[BAND_H], band[BAND_D],
                                   bw, approx_buf[k - 1][c], w, w, h, tmp);
        }
        w = bw;
        h = bh;

        if (k == 0 && s->skip_scale0) {
            /* Only band a is needed, for scale 1. */
            res[0].num = 0.0f;
            res[0].den = 1e-10f;
            res[0].aim = 0.0f;
            continue;
        }
        for (int ori = 0; ori < NB_ORI; ori++) {
            bands.o[ori] = detail_buf[0][ori];
            bands.t[ori] = detail_buf[1][ori];
        }
        adm_scale(s, &bands, s->rf[k], w, h, ring, &res[k]);
    }

    return ff_vmaf_float_adm_write(f, fc, index, res);
}

const FFVmafExtractor ff_vmaf_extractor_float_adm = {
    .name      = "float_adm",
    .options   = ff_vmaf_float_adm_options,
    .priv_size = sizeof(FloatADMContext),
    .provides  = ff_vmaf_float_adm_provides,
    .init      = ff_vmaf_float_adm_init,
    .extract   = float_adm_extract,
    .close     = ff_vmaf_float_adm_close,
};
