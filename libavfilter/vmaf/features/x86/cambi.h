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

#ifndef AVFILTER_VMAF_FEATURES_X86_CAMBI_H
#define AVFILTER_VMAF_FEATURES_X86_CAMBI_H

#include <stdint.h>

void ff_vmaf_cambi_dither_row_8_avx2(uint16_t *dst, const uint8_t *p,
                                     const uint8_t *q, int w);
void ff_vmaf_cambi_convert_row_16_avx2(uint16_t *dst, const uint16_t *src,
                                       int w, int up, int down);
void ff_vmaf_cambi_zero_deriv_avx2(uint8_t *z, const uint16_t *p,
                                   const uint16_t *q, int w);
void ff_vmaf_cambi_mask_row_avx2(uint8_t *mask, uint16_t *colsum,
                                 const uint8_t *add, const uint8_t *sub,
                                 int w, int threshold);
void ff_vmaf_cambi_decimate_row_avx2(uint16_t *d, uint8_t *dm, const uint16_t *s,
                                     const uint8_t *m, int w);
void ff_vmaf_cambi_mode_h_avx2(uint16_t *dst, const uint16_t *src, int w);
void ff_vmaf_cambi_mode_v_avx2(uint16_t *dst, const uint16_t *a, const uint16_t *b,
                               const uint16_t *c, int w);
void ff_vmaf_cambi_mask_bits_avx2(uint64_t *bits, const uint8_t *m, int w);
void ff_vmaf_cambi_hist_add_avx2(uint16_t *lanes, uint32_t *off, const uint16_t *v,
                                 const uint8_t *m, const uint32_t *lane_of,
                                 uint32_t dummy, uint32_t base, int w);
void ff_vmaf_cambi_hist_sub_avx2(uint16_t *lanes, const uint32_t *off, int w);

#endif /* AVFILTER_VMAF_FEATURES_X86_CAMBI_H */
