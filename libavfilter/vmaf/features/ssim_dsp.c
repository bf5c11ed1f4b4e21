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
 * SSIM / MS-SSIM kernels (libvmaf 3.2.0 float_ssim, float_ms_ssim).
 *
 * Every filter output is a double sum of float products, taken in kernel
 * order and stored as float; the file must be built without fp-contract
 * so that no product is fused into its sum.
 */

#include <math.h>
#include <string.h>

#include "config.h"

#include "libavutil/attributes.h"

#include "ssim_dsp.h"

const float ff_vmaf_ssim_window[FF_VMAF_SSIM_WINDOW] = {
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

/* The 9/7 biorthogonal low-pass as libvmaf tabulates it: the rounded 2-D
 * table, which is not the outer product of the 1-D taps. */
#define LP_ROW0  0.000714f, -0.000450f, -0.002090f,  0.007132f,  0.016114f, \
                 0.007132f, -0.002090f, -0.000450f,  0.000714f
#define LP_ROW1 -0.000450f,  0.000283f,  0.001316f, -0.004490f, -0.010146f, \
                -0.004490f,  0.001316f,  0.000283f, -0.000450f
#define LP_ROW2 -0.002090f,  0.001316f,  0.006115f, -0.020867f, -0.047149f, \
                -0.020867f,  0.006115f,  0.001316f, -0.002090f
#define LP_ROW3  0.007132f, -0.004490f, -0.020867f,  0.071207f,  0.160885f, \
                 0.071207f, -0.020867f, -0.004490f,  0.007132f
#define LP_ROW4  0.016114f, -0.010146f, -0.047149f,  0.160885f,  0.363505f, \
                 0.160885f, -0.047149f, -0.010146f,  0.016114f

const float ff_vmaf_ms_ssim_lowpass[FF_VMAF_MS_SSIM_LOWPASS][FF_VMAF_MS_SSIM_LOWPASS] = {
    { LP_ROW0 }, { LP_ROW1 }, { LP_ROW2 }, { LP_ROW3 }, { LP_ROW4 },
    { LP_ROW3 }, { LP_ROW2 }, { LP_ROW1 }, { LP_ROW0 },
};

/* Symmetric mirror (the edge sample is repeated), for any distance. */
static int mirror_sym(int i, int n)
{
    while (i < 0 || i >= n)
        i = i < 0 ? -1 - i : 2 * n - 1 - i;
    return i;
}

void ff_vmaf_ssim_load(float *dst, ptrdiff_t dst_stride,
                       const uint8_t *src, ptrdiff_t src_stride,
                       int w, int h, int bpc)
{
    if (bpc == 8) {
        for (int y = 0; y < h; y++) {
            const uint8_t *s = src + y * src_stride;
            float *d = dst + y * dst_stride;
            for (int x = 0; x < w; x++)
                d[x] = s[x];
        }
    } else {
        /* A power of two: the quotient is exact. */
        const float div = (float)(1 << (bpc - 8));
        for (int y = 0; y < h; y++) {
            const uint16_t *s = (const uint16_t *)(src + y * src_stride);
            float *d = dst + y * dst_stride;
            for (int x = 0; x < w; x++)
                d[x] = s[x] / div;
        }
    }
}

/* Largest box factor (the scale option accepts up to 10). */
#define MAX_BOX 16

static inline float box_at(const float *const rows[MAX_BOX], const int *cols,
                           int taps, float weight)
{
    double acc = 0.0;
    for (int ky = 0; ky < taps; ky++)
        for (int kx = 0; kx < taps; kx++)
            acc += weight * rows[ky][cols[kx]];
    return (float)acc;
}

void ff_vmaf_ssim_box_decimate(float *dst, ptrdiff_t dst_stride,
                               const float *src, ptrdiff_t src_stride,
                               int w, int h, int factor)
{
    const int ow = ff_vmaf_ssim_decimated_size(w, factor);
    const int oh = ff_vmaf_ssim_decimated_size(h, factor);
    const int lo = -(factor / 2), taps = factor;
    const float weight = 1.0f / (factor * factor);
    /* Outputs [x0, x1) read no column outside the plane. */
    const int x0 = (-lo + factor - 1) / factor;
    int x1 = w - taps - lo < 0 ? 0 : (w - taps - lo) / factor + 1;
    int cols[MAX_BOX];

    if (factor < 1 || factor > MAX_BOX)
        return;
    /* A plane narrower than the factor (ow 0) has no output: x1 must not
     * pass ow, or the loop below would write one from outside the row. */
    if (x1 < x0)
        x1 = x0;
    if (x1 > ow)
        x1 = ow;

    for (int oy = 0; oy < oh; oy++) {
        const float *rows[MAX_BOX];
        float *d = dst + oy * dst_stride;
        int ox;

        for (int k = 0; k < taps; k++)
            rows[k] = src + mirror_sym(oy * factor + lo + k, h) * src_stride;

        for (ox = 0; ox < x0 && ox < ow; ox++) {
            for (int k = 0; k < taps; k++)
                cols[k] = mirror_sym(ox * factor + lo + k, w);
            d[ox] = box_at(rows, cols, taps, weight);
        }
        for (int k = 0; k < taps; k++)
            cols[k] = x0 * factor + lo + k;
        for (; ox < x1; ox++) {
            d[ox] = box_at(rows, cols, taps, weight);
            for (int k = 0; k < taps; k++)
                cols[k] += factor;
        }
        for (; ox < ow; ox++) {
            for (int k = 0; k < taps; k++)
                cols[k] = mirror_sym(ox * factor + lo + k, w);
            d[ox] = box_at(rows, cols, taps, weight);
        }
    }
}

static inline float lowpass_at(const float *const rows[FF_VMAF_MS_SSIM_LOWPASS],
                               const int cols[FF_VMAF_MS_SSIM_LOWPASS])
{
    double acc = 0.0;
    for (int ky = 0; ky < FF_VMAF_MS_SSIM_LOWPASS; ky++) {
        const float *k = ff_vmaf_ms_ssim_lowpass[ky], *r = rows[ky];
        for (int kx = 0; kx < FF_VMAF_MS_SSIM_LOWPASS; kx++)
            acc += k[kx] * r[cols[kx]];
    }
    return (float)acc;
}

/*
 * Outputs x0 .. x0 + 3 away from the left and right borders. Each keeps
 * its own sum in kernel order; four independent sums only let the CPU
 * overlap their additions.
 */
static inline void lowpass_x4(float *dst, const float *const rows[FF_VMAF_MS_SSIM_LOWPASS],
                              int c0)
{
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    for (int ky = 0; ky < FF_VMAF_MS_SSIM_LOWPASS; ky++) {
        const float *k = ff_vmaf_ms_ssim_lowpass[ky], *r = rows[ky] + c0;
        for (int kx = 0; kx < FF_VMAF_MS_SSIM_LOWPASS; kx++) {
            a0 += k[kx] * r[kx];
            a1 += k[kx] * r[kx + 2];
            a2 += k[kx] * r[kx + 4];
            a3 += k[kx] * r[kx + 6];
        }
    }
    dst[0] = (float)a0;
    dst[1] = (float)a1;
    dst[2] = (float)a2;
    dst[3] = (float)a3;
}

void ff_vmaf_ms_ssim_decimate(float *dst, ptrdiff_t dst_stride,
                              const float *src, ptrdiff_t src_stride,
                              int w, int h)
{
    const int half = FF_VMAF_MS_SSIM_LOWPASS / 2;
    const int ow = ff_vmaf_ssim_decimated_size(w, 2);
    const int oh = ff_vmaf_ssim_decimated_size(h, 2);
    /* Outputs [x0, x1) read no column outside the plane. */
    const int x0 = (half + 1) / 2;
    int x1 = w - 1 - half < 0 ? 0 : (w - 1 - half) / 2 + 1;
    int cols[FF_VMAF_MS_SSIM_LOWPASS];

    if (x1 > ow)
        x1 = ow;
    if (x1 < x0)
        x1 = x0;

    for (int oy = 0; oy < oh; oy++) {
        const float *rows[FF_VMAF_MS_SSIM_LOWPASS];
        float *d = dst + oy * dst_stride;
        int ox;

        for (int k = 0; k < FF_VMAF_MS_SSIM_LOWPASS; k++)
            rows[k] = src + mirror_sym(2 * oy - half + k, h) * src_stride;

        for (ox = 0; ox < x0 && ox < ow; ox++) {
            for (int k = 0; k < FF_VMAF_MS_SSIM_LOWPASS; k++)
                cols[k] = mirror_sym(2 * ox - half + k, w);
            d[ox] = lowpass_at(rows, cols);
        }
        for (; ox + 4 <= x1; ox += 4)
            lowpass_x4(d + ox, rows, 2 * ox - half);
        for (; ox < ow; ox++) {
            for (int k = 0; k < FF_VMAF_MS_SSIM_LOWPASS; k++)
                cols[k] = mirror_sym(2 * ox - half + k, w);
            d[ox] = lowpass_at(rows, cols);
        }
    }
}

enum { MU1, MU2, XX, YY, XY, NB_MAPS };

/*
 * One row of the horizontal Gaussian pass ("valid": ow = w - 10 outputs)
 * of the five maps at once: their five sums are independent, so the CPU
 * overlaps them.
 */
void ff_vmaf_ssim_window_h_c(float *dst, ptrdiff_t map_stride,
                             const float *a, const float *b, int w, float *tmp)
{
    const float *g = ff_vmaf_ssim_window;
    const int ow = w - FF_VMAF_SSIM_WINDOW + 1;
    float *xx = tmp, *yy = xx + w, *xy = yy + w;
    const float *const src[NB_MAPS] = { a, b, xx, yy, xy };

    for (int x = 0; x < w; x++) {
        xx[x] = a[x] * a[x];
        yy[x] = b[x] * b[x];
        xy[x] = a[x] * b[x];
    }
    for (int x = 0; x < ow; x++) {
        double acc[NB_MAPS] = { 0.0 };
        for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++)
            for (int m = 0; m < NB_MAPS; m++)
                acc[m] += g[k] * src[m][x + k];
        for (int m = 0; m < NB_MAPS; m++)
            dst[m * map_stride + x] = (float)acc[m];
    }
}

/* libvmaf derives the constants in float: (K L)^2 with L = 255. */
#define SSIM_C1 ((0.01f * 255) * (0.01f * 255))
#define SSIM_C2 ((0.03f * 255) * (0.03f * 255))

void ff_vmaf_ssim_window_v_c(FFVmafSsimSums *sums,
                             const float *const rows[FF_VMAF_SSIM_WINDOW],
                             ptrdiff_t map_stride, int ow)
{
    const float c1 = SSIM_C1, c2 = SSIM_C2, c3 = c2 / 2.0f;
    const float *g = ff_vmaf_ssim_window;
    double sum_l = sums->l, sum_c = sums->c, sum_s = sums->s, sum_ssim = sums->ssim;

    for (int x = 0; x < ow; x++) {
        double acc[NB_MAPS] = { 0.0 };
        float mu1, mu2, s11, s22, s12, s1s2, s12p, s;
        double l, c, lc;

        for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++)
            for (int m = 0; m < NB_MAPS; m++)
                acc[m] += g[k] * rows[k][m * map_stride + x];
        mu1 = (float)acc[MU1];
        mu2 = (float)acc[MU2];

        s11 = (float)acc[XX] - mu1 * mu1;
        s22 = (float)acc[YY] - mu2 * mu2;
        s11 = s11 < 0.0f ? 0.0f : s11;
        s22 = s22 < 0.0f ? 0.0f : s22;
        s12 = (float)acc[XY] - mu1 * mu2;
        s1s2 = (float)sqrt(s11 * s22);

        /* l and c: double numerators over float denominators. */
        l = (2.0 * mu1 * mu2 + c1) / (double)(mu1 * mu1 + mu2 * mu2 + c1);
        c = (2.0 * s1s2 + c2) / (double)(s11 + s22 + c2);
        /* A flat patch (sigma1 sigma2 == 0) with a negative covariance
         * would give a negative structure term: libvmaf zeroes it. */
        s12p = s12 < 0.0f && s1s2 <= 0.0f ? 0.0f : s12;
        s = (s12p + c3) / (s1s2 + c3);

        lc = l * c;
        sum_l    += l;
        sum_c    += c;
        sum_s    += s;
        sum_ssim += lc * s;
    }
    sums->l    = sum_l;
    sums->c    = sum_c;
    sums->s    = sum_s;
    sums->ssim = sum_ssim;
}

void ff_vmaf_ssim_sums_dsp(const FFVmafSsimDSPContext *c, FFVmafSsimSums *sums,
                           const float *ref, ptrdiff_t ref_stride,
                           const float *dis, ptrdiff_t dis_stride,
                           int w, int h, float *tmp)
{
    const int ow = w - FF_VMAF_SSIM_WINDOW + 1;
    const ptrdiff_t map_stride = ff_vmaf_ssim_map_stride(w);
    const size_t slot_size = (size_t)NB_MAPS * map_stride;
    /* Horizontal results of the last 11 rows, each slot holding the five
     * maps, so that the vertical pass runs as soon as a row is filtered. */
    float *ring = tmp;
    float *row_tmp = ring + FF_VMAF_SSIM_WINDOW * slot_size;

    sums->l = sums->c = sums->s = sums->ssim = 0.0;
    /* The lanes past ow, which SIMD kernels may read, hold finite values
     * whichever kernels run. */
    for (int i = 0; i < FF_VMAF_SSIM_WINDOW * NB_MAPS; i++)
        memset(ring + i * map_stride + ow, 0, (map_stride - ow) * sizeof(*ring));

    for (int y = 0; y < h; y++) {
        const float *taps[FF_VMAF_SSIM_WINDOW];

        c->window_h(ring + (y % FF_VMAF_SSIM_WINDOW) * slot_size, map_stride,
                    ref + y * ref_stride, dis + y * dis_stride, w, row_tmp);
        if (y < FF_VMAF_SSIM_WINDOW - 1)
            continue;
        for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++)
            taps[k] = ring + ((y + 1 + k) % FF_VMAF_SSIM_WINDOW) * slot_size;
        c->window_v(sums, taps, map_stride, ow);
    }
}

static const FFVmafSsimDSPContext ssim_dsp_c = {
    .load             = ff_vmaf_ssim_load,
    .box_decimate     = ff_vmaf_ssim_box_decimate,
    .ms_ssim_decimate = ff_vmaf_ms_ssim_decimate,
    .window_h         = ff_vmaf_ssim_window_h_c,
    .window_v         = ff_vmaf_ssim_window_v_c,
};

void ff_vmaf_ssim_sums(FFVmafSsimSums *sums,
                       const float *ref, ptrdiff_t ref_stride,
                       const float *dis, ptrdiff_t dis_stride,
                       int w, int h, float *tmp)
{
    ff_vmaf_ssim_sums_dsp(&ssim_dsp_c, sums, ref, ref_stride, dis, dis_stride,
                          w, h, tmp);
}

av_cold void ff_vmaf_ssim_dsp_init(FFVmafSsimDSPContext *c, int bpc)
{
    *c = ssim_dsp_c;
#if ARCH_X86_64
    ff_vmaf_ssim_dsp_init_x86(c, bpc);
#endif
}

double ff_vmaf_ssim_max_db(int clip, int w, int h, int bpc)
{
    double peak = (double)((1 << bpc) - 1);

    if (!clip)
        return INFINITY;
    return ceil(10.0 * log10(peak * peak / (0.5 / ((double)w * h))));
}

double ff_vmaf_ssim_to_db(double v, double max_db)
{
    double db = -10.0 * log10(1.0 - v);
    return db < max_db ? db : max_db;
}
