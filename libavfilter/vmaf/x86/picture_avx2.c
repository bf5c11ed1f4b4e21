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

#include <string.h>

#include "libavutil/attributes.h"

#include "../picture_dsp.h"
#include "simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

/* Samples i.. in steps of 16 (stream: dst + i is 32-byte aligned, the
 * stores go around the caches); returns where it stopped. */
static av_always_inline size_t clamp16_steps(uint16_t *dst, const uint16_t *src, size_t i,
                                             size_t n, __m256i vmax, __m256i *hi, int stream)
{
    for (; i + 16 <= n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + i));
        *hi = _mm256_max_epu16(*hi, v);
        if (stream)
            _mm256_stream_si256((__m256i *)(dst + i), _mm256_min_epu16(v, vmax));
        else
            _mm256_storeu_si256((__m256i *)(dst + i), _mm256_min_epu16(v, vmax));
    }
    return i;
}

/*
 * 16 samples a step: the clamp is a min, the check a running max. The
 * destination is the GPU's staging memory: once it is 32-byte aligned, the
 * stores go around the caches (as copy_stream's), fenced at the end.
 */
unsigned ff_vmaf_copy_clamp16_avx2(uint16_t *dst, const uint16_t *src, size_t n, unsigned max)
{
    const __m256i vmax = _mm256_set1_epi16((short)max);
    __m256i hi = _mm256_setzero_si256();
    unsigned over = 0;
    size_t i;

    if (n >= 128 && !((uintptr_t)dst & 1)) {
        i = ((32 - ((uintptr_t)dst & 31)) & 31) / 2;
        over = ff_vmaf_copy_clamp16_c(dst, src, i, max);
        i = clamp16_steps(dst, src, i, n, vmax, &hi, 1);
        _mm_sfence();
    } else {
        i = clamp16_steps(dst, src, 0, n, vmax, &hi, 0);
    }
    /* Any lane above max: max(hi, max) differs from max there. */
    over |= _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(hi, vmax), vmax)) != -1;
    return over | ff_vmaf_copy_clamp16_c(dst + i, src + i, n - i, max);
}

/*
 * Non-temporal stores of 128 bytes a step once dst is 32-byte aligned; the
 * ends are copied with memcpy. They are weakly ordered: the fence makes
 * them visible before the caller signals anyone (the upload is queued
 * after the copying threads are joined).
 */
void ff_vmaf_copy_stream_avx2(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t head = (32 - ((uintptr_t)dst & 31)) & 31, i = 0;

    if (n < 256) {
        memcpy(dst, src, n);
        return;
    }
    memcpy(dst, src, head);
    dst += head;
    src += head;
    n   -= head;
    for (; i + 128 <= n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(src + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(src + i + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *)(src + i + 96));
        _mm256_stream_si256((__m256i *)(dst + i), a);
        _mm256_stream_si256((__m256i *)(dst + i + 32), b);
        _mm256_stream_si256((__m256i *)(dst + i + 64), c);
        _mm256_stream_si256((__m256i *)(dst + i + 96), d);
    }
    _mm_sfence();
    memcpy(dst + i, src + i, n - i);
}

FF_VMAF_TARGET_END
