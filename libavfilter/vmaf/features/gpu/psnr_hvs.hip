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

/* PSNR-HVS (psnr_hvs_dsp.c and psnr_hvs.c are the C reference).
 *
 * vmaf_psnr_hvs_terms_*: one thread per 8x8 block of a plane computes the
 * block's 64 float terms f(ec * ec) exactly as the C code does (integer
 * DCT, float means, variances and masks in the same order, the double
 * sqrt), and stores term k of block b at terms[k * n + b].
 *
 * vmaf_psnr_hvs_sum: the CPU adds all terms of a plane, block after block,
 * into ONE float accumulator, so neither per-block nor per-row partial sums
 * would give its bits. This kernel (one thread block per plane) reproduces
 * that sequential sum exactly, in parallel:
 *
 * While acc stays in one binade [2^E, 2^(E+1)), with u = 2^(E-23) and
 * acc = a * u (a an integer in [2^23, 2^24)), fl(acc + t) = u * (a + r)
 * where r is t / u rounded to an integer, to nearest, ties towards an even
 * a + r: r depends on t and on the parity of a only. A run of terms is
 * therefore the map a -> a + d[a & 1], and such maps compose (a prefix
 * scan over the blocks of a window). The prefix that keeps a below 2^24 is
 * exact and accepted; the block that leaves the binade is added serially
 * in float. Terms are >= 0, so acc never decreases and crosses each binade
 * once: few serial blocks. Below 2^-104 (from acc = 0 until the first
 * nonzero block) only blocks of zero terms are skipped in parallel. */

#include "../../gpu/gpu_compat.h"

#define HVS_BLOCK_X 32
#define HVS_BLOCK_Y 4

/** Threads of vmaf_psnr_hvs_sum: the blocks of one window. */
#define HVS_SUM_THREADS 256
/** Saturated delta: anything >= 2^24 leaves the binade. */
#define HVS_SAT (1 << 25)

__device__ static inline int32_t hvs_half(int32_t a)
{
    return (a + (a < 0)) >> 1;
}

__device__ static inline int32_t hvs_mul_shift(int32_t a, int32_t c, int k)
{
    return (a * c + (1 << (k - 1))) >> k;
}

/* od_bin_fdct8, step for step as ff_vmaf_psnr_hvs_fdct8(). */
__device__ static inline void hvs_fdct8(int32_t *y, int ys, const int32_t *x, int xs)
{
    int32_t t0 = x[0 * xs], t4 = x[1 * xs];
    int32_t t2 = x[2 * xs], t6 = x[3 * xs];
    int32_t t7 = x[4 * xs], t3 = x[5 * xs];
    int32_t t5 = x[6 * xs], t1 = x[7 * xs];
    int32_t t1h, t4h, t6h;

    t1  = t0 - t1;
    t1h = hvs_half(t1);
    t0 -= t1h;
    t4 += t5;
    t4h = hvs_half(t4);
    t5 -= t4h;
    t3  = t2 - t3;
    t2 -= hvs_half(t3);
    t6 += t7;
    t6h = hvs_half(t6);
    t7  = t6h - t7;

    t0 += t6h;
    t6  = t0 - t6;
    t2  = t4h - t2;
    t4  = t2 - t4;
    t0 -= hvs_mul_shift(t4, 13573, 15);
    t4 += hvs_mul_shift(t0, 11585, 14);
    t0 -= hvs_mul_shift(t4, 13573, 15);
    t6 -= hvs_mul_shift(t2, 21895, 15);
    t2 += hvs_mul_shift(t6, 15137, 14);
    t6 -= hvs_mul_shift(t2, 21895, 15);

    t3 += hvs_mul_shift(t5, 19195, 15);
    t5 += hvs_mul_shift(t3, 11585, 14);
    t3 -= hvs_mul_shift(t5,  7489, 13);
    t7  = hvs_half(t5) - t7;
    t5 -= t7;
    t3  = t1h - t3;
    t1 -= t3;
    t7 += hvs_mul_shift(t1,  3227, 15);
    t1 -= hvs_mul_shift(t7,  6393, 15);
    t7 += hvs_mul_shift(t1,  3227, 15);
    t5 += hvs_mul_shift(t3,  2485, 13);
    t3 -= hvs_mul_shift(t5, 18205, 15);
    t5 += hvs_mul_shift(t3,  2485, 13);

    y[0 * ys] = t0;
    y[1 * ys] = t1;
    y[2 * ys] = t2;
    y[3 * ys] = t3;
    y[4 * ys] = t4;
    y[5 * ys] = t5;
    y[6 * ys] = t6;
    y[7 * ys] = t7;
}

/* Columns first, then rows: dst[u * 8 + v], u vertical (fdct8x8_c). */
__device__ static inline void hvs_fdct8x8(int32_t dst[64], const int32_t src[64])
{
    int32_t tmp[64];

#pragma unroll
    for (int i = 0; i < 8; i++)
        hvs_fdct8(tmp + 8 * i, 1, src + i, 8);
#pragma unroll
    for (int u = 0; u < 8; u++)
        hvs_fdct8(dst + 8 * u, 1, tmp + u, 8);
}

/* block_mask1(): the same float operations in the same order. */
__device__ static inline float hvs_block_mask(const int32_t px[64], const int32_t dct[64],
                                              const float *__restrict__ mask_tab)
{
    const float gscale = (1.0f / 63.0f) * 64;
    const float qscale = (1.0f / 15.0f) * 16;
    float gmean = 0.0f, gvar = 0.0f, qmean[4] = { 0 }, qvar[4] = { 0 };
    float m = 0.0f;

#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            float v = (float)px[8 * i + j];
            gmean += v;
            qmean[(i >= 4) + 2 * (j >= 4)] += v;
        }
    gmean /= 64.0f;
#pragma unroll
    for (int q = 0; q < 4; q++)
        qmean[q] /= 16.0f;

#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int q = (i >= 4) + 2 * (j >= 4);
            float v = (float)px[8 * i + j];
            float dg = v - gmean, dq = v - qmean[q];
            gvar    += dg * dg;
            qvar[q] += dq * dq;
        }
    gvar *= gscale;
#pragma unroll
    for (int q = 0; q < 4; q++)
        qvar[q] *= qscale;
    if (gvar > 0.0f)
        gvar = (qvar[0] + qvar[1] + qvar[2] + qvar[3]) / gvar;

#pragma unroll
    for (int k = 1; k < 64; k++)
        m += (float)(dct[k] * dct[k]) * mask_tab[k];
    return (float)(sqrt((double)(m * gvar)) / 32);
}

template <typename T>
__device__ static inline void hvs_terms(const uint8_t *ref, const uint8_t *dis, int pitch,
                                        int nbx, int nby, int maxv,
                                        const float *__restrict__ csf,
                                        const float *__restrict__ mask_tab,
                                        float *terms)
{
    const int bx = blockIdx.x * HVS_BLOCK_X + threadIdx.x;
    const int by = blockIdx.y * HVS_BLOCK_Y + threadIdx.y;
    const int n = nbx * nby, b = by * nbx + bx;
    int32_t px_r[64], px_d[64], dct_r[64], dct_d[64];
    float mask_r, mask_d, mask;
    int live = 0;

    if (bx >= nbx || by >= nby)
        return;
    /* Block (bx, by) starts at sample (7 bx, 7 by); 16-bit samples are
     * clamped to the depth's maximum like load_16_c(). */
    ref += (size_t)(7 * by) * pitch + (size_t)(7 * bx) * sizeof(T);
    dis += (size_t)(7 * by) * pitch + (size_t)(7 * bx) * sizeof(T);
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const T *r = (const T *)(ref + (size_t)i * pitch);
        const T *d = (const T *)(dis + (size_t)i * pitch);
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int vr = r[j], vd = d[j];
            if (sizeof(T) > 1) {
                vr = min(vr, maxv);
                vd = min(vd, maxv);
            }
            px_r[8 * i + j] = vr;
            px_d[8 * i + j] = vd;
            live |= vr != vd;
        }
    }
    /* Equal blocks: every term is +0 (the CPU skips them). */
    if (!live) {
        for (int k = 0; k < 64; k++)
            terms[(size_t)k * n + b] = 0.0f;
        return;
    }

    hvs_fdct8x8(dct_r, px_r);
    mask_r = hvs_block_mask(px_r, dct_r, mask_tab);
    hvs_fdct8x8(dct_d, px_d);
    mask_d = hvs_block_mask(px_d, dct_d, mask_tab);

    /* block_error_c(), one term at a time. */
    mask = mask_r;
    if (mask_d > mask)
        mask = mask_d;
    {
        float e  = (float)abs(dct_r[0] - dct_d[0]);
        float ec = e * csf[0];
        terms[b] = ec * ec;
    }
#pragma unroll
    for (int k = 1; k < 64; k++) {
        float t = mask / mask_tab[k];
        float e = (float)abs(dct_r[k] - dct_d[k]);
        float ec;
        e  = e < t ? 0.0f : e - t;
        ec = e * csf[k];
        terms[(size_t)k * n + b] = ec * ec;
    }
}

GPU_KERNEL void __launch_bounds__(HVS_BLOCK_X * HVS_BLOCK_Y)
vmaf_psnr_hvs_terms_8(const uint8_t *ref, const uint8_t *dis, int pitch, int nbx, int nby,
                      int maxv, const float *csf, const float *mask_tab, float *terms)
{
    hvs_terms<uint8_t>(ref, dis, pitch, nbx, nby, maxv, csf, mask_tab, terms);
}

GPU_KERNEL void __launch_bounds__(HVS_BLOCK_X * HVS_BLOCK_Y)
vmaf_psnr_hvs_terms_16(const uint8_t *ref, const uint8_t *dis, int pitch, int nbx, int nby,
                       int maxv, const float *csf, const float *mask_tab, float *terms)
{
    hvs_terms<uint16_t>(ref, dis, pitch, nbx, nby, maxv, csf, mask_tab, terms);
}

__device__ static inline int hvs_sat_add(int a, int b)
{
    int s = a + b;      /* a, b <= 2^25 + 1: no overflow */
    return s > HVS_SAT ? HVS_SAT : s;
}

/* m first, then n: a -> a + m[a & 1] -> ... + n[(a + m[a & 1]) & 1]. */
__device__ static inline int2 hvs_compose(int2 m, int2 n)
{
    int2 r;
    r.x = hvs_sat_add(m.x, (m.x & 1) ? n.y : n.x);
    r.y = hvs_sat_add(m.y, ((1 + m.y) & 1) ? n.y : n.x);
    return r;
}

/*
 * The map of block b's 64 terms (stride n) for the binade whose 1 / u is
 * scale: .x for an even a, .y for an odd one. tiny: acc < 2^-104 (or 0),
 * where only an all-zero block is known to leave acc as it is.
 */
__device__ static inline int2 hvs_block_map(const float *terms, int n, int b,
                                            float scale, int tiny)
{
    int d0 = 0, d1 = 0;

    if (tiny) {
        int nonzero = 0;
        for (int k = 0; k < 64; k++)
            nonzero |= terms[(size_t)k * n + b] != 0.0f;
        return make_int2(nonzero ? HVS_SAT : 0, nonzero ? HVS_SAT : 0);
    }
    for (int k = 0; k < 64; k++) {
        float x = terms[(size_t)k * n + b] * scale;  /* exact: a power of 2 */
        float fr = 0.0f;
        int ni = HVS_SAT, up, tie;

        if (x < 33554432.0f) {
            float fl = floorf(x);
            fr = x - fl;            /* exact */
            ni = (int)fl;
        }
        up  = fr > 0.5f;
        tie = fr == 0.5f;
        d0 = hvs_sat_add(d0, ni + (up | (tie & ((d0 + ni) & 1))));
        d1 = hvs_sat_add(d1, ni + (up | (tie & ((1 + d1 + ni) & 1))));
    }
    return make_int2(d0, d1);
}

/*
 * One thread block per plane (blockIdx.x); plane p's n[p] blocks of terms
 * follow those of the planes before it. acc[p] = the CPU's accumulator.
 */
GPU_KERNEL void __launch_bounds__(HVS_SUM_THREADS)
vmaf_psnr_hvs_sum(const float *terms, int n0, int n1, int n2, float *acc_out)
{
    __shared__ int2 scan[2][HVS_SUM_THREADS];
    __shared__ float acc_s;
    __shared__ int pos_s;
    const int p = blockIdx.x, tid = threadIdx.x;
    const int n = p == 0 ? n0 : p == 1 ? n1 : n2;

    terms += (size_t)64 * (p == 0 ? 0 : p == 1 ? n0 : n0 + n1);
    if (tid == 0) {
        acc_s = 0.0f;
        pos_s = 0;
    }
    __syncthreads();

    for (;;) {
        const float acc = acc_s;
        const int pos = pos_s, b = pos + tid;
        const unsigned bits = __float_as_uint(acc);
        const int ex = bits >> 23 & 0xff;           /* acc >= +0 */
        const int tiny = ex < 23, huge = ex == 255;
        const int a = tiny || huge ? 0 : (int)(bits & 0x7fffff) | 0x800000;
        /* 1 / u = 2^(150 - ex), a normal float for 23 <= ex <= 254 */
        const float scale = __uint_as_float((unsigned)(tiny || huge ? 127 : 277 - ex) << 23);
        int2 m = make_int2(0, 0);
        int cur = 0, ok, k, r;

        if (pos >= n)
            break;
        if (b < n)
            m = huge ? make_int2(HVS_SAT, HVS_SAT) : hvs_block_map(terms, n, b, scale, tiny);

        /* Inclusive scan of the maps, earlier blocks first. */
        scan[0][tid] = m;
        __syncthreads();
        for (int off = 1; off < HVS_SUM_THREADS; off <<= 1) {
            if (tid >= off)
                m = hvs_compose(scan[cur][tid - off], m);
            scan[cur ^ 1][tid] = m;
            cur ^= 1;
            __syncthreads();
        }

        /* The prefix that stays in the binade (a prefix: deltas are >= 0). */
        r  = (a & 1) ? m.y : m.x;
        ok = b < n && a + r < (1 << 24);
        k  = __syncthreads_count(ok);
        if (k > 0) {
            if (tid == k - 1) {
                /* a + r < 2^24 keeps the exponent; tiny: only zeros were added */
                if (!tiny)
                    acc_s = __uint_as_float((unsigned)ex << 23 | ((unsigned)(a + r) & 0x7fffff));
                pos_s = pos + k;
            }
        } else if (tid == 0) {
            /* Block pos leaves the binade: add its terms as the CPU does. */
            float s = acc;
            for (int j = 0; j < 64; j++)
                s += terms[(size_t)j * n + pos];
            acc_s = s;
            pos_s = pos + 1;
        }
        __syncthreads();
    }
    if (tid == 0)
        acc_out[p] = acc_s;
}
