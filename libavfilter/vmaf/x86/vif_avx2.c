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
 * Eight columns per vector in 32-bit lanes. Every sum that the C code
 * keeps in 64 bits is below 2^48 and is split instead: a 32-bit value
 * v = H·2^16 + L is filtered as two 32-bit sums Σf·H and Σf·L (each below
 * 2^32, as the taps sum to 2^16), and the rounding shift by s <= 16 of
 * the 48-bit total is (ΣfH << (16 - s)) + ((ΣfL + rounding) >> s), exact.
 * Sums that stay below 2^32 wrap harmlessly in the lanes: only their final
 * value is read.
 *
 * The per-pixel terms use the same double operations as C, four lanes at
 * a time (division, products and truncations are IEEE-exact, there is no
 * FMA). log2 lookups take the top 16 bits of the operand: for a 32-bit one
 * its leading bit comes from a float conversion (corrected when rounding
 * reached the next power of two), for the up-to-46-bit one it is read from
 * the exactly represented double, whose significand is those top bits.
 *
 * Samples are within their depth, as everywhere in the engine (it clamps
 * pictures that are not): up to 15 bits they fit the signed 16-bit halves
 * that madd multiplies.
 *
 * Columns go eight at a time; the last vector of a row is moved back to
 * end at the last column (recomputing a few, which the sums mask out).
 * Planes narrower than a vector (or than two for decimation) use C.
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

FF_VMAF_TARGET_BEGIN("avx2")

#define LD8(p)  _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p)))
#define LD16(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p)))
#define LDU(p)  _mm256_loadu_si256((const __m256i *)(p))
#define STU(p, v) _mm256_storeu_si256((__m256i *)(p), v)

/*
 * Vertical statistics of 8-bit rows, as vert_stats_8: means rounded by 8
 * bits, second moments unshifted. Samples of the two rows of a tap pair
 * share a lane as two 16-bit halves, so one madd gives f·(a + b) (taps
 * other than the centre are below 2^15) or a² + b², a·a' + b·b'.
 */
static av_always_inline void vert_8(uint32_t *mu1v, uint32_t *mu2v,
                                    uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                    const uint8_t *const *rr,
                                    const uint8_t *const *dr,
                                    const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;
    const __m256i fc = _mm256_set1_epi32(f[half]);
    const __m256i r8 = _mm256_set1_epi32(128);

    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = FFMIN(j0, w - 8);
        __m256i x = LD8(rr[half] + j), y = LD8(dr[half] + j);
        __m256i mu1 = _mm256_mullo_epi32(x, fc);
        __m256i mu2 = _mm256_mullo_epi32(y, fc);
        __m256i xx  = _mm256_mullo_epi32(_mm256_madd_epi16(x, x), fc);
        __m256i yy  = _mm256_mullo_epi32(_mm256_madd_epi16(y, y), fc);
        __m256i xy  = _mm256_mullo_epi32(_mm256_madd_epi16(x, y), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const __m256i fk  = _mm256_set1_epi32(f[k]);
            const __m256i fk2 = _mm256_set1_epi32(f[k] | f[k] << 16);
            __m256i tx = _mm256_or_si256(LD8(rr[k] + j),
                                         _mm256_slli_epi32(LD8(rr[fw - 1 - k] + j), 16));
            __m256i ty = _mm256_or_si256(LD8(dr[k] + j),
                                         _mm256_slli_epi32(LD8(dr[fw - 1 - k] + j), 16));
            mu1 = _mm256_add_epi32(mu1, _mm256_madd_epi16(tx, fk2));
            mu2 = _mm256_add_epi32(mu2, _mm256_madd_epi16(ty, fk2));
            xx  = _mm256_add_epi32(xx, _mm256_mullo_epi32(_mm256_madd_epi16(tx, tx), fk));
            yy  = _mm256_add_epi32(yy, _mm256_mullo_epi32(_mm256_madd_epi16(ty, ty), fk));
            xy  = _mm256_add_epi32(xy, _mm256_mullo_epi32(_mm256_madd_epi16(tx, ty), fk));
        }
        STU(mu1v + j, _mm256_srli_epi32(_mm256_add_epi32(mu1, r8), 8));
        STU(mu2v + j, _mm256_srli_epi32(_mm256_add_epi32(mu2, r8), 8));
        STU(xxv + j, xx);
        STU(yyv + j, yy);
        STU(xyv + j, xy);
    }
}

/** Σf·(a² + b²) of a tap pair as split sums: h += f·(Ha + Hb), l += f·(La + Lb). */
#define SPLIT_ACC(h, l, a2, b2, fk) do {                                    \
        h = _mm256_add_epi32(h, _mm256_mullo_epi32(_mm256_add_epi32(         \
                _mm256_srli_epi32(a2, 16), _mm256_srli_epi32(b2, 16)), fk)); \
        l = _mm256_add_epi32(l, _mm256_mullo_epi32(_mm256_add_epi32(         \
                _mm256_and_si256(a2, lo16), _mm256_and_si256(b2, lo16)), fk)); \
    } while (0)

/** (H·2^16 + L + rnd) >> s for 0 <= s <= 16, modulo 2^32. */
static av_always_inline __m256i split_round(__m256i h, __m256i l, __m256i rnd,
                                            __m128i s, __m128i s16)
{
    return _mm256_add_epi32(_mm256_sll_epi32(h, s16),
                            _mm256_srl_epi32(_mm256_add_epi32(l, rnd), s));
}

/** h += f·(s >> 16), l += f·(s & 0xffff): a pair sum s split in halves. */
#define SPLIT_ACC1(h, l, s, fk) do {                                        \
        h = _mm256_add_epi32(h, _mm256_mullo_epi32(_mm256_srli_epi32(s, 16), fk)); \
        l = _mm256_add_epi32(l, _mm256_mullo_epi32(_mm256_and_si256(s, lo16), fk)); \
    } while (0)

/*
 * vert_16 for depths up to 15 bits: samples fit int16, so as in vert_8 one
 * madd gives f·(a + b) and a² + b² (below 2^31), and only that pair sum is
 * split in halves for the product with the tap.
 */
static av_always_inline void vert_15(uint32_t *mu1v, uint32_t *mu2v,
                                     uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                     const uint16_t *const *rr,
                                     const uint16_t *const *dr,
                                     const uint16_t *f, const int fw, int w,
                                     int bpc)
{
    const int half = fw / 2;
    const int ks   = 2 * (bpc - 8);
    const __m256i fc   = _mm256_set1_epi32(f[half]);
    const __m256i lo16 = _mm256_set1_epi32(0xffff);
    const __m256i rmu  = _mm256_set1_epi32(1 << (bpc - 1));
    const __m256i rs   = _mm256_set1_epi32(ks ? 1 << (ks - 1) : 0);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    const __m128i sks  = _mm_cvtsi32_si128(ks);
    const __m128i sks16 = _mm_cvtsi32_si128(16 - ks);

    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = FFMIN(j0, w - 8);
        __m256i x = LD16(rr[half] + j), y = LD16(dr[half] + j);
        __m256i mu1 = _mm256_mullo_epi32(x, fc);
        __m256i mu2 = _mm256_mullo_epi32(y, fc);
        __m256i xxh = _mm256_setzero_si256(), xxl = _mm256_setzero_si256();
        __m256i yyh = _mm256_setzero_si256(), yyl = _mm256_setzero_si256();
        __m256i xyh = _mm256_setzero_si256(), xyl = _mm256_setzero_si256();

        SPLIT_ACC1(xxh, xxl, _mm256_madd_epi16(x, x), fc);
        SPLIT_ACC1(yyh, yyl, _mm256_madd_epi16(y, y), fc);
        SPLIT_ACC1(xyh, xyl, _mm256_madd_epi16(x, y), fc);
        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const __m256i fk  = _mm256_set1_epi32(f[k]);
            const __m256i fk2 = _mm256_set1_epi32(f[k] | f[k] << 16);
            __m256i tx = _mm256_or_si256(LD16(rr[k] + j),
                                         _mm256_slli_epi32(LD16(rr[fw - 1 - k] + j), 16));
            __m256i ty = _mm256_or_si256(LD16(dr[k] + j),
                                         _mm256_slli_epi32(LD16(dr[fw - 1 - k] + j), 16));
            mu1 = _mm256_add_epi32(mu1, _mm256_madd_epi16(tx, fk2));
            mu2 = _mm256_add_epi32(mu2, _mm256_madd_epi16(ty, fk2));
            SPLIT_ACC1(xxh, xxl, _mm256_madd_epi16(tx, tx), fk);
            SPLIT_ACC1(yyh, yyl, _mm256_madd_epi16(ty, ty), fk);
            SPLIT_ACC1(xyh, xyl, _mm256_madd_epi16(tx, ty), fk);
        }
        STU(mu1v + j, _mm256_srl_epi32(_mm256_add_epi32(mu1, rmu), sbpc));
        STU(mu2v + j, _mm256_srl_epi32(_mm256_add_epi32(mu2, rmu), sbpc));
        STU(xxv + j, split_round(xxh, xxl, rs, sks, sks16));
        STU(yyv + j, split_round(yyh, yyl, rs, sks, sks16));
        STU(xyv + j, split_round(xyh, xyl, rs, sks, sks16));
    }
}

/* As vert_stats_16, for uint16_t rows of depth bpc (9..16). */
static av_always_inline void vert_16(uint32_t *mu1v, uint32_t *mu2v,
                                     uint32_t *xxv, uint32_t *yyv, uint32_t *xyv,
                                     const uint16_t *const *rr,
                                     const uint16_t *const *dr,
                                     const uint16_t *f, const int fw, int w,
                                     int bpc)
{
    const int half = fw / 2;
    const int ks   = 2 * (bpc - 8);
    const __m256i fc   = _mm256_set1_epi32(f[half]);
    const __m256i lo16 = _mm256_set1_epi32(0xffff);
    const __m256i rmu  = _mm256_set1_epi32(1 << (bpc - 1));
    const __m256i rs   = _mm256_set1_epi32(ks ? 1 << (ks - 1) : 0);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    const __m128i sks  = _mm_cvtsi32_si128(ks);
    const __m128i sks16 = _mm_cvtsi32_si128(16 - ks);

    if (bpc <= 15) {
        vert_15(mu1v, mu2v, xxv, yyv, xyv, rr, dr, f, fw, w, bpc);
        return;
    }
    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = FFMIN(j0, w - 8);
        __m256i x = LD16(rr[half] + j), y = LD16(dr[half] + j);
        __m256i x2 = _mm256_mullo_epi32(x, x);
        __m256i y2 = _mm256_mullo_epi32(y, y);
        __m256i p2 = _mm256_mullo_epi32(x, y);
        __m256i mu1 = _mm256_mullo_epi32(x, fc);
        __m256i mu2 = _mm256_mullo_epi32(y, fc);
        __m256i xxh = _mm256_mullo_epi32(_mm256_srli_epi32(x2, 16), fc);
        __m256i xxl = _mm256_mullo_epi32(_mm256_and_si256(x2, lo16), fc);
        __m256i yyh = _mm256_mullo_epi32(_mm256_srli_epi32(y2, 16), fc);
        __m256i yyl = _mm256_mullo_epi32(_mm256_and_si256(y2, lo16), fc);
        __m256i xyh = _mm256_mullo_epi32(_mm256_srli_epi32(p2, 16), fc);
        __m256i xyl = _mm256_mullo_epi32(_mm256_and_si256(p2, lo16), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const __m256i fk = _mm256_set1_epi32(f[k]);
            __m256i xa = LD16(rr[k] + j), xb = LD16(rr[fw - 1 - k] + j);
            __m256i ya = LD16(dr[k] + j), yb = LD16(dr[fw - 1 - k] + j);
            __m256i xa2 = _mm256_mullo_epi32(xa, xa), xb2 = _mm256_mullo_epi32(xb, xb);
            __m256i ya2 = _mm256_mullo_epi32(ya, ya), yb2 = _mm256_mullo_epi32(yb, yb);
            __m256i pa  = _mm256_mullo_epi32(xa, ya), pb  = _mm256_mullo_epi32(xb, yb);

            mu1 = _mm256_add_epi32(mu1, _mm256_mullo_epi32(_mm256_add_epi32(xa, xb), fk));
            mu2 = _mm256_add_epi32(mu2, _mm256_mullo_epi32(_mm256_add_epi32(ya, yb), fk));
            SPLIT_ACC(xxh, xxl, xa2, xb2, fk);
            SPLIT_ACC(yyh, yyl, ya2, yb2, fk);
            SPLIT_ACC(xyh, xyl, pa, pb, fk);
        }
        STU(mu1v + j, _mm256_srl_epi32(_mm256_add_epi32(mu1, rmu), sbpc));
        STU(mu2v + j, _mm256_srl_epi32(_mm256_add_epi32(mu2, rmu), sbpc));
        STU(xxv + j, split_round(xxh, xxl, rs, sks, sks16));
        STU(yyv + j, split_round(yyh, yyl, rs, sks, sks16));
        STU(xyv + j, split_round(xyh, xyl, rs, sks, sks16));
    }
}

/** hi32(a·b + 2^31) of each unsigned 32-bit lane. */
static av_always_inline __m256i mulhi_round(__m256i a, __m256i b)
{
    const __m256i rnd = _mm256_set1_epi64x(0x80000000);
    __m256i even = _mm256_add_epi64(_mm256_mul_epu32(a, b), rnd);
    __m256i odd  = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32),
                                                     _mm256_srli_epi64(b, 32)), rnd);
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xaa);
}

/*
 * 2048·log2(v) with v's mantissa truncated to 16 bits is tab[idx] + 2048·k
 * (idx: the 15 bits below the leading one, k: its position - 15). Only
 * sums of these are needed, so the functions below give idx and k, and
 * the table is read with scalar loads (gathers are slow on some CPUs and
 * sit at the end of a long chain of latencies): lanes that do not count
 * use idx 0 and are corrected for, or cancel.
 */

/** idx and k for unsigned 32-bit v >= 2^16 in every lane. */
static av_always_inline __m256i log2_32(__m256i *kout, __m256i v)
{
    /* x < 2^31 converts as a signed value; its float may round up to the
     * next power of two, which x >> e == 0 detects. */
    __m256i x = _mm256_srli_epi32(v, 1);
    __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(
                    _mm256_castps_si256(_mm256_cvtepi32_ps(x)), 23),
                    _mm256_set1_epi32(127));
    __m256i k, idx;

    e = _mm256_add_epi32(e, _mm256_cmpeq_epi32(_mm256_srlv_epi32(x, e),
                                               _mm256_setzero_si256()));
    /* The leading bit of v is e + 1: keep 16 bits, k = e + 1 - 15. */
    k   = _mm256_sub_epi32(e, _mm256_set1_epi32(14));
    idx = _mm256_sub_epi32(_mm256_srlv_epi32(v, k), _mm256_set1_epi32(32768));
    *kout = k;
    return idx;
}

/**
 * The same for four integer-valued doubles in [2^16, 2^52) (64-bit lanes):
 * the exponent is the leading bit, the top 15 bits of the significand idx.
 */
static av_always_inline __m256i log2_pd(__m256i *kout, __m256d v)
{
    const __m256i bits = _mm256_castpd_si256(v);
    *kout = _mm256_sub_epi64(_mm256_srli_epi64(bits, 52),
                             _mm256_set1_epi64x(1023 + 15));
    return _mm256_and_si256(_mm256_srli_epi64(bits, 37),
                            _mm256_set1_epi64x(0x7fff));
}

/** Add the eight int32 lanes of v to the four int64 lanes of acc. */
static av_always_inline __m256i add_wide(__m256i acc, __m256i v)
{
    acc = _mm256_add_epi64(acc, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)));
    return _mm256_add_epi64(acc, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
}

typedef struct VifSums {
    __m256i num_log, den_log, num_nonlog;   ///< the 2048·k parts, and σ2²
    int64_t num_tab, den_tab;               ///< the table parts
    int64_t den_nonlog;
} VifSums;

/*
 * The gain terms of four pixels (sig1, sig2, sig12 as doubles): the
 * textured value v = (int64)(g²·σ1²) + n1 for log2, as an exact double,
 * and sv2 (the clamped residual; n1 = sv2 + σn²).
 */
static av_always_inline __m256d gain_pd(__m128i *sv2, __m128i s1, __m128i s2,
                                        __m128i s12, __m256d egl)
{
    const __m256d d1  = _mm256_cvtepi32_pd(s1);
    const __m256d d12 = _mm256_cvtepi32_pd(s12);
    __m256d g  = _mm256_div_pd(d12, _mm256_add_pd(d1, _mm256_set1_pd(6.5536e-6)));
    __m256d gs = _mm256_mul_pd(g, d12);
    __m256d sv = _mm256_sub_pd(_mm256_cvtepi32_pd(s2), gs);
    __m256d t;

    /* (int32)sv where sv > 0, else 0; out-of-range gives INT32_MIN. */
    *sv2 = _mm_max_epi32(_mm256_cvttpd_epi32(sv), _mm_setzero_si128());
    g = _mm256_min_pd(g, egl);
    t = _mm256_mul_pd(_mm256_mul_pd(g, g), d1);
    t = _mm256_round_pd(t, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    return _mm256_add_pd(_mm256_add_pd(t, _mm256_cvtepi32_pd(*sv2)),
                         _mm256_set1_pd(SIGMA_NSQ));
}

/*
 * Horizontal pass over the padded vertical rows, as horiz_stats. It is a
 * loop of its own: the per-pixel terms that follow are one long chain of
 * latencies (division, gathers), which only overlaps across pixels in a
 * short loop.
 */
static av_always_inline void horiz(int32_t *s1v, int32_t *s2v, int32_t *s12v,
                                   const uint32_t *mu1v, const uint32_t *mu2v,
                                   const uint32_t *xxv, const uint32_t *yyv,
                                   const uint32_t *xyv,
                                   const uint16_t *f, const int fw, int w)
{
    const int half = fw / 2;
    const __m256i fc   = _mm256_set1_epi32(f[half]);
    const __m256i lo16 = _mm256_set1_epi32(0xffff);
    const __m256i r16  = _mm256_set1_epi32(32768);
    const __m128i s0   = _mm_cvtsi32_si128(0), s16 = _mm_cvtsi32_si128(16);

    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = FFMIN(j0, w - 8);
        __m256i xl, xr, mu1sq, mu2sq, mu12, xx, yy, xy;
        __m256i mu1 = _mm256_mullo_epi32(LDU(mu1v + j), fc);
        __m256i mu2 = _mm256_mullo_epi32(LDU(mu2v + j), fc);
        __m256i xxh = _mm256_mullo_epi32(_mm256_srli_epi32(LDU(xxv + j), 16), fc);
        __m256i xxl = _mm256_mullo_epi32(_mm256_and_si256(LDU(xxv + j), lo16), fc);
        __m256i yyh = _mm256_mullo_epi32(_mm256_srli_epi32(LDU(yyv + j), 16), fc);
        __m256i yyl = _mm256_mullo_epi32(_mm256_and_si256(LDU(yyv + j), lo16), fc);
        __m256i xyh = _mm256_mullo_epi32(_mm256_srli_epi32(LDU(xyv + j), 16), fc);
        __m256i xyl = _mm256_mullo_epi32(_mm256_and_si256(LDU(xyv + j), lo16), fc);

        _Pragma("GCC unroll 8")
        for (int k = 0; k < half; k++) {
            const int l = j - half + k, r = j + half - k;
            const __m256i fk = _mm256_set1_epi32(f[k]);
            mu1 = _mm256_add_epi32(mu1, _mm256_mullo_epi32(
                      _mm256_add_epi32(LDU(mu1v + l), LDU(mu1v + r)), fk));
            mu2 = _mm256_add_epi32(mu2, _mm256_mullo_epi32(
                      _mm256_add_epi32(LDU(mu2v + l), LDU(mu2v + r)), fk));
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
        STU(s1v + j, _mm256_sub_epi32(xx, mu1sq));
        STU(s2v + j, _mm256_max_epi32(_mm256_sub_epi32(yy, mu2sq), _mm256_setzero_si256()));
        STU(s12v + j, _mm256_sub_epi32(xy, mu12));
    }
}

/* The per-pixel terms of a row, as vif_accumulate_row. */
static av_always_inline void accum(VifSums *sums, const int32_t *s1v,
                                   const int32_t *s2v, const int32_t *s12v,
                                   int w, const uint16_t *tab, __m256d egl)
{
    const __m256i nsq  = _mm256_set1_epi32(SIGMA_NSQ);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256d nsq_pd = _mm256_set1_pd(SIGMA_NSQ);

    for (int j0 = 0; j0 < w; j0 += 8) {
        const int j = FFMIN(j0, w - 8);
        /* Lanes below j0 - j were counted by the previous vector. */
        const __m256i valid = _mm256_cmpgt_epi32(lane, _mm256_set1_epi32(j0 - j - 1));
        const __m256i s1 = LDU(s1v + j), s2 = LDU(s2v + j), s12 = LDU(s12v + j);
        __m256i tex, flat, gain, t, id0;

        /* Flat pixels: σ2² and a count. */
        tex  = _mm256_cmpgt_epi32(s1, _mm256_set1_epi32(SIGMA_NSQ - 1));
        flat = _mm256_andnot_si256(tex, valid);
        tex  = _mm256_and_si256(tex, valid);
        sums->num_nonlog = add_wide(sums->num_nonlog, _mm256_and_si256(flat, s2));
        sums->den_nonlog += __builtin_popcount(_mm256_movemask_ps(_mm256_castsi256_ps(flat)));
        if (!_mm256_testz_si256(tex, tex)) {
            DECLARE_ALIGNED(32, int32_t, id)[8];
            DECLARE_ALIGNED(32, int32_t, in1)[8];
            DECLARE_ALIGNED(32, int64_t, iv)[8];
            int64_t st = 0;
            __m256i k;

            /* log2(σ1² + σn²) - 17·2048; other lanes read entry 0, which
             * is taken out again. */
            id0 = _mm256_and_si256(log2_32(&k, _mm256_add_epi32(s1, nsq)), tex);
            t   = _mm256_sub_epi32(_mm256_slli_epi32(k, 11), _mm256_set1_epi32(2048 * 17));
            sums->den_log = add_wide(sums->den_log, _mm256_and_si256(t, tex));
            _mm256_store_si256((__m256i *)id, id0);
            for (int l = 0; l < 8; l++)
                st += tab[id[l]];
            sums->den_tab += st - (int64_t)tab[0] *
                (8 - __builtin_popcount(_mm256_movemask_ps(_mm256_castsi256_ps(tex))));

            gain = _mm256_and_si256(tex, _mm256_and_si256(
                       _mm256_cmpgt_epi32(s12, _mm256_setzero_si256()),
                       _mm256_cmpgt_epi32(s2, _mm256_setzero_si256())));
            if (!_mm256_testz_si256(gain, gain)) {
                __m128i sv_lo, sv_hi;
                __m256i k_lo, k_hi, kv, kn1;
                __m256d v_lo = gain_pd(&sv_lo, _mm256_castsi256_si128(s1),
                                       _mm256_castsi256_si128(s2),
                                       _mm256_castsi256_si128(s12), egl);
                __m256d v_hi = gain_pd(&sv_hi, _mm256_extracti128_si256(s1, 1),
                                       _mm256_extracti128_si256(s2, 1),
                                       _mm256_extracti128_si256(s12, 1), egl);
                __m256i n1;

                v_lo = _mm256_blendv_pd(nsq_pd, v_lo, _mm256_castsi256_pd(
                           _mm256_cvtepi32_epi64(_mm256_castsi256_si128(gain))));
                v_hi = _mm256_blendv_pd(nsq_pd, v_hi, _mm256_castsi256_pd(
                           _mm256_cvtepi32_epi64(_mm256_extracti128_si256(gain, 1))));
                /* Lanes without a gain term: v = σn², idx 0 for both. */
                _mm256_store_si256((__m256i *)iv, log2_pd(&k_lo, v_lo));
                _mm256_store_si256((__m256i *)(iv + 4), log2_pd(&k_hi, v_hi));
                n1 = _mm256_add_epi32(_mm256_set_m128i(sv_hi, sv_lo), nsq);
                _mm256_store_si256((__m256i *)in1,
                                   _mm256_and_si256(log2_32(&kn1, n1), gain));
                kv = _mm256_permutevar8x32_epi32(_mm256_blend_epi32(
                         k_lo, _mm256_slli_epi64(k_hi, 32), 0xaa),
                         _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
                t  = _mm256_slli_epi32(_mm256_sub_epi32(kv, kn1), 11);
                sums->num_log = add_wide(sums->num_log, _mm256_and_si256(t, gain));
                st = 0;
                for (int l = 0; l < 8; l++)
                    st += tab[iv[l]] - tab[in1[l]];
                sums->num_tab += st;
            }
        }
    }
}

static int64_t hsum64(__m256i v)
{
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
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
    const __m256d vegl = _mm256_set1_pd(egl);
    VifSums sums = { _mm256_setzero_si256(), _mm256_setzero_si256(),
                     _mm256_setzero_si256(), 0, 0, 0 };

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

void ff_vmaf_vif_statistic_avx2(FFVmafVifAccum *acc,
                                const uint8_t *ref, ptrdiff_t ref_stride,
                                const uint8_t *dis, ptrdiff_t dis_stride,
                                int w, int h, int bpc, int scale, double egl,
                                const uint16_t *log2_tab, void *tmp)
{
    if (w < 8) {
        ff_vmaf_vif_statistic(acc, ref, ref_stride, dis, dis_stride, w, h,
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
 * Pyramid step as vif_decimate_tmpl: vertical filter of the even rows into
 * a padded 32-bit row, then the horizontal filter at even columns, whose
 * taps are read as two vectors and compacted to their even lanes.
 */
static av_always_inline __m256i even_lanes(const uint32_t *p)
{
    __m256 a = _mm256_castsi256_ps(LDU(p)), b = _mm256_castsi256_ps(LDU(p + 8));
    __m256 e = _mm256_shuffle_ps(a, b, 0x88);   /* a0 a2 b0 b2 | a4 a6 b4 b6 */
    return _mm256_permute4x64_epi64(_mm256_castps_si256(e), 0xd8);
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
    const __m256i fc   = _mm256_set1_epi32(f[half]);
    const __m256i rnd  = _mm256_set1_epi32(1 << (bpc - 1));
    const __m256i r16  = _mm256_set1_epi32(32768);
    const __m128i sbpc = _mm_cvtsi32_si128(bpc);
    uint32_t *v = (uint32_t *)tmp + PAD;

    for (int i = 0; i < h / 2; i++) {
        const uint8_t  *rows[FF_VMAF_VIF_MAX_TAPS];
        const uint16_t *r16p[FF_VMAF_VIF_MAX_TAPS];

        for (int k = 0; k < fw; k++) {
            rows[k] = src + mirror(2 * i - half + k, h) * src_stride;
            r16p[k] = (const uint16_t *)rows[k];
        }

        for (int j0 = 0; j0 < w; j0 += 8) {
            const int j = FFMIN(j0, w - 8);
            __m256i s;
            if (bpc == 8) {
                s = _mm256_mullo_epi32(LD8(rows[half] + j), fc);
                _Pragma("GCC unroll 8")
                for (int k = 0; k < half; k++)
                    s = _mm256_add_epi32(s, _mm256_mullo_epi32(_mm256_add_epi32(
                            LD8(rows[k] + j), LD8(rows[fw - 1 - k] + j)),
                            _mm256_set1_epi32(f[k])));
            } else {
                s = _mm256_mullo_epi32(LD16(r16p[half] + j), fc);
                _Pragma("GCC unroll 8")
                for (int k = 0; k < half; k++)
                    s = _mm256_add_epi32(s, _mm256_mullo_epi32(_mm256_add_epi32(
                            LD16(r16p[k] + j), LD16(r16p[fw - 1 - k] + j)),
                            _mm256_set1_epi32(f[k])));
            }
            /* The C row is uint16_t: keep the low 16 bits as it does. */
            s = _mm256_srl_epi32(_mm256_add_epi32(s, rnd), sbpc);
            STU(v + j, _mm256_and_si256(s, _mm256_set1_epi32(0xffff)));
        }
        pad_row(v, w, half);

        for (int j0 = 0; j0 < w2; j0 += 8) {
            const int j = FFMIN(j0, w2 - 8);
            const int x = 2 * j;
            __m256i s = _mm256_mullo_epi32(even_lanes(v + x), fc);
            __m128i lo, hi;

            _Pragma("GCC unroll 8")
            for (int k = 0; k < half; k++)
                s = _mm256_add_epi32(s, _mm256_mullo_epi32(_mm256_add_epi32(
                        even_lanes(v + x - half + k), even_lanes(v + x + half - k)),
                        _mm256_set1_epi32(f[k])));
            s  = _mm256_srli_epi32(_mm256_add_epi32(s, r16), 16);
            lo = _mm256_castsi256_si128(s);
            hi = _mm256_extracti128_si256(s, 1);
            _mm_storeu_si128((__m128i *)(dst + j), _mm_packus_epi32(lo, hi));
        }
        dst = (uint16_t *)((uint8_t *)dst + dst_stride);
    }
}

void ff_vmaf_vif_decimate_avx2(uint16_t *dst, ptrdiff_t dst_stride,
                               const uint8_t *src, ptrdiff_t src_stride,
                               int w, int h, int bpc, int scale, void *tmp)
{
    if (w < 16) {
        ff_vmaf_vif_decimate(dst, dst_stride, src, src_stride, w, h, bpc, scale, tmp);
        return;
    }
    switch (scale) {
    case 1: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 1, tmp); break;
    case 2: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 2, tmp); break;
    default: decimate_tmpl(dst, dst_stride, src, src_stride, w, h, bpc, 3, tmp); break;
    }
}

FF_VMAF_TARGET_END
