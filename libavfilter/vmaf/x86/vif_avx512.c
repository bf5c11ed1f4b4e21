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
 * A line-by-line port of vif_avx2.c to sixteen 32-bit lanes: the same
 * algorithm and the same integer arithmetic (split 48-bit sums, madd of
 * tap pairs, rounded high products, the same double operations for the
 * per-pixel terms, eight lanes at a time instead of four). See vif_avx2.c
 * for why each step is exact; only what differs is explained here.
 *
 * Lane order. Everything per lane (add, mullo, madd, shifts, compares,
 * conversions between 32- and 64-bit element widths) keeps columns in
 * order. The only steps that move data between 128-bit lanes are:
 * - cvtepu8/cvtepu16_epi32 loads and cvtepi32_pd / cvtepi32_epi64 of the
 *   256-bit halves: element i goes to lane i, in order;
 * - splitting a vector into its 256-bit halves (castsi512_si256 is
 *   columns 0..7, extracti64x4(v, 1) columns 8..15) and joining two
 *   halves (inserti64x4(castsi256_si512(lo), hi, 1));
 * - narrowing 64-bit lanes to 32 bits with vpmovqd (cvtepi64_epi32,
 *   which keeps the low half of every 64-bit lane, in order) and 32-bit
 *   lanes to 16 bits with vpmovdw (cvtepi32_epi16, in order).
 * No in-lane pack/unpack or permute is used, so nothing depends on the
 * per-128-bit-lane behaviour of those instructions.
 *
 * Compares give masks (__mmask16) instead of vectors; "v and mask" of the
 * AVX2 code is maskz_mov(mask, v), the movemask popcounts are popcounts
 * of the mask.
 *
 * Columns go sixteen at a time, the last vector moved back to end at the
 * last column as in AVX2. Planes narrower than one vector (or than two for
 * decimation) use the AVX2 versions (which use C below their own widths).
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/attributes.h"
#include "libavutil/macros.h"
#include "libavutil/mem_internal.h"

#include "../vif_dsp.h"
#include "simd.h"
#include "vif.h"

#define PAD       FF_VMAF_VIF_MAX_HALF
#define SIGMA_NSQ (1 << 17)

/** Reflect-101 index, repeated for planes smaller than the filter (as C). */
static int mirror(int i, int n)
{
    if (n <= 1)
        return 0;
    for (;;) {
        if (i < 0)
            i = -i;
        else if (i >= n)
            i = 2 * n - 2 - i;
        else
            return i;
    }
}

static void pad_row(uint32_t *buf, int w, int half)
{
    for (int p = 1; p <= half; p++) {
        buf[-p]        = buf[mirror(-p, w)];
        buf[w - 1 + p] = buf[mirror(w - 1 + p, w)];
    }
}

FF_VMAF_TARGET_BEGIN(FF_VMAF_AVX512)

/* 16 samples widened to 32-bit lanes, in order. */
#define LD8(p)  _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define LD16(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p)))
#define LDU(p)  _mm512_loadu_si512((const void *)(p))
#define STU(p, v) _mm512_storeu_si512((void *)(p), v)

/* Columns 0..7 and 8..15 of a vector, and back. */
#define LO256(v) _mm512_castsi512_si256(v)
#define HI256(v) _mm512_extracti64x4_epi64(v, 1)
#define JOIN256(lo, hi) _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1)

/* As vert_8 of vif_avx2.c. */
static av_always_inline void vert_8(uint32_t *mu1v, uint32_t *mu2v,
                                    uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                    const uint8_t *const *rr,
                                    const uint8_t *const *dr,
                                    const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;
    const __m512i fc = _mm512_set1_epi32(f[half]);
    const __m512i r8 = _mm512_set1_epi32(128);

    for (int j0 = 0; j0 < w; j0 += 16) {
        const int j = FFMIN(j0, w - 16);
        __m512i x = LD8(rr[half] + j), y = LD8(dr[half] + j);
        __m512i mu1 = _mm512_mullo_epi32(x, fc);
        __m512i mu2 = _mm512_mullo_epi32(y, fc);
        __m512i xx  = _mm512_mullo_epi32(_mm512_madd_epi16(x, x), fc);
        __m512i yy  = _mm512_mullo_epi32(_mm512_madd_epi16(y, y), fc);
        __m512i xy  = _mm512_mullo_epi32(_mm512_madd_epi16(x, y), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const __m512i fk  = _mm512_set1_epi32(f[k]);
            const __m512i fk2 = _mm512_set1_epi32(f[k] | f[k] << 16);
            __m512i tx = _mm512_or_si512(LD8(rr[k] + j),
                                         _mm512_slli_epi32(LD8(rr[fw - 1 - k] + j), 16));
            __m512i ty = _mm512_or_si512(LD8(dr[k] + j),
                                         _mm512_slli_epi32(LD8(dr[fw - 1 - k] + j), 16));
            mu1 = _mm512_add_epi32(mu1, _mm512_madd_epi16(tx, fk2));
            mu2 = _mm512_add_epi32(mu2, _mm512_madd_epi16(ty, fk2));
            xx  = _mm512_add_epi32(xx, _mm512_mullo_epi32(_mm512_madd_epi16(tx, tx), fk));
            yy  = _mm512_add_epi32(yy, _mm512_mullo_epi32(_mm512_madd_epi16(ty, ty), fk));
            xy  = _mm512_add_epi32(xy, _mm512_mullo_epi32(_mm512_madd_epi16(tx, ty), fk));
        }
        STU(mu1v + j, _mm512_srli_epi32(_mm512_add_epi32(mu1, r8), 8));
        STU(mu2v + j, _mm512_srli_epi32(_mm512_add_epi32(mu2, r8), 8));
        STU(xxv + j, xx);
        STU(yyv + j, yy);
        STU(xyv + j, xy);
    }
}

/** Σf·(a² + b²) of a tap pair as split sums: h += f·(Ha + Hb), l += f·(La + Lb). */
#define SPLIT_ACC(h, l, a2, b2, fk) do {                                    \
        h = _mm512_add_epi32(h, _mm512_mullo_epi32(_mm512_add_epi32(         \
                _mm512_srli_epi32(a2, 16), _mm512_srli_epi32(b2, 16)), fk)); \
        l = _mm512_add_epi32(l, _mm512_mullo_epi32(_mm512_add_epi32(         \
                _mm512_and_si512(a2, lo16), _mm512_and_si512(b2, lo16)), fk)); \
    } while (0)

/** (H·2^16 + L + rnd) >> s for 0 <= s <= 16, modulo 2^32. */
static av_always_inline __m512i split_round(__m512i h, __m512i l, __m512i rnd,
                                            __m128i s, __m128i s16)
{
    return _mm512_add_epi32(_mm512_sll_epi32(h, s16),
                            _mm512_srl_epi32(_mm512_add_epi32(l, rnd), s));
}

/** h += f·(s >> 16), l += f·(s & 0xffff): a pair sum s split in halves. */
#define SPLIT_ACC1(h, l, s, fk) do {                                        \
        h = _mm512_add_epi32(h, _mm512_mullo_epi32(_mm512_srli_epi32(s, 16), fk)); \
        l = _mm512_add_epi32(l, _mm512_mullo_epi32(_mm512_and_si512(s, lo16), fk)); \
    } while (0)

/* As vert_15 of vif_avx2.c (depths up to 15 bits, madd of tap pairs). */
static av_always_inline void vert_15(uint32_t *mu1v, uint32_t *mu2v,
                                     uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                     const uint16_t *const *rr,
                                     const uint16_t *const *dr,
                                     const uint16_t *f, const int fw, int w,
                                     int bpc)
{
    const int half = fw / 2;
    const int ks   = 2 * (bpc - 8);
    const __m512i fc   = _mm512_set1_epi32(f[half]);
    const __m512i lo16 = _mm512_set1_epi32(0xffff);
    const __m512i rmu  = _mm512_set1_epi32(1 << (bpc - 1));
    const __m512i rs   = _mm512_set1_epi32(ks ? 1 << (ks - 1) : 0);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    const __m128i sks  = _mm_cvtsi32_si128(ks);
    const __m128i sks16 = _mm_cvtsi32_si128(16 - ks);

    for (int j0 = 0; j0 < w; j0 += 16) {
        const int j = FFMIN(j0, w - 16);
        __m512i x = LD16(rr[half] + j), y = LD16(dr[half] + j);
        __m512i mu1 = _mm512_mullo_epi32(x, fc);
        __m512i mu2 = _mm512_mullo_epi32(y, fc);
        __m512i xxh = _mm512_setzero_si512(), xxl = _mm512_setzero_si512();
        __m512i yyh = _mm512_setzero_si512(), yyl = _mm512_setzero_si512();
        __m512i xyh = _mm512_setzero_si512(), xyl = _mm512_setzero_si512();

        SPLIT_ACC1(xxh, xxl, _mm512_madd_epi16(x, x), fc);
        SPLIT_ACC1(yyh, yyl, _mm512_madd_epi16(y, y), fc);
        SPLIT_ACC1(xyh, xyl, _mm512_madd_epi16(x, y), fc);
        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const __m512i fk  = _mm512_set1_epi32(f[k]);
            const __m512i fk2 = _mm512_set1_epi32(f[k] | f[k] << 16);
            __m512i tx = _mm512_or_si512(LD16(rr[k] + j),
                                         _mm512_slli_epi32(LD16(rr[fw - 1 - k] + j), 16));
            __m512i ty = _mm512_or_si512(LD16(dr[k] + j),
                                         _mm512_slli_epi32(LD16(dr[fw - 1 - k] + j), 16));
            mu1 = _mm512_add_epi32(mu1, _mm512_madd_epi16(tx, fk2));
            mu2 = _mm512_add_epi32(mu2, _mm512_madd_epi16(ty, fk2));
            SPLIT_ACC1(xxh, xxl, _mm512_madd_epi16(tx, tx), fk);
            SPLIT_ACC1(yyh, yyl, _mm512_madd_epi16(ty, ty), fk);
            SPLIT_ACC1(xyh, xyl, _mm512_madd_epi16(tx, ty), fk);
        }
        STU(mu1v + j, _mm512_srl_epi32(_mm512_add_epi32(mu1, rmu), sbpc));
        STU(mu2v + j, _mm512_srl_epi32(_mm512_add_epi32(mu2, rmu), sbpc));
        STU(xxv + j, split_round(xxh, xxl, rs, sks, sks16));
        STU(yyv + j, split_round(yyh, yyl, rs, sks, sks16));
        STU(xyv + j, split_round(xyh, xyl, rs, sks, sks16));
    }
}

/* As vert_16 of vif_avx2.c, for uint16_t rows of depth bpc (9..16). */
static av_always_inline void vert_16(uint32_t *mu1v, uint32_t *mu2v,
                                     uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                     const uint16_t *const *rr,
                                     const uint16_t *const *dr,
                                     const uint16_t *f, const int fw, int w,
                                     int bpc)
{
    const int half = fw / 2;
    const int ks   = 2 * (bpc - 8);
    const __m512i fc   = _mm512_set1_epi32(f[half]);
    const __m512i lo16 = _mm512_set1_epi32(0xffff);
    const __m512i rmu  = _mm512_set1_epi32(1 << (bpc - 1));
    const __m512i rs   = _mm512_set1_epi32(ks ? 1 << (ks - 1) : 0);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    const __m128i sks  = _mm_cvtsi32_si128(ks);
    const __m128i sks16 = _mm_cvtsi32_si128(16 - ks);

    if (bpc <= 15) {
        vert_15(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w, bpc);
        return;
    }
    for (int j0 = 0; j0 < w; j0 += 16) {
        const int j = FFMIN(j0, w - 16);
        __m512i x = LD16(rr[half] + j), y = LD16(dr[half] + j);
        __m512i x2 = _mm512_mullo_epi32(x, x);
        __m512i y2 = _mm512_mullo_epi32(y, y);
        __m512i p2 = _mm512_mullo_epi32(x, y);
        __m512i mu1 = _mm512_mullo_epi32(x, fc);
        __m512i mu2 = _mm512_mullo_epi32(y, fc);
        __m512i xxh = _mm512_mullo_epi32(_mm512_srli_epi32(x2, 16), fc);
        __m512i xxl = _mm512_mullo_epi32(_mm512_and_si512(x2, lo16), fc);
        __m512i yyh = _mm512_mullo_epi32(_mm512_srli_epi32(y2, 16), fc);
        __m512i yyl = _mm512_mullo_epi32(_mm512_and_si512(y2, lo16), fc);
        __m512i xyh = _mm512_mullo_epi32(_mm512_srli_epi32(p2, 16), fc);
        __m512i xyl = _mm512_mullo_epi32(_mm512_and_si512(p2, lo16), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const __m512i fk = _mm512_set1_epi32(f[k]);
            __m512i xa = LD16(rr[k] + j), xb = LD16(rr[fw - 1 - k] + j);
            __m512i ya = LD16(dr[k] + j), yb = LD16(dr[fw - 1 - k] + j);
            __m512i xa2 = _mm512_mullo_epi32(xa, xa), xb2 = _mm512_mullo_epi32(xb, xb);
            __m512i ya2 = _mm512_mullo_epi32(ya, ya), yb2 = _mm512_mullo_epi32(yb, yb);
            __m512i pa  = _mm512_mullo_epi32(xa, ya), pb  = _mm512_mullo_epi32(xb, yb);

            mu1 = _mm512_add_epi32(mu1, _mm512_mullo_epi32(_mm512_add_epi32(xa, xb), fk));
            mu2 = _mm512_add_epi32(mu2, _mm512_mullo_epi32(_mm512_add_epi32(ya, yb), fk));
            SPLIT_ACC(xxh, xxl, xa2, xb2, fk);
            SPLIT_ACC(yyh, yyl, ya2, yb2, fk);
            SPLIT_ACC(xyh, xyl, pa, pb, fk);
        }
        STU(mu1v + j, _mm512_srl_epi32(_mm512_add_epi32(mu1, rmu), sbpc));
        STU(mu2v + j, _mm512_srl_epi32(_mm512_add_epi32(mu2, rmu), sbpc));
        STU(xxv + j, split_round(xxh, xxl, rs, sks, sks16));
        STU(yyv + j, split_round(yyh, yyl, rs, sks, sks16));
        STU(xyv + j, split_round(xyh, xyl, rs, sks, sks16));
    }
}

/**
 * hi32(a·b + 2^31) of each unsigned 32-bit lane. vpmuludq multiplies the
 * even (low) 32-bit halves of each 64-bit lane; the odd ones are shifted
 * down first. The even results go back to the even 32-bit lanes by a
 * 64-bit shift, the odd ones are already in the odd (high) halves: the
 * mask 0xaaaa takes the odd 32-bit lanes from `odd`, as the AVX2 blend
 * 0xaa did (no lane crossing).
 */
static av_always_inline __m512i mulhi_round(__m512i a, __m512i b)
{
    const __m512i rnd = _mm512_set1_epi64(0x80000000);
    __m512i even = _mm512_add_epi64(_mm512_mul_epu32(a, b), rnd);
    __m512i odd  = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(a, 32),
                                                     _mm512_srli_epi64(b, 32)), rnd);
    return _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(even, 32), odd);
}

/* idx and k of 2048·log2, as log2_32 of vif_avx2.c: unsigned v >= 2^16. */
static av_always_inline __m512i log2_32(__m512i *kout, __m512i v)
{
    /* x < 2^31 converts as a signed value; its float may round up to the
     * next power of two, which x >> e == 0 detects (e -= 1 there, as the
     * AVX2 code adds the all-ones compare result). */
    const __m512i x = _mm512_srli_epi32(v, 1);
    __m512i e = _mm512_sub_epi32(_mm512_srli_epi32(
                    _mm512_castps_si512(_mm512_cvtepi32_ps(x)), 23),
                    _mm512_set1_epi32(127));
    __mmask16 up = _mm512_cmpeq_epi32_mask(_mm512_srlv_epi32(x, e),
                                           _mm512_setzero_si512());
    __m512i k, idx;

    e   = _mm512_mask_sub_epi32(e, up, e, _mm512_set1_epi32(1));
    k   = _mm512_sub_epi32(e, _mm512_set1_epi32(14));
    idx = _mm512_sub_epi32(_mm512_srlv_epi32(v, k), _mm512_set1_epi32(32768));
    *kout = k;
    return idx;
}

/* The same for eight integer-valued doubles in [2^16, 2^52), 64-bit lanes. */
static av_always_inline __m512i log2_pd(__m512i *kout, __m512d v)
{
    const __m512i bits = _mm512_castpd_si512(v);
    *kout = _mm512_sub_epi64(_mm512_srli_epi64(bits, 52),
                             _mm512_set1_epi64(1023 + 15));
    return _mm512_and_si512(_mm512_srli_epi64(bits, 37),
                            _mm512_set1_epi64(0x7fff));
}

/** Add the sixteen int32 lanes of v to the eight int64 lanes of acc. */
static av_always_inline __m512i add_wide(__m512i acc, __m512i v)
{
    acc = _mm512_add_epi64(acc, _mm512_cvtepi32_epi64(LO256(v)));
    return _mm512_add_epi64(acc, _mm512_cvtepi32_epi64(HI256(v)));
}

typedef struct VifSums {
    __m512i num_log, den_log, num_nonlog;   ///< the 2048·k parts, and σ2²
    int64_t num_tab, den_tab;               ///< the table parts
    int64_t den_nonlog;
} VifSums;

/*
 * The gain terms of eight pixels, as gain_pd of vif_avx2.c (same double
 * operations in the same order; the engine builds with -ffp-contract=off,
 * so no FMA is formed).
 */
static av_always_inline __m512d gain_pd(__m256i *sv2, __m256i s1, __m256i s2,
                                        __m256i s12, __m512d egl)
{
    const __m512d d1  = _mm512_cvtepi32_pd(s1);
    const __m512d d12 = _mm512_cvtepi32_pd(s12);
    __m512d g  = _mm512_div_pd(d12, _mm512_add_pd(d1, _mm512_set1_pd(6.5536e-6)));
    __m512d gs = _mm512_mul_pd(g, d12);
    __m512d sv = _mm512_sub_pd(_mm512_cvtepi32_pd(s2), gs);
    __m512d t;

    /* (int32)sv where sv > 0, else 0; out-of-range and NaN give INT32_MIN
     * (vcvttpd2dq's "integer indefinite", as in AVX2). */
    *sv2 = _mm256_max_epi32(_mm512_cvttpd_epi32(sv), _mm256_setzero_si256());
    g = _mm512_min_pd(g, egl);
    t = _mm512_mul_pd(_mm512_mul_pd(g, g), d1);
    /* Truncation toward zero: roundscale with scale 0, as vroundpd 0xb. */
    t = _mm512_roundscale_pd(t, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    return _mm512_add_pd(_mm512_add_pd(t, _mm512_cvtepi32_pd(*sv2)),
                         _mm512_set1_pd(SIGMA_NSQ));
}

/* As horiz of vif_avx2.c. */
static av_always_inline void horiz(int32_t *s1v, int32_t *s2v, int32_t *s12v,
                                   const uint32_t *mu1v, const uint32_t *mu2v,
                                   const uint32_t *xxv, const uint32_t *yyv,
                                   const uint32_t *xyv,
                                   const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;
    const __m512i fc   = _mm512_set1_epi32(f[half]);
    const __m512i lo16 = _mm512_set1_epi32(0xffff);
    const __m512i r16  = _mm512_set1_epi32(32768);
    const __m128i s0   = _mm_cvtsi32_si128(0), s16 = _mm_cvtsi32_si128(16);

    for (int j0 = 0; j0 < w; j0 += 16) {
        const int j = FFMIN(j0, w - 16);
        __m512i xl, xr, mu1sq, mu2sq, mu12, xx, yy, xy;
        __m512i mu1 = _mm512_mullo_epi32(LDU(mu1v + j), fc);
        __m512i mu2 = _mm512_mullo_epi32(LDU(mu2v + j), fc);
        __m512i xxh = _mm512_mullo_epi32(_mm512_srli_epi32(LDU(xxv + j), 16), fc);
        __m512i xxl = _mm512_mullo_epi32(_mm512_and_si512(LDU(xxv + j), lo16), fc);
        __m512i yyh = _mm512_mullo_epi32(_mm512_srli_epi32(LDU(yyv + j), 16), fc);
        __m512i yyl = _mm512_mullo_epi32(_mm512_and_si512(LDU(yyv + j), lo16), fc);
        __m512i xyh = _mm512_mullo_epi32(_mm512_srli_epi32(LDU(xyv + j), 16), fc);
        __m512i xyl = _mm512_mullo_epi32(_mm512_and_si512(LDU(xyv + j), lo16), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const int l = j - half + k, r = j + half - k;
            const __m512i fk = _mm512_set1_epi32(f[k]);
            mu1 = _mm512_add_epi32(mu1, _mm512_mullo_epi32(
                      _mm512_add_epi32(LDU(mu1v + l), LDU(mu1v + r)), fk));
            mu2 = _mm512_add_epi32(mu2, _mm512_mullo_epi32(
                      _mm512_add_epi32(LDU(mu2v + l), LDU(mu2v + r)), fk));
            xl = LDU(xxv + l); xr = LDU(xxv + r);
            SPLIT_ACC(xxh, xxl, xl, xr, fk);
            xl = LDU(yyv + l); xr = LDU(yyv + r);
            SPLIT_ACC(yyh, yyl, xl, xr, fk);
            xl = LDU(xyv + l); xr = LDU(xyv + r);
            SPLIT_ACC(xyh, xyl, xl, xr, fk);
        }
        xx = split_round(xxh, xxl, r16, s16, s0);
        yy = split_round(yyh, yyl, r16, s16, s0);
        xy = split_round(xyh, xyl, r16, s16, s0);
        mu1sq = mulhi_round(mu1, mu1);
        mu2sq = mulhi_round(mu2, mu2);
        mu12  = mulhi_round(mu1, mu2);
        STU(s1v + j, _mm512_sub_epi32(xx, mu1sq));
        STU(s2v + j, _mm512_max_epi32(_mm512_sub_epi32(yy, mu2sq), _mm512_setzero_si512()));
        STU(s12v + j, _mm512_sub_epi32(xy, mu12));
    }
}

/* The per-pixel terms of a row, as accum of vif_avx2.c. */
static av_always_inline void accum(VifSums *sums, const int32_t *s1v,
                                   const int32_t *s2v, const int32_t *s12v,
                                   int w, const uint16_t *tab, __m512d egl)
{
    const __m512i nsq  = _mm512_set1_epi32(SIGMA_NSQ);
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7,
                                           8, 9, 10, 11, 12, 13, 14, 15);
    const __m512d nsq_pd = _mm512_set1_pd(SIGMA_NSQ);

    for (int j0 = 0; j0 < w; j0 += 16) {
        const int j = FFMIN(j0, w - 16);
        /* Lanes below j0 - j were counted by the previous vector. */
        const __mmask16 valid = _mm512_cmpgt_epi32_mask(lane, _mm512_set1_epi32(j0 - j - 1));
        const __m512i s1 = LDU(s1v + j), s2 = LDU(s2v + j), s12 = LDU(s12v + j);
        const __mmask16 tex0 = _mm512_cmpgt_epi32_mask(s1, _mm512_set1_epi32(SIGMA_NSQ - 1));
        const __mmask16 flat = (__mmask16)(~tex0 & valid);
        const __mmask16 tex  = (__mmask16)(tex0 & valid);
        __m512i t, id0;

        /* Flat pixels: σ2² and a count. */
        sums->num_nonlog = add_wide(sums->num_nonlog, _mm512_maskz_mov_epi32(flat, s2));
        sums->den_nonlog += __builtin_popcount(flat);
        if (tex) {
            DECLARE_ALIGNED(64, int32_t, id)[16];
            DECLARE_ALIGNED(64, int32_t, in1)[16];
            DECLARE_ALIGNED(64, int64_t, iv)[16];
            int64_t st = 0;
            __mmask16 gain;
            __m512i k;

            /* log2(σ1² + σn²) - 17·2048; other lanes read entry 0, which
             * is taken out again. */
            id0 = _mm512_maskz_mov_epi32(tex, log2_32(&k, _mm512_add_epi32(s1, nsq)));
            t   = _mm512_sub_epi32(_mm512_slli_epi32(k, 11), _mm512_set1_epi32(2048 * 17));
            sums->den_log = add_wide(sums->den_log, _mm512_maskz_mov_epi32(tex, t));
            _mm512_storeu_si512((void *)id, id0);
            for (int l = 0; l < 16; l++)
                st += tab[id[l]];
            sums->den_tab += st - (int64_t)tab[0] * (16 - __builtin_popcount(tex));

            gain = tex & _mm512_cmpgt_epi32_mask(s12, _mm512_setzero_si512())
                       & _mm512_cmpgt_epi32_mask(s2, _mm512_setzero_si512());
            if (gain) {
                /* Columns 0..7 in the _lo doubles, 8..15 in the _hi ones;
                 * bit l of gain is column l, so the low byte of the mask
                 * selects among the _lo lanes and the high byte among the
                 * _hi ones. */
                const __mmask8 gain_lo = (__mmask8)(gain & 0xff);
                const __mmask8 gain_hi = (__mmask8)(gain >> 8);
                __m256i sv_lo, sv_hi;
                __m512i k_lo, k_hi, kv, kn1, n1;
                __m512d v_lo = gain_pd(&sv_lo, LO256(s1), LO256(s2), LO256(s12), egl);
                __m512d v_hi = gain_pd(&sv_hi, HI256(s1), HI256(s2), HI256(s12), egl);

                /* Lanes without a gain term: v = σn², idx 0 for both. */
                v_lo = _mm512_mask_blend_pd(gain_lo, nsq_pd, v_lo);
                v_hi = _mm512_mask_blend_pd(gain_hi, nsq_pd, v_hi);
                _mm512_storeu_si512((void *)iv, log2_pd(&k_lo, v_lo));
                _mm512_storeu_si512((void *)(iv + 8), log2_pd(&k_hi, v_hi));
                n1 = _mm512_add_epi32(JOIN256(sv_lo, sv_hi), nsq);
                _mm512_storeu_si512((void *)in1,
                                   _mm512_maskz_mov_epi32(gain, log2_32(&kn1, n1)));
                /* The 64-bit k of columns 0..7 and 8..15 narrowed to 32
                 * bits in column order (vpmovqd keeps the low halves, in
                 * order; k is small and positive). This replaces the
                 * AVX2 blend + vpermd interleave fix-up. */
                kv = JOIN256(_mm512_cvtepi64_epi32(k_lo), _mm512_cvtepi64_epi32(k_hi));
                t  = _mm512_slli_epi32(_mm512_sub_epi32(kv, kn1), 11);
                sums->num_log = add_wide(sums->num_log, _mm512_maskz_mov_epi32(gain, t));
                st = 0;
                for (int l = 0; l < 16; l++)
                    st += tab[iv[l]] - tab[in1[l]];
                sums->num_tab += st;
            }
        }
    }
}

static int64_t hsum64(__m512i v)
{
    __m256i h = _mm256_add_epi64(LO256(v), HI256(v));
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

static av_always_inline void statistic_tmpl(FFVmafVifAccum *acc,
                                            const uint8_t *ref, ptrdiff_t ref_stride,
                                            const uint8_t *dis, ptrdiff_t dis_stride,
                                            int w, int h, int bpc, const int scale,
                                            double egl, const uint16_t *tab,
                                            void *tmp)
{
    const uint16_t *f = ff_vmaf_vif_filter[scale];
    const int fw   = ff_vmaf_vif_filter_width[scale];
    const int half = fw / 2;
    const size_t rs = w + 2 * PAD;
    uint32_t *mu1v = (uint32_t *)tmp + PAD;
    uint32_t *mu2v = mu1v + rs;
    uint32_t *xxv  = mu2v + rs;
    uint32_t *yyv  = xxv + rs;
    uint32_t *xyv  = yyv + rs;
    int32_t  *s1v  = (int32_t *)(xyv + rs);
    int32_t  *s2v  = s1v + w;
    int32_t  *s12v = s2v + w;
    const __m512d vegl = _mm512_set1_pd(egl);
    VifSums sums = { _mm512_setzero_si512(), _mm512_setzero_si512(),
                     _mm512_setzero_si512(), 0, 0, 0 };

    for (int i = 0; i < h; i++) {
        if (bpc == 8) {
            const uint8_t *rr[FF_VMAF_VIF_MAX_TAPS], *dr[FF_VMAF_VIF_MAX_TAPS];
            for (int k = 0; k < fw; k++) {
                const int y = mirror(i - half + k, h);
                rr[k] = ref + y * ref_stride;
                dr[k] = dis + y * dis_stride;
            }
            vert_8(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w);
        } else {
            const uint16_t *rr[FF_VMAF_VIF_MAX_TAPS], *dr[FF_VMAF_VIF_MAX_TAPS];
            for (int k = 0; k < fw; k++) {
                const int y = mirror(i - half + k, h);
                rr[k] = (const uint16_t *)(ref + y * ref_stride);
                dr[k] = (const uint16_t *)(dis + y * dis_stride);
            }
            vert_16(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w, bpc);
        }
        pad_row(mu1v, w, half);
        pad_row(mu2v, w, half);
        pad_row(xxv, w, half);
        pad_row(yyv, w, half);
        pad_row(xyv, w, half);
        horiz(s1v, s2v, s12v, mu1v, mu2v, xxv, yyv, xyv, f, fw, w);
        accum(&sums, s1v, s2v, s12v, w, tab, vegl);
    }
    acc->num_log    = hsum64(sums.num_log) + sums.num_tab;
    acc->den_log    = hsum64(sums.den_log) + sums.den_tab;
    acc->num_nonlog = hsum64(sums.num_nonlog);
    acc->den_nonlog = sums.den_nonlog;
}

void ff_vmaf_vif_statistic_avx512(FFVmafVifAccum *acc,
                                  const uint8_t *ref, ptrdiff_t ref_stride,
                                  const uint8_t *dis, ptrdiff_t dis_stride,
                                  int w, int h, int bpc, int scale, double egl,
                                  const uint16_t *log2_tab, void *tmp)
{
    if (w < 16) {
        ff_vmaf_vif_statistic_avx2(acc, ref, ref_stride, dis, dis_stride, w, h,
                                   bpc, scale, egl, log2_tab, tmp);
        return;
    }
    switch (scale) {
    case 0: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                           bpc, 0, egl, log2_tab, tmp); break;
    case 1: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                           bpc, 1, egl, log2_tab, tmp); break;
    case 2: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                           bpc, 2, egl, log2_tab, tmp); break;
    default: statistic_tmpl(acc, ref, ref_stride, dis, dis_stride, w, h,
                            bpc, 3, egl, log2_tab, tmp); break;
    }
}

/*
 * Pyramid step as decimate_tmpl of vif_avx2.c. The even columns of the
 * padded row are compacted differently: AVX2 used shufps (per 128-bit
 * lane) + vpermq; here the 32 values p[0..31] are read as sixteen 64-bit
 * lanes and narrowed with vpmovqd, which keeps the low (even-index) 32
 * bits of each 64-bit lane in order: p[0], p[2], ..., p[14] from the first
 * vector and p[16], ..., p[30] from the second.
 */
static av_always_inline __m512i even_lanes(const uint32_t *p)
{
    return JOIN256(_mm512_cvtepi64_epi32(LDU(p)), _mm512_cvtepi64_epi32(LDU(p + 16)));
}

static av_always_inline void decimate_tmpl(uint16_t *dst, ptrdiff_t dst_stride,
                                           const uint8_t *src, ptrdiff_t src_stride,
                                           int w, int h, int bpc, const int scale,
                                           void *tmp)
{
    const uint16_t *f = ff_vmaf_vif_filter[scale];
    const int fw   = ff_vmaf_vif_filter_width[scale];
    const int half = fw / 2;
    const int w2   = w / 2;
    const __m512i fc   = _mm512_set1_epi32(f[half]);
    const __m512i rnd  = _mm512_set1_epi32(1 << (bpc - 1));
    const __m512i r16  = _mm512_set1_epi32(32768);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    uint32_t *v = (uint32_t *)tmp + PAD;

    for (int i = 0; i < h / 2; i++) {
        const uint8_t  *rows[FF_VMAF_VIF_MAX_TAPS];
        const uint16_t *r16p[FF_VMAF_VIF_MAX_TAPS];

        for (int k = 0; k < fw; k++) {
            rows[k] = src + mirror(2 * i - half + k, h) * src_stride;
            r16p[k] = (const uint16_t *)rows[k];
        }

        for (int j0 = 0; j0 < w; j0 += 16) {
            const int j = FFMIN(j0, w - 16);
            __m512i s;
            if (bpc == 8) {
                s = _mm512_mullo_epi32(LD8(rows[half] + j), fc);
                _Pragma("GCC unroll 8")
                for (int k = 0; k < half; k++)
                    s = _mm512_add_epi32(s, _mm512_mullo_epi32(_mm512_add_epi32(
                            LD8(rows[k] + j), LD8(rows[fw - 1 - k] + j)),
                            _mm512_set1_epi32(f[k])));
            } else {
                s = _mm512_mullo_epi32(LD16(r16p[half] + j), fc);
                _Pragma("GCC unroll 8")
                for (int k = 0; k < half; k++)
                    s = _mm512_add_epi32(s, _mm512_mullo_epi32(_mm512_add_epi32(
                            LD16(r16p[k] + j), LD16(r16p[fw - 1 - k] + j)),
                            _mm512_set1_epi32(f[k])));
            }
            /* The C row is uint16_t: keep the low 16 bits as it does. */
            s = _mm512_srl_epi32(_mm512_add_epi32(s, rnd), sbpc);
            STU(v + j, _mm512_and_si512(s, _mm512_set1_epi32(0xffff)));
        }
        pad_row(v, w, half);

        for (int j0 = 0; j0 < w2; j0 += 16) {
            const int j = FFMIN(j0, w2 - 16);
            const int x = 2 * j;
            __m512i s = _mm512_mullo_epi32(even_lanes(v + x), fc);

            _Pragma("GCC unroll 8")
            for (int k = 0; k < half; k++)
                s = _mm512_add_epi32(s, _mm512_mullo_epi32(_mm512_add_epi32(
                        even_lanes(v + x - half + k), even_lanes(v + x + half - k)),
                        _mm512_set1_epi32(f[k])));
            /* Below 2^16 after the shift: vpmovdw (truncating, in column
             * order) gives what AVX2's packusdw did, without its
             * per-128-bit-lane interleave. */
            s = _mm512_srli_epi32(_mm512_add_epi32(s, r16), 16);
            _mm256_storeu_si256((__m256i *)(dst + j), _mm512_cvtepi32_epi16(s));
        }
        dst = (uint16_t *)((uint8_t *)dst + dst_stride);
    }
}

void ff_vmaf_vif_decimate_avx512(uint16_t *dst, ptrdiff_t dst_stride,
                                 const uint8_t *src, ptrdiff_t src_stride,
                                 int w, int h, int bpc, int scale, void *tmp)
{
    if (w < 32) {
        ff_vmaf_vif_decimate_avx2(dst, dst_stride, src, src_stride, w, h, bpc, scale, tmp);
        return;
    }
    switch (scale) {
    case 1: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 1, tmp); break;
    case 2: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 2, tmp); break;
    default: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 3, tmp); break;
    }
}

FF_VMAF_TARGET_END
