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
 * Integer VIF kernels, AVX-512 (F, BW, VL, DQ): the same bits as vif_dsp.c.
 *
 * vif_template.h at sixteen 32-bit lanes (see there for why each step is
 * exact), the same algorithm and integer arithmetic as vif_avx2.c; this
 * file gives it its loads, half vectors and lane masks.
 *
 * Lane order. The only steps here that move data between 128-bit lanes
 * are the cvtepu8/cvtepu16_epi32 loads (element i to lane i, in order),
 * splitting a vector into its 256-bit halves (castsi512_si256 is columns
 * 0..7, extracti64x4(v, 1) columns 8..15) and joining two halves
 * (inserti64x4(castsi256_si512(lo), hi, 1)), and narrowing 64-bit lanes to
 * 32 bits with vpmovqd (cvtepi64_epi32, which keeps the low half of every
 * 64-bit lane, in order) and 32-bit lanes to 16 bits with vpmovdw
 * (cvtepi32_epi16, in order). No in-lane pack/unpack or permute is used,
 * so nothing depends on the per-128-bit-lane behaviour of those
 * instructions.
 *
 * Compares give masks (__mmask16) instead of vectors; "v and mask" of the
 * AVX2 code is maskz_mov(mask, v), the movemask popcounts are popcounts
 * of the mask.
 *
 * Planes narrower than one vector (or than two for decimation) use the
 * AVX2 versions (which use C below their own widths).
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/attributes.h"
#include "libavutil/macros.h"
#include "libavutil/mem_internal.h"

#include "../vif_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"
#include "vif.h"

#define VIF_BITS 512

FF_VMAF_TARGET_BEGIN(FF_VMAF_AVX512)

/* 16 samples widened to 32-bit lanes, in order. */
#define LD8(p)  _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define LD16(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p)))

/* Columns 0..7 and 8..15 of a vector, and back. */
#define VHALF                __m256i
#define LO_HALF(v)           _mm512_castsi512_si256(v)
#define HI_HALF(v)           _mm512_extracti64x4_epi64(v, 1)
#define JOIN_HALVES(lo, hi)  _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1)
#define MAX0_HALF(v)         _mm256_max_epi32(v, _mm256_setzero_si256())

#define SET1_EPI64(x) _mm512_set1_epi64(x)
/* Truncation toward zero: roundscale with scale 0, as vroundpd 0xb. */
#define TRUNC_PD(v)   _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)

#define VMASK          __mmask16
#define CMPGT_M(a, b)  _mm512_cmpgt_epi32_mask(a, b)
#define AND_M(a, b)    ((__mmask16)((a) & (b)))
#define ANDNOT_M(a, b) ((__mmask16)(~(a) & (b)))
#define MASKZ(m, v)    _mm512_maskz_mov_epi32(m, v)
#define COUNT_M(m)     __builtin_popcount(m)
#define ANY_M(m)       ((m) != 0)

/* The mask 0xaaaa takes the odd 32-bit lanes from odd, as the AVX2 blend
 * 0xaa does (no lane crossing). */
static av_always_inline __m512i blend_odd(__m512i even, __m512i odd)
{
    return _mm512_mask_blend_epi32(0xaaaa, even, odd);
}

static av_always_inline __m512i sub1_where_zero(__m512i e, __m512i t)
{
    __mmask16 z = _mm512_cmpeq_epi32_mask(t, _mm512_setzero_si512());
    return _mm512_mask_sub_epi32(e, z, e, _mm512_set1_epi32(1));
}

/* Bit l of m is column l: its low byte selects among the doubles of
 * columns 0..7, its high byte among those of 8..15. */
static av_always_inline __m512d select_pd_lo(__mmask16 m, __m512d a, __m512d b)
{
    return _mm512_mask_blend_pd((__mmask8)(m & 0xff), a, b);
}

static av_always_inline __m512d select_pd_hi(__mmask16 m, __m512d a, __m512d b)
{
    return _mm512_mask_blend_pd((__mmask8)(m >> 8), a, b);
}

/* vpmovqd of each, in column order: this replaces the AVX2 blend +
 * vpermd interleave fix-up. */
static av_always_inline __m512i narrow_k(__m512i lo, __m512i hi)
{
    return JOIN_HALVES(_mm512_cvtepi64_epi32(lo), _mm512_cvtepi64_epi32(hi));
}

static int64_t hsum64(__m512i v)
{
    __m256i h = _mm256_add_epi64(LO_HALF(v), HI_HALF(v));
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

/*
 * The 32 values p[0..31] read as sixteen 64-bit lanes and narrowed with
 * vpmovqd, which keeps the low (even-index) 32 bits of each 64-bit lane in
 * order: p[0], p[2], ..., p[14] from the first vector and p[16], ...,
 * p[30] from the second. (AVX2 uses shufps + vpermq.)
 */
static av_always_inline __m512i even_lanes(const uint32_t *p)
{
    return JOIN_HALVES(_mm512_cvtepi64_epi32(_mm512_loadu_si512((const void *)p)),
                       _mm512_cvtepi64_epi32(_mm512_loadu_si512((const void *)(p + 16))));
}

/* Below 2^16: vpmovdw (truncating, in column order) gives what AVX2's
 * packusdw does, without its per-128-bit-lane interleave. */
static av_always_inline void store_u16(uint16_t *p, __m512i v)
{
    _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(v));
}

#include "vif_template.h"

void ff_vmaf_vif_statistic_avx512(FFVmafVifAccum *acc,
                                  const uint8_t *ref, ptrdiff_t ref_stride,
                                  const uint8_t *dis, ptrdiff_t dis_stride,
                                  int w, int h, int bpc, int scale, double egl,
                                  const uint16_t *log2_tab, void *tmp)
{
    if (w < 16)
        ff_vmaf_vif_statistic_avx2(acc, ref, ref_stride, dis, dis_stride, w, h,
                                   bpc, scale, egl, log2_tab, tmp);
    else
        vif_statistic(acc, ref, ref_stride, dis, dis_stride, w, h,
                      bpc, scale, egl, log2_tab, tmp);
}

void ff_vmaf_vif_decimate_avx512(uint16_t *dst, ptrdiff_t dst_stride,
                                 const uint8_t *src, ptrdiff_t src_stride,
                                 int w, int h, int bpc, int scale, void *tmp)
{
    if (w < 32)
        ff_vmaf_vif_decimate_avx2(dst, dst_stride, src, src_stride, w, h, bpc, scale, tmp);
    else
        vif_decimate(dst, dst_stride, src, src_stride, w, h, bpc, scale, tmp);
}

FF_VMAF_TARGET_END
