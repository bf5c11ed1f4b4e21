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
 * Float ADM (float_adm.c with float_dsp.c as its C reference), one thread
 * per output sample, per scale:
 *
 *  - dwt: one db2 level of ref and dis, a band sample from its 4x4 source
 *    neighbourhood (the vertical pass first, as in the C code);
 *  - decouple: the restored and additive parts of the dis detail, CSF
 *    weighted, and their masking contributions, over the whole band;
 *  - cm: over the inner region, the cubes of the masked detail loss, of
 *    the masked additive impairment and of the weighted reference;
 *
 * then rowsum, once a frame: one thread per row, quantity and scale adds
 * a row of cubes in column order, in float, as the C code does; the host
 * adds the rows in row order and takes the norms.
 *
 * Every expression is the C code's, in its order and types (the kernels
 * are built without contraction), so every sample has its bits. The
 * decouple's reciprocal starts from the host CPU's own estimate (RCPSS),
 * read from a table of its values over the mantissas of [1, 2).
 */

#include "../../gpu/gpu_compat.h"

#define FADM_BLOCK_X 32
#define FADM_BLOCK_Y 8
#define FADM_ROWSUM_BLOCK 64
#define FADM_SCALES 4

/* Orientations h, v, d, as float_adm.h numbers them. */
#define FADM_H 0
#define FADM_V 1
#define FADM_D 2

/* The db2 filters of float_dsp.c. */
#define FADM_LO0  0.482962906f
#define FADM_LO1  0.836516321f
#define FADM_LO2  0.224143863f
#define FADM_LO3 -0.129409522f

__device__ static inline float fadm_sample(const uint8_t *p, float scale)
{
    return (float)*p + -128.0f;
}

__device__ static inline float fadm_sample(const uint16_t *p, float scale)
{
    return (float)*p / scale + -128.0f;
}

__device__ static inline float fadm_sample(const float *p, float scale)
{
    return *p;
}

/* The DWT border: -1 reads 1, t >= n reads 2n - 1 - t. */
__device__ static inline int fadm_dwt_index(int t, int n)
{
    return t < 0 ? -t : t >= n ? 2 * n - 1 - t : t;
}

__device__ static inline float fadm_lo(float s0, float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += FADM_LO0 * s0;
    acc += FADM_LO1 * s1;
    acc += FADM_LO2 * s2;
    acc += FADM_LO3 * s3;
    return acc;
}

/* HI = { LO3, -LO2, LO1, -LO0 }. */
__device__ static inline float fadm_hi(float s0, float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += FADM_LO3 * s0;
    acc += -FADM_LO2 * s1;
    acc += FADM_LO1 * s2;
    acc += -FADM_LO0 * s3;
    return acc;
}

/*
 * One DWT level of a w x h picture at band sample (i, j): band a into a,
 * the detail bands h, v, d into det[FADM_H..FADM_D * plane].
 */
template <typename T>
__device__ static inline void fadm_dwt(float *a, float *det, size_t plane,
                                       const void *src, size_t pitch,
                                       int w, int h, int bpc, int i, int j)
{
    const int bw = (w + 1) / 2;
    const float scale = (float)(1 << (bpc - 8));
    const T *rows[4];
    float lo[4], hi[4];
    size_t o = (size_t)i * bw + j;

    for (int k = 0; k < 4; k++)
        rows[k] = (const T *)((const uint8_t *)src +
                              (size_t)fadm_dwt_index(2 * i - 1 + k, h) * pitch);
    for (int q = 0; q < 4; q++) {
        const int c = fadm_dwt_index(2 * j - 1 + q, w);
        const float s0 = fadm_sample(rows[0] + c, scale), s1 = fadm_sample(rows[1] + c, scale);
        const float s2 = fadm_sample(rows[2] + c, scale), s3 = fadm_sample(rows[3] + c, scale);
        lo[q] = fadm_lo(s0, s1, s2, s3);
        hi[q] = fadm_hi(s0, s1, s2, s3);
    }
    a[o]                  = fadm_lo(lo[0], lo[1], lo[2], lo[3]);
    det[FADM_V * plane + o] = fadm_hi(lo[0], lo[1], lo[2], lo[3]);
    det[FADM_H * plane + o] = fadm_lo(hi[0], hi[1], hi[2], hi[3]);
    det[FADM_D * plane + o] = fadm_hi(hi[0], hi[1], hi[2], hi[3]);
}

/*
 * Both pictures: band a into a_ref and a_dis (packed, (w + 1) / 2 wide),
 * the details of ref into det[0..2 planes], of dis into det[3..5].
 */
template <typename T>
__device__ static inline void fadm_dwt2(float *a_ref, float *a_dis, float *det, size_t plane,
                                        const void *ref, const void *dis, size_t pitch,
                                        int w, int h, int bpc)
{
    const int j = blockIdx.x * FADM_BLOCK_X + threadIdx.x;
    const int i = blockIdx.y * FADM_BLOCK_Y + threadIdx.y;

    if (j >= (w + 1) / 2 || i >= (h + 1) / 2)
        return;
    fadm_dwt<T>(a_ref, det, plane, ref, pitch, w, h, bpc, i, j);
    fadm_dwt<T>(a_dis, det + 3 * plane, plane, dis, pitch, w, h, bpc, i, j);
}

GPU_KERNEL void __launch_bounds__(FADM_BLOCK_X * FADM_BLOCK_Y)
vmaf_fadm_dwt_8(float *a_ref, float *a_dis, float *det, size_t plane,
                const uint8_t *ref, const uint8_t *dis, size_t pitch, int w, int h, int bpc)
{
    fadm_dwt2<uint8_t>(a_ref, a_dis, det, plane, ref, dis, pitch, w, h, bpc);
}

GPU_KERNEL void __launch_bounds__(FADM_BLOCK_X * FADM_BLOCK_Y)
vmaf_fadm_dwt_16(float *a_ref, float *a_dis, float *det, size_t plane,
                 const uint16_t *ref, const uint16_t *dis, size_t pitch, int w, int h, int bpc)
{
    fadm_dwt2<uint16_t>(a_ref, a_dis, det, plane, ref, dis, pitch, w, h, bpc);
}

GPU_KERNEL void __launch_bounds__(FADM_BLOCK_X * FADM_BLOCK_Y)
vmaf_fadm_dwt_f(float *a_ref, float *a_dis, float *det, size_t plane,
                const float *ref, const float *dis, size_t pitch, int w, int h, int bpc)
{
    fadm_dwt2<float>(a_ref, a_dis, det, plane, ref, dis, pitch, w, h, bpc);
}

/*
 * The estimate of 1 / x the decouple refines: the host's, from its values
 * tab[m] over [1, 2) (the estimate scales with the exponent), or the IEEE
 * quotient without a table. Zero and denormal x give infinity, results
 * below the normal range zero, as RCPSS does; neither occurs here.
 */
__device__ static inline float fadm_rcp_estimate(float x, const uint32_t *tab)
{
    uint32_t u, t, sign;
    int e, re;

    if (!tab)
        return 1.0f / x;
    u    = __float_as_uint(x);
    sign = u & 0x80000000u;
    e    = (u >> 23) & 0xff;
    t    = tab[u & 0x7fffff];
    re   = (int)((t >> 23) & 0xff) + 127 - e;
    if (e == 0 || re >= 255)
        return __uint_as_float(sign | 0x7f800000u);
    if (re <= 0)
        return __uint_as_float(sign);
    return __uint_as_float(sign | ((uint32_t)re << 23) | (t & 0x7fffff));
}

__device__ static inline float fadm_reciprocal(float x, const uint32_t *tab)
{
    const float y = fadm_rcp_estimate(x, tab);
    return y + y * (1.0f - x * y);
}

#define FADM_MIN(a, b) ((a) > (b) ? (b) : (a))
#define FADM_MAX(a, b) ((a) > (b) ? (a) : (b))

/*
 * ff_vmaf_float_adm_decouple() at band sample (i, j) of a w x h band:
 * from det (ref h, v, d then dis h, v, d planes) into csf, 12 planes:
 * dst_r, flt_r, dst_a, flt_a, each h, v, d.
 */
GPU_KERNEL void __launch_bounds__(FADM_BLOCK_X * FADM_BLOCK_Y)
vmaf_fadm_decouple(float *csf, const float *det, size_t plane, int w, int h,
                   float rf_hv, float rf_d, double egl, const uint32_t *rcp_tab)
{
    const int j = blockIdx.x * FADM_BLOCK_X + threadIdx.x;
    const int i = blockIdx.y * FADM_BLOCK_Y + threadIdx.y;
    /* cos(1 degree)^2 */
    const float cos_1deg_sq = 0.99969542f;
    const float *o = det, *t = det + 3 * plane;
    float oh, ov, th, tv, ot, oo, tt;
    int angle_flag;
    size_t p;

    if (j >= w || i >= h)
        return;
    p  = (size_t)i * w + j;
    oh = o[FADM_H * plane + p];
    ov = o[FADM_V * plane + p];
    th = t[FADM_H * plane + p];
    tv = t[FADM_V * plane + p];
    ot = oh * th + ov * tv;
    oo = oh * oh + ov * ov;
    tt = th * th + tv * tv;
    angle_flag = ot >= 0.0f && ot * ot >= cos_1deg_sq * oo * tt;

    for (int ori = 0; ori < 3; ori++) {
        const float ox = o[ori * plane + p], tx = t[ori * plane + p];
        const float c = ori == FADM_D ? rf_d : rf_hv;
        float k = tx * fadm_reciprocal(ox + 1e-30f, rcp_tab);
        float r, a, dst_r, dst_a;

        k = k < 0.0f ? 0.0f : k > 1.0f ? 1.0f : k;
        r = k * ox;
        if (angle_flag && r > 0.0f)
            r = (float)FADM_MIN((double)r * egl, (double)tx);
        else if (angle_flag && r < 0.0f)
            r = (float)FADM_MAX((double)r * egl, (double)tx);
        a = tx - r;

        dst_r = c * r;
        dst_a = c * a;
        csf[(0 + ori) * plane + p] = dst_r;
        csf[(3 + ori) * plane + p] = (float)(0.0333333351 * (double)fabsf(dst_r));
        csf[(6 + ori) * plane + p] = dst_a;
        csf[(9 + ori) * plane + p] = (float)(0.0333333351 * (double)fabsf(dst_a));
    }
}

/*
 * The masking threshold's term of one orientation: the 3x3 neighbourhood
 * of flt (rows im, i, ip) with the centre replaced by twice its weight of
 * |dst|, summed in this order in float, the centre term in double.
 */
__device__ static inline float fadm_mask(const float *flt, const float *dst, int w,
                                         int im, int i, int ip, int jm, int j, int jp)
{
    const float *r0 = flt + (size_t)im * w, *r1 = flt + (size_t)i * w, *r2 = flt + (size_t)ip * w;
    float sum = 0.0f;

    sum += r0[jm];
    sum += r0[j];
    sum += r0[jp];
    sum += r1[jm];
    sum = (float)((double)sum + 0.0666666701 * (double)fabsf(dst[(size_t)i * w + j]));
    sum += r1[jp];
    sum += r2[jm];
    sum += r2[j];
    sum += r2[jp];
    return sum;
}

/* x^3 of the masked signal, as ff_vmaf_float_adm_cm() and adm_pow() take it. */
__device__ static inline float fadm_masked_cube(float sig, float thr)
{
    float x = fabsf(sig) - thr;
    x = FADM_MAX(x, 0.0f);
    return x * x * x;
}

/*
 * At inner sample (top + y, left + x) of a w x h band, into cubes (9
 * planes of the inner region, iw x ih): the masked detail loss h, v, d
 * (the restored part, masked by the additive one), the masked additive
 * impairment h, v, d (masked by the restored part), and the CSF-weighted
 * reference h, v, d.
 */
GPU_KERNEL void __launch_bounds__(FADM_BLOCK_X * FADM_BLOCK_Y)
vmaf_fadm_cm(float *cubes, const float *csf, const float *det, size_t plane,
             int w, int h, int left, int right, int top, int bottom,
             float rf_hv, float rf_d, int bypass)
{
    const int x = blockIdx.x * FADM_BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * FADM_BLOCK_Y + threadIdx.y;
    const int iw = right - left, ih = bottom - top;
    const int i = top + y, j = left + x;
    const float *dst_r = csf, *flt_r = csf + 3 * plane;
    const float *dst_a = csf + 6 * plane, *flt_a = csf + 9 * plane;
    float thr_num = 0.0f, thr_aim = 0.0f;
    size_t p, q, n;
    int im, ip, jm, jp;

    if (x >= iw || y >= ih)
        return;
    /* Beyond the band: -1 reads 1, w reads w - 1 (and so for rows). */
    jm = j > 0 ? j - 1 : 1;
    jp = j + 1 < w ? j + 1 : w - 1;
    im = i > 0 ? i - 1 : 1;
    ip = i + 1 < h ? i + 1 : h - 1;
    p  = (size_t)i * w + j;
    q  = (size_t)y * iw + x;
    n  = (size_t)iw * ih;

    if (!bypass)
        for (int ori = 0; ori < 3; ori++) {
            thr_num += fadm_mask(flt_a + ori * plane, dst_a + ori * plane, w, im, i, ip, jm, j, jp);
            thr_aim += fadm_mask(flt_r + ori * plane, dst_r + ori * plane, w, im, i, ip, jm, j, jp);
        }
    for (int ori = 0; ori < 3; ori++) {
        const float c = ori == FADM_D ? rf_d : rf_hv;
        const float r = fabsf(c * det[ori * plane + p]);
        cubes[(0 + ori) * n + q] = fadm_masked_cube(dst_r[ori * plane + p], thr_num);
        cubes[(3 + ori) * n + q] = fadm_masked_cube(dst_a[ori * plane + p], thr_aim);
        cubes[(6 + ori) * n + q] = r * r * r;
    }
}

/*
 * One thread per row of each of the 9 cube planes of every scale in geo
 * (nb entries of iw, ih and the offset of its planes in cubes): the float
 * sum of the row in column order into part[t], t numbering the rows of
 * the scales in order, plane by plane.
 */
GPU_KERNEL void __launch_bounds__(FADM_ROWSUM_BLOCK)
vmaf_fadm_rowsum(float *part, const float *cubes, const int *geo, int nb)
{
    const int t = blockIdx.x * FADM_ROWSUM_BLOCK + threadIdx.x;
    int r = t, k;
    const float *row;
    float sum = 0.0f;

    for (k = 0; k < nb && r >= 9 * geo[3 * k + 1]; k++)
        r -= 9 * geo[3 * k + 1];
    if (k == nb)
        return;
    /* Plane r / ih, row r % ih: the planes are ih rows of iw each. */
    row = cubes + geo[3 * k + 2] + (size_t)r * geo[3 * k];
    for (int j = 0; j < geo[3 * k]; j++)
        sum += row[j];
    part[t] = sum;
}
