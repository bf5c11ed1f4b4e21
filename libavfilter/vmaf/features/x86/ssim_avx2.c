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
 * AVX2 SSIM / MS-SSIM kernels (ssim_dsp.h), bit-exact with the C ones.
 *
 * The lanes are independent outputs; each keeps the C evaluation of its
 * own value: a float product of tap and sample, widened to double and
 * added in double in tap order (8 float lanes become two 4-lane doubles),
 * stored as float. Nothing is fused (no FMA is enabled here) and no sum is
 * reordered; the sums over positions are added in scalar, in x order.
 */

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/attributes.h"
#include "libavutil/mem_internal.h"

#include "../ssim_dsp.h"
#include "libavfilter/vmaf/x86/simd.h"

FF_VMAF_TARGET_BEGIN("avx2")

/* acc[0..1] += (double)(k * v), lanes 0-3 and 4-7. */
static av_always_inline void mac8(__m256d acc[2], __m256 k, __m256 v)
{
    __m256 p = _mm256_mul_ps(k, v);
    acc[0] = _mm256_add_pd(acc[0], _mm256_cvtps_pd(_mm256_castps256_ps128(p)));
    acc[1] = _mm256_add_pd(acc[1], _mm256_cvtps_pd(_mm256_extractf128_ps(p, 1)));
}

/* The same from memory: two 4-lane products, no lane extraction. */
static av_always_inline void mac8m(__m256d acc[2], __m256 k, const float *v)
{
    const __m128 k4 = _mm256_castps256_ps128(k);
    acc[0] = _mm256_add_pd(acc[0], _mm256_cvtps_pd(_mm_mul_ps(k4, _mm_loadu_ps(v))));
    acc[1] = _mm256_add_pd(acc[1], _mm256_cvtps_pd(_mm_mul_ps(k4, _mm_loadu_ps(v + 4))));
}

/* The two double halves rounded to float, as eight lanes. */
static av_always_inline __m256 to_float8(const __m256d acc[2])
{
    return _mm256_set_m128(_mm256_cvtpd_ps(acc[1]), _mm256_cvtpd_ps(acc[0]));
}

static av_always_inline __m256d lo_pd(__m256 v)
{
    return _mm256_cvtps_pd(_mm256_castps256_ps128(v));
}

static av_always_inline __m256d hi_pd(__m256 v)
{
    return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
}

void ff_vmaf_ssim_load_avx2(float *dst, ptrdiff_t dst_stride,
                            const uint8_t *src, ptrdiff_t src_stride,
                            int w, int h, int bpc)
{
    if (bpc == 8) {
        for (int y = 0; y < h; y++) {
            const uint8_t *s = src + y * src_stride;
            float *d = dst + y * dst_stride;
            int x;
            for (x = 0; x + 8 <= w; x += 8) {
                __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(s + x)));
                _mm256_storeu_ps(d + x, _mm256_cvtepi32_ps(v));
            }
            for (; x < w; x++)
                d[x] = s[x];
        }
    } else {
        /* The C quotient by the same power of two: exact either way. */
        const float div = (float)(1 << (bpc - 8));
        const __m256 vdiv = _mm256_set1_ps(div);
        for (int y = 0; y < h; y++) {
            const uint16_t *s = (const uint16_t *)(src + y * src_stride);
            float *d = dst + y * dst_stride;
            int x;
            for (x = 0; x + 8 <= w; x += 8) {
                __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(s + x)));
                _mm256_storeu_ps(d + x, _mm256_div_ps(_mm256_cvtepi32_ps(v), vdiv));
            }
            for (; x < w; x++)
                d[x] = s[x] / div;
        }
    }
}

static int mirror_sym(int i, int n)
{
    while (i < 0 || i >= n)
        i = i < 0 ? -1 - i : 2 * n - 1 - i;
    return i;
}

/* ------------------------------------------------------------------ */
/* Box decimation by 2, 4 and 8 (float_ssim from 480p to 4K) */

/* One output from its f rows, columns c0 .. c0 + f - 1 mirrored, as the C
 * kernel computes it. */
static float box_at(const float *const *rows, int c0, int w, int f, float weight)
{
    double acc = 0.0;
    int cols[8];

    for (int k = 0; k < f; k++)
        cols[k] = mirror_sym(c0 + k, w);
    for (int ky = 0; ky < f; ky++)
        for (int kx = 0; kx < f; kx++)
            acc += weight * rows[ky][cols[kx]];
    return (float)acc;
}

/*
 * Outputs d[0 .. 8 nb - 1] from columns c .. c + 8 f nb - 1 of the f rows:
 * the 8 f samples of a row are the f taps of 8 outputs, transposed so that
 * vector kx holds tap kx of each output. For f = 2 and 4 the lanes come out
 * in the order of perm_2 / perm_4, which the store puts back; f = 8 is a
 * full 8 x 8 transpose, in order.
 */
static av_always_inline void box_blocks(float *d, const float *const *rows, int c,
                                        __m256 wv, int f, int nb)
{
    __m256d acc[2][2];

    for (int j = 0; j < nb; j++)
        acc[j][0] = acc[j][1] = _mm256_setzero_pd();
    for (int ky = 0; ky < f; ky++) {
        for (int j = 0; j < nb; j++) {
            const float *r = rows[ky] + c + 8 * f * j;
            if (f == 2) {
                __m256 v0 = _mm256_loadu_ps(r), v1 = _mm256_loadu_ps(r + 8);
                /* lanes: outputs 0 1 4 5 2 3 6 7 */
                mac8(acc[j], wv, _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0)));
                mac8(acc[j], wv, _mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1)));
            } else if (f == 4) {
                __m256 v0 = _mm256_loadu_ps(r),      v1 = _mm256_loadu_ps(r + 8);
                __m256 v2 = _mm256_loadu_ps(r + 16), v3 = _mm256_loadu_ps(r + 24);
                __m256 t0 = _mm256_unpacklo_ps(v0, v1), t1 = _mm256_unpackhi_ps(v0, v1);
                __m256 t2 = _mm256_unpacklo_ps(v2, v3), t3 = _mm256_unpackhi_ps(v2, v3);
                /* lanes: outputs 0 2 4 6 1 3 5 7 */
                mac8(acc[j], wv, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)));
                mac8(acc[j], wv, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)));
                mac8(acc[j], wv, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)));
                mac8(acc[j], wv, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)));
            } else {
                __m256 t[8], u[8];
                for (int i = 0; i < 8; i += 2) {
                    __m256 a = _mm256_loadu_ps(r + 8 * i), b = _mm256_loadu_ps(r + 8 * i + 8);
                    t[i]     = _mm256_unpacklo_ps(a, b);
                    t[i + 1] = _mm256_unpackhi_ps(a, b);
                }
                for (int i = 0; i < 8; i += 4) {
                    u[i]     = _mm256_shuffle_ps(t[i],     t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
                    u[i + 1] = _mm256_shuffle_ps(t[i],     t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
                    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
                    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
                }
                /* u[k] holds tap k (low half) and tap k + 4 (high half)
                 * of outputs 0-3 (u[0..3]) and 4-7 (u[4..7]) */
                for (int k = 0; k < 4; k++)
                    mac8(acc[j], wv, _mm256_permute2f128_ps(u[k], u[k + 4], 0x20));
                for (int k = 0; k < 4; k++)
                    mac8(acc[j], wv, _mm256_permute2f128_ps(u[k], u[k + 4], 0x31));
            }
        }
    }
    for (int j = 0; j < nb; j++) {
        __m256 v = to_float8(acc[j]);
        if (f == 2)
            v = _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
        else if (f == 4)
            v = _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_ps(d + 8 * j, v);
    }
}

static av_always_inline void box_decimate(float *dst, ptrdiff_t dst_stride,
                                          const float *src, ptrdiff_t src_stride,
                                          int w, int h, int f)
{
    const int ow = ff_vmaf_ssim_decimated_size(w, f);
    const int oh = ff_vmaf_ssim_decimated_size(h, f);
    const int lo = -(f / 2);
    const float weight = 1.0f / (f * f);
    const __m256 wv = _mm256_set1_ps(weight);
    /* Outputs [x0, x1) read no column outside the plane. */
    const int x0 = (-lo + f - 1) / f;
    int x1 = w - f - lo < 0 ? 0 : (w - f - lo) / f + 1;

    if (x1 < x0)
        x1 = x0;
    if (x1 > ow)
        x1 = ow;

    for (int oy = 0; oy < oh; oy++) {
        const float *rows[8];
        float *d = dst + oy * dst_stride;
        int ox;

        for (int k = 0; k < f; k++)
            rows[k] = src + mirror_sym(oy * f + lo + k, h) * src_stride;
        for (ox = 0; ox < x0 && ox < ow; ox++)
            d[ox] = box_at(rows, ox * f + lo, w, f, weight);
        for (; ox + 16 <= x1; ox += 16)
            box_blocks(d + ox, rows, ox * f + lo, wv, f, 2);
        for (; ox + 8 <= x1; ox += 8)
            box_blocks(d + ox, rows, ox * f + lo, wv, f, 1);
        for (; ox < ow; ox++)
            d[ox] = box_at(rows, ox * f + lo, w, f, weight);
    }
}

void ff_vmaf_ssim_box_decimate_avx2(float *dst, ptrdiff_t dst_stride,
                                    const float *src, ptrdiff_t src_stride,
                                    int w, int h, int factor)
{
    switch (factor) {
    case 2:  box_decimate(dst, dst_stride, src, src_stride, w, h, 2); break;
    case 4:  box_decimate(dst, dst_stride, src, src_stride, w, h, 4); break;
    case 8:  box_decimate(dst, dst_stride, src, src_stride, w, h, 8); break;
    default: ff_vmaf_ssim_box_decimate(dst, dst_stride, src, src_stride, w, h, factor);
    }
}

/* ------------------------------------------------------------------ */
/* MS-SSIM decimation */

#define LP FF_VMAF_MS_SSIM_LOWPASS
/* Outputs per strip: the strip's rows are split into even and odd
 * columns first, so that every tap is one unaligned load. */
#define STRIP 128
#define CACHE 16
/* Output rows ahead whose new input rows are prefetched. */
#define PREFETCH 2
/* Blocks of 8 outputs computed side by side. */
#define NBLK 4

/* One output, as the C kernel computes it. */
static float lowpass_at(const float *const rows[LP], int c0, int w)
{
    double acc = 0.0;
    int cols[LP];

    for (int k = 0; k < LP; k++)
        cols[k] = mirror_sym(c0 + k, w);
    for (int ky = 0; ky < LP; ky++) {
        const float *k = ff_vmaf_ms_ssim_lowpass[ky], *r = rows[ky];
        for (int kx = 0; kx < LP; kx++)
            acc += k[kx] * r[cols[kx]];
    }
    return (float)acc;
}

/* e[i] = r[2 i] for i < ne, o[i] = r[2 i + 1] for 2 i + 1 < 2 ne - 1:
 * reads r[0 .. 2 ne - 2] only. */
static av_always_inline void deinterleave(float *e, float *o, const float *r, int ne)
{
    const int n = 2 * ne - 1;
    int i;

    for (i = 0; 2 * i + 16 <= n; i += 8) {
        __m256 lo = _mm256_loadu_ps(r + 2 * i), hi = _mm256_loadu_ps(r + 2 * i + 8);
        __m256 ev = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        __m256 od = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
        ev = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(ev), _MM_SHUFFLE(3, 1, 2, 0)));
        od = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(od), _MM_SHUFFLE(3, 1, 2, 0)));
        _mm256_storeu_ps(e + i, ev);
        _mm256_storeu_ps(o + i, od);
    }
    for (; 2 * i < n; i++) {
        e[i] = r[2 * i];
        if (2 * i + 1 < n)
            o[i] = r[2 * i + 1];
    }
}

/*
 * nb blocks of 8 outputs from the split rows, starting at output b of the
 * strip: one sum (two 4-lane halves) per block, in kernel order; the
 * blocks only run side by side, so that their additions overlap.
 */
static av_always_inline void lowpass_blocks(float *d, float (*ev)[STRIP + 8],
                                            float (*od)[STRIP + 8], const int slot[LP],
                                            int b, int nb)
{
    __m256d acc[NBLK][2];

    for (int j = 0; j < nb; j++)
        acc[j][0] = acc[j][1] = _mm256_setzero_pd();
    for (int ky = 0; ky < LP; ky++) {
        const float *k = ff_vmaf_ms_ssim_lowpass[ky];
        const float *e = ev[slot[ky]] + b, *o = od[slot[ky]] + b;
        for (int kx = 0; kx < LP; kx++) {
            const float *r = (kx & 1 ? o : e) + (kx >> 1);
            const __m256 kv = _mm256_set1_ps(k[kx]);
            for (int j = 0; j < nb; j++)
                mac8m(acc[j], kv, r + 8 * j);
        }
    }
    for (int j = 0; j < nb; j++)
        _mm256_storeu_ps(d + 8 * j, to_float8(acc[j]));
}

void ff_vmaf_ms_ssim_decimate_avx2(float *dst, ptrdiff_t dst_stride,
                                   const float *src, ptrdiff_t src_stride,
                                   int w, int h)
{
    const int half = LP / 2;
    const int ow = ff_vmaf_ssim_decimated_size(w, 2);
    const int oh = ff_vmaf_ssim_decimated_size(h, 2);
    /* Outputs [x0, x1) read no column outside the plane. */
    const int x0 = (half + 1) / 2;
    int x1 = w - 1 - half < 0 ? 0 : (w - 1 - half) / 2 + 1;
    /* Split rows of the current strip, by input row modulo CACHE: the
     * rows of one window span less than CACHE, and consecutive output
     * rows share seven of their nine. */
    DECLARE_ALIGNED(32, float, ev)[CACHE][STRIP + 8];
    DECLARE_ALIGNED(32, float, od)[CACHE][STRIP + 8];
    int tag[CACHE];
    int xv;

    if (x1 > ow)
        x1 = ow;
    if (x1 < x0)
        x1 = x0;
    /* The vector part: all of [x0, x1) once it holds a block of 8 (the
     * last block of a row may overlap the one before it). */
    xv = x1 - x0 < 8 ? x0 : x1;

    for (int oy = 0; oy < oh; oy++) {
        const float *rows[LP];
        float *d = dst + oy * dst_stride;
        int ox;

        for (int k = 0; k < LP; k++)
            rows[k] = src + mirror_sym(2 * oy - half + k, h) * src_stride;
        for (ox = 0; ox < x0 && ox < ow; ox++)
            d[ox] = lowpass_at(rows, 2 * ox - half, w);
        for (ox = xv > x0 ? xv : ox; ox < ow; ox++)
            d[ox] = lowpass_at(rows, 2 * ox - half, w);
    }

    for (int sx = x0; sx < xv; sx += STRIP) {
        int n = FFMIN(STRIP, xv - sx), c0;

        if (n < 8) {
            sx = xv - 8;
            n  = 8;
        }
        c0 = 2 * sx - half;

        for (int i = 0; i < CACHE; i++)
            tag[i] = -1;
        for (int oy = 0; oy < oh; oy++) {
            float (*e)[STRIP + 8] = ev, (*o)[STRIP + 8] = od;
            int slot[LP], b;

            /* Outputs sx .. sx + n - 1 read columns c0 .. c0 + 2 n + 6:
             * n + 4 even ones and n + 3 odd ones. */
            for (int k = 0; k < LP; k++) {
                const int y = mirror_sym(2 * oy - half + k, h);
                slot[k] = y % CACHE;
                if (tag[slot[k]] != y) {
                    deinterleave(ev[slot[k]], od[slot[k]], src + y * src_stride + c0, n + 4);
                    tag[slot[k]] = y;
                }
            }
            /* The strip walks down the plane: fetch the two rows that
             * output row oy + PREFETCH adds to its window. */
            for (int k = LP - 2; k < LP; k++) {
                const int y = 2 * (oy + PREFETCH) - half + k;
                if (y < h) {
                    const char *r = (const char *)(src + y * src_stride + c0);
                    for (int i = 0; i < (2 * n + 7) * (int)sizeof(float); i += 64)
                        _mm_prefetch(r + i, _MM_HINT_T0);
                    _mm_prefetch(r + (2 * n + 6) * sizeof(float), _MM_HINT_T0);
                }
            }
            for (b = 0; b + 8 * NBLK <= n; b += 8 * NBLK)
                lowpass_blocks(dst + oy * dst_stride + sx + b, e, o, slot, b, NBLK);
            for (; b + 8 <= n; b += 8)
                lowpass_blocks(dst + oy * dst_stride + sx + b, e, o, slot, b, 1);
            if (b < n)
                lowpass_blocks(dst + oy * dst_stride + sx + n - 8, e, o, slot, n - 8, 1);
        }
    }
}

/* ------------------------------------------------------------------ */
/* SSIM core */

enum { MU1, MU2, XX, YY, XY, NB_MAPS };

void ff_vmaf_ssim_window_h_avx2(float *dst, ptrdiff_t map_stride,
                                const float *a, const float *b, int w, float *tmp)
{
    const float *g = ff_vmaf_ssim_window;
    const int ow = w - FF_VMAF_SSIM_WINDOW + 1;
    /* Copies of the row and its products, zero-padded so that the last
     * vector may run past ow: its lanes read up to w + 6. */
    const ptrdiff_t rs = ((w + 7) & ~7) + 16;
    float *src[NB_MAPS];
    int x;

    for (int m = 0; m < NB_MAPS; m++)
        src[m] = tmp + m * rs;
    for (x = 0; x + 8 <= w; x += 8) {
        __m256 va = _mm256_loadu_ps(a + x), vb = _mm256_loadu_ps(b + x);
        _mm256_storeu_ps(src[MU1] + x, va);
        _mm256_storeu_ps(src[MU2] + x, vb);
        _mm256_storeu_ps(src[XX]  + x, _mm256_mul_ps(va, va));
        _mm256_storeu_ps(src[YY]  + x, _mm256_mul_ps(vb, vb));
        _mm256_storeu_ps(src[XY]  + x, _mm256_mul_ps(va, vb));
    }
    for (; x < w; x++) {
        src[MU1][x] = a[x];
        src[MU2][x] = b[x];
        src[XX][x]  = a[x] * a[x];
        src[YY][x]  = b[x] * b[x];
        src[XY][x]  = a[x] * b[x];
    }
    for (int m = 0; m < NB_MAPS; m++)
        memset(src[m] + w, 0, (rs - w) * sizeof(float));

    for (x = 0; x < ow; x += 8) {
        __m256d acc[NB_MAPS][2];
        for (int m = 0; m < NB_MAPS; m++)
            acc[m][0] = acc[m][1] = _mm256_setzero_pd();
        for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++) {
            const __m256 gk = _mm256_set1_ps(g[k]);
            for (int m = 0; m < NB_MAPS; m++)
                mac8m(acc[m], gk, src[m] + x + k);
        }
        for (int m = 0; m < NB_MAPS; m++)
            _mm256_storeu_ps(dst + m * map_stride + x, to_float8(acc[m]));
    }
}

/* Positions whose terms are computed before they are added up. */
#define CHUNK 32

void ff_vmaf_ssim_window_v_avx2(FFVmafSsimSums *sums,
                                const float *const rows[FF_VMAF_SSIM_WINDOW],
                                ptrdiff_t map_stride, int ow)
{
    const float c1 = (0.01f * 255) * (0.01f * 255);
    const float c2 = (0.03f * 255) * (0.03f * 255);
    const float c3 = c2 / 2.0f;
    const __m256 zero = _mm256_setzero_ps();
    const __m256 c1f = _mm256_set1_ps(c1), c2f = _mm256_set1_ps(c2);
    const __m256 c3f = _mm256_set1_ps(c3);
    const __m256d two = _mm256_set1_pd(2.0);
    const __m256d c1d = _mm256_set1_pd(c1), c2d = _mm256_set1_pd(c2);
    const float *g = ff_vmaf_ssim_window;
    double sum_l = sums->l, sum_c = sums->c, sum_s = sums->s, sum_ssim = sums->ssim;
    DECLARE_ALIGNED(32, double, tl)[CHUNK];
    DECLARE_ALIGNED(32, double, tc)[CHUNK];
    DECLARE_ALIGNED(32, double, ts)[CHUNK];
    DECLARE_ALIGNED(32, double, tss)[CHUNK];

    for (int x0 = 0; x0 < ow; x0 += CHUNK) {
        const int n = FFMIN(CHUNK, ow - x0);

        for (int i = 0; i < n; i += 8) {
            const int x = x0 + i;
            __m256d acc[NB_MAPS][2];
            __m256 mu1, mu2, s11, s22, s12, s1s2, s12p, s, p, den_l, den_c;

            for (int m = 0; m < NB_MAPS; m++)
                acc[m][0] = acc[m][1] = _mm256_setzero_pd();
            for (int k = 0; k < FF_VMAF_SSIM_WINDOW; k++) {
                const __m256 gk = _mm256_set1_ps(g[k]);
                for (int m = 0; m < NB_MAPS; m++)
                    mac8m(acc[m], gk, rows[k] + m * map_stride + x);
            }
            mu1 = to_float8(acc[MU1]);
            mu2 = to_float8(acc[MU2]);

            s11 = _mm256_sub_ps(to_float8(acc[XX]), _mm256_mul_ps(mu1, mu1));
            s22 = _mm256_sub_ps(to_float8(acc[YY]), _mm256_mul_ps(mu2, mu2));
            /* x < 0 ? 0 : x, keeping -0 and NaN as C does */
            s11 = _mm256_andnot_ps(_mm256_cmp_ps(s11, zero, _CMP_LT_OQ), s11);
            s22 = _mm256_andnot_ps(_mm256_cmp_ps(s22, zero, _CMP_LT_OQ), s22);
            s12 = _mm256_sub_ps(to_float8(acc[XY]), _mm256_mul_ps(mu1, mu2));
            /* (float)sqrt((double)p) in C: the square root rounded to
             * double then to float is the float square root (double
             * rounding is innocuous for sqrt, 53 >= 2 * 24 + 2; checked
             * bitwise for all 2^32 float inputs), so vsqrtps gives it. */
            p = _mm256_mul_ps(s11, s22);
            s1s2 = _mm256_sqrt_ps(p);

            den_l = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(mu1, mu1),
                                                _mm256_mul_ps(mu2, mu2)), c1f);
            den_c = _mm256_add_ps(_mm256_add_ps(s11, s22), c2f);
            s12p = _mm256_andnot_ps(_mm256_and_ps(_mm256_cmp_ps(s12, zero, _CMP_LT_OQ),
                                                  _mm256_cmp_ps(s1s2, zero, _CMP_LE_OQ)),
                                    s12);
            s = _mm256_div_ps(_mm256_add_ps(s12p, c3f), _mm256_add_ps(s1s2, c3f));

#define HALF(cvt, j) do {                                                          \
                __m256d m1 = cvt(mu1), m2 = cvt(mu2);                              \
                __m256d l = _mm256_div_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(two, m1), m2), c1d), \
                                          cvt(den_l));                             \
                __m256d c = _mm256_div_pd(_mm256_add_pd(_mm256_mul_pd(two, cvt(s1s2)), c2d), \
                                          cvt(den_c));                             \
                __m256d sd = cvt(s);                                               \
                _mm256_store_pd(tl  + i + j, l);                                   \
                _mm256_store_pd(tc  + i + j, c);                                   \
                _mm256_store_pd(ts  + i + j, sd);                                  \
                _mm256_store_pd(tss + i + j, _mm256_mul_pd(_mm256_mul_pd(l, c), sd)); \
            } while (0)
            HALF(lo_pd, 0);
            HALF(hi_pd, 4);
#undef HALF
        }
        for (int i = 0; i < n; i++) {
            sum_l    += tl[i];
            sum_c    += tc[i];
            sum_s    += ts[i];
            sum_ssim += tss[i];
        }
    }
    sums->l    = sum_l;
    sums->c    = sum_c;
    sums->s    = sum_s;
    sums->ssim = sum_ssim;
}

FF_VMAF_TARGET_END
