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
 * Integer VIF (vif_dsp.c is its C reference), in two kernels per scale:
 *
 *  - decimate (scales 1..3): the next pyramid level from the previous one;
 *    scale 1 on tiles (the input tile in shared memory, the vertical pass
 *    at the even rows into shared memory, the horizontal pass at the even
 *    columns), the small levels 2 and 3 a thread per output;
 *  - scale: the statistics of the scale on tiles: the vertical pass of a
 *    tile loaded into shared memory, the horizontal pass, the variances
 *    and the per-pixel VIF terms, summed into the scale's four exact
 *    64-bit sums with one atomic per sum and block.
 *
 * Every expression is the reference's, with its integer widths; the
 * borders are the reference's padded rows and mirrored row pointers read
 * through the same repeated reflection. The taps and the log2 table are
 * the host's, uploaded once, so both sides share one copy of the numbers.
 * The tap count is a template parameter so that the tap loops unroll.
 */

#include "../../gpu/gpu_compat.h"

/* Threads a block, in every kernel. */
#define VIF_THREADS 256

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
 * Pyramid level from the previous one (w x h, samples of type T, depth
 * bpc), on tiles of VIF_DEC_TILE_W x VIF_DEC_TILE_H outputs per block of
 * VIF_THREADS threads: output (i, j) is the horizontal tap sum, at column
 * 2j, of the vertical results of row 2i, each rounded to uint16_t first.
 *
 * A block loads the input rows and columns its outputs read (rows
 * 2·i0 − half .. 2·(i0 + TH − 1) + half, columns likewise) of both
 * pictures into shared memory, mirrored as the reference mirrors them;
 * runs the vertical pass at the even rows only, over every column of the
 * tile, into shared memory (uint16_t, as the reference's row v); then the
 * horizontal pass at the even columns only. Mirroring columns before the
 * vertical pass is the same as padding its row of results after, as the
 * reference does. Rows of tiles beyond the grid's height are visited by
 * a grid-stride loop.
 */
#define VIF_DEC_TILE_W 32
#define VIF_DEC_TILE_H 16

template <typename T, int FW>
__device__ static inline void vif_decimate_pair(uint16_t *dst_ref, uint16_t *dst_dis,
                                                const T *ref, size_t ref_pitch,
                                                const T *dis, size_t dis_pitch,
                                                int w, int h, int bpc,
                                                const uint16_t *f)
{
    enum {
        HALF = FW / 2,
        IW   = 2 * VIF_DEC_TILE_W + FW - 2,     /* input columns of a tile */
        IH   = 2 * VIF_DEC_TILE_H + FW - 2,     /* input rows of a tile */
    };
    __shared__ T s_in[2][IH * IW];
    __shared__ uint16_t s_v[2][VIF_DEC_TILE_H * IW];
    __shared__ uint16_t s_f[FW];
    const int tid = threadIdx.x;
    const int ow = w / 2, oh = h / 2;
    const int tiles_y = (oh + VIF_DEC_TILE_H - 1) / VIF_DEC_TILE_H;
    const int j0 = blockIdx.x * VIF_DEC_TILE_W;
    const uint32_t rnd = 1u << (bpc - 1);

    if (tid < FW)
        s_f[tid] = f[tid];
    for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
        const int i0 = ty * VIF_DEC_TILE_H;

        /* Cell (r, c): input (2·i0 − half + r, 2·j0 − half + c), mirrored. */
        for (int n = tid; n < 2 * IH * IW; n += VIF_THREADS) {
            const int p = n / (IH * IW), r = n / IW % IH, c = n % IW;
            const T *row = vif_row(p ? dis : ref, p ? dis_pitch : ref_pitch,
                                   vif_mirror(2 * i0 - HALF + r, h));
            s_in[p][r * IW + c] = row[vif_mirror(2 * j0 - HALF + c, w)];
        }
        __syncthreads();

        /* Vertical pass at output row o (input row 2·(i0 + o)): tile rows
         * 2o .. 2o + FW − 1. */
        for (int n = tid; n < 2 * VIF_DEC_TILE_H * IW; n += VIF_THREADS) {
            const int p = n / (VIF_DEC_TILE_H * IW), o = n / IW % VIF_DEC_TILE_H, c = n % IW;
            const T *x = &s_in[p][2 * o * IW + c];
            uint32_t sv = (uint32_t)s_f[HALF] * x[HALF * IW];

            for (int k = 0; k < HALF; k++)
                sv += s_f[k] * ((uint32_t)x[k * IW] + x[(FW - 1 - k) * IW]);
            s_v[p][o * IW + c] = (uint16_t)((sv + rnd) >> bpc);
        }
        __syncthreads();

        /* Horizontal pass at output column q (input column 2·(j0 + q)):
         * tile columns 2q .. 2q + FW − 1. */
        for (int n = tid; n < 2 * VIF_DEC_TILE_H * VIF_DEC_TILE_W; n += VIF_THREADS) {
            const int p = n / (VIF_DEC_TILE_H * VIF_DEC_TILE_W);
            const int o = n / VIF_DEC_TILE_W % VIF_DEC_TILE_H, q = n % VIF_DEC_TILE_W;
            const int i = i0 + o, j = j0 + q;
            const uint16_t *v = &s_v[p][o * IW + 2 * q];
            uint32_t s;

            if (i >= oh || j >= ow)
                continue;
            s = (uint32_t)s_f[HALF] * v[HALF];
            for (int k = 0; k < HALF; k++)
                s += s_f[k] * ((uint32_t)v[k] + v[FW - 1 - k]);
            (p ? dst_dis : dst_ref)[(size_t)i * ow + j] = (uint16_t)((s + 32768) >> 16);
        }
        /* The next tile overwrites s_in. */
        __syncthreads();
    }
}

/*
 * The statistics of one scale, fused: a block loads a tile of both
 * pictures with the filter's halo into shared memory, computes the
 * vertical pass of the tile (and of its horizontal halo) into shared
 * memory, then the horizontal pass, the variances and the per-pixel VIF
 * terms of its VIF_TILE_W x VIF_TILE_H outputs, and adds its four sums
 * with one atomic each. Tile column t holds plane column x0 - half + t,
 * mirrored as the reference mirrors it (mirroring the columns before the
 * vertical pass is the same as mirroring its results after, as the
 * reference pads its rows of vertical results).
 */
#define VIF_TILE_W  64
#define VIF_TILE_H  16

/*
 * Vertical pass of one column, 8-bit samples x[k · stride], y[k · stride]
 * (k < FW, the FW rows centred on the output row): the reference's
 * per-row products and sums, means (Σ + 128) >> 8, second moments
 * unshifted. The reference carries the means and the squares of both
 * pictures as two 32-bit lanes of one 64-bit word; no lane ever carries
 * into the next (the taps sum to 65536: Σ f·x <= 65536 · 255 < 2^24,
 * Σ f·x² <= 65536 · 255² < 2^32), so each lane is its own 32-bit sum here:
 * 32-bit multiply-adds instead of 64-bit multiplies.
 */
template <int FW>
__device__ static inline void vif_vert_px(uint64_t *muv, uint32_t *xxv, uint32_t *yyv,
                                          uint32_t *xyv, const uint8_t *x, const uint8_t *y,
                                          int stride, int bpc, const uint16_t *f)
{
    const int half = FW / 2;
    uint32_t a[FW], b[FW];
    uint32_t c, mu1, mu2, xx, yy, xy;

    for (int k = 0; k < FW; k++) {
        a[k] = x[k * stride];
        b[k] = y[k * stride];
    }
    c   = f[half];
    mu1 = c * a[half];
    mu2 = c * b[half];
    xx  = c * (a[half] * a[half]);
    yy  = c * (b[half] * b[half]);
    xy  = c * (a[half] * b[half]);
    for (int k = 0; k < half; k++) {
        const int l = k, r = FW - 1 - k;
        c    = f[k];
        mu1 += c * (a[l] + a[r]);
        mu2 += c * (b[l] + b[r]);
        xx  += c * (a[l] * a[l] + a[r] * a[r]);
        yy  += c * (b[l] * b[l] + b[r] * b[r]);
        xy  += c * (a[l] * b[l] + a[r] * b[r]);
    }
    *muv = ((mu1 + 128) >> 8) | (uint64_t)((mu2 + 128) >> 8) << 32;
    *xxv = xx;
    *yyv = yy;
    *xyv = xy;
}

/*
 * Same for uint16_t samples of depth bpc (16 for pyramid levels): means
 * (Σ + 2^(bpc-1)) >> bpc per lane, second moments in 64 bits, then
 * (Σ + 2^(ks-1)) >> ks with ks = 2·(bpc - 8). The reference's two mean
 * lanes never carry (Σ f·x + 2^(bpc-1) <= 65536 · 65535 + 2^15 < 2^32
 * for any uint16_t x), so they are 32-bit sums here; the second moments
 * are sums of 32 x 32 -> 64-bit products (c·(p + q) = c·p + c·q: the
 * same integer, below 2^50).
 */
template <int FW>
__device__ static inline void vif_vert_px(uint64_t *muv, uint32_t *xxv, uint32_t *yyv,
                                          uint32_t *xyv, const uint16_t *x, const uint16_t *y,
                                          int stride, int bpc, const uint16_t *f)
{
    const int half = FW / 2;
    const int ks = 2 * (bpc - 8);
    const uint32_t rmu = 1u << (bpc - 1);
    const uint64_t rs  = ks ? 1ull << (ks - 1) : 0;
    uint32_t a[FW], b[FW];
    uint32_t c, mu1, mu2;
    uint64_t xx, yy, xy;

    for (int k = 0; k < FW; k++) {
        a[k] = x[k * stride];
        b[k] = y[k * stride];
    }
    c   = f[half];
    mu1 = c * a[half];
    mu2 = c * b[half];
    xx  = (uint64_t)c * (a[half] * a[half]);
    yy  = (uint64_t)c * (b[half] * b[half]);
    xy  = (uint64_t)c * (a[half] * b[half]);
    for (int k = 0; k < half; k++) {
        const int l = k, r = FW - 1 - k;
        c    = f[k];
        mu1 += c * (a[l] + a[r]);
        mu2 += c * (b[l] + b[r]);
        xx  += (uint64_t)c * (a[l] * a[l]) + (uint64_t)c * (a[r] * a[r]);
        yy  += (uint64_t)c * (b[l] * b[l]) + (uint64_t)c * (b[r] * b[r]);
        xy  += (uint64_t)c * (a[l] * b[l]) + (uint64_t)c * (a[r] * b[r]);
    }
    *muv = ((mu1 + rmu) >> bpc) | (uint64_t)((mu2 + rmu) >> bpc) << 32;
    *xxv = (uint32_t)((xx + rs) >> ks);
    *yyv = (uint32_t)((yy + rs) >> ks);
    *xyv = (uint32_t)((xy + rs) >> ks);
}

/*
 * Horizontal pass of one output over the vertical results at muv[0..FW-1]
 * (already mirrored: the tile's columns), the variances, and the
 * per-pixel VIF terms added to sums[0..3] = num_log, den_log, num_nonlog,
 * den_nonlog (int64 in the reference; two's complement sums are the same
 * bits).
 */
template <int FW>
__device__ static inline void vif_stat_px(gpu_u64 *sums, const uint64_t *muv,
                                          const uint32_t *xxv, const uint32_t *yyv,
                                          const uint32_t *xyv, const uint16_t *f,
                                          double egl, const uint16_t *tab)
{
    const int half = FW / 2;
    /* The reference's means are two 32-bit lanes of one 64-bit sum, whose
     * low lane may carry into the high one (16-bit input of a lower depth
     * whose samples exceed it): the low lane's sum in 64 bits, the high
     * lane's in 32, then the carry added as the 64-bit sum adds it. The
     * second moments: sums of 32 x 32 -> 64-bit products. */
    uint32_t c   = f[half];
    uint64_t lo  = (uint64_t)c * (uint32_t)muv[half];
    uint32_t hi  = c * (uint32_t)(muv[half] >> 32);
    uint64_t sxx = (uint64_t)c * xxv[half];
    uint64_t syy = (uint64_t)c * yyv[half];
    uint64_t sxy = (uint64_t)c * xyv[half];
    uint32_t mu1, mu2, xx, yy, xy, mu1_sq, mu2_sq, mu1_mu2;
    int32_t sig1, sig2, sig12;

    for (int k = 0; k < half; k++) {
        const int l = k, r = FW - 1 - k;
        c = f[k];
        lo  += (uint64_t)c * (uint32_t)muv[l] + (uint64_t)c * (uint32_t)muv[r];
        hi  += c * ((uint32_t)(muv[l] >> 32) + (uint32_t)(muv[r] >> 32));
        sxx += (uint64_t)c * xxv[l] + (uint64_t)c * xxv[r];
        syy += (uint64_t)c * yyv[l] + (uint64_t)c * yyv[r];
        sxy += (uint64_t)c * xyv[l] + (uint64_t)c * xyv[r];
    }
    mu1 = (uint32_t)lo;
    mu2 = hi + (uint32_t)(lo >> 32);
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

/*
 * One scale's statistics, a VIF_TILE_W x VIF_TILE_H tile of outputs per
 * block of VIF_THREADS threads (samples of type T, depth bpc).
 *
 * The input tile spans whole 16-byte chunks: columns x0 - A .. x0 + TW + A
 * with A the half width rounded up to a chunk, so that a chunk that lies
 * inside the plane is one 16-byte load when the planes' rows are 16-byte
 * aligned, and one 16-byte store into shared memory. Other chunks (at the
 * borders, or every chunk of unaligned planes) are loaded sample by
 * sample with the mirror.
 */
template <typename T, int FW>
__device__ static inline void vif_scale(const T *ref, size_t ref_pitch, const T *dis,
                                        size_t dis_pitch, int w, int h, int bpc,
                                        const uint16_t *f, double egl,
                                        const uint16_t *tab, gpu_u64 *acc)
{
    enum {
        HALF = FW / 2,
        E    = 16 / sizeof(T),                  /* samples a chunk */
        A    = (HALF + E - 1) / E * E,          /* left margin of the input tile */
        TWS  = VIF_TILE_W + 2 * A,              /* input tile row, in samples */
        THS  = VIF_TILE_H + 2 * HALF,           /* input tile rows */
        TWV  = VIF_TILE_W + 2 * HALF,           /* vertical results a row */
        NCH  = TWS / E,                         /* chunks a row */
    };
    /* Both input tiles, ref then dis; uint4 for 16-byte alignment. */
    __shared__ uint4 s_raw[(2 * THS * TWS * sizeof(T) + 15) / 16];
    __shared__ uint64_t s_mu[VIF_TILE_H * TWV];
    __shared__ uint32_t s_xx[VIF_TILE_H * TWV], s_yy[VIF_TILE_H * TWV];
    __shared__ uint32_t s_xy[VIF_TILE_H * TWV];
    __shared__ uint16_t s_f[FW];
    T *tin = (T *)s_raw;
    const int tid = threadIdx.x;
    const int x0 = blockIdx.x * VIF_TILE_W, y0 = blockIdx.y * VIF_TILE_H;
    const int c0 = x0 - A;                      /* plane column of tile column 0 */
    gpu_u64 sums[4] = { 0, 0, 0, 0 };

    if (tid < FW)
        s_f[tid] = f[tid];
    for (int n = tid; n < 2 * THS * NCH; n += VIF_THREADS) {
        const int p = n / (THS * NCH), r = n / NCH % THS, q = n % NCH;
        const size_t pitch = p ? dis_pitch : ref_pitch;
        const uint8_t *base = (const uint8_t *)(p ? dis : ref);
        const T *row = (const T *)(base + (size_t)vif_mirror(y0 - HALF + r, h) * pitch);
        const int gc = c0 + q * E;
        T *dst = tin + (p * THS + r) * TWS + q * E;

        /* Every row of the picture 16-byte aligned: one load, one store. */
        if (!(((uintptr_t)base | pitch) & 15) && gc >= 0 && gc + E <= w) {
            *(uint4 *)dst = *(const uint4 *)(row + gc);
        } else {
            for (int e = 0; e < E; e++)
                dst[e] = row[vif_mirror(gc + e, w)];
        }
    }
    __syncthreads();

    /* Vertical pass: output rows y0 .. y0 + TH - 1, tile columns of the
     * outputs and their horizontal halo (plane columns x0 - HALF + t). */
    for (int n = tid; n < VIF_TILE_H * TWV; n += VIF_THREADS) {
        const int r = n / TWV, t = n % TWV;
        const int o = r * TWS + t + (A - HALF);

        vif_vert_px<FW>(&s_mu[n], &s_xx[n], &s_yy[n], &s_xy[n], tin + o,
                        tin + THS * TWS + o, TWS, bpc, s_f);
    }
    __syncthreads();

    /* Horizontal pass and the terms of the outputs inside the plane. */
    for (int n = tid; n < VIF_TILE_H * VIF_TILE_W; n += VIF_THREADS) {
        const int r = n / VIF_TILE_W, t = n % VIF_TILE_W;
        const int o = r * TWV + t;

        if (y0 + r < h && x0 + t < w)
            vif_stat_px<FW>(sums, s_mu + o, s_xx + o, s_yy + o, s_xy + o, s_f, egl, tab);
    }
    for (int k = 0; k < 4; k++)
        gpu_block_sum_u64<VIF_THREADS>(sums[k], &acc[k]);
}

/*
 * Kernels. f points at the taps of the kernel's scale (FW of them), tab
 * at the log2 table (FF_VMAF_VIF_LOG2_SIZE entries). Input planes (the
 * pictures or a pyramid level) have their rows a pitch in bytes apart;
 * the levels written here are packed. The statistics kernels run on a
 * grid of tiles, one block of VIF_THREADS threads each.
 */
#define VIF_BOUNDS __launch_bounds__(VIF_THREADS)
#define VIF_SCALE_BOUNDS __launch_bounds__(VIF_THREADS)

GPU_KERNEL void VIF_SCALE_BOUNDS
vmaf_vif_scale0_8(const uint8_t *ref, size_t ref_pitch, const uint8_t *dis, size_t dis_pitch,
                  int w, int h, const uint16_t *f, double egl, const uint16_t *tab,
                  gpu_u64 *acc)
{
    vif_scale<uint8_t, 17>(ref, ref_pitch, dis, dis_pitch, w, h, 8, f, egl, tab, acc);
}

GPU_KERNEL void VIF_SCALE_BOUNDS
vmaf_vif_scale0_16(const uint16_t *ref, size_t ref_pitch, const uint16_t *dis,
                   size_t dis_pitch, int w, int h, int bpc, const uint16_t *f, double egl,
                   const uint16_t *tab, gpu_u64 *acc)
{
    vif_scale<uint16_t, 17>(ref, ref_pitch, dis, dis_pitch, w, h, bpc, f, egl, tab, acc);
}

/* Pyramid levels: uint16_t samples read with the 16-bit rules. */
#define VIF_SCALE_LEVEL(name, fw)                                               \
GPU_KERNEL void VIF_SCALE_BOUNDS                                                \
name(const uint16_t *ref, size_t ref_pitch, const uint16_t *dis,                \
     size_t dis_pitch, int w, int h, const uint16_t *f, double egl,             \
     const uint16_t *tab, gpu_u64 *acc)                                         \
{                                                                               \
    vif_scale<uint16_t, fw>(ref, ref_pitch, dis, dis_pitch, w, h, 16, f, egl,   \
                            tab, acc);                                          \
}

VIF_SCALE_LEVEL(vmaf_vif_scale1, 9)
VIF_SCALE_LEVEL(vmaf_vif_scale2, 5)
VIF_SCALE_LEVEL(vmaf_vif_scale3, 3)

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

/*
 * Output (i, j) of a pyramid level from the previous one (w x h, samples
 * of type T, depth bpc), straight from global memory: the horizontal tap
 * sum, at column 2j, of the vertical results of row 2i, each rounded to
 * uint16_t first.
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

/*
 * Levels 2 and 3 (a Q8 level in, bpc 16), a thread per output of both
 * pictures (vif_decimate()): these levels are small (a 1080p input's are
 * 480x270 and 240x135 outputs), and a tile's loads, halo and barriers cost
 * more there than they save (the tiled kernel took 12 us for each, against
 * 4 to 6 for this). Rows beyond the grid are a grid-stride loop.
 */
template <int FW>
__device__ static inline void vif_decimate_direct(uint16_t *dst_ref, uint16_t *dst_dis,
                                                  const uint16_t *ref, size_t ref_pitch,
                                                  const uint16_t *dis, size_t dis_pitch,
                                                  int w, int h, const uint16_t *f)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;

    for (int i = blockIdx.y * blockDim.y + threadIdx.y; j < w / 2 && i < h / 2;
         i += gridDim.y * blockDim.y) {
        vif_decimate<uint16_t, FW>(dst_ref, ref, ref_pitch, w, h, 16, f, i, j);
        vif_decimate<uint16_t, FW>(dst_dis, dis, dis_pitch, w, h, 16, f, i, j);
    }
}

#define VIF_DECIMATE_LEVEL(name, fw)                                            \
GPU_KERNEL void VIF_BOUNDS                                                      \
name(uint16_t *dst_ref, uint16_t *dst_dis, const uint16_t *ref, size_t ref_pitch, \
     const uint16_t *dis, size_t dis_pitch, int w, int h, const uint16_t *f)    \
{                                                                               \
    vif_decimate_direct<fw>(dst_ref, dst_dis, ref, ref_pitch, dis,              \
                            dis_pitch, w, h, f);                                \
}

VIF_DECIMATE_LEVEL(vmaf_vif_decimate2, 5)
VIF_DECIMATE_LEVEL(vmaf_vif_decimate3, 3)
