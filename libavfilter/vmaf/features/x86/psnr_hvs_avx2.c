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
 * AVX2 PSNR-HVS kernels: each of the 8 blocks of a group in its own lane.
 *
 * The transform is integer arithmetic and exact in any order. The float
 * kernels run, per lane, the very operations of the C versions in the
 * same order (one rounding each, no FMA); only independent blocks are
 * computed side by side. sqrt is correctly rounded in IEEE 754, so
 * vsqrtpd gives what libm's sqrt() gives.
 */

#include <stdint.h>
#include <stdlib.h>

#include "libavutil/attributes.h"

#include "../psnr_hvs_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"

#define L FF_VMAF_PSNR_HVS_LANES

FF_VMAF_TARGET_BEGIN("avx2")

/* Halve, rounding toward zero: (a + (a < 0)) >> 1. */
static av_always_inline __m256i half(__m256i a)
{
    return _mm256_srai_epi32(_mm256_sub_epi32(a, _mm256_srai_epi32(a, 31)), 1);
}

/* (a * c + 2^(k-1)) >> k, in int32 like the C. */
static av_always_inline __m256i mul_shift(__m256i a, int c, int k)
{
    __m256i p = _mm256_mullo_epi32(a, _mm256_set1_epi32(c));
    return _mm256_srai_epi32(_mm256_add_epi32(p, _mm256_set1_epi32(1 << (k - 1))), k);
}

/* ff_vmaf_psnr_hvs_fdct8() on 8 lanes: y[k * ys] from x[k * xs]. */
static av_always_inline void fdct8(__m256i *y, int ys, const __m256i *x, int xs)
{
    __m256i t0 = x[0 * xs], t4 = x[1 * xs], t2 = x[2 * xs], t6 = x[3 * xs];
    __m256i t7 = x[4 * xs], t3 = x[5 * xs], t5 = x[6 * xs], t1 = x[7 * xs];
    __m256i t1h, t4h, t6h;

    t1  = _mm256_sub_epi32(t0, t1);
    t1h = half(t1);
    t0  = _mm256_sub_epi32(t0, t1h);
    t4  = _mm256_add_epi32(t4, t5);
    t4h = half(t4);
    t5  = _mm256_sub_epi32(t5, t4h);
    t3  = _mm256_sub_epi32(t2, t3);
    t2  = _mm256_sub_epi32(t2, half(t3));
    t6  = _mm256_add_epi32(t6, t7);
    t6h = half(t6);
    t7  = _mm256_sub_epi32(t6h, t7);

    t0 = _mm256_add_epi32(t0, t6h);
    t6 = _mm256_sub_epi32(t0, t6);
    t2 = _mm256_sub_epi32(t4h, t2);
    t4 = _mm256_sub_epi32(t2, t4);
    t0 = _mm256_sub_epi32(t0, mul_shift(t4, 13573, 15));
    t4 = _mm256_add_epi32(t4, mul_shift(t0, 11585, 14));
    t0 = _mm256_sub_epi32(t0, mul_shift(t4, 13573, 15));
    t6 = _mm256_sub_epi32(t6, mul_shift(t2, 21895, 15));
    t2 = _mm256_add_epi32(t2, mul_shift(t6, 15137, 14));
    t6 = _mm256_sub_epi32(t6, mul_shift(t2, 21895, 15));

    t3 = _mm256_add_epi32(t3, mul_shift(t5, 19195, 15));
    t5 = _mm256_add_epi32(t5, mul_shift(t3, 11585, 14));
    t3 = _mm256_sub_epi32(t3, mul_shift(t5,  7489, 13));
    t7 = _mm256_sub_epi32(half(t5), t7);
    t5 = _mm256_sub_epi32(t5, t7);
    t3 = _mm256_sub_epi32(t1h, t3);
    t1 = _mm256_sub_epi32(t1, t3);
    t7 = _mm256_add_epi32(t7, mul_shift(t1,  3227, 15));
    t1 = _mm256_sub_epi32(t1, mul_shift(t7,  6393, 15));
    t7 = _mm256_add_epi32(t7, mul_shift(t1,  3227, 15));
    t5 = _mm256_add_epi32(t5, mul_shift(t3,  2485, 13));
    t3 = _mm256_sub_epi32(t3, mul_shift(t5, 18205, 15));
    t5 = _mm256_add_epi32(t5, mul_shift(t3,  2485, 13));

    y[0 * ys] = t0; y[1 * ys] = t1; y[2 * ys] = t2; y[3 * ys] = t3;
    y[4 * ys] = t4; y[5 * ys] = t5; y[6 * ys] = t6; y[7 * ys] = t7;
}

/*
 * Row i of the 8 blocks, as 8 rows of 8 16-bit samples r[b], into the 8
 * vectors of samples (i, j), j = 0..7, one block per lane: an 8x8
 * transpose.
 */
static av_always_inline void store_row(int32_t *dst, const __m128i r[8])
{
    __m128i a0 = _mm_unpacklo_epi16(r[0], r[1]), a1 = _mm_unpackhi_epi16(r[0], r[1]);
    __m128i a2 = _mm_unpacklo_epi16(r[2], r[3]), a3 = _mm_unpackhi_epi16(r[2], r[3]);
    __m128i a4 = _mm_unpacklo_epi16(r[4], r[5]), a5 = _mm_unpackhi_epi16(r[4], r[5]);
    __m128i a6 = _mm_unpacklo_epi16(r[6], r[7]), a7 = _mm_unpackhi_epi16(r[6], r[7]);
    /* a0: blocks 0, 1 at j = 0..3 (a dword each), a1: j = 4..7; then
     * b0: blocks 0..3 at j = 0, 1 (a qword each), b2: blocks 4..7 ... */
    __m128i b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2);
    __m128i b2 = _mm_unpacklo_epi32(a4, a6), b3 = _mm_unpackhi_epi32(a4, a6);
    __m128i b4 = _mm_unpacklo_epi32(a1, a3), b5 = _mm_unpackhi_epi32(a1, a3);
    __m128i b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
    __m128i c[8];

    c[0] = _mm_unpacklo_epi64(b0, b2); c[1] = _mm_unpackhi_epi64(b0, b2);
    c[2] = _mm_unpacklo_epi64(b1, b3); c[3] = _mm_unpackhi_epi64(b1, b3);
    c[4] = _mm_unpacklo_epi64(b4, b6); c[5] = _mm_unpackhi_epi64(b4, b6);
    c[6] = _mm_unpacklo_epi64(b5, b7); c[7] = _mm_unpackhi_epi64(b5, b7);
    for (int j = 0; j < 8; j++)
        _mm256_storeu_si256((__m256i *)(dst + j * L), _mm256_cvtepu16_epi32(c[j]));
}

void ff_vmaf_psnr_hvs_load_8_avx2(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                                  ptrdiff_t linesize, int n, int bpc)
{
    for (int i = 0; i < 8; i++, src += linesize) {
        __m128i r[8];
        /* 8 bytes per block: exactly the samples the C reads. */
        for (int b = 0; b < L; b++)
            r[b] = b < n ? _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)(src + FF_VMAF_PSNR_HVS_STEP * b)))
                         : _mm_setzero_si128();
        store_row(dst + 8 * i * L, r);
    }
}

void ff_vmaf_psnr_hvs_load_16_avx2(int32_t dst[FF_VMAF_PSNR_HVS_GROUP], const uint8_t *src,
                                   ptrdiff_t linesize, int n, int bpc)
{
    const __m128i max = _mm_set1_epi16((int16_t)((1 << bpc) - 1));

    for (int i = 0; i < 8; i++, src += linesize) {
        const uint16_t *s = (const uint16_t *)src;
        __m128i r[8];
        for (int b = 0; b < L; b++)
            r[b] = b < n ? _mm_min_epu16(_mm_loadu_si128((const __m128i *)(s + FF_VMAF_PSNR_HVS_STEP * b)), max)
                         : _mm_setzero_si128();
        store_row(dst + 8 * i * L, r);
    }
}

unsigned ff_vmaf_psnr_hvs_diff_avx2(const int32_t a[FF_VMAF_PSNR_HVS_GROUP],
                                    const int32_t b[FF_VMAF_PSNR_HVS_GROUP])
{
    __m256i ne = _mm256_setzero_si256();

    for (int k = 0; k < 64; k++)
        ne = _mm256_or_si256(ne, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + k * L)),
                                                  _mm256_loadu_si256((const __m256i *)(b + k * L))));
    ne = _mm256_cmpeq_epi32(ne, _mm256_setzero_si256());
    return ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(ne)) & 0xff;
}

void ff_vmaf_psnr_hvs_fdct8x8_avx2(int32_t dst[FF_VMAF_PSNR_HVS_GROUP],
                                   const int32_t src[FF_VMAF_PSNR_HVS_GROUP])
{
    __m256i in[64], tmp[64], out[64];

    for (int k = 0; k < 64; k++)
        in[k] = _mm256_loadu_si256((const __m256i *)(src + k * L));
    /* Columns of each block into rows of tmp, then columns of tmp into
     * rows of dst, as in the C version. */
    for (int i = 0; i < 8; i++)
        fdct8(tmp + 8 * i, 1, in + i, 8);
    for (int u = 0; u < 8; u++)
        fdct8(out + 8 * u, 1, tmp + u, 8);
    for (int k = 0; k < 64; k++)
        _mm256_storeu_si256((__m256i *)(dst + k * L), out[k]);
}

void ff_vmaf_psnr_hvs_block_mask_avx2(float mask[FF_VMAF_PSNR_HVS_LANES],
                                      const int32_t px[FF_VMAF_PSNR_HVS_GROUP],
                                      const int32_t dct[FF_VMAF_PSNR_HVS_GROUP],
                                      const float mask_tab[64])
{
    const float gscale = (1.0f / 63.0f) * 64;
    const float qscale = (1.0f / 15.0f) * 16;
    const __m256 zero = _mm256_setzero_ps();
    __m256 v[64], gmean = zero, gvar = zero, m = zero, sum, r, mg;
    __m256 qmean[4] = { zero, zero, zero, zero }, qvar[4] = { zero, zero, zero, zero };
    __m256d lo, hi;

    for (int k = 0; k < 64; k++)
        v[k] = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(px + k * L)));

    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int q = (i >= 4) + 2 * (j >= 4);
            gmean    = _mm256_add_ps(gmean, v[8 * i + j]);
            qmean[q] = _mm256_add_ps(qmean[q], v[8 * i + j]);
        }
    gmean = _mm256_div_ps(gmean, _mm256_set1_ps(64.0f));
    for (int q = 0; q < 4; q++)
        qmean[q] = _mm256_div_ps(qmean[q], _mm256_set1_ps(16.0f));

    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int q = (i >= 4) + 2 * (j >= 4);
            __m256 dg = _mm256_sub_ps(v[8 * i + j], gmean);
            __m256 dq = _mm256_sub_ps(v[8 * i + j], qmean[q]);
            gvar    = _mm256_add_ps(gvar, _mm256_mul_ps(dg, dg));
            qvar[q] = _mm256_add_ps(qvar[q], _mm256_mul_ps(dq, dq));
        }
    gvar = _mm256_mul_ps(gvar, _mm256_set1_ps(gscale));
    for (int q = 0; q < 4; q++)
        qvar[q] = _mm256_mul_ps(qvar[q], _mm256_set1_ps(qscale));
    sum  = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(qvar[0], qvar[1]), qvar[2]), qvar[3]);
    r    = _mm256_div_ps(sum, gvar);
    gvar = _mm256_blendv_ps(gvar, r, _mm256_cmp_ps(gvar, zero, _CMP_GT_OQ));

    for (int k = 1; k < 64; k++) {
        __m256i d = _mm256_loadu_si256((const __m256i *)(dct + k * L));
        __m256 e2 = _mm256_cvtepi32_ps(_mm256_mullo_epi32(d, d));
        m = _mm256_add_ps(m, _mm256_mul_ps(e2, _mm256_set1_ps(mask_tab[k])));
    }
    mg = _mm256_mul_ps(m, gvar);
    lo = _mm256_cvtps_pd(_mm256_castps256_ps128(mg));
    hi = _mm256_cvtps_pd(_mm256_extractf128_ps(mg, 1));
    lo = _mm256_div_pd(_mm256_sqrt_pd(lo), _mm256_set1_pd(32.0));
    hi = _mm256_div_pd(_mm256_sqrt_pd(hi), _mm256_set1_pd(32.0));
    _mm_storeu_ps(mask,     _mm256_cvtpd_ps(lo));
    _mm_storeu_ps(mask + 4, _mm256_cvtpd_ps(hi));
}

float ff_vmaf_psnr_hvs_block_error_avx2(float acc,
                                        const int32_t dct_ref[FF_VMAF_PSNR_HVS_GROUP],
                                        const int32_t dct_dis[FF_VMAF_PSNR_HVS_GROUP],
                                        const float mask_ref[FF_VMAF_PSNR_HVS_LANES],
                                        const float mask_dis[FF_VMAF_PSNR_HVS_LANES],
                                        unsigned live, const float csf[64],
                                        const float mask_tab[64])
{
    float sq[FF_VMAF_PSNR_HVS_GROUP];
    __m256 mr = _mm256_loadu_ps(mask_ref), md = _mm256_loadu_ps(mask_dis);
    __m256 mask = _mm256_blendv_ps(mr, md, _mm256_cmp_ps(md, mr, _CMP_GT_OQ));
    const __m256 zero = _mm256_setzero_ps();

    /* The squared weighted errors of all lanes side by side; only their
     * sum into acc is serial, in the C order. */
    for (int k = 0; k < 64; k++) {
        __m256i r = _mm256_loadu_si256((const __m256i *)(dct_ref + k * L));
        __m256i d = _mm256_loadu_si256((const __m256i *)(dct_dis + k * L));
        __m256 e  = _mm256_cvtepi32_ps(_mm256_abs_epi32(_mm256_sub_epi32(r, d)));
        __m256 ec;
        if (k) {
            __m256 t = _mm256_div_ps(mask, _mm256_set1_ps(mask_tab[k]));
            e = _mm256_blendv_ps(_mm256_sub_ps(e, t), zero,
                                 _mm256_cmp_ps(e, t, _CMP_LT_OQ));
        }
        ec = _mm256_mul_ps(e, _mm256_set1_ps(csf[k]));
        _mm256_storeu_ps(sq + k * L, _mm256_mul_ps(ec, ec));
    }
    for (int b = 0; b < L; b++) {
        if (!(live & 1u << b))
            continue;
        for (int k = 0; k < 64; k++)
            acc += sq[k * L + b];
    }
    return acc;
}

FF_VMAF_TARGET_END
