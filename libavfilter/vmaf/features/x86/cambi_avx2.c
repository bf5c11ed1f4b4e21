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
 * AVX2 versions of CAMBI's integer row kernels (cambi_dsp.h): exact by
 * construction, since every stage is integer. Main loops run 16 (or 32)
 * outputs per step wherever the inputs that step reads are inside what
 * the C version reads; the rest of the row goes through the same scalar
 * code as C.
 */

#include <stdint.h>

#include "libavutil/attributes.h"
#include "libavutil/macros.h"

#include "../cambi_dsp.h"
#include "cambi.h"
#include "libavfilter/vmaf/x86/simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

#define LOAD16(p)  _mm256_loadu_si256((const __m256i *)(p))
#define LOAD8(p)   _mm_loadu_si128((const __m128i *)(p))
#define STORE16(p, v) _mm256_storeu_si256((__m256i *)(p), v)

/* 16 uint8_t to uint16_t lanes */
#define WIDEN(p) _mm256_cvtepu8_epi16(LOAD8(p))

void ff_vmaf_cambi_dither_row_8_avx2(uint16_t *dst, const uint8_t *p,
                                     const uint8_t *q, int w)
{
    int j = 0;

    /* each step reads p[j .. j + 16] (and q likewise) */
    if (q) {
        for (; j + 17 <= w; j += 16) {
            __m256i s = _mm256_add_epi16(_mm256_add_epi16(WIDEN(p + j), WIDEN(p + j + 1)),
                                         _mm256_add_epi16(WIDEN(q + j), WIDEN(q + j + 1)));
            STORE16(dst + j, s);
        }
        for (; j < w - 1; j++)
            dst[j] = p[j] + p[j + 1] + q[j] + q[j + 1];
        dst[w - 1] = (p[w - 1] + q[w - 1]) << 1;
    } else {
        for (; j + 17 <= w; j += 16) {
            __m256i s = _mm256_add_epi16(WIDEN(p + j), WIDEN(p + j + 1));
            STORE16(dst + j, _mm256_add_epi16(s, s));
        }
        for (; j < w - 1; j++)
            dst[j] = (p[j] + p[j + 1]) << 1;
        dst[w - 1] = p[w - 1] << 2;
    }
}

void ff_vmaf_cambi_convert_row_16_avx2(uint16_t *dst, const uint16_t *src,
                                       int w, int up, int down)
{
    /* (x + 2^(down-1)) >> down == (x >> down) + bit down-1 of x, which
     * needs no 17th bit; up and down are never both set. */
    const __m128i cu = _mm_cvtsi32_si128(up), cd = _mm_cvtsi32_si128(down);
    const __m128i cr = _mm_cvtsi32_si128(down ? down - 1 : 0);
    const __m256i one = _mm256_set1_epi16(1);
    int rnd = down ? 1 << (down - 1) : 0;
    int j = 0;

    for (; j + 16 <= w; j += 16) {
        __m256i x = _mm256_sll_epi16(LOAD16(src + j), cu);
        if (down)
            x = _mm256_add_epi16(_mm256_srl_epi16(x, cd),
                                 _mm256_and_si256(_mm256_srl_epi16(x, cr), one));
        STORE16(dst + j, x);
    }
    for (; j < w; j++)
        dst[j] = ((src[j] << up) + rnd) >> down;
}

/* 16 lanes of 0/-1 words to 16 bytes of 0/1 */
static av_always_inline __m128i flags_to_bytes(__m256i m)
{
    __m128i b = _mm_packs_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    return _mm_and_si128(b, _mm_set1_epi8(1));
}

void ff_vmaf_cambi_zero_deriv_avx2(uint8_t *z, const uint16_t *p,
                                   const uint16_t *q, int w)
{
    int j = 0;

    /* each step reads p[j .. j + 16] */
    if (q) {
        for (; j + 17 <= w; j += 16) {
            __m256i p0 = LOAD16(p + j);
            __m256i m  = _mm256_and_si256(_mm256_cmpeq_epi16(p0, LOAD16(p + j + 1)),
                                          _mm256_cmpeq_epi16(p0, LOAD16(q + j)));
            _mm_storeu_si128((__m128i *)(z + j), flags_to_bytes(m));
        }
        for (; j < w - 1; j++)
            z[j] = (p[j] == p[j + 1]) & (p[j] == q[j]);
        z[w - 1] = p[w - 1] == q[w - 1];
    } else {
        for (; j + 17 <= w; j += 16) {
            __m256i m = _mm256_cmpeq_epi16(LOAD16(p + j), LOAD16(p + j + 1));
            _mm_storeu_si128((__m128i *)(z + j), flags_to_bytes(m));
        }
        for (; j < w - 1; j++)
            z[j] = p[j] == p[j + 1];
        z[w - 1] = 1;
    }
}

void ff_vmaf_cambi_mask_row_avx2(uint8_t *mask, uint16_t *colsum,
                                 const uint8_t *add, const uint8_t *sub,
                                 int w, int threshold)
{
    /* A window sum is at most 7 * 7: a threshold outside [-1, 49] acts
     * like its nearest end, and the sums fit signed words. */
    const __m256i thr = _mm256_set1_epi16(threshold < -1 ? -1 : threshold > 49 ? 49 : threshold);
    int j = 0;

    if (add || sub) {
        for (; j + 16 <= w; j += 16) {
            __m256i cs = LOAD16(colsum + j);
            if (add)
                cs = _mm256_add_epi16(cs, WIDEN(add + j));
            if (sub)
                cs = _mm256_sub_epi16(cs, WIDEN(sub + j));
            STORE16(colsum + j, cs);
        }
        for (; j < w; j++)
            colsum[j] += (add ? add[j] : 0) - (sub ? sub[j] : 0);
    }

    /* each step reads colsum[j - 3 .. j + 18], inside the zero borders */
    for (j = 0; j + 16 <= w; j += 16) {
        const uint16_t *c = colsum + j;
        __m256i s = _mm256_add_epi16(_mm256_add_epi16(LOAD16(c - 3), LOAD16(c - 2)),
                                     _mm256_add_epi16(LOAD16(c - 1), LOAD16(c)));
        s = _mm256_add_epi16(s, _mm256_add_epi16(_mm256_add_epi16(LOAD16(c + 1), LOAD16(c + 2)),
                                                 LOAD16(c + 3)));
        _mm_storeu_si128((__m128i *)(mask + j), flags_to_bytes(_mm256_cmpgt_epi16(s, thr)));
    }
    for (; j < w; j++) {
        int sum = 0;
        for (int k = -3; k <= 3; k++)
            sum += colsum[j + k];
        mask[j] = sum > threshold;
    }
}

void ff_vmaf_cambi_decimate_row_avx2(uint16_t *d, uint8_t *dm, const uint16_t *s,
                                     const uint8_t *m, int w)
{
    /* Each step loads all it needs before it stores, and stores only
     * below what later steps load: safe in place. */
    const __m256i lo16 = _mm256_set1_epi32(0xffff), lo8 = _mm256_set1_epi16(0xff);
    int ow = (w + 1) >> 1, j;

    for (j = 0; 2 * j + 32 <= w; j += 16) {
        __m256i a = _mm256_and_si256(LOAD16(s + 2 * j), lo16);
        __m256i b = _mm256_and_si256(LOAD16(s + 2 * j + 16), lo16);
        STORE16(d + j, _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8));
    }
    for (; j < ow; j++)
        d[j] = s[2 * j];

    for (j = 0; 2 * j + 64 <= w; j += 32) {
        __m256i a = _mm256_and_si256(LOAD16(m + 2 * j), lo8);
        __m256i b = _mm256_and_si256(LOAD16(m + 2 * j + 32), lo8);
        STORE16(dm + j, _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xd8));
    }
    for (; j < ow; j++)
        dm[j] = m[2 * j];
}

/* The value two of a, b, c share, else the smallest. */
static av_always_inline int mode3(int a, int b, int c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return FFMIN(FFMIN(a, b), c);
}

static av_always_inline __m256i mode3_v(__m256i a, __m256i b, __m256i c)
{
    __m256i r = _mm256_min_epu16(_mm256_min_epu16(a, b), c);
    r = _mm256_blendv_epi8(r, b, _mm256_cmpeq_epi16(b, c));
    return _mm256_blendv_epi8(r, a, _mm256_or_si256(_mm256_cmpeq_epi16(a, b),
                                                    _mm256_cmpeq_epi16(a, c)));
}

void ff_vmaf_cambi_mode_h_avx2(uint16_t *dst, const uint16_t *src, int w)
{
    int j = 1;

    dst[0] = src[0];
    /* each step reads src[j - 1 .. j + 16] */
    for (; j + 17 <= w; j += 16)
        STORE16(dst + j, mode3_v(LOAD16(src + j - 1), LOAD16(src + j), LOAD16(src + j + 1)));
    for (; j < w - 1; j++)
        dst[j] = mode3(src[j - 1], src[j], src[j + 1]);
    dst[w - 1] = src[w - 1];
}

void ff_vmaf_cambi_mode_v_avx2(uint16_t *dst, const uint16_t *a, const uint16_t *b,
                               const uint16_t *c, int w)
{
    int j = 0;

    for (; j + 16 <= w; j += 16)
        STORE16(dst + j, mode3_v(LOAD16(a + j), LOAD16(b + j), LOAD16(c + j)));
    for (; j < w; j++)
        dst[j] = mode3(a[j], b[j], c[j]);
}

void ff_vmaf_cambi_mask_bits_avx2(uint64_t *bits, const uint8_t *m, int w)
{
    const __m256i zero = _mm256_setzero_si256();
    int j = 0;

    for (; j + 64 <= w; j += 64) {
        uint32_t lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(LOAD16(m + j), zero));
        uint32_t hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(LOAD16(m + j + 32), zero));
        bits[j >> 6] = ~((uint64_t)hi << 32 | lo);
    }
    if (j < w) {
        uint64_t b = 0;
        for (int x = j; x < w; x++)
            b |= (uint64_t)(m[x] != 0) << (x - j);
        bits[j >> 6] = b;
    }
}

/*
 * The histogram rows: 8 pixels whose targets are one lane of 8
 * consecutive words (the same sample value, or all unmasked: the dummy
 * bin) are one add of a vector with 1 in that lane of each word, over the
 * 32 lanes of those words; the targets are distinct words, so the order
 * of the adds does not matter. Other groups go one pixel at a time.
 */
static av_always_inline void add_lane8(uint16_t *lanes, uint32_t e0, __m256i one_per_word)
{
    uint16_t *p = lanes + (e0 & ~3u);
    __m256i inc = _mm256_sll_epi64(one_per_word, _mm_cvtsi32_si128(16 * (e0 & 3)));
    STORE16(p,      _mm256_add_epi16(LOAD16(p),      inc));
    STORE16(p + 16, _mm256_add_epi16(LOAD16(p + 16), inc));
}

void ff_vmaf_cambi_hist_add_avx2(uint16_t *lanes, uint32_t *off, const uint16_t *v,
                                 const uint8_t *m, const uint32_t *lane_of,
                                 uint32_t dummy, uint32_t base, int w)
{
    const __m256i ramp = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    const __m256i vdummy = _mm256_set1_epi32(dummy);
    const __m256i one = _mm256_set1_epi64x(1);
    int j = 0;

    for (; j + 8 <= w; j += 8) {
        __m128i mb = _mm_loadl_epi64((const __m128i *)(m + j));
        __m256i l, o;
        if (!_mm_cvtsi128_si64(mb)) {
            l = vdummy;
        } else {
            /* only the masked pixels' values are looked up, as in C */
            __m256i idx = _mm256_cvtepu16_epi32(LOAD8(v + j));
            __m256i unm = _mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(mb), _mm256_setzero_si256());
            l = _mm256_mask_i32gather_epi32(vdummy, (const int *)lane_of, idx,
                                            _mm256_xor_si256(unm, _mm256_set1_epi32(-1)), 4);
        }
        o = _mm256_add_epi32(_mm256_add_epi32(l, ramp), _mm256_set1_epi32(base + 4 * j));
        STORE16(off + j, o);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(l, _mm256_broadcastd_epi32(_mm256_castsi256_si128(l)))) == -1) {
            add_lane8(lanes, _mm256_cvtsi256_si32(o), one);
        } else {
            for (int k = 0; k < 8; k++)
                lanes[off[j + k]]++;
        }
    }
    for (; j < w; j++) {
        off[j] = (m[j] ? lane_of[v[j]] : dummy) + base + 4 * j;
        lanes[off[j]]++;
    }
}

void ff_vmaf_cambi_hist_sub_avx2(uint16_t *lanes, const uint32_t *off, int w)
{
    const __m256i ramp = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    const __m256i one = _mm256_set1_epi64x(1);
    int j = 0;

    for (; j + 8 <= w; j += 8) {
        __m256i o = _mm256_sub_epi32(LOAD16(off + j), ramp);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(o, _mm256_broadcastd_epi32(_mm256_castsi256_si128(o)))) == -1) {
            uint32_t e0 = off[j];
            uint16_t *p = lanes + (e0 & ~3u);
            __m256i dec = _mm256_sll_epi64(one, _mm_cvtsi32_si128(16 * (e0 & 3)));
            STORE16(p,      _mm256_sub_epi16(LOAD16(p),      dec));
            STORE16(p + 16, _mm256_sub_epi16(LOAD16(p + 16), dec));
        } else {
            for (int k = 0; k < 8; k++)
                lanes[off[j + k]]--;
        }
    }
    for (; j < w; j++)
        lanes[off[j]]--;
}

FF_VMAF_TARGET_END
