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

void ff_vmaf_psnr_hvs_fdct8x8(int32_t dst[64], const int32_t src[64])
{
    int32_t tmp[64];

    /* Column i of src becomes row i of tmp (tmp[i][u]); column u of tmp
     * then becomes row u of dst, so dst[u][v] has u vertical. */
    for (int i = 0; i < 8; i++)
        ff_vmaf_psnr_hvs_fdct8(tmp + 8 * i, 1, src + i, 8);
    for (int u = 0; u < 8; u++)
        ff_vmaf_psnr_hvs_fdct8(dst + 8 * u, 1, tmp + u, 8);
}

float ff_vmaf_psnr_hvs_block_mask(const int32_t px[64], const int32_t dct[64],
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
            float v = (float)px[8 * i + j];
            gmean += v;
            qmean[(i >= 4) + 2 * (j >= 4)] += v;
        }
    gmean /= 64.0f;
    for (int q = 0; q < 4; q++)
        qmean[q] /= 16.0f;

    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int q = (i >= 4) + 2 * (j >= 4);
            float v = (float)px[8 * i + j];
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
        m += (float)(dct[k] * dct[k]) * mask_tab[k];
    return (float)(sqrt((double)(m * gvar)) / 32);
}

float ff_vmaf_psnr_hvs_block_error(float acc, const int32_t dct_ref[64],
                                   const int32_t dct_dis[64], float mask,
                                   const float csf[64],
                                   const float mask_tab[64])
{
    float e = (float)abs(dct_ref[0] - dct_dis[0]), ec;

    /* The DC error is weighted but never masked. */
    ec   = e * csf[0];
    acc += ec * ec;
    for (int k = 1; k < 64; k++) {
        float t = mask / mask_tab[k];
        e = (float)abs(dct_ref[k] - dct_dis[k]);
        e = e < t ? 0.0f : e - t;
        ec   = e * csf[k];
        acc += ec * ec;
    }
    return acc;
}
