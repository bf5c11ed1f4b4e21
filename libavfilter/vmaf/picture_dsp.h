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
 * Copies of picture rows: the staging of 10- and 12-bit samples for the
 * GPU, clamped to the depth's maximum on the way.
 */

#ifndef AVFILTER_VMAF_PICTURE_DSP_H
#define AVFILTER_VMAF_PICTURE_DSP_H

#include <stddef.h>
#include <stdint.h>

/**
 * Copy n 16-bit samples, each clamped to max; nonzero when any was above.
 * dst and src do not overlap; neither needs any alignment.
 */
unsigned ff_vmaf_copy_clamp16_c(uint16_t *dst, const uint16_t *src, size_t n, unsigned max);
unsigned ff_vmaf_copy_clamp16_avx2(uint16_t *dst, const uint16_t *src, size_t n, unsigned max);

typedef struct FFVmafPictureDSPContext {
    unsigned (*copy_clamp16)(uint16_t *dst, const uint16_t *src, size_t n, unsigned max);
} FFVmafPictureDSPContext;

/** The C versions, then the SIMD ones av_get_cpu_flags() allows. */
void ff_vmaf_picture_dsp_init(FFVmafPictureDSPContext *c);
void ff_vmaf_picture_dsp_init_x86(FFVmafPictureDSPContext *c);

#endif /* AVFILTER_VMAF_PICTURE_DSP_H */
