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
 * The integer ADM's constants, shared by the C kernels (adm_dsp.c), their
 * SIMD versions (x86/adm_avx2.c) and the GPU kernels (gpu/adm.hip): plain
 * macros, no includes, so that device compilers read it too.
 */

#ifndef AVFILTER_VMAF_FEATURES_ADM_FILTER_H
#define AVFILTER_VMAF_FEATURES_ADM_FILTER_H

/* Daubechies-2 analysis filters in Q15; LO sums to sqrt(2) * 2^15. */
#define ADM_LO0  15826
#define ADM_LO1  27411
#define ADM_LO2   7345
#define ADM_LO3 (-4240)
#define ADM_HI0 (-4240)
#define ADM_HI1 (-7345)
#define ADM_HI2  27411
#define ADM_HI3 (-15826)

/* cos(1 degree)^2 rounded to float, 0x1.ffd814p-1: the decouple step's
 * angle tolerance, written as an exact quotient because not every device
 * compiler takes hex float literals. */
#define ADM_COS_1DEG_SQ (33544212.0 / 33554432.0)

#endif /* AVFILTER_VMAF_FEATURES_ADM_FILTER_H */
