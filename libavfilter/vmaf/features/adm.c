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
 * Integer ADM feature extractor ("adm"), bit-exact with the scalar C path
 * of libvmaf 3.2.0: adm2 (detail loss), aim (additive impairment), adm3
 * and the four per-scale ratios.
 *
 * Each of the four scales is one streaming pass over the band rows: the
 * DWT row, then decouple and CSF on the rows the 3x3 masking needs, then
 * the masked sums of the row above, with a ring of three rows. That pass
 * is written once, in adm_template.h, instantiated for scale 0 (int16
 * bands) and scales 1..3 (int32 bands). The kernels are in adm_dsp.c (and
 * x86/), called through a dsp context.
 * Frames are independent; a thread that scores frames in parallel has its
 * own instance, so the scratch belongs to the instance, allocated at init.
 *
 * A scale ends as integer totals (ADMScaleSums, adm.h); the floating-point
 * steps after them, ff_vmaf_adm_write(), are shared with the GPU twin.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mathematics.h"
#include "libavutil/mem.h"

#include "adm.h"
#include "adm_dsp.h"
#include "libavfilter/vmaf/feature.h"

/* Smallest frame whose scale-3 bands still have two rows and columns
 * (the masking mirror reads index 1). */
#define ADM_MIN_SIZE 17

/* Rows of one-row scratch used per call; see ADMRows. */
enum {
    ROW_LO, ROW_HI = ROW_LO + 2, ROW_BAND = ROW_HI + 2,
    ROW_BAND_A = ROW_BAND + 6, ROW_DECOUPLE = ROW_BAND_A + 2,
    ROW_SLOT = ROW_DECOUPLE + 6, SLOT_ROWS = 12,
    NB_ROWS = ROW_SLOT + 3 * SLOT_ROWS,
};

/* Rows of one ring slot. */
enum {
    SLOT_SR,        ///< masked signal of the numerator (3 rows)
    SLOT_SA = 3,    ///< masked signal of AIM (3 rows)
    SLOT_FLT_A = 6, SLOT_FLT_R, SLOT_CTR_A, SLOT_CTR_R, SLOT_HS_A, SLOT_HS_R,
};

/* One row of scratch per call, every row wide enough for any type. */
typedef struct ADMRows {
    uint8_t *base;
    size_t stride;
} ADMRows;

/* The DWT input of one scale: the picture at scale 0 (bpc its depth),
 * the previous scale's band_a after. */
typedef struct ADMSource {
    const uint8_t *data;
    ptrdiff_t linesize;
    int bpc;
} ADMSource;


typedef struct ADMScaleResult {
    float num, den, aim;
} ADMScaleResult;

#define OFFSET(x) offsetof(ADMContext, x)
const FFVmafOption ff_vmaf_adm_options[] = {
    { "debug", NULL, FF_VMAF_OPT_BOOL, OFFSET(debug), 0, NULL, 0, 1, 0 },
    { "adm_csf_scale", "scf", FF_VMAF_OPT_DOUBLE, OFFSET(csf_scale),
      1.0, NULL, 0.0, 1e4, 1 },
    { "adm_csf_diag_scale", "scfd", FF_VMAF_OPT_DOUBLE, OFFSET(csf_diag_scale),
      1.0, NULL, 0.0, 1e4, 1 },
    { "adm_dlm_weight", "dlmw", FF_VMAF_OPT_DOUBLE, OFFSET(dlm_weight),
      0.5, NULL, 0.0, 1.0, 1 },
    { "adm_enhn_gain_limit", "egl", FF_VMAF_OPT_DOUBLE, OFFSET(enhn_gain_limit),
      100.0, NULL, 1.0, 100.0, 1 },
    { "adm_norm_view_dist", "nvd", FF_VMAF_OPT_DOUBLE, OFFSET(norm_view_dist),
      3.0, NULL, 0.75, 24.0, 1 },
    { "adm_ref_display_height", "rdh", FF_VMAF_OPT_INT, OFFSET(ref_display_height),
      1080, NULL, 1, 4320, 1 },
    { "adm_csf_mode", "csf", FF_VMAF_OPT_INT, OFFSET(csf_mode),
      0, NULL, 0, 3, 1 },
    { "adm_noise_weight", "nw", FF_VMAF_OPT_DOUBLE, OFFSET(noise_weight),
      0.03125, NULL, 0.0, 1.0, 1 },
    { "adm_skip_scale0", "ssz", FF_VMAF_OPT_BOOL, OFFSET(skip_scale0),
      0, NULL, 0, 1, 1 },
    { "adm_min_val", "min", FF_VMAF_OPT_DOUBLE, OFFSET(min_val),
      0.0, NULL, 0.0, 1.0, 1 },
    { "adm_skip_aim", NULL, FF_VMAF_OPT_BOOL, OFFSET(skip_aim), 0, NULL, 0, 1, 0 },
    { NULL }
};

static const char *const scale_names[FF_VMAF_ADM_SCALES] = {
    "integer_adm_scale0", "integer_adm_scale1",
    "integer_adm_scale2", "integer_adm_scale3",
};

static const char *const num_names[FF_VMAF_ADM_SCALES] = {
    "integer_adm_num_scale0", "integer_adm_num_scale1",
    "integer_adm_num_scale2", "integer_adm_num_scale3",
};

static const char *const den_names[FF_VMAF_ADM_SCALES] = {
    "integer_adm_den_scale0", "integer_adm_den_scale1",
    "integer_adm_den_scale2", "integer_adm_den_scale3",
};

/* libvmaf names its debug values through the same option dictionary as the
 * scores, so they carry the parameter suffix too: declare them all. */
const char *const ff_vmaf_adm_provides[] = {
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0", "integer_adm_scale1",
    "integer_adm_scale2", "integer_adm_scale3",
    "integer_adm", "integer_adm_num", "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0",
    "integer_adm_num_scale1", "integer_adm_den_scale1",
    "integer_adm_num_scale2", "integer_adm_den_scale2",
    "integer_adm_num_scale3", "integer_adm_den_scale3",
    NULL
};

/*
 * Rfactors of adm_csf_mode 2 (libvmaf's Barten/Watson blend) and 3 (its
 * "MAE" variant): looked up by (reference display height, normalised
 * viewing distance), h/v then d, scales 0..3.
 */
typedef struct ADMCsfTable {
    int rdh;
    double nvd;
    float hv[4], d[4];
} ADMCsfTable;

static const ADMCsfTable csf_blend[] = {
    { 1080, 3.0, { 0.01183,  0.025026, 0.04295,  0.058621 },
                 { 0.004302, 0.011778, 0.023918, 0.035901 } },
    { 2160, 1.5, { 0.01183,  0.025026, 0.04295,  0.058621 },
                 { 0.004302, 0.011778, 0.023918, 0.035901 } },
    { 1080, 5.0, { 0.004212, 0.014809, 0.029642, 0.047464 },
                 { 0.000984, 0.005852, 0.0146,   0.027574 } },
    { 2160, 3.0, { 0.00226,  0.01183,  0.025026, 0.04295  },
                 { 0.000479, 0.004302, 0.011778, 0.023918 } },
    { 2160, 5.0, { 0.000092, 0.004212, 0.014809, 0.029642 },
                 { 0.000050, 0.000984, 0.005852, 0.0146   } },
    {  720, 3.0, { 0.018715, 0.035637, 0.052798, 0.061509 },
                 { 0.007999, 0.018396, 0.031851, 0.037718 } },
    {  720, 5.0, { 0.010144, 0.022561, 0.040309, 0.05672  },
                 { 0.003463, 0.010282, 0.021839, 0.034641 } },
    {  480, 3.0, { 0.027961, 0.045875, 0.060275, 0.056234 },
                 { 0.013572, 0.026277, 0.036959, 0.034511 } },
    {  480, 5.0, { 0.016781, 0.032822, 0.05032,  0.061594 },
                 { 0.00691,  0.016545, 0.029917, 0.037777 } },
    { 0 }
};

static const ADMCsfTable csf_blend_mae[] = {
    { 1080, 3.0, { 0.011249, 0.022606, 0.035930, 0.045673 },
                 { 0.004097, 0.010921, 0.021430, 0.031313 } },
    { 2160, 1.5, { 0.011249, 0.022606, 0.035930, 0.045673 },
                 { 0.004097, 0.010921, 0.021430, 0.031313 } },
    { 1080, 5.0, { 0.004052, 0.013939, 0.026298, 0.038833 },
                 { 0.000927, 0.005544, 0.013415, 0.024515 } },
    { 2160, 3.0, { 0.002166, 0.011249, 0.022606, 0.035930 },
                 { 0.000447, 0.004097, 0.010921, 0.021430 } },
    { 2160, 5.0, { 0.000077, 0.004052, 0.013939, 0.026298 },
                 { 0.000045, 0.000927, 0.005544, 0.013415 } },
    {  720, 3.0, { 0.017329, 0.030870, 0.042134, 0.047410 },
                 { 0.007509, 0.016707, 0.028072, 0.032722 } },
    {  720, 5.0, { 0.009689, 0.020577, 0.034162, 0.044523 },
                 { 0.003302, 0.009579, 0.019661, 0.030318 } },
    {  480, 3.0, { 0.024969, 0.037825, 0.046676, 0.043974 },
                 { 0.012511, 0.023424, 0.032139, 0.030166 } },
    {  480, 5.0, { 0.015665, 0.028766, 0.040612, 0.047483 },
                 { 0.006514, 0.015107, 0.026476, 0.032776 } },
    { 0 }
};

/*
 * Watson et al. 1997 quantisation step of DWT level `scale`, orientation
 * theta (1: h and v, 2: d), inverted: libvmaf's float/double mix, which
 * reproduces its float rfactors bit for bit.
 */
static float watson_rfactor(double nvd, int rdh, int scale, int theta)
{
    static const float a = 0.495f, k = 0.466f, f0 = 0.401f;
    static const float g[3] = { 1.501f, 1.0f, 0.534f };
    static const float amp[3][4] = {
        { 0 },
        { 0.67234f, 0.41317f, 0.22727f, 0.11792f },
        { 0.72709f, 0.49428f, 0.28688f, 0.15214f },
    };
    float r    = (float)(nvd * rdh * M_PI / 180.0);
    float temp = (float)log10(pow(2.0, scale + 1) * f0 * g[theta] / r);
    float q    = (float)(2 * a * pow(10.0, k * temp * temp) / amp[theta][scale]);

    return 1.0f / q;
}

static int adm_init_rfactors(FFVmafFeature *f)
{
    ADMContext *s = f->priv;
    const double nvd = s->norm_view_dist;
    const int rdh = s->ref_display_height;

    if (s->csf_mode == 0) {
        for (int sc = 0; sc < FF_VMAF_ADM_SCALES; sc++) {
            s->rf[sc][0] = s->rf[sc][1] = watson_rfactor(nvd, rdh, sc, 1);
            s->rf[sc][2] = watson_rfactor(nvd, rdh, sc, 2);
        }
    } else if (s->csf_mode == 2 || s->csf_mode == 3) {
        const ADMCsfTable *t = s->csf_mode == 2 ? csf_blend : csf_blend_mae;

        while (t->rdh && !(t->rdh == rdh && t->nvd == nvd))
            t++;
        if (!t->rdh) {
            av_log(f->log_ctx, AV_LOG_ERROR,
                   "adm: adm_csf_mode %d has no rfactors for "
                   "adm_ref_display_height %d and adm_norm_view_dist %g; "
                   "accepted pairs: 1080/3, 2160/1.5, 1080/5, 2160/3, 2160/5, "
                   "720/3, 720/5, 480/3, 480/5\n", s->csf_mode, rdh, nvd);
            return AVERROR(EINVAL);
        }
        for (int sc = 0; sc < FF_VMAF_ADM_SCALES; sc++) {
            s->rf[sc][0] = s->rf[sc][1] = t->hv[sc];
            s->rf[sc][2] = t->d[sc];
        }
    } else {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "adm: adm_csf_mode %d (Barten) is not supported; "
               "accepted: 0 (Watson), 2 (blend), 3 (blend, MAE)\n", s->csf_mode);
        return AVERROR_PATCHWELCOME;
    }

    /* libvmaf hard-codes the default scale-0 factors, one or a few units
     * away from the truncated float values used for any other setting. */
    if (s->csf_mode == 0 && nvd * rdh == 3.0 * 1080) {
        s->rf0[0] = s->rf0[1] = 36453;
        s->rf0[2] = 49417;
    } else {
        s->rf0[0] = s->rf0[1] = (uint16_t)(s->rf[0][0] * 2097152.0);
        s->rf0[2] = (uint16_t)(s->rf[0][2] * 8388608.0);
    }
    for (int sc = 1; sc < FF_VMAF_ADM_SCALES; sc++)
        for (int b = 0; b < 3; b++)
            s->rf32[sc][b] = (uint32_t)(s->rf[sc][b] * 4294967296.0);
    return 0;
}

static int ceil_log2(double x)
{
    return (int)ceil(log2(x));
}

static void adm_init_geometry(ADMContext *s, int w, int h)
{
    for (int sc = 0; sc < FF_VMAF_ADM_SCALES; sc++) {
        ADMScaleGeom *g = &s->g[sc];

        g->w  = w;
        g->h  = h;
        g->bw = (w + 1) / 2;
        g->bh = (h + 1) / 2;
        /* libvmaf's 10% border, truncated toward zero. */
        g->il = (int)(g->bw * 0.1 - 0.5);
        g->it = (int)(g->bh * 0.1 - 0.5);
        g->ir = g->bw - g->il;
        g->ib = g->bh - g->it;
        g->cl = FFMAX(g->il - 1, 0);
        g->ct = FFMAX(g->it - 1, 0);
        g->cr = FFMIN(g->ir + 1, g->bw);
        g->cb = FFMIN(g->ib + 1, g->bh);

        if (sc == 0) {
            g->num_c_hv = FFMAX((int)ceil(log2(g->bw) - 4), 0);
            g->num_c_d  = FFMAX((int)ceil(log2(g->bw) - 3), 0);
            g->den_c    = FFMAX((int)ceil(log2((double)(g->ib - g->it) *
                                               (g->ir - g->il)) - 20), 0);
        } else {
            g->num_c_hv = g->num_c_d = ceil_log2(g->bw);
            g->den_c    = ceil_log2(g->ir - g->il);
            g->den_e    = ceil_log2(g->ib - g->it);
        }
        g->num_e = ceil_log2(g->bh);

        w = g->bw;
        h = g->bh;
    }
}

int ff_vmaf_adm_init(FFVmafFeature *f, const FFVmafGeometry *geo)
{
    ADMContext *s = f->priv;
    const ADMScaleGeom *g;
    ADMContext *st;
    int ret;

    if (geo->bpc != 8 && geo->bpc != 10 && geo->bpc != 12 && geo->bpc != 16) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "adm: unsupported bit depth %d (8, 10, 12 or 16 accepted)\n",
               geo->bpc);
        return AVERROR(EINVAL);
    }
    if (geo->width < ADM_MIN_SIZE || geo->height < ADM_MIN_SIZE) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "adm: frame size %dx%d is too small (at least %dx%d)\n",
               geo->width, geo->height, ADM_MIN_SIZE, ADM_MIN_SIZE);
        return AVERROR(EINVAL);
    }
    if (s->norm_view_dist * s->ref_display_height < 3.0 * 1080) {
        av_log(f->log_ctx, AV_LOG_ERROR,
               "adm: adm_norm_view_dist * adm_ref_display_height must be at "
               "least 3 * 1080 (got %g * %d)\n",
               s->norm_view_dist, s->ref_display_height);
        return AVERROR(EINVAL);
    }
    ret = adm_init_rfactors(f);
    if (ret < 0)
        return ret;

    adm_init_geometry(s, geo->width, geo->height);
    s->limit = 1e-10 * ((double)geo->width * geo->height) / (1920.0 * 1080.0);

    s->div_lut = av_malloc_array(FF_VMAF_ADM_DIV_LUT_SIZE, sizeof(*s->div_lut));
    if (!s->div_lut)
        return AVERROR(ENOMEM);
    ff_vmaf_adm_div_lut_init(s->div_lut);
    st = s;
    ff_vmaf_adm_dsp_init(&st->dsp);

    /* Every scratch row holds the widest DWT input, plus padding, as int64. */
    g = s->g;
    st->stride = FFALIGN((size_t)(g[0].w + 8) * sizeof(int64_t), 64);
    st->a0 = FFALIGN((size_t)g[0].bw * g[0].bh * sizeof(int16_t), 64);
    st->a1 = FFALIGN((size_t)g[1].bw * g[1].bh * sizeof(int32_t), 64);
    st->a2 = FFALIGN((size_t)g[2].bw * g[2].bh * sizeof(int32_t), 64);
    st->buf = av_malloc(st->stride * NB_ROWS + 2 * (st->a0 + st->a1 + st->a2));
    if (!st->buf) {
        av_freep(&s->div_lut);
        return AVERROR(ENOMEM);
    }
    return 0;
}

static void *row_at(const ADMRows *rows, int idx)
{
    return rows->base + rows->stride * idx;
}

/* Row k of the ring slot of band row y. */
static void *slot_row(const ADMRows *rows, int y, int k)
{
    return row_at(rows, ROW_SLOT + (y % 3) * SLOT_ROWS + k);
}

/* DWT row mirror: reflect-101 at the start, symmetric at the end. */
static int dwt_row(int idx, int n)
{
    if (idx < 0)
        return -idx;
    if (idx >= n)
        return 2 * n - 1 - idx;
    return idx;
}

/* Numerator and AIM terms of one orientation: cube root of the masked
 * sum plus the noise floor term (zero for AIM). */
static float cube_root_sum(float sum, float noise)
{
    return powf(sum, 1.0f / 3.0f) + powf(noise, 1.0f / 3.0f);
}

static float band_sum3(const float v[3], float noise)
{
    return (cube_root_sum(v[0], noise) + cube_root_sum(v[1], noise)) +
           cube_root_sum(v[2], noise);
}

static float adm_noise(const ADMContext *s, const ADMScaleGeom *g)
{
    return (float)((g->ib - g->it) * (g->ir - g->il) * s->noise_weight);
}

/*
 * Scale 0's steps for adm_template.h: int16 bands, from the picture;
 * int32 CSF sums. The masked bands are the decoupled ones: cm_row_s0
 * weights them itself, with the 16-bit rfactors.
 */
static av_always_inline void adm_dwt_vert_s0(const FFVmafADMDSPContext *dsp,
                                             int sc, int16_t *lo, int16_t *hi,
                                             const void *const src[4], int w,
                                             int bpc)
{
    dsp->dwt_vert_s0(lo, hi, src, w, bpc);
}

static av_always_inline void adm_dwt_horiz_s0(const FFVmafADMDSPContext *dsp,
                                              int sc, int16_t *lo, int16_t *hi,
                                              const int16_t *in, int bw)
{
    dsp->dwt_horiz_s0(lo, hi, in, bw);
}

static av_always_inline void adm_csf_s0(const ADMContext *s,
                                        const FFVmafADMDSPContext *dsp, int sc,
                                        int16_t *const dst[3], int32_t *flt,
                                        int32_t *ctr, const int16_t *const src[3],
                                        int n)
{
    dsp->csf_s0(flt, ctr, src, n, s->rf0);
}

/* The cube sum is shifted by den_c per row here (per element at scales
 * 1..3). */
static av_always_inline uint64_t adm_den_row_s0(const ADMContext *s,
                                                const FFVmafADMDSPContext *dsp,
                                                int sc, const int16_t *o, int n)
{
    const int c = s->g[0].den_c;
    const uint64_t rnd = c > 0 ? 1ULL << (c - 1) : 0;

    return (dsp->den_row_s0(o, n) + rnd) >> c;
}

static av_always_inline void adm_cm_row_s0(const ADMContext *s,
                                           const FFVmafADMDSPContext *dsp, int sc,
                                           int64_t sum[3], const int16_t *const x[3],
                                           const int32_t *const hs[3],
                                           const int32_t *flt, const int32_t *ctr,
                                           int n)
{
    dsp->cm_row_s0(sum, x, hs, flt, ctr, n, s->rf0, s->g[0].num_c_hv,
                   s->g[0].num_c_d);
}

#define BAND_T           int16_t
#define CSF_T            int32_t
#define FUNC(name)       name ## _s0
#define PAD_ROW          ff_vmaf_adm_pad_row16
#define DECOUPLE         decouple_s0
#define HSUM3            hsum3_32
#define CSF_WRITES_BANDS 0
#include "adm_template.h"

/*
 * Scales 1..3: int32 bands, from the int16 band_a of scale 0 at scale 1,
 * from int32 ones after; int64 CSF sums. The masked bands are the
 * CSF-weighted decoupled ones, with the 32-bit rfactors.
 */
static av_always_inline void adm_dwt_vert_s123(const FFVmafADMDSPContext *dsp,
                                               int sc, int32_t *lo, int32_t *hi,
                                               const void *const src[4], int w,
                                               int bpc)
{
    if (sc == 1) {
        const int16_t *src16[4];
        for (int k = 0; k < 4; k++)
            src16[k] = src[k];
        dsp->dwt_vert_s1(lo, hi, src16, w);
    } else {
        const int32_t *src32[4];
        for (int k = 0; k < 4; k++)
            src32[k] = src[k];
        dsp->dwt_vert_s23(lo, hi, src32, w);
    }
}

static av_always_inline void adm_dwt_horiz_s123(const FFVmafADMDSPContext *dsp,
                                                int sc, int32_t *lo, int32_t *hi,
                                                const int32_t *in, int bw)
{
    static const int shift[4] = { 0, 15, 16, 15 };

    dsp->dwt_horiz_s123(lo, hi, in, bw, shift[sc]);
}

static av_always_inline void adm_csf_s123(const ADMContext *s,
                                          const FFVmafADMDSPContext *dsp, int sc,
                                          int32_t *const dst[3], int64_t *flt,
                                          int64_t *ctr, const int32_t *const src[3],
                                          int n)
{
    dsp->csf_s123(dst, flt, ctr, src, n, s->rf32[sc]);
}

static av_always_inline uint64_t adm_den_row_s123(const ADMContext *s,
                                                  const FFVmafADMDSPContext *dsp,
                                                  int sc, const int32_t *o, int n)
{
    static const int den_p[4] = { 0, 31, 30, 31 };
    const ADMScaleGeom *g = &s->g[sc];
    const uint64_t rnd = g->den_e > 0 ? 1ULL << (g->den_e - 1) : 0;

    return (dsp->den_row_s123(o, n, den_p[sc], g->den_c) + rnd) >> g->den_e;
}

static av_always_inline void adm_cm_row_s123(const ADMContext *s,
                                             const FFVmafADMDSPContext *dsp,
                                             int sc, int64_t sum[3],
                                             const int32_t *const x[3],
                                             const int64_t *const hs[3],
                                             const int64_t *flt,
                                             const int64_t *ctr, int n)
{
    dsp->cm_row_s123(sum, x, hs, flt, ctr, n, s->g[sc].num_c_hv);
}

#define BAND_T           int32_t
#define CSF_T            int64_t
#define FUNC(name)       name ## _s123
#define PAD_ROW          ff_vmaf_adm_pad_row32
#define DECOUPLE         decouple_s123
#define HSUM3            hsum3_64
#define CSF_WRITES_BANDS 1
#include "adm_template.h"

/* Scale 0's totals to float: x^3 of the h/v bands is Q52 and of the d
 * band Q57; the numerator is converted in double, then rounded to float. */
static void adm_result_s0(const ADMContext *s, const ADMScaleSums *sums,
                          ADMScaleResult *res)
{
    const ADMScaleGeom *g = &s->g[0];
    float num_f[3], aim_f[3], den_f[3], noise;

    for (int b = 0; b < 3; b++) {
        const int c = b == 2 ? g->num_c_d : g->num_c_hv;
        const int q = (b == 2 ? 57 : 52) - c - g->num_e;
        const double rf = s->rf[0][b];

        num_f[b] = (float)ldexp((double)sums->num[b], -q);
        aim_f[b] = (float)ldexp((double)sums->aim[b], -q);
        den_f[b] = (float)(ldexp((double)sums->den[b], -(18 - g->den_c)) *
                           rf * rf * rf);
    }
    noise    = adm_noise(s, g);
    res->num = band_sum3(num_f, noise);
    res->den = band_sum3(den_f, noise);
    res->aim = band_sum3(aim_f, 0.0f);
}

/* Scales 1..3: here the numerator is scaled in float, the denominator in
 * double. */
static void adm_result_s123(const ADMContext *s, int sc, const ADMScaleSums *sums,
                            ADMScaleResult *res)
{
    static const int den_q[4] = { 0, 32, 27, 23 };
    static const int num_q[4] = { 0, 45, 39, 36 };
    const ADMScaleGeom *g = &s->g[sc];
    float num_f[3], aim_f[3], den_f[3], noise;

    for (int b = 0; b < 3; b++) {
        const float q = ldexpf(1.0f, num_q[sc] - g->num_c_hv - g->num_e);
        const double rf = s->rf[sc][b];

        num_f[b] = (float)sums->num[b] / q;
        aim_f[b] = (float)sums->aim[b] / q;
        den_f[b] = (float)(ldexp((double)sums->den[b],
                                 -(den_q[sc] - g->den_e - g->den_c)) *
                           rf * rf * rf);
    }
    noise    = adm_noise(s, g);
    res->num = band_sum3(num_f, noise);
    res->den = band_sum3(den_f, noise);
    res->aim = band_sum3(aim_f, 0.0f);
}

static int adm_write_values(FFVmafFeature *f, struct FFVmafFeatureCollector *fc,
                            unsigned index, const ADMScaleResult *res)
{
    const ADMContext *s = f->priv;
    double num = 0.0, den = 0.0, aim_num = 0.0, adm2, aim, adm3;
    volatile double dlm_term, aim_term;
    int ret;

    for (int sc = 0; sc < FF_VMAF_ADM_SCALES; sc++) {
        num     += res[sc].num;
        den     += res[sc].den;
        aim_num += res[sc].aim;
    }
    if (num < s->limit)
        num = 0.0;
    if (den < s->limit)
        den = 0.0;
    adm2 = den == 0.0 ? 1.0 : num / den;
    aim  = aim_num / den;
    /* Two separately rounded products, as in libvmaf, even on targets
     * where the compiler would fuse a product into the sum. */
    dlm_term = adm2 * s->dlm_weight;
    aim_term = (1.0 - aim) * (1.0 - s->dlm_weight);
    adm3 = FFMAX(dlm_term + aim_term, s->min_val);

    ret = ff_vmaf_feature_write(f, fc, "VMAF_integer_feature_adm2_score", index, adm2);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "VMAF_integer_feature_aim_score", index, aim);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "VMAF_integer_feature_adm3_score", index, adm3);
    for (int sc = 0; sc < FF_VMAF_ADM_SCALES && ret >= 0; sc++)
        ret = ff_vmaf_feature_write(f, fc, scale_names[sc], index,
                                    (double)res[sc].num / (double)res[sc].den);
    if (ret < 0 || !s->debug)
        return ret;

    ret = ff_vmaf_feature_write(f, fc, "integer_adm", index, adm2);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "integer_adm_num", index, num);
    if (ret >= 0)
        ret = ff_vmaf_feature_write(f, fc, "integer_adm_den", index, den);
    for (int sc = 0; sc < FF_VMAF_ADM_SCALES && ret >= 0; sc++) {
        ret = ff_vmaf_feature_write(f, fc, num_names[sc], index, res[sc].num);
        if (ret >= 0)
            ret = ff_vmaf_feature_write(f, fc, den_names[sc], index, res[sc].den);
    }
    return ret;
}

int ff_vmaf_adm_write(FFVmafFeature *f, FFVmafFeatureCollector *fc,
                      unsigned index, const ADMScaleSums sums[FF_VMAF_ADM_SCALES])
{
    const ADMContext *s = f->priv;
    ADMScaleResult res[FF_VMAF_ADM_SCALES];

    if (s->skip_scale0) {
        /* What libvmaf reports for a scale it does not compute. */
        res[0].num = 0.0f;
        res[0].den = 1e-10f;
        res[0].aim = 0.0f;
    } else {
        adm_result_s0(s, &sums[0], &res[0]);
    }
    for (int sc = 1; sc < FF_VMAF_ADM_SCALES; sc++)
        adm_result_s123(s, sc, &sums[sc], &res[sc]);
    return adm_write_values(f, fc, index, res);
}

static int adm_extract(FFVmafFeature *f, const FFVmafPicture *ref,
                       const FFVmafPicture *dis, unsigned index,
                       struct FFVmafFeatureCollector *fc)
{
    const ADMContext *s = f->priv;
    const ADMContext *st = s;
    const FFVmafADMDSPContext *dsp = &st->dsp;
    const FFVmafPicture *const pic[2] = { ref, dis };
    ADMScaleSums sums[FF_VMAF_ADM_SCALES] = { 0 };
    int16_t *band_a0[2];
    int32_t *band_a1[2], *band_a2[2], *band_a3[2] = { NULL, NULL };
    ADMSource src[FF_VMAF_ADM_SCALES][2];
    ADMRows rows;

    rows.base   = st->buf;
    rows.stride = st->stride;
    for (int p = 0; p < 2; p++) {
        uint8_t *planes = st->buf + st->stride * NB_ROWS + p * (st->a0 + st->a1 + st->a2);
        band_a0[p] = (int16_t *)planes;
        band_a1[p] = (int32_t *)(planes + st->a0);
        band_a2[p] = (int32_t *)(planes + st->a0 + st->a1);
        src[0][p] = (ADMSource){ pic[p]->data[0], pic[p]->linesize[0], pic[p]->bpc };
        src[1][p] = (ADMSource){ (uint8_t *)band_a0[p], s->g[1].w * sizeof(int16_t), 0 };
        src[2][p] = (ADMSource){ (uint8_t *)band_a1[p], s->g[2].w * sizeof(int32_t), 0 };
        src[3][p] = (ADMSource){ (uint8_t *)band_a2[p], s->g[3].w * sizeof(int32_t), 0 };
    }

    adm_scale_s0(s, dsp, &rows, 0, src[0], band_a0, s->skip_scale0, &sums[0]);
    adm_scale_s123(s, dsp, &rows, 1, src[1], band_a1, 0, &sums[1]);
    adm_scale_s123(s, dsp, &rows, 2, src[2], band_a2, 0, &sums[2]);
    adm_scale_s123(s, dsp, &rows, 3, src[3], band_a3, 0, &sums[3]);

    return ff_vmaf_adm_write(f, fc, index, sums);
}

void ff_vmaf_adm_close(FFVmafFeature *f)
{
    ADMContext *s = f->priv;

    av_freep(&s->buf);
    av_freep(&s->div_lut);
}

const FFVmafExtractor ff_vmaf_extractor_adm = {
    .name      = "adm",
    .options   = ff_vmaf_adm_options,
    .priv_size = sizeof(ADMContext),
    .flags     = 0,
    .provides  = ff_vmaf_adm_provides,
    .init      = ff_vmaf_adm_init,
    .extract   = adm_extract,
    .close     = ff_vmaf_adm_close,
};
