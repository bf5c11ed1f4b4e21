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
 * Shared kernels of the float feature family; see float_dsp.h.
 *
 * The loops run over whole rows (tap outer, column inner) so that they
 * stream through memory, but every output still sees its products and
 * sums in libvmaf's order, which is what fixes its bits. Accumulators
 * start at 0.0f and add the first term like the others: 0.0f + -0.0f is
 * +0.0f, and a sign of zero can decide a later comparison.
 */

#include <math.h>
#include <string.h>

#if defined(__SSE__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1)
#include <xmmintrin.h>
#define HAVE_RCPSS 1
#else
#define HAVE_RCPSS 0
#endif

#include "config.h"

#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavutil/mathematics.h"

#include "float_dsp.h"

void ff_vmaf_float_from_luma(float *dst, ptrdiff_t dst_stride,
                             const uint8_t *src, ptrdiff_t linesize,
                             int w, int h, int bpc, float offset)
{
    /* Dividing by a power of two is exact: the float is v in 8-bit units. */
    const float scale = (float)(1 << (bpc - 8));

    for (int i = 0; i < h; i++) {
        float *d = dst + i * dst_stride;
        if (bpc == 8) {
            const uint8_t *s = src + i * linesize;
            for (int j = 0; j < w; j++)
                d[j] = (float)s[j] + offset;
        } else {
            const uint16_t *s = (const uint16_t *)(src + i * linesize);
            for (int j = 0; j < w; j++)
                d[j] = (float)s[j] / scale + offset;
        }
    }
}

int ff_vmaf_float_kernelscale_valid(double ks)
{
    static const double allowed[] = {
        1.0, 1.0 / 2, 3.0 / 2, 2.0, 2.0 / 3, 2.4, 360.0 / 97, 4.0 / 3,
        3.5 / 3, 3.75 / 3, 4.25 / 3, 5.0 / 3, 3.0, 1.0 / 2.25, 1.4746,
        1.54, 1.6, 1.06667, 0.711111, 0.740740, 1.111111,
    };
    for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
        if (fabs(ks - allowed[i]) < 1e-3)
            return 1;
    return 0;
}

int ff_vmaf_float_filter_size(int q, double ks)
{
    /* The scaled width is rounded to float before its ceiling. */
    int n = (int)ceilf((float)(((1 << (4 - q)) + 1) * ks));
    if (!(n & 1))
        n++;
    return n < 3 ? 3 : n;
}

void ff_vmaf_float_gaussian(float *taps, int n, float sigma)
{
    const float den = (float)(1.0 / (sigma * sqrt(2.0 * M_PI)));
    float sum = 0.0f;

    for (int i = 0; i < n; i++) {
        float t = (float)(i - (n - 1) / 2);
        taps[i] = (float)exp(-0.5 * t / sigma * t / sigma) / den;
    }
    for (int i = 0; i < n; i++)
        sum += taps[i];
    for (int i = 0; i < n; i++)
        taps[i] /= sum;
}

/*
 * The filters run tap-major over whole rows, four taps per sweep: each
 * output still adds its products one by one in tap order, but the sums of
 * neighbouring outputs advance side by side instead of as one long
 * dependency chain each, and the row is stored once per four taps.
 */
void ff_vmaf_float_vfilter(float *dst, const float *src, ptrdiff_t stride,
                           int w, int h, int i, const float *g, int n)
{
    int k = 0;

    for (int j = 0; j < w; j++)
        dst[j] = 0.0f;
    for (; k + 4 <= n; k += 4) {
        const float *s0 = src + ff_vmaf_float_r101(i - n / 2 + k,     h) * stride;
        const float *s1 = src + ff_vmaf_float_r101(i - n / 2 + k + 1, h) * stride;
        const float *s2 = src + ff_vmaf_float_r101(i - n / 2 + k + 2, h) * stride;
        const float *s3 = src + ff_vmaf_float_r101(i - n / 2 + k + 3, h) * stride;
        const float c0 = g[k], c1 = g[k + 1], c2 = g[k + 2], c3 = g[k + 3];
        for (int j = 0; j < w; j++) {
            float acc = dst[j];
            acc += c0 * s0[j];
            acc += c1 * s1[j];
            acc += c2 * s2[j];
            acc += c3 * s3[j];
            dst[j] = acc;
        }
    }
    for (; k < n; k++) {
        const float *s0 = src + ff_vmaf_float_r101(i - n / 2 + k, h) * stride;
        const float c0 = g[k];
        for (int j = 0; j < w; j++)
            dst[j] += c0 * s0[j];
    }
}

/* The products are rounded to float before they are weighted. */
void ff_vmaf_float_vfilter_stats(float *const dst[5], const float *x,
                                 const float *y, ptrdiff_t stride,
                                 int w, int h, int i, const float *g, int n)
{
    float *mu1 = dst[0], *mu2 = dst[1], *xx = dst[2], *yy = dst[3], *xy = dst[4];
    int k = 0;

    for (int j = 0; j < w; j++)
        mu1[j] = mu2[j] = xx[j] = yy[j] = xy[j] = 0.0f;
    for (; k + 2 <= n; k += 2) {
        ptrdiff_t o0 = ff_vmaf_float_r101(i - n / 2 + k,     h) * stride;
        ptrdiff_t o1 = ff_vmaf_float_r101(i - n / 2 + k + 1, h) * stride;
        const float *x0 = x + o0, *y0 = y + o0, *x1 = x + o1, *y1 = y + o1;
        const float c0 = g[k], c1 = g[k + 1];
        for (int j = 0; j < w; j++) {
            float a0 = x0[j], b0 = y0[j], a1 = x1[j], b1 = y1[j];
            float aa0 = a0 * a0, bb0 = b0 * b0, ab0 = a0 * b0;
            float aa1 = a1 * a1, bb1 = b1 * b1, ab1 = a1 * b1;
            float s;
            s = mu1[j]; s += c0 * a0;  s += c1 * a1;  mu1[j] = s;
            s = mu2[j]; s += c0 * b0;  s += c1 * b1;  mu2[j] = s;
            s = xx[j];  s += c0 * aa0; s += c1 * aa1; xx[j]  = s;
            s = yy[j];  s += c0 * bb0; s += c1 * bb1; yy[j]  = s;
            s = xy[j];  s += c0 * ab0; s += c1 * ab1; xy[j]  = s;
        }
    }
    for (; k < n; k++) {
        ptrdiff_t o0 = ff_vmaf_float_r101(i - n / 2 + k, h) * stride;
        const float *x0 = x + o0, *y0 = y + o0;
        const float c0 = g[k];
        for (int j = 0; j < w; j++) {
            float a0 = x0[j], b0 = y0[j];
            float aa0 = a0 * a0, bb0 = b0 * b0, ab0 = a0 * b0;
            mu1[j] += c0 * a0;
            mu2[j] += c0 * b0;
            xx[j]  += c0 * aa0;
            yy[j]  += c0 * bb0;
            xy[j]  += c0 * ab0;
        }
    }
}

void ff_vmaf_float_hfilter(float *dst, float *row, int w,
                           const float *g, int n, int step, int nout)
{
    const int r = n / 2;
    int k = 0;

    ff_vmaf_float_hfilter_border(row, w, r);
    for (int o = 0; o < nout; o++)
        dst[o] = 0.0f;
    for (; k + 4 <= n; k += 4) {
        const float *s = row + k - r;
        const float c0 = g[k], c1 = g[k + 1], c2 = g[k + 2], c3 = g[k + 3];
        for (int o = 0; o < nout; o++) {
            const float *p = s + o * step;
            float acc = dst[o];
            acc += c0 * p[0];
            acc += c1 * p[1];
            acc += c2 * p[2];
            acc += c3 * p[3];
            dst[o] = acc;
        }
    }
    for (; k < n; k++) {
        const float *s = row + k - r;
        const float c0 = g[k];
        for (int o = 0; o < nout; o++)
            dst[o] += c0 * s[o * step];
    }
}

void ff_vmaf_float_conv(const FFVmafFloatDSPContext *c,
                        float *dst, ptrdiff_t dst_stride,
                        const float *src, ptrdiff_t src_stride,
                        int w, int h, const float *g, int n, int step,
                        float *tmp)
{
    float *row = tmp + n / 2;

    /* Decimation keeps floor(size / step) rows and columns. */
    for (int o = 0; o < h / step; o++) {
        c->vfilter(row, src, src_stride, w, h, o * step, g, n);
        c->hfilter(dst + o * dst_stride, row, w, g, n, step, w / step);
    }
}

/* libvmaf's ANSNR mirrors like the DWT: reflect-101 before the start,
 * symmetric after the end (ff_vmaf_float_dwt_index()). */
void ff_vmaf_float_filter2d(float *dst, ptrdiff_t dst_stride,
                            const float *src, ptrdiff_t src_stride,
                            int w, int h, const float *k, int n, float *tmp)
{
    const int r = n / 2;
    float *inner = tmp, *pad = tmp + w + r;

    for (int i = 0; i < h; i++) {
        float *d = dst + i * dst_stride;

        for (int j = 0; j < w; j++)
            d[j] = 0.0f;
        for (int fi = 0; fi < n; fi++) {
            const float *s = src + ff_vmaf_float_dwt_index(i - r + fi, h) * src_stride;
            const float *kr = k + fi * n;

            memcpy(pad, s, w * sizeof(*pad));
            for (int t = 1; t <= r; t++) {
                pad[-t]        = s[ff_vmaf_float_dwt_index(-t, w)];
                pad[w - 1 + t] = s[ff_vmaf_float_dwt_index(w - 1 + t, w)];
            }
            /* Each kernel row is a float sum of its own before it joins
             * the total. */
            for (int j = 0; j < w; j++)
                inner[j] = 0.0f;
            for (int fj = 0; fj < n; fj++) {
                const float *p = pad + fj - r;
                const float c = kr[fj];
                for (int j = 0; j < w; j++)
                    inner[j] += c * p[j];
            }
            for (int j = 0; j < w; j++)
                d[j] += inner[j];
        }
    }
}

const float ff_vmaf_dwt_lo[FF_VMAF_DWT_TAPS] = {
    0x1.ee8dd4p-2f, 0x1.ac4bdep-1f, 0x1.cb0bf0p-3f, -0x1.0907dcp-3f,
};

const float ff_vmaf_dwt_hi[FF_VMAF_DWT_TAPS] = {
    -0x1.0907dcp-3f, -0x1.cb0bf0p-3f, 0x1.ac4bdep-1f, -0x1.ee8dd4p-2f,
};

/* The steps are inline in float_dsp.h, shared with the SIMD versions. */
void ff_vmaf_float_dwt2_row(float *a, float *v, float *hb, float *d,
                            const float *const src[FF_VMAF_DWT_TAPS], int w,
                            float *tmp)
{
    float *lo = tmp, *hi = tmp + w;
    const int bw = (w + 1) / 2;

    ff_vmaf_float_dwt_vert(lo, hi, src, 0, w);
    ff_vmaf_float_dwt_horiz(a,  v, lo, w, 0, bw);
    ff_vmaf_float_dwt_horiz(hb, d, hi, w, 0, bw);
}

void ff_vmaf_float_dwt2(const FFVmafFloatDSPContext *c,
                        float *a, float *v, float *hb, float *d,
                        ptrdiff_t band_stride,
                        const float *src, ptrdiff_t src_stride,
                        int w, int h, float *tmp)
{
    for (int i = 0; i < (h + 1) / 2; i++) {
        const float *rows[FF_VMAF_DWT_TAPS];
        ptrdiff_t o = i * band_stride;

        for (int k = 0; k < FF_VMAF_DWT_TAPS; k++)
            rows[k] = src + ff_vmaf_float_dwt_index(2 * i - 1 + k, h) * src_stride;
        c->dwt2_row(a + o, v + o, hb + o, d + o, rows, w, tmp);
    }
}

/*
 * libvmaf's fast log2 (VIF_OPT_FAST_LOG2): the exponent plus a degree-8
 * polynomial of the mantissa, in float.
 */
static float vif_log2(float x)
{
    static const float poly[] = {
        -0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
         0.257167726303123f, -0.353800560300520f, 0.480131410397451f,
        -0.721314327952201f, 1.442694803896991f, 0.0f,
    };
    union { float f; uint32_t u; } v = { .f = x };
    int e = (v.u >> 23) & 0xff;
    float t, p = 0.0f;

    if (x == 0.0f)
        return -INFINITY;
    v.u = (v.u & 0x7fffff) | (127u << 23);
    t = v.f - 1.0f;
    for (int i = 0; i < FF_ARRAY_ELEMS(poly); i++)
        p = p * t + poly[i];
    return (float)(e - 127) + p;
}

void ff_vmaf_float_vif_terms(float *num, float *den, const float *const st[5],
                             int w, double sigma_nsq, float egl)
{
    const float *mu1 = st[0], *mu2 = st[1], *xx = st[2], *yy = st[3], *xy = st[4];
    const float eps = 1e-10f;
    /* σ2² of a flat block relative to 255² (in the noise variance's units). */
    const float smi = (float)(powf((float)sigma_nsq, 2.0f) / 65025.0);

    for (int j = 0; j < w; j++) {
        float sigma1_sq  = xx[j] - mu1[j] * mu1[j];
        float sigma2_sq  = yy[j] - mu2[j] * mu2[j];
        float sigma12    = xy[j] - mu1[j] * mu2[j];
        float gain, sv_sq, num_px, den_px;

        sigma1_sq = FFMAX(sigma1_sq, 0.0f);
        sigma2_sq = FFMAX(sigma2_sq, 0.0f);
        gain  = sigma12 / (sigma1_sq + eps);
        sv_sq = sigma2_sq - gain * sigma12;
        if (sigma1_sq < eps) {
            gain      = 0.0f;
            sv_sq     = sigma2_sq;
            sigma1_sq = 0.0f;
        }
        if (sigma2_sq < eps) {
            gain  = 0.0f;
            sv_sq = 0.0f;
        }
        if (gain < 0.0f) {
            sv_sq = sigma2_sq;
            gain  = 0.0f;
        }
        sv_sq = FFMAX(sv_sq, eps);
        gain  = FFMIN(gain, egl);

        num_px = vif_log2((float)(1.0 + (double)(gain * gain * sigma1_sq) /
                                        ((double)sv_sq + sigma_nsq)));
        den_px = vif_log2((float)(1.0 + (double)sigma1_sq / sigma_nsq));
        if (sigma12 < 0.0f)
            num_px = 0.0f;
        /* Flat reference: the noise alone decides. */
        if ((double)sigma1_sq < sigma_nsq) {
            num_px = 1.0f - sigma2_sq * smi;
            den_px = 1.0f;
        }
        num[j] = num_px;
        den[j] = den_px;
    }
}

/* The estimate libvmaf's reciprocal starts from: RCPSS, or 1/x without SSE. */
static inline float rcp_estimate(float x)
{
#if HAVE_RCPSS
    return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
#else
    return 1.0f / x;
#endif
}

float ff_vmaf_float_rcp_estimate(float x)
{
    return rcp_estimate(x);
}

int ff_vmaf_float_rcp_is_estimate(void)
{
    return HAVE_RCPSS;
}

/* libvmaf's reciprocal: the RCPSS estimate and one Newton-Raphson step. */
static inline float adm_reciprocal(float x)
{
    float y = rcp_estimate(x);
    return y + y * (1.0f - x * y);
}

void ff_vmaf_float_adm_decouple(float *const dst_r[3], float *const flt_r[3],
                                float *const dst_a[3], float *const flt_a[3],
                                const float *const o[3], const float *const t[3],
                                const float rf[2], double egl, int j0, int j1)
{
    /* cos(1 degree)^2: the ref and dis (h, v) vectors must be this close. */
    const float cos_1deg_sq = 0x1.ffd814p-1f;
    const float *oh = o[0], *ov = o[1], *th = t[0], *tv = t[1];

    for (int j = j0; j < j1; j++) {
        float ot = oh[j] * th[j] + ov[j] * tv[j];
        float oo = oh[j] * oh[j] + ov[j] * ov[j];
        float tt = th[j] * th[j] + tv[j] * tv[j];
        int angle_flag = ot >= 0.0f && ot * ot >= cos_1deg_sq * oo * tt;

        for (int ori = 0; ori < 3; ori++) {
            float ox = o[ori][j], tx = t[ori][j];
            float k = tx * adm_reciprocal(ox + 1e-30f);
            float r, a, c = rf[ori == 2];

            k = k < 0.0f ? 0.0f : k > 1.0f ? 1.0f : k;
            r = k * ox;
            /* Where only the contrast changed, an enhancement up to the
             * gain limit counts as restored, not as impairment. */
            if (angle_flag && r > 0.0f)
                r = (float)FFMIN((double)r * egl, (double)tx);
            else if (angle_flag && r < 0.0f)
                r = (float)FFMAX((double)r * egl, (double)tx);
            a = tx - r;

            dst_r[ori][j] = c * r;
            flt_r[ori][j] = (float)(0.0333333351 * fabsf(dst_r[ori][j]));
            dst_a[ori][j] = c * a;
            flt_a[ori][j] = (float)(0.0333333351 * fabsf(dst_a[ori][j]));
        }
    }
}

/*
 * Contrast-masking threshold of one orientation at column j: the 3x3
 * neighbourhood of flt with the centre replaced by twice its weight of
 * |dst|, summed row by row in float (the centre term in double).
 */
static inline float adm_mask(const float *const flt[3], const float *dst,
                             int jm, int j, int jp)
{
    float sum = 0.0f;
    sum += flt[0][jm];
    sum += flt[0][j];
    sum += flt[0][jp];
    sum += flt[1][jm];
    sum = (float)((double)sum + 0.0666666701 * fabsf(dst[j]));
    sum += flt[1][jp];
    sum += flt[2][jm];
    sum += flt[2][j];
    sum += flt[2][jp];
    return sum;
}

void ff_vmaf_float_adm_cm(float *const out[3], const float *const sig[3],
                          const float *const mdst[3], const float *const mflt[3][3],
                          int j0, int j1, int w, int bypass)
{
    for (int j = j0; j < j1; j++) {
        /* Columns beyond the band mirror: -1 reads 1, w reads w - 1. */
        int jm = j > 0 ? j - 1 : 1, jp = j + 1 < w ? j + 1 : w - 1;
        float thr = 0.0f;

        if (!bypass)
            for (int ori = 0; ori < 3; ori++) {
                const float *flt[3] = { mflt[0][ori], mflt[1][ori], mflt[2][ori] };
                thr += adm_mask(flt, mdst[ori], jm, j, jp);
            }
        for (int ori = 0; ori < 3; ori++) {
            float x = fabsf(sig[ori][j]) - thr;
            out[ori][j] = FFMAX(x, 0.0f);
        }
    }
}

/* The resampler's border: -t before the start, 2(n - 1) - t after the end. */
static inline int resize_mirror(int t, int n)
{
    return t < 0 ? -t : t > n - 1 ? 2 * (n - 1) - t : t;
}

static void resize_bilinear(float *dst, int dw, int dh,
                            const float *src, ptrdiff_t stride, int w, int h)
{
    const float rx = (float)w / dw, ry = (float)h / dh;

    for (int y = 0; y < dh; y++) {
        float yy = (float)((y + 0.5) * ry - 0.5);
        int y1 = resize_mirror((int)floorf(yy), h);
        int y2 = resize_mirror((int)ceilf(yy), h);
        float dy = yy - y1;
        const float *s1 = src + y1 * stride, *s2 = src + y2 * stride;

        for (int x = 0; x < dw; x++) {
            float xx = (float)((x + 0.5) * rx - 0.5);
            int x1 = resize_mirror((int)floorf(xx), w);
            int x2 = resize_mirror((int)ceilf(xx), w);
            float dx = xx - x1;
            float acc = (1.0f - dy) * (1.0f - dx) * s1[x1];
            acc += (1.0f - dy) * dx * s1[x2];
            acc += dy * (1.0f - dx) * s2[x1];
            acc += dy * dx * s2[x2];
            dst[y * dw + x] = acc;
        }
    }
}

static void resize_nearest(float *dst, int dw, int dh,
                           const float *src, ptrdiff_t stride, int w, int h)
{
    const float rx = (float)w / dw, ry = (float)h / dh;

    for (int y = 0; y < dh; y++) {
        const float *s = src + (int)(y * ry) * stride;
        for (int x = 0; x < dw; x++)
            dst[y * dw + x] = s[(int)(x * rx)];
    }
}

void ff_vmaf_float_resize(float *dst, int dw, int dh,
                          const float *src, ptrdiff_t src_stride, int w, int h,
                          enum FFVmafResizeMethod method)
{
    if (method == FF_VMAF_RESIZE_BILINEAR)
        resize_bilinear(dst, dw, dh, src, src_stride, w, h);
    else
        resize_nearest(dst, dw, dh, src, src_stride, w, h);
}

av_cold void ff_vmaf_float_dsp_init(FFVmafFloatDSPContext *c)
{
    c->from_luma     = ff_vmaf_float_from_luma;
    c->vfilter       = ff_vmaf_float_vfilter;
    c->vfilter_stats = ff_vmaf_float_vfilter_stats;
    c->hfilter       = ff_vmaf_float_hfilter;
    c->dwt2_row      = ff_vmaf_float_dwt2_row;
    c->vif_terms     = ff_vmaf_float_vif_terms;
    c->adm_cm        = ff_vmaf_float_adm_cm;
    c->adm_decouple  = ff_vmaf_float_adm_decouple;
    c->filter2d      = ff_vmaf_float_filter2d;
#if ARCH_X86_64
    ff_vmaf_float_dsp_init_x86(c);
#endif
}
