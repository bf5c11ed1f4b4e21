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
 * AVX2 versions of the integer motion kernels (motion_dsp.h), bit-exact
 * with the C ones.
 *
 * Products of a Q16 tap and a 17-bit value do not fit in 32 bits, and
 * 64-bit lanes would halve the width. Instead a value v is split into
 * h = v >> 8 (arithmetic) and l = v & 255, so that
 *   sum f_k v_k + rnd = 256 * A + B,  A = sum f_k h_k,  B = sum f_k l_k + rnd,
 * with |A| < 2^26 and 0 <= B < 2^25, and for s >= 8
 *   (256 * A + B) >> s == (A + (B >> 8)) >> (s - 8)
 * exactly (floor division in two steps). Each tap product is one
 * vpmaddwd: a value that fits in int16 sits sign-extended in its 32-bit
 * lane, and the tap set as (f, 0) multiplies the low half only.
 */

#include "libavutil/attributes.h"

#include "../motion_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"

#define F0  3571
#define F1 16004
#define F2 26386

FF_VMAF_TARGET_BEGIN("avx2")

/* floor((f0 * s04 + f1 * s13 + f2 * c + rnd) / 2^shift) per 32-bit lane,
 * for |s04|, |s13| < 2^17, |c| < 2^16, 0 <= rnd < 2^16 and shift >= 8;
 * sh holds shift - 8. */
static av_always_inline __m256i filt5_split(__m256i s04, __m256i s13, __m256i c,
                                            __m256i rnd, __m128i sh)
{
    const __m256i f0 = _mm256_set1_epi32(F0);
    const __m256i f1 = _mm256_set1_epi32(F1);
    const __m256i f2 = _mm256_set1_epi32(F2);
    const __m256i m8 = _mm256_set1_epi32(255);
    __m256i a, b;

    a = _mm256_add_epi32(_mm256_madd_epi16(_mm256_srai_epi32(s04, 8), f0),
                         _mm256_madd_epi16(_mm256_srai_epi32(s13, 8), f1));
    a = _mm256_add_epi32(a, _mm256_madd_epi16(_mm256_srai_epi32(c, 8), f2));
    b = _mm256_add_epi32(_mm256_madd_epi16(_mm256_and_si256(s04, m8), f0),
                         _mm256_madd_epi16(_mm256_and_si256(s13, m8), f1));
    b = _mm256_add_epi32(b, _mm256_madd_epi16(_mm256_and_si256(c, m8), f2));
    b = _mm256_add_epi32(b, rnd);
    return _mm256_sra_epi32(_mm256_add_epi32(a, _mm256_srli_epi32(b, 8)), sh);
}

/*
 * 16 outputs from five rows of 16-bit differences d[k] that fit in int16
 * with their pair sums (8-bit input, or 16-bit below 2^14): the whole
 * vertical sum fits in int32 and is two vpmaddwd per 8 outputs, the
 * rounding constant riding along as the tap of a column of ones.
 */
static av_always_inline void blur_v_16x16(int32_t *y, const __m256i d[5],
                                          __m256i f01, __m256i f2r, __m128i sh)
{
    const __m256i one = _mm256_set1_epi16(1);
    __m256i s04 = _mm256_add_epi16(d[0], d[4]);
    __m256i s13 = _mm256_add_epi16(d[1], d[3]);
    __m256i lo  = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(s04, s13), f01),
                                   _mm256_madd_epi16(_mm256_unpacklo_epi16(d[2], one), f2r));
    __m256i hi  = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(s04, s13), f01),
                                   _mm256_madd_epi16(_mm256_unpackhi_epi16(d[2], one), f2r));

    lo = _mm256_sra_epi32(lo, sh);
    hi = _mm256_sra_epi32(hi, sh);
    /* unpack works within 128-bit lanes: lo holds 0-3 and 8-11, hi 4-7 and 12-15 */
    _mm256_storeu_si256((__m256i *)y,       _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256((__m256i *)(y + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
}

static av_always_inline int32_t blur_v_one(const uint8_t *const prev[5],
                                           const uint8_t *const cur[5],
                                           int x, int shift, int hbd)
{
    int64_t d[5];
    for (int k = 0; k < 5; k++)
        d[k] = hbd ? (int64_t)((const uint16_t *)prev[k])[x] - ((const uint16_t *)cur[k])[x]
                   : (int64_t)prev[k][x] - cur[k][x];
    return (int32_t)((F0 * (d[0] + d[4]) + F1 * (d[1] + d[3]) + F2 * d[2] +
                      (1 << (shift - 1))) >> shift);
}

void ff_vmaf_motion_blur_v_8_avx2(int32_t *y, const uint8_t *const prev[5],
                                  const uint8_t *const cur[5], int w, int shift)
{
    const __m256i f01 = _mm256_set1_epi32(F0 | F1 << 16);
    const __m256i f2r = _mm256_set1_epi32(F2 | 1 << (shift - 1) << 16);
    const __m128i sh  = _mm_cvtsi32_si128(shift);
    int x = 0;

    for (; x + 16 <= w; x += 16) {
        __m256i d[5];
        for (int k = 0; k < 5; k++)
            d[k] = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(prev[k] + x))),
                                    _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cur[k]  + x))));
        blur_v_16x16(y + x, d, f01, f2r, sh);
    }
    for (; x < w; x++)
        y[x] = blur_v_one(prev, cur, x, shift, 0);
}

void ff_vmaf_motion_blur_v_16_avx2(int32_t *y, const uint8_t *const prev[5],
                                   const uint8_t *const cur[5], int w, int shift)
{
    int x = 0;

    if (shift <= 14) {
        /* samples below 2^14: differences and their pair sums fit in int16 */
        const __m256i f01 = _mm256_set1_epi32(F0 | F1 << 16);
        const __m256i f2r = _mm256_set1_epi32(F2 | 1 << (shift - 1) << 16);
        const __m128i sh  = _mm_cvtsi32_si128(shift);

        for (; x + 16 <= w; x += 16) {
            __m256i d[5];
            for (int k = 0; k < 5; k++)
                d[k] = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(prev[k] + 2 * x)),
                                        _mm256_loadu_si256((const __m256i *)(cur[k]  + 2 * x)));
            blur_v_16x16(y + x, d, f01, f2r, sh);
        }
    } else {
        const __m256i rnd = _mm256_set1_epi32(1 << (shift - 1));
        const __m128i sh  = _mm_cvtsi32_si128(shift - 8);

        for (; x + 8 <= w; x += 8) {
            __m256i d[5];
            for (int k = 0; k < 5; k++)
                d[k] = _mm256_sub_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(prev[k] + 2 * x))),
                                        _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(cur[k]  + 2 * x))));
            _mm256_storeu_si256((__m256i *)(y + x),
                                filt5_split(_mm256_add_epi32(d[0], d[4]),
                                            _mm256_add_epi32(d[1], d[3]), d[2], rnd, sh));
        }
    }
    for (; x < w; x++)
        y[x] = blur_v_one(prev, cur, x, shift, 1);
}

/* Vectors of 8 |z| < 2^16 summed in 32-bit lanes before they are widened:
 * 2^14 of them stay below 2^31. */
#define SAD_CHUNK (1 << 14)

uint64_t ff_vmaf_motion_sad_h_avx2(const int32_t *y, int w)
{
    const __m256i rnd = _mm256_set1_epi32(32768);
    const __m128i sh  = _mm_cvtsi32_si128(8);
    __m256i acc64 = _mm256_setzero_si256();
    uint64_t sad;
    int x = 0;

    while (x + 8 <= w) {
        int end = w - x > 8 * SAD_CHUNK ? x + 8 * SAD_CHUNK : w;
        __m256i acc = _mm256_setzero_si256();

        for (; x + 8 <= end; x += 8) {
            __m256i ym2 = _mm256_loadu_si256((const __m256i *)(y + x - 2));
            __m256i ym1 = _mm256_loadu_si256((const __m256i *)(y + x - 1));
            __m256i y0  = _mm256_loadu_si256((const __m256i *)(y + x));
            __m256i yp1 = _mm256_loadu_si256((const __m256i *)(y + x + 1));
            __m256i yp2 = _mm256_loadu_si256((const __m256i *)(y + x + 2));
            __m256i z   = filt5_split(_mm256_add_epi32(ym2, yp2),
                                      _mm256_add_epi32(ym1, yp1), y0, rnd, sh);
            acc = _mm256_add_epi32(acc, _mm256_abs_epi32(z));
        }
        acc64 = _mm256_add_epi64(acc64, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(acc)));
        acc64 = _mm256_add_epi64(acc64, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(acc, 1)));
    }
    {
        __m128i s = _mm_add_epi64(_mm256_castsi256_si128(acc64),
                                  _mm256_extracti128_si256(acc64, 1));
        sad = (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
    }
    for (; x < w; x++) {
        int64_t z = ((int64_t)F0 * (y[x - 2] + y[x + 2]) +
                     (int64_t)F1 * (y[x - 1] + y[x + 1]) +
                     (int64_t)F2 *  y[x] + 32768) >> 16;
        sad += z < 0 ? -z : z;
    }
    return sad;
}

FF_VMAF_TARGET_END
