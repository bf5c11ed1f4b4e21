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
 * AVX2 SpEED kernels: the conversion of input rows to float and the
 * vertical anti-alias filter, 8 columns at a time, and the covariance
 * sums, 4 of them at a time. Every output gets the very operations of
 * the C version in the same order (one rounding each, no FMA); the tails
 * run the C expressions.
 */

#include <stdint.h>

#include "libavutil/attributes.h"

#include "../speed_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

static av_always_inline __m256 load8_8(const uint8_t *a)
{
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)a)));
}

static av_always_inline __m256 load8_16(const uint16_t *a)
{
    return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)a)));
}

void ff_vmaf_speed_to_float_8_avx2(float *dst, const uint8_t *a, int w, int bpc)
{
    const __m256 off = _mm256_set1_ps(128.0f);
    int j = 0;

    for (; j + 8 <= w; j += 8)
        _mm256_storeu_ps(dst + j, _mm256_sub_ps(load8_8(a + j), off));
    for (; j < w; j++)
        dst[j] = (float)a[j] - 128.0f;
}

void ff_vmaf_speed_to_float_16_avx2(float *dst, const uint8_t *a, int w, int bpc)
{
    const uint16_t *a16 = (const uint16_t *)a;
    const float scale = 1.0f / (float)(1 << (bpc - 8));
    const __m256 off = _mm256_set1_ps(128.0f), sc = _mm256_set1_ps(scale);
    int j = 0;

    for (; j + 8 <= w; j += 8)
        _mm256_storeu_ps(dst + j, _mm256_sub_ps(_mm256_mul_ps(load8_16(a16 + j), sc), off));
    for (; j < w; j++)
        dst[j] = (float)a16[j] * scale - 128.0f;
}

void ff_vmaf_speed_diff_to_float_8_avx2(float *dst, const uint8_t *a,
                                        const uint8_t *b, int w, int bpc)
{
    const __m256 off = _mm256_set1_ps(128.0f);
    int j = 0;

    for (; j + 8 <= w; j += 8)
        _mm256_storeu_ps(dst + j, _mm256_sub_ps(_mm256_sub_ps(load8_8(a + j), off),
                                                _mm256_sub_ps(load8_8(b + j), off)));
    for (; j < w; j++)
        dst[j] = ((float)a[j] - 128.0f) - ((float)b[j] - 128.0f);
}

void ff_vmaf_speed_diff_to_float_16_avx2(float *dst, const uint8_t *a,
                                         const uint8_t *b, int w, int bpc)
{
    const uint16_t *a16 = (const uint16_t *)a, *b16 = (const uint16_t *)b;
    const float scale = 1.0f / (float)(1 << (bpc - 8));
    const __m256 off = _mm256_set1_ps(128.0f), sc = _mm256_set1_ps(scale);
    int j = 0;

    for (; j + 8 <= w; j += 8) {
        __m256 fa = _mm256_sub_ps(_mm256_mul_ps(load8_16(a16 + j), sc), off);
        __m256 fb = _mm256_sub_ps(_mm256_mul_ps(load8_16(b16 + j), sc), off);
        _mm256_storeu_ps(dst + j, _mm256_sub_ps(fa, fb));
    }
    for (; j < w; j++)
        dst[j] = ((float)a16[j] * scale - 128.0f) -
                 ((float)b16[j] * scale - 128.0f);
}

#define B2   FF_VMAF_SPEED_B2
#define B2P  28             /* B2 rounded up to whole vectors of 4 */
#define SUBN 32             /* pixels per transposed block */

/*
 * Row p of acc, entries q = 0..4 nv - 1 (q <= p kept): each lane adds
 * its products pixel after pixel, like the C chain of that entry.
 */
static av_always_inline void cov_row(double *accp, const double (*t)[B2P],
                                     int len, int p, const int nv)
{
    __m256i keep[7];
    __m256d a[7];

    for (int i = 0; i < nv; i++) {
        keep[i] = _mm256_cmpgt_epi64(_mm256_set1_epi64x(p + 1),
                                     _mm256_setr_epi64x(4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3));
        a[i] = _mm256_maskload_pd(accp + 4 * i, keep[i]);
    }
    for (int n = 0; n < len; n++) {
        const __m256d v = _mm256_broadcast_sd(&t[n][p]);
        for (int i = 0; i < nv; i++)
            a[i] = _mm256_add_pd(a[i], _mm256_mul_pd(v, _mm256_loadu_pd(&t[n][4 * i])));
    }
    for (int i = 0; i < nv; i++)
        _mm256_maskstore_pd(accp + 4 * i, keep[i], a[i]);
}

void ff_vmaf_speed_cov_chunk_avx2(double acc[FF_VMAF_SPEED_B2][FF_VMAF_SPEED_B2],
                                  const double *cen, ptrdiff_t stride, int len)
{
    double t[SUBN][B2P];

    /* Blocks of pixels in order: each chain still runs over n in order. */
    for (int n0 = 0; n0 < len; n0 += SUBN) {
        const int m = len - n0 < SUBN ? len - n0 : SUBN;

        /* Pixel-major copy: the values of one pixel side by side. */
        for (int n = 0; n < m; n++) {
            for (int p = 0; p < B2; p++)
                t[n][p] = cen[p * stride + n0 + n];
            for (int p = B2; p < B2P; p++)
                t[n][p] = 0.0;
        }
        for (int p = 0; p < B2; p++) {
            switch (p >> 2) {
            case 0: cov_row(acc[p], t, m, p, 1); break;
            case 1: cov_row(acc[p], t, m, p, 2); break;
            case 2: cov_row(acc[p], t, m, p, 3); break;
            case 3: cov_row(acc[p], t, m, p, 4); break;
            case 4: cov_row(acc[p], t, m, p, 5); break;
            case 5: cov_row(acc[p], t, m, p, 6); break;
            default: cov_row(acc[p], t, m, p, 7); break;
            }
        }
    }
}

FF_VMAF_TARGET_END
