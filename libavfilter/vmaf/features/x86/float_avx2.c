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
 * AVX2 versions of the float family's kernels (float_dsp.h), bit-exact
 * with the C ones.
 *
 * Each lane is one output pixel and goes through exactly the scalar
 * sequence of the C code: its sum starts at 0.0f, and each tap adds one
 * product rounded to float (vmulps, then vaddps: no FMA), taps in the
 * same order. Only independent outputs run side by side, so no sum is
 * reassociated. The C loops go tap-major over whole rows; here the sums
 * stay in registers over all taps, which changes the memory traffic and
 * not a single rounding. Edges and tails the vectors do not cover go
 * through the C code itself where it can take a column range (the C
 * function, or its steps inline in float_dsp.h), else through scalar
 * code with the same arithmetic.
 */

#include <math.h>

#include "libavutil/attributes.h"
#include "libavutil/common.h"

#include "../speed_dsp.h"
#include "float_simd.h"
#include "libavfilter/vmaf/x86/simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

void ff_vmaf_float_from_luma_avx2(float *dst, ptrdiff_t dst_stride,
                                  const uint8_t *src, ptrdiff_t linesize,
                                  int w, int h, int bpc, float offset)
{
    /* Division by a power of two: exact in vdivps as in C. */
    const __m256 vo = _mm256_set1_ps(offset);
    const __m256 vs = _mm256_set1_ps((float)(1 << (bpc - 8)));
    const int w8 = w & ~7;

    for (int i = 0; i < h; i++) {
        float *d = dst + i * dst_stride;

        if (bpc == 8) {
            const uint8_t *s = src + i * linesize;
            for (int j = 0; j < w8; j += 8) {
                __m128i b = _mm_loadl_epi64((const __m128i *)(s + j));
                __m256 f = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));
                _mm256_storeu_ps(d + j, _mm256_add_ps(f, vo));
            }
        } else {
            const uint16_t *s = (const uint16_t *)(src + i * linesize);
            for (int j = 0; j < w8; j += 8) {
                __m128i b = _mm_loadu_si128((const __m128i *)(s + j));
                __m256 f = _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(b));
                _mm256_storeu_ps(d + j, _mm256_add_ps(_mm256_div_ps(f, vs), vo));
            }
        }
    }
    /* The last w % 8 columns of every row, in one strip. */
    if (w8 < w)
        ff_vmaf_float_from_luma(dst + w8, dst_stride, src + w8 * (bpc == 8 ? 1 : 2),
                                linesize, w - w8, h, bpc, offset);
}

/* acc + c * x, rounded twice like the C statement acc += c * x. */
static av_always_inline __m256 madd(__m256 acc, __m256 c, __m256 x)
{
    return _mm256_add_ps(acc, _mm256_mul_ps(c, x));
}

/* p[0], p[2], ..., p[14] and p[1], p[3], ..., p[15]. */
static av_always_inline void deinterleave(const float *p, __m256 *even, __m256 *odd)
{
    __m256 v0 = _mm256_loadu_ps(p), v1 = _mm256_loadu_ps(p + 8);
    /* per 128-bit lane: v0[0] v0[2] v1[0] v1[2], then the 64-bit halves
     * are put back in order */
    __m256 e = _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0));
    __m256 o = _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1));
    *even = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e),
                                                   _MM_SHUFFLE(3, 1, 2, 0)));
    *odd  = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o),
                                                   _MM_SHUFFLE(3, 1, 2, 0)));
}

/*
 * Where tap k of a filter reads: rows[k], the mirrored source rows of the
 * vertical pass, or, with rows NULL, base + k, the padded row of the
 * horizontal one (computed, not loaded from a table: that is faster).
 */
static av_always_inline const float *filter_tap(const float *const *rows,
                                                const float *base, int k)
{
    return rows ? rows[k] : base + k;
}

/*
 * Outputs o0 <= o < nout of a filter whose tap k reads
 * filter_tap(rows, base, k)[o * step]. Only step 1 has vectors here.
 */
static av_always_inline void filter_taps(float *dst, const float *const *rows,
                                         const float *base, const float *g,
                                         int n, int step, int o0, int nout)
{
    int o = o0;

    if (step == 1) {
        for (; o + 32 <= nout; o += 32) {
            __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
            __m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
            for (int k = 0; k < n; k++) {
                const float *p = filter_tap(rows, base, k) + o;
                const __m256 c = _mm256_set1_ps(g[k]);
                a0 = madd(a0, c, _mm256_loadu_ps(p));
                a1 = madd(a1, c, _mm256_loadu_ps(p + 8));
                a2 = madd(a2, c, _mm256_loadu_ps(p + 16));
                a3 = madd(a3, c, _mm256_loadu_ps(p + 24));
            }
            _mm256_storeu_ps(dst + o,      a0);
            _mm256_storeu_ps(dst + o + 8,  a1);
            _mm256_storeu_ps(dst + o + 16, a2);
            _mm256_storeu_ps(dst + o + 24, a3);
        }
        for (; o + 8 <= nout; o += 8) {
            __m256 a0 = _mm256_setzero_ps();
            for (int k = 0; k < n; k++)
                a0 = madd(a0, _mm256_set1_ps(g[k]),
                          _mm256_loadu_ps(filter_tap(rows, base, k) + o));
            _mm256_storeu_ps(dst + o, a0);
        }
    }
    for (; o < nout; o++) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += g[k] * filter_tap(rows, base, k)[o * step];
        dst[o] = acc;
    }
}

void ff_vmaf_float_vfilter_avx2(float *dst, const float *src, ptrdiff_t stride,
                                int w, int h, int i, const float *g, int n)
{
    const float *rows[FF_VMAF_FLOAT_MAX_TAPS];

    for (int k = 0; k < n; k++)
        rows[k] = src + ff_vmaf_float_r101(i - n / 2 + k, h) * stride;
    filter_taps(dst, rows, NULL, g, n, 1, 0, w);
}

/* SpEED's vertical blur (speed_dsp.h) is this filter over the rows it gives. */
void ff_vmaf_speed_blur_v_avx2(float *row, const float *const *in,
                               const float *g, int n, int w)
{
    filter_taps(row, in, NULL, g, n, 1, 0, w);
}

void ff_vmaf_float_vfilter_stats_avx2(float *const dst[5], const float *x,
                                      const float *y, ptrdiff_t stride,
                                      int w, int h, int i, const float *g, int n)
{
    float *mu1 = dst[0], *mu2 = dst[1], *xx = dst[2], *yy = dst[3], *xy = dst[4];
    ptrdiff_t off[FF_VMAF_FLOAT_MAX_TAPS];
    int j = 0;

    for (int k = 0; k < n; k++)
        off[k] = ff_vmaf_float_r101(i - n / 2 + k, h) * stride;
    for (; j + 8 <= w; j += 8) {
        __m256 s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps();
        __m256 sxx = _mm256_setzero_ps(), syy = _mm256_setzero_ps();
        __m256 sxy = _mm256_setzero_ps();
        for (int k = 0; k < n; k++) {
            const __m256 c = _mm256_set1_ps(g[k]);
            const __m256 a = _mm256_loadu_ps(x + off[k] + j);
            const __m256 b = _mm256_loadu_ps(y + off[k] + j);
            /* the products are rounded to float before they are weighted */
            s1  = madd(s1,  c, a);
            s2  = madd(s2,  c, b);
            sxx = madd(sxx, c, _mm256_mul_ps(a, a));
            syy = madd(syy, c, _mm256_mul_ps(b, b));
            sxy = madd(sxy, c, _mm256_mul_ps(a, b));
        }
        _mm256_storeu_ps(mu1 + j, s1);
        _mm256_storeu_ps(mu2 + j, s2);
        _mm256_storeu_ps(xx + j,  sxx);
        _mm256_storeu_ps(yy + j,  syy);
        _mm256_storeu_ps(xy + j,  sxy);
    }
    if (j < w) {
        float *const rest[5] = { mu1 + j, mu2 + j, xx + j, yy + j, xy + j };
        ff_vmaf_float_vfilter_stats(rest, x + j, y + j, stride, w - j, h, i, g, n);
    }
}

void ff_vmaf_float_hfilter_avx2(float *dst, float *row, int w,
                                const float *g, int n, int step, int nout)
{
    const int r = n / 2;
    int o = 0;

    ff_vmaf_float_hfilter_border(row, w, r);
    if (step == 2) {
        /* Outputs o..o+7 read every other sample: tap k takes the even
         * ones from row + 2o + k - r, tap k + 1 the odd ones of the same
         * load. The last load reads up to row[2 (nout - 1) + 1 + r],
         * within the border since 2 nout <= w. */
        for (; o + 8 <= nout; o += 8) {
            __m256 a0 = _mm256_setzero_ps(), e, od;
            int k = 0;
            for (; k + 2 <= n; k += 2) {
                deinterleave(row + 2 * o + k - r, &e, &od);
                a0 = madd(a0, _mm256_set1_ps(g[k]),     e);
                a0 = madd(a0, _mm256_set1_ps(g[k + 1]), od);
            }
            if (k < n) {
                deinterleave(row + 2 * o + k - r, &e, &od);
                a0 = madd(a0, _mm256_set1_ps(g[k]), e);
            }
            _mm256_storeu_ps(dst + o, a0);
        }
    }
    filter_taps(dst, NULL, row - r, g, n, step, o, nout);
}

static av_always_inline __m256 dwt_sum8(const __m256 c[4], __m256 s0, __m256 s1,
                                        __m256 s2, __m256 s3)
{
    __m256 acc = _mm256_setzero_ps();
    acc = madd(acc, c[0], s0);
    acc = madd(acc, c[1], s1);
    acc = madd(acc, c[2], s2);
    acc = madd(acc, c[3], s3);
    return acc;
}

/*
 * One row through LO and HI horizontally, into ceil(w / 2) outputs; the
 * mirrored column 0 and what the vectors leave go through the C steps.
 */
static void dwt_row(float *lo_out, float *hi_out, const float *s, int w,
                    const __m256 lo[4], const __m256 hi[4])
{
    const int bw = (w + 1) / 2;
    int j;

    ff_vmaf_float_dwt_horiz(lo_out, hi_out, s, w, 0, 1);
    /* Output j reads s[2j - 1 .. 2j + 2]: inside the row while 2j + 2 < w. */
    for (j = 1; j + 8 <= bw && 2 * (j + 7) + 2 < w; j += 8) {
        const float *p = s + 2 * j - 1;
        __m256 s0, s1, s2, s3;
        deinterleave(p,     &s0, &s1);
        deinterleave(p + 2, &s2, &s3);
        _mm256_storeu_ps(lo_out + j, dwt_sum8(lo, s0, s1, s2, s3));
        _mm256_storeu_ps(hi_out + j, dwt_sum8(hi, s0, s1, s2, s3));
    }
    ff_vmaf_float_dwt_horiz(lo_out, hi_out, s, w, j, bw);
}

void ff_vmaf_float_dwt2_row_avx2(float *a, float *v, float *hb, float *d,
                                 const float *const src[FF_VMAF_DWT_TAPS], int w,
                                 float *tmp)
{
    const float *r0 = src[0], *r1 = src[1], *r2 = src[2], *r3 = src[3];
    float *lo = tmp, *hi = tmp + w;
    __m256 cl[4], ch[4];
    int j = 0;

    for (int k = 0; k < 4; k++) {
        cl[k] = _mm256_set1_ps(ff_vmaf_dwt_lo[k]);
        ch[k] = _mm256_set1_ps(ff_vmaf_dwt_hi[k]);
    }
    for (; j + 8 <= w; j += 8) {
        __m256 s0 = _mm256_loadu_ps(r0 + j), s1 = _mm256_loadu_ps(r1 + j);
        __m256 s2 = _mm256_loadu_ps(r2 + j), s3 = _mm256_loadu_ps(r3 + j);
        _mm256_storeu_ps(lo + j, dwt_sum8(cl, s0, s1, s2, s3));
        _mm256_storeu_ps(hi + j, dwt_sum8(ch, s0, s1, s2, s3));
    }
    ff_vmaf_float_dwt_vert(lo, hi, src, j, w);
    dwt_row(a,  v, lo, w, cl, ch);
    dwt_row(hb, d, hi, w, cl, ch);
}

/* 32-bit lane masks from the 64-bit ones of two double comparisons. */
static av_always_inline __m256 pack_mask(__m256d lo, __m256d hi)
{
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m256 l = _mm256_permutevar8x32_ps(_mm256_castpd_ps(lo), idx);
    __m256 h = _mm256_permutevar8x32_ps(_mm256_castpd_ps(hi), idx);
    return _mm256_permute2f128_ps(l, h, 0x20);
}

/* The fast log2 of vif_terms, lane by lane: exponent plus the same
 * polynomial, Horner in float, -inf for zero. */
static av_always_inline __m256 vif_log2(__m256 x)
{
    static const float poly[] = {
        -0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
         0.257167726303123f, -0.353800560300520f, 0.480131410397451f,
        -0.721314327952201f, 1.442694803896991f, 0.0f,
    };
    const __m256i u = _mm256_castps_si256(x);
    const __m256i e = _mm256_and_si256(_mm256_srli_epi32(u, 23), _mm256_set1_epi32(0xff));
    const __m256 m = _mm256_castsi256_ps(
        _mm256_or_si256(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffff)),
                        _mm256_set1_epi32(127 << 23)));
    const __m256 t = _mm256_sub_ps(m, _mm256_set1_ps(1.0f));
    __m256 p = _mm256_setzero_ps(), r;

    for (int i = 0; i < 9; i++)
        p = _mm256_add_ps(_mm256_mul_ps(p, t), _mm256_set1_ps(poly[i]));
    r = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(e, _mm256_set1_epi32(127))), p);
    return _mm256_blendv_ps(r, _mm256_set1_ps(-INFINITY),
                            _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ));
}

/* (float)(1.0 + (double)a / ((double)b + c)) for 8 lanes, 4 at a time in
 * double as the C does; c_add = 0 skips the addition (b / c alone). */
static av_always_inline __m256 ratio_pd(__m256 a, __m256 b, __m256d c, int c_add)
{
    const __m256d one = _mm256_set1_pd(1.0);
    __m256d a0 = _mm256_cvtps_pd(_mm256_castps256_ps128(a));
    __m256d a1 = _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1));
    __m256d b0, b1;

    if (c_add) {
        b0 = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(b)), c);
        b1 = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(b, 1)), c);
    } else {
        b0 = b1 = c;
    }
    a0 = _mm256_add_pd(one, _mm256_div_pd(a0, b0));
    a1 = _mm256_add_pd(one, _mm256_div_pd(a1, b1));
    return _mm256_set_m128(_mm256_cvtpd_ps(a1), _mm256_cvtpd_ps(a0));
}

/*
 * Eight pixels side by side through the C's steps: every if becomes a
 * blend under the same comparison, FFMAX(a, b) is vmaxps(a, b) (a > b ?
 * a : b) and FFMIN(a, b) is vminps(b, a), so even equal zeros and NaNs
 * pick the operand C picks. The double steps run on two halves of four.
 */
void ff_vmaf_float_vif_terms_avx2(float *num, float *den, const float *const st[5],
                                  int w, double sigma_nsq, float egl)
{
    const float *mu1 = st[0], *mu2 = st[1], *xx = st[2], *yy = st[3], *xy = st[4];
    const __m256 zero = _mm256_setzero_ps(), eps = _mm256_set1_ps(1e-10f);
    const __m256 vegl = _mm256_set1_ps(egl), one = _mm256_set1_ps(1.0f);
    const __m256 smi = _mm256_set1_ps((float)(powf((float)sigma_nsq, 2.0f) / 65025.0));
    const __m256d nsq = _mm256_set1_pd(sigma_nsq);
    int j = 0;

    for (; j + 8 <= w; j += 8) {
        const __m256 m1 = _mm256_loadu_ps(mu1 + j), m2 = _mm256_loadu_ps(mu2 + j);
        __m256 s1  = _mm256_sub_ps(_mm256_loadu_ps(xx + j), _mm256_mul_ps(m1, m1));
        __m256 s2  = _mm256_sub_ps(_mm256_loadu_ps(yy + j), _mm256_mul_ps(m2, m2));
        __m256 s12 = _mm256_sub_ps(_mm256_loadu_ps(xy + j), _mm256_mul_ps(m1, m2));
        __m256 gain, sv, c, nump, denp, flat;

        s1   = _mm256_max_ps(s1, zero);
        s2   = _mm256_max_ps(s2, zero);
        gain = _mm256_div_ps(s12, _mm256_add_ps(s1, eps));
        sv   = _mm256_sub_ps(s2, _mm256_mul_ps(gain, s12));
        c    = _mm256_cmp_ps(s1, eps, _CMP_LT_OQ);
        gain = _mm256_blendv_ps(gain, zero, c);
        sv   = _mm256_blendv_ps(sv, s2, c);
        s1   = _mm256_blendv_ps(s1, zero, c);
        c    = _mm256_cmp_ps(s2, eps, _CMP_LT_OQ);
        gain = _mm256_blendv_ps(gain, zero, c);
        sv   = _mm256_blendv_ps(sv, zero, c);
        c    = _mm256_cmp_ps(gain, zero, _CMP_LT_OQ);
        sv   = _mm256_blendv_ps(sv, s2, c);
        gain = _mm256_blendv_ps(gain, zero, c);
        sv   = _mm256_max_ps(sv, eps);
        gain = _mm256_min_ps(vegl, gain);

        nump = vif_log2(ratio_pd(_mm256_mul_ps(_mm256_mul_ps(gain, gain), s1), sv, nsq, 1));
        denp = vif_log2(ratio_pd(s1, s1, nsq, 0));
        nump = _mm256_blendv_ps(nump, zero, _mm256_cmp_ps(s12, zero, _CMP_LT_OQ));
        flat = pack_mask(
            _mm256_cmp_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(s1)), nsq, _CMP_LT_OQ),
            _mm256_cmp_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(s1, 1)), nsq, _CMP_LT_OQ));
        nump = _mm256_blendv_ps(nump, _mm256_sub_ps(one, _mm256_mul_ps(s2, smi)), flat);
        denp = _mm256_blendv_ps(denp, one, flat);
        _mm256_storeu_ps(num + j, nump);
        _mm256_storeu_ps(den + j, denp);
    }
    if (j < w) {
        const float *const rest[5] = { mu1 + j, mu2 + j, xx + j, yy + j, xy + j };
        ff_vmaf_float_vif_terms(num + j, den + j, rest, w - j, sigma_nsq, egl);
    }
}

static av_always_inline __m256 abs_ps(__m256 x)
{
    return _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
}

/* (float)((double)a + k * (double)b) for 8 lanes, in two halves of four. */
static av_always_inline __m256 add_scaled_pd(__m256 a, double k, __m256 b)
{
    const __m256d vk = _mm256_set1_pd(k);
    __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(a)),
                               _mm256_mul_pd(vk, _mm256_cvtps_pd(_mm256_castps256_ps128(b))));
    __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)),
                               _mm256_mul_pd(vk, _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1))));
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

/* (float)(k * (double)b) for 8 lanes. */
static av_always_inline __m256 scale_pd(double k, __m256 b)
{
    const __m256d vk = _mm256_set1_pd(k);
    __m256d lo = _mm256_mul_pd(vk, _mm256_cvtps_pd(_mm256_castps256_ps128(b)));
    __m256d hi = _mm256_mul_pd(vk, _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1)));
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

/*
 * Eight columns at a time where both neighbours are inside the band
 * (1 <= j <= w - 2); the mirrored first and last columns go through C.
 * Each lane's threshold is the same chain of float additions, with the
 * centre term added in double, as the C's.
 */
void ff_vmaf_float_adm_cm_avx2(float *const out[3], const float *const sig[3],
                               const float *const mdst[3], const float *const mflt[3][3],
                               int j0, int j1, int w, int bypass)
{
    const __m256 zero = _mm256_setzero_ps();
    const int end = FFMIN(j1, w - 1);
    int j = j0;

    if (j == 0 && j < j1) {
        ff_vmaf_float_adm_cm(out, sig, mdst, mflt, 0, 1, w, bypass);
        j = 1;
    }
    for (; j + 8 <= end; j += 8) {
        __m256 thr = zero;

        if (!bypass)
            for (int ori = 0; ori < 3; ori++) {
                const float *f0 = mflt[0][ori] + j, *f1 = mflt[1][ori] + j;
                const float *f2 = mflt[2][ori] + j;
                __m256 sum = zero;
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f0 - 1));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f0));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f0 + 1));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f1 - 1));
                sum = add_scaled_pd(sum, 0.0666666701,
                                    abs_ps(_mm256_loadu_ps(mdst[ori] + j)));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f1 + 1));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f2 - 1));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f2));
                sum = _mm256_add_ps(sum, _mm256_loadu_ps(f2 + 1));
                thr = _mm256_add_ps(thr, sum);
            }
        for (int ori = 0; ori < 3; ori++) {
            __m256 x = _mm256_sub_ps(abs_ps(_mm256_loadu_ps(sig[ori] + j)), thr);
            _mm256_storeu_ps(out[ori] + j, _mm256_max_ps(x, zero));
        }
    }
    if (j < j1)
        ff_vmaf_float_adm_cm(out, sig, mdst, mflt, j, j1, w, bypass);
}

/*
 * Eight columns side by side: the reciprocal estimate is vrcpps (the same
 * estimate as the C's rcpss, lane by lane), every if a blend under the
 * same comparison; FFMIN(a, b) in double is vminpd(b, a) and FFMAX(a, b)
 * vmaxpd(a, b), which pick C's operand in every case.
 */
void ff_vmaf_float_adm_decouple_avx2(float *const dst_r[3], float *const flt_r[3],
                                     float *const dst_a[3], float *const flt_a[3],
                                     const float *const o[3], const float *const t[3],
                                     const float rf[2], double egl, int j0, int j1)
{
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 cos_1deg_sq = _mm256_set1_ps(0x1.ffd814p-1f);
    const __m256 tiny = _mm256_set1_ps(1e-30f);
    const __m256d vegl = _mm256_set1_pd(egl);
    int j = j0;

    for (; j + 8 <= j1; j += 8) {
        const __m256 oh = _mm256_loadu_ps(o[0] + j), ov = _mm256_loadu_ps(o[1] + j);
        const __m256 th = _mm256_loadu_ps(t[0] + j), tv = _mm256_loadu_ps(t[1] + j);
        const __m256 ot = _mm256_add_ps(_mm256_mul_ps(oh, th), _mm256_mul_ps(ov, tv));
        const __m256 oo = _mm256_add_ps(_mm256_mul_ps(oh, oh), _mm256_mul_ps(ov, ov));
        const __m256 tt = _mm256_add_ps(_mm256_mul_ps(th, th), _mm256_mul_ps(tv, tv));
        const __m256 angle = _mm256_and_ps(
            _mm256_cmp_ps(ot, zero, _CMP_GE_OQ),
            _mm256_cmp_ps(_mm256_mul_ps(ot, ot),
                          _mm256_mul_ps(_mm256_mul_ps(cos_1deg_sq, oo), tt), _CMP_GE_OQ));

        for (int ori = 0; ori < 3; ori++) {
            const __m256 ox = _mm256_loadu_ps(o[ori] + j), tx = _mm256_loadu_ps(t[ori] + j);
            const __m256 c = _mm256_set1_ps(rf[ori == 2]);
            __m256 d = _mm256_add_ps(ox, tiny);
            __m256 y = _mm256_rcp_ps(d), k, r, a, rr, pos, neg, dr, da;
            __m256d r0, r1, t0, t1, e0, e1;

            y = _mm256_add_ps(y, _mm256_mul_ps(y, _mm256_sub_ps(one, _mm256_mul_ps(d, y))));
            k = _mm256_mul_ps(tx, y);
            /* k < 0 ? 0 : k > 1 ? 1 : k */
            k = _mm256_blendv_ps(_mm256_blendv_ps(k, one, _mm256_cmp_ps(k, one, _CMP_GT_OQ)),
                                 zero, _mm256_cmp_ps(k, zero, _CMP_LT_OQ));
            r = _mm256_mul_ps(k, ox);

            r0 = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(r)), vegl);
            r1 = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(r, 1)), vegl);
            t0 = _mm256_cvtps_pd(_mm256_castps256_ps128(tx));
            t1 = _mm256_cvtps_pd(_mm256_extractf128_ps(tx, 1));
            /* r > 0: (float)FFMIN(r * egl, t); r < 0: (float)FFMAX(r * egl, t) */
            e0 = _mm256_min_pd(t0, r0);
            e1 = _mm256_min_pd(t1, r1);
            pos = _mm256_set_m128(_mm256_cvtpd_ps(e1), _mm256_cvtpd_ps(e0));
            e0 = _mm256_max_pd(r0, t0);
            e1 = _mm256_max_pd(r1, t1);
            neg = _mm256_set_m128(_mm256_cvtpd_ps(e1), _mm256_cvtpd_ps(e0));
            rr = _mm256_blendv_ps(r, pos, _mm256_and_ps(angle, _mm256_cmp_ps(r, zero, _CMP_GT_OQ)));
            rr = _mm256_blendv_ps(rr, neg, _mm256_and_ps(angle, _mm256_cmp_ps(r, zero, _CMP_LT_OQ)));
            a  = _mm256_sub_ps(tx, rr);

            dr = _mm256_mul_ps(c, rr);
            da = _mm256_mul_ps(c, a);
            _mm256_storeu_ps(dst_r[ori] + j, dr);
            _mm256_storeu_ps(flt_r[ori] + j, scale_pd(0.0333333351, abs_ps(dr)));
            _mm256_storeu_ps(dst_a[ori] + j, da);
            _mm256_storeu_ps(flt_a[ori] + j, scale_pd(0.0333333351, abs_ps(da)));
        }
    }
    if (j < j1)
        ff_vmaf_float_adm_decouple(dst_r, flt_r, dst_a, flt_a, o, t, rf, egl, j, j1);
}

/* Output column j of filter2d with the mirror (ANSNR's border is the DWT's). */
static av_always_inline float filter2d_px(const float *const *rows, const float *k,
                                          int n, int w, int j)
{
    const int r = n / 2;
    float acc = 0.0f;

    for (int fi = 0; fi < n; fi++) {
        float inner = 0.0f;
        for (int fj = 0; fj < n; fj++)
            inner += k[fi * n + fj] * rows[fi][ff_vmaf_float_dwt_index(j - r + fj, w)];
        acc += inner;
    }
    return acc;
}

/*
 * Each output sums, kernel row by kernel row, a float sum of that row's
 * products, as the C does through its padded row; here the interior
 * columns read the source rows directly (the padded row equals them
 * there), and the r columns at each edge take the mirror in scalar code.
 */
void ff_vmaf_float_filter2d_avx2(float *dst, ptrdiff_t dst_stride,
                                 const float *src, ptrdiff_t src_stride,
                                 int w, int h, const float *k, int n, float *tmp)
{
    const int r = n / 2;
    const float *rows[FF_VMAF_FLOAT_MAX_TAPS];

    for (int i = 0; i < h; i++) {
        float *d = dst + i * dst_stride;
        int j = 0;

        for (int fi = 0; fi < n; fi++)
            rows[fi] = src + ff_vmaf_float_dwt_index(i - r + fi, h) * src_stride;
        for (; j < w && !(j >= r && j + 8 + r <= w); j++)
            d[j] = filter2d_px(rows, k, n, w, j);
        for (; j + 8 + r <= w; j += 8) {
            __m256 acc = _mm256_setzero_ps();
            for (int fi = 0; fi < n; fi++) {
                const float *p = rows[fi] + j - r;
                __m256 inner = _mm256_setzero_ps();
                for (int fj = 0; fj < n; fj++)
                    inner = madd(inner, _mm256_set1_ps(k[fi * n + fj]),
                                 _mm256_loadu_ps(p + fj));
                acc = _mm256_add_ps(acc, inner);
            }
            _mm256_storeu_ps(d + j, acc);
        }
        for (; j < w; j++)
            d[j] = filter2d_px(rows, k, n, w, j);
    }
}

FF_VMAF_TARGET_END
