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
 * AVX2 sums of squared differences (psnr_dsp.h), exact like the C ones:
 * vpmaddwd squares and adds pairs of 16-bit differences, the pairs are
 * summed in 32-bit lanes for as long as they cannot overflow, then in
 * 64-bit lanes.
 */

#include "libavutil/attributes.h"

#include "../psnr_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

static av_always_inline uint64_t hsum64(__m256i v)
{
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

/* Add the eight unsigned 32-bit lanes of v to the four 64-bit lanes of acc. */
static av_always_inline __m256i add_u32_to_64(__m256i acc, __m256i v)
{
    const __m256i zero = _mm256_setzero_si256();
    acc = _mm256_add_epi64(acc, _mm256_unpacklo_epi32(v, zero));
    return _mm256_add_epi64(acc, _mm256_unpackhi_epi32(v, zero));
}

/* 32 bytes give at most 4 * 255^2 per 32-bit lane: 4096 of them stay
 * below 2^31. */
#define SSE8_CHUNK 4096

uint64_t ff_vmaf_sse_plane_8_avx2(const uint8_t *a, ptrdiff_t a_stride,
                                  const uint8_t *b, ptrdiff_t b_stride,
                                  int w, int h)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i acc64 = zero;
    uint64_t sse = 0;

    for (int y = 0; y < h; y++) {
        int x = 0;
        while (x + 32 <= w) {
            int end = w - x > 32 * SSE8_CHUNK ? x + 32 * SSE8_CHUNK : w;
            __m256i acc = zero;
            for (; x + 32 <= end; x += 32) {
                __m256i va = _mm256_loadu_si256((const __m256i *)(a + x));
                __m256i vb = _mm256_loadu_si256((const __m256i *)(b + x));
                __m256i d  = _mm256_or_si256(_mm256_subs_epu8(va, vb), _mm256_subs_epu8(vb, va));
                __m256i lo = _mm256_unpacklo_epi8(d, zero);
                __m256i hi = _mm256_unpackhi_epi8(d, zero);
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(lo, lo));
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(hi, hi));
            }
            acc64 = add_u32_to_64(acc64, acc);
        }
        for (; x < w; x++) {
            int d = a[x] - b[x];
            sse += d * d;
        }
        a += a_stride;
        b += b_stride;
    }
    return sse + hsum64(acc64);
}

uint64_t ff_vmaf_sse_plane_15_avx2(const uint8_t *a8, ptrdiff_t a_stride,
                                   const uint8_t *b8, ptrdiff_t b_stride,
                                   int w, int h)
{
    __m256i acc64 = _mm256_setzero_si256();
    uint64_t sse = 0;

    for (int y = 0; y < h; y++) {
        const uint16_t *a = (const uint16_t *)(a8 + y * a_stride);
        const uint16_t *b = (const uint16_t *)(b8 + y * b_stride);
        int x = 0;
        /* Samples below 2^15: the differences fit in int16, and two
         * vpmaddwd results (4 squares, < 2^32) in an unsigned lane. */
        for (; x + 32 <= w; x += 32) {
            __m256i d0 = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(a + x)),
                                          _mm256_loadu_si256((const __m256i *)(b + x)));
            __m256i d1 = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(a + x + 16)),
                                          _mm256_loadu_si256((const __m256i *)(b + x + 16)));
            acc64 = add_u32_to_64(acc64, _mm256_add_epi32(_mm256_madd_epi16(d0, d0),
                                                          _mm256_madd_epi16(d1, d1)));
        }
        for (; x + 16 <= w; x += 16) {
            __m256i d0 = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(a + x)),
                                          _mm256_loadu_si256((const __m256i *)(b + x)));
            acc64 = add_u32_to_64(acc64, _mm256_madd_epi16(d0, d0));
        }
        for (; x < w; x++) {
            int64_t d = (int64_t)a[x] - b[x];
            sse += (uint64_t)(d * d);
        }
    }
    return sse + hsum64(acc64);
}

uint64_t ff_vmaf_sse_plane_16_avx2(const uint8_t *a8, ptrdiff_t a_stride,
                                   const uint8_t *b8, ptrdiff_t b_stride,
                                   int w, int h)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i acc64 = zero;
    uint64_t sse = 0;

    for (int y = 0; y < h; y++) {
        const uint16_t *a = (const uint16_t *)(a8 + y * a_stride);
        const uint16_t *b = (const uint16_t *)(b8 + y * b_stride);
        int x = 0;
        /* |a - b| as unsigned 16 bits, squared into 64-bit lanes by
         * vpmuludq (its square reaches 2^32). */
        for (; x + 16 <= w; x += 16) {
            __m256i va = _mm256_loadu_si256((const __m256i *)(a + x));
            __m256i vb = _mm256_loadu_si256((const __m256i *)(b + x));
            __m256i d  = _mm256_or_si256(_mm256_subs_epu16(va, vb), _mm256_subs_epu16(vb, va));
            __m256i lo = _mm256_unpacklo_epi16(d, zero);
            __m256i hi = _mm256_unpackhi_epi16(d, zero);
            __m256i lo_odd = _mm256_srli_epi64(lo, 32);
            __m256i hi_odd = _mm256_srli_epi64(hi, 32);
            acc64 = _mm256_add_epi64(acc64, _mm256_mul_epu32(lo, lo));
            acc64 = _mm256_add_epi64(acc64, _mm256_mul_epu32(lo_odd, lo_odd));
            acc64 = _mm256_add_epi64(acc64, _mm256_mul_epu32(hi, hi));
            acc64 = _mm256_add_epi64(acc64, _mm256_mul_epu32(hi_odd, hi_odd));
        }
        for (; x < w; x++) {
            int64_t d = (int64_t)a[x] - b[x];
            sse += (uint64_t)(d * d);
        }
    }
    return sse + hsum64(acc64);
}

FF_VMAF_TARGET_END
