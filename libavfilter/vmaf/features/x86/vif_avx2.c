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
 * Integer VIF kernels, AVX2: the same bits as vif_dsp.c.
 *
 * vif_template.h at eight 32-bit lanes (see there for why each step is
 * exact); this file gives it its loads, half vectors and lane masks
 * (compares give all-ones lanes, "v and mask" is vpand). Planes narrower
 * than a vector (or than two for decimation) use C.
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/attributes.h"
#include "libavutil/macros.h"
#include "libavutil/mem_internal.h"

#include "../vif_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"
#include "vif.h"

#define VIF_BITS 256

FF_VMAF_TARGET_BEGIN("avx2")

#define LD8(p)  _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p)))
#define LD16(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p)))

#define VHALF                __m128i
#define LO_HALF(v)           _mm256_castsi256_si128(v)
#define HI_HALF(v)           _mm256_extracti128_si256(v, 1)
#define JOIN_HALVES(lo, hi)  _mm256_set_m128i(hi, lo)
#define MAX0_HALF(v)         _mm_max_epi32(v, _mm_setzero_si128())

#define SET1_EPI64(x) _mm256_set1_epi64x(x)
#define TRUNC_PD(v)   _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)

#define VMASK          __m256i
#define CMPGT_M(a, b)  _mm256_cmpgt_epi32(a, b)
#define AND_M(a, b)    _mm256_and_si256(a, b)
#define ANDNOT_M(a, b) _mm256_andnot_si256(a, b)
#define MASKZ(m, v)    _mm256_and_si256(m, v)
#define COUNT_M(m)     __builtin_popcount(_mm256_movemask_ps(_mm256_castsi256_ps(m)))
#define ANY_M(m)       (!_mm256_testz_si256(m, m))

/* Odd 32-bit lanes from odd, even ones from even (no lane crossing). */
static av_always_inline __m256i blend_odd(__m256i even, __m256i odd)
{
    return _mm256_blend_epi32(even, odd, 0xaa);
}

/* The compare's all-ones lanes are -1. */
static av_always_inline __m256i sub1_where_zero(__m256i e, __m256i t)
{
    return _mm256_add_epi32(e, _mm256_cmpeq_epi32(t, _mm256_setzero_si256()));
}

/* The mask lanes of a half widened to the 64-bit lanes that blendv reads. */
static av_always_inline __m256d select_pd_lo(__m256i m, __m256d a, __m256d b)
{
    return _mm256_blendv_pd(a, b, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(LO_HALF(m))));
}

static av_always_inline __m256d select_pd_hi(__m256i m, __m256d a, __m256d b)
{
    return _mm256_blendv_pd(a, b, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(HI_HALF(m))));
}

/* The low halves of the 64-bit lanes interleaved by the blend (lo0 hi0
 * lo1 hi1 | lo2 hi2 lo3 hi3), then put back in order by vpermd. */
static av_always_inline __m256i narrow_k(__m256i lo, __m256i hi)
{
    return _mm256_permutevar8x32_epi32(_mm256_blend_epi32(lo, _mm256_slli_epi64(hi, 32), 0xaa),
                                       _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
}

static int64_t hsum64(__m256i v)
{
    __m128i s = _mm_add_epi64(LO_HALF(v), HI_HALF(v));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

/* shufps works per 128-bit lane, vpermq puts the 64-bit pairs in order. */
static av_always_inline __m256i even_lanes(const uint32_t *p)
{
    __m256 a = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)p));
    __m256 b = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p + 8)));
    __m256 e = _mm256_shuffle_ps(a, b, 0x88);   /* a0 a2 b0 b2 | a4 a6 b4 b6 */
    return _mm256_permute4x64_epi64(_mm256_castps_si256(e), 0xd8);
}

/* packusdw of the two halves: values below 2^16 pass unchanged, in order. */
static av_always_inline void store_u16(uint16_t *p, __m256i v)
{
    _mm_storeu_si128((__m128i *)p, _mm_packus_epi32(LO_HALF(v), HI_HALF(v)));
}

#include "vif_template.h"

void ff_vmaf_vif_statistic_avx2(FFVmafVifAccum *acc,
                                const uint8_t *ref, ptrdiff_t ref_stride,
                                const uint8_t *dis, ptrdiff_t dis_stride,
                                int w, int h, int bpc, int scale, double egl,
                                const uint16_t *log2_tab, void *tmp)
{
    if (w < 8)
        ff_vmaf_vif_statistic(acc, ref, ref_stride, dis, dis_stride, w, h,
                              bpc, scale, egl, log2_tab, tmp);
    else
        vif_statistic(acc, ref, ref_stride, dis, dis_stride, w, h,
                      bpc, scale, egl, log2_tab, tmp);
}

void ff_vmaf_vif_decimate_avx2(uint16_t *dst, ptrdiff_t dst_stride,
                               const uint8_t *src, ptrdiff_t src_stride,
                               int w, int h, int bpc, int scale, void *tmp)
{
    if (w < 16)
        ff_vmaf_vif_decimate(dst, dst_stride, src, src_stride, w, h, bpc, scale, tmp);
    else
        vif_decimate(dst, dst_stride, src, src_stride, w, h, bpc, scale, tmp);
}

FF_VMAF_TARGET_END
