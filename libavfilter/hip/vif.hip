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

/*
 * Integer VIF (vif_dsp.c is its C reference), one thread per output
 * sample, in three kernels per scale:
 *
 *  - decimate (scales 1..3): the next pyramid level from the previous one;
 *  - vert: the vertical pass of the statistics into per-plane scratch
 *    (packed means, then the three second moments);
 *  - stat: the horizontal pass, the variances and the per-pixel VIF terms,
 *    summed into the scale's four exact 64-bit sums with atomics.
 *
 * Every expression is the reference's, with its integer widths; the
 * borders are the reference's padded rows and mirrored row pointers read
 * through the same repeated reflection. The taps and the log2 table are
 * the host's, uploaded once, so both sides share one copy of the numbers.
 * The tap count is a template parameter so that the tap loops unroll.
 */

#include "gpu_compat.h"

#define VIF_BLOCK_X 32
#define VIF_BLOCK_Y 8

/* σn² = 2.0 in Q16. */
#define VIF_SIGMA_NSQ (1 << 17)

/** The reference's mirror: reflect-101, repeated for tiny planes. */
__device__ static inline int vif_mirror(int i, int n)
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

/** Row y of a plane whose rows are pitch bytes apart. */
template <typename T>
__device__ static inline const T *vif_row(const T *base, size_t pitch, int y)
{
    return (const T *)((const uint8_t *)base + (size_t)y * pitch);
}

/** 2048 * log2(v), mantissa truncated to 16 bits, for v >= 2^16. */
__device__ static inline int vif_log2(const uint16_t *tab, gpu_u64 v)
{
    /* 63 - clz is the reference's av_log2 of the 64-bit value. */
    const int k = (63 - __clzll((long long)v)) - 15;
    return tab[(unsigned)(v >> k) - 32768] + 2048 * k;
}

/*
 * Pyramid level `scale` from the previous one (w x h, samples of type T,
 * depth bpc): output (i, j) is the horizontal tap sum, at column 2j, of
 * the vertical results of row 2i, each rounded to uint16_t first.
 */
template <typename T, int FW>
__device__ static inline void vif_decimate(uint16_t *dst, const T *src, size_t pitch,
                                           int w, int h, int bpc, const uint16_t *f,
                                           int i, int j)
{
    const int half = FW / 2;
    const uint32_t rnd = 1u << (bpc - 1);
    const T *rows[FW];
    uint16_t v[FW];
    uint32_t s;

    for (int k = 0; k < FW; k++)
        rows[k] = vif_row(src, pitch, vif_mirror(2 * i - half + k, h));
    /* v[t]: vertical result at padded column 2j - half + t. */
    for (int t = 0; t < FW; t++) {
        const int c = vif_mirror(2 * j - half + t, w);
        uint32_t sv = (uint32_t)f[half] * rows[half][c];
        for (int k = 0; k < half; k++)
            sv += f[k] * ((uint32_t)rows[k][c] + rows[FW - 1 - k][c]);
        v[t] = (uint16_t)((sv + rnd) >> bpc);
    }
    s = (uint32_t)f[half] * v[half];
    for (int k = 0; k < half; k++)
        s += f[k] * ((uint32_t)v[k] + v[FW - 1 - k]);
    dst[(size_t)i * (w / 2) + j] = (uint16_t)((s + 32768) >> 16);
}

template <typename T, int FW>
__device__ static inline void vif_decimate_pair(uint16_t *dst_ref, uint16_t *dst_dis,
                                                const T *ref, size_t ref_pitch,
                                                const T *dis, size_t dis_pitch,
                                                int w, int h, int bpc,
                                                const uint16_t *f)
{
    const int j = blockIdx.x * VIF_BLOCK_X + threadIdx.x;

    for (int i = blockIdx.y * VIF_BLOCK_Y + threadIdx.y; j < w / 2 && i < h / 2;
         i += gridDim.y * VIF_BLOCK_Y) {
        vif_decimate<T, FW>(dst_ref, ref, ref_pitch, w, h, bpc, f, i, j);
        vif_decimate<T, FW>(dst_dis, dis, dis_pitch, w, h, bpc, f, i, j);
    }
}

/*
 * Vertical pass of the statistics at (i, j), 8-bit samples: the
 * reference's per-row products (means and squares as two 32-bit lanes of
 * one 64-bit word, ref low, dis high; x·y in 32 bits), summed with the
 * same widths; means (Σ + 128) >> 8, second moments unshifted.
 */
template <int FW>
__device__ static inline void vif_vert_8(uint64_t *muv, uint32_t *xxv, uint32_t *yyv,
                                         uint32_t *xyv, const uint8_t *ref,
                                         size_t ref_pitch, const uint8_t *dis,
                                         size_t dis_pitch, int w, int h,
                                         const uint16_t *f, int i, int j)
{
    const int half = FW / 2;
    uint64_t pmu[FW], psq[FW];
    uint32_t pxy[FW];
    uint64_t c, mu, sq;
    uint32_t xy;

    for (int k = 0; k < FW; k++) {
        const int y = vif_mirror(i - half + k, h);
        const uint32_t a = vif_row(ref, ref_pitch, y)[j], b = vif_row(dis, dis_pitch, y)[j];
        pmu[k] = a | (uint64_t)b << 32;
        psq[k] = a * a | (uint64_t)(b * b) << 32;
        pxy[k] = a * b;
    }
    c  = f[half];
    mu = c * pmu[half];
    sq = c * psq[half];
    xy = (uint32_t)c * pxy[half];
    for (int k = 0; k < half; k++) {
        c   = f[k];
        mu += c * (pmu[k] + pmu[FW - 1 - k]);
        sq += c * (psq[k] + psq[FW - 1 - k]);
        xy += (uint32_t)c * (pxy[k] + pxy[FW - 1 - k]);
    }
    {
        const size_t o = (size_t)i * w + j;
        muv[o] = (((uint32_t)mu + 128) >> 8) |
                 (uint64_t)(((mu >> 32) + 128) >> 8) << 32;
        xxv[o] = (uint32_t)sq;
        yyv[o] = (uint32_t)(sq >> 32);
        xyv[o] = xy;
    }
}

/*
 * Same for uint16_t samples of depth bpc (16 for pyramid levels): means
 * (Σ + 2^(bpc-1)) >> bpc per lane, second moments in 64 bits, then
 * (Σ + 2^(ks-1)) >> ks with ks = 2·(bpc - 8).
 */
template <int FW>
__device__ static inline void vif_vert_16(uint64_t *muv, uint32_t *xxv, uint32_t *yyv,
                                          uint32_t *xyv, const uint16_t *ref,
                                          size_t ref_pitch, const uint16_t *dis,
                                          size_t dis_pitch, int w, int h, int bpc,
                                          const uint16_t *f, int i, int j)
{
    const int half = FW / 2;
    const int ks = 2 * (bpc - 8);
    const uint64_t rmu = 1u << (bpc - 1);
    const uint64_t rs  = ks ? 1ull << (ks - 1) : 0;
    uint64_t pmu[FW], psq[FW];
    uint32_t pyy[FW], pxy[FW];
    uint64_t c, mu, xx, yy, xy;

    for (int k = 0; k < FW; k++) {
        const int y = vif_mirror(i - half + k, h);
        const uint32_t a = vif_row(ref, ref_pitch, y)[j], b = vif_row(dis, dis_pitch, y)[j];
        pmu[k] = a | (uint64_t)b << 32;
        psq[k] = a * a;
        pyy[k] = b * b;
        pxy[k] = a * b;
    }
    c  = f[half];
    mu = c * pmu[half];
    xx = c * psq[half];
    yy = c * pyy[half];
    xy = c * pxy[half];
    for (int k = 0; k < half; k++) {
        c   = f[k];
        mu += c * (pmu[k] + pmu[FW - 1 - k]);
        xx += c * (psq[k] + psq[FW - 1 - k]);
        yy += c * ((uint64_t)pyy[k] + pyy[FW - 1 - k]);
        xy += c * ((uint64_t)pxy[k] + pxy[FW - 1 - k]);
    }
    {
        const size_t o = (size_t)i * w + j;
        muv[o] = (((mu & 0xffffffff) + rmu) >> bpc) |
                 (((mu >> 32) + rmu) >> bpc) << 32;
        xxv[o] = (uint32_t)((xx + rs) >> ks);
        yyv[o] = (uint32_t)((yy + rs) >> ks);
        xyv[o] = (uint32_t)((xy + rs) >> ks);
    }
}

/* Grid-stride over rows: the grid's height is capped on the host. */
#define VIF_FOR_EACH(w, h)                                                   \
    const int j = blockIdx.x * VIF_BLOCK_X + threadIdx.x;                    \
    for (int i = blockIdx.y * VIF_BLOCK_Y + threadIdx.y; j < (w) && i < (h); \
         i += gridDim.y * VIF_BLOCK_Y)

/*
 * Horizontal pass at (i, j) over the vertical results (columns mirrored
 * as the reference's padded row), the variances, and the per-pixel VIF
 * terms added to sums[0..3] = num_log, den_log, num_nonlog, den_nonlog
 * (int64 in the reference; two's complement sums are the same bits).
 */
template <int FW>
__device__ static inline void vif_stat_pixel(gpu_u64 *sums, const uint64_t *muv,
                                             const uint32_t *xxv, const uint32_t *yyv,
                                             const uint32_t *xyv, int w,
                                             const uint16_t *f, double egl,
                                             const uint16_t *tab, int i, int j)
{
    const int half = FW / 2;
    const size_t row = (size_t)i * w;
    uint64_t c   = f[half];
    uint64_t mu  = c * muv[row + j];
    uint64_t sxx = c * xxv[row + j];
    uint64_t syy = c * yyv[row + j];
    uint64_t sxy = c * xyv[row + j];
    uint32_t mu1, mu2, xx, yy, xy, mu1_sq, mu2_sq, mu1_mu2;
    int32_t sig1, sig2, sig12;

    for (int k = 0; k < half; k++) {
        const size_t l = row + vif_mirror(j - half + k, w);
        const size_t r = row + vif_mirror(j + half - k, w);
        c = f[k];
        mu  += c * (muv[l] + muv[r]);
        sxx += c * ((uint64_t)xxv[l] + xxv[r]);
        syy += c * ((uint64_t)yyv[l] + yyv[r]);
        sxy += c * ((uint64_t)xyv[l] + xyv[r]);
    }
    mu1 = (uint32_t)mu;
    mu2 = (uint32_t)(mu >> 32);
    xx = (uint32_t)((sxx + 32768) >> 16);
    yy = (uint32_t)((syy + 32768) >> 16);
    xy = (uint32_t)((sxy + 32768) >> 16);
    mu1_sq  = (uint32_t)(((uint64_t)mu1 * mu1 + 0x80000000u) >> 32);
    mu2_sq  = (uint32_t)(((uint64_t)mu2 * mu2 + 0x80000000u) >> 32);
    mu1_mu2 = (uint32_t)(((uint64_t)mu1 * mu2 + 0x80000000u) >> 32);

    sig1  = (int32_t)(xx - mu1_sq);
    sig2  = (int32_t)(yy - mu2_sq);
    sig2  = sig2 > 0 ? sig2 : 0;
    sig12 = (int32_t)(xy - mu1_mu2);

    if (sig1 >= VIF_SIGMA_NSQ) {
        sums[1] += (gpu_u64)(gpu_i64)(vif_log2(tab, (uint32_t)sig1 + VIF_SIGMA_NSQ) -
                                      2048 * 17);
        if (sig12 > 0 && sig2 > 0) {
            /* Double precision, each product rounded on its own as in the
             * reference: __dmul_rn is never contracted into an FMA. */
            double g  = sig12 / (sig1 + 6.5536e-6);
            double gs = __dmul_rn(g, (double)sig12);
            double sv = sig2 - gs;
            double gg;
            uint32_t n1;
            int32_t sv2 = sv > 0 ? (int32_t)sv : 0;

            g  = g > egl ? egl : g;
            gg = __dmul_rn(g, g);
            n1 = (uint32_t)sv2 + VIF_SIGMA_NSQ;
            sums[0] += (gpu_u64)(gpu_i64)
                       (vif_log2(tab, (uint64_t)(int64_t)__dmul_rn(gg, (double)sig1) + n1) -
                        vif_log2(tab, n1));
        }
    } else {
        sums[2] += (gpu_u64)(gpu_i64)sig2;
        sums[3] += 1;
    }
}

template <int FW>
__device__ static inline void vif_stat(const uint64_t *muv, const uint32_t *xxv,
                                       const uint32_t *yyv, const uint32_t *xyv,
                                       int w, int h, const uint16_t *f, double egl,
                                       const uint16_t *tab, gpu_u64 *acc)
{
    gpu_u64 sums[4] = { 0, 0, 0, 0 };

    {
        VIF_FOR_EACH(w, h)
            vif_stat_pixel<FW>(sums, muv, xxv, yyv, xyv, w, f, egl, tab, i, j);
    }
    for (int n = 0; n < 4; n++)
        gpu_block_sum_u64<VIF_BLOCK_X * VIF_BLOCK_Y>(sums[n], &acc[n]);
}

/*
 * Kernels. f points at the taps of the kernel's scale (FW of them), tab
 * at the log2 table (FF_VMAF_VIF_LOG2_SIZE entries). Input planes (the
 * pictures or a pyramid level) have their rows a pitch in bytes apart;
 * the vertical results and the levels written here are packed.
 */
#define VIF_VERT_ARGS uint64_t *muv, uint32_t *xxv, uint32_t *yyv, uint32_t *xyv
#define VIF_BOUNDS __launch_bounds__(VIF_BLOCK_X * VIF_BLOCK_Y)

GPU_KERNEL void VIF_BOUNDS
vmaf_vif_vert0_8(VIF_VERT_ARGS, const uint8_t *ref, size_t ref_pitch, const uint8_t *dis,
                 size_t dis_pitch, int w, int h, const uint16_t *f)
{
    VIF_FOR_EACH(w, h)
        vif_vert_8<17>(muv, xxv, yyv, xyv, ref, ref_pitch, dis, dis_pitch, w, h, f, i, j);
}

GPU_KERNEL void VIF_BOUNDS
vmaf_vif_vert0_16(VIF_VERT_ARGS, const uint16_t *ref, size_t ref_pitch,
                  const uint16_t *dis, size_t dis_pitch, int w, int h, int bpc,
                  const uint16_t *f)
{
    VIF_FOR_EACH(w, h)
        vif_vert_16<17>(muv, xxv, yyv, xyv, ref, ref_pitch, dis, dis_pitch, w, h, bpc,
                        f, i, j);
}

/* Pyramid levels: uint16_t samples read with the 16-bit rules. */
#define VIF_VERT_LEVEL(name, fw)                                                \
GPU_KERNEL void VIF_BOUNDS                                                      \
name(VIF_VERT_ARGS, const uint16_t *ref, size_t ref_pitch, const uint16_t *dis, \
     size_t dis_pitch, int w, int h, const uint16_t *f)                         \
{                                                                               \
    VIF_FOR_EACH(w, h)                                                          \
        vif_vert_16<fw>(muv, xxv, yyv, xyv, ref, ref_pitch, dis, dis_pitch, w, h, \
                        16, f, i, j);                                           \
}

VIF_VERT_LEVEL(vmaf_vif_vert1, 9)
VIF_VERT_LEVEL(vmaf_vif_vert2, 5)
VIF_VERT_LEVEL(vmaf_vif_vert3, 3)

#define VIF_STAT(name, fw)                                                      \
GPU_KERNEL void VIF_BOUNDS                                                      \
name(const uint64_t *muv, const uint32_t *xxv, const uint32_t *yyv,             \
     const uint32_t *xyv, int w, int h, const uint16_t *f, double egl,          \
     const uint16_t *tab, gpu_u64 *acc)                                         \
{                                                                               \
    vif_stat<fw>(muv, xxv, yyv, xyv, w, h, f, egl, tab, acc);                   \
}

VIF_STAT(vmaf_vif_stat0, 17)
VIF_STAT(vmaf_vif_stat1, 9)
VIF_STAT(vmaf_vif_stat2, 5)
VIF_STAT(vmaf_vif_stat3, 3)

/* Scale 1 from the input (8-bit or uint16_t of depth bpc), scales 2 and 3
 * from a Q8 level (bpc 16). dst: (w / 2) x (h / 2), packed. */
GPU_KERNEL void VIF_BOUNDS
vmaf_vif_decimate1_8(uint16_t *dst_ref, uint16_t *dst_dis, const uint8_t *ref,
                     size_t ref_pitch, const uint8_t *dis, size_t dis_pitch, int w, int h,
                     const uint16_t *f)
{
    vif_decimate_pair<uint8_t, 9>(dst_ref, dst_dis, ref, ref_pitch, dis, dis_pitch, w, h, 8, f);
}

GPU_KERNEL void VIF_BOUNDS
vmaf_vif_decimate1_16(uint16_t *dst_ref, uint16_t *dst_dis, const uint16_t *ref,
                      size_t ref_pitch, const uint16_t *dis, size_t dis_pitch, int w, int h,
                      int bpc, const uint16_t *f)
{
    vif_decimate_pair<uint16_t, 9>(dst_ref, dst_dis, ref, ref_pitch, dis, dis_pitch, w, h,
                                   bpc, f);
}

#define VIF_DECIMATE_LEVEL(name, fw)                                            \
GPU_KERNEL void VIF_BOUNDS                                                      \
name(uint16_t *dst_ref, uint16_t *dst_dis, const uint16_t *ref, size_t ref_pitch, \
     const uint16_t *dis, size_t dis_pitch, int w, int h, const uint16_t *f)    \
{                                                                               \
    vif_decimate_pair<uint16_t, fw>(dst_ref, dst_dis, ref, ref_pitch, dis,      \
                                    dis_pitch, w, h, 16, f);                    \
}

VIF_DECIMATE_LEVEL(vmaf_vif_decimate2, 5)
VIF_DECIMATE_LEVEL(vmaf_vif_decimate3, 3)
