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
 * Integer ADM kernels, C reference.
 *
 * The arithmetic is libvmaf's scalar C path: its fixed-point formats, its
 * rounding constants (quirks included) and its int16 wrap-around at
 * scale 0. Border handling is left to the caller, so the sample loops
 * have no branches on position.
 */

#include <stdint.h>

#include "config.h"
#include "libavutil/common.h"

#include "adm_dsp.h"
#include "adm_filter.h"

void ff_vmaf_adm_div_lut_init(int32_t *lut)
{
    lut[0] = 0;
    for (int i = 1; i < FF_VMAF_ADM_DIV_LUT_SIZE; i++)
        lut[i] = (1 << 30) / i;
}

/*
 * Subtracting the mid-grey level m before filtering is exact (LO sums to
 * 46342, HI to 0) and keeps every sum inside int32 even at 16 bits,
 * where libvmaf's uncentred sum wraps around and back.
 */
void ff_vmaf_adm_dwt_vert_s0(int16_t *lo, int16_t *hi,
                             const void *const src[4], int w, int bpc)
{
    const int m = 1 << (bpc - 1), shift = bpc;

    if (bpc == 8) {
        const uint8_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];
        for (int j = 0; j < w; j++) {
            int x0 = s0[j] - 128, x1 = s1[j] - 128;
            int x2 = s2[j] - 128, x3 = s3[j] - 128;
            lo[j] = (ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 + 128) >> 8;
            hi[j] = (ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 + 128) >> 8;
        }
    } else {
        const uint16_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];
        for (int j = 0; j < w; j++) {
            int x0 = s0[j] - m, x1 = s1[j] - m, x2 = s2[j] - m, x3 = s3[j] - m;
            lo[j] = (ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 + m) >> shift;
            hi[j] = (ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 + m) >> shift;
        }
    }
}

void ff_vmaf_adm_dwt_horiz_s0(int16_t *lo, int16_t *hi, const int16_t *in,
                              int bw)
{
    for (int j = 0; j < bw; j++) {
        const int16_t *x = in + 2 * j - 1;
        lo[j] = (ADM_LO0 * x[0] + ADM_LO1 * x[1] + ADM_LO2 * x[2] + ADM_LO3 * x[3] + 32768) >> 16;
        hi[j] = (ADM_HI0 * x[0] + ADM_HI1 * x[1] + ADM_HI2 * x[2] + ADM_HI3 * x[3] + 32768) >> 16;
    }
}

/* Scale 1 keeps the full Q21 vertical sum: no rounding, no shift. */
void ff_vmaf_adm_dwt_vert_s1(int32_t *lo, int32_t *hi,
                             const int16_t *const src[4], int w)
{
    const int16_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];

    for (int j = 0; j < w; j++) {
        int x0 = s0[j], x1 = s1[j], x2 = s2[j], x3 = s3[j];
        lo[j] = ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3;
        hi[j] = ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3;
    }
}

void ff_vmaf_adm_dwt_vert_s23(int32_t *lo, int32_t *hi,
                              const int32_t *const src[4], int w)
{
    const int32_t *s0 = src[0], *s1 = src[1], *s2 = src[2], *s3 = src[3];

    for (int j = 0; j < w; j++) {
        int64_t x0 = s0[j], x1 = s1[j], x2 = s2[j], x3 = s3[j];
        lo[j] = (int32_t)((ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 +
                           32768) >> 16);
        hi[j] = (int32_t)((ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 +
                           32768) >> 16);
    }
}

void ff_vmaf_adm_dwt_horiz_s123(int32_t *lo, int32_t *hi, const int32_t *in,
                                int bw, int shift)
{
    const int64_t rnd = 1LL << (shift - 1);

    for (int j = 0; j < bw; j++) {
        const int32_t *x = in + 2 * j - 1;
        int64_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
        lo[j] = (int32_t)((ADM_LO0 * x0 + ADM_LO1 * x1 + ADM_LO2 * x2 + ADM_LO3 * x3 +
                           rnd) >> shift);
        hi[j] = (int32_t)((ADM_HI0 * x0 + ADM_HI1 * x1 + ADM_HI2 * x2 + ADM_HI3 * x3 +
                           rnd) >> shift);
    }
}

/*
 * libvmaf's angle test: the (h, v) detail vectors of reference and
 * distorted are within one degree. The dot products are rounded to float
 * and the comparison is made in double, in libvmaf's operation order.
 */
static av_always_inline int angle_within_1deg(int64_t oh, int64_t ov,
                                              int64_t th, int64_t tv)
{
    int64_t ot = oh * th + ov * tv;
    int64_t oo = oh * oh + ov * ov;
    int64_t tt = th * th + tv * tv;
    double  d  = (double)(float)ot / 4096.0;

    return d >= 0.0 &&
           d * d >= ADM_COS_1DEG_SQ * ((double)(float)oo / 4096.0) *
                                  ((double)(float)tt / 4096.0);
}

/*
 * Restored value of one band sample: the reference o times the gain
 * k = t / o in Q15 (d = 2^30 / o from the table, 0 for o = 0), clamped to
 * [0, 1]. Enhancement gain limit: where the angles match and the gain is
 * positive, the restored value may grow up to egl times, but not past the
 * distorted value; the product is a double, stored back by truncation.
 * For o = 0 the gain is irrelevant (r = 0), which is why the table's 0
 * entry may stand in for libvmaf's k = 1 there. Written without branches:
 * angle and sign flip at random on noisy content.
 */
static av_always_inline int64_t restore(int64_t ov, int64_t tv, int64_t d,
                                        int round_shift, int angle, double egl)
{
    int64_t k  = av_clip64((d * tv + (1LL << (round_shift - 1))) >> round_shift,
                           0, 32768);
    int64_t rv = (k * ov + 16384) >> 15;
    double  re = (double)rv * egl;
    int64_t up = re < (double)tv ? (int64_t)re : tv;
    int64_t dn = re > (double)tv ? (int64_t)re : tv;
    int64_t lim = ov > 0 ? up : dn;

    return angle && k > 0 && ov != 0 ? lim : rv;
}

void ff_vmaf_adm_decouple_s0(int16_t *const r[3], int16_t *const a[3],
                             const int16_t *const o[3],
                             const int16_t *const t[3],
                             int n, double egl, const int32_t *div_lut)
{
    const int16_t *oh = o[0], *ov = o[1], *od = o[2];
    const int16_t *th = t[0], *tv = t[1], *td = t[2];
    int16_t *rh = r[0], *rv = r[1], *rd = r[2];
    int16_t *ah = a[0], *av = a[1], *ad = a[2];

    for (int j = 0; j < n; j++) {
        const int angle = angle_within_1deg(oh[j], ov[j], th[j], tv[j]);
        const int16_t oo[3] = { oh[j], ov[j], od[j] };
        const int16_t tt[3] = { th[j], tv[j], td[j] };
        int16_t rr[3];

        for (int b = 0; b < 3; b++) {
            int64_t d = div_lut[FFABS(oo[b])];
            d = oo[b] < 0 ? -d : d;
            rr[b] = restore(oo[b], tt[b], d, 15, angle, egl);
        }
        rh[j] = rr[0];
        rv[j] = rr[1];
        rd[j] = rr[2];
        /* int16 wrap-around, as in libvmaf. */
        ah[j] = (int16_t)(tt[0] - rr[0]);
        av[j] = (int16_t)(tt[1] - rr[1]);
        ad[j] = (int16_t)(tt[2] - rr[2]);
    }
}

void ff_vmaf_adm_decouple_s123(int32_t *const r[3], int32_t *const a[3],
                               const int32_t *const o[3],
                               const int32_t *const t[3],
                               int n, double egl, const int32_t *div_lut)
{
    const int32_t *oh = o[0], *ov = o[1], *od = o[2];
    const int32_t *th = t[0], *tv = t[1], *td = t[2];
    int32_t *rh = r[0], *rv = r[1], *rd = r[2];
    int32_t *ah = a[0], *av = a[1], *ad = a[2];

    for (int j = 0; j < n; j++) {
        const int angle = angle_within_1deg(oh[j], ov[j], th[j], tv[j]);
        const int32_t oo[3] = { oh[j], ov[j], od[j] };
        const int32_t tt[3] = { th[j], tv[j], td[j] };
        int32_t rr[3];

        for (int b = 0; b < 3; b++) {
            /* |o| beyond the table is rounded to 15 significant bits and
             * the shift is taken back after the product. */
            uint32_t ao = FFABS((int64_t)oo[b]), m = ao;
            int s = 0;
            int64_t d;

            if (ao >= 32768) {
                s = av_log2(ao) + 1 - 15;
                m = (ao + (1U << (s - 1))) >> s;
            }
            d = div_lut[m];
            d = oo[b] < 0 ? -d : d;
            rr[b] = (int32_t)restore(oo[b], tt[b], d, 15 + s, angle, egl);
        }
        rh[j] = rr[0];
        rv[j] = rr[1];
        rd[j] = rr[2];
        ah[j] = (int32_t)((int64_t)tt[0] - rr[0]);
        av[j] = (int32_t)((int64_t)tt[1] - rr[1]);
        ad[j] = (int32_t)((int64_t)tt[2] - rr[2]);
    }
}

/*
 * Scale 0 CSF: the diagonal band is Q23 and rounds with 65535 instead of
 * 65536 (libvmaf's constant). flt ~ |csf| * 32 / 30 and the centre term
 * ~ |csf| * 32 / 15, both stored as int16 like libvmaf's.
 */
void ff_vmaf_adm_csf_s0(int32_t *flt_sum, int32_t *ctr_sum,
                        const int16_t *const src[3], int n,
                        const uint16_t rf[3])
{
    const int rf_h = rf[0], rf_v = rf[1], rf_d = rf[2];
    const int16_t *sh = src[0], *sv = src[1], *sd = src[2];

    for (int j = 0; j < n; j++) {
        int ch = FFABS((int16_t)((rf_h * sh[j] + 16384) >> 15));
        int cv = FFABS((int16_t)((rf_v * sv[j] + 16384) >> 15));
        int cd = FFABS((int16_t)((rf_d * sd[j] + 65535) >> 17));

        flt_sum[j] = (int16_t)((4369 * ch + 2048) >> 12) +
                     (int16_t)((4369 * cv + 2048) >> 12) +
                     (int16_t)((4369 * cd + 2048) >> 12);
        ctr_sum[j] = (int16_t)((8738 * ch + 2048) >> 12) +
                     (int16_t)((8738 * cv + 2048) >> 12) +
                     (int16_t)((8738 * cd + 2048) >> 12);
    }
}

/*
 * Scales 1..3: 143165577 ~ 2^32 / 30 and 286331153 ~ 2^32 / 15. libvmaf
 * meant to round with +2^31 but its constant overflowed to -2^31, so the
 * results are floor(x - 0.5) and a zero input gives -1.
 */
void ff_vmaf_adm_csf_s123(int32_t *const dst[3], int64_t *flt_sum,
                          int64_t *ctr_sum, const int32_t *const src[3],
                          int n, const uint32_t rf[3])
{
    for (int j = 0; j < n; j++) {
        int64_t fs = 0, cs = 0;

        for (int b = 0; b < 3; b++) {
            int32_t c = (int32_t)(((int64_t)rf[b] * src[b][j] + (1 << 27)) >> 28);
            int64_t ac = FFABS((int64_t)c);

            dst[b][j] = c;
            fs += (int32_t)((143165577 * ac - (1LL << 31)) >> 32);
            cs += (int32_t)((286331153 * ac - (1LL << 31)) >> 32);
        }
        flt_sum[j] = fs;
        ctr_sum[j] = cs;
    }
}

void ff_vmaf_adm_hsum3_32(int32_t *dst, const int32_t *src, int n)
{
    for (int j = 0; j < n; j++)
        dst[j] = src[j - 1] + src[j] + src[j + 1];
}

void ff_vmaf_adm_hsum3_64(int64_t *dst, const int64_t *src, int n)
{
    for (int j = 0; j < n; j++)
        dst[j] = src[j - 1] + src[j] + src[j + 1];
}

/*
 * x = |s * rf| is Q27 (h, v) or Q29 (d) and the threshold Q17, hence the
 * shifts 10 and 12; the cube is formed as ((x^2 >> p) * x) >> c with
 * p = 29 (h, v) or 30 (d).
 */
static av_always_inline int64_t masked_cube_s0(int sv, int rf, int64_t thr_q,
                                               int p, int c, int64_t crnd)
{
    int64_t x = FFABS(sv * rf) - thr_q, x2;

    x  = FFMAX(x, 0);
    x2 = (x * x + (1LL << (p - 1))) >> p;
    return (x2 * x + crnd) >> c;
}

void ff_vmaf_adm_cm_row_s0(int64_t sum[3], const int16_t *const s[3],
                           const int32_t *const hs[3], const int32_t *flt,
                           const int32_t *ctr, int n, const uint16_t rf[3],
                           int c_hv, int c_d)
{
    const int64_t rnd_hv = c_hv > 0 ? 1LL << (c_hv - 1) : 0;
    const int64_t rnd_d  = c_d  > 0 ? 1LL << (c_d  - 1) : 0;
    int64_t acc_h = 0, acc_v = 0, acc_d = 0;

    for (int j = 0; j < n; j++) {
        int64_t thr = hs[0][j] + hs[1][j] + hs[2][j] - flt[j] + ctr[j];

        /* thr may be negative: scale by multiplying, not shifting. */
        acc_h += masked_cube_s0(s[0][j], rf[0], thr * (1 << 10), 29, c_hv, rnd_hv);
        acc_v += masked_cube_s0(s[1][j], rf[1], thr * (1 << 10), 29, c_hv, rnd_hv);
        acc_d += masked_cube_s0(s[2][j], rf[2], thr * (1 << 12), 30, c_d,  rnd_d);
    }
    sum[0] = acc_h;
    sum[1] = acc_v;
    sum[2] = acc_d;
}

static av_always_inline int64_t masked_cube_s123(int64_t xv, int64_t thr,
                                                 int c, int64_t crnd)
{
    int64_t x = FFABS(xv) - thr, x2;

    x  = FFMAX(x, 0);
    x2 = (x * x + (1 << 29)) >> 30;
    return (x2 * x + crnd) >> c;
}

void ff_vmaf_adm_cm_row_s123(int64_t sum[3], const int32_t *const x[3],
                             const int64_t *const hs[3], const int64_t *flt,
                             const int64_t *ctr, int n, int shift)
{
    const int64_t rnd = shift > 0 ? 1LL << (shift - 1) : 0;
    int64_t acc_h = 0, acc_v = 0, acc_d = 0;

    for (int j = 0; j < n; j++) {
        int64_t thr = hs[0][j] + hs[1][j] + hs[2][j] - flt[j] + ctr[j];

        acc_h += masked_cube_s123(x[0][j], thr, shift, rnd);
        acc_v += masked_cube_s123(x[1][j], thr, shift, rnd);
        acc_d += masked_cube_s123(x[2][j], thr, shift, rnd);
    }
    sum[0] = acc_h;
    sum[1] = acc_v;
    sum[2] = acc_d;
}

uint64_t ff_vmaf_adm_den_row_s0(const int16_t *o, int n)
{
    uint64_t acc = 0;

    for (int j = 0; j < n; j++) {
        uint64_t a = FFABS(o[j]);
        acc += a * a * a;
    }
    return acc;
}

uint64_t ff_vmaf_adm_den_row_s123(const int32_t *o, int n, int p, int c)
{
    const uint64_t crnd = c > 0 ? 1ULL << (c - 1) : 0;
    uint64_t acc = 0;

    for (int j = 0; j < n; j++) {
        uint64_t a = FFABS((int64_t)o[j]);
        acc += ((((a * a + (1ULL << p)) >> p) * a) + crnd) >> c;
    }
    return acc;
}

void ff_vmaf_adm_dsp_init(FFVmafADMDSPContext *c)
{
    c->dwt_vert_s0    = ff_vmaf_adm_dwt_vert_s0;
    c->dwt_horiz_s0   = ff_vmaf_adm_dwt_horiz_s0;
    c->dwt_vert_s1    = ff_vmaf_adm_dwt_vert_s1;
    c->dwt_vert_s23   = ff_vmaf_adm_dwt_vert_s23;
    c->dwt_horiz_s123 = ff_vmaf_adm_dwt_horiz_s123;
    c->decouple_s0    = ff_vmaf_adm_decouple_s0;
    c->decouple_s123  = ff_vmaf_adm_decouple_s123;
    c->csf_s0         = ff_vmaf_adm_csf_s0;
    c->csf_s123       = ff_vmaf_adm_csf_s123;
    c->hsum3_32       = ff_vmaf_adm_hsum3_32;
    c->hsum3_64       = ff_vmaf_adm_hsum3_64;
    c->cm_row_s0      = ff_vmaf_adm_cm_row_s0;
    c->cm_row_s123    = ff_vmaf_adm_cm_row_s123;
    c->den_row_s0     = ff_vmaf_adm_den_row_s0;
    c->den_row_s123   = ff_vmaf_adm_den_row_s123;
#if ARCH_X86_64
    ff_vmaf_adm_dsp_init_x86(c);
#endif
}
