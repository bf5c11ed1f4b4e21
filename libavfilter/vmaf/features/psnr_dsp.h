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


#ifndef AVFILTER_VMAF_FEATURES_PSNR_DSP_H
#define AVFILTER_VMAF_FEATURES_PSNR_DSP_H

#include <stddef.h>
#include <stdint.h>

/** Sum of squared differences of two w x h planes (8-bit samples). */
uint64_t ff_vmaf_sse_plane_8(const uint8_t *a, ptrdiff_t a_stride,
                             const uint8_t *b, ptrdiff_t b_stride,
                             int w, int h);

/** Same for 16-bit samples; strides in bytes. */
uint64_t ff_vmaf_sse_plane_16(const uint8_t *a, ptrdiff_t a_stride,
                              const uint8_t *b, ptrdiff_t b_stride,
                              int w, int h);

typedef struct FFVmafPSNRDSPContext {
    /**
     * Sum of squared differences of two w x h planes of the init's depth,
     * as ff_vmaf_sse_plane_8() / ff_vmaf_sse_plane_16(); the samples are
     * below 2^bpc.
     */
    uint64_t (*sse_plane)(const uint8_t *a, ptrdiff_t a_stride,
                          const uint8_t *b, ptrdiff_t b_stride,
                          int w, int h);
} FFVmafPSNRDSPContext;

/**
 * Set the C kernel for samples of bpc bits (8: uint8_t, 9..16: uint16_t),
 * then the SIMD one av_get_cpu_flags() allows.
 */
void ff_vmaf_psnr_dsp_init(FFVmafPSNRDSPContext *c, int bpc);
void ff_vmaf_psnr_dsp_init_x86(FFVmafPSNRDSPContext *c, int bpc);

/* AVX2 kernels (x86/psnr_avx2.c); _15 needs samples below 2^15. */
uint64_t ff_vmaf_sse_plane_8_avx2(const uint8_t *a, ptrdiff_t a_stride,
                                  const uint8_t *b, ptrdiff_t b_stride,
                                  int w, int h);
uint64_t ff_vmaf_sse_plane_15_avx2(const uint8_t *a, ptrdiff_t a_stride,
                                   const uint8_t *b, ptrdiff_t b_stride,
                                   int w, int h);
uint64_t ff_vmaf_sse_plane_16_avx2(const uint8_t *a, ptrdiff_t a_stride,
                                   const uint8_t *b, ptrdiff_t b_stride,
                                   int w, int h);

#endif /* AVFILTER_VMAF_FEATURES_PSNR_DSP_H */
