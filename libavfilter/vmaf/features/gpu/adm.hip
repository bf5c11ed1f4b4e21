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
 * Integer ADM (vmaf/adm_dsp.c is its C reference, vmaf/adm.c the driver
 * these kernels follow). Per scale: the DWT (vertical and horizontal
 * passes in one kernel, on tiles), then decouple + CSF + masking on tiles
 * of the inner region, adding each row's partial sums into that row's
 * accumulators; last, for all scales at once, each row's sums rounded and
 * shifted as the CPU does, added into the scale's totals. Each thread
 * computes one output element with the reference's formula, types and
 * rounding; every sum is an integer added with 64-bit atomics
 * (order-independent).
 *
 * The pictures' rows are a pitch in bytes apart; the band planes are
 * packed: 0 h, 1 v, 2 d, 3 a (LO LO), the reference's four then the
 * distorted's.
 */

#include "../../gpu/gpu_compat.h"
#include "../adm_filter.h"

#define ADM_BX 32
#define ADM_BY 8
#define ADM_ROW_THREADS 256

/* The sums of one row: numerator, AIM and denominator, h v d each. */
#define ADM_ROW_SUMS 9

typedef gpu_i64 i64;
typedef gpu_u64 u64;

__device__ static inline i64 adm_abs64(i64 v)
{
    return v < 0 ? -v : v;
}

__device__ static inline int adm_abs(int v)
{
    return v < 0 ? -v : v;
}

/* DWT mirror: reflect-101 at the start, symmetric at the end. The
 * reference pads its rows with exactly these samples. */
__device__ static inline int adm_dwt_idx(int idx, int n)
{
    if (idx < 0)
        return -idx;
    if (idx >= n)
        return 2 * n - 1 - idx;
    return idx;
}

/* 3x3 masking mirror of the columns: -1 -> 1, n -> n - 1, as the driver
 * pads its flt rows. Only those two ever occur. */
__device__ static inline int adm_mask_col(int j, int n)
{
    if (j < 0)
        return -j;
    if (j >= n)
        return n - 1;
    return j;
}

/* ------------------------------------------------------------------ DWT */

/*
 * One DWT level per kernel, on tiles of ADM_BX x ADM_BY band positions: a
 * block first runs the vertical pass for its ADM_BY band rows over the
 * 2 · ADM_BX + 2 input columns its outputs read, ref and dis, into shared
 * memory, then the horizontal pass of its outputs from there. Tile column
 * k holds input column 2 · j0 − 1 + k read through the DWT mirror, which
 * is the same as mirroring the vertical results afterwards (the vertical
 * pass is per column). Columns and rows that no output reads are clamped
 * into the plane, computed and not used.
 */
#define ADM_DWT_COLS (2 * ADM_BX + 2)

/*
 * Vertical pass of scale 0 at input rows r[0..3] (byte offsets from the
 * picture) and column c: pictures of type T, depth bpc.
 */
template <typename T>
__device__ static inline void dwt_vert_s0(const uint8_t *s, const size_t r[4], int c, int bpc,
                                          int16_t *lo, int16_t *hi)
{
    const int m = 1 << (bpc - 1), shift = bpc;
    const uint8_t *sc = s + c * sizeof(T);
    int x0 = *(const T *)(sc + r[0]) - m, x1 = *(const T *)(sc + r[1]) - m;
    int x2 = *(const T *)(sc + r[2]) - m, x3 = *(const T *)(sc + r[3]) - m;

    *lo = (int16_t)((ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 + m) >> shift);
    *hi = (int16_t)((ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 + m) >> shift);
}

/* Scale 1, vertical: from scale 0's int16 band a, the full Q21 sum. */
__device__ static inline void dwt_vert_s1(const int16_t *s, const size_t r[4], int c,
                                          int32_t *lo, int32_t *hi)
{
    int x0 = s[r[0] + c], x1 = s[r[1] + c], x2 = s[r[2] + c], x3 = s[r[3] + c];

    *lo = ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3;
    *hi = ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3;
}

/* Scales 2 and 3, vertical: from the previous scale's int32 band a. */
__device__ static inline void dwt_vert_s23(const int32_t *s, const size_t r[4], int c,
                                           int32_t *lo, int32_t *hi)
{
    i64 x0 = s[r[0] + c], x1 = s[r[1] + c], x2 = s[r[2] + c], x3 = s[r[3] + c];

    *lo = (int32_t)((ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 + 32768) >> 16);
    *hi = (int32_t)((ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 + 32768) >> 16);
}

/* Scale 0, horizontal, from the tile's vertical results in[0..3]. */
__device__ static inline void dwt_horiz_s0(const int16_t *in, int shift,
                                           int16_t *lo, int16_t *hi)
{
    const int16_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];

    *lo = (int16_t)((ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 + 32768) >> 16);
    *hi = (int16_t)((ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 + 32768) >> 16);
}

/* Scales 1..3, horizontal. */
__device__ static inline void dwt_horiz_s123(const int32_t *in, int shift,
                                             int32_t *lo, int32_t *hi)
{
    const i64 rnd = 1LL << (shift - 1);
    const i64 x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];

    *lo = (int32_t)((ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 + rnd) >> shift);
    *hi = (int32_t)((ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 + rnd) >> shift);
}

/*
 * The tile of one level. MODE 0: scale 0 from the pictures (T, rows
 * ref_pitch and dis_pitch bytes apart); 1: scale 1 from scale 0's band a
 * (int16); 2: scales 2 and 3 from the previous band a (int32). The input
 * is w x h (band planes of the previous scale: iplane elements apart,
 * rows w apart); the output, bw x bh, goes to the 8 band planes of band
 * (bplane elements apart): LO rows give a and v, HI rows h and d.
 */
template <int MODE, typename T, typename TB>
__device__ static inline void dwt_tile(const T *ref, size_t ref_pitch, const T *dis,
                                       size_t dis_pitch, i64 iplane, TB *band, i64 bplane,
                                       int w, int h, int bw, int bh, int bpc, int shift)
{
    __shared__ TB s_v[2][2][ADM_BY][ADM_DWT_COLS];     /* [picture][lo, hi] */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j0 = blockIdx.x * ADM_BX, y0 = blockIdx.y * ADM_BY;
    const int j = j0 + tx, y = y0 + ty;

    for (int n = ty * ADM_BX + tx; n < ADM_BY * ADM_DWT_COLS; n += ADM_BX * ADM_BY) {
        const int vr = n / ADM_DWT_COLS, k = n % ADM_DWT_COLS;
        const int yy = min(y0 + vr, bh - 1);
        /* An output's last input column is 2 · bw <= w + 1. */
        const int c = adm_dwt_idx(min(2 * j0 - 1 + k, w + 1), w);
        size_t r[4];

        for (int p = 0; p < 2; p++) {
            TB *lo = &s_v[p][0][vr][k], *hi = &s_v[p][1][vr][k];

            for (int q = 0; q < 4; q++)
                r[q] = (size_t)adm_dwt_idx(2 * yy - 1 + q, h);
            if (MODE == 0) {
                const size_t pitch = p ? dis_pitch : ref_pitch;
                for (int q = 0; q < 4; q++)
                    r[q] *= pitch;
                dwt_vert_s0<T>((const uint8_t *)(p ? dis : ref), r, c, bpc,
                               (int16_t *)lo, (int16_t *)hi);
            } else {
                for (int q = 0; q < 4; q++)
                    r[q] *= w;
                if (MODE == 1)
                    dwt_vert_s1((const int16_t *)ref + (4 * p + 3) * iplane, r, c,
                                (int32_t *)lo, (int32_t *)hi);
                else
                    dwt_vert_s23((const int32_t *)ref + (4 * p + 3) * iplane, r, c,
                                 (int32_t *)lo, (int32_t *)hi);
            }
        }
    }
    __syncthreads();

    if (j >= bw || y >= bh)
        return;
    for (int p = 0; p < 2; p++)
        for (int q = 0; q < 2; q++) {
            TB *b = band + 4 * p * bplane + (size_t)y * bw + j;
            TB lo, hi;

            if (MODE == 0)
                dwt_horiz_s0((const int16_t *)&s_v[p][q][ty][2 * tx], shift,
                             (int16_t *)&lo, (int16_t *)&hi);
            else
                dwt_horiz_s123((const int32_t *)&s_v[p][q][ty][2 * tx], shift,
                               (int32_t *)&lo, (int32_t *)&hi);
            b[(q ? 0 : 3) * bplane] = lo;   /* h or a */
            b[(q ? 2 : 1) * bplane] = hi;   /* d or v */
        }
}

GPU_KERNEL void __launch_bounds__(ADM_BX * ADM_BY)
vmaf_adm_dwt_s0_8(const uint8_t *ref, size_t ref_pitch, const uint8_t *dis,
                  size_t dis_pitch, int16_t *band, i64 bplane, int w, int h, int bw, int bh,
                  int bpc)
{
    dwt_tile<0, uint8_t, int16_t>(ref, ref_pitch, dis, dis_pitch, 0, band, bplane,
                                  w, h, bw, bh, bpc, 16);
}

GPU_KERNEL void __launch_bounds__(ADM_BX * ADM_BY)
vmaf_adm_dwt_s0_16(const uint16_t *ref, size_t ref_pitch, const uint16_t *dis,
                   size_t dis_pitch, int16_t *band, i64 bplane, int w, int h, int bw, int bh,
                   int bpc)
{
    dwt_tile<0, uint16_t, int16_t>(ref, ref_pitch, dis, dis_pitch, 0, band, bplane,
                                   w, h, bw, bh, bpc, 16);
}

/* in: the previous scale's band planes (ref's a is plane 3, dis's plane 7). */
GPU_KERNEL void __launch_bounds__(ADM_BX * ADM_BY)
vmaf_adm_dwt_s1(const int16_t *in, i64 iplane, int32_t *band, i64 bplane,
                int w, int h, int bw, int bh)
{
    dwt_tile<1, int16_t, int32_t>(in, 0, in, 0, iplane, band, bplane, w, h, bw, bh, 0, 15);
}

GPU_KERNEL void __launch_bounds__(ADM_BX * ADM_BY)
vmaf_adm_dwt_s23(const int32_t *in, i64 iplane, int32_t *band, i64 bplane,
                 int w, int h, int bw, int bh, int shift)
{
    dwt_tile<2, int32_t, int32_t>(in, 0, in, 0, iplane, band, bplane, w, h, bw, bh, 0, shift);
}

/* ---------------------------------------------------- decouple and CSF */

/* The (h, v) detail vectors of ref and dis are within one degree; dot
 * products rounded to float, compared in double, in the reference's order. */
__device__ static inline int angle_within_1deg(i64 oh, i64 ov, i64 th, i64 tv)
{
    i64 ot = oh * th + ov * tv;
    i64 oo = oh * oh + ov * ov;
    i64 tt = th * th + tv * tv;
    double d = (double)(float)ot / 4096.0;

    return d >= 0.0 &&
           d * d >= ADM_COS_1DEG_SQ * ((double)(float)oo / 4096.0) *
                                  ((double)(float)tt / 4096.0);
}

/* Restored value: o times the clamped gain t / o, limited by egl. */
__device__ static inline i64 restore(i64 ov, i64 tv, i64 d, int round_shift,
                                     int angle, double egl)
{
    i64 k = (d * tv + (1LL << (round_shift - 1))) >> round_shift;
    i64 rv, up, dn, lim;
    double re;

    k   = k < 0 ? 0 : k > 32768 ? 32768 : k;
    rv  = (k * ov + 16384) >> 15;
    re  = (double)rv * egl;
    up  = re < (double)tv ? (i64)re : tv;
    dn  = re > (double)tv ? (i64)re : tv;
    lim = ov > 0 ? up : dn;
    return angle && k > 0 && ov != 0 ? lim : rv;
}

/* Scale-0 CSF of one pixel's three bands: flt and centre sums. */
__device__ static inline void csf_s0(int32_t *flt_sum, int32_t *ctr_sum,
                                     const int16_t src[3], int rf_h, int rf_v, int rf_d)
{
    int ch = adm_abs((int16_t)((rf_h * src[0] + 16384) >> 15));
    int cv = adm_abs((int16_t)((rf_v * src[1] + 16384) >> 15));
    int cd = adm_abs((int16_t)((rf_d * src[2] + 65535) >> 17));

    *flt_sum = (int16_t)((4369 * ch + 2048) >> 12) +
               (int16_t)((4369 * cv + 2048) >> 12) +
               (int16_t)((4369 * cd + 2048) >> 12);
    *ctr_sum = (int16_t)((8738 * ch + 2048) >> 12) +
               (int16_t)((8738 * cv + 2048) >> 12) +
               (int16_t)((8738 * cd + 2048) >> 12);
}

/*
 * Scale 0, one position: the reference bands o, the restored r and the
 * additive impairment a (h, v, d), and the masker terms m: flt and centre
 * sums of a, then of r.
 */
__device__ static inline void decouple_s0(const int16_t *band, i64 bplane, size_t idx,
                                          double egl, const int32_t *div_lut,
                                          int rf_h, int rf_v, int rf_d, int16_t o[3],
                                          int16_t r[3], int16_t a[3], int32_t m[4])
{
    int16_t t[3];
    int angle;

    for (int b = 0; b < 3; b++) {
        o[b] = band[b * bplane + idx];
        t[b] = band[(4 + b) * bplane + idx];
    }
    angle = angle_within_1deg(o[0], o[1], t[0], t[1]);
    for (int b = 0; b < 3; b++) {
        i64 d = div_lut[adm_abs(o[b])];
        d = o[b] < 0 ? -d : d;
        r[b] = (int16_t)restore(o[b], t[b], d, 15, angle, egl);
    }
    for (int b = 0; b < 3; b++)
        /* int16 wrap-around, as in libvmaf. */
        a[b] = (int16_t)(t[b] - r[b]);
    csf_s0(&m[0], &m[1], a, rf_h, rf_v, rf_d);
    csf_s0(&m[2], &m[3], r, rf_h, rf_v, rf_d);
}

/* Scales 1..3 CSF of one pixel: the weighted bands and the flt and centre
 * sums (libvmaf's -2^31 rounding quirk included). */
__device__ static inline void csf_s123(int32_t dst[3], i64 *flt_sum, i64 *ctr_sum,
                                       const int32_t src[3], unsigned rf_h,
                                       unsigned rf_v, unsigned rf_d)
{
    const unsigned rf[3] = { rf_h, rf_v, rf_d };
    i64 fs = 0, cs = 0;

    for (int b = 0; b < 3; b++) {
        int32_t c = (int32_t)(((i64)rf[b] * src[b] + (1 << 27)) >> 28);
        i64 ac = adm_abs64((i64)c);

        dst[b] = c;
        fs += (int32_t)((143165577 * ac - (1LL << 31)) >> 32);
        cs += (int32_t)((286331153 * ac - (1LL << 31)) >> 32);
    }
    *flt_sum = fs;
    *ctr_sum = cs;
}

/*
 * Scales 1..3, one position: the reference bands o, the CSF of r (the
 * numerator's masked signal) xr and of a (AIM's) xa, and the masker terms
 * m: flt and centre sums of a, then of r.
 */
__device__ static inline void decouple_s123(const int32_t *band, i64 bplane, size_t idx,
                                            double egl, const int32_t *div_lut,
                                            unsigned rf_h, unsigned rf_v, unsigned rf_d,
                                            int32_t o[3], int32_t xr[3], int32_t xa[3],
                                            i64 m[4])
{
    int32_t t[3], r[3], a[3];
    int angle;

    for (int b = 0; b < 3; b++) {
        o[b] = band[b * bplane + idx];
        t[b] = band[(4 + b) * bplane + idx];
    }
    angle = angle_within_1deg(o[0], o[1], t[0], t[1]);
    for (int b = 0; b < 3; b++) {
        /* |o| beyond the table: 15 significant bits, shift taken back
         * after the product. */
        uint32_t ao = (uint32_t)adm_abs64((i64)o[b]), mm = ao;
        int s = 0;
        i64 d;

        if (ao >= 32768) {
            s = (31 - __clz(ao)) + 1 - 15;
            mm = (ao + (1U << (s - 1))) >> s;
        }
        d = div_lut[mm];
        d = o[b] < 0 ? -d : d;
        r[b] = (int32_t)restore(o[b], t[b], d, 15 + s, angle, egl);
    }
    for (int b = 0; b < 3; b++)
        a[b] = (int32_t)((i64)t[b] - r[b]);
    csf_s123(xa, &m[0], &m[1], a, rf_h, rf_v, rf_d);
    csf_s123(xr, &m[2], &m[3], r, rf_h, rf_v, rf_d);
}

/* ------------------------------------------------- masking, row sums */

/*
 * Decouple, CSF and masking run fused on tiles of ADM_TW x ADM_TH inner
 * positions, one thread each. The masking threshold of a position reads
 * the masker's flt in its 3x3 neighbourhood, so a block first computes
 * decouple and CSF at its own positions (kept in registers) and at the
 * one-position ring around the tile (only flt kept), in shared memory.
 * Tile position (R, C) is plane position (i0 - 1 + R, j0 - 1 + C), with
 * -1 read as 1 and n as n - 1 (adm_mask_col), as the driver pads its flt
 * rows; only those two ever occur for a position that is counted.
 *
 * The reference rounds and shifts the sums of each row before adding the
 * rows, so a row's sums must be whole first: each warp (one tile row of
 * 32 positions) adds its partial row sums into that row's nine 64-bit
 * accumulators with atomics (integers: any order), and vmaf_adm_rows_done
 * rounds and totals the rows of every scale once they are all in.
 */
#define ADM_TW 32
#define ADM_TH 8
#define ADM_HALO (2 * (ADM_TW + 2) + 2 * ADM_TH)

/* Tile position of halo entry n: the rows above and below, then the
 * columns left and right. */
__device__ static inline void adm_halo_pos(int n, int *r, int *c)
{
    if (n < 2 * (ADM_TW + 2)) {
        *r = n < ADM_TW + 2 ? 0 : ADM_TH + 1;
        *c = n % (ADM_TW + 2);
    } else {
        n -= 2 * (ADM_TW + 2);
        *r = 1 + n % ADM_TH;
        *c = n < ADM_TH ? 0 : ADM_TW + 1;
    }
}

/* The masking threshold: the 3x3 sum of the masker's flt (f: the tile
 * rows above, at and below the position, each from its left neighbour)
 * with its centre term in place of the centre's flt. */
template <typename T>
__device__ static inline i64 mask_threshold(const T *f0, const T *f1, const T *f2, T ctr)
{
    T hs0 = f0[0] + f0[1] + f0[2];
    T hs1 = f1[0] + f1[1] + f1[2];
    T hs2 = f2[0] + f2[1] + f2[2];

    return hs0 + hs1 + hs2 - f1[1] + ctr;
}

/*
 * Sum v over the 32 lanes of each tile row (a warp on NVIDIA, half a wave
 * on CDNA: the shuffles are 32 wide) and add it to the row's
 * accumulators, nine 64-bit words a row from row it on. Every thread of
 * the block must call it.
 */
__device__ static inline void adm_row_partial(u64 v[ADM_ROW_SUMS], u64 *rows, int i,
                                              int it, int ib, int skip_aim)
{
    for (int k = 0; k < ADM_ROW_SUMS; k++)
        for (int d = 16; d > 0; d >>= 1)
            v[k] += GPU_SHFL_DOWN32(v[k], d);
    if (threadIdx.x || i >= ib)
        return;
    for (int k = 0; k < ADM_ROW_SUMS; k++)
        if (!skip_aim || k < 3 || k >= 6)
            atomicAdd(&rows[(size_t)(i - it) * ADM_ROW_SUMS + k], v[k]);
}

__device__ static inline i64 masked_cube_s0(int sv, int rf, i64 thr_q, int p, int c,
                                            i64 crnd)
{
    i64 x = adm_abs(sv * rf) - thr_q, x2;

    x  = x > 0 ? x : 0;
    x2 = (x * x + (1LL << (p - 1))) >> p;
    return (x2 * x + crnd) >> c;
}

/*
 * Scale 0 over the inner region [il, ir) x [it, ib): masked cubes of r
 * (numerator, masker a) and of a (AIM, masker r), |o|^3 of the reference,
 * into the row accumulators.
 */
GPU_KERNEL void __launch_bounds__(ADM_TW * ADM_TH)
vmaf_adm_csf_cm_s0(const int16_t *band, i64 bplane, int bw, int bh, int il, int ir,
                   int it, int ib, double egl, const int32_t *div_lut, int rf_h, int rf_v,
                   int rf_d, int c_hv, int c_d, int skip_aim, u64 *rows)
{
    __shared__ int32_t s_flt[2][ADM_TH + 2][ADM_TW + 2];   /* flt of a, of r */
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * ADM_TW + tx;
    const int i0 = it + blockIdx.y * ADM_TH, j0 = il + blockIdx.x * ADM_TW;
    const int i = i0 + ty, j = j0 + tx;
    const i64 rnd_hv = c_hv > 0 ? 1LL << (c_hv - 1) : 0;
    const i64 rnd_d  = c_d  > 0 ? 1LL << (c_d  - 1) : 0;
    int16_t o[3], r[3], a[3];
    int32_t m[4];
    u64 v[ADM_ROW_SUMS] = { 0 };

    decouple_s0(band, bplane, (size_t)adm_mask_col(i, bh) * bw + adm_mask_col(j, bw), egl,
                div_lut, rf_h, rf_v, rf_d, o, r, a, m);
    s_flt[0][ty + 1][tx + 1] = m[0];
    s_flt[1][ty + 1][tx + 1] = m[2];
    if (tid < ADM_HALO) {
        int16_t ho[3], hr[3], ha[3];
        int32_t hm[4];
        int R, C;

        adm_halo_pos(tid, &R, &C);
        decouple_s0(band, bplane, (size_t)adm_mask_col(i0 - 1 + R, bh) * bw +
                    adm_mask_col(j0 - 1 + C, bw), egl, div_lut, rf_h, rf_v, rf_d,
                    ho, hr, ha, hm);
        s_flt[0][R][C] = hm[0];
        s_flt[1][R][C] = hm[2];
    }
    __syncthreads();

    if (i < ib && j < ir) {
        for (int pass = 0; pass < 2; pass++) {
            /* pass 0: numerator, masked r, masker a; pass 1: AIM. */
            const int16_t *s = pass ? a : r;
            const int32_t ctr = pass ? m[3] : m[1];
            i64 thr;

            if (pass && skip_aim)
                break;
            thr = mask_threshold(&s_flt[pass][ty][tx], &s_flt[pass][ty + 1][tx],
                                 &s_flt[pass][ty + 2][tx], ctr);
            v[3 * pass + 0] += (u64)masked_cube_s0(s[0], rf_h, thr << 10, 29, c_hv, rnd_hv);
            v[3 * pass + 1] += (u64)masked_cube_s0(s[1], rf_v, thr << 10, 29, c_hv, rnd_hv);
            v[3 * pass + 2] += (u64)masked_cube_s0(s[2], rf_d, thr << 12, 30, c_d, rnd_d);
        }
        for (int b = 0; b < 3; b++) {
            u64 ab = adm_abs(o[b]);
            v[6 + b] += ab * ab * ab;
        }
    }
    adm_row_partial(v, rows, i, it, ib, skip_aim);
}

__device__ static inline i64 masked_cube_s123(i64 xv, i64 thr, int c, i64 crnd)
{
    i64 x = adm_abs64(xv) - thr, x2;

    x  = x > 0 ? x : 0;
    x2 = (x * x + (1 << 29)) >> 30;
    return (x2 * x + crnd) >> c;
}

/*
 * Scales 1..3 over the inner region: masked cubes of CSF(r) (masker a)
 * and of CSF(a) (masker r); the denominator from the raw reference bands,
 * rounded per element with 2^den_p (libvmaf's constant) and den_c.
 */
GPU_KERNEL void __launch_bounds__(ADM_TW * ADM_TH)
vmaf_adm_csf_cm_s123(const int32_t *band, i64 bplane, int bw, int bh, int il, int ir,
                     int it, int ib, double egl, const int32_t *div_lut, unsigned rf_h,
                     unsigned rf_v, unsigned rf_d, int num_c, int den_p, int den_c,
                     int skip_aim, u64 *rows)
{
    __shared__ i64 s_flt[2][ADM_TH + 2][ADM_TW + 2];       /* flt of a, of r */
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * ADM_TW + tx;
    const int i0 = it + blockIdx.y * ADM_TH, j0 = il + blockIdx.x * ADM_TW;
    const int i = i0 + ty, j = j0 + tx;
    const i64 rnd = num_c > 0 ? 1LL << (num_c - 1) : 0;
    const u64 den_crnd = den_c > 0 ? 1ULL << (den_c - 1) : 0;
    int32_t o[3], xr[3], xa[3];
    i64 m[4];
    u64 v[ADM_ROW_SUMS] = { 0 };

    decouple_s123(band, bplane, (size_t)adm_mask_col(i, bh) * bw + adm_mask_col(j, bw), egl,
                  div_lut, rf_h, rf_v, rf_d, o, xr, xa, m);
    s_flt[0][ty + 1][tx + 1] = m[0];
    s_flt[1][ty + 1][tx + 1] = m[2];
    if (tid < ADM_HALO) {
        int32_t ho[3], hr[3], ha[3];
        i64 hm[4];
        int R, C;

        adm_halo_pos(tid, &R, &C);
        decouple_s123(band, bplane, (size_t)adm_mask_col(i0 - 1 + R, bh) * bw +
                      adm_mask_col(j0 - 1 + C, bw), egl, div_lut, rf_h, rf_v, rf_d,
                      ho, hr, ha, hm);
        s_flt[0][R][C] = hm[0];
        s_flt[1][R][C] = hm[2];
    }
    __syncthreads();

    if (i < ib && j < ir) {
        for (int pass = 0; pass < 2; pass++) {
            const int32_t *x = pass ? xa : xr;
            const i64 ctr = pass ? m[3] : m[1];
            i64 thr;

            if (pass && skip_aim)
                break;
            thr = mask_threshold(&s_flt[pass][ty][tx], &s_flt[pass][ty + 1][tx],
                                 &s_flt[pass][ty + 2][tx], ctr);
            for (int b = 0; b < 3; b++)
                v[3 * pass + b] += (u64)masked_cube_s123(x[b], thr, num_c, rnd);
        }
        for (int b = 0; b < 3; b++) {
            u64 ab = (u64)adm_abs64((i64)o[b]);
            v[6 + b] += ((((ab * ab + (1ULL << den_p)) >> den_p) * ab) + den_crnd) >> den_c;
        }
    }
    adm_row_partial(v, rows, i, it, ib, skip_aim);
}

/*
 * Sum the ADM_ROW_SUMS values of every thread of the block; thread 0 gets
 * the totals in v. Integer sums, so the order is irrelevant.
 */
__device__ static inline void adm_block_sum(u64 v[ADM_ROW_SUMS])
{
    __shared__ u64 part[ADM_ROW_SUMS][ADM_ROW_THREADS];
    const int tid = threadIdx.x;

    for (int k = 0; k < ADM_ROW_SUMS; k++)
        part[k][tid] = v[k];
    __syncthreads();
    for (int s = ADM_ROW_THREADS / 2; s >= 32; s >>= 1) {
        if (tid < s)
            for (int k = 0; k < ADM_ROW_SUMS; k++)
                part[k][tid] += part[k][tid + s];
        __syncthreads();
    }
    if (tid < 32)
        for (int k = 0; k < ADM_ROW_SUMS; k++) {
            u64 r = part[k][tid];
            for (int d = 16; d > 0; d >>= 1)
                r += GPU_SHFL_DOWN32(r, d);
            v[k] = r;
        }
}

/*
 * The rows of every scale, once all are in: a thread a row rounds and
 * shifts the row's sums as the driver does, and clears the row for the
 * next frame; the block adds them to the scale's totals (ADMScaleSums:
 * num[3], aim[3], den[3]; sums: the four scales'). Grid: blocks of
 * ADM_ROW_THREADS rows across, the scales down. par, per scale: rows,
 * first row's accumulator, num_e, and the denominator's shift.
 */
GPU_KERNEL void __launch_bounds__(ADM_ROW_THREADS)
vmaf_adm_rows_done(u64 *rows, const int32_t *par, int skip_aim, u64 *sums)
{
    const int32_t *p = par + 4 * blockIdx.y;
    const int n = blockIdx.x * ADM_ROW_THREADS + threadIdx.x;
    const int num_e = p[2], den_shift = p[3];
    const i64 num_rnd = num_e > 0 ? 1LL << (num_e - 1) : 0;
    const i64 den_rnd = den_shift > 0 ? 1LL << (den_shift - 1) : 0;
    u64 v[ADM_ROW_SUMS] = { 0 };

    if (n < p[0]) {
        u64 *row = rows + (size_t)(p[1] + n) * ADM_ROW_SUMS;

        for (int b = 0; b < 3; b++) {
            v[b] = (u64)(((i64)row[b] + num_rnd) >> num_e);
            if (!skip_aim)
                v[3 + b] = (u64)(((i64)row[3 + b] + num_rnd) >> num_e);
            v[6 + b] = (row[6 + b] + (u64)den_rnd) >> den_shift;
        }
        for (int k = 0; k < ADM_ROW_SUMS; k++)
            row[k] = 0;
    }
    adm_block_sum(v);
    if (threadIdx.x)
        return;
    for (int k = 0; k < ADM_ROW_SUMS; k++)
        if (!skip_aim || k < 3 || k >= 6)
            atomicAdd(&sums[ADM_ROW_SUMS * blockIdx.y + k], v[k]);
}
