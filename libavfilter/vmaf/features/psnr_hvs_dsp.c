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

#include <math.h>
#include <stdlib.h>

#include "config.h"

#include "libavutil/attributes.h"
#include "libavutil/macros.h"

#include "psnr_hvs_dsp.h"

/* Halve, rounding toward zero (the lifting steps rely on it). */
static inline int32_t half(int32_t a)
{
    return (a + (a < 0)) >> 1;
}

/* Fixed-point multiply by c / 2^k, rounded half up. */
static inline int32_t mul_shift(int32_t a, int32_t c, int k)
{
    return (a * c + (1 << (k - 1))) >> k;
}

void ff_vmaf_psnr_hvs_fdct8(int32_t *y, ptrdiff_t ystride,
                            const int32_t *x, ptrdiff_t xstride)
{
    int32_t t0 = x[0 * xstride], t4 = x[1 * xstride];
    int32_t t2 = x[2 * xstride], t6 = x[3 * xstride];
    int32_t t7 = x[4 * xstride], t3 = x[5 * xstride];
    int32_t t5 = x[6 * xstride], t1 = x[7 * xstride];
    int32_t t1h, t4h, t6h;

    /* Butterflies; each lifting step is invertible in integers, and the
     * step order below is what makes the output match libvmaf's. */
    t1  = t0 - t1;
    t1h = half(t1);
    t0 -= t1h;
    t4 += t5;
    t4h = half(t4);
    t5 -= t4h;
    t3  = t2 - t3;
    t2 -= half(t3);
    t6 += t7;
    t6h = half(t6);
    t7  = t6h - t7;

    /* Even part: a 4-point DCT on t0, t2, t4, t6. */
    t0 += t6h;
    t6  = t0 - t6;
    t2  = t4h - t2;
    t4  = t2 - t4;
    t0 -= mul_shift(t4, 13573, 15);
    t4 += mul_shift(t0, 11585, 14);
    t0 -= mul_shift(t4, 13573, 15);
    t6 -= mul_shift(t2, 21895, 15);
    t2 += mul_shift(t6, 15137, 14);
    t6 -= mul_shift(t2, 21895, 15);

    /* Odd part. */
    t3 += mul_shift(t5, 19195, 15);
    t5 += mul_shift(t3, 11585, 14);
    t3 -= mul_shift(t5,  7489, 13);
    t7  = half(t5) - t7;
    t5 -= t7;
    t3  = t1h - t3;
    t1 -= t3;
    t7 += mul_shift(t1,  3227, 15);
    t1 -= mul_shift(t7,  6393, 15);
    t7 += mul_shift(t1,  3227, 15);
    t5 += mul_shift(t3,  2485, 13);
    t3 -= mul_shift(t5, 18205, 15);
    t5 += mul_shift(t3,  2485, 13);

    y[0 * ystride] = t0;
    y[1 * ystride] = t1;
    y[2 * ystride] = t2;
    y[3 * ystride] = t3;
    y[4 * ystride] = t4;
    y[5 * ystride] = t5;
    y[6 * ystride] = t6;
    y[7 * ystride] = t7;
}

#define L FF_VMAF_PSNR_HVS_LANES

/* Lanes n..7 hold zeros. */
static void zero_lanes(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], int n)
{
    for (int k = 0; k < 64; k++)
        for (int b = n; b < L; b++)
            dst[k * L + b] = 0;
}

static void load_8_c(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                     ptrdiff_t linesize, int n, int bpc)
{
    for (int b = 0; b < n; b++) {
        const uint8_t *s = src + FF_VMAF_PSNR_HVS_STEP * b;
        for (int i = 0; i < 8; i++, s += linesize)
            for (int j = 0; j < 8; j++)
                dst[(8 * i + j) * L + b] = s[j];
    }
    zero_lanes(dst, n);
}

static void load_16_c(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                      ptrdiff_t linesize, int n, int bpc)
{
    const int max = (1 << bpc) - 1;

    for (int b = 0; b < n; b++) {
        const uint8_t *row = src;
        for (int i = 0; i < 8; i++, row += linesize) {
            const uint16_t *s = (const uint16_t *)row + FF_VMAF_PSNR_HVS_STEP * b;
            for (int j = 0; j < 8; j++)
                dst[(8 * i + j) * L + b] = FFMIN(s[j], max);
        }
    }
    zero_lanes(dst, n);
}

static unsigned diff_c(const int32_t a[FF_VMAF_PSNR_HVS_GROUP],
                       const int32_t b[FF_VMAF_PSNR_HVS_GROUP])
{
    unsigned live = 0;

    for (int k = 0; k < 64; k++)
        for (int l = 0; l < L; l++)
            live |= (unsigned)(a[k * L + l] != b[k * L + l]) << l;
    return live;
}

static void fdct8x8_c(int32_t dst[FF_VMAF_PSNR_HVS_GROUP],
                      const int32_t src[FF_VMAF_PSNR_HVS_GROUP])
{
    int32_t tmp[FF_VMAF_PSNR_HVS_GROUP];

    /* Per block b: column i of src becomes row i of tmp (tmp[i][u]);
     * column u of tmp then becomes row u of dst, so dst[u][v] has u
     * vertical. Element k of block b is at [k * L + b]. */
    for (int b = 0; b < L; b++) {
        for (int i = 0; i < 8; i++)
            ff_vmaf_psnr_hvs_fdct8(tmp + 8 * i * L + b, L, src + i * L + b, 8 * L);
        for (int u = 0; u < 8; u++)
            ff_vmaf_psnr_hvs_fdct8(dst + 8 * u * L + b, L, tmp + u * L + b, 8 * L);
    }
}

/* Masking of one block whose element k is at px[k * L], dct[k * L]. */
static float block_mask1(const int32_t *px, const int32_t *dct,
                         const float mask_tab[64])
{
    /* Unbiased-variance factors, formed as float products like libvmaf. */
    const float gscale = (1.0f / 63.0f) * 64;
    const float qscale = (1.0f / 15.0f) * 16;
    float gmean = 0.0f, gvar = 0.0f, qmean[4] = { 0 }, qvar[4] = { 0 };
    float m = 0.0f;

    /* One raster walk visits each quadrant's samples in raster order too. */
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            float v = (float)px[(8 * i + j) * L];
            gmean += v;
            qmean[(i >= 4) + 2 * (j >= 4)] += v;
        }
    gmean /= 64.0f;
    for (int q = 0; q < 4; q++)
        qmean[q] /= 16.0f;

    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int q = (i >= 4) + 2 * (j >= 4);
            float v = (float)px[(8 * i + j) * L];
            float dg = v - gmean, dq = v - qmean[q];
            gvar    += dg * dg;
            qvar[q] += dq * dq;
        }
    gvar *= gscale;
    for (int q = 0; q < 4; q++)
        qvar[q] *= qscale;
    /* A flat block has no masking at all. */
    if (gvar > 0.0f)
        gvar = (qvar[0] + qvar[1] + qvar[2] + qvar[3]) / gvar;

    for (int k = 1; k < 64; k++)
        m += (float)(dct[k * L] * dct[k * L]) * mask_tab[k];
    return (float)(sqrt((double)(m * gvar)) / 32);
}

static void block_mask_c(float mask[FF_VMAF_PSNR_HVS_LANES],
                         const int32_t px[FF_VMAF_PSNR_HVS_GROUP],
                         const int32_t dct[FF_VMAF_PSNR_HVS_GROUP],
                         const float mask_tab[64])
{
    for (int b = 0; b < L; b++)
        mask[b] = block_mask1(px + b, dct + b, mask_tab);
}

static float block_error_c(float acc,
                           const int32_t dct_ref[FF_VMAF_PSNR_HVS_GROUP],
                           const int32_t dct_dis[FF_VMAF_PSNR_HVS_GROUP],
                           const float mask_ref[FF_VMAF_PSNR_HVS_LANES],
                           const float mask_dis[FF_VMAF_PSNR_HVS_LANES],
                           unsigned live, const float csf[64],
                           const float mask_tab[64])
{
    for (int b = 0; b < L; b++) {
        const int32_t *r = dct_ref + b, *d = dct_dis + b;
        float mask = mask_ref[b], e, ec;

        if (!(live & 1u << b))
            continue;
        /* The stronger masking of the two pictures applies. */
        if (mask_dis[b] > mask)
            mask = mask_dis[b];
        /* The DC error is weighted but never masked. */
        e    = (float)abs(r[0] - d[0]);
        ec   = e * csf[0];
        acc += ec * ec;
        for (int k = 1; k < 64; k++) {
            float t = mask / mask_tab[k];
            e = (float)abs(r[k * L] - d[k * L]);
            e = e < t ? 0.0f : e - t;
            ec   = e * csf[k];
            acc += ec * ec;
        }
    }
    return acc;
}

av_cold void ff_vmaf_psnr_hvs_dsp_init(FFVmafPsnrHvsDSPContext *c, int bpc)
{
    c->load        = bpc == 8 ? load_8_c : load_16_c;
    c->diff        = diff_c;
    c->fdct8x8     = fdct8x8_c;
    c->block_mask  = block_mask_c;
    c->block_error = block_error_c;
#if ARCH_X86_64
    ff_vmaf_psnr_hvs_dsp_init_x86(c, bpc);
#endif
}
