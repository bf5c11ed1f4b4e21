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
 * Copies of picture rows into the memory the GPU uploads from (staging):
 * 8-bit rows as they are, 10- and 12-bit samples clamped to the depth's
 * maximum on the way.
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

/**
 * Copy n bytes into memory that the CPU does not read again soon (the GPU's
 * staging): the SIMD versions store around the caches, which spares the
 * memory the reads of the destination a cached store makes first, and the
 * caches the frames' bytes. When it returns, the bytes are visible to other
 * threads and to the device like any store's. No alignment is needed.
 */
void ff_vmaf_copy_stream_c(uint8_t *dst, const uint8_t *src, size_t n);
void ff_vmaf_copy_stream_avx2(uint8_t *dst, const uint8_t *src, size_t n);

typedef struct FFVmafPictureDSPContext {
    unsigned (*copy_clamp16)(uint16_t *dst, const uint16_t *src, size_t n, unsigned max);
    void (*copy_stream)(uint8_t *dst, const uint8_t *src, size_t n);
} FFVmafPictureDSPContext;

/** The C versions, then the SIMD ones av_get_cpu_flags() allows. */
void ff_vmaf_picture_dsp_init(FFVmafPictureDSPContext *c);
void ff_vmaf_picture_dsp_init_x86(FFVmafPictureDSPContext *c);

#endif /* AVFILTER_VMAF_PICTURE_DSP_H */
