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

#ifndef AVFILTER_VMAF_FEATURES_X86_VIF_H
#define AVFILTER_VMAF_FEATURES_X86_VIF_H

#include <stddef.h>
#include <stdint.h>

#include "../vif_dsp.h"

void ff_vmaf_vif_statistic_avx2(FFVmafVifAccum *acc,
                                const uint8_t *ref, ptrdiff_t ref_stride,
                                const uint8_t *dis, ptrdiff_t dis_stride,
                                int w, int h, int bpc, int scale, double egl,
                                const uint16_t *log2_tab, void *tmp);
void ff_vmaf_vif_decimate_avx2(uint16_t *dst, ptrdiff_t dst_stride,
                               const uint8_t *src, ptrdiff_t src_stride,
                               int w, int h, int bpc, int scale, void *tmp);

/* AVX-512 (F, BW, VL, DQ): the same contracts and bits. */
void ff_vmaf_vif_statistic_avx512(FFVmafVifAccum *acc,
                                  const uint8_t *ref, ptrdiff_t ref_stride,
                                  const uint8_t *dis, ptrdiff_t dis_stride,
                                  int w, int h, int bpc, int scale, double egl,
                                  const uint16_t *log2_tab, void *tmp);
void ff_vmaf_vif_decimate_avx512(uint16_t *dst, ptrdiff_t dst_stride,
                                 const uint8_t *src, ptrdiff_t src_stride,
                                 int w, int h, int bpc, int scale, void *tmp);

#endif /* AVFILTER_VMAF_FEATURES_X86_VIF_H */
