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
 * Row kernels of the integer ADM (detail loss metric), bit-exact with the
 * scalar C path of libvmaf 3.2.0.
 *
 * Every kernel works on one row of n samples; the driver (adm.c) picks the
 * rows, applies the border rules and accumulates. Orientation arrays are
 * indexed h, v, d. Scale 0 works on int16 bands (Q6 of 8-bit units),
 * scales 1..3 on int32 bands (Q21, Q19, Q18).
 */

#ifndef AVFILTER_VMAF_FEATURES_ADM_DSP_H
#define AVFILTER_VMAF_FEATURES_ADM_DSP_H

#include <stdint.h>

#define FF_VMAF_ADM_SCALES 4

/** Entries of the reciprocal table used by the decouple step. */
#define FF_VMAF_ADM_DIV_LUT_SIZE 32769

/** lut[i] = 2^30 / i (truncated) for i = 1..32768, and lut[0] = 0. */
void ff_vmaf_adm_div_lut_init(int32_t *lut);

/**
 * Vertical DWT step of scale 0 for every column of one output row.
 * src[k] are the input rows at 2i-1, 2i, 2i+1, 2i+2 after the border rule.
 * bpc = 8 reads uint8_t samples, otherwise uint16_t.
 */
void ff_vmaf_adm_dwt_vert_s0(int16_t *lo, int16_t *hi,
                             const void *const src[4], int w, int bpc);

/**
 * Horizontal DWT step of scale 0: lo/hi outputs j = 0..bw-1 from taps
 * in[2j-1 .. 2j+2]. in[-1], in[w] and in[w+1] must hold the mirrored
 * samples (see ff_vmaf_adm_pad_row16()).
 */
void ff_vmaf_adm_dwt_horiz_s0(int16_t *lo, int16_t *hi, const int16_t *in,
                              int bw);

/** Vertical DWT step of scale 1, from the int16 band_a of scale 0. */
void ff_vmaf_adm_dwt_vert_s1(int32_t *lo, int32_t *hi,
                             const int16_t *const src[4], int w);

/** Vertical DWT step of scales 2 and 3. */
void ff_vmaf_adm_dwt_vert_s23(int32_t *lo, int32_t *hi,
                              const int32_t *const src[4], int w);

/**
 * Horizontal DWT step of scales 1..3, rounding (sum + 2^(shift-1)) >> shift.
 * Same padding contract as ff_vmaf_adm_dwt_horiz_s0().
 */
void ff_vmaf_adm_dwt_horiz_s123(int32_t *lo, int32_t *hi, const int32_t *in,
                                int bw, int shift);

/**
 * Fill in[-1], in[w], in[w + 1] of a DWT input row: reflect-101 at the
 * start, symmetric (edge repeated) at the end.
 */
static inline void ff_vmaf_adm_pad_row16(int16_t *in, int w)
{
    in[-1]    = in[1];
    in[w]     = in[w - 1];
    in[w + 1] = in[w - 2];
}

static inline void ff_vmaf_adm_pad_row32(int32_t *in, int w)
{
    in[-1]    = in[1];
    in[w]     = in[w - 1];
    in[w + 1] = in[w - 2];
}

/**
 * Split the distorted detail bands t into a restored part r (the reference
 * bands o scaled by a clamped gain) and an additive impairment a = t - r.
 */
void ff_vmaf_adm_decouple_s0(int16_t *const r[3], int16_t *const a[3],
                             const int16_t *const o[3],
                             const int16_t *const t[3],
                             int n, double egl, const int32_t *div_lut);

void ff_vmaf_adm_decouple_s123(int32_t *const r[3], int32_t *const a[3],
                               const int32_t *const o[3],
                               const int32_t *const t[3],
                               int n, double egl, const int32_t *div_lut);

/**
 * Contrast sensitivity weighting of the three orientations of src (a
 * masker), reduced to what the masking threshold needs per pixel:
 * flt_sum = sum over h, v, d of the filtered |csf|, ctr_sum = sum of the
 * centre terms. rf are the scale-0 integer rfactors (Q21, Q21, Q23).
 */
void ff_vmaf_adm_csf_s0(int32_t *flt_sum, int32_t *ctr_sum,
                        const int16_t *const src[3], int n,
                        const uint16_t rf[3]);

/**
 * Scales 1..3: also returns the weighted bands dst, which are the masked
 * signal of the other pass (numerator vs. AIM). rf are Q32.
 */
void ff_vmaf_adm_csf_s123(int32_t *const dst[3], int64_t *flt_sum,
                          int64_t *ctr_sum, const int32_t *const src[3],
                          int n, const uint32_t rf[3]);

/**
 * Horizontal 3-tap box sum: dst[j] = src[j-1] + src[j] + src[j+1] for
 * j = 0..n-1; src[-1] and src[n] must be valid.
 */
void ff_vmaf_adm_hsum3_32(int32_t *dst, const int32_t *src, int n);
void ff_vmaf_adm_hsum3_64(int64_t *dst, const int64_t *src, int n);

/**
 * Masked cube sums of one row at scale 0. The threshold of pixel j is
 * hs[0][j] + hs[1][j] + hs[2][j] - flt[j] + ctr[j] (the 8 neighbours of the
 * masker's filtered CSF plus its centre term); s are the masked bands.
 * sum[k] receives the row sum of the rounded cubes; c_hv and c_d are the
 * per-element rounding shifts of the h/v and d bands.
 */
void ff_vmaf_adm_cm_row_s0(int64_t sum[3], const int16_t *const s[3],
                           const int32_t *const hs[3], const int32_t *flt,
                           const int32_t *ctr, int n, const uint16_t rf[3],
                           int c_hv, int c_d);

/** Same for scales 1..3, where x are the CSF-weighted masked bands. */
void ff_vmaf_adm_cm_row_s123(int64_t sum[3], const int32_t *const x[3],
                             const int64_t *const hs[3], const int64_t *flt,
                             const int64_t *ctr, int n, int shift);

/** Sum of |o|^3 over one row of a scale-0 reference band. */
uint64_t ff_vmaf_adm_den_row_s0(const int16_t *o, int n);

/**
 * Scales 1..3: sum over one row of ((((o^2 + 2^p) >> p) * |o|) + 2^(c-1)) >> c
 * (the 2^p rounding is libvmaf's).
 */
uint64_t ff_vmaf_adm_den_row_s123(const int32_t *o, int n, int p, int c);

/**
 * The kernels above as a dsp context, so that SIMD versions can stand in
 * for them. Every pointer has the contract of the C function of the same
 * name; ff_vmaf_adm_dsp_init() sets the C ones, then the best the CPU runs.
 */
typedef struct FFVmafADMDSPContext {
    void (*dwt_vert_s0)(int16_t *lo, int16_t *hi, const void *const src[4],
                        int w, int bpc);
    void (*dwt_horiz_s0)(int16_t *lo, int16_t *hi, const int16_t *in, int bw);
    void (*dwt_vert_s1)(int32_t *lo, int32_t *hi, const int16_t *const src[4],
                        int w);
    void (*dwt_vert_s23)(int32_t *lo, int32_t *hi, const int32_t *const src[4],
                         int w);
    void (*dwt_horiz_s123)(int32_t *lo, int32_t *hi, const int32_t *in,
                           int bw, int shift);
    void (*decouple_s0)(int16_t *const r[3], int16_t *const a[3],
                        const int16_t *const o[3], const int16_t *const t[3],
                        int n, double egl, const int32_t *div_lut);
    void (*decouple_s123)(int32_t *const r[3], int32_t *const a[3],
                          const int32_t *const o[3], const int32_t *const t[3],
                          int n, double egl, const int32_t *div_lut);
    void (*csf_s0)(int32_t *flt_sum, int32_t *ctr_sum,
                   const int16_t *const src[3], int n, const uint16_t rf[3]);
    void (*csf_s123)(int32_t *const dst[3], int64_t *flt_sum, int64_t *ctr_sum,
                     const int32_t *const src[3], int n, const uint32_t rf[3]);
    void (*hsum3_32)(int32_t *dst, const int32_t *src, int n);
    void (*hsum3_64)(int64_t *dst, const int64_t *src, int n);
    void (*cm_row_s0)(int64_t sum[3], const int16_t *const s[3],
                      const int32_t *const hs[3], const int32_t *flt,
                      const int32_t *ctr, int n, const uint16_t rf[3],
                      int c_hv, int c_d);
    void (*cm_row_s123)(int64_t sum[3], const int32_t *const x[3],
                        const int64_t *const hs[3], const int64_t *flt,
                        const int64_t *ctr, int n, int shift);
    uint64_t (*den_row_s0)(const int16_t *o, int n);
    uint64_t (*den_row_s123)(const int32_t *o, int n, int p, int c);
} FFVmafADMDSPContext;

/**
 * Set the C kernels, then the SIMD ones av_get_cpu_flags() allows. The
 * decouple kernels' SIMD versions assume egl within the option's range
 * (1..100), where every product fits an int32.
 */
void ff_vmaf_adm_dsp_init(FFVmafADMDSPContext *c);
void ff_vmaf_adm_dsp_init_x86(FFVmafADMDSPContext *c);

#endif /* AVFILTER_VMAF_FEATURES_ADM_DSP_H */
