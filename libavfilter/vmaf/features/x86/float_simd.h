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
 * Prototypes of the AVX2 float-family kernels (float_dsp.h).
 */

#ifndef AVFILTER_VMAF_FEATURES_X86_FLOAT_SIMD_H
#define AVFILTER_VMAF_FEATURES_X86_FLOAT_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "../float_dsp.h"

void ff_vmaf_float_from_luma_avx2(float *dst, ptrdiff_t dst_stride,
                                  const uint8_t *src, ptrdiff_t linesize,
                                  int w, int h, int bpc, float offset);
void ff_vmaf_float_vfilter_avx2(float *dst, const float *src, ptrdiff_t stride,
                                int w, int h, int i, const float *g, int n);
void ff_vmaf_float_vfilter_stats_avx2(float *const dst[5], const float *x,
                                      const float *y, ptrdiff_t stride,
                                      int w, int h, int i, const float *g, int n);
void ff_vmaf_float_hfilter_avx2(float *dst, float *row, int w,
                                const float *g, int n, int step, int nout);
void ff_vmaf_float_dwt2_row_avx2(float *a, float *v, float *hb, float *d,
                                 const float *const src[FF_VMAF_DWT_TAPS], int w,
                                 float *tmp);
void ff_vmaf_float_vif_terms_avx2(float *num, float *den, const float *const st[5],
                                  int w, double sigma_nsq, float egl);
void ff_vmaf_float_adm_cm_avx2(float *const out[3], const float *const sig[3],
                               const float *const mdst[3], const float *const mflt[3][3],
                               int j0, int j1, int w, int bypass);
void ff_vmaf_float_adm_decouple_avx2(float *const dst_r[3], float *const flt_r[3],
                                     float *const dst_a[3], float *const flt_a[3],
                                     const float *const o[3], const float *const t[3],
                                     const float rf[2], double egl, int j0, int j1);
void ff_vmaf_float_filter2d_avx2(float *dst, ptrdiff_t dst_stride,
                                 const float *src, ptrdiff_t src_stride,
                                 int w, int h, const float *k, int n, float *tmp);

#endif /* AVFILTER_VMAF_FEATURES_X86_FLOAT_SIMD_H */
