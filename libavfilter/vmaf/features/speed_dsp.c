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
 * SpEED-QA kernels, plain C. See speed_dsp.h.
 *
 * Where a line mixes float and double it is on purpose: libvmaf evaluates
 * those expressions in double (a double constant or a double math
 * function) and rounds to float at the assignment, and the outputs are
 * bit-exact only with the same evaluation types.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "config.h"

#include "libavutil/attributes.h"
#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mathematics.h"
#include "libavutil/mem.h"

#include "float_dsp.h"
#include "speed_dsp.h"

#define B   FF_VMAF_SPEED_B
#define B2  FF_VMAF_SPEED_B2
#define DEC FF_VMAF_SPEED_DECIMATION

/* Eigenvalues smaller than this (and pivots of the solve smaller than
 * this) make the block covariance singular. */
#define SINGULAR_EPS 1e-6
/* libvmaf's global cap on implicit QR steps; it only warns when hit. */
#define MAX_QR_STEPS 500
/* Taps of the widest resampling kernel (Lanczos-4). */
#define RESAMPLE_MAX_TAPS FF_VMAF_SPEED_RESAMPLE_TAPS
/* Pixels per chunk of the covariance sums: the 25 rows of centred values
 * of a chunk stay in the L1 cache. */
#define COV_CHUNK 128
/* Accumulators kept in registers while a chunk is swept. */
#define COV_TILE 8

/* -------------------------------------------------------------------- */
/* Configuration                                                        */

/* log2(2 pi e): the differential entropy of a unit Gaussian, in bits. */
static double log2_2pie(void)
{
    return log2(2.0 * M_PI * M_E);
}

int ff_vmaf_speed_kernelscale_valid(double ks)
{
    /* SpEED accepts the kernel scales of float VIF, and sizes and builds
     * its Gaussian the same way. */
    return ff_vmaf_float_kernelscale_valid(ks);
}

void ff_vmaf_speed_config_init(FFVmafSpeedConfig *c, int w, int h,
                               double kernelscale, double prescale,
                               int scale_method, double sigma_nn,
                               double nn_floor, int wvm)
{
    float nnf = (float)nn_floor;

    memset(c, 0, sizeof(*c));
    c->w = w;
    c->h = h;
    c->scale_method = scale_method;
    c->resample = fabs(prescale - 1.0) >= 1e-3;
    if (c->resample) {
        c->ws = (int)(w * prescale + 0.5);
        c->hs = (int)(h * prescale + 0.5);
    } else {
        c->ws = w;
        c->hs = h;
    }
    c->wo  = c->ws / DEC;
    c->ho  = c->hs / DEC;
    c->nbh = c->wo / B;
    c->nbv = c->ho / B;

    c->n_blur = ff_vmaf_float_filter_size(1, kernelscale);
    c->n_mean = ff_vmaf_float_filter_size(4, kernelscale);
    ff_vmaf_float_gaussian(c->g_blur, c->n_blur, (float)(sqrt(4.0) * c->n_blur / 5.0f));
    ff_vmaf_float_gaussian(c->g_mean, c->n_mean, c->n_mean / 5.0f);

    c->sigma_nn = (float)sigma_nn;
    c->wvm      = wvm;
    c->base = (float)(B2 * (log2((double)((1.0f + nnf) * c->sigma_nn)) +
                            log2_2pie()));
}

int ff_vmaf_speed_scratch_alloc(FFVmafSpeedScratch *s, const FFVmafSpeedConfig *c)
{
    size_t od = (size_t)c->wo * c->ho;
    size_t nb = (size_t)c->nbh * c->nbv;

    memset(s, 0, sizeof(*s));
    if (c->resample &&
        (!(s->plane  = av_malloc_array((size_t)c->w * c->h, sizeof(*s->plane))) ||
         !(s->scaled = av_malloc_array((size_t)c->ws * c->hs, sizeof(*s->scaled))) ||
         !(s->xi = av_malloc_array((size_t)c->ws * RESAMPLE_MAX_TAPS, sizeof(*s->xi))) ||
         !(s->xw = av_malloc_array((size_t)c->ws * RESAMPLE_MAX_TAPS, sizeof(*s->xw)))))
        goto fail;
    if (!c->resample &&
        !(s->rows = av_malloc_array((size_t)c->ws * c->n_blur, sizeof(*s->rows))))
        goto fail;
    if (!(s->row = av_malloc_array(c->ws, sizeof(*s->row)))  ||
        !(s->d   = av_malloc_array(od + 1, sizeof(*s->d)))    ||
        !(s->t   = av_malloc_array(od + 1, sizeof(*s->t)))    ||
        !(s->mu  = av_malloc_array(od + 1, sizeof(*s->mu)))   ||
        !(s->cen = av_malloc_array(B2 * COV_CHUNK, sizeof(*s->cen))) ||
        !(s->y   = av_malloc_array(nb * B2 + 1, sizeof(*s->y))) ||
        !(s->x   = av_malloc_array(nb * B2 + 1, sizeof(*s->x))) ||
        !(s->qy  = av_malloc_array(nb * B2 + 1, sizeof(*s->qy))))
        goto fail;
    return 0;
fail:
    ff_vmaf_speed_scratch_free(s);
    return AVERROR(ENOMEM);
}

void ff_vmaf_speed_scratch_free(FFVmafSpeedScratch *s)
{
    av_freep(&s->plane);
    av_freep(&s->scaled);
    av_freep(&s->xi);
    av_freep(&s->xw);
    av_freep(&s->rows);
    av_freep(&s->row);
    av_freep(&s->d);
    av_freep(&s->t);
    av_freep(&s->mu);
    av_freep(&s->cen);
    av_freep(&s->y);
    av_freep(&s->x);
    av_freep(&s->qy);
}

/*
 * Rows of the input as floats in 8-bit units minus 128: the plane a, or
 * the difference of a and b. The power-of-two division of libvmaf is done
 * as a multiplication by its exact reciprocal (the same floats).
 */
static void to_float_8_c(float *dst, const uint8_t *a, int w, int bpc)
{
    for (int j = 0; j < w; j++)
        dst[j] = (float)a[j] - 128.0f;
}

static void to_float_16_c(float *dst, const uint8_t *a, int w, int bpc)
{
    const uint16_t *a16 = (const uint16_t *)a;
    const float scale = 1.0f / (float)(1 << (bpc - 8));

    for (int j = 0; j < w; j++)
        dst[j] = (float)a16[j] * scale - 128.0f;
}

static void diff_to_float_8_c(float *dst, const uint8_t *a, const uint8_t *b,
                              int w, int bpc)
{
    for (int j = 0; j < w; j++)
        dst[j] = ((float)a[j] - 128.0f) - ((float)b[j] - 128.0f);
}

static void diff_to_float_16_c(float *dst, const uint8_t *a, const uint8_t *b,
                               int w, int bpc)
{
    const uint16_t *a16 = (const uint16_t *)a, *b16 = (const uint16_t *)b;
    const float scale = 1.0f / (float)(1 << (bpc - 8));

    for (int j = 0; j < w; j++)
        dst[j] = ((float)a16[j] * scale - 128.0f) -
                 ((float)b16[j] * scale - 128.0f);
}

static void blur_v_c(float *row, const float *const *in, const float *g,
                     int n, int w)
{
    for (int j = 0; j < w; j++)
        row[j] = 0.0f;
    for (int k = 0; k < n; k++) {
        const float *s = in[k];
        const float gk = g[k];
        for (int j = 0; j < w; j++)
            row[j] += gk * s[j];
    }
}

/*
 * Each of the 325 sums is a serial chain in pixel order, as in libvmaf;
 * the speed comes from running COV_TILE chains side by side, which
 * changes the order of no sum.
 */
static void cov_chunk_c(double acc[B2][B2], const double *cen,
                        ptrdiff_t stride, int len)
{
    for (int p = 0; p < B2; p++) {
        const double *cp = cen + p * stride;
        int q = 0;
        for (; q + COV_TILE <= p + 1; q += COV_TILE) {
            const double *cq = cen + q * stride;
            double a[COV_TILE];
            for (int t = 0; t < COV_TILE; t++)
                a[t] = acc[p][q + t];
            for (int n = 0; n < len; n++) {
                const double v = cp[n];
                a[0] += v * cq[n];
                a[1] += v * cq[n + stride];
                a[2] += v * cq[n + 2 * stride];
                a[3] += v * cq[n + 3 * stride];
                a[4] += v * cq[n + 4 * stride];
                a[5] += v * cq[n + 5 * stride];
                a[6] += v * cq[n + 6 * stride];
                a[7] += v * cq[n + 7 * stride];
            }
            for (int t = 0; t < COV_TILE; t++)
                acc[p][q + t] = a[t];
        }
        for (; q <= p; q++) {
            const double *cq = cen + q * stride;
            double a = acc[p][q];
            for (int n = 0; n < len; n++)
                a += cp[n] * cq[n];
            acc[p][q] = a;
        }
    }
}

av_cold void ff_vmaf_speed_dsp_init(FFVmafSpeedDSPContext *c)
{
    c->to_float_8       = to_float_8_c;
    c->to_float_16      = to_float_16_c;
    c->diff_to_float_8  = diff_to_float_8_c;
    c->diff_to_float_16 = diff_to_float_16_c;
    c->blur_v           = blur_v_c;
    c->cov_chunk        = cov_chunk_c;
#if ARCH_X86_64
    ff_vmaf_speed_dsp_init_x86(c);
#endif
}

/* Row y of the source as floats. */
static void get_row(const FFVmafSpeedDSPContext *dsp,
                    const FFVmafSpeedSource *src, int y, int w, float *dst)
{
    const uint8_t *a = src->a + y * src->a_stride;

    if (src->b) {
        const uint8_t *b = src->b + y * src->b_stride;
        (src->bpc == 8 ? dsp->diff_to_float_8 : dsp->diff_to_float_16)(dst, a, b, w, src->bpc);
    } else {
        (src->bpc == 8 ? dsp->to_float_8 : dsp->to_float_16)(dst, a, w, src->bpc);
    }
}

/* -------------------------------------------------------------------- */
/* Pre-processing                                                       */

/* Reflect-101: the edge sample is not repeated. */
static inline int r101(int t, int n)
{
    return t < 0 ? -t : t >= n ? 2 * n - 2 - t : t;
}

/* The prescaler's mirror: the same reflection, written on n - 1. */
static inline int mirror(int t, int n)
{
    return t < 0 ? -t : t > n - 1 ? 2 * (n - 1) - t : t;
}

/* Same as mirror() but also safe for far-out taps of tiny planes. */
static inline int mirror_clip(int t, int n)
{
    t = mirror(t, n);
    return t < 0 ? 0 : t > n - 1 ? n - 1 : t;
}

static void resample_nearest(float *dst, int ws, int hs,
                             const float *src, ptrdiff_t stride, int w, int h,
                             int *xi)
{
    float rx = (float)w / ws, ry = (float)h / hs;

    for (int x = 0; x < ws; x++)
        xi[x] = (int)((float)x * rx);
    for (int y = 0; y < hs; y++) {
        const float *s = src + (int)((float)y * ry) * stride;
        for (int x = 0; x < ws; x++)
            dst[y * ws + x] = s[xi[x]];
    }
}

/* Source position of an output sample: pixel centres aligned, in float. */
static inline float source_pos(int x, float ratio)
{
    return (float)((x + 0.5) * ratio - 0.5);
}

/* The two source samples around output sample x and the weight of the
 * second; the weight is taken from the mirrored first index. */
static inline void bilinear_taps(int x, float ratio, int n,
                                 int *x1, int *x2, float *dx)
{
    float xx = source_pos(x, ratio);

    *x1 = mirror((int)floorf(xx), n);
    *x2 = mirror((int)ceilf(xx), n);
    *dx = xx - *x1;
}

static void resample_bilinear(float *dst, int ws, int hs,
                              const float *src, ptrdiff_t stride, int w, int h,
                              int *xi, float *xw)
{
    float rx = (float)w / ws, ry = (float)h / hs;

    for (int x = 0; x < ws; x++)
        bilinear_taps(x, rx, w, &xi[2 * x], &xi[2 * x + 1], &xw[x]);
    for (int y = 0; y < hs; y++) {
        int y1, y2;
        float dy;
        const float *s1, *s2;

        bilinear_taps(y, ry, h, &y1, &y2, &dy);
        s1 = src + y1 * stride;
        s2 = src + y2 * stride;
        for (int x = 0; x < ws; x++) {
            const int x1 = xi[2 * x], x2 = xi[2 * x + 1];
            const float dx = xw[x];
            float w11 = (1.0f - dy) * (1.0f - dx), w12 = (1.0f - dy) * dx;
            float w21 = dy * (1.0f - dx),          w22 = dy * dx;

            dst[y * ws + x] = w11 * s1[x1] + w12 * s1[x2] +
                              w21 * s2[x1] + w22 * s2[x2];
        }
    }
}

/* Keys' cubic with a = -0.75. */
static double cubic_weight(double t)
{
    const double a = -0.75;
    t = fabs(t);
    if (t <= 1.0)
        return ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0;
    if (t < 2.0)
        return ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a;
    return 0.0;
}

/* Lanczos window with a = 4. */
static double lanczos_weight(double t)
{
    const double a = 4.0;
    if (t == 0.0)
        return 1.0;
    if (fabs(t) >= a)
        return 0.0;
    return a * sin(M_PI * t) * sin(M_PI * t / a) / (M_PI * M_PI * t * t);
}

/* Taps of output sample x: source indices (mirrored) and normalised
 * weights. */
static void kernel_taps(int x, float ratio, int n, int taps, int lanczos,
                        int *idx, float *wt)
{
    float xx = source_pos(x, ratio);
    int x0 = (int)floorf(xx) - (taps / 2 - 1);
    double w[RESAMPLE_MAX_TAPS], sum = 0.0;

    for (int j = 0; j < taps; j++) {
        double t = xx - (x0 + j);
        sum += w[j] = lanczos ? lanczos_weight(t) : cubic_weight(t);
        idx[j] = mirror_clip(x0 + j, n);
    }
    for (int j = 0; j < taps; j++)
        wt[j] = (float)(w[j] / sum);
}

/*
 * Bicubic and Lanczos-4 resampling. libvmaf accepts these methods but no
 * model uses them and they were never compared with it: this is the
 * textbook separable form on the bilinear sample grid, weights normalised
 * to sum to one.
 */
static void resample_kernel(float *dst, int ws, int hs,
                            const float *src, ptrdiff_t stride, int w, int h,
                            int lanczos, int *xi, float *xw)
{
    const int taps = lanczos ? 8 : 4;
    float rx = (float)w / ws, ry = (float)h / hs;

    for (int x = 0; x < ws; x++)
        kernel_taps(x, rx, w, taps, lanczos, xi + x * taps, xw + x * taps);
    for (int y = 0; y < hs; y++) {
        int yi[RESAMPLE_MAX_TAPS];
        float yw[RESAMPLE_MAX_TAPS];

        kernel_taps(y, ry, h, taps, lanczos, yi, yw);
        for (int x = 0; x < ws; x++) {
            const int *idx = xi + x * taps;
            const float *wx = xw + x * taps;
            float acc = 0.0f;

            for (int i = 0; i < taps; i++) {
                const float *s = src + yi[i] * stride;
                float racc = 0.0f;
                for (int j = 0; j < taps; j++)
                    racc += wx[j] * s[idx[j]];
                acc += yw[i] * racc;
            }
            dst[y * ws + x] = acc;
        }
    }
}

void ff_vmaf_speed_resample_taps(const FFVmafSpeedConfig *c, int vertical,
                                 int *idx, float *wt)
{
    const int n = vertical ? c->h : c->w, no = vertical ? c->hs : c->ws;
    const int lanczos = c->scale_method == FF_VMAF_SPEED_SCALE_LANCZOS4;
    const int T = FF_VMAF_SPEED_RESAMPLE_TAPS;
    /* The ratios and taps of the resamplers above, expression for expression. */
    float ratio = (float)n / no;

    for (int x = 0; x < no; x++) {
        int *ix = idx + x * T;
        float *wx = wt + x * T;

        for (int j = 0; j < T; j++) {
            ix[j] = 0;
            wx[j] = 0.0f;
        }
        switch (c->scale_method) {
        case FF_VMAF_SPEED_SCALE_BILINEAR:
            bilinear_taps(x, ratio, n, &ix[0], &ix[1], &wx[0]);
            break;
        case FF_VMAF_SPEED_SCALE_BICUBIC:
        case FF_VMAF_SPEED_SCALE_LANCZOS4:
            kernel_taps(x, ratio, n, lanczos ? 8 : 4, lanczos, ix, wx);
            break;
        default:
            ix[0] = (int)((float)x * ratio);
            break;
        }
    }
}

/*
 * Anti-alias blur then keep every 16th sample of every 16th row. The
 * separable blur computes each output sample independently, so only the
 * rows and columns kept are computed, with the very operations of the
 * full blur. The input is the resampled plane if there is one, else rows
 * of the source converted on demand into tmp->rows.
 */
static void blur_decimate(const FFVmafSpeedConfig *c,
                          const FFVmafSpeedDSPContext *dsp,
                          const FFVmafSpeedSource *src,
                          FFVmafSpeedScratch *tmp)
{
    const int n = c->n_blur, r = n >> 1, ws = c->ws, hs = c->hs;
    const float *g = c->g_blur;
    float *row = tmp->row, *d = tmp->d;

    for (int i = 0; i < c->ho; i++) {
        const float *in[FF_VMAF_SPEED_MAX_TAPS];

        for (int k = 0; k < n; k++) {
            const int y = r101(i * DEC - r + k, hs);
            if (c->resample) {
                in[k] = tmp->scaled + (size_t)y * ws;
            } else {
                float *dst = tmp->rows + (size_t)k * ws;
                get_row(dsp, src, y, ws, dst);
                in[k] = dst;
            }
        }
        dsp->blur_v(row, in, g, n, ws);
        for (int j = 0; j < c->wo; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += g[k] * row[r101(j * DEC - r + k, ws)];
            d[i * c->wo + j] = acc;
        }
    }
}

/* d -= its local mean (the small Gaussian, reflect-101 borders). */
static void remove_local_mean(const FFVmafSpeedConfig *c, float *d,
                              float *t, float *mu)
{
    const int n = c->n_mean, r = n >> 1, wo = c->wo, ho = c->ho;
    const float *g = c->g_mean;

    for (int i = 0; i < ho; i++) {
        float *ti = t + i * wo;
        for (int j = 0; j < wo; j++)
            ti[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            const float *s = d + r101(i - r + k, ho) * wo;
            const float gk = g[k];
            for (int j = 0; j < wo; j++)
                ti[j] += gk * s[j];
        }
    }
    for (int i = 0; i < ho; i++)
        for (int j = 0; j < wo; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += g[k] * t[i * wo + r101(j - r + k, wo)];
            mu[i * wo + j] = acc;
        }
    for (int i = 0; i < wo * ho; i++)
        d[i] = d[i] - mu[i];
}

/* -------------------------------------------------------------------- */
/* Eigenvalues of the symmetric 25x25 covariance (GSL's algorithm, float) */

static inline float hyp(float x, float y)
{
    return (float)sqrt((double)(x * x + y * y));
}

static inline float sgn(float x)
{
    return x >= 0.0f ? 1.0f : -1.0f;
}

/* Householder reduction of a to tridiagonal form: diagonal d, sub e. */
static void tridiagonalize(float a[B2][B2], float d[B2], float e[B2 - 1])
{
    const int n = B2;

    for (int i = 0; i < n - 2; i++) {
        const int s = i + 1;
        float sum = 0.0f, xnorm, tau = 0.0f;

        for (int r = s + 1; r < n; r++)
            sum += a[r][i] * a[r][i];
        xnorm = (float)sqrt((double)sum);
        if (xnorm != 0.0f) {
            float alpha = a[s][i];
            float beta  = -sgn(alpha) * hyp(alpha, xnorm);
            float t;

            tau = (beta - alpha) / beta;
            t   = alpha - beta;
            if (t != 0.0f) {
                for (int r = s; r < n; r++)
                    a[r][i] = a[r][i] / t;
                a[s][i] = beta;
            }
        }

        if (tau != 0.0f) {
            float v[B2], x[B2], xv = 0.0f, alpha2;

            for (int j = s; j < n; j++)
                v[j] = a[j][i];
            v[s] = 1.0f;
            for (int r = s; r < n; r++) {
                float acc = 0.0f;
                for (int j = s; j < n; j++)
                    acc += tau * a[r][j] * v[j];
                x[r] = acc;
            }
            for (int r = s; r < n; r++)
                xv += x[r] * v[r];
            alpha2 = (float)(-0.5 * tau * xv);
            for (int r = s; r < n; r++)
                x[r] = x[r] + alpha2 * v[r];
            for (int r = s; r < n; r++)
                for (int col = s; col < n; col++)
                    a[r][col] = a[r][col] - (x[r] * v[col] + v[r] * x[col]);
        }
    }
    for (int i = 0; i < n; i++)
        d[i] = a[i][i];
    for (int i = 0; i < n - 1; i++)
        e[i] = a[i + 1][i];
}

/* Zero the off-diagonal entries e[lo..hi-1] negligible next to d. */
static void chop_small(const float *d, float *e, int lo, int hi)
{
    for (int i = lo; i < hi; i++)
        if (fabsf(e[i]) < SINGULAR_EPS * (float)(fabsf(d[i]) + fabsf(d[i + 1])))
            e[i] = 0.0f;
}

static void givens(float a, float b, float *c, float *s)
{
    if (b == 0.0f) {
        *c = 1.0f;
        *s = 0.0f;
    } else if (fabsf(b) > fabsf(a)) {
        float t = -a / b;
        *s = (float)(1.0 / sqrt((double)(1.0f + t * t)));
        *c = *s * t;
    } else {
        float t = -b / a;
        *c = (float)(1.0 / sqrt((double)(1.0f + t * t)));
        *s = *c * t;
    }
}

/* The symmetric 2x2 rotation of (ap bp; bp aq). */
static inline void rotate(float c, float s, float ap, float bp, float aq,
                          float *ap1, float *bp1, float *aq1)
{
    float sap_cbp = s * ap + c * bp, sbp_caq = s * bp + c * aq;

    *ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    *bp1 = c * sap_cbp - s * sbp_caq;
    *aq1 = s * sap_cbp + c * sbp_caq;
}

/* Wilkinson shift from the trailing 2x2 block of d[0..m-1], e[0..m-2]. */
static float trailing_shift(const float *d, const float *e, int m)
{
    float ta = d[m - 2], tb = d[m - 1], tab = e[m - 2];
    float dt = (float)((ta - tb) / 2.0), mu;

    if (dt > 0.0f)
        mu = tb - tab * (tab / (dt + hyp(dt, tab)));
    else if (dt == 0.0f)
        mu = tb - fabsf(tab);
    else
        mu = tb + tab * (tab / (-dt + hyp(dt, tab)));
    if (SINGULAR_EPS * fabsf(mu) > (float)(fabsf(d[0]) + fabsf(e[0])))
        mu = 0.0f;
    return mu;
}

/* One implicit symmetric QR step on the unreduced block d[0..m-1]. */
static void qr_step(float *d, float *e, int m)
{
    float mu = trailing_shift(d, e, m);
    float x = d[0] - mu, z = e[0];
    float ap = d[0], bp = e[0], aq = d[1], bq, bk = 0.0f, zk = 0.0f, c, s;

    if (m == 2) {
        givens(x, z, &c, &s);
        rotate(c, s, ap, bp, aq, &d[0], &e[0], &d[1]);
        return;
    }
    bq = e[1];
    for (int k = 0; k < m - 1; k++) {
        float bk1, ap1, bp1, aq1, zp1, bq1;

        givens(x, z, &c, &s);
        bk1 = c * bk - s * zk;
        rotate(c, s, ap, bp, aq, &ap1, &bp1, &aq1);
        zp1 = -s * bq;
        bq1 = c * bq;

        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < m - 2)
            aq = d[k + 2];
        if (k < m - 3)
            bq = e[k + 2];
        d[k] = ap1;
        if (k > 0)
            e[k - 1] = bk1;
        if (k < m - 2)
            e[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[m - 1] = ap;
    e[m - 2] = bk;
}

/* Eigenvalues of the symmetric k, in the order the QR iteration leaves
 * them (unsorted: the entropy sum depends on that order). */
static void eigenvalues(const float k[B2][B2], float lambda[B2])
{
    float a[B2][B2], e[B2 - 1];
    int b = B2 - 1, steps = 0;

    memcpy(a, k, sizeof(a));
    tridiagonalize(a, lambda, e);
    chop_small(lambda, e, 0, B2 - 1);
    while (b > 0 && steps < MAX_QR_STEPS) {
        int top;
        if (e[b - 1] == 0.0f) {
            b--;
            continue;
        }
        top = b - 1;
        while (top > 0 && e[top - 1] != 0.0f)
            top--;
        qr_step(lambda + top, e + top, b - top + 1);
        chop_small(lambda, e, top, b);
        steps++;
    }
}

/* -------------------------------------------------------------------- */
/* Linear solve by explicit Householder QR (float, libvmaf's order)     */

/* p = a * b for 25x25 matrices, each sum in k order from 0. */
static void matmul(float p[B2][B2], const float a[B2][B2], const float b[B2][B2])
{
    for (int i = 0; i < B2; i++) {
        float acc[B2] = { 0 };
        for (int k = 0; k < B2; k++) {
            const float aik = a[i][k];
            for (int j = 0; j < B2; j++)
                acc[j] += aik * b[k][j];
        }
        memcpy(p[i], acc, sizeof(acc));
    }
}

/*
 * m = h * m for the reflector h of column col, only where it matters.
 * Rows and columns of h before col are those of the identity (with
 * signed zeros off the diagonal), so rows i < col of the product are
 * rows of m, and in rows i >= col the terms k < col are zeros. Leaving
 * out zero terms of a sum that starts at +0 changes no bit, so this is
 * the full product of libvmaf for columns j >= j0 (up to the sign of
 * zeros, which no later result depends on).
 */
static void apply_reflector(float m[B2][B2], const float h[B2][B2],
                            int col, int j0)
{
    float p[B2][B2];

    for (int i = col; i < B2; i++) {
        for (int j = j0; j < B2; j++)
            p[i][j] = 0.0f;
        for (int k = col; k < B2; k++) {
            const float hik = h[i][k];
            for (int j = j0; j < B2; j++)
                p[i][j] += hik * m[k][j];
        }
    }
    for (int i = col; i < B2; i++)
        memcpy(&m[i][j0], &p[i][j0], (B2 - j0) * sizeof(**m));
}

/*
 * Solve k * x = y (y: 25 x nb, row-major) with Q from Householder
 * reflections formed as full matrices, R = Q * k, back substitution.
 * qy is scratch of the size of y.
 *
 * @return 1 if a pivot of R is negligible (x is then unset), else 0
 */
static int qr_factor(const float k[B2][B2], float q[B2][B2], float r[B2][B2])
{
    float z[B2][B2], h[B2][B2], v[B2];

    memcpy(z, k, sizeof(z));
    memset(q, 0, sizeof(float) * B2 * B2);
    for (int i = 0; i < B2; i++)
        q[i][i] = 1.0f;

    for (int col = 0; col < B2 - 1; col++) {
        float sum = 0.0f, nv, nv2;

        for (int i = 0; i < B2; i++)
            for (int j = 0; j < B2; j++)
                if (i < col || j < col)
                    z[i][j] = i == j ? 1.0f : 0.0f;
        for (int i = 0; i < B2; i++) {
            v[i] = z[i][col];
            sum += v[i] * v[i];
        }
        nv = (float)sqrt((double)sum);
        /* The sign comes from the original matrix, not from z. */
        v[col] = v[col] + sgn(k[col][col]) * nv;
        sum = 0.0f;
        for (int i = 0; i < B2; i++)
            sum += v[i] * v[i];
        nv2 = (float)sqrt((double)sum);
        for (int i = 0; i < B2; i++)
            v[i] = v[i] / nv2;
        for (int i = 0; i < B2; i++) {
            float m2v = -2.0f * v[i];
            for (int j = 0; j < B2; j++)
                h[i][j] = m2v * v[j];
            h[i][i] = h[i][i] + 1.0f;
        }
        /* Columns of z before col are reset at the next step anyway. */
        apply_reflector(z, h, col, col);
        apply_reflector(q, h, col, 0);
    }
    matmul(r, q, k);
    for (int i = 0; i < B2; i++)
        if (fabsf(r[i][i]) < SINGULAR_EPS)
            return 1;
    return 0;
}

/*
 * k x = y for blocks [b0, b1) (one column of y and x each, nb apart), by
 * the factors of qr_factor(): each block's operations are the same
 * whichever range it is solved in.
 */
static void qr_apply(const float q[B2][B2], const float r[B2][B2], const float *y,
                     float *x, float *qy, int nb, int b0, int b1)
{
    for (int i = 0; i < B2; i++) {
        float *qyi = qy + i * nb;
        for (int b = b0; b < b1; b++)
            qyi[b] = 0.0f;
        for (int j = 0; j < B2; j++) {
            const float qij = q[i][j];
            const float *yj = y + j * nb;
            for (int b = b0; b < b1; b++)
                qyi[b] += qij * yj[b];
        }
    }

    for (int i = B2 - 1; i >= 0; i--) {
        float *xi = x + i * nb;
        const float rii = r[i][i];

        memcpy(xi + b0, qy + i * nb + b0, (b1 - b0) * sizeof(*xi));
        for (int j = i + 1; j < B2; j++) {
            const float rij = r[i][j];
            const float *xj = x + j * nb;
            for (int b = b0; b < b1; b++)
                xi[b] = xi[b] - xj[b] * rij;
        }
        for (int b = b0; b < b1; b++)
            xi[b] = xi[b] / rii;
    }
}

/* -------------------------------------------------------------------- */
/* Block model                                                          */

/*
 * 25x25 covariance of the 5x5 neighbourhoods of d: float means, then
 * double products summed in raster order and rounded to float once.
 *
 * Each of the 325 sums is a serial chain in pixel order, as in libvmaf,
 * taken a chunk of pixels at a time by dsp->cov_chunk(). cen holds the
 * centred values of one chunk, offset by offset.
 */
static void covariance(const FFVmafSpeedConfig *c,
                       const FFVmafSpeedDSPContext *dsp, const float *d,
                       double *cen, float k[B2][B2])
{
    const int wo = c->wo;
    const int sub_w = c->nbh * B - (B - 1), sub_h = c->nbv * B - (B - 1);
    const int npix = sub_w * sub_h;
    float sum[B2] = { 0 }, mean[B2];
    double acc[B2][B2] = { { 0 } };

    /* One running sum per offset, each in raster order. */
    for (int i = 0; i < sub_h; i++)
        for (int p = 0; p < B2; p++) {
            const float *row = d + (p / B + i) * wo + p % B;
            float acc_p = sum[p];
            for (int j = 0; j < sub_w; j++)
                acc_p += row[j];
            sum[p] = acc_p;
        }
    for (int p = 0; p < B2; p++)
        mean[p] = sum[p] / (float)npix;

    for (int n0 = 0; n0 < npix; n0 += COV_CHUNK) {
        const int len = FFMIN(COV_CHUNK, npix - n0);

        for (int p = 0; p < B2; p++) {
            const float *win = d + (p / B) * wo + p % B;
            double *cp = cen + p * COV_CHUNK;
            int i = n0 / sub_w, j = n0 % sub_w;
            for (int n = 0; n < len; n++) {
                cp[n] = (double)win[i * wo + j] - mean[p];
                if (++j == sub_w) {
                    j = 0;
                    i++;
                }
            }
        }

        dsp->cov_chunk(acc, cen, COV_CHUNK, len);
    }
    for (int p = 0; p < B2; p++)
        for (int q = 0; q <= p; q++)
            k[p][q] = k[q][p] = (float)(acc[p][q] / (double)npix);
}

void ff_vmaf_speed_block_factor(const float k[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                                FFVmafSpeedFactor *fac)
{
    eigenvalues(k, fac->lambda);
    fac->singular = 0;
    for (int i = 0; i < B2; i++)
        if (fac->lambda[i] < SINGULAR_EPS)
            fac->singular = 1;
    if (!fac->singular)
        fac->singular = qr_factor(k, fac->q, fac->r);
}

void ff_vmaf_speed_block_range(const FFVmafSpeedConfig *c, const FFVmafSpeedFactor *fac,
                               const float *d, ptrdiff_t stride, float *s, float *e,
                               FFVmafSpeedScratch *tmp, int b0, int b1)
{
    const double l2pie = log2_2pie();
    const int nb = c->nbh * c->nbv;

    if (fac->singular) {
        for (int b = b0; b < b1; b++)
            s[b] = 0.0f;
    } else {
        /* y: one row per position in the block, one column per block. */
        for (int p = 0; p < B2; p++)
            for (int b = b0; b < b1; b++) {
                const int bi = b / c->nbh, bj = b % c->nbh;
                tmp->y[p * nb + b] = d[(bi * B + p / B) * stride + bj * B + p % B];
            }
        qr_apply(fac->q, fac->r, tmp->y, tmp->x, tmp->qy, nb, b0, b1);

        /* Variance per block: the mean of x .* y over the block. */
        for (int b = b0; b < b1; b++)
            s[b] = tmp->x[b] * tmp->y[b] / 25.0f;
        for (int p = 1; p < B2; p++) {
            const float *xp = tmp->x + p * nb, *yp = tmp->y + p * nb;
            for (int b = b0; b < b1; b++)
                s[b] = s[b] + xp[b] * yp[b] / 25.0f;
        }
    }

    /* Entropy of the scaled Gaussian plus neural noise, per block. */
    for (int b = b0; b < b1; b++)
        e[b] = 0.0f;
    for (int i = 0; i < B2; i++) {
        const float l = fac->lambda[i] < 0.0f ? 0.0f : fac->lambda[i];
        for (int b = b0; b < b1; b++)
            e[b] = (float)((double)e[b] +
                           (log2((double)(l * s[b] + c->sigma_nn)) + l2pie));
    }
}

int ff_vmaf_speed_block_model(const FFVmafSpeedConfig *c,
                              const float k[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                              const float *d, ptrdiff_t stride,
                              float *s, float *e, FFVmafSpeedScratch *tmp)
{
    FFVmafSpeedFactor fac;
    ff_vmaf_speed_block_factor(k, &fac);
    ff_vmaf_speed_block_range(c, &fac, d, stride, s, e, tmp, 0, c->nbh * c->nbv);
    return fac.singular;
}

int ff_vmaf_speed_plane_stats(const FFVmafSpeedConfig *c,
                              const FFVmafSpeedDSPContext *dsp,
                              const FFVmafSpeedSource *src,
                              float *s, float *e, FFVmafSpeedScratch *tmp)
{
    float k[B2][B2];

    if (c->resample) {
        const float *x = tmp->plane;
        const int w = c->w, h = c->h;

        for (int y = 0; y < h; y++)
            get_row(dsp, src, y, w, tmp->plane + (size_t)y * w);
        switch (c->scale_method) {
        case FF_VMAF_SPEED_SCALE_BILINEAR:
            resample_bilinear(tmp->scaled, c->ws, c->hs, x, w, w, h,
                              tmp->xi, tmp->xw);
            break;
        case FF_VMAF_SPEED_SCALE_BICUBIC:
        case FF_VMAF_SPEED_SCALE_LANCZOS4:
            resample_kernel(tmp->scaled, c->ws, c->hs, x, w, w, h,
                            c->scale_method == FF_VMAF_SPEED_SCALE_LANCZOS4,
                            tmp->xi, tmp->xw);
            break;
        default:
            resample_nearest(tmp->scaled, c->ws, c->hs, x, w, w, h, tmp->xi);
            break;
        }
    }
    blur_decimate(c, dsp, src, tmp);
    remove_local_mean(c, tmp->d, tmp->t, tmp->mu);

    covariance(c, dsp, tmp->d, tmp->cen, k);
    return ff_vmaf_speed_block_model(c, (const float (*)[B2])k, tmp->d, c->wo,
                                     s, e, tmp);
}

/* -------------------------------------------------------------------- */
/* Score                                                                */

float ff_vmaf_speed_score(const FFVmafSpeedConfig *c,
                          const float *s_ref, const float *e_ref,
                          const float *s_dis, const float *e_dis)
{
    const int nb = c->nbh * c->nbv;
    float score = 0.0f;

    for (int b = 0; b < nb; b++) {
        float sr = s_ref[b], sd = s_dis[b], a, cc;
        double la, lc;

        /* Blocks flat in both pictures carry no information. */
        if (e_ref[b] < c->base && e_dis[b] < c->base)
            continue;
        switch (c->wvm) {
        case 1:  la = lc = log2((double)(1.0f + sr));                     break;
        case 2:  la = lc = log2((double)(1.0f + sd));                     break;
        case 3:  la = lc = log2(1.0 + (sr + sd) / 2.0);                   break;
        case 4:  la = log2((double)(1.0f + sr));
                 lc = log2(1.0 + (sr + sd) / 2.0);                        break;
        case 5:  la = log2((double)(1.0f + sr));
                 lc = log2(1.0 + (0.75 * sr + 0.25 * sd));                break;
        case 6:  la = log2((double)(1.0f + sr));
                 lc = log2(1.0 + (0.25 * sr + 0.75 * sd));                break;
        default: la = log2((double)(1.0f + sr));
                 lc = log2((double)(1.0f + sd));                          break;
        }
        a  = (float)(e_ref[b] * la);
        cc = (float)(e_dis[b] * lc);
        score = score + fabsf(a - cc);
    }
    return score / (float)nb;
}
