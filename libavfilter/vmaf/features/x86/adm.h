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
 * Prototypes of the AVX2 kernels of the integer ADM (adm_avx2.c).
 */

#ifndef AVFILTER_VMAF_FEATURES_X86_ADM_H
#define AVFILTER_VMAF_FEATURES_X86_ADM_H

#include <stdint.h>

void ff_vmaf_adm_dwt_vert_s0_avx2(int16_t *lo, int16_t *hi,
                                  const void *const src[4], int w, int bpc);
void ff_vmaf_adm_dwt_horiz_s0_avx2(int16_t *lo, int16_t *hi, const int16_t *in,
                                   int bw);
void ff_vmaf_adm_dwt_vert_s1_avx2(int32_t *lo, int32_t *hi,
                                  const int16_t *const src[4], int w);
void ff_vmaf_adm_dwt_vert_s23_avx2(int32_t *lo, int32_t *hi,
                                   const int32_t *const src[4], int w);
void ff_vmaf_adm_dwt_horiz_s123_avx2(int32_t *lo, int32_t *hi, const int32_t *in,
                                     int bw, int shift);
void ff_vmaf_adm_decouple_s0_avx2(int16_t *const r[3], int16_t *const a[3],
                                  const int16_t *const o[3],
                                  const int16_t *const t[3],
                                  int n, double egl, const int32_t *div_lut);
void ff_vmaf_adm_decouple_s123_avx2(int32_t *const r[3], int32_t *const a[3],
                                    const int32_t *const o[3],
                                    const int32_t *const t[3],
                                    int n, double egl, const int32_t *div_lut);
void ff_vmaf_adm_csf_s0_avx2(int32_t *flt_sum, int32_t *ctr_sum,
                             const int16_t *const src[3], int n,
                             const uint16_t rf[3]);
void ff_vmaf_adm_csf_s123_avx2(int32_t *const dst[3], int64_t *flt_sum,
                               int64_t *ctr_sum, const int32_t *const src[3],
                               int n, const uint32_t rf[3]);
void ff_vmaf_adm_hsum3_32_avx2(int32_t *dst, const int32_t *src, int n);
void ff_vmaf_adm_hsum3_64_avx2(int64_t *dst, const int64_t *src, int n);
void ff_vmaf_adm_cm_row_s0_avx2(int64_t sum[3], const int16_t *const s[3],
                                const int32_t *const hs[3], const int32_t *flt,
                                const int32_t *ctr, int n, const uint16_t rf[3],
                                int c_hv, int c_d);
void ff_vmaf_adm_cm_row_s123_avx2(int64_t sum[3], const int32_t *const x[3],
                                  const int64_t *const hs[3], const int64_t *flt,
                                  const int64_t *ctr, int n, int shift);
uint64_t ff_vmaf_adm_den_row_s0_avx2(const int16_t *o, int n);
uint64_t ff_vmaf_adm_den_row_s123_avx2(const int32_t *o, int n, int p, int c);

#endif /* AVFILTER_VMAF_FEATURES_X86_ADM_H */
