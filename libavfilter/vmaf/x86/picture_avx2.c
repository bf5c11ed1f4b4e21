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

#include "../picture_dsp.h"
#include "simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

/* 16 samples a step: the clamp is a min, the check a running max. */
unsigned ff_vmaf_copy_clamp16_avx2(uint16_t *dst, const uint16_t *src, size_t n, unsigned max)
{
    const __m256i vmax = _mm256_set1_epi16((short)max);
    __m256i hi = _mm256_setzero_si256();
    unsigned over = 0;
    size_t i = 0;

    for (; i + 16 <= n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + i));
        hi = _mm256_max_epu16(hi, v);
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_min_epu16(v, vmax));
    }
    /* Any lane above max: max(hi, max) differs from max there. */
    over = _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(hi, vmax), vmax)) != -1;
    return over | ff_vmaf_copy_clamp16_c(dst + i, src + i, n - i, max);
}

FF_VMAF_TARGET_END
