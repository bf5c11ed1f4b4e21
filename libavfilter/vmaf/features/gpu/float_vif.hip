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

/*
 * Float VIF (float_vif.c with float_dsp.c as its C reference), one thread
 * per output sample:
 *
 *  - vdec / hdec (scales 1..3): the vertical then the horizontal pass of
 *    the new scale's Gaussian, keeping every other row and column;
 *  - vstats: the five vertical sums of a scale's statistics;
 *  - hstats: their horizontal pass and the per-pixel information terms;
 *  - rowsum: one thread per row of every scale adds the terms of its row
 *    in column order, in float, as the C code does; the host adds the
 *    rows in row order.
 *
 * Each sum starts at 0.0f and adds its products one by one in tap order,
 * every product rounded to float (the kernels are built without
 * contraction), so each output has the C code's bits. Borders mirror
 * reflect-101, once: the extractor's minimum size guarantees it.
 */

#include "../../gpu/gpu_compat.h"

#define FVIF_BLOCK_X 32
#define FVIF_BLOCK_Y 8
#define FVIF_SCALES  4

/* Samples of scale 0 are the luma in 8-bit units less 128. */
__device__ static inline float fvif_sample(const uint8_t *p, float scale)
{
    return (float)*p + -128.0f;
}

__device__ static inline float fvif_sample(const uint16_t *p, float scale)
{
    return (float)*p / scale + -128.0f;
}

__device__ static inline float fvif_sample(const float *p, float scale)
{
    return *p;
}

template <typename T>
__device__ static inline const T *fvif_row(const void *base, size_t pitch, int y)
{
    return (const T *)((const uint8_t *)base + (size_t)y * pitch);
}

__device__ static inline int fvif_r101(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

/*
 * Vertical statistics at (x, y) of a w x h scale: the Gaussian of ref,
 * dis, ref², dis² and ref·dis, the products rounded to float first.
 */
template <typename T>
__device__ static inline void fvif_vstats(float *mu1, float *mu2, float *xx,
                                          float *yy, float *xy,
                                          const void *ref, const void *dis, size_t pitch,
                                          int w, int h, int bpc, const float *g, int n)
{
    const int x = blockIdx.x * FVIF_BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * FVIF_BLOCK_Y + threadIdx.y;
    const float scale = (float)(1 << (bpc - 8));
    float s_mu1 = 0.0f, s_mu2 = 0.0f, s_xx = 0.0f, s_yy = 0.0f, s_xy = 0.0f;
    size_t o;

    if (x >= w || y >= h)
        return;
    for (int k = 0; k < n; k++) {
        const int r = fvif_r101(y - n / 2 + k, h);
        const float c = g[k];
        const float a = fvif_sample(fvif_row<T>(ref, pitch, r) + x, scale);
        const float b = fvif_sample(fvif_row<T>(dis, pitch, r) + x, scale);
        const float aa = a * a, bb = b * b, ab = a * b;
        s_mu1 += c * a;
        s_mu2 += c * b;
        s_xx  += c * aa;
        s_yy  += c * bb;
        s_xy  += c * ab;
    }
    o = (size_t)y * w + x;
    mu1[o] = s_mu1;
    mu2[o] = s_mu2;
    xx[o]  = s_xx;
    yy[o]  = s_yy;
    xy[o]  = s_xy;
}

GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_vstats_8(float *mu1, float *mu2, float *xx, float *yy, float *xy,
                   const uint8_t *ref, const uint8_t *dis, size_t pitch,
                   int w, int h, int bpc, const float *g, int n)
{
    fvif_vstats<uint8_t>(mu1, mu2, xx, yy, xy, ref, dis, pitch, w, h, bpc, g, n);
}

GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_vstats_16(float *mu1, float *mu2, float *xx, float *yy, float *xy,
                    const uint16_t *ref, const uint16_t *dis, size_t pitch,
                    int w, int h, int bpc, const float *g, int n)
{
    fvif_vstats<uint16_t>(mu1, mu2, xx, yy, xy, ref, dis, pitch, w, h, bpc, g, n);
}

GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_vstats_f(float *mu1, float *mu2, float *xx, float *yy, float *xy,
                   const float *ref, const float *dis, size_t pitch,
                   int w, int h, int bpc, const float *g, int n)
{
    fvif_vstats<float>(mu1, mu2, xx, yy, xy, ref, dis, pitch, w, h, bpc, g, n);
}

/* The horizontal pass of one row at column x, reflect-101 over w. */
__device__ static inline float fvif_hsum(const float *row, int x, int w,
                                         const float *g, int n)
{
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += g[k] * row[fvif_r101(x + k - n / 2, w)];
    return acc;
}

/* libvmaf's fast log2: the exponent plus a degree-8 polynomial in float. */
__device__ static inline float fvif_log2(float x)
{
    const float poly[9] = {
        -0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
         0.257167726303123f, -0.353800560300520f, 0.480131410397451f,
        -0.721314327952201f, 1.442694803896991f, 0.0f,
    };
    uint32_t u = __float_as_uint(x);
    const int e = (u >> 23) & 0xff;
    float t, p = 0.0f;

    if (x == 0.0f)
        return -__int_as_float(0x7f800000);
    u = (u & 0x7fffff) | (127u << 23);
    t = __uint_as_float(u) - 1.0f;
    for (int i = 0; i < 9; i++)
        p = p * t + poly[i];
    return (float)(e - 127) + p;
}

#define FVIF_MAX(a, b) ((a) > (b) ? (a) : (b))
#define FVIF_MIN(a, b) ((a) > (b) ? (b) : (a))

/*
 * The horizontal pass of the five statistics at (x, y) and the pixel's
 * information terms (ff_vmaf_float_vif_terms()) into num and den.
 */
GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_hstats(float *num, float *den,
                 const float *mu1v, const float *mu2v, const float *xxv,
                 const float *yyv, const float *xyv, int w, int h,
                 const float *g, int n, double sigma_nsq, float egl, float smi)
{
    const int x = blockIdx.x * FVIF_BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * FVIF_BLOCK_Y + threadIdx.y;
    const float eps = 1e-10f;
    float mu1, mu2, xx, yy, xy;
    float sigma1_sq, sigma2_sq, sigma12, gain, sv_sq, num_px, den_px;
    size_t r;

    if (x >= w || y >= h)
        return;
    r   = (size_t)y * w;
    mu1 = fvif_hsum(mu1v + r, x, w, g, n);
    mu2 = fvif_hsum(mu2v + r, x, w, g, n);
    xx  = fvif_hsum(xxv + r, x, w, g, n);
    yy  = fvif_hsum(yyv + r, x, w, g, n);
    xy  = fvif_hsum(xyv + r, x, w, g, n);

    sigma1_sq = xx - mu1 * mu1;
    sigma2_sq = yy - mu2 * mu2;
    sigma12   = xy - mu1 * mu2;
    sigma1_sq = FVIF_MAX(sigma1_sq, 0.0f);
    sigma2_sq = FVIF_MAX(sigma2_sq, 0.0f);
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
    sv_sq = FVIF_MAX(sv_sq, eps);
    gain  = FVIF_MIN(gain, egl);

    num_px = fvif_log2((float)(1.0 + (double)(gain * gain * sigma1_sq) /
                                     ((double)sv_sq + sigma_nsq)));
    den_px = fvif_log2((float)(1.0 + (double)sigma1_sq / sigma_nsq));
    if (sigma12 < 0.0f)
        num_px = 0.0f;
    if ((double)sigma1_sq < sigma_nsq) {
        num_px = 1.0f - sigma2_sq * smi;
        den_px = 1.0f;
    }
    num[r + x] = num_px;
    den[r + x] = den_px;
}

/*
 * Vertical pass of the decimating Gaussian: output row o of both
 * pictures, every column, from source rows around 2o.
 */
template <typename T>
__device__ static inline void fvif_vdec(float *dref, float *ddis,
                                        const void *ref, const void *dis, size_t pitch,
                                        int w, int h, int bpc, const float *g, int n)
{
    const int x = blockIdx.x * FVIF_BLOCK_X + threadIdx.x;
    const int o = blockIdx.y * FVIF_BLOCK_Y + threadIdx.y;
    const float scale = (float)(1 << (bpc - 8));
    float sr = 0.0f, sd = 0.0f;

    if (x >= w || o >= h / 2)
        return;
    for (int k = 0; k < n; k++) {
        const int r = fvif_r101(2 * o - n / 2 + k, h);
        const float c = g[k];
        sr += c * fvif_sample(fvif_row<T>(ref, pitch, r) + x, scale);
        sd += c * fvif_sample(fvif_row<T>(dis, pitch, r) + x, scale);
    }
    dref[(size_t)o * w + x] = sr;
    ddis[(size_t)o * w + x] = sd;
}

GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_vdec_8(float *dref, float *ddis, const uint8_t *ref, const uint8_t *dis,
                 size_t pitch, int w, int h, int bpc, const float *g, int n)
{
    fvif_vdec<uint8_t>(dref, ddis, ref, dis, pitch, w, h, bpc, g, n);
}

GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_vdec_16(float *dref, float *ddis, const uint16_t *ref, const uint16_t *dis,
                  size_t pitch, int w, int h, int bpc, const float *g, int n)
{
    fvif_vdec<uint16_t>(dref, ddis, ref, dis, pitch, w, h, bpc, g, n);
}

GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_vdec_f(float *dref, float *ddis, const float *ref, const float *dis,
                 size_t pitch, int w, int h, int bpc, const float *g, int n)
{
    fvif_vdec<float>(dref, ddis, ref, dis, pitch, w, h, bpc, g, n);
}

/*
 * Horizontal pass of the decimating Gaussian: from the h / 2 rows of
 * vertical sums, w wide, the next scale's w / 2 x h / 2 samples of both
 * pictures, output column oc reading around 2 oc.
 */
GPU_KERNEL void __launch_bounds__(FVIF_BLOCK_X * FVIF_BLOCK_Y)
vmaf_fvif_hdec(float *dref, float *ddis, const float *vref, const float *vdis,
               int w, int h, const float *g, int n)
{
    const int oc = blockIdx.x * FVIF_BLOCK_X + threadIdx.x;
    const int o  = blockIdx.y * FVIF_BLOCK_Y + threadIdx.y;
    const int dw = w / 2;

    if (oc >= dw || o >= h / 2)
        return;
    dref[(size_t)o * dw + oc] = fvif_hsum(vref + (size_t)o * w, 2 * oc, w, g, n);
    ddis[(size_t)o * dw + oc] = fvif_hsum(vdis + (size_t)o * w, 2 * oc, w, g, n);
}

/*
 * One thread per row of the scales from `first` on: the float sums of the
 * row's num and den in column order, into part[2 r] and part[2 r + 1],
 * rows numbered through the scales in order. Scale k's terms lie at
 * terms + 2 * (sum of the earlier scales' w·h), num then den.
 */
GPU_KERNEL void __launch_bounds__(64)
vmaf_fvif_rowsum(float *part, const float *terms, int w0, int h0, int first)
{
    const int row = blockIdx.x * 64 + threadIdx.x;
    const float *num;
    size_t off = 0;
    float sn = 0.0f, sd = 0.0f;
    int w = w0, h = h0, r = row, k;

    for (k = 0; k < first; k++) {
        off += 2 * (size_t)w * h;
        w /= 2;
        h /= 2;
    }
    for (; k < FVIF_SCALES && r >= h; k++) {
        r   -= h;
        off += 2 * (size_t)w * h;
        w /= 2;
        h /= 2;
    }
    if (k == FVIF_SCALES)
        return;
    num = terms + off + (size_t)r * w;
    for (int j = 0; j < w; j++) {
        sn += num[j];
        sd += num[(size_t)w * h + j];
    }
    part[2 * row]     = sn;
    part[2 * row + 1] = sd;
}
