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
 * AVX2 kernels of the integer ADM, bit-exact with adm_dsp.c.
 *
 * Every kernel runs whole vectors over the row and hands the remainder
 * (fewer samples than one vector) to the C kernel, so nothing is read or
 * written outside what the C version touches.
 *
 * 64-bit products use vpmuldq/vpmuludq; AVX2 has no 64-bit arithmetic
 * right shift, so where the sign matters it is built from a logical one,
 * and where only the low 32 bits of a shifted sum are kept the logical
 * shift gives the same bits. The float/double steps of the decouple
 * (libvmaf's angle test and gain limit) are done lane by lane with the
 * same operations, in the same order, as the C code.
 *
 * The decouple, masking and 3-column-sum loops are the same at every
 * scale and are written once, in adm_avx2_template.h, included at the end
 * for scale 0 and for scales 1..3 with the per-scale steps defined here.
 * The DWT, CSF and denominator kernels stay one per scale: their
 * arithmetic differs (16-bit madd and packs at scale 0, 64-bit products
 * and 32-bit stores above; a different rounding of every term).
 */

#include <math.h>
#include <stdint.h>

#include "libavutil/attributes.h"

#include "../adm_dsp.h"
#include "../adm_filter.h"
#include "adm.h"
#include "libavfilter/vmaf/x86/simd.h"

/* The three row pointers p[0..2] advanced by k columns, as an array of
 * element type type *: how a row's remainder goes to the C kernels. */
#define ROWS3(type, p, k) ((type *const[3]){ (p)[0] + (k), (p)[1] + (k), (p)[2] + (k) })

FF_VMAF_TARGET_BEGIN("avx2")

/* Two int16 coefficients per dword, for vpmaddwd on (a, b) sample pairs. */
static av_always_inline __m256i coef_pair(int a, int b)
{
    return _mm256_set1_epi32((int)((uint32_t)(a & 0xffff) | ((uint32_t)b << 16)));
}

static av_always_inline int64_t hsum64(__m256i v)
{
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

/* ---------------------------------------------------------------- DWT */

/* Two taps of int16 pairs: a * (k01 pair) + c * (k23 pair), per dword. */
static av_always_inline __m256i madd2(__m256i a, __m256i c, __m256i k01, __m256i k23)
{
    return _mm256_add_epi32(_mm256_madd_epi16(a, k01), _mm256_madd_epi16(c, k23));
}

/* The 4-tap vertical low and high pass of 16 columns of the int16 rows
 * x0..x3, in 32 bits: l[0], h[0] hold columns 0-3 | 8-11 and l[1], h[1]
 * columns 4-7 | 12-15 (the order of unpacklo / unpackhi). */
static av_always_inline void vert_taps16(__m256i l[2], __m256i h[2], __m256i x0,
                                         __m256i x1, __m256i x2, __m256i x3)
{
    const __m256i l01 = coef_pair(ADM_LO0, ADM_LO1), l23 = coef_pair(ADM_LO2, ADM_LO3);
    const __m256i h01 = coef_pair(ADM_HI0, ADM_HI1), h23 = coef_pair(ADM_HI2, ADM_HI3);
    __m256i a = _mm256_unpacklo_epi16(x0, x1), b = _mm256_unpackhi_epi16(x0, x1);
    __m256i c = _mm256_unpacklo_epi16(x2, x3), d = _mm256_unpackhi_epi16(x2, x3);

    l[0] = madd2(a, c, l01, l23);
    l[1] = madd2(b, d, l01, l23);
    h[0] = madd2(a, c, h01, h23);
    h[1] = madd2(b, d, h01, h23);
}

/* (v + rnd) >> sh of vert_taps16()'s halves v0, v1, as 16 int16 in
 * column order. Every result fits int16 (|sum| < 2^31 before a shift of 8
 * or more), so the saturating pack is the C truncation. */
static av_always_inline __m256i round_pack16(__m256i v0, __m256i v1, __m256i rnd, __m128i sh)
{
    return _mm256_packs_epi32(_mm256_sra_epi32(_mm256_add_epi32(v0, rnd), sh),
                              _mm256_sra_epi32(_mm256_add_epi32(v1, rnd), sh));
}

/* 16 samples of one input row from column j, minus the mid value m
 * (off): 8-bit ones widened first; 16-bit ones wrap to the right int16
 * even for m = 32768. */
static av_always_inline __m256i load_centred16(const void *row, int j, int wide,
                                               __m256i off)
{
    __m256i x = wide ? _mm256_loadu_si256((const __m256i *)((const uint16_t *)row + j))
                     : _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)((const uint8_t *)row + j)));
    return _mm256_sub_epi16(x, off);
}

static av_always_inline void dwt_vert_s0(int16_t *lo, int16_t *hi, const void *const src[4],
                                         int w, int bpc, int wide)
{
    /* In locals: the stores could alias src[] for the compiler. */
    const uint8_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];
    const int m = 1 << (bpc - 1);
    const __m256i rnd = _mm256_set1_epi32(m);
    const __m256i off = _mm256_set1_epi16((int16_t)m);
    const __m128i sh  = _mm_cvtsi32_si128(bpc);
    const int sz = wide ? 2 : 1;
    const int wv = w & ~15;

    for (int j = 0; j < wv; j += 16) {
        __m256i l[2], h[2];

        vert_taps16(l, h, load_centred16(s0, j, wide, off), load_centred16(s1, j, wide, off),
                    load_centred16(s2, j, wide, off), load_centred16(s3, j, wide, off));
        _mm256_storeu_si256((__m256i *)(lo + j), round_pack16(l[0], l[1], rnd, sh));
        _mm256_storeu_si256((__m256i *)(hi + j), round_pack16(h[0], h[1], rnd, sh));
    }
    if (wv < w) {
        const void *const t[4] = { s0 + wv * sz, s1 + wv * sz, s2 + wv * sz, s3 + wv * sz };
        ff_vmaf_adm_dwt_vert_s0(lo + wv, hi + wv, t, w - wv, bpc);
    }
}

void ff_vmaf_adm_dwt_vert_s0_avx2(int16_t *lo, int16_t *hi,
                                  const void *const src[4], int w, int bpc)
{
    /* One copy per sample size, each with its own load. */
    if (bpc == 8)
        dwt_vert_s0(lo, hi, src, w, 8, 0);
    else
        dwt_vert_s0(lo, hi, src, w, bpc, 1);
}

void ff_vmaf_adm_dwt_horiz_s0_avx2(int16_t *lo, int16_t *hi, const int16_t *in,
                                   int bw)
{
    const __m256i l01 = coef_pair(ADM_LO0, ADM_LO1), l23 = coef_pair(ADM_LO2, ADM_LO3);
    const __m256i h01 = coef_pair(ADM_HI0, ADM_HI1), h23 = coef_pair(ADM_HI2, ADM_HI3);
    const __m256i rnd = _mm256_set1_epi32(32768);
    const int bv = bw & ~15;

    for (int j = 0; j < bv; j += 16) {
        /* dword k of a: (in[2(j+k)-1], in[2(j+k)]), of b: the next pair. */
        const int16_t *x = in + 2 * j - 1;
        __m256i a0 = _mm256_loadu_si256((const __m256i *)x);
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(x + 16));
        __m256i b0 = _mm256_loadu_si256((const __m256i *)(x + 2));
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(x + 18));
        __m256i l0 = madd2(a0, b0, l01, l23), l1 = madd2(a1, b1, l01, l23);
        __m256i h0 = madd2(a0, b0, h01, h23), h1 = madd2(a1, b1, h01, h23);

        /* As round_pack16(), but by an immediate 16, and with l0, l1 in
         * column order: the permute undoes the packs' lane interleave. */
        l0 = _mm256_srai_epi32(_mm256_add_epi32(l0, rnd), 16);
        l1 = _mm256_srai_epi32(_mm256_add_epi32(l1, rnd), 16);
        h0 = _mm256_srai_epi32(_mm256_add_epi32(h0, rnd), 16);
        h1 = _mm256_srai_epi32(_mm256_add_epi32(h1, rnd), 16);
        _mm256_storeu_si256((__m256i *)(lo + j),
                            _mm256_permute4x64_epi64(_mm256_packs_epi32(l0, l1), 0xd8));
        _mm256_storeu_si256((__m256i *)(hi + j),
                            _mm256_permute4x64_epi64(_mm256_packs_epi32(h0, h1), 0xd8));
    }
    if (bv < bw)
        ff_vmaf_adm_dwt_horiz_s0(lo + bv, hi + bv, in + 2 * bv, bw - bv);
}

/* 16 int32 columns in order from vert_taps16()'s halves v0, v1. */
static av_always_inline void store_cols32(int32_t *p, __m256i v0, __m256i v1)
{
    _mm256_storeu_si256((__m256i *)p,       _mm256_permute2x128_si256(v0, v1, 0x20));
    _mm256_storeu_si256((__m256i *)(p + 8), _mm256_permute2x128_si256(v0, v1, 0x31));
}

void ff_vmaf_adm_dwt_vert_s1_avx2(int32_t *lo, int32_t *hi,
                                  const int16_t *const src[4], int w)
{
    const int16_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];
    const int wv = w & ~15;

    for (int j = 0; j < wv; j += 16) {
#define LD(s) _mm256_loadu_si256((const __m256i *)((s) + j))
        __m256i l[2], h[2];

        /* Unrounded, unshifted: the 32-bit sums are the output. */
        vert_taps16(l, h, LD(s0), LD(s1), LD(s2), LD(s3));
#undef LD
        store_cols32(lo + j, l[0], l[1]);
        store_cols32(hi + j, h[0], h[1]);
    }
    if (wv < w) {
        const int16_t *const t[4] = { s0 + wv, s1 + wv, s2 + wv, s3 + wv };
        ff_vmaf_adm_dwt_vert_s1(lo + wv, hi + wv, t, w - wv);
    }
}

/* 64-bit 4-tap sum of the even dwords of x0..x3, plus rnd. */
static av_always_inline __m256i fir4_64(__m256i x0, __m256i x1, __m256i x2, __m256i x3,
                                        int c0, int c1, int c2, int c3, __m256i rnd)
{
    __m256i a = _mm256_add_epi64(_mm256_mul_epi32(x0, _mm256_set1_epi32(c0)),
                                 _mm256_mul_epi32(x1, _mm256_set1_epi32(c1)));
    __m256i b = _mm256_add_epi64(_mm256_mul_epi32(x2, _mm256_set1_epi32(c2)),
                                 _mm256_mul_epi32(x3, _mm256_set1_epi32(c3)));
    return _mm256_add_epi64(_mm256_add_epi64(a, b), rnd);
}

void ff_vmaf_adm_dwt_vert_s23_avx2(int32_t *lo, int32_t *hi,
                                   const int32_t *const src[4], int w)
{
    const int32_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];
    const __m256i rnd = _mm256_set1_epi64x(32768);
    const int wv = w & ~7;

    for (int j = 0; j < wv; j += 8) {
        __m256i x0 = _mm256_loadu_si256((const __m256i *)(s0 + j));
        __m256i x1 = _mm256_loadu_si256((const __m256i *)(s1 + j));
        __m256i x2 = _mm256_loadu_si256((const __m256i *)(s2 + j));
        __m256i x3 = _mm256_loadu_si256((const __m256i *)(s3 + j));
        __m256i y0 = _mm256_srli_epi64(x0, 32), y1 = _mm256_srli_epi64(x1, 32);
        __m256i y2 = _mm256_srli_epi64(x2, 32), y3 = _mm256_srli_epi64(x3, 32);
        __m256i le = fir4_64(x0, x1, x2, x3, ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, rnd);
        __m256i lo_ = fir4_64(y0, y1, y2, y3, ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, rnd);
        __m256i he = fir4_64(x0, x1, x2, x3, ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, rnd);
        __m256i ho = fir4_64(y0, y1, y2, y3, ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, rnd);

        /* (int32)(sum >> 16) is bits 16..47 of the sum. */
        _mm256_storeu_si256((__m256i *)(lo + j),
                            _mm256_blend_epi32(_mm256_srli_epi64(le, 16),
                                               _mm256_slli_epi64(lo_, 16), 0xaa));
        _mm256_storeu_si256((__m256i *)(hi + j),
                            _mm256_blend_epi32(_mm256_srli_epi64(he, 16),
                                               _mm256_slli_epi64(ho, 16), 0xaa));
    }
    if (wv < w) {
        const int32_t *const t[4] = { s0 + wv, s1 + wv, s2 + wv, s3 + wv };
        ff_vmaf_adm_dwt_vert_s23(lo + wv, hi + wv, t, w - wv);
    }
}

void ff_vmaf_adm_dwt_horiz_s123_avx2(int32_t *lo, int32_t *hi, const int32_t *in,
                                     int bw, int shift)
{
    const __m256i rnd = _mm256_set1_epi64x(1LL << (shift - 1));
    const __m128i sh  = _mm_cvtsi32_si128(shift);
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const int bv = bw & ~7;

    for (int j = 0; j < bv; j += 8) {
        const int32_t *x = in + 2 * j - 1;
        /* Outputs j..j+3 from qwords (x[2k], x[2k+1]) of v0 and the
         * pairs after them in v1; j+4..j+7 likewise from v2, v3. */
        __m256i v0 = _mm256_loadu_si256((const __m256i *)x);
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(x + 2));
        __m256i v2 = _mm256_loadu_si256((const __m256i *)(x + 8));
        __m256i v3 = _mm256_loadu_si256((const __m256i *)(x + 10));
        __m256i o0 = _mm256_srli_epi64(v0, 32), o1 = _mm256_srli_epi64(v1, 32);
        __m256i o2 = _mm256_srli_epi64(v2, 32), o3 = _mm256_srli_epi64(v3, 32);
        __m256i la = _mm256_srl_epi64(fir4_64(v0, o0, v1, o1,
                                              ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, rnd), sh);
        __m256i lb = _mm256_srl_epi64(fir4_64(v2, o2, v3, o3,
                                              ADM_LO0, ADM_LO1, ADM_LO2, ADM_LO3, rnd), sh);
        __m256i ha = _mm256_srl_epi64(fir4_64(v0, o0, v1, o1,
                                              ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, rnd), sh);
        __m256i hb = _mm256_srl_epi64(fir4_64(v2, o2, v3, o3,
                                              ADM_HI0, ADM_HI1, ADM_HI2, ADM_HI3, rnd), sh);

        /* The low 32 bits of the shifted sums are the int32 results. */
        la = _mm256_blend_epi32(la, _mm256_slli_epi64(lb, 32), 0xaa);
        ha = _mm256_blend_epi32(ha, _mm256_slli_epi64(hb, 32), 0xaa);
        _mm256_storeu_si256((__m256i *)(lo + j), _mm256_permutevar8x32_epi32(la, idx));
        _mm256_storeu_si256((__m256i *)(hi + j), _mm256_permutevar8x32_epi32(ha, idx));
    }
    if (bv < bw)
        ff_vmaf_adm_dwt_horiz_s123(lo + bv, hi + bv, in + 2 * bv, bw - bv, shift);
}

/* ----------------------------------------------------------- decouple */

/* Float of values in (-2^31, 2^31] that wrapped to int32 (2^31 is
 * INT32_MIN). */
static av_always_inline __m256 cvt_wrapped_ps(__m256i x)
{
    const __m256i min = _mm256_set1_epi32(INT32_MIN);
    __m256 f = _mm256_cvtepi32_ps(x);
    return _mm256_xor_ps(f, _mm256_castsi256_ps(_mm256_and_si256(_mm256_cmpeq_epi32(x, min), min)));
}

/* The angle test of 4 lanes, given (double)(float)x / 4096 of ot, oo
 * and tt (the division by 2^12 is exact in float and double alike). */
static av_always_inline __m256d angle4(__m256d d, __m256d oo, __m256d tt)
{
    const __m256d cs = _mm256_set1_pd(ADM_COS_1DEG_SQ);
    __m256d r = _mm256_mul_pd(_mm256_mul_pd(cs, oo), tt);

    return _mm256_and_pd(_mm256_cmp_pd(d, _mm256_setzero_pd(), _CMP_GE_OQ),
                         _mm256_cmp_pd(_mm256_mul_pd(d, d), r, _CMP_GE_OQ));
}

/* Dword mask of 8 lanes from two qword masks of 4. */
static av_always_inline __m256i join_masks(__m256d m0, __m256d m1)
{
    __m256 s = _mm256_shuffle_ps(_mm256_castpd_ps(m0), _mm256_castpd_ps(m1),
                                 _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), 0xd8);
}

/* Gain limit of 4 lanes: trunc(o > 0 ? min(re, t) : max(re, t)), the C
 * code's up/dn selection (the comparisons are those of min/max_pd). */
static av_always_inline __m128i limit4(__m128i rv, __m128i t, __m128i opos, __m256d egl)
{
    __m256d re = _mm256_mul_pd(_mm256_cvtepi32_pd(rv), egl);
    __m256d td = _mm256_cvtepi32_pd(t);
    __m256d m  = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(opos));
    return _mm256_cvttpd_epi32(_mm256_blendv_pd(_mm256_max_pd(re, td),
                                                 _mm256_min_pd(re, td), m));
}

/*
 * Whether rv * egl is exact in float for every scale-0 rv (|rv| <= 2^15,
 * at most 15 significant bits): egl of at most 8 significant bits, as the
 * default 100. Then the gain limit can run on 8 float lanes and give the
 * C code's double results.
 */
static int egl_exact_in_float(double egl)
{
    int e;
    double m = ldexp(frexp(egl, &e), 8);

    return egl >= 0x1p-20 && egl <= 0x1p20 && m == floor(m);
}

/* The enhancement gain limit egl, as the decouple's gain limit uses it. */
typedef struct GainLimit {
    __m256d egl;
    __m256  eglf;
    int     in_float;   /* egl_exact_in_float(), where the scale allows it */
} GainLimit;

/* float_ok only at scale 0, where |rv| <= 2^15: above it rv reaches
 * 2^31, and rv * egl is no longer exact in float. */
static av_always_inline GainLimit gain_limit_init(double egl, int float_ok)
{
    return (GainLimit){ .egl      = _mm256_set1_pd(egl),
                        .eglf     = _mm256_set1_ps((float)egl),
                        .in_float = float_ok && egl_exact_in_float(egl) };
}

/* rv with the gain limit in the lanes of cond (angle within one degree
 * and k > 0), the last step of the restore at every scale. */
static av_always_inline __m256i limit_gain8(__m256i rv, __m256i o, __m256i t, __m256i cond,
                                            const GainLimit *g)
{
    __m256i opos, lim;

    if (_mm256_testz_si256(cond, cond))
        return rv;
    opos = _mm256_cmpgt_epi32(o, _mm256_setzero_si256());
    if (g->in_float) {
        __m256 re = _mm256_mul_ps(_mm256_cvtepi32_ps(rv), g->eglf);
        __m256 tf = _mm256_cvtepi32_ps(t);
        lim = _mm256_cvttps_epi32(_mm256_blendv_ps(_mm256_max_ps(re, tf), _mm256_min_ps(re, tf),
                                                   _mm256_castsi256_ps(opos)));
    } else {
        lim = _mm256_set_m128i(limit4(_mm256_extracti128_si256(rv, 1),
                                      _mm256_extracti128_si256(t, 1),
                                      _mm256_extracti128_si256(opos, 1), g->egl),
                               limit4(_mm256_castsi256_si128(rv), _mm256_castsi256_si128(t),
                                      _mm256_castsi256_si128(opos), g->egl));
    }
    return _mm256_blendv_epi8(rv, lim, cond);
}

/* Angle masks of 8 lanes of int16 bands, as dwords. */
static av_always_inline __m256i angle8_s0(const int16_t *ph, const int16_t *pv,
                                          const int16_t *qh, const int16_t *qv)
{
    const __m256 q = _mm256_set1_ps(1.0f / 4096.0f);
    __m128i oh = _mm_loadu_si128((const __m128i *)ph);
    __m128i ov = _mm_loadu_si128((const __m128i *)pv);
    __m128i th = _mm_loadu_si128((const __m128i *)qh);
    __m128i tv = _mm_loadu_si128((const __m128i *)qv);
    __m256i ohv = _mm256_set_m128i(_mm_unpackhi_epi16(oh, ov), _mm_unpacklo_epi16(oh, ov));
    __m256i thv = _mm256_set_m128i(_mm_unpackhi_epi16(th, tv), _mm_unpacklo_epi16(th, tv));
    /* Pair sums wrap only at 2^31, which cvt_wrapped_ps() restores. */
    __m256 fot = _mm256_mul_ps(cvt_wrapped_ps(_mm256_madd_epi16(ohv, thv)), q);
    __m256 foo = _mm256_mul_ps(cvt_wrapped_ps(_mm256_madd_epi16(ohv, ohv)), q);
    __m256 ftt = _mm256_mul_ps(cvt_wrapped_ps(_mm256_madd_epi16(thv, thv)), q);
    __m256d m0 = angle4(_mm256_cvtps_pd(_mm256_castps256_ps128(fot)),
                        _mm256_cvtps_pd(_mm256_castps256_ps128(foo)),
                        _mm256_cvtps_pd(_mm256_castps256_ps128(ftt)));
    __m256d m1 = angle4(_mm256_cvtps_pd(_mm256_extractf128_ps(fot, 1)),
                        _mm256_cvtps_pd(_mm256_extractf128_ps(foo, 1)),
                        _mm256_cvtps_pd(_mm256_extractf128_ps(ftt, 1)));

    return join_masks(m0, m1);
}

static av_always_inline __m256i load_band8_s0(const int16_t *p)
{
    return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p));
}

/* Restored values of 8 scale-0 lanes (o, t sign-extended to int32). */
static av_always_inline __m256i restore8_s0(__m256i o, __m256i t, __m256i angle,
                                            const int32_t *lut, const GainLimit *g)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i r64  = _mm256_set1_epi64x(16384);
    __m256i d = _mm256_i32gather_epi32(lut, _mm256_abs_epi32(o), 4);
    __m256i ve, vo, k, rv;

    /* lut[0] is 0, so zeroing d for o = 0 changes nothing. */
    d  = _mm256_sign_epi32(d, o);
    ve = _mm256_add_epi64(_mm256_mul_epi32(d, t), r64);
    vo = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(d, 32),
                                           _mm256_srli_epi64(t, 32)), r64);
    /* |d * t| <= 2^45, so v >> 15 fits an int32: bits 15..46 of v, which
     * the logical shifts give too. Then the clip, in 32 bits. */
    k  = _mm256_blend_epi32(_mm256_srli_epi64(ve, 15), _mm256_slli_epi64(vo, 17), 0xaa);
    k  = _mm256_min_epi32(_mm256_max_epi32(k, zero), _mm256_set1_epi32(32768));

    rv = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k, o),
                                            _mm256_set1_epi32(16384)), 15);
    /* k > 0 implies o != 0 (d = 0 gives k = 0). */
    return limit_gain8(rv, o, t, _mm256_and_si256(angle, _mm256_cmpgt_epi32(k, zero)), g);
}

/* r and a truncated to int16, as the C stores them. */
static av_always_inline void store_bands8_s0(int16_t *r, int16_t *a, __m256i rr, __m256i aa)
{
    const __m256i m16 = _mm256_set1_epi32(0xffff);
    __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(_mm256_and_si256(rr, m16),
                                                             _mm256_and_si256(aa, m16)), 0xd8);

    _mm_storeu_si128((__m128i *)r, _mm256_castsi256_si128(p));
    _mm_storeu_si128((__m128i *)a, _mm256_extracti128_si256(p, 1));
}

/* (double)(float)x / 4096 of x exact in double. */
static av_always_inline __m256d round_ps_q(__m256d x)
{
    return _mm256_mul_pd(_mm256_cvtps_pd(_mm256_cvtpd_ps(x)), _mm256_set1_pd(1.0 / 4096.0));
}

/*
 * (double)(float)x / 4096 of int64 lanes, the float correctly rounded as the C
 * conversion does: |x| >= 2^53 first loses its low 11 bits into a sticky
 * bit (below the float's rounding bit, so the rounding is unchanged),
 * which leaves at most 53 significant bits, exact in double.
 */
static av_always_inline __m256d cvt_i64_ps_pd(__m256i x)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i low  = _mm256_set1_epi64x(0x7ff);
    __m256i sgn = _mm256_cmpgt_epi64(zero, x);
    __m256i a   = _mm256_sub_epi64(_mm256_xor_si256(x, sgn), sgn);
    __m256i small = _mm256_cmpeq_epi64(_mm256_srli_epi64(a, 53), zero);
    __m256i stick = _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(a, low), zero),
                                        _mm256_set1_epi64x(0x800));
    __m256i lo32, hi32;
    __m256d d;

    a = _mm256_blendv_epi8(_mm256_or_si256(_mm256_andnot_si256(low, a), stick), a, small);
    /* uint64 to double: 2^84 + hi * 2^32 and 2^52 + lo, recombined with
     * one rounding, exact here. */
    lo32 = _mm256_blend_epi32(a, _mm256_set1_epi64x(0x4330000000000000LL), 0xaa);
    hi32 = _mm256_or_si256(_mm256_srli_epi64(a, 32), _mm256_set1_epi64x(0x4530000000000000LL));
    d = _mm256_add_pd(_mm256_sub_pd(_mm256_castsi256_pd(hi32),
                                    _mm256_set1_pd(0x1.00000001p84)),
                      _mm256_castsi256_pd(lo32));
    d = _mm256_xor_pd(d, _mm256_castsi256_pd(_mm256_and_si256(sgn, _mm256_set1_epi64x(INT64_MIN))));
    return round_ps_q(d);
}

/*
 * a * b + c * d of 4 int32 lanes as (double)(float)x / 4096, the float
 * rounded once, as in C: with exact set the lanes are below 2^26 in
 * magnitude, so the products and their sum (< 2^53) are exact in double;
 * else they are formed in int64 and rounded by cvt_i64_ps_pd().
 */
static av_always_inline __m256d dot2_q(__m128i a, __m128i b, __m128i c, __m128i d, int exact)
{
    if (exact)
        return round_ps_q(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(a), _mm256_cvtepi32_pd(b)),
                                        _mm256_mul_pd(_mm256_cvtepi32_pd(c), _mm256_cvtepi32_pd(d))));
    return cvt_i64_ps_pd(_mm256_add_epi64(
        _mm256_mul_epi32(_mm256_cvtepi32_epi64(a), _mm256_cvtepi32_epi64(b)),
        _mm256_mul_epi32(_mm256_cvtepi32_epi64(c), _mm256_cvtepi32_epi64(d))));
}

/* Angle masks of the 8 lanes of oh, ov, th, tv, as dwords (dot2_q()'s
 * exact). */
static av_always_inline __m256i angle8_dots(__m256i oh, __m256i ov, __m256i th, __m256i tv,
                                            int exact)
{
    __m256d m[2];

    for (int h = 0; h < 2; h++) {
#define HALF(v) (h ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v))
        __m128i oh4 = HALF(oh), ov4 = HALF(ov), th4 = HALF(th), tv4 = HALF(tv);
#undef HALF
        m[h] = angle4(dot2_q(oh4, th4, ov4, tv4, exact), dot2_q(oh4, oh4, ov4, ov4, exact),
                      dot2_q(th4, th4, tv4, tv4, exact));
    }
    return join_masks(m[0], m[1]);
}

/* Angle masks of 8 lanes of int32 bands, as dwords. */
static av_always_inline __m256i angle8_s123(const int32_t *ph, const int32_t *pv,
                                            const int32_t *qh, const int32_t *qv)
{
#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
    const __m256i oh = LD(ph), ov = LD(pv), th = LD(qh), tv = LD(qv);
#undef LD
    __m256i any = _mm256_or_si256(_mm256_or_si256(_mm256_abs_epi32(oh), _mm256_abs_epi32(ov)),
                                  _mm256_or_si256(_mm256_abs_epi32(th), _mm256_abs_epi32(tv)));

    /* One copy for the usual small bands, in double, one for the rest. */
    if (_mm256_testz_si256(any, _mm256_set1_epi32(~((1 << 26) - 1))))
        return angle8_dots(oh, ov, th, tv, 1);
    return angle8_dots(oh, ov, th, tv, 0);
}

/* d * t + 2^(sh - 1), clamped so that >> sh is clip(.., 0, 32768), for
 * the even dwords of d and t and the qword shift counts sh. */
static av_always_inline __m256i gain_q(__m256i d, __m256i t, __m256i sh)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1);
    __m256i v    = _mm256_add_epi64(_mm256_mul_epi32(d, t),
                                    _mm256_srli_epi64(_mm256_sllv_epi64(one, sh), 1));
    __m256i kmax = _mm256_sub_epi64(_mm256_sllv_epi64(_mm256_set1_epi64x(32769), sh), one);

    v = _mm256_and_si256(v, _mm256_cmpgt_epi64(v, zero));
    v = _mm256_blendv_epi8(v, kmax, _mm256_cmpgt_epi64(v, kmax));
    return _mm256_srlv_epi64(v, sh);
}

/* Restored values of 8 lanes of scales 1..3. */
static av_always_inline __m256i restore8_s123(__m256i o, __m256i t, __m256i angle,
                                              const int32_t *lut, const GainLimit *g)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i r15  = _mm256_set1_epi64x(16384);
    const __m256i lo32 = _mm256_set1_epi64x(0xffffffff);
    /* |o| as uint32 (2^31 for INT32_MIN). */
    __m256i ao = _mm256_abs_epi32(o);
    /* s = max(floor(log2|o|) - 14, 0), from the exponent of the float of
     * |o| >> 7 (below 2^24 + 1, so exact): the C code's rounding of |o| to
     * 15 significant bits, m = (|o| + 2^(s-1)) >> s. */
    __m256i e  = _mm256_srli_epi32(_mm256_castps_si256(
                     _mm256_cvtepi32_ps(_mm256_srli_epi32(ao, 7))), 23);
    __m256i s  = _mm256_max_epi32(_mm256_sub_epi32(e, _mm256_set1_epi32(127 + 7)), zero);
    __m256i m  = _mm256_srlv_epi32(_mm256_add_epi32(ao, _mm256_srli_epi32(
                     _mm256_sllv_epi32(_mm256_set1_epi32(1), s), 1)), s);
    __m256i d  = _mm256_sign_epi32(_mm256_i32gather_epi32(lut, m, 4), o);
    __m256i sh = _mm256_add_epi32(s, _mm256_set1_epi32(15));
    __m256i ke = gain_q(d, t, _mm256_and_si256(sh, lo32));
    __m256i ko = gain_q(_mm256_srli_epi64(d, 32), _mm256_srli_epi64(t, 32),
                        _mm256_srli_epi64(sh, 32));
    __m256i k  = _mm256_or_si256(ke, _mm256_slli_epi64(ko, 32));
    /* |k * o| <= 2^46: (k * o + 2^14) >> 15 is an int32, bits 15..46. */
    __m256i re_ = _mm256_add_epi64(_mm256_mul_epi32(k, o), r15);
    __m256i ro_ = _mm256_add_epi64(_mm256_mul_epi32(ko, _mm256_srli_epi64(o, 32)), r15);
    __m256i rv  = _mm256_blend_epi32(_mm256_srli_epi64(re_, 15), _mm256_slli_epi64(ro_, 17), 0xaa);

    /* k > 0 implies o != 0 (m = 0 gives d = 0, then k = 0). */
    return limit_gain8(rv, o, t, _mm256_and_si256(angle, _mm256_cmpgt_epi32(k, zero)), g);
}

static av_always_inline __m256i load_band8_s123(const int32_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static av_always_inline void store_bands8_s123(int32_t *r, int32_t *a, __m256i rr, __m256i aa)
{
    _mm256_storeu_si256((__m256i *)r, rr);
    _mm256_storeu_si256((__m256i *)a, aa);
}

/* ---------------------------------------------------------------- CSF */

static av_always_inline __m256i sext16(__m256i x)
{
    return _mm256_srai_epi32(_mm256_slli_epi32(x, 16), 16);
}

void ff_vmaf_adm_csf_s0_avx2(int32_t *flt_sum, int32_t *ctr_sum,
                             const int16_t *const src[3], int n,
                             const uint16_t rf[3])
{
    const __m256i rf_h = _mm256_set1_epi32(rf[0]), rf_v = _mm256_set1_epi32(rf[1]);
    const __m256i rf_d = _mm256_set1_epi32(rf[2]);
    const __m256i r15 = _mm256_set1_epi32(16384), r17 = _mm256_set1_epi32(65535);
    const __m256i r12 = _mm256_set1_epi32(2048);
    const __m256i f1 = _mm256_set1_epi32(4369), f2 = _mm256_set1_epi32(8738);
    const int nv = n & ~7;

    for (int j = 0; j < nv; j += 8) {
#define LD(p) _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)((p) + j)))
        __m256i ch = _mm256_abs_epi32(sext16(_mm256_srai_epi32(
                         _mm256_add_epi32(_mm256_mullo_epi32(rf_h, LD(src[0])), r15), 15)));
        __m256i cv = _mm256_abs_epi32(sext16(_mm256_srai_epi32(
                         _mm256_add_epi32(_mm256_mullo_epi32(rf_v, LD(src[1])), r15), 15)));
        __m256i cd = _mm256_abs_epi32(sext16(_mm256_srai_epi32(
                         _mm256_add_epi32(_mm256_mullo_epi32(rf_d, LD(src[2])), r17), 17)));
#undef LD
#define TERM(f, c) sext16(_mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(f, c), r12), 12))
        __m256i fs = _mm256_add_epi32(_mm256_add_epi32(TERM(f1, ch), TERM(f1, cv)), TERM(f1, cd));
        __m256i cs = _mm256_add_epi32(_mm256_add_epi32(TERM(f2, ch), TERM(f2, cv)), TERM(f2, cd));
#undef TERM
        _mm256_storeu_si256((__m256i *)(flt_sum + j), fs);
        _mm256_storeu_si256((__m256i *)(ctr_sum + j), cs);
    }
    if (nv < n)
        ff_vmaf_adm_csf_s0(flt_sum + nv, ctr_sum + nv, ROWS3(const int16_t, src, nv), n - nv, rf);
}

void ff_vmaf_adm_csf_s123_avx2(int32_t *const dst[3], int64_t *flt_sum,
                               int64_t *ctr_sum, const int32_t *const src[3],
                               int n, const uint32_t rf[3])
{
    const __m256i r28 = _mm256_set1_epi64x(1 << 27);
    const __m256i r32 = _mm256_set1_epi64x(1LL << 31);
    const __m256i f1  = _mm256_set1_epi64x(143165577), f2 = _mm256_set1_epi64x(286331153);
    const int nv = n & ~7;

    for (int j = 0; j < nv; j += 8) {
        __m256i fs = _mm256_setzero_si256(), cs = _mm256_setzero_si256();

        for (int b = 0; b < 3; b++) {
            const __m256i rfb = _mm256_set1_epi64x(rf[b]);
            const __m256i rhi = _mm256_set1_epi64x((int64_t)((uint64_t)rf[b] << 32));
            __m256i x  = _mm256_loadu_si256((const __m256i *)(src[b] + j));
            __m256i sg = _mm256_srai_epi32(x, 31);
            /* uint32 * int32 from the unsigned products of the even and
             * the odd lanes, corrected for negative x. */
            __m256i pe = _mm256_sub_epi64(_mm256_mul_epu32(rfb, x),
                                          _mm256_and_si256(_mm256_shuffle_epi32(sg, 0xa0), rhi));
            __m256i po = _mm256_sub_epi64(_mm256_mul_epu32(rfb, _mm256_srli_epi64(x, 32)),
                                          _mm256_and_si256(_mm256_shuffle_epi32(sg, 0xf5), rhi));
            /* (int32)((p + 2^27) >> 28): bits 28..59. */
            __m256i c  = _mm256_blend_epi32(_mm256_srli_epi64(_mm256_add_epi64(pe, r28), 28),
                                            _mm256_slli_epi64(_mm256_add_epi64(po, r28), 4), 0xaa);
            __m256i ac = _mm256_abs_epi32(c), aco = _mm256_srli_epi64(ac, 32);
            /* Each term is the high dword of its product minus 2^31;
             * |term| < 2^28, so three add up in int32. */
            __m256i tf = _mm256_blend_epi32(
                _mm256_srli_epi64(_mm256_sub_epi64(_mm256_mul_epu32(ac, f1), r32), 32),
                _mm256_sub_epi64(_mm256_mul_epu32(aco, f1), r32), 0xaa);
            __m256i tc = _mm256_blend_epi32(
                _mm256_srli_epi64(_mm256_sub_epi64(_mm256_mul_epu32(ac, f2), r32), 32),
                _mm256_sub_epi64(_mm256_mul_epu32(aco, f2), r32), 0xaa);

            _mm256_storeu_si256((__m256i *)(dst[b] + j), c);
            fs = _mm256_add_epi32(fs, tf);
            cs = _mm256_add_epi32(cs, tc);
        }
        _mm256_storeu_si256((__m256i *)(flt_sum + j),
                            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(fs)));
        _mm256_storeu_si256((__m256i *)(flt_sum + j + 4),
                            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(fs, 1)));
        _mm256_storeu_si256((__m256i *)(ctr_sum + j),
                            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(cs)));
        _mm256_storeu_si256((__m256i *)(ctr_sum + j + 4),
                            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(cs, 1)));
    }
    if (nv < n)
        ff_vmaf_adm_csf_s123(ROWS3(int32_t, dst, nv), flt_sum + nv, ctr_sum + nv,
                             ROWS3(const int32_t, src, nv), n - nv, rf);
}

/* ------------------------------------------------------------ masking */

/* Rounded cube of x < 2^30 (p = 29, 30) or x < 2^31 (p = 30): no
 * intermediate reaches 2^63, so unsigned products and logical shifts are
 * the C int64 arithmetic. */
static av_always_inline __m256i cube_fast(__m256i x, __m256i prnd, int p,
                                          __m256i crnd, __m128i c)
{
    __m256i x2 = _mm256_add_epi64(_mm256_mul_epu32(x, x), prnd);
    x2 = _mm256_srli_epi64(x2, p);
    return _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(x2, x), crnd), c);
}

/* Rounded cubes of 8 dword lanes x < 2^30, added to acc. */
static av_always_inline __m256i cube8_add(__m256i acc, __m256i x, __m256i prnd, int p,
                                          __m256i crnd, __m128i c)
{
    __m256i xo = _mm256_srli_epi64(x, 32);
    __m256i ce = cube_fast(x, prnd, p, crnd, c);   /* even lanes: low dwords */
    __m256i co = cube_fast(xo, prnd, p, crnd, c);
    return _mm256_add_epi64(acc, _mm256_add_epi64(ce, co));
}

typedef struct CMConsts_s0 {
    __m256i rf[3];
    __m256i rhv, rd;    /* rounding of the cube shifts c_hv, c_d */
    __m128i chv, cd;
} CMConsts_s0;

static av_always_inline CMConsts_s0 cm_consts_s0(const uint16_t rf[3], int c_hv, int c_d)
{
    return (CMConsts_s0){
        .rf  = { _mm256_set1_epi32(rf[0]), _mm256_set1_epi32(rf[1]),
                 _mm256_set1_epi32(rf[2]) },
        .rhv = _mm256_set1_epi64x(c_hv > 0 ? 1LL << (c_hv - 1) : 0),
        .rd  = _mm256_set1_epi64x(c_d > 0 ? 1LL << (c_d - 1) : 0),
        .chv = _mm_cvtsi32_si128(c_hv),
        .cd  = _mm_cvtsi32_si128(c_d),
    };
}

/* Adds the masked cubes of the 8 scale-0 columns at j (thresholds thr)
 * to acc; returns 0, adding nothing, where values are too large for the
 * products here. */
static av_always_inline int cm_cubes_s0(__m256i acc[3], const int16_t *const s[3], int j,
                                        __m256i thr, const CMConsts_s0 *k)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i big  = _mm256_set1_epi64x(~((1LL << 30) - 1));
    const __m256i big32 = _mm256_set1_epi32(~((1 << 30) - 1));
    const __m256i thr_big = _mm256_set1_epi32(~((1 << 18) - 1));
    const __m256i p29  = _mm256_set1_epi64x(1 << 28), p30 = _mm256_set1_epi64x(1 << 29);
    __m256i av[3], x[3][2], any;

    for (int b = 0; b < 3; b++) {
        __m128i sv = _mm_loadu_si128((const __m128i *)(s[b] + j));
        /* |s * rf| < 2^31: an int in C too. */
        av[b] = _mm256_abs_epi32(_mm256_mullo_epi32(_mm256_cvtepi16_epi32(sv), k->rf[b]));
    }
    any = _mm256_or_si256(_mm256_or_si256(av[0], av[1]), av[2]);
    if (_mm256_testz_si256(thr, thr_big) && _mm256_testz_si256(any, big32)) {
        /* The usual case: 0 <= thr < 2^18 and |s * rf| < 2^30, so
         * x = max(|s * rf| - thr * 2^(10 or 12), 0) < 2^30 is a dword. */
        const __m256i t10 = _mm256_slli_epi32(thr, 10), t12 = _mm256_slli_epi32(thr, 12);
        __m256i xh = _mm256_max_epi32(_mm256_sub_epi32(av[0], t10), zero);
        __m256i xv = _mm256_max_epi32(_mm256_sub_epi32(av[1], t10), zero);
        __m256i xd = _mm256_max_epi32(_mm256_sub_epi32(av[2], t12), zero);
        acc[0] = cube8_add(acc[0], xh, p29, 29, k->rhv, k->chv);
        acc[1] = cube8_add(acc[1], xv, p29, 29, k->rhv, k->chv);
        acc[2] = cube8_add(acc[2], xd, p30, 30, k->rd,  k->cd);
        return 1;
    }
    for (int h = 0; h < 2; h++) {
        __m256i t64 = _mm256_cvtepi32_epi64(h ? _mm256_extracti128_si256(thr, 1)
                                              : _mm256_castsi256_si128(thr));
        __m256i tq[2] = { _mm256_slli_epi64(t64, 10), _mm256_slli_epi64(t64, 12) };
        for (int b = 0; b < 3; b++) {
            __m128i a = h ? _mm256_extracti128_si256(av[b], 1) : _mm256_castsi256_si128(av[b]);
            __m256i v = _mm256_sub_epi64(_mm256_cvtepu32_epi64(a), tq[b == 2]);
            x[b][h] = _mm256_and_si256(v, _mm256_cmpgt_epi64(v, zero));
        }
    }
    any = _mm256_or_si256(_mm256_or_si256(_mm256_or_si256(x[0][0], x[0][1]),
                                          _mm256_or_si256(x[1][0], x[1][1])),
                          _mm256_or_si256(x[2][0], x[2][1]));
    /* Large values (only at extreme contrast or with a very negative
     * threshold) are the C kernel's. */
    if (!_mm256_testz_si256(any, big))
        return 0;
    /* Negative or large thresholds with x < 2^30: in 64 bits. */
    for (int h = 0; h < 2; h++) {
        acc[0] = _mm256_add_epi64(acc[0], cube_fast(x[0][h], p29, 29, k->rhv, k->chv));
        acc[1] = _mm256_add_epi64(acc[1], cube_fast(x[1][h], p29, 29, k->rhv, k->chv));
        acc[2] = _mm256_add_epi64(acc[2], cube_fast(x[2][h], p30, 30, k->rd,  k->cd));
    }
    return 1;
}

typedef struct CMConsts_s123 {
    __m256i rnd;
    __m128i shift;
} CMConsts_s123;

static av_always_inline CMConsts_s123 cm_consts_s123(int shift)
{
    return (CMConsts_s123){ .rnd   = _mm256_set1_epi64x(shift > 0 ? 1LL << (shift - 1) : 0),
                            .shift = _mm_cvtsi32_si128(shift) };
}

/* Adds the masked cubes of the 4 columns at j of scales 1..3 (int64
 * thresholds thr) to acc; returns 0, adding nothing, where a value
 * reaches 2^31. */
static av_always_inline int cm_cubes_s123(__m256i acc[3], const int32_t *const x[3], int j,
                                          __m256i thr, const CMConsts_s123 *k)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i big  = _mm256_set1_epi64x(~((1LL << 31) - 1));
    const __m256i p30  = _mm256_set1_epi64x(1 << 29);
    __m256i xv[3], any;

    for (int b = 0; b < 3; b++) {
        __m128i av = _mm_abs_epi32(_mm_loadu_si128((const __m128i *)(x[b] + j)));
        __m256i v  = _mm256_sub_epi64(_mm256_cvtepu32_epi64(av), thr);
        xv[b] = _mm256_and_si256(v, _mm256_cmpgt_epi64(v, zero));
    }
    any = _mm256_or_si256(_mm256_or_si256(xv[0], xv[1]), xv[2]);
    if (!_mm256_testz_si256(any, big))
        return 0;
    for (int b = 0; b < 3; b++)
        acc[b] = _mm256_add_epi64(acc[b], cube_fast(xv[b], p30, 30, k->rnd, k->shift));
    return 1;
}

/* -------------------------------------------------------- denominator */

uint64_t ff_vmaf_adm_den_row_s0_avx2(const int16_t *o, int n)
{
    __m256i acc = _mm256_setzero_si256();
    const int nv = n & ~7;

    for (int j = 0; j < nv; j += 8) {
        __m256i a  = _mm256_abs_epi32(_mm256_cvtepi16_epi32(
                         _mm_loadu_si128((const __m128i *)(o + j))));
        __m256i a2 = _mm256_mullo_epi32(a, a);  /* <= 2^30 */
        acc = _mm256_add_epi64(acc, _mm256_mul_epu32(a2, a));
        acc = _mm256_add_epi64(acc, _mm256_mul_epu32(_mm256_srli_epi64(a2, 32),
                                                     _mm256_srli_epi64(a, 32)));
    }
    return (uint64_t)hsum64(acc) + (nv < n ? ff_vmaf_adm_den_row_s0(o + nv, n - nv) : 0);
}

uint64_t ff_vmaf_adm_den_row_s123_avx2(const int32_t *o, int n, int p, int c)
{
    const __m256i prnd = _mm256_set1_epi64x(1LL << p);
    const __m256i crnd = _mm256_set1_epi64x(c > 0 ? 1LL << (c - 1) : 0);
    const __m128i ps = _mm_cvtsi32_si128(p), cs = _mm_cvtsi32_si128(c);
    __m256i acc = _mm256_setzero_si256();
    const int nv = n & ~3;

    for (int j = 0; j < nv; j += 4) {
        __m256i a  = _mm256_cvtepu32_epi64(_mm_abs_epi32(_mm_loadu_si128((const __m128i *)(o + j))));
        __m256i x2 = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(a, a), prnd), ps);
        /* x2 may reach 2^32 + 1: its high dword takes a second product. */
        __m256i cu = _mm256_add_epi64(_mm256_mul_epu32(x2, a),
                                      _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x2, 32), a), 32));
        acc = _mm256_add_epi64(acc, _mm256_srl_epi64(_mm256_add_epi64(cu, crnd), cs));
    }
    return (uint64_t)hsum64(acc) + (nv < n ? ff_vmaf_adm_den_row_s123(o + nv, n - nv, p, c) : 0);
}

/* --------------------------------------- decouple, masking, 3-column sums */

#define BAND_T        int16_t
#define CSF_T         int32_t
#define CSF_LANES     8
#define ADD_CSF       _mm256_add_epi32
#define SUB_CSF       _mm256_sub_epi32
#define FUNC(name)    name ## _s0
#define GAIN_IN_FLOAT 1
#define HSUM3_C       ff_vmaf_adm_hsum3_32
#define CM_PARAMS     const uint16_t rf[3], int c_hv, int c_d
#define CM_ARGS       rf, c_hv, c_d
#include "adm_avx2_template.h"

#define BAND_T        int32_t
#define CSF_T         int64_t
#define CSF_LANES     4
#define ADD_CSF       _mm256_add_epi64
#define SUB_CSF       _mm256_sub_epi64
#define FUNC(name)    name ## _s123
#define GAIN_IN_FLOAT 0
#define HSUM3_C       ff_vmaf_adm_hsum3_64
#define CM_PARAMS     int shift
#define CM_ARGS       shift
#include "adm_avx2_template.h"

FF_VMAF_TARGET_END
